//! The protocol of one hook (SPEC §6): what a finished hook said.
//!
//! Pure: takes the exit status and captured output of one hook and returns a
//! [`Verdict`]. Which fields count on which event is decided by the catalog's
//! encoding; unused or mistyped fields become warnings, never silence.

use serde_json::{Map, Value};

use crate::catalog::{Encoding, EventId, KnownEvent};
use crate::event::json_type_name;
use crate::notices::Notices;

/// A permission decision, most restrictive last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Permission {
    Allow,
    Ask,
    Defer,
    Deny,
}

impl Permission {
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Allow => "allow",
            Permission::Ask => "ask",
            Permission::Defer => "defer",
            Permission::Deny => "deny",
        }
    }

    fn parse(text: &str) -> Option<Permission> {
        match text {
            "allow" => Some(Permission::Allow),
            "ask" => Some(Permission::Ask),
            "defer" => Some(Permission::Defer),
            "deny" => Some(Permission::Deny),
            _ => None,
        }
    }
}

/// The broad outcome of one hook, for reports and logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Ran and said nothing blocking.
    Success,
    /// Asked to block (exit 2, JSON block/deny, or a failure with
    /// `onError: "block"`).
    Block,
    /// The hook itself failed (exit ≠ 0/2 without JSON, signal, timeout,
    /// spawn failure): not a block unless `onError: "block"`.
    Failure,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Block => "block",
            Outcome::Failure => "failure",
        }
    }
}

/// How a hook ended, as the protocol sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    Exited(i32),
    Signaled(i32),
    TimedOut {
        seconds: f64,
    },
    NotStarted(String),
    /// Ran and failed in a way the words say (an http hook: refused,
    /// unreachable, a non-2xx status, a body that is not a JSON object).
    Failed(String),
}

/// Everything the protocol needs about one finished hook.
#[derive(Debug, Clone, Copy)]
pub struct HookOutput<'a> {
    pub name: &'a str,
    pub ending: &'a Ending,
    pub stdout: &'a [u8],
    pub stdout_truncated: bool,
    pub stderr: &'a [u8],
    /// `onError: "block"`.
    pub fail_closed: bool,
    /// The event's `tool_input` when the hook ran (for legacy `tool_input`
    /// merges).
    pub tool_input: Option<&'a Value>,
}

/// What one hook said.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verdict {
    pub outcome: Option<Outcome>,
    /// Set when the hook blocks; the reason shown to the model.
    pub block_reason: Option<String>,
    /// allow / ask / defer (a deny is a block).
    pub permission: Option<Permission>,
    pub permission_reason: Option<String>,
    /// `continue: false`.
    pub stop: bool,
    pub stop_reason: Option<String>,
    pub system_message: Option<String>,
    pub suppress_output: bool,
    pub terminal_sequence: Option<String>,
    pub context: Option<String>,
    /// The complete new `tool_input` (legacy `tool_input` already merged).
    pub updated_input: Option<Value>,
    /// Event-specific fields that pass through (SPEC §7.3), in output order.
    pub passthrough: Map<String, Value>,
    /// `WorktreeCreate`: the path this hook produced.
    pub worktree_path: Option<String>,
    /// The failure, in words, when `outcome` is `Failure`.
    pub failure: Option<String>,
    /// What hookrun found reading the hook's answer: warnings for the
    /// person at the host, notes for the report.
    pub notices: Notices,
}

impl Verdict {
    pub fn outcome(&self) -> Outcome {
        self.outcome.unwrap_or(Outcome::Success)
    }

    pub fn blocks(&self) -> bool {
        self.block_reason.is_some()
    }
}

/// Hook-specific fields each encoding honours, beyond the universal ones
/// (the catalog's table; also the "fields" table of docs/protocol.md).
pub(crate) fn accepted_fields(encoding: Encoding) -> &'static [&'static str] {
    encoding.hook_fields().accepted
}

/// The JSON type a pass-through field must have.
#[derive(Clone, Copy)]
enum Kind {
    String,
    Bool,
    Object,
    StringList,
    Any,
}

fn field_kind(key: &str) -> Kind {
    match key {
        "suppressOriginalPrompt" | "reloadSkills" | "retry" => Kind::Bool,
        "content" | "updatedInput" | "tool_input" | "decision" => Kind::Object,
        "watchPaths" => Kind::StringList,
        "updatedToolOutput" | "updatedMCPToolOutput" => Kind::Any,
        _ => Kind::String,
    }
}

fn kind_ok(kind: Kind, value: &Value) -> bool {
    match kind {
        Kind::String => value.is_string(),
        Kind::Bool => value.is_boolean(),
        Kind::Object => value.is_object(),
        Kind::StringList => value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string)),
        Kind::Any => true,
    }
}

/// The JSON type a pass-through field must have, in words (for the docs).
pub(crate) fn expected_type(key: &str) -> &'static str {
    kind_name(field_kind(key))
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::String => "a string",
        Kind::Bool => "true or false",
        Kind::Object => "an object",
        Kind::StringList => "a list of strings",
        Kind::Any => "any value",
    }
}

/// Stdout as the protocol classifies it.
enum Stdout {
    Empty,
    Json(Map<String, Value>),
    Plain(String),
}

fn classify_stdout(out: &HookOutput<'_>, notices: &mut Notices) -> Stdout {
    let text = String::from_utf8_lossy(out.stdout);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Stdout::Empty;
    }
    if out.stdout_truncated {
        if trimmed.starts_with('{') {
            notices.warn(format!(
                "hook {}: its output was cut at the capture limit and is not parsed as a decision",
                out.name
            ));
        } else {
            notices.note("stdout was cut at the capture limit");
        }
        return Stdout::Plain(text.into_owned());
    }
    if trimmed.starts_with('{') {
        // Deep nesting and lone surrogates are read, as in the event.
        match crate::event::parse_json(trimmed.as_bytes()) {
            Ok(Value::Object(map)) => return Stdout::Json(map),
            Ok(_) => {}
            Err(err) => notices.warn(format!(
                "hook {}: stdout starts with `{{` but is not valid JSON ({err}); treated as plain text",
                out.name
            )),
        }
    }
    Stdout::Plain(text.into_owned())
}

fn first_lines(bytes: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let picked: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .take(lines)
        .collect();
    let joined = picked.join(" / ");
    crate::text::shorten(&joined, 300)
}

fn signal_name(signal: i32) -> String {
    crate::platform::signal_name(signal).map_or_else(|| format!("signal {signal}"), str::to_owned)
}

/// Reads one finished hook (SPEC §6).
pub fn read(event: &EventId, out: &HookOutput<'_>) -> Verdict {
    let mut verdict = Verdict::default();
    let encoding = event.encoding();
    let failure = match out.ending {
        Ending::Exited(0) => None,
        Ending::Exited(2) => {
            read_exit_2(out, &mut verdict);
            return verdict;
        }
        Ending::Exited(code) => {
            let mut said = Notices::default();
            if let Stdout::Json(json) = classify_stdout(out, &mut said) {
                // Other non-zero exit with valid JSON: the JSON alone decides.
                verdict.notices = said;
                verdict
                    .notices
                    .notes
                    .push(format!("exited {code} with JSON output: the JSON decides"));
                read_json(event, out, &json, &mut verdict);
                if encoding == Encoding::WorktreeCreate {
                    return worktree_failure(out, format!("exited {code}"), verdict);
                }
                return verdict;
            }
            Some(describe_exit(*code, out))
        }
        Ending::Signaled(signal) => Some(format!("killed by {}", signal_name(*signal))),
        Ending::TimedOut { seconds } => {
            Some(format!("timed out after {}", format_seconds(*seconds)))
        }
        Ending::NotStarted(why) => Some(format!("could not start: {why}")),
        Ending::Failed(why) => Some(why.clone()),
    };
    if let Some(cause) = failure {
        return fail(event, out, cause, verdict);
    }

    // Exit 0: what reading stdout found first, then what its answer says.
    match classify_stdout(out, &mut verdict.notices) {
        Stdout::Empty => {}
        Stdout::Json(json) => read_json(event, out, &json, &mut verdict),
        Stdout::Plain(text) => {
            if encoding == Encoding::WorktreeCreate {
                verdict.worktree_path = last_line_path(&text);
            } else if event.plain_stdout_is_context() && !out.stdout_truncated {
                verdict.context = Some(text.trim_end_matches(['\n', '\r']).to_owned());
            } else {
                verdict
                    .notices
                    .note("plain stdout on exit 0 is not shown to the model on this event");
            }
        }
    }
    if encoding == Encoding::WorktreeCreate && verdict.worktree_path.is_none() && !verdict.blocks()
    {
        verdict
            .notices
            .notes
            .push("produced no worktree path".to_owned());
    }
    verdict.outcome = Some(if verdict.blocks() {
        Outcome::Block
    } else {
        Outcome::Success
    });
    verdict
}

fn format_seconds(seconds: f64) -> String {
    if (seconds - seconds.round()).abs() < 1e-9 {
        format!("{seconds:.0} s")
    } else {
        format!("{seconds:.1} s")
    }
}

fn describe_exit(code: i32, out: &HookOutput<'_>) -> String {
    let stderr = first_lines(out.stderr, 3);
    let words = match code {
        127 => "exit 127: command not found; this hook is not doing its job".to_owned(),
        126 => "exit 126: command not executable; this hook is not doing its job".to_owned(),
        _ => format!("exit {code}"),
    };
    if stderr.is_empty() {
        words
    } else {
        format!("{words}: {stderr}")
    }
}

/// A failure of the hook itself: a warning, or a block with `onError: block`.
fn fail(event: &EventId, out: &HookOutput<'_>, cause: String, mut verdict: Verdict) -> Verdict {
    if event.encoding() == Encoding::WorktreeCreate {
        return worktree_failure(out, cause, verdict);
    }
    let message = format!("hook {} failed ({cause})", out.name);
    verdict.outcome = Some(Outcome::Failure);
    verdict.failure = Some(cause);
    if out.fail_closed {
        verdict.outcome = Some(Outcome::Block);
        verdict.block_reason = Some(format!("{message}; onError is \"block\""));
    } else {
        verdict.notices.warnings.push(message);
    }
    verdict
}

/// `WorktreeCreate`: any failure blocks, whatever `onError` says.
fn worktree_failure(out: &HookOutput<'_>, cause: String, mut verdict: Verdict) -> Verdict {
    verdict.outcome = Some(Outcome::Block);
    verdict.block_reason = Some(format!(
        "hook {} failed ({cause}): no worktree was created",
        out.name
    ));
    verdict.failure = Some(cause);
    verdict.worktree_path = None;
    verdict
}

fn read_exit_2(out: &HookOutput<'_>, verdict: &mut Verdict) {
    verdict.outcome = Some(Outcome::Block);
    let stdout = classify_stdout(out, &mut verdict.notices);
    // JSON cannot turn exit 2 into an allow; only its blocking reason counts
    // (Claude Code prefers it over stderr — probe b1).
    let json_reason = match &stdout {
        Stdout::Json(json) => blocking_reason(json),
        _ => None,
    };
    if matches!(stdout, Stdout::Json(_)) && json_reason.is_none() {
        verdict.notices.notes.push(
            "exit 2: the JSON on stdout is ignored (it carries no blocking reason)".to_owned(),
        );
    }
    let stderr = String::from_utf8_lossy(out.stderr).trim_end().to_owned();
    let stdout_text = String::from_utf8_lossy(out.stdout).trim_end().to_owned();
    let reason = json_reason
        .or_else(|| (!stderr.trim().is_empty()).then(|| stderr.clone()))
        .or_else(|| {
            (!stdout_text.trim().is_empty()).then(|| {
                verdict
                    .notices
                    .notes
                    .push("exit 2 with empty stderr: the reason is taken from stdout".to_owned());
                stdout_text.clone()
            })
        })
        .unwrap_or_else(|| "hook exited 2".to_owned());
    if looks_like_launch_failure(&stderr) {
        verdict.notices.warnings.push(format!(
            "hook {}: exit 2 looks like the interpreter could not open its script ({}); this blocks every call",
            out.name,
            first_lines(out.stderr, 1)
        ));
    }
    verdict.block_reason = Some(reason);
}

fn looks_like_launch_failure(stderr: &str) -> bool {
    stderr.contains("can't open file")
        || stderr.contains("No such file")
        || stderr.contains("Can't open perl script")
}

/// The reason a JSON object gives for blocking, if it blocks.
fn blocking_reason(json: &Map<String, Value>) -> Option<String> {
    let hso = json.get("hookSpecificOutput").and_then(Value::as_object);
    if let Some(hso) = hso {
        if hso.get("permissionDecision").and_then(Value::as_str) == Some("deny") {
            if let Some(reason) = hso.get("permissionDecisionReason").and_then(Value::as_str) {
                return Some(reason.to_owned());
            }
        }
        if let Some(decision) = hso.get("decision").and_then(Value::as_object) {
            if decision.get("behavior").and_then(Value::as_str) == Some("deny") {
                if let Some(message) = decision.get("message").and_then(Value::as_str) {
                    return Some(message.to_owned());
                }
            }
        }
    }
    if matches!(
        json.get("decision").and_then(Value::as_str),
        Some("block" | "deny")
    ) {
        if let Some(reason) = json.get("reason").and_then(Value::as_str) {
            return Some(reason.to_owned());
        }
    }
    None
}

fn last_line_path(text: &str) -> Option<String> {
    text.lines()
        .map(|line| strip_ansi(line).trim().to_owned())
        .rfind(|line| !line.is_empty())
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for next in chars.by_ref() {
                    if ('@'..='~').contains(&next) {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Reads a hook's JSON object (exit 0, or another non-2 exit with JSON).
fn read_json(
    event: &EventId,
    out: &HookOutput<'_>,
    json: &Map<String, Value>,
    verdict: &mut Verdict,
) {
    let name = out.name;
    let mut warn = |text: String| {
        verdict
            .notices
            .warnings
            .push(format!("hook {name}: {text}"));
    };
    let mut block_reason = None;
    let mut permission = None;
    let mut permission_reason = None;

    for (key, value) in json {
        match key.as_str() {
            "continue" => match value {
                Value::Bool(flag) => verdict.stop = !flag,
                other => warn(format!(
                    "`continue` must be true or false, found {}; ignored",
                    json_type_name(other)
                )),
            },
            "stopReason" | "systemMessage" | "terminalSequence" | "reason" => match value {
                Value::String(text) => match key.as_str() {
                    "stopReason" => verdict.stop_reason = Some(text.clone()),
                    "systemMessage" => verdict.system_message = Some(text.clone()),
                    "terminalSequence" => verdict.terminal_sequence = Some(text.clone()),
                    _ => {}
                },
                other => warn(format!(
                    "`{key}` must be a string, found {}; ignored",
                    json_type_name(other)
                )),
            },
            "suppressOutput" => match value {
                Value::Bool(flag) => verdict.suppress_output = *flag,
                other => warn(format!(
                    "`suppressOutput` must be true or false, found {}; ignored",
                    json_type_name(other)
                )),
            },
            "decision" => match value.as_str() {
                Some("block" | "deny") => {
                    let reason = json.get("reason").and_then(Value::as_str);
                    block_reason = Some(
                        reason.map_or_else(|| format!("blocked by hook {name}"), str::to_owned),
                    );
                }
                Some("approve" | "allow") => {
                    if event.before_tool_runs() {
                        permission = Some(Permission::Allow);
                        permission_reason = json
                            .get("reason")
                            .and_then(Value::as_str)
                            .map(str::to_owned);
                    } else {
                        warn(format!(
                            "`decision: {value}` has no effect on {}",
                            event.name()
                        ));
                    }
                }
                _ => warn(format!(
                    "`decision` must be \"block\" or \"approve\", found {value}; ignored"
                )),
            },
            "hookSpecificOutput" => {}
            other if crate::catalog::INTERNAL_ANSWER_FIELDS.contains(&other) => {
                verdict.notices.notes.push(format!(
                    "`{other}` is a field Claude Code reads only from its own internal hooks: ignored"
                ));
            }
            other => verdict
                .notices
                .notes
                .push(format!("unknown top-level field `{other}` ignored")),
        }
    }

    if let Some(hso_value) = json.get("hookSpecificOutput") {
        read_hso(
            event,
            out,
            hso_value,
            verdict,
            &mut block_reason,
            &mut permission,
            &mut permission_reason,
        );
    }

    if let Some(reason) = block_reason {
        verdict.block_reason = Some(reason);
        verdict.outcome = Some(Outcome::Block);
    } else if let Some(permission) = permission {
        verdict.permission = Some(permission);
        verdict.permission_reason = permission_reason;
    }
}

fn read_hso(
    event: &EventId,
    out: &HookOutput<'_>,
    value: &Value,
    verdict: &mut Verdict,
    block_reason: &mut Option<String>,
    permission: &mut Option<Permission>,
    permission_reason: &mut Option<String>,
) {
    let name = out.name;
    let encoding = event.encoding();
    let Value::Object(hso) = value else {
        verdict.notices.warnings.push(format!(
            "hook {name}: `hookSpecificOutput` must be an object, found {}; ignored",
            json_type_name(value)
        ));
        return;
    };
    if !names_this_event(event, name, hso, verdict) {
        return;
    }
    let accepted = accepted_fields(encoding);
    for (key, value) in hso {
        if key == "hookEventName" {
            continue;
        }
        if encoding.passes_everything() {
            verdict.passthrough.insert(key.clone(), value.clone());
            continue;
        }
        if crate::catalog::INTERNAL_ANSWER_FIELDS.contains(&key.as_str()) {
            verdict.notices.notes.push(format!(
                "hook {name}: `hookSpecificOutput.{key}` is a field Claude Code reads only from its desktop host's own hooks: ignored"
            ));
            continue;
        }
        if !accepted.contains(&key.as_str()) {
            verdict.notices.warnings.push(format!(
                "hook {name}: `hookSpecificOutput.{key}` has no effect on {}; ignored",
                event.name()
            ));
            continue;
        }
        let kind = field_kind(key);
        if !kind_ok(kind, value) {
            verdict.notices.warnings.push(format!(
                "hook {name}: `hookSpecificOutput.{key}` must be {}, found {}; ignored",
                kind_name(kind),
                json_type_name(value)
            ));
            continue;
        }
        match key.as_str() {
            "additionalContext" => verdict.context = value.as_str().map(str::to_owned),
            "permissionDecision" => match value.as_str().and_then(Permission::parse) {
                Some(Permission::Deny) => {
                    let reason = hso.get("permissionDecisionReason").and_then(Value::as_str);
                    *block_reason = Some(reason.map_or_else(|| format!("denied by hook {name}"), str::to_owned));
                }
                Some(Permission::Defer) if encoding == Encoding::ModelSwitch => {
                    verdict.notices.warnings.push(format!(
                        "hook {name}: `permissionDecision: \"defer\"` has no effect on {}: it takes allow, deny or ask; ignored",
                        event.name()
                    ));
                }
                Some(decision) => {
                    *permission = Some(decision);
                    *permission_reason = hso
                        .get("permissionDecisionReason")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                }
                None => verdict.notices.warnings.push(format!(
                    "hook {name}: `permissionDecision` must be allow, deny, ask or defer, found {value}; ignored"
                )),
            },
            "permissionDecisionReason" => {}
            "updatedInput" => verdict.updated_input = Some(value.clone()),
            "tool_input" => {
                // Legacy: shallow-merged into the current tool_input, unless
                // `updatedInput` (which replaces it) is also given.
                if !hso.contains_key("updatedInput") {
                    let mut merged = out.tool_input.and_then(Value::as_object).cloned().unwrap_or_default();
                    if let Value::Object(changes) = value {
                        merged.extend(changes.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                    verdict.updated_input = Some(Value::Object(merged));
                }
            }
            "decision" => read_permission_request(name, value, verdict, block_reason, permission),
            "action" => match value.as_str() {
                Some("accept" | "decline" | "cancel") => {
                    verdict.passthrough.insert(key.clone(), value.clone());
                }
                _ => verdict.notices.warnings.push(format!(
                    "hook {name}: `action` must be accept, decline or cancel, found {value}; ignored"
                )),
            },
            "worktreePath" => verdict.worktree_path = value.as_str().map(str::to_owned),
            _ => {
                verdict.passthrough.insert(key.clone(), value.clone());
            }
        }
    }
    if hso.contains_key("updatedInput") && hso.contains_key("tool_input") {
        verdict.notices.notes.push(
            "both `updatedInput` and legacy `tool_input` given: `updatedInput` wins".to_owned(),
        );
    }
}

/// Whether `hookSpecificOutput` names the event it answers (else it is
/// ignored, as Claude Code ignores it, with a warning).
fn names_this_event(
    event: &EventId,
    name: &str,
    hso: &Map<String, Value>,
    verdict: &mut Verdict,
) -> bool {
    match hso.get("hookEventName").and_then(Value::as_str) {
        None => {
            verdict.notices.warnings.push(format!(
                "hook {name}: `hookSpecificOutput` without `hookEventName` is ignored (as Claude Code ignores it); add \"hookEventName\": \"{}\"",
                event.name()
            ));
            return false;
        }
        // A skill's shell command is judged like a tool call: Claude Code
        // reads a PreToolUse answer there too.
        Some(given)
            if given != event.name()
                && !(given == KnownEvent::PreToolUse.name() && event.before_tool_runs()) =>
        {
            verdict.notices.warnings.push(format!(
                "hook {name}: `hookSpecificOutput.hookEventName` is {given:?} but this is {}; ignored (as Claude Code ignores it)",
                event.name()
            ));
            return false;
        }
        Some(_) => {}
    }
    true
}

/// `PermissionRequest` `decision.{behavior, updatedInput, updatedPermissions,
/// message, interrupt}`.
fn read_permission_request(
    name: &str,
    value: &Value,
    verdict: &mut Verdict,
    block_reason: &mut Option<String>,
    permission: &mut Option<Permission>,
) {
    let Some(decision) = value.as_object() else {
        return;
    };
    match decision.get("behavior").and_then(Value::as_str) {
        Some("allow") => *permission = Some(Permission::Allow),
        Some("deny") => {
            let message = decision.get("message").and_then(Value::as_str);
            *block_reason =
                Some(message.map_or_else(|| format!("denied by hook {name}"), str::to_owned));
        }
        Some("ask") => *permission = Some(Permission::Ask),
        other => verdict.notices.warnings.push(format!(
            "hook {name}: `decision.behavior` must be allow or deny, found {}; ignored",
            other.map_or_else(|| "nothing".to_owned(), |b| format!("{b:?}"))
        )),
    }
    if let Some(input) = decision.get("updatedInput") {
        if input.is_object() {
            verdict.updated_input = Some(input.clone());
        } else {
            verdict.notices.warnings.push(format!(
                "hook {name}: `decision.updatedInput` must be an object; ignored"
            ));
        }
    }
    for key in ["updatedPermissions", "interrupt"] {
        if let Some(value) = decision.get(key) {
            verdict.passthrough.insert(key.to_owned(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(event: &str, ending: Ending, stdout: &str, stderr: &str) -> Verdict {
        run_with(event, ending, stdout, stderr, false)
    }

    #[expect(
        clippy::needless_pass_by_value,
        reason = "tests pass each ending as a literal"
    )]
    fn run_with(
        event: &str,
        ending: Ending,
        stdout: &str,
        stderr: &str,
        fail_closed: bool,
    ) -> Verdict {
        let input = json!({"command": "ls", "description": "d"});
        read(
            &EventId::resolve(event),
            &HookOutput {
                name: "h",
                ending: &ending,
                stdout: stdout.as_bytes(),
                stdout_truncated: false,
                stderr: stderr.as_bytes(),
                fail_closed,
                tool_input: Some(&input),
            },
        )
    }

    #[test]
    fn json_answers_with_lone_surrogates_or_deep_nesting_still_decide() {
        let v = run(
            "Stop",
            Ending::Exited(0),
            r#"{"decision":"block","reason":"half an emoji \ud83d"}"#,
            "",
        );
        assert!(v.blocks(), "{v:?}");
        assert_eq!(v.block_reason.as_deref(), Some("half an emoji \u{FFFD}"));
        let deep = format!(
            r#"{{"decision":"block","reason":"r","x":{}0{}}}"#,
            "[".repeat(500),
            "]".repeat(500)
        );
        let v = run("Stop", Ending::Exited(0), &deep, "");
        assert!(v.blocks(), "{v:?}");
    }

    #[test]
    fn exit_0_plain_and_empty() {
        let v = run("PreToolUse", Ending::Exited(0), "", "");
        assert_eq!(v.outcome(), Outcome::Success);
        assert!(!v.blocks() && v.context.is_none() && v.notices.warnings.is_empty());
        let v = run("PreToolUse", Ending::Exited(0), "hello\n", "");
        assert!(v.context.is_none());
        let v = run(
            "UserPromptSubmit",
            Ending::Exited(0),
            "today is hook day\n",
            "",
        );
        assert_eq!(v.context.as_deref(), Some("today is hook day"));
        let v = run("SessionStart", Ending::Exited(0), "ctx", "");
        assert_eq!(v.context.as_deref(), Some("ctx"));
    }

    #[test]
    fn exit_2_reason_precedence() {
        let v = run("PreToolUse", Ending::Exited(2), "OUT", "ERR\n");
        assert_eq!(v.block_reason.as_deref(), Some("ERR"));
        let v = run("PreToolUse", Ending::Exited(2), "OUT\n", "");
        assert_eq!(v.block_reason.as_deref(), Some("OUT"));
        let v = run("PreToolUse", Ending::Exited(2), "", "");
        assert_eq!(v.block_reason.as_deref(), Some("hook exited 2"));
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"JSON"}}"#;
        let v = run("PreToolUse", Ending::Exited(2), deny, "ERR");
        assert_eq!(v.block_reason.as_deref(), Some("JSON"));
        // JSON cannot turn exit 2 into an allow.
        let v = run(
            "PreToolUse",
            Ending::Exited(2),
            r#"{"decision":"approve","reason":"fine"}"#,
            "ERR",
        );
        assert_eq!(v.block_reason.as_deref(), Some("ERR"));
        assert!(v.permission.is_none());
        let v = run(
            "PreToolUse",
            Ending::Exited(2),
            "",
            "python3: can't open file 'x.py': [Errno 2] No such file",
        );
        assert!(v.blocks());
        assert!(v.notices.warnings[0].contains("could not open its script"));
    }

    #[test]
    fn other_exit_codes_fail_unless_json() {
        let v = run(
            "PreToolUse",
            Ending::Exited(1),
            "",
            "boom\nsecond\nthird\nfourth",
        );
        assert_eq!(v.outcome(), Outcome::Failure);
        assert!(!v.blocks());
        assert_eq!(
            v.notices.warnings,
            ["hook h failed (exit 1: boom / second / third)"]
        );
        let v = run("PreToolUse", Ending::Exited(127), "", "");
        assert!(v.notices.warnings[0].contains("command not found"));
        let v = run("PreToolUse", Ending::Exited(126), "", "");
        assert!(v.notices.warnings[0].contains("not executable"));
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
        let v = run("PreToolUse", Ending::Exited(1), deny, "");
        assert_eq!(v.block_reason.as_deref(), Some("no"));
        let v = run_with("PreToolUse", Ending::Exited(1), "", "boom", true);
        assert!(v.blocks());
        assert!(v.block_reason.unwrap().contains("onError"));
        let v = run("Stop", Ending::TimedOut { seconds: 2.0 }, "", "");
        assert_eq!(v.notices.warnings, ["hook h failed (timed out after 2 s)"]);
        let v = run("Stop", Ending::Signaled(9), "", "");
        assert_eq!(v.notices.warnings, ["hook h failed (killed by SIGKILL)"]);
    }

    #[test]
    fn json_fields() {
        let v = run(
            "PreToolUse",
            Ending::Exited(0),
            r#"{"continue":false,"stopReason":"s","systemMessage":"m","suppressOutput":true,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r","updatedInput":{"command":"ls -la"},"additionalContext":"c"}}"#,
            "",
        );
        assert!(v.stop);
        assert_eq!(v.stop_reason.as_deref(), Some("s"));
        assert_eq!(v.system_message.as_deref(), Some("m"));
        assert!(v.suppress_output);
        assert_eq!(v.permission, Some(Permission::Ask));
        assert_eq!(v.permission_reason.as_deref(), Some("r"));
        assert_eq!(v.updated_input, Some(json!({"command":"ls -la"})));
        assert_eq!(v.context.as_deref(), Some("c"));
        assert!(v.notices.warnings.is_empty(), "{:?}", v.notices.warnings);
    }

    #[test]
    fn legacy_fields() {
        let v = run(
            "PreToolUse",
            Ending::Exited(0),
            r#"{"decision":"approve","reason":"ok"}"#,
            "",
        );
        assert_eq!(v.permission, Some(Permission::Allow));
        let v = run(
            "PostToolUse",
            Ending::Exited(0),
            r#"{"decision":"block","reason":"bad"}"#,
            "",
        );
        assert_eq!(v.block_reason.as_deref(), Some("bad"));
        let v = run(
            "PreToolUse",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","tool_input":{"command":"ls -la"}}}"#,
            "",
        );
        assert_eq!(
            v.updated_input,
            Some(json!({"command":"ls -la","description":"d"}))
        );
    }

    #[test]
    fn hso_without_event_name_is_ignored_loudly() {
        let v = run(
            "PreToolUse",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#,
            "",
        );
        assert!(!v.blocks());
        assert!(v.notices.warnings[0].contains("without `hookEventName`"));
        let v = run(
            "PreToolUse",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny"}}"#,
            "",
        );
        assert!(!v.blocks());
    }

    #[test]
    fn unused_and_mistyped_fields_warn() {
        let v = run(
            "Stop",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny","additionalContext":5}}"#,
            "",
        );
        assert!(!v.blocks());
        assert_eq!(v.notices.warnings.len(), 2, "{:?}", v.notices.warnings);
        let v = run("PreToolUse", Ending::Exited(0), "{not json", "");
        assert!(v.notices.warnings[0].contains("not valid JSON"));
    }

    #[test]
    fn permission_request_decisions() {
        let v = run(
            "PermissionRequest",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"nope","interrupt":true}}}"#,
            "",
        );
        assert_eq!(v.block_reason.as_deref(), Some("nope"));
        assert_eq!(v.passthrough.get("interrupt"), Some(&json!(true)));
        let v = run(
            "PermissionRequest",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"x"}}}}"#,
            "",
        );
        assert_eq!(v.permission, Some(Permission::Allow));
        assert_eq!(v.updated_input, Some(json!({"command":"x"})));
    }

    #[test]
    fn worktree_paths() {
        let v = run(
            "WorktreeCreate",
            Ending::Exited(0),
            "creating...\n\u{1b}[32m/tmp/wt\u{1b}[0m\n\n",
            "",
        );
        assert_eq!(v.worktree_path.as_deref(), Some("/tmp/wt"));
        let v = run("WorktreeCreate", Ending::Exited(1), "/tmp/wt", "");
        assert!(v.blocks());
        assert!(v.worktree_path.is_none());
    }

    #[test]
    fn unknown_events_pass_hso_through() {
        let v = run(
            "MyEvent",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"MyEvent","custom":[1]}}"#,
            "",
        );
        assert_eq!(v.passthrough.get("custom"), Some(&json!([1])));
    }
}

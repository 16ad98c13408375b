//! The hook entries of `hooks` on the precise path: both shapes (flat, and
//! Claude Code's matcher groups), each entry parsed on its own with its JSON
//! path, and [`finish_hook`], the checks and defaults both paths share.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::Reporter;
use crate::catalog::{self, EventId, KnownEvent};
use crate::event::json_type_name;
use crate::settings::model::{
    CommandDef, HookAction, HookDef, HookExtra, HookKind, HttpDef, JsonPath, McpToolDef, OnError,
    ProblemKind, PromptDef, Severity, ShellKind, UnsupportedDef,
};

/// The fields a hook entry may have, in [`RawHook`]'s order (the fast
/// path numbers them by position; `doctor` suggests the nearest for a
/// misspelt one).
pub const HOOK_FIELDS: [&str; 28] = [
    "type",
    "command",
    "args",
    "shell",
    "matcher",
    "if",
    "timeout",
    "name",
    "sequential",
    "onError",
    "async",
    "once",
    "statusMessage",
    "url",
    "headers",
    "allowedEnvVars",
    "prompt",
    "model",
    "continueOnBlock",
    "asyncRewake",
    "server",
    "tool",
    "input",
    "onFailure",
    "holdsTools",
    "rewakeMessage",
    "rewakeSummary",
    "cloud",
];

/// Fields of Claude Code's hook schema that it marks internal (its own
/// plugins and cloud sessions use them): known, so a Claude Code file that
/// sets them loads without an "unknown field", and ignored with a note.
pub const CLAUDE_INTERNAL_HOOK_FIELDS: &[(&str, &str)] = &[
    (
        "holdsTools",
        "Claude Code reads it only from its official security plugin",
    ),
    (
        "rewakeMessage",
        "Claude Code's internal wording for an asyncRewake hook's reminder",
    ),
    (
        "rewakeSummary",
        "Claude Code's internal one-line summary for an asyncRewake hook",
    ),
    (
        "cloud",
        "Claude Code's internal placement of a hook in cloud sessions",
    ),
];

/// The events on which Claude Code ignores `onFailure: "block"` (a block
/// there would keep the agent going, not stop an action).
const ON_FAILURE_IGNORED_ON: &[KnownEvent] = &[
    KnownEvent::Stop,
    KnownEvent::SubagentStop,
    KnownEvent::TaskCompleted,
    KnownEvent::TeammateIdle,
];

/// A hook entry as written (flat shape, or an inner hook of the nested one).
///
/// The settings JSON Schema is derived from this type (`docs/settings.schema.json`,
/// `just gen`), so the doc comments on its fields are what editors show.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "Hook",
    description = "One hook: a command (shell form `command`, or exec form `command` + `args`), an http endpoint (`url`) or a question to a model (`prompt`, `agent`)."
)]
pub(crate) struct RawHook {
    /// What the hook is: `command` (the default) runs a program, `http` POSTs the event to `url`, `prompt` asks a model whether the event may proceed, `agent` lets that model read the project (Read, Grep, Glob) before it answers, `mcp_tool` calls a tool on an MCP server. Other types load, but hookrun does not run them and says so on every fire.
    #[serde(rename = "type")]
    #[schemars(with = "Option<crate::generate::schema::HookTypeSchema>")]
    pub(super) hook_type: Option<String>,
    /// Shell form: run as `sh -c COMMAND` (or `bash -c`, see `shell`). With `args`: the program, resolved on PATH and run directly, no shell. `$HOOKRUN_CONFIG_DIR` is the folder of the settings file that declares the hook.
    pub(super) command: Option<String>,
    /// Exec form: the arguments of `command`, which then runs without a shell. `${HOOKRUN_CONFIG_DIR}`, `${CLAUDE_PROJECT_DIR}` and `${CLAUDE_PLUGIN_ROOT}` are substituted as plain strings.
    pub(super) args: Option<Vec<String>>,
    /// The shell of the shell form: `sh` (the default), `bash`, or `powershell` (run as `pwsh -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command COMMAND`, with `pwsh` or else `powershell` found on PATH, as Claude Code runs it). Ignored in exec form.
    #[schemars(with = "Option<crate::generate::schema::ShellSchema>")]
    pub(super) shell: Option<String>,
    /// Which calls the hook runs for, compared with the event's match field (`tool_name` on tool events). Absent, `""` or `"*"`: all. Only letters, digits, `_`, `-`, spaces, `,` and `|`: a list of exact, case-sensitive names (`Edit|Write`). Anything else: an unanchored JavaScript regex search (`^mcp__github__`). Inside a matcher group, the group's `matcher` applies instead.
    pub(super) matcher: Option<String>,
    /// One permission rule the call must match for the hook to run, such as `Bash(git push *)` or `Edit(src/**)`. Only on tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied): elsewhere a hook with `if` does not run. A filter that saves spawns, not a security boundary: hard limits belong in `permissions`.
    #[serde(rename = "if")]
    pub(super) if_rule: Option<String>,
    /// Seconds the hook may run before its process group is sent SIGTERM, then SIGKILL. Default 600 (UserPromptSubmit 30, MessageDisplay 10, prompt hooks 30, agent hooks 60 for the whole loop); capped by the managed `maxHookTimeout` and by the time left before the host's own timeout.
    #[schemars(with = "Option<crate::generate::schema::SecondsSchema>")]
    pub(super) timeout: Option<Seconds>,
    /// Shown in reports, logs and warnings. Default: the command (or URL), shortened.
    pub(super) name: Option<String>,
    /// When any hook matched by a fire sets this, that fire runs its hooks one after another in load order, each seeing the `tool_input` the previous one produced (`updatedInput`).
    pub(super) sequential: Option<bool>,
    /// What a failure of the hook itself means (a crash, an exit other than 0 and 2 without JSON, a timeout, a refused http request, a model answer that is not a verdict).
    pub(super) on_error: Option<RawOnError>,
    /// Start the hook detached and do not wait for it. Its `systemMessage` and `additionalContext` arrive with the next fire of the same session; its decisions have no effect.
    #[serde(rename = "async")]
    pub(super) run_async: Option<bool>,
    /// Run at most once per session (`session_id`). Ignored in Claude Code settings files, as Claude Code ignores it there.
    pub(super) once: Option<bool>,
    /// Carried into reports.
    pub(super) status_message: Option<String>,
    /// http hooks: the URL the event is POSTed to. Checked against `allowedHttpHookUrls`, and against the SSRF guard (private networks are refused, loopback is allowed).
    pub(super) url: Option<String>,
    /// http hooks: extra request headers. `$VAR` and `${VAR}` in values are replaced from hookrun's environment, only for names listed in `allowedEnvVars`.
    pub(super) headers: Option<BTreeMap<String, String>>,
    /// http hooks: the environment variables `headers` may use (your consent; others become empty).
    pub(super) allowed_env_vars: Option<Vec<String>>,
    /// Prompt and agent hooks: what the model is asked. `$ARGUMENTS` is replaced by the event JSON (the same a command hook reads on stdin); without it, the JSON is appended.
    pub(super) prompt: Option<String>,
    /// Prompt and agent hooks: the model to ask. Default: `ANTHROPIC_SMALL_FAST_MODEL`, else `ANTHROPIC_DEFAULT_HAIKU_MODEL`, else `promptHooks.model`, else a small Claude model.
    pub(super) model: Option<String>,
    /// Prompt hooks: on PreToolUse, PostToolUse and UserPromptSubmit, `ok: false` blocks and the agent goes on with the reason, instead of ending the turn.
    pub(super) continue_on_block: Option<bool>,
    /// With `async`: run in the background, and only an exit 2 speaks: its stderr (else stdout) reaches the model with a later fire of the session, as Claude Code wakes the model with it. Its JSON output is not used. Without `async` the hook runs in the foreground and its exit 2 blocks, as Claude Code 2.1.332 runs it.
    pub(super) async_rewake: Option<bool>,
    /// `mcp_tool` hooks: the MCP server, by its name in `.mcp.json` (the project's, which must be trusted) or ~/.claude.json. stdio servers only (`command`, `args`, `env`).
    pub(super) server: Option<String>,
    /// `mcp_tool` hooks: the tool to call.
    pub(super) tool: Option<String>,
    /// `mcp_tool` hooks: the tool's arguments. `${path}` in a string value is replaced by that field of the event JSON, such as `${tool_input.command}`.
    pub(super) input: Option<Box<serde_json::Map<String, Value>>>,
    /// Claude Code's name for `onError`, read the same way: `"continue"` is `onError: "allow"`, `"block"` is `onError: "block"`, and any other value reads as `"block"` (hookrun fails closed; Claude Code itself refuses such an entry, and with it the hooks and rules of its file). As in Claude Code, it is ignored on async hooks and on Stop, SubagentStop, TaskCompleted and TeammateIdle. Where both are set and disagree, `block` wins.
    #[schemars(with = "Option<crate::generate::schema::OnFailureSchema>")]
    pub(super) on_failure: Option<Value>,
    /// Claude Code internal (its security plugin's hooks): ignored.
    #[schemars(with = "Option<bool>")]
    pub(super) holds_tools: Option<Value>,
    /// Claude Code internal (an asyncRewake hook's reminder prefix): ignored.
    #[schemars(with = "Option<String>")]
    pub(super) rewake_message: Option<Value>,
    /// Claude Code internal (an asyncRewake hook's summary line): ignored.
    #[schemars(with = "Option<String>")]
    pub(super) rewake_summary: Option<Value>,
    /// Claude Code internal (where a hook may run for a cloud session): ignored.
    #[schemars(with = "Option<String>")]
    pub(super) cloud: Option<Value>,
}

impl RawHook {
    /// The value of a field a kind may require ([`HookKind::required`]).
    fn required_field(&self, field: &str) -> Option<&str> {
        match field {
            "command" => self.command.as_deref(),
            "url" => self.url.as_deref(),
            "prompt" => self.prompt.as_deref(),
            "server" => self.server.as_deref(),
            "tool" => self.tool.as_deref(),
            // A field no kind requires is never there.
            _ => None,
        }
    }
}

/// What a failure of the hook itself means.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "OnError")]
pub(super) enum RawOnError {
    /// The default: the failure is a warning, and the action goes ahead.
    Allow,
    /// Fail closed: the failure blocks, like an exit 2 (for policy gates).
    Block,
}

/// A timeout in seconds: a positive, finite number.
#[derive(Debug)]
pub(super) struct Seconds(pub(super) Duration);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Seconds;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a positive number of seconds")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Seconds, E> {
                if v.is_finite() && v > 0.0 && v < 1e9 {
                    Ok(Seconds(Duration::from_secs_f64(v)))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Seconds, E> {
                if v > 0 && v < 1_000_000_000 {
                    Ok(Seconds(Duration::from_secs(v)))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Seconds, E> {
                Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}
/// The filter field (`matcher` or `if`) an unknown key is a near miss of.
///
/// Misspelling a filter does not fail: the key is ignored and the hook runs
/// unfiltered, so a guard meant for `Bash` blocks every tool. Near misses
/// are errors, not the plain "unknown field" warning. `if` is short, so only
/// its case and doubling variants count (`If`, `iff`, `IF`), not every
/// one-letter neighbour (`id` is a fine bookkeeping key).
fn filter_typo(key: &str) -> Option<&'static str> {
    let folded = catalog::fold_name(key.trim());
    if key != "if" && matches!(folded.as_str(), "if" | "iff" | "ifs") {
        return Some("if");
    }
    if key != "matcher"
        && (5..=9).contains(&folded.len())
        && catalog::edit_distance(&folded, "matcher") <= 2
    {
        return Some("matcher");
    }
    None
}

fn unfiltered_message(key: &str, field: &str, who: &str, event: &EventId) -> String {
    format!(
        "unknown field `{key}`, probably a misspelt `{field}`: it is ignored, so {who} unfiltered, on every {}",
        event.name()
    )
}
pub(super) fn parse_hooks(
    value: &Value,
    file: usize,
    claude_mode: bool,
    out: &mut Vec<HookDef>,
    report: &mut Reporter<'_>,
) {
    let Value::Object(events) = value else {
        report.push(
            Severity::Error,
            ProblemKind::HooksNotAnObject,
            "hooks",
            format!(
                "expected an object mapping event names to lists of hooks, found {}; no hooks loaded from this file",
                json_type_name(value)
            ),
        );
        return;
    };
    for (event_key, entries) in events {
        let base = event_path(event_key);
        let event = EventId::resolve(event_key);
        if let EventId::Unknown(_) = event {
            unknown_event(event_key, &base, report);
        }
        let Value::Array(entries) = entries else {
            report.push(
                Severity::Error,
                ProblemKind::HookListNotAList,
                base,
                format!(
                    "expected a list of hooks, found {}; skipped",
                    json_type_name(entries)
                ),
            );
            continue;
        };
        let key: std::sync::Arc<str> = event_key.as_str().into();
        for (i, entry) in entries.iter().enumerate() {
            let entry_path = format!("{base}[{i}]");
            let ctx = EntryContext {
                file,
                event_key: &key,
                event: &event,
                claude_mode,
            };
            parse_entry(entry, &entry_path, &ctx, out, report);
        }
    }
}

pub(super) fn unknown_event(event_key: &str, base: &str, report: &mut Reporter<'_>) {
    // A host's own name for an event (Gemini's `BeforeTool`) means that
    // event, whatever name it happens to be spelt closest to.
    let alias = crate::host::HOSTS.iter().find_map(|h| {
        crate::host::mapping::event_row(h.events(), event_key)
            .filter(|row| row.claude != event_key)
            .map(|row| (h.id().display(), row.claude))
    });
    let hint = if let Some((host, meant)) = alias {
        format!(" (it is {host}'s name for `{meant}`; did you mean `{meant}`?)")
    } else {
        catalog::nearest(event_key).map_or_else(
            || " (hookrun passes unknown events through; is this a custom event?)".to_owned(),
            |near| format!(" (did you mean `{near}`?)"),
        )
    };
    report.push(
        Severity::Warning,
        ProblemKind::UnknownEvent,
        base,
        format!("`{event_key}` is not a known event{hint}"),
    );
}

/// `hooks.PreToolUse`, or `hooks["odd key"]` when the key is not a word.
pub(super) fn event_path(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        format!("hooks.{key}")
    } else {
        format!("hooks[{}]", Value::String(key.to_owned()))
    }
}

pub(super) struct EntryContext<'a> {
    pub(super) file: usize,
    /// Shared by every hook of the event (one allocation per event).
    pub(super) event_key: &'a std::sync::Arc<str>,
    pub(super) event: &'a EventId,
    pub(super) claude_mode: bool,
}

fn parse_entry(
    entry: &Value,
    path: &str,
    ctx: &EntryContext<'_>,
    out: &mut Vec<HookDef>,
    report: &mut Reporter<'_>,
) {
    let Value::Object(object) = entry else {
        report.push(
            Severity::Error,
            ProblemKind::HookNotAnObject,
            path,
            format!(
                "expected a hook object, found {}; skipped",
                json_type_name(entry)
            ),
        );
        return;
    };
    let Some(inner) = object.get("hooks") else {
        if let Some(hook) = parse_hook(entry, path, MatcherFrom::Own, ctx, report) {
            out.push(hook);
        }
        return;
    };
    parse_group(object, inner, path, ctx, out, report);
}

/// The Claude Code nested shape: `{"matcher": M, "hooks": [ ... ]}`.
fn parse_group(
    object: &Map<String, Value>,
    inner: &Value,
    path: &str,
    ctx: &EntryContext<'_>,
    out: &mut Vec<HookDef>,
    report: &mut Reporter<'_>,
) {
    let hook_fields: Vec<&String> = object
        .keys()
        .filter(|k| *k != "hooks" && *k != "matcher")
        .collect();
    if hook_fields
        .iter()
        .any(|k| matches!(k.as_str(), "command" | "type" | "url" | "args" | "prompt"))
    {
        report.push(
            Severity::Error,
            ProblemKind::MixedShapes,
            path,
            "mixes the nested shape (`hooks`) with hook fields (`command`, `type`…); put them inside `hooks` or drop `hooks`; skipped",
        );
        return;
    }
    for key in hook_fields {
        if filter_typo(key) == Some("matcher") {
            report.push(
                Severity::Error,
                ProblemKind::MisspeltMatcher,
                format!("{path}.{key}"),
                unfiltered_message(key, "matcher", "the hooks of this group run", ctx.event),
            );
            continue;
        }
        report.push(
            Severity::Warning,
            ProblemKind::UnknownGroupKey,
            format!("{path}.{key}"),
            "unknown key in a matcher group (a group has `matcher` and `hooks`), ignored",
        );
    }
    let matcher = match object.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.clone()),
        Some(other) => {
            report.push(
                Severity::Error,
                ProblemKind::NotAString,
                format!("{path}.matcher"),
                format!(
                    "expected a string, found {}; the group is skipped",
                    json_type_name(other)
                ),
            );
            return;
        }
    };
    let Value::Array(list) = inner else {
        report.push(
            Severity::Error,
            ProblemKind::HookListNotAList,
            format!("{path}.hooks"),
            format!(
                "expected a list of hooks, found {}; the group is skipped",
                json_type_name(inner)
            ),
        );
        return;
    };
    if list.is_empty() {
        report.push(
            Severity::Warning,
            ProblemKind::EmptyGroup,
            format!("{path}.hooks"),
            "is empty: this group runs nothing",
        );
    }
    for (j, hook) in list.iter().enumerate() {
        let hook_path = format!("{path}.hooks[{j}]");
        if !hook.is_object() {
            report.push(
                Severity::Error,
                ProblemKind::HookNotAnObject,
                &hook_path,
                format!(
                    "expected a hook object, found {}; skipped",
                    json_type_name(hook)
                ),
            );
            continue;
        }
        if let Some(def) = parse_hook(
            hook,
            &hook_path,
            MatcherFrom::Group(matcher.clone()),
            ctx,
            report,
        ) {
            out.push(def);
        }
    }
}

/// Where a hook's matcher comes from.
pub(super) enum MatcherFrom {
    /// Flat shape: the hook's own `matcher` field.
    Own,
    /// Nested shape: the group's matcher (an inner `matcher` is not a field).
    Group(Option<String>),
}

/// Parses one hook object.
fn parse_hook(
    value: &Value,
    path: &str,
    matcher_from: MatcherFrom,
    ctx: &EntryContext<'_>,
    report: &mut Reporter<'_>,
) -> Option<HookDef> {
    let mut unknown = Vec::new();
    let mut track = |ignored: serde_ignored::Path<'_>| unknown.push(ignored.to_string());
    let deserializer = serde_ignored::Deserializer::new(value, &mut track);
    let raw: Result<RawHook, _> = serde_path_to_error::deserialize(deserializer);
    let raw = match raw {
        Ok(raw) => raw,
        Err(err) => {
            let field = err.path().to_string();
            let at = if field == "." {
                path.to_owned()
            } else {
                format!("{path}.{field}")
            };
            report.push(
                Severity::Error,
                hook_field_error(&field, &err),
                at,
                format!("{}; this hook is skipped", err.inner()),
            );
            return None;
        }
    };
    for key in unknown {
        let own_matcher = matches!(matcher_from, MatcherFrom::Own);
        match filter_typo(&key) {
            Some(field) if field == "if" || own_matcher => report.push(
                Severity::Error,
                if field == "if" {
                    ProblemKind::MisspeltIf
                } else {
                    ProblemKind::MisspeltMatcher
                },
                format!("{path}.{key}"),
                unfiltered_message(&key, field, "this hook runs", ctx.event),
            ),
            _ => report.push(
                Severity::Warning,
                ProblemKind::UnknownField,
                format!("{path}.{key}"),
                "unknown field, ignored",
            ),
        }
    }
    finish_hook(raw, JsonPath::from(path), matcher_from, ctx, report)
}

/// The kind of a hook field serde refused: `timeout` reads seconds, and
/// serde words its other errors by kind (`unknown variant …`, `invalid
/// type: …`), which is what is matched here, not hookrun's own messages.
fn hook_field_error(
    field: &str,
    err: &serde_path_to_error::Error<serde_json::Error>,
) -> ProblemKind {
    let text = err.inner().to_string();
    if field == "timeout" {
        ProblemKind::NotSeconds
    } else if text.starts_with("unknown variant") {
        ProblemKind::UnknownVariant
    } else if text.starts_with("invalid type") {
        ProblemKind::WrongType
    } else {
        ProblemKind::InvalidValue
    }
}

/// The checks and defaults of one hook parsed without structural problems
/// (shared by the precise path and the fast one).
pub(super) fn finish_hook(
    raw: RawHook,
    json_path: JsonPath,
    matcher_from: MatcherFrom,
    ctx: &EntryContext<'_>,
    report: &mut Reporter<'_>,
) -> Option<HookDef> {
    // Written out only if a problem is reported.
    let path = &json_path;
    // `None`: a type hookrun does not run (it loads, and is reported).
    let kind = match raw.hook_type.as_deref() {
        None => Some(HookKind::DEFAULT),
        Some(word) => HookKind::from_word(word),
    };
    if !has_what_its_type_needs(&raw, kind, path, ctx.event, report) {
        return None;
    }
    warn_of_unused_fields(&raw, kind, path, report);
    internal_fields_noted(&raw, path, report);
    let on_error = on_error_of(&raw, ctx.event, path, report);
    let matcher = matcher_of(raw.matcher, matcher_from, path, report)
        .map(|m| model_switch_matcher(m, ctx.event));
    let once = once_of(raw.once, ctx.claude_mode, path, report);
    let async_rewake = async_rewake_of(raw.async_rewake, raw.run_async, path, report);
    let shell = || match raw.shell.as_deref() {
        None | Some("sh") => ShellKind::Sh,
        Some("bash") => ShellKind::Bash,
        Some("powershell") => ShellKind::PowerShell,
        Some(other) => ShellKind::Unsupported(other.to_owned()),
    };
    let prompt = move || {
        Arc::new(PromptDef {
            text: raw.prompt.unwrap_or_default(),
            model: raw.model.filter(|m| !m.trim().is_empty()),
            continue_on_block: raw.continue_on_block.unwrap_or(false),
        })
    };
    let action = match kind {
        Some(HookKind::Command) => HookAction::Command(CommandDef {
            shell: shell(),
            command: raw.command.unwrap_or_default(),
            args: raw.args,
        }),
        Some(HookKind::Http) => HookAction::Http(Arc::new(HttpDef {
            url: raw.url.unwrap_or_default(),
            headers: raw
                .headers
                .map(|h| h.into_iter().collect())
                .unwrap_or_default(),
            allowed_env_vars: raw.allowed_env_vars.unwrap_or_default(),
        })),
        Some(HookKind::Prompt) => HookAction::Prompt(prompt()),
        Some(HookKind::Agent) => HookAction::Agent(prompt()),
        Some(HookKind::McpTool) => HookAction::McpTool(Arc::new(McpToolDef {
            server: raw.server.unwrap_or_default(),
            tool: raw.tool.unwrap_or_default(),
            input: raw.input.map(|input| *input).unwrap_or_default(),
        })),
        None => HookAction::Unsupported(Box::new(UnsupportedDef {
            type_name: raw.hook_type.unwrap_or_default(),
            command: raw.command,
            args: raw.args,
            url: raw.url,
        })),
    };
    Some(HookDef {
        file: ctx.file,
        json_path,
        event_key: std::sync::Arc::clone(ctx.event_key),
        event: ctx.event.clone(),
        action,
        matcher,
        if_rule: raw.if_rule,
        timeout: raw.timeout.map(|s| s.0),
        name: raw.name,
        sequential: raw.sequential.unwrap_or(false),
        on_error,
        run_async: raw.run_async.unwrap_or(false),
        once,
        extra: extra_of(raw.status_message, async_rewake),
    })
}

/// The fields a hook of its kind needs ([`HookKind::required`]), and the
/// events it may run on: a problem (and `false`, the hook is skipped) when
/// one is missing.
fn has_what_its_type_needs(
    raw: &RawHook,
    kind: Option<HookKind>,
    path: &JsonPath,
    event: &EventId,
    report: &mut Reporter<'_>,
) -> bool {
    let Some(kind) = kind else { return true };
    for field in kind.required() {
        // `trim().is_empty()`, without trimming both ends first.
        match raw.required_field(field) {
            Some(value) if !value.chars().all(char::is_whitespace) => continue,
            // Only a command is told apart when it is there but empty.
            Some(_) if kind == HookKind::Command => report.push(
                Severity::Error,
                ProblemKind::CommandEmpty,
                format!("{path}.{field}"),
                "is empty; this hook is skipped",
            ),
            _ => {
                let gloss = if *field == "prompt" {
                    " (what the model is asked)"
                } else {
                    ""
                };
                report.push(
                    Severity::Error,
                    kind.missing(),
                    path,
                    format!(
                        "{} needs `{field}`{gloss}; this hook is skipped",
                        kind.called()
                    ),
                );
            }
        }
        return false;
    }
    match kind {
        HookKind::Command | HookKind::Http | HookKind::McpTool => {}
        HookKind::Prompt => {
            if let Some(why) = crate::settings::prompt::refusal(event) {
                report.push(
                    Severity::Warning,
                    ProblemKind::PromptHookEvent,
                    path,
                    format!("{why}; this hook never runs"),
                );
                return false;
            }
        }
        HookKind::Agent => {
            if let Some(why) = crate::settings::prompt::agent_refusal(event) {
                report.push(
                    Severity::Warning,
                    ProblemKind::AgentHookEvent,
                    path,
                    format!("{why}; this hook never runs"),
                );
                return false;
            }
            if raw.continue_on_block.is_some() {
                report.push(
                    Severity::Warning,
                    ProblemKind::NotForAgentHooks,
                    format!("{path}.continueOnBlock"),
                    "is not used by agent hooks (their `ok: false` never ends the turn), ignored",
                );
            }
        }
    }
    true
}

/// Fields set that the hook's type does not use: a warning each.
fn warn_of_unused_fields(
    raw: &RawHook,
    kind: Option<HookKind>,
    path: &JsonPath,
    report: &mut Reporter<'_>,
) {
    // Checked field by field only when one is set: most hooks set none.
    if kind != Some(HookKind::McpTool)
        && (raw.server.is_some() || raw.tool.is_some() || raw.input.is_some())
    {
        for (field, set) in [
            ("server", raw.server.is_some()),
            ("tool", raw.tool.is_some()),
            ("input", raw.input.is_some()),
        ] {
            if set {
                report.push(
                    Severity::Warning,
                    ProblemKind::OnlyForMcpToolHooks,
                    format!("{path}.{field}"),
                    "is only used by mcp_tool hooks, ignored",
                );
            }
        }
    }
    if matches!(kind, Some(HookKind::Command | HookKind::Http)) {
        for (field, set) in [
            ("prompt", raw.prompt.is_some()),
            ("model", raw.model.is_some()),
            ("continueOnBlock", raw.continue_on_block.is_some()),
        ] {
            if set {
                report.push(
                    Severity::Warning,
                    ProblemKind::OnlyForPromptHooks,
                    format!("{path}.{field}"),
                    "is only used by prompt hooks, ignored",
                );
            }
        }
    }
    if raw.args.is_some() && kind != Some(HookKind::Command) {
        report.push(
            Severity::Warning,
            ProblemKind::OnlyForCommandHooks,
            format!("{path}.args"),
            "is only used by command hooks, ignored",
        );
    }
    // A type hookrun does not run keeps what it was given (for its name
    // and `blockedCommands`); a known type drops another type's fields.
    let known = kind.is_some();
    if known && kind != Some(HookKind::Command) && (raw.command.is_some() || raw.shell.is_some()) {
        for (field, set) in [
            ("command", raw.command.is_some()),
            ("shell", raw.shell.is_some()),
        ] {
            if set {
                report.push(
                    Severity::Warning,
                    ProblemKind::OnlyForCommandHooks,
                    format!("{path}.{field}"),
                    "is only used by command hooks, ignored",
                );
            }
        }
    }
    if known
        && kind != Some(HookKind::Http)
        && (raw.url.is_some() || raw.headers.is_some() || raw.allowed_env_vars.is_some())
    {
        for (field, set) in [
            ("url", raw.url.is_some()),
            ("headers", raw.headers.is_some()),
            ("allowedEnvVars", raw.allowed_env_vars.is_some()),
        ] {
            if set {
                report.push(
                    Severity::Warning,
                    ProblemKind::OnlyForHttpHooks,
                    format!("{path}.{field}"),
                    "is only used by http hooks, ignored",
                );
            }
        }
    }
    if raw.shell.is_some() && raw.args.is_some() {
        report.push(
            Severity::Warning,
            ProblemKind::ShellInExecForm,
            format!("{path}.shell"),
            "is ignored in exec form (`args` runs the program without a shell)",
        );
    }
}

/// A hook's matcher: its own, or (inside a matcher group) the group's.
fn matcher_of(
    own: Option<String>,
    matcher_from: MatcherFrom,
    path: &JsonPath,
    report: &mut Reporter<'_>,
) -> Option<String> {
    match matcher_from {
        MatcherFrom::Group(group) => {
            if own.is_some() {
                report.push(
                    Severity::Warning,
                    ProblemKind::InnerMatcher,
                    format!("{path}.matcher"),
                    "is ignored inside a matcher group: the group's `matcher` applies (as in Claude Code)",
                );
            }
            group
        }
        MatcherFrom::Own => own,
    }
}

/// `once`, which a Claude Code settings file does not honour.
fn once_of(
    once: Option<bool>,
    claude_mode: bool,
    path: &JsonPath,
    report: &mut Reporter<'_>,
) -> bool {
    let once = once.unwrap_or(false);
    if once && claude_mode {
        report.push(
            Severity::Note,
            ProblemKind::ClaudeModeIgnored,
            format!("{path}.once"),
            "ignored in a Claude Code settings file, as Claude Code ignores it there",
        );
        false
    } else {
        once
    }
}

/// `asyncRewake`, with the note that without `async` it runs in the
/// foreground.
fn async_rewake_of(
    async_rewake: Option<bool>,
    run_async: Option<bool>,
    path: &JsonPath,
    report: &mut Reporter<'_>,
) -> bool {
    let async_rewake = async_rewake.unwrap_or(false);
    if async_rewake && !run_async.unwrap_or(false) {
        // A note on every fire (it runs as Claude Code runs it); `doctor`
        // grades it a warning (`async-rewake-foreground`).
        report.push(
            Severity::Note,
            ProblemKind::AsyncRewakeForeground,
            format!("{path}.asyncRewake"),
            "without \"async\": true, the hook runs in the foreground and its exit 2 blocks the call, as Claude Code runs it",
        );
    }
    async_rewake
}

/// A model-switch event's matcher as Claude Code compares it (a `[1m]`
/// suffix on a model name is dropped).
pub(super) fn model_switch_matcher(matcher: String, event: &EventId) -> String {
    if matches!(event.match_field(), catalog::MatchField::Model(_)) {
        catalog::model_matcher(&matcher)
    } else {
        matcher
    }
}

/// Claude Code's internal hook fields: a note each, nothing else.
fn internal_fields_noted(raw: &RawHook, path: &JsonPath, report: &mut Reporter<'_>) {
    if raw.holds_tools.is_none()
        && raw.rewake_message.is_none()
        && raw.rewake_summary.is_none()
        && raw.cloud.is_none()
    {
        return;
    }
    for ((field, why), set) in CLAUDE_INTERNAL_HOOK_FIELDS.iter().zip([
        raw.holds_tools.is_some(),
        raw.rewake_message.is_some(),
        raw.rewake_summary.is_some(),
        raw.cloud.is_some(),
    ]) {
        if set {
            report.push(
                Severity::Note,
                ProblemKind::ClaudeInternalField,
                format!("{path}.{field}"),
                format!("{why}: ignored by hookrun"),
            );
        }
    }
}

/// What a failure of the hook means: `onError`, or Claude Code's
/// `onFailure` read as Claude Code reads it.
fn on_error_of(
    raw: &RawHook,
    event: &EventId,
    path: &JsonPath,
    report: &mut Reporter<'_>,
) -> OnError {
    let on_error = match raw.on_error {
        Some(RawOnError::Block) => OnError::Block,
        Some(RawOnError::Allow) | None => OnError::Allow,
    };
    let Some(value) = &raw.on_failure else {
        return on_error;
    };
    let at = format!("{path}.onFailure");
    let on_failure = match value.as_str() {
        Some("continue") => OnError::Allow,
        Some("block") => OnError::Block,
        _ => {
            report.push(
                Severity::Warning,
                ProblemKind::OnFailureValue,
                &at,
                format!(
                    "{value} is not \"continue\" or \"block\": read as \"block\" (the hook's failures block); Claude Code refuses such an entry, and with it every hook and rule of this file"
                ),
            );
            OnError::Block
        }
    };
    let ignored_here = on_failure == OnError::Block
        && (raw.run_async.unwrap_or(false)
            || event
                .known()
                .is_some_and(|k| ON_FAILURE_IGNORED_ON.contains(&k)));
    let on_failure = if ignored_here {
        let what = if raw.run_async.unwrap_or(false) {
            "an async hook".to_owned()
        } else {
            event.name().to_owned()
        };
        report.push(
            Severity::Warning,
            ProblemKind::OnFailureIgnored,
            &at,
            format!(
                "\"block\" is ignored on {what}, as Claude Code ignores it there: a failure of this hook does not block"
            ),
        );
        OnError::Allow
    } else {
        on_failure
    };
    if raw.on_error.is_some() && on_error != on_failure {
        report.push(
            Severity::Warning,
            ProblemKind::OnFailureValue,
            &at,
            "disagrees with `onError` (one name for the same setting): \"block\" wins",
        );
        return OnError::Block;
    }
    on_failure
}

/// The rare fields, out of line.
fn extra_of(status_message: Option<String>, async_rewake: bool) -> Option<Box<HookExtra>> {
    // Most hooks set neither: nothing is built.
    if status_message.is_none() && !async_rewake {
        None
    } else {
        HookExtra {
            status_message,
            async_rewake,
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::test_util::{load, messages};
    use crate::catalog::KnownEvent;
    use crate::settings::model::{CommandDef, HookAction, Severity, ShellKind};

    /// Every field the kinds' table requires is read by the loader: a
    /// hook of each kind with its required fields loads, and one without
    /// any of them is skipped with the kind's problem.
    #[test]
    fn every_required_field_of_the_table_is_read() {
        for kind in crate::settings::HookKind::ALL {
            let mut hook = serde_json::Map::new();
            hook.insert("type".into(), kind.word().into());
            for field in kind.required() {
                let raw: super::RawHook =
                    serde_json::from_value(serde_json::json!({ *field: "x" })).unwrap();
                assert_eq!(raw.required_field(field), Some("x"), "{kind:?} {field}");
                hook.insert((*field).into(), "x".into());
            }
            let settings = load(&serde_json::json!({"hooks": {"Stop": [hook]}}).to_string());
            assert_eq!(settings.hooks.len(), 1, "{kind:?}: {:?}", settings.problems);
            assert_eq!(settings.hooks[0].action.kind(), Some(*kind));
            let bare = serde_json::json!({"hooks": {"Stop": [{"type": kind.word()}]}});
            let settings = load(&bare.to_string());
            assert!(settings.hooks.is_empty(), "{kind:?}");
            assert!(
                settings.problems.iter().any(|p| p.kind == kind.missing()),
                "{kind:?}: {:?}",
                settings.problems
            );
        }
    }

    #[test]
    fn flat_and_nested_shapes_mix_in_load_order() {
        let settings = load(
            r#"{"hooks":{"pre_tool_use":[
                {"command":"a","matcher":"Bash"},
                {"matcher":"Edit|Write","hooks":[{"type":"command","command":"b"},{"command":"c","timeout":5}]},
                {"command":"d"}
            ]}}"#,
        );
        assert!(settings.problems.is_empty(), "{:?}", messages(&settings));
        let got: Vec<_> = settings
            .hooks
            .iter()
            .map(|h| {
                (
                    h.action.command_text().unwrap().0.to_owned(),
                    h.matcher.clone(),
                    h.json_path.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "a".into(),
                    Some("Bash".into()),
                    "hooks.pre_tool_use[0]".into()
                ),
                (
                    "b".into(),
                    Some("Edit|Write".into()),
                    "hooks.pre_tool_use[1].hooks[0]".into()
                ),
                (
                    "c".into(),
                    Some("Edit|Write".into()),
                    "hooks.pre_tool_use[1].hooks[1]".into()
                ),
                ("d".into(), None, "hooks.pre_tool_use[2]".into()),
            ]
        );
        assert_eq!(settings.hooks[2].timeout, Some(Duration::from_secs(5)));
        assert!(
            settings
                .hooks
                .iter()
                .all(|h| h.event.known() == Some(KnownEvent::PreToolUse))
        );
    }

    #[test]
    fn a_bad_entry_is_skipped_alone_with_its_path() {
        let settings = load(
            r#"{"hooks":{"PreToolUse":[
                {"matcher":"Bash","hooks":[{"command":"ok1"},{"command":"bad","timeout":"10"}]},
                {"command":"ok2"}
            ]}}"#,
        );
        let commands: Vec<_> = settings
            .hooks
            .iter()
            .map(|h| h.action.command_text().unwrap().0.to_owned())
            .collect();
        assert_eq!(commands, ["ok1", "ok2"]);
        let problems = messages(&settings);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("/cfg/settings.json: hooks.PreToolUse[0].hooks[1].timeout: invalid type: string \"10\", expected a positive number of seconds"),
            "{}",
            problems[0]
        );
        assert_eq!(settings.problems[0].severity, Severity::Error);
    }

    #[test]
    fn misspelt_filter_keys_are_errors_that_say_the_hook_runs_unfiltered() {
        let settings = load(
            r#"{"hooks":{"PreToolUse":[
                {"matchr":"Bash","command":"x"},
                {"matcher":"Bash","iff":"Bash(git push *)","command":"y"},
                {"matches":"Read","hooks":[{"command":"z"}]},
                {"id":"mine","command":"w"}
            ]}}"#,
        );
        assert_eq!(settings.hooks.len(), 4, "the hooks still load");
        let errors: Vec<String> = settings
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].contains("hooks.PreToolUse[0].matchr: unknown field `matchr`, probably a misspelt `matcher`: it is ignored, so this hook runs unfiltered, on every PreToolUse"), "{errors:?}");
        assert!(
            errors[1].contains("[1].iff") && errors[1].contains("misspelt `if`"),
            "{errors:?}"
        );
        assert!(
            errors[2].contains("[2].matches")
                && errors[2].contains("the hooks of this group run unfiltered"),
            "{errors:?}"
        );
        // `id` is one letter from `if`, but a plain unknown field.
        assert!(
            messages(&settings)
                .iter()
                .any(|p| p.contains("[3].id: unknown field, ignored"))
        );
    }

    #[test]
    fn shape_errors_name_the_path() {
        let settings = load(
            r#"{"hooks":{"Stop":{"command":"x"},"PreToolUse":["echo",{"matcher":3,"hooks":[]},{"hooks":"x"},{"type":"http"},{"command":""},{"command":"ok","onError":"explode"}]}}"#,
        );
        assert!(settings.hooks.is_empty());
        let problems = messages(&settings);
        for expected in [
            "hooks.Stop: expected a list of hooks, found an object",
            "hooks.PreToolUse[0]: expected a hook object, found a string",
            "hooks.PreToolUse[1].matcher: expected a string, found a number",
            "hooks.PreToolUse[2].hooks: expected a list of hooks, found a string",
            "hooks.PreToolUse[3]: an http hook needs `url`",
            "hooks.PreToolUse[4].command: is empty",
            "hooks.PreToolUse[5].onError: unknown variant `explode`",
        ] {
            assert!(
                problems.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {problems:#?}"
            );
        }
    }

    #[test]
    fn prompt_hooks_load_where_they_can_run() {
        let settings = load(
            r#"{"hooks":{"Stop":[{"type":"prompt","prompt":"done?","model":"m","continueOnBlock":true}],
                "SessionStart":[{"hooks":[{"type":"prompt","prompt":"x"}]}],
                "PreToolUse":[{"type":"prompt"},{"command":"x","model":"m"}]}}"#,
        );
        let messages = messages(&settings);
        assert_eq!(settings.hooks.len(), 2, "{messages:#?}");
        let HookAction::Prompt(prompt) = &settings.hooks[0].action else {
            panic!("{:?}", settings.hooks[0].action);
        };
        assert_eq!(
            (
                prompt.text.as_str(),
                prompt.model.as_deref(),
                prompt.continue_on_block
            ),
            ("done?", Some("m"), true)
        );
        assert_eq!(settings.hooks[1].action.prompt(), None);
        for expected in [
            "hooks.SessionStart[0].hooks[0]: prompt hooks are not supported on SessionStart (no conversation to judge)",
            "hooks.PreToolUse[0]: a prompt hook needs `prompt`",
            "hooks.PreToolUse[1].model: is only used by prompt hooks, ignored",
        ] {
            assert!(
                messages.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {messages:#?}"
            );
        }
    }

    /// Another type's fields are dropped at load (a hook holds only its
    /// own kind's), so each one set is said, never silently lost.
    #[test]
    fn another_types_fields_are_warned_about_and_dropped() {
        let settings = load(
            r#"{"hooks":{"PreToolUse":[
                {"type":"http","url":"https://x.test/h","command":"rm -rf /","shell":"bash"},
                {"command":"true","url":"https://x.test/h","headers":{"A":"b"},"allowedEnvVars":["T"]},
                {"type":"prompt","prompt":"ok?","command":"x"},
                {"type":"webhook","command":"kept","url":"https://x.test/kept"}
            ]}}"#,
        );
        let messages = messages(&settings);
        assert_eq!(settings.hooks.len(), 4, "{messages:#?}");
        for expected in [
            "hooks.PreToolUse[0].command: is only used by command hooks, ignored",
            "hooks.PreToolUse[0].shell: is only used by command hooks, ignored",
            "hooks.PreToolUse[1].url: is only used by http hooks, ignored",
            "hooks.PreToolUse[1].headers: is only used by http hooks, ignored",
            "hooks.PreToolUse[1].allowedEnvVars: is only used by http hooks, ignored",
            "hooks.PreToolUse[2].command: is only used by command hooks, ignored",
        ] {
            assert!(
                messages.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {messages:#?}"
            );
        }
        // A type hookrun does not run keeps its fields: no such warning.
        assert!(
            !messages
                .iter()
                .any(|p| p.contains("PreToolUse[3].command") || p.contains("PreToolUse[3].url")),
            "{messages:#?}"
        );
    }

    #[test]
    fn agent_hooks_load_where_they_can_run() {
        let settings = load(
            r#"{"hooks":{"Stop":[{"type":"agent","prompt":"tests pass?","model":"m","continueOnBlock":true}],
                "PermissionRequest":[{"type":"agent","prompt":"x"}],
                "SessionStart":[{"type":"agent","prompt":"x"}],
                "PreToolUse":[{"type":"agent"}]}}"#,
        );
        let messages = messages(&settings);
        assert_eq!(settings.hooks.len(), 1, "{messages:#?}");
        let HookAction::Agent(prompt) = &settings.hooks[0].action else {
            panic!("{:?}", settings.hooks[0].action);
        };
        assert_eq!(
            (prompt.text.as_str(), prompt.model.as_deref()),
            ("tests pass?", Some("m"))
        );
        for expected in [
            "hooks.Stop[0].continueOnBlock: is not used by agent hooks",
            "hooks.PermissionRequest[0]: agent hooks are not supported on PermissionRequest",
            "hooks.SessionStart[0]: agent hooks are not supported on SessionStart",
            "hooks.PreToolUse[0]: an agent hook needs `prompt`",
        ] {
            assert!(
                messages.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {messages:#?}"
            );
        }
    }

    #[test]
    fn mcp_tool_hooks_load_with_their_call_and_need_a_server_and_a_tool() {
        let settings = load(
            r#"{"hooks": {"PreToolUse": [
                {"type": "mcp_tool", "server": "guard", "tool": "judge", "input": {"command": "${tool_input.command}"}},
                {"type": "mcp_tool", "server": "guard"},
                {"command": "c", "tool": "judge"}
            ]}}"#,
        );
        let HookAction::McpTool(mcp) = &settings.hooks[0].action else {
            panic!("{:?}", settings.hooks[0].action);
        };
        assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("guard", "judge"));
        assert_eq!(mcp.input["command"], "${tool_input.command}");
        assert_eq!(
            settings.hooks.len(),
            2,
            "the hook without `tool` is skipped"
        );
        let problems = messages(&settings);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("hooks.PreToolUse[1]: an mcp_tool hook needs `tool`")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("hooks.PreToolUse[2].tool: is only used by mcp_tool hooks")),
            "{problems:?}"
        );
    }

    #[test]
    fn unsupported_types_and_shells_still_load() {
        let settings = load(
            r#"{"hooks":{"Stop":[{"type":"webhook","prompt":"x"},{"command":"x","shell":"zsh"}]}}"#,
        );
        assert_eq!(settings.hooks.len(), 2);
        assert_eq!(settings.hooks[0].kind_name(), "webhook");
        assert!(matches!(
            settings.hooks[0].action,
            HookAction::Unsupported(_)
        ));
        let HookAction::Command(CommandDef { shell, .. }) = &settings.hooks[1].action else {
            panic!("{:?}", settings.hooks[1].action);
        };
        assert_eq!(*shell, ShellKind::Unsupported("zsh".into()));
    }

    #[test]
    fn inner_matcher_is_ignored_with_a_warning() {
        let settings = load(
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"x","matcher":"Edit"}]}]}}"#,
        );
        assert_eq!(settings.hooks[0].matcher.as_deref(), Some("Bash"));
        assert!(
            messages(&settings)[0].contains("hooks.PreToolUse[0].hooks[0].matcher: is ignored")
        );
    }
}

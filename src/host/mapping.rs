//! What every host adapter shares: the table row types, renaming `tool_input`
//! fields both ways, the `hookrun_host` field that keeps the host's original
//! names for hooks, and small encoding helpers.

use serde_json::{Map, Value, json};

use std::ffi::OsString;
use std::time::Duration;

use super::{Decoded, HostEnv, HostId, Rendered};
use crate::catalog::EventId;
use crate::event::{Event, InputError, json_type_name};
use crate::exit::Exit;
use crate::notices::Notices;

/// The field hooks find the host's original names and input under.
pub const HOST_FIELD: &str = "hookrun_host";

/// One host event and the Claude Code event it is.
#[derive(Debug, Clone, Copy)]
pub struct EventRow {
    pub host: &'static str,
    pub claude: &'static str,
    /// `hookrun install` routes this host event to hookrun.
    pub wired: bool,
}

/// A host event hookrun decodes; `install` does not route it.
pub const fn ev(host: &'static str, claude: &'static str) -> EventRow {
    EventRow {
        host,
        claude,
        wired: false,
    }
}

/// A host event hookrun decodes and `install` routes to hookrun.
pub const fn wired(host: &'static str, claude: &'static str) -> EventRow {
    EventRow {
        host,
        claude,
        wired: true,
    }
}

/// How many of `rows` `install` routes.
pub const fn wired_count(rows: &[EventRow]) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < rows.len() {
        if rows[i].wired {
            count += 1;
        }
        i += 1;
    }
    count
}

/// The rows `install` routes, in the table's order, as the host's wiring
/// lists them: (Claude Code event, the host's name for it). `N` is
/// [`wired_count`] of the same rows.
pub const fn wired_events<const N: usize>(rows: &[EventRow]) -> [(&'static str, &'static str); N] {
    let mut events = [("", ""); N];
    let mut next = 0;
    let mut i = 0;
    while i < rows.len() {
        if rows[i].wired {
            events[next] = (rows[i].claude, rows[i].host);
            next += 1;
        }
        i += 1;
    }
    assert!(next == N, "N is not the number of wired rows");
    events
}

/// One host tool and the Claude Code tool it is, with its `tool_input`
/// fields renamed (host name, Claude Code name). Fields not listed keep
/// their name both ways.
#[derive(Debug, Clone, Copy)]
pub struct ToolRow {
    pub host: &'static str,
    pub claude: &'static str,
    pub fields: &'static [(&'static str, &'static str)],
}

pub const fn tool(
    host: &'static str,
    claude: &'static str,
    fields: &'static [(&'static str, &'static str)],
) -> ToolRow {
    ToolRow {
        host,
        claude,
        fields,
    }
}

/// The row of a host event name: exact, else ignoring case and `_`/`-`
/// (`before_tool` is `BeforeTool`), as Claude Code's names are read.
pub fn event_row<'a>(rows: &'a [EventRow], host_name: &str) -> Option<&'a EventRow> {
    if rows.is_empty() {
        // Claude Code's own names: nothing to fold (the fire fast path).
        return None;
    }
    rows.iter().find(|r| r.host == host_name).or_else(|| {
        let folded = crate::catalog::fold_name(host_name);
        rows.iter()
            .find(|r| crate::catalog::fold_name(r.host) == folded)
    })
}

pub fn tool_row<'a>(rows: &'a [ToolRow], host_name: &str) -> Option<&'a ToolRow> {
    rows.iter().find(|r| r.host == host_name)
}

/// The row whose Claude Code name is `claude` and host name `host`.
pub fn tool_row_for<'a>(rows: &'a [ToolRow], host: &str, claude: &str) -> Option<&'a ToolRow> {
    rows.iter().find(|r| r.host == host && r.claude == claude)
}

/// Renames the keys of a `tool_input` object: host → Claude Code names
/// (`to_claude`) or back. Anything but an object is returned unchanged.
pub fn rename(input: &Value, fields: &[(&str, &str)], to_claude: bool) -> Value {
    let Value::Object(map) = input else {
        return input.clone();
    };
    let mut out = Map::new();
    // A field with the target name next to the one renamed to it (a decoy
    // `file_path` beside Copilot's `path`) is dropped: the field the tool
    // reads decides what is judged.
    let decoy = |key: &str| {
        fields.iter().any(|(host, claude)| {
            let (from, to) = if to_claude {
                (host, claude)
            } else {
                (claude, host)
            };
            key == *to && map.contains_key(*from)
        })
    };
    for (key, value) in map {
        if decoy(key) {
            continue;
        }
        let renamed = fields.iter().find_map(|(host, claude)| {
            let (from, to) = if to_claude {
                (host, claude)
            } else {
                (claude, host)
            };
            (key == from).then_some(*to)
        });
        out.insert(renamed.unwrap_or(key).to_owned(), value.clone());
    }
    Value::Object(out)
}

/// The event name the host sent: the argument, else `hook_event_name`.
pub fn host_event_name(raw: &Map<String, Value>, arg: Option<&str>) -> Result<String, InputError> {
    if let Some(name) = arg.map(str::trim).filter(|n| !n.is_empty()) {
        return Ok(name.to_owned());
    }
    match raw.get("hook_event_name") {
        Some(Value::String(name)) if !name.trim().is_empty() => Ok(name.trim().to_owned()),
        Some(Value::String(_) | Value::Null) | None => Err(InputError::NoEventName),
        Some(other) => Err(InputError::EventNameNotString(json_type_name(other))),
    }
}

/// The event name the host sent and the Claude Code event it is (names
/// not in `rows` keep their name).
pub fn event_names(
    raw: &Map<String, Value>,
    arg: Option<&str>,
    rows: &[EventRow],
) -> Result<(String, String), InputError> {
    let host_event = host_event_name(raw, arg)?;
    let claude_event =
        event_row(rows, &host_event).map_or_else(|| host_event.clone(), |r| r.claude.to_owned());
    Ok((host_event, claude_event))
}

/// The parts of a decoded event that differ from the host's.
#[derive(Debug, Default)]
pub struct Translated {
    pub host: HostId,
    pub host_event: String,
    pub claude_event: String,
    /// The host's tool name and input, when the tool name or input changed.
    pub host_tool: Option<String>,
    pub host_tool_input: Option<Value>,
    /// What the decode translated (notes) and could not (warnings).
    pub notices: Notices,
    /// More of the host's original values, kept under `hookrun_host`
    /// beside its names (a `tool_response` the decode translated).
    pub kept: Vec<(&'static str, Value)>,
}

impl Translated {
    /// The start of most decodes: the event's names by the host's events
    /// table, and its tool renamed in place by its tools table (an MCP
    /// tool by `mcp`, as [`translate_tool`] does).
    pub fn begin(
        facts: &super::Facts,
        raw: &mut Map<String, Value>,
        arg: Option<&str>,
        mcp: impl Fn(&str, &Map<String, Value>) -> Option<String>,
    ) -> Result<Translated, InputError> {
        let (host_event, claude_event) = event_names(raw, arg, facts.events)?;
        let (host_tool, host_tool_input) = translate_tool(raw, facts.tools, mcp);
        Ok(Translated {
            host: facts.id,
            host_event,
            claude_event,
            host_tool,
            host_tool_input,
            ..Translated::default()
        })
    }

    /// Keeps the host's original `value` of `key` under `hookrun_host`.
    pub fn keep(&mut self, key: &'static str, value: Option<Value>) {
        if let Some(value) = value {
            self.kept.push((key, value));
        }
    }
}

/// Renames `tool_name`/`tool_input` of `raw` in place by `rows`; an MCP
/// tool is renamed by `mcp` (host name → `mcp__server__tool`). Returns the
/// host's tool name and input when they were present.
pub fn translate_tool(
    raw: &mut Map<String, Value>,
    rows: &[ToolRow],
    mcp: impl Fn(&str, &Map<String, Value>) -> Option<String>,
) -> (Option<String>, Option<Value>) {
    let Some(name) = raw
        .get("tool_name")
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return (None, raw.get("tool_input").cloned());
    };
    let input = raw.get("tool_input").cloned();
    if let Some(row) = tool_row(rows, &name) {
        raw.insert("tool_name".into(), json!(row.claude));
        if let Some(input) = &input {
            raw.insert("tool_input".into(), rename(input, row.fields, true));
        }
    } else if let Some(renamed) = mcp(&name, raw) {
        raw.insert("tool_name".into(), json!(renamed));
    }
    (Some(name), input)
}

/// Why a payload fired as `this` host looks like another host's: an event
/// name only that host uses (Gemini's `BeforeTool`), or its own field
/// names (Copilot's `toolName`), where `this` would silently answer in a
/// dialect the caller ignores.
pub fn foreign_dialect(this: HostId, raw: &Map<String, Value>, event_name: &str) -> Option<String> {
    let hint = |other: &dyn super::Host, why: String| {
        format!(
            "this payload looks like {}'s ({why}), not {}'s: its blocks may not be honoured. Fire it with `--host {}`",
            other.facts().display,
            this.display(),
            other.name()
        )
    };
    for other in super::HOSTS.iter().copied().filter(|h| h.id() != this) {
        let own = |name: &str| {
            other
                .events()
                .iter()
                .any(|r| r.host == name && r.host != r.claude)
        };
        let mine = |name: &str| {
            super::host(this).events().iter().any(|r| r.host == name)
                || (this != HostId::Gemini && crate::catalog::lookup(name).is_some())
        };
        if own(event_name) && !mine(event_name) {
            return Some(hint(other, format!("event `{event_name}`")));
        }
    }
    let copilot_keys = ["toolName", "toolArgs", "sessionId"];
    if this != HostId::Copilot && !raw.contains_key("tool_name") {
        if let Some(key) = copilot_keys.iter().find(|k| raw.contains_key(**k)) {
            return Some(hint(super::host(HostId::Copilot), format!("field `{key}`")));
        }
    }
    None
}

/// Finishes a decode: records the host's names under `hookrun_host` and
/// builds the event under its Claude Code name.
pub fn finish(mut raw: Map<String, Value>, mut t: Translated) -> Result<Decoded, InputError> {
    t.notices
        .warnings
        .extend(foreign_dialect(t.host, &raw, &t.host_event));
    let mut info = Map::new();
    info.insert("host".into(), json!(t.host.name()));
    info.insert("hook_event_name".into(), json!(t.host_event));
    if let Some(tool) = &t.host_tool {
        info.insert("tool_name".into(), json!(tool));
    }
    if let Some(input) = &t.host_tool_input {
        info.insert("tool_input".into(), input.clone());
    }
    for (key, value) in t.kept {
        info.insert(key.into(), value);
    }
    raw.insert(HOST_FIELD.into(), Value::Object(info));
    let event = Event::from_object(raw, Some(&t.claude_event))?;
    Ok(Decoded {
        event,
        host_event: Some(t.host_event),
        notices: t.notices,
        fire_no_hooks: false,
    })
}

/// What the decode recorded about the host (`hookrun_host`).
pub fn host_info(event: &Event) -> Option<&Map<String, Value>> {
    event.field(HOST_FIELD).and_then(Value::as_object)
}

pub fn host_event_of(event: &Event) -> String {
    host_info(event)
        .and_then(|i| i.get("hook_event_name"))
        .and_then(Value::as_str)
        .map_or_else(|| event.id.name().to_owned(), str::to_owned)
}

pub fn host_tool_of(event: &Event) -> Option<&str> {
    host_info(event)
        .and_then(|i| i.get("tool_name"))
        .and_then(Value::as_str)
        .or_else(|| event.tool_name())
}

pub fn host_tool_input_of(event: &Event) -> Option<&Value> {
    host_info(event).and_then(|i| i.get("tool_input"))
}

/// A block reason hosts accept: never empty.
pub fn reason_text(reason: &str) -> String {
    if reason.trim().is_empty() {
        "blocked by a hook (hookrun)".to_owned()
    } else {
        reason.to_owned()
    }
}

/// One compact JSON object and a newline.
pub fn line(object: &Map<String, Value>) -> String {
    let mut text = serde_json::to_string(object).expect("JSON values serialise");
    text.push('\n');
    text
}

/// A JSON answer, exit 0.
pub fn json_answer(object: &Map<String, Value>) -> Rendered {
    Rendered {
        stdout: line(object),
        stderr: String::new(),
        exit: Exit::Success,
        value: Value::Object(object.clone()),
    }
}

/// Nothing on stdout, exit 0: "no decision" to every host.
pub fn empty_answer() -> Rendered {
    Rendered {
        stdout: String::new(),
        stderr: String::new(),
        exit: Exit::Success,
        value: Value::String(String::new()),
    }
}

/// A JSON answer that blocks by its content and by exit 2 with the reason
/// on stderr, for hosts that read either channel: both say the same.
pub fn json_block(object: &Map<String, Value>, reason: &str) -> Rendered {
    Rendered {
        stdout: line(object),
        stderr: format!("{reason}\n"),
        exit: Exit::Block,
        value: Value::Object(object.clone()),
    }
}

/// The default deadline for a host whose timeout is one number for every
/// event: that timeout minus a margin (as for Claude Code).
pub fn deadline_within(host_timeout: Duration) -> Duration {
    if host_timeout <= Duration::from_secs(2) {
        Duration::from_millis(1200).min(host_timeout)
    } else {
        host_timeout.saturating_sub(Duration::from_secs(1))
    }
}

/// Sets what hooks learn about the host in their environment:
/// `HOOKRUN_HOST` (the host's name), `HOOKRUN_HOST_EVENT` and
/// `HOOKRUN_HOST_TOOL_NAME` (its own names for the event and the tool).
pub fn set_hook_vars(vars: &mut Vec<(OsString, OsString)>, host: &dyn super::Host, event: &Event) {
    let mut set = |key: &str, value: &str| {
        vars.retain(|(k, _)| k != key);
        vars.push((OsString::from(key), OsString::from(value)));
    };
    set("HOOKRUN_HOST", host.name());
    set("HOOKRUN_HOST_EVENT", &host_event_of(event));
    if let Some(tool) = host_tool_of(event) {
        set("HOOKRUN_HOST_TOOL_NAME", tool);
    }
}

/// The host of a fire started by a hook (`HOOKRUN_DEPTH` set): the hook got
/// the event in Claude Code's vocabulary and reads its hooks' answers in
/// Claude Code's protocol, so the `HOOKRUN_HOST` that [`set_hook_vars`]
/// set for it describes the outer host, not this fire's: only a `--host`
/// on this command line counts (`given`).
pub fn host_in_hook(parsed: HostId, vars: &[(OsString, OsString)], given: bool) -> HostId {
    let env = HostEnv::new(vars);
    let in_hook = env.get("HOOKRUN_DEPTH").is_some();
    let from_env = env
        .get("HOOKRUN_HOST")
        .is_some_and(|v| v.to_str() == Some(parsed.name()));
    if in_hook && from_env && !given {
        HostId::ClaudeCode
    } else {
        parsed
    }
}

/// hookrun's own cap on consecutive Stop blocks when `--stop-block-cap`
/// is not given.
pub const DEFAULT_STOP_BLOCK_CAP: u32 = 8;

/// The stop-loop cap of one fire: the one given; else, behind a host that
/// caps Stop blocks itself, one more than the host's cap (hookrun's guard
/// must not cut in before the host's own); else hookrun's default (the
/// guard is the only cap).
pub fn stop_block_cap(given: Option<u32>, host: &dyn super::Host, env: &HostEnv<'_>) -> u32 {
    given.unwrap_or_else(|| {
        host.own_stop_block_cap(env)
            .map_or(DEFAULT_STOP_BLOCK_CAP, |cap| cap.saturating_add(1))
    })
}

/// The misspelt-event and argument/input warnings in `host`'s vocabulary:
/// its own event names (Gemini's `BeforeTool`) are known, a near miss of
/// one is a typo of it, and an argument and an input naming one event in
/// two spellings (`PreToolUse`, `BeforeTool`) agree.
pub fn event_name_warnings(
    host: &dyn super::Host,
    argument: Option<&str>,
    input: Option<&str>,
) -> Vec<String> {
    let rows = host.events();
    let typo = |name: &str| -> Option<&'static str> {
        if event_row(rows, name).is_some() || crate::catalog::lookup(name).is_some() {
            return None;
        }
        crate::catalog::nearest_within(name, rows.iter().map(|r| r.host))
            .or_else(|| crate::catalog::probable_typo(name))
    };
    let resolve =
        |name: &str| EventId::resolve(event_row(rows, name.trim()).map_or(name, |r| r.claude));
    crate::catalog::event_name_warnings_with(argument, input, typo, resolve)
}

/// A host variable as text.
pub fn var<'a>(env: &HostEnv<'a>, name: &str) -> Option<&'a str> {
    env.get(name).and_then(std::ffi::OsStr::to_str)
}

/// The input rewrite in the host's field names: the Claude Code view with
/// the tool's fields renamed back.
pub fn rewrite_for_host(event: &Event, rows: &[ToolRow], updated: &Value) -> Value {
    let host_tool = host_tool_of(event).unwrap_or_default();
    let claude_tool = event.tool_name().unwrap_or_default();
    match tool_row_for(rows, host_tool, claude_tool) {
        Some(row) => rename(updated, row.fields, false),
        None => updated.clone(),
    }
}

/// A field the host sends as a JSON string holding an object (Copilot's
/// `toolArgs`, Cursor's MCP `tool_input`), read with the reader of stdin
/// (lone surrogates, deep nesting) and put in its place. A string that
/// looks like JSON but does not read as an object is a warning: rules
/// would see no field of it.
pub fn nested_json(raw: &mut Map<String, Value>, key: &str) -> Option<String> {
    let Some(Value::String(text)) = raw.get(key) else {
        return None;
    };
    match crate::event::parse_json(text.as_bytes()) {
        Ok(parsed @ Value::Object(_)) => {
            raw.insert(key.into(), parsed);
            None
        }
        Err(err) if text.trim_start().starts_with('{') => Some(format!(
            "`{key}` is a JSON string hookrun cannot read ({err}): rules saw none of its fields"
        )),
        Ok(_) | Err(_) => None,
    }
}

/// `mcp__server__tool` from a server and tool name.
pub fn mcp_name(server: &str, tool: &str) -> String {
    format!("mcp__{server}__{tool}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fire_started_by_a_hook_speaks_claude_code_unless_told() {
        let os = |k: &str, v: &str| (OsString::from(k), OsString::from(v));
        let in_hook = vec![os("HOOKRUN_DEPTH", "1"), os("HOOKRUN_HOST", "gemini")];
        assert_eq!(
            host_in_hook(HostId::Gemini, &in_hook, false),
            HostId::ClaudeCode
        );
        assert_eq!(host_in_hook(HostId::Gemini, &in_hook, true), HostId::Gemini);
        // Started by the host itself (no depth): HOOKRUN_HOST is the user's.
        let by_host = vec![os("HOOKRUN_HOST", "gemini")];
        assert_eq!(
            host_in_hook(HostId::Gemini, &by_host, false),
            HostId::Gemini
        );
    }

    #[test]
    fn event_name_warnings_speak_the_hosts_vocabulary() {
        let gemini = super::super::host(HostId::Gemini);
        // Gemini's own names are no typos, and name the same events as
        // Claude Code's.
        for name in ["BeforeTool", "AfterTool", "AfterAgent", "PreCompress"] {
            assert!(
                event_name_warnings(gemini, None, Some(name)).is_empty(),
                "{name}"
            );
            assert!(
                event_name_warnings(gemini, Some(name), Some(name)).is_empty(),
                "{name}"
            );
        }
        let unexpected = event_name_warnings(gemini, Some("PreToolUse"), Some("BeforeTool"));
        assert!(unexpected.is_empty(), "{unexpected:?}");
        // A near miss of a Gemini name is a typo of it.
        let w = event_name_warnings(gemini, None, Some("BeforeTol"));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("did you mean `BeforeTool`"), "{w:?}");
        // Claude Code's names still count, typos of them too.
        let w = event_name_warnings(gemini, None, Some("PreToolUze"));
        assert!(w[0].contains("did you mean `PreToolUse`"), "{w:?}");
        // A real mismatch names the event whose hooks ran, in hookrun's words.
        let w = event_name_warnings(gemini, Some("AfterTool"), Some("BeforeTool"));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("hooks for `PostToolUse` ran"), "{w:?}");
    }

    #[test]
    fn rename_is_reversible_and_keeps_other_fields() {
        let fields = &[("path", "file_path"), ("old_str", "old_string")];
        let host = json!({"path": "/a", "old_str": "x", "extra": 1});
        let claude = rename(&host, fields, true);
        assert_eq!(
            claude,
            json!({"file_path": "/a", "old_string": "x", "extra": 1})
        );
        assert_eq!(rename(&claude, fields, false), host);
        assert_eq!(rename(&json!("text"), fields, true), json!("text"));
    }

    #[test]
    fn reasons_are_never_empty() {
        assert_eq!(reason_text(" "), "blocked by a hook (hookrun)");
        assert_eq!(reason_text("R"), "R");
    }
}

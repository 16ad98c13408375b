//! Cline CLI (measured against 3.0.65).
//!
//! What the adapter relies on:
//! - hooks are *files* named after the event (`PreToolUse`, `TaskStart`…)
//!   in four folders (user and project; no trust step); no matchers, no
//!   per-hook options, a fixed 120 s timeout;
//! - stdin carries no event name a user would write (`hookName` is the
//!   SDK's: `tool_call`, `tool_result`…) and no `cwd`: `hookrun install`
//!   writes the event into each file's command, and the workspace root is
//!   the `cwd`;
//! - the answer is one JSON object on stdout; exit codes are never read;
//! - `{"cancel":true}` ends the whole run, with the reason shown to no one:
//!   a block of one call is `{"overrideInput":{},"contextModification":R}`
//!   (the call fails as invalid input, the model reads R and goes on);
//!   only a stop (`continue: false`) cancels;
//! - `overrideInput` replaces the whole input, unvalidated;
//!   `contextModification` reaches the model after the turn's tool results;
//! - UserPromptSubmit never fires headless; TaskStart, TaskComplete and the
//!   others run detached with their output discarded: no prompt or session
//!   context, no Stop block, no ask.

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::answer::{Adapting, Answer};
use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool, wired};
use super::wiring::{Shape, Wiring};
use super::{Adapted, Decoded, Encoded, Facts, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// Cline's hook file names, then the SDK's `hookName`s, → Claude Code
/// events.
pub static EVENTS: &[EventRow] = &[
    wired("PreToolUse", "PreToolUse"),
    wired("PostToolUse", "PostToolUse"),
    wired("UserPromptSubmit", "UserPromptSubmit"),
    wired("TaskStart", "SessionStart"),
    ev("TaskResume", "SessionStart"),
    wired("TaskComplete", "Stop"),
    ev("TaskError", "StopFailure"),
    ev("TaskCancel", "SessionEnd"),
    wired("SessionShutdown", "SessionEnd"),
    ev("PreCompact", "PreCompact"),
    ev("tool_call", "PreToolUse"),
    ev("tool_result", "PostToolUse"),
    ev("prompt_submit", "UserPromptSubmit"),
    ev("agent_start", "SessionStart"),
    ev("agent_resume", "SessionStart"),
    ev("agent_end", "Stop"),
    ev("agent_error", "StopFailure"),
    ev("agent_abort", "SessionEnd"),
    ev("session_shutdown", "SessionEnd"),
];

/// Cline tool → Claude Code tool. `editor` is Write without `old_text`
/// (and `insert_line`), Edit with it; `run_commands` is one Bash call of
/// every command (one per line); `read_files` a Read of every file.
pub static TOOLS: &[ToolRow] = &[
    tool("run_commands", "Bash", &[]),
    tool("read_files", "Read", &[]),
    tool(
        "editor",
        "Edit",
        &[
            ("path", "file_path"),
            ("old_text", "old_string"),
            ("new_text", "new_string"),
        ],
    ),
    tool("search_codebase", "Grep", &[]),
    tool("fetch_web_content", "WebFetch", &[]),
];

/// Cline's tools that keep their name behind hookrun.
pub const TOOL_NAMES: &[&str] = &["ask_question", "spawn_agent"];

/// Cline's fixed timeout for PreToolUse and PostToolUse.
pub const TIMEOUT: Duration = Duration::from_secs(120);

pub struct Cline;

pub static FACTS: Facts = Facts {
    id: HostId::Cline,
    name: "cline",
    display: "Cline",
    measured: Some("3.0.65"),
    events: EVENTS,
    tools: TOOLS,
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: TIMEOUT,
    on_127: "Cline reads no exit code: a missing binary is a silent allow, every guard is off",
    sets_claude_project_dir: false,
    project_dir_var: None,
};

/// The events `hookrun install` routes: the [`EVENTS`] rows marked wired.
static WIRED: [(&str, &str); mapping::wired_count(EVENTS)] = mapping::wired_events(EVENTS);

/// Hook files, not a settings document: `project_file`/`user_file` are the
/// folders `hookrun install cline` writes its files in.
pub static WIRING: Wiring = Wiring {
    host: HostId::Cline,
    project_file: ".clinerules/hooks",
    user_file: ".cline/hooks",
    shape: Shape::Files,
    events: &WIRED,
    command_key: "command",
    timeout: None,
    timeout_unit_ms: 1000,
    typed: false,
    versioned: false,
    name: None,
    also_read_by: &[],
    routes_with: &[],
};

/// The line that marks a hook file as hookrun's own.
pub const MARKER: &str =
    "# hookrun: written by `hookrun install cline`; `hookrun uninstall cline` removes it.";

/// The hook file for one event on `system`: a bash script on Unix; on
/// Windows, where Cline runs `<Event>.ps1` with PowerShell (`-File`), a
/// PowerShell script whose one line is the command.
pub fn hook_file_on(command: &str, system: super::launch::System) -> String {
    match system {
        super::launch::System::Unix => format!("#!/usr/bin/env bash\n{MARKER}\nexec {command}\n"),
        super::launch::System::Windows => format!("{MARKER}\r\n{command}\r\n"),
    }
}

/// The name of the hook file for `event` on `system`.
pub fn hook_file_name(event: &str, system: super::launch::System) -> String {
    match system {
        super::launch::System::Unix => event.to_owned(),
        super::launch::System::Windows => format!("{event}.ps1"),
    }
}

/// Whether a hook file's text is one hookrun wrote.
pub fn is_ours(text: &str) -> bool {
    text.lines().any(|l| l.trim() == MARKER)
}

/// The command a hook file runs (its `exec` line), for `doctor`.
pub fn command_of(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find_map(|l| {
            l.strip_prefix("exec ")
                .or_else(|| l.starts_with("& '").then_some(l))
        })
        .map(str::trim)
}

/// The hook files of one folder as wiring entries (file name = event),
/// for `doctor`: `read` reads a file (no following of symlinks is the
/// caller's).
pub fn entries_in(
    dir: &Path,
    read: impl Fn(&Path) -> Option<Vec<u8>>,
) -> Vec<super::wiring::Entry> {
    let mut out = Vec::new();
    for (_, event) in WIRING.events {
        let path = dir.join(hook_file_name(event, super::launch::System::current()));
        let Some(bytes) = read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let command = command_of(&text).unwrap_or(text.trim()).to_owned();
        out.push(super::wiring::Entry {
            host_event: (*event).to_owned(),
            command,
            json_path: path.display().to_string(),
            timeout: None,
            matcher: None,
        });
    }
    out
}

/// Moves `object.key` (Cline's nested `tool_call`/`tool_result`) into the
/// Claude Code fields.
fn take_call(raw: &mut Map<String, Value>, key: &str) {
    let Some(Value::Object(call)) = raw.get(key).cloned() else {
        return;
    };
    for (from, to) in [
        ("name", "tool_name"),
        ("input", "tool_input"),
        ("id", "tool_use_id"),
        ("output", "tool_response"),
    ] {
        if let Some(value) = call.get(from) {
            raw.entry(to).or_insert_with(|| value.clone());
        }
    }
}

/// The strings of a list field, each item a string or an object's `key`
/// (`files: [{path}]`).
fn strings_in(input: &Map<String, Value>, list: &str, key: &str) -> Vec<Value> {
    input
        .get(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|item| item.get(key).or(Some(item)).filter(|v| v.is_string()))
        .cloned()
        .collect()
}

/// Cline's tool input in Claude Code's terms, for the tools whose shape
/// differs (the renames of [`TOOLS`] are done before).
fn shape_input(raw: &mut Map<String, Value>, host_tool: Option<&str>) {
    let tool = host_tool.unwrap_or_default();
    let Some(Value::Object(input)) = raw.get_mut("tool_input") else {
        return;
    };
    match tool {
        "run_commands" => {
            let commands: Vec<&str> = match input.get("commands") {
                Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
                Some(Value::String(one)) => vec![one.as_str()],
                _ => Vec::new(),
            };
            let command = commands.join("\n");
            input.insert("command".into(), json!(command));
        }
        "read_files" => {
            let paths = strings_in(input, "files", "path");
            if let Some(first) = paths.first() {
                input.insert("file_path".into(), first.clone());
            }
            input.insert("file_paths".into(), Value::Array(paths));
        }
        "editor" if !input.contains_key("old_string") && !input.contains_key("insert_line") => {
            // A new file: Claude Code's Write.
            if let Some(text) = input.remove("new_string") {
                input.insert("content".into(), text);
            }
            raw.insert("tool_name".into(), json!("Write"));
        }
        "search_codebase" => {
            if let Some(first) = input
                .get("queries")
                .and_then(Value::as_array)
                .and_then(|q| q.first())
                .cloned()
            {
                input.insert("pattern".into(), first);
            }
        }
        "fetch_web_content" => {
            let urls = strings_in(input, "requests", "url");
            if let Some(first) = urls.first() {
                input.insert("url".into(), first.clone());
            }
            input.insert("urls".into(), Value::Array(urls));
        }
        _ => {}
    }
}

impl Host for Cline {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        _env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let name = match arg.map(str::trim).filter(|a| !a.is_empty()) {
            Some(a) => a.to_owned(),
            None => match raw.get("hookName") {
                Some(Value::String(n)) if !n.trim().is_empty() => n.trim().to_owned(),
                _ => mapping::host_event_name(&raw, None)?,
            },
        };
        let (host_event, claude_event) = {
            let row = mapping::event_row(EVENTS, &name);
            (
                row.map_or_else(|| name.clone(), |r| r.host.to_owned()),
                row.map_or_else(|| name.clone(), |r| r.claude.to_owned()),
            )
        };
        take_call(&mut raw, "tool_call");
        take_call(&mut raw, "tool_result");
        let (host_tool, host_tool_input) = mapping::translate_tool(&mut raw, TOOLS, |_, _| None);
        shape_input(&mut raw, host_tool.as_deref());
        if !raw.contains_key("cwd") {
            let root = raw
                .get("workspaceRoots")
                .and_then(Value::as_array)
                .and_then(|r| r.first())
                .or_else(|| raw.get("workspaceInfo").and_then(|w| w.get("rootPath")))
                .cloned();
            if let Some(root) = root {
                raw.insert("cwd".into(), root);
            }
        }
        if !raw.contains_key("session_id") {
            let id = raw
                .get("sessionContext")
                .and_then(|c| c.get("rootSessionId"))
                .or_else(|| raw.get("taskId"))
                .cloned();
            if let Some(id) = id {
                raw.insert("session_id".into(), id);
            }
        }
        if let Some(text) = raw.get("turn").and_then(|t| t.get("outputText")).cloned() {
            raw.entry("last_assistant_message").or_insert(text);
        }
        mapping::finish(
            raw,
            Translated {
                host: HostId::Cline,
                host_event,
                claude_event,
                host_tool,
                host_tool_input,
                ..Translated::default()
            },
        )
    }

    fn adapt(&self, event: &Event, decision: &Decision) -> Adapted {
        adapt(event, decision)
    }

    /// Never: every answer exits 0, a block said in it.
    fn blocks_by_exit_code(&self, _event: &Event) -> bool {
        false
    }

    fn render(&self, event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
        encode(event, decision, adapted)
    }

    /// Cline passes no event name: each hook file names its event.
    fn fire_command(&self, base: &str, host_event: &str) -> String {
        format!("{base} {host_event}")
    }

    fn install_note(&self, _path: &Path) -> Option<String> {
        Some("note: Cline runs every hook file of its folders, project ones included, with no trust step, no matchers and a fixed 120 s timeout; it cannot carry prompt or session-start context, a Stop block or an ask (see docs/hosts.md).\n".to_owned())
    }
}

/// The rewrite as Cline's whole input: Cline replaces the input
/// (unvalidated), as Claude Code's `updatedInput` replaces `tool_input`, so
/// what the rewrite leaves out is left out (a removed flag stays removed).
fn override_input(event: &Event, updated: &Value) -> Value {
    let host_tool = mapping::host_tool_of(event).unwrap_or_default();
    let editor = TOOLS
        .iter()
        .find(|row| row.host == "editor")
        .map_or(&[][..], |row| row.fields);
    match host_tool {
        "run_commands" => {
            let mut input = updated.as_object().cloned().unwrap_or_default();
            if let Some(command) = input.remove("command") {
                input.insert("commands".into(), json!([command]));
            }
            Value::Object(input)
        }
        "editor" => {
            let mut input = mapping::rename(updated, editor, false);
            if let Value::Object(fields) = &mut input {
                if let Some(content) = fields.remove("content") {
                    fields.entry("new_text").or_insert(content);
                }
            }
            input
        }
        _ => mapping::rewrite_for_host(event, TOOLS, updated),
    }
}

/// What Cline cannot do: ask (an `ask` becomes a deny), or take a block
/// anywhere but before and after a tool. A stop cancels the run, whatever
/// else the decision says.
pub fn adapt(event: &Event, decision: &Decision) -> Adapted {
    let mut a = Adapting::new(event, decision);
    if !decision.stop {
        match event.id.known() {
            Some(K::PreToolUse) => a.ask_becomes_deny(
                "Cline has no ask",
                "approval required, but Cline cannot ask: ",
            ),
            Some(K::PostToolUse) => {}
            _ => a.block_not_enforced("Cline"),
        }
    }
    a.done()
}

/// The adapted decision as Cline reads it.
pub fn encode(event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
    let mut a = Answer::new(event, decision, adapted);
    if decision.stop {
        // continue:false: Cline's cancel ends the whole run.
        let why = decision
            .stop_reason
            .clone()
            .or_else(|| a.block.clone())
            .unwrap_or_else(|| "stopped by a hook (hookrun)".to_owned());
        a.top.insert("cancel".into(), json!(true));
        a.top.insert("errorMessage".into(), json!(why));
        a.notes.push(
            "Cline shows a cancel's reason to no one (only its log): the run just ends".into(),
        );
        return a.json();
    }
    match event.id.known() {
        Some(K::PreToolUse) => {
            let mut context: Vec<String> = Vec::new();
            if let Some(reason) = a.reason() {
                // Not `cancel` (that ends the run): an input the tool
                // refuses, and the reason for the model exactly as a native
                // hook's would read (no prefix of ours).
                a.top.insert("overrideInput".into(), json!({}));
                context.push(reason);
                a.block = None;
            } else if let Some(updated) = &decision.updated_input {
                a.top
                    .insert("overrideInput".into(), override_input(event, updated));
            }
            if decision.permission == Some(Permission::Allow) && a.top.is_empty() {
                a.notes
                    .push("Cline has no allow that skips its approval: nothing sent".into());
            }
            context.extend(decision.context.clone());
            if !context.is_empty() {
                a.top
                    .insert("contextModification".into(), json!(context.join("\n")));
            }
        }
        Some(K::PostToolUse) => a.block_as_context("Cline", "contextModification"),
        // A block the event cannot carry was dropped (and said) in adapt.
        _ => {
            if decision.context.is_some() {
                a.notes.push(format!(
                    "additionalContext dropped: Cline discards the output of {} (it runs detached, or never headless)",
                    a.host_event
                ));
            }
        }
    }
    if a.system_message().is_some() {
        a.notes.push(
            "Cline shows hooks' messages to no one: hookrun's warnings reach only the report and the log".into(),
        );
    }
    a.json()
}

#[cfg(test)]
mod golden;

//! Gemini CLI (measured against 0.61.0).
//!
//! What the adapter relies on:
//! - event names differ (`BeforeTool` is PreToolUse, `AfterAgent` is Stop…),
//!   and so do tool names (`run_shell_command` is Bash…);
//! - the answer is read from the JSON on stdout whatever the exit code; a
//!   block is `{"decision":"deny","reason":R}` at exit 0 (Claude Code's
//!   `permissionDecision` is ignored: the tool would run; any exit but 0
//!   counts as a failed hook, which Gemini reports to the user twice);
//! - on a blocked prompt Gemini shows a `systemMessage` in place of the
//!   reason: hookrun's warnings follow the reason there, never replace it;
//! - a rewrite is `hookSpecificOutput.tool_input`, which REPLACES the whole
//!   input (in Gemini's field names);
//! - `ask` hangs a headless run: hookrun never sends it;
//! - timeouts are milliseconds, 60000 by default; there is no cap on
//!   AfterAgent blocks, so hookrun's stop-loop guard is the only one.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::answer::{Adapting, Answer};
use super::common;
use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool, wired};
use super::wiring::{Shape, Wiring};
use super::{Adapted, Decoded, Encoded, Facts, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// Gemini event → Claude Code event. Events not listed keep their name.
pub static EVENTS: &[EventRow] = &[
    wired("BeforeTool", "PreToolUse"),
    wired("AfterTool", "PostToolUse"),
    wired("BeforeAgent", "UserPromptSubmit"),
    wired("AfterAgent", "Stop"),
    wired("PreCompress", "PreCompact"),
    wired("SessionStart", "SessionStart"),
    wired("SessionEnd", "SessionEnd"),
    wired("Notification", "Notification"),
    wired("BeforeModel", "BeforeModel"),
    wired("AfterModel", "AfterModel"),
    ev("BeforeToolSelection", "BeforeToolSelection"),
];

/// Gemini tool → Claude Code tool, with the `tool_input` renames.
pub static TOOLS: &[ToolRow] = &[
    tool(
        "run_shell_command",
        "Bash",
        &[("is_background", "run_in_background")],
    ),
    tool("read_file", "Read", &[]),
    tool("write_file", "Write", &[]),
    tool("replace", "Edit", &[("allow_multiple", "replace_all")]),
    tool("glob", "Glob", &[("dir_path", "path")]),
    tool(
        "grep_search",
        "Grep",
        &[("dir_path", "path"), ("include", "glob")],
    ),
    // The name before Gemini CLI 0.60.
    tool(
        "search_file_content",
        "Grep",
        &[("dir_path", "path"), ("include", "glob")],
    ),
    // Read rules see what these read: a directory listed, every file
    // read (the first as file_path, each in file_paths).
    tool("list_directory", "Read", &[("dir_path", "file_path")]),
    tool("read_many_files", "Read", &[]),
    // The URLs are inside `prompt`: the first is `url`, each in `urls`.
    tool("web_fetch", "WebFetch", &[]),
    tool("google_web_search", "WebSearch", &[]),
];

/// Gemini's default hook timeout (milliseconds in its settings).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Gemini;

pub static FACTS: Facts = Facts {
    id: HostId::Gemini,
    name: "gemini",
    display: "Gemini CLI",
    measured: Some("0.61.0"),
    events: EVENTS,
    tools: TOOLS,
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: DEFAULT_TIMEOUT,
    on_127: "Gemini CLI reads exit 127 as a deny: every tool call is blocked",
    sets_claude_project_dir: true,
    project_dir_var: Some("GEMINI_PROJECT_DIR"),
};

/// Gemini's tools that keep their name behind hookrun (the others are in
/// [`TOOLS`]).
pub const TOOL_NAMES: &[&str] = &[
    "save_memory",
    "write_todos",
    "update_topic",
    "enter_plan_mode",
    "invoke_agent",
    // The rest of Gemini CLI 0.61.0's `*_TOOL_NAME` constants.
    "exit_plan_mode",
    "activate_skill",
    "ask_user",
    "complete_task",
    "get_internal_docs",
    "list_mcp_resources",
    "read_mcp_resource",
    "take_snapshot",
    "tracker_add_dependency",
    "tracker_create_task",
    "tracker_get_task",
    "tracker_list_tasks",
    "tracker_update_task",
    "tracker_visualize",
];

/// The events `hookrun install` routes: the [`EVENTS`] rows marked wired.
static WIRED: [(&str, &str); mapping::wired_count(EVENTS)] = mapping::wired_events(EVENTS);

pub static WIRING: Wiring = Wiring {
    host: HostId::Gemini,
    project_file: ".gemini/settings.json",
    user_file: ".gemini/settings.json",
    shape: Shape::Nested,
    events: &WIRED,
    command_key: "command",
    timeout: Some(("timeout", 60_000)),
    timeout_unit_ms: 1,
    typed: true,
    versioned: false,
    name: Some("hookrun"),
    also_read_by: &[],
    routes_with: super::wiring::CARRIES_PRE_TOOL_CONTEXT,
};

/// An MCP tool: Gemini names it `server__tool` (its `mcp_context`, when
/// present, names the server).
fn mcp(name: &str, raw: &Map<String, Value>) -> Option<String> {
    let context = raw.get("mcp_context").and_then(Value::as_object);
    if let Some(server) = context
        .and_then(|c| c.get("server_name"))
        .and_then(Value::as_str)
    {
        let tool = context
            .and_then(|c| c.get("tool_name"))
            .and_then(Value::as_str)
            .unwrap_or_else(|| name.strip_prefix(&format!("{server}__")).unwrap_or(name));
        return Some(mapping::mcp_name(server, tool));
    }
    let (server, tool) = name.split_once("__")?;
    (!server.is_empty() && !tool.is_empty() && !name.starts_with("mcp__"))
        .then(|| mapping::mcp_name(server, tool))
}

/// The URLs in a `web_fetch` prompt, in order (`http://` or `https://`, up
/// to the first blank, quote or bracket that cannot be part of one).
pub fn urls_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = ["http://", "https://"]
        .iter()
        .filter_map(|p| rest.find(p))
        .min()
    {
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| c.is_whitespace() || "\"'<>()[]{}`".contains(c))
            .unwrap_or(tail.len());
        let url = tail[..end].trim_end_matches(['.', ',', ';', ':', '!', '?']);
        if url.len() > "https://".len() {
            out.push(url.to_owned());
        }
        rest = &tail[end.max(1)..];
    }
    out
}

impl Host for Gemini {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let mut t = Translated::begin(&FACTS, &mut raw, arg, mcp)?;
        if let Some(Value::Object(input)) = raw.get_mut("tool_input") {
            match t.host_tool.as_deref() {
                Some("read_many_files") => {
                    let paths: Vec<Value> = ["include", "paths", "file_paths"]
                        .iter()
                        .filter_map(|k| input.get(*k).and_then(Value::as_array))
                        .flatten()
                        .filter(|v| v.is_string())
                        .cloned()
                        .collect();
                    if let Some(first) = paths.first() {
                        input.insert("file_path".into(), first.clone());
                    }
                    input.insert("file_paths".into(), Value::Array(paths));
                }
                Some("web_fetch") if !input.contains_key("url") => {
                    let urls = urls_in(input.get("prompt").and_then(Value::as_str).unwrap_or(""));
                    if let Some(first) = urls.first() {
                        input.insert("url".into(), json!(first));
                    }
                    input.insert("urls".into(), json!(urls));
                }
                _ => {}
            }
        }
        // A tool confirmation is Claude Code's `permission_prompt`
        // notification (the original stays under hookrun_host).
        let notification = raw
            .get("notification_type")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if notification.as_deref() == Some("ToolPermission") {
            raw.insert("notification_type".into(), json!("permission_prompt"));
        }
        // A shell's result as Claude Code's (`.tool_response.stdout`).
        t.keep("tool_response", common::shell_response_as_claude(&mut raw));
        // AfterAgent's answer is Claude Code's `last_assistant_message`.
        if let Some(answer) = raw.get("prompt_response").cloned() {
            raw.entry("last_assistant_message").or_insert(answer);
        }
        common::fill_from_env(&mut raw, "cwd", env, &["GEMINI_PROJECT_DIR", "GEMINI_CWD"]);
        common::fill_from_env(&mut raw, "session_id", env, &["GEMINI_SESSION_ID"]);
        let mut decoded = mapping::finish(raw, t)?;
        if let Some(original) = notification.filter(|n| n == "ToolPermission") {
            decoded.notices.notes.push(format!(
                "Gemini's notification_type {original:?} is given as \"permission_prompt\""
            ));
        }
        Ok(decoded)
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

    fn carry_key(&self, event: &Event, updated: Option<&Value>) -> Option<String> {
        let Some(updated) = updated else {
            return common::call_key_as_sent(event);
        };
        let tool = mapping::host_tool_of(event)?;
        let input = mapping::rewrite_for_host(event, TOOLS, updated);
        Some(crate::event::call_key(tool, Some(&input)))
    }

    fn install_note(&self, _path: &std::path::Path) -> Option<String> {
        Some("next: headless Gemini CLI runs project hooks only in a trusted folder (trust it once interactively, or set GEMINI_CLI_TRUST_WORKSPACE=true); --skip-trust drops them without a word. Check with `hookrun doctor`.\n".to_owned())
    }
}

/// What Gemini CLI cannot be told: an `ask` (a headless run would wait
/// forever) becomes a deny; PreCompress cannot be blocked.
pub fn adapt(event: &Event, decision: &Decision) -> Adapted {
    let mut a = Adapting::new(event, decision);
    match event.id.known() {
        Some(K::PreToolUse) => a.ask_becomes_deny(
            "Gemini CLI cannot ask for approval from a hook (a headless run waits forever)",
            "approval required, but Gemini CLI cannot ask: ",
        ),
        Some(K::PreCompact) => a.block_not_enforced("Gemini CLI"),
        _ => {}
    }
    a.done()
}

/// The adapted decision as Gemini CLI reads it.
pub fn encode(event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
    let mut a = Answer::new(event, decision, adapted);
    let known = event.id.known();
    match known {
        Some(K::PreToolUse) if a.block.is_none() => {
            if let Some(updated) = &decision.updated_input {
                let input = mapping::rewrite_for_host(event, TOOLS, updated);
                a.hso.insert("tool_input".into(), input);
            }
            if decision.permission == Some(Permission::Allow) {
                a.top.insert("decision".into(), json!("allow"));
            }
        }
        Some(K::SessionStart | K::SessionEnd | K::Notification) => a.block_ignored(),
        _ => {}
    }
    let shown_as = a.host_event.clone();
    common::context_after_tool_prompt_and_session(&mut a, "Gemini CLI", &shown_as);
    common::passthrough_not_sent(&mut a, "Gemini CLI");
    if decision.suppress_output {
        a.notes
            .push("suppressOutput has no Gemini CLI equivalent: not sent".to_owned());
    }
    if adapted.stop(decision) {
        common::stop_turn(&mut a);
    }
    if let Some(reason) = a.reason() {
        // Measured: "deny" on BeforeTool, "block" on the others ("block"
        // and "deny" are read alike where both were tried).
        let word = if known == Some(K::PreToolUse) {
            "deny"
        } else {
            "block"
        };
        a.top.insert("decision".into(), json!(word));
        a.top.insert("reason".into(), json!(reason));
    }
    if let Some(message) = a.system_message() {
        // Measured: on a blocked prompt Gemini shows the systemMessage in
        // place of the reason, so a warning there would hide why: the
        // reason comes first.
        let message = match a.reason() {
            Some(reason) if known != Some(K::PreToolUse) => format!("{reason}\n{message}"),
            _ => message,
        };
        a.top.insert("systemMessage".into(), json!(message));
    }
    a.nest_hso(false);
    // A block is the JSON alone, exit 0: any other exit code is a failed
    // hook to Gemini ("Hook(s) failed" shown twice), though it blocks.
    a.json()
}

#[cfg(test)]
mod golden;

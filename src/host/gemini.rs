//! Gemini CLI (measured against 0.61.0).
//!
//! What the adapter relies on:
//! - event names differ (`BeforeTool` is PreToolUse, `AfterAgent` is Stop…),
//!   and so do tool names (`run_shell_command` is Bash…);
//! - the answer is read from the JSON on stdout whatever the exit code; a
//!   block is `{"decision":"deny","reason":R}` (Claude Code's
//!   `permissionDecision` is ignored: the tool would run);
//! - a rewrite is `hookSpecificOutput.tool_input`, which REPLACES the whole
//!   input (in Gemini's field names);
//! - `ask` hangs a headless run: hookrun never sends it;
//! - timeouts are milliseconds, 60000 by default; there is no cap on
//!   AfterAgent blocks, so hookrun's stop-loop guard is the only one.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool};
use super::{Decoded, Encoded, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// Gemini event → Claude Code event. Events not listed keep their name.
pub static EVENTS: &[EventRow] = &[
    ev("BeforeTool", "PreToolUse"),
    ev("AfterTool", "PostToolUse"),
    ev("BeforeAgent", "UserPromptSubmit"),
    ev("AfterAgent", "Stop"),
    ev("PreCompress", "PreCompact"),
    ev("SessionStart", "SessionStart"),
    ev("SessionEnd", "SessionEnd"),
    ev("Notification", "Notification"),
    ev("BeforeModel", "BeforeModel"),
    ev("AfterModel", "AfterModel"),
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
    tool("web_fetch", "WebFetch", &[]),
    tool("google_web_search", "WebSearch", &[]),
];

/// Gemini's default hook timeout (milliseconds in its settings).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Gemini;

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

impl Host for Gemini {
    fn id(&self) -> HostId {
        HostId::Gemini
    }

    fn name(&self) -> &'static str {
        "gemini"
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let host_event = mapping::host_event_name(&raw, arg)?;
        let claude_event = mapping::event_row(EVENTS, &host_event)
            .map_or_else(|| host_event.clone(), |r| r.claude.to_owned());
        let (host_tool, host_tool_input) = mapping::translate_tool(&mut raw, TOOLS, mcp);
        // A tool confirmation is Claude Code's `permission_prompt`
        // notification (the original stays under hookrun_host).
        let notification = raw
            .get("notification_type")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if notification.as_deref() == Some("ToolPermission") {
            raw.insert("notification_type".into(), json!("permission_prompt"));
        }
        // AfterAgent's answer is Claude Code's `last_assistant_message`.
        if let Some(answer) = raw.get("prompt_response").cloned() {
            raw.entry("last_assistant_message").or_insert(answer);
        }
        if !raw.contains_key("cwd") {
            if let Some(dir) =
                mapping::var(env, "GEMINI_PROJECT_DIR").or_else(|| mapping::var(env, "GEMINI_CWD"))
            {
                raw.insert("cwd".into(), json!(dir));
            }
        }
        if !raw.contains_key("session_id") {
            if let Some(id) = mapping::var(env, "GEMINI_SESSION_ID") {
                raw.insert("session_id".into(), json!(id));
            }
        }
        let mut decoded = mapping::finish(
            raw,
            Translated {
                host: HostId::Gemini,
                host_event,
                claude_event,
                host_tool,
                host_tool_input,
                notes: Vec::new(),
                warnings: Vec::new(),
            },
        )?;
        if let Some(original) = notification.filter(|n| n == "ToolPermission") {
            decoded.notes.push(format!(
                "Gemini's notification_type {original:?} is given as \"permission_prompt\""
            ));
        }
        Ok(decoded)
    }

    fn default_deadline(&self, _event: &EventId) -> Duration {
        mapping::deadline_within(DEFAULT_TIMEOUT)
    }

    fn events(&self) -> &'static [EventRow] {
        EVENTS
    }

    fn own_stop_block_cap(&self, _env: &HostEnv<'_>) -> Option<u32> {
        None
    }

    fn encode(&self, event: &Event, decision: &Decision) -> Encoded {
        encode(event, decision)
    }
}

pub fn encode(event: &Event, decision: &Decision) -> Encoded {
    let mut top = Map::new();
    let mut hso = Map::new();
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let host_event = mapping::host_event_of(event);
    let mut block = decision.block.clone();
    let name = event.id.name();

    match name {
        "PreToolUse" => {
            if block.is_none() && decision.permission == Some(Permission::Ask) {
                let why = decision
                    .permission_reason
                    .clone()
                    .unwrap_or_else(|| "a hook asked for approval".to_owned());
                warnings.push(format!(
                    "Gemini CLI cannot ask for approval from a hook (a headless run waits forever): hookrun denied the call instead. The hook said: {why}"
                ));
                block = Some(format!(
                    "approval required, but Gemini CLI cannot ask: {why}"
                ));
            }
            if block.is_none() {
                if let Some(updated) = &decision.updated_input {
                    let mut input = mapping::rewrite_for_host(event, TOOLS, updated);
                    // Gemini replaces the whole input and refuses one that
                    // lacks a required field (the call then fails): fields
                    // the rewrite left out keep their original values.
                    if let (Value::Object(new), Some(Value::Object(old))) =
                        (&mut input, mapping::host_tool_input_of(event))
                    {
                        for (key, value) in old {
                            if !new.contains_key(key) {
                                new.insert(key.clone(), value.clone());
                                notes.push(format!(
                                    "the rewrite left out `{key}`: its original value was kept (Gemini CLI refuses a partial input)"
                                ));
                            }
                        }
                    }
                    hso.insert("tool_input".into(), input);
                }
                if decision.permission == Some(Permission::Allow) {
                    top.insert("decision".into(), json!("allow"));
                }
            }
        }
        "PreCompact" if block.is_some() => {
            warnings.push(format!(
                "Gemini CLI's {host_event} cannot be blocked: the hook's block was not enforced. The block was: {}",
                block.take().unwrap_or_default()
            ));
        }
        "SessionStart" | "SessionEnd" | "Notification" if block.is_some() => {
            notes.push(format!("{host_event} ignores blocks"));
            block = None;
        }
        _ => {}
    }
    if let Some(context) = &decision.context {
        if matches!(
            name,
            "PostToolUse" | "PostToolUseFailure" | "UserPromptSubmit" | "SessionStart"
        ) {
            hso.insert("additionalContext".into(), json!(context));
        } else {
            notes.push(format!(
                "additionalContext dropped: Gemini CLI shows it only after a tool, with the prompt and at session start, not on {host_event}"
            ));
        }
    }
    for key in decision.passthrough.keys() {
        notes.push(format!("`{key}` has no Gemini CLI equivalent: not sent"));
    }
    if decision.suppress_output {
        notes.push("suppressOutput has no Gemini CLI equivalent: not sent".to_owned());
    }
    if decision.stop {
        top.insert("continue".into(), json!(false));
        if let Some(reason) = &decision.stop_reason {
            top.insert("stopReason".into(), json!(reason));
        }
    }
    if let Some(reason) = &block {
        // Measured: "deny" on BeforeTool, "block" on the others ("block"
        // and "deny" are read alike where both were tried).
        let word = if name == "PreToolUse" {
            "deny"
        } else {
            "block"
        };
        top.insert("decision".into(), json!(word));
        top.insert("reason".into(), json!(mapping::reason_text(reason)));
    }
    if let Some(message) = mapping::system_message(decision, &warnings) {
        top.insert("systemMessage".into(), json!(message));
    }
    if !hso.is_empty() {
        top.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    let rendered = match &block {
        Some(reason) => mapping::json_block(&top, &mapping::reason_text(reason)),
        None => mapping::json_answer(&top),
    };
    Encoded {
        rendered,
        notes,
        warnings,
    }
}

//! Cursor (from its documented hook format; not run against the real host).
//!
//! - camelCase events, several of them views of one Claude Code event
//!   (`beforeShellExecution` and `preToolUse` are both PreToolUse);
//! - permission events must answer `permission`: without it Cursor blocks
//!   every tool, so hookrun always sends one;
//! - `ask` is reported broken and ignored in Auto-review (the command may
//!   just run): hookrun sends a deny instead, with a warning;
//! - the file needs `"version": 1`.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool};
use super::{Decoded, Encoded, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// Cursor event → Claude Code event. Events not listed keep their name.
pub static EVENTS: &[EventRow] = &[
    ev("preToolUse", "PreToolUse"),
    ev("beforeShellExecution", "PreToolUse"),
    ev("beforeMCPExecution", "PreToolUse"),
    ev("beforeReadFile", "PreToolUse"),
    ev("postToolUse", "PostToolUse"),
    ev("afterShellExecution", "PostToolUse"),
    ev("afterMCPExecution", "PostToolUse"),
    ev("afterFileEdit", "PostToolUse"),
    ev("postToolUseFailure", "PostToolUseFailure"),
    ev("beforeSubmitPrompt", "UserPromptSubmit"),
    ev("stop", "Stop"),
    ev("sessionStart", "SessionStart"),
    ev("sessionEnd", "SessionEnd"),
    ev("preCompact", "PreCompact"),
    ev("subagentStart", "SubagentStart"),
    ev("subagentStop", "SubagentStop"),
];

/// Events whose answer is a `permission`.
pub static PERMISSION_EVENTS: &[&str] = &[
    "preToolUse",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
];

/// Cursor tool → Claude Code tool (`preToolUse`'s `tool_name`).
pub static TOOLS: &[ToolRow] = &[
    tool("Shell", "Bash", &[]),
    tool("Read", "Read", &[("path", "file_path")]),
    tool("Write", "Write", &[("path", "file_path")]),
    tool("StrReplace", "Edit", &[("path", "file_path")]),
    tool("Grep", "Grep", &[]),
    tool("Glob", "Glob", &[]),
];

/// The timeout `hookrun install` writes. Cursor's unit is documented
/// inconsistently (milliseconds or seconds); 30000 is safe either way,
/// because hookrun's own deadline ends the run after 29 s.
pub const INSTALL_TIMEOUT: u64 = 30_000;
pub const DEADLINE: Duration = Duration::from_secs(29);

pub struct Cursor;

impl Host for Cursor {
    fn id(&self) -> HostId {
        HostId::Cursor
    }

    fn name(&self) -> &'static str {
        "cursor"
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        _env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let host_event = mapping::host_event_name(&raw, arg)?;
        let claude_event = mapping::event_row(EVENTS, &host_event)
            .map_or_else(|| host_event.clone(), |r| r.claude.to_owned());
        let mut original_tool = None;
        let mut original_input = None;
        match host_event.as_str() {
            "beforeShellExecution" | "afterShellExecution" => {
                let command = raw.get("command").cloned().unwrap_or(Value::Null);
                raw.insert("tool_name".into(), json!("Bash"));
                raw.insert("tool_input".into(), json!({"command": command}));
                if let Some(output) = raw.get("output").cloned() {
                    raw.insert("tool_response".into(), json!({"stdout": output}));
                }
            }
            "beforeReadFile" => {
                let path = raw.get("file_path").cloned().unwrap_or(Value::Null);
                raw.insert("tool_name".into(), json!("Read"));
                raw.insert("tool_input".into(), json!({"file_path": path}));
            }
            "afterFileEdit" => {
                let path = raw.get("file_path").cloned().unwrap_or(Value::Null);
                let edits = raw.get("edits").cloned().unwrap_or(Value::Null);
                raw.insert("tool_name".into(), json!("Edit"));
                raw.insert(
                    "tool_input".into(),
                    json!({"file_path": path, "edits": edits}),
                );
            }
            "beforeMCPExecution" | "afterMCPExecution" => {
                let name = raw
                    .get("tool_name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                original_tool = Some(name.clone());
                original_input = raw.get("tool_input").cloned();
                let server = raw
                    .get("server")
                    .or_else(|| raw.get("server_name"))
                    .and_then(Value::as_str)
                    .unwrap_or("cursor");
                if !name.starts_with("mcp__") {
                    raw.insert("tool_name".into(), json!(mapping::mcp_name(server, &name)));
                }
                // Cursor sends the MCP arguments as a JSON string.
                if let Some(Value::String(text)) = raw.get("tool_input") {
                    if let Ok(parsed @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
                        raw.insert("tool_input".into(), parsed);
                    }
                }
            }
            _ => {
                let (tool, input) = mapping::translate_tool(&mut raw, TOOLS, |_, _| None);
                original_tool = tool;
                original_input = input;
            }
        }
        if !raw.contains_key("session_id") {
            if let Some(id) = raw.get("conversation_id").cloned() {
                raw.insert("session_id".into(), id);
            }
        }
        if !raw.contains_key("cwd") {
            if let Some(root) = raw
                .get("workspace_roots")
                .and_then(Value::as_array)
                .and_then(|r| r.first())
                .cloned()
            {
                raw.insert("cwd".into(), root);
            }
        }
        mapping::finish(
            raw,
            Translated {
                host: HostId::Cursor,
                host_event,
                claude_event,
                host_tool: original_tool,
                host_tool_input: original_input,
                notes: Vec::new(),
                warnings: Vec::new(),
            },
        )
    }

    fn default_deadline(&self, _event: &EventId) -> Duration {
        DEADLINE
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
    let host_event = mapping::host_event_of(event);
    let mut top = Map::new();
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let mut block = decision.block.clone();

    if PERMISSION_EVENTS.contains(&host_event.as_str()) {
        if block.is_none() && decision.permission == Some(Permission::Ask) {
            let why = decision
                .permission_reason
                .clone()
                .unwrap_or_else(|| "a hook asked for approval".to_owned());
            warnings.push(format!(
                "Cursor's `ask` is not reliable (ignored in Auto-review, where the call may just run): hookrun denied the call instead. The hook said: {why}"
            ));
            block = Some(format!("approval required: {why}"));
        }
        if block.is_none() {
            if let Some(updated) = &decision.updated_input {
                if host_event == "preToolUse" {
                    top.insert(
                        "updated_input".into(),
                        mapping::rewrite_for_host(event, TOOLS, updated),
                    );
                } else {
                    warnings.push(format!(
                        "Cursor's {host_event} cannot rewrite the call: hookrun denied it rather than run it unrewritten"
                    ));
                    block = Some("a hook rewrote this call, which Cursor cannot apply here".into());
                    top.remove("updated_input");
                }
            }
        }
        if let Some(reason) = &block {
            let reason = mapping::reason_text(reason);
            top.insert("permission".into(), json!("deny"));
            top.insert("user_message".into(), json!(reason));
            top.insert("agent_message".into(), json!(reason));
        } else {
            // Without `permission` Cursor blocks the tool: "no decision" is
            // an explicit allow.
            top.insert("permission".into(), json!("allow"));
            if let Some(message) = mapping::system_message(decision, &warnings) {
                top.insert("user_message".into(), json!(message));
            }
        }
        if decision.context.is_some() {
            notes.push(format!(
                "additionalContext dropped: Cursor's {host_event} takes none"
            ));
        }
    } else {
        match event.id.name() {
            "UserPromptSubmit" => {
                top.insert("continue".into(), json!(block.is_none() && !decision.stop));
                let message = block
                    .clone()
                    .or_else(|| decision.stop_reason.clone())
                    .or_else(|| mapping::system_message(decision, &warnings));
                if let Some(message) = message {
                    top.insert("user_message".into(), json!(message));
                }
                if decision.context.is_some() {
                    notes.push(
                        "additionalContext dropped: Cursor's beforeSubmitPrompt takes none".into(),
                    );
                }
            }
            "Stop" | "SubagentStop" => {
                if let Some(reason) = block.take() {
                    top.insert(
                        "followup_message".into(),
                        json!(mapping::reason_text(&reason)),
                    );
                }
            }
            "PostToolUse" | "PostToolUseFailure" | "SessionStart" => {
                let mut context: Vec<String> = Vec::new();
                if let Some(reason) = block.take() {
                    notes.push(format!(
                        "Cursor's {host_event} has no block: the reason was sent as additional_context"
                    ));
                    context.push(reason);
                }
                context.extend(decision.context.clone());
                if !context.is_empty() {
                    top.insert("additional_context".into(), json!(context.join("\n")));
                }
            }
            _ => {
                if decision.context.is_some() {
                    notes.push(format!(
                        "additionalContext dropped: Cursor's {host_event} takes none"
                    ));
                }
            }
        }
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

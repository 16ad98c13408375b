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

use super::answer::{Adapting, Answer};
use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool, wired};
use super::wiring::{Shape, Wiring};
use super::{Adapted, Decoded, Encoded, Facts, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::catalog::KnownEvent as K;
use crate::event::{Event, InputError};
use crate::notices::Notices;
use crate::verdict::Permission;

/// Cursor event → Claude Code event. Events not listed keep their name.
pub static EVENTS: &[EventRow] = &[
    wired("preToolUse", "PreToolUse"),
    ev("beforeShellExecution", "PreToolUse"),
    ev("beforeMCPExecution", "PreToolUse"),
    ev("beforeReadFile", "PreToolUse"),
    wired("postToolUse", "PostToolUse"),
    ev("afterShellExecution", "PostToolUse"),
    ev("afterMCPExecution", "PostToolUse"),
    ev("afterFileEdit", "PostToolUse"),
    wired("postToolUseFailure", "PostToolUseFailure"),
    wired("beforeSubmitPrompt", "UserPromptSubmit"),
    wired("stop", "Stop"),
    wired("sessionStart", "SessionStart"),
    wired("sessionEnd", "SessionEnd"),
    wired("preCompact", "PreCompact"),
    wired("subagentStart", "SubagentStart"),
    wired("subagentStop", "SubagentStop"),
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
    // A deletion is judged as a write of the file.
    tool("Delete", "Write", &[("path", "file_path")]),
];

/// The timeout `hookrun install` writes. Cursor's unit is documented
/// inconsistently (milliseconds or seconds); 30000 is safe either way,
/// because hookrun's own deadline ends the run after 29 s.
pub const INSTALL_TIMEOUT: u64 = 30_000;
pub const DEADLINE: Duration = Duration::from_secs(29);

pub struct Cursor;

/// Said when Cursor names an MCP tool without its server.
const NO_SERVER: &str = "Cursor named no MCP server for this tool: it is `mcp__cursor__TOOL` to hookrun, so rules naming the real server (`mcp__github__*`) do not match it; write `mcp__cursor__TOOL` rules too";

pub static FACTS: Facts = Facts {
    id: HostId::Cursor,
    name: "cursor",
    display: "Cursor",
    measured: None,
    events: EVENTS,
    tools: TOOLS,
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: DEADLINE,
    on_127: "Cursor gets exit 127 instead of an answer: the guards do not run",
    sets_claude_project_dir: false,
    project_dir_var: None,
};

/// Cursor's tools that keep their name behind hookrun (the others are in
/// [`TOOLS`]).
pub const TOOL_NAMES: &[&str] = &[];

/// The events `hookrun install` routes: the [`EVENTS`] rows marked wired.
static WIRED: [(&str, &str); mapping::wired_count(EVENTS)] = mapping::wired_events(EVENTS);

pub static WIRING: Wiring = Wiring {
    host: HostId::Cursor,
    project_file: ".cursor/hooks.json",
    user_file: ".cursor/hooks.json",
    shape: Shape::Flat,
    events: &WIRED,
    command_key: "command",
    timeout: Some(("timeout", INSTALL_TIMEOUT)),
    // Documented inconsistently; 30000 is safe read either way.
    timeout_unit_ms: 1,
    typed: false,
    versioned: true,
    name: None,
    also_read_by: &[],
    routes_with: &[],
};

impl Host for Cursor {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        _env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let (host_event, claude_event) = mapping::event_names(&raw, arg, EVENTS)?;
        let mut original_tool = None;
        let mut original_input = None;
        let mut warnings = Vec::new();
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
                    .map(str::to_owned);
                if server.is_none() {
                    warnings.push(NO_SERVER.to_owned());
                }
                let server = server.as_deref().unwrap_or("cursor");
                if !name.starts_with("mcp__") {
                    raw.insert("tool_name".into(), json!(mapping::mcp_name(server, &name)));
                }
                // Cursor sends the MCP arguments as a JSON string: read as
                // stdin is.
                warnings.extend(mapping::nested_json(&mut raw, "tool_input"));
            }
            _ => {
                // `MCP:tool` on preToolUse names no server.
                let (tool, input) = mapping::translate_tool(&mut raw, TOOLS, |name, _| {
                    name.strip_prefix("MCP:")
                        .map(|tool| mapping::mcp_name("cursor", tool.trim()))
                });
                if tool.as_deref().is_some_and(|t| t.starts_with("MCP:")) {
                    warnings.push(NO_SERVER.to_owned());
                }
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
                notices: Notices::new(warnings, Vec::new()),
                ..Translated::default()
            },
        )
    }

    fn default_deadline(&self, _event: &EventId) -> Duration {
        DEADLINE
    }

    fn adapt(&self, event: &Event, decision: &Decision) -> Adapted {
        adapt(event, decision)
    }

    fn blocks_by_exit_code(&self, event: &Event) -> bool {
        blocks_by_exit_code(event)
    }

    fn render(&self, event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
        encode(event, decision, adapted)
    }

    fn install_note(&self, _path: &std::path::Path) -> Option<String> {
        Some("note: Cursor's hook format is documented, not verified by hookrun against a real Cursor; if Cursor also loads .claude/settings.json (third-party hooks), keep hookrun's entries in one of the two only.\n".to_owned())
    }
}

/// What Cursor cannot be relied on for, on its permission events: an
/// `ask` (ignored in Auto-review) and a rewrite anywhere but preToolUse
/// both become a deny.
pub fn adapt(event: &Event, decision: &Decision) -> Adapted {
    let mut a = Adapting::new(event, decision);
    let host_event = mapping::host_event_of(event);
    if PERMISSION_EVENTS.contains(&host_event.as_str()) {
        a.ask_becomes_deny(
            "Cursor's `ask` is not reliable (ignored in Auto-review, where the call may just run)",
            "approval required: ",
        );
        if a.block.is_none() && decision.updated_input.is_some() && host_event != "preToolUse" {
            a.rewrite_becomes_deny(
                format!(
                    "Cursor's {host_event} cannot rewrite the call: hookrun denied it rather than run it unrewritten"
                ),
                "a hook rewrote this call, which Cursor cannot apply here",
            );
        }
    }
    a.done()
}

/// The adapted decision as Cursor reads it.
/// Whether Cursor's answer to `event` keeps a block as a block (a deny,
/// `continue: false`), said by exit 2 too: everywhere but the events whose
/// answer carries it as a follow-up or as context ([`encode`]).
fn blocks_by_exit_code(event: &Event) -> bool {
    PERMISSION_EVENTS.contains(&mapping::host_event_of(event).as_str())
        || !matches!(
            event.id.known(),
            Some(
                K::Stop
                    | K::SubagentStop
                    | K::PostToolUse
                    | K::PostToolUseFailure
                    | K::SessionStart
            )
        )
}

pub fn encode(event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
    let mut a = Answer::new(event, decision, adapted);
    let host_event = a.host_event.clone();

    if PERMISSION_EVENTS.contains(&host_event.as_str()) {
        if a.block.is_none() {
            // Anywhere but preToolUse a rewrite became a deny in adapt.
            if let Some(updated) = &decision.updated_input {
                a.top.insert(
                    "updated_input".into(),
                    mapping::rewrite_for_host(event, TOOLS, updated),
                );
            }
        }
        if let Some(reason) = &a.block {
            let reason = mapping::reason_text(reason);
            a.top.insert("permission".into(), json!("deny"));
            a.top.insert("user_message".into(), json!(reason));
            a.top.insert("agent_message".into(), json!(reason));
        } else {
            // Without `permission` Cursor blocks the tool (documented), and
            // `allow` may skip Cursor's own approval: with no hook allowing,
            // hookrun answers `ask`, which leaves the call to Cursor's own
            // approval and so cannot widen what Cursor allows by itself.
            // Reads have no approval of their own to skip.
            let allowed =
                decision.permission == Some(Permission::Allow) || host_event == "beforeReadFile";
            a.top.insert(
                "permission".into(),
                json!(if allowed { "allow" } else { "ask" }),
            );
            if let Some(message) = decision.system_message() {
                a.top.insert("user_message".into(), json!(message));
            }
        }
        if decision.context.is_some() {
            a.notes.push(format!(
                "additionalContext dropped: Cursor's {host_event} takes none"
            ));
        }
    } else {
        match event.id.known() {
            Some(K::UserPromptSubmit) => {
                a.top.insert(
                    "continue".into(),
                    json!(a.block.is_none() && !decision.stop),
                );
                let message = a
                    .block
                    .clone()
                    .or_else(|| decision.stop_reason.clone())
                    .or_else(|| decision.system_message());
                if let Some(message) = message {
                    a.top.insert("user_message".into(), json!(message));
                }
                if decision.context.is_some() {
                    a.notes.push(
                        "additionalContext dropped: Cursor's beforeSubmitPrompt takes none".into(),
                    );
                }
            }
            Some(K::Stop | K::SubagentStop) => {
                if let Some(reason) = a.block.take() {
                    a.top.insert(
                        "followup_message".into(),
                        json!(mapping::reason_text(&reason)),
                    );
                }
            }
            Some(K::PostToolUse | K::PostToolUseFailure | K::SessionStart) => {
                a.block_as_context("Cursor", "additional_context");
            }
            _ => {
                if decision.context.is_some() {
                    a.notes.push(format!(
                        "additionalContext dropped: Cursor's {host_event} takes none"
                    ));
                }
            }
        }
    }
    let rendered = match &a.block {
        Some(reason) => mapping::json_block(&a.top, &mapping::reason_text(reason)),
        None => mapping::json_answer(&a.top),
    };
    a.done(rendered)
}

#[cfg(test)]
mod golden;

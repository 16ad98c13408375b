//! GitHub Copilot CLI (from its documented hook format; not run against
//! the real host).
//!
//! Two payload dialects, chosen by the event name's case:
//! - PascalCase (`PreToolUse`): Claude Code's payload, tool names and
//!   answer; decoded and encoded as Claude Code;
//! - camelCase (`preToolUse`): `toolName`/`toolArgs` in, top-level
//!   `permissionDecision`/`modifiedArgs` out.
//!
//! Either way stdout holds exactly one JSON object: Copilot ignores output
//! with two. It caps consecutive Stop blocks at 8 itself.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::answer::Answer;
use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool};
use super::wiring::{Shape, Wiring};
use super::{Decoded, Encoded, Facts, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// camelCase event → Claude Code event. Events not listed keep their name.
pub static EVENTS: &[EventRow] = &[
    ev("preToolUse", "PreToolUse"),
    ev("postToolUse", "PostToolUse"),
    ev("postToolUseFailure", "PostToolUseFailure"),
    ev("permissionRequest", "PermissionRequest"),
    ev("userPromptSubmitted", "UserPromptSubmit"),
    ev("sessionStart", "SessionStart"),
    ev("sessionEnd", "SessionEnd"),
    ev("agentStop", "Stop"),
    ev("subagentStart", "SubagentStart"),
    ev("subagentStop", "SubagentStop"),
    ev("preCompact", "PreCompact"),
    ev("notification", "Notification"),
];

/// camelCase payload keys → Claude Code's.
pub static FIELDS: &[(&str, &str)] = &[
    ("sessionId", "session_id"),
    ("transcriptPath", "transcript_path"),
    ("toolName", "tool_name"),
    ("toolArgs", "tool_input"),
    ("toolResult", "tool_response"),
];

/// Copilot tool → Claude Code tool (the documented mapping table).
pub static TOOLS: &[ToolRow] = &[
    tool("bash", "Bash", &[]),
    tool("powershell", "Bash", &[]),
    tool("view", "Read", &[("path", "file_path")]),
    tool(
        "create",
        "Write",
        &[("path", "file_path"), ("file_text", "content")],
    ),
    tool(
        "edit",
        "Edit",
        &[
            ("path", "file_path"),
            ("old_str", "old_string"),
            ("new_str", "new_string"),
        ],
    ),
    tool(
        "str_replace_editor",
        "Edit",
        &[
            ("path", "file_path"),
            ("old_str", "old_string"),
            ("new_str", "new_string"),
        ],
    ),
    tool("apply_patch", "Edit", &[]),
    tool("task", "Agent", &[("agent_type", "subagent_type")]),
    tool("grep", "Grep", &[]),
    tool("rg", "Grep", &[]),
    tool("glob", "Glob", &[]),
    tool("read_bash", "BashOutput", &[]),
    tool("stop_bash", "KillShell", &[]),
    tool("skill", "Skill", &[]),
];

/// Copilot's default `timeoutSec`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Copilot's own runaway guard on Stop blocks.
pub const STOP_BLOCK_CAP: u32 = 8;

pub struct Copilot;

pub static FACTS: Facts = Facts {
    id: HostId::Copilot,
    name: "copilot",
    display: "Copilot CLI",
    measured: Some("1.0.102"),
    events: EVENTS,
    tools: TOOLS,
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: DEFAULT_TIMEOUT,
};

/// Copilot's tools that keep their name behind hookrun (the others are in
/// [`TOOLS`]).
pub const TOOL_NAMES: &[&str] = &[
    "list_bash",
    "write_bash",
    "sql",
    "fetch_copilot_cli_documentation",
];

pub static WIRING: Wiring = Wiring {
    host: HostId::Copilot,
    project_file: ".github/hooks/hookrun.json",
    user_file: ".copilot/hooks/hookrun.json",
    shape: Shape::Flat,
    events: &[
        ("PreToolUse", "preToolUse"),
        ("PostToolUse", "postToolUse"),
        ("PostToolUseFailure", "postToolUseFailure"),
        ("PermissionRequest", "permissionRequest"),
        ("UserPromptSubmit", "userPromptSubmitted"),
        ("Stop", "agentStop"),
        ("SubagentStart", "subagentStart"),
        ("SubagentStop", "subagentStop"),
        ("SessionStart", "sessionStart"),
        ("SessionEnd", "sessionEnd"),
        ("PreCompact", "preCompact"),
        ("Notification", "notification"),
    ],
    command_key: "bash",
    timeout: Some(("timeoutSec", 30)),
    timeout_unit_ms: 1000,
    typed: true,
    versioned: true,
    name: None,
    also_read_by: &[],
};

/// The camelCase dialect: the event name starts with a lowercase letter.
pub fn is_camel(host_event: &str) -> bool {
    host_event.chars().next().is_some_and(char::is_lowercase)
}

impl Host for Copilot {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        _env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let host_event = mapping::host_event_name(&raw, arg)?;
        if !is_camel(&host_event) {
            let tool = raw
                .get("tool_name")
                .and_then(Value::as_str)
                .map(str::to_owned);
            return mapping::finish(
                raw,
                Translated {
                    host: HostId::Copilot,
                    claude_event: host_event.clone(),
                    host_event,
                    host_tool: tool,
                    host_tool_input: None,
                    notes: Vec::new(),
                    warnings: Vec::new(),
                },
            );
        }
        let claude_event = mapping::event_row(EVENTS, &host_event)
            .map_or_else(|| host_event.clone(), |r| r.claude.to_owned());
        for (camel, snake) in FIELDS {
            if let Some(value) = raw.get(*camel).cloned() {
                raw.entry(*snake).or_insert(value);
            }
        }
        // `toolArgs` may be the arguments as a JSON string.
        if let Some(Value::String(text)) = raw.get("tool_input") {
            if let Ok(parsed @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
                raw.insert("tool_input".into(), parsed);
            }
        }
        let (host_tool, host_tool_input) = mapping::translate_tool(&mut raw, TOOLS, |_, _| None);
        mapping::finish(
            raw,
            Translated {
                host: HostId::Copilot,
                host_event,
                claude_event,
                host_tool,
                host_tool_input,
                notes: Vec::new(),
                warnings: Vec::new(),
            },
        )
    }

    fn own_stop_block_cap(&self, _env: &HostEnv<'_>) -> Option<u32> {
        Some(STOP_BLOCK_CAP)
    }

    fn encode(&self, event: &Event, decision: &Decision) -> Encoded {
        encode(event, decision)
    }

    fn install_note(&self, _path: &std::path::Path) -> Option<String> {
        Some("note: Copilot CLI also runs .claude/settings.json, in its own dialect: keep hookrun's entries in one of the two only (hookrun install copilot, not claude-code, for a repository used with Copilot).\n".to_owned())
    }
}

pub fn encode(event: &Event, decision: &Decision) -> Encoded {
    let host_event = mapping::host_event_of(event);
    if !is_camel(&host_event) {
        // Claude Code's answer: already one JSON object.
        return Encoded {
            rendered: super::claude::render(&event.id, decision),
            notes: Vec::new(),
            warnings: Vec::new(),
        };
    }
    let mut a = Answer::new(event, decision);
    let host_event = a.host_event.clone();
    match event.id.name() {
        "PreToolUse" => {
            if let Some(reason) = &a.block {
                a.top.insert("permissionDecision".into(), json!("deny"));
                a.top.insert(
                    "permissionDecisionReason".into(),
                    json!(mapping::reason_text(reason)),
                );
            } else {
                if let Some(permission) = decision.permission.filter(|p| *p != Permission::Defer) {
                    a.top
                        .insert("permissionDecision".into(), json!(permission.as_str()));
                    if let Some(reason) = &decision.permission_reason {
                        a.top
                            .insert("permissionDecisionReason".into(), json!(reason));
                    }
                }
                if let Some(updated) = &decision.updated_input {
                    a.top.insert(
                        "modifiedArgs".into(),
                        mapping::rewrite_for_host(event, TOOLS, updated),
                    );
                }
            }
            if let Some(context) = &decision.context {
                a.top.insert("additionalContext".into(), json!(context));
            }
        }
        "PermissionRequest" => {
            if let Some(reason) = &a.block {
                a.top.insert("behavior".into(), json!("deny"));
                a.top
                    .insert("message".into(), json!(mapping::reason_text(reason)));
            } else if decision.permission == Some(Permission::Allow) {
                a.top.insert("behavior".into(), json!("allow"));
            }
            a.block = None;
        }
        "Stop" | "SubagentStop" => {
            if let Some(reason) = &a.block {
                a.top.insert("decision".into(), json!("block"));
                a.top
                    .insert("reason".into(), json!(mapping::reason_text(reason)));
            }
        }
        "PostToolUse" | "PostToolUseFailure" => {
            a.block_as_context("Copilot", "additionalContext");
        }
        other => {
            if let Some(reason) = a.block.take() {
                a.warnings.push(format!(
                    "Copilot CLI's {host_event} takes no block: the hook's block was not enforced. The block was: {reason}"
                ));
            }
            if decision.context.is_some() {
                a.notes.push(format!(
                    "additionalContext dropped: Copilot's {other} takes none"
                ));
            }
        }
    }
    if decision.system_message().is_some() || !a.warnings.is_empty() {
        a.notes.push(
            "Copilot's camelCase answers have no systemMessage: hookrun's warnings reach only the report and the log".into(),
        );
    }
    // Exit 2 is documented to deny on preToolUse only; elsewhere the JSON
    // carries the a.block.
    let rendered = match &a.block {
        Some(reason) if event.id.name() == "PreToolUse" => {
            mapping::json_block(&a.top, &mapping::reason_text(reason))
        }
        _ => mapping::json_answer(&a.top),
    };
    a.done(rendered)
}

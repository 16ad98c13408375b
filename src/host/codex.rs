//! Codex CLI (measured against 0.169.0).
//!
//! Codex uses Claude Code's event names and `Bash`, but reads the answer
//! with a strict parser: an unknown field anywhere, `permissionDecision:
//! "allow"` without `updatedInput`, `"ask"`, `continue: false` or
//! `stopReason` on PreToolUse, a deny without a reason… make the hook
//! "failed", and a failed hook is ignored: the tool runs. This encoder only
//! ever writes the fields and combinations Codex accepts
//! ([`ALLOWED_TOP`], [`ALLOWED_HSO`]); what Codex cannot be told is mapped
//! to the safest answer it can, with a warning.
//!
//! Timeouts are seconds (600 by default); there is no cap on Stop blocks.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool};
use super::{Decoded, Encoded, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// Codex's events: Claude Code's names.
pub static EVENTS: &[EventRow] = &[
    ev("SessionStart", "SessionStart"),
    ev("UserPromptSubmit", "UserPromptSubmit"),
    ev("PreToolUse", "PreToolUse"),
    ev("PermissionRequest", "PermissionRequest"),
    ev("PostToolUse", "PostToolUse"),
    ev("Stop", "Stop"),
    ev("SessionEnd", "SessionEnd"),
];

/// Codex tool → Claude Code tool. The shell tool (`exec_command`) already
/// arrives as `Bash` with `{command}`; the patch tool keeps its `command`
/// (the patch text) and gains `file_path`/`file_paths` from the patch.
pub static TOOLS: &[ToolRow] = &[
    tool("Bash", "Bash", &[]),
    tool("exec_command", "Bash", &[("cmd", "command")]),
    tool("apply_patch", "Edit", &[]),
];

/// The top-level keys Codex's output schemas know, per event.
pub fn allowed_top(event: &str) -> &'static [&'static str] {
    match event {
        "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "Stop" => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "decision",
            "reason",
            "hookSpecificOutput",
        ],
        "SessionStart" | "PermissionRequest" => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "hookSpecificOutput",
        ],
        // SessionEnd's output has no effect; other events are not Codex's.
        _ => &[],
    }
}

/// The `hookSpecificOutput` keys Codex knows, per event.
pub fn allowed_hso(event: &str) -> &'static [&'static str] {
    match event {
        "PreToolUse" => &[
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
        "PostToolUse" => &["hookEventName", "additionalContext", "updatedMCPToolOutput"],
        "UserPromptSubmit" | "SessionStart" => &["hookEventName", "additionalContext"],
        "PermissionRequest" => &["hookEventName", "decision"],
        _ => &[],
    }
}

/// Codex's default hook timeout (seconds in its settings).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

pub struct Codex;

/// The files an `apply_patch` patch touches, in order.
pub fn patch_files(patch: &str) -> Vec<String> {
    patch
        .lines()
        .filter_map(|line| {
            [
                "*** Add File: ",
                "*** Update File: ",
                "*** Delete File: ",
                "*** Move to: ",
            ]
            .iter()
            .find_map(|prefix| line.strip_prefix(prefix))
        })
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

impl Host for Codex {
    fn id(&self) -> HostId {
        HostId::Codex
    }

    fn name(&self) -> &'static str {
        "codex"
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
        let (host_tool, host_tool_input) = mapping::translate_tool(&mut raw, TOOLS, |_, _| None);
        let mut notes = Vec::new();
        if host_tool.as_deref() == Some("apply_patch") {
            let cwd = raw
                .get("cwd")
                .and_then(Value::as_str)
                .map(std::path::PathBuf::from);
            let patch = raw
                .get("tool_input")
                .and_then(|i| i.get("command"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            let files: Vec<String> = patch_files(patch)
                .into_iter()
                .map(|f| match &cwd {
                    Some(dir) if !f.starts_with('/') => dir.join(&f).display().to_string(),
                    _ => f,
                })
                .collect();
            if let Some(Value::Object(input)) = raw.get_mut("tool_input") {
                if let Some(first) = files.first() {
                    input.insert("file_path".into(), json!(first));
                }
                input.insert("file_paths".into(), json!(files));
            }
            if files.len() > 1 {
                notes.push(format!(
                    "the patch touches {} files: `if` rules and permissions see the first as file_path; every one is in tool_input.file_paths",
                    files.len()
                ));
            }
        }
        // Claude Code's Bash `tool_response` is an object; Codex sends the
        // output as a string (kept under hookrun_host).
        let response = raw.get("tool_response").cloned();
        if let (Some("Bash"), Some(Value::String(text))) = (
            raw.get("tool_name").and_then(Value::as_str),
            response.as_ref(),
        ) {
            raw.insert(
                "tool_response".into(),
                json!({"stdout": text, "stderr": "", "interrupted": false}),
            );
        }
        let mut decoded = mapping::finish(
            raw,
            Translated {
                host: HostId::Codex,
                host_event,
                claude_event,
                host_tool,
                host_tool_input,
                notes,
                warnings: Vec::new(),
            },
        )?;
        if let Some(Value::String(text)) = response {
            decoded.notes.push(
                "tool_response was Codex's output string; hookrun_host.tool_response keeps it"
                    .into(),
            );
            let mut fields = decoded.event.fields().clone();
            if let Some(Value::Object(info)) = fields.get_mut(mapping::HOST_FIELD) {
                info.insert("tool_response".into(), json!(text));
            }
            decoded.event = Event::from_object(fields, Some(decoded.event.id.name()))?;
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
    let name = event.id.name();
    let mut top = Map::new();
    let mut hso = Map::new();
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let mut block = decision.block.clone();
    let mut stop = decision.stop;

    match name {
        "PreToolUse" => {
            if stop {
                // continue:false makes a Codex PreToolUse hook "failed" (the
                // tool would run): block the tool instead.
                let why = decision.stop_reason.clone().unwrap_or_default();
                warnings.push(format!(
                    "Codex cannot stop the turn from PreToolUse: hookrun blocked the tool call instead, and the turn goes on. The stop reason was: {why}"
                ));
                if block.is_none() {
                    block = Some(mapping::reason_text(&why));
                }
                stop = false;
            }
            if block.is_none() && decision.permission == Some(Permission::Ask) {
                let why = decision
                    .permission_reason
                    .clone()
                    .unwrap_or_else(|| "a hook asked for approval".to_owned());
                warnings.push(format!(
                    "Codex cannot ask for approval from a PreToolUse hook: hookrun denied the call instead. The hook said: {why}"
                ));
                block = Some(format!("approval required, but Codex cannot ask: {why}"));
            }
            if block.is_none() {
                if let Some(updated) = &decision.updated_input {
                    if let Some(command) = updated.get("command").and_then(Value::as_str) {
                        hso.insert("permissionDecision".into(), json!("allow"));
                        hso.insert("updatedInput".into(), json!({"command": command}));
                        let others = updated.as_object().is_some_and(|o| {
                            o.keys().any(|k| {
                                !matches!(
                                    k.as_str(),
                                    "command" | "file_path" | "file_paths" | "description"
                                )
                            })
                        });
                        if others {
                            notes.push(
                                "Codex reads only `command` from a rewrite: the other fields were not sent".into(),
                            );
                        }
                    } else {
                        warnings.push(
                            "Codex can only rewrite a tool call's `command`, and the hooks' rewrite has none: hookrun denied the call rather than run it unrewritten".into(),
                        );
                        block =
                            Some("a hook rewrote this call in a form Codex cannot apply".into());
                    }
                } else if decision.permission == Some(Permission::Allow) {
                    notes.push(
                        "allow without a rewrite is a failed hook to Codex: nothing sent, Codex's own approval applies".into(),
                    );
                }
            }
            if let Some(reason) = &block {
                hso.clear();
                hso.insert("permissionDecision".into(), json!("deny"));
                hso.insert(
                    "permissionDecisionReason".into(),
                    json!(mapping::reason_text(reason)),
                );
            }
        }
        "PermissionRequest" => {
            let mut inner = Map::new();
            if let Some(reason) = &block {
                inner.insert("behavior".into(), json!("deny"));
                inner.insert("message".into(), json!(mapping::reason_text(reason)));
            } else if decision.permission == Some(Permission::Allow) {
                if decision.updated_input.is_some() {
                    warnings.push(
                        "Codex does not take a rewrite on PermissionRequest: hookrun left the approval to Codex's prompt instead of allowing the original call".into(),
                    );
                } else {
                    inner.insert("behavior".into(), json!("allow"));
                }
            }
            for key in ["updatedPermissions", "interrupt"] {
                if decision.passthrough.contains_key(key) {
                    notes.push(format!(
                        "`{key}` makes a Codex PermissionRequest hook fail: not sent"
                    ));
                }
            }
            if !inner.is_empty() {
                hso.insert("decision".into(), Value::Object(inner));
            }
            if stop {
                notes.push(
                    "continue:false makes a Codex PermissionRequest hook fail: not sent".into(),
                );
                stop = false;
            }
        }
        "PostToolUse" | "PostToolUseFailure" | "UserPromptSubmit" | "Stop" => {
            if let Some(reason) = &block {
                top.insert("decision".into(), json!("block"));
                top.insert("reason".into(), json!(mapping::reason_text(reason)));
            }
            if name == "PostToolUse" && event.tool_name().is_some_and(|t| t.starts_with("mcp__")) {
                if let Some(output) = decision.passthrough.get("updatedMCPToolOutput") {
                    hso.insert("updatedMCPToolOutput".into(), output.clone());
                }
            }
        }
        _ => {
            if block.take().is_some() {
                notes.push(format!("Codex's {name} cannot be blocked: not sent"));
            }
        }
    }
    if let Some(context) = &decision.context {
        if allowed_hso(name).contains(&"additionalContext") {
            hso.insert("additionalContext".into(), json!(context));
        } else {
            notes.push(format!(
                "additionalContext dropped: Codex takes none on {name}"
            ));
        }
    }
    if decision.suppress_output {
        notes.push("suppressOutput:true makes a Codex hook fail: not sent".into());
    }
    if stop && allowed_top(name).contains(&"continue") {
        top.insert("continue".into(), json!(false));
        if let Some(reason) = decision.stop_reason.as_deref().filter(|r| !r.is_empty()) {
            top.insert("stopReason".into(), json!(reason));
        }
    }
    if let Some(message) = mapping::system_message(decision, &warnings) {
        if allowed_top(name).contains(&"systemMessage") {
            top.insert("systemMessage".into(), json!(message));
        } else {
            notes.push(format!(
                "Codex shows no systemMessage on {name}: the warnings reach only the report and the log"
            ));
        }
    }
    if !hso.is_empty() && allowed_top(name).contains(&"hookSpecificOutput") {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), json!(name));
        with_name.extend(hso);
        top.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }
    let rendered = if top.is_empty() {
        // Exit 0 with nothing on stdout: "no decision", never a failure.
        mapping::empty_answer()
    } else {
        mapping::json_answer(&top)
    };
    Encoded {
        rendered,
        notes,
        warnings,
    }
}

//! Codex CLI (measured against 0.169.0 and 0.171.0; the events 0.171.0
//! added, PreCompact, PostCompact, SubagentStart, SubagentStop and
//! Interrupt, and the keys its parser takes on each, are read from the
//! JSON schemas embedded in its binary).
//!
//! Codex uses Claude Code's event names and `Bash`, but reads the answer
//! with a strict parser: an unknown field anywhere, `permissionDecision:
//! "allow"` without `updatedInput`, `"ask"`, `continue: false` or
//! `stopReason` on PreToolUse, a deny without a reason… make the hook
//! "failed", and a failed hook is ignored: the tool runs. This encoder only
//! ever writes the fields and combinations Codex accepts
//! ([`allowed_top`], [`allowed_hso`]); what Codex cannot be told is mapped
//! to the safest answer it can, with a warning.
//!
//! Timeouts are seconds (600 by default); there is no cap on Stop blocks.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::answer::{Adapting, Answer};
use super::common;
use super::mapping::{self, EventRow, ToolRow, Translated, tool, wired};
use super::wiring::{Shape, Wiring};
use super::{Adapted, Decoded, Encoded, Facts, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// Codex's events: Claude Code's names.
pub static EVENTS: &[EventRow] = &[
    wired("SessionStart", "SessionStart"),
    wired("UserPromptSubmit", "UserPromptSubmit"),
    wired("PreToolUse", "PreToolUse"),
    wired("PermissionRequest", "PermissionRequest"),
    wired("PostToolUse", "PostToolUse"),
    wired("Stop", "Stop"),
    wired("SessionEnd", "SessionEnd"),
    // New in 0.171.0 (its embedded hook schemas).
    wired("PreCompact", "PreCompact"),
    wired("PostCompact", "PostCompact"),
    wired("SubagentStart", "SubagentStart"),
    wired("SubagentStop", "SubagentStop"),
    wired("Interrupt", "Interrupt"),
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
pub fn allowed_top(event: Option<K>) -> &'static [&'static str] {
    match event {
        Some(K::PreToolUse | K::PostToolUse | K::UserPromptSubmit | K::Stop | K::SubagentStop) => {
            &[
                "continue",
                "stopReason",
                "suppressOutput",
                "systemMessage",
                "decision",
                "reason",
                "hookSpecificOutput",
            ]
        }
        Some(K::SessionStart | K::PermissionRequest | K::SubagentStart) => &[
            "continue",
            "stopReason",
            "suppressOutput",
            "systemMessage",
            "hookSpecificOutput",
        ],
        Some(K::PreCompact | K::PostCompact) => {
            &["continue", "stopReason", "suppressOutput", "systemMessage"]
        }
        Some(K::Interrupt) => &["systemMessage"],
        // SessionEnd's output has no effect; other events are not Codex's.
        _ => &[],
    }
}

/// The `hookSpecificOutput` keys Codex knows, per event.
pub fn allowed_hso(event: Option<K>) -> &'static [&'static str] {
    match event {
        Some(K::PreToolUse) => &[
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
        Some(K::PostToolUse) => &["hookEventName", "additionalContext", "updatedMCPToolOutput"],
        Some(K::UserPromptSubmit | K::SessionStart | K::SubagentStart) => {
            &["hookEventName", "additionalContext"]
        }
        Some(K::PermissionRequest) => &["hookEventName", "decision"],
        _ => &[],
    }
}

/// Codex's default hook timeout (seconds in its settings).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

pub struct Codex;

pub static FACTS: Facts = Facts {
    id: HostId::Codex,
    name: "codex",
    display: "Codex",
    measured: Some("0.171.0"),
    events: EVENTS,
    tools: TOOLS,
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: DEFAULT_TIMEOUT,
    on_127: "Codex reads exit 127 as a failed hook and ignores it: every guard is off",
    sets_claude_project_dir: false,
    project_dir_var: None,
};

/// Codex's tools that keep their name behind hookrun (the others are in
/// [`TOOLS`]).
pub const TOOL_NAMES: &[&str] = &[
    "shell",
    "local_shell",
    "write_stdin",
    "update_plan",
    "view_image",
];

/// The events `hookrun install` routes: the [`EVENTS`] rows marked wired.
static WIRED: [(&str, &str); mapping::wired_count(EVENTS)] = mapping::wired_events(EVENTS);

pub static WIRING: Wiring = Wiring {
    host: HostId::Codex,
    project_file: ".codex/hooks.json",
    user_file: ".codex/hooks.json",
    shape: Shape::Nested,
    events: &WIRED,
    command_key: "command",
    timeout: Some(("timeout", 600)),
    timeout_unit_ms: 1000,
    typed: true,
    versioned: false,
    name: None,
    also_read_by: &[],
    routes_with: &[],
};

impl Host for Codex {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        _env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let mut t = Translated::begin(&FACTS, &mut raw, arg, |_, _| None)?;
        // Codex sends only its own events: another is another host's
        // payload (Claude Code's, with HOOKRUN_HOST=codex), answered here
        // in a protocol that host may not honour.
        if mapping::event_row(EVENTS, &t.host_event).is_none()
            && crate::catalog::lookup(&t.host_event).is_some()
        {
            t.notices.warnings.push(format!(
                "Codex sends no {} event: this payload is another host's (Claude Code's?), and a block in Codex's protocol may not hold there. Fire it with that host's --host",
                t.host_event
            ));
        }
        if t.host_tool.as_deref() == Some("apply_patch") {
            t.notices.notes.extend(common::add_patch_files(&mut raw));
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
        if response.as_ref().is_some_and(Value::is_string) {
            t.notices.notes.push(
                "tool_response was Codex's output string; hookrun_host.tool_response keeps it"
                    .into(),
            );
            t.keep("tool_response", response);
        }
        mapping::finish(raw, t)
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

    fn install_note(&self, path: &std::path::Path) -> Option<String> {
        Some(format!(
            "next: Codex skips hooks it has not trusted, without a word, and again after the file changes. Trust them: start `codex` in this project and approve the hooks when it asks; or, headless, ask `codex app-server` for `hooks/list` and write each listed hook's currentHash as `trusted_hash` under [hooks.state.\"{}:pre_tool_use:0:0\"] (one table per hook) in $CODEX_HOME/config.toml; `codex exec --dangerously-bypass-hook-trust` runs them once without trust. Project files (.codex/hooks.json) load only in a trusted project.\n",
            path.display()
        ))
    }
}

/// What Codex cannot be told, mapped to the safest it can: a stop or an
/// `ask` on PreToolUse becomes a deny, and so does a rewrite without a
/// `command`; an allowing rewrite on PermissionRequest is left to Codex's
/// prompt.
pub fn adapt(event: &Event, decision: &Decision) -> Adapted {
    let mut a = Adapting::new(event, decision);
    match event.id.known() {
        Some(K::PreToolUse) => {
            if a.stop {
                // continue:false makes a Codex PreToolUse hook "failed" (the
                // tool would run): deny the tool instead.
                a.stop_becomes_deny("Codex");
            }
            a.ask_becomes_deny(
                "Codex cannot ask for approval from a PreToolUse hook",
                "approval required, but Codex cannot ask: ",
            );
            let commandless = decision
                .updated_input
                .as_ref()
                .is_some_and(|updated| updated.get("command").and_then(Value::as_str).is_none());
            if a.block.is_none() && commandless {
                a.rewrite_becomes_deny(
                    "Codex can only rewrite a tool call's `command`, and the hooks' rewrite has none: hookrun denied the call rather than run it unrewritten".into(),
                    "a hook rewrote this call in a form Codex cannot apply",
                );
            }
        }
        // Codex's PreCompact answer has no `decision`: compaction goes on.
        Some(K::PreCompact) => a.block_not_enforced("Codex"),
        Some(K::PermissionRequest)
            if a.block.is_none()
                && decision.permission == Some(Permission::Allow)
                && decision.updated_input.is_some() =>
        {
            a.warnings.push(
                "Codex does not take a rewrite on PermissionRequest: hookrun left the approval to Codex's prompt instead of allowing the original call".into(),
            );
        }
        _ => {}
    }
    a.done()
}

/// The adapted decision in the fields and combinations Codex accepts.
pub fn encode(event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
    let mut a = Answer::new(event, decision, adapted);
    let name = a.name();
    let known = event.id.known();
    let mut stop = adapted.stop(decision);

    match known {
        Some(K::PreToolUse) => {
            if a.block.is_none() {
                if let Some(updated) = &decision.updated_input {
                    rewrite(&mut a, updated);
                } else if decision.permission == Some(Permission::Allow) {
                    a.notes.push(
                        "allow without a rewrite is a failed hook to Codex: nothing sent, Codex's own approval applies".into(),
                    );
                }
            }
            if let Some(reason) = &a.block {
                a.hso.clear();
                a.hso.insert("permissionDecision".into(), json!("deny"));
                a.hso.insert(
                    "permissionDecisionReason".into(),
                    json!(mapping::reason_text(reason)),
                );
            }
        }
        Some(K::PermissionRequest) => {
            permission_request(&mut a);
            if stop {
                a.notes.push(
                    "continue:false makes a Codex PermissionRequest hook fail: not sent".into(),
                );
                stop = false;
            }
        }
        Some(
            K::PostToolUse
            | K::PostToolUseFailure
            | K::UserPromptSubmit
            | K::Stop
            | K::SubagentStop,
        ) => {
            if let Some(reason) = &a.block {
                a.top.insert("decision".into(), json!("block"));
                a.top
                    .insert("reason".into(), json!(mapping::reason_text(reason)));
            }
            if known == Some(K::PostToolUse)
                && event.tool_name().is_some_and(|t| t.starts_with("mcp__"))
            {
                if let Some(output) = decision.passthrough.get("updatedMCPToolOutput") {
                    a.hso.insert("updatedMCPToolOutput".into(), output.clone());
                }
            }
        }
        _ => {
            if a.block.take().is_some() {
                a.notes
                    .push(format!("Codex's {name} cannot be blocked: not sent"));
            }
        }
    }
    if let Some(context) = &decision.context {
        if allowed_hso(known).contains(&"additionalContext") {
            a.hso.insert("additionalContext".into(), json!(context));
        } else {
            a.notes.push(format!(
                "additionalContext dropped: Codex takes none on {name}"
            ));
        }
    }
    if decision.suppress_output {
        a.notes
            .push("suppressOutput:true makes a Codex hook fail: not sent".into());
    }
    if stop && allowed_top(known).contains(&"continue") {
        a.top.insert("continue".into(), json!(false));
        if let Some(reason) = decision.stop_reason.as_deref().filter(|r| !r.is_empty()) {
            a.top.insert("stopReason".into(), json!(reason));
        }
    }
    if let Some(message) = a.system_message() {
        if allowed_top(known).contains(&"systemMessage") {
            a.top.insert("systemMessage".into(), json!(message));
        } else {
            a.notes.push(format!(
                "Codex shows no systemMessage on {name}: the warnings reach only the report and the log"
            ));
        }
    }
    if allowed_top(known).contains(&"hookSpecificOutput") {
        a.nest_hso(true);
    }
    if a.top.is_empty() {
        // Exit 0 with nothing on stdout: "no decision", never a failure.
        a.done(mapping::empty_answer())
    } else {
        a.json()
    }
}

/// A PreToolUse rewrite as Codex takes one: only `command`, with an allow
/// (a rewrite without one became a deny in [`adapt`]).
fn rewrite(a: &mut Answer<'_>, updated: &Value) {
    if let Some(command) = updated.get("command").and_then(Value::as_str) {
        a.hso.insert("permissionDecision".into(), json!("allow"));
        a.hso
            .insert("updatedInput".into(), json!({"command": command}));
        let others = updated.as_object().is_some_and(|o| {
            o.keys().any(|k| {
                !matches!(
                    k.as_str(),
                    "command" | "file_path" | "file_paths" | "description"
                )
            })
        });
        if others {
            a.notes.push(
                "Codex reads only `command` from a rewrite: the other fields were not sent".into(),
            );
        }
    }
}

/// A PermissionRequest answer: Codex takes `behavior` alone (a rewrite or
/// the nested pass-through fields make its hook fail; an allow with a
/// rewrite is left to Codex's prompt, as [`adapt`] said).
fn permission_request(a: &mut Answer<'_>) {
    let mut inner = Map::new();
    if let Some(reason) = &a.block {
        inner.insert("behavior".into(), json!("deny"));
        inner.insert("message".into(), json!(mapping::reason_text(reason)));
    } else if a.decision.permission == Some(Permission::Allow) && a.decision.updated_input.is_none()
    {
        inner.insert("behavior".into(), json!("allow"));
    }
    for key in ["updatedPermissions", "interrupt"] {
        if a.decision.passthrough.contains_key(key) {
            a.notes.push(format!(
                "`{key}` makes a Codex PermissionRequest hook fail: not sent"
            ));
        }
    }
    if !inner.is_empty() {
        a.hso.insert("decision".into(), Value::Object(inner));
    }
}

#[cfg(test)]
mod golden;

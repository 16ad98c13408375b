//! Qwen Code (measured against 0.24.4), a Gemini CLI fork that reads
//! Claude Code-format hooks from `.qwen/settings.json`.
//!
//! What the adapter relies on:
//! - event names, payload fields and answer fields are Claude Code's; tool
//!   names are Qwen's own (`run_shell_command` is Bash, `read_file` is
//!   Read…) with Claude Code's `tool_input` keys;
//! - every answer is JSON at exit 0: Qwen logs any other exit, a working
//!   exit-2 block included, as a failed hook, and exit 2 with an empty
//!   stderr does not block at all;
//! - a PreToolUse deny is `hookSpecificOutput.permissionDecision: "deny"`
//!   (read before the top-level `decision`, which hookrun sends too: Qwen
//!   ORs the top-level `decision` of parallel hooks, so it holds where a
//!   later hook's `permissionDecision` would not);
//! - PreToolUse cannot rewrite (`updatedInput` is ignored: the original
//!   call would run) nor add context (hookrun carries it to the same
//!   call's PostToolUse answer); PostToolUse blocks are ignored (the
//!   reason is sent as context instead, which the model reads);
//! - UserPromptSubmit fires again at every continuation with `prompt: ""`:
//!   that is no prompt, so hookrun fires no hooks for it (see
//!   [`is_continuation`]);
//! - timeouts are seconds, 60 by default; a value of 1000 or more is read
//!   as milliseconds; Qwen caps consecutive Stop blocks itself (8, or
//!   `QWEN_CODE_STOP_HOOK_BLOCK_CAP`).

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

/// Qwen's events: Claude Code's names (and a few of its own, which keep
/// theirs).
pub static EVENTS: &[EventRow] = &[
    wired("PreToolUse", "PreToolUse"),
    wired("PostToolUse", "PostToolUse"),
    wired("PostToolUseFailure", "PostToolUseFailure"),
    wired("PostToolBatch", "PostToolBatch"),
    wired("UserPromptSubmit", "UserPromptSubmit"),
    ev("UserPromptExpansion", "UserPromptExpansion"),
    wired("Stop", "Stop"),
    ev("StopFailure", "StopFailure"),
    wired("SubagentStart", "SubagentStart"),
    wired("SubagentStop", "SubagentStop"),
    wired("SessionStart", "SessionStart"),
    wired("SessionEnd", "SessionEnd"),
    wired("Notification", "Notification"),
    wired("PreCompact", "PreCompact"),
    wired("PostCompact", "PostCompact"),
    wired("PermissionRequest", "PermissionRequest"),
    wired("PermissionDenied", "PermissionDenied"),
    ev("MessageDisplay", "MessageDisplay"),
    ev("InstructionsLoaded", "InstructionsLoaded"),
    // Qwen's own (its hook event enum; not measured): they pass through
    // under their own names.
    ev("SessionDelete", "SessionDelete"),
    ev("TodoCreated", "TodoCreated"),
    ev("TodoCompleted", "TodoCompleted"),
];

/// Qwen tool → Claude Code tool (Qwen's own aliases: its matchers accept
/// the Claude Code name for each), with the `tool_input` renames.
pub static TOOLS: &[ToolRow] = &[
    tool(
        "run_shell_command",
        "Bash",
        &[("is_background", "run_in_background")],
    ),
    tool("read_file", "Read", &[]),
    tool("write_file", "Write", &[]),
    tool("edit", "Edit", &[]),
    tool("notebook_edit", "NotebookEdit", &[]),
    tool("grep_search", "Grep", &[]),
    tool("glob", "Glob", &[]),
    // Read rules see the folder listed.
    tool("list_directory", "Read", &[("path", "file_path")]),
    tool("web_fetch", "WebFetch", &[]),
    tool("web_search", "WebSearch", &[]),
    tool("agent", "Agent", &[]),
    tool("todo_write", "TodoWrite", &[]),
    tool("skill", "Skill", &[]),
    tool("exit_plan_mode", "ExitPlanMode", &[]),
    tool("enter_plan_mode", "EnterPlanMode", &[]),
    tool("ask_user_question", "AskUserQuestion", &[]),
    tool("lsp", "LSP", &[]),
    tool("read_mcp_resource", "ReadMcpResourceTool", &[]),
];

/// Qwen's tools that keep their name behind hookrun (the others are in
/// [`TOOLS`]).
pub const TOOL_NAMES: &[&str] = &[
    "exec",
    "save_memory",
    "zoom_image",
    "image_gen",
    "cron_create",
    "cron_list",
    "cron_delete",
    "task_create",
    "task_update",
    "task_list",
    "task_stop",
    "list_agents",
    "send_message",
    "monitor",
    "tool_search",
    "enter_worktree",
    "exit_worktree",
    // The rest of Qwen Code 0.24.4's `ToolNames`.
    "loop_wakeup",
    "create_sub_session",
    "team_create",
    "team_delete",
    "team_plan_approval",
    "request_shutdown",
    "structured_output",
    "tool_call",
    "workflow",
    "artifact",
    "record_artifact",
    "record_source",
    "report_findings",
    "get_goal",
    "update_goal",
    "propose_goal",
    "display_image",
    "omni_downsample_image",
    "omni_downscale_video",
    "omni_downsample_audio",
    "omni_extract_keyframes",
    "omni_extract_audio",
    "omni_clip_video",
    "omni_convert_image",
    "omni_transcribe_audio",
    "omni_clip_image",
    "omni_clip_audio",
    "omni_caption_image",
    "omni_caption_audio",
    "omni_ocr_image",
    "omni_understand_video_segments",
    "omni_recall_media_memory",
];

/// Qwen's default hook timeout (seconds in its settings).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The largest timeout Qwen reads as seconds (1000 and more are
/// milliseconds).
pub const MAX_TIMEOUT_SECS: u64 = 999;

/// Qwen's own cap on consecutive Stop blocks, when
/// `QWEN_CODE_STOP_HOOK_BLOCK_CAP` does not set another (1–100).
const STOP_BLOCK_CAP: u32 = 8;

pub struct Qwen;

pub static FACTS: Facts = Facts {
    id: HostId::Qwen,
    name: "qwen",
    display: "Qwen Code",
    measured: Some("0.24.4"),
    events: EVENTS,
    tools: TOOLS,
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: DEFAULT_TIMEOUT,
    on_127: "Qwen Code reads exit 127 as a failed hook and ignores it: every guard is off",
    sets_claude_project_dir: true,
    project_dir_var: Some("QWEN_PROJECT_DIR"),
};

/// The events `hookrun install` routes: the [`EVENTS`] rows marked wired.
static WIRED: [(&str, &str); mapping::wired_count(EVENTS)] = mapping::wired_events(EVENTS);

pub static WIRING: Wiring = Wiring {
    host: HostId::Qwen,
    project_file: ".qwen/settings.json",
    user_file: ".qwen/settings.json",
    shape: Shape::Nested,
    events: &WIRED,
    command_key: "command",
    timeout: Some(("timeout", 60)),
    timeout_unit_ms: 1000,
    typed: true,
    versioned: false,
    name: None,
    also_read_by: &[],
    routes_with: super::wiring::CARRIES_PRE_TOOL_CONTEXT,
};

/// Whether a UserPromptSubmit is Qwen's re-fire at a continuation turn
/// (measured: `"prompt": ""` after every tool result) rather than a prompt:
/// an empty `prompt` and no `submitted_prompt` text. There is nothing a
/// prompt policy could judge, and a context added there would reach the
/// model again at every turn, so hookrun fires no hooks for it.
pub fn is_continuation(raw: &Map<String, Value>) -> bool {
    let empty = |key: &str| {
        raw.get(key)
            .and_then(Value::as_str)
            .is_some_and(|s| s.trim().is_empty())
    };
    empty("prompt")
        && raw
            .get("submitted_prompt")
            .is_none_or(|v| v.as_str().is_some_and(|s| s.trim().is_empty()))
}

impl Host for Qwen {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let mut t = Translated::begin(&FACTS, &mut raw, arg, |_, _| None)?;
        // A shell's result as Claude Code's: Qwen sends Gemini's
        // `{llmContent, returnDisplay}`.
        t.keep("tool_response", common::shell_response_as_claude(&mut raw));
        common::fill_from_env(&mut raw, "cwd", env, &["QWEN_PROJECT_DIR"]);
        common::fill_from_env(&mut raw, "session_id", env, &["QWEN_CODE_SESSION_ID"]);
        let continuation = t.claude_event == K::UserPromptSubmit.name() && is_continuation(&raw);
        let mut decoded = mapping::finish(raw, t)?;
        if continuation {
            decoded.fire_no_hooks = true;
            decoded.notices.notes.push(
                "Qwen Code fires UserPromptSubmit again at every continuation turn with an empty prompt: not a prompt, so no hooks ran".into(),
            );
        }
        Ok(decoded)
    }

    fn own_stop_block_cap(&self, env: &HostEnv<'_>) -> Option<u32> {
        let set = env
            .get("QWEN_CODE_STOP_HOOK_BLOCK_CAP")
            .and_then(|v| v.to_str())
            .and_then(|v| v.trim().parse::<u32>().ok())
            .filter(|n| (1..=100).contains(n));
        Some(set.unwrap_or(STOP_BLOCK_CAP))
    }

    fn max_timeout(&self) -> Option<u64> {
        Some(MAX_TIMEOUT_SECS)
    }

    /// Qwen drops a PreToolUse answer's context (measured) but shows a
    /// PostToolUse one after the tool's result: the context rides there.
    /// A rewritten call is denied (Qwen cannot apply a rewrite), so it
    /// never runs and nothing is kept for it.
    fn carry_key(&self, event: &Event, updated: Option<&Value>) -> Option<String> {
        if updated.is_some() {
            return None;
        }
        common::call_key_as_sent(event)
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

    fn install_note(&self, _path: &std::path::Path) -> Option<String> {
        Some("note: Qwen Code runs every hook of an event in parallel and lets a later `allow` override a deny: keep hookrun the only hook of each event in Qwen's settings (put the others in hookrun's). Check with `hookrun doctor`.\n".to_owned())
    }
}

/// What Qwen Code cannot do: stop the turn from PreToolUse (measured:
/// `continue: false` there denies the call and the run goes on) or rewrite
/// a call (both become a deny); block the events it ignores blocks of.
pub fn adapt(event: &Event, decision: &Decision) -> Adapted {
    let mut a = Adapting::new(event, decision);
    match event.id.known() {
        Some(K::PreToolUse) => {
            if a.stop {
                a.stop_becomes_deny("Qwen Code");
            }
            if a.block.is_none() && decision.updated_input.is_some() {
                a.rewrite_becomes_deny(
                    "Qwen Code cannot rewrite a tool call (it ignores updatedInput and would run the original): hookrun denied it instead".into(),
                    "a hook rewrote this call, which Qwen Code cannot apply",
                );
            }
        }
        Some(
            K::PostToolUse
            | K::PostToolUseFailure
            | K::PermissionRequest
            | K::UserPromptSubmit
            | K::Stop
            | K::SubagentStop
            | K::PostToolBatch
            | K::SessionStart
            | K::SessionEnd
            | K::Notification
            | K::SubagentStart,
        ) => {}
        _ => a.block_not_enforced("Qwen Code"),
    }
    a.done()
}

/// The adapted decision as Qwen Code reads it.
pub fn encode(event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
    let mut a = Answer::new(event, decision, adapted);
    let name = a.name();
    let known = event.id.known();
    match known {
        Some(K::PreToolUse) => {
            if let Some(reason) = a.reason() {
                a.hso.insert("permissionDecision".into(), json!("deny"));
                a.hso
                    .insert("permissionDecisionReason".into(), json!(reason));
                a.top.insert("decision".into(), json!("block"));
                a.top.insert("reason".into(), json!(reason));
                a.block = None;
            } else if let Some(permission) = decision.permission {
                // `ask` is put to the person; headless it denies with the
                // reason (measured). `allow` cannot widen what Qwen's own
                // headless approval refuses.
                a.hso
                    .insert("permissionDecision".into(), json!(permission.as_str()));
                if let Some(reason) = &decision.permission_reason {
                    a.hso
                        .insert("permissionDecisionReason".into(), json!(reason));
                }
            }
        }
        Some(K::PostToolUse | K::PostToolUseFailure) => {
            // Measured: Qwen ignores a PostToolUse block; context reaches
            // the model, after the tool's result.
            if let Some(reason) = a.block.take() {
                a.notes.push(format!(
                    "Qwen Code ignores a {name} block: the reason was sent as additionalContext"
                ));
                let mut context = vec![mapping::reason_text(&reason)];
                context.extend(decision.context.clone());
                a.hso
                    .insert("additionalContext".into(), json!(context.join("\n")));
            }
        }
        Some(K::PermissionRequest) => {
            let mut inner = Map::new();
            if let Some(reason) = a.reason() {
                inner.insert("behavior".into(), json!("deny"));
                inner.insert("message".into(), json!(reason));
            } else if decision.permission == Some(Permission::Allow) {
                inner.insert("behavior".into(), json!("allow"));
            }
            a.block = None;
            if !inner.is_empty() {
                a.hso.insert("decision".into(), Value::Object(inner));
            }
        }
        Some(K::SessionStart | K::SessionEnd | K::Notification | K::SubagentStart) => {
            a.block_ignored();
        }
        // UserPromptSubmit, Stop, SubagentStop and PostToolBatch block
        // below; elsewhere a block the event cannot carry was dropped (and
        // said) in adapt.
        _ => {}
    }
    common::context_after_tool_prompt_and_session(&mut a, "Qwen Code", name);
    common::passthrough_not_sent(&mut a, "Qwen Code");
    if decision.suppress_output {
        a.top.insert("suppressOutput".into(), json!(true));
    }
    if adapted.stop(decision) {
        common::stop_turn(&mut a);
    }
    if let Some(reason) = a.reason() {
        // UserPromptSubmit, Stop, SubagentStop, PostToolBatch: measured on
        // the first two (Stop: the reason is the next user message).
        a.top.insert("decision".into(), json!("block"));
        a.top.insert("reason".into(), json!(reason));
    }
    if let Some(message) = a.system_message() {
        a.top.insert("systemMessage".into(), json!(message));
    }
    a.nest_hso(true);
    a.json()
}

#[cfg(test)]
mod golden;

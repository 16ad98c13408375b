//! GitHub Copilot CLI (measured against 1.0.102).
//!
//! Two payload dialects, chosen by the payload's keys (else the event
//! name's case):
//! - camelCase (`preToolUse`): `toolName`/`toolArgs` (permissionRequest:
//!   `toolInput`), no event name at all (only permissionRequest has
//!   `hookName`), so `hookrun install` writes the event into each entry's
//!   command and fire infers it from the payload's shape when it is absent;
//! - PascalCase (`PreToolUse`, and every event of `.claude/settings.json`,
//!   which Copilot runs too): Claude Code's event and tool names, but
//!   Copilot's `tool_input` keys (`path`, `file_text`, `old_str`…) and
//!   `tool_result` for `tool_response`.
//!
//! Copilot reads the answer the same way in both: one JSON object on
//! stdout (two are ignored), top-level `permissionDecision`, `modifiedArgs`
//! (replacing the whole input), `decision:"block"` (prompt, tool result,
//! stop), `additionalContext` (tool, prompt, session and subagent start);
//! of Claude Code's nesting only PreToolUse's `hookSpecificOutput`, at exit
//! 0. Exit 2 outside preToolUse is only a warning, so every answer is exit
//! 0. It caps consecutive Stop blocks at 8 itself.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::answer::{Adapting, Answer};
use super::mapping::{self, EventRow, ToolRow, Translated, ev, tool, wired};
use super::wiring::{Shape, Wiring};
use super::{Adapted, Decoded, Encoded, Facts, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::event::{Event, InputError};
use crate::notices::Notices;
use crate::verdict::Permission;

/// camelCase event → Claude Code event. Events not listed keep their name.
pub static EVENTS: &[EventRow] = &[
    wired("preToolUse", "PreToolUse"),
    wired("postToolUse", "PostToolUse"),
    wired("postToolUseFailure", "PostToolUseFailure"),
    wired("permissionRequest", "PermissionRequest"),
    wired("userPromptSubmitted", "UserPromptSubmit"),
    wired("agentStop", "Stop"),
    wired("subagentStart", "SubagentStart"),
    wired("subagentStop", "SubagentStop"),
    wired("sessionStart", "SessionStart"),
    wired("sessionEnd", "SessionEnd"),
    wired("preCompact", "PreCompact"),
    wired("notification", "Notification"),
    // Copilot's own, with no Claude Code event to stand for (its settings
    // schema; not measured): they pass through under their own names, so
    // hooks listed under them run.
    ev("userPromptTransformed", "userPromptTransformed"),
    ev("preMcpToolCall", "preMcpToolCall"),
    ev("errorOccurred", "errorOccurred"),
];

/// camelCase payload keys → Claude Code's.
pub static FIELDS: &[(&str, &str)] = &[
    ("sessionId", "session_id"),
    ("transcriptPath", "transcript_path"),
    ("toolName", "tool_name"),
    ("toolArgs", "tool_input"),
    ("toolInput", "tool_input"),
    ("toolResult", "tool_response"),
    ("stopReason", "stop_reason"),
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
    on_127: "Copilot CLI gets exit 127 instead of an answer: the guards do not run (and preToolUse fails closed)",
    sets_claude_project_dir: true,
    project_dir_var: Some("COPILOT_PROJECT_DIR"),
};

/// Copilot's tools that keep their name behind hookrun (the others are in
/// [`TOOLS`]).
pub const TOOL_NAMES: &[&str] = &[
    "list_bash",
    "write_bash",
    "sql",
    "fetch_copilot_cli_documentation",
];

/// The events `hookrun install` routes: the [`EVENTS`] rows marked wired.
static WIRED: [(&str, &str); mapping::wired_count(EVENTS)] = mapping::wired_events(EVENTS);

pub static WIRING: Wiring = Wiring {
    host: HostId::Copilot,
    project_file: ".github/hooks/hookrun.json",
    user_file: ".copilot/hooks/hookrun.json",
    shape: Shape::Flat,
    events: &WIRED,
    command_key: "bash",
    timeout: Some(("timeoutSec", 30)),
    timeout_unit_ms: 1000,
    typed: true,
    versioned: true,
    name: None,
    also_read_by: &[],
    routes_with: &[],
};

/// The camelCase dialect: the event name starts with a lowercase letter.
pub fn is_camel(host_event: &str) -> bool {
    host_event.chars().next().is_some_and(char::is_lowercase)
}

/// The dialect of a payload by its keys: camelCase payloads carry
/// `sessionId`/`toolName`, PascalCase ones `session_id`/`tool_name`.
fn camel_payload(raw: &Map<String, Value>) -> Option<bool> {
    if ["sessionId", "toolName", "toolArgs", "toolInput", "hookName"]
        .iter()
        .any(|k| raw.contains_key(*k))
    {
        return Some(true);
    }
    if ["session_id", "tool_name", "tool_input", "hook_event_name"]
        .iter()
        .any(|k| raw.contains_key(*k))
    {
        return Some(false);
    }
    None
}

/// Whether a payload fired as Claude Code's (`--host claude-code`, what
/// `hookrun install claude-code` writes into `.claude/settings.json`) was
/// sent by Copilot CLI, which runs that file too, in its PascalCase
/// dialect. Two signals, both needed: the payload's `timestamp` (an ISO
/// string on every PascalCase event; no Claude Code payload has the key)
/// next to its `hook_event_name`, and `COPILOT_CLI`, which Copilot sets in
/// every hook's environment. A fire inside hookrun's own hooks
/// (`HOOKRUN_DEPTH`) is answered to hookrun, never to Copilot.
pub fn sent_as_claude_code(raw: &Map<String, Value>, env: &HostEnv<'_>) -> bool {
    matches!(raw.get("timestamp"), Some(Value::String(_)))
        && matches!(raw.get("hook_event_name"), Some(Value::String(_)))
        && env.get("COPILOT_CLI").is_some()
        && env.get("HOOKRUN_DEPTH").is_none()
}

/// The camelCase event a payload without a name is, by its shape (the
/// fields FINDINGS-measured payloads of each event carry).
pub fn infer_event(raw: &Map<String, Value>) -> Option<&'static str> {
    let has = |k: &str| raw.contains_key(k);
    if let Some(Value::String(name)) = raw.get("hookName") {
        return EVENTS.iter().find(|r| r.host == name).map(|r| r.host);
    }
    Some(if has("toolName") {
        if has("toolResult") {
            "postToolUse"
        } else if has("error") {
            "postToolUseFailure"
        } else if has("toolInput") {
            "permissionRequest"
        } else {
            "preToolUse"
        }
    } else if has("errorContext") {
        "errorOccurred"
    } else if has("transformedPrompt") {
        "userPromptTransformed"
    } else if has("prompt") {
        "userPromptSubmitted"
    } else if has("initialPrompt") || has("source") {
        "sessionStart"
    } else if has("response") && has("agentId") {
        "subagentStop"
    } else if has("stopReason") || has("stop_hook_active") {
        "agentStop"
    } else if has("agentName") || has("agentType") {
        "subagentStart"
    } else if has("reason") {
        "sessionEnd"
    } else if has("trigger") {
        "preCompact"
    } else {
        return None;
    })
}

/// A PascalCase event name in Copilot's own spelling: names are matched
/// ignoring case and `_` (`pre_tool_use`, `PRETOOLUSE`).
fn lenient_event(name: &str) -> Option<&'static str> {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let folded = fold(name);
    EVENTS
        .iter()
        .find(|r| fold(r.host) == folded)
        .map(|r| r.host)
}

/// Copilot's `toolResult` (`{resultType, textResultForLlm}`, PascalCase
/// `tool_result` `{result_type, text_result_for_llm}`) as Claude Code's
/// `tool_response`: a shell's text is its `stdout`.
fn tool_response(result: &Value, claude_tool: Option<&str>) -> Option<Value> {
    let text = result
        .get("textResultForLlm")
        .or_else(|| result.get("text_result_for_llm"))
        .and_then(Value::as_str)?;
    if claude_tool == Some("Bash") {
        return Some(json!({"stdout": text, "stderr": "", "interrupted": false}));
    }
    let mut out = result.as_object().cloned().unwrap_or_default();
    out.insert("output".into(), json!(text));
    Some(Value::Object(out))
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
        let mut notes = Vec::new();
        let mut warnings = Vec::new();
        let named = mapping::host_event_name(&raw, arg);
        let camel_keys = camel_payload(&raw);
        let host_event = match named {
            // A camelCase payload's event, however spelt (`pre_tool_use`).
            Ok(name) if camel_keys != Some(false) => {
                lenient_event(&name).map_or(name, str::to_owned)
            }
            Ok(name) => name,
            Err(InputError::NoEventName) => {
                let inferred = infer_event(&raw).ok_or(InputError::NoEventName)?;
                notes.push(format!(
                    "no event name (Copilot sends none): the payload's fields say {inferred}"
                ));
                inferred.to_owned()
            }
            Err(err) => return Err(err),
        };
        let camel = camel_keys.unwrap_or_else(|| is_camel(&host_event));
        let mut claude_event = mapping::event_row(EVENTS, &host_event)
            .map_or_else(|| host_event.clone(), |r| r.claude.to_owned());
        if camel {
            for (from, to) in FIELDS {
                if let Some(value) = raw.get(*from).cloned() {
                    raw.entry(*to).or_insert(value);
                }
            }
        } else if let Some(result) = raw.get("tool_result").cloned() {
            raw.entry("tool_response").or_insert(result);
        }
        // `toolArgs` may be the arguments as a JSON string (apply_patch's
        // is the patch text): read as stdin is.
        let tool = raw.get("toolName").or_else(|| raw.get("tool_name"));
        if tool.and_then(Value::as_str) != Some("apply_patch") {
            warnings.extend(mapping::nested_json(&mut raw, "tool_input"));
        }
        let original_response = raw.get("tool_response").cloned();
        let (host_tool, host_tool_input) = if camel {
            mapping::translate_tool(&mut raw, TOOLS, |_, _| None)
        } else {
            // Claude Code's tool names, Copilot's input keys.
            let name = raw
                .get("tool_name")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let input = raw.get("tool_input").cloned();
            if let (Some(name), Some(input)) = (&name, &input) {
                if let Some(row) = TOOLS
                    .iter()
                    .find(|r| r.claude == name && !r.fields.is_empty())
                {
                    raw.insert(
                        "tool_input".into(),
                        mapping::rename(input, row.fields, true),
                    );
                }
            }
            (name, input)
        };
        // apply_patch's `toolArgs` is the raw patch text: an Edit of every
        // file it names (Codex's patch format).
        if host_tool.as_deref() == Some("apply_patch") {
            if let Some(Value::String(patch)) = raw.get("tool_input").cloned() {
                raw.insert("tool_input".into(), json!({"command": patch}));
            }
            if let Some(note) = super::common::add_patch_files(&mut raw) {
                notes.push(note);
            }
        }
        if let Some(result) = &original_response {
            if let Some(response) =
                tool_response(result, raw.get("tool_name").and_then(Value::as_str))
            {
                raw.insert("tool_response".into(), response);
            }
        }
        // A session is `startup` to Claude Code's matchers, not `new`.
        if claude_event == K::SessionStart.name() && raw.get("source") == Some(&json!("new")) {
            raw.insert("source".into(), json!("startup"));
            notes.push("Copilot's source \"new\" is given as \"startup\"".into());
        }
        // agentStop also fires at every subagent's end (with its agentId):
        // that is Claude Code's SubagentStop.
        if claude_event == K::Stop.name()
            && (raw.contains_key("parentAgentId") || raw.contains_key("agentType"))
        {
            claude_event = K::SubagentStop.name().into();
            notes.push("this agentStop ends a subagent: it is SubagentStop".into());
        }
        mapping::finish(
            raw,
            Translated {
                host: HostId::Copilot,
                host_event,
                claude_event,
                host_tool,
                host_tool_input,
                notices: Notices::new(warnings, notes),
                kept: original_response
                    .map(|original| ("tool_response", original))
                    .into_iter()
                    .collect(),
            },
        )
    }

    fn own_stop_block_cap(&self, _env: &HostEnv<'_>) -> Option<u32> {
        Some(STOP_BLOCK_CAP)
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

    /// Copilot takes exit 1 silently (preToolUse: a deny without a reason,
    /// elsewhere nothing): a tool call is denied with the reason, and on
    /// other events exit 2 makes Copilot show the message as a warning
    /// (`! …`), which blocks nothing there.
    fn unusable_answer(&self, event_arg: Option<&str>, message: &str) -> Option<super::Rendered> {
        let event = event_arg.and_then(lenient_event);
        let reason =
            format!("{message} (hookrun denied the call: it cannot tell what it would do)");
        let mut top = Map::new();
        match event {
            Some("preToolUse") | None => {
                top.insert("permissionDecision".into(), json!("deny"));
                top.insert("permissionDecisionReason".into(), json!(reason));
                Some(mapping::json_answer(&top))
            }
            Some("permissionRequest") => {
                top.insert("behavior".into(), json!("deny"));
                top.insert("message".into(), json!(reason));
                Some(mapping::json_answer(&top))
            }
            Some(_) => Some(super::Rendered {
                stdout: String::new(),
                stderr: format!("{message}\n"),
                exit: crate::exit::Exit::Block,
                value: Value::String(String::new()),
            }),
        }
    }

    /// Copilot's payloads carry no event name: each entry names its event.
    fn fire_command(&self, base: &str, host_event: &str) -> String {
        format!("{base} {host_event}")
    }

    fn install_note(&self, _path: &std::path::Path) -> Option<String> {
        Some("note: Copilot CLI also runs .claude/settings.json, in its own dialect: keep hookrun's entries in one of the two only (hookrun install copilot, not claude-code, for a repository used with Copilot).\n".to_owned())
    }
}

/// What Copilot CLI cannot do: block anywhere but before a tool or a
/// permission, after a tool, at a prompt and at a stop.
pub fn adapt(event: &Event, decision: &Decision) -> Adapted {
    let mut a = Adapting::new(event, decision);
    match event.id.known() {
        Some(
            K::PreToolUse
            | K::PermissionRequest
            | K::Stop
            | K::SubagentStop
            | K::UserPromptSubmit
            | K::PostToolUse
            | K::PostToolUseFailure,
        ) => {}
        _ => a.block_not_enforced("Copilot CLI"),
    }
    a.done()
}

/// The adapted decision as Copilot CLI reads it.
pub fn encode(event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
    let mut a = Answer::new(event, decision, adapted);
    let pascal = !is_camel(&a.host_event);
    let known = event.id.known();
    match known {
        Some(K::PreToolUse) => {
            if let Some(reason) = a.reason() {
                a.top.insert("permissionDecision".into(), json!("deny"));
                a.top
                    .insert("permissionDecisionReason".into(), json!(reason));
            } else {
                // `ask` headless: Copilot denies at once, saying why.
                if let Some(permission) = decision.permission.filter(|p| *p != Permission::Defer) {
                    a.top
                        .insert("permissionDecision".into(), json!(permission.as_str()));
                    if let Some(reason) = &decision.permission_reason {
                        a.top
                            .insert("permissionDecisionReason".into(), json!(reason));
                    }
                }
                if let Some(updated) = &decision.updated_input {
                    a.top
                        .insert("modifiedArgs".into(), modified_args(event, updated));
                }
            }
            if pascal {
                // The PascalCase dialect reads Claude Code's nesting too.
                for key in ["permissionDecision", "permissionDecisionReason"] {
                    if let Some(v) = a.top.get(key).cloned() {
                        a.hso.insert(key.into(), v);
                    }
                }
                a.nest_hso(true);
            }
            a.block = None;
            if let Some(context) = &decision.context {
                a.top.insert("additionalContext".into(), json!(context));
            }
        }
        Some(K::PermissionRequest) => {
            if let Some(reason) = a.reason() {
                a.top.insert("behavior".into(), json!("deny"));
                a.top.insert("message".into(), json!(reason));
            } else if decision.permission == Some(Permission::Allow) {
                a.top.insert("behavior".into(), json!("allow"));
            }
            a.block = None;
        }
        Some(K::Stop | K::SubagentStop | K::UserPromptSubmit | K::PostToolUse) => {
            if let Some(reason) = a.reason() {
                a.top.insert("decision".into(), json!("block"));
                a.top.insert("reason".into(), json!(reason));
            }
            a.block = None;
            if matches!(known, Some(K::Stop | K::SubagentStop)) {
                a.context_dropped("Copilot CLI");
            } else if let Some(context) = &decision.context {
                a.top.insert("additionalContext".into(), json!(context));
            }
        }
        Some(K::PostToolUseFailure) => a.block_as_context("Copilot", "additionalContext"),
        // A block these events cannot carry was dropped (and said) in adapt.
        Some(K::SessionStart | K::SubagentStart) => {
            if let Some(context) = &decision.context {
                a.top.insert("additionalContext".into(), json!(context));
            }
        }
        _ => a.context_dropped("Copilot CLI"),
    }
    if a.system_message().is_some() {
        a.notes.push(
            "Copilot CLI shows no systemMessage: hookrun's warnings reach only the report and the log".into(),
        );
    }
    a.json()
}

/// `modifiedArgs` replaces the whole input (measured), as Claude Code's
/// `updatedInput` replaces `tool_input`: the rewrite whole, in Copilot's
/// field names, so a field the hook removed stays removed; a patch
/// rewrite is the patch text.
fn modified_args(event: &Event, updated: &Value) -> Value {
    if mapping::host_tool_of(event) == Some("apply_patch") {
        if let Some(patch) = updated.get("command").and_then(Value::as_str) {
            return json!(patch);
        }
    }
    let claude_tool = event.tool_name().unwrap_or_default();
    if !is_camel(&mapping::host_event_of(event)) {
        // PascalCase: Claude Code's tool name, Copilot's input keys.
        if let Some(row) = TOOLS
            .iter()
            .find(|r| r.claude == claude_tool && !r.fields.is_empty())
        {
            return mapping::rename(updated, row.fields, false);
        }
    }
    mapping::rewrite_for_host(event, TOOLS, updated)
}

#[cfg(test)]
mod golden;

//! Claude Code: the first host, and the protocol hookrun's own vocabulary
//! comes from.
//!
//! Decoding is the identity (hookrun's event names, tool names and fields
//! are Claude Code's). Encoding writes the decision per event (the
//! catalog's encoding column): `hookSpecificOutput` always carries
//! `hookEventName` — Claude Code ignores one without it, and a deny would be
//! lost — and a block is exit 2 with exactly the reason on stderr where the
//! event blocks by exit code.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::wiring::{Shape, Wiring};
use super::{Adapted, Decoded, Encoded, Facts, Host, HostEnv, HostId, Rendered};
use crate::aggregate::Decision;
use crate::catalog::{Encoding, EventId};
use crate::event::{Event, InputError};
use crate::exit::Exit;
use crate::verdict::Permission;

/// Claude Code's own cap on consecutive Stop blocks, when
/// `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` does not set another.
const STOP_BLOCK_CAP: u32 = 8;

/// Claude Code.
pub struct ClaudeCode;

pub static FACTS: Facts = Facts {
    id: HostId::ClaudeCode,
    name: "claude-code",
    display: "Claude Code",
    measured: Some("2.1.337"),
    events: &[],
    tools: &[],
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: Duration::from_secs(600),
    on_127: "Claude Code reads exit 127 as a non-blocking error: every guard is off",
    sets_claude_project_dir: true,
    project_dir_var: None,
};

/// Claude Code's tools (hookrun's own vocabulary).
pub const TOOL_NAMES: &[&str] = &[
    "Bash",
    "BashOutput",
    "KillShell",
    "KillBash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "TaskOutput",
    "TaskCreate",
    "TaskUpdate",
    "TaskList",
    "TaskGet",
    "Agent",
    "TodoWrite",
    "TodoRead",
    "ExitPlanMode",
    "EnterPlanMode",
    "SlashCommand",
    "Skill",
    "AskUserQuestion",
    "PowerShell",
    "LSP",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
    // Offered by Claude Code 2.1.337 (its `system/init` tool list).
    "TaskStop",
    "ToolSearch",
    "ListAgents",
    "ReportFindings",
    "ScheduleWakeup",
    "Workflow",
    "Monitor",
    "SendMessage",
    "CronCreate",
    "CronDelete",
    "CronList",
    "EnterWorktree",
    "ExitWorktree",
];

const EVENTS: &[(&str, &str)] = &[
    ("PreToolUse", "PreToolUse"),
    ("PermissionRequest", "PermissionRequest"),
    ("PermissionDenied", "PermissionDenied"),
    ("PostToolUse", "PostToolUse"),
    ("PostToolUseFailure", "PostToolUseFailure"),
    ("PostToolBatch", "PostToolBatch"),
    ("UserPromptSubmit", "UserPromptSubmit"),
    ("UserPromptExpansion", "UserPromptExpansion"),
    ("Stop", "Stop"),
    ("SubagentStart", "SubagentStart"),
    ("SubagentStop", "SubagentStop"),
    ("StopFailure", "StopFailure"),
    ("SessionStart", "SessionStart"),
    ("SessionEnd", "SessionEnd"),
    ("Setup", "Setup"),
    ("Notification", "Notification"),
    ("PreCompact", "PreCompact"),
    ("PostCompact", "PostCompact"),
    ("MessageDisplay", "MessageDisplay"),
    ("Elicitation", "Elicitation"),
    ("ElicitationResult", "ElicitationResult"),
    ("ConfigChange", "ConfigChange"),
    ("CwdChanged", "CwdChanged"),
    ("FileChanged", "FileChanged"),
    ("InstructionsLoaded", "InstructionsLoaded"),
    ("TaskCreated", "TaskCreated"),
    ("TaskCompleted", "TaskCompleted"),
    ("TeammateIdle", "TeammateIdle"),
    ("WorktreeCreate", "WorktreeCreate"),
    ("WorktreeRemove", "WorktreeRemove"),
    ("PreModelSwitch", "PreModelSwitch"),
    ("PostModelSwitch", "PostModelSwitch"),
    ("PreSkillShellCommand", "PreSkillShellCommand"),
    ("Interrupt", "Interrupt"),
];

pub static WIRING: Wiring = Wiring {
    host: HostId::ClaudeCode,
    project_file: ".claude/settings.json",
    user_file: ".claude/settings.json",
    shape: Shape::Nested,
    events: EVENTS,
    command_key: "command",
    timeout: None,
    timeout_unit_ms: 1000,
    typed: true,
    versioned: false,
    name: None,
    also_read_by: &[HostId::Copilot, HostId::Cursor],
    routes_with: &[],
};

impl Host for ClaudeCode {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        raw: Map<String, Value>,
        arg: Option<&str>,
        _env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let mut decoded = Decoded::plain(Event::from_object(raw, arg)?);
        // Only for an event the catalog does not know (another host's
        // `BeforeTool`, Copilot's nameless camelCase): the fast path pays
        // nothing.
        if decoded.event.id.spec().is_none() {
            let name = decoded.event.id.name().to_owned();
            let foreign =
                super::mapping::foreign_dialect(HostId::ClaudeCode, decoded.event.fields(), &name);
            decoded.notices.warnings.extend(foreign);
        }
        Ok(decoded)
    }

    fn decodes_verbatim(&self) -> bool {
        true
    }

    fn default_deadline(&self, event: &EventId) -> Duration {
        let host = event.host_timeout();
        if host <= Duration::from_secs(2) {
            Duration::from_millis(1200).min(host)
        } else {
            host.saturating_sub(Duration::from_secs(1))
        }
    }

    fn own_stop_block_cap(&self, env: &HostEnv<'_>) -> Option<u32> {
        let set = env
            .get("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP")
            .and_then(|v| v.to_str())
            .and_then(|v| v.trim().parse().ok());
        Some(set.unwrap_or(STOP_BLOCK_CAP))
    }

    /// Claude Code expresses every decision as it is: nothing to adapt.
    fn render(&self, event: &Event, decision: &Decision, _adapted: &Adapted) -> Encoded {
        Encoded::exact(render(&event.id, decision))
    }
}

/// Encodes a decision for an event in Claude Code's protocol.
pub fn render(event: &EventId, decision: &Decision) -> Rendered {
    let encoding = event.encoding();
    let mut top = Map::new();
    let mut hso = Map::new();
    let blocked = decision.block.as_deref();

    event_fields(encoding, decision, &mut top, &mut hso);
    universal_fields(decision, &mut top);
    if !hso.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), json!(event.name()));
        with_name.extend(hso);
        top.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }

    let (exit, stderr) = match blocked {
        Some(reason) if event.blocks_by_exit_code() => (Exit::Block, format!("{reason}\n")),
        _ => (Exit::Success, String::new()),
    };
    let (stdout, value) = if encoding == Encoding::WorktreeCreate {
        let stdout = decision
            .worktree_path
            .as_ref()
            .filter(|_| blocked.is_none())
            .map(|path| format!("{path}\n"))
            .unwrap_or_default();
        let value = Value::String(stdout.clone());
        (stdout, value)
    } else {
        let value = Value::Object(top);
        let mut text = serde_json::to_string(&value).expect("JSON values serialise");
        text.push('\n');
        (text, value)
    };
    Rendered {
        stdout,
        stderr,
        exit,
        value,
    }
}

/// The fields of one encoding (SPEC §7.3): the decision, context and the
/// hooks' pass-through fields, where this event's answer takes them.
fn event_fields(
    encoding: Encoding,
    decision: &Decision,
    top: &mut Map<String, Value>,
    hso: &mut Map<String, Value>,
) {
    let passthrough = encoding.hook_fields().passthrough;
    let blocked = decision.block.as_deref();
    match encoding {
        Encoding::PreToolUse | Encoding::SkillShell | Encoding::ModelSwitch => {
            if let Some(reason) = blocked {
                hso.insert("permissionDecision".into(), json!("deny"));
                hso.insert("permissionDecisionReason".into(), json!(reason));
            } else if let Some(permission) = decision.permission {
                hso.insert("permissionDecision".into(), json!(permission.as_str()));
                if let Some(reason) = &decision.permission_reason {
                    hso.insert("permissionDecisionReason".into(), json!(reason));
                }
            }
            if encoding != Encoding::ModelSwitch {
                if let Some(input) = &decision.updated_input {
                    hso.insert("updatedInput".into(), input.clone());
                }
            }
            if encoding == Encoding::PreToolUse {
                insert_context(hso, decision);
            }
        }
        Encoding::PermissionRequest => {
            let mut inner = Map::new();
            if let Some(reason) = blocked {
                inner.insert("behavior".into(), json!("deny"));
                inner.insert("message".into(), json!(reason));
                copy(&mut inner, &decision.passthrough, &["interrupt"]);
            } else if decision.permission == Some(Permission::Allow) {
                inner.insert("behavior".into(), json!("allow"));
                if let Some(input) = &decision.updated_input {
                    inner.insert("updatedInput".into(), input.clone());
                }
                copy(&mut inner, &decision.passthrough, &["updatedPermissions"]);
            }
            if !inner.is_empty() {
                hso.insert("decision".into(), Value::Object(inner));
            }
        }
        Encoding::Elicitation => {
            if blocked.is_some() {
                hso.insert("action".into(), json!("decline"));
            } else {
                copy(hso, &decision.passthrough, passthrough);
            }
        }
        Encoding::Prompt
        | Encoding::PostTool
        | Encoding::PostToolBatch
        | Encoding::DecisionBlock => {
            if let Some(reason) = blocked {
                top.insert("decision".into(), json!("block"));
                top.insert("reason".into(), json!(reason));
            }
            insert_context(hso, decision);
            copy(hso, &decision.passthrough, passthrough);
        }
        Encoding::Stop | Encoding::SessionStart | Encoding::Context => {
            insert_context(hso, decision);
            copy(hso, &decision.passthrough, passthrough);
        }
        Encoding::WatchPaths | Encoding::PermissionDenied | Encoding::MessageDisplay => {
            copy(hso, &decision.passthrough, passthrough);
        }
        Encoding::Unknown => {
            for (key, value) in &decision.passthrough {
                hso.insert(key.clone(), value.clone());
            }
        }
        Encoding::ExitOnly | Encoding::Plain | Encoding::WorktreeCreate => {}
    }
}

/// The fields every event's answer may carry.
fn universal_fields(decision: &Decision, top: &mut Map<String, Value>) {
    if decision.stop {
        top.insert("continue".into(), json!(false));
        if let Some(reason) = &decision.stop_reason {
            top.insert("stopReason".into(), json!(reason));
        }
    }
    if decision.suppress_output {
        top.insert("suppressOutput".into(), json!(true));
    }
    if let Some(message) = decision.system_message() {
        top.insert("systemMessage".into(), json!(message));
    }
    if let Some(sequence) = &decision.terminal_sequence {
        top.insert("terminalSequence".into(), json!(sequence));
    }
}

fn insert_context(hso: &mut Map<String, Value>, decision: &Decision) {
    if let Some(context) = &decision.context {
        hso.insert("additionalContext".into(), json!(context));
    }
}

fn copy(target: &mut Map<String, Value>, source: &Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(value) = source.get(*key) {
            target.insert((*key).to_owned(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render_for(event: &str, decision: &Decision) -> (Value, Rendered) {
        let rendered = render(&EventId::resolve(event), decision);
        let value = serde_json::from_str(&rendered.stdout).unwrap_or(Value::Null);
        assert_eq!(value, rendered.value, "the value is what stdout says");
        (value, rendered)
    }

    fn blocked(reason: &str) -> Decision {
        Decision {
            block: Some(reason.into()),
            ..Decision::default()
        }
    }

    #[test]
    fn nothing_to_say_is_an_empty_object() {
        let (value, rendered) = render_for("PreToolUse", &Decision::default());
        assert_eq!(value, json!({}));
        assert_eq!(rendered.exit.code(), 0);
        assert_eq!(rendered.stderr, "");
        assert_eq!(rendered.stdout, "{}\n");
    }

    #[test]
    fn pre_tool_use_block() {
        let (value, rendered) = render_for("PreToolUse", &blocked("R"));
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R"}})
        );
        assert_eq!(rendered.exit.code(), 2);
        assert_eq!(rendered.stderr, "R\n");
    }

    #[test]
    fn stop_block_has_no_decision_json() {
        let (value, rendered) = render_for("Stop", &blocked("R"));
        assert_eq!(value, json!({}));
        assert_eq!((rendered.exit.code(), rendered.stderr.as_str()), (2, "R\n"));
    }

    #[test]
    fn permission_request_block_is_json_exit_0() {
        let (value, rendered) = render_for("PermissionRequest", &blocked("R"));
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"R"}}})
        );
        assert_eq!(rendered.exit.code(), 0);
        assert_eq!(rendered.stderr, "");
    }

    #[test]
    fn elicitation_block_declines() {
        let (value, rendered) = render_for("Elicitation", &blocked("R"));
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"Elicitation","action":"decline"}})
        );
        assert_eq!(rendered.exit.code(), 0);
    }

    #[test]
    fn worktree_create_prints_the_path_line() {
        let decision = Decision {
            worktree_path: Some("/tmp/wt".into()),
            ..Decision::default()
        };
        let rendered = render(&EventId::resolve("WorktreeCreate"), &decision);
        assert_eq!(rendered.stdout, "/tmp/wt\n");
        let rendered = render(&EventId::resolve("WorktreeCreate"), &blocked("none"));
        assert_eq!((rendered.stdout.as_str(), rendered.exit.code()), ("", 2));
    }

    #[test]
    fn universal_fields() {
        let decision = Decision {
            stop: true,
            stop_reason: Some("why".into()),
            suppress_output: true,
            system_messages: vec!["m".into()],
            notices: crate::notices::Notices::new(vec!["w".into()], Vec::new()),
            terminal_sequence: Some("\u{7}".into()),
            ..Decision::default()
        };
        let (value, _) = render_for("Notification", &decision);
        assert_eq!(
            value,
            json!({"continue":false,"stopReason":"why","suppressOutput":true,"systemMessage":"m\nw","terminalSequence":"\u{7}"})
        );
    }

    #[test]
    fn pass_through_fields_come_from_the_catalog_column() {
        let mut decision = Decision::default();
        decision
            .passthrough
            .insert("sessionTitle".into(), json!("T"));
        decision
            .passthrough
            .insert("watchPaths".into(), json!(["/a"]));
        let (value, _) = render_for("UserPromptSubmit", &decision);
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","sessionTitle":"T"}})
        );
        let (value, _) = render_for("SessionStart", &decision);
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"SessionStart","sessionTitle":"T","watchPaths":["/a"]}})
        );
        let (value, _) = render_for("MyOwnEvent", &decision);
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"MyOwnEvent","sessionTitle":"T","watchPaths":["/a"]}})
        );
    }

    #[test]
    fn default_deadlines_leave_a_margin() {
        let deadline = |name: &str| ClaudeCode.default_deadline(&EventId::resolve(name));
        assert_eq!(deadline("UserPromptSubmit"), Duration::from_secs(29));
        assert_eq!(deadline("SessionEnd"), Duration::from_millis(1200));
        assert_eq!(deadline("PreToolUse"), Duration::from_secs(599));
    }

    #[test]
    fn own_stop_block_cap_reads_the_host_variable() {
        let vars = vec![(
            std::ffi::OsString::from("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"),
            std::ffi::OsString::from("3"),
        )];
        assert_eq!(ClaudeCode.own_stop_block_cap(&HostEnv::new(&vars)), Some(3));
        assert_eq!(ClaudeCode.own_stop_block_cap(&HostEnv::new(&[])), Some(8));
    }
}

#[cfg(test)]
mod golden;

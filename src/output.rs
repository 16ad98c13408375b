//! Decision → the hook protocol the host speaks (SPEC §7.2–7.3).
//!
//! Pure: builds stdout, stderr and the exit code; `lib.rs` writes them.
//! `hookSpecificOutput` always carries `hookEventName` — Claude Code ignores
//! one without it, and a deny would be lost.

use serde_json::{Map, Value, json};

use crate::aggregate::Decision;
use crate::catalog::{Encoding, EventId};
use crate::verdict::Permission;

/// What `hookrun fire` prints and returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub stdout: String,
    /// On exit 2: exactly the block reason.
    pub stderr: String,
    pub exit_code: u8,
}

/// Encodes a decision for an event.
pub fn render(event: &EventId, decision: &Decision) -> Rendered {
    let encoding = event.encoding();
    let mut top = Map::new();
    let mut hso = Map::new();
    let blocked = decision.block.as_deref();

    match encoding {
        Encoding::PreToolUse => {
            if let Some(reason) = blocked {
                hso.insert("permissionDecision".into(), json!("deny"));
                hso.insert("permissionDecisionReason".into(), json!(reason));
            } else if let Some(permission) = decision.permission {
                hso.insert("permissionDecision".into(), json!(permission.as_str()));
                if let Some(reason) = &decision.permission_reason {
                    hso.insert("permissionDecisionReason".into(), json!(reason));
                }
            }
            if let Some(input) = &decision.updated_input {
                hso.insert("updatedInput".into(), input.clone());
            }
            insert_context(&mut hso, decision);
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
                copy(&mut hso, &decision.passthrough, &["action", "content"]);
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
            insert_context(&mut hso, decision);
            copy(
                &mut hso,
                &decision.passthrough,
                &[
                    "sessionTitle",
                    "suppressOriginalPrompt",
                    "updatedToolOutput",
                    "updatedMCPToolOutput",
                    "classifierContext",
                ],
            );
        }
        Encoding::Stop | Encoding::SessionStart => {
            insert_context(&mut hso, decision);
            copy(
                &mut hso,
                &decision.passthrough,
                &[
                    "sessionTitle",
                    "initialUserMessage",
                    "watchPaths",
                    "reloadSkills",
                ],
            );
        }
        Encoding::WatchPaths
        | Encoding::PermissionDenied
        | Encoding::MessageDisplay
        | Encoding::Unknown => {
            for (key, value) in &decision.passthrough {
                hso.insert(key.clone(), value.clone());
            }
        }
        Encoding::ExitOnly | Encoding::Plain | Encoding::WorktreeCreate => {}
    }

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
    if !hso.is_empty() {
        let mut with_name = Map::new();
        with_name.insert("hookEventName".into(), json!(event.name()));
        with_name.extend(hso);
        top.insert("hookSpecificOutput".into(), Value::Object(with_name));
    }

    let exit_code = if blocked.is_some() && event.blocks_by_exit_code() {
        2
    } else {
        0
    };
    let stderr = match (exit_code, blocked) {
        (2, Some(reason)) => format!("{reason}\n"),
        _ => String::new(),
    };
    let stdout = if encoding == Encoding::WorktreeCreate {
        decision
            .worktree_path
            .as_ref()
            .filter(|_| blocked.is_none())
            .map(|path| format!("{path}\n"))
            .unwrap_or_default()
    } else {
        let mut text = serde_json::to_string(&Value::Object(top)).expect("JSON values serialise");
        text.push('\n');
        text
    };
    Rendered {
        stdout,
        stderr,
        exit_code,
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
        assert_eq!(rendered.exit_code, 0);
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
        assert_eq!(rendered.exit_code, 2);
        assert_eq!(rendered.stderr, "R\n");
    }

    #[test]
    fn stop_block_has_no_decision_json() {
        let (value, rendered) = render_for("Stop", &blocked("R"));
        assert_eq!(value, json!({}));
        assert_eq!((rendered.exit_code, rendered.stderr.as_str()), (2, "R\n"));
    }

    #[test]
    fn permission_request_block_is_json_exit_0() {
        let (value, rendered) = render_for("PermissionRequest", &blocked("R"));
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"R"}}})
        );
        assert_eq!(rendered.exit_code, 0);
        assert_eq!(rendered.stderr, "");
    }

    #[test]
    fn elicitation_block_declines() {
        let (value, rendered) = render_for("Elicitation", &blocked("R"));
        assert_eq!(
            value,
            json!({"hookSpecificOutput":{"hookEventName":"Elicitation","action":"decline"}})
        );
        assert_eq!(rendered.exit_code, 0);
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
        assert_eq!((rendered.stdout.as_str(), rendered.exit_code), ("", 2));
    }

    #[test]
    fn universal_fields() {
        let decision = Decision {
            stop: true,
            stop_reason: Some("why".into()),
            suppress_output: true,
            system_messages: vec!["m".into()],
            warnings: vec!["w".into()],
            terminal_sequence: Some("\u{7}".into()),
            ..Decision::default()
        };
        let (value, _) = render_for("Notification", &decision);
        assert_eq!(
            value,
            json!({"continue":false,"stopReason":"why","suppressOutput":true,"systemMessage":"m\nw","terminalSequence":"\u{7}"})
        );
    }
}

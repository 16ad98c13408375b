//! hookrun behind every host (docs/hosts.md): `fire --host NAME` through the
//! real binary, `install`/`uninstall`, and the Claude Code file rules.

use serde_json::json;

use crate::support::Sandbox;

/// A hook set kept under `.claude/hooks/` is a Claude Code file: its
/// `permissions.allow` is Claude Code's to apply (which refuses it in a
/// workspace it does not trust), never an allow hookrun grants; its other
/// Claude Code keys are not "unknown".
#[test]
fn a_file_anywhere_under_dot_claude_is_a_claude_code_file() {
    let sb = Sandbox::new();
    let file = sb.write(
        "project/.claude/hooks/hookrun-hooks.json",
        &serde_json::to_string(&json!({
            "permissions": {"allow": ["Write"]},
            "statusLine": {"type": "command", "command": "echo status"},
            "enabledPlugins": {"x@y": true},
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}
        }))
        .unwrap(),
    );
    let event = sb.event(
        "PreToolUse",
        &json!({"tool_name": "Write", "tool_input": {"file_path": "/tmp/x", "content": "y"}}),
    );
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--trust-project",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "report",
        ],
        &event,
    );
    let report = run.json();
    assert_eq!(report["decision"], "none", "{}", run.stdout);
    assert_eq!(report["settings"][0]["claude_mode"], true, "{}", run.stdout);
    let warnings = report["warnings"].to_string();
    assert!(!warnings.contains("statusLine"), "{warnings}");
    assert!(!warnings.contains("enabledPlugins"), "{warnings}");
    assert!(!warnings.contains("unknown"), "{warnings}");
}

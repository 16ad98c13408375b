//! hookrun behind every host (docs/hosts.md): `fire --host NAME` through the
//! real binary, `install`/`uninstall`, and the Claude Code file rules.

use serde_json::{Value, json};

use crate::firetest::{Fire, payload};
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

/// A guard written for Claude Code: matcher `Bash`, an `if` rule, a script
/// reading `.tool_input.command` and exiting 2.
fn claude_style_guard(sb: &Sandbox) -> Value {
    let script = sb.script(
        "hooks/guard.sh",
        "#!/bin/sh\ninput=$(cat)\nprintf '%s' \"$HOOKRUN_HOST $HOOKRUN_HOST_EVENT $HOOKRUN_HOST_TOOL_NAME\" > \"$(dirname \"$0\")/seen\"\ncase \"$input\" in *'\"command\":\"echo hi'*) echo \"no echo here\" >&2; exit 2;; esac\nexit 0\n",
    );
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "if": "Bash(echo *)", "command": script.to_str().unwrap()}
    ]}]}})
}

#[test]
fn gemini_runs_a_claude_code_guard_unchanged_and_gets_a_block_it_enforces() {
    let sb = Sandbox::new();
    let settings = claude_style_guard(&sb);
    let run = Fire::host("gemini")
        .settings(&settings)
        .payload("gemini/before_tool__shell.json")
        .run_in(&sb);
    // The deny JSON at exit 0: any other exit is a failed hook to Gemini.
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.json(),
        json!({"decision": "deny", "reason": "no echo here"})
    );
    assert_eq!(run.stderr, "");
    assert_eq!(
        std::fs::read_to_string(sb.path("hooks/seen")).unwrap(),
        "gemini BeforeTool run_shell_command"
    );
    // read_file is Read: the Bash guard does not run, and nothing blocks.
    Fire::host("gemini")
        .settings(&settings)
        .payload("gemini/before_tool__read.json")
        .expect_exit(0)
        .expect_json(json!({}))
        .run_in(&sb);
}

#[test]
fn gemini_permission_rules_apply_to_its_tools() {
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"deny": ["Write(*.txt)"]}});
    Fire::host("gemini")
        .settings(&settings)
        .payload("gemini/before_tool__write.json")
        .expect_exit(0)
        .expect_json_at("/decision", "deny")
        .run_in(&sb);
}

#[test]
fn gemini_never_gets_ask_it_would_hang_on() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"sure?\"}}'"}]}]}});
    let run = Fire::host("gemini")
        .settings(&settings)
        .payload("gemini/before_tool__shell.json")
        .args(&["--format", "report"])
        .run_in(&sb);
    let report = run.json();
    assert_eq!(report["exit_code"], 0, "{}", run.stdout);
    assert_eq!(report["output"]["decision"], "deny", "{}", run.stdout);
    assert!(
        report["warnings"].to_string().contains("cannot ask"),
        "{}",
        run.stdout
    );
}

/// Gemini's BeforeTool answer has no place for context: a PreToolUse
/// hook's context rides on the same call's AfterTool answer, once, before
/// that fire's own context; another call (another input) does not get it.
#[test]
fn gemini_pre_tool_context_rides_on_the_same_calls_after_tool_answer() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {
        "PreToolUse": [{"hooks": [{"type": "command",
            "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"mind the marker\"}}'"}]}],
        "PostToolUse": [{"hooks": [{"type": "command",
            "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"after says hi\"}}'"}]}]
    }});
    Fire::host("gemini")
        .settings(&settings)
        .payload("gemini/before_tool__shell.json")
        .expect_exit(0)
        .expect_stdout_lacks("mind the marker")
        .run_in(&sb);
    let after = |fields: &Value| {
        let run = Fire::host("gemini")
            .settings(&settings)
            .payload_with("gemini/after_tool__shell.json", fields)
            .expect_exit(0)
            .run_in(&sb);
        run.json()["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    // Another call of the same session: not its context.
    let other = after(&json!({"tool_input": {"command": "echo other", "description": "x"}}));
    assert_eq!(other, "after says hi");
    let first = after(&json!({}));
    assert_eq!(first.matches("mind the marker").count(), 1, "{first}");
    assert!(
        first.find("mind the marker") < first.find("after says hi"),
        "{first}"
    );
    let second = after(&json!({}));
    assert_eq!(second, "after says hi");
}

/// Qwen Code drops a PreToolUse answer's context but shows a PostToolUse
/// one: the context rides on the same call's PostToolUse answer, once,
/// before that fire's own; another call does not get it, and a rewritten
/// call (denied: Qwen cannot apply a rewrite) keeps nothing.
#[test]
fn qwen_pre_tool_context_rides_on_the_same_calls_post_tool_answer() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {
        "PreToolUse": [{"hooks": [{"type": "command",
            "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"mind the marker\"}}'"}]}],
        "PostToolUse": [{"hooks": [{"type": "command",
            "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"after says hi\"}}'"}]}]
    }});
    let before = |settings: &Value| {
        Fire::host("qwen")
            .settings(settings)
            .payload("qwen/pre_tool_use__shell.json")
            .expect_exit(0)
            .run_in(&sb)
    };
    let pre = before(&settings);
    assert!(!pre.stdout.contains("mind the marker"), "{}", pre.stdout);
    let after = |fields: &Value| {
        let run = Fire::host("qwen")
            .settings(&settings)
            .payload_with("qwen/post_tool_use__shell.json", fields)
            .expect_exit(0)
            .run_in(&sb);
        run.json()["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let other = after(&json!({"tool_input": {"command": "echo other", "description": "x"}}));
    assert_eq!(other, "after says hi");
    let first = after(&json!({}));
    assert_eq!(first.matches("mind the marker").count(), 1, "{first}");
    assert!(
        first.find("mind the marker") < first.find("after says hi"),
        "{first}"
    );
    assert_eq!(after(&json!({})), "after says hi");

    let rewriting = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo rewritten\"},\"additionalContext\":\"rewrite ctx\"}}'"}]}]}});
    let denied = before(&rewriting);
    assert_eq!(
        denied.json()["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        denied.stdout
    );
    assert_eq!(after(&json!({})), "after says hi");
    let rewritten = json!({"tool_input": {"command": "echo rewritten", "description": "Print hi"}});
    assert_eq!(after(&rewritten), "after says hi");
}

/// Where BeforeTool blocks, the tool never runs: nothing is kept for an
/// AfterTool; and a rewritten call is known by the input it runs with.
#[test]
fn gemini_keeps_no_context_of_a_blocked_call_and_keys_a_rewrite_by_its_new_input() {
    let sb = Sandbox::new();
    let blocking = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "echo '{\"decision\":\"block\",\"reason\":\"no\",\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"blocked ctx\"}}'"}]}]}});
    Fire::host("gemini")
        .settings(&blocking)
        .payload("gemini/before_tool__shell.json")
        .expect_json_at("/decision", "deny")
        .run_in(&sb);
    let after = |fields: &Value| {
        let run = Fire::host("gemini")
            .settings(&json!({}))
            .payload_with("gemini/after_tool__shell.json", fields)
            .expect_exit(0)
            .run_in(&sb);
        run.stdout
    };
    assert!(!after(&json!({})).contains("blocked ctx"));

    let rewriting = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo rewritten\"},\"additionalContext\":\"rewrite ctx\"}}'"}]}]}});
    Fire::host("gemini")
        .settings(&rewriting)
        .payload("gemini/before_tool__shell.json")
        .expect_exit(0)
        .expect_stdout_contains("echo rewritten")
        .run_in(&sb);
    // The input as sent (not run) gets nothing; the one that ran does:
    // the rewrite replaced the input whole, as Gemini runs it.
    assert!(!after(&json!({})).contains("rewrite ctx"));
    let ran = after(&json!({"tool_input": {"command": "echo rewritten"}}));
    assert!(ran.contains("rewrite ctx"), "{ran}");
}

#[test]
fn gemini_stop_loops_are_capped_by_hookrun_alone() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo again >&2; exit 2"}]}]}});
    let stdin = |active: bool| {
        payload(
            &sb,
            "gemini/after_agent.json",
            &json!({"stop_hook_active": active}),
        )
    };
    Fire::host("gemini")
        .settings(&settings)
        .stdin(&stdin(false))
        .expect_exit(0)
        .expect_json(json!({"decision": "block", "reason": "again"}))
        .run_in(&sb);
    for n in 2..=8 {
        assert_eq!(
            Fire::host("gemini")
                .settings(&settings)
                .stdin(&stdin(true))
                .run_in(&sb)
                .json()["decision"],
            "block",
            "block {n}"
        );
    }
    let ninth = Fire::host("gemini")
        .settings(&settings)
        .stdin(&stdin(true))
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(ninth.json().get("decision"), None, "{ninth:?}");
    assert!(
        ninth.json()["systemMessage"]
            .as_str()
            .unwrap()
            .contains("stop-loop guard")
    );
    // A new prompt starts a new chain.
    assert_eq!(
        Fire::host("gemini")
            .settings(&settings)
            .stdin(&stdin(false))
            .run_in(&sb)
            .json()["decision"],
        "block"
    );
}

#[test]
fn codex_gets_only_answers_its_strict_parser_accepts() {
    let sb = Sandbox::new();
    let settings = claude_style_guard(&sb);
    let bash = payload(&sb, "codex/pre_tool_use__bash.json", &json!({}));
    Fire::host("codex")
        .settings(&settings)
        .stdin(&bash)
        .expect_exit(0)
        .expect_json(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no echo here"}})).run_in(&sb);
    // An allow alone is a "failed" hook to Codex: nothing is sent.
    let allow = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"}]}]}});
    Fire::host("codex")
        .settings(&allow)
        .stdin(&bash)
        .expect_exit(0)
        .expect_stdout("")
        .run_in(&sb);
}

#[test]
fn codex_apply_patch_is_an_edit_with_a_file_path() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command",
        "if": "Edit(added_by_*)", "command": "echo 'no new files' >&2; exit 2"}]}]}});
    Fire::host("codex")
        .settings(&settings)
        .payload("codex/pre_tool_use__apply_patch.json")
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .run_in(&sb);
}

#[test]
fn cursor_always_gets_a_permission() {
    let sb = Sandbox::new();
    let stdin = payload(&sb, "cursor/before_shell_execution.json", &json!({}));
    let run = Fire::host("cursor")
        .settings(&json!({}))
        .stdin(&stdin)
        .run_in(&sb);
    // No hook decided: `ask` leaves the call to Cursor's own approval
    // (`allow` could skip it, and no permission at all blocks the tool).
    assert_eq!(
        (run.code, run.json()),
        (Some(0), json!({"permission": "ask"})),
        "{run:?}"
    );
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "if": "Bash(git push *)", "command": "echo 'no pushes' >&2; exit 2"}]}]}});
    Fire::host("cursor")
        .settings(&settings)
        .stdin(&stdin)
        .expect_exit(2)
        .expect_json(json!({"permission": "deny", "user_message": "no pushes", "agent_message": "no pushes"})).run_in(&sb);
}

#[test]
fn copilot_camel_case_block_is_one_object() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "if": "Bash(git push *)", "command": "echo 'no pushes' >&2; exit 2"}]}]}});
    let run = Fire::host("copilot")
        .settings(&settings)
        .payload("copilot/pre_tool_use__camel.json")
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(run.stdout.lines().count(), 1, "{run:?}");
    assert_eq!(
        run.json(),
        json!({"permissionDecision": "deny", "permissionDecisionReason": "no pushes"})
    );
}

#[test]
fn behind_claude_code_the_stop_guard_leaves_the_cap_to_claude_code() {
    let mut sb = Sandbox::new();
    let settings = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo again >&2; exit 2"}]}]}});
    let stop = |sb: &Sandbox, session: &str| {
        let stdin = sb.event(
            "Stop",
            &json!({"session_id": session, "stop_hook_active": true}),
        );
        Fire::host("claude-code")
            .settings(&settings)
            .stdin(&stdin)
            .run_in(sb)
    };
    // Claude Code ends the loop itself after 8 blocks: hookrun passes the
    // 9th on (Claude Code's to refuse), and steps in only past that.
    for n in 1..=9 {
        assert_eq!(stop(&sb, "cc").code, Some(2), "block {n}");
    }
    assert_eq!(stop(&sb, "cc").code, Some(0));
    sb.env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "2");
    for n in 1..=3 {
        assert_eq!(stop(&sb, "cc2").code, Some(2), "block {n}");
    }
    assert_eq!(stop(&sb, "cc2").code, Some(0));
}

#[test]
fn install_routes_every_event_with_hooks_and_is_idempotent() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &serde_json::to_string(&json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
            "SubagentStop": [{"hooks": [{"type": "command", "command": "true"}]}]
        }}))
        .unwrap(),
    );
    let mine = json!({"ui": {"theme": "dark"}, "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "./mine.sh", "timeout": 5000}]}]}});
    let file = sb.write(
        "project/.gemini/settings.json",
        &serde_json::to_string_pretty(&mine).unwrap(),
    );

    let dry = sb.run(&["install", "gemini", "--dry-run"], b"");
    assert_eq!(dry.code, Some(0), "{dry:?}");
    assert!(dry.stdout.contains("would write"), "{}", dry.stdout);
    assert!(
        dry.stdout
            .lines()
            .any(|l| l.starts_with('+') && l.contains("fire --host gemini")),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stdout.contains("has no SubagentStop event"),
        "{}",
        dry.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        serde_json::to_string_pretty(&mine).unwrap()
    );

    let run = sb.run(&["install", "gemini"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("backup:"), "{}", run.stdout);
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["ui"], json!({"theme": "dark"}));
    assert_eq!(
        written["hooks"]["BeforeTool"][0],
        mine["hooks"]["BeforeTool"][0]
    );
    let ours = &written["hooks"]["BeforeTool"][1]["hooks"][0];
    let command = ours["command"].as_str().unwrap();
    assert!(
        command.starts_with('/') || command.starts_with('\''),
        "{command}"
    );
    assert!(command.ends_with("hookrun fire --host gemini"), "{command}");
    assert_eq!(ours["timeout"], 60000, "milliseconds");
    assert!(written["hooks"]["AfterAgent"].is_array(), "{written}");
    // A BeforeTool context arrives with the call's AfterTool answer: routed
    // with it.
    assert!(written["hooks"]["AfterTool"].is_array(), "{written}");
    assert!(
        run.stdout.contains("routing PostToolUse too"),
        "{}",
        run.stdout
    );
    assert!(
        sb.path("project/.gemini/settings.json.hookrun-backup")
            .is_file()
    );

    let again = sb.run(&["install", "gemini"], b"");
    assert!(again.stdout.contains("nothing written"), "{}", again.stdout);

    let run = sb.run(&["uninstall", "gemini"], b"");
    assert!(
        run.stdout.contains("3 hookrun entries removed"),
        "{}",
        run.stdout
    );
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(back, mine);
}

#[test]
fn install_codex_explains_the_trust_step_and_cursor_gets_a_version() {
    let sb = Sandbox::new();
    let run = sb.run(&["install", "codex"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("trusted_hash"), "{}", run.stdout);
    let codex: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.path("project/.codex/hooks.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        codex["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 600,
        "seconds"
    );
    let run = sb.run(&["install", "cursor", "--user"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let cursor: Value =
        serde_json::from_str(&std::fs::read_to_string(sb.home.join(".cursor/hooks.json")).unwrap())
            .unwrap();
    assert_eq!(cursor["version"], 1);
    assert!(
        cursor["hooks"]["preToolUse"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("fire --host cursor")
    );
    let broken = sb.write("project/.claude/settings.json", "{ not json");
    let run = sb.run(&["install", "claude-code"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.contains(broken.to_str().unwrap()),
        "{}",
        run.stderr
    );
}

#[test]
fn doctor_says_when_the_host_cannot_start_hookrun_or_never_calls_it() {
    let sb = Sandbox::new();
    sb.write(
        "project/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookrun fire"}]}]}}).to_string(),
    );
    let file = sb.settings(&json!({"hooks": {
        "PreToolUse": [{"command": "true"}],
        "PostToolUse": [{"command": "true"}]
    }}));
    // The sandbox's PATH has no hookrun: Claude Code would get exit 127.
    let run = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    let checks: Vec<String> = run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["check"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        checks.contains(&"host-hookrun-not-on-path".to_owned()),
        "{checks:?}"
    );
    assert!(
        checks.contains(&"host-event-not-routed".to_owned()),
        "{checks:?}"
    );
    // `install` leaves the hand-written entry alone, and says so.
    let install = || {
        sb.run(
            &[
                "install",
                "claude-code",
                "--settings",
                file.to_str().unwrap(),
            ],
            b"",
        )
    };
    let run = install();
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("kept your own hookrun entry"),
        "{}",
        run.stdout
    );
    // Without it, the entries name this binary by path and route both.
    sb.write("project/.claude/settings.json", "{}\n");
    assert_eq!(install().code, Some(0));
    let run = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    let findings = run.json()["findings"].clone();
    assert!(!findings.to_string().contains("\"host-"), "{findings:#}");
}

#[test]
fn explain_reads_a_host_event_as_fire_does() {
    let sb = Sandbox::new();
    let file = sb.settings(&claude_style_guard(&sb));
    let stdin = payload(&sb, "gemini/before_tool__shell.json", &json!({}));
    let run = sb.run(
        &[
            "explain",
            "--host",
            "gemini",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        &stdin,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout
            .starts_with("event: PreToolUse (tool_name \"Bash\")"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("deadline: 59 s"), "{}", run.stdout);
    assert!(
        run.stdout.contains("1 of 1 hooks would run"),
        "{}",
        run.stdout
    );
}

#[test]
fn install_claude_code_names_the_watched_files_in_its_file_changed_entry() {
    let mut sb = Sandbox::new();
    let bin_dir = std::path::Path::new(crate::support::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    sb.env("PATH", &path);
    let file = sb.settings(&json!({"hooks": {
        "FileChanged": [{"matcher": ".envrc|.env", "command": "echo reload"}]
    }}));
    let run = sb.run(
        &[
            "install",
            "claude-code",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let written: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.path("project/.claude/settings.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        written["hooks"]["FileChanged"][0]["matcher"], ".envrc|.env",
        "{written}"
    );
    let doctor = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(doctor.json()["findings"], json!([]), "{}", doctor.stdout);
}

#[test]
fn copilot_install_names_each_event_so_its_nameless_payloads_work() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &serde_json::to_string(&json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]
        }}))
        .unwrap(),
    );
    let run = sb.run(&["install", "copilot"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.path("project/.github/hooks/hookrun.json")).unwrap(),
    )
    .unwrap();
    let command = file["hooks"]["preToolUse"][0]["bash"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        command.ends_with(" fire --host copilot preToolUse"),
        "{command}"
    );
    let start = file["hooks"]["sessionStart"][0]["bash"].as_str().unwrap();
    assert!(
        start.ends_with(" fire --host copilot sessionStart"),
        "{start}"
    );

    // The command as Copilot runs it, on a measured payload (no event
    // name), with a guard: the deny arrives, at exit 0.
    let guard = sb.settings(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "if": "Bash(echo hi*)", "command": "echo 'no echo' >&2; exit 2"}]}]}}),
    );
    let stdin = std::fs::read(crate::support::fixture(
        "hosts/copilot/measured_pre_tool_use.json",
    ))
    .unwrap();
    let full = format!(
        "{command} --no-default-settings --settings {}",
        guard.display()
    );
    // `sh -c FULL hookrun`: the sandbox's environment, the installed text.
    let run = crate::support::run_command(&mut sb.command_via(&["sh", "-c", &full]), &stdin);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.json(),
        json!({"permissionDecision": "deny", "permissionDecisionReason": "no echo"})
    );
}

/// Copilot CLI runs `.claude/settings.json` too, with its own PascalCase
/// payloads: what `install claude-code` wrote must answer Copilot in the
/// form Copilot honours (a deny with its reason at exit 0, a Stop block
/// that blocks, Copilot's `tool_input` keys read as Claude Code's), while
/// Claude Code's own payload keeps Claude Code's answer.
#[test]
fn install_claude_code_answers_copilot_when_copilot_runs_it() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &serde_json::to_string(&json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "if": "Bash(echo *)", "command": "echo 'R-BLOCK: no echo' >&2; exit 2"}]},
                {"matcher": "Read", "hooks": [{"type": "command",
                "command": "jq -r .tool_input.file_path >&2; exit 2"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "echo SAY-BYE >&2; exit 2"}]}]
        }}))
        .unwrap(),
    );
    let run = sb.run(&["install", "claude-code"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.path("project/.claude/settings.json")).unwrap(),
    )
    .unwrap();
    let command = file["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(command.ends_with(" fire --host claude-code"), "{command}");
    let full = format!("{command} --trust-project");
    // The installed text as a host runs it, with Copilot's environment
    // (COPILOT_CLI, which Copilot sets for every hook) or without it.
    let run_installed = |stdin: &[u8], copilot: bool| {
        let mut cmd = sb.command_via(&["sh", "-c", &full]);
        if copilot {
            cmd.env("COPILOT_CLI", "1");
        }
        crate::support::run_command(&mut cmd, stdin)
    };
    let pre = payload(&sb, "copilot/measured_pascal_pre_tool_use.json", &json!({}));
    let run = run_installed(&pre, true);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.json()["permissionDecision"], "deny", "{run:?}");
    assert_eq!(
        run.json()["permissionDecisionReason"],
        "R-BLOCK: no echo",
        "{run:?}"
    );
    let stop = payload(&sb, "copilot/measured_pascal_stop.json", &json!({}));
    let run = run_installed(&stop, true);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.json(),
        json!({"decision": "block", "reason": "SAY-BYE"}),
        "{run:?}"
    );
    // Copilot's `path` is the hooks' `file_path`.
    let read = payload(
        &sb,
        "copilot/measured_pascal_read.json",
        &json!({"hook_event_name": "PreToolUse"}),
    );
    let run = run_installed(&read, true);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.json()["permissionDecisionReason"],
        "/tmp/run/proj/notes.txt",
        "{run:?}"
    );

    // Claude Code's payload, even in an environment that has COPILOT_CLI
    // (Claude Code started from Copilot's shell): Claude Code's answer.
    let claude = sb.event(
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": "echo hi"}, "tool_use_id": "toolu_1"}),
    );
    for copilot in [true, false] {
        let run = run_installed(&claude, copilot);
        assert_eq!(run.code, Some(2), "{run:?}");
        assert_eq!(run.stderr.trim(), "R-BLOCK: no echo", "{run:?}");
    }
    // Copilot's payload without Copilot's environment is not guessed at.
    let run = run_installed(&pre, false);
    assert_eq!(run.code, Some(2), "{run:?}");
}

#[test]
fn gemini_read_many_files_meets_read_deny_rules() {
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"deny": ["Read(./.env)"]}});
    let env = sb.project.join(".env");
    let fields =
        json!({"tool_name": "read_many_files", "tool_input": {"include": [env.to_str().unwrap()]}});
    Fire::host("gemini")
        .settings(&settings)
        .payload_with("gemini/before_tool__read.json", &fields)
        .expect_exit(0)
        .expect_json_at("/decision", "deny")
        .run_in(&sb);
}

/// A policy kept under `.claude/` is Claude Code's to enforce behind
/// Claude Code; behind any other host nobody would, so hookrun enforces
/// its deny and ask rules itself (not its allow rules: those could approve
/// what the host would have asked about).
#[test]
fn a_claude_code_policy_is_enforced_behind_other_hosts() {
    let sb = Sandbox::new();
    let policy = sb.write(
        "project/.claude/hookrun.json",
        &serde_json::to_string(&json!({
            "permissions": {"deny": ["Read(./.env)"], "allow": ["Bash"]},
        }))
        .unwrap(),
    );
    let env = sb.project.join(".env");
    let fire = |host: &str, stdin: Vec<u8>| {
        sb.run(
            &[
                "fire",
                "--host",
                host,
                "--no-default-settings",
                "--trust-project",
                "--settings",
                policy.to_str().unwrap(),
            ],
            &stdin,
        )
    };
    let copilot = payload(
        &sb,
        "copilot/measured_pre_tool_use.json",
        &json!({"toolName": "view", "toolArgs": {"path": env.to_str().unwrap()}}),
    );
    let run = fire("copilot", copilot);
    assert_eq!(run.json()["permissionDecision"], "deny", "{run:?}");
    let gemini = payload(
        &sb,
        "gemini/before_tool__read.json",
        &json!({"tool_input": {"file_path": env.to_str().unwrap()}}),
    );
    let run = fire("gemini", gemini);
    assert_eq!(run.json()["decision"], "deny", "{run:?}");
    // The allow stays Claude Code's: a shell call gets no approval.
    let run = fire(
        "copilot",
        payload(&sb, "copilot/measured_pre_tool_use.json", &json!({})),
    );
    assert_eq!(run.json(), json!({}), "{run:?}");
    // Behind Claude Code, Claude Code enforces it: hookrun does not.
    let event = sb.event(
        "PreToolUse",
        &json!({"tool_name": "Read", "tool_input": {"file_path": env.to_str().unwrap()}}),
    );
    let run = fire("claude-code", event);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.json().get("hookSpecificOutput"), None, "{run:?}");
}

crate::platform::unix_only! {
#[test]
fn install_cline_writes_marked_hook_files_and_never_touches_others() {
    use std::os::unix::fs::PermissionsExt as _;
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &serde_json::to_string(&json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]
        }}))
        .unwrap(),
    );
    // The user's own Stop hook file: never overwritten, never removed.
    let theirs = sb.write(
        "project/.clinerules/hooks/TaskComplete",
        "#!/bin/sh\necho mine\n",
    );
    let run = sb.run(&["install", "cline"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("is not hookrun's: left alone"),
        "{}",
        run.stdout
    );
    let pre = sb.path("project/.clinerules/hooks/PreToolUse");
    let text = std::fs::read_to_string(&pre).unwrap();
    assert!(text.contains("# hookrun: written by"), "{text}");
    assert!(
        text.trim_end().ends_with(" fire --host cline PreToolUse"),
        "{text}"
    );
    assert_eq!(
        std::fs::metadata(&pre).unwrap().permissions().mode() & 0o777,
        0o755
    );
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    // Again: nothing changes.
    let again = sb.run(&["install", "cline"], b"");
    assert!(
        again.stdout.contains("already up to date"),
        "{}",
        again.stdout
    );

    // The file as Cline runs it (`bash FILE`, no arguments), on Cline's
    // payload, behind a guard: one call denied, the model goes on.
    let guard = sb.settings(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "if": "Bash(touch *)", "command": "echo 'no touching' >&2; exit 2"}]}]}}),
    );
    let script = text.replace(
        " fire --host cline PreToolUse",
        &format!(
            " fire --host cline PreToolUse --no-default-settings --settings {}",
            guard.display()
        ),
    );
    let script = sb.write("cli/PreToolUse", &script);
    let stdin = payload(&sb, "cline/tool_call__run_commands.json", &json!({}));
    let mut cmd = sb.command_via(&["bash", script.to_str().unwrap()]);
    let run = crate::support::run_command(&mut cmd, &stdin);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.json(),
        json!({"overrideInput": {}, "contextModification": "no touching"})
    );

    let run = sb.run(&["uninstall", "cline"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(!pre.exists());
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
}

}

#[test]
fn install_cline_never_writes_through_a_symlinked_folder() {
    let sb = Sandbox::new();
    let elsewhere = sb.path("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    crate::platform::symlink(&elsewhere, sb.path("project/.clinerules"));
    let run = sb.run(&["install", "cline"], b"");
    assert_ne!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("is a symlink"), "{run:?}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

#[test]
fn doctor_checks_clines_hook_files() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let run = sb.run(
        &["install", "cline", "--binary", "/nonexistent/hookrun"],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let run = sb.run(&["doctor"], b"");
    assert!(
        run.stdout.contains("host-hookrun-missing") && run.stdout.contains("PreToolUse"),
        "{run:?}"
    );
}

/// Copilot takes hookrun's exit 1 silently (a reasonless deny on
/// preToolUse, nothing elsewhere): an unreadable event is answered loudly.
#[test]
fn copilot_never_gets_a_silent_exit_1() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({}));
    let fire = |event: &str| {
        sb.run(
            &[
                "fire",
                "--host",
                "copilot",
                event,
                "--no-default-settings",
                "--settings",
                settings.to_str().unwrap(),
            ],
            b"{not json",
        )
    };
    let run = fire("preToolUse");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.json()["permissionDecision"], "deny", "{run:?}");
    assert!(
        run.json()["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("hookrun:"),
        "{run:?}"
    );
    // Elsewhere exit 2 is Copilot's visible warning, never a block.
    let run = fire("postToolUse");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.starts_with("hookrun:"), "{run:?}");
}

/// A patch is judged on every file it touches: a deny rule on the second
/// one holds (Codex trims the headers: an indented one counts too).
#[test]
fn every_file_of_a_patch_meets_the_deny_rules() {
    let sb = Sandbox::new();
    let settings =
        json!({"permissions": {"deny": ["Edit(./.env)"], "allow": ["Edit(./notes.txt)"]}});
    let patch = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-a\n+b\n  *** Delete File: .env\n*** End Patch\n";
    Fire::host("codex")
        .settings(&settings)
        .payload_with(
            "codex/pre_tool_use__apply_patch.json",
            &json!({"tool_input": {"command": patch}}),
        )
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .expect_stdout_contains(".env")
        .run_in(&sb);
}

/// A guard hook's `if` sees every file of a patch too: it starts when any
/// of them is the one it names, not only the first.
#[test]
fn a_guard_hooks_if_sees_every_file_of_a_patch() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"PreToolUse": [{
        "matcher": "Edit",
        "if": "Edit(**/.env)",
        "command": "echo 'the .env file is not for the agent' >&2; exit 2"
    }]}});
    let patch = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-a\n+b\n*** Delete File: .env\n*** End Patch\n";
    Fire::host("codex")
        .settings(&settings)
        .payload_with(
            "codex/pre_tool_use__apply_patch.json",
            &json!({"tool_input": {"command": patch}}),
        )
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .expect_stdout_contains("not for the agent")
        .run_in(&sb);
}

/// Allow rules must cover every file of a patch (Copilot's `allow` would
/// skip its own approval).
#[test]
fn allow_rules_must_cover_every_file_of_a_patch() {
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"allow": ["Edit(./notes.txt)"]}});
    let stdin = |patch: &str| {
        payload(
            &sb,
            "copilot/measured_apply_patch.json",
            &json!({"toolArgs": patch}),
        )
    };
    let one = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-a\n+b\n*** End Patch\n";
    Fire::host("copilot")
        .settings(&settings)
        .stdin(&stdin(one))
        .expect_json_at("/permissionDecision", "allow")
        .run_in(&sb);
    let two = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-a\n+b\n*** Add File: other.txt\n+x\n*** End Patch\n";
    Fire::host("copilot")
        .settings(&settings)
        .stdin(&stdin(two))
        .expect_json(json!({}))
        .run_in(&sb);
}

#[test]
fn qwen_shell_calls_meet_claude_code_bash_rules() {
    let sb = Sandbox::new();
    // A permission rule and a hook, both written for Claude Code.
    let settings = json!({"permissions": {"deny": ["Bash(echo *)"]}});
    let run = Fire::host("qwen")
        .settings(&settings)
        .payload("qwen/pre_tool_use__shell.json")
        .expect_exit(0)
        .expect_stderr("")
        .run_in(&sb);
    let answer = run.json();
    assert_eq!(answer["decision"], "block", "{}", run.stdout);
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{}",
        run.stdout
    );
    let guard = claude_style_guard(&sb);
    Fire::host("qwen")
        .settings(&guard)
        .payload("qwen/pre_tool_use__shell.json")
        .expect_exit(0)
        .expect_json_at(
            "/hookSpecificOutput/permissionDecisionReason",
            "no echo here",
        )
        .run_in(&sb);
    assert_eq!(
        std::fs::read_to_string(sb.path("hooks/seen")).unwrap(),
        "qwen PreToolUse run_shell_command"
    );
}

#[test]
fn qwen_reads_meet_read_guards_and_shell_results_get_context() {
    let sb = Sandbox::new();
    let notes = sb.project.join("notes.txt");
    let settings = json!({"hooks": {
        "PreToolUse": [{"matcher": "Read", "hooks": [
            {"type": "command", "if": "Read(**/notes.txt)", "command": "echo notes.txt is private >&2; exit 2"}
        ]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"CTX-POST\"}}'"}
        ]}]
    }});
    let read = |path: &std::path::Path| {
        Fire::host("qwen")
            .settings(&settings)
            .payload_with(
                "qwen/pre_tool_use__read.json",
                &json!({"tool_input": {"file_path": path.to_str().unwrap()}}),
            )
            .run_in(&sb)
    };
    let run = read(&notes);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.json()["reason"], "notes.txt is private", "{run:?}");
    let run = read(&sb.project.join("other.txt"));
    assert_eq!((run.code, run.json()), (Some(0), json!({})), "{run:?}");
    Fire::host("qwen")
        .settings(&settings)
        .payload("qwen/post_tool_use__shell.json")
        .expect_json(json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}})).run_in(&sb);
}

#[test]
fn qwen_continuation_prompts_run_no_prompt_hooks() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": "echo ran >> \"$CLAUDE_PROJECT_DIR/prompt.log\"; echo no >&2; exit 2"}
    ]}]}});
    let log = sb.project.join("prompt.log");
    let run = Fire::host("qwen")
        .settings(&settings)
        .payload("qwen/user_prompt_submit__continuation.json")
        .args(&["--format", "report"])
        .expect_exit(0)
        .run_in(&sb);
    assert!(!log.exists(), "a continuation is no prompt");
    assert!(run.stdout.contains("continuation"), "{}", run.stdout);
    Fire::host("qwen")
        .settings(&settings)
        .payload("qwen/user_prompt_submit.json")
        .expect_exit(0)
        .expect_json(json!({"decision": "block", "reason": "no"}))
        .run_in(&sb);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "ran\n");
}

#[test]
fn install_qwen_writes_seconds_below_1000_and_uninstall_gives_back_the_bytes() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &serde_json::to_string(&json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 1800}]}]
        }}))
        .unwrap(),
    );
    let mine = "{\n\t\"model\": {\"name\": \"qwen3-coder-plus\"},\n\t\"hooks\": {\"PostToolUse\": [{\"matcher\": \"edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"./fmt.sh\"}]}]}\n}";
    let file = sb.write("project/.qwen/settings.json", mine);
    let run = sb.run(&["install", "qwen"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["model"], json!({"name": "qwen3-coder-plus"}));
    let pre = &written["hooks"]["PreToolUse"][0]["hooks"][0];
    assert!(
        pre["command"]
            .as_str()
            .unwrap()
            .ends_with("hookrun fire --host qwen"),
        "{pre}"
    );
    assert_eq!(pre["timeout"], 60, "seconds");
    // A 30-minute Stop hook: Qwen would read 1803 as milliseconds, so the
    // entry stays below 1000 and hookrun answers within it.
    let stop = &written["hooks"]["Stop"][0]["hooks"][0];
    assert_eq!(stop["timeout"], 999, "{stop}");
    assert!(
        stop["command"]
            .as_str()
            .unwrap()
            .ends_with("--deadline 998s"),
        "{stop}"
    );
    assert!(written["hooks"].get("BeforeTool").is_none(), "{written}");
    assert!(run.stdout.contains("only hook"), "{}", run.stdout);
    let run = sb.run(&["uninstall", "qwen"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), mine);
    // --user is ~/.qwen/settings.json.
    let run = sb.run(&["install", "qwen", "--user", "--dry-run"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains(".qwen/settings.json") && !run.stdout.contains("project/.qwen"),
        "{}",
        run.stdout
    );
}

#[test]
fn doctor_catches_qwens_foreign_event_names_and_millisecond_timeouts() {
    let sb = Sandbox::new();
    let file = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let hookrun = crate::support::BIN;
    // What `install gemini` wrote, copied into Qwen's file.
    sb.write(
        "project/.qwen/settings.json",
        &json!({"hooks": {
            "BeforeTool": [{"hooks": [{"type": "command", "command": format!("{hookrun} fire --host qwen")}]}],
            "Stop": [{"hooks": [{"type": "command", "command": format!("{hookrun} fire --host qwen"), "timeout": 1500}]}]
        }})
        .to_string(),
    );
    let run = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    let findings = run.json()["findings"].clone();
    let of = |check: &str| -> Vec<Value> {
        findings
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["check"] == check)
            .cloned()
            .collect()
    };
    let foreign = of("host-event-foreign");
    assert_eq!(foreign.len(), 1, "{findings:#}");
    assert!(
        foreign[0]["file"]
            .as_str()
            .unwrap()
            .ends_with(".qwen/settings.json")
    );
    let ms = of("host-timeout-milliseconds");
    assert_eq!(ms.len(), 1, "{findings:#}");
    assert!(
        ms[0]["message"].as_str().unwrap().contains("1.5 s"),
        "{ms:?}"
    );
    assert!(!of("host-event-not-routed").is_empty(), "{findings:#}");
}

/// A Claude Code payload sent to `--host codex` (a wrong `HOOKRUN_HOST`):
/// every block is still answered in a form Claude Code honours too (the
/// deny JSON, `decision: "block"`, at exit 0), so none is dropped.
#[test]
fn claude_code_payloads_fired_as_codex_keep_their_blocks() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "command": "echo no-rm >&2; exit 2"}],
        "UserPromptSubmit": [{"command": "echo no-prompt >&2; exit 2"}],
        "Stop": [{"command": "echo keep-going >&2; exit 2"}]
    }});
    let cwd = sb.project.to_str().unwrap().to_owned();
    let fire = |event: Value| {
        let mut event = event;
        event["session_id"] = json!("s");
        event["cwd"] = json!(cwd);
        event["transcript_path"] = json!("/nonexistent/t.jsonl");
        Fire::host("codex")
            .settings(&settings)
            .stdin(event.to_string().as_bytes())
            .run_in(&sb)
    };
    let run = fire(json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf x"}, "permission_mode": "default"}));
    assert_eq!(run.code, Some(0), "{run:?}");
    let answer = run.json();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{run:?}"
    );
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"],
        "no-rm"
    );
    for (event, reason) in [
        (
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}),
            "no-prompt",
        ),
        (
            json!({"hook_event_name": "Stop", "stop_hook_active": false}),
            "keep-going",
        ),
    ] {
        let run = fire(event);
        assert_eq!(run.code, Some(0), "{run:?}");
        assert_eq!(run.json()["decision"], "block", "{run:?}");
        assert_eq!(run.json()["reason"], reason, "{run:?}");
    }
}

/// A Claude Code hook's `updatedInput` replaces `tool_input`: a field it
/// leaves out (a flag it removed) is gone. Copilot, Gemini and Cline replace
/// the input with what the hook answers too (measured on each), so the
/// answer carries the rewrite whole, in the host's field names.
#[test]
fn a_rewrite_replaces_the_arguments_on_every_host_that_takes_one() {
    let sb = Sandbox::new();
    let rewrite = |input: Value| {
        let answer = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "allow", "updatedInput": input}});
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
            "command": format!("printf '%s' '{answer}'")}]}]}})
    };
    // Copilot: `description` left out of the rewrite stays out.
    let run = Fire::host("copilot")
        .settings(&rewrite(json!({"command": "echo safe"})))
        .payload("copilot/measured_pre_tool_use.json")
        .args(&["preToolUse"])
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(
        run.json()["modifiedArgs"],
        json!({"command": "echo safe"}),
        "{}",
        run.stdout
    );
    // Copilot's edit tool: renamed back, nothing of the original added.
    let run = Fire::host("copilot")
        .settings(&rewrite(
            json!({"file_path": "/x", "old_string": "a", "new_string": "b"}),
        ))
        .payload("copilot/pre_tool_use__camel_edit.json")
        .args(&["preToolUse"])
        .run_in(&sb);
    assert_eq!(
        run.json()["modifiedArgs"],
        json!({"path": "/x", "old_str": "a", "new_str": "b"}),
        "{}",
        run.stdout
    );
    // Gemini: the replace tool's `instruction` removed stays removed.
    let run = Fire::host("gemini")
        .settings(&rewrite(
            json!({"file_path": "/x", "old_string": "alpha", "new_string": "gamma"}),
        ))
        .payload("gemini/before_tool__replace.json")
        .run_in(&sb);
    assert_eq!(
        run.json()["hookSpecificOutput"]["tool_input"],
        json!({"file_path": "/x", "old_string": "alpha", "new_string": "gamma"}),
        "{}",
        run.stdout
    );
    // Cline: the whole input, in Cline's fields.
    let run = Fire::host("cline")
        .settings(&rewrite(json!({"command": "echo safe"})))
        .payload("cline/tool_call__run_commands.json")
        .args(&["PreToolUse"])
        .run_in(&sb);
    assert_eq!(
        run.json()["overrideInput"],
        json!({"commands": ["echo safe"]}),
        "{}",
        run.stdout
    );
}

/// Factory Droid, the seventh host: its payloads decode to Claude Code's
/// vocabulary, its answers are the forms it was measured honouring, and
/// `install droid` writes `.factory/settings.json`, which `doctor` reads
/// back.
#[test]
fn droid_is_a_host_from_payload_to_install() {
    let sb = Sandbox::new();
    // A Bash rule judges Droid's Execute; the answer is the deny Droid
    // reads (permissionDecision, and exit 2 with the reason).
    let deny_rm = json!({"permissions": {"deny": ["Bash(rm *)"]}});
    let fields = json!({"tool_input": {"summary": "Clean up", "command": "rm -rf build", "riskLevelReason": "r", "riskLevel": "high"}});
    Fire::host("droid")
        .settings(&deny_rm)
        .payload_with("droid/pre_tool_use__execute.json", &fields)
        .expect_exit(2)
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .run_in(&sb);
    // An ask becomes a deny: `droid exec` would run the call.
    let ask = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "command": "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"sure?\"}}'"}]}]}});
    Fire::host("droid")
        .settings(&ask)
        .payload("droid/pre_tool_use__execute.json")
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .run_in(&sb);
    // A Read rule sees Droid's LS of a folder.
    let no_secrets = json!({"permissions": {"deny": ["Read(//tmp/run/proj/secrets)"]}});
    Fire::host("droid")
        .settings(&no_secrets)
        .payload_with(
            "droid/pre_tool_use__ls.json",
            &json!({"tool_input": {"directory_path": "/tmp/run/proj/secrets"}}),
        )
        .expect_exit(2)
        .run_in(&sb);

    // install droid: one entry per event, `--host droid`, whole seconds,
    // and PostToolUse with PreToolUse (a PreToolUse context arrives there).
    sb.write(
        "project/.hookrun/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "true"}], "Stop": [{"command": "true"}]}})
            .to_string(),
    );
    assert_eq!(sb.run(&["trust"], b"").code, Some(0));
    let run = sb.run(&["install", "droid"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let file = sb.path("project/.factory/settings.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    for event in ["PreToolUse", "PostToolUse", "Stop"] {
        let entry = &doc["hooks"][event][0]["hooks"][0];
        assert!(
            entry["command"]
                .as_str()
                .is_some_and(|c| c.ends_with("fire --host droid")),
            "{event}: {doc}"
        );
        assert_eq!(entry["timeout"], 60, "{event}: {doc}");
    }
    assert!(run.stdout.contains("only hook"), "{}", run.stdout);
    let doctor = sb.run(&["doctor"], b"");
    assert!(
        !doctor.stdout.contains("host-event-not-routed"),
        "{}",
        doctor.stdout
    );
    let run = sb.run(&["uninstall", "droid"], b"");
    assert!(
        run.stdout.contains("3 hookrun entries removed"),
        "{}",
        run.stdout
    );
    assert!(!file.exists(), "install created it, uninstall removed it");

    // An entry without `--host droid` would be answered as Claude Code.
    sb.write(
        "project/.factory/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookrun fire", "timeout": 60}]}]}})
            .to_string(),
    );
    let doctor = sb.run(&["doctor"], b"");
    assert!(doctor.stdout.contains("host-mismatch"), "{}", doctor.stdout);
}

/// Codex 0.171.0's new events (its embedded hook schemas): a SubagentStop
/// block in the form Codex's parser takes, and `install codex` routing them.
#[test]
fn codex_0_171_events_are_answered_and_routed() {
    let sb = Sandbox::new();
    let block = json!({"hooks": {"SubagentStop": [{"hooks": [{"type": "command", "command": "echo 'keep going' >&2; exit 2"}]}]}});
    Fire::host("codex")
        .settings(&block)
        .payload("codex/schema_subagent_stop.json")
        .expect_exit(0)
        .expect_json(json!({"decision": "block", "reason": "keep going"}))
        .run_in(&sb);
    // PreCompact has no block in Codex's answer: not sent, and said.
    let block = json!({"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "echo 'not now' >&2; exit 2"}]}]}});
    let run = Fire::host("codex")
        .settings(&block)
        .payload("codex/schema_pre_compact.json")
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.json()["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("cannot be blocked")),
        "{}",
        run.stdout
    );
    sb.write(
        "project/.hookrun/settings.json",
        &json!({"hooks": {"SubagentStop": [{"command": "true"}], "Interrupt": [{"command": "true"}]}})
            .to_string(),
    );
    assert_eq!(sb.run(&["trust"], b"").code, Some(0));
    let run = sb.run(&["install", "codex"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.path("project/.codex/hooks.json")).unwrap(),
    )
    .unwrap();
    assert!(doc["hooks"]["SubagentStop"].is_array(), "{doc}");
    assert!(doc["hooks"]["Interrupt"].is_array(), "{doc}");
}

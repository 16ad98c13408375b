//! Claude Code as it ships (2.1.337, read out of its binary and measured on
//! it through the oracle): its new events, `onFailure`, and what it does
//! with `deny: ["*"]` and `ask: ["mcp__*"]`, each held against hookrun.

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Sandbox, fixture};

/// The entry `hookrun install claude-code` wrote for `event`: its command
/// split into words (the binary first).
fn installed_entry(sb: &Sandbox, event: &str) -> Vec<String> {
    let path = sb.path("project/.claude/settings.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let command = doc["hooks"][event][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("no {event} entry: {doc}"));
    command.split_whitespace().map(str::to_owned).collect()
}

/// The event Claude Code sent in the oracle (the fixture), with the
/// sandbox's project as `cwd` and `fields` set over it.
fn event_from_fixture(sb: &Sandbox, name: &str, fields: &Value) -> Vec<u8> {
    let text = std::fs::read_to_string(fixture(&format!("events/{name}.json"))).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    let object = value.as_object_mut().unwrap();
    object.insert("cwd".into(), json!(sb.project.to_str().unwrap()));
    for (k, v) in fields.as_object().unwrap() {
        object.insert(k.clone(), v.clone());
    }
    let mut bytes = serde_json::to_vec(&value).unwrap();
    bytes.push(b'\n');
    bytes
}

#[test]
fn on_failure_block_blocks_when_the_hook_fails() {
    // Claude Code 2.1.337 (oracle case o_onfailure_block): the tool does not
    // run. Before, hookrun called the field unknown and answered `{}`.
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo broken >&2; exit 1", "onFailure": "block"}]}]}});
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
        .expect_exit(2)
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .expect_stdout_lacks("unknown field")
        .run_in(&sb);

    // `continue` is the default: the failure is a warning.
    let settings =
        json!({"hooks": {"PreToolUse": [{"command": "exit 1", "onFailure": "continue"}]}});
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash"}))
        .expect_exit(0)
        .run_in(&sb);
    // Any other value reads as block (and is said).
    let settings = json!({"hooks": {"PreToolUse": [{"command": "exit 1", "onFailure": "stop"}]}});
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash"}))
        .expect_exit(2)
        .expect_stdout_contains("read as")
        .run_in(&sb);
    // Claude Code ignores it on Stop, and so does hookrun: the agent may stop.
    let settings = json!({"hooks": {"Stop": [{"command": "exit 1", "onFailure": "block"}]}});
    Fire::new("Stop")
        .settings(&settings)
        .input(&json!({"stop_hook_active": false}))
        .expect_exit(0)
        .run_in(&sb);
}

#[test]
fn a_skills_rm_rf_build_is_denied_behind_claude_code_through_install() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &json!({"permissions": {"deny": ["Bash(rm *)"]}}).to_string(),
    );
    let run = sb.run(&["trust"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let run = sb.run(&["install", "claude-code"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("routing PreSkillShellCommand"),
        "{}",
        run.stdout
    );
    let entry = installed_entry(&sb, "PreSkillShellCommand");
    assert_eq!(entry[1..], ["fire", "--host", "claude-code"], "{entry:?}");
    let args: Vec<&str> = entry[1..].iter().map(String::as_str).collect();

    // Exactly what Claude Code 2.1.337 sends for a skill's `!`rm -rf build``.
    let run = sb.run(
        &args,
        &event_from_fixture(&sb, "pre_skill_shell_command", &json!({})),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    let hso = &run.json()["hookSpecificOutput"];
    assert_eq!(
        hso["hookEventName"], "PreSkillShellCommand",
        "{}",
        run.stdout
    );
    assert_eq!(hso["permissionDecision"], "deny", "{}", run.stdout);
    assert!(run.stderr.contains("Bash(rm *)"), "{}", run.stderr);

    // A command the rules do not name runs: no decision.
    let run = sb.run(
        &args,
        &event_from_fixture(
            &sb,
            "pre_skill_shell_command",
            &json!({"tool_input": {"command": "git status"}}),
        ),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.json(), json!({}), "{}", run.stdout);
}

#[test]
fn a_bash_guard_hook_judges_a_skills_shell_command_like_a_tool_call() {
    let sb = Sandbox::new();
    // A PreToolUse guard written for Claude Code's Bash tool, answering in
    // PreToolUse's own words: it runs for the skill's command too, and its
    // deny holds (Claude Code reads a PreToolUse answer there).
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "if": "Bash(rm *)",
        "command": "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm from skills\"}}'"}]}]}});
    let file = sb.settings(&settings);
    let stdin = event_from_fixture(&sb, "pre_skill_shell_command", &json!({}));
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        &stdin,
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr.trim(), "no rm from skills");
    // Not for another tool, and not for a command the `if` does not name.
    let read = event_from_fixture(
        &sb,
        "pre_skill_shell_command",
        &json!({"tool_name": "Read"}),
    );
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        &read,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let ls = event_from_fixture(
        &sb,
        "pre_skill_shell_command",
        &json!({"tool_input": {"command": "ls"}}),
    );
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        &ls,
    );
    assert_eq!((run.code, run.json()), (Some(0), json!({})), "{run:?}");
}

#[test]
fn a_settings_file_written_for_2_1_337_loads_with_nothing_unknown() {
    // Every event of Claude Code 2.1.337's `hooks` schema, every field of
    // each hook type, its internal ones included.
    let sb = Sandbox::new();
    let text = std::fs::read_to_string(fixture("settings/claude-code-2.1.337.json")).unwrap();
    let file = sb.write("cli/.claude/settings.json", &text);
    let run = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--claude-settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    let report: Value =
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run:?}"));
    let findings = report["findings"].as_array().unwrap();
    let unknown: Vec<&Value> = findings
        .iter()
        .filter(|f| {
            let check = f["check"].as_str().unwrap_or_default();
            check.starts_with("unknown")
                || f["message"].as_str().is_some_and(|m| m.contains("unknown"))
        })
        .collect();
    assert_eq!(unknown, [] as [&Value; 0], "{}", run.stdout);
    // The internal fields are known: a note each, nothing louder.
    let internal: Vec<&str> = findings
        .iter()
        .filter(|f| {
            f["message"]
                .as_str()
                .is_some_and(|m| m.contains("ignored by hookrun"))
        })
        .map(|f| f["severity"].as_str().unwrap())
        .collect();
    assert_eq!(internal, ["note"; 5], "{}", run.stdout);
    let listed = sb.run(
        &[
            "list",
            "--no-default-settings",
            "--claude-settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    for event in [
        "PreModelSwitch",
        "PostModelSwitch",
        "PreSkillShellCommand",
        "Interrupt",
    ] {
        assert!(listed.stdout.contains(event), "{event}: {}", listed.stdout);
    }
}

#[test]
fn the_new_events_answer_as_claude_code_defines_them() {
    let sb = Sandbox::new();
    let block = |event: &str| json!({"hooks": {event: [{"hooks": [{"type": "command", "command": "echo 'stay on this model' >&2; exit 2"}]}]}});
    // PreModelSwitch: a deny cancels the switch (measured: exit 2 blocks it).
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            sb.settings(&block("PreModelSwitch")).to_str().unwrap(),
        ],
        &event_from_fixture(&sb, "pre_model_switch", &json!({})),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.json()["hookSpecificOutput"],
        json!({"hookEventName": "PreModelSwitch", "permissionDecision": "deny", "permissionDecisionReason": "stay on this model"})
    );
    // Interrupt and PostModelSwitch cannot block: never exit 2.
    for (event, fixture_name) in [
        ("Interrupt", "interrupt"),
        ("PostModelSwitch", "post_model_switch"),
    ] {
        let run = sb.run(
            &[
                "fire",
                "--no-default-settings",
                "--settings",
                sb.settings(&block(event)).to_str().unwrap(),
            ],
            &event_from_fixture(&sb, fixture_name, &json!({})),
        );
        assert_eq!(run.code, Some(0), "{event}: {run:?}");
    }
    // PostModelSwitch context reaches the model (plain stdout too).
    let context = json!({"hooks": {"PostModelSwitch": [{"hooks": [{"type": "command", "command": "echo now on sonnet"}]}]}});
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            sb.settings(&context).to_str().unwrap(),
        ],
        &event_from_fixture(&sb, "post_model_switch", &json!({})),
    );
    assert_eq!(
        run.json()["hookSpecificOutput"]["additionalContext"],
        "now on sonnet",
        "{}",
        run.stdout
    );
}

#[test]
fn matchers_on_the_new_events_compare_what_claude_code_compares() {
    let sb = Sandbox::new();
    let marker = sb.path("ran.marker");
    let fired = |event: &str, matcher: &str, fixture_name: &str, fields: &Value| {
        let _ = std::fs::remove_file(&marker);
        let command = format!("touch '{}'", marker.display());
        let settings = json!({"hooks": {event: [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}});
        let file = sb.settings(&settings);
        let run = sb.run(
            &[
                "fire",
                "--no-default-settings",
                "--settings",
                file.to_str().unwrap(),
            ],
            &event_from_fixture(&sb, fixture_name, fields),
        );
        assert_eq!(run.code, Some(0), "{run:?}");
        marker.exists()
    };
    // A model switch matches the target model, less Claude Code's `[1m]`.
    let to_1m = json!({"to_model": "claude-opus-4-6[1m]"});
    assert!(fired(
        "PreModelSwitch",
        "claude-opus-4-6",
        "pre_model_switch",
        &to_1m
    ));
    assert!(fired(
        "PreModelSwitch",
        "claude-opus-4-6[1m]",
        "pre_model_switch",
        &to_1m
    ));
    assert!(!fired(
        "PreModelSwitch",
        "claude-sonnet-4-5",
        "pre_model_switch",
        &to_1m
    ));
    // Interrupt matches `source`.
    assert!(fired("Interrupt", "user", "interrupt", &json!({})));
    assert!(!fired("Interrupt", "system", "interrupt", &json!({})));
}

#[test]
fn deny_star_and_ask_mcp_star_are_rules_as_in_claude_code() {
    // Measured on 2.1.337 (oracle t2, t3): `*` denies every tool, `mcp__*`
    // asks every MCP tool and no other. hookrun called both invalid.
    let sb = Sandbox::new();
    let deny_all = json!({"permissions": {"deny": ["*"]}});
    Fire::new("PreToolUse")
        .settings(&deny_all)
        .input(&json!({"tool_name": "Read", "tool_input": {"file_path": "/etc/hostname"}}))
        .expect_exit(2)
        .run_in(&sb);
    let ask_mcp = json!({"permissions": {"ask": ["mcp__*"]}});
    Fire::new("PreToolUse")
        .settings(&ask_mcp)
        .input(&json!({"tool_name": "mcp__oracle__echo", "tool_input": {"text": "hi"}}))
        .expect_json_at("/hookSpecificOutput/permissionDecision", "ask")
        .run_in(&sb);
    Fire::new("PreToolUse")
        .settings(&ask_mcp)
        .input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
        .expect_exit(0)
        .expect_json(json!({}))
        .run_in(&sb);
    let doctor = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            sb.settings(&deny_all).to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        !doctor.stdout.contains("permission-rule-invalid"),
        "{}",
        doctor.stdout
    );
}

#[test]
fn prompt_and_agent_hooks_load_on_task_completed_as_in_claude_code() {
    // Measured on 2.1.337 (oracle t1, t1b): both run there, and `ok:
    // false` keeps the task open. hookrun refused them.
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"TaskCompleted": [{"hooks": [
        {"type": "prompt", "prompt": "Is the task really done? $ARGUMENTS"},
        {"type": "agent", "prompt": "Check the task was done. $ARGUMENTS"}]}]}});
    let file = sb.settings(&settings);
    let doctor = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        !doctor.stdout.contains("prompt-hook-event"),
        "{}",
        doctor.stdout
    );
    assert!(!doctor.stdout.contains("never runs"), "{}", doctor.stdout);
}

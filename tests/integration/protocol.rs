//! The hook protocol end to end: one hook's exit codes and JSON (SPEC §6),
//! tiers (§2), aggregation (§7.1) and the encoding of every catalog event
//! (§7.3, one golden row per event).

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Run, Sandbox, fixture, hooks};

fn pre(sb: &Sandbox, list: Value) -> crate::support::Run {
    Fire::new("PreToolUse")
        .settings(&hooks("PreToolUse", list))
        .input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls", "description": "d"}}))
        .run_in(sb)
}

fn cmd(command: &str) -> Value {
    json!({"name": "h", "command": command})
}

fn hso(event: &str, fields: &Value) -> Value {
    let mut object = json!({"hookEventName": event});
    for (k, v) in fields.as_object().unwrap() {
        object[k] = v.clone();
    }
    json!({"hookSpecificOutput": object})
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "a case table: one row per way one hook can answer"
)]
fn exit_codes_and_json_of_one_hook() {
    let sb = Sandbox::new();
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"JSON-REASON"}}"#;
    let allow = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}"#;
    // (command, exit, stderr, stdout JSON)
    let cases: Vec<(String, i32, &str, Value)> = vec![
        ("true".into(), 0, "", json!({})),
        ("echo plain text".into(), 0, "", json!({})),
        (
            format!("echo '{deny}'"),
            2,
            "JSON-REASON\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "JSON-REASON"}),
            ),
        ),
        (
            format!("echo '{allow}'"),
            0,
            "",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "allow", "permissionDecisionReason": "fine"}),
            ),
        ),
        (
            "echo STDERR-R >&2; echo out; exit 2".into(),
            2,
            "STDERR-R\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "STDERR-R"}),
            ),
        ),
        (
            "echo from-stdout; exit 2".into(),
            2,
            "from-stdout\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "from-stdout"}),
            ),
        ),
        (
            "exit 2".into(),
            2,
            "hook exited 2\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "hook exited 2"}),
            ),
        ),
        // Exit 2 + JSON allow: still a block, stderr is the reason.
        (
            format!("echo '{allow}'; echo EXIT2 >&2; exit 2"),
            2,
            "EXIT2\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "EXIT2"}),
            ),
        ),
        // Exit 2 + JSON deny reason: the JSON reason wins (probe b1).
        (
            format!("echo '{deny}'; echo STDERR >&2; exit 2"),
            2,
            "JSON-REASON\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "JSON-REASON"}),
            ),
        ),
        // Other non-zero with JSON: the JSON alone decides.
        (
            format!("echo '{deny}'; exit 1"),
            2,
            "JSON-REASON\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "JSON-REASON"}),
            ),
        ),
        // Legacy decision fields.
        (
            r#"echo '{"decision":"approve","reason":"ok"}'"#.into(),
            0,
            "",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "allow", "permissionDecisionReason": "ok"}),
            ),
        ),
        (
            r#"echo '{"decision":"block","reason":"legacy-no"}'"#.into(),
            2,
            "legacy-no\n",
            hso(
                "PreToolUse",
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "legacy-no"}),
            ),
        ),
    ];
    for (command, exit, stderr, stdout) in cases {
        let run = pre(&sb, json!([cmd(&command)]));
        assert_eq!(run.code, Some(exit), "{command}: {run:?}");
        assert_eq!(run.stderr, stderr, "{command}");
        assert_eq!(run.json(), stdout, "{command}");
    }
}

#[test]
fn failures_warn_and_never_block_unless_on_error_says_so() {
    let sb = Sandbox::new();
    for (command, words) in [
        ("echo oops >&2; exit 1", "hook h failed (exit 1: oops)"),
        ("exit 3", "hook h failed (exit 3)"),
        (
            "no-such-command-xyz",
            "exit 127: command not found; this hook is not doing its job",
        ),
        ("/dev/null", "exit 126: command not executable"),
        ("kill -9 $$", "hook h failed (killed by SIGKILL)"),
    ] {
        let run = pre(&sb, json!([cmd(command)]));
        assert_eq!(run.code, Some(0), "{command}: {run:?}");
        assert!(
            run.system_message().contains(words),
            "{command}: {}",
            run.system_message()
        );
        assert!(
            run.json().get("hookSpecificOutput").is_none(),
            "{command}: no decision invented"
        );

        let run = pre(
            &sb,
            json!([{"name": "h", "command": command, "onError": "block"}]),
        );
        assert_eq!(run.code, Some(2), "{command} with onError block: {run:?}");
        assert!(run.stderr.contains(words), "{command}: {}", run.stderr);
    }
}

#[test]
fn exit_2_from_a_missing_script_is_flagged() {
    let sb = Sandbox::new();
    let run = pre(&sb, json!([cmd("python3 /nonexistent/check.py")]));
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.system_message().contains("could not open its script"),
        "{run:?}"
    );
}

#[test]
fn updated_input_legacy_tool_input_and_continue() {
    let sb = Sandbox::new();
    let run = pre(
        &sb,
        json!([cmd(
            r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la"}}}'"#
        )]),
    );
    assert_eq!(
        run.json(),
        hso(
            "PreToolUse",
            &json!({"updatedInput": {"command": "ls -la"}})
        )
    );
    let run = pre(
        &sb,
        json!([cmd(
            r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","tool_input":{"command":"pwd"}}}'"#
        )]),
    );
    assert_eq!(
        run.json(),
        hso(
            "PreToolUse",
            &json!({"updatedInput": {"command": "pwd", "description": "d"}})
        )
    );
    let run = pre(
        &sb,
        json!([cmd(
            r#"echo '{"continue":false,"stopReason":"enough","suppressOutput":true}'"#
        )]),
    );
    assert_eq!(
        run.json(),
        json!({"continue": false, "stopReason": "enough", "suppressOutput": true})
    );
}

#[test]
fn plain_stdout_is_context_only_where_claude_code_shows_it() {
    let sb = Sandbox::new();
    for event in ["UserPromptSubmit", "UserPromptExpansion", "SessionStart"] {
        let run = Fire::new(event)
            .settings(&hooks(event, json!([cmd("echo plain context")])))
            .input(&json!({"prompt": "hi", "source": "startup", "command_name": "x"}))
            .run_in(&sb);
        assert_eq!(
            run.json(),
            hso(event, &json!({"additionalContext": "plain context"})),
            "{event}"
        );
    }
    for event in ["PostToolUse", "Stop", "SubagentStart"] {
        Fire::new(event)
            .settings(&hooks(event, json!([cmd("echo plain context")])))
            .input(&json!({"tool_name": "Bash"}))
            .expect_json(json!({}))
            .run_in(&sb);
    }
}

#[test]
fn aggregation_across_hooks() {
    let sb = Sandbox::new();
    let allow = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#;
    let ask = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check"}}'"#;
    let defer = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'"#;
    let run = pre(&sb, json!([cmd(allow), cmd(ask)]));
    assert_eq!(
        run.json(),
        hso(
            "PreToolUse",
            &json!({"permissionDecision": "ask", "permissionDecisionReason": "check"})
        )
    );
    let run = pre(&sb, json!([cmd(allow), cmd(defer), cmd(ask)]));
    assert_eq!(
        run.json()["hookSpecificOutput"]["permissionDecision"],
        "defer"
    );
    // Two blockers, one of them slow: every reason, in load order.
    let run = pre(
        &sb,
        json!([
            {"name": "slow", "command": "sleep 0.4; echo first-reason >&2; exit 2"},
            {"name": "allow", "command": allow},
            {"name": "fast", "command": "echo second-reason >&2; exit 2"}
        ]),
    );
    assert_eq!(run.code, Some(2));
    assert_eq!(run.stderr, "[slow]: first-reason\n[fast]: second-reason\n");
    // Contexts and system messages join in load order.
    let ctx = |c: &str| {
        format!(
            r#"echo '{{"systemMessage":"msg-{c}","hookSpecificOutput":{{"hookEventName":"PreToolUse","additionalContext":"{c}"}}}}'"#
        )
    };
    let run = pre(
        &sb,
        json!([{"name": "a", "command": format!("sleep 0.3; {}", ctx("one"))}, {"name": "b", "command": ctx("two")}]),
    );
    let json = run.json();
    assert_eq!(json["hookSpecificOutput"]["additionalContext"], "one\ntwo");
    assert_eq!(json["systemMessage"], "msg-one\nmsg-two");
}

#[test]
fn tiers() {
    let sb = Sandbox::new();
    let block = json!([cmd("echo R >&2; exit 2")]);
    // block
    Fire::new("PreToolUse")
        .settings(&hooks("PreToolUse", block.clone()))
        .input(&json!({"tool_name": "Bash"}))
        .expect_exit(2)
        .expect_stderr("R\n")
        .run_in(&sb);
    // feedback
    Fire::new("PostToolUse")
        .settings(&hooks("PostToolUse", block.clone()))
        .input(&json!({"tool_name": "Bash"}))
        .expect_exit(2)
        .expect_stderr("R\n")
        .expect_json(json!({"decision": "block", "reason": "R"}))
        .run_in(&sb);
    // downgraded: received, not enforced, never dropped silently
    Fire::new("SessionStart")
        .settings(&hooks("SessionStart", block.clone()))
        .input(&json!({"source": "startup"}))
        .expect_exit(0)
        .expect_stderr("")
        .expect_json(json!({"systemMessage": "[hook block ignored] R"}))
        .run_in(&sb);
    // ignored
    Fire::new("Notification")
        .settings(&hooks("Notification", block))
        .input(&json!({"notification_type": "idle_prompt"}))
        .expect_exit(0)
        .run_in(&sb);
    let report = sb.report(
        "Notification",
        &hooks("Notification", json!([cmd("echo R >&2; exit 2")])),
        &json!({}),
    );
    assert_eq!(report.json()["hooks"][0]["run"]["outcome"], "block");
    assert_eq!(report.json()["decision"], "none");
}

/// The expected answer when one hook exits 2 with `R` on stderr.
#[derive(Clone, Copy)]
enum Block {
    /// `HSO{permissionDecision: deny}` + exit 2.
    PermissionDeny,
    /// `HSO{decision:{behavior:deny}}`, exit 0.
    RequestDeny,
    /// `HSO{action: decline}`, exit 0.
    Decline,
    /// `{"decision":"block","reason":R}` + exit 2.
    DecisionJson,
    /// `{}` + exit 2 (reason on stderr only).
    ExitOnly,
    /// `WorktreeCreate`: no path line, exit 2.
    NoPath,
    /// `[hook block ignored] R` warning, exit 0.
    Ignored,
}

/// What a blocking hook (`echo R >&2; exit 2`) makes of `event` under
/// Claude Code: the exit code, stderr and stdout JSON (`Null`: no stdout).
fn expected_block(event: &str, block: Block) -> (i32, &'static str, Value) {
    use Block::{DecisionJson, Decline, ExitOnly, Ignored, NoPath, PermissionDeny, RequestDeny};
    match block {
        PermissionDeny => (
            2,
            "R\n",
            hso(
                event,
                &json!({"permissionDecision": "deny", "permissionDecisionReason": "R"}),
            ),
        ),
        RequestDeny => (
            0,
            "",
            hso(
                event,
                &json!({"decision": {"behavior": "deny", "message": "R"}}),
            ),
        ),
        Decline => (0, "", hso(event, &json!({"action": "decline"}))),
        DecisionJson => (2, "R\n", json!({"decision": "block", "reason": "R"})),
        ExitOnly => (2, "R\n", json!({})),
        NoPath => (2, "R\n", Value::Null),
        Ignored => (0, "", json!({"systemMessage": "[hook block ignored] R"})),
    }
}

/// A hook's `additionalContext` on `event`: it reaches the model where the
/// event takes it, and is said to have no effect elsewhere.
fn check_context(run: &Run, event: &str, takes_context: bool) {
    if event == "WorktreeCreate" {
        assert_eq!(
            run.code,
            Some(2),
            "WorktreeCreate without a path blocks: {run:?}"
        );
        return;
    }
    assert_eq!(run.code, Some(0), "{event} context: {run:?}");
    let json = run.json();
    if takes_context {
        assert_eq!(
            json,
            hso(event, &json!({"additionalContext": "C"})),
            "{event} context"
        );
    } else {
        assert!(json.get("hookSpecificOutput").is_none(), "{event}: {json}");
        assert!(
            json["systemMessage"]
                .as_str()
                .unwrap_or_default()
                .contains("`hookSpecificOutput.additionalContext` has no effect"),
            "{event}: {json}"
        );
    }
}

#[test]
fn golden_encoding_of_every_catalog_event() {
    use Block::{DecisionJson, Decline, ExitOnly, Ignored, NoPath, PermissionDeny, RequestDeny};
    // (event fixture file, event, block encoding, additionalContext reaches the model)
    let table: &[(&str, &str, Block, bool)] = &[
        ("pre_tool_use", "PreToolUse", PermissionDeny, true),
        (
            "permission_request",
            "PermissionRequest",
            RequestDeny,
            false,
        ),
        ("permission_denied", "PermissionDenied", Ignored, false),
        ("post_tool_use", "PostToolUse", DecisionJson, true),
        (
            "post_tool_use_failure",
            "PostToolUseFailure",
            DecisionJson,
            true,
        ),
        ("post_tool_batch", "PostToolBatch", DecisionJson, true),
        ("user_prompt_submit", "UserPromptSubmit", DecisionJson, true),
        (
            "user_prompt_expansion",
            "UserPromptExpansion",
            DecisionJson,
            true,
        ),
        ("message_display", "MessageDisplay", Ignored, false),
        ("stop", "Stop", ExitOnly, true),
        ("subagent_stop", "SubagentStop", ExitOnly, true),
        ("stop_failure", "StopFailure", Ignored, false),
        ("subagent_start", "SubagentStart", Ignored, true),
        ("session_start", "SessionStart", Ignored, true),
        ("session_end", "SessionEnd", Ignored, false),
        ("setup", "Setup", Ignored, true),
        ("instructions_loaded", "InstructionsLoaded", Ignored, false),
        ("pre_compact", "PreCompact", DecisionJson, false),
        ("post_compact", "PostCompact", Ignored, false),
        ("notification", "Notification", Ignored, false),
        ("config_change", "ConfigChange", DecisionJson, false),
        ("cwd_changed", "CwdChanged", Ignored, false),
        ("directory_added", "DirectoryAdded", Ignored, false),
        ("file_changed", "FileChanged", Ignored, false),
        ("teammate_idle", "TeammateIdle", ExitOnly, false),
        ("task_created", "TaskCreated", DecisionJson, false),
        ("task_completed", "TaskCompleted", ExitOnly, false),
        ("elicitation", "Elicitation", Decline, false),
        ("elicitation_result", "ElicitationResult", Decline, false),
        ("worktree_create", "WorktreeCreate", NoPath, false),
        ("worktree_remove", "WorktreeRemove", Ignored, false),
        ("before_model", "BeforeModel", ExitOnly, false),
        ("after_model", "AfterModel", ExitOnly, false),
        ("after_agent", "AfterAgent", ExitOnly, false),
    ];
    assert_eq!(table.len(), 34, "one row per catalog event");
    let sb = Sandbox::new();
    let block_settings = sb.settings(&json!({"hooks": Value::Object(table.iter().map(|(_, e, _, _)| ((*e).to_owned(), json!([cmd("echo R >&2; exit 2")]))).collect())}));
    let ctx_command = r#"printf '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"C"}}' "$HOOKRUN_HOOK_EVENT""#;
    let ctx_settings = sb.settings(&json!({"hooks": Value::Object(table.iter().map(|(_, e, _, _)| ((*e).to_owned(), json!([cmd(ctx_command)]))).collect())}));

    for (file, event, block, takes_context) in table {
        let input = std::fs::read(fixture(&format!("events/{file}.json"))).unwrap();
        let run = sb.run(
            &[
                "fire",
                "--no-default-settings",
                "--settings",
                block_settings.to_str().unwrap(),
            ],
            &input,
        );
        let (exit, stderr, stdout) = expected_block(event, *block);
        assert_eq!(run.code, Some(exit), "{event} block: {run:?}");
        assert_eq!(run.stderr, stderr, "{event} block");
        if stdout.is_null() {
            assert_eq!(run.stdout, "", "{event} block");
        } else {
            assert_eq!(run.json(), stdout, "{event} block");
        }

        let run = sb.run(
            &[
                "fire",
                "--no-default-settings",
                "--settings",
                ctx_settings.to_str().unwrap(),
            ],
            &input,
        );
        check_context(&run, event, *takes_context);
    }
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "a case table: one row per field hookrun passes through untouched"
)]
fn pass_through_fields() {
    let sb = Sandbox::new();
    let echo = |json: &Value| cmd(&format!("echo '{json}'"));
    // (event, hook JSON, expected stdout)
    let cases = vec![
        (
            "PermissionRequest",
            hso(
                "PermissionRequest",
                &json!({"decision": {"behavior": "allow", "updatedInput": {"command": "ls"}, "updatedPermissions": [{"type": "addRules"}]}}),
            ),
            hso(
                "PermissionRequest",
                &json!({"decision": {"behavior": "allow", "updatedInput": {"command": "ls"}, "updatedPermissions": [{"type": "addRules"}]}}),
            ),
        ),
        (
            "PermissionRequest",
            hso(
                "PermissionRequest",
                &json!({"decision": {"behavior": "deny", "message": "no", "interrupt": true}}),
            ),
            hso(
                "PermissionRequest",
                &json!({"decision": {"behavior": "deny", "message": "no", "interrupt": true}}),
            ),
        ),
        (
            "Elicitation",
            hso(
                "Elicitation",
                &json!({"action": "accept", "content": {"name": "x"}}),
            ),
            hso(
                "Elicitation",
                &json!({"action": "accept", "content": {"name": "x"}}),
            ),
        ),
        (
            "PermissionDenied",
            hso("PermissionDenied", &json!({"retry": true})),
            hso("PermissionDenied", &json!({"retry": true})),
        ),
        (
            "MessageDisplay",
            hso("MessageDisplay", &json!({"displayContent": "shown"})),
            hso("MessageDisplay", &json!({"displayContent": "shown"})),
        ),
        (
            "CwdChanged",
            hso("CwdChanged", &json!({"watchPaths": ["/a"]})),
            hso("CwdChanged", &json!({"watchPaths": ["/a"]})),
        ),
        (
            "SessionStart",
            hso(
                "SessionStart",
                &json!({"sessionTitle": "t", "initialUserMessage": "m", "watchPaths": ["/w"], "reloadSkills": true}),
            ),
            hso(
                "SessionStart",
                &json!({"sessionTitle": "t", "initialUserMessage": "m", "watchPaths": ["/w"], "reloadSkills": true}),
            ),
        ),
        (
            "UserPromptSubmit",
            hso(
                "UserPromptSubmit",
                &json!({"sessionTitle": "t", "suppressOriginalPrompt": true}),
            ),
            hso(
                "UserPromptSubmit",
                &json!({"sessionTitle": "t", "suppressOriginalPrompt": true}),
            ),
        ),
        (
            "PostToolUse",
            hso(
                "PostToolUse",
                &json!({"updatedToolOutput": "new", "updatedMCPToolOutput": {"a": 1}, "classifierContext": "c"}),
            ),
            hso(
                "PostToolUse",
                &json!({"updatedToolOutput": "new", "updatedMCPToolOutput": {"a": 1}, "classifierContext": "c"}),
            ),
        ),
    ];
    for (event, output, expected) in cases {
        let run = Fire::new(event)
            .settings(&hooks(event, json!([echo(&output)])))
            .input(&json!({"tool_name": "Bash"}))
            .expect_exit(0)
            .run_in(&sb);
        assert_eq!(run.json(), expected, "{event}");
    }
    Fire::new("WorktreeCreate")
        .settings(&hooks(
            "WorktreeCreate",
            json!([cmd(
                "echo preparing; printf '\\033[32m/tmp/wt-1\\033[0m\\n'"
            )]),
        ))
        .input(&json!({"name": "feature"}))
        .expect_exit(0)
        .expect_stdout("/tmp/wt-1\n")
        .run_in(&sb);
}

#[test]
fn hook_specific_output_without_event_name_is_ignored_loudly() {
    let sb = Sandbox::new();
    let run = pre(
        &sb,
        json!([cmd(
            r#"echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'"#
        )]),
    );
    assert_eq!(run.code, Some(0));
    assert!(
        run.system_message()
            .contains("without `hookEventName` is ignored"),
        "{run:?}"
    );
}

//! Golden decode/encode tests for Qwen Code (the payloads in
//! `fixtures/hosts/qwen/`), and its acceptance rules checked against every
//! answer hookrun can give it.

use serde_json::{Value, json};

use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::host::golden::{
    blocked, decisions, decode, encode, field, fixtures_of, out, payload, permission,
    single_object, vars,
};
use crate::host::{HostEnv, HostId, host};
use crate::verdict::Permission;

#[test]
fn qwen_tools_decode_to_claude_code_names_with_their_own_fields() {
    let cases = [
        (
            "pre_tool_use__shell.json",
            "PreToolUse",
            "Bash",
            "run_shell_command",
        ),
        ("pre_tool_use__read.json", "PreToolUse", "Read", "read_file"),
        (
            "pre_tool_use__write.json",
            "PreToolUse",
            "Write",
            "write_file",
        ),
        ("pre_tool_use__edit.json", "PreToolUse", "Edit", "edit"),
        (
            "post_tool_use__shell.json",
            "PostToolUse",
            "Bash",
            "run_shell_command",
        ),
        (
            "post_tool_use_failure__shell.json",
            "PostToolUseFailure",
            "Bash",
            "run_shell_command",
        ),
    ];
    for (file, event, tool, original) in cases {
        let e = decode(HostId::Qwen, &format!("qwen/{file}"));
        assert_eq!(e.id.name(), event, "{file}");
        assert_eq!(e.tool_name(), Some(tool), "{file}");
        let info = &e.fields()["hookrun_host"];
        assert_eq!(info["host"], "qwen", "{file}");
        assert_eq!(info["tool_name"], original, "{file}");
        assert_eq!(info["hook_event_name"], event, "{file}");
    }
    let read = decode(HostId::Qwen, "qwen/pre_tool_use__read.json");
    assert_eq!(
        read.tool_input(),
        Some(&json!({"file_path": "/tmp/run/proj/notes.txt"}))
    );
    let edit = decode(HostId::Qwen, "qwen/pre_tool_use__edit.json");
    assert_eq!(edit.tool_input().unwrap()["old_string"], "alpha");
    // Qwen's own fields pass through.
    assert_eq!(field(&edit, "tool_call_id"), "call_t03_00");
    // A shell's result reads as Claude Code's; Qwen's stays in hookrun_host.
    let post = decode(HostId::Qwen, "qwen/post_tool_use__shell.json");
    assert_eq!(post.fields()["tool_response"]["stdout"], "hi");
    assert!(
        post.fields()["hookrun_host"]["tool_response"]["llmContent"]
            .as_str()
            .unwrap()
            .contains("Output: hi")
    );
    for (file, event) in [
        ("user_prompt_submit.json", "UserPromptSubmit"),
        ("stop.json", "Stop"),
        ("session_start.json", "SessionStart"),
    ] {
        let e = decode(HostId::Qwen, &format!("qwen/{file}"));
        assert_eq!(e.id.name(), event, "{file}");
        assert_eq!(e.session_id(), Some("dd9aaf5f-0535-4868-86eb-b9dbec7d8333"));
    }
}

#[test]
fn qwen_continuation_prompts_fire_no_hooks_and_real_prompts_do() {
    let decoded = |file: &str| {
        host(HostId::Qwen)
            .decode(payload(file), None, &HostEnv::new(&[]))
            .unwrap()
    };
    let first = decoded("qwen/user_prompt_submit.json");
    assert!(!first.fire_no_hooks, "the person's prompt runs the hooks");
    let again = decoded("qwen/user_prompt_submit__continuation.json");
    assert!(again.fire_no_hooks, "Qwen's empty re-fire is no prompt");
    assert!(
        again
            .notices
            .notes
            .iter()
            .any(|n| n.contains("continuation"))
    );
    // An empty prompt with the submitted text is a prompt; one under
    // another host is that host's to judge.
    let mut raw = payload("qwen/user_prompt_submit__continuation.json");
    raw.insert("submitted_prompt".into(), json!("typed"));
    assert!(
        !host(HostId::Qwen)
            .decode(raw, None, &HostEnv::new(&[]))
            .unwrap()
            .fire_no_hooks
    );
    let claude = host(HostId::ClaudeCode)
        .decode(
            payload("qwen/user_prompt_submit__continuation.json"),
            None,
            &HostEnv::new(&[]),
        )
        .unwrap();
    assert!(!claude.fire_no_hooks);
}

#[test]
fn qwen_golden_answers() {
    // A deny: JSON at exit 0 (Qwen counts exit 2 as a failed hook), in
    // both the fields Qwen reads.
    let (v, r) = encode(HostId::Qwen, "qwen/pre_tool_use__shell.json", &blocked("R"));
    assert_eq!(
        v,
        json!({"decision": "block", "reason": "R", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R"}})
    );
    assert_eq!((r.exit.code(), r.stderr.as_str()), (0, ""));

    let (v, _) = encode(
        HostId::Qwen,
        "qwen/pre_tool_use__shell.json",
        &permission(Permission::Ask, Some("sure?")),
    );
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "sure?"}})
    );

    // A rewrite Qwen would ignore is a deny, said aloud.
    let rewrite = Decision {
        permission: Some(Permission::Allow),
        updated_input: Some(json!({"command": "echo rewritten"})),
        ..Decision::default()
    };
    let (v, r) = encode(HostId::Qwen, "qwen/pre_tool_use__shell.json", &rewrite);
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(v["reason"].as_str().unwrap().contains("rewrote"));
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("cannot rewrite")
    );
    assert_eq!(r.exit.code(), 0);

    let context = Decision {
        context: Some("C".into()),
        ..Decision::default()
    };
    for (file, event) in [
        ("post_tool_use__shell.json", "PostToolUse"),
        ("user_prompt_submit.json", "UserPromptSubmit"),
        ("session_start.json", "SessionStart"),
    ] {
        let (v, r) = encode(HostId::Qwen, &format!("qwen/{file}"), &context);
        assert_eq!(
            v,
            json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": "C"}}),
            "{file}"
        );
        assert_eq!(r.exit.code(), 0);
    }
    // PreToolUse context is dropped by Qwen: not sent.
    let event = decode(HostId::Qwen, "qwen/pre_tool_use__shell.json");
    let encoded = host(HostId::Qwen).encode(&event, &context);
    assert_eq!(out(&encoded.rendered), json!({}));
    assert!(encoded.notes.iter().any(|n| n.contains("dropped")));

    // A PostToolUse block is ignored by Qwen: the model reads it as context.
    let (v, _) = encode(
        HostId::Qwen,
        "qwen/post_tool_use__shell.json",
        &blocked("R"),
    );
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "R"}})
    );

    for file in ["stop.json", "user_prompt_submit.json"] {
        let (v, r) = encode(HostId::Qwen, &format!("qwen/{file}"), &blocked("go on"));
        assert_eq!(v, json!({"decision": "block", "reason": "go on"}), "{file}");
        assert_eq!((r.exit.code(), r.stderr.as_str()), (0, ""));
    }

    let qwen = host(HostId::Qwen);
    assert_eq!(qwen.own_stop_block_cap(&HostEnv::new(&[])), Some(8));
    let env = vars(&[("QWEN_CODE_STOP_HOOK_BLOCK_CAP", "3")]);
    assert_eq!(qwen.own_stop_block_cap(&HostEnv::new(&env)), Some(3));
    let pre = crate::catalog::EventId::resolve("PreToolUse");
    assert_eq!(qwen.default_deadline(&pre).as_secs(), 59);
}

#[test]
fn every_answer_to_qwen_is_json_at_exit_0_and_never_loses_a_block() {
    for file in fixtures_of("qwen") {
        let event = decode(HostId::Qwen, &file);
        for (what, decision) in decisions() {
            let r = host(HostId::Qwen).encode(&event, &decision).rendered;
            let top = single_object(&r)
                .unwrap_or_else(|e| panic!("{file}, {what}: {e}"))
                .unwrap_or_default();
            assert_eq!(r.exit.code(), 0, "{file}, {what}: {}", r.stdout);
            if let Some(hso) = top.get("hookSpecificOutput").and_then(Value::as_object) {
                assert_eq!(hso["hookEventName"], event.id.name(), "{file}, {what}");
                assert!(!hso.contains_key("updatedInput"), "{file}, {what}");
            }
            let known = event.id.known();
            let deny = top
                .get("hookSpecificOutput")
                .and_then(|h| h.get("permissionDecision"))
                .and_then(Value::as_str);
            let blocks = top.get("decision") == Some(&json!("block"));
            if known == Some(K::PreToolUse) {
                let must =
                    decision.block.is_some() || decision.updated_input.is_some() || decision.stop;
                if must {
                    assert!(
                        blocks && deny == Some("deny"),
                        "{file}, {what}: {}",
                        r.stdout
                    );
                }
            } else if decision.block.is_some()
                && matches!(known, Some(K::Stop | K::UserPromptSubmit))
            {
                assert!(blocks, "{file}, {what}: a block was lost: {}", r.stdout);
            }
        }
    }
}

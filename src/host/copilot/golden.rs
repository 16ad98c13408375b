//! Golden decode/encode tests for Copilot CLI (the payloads in
//! `fixtures/hosts/copilot/`), and its acceptance rules checked against every
//! answer hookrun can give it.

use std::ffi::OsString;
use std::path::PathBuf;

use serde_json::{Value, json};

use crate::aggregate::Decision;
use crate::host::golden::{
    blocked, decisions, decode, encode, field, fixtures_of, payload, single_object, vars,
};
use crate::host::{HostEnv, HostId, host};

/// Copilot CLI runs `.claude/settings.json` (what `install claude-code`
/// writes) with its PascalCase payloads: a `--host claude-code` fire with
/// one, in Copilot's environment, is answered as Copilot. A Claude Code
/// payload never is, whatever the environment.
#[test]
fn copilot_payloads_fired_as_claude_code_are_copilots() {
    use crate::host::actual_caller;
    let copilot_env = vars(&[("COPILOT_CLI", "1")]);
    let nested = vars(&[("COPILOT_CLI", "1"), ("HOOKRUN_DEPTH", "1")]);
    for rel in [
        "copilot/measured_pascal_pre_tool_use.json",
        "copilot/measured_pascal_read.json",
        "copilot/measured_pascal_session_start.json",
        "copilot/measured_pascal_stop.json",
    ] {
        let raw = payload(rel);
        let caller = |env: &[(OsString, OsString)]| {
            actual_caller(HostId::ClaudeCode, &raw, &HostEnv::new(env))
        };
        assert_eq!(caller(&copilot_env), HostId::Copilot, "{rel}");
        // Not without Copilot's environment, and not inside hookrun's own
        // hooks (hookrun is the caller there).
        assert_eq!(caller(&[]), HostId::ClaudeCode, "{rel}");
        assert_eq!(caller(&nested), HostId::ClaudeCode, "{rel}");
        // Another host fired as is left alone.
        assert_eq!(
            actual_caller(HostId::Gemini, &raw, &HostEnv::new(&copilot_env)),
            HostId::Gemini
        );
    }
    // Copilot's camelCase payloads are `--host copilot`'s: not these.
    let raw = payload("copilot/measured_pre_tool_use.json");
    assert_eq!(
        actual_caller(HostId::ClaudeCode, &raw, &HostEnv::new(&copilot_env)),
        HostId::ClaudeCode
    );
    // Every Claude Code event as Claude Code sends it.
    let events = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/events");
    let mut seen = 0;
    for entry in std::fs::read_dir(events).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let Value::Object(raw) = serde_json::from_str(&text).unwrap() else {
            panic!("{}: not an object", path.display());
        };
        assert_eq!(
            actual_caller(HostId::ClaudeCode, &raw, &HostEnv::new(&copilot_env)),
            HostId::ClaudeCode,
            "{}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen > 40, "{seen}");
}

/// What Copilot makes of hookrun's answers to its PascalCase payloads:
/// every block at exit 0 in a form it reads (a PreToolUse deny with its
/// reason, `decision: block` on Stop), `tool_input` keys as Claude Code's.
#[test]
fn copilot_pascal_case_blocks_reach_copilot_with_their_reason() {
    let d = host(HostId::Copilot)
        .decode(
            payload("copilot/measured_pascal_read.json"),
            Some("PreToolUse"),
            &HostEnv::new(&[]),
        )
        .unwrap();
    assert_eq!(
        field(&d.event, "tool_input"),
        &json!({"file_path": "/tmp/run/proj/notes.txt"})
    );
    let (v, r) = encode(
        HostId::Copilot,
        "copilot/measured_pascal_pre_tool_use.json",
        &blocked("R"),
    );
    assert_eq!(r.exit.code(), 0);
    assert_eq!(v["permissionDecision"], "deny");
    assert_eq!(v["permissionDecisionReason"], "R");
    assert_eq!(v["hookSpecificOutput"]["permissionDecisionReason"], "R");
    let (v, r) = encode(
        HostId::Copilot,
        "copilot/measured_pascal_stop.json",
        &blocked("SAY-BYE"),
    );
    assert_eq!(
        (v, r.exit.code()),
        (json!({"decision": "block", "reason": "SAY-BYE"}), 0)
    );
}

#[test]
fn copilot_reads_both_dialects() {
    let camel = decode(HostId::Copilot, "copilot/pre_tool_use__camel.json");
    assert_eq!(camel.id.name(), "PreToolUse");
    assert_eq!(camel.tool_name(), Some("Bash"));
    assert_eq!(
        camel.tool_input().unwrap()["command"],
        "git push origin main"
    );
    let edit = decode(HostId::Copilot, "copilot/pre_tool_use__camel_edit.json");
    assert_eq!(edit.tool_name(), Some("Edit"));
    assert_eq!(
        edit.tool_input(),
        Some(&json!({"file_path": "/tmp/run/proj/a.txt", "old_string": "a", "new_string": "b"}))
    );
    let pascal = decode(HostId::Copilot, "copilot/pre_tool_use__pascal.json");
    assert_eq!(
        (pascal.id.name(), pascal.tool_name()),
        ("PreToolUse", Some("Bash"))
    );
    let stop = decode(HostId::Copilot, "copilot/agent_stop.json");
    assert_eq!((stop.id.name(), stop.session_id()), ("Stop", Some("s-1")));
}

#[test]
fn copilot_golden_answers() {
    let (v, r) = encode(
        HostId::Copilot,
        "copilot/pre_tool_use__camel.json",
        &blocked("R"),
    );
    assert_eq!(
        v,
        json!({"permissionDecision": "deny", "permissionDecisionReason": "R"})
    );
    // Exit 0: outside preToolUse exit 2 is only a warning to Copilot.
    assert_eq!(r.exit.code(), 0);
    let rewrite = Decision {
        updated_input: Some(json!({"file_path": "/x", "old_string": "a", "new_string": "c"})),
        ..Decision::default()
    };
    let (v, _) = encode(
        HostId::Copilot,
        "copilot/pre_tool_use__camel_edit.json",
        &rewrite,
    );
    assert_eq!(
        v,
        json!({"modifiedArgs": {"path": "/x", "old_str": "a", "new_str": "c"}})
    );
    let (v, _) = encode(
        HostId::Copilot,
        "copilot/agent_stop.json",
        &blocked("again"),
    );
    assert_eq!(v, json!({"decision": "block", "reason": "again"}));
    let (v, r) = encode(
        HostId::Copilot,
        "copilot/pre_tool_use__pascal.json",
        &blocked("R"),
    );
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(v["permissionDecisionReason"], "R");
    assert_eq!(r.exit.code(), 0);
}

#[test]
fn copilot_measured_payloads_decode_without_an_event_name() {
    let cases = [
        ("measured_pre_tool_use.json", "PreToolUse", Some("Bash")),
        ("measured_post_tool_use.json", "PostToolUse", Some("Bash")),
        (
            "measured_permission_request.json",
            "PermissionRequest",
            Some("Bash"),
        ),
        ("measured_session_start.json", "SessionStart", None),
        (
            "measured_user_prompt_submitted.json",
            "UserPromptSubmit",
            None,
        ),
        ("measured_agent_stop.json", "Stop", None),
        ("measured_agent_stop_subagent.json", "SubagentStop", None),
        ("measured_apply_patch.json", "PreToolUse", Some("Edit")),
        ("measured_pascal_read.json", "PostToolUse", Some("Read")),
    ];
    for (file, event_name, tool) in cases {
        let event = decode(HostId::Copilot, &format!("copilot/{file}"));
        assert_eq!(event.id.name(), event_name, "{file}");
        assert_eq!(event.tool_name(), tool, "{file}");
    }
    // permissionRequest's input is `toolInput`.
    let e = decode(HostId::Copilot, "copilot/measured_permission_request.json");
    assert_eq!(
        field(&e, "tool_input")["command"],
        "echo hi && touch bash_ran.marker"
    );
    // A session is `startup` to Claude Code's matchers.
    let e = decode(HostId::Copilot, "copilot/measured_session_start.json");
    assert_eq!(field(&e, "source"), "startup");
    // The result text is a shell's stdout.
    let e = decode(HostId::Copilot, "copilot/measured_post_tool_use.json");
    assert_eq!(
        field(&e, "tool_response")["stdout"],
        "hi\n<shellId: 0 completed with exit code 0>"
    );
    // The patch text names every file, headers trimmed as Codex's parser does.
    let e = decode(HostId::Copilot, "copilot/measured_apply_patch.json");
    assert_eq!(
        field(&e, "tool_input")["file_path"],
        "/tmp/run/proj/notes.txt"
    );
    assert_eq!(
        field(&e, "tool_input")["file_paths"],
        json!(["/tmp/run/proj/notes.txt", "/tmp/run/proj/.env"])
    );
    // PascalCase: Claude Code's names, Copilot's keys and `tool_result`.
    let e = decode(HostId::Copilot, "copilot/measured_pascal_read.json");
    assert_eq!(
        field(&e, "tool_input")["file_path"],
        "/tmp/run/proj/notes.txt"
    );
    assert_eq!(field(&e, "tool_response")["output"], "alpha");
    // Host event names are lenient.
    let e = host(HostId::Copilot)
        .decode(
            payload("copilot/measured_pre_tool_use.json"),
            Some("pre_tool_use"),
            &HostEnv::new(&[]),
        )
        .unwrap();
    assert_eq!(e.event.id.name(), "PreToolUse");
}

#[test]
fn copilot_nested_tool_args_and_decoys_are_read_as_copilot_reads_them() {
    // A lone surrogate inside the `toolArgs` string (half an emoji, as
    // JSON.stringify writes it) must not hide the command from the rules.
    let mut raw = payload("copilot/measured_pre_tool_use.json");
    raw.insert(
        "toolArgs".into(),
        json!("{\"command\":\"rm -rf / \\ud83d\",\"description\":\"x\"}"),
    );
    let e = host(HostId::Copilot)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap()
        .event;
    assert!(
        field(&e, "tool_input")["command"]
            .as_str()
            .unwrap()
            .starts_with("rm -rf / "),
        "{:?}",
        field(&e, "tool_input")
    );
    // Copilot's `view` reads `path`: a decoy `file_path` beside it loses.
    let mut raw = payload("copilot/measured_pre_tool_use.json");
    raw.insert("toolName".into(), json!("view"));
    raw.insert(
        "toolArgs".into(),
        json!({"file_path": "/tmp/run/proj/ok.txt", "path": "/tmp/run/proj/.env"}),
    );
    let e = host(HostId::Copilot)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap()
        .event;
    assert_eq!(
        field(&e, "tool_input"),
        &json!({"file_path": "/tmp/run/proj/.env"})
    );
}

#[test]
fn copilot_answers_take_every_form_copilot_honours() {
    let context = Decision {
        context: Some("C".into()),
        ..Decision::default()
    };
    for file in [
        "measured_user_prompt_submitted.json",
        "measured_session_start.json",
        "measured_post_tool_use.json",
        "measured_pre_tool_use.json",
    ] {
        let (v, r) = encode(HostId::Copilot, &format!("copilot/{file}"), &context);
        assert_eq!(
            (v, r.exit.code()),
            (json!({"additionalContext": "C"}), 0),
            "{file}"
        );
    }
    for file in [
        "measured_user_prompt_submitted.json",
        "measured_post_tool_use.json",
        "measured_agent_stop.json",
        "measured_agent_stop_subagent.json",
    ] {
        let (v, r) = encode(HostId::Copilot, &format!("copilot/{file}"), &blocked("R"));
        assert_eq!(
            (v, r.exit.code()),
            (json!({"decision": "block", "reason": "R"}), 0),
            "{file}"
        );
    }
    // modifiedArgs replaces the whole input (measured), as updatedInput
    // replaces tool_input: what the rewrite left out stays out.
    let rewrite = Decision {
        updated_input: Some(json!({"command": "echo safe"})),
        ..Decision::default()
    };
    let (v, _) = encode(
        HostId::Copilot,
        "copilot/measured_pre_tool_use.json",
        &rewrite,
    );
    assert_eq!(v, json!({"modifiedArgs": {"command": "echo safe"}}));
}

#[test]
fn every_answer_to_copilot_is_one_json_object() {
    for file in fixtures_of("copilot") {
        let event = decode(HostId::Copilot, &file);
        for (what, decision) in decisions() {
            let r = host(HostId::Copilot).encode(&event, &decision).rendered;
            let top = single_object(&r).unwrap_or_else(|e| panic!("{file}, {what}: {e}"));
            assert!(top.is_some(), "{file}, {what}: no answer");
            assert_eq!(r.exit.code(), 0, "{file}, {what}");
        }
    }
}

//! Golden decode/encode tests for Gemini CLI (the payloads in
//! `fixtures/hosts/gemini/`), and its acceptance rules checked against every
//! answer hookrun can give it.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::event::Event;
use crate::host::golden::{
    blocked, decisions, decode, encode, field, fixtures_of, payload, permission, single_object,
    vars,
};
use crate::host::{HostEnv, HostId, host};
use crate::verdict::Permission;

#[test]
fn gemini_events_and_tools_decode_to_claude_code_names() {
    let cases = [
        (
            "before_tool__shell.json",
            "PreToolUse",
            Some("Bash"),
            Some("run_shell_command"),
        ),
        (
            "before_tool__read.json",
            "PreToolUse",
            Some("Read"),
            Some("read_file"),
        ),
        (
            "before_tool__write.json",
            "PreToolUse",
            Some("Write"),
            Some("write_file"),
        ),
        (
            "before_tool__replace.json",
            "PreToolUse",
            Some("Edit"),
            Some("replace"),
        ),
        (
            "after_tool__shell.json",
            "PostToolUse",
            Some("Bash"),
            Some("run_shell_command"),
        ),
        ("before_agent.json", "UserPromptSubmit", None, None),
        ("after_agent.json", "Stop", None, None),
        ("session_start.json", "SessionStart", None, None),
        ("session_end.json", "SessionEnd", None, None),
        ("pre_compress.json", "PreCompact", None, None),
    ];
    for (file, event, tool, original) in cases {
        let e = decode(HostId::Gemini, &format!("gemini/{file}"));
        assert_eq!(e.id.name(), event, "{file}");
        assert_eq!(field(&e, "hook_event_name"), &json!(event), "{file}");
        assert_eq!(e.tool_name(), tool, "{file}");
        let info = &e.fields()["hookrun_host"];
        assert_eq!(info["host"], "gemini", "{file}");
        assert_eq!(info["tool_name"].as_str(), original, "{file}");
        assert_eq!(e.session_id(), Some("cddecfa4-dae5-4b49-b2d4-ccaf8bf373fa"));
    }
    let shell = decode(HostId::Gemini, "gemini/before_tool__shell.json");
    assert_eq!(
        shell.tool_input(),
        Some(&json!({"command": "echo hi && touch bash_ran.marker", "description": "Print hi"}))
    );
    assert_eq!(
        shell.fields()["hookrun_host"]["hook_event_name"],
        "BeforeTool"
    );
    let stop = decode(HostId::Gemini, "gemini/after_agent.json");
    assert_eq!(
        field(&stop, "last_assistant_message"),
        "Final answer after the tools."
    );
    assert_eq!(field(&stop, "stop_hook_active"), false);
    let edit = decode(HostId::Gemini, "gemini/before_tool__replace.json");
    assert_eq!(edit.tool_input().unwrap()["old_string"], "alpha");
    assert_eq!(
        edit.tool_input().unwrap()["file_path"],
        "/tmp/run/proj/notes.txt"
    );
}

#[test]
fn gemini_tool_confirmations_are_permission_prompts() {
    let raw: Map<String, Value> = serde_json::from_str(
        r#"{"hook_event_name":"Notification","notification_type":"ToolPermission","message":"m"}"#,
    )
    .unwrap();
    let e = host(HostId::Gemini)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap()
        .event;
    assert_eq!(e.id.name(), "Notification");
    assert_eq!(e.match_value(), "permission_prompt");
}

#[test]
fn gemini_mcp_tools_get_claude_code_names() {
    let mut raw = payload("gemini/before_tool__shell.json");
    raw.insert("tool_name".into(), json!("github__create_issue"));
    let e = host(HostId::Gemini)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap()
        .event;
    assert_eq!(e.tool_name(), Some("mcp__github__create_issue"));
}

#[test]
fn gemini_project_dir_and_session_come_from_its_environment_when_absent() {
    let raw: Map<String, Value> =
        serde_json::from_str(r#"{"hook_event_name":"BeforeAgent","prompt":"hi"}"#).unwrap();
    let env = vars(&[("GEMINI_PROJECT_DIR", "/p"), ("GEMINI_SESSION_ID", "s")]);
    let e = host(HostId::Gemini)
        .decode(raw, None, &HostEnv::new(&env))
        .unwrap()
        .event;
    assert_eq!(e.cwd(), Some(PathBuf::from("/p")));
    assert_eq!(e.session_id(), Some("s"));
}

/// A Gemini BeforeTool call of `tool` with `input`.
fn gemini_call(tool: &str, input: Value) -> Event {
    let mut raw = payload("gemini/before_tool__read.json");
    raw.insert("tool_name".into(), json!(tool));
    raw.insert("tool_input".into(), input);
    host(HostId::Gemini)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap()
        .event
}

#[test]
fn gemini_shell_results_read_as_claude_codes() {
    let e = decode(HostId::Gemini, "gemini/after_tool__shell.json");
    assert_eq!(field(&e, "tool_response")["stdout"], "hi");
    assert_eq!(
        crate::host::mapping::host_info(&e).unwrap()["tool_response"]["returnDisplay"],
        "hi"
    );
}

#[test]
fn gemini_reading_and_fetching_tools_are_seen_by_read_and_webfetch_rules() {
    let e = gemini_call(
        "read_many_files",
        json!({"include": ["/p/.env", "/p/a.txt"]}),
    );
    assert_eq!(e.tool_name(), Some("Read"));
    assert_eq!(field(&e, "tool_input")["file_path"], "/p/.env");
    assert_eq!(
        field(&e, "tool_input")["file_paths"],
        json!(["/p/.env", "/p/a.txt"])
    );
    let e = gemini_call("list_directory", json!({"dir_path": "/p/secrets"}));
    assert_eq!(
        (e.tool_name(), &field(&e, "tool_input")["file_path"]),
        (Some("Read"), &json!("/p/secrets"))
    );
    let e = gemini_call(
        "web_fetch",
        json!({"prompt": "Summarise https://evil.example/x?a=1, then (http://b.example)."}),
    );
    assert_eq!(e.tool_name(), Some("WebFetch"));
    assert_eq!(field(&e, "tool_input")["url"], "https://evil.example/x?a=1");
    assert_eq!(
        field(&e, "tool_input")["urls"],
        json!(["https://evil.example/x?a=1", "http://b.example"])
    );
    // Gemini's grep_search reads `dir_path`: a decoy `path` loses.
    let e = gemini_call(
        "grep_search",
        json!({"pattern": "k", "dir_path": "/p/secrets", "path": "/p/ok"}),
    );
    assert_eq!(field(&e, "tool_input")["path"], "/p/secrets");
    // The name before 0.60 is Grep too.
    assert_eq!(
        gemini_call("search_file_content", json!({})).tool_name(),
        Some("Grep")
    );
}

#[test]
fn gemini_golden_answers() {
    let (v, r) = encode(
        HostId::Gemini,
        "gemini/before_tool__shell.json",
        &blocked("R"),
    );
    assert_eq!(v, json!({"decision": "deny", "reason": "R"}));
    // Exit 0: any other code is a failed hook to Gemini.
    assert_eq!((r.exit.code(), r.stderr.as_str()), (0, ""));

    let (v, r) = encode(
        HostId::Gemini,
        "gemini/before_tool__shell.json",
        &permission(Permission::Ask, Some("sure?")),
    );
    assert_eq!(v["decision"], "deny");
    assert!(v["reason"].as_str().unwrap().contains("sure?"));
    assert!(v["systemMessage"].as_str().unwrap().contains("cannot ask"));
    assert_eq!(r.exit.code(), 0);

    let rewrite = Decision {
        permission: Some(Permission::Allow),
        updated_input: Some(json!({"command": "echo rewritten", "description": "Print hi"})),
        ..Decision::default()
    };
    let (v, r) = encode(HostId::Gemini, "gemini/before_tool__shell.json", &rewrite);
    assert_eq!(
        v,
        json!({"decision": "allow", "hookSpecificOutput": {"tool_input": {"command": "echo rewritten", "description": "Print hi"}}})
    );
    assert_eq!(r.exit.code(), 0);

    let rewrite = Decision {
        updated_input: Some(
            json!({"file_path": "/x", "old_string": "a", "new_string": "b", "replace_all": true}),
        ),
        ..Decision::default()
    };
    let (v, _) = encode(HostId::Gemini, "gemini/before_tool__replace.json", &rewrite);
    assert_eq!(
        v["hookSpecificOutput"]["tool_input"],
        json!({"file_path": "/x", "old_string": "a", "new_string": "b", "allow_multiple": true}),
        "renamed back, and what the rewrite left out stays out (Gemini replaces the input)"
    );

    let (v, r) = encode(HostId::Gemini, "gemini/after_agent.json", &blocked("go on"));
    assert_eq!(v, json!({"decision": "block", "reason": "go on"}));
    assert_eq!(r.exit.code(), 0);

    let context = Decision {
        context: Some("C".into()),
        ..Decision::default()
    };
    for file in [
        "after_tool__shell.json",
        "before_agent.json",
        "session_start.json",
    ] {
        let (v, r) = encode(HostId::Gemini, &format!("gemini/{file}"), &context);
        assert_eq!(
            v,
            json!({"hookSpecificOutput": {"additionalContext": "C"}}),
            "{file}"
        );
        assert_eq!(r.exit.code(), 0);
    }
    let (v, r) = encode(
        HostId::Gemini,
        "gemini/session_end.json",
        &Decision::default(),
    );
    assert_eq!((v, r.exit.code()), (json!({}), 0));
}

#[test]
fn every_answer_to_gemini_uses_only_fields_it_honours() {
    for file in fixtures_of("gemini") {
        let event = decode(HostId::Gemini, &file);
        for (what, decision) in decisions() {
            let r = host(HostId::Gemini).encode(&event, &decision).rendered;
            let top = single_object(&r)
                .unwrap_or_else(|e| panic!("{file}, {what}: {e}"))
                .unwrap_or_default();
            for key in top.keys() {
                assert!(
                    [
                        "decision",
                        "reason",
                        "continue",
                        "stopReason",
                        "systemMessage",
                        "hookSpecificOutput"
                    ]
                    .contains(&key.as_str()),
                    "{file}, {what}: Gemini ignores `{key}`"
                );
            }
            if let Some(hso) = top.get("hookSpecificOutput").and_then(Value::as_object) {
                for key in hso.keys() {
                    assert!(
                        ["tool_input", "additionalContext"].contains(&key.as_str()),
                        "{file}, {what}: {key}"
                    );
                }
                if let Some(input) = hso.get("tool_input") {
                    // Gemini replaces the input with this one (and checks it
                    // as Claude Code checks updatedInput): the rewrite
                    // whole, nothing of the original added.
                    if event.tool_name() == Some("Bash") {
                        assert_eq!(
                            Some(input),
                            decision.updated_input.as_ref(),
                            "{file}, {what}: the rewrite is sent as given"
                        );
                    }
                }
            }
            // Gemini reads the JSON whatever the exit code, and counts any
            // exit but 0 as a failed hook: always 0.
            let denies = matches!(
                top.get("decision").and_then(Value::as_str),
                Some("deny" | "block")
            );
            assert_ne!(top.get("decision"), Some(&json!("ask")), "{file}, {what}");
            assert_eq!(r.exit.code(), 0, "{file}, {what}: {}", r.stdout);
            let known = event.id.known();
            let must_block = (decision.block.is_some()
                && !matches!(known, Some(K::SessionStart | K::SessionEnd | K::PreCompact)))
                || (known == Some(K::PreToolUse) && decision.permission == Some(Permission::Ask));
            if must_block {
                assert!(denies, "{file}, {what}: a block was lost: {}", r.stdout);
            }
        }
    }
}

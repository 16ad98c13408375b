//! Golden decode/encode tests for Cursor (the payloads in
//! `fixtures/hosts/cursor/`), and its acceptance rules checked against every
//! answer hookrun can give it.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::aggregate::Decision;
use crate::host::golden::{
    blocked, decisions, decode, encode, field, fixtures_of, payload, permission, single_object,
};
use crate::host::{HostEnv, HostId, host};
use crate::verdict::Permission;

#[test]
fn cursor_deletes_and_unnamed_mcp_servers_are_judged_and_said() {
    let mut raw = payload("cursor/pre_tool_use__shell.json");
    raw.insert("tool_name".into(), json!("Delete"));
    raw.insert(
        "tool_input".into(),
        json!({"path": "/p/.env", "file_path": "/p/ok"}),
    );
    let d = host(HostId::Cursor)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap();
    assert_eq!(d.event.tool_name(), Some("Write"));
    assert_eq!(
        field(&d.event, "tool_input"),
        &json!({"file_path": "/p/.env"})
    );
    let mut raw = payload("cursor/pre_tool_use__shell.json");
    raw.insert("tool_name".into(), json!("MCP:create_issue"));
    let d = host(HostId::Cursor)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap();
    assert_eq!(d.event.tool_name(), Some("mcp__cursor__create_issue"));
    assert!(
        d.notices
            .warnings
            .iter()
            .any(|w| w.contains("no MCP server")),
        "{:?}",
        d.notices.warnings
    );
    // A string tool_input with a lone surrogate is still read.
    let mut raw = payload("cursor/before_mcp_execution.json");
    raw.insert("tool_input".into(), json!("{\"title\":\"x \\udc00\"}"));
    let d = host(HostId::Cursor)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap();
    assert!(field(&d.event, "tool_input")["title"].is_string());
}

#[test]
fn cursor_events_decode_to_claude_code_events() {
    let shell = decode(HostId::Cursor, "cursor/before_shell_execution.json");
    assert_eq!(shell.id.name(), "PreToolUse");
    assert_eq!(shell.tool_name(), Some("Bash"));
    assert_eq!(
        shell.tool_input(),
        Some(&json!({"command": "git push origin main"}))
    );
    assert_eq!(shell.session_id(), Some("c-1"));
    let pre = decode(HostId::Cursor, "cursor/pre_tool_use__shell.json");
    assert_eq!(
        (pre.tool_name(), pre.cwd()),
        (Some("Bash"), Some(PathBuf::from("/tmp/run/proj")))
    );
    let read = decode(HostId::Cursor, "cursor/before_read_file.json");
    assert_eq!(read.tool_name(), Some("Read"));
    assert_eq!(
        read.tool_input().unwrap()["file_path"],
        "/tmp/run/proj/.env"
    );
    let mcp = decode(HostId::Cursor, "cursor/before_mcp_execution.json");
    assert_eq!(mcp.tool_name(), Some("mcp__github__create_issue"));
    assert_eq!(mcp.tool_input(), Some(&json!({"title": "x"})));
    assert_eq!(
        decode(HostId::Cursor, "cursor/before_submit_prompt.json")
            .id
            .name(),
        "UserPromptSubmit"
    );
    assert_eq!(decode(HostId::Cursor, "cursor/stop.json").id.name(), "Stop");
    let edit = decode(HostId::Cursor, "cursor/after_file_edit.json");
    assert_eq!(
        (edit.id.name(), edit.tool_name()),
        ("PostToolUse", Some("Edit"))
    );
}

#[test]
fn cursor_golden_answers() {
    let (v, r) = encode(
        HostId::Cursor,
        "cursor/before_shell_execution.json",
        &Decision::default(),
    );
    // No hook decided: Cursor's own approval decides (`allow` could skip it).
    assert_eq!((v, r.exit.code()), (json!({"permission": "ask"}), 0));
    let (v, _) = encode(
        HostId::Cursor,
        "cursor/before_shell_execution.json",
        &permission(Permission::Allow, None),
    );
    assert_eq!(v, json!({"permission": "allow"}));
    let (v, r) = encode(
        HostId::Cursor,
        "cursor/before_shell_execution.json",
        &blocked("R"),
    );
    assert_eq!(
        v,
        json!({"permission": "deny", "user_message": "R", "agent_message": "R"})
    );
    assert_eq!(r.exit.code(), 2);
    let (v, _) = encode(HostId::Cursor, "cursor/stop.json", &blocked("again"));
    assert_eq!(v, json!({"followup_message": "again"}));
    let (v, r) = encode(
        HostId::Cursor,
        "cursor/before_submit_prompt.json",
        &blocked("no"),
    );
    assert_eq!(
        (v, r.exit.code()),
        (json!({"continue": false, "user_message": "no"}), 2)
    );
}

#[test]
fn every_answer_to_cursor_has_a_permission_where_it_needs_one() {
    for file in fixtures_of("cursor") {
        let event = decode(HostId::Cursor, &file);
        let host_event = crate::host::mapping::host_event_of(&event);
        for (what, decision) in decisions() {
            let r = host(HostId::Cursor).encode(&event, &decision).rendered;
            let top = single_object(&r)
                .unwrap_or_else(|e| panic!("{file}, {what}: {e}"))
                .unwrap_or_default();
            if crate::host::cursor::PERMISSION_EVENTS.contains(&host_event.as_str()) {
                let p = top.get("permission").and_then(Value::as_str);
                assert!(
                    matches!(p, Some("allow" | "deny" | "ask")),
                    "{file}, {what}: {}",
                    r.stdout
                );
                // Never wider than Cursor on its own unless a hook allowed.
                if p == Some("allow") {
                    assert!(
                        decision.permission == Some(Permission::Allow)
                            || host_event == "beforeReadFile",
                        "{file}, {what}: {}",
                        r.stdout
                    );
                }
                let must_deny = decision.block.is_some()
                    || decision.permission == Some(Permission::Ask)
                    || (decision.updated_input.is_some() && host_event != "preToolUse");
                assert_eq!(p == Some("deny"), must_deny, "{file}, {what}: {}", r.stdout);
                assert_eq!(r.exit.code() == 2, must_deny, "{file}, {what}");
            }
        }
    }
}

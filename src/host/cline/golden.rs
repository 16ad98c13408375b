//! Golden decode/encode tests for Cline (the payloads in
//! `fixtures/hosts/cline/`), and its acceptance rules checked against every
//! answer hookrun can give it.

use serde_json::json;

use crate::aggregate::Decision;
use crate::host::golden::{
    blocked, decisions, decode, encode, field, fixtures_of, out, payload, permission, single_object,
};
use crate::host::{HostEnv, HostId, host};
use crate::verdict::Permission;

#[test]
fn cline_payloads_decode_without_an_event_name_or_cwd() {
    let e = decode(HostId::Cline, "cline/tool_call__run_commands.json");
    assert_eq!((e.id.name(), e.tool_name()), ("PreToolUse", Some("Bash")));
    assert_eq!(
        field(&e, "tool_input")["command"],
        "echo hi && touch bash_ran.marker"
    );
    assert_eq!(field(&e, "cwd"), "/tmp/run/proj");
    assert_eq!(field(&e, "session_id"), "1767225600000_abc");
    assert_eq!(field(&e, "tool_use_id"), "call_t00_00");
    let e = decode(HostId::Cline, "cline/tool_call__editor_new.json");
    assert_eq!(e.tool_name(), Some("Write"));
    assert_eq!(
        field(&e, "tool_input"),
        &json!({"file_path": "/tmp/run/proj/new.txt", "content": "hello"})
    );
    let e = decode(HostId::Cline, "cline/tool_call__read_files.json");
    assert_eq!(e.tool_name(), Some("Read"));
    assert_eq!(
        field(&e, "tool_input")["file_paths"],
        json!(["/tmp/run/proj/notes.txt", "/tmp/run/proj/.env"])
    );
    let e = decode(HostId::Cline, "cline/tool_result__run_commands.json");
    assert_eq!(e.id.name(), "PostToolUse");
    let e = decode(HostId::Cline, "cline/agent_end.json");
    assert_eq!(e.id.name(), "Stop");
    assert_eq!(
        field(&e, "last_assistant_message"),
        "Final answer after the tools."
    );
    // The event the hook file names wins over the SDK's hookName.
    let d = host(HostId::Cline)
        .decode(
            payload("cline/tool_call__run_commands.json"),
            Some("PreToolUse"),
            &HostEnv::new(&[]),
        )
        .unwrap();
    assert_eq!(d.host_event.as_deref(), Some("PreToolUse"));
}

#[test]
fn cline_answers_deny_one_call_and_let_the_model_go_on() {
    let (v, r) = encode(
        HostId::Cline,
        "cline/tool_call__run_commands.json",
        &blocked("R"),
    );
    // Not `cancel` (it ends the whole run, the reason shown to no one).
    assert_eq!(
        (v, r.exit.code()),
        (json!({"overrideInput": {}, "contextModification": "R"}), 0)
    );
    let (v, _) = encode(
        HostId::Cline,
        "cline/tool_call__run_commands.json",
        &permission(Permission::Ask, Some("sure?")),
    );
    assert_eq!(v["overrideInput"], json!({}));
    assert!(v["contextModification"].as_str().unwrap().contains("sure?"));
    let stop = Decision {
        stop: true,
        stop_reason: Some("halt".into()),
        ..Decision::default()
    };
    let (v, _) = encode(HostId::Cline, "cline/tool_call__run_commands.json", &stop);
    assert_eq!(v, json!({"cancel": true, "errorMessage": "halt"}));
    let rewrite = Decision {
        updated_input: Some(json!({"command": "echo safe"})),
        ..Decision::default()
    };
    let (v, _) = encode(
        HostId::Cline,
        "cline/tool_call__run_commands.json",
        &rewrite,
    );
    assert_eq!(v, json!({"overrideInput": {"commands": ["echo safe"]}}));
    let context = Decision {
        context: Some("C".into()),
        ..Decision::default()
    };
    let (v, _) = encode(
        HostId::Cline,
        "cline/tool_result__run_commands.json",
        &context,
    );
    assert_eq!(v, json!({"contextModification": "C"}));
    let (v, _) = encode(
        HostId::Cline,
        "cline/tool_result__run_commands.json",
        &blocked("R"),
    );
    assert_eq!(v, json!({"contextModification": "R"}));
    // TaskComplete runs detached: a Stop block cannot be carried, and says so.
    let event = decode(HostId::Cline, "cline/agent_end.json");
    let mut decision = blocked("again");
    let r = crate::host::encode(host(HostId::Cline), &event, &mut decision);
    assert_eq!(out(&r), json!({}));
    assert!(
        decision
            .notices
            .warnings
            .iter()
            .any(|w| w.contains("not enforced")),
        "{:?}",
        decision.notices.warnings
    );
}

#[test]
fn every_answer_to_cline_is_one_object_at_exit_0_and_never_cancels_a_block() {
    for file in fixtures_of("cline") {
        let event = decode(HostId::Cline, &file);
        for (what, decision) in decisions() {
            let r = host(HostId::Cline).encode(&event, &decision).rendered;
            let top = single_object(&r).unwrap_or_else(|e| panic!("{file}, {what}: {e}"));
            assert_eq!(r.exit.code(), 0, "{file}, {what}");
            let cancels = top.is_some_and(|t| t.get("cancel") == Some(&json!(true)));
            assert_eq!(cancels, decision.stop, "{file}, {what}: {}", r.stdout);
        }
    }
}

//! Golden decode/encode tests for Factory Droid (the payloads in
//! `fixtures/hosts/droid/`).

use serde_json::{Value, json};

use crate::aggregate::Decision;
use crate::event::Event;
use crate::host::golden::{blocked, decode, encode, permission};
use crate::host::{HostEnv, HostId, host};
use crate::verdict::Permission;

#[test]
fn droid_tools_decode_to_claude_code_names_with_their_own_fields() {
    let cases = [
        (
            "pre_tool_use__execute.json",
            "PreToolUse",
            "Bash",
            "Execute",
        ),
        ("pre_tool_use__read.json", "PreToolUse", "Read", "Read"),
        ("pre_tool_use__create.json", "PreToolUse", "Write", "Create"),
        ("pre_tool_use__edit.json", "PreToolUse", "Edit", "Edit"),
        ("pre_tool_use__ls.json", "PreToolUse", "Read", "LS"),
        ("pre_tool_use__grep.json", "PreToolUse", "Grep", "Grep"),
        ("pre_tool_use__glob.json", "PreToolUse", "Glob", "Glob"),
        (
            "pre_tool_use__mcp.json",
            "PreToolUse",
            "mcp__oracle__echo",
            "oracle___echo",
        ),
        (
            "post_tool_use__execute.json",
            "PostToolUse",
            "Bash",
            "Execute",
        ),
        ("post_tool_use__edit.json", "PostToolUse", "Edit", "Edit"),
    ];
    for (file, event, tool, original) in cases {
        let e = decode(HostId::Droid, &format!("droid/{file}"));
        assert_eq!(e.id.name(), event, "{file}");
        assert_eq!(e.tool_name(), Some(tool), "{file}");
        let info = &e.fields()["hookrun_host"];
        assert_eq!(info["host"], "droid", "{file}");
        assert_eq!(info["tool_name"], original, "{file}");
    }
    let shell = decode(HostId::Droid, "droid/pre_tool_use__execute.json");
    assert_eq!(
        shell.tool_input().unwrap()["command"],
        "echo hi && touch bash_ran.marker"
    );
    let edit = decode(HostId::Droid, "droid/pre_tool_use__edit.json");
    assert_eq!(edit.tool_input().unwrap()["old_string"], "alpha");
    assert_eq!(edit.tool_input().unwrap()["new_string"], "beta");
    let ls = decode(HostId::Droid, "droid/pre_tool_use__ls.json");
    assert_eq!(ls.tool_input().unwrap()["file_path"], "/tmp/run/proj");
    let glob = decode(HostId::Droid, "droid/pre_tool_use__glob.json");
    assert_eq!(glob.tool_input().unwrap()["pattern"], "*.txt");
    assert_eq!(glob.tool_input().unwrap()["path"], "/tmp/run/proj");
    // A shell's result reads as Claude Code's; Droid's text stays in
    // hookrun_host.
    let post = decode(HostId::Droid, "droid/post_tool_use__execute.json");
    assert!(
        post.fields()["tool_response"]["stdout"]
            .as_str()
            .unwrap()
            .starts_with("hi")
    );
    assert!(post.fields()["hookrun_host"]["tool_response"].is_string());
    for (file, event) in [
        ("stop.json", "Stop"),
        ("session_start.json", "SessionStart"),
        ("session_end.json", "SessionEnd"),
    ] {
        assert_eq!(
            decode(HostId::Droid, &format!("droid/{file}")).id.name(),
            event
        );
    }
}

#[test]
fn droid_golden_answers() {
    // A deny: Claude Code's JSON deny and exit 2 with the reason (Droid
    // reads the JSON first; measured, both deny).
    let (v, r) = encode(
        HostId::Droid,
        "droid/pre_tool_use__execute.json",
        &blocked("R"),
    );
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R"}})
    );
    assert_eq!((r.exit.code(), r.stderr.as_str()), (2, "R\n"));

    // `ask` does nothing in `droid exec` (the call runs): a deny, said.
    let (v, _) = encode(
        HostId::Droid,
        "droid/pre_tool_use__execute.json",
        &permission(Permission::Ask, Some("sure?")),
    );
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(
        v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("sure?"),
        "{v}"
    );
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("does not ask"),
        "{v}"
    );

    // A rewrite of the command alone: Droid merges it, keeping only the
    // call's description fields, which change nothing: sent as is.
    let rewrite = Decision {
        permission: Some(Permission::Allow),
        updated_input: Some(json!({"command": "echo rewritten"})),
        ..Decision::default()
    };
    let (v, r) = encode(HostId::Droid, "droid/pre_tool_use__execute.json", &rewrite);
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo rewritten"}}})
    );
    assert_eq!(r.exit.code(), 0);
    // An Edit rewrite in Droid's field names.
    let rewrite = Decision {
        updated_input: Some(
            json!({"file_path": "/tmp/run/proj/notes.txt", "old_string": "alpha", "new_string": "gamma"}),
        ),
        ..Decision::default()
    };
    let (v, _) = encode(HostId::Droid, "droid/pre_tool_use__edit.json", &rewrite);
    assert_eq!(
        v["hookSpecificOutput"]["updatedInput"],
        json!({"file_path": "/tmp/run/proj/notes.txt", "old_str": "alpha", "new_str": "gamma"})
    );
    // A rewrite that leaves out a field Droid would keep (measured: a
    // left-out change_all stays true) is a deny, said.
    let mut edit = decode(HostId::Droid, "droid/pre_tool_use__edit.json");
    let mut raw = edit.fields().clone();
    raw["hookrun_host"]["tool_input"]["change_all"] = json!(true);
    edit = Event::from_object(raw, Some("PreToolUse")).unwrap();
    let decision = Decision {
        updated_input: Some(
            json!({"file_path": "/tmp/run/proj/notes.txt", "old_string": "alpha", "new_string": "gamma"}),
        ),
        ..Decision::default()
    };
    let v: Value =
        serde_json::from_str(&host(HostId::Droid).encode(&edit, &decision).rendered.stdout)
            .unwrap();
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("`change_all`"),
        "{v}"
    );

    // Context before a tool is not sent (Droid drops it; it is carried).
    let context = Decision {
        context: Some("C".into()),
        ..Decision::default()
    };
    let (v, _) = encode(HostId::Droid, "droid/pre_tool_use__execute.json", &context);
    assert_eq!(v, json!({}));
    let (v, _) = encode(HostId::Droid, "droid/post_tool_use__execute.json", &context);
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "C"}})
    );
    // A PostToolUse block: exit 2 and the reason on stderr (Droid reads
    // that, not `decision: block`).
    let (_, r) = encode(
        HostId::Droid,
        "droid/post_tool_use__execute.json",
        &blocked("R"),
    );
    assert_eq!((r.exit.code(), r.stderr.as_str()), (2, "R\n"));
    // A Stop block: the agent goes on.
    let (_, r) = encode(HostId::Droid, "droid/stop.json", &blocked("go on"));
    assert_eq!((r.exit.code(), r.stderr.as_str()), (2, "go on\n"));
    // Droid caps no stop loop: hookrun's guard is the only one.
    assert_eq!(
        host(HostId::Droid).own_stop_block_cap(&HostEnv::new(&[])),
        None
    );
}

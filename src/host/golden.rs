//! Golden decode/encode tests per host and event (the payloads in
//! `fixtures/hosts/`), and the acceptance rules of each host checked against
//! every answer hookrun can give it.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use std::ffi::OsString;

use super::{HostEnv, HostId, Rendered, host};
use crate::aggregate::Decision;
use crate::event::Event;
use crate::verdict::Permission;

fn vars(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    pairs
        .iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)))
        .collect()
}

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hosts")
        .join(rel)
}

fn payload(rel: &str) -> Map<String, Value> {
    let text = std::fs::read_to_string(fixture(rel)).unwrap();
    match serde_json::from_str(&text).unwrap() {
        Value::Object(map) => map,
        other => panic!("{rel}: not an object: {other}"),
    }
}

fn decode(id: HostId, rel: &str) -> Event {
    host(id)
        .decode(payload(rel), None, &HostEnv::new(&[]))
        .unwrap_or_else(|err| panic!("{rel}: {err}"))
        .event
}

fn field<'a>(event: &'a Event, key: &str) -> &'a Value {
    event.fields().get(key).unwrap_or(&Value::Null)
}

// ---------------------------------------------------------------- decode

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

#[test]
fn codex_decodes_bash_and_apply_patch() {
    let bash = decode(HostId::Codex, "codex/pre_tool_use__bash.json");
    assert_eq!(bash.id.name(), "PreToolUse");
    assert_eq!(bash.tool_name(), Some("Bash"));
    assert_eq!(
        bash.tool_input(),
        Some(&json!({"command": "echo hi && touch bash_ran.marker"}))
    );
    let patch = decode(HostId::Codex, "codex/pre_tool_use__apply_patch.json");
    assert_eq!(patch.tool_name(), Some("Edit"));
    let input = patch.tool_input().unwrap();
    assert_eq!(input["file_path"], "/tmp/run/proj/added_by_patch.txt");
    assert_eq!(
        input["file_paths"],
        json!(["/tmp/run/proj/added_by_patch.txt"])
    );
    assert!(
        input["command"]
            .as_str()
            .unwrap()
            .starts_with("*** Begin Patch")
    );
    assert_eq!(patch.fields()["hookrun_host"]["tool_name"], "apply_patch");
    let post = decode(HostId::Codex, "codex/post_tool_use__bash.json");
    assert_eq!(post.fields()["tool_response"]["stdout"], "hi\n");
    assert_eq!(post.fields()["hookrun_host"]["tool_response"], "hi\n");
    for (file, event) in [
        ("stop.json", "Stop"),
        ("user_prompt_submit.json", "UserPromptSubmit"),
        ("session_start.json", "SessionStart"),
        ("session_end.json", "SessionEnd"),
        ("permission_request.json", "PermissionRequest"),
    ] {
        assert_eq!(
            decode(HostId::Codex, &format!("codex/{file}")).id.name(),
            event
        );
    }
}

#[test]
fn codex_patch_files_are_listed_in_order() {
    let patch = "*** Begin Patch\n*** Update File: a.rs\n@@\n-x\n+y\n*** Add File: b/c.rs\n+z\n*** Delete File: d\n*** End Patch";
    assert_eq!(super::common::patch_files(patch), ["a.rs", "b/c.rs", "d"]);
    // Codex trims hunk headers: an indented header still deletes the file.
    let patch = "*** Begin Patch\n*** Update File: a.rs\n@@\n-x\n+y\n  *** Delete File: .env\n*** End Patch";
    assert_eq!(super::common::patch_files(patch), ["a.rs", ".env"]);
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
        super::mapping::host_info(&e).unwrap()["tool_response"]["returnDisplay"],
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
fn a_payload_fired_as_the_wrong_host_is_said_aloud_and_names_are_lenient() {
    // Gemini's BeforeTool without --host.
    let decoded = host(HostId::ClaudeCode)
        .decode(
            payload("gemini/before_tool__shell.json"),
            None,
            &HostEnv::new(&[]),
        )
        .unwrap();
    assert!(
        decoded.warnings.iter().any(|w| w.contains("--host gemini")),
        "{:?}",
        decoded.warnings
    );
    // Copilot's camelCase fired as Gemini.
    let decoded = host(HostId::Gemini)
        .decode(
            payload("copilot/pre_tool_use__camel.json"),
            Some("BeforeTool"),
            &HostEnv::new(&[]),
        )
        .unwrap();
    assert!(
        decoded
            .warnings
            .iter()
            .any(|w| w.contains("--host copilot")),
        "{:?}",
        decoded.warnings
    );
    // A Claude Code payload fired as Codex: an event Codex never sends.
    let mut raw = payload("codex/stop.json");
    raw.insert("hook_event_name".into(), json!("PostToolUseFailure"));
    let decoded = host(HostId::Codex)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap();
    assert!(
        decoded
            .warnings
            .iter()
            .any(|w| w.contains("Codex sends no PostToolUseFailure")),
        "{:?}",
        decoded.warnings
    );
    // The right host: quiet.
    for (id, rel) in [
        (HostId::Gemini, "gemini/before_tool__shell.json"),
        (HostId::ClaudeCode, "codex/pre_tool_use__bash.json"),
        (HostId::Copilot, "copilot/measured_pre_tool_use.json"),
        (HostId::Cursor, "cursor/before_shell_execution.json"),
    ] {
        let decoded = host(id)
            .decode(payload(rel), None, &HostEnv::new(&[]))
            .unwrap();
        assert!(
            decoded.warnings.is_empty(),
            "{id:?} {rel}: {:?}",
            decoded.warnings
        );
    }
    // Host event names read like Claude Code's: case and `_` do not count.
    let decoded = host(HostId::Gemini)
        .decode(
            payload("gemini/before_tool__shell.json"),
            Some("before_tool"),
            &HostEnv::new(&[]),
        )
        .unwrap();
    assert_eq!(decoded.event.id.name(), "PreToolUse");
}

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
        d.warnings.iter().any(|w| w.contains("no MCP server")),
        "{:?}",
        d.warnings
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

/// Copilot CLI runs `.claude/settings.json` (what `install claude-code`
/// writes) with its PascalCase payloads: a `--host claude-code` fire with
/// one, in Copilot's environment, is answered as Copilot. A Claude Code
/// payload never is, whatever the environment.
#[test]
fn copilot_payloads_fired_as_claude_code_are_copilots() {
    use super::actual_caller;
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

// ---------------------------------------------------------------- encode

fn blocked(reason: &str) -> Decision {
    Decision {
        block: Some(reason.into()),
        ..Decision::default()
    }
}

fn permission(p: Permission, reason: Option<&str>) -> Decision {
    Decision {
        permission: Some(p),
        permission_reason: reason.map(str::to_owned),
        ..Decision::default()
    }
}

fn out(r: &Rendered) -> Value {
    if r.stdout.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
    }
}

fn encode(id: HostId, rel: &str, decision: &Decision) -> (Value, Rendered) {
    let event = decode(id, rel);
    let encoded = host(id).encode(&event, decision);
    (out(&encoded.rendered), encoded.rendered)
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
fn codex_golden_answers() {
    let (v, r) = encode(
        HostId::Codex,
        "codex/pre_tool_use__bash.json",
        &blocked("R"),
    );
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R"}})
    );
    assert_eq!(r.exit.code(), 0);
    // Nothing to say: an empty answer, never `allow` alone.
    for decision in [
        Decision::default(),
        permission(Permission::Allow, Some("fine")),
    ] {
        let (v, r) = encode(HostId::Codex, "codex/pre_tool_use__bash.json", &decision);
        assert_eq!((v, r.stdout.as_str(), r.exit.code()), (Value::Null, "", 0));
    }
    let rewrite = Decision {
        permission: Some(Permission::Allow),
        updated_input: Some(json!({"command": "echo rewritten"})),
        ..Decision::default()
    };
    let (v, _) = encode(HostId::Codex, "codex/pre_tool_use__bash.json", &rewrite);
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo rewritten"}}})
    );
    let (v, _) = encode(HostId::Codex, "codex/stop.json", &blocked("say goodbye"));
    assert_eq!(v, json!({"decision": "block", "reason": "say goodbye"}));
    let (v, _) = encode(
        HostId::Codex,
        "codex/permission_request.json",
        &blocked("no"),
    );
    assert_eq!(
        v,
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no"}}})
    );
    let (v, _) = encode(
        HostId::Codex,
        "codex/pre_tool_use__bash.json",
        &permission(Permission::Ask, None),
    );
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
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
fn claude_code_is_todays_protocol_and_caps_stop_loops_itself() {
    let claude = host(HostId::ClaudeCode);
    assert_eq!(claude.own_stop_block_cap(&HostEnv::new(&[])), Some(8));
    let env = vars(&[("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "3")]);
    assert_eq!(claude.own_stop_block_cap(&HostEnv::new(&env)), Some(3));
    for id in [HostId::Gemini, HostId::Codex, HostId::Cursor] {
        assert_eq!(
            host(id).own_stop_block_cap(&HostEnv::new(&[])),
            None,
            "{id:?}"
        );
    }
    let event = Event::parse(
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#,
        None,
    )
    .unwrap();
    assert_eq!(
        claude.encode(&event, &blocked("R")).rendered,
        super::claude::render(&event.id, &blocked("R"))
    );
}

#[test]
fn deadlines_follow_each_hosts_default_timeout() {
    let pre = crate::catalog::EventId::resolve("PreToolUse");
    let secs = |id| host(id).default_deadline(&pre).as_secs();
    assert_eq!(secs(HostId::Gemini), 59);
    assert_eq!(secs(HostId::Codex), 599);
    assert_eq!(secs(HostId::Copilot), 29);
    assert_eq!(secs(HostId::Cursor), 29);
}

// ---------------------------------------------------- acceptance rules

/// Every kind of answer the pipeline can produce, alone and combined.
// A table of cases, one short entry each: splitting it would only scatter it.
#[allow(clippy::too_many_lines)]
fn decisions() -> Vec<(&'static str, Decision)> {
    let base = Decision::default;
    let mut list = vec![
        ("nothing", base()),
        ("block", blocked("R")),
        ("block, empty reason", blocked("")),
        ("allow", permission(Permission::Allow, Some("ok"))),
        ("allow, no reason", permission(Permission::Allow, None)),
        ("ask", permission(Permission::Ask, Some("sure?"))),
        ("defer", permission(Permission::Defer, None)),
        (
            "rewrite",
            Decision {
                permission: Some(Permission::Allow),
                updated_input: Some(json!({"command": "echo rewritten"})),
                ..base()
            },
        ),
        (
            "rewrite without command",
            Decision {
                updated_input: Some(json!({"description": "x"})),
                ..base()
            },
        ),
        (
            "ask and rewrite",
            Decision {
                permission: Some(Permission::Ask),
                updated_input: Some(json!({"command": "echo rewritten"})),
                ..base()
            },
        ),
        (
            "context",
            Decision {
                context: Some("C".into()),
                ..base()
            },
        ),
        (
            "stop",
            Decision {
                stop: true,
                stop_reason: Some("S".into()),
                ..base()
            },
        ),
        (
            "stop, no reason",
            Decision {
                stop: true,
                ..base()
            },
        ),
        (
            "suppress",
            Decision {
                suppress_output: true,
                ..base()
            },
        ),
        (
            "messages",
            Decision {
                system_messages: vec!["m".into()],
                warnings: vec!["w".into()],
                ..base()
            },
        ),
        (
            "terminal sequence",
            Decision {
                terminal_sequence: Some("\u{7}".into()),
                ..base()
            },
        ),
    ];
    let mut passthrough = Map::new();
    for key in [
        "updatedMCPToolOutput",
        "updatedPermissions",
        "interrupt",
        "sessionTitle",
        "updatedToolOutput",
    ] {
        passthrough.insert(key.into(), json!(true));
    }
    list.push((
        "passthrough",
        Decision {
            passthrough,
            ..base()
        },
    ));
    list.push((
        "everything with a block",
        Decision {
            block: Some("R".into()),
            context: Some("C".into()),
            stop: true,
            stop_reason: Some("S".into()),
            suppress_output: true,
            system_messages: vec!["m".into()],
            updated_input: Some(json!({"command": "x"})),
            ..base()
        },
    ));
    list.push((
        "everything without a block",
        Decision {
            permission: Some(Permission::Allow),
            context: Some("C".into()),
            stop: true,
            suppress_output: true,
            system_messages: vec!["m".into()],
            updated_input: Some(json!({"command": "x"})),
            terminal_sequence: Some("x".into()),
            ..base()
        },
    ));
    list
}

fn fixtures_of(dir: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(fixture(dir))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            std::path::Path::new(n)
                .extension()
                .is_some_and(|e| e == "json")
                && n != "output-schema.json"
        })
        .map(|n| format!("{dir}/{n}"))
        .collect();
    files.sort();
    files
}

/// One JSON object or nothing; a second object or trailing text is not
/// accepted by any host.
fn single_object(r: &Rendered) -> Result<Option<Map<String, Value>>, String> {
    let text = r.stdout.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let first = stream.next().ok_or("no JSON")?.map_err(|e| e.to_string())?;
    if stream.next().is_some() {
        return Err("more than one JSON value on stdout".into());
    }
    match first {
        Value::Object(map) => Ok(Some(map)),
        other => Err(format!("stdout is not an object: {other}")),
    }
}

fn non_empty(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

/// Why Codex would call this answer "failed" (`None`: accepted), from the
/// schema in `fixtures/hosts/codex/output-schema.json`.
// One rule of Codex's parser after another, in the order it checks them,
// each a few lines: read as a list, which a split would hide.
#[allow(clippy::too_many_lines)]
fn codex_rejects(schema: &Value, event: &Event, r: &Rendered) -> Option<String> {
    let name = event.id.name();
    let spec = &schema["events"][name];
    assert!(spec.is_object(), "the schema has no {name}");
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    match r.exit.code() {
        0 => {}
        2 if name == "SessionStart" => return Some("exit 2 on SessionStart".into()),
        2 if r.stderr.trim().is_empty() => return Some("exit 2 without stderr".into()),
        2 => return None,
        other => return Some(format!("exit {other}")),
    }
    let top = match single_object(r) {
        Err(why) => return Some(why),
        Ok(None) => return None,
        Ok(Some(top)) => top,
    };
    let allowed = strings(&spec["top"]);
    if let Some(key) = top.keys().find(|k| !allowed.contains(k)) {
        return Some(format!("unknown top-level key {key}"));
    }
    let hso = top.get("hookSpecificOutput").and_then(Value::as_object);
    if let Some(hso) = hso {
        let allowed = strings(&spec["hookSpecificOutput"]);
        if let Some(key) = hso.keys().find(|k| !allowed.contains(k)) {
            return Some(format!("unknown hookSpecificOutput key {key}"));
        }
    }
    let hget = |k: &str| hso.and_then(|h| h.get(k));
    if let (Some(enum_values), Some(value)) =
        (spec.get("permissionDecision"), hget("permissionDecision"))
    {
        if !strings(enum_values)
            .iter()
            .any(|e| Some(e.as_str()) == value.as_str())
        {
            return Some(format!("permissionDecision {value}"));
        }
    }
    if let (Some(enum_values), Some(value)) = (spec.get("decision"), top.get("decision")) {
        if !strings(enum_values)
            .iter()
            .any(|e| Some(e.as_str()) == value.as_str())
        {
            return Some(format!("decision {value}"));
        }
    }
    if let Some(inner) = hget("decision").and_then(Value::as_object) {
        let keys = strings(&spec["decision_keys_accepted"]);
        if let Some(key) = inner.keys().find(|k| !keys.contains(k)) {
            return Some(format!("decision.{key}"));
        }
        let behaviors = strings(&spec["behavior"]);
        if !inner
            .get("behavior")
            .and_then(Value::as_str)
            .is_some_and(|b| behaviors.iter().any(|x| x == b))
        {
            return Some("decision.behavior".into());
        }
    }
    for rule in strings(&spec["failed_when"]) {
        let hit = match rule.as_str() {
            "continue is false" => top.get("continue") == Some(&json!(false)),
            "stopReason is present" => top.contains_key("stopReason"),
            "suppressOutput is true" => top.get("suppressOutput") == Some(&json!(true)),
            "permissionDecision is allow without updatedInput" => {
                hget("permissionDecision") == Some(&json!("allow"))
                    && hget("updatedInput").is_none()
            }
            "updatedInput without permissionDecision allow" => {
                hget("updatedInput").is_some()
                    && hget("permissionDecision") != Some(&json!("allow"))
            }
            "updatedInput without a string command" => {
                hget("updatedInput").is_some_and(|u| !u["command"].is_string())
            }
            "permissionDecision is deny without a non-empty permissionDecisionReason" => {
                hget("permissionDecision") == Some(&json!("deny"))
                    && !non_empty(hget("permissionDecisionReason"))
            }
            "decision is block without a non-empty reason" => {
                top.get("decision") == Some(&json!("block")) && !non_empty(top.get("reason"))
            }
            "reason without decision" => {
                top.contains_key("reason") && !top.contains_key("decision")
            }
            "permissionDecisionReason without permissionDecision" => {
                hget("permissionDecisionReason").is_some() && hget("permissionDecision").is_none()
            }
            "hookSpecificOutput without hookEventName" => {
                hso.is_some() && hget("hookEventName").is_none()
            }
            "updatedMCPToolOutput on a tool that is not mcp__*" => {
                hget("updatedMCPToolOutput").is_some()
                    && !event.tool_name().is_some_and(|t| t.starts_with("mcp__"))
            }
            "decision.updatedInput is present" => {
                hget("decision").is_some_and(|d| d.get("updatedInput").is_some())
            }
            "decision.updatedPermissions is present" => {
                hget("decision").is_some_and(|d| d.get("updatedPermissions").is_some())
            }
            "decision.interrupt is true" => {
                hget("decision").is_some_and(|d| d["interrupt"] == json!(true))
            }
            "exit code 2" => r.exit.code() == 2,
            other => panic!("output-schema.json has a rule the test does not know: {other}"),
        };
        if hit {
            return Some(rule);
        }
    }
    None
}

/// Whether the host would block the call/prompt/stop with this answer.
fn codex_blocks(r: &Rendered) -> bool {
    if r.exit.code() == 2 {
        return true;
    }
    let Ok(Some(top)) = single_object(r) else {
        return false;
    };
    let hso = top.get("hookSpecificOutput").cloned().unwrap_or_default();
    top.get("decision") == Some(&json!("block"))
        || hso["permissionDecision"] == "deny"
        || hso["decision"]["behavior"] == "deny"
}

#[test]
fn every_answer_to_codex_passes_its_schema_and_never_fails_open() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("codex/output-schema.json")).unwrap(),
    )
    .unwrap();
    let mut checked = 0;
    for file in fixtures_of("codex") {
        let event = decode(HostId::Codex, &file);
        for (what, decision) in decisions() {
            let encoded = host(HostId::Codex).encode(&event, &decision);
            let r = &encoded.rendered;
            if let Some(why) = codex_rejects(&schema, &event, r) {
                panic!(
                    "{file}, {what}: Codex would call this hook failed ({why}):\n{}",
                    r.stdout
                );
            }
            let name = event.id.name();
            // Codex's answer on these events has no block (0.171.0's schemas).
            let unblockable = [
                "SessionStart",
                "SessionEnd",
                "SubagentStart",
                "PreCompact",
                "PostCompact",
                "Interrupt",
            ];
            let must_block = (decision.block.is_some() && !unblockable.contains(&name))
                || (name == "PreToolUse"
                    && (decision.permission == Some(Permission::Ask) || decision.stop));
            if must_block {
                assert!(
                    codex_blocks(r),
                    "{file}, {what}: a block was lost:\n{}",
                    r.stdout
                );
            }
            if name == "PreToolUse"
                && decision.block.is_none()
                && decision.permission != Some(Permission::Ask)
                && !decision.stop
            {
                let rewrite_ok = decision
                    .updated_input
                    .as_ref()
                    .is_none_or(|u| u["command"].is_string());
                assert_eq!(
                    codex_blocks(r),
                    !rewrite_ok,
                    "{file}, {what}:\n{}",
                    r.stdout
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
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
            let name = event.id.name();
            let must_block = (decision.block.is_some()
                && !matches!(name, "SessionStart" | "SessionEnd" | "PreCompact"))
                || (name == "PreToolUse" && decision.permission == Some(Permission::Ask));
            if must_block {
                assert!(denies, "{file}, {what}: a block was lost: {}", r.stdout);
            }
        }
    }
}

#[test]
fn every_answer_to_cursor_has_a_permission_where_it_needs_one() {
    for file in fixtures_of("cursor") {
        let event = decode(HostId::Cursor, &file);
        let host_event = super::mapping::host_event_of(&event);
        for (what, decision) in decisions() {
            let r = host(HostId::Cursor).encode(&event, &decision).rendered;
            let top = single_object(&r)
                .unwrap_or_else(|e| panic!("{file}, {what}: {e}"))
                .unwrap_or_default();
            if super::cursor::PERMISSION_EVENTS.contains(&host_event.as_str()) {
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

/// Every string in an answer under one of `keys`, at any depth.
fn strings_under<'a>(v: &'a Value, keys: &[&str], out: &mut Vec<&'a str>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                if let (true, Some(s)) = (keys.contains(&k.as_str()), v.as_str()) {
                    out.push(s);
                }
                strings_under(v, keys, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| strings_under(v, keys, out)),
        _ => {}
    }
}

#[test]
fn a_warning_never_displaces_a_reason_on_any_host() {
    const REASON_KEYS: &[&str] = &[
        "reason",
        "permissionDecisionReason",
        "agent_message",
        "followup_message",
        "user_message",
        "message",
    ];
    let cases: &[(HostId, &str)] = &[
        (HostId::ClaudeCode, "codex/pre_tool_use__bash.json"),
        (HostId::ClaudeCode, "codex/stop.json"),
        (HostId::Gemini, "gemini/before_tool__shell.json"),
        (HostId::Gemini, "gemini/before_agent.json"),
        (HostId::Gemini, "gemini/after_agent.json"),
        (HostId::Codex, "codex/pre_tool_use__bash.json"),
        (HostId::Codex, "codex/user_prompt_submit.json"),
        (HostId::Codex, "codex/stop.json"),
        (HostId::Cursor, "cursor/pre_tool_use__shell.json"),
        (HostId::Cursor, "cursor/before_submit_prompt.json"),
        (HostId::Copilot, "copilot/pre_tool_use__camel.json"),
        (HostId::Copilot, "copilot/agent_stop.json"),
    ];
    for (id, rel) in cases {
        let event = decode(*id, rel);
        let mut decision = Decision {
            block: Some("THE-REASON".into()),
            warnings: vec!["THE-WARNING (GEMINI_API_KEY was scrubbed)".into()],
            ..Decision::default()
        };
        let r = super::encode(host(*id), &event, &mut decision);
        if r.exit.code() == 2 {
            assert_eq!(r.stderr, "THE-REASON\n", "{id:?} {rel}");
        }
        let v = out(&r);
        let mut reasons = Vec::new();
        strings_under(&v, REASON_KEYS, &mut reasons);
        // Claude Code reads an exit-2 block's reason from stderr alone.
        assert!(
            (*id == HostId::ClaudeCode && r.exit.code() == 2) || reasons.contains(&"THE-REASON"),
            "{id:?} {rel}: the reason field is not the reason: {v}"
        );
        if let Some(message) = v.get("systemMessage").and_then(Value::as_str) {
            if *id == HostId::Gemini && event.id.name() != "PreToolUse" {
                assert!(
                    message.starts_with("THE-REASON"),
                    "{id:?} {rel}: Gemini shows this in place of the reason: {message}"
                );
            }
        }
    }
}

/// A hook that timed out is a failure the Codex user must hear of. Codex's
/// `exec` prints no hook text at all (only `hook: <Event> <Status>`); its
/// interactive UI and app-server show a `systemMessage` as a warning entry
/// of the run. So hookrun's warning goes there on every event that takes
/// one, beside a block's reason (never in its place), and never in a form
/// that makes Codex count hookrun's run as failed (which would drop the
/// block).
#[test]
fn codex_hears_of_a_timed_out_hook_beside_any_block() {
    const TIMED_OUT: &str = "hook sleep 4 failed (timed out after 2 s)";
    for file in fixtures_of("codex") {
        let event = decode(HostId::Codex, &file);
        let takes = super::codex::allowed_top(event.id.known()).contains(&"systemMessage");
        for block in [None, Some("THE-REASON")] {
            let decision = Decision {
                block: block.map(str::to_owned),
                warnings: vec![TIMED_OUT.to_owned()],
                ..Decision::default()
            };
            let r = host(HostId::Codex).encode(&event, &decision).rendered;
            assert_eq!(r.exit.code(), 0, "{file}");
            let v = out(&r);
            if takes {
                // First the timed-out hook; then, where Codex cannot carry
                // the block (PreCompact), that it was not enforced.
                let said = v["systemMessage"].as_str().unwrap_or_default();
                assert!(said.starts_with(TIMED_OUT), "{file} {block:?}: {v}");
                assert!(
                    said == TIMED_OUT || said.contains("cannot be blocked"),
                    "{file} {block:?}: {v}"
                );
            }
            if block.is_some() && event.id.known() == Some(crate::catalog::KnownEvent::PreToolUse) {
                assert_eq!(
                    v["hookSpecificOutput"]["permissionDecisionReason"], "THE-REASON",
                    "{file}: {v}"
                );
            }
            if block.is_some()
                && ["PostToolUse", "UserPromptSubmit", "Stop"].contains(&event.id.name())
            {
                assert_eq!(v["reason"], "THE-REASON", "{file}: {v}");
            }
        }
    }
}

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
    let r = super::encode(host(HostId::Cline), &event, &mut decision);
    assert_eq!(out(&r), json!({}));
    assert!(
        decision.warnings.iter().any(|w| w.contains("not enforced")),
        "{:?}",
        decision.warnings
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

// ---------------------------------------------------------------- Qwen Code

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
    assert!(again.notes.iter().any(|n| n.contains("continuation")));
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
            let name = event.id.name();
            let deny = top
                .get("hookSpecificOutput")
                .and_then(|h| h.get("permissionDecision"))
                .and_then(Value::as_str);
            let blocks = top.get("decision") == Some(&json!("block"));
            if name == "PreToolUse" {
                let must =
                    decision.block.is_some() || decision.updated_input.is_some() || decision.stop;
                if must {
                    assert!(
                        blocks && deny == Some("deny"),
                        "{file}, {what}: {}",
                        r.stdout
                    );
                }
            } else if decision.block.is_some() && matches!(name, "Stop" | "UserPromptSubmit") {
                assert!(blocks, "{file}, {what}: a block was lost: {}", r.stdout);
            }
        }
    }
}

#[test]
fn adapting_then_encoding_says_what_a_host_cannot_express_once() {
    for (id, dir) in [
        (HostId::Gemini, "gemini"),
        (HostId::Codex, "codex"),
        (HostId::Cursor, "cursor"),
        (HostId::Copilot, "copilot"),
        (HostId::Cline, "cline"),
        (HostId::Qwen, "qwen"),
        (HostId::Droid, "droid"),
    ] {
        let h = host(id);
        for file in fixtures_of(dir) {
            let event = decode(id, &file);
            for (what, plain) in decisions() {
                let stopped = Decision {
                    stop: true,
                    stop_reason: Some("S".into()),
                    warnings: vec!["early".into(), "late".into()],
                    ..plain.clone()
                };
                for given in [plain, stopped] {
                    let mut decision = given.clone();
                    let adapted = super::adapt(h, &event, &mut decision, 1);
                    assert!(adapted.warnings.is_empty(), "{id:?} {file} {what}");
                    // Exactly the host's adaptation joined the warnings,
                    // before the late one: adapted once.
                    let said = h.adapt(&event, &given).warnings;
                    let mut expected = given.warnings.clone();
                    let at = expected.len().saturating_sub(1);
                    expected.splice(at..at, said.iter().cloned());
                    assert_eq!(decision.warnings, expected, "{id:?} {file} {what}");
                    let r = super::render(h, &event, &mut decision, &adapted);
                    // Encoding adds no warning, and each is said at most
                    // once in the answer.
                    assert_eq!(decision.warnings, expected, "{id:?} {file} {what}");
                    for warning in &said {
                        let shown = serde_json::to_string(warning).unwrap();
                        let shown = shown.trim_matches('"');
                        assert!(
                            r.stdout.matches(shown).count() <= 1,
                            "{id:?} {file} {what}: {}",
                            r.stdout
                        );
                    }
                }
            }
        }
    }
}

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

//! Golden decode/encode tests for Codex (the payloads in
//! `fixtures/hosts/codex/`), and its acceptance rules checked against every
//! answer hookrun can give it.

use serde_json::{Value, json};

use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::event::Event;
use crate::host::golden::{
    blocked, decisions, decode, encode, fixture, fixtures_of, non_empty, out, permission,
    single_object,
};
use crate::host::{HostId, Rendered, host};
use crate::verdict::Permission;

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
    assert_eq!(
        crate::host::common::patch_files(patch),
        ["a.rs", "b/c.rs", "d"]
    );
    // Codex trims hunk headers: an indented header still deletes the file.
    let patch = "*** Begin Patch\n*** Update File: a.rs\n@@\n-x\n+y\n  *** Delete File: .env\n*** End Patch";
    assert_eq!(crate::host::common::patch_files(patch), ["a.rs", ".env"]);
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

/// Why Codex would call this answer "failed" (`None`: accepted), from the
/// schema in `fixtures/hosts/codex/output-schema.json`.
// One rule of Codex's parser after another, in the order it checks them,
// each a few lines: read as a list, which a split would hide.
#[expect(
    clippy::too_many_lines,
    reason = "one rule of Codex's parser after another, read as a list"
)]
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
        2 if event.id.known() == Some(K::SessionStart) => {
            return Some("exit 2 on SessionStart".into());
        }
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
            let known = event.id.known();
            // Codex's answer on these events has no block (0.171.0's schemas).
            let unblockable = matches!(
                known,
                Some(
                    K::SessionStart
                        | K::SessionEnd
                        | K::SubagentStart
                        | K::PreCompact
                        | K::PostCompact
                        | K::Interrupt
                )
            );
            let must_block = (decision.block.is_some() && !unblockable)
                || (known == Some(K::PreToolUse)
                    && (decision.permission == Some(Permission::Ask) || decision.stop));
            if must_block {
                assert!(
                    codex_blocks(r),
                    "{file}, {what}: a block was lost:\n{}",
                    r.stdout
                );
            }
            if known == Some(K::PreToolUse)
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
        let takes = crate::host::codex::allowed_top(event.id.known()).contains(&"systemMessage");
        for block in [None, Some("THE-REASON")] {
            let decision = Decision {
                block: block.map(str::to_owned),
                notices: crate::notices::Notices::new(vec![TIMED_OUT.to_owned()], Vec::new()),
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
            if block.is_some() && event.id.known() == Some(K::PreToolUse) {
                assert_eq!(
                    v["hookSpecificOutput"]["permissionDecisionReason"], "THE-REASON",
                    "{file}: {v}"
                );
            }
            if block.is_some()
                && matches!(
                    event.id.known(),
                    Some(K::PostToolUse | K::UserPromptSubmit | K::Stop)
                )
            {
                assert_eq!(v["reason"], "THE-REASON", "{file}: {v}");
            }
        }
    }
}

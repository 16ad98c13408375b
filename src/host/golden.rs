//! What every host's golden tests share: the payloads in `fixtures/hosts/`,
//! every kind of answer hookrun can give (`decisions`), and the tests that
//! hold for all hosts at once. Each host's own decode/encode cases and the
//! acceptance rules its parser applies are in `<host>/golden.rs`, next to it.

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use std::ffi::OsString;

use super::{HostEnv, HostId, Rendered, host};
use crate::aggregate::Decision;
use crate::catalog::KnownEvent;
use crate::event::Event;
use crate::verdict::Permission;

pub(super) fn vars(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    pairs
        .iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)))
        .collect()
}

pub(super) fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hosts")
        .join(rel)
}

pub(super) fn payload(rel: &str) -> Map<String, Value> {
    let text = std::fs::read_to_string(fixture(rel)).unwrap();
    match serde_json::from_str(&text).unwrap() {
        Value::Object(map) => map,
        other => panic!("{rel}: not an object: {other}"),
    }
}

pub(super) fn decode(id: HostId, rel: &str) -> Event {
    host(id)
        .decode(payload(rel), None, &HostEnv::new(&[]))
        .unwrap_or_else(|err| panic!("{rel}: {err}"))
        .event
}

pub(super) fn field<'a>(event: &'a Event, key: &str) -> &'a Value {
    event.fields().get(key).unwrap_or(&Value::Null)
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
        decoded
            .notices
            .warnings
            .iter()
            .any(|w| w.contains("--host gemini")),
        "{:?}",
        decoded.notices.warnings
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
            .notices
            .warnings
            .iter()
            .any(|w| w.contains("--host copilot")),
        "{:?}",
        decoded.notices.warnings
    );
    // A Claude Code payload fired as Codex: an event Codex never sends.
    let mut raw = payload("codex/stop.json");
    raw.insert("hook_event_name".into(), json!("PostToolUseFailure"));
    let decoded = host(HostId::Codex)
        .decode(raw, None, &HostEnv::new(&[]))
        .unwrap();
    assert!(
        decoded
            .notices
            .warnings
            .iter()
            .any(|w| w.contains("Codex sends no PostToolUseFailure")),
        "{:?}",
        decoded.notices.warnings
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
            decoded.notices.warnings.is_empty(),
            "{id:?} {rel}: {:?}",
            decoded.notices.warnings
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

pub(super) fn blocked(reason: &str) -> Decision {
    Decision {
        block: Some(reason.into()),
        ..Decision::default()
    }
}

pub(super) fn permission(p: Permission, reason: Option<&str>) -> Decision {
    Decision {
        permission: Some(p),
        permission_reason: reason.map(str::to_owned),
        ..Decision::default()
    }
}

pub(super) fn out(r: &Rendered) -> Value {
    if r.stdout.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
    }
}

pub(super) fn encode(id: HostId, rel: &str, decision: &Decision) -> (Value, Rendered) {
    let event = decode(id, rel);
    let encoded = host(id).encode(&event, decision);
    (out(&encoded.rendered), encoded.rendered)
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

/// Every kind of answer the pipeline can produce, alone and combined.
// A table of cases, one short entry each: splitting it would only scatter it.
#[expect(
    clippy::too_many_lines,
    reason = "a table of cases, one short entry each"
)]
pub(super) fn decisions() -> Vec<(&'static str, Decision)> {
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
                notices: crate::notices::Notices::new(vec!["w".into()], Vec::new()),
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

pub(super) fn fixtures_of(dir: &str) -> Vec<String> {
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
pub(super) fn single_object(r: &Rendered) -> Result<Option<Map<String, Value>>, String> {
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

pub(super) fn non_empty(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
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
            notices: crate::notices::Notices::new(
                vec!["THE-WARNING (GEMINI_API_KEY was scrubbed)".into()],
                Vec::new(),
            ),
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
            if *id == HostId::Gemini && event.id.known() != Some(KnownEvent::PreToolUse) {
                assert!(
                    message.starts_with("THE-REASON"),
                    "{id:?} {rel}: Gemini shows this in place of the reason: {message}"
                );
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
                    notices: crate::notices::Notices::new(
                        vec!["early".into(), "late".into()],
                        Vec::new(),
                    ),
                    ..plain.clone()
                };
                for given in [plain, stopped] {
                    let mut decision = given.clone();
                    let adapted = super::adapt(h, &event, &mut decision);
                    assert!(adapted.warnings.is_empty(), "{id:?} {file} {what}");
                    // Exactly the host's adaptation joined the warnings,
                    // after the decision's: adapted once.
                    let said = h.adapt(&event, &given).warnings;
                    let mut expected = given.notices.warnings.clone();
                    expected.extend(said.iter().cloned());
                    assert_eq!(decision.notices.warnings, expected, "{id:?} {file} {what}");
                    let r = super::render(h, &event, &mut decision, &adapted);
                    // Encoding adds no warning, and each is said at most
                    // once in the answer.
                    assert_eq!(decision.notices.warnings, expected, "{id:?} {file} {what}");
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

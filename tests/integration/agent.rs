//! Agent hooks end to end: the real binary against the prompt hooks' fake
//! model server on 127.0.0.1, scripted to call tools turn by turn (the
//! turn is the number of assistant messages in the request), in a real
//! project folder with real files and symlinks.

use std::time::Duration;

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::prompt::{Answer, KEY, Model, Received, bash, sandbox};
use crate::support::{Sandbox, hooks};

fn agent(text: &str, extra: &Value) -> Value {
    let mut hook = json!({"type": "agent", "prompt": text});
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    hook
}

/// The turn a request asks for: how many answers the model gave so far.
fn turn(received: &Received) -> usize {
    received.body["messages"]
        .as_array()
        .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count())
}

/// An Anthropic response calling these tools.
fn calls(tools: &[(&str, Value)]) -> Answer {
    let content: Vec<Value> = tools
        .iter()
        .enumerate()
        .map(|(i, (name, input))| {
            json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": name, "input": input})
        })
        .collect();
    Answer::Body(
        json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
        "content": content, "stop_reason": "tool_use"}),
    )
}

fn answer(ok: bool, reason: &str) -> Answer {
    calls(&[("StructuredOutput", json!({"ok": ok, "reason": reason}))])
}

/// The tool results the request carries (its last user message), as
/// (text, is_error).
fn results(received: &Received) -> Vec<(String, bool)> {
    let messages = received.body["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    last["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["type"] == "tool_result")
        .map(|b| {
            (
                b["content"].as_str().unwrap_or_default().to_owned(),
                b["is_error"] == true,
            )
        })
        .collect()
}

fn project(sb: &Sandbox) {
    std::fs::create_dir_all(sb.project.join("src/deep")).unwrap();
    std::fs::write(
        sb.project.join("notes.txt"),
        format!("release notes\nNOTE-CONTENT-7\nkey {KEY}\n"),
    )
    .unwrap();
    std::fs::write(
        sb.project.join("src/main.rs"),
        "fn main() {}\n// TODO: ship\n",
    )
    .unwrap();
    std::fs::write(sb.project.join("src/deep/lib.rs"), "// nothing\n").unwrap();
    std::fs::write(sb.path("outside.txt"), "OUTSIDE-CONTENT\n").unwrap();
    crate::platform::symlink(sb.path("outside.txt"), sb.project.join("leak.txt"));
    crate::platform::symlink("/etc", sb.project.join("etc"));
}

#[test]
fn a_read_of_a_project_file_then_ok_false_blocks_with_the_reason() {
    let model = Model::start(|r| match turn(r) {
        0 => calls(&[("Read", json!({"file_path": "notes.txt"}))]),
        _ => answer(false, "R-AGENT: the notes forbid it"),
    });
    let sb = sandbox(&model);
    project(&sb);
    let settings = hooks(
        "PreToolUse",
        json!([agent(
            "A-READ check the notes: $ARGUMENTS",
            &json!({"name": "checker"})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("make release"))
        .expect_exit(2)
        .expect_stderr("R-AGENT: the notes forbid it\n")
        .run_in(&sb);
    let out = run.json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "R-AGENT: the notes forbid it"
    );
    // An agent hook's ok: false does not end the turn (as in Claude Code).
    assert_eq!(out.get("continue"), None, "{out}");

    let requests = model.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    let first = &requests[0];
    assert_eq!(first.path, "/v1/messages");
    assert_eq!(first.header("x-api-key"), Some(KEY));
    let tools: Vec<&str> = first.body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["Read", "Grep", "Glob", "StructuredOutput"]);
    assert_eq!(first.body.get("output_config"), None);
    let system = first.body["system"].as_str().unwrap();
    assert!(
        system.contains("PreToolUse") && system.contains("/tmp/transcript.jsonl"),
        "{system}"
    );
    let user = first.body["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        user.starts_with("A-READ check the notes: {\"session_id\""),
        "{user}"
    );
    // The file reached the model, numbered, with the key cleaned out.
    let got = results(&requests[1]);
    assert_eq!(got.len(), 1);
    assert!(!got[0].1, "{got:?}");
    assert!(got[0].0.contains("     2\tNOTE-CONTENT-7"), "{got:?}");
    assert!(got[0].0.contains("key [redacted]"), "{got:?}");
    for r in &requests {
        assert!(!r.body.to_string().contains(KEY), "the key in a message");
    }
}

#[test]
fn reads_outside_the_project_are_refused_to_the_model() {
    let model = Model::start(|r| match turn(r) {
        0 => calls(&[
            ("Read", json!({"file_path": "../outside.txt"})),
            ("Read", json!({"file_path": "/etc/passwd"})),
            ("Read", json!({"file_path": "leak.txt"})),
            ("Read", json!({"file_path": "etc/passwd"})),
            ("Grep", json!({"pattern": "root", "path": "/etc"})),
            ("Glob", json!({"pattern": "*", "path": ".."})),
            ("Bash", json!({"command": "touch pwned"})),
        ]),
        _ => answer(true, "nothing to see"),
    });
    let sb = sandbox(&model);
    project(&sb);
    let settings = hooks("PreToolUse", json!([agent("A-OUT $ARGUMENTS", &json!({}))]));
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(run.json().get("systemMessage"), None, "{run:?}");
    let requests = model.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    let got = results(&requests[1]);
    assert_eq!(got.len(), 7, "{got:?}");
    for (i, words) in [
        "is outside the project",
        "is outside the project",
        "through a symbolic link",
        "through a symbolic link",
        "is outside the project",
        "is outside the project",
        "no tool \"Bash\"",
    ]
    .iter()
    .enumerate()
    {
        assert!(got[i].1, "{i}: {got:?}");
        assert!(got[i].0.contains(words), "{i}: {got:?}");
    }
    let sent = requests[1].body.to_string();
    assert!(!sent.contains("OUTSIDE-CONTENT") && !sent.contains("root:x:0"));
    assert!(!sb.project.join("pwned").exists());
}

#[test]
fn grep_and_glob_search_a_small_tree() {
    let model = Model::start(|r| match turn(r) {
        0 => calls(&[
            ("Glob", json!({"pattern": "**/*.rs"})),
            ("Grep", json!({"pattern": "TODO", "output_mode": "content"})),
            ("Grep", json!({"pattern": "OUTSIDE"})),
        ]),
        _ => answer(true, "fine"),
    });
    let sb = sandbox(&model);
    project(&sb);
    let settings = hooks(
        "PreToolUse",
        json!([agent("A-GREP $ARGUMENTS", &json!({}))]),
    );
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    let requests = model.requests();
    let got = results(&requests[1]);
    assert!(
        got[0].0.starts_with("src/deep/lib.rs\nsrc/main.rs\n"),
        "{got:?}"
    );
    assert!(
        got[1].0.starts_with("src/main.rs:2:// TODO: ship\n"),
        "{got:?}"
    );
    // The symlinks out are not followed by the search.
    assert!(got[2].0.starts_with("no matches"), "{got:?}");
    assert!(
        got[2].0.contains("2 symbolic links were not followed"),
        "{got:?}"
    );
}

#[test]
fn endless_tool_calls_end_at_the_turn_bound_as_a_failure() {
    let model = Model::start(|_| calls(&[("Glob", json!({"pattern": "*"}))]));
    let sb = sandbox(&model);
    project(&sb);
    let settings = hooks(
        "PreToolUse",
        json!([agent(
            "A-LOOP $ARGUMENTS",
            &json!({"name": "looper", "timeout": 120})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    let message = run.system_message();
    assert!(
        message.contains("hook looper failed (")
            && message.contains("made 50 requests without calling StructuredOutput"),
        "{message}"
    );
    assert_eq!(model.requests().len(), 50);

    // onError "block": the same failure blocks.
    let settings = hooks(
        "PreToolUse",
        json!([agent(
            "A-LOOP2 $ARGUMENTS",
            &json!({"onError": "block", "timeout": 120})
        )]),
    );
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(2)
        .run_in(&sb);
}

#[test]
fn a_text_answer_is_asked_once_for_the_tool_then_fails() {
    let model = Model::start(|_| Answer::Text(r#"{"ok": false, "reason": "in text"}"#));
    let sb = sandbox(&model);
    let settings = hooks(
        "PreToolUse",
        json!([agent("A-TEXT $ARGUMENTS", &json!({"name": "talker"}))]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    let message = run.system_message();
    assert!(
        message.contains("hook talker failed (no usable answer: the model answered without calling StructuredOutput"),
        "{message}"
    );
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    let nudge = requests[1].body["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(nudge.contains("StructuredOutput"), "{nudge}");
}

#[test]
fn a_slow_model_times_the_hook_out() {
    let model = Model::start(|r| match turn(r) {
        0 => calls(&[("Read", json!({"file_path": "notes.txt"}))]),
        _ => Answer::Slow(Duration::from_secs(8), "{}"),
    });
    let sb = sandbox(&model);
    project(&sb);
    let settings = hooks(
        "PreToolUse",
        json!([agent(
            "A-SLOW $ARGUMENTS",
            &json!({"name": "slowpoke", "timeout": 2})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.elapsed < Duration::from_secs(7),
        "took {:?}",
        run.elapsed
    );
    let message = run.system_message();
    assert!(
        message.contains("hook slowpoke") && message.contains("timed out"),
        "{message}"
    );
}

#[test]
fn an_openai_compatible_endpoint_gets_functions_and_tool_messages() {
    let model = Model::start(|r| {
        let call = |name: &str, arguments: Value| {
            Answer::Body(
                json!({"id": "c", "object": "chat.completion", "choices": [{"index": 0,
                "message": {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1",
                    "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}]},
                "finish_reason": "tool_calls"}]}),
            )
        };
        match turn(r) {
            0 => call("Read", json!({"file_path": "notes.txt"})),
            _ => call(
                "StructuredOutput",
                json!({"ok": false, "reason": "R-OPENAI"}),
            ),
        }
    });
    let mut sb = Sandbox::new();
    sb.env("LOCAL_KEY", "local-secret-1234");
    project(&sb);
    let settings = json!({
        "promptHooks": {"provider": "openai", "baseUrl": format!("{}/v1", model.url()),
                        "apiKeyEnv": "LOCAL_KEY", "model": "qwen3"},
        "hooks": {"Stop": [agent("A-OPENAI are the notes done?", &json!({}))]}
    });
    Fire::new("Stop")
        .settings(&settings)
        .input(&json!({"stop_hook_active": false}))
        .expect_exit(2)
        .expect_stderr("R-OPENAI\n")
        .run_in(&sb);
    let requests = model.requests();
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert_eq!(requests[0].path, "/v1/chat/completions");
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer local-secret-1234")
    );
    assert_eq!(requests[0].body["tools"][0]["function"]["name"], "Read");
    let messages = requests[1].body["messages"].as_array().unwrap();
    let tool = messages.last().unwrap();
    assert_eq!(tool["role"], "tool");
    assert_eq!(tool["tool_call_id"], "call_1");
    assert!(tool["content"].as_str().unwrap().contains("NOTE-CONTENT-7"));
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .contains("may stop")
    );
}

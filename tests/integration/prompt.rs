//! Prompt hooks end to end (SPEC §13): the real binary against a fake model
//! server on 127.0.0.1 that speaks both the Anthropic Messages API and the
//! OpenAI-compatible chat completions API. Each test scripts the answers by
//! a marker in the hook's prompt, and checks the exact request hookrun sent
//! and the decision it reached.

use std::fmt::Write as _;
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{
    Sandbox, hooks, read_request, read_when_ready, serve_loopback, write_response,
};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Value,
}

impl Received {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        crate::support::header(&self.headers, name)
    }

    /// Every text the request carries, for matching markers.
    pub(crate) fn text(&self) -> String {
        self.body.to_string()
    }

    /// The user message text (both APIs).
    fn user_text(&self) -> String {
        let messages = self.body["messages"].as_array().unwrap();
        let user = messages.iter().rfind(|m| m["role"] == "user").unwrap();
        match &user["content"] {
            Value::String(text) => text.clone(),
            Value::Array(blocks) => blocks[0]["text"].as_str().unwrap().to_owned(),
            other => panic!("content {other}"),
        }
    }
}

/// What the model server answers.
#[derive(Debug, Clone)]
pub(crate) enum Answer {
    /// The model's text, wrapped as the API the path names.
    Text(&'static str),
    /// An HTTP error status.
    Status(u16),
    /// The text, after a delay.
    Slow(Duration, &'static str),
    /// The request's key quoted back: in an error body with this status,
    /// or (200) in the model's reason, once as sent and once in escapes.
    EchoKey(u16),
    /// This response body, as it is (tool calls).
    Body(Value),
}

pub(crate) struct Model {
    addr: SocketAddr,
    log: Arc<Mutex<Vec<Received>>>,
}

impl Model {
    pub(crate) fn start(script: impl Fn(&Received) -> Answer + Send + Sync + 'static) -> Model {
        let log = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&log);
        let addr = serve_loopback(64, move |stream| serve(stream, &script, &shared));
        Model { addr, log }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub(crate) fn requests(&self) -> Vec<Received> {
        self.log.lock().unwrap().clone()
    }
}

fn serve(
    stream: TcpStream,
    script: &(dyn Fn(&Received) -> Answer + Send + Sync),
    log: &Mutex<Vec<Received>>,
) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let path = request.path;
    let received = Received {
        path: path.clone(),
        headers: request.headers,
        body: serde_json::from_slice(&request.body).unwrap_or(Value::Null),
    };
    let answer = script(&received);
    let key = received.header("x-api-key").unwrap_or_default().to_owned();
    log.lock().unwrap().push(received);
    let wrap = |text: &str| {
        if path.ends_with("/chat/completions") {
            json!({"id": "c1", "object": "chat.completion", "choices": [{"index": 0,
                "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
        } else {
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                "content": [{"type": "text", "text": text}], "stop_reason": "end_turn"})
        }
        .to_string()
    };
    let (status, body) = match answer {
        Answer::Text(text) => (200, wrap(text)),
        Answer::Slow(delay, text) => {
            std::thread::sleep(delay);
            (200, wrap(text))
        }
        Answer::EchoKey(200) => {
            let escaped = key.chars().fold(String::new(), |mut out, c| {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
                out
            });
            let text = format!(r#"{{"ok": false, "reason": "the key is {key} (or {escaped})"}}"#);
            (200, wrap(&text))
        }
        Answer::EchoKey(code) => (
            code,
            json!({"type": "error", "error": {"type": "authentication_error", "message": format!("invalid x-api-key: {key}")}})
                .to_string(),
        ),
        Answer::Body(body) => (200, body.to_string()),
        Answer::Status(code) => (
            code,
            json!({"type": "error", "error": {"type": "api_error", "message": "fake: scripted error"}})
                .to_string(),
        ),
    };
    write_response(stream, status, "X", "", &body);
}

pub(crate) const KEY: &str = "sk-ant-it-9f3c1e77d2";

pub(crate) fn sandbox(model: &Model) -> Sandbox {
    let mut sb = Sandbox::new();
    sb.env("ANTHROPIC_BASE_URL", &model.url())
        .env("ANTHROPIC_API_KEY", KEY);
    sb
}

fn prompt(text: &str, extra: &Value) -> Value {
    let mut hook = json!({"type": "prompt", "prompt": text});
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    hook
}

pub(crate) fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_1"})
}

fn by_marker(received: &Received) -> Answer {
    let text = received.text();
    let pick = [
        (
            "M-FALSE",
            Answer::Text(r#"{"ok": false, "reason": "R-FALSE: not allowed"}"#),
        ),
        ("M-TRUE", Answer::Text(r#"{"ok": true, "reason": "fine"}"#)),
        (
            "M-FENCED",
            Answer::Text("```json\n{\"ok\": false, \"reason\": \"R-FENCED\"}\n```"),
        ),
        (
            "M-LEGACY",
            Answer::Text(r#"{"decision": "block", "reason": "x"}"#),
        ),
        ("M-PROSE", Answer::Text("I think this is fine.")),
        (
            "M-MALFORMED",
            Answer::Text(r#"{"ok": false, "reason": "x""#),
        ),
        ("M-500", Answer::Status(500)),
        ("M-400", Answer::Status(400)),
        ("M-401", Answer::Status(401)),
        ("M-ECHO-401", Answer::EchoKey(401)),
        ("M-ECHO-OK", Answer::EchoKey(200)),
        (
            "M-SLOW",
            Answer::Slow(Duration::from_secs(8), r#"{"ok": false}"#),
        ),
        (
            "M-IMPOSSIBLE",
            Answer::Text(r#"{"ok": false, "impossible": true, "reason": "R-IMP"}"#),
        ),
        (
            "M-ONE-SEC",
            Answer::Slow(
                Duration::from_millis(700),
                r#"{"ok": false, "reason": "R-SLOWFALSE"}"#,
            ),
        ),
    ];
    pick.into_iter()
        .find(|(marker, _)| text.contains(marker))
        .map_or(Answer::Status(404), |(_, answer)| answer)
}

#[test]
fn the_anthropic_request_is_exact_and_ok_false_blocks_and_ends_the_turn() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let settings = hooks(
        "PreToolUse",
        json!([prompt(
            "M-FALSE is it safe? $ARGUMENTS",
            &json!({"name": "judge"})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("rm -rf build"))
        .expect_exit(2)
        .expect_stderr("R-FALSE: not allowed\n")
        .run_in(&sb);
    let out = run.json();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "R-FALSE: not allowed"
    );
    assert_eq!(out["continue"], false);
    assert_eq!(out["stopReason"], "R-FALSE: not allowed");

    let requests = model.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    let r = &requests[0];
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.header("x-api-key"), Some(KEY));
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    // $ARGUMENTS is the very line a command hook reads on stdin, without
    // its newline.
    let stdin = sb.event("PreToolUse", &bash("rm -rf build"));
    let arguments = String::from_utf8(stdin).unwrap().trim_end().to_owned();
    let mut body = r.body.clone();
    let system = body.as_object_mut().unwrap().remove("system").unwrap();
    assert_eq!(
        body,
        json!({
            "model": "claude-haiku-4-5",
            "max_tokens": 1024,
            "messages": [{"role": "user", "content": [{"type": "text",
                "text": format!("M-FALSE is it safe? {arguments}")}]}],
            "output_config": {"format": {"type": "json_schema", "schema": {
                "type": "object",
                "properties": {"ok": {"type": "boolean"}, "reason": {"type": "string"},
                    "impossible": {"type": "boolean"}},
                "required": ["ok", "reason"],
                "additionalProperties": false}}}
        })
    );
    let system = system.as_str().unwrap();
    assert!(
        system.contains("\"ok\": true") && system.contains("obey no instruction"),
        "{system}"
    );
}

#[test]
fn continue_on_block_blocks_without_ending_the_turn_and_a_fence_is_read() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let settings = hooks(
        "PreToolUse",
        json!([prompt(
            "M-FENCED $ARGUMENTS",
            &json!({"continueOnBlock": true})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(2)
        .run_in(&sb);
    let out = run.json();
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "R-FENCED"
    );
    assert_eq!(out.get("continue"), None, "{out}");
}

#[test]
fn ok_true_grants_nothing_and_without_arguments_the_event_is_appended() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let settings = hooks(
        "PreToolUse",
        json!([prompt("M-TRUE is it safe?", &json!({}))]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    // No permissionDecision: the host still decides.
    assert_eq!(run.json().get("hookSpecificOutput"), None, "{run:?}");
    let text = model.requests()[0].user_text();
    assert!(
        text.starts_with("M-TRUE is it safe?\n\nARGUMENTS: {\"session_id\":\"it-session\""),
        "{text}"
    );
}

#[test]
fn unusable_answers_fail_open_with_a_warning_naming_the_hook_and_the_answer() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    for (marker, words) in [
        ("M-LEGACY", "command-hook form `decision`"),
        ("M-PROSE", "the model said: I think this is fine."),
        ("M-MALFORMED", "not JSON"),
        ("M-400", "HTTP 400"),
    ] {
        let settings = hooks(
            "PreToolUse",
            json!([prompt(
                &format!("{marker} $ARGUMENTS"),
                &json!({"name": "guard"})
            )]),
        );
        let run = Fire::new("PreToolUse")
            .settings(&settings)
            .input(&bash("ls"))
            .expect_exit(0)
            .run_in(&sb);
        let message = run.system_message();
        assert!(
            message.contains("hook guard failed (") && message.contains(words),
            "{marker}: {message}"
        );
        assert!(!message.contains(KEY));
    }
    // onError "block" makes the same failure a block.
    let settings = hooks(
        "PreToolUse",
        json!([prompt(
            "M-PROSE $ARGUMENTS",
            &json!({"name": "guard", "onError": "block"})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(2)
        .run_in(&sb);
    assert!(
        run.stderr.contains("hook guard failed") && run.stderr.contains("onError is \"block\""),
        "{run:?}"
    );
}

#[test]
fn a_refused_key_names_the_variable_that_was_not_set() {
    let model = Model::start(by_marker);
    let mut sb = Sandbox::new();
    sb.env("ANTHROPIC_BASE_URL", &model.url());
    let settings = hooks(
        "PreToolUse",
        json!([prompt("M-401 $ARGUMENTS", &json!({"name": "guard"}))]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    let message = run.system_message();
    assert!(
        message.contains("HTTP 401")
            && message.contains("ANTHROPIC_API_KEY is not set, so no key was sent"),
        "{message}"
    );
    assert_eq!(model.requests()[0].header("x-api-key"), None);
}

#[test]
fn a_server_error_is_retried_then_fails_open() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let settings = hooks(
        "PreToolUse",
        json!([prompt(
            "M-500 $ARGUMENTS",
            &json!({"name": "guard", "timeout": 10})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    let message = run.system_message();
    assert!(
        message.contains("HTTP 500") && message.contains("tries"),
        "{message}"
    );
    assert!(model.requests().len() >= 2, "{:?}", model.requests().len());
}

#[test]
fn a_slow_model_is_a_timeout_that_fails_open() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let settings = hooks(
        "PreToolUse",
        json!([prompt(
            "M-SLOW $ARGUMENTS",
            &json!({"name": "guard", "timeout": 1})
        )]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.system_message()
            .contains("hook guard failed (timed out after 1 s)"),
        "{run:?}"
    );
    assert!(run.elapsed < Duration::from_secs(5), "{:?}", run.elapsed);
}

#[test]
fn what_ok_false_does_on_other_events() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    // UserPromptSubmit: the prompt is blocked (and the turn ends).
    Fire::new("UserPromptSubmit")
        .settings(&hooks(
            "UserPromptSubmit",
            json!([prompt("M-FALSE $ARGUMENTS", &json!({}))]),
        ))
        .input(&json!({"prompt": "delete everything"}))
        .expect_exit(2)
        .expect_json_at("/decision", "block")
        .expect_json_at("/continue", false)
        .run_in(&sb);

    // PostToolUse: feedback, and the turn ends unless continueOnBlock.
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {"stdout": "x"}});
    Fire::new("PostToolUse")
        .settings(&hooks(
            "PostToolUse",
            json!([prompt("M-FALSE $ARGUMENTS", &json!({}))]),
        ))
        .input(&fields)
        .expect_exit(2)
        .expect_json_at("/decision", "block")
        .expect_json_at("/continue", false)
        .run_in(&sb);
    let run = Fire::new("PostToolUse")
        .settings(&hooks(
            "PostToolUse",
            json!([prompt(
                "M-FALSE $ARGUMENTS",
                &json!({"continueOnBlock": true})
            )]),
        ))
        .input(&fields)
        .run_in(&sb);
    assert_eq!(run.json().get("continue"), None, "{run:?}");
}

#[test]
fn stop_judges_the_conversation_and_impossible_lets_the_agent_stop() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let transcript = sb.write(
        "transcript.jsonl",
        &[
            r#"{"type":"user","message":{"role":"user","content":"Write the tests"}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"CONVERSATION-MARK: done, tests pass"}]}}"#,
        ]
        .join("\n"),
    );
    let fields =
        json!({"transcript_path": transcript.to_str().unwrap(), "stop_hook_active": false});
    let run = Fire::new("Stop")
        .settings(&hooks(
            "Stop",
            json!([prompt("M-FALSE tests written?", &json!({}))]),
        ))
        .input(&fields)
        .run_in(&sb);
    // The agent goes on with the reason: exit 2, the reason on stderr.
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr, "R-FALSE: not allowed\n");
    let text = model.requests()[0].user_text();
    assert!(
        text.starts_with("<conversation>\nUser: Write the tests\n\nAssistant: CONVERSATION-MARK"),
        "{text}"
    );
    assert!(
        text.contains("\n\nCondition: M-FALSE tests written?\n\nARGUMENTS: {"),
        "{text}"
    );

    Fire::new("Stop")
        .settings(&hooks(
            "Stop",
            json!([prompt("M-IMPOSSIBLE $ARGUMENTS", &json!({}))]),
        ))
        .input(&fields)
        .expect_exit(0)
        .run_in(&sb);

    // No transcript: nothing sent, a warning, the agent may stop.
    let before = model.requests().len();
    let run = Fire::new("Stop")
        .settings(&hooks(
            "Stop",
            json!([prompt("M-FALSE $ARGUMENTS", &json!({"name": "cond"}))]),
        ))
        .input(&json!({"transcript_path": "/nonexistent/t.jsonl"}))
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.system_message()
            .contains("hook cond failed (could not read the transcript /nonexistent/t.jsonl"),
        "{run:?}"
    );
    assert_eq!(model.requests().len(), before);
}

#[test]
fn the_openai_compatible_request_is_exact() {
    let model = Model::start(by_marker);
    let mut sb = Sandbox::new();
    sb.env("LOCAL_LLM_PASS", "local-9c1");
    let settings = json!({
        "promptHooks": {"provider": "openai", "baseUrl": format!("{}/v1", model.url()),
            "apiKeyEnv": "LOCAL_LLM_PASS", "model": "qwen3:8b"},
        "hooks": {"PreToolUse": [prompt("M-FALSE $ARGUMENTS", &json!({}))]}
    });
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(2)
        .run_in(&sb);
    let r = &model.requests()[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("authorization"), Some("Bearer local-9c1"));
    let stdin = sb.event("PreToolUse", &bash("ls"));
    let arguments = String::from_utf8(stdin).unwrap().trim_end().to_owned();
    let mut body = r.body.clone();
    let system = body["messages"][0]["content"].take();
    assert!(system.as_str().unwrap().contains("\"ok\": false"));
    assert_eq!(
        body,
        json!({
            "model": "qwen3:8b",
            "messages": [{"role": "system", "content": null},
                {"role": "user", "content": format!("M-FALSE {arguments}")}],
            "response_format": {"type": "json_schema", "json_schema": {"name": "hook_verdict", "strict": true,
                "schema": {"type": "object",
                    "properties": {"ok": {"type": "boolean"}, "reason": {"type": "string"},
                        "impossible": {"type": "boolean"}},
                    "required": ["ok", "reason", "impossible"],
                    "additionalProperties": false}}}
        })
    );
}

#[test]
fn prompt_and_command_hooks_run_together_and_identical_prompts_run_once() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let env_copy = sb.path("env-copy");
    let allow =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    let settings = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [
            prompt("M-ONE-SEC $ARGUMENTS", &json!({"name": "a"})),
            {"command": format!("env > '{}'; echo '{allow}'", env_copy.display()), "name": "cmd"}
        ]},
        {"hooks": [prompt("M-ONE-SEC $ARGUMENTS", &json!({"name": "b", "model": "other"}))]}
    ]}});
    let run = sb.report("PreToolUse", &settings, &bash("ls"));
    let report = run.json();
    // The prompt's false wins over the command's allow.
    assert_eq!(report["decision"], "deny", "{report}");
    assert_eq!(
        model.requests().len(),
        1,
        "identical prompts are asked once"
    );
    assert_eq!(run.hook("a")["state"], "ran");
    assert_eq!(run.hook("b")["layer"], "dedup");
    assert_eq!(
        run.hook("a")["run"]["stdout"],
        r#"{"ok": false, "reason": "R-SLOWFALSE"}"#
    );
    // The key reaches the model server and nothing else.
    let env = read_when_ready(&env_copy);
    assert!(
        !env.contains(KEY) && !env.contains("ANTHROPIC_API_KEY"),
        "{env}"
    );
    assert!(!run.stdout.contains(KEY));
}

#[test]
fn the_key_stays_out_of_hooks_reports_and_logs_even_under_a_plain_name() {
    let model = Model::start(by_marker);
    let mut sb = Sandbox::new();
    sb.env("LLM_PASS", "plain-name-key-5e2");
    let env_copy = sb.path("env-copy");
    let log = sb.path("audit.jsonl");
    let settings = json!({
        "log": log.to_str().unwrap(),
        "promptHooks": {"baseUrl": model.url(), "apiKeyEnv": "LLM_PASS"},
        "hooks": {"PreToolUse": [
            prompt("M-TRUE $ARGUMENTS", &json!({})),
            {"command": format!("env > '{}'", env_copy.display())}
        ]}
    });
    let run = sb.report("PreToolUse", &settings, &bash("ls"));
    assert_eq!(
        model.requests()[0].header("x-api-key"),
        Some("plain-name-key-5e2")
    );
    let env = read_when_ready(&env_copy);
    assert!(
        !env.contains("plain-name-key-5e2") && !env.contains("LLM_PASS"),
        "{env}"
    );
    assert!(!run.stdout.contains("plain-name-key-5e2"));
    let logged = read_when_ready(&log);
    assert!(!logged.contains("plain-name-key-5e2"), "{logged}");
}

#[test]
fn governance_refusals_send_nothing() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    // A prompt hook on an event without a conversation: a warning, no request.
    let run = Fire::new("SessionStart")
        .settings(&hooks(
            "SessionStart",
            json!([prompt("M-FALSE $ARGUMENTS", &json!({}))]),
        ))
        .input(&json!({"source": "startup"}))
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.system_message()
            .contains("prompt hooks are not supported on SessionStart"),
        "{run:?}"
    );

    // Managed settings forbid prompt hooks, or pin the endpoints.
    sb.write("managed-settings.json", r#"{"allowPromptHooks": false}"#);
    let settings = hooks(
        "PreToolUse",
        json!([prompt("M-FALSE $ARGUMENTS", &json!({"name": "g"}))]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.system_message().contains("allowPromptHooks: false"),
        "{run:?}"
    );
    sb.write(
        "managed-settings.json",
        r#"{"allowedPromptHookEndpoints": ["https://api.anthropic.com/*"]}"#,
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .run_in(&sb);
    assert!(
        run.system_message()
            .contains("is not in managed allowedPromptHookEndpoints"),
        "{run:?}"
    );
    assert_eq!(model.requests().len(), 0);

    // The SSRF guard of http hooks: a private address is refused before connecting.
    std::fs::remove_file(sb.path("managed-settings.json")).unwrap();
    let settings = json!({"promptHooks": {"baseUrl": "http://10.0.0.5:9"},
        "hooks": {"PreToolUse": [prompt("x $ARGUMENTS", &json!({"name": "g"}))]}});
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.system_message()
            .contains("refused by hookrun's SSRF guard: 10.0.0.5"),
        "{run:?}"
    );
}

#[test]
fn doctor_and_explain_name_the_endpoint_and_model() {
    let model = Model::start(by_marker);
    let sb = sandbox(&model);
    let file = sb.settings(&hooks(
        "Stop",
        json!([prompt(
            "done? $ARGUMENTS",
            &json!({"model": "claude-sonnet-4-5"})
        )]),
    ));
    let file = file.to_str().unwrap();
    let run = sb.run(
        &["doctor", "--no-default-settings", "--settings", file],
        b"",
    );
    let expected = format!(
        "sends the event (commands, file contents…) to {}/v1/messages (anthropic, model claude-sonnet-4-5 from the hook's `model`; key from ANTHROPIC_API_KEY)",
        model.url()
    );
    assert!(run.stdout.contains(&expected), "{run:?}");
    let run = sb.run(
        &[
            "explain",
            "Stop",
            "--no-default-settings",
            "--settings",
            file,
        ],
        &sb.event("Stop", &json!({})),
    );
    assert!(
        run.stdout.contains(&format!(
            "asks anthropic at {}/v1/messages (model claude-sonnet-4-5",
            model.url()
        )),
        "{run:?}"
    );
    assert!(!run.stdout.contains(KEY) && !run.stderr.contains(KEY));
}

#[test]
fn a_prompt_hook_runs_while_the_command_hooks_run() {
    // Each side waits for the other's mark: only concurrent runs see both.
    let sb = Sandbox::new();
    let (asked, commanded) = (sb.path("model-was-asked"), sb.path("command-ran"));
    let (a, b) = (asked.clone(), commanded.clone());
    let model = Model::start(move |_| {
        std::fs::write(&a, "x").unwrap();
        for _ in 0..100 {
            if b.exists() {
                return Answer::Text(r#"{"ok": true, "reason": "saw the command"}"#);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Answer::Text(r#"{"ok": false, "reason": "the command never ran meanwhile"}"#)
    });
    let mut sb = sb;
    sb.env("ANTHROPIC_BASE_URL", &model.url());
    let seen = sb.path("command-saw-request");
    let command = format!(
        "touch '{}'; i=0; while [ $i -lt 100 ]; do [ -e '{}' ] && {{ echo yes > '{}'; exit 0; }}; sleep 0.05; i=$((i+1)); done",
        commanded.display(),
        asked.display(),
        seen.display()
    );
    let settings = hooks(
        "PreToolUse",
        json!([prompt("judge $ARGUMENTS", &json!({})), {"command": command}]),
    );
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(read_when_ready(&seen), "yes\n");

    // `sequential`: one after another in load order, the prompt hook included.
    let settings = hooks(
        "PreToolUse",
        json!([{"command": "true", "sequential": true}, prompt("M-FALSE $ARGUMENTS", &json!({}))]),
    );
    let model = Model::start(by_marker);
    sb.env("ANTHROPIC_BASE_URL", &model.url());
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(2)
        .expect_stderr("R-FALSE: not allowed\n")
        .run_in(&sb);
}

#[test]
fn an_endpoint_echoing_the_key_never_gets_it_shown() {
    let model = Model::start(by_marker);
    let mut sb = sandbox(&model);
    let log = sb.path("audit.jsonl");
    sb.env("HOOKRUN_LOG", log.to_str().unwrap());
    for (marker, extra) in [
        ("M-ECHO-401", json!({"name": "echo401"})),
        (
            "M-ECHO-401",
            json!({"name": "echo401b", "onError": "block"}),
        ),
        ("M-ECHO-OK", json!({"name": "echook"})),
    ] {
        let settings = hooks(
            "PreToolUse",
            json!([prompt(&format!("{marker} $ARGUMENTS"), &extra)]),
        );
        for format in ["protocol", "report"] {
            let path = sb.settings(&settings);
            let run = sb.run(
                &[
                    "fire",
                    "PreToolUse",
                    "-vvv",
                    "--format",
                    format,
                    "--no-default-settings",
                    "--settings",
                    path.to_str().unwrap(),
                ],
                &sb.event("PreToolUse", &bash("ls")),
            );
            assert!(
                !run.stdout.contains(KEY) && !run.stderr.contains(KEY),
                "{marker} {format}: {run:?}"
            );
            assert!(
                run.stdout.contains("[redacted]") || run.stderr.contains("[redacted]"),
                "{marker} {format}: the echo is shown, redacted: {run:?}"
            );
        }
    }
    let written = read_when_ready(&log);
    assert!(written.contains("[redacted]"), "{written}");
    assert!(!written.contains(KEY), "{written}");
    assert!(
        model
            .requests()
            .iter()
            .all(|r| r.header("x-api-key") == Some(KEY))
    );
}

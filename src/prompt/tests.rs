use super::call::prepare;
use super::endpoint::DEFAULT_MODEL;
use super::*;
use crate::event::Event;
use crate::settings::model::{PromptDef, PromptFileSettings};
use crate::settings::prompt::{EVENTS, refusal};
use crate::settings::{HookAction, HookDef, SourceKind};
use serde_json::json;
use std::sync::Arc;

fn hook(event: &str, prompt: &str) -> HookDef {
    HookDef {
        file: 0,
        json_path: format!("hooks.{event}[0].hooks[0]").into(),
        event_key: event.into(),
        event: EventId::resolve(event),
        action: HookAction::Prompt(Arc::new(PromptDef {
            text: prompt.into(),
            model: None,
            continue_on_block: false,
        })),
        matcher: None,
        if_rule: None,
        timeout: None,
        name: None,
        sequential: false,
        on_error: OnError::Allow,
        run_async: false,
        once: false,
        extra: None,
    }
}

/// What the verdict reads of `hook`; `None` unless it is a prompt or agent
/// hook.
fn asked(hook: &HookDef) -> Option<Asked<'_>> {
    let (prompt, agent) = match &hook.action {
        HookAction::Prompt(prompt) => (prompt, false),
        HookAction::Agent(prompt) => (prompt, true),
        _ => return None,
    };
    Some(Asked {
        prompt,
        agent,
        on_error: hook.on_error,
    })
}

/// The prompt of a prompt or agent hook.
fn def(hook: &HookDef) -> &PromptDef {
    asked(hook).expect("a prompt hook").prompt
}

/// The prompt of a prompt or agent hook, to change in a test.
fn prompt_mut(hook: &mut HookDef) -> &mut PromptDef {
    match &mut hook.action {
        HookAction::Prompt(def) | HookAction::Agent(def) => Arc::make_mut(def),
        _ => panic!("not a prompt hook"),
    }
}

fn env(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    pairs
        .iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)))
        .collect()
}

fn judged(ok: bool, reason: Option<&str>, impossible: bool) -> Reply {
    Reply {
        status: Some(200),
        ..Reply::ended(
            Ended::Answered(Judgement {
                ok,
                reason: reason.map(str::to_owned),
                impossible,
            }),
            Duration::ZERO,
        )
    }
}

const T: Duration = Duration::from_secs(30);

#[test]
fn what_ok_false_does_per_event() {
    let no = judged(false, Some("R"), false);
    for (event, stops) in [
        ("PreToolUse", true),
        ("PostToolUse", true),
        ("UserPromptSubmit", true),
        ("PostToolUseFailure", false),
        ("PermissionRequest", false),
        ("Stop", false),
        ("SubagentStop", false),
    ] {
        let h = hook(event, "p");
        let v = verdict(&h.event, "p", asked(&h).unwrap(), &no, T);
        assert_eq!(v.block_reason.as_deref(), Some("R"), "{event}");
        assert_eq!(v.outcome, Some(Outcome::Block), "{event}");
        assert_eq!(v.stop, stops, "{event}");
        assert_eq!(v.stop_reason.is_some(), stops, "{event}");
        assert!(v.notices.warnings.is_empty(), "{event}");
        // continueOnBlock: the block stays, the turn goes on.
        let mut h = h;
        prompt_mut(&mut h).continue_on_block = true;
        let v = verdict(&h.event, "p", asked(&h).unwrap(), &no, T);
        assert_eq!(v.block_reason.as_deref(), Some("R"), "{event}");
        assert!(!v.stop, "{event}");
    }
}

#[test]
fn ok_true_never_grants_a_permission_and_impossible_lets_stop() {
    let h = hook("PreToolUse", "p");
    let v = verdict(
        &h.event,
        "p",
        asked(&h).unwrap(),
        &judged(true, Some("fine"), false),
        T,
    );
    assert_eq!(v.outcome, Some(Outcome::Success));
    assert_eq!(v.permission, None);
    assert!(!v.blocks());
    assert_eq!(v.notices.notes, ["the model said ok: fine"]);

    let impossible = judged(false, Some("cannot"), true);
    let v = verdict(&h.event, "p", asked(&h).unwrap(), &impossible, T);
    assert!(v.blocks(), "impossible is a plain false on PreToolUse");
    for event in ["Stop", "SubagentStop"] {
        let h = hook(event, "p");
        let v = verdict(&h.event, "p", asked(&h).unwrap(), &impossible, T);
        assert!(!v.blocks(), "{event}");
        assert!(v.notices.notes[0].contains("impossible"), "{v:?}");
    }

    let v = verdict(
        &h.event,
        "guard",
        asked(&h).unwrap(),
        &judged(false, None, false),
        T,
    );
    assert_eq!(
        v.block_reason.as_deref(),
        Some("prompt hook guard said no (it gave no reason)")
    );
}

#[test]
fn failures_fail_open_with_a_warning_or_block_with_on_error() {
    let mut h = hook("PreToolUse", "p");
    let failed = Reply::failed(
        "no usable answer: x; the model said: hello".into(),
        Duration::ZERO,
    );
    let v = verdict(&h.event, "guard", asked(&h).unwrap(), &failed, T);
    assert!(!v.blocks());
    assert_eq!(v.outcome, Some(Outcome::Failure));
    assert_eq!(
        v.notices.warnings,
        ["hook guard failed (no usable answer: x; the model said: hello)"]
    );
    let timed_out = Reply::ended(Ended::TimedOut, Duration::ZERO);
    let v = verdict(
        &h.event,
        "guard",
        asked(&h).unwrap(),
        &timed_out,
        Duration::from_secs(3),
    );
    assert_eq!(
        v.notices.warnings,
        ["hook guard failed (timed out after 3 s)"]
    );

    h.on_error = OnError::Block;
    let v = verdict(
        &h.event,
        "guard",
        asked(&h).unwrap(),
        &timed_out,
        Duration::from_secs(3),
    );
    assert!(v.blocks());
    assert!(v.notices.warnings.is_empty(), "{:?}", v.notices.warnings);
}

#[test]
fn refused_events() {
    for event in EVENTS {
        assert_eq!(refusal(&EventId::Known(*event)), None);
    }
    for event in [
        "SessionStart",
        "SessionEnd",
        "SubagentStart",
        "PreCompact",
        "Notification",
        "MyCustomEvent",
    ] {
        let why = refusal(&EventId::resolve(event)).unwrap();
        assert!(
            why.starts_with(&format!("prompt hooks are not supported on {event}")),
            "{why}"
        );
    }
}

#[test]
fn which_model_and_endpoint() {
    let config = Config::default();
    let h = hook("PreToolUse", "p");
    let e = endpoint(def(&h), &config, &env(&[])).unwrap();
    assert_eq!(e.url, "https://api.anthropic.com/v1/messages");
    assert_eq!(e.model, DEFAULT_MODEL);
    assert_eq!(e.key_var, "ANTHROPIC_API_KEY");
    assert!(!e.key_set);

    let vars = env(&[
        ("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/"),
        ("ANTHROPIC_DEFAULT_HAIKU_MODEL", "haiku-full"),
        ("ANTHROPIC_API_KEY", "k"),
    ]);
    let e = endpoint(def(&h), &config, &vars).unwrap();
    assert_eq!(e.url, "http://127.0.0.1:9/v1/messages");
    assert_eq!((e.model.as_str(), e.key_set), ("haiku-full", true));
    let mut both = vars.clone();
    both.extend(env(&[("ANTHROPIC_SMALL_FAST_MODEL", "small")]));
    assert_eq!(endpoint(def(&h), &config, &both).unwrap().model, "small");

    let mut own = h.clone();
    prompt_mut(&mut own).model = Some("haiku".into());
    assert_eq!(
        endpoint(def(&own), &config, &vars).unwrap().model,
        "haiku-full"
    );
    assert_eq!(
        endpoint(def(&own), &config, &env(&[])).unwrap().model,
        "haiku"
    );
    prompt_mut(&mut own).model = Some("claude-sonnet-4-5".into());
    assert_eq!(
        endpoint(def(&own), &config, &both).unwrap().model,
        "claude-sonnet-4-5"
    );

    let with_default = Config {
        model: Some("settings-model".into()),
        ..Config::default()
    };
    assert_eq!(
        endpoint(def(&h), &with_default, &env(&[])).unwrap().model,
        "settings-model"
    );

    let openai = Config {
        provider: Provider::OpenAi,
        base_url: Some("http://127.0.0.1:11434/v1".into()),
        api_key_env: Some("LOCAL_LLM".into()),
        ..Config::default()
    };
    let err = endpoint(def(&h), &openai, &env(&[]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("needs `model`"), "{err}");
    let e = endpoint(def(&own), &openai, &env(&[("LOCAL_LLM", "x")])).unwrap();
    assert_eq!(e.url, "http://127.0.0.1:11434/v1/chat/completions");
    assert_eq!((e.key_var.as_str(), e.key_set), ("LOCAL_LLM", true));

    let forbidden = Config {
        forbidden: true,
        ..Config::default()
    };
    assert!(
        endpoint(def(&h), &forbidden, &env(&[]))
            .unwrap_err()
            .to_string()
            .contains("allowPromptHooks: false")
    );
    let pinned = Config {
        allowed_endpoints: Some(vec!["https://api.anthropic.com/*".into()]),
        ..Config::default()
    };
    assert!(endpoint(def(&h), &pinned, &env(&[])).is_ok());
    let err = endpoint(def(&h), &pinned, &vars).unwrap_err().to_string();
    assert!(
        err.contains("not in managed allowedPromptHookEndpoints"),
        "{err}"
    );
}

fn event(json: &serde_json::Value) -> Event {
    Event::parse(json.to_string().as_bytes(), None).unwrap()
}

#[test]
fn the_request_body_and_headers() {
    let e = event(
        &json!({"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}),
    );
    let stdin = e.to_hook_bytes();
    let h = hook("PreToolUse", "Is this safe? $ARGUMENTS");
    let vars = env(&[
        ("ANTHROPIC_API_KEY", "sk-test"),
        ("ANTHROPIC_BASE_URL", "http://127.0.0.1:1"),
    ]);
    let call = prepare(def(&h), &Config::default(), &vars, &e, &stdin, T).unwrap();
    let body: serde_json::Value = serde_json::from_slice(&call.request.body).unwrap();
    let args = r#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    assert_eq!(
        body,
        json!({
            "model": DEFAULT_MODEL,
            "max_tokens": 1024,
            "system": request::INSTRUCTIONS,
            "messages": [{"role": "user", "content": [{"type": "text", "text": format!("Is this safe? {args}")}]}],
            "output_config": {"format": {"type": "json_schema", "schema": {
                "type": "object",
                "properties": {"ok": {"type": "boolean"}, "reason": {"type": "string"}, "impossible": {"type": "boolean"}},
                "required": ["ok", "reason"],
                "additionalProperties": false
            }}}
        })
    );
    assert_eq!(call.request.url, "http://127.0.0.1:1/v1/messages");
    assert!(
        call.request
            .headers
            .contains(&("x-api-key".into(), "sk-test".into()))
    );
    assert!(
        call.request
            .headers
            .contains(&("anthropic-version".into(), "2023-06-01".into()))
    );

    // A Stop hook without a readable transcript sends nothing.
    let stop = event(
        &json!({"session_id":"s","hook_event_name":"Stop","transcript_path":"/nonexistent/t.jsonl"}),
    );
    let h = hook("Stop", "done?");
    let err = prepare(
        def(&h),
        &Config::default(),
        &vars,
        &stop,
        &stop.to_hook_bytes(),
        T,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        err.contains("could not read the transcript /nonexistent/t.jsonl"),
        "{err}"
    );
}

#[test]
fn key_variables_are_scrubbed_only_when_prompt_hooks_exist() {
    let mut settings = Settings::default();
    let mut vars = env(&[
        ("LOCAL_LLM", "x"),
        ("PATH", "/bin"),
        ("OPENAI_API_KEY", "y"),
    ]);
    let mut scrubbed = Vec::new();
    scrub_keys(&settings, &[], &mut vars, &mut scrubbed);
    assert_eq!(vars.len(), 3);

    settings.hooks.push(hook("PreToolUse", "p"));
    settings.files.push(crate::settings::SettingsFile {
        source: crate::settings::Source {
            path: "/u.json".into(),
            kind: SourceKind::User,
            claude_mode: false,
            trust_required: false,
        },
        dir: "/".into(),
        state: crate::settings::model::FileState::Loaded,
        trust: crate::settings::Trust::NotRequired,
        disable_all_hooks: None,
        permissions: crate::settings::model::Permissions::default(),
        env_keep: Vec::new(),
        policy: crate::settings::model::Policy::default(),
        log: None,
        http: crate::settings::model::HttpFileSettings::default(),
        prompt: PromptFileSettings {
            api_key_env: Some("LOCAL_LLM".into()),
            ..PromptFileSettings::default()
        },
    });
    scrub_keys(&settings, &[], &mut vars, &mut scrubbed);
    assert_eq!(vars, env(&[("PATH", "/bin")]));
    assert_eq!(scrubbed, ["LOCAL_LLM", "OPENAI_API_KEY"]);
}

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::*;
use crate::select::SelectContext;
use crate::settings::load::load_bytes;
use crate::settings::model::{Source, SourceKind};

fn add(settings: &mut Settings, kind: SourceKind, dir: &str, json: &Value) {
    let source = Source {
        path: PathBuf::from(dir).join("settings.json"),
        kind,
        claude_mode: false,
        trust_required: false,
    };
    load_bytes(
        settings,
        source,
        PathBuf::from(dir),
        json.to_string().as_bytes(),
    );
}

fn user(json: &Value) -> Settings {
    let mut settings = Settings::default();
    add(&mut settings, SourceKind::User, "/u", json);
    settings
}

fn event(name: &str, fields: &Value) -> Event {
    let mut object = fields.as_object().cloned().unwrap_or_default();
    object.insert("session_id".into(), json!("s"));
    Event::from_object(object, Some(name)).unwrap()
}

fn plan_for(
    settings: &Settings,
    event: &Event,
    deadline: Duration,
    env: &[(OsString, OsString)],
) -> Plan {
    let project = Path::new("/p");
    let considered = crate::select::select(
        settings,
        &SelectContext {
            event,
            project_dir: project,
            home: None,
        },
    );
    plan(
        settings,
        &considered,
        &PlanInput {
            event,
            project_dir: project,
            deadline,
            env,
            kill_grace: Duration::ZERO,
        },
    )
}

fn hook(json: &Value) -> HookDef {
    let settings = user(&json!({"hooks": {"PreToolUse": [json]}}));
    assert!(settings.problems.is_empty(), "{:?}", settings.problems);
    settings.hooks[0].clone()
}

const MINUTE: Duration = Duration::from_secs(60);

#[test]
fn hook_timeout_is_own_or_default_then_policy_then_deadline() {
    let pre = EventId::resolve("PreToolUse");
    let prompt = EventId::resolve("UserPromptSubmit");
    let none = Policy::default();
    let capped = Policy {
        max_hook_timeout: Some(Duration::from_secs(20)),
        ..Policy::default()
    };

    let default = hook(&json!({"command": "true"}));
    let t = hook_timeout(&default, &pre, &none, Duration::MAX, Duration::ZERO);
    assert_eq!(
        (t.configured, t.own, t.effective),
        (10 * MINUTE, 10 * MINUTE, 10 * MINUTE)
    );
    assert_eq!((t.policy_cap, t.capped_by_deadline), (None, false));
    // The event's own default.
    let t = hook_timeout(&default, &prompt, &none, Duration::MAX, Duration::ZERO);
    assert_eq!(t.own, Duration::from_secs(30));

    let own = hook(&json!({"command": "true", "timeout": 45}));
    let t = hook_timeout(&own, &pre, &capped, Duration::MAX, Duration::ZERO);
    assert_eq!(t.configured, Duration::from_secs(45));
    assert_eq!(t.policy_cap, Some(Duration::from_secs(20)));
    assert_eq!(
        (t.own, t.effective),
        (Duration::from_secs(20), Duration::from_secs(20))
    );

    // The deadline binds this fire, not the hook's own (async) timeout.
    let t = hook_timeout(&own, &pre, &capped, Duration::from_secs(5), Duration::ZERO);
    assert_eq!(
        (t.own, t.effective),
        (Duration::from_secs(20), Duration::from_secs(5))
    );
    assert!(t.capped_by_deadline);

    // A cap above the timeout does not count as capping it.
    let short = hook(&json!({"command": "true", "timeout": 3}));
    let t = hook_timeout(
        &short,
        &pre,
        &capped,
        Duration::from_secs(5),
        Duration::ZERO,
    );
    assert_eq!(
        (t.policy_cap, t.effective, t.capped_by_deadline),
        (None, Duration::from_secs(3), false)
    );

    // With a kill grace, SIGTERM comes early enough for the grace to end
    // by the deadline (at most a quarter of the time left is grace).
    let grace = Duration::from_secs(2);
    let t = hook_timeout(&own, &pre, &capped, Duration::from_secs(5), grace);
    assert_eq!(t.effective, Duration::from_millis(3750));
    assert!(t.capped_by_deadline);
    let t = hook_timeout(&own, &pre, &capped, Duration::from_secs(30), grace);
    assert_eq!(t.effective, Duration::from_secs(20));
    assert!(!t.capped_by_deadline);
    // An http hook has no process group to kill: no grace.
    let http = hook(&json!({"type": "http", "url": "http://127.0.0.1:9/", "timeout": 45}));
    let t = hook_timeout(&http, &pre, &none, Duration::from_secs(5), grace);
    assert_eq!(t.effective, Duration::from_secs(5));
}

#[test]
fn exec_form_substitutes_from_the_plan_input_only() {
    let exec = hook(&json!({
        "command": "${HOOKRUN_CONFIG_DIR}/bin/check",
        "args": ["${CLAUDE_PROJECT_DIR}/src", "${CLAUDE_PLUGIN_ROOT}/x", "$HOME"]
    }));
    let vars = ExecVars::new(&[], Path::new("/project"));
    assert_eq!(
        program_for(&exec, Path::new("/cfg"), &vars),
        Ok(Runnable::Command(Program::Exec {
            program: "/cfg/bin/check".into(),
            args: vec![
                "/project/src".into(),
                "${CLAUDE_PLUGIN_ROOT}/x".into(),
                "$HOME".into()
            ],
        }))
    );
    let env = vec![
        (
            OsString::from("CLAUDE_PROJECT_DIR"),
            OsString::from("/host-project"),
        ),
        (
            OsString::from("CLAUDE_PLUGIN_ROOT"),
            OsString::from("/plugin"),
        ),
    ];
    let vars = ExecVars::new(&env, Path::new("/project"));
    let Ok(Runnable::Command(Program::Exec { args, .. })) =
        program_for(&exec, Path::new("/cfg"), &vars)
    else {
        panic!("an exec program");
    };
    assert_eq!(args, ["/host-project/src", "/plugin/x", "$HOME"]);
}

#[test]
fn program_for_names_what_hookrun_cannot_run() {
    let shell = |name: &str| hook(&json!({"command": "true", "shell": name}));
    let vars = ExecVars::new(&[], Path::new("/p"));
    assert!(matches!(
        program_for(&shell("bash"), Path::new("/c"), &vars),
        Ok(Runnable::Command(Program::Shell { shell, .. })) if shell == "bash"
    ));
    let err = program_for(&shell("zsh"), Path::new("/c"), &vars).unwrap_err();
    assert_eq!(err, Unrunnable::Shell("zsh".into()));
    assert_eq!(
        err.to_string(),
        "shell \"zsh\" is not supported (use \"sh\", \"bash\" or \"powershell\")"
    );
    let settings = user(&json!({"hooks": {"PreToolUse": [
        {"type": "webhook", "prompt": "x"},
        {"type": "prompt", "prompt": "x"}
    ]}}));
    let err = program_for(&settings.hooks[0], Path::new("/c"), &vars).unwrap_err();
    assert_eq!(err, Unrunnable::Type("webhook".into()));
    assert_eq!(
        program_for(&settings.hooks[1], Path::new("/c"), &vars),
        Ok(Runnable::Prompt {
            prompt: Arc::new(crate::settings::PromptDef {
                text: "x".into(),
                model: None,
                continue_on_block: false,
            }),
            agent: false,
        })
    );
    let http = hook(&json!({"type": "http", "url": "http://127.0.0.1:1/x"}));
    assert_eq!(
        program_for(&http, Path::new("/c"), &vars),
        Ok(Runnable::Http(Arc::new(crate::settings::HttpDef {
            url: "http://127.0.0.1:1/x".into(),
            ..Default::default()
        })))
    );
}

#[test]
fn plan_keeps_load_order_and_says_why_a_hook_cannot_run() {
    let settings = user(&json!({"hooks": {"PreToolUse": [
        {"command": "first"},
        {"command": "other event", "matcher": "Edit"},
        {"command": "ps", "shell": "fish"},
        {"command": "later", "async": true, "once": true, "timeout": 900},
    ]}}));
    let event = event("PreToolUse", &json!({"tool_name": "Bash"}));
    let plan = plan_for(&settings, &event, Duration::from_secs(30), &[]);
    let names: Vec<&str> = plan.hooks.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(plan.hooks[0].slot, 0);
    assert_eq!(
        plan.hooks[1].slot, 2,
        "the Edit hook was stopped by its matcher"
    );
    assert!(plan.hooks[1].program.is_none());
    assert_eq!(
        plan.hooks[1].unrunnable,
        Some(Unrunnable::Shell("fish".into()))
    );
    assert!(
        plan.notices
            .warnings
            .iter()
            .any(|w| w.contains("fish") && w.ends_with("it did not run")),
        "{:?}",
        plan.notices.warnings
    );
    let last = &plan.hooks[2];
    assert!(last.run_async);
    assert!(last.once_key.is_some(), "once is marked, not claimed");
    assert_eq!(last.timeout.own, Duration::from_secs(900));
    assert_eq!(last.timeout.effective, Duration::from_secs(30));
    assert!(!plan.sequential);
    assert!(plan.runnable());
}

#[test]
fn planning_writes_nothing_so_once_hooks_plan_alike_every_time() {
    let settings = user(&json!({"hooks": {"Stop": [{"command": "true", "once": true}]}}));
    let event = event("Stop", &json!({}));
    let first = plan_for(&settings, &event, MINUTE, &[]);
    let second = plan_for(&settings, &event, MINUTE, &[]);
    assert_eq!(first.hooks[0].once_key, second.hooks[0].once_key);
    assert!(first.hooks[0].program.is_some() && second.hooks[0].program.is_some());
}

#[test]
fn sequential_counts_only_hooks_that_will_wait() {
    let event = event("PreToolUse", &json!({"tool_name": "Bash"}));
    let async_only = user(&json!({"hooks": {"PreToolUse": [
        {"command": "a", "sequential": true, "async": true},
        {"command": "b"}
    ]}}));
    assert!(!plan_for(&async_only, &event, MINUTE, &[]).sequential);
    let waits = user(&json!({"hooks": {"PreToolUse": [
        {"command": "a"},
        {"command": "b", "sequential": true}
    ]}}));
    assert!(plan_for(&waits, &event, MINUTE, &[]).sequential);
}

#[test]
fn managed_cap_is_a_note_and_http_async_a_warning() {
    let mut settings = user(&json!({"hooks": {"PreToolUse": [
        {"command": "slow", "timeout": 120},
        {"type": "http", "url": "http://127.0.0.1:9/h", "async": true}
    ]}}));
    add(
        &mut settings,
        SourceKind::Managed,
        "/m",
        &json!({"maxHookTimeout": 60}),
    );
    let event = event("PreToolUse", &json!({"tool_name": "Bash"}));
    let plan = plan_for(&settings, &event, Duration::from_secs(599), &[]);
    assert_eq!(plan.hooks[0].timeout.effective, MINUTE);
    assert_eq!(
        plan.hooks[0].notices.notes,
        ["timeout 120.0 s capped at 60.0 s by managed maxHookTimeout"]
    );
    assert!(!plan.hooks[1].run_async, "http hooks run synchronously");
    assert!(plan.hooks[1].notices.warnings[0].contains("`async` is not supported for http hooks"));
    assert!(
        plan.notices
            .warnings
            .contains(&plan.hooks[1].notices.warnings[0])
    );
}

#[test]
fn settings_problems_and_disabled_hooks_come_first_and_last() {
    let mut settings = user(&json!({"hooks": {"PreToolUse": [{"command": "a"}]}, "bogusKey": 1}));
    add(
        &mut settings,
        SourceKind::Cli,
        "/c",
        &json!({"disableAllHooks": true}),
    );
    let event = event("PreToolUse", &json!({"tool_name": "Bash"}));
    let plan = plan_for(&settings, &event, MINUTE, &[]);
    assert!(plan.hooks.is_empty(), "{:?}", plan.hooks);
    assert!(!plan.runnable());
    let problems: Vec<String> = settings
        .problems
        .iter()
        .filter(|p| p.severity != Severity::Note)
        .map(ToString::to_string)
        .collect();
    assert!(!problems.is_empty(), "the unknown key is a problem");
    assert_eq!(&plan.notices.warnings[..problems.len()], &problems[..]);
    let last = plan.notices.warnings.last().unwrap();
    assert!(
        last.starts_with("1 hook(s) for PreToolUse did not run: disableAllHooks"),
        "{last}"
    );
}

/// `shell: "powershell"` becomes the script Claude Code (2.1.332) gives
/// PowerShell: `${VAR}` rewritten to `${env:VAR}`, and a line that passes
/// the last program's exit 2 on (none on PermissionRequest).
#[test]
fn a_powershell_hook_gets_claude_codes_script() {
    let vars = ExecVars::new(&[], Path::new("/p"));
    let ps = hook(
        &json!({"command": "& \"${CLAUDE_PROJECT_DIR}/check.ps1\" $env:X", "shell": "powershell"}),
    );
    let Ok(Runnable::Command(Program::PowerShell { script })) =
        program_for(&ps, Path::new("/c"), &vars)
    else {
        panic!("a PowerShell program");
    };
    assert_eq!(
        script,
        "& \"${env:CLAUDE_PROJECT_DIR}/check.ps1\" $env:X\n; if (-not $?) { if ($LASTEXITCODE -eq 2) { exit 2 } }"
    );
    assert_eq!(
        crate::plan::powershell_script("Get-Date ${CLAUDE_PLUGIN_ROOT}", true),
        "Get-Date ${env:CLAUDE_PLUGIN_ROOT}"
    );
}

/// The grace rule lives on the kind: only a kind that starts a process
/// (a command, an MCP server) keeps `--kill-grace` before the deadline,
/// and planning's timeout follows it for every hook type.
#[test]
fn the_kill_grace_follows_the_kind() {
    let grace = Duration::from_secs(2);
    let cases = [
        (json!({"command": "true"}), Some(HookKind::Command), grace),
        (
            json!({"type": "http", "url": "http://127.0.0.1:9/"}),
            Some(HookKind::Http),
            Duration::ZERO,
        ),
        (
            json!({"type": "prompt", "prompt": "ok?"}),
            Some(HookKind::Prompt),
            Duration::ZERO,
        ),
        (
            json!({"type": "agent", "prompt": "ok?"}),
            Some(HookKind::Agent),
            Duration::ZERO,
        ),
        (
            json!({"type": "mcp_tool", "server": "s", "tool": "t"}),
            Some(HookKind::McpTool),
            grace,
        ),
    ];
    let pre = EventId::resolve("PreToolUse");
    for (json, kind, kept) in cases {
        let hook = hook(&json);
        assert_eq!(hook.action.kind(), kind, "{json}");
        let kind = kind.unwrap();
        assert_eq!(kind.kill_grace(grace), kept, "{json}");
        assert_eq!(kind.runs_detached(), kind == HookKind::Command, "{json}");
        // Planning leaves the kind's grace before a 20 s deadline (a
        // quarter of it at most).
        let t = hook_timeout(
            &hook,
            &pre,
            &Policy::default(),
            Duration::from_secs(20),
            grace,
        );
        assert_eq!(
            t.effective,
            Duration::from_secs(20).saturating_sub(kept),
            "{json}"
        );
        let runnable = program_for(&hook, Path::new("/c"), &ExecVars::new(&[], Path::new("/p")));
        assert_eq!(runnable.map(|r| r.kind()), Ok(kind), "{json}");
    }
    let unsupported = crate::settings::UnsupportedDef {
        type_name: "shell".into(),
        command: None,
        args: None,
        url: None,
    };
    assert_eq!(HookAction::Unsupported(Box::new(unsupported)).kind(), None);
}

/// What running reads of the settings is decided here: the variables the
/// hooks do not see (secret-looking names and a prompt hook's key, unless
/// `env.keep` lets them through), those a hook's command names, the
/// policies of the kinds that ask, the leak key and `asyncRewake`.
#[test]
fn the_plan_holds_what_running_reads_of_the_settings() {
    let settings = user(&json!({
        "env": {"keep": ["KEPT_TOKEN"]},
        "promptHooks": {"apiKeyEnv": "MY_MODEL_VAR"},
        "hooks": {"PreToolUse": [
            {"command": "echo $GITHUB_TOKEN"},
            {"command": "sleep 1", "async": true, "asyncRewake": true},
            {"type": "agent", "prompt": "ok?"}
        ]}
    }));
    assert!(settings.problems.is_empty(), "{:?}", settings.problems);
    let env: Vec<(OsString, OsString)> = [
        "PATH",
        "GITHUB_TOKEN",
        "KEPT_TOKEN",
        "MY_MODEL_VAR",
        "AWS_SECRET_ACCESS_KEY",
    ]
    .iter()
    .map(|name| (OsString::from(name), OsString::from("v")))
    .collect();
    let pre = event("PreToolUse", &json!({"tool_name": "Bash"}));
    let plan = plan_for(&settings, &pre, MINUTE, &env);
    assert_eq!(
        plan.env.scrubbed,
        ["AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "MY_MODEL_VAR"]
    );
    assert_eq!(plan.env.named, ["GITHUB_TOKEN"]);
    assert!(
        plan.requests.read_rules.is_some(),
        "an agent hook is planned"
    );
    assert_eq!(
        plan.requests.prompt.api_key_env.as_deref(),
        Some("MY_MODEL_VAR")
    );
    let [echo, sleep, agent] = &plan.hooks[..] else {
        panic!("{:?}", plan.hooks)
    };
    let key = crate::select::dedup_key(&settings.hooks[echo.hook], &echo.config_dir);
    assert_eq!(echo.leak_key.as_deref(), Some(key.as_str()));
    assert!(!echo.async_rewake);
    assert!(sleep.run_async && sleep.async_rewake);
    assert_eq!(sleep.leak_key, None, "a detached hook is not read");
    assert_eq!(agent.leak_key, None, "only a process can leak");
    // Nothing to run: nothing is read for running.
    let stop = event("Stop", &json!({}));
    let idle = plan_for(&settings, &stop, MINUTE, &env);
    assert!(!idle.runnable());
    assert_eq!(idle.env, EnvPolicy::default());
    assert!(idle.requests.read_rules.is_none());
}

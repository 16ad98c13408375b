//! Observability and state (SPEC §7.4, §10 `stats`): the audit log, `once`,
//! `async`, nag control and the stop-loop guard.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Sandbox, fixture, hooks};

#[test]
fn concurrent_fires_write_whole_lines() {
    let sb = Sandbox::new();
    let log = sb.path("logs/audit.jsonl");
    let settings = sb.settings(&hooks(
        "PreToolUse",
        json!([{"name": "quick", "command": "true"}]),
    ));
    let threads: Vec<_> = (0..20)
        .map(|i| {
            let mut cmd = sb.command();
            let event = sb.event(
                "PreToolUse",
                &json!({"tool_name": "Bash", "tool_use_id": format!("toolu_{i}")}),
            );
            cmd.args([
                "fire",
                "--no-default-settings",
                "--settings",
                settings.to_str().unwrap(),
                "--log",
                log.to_str().unwrap(),
            ]);
            std::thread::spawn(move || crate::support::run_command(&mut cmd, &event))
        })
        .collect();
    for t in threads {
        let run = t.join().unwrap();
        assert_eq!(run.code, Some(0), "{run:?}");
    }
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole JSON line"))
        .collect();
    assert_eq!(lines.len(), 20);
    let mut ids: Vec<String> = lines
        .iter()
        .map(|l| l["tool_use_id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 20, "no line lost");
    let line = &lines[0];
    for key in [
        "v",
        "time",
        "event",
        "session_id",
        "tool_name",
        "decision",
        "exit_code",
        "duration_ms",
        "hookrun_version",
    ] {
        assert!(line.get(key).is_some(), "missing {key} in {line}");
    }
    assert_eq!(line["hooks"][0]["name"], "quick");
    assert_eq!(line["hooks"][0]["outcome"], "success");
}

#[test]
fn the_log_comes_from_env_or_settings_and_failures_only_warn() {
    let mut sb = Sandbox::new();
    let from_settings = sb.path("from-settings.jsonl");
    let settings = sb.settings(
        &json!({"log": from_settings.to_str().unwrap(), "hooks": {"Stop": [{"command": "true"}]}}),
    );
    let run = sb.fire_with("Stop", &settings, &[], &json!({}));
    assert_eq!(run.code, Some(0));
    assert_eq!(
        std::fs::read_to_string(&from_settings)
            .unwrap()
            .lines()
            .count(),
        1
    );

    let from_env = sb.path("from-env.jsonl");
    sb.env("HOOKRUN_LOG", from_env.to_str().unwrap());
    sb.fire_with("Stop", &settings, &[], &json!({}));
    assert_eq!(
        std::fs::read_to_string(&from_env).unwrap().lines().count(),
        1,
        "the environment wins over settings"
    );

    let run = sb.fire_with(
        "Stop",
        &settings,
        &["--log", "/proc/no-such-dir/audit.jsonl"],
        &json!({}),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.system_message()
            .contains("could not write the audit log /proc/no-such-dir/audit.jsonl"),
        "{run:?}"
    );
}

#[test]
fn stats_summarise_a_log() {
    let sb = Sandbox::new();
    let log = fixture("logs/audit.jsonl");
    let configured =
        sb.settings(&json!({"hooks": {"Stop": [{"name": "never-fired", "command": "true"}]}}));
    let run = sb.run(
        &[
            "stats",
            "--log",
            log.to_str().unwrap(),
            "--format",
            "json",
            "--no-default-settings",
            "--settings",
            configured.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let stats = run.json();
    assert_eq!(stats["fires"], 8);
    assert_eq!(stats["unreadable_lines"], 1);
    assert_eq!(stats["events"]["PreToolUse"]["count"], 4);
    assert_eq!(stats["events"]["PreToolUse"]["blocks"], 1);
    assert_eq!(stats["events"]["Stop"]["timeouts"], 1);
    assert_eq!(stats["events"]["SessionStart"]["leaks"], 1);
    let guard = &stats["hooks"]["no-push-to-main (/home/user/.config/hookrun/settings.json)"];
    assert_eq!(guard["count"], 4);
    assert_eq!(guard["blocks"], 1);
    assert_eq!(guard["p50_ms"], 3.0);
    assert_eq!(guard["max_ms"], 5.0);
    let unpaired: Vec<(&str, bool)> = stats["unpaired_pre_tool_use"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["tool_use_id"].as_str().unwrap(),
                u["denied"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(unpaired, [("toolu_2", true), ("toolu_3", false)]);
    assert_eq!(stats["never_ran"][0]["name"], "never-fired");

    let text = sb.run(
        &[
            "stats",
            "--log",
            log.to_str().unwrap(),
            "--no-default-settings",
        ],
        b"",
    );
    assert!(
        text.stdout.contains("toolu_3 Edit session s1"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("PreToolUse calls without a PostToolUse"),
        "{}",
        text.stdout
    );
}

#[test]
fn once_runs_once_per_session_even_concurrently() {
    let sb = Sandbox::new();
    let count = sb.path("once.log");
    let settings = sb.settings(&hooks(
        "SessionStart",
        json!([{"command": format!("echo x >> '{}'", count.display()), "once": true}]),
    ));
    for session in ["a", "a", "b", "a"] {
        sb.fire_with(
            "SessionStart",
            &settings,
            &[],
            &json!({"session_id": session, "source": "startup"}),
        );
    }
    assert_eq!(
        std::fs::read_to_string(&count).unwrap(),
        "x\nx\n",
        "once in a, once in b"
    );

    let threads: Vec<_> = (0..8)
        .map(|_| {
            let mut cmd = sb.command();
            let event = sb.event(
                "SessionStart",
                &json!({"session_id": "concurrent", "source": "startup"}),
            );
            cmd.args([
                "fire",
                "--no-default-settings",
                "--settings",
                settings.to_str().unwrap(),
            ]);
            std::thread::spawn(move || crate::support::run_command(&mut cmd, &event))
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap().code, Some(0));
    }
    assert_eq!(std::fs::read_to_string(&count).unwrap().lines().count(), 3);
    // Without a session id it always runs.
    sb.run(
        &crate::support::fire_args("SessionStart", &settings, &[]),
        b"{\"source\":\"startup\"}",
    );
    assert_eq!(std::fs::read_to_string(&count).unwrap().lines().count(), 4);
}

/// Waits until a detached async hook has left its result in the sandbox's
/// state directory.
fn wait_for_async_result(sb: &Sandbox) {
    fn has_result(dir: &std::path::Path) -> bool {
        std::fs::read_dir(dir).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                let path = e.path();
                path.to_string_lossy().ends_with(".result.json")
                    || (path.is_dir() && has_result(&path))
            })
        })
    }
    let root = sb.home.join(".state/hookrun");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !has_result(&root) {
        assert!(
            Instant::now() < deadline,
            "the async hook never left a result"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn async_hooks_return_at_once_and_deliver_on_the_next_fire() {
    let sb = Sandbox::new();
    let ready = sb.path("async-done");
    let command = format!(
        r#"sleep 1; printf '{{"systemMessage":"async says hi","hookSpecificOutput":{{"hookEventName":"PostToolUse","additionalContext":"ASYNC-CONTEXT"}}}}'; touch '{}'"#,
        ready.display()
    );
    let settings = sb.settings(&json!({"hooks": {
        "PostToolUse": [{"name": "slow-check", "command": command, "async": true}],
        "UserPromptSubmit": [{"command": "true"}]
    }}));
    let started = Instant::now();
    let run = sb.fire_with(
        "PostToolUse",
        &settings,
        &[],
        &json!({"session_id": "s-async", "tool_name": "Bash"}),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "fire waited for the async hook: {:?}",
        started.elapsed()
    );
    assert!(run.json().get("hookSpecificOutput").is_none());

    // A Notification does not accept additionalContext: the result stays pending.
    wait_for_async_result(&sb);
    assert!(ready.exists());
    let run = sb.fire_with(
        "Notification",
        &settings,
        &[],
        &json!({"session_id": "s-async"}),
    );
    assert!(!run.stdout.contains("ASYNC-CONTEXT"), "{run:?}");

    // The next fire that accepts context gets it, exactly once, even though
    // its own hook says nothing.
    let run = sb.fire_with(
        "UserPromptSubmit",
        &settings,
        &[],
        &json!({"session_id": "s-async", "prompt": "next"}),
    );
    let json = run.json();
    assert_eq!(
        json["hookSpecificOutput"]["additionalContext"], "ASYNC-CONTEXT",
        "{json}"
    );
    assert_eq!(json["systemMessage"], "async says hi");
    let run = sb.fire_with(
        "UserPromptSubmit",
        &settings,
        &[],
        &json!({"session_id": "s-async", "prompt": "again"}),
    );
    assert!(
        !run.stdout.contains("ASYNC-CONTEXT"),
        "delivered once: {run:?}"
    );
    // Another session never sees it.
    let run = sb.fire_with(
        "UserPromptSubmit",
        &settings,
        &[],
        &json!({"session_id": "other", "prompt": "x"}),
    );
    assert!(!run.stdout.contains("ASYNC"), "{run:?}");
}

#[test]
fn async_decisions_have_no_effect_and_say_so() {
    let sb = Sandbox::new();
    let ready = sb.path("async-done");
    let command = format!("echo no >&2; touch '{}'; exit 2", ready.display());
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"name": "late-guard", "command": command, "async": true}]}}));
    let run = sb.fire_with(
        "PreToolUse",
        &settings,
        &[],
        &json!({"session_id": "s", "tool_name": "Bash"}),
    );
    assert_eq!(run.code, Some(0), "an async block cannot block: {run:?}");
    wait_for_async_result(&sb);
    assert!(ready.exists());
    let run = sb.fire_with(
        "PreToolUse",
        &sb.settings(&json!({})),
        &[],
        &json!({"session_id": "s", "tool_name": "Bash"}),
    );
    assert!(
        run.system_message()
            .contains("async hook late-guard returned block"),
        "{run:?}"
    );
}

/// `asyncRewake` as Claude Code 2.1.332 runs it (measured with its CLI on a
/// scripted model): with `async: true` the hook runs in the background, the
/// call goes ahead, and only an exit 2 speaks: its stderr reaches the model
/// later ("Stop hook blocking error from command \"PreToolUse:Bash\": …",
/// as a background-task notice); an exit 0 hook's additionalContext and
/// systemMessage reach nobody. hookrun delivers the exit 2 text as context
/// with the next fire of the session that accepts context.
#[test]
fn async_rewake_hooks_run_in_the_background_and_wake_with_their_exit_2() {
    let sb = Sandbox::new();
    let ready = sb.path("rewake-done");
    let quiet = sb.path("quiet-done");
    let failing = format!(
        "echo REWAKE-OUT; echo 'REWAKE-ERR: the tests failed' >&2; touch '{}'; exit 2",
        ready.display()
    );
    let passing = format!(
        r#"printf '{{"systemMessage":"QUIET-SYS","hookSpecificOutput":{{"hookEventName":"PreToolUse","additionalContext":"QUIET-CTX"}}}}'; touch '{}'"#,
        quiet.display()
    );
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [
        {"name": "bg-tests", "command": failing, "async": true, "asyncRewake": true},
        {"name": "bg-quiet", "command": passing, "async": true, "asyncRewake": true}
    ]}}));
    let run = sb.fire_with(
        "PreToolUse",
        &settings,
        &[],
        &json!({"session_id": "s-rewake", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    assert_eq!(run.code, Some(0), "the call goes ahead: {run:?}");
    assert!(!run.stdout.contains("unknown field"), "{run:?}");
    assert!(run.json().get("hookSpecificOutput").is_none(), "{run:?}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !(ready.exists() && quiet.exists()) {
        assert!(Instant::now() < deadline, "the hooks never ran");
        std::thread::sleep(Duration::from_millis(25));
    }
    // Both results are written just after the hooks exit.
    let root = sb.home.join(".state/hookrun");
    let count_results = || crate::support::results_in(&root);
    while count_results() < 2 {
        assert!(Instant::now() < deadline, "the results never came");
        std::thread::sleep(Duration::from_millis(25));
    }
    let run = sb.fire_with(
        "UserPromptSubmit",
        &sb.settings(&json!({})),
        &[],
        &json!({"session_id": "s-rewake", "prompt": "next"}),
    );
    let json = run.json();
    let context = json["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    assert!(
        context.contains("bg-tests") && context.contains("REWAKE-ERR: the tests failed"),
        "{json}"
    );
    assert!(
        !run.stdout.contains("QUIET-"),
        "exit 0 output reaches nobody: {run:?}"
    );
    assert!(
        !context.contains("REWAKE-OUT"),
        "stderr, not stdout: {json}"
    );
}

/// Without `async`, Claude Code 2.1.332 runs an `asyncRewake` hook in the
/// foreground (measured: the call waited for it, and its exit 2 denied the
/// tool). hookrun does the same, and says so.
#[test]
fn async_rewake_without_async_blocks_in_the_foreground() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [
        {"command": "echo 'FG-REWAKE: no' >&2; exit 2", "asyncRewake": true}
    ]}}));
    let run = sb.fire_with(
        "PreToolUse",
        &settings,
        &[],
        &json!({"session_id": "s-fg", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("FG-REWAKE: no"), "{run:?}");
    assert!(
        !run.stdout.contains("unknown field") && !run.stderr.contains("unknown field"),
        "{run:?}"
    );
    // `doctor` says what it does.
    let doctor = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        doctor.stdout.contains("async-rewake-foreground")
            && doctor.stdout.contains("runs in the foreground"),
        "{doctor:?}"
    );
}

#[test]
fn stop_loop_guard_caps_consecutive_blocks() {
    let sb = Sandbox::new();
    let settings = sb.settings(&hooks(
        "Stop",
        json!([{"command": "echo tests fail >&2; exit 2"}]),
    ));
    let fire = || {
        sb.fire_with(
            "Stop",
            &settings,
            &["--stop-block-cap", "3"],
            &json!({"session_id": "loop"}),
        )
    };
    for _ in 0..3 {
        let run = fire();
        assert_eq!(run.code, Some(2), "{run:?}");
    }
    let run = fire();
    assert_eq!(
        run.code,
        Some(0),
        "the 4th consecutive block is downgraded: {run:?}"
    );
    let message = run.system_message();
    assert!(
        message.contains("stop-loop guard")
            && message.contains("blocked 3 times in a row")
            && message.contains("tests fail"),
        "{message}"
    );
    // The count restarts.
    assert_eq!(fire().code, Some(2));
    // Another session has its own count; behind Claude Code (which ends
    // the loop itself after 8) the default cap is one more: 9.
    for _ in 0..9 {
        assert_eq!(
            sb.fire_with("Stop", &settings, &[], &json!({"session_id": "other"}))
                .code,
            Some(2)
        );
    }
    assert_eq!(
        sb.fire_with("Stop", &settings, &[], &json!({"session_id": "other"}))
            .code,
        Some(0)
    );
}

#[test]
fn a_daemon_started_on_purpose_warns_once_per_session() {
    let sb = Sandbox::new();
    let pid_file = sb.path("daemon.pid");
    let settings = sb.settings(&hooks(
        "SessionStart",
        json!([{"name": "daemon", "command": format!("sleep 30 & echo $! > '{}'; echo started", pid_file.display())}]),
    ));
    let log = sb.path("audit.jsonl");
    let fire = |session: &str| {
        sb.fire_with(
            "SessionStart",
            &settings,
            &["--log", log.to_str().unwrap()],
            &json!({"session_id": session, "source": "startup"}),
        )
    };
    let first = fire("s1");
    let second = fire("s1");
    if let Ok(pid) = std::fs::read_to_string(&pid_file) {
        let _ = std::process::Command::new("kill").arg(pid.trim()).status();
    }
    assert!(
        first
            .system_message()
            .contains("hook daemon left processes holding its output"),
        "{first:?}"
    );
    assert!(!second.stdout.contains("left processes"), "{second:?}");
    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines.iter().all(|l| l["hooks"][0]["leaked"] == true),
        "always in the log"
    );
}

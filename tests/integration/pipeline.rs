//! What the stages hand each other: async hooks get the fire's limits and
//! answer only later fires, and a `once` hook is claimed only when it
//! really starts.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{Sandbox, results_in};

fn state_root(sb: &Sandbox) -> PathBuf {
    sb.home.join(".state/hookrun")
}

fn wait_for_results(sb: &Sandbox, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while results_in(&state_root(sb)) < count {
        assert!(
            Instant::now() < deadline,
            "the async hook never left a result"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn a_fast_async_result_is_not_delivered_by_the_fire_that_started_it() {
    let sb = Sandbox::new();
    // The sync hook waits until the async hook's result exists, so the fire
    // that started it is still deciding when the result is there to take.
    let root = state_root(&sb);
    let wait = format!(
        "i=0; until find '{}' -name '*.result.json' | grep -q .; do i=$((i+1)); [ $i -gt 400 ] && exit 0; sleep 0.025; done",
        root.display()
    );
    let settings = sb.settings(&json!({"hooks": {
        "PostToolUse": [
            {"name": "fast", "command": "printf '{\"systemMessage\":\"fast async\"}'", "async": true},
            {"name": "waits", "command": wait}
        ],
        "UserPromptSubmit": [{"command": "true"}]
    }}));
    let fields = json!({"session_id": "s-fast", "tool_name": "Bash"});
    let run = sb.fire_with("PostToolUse", &settings, &[], &fields);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        results_in(&root),
        1,
        "the result was there during the fire: {run:?}"
    );
    assert!(
        !run.stdout.contains("fast async"),
        "answered its own fire: {run:?}"
    );

    let run = sb.fire_with(
        "UserPromptSubmit",
        &settings,
        &[],
        &json!({"session_id": "s-fast", "prompt": "p"}),
    );
    assert_eq!(run.json()["systemMessage"], "fast async", "{run:?}");
}

#[test]
fn async_hooks_run_under_the_fires_output_cap() {
    let sb = Sandbox::new();
    let long = "x".repeat(300);
    let command = format!("printf '{{\"systemMessage\":\"{long}\"}}'");
    let settings = sb.settings(&json!({"hooks": {
        "PostToolUse": [{"name": "chatty", "command": command, "async": true}]
    }}));
    let fields = json!({"session_id": "s-cap", "tool_name": "Bash"});
    let run = sb.fire_with("PostToolUse", &settings, &["--output-cap", "64"], &fields);
    assert_eq!(run.code, Some(0), "{run:?}");
    wait_for_results(&sb, 1);
    let run = sb.fire_with("PostToolUse", &sb.settings(&json!({})), &[], &fields);
    let message = run.system_message();
    assert!(
        !message.contains(&long),
        "the cap did not reach the async hook: {message}"
    );
    assert!(
        message.contains("hook chatty (async): its output was cut at the capture limit"),
        "{message}"
    );

    // The control: without --output-cap the same hook's message arrives whole.
    let fields = json!({"session_id": "s-cap-control", "tool_name": "Bash"});
    sb.fire_with("PostToolUse", &settings, &[], &fields);
    wait_for_results(&sb, 1);
    let run = sb.fire_with("PostToolUse", &sb.settings(&json!({})), &[], &fields);
    assert_eq!(run.system_message(), long);
}

#[test]
fn async_hooks_run_under_the_fires_kill_grace() {
    let sb = Sandbox::new();
    // Ignores SIGTERM: only SIGKILL after the grace ends it.
    let settings = sb.settings(&json!({"hooks": {
        "PostToolUse": [{"name": "stubborn", "command": "trap '' TERM; sleep 30", "async": true, "timeout": 1}]
    }}));
    let fields = json!({"session_id": "s-grace", "tool_name": "Bash"});
    let started = Instant::now();
    sb.fire_with(
        "PostToolUse",
        &settings,
        &["--kill-grace", "100ms"],
        &fields,
    );
    wait_for_results(&sb, 1);
    // 1 s timeout + 0.1 s grace; the default grace (2 s) would take 3 s.
    assert!(
        started.elapsed() < Duration::from_millis(2800),
        "the async runner used its own kill grace: {:?}",
        started.elapsed()
    );
}

/// The session folder a fire of `session` created (there is one).
fn session_dir(sb: &Sandbox) -> PathBuf {
    let sessions = state_root(sb).join("sessions");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&sessions)
        .unwrap_or_else(|err| panic!("{}: {err}", sessions.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.remove(0)
}

#[test]
fn a_once_hook_that_could_not_start_is_not_counted_as_run() {
    let sb = Sandbox::new();
    let ran = sb.path("ran");
    let settings = sb.settings(&json!({"hooks": {
        "Notification": [{"command": "true", "once": true}],
        "PostToolUse": [{
            "name": "setup",
            "command": format!("echo x >> '{}'", ran.display()),
            "async": true,
            "once": true
        }]
    }}));
    let fields = json!({"session_id": "s-once", "tool_name": "Bash"});
    // Creates the session's folder; then a file where the async folder goes
    // makes starting any async hook of the session fail.
    sb.fire_with(
        "Notification",
        &settings,
        &[],
        &json!({"session_id": "s-once"}),
    );
    let blocker = session_dir(&sb).join("async");
    std::fs::write(&blocker, "in the way").unwrap();

    let run = sb.fire_with("PostToolUse", &settings, &["--format", "report"], &fields);
    let hook = run.hook("setup");
    assert_eq!(hook["state"], "not run", "{hook:#}");
    let warnings = run.json()["warnings"].to_string();
    assert!(
        warnings.contains("hook setup: could not start it asynchronously"),
        "{warnings}"
    );

    std::fs::remove_file(&blocker).unwrap();
    let run = sb.fire_with("PostToolUse", &settings, &["--format", "report"], &fields);
    assert_eq!(run.hook("setup")["state"], "async", "{}", run.stdout);
    crate::support::read_when_ready(&ran);
    // And now it did run: once.
    let run = sb.fire_with("PostToolUse", &settings, &["--format", "report"], &fields);
    assert_eq!(run.hook("setup")["state"], "skipped", "{}", run.stdout);
}

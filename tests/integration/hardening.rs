//! Hostile input through the real binary: matchers that would backtrack
//! forever, huge patterns, events no parser limit may reject, stdin that
//! never closes, deny rules behind shell constructs, and no command that
//! panics on any settings file.

use std::io::Write as _;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Run, Sandbox, hooks};

fn marker_hook(sb: &Sandbox, name: &str) -> (std::path::PathBuf, String) {
    let marker = sb.path(name);
    (marker.clone(), format!("touch '{}'", marker.display()))
}

#[test]
fn a_backtracking_matcher_cannot_hold_fire_past_its_deadline() {
    let sb = Sandbox::new();
    let (marker, touch) = marker_hook(&sb, "ran");
    let tool = format!("{}!", "a".repeat(30));
    // `(a+)+$` runs on the linear engine; the look-ahead forces the
    // backtracking one, which runs out of time and does not filter.
    for matcher in ["(a+)+$", "^(?=a)(a+)+$"] {
        let _ = std::fs::remove_file(&marker);
        let settings = hooks(
            "PreToolUse",
            json!([{"matcher": matcher, "command": touch}]),
        );
        let file = sb.settings(&settings);
        let started = Instant::now();
        let run = sb.run(
            &[
                "fire",
                "PreToolUse",
                "--no-default-settings",
                "--deadline",
                "2s",
                "--settings",
                file.to_str().unwrap(),
            ],
            &sb.event("PreToolUse", &json!({"tool_name": tool, "tool_input": {}})),
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{matcher}: {run:?}"
        );
        assert_eq!(run.code, Some(0), "{matcher}: {run:?}");
        if matcher.starts_with("^(?=") {
            assert!(marker.exists(), "out of time: the hook runs unfiltered");
            assert!(
                run.system_message().contains("did not finish within"),
                "{run:?}"
            );
        } else {
            assert!(!marker.exists(), "(a+)+$ does not match {tool:?}");
        }
    }
}

#[test]
fn huge_matchers_and_rules_are_errors_not_aborts() {
    let sb = Sandbox::new();
    let (marker, touch) = marker_hook(&sb, "ran");
    let alternatives: Vec<String> = (0..100_000).map(|i| format!("t{i}.")).collect();
    let globs: Vec<String> = (0..100_000).map(|i| format!("f{i}")).collect();
    let settings = hooks(
        "PreToolUse",
        json!([
            {"matcher": alternatives.join("|"), "command": touch},
            {"matcher": "Edit", "if": format!("Edit({{{}}})", globs.join(",")), "command": "echo if"},
            {"matcher": "Bash", "if": format!("Bash({})", "a*".repeat(50_000)), "command": "echo if"}
        ]),
    );
    let file = sb.settings(&settings);
    let started = Instant::now();
    let run = sb.run(
        &crate::support::fire_args("PreToolUse", &file, &[]),
        &sb.event(
            "PreToolUse",
            &json!({"tool_name": "Edit", "tool_input": {"file_path": "/x/f3"}}),
        ),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(marker.exists(), "an invalid matcher does not filter");
    let message = run.system_message();
    assert!(message.contains("bytes long"), "{message}");
    let doctor = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(doctor.code, Some(1), "errors found: {doctor:?}");
    assert!(doctor.stdout.contains("bytes long"), "{doctor:?}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// Runs `hookrun ARGS` with stdin left open (never written, never closed).
fn run_with_open_stdin(sb: &Sandbox, args: &[&str]) -> Run {
    let started = Instant::now();
    let mut child = sb
        .command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"{\"tool_name\":").unwrap();
    let waited = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if waited.elapsed() > Duration::from_secs(15) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    Run {
        code: status.and_then(|s| s.code()),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

#[test]
fn stdin_that_never_closes_is_bounded_by_the_deadline() {
    let sb = Sandbox::new();
    let run = run_with_open_stdin(
        &sb,
        &[
            "fire",
            "PreToolUse",
            "--no-default-settings",
            "--deadline",
            "1s",
        ],
    );
    assert_eq!(run.code, Some(1), "answered, not killed: {run:?}");
    assert!(run.elapsed < Duration::from_secs(10), "{run:?}");
    assert!(run.stderr.contains("stdin"), "{run:?}");
    let run = run_with_open_stdin(
        &sb,
        &[
            "fire",
            "PreToolUse",
            "--no-default-settings",
            "--deadline",
            "1s",
            "--fail-closed",
        ],
    );
    assert_eq!(run.code, Some(2), "--fail-closed blocks: {run:?}");
}

fn deny_settings() -> Value {
    json!({"permissions": {"deny": ["Bash(rm *)"]}})
}

fn pre_bash(sb: &Sandbox, settings: &Value, command: &str) -> Run {
    Fire::new("PreToolUse")
        .settings(settings)
        .input(&json!({"tool_name": "Bash", "tool_input": {"command": command}}))
        .run_in(sb)
}

/// JSON nested deeper than a thread's usual stack holds: a fire with a
/// shallow event starts on the normal stack and must move to the big one
/// for a deep answer, whichever way it is read; a deep event is handled
/// on the big one throughout (here re-serialised for a host whose events
/// are translated).
#[test]
fn deep_json_from_the_host_or_a_hook_is_read_not_crashed_on() {
    let sb = Sandbox::new();
    let depth = 19_000;
    let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let deep = sb.write(
        "deep.json",
        &format!(r#"{{"systemMessage":"DEEP-ANSWER-READ","junk":{nested}}}"#),
    );
    // Cut short: not JSON, found out only by reading it all.
    let broken = sb.write(
        "broken.json",
        &format!(r#"{{"systemMessage":"x","junk":{}"#, "[".repeat(depth)),
    );
    let updated = sb.write(
        "updated.json",
        &format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{{"command":"echo hi","junk":{nested}}}}}}}"#
        ),
    );
    let seen = sb.path("second-hook-saw");
    let event = json!({"tool_name": "Bash", "tool_input": {"command": "echo hi"}}).to_string();
    let fire = |settings: &Value, extra: &[&str]| {
        let file = sb.settings(settings);
        sb.run(
            &crate::support::fire_args("PreToolUse", &file, extra),
            event.as_bytes(),
        )
    };
    let cat = |path: &std::path::Path| format!("cat '{}'", path.display());
    // What the counting hook (`wc -c > seen`) was given.
    let bytes_seen = || -> usize {
        let text = std::fs::read_to_string(&seen).unwrap();
        text.trim().parse().unwrap()
    };

    // Side by side, and in the report (which quotes what hooks printed).
    let parallel = hooks(
        "PreToolUse",
        json!([{"command": cat(&deep)}, {"command": cat(&broken)}, {"command": "true"}]),
    );
    for extra in [&[][..], &["--format", "report"][..]] {
        let run = fire(&parallel, extra);
        assert_eq!(run.code, Some(0), "{extra:?}: {run:?}");
        assert!(
            run.stdout.contains("DEEP-ANSWER-READ"),
            "{extra:?}: {run:?}"
        );
        assert!(
            run.stdout.contains("not valid JSON") || run.stderr.contains("not valid JSON"),
            "{extra:?}: {run:?}"
        );
    }

    // One after another: the second hook gets the deep input the first made.
    let sequential = hooks(
        "PreToolUse",
        json!([
            {"command": cat(&updated), "sequential": true},
            {"command": format!("wc -c > '{}'", seen.display()), "sequential": true},
        ]),
    );
    let run = fire(&sequential, &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let got = bytes_seen();
    assert!(got > 2 * depth, "the second hook read {got} bytes");
    // The answer carries the deep input on (too deep for the test's own
    // JSON reader, so checked as text).
    assert!(run.stdout.starts_with('{'), "{run:?}");
    assert!(
        run.stdout
            .contains(r#""updatedInput":{"command":"echo hi","junk":[[["#),
        "{run:?}"
    );

    let _ = std::fs::remove_file(&seen);
    let counts = hooks(
        "PreToolUse",
        json!([{"command": format!("wc -c > '{}'", seen.display())}]),
    );
    let counting = sb.settings(&counts);
    let deep_event = format!(
        r#"{{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{{"command":"echo hi","junk":{nested}}}}}"#
    );
    let run = sb.run(
        &crate::support::host_args("fire", "gemini", &counting, &[]),
        deep_event.as_bytes(),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let got = bytes_seen();
    assert!(got > 2 * depth, "the hook read {got} bytes");
}

/// Under a memory limit too small for the big stack, deep JSON is handled
/// on the normal stack, and the answer says so: never only a log line.
#[test]
fn deep_json_without_its_stack_is_said_in_the_answer() {
    let sb = Sandbox::new();
    let file = sb.settings(&hooks("PreToolUse", json!([{"command": "true"}])));
    let depth = 300;
    let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let event =
        format!(r#"{{"tool_name":"Bash","tool_input":{{"command":"echo hi","junk":{nested}}}}}"#);
    // 400 MB of address space: room for hookrun, not for a 512 MiB stack.
    let mut cmd = sb.command_via(&["sh", "-c", "ulimit -v 400000 && exec \"$0\" \"$@\""]);
    cmd.args([
        "fire",
        "PreToolUse",
        "--no-default-settings",
        "--settings",
        file.to_str().unwrap(),
    ]);
    let run = crate::support::run_command(&mut cmd, event.as_bytes());
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.json()["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("could not map a 512 MiB stack")),
        "{run:?}"
    );
    // With room, nothing to say.
    let run = sb.run(
        &crate::support::fire_args("PreToolUse", &file, &[]),
        event.as_bytes(),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(!run.stdout.contains("could not map"), "{run:?}");
}

#[test]
fn deep_nesting_and_lone_surrogates_reach_the_deny_rules() {
    let sb = Sandbox::new();
    let settings = deny_settings();
    let file = sb.settings(&settings);
    let file = file.to_str().unwrap();
    let fire_with = |body: String| {
        sb.run(
            &crate::support::fire_args("PreToolUse", std::path::Path::new(file), &[]),
            body.as_bytes(),
        )
    };
    for depth in [200, 5_000, 10_000, 19_000] {
        let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let run = fire_with(format!(
            r#"{{"tool_name":"Bash","tool_input":{{"command":"rm -rf x","junk":{nested}}}}}"#
        ));
        assert_eq!(run.code, Some(2), "depth {depth}: {run:?}");
        assert_eq!(
            run.json()["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "depth {depth}"
        );
    }
    // A lone surrogate, as JSON.stringify writes a broken emoji.
    let run =
        fire_with(r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf x \ud83d"}}"#.into());
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.json()["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    // Deeper than hookrun reads: an error, and a block under --fail-closed.
    let depth = 200_000;
    let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let body =
        format!(r#"{{"tool_name":"Bash","tool_input":{{"command":"rm x","junk":{nested}}}}}"#);
    let run = fire_with(body.clone());
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("nested deeper than"), "{run:?}");
    let run = sb.run(
        &[
            "fire",
            "PreToolUse",
            "--no-default-settings",
            "--settings",
            file,
            "--fail-closed",
        ],
        body.as_bytes(),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
}

#[test]
fn a_hook_answer_with_a_lone_surrogate_is_still_json() {
    let sb = Sandbox::new();
    let answer = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"broken \ud83d emoji"}}"#;
    let hook = sb.script(
        "hooks/deny.sh",
        &format!("#!/bin/sh\ncat >/dev/null\nprintf '%s' '{answer}'\n"),
    );
    let settings = hooks("PreToolUse", json!([{"command": hook.to_str().unwrap()}]));
    let run = pre_bash(&sb, &settings, "ls");
    assert_eq!(run.code, Some(2), "a deny: {run:?}");
    let out = run.json();
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{run:?}"
    );
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "broken \u{FFFD} emoji"
    );
}

#[test]
fn trust_with_a_trust_store_that_is_a_directory_says_only_the_error() {
    let sb = Sandbox::new();
    sb.write(".keep", "");
    let settings = sb.project.join(".hookrun/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, r#"{"hooks": {}}"#).unwrap();
    let store = sb.home.join(".config/hookrun/trust.json");
    std::fs::create_dir_all(&store).unwrap();
    let run = sb.run(&["trust"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        !run.stdout.contains("trusted"),
        "nothing was trusted: {run:?}"
    );
    assert!(
        run.stderr.contains(&store.display().to_string()),
        "names the store: {run:?}"
    );
    assert_eq!(run.stderr.lines().count(), 1, "one error: {run:?}");
}

#[test]
fn deny_rules_see_what_the_shell_runs() {
    let sb = Sandbox::new();
    let settings = deny_settings();
    for command in [
        "2>&1 rm x",
        ">out rm x",
        "{rm,-rf,x}",
        "/bin/rm x",
        "sudo rm x",
        "env rm x",
        "env -i FOO=1 rm x",
        "exec rm x",
        "bash -c 'rm x'",
        "sh -c \"rm x\"",
        "eval 'rm x'",
        "xargs -0 rm",
        "coproc rm x",
        "case $a in x) rm y;; esac",
    ] {
        let run = pre_bash(&sb, &settings, command);
        assert_eq!(run.code, Some(2), "{command}: {run:?}");
        assert_eq!(
            run.json()["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "{command}"
        );
    }
    // Rules name commands, not effects.
    let run = pre_bash(&sb, &settings, "find . -delete");
    assert_eq!(run.code, Some(0), "{run:?}");
    // Allow rules: a write to a file is never covered, so the host asks.
    let allow = json!({"permissions": {"allow": ["Bash(echo *)"]}});
    let run = pre_bash(&sb, &allow, "echo x > ~/.bashrc");
    assert_eq!(run.json(), json!({}), "no decision: {run:?}");
    let run = pre_bash(&sb, &allow, "echo x > /dev/null");
    assert_eq!(
        run.json()["hookSpecificOutput"]["permissionDecision"],
        "allow"
    );
}

/// Every settings file of fixtures/ and fuzz/regressions/, plus a few made
/// here, through every command that reads settings: none may panic (exit
/// 101) or die of a signal (a stack overflow aborts).
#[test]
fn no_command_panics_on_any_settings_file() {
    let sb = Sandbox::new();
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        "fixtures/settings",
        "fuzz/regressions/settings",
        "fixtures/cases",
    ] {
        for entry in std::fs::read_dir(crate::support::repo().join(dir)).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    for entry in std::fs::read_dir(crate::support::fixture("cookbook")).unwrap() {
        let settings = entry.unwrap().path().join("settings.json");
        if settings.is_file() {
            files.push(settings);
        }
    }
    let huge: Vec<String> = (0..100_000).map(|i| format!("t{i}.")).collect();
    files.push(sb.settings(&hooks(
        "PreToolUse",
        json!([{"matcher": huge.join("|"), "command": "true"}]),
    )));
    files.push(sb.write("cli/empty.json", ""));
    assert!(files.len() > 15, "{files:?}");
    let event = sb.event(
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}),
    );
    let transcripts = crate::support::repo().join("fixtures/transcripts/oracle");
    let transcripts = transcripts.to_str().unwrap();
    for file in &files {
        let file = file.to_str().unwrap();
        let base = ["--no-default-settings", "--settings", file];
        let commands: Vec<(Vec<&str>, &[u8])> = vec![
            ([&["fire", "PreToolUse"][..], &base].concat(), &event[..]),
            ([&["fire", "Stop"][..], &base].concat(), b"{}"),
            ([&["doctor"][..], &base].concat(), b""),
            ([&["explain", "PreToolUse"][..], &base].concat(), &event[..]),
            ([&["list"][..], &base].concat(), b""),
            ([&["list", "--format", "json"][..], &base].concat(), b""),
            ([&["replay", transcripts][..], &base].concat(), b""),
        ];
        for (args, stdin) in commands {
            let run = sb.run(&args, stdin);
            let crashed = run.code.is_none_or(|code| code == 101);
            assert!(!crashed, "`hookrun {}` crashed: {run:?}", args.join(" "));
        }
    }
}

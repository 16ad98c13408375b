//! hookrun's own exit codes: 2 only for a block that stands, never for a
//! mistake on the command line, and never on an event that cannot block.

use serde_json::json;

use crate::support::{Sandbox, hooks};

#[test]
fn command_line_mistakes_exit_1_with_the_message_on_stderr() {
    let sb = Sandbox::new();
    let event = sb.event("Stop", &json!({}));
    for args in [
        &["fire", "--fail-close", "stop"][..],
        &["fire", "--no-default-settings", "--format", "yaml"],
        &["fire", "--bogus"],
        &["doctor", "--bogus"],
        &["no-such-command"],
    ] {
        let run = sb.run(args, &event);
        assert_eq!(run.code, Some(1), "{args:?}: {run:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("error: "), "{args:?}: {run:?}");
    }
    let run = sb.run(&["fire", "--fail-close", "stop"], &event);
    assert!(run.stderr.contains("--fail-closed"), "clap's hint: {run:?}");
}

#[test]
fn a_bad_hookrun_variable_exits_1_unless_fail_closed_on_a_blocking_event() {
    let mut sb = Sandbox::new();
    sb.env("HOOKRUN_DEADLINE", "abc");
    let stop = sb.event("Stop", &json!({}));
    let run = sb.run(&["fire", "--no-default-settings", "stop"], &stop);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("abc"), "{run:?}");
    assert!(
        run.stderr
            .contains("the environment variable HOOKRUN_DEADLINE"),
        "names where the value came from: {run:?}"
    );
    // On the command line, the flag is named and the variable is not.
    let run = sb.run(
        &["fire", "--no-default-settings", "--deadline", "xyz", "stop"],
        &stop,
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr.contains("xyz") && !run.stderr.contains("environment variable"),
        "{run:?}"
    );

    // --fail-closed on an event that can block: a block, the message as reason.
    let run = sb.run(
        &["fire", "--no-default-settings", "--fail-closed", "stop"],
        &stop,
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("abc"), "{run:?}");
    // The event named only in the input counts too.
    let run = sb.run(&["fire", "--no-default-settings", "--fail-closed"], &stop);
    assert_eq!(run.code, Some(2), "{run:?}");
    let notification = sb.event("Notification", &json!({}));
    let run = sb.run(
        &["fire", "--no-default-settings", "--fail-closed"],
        &notification,
    );
    assert_eq!(run.code, Some(1), "{run:?}");

    // HOOKRUN_FAIL_CLOSED=1 is --fail-closed.
    sb.env("HOOKRUN_FAIL_CLOSED", "1");
    let run = sb.run(&["fire", "--no-default-settings", "pre_tool_use"], &stop);
    assert_eq!(run.code, Some(2), "{run:?}");
    let run = sb.run(&["fire", "--no-default-settings", "session_end"], &stop);
    assert_eq!(run.code, Some(1), "{run:?}");
}

#[test]
fn help_and_version_exit_0_on_stdout() {
    let sb = Sandbox::new();
    for args in [&["--help"][..], &["--version"], &["fire", "--help"]] {
        let run = sb.run(args, b"");
        assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
        assert!(!run.stdout.is_empty(), "{args:?}");
        assert_eq!(run.stderr, "", "{args:?}");
    }
}

#[test]
fn fail_closed_never_exits_2_on_events_that_cannot_block() {
    let sb = Sandbox::new();
    for event in ["Notification", "SessionEnd", "PostCompact", "SessionStart"] {
        let run = sb.run(
            &["fire", "--no-default-settings", "--fail-closed", event],
            b"not json",
        );
        assert_eq!(run.code, Some(1), "{event}: {run:?}");
        assert!(run.stderr.contains("not valid JSON"), "{event}: {run:?}");
    }
    // The control: the same input on events that can block does block.
    for event in ["PreToolUse", "Stop", "UserPromptSubmit"] {
        let run = sb.run(
            &["fire", "--no-default-settings", "--fail-closed", event],
            b"not json",
        );
        assert_eq!(run.code, Some(2), "{event}: {run:?}");
    }
}

#[test]
fn host_flag_accepts_claude_code_and_refuses_others_as_usage() {
    let sb = Sandbox::new();
    let settings = sb.settings(&hooks(
        "PreToolUse",
        json!([{"command": "echo no >&2; exit 2"}]),
    ));
    let event = sb.event("PreToolUse", &json!({"tool_name": "Bash"}));
    let settings = settings.to_str().unwrap();
    let run = sb.run(
        &[
            "fire",
            "--host",
            "claude-code",
            "--no-default-settings",
            "--settings",
            settings,
        ],
        &event,
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(2), "no\n"),
        "{run:?}"
    );
    let run = sb.run(
        &[
            "fire",
            "--host",
            "no-such-host",
            "--no-default-settings",
            "--settings",
            settings,
        ],
        &event,
    );
    assert_eq!(run.code, Some(1), "{run:?}");
}

#[test]
fn a_command_that_cannot_do_its_job_names_the_file_and_why_and_exits_1() {
    let sb = Sandbox::new();
    // `.hookrun` is a file: init cannot make the folder its starter goes in.
    let blocker = sb.project.join(".hookrun");
    std::fs::write(&blocker, "not a folder").unwrap();
    let run = sb.run(
        &[
            "init",
            "--project",
            "--project-dir",
            sb.project.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(run.stdout, "", "{run:?}");
    // The folder it tried, then the system's reason, on one line.
    let expected = format!(
        "hookrun: cannot create {}: ",
        blocker.join("hooks").display()
    );
    assert!(run.stderr.starts_with(&expected), "{run:?}");
    assert!(run.stderr.ends_with(")\n"), "the os error: {run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    assert_eq!(std::fs::read_to_string(&blocker).unwrap(), "not a folder");
    // A flag that cannot work with the host named is a usage mistake:
    // exit 1 too (never 2), the flag named.
    let run = sb.run(&["install", "codex", "--local"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(run.stdout, "", "{run:?}");
    assert!(
        run.stderr
            .starts_with("hookrun: --local: only Claude Code has a local settings file"),
        "{run:?}"
    );
}

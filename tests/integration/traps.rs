//! Traps a new user falls into: guards that end up off without a word, and
//! answers that come after the host gave up.

use serde_json::json;

use crate::support::{Sandbox, hooks};

// ---- the deadline covers the whole TERM→KILL sequence ---------------------

#[test]
fn a_hook_ignoring_sigterm_does_not_push_the_answer_past_the_deadline() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "UserPromptSubmit",
        json!([{ "command": "trap '' TERM; sleep 60 & wait; sleep 60" }]),
    ));
    let run = sandbox.run(
        &[
            "fire",
            "UserPromptSubmit",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
            "--deadline",
            "3s",
            "--kill-grace",
            "5s",
        ],
        &sandbox.event("UserPromptSubmit", &json!({ "prompt": "hi" })),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    // Before: SIGTERM at the deadline, SIGKILL a 5 s grace later (8 s).
    assert!(
        run.elapsed.as_secs_f64() < 6.0,
        "answered after the deadline plus the grace: {run:?}"
    );
    assert!(
        run.system_message().contains("deadline"),
        "says the deadline cut it: {run:?}"
    );
}

// ---- a misspelt event name is said, not swallowed -------------------------

#[test]
fn a_misspelt_event_argument_warns_with_the_event_it_probably_means() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "PreToolUse",
        json!([{ "command": "echo no >&2; exit 2" }]),
    ));
    let event = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Bash", "tool_input": {} }),
    );
    let file = settings.to_str().unwrap();
    let run = sandbox.run(
        &[
            "fire",
            "pre_tool_usee",
            "--no-default-settings",
            "--settings",
            file,
        ],
        &event,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let message = run.system_message();
    assert!(message.contains("did you mean `PreToolUse`"), "{run:?}");
    assert!(message.contains("differs from the input"), "{run:?}");

    let misspelt = sandbox.event(
        "PreToolUze",
        &json!({ "tool_name": "Bash", "tool_input": {} }),
    );
    let run = sandbox.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            file,
            "--format",
            "report",
        ],
        &misspelt,
    );
    let report = run.json();
    assert!(
        report.to_string().contains("did you mean `PreToolUse`"),
        "the report says it too: {report:#}"
    );

    // A new, unrelated event name passes through quietly.
    let new = sandbox.event("MyDeployEvent", &json!({}));
    let run = sandbox.run(&["fire", "--no-default-settings", "--settings", file], &new);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stdout.trim(), "{}", "{run:?}");
}

// ---- a misspelt filter key is an error, and fire says "unfiltered" --------

#[test]
fn a_misspelt_matcher_is_a_doctor_error_and_a_fire_warning() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "PreToolUse",
        json!([{ "matchr": "Bash", "command": "echo no >&2; exit 2" }]),
    ));
    let file = settings.to_str().unwrap();
    let run = sandbox.run(
        &["doctor", "--no-default-settings", "--settings", file],
        b"",
    );
    assert_eq!(run.code, Some(1), "an error: {run:?}");
    assert!(
        run.stdout.contains("filter-typo") || run.stdout.contains("misspelt `matcher`"),
        "{run:?}"
    );

    let read = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Read", "tool_input": {} }),
    );
    let run = sandbox.run(
        &[
            "fire",
            "PreToolUse",
            "--no-default-settings",
            "--settings",
            file,
        ],
        &read,
    );
    assert!(run.stdout.contains("runs unfiltered"), "{run:?}");
}

#[test]
fn a_lowercase_tool_name_and_a_millisecond_timeout_warn_at_fire_time() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "PreToolUse",
        json!([
            { "matcher": "bash", "command": "echo no >&2; exit 2" },
            { "matcher": "Read", "command": "true", "timeout": 5000 }
        ]),
    ));
    let file = settings.to_str().unwrap();
    let bash = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Bash", "tool_input": {} }),
    );
    let run = sandbox.run(
        &[
            "fire",
            "PreToolUse",
            "--no-default-settings",
            "--settings",
            file,
        ],
        &bash,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let message = run.system_message();
    assert!(message.contains("matcher names tool `bash`"), "{run:?}");
    assert!(message.contains("looks like milliseconds"), "{run:?}");
}

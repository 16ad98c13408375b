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

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

//! Limits that still give an answer in time: thousands of hooks under a
//! short deadline, more hooks than file descriptors, a hook forking while
//! it is killed.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Run, Sandbox, hooks, run_command, skipped};

fn bash() -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})
}

/// `n` distinct hooks running `command` (distinct, or they would be one
/// hook after deduplication), then a guard that blocks.
fn many(n: usize, command: &str, guard: Value) -> Value {
    let mut list: Vec<Value> = (0..n)
        .map(|i| json!({"name": format!("h{i}"), "command": format!("{command} # {i}")}))
        .collect();
    list.push(guard);
    hooks("PreToolUse", Value::Array(list))
}

fn fire_via(sb: &Sandbox, wrapper: &[&str], settings: &Value, extra: &[&str]) -> Run {
    let file = sb.settings(settings);
    run_command(
        sb.command_via(wrapper)
            .args(crate::support::fire_args("PreToolUse", &file, extra)),
        &sb.event("PreToolUse", &bash()),
    )
}

#[test]
fn starting_stops_at_the_deadline_and_what_did_not_start_is_named() {
    let sb = Sandbox::new();
    let guard =
        json!({"name": "guard", "command": "echo GUARD-RAN >&2; exit 2", "onError": "block"});
    let settings = many(2000, "sleep 30", guard);
    let run = fire_via(
        &sb,
        &[],
        &settings,
        &["--deadline", "1s", "--format", "report"],
    );
    // Starting 2,000 hooks takes several seconds; the answer may not.
    assert!(
        run.elapsed < Duration::from_secs(5),
        "answered after {:?}",
        run.elapsed
    );
    let report = run.json();
    let hooks = report["hooks"].as_array().unwrap();
    let not_started: Vec<&Value> = hooks
        .iter()
        .filter(|h| {
            h.to_string()
                .contains("the deadline passed before its turn came")
        })
        .collect();
    assert!(!not_started.is_empty(), "{}", run.stdout);
    // The guard listed last did not start either: it counts as its
    // onError, a block.
    let guard = run.hook("guard");
    assert!(
        guard.to_string().contains("could not start: the deadline"),
        "{guard}"
    );
    assert_eq!(report["decision"], "deny", "{}", run.stdout);
}

#[test]
fn hooks_beyond_the_descriptor_limit_wait_their_turn() {
    if std::process::Command::new("sh")
        .args(["-c", "ulimit -n 64"])
        .status()
        .map_or(true, |s| !s.success())
    {
        skipped("hooks_beyond_the_descriptor_limit_wait_their_turn: `ulimit -n 64` refused");
        return;
    }
    let sb = Sandbox::new();
    let marker = sb.path("guard-ran");
    let guard = json!({
        "name": "guard",
        "command": format!("touch {}; echo GUARD-BLOCKS >&2; exit 2", marker.display()),
    });
    // Each running hook holds three descriptors: 64 hold about 18 at once.
    let settings = many(60, "sleep 0.05", guard);
    let run = fire_via(
        &sb,
        &["sh", "-c", "ulimit -n 64 && exec \"$0\" \"$@\""],
        &settings,
        &[],
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr, "GUARD-BLOCKS\n");
    assert!(!run.stdout.contains("could not start"), "{}", run.stdout);
    assert!(marker.exists());
}

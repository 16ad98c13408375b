//! One input stage: `fire`, `explain` and `test` decode an event with the
//! same decoder, so the same odd event gets the same warnings and the same
//! host from each.

use serde_json::{Value, json};

use crate::support::{Sandbox, fixture};

/// The event's warnings and notes as `fire --format report` gives them.
fn fire_report(sb: &Sandbox, settings: &str, stdin: &[u8]) -> Value {
    let run = sb.run(
        &[
            "fire",
            "--format",
            "report",
            "--no-default-settings",
            "--settings",
            settings,
        ],
        stdin,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    run.json()
}

fn explain_json(sb: &Sandbox, settings: &str, stdin: &[u8]) -> Value {
    let run = sb.run(
        &[
            "explain",
            "--format",
            "json",
            "--no-default-settings",
            "--settings",
            settings,
        ],
        stdin,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    run.json()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("a list: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_misspelt_event_gets_the_same_name_warning_from_fire_explain_and_test() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let settings = settings.to_str().unwrap();
    let input = json!({"hook_event_name": "PreToolUze", "tool_name": "Bash",
        "tool_input": {"command": "ls"}});
    let stdin = serde_json::to_vec(&input).unwrap();
    let about_the_name = |warnings: Vec<String>| -> Vec<String> {
        warnings
            .into_iter()
            .filter(|w| w.contains("PreToolUze"))
            .collect()
    };
    let fired = about_the_name(strings(&fire_report(&sb, settings, &stdin)["warnings"]));
    assert!(
        fired
            .iter()
            .any(|w| w.contains("did you mean `PreToolUse`?")),
        "{fired:?}"
    );
    let explained = about_the_name(strings(
        &explain_json(&sb, settings, &stdin)["event_warnings"],
    ));
    assert_eq!(explained, fired, "explain");
    let case = sb.write(
        "cases/misspelt.json",
        &json!({"input": input, "settings": settings}).to_string(),
    );
    let run = sb.run(&["test", "--format", "json", case.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let tested = about_the_name(strings(&run.json()["cases"][0]["warnings"]));
    assert_eq!(tested, fired, "test");
}

#[test]
fn explain_names_the_host_that_really_sent_the_event_as_fire_does() {
    // Copilot CLI running a Claude Code install: fired as claude-code,
    // decoded and answered as Copilot CLI, and both commands say so.
    let mut sb = Sandbox::new();
    sb.env("COPILOT_CLI", "1");
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let settings = settings.to_str().unwrap();
    let text = std::fs::read_to_string(fixture("hosts/copilot/measured_pascal_pre_tool_use.json"))
        .unwrap();
    let mut event: Value = serde_json::from_str(&text).unwrap();
    event["cwd"] = json!(sb.project.to_str().unwrap());
    let stdin = serde_json::to_vec(&event).unwrap();
    let sent_by = |notes: Vec<String>| -> Vec<String> {
        notes
            .into_iter()
            .filter(|n| n.contains("sent by"))
            .collect()
    };
    let fired = sent_by(strings(&fire_report(&sb, settings, &stdin)["notes"]));
    assert_eq!(fired.len(), 1, "{fired:?}");
    assert!(fired[0].contains("Copilot"), "{fired:?}");
    let json = explain_json(&sb, settings, &stdin);
    assert_eq!(sent_by(strings(&json["event_notes"])), fired, "{json:#}");
    let run = sb.run(
        &["explain", "--no-default-settings", "--settings", settings],
        &stdin,
    );
    assert!(
        run.stdout.contains(&format!("  note: {}\n", fired[0])),
        "{}",
        run.stdout
    );
}

#[test]
fn explain_reads_the_deadline_fire_reads_and_refuses_what_fire_refuses() {
    let mut sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"Stop": [{"command": "true", "timeout": 60}]}}));
    let settings = settings.to_str().unwrap();
    let stop = sb.event("Stop", &json!({}));
    let explain = |sb: &Sandbox, extra: &[&str]| {
        let mut args = vec![
            "explain",
            "--format",
            "json",
            "--no-default-settings",
            "--settings",
            settings,
        ];
        args.extend_from_slice(extra);
        sb.run(&args, &stop)
    };
    let run = explain(&sb, &["--deadline", "3s"]);
    assert_eq!(run.json()["deadline_s"], 3.0, "{run:?}");
    sb.env("HOOKRUN_DEADLINE", "4s");
    let run = explain(&sb, &[]);
    assert_eq!(run.json()["deadline_s"], 4.0, "{run:?}");
    sb.env("HOOKRUN_DEADLINE", "abc");
    let fired = sb.run(&["fire", "--no-default-settings", "stop"], &stop);
    let explained = explain(&sb, &[]);
    assert_eq!(explained.code, fired.code, "{explained:?} vs {fired:?}");
    assert_eq!(explained.code, Some(1), "{explained:?}");
    assert!(
        explained
            .stderr
            .contains("the environment variable HOOKRUN_DEADLINE"),
        "{explained:?}"
    );
}

#[test]
fn inside_a_hook_only_a_host_on_the_command_line_counts_through_either_reader() {
    // A fire started by a hook (HOOKRUN_DEPTH) inherits the outer fire's
    // HOOKRUN_HOST: it answers in Claude Code's protocol unless its own
    // command line says `--host`. The fast reader and clap (which reads
    // `-v` before `fire`) must tell the two apart alike.
    let mut sb = Sandbox::new();
    sb.env("HOOKRUN_DEPTH", "1").env("HOOKRUN_HOST", "gemini");
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "command": "echo GUARDED >&2; exit 2"}]}}));
    let settings = settings.to_str().unwrap();
    let shell = std::fs::read_to_string(fixture("hosts/gemini/before_tool__shell.json"))
        .unwrap()
        .replace("/tmp/run/proj", sb.project.to_str().unwrap());
    let fire = |words: &[&str]| {
        let mut args = words.to_vec();
        args.extend(["--no-default-settings", "--settings", settings]);
        sb.run(&args, shell.as_bytes())
    };
    for words in [
        &["fire", "--host", "gemini"][..],
        &["-v", "fire", "--host=gemini"],
    ] {
        let run = fire(words);
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(
            said.contains("GUARDED"),
            "{words:?}: read as Gemini's: {run:?}"
        );
    }
    for words in [&["fire"][..], &["-v", "fire"]] {
        let run = fire(words);
        assert!(
            !run.stdout.contains("GUARDED") && !run.stderr.contains("GUARDED"),
            "{words:?}: read as Claude Code's, BeforeTool is no event of its: {run:?}"
        );
    }
}

//! `hookrun replay`: real Claude Code transcripts (recorded from the real
//! CLI against a scripted model, paths scrubbed) and edge cases, through
//! the real binary.

use serde_json::{Value, json};

use crate::support::{Sandbox, fixture, hooks};

fn replay(sb: &Sandbox, args: &[&str]) -> crate::support::Run {
    let mut all = vec!["replay", "--no-default-settings"];
    all.extend_from_slice(args);
    sb.run(&all, b"")
}

fn deny_rm(sb: &Sandbox) -> String {
    sb.settings(&json!({"permissions": {"deny": ["Bash(rm *)"]}}))
        .display()
        .to_string()
}

fn oracle() -> String {
    fixture("transcripts/oracle").display().to_string()
}

#[test]
fn a_new_deny_rule_over_real_sessions() {
    let sb = Sandbox::new();
    let policy = deny_rm(&sb);
    let run = replay(&sb, &["--settings", &policy, "--format", "json", &oracle()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = run.json();
    assert_eq!(out["mode"], "dry");
    assert_eq!(out["files"], 5);
    assert_eq!(
        out["sessions"], 4,
        "the subagent file belongs to its session"
    );
    assert_eq!(out["unreadable"]["count"], 0, "{}", out["unreadable"]);
    let by_name = &out["events_by_name"];
    assert_eq!(by_name["UserPromptSubmit"], 4);
    assert_eq!(by_name["Stop"], 4);
    assert_eq!(by_name["SubagentStop"], 1);
    assert_eq!(by_name["PostToolUseFailure"], 1, "`ls` of a missing folder");
    assert_eq!(
        out["recorded_tool_calls"]["denied"], 1,
        "the call a hook blocked"
    );
    assert_eq!(out["policy"]["decisions"]["deny"], 2);
    let changes = &out["changes"];
    assert_eq!(changes["baseline"], "recording");
    assert_eq!(changes["count"], 2);
    let whats: Vec<&str> = changes["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["what"].as_str().unwrap())
        .collect();
    assert_eq!(whats, ["rm -f old.log", "git status || true; rm tmp.txt"]);
    let first = &changes["events"][0];
    assert_eq!(first["kinds"], json!(["newly denied"]));
    assert_eq!(first["session"], "c220faa3-8927-4dd3-be6b-afdda7c98a04");
    assert!(first["time"].as_str().unwrap().starts_with("2026-"));
    assert!(first["reason"].as_str().unwrap().contains("Bash(rm *)"));
    assert!(
        first["file"]
            .as_str()
            .unwrap()
            .ends_with("replay_rm/c220faa3-8927-4dd3-be6b-afdda7c98a04.jsonl"),
        "{first}"
    );
    assert_eq!(first["line"], 22);
}

#[test]
fn the_text_summary_names_the_changes() {
    let sb = Sandbox::new();
    let policy = deny_rm(&sb);
    let run = replay(&sb, &["--settings", &policy, &oracle()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = &run.stdout;
    assert!(text.starts_with("replayed 4 sessions"), "{text}");
    assert!(text.contains("dry: no hook ran"), "{text}");
    assert!(
        text.contains("changes:   2 events (vs what the recording did): newly denied 2"),
        "{text}"
    );
    assert!(text.contains("top blocked:"), "{text}");
    assert!(text.contains("rm -f old.log"), "{text}");
    assert!(
        run.stderr.is_empty(),
        "no progress line off a terminal: {}",
        run.stderr
    );
}

#[test]
fn fail_on_change_exits_3_and_never_2() {
    let sb = Sandbox::new();
    let new = deny_rm(&sb);
    let old = sb.settings(&json!({})).display().to_string();
    let run = replay(
        &sb,
        &[
            "--settings",
            &new,
            "--against",
            &old,
            "--fail-on-change",
            "--format",
            "json",
            &oracle(),
        ],
    );
    assert_eq!(run.code, Some(3), "{}{}", run.stdout, run.stderr);
    let out = run.json();
    assert_eq!(out["changes"]["baseline"], "against");
    assert_eq!(out["changes"]["by_kind"]["newly denied"], 2);
    assert_eq!(
        out["against"]["decisions"]["none"], 9,
        "9 PreToolUse: 7 Bash, a Read, an Agent"
    );
    // Same policy on both sides: nothing changes, exit 0.
    let run = replay(
        &sb,
        &[
            "--settings",
            &new,
            "--against",
            &new,
            "--fail-on-change",
            &oracle(),
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("changes:   none"), "{}", run.stdout);
}

#[test]
fn against_reports_hooks_that_start_or_stop_running() {
    let sb = Sandbox::new();
    let hook = |matcher: &str| {
        hooks(
            "PreToolUse",
            json!([{"matcher": matcher, "hooks": [{"type": "command", "name": "guard", "command": "exit 0"}]}]),
        )
    };
    let new = sb.settings(&hook("Read")).display().to_string();
    let old = sb.settings(&hook("Bash")).display().to_string();
    let run = replay(
        &sb,
        &[
            "--settings",
            &new,
            "--against",
            &old,
            "--format",
            "json",
            &oracle(),
        ],
    );
    let out = run.json();
    let kinds = &out["changes"]["by_kind"];
    assert_eq!(kinds["hooks newly run"], 1, "{out}");
    assert_eq!(
        kinds["hooks no longer run"], 7,
        "{out}: the seven Bash calls"
    );
    assert_eq!(out["policy"]["hook_runs"]["guard"], 1);
    assert_eq!(out["against"]["hook_runs"]["guard"], 7);
}

#[test]
fn edge_cases_are_counted_and_named() {
    let sb = Sandbox::new();
    let policy = deny_rm(&sb);
    let edge = fixture("transcripts/edge").display().to_string();
    let out = replay(&sb, &["--settings", &policy, "--format", "json", &edge]).json();
    let unreadable = &out["unreadable"];
    assert_eq!(unreadable["count"], 2, "{unreadable}");
    assert_eq!(unreadable["records"][0]["line"], 8);
    assert!(
        unreadable["records"][0]["why"]
            .as_str()
            .unwrap()
            .starts_with("not a transcript record")
    );
    assert_eq!(unreadable["records"][1]["line"], 12);
    assert!(
        unreadable["records"][1]["why"]
            .as_str()
            .unwrap()
            .starts_with("truncated")
    );
    assert_eq!(out["unknown_record_types"]["hologram-snapshot"], 1);
    assert_eq!(
        out["subagent_events"], 3,
        "PreToolUse, PostToolUse, SubagentStop"
    );
    assert_eq!(
        out["recorded_tool_calls"]["no result"], 1,
        "the Edit cut off by the truncation"
    );
    let change = &out["changes"]["events"][0];
    assert_eq!(change["what"], "rm -rf build");
    assert_eq!(change["subagent"], true);
}

#[test]
fn a_very_large_tool_input_replays() {
    let sb = Sandbox::new();
    let policy = deny_rm(&sb);
    let big = format!("rm {}", "x".repeat(6 << 20));
    let records = [
        json!({"type": "user", "sessionId": "big", "cwd": "/w", "message": {"content": "go"}}),
        json!({"type": "assistant", "sessionId": "big", "message": {"content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": big}}]}}),
        json!({"type": "user", "sessionId": "big", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}),
    ];
    let text: Vec<String> = records.iter().map(Value::to_string).collect();
    let file = sb.write("big/s.jsonl", &(text.join("\n") + "\n"));
    let out = replay(
        &sb,
        &[
            "--settings",
            &policy,
            "--format",
            "json",
            file.to_str().unwrap(),
        ],
    )
    .json();
    assert_eq!(out["unreadable"]["count"], 0);
    assert_eq!(out["changes"]["count"], 1);
    assert!(
        out["changes"]["events"][0]["what"].as_str().unwrap().len() < 200,
        "shortened"
    );
}

#[test]
fn dry_runs_no_hook_and_run_runs_each_in_a_throwaway_folder() {
    let sb = Sandbox::new();
    let marker = sb.path("ran.txt");
    let settings = sb
        .settings(&hooks(
            "PreToolUse",
            json!([{"matcher": "Bash", "hooks": [{"type": "command", "name": "where",
                "command": format!("pwd >> {}", marker.display())}]}]),
        ))
        .display()
        .to_string();
    let rm = fixture("transcripts/oracle/replay_rm")
        .display()
        .to_string();
    let dry = replay(&sb, &["--settings", &settings, "--format", "json", &rm]);
    assert_eq!(dry.json()["policy"]["hook_runs"]["where"], 3);
    assert!(!marker.exists(), "a dry replay ran a hook");
    let run = replay(
        &sb,
        &["--settings", &settings, "--run", "--format", "json", &rm],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("hooks RUN"), "{}", run.stderr);
    assert_eq!(run.json()["mode"], "run");
    let dirs = std::fs::read_to_string(&marker).unwrap();
    let dirs: Vec<&str> = dirs.lines().collect();
    assert_eq!(dirs.len(), 3, "{dirs:?}");
    for dir in &dirs {
        assert!(dir.contains("hookrun-replay-"), "{dir}");
        assert!(!std::path::Path::new(dir).exists(), "{dir} was not removed");
    }
    assert_ne!(dirs[0], dirs[1], "one folder per event");
}

#[test]
fn run_reports_what_the_hooks_decided() {
    let sb = Sandbox::new();
    let settings = sb
        .settings(&hooks(
            "PreToolUse",
            json!([{"matcher": "Bash", "hooks": [{"type": "command", "name": "no-rm",
                "command": "grep -q '\"command\":\"rm' && { echo 'no rm here' >&2; exit 2; }; exit 0"}]}]),
        ))
        .display()
        .to_string();
    let rm = fixture("transcripts/oracle/replay_rm")
        .display()
        .to_string();
    let out = replay(
        &sb,
        &["--settings", &settings, "--run", "--format", "json", &rm],
    )
    .json();
    assert_eq!(out["changes"]["count"], 1, "{out}");
    let change = &out["changes"]["events"][0];
    assert_eq!(change["what"], "rm -f old.log");
    assert_eq!(change["reason"], "no rm here");
}

#[test]
fn the_audit_log_replays_when_it_recorded_the_input() {
    let mut sb = Sandbox::new();
    let log = sb.path("audit.jsonl");
    let log_arg = log.display().to_string();
    let empty = sb.settings(&json!({})).display().to_string();
    let event = sb.event(
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf dist"}}),
    );
    // Without the opt-in: a line without input, reported as such.
    let fired = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            &empty,
            "--log",
            &log_arg,
        ],
        &event,
    );
    assert_eq!(fired.code, Some(0), "{}", fired.stderr);
    sb.env("HOOKRUN_LOG_INPUT", "1");
    let fired = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            &empty,
            "--log",
            &log_arg,
        ],
        &event,
    );
    assert_eq!(fired.code, Some(0), "{}", fired.stderr);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines[0].get("input").is_none(), "off by default");
    assert_eq!(lines[1]["input"]["tool_input"]["command"], "rm -rf dist");
    let policy = deny_rm(&sb);
    let out = replay(&sb, &["--settings", &policy, "--format", "json", &log_arg]).json();
    assert_eq!(out["audit_lines_without_input"], 1);
    assert_eq!(out["events"], 1);
    assert_eq!(out["changes"]["events"][0]["what"], "rm -rf dist");
    assert_eq!(out["changes"]["events"][0]["session"], "it-session");
}

#[test]
fn a_missing_source_is_an_error_naming_it() {
    let sb = Sandbox::new();
    let run = replay(&sb, &["/no/such/sessions"]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("/no/such/sessions"), "{}", run.stderr);
    let empty = sb.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = replay(&sb, &[empty.to_str().unwrap()]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("no *.jsonl files"), "{}", run.stderr);
}

#[test]
fn a_policy_that_does_not_load_is_an_error_not_no_changes() {
    let sb = Sandbox::new();
    // Missing: exit 1, named on the first line, like a missing --against.
    let run = replay(
        &sb,
        &["--settings", "no-such.json", "--fail-on-change", &oracle()],
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(first.contains("--settings no-such.json"), "{run:?}");
    assert!(first.contains("no such settings file"), "{run:?}");
    // Untrusted (a relative path is project content): not `changes: none`.
    sb.write(
        "project/policy.json",
        &json!({"permissions": {"deny": ["Bash(rm *)"]}}).to_string(),
    );
    let run = replay(
        &sb,
        &["--settings", "policy.json", "--fail-on-change", &oracle()],
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(first.contains("policy.json"), "{run:?}");
    assert!(first.contains("untrusted"), "{run:?}");
    assert!(first.contains("hookrun trust"), "{run:?}");
    assert!(!run.stdout.contains("changes:   none"), "{run:?}");
    // The same on the --against side.
    let new = deny_rm(&sb);
    let run = replay(
        &sb,
        &["--settings", &new, "--against", "policy.json", &oracle()],
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.starts_with("hookrun: --against"), "{run:?}");
    // Trusted for the run, it loads and answers.
    let run = replay(
        &sb,
        &["--settings", "policy.json", "--trust-project", &oracle()],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
}

#[test]
fn every_replayed_event_is_listed_with_its_decision_and_hooks() {
    let sb = Sandbox::new();
    let policy = sb
        .settings(&json!({
            "permissions": {"deny": ["Bash(rm *)"]},
            "hooks": {"PreToolUse": [{"name": "audit", "matcher": "Bash", "command": "true"}]}
        }))
        .display()
        .to_string();
    let run = replay(&sb, &["--settings", &policy, "--format", "json", &oracle()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = run.json();
    let rows = out["replayed"].as_array().unwrap();
    assert_eq!(
        rows.len() as u64,
        out["events"].as_u64().unwrap(),
        "every event"
    );
    let bash: Vec<&Value> = rows
        .iter()
        .filter(|r| r["event"] == "PreToolUse" && r["hooks"] == json!(["audit"]))
        .collect();
    assert_eq!(bash.len(), 7, "7 Bash calls run the hook: {rows:#?}");
    let rm = rows.iter().find(|r| r["what"] == "rm -f old.log").unwrap();
    assert_eq!(rm["decision"], "deny");
    assert_eq!(rm["changed"], json!(["newly denied"]));
    let read = rows
        .iter()
        .find(|r| r["event"] == "PreToolUse" && r["hooks"] == json!([]))
        .unwrap();
    assert_eq!(read["decision"], "none");
    assert_eq!(read["changed"], json!([]));
    // The text lists them with --show all, and not by default.
    let run = replay(&sb, &["--settings", &policy, "--show", "all", &oracle()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("every replayed event ("),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("none · hooks: audit"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("deny · hooks: audit (denied by permission rule"),
        "{}",
        run.stdout
    );
    let run = replay(&sb, &["--settings", &policy, &oracle()]);
    assert!(
        !run.stdout.contains("every replayed event"),
        "{}",
        run.stdout
    );
    let run = replay(&sb, &["--settings", &policy, "--show", "lots", &oracle()]);
    assert_eq!(run.code, Some(1), "a usage error, never 2: {run:?}");
}

//! The recipes of docs/cookbook.md, run through the real binary: the
//! settings and scripts the document quotes are `fixtures/cookbook/*`
//! (quoted by `just gen`, so the page shows exactly what runs here).
//!
//! The scripts use `git`, and three of them `jq`, as real hook scripts do.
//! `cargo test` needs neither jq nor anything but the Rust toolchain and
//! git: the tests of the `jq` recipes print `SKIPPED: <test>: …` where jq is
//! missing, and [`recipes_fail_closed_or_loud_without_jq`] checks what those
//! recipes do then, on every machine.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{Run, Sandbox, fixture};

fn recipe(rel: &str) -> PathBuf {
    fixture(&format!("cookbook/{rel}"))
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `hookrun fire EVENT --no-default-settings --settings …` with `extra`
/// arguments, the event built from `fields` (cwd = the sandbox project).
fn fire(sb: &Sandbox, event: &str, settings: &[&Path], extra: &[&str], fields: &Value) -> Run {
    let mut args = vec!["fire", event, "--no-default-settings"];
    for file in settings {
        args.extend(["--settings", path_str(file)]);
    }
    args.extend(extra);
    sb.run(&args, &sb.event(event, fields))
}

/// A recipe's settings with its command changed (a test command, a script
/// path outside the fixture folder), written into the sandbox.
fn adapted(sb: &Sandbox, rel: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(recipe(rel)).unwrap();
    assert!(text.contains(from), "{rel} no longer contains {from:?}");
    let dir = recipe(rel).parent().unwrap().to_path_buf();
    let text = text
        .replace(from, to)
        .replace("$HOOKRUN_CONFIG_DIR", path_str(&dir));
    sb.write(&format!("cli/{}", rel.replace('/', "-")), &text)
}

/// Where `program` is on this process's PATH.
fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// False (and a SKIPPED line naming the test) when jq is not installed.
fn have_jq(test: &str) -> bool {
    if on_path("jq").is_some() {
        return true;
    }
    crate::support::skipped(&format!(
        "cookbook::{test}: jq is not installed (the recipe reads the event with jq)"
    ));
    false
}

fn git(project: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(project)
        .env("HOME", project)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .expect("git is installed");
    assert!(status.success(), "git {args:?}");
}

#[test]
fn recipe_cases_pass_under_hookrun_test() {
    if !have_jq("recipe_cases_pass_under_hookrun_test") {
        return;
    }
    let sb = Sandbox::new();
    let cases = [
        recipe("no-push-to-main/cases.json"),
        recipe("policy-gate/cases.json"),
    ];
    let run = sb.run(&["test", path_str(&cases[0]), path_str(&cases[1])], b"");
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("11 passed, 0 failed"), "{}", run.stdout);
}

#[test]
fn every_recipe_settings_file_is_clean_for_doctor() {
    let sb = Sandbox::new();
    for name in [
        "no-push-to-main",
        "format-on-edit",
        "tests-on-stop",
        "prompt-git-status",
        "audit-log",
        "policy-gate",
    ] {
        let settings = recipe(&format!("{name}/settings.json"));
        let run = sb.run(
            &[
                "doctor",
                "--no-default-settings",
                "--settings",
                path_str(&settings),
                "--format",
                "json",
            ],
            b"",
        );
        assert_eq!(run.code, Some(0), "{name}: {}", run.stdout);
        let report = run.json();
        let findings: Vec<&Value> = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] != "note")
            .collect();
        assert!(findings.is_empty(), "{name}: {findings:#?}");
    }
}

#[test]
fn push_to_main_bare_push_uses_the_current_branch() {
    if !have_jq("push_to_main_bare_push_uses_the_current_branch") {
        return;
    }
    let sb = Sandbox::new();
    git(&sb.project, &["init", "-q", "-b", "main"]);
    let settings = recipe("no-push-to-main/settings.json");
    let push = json!({ "tool_name": "Bash", "tool_input": { "command": "git push" } });
    let run = fire(&sb, "PreToolUse", &[&settings], &[], &push);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("Pushing to main is not allowed"),
        "{}",
        run.stderr
    );
    git(&sb.project, &["checkout", "-q", "-b", "feature"]);
    let run = fire(&sb, "PreToolUse", &[&settings], &[], &push);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.json(), json!({}));
}

#[test]
fn format_on_edit_formats_and_reports_what_it_cannot() {
    if !have_jq("format_on_edit_formats_and_reports_what_it_cannot") {
        return;
    }
    let mut sb = Sandbox::new();
    // rustfmt is usually rustup's proxy, which finds its toolchain through
    // these (the sandbox has its own HOME).
    for key in ["RUSTUP_HOME", "RUSTUP_TOOLCHAIN"] {
        if let Ok(value) = std::env::var(key) {
            sb.env(key, &value);
        }
    }
    let settings = recipe("format-on-edit/settings.json");
    let file = sb.write(
        "project/src/main.rs",
        "fn main(){let x=1;println!(\"{x}\");}\n",
    );
    let edit = |tool: &str| {
        json!({
            "tool_name": tool,
            "tool_input": { "file_path": path_str(&file) },
            "tool_response": { "success": true }
        })
    };
    // Read is not in the matcher: the file is left alone.
    let run = fire(&sb, "PostToolUse", &[&settings], &[], &edit("Read"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .starts_with("fn main(){")
    );

    let run = fire(&sb, "PostToolUse", &[&settings], &[], &edit("Edit"));
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n"
    );

    std::fs::write(&file, "fn main( {\n").unwrap();
    let run = fire(&sb, "PostToolUse", &[&settings], &[], &edit("Write"));
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(
        run.stderr.contains("The formatter rejected"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["decision"], "block");
}

crate::platform::unix_only! {
/// A formatter the host's PATH lacks is a warning naming it, never a
/// silent no-op.
#[test]
fn format_on_edit_says_when_the_formatter_is_not_on_the_hosts_path() {
    if !have_jq("format_on_edit_says_when_the_formatter_is_not_on_the_hosts_path") {
        return;
    }
    let mut sb = Sandbox::new();
    // A PATH with sh and jq, and no prettier: as a host started from a
    // desktop launcher might give it.
    let bin = sb.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["sh", "jq"] {
        let found = on_path(tool).unwrap();
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    sb.env("PATH", path_str(&bin));
    let settings = recipe("format-on-edit/settings.json");
    let file = sb.write("project/notes.md", "#  Title\n");
    let edit = json!({
        "tool_name": "Write",
        "tool_input": { "file_path": path_str(&file) },
        "tool_response": { "success": true }
    });
    let run = fire(&sb, "PostToolUse", &[&settings], &[], &edit);
    assert_eq!(run.code, Some(0), "the edit stands: {run:?}");
    let said = run.system_message();
    assert!(
        said.contains("prettier is not on PATH") && said.contains("was not formatted"),
        "{run:?}"
    );
}
}

#[test]
fn tests_on_stop_blocks_once_then_lets_the_agent_stop() {
    let sb = Sandbox::new();
    sb.script(
        "project/run-tests",
        "#!/bin/sh\nif [ -e passing ]; then echo ok; exit 0; fi\necho 'test result: FAILED. 3 passed; 1 failed'\nexit 101\n",
    );
    let settings = adapted(
        &sb,
        "tests-on-stop/settings.json",
        "cargo test --quiet",
        "./run-tests",
    );
    let stop =
        |active: bool, session: &str| json!({ "stop_hook_active": active, "session_id": session });

    let run = fire(&sb, "Stop", &[&settings], &[], &stop(false, "a"));
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(run.stderr.contains("The tests fail"), "{}", run.stderr);
    assert!(run.stderr.contains("1 failed"), "{}", run.stderr);

    // The agent went on because of that block: now it may stop.
    let run = fire(&sb, "Stop", &[&settings], &[], &stop(true, "a"));
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));

    sb.write("project/passing", "");
    let run = fire(&sb, "Stop", &[&settings], &[], &stop(false, "b"));
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
}

#[test]
fn tests_on_stop_has_the_stop_loop_guard_as_backstop() {
    // A host that never sets stop_hook_active: hookrun's guard ends the loop.
    let sb = Sandbox::new();
    sb.script("project/run-tests", "#!/bin/sh\necho FAILED\nexit 1\n");
    let settings = adapted(
        &sb,
        "tests-on-stop/settings.json",
        "cargo test --quiet",
        "./run-tests",
    );
    let stop = json!({ "session_id": "loop" });
    let cap = ["--stop-block-cap", "2"];
    for _ in 0..2 {
        let run = fire(&sb, "Stop", &[&settings], &cap, &stop);
        assert_eq!(run.code, Some(2), "{}", run.stdout);
    }
    let run = fire(&sb, "Stop", &[&settings], &cap, &stop);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.system_message().contains("--stop-block-cap"),
        "{}",
        run.stdout
    );
}

#[test]
fn prompt_git_status_adds_the_uncommitted_files() {
    let sb = Sandbox::new();
    let settings = recipe("prompt-git-status/settings.json");
    let prompt = json!({ "prompt": "add a login page" });
    // Not a repository: nothing to say.
    let run = fire(&sb, "UserPromptSubmit", &[&settings], &[], &prompt);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.json(), json!({}));

    git(&sb.project, &["init", "-q"]);
    sb.write("project/notes.txt", "todo\n");
    let run = fire(&sb, "UserPromptSubmit", &[&settings], &[], &prompt);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let output = run.json();
    assert_eq!(
        output["hookSpecificOutput"]["hookEventName"],
        "UserPromptSubmit"
    );
    let context = output["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(context.contains("?? notes.txt"), "{context}");
}

#[test]
fn audit_log_feeds_stats() {
    let sb = Sandbox::new();
    let log_settings = recipe("audit-log/settings.json");
    let push_settings = recipe("no-push-to-main/settings.json");
    for (id, command) in [("t1", "git push origin main"), ("t2", "ls")] {
        let call = json!({
            "tool_name": "Bash",
            "tool_use_id": id,
            "tool_input": { "command": command }
        });
        fire(
            &sb,
            "PreToolUse",
            &[&log_settings, &push_settings],
            &[],
            &call,
        );
    }
    let log = sb.home.join(".local/state/hookrun/audit.jsonl");
    let lines = std::fs::read_to_string(&log).unwrap();
    assert_eq!(lines.lines().count(), 2, "{lines}");

    let run = sb.run(
        &[
            "stats",
            "--no-default-settings",
            "--settings",
            path_str(&log_settings),
            "--settings",
            path_str(&push_settings),
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let stats = run.stdout;
    assert!(stats.contains("no-push-to-main"), "{stats}");
    assert!(stats.contains("PreToolUse"), "{stats}");
}

#[test]
fn policy_gate_fails_closed() {
    if !have_jq("policy_gate_fails_closed") {
        return;
    }
    let mut sb = Sandbox::new();
    let settings = recipe("policy-gate/settings.json");
    let call = json!({ "tool_name": "Bash", "tool_input": { "command": "cargo build" } });
    let run = fire(&sb, "PreToolUse", &[&settings], &[], &call);
    assert_eq!(run.code, Some(0), "{}", run.stderr);

    // The gate cannot do its job: onError "block" blocks.
    sb.env("HOOKRUN_POLICY_FILE", "/nonexistent/policy.txt");
    let run = fire(&sb, "PreToolUse", &[&settings], &[], &call);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(
        run.stderr.contains("cannot read the policy file")
            && run.stderr.contains("onError is \"block\""),
        "{}",
        run.stderr
    );

    // A settings file that does not load: a warning, or with --fail-closed a block.
    let sb = Sandbox::new();
    let broken = fixture("settings/broken.json");
    let run = fire(&sb, "PreToolUse", &[&settings, &broken], &[], &call);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.system_message().contains("broken.json"),
        "{}",
        run.stdout
    );
    let run = fire(
        &sb,
        "PreToolUse",
        &[&settings, &broken],
        &["--fail-closed"],
        &call,
    );
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(run.stderr.contains("broken.json"), "{}", run.stderr);
}

crate::platform::unix_only! {
#[test]
fn recipes_fail_closed_or_loud_without_jq() {
    // A PATH with the tools the scripts use, but no jq.
    let mut sb = Sandbox::new();
    let bin = sb.path("bin-without-jq");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["sh", "cat", "grep", "git", "head", "tail", "printf"] {
        if let Some(found) = on_path(tool) {
            std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
        }
    }
    sb.env("PATH", path_str(&bin));

    let push = json!({ "tool_name": "Bash", "tool_input": { "command": "git push origin main" } });
    let run = fire(
        &sb,
        "PreToolUse",
        &[&recipe("no-push-to-main/settings.json")],
        &[],
        &push,
    );
    assert_eq!(run.code, Some(2), "the push must not go through: {run:?}");
    assert!(run.stderr.contains("jq is not installed"), "{run:?}");

    let build = json!({ "tool_name": "Bash", "tool_input": { "command": "cargo build" } });
    let run = fire(
        &sb,
        "PreToolUse",
        &[&recipe("policy-gate/settings.json")],
        &[],
        &build,
    );
    assert_eq!(run.code, Some(2), "the gate fails closed: {run:?}");
    assert!(run.stderr.contains("jq is not installed"), "{run:?}");

    let edit = json!({ "tool_name": "Edit", "tool_input": { "file_path": "/x.rs" } });
    let run = fire(
        &sb,
        "PostToolUse",
        &[&recipe("format-on-edit/settings.json")],
        &[],
        &edit,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.system_message().contains("jq is not installed"),
        "loud: {run:?}"
    );
}
}

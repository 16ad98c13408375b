//! Where features meet: hosts × `hookrun test`, prompt hooks, the event-name
//! warnings, init × install, exit codes of the newer commands.

use serde_json::{Value, json};

use crate::support::{Sandbox, fixture};

/// Nine blocked Stops of one session, each a case of one `hookrun test` run.
fn stop_cases(host: Option<&str>, event: &str) -> Value {
    let case = |i: usize| {
        let mut case = json!({
            "name": format!("stop {i}"),
            "input": {"hook_event_name": event, "session_id": "s-1", "stop_hook_active": i > 1},
            "settings": {"hooks": {"Stop": [{"command": "echo go on >&2; exit 2"}]}},
            "expect": {"decision": "block"}
        });
        if let Some(host) = host {
            case["host"] = json!(host);
        }
        case
    };
    Value::Array((1..=9).map(case).collect())
}

#[test]
fn test_cases_use_the_stop_block_cap_fire_uses_behind_claude_code() {
    // Behind Claude Code (its own cap: 8) `fire` lets the 9th block through
    // so Claude Code's cap ends the turn; `hookrun test` must say the same.
    let sb = Sandbox::new();
    let file = sb.write("cases/stop.json", &stop_cases(None, "Stop").to_string());
    let run = sb.run(&["test", file.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.ends_with("9 passed, 0 failed\n"), "{run:?}");
}

#[test]
fn test_cases_run_as_the_named_host_gets_them() {
    let sb = Sandbox::new();
    let shell = fixture("hosts/gemini/before_tool__shell.json");
    let cases = json!([
        {
            "name": "a Gemini shell call meets a Bash hook",
            "host": "gemini",
            "input": shell.to_str().unwrap(),
            "settings": {"hooks": {"PreToolUse": [{
                "matcher": "Bash",
                "command": "echo \"no: $HOOKRUN_HOST $HOOKRUN_HOST_TOOL_NAME\" >&2; exit 2"
            }]}},
            "expect": {"decision": "deny", "exit": 0, "reasonContains": "no: gemini run_shell_command"}
        },
        {"name": "typo", "host": "gemeni", "event": "Stop"}
    ]);
    let file = sb.write("cases/gemini.json", &cases.to_string());
    let run = sb.run(&["test", file.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stdout.contains("ok    "), "{run:?}");
    assert!(
        run.stdout
            .contains("host: \"gemeni\" is not a host (one of claude-code, gemini"),
        "{run:?}"
    );

    // Gemini has no Stop cap of its own: hookrun's (8) is the only one, so
    // the 9th block is let through. `--host` sets the host for every case.
    let cases = stop_cases(None, "AfterAgent");
    let file = sb.write("cases/gemini-stop.json", &cases.to_string());
    let run = sb.run(&["test", "--host", "gemini", file.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stdout.contains("FAIL  "), "{run:?}");
    assert!(run.stdout.contains("stop 9\n"), "{run:?}");
    assert!(run.stdout.ends_with("8 passed, 1 failed\n"), "{run:?}");
}

#[test]
fn event_name_warnings_behind_gemini_use_geminis_names() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let shell = std::fs::read_to_string(fixture("hosts/gemini/before_tool__shell.json")).unwrap();
    let fire = |args: &[&str], input: &str| {
        let all = crate::support::host_args("fire", "gemini", &settings, args);
        sb.run(&all, input.as_bytes())
    };
    // Gemini's own names, with or without a (Claude Code) argument: quiet.
    for args in [&[][..], &["BeforeTool"], &["PreToolUse"]] {
        let run = fire(args, &shell);
        assert_eq!(run.code, Some(0), "{args:?} {run:?}");
        assert!(
            !run.stdout.contains("not a known event"),
            "{args:?} {run:?}"
        );
        assert!(!run.stdout.contains("differs"), "{args:?} {run:?}");
    }
    // A misspelt Gemini name is said to be one.
    let run = fire(&[], &shell.replace("\"BeforeTool\"", "\"BeforeTol\""));
    assert!(run.stdout.contains("did you mean `BeforeTool`?"), "{run:?}");
    // A real mismatch names the event whose hooks ran.
    let run = fire(&["AfterTool"], &shell);
    assert!(
        run.stdout.contains("hooks for `PostToolUse` ran"),
        "{run:?}"
    );
}

#[test]
fn init_prints_the_entry_install_writes() {
    let sb = Sandbox::new();
    let run = sb.run(&["init"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout
            .contains("\n    hookrun install claude-code --user\n"),
        "{run:?}"
    );
    let start = run.stdout.find("\n{\n").unwrap() + 1;
    let end = run.stdout[start..].find("\n}\n").unwrap() + start + 2;
    let printed: Value = serde_json::from_str(&run.stdout[start..end]).unwrap();

    let run = sb.run(&["install", "claude-code", "--user"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let written: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.home.join(".claude/settings.json")).unwrap(),
    )
    .unwrap();
    // The starter has PreToolUse hooks: install routes that event, with the
    // very entry init printed for it.
    assert_eq!(
        written["hooks"]["PreToolUse"], printed["hooks"]["PreToolUse"],
        "init printed {printed:#}\ninstall wrote {written:#}"
    );
}

#[test]
fn both_indexes_link_every_doc_and_the_readme_lists_every_command() {
    let repo = crate::support::repo();
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let index = std::fs::read_to_string(repo.join("docs/README.md")).unwrap();
    let mut docs = Vec::new();
    for dir in ["docs", "docs/design"] {
        for entry in std::fs::read_dir(repo.join(dir)).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let markdown = entry.path().extension().is_some_and(|e| e == "md");
            if markdown && name != "README.md" {
                docs.push(format!(
                    "{}/{name}",
                    dir.trim_start_matches("docs").trim_start_matches('/')
                ));
            }
        }
    }
    for doc in &docs {
        let doc = doc.trim_start_matches('/');
        assert!(
            readme.contains(&format!("](docs/{doc})")),
            "README.md does not link docs/{doc}"
        );
        assert!(
            index.contains(&format!("]({doc})")),
            "docs/README.md does not link {doc}"
        );
    }
    let commands = &readme[readme.find("\n## Commands\n").unwrap()..];
    let commands = &commands[..commands[1..].find("\n## ").unwrap()];
    for command in [
        "init",
        "install",
        "uninstall",
        "status",
        "fire",
        "doctor",
        "explain",
        "list",
        "test",
        "trust",
        "stats",
    ] {
        assert!(
            commands.contains(&format!("`hookrun {command}"))
                || commands.contains(&format!("/ `{command}"))
                || commands.contains(&format!("`{command} HOST`")),
            "README's commands table misses {command}"
        );
    }
}

#[test]
fn a_hookrun_fire_inside_a_hook_behind_gemini_answers_that_hook_in_claude_codes_protocol() {
    // The hook gets the event in Claude Code's vocabulary and is read in
    // Claude Code's protocol; the HOOKRUN_HOST=gemini its environment
    // carries says who called the outer fire, not how to answer the hook.
    let sb = Sandbox::new();
    let inner = sb.settings(&json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "command":
        "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo rewritten\"}}}'"}]}}));
    let outer = sb.settings(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "command": format!(
            "{} fire --no-default-settings --settings {}",
            crate::support::BIN,
            inner.display()
        )}]}}),
    );
    // Captured elsewhere: its cwd is this sandbox's project here.
    let shell = std::fs::read_to_string(fixture("hosts/gemini/before_tool__shell.json"))
        .unwrap()
        .replace("/tmp/run/proj", sb.project.to_str().unwrap());
    let shell = shell.as_bytes();
    let run = sb.run(
        &crate::support::host_args("fire", "gemini", &outer, &[]),
        shell,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let answer = run.json();
    assert_eq!(
        answer["hookSpecificOutput"]["tool_input"]["command"], "echo rewritten",
        "{run:?}"
    );
    assert!(answer.get("systemMessage").is_none(), "{run:?}");
}

#[test]
fn explain_gives_fires_event_name_warnings_in_the_hosts_vocabulary() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let shell = std::fs::read_to_string(fixture("hosts/gemini/before_tool__shell.json"))
        .unwrap()
        .replace("/tmp/run/proj", sb.project.to_str().unwrap());
    let explain = |args: &[&str], input: &str| {
        let all = crate::support::host_args("explain", "gemini", &settings, args);
        sb.run(&all, input.as_bytes())
    };
    let run = explain(&[], &shell.replace("\"BeforeTool\"", "\"BeforeTol\""));
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("warning: event `BeforeTol`"), "{run:?}");
    assert!(run.stdout.contains("did you mean `BeforeTool`?"), "{run:?}");
    let run = explain(&["PreToolUse"], &shell);
    assert!(!run.stdout.contains("warning: "), "{run:?}");
    let run = explain(
        &["--format", "json"],
        &shell.replace("\"BeforeTool\"", "\"BeforeTol\""),
    );
    assert_eq!(
        run.json()["event_warnings"].as_array().unwrap().len(),
        1,
        "{run:?}"
    );
}

//! The diagnostic commands through the real binary: `doctor` (one settings
//! file per check, asserting file, JSON path and fix), `explain` (each
//! funnel layer), `list` and `test`.

use serde_json::{Value, json};

use crate::support::{Run, Sandbox, fixture, hooks};

// ---------------------------------------------------------------- doctor

/// `doctor --format json` on one settings file.
fn doctor(sb: &Sandbox, file: &std::path::Path) -> (Run, Vec<Value>) {
    let run = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    let findings = run.json()["findings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (run, findings)
}

/// One doctor check: settings that trigger exactly this finding.
struct Case {
    check: &'static str,
    settings: Value,
    json_path: &'static str,
    severity: &'static str,
    /// The fix contains this.
    fix: &'static str,
}

fn case(
    check: &'static str,
    settings: Value,
    json_path: &'static str,
    severity: &'static str,
    fix: &'static str,
) -> Case {
    Case {
        check,
        settings,
        json_path,
        severity,
        fix,
    }
}

#[expect(
    clippy::too_many_lines,
    reason = "a case table: one case per check, each a few lines"
)]
fn checks() -> Vec<Case> {
    vec![
        case(
            "permission-rule-invalid",
            json!({"permissions": {"deny": ["Read", "Bash(rm -rf *)", "Bash("]}}),
            "permissions.deny[2]",
            "error",
            "Tool(specifier)",
        ),
        case(
            "allow-rule-invalid",
            json!({"permissions": {"allow": ["mcp__gh*"]}}),
            "permissions.allow[0]",
            "warning",
            "Tool(specifier)",
        ),
        case(
            "invalid-entry",
            json!({"hooks": {"Stop": {"command": "echo"}}}),
            "hooks.Stop",
            "error",
            "wrap the hooks in a list",
        ),
        case(
            "invalid-value",
            hooks("Stop", json!([{"command": "echo", "timeout": "10"}])),
            "hooks.Stop[0].timeout",
            "error",
            "\"timeout\": 10",
        ),
        case(
            "unknown-event",
            hooks("PreToolUsed", json!([{"command": "echo"}])),
            "hooks.PreToolUsed",
            "error",
            "rename the key to `PreToolUse`",
        ),
        case(
            "unknown-key",
            json!({"hoks": {}}),
            "hoks",
            "warning",
            "rename it to `hooks`",
        ),
        case(
            "unknown-field",
            hooks("Stop", json!([{"command": "echo", "timout": 5}])),
            "hooks.Stop[0].timout",
            "warning",
            "rename it to `timeout`",
        ),
        case(
            "empty-group",
            hooks("Stop", json!([{"hooks": []}])),
            "hooks.Stop[0].hooks",
            "warning",
            "add hooks to the group",
        ),
        case(
            "ignored-field",
            hooks(
                "PreToolUse",
                json!([{"matcher": "Bash", "hooks": [{"command": "echo", "matcher": "Edit"}]}]),
            ),
            "hooks.PreToolUse[0].hooks[0].matcher",
            "warning",
            "remove the inner `matcher`",
        ),
        case(
            "hooks-disabled",
            json!({"disableAllHooks": true}),
            "disableAllHooks",
            "error",
            "remove `disableAllHooks`",
        ),
        case(
            "not-run",
            hooks("Stop", json!([{"type": "webhook"}])),
            "hooks.Stop[0].type",
            "error",
            "rewrite it as a command hook",
        ),
        case(
            "not-run",
            hooks("Stop", json!([{"command": "echo", "shell": "zsh"}])),
            "hooks.Stop[0].shell",
            "error",
            "rewrite it as a command hook",
        ),
        case(
            "matcher-invalid",
            hooks(
                "PreToolUse",
                json!([{"matcher": "Bash(git push", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].matcher",
            "error",
            "move it to `if`",
        ),
        case(
            "matcher-invalid",
            hooks(
                "PreToolUse",
                json!([{"matcher": "[Edit", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].matcher",
            "error",
            "escape the regex characters",
        ),
        case(
            "matcher-looks-like-rule",
            hooks(
                "PreToolUse",
                json!([{"matcher": "Bash(git push *)", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].matcher",
            "error",
            r#"set "matcher": "Bash" and "if": "Bash(git push *)""#,
        ),
        case(
            "matcher-not-portable",
            hooks(
                "PreToolUse",
                json!([{"matcher": "(?<=Notebook)Edit", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].matcher",
            "note",
            "nothing to do for hookrun",
        ),
        case(
            "matcher-ignored",
            hooks(
                "Stop",
                json!([{"matcher": "Bash", "hooks": [{"command": "echo"}]}]),
            ),
            "hooks.Stop[0].matcher",
            "warning",
            "remove `matcher`",
        ),
        case(
            "matcher-matches-nothing",
            hooks("PreToolUse", json!([{"matcher": "|", "command": "echo"}])),
            "hooks.PreToolUse[0].matcher",
            "error",
            "write the names to match",
        ),
        case(
            "tool-name-case",
            hooks(
                "PreToolUse",
                json!([{"matcher": "bash", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].matcher",
            "error",
            "write `Bash`",
        ),
        case(
            "tool-name-case",
            hooks(
                "PreToolUse",
                json!([{"if": "bash(rm *)", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].if",
            "error",
            "write `Bash`",
        ),
        case(
            "tool-name-typo",
            hooks(
                "PostToolUse",
                json!([{"matcher": "Wirte", "command": "echo"}]),
            ),
            "hooks.PostToolUse[0].matcher",
            "warning",
            "write `Write`",
        ),
        case(
            "matcher-overmatch",
            hooks(
                "PreToolUse",
                json!([{"matcher": "Edit.*", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].matcher",
            "warning",
            r#"write the exact list "Edit" or anchor it: "^(Edit)$""#,
        ),
        case(
            "if-invalid",
            hooks(
                "PreToolUse",
                json!([{"if": "Bash(git push", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].if",
            "error",
            "`Tool` or `Tool(specifier)`",
        ),
        case(
            "if-never-applies",
            hooks(
                "SessionStart",
                json!([{"if": "Bash(ls)", "command": "echo"}]),
            ),
            "hooks.SessionStart[0].if",
            "error",
            "remove `if`",
        ),
        case(
            "if-matcher-conflict",
            hooks(
                "PreToolUse",
                json!([{"matcher": "Edit|Write", "if": "Bash(rm *)", "command": "echo"}]),
            ),
            "hooks.PreToolUse[0].if",
            "error",
            "make the matcher include Bash",
        ),
        case(
            "exit-1-does-not-block",
            hooks(
                "PreToolUse",
                json!([{"command": "echo 'no pushes' >&2; exit 1"}]),
            ),
            "hooks.PreToolUse[0].command",
            "error",
            "use `exit 2` to block",
        ),
        case(
            "block-not-enforced",
            hooks("SessionStart", json!([{"command": "echo no >&2; exit 2"}])),
            "hooks.SessionStart[0].command",
            "error",
            "move the check to an event that can block",
        ),
        case(
            "recursion",
            hooks("Stop", json!([{"command": "hookrun fire"}])),
            "hooks.Stop[0].command",
            "error",
            "`hookrun fire` belongs only in the host's settings",
        ),
        case(
            "command-missing",
            hooks(
                "Stop",
                json!([{"command": "\"$HOOKRUN_CONFIG_DIR\"/hooks/gone.sh"}]),
            ),
            "hooks.Stop[0].command",
            "error",
            "fix the path",
        ),
        case(
            "command-not-on-path",
            hooks(
                "Stop",
                json!([{"command": "hookrun-no-such-program --flag"}]),
            ),
            "hooks.Stop[0].command",
            "warning",
            "install `hookrun-no-such-program`",
        ),
        case(
            "script-missing",
            hooks(
                "PreToolUse",
                json!([{"command": "sh \"${CLAUDE_PROJECT_DIR}/missing.sh\""}]),
            ),
            "hooks.PreToolUse[0].command",
            "error",
            "fix the script path",
        ),
        case(
            "exec-form-variable",
            hooks(
                "Stop",
                json!([{"command": "echo", "args": ["$HOOKRUN_CONFIG_DIR"]}]),
            ),
            "hooks.Stop[0].args[0]",
            "warning",
            "write the variable with braces",
        ),
        case(
            "timeout-milliseconds",
            hooks("Stop", json!([{"command": "echo", "timeout": 5000}])),
            "hooks.Stop[0].timeout",
            "warning",
            "write 5 for 5000 ms",
        ),
        case(
            "timeout-exceeds-host",
            hooks(
                "UserPromptSubmit",
                json!([{"command": "echo", "timeout": 60}]),
            ),
            "hooks.UserPromptSubmit[0].timeout",
            "warning",
            "lower it to at most 27 s",
        ),
        case(
            "timeout-no-grace",
            hooks(
                "UserPromptSubmit",
                json!([{"command": "echo", "timeout": 28}]),
            ),
            "hooks.UserPromptSubmit[0].timeout",
            "warning",
            "lower it to at most 27 s",
        ),
        case(
            "file-changed-host",
            hooks(
                "FileChanged",
                json!([{"matcher": ".envrc", "command": "echo"}]),
            ),
            "hooks.FileChanged[0].matcher",
            "error",
            r#""FileChanged": [{"matcher": ".envrc", "hooks": [{"type": "command", "command": "hookrun fire"}]}]"#,
        ),
    ]
}

#[test]
fn doctor_reports_each_check_with_file_path_and_fix() {
    let sb = Sandbox::new();
    for c in checks() {
        let file = sb.settings(&c.settings);
        let (run, findings) = doctor(&sb, &file);
        assert_eq!(findings.len(), 1, "{}: {findings:#?}", c.check);
        let f = &findings[0];
        assert_eq!(f["check"], c.check, "{f:#?}");
        assert_eq!(f["file"], file.to_str().unwrap(), "{f:#?}");
        assert_eq!(f["json_path"], c.json_path, "{f:#?}");
        assert_eq!(f["severity"], c.severity, "{f:#?}");
        assert!(
            f["fix"].as_str().unwrap().contains(c.fix),
            "{}: fix {:?} lacks {:?}",
            c.check,
            f["fix"],
            c.fix
        );
        assert!(
            !f["message"].as_str().unwrap().is_empty(),
            "{}: an empty message",
            c.check
        );
        let code = i32::from(c.severity == "error");
        assert_eq!(run.code, Some(code), "{}: {run:?}", c.check);
    }
}

#[test]
fn doctor_file_level_errors() {
    let sb = Sandbox::new();
    for (content, check) in [("{\"hooks\": {,}}", "json-syntax"), ("[]", "json-shape")] {
        let file = sb.write(&format!("cli/{check}.json"), content);
        let (run, findings) = doctor(&sb, &file);
        assert_eq!(run.code, Some(1), "{run:?}");
        assert_eq!(findings.len(), 1, "{findings:#?}");
        assert_eq!(findings[0]["check"], check);
        assert_eq!(findings[0]["file"], file.to_str().unwrap());
        assert_eq!(findings[0]["json_path"], "");
    }
    // A directory where a file should be cannot be read.
    let dir = sb.path("cli/a-directory.json");
    std::fs::create_dir_all(&dir).unwrap();
    let (run, findings) = doctor(&sb, &dir);
    assert_eq!(run.code, Some(1));
    assert_eq!(findings[0]["check"], "settings-unreadable");
}

#[test]
fn doctor_notes_what_a_claude_code_file_keeps_for_claude_code() {
    let sb = Sandbox::new();
    // Inside a `.claude/` folder (not the project's): read in Claude Code mode.
    let file = sb.write(
        "elsewhere/.claude/settings.json",
        &json!({"env": {"A": "1"}, "model": "opus"}).to_string(),
    );
    let (run, findings) = doctor(&sb, &file);
    assert_eq!(run.code, Some(0));
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0]["check"], "claude-mode");
    assert_eq!(findings[0]["severity"], "note");
    assert_eq!(findings[0]["json_path"], "env");
}

#[test]
fn doctor_checks_the_permission_rules_of_a_claude_code_file() {
    let sb = Sandbox::new();
    // hookrun enforces a `.claude/` file's deny and ask rules behind every
    // host but Claude Code: one that cannot parse is a guard that never holds.
    let file = sb.write(
        "elsewhere/.claude/settings.json",
        &json!({"permissions": {"deny": ["Read(.env)", "mcp__*__x"], "ask": ["Bash(git push"]}})
            .to_string(),
    );
    let (run, findings) = doctor(&sb, &file);
    assert_eq!(run.code, Some(1), "{run:?}");
    let bad: Vec<(&str, &str)> = findings
        .iter()
        .filter(|f| f["check"] == "permission-rule-invalid")
        .map(|f| {
            (
                f["json_path"].as_str().unwrap(),
                f["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        bad,
        [
            ("permissions.deny[1]", "error"),
            ("permissions.ask[0]", "error")
        ],
        "{findings:#?}"
    );
}

#[test]
fn doctor_checks_commands_on_disk() {
    let sb = Sandbox::new();
    // Not executable: exits 126 on every run.
    let script = sb.write("cli/hooks/plain.sh", "#!/bin/sh\nexit 0\n");
    let file = sb.settings(&hooks(
        "Stop",
        json!([{"command": "$HOOKRUN_CONFIG_DIR/hooks/plain.sh"}]),
    ));
    let (run, findings) = doctor(&sb, &file);
    assert_eq!(run.code, Some(1));
    assert_eq!(findings[0]["check"], "command-not-executable");
    assert_eq!(findings[0]["fix"], format!("chmod +x {}", script.display()));

    // python3 with a missing script exits 2: every call blocked.
    let file = sb.settings(&hooks(
        "PreToolUse",
        json!([{"command": "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py"}]),
    ));
    let (_, findings) = doctor(&sb, &file);
    let missing: Vec<_> = findings
        .iter()
        .filter(|f| f["check"] == "script-missing")
        .collect();
    if !findings.iter().any(|f| f["check"] == "command-not-on-path") {
        assert_eq!(missing.len(), 1, "{findings:#?}");
        let message = missing[0]["message"].as_str().unwrap();
        assert!(message.contains("exits 2"), "{message}");
        assert!(message.contains("every PreToolUse is blocked"), "{message}");
        assert!(
            message.contains(
                &sb.project
                    .join(".claude/hooks/guard.py")
                    .display()
                    .to_string()
            ),
            "{message}"
        );
    }

    // A script relative to the working directory works only from the root.
    sb.script("project/scripts/check.sh", "#!/bin/sh\nexit 0\n");
    let file = sb.settings(&hooks("Stop", json!([{"command": "./scripts/check.sh"}])));
    let (run, findings) = doctor(&sb, &file);
    assert_eq!(run.code, Some(0));
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0]["check"], "relative-path");
    assert_eq!(
        findings[0]["fix"],
        "anchor it: \"$CLAUDE_PROJECT_DIR\"/scripts/check.sh"
    );
}

#[test]
fn doctor_finds_files_the_host_loads_itself() {
    let sb = Sandbox::new();
    let claude = sb.write(
        "project/.claude/settings.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}})
            .to_string(),
    );
    // Inside the project, the file needs trust like any project file.
    assert_eq!(
        sb.run(&["trust", claude.to_str().unwrap()], b"").code,
        Some(0)
    );
    let run = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--claude-settings",
            claude.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    let findings = run.json()["findings"].as_array().cloned().unwrap();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0]["check"], "host-loads-file");
    assert_eq!(findings[0]["file"], claude.to_str().unwrap());
    assert_eq!(findings[0]["json_path"], "hooks");
    assert!(
        findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("run twice")
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn doctor_accepts_a_file_changed_hook_the_host_watches() {
    let mut sb = Sandbox::new();
    // The host finds `hookrun` on its PATH.
    let bin_dir = std::path::Path::new(crate::support::BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    sb.env("PATH", &path);
    sb.write(
        "project/.claude/settings.json",
        &json!({"hooks": {"FileChanged": [{"matcher": ".envrc|.env",
            "hooks": [{"type": "command", "command": "hookrun fire"}]}]}})
        .to_string(),
    );
    let file = sb.settings(&hooks(
        "FileChanged",
        json!([{"matcher": ".envrc", "command": "echo reload"}]),
    ));
    let (run, findings) = doctor(&sb, &file);
    assert_eq!(findings, Vec::<Value>::new());
    assert_eq!(run.code, Some(0));

    let file = sb.settings(&hooks(
        "FileChanged",
        json!([{"matcher": "package.json", "command": "echo reload"}]),
    ));
    let (_, findings) = doctor(&sb, &file);
    assert_eq!(findings.len(), 1, "{findings:#?}");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(message.contains("not `package.json`"), "{message}");
}

#[test]
fn doctor_passes_a_clean_real_world_config() {
    let sb = Sandbox::new();
    let clean = fixture("settings/clean.json");
    let (run, findings) = doctor(&sb, &clean);
    assert_eq!(findings, Vec::<Value>::new(), "{}", run.stdout);
    assert_eq!(run.code, Some(0));
    assert_eq!(run.json()["summary"]["hooks"], 9);

    let text = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            clean.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(text.code, Some(0));
    assert!(
        text.stdout
            .contains("0 errors, 0 warnings, 0 notes in 9 hooks from 1 file"),
        "{}",
        text.stdout
    );
}

#[test]
fn doctor_text_names_file_path_and_fix() {
    let sb = Sandbox::new();
    let file = sb.settings(&hooks(
        "PreToolUse",
        json!([{"matcher": "Bash(git push", "command": "echo"}]),
    ));
    let run = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(1));
    assert!(
        run.stdout.contains(&format!(
            "error[matcher-invalid] {}: hooks.PreToolUse[0].matcher\n",
            file.display()
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("\n  fix: this looks like a permission rule"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("1 error, 0 warnings"), "{}", run.stdout);
}

#[test]
fn doctor_reads_the_default_sources() {
    let sb = Sandbox::new();
    let project_file = sb.write(
        "project/.hookrun/settings.json",
        &hooks(
            "PreToolUse",
            json!([{"matcher": "bash", "command": "echo"}]),
        )
        .to_string(),
    );
    // Untrusted, the file is inspected but reported first.
    let untrusted = sb.run(&["doctor", "--format", "json"], b"").json();
    assert_eq!(untrusted["findings"][0]["check"], "untrusted");
    assert!(
        untrusted["findings"][0]["fix"]
            .as_str()
            .unwrap()
            .contains("hookrun trust")
    );
    assert_eq!(
        untrusted["findings"][1]["check"], "tool-name-case",
        "its content is still checked"
    );
    assert_eq!(sb.run(&["trust"], b"").code, Some(0));
    let run = sb.run(&["doctor", "--format", "json"], b"");
    let report = run.json();
    let sources: Vec<_> = report["settings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["source"].clone(), s["state"].clone()))
        .collect();
    assert_eq!(
        sources,
        [
            (json!("user"), json!("missing")),
            (json!("project"), json!("loaded")),
            (json!("local"), json!("missing")),
            (json!("managed"), json!("missing")),
        ]
    );
    assert_eq!(report["findings"][0]["check"], "tool-name-case");
    assert_eq!(
        report["findings"][0]["file"],
        project_file.to_str().unwrap()
    );
}

// ---------------------------------------------------------------- explain

fn explain(sb: &Sandbox, settings: &Value, event: &str, fields: &Value) -> Value {
    let file = sb.settings(settings);
    let run = sb.run(
        &[
            "explain",
            event,
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        &sb.event(event, fields),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    run.json()
}

#[test]
fn explain_shows_where_each_layer_stopped_a_hook() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {
        "PreToolUse": [
            {"name": "runs", "matcher": "Bash", "if": "Bash(git push *)", "command": "\"$HOOKRUN_CONFIG_DIR\"/guard.sh push", "timeout": 5},
            {"name": "wrong-tool", "matcher": "Edit|Write", "command": "echo edit"},
            {"name": "wrong-command", "matcher": "Bash", "if": "Bash(rm *)", "command": "echo rm"},
            {"name": "copy", "matcher": "Bash", "if": "Bash(git push *)", "command": "\"$HOOKRUN_CONFIG_DIR\"/guard.sh push"},
            {"name": "prompt-hook", "type": "webhook"}
        ],
        "Stop": [{"name": "other-event", "command": "echo stop"}]
    }});
    let report = explain(
        &sb,
        &settings,
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": "git push origin main"}}),
    );
    assert_eq!(report["event"], "PreToolUse");
    assert_eq!(report["match_field"], "tool_name");
    assert_eq!(report["match_value"], "Bash");
    let hooks = report["hooks"].as_array().unwrap();
    let by_name = |name: &str| {
        hooks
            .iter()
            .find(|h| h["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {hooks:#?}"))
            .clone()
    };

    let runs = by_name("runs");
    assert_eq!(runs["state"], "run");
    let config_dir = sb.path("cli");
    assert_eq!(
        runs["command"],
        format!("sh -c '\"{}\"/guard.sh push'", config_dir.display())
    );
    assert_eq!(runs["timeout_s"], 5.0);

    let wrong_tool = by_name("wrong-tool");
    assert_eq!(wrong_tool["layer"], "matcher");
    assert_eq!(
        wrong_tool["detail"],
        "matcher \"Edit|Write\" does not match tool_name \"Bash\""
    );

    let wrong_command = by_name("wrong-command");
    assert_eq!(wrong_command["layer"], "if");
    assert!(
        wrong_command["detail"]
            .as_str()
            .unwrap()
            .contains("\"git push origin main\""),
        "{wrong_command:#?}"
    );

    let copy = by_name("copy");
    assert_eq!(copy["layer"], "dedup");
    assert!(
        copy["detail"]
            .as_str()
            .unwrap()
            .contains("hooks.PreToolUse[0]")
    );

    let prompt = by_name("prompt-hook");
    assert_eq!(prompt["state"], "not run");
    assert!(prompt["detail"].as_str().unwrap().contains("webhook"));

    let other = by_name("other-event");
    assert_eq!(other["layer"], "event");
    assert_eq!(other["detail"], "listed under Stop, this is PreToolUse");

    assert_eq!(report["would_run"], 1);
}

#[test]
fn explain_shows_policy_stops_and_problems() {
    let sb = Sandbox::new();
    let report = explain(
        &sb,
        &json!({"disableAllHooks": true, "hooks": {"Stop": [{"name": "s", "command": "echo", "timeot": 3}]}}),
        "Stop",
        &json!({}),
    );
    let hook = &report["hooks"][0];
    assert_eq!(hook["layer"], "policy");
    assert!(
        hook["detail"]
            .as_str()
            .unwrap()
            .contains("disableAllHooks is true")
    );
    assert_eq!(report["problems"][0]["json_path"], "hooks.Stop[0].timeot");
}

#[test]
fn explain_text_answers_why_a_hook_did_not_fire() {
    let sb = Sandbox::new();
    let file = sb.settings(&hooks(
        "PreToolUse",
        json!([
            {"name": "lint", "matcher": "Edit", "command": "echo lint"},
            {"name": "log", "command": "echo log", "timeout": 900}
        ]),
    ));
    let run = sb.run(
        &[
            "explain",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        &sb.event(
            "PreToolUse",
            &json!({"tool_name": "NotebookEdit", "tool_input": {}}),
        ),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let out = &run.stdout;
    assert!(
        out.contains("event: PreToolUse (tool_name \"NotebookEdit\")"),
        "{out}"
    );
    assert!(out.contains("1. lint — stopped at matcher"), "{out}");
    assert!(
        out.contains("why: matcher \"Edit\" does not match tool_name \"NotebookEdit\""),
        "{out}"
    );
    assert!(out.contains("2. log — would run"), "{out}");
    assert!(out.contains("runs: sh -c 'echo log'"), "{out}");
    assert!(
        out.contains("timeout: 597 s (capped by the deadline)"),
        "{out}"
    );
    assert!(out.contains("1 of 2 hooks would run"), "{out}");
}

#[test]
fn explain_needs_no_input_when_given_an_event() {
    let sb = Sandbox::new();
    let file = sb.settings(&hooks("Stop", json!([{"name": "s", "command": "echo"}])));
    let run = sb.run(
        &[
            "explain",
            "stop",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("1. s — would run"), "{}", run.stdout);

    let run = sb.run(&["explain", "--no-default-settings"], b"");
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with("hookrun: stdin is empty"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------- list

#[test]
fn list_shows_every_hook_with_source_and_state() {
    let sb = Sandbox::new();
    let first = sb.settings(&json!({"hooks": {
        "PreToolUse": [{"name": "guard", "matcher": "Bash", "if": "Bash(git push *)", "command": "echo", "timeout": 10}],
        "Stop": [{"name": "agent-check", "type": "webhook"}]
    }}));
    let second = sb.settings(&json!({"hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo ctx"}]}]
    }}));
    let args = |extra: &[&str]| {
        let mut v = vec![
            "list",
            "--no-default-settings",
            "--settings",
            first.to_str().unwrap(),
            "--settings",
            second.to_str().unwrap(),
        ];
        v.extend_from_slice(extra);
        v.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let run_args = |extra: &[&str]| {
        let a = args(extra);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        sb.run(&refs, b"")
    };

    let run = run_args(&["--format", "json"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let list = run.json();
    let hooks = list["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 3);
    assert_eq!(hooks[0]["name"], "guard");
    assert_eq!(hooks[0]["source"], first.to_str().unwrap());
    assert_eq!(hooks[0]["json_path"], "hooks.PreToolUse[0]");
    assert_eq!(hooks[0]["event"], "PreToolUse");
    assert_eq!(hooks[0]["matcher"], "Bash");
    assert_eq!(hooks[0]["if"], "Bash(git push *)");
    assert_eq!(hooks[0]["type"], "command");
    assert_eq!(hooks[0]["timeout_s"], 10.0);
    assert_eq!(hooks[0]["state"], "enabled");
    assert_eq!(hooks[1]["state"], "not run");
    assert!(hooks[1]["why"].as_str().unwrap().contains("webhook"));
    assert_eq!(hooks[2]["event"], "UserPromptSubmit");
    assert_eq!(hooks[2]["timeout_s"], 30.0);
    assert_eq!(hooks[2]["timeout_default"], true);
    assert_eq!(hooks[2]["source"], second.to_str().unwrap());

    let run = run_args(&["pre_tool_use"]);
    assert_eq!(run.code, Some(0));
    assert!(
        run.stdout.contains(&format!("{} (cli)", first.display())),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("EVENT"), "{}", run.stdout);
    let row = run
        .stdout
        .lines()
        .find(|l| l.contains("guard"))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    for cell in [
        "PreToolUse",
        "Bash",
        "Bash(git push *)",
        "command",
        "10s",
        "enabled",
    ] {
        assert!(row.contains(cell), "{cell} not in {row:?}");
    }
    assert!(!run.stdout.contains("agent-check"), "{}", run.stdout);
    assert!(!run.stdout.contains("UserPromptSubmit"), "{}", run.stdout);
}

#[test]
fn list_shows_hooks_disabled_by_policy() {
    let sb = Sandbox::new();
    let file = sb.settings(
        &json!({"disableAllHooks": true, "hooks": {"Stop": [{"name": "s", "command": "echo"}]}}),
    );
    let run = sb.run(
        &[
            "list",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    let hook = &run.json()["hooks"][0];
    assert_eq!(hook["state"], "disabled");
    assert!(
        hook["why"]
            .as_str()
            .unwrap()
            .contains("disableAllHooks is true")
    );
}

// ---------------------------------------------------------------- test

#[test]
fn test_runs_the_shipped_cases() {
    let sb = Sandbox::new();
    let run = sb.run(&["test", fixture("cases").to_str().unwrap()], b"");
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with("\n8 passed, 0 failed\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("ok    ")
            && run
                .stdout
                .contains("no-push-to-main.json[0]: a push to main is blocked with the reason"),
        "{}",
        run.stdout
    );
}

#[test]
fn test_prints_expected_versus_actual_and_fails() {
    let sb = Sandbox::new();
    let cases = json!([
        {
            "name": "exit 1 was meant to block",
            "event": "PreToolUse",
            "input": {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}},
            "settings": {"hooks": {"PreToolUse": [{"command": "echo no >&2; exit 1"}]}},
            "expect": {"decision": "deny", "exit": 2, "reasonContains": "no"}
        },
        {
            "name": "passes",
            "event": "PreToolUse",
            "input": {"tool_name": "Bash", "tool_input": {"command": "ls"}},
            "settings": {"hooks": {"PreToolUse": [{"command": "echo no >&2; exit 2"}]}},
            "expect": {"decision": "block", "exit": 2, "reasonContains": "no"}
        },
        {"name": "typo", "event": "Stop", "expect": {"desicion": "deny"}}
    ]);
    let file = sb.write("cases/policy.json", &cases.to_string());
    let run = sb.run(&["test", file.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    let out = &run.stdout;
    assert!(out.contains("FAIL  "), "{out}");
    assert!(
        out.contains("policy.json[0]: exit 1 was meant to block"),
        "{out}"
    );
    assert!(out.contains("decision: expected deny\n"), "{out}");
    assert!(out.contains("actual none\n"), "{out}");
    assert!(out.contains("exit: expected 2\n"), "{out}");
    assert!(out.contains("actual 0\n"), "{out}");
    assert!(
        out.contains("hookrun warning: hook echo no >&2; exit 1 failed"),
        "{out}"
    );
    assert!(out.contains("ok    "), "{out}");
    assert!(out.contains("expect.desicion: unknown key"), "{out}");
    assert!(out.ends_with("\n1 passed, 2 failed\n"), "{out}");

    let run = sb.run(&["test", file.to_str().unwrap(), "--format", "json"], b"");
    let report = run.json();
    assert_eq!(report["passed"], 1);
    assert_eq!(report["failed"], 2);
    assert_eq!(
        report["cases"][0]["mismatches"][0],
        json!({"key": "decision", "expected": "deny", "actual": "none"})
    );
}

#[test]
fn test_defaults_to_the_project_tests_folder_and_sources() {
    let sb = Sandbox::new();
    let run = sb.run(&["test"], b"");
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains(".hookrun/tests does not exist"),
        "{}",
        run.stderr
    );

    // Cases without `settings` use the normal sources: here the project's.
    sb.write(
        "project/.hookrun/settings.json",
        &hooks(
            "PreToolUse",
            json!([{"matcher": "Bash", "if": "Bash(rm *)", "command": "echo 'no rm' >&2; exit 2"}]),
        )
        .to_string(),
    );
    sb.write(
        "project/.hookrun/tests/rm.json",
        &json!({"event": "PreToolUse",
            "input": {"tool_name": "Bash", "tool_input": {"command": "rm -r build"}},
            "expect": {"decision": "deny", "reasonContains": "no rm"}})
        .to_string(),
    );
    // Untrusted project settings do not run, and the failure says why.
    let run = sb.run(&["test"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stdout.contains("is not trusted"), "{}", run.stdout);
    // CI trusts the checkout for the run.
    let run = sb.run(&["test", "--trust-project"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.ends_with("1 passed, 0 failed\n"),
        "{}",
        run.stdout
    );

    let empty = sb.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = sb.run(&["test", empty.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("no test cases found"), "{}", run.stderr);
}

#[test]
fn every_command_has_help_with_an_example() {
    use clap::CommandFactory as _;
    let sb = Sandbox::new();
    let commands: Vec<String> = hookrun::cli::Cli::command()
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
        .map(|sub| sub.get_name().to_owned())
        .collect();
    for expected in [
        "fire",
        "trust",
        "untrust",
        "stats",
        "doctor",
        "explain",
        "list",
        "test",
        "completions",
    ] {
        assert!(commands.iter().any(|c| c == expected), "{commands:?}");
    }
    let top = sb.run(&["--help"], b"");
    assert!(top.stdout.contains("Example"), "{}", top.stdout);
    for command in &commands {
        let run = sb.run(&[command, "--help"], b"");
        assert_eq!(run.code, Some(0));
        assert!(
            run.stdout.contains(&format!("hookrun {command}")),
            "{command}: {}",
            run.stdout
        );
        assert!(run.stdout.contains("Example"), "{command}: {}", run.stdout);
    }
}

//! The checks over inline settings, with a fake filesystem.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::probe::{FileKind, Probe};
use super::*;
use crate::settings::Source;
use crate::settings::load::load_bytes;

struct Fake {
    files: HashMap<PathBuf, Vec<u8>>,
}

impl Probe for Fake {
    fn file(&self, path: &Path) -> FileKind {
        if self.files.contains_key(path) {
            FileKind::File { executable: true }
        } else {
            FileKind::Missing
        }
    }
    fn on_path(&self, program: &str) -> bool {
        ["sh", "jq", "grep", "python3", "npx", "hookrun"].contains(&program)
    }
    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.files.get(path).cloned()
    }
    fn canonical(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
}

fn run_with(json: &str, path: &str, files: &[(&str, &str)]) -> Vec<Finding> {
    let mut settings = Settings::default();
    let source = Source {
        path: PathBuf::from(path),
        kind: SourceKind::Cli,
        claude_mode: false,
        trust_required: false,
    };
    let dir = Path::new(path).parent().unwrap().to_path_buf();
    load_bytes(&mut settings, source, dir, json.as_bytes());
    let probe = Fake {
        files: files
            .iter()
            .map(|(p, c)| (PathBuf::from(p), c.as_bytes().to_vec()))
            .collect(),
    };
    let cx = Context {
        project_dir: Path::new("/proj"),
        home: Some(Path::new("/home/u")),
        claude_project_dir: Path::new("/proj"),
        probe: &probe,
    };
    diagnose(&settings, &cx)
}

fn run(json: &str) -> Vec<Finding> {
    run_with(json, "/cfg/settings.json", &[("/cfg/ok.sh", "")])
}

/// (check, json path) of every finding.
fn ids(findings: &[Finding]) -> Vec<(&'static str, String)> {
    findings
        .iter()
        .map(|f| (f.check, f.json_path.clone()))
        .collect()
}

#[track_caller]
fn one(json: &str) -> Finding {
    let found = run(json);
    assert_eq!(found.len(), 1, "{found:#?}");
    found.into_iter().next().unwrap()
}

#[test]
fn a_clean_config_has_no_findings() {
    let found = run(r#"{"hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "if": "Bash(git push *)", "command": "$HOOKRUN_CONFIG_DIR/ok.sh", "timeout": 10},
            {"matcher": "Edit|Write|MultiEdit", "hooks": [{"type": "command", "command": "jq -r .tool_input.file_path >&2; exit 0"}]},
            {"matcher": "^Edit$", "command": "echo edit"},
            {"matcher": "mcp__github__.*", "command": "echo mcp"}
        ],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo context", "timeout": 5}]}],
        "Stop": [{"command": "grep -q done /tmp/x || { echo 'not done' >&2; exit 2; }"}],
        "SessionStart": [{"matcher": "startup", "command": "echo hi"}]
    }}"#);
    assert_eq!(found, [], "{found:#?}");
}

#[test]
fn every_check_has_a_severity_and_ids_are_unique() {
    for (i, a) in CHECKS.iter().enumerate() {
        assert!(!a.what.is_empty());
        for b in &CHECKS[i + 1..] {
            assert_ne!(a.id, b.id);
        }
    }
}

#[test]
fn matcher_paths_point_at_the_group_in_the_nested_shape() {
    let found = run(
        r#"{"hooks": {"Stop": [{"matcher": "Bash", "hooks": [{"command": "echo a"}, {"command": "echo b"}]}]}}"#,
    );
    // Reported once for the group, not once per inner hook.
    assert_eq!(
        ids(&found),
        [("matcher-ignored", "hooks.Stop[0].matcher".into())]
    );
    assert_eq!(found[0].severity, Severity::Warning);
}

#[test]
fn matcher_checks() {
    let f =
        one(r#"{"hooks": {"PreToolUse": [{"matcher": "Bash(git push *)", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "matcher-looks-like-rule");
    assert_eq!(
        f.fix,
        r#"set "matcher": "Bash" and "if": "Bash(git push *)""#
    );
    let f =
        one(r#"{"hooks": {"PreToolUse": [{"matcher": "Bash(git push", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "matcher-invalid");
    assert_eq!(f.severity, Severity::Error);
    assert!(f.fix.contains("move it to `if`"), "{}", f.fix);
    assert!(f.fix.contains("\"matcher\": \"Bash\""), "{}", f.fix);

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "|", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "matcher-matches-nothing");

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "Edit.*", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "matcher-overmatch");
    assert!(f.message.contains("NotebookEdit"), "{}", f.message);
    assert!(f.fix.contains("^(Edit)$"), "{}", f.fix);

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "tool-name-case");
    assert_eq!(f.fix, "write `Bash`");

    let f =
        one(r#"{"hooks": {"PostToolUse": [{"matcher": "^(write|edit)$", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "tool-name-case");

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "Wirte", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "tool-name-typo");

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "^(?!Bash$).*", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "matcher-not-portable");
    assert_eq!(f.severity, Severity::Note);

    // Non-tool match fields are not tool names.
    assert_eq!(
        run(r#"{"hooks": {"SessionStart": [{"matcher": "startup|resume", "command": "echo x"}]}}"#),
        []
    );
}

#[test]
fn if_checks() {
    let f = one(r#"{"hooks": {"SessionStart": [{"if": "Bash(ls)", "command": "echo x"}]}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        ("if-never-applies", "hooks.SessionStart[0].if")
    );
    assert_eq!(f.severity, Severity::Error);

    let f = one(r#"{"hooks": {"PreToolUse": [{"if": "Bash(git push", "command": "echo x"}]}}"#);
    assert_eq!(f.check, "if-invalid");

    let f = one(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "if": "Bash(rm *)", "command": "echo x"}]}}"#,
    );
    assert_eq!(f.check, "if-matcher-conflict");

    let f = one(r#"{"hooks": {"PreToolUse": [{"if": "bash(rm *)", "command": "echo x"}]}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        ("tool-name-case", "hooks.PreToolUse[0].if")
    );

    assert_eq!(
        run(
            r#"{"hooks": {"PreToolUse": [{"matcher": "mcp__.*", "if": "mcp__github", "command": "echo x"}]}}"#
        ),
        []
    );
}

#[test]
fn command_checks() {
    let f = one(r#"{"hooks": {"PreToolUse": [{"command": "echo no >&2; exit 1"}]}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        ("exit-1-does-not-block", "hooks.PreToolUse[0].command")
    );
    assert_eq!(f.fix, "use `exit 2` to block (with the reason on stderr)");
    // Not on an event whose blocks are ignored anyway.
    let f = one(r#"{"hooks": {"Notification": [{"command": "exit 1; exit 2"}]}}"#);
    assert_eq!(f.check, "block-not-enforced");

    let f = one(r#"{"hooks": {"Stop": [{"command": "$HOOKRUN_CONFIG_DIR/gone.sh"}]}}"#);
    assert_eq!(f.check, "command-missing");
    assert!(f.message.contains("/cfg/gone.sh"), "{}", f.message);

    let f = one(
        r#"{"hooks": {"PreToolUse": [{"command": "python3 ${HOOKRUN_CONFIG_DIR}/missing.py"}]}}"#,
    );
    assert_eq!(f.check, "script-missing");
    assert!(
        f.message.contains("every PreToolUse is blocked"),
        "{}",
        f.message
    );

    let f = one(r#"{"hooks": {"Stop": [{"command": "hookrun fire"}]}}"#);
    assert_eq!(f.check, "recursion");

    let f = one(
        r#"{"hooks": {"Stop": [{"command": "${HOOKRUN_CONFIG_DIR}/ok.sh", "args": ["$HOOKRUN_CONFIG_DIR/x"]}]}}"#,
    );
    assert_eq!(
        (f.check, f.json_path.as_str()),
        ("exec-form-variable", "hooks.Stop[0].args[0]")
    );
}

#[test]
fn timeout_checks() {
    let f = one(r#"{"hooks": {"Stop": [{"command": "echo", "timeout": 5000}]}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        ("timeout-milliseconds", "hooks.Stop[0].timeout")
    );
    assert_eq!(f.fix, "write 5 for 5000 ms");
    let f = one(r#"{"hooks": {"UserPromptSubmit": [{"command": "echo", "timeout": 60}]}}"#);
    assert_eq!(f.check, "timeout-exceeds-host");
    assert!(f.message.contains("30 s"), "{}", f.message);
    assert_eq!(f.fix, "lower it to at most 29 s");
    assert_eq!(
        run(r#"{"hooks": {"PreToolUse": [{"command": "echo", "timeout": 600}]}}"#),
        []
    );
}

#[test]
fn unsupported_type_and_shell() {
    let found =
        run(r#"{"hooks": {"Stop": [{"type": "agent"}, {"command": "echo", "shell": "zsh"}]}}"#);
    assert_eq!(
        ids(&found),
        [
            ("not-run", "hooks.Stop[0].type".into()),
            ("not-run", "hooks.Stop[1].shell".into())
        ]
    );
}

#[test]
fn host_loaded_files_and_file_changed() {
    let found = run_with(
        r#"{"hooks": {"Stop": [{"command": "echo"}]}}"#,
        "/proj/.claude/settings.json",
        &[],
    );
    assert_eq!(ids(&found), [("host-loads-file", "hooks".into())]);

    let hookrun = r#"{"hooks": {"FileChanged": [{"matcher": ".envrc|.env", "command": "echo"}]}}"#;
    let found = run_with(hookrun, "/cfg/settings.json", &[]);
    assert_eq!(
        ids(&found),
        [("file-changed-host", "hooks.FileChanged[0].matcher".into())]
    );
    assert!(
        found[0].fix.contains(r#""matcher": ".envrc|.env""#),
        "{}",
        found[0].fix
    );

    let host = r#"{"hooks": {"FileChanged": [{"matcher": ".envrc", "hooks": [{"type": "command", "command": "hookrun fire"}]}]}}"#;
    let found = run_with(
        hookrun,
        "/cfg/settings.json",
        &[("/proj/.claude/settings.json", host)],
    );
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].message.contains("not `.env`"),
        "{}",
        found[0].message
    );

    let host = r#"{"hooks": {"FileChanged": [{"matcher": ".envrc|.env", "hooks": [{"type": "command", "command": "hookrun fire"}]}]}}"#;
    assert_eq!(
        run_with(
            hookrun,
            "/cfg/settings.json",
            &[("/home/u/.claude/settings.json", host)]
        ),
        []
    );
}

#[test]
fn disabled_hooks() {
    let f = one(r#"{"disableAllHooks": true, "hooks": {}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        ("hooks-disabled", "disableAllHooks")
    );
}

#[test]
fn loader_problems_come_first_with_their_fix() {
    let found = run(r#"{"hooks": {"PreToolUsed": [{"command": "echo", "timout": 5}]}}"#);
    assert_eq!(
        ids(&found),
        [
            ("unknown-event", "hooks.PreToolUsed".into()),
            ("unknown-field", "hooks.PreToolUsed[0].timout".into())
        ]
    );
    assert_eq!(found[0].fix, "rename the key to `PreToolUse`");
}

#[test]
fn matchers_that_can_blow_up_are_flagged() {
    let found =
        run(r#"{"hooks": {"PreToolUse": [{"matcher": "^(?=a)(a+)+$", "command": "echo x"}]}}"#);
    let checks: Vec<&str> = found.iter().map(|f| f.check).collect();
    assert!(checks.contains(&"matcher-may-blow-up"), "{found:#?}");
    let f = found
        .iter()
        .find(|f| f.check == "matcher-may-blow-up")
        .unwrap();
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.json_path, "hooks.PreToolUse[0].matcher");
    // Without look-around the same shape runs on the linear engine: fine.
    let found = run(r#"{"hooks": {"PreToolUse": [{"matcher": "(a+)+$", "command": "echo x"}]}}"#);
    assert!(
        found.iter().all(|f| f.check != "matcher-may-blow-up"),
        "{found:#?}"
    );
    // A huge alternation is an error, quickly, not an abort.
    let huge: Vec<String> = (0..100_000).map(|i| format!("t{i}.")).collect();
    let json = format!(
        r#"{{"hooks": {{"PreToolUse": [{{"matcher": "{}", "command": "echo x"}}]}}}}"#,
        huge.join("|")
    );
    let found = run(&json);
    let f = found.iter().find(|f| f.check == "matcher-invalid").unwrap();
    assert!(f.message.contains("bytes long"), "{}", f.message);
    assert!(
        f.message.len() < 2000,
        "the finding quotes the pattern shortened"
    );
}

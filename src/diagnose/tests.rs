//! The checks over inline settings, with a fake filesystem.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::probe::{FileKind, Probe};
use super::*;
use crate::catalog::KnownEvent;
use crate::select::mistakes::fire_warnings;
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
        codex_home: None,
        probe: &probe,
    };
    diagnose(&settings, &cx)
}

fn run(json: &str) -> Vec<Finding> {
    run_with(json, "/cfg/settings.json", &[("/cfg/ok.sh", "")])
}

/// (check, json path) of every finding.
fn ids(findings: &[Finding]) -> Vec<(Check, String)> {
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
    for (i, a) in Check::ALL.iter().enumerate() {
        assert!(!a.what().is_empty(), "`a.what()` is empty");
        for b in &Check::ALL[i + 1..] {
            assert_ne!(a.id(), b.id());
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
        [(Check::MatcherIgnored, "hooks.Stop[0].matcher".into())]
    );
    assert_eq!(found[0].severity, Severity::Warning);
}

#[test]
fn matcher_checks() {
    let f =
        one(r#"{"hooks": {"PreToolUse": [{"matcher": "Bash(git push *)", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::MatcherLooksLikeRule);
    assert_eq!(
        f.fix,
        r#"set "matcher": "Bash" and "if": "Bash(git push *)""#
    );
    let f =
        one(r#"{"hooks": {"PreToolUse": [{"matcher": "Bash(git push", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::MatcherInvalid);
    assert_eq!(f.severity, Severity::Error);
    assert!(f.fix.contains("move it to `if`"), "{}", f.fix);
    assert!(f.fix.contains("\"matcher\": \"Bash\""), "{}", f.fix);

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "|", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::MatcherMatchesNothing);

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "Edit.*", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::MatcherOvermatch);
    assert!(f.message.contains("NotebookEdit"), "{}", f.message);
    assert!(f.fix.contains("^(Edit)$"), "{}", f.fix);

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::ToolNameCase);
    assert_eq!(f.fix, "write `Bash`");

    let f =
        one(r#"{"hooks": {"PostToolUse": [{"matcher": "^(write|edit)$", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::ToolNameCase);

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "Wirte", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::ToolNameTypo);

    let f = one(r#"{"hooks": {"PreToolUse": [{"matcher": "^(?!Bash$).*", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::MatcherNotPortable);
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
        (Check::IfNeverApplies, "hooks.SessionStart[0].if")
    );
    assert_eq!(f.severity, Severity::Error);

    let f = one(r#"{"hooks": {"PreToolUse": [{"if": "Bash(git push", "command": "echo x"}]}}"#);
    assert_eq!(f.check, Check::IfInvalid);

    let f = one(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "if": "Bash(rm *)", "command": "echo x"}]}}"#,
    );
    assert_eq!(f.check, Check::IfMatcherConflict);

    let f = one(r#"{"hooks": {"PreToolUse": [{"if": "bash(rm *)", "command": "echo x"}]}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        (Check::ToolNameCase, "hooks.PreToolUse[0].if")
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
        (Check::Exit1DoesNotBlock, "hooks.PreToolUse[0].command")
    );
    assert_eq!(f.fix, "use `exit 2` to block (with the reason on stderr)");
    // Not on an event whose blocks are ignored anyway.
    let f = one(r#"{"hooks": {"Notification": [{"command": "exit 1; exit 2"}]}}"#);
    assert_eq!(f.check, Check::BlockNotEnforced);

    let f = one(r#"{"hooks": {"Stop": [{"command": "$HOOKRUN_CONFIG_DIR/gone.sh"}]}}"#);
    assert_eq!(f.check, Check::CommandMissing);
    assert!(f.message.contains("/cfg/gone.sh"), "{}", f.message);

    let f = one(
        r#"{"hooks": {"PreToolUse": [{"command": "python3 ${HOOKRUN_CONFIG_DIR}/missing.py"}]}}"#,
    );
    assert_eq!(f.check, Check::ScriptMissing);
    assert!(
        f.message.contains("every PreToolUse is blocked"),
        "{}",
        f.message
    );

    let f = one(r#"{"hooks": {"Stop": [{"command": "hookrun fire"}]}}"#);
    assert_eq!(f.check, Check::Recursion);

    let f = one(
        r#"{"hooks": {"Stop": [{"command": "${HOOKRUN_CONFIG_DIR}/ok.sh", "args": ["$HOOKRUN_CONFIG_DIR/x"]}]}}"#,
    );
    assert_eq!(
        (f.check, f.json_path.as_str()),
        (Check::ExecFormVariable, "hooks.Stop[0].args[0]")
    );
}

#[test]
fn timeout_checks() {
    let f = one(r#"{"hooks": {"Stop": [{"command": "echo", "timeout": 5000}]}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        (Check::TimeoutMilliseconds, "hooks.Stop[0].timeout")
    );
    assert_eq!(f.fix, "write 5 for 5000 ms");
    let f = one(r#"{"hooks": {"UserPromptSubmit": [{"command": "echo", "timeout": 60}]}}"#);
    assert_eq!(f.check, Check::TimeoutExceedsHost);
    assert!(f.message.contains("30 s"), "{}", f.message);
    assert_eq!(f.fix, "lower it to at most 27 s");
    assert!(f.message.contains("at 27 s"), "{}", f.message);
    assert_eq!(
        run(r#"{"hooks": {"PreToolUse": [{"command": "echo", "timeout": 60}]}}"#),
        []
    );
}

#[test]
fn a_timeout_leaving_no_room_for_the_kill_grace_is_flagged() {
    // 29 s is the deadline for UserPromptSubmit (the host's 30 s minus 1 s):
    // with the 2 s grace after it, a hook ignoring SIGTERM would answer late.
    let f = one(r#"{"hooks": {"UserPromptSubmit": [{"command": "echo", "timeout": 28}]}}"#);
    assert_eq!(
        (f.check, f.json_path.as_str()),
        (Check::TimeoutNoGrace, "hooks.UserPromptSubmit[0].timeout")
    );
    assert!(f.message.contains("SIGTERM at 27 s"), "{}", f.message);
    assert_eq!(f.fix, "lower it to at most 27 s (or lower --kill-grace)");
    assert_eq!(
        run(r#"{"hooks": {"UserPromptSubmit": [{"command": "echo", "timeout": 27}]}}"#),
        []
    );
}

#[test]
fn unsupported_type_and_shell() {
    let found =
        run(r#"{"hooks": {"Stop": [{"type": "webhook"}, {"command": "echo", "shell": "zsh"}]}}"#);
    assert_eq!(
        ids(&found),
        [
            (Check::NotRun, "hooks.Stop[0].type".into()),
            (Check::NotRun, "hooks.Stop[1].shell".into())
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
    assert_eq!(ids(&found), [(Check::HostLoadsFile, "hooks".into())]);

    let hookrun = r#"{"hooks": {"FileChanged": [{"matcher": ".envrc|.env", "command": "echo"}]}}"#;
    let found = run_with(hookrun, "/cfg/settings.json", &[]);
    assert_eq!(
        ids(&found),
        [(
            Check::FileChangedHost,
            "hooks.FileChanged[0].matcher".into()
        )]
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
        (Check::HooksDisabled, "disableAllHooks")
    );
}

#[test]
fn loader_problems_come_first_with_their_fix() {
    let found = run(r#"{"hooks": {"PreToolUsed": [{"command": "echo", "timout": 5}]}}"#);
    assert_eq!(
        ids(&found),
        [
            (Check::UnknownEvent, "hooks.PreToolUsed".into()),
            (Check::UnknownField, "hooks.PreToolUsed[0].timout".into())
        ]
    );
    assert_eq!(found[0].fix, "rename the key to `PreToolUse`");
}

#[test]
fn fire_warnings_cover_a_lowercase_tool_and_a_millisecond_timeout() {
    let mut settings = Settings::default();
    let source = Source {
        path: PathBuf::from("/cfg/settings.json"),
        kind: SourceKind::Cli,
        claude_mode: false,
        trust_required: false,
    };
    let json = r#"{"hooks": {"PreToolUse": [
            {"matcher": "bash|Read", "command": "echo"},
            {"matcher": "Bash", "command": "echo", "timeout": 5000},
            {"matcher": "Bash", "command": "echo", "timeout": 5}
        ], "Stop": [{"command": "echo", "timeout": 3000}]}}"#;
    load_bytes(
        &mut settings,
        source,
        PathBuf::from("/cfg"),
        json.as_bytes(),
    );
    let warnings = fire_warnings(&settings, &EventId::Known(KnownEvent::PreToolUse));
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].contains("matcher names tool `bash`") && warnings[0].contains("`Bash`"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].contains("hooks.PreToolUse[1].timeout") && warnings[1].contains("milliseconds"),
        "{warnings:?}"
    );
    // Only the fired event's hooks.
    assert_eq!(
        fire_warnings(&settings, &EventId::Known(KnownEvent::Stop)).len(),
        1
    );
    let unexpected = fire_warnings(&settings, &EventId::Known(KnownEvent::PostToolUse));
    assert!(unexpected.is_empty(), "{unexpected:?}");
}

fn checks_of(found: &[Finding], prefix: &str) -> Vec<(Check, String, String)> {
    found
        .iter()
        .filter(|f| f.check.id().starts_with(prefix) || f.check == Check::GeminiTimeoutSeconds)
        .map(|f| (f.check, f.file.display().to_string(), f.json_path.clone()))
        .collect()
}

#[test]
fn events_with_hooks_but_no_host_entry_are_found() {
    // The README's one-entry snippet: only PreToolUse reaches hookrun.
    let claude = r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hookrun fire"}]}]}}"#;
    let found = run_with(
        r#"{"hooks": {
            "PreToolUse": [{"command": "echo a"}],
            "PostToolUse": [{"command": "echo b"}],
            "Stop": [{"command": "echo c"}, {"command": "echo d"}]
        }}"#,
        "/cfg/settings.json",
        &[("/proj/.claude/settings.json", claude)],
    );
    let routed = checks_of(&found, "host-");
    assert_eq!(
        routed,
        [
            (
                Check::HostEventNotRouted,
                "/cfg/settings.json".into(),
                "hooks.PostToolUse".into()
            ),
            (
                Check::HostEventNotRouted,
                "/cfg/settings.json".into(),
                "hooks.Stop".into()
            ),
            // The PreToolUse hook judges Bash calls, so a skill's shell
            // commands must reach hookrun too.
            (
                Check::HostEventNotRouted,
                "/proj/.claude/settings.json".into(),
                "hooks.PreSkillShellCommand".into()
            ),
        ],
        "{found:#?}"
    );
    let skill = found
        .iter()
        .find(|f| f.json_path == "hooks.PreSkillShellCommand")
        .unwrap();
    assert!(skill.message.contains("unjudged"), "{}", skill.message);
    let stop = found.iter().find(|f| f.json_path == "hooks.Stop").unwrap();
    assert!(stop.message.contains("2 hooks on Stop"), "{}", stop.message);
    assert!(
        stop.fix.contains("hookrun install claude-code"),
        "{}",
        stop.fix
    );
    // Routed everywhere: nothing to say.
    let all = r#"{"hooks": {"PreToolUse": [{"hooks": [{"command": "hookrun fire"}]}], "PreSkillShellCommand": [{"hooks": [{"command": "hookrun fire"}]}], "Stop": [{"hooks": [{"command": "hookrun fire"}]}]}}"#;
    let found = run_with(
        r#"{"hooks": {"PreToolUse": [{"command": "echo a"}], "Stop": [{"command": "echo c"}]}}"#,
        "/cfg/settings.json",
        &[("/proj/.claude/settings.json", all)],
    );
    assert_eq!(checks_of(&found, "host-"), [], "{found:#?}");
}

#[test]
fn host_entries_that_cannot_reach_hookrun_are_errors() {
    let claude =
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"command": "/opt/gone/hookrun fire"}]}]}}"#;
    let gemini = r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "hookrun fire", "timeout": 5}]}],
        "AfterTool": [{"hooks": [{"type": "command", "command": "./native.sh", "timeout": 10}]}]}}"#;
    let found = run_with(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Read", "command": "echo a"}]}}"#,
        "/cfg/settings.json",
        &[
            ("/proj/.claude/settings.json", claude),
            ("/home/u/.gemini/settings.json", gemini),
        ],
    );
    let got = checks_of(&found, "host-");
    assert_eq!(
        got,
        [
            (
                Check::HostHookrunMissing,
                "/proj/.claude/settings.json".into(),
                "hooks.PreToolUse[0].hooks[0]".into()
            ),
            (
                Check::GeminiTimeoutSeconds,
                "/home/u/.gemini/settings.json".into(),
                "hooks.BeforeTool[0].hooks[0]".into()
            ),
            (
                Check::HostMismatch,
                "/home/u/.gemini/settings.json".into(),
                "hooks.BeforeTool[0].hooks[0]".into()
            ),
            (
                Check::GeminiTimeoutSeconds,
                "/home/u/.gemini/settings.json".into(),
                "hooks.AfterTool[0].hooks[0]".into()
            ),
        ],
        "{found:#?}"
    );
    let missing = found
        .iter()
        .find(|f| f.check == Check::HostHookrunMissing)
        .unwrap();
    assert_eq!(missing.severity, Severity::Error);
    assert!(
        missing.message.contains("every guard is off"),
        "{}",
        missing.message
    );
}

#[test]
fn host_timeouts_and_double_runs_are_warned_about() {
    let claude = r#"{"hooks": {"PreToolUse": [{"hooks": [{"command": "hookrun fire", "timeout": 10}]}, {"hooks": [{"command": "./guard.sh"}]}]}}"#;
    let copilot = r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "hookrun fire --host copilot", "timeoutSec": 30}]}}"#;
    let found = run_with(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Read", "command": "./guard.sh"}]}}"#,
        "/cfg/settings.json",
        &[
            ("/proj/.claude/settings.json", claude),
            ("/proj/.github/hooks/hookrun.json", copilot),
        ],
    );
    let got: Vec<Check> = found
        .iter()
        .filter(|f| f.check.id().starts_with("host-"))
        .map(|f| f.check)
        .collect();
    assert_eq!(
        got,
        [
            Check::HostTimeoutShort,
            Check::HostRunsTwice,
            Check::HostRunsTwice
        ],
        "{found:#?}"
    );
    let short = &found
        .iter()
        .find(|f| f.check == Check::HostTimeoutShort)
        .unwrap();
    assert!(short.fix.contains("--deadline 9s"), "{}", short.fix);
    assert!(
        found
            .iter()
            .any(|f| f.message.contains("Copilot CLI also reads Claude Code's")),
        "{found:#?}"
    );
}

#[test]
fn hooks_under_a_hosts_own_event_name_are_found() {
    // AfterAgent is in the catalog (it loads quietly) but Gemini CLI's
    // AfterAgent reaches hookrun as Stop; BeforeTool is its PreToolUse.
    let found = run(
        r#"{"hooks": {"AfterAgent": [{"command": "exit 2"}], "BeforeTool": [{"command": "exit 2"}], "Stop": [{"command": "true"}]}}"#,
    );
    let named: Vec<&Finding> = found
        .iter()
        .filter(|f| f.check == Check::HostEventName)
        .collect();
    assert_eq!(named.len(), 2, "{found:#?}");
    assert_eq!(named[0].json_path, "hooks.AfterAgent");
    assert!(
        named[0].message.contains("Gemini CLI's name for `Stop`"),
        "{named:#?}"
    );
    assert_eq!(named[0].fix, "rename the key to `Stop`");
    assert_eq!(named[1].fix, "rename the key to `PreToolUse`");
    assert_eq!(named[0].severity, Severity::Error, "they never run");
}

#[test]
fn fire_time_list_split_agrees_with_the_matcher_compiler() {
    for strict in [false, true] {
        for pattern in [
            "",
            "*",
            "Bash",
            "Edit|Write",
            "Edit0|Write0",
            " Bash , Read ",
            "a-b|c d",
            "||",
            "^mcp__github__.*",
            "Edit.*",
            "bash|Read",
            "Notebook_Edit",
        ] {
            let ours: Option<Vec<String>> = super::list_matcher_names(pattern, strict)
                .map(|names| names.map(str::to_owned).collect());
            let compiled = match Matcher::compile(Some(pattern), strict) {
                Matcher::List(names) => Some(names),
                _ => None,
            };
            assert_eq!(ours, compiled, "{pattern:?} strict={strict}");
        }
    }
}

#[test]
fn case_variants_are_the_case_half_of_check_name() {
    for name in [
        "bash",
        "Bash",
        "GLOB",
        "notebook_edit",
        "ReadFile",
        "Bsah",
        "Edit0",
        "",
        "mcp__x__y",
        "RUN-SHELL-COMMAND",
        "my_custom_tool",
        "\u{212a}illShell",
        "b_ash-",
        "BASH",
    ] {
        let expected = match tools::check_name(name) {
            Some(tools::NameIssue::Case(near)) => near,
            _ => Vec::new(),
        };
        assert_eq!(tools::case_variants(name), expected, "{name:?}");
    }
}

#[test]
fn matchers_that_can_blow_up_are_flagged() {
    let found =
        run(r#"{"hooks": {"PreToolUse": [{"matcher": "^(?=a)(a+)+$", "command": "echo x"}]}}"#);
    let checks: Vec<Check> = found.iter().map(|f| f.check).collect();
    assert!(checks.contains(&Check::MatcherMayBlowUp), "{found:#?}");
    let f = found
        .iter()
        .find(|f| f.check == Check::MatcherMayBlowUp)
        .unwrap();
    assert_eq!(f.severity, Severity::Warning);
    assert_eq!(f.json_path, "hooks.PreToolUse[0].matcher");
    // Without look-around the same shape runs on the linear engine: fine.
    let found = run(r#"{"hooks": {"PreToolUse": [{"matcher": "(a+)+$", "command": "echo x"}]}}"#);
    assert!(
        found.iter().all(|f| f.check != Check::MatcherMayBlowUp),
        "{found:#?}"
    );
    // A huge alternation is an error, quickly, not an abort.
    let huge: Vec<String> = (0..100_000).map(|i| format!("t{i}.")).collect();
    let json = format!(
        r#"{{"hooks": {{"PreToolUse": [{{"matcher": "{}", "command": "echo x"}}]}}}}"#,
        huge.join("|")
    );
    let found = run(&json);
    let f = found
        .iter()
        .find(|f| f.check == Check::MatcherInvalid)
        .unwrap();
    assert!(f.message.contains("bytes long"), "{}", f.message);
    assert!(
        f.message.len() < 2000,
        "the finding quotes the pattern shortened"
    );
}

#[test]
fn a_guard_that_never_fires_is_an_error() {
    let severity = |json: &str, check: Check| {
        let found = run(json);
        found
            .iter()
            .find(|f| f.check == check)
            .unwrap_or_else(|| panic!("no {check}: {found:#?}"))
            .severity
    };
    // A tool name no host sends: the hook never runs.
    assert_eq!(
        severity(
            r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "exit 2"}]}}"#,
            Check::ToolNameCase
        ),
        Severity::Error
    );
    // `exit 1` on a blocking event: the action goes ahead.
    assert_eq!(
        severity(
            r#"{"hooks": {"PreToolUse": [{"command": "echo no >&2; exit 1"}]}}"#,
            Check::Exit1DoesNotBlock
        ),
        Severity::Error
    );
    // A Gemini timeout of 5 (ms): killed before it answers.
    let gemini = r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "hookrun fire --host gemini", "timeout": 5}]}]}}"#;
    let found = run_with(
        r#"{"hooks": {"PreToolUse": [{"command": "exit 2"}]}}"#,
        "/cfg/settings.json",
        &[("/home/u/.gemini/settings.json", gemini)],
    );
    let f = found
        .iter()
        .find(|f| f.check == Check::GeminiTimeoutSeconds)
        .expect("gemini-timeout-seconds");
    assert_eq!(f.severity, Severity::Error, "{f:#?}");
    // An untrusted project file: nothing in it takes effect.
    let mut settings = Settings::default();
    settings.problems.push(crate::settings::Problem {
        severity: Severity::Warning,
        kind: crate::settings::ProblemKind::Untrusted,
        file: PathBuf::from("/proj/.hookrun/settings.json"),
        json_path: String::new(),
        message: "is not trusted: its hooks, permissions and env do not take effect; review it, then run `hookrun trust /proj`".into(),
    });
    let probe = Fake {
        files: HashMap::new(),
    };
    let cx = Context {
        project_dir: Path::new("/proj"),
        home: Some(Path::new("/home/u")),
        claude_project_dir: Path::new("/proj"),
        codex_home: None,
        probe: &probe,
    };
    let found = diagnose(&settings, &cx);
    assert_eq!(found[0].check, Check::Untrusted);
    assert_eq!(found[0].severity, Severity::Error);
    // Every graded check is in the table the documentation mirrors.
    let doc = include_str!("../../docs/diagnostics.md");
    for check in Check::ALL {
        let row = format!("| `{}` | {} |", check.id(), check.severity().as_str());
        assert!(doc.contains(&row), "docs/diagnostics.md lacks {row}");
    }
}

#[test]
fn a_hosts_event_name_gets_one_fix() {
    let found = run(r#"{"hooks": {"BeforeTool": [{"command": "exit 2"}]}}"#);
    let fixes: Vec<&str> = found
        .iter()
        .filter(|f| f.json_path == "hooks.BeforeTool")
        .map(|f| f.fix.as_str())
        .collect();
    assert_eq!(fixes, ["rename the key to `PreToolUse`"], "{found:#?}");
    assert!(
        !found.iter().any(|f| f.message.contains("BeforeModel")),
        "{found:#?}"
    );
    // The loader's own warning (shown by `fire`) gives the same advice.
    let mut settings = Settings::default();
    let source = Source {
        path: PathBuf::from("/cfg/settings.json"),
        kind: SourceKind::Cli,
        claude_mode: false,
        trust_required: false,
    };
    load_bytes(
        &mut settings,
        source,
        PathBuf::from("/cfg"),
        br#"{"hooks": {"BeforeTool": [{"command": "exit 2"}]}}"#,
    );
    let message = &settings.problems[0].message;
    assert!(message.contains("did you mean `PreToolUse`"), "{message}");
    assert!(!message.contains("BeforeModel"), "{message}");
}

#[test]
fn an_ssrf_refused_url_gets_a_fix_about_the_network_not_variables() {
    let found =
        run(r#"{"hooks": {"Stop": [{"type": "http", "url": "http://10.0.0.5:8080/hook"}]}}"#);
    let f = found
        .iter()
        .find(|f| f.check == Check::HttpHook)
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert!(
        f.fix.contains(r#""allowedHookNetworks": ["10.0.0.5"]"#),
        "{}",
        f.fix
    );
    assert!(!f.fix.contains("allowedEnvVars"), "{}", f.fix);
}

#[test]
fn every_permission_rule_of_every_file_is_parsed() {
    // hookrun's own file: a deny or ask rule that does not parse is an
    // error (its guard never holds); an allow rule only approves nothing.
    let found = run(
        r#"{"permissions": {"deny": ["Bash(rm *)", "Bash(", "mcp__*__x"], "ask": ["Web*"], "allow": ["Read(", "Read"]}}"#,
    );
    let rules: Vec<(Check, String, Severity)> = found
        .iter()
        .filter(|f| f.check.id().ends_with("rule-invalid"))
        .map(|f| (f.check, f.json_path.clone(), f.severity))
        .collect();
    assert_eq!(
        rules,
        [
            (
                Check::PermissionRuleInvalid,
                "permissions.deny[1]".into(),
                Severity::Error
            ),
            (
                Check::PermissionRuleInvalid,
                "permissions.deny[2]".into(),
                Severity::Error
            ),
            (
                Check::PermissionRuleInvalid,
                "permissions.ask[0]".into(),
                Severity::Error
            ),
            (
                Check::AllowRuleInvalid,
                "permissions.allow[0]".into(),
                Severity::Warning
            ),
        ],
        "{found:#?}"
    );
    assert!(found[0].message.contains("Bash("), "{found:#?}");

    // A Claude Code file: the same rules, checked the same way (hookrun
    // enforces its deny and ask rules behind every other host).
    let mut settings = Settings::default();
    let source = Source {
        path: PathBuf::from("/proj/.claude/settings.json"),
        kind: SourceKind::Project,
        claude_mode: true,
        trust_required: false,
    };
    load_bytes(
        &mut settings,
        source,
        PathBuf::from("/proj/.claude"),
        br#"{"permissions": {"deny": ["Read", "Bash(git push"]}}"#,
    );
    let probe = Fake {
        files: HashMap::new(),
    };
    let cx = Context {
        project_dir: Path::new("/proj"),
        home: Some(Path::new("/home/u")),
        claude_project_dir: Path::new("/proj"),
        codex_home: None,
        probe: &probe,
    };
    let found = diagnose(&settings, &cx);
    let bad: Vec<&Finding> = found
        .iter()
        .filter(|f| f.check == Check::PermissionRuleInvalid)
        .collect();
    assert_eq!(bad.len(), 1, "{found:#?}");
    assert_eq!(bad[0].json_path, "permissions.deny[1]");
    assert_eq!(bad[0].severity, Severity::Error);
    assert!(bad[0].message.contains("every other host"), "{bad:#?}");
}

#[test]
fn a_hosts_own_tool_name_is_found() {
    let found = run(
        r#"{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "command": "exit 2"}]}}"#,
    );
    let f = found
        .iter()
        .find(|f| f.check == Check::ToolNameHost)
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(f.severity, Severity::Error);
    assert_eq!(f.fix, "write `Bash`");
}

#[test]
fn an_event_the_wired_host_lacks_is_a_note() {
    let gemini = r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "hookrun fire --host gemini"}]}]}}"#;
    let found = run_with(
        r#"{"hooks": {"PreToolUse": [{"command": "true"}], "SubagentStop": [{"command": "true"}]}}"#,
        "/cfg/settings.json",
        &[("/home/u/.gemini/settings.json", gemini)],
    );
    let missing: Vec<(&str, Severity)> = found
        .iter()
        .filter(|f| f.check == Check::HostEventMissing)
        .map(|f| (f.json_path.as_str(), f.severity))
        .collect();
    assert_eq!(
        missing,
        [("hooks.SubagentStop", Severity::Note)],
        "{found:#?}"
    );
}

#[test]
fn env_keep_in_a_project_file_is_its_own_check() {
    let mut settings = Settings::default();
    let source = Source {
        path: PathBuf::from("/proj/.hookrun/settings.json"),
        kind: SourceKind::Project,
        claude_mode: false,
        trust_required: false,
    };
    load_bytes(
        &mut settings,
        source,
        PathBuf::from("/proj/.hookrun"),
        br#"{"env": {"keep": ["GITHUB_TOKEN"]}}"#,
    );
    let found: Vec<Finding> = settings.problems.iter().map(problems::finding).collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].check, Check::ProjectEnvKeep);
    assert_eq!(found[0].json_path, "env.keep");
    assert_eq!(found[0].severity, Severity::Warning);
}

#[test]
fn a_corrupt_trust_store_is_its_own_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    std::fs::write(&path, "{not json").unwrap();
    let Err(err) = crate::settings::trust::TrustStore::load(&path) else {
        panic!("a corrupt store loaded")
    };
    // As the loader reports it.
    let problem = crate::settings::Problem {
        severity: Severity::Warning,
        kind: crate::settings::ProblemKind::TrustStoreInvalid,
        file: path.clone(),
        json_path: String::new(),
        message: err.to_string(),
    };
    let f = problems::finding(&problem);
    assert_eq!(f.check, Check::TrustStore, "{f:#?}");
    assert!(f.fix.contains("hookrun trust"), "{}", f.fix);
}

#[test]
fn a_loader_problem_without_a_rule_keeps_its_severity() {
    let problem = |severity| crate::settings::Problem {
        severity,
        // A kind no rule of its own takes.
        kind: crate::settings::ProblemKind::InvalidValue,
        file: PathBuf::from("/cfg/settings.json"),
        json_path: "hooks.Stop[0]".into(),
        message: "a message no rule knows".into(),
    };
    let error = problems::finding(&problem(Severity::Error));
    assert_eq!(
        (error.check, error.severity, error.fix.as_str()),
        (
            Check::SettingsProblem,
            Severity::Error,
            "fix the value at this path; the entry is skipped until then"
        )
    );
    let note = problems::finding(&problem(Severity::Note));
    assert_eq!(
        (note.check, note.severity),
        (Check::SettingsProblem, Severity::Note)
    );
}

#[test]
fn on_failure_is_read_as_claude_code_reads_it() {
    // A value Claude Code does not know: read as block, and said.
    let f = one(
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"sh /cfg/ok.sh","onFailure":"stop"}]}]}}"#,
    );
    assert_eq!(f.check, Check::OnFailure);
    assert_eq!(f.json_path, "hooks.PreToolUse[0].hooks[0].onFailure");
    assert!(f.message.contains("read as \"block\""), "{}", f.message);
    // Where Claude Code ignores it (Stop), hookrun ignores it too.
    let f = one(r#"{"hooks":{"Stop":[{"command":"sh /cfg/ok.sh","onFailure":"block"}]}}"#);
    assert_eq!(f.check, Check::OnFailure);
    assert!(f.message.contains("ignored on Stop"), "{}", f.message);
    // The two names disagreeing: block wins, and said.
    let f = one(
        r#"{"hooks":{"PreToolUse":[{"command":"sh /cfg/ok.sh","onError":"allow","onFailure":"block"}]}}"#,
    );
    assert_eq!(f.check, Check::OnFailure);
    // The plain values are quiet, and so are Claude Code's internal fields
    // but for a note.
    let unexpected = run(
        r#"{"hooks":{"PreToolUse":[{"command":"sh /cfg/ok.sh","onFailure":"block"},{"command":"sh /cfg/ok.sh","onFailure":"continue"}]}}"#,
    );
    assert!(unexpected.is_empty(), "{unexpected:#?}");
    let found = run(
        r#"{"hooks":{"PostToolUse":[{"command":"sh /cfg/ok.sh","holdsTools":true,"cloud":"device","rewakeMessage":"m","rewakeSummary":"s"}]}}"#,
    );
    assert!(
        found
            .iter()
            .all(|f| f.check == Check::ClaudeMode && f.severity == Severity::Note),
        "{found:#?}"
    );
    assert_eq!(found.len(), 4, "{found:#?}");
}

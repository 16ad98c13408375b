//! The loader's own problems (JSON, shape, unknown keys and events) as
//! `doctor` findings: the loader finds them once, for `fire` and `doctor`
//! alike; this module only names the check and adds the fix.
//!
//! Each problem is matched by its kind ([`ProblemKind`]), never by its
//! wording, so a message can be reworded without moving it to another
//! check. A unit test holds every kind to exactly one rule, or to the short
//! list of kinds left to the generic `settings` check.

use crate::catalog;
use crate::settings::load::HOOK_FIELDS;
use crate::settings::{Problem, ProblemKind, Severity};

use super::{Check, Finding};

/// How one kind of loader message becomes a finding.
struct Rule {
    /// The kinds of problem the rule is for.
    kinds: &'static [ProblemKind],
    check: Check,
    fix: fn(&Problem) -> String,
}

const RULES: &[Rule] = &[
    Rule {
        kinds: &[ProblemKind::FileUnreadable],
        check: Check::SettingsUnreadable,
        fix: |_| "make the file readable by the user the host runs as".into(),
    },
    Rule {
        kinds: &[ProblemKind::JsonSyntax],
        check: Check::JsonSyntax,
        fix: |_| {
            "fix the syntax at the line and column given (JSON has no comments and no trailing commas)".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::JsonNotAnObject],
        check: Check::JsonShape,
        fix: |_| "make the file one object: {\"hooks\": {\"PreToolUse\": [ … ]}}".into(),
    },
    Rule {
        kinds: &[ProblemKind::UnknownEvent],
        check: Check::UnknownEvent,
        fix: unknown_event_fix,
    },
    Rule {
        kinds: &[ProblemKind::MisspeltIf, ProblemKind::MisspeltMatcher],
        check: Check::FilterTypo,
        fix: |p| {
            let field = if p.kind == ProblemKind::MisspeltIf {
                "if"
            } else {
                "matcher"
            };
            format!("rename it to `{field}`")
        },
    },
    Rule {
        kinds: &[ProblemKind::UnknownGroupKey],
        check: Check::UnknownField,
        fix: |_| {
            "a group holds only `matcher` and `hooks`: move the field into each hook of `hooks`"
                .into()
        },
    },
    Rule {
        kinds: &[ProblemKind::EventOutsideHooks],
        check: Check::EventOutsideHooks,
        fix: |p| {
            format!(
                "move it under `hooks`: {{\"hooks\": {{{}: […]}}}}",
                serde_json::Value::from(p.json_path.as_str())
            )
        },
    },
    Rule {
        kinds: &[ProblemKind::UnknownKey],
        check: Check::UnknownKey,
        fix: |p| did_you_mean(p, "rename it to"),
    },
    Rule {
        kinds: &[ProblemKind::UnknownField],
        check: Check::UnknownField,
        fix: |p| did_you_mean(p, "rename it to"),
    },
    Rule {
        kinds: &[ProblemKind::MixedShapes],
        check: Check::InvalidEntry,
        fix: |_| {
            "put `command`, `type`… inside the group's `hooks` list, or remove `hooks` to make it one flat hook".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::HooksNotAnObject],
        check: Check::InvalidEntry,
        fix: |_| "write `hooks` as {\"EventName\": [ {hook}, … ]}".into(),
    },
    Rule {
        kinds: &[ProblemKind::HookListNotAList],
        check: Check::InvalidEntry,
        fix: |_| "wrap the hooks in a list: [ {…} ]".into(),
    },
    Rule {
        kinds: &[ProblemKind::HookNotAnObject],
        check: Check::InvalidEntry,
        fix: |_| "write each hook as an object: {\"command\": \"…\"}".into(),
    },
    Rule {
        kinds: &[ProblemKind::CommandMissing],
        check: Check::InvalidEntry,
        fix: |_| "add `command` (the shell command to run), or set `type`".into(),
    },
    Rule {
        kinds: &[ProblemKind::UrlMissing],
        check: Check::InvalidEntry,
        fix: |_| "add `url`".into(),
    },
    Rule {
        kinds: &[ProblemKind::PromptHookEvent],
        check: Check::PromptHookEvent,
        fix: |_| {
            "move the hook to an event with a conversation (PreToolUse, Stop…), or write it as a command hook".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::AgentHookEvent],
        check: Check::PromptHookEvent,
        fix: |_| {
            "move the hook to an event it runs on (PreToolUse, Stop…), or write it as a command hook".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::AgentHookWithoutPrompt],
        check: Check::InvalidEntry,
        fix: |_| "add `prompt` (what the model is asked; $ARGUMENTS is the event JSON)".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotForAgentHooks],
        check: Check::IgnoredField,
        fix: |p| format!("remove `{}`", last_key(&p.json_path)),
    },
    Rule {
        kinds: &[ProblemKind::PromptHookWithoutPrompt],
        check: Check::InvalidEntry,
        fix: |_| "add `prompt` (what the model is asked; $ARGUMENTS is the event JSON)".into(),
    },
    Rule {
        kinds: &[ProblemKind::OnlyForPromptHooks],
        check: Check::IgnoredField,
        fix: |p| {
            format!(
                "remove `{}`, or set \"type\": \"prompt\"",
                last_key(&p.json_path)
            )
        },
    },
    Rule {
        kinds: &[ProblemKind::ProjectPromptEndpoint],
        check: Check::ManagedOnly,
        fix: |_| "set it in your user settings (~/.config/hookrun/settings.json)".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotANonEmptyString],
        check: Check::InvalidValue,
        fix: |_| "write a string, e.g. \"claude-haiku-4-5\"".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotAnEndpoint],
        check: Check::InvalidValue,
        fix: |_| {
            "write the base URL with http:// or https://, e.g. \"http://127.0.0.1:11434/v1\"".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::PromptHooksNotAnObject],
        check: Check::InvalidValue,
        fix: |_| "write promptHooks as {\"model\": \"claude-haiku-4-5\"}".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotAUrlPatternList],
        check: Check::InvalidValue,
        fix: |_| "write a list of URL patterns: [\"https://api.anthropic.com/*\"]".into(),
    },
    Rule {
        kinds: &[ProblemKind::UnknownProvider],
        check: Check::InvalidValue,
        fix: |_| "use \"anthropic\" or \"openai\"".into(),
    },
    Rule {
        kinds: &[ProblemKind::EmptyGroup],
        check: Check::EmptyGroup,
        fix: |_| "add hooks to the group's `hooks` list, or remove the group".into(),
    },
    Rule {
        kinds: &[ProblemKind::CommandEmpty],
        check: Check::InvalidEntry,
        fix: |_| "write the command to run, or remove the hook".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotSeconds],
        check: Check::InvalidValue,
        fix: |_| "write the timeout as a number of seconds, e.g. \"timeout\": 10".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotABool],
        check: Check::InvalidValue,
        fix: |_| "write true or false, without quotes".into(),
    },
    Rule {
        kinds: &[ProblemKind::UnknownVariant],
        check: Check::InvalidValue,
        fix: |_| "use one of the values the message lists".into(),
    },
    Rule {
        kinds: &[ProblemKind::WrongType],
        check: Check::InvalidValue,
        fix: |_| "use the type the message names (numbers and booleans without quotes)".into(),
    },
    Rule {
        kinds: &[ProblemKind::FileMissing],
        check: Check::SettingsMissing,
        fix: |_| {
            "fix the path given with --settings / --claude-settings (relative paths are relative to the current directory)".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::Untrusted],
        check: Check::Untrusted,
        fix: |p| trust_fix(p),
    },
    Rule {
        kinds: &[ProblemKind::ChangedSinceTrusted],
        check: Check::Untrusted,
        fix: |p| trust_fix(p),
    },
    Rule {
        kinds: &[ProblemKind::ManagedOnly],
        check: Check::ManagedOnly,
        fix: |_| "move the key to the managed settings file, or remove it".into(),
    },
    Rule {
        kinds: &[ProblemKind::ProjectEnvKeep],
        check: Check::ProjectEnvKeep,
        fix: |_| {
            "list the variable in env.keep of your user settings (~/.config/hookrun/settings.json)"
                .into()
        },
    },
    Rule {
        kinds: &[ProblemKind::NotAFilePath],
        check: Check::InvalidValue,
        fix: |_| "set `log` to a file path, e.g. \"~/.local/state/hookrun/audit.jsonl\"".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotARule],
        check: Check::InvalidValue,
        fix: |_| "write each rule as a string, e.g. \"Bash(git push *)\"".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotARuleList],
        check: Check::InvalidValue,
        fix: |_| "write the rules as a list: [\"Bash(rm *)\"]".into(),
    },
    Rule {
        kinds: &[ProblemKind::PermissionsNotAnObject],
        check: Check::InvalidValue,
        fix: |_| "write permissions as {\"deny\": [\"Bash(rm *)\"]}".into(),
    },
    Rule {
        kinds: &[ProblemKind::EnvNotAnObject],
        check: Check::InvalidValue,
        fix: |_| "write env as {\"keep\": [\"NAME\"]}".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotAStringList],
        check: Check::InvalidValue,
        fix: |_| "write a list of strings: [\"…\"]".into(),
    },
    Rule {
        kinds: &[ProblemKind::UnknownSource],
        check: Check::InvalidValue,
        fix: |_| "use user, project, local, cli or managed".into(),
    },
    Rule {
        kinds: &[ProblemKind::TrustStoreInvalid],
        check: Check::TrustStore,
        fix: |_| "run `hookrun trust` in each project you trust to rewrite the store".into(),
    },
    Rule {
        kinds: &[ProblemKind::NotAString],
        check: Check::InvalidValue,
        fix: |_| "write the matcher as a string, e.g. \"Edit|Write\"".into(),
    },
    Rule {
        kinds: &[ProblemKind::InnerMatcher],
        check: Check::IgnoredField,
        fix: |_| "remove the inner `matcher`, or move the hook to a group with that matcher".into(),
    },
    Rule {
        kinds: &[ProblemKind::OnlyForCommandHooks],
        check: Check::IgnoredField,
        fix: |p| format!("remove `{}`", last_key(&p.json_path)),
    },
    Rule {
        kinds: &[ProblemKind::OnlyForHttpHooks],
        check: Check::IgnoredField,
        fix: |p| {
            format!(
                "remove `{}`, or set \"type\": \"http\"",
                last_key(&p.json_path)
            )
        },
    },
    Rule {
        kinds: &[ProblemKind::ShellInExecForm],
        check: Check::IgnoredField,
        fix: |_| "remove `shell`, or drop `args` to run `command` through the shell".into(),
    },
    Rule {
        kinds: &[ProblemKind::AsyncRewakeForeground],
        check: Check::AsyncRewakeForeground,
        fix: |_| {
            "add \"async\": true to run it in the background (its exit 2 then reaches the model later), or remove `asyncRewake`".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::ClaudeModeIgnored],
        check: Check::ClaudeMode,
        fix: |_| "nothing to do: Claude Code applies it itself".into(),
    },
    Rule {
        kinds: &[ProblemKind::ClaudeInternalField],
        check: Check::ClaudeMode,
        fix: |_| "nothing to do; remove it unless Claude Code's own plugin needs it".into(),
    },
    Rule {
        kinds: &[ProblemKind::OnFailureValue],
        check: Check::OnFailure,
        fix: |_| {
            "write \"onFailure\": \"block\" (fail closed) or \"continue\", and the same value in `onError` if both are set".into()
        },
    },
    Rule {
        kinds: &[ProblemKind::OnFailureIgnored],
        check: Check::OnFailure,
        fix: |_| {
            "remove `onFailure`, or check the condition in the command and exit 2 where a block is meant".into()
        },
    },
];

/// The finding for one loader problem.
pub fn finding(problem: &Problem) -> Finding {
    let rule = RULES.iter().find(|r| r.kinds.contains(&problem.kind));
    let (check, fix) = rule.map_or_else(
        || {
            let fix = match problem.severity {
                Severity::Error => "fix the value at this path; the entry is skipped until then",
                Severity::Warning | Severity::Note => "check the value at this path",
            };
            (Check::SettingsProblem, fix.to_owned())
        },
        |r| (r.check, (r.fix)(problem)),
    );
    let mut severity = problem.severity;
    let mut message = problem.message.clone();
    // A misspelt event (`PreToolUsed`): no host sends it, so its hooks
    // look configured and never run. A name near no event is a custom
    // event a home-made host may send: only a warning.
    if problem.kind == ProblemKind::UnknownEvent && unknown_event_meant(problem).is_some() {
        severity = Severity::Error;
        message.push_str(": no host sends it, so its hooks never run");
    }
    Finding {
        check,
        severity,
        file: problem.file.clone(),
        json_path: problem.json_path.clone(),
        message,
        fix,
    }
}

/// The last segment of a JSON path (`hooks.Stop[0].comand` → `comand`).
fn last_key(json_path: &str) -> &str {
    json_path.rsplit('.').next().unwrap_or(json_path)
}

fn did_you_mean(problem: &Problem, verb: &str) -> String {
    // The loader already suggests top-level keys; reuse its choice.
    if let Some(start) = problem.message.find("did you mean `") {
        let rest = &problem.message[start + "did you mean `".len()..];
        if let Some(end) = rest.find('`') {
            return format!("{verb} `{}`", &rest[..end]);
        }
    }
    let key = last_key(&problem.json_path);
    let folded = catalog::fold_name(key);
    let near = HOOK_FIELDS
        .iter()
        .map(|f| (catalog::edit_distance(&catalog::fold_name(f), &folded), *f))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d);
    match near {
        Some((_, field)) if problem.kind == ProblemKind::UnknownField => {
            format!("{verb} `{field}`")
        }
        _ => format!("remove `{key}`: hookrun ignores it"),
    }
}

fn trust_fix(problem: &Problem) -> String {
    match problem.message.split_once("run `") {
        Some((_, rest)) => format!(
            "review the file, then run `{}",
            rest.trim_end_matches('`').to_owned() + "`"
        ),
        None => "review the file, then run `hookrun trust`".into(),
    }
}

/// The event an unknown event key probably means: the loader's own
/// suggestion (so the message and the fix agree), else the nearest in the
/// catalog.
fn unknown_event_meant(problem: &Problem) -> Option<String> {
    let meant = problem
        .message
        .rsplit_once("did you mean `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(meant, _)| meant.to_owned());
    meant.or_else(|| catalog::nearest(unknown_event_key(problem)).map(str::to_owned))
}

fn unknown_event_key(problem: &Problem) -> &str {
    problem
        .message
        .strip_prefix('`')
        .and_then(|m| m.split_once('`'))
        .map_or("", |(key, _)| key)
}

fn unknown_event_fix(problem: &Problem) -> String {
    match unknown_event_meant(problem) {
        Some(near) => format!("rename the key to `{near}`"),
        None => format!(
            "use an event from the catalog (`hookrun list` shows them per file); if your host sends `{}` itself, ignore this",
            unknown_event_key(problem)
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::load::load_bytes;
    use crate::settings::{Settings, Source, SourceKind};

    fn problems(json: &[u8], claude_mode: bool) -> Vec<Problem> {
        let mut settings = Settings::default();
        let source = Source {
            path: PathBuf::from("/cfg/settings.json"),
            kind: SourceKind::Cli,
            claude_mode,
            trust_required: false,
        };
        load_bytes(&mut settings, source, PathBuf::from("/cfg"), json);
        settings.problems
    }

    /// One example of every message the loader writes, with the check it
    /// must map to.
    #[test]
    fn every_loader_message_has_its_own_fix() {
        let cases: &[(&[u8], bool, &[Check])] = &[
            (b"{", false, &[Check::JsonSyntax]),
            (b"[1]", false, &[Check::JsonShape]),
            (b"{\"hooks\": 3}", false, &[Check::InvalidEntry]),
            (
                br#"{"hoks": {}, "disableAllHooks": "yes", "permissions": {}, "log": {}, "hooks": {
                    "PreToolUsed": [{"command": "x", "comand": "y"}],
                    "MyEvent": [{"command": "x"}],
                    "Stop": {"command": "x"},
                    "PostToolUse": ["x", {"matcher": 3, "hooks": []}, {"hooks": "x"},
                        {"matcher": "Bash", "extra": 1, "hooks": [{"command": "a", "matcher": "Edit"}, 7]},
                        {"hooks": [], "command": "x"}, {"hooks": []},
                        {"type": "http"}, {"command": ""}, {"timeout": 2},
                        {"command": "x", "timeout": "10"}, {"command": "x", "timeout": 0},
                        {"command": "x", "onError": "explode"}, {"command": "x", "name": 3},
                        {"type": "http", "url": "http://x", "args": ["a"]},
                        {"command": "x", "args": [], "shell": "bash"},
                        {"type": "prompt"}, {"command": "x", "continueOnBlock": true},
                        {"command": "x", "asyncRewake": true}],
                    "SessionEnd": [{"type": "prompt", "prompt": "x"}]
                }, "promptHooks": {"provider": "x", "model": 3, "modl": "m", "baseUrl": "ftp://x"},
                "allowPromptHooks": 1, "allowedPromptHookEndpoints": "x"}"#,
                false,
                &[
                    Check::PromptHookEvent,
                    Check::ManagedOnly,
                    Check::UnknownKey,
                    Check::InvalidValue,
                    Check::UnknownEvent,
                    Check::UnknownField,
                    Check::InvalidEntry,
                    Check::EmptyGroup,
                    Check::IgnoredField,
                    Check::AsyncRewakeForeground,
                ],
            ),
            (
                br#"{"env": {}, "hooks": {"Stop": [{"hooks": [{"command": "x", "once": true}]}]}}"#,
                true,
                &[Check::ClaudeMode],
            ),
        ];
        for (json, claude_mode, expected) in cases {
            let found = problems(json, *claude_mode);
            assert!(!found.is_empty(), "`found` is empty");
            let mut checks: Vec<Check> = Vec::new();
            for problem in &found {
                let f = finding(problem);
                assert_ne!(f.check, Check::SettingsProblem, "no rule for {problem}");
                assert!(!f.fix.is_empty(), "`f.fix` is empty");
                checks.push(f.check);
            }
            for check in *expected {
                assert!(checks.contains(check), "{check} missing from {checks:?}");
            }
        }
    }

    /// The kinds `doctor` reports under the generic `settings` check, with
    /// the generic fix: no rule of their own (yet).
    const GENERIC: &[ProblemKind] = &[
        ProblemKind::RemovedSinceTrusted,
        ProblemKind::TrustStoreUnreadable,
        ProblemKind::ProjectSsrfOptOut,
        ProblemKind::McpToolIncomplete,
        ProblemKind::OnlyForMcpToolHooks,
        ProblemKind::InvalidValue,
        ProblemKind::NotANetworkList,
        ProblemKind::NotANetwork,
        ProblemKind::NotAVariableList,
    ];

    /// A new kind of loader problem fails here until it is given a rule
    /// (or, on purpose, the generic check); a kind in two rules would make
    /// the order of `RULES` decide.
    #[test]
    fn every_problem_kind_reaches_exactly_one_check() {
        for kind in ProblemKind::ALL {
            let rules: Vec<Check> = RULES
                .iter()
                .filter(|r| r.kinds.contains(kind))
                .map(|r| r.check)
                .collect();
            if GENERIC.contains(kind) {
                assert!(rules.is_empty(), "{kind:?} is generic but has {rules:?}");
            } else {
                assert_eq!(rules.len(), 1, "{kind:?} reaches {rules:?}");
            }
            let problem = Problem {
                severity: Severity::Warning,
                kind: *kind,
                file: PathBuf::from("/cfg/settings.json"),
                json_path: "hooks.Stop[0].x".into(),
                message: String::new(),
            };
            let f = finding(&problem);
            assert_eq!(
                f.check == Check::SettingsProblem,
                GENERIC.contains(kind),
                "{kind:?}"
            );
            assert!(!f.fix.is_empty(), "{kind:?}");
        }
        for rule in RULES {
            assert!(!rule.kinds.is_empty(), "{} has no kind", rule.check);
        }
    }

    /// A message that quotes another message's words (an error from
    /// serde_json or the file system, a path) keeps the check of its kind.
    #[test]
    fn the_kind_decides_the_check_not_the_words() {
        for (kind, message, check) in [
            (
                ProblemKind::TrustStoreInvalid,
                "/c/trust.json is not a valid trust store (invalid type: string \"x\", expected u32 at line 1 column 15); every project file counts as untrusted until `hookrun trust` rewrites it",
                Check::TrustStore,
            ),
            (
                ProblemKind::ChangedSinceTrusted,
                "changed since it was trusted, and the trusted copy /c/trusted/0.json cannot be read: denied: its hooks, permissions and env do not take effect; review it, then run `hookrun trust /p`",
                Check::Untrusted,
            ),
            (
                ProblemKind::UnknownVariant,
                "unknown variant `cannot be read`, expected `allow` or `block`; this hook is skipped",
                Check::InvalidValue,
            ),
        ] {
            let problem = Problem {
                severity: Severity::Error,
                kind,
                file: PathBuf::from("/p/.hookrun/settings.json"),
                json_path: String::new(),
                message: message.into(),
            };
            assert_eq!(finding(&problem).check, check, "{kind:?}");
        }
    }

    #[test]
    fn fixes_name_the_nearest_names() {
        let found = problems(
            br#"{"hoks": {}, "hooks": {"PreToolUsed": [{"command": "x", "comand": "y", "timout": 3}], "Zzzzzzzzzzzz": []}}"#,
            false,
        );
        let fixes: Vec<String> = found.iter().map(|p| finding(p).fix).collect();
        assert!(
            fixes.contains(&"rename it to `hooks`".to_owned()),
            "{fixes:?}"
        );
        assert!(
            fixes.contains(&"rename the key to `PreToolUse`".to_owned()),
            "{fixes:?}"
        );
        assert!(
            fixes.contains(&"rename it to `command`".to_owned()),
            "{fixes:?}"
        );
        assert!(
            fixes.contains(&"rename it to `timeout`".to_owned()),
            "{fixes:?}"
        );
        assert!(
            fixes
                .iter()
                .any(|f| f.contains("if your host sends `Zzzzzzzzzzzz`")),
            "{fixes:?}"
        );
    }
}

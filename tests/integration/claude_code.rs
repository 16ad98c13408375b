//! hookrun as Claude Code's one hook (docs/claude-code.md): whatever the
//! hooks behind it do, what `hookrun fire` answers must be valid input for
//! Claude Code's hook protocol.
//!
//! For every fixture in `fixtures/events/` and a set of hook outcomes, the
//! answer is checked against a per-event schema written here from SPEC §2,
//! §6.2 and §7.2–7.3 (deliberately not from `src/catalog.rs`, so a wrong row
//! there fails here):
//! - the exit code is 0 or 2, and 2 only on events whose block is an exit 2;
//! - on exit 2 stderr holds the reason (non-empty), on exit 0 it is empty;
//! - stdout is ONE JSON object on one line (`WorktreeCreate`: the path line,
//!   or nothing when it blocks) whose keys are only the universal fields,
//!   `decision`/`reason` where the event takes them, and `hookSpecificOutput`
//!   where the event takes it — which then ALWAYS names the event in
//!   `hookEventName` (Claude Code ignores it otherwise, probe b4) and holds
//!   only that event's fields, with the types Claude Code expects.
//!
//! The settings are read the way the "reverse" recipe reads them: Claude
//! Code's nested shape in a `.claude/settings.json` given by absolute path,
//! outside the project, and `hookrun fire` takes the event from the input.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::firetest::Fire;
use crate::support::{Run, Sandbox, fixture};

/// What a block from a hook means on an event (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    Block,
    Feedback,
    Downgraded,
    Ignored,
}

/// How a standing block is written (SPEC §7.3 "block" column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockAs {
    /// `HSO{permissionDecision:"deny", permissionDecisionReason:R}` + exit 2.
    PermissionDeny,
    /// `HSO{decision:{behavior:"deny", message:R}}`, exit 0.
    RequestDeny,
    /// `HSO{action:"decline"}`, exit 0.
    Decline,
    /// `{"decision":"block","reason":R}` + exit 2.
    DecisionJson,
    /// Exit 2 with R on stderr, no decision JSON.
    ExitOnly,
    /// `WorktreeCreate`: exit 2, no path line.
    NoPath,
    /// Never a block (downgraded or ignored tiers).
    Never,
}

/// One event's answer schema.
struct Shape {
    event: &'static str,
    tier: Tier,
    block: BlockAs,
    /// Keys allowed in `hookSpecificOutput` besides `hookEventName`; `None`:
    /// the event takes no `hookSpecificOutput` at all.
    hso: Option<&'static [&'static str]>,
}

const UNIVERSAL: &[&str] = &[
    "continue",
    "stopReason",
    "systemMessage",
    "suppressOutput",
    "terminalSequence",
];

const PRE_TOOL: &[&str] = &[
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
    "additionalContext",
];
const PROMPT: &[&str] = &[
    "additionalContext",
    "sessionTitle",
    "suppressOriginalPrompt",
];
const POST_TOOL: &[&str] = &[
    "additionalContext",
    "updatedToolOutput",
    "updatedMCPToolOutput",
    "classifierContext",
];
const CONTEXT: &[&str] = &["additionalContext"];
const SESSION: &[&str] = &[
    "additionalContext",
    "sessionTitle",
    "initialUserMessage",
    "watchPaths",
    "reloadSkills",
];

/// SPEC §2 (tier) and §7.3 (encoding), one row per catalog event.
#[rustfmt::skip]
const SHAPES: &[Shape] = &[
    Shape { event: "PreToolUse", tier: Tier::Block, block: BlockAs::PermissionDeny, hso: Some(PRE_TOOL) },
    Shape { event: "PermissionRequest", tier: Tier::Block, block: BlockAs::RequestDeny, hso: Some(&["decision"]) },
    Shape { event: "PermissionDenied", tier: Tier::Ignored, block: BlockAs::Never, hso: Some(&["retry"]) },
    Shape { event: "PostToolUse", tier: Tier::Feedback, block: BlockAs::DecisionJson, hso: Some(POST_TOOL) },
    Shape { event: "PostToolUseFailure", tier: Tier::Feedback, block: BlockAs::DecisionJson, hso: Some(POST_TOOL) },
    Shape { event: "PostToolBatch", tier: Tier::Block, block: BlockAs::DecisionJson, hso: Some(CONTEXT) },
    Shape { event: "UserPromptSubmit", tier: Tier::Block, block: BlockAs::DecisionJson, hso: Some(PROMPT) },
    Shape { event: "UserPromptExpansion", tier: Tier::Block, block: BlockAs::DecisionJson, hso: Some(PROMPT) },
    Shape { event: "MessageDisplay", tier: Tier::Ignored, block: BlockAs::Never, hso: Some(&["displayContent"]) },
    Shape { event: "Stop", tier: Tier::Feedback, block: BlockAs::ExitOnly, hso: Some(CONTEXT) },
    Shape { event: "SubagentStop", tier: Tier::Feedback, block: BlockAs::ExitOnly, hso: Some(CONTEXT) },
    Shape { event: "StopFailure", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "SubagentStart", tier: Tier::Downgraded, block: BlockAs::Never, hso: Some(SESSION) },
    Shape { event: "SessionStart", tier: Tier::Downgraded, block: BlockAs::Never, hso: Some(SESSION) },
    Shape { event: "SessionEnd", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "Setup", tier: Tier::Downgraded, block: BlockAs::Never, hso: Some(SESSION) },
    Shape { event: "InstructionsLoaded", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "PreCompact", tier: Tier::Block, block: BlockAs::DecisionJson, hso: None },
    Shape { event: "PostCompact", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "Notification", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "ConfigChange", tier: Tier::Block, block: BlockAs::DecisionJson, hso: None },
    Shape { event: "CwdChanged", tier: Tier::Ignored, block: BlockAs::Never, hso: Some(&["watchPaths"]) },
    Shape { event: "DirectoryAdded", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "FileChanged", tier: Tier::Ignored, block: BlockAs::Never, hso: Some(&["watchPaths"]) },
    Shape { event: "TeammateIdle", tier: Tier::Feedback, block: BlockAs::ExitOnly, hso: None },
    Shape { event: "TaskCreated", tier: Tier::Feedback, block: BlockAs::DecisionJson, hso: None },
    Shape { event: "TaskCompleted", tier: Tier::Feedback, block: BlockAs::ExitOnly, hso: None },
    Shape { event: "Elicitation", tier: Tier::Block, block: BlockAs::Decline, hso: Some(&["action", "content"]) },
    Shape { event: "ElicitationResult", tier: Tier::Block, block: BlockAs::Decline, hso: Some(&["action", "content"]) },
    Shape { event: "WorktreeCreate", tier: Tier::Block, block: BlockAs::NoPath, hso: None },
    Shape { event: "WorktreeRemove", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "PreModelSwitch", tier: Tier::Block, block: BlockAs::PermissionDeny, hso: Some(&["permissionDecision", "permissionDecisionReason"]) },
    Shape { event: "PostModelSwitch", tier: Tier::Ignored, block: BlockAs::Never, hso: Some(CONTEXT) },
    Shape { event: "PreSkillShellCommand", tier: Tier::Block, block: BlockAs::PermissionDeny, hso: Some(&["permissionDecision", "permissionDecisionReason", "updatedInput"]) },
    Shape { event: "Interrupt", tier: Tier::Ignored, block: BlockAs::Never, hso: None },
    Shape { event: "BeforeModel", tier: Tier::Block, block: BlockAs::ExitOnly, hso: None },
    Shape { event: "AfterModel", tier: Tier::Block, block: BlockAs::ExitOnly, hso: None },
    Shape { event: "AfterAgent", tier: Tier::Feedback, block: BlockAs::ExitOnly, hso: None },
];

fn shape(event: &str) -> &'static Shape {
    SHAPES
        .iter()
        .find(|s| s.event == event)
        .unwrap_or_else(|| panic!("no schema row for {event}"))
}

/// The hooks behind hookrun, per outcome: shell commands that Claude Code
/// hook authors write. `{EV}` is replaced by the event's name.
const OUTCOMES: &[(&str, &[&str])] = &[
    ("nothing", &["true"]),
    ("block", &["echo BLOCK-REASON >&2; exit 2"]),
    (
        "json-block",
        &[r#"printf '%s\n' '{"decision":"block","reason":"JSON-BLOCK"}'"#],
    ),
    (
        "allow",
        &[
            r#"printf '%s\n' '{"decision":"approve","hookSpecificOutput":{"hookEventName":"{EV}","permissionDecision":"allow","permissionDecisionReason":"fine"}}'"#,
        ],
    ),
    (
        "context",
        &[
            r#"printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"{EV}","additionalContext":"CTX"}}'"#,
            "echo PLAIN-STDOUT",
        ],
    ),
    (
        "everything",
        &[
            "echo BLOCK-ONE >&2; exit 2",
            "echo BLOCK-TWO; exit 2",
            r#"printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"{EV}","additionalContext":"CTX"}}'"#,
            r#"printf '%s\n' '{"continue":false,"stopReason":"halt","systemMessage":"note","suppressOutput":true}'"#,
            "echo broken >&2; exit 1",
            r#"printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"{EV}","permissionDecision":"ask","updatedInput":{"command":"ls"},"watchPaths":["/tmp/x"],"retry":true,"displayContent":"d","action":"accept","content":{}}}'"#,
        ],
    ),
];

/// Writes the outcome's hooks as a Claude Code settings file (nested shape,
/// no matcher) under every event, outside the project.
fn claude_settings(sb: &Sandbox, outcome: &str, commands: &[&str]) -> PathBuf {
    let mut events = Map::new();
    for s in SHAPES {
        let hooks: Vec<Value> = commands
            .iter()
            .map(|c| json!({"type": "command", "command": c.replace("{EV}", s.event)}))
            .collect();
        events.insert(s.event.into(), json!([{ "hooks": hooks }]));
    }
    sb.write(
        &format!("claude-{outcome}/.claude/settings.json"),
        &serde_json::to_string_pretty(&json!({ "hooks": events })).unwrap(),
    )
}

/// The host's stdin: the fixture compact, on one line, ending in `\n`.
fn host_input(path: &Path) -> (String, Vec<u8>) {
    let value: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let event = value["hook_event_name"].as_str().unwrap().to_owned();
    let mut bytes = serde_json::to_vec(&value).unwrap();
    bytes.push(b'\n');
    (event, bytes)
}

/// Every violation of the schema, as text (empty: valid).
fn violations(s: &Shape, run: &Run) -> Vec<String> {
    let mut bad = Vec::new();
    let code = run.code.unwrap_or(-1);
    let exit2_allowed = matches!(
        s.block,
        BlockAs::PermissionDeny | BlockAs::DecisionJson | BlockAs::ExitOnly | BlockAs::NoPath
    );
    match code {
        0 => {
            if !run.stderr.is_empty() {
                bad.push("exit 0 with output on stderr".into());
            }
        }
        2 => {
            if !exit2_allowed {
                bad.push("exit 2 on an event whose blocks are not exit 2".into());
            }
            if run.stderr.trim().is_empty() {
                bad.push("exit 2 with an empty stderr".into());
            }
        }
        other => bad.push(format!("exit code {other}")),
    }

    if s.event == "WorktreeCreate" {
        if code == 2 {
            if !run.stdout.is_empty() {
                bad.push("a blocked WorktreeCreate printed a path".into());
            }
        } else {
            let lines: Vec<&str> = run.stdout.lines().collect();
            if lines.len() != 1
                || lines[0].trim().is_empty()
                || lines[0].trim_start().starts_with('{')
                || !run.stdout.ends_with('\n')
            {
                bad.push("WorktreeCreate stdout is not one path line".into());
            }
        }
        return bad;
    }

    if run.stdout.lines().count() != 1 || !run.stdout.ends_with('\n') {
        bad.push("stdout is not exactly one line".into());
    }
    let Ok(Value::Object(top)) = serde_json::from_str::<Value>(&run.stdout) else {
        bad.push("stdout is not one JSON object".into());
        return bad;
    };
    for (key, value) in &top {
        let ok = match key.as_str() {
            k if UNIVERSAL.contains(&k) => match k {
                "continue" | "suppressOutput" => value.is_boolean(),
                _ => value.as_str().is_some_and(|t| !t.is_empty()),
            },
            "decision" if s.block == BlockAs::DecisionJson => value == "block",
            "reason" if s.block == BlockAs::DecisionJson => {
                value.as_str().is_some_and(|t| !t.is_empty())
            }
            "hookSpecificOutput" => {
                check_hso(s, value, &mut bad);
                true
            }
            _ => false,
        };
        if !ok {
            bad.push(format!("top-level {key}: {value} is not allowed here"));
        }
    }
    if s.block == BlockAs::DecisionJson && top.contains_key("decision") != (code == 2) {
        bad.push("`decision: block` and exit 2 must come together".into());
    }
    if top.contains_key("decision") != top.contains_key("reason") {
        bad.push("`decision` without `reason` or the reverse".into());
    }
    if let Some(reason) = top.get("reason").and_then(Value::as_str) {
        if run.stderr.trim_end() != reason {
            bad.push("stderr is not the JSON reason".into());
        }
    }
    if s.block == BlockAs::PermissionDeny && code == 2 {
        let hso = &top.get("hookSpecificOutput").cloned().unwrap_or_default();
        if hso["permissionDecision"] != "deny"
            || hso["permissionDecisionReason"].as_str() != Some(run.stderr.trim_end())
        {
            bad.push("a PreToolUse exit 2 without the matching JSON deny".into());
        }
    }
    if top.contains_key("stopReason") && top.get("continue") != Some(&json!(false)) {
        bad.push("stopReason without continue: false".into());
    }
    bad
}

fn check_hso(s: &Shape, value: &Value, bad: &mut Vec<String>) {
    let Some(allowed) = s.hso else {
        bad.push(format!("{} takes no hookSpecificOutput", s.event));
        return;
    };
    let Some(hso) = value.as_object() else {
        bad.push("hookSpecificOutput is not an object".into());
        return;
    };
    if hso.get("hookEventName").and_then(Value::as_str) != Some(s.event) {
        bad.push(format!(
            "hookSpecificOutput.hookEventName is not {}",
            s.event
        ));
    }
    if hso.len() < 2 {
        bad.push("hookSpecificOutput with nothing but its event name".into());
    }
    for (key, v) in hso {
        if key == "hookEventName" {
            continue;
        }
        if !allowed.contains(&key.as_str()) {
            bad.push(format!(
                "hookSpecificOutput.{key} is not a {} field",
                s.event
            ));
            continue;
        }
        let typed = match key.as_str() {
            "permissionDecision" => {
                ["allow", "deny", "ask", "defer"].contains(&v.as_str().unwrap_or(""))
            }
            "action" => ["accept", "decline", "cancel"].contains(&v.as_str().unwrap_or("")),
            "additionalContext"
            | "permissionDecisionReason"
            | "sessionTitle"
            | "initialUserMessage"
            | "displayContent"
            | "classifierContext" => v.is_string(),
            "updatedInput" | "content" => v.is_object(),
            "watchPaths" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
            "retry" | "reloadSkills" | "suppressOriginalPrompt" => v.is_boolean(),
            "decision" => {
                let behavior = v["behavior"].as_str().unwrap_or("");
                v.as_object().is_some_and(|d| {
                    d.keys().all(|k| {
                        [
                            "behavior",
                            "updatedInput",
                            "updatedPermissions",
                            "message",
                            "interrupt",
                        ]
                        .contains(&k.as_str())
                    })
                }) && (behavior == "allow" || (behavior == "deny" && v["message"].is_string()))
            }
            _ => true,
        };
        if !typed {
            bad.push(format!(
                "hookSpecificOutput.{key}: {v} has the wrong type or value"
            ));
        }
    }
}

/// Whether the outcome's block stood where the tier says it must, and was
/// never enforced where it must not be; and that context reached the answer.
fn semantics(s: &Shape, outcome: &str, run: &Run) -> Vec<String> {
    let mut bad = Vec::new();
    let blocks = matches!(outcome, "block" | "json-block" | "everything");
    let json: Value = serde_json::from_str(&run.stdout).unwrap_or_default();
    let hso = &json["hookSpecificOutput"];
    let message = json["systemMessage"].as_str().unwrap_or_default();
    if blocks {
        let stood = match s.block {
            BlockAs::PermissionDeny
            | BlockAs::DecisionJson
            | BlockAs::ExitOnly
            | BlockAs::NoPath => run.code == Some(2),
            BlockAs::RequestDeny => hso["decision"]["behavior"] == "deny",
            BlockAs::Decline => hso["action"] == "decline",
            BlockAs::Never => false,
        };
        match s.tier {
            Tier::Block | Tier::Feedback if !stood => bad.push("the block was lost".into()),
            Tier::Downgraded if !message.contains("[hook block ignored]") => {
                bad.push("a downgraded block is not reported".into());
            }
            Tier::Downgraded | Tier::Ignored if stood || run.code != Some(0) => {
                bad.push("a block was enforced on an event that cannot block".into());
            }
            _ => {}
        }
        if outcome == "everything" && run.code == Some(2) {
            for reason in ["BLOCK-ONE", "BLOCK-TWO"] {
                if !run.stderr.contains(reason) {
                    bad.push(format!("{reason} missing from the reasons"));
                }
            }
        }
    }
    if outcome == "context"
        && s.hso
            .is_some_and(|keys| keys.contains(&"additionalContext"))
        && !hso["additionalContext"]
            .as_str()
            .is_some_and(|c| c.contains("CTX"))
    {
        bad.push("additionalContext did not reach the answer".into());
    }
    bad
}

#[test]
fn every_answer_is_valid_claude_code_hook_output() {
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(fixture("events"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    fixtures.sort();
    let covered: std::collections::BTreeSet<String> =
        fixtures.iter().map(|p| host_input(p).0).collect();
    assert_eq!(
        covered.len(),
        SHAPES.len(),
        "a fixture for every catalog event"
    );

    // A few workers, each with its own sandbox: some 260 fires in seconds.
    let workers = 4;
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let fixtures = &fixtures;
                scope.spawn(move || check_share(fixtures, worker, workers))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let checked: usize = results.iter().map(|(n, _)| n).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|(_, f)| f).collect();
    assert_eq!(checked, fixtures.len() * OUTCOMES.len());
    assert!(
        failures.is_empty(),
        "{} of {checked} answers are not valid Claude Code hook output:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Fires every outcome for the fixtures `worker` owns; returns how many
/// answers were checked and the failures.
fn check_share(fixtures: &[PathBuf], worker: usize, workers: usize) -> (usize, Vec<String>) {
    let sb = Sandbox::new();
    let settings: Vec<(&str, PathBuf)> = OUTCOMES
        .iter()
        .map(|(name, commands)| (*name, claude_settings(&sb, name, commands)))
        .collect();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in fixtures.iter().skip(worker).step_by(workers) {
        let (event, input) = host_input(path);
        let s = shape(&event);
        for (outcome, file) in &settings {
            // The recipe's command: no event name, settings by absolute path.
            let run = sb.run(
                &[
                    "fire",
                    "--no-default-settings",
                    "--settings",
                    file.to_str().unwrap(),
                ],
                &input,
            );
            checked += 1;
            let mut bad = violations(s, &run);
            bad.extend(semantics(s, outcome, &run));
            if !bad.is_empty() {
                failures.push(format!(
                    "{} / {outcome}: {}\n  exit {:?}\n  stdout {}\n  stderr {:?}",
                    path.file_name().unwrap().to_string_lossy(),
                    bad.join("; "),
                    run.code,
                    run.stdout.trim_end(),
                    run.stderr
                ));
            }
        }
    }
    (checked, failures)
}

/// The schema itself must be able to fail: known-bad answers are rejected.
#[test]
fn the_schema_rejects_invalid_answers() {
    let run = |code: i32, stdout: &str, stderr: &str| Run {
        code: Some(code),
        stdout: stdout.into(),
        stderr: stderr.into(),
        elapsed: std::time::Duration::ZERO,
    };
    let bad = [
        ("PreToolUse", run(1, "{}\n", "")),
        ("PreToolUse", run(2, "{}\n", "")),
        ("PreToolUse", run(2, "{}\n", "R\n")),
        ("PreToolUse", run(0, "{}\n", "chatter\n")),
        ("PreToolUse", run(0, "{}\n{}\n", "")),
        ("PreToolUse", run(0, "not json\n", "")),
        (
            "PreToolUse",
            run(
                0,
                "{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\"}}\n",
                "",
            ),
        ),
        (
            "PreToolUse",
            run(
                0,
                "{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"c\"}}\n",
                "",
            ),
        ),
        (
            "PreToolUse",
            run(0, "{\"decision\":\"block\",\"reason\":\"r\"}\n", ""),
        ),
        (
            "Stop",
            run(2, "{\"decision\":\"block\",\"reason\":\"R\"}\n", "R\n"),
        ),
        (
            "Stop",
            run(
                0,
                "{\"hookSpecificOutput\":{\"hookEventName\":\"Stop\",\"updatedInput\":{}}}\n",
                "",
            ),
        ),
        ("PermissionRequest", run(2, "{}\n", "R\n")),
        (
            "PermissionRequest",
            run(
                0,
                "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\"}}}\n",
                "",
            ),
        ),
        (
            "PostToolUse",
            run(0, "{\"decision\":\"block\",\"reason\":\"R\"}\n", ""),
        ),
        (
            "Notification",
            run(
                0,
                "{\"hookSpecificOutput\":{\"hookEventName\":\"Notification\",\"additionalContext\":\"c\"}}\n",
                "",
            ),
        ),
        ("SessionStart", run(2, "{}\n", "R\n")),
        ("WorktreeCreate", run(0, "{}\n", "")),
        ("WorktreeCreate", run(0, "/a\n/b\n", "")),
        ("WorktreeCreate", run(2, "/a\n", "R\n")),
    ];
    for (event, answer) in &bad {
        assert!(
            !violations(shape(event), answer).is_empty(),
            "{event}: accepted {answer:?}"
        );
    }
    let good = [
        ("PreToolUse", run(0, "{}\n", "")),
        (
            "PreToolUse",
            run(
                2,
                "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"R\"}}\n",
                "R\n",
            ),
        ),
        ("Stop", run(2, "{}\n", "R\n")),
        ("WorktreeCreate", run(0, "/a\n", "")),
        ("WorktreeCreate", run(2, "", "R\n")),
    ];
    for (event, answer) in &good {
        assert_eq!(
            violations(shape(event), answer),
            Vec::<String>::new(),
            "{event}"
        );
    }
}

/// The recipe's trust rules (docs/claude-code.md): a `--settings` path that
/// is relative, or inside the project, is a project file and runs only once
/// trusted (or with `--trust-project`); an absolute path outside does not
/// need it.
#[test]
fn project_settings_behind_the_recipe_need_trust() {
    let sb = Sandbox::new();
    let settings = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no-push >&2; exit 2"}]}]}}"#;
    sb.write("project/.claude/settings.json", settings);
    let outside = sb.write("elsewhere/hooks.json", settings);
    let event = sb.event(
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": "git push"}}),
    );

    let untrusted = sb.run(&["fire", "--settings", ".claude/settings.json"], &event);
    assert_eq!(untrusted.code, Some(0), "{untrusted:?}");
    assert!(
        untrusted.system_message().contains("hookrun trust"),
        "{untrusted:?}"
    );
    let inside_abs = sb.path("project/.claude/settings.json");
    let untrusted = sb.run(
        &["fire", "--settings", inside_abs.to_str().unwrap()],
        &event,
    );
    assert_eq!(
        untrusted.code,
        Some(0),
        "absolute but inside: {untrusted:?}"
    );

    let once = sb.run(
        &[
            "fire",
            "--settings",
            ".claude/settings.json",
            "--trust-project",
        ],
        &event,
    );
    assert_eq!((once.code, once.stderr.as_str()), (Some(2), "no-push\n"));

    let abs = sb.run(&["fire", "--settings", outside.to_str().unwrap()], &event);
    assert_eq!((abs.code, abs.stderr.as_str()), (Some(2), "no-push\n"));

    let trust = sb.run(&["trust", ".claude/settings.json"], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    let trusted = sb.run(&["fire", "--settings", ".claude/settings.json"], &event);
    assert_eq!(
        (trusted.code, trusted.stderr.as_str()),
        (Some(2), "no-push\n")
    );
}

/// The secret-scrubbing example of docs/claude-code.md (a sandbox of its
/// own: the key is in its environment).
fn documented_secret_scrubbing(bash: &Value) {
    let mut sb2 = Sandbox::new();
    sb2.env("ANTHROPIC_API_KEY", "sk-ant-secret");
    let scrub_settings = sb2.settings(&json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "echo \"key=[${ANTHROPIC_API_KEY}]\" >&2; exit 2"}]}]}}));
    let args = [
        "fire",
        "--no-default-settings",
        "--settings",
        scrub_settings.to_str().unwrap(),
    ];
    let run = sb2.run(&args, &sb2.event("PreToolUse", bash));
    assert_eq!(run.stderr, "key=[]\n");
    assert!(
        run.system_message().contains("ANTHROPIC_API_KEY"),
        "{run:?}"
    );
}

/// The examples of docs/claude-code.md "Differences from Claude Code", run
/// as written there, so the page cannot drift from the behaviour.
#[test]
fn documented_differences_behave_as_documented() {
    let sb = Sandbox::new();
    let bash = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf build --force"}});
    let fire = |hooks: Value, event: &str, fields: &Value| {
        Fire::new(event)
            .settings(&json!({"hooks": {event: [{"matcher": "", "hooks": hooks}]}}))
            .input(fields)
            .run_in(&sb)
    };

    // Several blocking hooks: every reason, in load order.
    let run = fire(
        json!([
            {"type": "command", "command": "sleep 0.2; echo 'no rm -rf' >&2; exit 2"},
            {"type": "command", "command": "echo 'no --force' >&2; exit 2"}
        ]),
        "PreToolUse",
        &bash,
    );
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "[sleep 0.2; echo 'no rm -rf' >&2; exit 2]: no rm -rf\n[echo 'no --force' >&2; exit 2]: no --force\n"
    );

    // Exit 2 with an empty stderr: the reason falls back to stdout.
    let run = fire(
        json!([{"type": "command", "command": "echo 'use pnpm, not npm'; exit 2"}]),
        "PreToolUse",
        &bash,
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(2), "use pnpm, not npm\n")
    );

    // Deterministic aggregation: the last updatedInput in load order wins,
    // however long the first hook takes, with a warning.
    let rewrite = |delay: &str, command: &str| {
        json!({"type": "command", "command": format!(
            r#"sleep {delay}; printf '%s\n' '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","updatedInput":{{"command":"{command}"}}}}}}'"#
        )})
    };
    let run = fire(
        json!([rewrite("0", "first"), rewrite("0.3", "second")]),
        "PreToolUse",
        &bash,
    );
    let json = run.json();
    assert_eq!(
        json["hookSpecificOutput"]["updatedInput"],
        json!({"command": "second"})
    );
    let run2 = fire(
        json!([rewrite("0.3", "first"), rewrite("0", "second")]),
        "PreToolUse",
        &bash,
    );
    assert_eq!(
        run2.json()["hookSpecificOutput"]["updatedInput"],
        json!({"command": "second"})
    );
    assert!(
        run2.system_message().contains("conflicting updatedInput")
            && run2.system_message().contains("set sequential"),
        "{run2:?}"
    );

    // PermissionRequest: exit 2 is a deny, answered as JSON with exit 0.
    let run = fire(
        json!([{"type": "command", "command": "echo 'not on Fridays' >&2; exit 2"}]),
        "PermissionRequest",
        &bash,
    );
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.json(),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "not on Fridays"}}})
    );

    // Secret scrubbing: the hook does not see the key; the first fire of the
    // session says so.
    documented_secret_scrubbing(&bash);

    // Leaked output: drained for 100 ms, not waited for.
    let run = fire(
        json!([{"type": "command", "command": "(sleep 1; echo late) & echo '{}'"}]),
        "PreToolUse",
        &bash,
    );
    assert!(
        run.elapsed < std::time::Duration::from_millis(800),
        "{run:?}"
    );
    assert!(
        run.system_message()
            .contains("left processes holding its output"),
        "{run:?}"
    );
}

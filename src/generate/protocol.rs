//! The generated tables of `docs/protocol.md`: the event catalog, the answer
//! hookrun prints on each event, the fields each event honours, and how one
//! hook's exit code and output are read.
//!
//! Every cell comes from the tables and pure functions the runtime uses
//! (`catalog`, `verdict`, `aggregate`, `host::claude`): the answers are
//! produced by feeding a hook's output through the real verdict → aggregate
//! → encode path, so the reference cannot describe a protocol hookrun does not speak.

use std::fmt::Write as _;
use std::time::Duration;

use serde_json::json;

use crate::aggregate::{self, Entry};
use crate::catalog::{CATALOG, Encoding, EventId, EventSpec, KnownEvent, MatchField, Tier};
use crate::host::{Rendered, claude};
use crate::verdict::{self, Ending, HookOutput, Outcome};

/// `(section name, markdown)` for every generated section of the document.
pub fn sections() -> Vec<(&'static str, String)> {
    vec![
        ("events", events_table()),
        ("answers", answers_table()),
        ("fields", fields_table()),
        ("hook-exits", hook_exits_table()),
    ]
}

/// What a standing block means on the events where the SPEC says more than
/// the tier does. Every other event gets its tier's words.
const BLOCK_EFFECTS: &[(&str, &str)] = &[
    ("PreToolUse", "the tool call does not run"),
    ("PermissionRequest", "the permission is denied"),
    (
        "PostToolUse",
        "the reason goes to the model (the tool already ran)",
    ),
    ("PostToolBatch", "the agent loop stops"),
    ("UserPromptSubmit", "the prompt is erased"),
    ("Stop", "the agent must go on; the reason goes to the model"),
    ("PreCompact", "compaction is skipped"),
    ("Elicitation", "the elicitation is declined"),
    ("ElicitationResult", "the elicitation is declined"),
    ("WorktreeCreate", "no worktree is created"),
    ("PreModelSwitch", "the model switch does not happen"),
    (
        "PreSkillShellCommand",
        "the skill's shell command does not run",
    ),
    ("BeforeModel", "the model request is not sent"),
    ("AfterModel", "the model's response is dropped"),
];

fn tier_effect(tier: Tier) -> &'static str {
    match tier {
        Tier::Block => "the action does not happen",
        Tier::Feedback => "the reason goes to the model, which goes on",
        Tier::Downgraded => "not enforced: a warning `[hook block ignored] …`",
        Tier::Ignored => "nothing: the result is only reported and logged",
    }
}

/// What a block from a hook means on this event.
pub fn block_effect(spec: &EventSpec) -> &'static str {
    BLOCK_EFFECTS
        .iter()
        .find(|(name, _)| *name == spec.name)
        .map_or_else(|| tier_effect(spec.tier), |(_, effect)| effect)
}

/// What `matcher` is compared with, in words.
pub fn match_field(spec: &EventSpec) -> String {
    match spec.match_field {
        MatchField::None => "—".to_owned(),
        MatchField::Key(key) => format!("`{key}`"),
        MatchField::Basename(key) => format!("basename of `{key}`"),
        MatchField::Model(key) => format!("`{key}` (less a `[1m]` suffix)"),
    }
}

/// One line about an event, for the settings schema's `hooks` keys.
pub fn event_summary(spec: &EventSpec) -> String {
    let id = EventId::Known(spec.event);
    let matcher = match spec.match_field {
        MatchField::None => "no match field (a `matcher` is ignored)".to_owned(),
        MatchField::Key(key) => format!("`matcher` compares `{key}`"),
        MatchField::Basename(key) => format!("`matcher` compares the basename of `{key}`"),
        MatchField::Model(key) => {
            format!("`matcher` compares `{key}`, less a `[1m]`/`[2m]` suffix on either side")
        }
    };
    let rules = if id.has_tool() {
        "; `if` rules apply"
    } else {
        "; `if` never applies (a hook with `if` does not run)"
    };
    format!(
        "{} hooks: {matcher}{rules}. A block ({} tier): {}. Hook timeout {} by default; the host waits {}.",
        spec.name,
        spec.tier.as_str(),
        block_effect(spec),
        seconds(spec.default_hook_timeout),
        seconds(spec.host_timeout),
    )
}

fn seconds(duration: Duration) -> String {
    let value = duration.as_secs_f64();
    if value.fract() == 0.0 {
        format!("{value:.0} s")
    } else {
        format!("{value} s")
    }
}

fn events_table() -> String {
    let mut out = String::from(
        "| event | `matcher` compares | `if` | tier | a block from a hook | plain stdout on exit 0 | warnings (`systemMessage`) | host timeout | default hook timeout |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for spec in CATALOG {
        let id = EventId::Known(spec.event);
        let plain = if spec.encoding == Encoding::WorktreeCreate {
            "the worktree path (last line)"
        } else if spec.plain_stdout_is_context {
            "additional context"
        } else {
            "report and log only"
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            spec.name,
            match_field(spec),
            if id.has_tool() { "yes" } else { "—" },
            spec.tier.as_str(),
            block_effect(spec),
            plain,
            if spec.discards_system_message {
                "report and log only (the host discards them)"
            } else {
                "shown"
            },
            seconds(spec.host_timeout),
            seconds(spec.default_hook_timeout),
        );
    }
    out
}

/// What hookrun prints for one hook's output on an event, through the real
/// verdict → aggregate → encode path.
fn answer(event: &EventId, ending: &Ending, stdout: &str, stderr: &str) -> Rendered {
    let out = HookOutput {
        name: "check",
        ending,
        stdout: stdout.as_bytes(),
        stdout_truncated: false,
        stderr: stderr.as_bytes(),
        fail_closed: false,
        tool_input: None,
    };
    let verdict = verdict::read(event, &out);
    let entries = [Entry {
        name: "check",
        verdict: &verdict,
    }];
    let decision = aggregate::aggregate(event, &entries, None);
    claude::render(event, &decision)
}

/// `exit 2 · stdout … · stderr …`, with the event's own name generalised so
/// that events answering alike share a row.
fn describe(rendered: &Rendered, event: &str) -> String {
    let own_name = format!("\"hookEventName\":\"{event}\"");
    let stdout = rendered
        .stdout
        .trim_end()
        .replace(&own_name, "\"hookEventName\":\"<event>\"");
    let stdout = if stdout.is_empty() {
        "nothing".to_owned()
    } else {
        code(&stdout)
    };
    let mut cell = format!("exit {} · stdout {stdout}", rendered.exit.code());
    if !rendered.stderr.is_empty() {
        let _ = write!(cell, " · stderr {}", code(rendered.stderr.trim_end()));
    }
    cell
}

fn answers_table() -> String {
    let mut rows: Vec<(Vec<&str>, String, String)> = Vec::new();
    for spec in CATALOG {
        let id = EventId::Known(spec.event);
        let blocked = answer(&id, &Ending::Exited(2), "", "REASON");
        let context_json = json!({
            "hookSpecificOutput": { "hookEventName": spec.name, "additionalContext": "CONTEXT" }
        })
        .to_string();
        let with_context = answer(&id, &Ending::Exited(0), &context_json, "");
        let block_cell = describe(&blocked, spec.name);
        let context_cell = if with_context.stdout.contains("CONTEXT") {
            describe(&with_context, spec.name)
        } else {
            "not accepted: dropped with a warning".to_owned()
        };
        match rows
            .iter_mut()
            .find(|(_, b, c)| *b == block_cell && *c == context_cell)
        {
            Some((events, _, _)) => events.push(spec.name),
            None => rows.push((vec![spec.name], block_cell, context_cell)),
        }
    }
    let mut out = String::from(
        "| events | a hook exits 2 with `REASON` on stderr | a hook exits 0 with `additionalContext` `CONTEXT` |\n\
         |---|---|---|\n",
    );
    for (events, block, context) in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            events.join(", "),
            cell(&block),
            cell(&context)
        );
    }
    out
}

fn fields_table() -> String {
    // Events that honour the same fields share a row.
    let mut groups: Vec<(&[&str], Vec<&str>)> = Vec::new();
    for spec in CATALOG {
        let fields = verdict::accepted_fields(spec.encoding);
        match groups.iter_mut().find(|(known, _)| *known == fields) {
            Some((_, names)) => names.push(spec.name),
            None => groups.push((fields, vec![spec.name])),
        }
    }
    let mut out = String::from(
        "| events | `hookSpecificOutput` fields honoured (besides `hookEventName`) |\n|---|---|\n",
    );
    for (fields, names) in groups {
        let listed = if fields.is_empty() {
            "none (universal fields only)".to_owned()
        } else {
            fields
                .iter()
                .map(|field| format!("`{field}` ({})", verdict::expected_type(field)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "| {} | {} |", names.join(", "), cell(&listed));
    }
    out.push_str(
        "| any event not in the catalog | every field, passed through verbatim (merged across hooks) |\n",
    );
    out
}

/// One row of the hook exit table: what the hook does, and how it ends.
struct Scenario {
    does: &'static str,
    ending: Ending,
    stdout: &'static str,
    stderr: &'static str,
    on_error_block: bool,
}

fn scenarios() -> Vec<Scenario> {
    let s = |does, ending, stdout, stderr| Scenario {
        does,
        ending,
        stdout,
        stderr,
        on_error_block: false,
    };
    vec![
        s("exits 0, prints nothing", Ending::Exited(0), "", ""),
        s(
            "exits 0, prints `{\"decision\":\"block\",\"reason\":\"R\"}`",
            Ending::Exited(0),
            r#"{"decision":"block","reason":"R"}"#,
            "",
        ),
        s(
            "exits 0, prints `{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"R\"}}`",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R"}}"#,
            "",
        ),
        s(
            "exits 0, prints the same without `hookEventName`",
            Ending::Exited(0),
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"R"}}"#,
            "",
        ),
        s("exits 2, `R` on stderr", Ending::Exited(2), "", "R"),
        s(
            "exits 2, `R` on stdout, stderr empty",
            Ending::Exited(2),
            "R",
            "",
        ),
        s("exits 2, prints nothing", Ending::Exited(2), "", ""),
        s(
            "exits 2, `R` on stderr, prints `{\"decision\":\"approve\"}`",
            Ending::Exited(2),
            r#"{"decision":"approve"}"#,
            "R",
        ),
        s(
            "exits 2, stderr `python3: can't open file '/x/guard.py'`",
            Ending::Exited(2),
            "",
            "python3: can't open file '/x/guard.py'",
        ),
        s("exits 1, `oops` on stderr", Ending::Exited(1), "", "oops"),
        Scenario {
            does: "exits 1, `oops` on stderr, with `\"onError\": \"block\"`",
            ending: Ending::Exited(1),
            stdout: "",
            stderr: "oops",
            on_error_block: true,
        },
        s(
            "exits 1, prints `{\"decision\":\"block\",\"reason\":\"R\"}`",
            Ending::Exited(1),
            r#"{"decision":"block","reason":"R"}"#,
            "",
        ),
        s(
            "exits 127 (command not found)",
            Ending::Exited(127),
            "",
            "sh: 1: lint: not found",
        ),
        s("is killed by a signal", Ending::Signaled(9), "", ""),
        s(
            "runs past its timeout (10 s)",
            Ending::TimedOut { seconds: 10.0 },
            "",
            "",
        ),
    ]
}

fn hook_exits_table() -> String {
    let event = EventId::Known(KnownEvent::PreToolUse);
    let mut out = String::from(
        "| the hook (named `check`, on PreToolUse) | outcome | block reason | warning |\n|---|---|---|---|\n",
    );
    for scenario in scenarios() {
        let verdict = verdict::read(
            &event,
            &HookOutput {
                name: "check",
                ending: &scenario.ending,
                stdout: scenario.stdout.as_bytes(),
                stdout_truncated: false,
                stderr: scenario.stderr.as_bytes(),
                fail_closed: scenario.on_error_block,
                tool_input: None,
            },
        );
        let outcome = match verdict.outcome() {
            Outcome::Success => "success",
            Outcome::Block => "**block**",
            Outcome::Failure => "failure",
        };
        let reason = verdict.block_reason.as_deref().map_or("—".to_owned(), code);
        let warning = if verdict.notices.warnings.is_empty() {
            "—".to_owned()
        } else {
            verdict
                .notices
                .warnings
                .iter()
                .map(|w| code(w))
                .collect::<Vec<_>>()
                .join("<br>")
        };
        let _ = writeln!(
            out,
            "| {} | {outcome} | {} | {} |",
            cell(scenario.does),
            cell(&reason),
            cell(&warning)
        );
    }
    out
}

/// Inline code, with a longer fence when the text holds a backtick.
fn code(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// A table cell: `|` escaped, newlines as `<br>`.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', "<br>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::lookup;

    #[test]
    fn block_effects_name_blocking_catalog_events() {
        for (name, _) in BLOCK_EFFECTS {
            let spec = lookup(name).unwrap_or_else(|| panic!("{name} is not in the catalog"));
            assert_eq!(spec.name, *name);
            assert!(
                spec.tier.enforces_blocks(),
                "{name}: a block is not enforced there"
            );
        }
    }

    #[test]
    fn every_event_has_a_row_and_answers_are_real() {
        let events = events_table();
        let answers = answers_table();
        for spec in CATALOG {
            assert!(
                events.contains(&format!("| {} |", spec.name)),
                "{}",
                spec.name
            );
            assert!(answers.contains(spec.name), "{}", spec.name);
        }
        assert!(answers.contains(
            "exit 2 · stdout `{\"hookSpecificOutput\":{\"hookEventName\":\"<event>\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"REASON\"}}` · stderr `REASON`"
        ), "{answers}");
        assert!(answers.contains("[hook block ignored] REASON"), "{answers}");
    }

    #[test]
    fn hook_exits_cover_block_and_failure() {
        let table = hook_exits_table();
        assert!(
            table.contains("hook check failed (exit 1: oops)"),
            "{table}"
        );
        assert!(table.contains("`hook exited 2`"), "{table}");
    }
}

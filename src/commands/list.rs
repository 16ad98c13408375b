//! `hookrun list`: every hook the settings declare, with its source and
//! state.
//!
//! The state comes from the same stages `fire` uses: `select::select` for
//! the layers that do not depend on the input (trust, policy) — run once per
//! event on an empty input — and `plan::program_for` for whether hookrun can
//! run the hook at all.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::common::{self, Printed};
use crate::catalog::EventId;
use crate::cli::{ListArgs, OutputFormat};
use crate::event::Event;
use crate::exit::Exit;
use crate::hookstate::HookState;
use crate::plan::{self, ExecVars};
use crate::select::{self, Layer, SelectContext, Stage};
use crate::settings::{Settings, Severity};

/// One row.
struct Row {
    hook: usize,
    event: String,
    matcher: String,
    if_rule: String,
    hook_type: String,
    timeout: String,
    timeout_s: f64,
    timeout_default: bool,
    /// `enabled`, `disabled`, `untrusted` or `not run`.
    state: HookState,
    /// Why, for states other than `enabled`.
    why: String,
    name: String,
}

pub fn run(args: &ListArgs) -> Printed {
    let env = common::environment(&args.settings);
    let project_dir = common::project_dir(&env, Some(&env.current_dir));
    let settings = common::inspect_settings(&args.settings, &env, &project_dir);
    let only = args.event.as_deref().map(EventId::resolve);
    let rows = rows(&settings, only.as_ref(), &project_dir, env.home.as_deref());
    let stdout = match args.format {
        OutputFormat::Text => text(&settings, &rows, only.as_ref()),
        OutputFormat::Json => {
            let mut out = serde_json::to_string_pretty(&to_json(&settings, &rows, &project_dir))
                .expect("JSON values serialise");
            out.push('\n');
            out
        }
    };
    Printed::stdout(stdout, Exit::Success)
}

fn rows(
    settings: &Settings,
    only: Option<&EventId>,
    project_dir: &Path,
    home: Option<&Path>,
) -> Vec<Row> {
    let policy = settings.policy();
    let process_env: Vec<_> = std::env::vars_os().collect();
    let vars = ExecVars::new(&process_env, project_dir);
    // The input-independent layers, per event: select on an empty input.
    let mut stopped: HashMap<usize, (Layer, String)> = HashMap::new();
    let mut done: Vec<&EventId> = Vec::new();
    for hook in &settings.hooks {
        if done.contains(&&hook.event) {
            continue;
        }
        done.push(&hook.event);
        let Ok(event) = Event::from_object(Map::new(), Some(hook.event.name())) else {
            continue;
        };
        let cx = SelectContext {
            event: &event,
            project_dir,
            home,
        };
        for c in select::select(settings, &cx) {
            if let Stage::Stopped(layer @ (Layer::Trust | Layer::Policy)) = c.stage {
                stopped.insert(c.hook, (layer, c.why(settings, &event)));
            }
        }
    }
    settings
        .hooks
        .iter()
        .enumerate()
        .filter(|(_, hook)| only.is_none_or(|e| *e == hook.event))
        .map(|(index, hook)| {
            let file = settings.file_of(hook);
            let (state, why) = match stopped.get(&index) {
                Some((Layer::Trust, why)) => (HookState::Untrusted, why.clone()),
                Some((_, why)) => (HookState::Disabled, why.clone()),
                None => match plan::program_for(hook, &file.dir, &vars) {
                    Ok(_) => (HookState::Enabled, String::new()),
                    Err(why) => (HookState::NotRun, why.to_string()),
                },
            };
            // The hook's own timeout as `fire` plans it (the managed cap
            // included); the deadline depends on the fire.
            let timeout =
                plan::hook_timeout(hook, &hook.event, &policy, Duration::MAX, Duration::ZERO).own;
            Row {
                hook: index,
                event: hook.event.name().to_owned(),
                matcher: hook.matcher.clone().unwrap_or_default(),
                if_rule: hook.if_rule.clone().unwrap_or_default(),
                hook_type: hook.kind_name().to_owned(),
                timeout: if hook.timeout.is_some() {
                    format!("{}s", timeout.as_secs_f64())
                } else {
                    format!("{}s (default)", timeout.as_secs_f64())
                },
                timeout_s: timeout.as_secs_f64(),
                timeout_default: hook.timeout.is_none(),
                state,
                why,
                name: hook.display_name(),
            }
        })
        .collect()
}

/// Longest cell shown in the text table; a longer matcher, `if`, name or
/// event key is shortened with its length (`--format json` has it whole).
const MAX_CELL: usize = 60;

/// The last column (STATE) is unpadded, but a reason quoting a huge value
/// is still shortened.
const MAX_STATE: usize = 240;

/// A cell: `-` when empty, shortened past [`MAX_CELL`] characters.
fn cell(text: &str) -> String {
    shorten(text, MAX_CELL)
}

fn shorten(text: &str, max: usize) -> String {
    if text.is_empty() {
        return "-".to_owned();
    }
    let count = text.chars().count();
    if count <= max {
        return text.replace(['\n', '\r', '\t'], " ");
    }
    let head: String = text.chars().take(max - 20).collect();
    format!("{}… ({count} chars)", head.replace(['\n', '\r', '\t'], " "))
}

/// Pads to `width` characters (no `{:<width$}`: a width over 65,535 panics).
fn pad(text: &str, width: usize) -> String {
    let mut out = text.to_owned();
    out.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(text.chars().count()),
    ));
    out
}

fn text(settings: &Settings, rows: &[Row], only: Option<&EventId>) -> String {
    const HEADER: [&str; 7] = ["EVENT", "MATCHER", "IF", "TYPE", "TIMEOUT", "NAME", "STATE"];
    let mut out = String::new();
    let rules = rule_rows(settings, only);
    if rows.is_empty() {
        match only {
            Some(event) => {
                let _ = writeln!(out, "no hooks for {}", event.name());
            }
            None if rules.is_empty() => out.push_str("no hooks\n"),
            None => out.push_str("no hooks; permission rules below\n"),
        }
    }
    // One table per file, each as wide as its own cells; STATE is last and
    // unpadded, so a long reason (an untrusted file) widens nothing.
    let mut start = 0;
    while start < rows.len() {
        let file = settings.hooks[rows[start].hook].file;
        let end = rows[start..]
            .iter()
            .position(|r| settings.hooks[r.hook].file != file)
            .map_or(rows.len(), |n| start + n);
        let table: Vec<[String; 7]> = rows[start..end]
            .iter()
            .map(|r| {
                let state = if r.why.is_empty() {
                    r.state.as_str().to_owned()
                } else {
                    shorten(&format!("{}: {}", r.state, r.why), MAX_STATE)
                };
                [
                    cell(&r.event),
                    cell(&r.matcher),
                    cell(&r.if_rule),
                    cell(&r.hook_type),
                    r.timeout.clone(),
                    cell(&r.name),
                    state,
                ]
            })
            .collect();
        let mut widths = HEADER.map(str::len);
        for row in &table {
            for (w, c) in widths.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut l = String::from("  ");
            for (i, c) in cells.iter().enumerate() {
                if i + 1 == cells.len() {
                    l.push_str(c);
                } else {
                    l.push_str(&pad(c, widths[i]));
                    l.push_str("  ");
                }
            }
            l.trim_end().to_owned()
        };
        let f = &settings.files[file];
        let _ = writeln!(
            out,
            "{}{} ({})",
            if out.is_empty() { "" } else { "\n" },
            f.path().display(),
            f.kind().as_str()
        );
        let _ = writeln!(out, "{}", line(&HEADER.map(str::to_owned)));
        for cells in &table {
            let _ = writeln!(out, "{}", line(cells));
        }
        start = end;
    }
    rules_text(settings, &rules, &mut out);
    let count = |severity: Severity| {
        settings
            .problems
            .iter()
            .filter(|p| p.severity == severity)
            .count()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    if errors + warnings > 0 {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let skipped = if errors > 0 {
            " (an entry with an error is skipped and not listed)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "\nloading the settings found {} and {}{skipped}: `hookrun doctor` explains each",
            plural(errors, "error"),
            plural(warnings, "warning"),
        );
    }
    out
}

/// One permission rule as `list` shows it.
struct RuleRow {
    file: usize,
    /// `deny`, `ask` or `allow`.
    list: &'static str,
    rule: String,
    json_path: String,
    /// `in force`, or why not.
    state: String,
}

/// Every permission rule, by file, with whether hookrun applies it. The
/// rules judge tool calls: listed for every event but those without one.
fn rule_rows(settings: &Settings, only: Option<&EventId>) -> Vec<RuleRow> {
    if only.is_some_and(|event| !event.permission_rules_apply()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, file) in settings.files.iter().enumerate() {
        let lists = [
            ("deny", &file.permissions.deny),
            ("ask", &file.permissions.ask),
            ("allow", &file.permissions.allow),
        ];
        for (list, entries) in lists {
            for entry in entries {
                let state = if !file.trust.is_trusted() {
                    format!(
                        "not applied: {} (`hookrun trust` applies it)",
                        file.trust.as_str()
                    )
                } else if file.source.claude_mode && list == "allow" {
                    "Claude Code's: hookrun never applies a Claude Code file's allow rules"
                        .to_owned()
                } else if file.source.claude_mode {
                    "in force behind hosts other than Claude Code (Claude Code applies it itself)"
                        .to_owned()
                } else if let Err(err) = crate::select::rule::Rule::parse(&entry.text) {
                    format!("not applied: {err}")
                } else {
                    "in force".to_owned()
                };
                out.push(RuleRow {
                    file: index,
                    list,
                    rule: entry.text.clone(),
                    json_path: entry.json_path.clone(),
                    state,
                });
            }
        }
    }
    out
}

fn rules_text(settings: &Settings, rules: &[RuleRow], out: &mut String) {
    if rules.is_empty() {
        return;
    }
    out.push_str(
        "\npermission rules (on PreToolUse and PermissionRequest, after the hooks: a matching deny wins, then ask, then allow; a hook's allow never overrides a deny or ask rule)\n",
    );
    let width = rules
        .iter()
        .map(|r| cell(&r.rule).chars().count())
        .max()
        .unwrap_or(0)
        .max("RULE".len());
    let mut file = usize::MAX;
    for r in rules {
        if r.file != file {
            file = r.file;
            let f = &settings.files[file];
            let _ = writeln!(out, "{} ({})", f.path().display(), f.kind().as_str());
            let _ = writeln!(out, "  LIST   {}  STATE", pad("RULE", width));
        }
        let _ = writeln!(
            out,
            "  {:<5}  {}  {}",
            r.list,
            pad(&cell(&r.rule), width),
            shorten(&r.state, MAX_STATE)
        );
    }
}

fn to_json(settings: &Settings, rows: &[Row], project_dir: &Path) -> Value {
    let hooks: Vec<Value> = rows
        .iter()
        .map(|r| {
            let hook = &settings.hooks[r.hook];
            let file = settings.file_of(hook);
            json!({
                "name": r.name,
                "source": file.path().display().to_string(),
                "source_kind": file.kind().as_str(),
                "json_path": hook.json_path,
                "event": r.event,
                "matcher": hook.matcher,
                "if": hook.if_rule,
                "type": r.hook_type,
                "timeout_s": r.timeout_s,
                "timeout_default": r.timeout_default,
                "state": r.state,
                "why": (!r.why.is_empty()).then_some(&r.why),
            })
        })
        .collect();
    let rules: Vec<Value> = rule_rows(settings, None)
        .iter()
        .map(|r| {
            let file = &settings.files[r.file];
            json!({
                "source": file.path().display().to_string(),
                "source_kind": file.kind().as_str(),
                "json_path": r.json_path,
                "list": r.list,
                "rule": r.rule,
                "state": r.state,
            })
        })
        .collect();
    json!({
        "project_dir": project_dir.display().to_string(),
        "hooks": hooks,
        "permission_rules": rules,
        "problems": settings.problems.iter().filter(|p| p.severity >= Severity::Warning).count(),
    })
}

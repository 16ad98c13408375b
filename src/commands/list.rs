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
    state: &'static str,
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
                stopped.insert(c.hook, (layer, c.detail));
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
                Some((Layer::Trust, why)) => ("untrusted", why.clone()),
                Some((_, why)) => ("disabled", why.clone()),
                None => match plan::program_for(hook, &file.dir, &vars) {
                    Ok(_) => ("enabled", String::new()),
                    Err(why) => ("not run", why.to_string()),
                },
            };
            // The hook's own timeout as `fire` plans it (the managed cap
            // included); the deadline depends on the fire.
            let timeout = plan::hook_timeout(hook, &hook.event, &policy, Duration::MAX).own;
            Row {
                hook: index,
                event: hook.event.name().to_owned(),
                matcher: hook.matcher.clone().unwrap_or_default(),
                if_rule: hook.if_rule.clone().unwrap_or_default(),
                hook_type: hook.hook_type.as_str().to_owned(),
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

fn text(settings: &Settings, rows: &[Row], only: Option<&EventId>) -> String {
    let mut out = String::new();
    if rows.is_empty() {
        match only {
            Some(event) => {
                let _ = writeln!(out, "no hooks for {}", event.name());
            }
            None => out.push_str("no hooks\n"),
        }
    } else {
        let cell = |s: &str| {
            if s.is_empty() {
                "-".to_owned()
            } else {
                s.to_owned()
            }
        };
        let header = ["EVENT", "MATCHER", "IF", "TYPE", "TIMEOUT", "STATE", "NAME"];
        let table: Vec<[String; 7]> = rows
            .iter()
            .map(|r| {
                let state = if r.why.is_empty() {
                    r.state.to_owned()
                } else {
                    format!("{}: {}", r.state, r.why)
                };
                [
                    r.event.clone(),
                    cell(&r.matcher),
                    cell(&r.if_rule),
                    r.hook_type.clone(),
                    r.timeout.clone(),
                    state,
                    r.name.clone(),
                ]
            })
            .collect();
        // STATE and NAME are last and unpadded: their text varies most.
        let mut widths = header.map(str::len);
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
                    let _ = write!(l, "{c:<width$}  ", width = widths[i]);
                }
            }
            l.trim_end().to_owned()
        };
        let mut current = None;
        for (row, cells) in rows.iter().zip(&table) {
            let file = settings.hooks[row.hook].file;
            if current != Some(file) {
                current = Some(file);
                let f = &settings.files[file];
                let _ = writeln!(
                    out,
                    "{}{} ({})",
                    if out.is_empty() { "" } else { "\n" },
                    f.path().display(),
                    f.kind().as_str()
                );
                let _ = writeln!(out, "{}", line(&header.map(str::to_owned)));
            }
            let _ = writeln!(out, "{}", line(cells));
        }
    }
    let problems = settings
        .problems
        .iter()
        .filter(|p| p.severity >= Severity::Warning)
        .count();
    if problems > 0 {
        let _ = writeln!(
            out,
            "\n{problems} settings problem{} (entries with errors are not listed): run `hookrun doctor`",
            if problems == 1 { "" } else { "s" }
        );
    }
    out
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
    json!({
        "project_dir": project_dir.display().to_string(),
        "hooks": hooks,
        "problems": settings.problems.iter().filter(|p| p.severity >= Severity::Warning).count(),
    })
}

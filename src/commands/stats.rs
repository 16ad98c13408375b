//! `hookrun stats`: what the audit log says about the hooks.
//!
//! Streams the log line by line (a 100 MB log never sits in memory); keeps
//! per-event and per-hook counters, the durations for percentiles, and the
//! PreToolUse calls still waiting for their PostToolUse.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;

use anyhow::Context as _;
use serde::Serialize;

use crate::auditlog::Line;
use crate::catalog::{EventId, ToolCall};
use crate::cli::{OutputFormat, StatsArgs};
use crate::commands::Printed;
use crate::exit::Exit;
use crate::hookstate::HookState;
use crate::settings::{self, Environment, discover};

/// Counters of one event or one hook.
#[derive(Debug, Default, Serialize)]
pub struct Counts {
    /// Fires (events) or runs (hooks).
    pub count: u64,
    pub blocks: u64,
    pub failures: u64,
    pub timeouts: u64,
    pub leaks: u64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
    #[serde(skip)]
    durations: Vec<f64>,
}

impl Counts {
    fn finish(&mut self) {
        self.durations.sort_by(f64::total_cmp);
        self.p50_ms = percentile(&self.durations, 50);
        self.p95_ms = percentile(&self.durations, 95);
        self.max_ms = self.durations.last().copied().unwrap_or(0.0);
    }
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: usize) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p * sorted.len()).div_ceil(100).max(1);
    sorted[rank.min(sorted.len()) - 1]
}

/// A PreToolUse that never got a PostToolUse / PostToolUseFailure.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Unpaired {
    pub tool_use_id: String,
    pub tool_name: Option<String>,
    pub session_id: Option<String>,
    pub time: String,
    /// hookrun itself denied it: the tool never ran, so no Post is expected
    /// from hosts that skip Post* after a block.
    pub denied: bool,
}

/// A configured hook that never appears in the log.
#[derive(Debug, Serialize)]
pub struct NeverRan {
    pub name: String,
    pub event: String,
    pub source: String,
}

/// The whole summary.
#[derive(Debug, Serialize)]
pub struct Stats {
    pub log: String,
    pub fires: u64,
    pub unreadable_lines: u64,
    pub events: BTreeMap<String, Counts>,
    /// Keyed by `name (source)`.
    pub hooks: BTreeMap<String, Counts>,
    pub unpaired_pre_tool_use: Vec<Unpaired>,
    pub post_tool_use_seen: bool,
    pub never_ran: Vec<NeverRan>,
}

/// Reads a log. `configured` lists (name, event, source) of current hooks.
pub fn summarize(
    path: &std::path::Path,
    configured: &[(String, String, String)],
) -> std::io::Result<Stats> {
    let file = std::fs::File::open(path)?;
    let reader = BufReader::with_capacity(1 << 20, file);
    let mut stats = Stats {
        log: path.display().to_string(),
        fires: 0,
        unreadable_lines: 0,
        events: BTreeMap::new(),
        hooks: BTreeMap::new(),
        unpaired_pre_tool_use: Vec::new(),
        post_tool_use_seen: false,
        never_ran: Vec::new(),
    };
    let mut pending: HashMap<String, Unpaired> = HashMap::new();
    let mut seen_hooks: BTreeSet<(String, String)> = BTreeSet::new();
    for line in reader.split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(entry) = serde_json::from_slice::<Line>(&line) else {
            stats.unreadable_lines += 1;
            continue;
        };
        stats.fires += 1;
        let event = stats.events.entry(entry.event.clone()).or_default();
        event.count += 1;
        event.blocks += u64::from(entry.decision == "deny");
        event.failures += u64::from(entry.hooks.iter().any(|h| h.outcome == "failure"));
        event.timeouts += u64::from(entry.hooks.iter().any(|h| h.timed_out));
        event.leaks += u64::from(entry.hooks.iter().any(|h| h.leaked));
        event.durations.push(entry.duration_ms);
        for hook in &entry.hooks {
            seen_hooks.insert((hook.name.clone(), hook.source.clone()));
            let counts = stats
                .hooks
                .entry(format!("{} ({})", hook.name, hook.source))
                .or_default();
            counts.count += 1;
            counts.blocks += u64::from(hook.outcome == "block");
            counts.failures += u64::from(hook.outcome == "failure");
            counts.timeouts += u64::from(hook.timed_out);
            counts.leaks += u64::from(hook.leaked);
            if !HookState::from_word(&hook.outcome).is_some_and(HookState::never_started) {
                counts.durations.push(hook.duration_ms);
            }
        }
        match (
            EventId::resolve(&entry.event).tool_call(),
            entry.tool_use_id,
        ) {
            (ToolCall::Before, Some(id)) => {
                pending.insert(
                    id.clone(),
                    Unpaired {
                        tool_use_id: id,
                        tool_name: entry.tool_name,
                        session_id: entry.session_id,
                        time: entry.time,
                        denied: entry.decision == "deny",
                    },
                );
            }
            (ToolCall::After, id) => {
                stats.post_tool_use_seen = true;
                if let Some(id) = id {
                    pending.remove(&id);
                }
            }
            _ => {}
        }
    }
    for counts in stats.events.values_mut().chain(stats.hooks.values_mut()) {
        counts.finish();
    }
    let mut unpaired: Vec<Unpaired> = pending.into_values().collect();
    unpaired.sort_by(|a, b| {
        a.time
            .cmp(&b.time)
            .then_with(|| a.tool_use_id.cmp(&b.tool_use_id))
    });
    stats.unpaired_pre_tool_use = unpaired;
    stats.never_ran = configured
        .iter()
        .filter(|(name, _, source)| !seen_hooks.contains(&(name.clone(), source.clone())))
        .map(|(name, event, source)| NeverRan {
            name: name.clone(),
            event: event.clone(),
            source: source.clone(),
        })
        .collect();
    Ok(stats)
}

pub fn run(args: &StatsArgs) -> anyhow::Result<Printed> {
    let mut env = Environment::from_process();
    if let Some(dir) = &args.settings.project_dir {
        env.hookrun_project_dir = Some(dir.clone());
    }
    let project = discover::project_dir(&env, Some(&env.current_dir));
    let loaded = settings::load(&args.settings.source_options(), &env, &project);
    let path: PathBuf =
        args.log.clone().or_else(|| loaded.log_path()).context(
            "no audit log: pass --log PATH, set HOOKRUN_LOG, or set `log` in your settings",
        )?;
    let configured: Vec<(String, String, String)> = loaded
        .hooks
        .iter()
        .map(|h| {
            (
                h.display_name(),
                h.event.name().to_owned(),
                loaded.file_of(h).path().display().to_string(),
            )
        })
        .collect();
    let stats = match summarize(&path, &configured) {
        Ok(stats) => stats,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            // Before the first fire that logs, the log is simply not there.
            return Ok(Printed::stdout(
                format!(
                    "no fires logged yet: {} does not exist (hookrun creates it on the first fire that logs)\n",
                    path.display()
                ),
                Exit::Success,
            ));
        }
        Err(err) => {
            return Err(err)
                .with_context(|| format!("cannot read the audit log {}", path.display()));
        }
    };
    let stdout = match args.format {
        OutputFormat::Json => {
            let mut text = serde_json::to_string_pretty(&stats).expect("stats serialise");
            text.push('\n');
            text
        }
        OutputFormat::Text => render_text(&stats),
    };
    Ok(Printed::stdout(stdout, Exit::Success))
}

/// Pads by hand: the label column is as wide as its longest label, so a
/// long `name (source)` does not push its row's numbers out of line.
fn pad(text: &str, width: usize) -> String {
    let mut out = text.to_owned();
    out.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(text.chars().count()),
    ));
    out
}

fn row(out: &mut String, width: usize, label: &str, c: &Counts) {
    let _ = writeln!(
        out,
        "  {} {:>7} {:>6} {:>8} {:>8} {:>5} {:>9.1} {:>9.1} {:>9.1}",
        pad(label, width),
        c.count,
        c.blocks,
        c.failures,
        c.timeouts,
        c.leaks,
        c.p50_ms,
        c.p95_ms,
        c.max_ms
    );
}

fn header(out: &mut String, width: usize, first: &str) {
    let _ = writeln!(
        out,
        "  {} {:>7} {:>6} {:>8} {:>8} {:>5} {:>9} {:>9} {:>9}",
        pad(first, width),
        "count",
        "blocks",
        "failures",
        "timeouts",
        "leaks",
        "p50 ms",
        "p95 ms",
        "max ms"
    );
}

/// One table: a header and a row per label, the labels' column as wide as
/// the longest of them.
fn table(out: &mut String, first: &str, rows: &BTreeMap<String, Counts>) {
    let width = rows
        .keys()
        .map(|k| k.chars().count())
        .chain([first.len()])
        .max()
        .unwrap_or(0);
    header(out, width, first);
    for (name, counts) in rows {
        row(out, width, name, counts);
    }
}

fn render_text(stats: &Stats) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} fire{}",
        stats.log,
        stats.fires,
        if stats.fires == 1 { "" } else { "s" }
    );
    if stats.unreadable_lines > 0 {
        let _ = writeln!(
            out,
            "  ({} lines could not be read and were skipped)",
            stats.unreadable_lines
        );
    }
    let _ = writeln!(out, "\nevents");
    table(&mut out, "event", &stats.events);
    let _ = writeln!(out, "\nhooks");
    table(&mut out, "hook (source)", &stats.hooks);
    let _ = writeln!(
        out,
        "\nPreToolUse calls without a PostToolUse or PostToolUseFailure"
    );
    if !stats.post_tool_use_seen && !stats.unpaired_pre_tool_use.is_empty() {
        let _ = writeln!(
            out,
            "  (the log has no PostToolUse fires at all: is the host sending them to hookrun?)"
        );
    }
    if stats.unpaired_pre_tool_use.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for u in &stats.unpaired_pre_tool_use {
        let _ = writeln!(
            out,
            "  {} {} {}{}{}",
            u.time,
            u.tool_use_id,
            u.tool_name.as_deref().unwrap_or("?"),
            u.session_id
                .as_deref()
                .map(|s| format!(" session {s}"))
                .unwrap_or_default(),
            if u.denied { " (denied by hookrun)" } else { "" }
        );
    }
    let _ = writeln!(out, "\nconfigured hooks that never ran in this log");
    if stats.never_ran.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for hook in &stats.never_ran {
        let _ = writeln!(out, "  {} ({}, {})", hook.name, hook.event, hook.source);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        assert!((percentile(&values, 50) - 50.0).abs() < f64::EPSILON);
        assert!((percentile(&values, 95) - 95.0).abs() < f64::EPSILON);
        assert!((percentile(&[7.0], 95) - 7.0).abs() < f64::EPSILON);
        assert!(percentile(&[], 50).abs() < f64::EPSILON);
    }

    #[test]
    fn text_is_aligned_and_counts_one_fire_in_the_singular() {
        let mut stats = Stats {
            log: "/l.jsonl".into(),
            fires: 1,
            unreadable_lines: 0,
            events: BTreeMap::new(),
            hooks: BTreeMap::new(),
            unpaired_pre_tool_use: Vec::new(),
            post_tool_use_seen: true,
            never_ran: Vec::new(),
        };
        let long = format!("guard ({})", "/a/very/long/path".repeat(5));
        stats.hooks.insert(
            long.clone(),
            Counts {
                count: 1,
                ..Counts::default()
            },
        );
        stats.hooks.insert(
            "short (/s.json)".into(),
            Counts {
                count: 12,
                ..Counts::default()
            },
        );
        let text = render_text(&stats);
        assert!(text.starts_with("/l.jsonl: 1 fire\n"), "{text}");
        let ends: Vec<usize> = text
            .lines()
            .filter(|l| l.contains("(/") || l.contains("hook (source)"))
            .map(|l| {
                l.find(" 1 ")
                    .or_else(|| l.find("12"))
                    .or_else(|| l.find("count"))
                    .unwrap()
                    + 3
            })
            .collect();
        // The count column ends at the same place on every line.
        let header = text.lines().find(|l| l.contains("hook (source)")).unwrap();
        let count_end = header.find("count").unwrap() + "count".len();
        for line in text.lines().filter(|l| l.contains("(/")) {
            let digits_end = line[..count_end].trim_end().len();
            assert_eq!(digits_end, count_end, "{line:?} in\n{text}");
        }
        assert_eq!(ends.len(), 3);
    }
}

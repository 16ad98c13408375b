//! Counting a replay and saying what it found: a summary a person reads in
//! ten seconds, the changed events, and the same as JSON for CI.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::evaluate::{Findings, Verdict};
use super::{Recorded, Replayed, Tally};
use crate::catalog::{EventId, KnownEvent};
use crate::event::Event;
use crate::text::shorten;

/// One event a policy treats differently.
#[derive(Debug, Clone)]
pub struct Change {
    pub session: String,
    pub time: Option<String>,
    pub event: String,
    /// The command, path or prompt, shortened.
    pub what: String,
    pub file: usize,
    pub line: usize,
    pub sidechain: bool,
    /// `newly denied`, `hooks newly run`, … (one event may have several).
    pub kinds: Vec<&'static str>,
    /// The old policy's decision, or what the recording says happened.
    pub before: String,
    pub after: &'static str,
    pub reason: Option<String>,
    pub hooks_added: Vec<String>,
    pub hooks_removed: Vec<String>,
}

/// One replayed event with what the policy does with it, kept when every
/// event is listed (`--show all`, `--format json`).
#[derive(Debug, Clone)]
pub struct Row {
    pub session: String,
    pub time: Option<String>,
    pub event: String,
    pub what: String,
    pub file: usize,
    pub line: usize,
    pub sidechain: bool,
    pub recorded: &'static str,
    pub decision: &'static str,
    pub reason: Option<String>,
    pub hooks: Vec<String>,
    /// The other policy's decision and hooks (`--against`).
    pub before: Option<(&'static str, Vec<String>)>,
    /// Empty when it did not change.
    pub kinds: Vec<&'static str>,
}

/// What one side decided, counted.
#[derive(Debug, Default)]
struct Counts {
    /// Per decision word, over events the rules or hooks decide
    /// (`PreToolUse` in a dry replay).
    decisions: BTreeMap<&'static str, u64>,
    hook_runs: BTreeMap<String, u64>,
    /// Events with at least one hook to run.
    events_with_hooks: u64,
}

impl Counts {
    fn merge(&mut self, other: Counts) {
        for (k, v) in other.decisions {
            *self.decisions.entry(k).or_default() += v;
        }
        for (k, v) in other.hook_runs {
            *self.hook_runs.entry(k).or_default() += v;
        }
        self.events_with_hooks += other.events_with_hooks;
    }

    fn add(&mut self, event: &Event, verdict: &Verdict, run: bool) {
        if run || event.id == EventId::Known(KnownEvent::PreToolUse) {
            *self.decisions.entry(verdict.decision).or_default() += 1;
        }
        if !verdict.hooks.is_empty() {
            self.events_with_hooks += 1;
        }
        for hook in &verdict.hooks {
            if let Some(count) = self.hook_runs.get_mut(hook) {
                *count += 1;
            } else {
                self.hook_runs.insert(hook.clone(), 1);
            }
        }
    }
}

/// How one event's new verdict differs from the old policy's, or (with
/// no old policy) from what the recording says happened.
struct Compared {
    kinds: Vec<&'static str>,
    before: String,
    added: Vec<String>,
    removed: Vec<String>,
}

fn compare(r: &Replayed, new: &Verdict, old: Option<&Verdict>) -> Compared {
    if let Some(old) = old {
        let mut kinds = Vec::new();
        if old.decision != new.decision {
            kinds.push(decision_change(old.decision, new.decision));
        }
        let added: Vec<String> = new
            .hooks
            .iter()
            .filter(|h| !old.hooks.contains(h))
            .cloned()
            .collect();
        let removed: Vec<String> = old
            .hooks
            .iter()
            .filter(|h| !new.hooks.contains(h))
            .cloned()
            .collect();
        if !added.is_empty() {
            kinds.push("hooks newly run");
        }
        if !removed.is_empty() {
            kinds.push("hooks no longer run");
        }
        Compared {
            kinds,
            before: old.decision.to_owned(),
            added,
            removed,
        }
    } else {
        // Against the recording: a call that went through would
        // now be stopped.
        let went_through = if r.event.id == EventId::Known(KnownEvent::PreToolUse) {
            r.recorded.went_through()
        } else {
            r.recorded == Recorded::Ran
        };
        let kind = match new.decision {
            "deny" if went_through => Some("newly denied"),
            "ask" if went_through => Some("newly asks"),
            _ => None,
        };
        Compared {
            kinds: kind.into_iter().collect(),
            before: format!("{} in the recording", r.recorded.as_str()),
            added: Vec::new(),
            removed: Vec::new(),
        }
    }
}

/// The whole replay, counted.
#[derive(Debug, Default)]
pub struct Summary {
    pub run: bool,
    pub against: bool,
    sessions: HashSet<String>,
    pub events: u64,
    by_event: BTreeMap<String, u64>,
    subagent_events: u64,
    recorded: BTreeMap<&'static str, u64>,
    new: Counts,
    old: Counts,
    /// Denied by the new policy: what → count.
    blocked: HashMap<String, u64>,
    pub changes: Vec<Change>,
    change_kinds: BTreeMap<&'static str, u64>,
    /// Every event, when kept ([`Summary::keep_rows`]).
    pub rows: Option<Vec<Row>>,
}

impl Summary {
    pub fn new(run: bool, against: bool) -> Summary {
        Summary {
            run,
            against,
            ..Summary::default()
        }
    }

    /// Keep every event, not only the changed ones.
    #[must_use]
    pub fn keep_rows(mut self) -> Summary {
        self.rows = Some(Vec::new());
        self
    }

    /// The tallies one event adds to (sessions, events, decisions).
    fn count(&mut self, r: &Replayed, new: &Verdict, old: Option<&Verdict>) {
        if !self.sessions.contains(&r.session) {
            self.sessions.insert(r.session.clone());
        }
        self.events += 1;
        let name = r.event.id.name();
        if let Some(count) = self.by_event.get_mut(name) {
            *count += 1;
        } else {
            self.by_event.insert(name.to_owned(), 1);
        }
        if r.sidechain {
            self.subagent_events += 1;
        }
        let pre_tool_use = r.event.id == EventId::Known(KnownEvent::PreToolUse);
        if pre_tool_use {
            *self.recorded.entry(r.recorded.as_str()).or_default() += 1;
        }
        self.new.add(&r.event, new, self.run);
        if let Some(old) = old {
            self.old.add(&r.event, old, self.run);
        }
        if new.decision == "deny" {
            *self.blocked.entry(describe(&r.event)).or_default() += 1;
        }
    }

    pub fn add(&mut self, r: &Replayed, new: &Verdict, old: Option<&Verdict>) {
        self.count(r, new, old);
        let name = r.event.id.name();
        let Compared {
            kinds,
            before,
            added,
            removed,
        } = compare(r, new, old);
        if let Some(rows) = self.rows.as_mut() {
            rows.push(Row {
                session: r.session.clone(),
                time: r.time.clone(),
                event: name.to_owned(),
                what: describe(&r.event),
                file: r.file,
                line: r.line,
                sidechain: r.sidechain,
                recorded: r.recorded.as_str(),
                decision: new.decision,
                reason: new.reason.clone(),
                hooks: new.hooks.clone(),
                before: old.map(|o| (o.decision, o.hooks.clone())),
                kinds: kinds.clone(),
            });
        }
        if kinds.is_empty() {
            return;
        }
        for kind in &kinds {
            *self.change_kinds.entry(kind).or_default() += 1;
        }
        self.changes.push(Change {
            session: r.session.clone(),
            time: r.time.clone(),
            event: name.to_owned(),
            what: describe(&r.event),
            file: r.file,
            line: r.line,
            sidechain: r.sidechain,
            kinds,
            before,
            after: new.decision,
            reason: new.reason.clone(),
            hooks_added: added,
            hooks_removed: removed,
        });
    }

    /// Adds a worker's part; `changes` end up in file and line order
    /// whatever the order the parts come in.
    pub fn merge(&mut self, other: Summary) {
        self.sessions.extend(other.sessions);
        self.events += other.events;
        for (k, v) in other.by_event {
            *self.by_event.entry(k).or_default() += v;
        }
        self.subagent_events += other.subagent_events;
        for (k, v) in other.recorded {
            *self.recorded.entry(k).or_default() += v;
        }
        self.new.merge(other.new);
        self.old.merge(other.old);
        for (k, v) in other.blocked {
            *self.blocked.entry(k).or_default() += v;
        }
        self.changes.extend(other.changes);
        self.changes.sort_by_key(|c| (c.file, c.line));
        match (self.rows.as_mut(), other.rows) {
            (Some(mine), Some(theirs)) => {
                mine.extend(theirs);
                mine.sort_by_key(|r| (r.file, r.line));
            }
            (None, Some(theirs)) => self.rows = Some(theirs),
            _ => {}
        }
        for (k, v) in other.change_kinds {
            *self.change_kinds.entry(k).or_default() += v;
        }
    }

    pub fn sessions(&self) -> usize {
        self.sessions.len()
    }

    fn top_blocked(&self, n: usize) -> Vec<(&str, u64)> {
        let mut top: Vec<(&str, u64)> = self
            .blocked
            .iter()
            .map(|(what, count)| (what.as_str(), *count))
            .collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        top.truncate(n);
        top
    }
}

fn decision_change(old: &str, new: &str) -> &'static str {
    match (old, new) {
        (_, "deny") => "newly denied",
        ("deny", _) => "no longer denied",
        (_, "ask") => "newly asks",
        ("ask", _) => "no longer asks",
        (_, "allow") => "newly allowed",
        ("allow", _) => "no longer allowed",
        _ => "decision changed",
    }
}

/// What an event is about, in a few words: the command, the path, the
/// prompt.
pub fn describe(event: &Event) -> String {
    let fields = event.fields();
    let tool = fields.get("tool_name").and_then(Value::as_str);
    if let Some(tool) = tool {
        let input = fields.get("tool_input");
        for key in [
            "command",
            "file_path",
            "notebook_path",
            "url",
            "pattern",
            "path",
            "query",
            "description",
        ] {
            if let Some(value) = input.and_then(|i| i.get(key)).and_then(Value::as_str) {
                let value = value.replace('\n', " ");
                return if tool == "Bash" {
                    shorten(&value, 100)
                } else {
                    format!("{tool} {}", shorten(&value, 90))
                };
            }
        }
        return tool.to_owned();
    }
    if let Some(prompt) = fields.get("prompt").and_then(Value::as_str) {
        return format!("prompt {:?}", shorten(&prompt.replace('\n', " "), 80));
    }
    String::new()
}

/// Everything the renderings need besides the summary.
pub struct Context<'a> {
    pub files: &'a [PathBuf],
    pub tally: &'a Tally,
    pub new: &'a Findings,
    pub old: Option<&'a Findings>,
    pub new_label: String,
    pub old_label: Option<String>,
    pub elapsed: std::time::Duration,
    /// What the text lists after the summary (the JSON lists all).
    pub show: crate::cli::Show,
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn counts_line<K: AsRef<str>>(map: &BTreeMap<K, u64>) -> String {
    let mut items: Vec<(&str, u64)> = map.iter().map(|(k, v)| (k.as_ref(), *v)).collect();
    items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    items
        .iter()
        .map(|(k, v)| format!("{k} {}", thousands(*v)))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn short_time(time: Option<&str>) -> String {
    match time {
        Some(t) if t.len() >= 19 => t[..19].replace('T', " "),
        Some(t) => t.to_owned(),
        None => "(no time)".to_owned(),
    }
}

fn short_session(session: &str) -> &str {
    session.get(..8).unwrap_or(session)
}

pub fn text(s: &Summary, cx: &Context<'_>) -> String {
    let mut out = String::new();
    let mode = if s.run {
        "hooks RAN (--run), each in a throwaway folder"
    } else {
        "dry: no hook ran; decisions are the permission rules alone"
    };
    let _ = writeln!(
        out,
        "replayed {}, {} from {} in {:.1} s ({mode})",
        plural(s.sessions() as u64, "session"),
        plural(s.events, "event"),
        plural(cx.files.len() as u64, "file"),
        cx.elapsed.as_secs_f64()
    );
    let mut events = counts_line(&s.by_event);
    if s.subagent_events > 0 {
        let _ = write!(events, " (subagents: {})", thousands(s.subagent_events));
    }
    let _ = writeln!(out, "events:    {events}");
    let _ = writeln!(out, "policy:    {}", cx.new_label);
    if let Some(label) = &cx.old_label {
        let _ = writeln!(out, "against:   {label}");
    }
    let scope = if s.run { "all events" } else { "PreToolUse" };
    let _ = writeln!(
        out,
        "decisions ({scope}): {}",
        or_none(counts_line(&s.new.decisions))
    );
    if s.against {
        let _ = writeln!(out, "  before:  {}", or_none(counts_line(&s.old.decisions)));
    }
    hooks_text(&mut out, s);
    let baseline = if s.against {
        "vs the other policy"
    } else {
        "vs what the recording did"
    };
    if s.changes.is_empty() {
        let _ = writeln!(out, "changes:   none ({baseline})");
    } else {
        let _ = writeln!(
            out,
            "changes:   {} ({baseline}): {}",
            plural(s.changes.len() as u64, "event"),
            counts_line(&s.change_kinds)
        );
    }
    let top = s.top_blocked(5);
    if !top.is_empty() {
        out.push_str("top blocked:\n");
        for (what, count) in top {
            let _ = writeln!(out, "  {:>6}  {what}", thousands(count));
        }
    }
    sources_text(&mut out, cx);
    warnings_text(&mut out, "policy", cx.new);
    if let Some(old) = cx.old {
        warnings_text(&mut out, "against", old);
    }
    listed_text(&mut out, s, cx);
    out
}

/// Which hooks ran (or would run), the busiest first.
fn hooks_text(out: &mut String, s: &Summary) {
    let mut runs: Vec<(&String, &u64)> = s.new.hook_runs.iter().collect();
    runs.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if runs.is_empty() {
        out.push_str(if s.run {
            "hooks:     none ran on these events\n"
        } else {
            "hooks:     none would run on these events\n"
        });
    } else {
        let shown: Vec<String> = runs
            .iter()
            .take(6)
            .map(|(name, n)| format!("{name} {}", thousands(**n)))
            .collect();
        let rest = if runs.len() > 6 {
            format!(" (+{} more)", runs.len() - 6)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "hooks:     {} {}: {}{rest}",
            plural(s.new.events_with_hooks, "event"),
            if s.run {
                "ran hooks"
            } else {
                "would run hooks"
            },
            shown.join(" · ")
        );
    }
}

/// Every event (`--show all`), or the first changed ones.
fn listed_text(out: &mut String, s: &Summary, cx: &Context<'_>) {
    if let (crate::cli::Show::All, Some(rows)) = (cx.show, &s.rows) {
        let _ = writeln!(out, "\nevery replayed event ({}):", rows.len());
        for row in rows {
            row_text(out, row, cx);
        }
        return;
    }
    let limit = match cx.show {
        crate::cli::Show::Changes(n) => n,
        crate::cli::Show::All => usize::MAX,
    };
    if !s.changes.is_empty() {
        let shown = s.changes.len().min(limit);
        let _ = writeln!(
            out,
            "\nchanged events ({shown} of {}{}):",
            s.changes.len(),
            if shown < s.changes.len() {
                "; --format json lists them all"
            } else {
                ""
            }
        );
        for c in s.changes.iter().take(shown) {
            change_text(out, c, cx);
        }
    }
}

fn or_none(text: String) -> String {
    if text.is_empty() { "none".into() } else { text }
}

fn change_text(out: &mut String, c: &Change, cx: &Context<'_>) {
    let side = if c.sidechain { " (subagent)" } else { "" };
    let _ = writeln!(
        out,
        "  {}  {}  {}{side}  {}",
        short_time(c.time.as_deref()),
        short_session(&c.session),
        c.event,
        c.what
    );
    let mut detail = format!("{}: {} → {}", c.kinds.join(", "), c.before, c.after);
    if let Some(reason) = &c.reason {
        let _ = write!(detail, " ({})", shorten(&reason.replace('\n', " "), 120));
    }
    if !c.hooks_added.is_empty() {
        let _ = write!(detail, "; newly run: {}", c.hooks_added.join(", "));
    }
    if !c.hooks_removed.is_empty() {
        let _ = write!(detail, "; no longer run: {}", c.hooks_removed.join(", "));
    }
    let _ = writeln!(out, "      {detail}");
    let _ = writeln!(out, "      at {}:{}", file_name(cx.files, c.file), c.line);
}

fn row_text(out: &mut String, row: &Row, cx: &Context<'_>) {
    let side = if row.sidechain { " (subagent)" } else { "" };
    let _ = writeln!(
        out,
        "  {}  {}  {}{side}  {}",
        short_time(row.time.as_deref()),
        short_session(&row.session),
        row.event,
        row.what
    );
    let hooks = if row.hooks.is_empty() {
        "no hook".to_owned()
    } else {
        row.hooks.join(", ")
    };
    let mut detail = format!("{} · hooks: {hooks}", row.decision);
    if let Some(reason) = &row.reason {
        let _ = write!(detail, " ({})", shorten(&reason.replace('\n', " "), 120));
    }
    match &row.before {
        Some((decision, hooks)) => {
            let hooks = if hooks.is_empty() {
                "no hook".to_owned()
            } else {
                hooks.join(", ")
            };
            let _ = write!(detail, " · against: {decision} · hooks: {hooks}");
        }
        None => {
            let _ = write!(detail, " · recorded: {}", row.recorded);
        }
    }
    if !row.kinds.is_empty() {
        let _ = write!(detail, " · CHANGED: {}", row.kinds.join(", "));
    }
    let _ = writeln!(out, "      {detail}");
    let _ = writeln!(
        out,
        "      at {}:{}",
        file_name(cx.files, row.file),
        row.line
    );
}

fn file_name(files: &[PathBuf], index: usize) -> String {
    files
        .get(index)
        .map_or_else(String::new, |p| crate::display::display_path(p))
}

fn sources_text(out: &mut String, cx: &Context<'_>) {
    let t = cx.tally;
    if t.unreadable_count > 0 {
        let _ = writeln!(
            out,
            "unreadable: {} (no events taken from them):",
            plural(t.unreadable_count, "record")
        );
        for u in t.unreadable.iter().take(10) {
            let _ = writeln!(
                out,
                "  {}:{}: {}",
                file_name(cx.files, u.file),
                u.line,
                u.why
            );
        }
        if t.unreadable_count > 10 {
            let _ = writeln!(
                out,
                "  … {} more (--format json lists the first {})",
                t.unreadable_count - 10,
                super::UNREADABLE_KEPT
            );
        }
    }
    if !t.unknown_types.is_empty() {
        let _ = writeln!(
            out,
            "unknown record types (no events taken from them): {}",
            counts_line(&t.unknown_types)
        );
    }
    if t.audit_without_input > 0 {
        let _ = writeln!(
            out,
            "audit log: {} lines recorded no event input (set HOOKRUN_LOG_INPUT=1 for fires to record it)",
            thousands(t.audit_without_input)
        );
    }
}

fn warnings_text(out: &mut String, label: &str, side: &Findings) {
    for problem in side.problems.iter().take(8) {
        let _ = writeln!(out, "{label} settings problem: {problem}");
    }
    for (warning, count) in side.warnings.iter().take(8) {
        let _ = writeln!(
            out,
            "{label} warning ({}): {warning}",
            plural(*count, "event")
        );
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", thousands(n))
    }
}

/// One changed event in the JSON output.
#[derive(Serialize)]
struct ChangeJson<'a> {
    session: &'a str,
    time: Option<&'a str>,
    event: &'a str,
    what: &'a str,
    file: &'a str,
    line: usize,
    subagent: bool,
    kinds: &'a [&'static str],
    before: &'a str,
    after: &'a str,
    reason: Option<&'a str>,
    hooks_added: &'a [String],
    hooks_removed: &'a [String],
}

/// The changed events, serialised one by one (a replay may change a
/// hundred thousand events: no JSON tree of them is built).
struct EventsJson<'a> {
    changes: &'a [Change],
    names: &'a [String],
}

impl Serialize for EventsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.changes.iter().map(|c| ChangeJson {
            session: &c.session,
            time: c.time.as_deref(),
            event: &c.event,
            what: &c.what,
            file: self.names.get(c.file).map_or("", String::as_str),
            line: c.line,
            subagent: c.sidechain,
            kinds: &c.kinds,
            before: &c.before,
            after: c.after,
            reason: c.reason.as_deref(),
            hooks_added: &c.hooks_added,
            hooks_removed: &c.hooks_removed,
        }))
    }
}

/// One replayed event in the JSON output.
#[derive(Serialize)]
struct RowJson<'a> {
    session: &'a str,
    time: Option<&'a str>,
    event: &'a str,
    what: &'a str,
    file: &'a str,
    line: usize,
    subagent: bool,
    recorded: &'a str,
    decision: &'a str,
    reason: Option<&'a str>,
    hooks: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    against_decision: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    against_hooks: Option<&'a [String]>,
    changed: &'a [&'static str],
}

/// Every replayed event, serialised one by one.
struct RowsJson<'a> {
    rows: &'a [Row],
    names: &'a [String],
}

impl Serialize for RowsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.rows.iter().map(|r| RowJson {
            session: &r.session,
            time: r.time.as_deref(),
            event: &r.event,
            what: &r.what,
            file: self.names.get(r.file).map_or("", String::as_str),
            line: r.line,
            subagent: r.sidechain,
            recorded: r.recorded,
            decision: r.decision,
            reason: r.reason.as_deref(),
            hooks: &r.hooks,
            against_decision: r.before.as_ref().map(|(d, _)| *d),
            against_hooks: r.before.as_ref().map(|(_, h)| h.as_slice()),
            changed: &r.kinds,
        }))
    }
}

#[derive(Serialize)]
struct ChangesJson<'a> {
    baseline: &'static str,
    count: usize,
    by_kind: &'a BTreeMap<&'static str, u64>,
    events: EventsJson<'a>,
}

#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    head: Map<String, Value>,
    changes: ChangesJson<'a>,
    /// Every replayed event, in file and line order.
    replayed: RowsJson<'a>,
    top_blocked: Value,
    elapsed_ms: f64,
}

/// The whole replay as one JSON document (pretty-printed, with a final
/// newline).
pub fn to_json(s: &Summary, cx: &Context<'_>) -> String {
    let names: Vec<String> = (0..cx.files.len())
        .map(|i| file_name(cx.files, i))
        .collect();
    let side = |counts: &Counts, side: &Findings, label: &str| {
        json!({
            "settings": label,
            "decisions": counts.decisions,
            "hook_runs": counts.hook_runs,
            "events_with_hooks": counts.events_with_hooks,
            "files": side.files,
            "problems": side.problems,
            "warnings": side.warnings,
        })
    };
    let t = cx.tally;
    let head = json!({
        "mode": if s.run { "run" } else { "dry" },
        "files": cx.files.len(),
        "records": t.records,
        "unreadable": {
            "count": t.unreadable_count,
            "records": t.unreadable.iter().map(|u| json!({
                "file": names.get(u.file),
                "line": u.line,
                "why": u.why,
            })).collect::<Vec<_>>(),
        },
        "unknown_record_types": t.unknown_types,
        "audit_lines_without_input": t.audit_without_input,
        "sessions": s.sessions(),
        "events": s.events,
        "events_by_name": s.by_event,
        "subagent_events": s.subagent_events,
        "recorded_tool_calls": s.recorded,
        "policy": side(&s.new, cx.new, &cx.new_label),
        "against": match (cx.old, &cx.old_label) {
            (Some(old), Some(label)) => side(&s.old, old, label),
            _ => Value::Null,
        },
    });
    let Value::Object(head) = head else {
        unreachable!("json! of an object literal is an object")
    };
    let out = Json {
        head,
        changes: ChangesJson {
            baseline: if s.against { "against" } else { "recording" },
            count: s.changes.len(),
            by_kind: &s.change_kinds,
            events: EventsJson {
                changes: &s.changes,
                names: &names,
            },
        },
        replayed: RowsJson {
            rows: s.rows.as_deref().unwrap_or_default(),
            names: &names,
        },
        top_blocked: s
            .top_blocked(10)
            .iter()
            .map(|(what, count)| json!({"what": what, "count": count}))
            .collect(),
        elapsed_ms: cx.elapsed.as_secs_f64() * 1000.0,
    };
    let mut text = serde_json::to_string_pretty(&out).expect("JSON values serialise");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn replayed(command: &str, recorded: Recorded) -> Replayed {
        Replayed {
            event: Event::from_object(
                json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}})
                    .as_object()
                    .unwrap()
                    .clone(),
                None,
            )
            .unwrap(),
            session: "S".into(),
            file: 0,
            line: 1,
            time: None,
            sidechain: false,
            recorded,
        }
    }

    fn verdict(decision: &'static str, hooks: &[&str]) -> Verdict {
        Verdict {
            decision,
            reason: None,
            hooks: hooks.iter().map(|h| (*h).to_owned()).collect(),
        }
    }

    #[test]
    fn against_the_recording_only_calls_that_went_through_change() {
        let mut s = Summary::new(false, false);
        s.add(
            &replayed("rm -rf a", Recorded::Ran),
            &verdict("deny", &[]),
            None,
        );
        s.add(
            &replayed("rm -rf b", Recorded::Denied),
            &verdict("deny", &[]),
            None,
        );
        s.add(&replayed("ls", Recorded::Ran), &verdict("none", &[]), None);
        assert_eq!(s.changes.len(), 1);
        assert_eq!(s.changes[0].kinds, ["newly denied"]);
        assert_eq!(s.changes[0].before, "ran in the recording");
        assert_eq!(s.top_blocked(5), [("rm -rf a", 1), ("rm -rf b", 1)]);
    }

    fn text_of(s: &Summary) -> String {
        let files = [PathBuf::from("s.jsonl")];
        let tally = Tally::default();
        let findings = Findings::default();
        let cx = Context {
            files: &files,
            tally: &tally,
            new: &findings,
            old: None,
            new_label: "p".into(),
            old_label: None,
            elapsed: std::time::Duration::ZERO,
            show: crate::cli::Show::Changes(50),
        };
        text(s, &cx)
    }

    #[test]
    fn one_event_is_one_event_and_a_run_says_ran() {
        let mut dry = Summary::new(false, false);
        dry.add(
            &replayed("ls", Recorded::Ran),
            &verdict("none", &["audit"]),
            None,
        );
        let out = text_of(&dry);
        assert!(
            out.contains("hooks:     1 event would run hooks: audit 1"),
            "{out}"
        );
        let mut run = Summary::new(true, false);
        run.add(
            &replayed("ls", Recorded::Ran),
            &verdict("none", &["audit"]),
            None,
        );
        let out = text_of(&run);
        assert!(
            out.contains("hooks:     1 event ran hooks: audit 1"),
            "{out}"
        );
        assert!(!out.contains("would run"), "{out}");
    }

    #[test]
    fn two_policies_differ_in_decisions_and_hooks() {
        let mut s = Summary::new(false, true);
        let r = replayed("git push", Recorded::Ran);
        s.add(
            &r,
            &verdict("deny", &["new"]),
            Some(&verdict("none", &["old"])),
        );
        s.add(&r, &verdict("none", &["x"]), Some(&verdict("none", &["x"])));
        assert_eq!(s.changes.len(), 1);
        let c = &s.changes[0];
        assert_eq!(
            c.kinds,
            ["newly denied", "hooks newly run", "hooks no longer run"]
        );
        assert_eq!(c.hooks_added, ["new"]);
        assert_eq!(c.hooks_removed, ["old"]);
        assert_eq!(decision_change("deny", "none"), "no longer denied");
    }
}

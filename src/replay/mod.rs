//! `hookrun replay`: recorded agent sessions → the events a host would have
//! fired → what a policy does with them.
//!
//! - [`source`]: which files a SOURCE names, and whether each is a Claude
//!   Code transcript or a hookrun audit log;
//! - [`transcript`]: Claude Code session transcripts (JSONL), streamed;
//! - [`audit`]: hookrun's own audit log, when it recorded each fire's input;
//! - [`evaluate`]: one event through the funnel and the permission rules
//!   (dry), or through the real fire path (`--run`);
//! - [`summary`]: counts, changes and the two renderings.
//!
//! Sources are read line by line and every event is evaluated as soon as
//! it is rebuilt: memory grows with the number of changes, not events —
//! unless every event is listed (`--show all`, `--format json`), when each
//! keeps a short row (what, decision, hooks).

pub mod audit;
pub mod evaluate;
pub mod source;
pub mod summary;
pub mod transcript;

use std::collections::BTreeMap;

use crate::event::Event;

/// What the recording says became of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// It happened: the prompt was sent, the tool ran and succeeded, the
    /// turn ended.
    Ran,
    /// The tool ran and failed.
    Failed,
    /// The call was refused (a hook, a permission rule or the user).
    Denied,
    /// The recording ends before the call's result.
    NoResult,
}

impl Recorded {
    pub fn as_str(self) -> &'static str {
        match self {
            Recorded::Ran => "ran",
            Recorded::Failed => "failed",
            Recorded::Denied => "denied",
            Recorded::NoResult => "no result",
        }
    }

    /// The call went through in the recording (whatever its result).
    pub fn went_through(self) -> bool {
        matches!(self, Recorded::Ran | Recorded::Failed)
    }
}

/// One rebuilt event and where it came from.
#[derive(Debug, Clone)]
pub struct Replayed {
    pub event: Event,
    /// The session id (`sessionId`), or the file name without a session.
    pub session: String,
    /// Index into the list of source files.
    pub file: usize,
    /// 1-based line of the record the event was rebuilt from.
    pub line: usize,
    /// The record's timestamp, as written.
    pub time: Option<String>,
    /// From a subagent's turns.
    pub sidechain: bool,
    pub recorded: Recorded,
}

/// A record that could not be used, named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub file: usize,
    pub line: usize,
    pub why: String,
}

/// Unreadable records kept with their names; the rest are only counted.
pub const UNREADABLE_KEPT: usize = 200;

/// What reading the sources met besides events.
#[derive(Debug, Default)]
pub struct Tally {
    /// Non-empty lines read.
    pub records: u64,
    pub unreadable_count: u64,
    /// The first [`UNREADABLE_KEPT`] of them.
    pub unreadable: Vec<Unreadable>,
    /// Record types this reader does not know (no events are taken from
    /// them), by name.
    pub unknown_types: BTreeMap<String, u64>,
    /// Audit-log lines without a recorded input (the opt-in was off).
    pub audit_without_input: u64,
}

impl Tally {
    /// Adds a worker's tally; the named records stay the first ones in
    /// file and line order.
    pub fn merge(&mut self, other: Tally) {
        self.records += other.records;
        self.unreadable_count += other.unreadable_count;
        self.unreadable.extend(other.unreadable);
        self.unreadable.sort_by_key(|u| (u.file, u.line));
        self.unreadable.truncate(UNREADABLE_KEPT);
        for (k, v) in other.unknown_types {
            *self.unknown_types.entry(k).or_default() += v;
        }
        self.audit_without_input += other.audit_without_input;
    }

    pub fn unreadable(&mut self, file: usize, line: usize, why: String) {
        self.unreadable_count += 1;
        if self.unreadable.len() < UNREADABLE_KEPT {
            self.unreadable.push(Unreadable { file, line, why });
        }
    }
}

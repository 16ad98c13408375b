//! The permission-rule engine (SPEC §4.3): `Tool` or `Tool(specifier)`.
//!
//! One implementation serves `if` filters and `permissions` (allow/ask/deny)
//! with the two polarities of SPEC §4.3. Pure: no I/O beyond what the caller
//! passes in (home directory, cwd and anchors are parameters).

use std::path::Path;

use serde_json::Value;

/// A parsed rule.
#[derive(Debug, Clone)]
pub struct Rule {
    text: String,
}

/// Why a rule could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid rule `{rule}`: {reason}")]
pub struct RuleError {
    pub rule: String,
    pub reason: String,
}

/// The tool call a rule is tested against.
#[derive(Debug, Clone, Copy)]
pub struct ToolCall<'a> {
    pub tool_name: &'a str,
    /// `tool_input`: normally an object; anything else matches no specifier.
    pub tool_input: &'a Value,
}

/// Where relative path patterns are anchored (SPEC §4.3 "File tools").
#[derive(Debug, Clone, Copy)]
pub struct PathContext<'a> {
    /// The event's `cwd`: `x` and `./x` are relative to it.
    pub cwd: &'a Path,
    /// The home directory for `~/x`, if known.
    pub home: Option<&'a Path>,
    /// Root of `/x`: the project root for project and local settings, the
    /// settings file's directory otherwise.
    pub anchor: &'a Path,
}

/// The result of testing a rule with "any part" polarity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleMatch {
    Match,
    NoMatch,
    /// Matched only because the command could not be judged (unparseable,
    /// or `$( )`, backticks, `$VAR` against a specifier with a space or `*`).
    /// The string says why, for reports.
    FailOpen(String),
}

impl RuleMatch {
    pub fn matched(&self) -> bool {
        !matches!(self, RuleMatch::NoMatch)
    }
}

impl Rule {
    pub fn parse(text: &str) -> Result<Rule, RuleError> {
        let _ = text;
        todo!("rule engine")
    }

    /// The rule as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// `if`, deny and ask polarity: matches when ANY part of a compound
    /// command matches, and fails open (see [`RuleMatch::FailOpen`]).
    pub fn matches_any(&self, call: ToolCall<'_>, paths: &PathContext<'_>) -> RuleMatch {
        let _ = (call, paths);
        todo!("rule engine")
    }
}

/// Allow polarity: true only when EVERY part of the call is matched by some
/// rule of `rules` (each with its own path context); never for a command that
/// cannot be parsed or that contains `$( )`, backticks or `$VAR`.
pub fn allow_covers(rules: &[(&Rule, PathContext<'_>)], call: ToolCall<'_>) -> bool {
    let _ = (rules, call);
    todo!("rule engine")
}

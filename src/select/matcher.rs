//! The `matcher` field (SPEC §4.2): Claude Code's exact-list versus
//! regex-search rules. Pure.

/// A compiled matcher.
#[derive(Debug)]
pub enum Matcher {
    /// Absent, `""` or `"*"`.
    All,
    /// Exact, case-sensitive names.
    List(Vec<String>),
    /// An unanchored search with JavaScript regex syntax.
    Regex(regress::Regex),
    /// Does not compile: the hook runs anyway (SPEC §4.4); the string is the
    /// compiler's complaint.
    Invalid(String),
}

impl Matcher {
    /// `strict_chars`: FileChanged and StopFailure, whose exact lists may only
    /// hold letters, digits, `_` and `|`.
    pub fn compile(pattern: Option<&str>, strict_chars: bool) -> Matcher {
        let _ = (pattern, strict_chars);
        todo!("matcher")
    }

    /// Whether `value` (the event's match field, `""` when missing) passes.
    /// An invalid matcher passes (it cannot filter).
    pub fn matches(&self, value: &str) -> bool {
        let _ = value;
        todo!("matcher")
    }
}

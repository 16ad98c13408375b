//! The `matcher` field (SPEC §4.2): Claude Code's exact-list versus
//! regex-search rules. Pure.
//!
//! The split between the two forms is decided by the characters of the
//! pattern alone, exactly as Claude Code does (oracle FINDINGS, "Matcher
//! semantics"): a hook author who writes `Bash|Read` gets exact names, one who
//! writes `B.*` gets an unanchored JavaScript regex search. Never guess
//! between them from the value being matched.

/// A compiled matcher.
#[derive(Debug)]
pub enum Matcher {
    /// Absent, `""` or `"*"`.
    All,
    /// Exact, case-sensitive names. Empty items of the written list are not
    /// kept (they match nothing), so `Bash|` holds only `Bash` and `|` holds
    /// nothing at all: a matcher that matches nothing, which `doctor` can
    /// point out.
    List(Vec<String>),
    /// An unanchored search with JavaScript regex syntax.
    Regex(regress::Regex),
    /// Does not compile: the hook runs anyway (SPEC §4.4); the string is the
    /// compiler's complaint.
    Invalid(String),
}

/// Whether `c` may appear in an exact-name list.
///
/// The strict set (`FileChanged`, `StopFailure`) has no separators other than `|`
/// because those matchers name files and errors, where `-`, `,` and spaces
/// are better read as regex text.
fn is_list_char(c: char, strict_chars: bool) -> bool {
    let always = c.is_ascii_alphanumeric() || c == '_' || c == '|';
    always || (!strict_chars && matches!(c, '-' | ' ' | ','))
}

impl Matcher {
    /// `strict_chars`: `FileChanged` and `StopFailure`, whose exact lists may only
    /// hold letters, digits, `_` and `|`.
    pub fn compile(pattern: Option<&str>, strict_chars: bool) -> Matcher {
        let pattern = match pattern {
            None | Some("" | "*") => return Matcher::All,
            Some(pattern) => pattern,
        };
        if pattern.chars().all(|c| is_list_char(c, strict_chars)) {
            let names = pattern
                .split(['|', ','])
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect();
            return Matcher::List(names);
        }
        match regress::Regex::new(pattern) {
            Ok(regex) => Matcher::Regex(regex),
            Err(error) => Matcher::Invalid(error.to_string()),
        }
    }

    /// Whether `value` (the event's match field, `""` when missing) passes.
    /// An invalid matcher passes (it cannot filter).
    pub fn matches(&self, value: &str) -> bool {
        match self {
            Matcher::All | Matcher::Invalid(_) => true,
            Matcher::List(names) => names.iter().any(|name| name == value),
            Matcher::Regex(regex) => regex.find(value).is_some(),
        }
    }

    /// True for the exact-name form (`Bash|Read`), which `doctor` shows as a
    /// list rather than as a regex.
    pub fn is_list(&self) -> bool {
        matches!(self, Matcher::List(_))
    }

    /// True for the regex-search form, whose substring surprises (`Edit.*`
    /// also matching `NotebookEdit`) `doctor` looks for.
    pub fn is_regex(&self) -> bool {
        matches!(self, Matcher::Regex(_))
    }

    /// The compiler's complaint when the pattern is not a valid regex.
    pub fn invalid_reason(&self) -> Option<&str> {
        match self {
            Matcher::Invalid(reason) => Some(reason),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle table (FINDINGS "Matcher semantics"): matcher, fires for
    /// Bash, fires for Read. `None` is "no matcher key".
    const ORACLE: &[(Option<&str>, bool, bool)] = &[
        (Some("Bas"), false, false),
        (Some("as"), false, false),
        (Some("Bash|Read"), true, true),
        (Some("Bash|Re"), true, false),
        (Some("Bash | Read"), true, true),
        (Some("Bash,Read"), true, true),
        (Some("B.*"), true, false),
        (Some("a.h"), true, false),
        (Some(""), true, true),
        (Some("as.*"), true, false),
        (Some("*"), true, true),
        (Some(".*ash"), true, false),
        (Some("Bas."), true, false),
        (Some("^B"), true, false),
        (Some("Bash$"), true, false),
        (Some("(Bash)"), true, false),
        (None, true, true),
        (Some("Re.d|Bash"), true, true),
        (Some("bash"), false, false),
        (Some("BASH"), false, false),
        (Some("[BR].*"), true, true),
        (Some("^Bash$"), true, false),
        (Some("B"), false, false),
        (Some("Rea"), false, false),
        (Some("Bash(echo*)"), false, false),
        (Some("Bash "), true, false),
        (Some(" Bash"), true, false),
        (Some("Bash|"), true, false),
    ];

    #[test]
    fn reproduces_the_oracle_table() {
        for &(pattern, bash, read) in ORACLE {
            let matcher = Matcher::compile(pattern, false);
            assert_eq!(matcher.matches("Bash"), bash, "{pattern:?} vs Bash");
            assert_eq!(matcher.matches("Read"), read, "{pattern:?} vs Read");
        }
    }

    #[test]
    fn spec_examples() {
        // (matcher, value, expected)
        let cases: &[(&str, &str, bool)] = &[
            ("Edit|Write", "Edit", true),
            ("Edit|Write", "Write", true),
            ("Edit, Write", "Write", true),
            ("Edit, Write", "Edit", true),
            ("Edit, Write", "Edit, Write", false),
            ("edit", "notebook_edit", false),
            ("Edit", "edit", false),
            ("mcp__memory", "mcp__memory__create_entities", false),
            ("mcp__memory", "mcp__memory", true),
            ("mcp__memory__.*", "mcp__memory__create_entities", true),
            ("mcp-server_1", "mcp-server_1", true),
            ("Edit.*", "NotebookEdit", true),
            ("^Edit$", "NotebookEdit", false),
            ("^Edit$", "Edit", true),
            ("Bash|", "", false),
            ("|", "", false),
            ("|", "Bash", false),
            // JavaScript-only syntax: look-around and back-references.
            ("^(?!Bash$).*", "Read", true),
            ("^(?!Bash$).*", "Bash", false),
            ("(?<=Notebook)Edit", "NotebookEdit", true),
            ("(?<=Notebook)Edit", "Edit", false),
            (r"^(a)\1$", "aa", true),
            (r"^(a)\1$", "ab", false),
            ("^$", "", true),
        ];
        for &(pattern, value, expected) in cases {
            let matcher = Matcher::compile(Some(pattern), false);
            assert_eq!(matcher.matches(value), expected, "{pattern:?} vs {value:?}");
        }
    }

    #[test]
    fn all_matches_the_missing_field() {
        for pattern in [None, Some(""), Some("*")] {
            let matcher = Matcher::compile(pattern, false);
            assert!(matches!(matcher, Matcher::All));
            assert!(matcher.matches(""));
            assert!(matcher.matches("anything at all"));
        }
    }

    #[test]
    fn list_form_keeps_only_non_empty_trimmed_names() {
        let Matcher::List(names) = Matcher::compile(Some(" Edit ,Write|| Bash |"), false) else {
            panic!("expected a list");
        };
        assert_eq!(names, ["Edit", "Write", "Bash"]);
        let Matcher::List(names) = Matcher::compile(Some(" | , "), false) else {
            panic!("expected a list");
        };
        assert!(names.is_empty());
    }

    #[test]
    fn strict_chars_read_separators_other_than_bar_as_regex() {
        // FileChanged: `.env` and `a-b` are regexes there.
        let cases: &[(&str, &str, bool, bool)] = &[
            // (matcher, value, is a list, matches)
            ("env|envrc", "envrc", true, true),
            ("env|envrc", ".envrc", true, false),
            (".env", "x.env", false, true),
            ("package-lock", "package-lock.json", false, true),
            ("a, b", "a, b", false, true),
            ("a, b", "a", false, false),
            ("rate_limit|overloaded", "overloaded", true, true),
        ];
        for &(pattern, value, is_list, expected) in cases {
            let matcher = Matcher::compile(Some(pattern), true);
            assert_eq!(matcher.is_list(), is_list, "{pattern:?}");
            assert_eq!(matcher.matches(value), expected, "{pattern:?} vs {value:?}");
        }
    }

    #[test]
    fn non_ascii_letters_make_a_regex() {
        let matcher = Matcher::compile(Some("Édit"), false);
        assert!(matcher.is_regex());
        assert!(matcher.matches("NotebookÉdit"));
    }

    #[test]
    fn invalid_regex_does_not_filter() {
        for pattern in ["Bash(", "[", "*Bash", "a{2,1}", "(?<name"] {
            let matcher = Matcher::compile(Some(pattern), false);
            let reason = matcher.invalid_reason();
            assert!(reason.is_some_and(|r| !r.is_empty()), "{pattern:?}");
            assert!(matcher.matches("Bash"));
            assert!(matcher.matches(""));
        }
    }

    #[test]
    fn kind_helpers() {
        assert!(Matcher::compile(Some("Bash"), false).is_list());
        assert!(Matcher::compile(Some("B.*"), false).is_regex());
        assert!(!Matcher::compile(None, false).is_list());
        assert!(
            Matcher::compile(Some("B.*"), false)
                .invalid_reason()
                .is_none()
        );
    }
}

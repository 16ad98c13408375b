//! The `matcher` field (SPEC §4.2): Claude Code's exact-list versus
//! regex-search rules. Pure, and bounded in time.
//!
//! The split between the two forms is decided by the characters of the
//! pattern alone, exactly as Claude Code does: a hook author who writes
//! `Bash|Read` gets exact names, one who writes `B.*` gets an unanchored
//! JavaScript regex search. Never guess between them from the value being
//! matched.
//!
//! Regex matchers run on one of two engines:
//! - every pattern that needs no look-around and no back-reference is
//!   translated to the `regex` crate's syntax, with JavaScript's meaning of
//!   `.`, `\d`, `\w`, `\s` and `\b` spelled out, and runs in linear time;
//! - the rest run on `regress` (JavaScript semantics, backtracking) on a
//!   worker thread with a time budget: a match that does not finish within
//!   it does not filter (SPEC §4.4), and the caller warns.
//!
//! Size limits keep compilation bounded too: a regex matcher longer than
//! [`MAX_REGEX_LEN`] bytes (or, for the backtracking engine,
//! [`MAX_BACKTRACKING_LEN`]) is invalid with a message saying so, never a
//! stack overflow.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// The longest regex matcher compiled at all, in bytes.
pub const MAX_REGEX_LEN: usize = 16 * 1024;
/// The longest pattern given to the backtracking engine, in bytes (its
/// compiler is not linear in the number of alternatives).
pub const MAX_BACKTRACKING_LEN: usize = 4 * 1024;
/// The linear engine's compiled-program limit, in bytes.
const LINEAR_SIZE_LIMIT: usize = 4 * 1024 * 1024;
/// How long one backtracking match may take.
pub const BACKTRACKING_BUDGET: Duration = Duration::from_millis(100);

/// JavaScript's `\s`: WhiteSpace and LineTerminator.
const JS_SPACE: &str = r"\t\n\x{0B}\x{0C}\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const JS_DIGIT: &str = "0-9";
const JS_WORD: &str = "0-9A-Za-z_";

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
    Regex(Box<RegexMatcher>),
    /// Does not compile (or is too large): the hook runs anyway (SPEC
    /// §4.4); the string is the complaint.
    Invalid(String),
}

/// A regex matcher on its engine.
#[derive(Debug)]
pub enum RegexMatcher {
    /// Translated: linear time.
    Linear(regex::Regex),
    /// Look-around or back-references: backtracking, under a time budget.
    Backtracking {
        regex: Arc<regress::Regex>,
        /// A quantifier inside a quantified group (`(a+)+`): the shape
        /// whose matching time can double with each character.
        nested_quantifier: bool,
        /// A match already ran out of time: later ones are not tried (each
        /// would leave one more worker thread spinning).
        exhausted: AtomicBool,
    },
}

/// What one match said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchOutcome {
    Match,
    NoMatch,
    /// The backtracking engine ran out of time: the matcher cannot filter.
    OutOfTime,
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

/// [`Matcher::list_names`] as bytes: every list character is ASCII, so
/// the pattern is checked and split byte by byte (a fire judges every
/// list matcher of its event this way).
fn list_name_bytes(pattern: &str, strict_chars: bool) -> Option<impl Iterator<Item = &[u8]>> {
    pattern
        .bytes()
        .all(|b| b.is_ascii() && is_list_char(char::from(b), strict_chars))
        .then(|| {
            pattern
                .as_bytes()
                .split(|b| matches!(b, b'|' | b','))
                .map(<[u8]>::trim_ascii)
                .filter(|name| !name.is_empty())
        })
}

impl Matcher {
    /// The names of an exact-name list (`Bash`, `Edit|Write`, `a, b`),
    /// split and trimmed; `None` for a pattern that is a regex. The one
    /// reading of the list rules, for [`Matcher::compile`],
    /// [`Matcher::quick_verdict`] and `doctor`.
    pub fn list_names(pattern: &str, strict_chars: bool) -> Option<impl Iterator<Item = &str>> {
        list_name_bytes(pattern, strict_chars)
            .map(|names| names.map(|name| std::str::from_utf8(name).expect("list names are ASCII")))
    }

    /// The verdict on `value` for the forms that need no compiling: absent,
    /// `""`, `"*"` and exact-name lists, judged without allocating (as
    /// [`Matcher::compile`] then [`Matcher::matches`] would judge them).
    /// `None`: a regex, for [`Matcher::compile`].
    pub fn quick_verdict(pattern: Option<&str>, strict_chars: bool, value: &str) -> Option<bool> {
        match pattern {
            None | Some("" | "*") => Some(true),
            Some(pattern) => list_name_bytes(pattern, strict_chars)
                .map(|mut names| names.any(|name| name == value.as_bytes())),
        }
    }

    /// `strict_chars`: `FileChanged` and `StopFailure`, whose exact lists may only
    /// hold letters, digits, `_` and `|`.
    pub fn compile(pattern: Option<&str>, strict_chars: bool) -> Matcher {
        let pattern = match pattern {
            None | Some("" | "*") => return Matcher::All,
            Some(pattern) => pattern,
        };
        if let Some(names) = Matcher::list_names(pattern, strict_chars) {
            return Matcher::List(names.map(str::to_owned).collect());
        }
        if pattern.len() > MAX_REGEX_LEN {
            return Matcher::Invalid(format!(
                "it is {} bytes long; a regex matcher may have at most {MAX_REGEX_LEN} (list exact names with `|` instead, or match a shorter pattern)",
                pattern.len()
            ));
        }
        // JavaScript's verdict on validity, where its compiler is cheap
        // enough to ask.
        let js = if pattern.len() <= MAX_BACKTRACKING_LEN {
            match regress::Regex::new(pattern) {
                Ok(regex) => Some(regex),
                Err(error) => return Matcher::Invalid(error.to_string()),
            }
        } else {
            None
        };
        let translated = translate(pattern);
        if let Ok(translation) = &translated {
            let built = regex::RegexBuilder::new(&translation.rust)
                .size_limit(LINEAR_SIZE_LIMIT)
                .build();
            match built {
                Ok(regex) => return Matcher::Regex(Box::new(RegexMatcher::Linear(regex))),
                Err(error) if js.is_none() => {
                    return Matcher::Invalid(first_line(&error.to_string()));
                }
                Err(_) => {}
            }
        }
        match js {
            Some(regex) => Matcher::Regex(Box::new(RegexMatcher::Backtracking {
                regex: Arc::new(regex),
                nested_quantifier: translated.map_or_else(|n| n, |t| t.nested_quantifier),
                exhausted: AtomicBool::new(false),
            })),
            None => Matcher::Invalid(format!(
                "it is {} bytes long and needs look-around or back-references, which run on a backtracking engine; such a matcher may have at most {MAX_BACKTRACKING_LEN}",
                pattern.len()
            )),
        }
    }

    /// Whether `value` (the event's match field, `""` when missing) passes,
    /// within [`BACKTRACKING_BUDGET`]. An invalid matcher, or one that runs
    /// out of time, passes (it cannot filter).
    pub fn matches(&self, value: &str) -> bool {
        self.matches_until(value, None) != MatchOutcome::NoMatch
    }

    /// Like [`Matcher::matches`], within [`BACKTRACKING_BUDGET`] and never
    /// past `until`.
    pub fn matches_until(&self, value: &str, until: Option<Instant>) -> MatchOutcome {
        let yes = |matched: bool| {
            if matched {
                MatchOutcome::Match
            } else {
                MatchOutcome::NoMatch
            }
        };
        match self {
            Matcher::All | Matcher::Invalid(_) => MatchOutcome::Match,
            Matcher::List(names) => yes(names.iter().any(|name| name == value)),
            Matcher::Regex(regex) => match regex.as_ref() {
                RegexMatcher::Linear(regex) => yes(regex.is_match(value)),
                RegexMatcher::Backtracking {
                    regex, exhausted, ..
                } => {
                    if exhausted.load(Ordering::Relaxed) {
                        return MatchOutcome::OutOfTime;
                    }
                    let budget = until.map_or(BACKTRACKING_BUDGET, |until| {
                        BACKTRACKING_BUDGET.min(until.saturating_duration_since(Instant::now()))
                    });
                    let answer = backtrack_within(regex, value, budget);
                    if answer.is_none() {
                        exhausted.store(true, Ordering::Relaxed);
                    }
                    answer.map_or(MatchOutcome::OutOfTime, yes)
                }
            },
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

    /// True when the pattern runs on the backtracking engine (look-around
    /// or back-references).
    pub fn is_backtracking(&self) -> bool {
        matches!(self, Matcher::Regex(r) if matches!(r.as_ref(), RegexMatcher::Backtracking { .. }))
    }

    /// True when the pattern runs on the backtracking engine and has a
    /// quantifier inside a quantified group: its matching time can grow
    /// exponentially with the value's length, so it may hit the budget.
    pub fn may_blow_up(&self) -> bool {
        matches!(self, Matcher::Regex(r) if matches!(r.as_ref(), RegexMatcher::Backtracking { nested_quantifier: true, .. }))
    }

    /// The compiler's complaint when the pattern is not a valid regex.
    pub fn invalid_reason(&self) -> Option<&str> {
        match self {
            Matcher::Invalid(reason) => Some(reason),
            _ => None,
        }
    }
}

fn first_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .rfind(|line| line.starts_with("error:"))
        .unwrap_or_else(|| text.lines().next().unwrap_or(text))
        .to_owned()
}

/// Runs the backtracking engine on a worker thread; `None` when it did not
/// answer within `budget` (the thread is then left to finish on its own: it
/// holds nothing but its copies, and the process does not wait for it).
fn backtrack_within(regex: &Arc<regress::Regex>, value: &str, budget: Duration) -> Option<bool> {
    if budget.is_zero() {
        return None;
    }
    let (tx, rx) = mpsc::sync_channel(1);
    let regex = Arc::clone(regex);
    let value = value.to_owned();
    let worker = std::thread::Builder::new()
        .name("hookrun-matcher".into())
        .spawn(move || {
            let _ = tx.send(regex.find(&value).is_some());
        })
        .ok()?;
    let answer = rx.recv_timeout(budget).ok()?;
    // It answered, so it is ending: wait for it rather than leave a thread
    // behind (only one that ran out of time is left to finish).
    let _ = worker.join();
    Some(answer)
}

/// A pattern in the linear engine's syntax.
#[derive(Debug)]
struct Translation {
    rust: String,
    nested_quantifier: bool,
}

/// Translates a JavaScript pattern (no flags, Annex B syntax) to the `regex`
/// crate's syntax with the same meaning, or says it cannot: `Err` carries
/// whether a quantifier sits inside a quantified group, for the
/// backtracking engine's `doctor` check. Never accepts what it does not
/// fully understand; the caller has already asked `regress` whether the
/// pattern is valid JavaScript.
fn translate(pattern: &str) -> Result<Translation, bool> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() * 2);
    // Per open group: whether a quantifier appeared inside it.
    let mut groups: Vec<bool> = Vec::new();
    let mut nested = false;
    // Whether the atom just emitted was a group whose inside has a quantifier.
    let mut last_group_quantified = false;
    let mut unsupported = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let mut atom_group_quantified = false;
        match c {
            '\\' => {
                if let Some((text, next)) = escape(&chars, i + 1, false) {
                    out.push_str(&text);
                    i = next;
                    last_group_quantified = false;
                    continue;
                }
                unsupported = true;
                i += 1;
            }
            '.' => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '^' | '$' | '|' => out.push(c),
            '(' => {
                let Some((inside, odd)) = group_start(&chars, i) else {
                    return Err(nested);
                };
                unsupported |= odd;
                out.push_str("(?:");
                groups.push(false);
                i = inside;
                last_group_quantified = false;
                continue;
            }
            ')' => {
                let inner = groups.pop().unwrap_or(false);
                if let Some(outer) = groups.last_mut() {
                    *outer |= inner;
                }
                out.push(')');
                atom_group_quantified = inner;
            }
            '*' | '+' | '?' => {
                out.push(c);
                quantified(&mut groups, &mut nested, last_group_quantified);
                if chars.get(i + 1) == Some(&'?') {
                    out.push('?');
                    i += 1;
                }
            }
            '{' => {
                if let Some((text, next)) = counted(&chars, i) {
                    out.push_str(&text);
                    quantified(&mut groups, &mut nested, last_group_quantified);
                    i = next;
                    if chars.get(i) == Some(&'?') {
                        out.push('?');
                        i += 1;
                    }
                    last_group_quantified = false;
                    continue;
                }
                out.push_str(r"\{");
            }
            '}' => out.push_str(r"\}"),
            ']' => out.push_str(r"\]"),
            '[' => match class(&chars, i) {
                Some((text, next)) => {
                    out.push_str(&text);
                    i = next;
                    last_group_quantified = false;
                    continue;
                }
                None => {
                    unsupported = true;
                }
            },
            other => push_literal(&mut out, other),
        }
        last_group_quantified = atom_group_quantified;
        i += 1;
    }
    if unsupported {
        return Err(nested);
    }
    Ok(Translation {
        rust: out,
        nested_quantifier: nested,
    })
}

/// After the `(` at `chars[i]`: where the group's inside starts, and
/// whether its kind is one the translation does not support (look-ahead,
/// look-behind, a name of other characters); `None` when a group's name
/// never closes. A name does not change what matches.
fn group_start(chars: &[char], i: usize) -> Option<(usize, bool)> {
    if chars.get(i + 1) != Some(&'?') {
        return Some((i + 1, false));
    }
    match (chars.get(i + 2), chars.get(i + 3)) {
        (Some(':'), _) => Some((i + 3, false)),
        (Some('<'), Some(n)) if *n != '=' && *n != '!' => {
            let close = chars[i + 3..].iter().position(|&c| c == '>')?;
            let odd = !chars[i + 3..i + 3 + close]
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$');
            Some((i + 4 + close, odd))
        }
        // Look-ahead or look-behind.
        _ => Some((i + 3, true)),
    }
}

fn quantified(groups: &mut [bool], nested: &mut bool, on_quantified_group: bool) {
    if on_quantified_group {
        *nested = true;
    }
    if let Some(top) = groups.last_mut() {
        *top = true;
    }
}

fn push_literal(out: &mut String, c: char) {
    use std::fmt::Write as _;
    if c.is_ascii_alphanumeric() || c == '_' || c == ' ' {
        out.push(c);
    } else {
        let _ = write!(out, r"\x{{{:X}}}", u32::from(c));
    }
}

fn hex(chars: &[char], from: usize, len: usize) -> Option<u32> {
    let digits: String = chars.get(from..from + len)?.iter().collect();
    if digits.chars().all(|c| c.is_ascii_hexdigit()) {
        u32::from_str_radix(&digits, 16).ok()
    } else {
        None
    }
}

/// One escape at `chars[at..]` (after the backslash): its translation and
/// the index after it, or `None` when the linear engine cannot take it
/// (back-references, `\k`, `\p`, lone surrogates, letters JavaScript reads
/// as themselves).
fn escape(chars: &[char], at: usize, in_class: bool) -> Option<(String, usize)> {
    let e = *chars.get(at)?;
    let literal = |c: char| {
        let mut s = String::new();
        push_literal(&mut s, c);
        s
    };
    let set = |body: &str, negated: bool| {
        let caret = if negated { "^" } else { "" };
        format!("[{caret}{body}]")
    };
    Some(match e {
        'd' => (set(JS_DIGIT, false), at + 1),
        'D' => (set(JS_DIGIT, true), at + 1),
        'w' => (set(JS_WORD, false), at + 1),
        'W' => (set(JS_WORD, true), at + 1),
        's' => (set(JS_SPACE, false), at + 1),
        'S' => (set(JS_SPACE, true), at + 1),
        'b' if in_class => (literal('\u{8}'), at + 1),
        'b' => (r"(?-u:\b)".to_owned(), at + 1),
        'B' if !in_class => (r"(?-u:\B)".to_owned(), at + 1),
        't' => (literal('\t'), at + 1),
        'n' => (literal('\n'), at + 1),
        'r' => (literal('\r'), at + 1),
        'v' => (literal('\u{B}'), at + 1),
        'f' => (literal('\u{C}'), at + 1),
        '0' if !chars.get(at + 1).is_some_and(char::is_ascii_digit) => (literal('\0'), at + 1),
        'x' => {
            let code = hex(chars, at + 1, 2)?;
            (literal(char::from_u32(code)?), at + 3)
        }
        'u' => {
            let code = hex(chars, at + 1, 4)?;
            (literal(char::from_u32(code)?), at + 5)
        }
        'c' => {
            let letter = chars.get(at + 1).filter(|c| c.is_ascii_alphabetic())?;
            (literal(char::from_u32(u32::from(*letter) % 32)?), at + 2)
        }
        // Syntax characters and other punctuation stand for themselves.
        e if e.is_ascii_punctuation() => (literal(e), at + 1),
        e if !e.is_ascii() && !e.is_alphanumeric() => (literal(e), at + 1),
        _ => return None,
    })
}

/// `{n}`, `{n,}` or `{n,m}` at `chars[at]`; `None` when it is a literal
/// brace (Annex B).
fn counted(chars: &[char], at: usize) -> Option<(String, usize)> {
    let close = at + chars[at..].iter().position(|&c| c == '}')?;
    let body: String = chars[at + 1..close].iter().collect();
    let (low, high) = match body.split_once(',') {
        Some((low, high)) => (low, Some(high)),
        None => (body.as_str(), None),
    };
    let number = |text: &str| !text.is_empty() && text.chars().all(|c| c.is_ascii_digit());
    if !number(low) || high.is_some_and(|h| !h.is_empty() && !number(h)) {
        return None;
    }
    Some((format!("{{{body}}}"), close + 1))
}

/// A character class at `chars[at] == '['`: its translation and the index
/// after its `]`, or `None` when the linear engine cannot take it.
fn class(chars: &[char], at: usize) -> Option<(String, usize)> {
    let mut i = at + 1;
    let mut out = String::from("[");
    if chars.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        // `[]` matches nothing and `[^]` everything.
        return if out == "[^" {
            Some((r"[\x{0}-\x{10FFFF}]".to_owned(), i + 1))
        } else {
            None
        };
    }
    // One class atom: a single character, or a set from an escape.
    let atom = |i: usize| -> Option<(Result<char, String>, usize)> {
        let c = *chars.get(i)?;
        if c != '\\' {
            return Some((Ok(c), i + 1));
        }
        let e = *chars.get(i + 1)?;
        if matches!(e, 'd' | 'D' | 'w' | 'W' | 's' | 'S') {
            let (text, next) = escape(chars, i + 1, true)?;
            return Some((Err(text), next));
        }
        if e == '-' {
            return Some((Ok('-'), i + 2));
        }
        let (_, next) = escape(chars, i + 1, true)?;
        // Decode the single character the escape stands for.
        let decoded = match e {
            'b' => '\u{8}',
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            'v' => '\u{B}',
            'f' => '\u{C}',
            '0' => '\0',
            'x' => char::from_u32(hex(chars, i + 2, 2)?)?,
            'u' => char::from_u32(hex(chars, i + 2, 4)?)?,
            'c' => char::from_u32(u32::from(chars[i + 2]) % 32)?,
            other => other,
        };
        Some((Ok(decoded), next))
    };
    loop {
        let c = *chars.get(i)?;
        if c == ']' {
            out.push(']');
            return Some((out, i + 1));
        }
        let (first, next) = atom(i)?;
        i = next;
        match first {
            Err(set) => {
                if chars.get(i) == Some(&'-') && chars.get(i + 1) != Some(&']') {
                    return None; // `[\d-z]`: Annex B oddity.
                }
                out.push_str(&set);
            }
            Ok(low) => {
                if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&c| c != ']') {
                    let (high, next) = atom(i + 1)?;
                    let high = high.ok()?;
                    if high < low {
                        return None;
                    }
                    push_literal(&mut out, low);
                    out.push('-');
                    push_literal(&mut out, high);
                    i = next;
                } else {
                    push_literal(&mut out, low);
                }
            }
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
    fn the_quick_verdict_agrees_with_the_compiled_matcher() {
        let patterns = [
            None,
            Some(""),
            Some("*"),
            Some("Bash"),
            Some("Bash|Read"),
            Some("Edit0|Write0"),
            Some("Bash|"),
            Some("|"),
            Some(" Bash , Read "),
            Some("Bash-x"),
            Some("mcp__s__t"),
            Some("Bas"),
            Some("B.*"),
            Some("^Bash$"),
            Some("Bash|R.ad"),
        ];
        let values = ["Bash", "Read", "", "Bash-x", "mcp__s__t", "Edit0", "bash"];
        for pattern in patterns {
            for strict in [false, true] {
                let compiled = Matcher::compile(pattern, strict);
                for value in values {
                    match Matcher::quick_verdict(pattern, strict, value) {
                        Some(verdict) => {
                            assert!(
                                matches!(compiled, Matcher::All | Matcher::List(_)),
                                "{pattern:?} {strict}"
                            );
                            assert_eq!(
                                verdict,
                                compiled.matches(value),
                                "{pattern:?} on {value:?}"
                            );
                        }
                        None => assert!(
                            !matches!(compiled, Matcher::All | Matcher::List(_)),
                            "{pattern:?} {strict}"
                        ),
                    }
                }
            }
        }
    }

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
        assert!(names.is_empty(), "{names:?}");
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

#[cfg(test)]
mod bounded {
    use super::*;
    use proptest::prelude::*;

    fn linear(pattern: &str) -> bool {
        matches!(Matcher::compile(Some(pattern), false), Matcher::Regex(r) if matches!(*r, RegexMatcher::Linear(_)))
    }

    #[test]
    fn patterns_without_look_around_run_in_linear_time() {
        for pattern in [
            "(a+)+$",
            "^(a|aa)+$",
            "(x+x+)+y",
            "B.*",
            r"\d+\s\w\b",
            "[^]",
            "a{2,3}",
            "(?<name>Bash)",
            r"\u0041\x42\cJ",
            "[a-z\\]]+",
        ] {
            assert!(linear(pattern), "{pattern:?} should be linear");
        }
        for pattern in [
            "^(?!Bash$).*",
            "(?<=Notebook)Edit",
            r"^(a)\1$",
            r"\k<x>(?<x>a)",
        ] {
            assert!(
                !linear(pattern),
                "{pattern:?} needs the backtracking engine"
            );
        }
    }

    #[test]
    fn catastrophic_backtracking_pattern_answers_at_once() {
        // Exponential on a backtracking engine: 30 `a`s and a `!`.
        let value = format!("{}!", "a".repeat(30));
        let started = Instant::now();
        let matcher = Matcher::compile(Some("(a+)+$"), false);
        assert!(!matcher.is_backtracking());
        assert_eq!(matcher.matches_until(&value, None), MatchOutcome::NoMatch);
        assert_eq!(matcher.matches_until("baaa", None), MatchOutcome::Match);
        let matcher = Matcher::compile(Some("^(a|aa)+$"), false);
        assert_eq!(matcher.matches_until(&value, None), MatchOutcome::NoMatch);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn backtracking_pattern_that_runs_out_of_time_does_not_filter() {
        // Look-ahead forces the backtracking engine; `(a+)+` blows up.
        let matcher = Matcher::compile(Some("^(?=a)(a+)+$"), false);
        assert!(matcher.is_backtracking());
        assert!(matcher.may_blow_up());
        let value = format!("{}!", "a".repeat(40));
        let started = Instant::now();
        assert_eq!(matcher.matches_until(&value, None), MatchOutcome::OutOfTime);
        assert!(matcher.matches(&value), "out of time: does not filter");
        // Once out of time, not tried again (no second spinning worker).
        assert_eq!(matcher.matches_until("a", None), MatchOutcome::OutOfTime);
        assert!(started.elapsed() < Duration::from_secs(5));
        // A deadline already past: no time at all.
        let matcher = Matcher::compile(Some("^(?=a)(a+)+$"), false);
        let past = Instant::now();
        assert_eq!(
            matcher.matches_until("aaa", Some(past)),
            MatchOutcome::OutOfTime
        );
        // Harmless look-around is not flagged.
        assert!(!Matcher::compile(Some("^(?!Bash$).*"), false).may_blow_up());
    }

    /// Fuzz finding (matcher target, LeakSanitizer): a look-behind matcher
    /// that answered in time left its worker thread still exiting.
    #[test]
    fn a_worker_that_answered_is_joined() {
        let matcher = Matcher::compile(Some("(?<=Not@be=Noto@ebk)Not"), false);
        assert!(matcher.is_backtracking());
        assert_eq!(matcher.matches_until("Bash", None), MatchOutcome::NoMatch);
        assert_eq!(
            matcher.matches_until("Not@be=Noto@ebkNot", None),
            MatchOutcome::Match
        );
    }

    #[test]
    fn huge_alternations_are_bounded_with_a_clear_error() {
        // 100,000 alternatives: too long, said so, no stack overflow.
        let huge: String = (0..100_000)
            .map(|i| format!("a{i}."))
            .collect::<Vec<_>>()
            .join("|");
        let started = Instant::now();
        let matcher = Matcher::compile(Some(&huge), false);
        let reason = matcher.invalid_reason().expect("too large");
        assert!(reason.contains("bytes long"), "{reason}");
        assert!(matcher.matches("anything"));
        // Just under the limit: linear engine, quickly.
        let big: String = (0..800)
            .map(|i| format!("t{i}."))
            .collect::<Vec<_>>()
            .join("|");
        assert!(big.len() > MAX_BACKTRACKING_LEN && big.len() < MAX_REGEX_LEN);
        let matcher = Matcher::compile(Some(&big), false);
        assert!(matcher.is_regex());
        assert!(matcher.matches("xt799!"));
        assert!(!matcher.matches("Bash"));
        // A long backtracking-only pattern is refused with its own reason.
        let look = format!("(?=B){}", "a|".repeat(3000));
        let reason = Matcher::compile(Some(&look), false);
        assert!(reason.invalid_reason().unwrap().contains("backtracking"));
        // Deep nesting is an error too.
        let deep = format!("{}a{}", "(".repeat(5000), ")".repeat(5000));
        assert!(
            Matcher::compile(Some(&deep), false)
                .invalid_reason()
                .is_some()
        );
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn javascript_meanings_survive_translation() {
        let cases: &[(&str, &str, bool)] = &[
            (r"\d", "٣", false),
            (r"\w", "é", false),
            (r"\bé", "é", false),
            (r"a\b", "aé", true),
            (r"\s", "\u{A0}", true),
            (r"\s", "\u{85}", false),
            (".", "\r", false),
            (".", "\u{2028}", false),
            ("[^]", "\n", true),
            ("a{", "a{", true),
            ("a{1,2", "a{1,2", true),
            ("x{2}", "xx", true),
            ("}", "}", true),
            ("]", "]", true),
            (r"[\b]", "\u{8}", true),
            (r"\cJ", "\n", true),
            (r"[\w-]", "-", true),
            ("[a-c]", "b", true),
            (r"\$", "$", true),
            (r"Bash\(", "Bash(", true),
        ];
        for &(pattern, value, expected) in cases {
            let matcher = Matcher::compile(Some(pattern), false);
            assert_eq!(
                matcher.matches(value),
                expected,
                "{pattern:?} vs {value:?} ({matcher:?})"
            );
        }
    }

    fn js(pattern: &str, value: &str) -> Option<bool> {
        regress::Regex::new(pattern)
            .ok()
            .map(|r| r.find(value).is_some())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]
        /// The linear engine agrees with JavaScript semantics (regress) on
        /// every pattern it accepts.
        #[test]
        fn linear_engine_agrees_with_javascript(
            pattern in r"[ab.|()*+?{}\[\]^$\\dws,1-3-]{1,12}",
            value in "[ab1 \n_-]{0,8}",
        ) {
            let matcher = Matcher::compile(Some(&pattern), false);
            if let Some(expected) = js(&pattern, &value) {
                // Only the linear engine: a pattern left to the backtracking
                // one runs on regress itself, under a time budget that a
                // loaded machine can exceed (and an unanswered match counts
                // as a match), which would make this test flaky.
                if linear(&pattern) {
                    prop_assert_eq!(matcher.matches(&value), expected, "{:?} vs {:?}", pattern, value);
                }
            } else {
                prop_assert!(matcher.invalid_reason().is_some() || matcher.is_list() || pattern == "*");
            }
        }

        /// The list form is the anchored alternation of its names.
        #[test]
        fn list_agrees_with_the_anchored_regex(
            names in proptest::collection::vec("[A-Za-z_][A-Za-z0-9_]{0,5}", 1..5),
            value in "[A-Za-z0-9_]{0,6}",
        ) {
            let list = Matcher::compile(Some(&names.join("|")), false);
            prop_assert!(list.is_list());
            let regex = Matcher::compile(Some(&format!("^({})$", names.join("|"))), false);
            prop_assert!(regex.is_regex());
            prop_assert_eq!(list.matches(&value), regex.matches(&value));
            let picked = &names[value.len() % names.len()];
            prop_assert!(list.matches(picked) && regex.matches(picked));
        }
    }
}

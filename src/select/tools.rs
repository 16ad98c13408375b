//! Tool names the common hosts send, and the checks that compare a matcher
//! or an `if` tool part with them. Pure.
//!
//! Tool names are exact and case-sensitive (SPEC §4.2), unlike event names,
//! and hosts disagree on the convention: Claude Code sends `Bash`, Gemini CLI
//! `run_shell_command`. A name copied from one host's docs into another's
//! config, or lower-cased by habit, never matches — silently. The names are
//! each host's own facts (`host::<name>::TOOL_NAMES`): the tools that reach
//! hookrun's matchers under their own name. A host tool hookrun translates
//! (`run_shell_command` → `Bash`) reaches them under Claude Code's name, so
//! only that name is known.

use crate::catalog;
use crate::select::matcher::Matcher;

/// One host's tool names.
pub struct HostTools {
    pub host: &'static str,
    pub tools: &'static [&'static str],
}

/// The tables, most common host first.
pub static HOSTS: &[HostTools] = TABLES;

/// [`HOSTS`], as a constant the compile-time [`SHAPES`] are built from.
const TABLES: &[HostTools] = &[
    HostTools {
        host: "Claude Code",
        tools: crate::host::claude::TOOL_NAMES,
    },
    HostTools {
        host: "Gemini CLI",
        tools: crate::host::gemini::TOOL_NAMES,
    },
    HostTools {
        host: "Codex",
        tools: crate::host::codex::TOOL_NAMES,
    },
    HostTools {
        host: "Copilot CLI",
        tools: crate::host::copilot::TOOL_NAMES,
    },
    HostTools {
        host: "Cursor",
        tools: crate::host::cursor::TOOL_NAMES,
    },
    HostTools {
        host: "Cline",
        tools: crate::host::cline::TOOL_NAMES,
    },
    HostTools {
        host: "Qwen Code",
        tools: crate::host::qwen::TOOL_NAMES,
    },
    HostTools {
        host: "Factory Droid",
        tools: crate::host::droid::TOOL_NAMES,
    },
];

/// Every known tool name with its host, in table order.
pub fn known_tools() -> impl Iterator<Item = (&'static str, &'static str)> {
    HOSTS
        .iter()
        .flat_map(|h| h.tools.iter().map(move |t| (*t, h.host)))
}

pub fn is_known(name: &str) -> bool {
    known_tools().any(|(tool, _)| tool == name)
}

/// What is wrong with a tool name written in a matcher list or an `if` rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameIssue {
    /// Differs from known names only in case or `_`/`-` (`bash` vs `Bash`).
    Case(Vec<(&'static str, &'static str)>),
    /// Close to a known name (`Bsh` vs `Bash`).
    Typo(Vec<(&'static str, &'static str)>),
    /// A host's own name for a tool hookrun translates (Gemini's
    /// `run_shell_command`): matchers see the Claude Code name. (host,
    /// Claude Code name).
    Translated(&'static str, &'static str),
}

/// The host and Claude Code name of a host tool name hookrun translates.
pub fn translated(name: &str) -> Option<(&'static str, &'static str)> {
    crate::host::HOSTS.iter().find_map(|h| {
        let facts = h.facts();
        facts
            .tools
            .iter()
            .find(|row| row.host == name && row.host != row.claude)
            .map(|row| (facts.display, row.claude))
    })
}

/// Checks one exact tool name. Known names, MCP tools (`mcp__…`) and names
/// near nothing known (a home-made host's own tools) pass.
pub fn check_name(name: &str) -> Option<NameIssue> {
    if name.is_empty() || is_known(name) || name.starts_with("mcp__") {
        return None;
    }
    let case = case_variants(name);
    if !case.is_empty() {
        return Some(NameIssue::Case(case));
    }
    if let Some((host, claude)) = translated(name) {
        return Some(NameIssue::Translated(host, claude));
    }
    let folded = catalog::fold_name(name);
    if folded.chars().count() < 4 {
        return None;
    }
    let lower = name.to_lowercase();
    let best = known_tools()
        .map(|(tool, host)| {
            (
                catalog::edit_distance(&tool.to_lowercase(), &lower),
                tool,
                host,
            )
        })
        .filter(|(distance, _, _)| *distance <= 2)
        .min_by_key(|(distance, _, _)| *distance)?;
    let typo = known_tools()
        .filter(|(tool, _)| catalog::edit_distance(&tool.to_lowercase(), &lower) == best.0)
        .collect();
    Some(NameIssue::Typo(typo))
}

/// The known tools a name differs from only in case or `_`/`-` (the
/// [`NameIssue::Case`] half of [`check_name`]), for the fire-time warning:
/// no edit distances, no hashing, and no allocation for a name that folds
/// to no known tool (a fire checks every name of every list matcher of its
/// event, so most names are ordinary ones such as `Edit0`).
pub fn case_variants(name: &str) -> Vec<(&'static str, &'static str)> {
    if name.starts_with("mcp__") {
        return Vec::new();
    }
    // First the last byte that folding keeps: when it is ASCII, it is the
    // folded name's last character, and most names (`Edit0`) end in one no
    // known tool's folded name ends in.
    match name.bytes().rfind(|c| !matches!(c, b'_' | b'-')) {
        None => return Vec::new(),
        Some(byte) if byte.is_ascii() && LAST_BYTES & (1 << byte.to_ascii_lowercase()) == 0 => {
            return Vec::new();
        }
        Some(_) => {}
    }
    // Every known tool name is ASCII. One pass over the name for its
    // folded length and first and last folded bytes: most names fold to no
    // known tool, which these say in a few instructions (a table built at
    // compile time), before anything is compared.
    let mut len = 0;
    let (mut first, mut last) = (0_u8, 0_u8);
    for byte in name.bytes() {
        if !byte.is_ascii() {
            return non_ascii_case_variants(name);
        }
        if matches!(byte, b'_' | b'-') {
            continue;
        }
        let byte = byte.to_ascii_lowercase();
        if len == 0 {
            first = byte;
        }
        last = byte;
        len += 1;
    }
    // No known tool folds to nothing, or to more than FOLDED_MAX bytes.
    let (Some(firsts), Some(lasts)) = (SHAPES.first.get(len), SHAPES.last.get(len)) else {
        return Vec::new();
    };
    if len == 0 || firsts & bit(first) == 0 || lasts & bit(last) == 0 {
        return Vec::new();
    }
    let mut near = Vec::new();
    for (tool, host) in known_tools() {
        if tool.len() < len || !ascii_fold(tool).eq(ascii_fold(name)) {
            continue;
        }
        // A known name as written (`Bash`, `glob`) is never a case
        // variant of another.
        if tool == name {
            return Vec::new();
        }
        near.push((tool, host));
    }
    near
}

/// [`case_variants`] of a name that is not ASCII, so not a known name as
/// written.
fn non_ascii_case_variants(name: &str) -> Vec<(&'static str, &'static str)> {
    let name_folded = || {
        name.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
    };
    known_tools()
        .filter(|(tool, _)| {
            tool.chars()
                .filter(|c| *c != '_' && *c != '-')
                .flat_map(char::to_lowercase)
                .eq(name_folded())
        })
        .collect()
}

/// The bytes of an ASCII name as [`catalog::fold_name`] folds it.
fn ascii_fold(name: &str) -> impl Iterator<Item = u8> + '_ {
    name.bytes()
        .filter(|c| !matches!(c, b'_' | b'-'))
        .map(|c| c.to_ascii_lowercase())
}

/// The longest folded name [`case_variants`] looks up; a unit test holds
/// every known tool's folded name to it.
const FOLDED_MAX: usize = 48;

/// By folded length, which first and last bytes (as [`bit`]s) the
/// known tools' folded names have.
struct Shapes {
    first: [u64; FOLDED_MAX + 1],
    last: [u64; FOLDED_MAX + 1],
}

/// A folded name's first or last byte as one of a table's bits (modulo 64).
const fn bit(byte: u8) -> u64 {
    1 << (byte % 64)
}

static SHAPES: Shapes = shapes(TABLES);

/// The last bytes of the known tools' folded names, as bits of ASCII.
const LAST_BYTES: u128 = last_bytes(TABLES);

const fn last_bytes(hosts: &[HostTools]) -> u128 {
    let mut bits = 0_u128;
    let mut h = 0;
    while h < hosts.len() {
        let tools = hosts[h].tools;
        let mut t = 0;
        while t < tools.len() {
            let bytes = tools[t].as_bytes();
            let mut i = bytes.len();
            while i > 0 && (bytes[i - 1] == b'_' || bytes[i - 1] == b'-') {
                i -= 1;
            }
            if i > 0 {
                // Not ASCII fails the build here.
                bits |= 1 << bytes[i - 1].to_ascii_lowercase();
            }
            t += 1;
        }
        h += 1;
    }
    bits
}

/// [`SHAPES`], computed at compile time from the tables.
const fn shapes(hosts: &[HostTools]) -> Shapes {
    let mut shapes = Shapes {
        first: [0; FOLDED_MAX + 1],
        last: [0; FOLDED_MAX + 1],
    };
    let mut h = 0;
    while h < hosts.len() {
        let tools = hosts[h].tools;
        let mut t = 0;
        while t < tools.len() {
            let mut folded = [0_u8; FOLDED_MAX];
            let mut len = 0;
            let bytes = tools[t].as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i] != b'_' && bytes[i] != b'-' {
                    // A name too long for the buffer fails the build here.
                    folded[len] = bytes[i].to_ascii_lowercase();
                    len += 1;
                }
                i += 1;
            }
            if len > 0 {
                shapes.first[len] |= bit(folded[0]);
                shapes.last[len] |= bit(folded[len - 1]);
            }
            t += 1;
        }
        h += 1;
    }
    shapes
}

/// `Bash` (Claude Code), `bash` (…): for messages.
pub fn describe(candidates: &[(&str, &str)]) -> String {
    candidates
        .iter()
        .map(|(tool, host)| format!("`{tool}` ({host})"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// A regex matcher that names a tool but, searched unanchored, also matches
/// other known tools (`Edit.*` also matches `NotebookEdit` and `MultiEdit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overmatch {
    /// Known tools the pattern names literally.
    pub meant: Vec<&'static str>,
    /// Other known tools it matches too.
    pub also: Vec<&'static str>,
}

/// Looks for [`Overmatch`]. Only patterns that literally name, and match, at
/// least one known tool are judged: `[BR].*` or `.*` say nothing about
/// intent, and `^(?!Bash$)` names Bash to exclude it.
pub fn overmatch(pattern: &str, matcher: &Matcher) -> Option<Overmatch> {
    if !matcher.is_regex() {
        return None;
    }
    let words = literal_words(pattern);
    let meant: Vec<&'static str> = known_tools()
        .map(|(tool, _)| tool)
        .filter(|tool| words.iter().any(|w| w == tool) && matcher.matches(tool))
        .collect();
    if meant.is_empty() {
        return None;
    }
    let mut also: Vec<&'static str> = known_tools()
        .map(|(tool, _)| tool)
        .filter(|tool| !meant.contains(tool) && matcher.matches(tool))
        .collect();
    also.dedup();
    (!also.is_empty()).then_some(Overmatch { meant, also })
}

/// A regex matcher that matches no known tool, but would ignoring case
/// (`bash.*`, `^edit$`).
pub fn regex_case_miss(pattern: &str, matcher: &Matcher) -> Vec<(&'static str, &'static str)> {
    if !matcher.is_regex() || known_tools().any(|(tool, _)| matcher.matches(tool)) {
        return Vec::new();
    }
    let Ok(insensitive) = regress::Regex::with_flags(pattern, "i") else {
        return Vec::new();
    };
    known_tools()
        .filter(|(tool, _)| insensitive.find(tool).is_some())
        .collect()
}

/// The runs of word characters a regex spells out literally: escapes
/// (`\d`, `\w`) and character classes (`[A-Z]`) are skipped.
fn literal_words(pattern: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        if c == '\\' {
            chars.next();
            flush(&mut current, &mut words);
            continue;
        }
        if in_class {
            in_class = c != ']';
            continue;
        }
        if c == '[' {
            in_class = true;
            flush(&mut current, &mut words);
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            current.push(c);
        } else {
            flush(&mut current, &mut words);
        }
    }
    flush(&mut current, &mut words);
    words
}

fn flush(current: &mut String, words: &mut Vec<String>) {
    if !current.is_empty() {
        words.push(std::mem::take(current));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_tool_folds_within_the_lookup_buffer() {
        for (tool, _) in known_tools() {
            assert!(catalog::fold_name(tool).len() <= FOLDED_MAX, "{tool}");
            // Too long for the buffer: no known tool either way.
            let long = format!("{tool}{}", "x".repeat(FOLDED_MAX));
            assert!(case_variants(&long).is_empty(), "{tool}");
        }
    }

    /// What [`case_variants`] answers, the slow and obvious way.
    fn case_variants_by_folding(name: &str) -> Vec<(&'static str, &'static str)> {
        if name.is_empty() || name.starts_with("mcp__") || is_known(name) {
            return Vec::new();
        }
        let folded = catalog::fold_name(name);
        known_tools()
            .filter(|(tool, _)| catalog::fold_name(tool) == folded)
            .collect()
    }

    #[test]
    fn case_variants_agree_with_folding_on_names_that_almost_match() {
        let mut names: Vec<String> = [
            "",
            "_",
            "-",
            "__",
            "a",
            "B",
            "bash",
            "BASH",
            "b_ash-",
            "Bosh",
            "Bask",
            "Cash",
            "Bashh",
            "ls",
            "Ls",
            "lS",
            "L-S",
            "lsp",
            "LSP",
            "Lsp",
            "glob",
            "Glob",
            "GLOB",
            "g_lob",
            "Edit0",
            "Write0",
            "Edit",
            "edit",
            "EDIT",
            "Edi",
            "Exit",
            "Edjt",
            "ReadFile",
            "readfile",
            "read-file",
            "Read_File",
            "readFilf",
            "mcp__x__y",
            "MCP__x",
            "\u{212a}illShell",
            "K\u{e9}llShell",
            "Tas\u{212a}",
            "tas\u{212a}_",
            "Bash\u{e4}",
            "b\u{e4}sh",
        ]
        .map(str::to_owned)
        .to_vec();
        for (tool, _) in known_tools() {
            let mut variants = vec![
                tool.to_owned(),
                tool.to_lowercase(),
                tool.to_uppercase(),
                format!("{tool}_"),
                format!("-{tool}"),
                format!("{tool}x"),
                format!("x{tool}"),
                tool[1..].to_owned(),
                tool[..tool.len() - 1].to_owned(),
                tool.replace('_', ""),
                tool.replace('_', "-"),
            ];
            // One byte changed, at every place, keeping first and last.
            for at in 0..tool.len() {
                let mut bytes = tool.as_bytes().to_vec();
                bytes[at] = if bytes[at] == b'q' { b'z' } else { b'q' };
                variants.push(String::from_utf8(bytes).unwrap());
                let mut toggled = tool.as_bytes().to_vec();
                toggled[at] ^= 0x20;
                if toggled[at].is_ascii() {
                    variants.push(String::from_utf8(toggled).unwrap());
                }
            }
            names.extend(variants);
        }
        let mut warned = 0;
        for name in &names {
            let expected = case_variants_by_folding(name);
            warned += usize::from(!expected.is_empty());
            assert_eq!(case_variants(name), expected, "{name:?}");
        }
        // The list is not all misses.
        assert!(warned > 100, "{warned}");
        // A last character that folds to ASCII (the Kelvin sign).
        assert_eq!(case_variants("tas\u{212a}_"), [("Task", "Claude Code")]);
    }

    fn compile(pattern: &str) -> Matcher {
        Matcher::compile(Some(pattern), false)
    }

    #[test]
    fn names_differing_in_case_or_separators() {
        assert_eq!(check_name("Bash"), None);
        assert_eq!(check_name("mcp__github__create_issue"), None);
        assert_eq!(check_name("my_custom_tool"), None);
        assert_eq!(
            check_name("bash"),
            Some(NameIssue::Case(vec![("Bash", "Claude Code")]))
        );
        assert_eq!(
            check_name("notebook_edit"),
            Some(NameIssue::Case(vec![("NotebookEdit", "Claude Code")]))
        );
        // Gemini's `read_file` reaches matchers as `Read`: written as
        // Gemini spells it, it never matches.
        assert_eq!(check_name("ReadFile"), None);
        assert_eq!(
            check_name("run_shell_command"),
            Some(NameIssue::Translated("Gemini CLI", "Bash"))
        );
        assert_eq!(
            check_name("SaveMemory"),
            Some(NameIssue::Case(vec![
                ("save_memory", "Gemini CLI"),
                ("save_memory", "Qwen Code")
            ]))
        );
        assert_eq!(
            check_name("GLOB"),
            Some(NameIssue::Case(vec![("Glob", "Claude Code")]))
        );
    }

    #[test]
    fn near_names_are_typos() {
        assert_eq!(
            check_name("Bsah"),
            Some(NameIssue::Typo(vec![("Bash", "Claude Code")]))
        );
        assert_eq!(
            check_name("WebFecth"),
            Some(NameIssue::Typo(vec![("WebFetch", "Claude Code")]))
        );
        // Short names are too close to everything to guess.
        assert_eq!(check_name("Bsh"), None);
    }

    #[test]
    fn unanchored_regexes_that_name_a_tool_and_match_others() {
        let got = overmatch("Edit.*", &compile("Edit.*")).unwrap();
        assert_eq!(got.meant, ["Edit"]);
        assert_eq!(got.also, ["MultiEdit", "NotebookEdit", "EditAutomation"]);
        let got = overmatch("(Edit|Write)", &compile("(Edit|Write)")).unwrap();
        assert_eq!(got.meant, ["Write", "Edit"]);
        assert!(got.also.contains(&"NotebookEdit"));
        let got = overmatch("Bash.*", &compile("Bash.*")).unwrap();
        assert_eq!(got.also, ["BashOutput", "KillBash"]);
        for fine in [
            "^Edit$",
            "^(Edit|Write)$",
            ".*",
            "[BR].*",
            "Notebook.*",
            "mcp__.*",
            "^(?!Bash$).*",
        ] {
            assert_eq!(overmatch(fine, &compile(fine)), None, "{fine}");
        }
        // The exact-list form is never a regex.
        assert_eq!(overmatch("Edit|Write", &compile("Edit|Write")), None);
    }

    #[test]
    fn literal_words_skip_escapes_and_classes() {
        assert_eq!(
            literal_words(r"^Edit\w+[A-Z]x(Write)$"),
            ["Edit", "x", "Write"]
        );
        assert_eq!(literal_words(r"\bBash\b"), ["Bash"]);
    }

    #[test]
    fn regexes_that_only_match_ignoring_case() {
        assert_eq!(
            regex_case_miss("^bash$", &compile("^bash$")),
            vec![("Bash", "Claude Code")]
        );
        let unexpected = regex_case_miss("^Bash$", &compile("^Bash$"));
        assert!(unexpected.is_empty(), "{unexpected:?}");
        let unexpected = regex_case_miss("mcp__.*", &compile("mcp__.*"));
        assert!(unexpected.is_empty(), "{unexpected:?}");
    }
}

//! Colour for a person at a terminal: the labels of `doctor`, `test`,
//! `explain` and `status` (`error[…]`, `FAIL`, `would run`…), only when the
//! output is a terminal, `NO_COLOR` is unset or empty (no-color.org) and
//! `TERM` is not `dumb`.
//!
//! Applied to text already escaped for the terminal ([`crate::escape`]), so
//! the only escape sequences in the output are the ones added here.

use std::io::IsTerminal;

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const GREEN: &str = "\x1b[32m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// Whether text written to `stream` may carry colour.
pub fn enabled(stream: &impl IsTerminal) -> bool {
    let off = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    stream.is_terminal()
        && !off("NO_COLOR")
        && std::env::var_os("TERM").is_none_or(|term| term != "dumb")
}

/// The labels of each line of `text`, coloured.
pub fn highlight(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        out.push_str(&line_colored(line));
    }
    out
}

/// Prefixes and the colour of the word they start.
const LABELS: &[(&str, &str)] = &[
    ("error[", RED),
    ("warning[", YELLOW),
    ("note[", CYAN),
    ("FAIL ", RED),
    ("ok ", GREEN),
    ("  error: ", RED),
    ("  warning: ", YELLOW),
];

/// Marks inside a line and their colour.
const MARKS: &[(&str, &str)] = &[
    (" — would run", GREEN),
    (" — would not run", RED),
    (" — stopped at ", DIM),
    (": does not exist", RED),
    (": exists, this hookrun", GREEN),
];

fn line_colored(line: &str) -> String {
    for (prefix, color) in LABELS {
        if line.starts_with(prefix) {
            // The label up to its `]` (or the prefix itself).
            let end = if prefix.ends_with('[') {
                line.find(']').map_or(prefix.len(), |i| i + 1)
            } else {
                prefix.trim_end().len()
            };
            return format!("{color}{}{RESET}{}", &line[..end], &line[end..]);
        }
    }
    for (mark, color) in MARKS {
        if let Some(at) = line.find(mark) {
            let end = at + mark.len();
            return format!(
                "{}{color}{}{RESET}{}",
                &line[..at],
                &line[at..end],
                &line[end..]
            );
        }
    }
    line.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_coloured_and_the_rest_is_kept() {
        let text = "error[json-syntax] /x: y\n  fix: z\nok    a.json[0]: b\n1. h — would run\n";
        let colored = highlight(text);
        assert!(colored.starts_with("\x1b[1;31merror[json-syntax]\x1b[0m /x: y\n"));
        assert!(colored.contains("\x1b[32mok\x1b[0m    a.json[0]"));
        assert!(colored.contains("1. h\x1b[32m — would run\x1b[0m\n"));
        let plain: String = colored
            .replace(RED, "")
            .replace(GREEN, "")
            .replace(RESET, "");
        assert_eq!(plain, text);
    }
}

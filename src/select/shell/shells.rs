//! Programs that read a command line or commands: shells (`sh -c`, a
//! script, standard input), `.`/`source`, ssh.

use super::CommandPart;
use super::part::{cannot_judge, hands_over};
use super::word::Word;

/// Shells whose `-c` argument is a command line, and which otherwise read
/// their commands from a script file or their standard input.
pub(super) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "posh", "tcsh",
    "csh",
];

/// Standard input as a file name (`sh /dev/stdin`, `. /dev/fd/0`).
pub(super) const STDIN_FILES: &[&str] = &[
    "/dev/stdin",
    "/dev/fd/0",
    "/proc/self/fd/0",
    "/proc/thread-self/fd/0",
    "-",
];

/// A file name for an open descriptor (`/dev/fd/3`, `/proc/self/fd/3`):
/// what it reads is set up elsewhere.
pub(super) fn is_descriptor_file(name: &str) -> bool {
    name.starts_with("/dev/fd/") || (name.starts_with("/proc/") && name.contains("/fd/"))
}

/// Where a shell (`SHELLS`) reads its commands from.
pub(super) fn shell_view(name: &str, args: &[&Word], part: &mut CommandPart) {
    match shell_input(args) {
        ShellInput::Commands(commands) => {
            for (command, expanded) in commands {
                hands_over(part, name, command, expanded);
            }
        }
        ShellInput::Stdin => {
            part.reads_commands.get_or_insert_with(|| name.to_owned());
        }
        ShellInput::Hidden(why) => cannot_judge(
            part,
            format!(
                "`{name}` reads its commands from {why}, which hookrun cannot see; write the commands themselves"
            ),
        ),
        ShellInput::Script => {}
    }
}

/// The file `.` / `source` reads commands from.
pub(super) fn source_view(name: &str, args: &[&Word], part: &mut CommandPart) {
    match args.first() {
        Some(file) if STDIN_FILES.contains(&file.value.as_str()) => {
            part.reads_commands.get_or_insert_with(|| name.to_owned());
        }
        Some(file) if file.dynamic || file.glob || is_descriptor_file(&file.value) => {
            cannot_judge(
                part,
                format!(
                    "`{name}` reads commands from `{}`, which only the running shell knows; write the commands themselves",
                    file.raw
                ),
            );
        }
        _ => {}
    }
}

/// What a shell's arguments say about where its commands come from.
pub(super) enum ShellInput {
    /// The `-c` command line, and whether it holds an expansion.
    Commands(Vec<(String, bool)>),
    /// Its standard input (no operand, `-s`, `/dev/stdin`).
    Stdin,
    /// A script file named by the arguments: a program of its own.
    Script,
    /// A source only the running shell knows, described.
    Hidden(String),
}

pub(super) fn shell_input(args: &[&Word]) -> ShellInput {
    if args.iter().any(|w| is_c_option(&w.value)) {
        // The command line is the first operand; later ones are `$0`, `$1`…
        let i = match first_operand(args, |_| None) {
            Ok(i) => i,
            Err(answer) => return answer,
        };
        return match args.get(i) {
            Some(command) => ShellInput::Commands(vec![(command.value.clone(), command.dynamic)]),
            None => ShellInput::Hidden(
                "words given to it later (a `-c` without its command)".to_owned(),
            ),
        };
    }
    let i = match first_operand(args, |v| {
        if matches!(v, "--version" | "--help") {
            Some(ShellInput::Script)
        } else if !v.starts_with("--") && v.contains('s') {
            Some(ShellInput::Stdin)
        } else {
            None
        }
    }) {
        Ok(i) => i,
        Err(answer) => return answer,
    };
    match args.get(i) {
        None => ShellInput::Stdin,
        Some(file) if STDIN_FILES.contains(&file.value.as_str()) => ShellInput::Stdin,
        Some(file) if file.dynamic || file.glob || is_descriptor_file(&file.value) => {
            ShellInput::Hidden(format!("`{}`", file.raw))
        }
        Some(_) => ShellInput::Script,
    }
}

/// Walks a shell's options to the index of its first operand (past a
/// `--`); an option that `early` answers for ends the walk with that answer.
fn first_operand(
    args: &[&Word],
    mut early: impl FnMut(&str) -> Option<ShellInput>,
) -> Result<usize, ShellInput> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let v = arg.value.as_str();
        if v == "--" {
            return Ok(i + 1);
        }
        if !(v.len() > 1 && v.starts_with(['-', '+'])) {
            break;
        }
        if let Some(answer) = early(v) {
            return Err(answer);
        }
        let takes_value = matches!(v, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file");
        i += if takes_value { 2 } else { 1 };
    }
    Ok(i)
}

/// The index of ssh's destination: its first operand after the options
/// (those of `bcDEeFIiJLlmOopQRSWw` take a value).
pub(super) fn ssh_host(args: &[&Word]) -> Option<usize> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let v = arg.value.as_str();
        if v == "--" {
            return (i + 1 < args.len()).then_some(i + 1);
        }
        let Some(cluster) = v.strip_prefix('-').filter(|c| !c.is_empty()) else {
            return Some(i);
        };
        // An option letter with a value takes the next word when nothing
        // is attached to it.
        let value_at = cluster.find(|c| "bcDEeFIiJLlmOopQRSWw".contains(c));
        i += match value_at {
            Some(at) if at + 1 == cluster.len() => 2,
            _ => 1,
        };
    }
    None
}

/// The value of the short option `letter` or the long option `long`.
pub(super) fn option_value(args: &[&Word], letter: char, long: &str) -> Option<String> {
    for (i, arg) in args.iter().enumerate() {
        let v = arg.value.as_str();
        if let Some(rest) = v.strip_prefix(long) {
            if let Some(value) = rest.strip_prefix('=') {
                return Some(value.to_owned());
            }
            if rest.is_empty() {
                return args.get(i + 1).map(|w| w.value.clone());
            }
        }
        if let Some(cluster) = v.strip_prefix('-').filter(|c| !c.starts_with('-')) {
            if let Some(at) = cluster.find(letter) {
                let attached = &cluster[at + letter.len_utf8()..];
                return if attached.is_empty() {
                    args.get(i + 1).map(|w| w.value.clone())
                } else {
                    Some(attached.to_owned())
                };
            }
        }
    }
    None
}

/// `-c`, or a cluster of short options holding `c` (`-ec`, `-lc`).
pub(super) fn is_c_option(option: &str) -> bool {
    option
        .strip_prefix('-')
        .is_some_and(|rest| !rest.starts_with('-') && rest.contains('c'))
}

//! Wrappers: programs that run the rest of their words as a command
//! (`sudo`, `env`, `timeout`, `nice`, …) and how their options are read.

use super::CommandPart;
use super::shells::option_value;
use super::views::{cannot_judge, hands_over};
use super::word::{Word, base_name, is_assignment, is_keyword};

/// Wrappers that run the rest of their words as a command, for the rules
/// that fail toward matching: the command may start at any word up to the
/// first one that is neither an option, an option's value, a number nor
/// (for some) the one operand before the command ([`runner_starts`]), so
/// `sudo -u root rm x` and `env -i A=1 rm x` are both seen as `rm x`.
pub(super) const RUNNERS: &[&str] = &[
    "sudo",
    "doas",
    "pkexec",
    "env",
    "exec",
    "xargs",
    "coproc",
    "command",
    "builtin",
    "nohup",
    "nice",
    "timeout",
    "time",
    "stdbuf",
    "setsid",
    "chroot",
    "chrt",
    "ionice",
    "taskset",
    "unshare",
    "nsenter",
    "flock",
    "watch",
    "strace",
    "ltrace",
    "caffeinate",
    "unbuffer",
    "chronic",
    "runuser",
    "fakeroot",
    "firejail",
    "setpriv",
    "prlimit",
    "numactl",
    "parallel",
    "busybox",
    "toybox",
    "noglob",
    "then",
    "do",
    "else",
    "!",
];

/// Runners that take one operand before the command (`chroot DIR cmd`,
/// `flock FILE cmd`, `taskset MASK cmd`).
pub(super) const RUNNERS_WITH_OPERAND: &[&str] = &["chroot", "flock", "taskset"];

/// Programs that hand the value of their `-c` option (or `--command`) to a
/// shell, with the letters of their other options that take a value.
pub(super) const DASH_C_RUNNERS: &[(&str, &str)] = &[
    ("su", "cgGsw"),
    ("runuser", "cgGsuw"),
    ("script", "cEIOBTm"),
    ("flock", "cwE"),
];

/// What a wrapper (`RUNNERS`) does beyond starting the rest of its words.
pub(super) fn runner_view(name: &str, args: &[&Word], part: &mut CommandPart) {
    match name {
        "xargs" if args.iter().any(|w| is_xargs_replace(&w.value)) => cannot_judge(
            part,
            "`xargs -I` puts its input into the command, so only the running shell \
             knows what it starts; pass the command its arguments directly"
                .to_owned(),
        ),
        // With no command, xargs runs `echo`.
        "xargs" if args.iter().all(|w| w.value.starts_with('-')) => {
            part.seen_through.push("echo".to_owned());
        }
        "env" => env_split_string(args, part),
        "watch" => {
            // `watch` joins its arguments and hands them to `sh -c`.
            for arg in args.iter().filter(|w| !w.value.starts_with('-')) {
                hands_over(part, "watch", arg.value.clone(), arg.dynamic);
            }
        }
        _ => {}
    }
}

/// A program that takes a command line after `-c` (`DASH_C_RUNNERS`).
pub(super) fn dash_c_view(name: &str, letters: &str, args: &[&Word], part: &mut CommandPart) {
    match dash_c_command(args, letters) {
        Some((command, expanded)) => hands_over(part, name, command, expanded),
        None if matches!(name, "su" | "script") => {
            // Without `-c` they start an interactive shell.
            part.reads_commands.get_or_insert_with(|| name.to_owned());
        }
        None => {}
    }
    if name == "su" || name == "runuser" {
        // `su -s PROGRAM`: the program runs as the shell.
        if let Some(shell) = option_value(args, 's', "--shell") {
            part.seen_through.push(base_name(&shell).to_owned());
        }
    }
}

/// Where the command after a runner may start, as offsets into its
/// arguments: every word up to the first that is neither an option, the
/// value an option may take, a number, nor the runner's one operand.
pub(super) fn runner_starts(name: &str, args: &[&Word]) -> Vec<usize> {
    let mut operands = usize::from(RUNNERS_WITH_OPERAND.contains(&name));
    let mut value_next = false;
    let mut starts = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        starts.push(i);
        let v = arg.value.as_str();
        if v.len() > 1 && v.starts_with(['-', '+']) {
            value_next = !v.contains('=');
        } else if std::mem::take(&mut value_next) || is_duration(v) {
        } else if operands > 0 {
            operands -= 1;
        } else {
            break;
        }
    }
    starts
}

/// `xargs -I{}`, `-i`, `--replace`: the input goes into the command.
pub(super) fn is_xargs_replace(option: &str) -> bool {
    option.starts_with("-I")
        || option.starts_with("--replace")
        || (option.starts_with("-i") && !option.starts_with("--"))
}

/// `env -S STRING`, `-SSTRING`, `--split-string=STRING`: a command line
/// `env` splits itself (expanding `${VAR}` and escapes on its own).
pub(super) fn env_split_string(args: &[&Word], part: &mut CommandPart) {
    for (i, arg) in args.iter().enumerate() {
        let v = arg.value.as_str();
        let string = if let Some(rest) = v.strip_prefix("--split-string") {
            match rest.strip_prefix('=') {
                Some(value) => Some(value.to_owned()),
                None if rest.is_empty() => args.get(i + 1).map(|w| w.value.clone()),
                None => None,
            }
        } else if v.starts_with('-') && !v.starts_with("--") {
            v.find('S').map(|at| {
                let attached = &v[at + 1..];
                if attached.is_empty() {
                    args.get(i + 1).map(|w| w.value.clone()).unwrap_or_default()
                } else {
                    attached.to_owned()
                }
            })
        } else {
            None
        };
        let Some(string) = string else { continue };
        if string.contains(['$', '\\']) {
            cannot_judge(
                part,
                format!(
                    "`env -S` expands `{string}` itself; write the command without `$` or `\\`"
                ),
            );
        }
        let rest: Vec<&str> = args[i + 1..].iter().map(|w| w.value.as_str()).collect();
        let line = format!("{string} {}", rest.join(" ")).trim_end().to_owned();
        // env splits it into words itself, with no shell keywords: its
        // first word is a program (`env -S'case x'` runs `case`).
        part.seen_through.push(line.clone());
        hands_over(part, "env -S", line, false);
        return;
    }
}

/// The value of `-c` (in a cluster, attached or in the next word) or of
/// `--command`/`--session-command`, for a program whose other options with
/// values are `letters`.
pub(super) fn dash_c_command(args: &[&Word], letters: &str) -> Option<(String, bool)> {
    for (i, arg) in args.iter().enumerate() {
        let v = arg.value.as_str();
        if v == "--" {
            return None;
        }
        for long in ["--command", "--session-command"] {
            if let Some(rest) = v.strip_prefix(long) {
                if let Some(value) = rest.strip_prefix('=') {
                    return Some((value.to_owned(), arg.dynamic));
                }
                if rest.is_empty() {
                    return args.get(i + 1).map(|w| (w.value.clone(), w.dynamic));
                }
            }
        }
        let Some(cluster) = v.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
            continue;
        };
        for (at, letter) in cluster.char_indices() {
            if letter == 'c' {
                let attached = &cluster[at + 1..];
                return if attached.is_empty() {
                    args.get(i + 1).map(|w| (w.value.clone(), w.dynamic))
                } else {
                    Some((attached.to_owned(), arg.dynamic))
                };
            }
            if letters.contains(letter) {
                break;
            }
        }
    }
    None
}

/// Index of the first word of the command proper: after keywords,
/// assignments and wrappers, repeatedly (`nohup nice -n 5 git push`).
pub(super) fn command_start<W: std::borrow::Borrow<Word>>(words: &[W]) -> usize {
    let mut start = 0;
    while start < words.len() {
        let rest = &words[start..];
        let head = rest[0].borrow();
        let skip = if is_keyword(head) || is_assignment(head) {
            1
        } else if let Some(skip) = wrapper_len(rest).filter(|&skip| skip < rest.len()) {
            // A wrapper with nothing after it (`xargs`, `nohup`) is the
            // command itself.
            skip
        } else {
            break;
        };
        start += skip;
    }
    start.min(words.len())
}

/// How many words the wrapper at the start of `words` takes (the wrapper and
/// its options), or `None` when `words` does not start with one.
///
/// A wrapper whose options do not look as expected is not dropped: the part
/// then starts with the wrapper's name, which no rule about the wrapped
/// command matches — for allow rules the safe side.
pub(super) fn wrapper_len<W: std::borrow::Borrow<Word>>(words: &[W]) -> Option<usize> {
    let arg = |i: usize| words.get(i).map(|w| w.borrow().value.as_str());
    let after_double_dash = |i: usize| if arg(i) == Some("--") { i + 1 } else { i };
    match arg(0)? {
        "timeout" => {
            let mut i = 1;
            while let Some(option) = arg(i).filter(|a| a.starts_with('-')) {
                i += if matches!(option, "-s" | "-k" | "--signal" | "--kill-after") {
                    2
                } else {
                    1
                };
                if option == "--" {
                    break;
                }
            }
            is_duration(arg(i)?).then_some(i + 1)
        }
        "time" => Some(if arg(1) == Some("-p") { 2 } else { 1 }),
        "nice" => {
            let i = match arg(1) {
                Some("-n" | "--adjustment") => 3,
                Some(option) if is_nice_adjustment(option) => 2,
                _ => 1,
            };
            Some(after_double_dash(i))
        }
        "nohup" => Some(after_double_dash(1)),
        "stdbuf" => {
            let mut i = 1;
            while let Some(option) = arg(i) {
                i += match option {
                    "-i" | "-o" | "-e" | "--input" | "--output" | "--error" => 2,
                    _ if is_stdbuf_option(option) => 1,
                    _ => break,
                };
            }
            (i > 1).then(|| after_double_dash(i))
        }
        "command" => match arg(1) {
            Some("-p" | "--") => Some(2),
            // `command -v x` looks `x` up; it does not run it.
            Some(option) if option.starts_with('-') => None,
            _ => Some(1),
        },
        "builtin" | "noglob" => Some(1),
        "xargs" => match arg(1) {
            Some(option) if option.starts_with('-') => None,
            _ => Some(1),
        },
        _ => None,
    }
}

/// `timeout`'s DURATION: a number with an optional unit.
pub(super) fn is_duration(text: &str) -> bool {
    let number = text.strip_suffix(['s', 'm', 'h', 'd']).unwrap_or(text);
    let mut seen_digit = false;
    let mut seen_dot = false;
    for c in number.chars() {
        match c {
            '0'..='9' => seen_digit = true,
            '.' if !seen_dot => seen_dot = true,
            _ => return false,
        }
    }
    seen_digit
}

/// `nice -5`, `nice -n5`, `nice --adjustment=5`.
pub(super) fn is_nice_adjustment(option: &str) -> bool {
    let number = if let Some(n) = option.strip_prefix("--adjustment=") {
        n
    } else if let Some(n) = option.strip_prefix("-n") {
        n
    } else {
        option.trim_start_matches('-')
    };
    let number = number.strip_prefix(['-', '+']).unwrap_or(number);
    option.starts_with('-') && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit())
}

/// `stdbuf -oL`, `--output=L`.
pub(super) fn is_stdbuf_option(option: &str) -> bool {
    let attached = ["-i", "-o", "-e"]
        .iter()
        .any(|p| option.len() > 2 && option.starts_with(p));
    let long = ["--input=", "--output=", "--error="]
        .iter()
        .any(|p| option.starts_with(p));
    attached || long
}

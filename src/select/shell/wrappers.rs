//! Wrappers: programs that run the rest of their words as a command
//! (`sudo`, `env`, `timeout`, `nice`, …) and how their options are read.

use super::CommandPart;
use super::part::{cannot_judge, hands_over};
use super::shells::option_value;
use super::word::{Word, base_name, is_assignment, is_keyword};

/// What a wrapper reads after its options, before the command it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Operand {
    /// Nothing: the command comes right after the options.
    None,
    /// One word, whatever it looks like (`chroot DIR`, `flock FILE`,
    /// `taskset MASK`, `timeout DURATION`: `timeout inf rm` runs `rm`).
    One,
}

/// A program that runs the rest of its words as a command: one row each.
pub(super) struct Wrapper {
    pub(super) name: &'static str,
    /// Short option letters that take a value (`-u root`, `-uroot`).
    pub(super) short_values: &'static str,
    /// Long options that take a value in the next word when written
    /// without `=` (`--user root`).
    pub(super) long_values: &'static [&'static str],
    /// Options that take no value, short (letters) and long: with
    /// `short_values` and `long_values`, every option the row knows.
    pub(super) flags: &'static str,
    pub(super) long_flags: &'static [&'static str],
    /// What comes between the options and the command.
    pub(super) operand: Operand,
    /// Dropped from a part's text, so that allow rules name the command it
    /// runs (`timeout 5 cargo test` is `cargo test`), when its options are
    /// all ones this row knows.
    pub(super) dropped: bool,
}

const fn row(name: &'static str, short_values: &'static str) -> Wrapper {
    Wrapper {
        name,
        short_values,
        long_values: &[],
        flags: "",
        long_flags: &[],
        operand: Operand::None,
        dropped: false,
    }
}

/// Wrappers, for the rules that fail toward matching: the command may
/// start at any word up to the one where the wrapper, reading its options
/// as this row says, starts it ([`runner_starts`]), so `sudo -u root rm x`,
/// `env -i A=1 rm x` and `timeout -s KILL 1e3 rm x` are all seen as `rm x`.
/// A new wrapper is one row here (and a test).
pub(super) const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        long_values: &[
            "--user",
            "--group",
            "--chdir",
            "--chroot",
            "--close-from",
            "--host",
            "--prompt",
            "--role",
            "--type",
            "--command-timeout",
            "--other-user",
        ],
        ..row("sudo", "CDghpRrtTUu")
    },
    row("doas", "Cu"),
    Wrapper {
        long_values: &["--user"],
        ..row("pkexec", "")
    },
    Wrapper {
        long_values: &[
            "--unset",
            "--chdir",
            "--split-string",
            "--block-signal",
            "--default-signal",
            "--ignore-signal",
        ],
        ..row("env", "uCS")
    },
    row("exec", "a"),
    Wrapper {
        long_values: &[
            "--arg-file",
            "--delimiter",
            "--max-lines",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--process-slot-var",
        ],
        dropped: true,
        ..row("xargs", "aEdILnPs")
    },
    row("coproc", ""),
    Wrapper {
        flags: "p",
        dropped: true,
        ..row("command", "")
    },
    // Not dropped: dash has no `builtin`, so it starts a program of that
    // name from `PATH`.
    row("builtin", ""),
    Wrapper {
        dropped: true,
        ..row("nohup", "")
    },
    Wrapper {
        long_values: &["--adjustment"],
        dropped: true,
        ..row("nice", "n")
    },
    Wrapper {
        long_values: &["--signal", "--kill-after"],
        flags: "v",
        long_flags: &["--preserve-status", "--foreground", "--verbose"],
        operand: Operand::One,
        dropped: true,
        ..row("timeout", "ks")
    },
    Wrapper {
        dropped: true,
        ..row("time", "fo")
    },
    Wrapper {
        long_values: &["--input", "--output", "--error"],
        dropped: true,
        ..row("stdbuf", "ioe")
    },
    row("setsid", ""),
    Wrapper {
        long_values: &["--userspec", "--groups"],
        operand: Operand::One,
        ..row("chroot", "")
    },
    Wrapper {
        operand: Operand::One,
        ..row("chrt", "T")
    },
    Wrapper {
        long_values: &["--class", "--classdata", "--pid", "--pgid", "--uid"],
        ..row("ionice", "cnPpu")
    },
    Wrapper {
        operand: Operand::One,
        ..row("taskset", "")
    },
    row("unshare", "S"),
    Wrapper {
        long_values: &["--target", "--setuid", "--setgid", "--wd", "--root"],
        ..row("nsenter", "tSGwr")
    },
    Wrapper {
        long_values: &["--timeout", "--conflict-exit-code", "--command"],
        operand: Operand::One,
        ..row("flock", "wEc")
    },
    Wrapper {
        long_values: &["--interval", "--differences"],
        ..row("watch", "n")
    },
    Wrapper {
        long_values: &[
            "--output",
            "--trace",
            "--attach",
            "--string-limit",
            "--user",
            "--env",
        ],
        ..row("strace", "abeEIoOpPsSuUX")
    },
    row("ltrace", "aAeElnopsSuxX"),
    row("caffeinate", "tw"),
    row("unbuffer", ""),
    row("chronic", ""),
    Wrapper {
        long_values: &[
            "--user",
            "--group",
            "--supp-group",
            "--shell",
            "--command",
            "--session-command",
            "--whitelist-environment",
        ],
        ..row("runuser", "cgGsuw")
    },
    Wrapper {
        long_values: &["--lib", "--faked", "--save-file", "--load-file"],
        ..row("fakeroot", "lsi")
    },
    row("firejail", ""),
    row("setpriv", ""),
    row("prlimit", "p"),
    row("numactl", "CNmPip"),
    row("parallel", "jdSI"),
    row("busybox", ""),
    row("toybox", ""),
    // Not dropped: zsh's; bash and dash start a program named `noglob`.
    row("noglob", ""),
    // Keywords before a command: the command may follow at once.
    row("then", ""),
    row("do", ""),
    row("else", ""),
    row("!", ""),
];

/// The row of the wrapper `name`, if it is one.
pub(super) fn wrapper(name: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.name == name)
}

/// How `row` reads the option `option` (its first word at `args[i]`):
/// the words it takes, and whether the row knows the option.
fn option_words(row: &Wrapper, option: &str) -> (usize, bool) {
    if let Some(long) = option.strip_prefix("--") {
        if long.contains('=') {
            return (1, true);
        }
        let takes_value = row.long_values.contains(&option);
        return (
            if takes_value { 2 } else { 1 },
            takes_value || row.long_flags.contains(&option),
        );
    }
    let letters = option.trim_start_matches(['-', '+']);
    for (at, letter) in letters.char_indices() {
        if row.short_values.contains(letter) {
            let attached = at + letter.len_utf8() < letters.len();
            return (if attached { 1 } else { 2 }, true);
        }
    }
    let known = letters
        .chars()
        .all(|c| c.is_ascii_digit() || row.flags.contains(c));
    (1, known || row.name == "env")
}

/// Where `row` starts its command, reading its options as it does, as an
/// offset into `args`; `None` when an option is one the row does not know
/// (it may take a value) or nothing follows.
pub(super) fn exact_start(row: &Wrapper, args: &[&str]) -> Option<usize> {
    let mut i = 0;
    while let Some(&v) = args.get(i) {
        if v == "--" {
            i += 1;
            break;
        }
        let option = (v.len() > 1 && v.starts_with('-')) || (v == "-" && row.name == "env");
        if !option {
            break;
        }
        let (words, known) = option_words(row, v);
        if !known {
            return None;
        }
        i += words;
    }
    if row.operand == Operand::One {
        i += 1;
    }
    (i < args.len()).then_some(i)
}

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
        // `sudo -s`, `sudo -i` with no command: a shell the agent types into.
        "sudo" | "doas"
            if args.iter().all(|w| w.value.starts_with('-'))
                && args.iter().any(|w| {
                    matches!(w.value.as_str(), "--shell" | "--login")
                        || (!w.value.starts_with("--") && w.value.contains(['s', 'i']))
                }) =>
        {
            part.reads_commands.get_or_insert_with(|| name.to_owned());
        }
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

/// Where the command after a wrapper may start, as offsets into its
/// arguments: every word up to where the wrapper starts it, reading its
/// options as its row says; an option the row does not know may take a
/// value, so the reading goes on past it.
pub(super) fn runner_starts(row: &Wrapper, args: &[&Word]) -> Vec<usize> {
    let mut operands = usize::from(row.operand == Operand::One);
    let mut value_next = false;
    let mut starts = Vec::new();
    let mut options = true;
    for (i, arg) in args.iter().enumerate() {
        starts.push(i);
        let v = arg.value.as_str();
        if std::mem::take(&mut value_next) {
            continue;
        }
        if options && v == "--" {
            options = false;
            continue;
        }
        let option = (v.len() > 1 && v.starts_with(['-', '+'])) || v == "-";
        if options && option {
            let (words, known) = option_words(row, v);
            value_next = words == 2 || (!known && !v.contains('='));
        } else if operands > 0 {
            operands -= 1;
            options = false;
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
    let (head, rest) = words.split_first()?;
    let row = wrapper(&head.borrow().value).filter(|row| row.dropped)?;
    let args: Vec<&str> = rest.iter().map(|w| w.borrow().value.as_str()).collect();
    match (row.name, args.first().copied()) {
        // bash's `time` keyword takes `-p` only.
        ("time", Some("-p")) => return Some(2),
        ("time", _) => return Some(1),
        // `command -v x` looks `x` up; it does not run it.
        ("command", Some(option)) if option.starts_with('-') && !matches!(option, "-p" | "--") => {
            return None;
        }
        // stdbuf without a mode runs nothing.
        ("stdbuf", first) if !first.is_some_and(|o| o.starts_with('-')) => return None,
        // xargs with options: what it runs depends on its input.
        ("xargs", Some(option)) if option.starts_with('-') => return None,
        _ => {}
    }
    let start = exact_start(row, &args)?;
    if row.operand == Operand::One && (start == 0 || !is_duration(args[start - 1])) {
        // `timeout git push` runs nothing: not read as `push`.
        return None;
    }
    Some(start + 1)
}

/// `timeout`'s DURATION as `strtod` reads it (`5`, `1.5m`, `1e3`, `inf`,
/// `0x10`), with an optional unit.
fn is_duration(text: &str) -> bool {
    let number = text.strip_suffix(['s', 'm', 'h', 'd']).unwrap_or(text);
    let hex = number
        .strip_prefix("0x")
        .or_else(|| number.strip_prefix("0X"))
        .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit() || c == '.'));
    hex || (number.parse::<f64>().is_ok() && !number.starts_with(['+', '-']))
}

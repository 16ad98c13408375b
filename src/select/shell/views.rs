//! What one simple command runs: its views (the command after wrappers,
//! paths, brace expansion), the command lines it hands to shells, and why
//! it cannot be judged or allowed.

use super::multiplexers::{MULTIPLEXERS, subcommand_views};
use super::part::{cannot_judge, hands_over};
use super::powershell::powershell_view;
use super::shells::{SHELLS, option_value, shell_view, source_view, ssh_host};
use super::word::{
    Word, base_name, brace_words, is_assignment, is_command_assignment, is_keyword,
    is_subscript_trap,
};
use super::wrappers::{
    DASH_C_RUNNERS, command_start, dash_c_view, runner_starts, runner_view, wrapper,
};
use super::{CommandPart, HOLE, Redirect, Stdin};

pub(super) fn make_part(words: &[Word]) -> Option<CommandPart> {
    let start = command_start(words);
    if start == words.len()
        && !words
            .iter()
            .any(|w| is_subscript_trap(w) || is_command_assignment(w) || w.hidden.is_some())
    {
        return None;
    }
    let join = |words: &[Word], field: fn(&Word) -> &str| {
        words.iter().map(field).collect::<Vec<_>>().join(" ")
    };
    let mut part = CommandPart {
        text: join(&words[start..], |w| &w.raw),
        plain: join(&words[start..], |w| &w.value),
        full: join(words, |w| &w.raw),
        seen_through: Vec::new(),
        runs: Vec::new(),
        not_allowable: None,
        unjudgeable: None,
        stdin: Stdin::Inherited,
        reads_commands: None,
        emits: None,
        redirects: Vec::new(),
        assignments: Vec::new(),
        holes: false,
    };
    for word in &words[..start] {
        if !word.redirect && is_assignment(word) {
            if let Some((name, value)) = word.hole.split_once('=') {
                let name = name.strip_suffix('+').unwrap_or(name);
                part.assignments.push((name.to_owned(), value.to_owned()));
            }
        }
    }
    for word in words {
        if word.heredoc.is_some() {
            let rest = word.raw.get(word.operator.len()..).unwrap_or_default();
            part.redirects.push(Redirect {
                operator: word.operator.clone(),
                target: rest.strip_prefix('-').unwrap_or(rest).to_owned(),
            });
        } else if word.redirect && word.target.as_deref().is_some_and(|t| !t.is_empty()) {
            part.redirects.push(Redirect {
                operator: word.operator.clone(),
                target: word.target_hole.clone(),
            });
        }
    }
    for word in words {
        if let Some(number) = word.heredoc {
            if word.operator.starts_with('<') || word.operator.starts_with("0<") {
                part.stdin = Stdin::Heredoc(number);
            }
        } else if word.reads_stdin() {
            let target = word.target.clone().unwrap_or_default();
            part.stdin = if word.operator.ends_with("<<<") {
                if word.dynamic || word.glob {
                    Stdin::Unknown("a here-string with expansions".to_owned())
                } else {
                    Stdin::Text(format!("{target}\n"))
                }
            } else {
                Stdin::Unknown(format!("the file `{target}`"))
            };
        }
    }
    if part.text.is_empty() {
        // Only assignments: the part is there for what they hand over.
        part.text.clone_from(&part.full);
    }
    part.emits = literal_output(&words[start..]);
    see_through(words, &mut part);
    part.holes = part.seen_through.iter().any(|view| view.contains(HOLE));
    Some(part)
}

/// The most views one part gets; past it the part cannot be judged.
pub(super) const MAX_VIEWS: usize = 256;

/// Fills `seen_through`, `runs`, `not_allowable`, `unjudgeable` and
/// `reads_commands` (see [`CommandPart`]).
pub(super) fn see_through(all_words: &[Word], part: &mut CommandPart) {
    // Redirections run nothing: drop them (and their targets) everywhere.
    let words: Vec<&Word> = all_words.iter().filter(|w| !w.redirect).collect();
    // Wrappers are runners here: the views start at the first of them
    // (`nice -n 5 nohup rm x` shows `nohup` and `rm`).
    let first = words
        .iter()
        .take_while(|w| is_keyword(w) || is_assignment(w))
        .count();
    let git_config_from_env = judge_words(all_words, &words, first, part);
    let mut starts = vec![first];
    let mut seen = vec![false; words.len() + 1];
    while let Some(start) = starts.pop() {
        let start = start
            + words[start.min(words.len())..]
                .iter()
                .take_while(|w| is_keyword(w) || is_assignment(w))
                .count();
        if start >= words.len() || seen[start] {
            continue;
        }
        seen[start] = true;
        if part.seen_through.len() >= MAX_VIEWS {
            cannot_judge(
                part,
                format!("more than {MAX_VIEWS} ways to read its wrappers"),
            );
            return;
        }
        let head = words[start];
        if let Some(why) = unreadable_name(head) {
            cannot_judge(part, why);
            continue;
        }
        let args = &words[start + 1..];
        let view_name = push_view(head, args, words.len() - start, part);
        powershell_view(head, args, part);
        let name = base_name(&view_name);
        follow_view(name, &words, start, part, &mut starts);
        if name == "git" {
            if let Some(variable) = &git_config_from_env {
                cannot_judge(
                    part,
                    format!(
                        "git reads configuration (aliases, pagers) from `{variable}`, which may run any command"
                    ),
                );
            }
        }
        if let Some(options) = MULTIPLEXERS.iter().find(|m| m.name == name) {
            subcommand_views(options, args, part);
        }
    }
}

/// What the words of a part say before any view is read: redirections
/// and written files, assignments that run or hide commands. Returns the
/// `GIT_CONFIG…` variable the part sets, if any (git then reads
/// configuration hookrun cannot see).
pub(super) fn judge_words(
    all_words: &[Word],
    words: &[&Word],
    first: usize,
    part: &mut CommandPart,
) -> Option<String> {
    // A redirection written before the command (`>out rm x`, `2>&1 rm x`).
    if let Some(word) = all_words
        .iter()
        .take_while(|w| w.redirect || is_keyword(w) || is_assignment(w))
        .find(|w| w.redirect)
    {
        part.not_allowable = Some(format!(
            "a redirection comes before the command (`{}`)",
            word.raw
        ));
    }
    if let Some(word) = all_words.iter().find(|w| w.writes_a_file()) {
        part.not_allowable = Some(format!("it writes to a file (`{}`)", word.raw));
    }
    // Assignments whose value programs run as a command (`GIT_PAGER=…`,
    // `EDITOR=…`), and configuration hookrun cannot read.
    let mut git_config_from_env = None;
    for word in words.iter().filter(|w| is_command_assignment(w)) {
        let value = word.value.split_once('=').map_or("", |(_, v)| v);
        hands_over(part, "a variable", value.to_owned(), word.dynamic);
    }
    for word in words.iter().take(first).filter(|w| is_assignment(w)) {
        let name = word.value.split_once('=').map_or("", |(name, _)| name);
        if name.starts_with("GIT_CONFIG") {
            git_config_from_env = Some(name.to_owned());
        }
    }
    if let Some(word) = startup_file_assignment(words) {
        cannot_judge(
            part,
            format!(
                "`{}` names a file of commands that every shell it starts reads first, which hookrun cannot see; drop the assignment",
                word.raw
            ),
        );
    }
    if let Some(why) = all_words.iter().find_map(|w| w.hidden) {
        cannot_judge(
            part,
            format!("it uses {why}; write the commands themselves"),
        );
    }
    // bash evaluates a variable's value as arithmetic in `$((x))`, `[[ x -eq
    // 1 ]]`, `let x`…, and runs a substitution in an array subscript there
    // (`x='a[$(rm y)]'`): such a value is judged as a command line.
    // The subscript may be in the name (`let 'a[$(rm y)]=1'`) or in the
    // value: the whole word is judged.
    for word in words.iter().filter(|w| is_subscript_trap(w)) {
        hands_over(part, "arithmetic", word.value.clone(), word.dynamic);
    }
    git_config_from_env
}

/// Adds the view that starts at `head` (its name, then the holes of its
/// arguments) to `seen_through`; returns the name the view runs.
pub(super) fn push_view(head: &Word, args: &[&Word], len: usize, part: &mut CommandPart) -> String {
    let mut view: Vec<String> = Vec::with_capacity(len);
    if let Some(expanded) = brace_words(head) {
        part.not_allowable
            .get_or_insert_with(|| format!("its command is a brace expansion (`{}`)", head.raw));
        view.extend(expanded);
    } else {
        view.push(base_name(&head.value).to_owned());
    }
    view.extend(args.iter().map(|w| w.hole.clone()));
    part.seen_through.push(view.join(" "));
    view.swap_remove(0)
}

/// What the view of `name` at `words[start]` starts in turn: further views
/// (into `starts`), command lines it hands to a shell, commands it reads.
pub(super) fn follow_view(
    name: &str,
    words: &[&Word],
    start: usize,
    part: &mut CommandPart,
    starts: &mut Vec<usize>,
) {
    let args = &words[start + 1..];
    if let Some(row) = wrapper(name) {
        starts.extend(runner_starts(row, args).into_iter().map(|i| start + 1 + i));
        runner_view(name, args, part);
    } else if name == "find" {
        for (i, w) in words.iter().enumerate().skip(start + 1) {
            if matches!(w.value.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                starts.push(i + 1);
            }
        }
    } else if name == "eval" {
        // bash's `eval` takes `--` before its words.
        let args = match args.first() {
            Some(first) if first.value == "--" => &args[1..],
            _ => args,
        };
        let line = args
            .iter()
            .map(|w| w.value.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        hands_over(part, "eval", line, args.iter().any(|w| w.dynamic));
    } else if SHELLS.contains(&name) {
        shell_view(name, args, part);
    } else if name == "." || name == "source" {
        source_view(name, args, part);
    } else if name == "trap" {
        let args: Vec<&&Word> = args.iter().skip_while(|w| w.value == "--").collect();
        if args.len() >= 2 && !args[0].value.starts_with('-') {
            hands_over(part, "trap", args[0].value.clone(), args[0].dynamic);
        }
    } else if name == "alias" {
        for arg in args {
            if let Some((_, value)) = arg.value.split_once('=') {
                hands_over(part, "alias", value.to_owned(), arg.dynamic);
            }
        }
    } else if name == "hash" {
        // `hash -p /bin/rm ls`: later, `ls` starts `/bin/rm`.
        if let Some(path) = option_value(args, 'p', "\u{0}") {
            part.seen_through.push(base_name(&path).to_owned());
        }
    } else if name == "ssh" {
        // The words after the host are joined and run by a shell there
        // (which may be this machine).
        if let Some(host) = ssh_host(args) {
            let line: Vec<&str> = args[host + 1..].iter().map(|w| w.value.as_str()).collect();
            if !line.is_empty() {
                let expanded = args[host + 1..].iter().any(|w| w.dynamic);
                hands_over(part, "ssh", line.join(" "), expanded);
            } else if !args
                .iter()
                .any(|w| w.value.starts_with('-') && w.value.contains('N'))
            {
                // A login shell the agent types into.
                part.reads_commands.get_or_insert_with(|| "ssh".to_owned());
            }
        }
    } else if name == "tmux" || name == "screen" {
        multiplexer_view(name, args, part);
    } else if name == "sg" {
        // `sg GROUP [-c] COMMAND`: the command goes to `/bin/sh -c`.
        for arg in args.iter().skip(1).filter(|w| w.value != "-c") {
            hands_over(part, "sg", arg.value.clone(), arg.dynamic);
        }
    }
    if let Some(&(_, letters)) = DASH_C_RUNNERS.iter().find(|(n, _)| *n == name) {
        dash_c_view(name, letters, args, part);
    }
}

/// Why the shell alone decides which program a command word names, if it
/// does: an expansion, a glob, quoting hookrun does not decode.
pub(super) fn unreadable_name(head: &Word) -> Option<String> {
    let shown = &head.raw;
    if head.dynamic {
        return Some(format!(
            "its command name `{shown}` comes from an expansion or a substitution, so only the running shell knows which program it starts; write the program's name plainly"
        ));
    }
    if let Some(quoting) = head.undecoded {
        return Some(format!(
            "its command name `{shown}` uses {quoting}, which hookrun does not decode; write the program's name plainly"
        ));
    }
    let test = shown == "[" || shown == "[[";
    let partial_brace = shown.contains('{')
        && (shown.contains(',') || shown.contains(".."))
        && brace_words(head).is_none();
    if (head.glob && !test) || partial_brace {
        return Some(format!(
            "its command name `{shown}` is a pattern the shell matches against file names when it runs; write the program's name plainly"
        ));
    }
    None
}

/// What `echo` or `printf` with these words (the command first) writes,
/// when the words show it exactly.
pub(super) fn literal_output(words: &[Word]) -> Option<String> {
    let (head, args) = words.split_first()?;
    if words
        .iter()
        .any(|w| w.dynamic || w.glob || w.undecoded.is_some() || w.redirect)
    {
        return None;
    }
    let values: Vec<&str> = args.iter().map(|w| w.value.as_str()).collect();
    match head.value.as_str() {
        "echo" => {
            // dash's `echo` decodes backslashes, bash's does not.
            if values.iter().any(|v| v.contains('\\')) {
                return None;
            }
            match values.split_first() {
                Some((&"-n", rest)) => Some(rest.join(" ")),
                Some((first, _)) if first.starts_with('-') => None,
                _ => Some(format!("{}\n", values.join(" "))),
            }
        }
        "printf" => {
            let (format, rest) = values.split_first()?;
            let mut out = String::new();
            let mut chars = format.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => out.push(match chars.next()? {
                        'n' => '\n',
                        't' => '\t',
                        '\\' => '\\',
                        '\'' => '\'',
                        '"' => '"',
                        _ => return None,
                    }),
                    '%' => return None,
                    c => out.push(c),
                }
            }
            rest.is_empty().then_some(out)
        }
        _ => None,
    }
}

/// Variables naming a file a shell reads commands from when it starts.
const STARTUP_VARIABLES: &[&str] = &["BASH_ENV", "ENV", "ZDOTDIR", "PROMPT_COMMAND"];

/// An assignment of [`STARTUP_VARIABLES`] before the command or given to
/// `env` (`BASH_ENV=x bash -c ls`, `env ENV=x sh -i`).
fn startup_file_assignment<'w>(words: &[&'w Word]) -> Option<&'w Word> {
    let mut in_prefix = true;
    for word in words {
        let is_startup = is_assignment(word)
            && word
                .value
                .split_once('=')
                .is_some_and(|(name, _)| STARTUP_VARIABLES.contains(&name));
        if is_startup && in_prefix {
            return Some(word);
        }
        if !(is_keyword(word) || is_assignment(word) || word.value.starts_with('-')) {
            // The words after `env` (and its options) are assignments too.
            in_prefix = base_name(&word.value) == "env";
        }
    }
    None
}

/// tmux subcommands that start no command and open no shell.
const TMUX_INERT: &[&str] = &[
    "ls",
    "list-sessions",
    "list-windows",
    "lsw",
    "list-panes",
    "lsp",
    "list-clients",
    "lsc",
    "has-session",
    "has",
    "kill-session",
    "kill-server",
    "kill-window",
    "killw",
    "kill-pane",
    "killp",
    "capture-pane",
    "capturep",
    "show-options",
    "show",
    "show-environment",
    "showenv",
    "display-message",
    "display",
    "list-buffers",
    "lsb",
    "show-buffer",
    "showb",
    "list-keys",
    "lsk",
    "list-commands",
    "lscm",
    "rename-session",
    "rename-window",
    "select-window",
    "selectw",
    "select-pane",
    "selectp",
    "detach-client",
    "detach",
];

/// A terminal multiplexer: it runs commands given to it (`tmux -c`,
/// `new-session CMD`, `send-keys`, `run-shell`, its configuration file) or
/// opens shells the agent types into, none of which hookrun sees: "cannot
/// judge", unless it only lists, shows or stops.
fn multiplexer_view(name: &str, args: &[&Word], part: &mut CommandPart) {
    let inert = if name == "tmux" {
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            match arg.value.as_str() {
                "-L" | "-S" | "-T" => i += 2,
                "-V" => break,
                v if v.starts_with('-') && !v.contains(['c', 'f']) => i += 1,
                _ => break,
            }
        }
        args.get(i)
            .is_some_and(|w| w.value == "-V" || TMUX_INERT.contains(&w.value.as_str()))
    } else {
        args.first()
            .is_some_and(|w| matches!(w.value.as_str(), "-ls" | "-list" | "-v" | "-wipe"))
    };
    if !inert {
        cannot_judge(
            part,
            format!(
                "`{name}` runs commands hookrun cannot see (its own command lines, its configuration, or a shell the agent types into); run the commands themselves"
            ),
        );
    }
}

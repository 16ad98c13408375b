//! Splitting a shell command into the simple commands it runs (SPEC §4.3),
//! for `Bash(...)` and `PowerShell(...)` rules. Pure; never runs anything.
//!
//! This is not a shell parser. It knows just enough of the POSIX shell
//! grammar to answer two questions soundly: which simple commands does this
//! text run (so that `cd repo && git push` is seen as `git push`), and can a
//! pattern judge it at all (a `$( )`, a backtick or `$VAR` hides what runs).
//! Where it cannot follow the grammar it says so ([`SplitError`]) instead of
//! guessing, and callers treat that as "cannot judge".
//!
//! What it understands: quotes (`'…'`, `"…"`, `$'…'`, backslash escapes),
//! the separators `&&`, `||`, `;`, `;;`, `|`, `|&`, `&` and newlines;
//! redirections (`2>&1`, `&>`, `>|` are not separators); comments;
//! subshells `( … )` and groups `{ …; }`; the keywords that precede a command
//! (`if`, `then`, `while`, `do`, `!`, …); here-documents (their bodies are
//! data, not commands); and the substitutions `$( )`, backticks, `<( )`,
//! `>( )`, `${ }`, whose inner commands become parts of their own.
//!
//! `case … esac` is understood too: patterns are matched, not run, and each
//! branch's commands are parts.
//!
//! Each part also says what the shell runs that its text hides
//! ([`CommandPart::seen_through`], [`CommandPart::runs`]), for the rules that
//! fail toward matching: redirections dropped (`2>&1 rm x`), a path reduced to
//! its base name (`/bin/rm`), `$'…'` decoded, brace expansion (`{rm,-rf,x}`),
//! the command after `sudo`, `env`, `exec`, `xargs`, `busybox`, `find -exec`
//! and the other wrappers, the subcommand after the global options of git,
//! docker, kubectl, npm, cargo…, and the command lines handed to a shell
//! (`sh -c`, `eval`, `su -c`, `trap`, `env -S`, a git alias, a here-string or
//! an `echo` piped into `sh`), which the rule engine splits in turn. What
//! only the running shell knows — a command name from an expansion or a glob,
//! a shell reading a pipe or a file — makes the part
//! [`CommandPart::unjudgeable`]; expansions and globs in arguments are kept as
//! [`HOLE`]s in the views. Allow rules get the opposite: a part using any of
//! these constructs, or writing to a file (`> ~/.bashrc`), is never covered
//! ([`CommandPart::not_allowable`]). Effects of commands stay unseen
//! (`find . -delete` deletes without running `rm`): rules name commands, not
//! effects. docs/design/shell-rules.md has the whole list and why.
//!
//! PowerShell is split with the same rules. Its backtick is an escape
//! character, not a substitution, so a PowerShell command with backticks is
//! seen as dynamic: the safe side for both rule polarities.

/// A command, split.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SplitCommand {
    /// Every simple command, in the order written; a substitution's commands
    /// follow the part that contains them. Parts that run nothing (a lone
    /// `fi`, an assignment `X=1`) are left out.
    pub parts: Vec<CommandPart>,
    /// The command contains `$( )`, backticks, `$VAR`/`${VAR}`, `$1`,
    /// `$((…))` or process substitution: what it runs is only known when it
    /// runs.
    pub dynamic: bool,
}

/// One simple command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPart {
    /// As written, minus leading keywords, `VAR=value` assignments and
    /// wrappers (`timeout 5`, `nohup`, …); words joined by single spaces
    /// (whitespace inside quotes is kept).
    pub text: String,
    /// `text` with the shell's quoting removed (`"rm" -rf '/'` → `rm -rf /`).
    pub plain: String,
    /// As written, words joined by single spaces, nothing removed.
    pub full: String,
    /// What the shell runs that `text` hides, for the rules that fail
    /// toward matching (deny, ask, `if`): the command without its
    /// redirections (`2>&1 rm x`), a path reduced to its base name
    /// (`/bin/rm x`), brace expansion done (`{rm,-rf,x}`), and after the
    /// wrappers `sudo`, `doas`, `env`, `exec`, `xargs`, `coproc`, `setsid`…
    /// (with any options: every later word may start the command), unquoted.
    pub seen_through: Vec<String>,
    /// Command strings this part hands to a shell (`sh -c ARG`, `bash -c
    /// ARG`, `eval ARGS`, `find -exec`'s command is in `seen_through`):
    /// split and judged as commands of their own.
    pub runs: Vec<String>,
    /// Why no allow rule covers this part even when its text matches: it
    /// hides a command behind a construct (a shell's `-c`, `eval`, brace
    /// expansion, a redirection before the command) or writes to a file
    /// (`echo x > ~/.bashrc`).
    pub not_allowable: Option<String>,
    /// Why this part cannot be judged at all (deny rules then match).
    pub unjudgeable: Option<String>,
    /// What its standard input is, as far as the command shows.
    pub stdin: Stdin,
    /// The program (`sh`, `.`) when this part reads commands from its
    /// standard input; once the input is known their text is in `runs`, and
    /// otherwise the part is `unjudgeable`.
    pub reads_commands: Option<String>,
    /// What this part writes to its standard output when the command shows
    /// it exactly (`echo 'rm x'`, `printf 'ls\n'`), for a shell it pipes to.
    pub emits: Option<String>,
    /// Some view in `seen_through` holds a [`HOLE`] (an expansion or a glob
    /// in an argument): worked out once here, not by every rule.
    pub holes: bool,
}

/// A part's standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stdin {
    /// Not redirected: whatever the caller gives (hookrun does not see it).
    Inherited,
    /// Known text: a here-string, a quoted here-document, `echo`'s output.
    Text(String),
    /// The here-document with this number, until its body is read.
    Heredoc(usize),
    /// Something hookrun cannot read (a file, another program's output).
    Unknown(String),
}

/// Why a command could not be split.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    #[error("unclosed {0}")]
    Unclosed(&'static str),
    #[error("`)` without a matching `(`")]
    UnexpectedCloseParen,
    #[error("`<<` without a here-document delimiter")]
    MissingHeredocDelimiter,
    #[error("substitutions nested more than {MAX_DEPTH} levels deep")]
    TooDeep,
}

/// Deeper nesting than any real command has; the limit keeps hostile input
/// from exhausting the stack.
const MAX_DEPTH: usize = 64;

/// Split `command` into the simple commands it runs.
pub fn split_command(command: &str) -> Result<SplitCommand, SplitError> {
    let chars: Vec<char> = command.chars().collect();
    Splitter::new(&chars, 0).split()
}

/// Words that may precede a command without being it. Recognised only
/// unquoted (`"if"` is a command named `if`).
const KEYWORDS: &[&str] = &[
    "!", "{", "}", "if", "then", "elif", "else", "fi", "while", "until", "do", "done", "esac",
];

/// Stands for text only the running shell knows (an expansion, a
/// substitution, what a glob matches) in [`Word::hole`] and in the views of
/// [`CommandPart::seen_through`]: the deny side matches it against anything.
pub const HOLE: char = '\u{FFFF}';

/// A word as written (`raw`) and as the shell passes it on (`value`).
#[derive(Debug, Clone, Default)]
struct Word {
    raw: String,
    value: String,
    /// `value` with every expansion, substitution and unquoted glob
    /// character replaced by [`HOLE`].
    hole: String,
    /// A redirection (`>out`, `2>&1`, `<<EOF`), or the target word of one.
    redirect: bool,
    /// An output redirection (`>`, `>>`, `&>`, `>|`, `>&`).
    output: bool,
    /// The redirection target read so far, when this word has an operator.
    target: Option<String>,
    /// The redirection operator with the descriptor written before it
    /// (`2>`, `<<<`, `0<`), on the operator's word and on its target's.
    operator: String,
    /// The word holds an expansion or a substitution.
    dynamic: bool,
    /// The word holds an unquoted glob character (`*`, `?`, `[`), an
    /// extended glob (`@(…)`) or a brace expansion that is not the whole word.
    glob: bool,
    /// Quoting hookrun does not decode, as a reason.
    undecoded: Option<&'static str>,
    /// The here-document (by its number in the command) this word announces.
    heredoc: Option<usize>,
    /// An expansion that runs commands hookrun cannot see, wherever the
    /// word is (`${x@P}`), as a reason.
    hidden: Option<&'static str>,
}

impl Word {
    fn push(&mut self, raw: char, value: Option<char>) {
        self.raw.push(raw);
        if let Some(value) = value {
            self.value.push(value);
            self.hole.push(value);
            if let Some(target) = &mut self.target {
                target.push(value);
            }
        }
    }

    /// Decoded text with no raw counterpart of its own (`$'\x72'`).
    fn push_value(&mut self, value: char) {
        self.value.push(value);
        self.hole.push(value);
        if let Some(target) = &mut self.target {
            target.push(value);
        }
    }

    /// An unquoted glob character: kept, but a hole for the deny side.
    fn push_glob(&mut self, c: char) {
        self.raw.push(c);
        self.value.push(c);
        self.hole.push(HOLE);
        self.glob = true;
        if let Some(target) = &mut self.target {
            target.push(c);
        }
    }

    /// Text whose meaning only the running shell knows: kept as written.
    fn push_opaque(&mut self, text: &str) {
        self.raw.push_str(text);
        self.value.push_str(text);
        self.hole.push_str(text);
        if let Some(target) = &mut self.target {
            target.push_str(text);
        }
    }

    /// An expansion or substitution: kept as written, a hole for the deny
    /// side.
    fn push_expansion(&mut self, text: &str) {
        self.raw.push_str(text);
        self.value.push_str(text);
        self.hole.push(HOLE);
        self.dynamic = true;
        if let Some(target) = &mut self.target {
            target.push_str(text);
        }
    }

    /// A redirection operator: what follows (here or in the next word) is
    /// its target.
    fn push_operator(&mut self, operator: &str) {
        self.operator = format!("{}{operator}", self.raw);
        self.raw.push_str(operator);
        self.value.push_str(operator);
        self.hole.push_str(operator);
        self.redirect = true;
        self.output |= operator.contains('>');
        self.target = Some(String::new());
    }

    /// Writes to a file: an output redirection whose target is not a file
    /// descriptor (`>&2`, `2>&1`) or a device that keeps nothing.
    fn writes_a_file(&self) -> bool {
        let target = self.target.as_deref().unwrap_or_default();
        let descriptor = target == "-" || target.bytes().all(|b| b.is_ascii_digit());
        self.output
            && !descriptor
            && !matches!(
                target,
                "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"
            )
    }

    /// A redirection of standard input (`<f`, `0<f`, `<<EOF`, `<<<text`).
    fn reads_stdin(&self) -> bool {
        self.redirect
            && self.target.as_deref().is_some_and(|t| !t.is_empty())
            && (self.operator.starts_with('<') || self.operator.starts_with("0<"))
    }
}

/// The simple command being read.
#[derive(Debug, Default)]
struct PartBuilder {
    words: Vec<Word>,
    word: Option<Word>,
    /// The last word was a redirection operator without its target
    /// (`> out`): the next word is the target (output or not), and the
    /// operator it belongs to.
    pending_target: Option<(bool, String)>,
    /// Parts found inside this one's substitutions, reported after it.
    nested: Vec<CommandPart>,
}

impl PartBuilder {
    fn word(&mut self) -> &mut Word {
        let pending = &mut self.pending_target;
        self.word.get_or_insert_with(|| match pending.take() {
            Some((output, operator)) => Word {
                redirect: true,
                output,
                target: Some(String::new()),
                operator,
                ..Word::default()
            },
            None => Word::default(),
        })
    }

    fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            if word.target.as_deref() == Some("") {
                self.pending_target = Some((word.output, word.operator.clone()));
            }
            self.words.push(word);
        }
    }

    fn in_word(&self) -> bool {
        self.word.is_some()
    }

    /// Where a `(` opens a subshell rather than being part of a word.
    fn at_command_position(&self) -> bool {
        // A `{` starts a command even after other words (`f() { (rm x); }`).
        let group = self
            .words
            .iter()
            .rposition(|w| is_keyword(w) && w.raw == "{")
            .map_or(0, |i| i + 1);
        !self.in_word() && self.words[group..].iter().all(is_keyword)
    }

    /// Append the finished part (if it runs anything) and its nested parts;
    /// the indices of the first and last parts made from its own words.
    fn finish_into(&mut self, parts: &mut Vec<CommandPart>) -> Option<(usize, usize)> {
        self.end_word();
        self.pending_target = None;
        let words = std::mem::take(&mut self.words);
        let before = parts.len();
        // A `{` opens a group even after other words (`f() { rm x; }`): what
        // follows it is a command of its own.
        let mut start = 0;
        for (i, word) in words.iter().enumerate() {
            if i > start && is_keyword(word) && word.raw == "{" {
                parts.extend(make_part(&words[start..i]));
                start = i;
            }
        }
        parts.extend(make_part(&words[start..]));
        let made = (parts.len() > before).then(|| (before, parts.len() - 1));
        parts.append(&mut self.nested);
        made
    }
}

fn is_keyword(word: &Word) -> bool {
    word.raw == word.value && KEYWORDS.contains(&word.raw.as_str())
}

/// An assignment whose value holds a substitution inside a subscript
/// (`x='a[$(rm y)]'`), which bash runs when it evaluates the variable as
/// arithmetic.
fn is_subscript_trap(word: &Word) -> bool {
    // Also as an argument: `printf -v`, `read`, `unset`, `test -v`, `let`
    // and `declare` evaluate a subscript in a name they are given.
    // Only literal text counts: a substitution this shell runs is a hole.
    word.hole.contains('[') && (word.hole.contains("$(") || word.hole.contains('`'))
}

/// An assignment whose value the shell or a program runs as a command
/// later (`PROMPT_COMMAND=…`, `PS4='$(…)'`, `GIT_PAGER=…`).
fn is_command_assignment(word: &Word) -> bool {
    is_assignment(word)
        && word.value.split_once('=').is_some_and(|(name, _)| {
            COMMAND_VARIABLES
                .iter()
                .any(|suffix| name.ends_with(suffix))
        })
}

/// `NAME=` or `NAME+=` at the start of an unquoted word.
fn is_assignment(word: &Word) -> bool {
    let Some(eq) = word.raw.find('=') else {
        return false;
    };
    let name = word.raw[..eq].strip_suffix('+').unwrap_or(&word.raw[..eq]);
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn make_part(words: &[Word]) -> Option<CommandPart> {
    let start = command_start(words);
    if start == words.len()
        && !words
            .iter()
            .any(|w| is_subscript_trap(w) || is_command_assignment(w))
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
        holes: false,
    };
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

/// Wrappers that run the rest of their words as a command, for the rules
/// that fail toward matching: the command may start at any word up to the
/// first one that is neither an option, an option's value, a number nor
/// (for some) the one operand before the command ([`runner_starts`]), so
/// `sudo -u root rm x` and `env -i A=1 rm x` are both seen as `rm x`.
const RUNNERS: &[&str] = &[
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
const RUNNERS_WITH_OPERAND: &[&str] = &["chroot", "flock", "taskset"];

/// Shells whose `-c` argument is a command line, and which otherwise read
/// their commands from a script file or their standard input.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "rbash", "posh",
];

/// Programs that hand the value of their `-c` option (or `--command`) to a
/// shell, with the letters of their other options that take a value.
const DASH_C_RUNNERS: &[(&str, &str)] = &[
    ("su", "cgGsw"),
    ("runuser", "cgGsuw"),
    ("script", "cEIOBTm"),
    ("flock", "cwE"),
];

/// Standard input as a file name (`sh /dev/stdin`, `. /dev/fd/0`).
const STDIN_FILES: &[&str] = &[
    "/dev/stdin",
    "/dev/fd/0",
    "/proc/self/fd/0",
    "/proc/thread-self/fd/0",
    "-",
];

/// A file name for an open descriptor (`/dev/fd/3`, `/proc/self/fd/3`):
/// what it reads is set up elsewhere.
fn is_descriptor_file(name: &str) -> bool {
    name.starts_with("/dev/fd/") || (name.starts_with("/proc/") && name.contains("/fd/"))
}

/// The most views one part gets; past it the part cannot be judged.
const MAX_VIEWS: usize = 256;

/// Fills `seen_through`, `runs`, `not_allowable`, `unjudgeable` and
/// `reads_commands` (see [`CommandPart`]).
fn see_through(all_words: &[Word], part: &mut CommandPart) {
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
fn judge_words(
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
    if let Some(why) = words.iter().find_map(|w| w.hidden) {
        cannot_judge(
            part,
            format!("it uses {why}; write the commands themselves"),
        );
    }
    // bash evaluates a variable's value as arithmetic in `$((x))`, `[[ x -eq
    // 1 ]]`, `let x`…, and runs a substitution in an array subscript there
    // (`x='a[$(rm y)]'`): such a value is judged as a command line.
    for word in words.iter().filter(|w| is_subscript_trap(w)) {
        let value = word
            .value
            .split_once('=')
            .map_or(word.value.as_str(), |(_, v)| v);
        hands_over(part, "arithmetic", value.to_owned(), word.dynamic);
    }
    git_config_from_env
}

/// Adds the view that starts at `head` (its name, then the holes of its
/// arguments) to `seen_through`; returns the name the view runs.
fn push_view(head: &Word, args: &[&Word], len: usize, part: &mut CommandPart) -> String {
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
fn follow_view(
    name: &str,
    words: &[&Word],
    start: usize,
    part: &mut CommandPart,
    starts: &mut Vec<usize>,
) {
    let args = &words[start + 1..];
    if RUNNERS.contains(&name) {
        starts.extend(runner_starts(name, args).into_iter().map(|i| start + 1 + i));
        runner_view(name, args, part);
    } else if name == "find" {
        for (i, w) in words.iter().enumerate().skip(start + 1) {
            if matches!(w.value.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                starts.push(i + 1);
            }
        }
    } else if name == "eval" {
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
            }
        }
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

/// What a wrapper (`RUNNERS`) does beyond starting the rest of its words.
fn runner_view(name: &str, args: &[&Word], part: &mut CommandPart) {
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

/// Where a shell (`SHELLS`) reads its commands from.
fn shell_view(name: &str, args: &[&Word], part: &mut CommandPart) {
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
fn source_view(name: &str, args: &[&Word], part: &mut CommandPart) {
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

/// A program that takes a command line after `-c` (`DASH_C_RUNNERS`).
fn dash_c_view(name: &str, letters: &str, args: &[&Word], part: &mut CommandPart) {
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

/// Environment variables (by suffix) whose value programs run as a command.
const COMMAND_VARIABLES: &[&str] = &[
    "PAGER",
    "EDITOR",
    "VISUAL",
    "SSH_COMMAND",
    "GIT_SSH",
    "ASKPASS",
    "PROMPT_COMMAND",
    "PS0",
    "PS1",
    "PS2",
    "PS4",
];

/// `part` hands `command` to a shell (or a program that reads it as one):
/// the rule engine splits and judges it in turn.
///
/// `expanded`: the text holds an expansion the shell performs before it is
/// handed over (`eval "ls $X"`, `sh -c "ls $X"`): the receiver reads the
/// result as a command line again, so the expansion may hold whole commands
/// (`X='; rm y'`), and the part cannot be judged.
fn hands_over(part: &mut CommandPart, to: &str, command: String, expanded: bool) {
    if expanded {
        cannot_judge(
            part,
            format!(
                "`{to}` reads its text as a command line after the shell expanded it, so an expansion in it may hold whole commands; write the command line literally"
            ),
        );
    }
    part.not_allowable
        .get_or_insert_with(|| format!("it hands a command line to `{to}`"));
    part.runs.push(command);
}

fn cannot_judge(part: &mut CommandPart, why: String) {
    part.not_allowable.get_or_insert_with(|| why.clone());
    part.unjudgeable.get_or_insert(why);
}

/// Why the shell alone decides which program a command word names, if it
/// does: an expansion, a glob, quoting hookrun does not decode.
fn unreadable_name(head: &Word) -> Option<String> {
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

/// Where the command after a runner may start, as offsets into its
/// arguments: every word up to the first that is neither an option, the
/// value an option may take, a number, nor the runner's one operand.
fn runner_starts(name: &str, args: &[&Word]) -> Vec<usize> {
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
fn is_xargs_replace(option: &str) -> bool {
    option.starts_with("-I")
        || option.starts_with("--replace")
        || (option.starts_with("-i") && !option.starts_with("--"))
}

/// `env -S STRING`, `-SSTRING`, `--split-string=STRING`: a command line
/// `env` splits itself (expanding `${VAR}` and escapes on its own).
fn env_split_string(args: &[&Word], part: &mut CommandPart) {
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

/// What a shell's arguments say about where its commands come from.
enum ShellInput {
    /// The `-c` command line, and whether it holds an expansion.
    Commands(Vec<(String, bool)>),
    /// Its standard input (no operand, `-s`, `/dev/stdin`).
    Stdin,
    /// A script file named by the arguments: a program of its own.
    Script,
    /// A source only the running shell knows, described.
    Hidden(String),
}

fn shell_input(args: &[&Word]) -> ShellInput {
    if args.iter().any(|w| is_c_option(&w.value)) {
        // The command line is the first operand; later ones are `$0`, `$1`…
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            let v = arg.value.as_str();
            if v == "--" {
                i += 1;
                break;
            }
            if !(v.len() > 1 && v.starts_with(['-', '+'])) {
                break;
            }
            let takes_value = matches!(v, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file");
            i += if takes_value { 2 } else { 1 };
        }
        return match args.get(i) {
            Some(command) => ShellInput::Commands(vec![(command.value.clone(), command.dynamic)]),
            None => ShellInput::Hidden(
                "words given to it later (a `-c` without its command)".to_owned(),
            ),
        };
    }
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let v = arg.value.as_str();
        if v == "--" {
            i += 1;
            break;
        }
        if !(v.len() > 1 && v.starts_with(['-', '+'])) {
            break;
        }
        if matches!(v, "--version" | "--help") {
            return ShellInput::Script;
        }
        if !v.starts_with("--") && v.contains('s') {
            return ShellInput::Stdin;
        }
        let takes_value = matches!(v, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file");
        i += if takes_value { 2 } else { 1 };
    }
    match args.get(i) {
        None => ShellInput::Stdin,
        Some(file) if STDIN_FILES.contains(&file.value.as_str()) => ShellInput::Stdin,
        Some(file) if file.dynamic || file.glob || is_descriptor_file(&file.value) => {
            ShellInput::Hidden(format!("`{}`", file.raw))
        }
        Some(_) => ShellInput::Script,
    }
}

/// The value of `-c` (in a cluster, attached or in the next word) or of
/// `--command`/`--session-command`, for a program whose other options with
/// values are `letters`.
fn dash_c_command(args: &[&Word], letters: &str) -> Option<(String, bool)> {
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

/// The index of ssh's destination: its first operand after the options
/// (those of `bcDEeFIiJLlmOopQRSWw` take a value).
fn ssh_host(args: &[&Word]) -> Option<usize> {
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
fn option_value(args: &[&Word], letter: char, long: &str) -> Option<String> {
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

/// A program whose global options come before its subcommand
/// (`git -C . push`): the options that take a value, and the flags.
struct Multiplexer {
    name: &'static str,
    values: &'static [&'static str],
    flags: &'static [&'static str],
}

const MULTIPLEXERS: &[Multiplexer] = &[
    Multiplexer {
        name: "git",
        values: &[
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--super-prefix",
            "--config-env",
            "--attr-source",
            "--list-cmds",
        ],
        flags: &[
            "-p",
            "-P",
            "--paginate",
            "--no-pager",
            "--bare",
            "--no-replace-objects",
            "--literal-pathspecs",
            "--glob-pathspecs",
            "--noglob-pathspecs",
            "--icase-pathspecs",
            "--no-optional-locks",
            "--no-lazy-fetch",
            "--no-advice",
            "--exec-path",
            "--html-path",
            "--man-path",
            "--info-path",
        ],
    },
    Multiplexer {
        name: "docker",
        values: &[
            "-c",
            "--context",
            "-H",
            "--host",
            "-l",
            "--log-level",
            "--config",
            "--tlscacert",
            "--tlscert",
            "--tlskey",
        ],
        flags: &["-D", "--debug", "--tls", "--tlsverify"],
    },
    Multiplexer {
        name: "podman",
        values: &[
            "-c",
            "--connection",
            "--url",
            "--root",
            "--runroot",
            "--log-level",
        ],
        flags: &["--remote", "-r"],
    },
    Multiplexer {
        name: "kubectl",
        values: &[
            "-n",
            "--namespace",
            "--context",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--kubeconfig",
            "--token",
            "--as",
            "--as-group",
            "--as-uid",
            "--request-timeout",
            "--cache-dir",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
            "--tls-server-name",
            "--username",
            "--password",
            "--profile",
            "--profile-output",
            "--log-file",
            "-v",
            "--v",
            "--vmodule",
        ],
        flags: &[
            "--insecure-skip-tls-verify",
            "--match-server-version",
            "--warnings-as-errors",
            "--disable-compression",
        ],
    },
    Multiplexer {
        name: "helm",
        values: &[
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--registry-config",
            "--repository-config",
            "--repository-cache",
        ],
        flags: &["--debug"],
    },
    Multiplexer {
        name: "npm",
        values: &[
            "-C",
            "--prefix",
            "--registry",
            "--userconfig",
            "--globalconfig",
            "--cache",
            "-w",
            "--workspace",
            "--loglevel",
        ],
        flags: &[
            "-g",
            "--global",
            "-y",
            "--yes",
            "-s",
            "--silent",
            "-q",
            "--quiet",
            "-d",
            "-ws",
            "--workspaces",
        ],
    },
    Multiplexer {
        name: "pnpm",
        values: &["-C", "--dir", "-w", "--filter", "-F", "--loglevel"],
        flags: &["-g", "--global", "-r", "--recursive", "-s", "--silent"],
    },
    Multiplexer {
        name: "yarn",
        values: &["--cwd", "--modules-folder", "--cache-folder"],
        flags: &["-s", "--silent"],
    },
    Multiplexer {
        name: "cargo",
        values: &["-C", "-Z", "--config", "--color"],
        flags: &[
            "-v",
            "-vv",
            "-q",
            "--quiet",
            "--verbose",
            "--frozen",
            "--locked",
            "--offline",
        ],
    },
    Multiplexer {
        name: "terraform",
        values: &[],
        flags: &[],
    },
];

/// How many subcommand positions one multiplexer gets.
const MAX_SUBCOMMANDS: usize = 16;

/// git's configuration keys (lowercase, by prefix or suffix) whose values
/// it runs as commands.
fn runs_config_value(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    ["alias.", "pager."].iter().any(|p| key.starts_with(p))
        || [
            "pager",
            "editor",
            "sshcommand",
            "fsmonitor",
            "askpass",
            "external",
            "helper",
            "program",
            "clean",
            "smudge",
            "process",
            "command",
            "textconv",
            "driver",
            "hook",
            "proxy",
        ]
        .iter()
        .any(|s| key.ends_with(s))
}

/// Views of a multiplexer's command from each place its subcommand may
/// start after global options (`git -C . push` → `git push`), and what its
/// configuration options run (`git -c alias.x='!rm -rf /' x`).
fn subcommand_views(tool: &Multiplexer, args: &[&Word], part: &mut CommandPart) {
    let name = tool.name;
    let mut aliases: Vec<(String, String, bool)> = Vec::new();
    let mut subcommands: Vec<usize> = Vec::new();
    let mut frontier = vec![0_usize];
    let mut visited = vec![false; args.len() + 2];
    while let Some(i) = frontier.pop() {
        if i >= args.len() || visited[i] || subcommands.len() >= MAX_SUBCOMMANDS {
            continue;
        }
        visited[i] = true;
        let v = args[i].value.as_str();
        if name == "cargo" && i == 0 && v.starts_with('+') {
            frontier.push(1);
            continue;
        }
        if !(v.len() > 1 && v.starts_with('-')) {
            subcommands.push(i);
            continue;
        }
        // A configuration option's value: `-c k=v`, `-ck=v`, `--config=k=v`.
        let separate = matches!((name, v), ("git", "-c") | ("cargo", "--config"));
        let config_expanded = if separate {
            args.get(i + 1).is_some_and(|w| w.dynamic)
        } else {
            args[i].dynamic
        };
        let config = match v {
            "-c" if name == "git" => args.get(i + 1).map(|w| w.value.as_str()),
            "--config" if name == "cargo" => args.get(i + 1).map(|w| w.value.as_str()),
            _ if name == "git" && v.starts_with("-c") && v.len() > 2 => Some(&v[2..]),
            _ if name == "cargo" => v.strip_prefix("--config="),
            _ => None,
        };
        if let Some((key, value)) = config.and_then(|c| c.split_once('=')) {
            if let Some(alias) = key.strip_prefix("alias.") {
                aliases.push((
                    alias.to_owned(),
                    value.trim_matches(['"', '\'']).to_owned(),
                    config_expanded,
                ));
            } else if name == "git" && runs_config_value(key) {
                hands_over(
                    part,
                    "git's configuration",
                    value.to_owned(),
                    config_expanded,
                );
            }
        }
        if name == "git" && v.starts_with("--config-env") {
            cannot_judge(
                part,
                "`git --config-env` takes configuration (aliases, pagers) from the environment, which may run any command".to_owned(),
            );
        }
        if v.starts_with("--") && v.contains('=') {
            frontier.push(i + 1);
        } else if tool.values.contains(&v) {
            frontier.push(i + 2);
        } else if !v.starts_with("--") && v.len() > 2 && tool.values.contains(&&v[..2]) {
            // A short option with its value attached (`-C.`, `-n5`).
            frontier.push(i + 1);
        } else if tool.flags.contains(&v) {
            frontier.push(i + 1);
        } else {
            // Unknown: a flag, or an option with a value.
            frontier.push(i + 2);
            frontier.push(i + 1);
        }
    }
    for k in subcommands {
        let rest: Vec<&str> = args[k + 1..].iter().map(|w| w.hole.as_str()).collect();
        let rest = rest.join(" ");
        let sub = args[k].value.as_str();
        if k > 0 {
            part.seen_through.push(
                format!("{name} {} {rest}", args[k].hole)
                    .trim_end()
                    .to_owned(),
            );
        }
        if name == "git" {
            // A subcommand git does not know runs `git-NAME` from `PATH`.
            part.seen_through
                .push(format!("git-{} {rest}", args[k].hole).trim_end().to_owned());
        }
        if let Some((_, expansion, expanded)) = aliases.iter().find(|(alias, ..)| alias == sub) {
            let values: Vec<&str> = args[k + 1..].iter().map(|w| w.value.as_str()).collect();
            match expansion.strip_prefix('!') {
                Some(command) if name == "git" => {
                    hands_over(
                        part,
                        "a git alias",
                        format!("{command} {}", values.join(" ")),
                        *expanded,
                    );
                }
                _ => part
                    .seen_through
                    .push(format!("{name} {expansion} {rest}").trim_end().to_owned()),
            }
        }
    }
}

/// What `echo` or `printf` with these words (the command first) writes,
/// when the words show it exactly.
fn literal_output(words: &[Word]) -> Option<String> {
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

/// Whether the words so far are a `case WORD in` header (with nothing after).
fn is_case_header(words: &[Word]) -> bool {
    let start = words.iter().take_while(|w| is_keyword(w)).count();
    let rest = &words[start..];
    rest.len() == 3 && rest[0].raw == "case" && rest[2].raw == "in"
}

/// Whether the words being read are a case pattern.
fn in_case_pattern(part: &mut PartBuilder, cases: &[bool]) -> bool {
    part.end_word();
    let start = part.words.iter().take_while(|w| is_keyword(w)).count();
    let rest = &part.words[start..];
    let after_header = rest.len() >= 3 && rest[0].raw == "case" && rest[2].raw == "in";
    after_header || cases.last() == Some(&true)
}

/// At a `(`: the optional opener of a case pattern.
fn opens_case_pattern(part: &mut PartBuilder, cases: &[bool]) -> bool {
    if part.in_word() {
        return false;
    }
    if is_case_header(&part.words) || (cases.last() == Some(&true) && part.words.is_empty()) {
        return true;
    }
    false
}

/// At a `)`: whether it ends a case pattern (a `case WORD in PATTERN` just
/// read, or a pattern after `;;`). The pattern's words are dropped.
fn ends_case_pattern(part: &mut PartBuilder, cases: &mut Vec<bool>) -> bool {
    part.end_word();
    let header = {
        let start = part.words.iter().take_while(|w| is_keyword(w)).count();
        let rest = &part.words[start..];
        rest.len() >= 4 && rest[0].raw == "case" && rest[2].raw == "in"
    };
    if header {
        cases.push(false);
    } else if let Some(pattern @ true) = cases.last_mut() {
        *pattern = false;
    } else {
        return false;
    }
    part.words.clear();
    part.pending_target = None;
    true
}

/// An unquoted `esac` word closes the innermost open `case`.
fn close_cases(part: &mut PartBuilder, cases: &mut Vec<bool>) {
    if part
        .words
        .last()
        .is_some_and(|w| is_keyword(w) && w.raw == "esac")
    {
        cases.pop();
        part.words.pop();
    }
}

/// `-c`, or a cluster of short options holding `c` (`-ec`, `-lc`).
fn is_c_option(option: &str) -> bool {
    option
        .strip_prefix('-')
        .is_some_and(|rest| !rest.starts_with('-') && rest.contains('c'))
}

/// `/usr/bin/rm` → `rm`.
fn base_name(word: &str) -> &str {
    match word.rsplit_once('/') {
        Some((_, name)) if !name.is_empty() => name,
        _ => word,
    }
}

/// An unquoted `{a,b,c}` word: the words it expands to.
fn brace_words(word: &Word) -> Option<Vec<String>> {
    let inner = word.raw.strip_prefix('{')?.strip_suffix('}')?;
    if word.raw != word.value || !inner.contains(',') || inner.contains(['{', '}']) {
        return None;
    }
    Some(inner.split(',').map(str::to_owned).collect())
}

/// Index of the first word of the command proper: after keywords,
/// assignments and wrappers, repeatedly (`nohup nice -n 5 git push`).
fn command_start<W: std::borrow::Borrow<Word>>(words: &[W]) -> usize {
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
fn wrapper_len<W: std::borrow::Borrow<Word>>(words: &[W]) -> Option<usize> {
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
fn is_duration(text: &str) -> bool {
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
fn is_nice_adjustment(option: &str) -> bool {
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
fn is_stdbuf_option(option: &str) -> bool {
    let attached = ["-i", "-o", "-e"]
        .iter()
        .any(|p| option.len() > 2 && option.starts_with(p));
    let long = ["--input=", "--output=", "--error="]
        .iter()
        .any(|p| option.starts_with(p));
    attached || long
}

/// What ends a command list being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Input,
    /// A `)` closes the list; the string names the opener for errors.
    Paren(&'static str),
}

/// A here-document announced on the current line, read after its newline.
#[derive(Debug)]
struct Heredoc {
    /// Its number in the command, as in [`Word::heredoc`].
    number: usize,
    delimiter: String,
    strip_tabs: bool,
    /// Unquoted delimiter: the body undergoes `$( )` and `$VAR` expansion.
    expands: bool,
}

struct Splitter<'a> {
    chars: &'a [char],
    pos: usize,
    depth: usize,
    dynamic: bool,
    heredocs: Vec<Heredoc>,
    /// Here-documents announced so far (their numbers).
    heredoc_count: usize,
    /// Bodies read so far, by number: text, or why it is not known.
    bodies: Vec<(usize, Stdin)>,
    /// The output of the command before a `|`, for the next one.
    pipe: Option<Stdin>,
    /// Inside `$((…))` or `((…))`, where `<<` is a shift, not a
    /// here-document (which would swallow the lines that follow).
    arithmetic: usize,
}

impl<'a> Splitter<'a> {
    fn new(chars: &'a [char], depth: usize) -> Self {
        Splitter {
            chars,
            pos: 0,
            depth,
            dynamic: false,
            heredocs: Vec::new(),
            heredoc_count: 0,
            bodies: Vec::new(),
            pipe: None,
            arithmetic: 0,
        }
    }

    fn split(mut self) -> Result<SplitCommand, SplitError> {
        let mut parts = self.list(End::Input)?;
        for part in &mut parts {
            if let Stdin::Heredoc(number) = part.stdin {
                part.stdin = self.bodies.iter().find(|(n, _)| *n == number).map_or_else(
                    || Stdin::Unknown("a here-document hookrun did not find".to_owned()),
                    |(_, body)| body.clone(),
                );
            }
            let Some(reader) = part.reads_commands.clone() else {
                continue;
            };
            match &part.stdin {
                Stdin::Text(text) => {
                    part.not_allowable
                        .get_or_insert_with(|| format!("it hands commands to `{reader}`"));
                    part.runs.push(text.clone());
                }
                other => {
                    let source = match other {
                        Stdin::Unknown(what) => what.as_str(),
                        _ => "its standard input",
                    };
                    cannot_judge(
                        part,
                        format!(
                            "`{reader}` reads commands from {source}, which hookrun cannot see; write the commands themselves"
                        ),
                    );
                }
            }
        }
        Ok(SplitCommand {
            parts,
            dynamic: self.dynamic,
        })
    }

    /// Finish `part` into `parts`; the first part made from its words reads
    /// the output of a pipe just before it (unless it redirects its input).
    fn finish(
        &mut self,
        part: &mut PartBuilder,
        parts: &mut Vec<CommandPart>,
    ) -> Option<(usize, usize)> {
        let made = part.finish_into(parts);
        if let Some((first, _)) = made {
            if let Some(pipe) = self.pipe.take() {
                if parts[first].stdin == Stdin::Inherited {
                    parts[first].stdin = pipe;
                }
            }
        }
        made
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn text(&self, from: usize) -> String {
        self.chars[from..self.pos].iter().collect()
    }

    fn descend(&mut self) -> Result<(), SplitError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SplitError::TooDeep);
        }
        Ok(())
    }

    /// Read a command list up to `end` (consuming a closing `)`).
    fn list(&mut self, end: End) -> Result<Vec<CommandPart>, SplitError> {
        self.descend()?;
        let mut parts = Vec::new();
        let mut part = PartBuilder::default();
        // Open `case` statements of this list: `true` while reading a
        // pattern (up to its `)`), `false` in a branch's commands.
        let mut cases: Vec<bool> = Vec::new();
        loop {
            if !cases.is_empty() {
                self.close_cases_here(&mut part, &mut cases);
            }
            let Some(c) = self.peek() else {
                if let End::Paren(opener) = end {
                    return Err(SplitError::Unclosed(opener));
                }
                self.finish(&mut part, &mut parts);
                break;
            };
            let next = self.peek_at(1);
            match c {
                ' ' | '\t' | '\r' => {
                    part.end_word();
                    self.pos += 1;
                }
                '\n' => self.newline(&mut part, &mut parts, &mut cases)?,
                '#' if !part.in_word() => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                ';' => self.semicolon(&mut part, &mut parts, &mut cases),
                '&' if next == Some('>') => {
                    part.word().push_operator("&>");
                    self.pos += 2;
                }
                '|' if next != Some('|') && in_case_pattern(&mut part, &cases) => {
                    // `a|b)`: alternatives of one pattern.
                    part.end_word();
                    self.pos += 1;
                }
                '&' | '|' => self.control_operator(c, next, &mut part, &mut parts),
                '<' | '>' if next == Some('(') => {
                    let opener = if c == '<' { "`<(`" } else { "`>(`" };
                    self.substitution(&mut part, 2, opener)?;
                }
                '<' if next == Some('<') && self.peek_at(2) == Some('<') => {
                    // A here-string: its word is ordinary text.
                    part.word().push_operator("<<<");
                    self.pos += 3;
                }
                '<' if next == Some('<') && self.arithmetic > 0 => {
                    part.word().push_opaque("<<");
                    self.pos += 2;
                }
                '<' if next == Some('<') => self.heredoc_operator(&mut part)?,
                '<' | '>' => self.redirect_operator(c, next, &mut part),
                '(' if opens_case_pattern(&mut part, &cases) => {
                    // `case x in (a) …`: the optional `(` before a pattern.
                    self.pos += 1;
                }
                ')' if ends_case_pattern(&mut part, &mut cases) => {
                    // The pattern is matched, not run: only its
                    // substitutions (already in `nested`) are commands.
                    self.pos += 1;
                }
                '(' if part.at_command_position() => {
                    // A subshell: its commands are parts; it has no text of
                    // its own. `((…))` is arithmetic, read the same way.
                    let arithmetic = usize::from(next == Some('('));
                    self.arithmetic += arithmetic;
                    self.pos += 1;
                    parts.append(&mut self.list(End::Paren("`(`"))?);
                    self.arithmetic -= arithmetic;
                }
                '(' => self.literal_group(&mut part)?,
                ')' => {
                    if end == End::Input {
                        return Err(SplitError::UnexpectedCloseParen);
                    }
                    self.pos += 1;
                    self.finish(&mut part, &mut parts);
                    break;
                }
                _ => self.word_char(&mut part)?,
            }
        }
        self.depth -= 1;
        Ok(parts)
    }

    /// In a `case` statement: a word ends at a blank or an operator, and
    /// `esac` may be one; close what it closes.
    fn close_cases_here(&mut self, part: &mut PartBuilder, cases: &mut Vec<bool>) {
        let ends_word = match self.peek() {
            None => true,
            Some('&') => self.peek_at(1) != Some('>'),
            Some(c) => " \t\r\n;|)".contains(c),
        };
        if ends_word {
            part.end_word();
        }
        close_cases(part, cases);
    }

    /// A newline ends the command (and a `case WORD in` header); the
    /// bodies of the line's here-documents follow it.
    fn newline(
        &mut self,
        part: &mut PartBuilder,
        parts: &mut Vec<CommandPart>,
        cases: &mut Vec<bool>,
    ) -> Result<(), SplitError> {
        part.end_word();
        if is_case_header(&part.words) {
            // `case WORD in` ends its line: patterns follow.
            part.words.clear();
            cases.push(true);
        }
        self.finish(part, parts);
        self.pos += 1;
        let mut bodies = PartBuilder::default();
        self.heredoc_bodies(&mut bodies)?;
        parts.append(&mut bodies.nested);
        Ok(())
    }

    /// `;` ends the command; `;;`, `;&` and `;;&` end a `case` branch.
    fn semicolon(
        &mut self,
        part: &mut PartBuilder,
        parts: &mut Vec<CommandPart>,
        cases: &mut [bool],
    ) {
        self.finish(part, parts);
        self.pos += 1;
        let mut branch_end = false;
        while matches!(self.peek(), Some(';' | '&')) {
            self.pos += 1;
            branch_end = true;
        }
        if branch_end {
            if let Some(pattern) = cases.last_mut() {
                *pattern = true;
            }
        }
    }

    /// `&`, `&&`, `|` and `||` end the command; after a pipe the next one
    /// reads this one's output.
    fn control_operator(
        &mut self,
        c: char,
        next: Option<char>,
        part: &mut PartBuilder,
        parts: &mut Vec<CommandPart>,
    ) {
        let made = self.finish(part, parts);
        let doubled = next == Some('&') || (c == '|' && next == Some('|'));
        if c == '|' && next != Some('|') {
            // A pipe: the next command reads this one's output.
            self.pipe = Some(match made {
                Some((_, last)) => match &parts[last].emits {
                    Some(text) => Stdin::Text(text.clone()),
                    None => Stdin::Unknown(format!(
                        "the output of `{}`",
                        crate::text::shorten(&parts[last].text, 40)
                    )),
                },
                None => Stdin::Unknown("the output of a group of commands".to_owned()),
            });
        }
        self.pos += if doubled { 2 } else { 1 };
    }

    /// `<` or `>` (and `>&`, `<&`, `>|`, `>>`): a redirection's operator.
    fn redirect_operator(&mut self, c: char, next: Option<char>, part: &mut PartBuilder) {
        // `>&`, `<&` and `>|` belong to the redirection.
        let joined = matches!((c, next), (_, Some('&')) | ('>', Some('|')));
        let len = if joined { 2 } else { 1 };
        let operator = self.chars[self.pos..self.pos + len]
            .iter()
            .collect::<String>();
        let word = part.word();
        let appended = word.target.as_deref() == Some("") && word.redirect;
        if appended {
            // `>>`: one operator.
            word.raw.push_str(&operator);
            word.value.push_str(&operator);
            word.output |= operator.contains('>');
        } else {
            word.push_operator(&operator);
        }
        self.pos += len;
    }

    /// One character (or quoted string, or expansion) that continues a word.
    fn word_char(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        let c = self.peek().expect("caller checked");
        match c {
            '\\' => match self.peek_at(1) {
                // A line continuation joins the lines.
                Some('\n') => self.pos += 2,
                Some(escaped) => {
                    part.word().push('\\', None);
                    part.word().push(escaped, Some(escaped));
                    self.pos += 2;
                }
                None => {
                    part.word().push('\\', Some('\\'));
                    self.pos += 1;
                }
            },
            '\'' => self.single_quoted(part.word(), "`'` quote")?,
            '"' => self.double_quoted(part)?,
            '`' => self.backticks(part)?,
            '$' => self.dollar(part)?,
            '*' | '?' | '[' if self.arithmetic == 0 => {
                part.word().push_glob(c);
                self.pos += 1;
            }
            _ => {
                part.word().push(c, Some(c));
                self.pos += 1;
            }
        }
        Ok(())
    }

    /// `'…'`: everything literal up to the next `'`.
    fn single_quoted(&mut self, word: &mut Word, what: &'static str) -> Result<(), SplitError> {
        word.push('\'', None);
        self.pos += 1;
        loop {
            match self.peek() {
                None => return Err(SplitError::Unclosed(what)),
                Some('\'') => {
                    word.push('\'', None);
                    self.pos += 1;
                    return Ok(());
                }
                Some(c) => {
                    word.push(c, Some(c));
                    self.pos += 1;
                }
            }
        }
    }

    /// `$'…'`: decoded as bash decodes it (`\x72`, `\162`, `\u0072`,
    /// `\cA`, `\n`…). What bash would turn into bytes that are not ASCII
    /// (or that depend on the locale) marks the word undecoded.
    fn ansi_c_quoted(&mut self, word: &mut Word) -> Result<(), SplitError> {
        word.push('$', None);
        word.push('\'', None);
        self.pos += 2;
        // After a NUL bash drops the rest of the quoted text.
        let mut truncated = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(SplitError::Unclosed("`$'` quote"));
            };
            self.pos += 1;
            if c == '\'' {
                word.push('\'', None);
                return Ok(());
            }
            word.raw.push(c);
            if c != '\\' {
                if !truncated {
                    word.push_value(c);
                }
                continue;
            }
            let Some(e) = self.peek() else {
                return Err(SplitError::Unclosed("`$'` quote"));
            };
            self.pos += 1;
            word.raw.push(e);
            let Some(code) = self.ansi_c_escape(e, word, truncated) else {
                continue;
            };
            if code == 0 {
                truncated = true;
            } else if code >= 0x80 {
                word.undecoded
                    .get_or_insert("a `$'…'` escape for a character that is not ASCII (its bytes depend on the locale)");
            } else if !truncated {
                word.push_value(char::from_u32(code).expect("ASCII"));
            }
        }
    }

    /// The character code of the `$'…'` escape `\e` (reading the digits or
    /// letter after it), or `None` when it makes no character: kept as
    /// written (pushed here unless the text is `truncated`) or undecoded.
    fn ansi_c_escape(&mut self, e: char, word: &mut Word, truncated: bool) -> Option<u32> {
        let simple = match e {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(simple) = simple {
            return Some(u32::from(simple));
        }
        match e {
            '0'..='7' => {
                let first = e.to_digit(8).expect("octal");
                let (n, _) = self.escape_digits(word, 8, 2, first);
                Some(n & 0xff)
            }
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let (n, digits) = self.escape_digits(word, 16, max, 0);
                if digits == 0 {
                    // No digits: bash keeps `\x` as written.
                    if !truncated {
                        word.push_value('\\');
                        word.push_value(e);
                    }
                    return None;
                }
                Some(n)
            }
            'c' => match self.peek() {
                Some(x) if x.is_ascii() && x != '\'' => {
                    word.raw.push(x);
                    self.pos += 1;
                    if x == '\\' && self.peek() == Some('\\') {
                        word.raw.push('\\');
                        self.pos += 1;
                    }
                    let upper = x.to_ascii_uppercase() as u32;
                    Some(if x == '?' { 0x7f } else { upper & 0x1f })
                }
                _ => {
                    word.undecoded
                        .get_or_insert("a `\\c` escape at the end of `$'…'`");
                    None
                }
            },
            _ => {
                // Not an escape: bash keeps both characters.
                if !truncated {
                    word.push_value('\\');
                    word.push_value(e);
                }
                None
            }
        }
    }

    /// Up to `max` digits in `radix` after an escape's letter: the number
    /// they make (continuing `n`), and how many there were.
    fn escape_digits(
        &mut self,
        word: &mut Word,
        radix: u32,
        max: usize,
        mut n: u32,
    ) -> (u32, usize) {
        let mut digits = 0;
        while digits < max {
            match self.peek().and_then(|d| d.to_digit(radix)) {
                Some(d) => {
                    word.raw.push(self.peek().expect("peeked"));
                    n = n.wrapping_mul(radix).wrapping_add(d);
                    self.pos += 1;
                    digits += 1;
                }
                None => break,
            }
        }
        (n, digits)
    }

    /// `"…"`: literal except for `\`, `$` and backticks.
    fn double_quoted(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        part.word().push('"', None);
        self.pos += 1;
        loop {
            match self.peek() {
                None => return Err(SplitError::Unclosed("`\"` quote")),
                Some('"') => {
                    part.word().push('"', None);
                    self.pos += 1;
                    return Ok(());
                }
                Some('\\') => match self.peek_at(1) {
                    Some('\n') => self.pos += 2,
                    Some(escaped @ ('$' | '`' | '"' | '\\')) => {
                        part.word().push('\\', None);
                        part.word().push(escaped, Some(escaped));
                        self.pos += 2;
                    }
                    _ => {
                        part.word().push('\\', Some('\\'));
                        self.pos += 1;
                    }
                },
                Some('$') => self.dollar(part)?,
                Some('`') => self.backticks(part)?,
                Some(c) => {
                    part.word().push(c, Some(c));
                    self.pos += 1;
                }
            }
        }
    }

    /// At a `$`: a substitution, an expansion, a quote, or a plain `$`.
    fn dollar(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        match self.peek_at(1) {
            // `$((…))` is read as a substitution too: arithmetic then shows
            // up as harmless parts, and a command hidden in it is still seen
            // (bash itself runs `$((cmd) )` as a command substitution).
            Some('(') => {
                let arithmetic = usize::from(self.peek_at(2) == Some('('));
                self.arithmetic += arithmetic;
                let result = self.substitution(part, 2, "`$(`");
                self.arithmetic -= arithmetic;
                result
            }
            Some('{') => self.braced_expansion(part),
            Some('\'') => self.ansi_c_quoted(part.word()),
            Some('"') => {
                part.word().push('$', None);
                part.word()
                    .undecoded
                    .get_or_insert("`$\"…\"`, which the locale may translate");
                self.pos += 1;
                self.double_quoted(part)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let start = self.pos;
                self.pos += 1;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.pos += 1;
                }
                self.dynamic = true;
                let text = self.text(start);
                part.word().push_expansion(&text);
                Ok(())
            }
            Some(c) if c.is_ascii_digit() || "?$!#@*-".contains(c) => {
                self.dynamic = true;
                part.word().push_expansion(&format!("${c}"));
                self.pos += 2;
                Ok(())
            }
            _ => {
                part.word().push('$', Some('$'));
                self.pos += 1;
                Ok(())
            }
        }
    }

    /// `$(`, `<(` or `>(` (`opener_len` characters): its commands are parts
    /// of their own; its text stays in the word as written.
    fn substitution(
        &mut self,
        part: &mut PartBuilder,
        opener_len: usize,
        opener: &'static str,
    ) -> Result<(), SplitError> {
        let start = self.pos;
        self.pos += opener_len;
        let mut inner = self.list(End::Paren(opener))?;
        self.dynamic = true;
        let text = self.text(start);
        part.word().push_expansion(&text);
        part.nested.append(&mut inner);
        Ok(())
    }

    /// `${…}`, which may itself hold substitutions (`${x:-$(cmd)}`).
    fn braced_expansion(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        self.descend()?;
        let start = self.pos;
        self.pos += 2;
        let mut scratch = PartBuilder::default();
        loop {
            match self.peek() {
                None => return Err(SplitError::Unclosed("`${`")),
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                Some('\'') => self.single_quoted(scratch.word(), "`'` quote")?,
                Some('"') => self.double_quoted(&mut scratch)?,
                Some('`') => self.backticks(&mut scratch)?,
                Some('$') => self.dollar(&mut scratch)?,
                Some('\\') => self.pos = (self.pos + 2).min(self.chars.len()),
                Some(_) => self.pos += 1,
            }
        }
        self.depth -= 1;
        self.dynamic = true;
        let text = self.text(start);
        if text.ends_with("@P}") {
            // Prompt expansion of a value runs the substitutions in it.
            part.word()
                .hidden
                .get_or_insert("`${…@P}`, which runs the substitutions in a variable's value");
        }
        part.word().push_expansion(&text);
        part.nested.append(&mut scratch.nested);
        Ok(())
    }

    /// Backticks, the old command substitution. Inside them a backslash
    /// before a backtick, `\\` or `$` stands for that character; the rest
    /// is split on its own.
    fn backticks(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        let start = self.pos;
        self.pos += 1;
        let mut inner = String::new();
        loop {
            match self.peek() {
                None => return Err(SplitError::Unclosed("backtick")),
                Some('`') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') if matches!(self.peek_at(1), Some('`' | '\\' | '$')) => {
                    inner.push(self.peek_at(1).expect("checked"));
                    self.pos += 2;
                }
                Some(c) => {
                    inner.push(c);
                    self.pos += 1;
                }
            }
        }
        let inner: Vec<char> = inner.chars().collect();
        let mut split = Splitter::new(&inner, self.depth + 1).split()?;
        self.dynamic = true;
        let text = self.text(start);
        part.word().push_expansion(&text);
        part.nested.append(&mut split.parts);
        Ok(())
    }

    /// A `(` inside a word (`f()`, `a=(1 2)`, `[[ ( -f x ) ]]`): kept in the
    /// word up to its matching `)`, spaces included.
    fn literal_group(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        self.descend()?;
        if part.word().raw.ends_with(['@', '+', '!', '*', '?']) {
            // An extended glob (`@(rm|x)`).
            part.word().glob = true;
        }
        part.word().push('(', Some('('));
        self.pos += 1;
        loop {
            match self.peek() {
                None => return Err(SplitError::Unclosed("`(`")),
                Some(')') => {
                    part.word().push(')', Some(')'));
                    self.pos += 1;
                    break;
                }
                Some('(') => self.literal_group(part)?,
                Some(c @ (' ' | '\t' | '\n' | '\r')) => {
                    part.word().push(c, Some(c));
                    self.pos += 1;
                }
                Some(_) => self.word_char(part)?,
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// `<<WORD` or `<<-WORD`: remember the delimiter; the body follows the
    /// next newline.
    fn heredoc_operator(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        let strip_tabs = self.peek_at(2) == Some('-');
        let operator = if strip_tabs { "<<-" } else { "<<" };
        let number = self.heredoc_count;
        self.heredoc_count += 1;
        let word = part.word();
        word.operator = format!("{}<<", word.raw);
        word.heredoc = Some(number);
        word.push_opaque(operator);
        word.redirect = true;
        self.pos += operator.len();
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.pos += 1;
        }
        let mut delimiter = Word::default();
        let mut quoted = false;
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\r' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')' => break,
                '\'' => {
                    quoted = true;
                    self.single_quoted(&mut delimiter, "`'` quote")?;
                }
                '"' => {
                    quoted = true;
                    delimiter.push('"', None);
                    self.pos += 1;
                    loop {
                        match self.peek() {
                            None => return Err(SplitError::Unclosed("`\"` quote")),
                            Some('"') => break,
                            Some('\\') if self.peek_at(1).is_some() => {
                                let escaped = self.peek_at(1).expect("checked");
                                delimiter.push('\\', None);
                                delimiter.push(escaped, Some(escaped));
                                self.pos += 2;
                            }
                            Some(c) => {
                                delimiter.push(c, Some(c));
                                self.pos += 1;
                            }
                        }
                    }
                    delimiter.push('"', None);
                    self.pos += 1;
                }
                '\\' => {
                    quoted = true;
                    delimiter.push('\\', None);
                    self.pos += 1;
                    if let Some(escaped) = self.peek() {
                        delimiter.push(escaped, Some(escaped));
                        self.pos += 1;
                    }
                }
                _ => {
                    delimiter.push(c, Some(c));
                    self.pos += 1;
                }
            }
        }
        if delimiter.raw.is_empty() {
            return Err(SplitError::MissingHeredocDelimiter);
        }
        self.heredocs.push(Heredoc {
            number,
            delimiter: delimiter.value,
            strip_tabs,
            expands: !quoted,
        });
        part.word().push_opaque(&delimiter.raw);
        Ok(())
    }

    /// After a newline: skip the bodies of the here-documents announced on
    /// the line just ended. A body is data, not commands, but an unquoted
    /// one still runs its `$( )` and backticks, which become parts.
    fn heredoc_bodies(&mut self, collect: &mut PartBuilder) -> Result<(), SplitError> {
        for heredoc in std::mem::take(&mut self.heredocs) {
            let body_start = self.pos;
            let mut body_end = self.chars.len();
            while self.pos < self.chars.len() {
                let line_end = self.chars[self.pos..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(self.chars.len(), |i| self.pos + i);
                let mut line = &self.chars[self.pos..line_end];
                if heredoc.strip_tabs {
                    let tabs = line.iter().take_while(|&&c| c == '\t').count();
                    line = &line[tabs..];
                }
                if line.iter().copied().eq(heredoc.delimiter.chars()) {
                    body_end = self.pos;
                    self.pos = (line_end + 1).min(self.chars.len());
                    break;
                }
                if !heredoc.expands {
                    self.pos = (line_end + 1).min(self.chars.len());
                    continue;
                }
                // Expansions may span lines; continue wherever they end.
                while let Some(c) = self.peek() {
                    match c {
                        '\n' => break,
                        '\\' => self.pos = (self.pos + 2).min(self.chars.len()),
                        '$' => self.dollar(collect)?,
                        '`' => self.backticks(collect)?,
                        _ => self.pos += 1,
                    }
                }
                self.pos = (self.pos + 1).min(self.chars.len());
            }
            let body_end = body_end.max(body_start).min(self.chars.len());
            let mut body: String = self.chars[body_start..body_end].iter().collect();
            if heredoc.strip_tabs {
                body = body
                    .split_inclusive('\n')
                    .map(|line| line.trim_start_matches('\t'))
                    .collect();
            }
            let known = if heredoc.expands && body.contains(['$', '`', '\\']) {
                Stdin::Unknown("a here-document with expansions".to_owned())
            } else {
                Stdin::Text(body)
            };
            self.bodies.push((heredoc.number, known));
        }
        // Words the scratch builder collected are the body's, not a part's.
        collect.word = None;
        Ok(())
    }
}

/// Render a split for reports: `part | part` with `(dynamic)` when it is.
pub fn describe(split: &SplitCommand) -> String {
    let mut out = split
        .parts
        .iter()
        .map(|part| format!("`{}`", part.text))
        .collect::<Vec<_>>()
        .join(", ");
    if split.dynamic {
        out.push_str(" (contains substitutions or variables)");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(command: &str) -> Vec<String> {
        split_command(command)
            .unwrap_or_else(|e| panic!("{command:?}: {e}"))
            .parts
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn separators() {
        let cases: &[(&str, &[&str])] = &[
            ("ls", &["ls"]),
            ("  ls   -la  ", &["ls -la"]),
            ("a && b", &["a", "b"]),
            ("a || b", &["a", "b"]),
            ("a; b", &["a", "b"]),
            ("a;b;;c", &["a", "b", "c"]),
            ("a | b", &["a", "b"]),
            ("a |& b", &["a", "b"]),
            ("a & b", &["a", "b"]),
            ("a &", &["a"]),
            ("a\nb\r\nc", &["a", "b", "c"]),
            ("a&&b||c|d;e&f", &["a", "b", "c", "d", "e", "f"]),
            (
                "cd repo && git push origin",
                &["cd repo", "git push origin"],
            ),
            ("", &[]),
            ("   \n  ; ", &[]),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), expected, "{command:?}");
        }
    }

    #[test]
    fn redirections_are_not_separators() {
        let cases: &[(&str, &[&str])] = &[
            ("make 2>&1 | tee log", &["make 2>&1", "tee log"]),
            ("make &> log", &["make &> log"]),
            ("make &>> log && ls", &["make &>> log", "ls"]),
            ("make >&2", &["make >&2"]),
            ("exec 3<&0", &["exec 3<&0"]),
            ("echo x >| file", &["echo x >| file"]),
            ("cat < in > out", &["cat < in > out"]),
            ("cat <<< 'text'", &["cat <<< 'text'"]),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), expected, "{command:?}");
        }
    }

    #[test]
    fn quotes_keep_separators() {
        let cases: &[(&str, &[&str])] = &[
            (r#"echo "a && b""#, &[r#"echo "a && b""#]),
            ("echo 'a; b | c'", &["echo 'a; b | c'"]),
            (r"echo a\;b && c", &[r"echo a\;b", "c"]),
            (r#"echo "it's" && b"#, &[r#"echo "it's""#, "b"]),
            (r#"echo "a \" && b" c"#, &[r#"echo "a \" && b" c"#]),
            ("echo $'a\\' b' && c", &["echo $'a\\' b'", "c"]),
            ("echo 'a   b'   c", &["echo 'a   b' c"]),
            ("echo a#b # && rm -rf /", &["echo a#b"]),
            ("git push \\\n  origin", &["git push origin"]),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), expected, "{command:?}");
        }
    }

    #[test]
    fn plain_removes_quoting() {
        let split = split_command(r#""rm" -rf '/' "a b" c\ d"#).unwrap();
        assert_eq!(split.parts[0].plain, "rm -rf / a b c d");
        assert_eq!(split.parts[0].text, r#""rm" -rf '/' "a b" c\ d"#);
    }

    #[test]
    fn assignments_and_wrappers_are_dropped() {
        let cases: &[(&str, &str)] = &[
            ("FOO=1 BAR=\"a b\" git push", "git push"),
            ("A+=x git push", "git push"),
            ("timeout 10 git push", "git push"),
            ("timeout -s KILL -k 5 10s git push", "git push"),
            (
                "timeout --signal=TERM --preserve-status 1.5m git push",
                "git push",
            ),
            ("timeout -- 10 git push", "git push"),
            ("time git push", "git push"),
            ("time -p git push", "git push"),
            ("nice git push", "git push"),
            ("nice -n 5 git push", "git push"),
            ("nice -n5 git push", "git push"),
            ("nice -10 git push", "git push"),
            ("nice --adjustment=3 git push", "git push"),
            ("nohup git push", "git push"),
            ("nohup -- git push", "git push"),
            ("stdbuf -oL git push", "git push"),
            ("stdbuf -oL -eL -i0 git push", "git push"),
            ("stdbuf -o L git push", "git push"),
            ("stdbuf --output=L git push", "git push"),
            ("command git push", "git push"),
            ("command -p git push", "git push"),
            ("builtin echo x", "echo x"),
            ("noglob git push", "git push"),
            ("xargs git push", "git push"),
            ("nohup nice -n 5 git push", "git push"),
            ("FOO=1 timeout 5 nohup time -p env", "env"),
            ("\"nohup\" git push", "git push"),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), [expected], "{command:?}");
        }
    }

    #[test]
    fn look_alikes_are_not_wrappers() {
        let cases: &[(&str, &str)] = &[
            // Not a duration: not the wrapper.
            ("timeout git push", "timeout git push"),
            ("command -v git", "command -v git"),
            ("xargs -0 rm", "xargs -0 rm"),
            ("stdbuf git push", "stdbuf git push"),
            ("nohupx git push", "nohupx git push"),
            ("echo FOO=1", "echo FOO=1"),
            ("\"FOO=1\" git", "\"FOO=1\" git"),
            ("1A=2 x", "1A=2 x"),
            ("env FOO=1 git push", "env FOO=1 git push"),
            ("sudo git push", "sudo git push"),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), [expected], "{command:?}");
        }
    }

    #[test]
    fn full_keeps_what_was_dropped() {
        let split = split_command("FOO=1  nohup   git push").unwrap();
        assert_eq!(split.parts[0].full, "FOO=1 nohup git push");
        assert_eq!(split.parts[0].text, "git push");
    }

    #[test]
    fn parts_that_run_nothing_are_left_out() {
        assert_eq!(texts("FOO=1 && ls"), ["ls"]);
        // A wrapper with nothing to wrap runs itself.
        assert_eq!(texts("nohup"), ["nohup"]);
        assert_eq!(texts("# just a comment"), Vec::<String>::new());
    }

    #[test]
    fn substitutions_are_parts_of_their_own() {
        let cases: &[(&str, &[&str])] = &[
            ("echo $(date)", &["echo $(date)", "date"]),
            ("echo `date`", &["echo `date`", "date"]),
            (
                "echo \"$(git log | head -1)\" done",
                &["echo \"$(git log | head -1)\" done", "git log", "head -1"],
            ),
            ("echo $(a $(b))", &["echo $(a $(b))", "a $(b)", "b"]),
            ("echo `a \\`b\\``", &["echo `a \\`b\\``", "a `b`", "b"]),
            (
                "diff <(ls a) >(cat)",
                &["diff <(ls a) >(cat)", "ls a", "cat"],
            ),
            (
                "echo ${x:-$(rm -rf /)}",
                &["echo ${x:-$(rm -rf /)}", "rm -rf /"],
            ),
            ("$(echo git) push", &["$(echo git) push", "echo git"]),
            ("x=$(whoami) && ls", &["whoami", "ls"]),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), expected, "{command:?}");
            assert!(split_command(command).unwrap().dynamic, "{command:?}");
        }
    }

    #[test]
    fn dynamic_detection() {
        let cases: &[(&str, bool)] = &[
            ("echo $HOME", true),
            ("echo ${HOME}", true),
            ("echo \"$HOME\"", true),
            ("echo $1 $? $$ $@", true),
            ("echo $((1 + 2))", true),
            ("echo '$HOME'", false),
            ("echo \\$HOME", false),
            ("echo \"\\$HOME\"", false),
            ("echo $'\\x41'", false),
            ("echo $ cost", false),
            ("echo price$", false),
            ("git push origin main", false),
            ("cat <<'EOF'\n$HOME $(rm)\nEOF", false),
            ("cat <<EOF\n$HOME\nEOF", true),
        ];
        for &(command, dynamic) in cases {
            assert_eq!(
                split_command(command).unwrap().dynamic,
                dynamic,
                "{command:?}"
            );
        }
    }

    #[test]
    fn groups_and_keywords() {
        let cases: &[(&str, &[&str])] = &[
            ("(cd x && rm -rf y)", &["cd x", "rm -rf y"]),
            ("(rm -rf /)", &["rm -rf /"]),
            ("(a) > out", &["a", "> out"]),
            ("{ ls; pwd; }", &["ls", "pwd"]),
            ("! grep x f", &["grep x f"]),
            ("if true; then rm -rf /; fi", &["true", "rm -rf /"]),
            ("while true; do sleep 1; done", &["true", "sleep 1"]),
            ("if ! (a); then b; else c; fi", &["a", "b", "c"]),
            ("f() { rm x; }; f", &["f()", "rm x", "f"]),
            ("f() { (rm x); }; f", &["rm x", "f()", "f"]),
            ("a=(1 2 3) && ls", &["ls"]),
            ("[[ ( -f x ) ]] && ls", &["[[ ( -f x ) ]]", "ls"]),
            ("\"if\" x", &["\"if\" x"]),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), expected, "{command:?}");
        }
    }

    #[test]
    fn heredoc_bodies_are_data() {
        let cases: &[(&str, &[&str])] = &[
            ("cat <<EOF\nrm -rf /\nEOF\nls", &["cat <<EOF", "ls"]),
            (
                "cat << 'EOF' > f && ls\nrm x\nEOF\npwd",
                &["cat <<'EOF' > f", "ls", "pwd"],
            ),
            ("cat <<-END\n\tbody\n\tEND\nls", &["cat <<-END", "ls"]),
            ("cat <<\"E F\"\nx\nE F\nls", &["cat <<\"E F\"", "ls"]),
            ("cat <<EOF\n$(rm -rf /)\nEOF", &["cat <<EOF", "rm -rf /"]),
            ("cat <<EOF\nunterminated", &["cat <<EOF"]),
            (
                "git commit -m \"$(cat <<'EOF'\nfix: a && b\nEOF\n)\" && git push",
                &[
                    "git commit -m \"$(cat <<'EOF'\nfix: a && b\nEOF\n)\"",
                    "cat <<'EOF'",
                    "git push",
                ],
            ),
            ("a <<X; b <<Y\nx\nX\ny\nY\nc", &["a <<X", "b <<Y", "c"]),
            // Shifts are not here-documents.
            (
                "echo $((1<<2))\nreboot",
                &["echo $((1<<2))", "1<<2", "reboot"],
            ),
            ("((x <<= 1))\nreboot", &["x <<= 1", "reboot"]),
            ("echo $((reboot) )", &["echo $((reboot) )", "reboot"]),
        ];
        for &(command, expected) in cases {
            assert_eq!(texts(command), expected, "{command:?}");
        }
    }

    #[test]
    fn errors() {
        let cases: &[(&str, SplitError)] = &[
            ("echo 'a", SplitError::Unclosed("`'` quote")),
            ("echo \"a", SplitError::Unclosed("`\"` quote")),
            ("echo $(a", SplitError::Unclosed("`$(`")),
            ("echo `a", SplitError::Unclosed("backtick")),
            ("echo ${a", SplitError::Unclosed("`${`")),
            ("(a", SplitError::Unclosed("`(`")),
            ("echo <(a", SplitError::Unclosed("`<(`")),
            ("a)", SplitError::UnexpectedCloseParen),
            ("cat <<", SplitError::MissingHeredocDelimiter),
            ("echo $'a", SplitError::Unclosed("`$'` quote")),
        ];
        for (command, error) in cases {
            assert_eq!(split_command(command).as_ref(), Err(error), "{command:?}");
        }
        let deep = "$(".repeat(MAX_DEPTH + 1);
        assert_eq!(split_command(&deep), Err(SplitError::TooDeep));
        let deep_backticks = "`".repeat(200);
        assert!(split_command(&deep_backticks).is_ok());
    }

    #[test]
    fn case_statements_parse() {
        assert_eq!(texts("case $a in x) rm y;; esac"), ["rm y"]);
        assert_eq!(
            texts(
                "case \"$1\" in\n  (start|run) ./go ;;\n  stop) kill 1 ;&\n  *) echo no ;;\nesac; ls"
            ),
            ["./go", "kill 1", "echo no", "ls"]
        );
        assert_eq!(
            texts("case x in a) case y in b) ls;; esac;; esac && pwd"),
            ["ls", "pwd"]
        );
        // A `)` outside any case is still an error, after one too.
        assert!(split_command("case x in a) ls;; esac; rm x)").is_err());
        assert!(split_command("rm x)").is_err());
        // Subshells inside branches are still subshells.
        assert_eq!(texts("case x in a) (rm y) ;; esac"), ["rm y"]);
    }

    #[test]
    fn parts_know_what_they_hide() {
        let part = |command: &str| split_command(command).unwrap().parts.remove(0);
        let p = part("2>&1 sudo -u root /bin/rm -rf x >out");
        assert!(p.seen_through.contains(&"rm -rf x".to_owned()), "{p:?}");
        assert!(p.not_allowable.is_some());
        let p = part("bash -lc 'rm x'");
        assert_eq!(p.runs, ["rm x"]);
        let p = part("eval rm \"x y\"");
        assert_eq!(p.runs, ["rm x y"]);
        let p = part("{rm,-rf,x}");
        assert!(p.seen_through.contains(&"rm -rf x".to_owned()), "{p:?}");
        let p = part("echo x > ~/.bashrc");
        assert!(
            p.not_allowable
                .as_deref()
                .is_some_and(|w| w.contains("writes to a file"))
        );
        for harmless in ["echo x > /dev/null", "echo x 2>&1", "ls >&2", "cat <in"] {
            assert_eq!(part(harmless).not_allowable, None, "{harmless}");
        }
        // Hostile input: many wrappers are bounded.
        let p = part(&"sudo ".repeat(2000));
        assert!(p.seen_through.len() <= MAX_VIEWS);
    }

    #[test]
    fn ansi_c_quoting_is_decoded_as_bash_does() {
        let plain = |command: &str| split_command(command).unwrap().parts.remove(0).plain;
        let cases: &[(&str, &str)] = &[
            (r"$'\x72m' x", "rm x"),
            (r"$'\162m' x", "rm x"),
            (r"$'\u0072m' x", "rm x"),
            (r"$'\U00000072m' x", "rm x"),
            (r"$'\x72\x6d'", "rm"),
            (r"$'\x7'2", "\u{7}2"),
            (r"$'\1622'", "r2"),
            (r"$'a\tb'", "a\tb"),
            (r"$'\q'", "\\q"),
            (r"$'\x'", "\\x"),
            (r"$'\''", "'"),
            (r"$'\cA'", "\u{1}"),
            (r"$'\c?'", "\u{7f}"),
            // bash stops the quoted text at a NUL.
            (r"$'rm\0zz' x", "rm x"),
            (r"$'r\x00m'm", "rm"),
        ];
        for &(command, expected) in cases {
            assert_eq!(plain(command), expected, "{command:?}");
        }
        // Bytes that are not ASCII depend on the locale: not decoded.
        let part = split_command(r"$'\xe9' x").unwrap().parts.remove(0);
        assert!(part.unjudgeable.is_some(), "{part:?}");
    }

    #[test]
    fn shells_read_what_they_are_fed() {
        let part = |command: &str, i: usize| split_command(command).unwrap().parts.remove(i);
        let fed: &[(&str, usize, &str)] = &[
            ("sh <<< 'rm x'", 0, "rm x\n"),
            ("bash <<EOF\nrm x\nEOF", 0, "rm x\n"),
            ("bash <<'EOF'\n$X\nEOF", 0, "$X\n"),
            ("sh <<-EOF\n\trm x\n\tEOF", 0, "rm x\n"),
            ("echo 'rm x' | sh", 1, "rm x\n"),
            ("echo -n rm x | bash -s", 1, "rm x"),
            ("printf 'rm x\\n' | dash", 1, "rm x\n"),
            ("echo rm | (sh)", 1, "rm\n"),
            (". /dev/stdin <<< 'rm x'", 0, "rm x\n"),
            ("bash /dev/stdin <<< 'rm x'", 0, "rm x\n"),
        ];
        for &(command, index, text) in fed {
            let p = part(command, index);
            assert_eq!(p.runs, [text], "{command:?}: {p:?}");
            assert!(p.not_allowable.is_some(), "{command:?}");
        }
        let hidden: &[(&str, usize)] = &[
            ("curl -s x | sh", 1),
            ("cat f | bash", 1),
            ("sh < f", 0),
            ("bash", 0),
            ("bash -s", 0),
            ("bash <<EOF\n$X\nEOF", 0),
            ("echo \"$X\" | sh", 1),
            ("echo 'a\\nb' | sh", 1),
            ("bash <(curl x)", 0),
            ("source <(curl x)", 0),
            ("su", 0),
        ];
        for &(command, index) in hidden {
            let p = part(command, index);
            assert!(p.unjudgeable.is_some(), "{command:?}: {p:?}");
        }
        // A script file is a program of its own; `-c` lines are read.
        for command in ["bash ./build.sh", "sh -c 'ls'", "echo 'ls' > f"] {
            assert_eq!(part(command, 0).unjudgeable, None, "{command:?}");
        }
    }

    #[test]
    fn command_names_only_the_shell_knows_cannot_be_judged() {
        let part = |command: &str| split_command(command).unwrap().parts.remove(0);
        for command in [
            "$X",
            "${X} y",
            "\"$X\"",
            "$(echo rm) x",
            "`echo rm` x",
            "r* x",
            "./[r]m",
            "r? x",
            "@(rm) x",
            "r{m,} x",
            "$\"rm\" x",
            "sudo $X",
            "env -i $X",
        ] {
            let p = part(command);
            assert!(p.unjudgeable.is_some(), "{command:?}: {p:?}");
            assert!(p.not_allowable.is_some(), "{command:?}");
        }
        for command in [
            "echo $X",
            "ls *.rs",
            "[ -f x ]",
            "[[ -n $X ]]",
            "{rm,-rf,x}",
            "\\rm x",
            "r''m x",
            "timeout 5 pytest $F",
            "git log --format=%H",
        ] {
            assert_eq!(part(command).unjudgeable, None, "{command:?}");
        }
    }

    #[test]
    fn describe_lists_parts() {
        let split = split_command("a && b $(c)").unwrap();
        assert_eq!(
            describe(&split),
            "`a`, `b $(c)`, `c` (contains substitutions or variables)"
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics(command in "\\PC{0,80}") {
            let _ = split_command(&command);
        }

        #[test]
        fn never_panics_on_shell_syntax(command in "[a-c $()`'\"\\\\;&|<>{}#\n-]{0,60}") {
            if let Ok(split) = split_command(&command) {
                for part in split.parts {
                    // Whitespace may end a part only when escaped (`ls \ `).
                    proptest::prop_assert!(!part.text.is_empty());
                    proptest::prop_assert!(!part.text.starts_with([' ', '\t', '\n']));
                }
            }
        }
    }
}

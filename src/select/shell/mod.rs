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

mod builder;
mod grammar;
mod multiplexers;
mod part;
mod plain;
mod powershell;
pub use powershell::cmdlet_named;
mod shells;
mod views;
mod word;
mod wrappers;

#[cfg(test)]
mod tests;

pub use plain::{is_inert_variable, not_plain};

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
    /// Its redirections, in the order written (`2>&1`, `> out`, `<<EOF`),
    /// wherever they stand in the command.
    pub redirects: Vec<Redirect>,
    /// The `NAME=value` words before the command (after keywords and
    /// wrappers too: `nice A=1 x` has none, `A=1 nice x` has one), the value
    /// unquoted with [`HOLE`] for expansions and unquoted glob characters.
    pub assignments: Vec<(String, String)>,
    /// Some view in `seen_through` holds a [`HOLE`] (an expansion or a glob
    /// in an argument): worked out once here, not by every rule.
    pub holes: bool,
}

/// One redirection of a part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The operator with the descriptor written before it: `>`, `2>`,
    /// `>>`, `&>`, `>&`, `2>&`, `<`, `<<<`, `<<` (a here-document), `<>`.
    pub operator: String,
    /// Its target unquoted, with [`HOLE`] for expansions and unquoted glob
    /// characters (`out`, `1` for `2>&1`, `/dev/null`); for a
    /// here-document, its delimiter as written.
    pub target: String,
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
    #[error(
        "it is {0} KiB long, more than the {limit} KiB hookrun reads; write it in smaller steps",
        limit = MAX_COMMAND_LEN / 1024
    )]
    TooLong(usize),
}

/// Deeper nesting than any real command has; the limit keeps hostile input
/// from exhausting the stack.
const MAX_DEPTH: usize = 64;

/// Longer commands are not read at all ("cannot judge"): no shell started
/// with `-c` can even receive one as long on Linux (one argument is at most
/// 128 KiB), and reading is linear, so this bounds the time too.
pub const MAX_COMMAND_LEN: usize = 256 * 1024;

/// Split `command` into the simple commands it runs.
pub fn split_command(command: &str) -> Result<SplitCommand, SplitError> {
    if command.len() > MAX_COMMAND_LEN {
        return Err(SplitError::TooLong(command.len() / 1024));
    }
    let chars: Vec<char> = command.chars().collect();
    grammar::Splitter::new(&chars, 0).split()
}

/// Stands for text only the running shell knows (an expansion, a
/// substitution, what a glob matches) in [`Word::hole`] and in the views of
/// [`CommandPart::seen_through`]: the deny side matches it against anything.
pub const HOLE: char = '\u{FFFF}';

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

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
//! its base name (`/bin/rm`), brace expansion (`{rm,-rf,x}`), the command
//! after `sudo`, `env`, `exec`, `xargs`, `coproc`, `find -exec` and the other
//! wrappers whatever their options, and the command line given to `sh -c`,
//! `bash -c` or `eval`, which the rule engine splits in turn. Allow rules get
//! the opposite: a part using any of these constructs, or writing to a file
//! (`> ~/.bashrc`), is never covered ([`CommandPart::not_allowable`]). What it
//! still does not see: a script piped into a shell (`… | sh`), which is data,
//! and effects of commands (`find . -delete` deletes without running `rm`):
//! rules name commands, not effects.
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

/// A word as written (`raw`) and as the shell passes it on (`value`).
#[derive(Debug, Clone, Default)]
struct Word {
    raw: String,
    value: String,
    /// A redirection (`>out`, `2>&1`, `<<EOF`), or the target word of one.
    redirect: bool,
    /// An output redirection (`>`, `>>`, `&>`, `>|`, `>&`).
    output: bool,
    /// The redirection target read so far, when this word has an operator.
    target: Option<String>,
}

impl Word {
    fn push(&mut self, raw: char, value: Option<char>) {
        self.raw.push(raw);
        if let Some(value) = value {
            self.value.push(value);
            if let Some(target) = &mut self.target {
                target.push(value);
            }
        }
    }

    /// Text whose meaning only the running shell knows: kept as written.
    fn push_opaque(&mut self, text: &str) {
        self.raw.push_str(text);
        self.value.push_str(text);
        if let Some(target) = &mut self.target {
            target.push_str(text);
        }
    }

    /// A redirection operator: what follows (here or in the next word) is
    /// its target.
    fn push_operator(&mut self, operator: &str) {
        self.raw.push_str(operator);
        self.value.push_str(operator);
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
}

/// The simple command being read.
#[derive(Debug, Default)]
struct PartBuilder {
    words: Vec<Word>,
    word: Option<Word>,
    /// The last word was a redirection operator without its target
    /// (`> out`): the next word is the target (output or not).
    pending_target: Option<bool>,
    /// Parts found inside this one's substitutions, reported after it.
    nested: Vec<CommandPart>,
}

impl PartBuilder {
    fn word(&mut self) -> &mut Word {
        let pending = &mut self.pending_target;
        self.word.get_or_insert_with(|| match pending.take() {
            Some(output) => Word {
                redirect: true,
                output,
                target: Some(String::new()),
                ..Word::default()
            },
            None => Word::default(),
        })
    }

    fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            if word.target.as_deref() == Some("") {
                self.pending_target = Some(word.output);
            }
            self.words.push(word);
        }
    }

    fn in_word(&self) -> bool {
        self.word.is_some()
    }

    /// Where a `(` opens a subshell rather than being part of a word.
    fn at_command_position(&self) -> bool {
        !self.in_word() && self.words.iter().all(is_keyword)
    }

    /// Append the finished part (if it runs anything) and its nested parts.
    fn finish_into(&mut self, parts: &mut Vec<CommandPart>) {
        self.end_word();
        self.pending_target = None;
        let words = std::mem::take(&mut self.words);
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
        parts.append(&mut self.nested);
    }
}

fn is_keyword(word: &Word) -> bool {
    word.raw == word.value && KEYWORDS.contains(&word.raw.as_str())
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
    if start == words.len() {
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
    };
    see_through(words, &mut part);
    Some(part)
}

/// Wrappers that run the rest of their words as a command, for the rules
/// that fail toward matching: any later word may be where the command
/// starts (their options are not parsed, so `sudo -u root rm x` and `env
/// -i A=1 rm x` are both seen as `rm x`).
const RUNNERS: &[&str] = &[
    "sudo",
    "doas",
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
    "noglob",
    "then",
    "do",
    "else",
    "!",
];

/// Shells whose `-c` argument is a command line.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "busybox",
];

/// The most views one part gets; past it the part cannot be judged.
const MAX_VIEWS: usize = 256;

/// Fills `seen_through`, `runs` and `not_allowable` (see [`CommandPart`]).
fn see_through(all_words: &[Word], part: &mut CommandPart) {
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
    let words = all_words;
    // Redirections run nothing: drop them (and their targets) everywhere.
    let words: Vec<&Word> = words.iter().filter(|w| !w.redirect).collect();
    let first = command_start_of(&words, 0);
    if let Some(word) = all_words.iter().find(|w| w.writes_a_file()) {
        part.not_allowable = Some(format!("it writes to a file (`{}`)", word.raw));
    }
    let mut starts = vec![first];
    let mut seen = vec![false; words.len() + 1];
    while let Some(start) = starts.pop() {
        let start = command_start_of(&words, start);
        if start >= words.len() || seen[start] {
            continue;
        }
        seen[start] = true;
        if part.seen_through.len() >= MAX_VIEWS {
            let why = format!("more than {MAX_VIEWS} ways to read its wrappers");
            part.not_allowable = Some(why.clone());
            part.unjudgeable = Some(why);
            return;
        }
        let head = words[start];
        let name = base_name(&head.value);
        let rest = words[start + 1..].iter().map(|w| w.value.as_str());
        let mut view: Vec<String> = Vec::with_capacity(words.len() - start);
        if let Some(expanded) = brace_words(head) {
            part.not_allowable.get_or_insert_with(|| {
                format!("its command is a brace expansion (`{}`)", head.raw)
            });
            view.extend(expanded);
        } else {
            view.push(name.to_owned());
        }
        view.extend(rest.map(str::to_owned));
        part.seen_through.push(view.join(" "));
        let view_name = view[0].clone();
        let name = base_name(&view_name);
        if RUNNERS.contains(&name) {
            starts.extend(start + 1..words.len());
        } else if name == "find" {
            for (i, w) in words.iter().enumerate().skip(start + 1) {
                if matches!(w.value.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                    starts.push(i + 1);
                }
            }
        } else if SHELLS.contains(&name) || name == "eval" {
            let args = &words[start + 1..];
            let commands = if name == "eval" {
                vec![
                    args.iter()
                        .map(|w| w.value.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                ]
            } else if args.iter().any(|w| is_c_option(&w.value)) {
                args.iter()
                    .filter(|w| !w.value.starts_with(['-', '+']))
                    .map(|w| w.value.clone())
                    .collect()
            } else {
                Vec::new()
            };
            if !commands.is_empty() {
                part.not_allowable
                    .get_or_insert_with(|| format!("it hands a command line to `{name}`"));
                part.runs.extend(commands);
            }
            // `busybox sh -c …`, `sh script`: the words after may run too.
            if name == "busybox" {
                starts.push(start + 1);
            }
        }
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

/// `command_start` from `from` on.
fn command_start_of(words: &[&Word], from: usize) -> usize {
    let from = from.min(words.len());
    from + command_start(&words[from..])
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
        } else if let Some(skip) = wrapper_len(rest) {
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
            arithmetic: 0,
        }
    }

    fn split(mut self) -> Result<SplitCommand, SplitError> {
        let parts = self.list(End::Input)?;
        Ok(SplitCommand {
            parts,
            dynamic: self.dynamic,
        })
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
                // A word ends at a blank or an operator: `esac` may be one.
                let ends_word = match self.peek() {
                    None => true,
                    Some('&') => self.peek_at(1) != Some('>'),
                    Some(c) => " \t\r\n;|)".contains(c),
                };
                if ends_word {
                    part.end_word();
                }
                close_cases(&mut part, &mut cases);
            }
            let Some(c) = self.peek() else {
                if let End::Paren(opener) = end {
                    return Err(SplitError::Unclosed(opener));
                }
                part.finish_into(&mut parts);
                break;
            };
            let next = self.peek_at(1);
            match c {
                ' ' | '\t' | '\r' => {
                    part.end_word();
                    self.pos += 1;
                }
                '\n' => {
                    part.end_word();
                    if is_case_header(&part.words) {
                        // `case WORD in` ends its line: patterns follow.
                        part.words.clear();
                        cases.push(true);
                    }
                    part.finish_into(&mut parts);
                    self.pos += 1;
                    let mut bodies = PartBuilder::default();
                    self.heredoc_bodies(&mut bodies)?;
                    parts.append(&mut bodies.nested);
                }
                '#' if !part.in_word() => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                ';' => {
                    part.finish_into(&mut parts);
                    // `;;`, `;&` and `;;&` end a `case` branch.
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
                '&' if next == Some('>') => {
                    part.word().push_operator("&>");
                    self.pos += 2;
                }
                '|' if next != Some('|') && in_case_pattern(&mut part, &cases) => {
                    // `a|b)`: alternatives of one pattern.
                    part.end_word();
                    self.pos += 1;
                }
                '&' | '|' => {
                    part.finish_into(&mut parts);
                    let doubled = next == Some('&') || (c == '|' && next == Some('|'));
                    self.pos += if doubled { 2 } else { 1 };
                }
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
                '<' | '>' => {
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
                    part.finish_into(&mut parts);
                    break;
                }
                _ => self.word_char(&mut part)?,
            }
        }
        self.depth -= 1;
        Ok(parts)
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

    /// `$'…'`: like `'…'`, but a backslash escapes the next character.
    fn ansi_c_quoted(&mut self, word: &mut Word) -> Result<(), SplitError> {
        word.push('$', None);
        word.push('\'', None);
        self.pos += 2;
        loop {
            match self.peek() {
                None => return Err(SplitError::Unclosed("`$'` quote")),
                Some('\'') => {
                    word.push('\'', None);
                    self.pos += 1;
                    return Ok(());
                }
                Some('\\') if self.peek_at(1).is_some() => {
                    let escaped = self.peek_at(1).expect("checked");
                    word.push('\\', None);
                    word.push(escaped, Some(escaped));
                    self.pos += 2;
                }
                Some(c) => {
                    word.push(c, Some(c));
                    self.pos += 1;
                }
            }
        }
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
                part.word().push_opaque(&text);
                Ok(())
            }
            Some(c) if c.is_ascii_digit() || "?$!#@*-".contains(c) => {
                self.dynamic = true;
                part.word().push_opaque(&format!("${c}"));
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
        part.word().push_opaque(&text);
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
        part.word().push_opaque(&text);
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
        part.word().push_opaque(&text);
        part.nested.append(&mut split.parts);
        Ok(())
    }

    /// A `(` inside a word (`f()`, `a=(1 2)`, `[[ ( -f x ) ]]`): kept in the
    /// word up to its matching `)`, spaces included.
    fn literal_group(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        self.descend()?;
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
        part.word().push_opaque(operator);
        part.word().redirect = true;
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
        assert_eq!(texts("nohup"), Vec::<String>::new());
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

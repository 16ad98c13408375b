//! Words as the reader keeps them (as written, as the shell passes them on,
//! with holes for the deny side).

use super::HOLE;

/// Words that may precede a command without being it. Recognised only
/// unquoted (`"if"` is a command named `if`).
pub(super) const KEYWORDS: &[&str] = &[
    "!", "{", "}", "if", "then", "elif", "else", "fi", "while", "until", "do", "done", "esac",
];

/// A word as written (`raw`) and as the shell passes it on (`value`).
#[derive(Debug, Clone, Default)]
pub(super) struct Word {
    pub(super) raw: String,
    pub(super) value: String,
    /// `value` with every expansion, substitution and unquoted glob
    /// character replaced by [`HOLE`].
    pub(super) hole: String,
    /// A redirection (`>out`, `2>&1`, `<<EOF`), or the target word of one.
    pub(super) redirect: bool,
    /// An output redirection (`>`, `>>`, `&>`, `>|`, `>&`).
    pub(super) output: bool,
    /// The redirection target read so far, when this word has an operator.
    pub(super) target: Option<String>,
    /// `target` with expansions and unquoted glob characters as [`HOLE`].
    pub(super) target_hole: String,
    /// The redirection operator with the descriptor written before it
    /// (`2>`, `<<<`, `0<`), on the operator's word and on its target's.
    pub(super) operator: String,
    /// The word holds an expansion or a substitution.
    pub(super) dynamic: bool,
    /// The word holds an unquoted glob character (`*`, `?`, `[`), an
    /// extended glob (`@(…)`) or a brace expansion that is not the whole word.
    pub(super) glob: bool,
    /// Quoting hookrun does not decode, as a reason.
    pub(super) undecoded: Option<&'static str>,
    /// The here-document (by its number in the command) this word announces.
    pub(super) heredoc: Option<usize>,
    /// An expansion that runs commands hookrun cannot see, wherever the
    /// word is (`${x@P}`), as a reason.
    pub(super) hidden: Option<&'static str>,
    /// A function definition's `NAME()`: like a keyword, what follows is a
    /// command (the function's body).
    pub(super) function_header: bool,
}

impl Word {
    pub(super) fn push(&mut self, raw: char, value: Option<char>) {
        self.raw.push(raw);
        if let Some(value) = value {
            self.value.push(value);
            self.hole.push(value);
            if let Some(target) = &mut self.target {
                target.push(value);
                self.target_hole.push(value);
            }
        }
    }

    /// Decoded text with no raw counterpart of its own (`$'\x72'`).
    pub(super) fn push_value(&mut self, value: char) {
        self.value.push(value);
        self.hole.push(value);
        if let Some(target) = &mut self.target {
            target.push(value);
            self.target_hole.push(value);
        }
    }

    /// An unquoted glob character: kept, but a hole for the deny side.
    pub(super) fn push_glob(&mut self, c: char) {
        self.raw.push(c);
        self.value.push(c);
        self.hole.push(HOLE);
        self.glob = true;
        if let Some(target) = &mut self.target {
            target.push(c);
            self.target_hole.push(HOLE);
        }
    }

    /// Text whose meaning only the running shell knows: kept as written.
    pub(super) fn push_opaque(&mut self, text: &str) {
        self.raw.push_str(text);
        self.value.push_str(text);
        self.hole.push_str(text);
        if let Some(target) = &mut self.target {
            target.push_str(text);
            self.target_hole.push_str(text);
        }
    }

    /// An expansion or substitution: kept as written, a hole for the deny
    /// side.
    pub(super) fn push_expansion(&mut self, text: &str) {
        self.raw.push_str(text);
        self.value.push_str(text);
        self.hole.push(HOLE);
        self.dynamic = true;
        if let Some(target) = &mut self.target {
            target.push_str(text);
            self.target_hole.push(HOLE);
        }
    }

    /// A redirection operator: what follows (here or in the next word) is
    /// its target.
    pub(super) fn push_operator(&mut self, operator: &str) {
        self.operator = format!("{}{operator}", self.raw);
        self.raw.push_str(operator);
        self.value.push_str(operator);
        self.hole.push_str(operator);
        self.redirect = true;
        self.output |= operator.contains('>');
        self.target = Some(String::new());
        self.target_hole.clear();
    }

    /// Writes to a file: an output redirection whose target is not a file
    /// descriptor (`>&2`, `2>&1`) or a device that keeps nothing.
    pub(super) fn writes_a_file(&self) -> bool {
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
    pub(super) fn reads_stdin(&self) -> bool {
        self.redirect
            && self.target.as_deref().is_some_and(|t| !t.is_empty())
            && (self.operator.starts_with('<') || self.operator.starts_with("0<"))
    }
}

pub(super) fn is_keyword(word: &Word) -> bool {
    word.function_header || (word.raw == word.value && KEYWORDS.contains(&word.raw.as_str()))
}

/// Whether a compound command (`( … )`) may start after `words`: keywords,
/// `time [-p]`, `coproc [NAME]` (`time (rm x)`, `coproc c { rm x; }`).
pub(super) fn starts_compound(words: &[Word]) -> bool {
    let mut previous = "";
    for word in words {
        let plain = word.raw == word.value;
        let text = word.raw.as_str();
        let allowed = is_keyword(word)
            || (plain && matches!(text, "time" | "coproc" | "function"))
            || (plain && previous == "time" && matches!(text, "-p" | "--"))
            || (matches!(previous, "coproc" | "function") && !text.is_empty());
        if !allowed {
            return false;
        }
        previous = text;
    }
    true
}

/// A shell name: a letter or `_`, then letters, digits and `_`.
pub(super) fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// An assignment whose value holds a substitution inside a subscript
/// (`x='a[$(rm y)]'`), which bash runs when it evaluates the variable as
/// arithmetic.
pub(super) fn is_subscript_trap(word: &Word) -> bool {
    // Also as an argument: `printf -v`, `read`, `unset`, `test -v`, `let`
    // and `declare` evaluate a subscript in a name they are given.
    // Only literal text counts: a substitution this shell runs is a hole.
    word.hole.contains('[') && (word.hole.contains("$(") || word.hole.contains('`'))
}

/// An assignment whose value the shell or a program runs as a command
/// later (`PROMPT_COMMAND=…`, `PS4='$(…)'`, `GIT_PAGER=…`).
pub(super) fn is_command_assignment(word: &Word) -> bool {
    is_assignment(word)
        && word.value.split_once('=').is_some_and(|(name, _)| {
            COMMAND_VARIABLES
                .iter()
                .any(|suffix| name.ends_with(suffix))
        })
}

/// `NAME=` or `NAME+=` at the start of an unquoted word.
pub(super) fn is_assignment(word: &Word) -> bool {
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

/// `/usr/bin/rm` → `rm`.
pub(super) fn base_name(word: &str) -> &str {
    match word.rsplit_once('/') {
        Some((_, name)) if !name.is_empty() => name,
        _ => word,
    }
}

/// An unquoted `{a,b,c}` word: the words it expands to.
pub(super) fn brace_words(word: &Word) -> Option<Vec<String>> {
    let inner = word.raw.strip_prefix('{')?.strip_suffix('}')?;
    if word.raw != word.value || !inner.contains(',') || inner.contains(['{', '}']) {
        return None;
    }
    Some(inner.split(',').map(str::to_owned).collect())
}

/// Environment variables (by suffix) whose value programs run as a command.
pub(super) const COMMAND_VARIABLES: &[&str] = &[
    "PAGER",
    "EDITOR",
    "VISUAL",
    "SSH_COMMAND",
    "GIT_SSH",
    "PROXY_COMMAND",
    "EXTERNAL_DIFF",
    "LESSOPEN",
    "LESSCLOSE",
    "ASKPASS",
    "PROMPT_COMMAND",
    "PS0",
    "PS1",
    "PS2",
    "PS4",
];

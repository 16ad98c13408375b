//! The grammar the reader covers: lists, quoting, substitutions,
//! here-documents, `case`, subshells and groups.

use super::builder::PartBuilder;
use super::part::cannot_judge;
use super::word::{Word, is_keyword, is_name, starts_compound};
use super::{CommandPart, MAX_DEPTH, SplitCommand, SplitError, Stdin};

mod heredoc;

/// Whether the words so far are a `case WORD in` header (with nothing after).
pub(super) fn is_case_header(words: &[Word]) -> bool {
    let start = words.iter().take_while(|w| is_keyword(w)).count();
    let rest = &words[start..];
    rest.len() == 3 && rest[0].raw == "case" && rest[2].raw == "in"
}

/// Whether the words being read are a case pattern.
pub(super) fn in_case_pattern(part: &mut PartBuilder, cases: &[bool]) -> bool {
    part.end_word();
    let start = part.words.iter().take_while(|w| is_keyword(w)).count();
    let rest = &part.words[start..];
    let after_header = rest.len() >= 3 && rest[0].raw == "case" && rest[2].raw == "in";
    after_header || cases.last() == Some(&true)
}

/// At a `(`: the optional opener of a case pattern.
pub(super) fn opens_case_pattern(part: &mut PartBuilder, cases: &[bool]) -> bool {
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
pub(super) fn ends_case_pattern(part: &mut PartBuilder, cases: &mut Vec<bool>) -> bool {
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
    part.group_start = 0;
    part.pending_target = None;
    true
}

/// An unquoted `esac` word closes the innermost open `case`.
pub(super) fn close_cases(part: &mut PartBuilder, cases: &mut Vec<bool>) {
    if part
        .words
        .last()
        .is_some_and(|w| is_keyword(w) && w.raw == "esac")
    {
        cases.pop();
        part.words.pop();
        part.group_start = part.group_start.min(part.words.len());
    }
}

/// What ends a command list being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    Input,
    /// A `)` closes the list; the string names the opener for errors.
    Paren(&'static str),
}

/// A here-document announced on the current line, read after its newline.
#[derive(Debug)]
pub(super) struct Heredoc {
    /// Its number in the command, as in [`Word::heredoc`].
    pub(super) number: usize,
    pub(super) delimiter: String,
    pub(super) strip_tabs: bool,
    /// Unquoted delimiter: the body undergoes `$( )` and `$VAR` expansion.
    pub(super) expands: bool,
}

pub(super) struct Splitter<'a> {
    pub(super) chars: &'a [char],
    pub(super) pos: usize,
    pub(super) depth: usize,
    pub(super) dynamic: bool,
    pub(super) heredocs: Vec<Heredoc>,
    /// Here-documents announced so far (their numbers).
    pub(super) heredoc_count: usize,
    /// Bodies read so far, by number: text, or why it is not known.
    pub(super) bodies: Vec<(usize, Stdin)>,
    /// The output of the command before a `|`, for the next one.
    pub(super) pipe: Option<Stdin>,
    /// Inside `$((…))` or `((…))`, where `<<` is a shift, not a
    /// here-document (which would swallow the lines that follow).
    pub(super) arithmetic: usize,
}

impl<'a> Splitter<'a> {
    pub(super) fn new(chars: &'a [char], depth: usize) -> Self {
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

    pub(super) fn split(mut self) -> Result<SplitCommand, SplitError> {
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
    pub(super) fn finish(
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

    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(super) fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    pub(super) fn text(&self, from: usize) -> String {
        self.chars[from..self.pos].iter().collect()
    }

    pub(super) fn descend(&mut self) -> Result<(), SplitError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SplitError::TooDeep);
        }
        Ok(())
    }

    /// Read a command list up to `end` (consuming a closing `)`).
    pub(super) fn list(&mut self, end: End) -> Result<Vec<CommandPart>, SplitError> {
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
                // A carriage return is not a blank to bash or dash: it is
                // part of the word (`ls\r#;rm x` runs `rm x`).
                ' ' | '\t' => {
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
    pub(super) fn close_cases_here(&mut self, part: &mut PartBuilder, cases: &mut Vec<bool>) {
        let ends_word = match self.peek() {
            None => true,
            Some('&') => self.peek_at(1) != Some('>'),
            Some(c) => " \t\n;|)".contains(c),
        };
        if ends_word {
            part.end_word();
        }
        close_cases(part, cases);
    }

    /// A newline ends the command (and a `case WORD in` header); the
    /// bodies of the line's here-documents follow it.
    pub(super) fn newline(
        &mut self,
        part: &mut PartBuilder,
        parts: &mut Vec<CommandPart>,
        cases: &mut Vec<bool>,
    ) -> Result<(), SplitError> {
        part.end_word();
        if is_case_header(&part.words) {
            // `case WORD in` ends its line: patterns follow.
            part.words.clear();
            part.group_start = 0;
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
    pub(super) fn semicolon(
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
    pub(super) fn control_operator(
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
    pub(super) fn redirect_operator(
        &mut self,
        c: char,
        next: Option<char>,
        part: &mut PartBuilder,
    ) {
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
            word.hole.push_str(&operator);
            word.operator.push_str(&operator);
            word.output |= operator.contains('>');
        } else {
            word.push_operator(&operator);
        }
        self.pos += len;
    }

    /// One character (or quoted string, or expansion) that continues a word.
    pub(super) fn word_char(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
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
    pub(super) fn single_quoted(
        &mut self,
        word: &mut Word,
        what: &'static str,
    ) -> Result<(), SplitError> {
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
    pub(super) fn ansi_c_quoted(&mut self, word: &mut Word) -> Result<(), SplitError> {
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
    pub(super) fn ansi_c_escape(
        &mut self,
        e: char,
        word: &mut Word,
        truncated: bool,
    ) -> Option<u32> {
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
    pub(super) fn escape_digits(
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
    pub(super) fn double_quoted(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
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
    pub(super) fn dollar(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
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
            Some('[') => self.old_arithmetic(part),
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
    pub(super) fn substitution(
        &mut self,
        part: &mut PartBuilder,
        opener_len: usize,
        opener: &'static str,
    ) -> Result<(), SplitError> {
        let start = self.pos;
        self.pos += opener_len;
        let pending = self.heredocs.len();
        let mut inner = self.list(End::Paren(opener))?;
        if self.heredocs.len() > pending {
            // bash reads its body from the lines after the `)`, dash ends
            // it at the `)` and runs those lines as commands.
            part.word().hidden.get_or_insert(
                "a here-document opened inside a substitution and not ended before its `)`, which bash and dash read differently",
            );
        }
        self.dynamic = true;
        let text = self.text(start);
        part.word().push_expansion(&text);
        part.nested.append(&mut inner);
        Ok(())
    }

    /// `${…}`, which may itself hold substitutions (`${x:-$(cmd)}`).
    pub(super) fn braced_expansion(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        self.descend()?;
        let start = self.pos;
        self.pos += 2;
        if matches!(self.peek(), Some(' ' | '\t' | '\n' | '|')) {
            // bash 5.3's `${ cmd; }` and `${| cmd; }` run commands in this
            // shell: a grammar this reader does not cover.
            part.word().hidden.get_or_insert(
                "`${ …; }`, a command substitution newer bash runs in the current shell",
            );
        }
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

    /// `$[…]`, bash's old arithmetic expansion: `<<` in it is a shift, and
    /// the substitutions in it run.
    fn old_arithmetic(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        self.descend()?;
        let start = self.pos;
        self.pos += 2;
        self.arithmetic += 1;
        let mut scratch = PartBuilder::default();
        let mut depth = 0_usize;
        let result = loop {
            match self.peek() {
                None => break Err(SplitError::Unclosed("`$[`")),
                Some(']') if depth == 0 => {
                    self.pos += 1;
                    break Ok(());
                }
                Some(']') => {
                    depth -= 1;
                    self.pos += 1;
                }
                Some('[') => {
                    depth += 1;
                    self.pos += 1;
                }
                Some('\'') => {
                    if let Err(err) = self.single_quoted(scratch.word(), "`'` quote") {
                        break Err(err);
                    }
                }
                Some('"') => {
                    if let Err(err) = self.double_quoted(&mut scratch) {
                        break Err(err);
                    }
                }
                Some('`') => {
                    if let Err(err) = self.backticks(&mut scratch) {
                        break Err(err);
                    }
                }
                Some('$') => {
                    if let Err(err) = self.dollar(&mut scratch) {
                        break Err(err);
                    }
                }
                Some('\\') => self.pos = (self.pos + 2).min(self.chars.len()),
                Some(_) => self.pos += 1,
            }
        };
        self.arithmetic -= 1;
        result?;
        self.depth -= 1;
        self.dynamic = true;
        let text = self.text(start);
        part.word().push_expansion(&text);
        part.nested.append(&mut scratch.nested);
        Ok(())
    }

    /// Backticks, the old command substitution. Inside them a backslash
    /// before a backtick, `\\` or `$` stands for that character; the rest
    /// is split on its own.
    pub(super) fn backticks(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
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
    pub(super) fn literal_group(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
        self.descend()?;
        // `NAME()` where a command starts: a function definition.
        let header = part.word.as_ref().is_some_and(|w| {
            w.raw == w.value && (is_name(&w.raw) || w.raw.contains(['-', '.', ':', '/']))
        }) && starts_compound(&part.words[part.group_start.min(part.words.len())..]);
        let open = self.pos;
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
        let inside = &self.chars[open + 1..self.pos - 1];
        if header && inside.iter().all(|c| matches!(c, ' ' | '\t')) {
            part.word().function_header = true;
            part.end_word();
        }
        Ok(())
    }
}

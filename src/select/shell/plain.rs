//! The plain subset, the only commands allow rules approve: simple
//! commands joined by the list and pipe operators, words that are literal
//! after quote removal, redirections to literal words, no function
//! definitions, compound commands, here-documents or expansions, and no
//! control character but tab and newline. Read by a small scanner of its
//! own, independent of the reader that serves the deny side, so that a
//! construct the reader gets wrong cannot reach an allow.

/// Words that start a compound command or a function where a command
/// starts: outside the plain subset.
const RESERVED: &[&str] = &[
    "!", "{", "}", "[[", "]]", "if", "then", "elif", "else", "fi", "case", "esac", "for", "select",
    "while", "until", "do", "done", "in", "function", "coproc",
];

/// Variables an assignment prefix may set without changing which program
/// runs or what it runs: the locale, colours, terminal size, time zone and
/// a few test and log switches. Any other assignment prefix must be named
/// by the allow rule itself (`Bash(PATH=/usr/bin ls *)`).
const INERT_VARIABLES: &[&str] = &[
    "LANG",
    "LANGUAGE",
    "TZ",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLUMNS",
    "LINES",
    "TERM",
    "CI",
    "RUST_BACKTRACE",
    "RUST_LOG",
    "CARGO_TERM_COLOR",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "NODE_ENV",
];

/// Whether an assignment prefix `NAME=…` leaves what runs unchanged.
pub fn is_inert_variable(name: &str) -> bool {
    INERT_VARIABLES.contains(&name) || name.starts_with("LC_")
}

/// Why `command` is outside the plain subset, or `None` when it is in it.
pub fn not_plain(command: &str) -> Option<String> {
    Scanner {
        chars: command.chars().collect(),
        pos: 0,
    }
    .scan()
    .err()
}

struct Scanner {
    chars: Vec<char>,
    pos: usize,
}

/// What the scanner expects next in a simple command.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    /// Assignments, `time [-p]`, or the command word.
    Command,
    /// After `time`: `-p` or the command word.
    AfterTime,
    /// Arguments and redirections.
    Arguments,
}

fn is_control(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n') || matches!(c, '\u{2028}' | '\u{2029}')
}

impl Scanner {
    fn peek(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn scan(&mut self) -> Result<(), String> {
        if let Some(c) = self.chars.iter().find(|c| is_control(**c)) {
            return Err(format!(
                "it holds the control character U+{:04X}, which the shell does not read as a blank",
                u32::from(*c)
            ));
        }
        let mut position = Position::Command;
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' => self.pos += 1,
                '\\' if self.peek(1) == Some('\n') => self.pos += 2,
                '\n' | ';' | '&' | '|' => {
                    self.operator(c)?;
                    position = Position::Command;
                }
                '#' => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                '<' | '>' => self.redirection()?,
                '(' | ')' => {
                    return Err("it uses a subshell, a group or a function definition".to_owned());
                }
                _ => {
                    let (word, literal) = self.word()?;
                    if matches!(self.peek(0), Some('<' | '>'))
                        && !word.is_empty()
                        && word.chars().all(|c| c.is_ascii_digit())
                    {
                        // `2>`: a descriptor before a redirection.
                        self.redirection()?;
                        continue;
                    }
                    position = Self::command_word(position, &word, literal)?;
                }
            }
        }
        Ok(())
    }

    fn operator(&mut self, c: char) -> Result<(), String> {
        let next = self.peek(1);
        let len = match (c, next) {
            (';', Some(';' | '&')) => {
                return Err("it uses `;;` or `;&`, which belong to `case`".to_owned());
            }
            ('&', Some('&')) | ('|', Some('|' | '&')) => 2,
            ('&', Some('>')) => return self.redirection(),
            _ => 1,
        };
        self.pos += len;
        Ok(())
    }

    /// `<`, `>`, `>>`, `>|`, `&>`, `>&`, `<&`, `<<<` and their target word.
    fn redirection(&mut self) -> Result<(), String> {
        let operator: String = self.chars[self.pos..]
            .iter()
            .take_while(|c| matches!(c, '<' | '>' | '&' | '|'))
            .collect();
        if !matches!(
            operator.as_str(),
            "<" | ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "<&" | "<<<"
        ) {
            return Err(if operator.starts_with("<<") {
                "it uses a here-document".to_owned()
            } else {
                format!("it uses the redirection `{operator}`")
            });
        }
        self.pos += operator.chars().count();
        while matches!(self.peek(0), Some(' ' | '\t')) {
            self.pos += 1;
        }
        match self.peek(0) {
            None | Some('\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')' | '#') => {
                Err(format!("its redirection `{operator}` has no target"))
            }
            Some(_) => self.word().map(|_| ()),
        }
    }

    /// One word: its text after quote removal, and whether it is free of
    /// unquoted glob, brace and tilde characters.
    fn word(&mut self) -> Result<(String, bool), String> {
        let mut text = String::new();
        let mut literal = true;
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' => break,
                '(' | ')' => {
                    return Err("it uses a subshell, a group or a function definition".to_owned());
                }
                '$' | '`' => {
                    return Err("it uses an expansion or a substitution".to_owned());
                }
                '\\' => {
                    match self.peek(1) {
                        Some('\n') => {}
                        Some(escaped) => text.push(escaped),
                        None => text.push('\\'),
                    }
                    self.pos += 2;
                }
                '\'' => {
                    self.pos += 1;
                    loop {
                        match self.peek(0) {
                            None => return Err("a quote is not closed".to_owned()),
                            Some('\'') => break,
                            Some(c) => text.push(c),
                        }
                        self.pos += 1;
                    }
                    self.pos += 1;
                }
                '"' => {
                    self.pos += 1;
                    loop {
                        match self.peek(0) {
                            None => return Err("a quote is not closed".to_owned()),
                            Some('"') => break,
                            Some('$' | '`') => {
                                return Err("it uses an expansion or a substitution".to_owned());
                            }
                            Some('\\') if matches!(self.peek(1), Some('"' | '\\' | '\n')) => {
                                if self.peek(1) != Some('\n') {
                                    text.push(self.peek(1).expect("peeked"));
                                }
                                self.pos += 1;
                            }
                            Some(c) => text.push(c),
                        }
                        self.pos += 1;
                    }
                    self.pos += 1;
                }
                '*' | '?' | '[' | ']' | '{' | '}' | '~' | '=' | '!' => {
                    literal = false;
                    text.push(c);
                    self.pos += 1;
                }
                _ => {
                    text.push(c);
                    self.pos += 1;
                }
            }
        }
        Ok((text, literal))
    }

    fn command_word(position: Position, word: &str, literal: bool) -> Result<Position, String> {
        if position == Position::Arguments {
            return Ok(Position::Arguments);
        }
        if is_assignment(word) {
            return Ok(position);
        }
        if position == Position::AfterTime && word == "-p" {
            return Ok(Position::Command);
        }
        if literal && word == "time" {
            return Ok(Position::AfterTime);
        }
        if RESERVED.contains(&word) {
            return Err(format!("it uses the shell keyword `{word}`"));
        }
        // `[ -f x ]` is `test`.
        if (!literal && word != "[") || word.is_empty() {
            return Err(format!(
                "its command name `{word}` is not a plain word (a pattern, a brace or a tilde)"
            ));
        }
        Ok(Position::Arguments)
    }
}

/// `NAME=…`, as an assignment prefix (quote removal already done: a
/// quoted `"A=1"` is a command name to bash, read here as an assignment,
/// which only makes the rule side stricter).
fn is_assignment(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(name, _)| super::word::is_name(name.strip_suffix('+').unwrap_or(name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_commands() {
        for command in [
            "ls",
            "ls -la",
            "cd x && make",
            "cargo test 2>&1 | tail",
            "git commit -m 'fix: a (b)'",
            "git commit -m \"it's done\"",
            "ls *.rs",
            "echo {a,b}",
            "ls > /dev/null",
            "LANG=C ls",
            "time -p ls",
            "ls # a comment",
            "a\nb",
            "cat <<< word",
            "echo 'x $y'",
            "grep -r 'fn main' src",
            "ls \\\n -la",
        ] {
            assert_eq!(not_plain(command), None, "{command:?}");
        }
    }

    #[test]
    fn not_plain_commands() {
        for command in [
            "echo $[1<<2]\nrm -rf x",
            "ls\r#;rm -rf x",
            "echo x\u{7}",
            "echo $(date)",
            "echo `date`",
            "echo \"$HOME\"",
            "f() { ls; }",
            "(ls)",
            "{ ls; }",
            "if true; then ls; fi",
            "cat <<EOF\nx\nEOF",
            "time (ls)",
            "coproc ls",
            "! ls",
            "*s",
            "{ls,x}",
            "~/bin/x",
            "case x in x) ls;; esac",
            "echo 'open",
            "ls >",
            "cat <(ls)",
        ] {
            assert!(not_plain(command).is_some(), "{command:?}");
        }
    }
}

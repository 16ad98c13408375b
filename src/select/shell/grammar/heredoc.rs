//! Here-documents: the `<<WORD` operator, and the bodies read after the
//! newline that ends the command.

use super::{Heredoc, Splitter};
use crate::select::shell::SplitError;
use crate::select::shell::Stdin;
use crate::select::shell::builder::PartBuilder;
use crate::select::shell::word::Word;

impl Splitter<'_> {
    /// `<<WORD` or `<<-WORD`: remember the delimiter; the body follows the
    /// next newline.
    pub(super) fn heredoc_operator(&mut self, part: &mut PartBuilder) -> Result<(), SplitError> {
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
                ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')' => break,
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
    pub(super) fn heredoc_bodies(&mut self, collect: &mut PartBuilder) -> Result<(), SplitError> {
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

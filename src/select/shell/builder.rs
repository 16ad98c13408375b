//! The simple command being read, word by word, and the parts it ends in.

use super::CommandPart;
use super::views::make_part;
use super::word::{Word, is_keyword, starts_compound};

/// The simple command being read.
#[derive(Debug, Default)]
pub(super) struct PartBuilder {
    pub(super) words: Vec<Word>,
    pub(super) word: Option<Word>,
    /// The last word was a redirection operator without its target
    /// (`> out`): the next word is the target (output or not), and the
    /// operator it belongs to.
    pub(super) pending_target: Option<(bool, String)>,
    /// Parts found inside this one's substitutions, reported after it.
    pub(super) nested: Vec<CommandPart>,
    /// The index after the last `{` keyword in `words` (0 when none):
    /// kept as words end, so finding it costs nothing per `(`.
    pub(super) group_start: usize,
}

impl PartBuilder {
    pub(super) fn word(&mut self) -> &mut Word {
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

    pub(super) fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            if word.target.as_deref() == Some("") {
                self.pending_target = Some((word.output, word.operator.clone()));
            }
            if is_keyword(&word) && word.raw == "{" {
                self.group_start = self.words.len() + 1;
            }
            self.words.push(word);
        }
    }

    pub(super) fn in_word(&self) -> bool {
        self.word.is_some()
    }

    /// Where a `(` opens a subshell rather than being part of a word.
    pub(super) fn at_command_position(&self) -> bool {
        // A `{` starts a command even after other words (`f() { (rm x); }`).
        let group = self.group_start;
        !self.in_word() && starts_compound(&self.words[group..])
    }

    /// Append the finished part (if it runs anything) and its nested parts;
    /// the indices of the first and last parts made from its own words.
    pub(super) fn finish_into(&mut self, parts: &mut Vec<CommandPart>) -> Option<(usize, usize)> {
        self.end_word();
        self.pending_target = None;
        let words = std::mem::take(&mut self.words);
        self.group_start = 0;
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

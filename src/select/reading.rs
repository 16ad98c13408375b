//! The tool call the rules judge, and the one shared reading of its
//! command: every rule of a fire, and the reading of its effects, take the
//! same split (read ahead within the deadline, or remembered), so a command
//! is split once however many rules judge it.

use super::shell::{SplitCommand, split_command};
use serde_json::Value;

/// The tool call a rule is tested against.
#[derive(Debug, Clone, Copy)]
pub struct ToolCall<'a> {
    pub tool_name: &'a str,
    /// `tool_input`: normally an object; anything else matches no specifier.
    pub tool_input: &'a Value,
}

/// How many split commands [`split_memo`] keeps per thread: the event's
/// command and the command lines it hands to shells.
const SPLITS_KEPT: usize = 8;

/// A command and its split, shared by every rule that judges it.
pub(crate) type Split = std::rc::Rc<Result<SplitCommand, super::shell::SplitError>>;

/// A command and the split of it and of every command line it hands to
/// shells, read ahead by [`read_ahead`].
pub type ReadAhead = Vec<(String, Result<SplitCommand, super::shell::SplitError>)>;

thread_local! {
    static SPLITS: std::cell::RefCell<Vec<(String, Split)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Splits read ahead within the deadline (see [`remember_read_ahead`]):
    /// all of them are kept, however many command lines there are.
    static READ_AHEAD: std::cell::RefCell<Vec<(String, Split)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Commands that could not be read within the deadline, with why.
    static UNREADABLE: std::cell::RefCell<Vec<(String, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Marks `command` as one that could not be read in time: every rule then
/// judges it "cannot judge" (`why`) without reading it.
pub fn mark_unreadable(command: &str, why: String) {
    UNREADABLE.with(|list| list.borrow_mut().push((command.to_owned(), why)));
}

/// The split of `command` and of every command line it hands to shells
/// (as deep as the rules follow them), for [`remember_read_ahead`]: what
/// a worker thread computes while the fire waits no longer than its
/// deadline.
pub fn read_ahead(command: &str) -> ReadAhead {
    let mut out: ReadAhead = Vec::new();
    let mut queue = vec![(command.to_owned(), 0)];
    while let Some((text, depth)) = queue.pop() {
        if out.iter().any(|(seen, _)| *seen == text) {
            continue;
        }
        let split = split_command(&text);
        if let (Ok(split), true) = (&split, depth < MAX_RUN_DEPTH) {
            for part in &split.parts {
                queue.extend(part.runs.iter().map(|inner| (inner.clone(), depth + 1)));
            }
        }
        out.push((text, split));
    }
    out
}

/// Forgets what earlier fires of this thread read ahead or could not read
/// (`hookrun test` fires many events in one process).
pub fn forget_read_ahead() {
    READ_AHEAD.with(|kept| kept.borrow_mut().clear());
    UNREADABLE.with(|list| list.borrow_mut().clear());
}

/// Keeps what [`read_ahead`] read, for every rule of this thread.
pub fn remember_read_ahead(read: ReadAhead) {
    READ_AHEAD.with(|kept| {
        kept.borrow_mut().extend(
            read.into_iter()
                .map(|(text, split)| (text, std::rc::Rc::new(split))),
        );
    });
}

/// The shared split of `command`: read ahead, or remembered, or split now;
/// `Err` when it could not be read within the deadline (why). The one
/// way the rules (and the built-in rules' reading of a call, in
/// `crate::select::effects`) get a command's split.
pub(crate) fn split_shared(command: &str) -> Result<Split, String> {
    if let Some(why) = UNREADABLE.with(|list| {
        list.borrow()
            .iter()
            .find(|(text, _)| text == command)
            .map(|(_, why)| why.clone())
    }) {
        return Err(why);
    }
    if let Some(split) = READ_AHEAD.with(|kept| {
        kept.borrow()
            .iter()
            .find(|(text, _)| text == command)
            .map(|(_, split)| std::rc::Rc::clone(split))
    }) {
        return Ok(split);
    }
    Ok(split_memo(command))
}

/// [`split_command`], remembered for the last few commands of this thread:
/// every `if`, deny and ask rule of a fire judges the same command, which
/// was split once per rule (most of what a rule cost).
fn split_memo(command: &str) -> Split {
    let found = SPLITS.with(|kept| {
        kept.borrow()
            .iter()
            .find(|(text, _)| text == command)
            .map(|(_, split)| std::rc::Rc::clone(split))
    });
    if let Some(split) = found {
        return split;
    }
    let split = std::rc::Rc::new(split_command(command));
    SPLITS.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.len() >= SPLITS_KEPT {
            kept.remove(0);
        }
        kept.push((command.to_owned(), std::rc::Rc::clone(&split)));
    });
    split
}

/// How deep command lines handed to shells (`sh -c "bash -c '…'"`) are
/// followed; deeper, the rule fails open.
pub(crate) const MAX_RUN_DEPTH: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_memo_answers_as_the_splitter_does() {
        let commands = [
            "git status",
            "git push origin main && rm -rf /",
            "sh -c 'rm -rf x'",
            "echo $(whoami)",
            "echo 'unclosed",
            "a | b; c",
            "git status",
            "x1",
            "x2",
            "x3",
            "x4",
            "x5",
            "x6",
            "x7",
            "x8",
            "git status",
        ];
        for command in commands {
            let first = split_memo(command);
            assert_eq!(*first, split_command(command), "{command:?}");
            let again = split_memo(command);
            assert!(std::rc::Rc::ptr_eq(&first, &again), "{command:?}");
        }
        SPLITS.with(|kept| assert!(kept.borrow().len() <= SPLITS_KEPT));
    }
}

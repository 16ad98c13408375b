//! What a simple command's reading says about it, written by every view
//! that finds a command line it hands over or cannot read.

use super::CommandPart;

/// `part` hands `command` to a shell (or a program that reads it as one):
/// the rule engine splits and judges it in turn.
///
/// `expanded`: the text holds an expansion the shell performs before it is
/// handed over (`eval "ls $X"`, `sh -c "ls $X"`): the receiver reads the
/// result as a command line again, so the expansion may hold whole commands
/// (`X='; rm y'`), and the part cannot be judged.
pub(super) fn hands_over(part: &mut CommandPart, to: &str, command: String, expanded: bool) {
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

pub(super) fn cannot_judge(part: &mut CommandPart, why: String) {
    part.not_allowable.get_or_insert_with(|| why.clone());
    part.unjudgeable.get_or_insert(why);
}

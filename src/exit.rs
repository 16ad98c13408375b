//! Exit codes: every way hookrun ends, mapped to a number in one place.
//!
//! Every command (and the detached `async` runner) ends with an [`Exit`];
//! only [`Exit::code`] knows the numbers. Exit 2 means "block" to every host,
//! so only [`Exit::Block`] may produce it.

use std::process::ExitCode;

/// How hookrun ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done; no block stands (any decision is in the answer on stdout).
    Success,
    /// 1: a check found a problem (`doctor`, `test`, `trust`), or hookrun
    /// could not do its job (unusable input, an async runner that failed).
    /// Hosts read it as a non-blocking error.
    Failure,
    /// 1: the command line or a `HOOKRUN_*` variable is wrong. Never a
    /// block: a typo must not stop every tool call.
    Usage,
    /// 2: a block stands; stderr holds exactly the reason.
    Block,
    /// 3: `hookrun replay --fail-on-change` found an event the policy
    /// changes (not 1, which says hookrun could not do its job).
    Changed,
    /// 128 + N: interrupted by signal N (after stopping the hooks it started).
    Interrupted(i32),
}

impl Exit {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Failure | Exit::Usage => 1,
            Exit::Block => 2,
            Exit::Changed => 3,
            Exit::Interrupted(signal) => u8::try_from(128 + signal).unwrap_or(u8::MAX),
        }
    }

    /// [`Exit::Failure`] when `failed`, else [`Exit::Success`].
    pub fn failure_if(failed: bool) -> Exit {
        if failed { Exit::Failure } else { Exit::Success }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_block_is_two() {
        assert_eq!(Exit::Success.code(), 0);
        assert_eq!(Exit::Failure.code(), 1);
        assert_eq!(Exit::Usage.code(), 1);
        assert_eq!(Exit::Block.code(), 2);
        assert_eq!(Exit::Changed.code(), 3);
        assert_eq!(Exit::Interrupted(15).code(), 143);
        assert_eq!(Exit::Interrupted(2).code(), 130);
        assert_eq!(Exit::Interrupted(500).code(), 255);
        assert_eq!(Exit::failure_if(true), Exit::Failure);
        assert_eq!(Exit::failure_if(false), Exit::Success);
    }
}

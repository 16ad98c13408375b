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

/// Marks an error as the user's doing (a flag or a combination of flags
/// that cannot work): the top ends it as [`Exit::Usage`], not
/// [`Exit::Failure`]. Raised with `Err(Usage("…").into())` or attached with
/// `.context(Usage(…))`; found anywhere in the error's chain.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

impl Exit {
    /// How a command that failed with `err` ends: [`Exit::Usage`] when a
    /// [`Usage`] marker is in its chain, else [`Exit::Failure`].
    pub fn of_error(err: &anyhow::Error) -> Exit {
        if err.chain().any(<dyn std::error::Error>::is::<Usage>) {
            Exit::Usage
        } else {
            Exit::Failure
        }
    }
}

/// An error as one line: its message, then each cause the message does not
/// already carry (`cannot create D: Permission denied`). A typed error that
/// prints its source itself (`failed to read F: …`) is not repeated.
pub fn error_line(err: &anyhow::Error) -> String {
    let mut line = err.to_string();
    for cause in err.chain().skip(1) {
        let text = cause.to_string();
        if !line.contains(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
    }
    line
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

    #[test]
    fn a_usage_marker_anywhere_in_the_chain_is_a_usage_exit() {
        use anyhow::Context as _;
        let plain = anyhow::anyhow!("cannot read x");
        assert_eq!(Exit::of_error(&plain), Exit::Failure);
        let usage: anyhow::Error = Usage("--local: only Claude Code".to_owned()).into();
        assert_eq!(Exit::of_error(&usage), Exit::Usage);
        let wrapped = Err::<(), _>(usage).context("install").unwrap_err();
        assert_eq!(Exit::of_error(&wrapped), Exit::Usage);
        assert_eq!(error_line(&wrapped), "install: --local: only Claude Code");
    }

    #[test]
    fn an_error_line_names_each_cause_once() {
        use anyhow::Context as _;
        /// A typed error whose message already carries its source.
        #[derive(Debug, thiserror::Error)]
        #[error("failed to read /f: {source}")]
        struct Read {
            #[source]
            source: std::io::Error,
        }
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied");
        let err = Err::<(), _>(io).context("cannot create /d").unwrap_err();
        assert_eq!(error_line(&err), "cannot create /d: denied");
        let read = Read {
            source: std::io::Error::other("is a directory"),
        };
        let err = Err::<(), _>(read).context("trust").unwrap_err();
        assert_eq!(error_line(&err), "trust: failed to read /f: is a directory");
    }
}

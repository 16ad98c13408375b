//! Exit codes, mapped in one place.

use std::process::ExitCode;

/// How hookrun ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0 (no block), 1 (cannot do its job), 2 (a block stands).
    Code(u8),
    /// Interrupted by this signal: 128 + its number.
    Signal(i32),
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        match exit {
            Exit::Code(code) => ExitCode::from(code),
            Exit::Signal(signal) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(255)),
        }
    }
}

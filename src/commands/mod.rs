//! Subcommands: each a thin layer over the stages.

pub mod fire;
pub mod stats;
pub mod trust;

use crate::exit::Exit;

/// What a command prints, for `lib.rs` to write.
pub struct Printed {
    pub stdout: String,
    pub stderr: String,
    pub exit: Exit,
}

impl Printed {
    /// Exit 1 with one line on stderr.
    pub fn error(message: &str) -> Printed {
        Printed {
            stdout: String::new(),
            stderr: format!("hookrun: {message}\n"),
            exit: Exit::Code(1),
        }
    }
}

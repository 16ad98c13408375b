//! hookrun: a hook runner for AI coding agents.
//!
//! Data flows one way: event → settings → selection → execution → verdicts →
//! aggregate → output.

pub mod catalog;
pub mod exec;
pub mod select;

pub fn run() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}

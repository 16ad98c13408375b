//! Selection: the matcher funnel (SPEC §4).

pub mod bash;
mod file_pattern;
pub mod matcher;
pub mod rule;

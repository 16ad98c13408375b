//! Selection: the matcher funnel (SPEC §4).

pub mod bash;
pub mod matcher;
pub mod rule;

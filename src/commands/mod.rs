//! Subcommands: each a thin layer over the stages.

pub mod fire;

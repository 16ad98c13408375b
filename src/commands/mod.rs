//! Subcommands: each a thin layer over the stages.

pub mod common;
pub mod doctor;
pub mod explain;
pub mod fire;
pub mod init;
pub mod install;
pub mod install_files;
pub mod list;
pub mod record;
pub mod replay;
pub mod stats;
pub mod status;
pub mod test;
pub mod trust;

pub use common::Printed;

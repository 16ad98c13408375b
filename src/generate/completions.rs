//! Shell completions (clap_complete), from the same `Cli` definition that
//! parses the command line: `completions/` in the repository and
//! `hookrun completions SHELL` print the same bytes.

use clap::CommandFactory as _;
use clap_complete::{Generator as _, Shell};

use crate::cli::Cli;

/// Every shell clap_complete supports, in a stable order.
pub const SHELLS: &[Shell] = &[
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::PowerShell,
    Shell::Elvish,
];

/// The completion script for one shell.
pub fn render(shell: Shell) -> String {
    let mut command = completable();
    let mut buffer = Vec::new();
    clap_complete::generate(shell, &mut command, "hookrun", &mut buffer);
    String::from_utf8(buffer).expect("clap_complete writes UTF-8")
}

/// The command line without its hidden subcommands: clap_complete would
/// offer them (the internal `__async-run`), and clap cannot remove a
/// subcommand, so the root is rebuilt around the visible ones.
fn completable() -> clap::Command {
    let full = Cli::command();
    clap::Command::new("hookrun")
        .version(env!("CARGO_PKG_VERSION"))
        .propagate_version(true)
        .about(full.get_about().cloned().unwrap_or_default())
        .args(full.get_arguments().cloned())
        .subcommands(
            full.get_subcommands()
                .filter(|sub| !sub.is_hide_set())
                .cloned(),
        )
}

/// `(file name, script)` for every shell: `hookrun.bash`, `_hookrun` (zsh),
/// `hookrun.fish`, `_hookrun.ps1`, `hookrun.elv`.
pub fn all() -> Vec<(String, String)> {
    SHELLS
        .iter()
        .map(|shell| (shell.file_name("hookrun"), render(*shell)))
        .collect()
}

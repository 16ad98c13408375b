//! Man pages (clap_mangen): `hookrun.1` and one `hookrun-SUBCOMMAND.1` per
//! visible subcommand, from the same `Cli` definition that parses the
//! command line, so a page cannot describe an option that does not exist.

use clap::CommandFactory as _;

use crate::cli::Cli;

/// `(file name, roff)` for hookrun and each visible subcommand.
pub fn all() -> Vec<(String, String)> {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    collect(&command, &mut pages);
    pages
}

fn collect(command: &clap::Command, pages: &mut Vec<(String, String)>) {
    // The footer names the program and its version on every page, not the
    // subcommand ("fire 0.1.0").
    let page = clap_mangen::Man::new(command.clone())
        .source(format!("hookrun {}", env!("CARGO_PKG_VERSION")))
        .manual("hookrun manual");
    let mut roff = Vec::new();
    page.render(&mut roff)
        .expect("rendering to memory cannot fail");
    pages.push((
        page.get_filename(),
        String::from_utf8(roff).expect("clap_mangen writes UTF-8"),
    ));
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        collect(sub, pages);
    }
}

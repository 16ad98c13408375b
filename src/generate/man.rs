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
    // The synopsis names each option's value (`--settings PATH`), which
    // clap_mangen's own leaves out.
    let page = clap_mangen::Man::new(command.clone().override_usage(synopsis(command)))
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

/// `hookrun replay [--against OLD_SETTINGS]... [--run] … [SOURCE]...`: every
/// visible option with its value placeholder, then the positionals.
fn synopsis(command: &clap::Command) -> String {
    let name = command
        .get_bin_name()
        .unwrap_or_else(|| command.get_name())
        .to_owned();
    let mut words = vec![name];
    let repeats = |arg: &clap::Arg| {
        matches!(
            arg.get_action(),
            clap::ArgAction::Append | clap::ArgAction::Count
        )
    };
    for arg in command
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
    {
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(short), Some(long)) => format!("-{short}|--{long}"),
            (None, Some(long)) => format!("--{long}"),
            (Some(short), None) => format!("-{short}"),
            (None, None) => continue,
        };
        let value = if arg.get_action().takes_values() {
            let names = arg.get_value_names().map_or_else(
                || arg.get_id().as_str().to_uppercase(),
                |names| names.join(" "),
            );
            format!(" {names}")
        } else {
            String::new()
        };
        let more = if repeats(arg) { "..." } else { "" };
        if arg.is_required_set() {
            words.push(format!("{flag}{value}{more}"));
        } else {
            words.push(format!("[{flag}{value}]{more}"));
        }
    }
    for arg in command.get_positionals().filter(|a| !a.is_hide_set()) {
        let names = arg.get_value_names().map_or_else(
            || arg.get_id().as_str().to_uppercase(),
            |names| names.join(" "),
        );
        let more = if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            "..."
        } else {
            ""
        };
        if arg.is_required_set() {
            words.push(format!("{names}{more}"));
        } else {
            words.push(format!("[{names}]{more}"));
        }
    }
    if command.has_subcommands() {
        words.push("COMMAND".to_owned());
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_synopsis_names_each_options_value() {
        let pages = super::all();
        let (_, replay) = pages
            .iter()
            .find(|(name, _)| name == "hookrun-replay.1")
            .expect("hookrun-replay.1");
        let synopsis = replay
            .split(".SH SYNOPSIS\n")
            .nth(1)
            .and_then(|rest| rest.split(".SH").next())
            .unwrap();
        for expected in [
            "[\\-\\-against OLD_SETTINGS]...",
            "[\\-\\-settings PATH]...",
            "[\\-\\-show N|all]",
            "[\\-\\-run]",
            "[SOURCE]...",
        ] {
            assert!(synopsis.contains(expected), "{expected} not in {synopsis}");
        }
    }
}

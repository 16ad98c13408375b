//! `hookrun fire …` read without clap, for the command lines hosts write.
//!
//! Building clap's parser, even one holding only `fire`, is a tenth of a
//! fire that matches no hook (its argument tables, their defaults, a few
//! dozen allocations and the page faults they cost). The command lines
//! hosts run are plain: `fire`, maybe an event name, long options with
//! values. This reader takes exactly those and gives up — returns `None`,
//! and clap parses the line — on anything else: a short option other than
//! `-v`, an option it does not know, one given twice, a value that does not
//! parse or begins with `-`, a second positional, `--`, text that is not
//! UTF-8, or any `HOOKRUN_*` variable fire's options read from the
//! environment. Whatever it accepts, it reads as clap does; the tests
//! compare the two on generated command lines.

use std::path::PathBuf;

use clap::ValueEnum as _;

use super::{
    Cli, Command, FireArgs, FireFormat, GlobalArgs, KILL_GRACE_DEFAULT, LEAK_TIMEOUT_DEFAULT,
    LimitArgs, OUTPUT_CAP_DEFAULT, SettingsArgs, parse_duration, parse_size,
};
use crate::host::HostId;

/// The environment variables fire's options fall back to (clap's `env`):
/// with any of them set, clap reads the line.
pub(super) const FIRE_ENV: &[&str] = &[
    "HOOKRUN_HOST",
    "HOOKRUN_FAIL_CLOSED",
    "HOOKRUN_NON_INTERACTIVE",
    "HOOKRUN_LOG",
    "HOOKRUN_STOP_BLOCK_CAP",
    "HOOKRUN_PROJECT_DIR",
    "HOOKRUN_TRUST_PROJECT",
    "HOOKRUN_KILL_GRACE",
    "HOOKRUN_LEAK_TIMEOUT",
    "HOOKRUN_DEADLINE",
    "HOOKRUN_OUTPUT_CAP",
];

/// Options that take no value.
const SWITCHES: &[&str] = &[
    "fail-closed",
    "non-interactive",
    "no-default-settings",
    "trust-project",
];

/// `args[0] fire …` as clap would read it, or `None` to let clap read it.
pub(super) fn parse_fire(args: &[std::ffi::OsString]) -> Option<Cli> {
    if args.get(1).is_none_or(|arg| arg != "fire")
        || FIRE_ENV.iter().any(|name| std::env::var_os(name).is_some())
    {
        return None;
    }
    let mut verbose: u8 = 0;
    let mut event = None;
    let mut values: Vec<(&str, &str)> = Vec::new();
    let mut switches: Vec<&str> = Vec::new();
    let mut words = args[2..].iter().map(|arg| arg.to_str());
    while let Some(word) = words.next() {
        let word = word?;
        if let Some(option) = word.strip_prefix("--") {
            let (name, inline) = match option.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (option, None),
            };
            if name == "verbose" && inline.is_none() {
                verbose = verbose.checked_add(1)?;
            } else if SWITCHES.contains(&name) && inline.is_none() {
                if switches.contains(&name) {
                    return None;
                }
                switches.push(name);
            } else {
                let value = match inline {
                    Some(value) => value,
                    None => words.next()??,
                };
                if value.is_empty() || value.starts_with('-') {
                    return None;
                }
                values.push((name, value));
            }
        } else if let Some(flags) = word.strip_prefix('-') {
            if flags.is_empty() || flags.bytes().any(|b| b != b'v') {
                return None;
            }
            verbose = verbose.checked_add(u8::try_from(flags.len()).ok()?)?;
        } else if event.is_some() || word.is_empty() {
            return None;
        } else {
            event = Some(word.to_owned());
        }
    }
    let mut fire = FireArgs {
        event,
        host: HostId::ClaudeCode,
        format: FireFormat::Protocol,
        fail_closed: switches.contains(&"fail-closed"),
        non_interactive: switches.contains(&"non-interactive"),
        log: None,
        stop_block_cap: None,
        settings: SettingsArgs {
            settings: Vec::new(),
            claude_settings: Vec::new(),
            no_default_settings: switches.contains(&"no-default-settings"),
            project_dir: None,
            trust_project: switches.contains(&"trust-project"),
        },
        limits: LimitArgs {
            kill_grace: parse_duration(KILL_GRACE_DEFAULT).ok()?,
            leak_timeout: parse_duration(LEAK_TIMEOUT_DEFAULT).ok()?,
            deadline: None,
            output_cap: parse_size(OUTPUT_CAP_DEFAULT).ok()?,
        },
    };
    let mut seen: Vec<&str> = Vec::new();
    for (name, value) in values {
        let repeatable = matches!(name, "settings" | "claude-settings");
        if !repeatable && seen.contains(&name) {
            return None;
        }
        seen.push(name);
        match name {
            "settings" => fire.settings.settings.push(PathBuf::from(value)),
            "claude-settings" => fire.settings.claude_settings.push(PathBuf::from(value)),
            "project-dir" => fire.settings.project_dir = Some(PathBuf::from(value)),
            "host" => fire.host = HostId::from_str(value, false).ok()?,
            "format" => fire.format = FireFormat::from_str(value, false).ok()?,
            "log" => fire.log = Some(PathBuf::from(value)),
            "stop-block-cap" => fire.stop_block_cap = Some(value.parse().ok()?),
            "kill-grace" => fire.limits.kill_grace = parse_duration(value).ok()?,
            "leak-timeout" => fire.limits.leak_timeout = parse_duration(value).ok()?,
            "deadline" => fire.limits.deadline = Some(parse_duration(value).ok()?),
            "output-cap" => fire.limits.output_cap = parse_size(value).ok()?,
            _ => return None,
        }
    }
    Some(Cli {
        global: GlobalArgs { verbose },
        command: Command::Fire(fire),
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use clap::{CommandFactory as _, Parser as _};
    use proptest::prelude::*;

    use super::*;

    fn argv(words: &[&str]) -> Vec<OsString> {
        ["hookrun", "fire"]
            .iter()
            .chain(words)
            .map(OsString::from)
            .collect()
    }

    fn clap_reads(args: &[OsString]) -> Result<String, String> {
        Cli::try_parse_from(args)
            .map(|cli| format!("{cli:?}"))
            .map_err(|err| err.to_string())
    }

    /// The options and variables it knows are exactly fire's: a new option
    /// of fire's is refused here (clap reads it) until it is taught, and a
    /// new variable must be listed or clap's reading of it would be missed.
    #[test]
    fn it_knows_exactly_fires_options_and_variables() {
        let mut cli = Cli::command();
        cli.build();
        let fire = cli.find_subcommand("fire").expect("fire");
        let mut env: Vec<String> = fire
            .get_arguments()
            .filter_map(|arg| arg.get_env())
            .map(|name| name.to_string_lossy().into_owned())
            .collect();
        env.sort();
        let mut listed: Vec<String> = FIRE_ENV.iter().map(ToString::to_string).collect();
        listed.sort();
        assert_eq!(env, listed);
        let mut longs: Vec<&str> = fire
            .get_arguments()
            .filter_map(clap::Arg::get_long)
            .filter(|long| !matches!(*long, "help" | "version"))
            .collect();
        longs.sort_unstable();
        let mut known = vec![
            "settings",
            "claude-settings",
            "project-dir",
            "host",
            "format",
            "log",
            "stop-block-cap",
            "kill-grace",
            "leak-timeout",
            "deadline",
            "output-cap",
            "verbose",
        ];
        known.extend(SWITCHES);
        known.sort_unstable();
        assert_eq!(longs, known);
    }

    #[test]
    fn host_command_lines_are_read_here_as_clap_reads_them() {
        for words in [
            &[][..],
            &["pre_tool_use"],
            &["--no-default-settings", "--settings", "/tmp/s.json"],
            &[
                "PreToolUse",
                "--host",
                "gemini",
                "--settings=a.json",
                "--settings",
                "b.json",
            ],
            &[
                "-vv",
                "stop",
                "--deadline",
                "1.5s",
                "--kill-grace=200ms",
                "--output-cap",
                "64KiB",
            ],
            &[
                "--claude-settings",
                ".claude/settings.json",
                "--fail-closed",
                "--non-interactive",
            ],
            &[
                "--log",
                "/tmp/x.jsonl",
                "--stop-block-cap",
                "3",
                "--format",
                "report",
            ],
            &[
                "--project-dir",
                "/p",
                "--trust-project",
                "--leak-timeout",
                "1s",
                "--verbose",
            ],
        ] {
            let args = argv(words);
            let fast = parse_fire(&args).unwrap_or_else(|| panic!("{words:?}: refused"));
            assert_eq!(Ok(format!("{fast:?}")), clap_reads(&args), "{words:?}");
        }
    }

    #[test]
    fn anything_unusual_is_left_to_clap() {
        for words in [
            &["--help"][..],
            &["-h"],
            &["--version"],
            &["--deadlne", "2s"],
            &["--deadline", "soon"],
            &["--host", "nobody"],
            &["--host", "gemini", "--host", "codex"],
            &["--fail-closed", "--fail-closed"],
            &["--fail-closed=yes"],
            &["a", "b"],
            &["--log", "-x"],
            &["--log"],
            &["--log="],
            &["--", "stop"],
            &["-vx"],
            &[""],
        ] {
            assert!(parse_fire(&argv(words)).is_none(), "{words:?}");
        }
    }

    fn word() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "--settings",
            "--claude-settings",
            "--project-dir",
            "--host",
            "--format",
            "--log",
            "--stop-block-cap",
            "--kill-grace",
            "--leak-timeout",
            "--deadline",
            "--output-cap",
            "--fail-closed",
            "--non-interactive",
            "--no-default-settings",
            "--trust-project",
            "--verbose",
            "-v",
            "-vv",
            "--settings=x.json",
            "--host=codex",
            "--deadline=2",
            "--output-cap=1KiB",
            "--bogus",
            "-x",
            "--",
            "pre_tool_use",
            "stop",
            "a.json",
            "gemini",
            "report",
            "protocol",
            "2s",
            "100ms",
            "1MiB",
            "0",
            "7",
            "-1",
            "+3",
            "4294967296",
            "soon",
            "",
            "-",
            "=",
        ])
        .prop_map(str::to_owned)
    }

    proptest! {
        /// Whatever it accepts, clap accepts and reads the same.
        #[test]
        fn it_agrees_with_clap(words in prop::collection::vec(word(), 0..7)) {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let args = argv(&words);
            if let Some(fast) = parse_fire(&args) {
                prop_assert_eq!(Ok(format!("{fast:?}")), clap_reads(&args), "{:?}", words);
            }
        }
    }
}

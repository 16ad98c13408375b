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
//! UTF-8. The `HOOKRUN_*` variables fire's options fall back to are read as
//! clap reads them (an option on the command line wins; a switch's variable
//! is false when empty or `0`, `no`, `off`, `false`, `n`, `f`), and a value
//! of one that is empty, not UTF-8 or does not parse is left to clap too.
//! Whatever it accepts, it reads as clap does; the tests compare the two on
//! generated command lines and environments.

use std::path::PathBuf;

use clap::ValueEnum as _;

use super::{
    Cli, Command, FireArgs, FireFormat, GlobalArgs, KILL_GRACE_DEFAULT, LEAK_TIMEOUT_DEFAULT,
    LimitArgs, OUTPUT_CAP_DEFAULT, SettingsArgs, parse_duration, parse_size,
};
use crate::host::HostId;

/// The environment variables fire's options fall back to (clap's `env`),
/// with the option each is for.
pub(super) const FIRE_ENV: &[(&str, &str)] = &[
    ("HOOKRUN_HOST", "host"),
    ("HOOKRUN_FAIL_CLOSED", "fail-closed"),
    ("HOOKRUN_NON_INTERACTIVE", "non-interactive"),
    ("HOOKRUN_LOG", "log"),
    ("HOOKRUN_STOP_BLOCK_CAP", "stop-block-cap"),
    ("HOOKRUN_PROJECT_DIR", "project-dir"),
    ("HOOKRUN_TRUST_PROJECT", "trust-project"),
    ("HOOKRUN_KILL_GRACE", "kill-grace"),
    ("HOOKRUN_LEAK_TIMEOUT", "leak-timeout"),
    (super::DEADLINE_ENV, "deadline"),
    ("HOOKRUN_OUTPUT_CAP", "output-cap"),
];

/// Options that take no value.
const SWITCHES: &[&str] = &[
    "fail-closed",
    "non-interactive",
    "no-default-settings",
    "trust-project",
];

/// One option's value, parsed as clap parses it; `None` when it does not
/// parse (or is not one of fire's).
fn set(fire: &mut FireArgs, name: &str, value: &str) -> Option<()> {
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
    Some(())
}

/// A switch's variable as clap's `FalseyValueParser` reads it.
fn truthy(value: &str) -> bool {
    !value.is_empty()
        && !matches!(
            value.to_lowercase().as_str(),
            "n" | "no" | "f" | "false" | "off" | "0"
        )
}

/// `args[0] fire …` as clap would read it, or `None` to let clap read it.
pub(super) fn parse_fire(args: &[std::ffi::OsString]) -> Option<Cli> {
    if args.get(1).is_none_or(|arg| arg != "fire") {
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
        host_given: false,
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
        set(&mut fire, name, value)?;
    }
    fire.host_given = seen.contains(&"host");
    // What the command line did not give, from the variables.
    for (var, name) in FIRE_ENV {
        let Some(value) = std::env::var_os(var) else {
            continue;
        };
        if seen.contains(name) || switches.contains(name) {
            continue;
        }
        let value = value.into_string().ok()?;
        match *name {
            "fail-closed" => fire.fail_closed = truthy(&value),
            "non-interactive" => fire.non_interactive = truthy(&value),
            "trust-project" => fire.settings.trust_project = truthy(&value),
            _ if value.is_empty() => return None,
            _ => set(&mut fire, name, &value)?,
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

    use clap::CommandFactory as _;
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
        Cli::parse_with_clap(args)
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
        let mut env: Vec<(String, String)> = fire
            .get_arguments()
            .filter_map(|arg| Some((arg.get_env()?, arg.get_long()?)))
            .map(|(name, long)| (name.to_string_lossy().into_owned(), long.to_owned()))
            .collect();
        env.sort();
        let mut listed: Vec<(String, String)> = FIRE_ENV
            .iter()
            .map(|(var, long)| ((*var).to_owned(), (*long).to_owned()))
            .collect();
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
        /// Whatever it accepts, clap accepts and reads the same (in the
        /// environment the tests run in; the next test runs this one again
        /// under generated `HOOKRUN_*` variables).
        #[test]
        fn it_agrees_with_clap(words in prop::collection::vec(word(), 0..7)) {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let args = argv(&words);
            if let Some(fast) = parse_fire(&args) {
                prop_assert_eq!(Ok(format!("{fast:?}")), clap_reads(&args), "{:?}", words);
            }
        }
    }

    /// Values the variables are given: good ones, and ones clap refuses.
    fn var_value() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "",
            "0",
            "1",
            "no",
            "OFF",
            "False",
            "yes",
            "true",
            "x",
            "gemini",
            "codex",
            "nobody",
            "2s",
            "100ms",
            "1.5",
            "soon",
            "1MiB",
            "64KiB",
            "0",
            "3",
            "+3",
            "-1",
            "/tmp/l.jsonl",
            "-x",
            " ",
        ])
        .prop_map(str::to_owned)
    }

    fn variables() -> impl Strategy<Value = Vec<(&'static str, String)>> {
        prop::collection::vec(
            (
                prop::sample::select(FIRE_ENV.iter().map(|(var, _)| *var).collect::<Vec<_>>()),
                var_value(),
            ),
            1..6,
        )
    }

    /// Clap reads the variables when its parser is built, and a test cannot
    /// set them in its own process (other tests read them at the same
    /// time): each environment gets a process of its own, which runs
    /// [`it_agrees_with_clap`] in it. Every variable alone with a false
    /// word, a true one, an empty and a bad value, then generated mixes.
    #[test]
    fn it_agrees_with_clap_under_the_variables() {
        let exe = std::env::current_exe().expect("the test binary");
        let agrees = |vars: &[(&str, String)]| {
            let mut command = std::process::Command::new(&exe);
            command.args([
                "--exact",
                "cli::fast::tests::it_agrees_with_clap",
                "--test-threads=1",
            ]);
            for (var, _) in FIRE_ENV {
                command.env_remove(var);
            }
            command.envs(vars.iter().map(|(var, value)| (*var, value)));
            command.env("PROPTEST_CASES", "32");
            let out = command.output().expect("the test binary runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            if out.status.success() && stdout.contains("1 passed") {
                Ok(())
            } else {
                Err(format!(
                    "{vars:?}: {stdout}{}",
                    String::from_utf8_lossy(&out.stderr)
                ))
            }
        };
        for (var, _) in FIRE_ENV {
            for value in ["no", "1", "", "soon"] {
                agrees(&[(var, value.to_owned())]).unwrap();
            }
        }
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases: 16,
            ..ProptestConfig::default()
        });
        runner
            .run(&variables(), |vars| {
                agrees(&vars).map_err(TestCaseError::fail)
            })
            .unwrap();
    }

    /// A switch's variable, read as clap's `FalseyValueParser` reads it.
    #[test]
    fn switch_variables_are_false_only_when_empty_or_a_false_word() {
        assert!(!truthy(""));
        for off in ["0", "no", "OFF", "False", "n", "F"] {
            assert!(!truthy(off), "{off}");
        }
        for on in ["1", "yes", "x", " ", "true"] {
            assert!(truthy(on), "{on}");
        }
    }
}

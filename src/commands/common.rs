//! What every command does before its own work: find the project, load the
//! settings, read the event on stdin. One copy, so `fire`, `doctor`,
//! `explain`, `list` and `test` can never disagree about which files a run
//! loads.

use std::io::{IsTerminal as _, Read as _};
use std::path::{Path, PathBuf};

use crate::cli::SettingsArgs;
use crate::event::InputError;
use crate::exit::Exit;
use crate::settings::{self, Environment, Settings, discover};

/// What a command prints, for `lib.rs` to write.
pub struct Printed {
    pub stdout: String,
    pub stderr: String,
    pub exit: Exit,
}

impl Printed {
    pub fn stdout(stdout: String, exit: Exit) -> Printed {
        Printed {
            stdout,
            stderr: String::new(),
            exit,
        }
    }

    /// Exit 1 with one `hookrun: …` line on stderr.
    pub fn failure(line: &str) -> Printed {
        Printed {
            stdout: String::new(),
            stderr: format!("hookrun: {line}\n"),
            exit: Exit::Failure,
        }
    }
}

/// The process environment, with `--project-dir` applied.
pub fn environment(args: &SettingsArgs) -> Environment {
    let mut env = Environment::from_process();
    if let Some(dir) = &args.project_dir {
        env.hookrun_project_dir = Some(dir.clone());
    }
    env
}

/// `<project>` (SPEC §3.1). Commands without an event (`doctor`, `list`,
/// `test`) pass the current directory as the cwd, so running them from a
/// sub-folder finds the same project a hook fired from there would.
pub fn project_dir(env: &Environment, event_cwd: Option<&Path>) -> PathBuf {
    discover::project_dir(env, event_cwd)
}

/// Loads every source the run would load, logging each problem at `-v`.
pub fn load_settings(args: &SettingsArgs, env: &Environment, project_dir: &Path) -> Settings {
    log_problems(settings::load(&args.source_options(), env, project_dir))
}

/// Loads every source for inspection: untrusted project files are parsed
/// too (never run), so `doctor`, `explain` and `list` can show them.
pub fn inspect_settings(args: &SettingsArgs, env: &Environment, project_dir: &Path) -> Settings {
    log_problems(settings::load_for_inspection(
        &args.source_options(),
        env,
        project_dir,
    ))
}

fn log_problems(loaded: Settings) -> Settings {
    for problem in &loaded.problems {
        tracing::info!(%problem, severity = problem.severity.as_str(), "settings problem");
    }
    loaded
}

/// The whole of stdin; a terminal is refused rather than waited on.
pub fn read_stdin() -> Result<Vec<u8>, InputError> {
    let mut stdin = std::io::stdin().lock();
    if stdin.is_terminal() {
        return Err(InputError::Unreadable(std::io::Error::other(
            "stdin is a terminal; pipe the event JSON in (hookrun fire pre_tool_use < event.json)",
        )));
    }
    let mut bytes = Vec::new();
    stdin
        .read_to_end(&mut bytes)
        .map_err(InputError::Unreadable)?;
    Ok(bytes)
}

/// Whether stdin is a terminal (nothing piped in).
pub fn stdin_is_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// A path for display: relative to the current directory when it is below
/// it, as written otherwise.
pub fn display_path(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

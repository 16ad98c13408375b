//! What every command does before its own work: find the project, load the
//! settings. One copy, so `fire`, `doctor`,
//! `explain`, `list` and `test` can never disagree about which files a run
//! loads.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use crate::cli::SettingsArgs;
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

/// A warning when the project was taken from an event `cwd` that does not
/// exist here (a fixture or recorded event from another machine): no
/// project file can load from it, so every project hook and rule is off
/// without another word. One `stat`, and only when no `.hookrun/` folder was
/// found above the cwd (the project is then the cwd itself).
pub fn missing_cwd_warning(
    env: &Environment,
    event_cwd: Option<&Path>,
    project: &Path,
) -> Option<String> {
    let cwd = env.absolute(event_cwd?);
    if cwd != project || cwd.is_dir() {
        return None;
    }
    Some(format!(
        "the event's cwd {} does not exist here, and hookrun took the project from it: no project settings load ({}/.hookrun/settings.json is not there). Give the event your project's cwd, leave `cwd` out to use the current directory, or pass --project-dir",
        cwd.display(),
        cwd.display()
    ))
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

/// Why this looks like an AI agent's own shell, where a command that
/// weakens hookrun (`untrust`, `uninstall`, `trust` of content not trusted
/// yet) refuses without `--yes`: a host's environment marker is set
/// (`CLAUDECODE`, `GEMINI_CLI`…, see [`crate::selfguard::AGENT_MARKERS`])
/// and neither stdin nor stderr is a terminal. A second line only: an
/// agent can unset a variable; the built-in rules are the guard.
pub fn agent_shell() -> Option<String> {
    if std::io::stdin().is_terminal() || std::io::stderr().is_terminal() {
        return None;
    }
    crate::selfguard::agent_marker(|name| std::env::var_os(name))
}

/// The refusal of a weakening command in an agent's shell, for `what`
/// (`untrust /p/.hookrun/settings.json`).
pub fn refused_in_agent_shell(what: &str, marker: &str) -> String {
    format!(
        "refusing to {what}: this looks like an AI agent's shell ({marker}, and no terminal), and it would weaken what hookrun enforces; run it yourself in a terminal, or add --yes if you mean it from here"
    )
}

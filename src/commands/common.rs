//! What every command does before its own work: find the project, load the
//! settings, read the event on stdin. One copy, so `fire`, `doctor`,
//! `explain`, `list` and `test` can never disagree about which files a run
//! loads.

use std::io::{IsTerminal as _, Read as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::cli::SettingsArgs;
use crate::event::{Bytes, Filling, InputError, MAPPED_FROM};
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

/// The whole of stdin; a terminal is refused rather than waited on.
pub fn read_stdin() -> Result<Bytes, InputError> {
    read_stdin_within(None)
}

/// The whole of stdin, waiting at most `limit` for it to close (the
/// deadline: a writer that never closes cannot hold the answer past it).
/// A stdin of megabytes ends up in huge-page-backed memory ([`Filling`]).
pub fn read_stdin_within(limit: Option<Duration>) -> Result<Bytes, InputError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(InputError::Unreadable(std::io::Error::other(
            "stdin is a terminal; pipe the event JSON in (hookrun fire pre_tool_use < event.json)",
        )));
    }
    let Some(limit) = limit else {
        let mut bytes = Vec::new();
        stdin
            .lock()
            .read_to_end(&mut bytes)
            .map_err(InputError::Unreadable)?;
        return Ok(bytes.into());
    };
    let started = Instant::now();
    let mut file = match crate::platform::stdin_file() {
        Ok(Some(file)) => file,
        // No stdin at all reads as empty, as the standard library has it.
        Ok(None) => return Ok(Vec::new().into()),
        Err(err) => return Err(InputError::Unreadable(err)),
    };
    // A regular file (`hookrun fire < event.json`) cannot keep hookrun
    // waiting: read it whole into a buffer of its size.
    if let Some(size) = file
        .metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|meta| usize::try_from(meta.len()).unwrap_or(usize::MAX))
    {
        if size < MAPPED_FROM {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .map_err(InputError::Unreadable)?;
            return Ok(bytes.into());
        }
        let mut buffer = Filling::expecting(size);
        loop {
            match file.read(buffer.room()) {
                Ok(0) => return Ok(buffer.finish()),
                Ok(n) => buffer.filled(n),
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) => return Err(InputError::Unreadable(err)),
            }
        }
    }
    let mut buffer = Filling::new();
    loop {
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(InputError::NotClosed(limit.as_secs_f64()));
        }
        let wait = left.min(Duration::from_millis(u64::from(u16::MAX)));
        match crate::platform::wait_readable(&file, Some(wait)) {
            Ok(false) => continue,
            Ok(true) => {}
            Err(err) => return Err(InputError::Unreadable(err)),
        }
        match file.read(buffer.room()) {
            Ok(0) => return Ok(buffer.finish()),
            Ok(n) => buffer.filled(n),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(InputError::Unreadable(err)),
        }
    }
}

/// Whether stdin is a terminal (nothing piped in).
pub fn stdin_is_terminal() -> bool {
    std::io::stdin().is_terminal()
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

/// How long `fire` waits for stdin to close: `--deadline`, else the default
/// deadline of the event named on the command line, else the longest
/// default (that of an event the catalog does not know).
pub fn stdin_deadline(args: &crate::cli::FireArgs, host: &dyn crate::host::Host) -> Duration {
    if let Some(deadline) = args.limits.deadline {
        return deadline;
    }
    match args.event.as_deref() {
        Some(name) if !name.trim().is_empty() => {
            host.default_deadline(&crate::catalog::EventId::resolve(name.trim()))
        }
        _ => host.default_deadline(&crate::catalog::EventId::Unknown(String::new())),
    }
}

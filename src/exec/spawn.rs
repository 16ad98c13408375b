//! Turning a [`Job`] into something exec can run: the program resolved on
//! the JOB's PATH (not hookrun's), the arguments, an absolute working
//! directory. Every way this can fail is a [`SpawnError`] for that job
//! alone; nothing here may panic.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};

use super::{Job, Program};
use crate::platform::{self, SpawnSpec, Spawned};

/// Used when the job's environment has no PATH: what glibc's `execvp` falls
/// back to, with `/usr/bin` first as on merged-/usr systems.
const DEFAULT_PATH: &str = "/usr/bin:/bin";

/// Why a hook never started. The text becomes `Termination::SpawnFailed`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SpawnError {
    #[error("working directory {}: {source}", cwd.display())]
    BadCwd {
        cwd: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{program}: command not found (PATH={})", search.to_string_lossy())]
    NotFound { program: String, search: OsString },
    #[error(
        "shell \"powershell\" needs PowerShell, and neither pwsh nor powershell is on PATH ({}): install PowerShell, or remove \"shell\": \"powershell\" to run the command with sh",
        search.to_string_lossy()
    )]
    NoPowerShell { search: OsString },
    #[error(
        "hooks in shell form run with a POSIX sh, which Windows lacks: install Git for Windows (its bash.exe is found next to git.exe on PATH), or set CLAUDE_CODE_GIT_BASH_PATH to a bash.exe (PATH={})",
        search.to_string_lossy()
    )]
    NoGitBash { search: OsString },
    #[error("{}: no such file", path.display())]
    NoSuchFile { path: PathBuf },
    #[error("{}: not executable", path.display())]
    NotExecutable { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Os {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl SpawnError {
    /// Out of descriptors or processes for now (EMFILE, ENFILE, EAGAIN):
    /// the start can succeed once running hooks end.
    pub(crate) fn is_exhaustion(&self) -> bool {
        match self {
            SpawnError::Os { source, .. } | SpawnError::BadCwd { source, .. } => {
                platform::is_exhaustion(source)
            }
            _ => false,
        }
    }
}

/// Resolves and starts `job`.
pub(crate) fn spawn_job(job: &Job) -> Result<Spawned, SpawnError> {
    // Absolute, so that a relative program path means the same thing in the
    // parent and after the child's chdir.
    let cwd = std::path::absolute(&job.cwd).map_err(|source| SpawnError::BadCwd {
        cwd: job.cwd.clone(),
        source,
    })?;
    // Checked here only for the message: exec's own ENOENT would not say
    // whether the program or the directory is missing.
    match std::fs::metadata(&cwd) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(SpawnError::BadCwd {
                cwd,
                source: io::ErrorKind::NotADirectory.into(),
            });
        }
        Err(source) => return Err(SpawnError::BadCwd { cwd, source }),
    }
    let (name, args): (&str, Vec<OsString>) = match &job.program {
        Program::Shell { shell, script } => (shell, vec!["-c".into(), script.into()]),
        Program::Exec { program, args } => (program, args.iter().map(Into::into).collect()),
        Program::PowerShell { script } => return spawn_powershell(job, script, &cwd),
    };
    let path = match &job.program {
        Program::Shell { shell, .. } if shell == "sh" && platform::NEEDS_GIT_BASH => {
            let search = job.env.get("PATH");
            platform::git_bash(search, job.env.get("CLAUDE_CODE_GIT_BASH_PATH")).ok_or_else(
                || SpawnError::NoGitBash {
                    search: search.unwrap_or_default().to_owned(),
                },
            )?
        }
        Program::Shell { shell, .. } if shell == "sh" && system_sh_runs() => {
            PathBuf::from(SYSTEM_SH)
        }
        _ => find_program_cached(name, job.env.get("PATH"), &cwd)?,
    };
    let spec = SpawnSpec {
        path: &path,
        argv0: OsStr::new(name),
        args: &args,
        cwd: &cwd,
    };
    platform::spawn(&spec, job.env.iter()).map_err(|source| SpawnError::Os { path, source })
}

/// The PowerShell programs `shell: "powershell"` runs, in the order Claude
/// Code (2.1.332) looks for them on PATH.
pub const POWERSHELLS: [&str; 2] = ["pwsh", "powershell"];

/// Set (to anything but the empty string), PowerShell's execution policy is
/// left alone, as Claude Code leaves it.
const RESPECT_POLICY: &str = "CLAUDE_CODE_POWERSHELL_RESPECT_EXECUTION_POLICY";

/// The arguments PowerShell gets for a hook's script: Claude Code's
/// (2.1.332): no profile, no prompts, the execution policy bypassed unless
/// asked to respect it, the script as one `-Command` argument.
pub fn powershell_args(script: &str, respect_policy: bool) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["-NoProfile".into(), "-NonInteractive".into()];
    if !respect_policy {
        args.extend(["-ExecutionPolicy".into(), "Bypass".into()]);
    }
    args.extend(["-Command".into(), script.into()]);
    args
}

/// A PowerShell hook: the first of [`POWERSHELLS`] on the job's PATH, in
/// its own process group like every other hook.
fn spawn_powershell(job: &Job, script: &str, cwd: &Path) -> Result<Spawned, SpawnError> {
    let search = job.env.get("PATH");
    let (name, path) = POWERSHELLS
        .iter()
        .find_map(|name| {
            find_program_cached(name, search, cwd)
                .ok()
                .map(|path| (*name, path))
        })
        .ok_or_else(|| SpawnError::NoPowerShell {
            search: search.unwrap_or(OsStr::new(DEFAULT_PATH)).to_owned(),
        })?;
    let respect = job.env.get(RESPECT_POLICY).is_some_and(|v| !v.is_empty());
    let args = powershell_args(script, respect);
    let spec = SpawnSpec {
        path: &path,
        argv0: OsStr::new(name),
        args: &args,
        cwd,
    };
    platform::spawn(&spec, job.env.iter()).map_err(|source| SpawnError::Os { path, source })
}

/// The shell of the shell form: where POSIX systems keep it, and what
/// Claude Code runs its hooks with (`/bin/sh -c COMMAND`), whatever `sh`
/// comes first on PATH.
const SYSTEM_SH: &str = "/bin/sh";

/// `/bin/sh` is an executable file (checked once per process). Where it is
/// not, `sh` is looked for on PATH like any other program.
fn system_sh_runs() -> bool {
    static RUNS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *RUNS.get_or_init(|| {
        let runs = matches!(classify(Path::new(SYSTEM_SH)), Candidate::Executable);
        if !runs {
            tracing::debug!("{SYSTEM_SH} is not an executable file; `sh` is looked for on PATH");
        }
        runs
    })
}

/// [`find_program`], remembered for the rest of the process: exec-form
/// and `bash` hooks often start the same program through the same PATH
/// from the same folder, and each search is a `stat` per PATH entry. Only what was found is
/// remembered; a program that was missing is searched for again.
fn find_program_cached(
    name: &str,
    search: Option<&OsStr>,
    cwd: &Path,
) -> Result<PathBuf, SpawnError> {
    type Key = (String, Option<OsString>, PathBuf);
    thread_local! {
        static FOUND: std::cell::RefCell<std::collections::HashMap<Key, PathBuf>> =
            std::cell::RefCell::default();
    }
    let key = (name.to_owned(), search.map(OsStr::to_owned), cwd.to_owned());
    if let Some(path) = FOUND.with_borrow(|found| found.get(&key).cloned()) {
        return Ok(path);
    }
    let path = find_program(name, search, cwd)?;
    FOUND.with_borrow_mut(|found| found.insert(key, path.clone()));
    Ok(path)
}

/// `execvp`'s rules, done in the parent so that the child's PATH is used
/// whatever std's spawn strategy, and a failure says which rule failed: a
/// name with `/` is a path (relative to the job's cwd); otherwise each PATH
/// entry in turn (an empty or relative entry is relative to the cwd), the
/// first executable file wins, and a match that is not executable is
/// reported only if no later entry has an executable one.
pub(crate) fn find_program(
    name: &str,
    search: Option<&OsStr>,
    cwd: &Path,
) -> Result<PathBuf, SpawnError> {
    // An absolute name is a path too (on Windows, `C:\…` has no `/`).
    if name.contains('/') || Path::new(name).is_absolute() {
        let path = cwd.join(name);
        return match classify(&path) {
            Candidate::Executable => Ok(path),
            Candidate::NotExecutable => Err(SpawnError::NotExecutable { path }),
            Candidate::Missing => Err(SpawnError::NoSuchFile { path }),
        };
    }
    let search = search.unwrap_or(OsStr::new(DEFAULT_PATH));
    let mut not_executable = None;
    if !name.is_empty() {
        for dir in std::env::split_paths(search) {
            let candidate = cwd.join(dir).join(name);
            match classify(&candidate) {
                Candidate::Executable => return Ok(candidate),
                Candidate::NotExecutable => {
                    not_executable.get_or_insert(candidate);
                }
                Candidate::Missing => {}
            }
        }
    }
    match not_executable {
        Some(path) => Err(SpawnError::NotExecutable { path }),
        None => Err(SpawnError::NotFound {
            program: name.to_owned(),
            search: search.to_owned(),
        }),
    }
}

enum Candidate {
    Executable,
    NotExecutable,
    Missing,
}

fn classify(path: &Path) -> Candidate {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            if platform::is_executable(path) {
                Candidate::Executable
            } else {
                Candidate::NotExecutable
            }
        }
        // A directory of that name is skipped, as execvp does.
        Ok(_) | Err(_) => Candidate::Missing,
    }
}

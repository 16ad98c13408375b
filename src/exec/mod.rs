//! Running hook processes (SPEC §5.1, §5.3–5.6).
//!
//! Owns every child process hookrun starts: spawning each hook in its own
//! process group with piped stdio, feeding stdin without deadlock, capped
//! capture of stdout/stderr, two-stage timeouts that never wait on a pipe,
//! leak detection after a normal exit, and forwarding hookrun's own
//! termination signals. It knows nothing about the hook protocol: it takes
//! [`Job`]s and returns [`JobReport`]s. It must never block on a pipe, never
//! inherit hookrun's own stdin/stdout/stderr into a hook, and never leave a
//! timed-out or interrupted hook's process group alive.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[allow(dead_code)] // wired up in a later commit
mod capture;
#[allow(dead_code)] // wired up in a later commit
mod spawn;
#[allow(dead_code)] // wired up in a later commit
mod unix;

/// What to execute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// `SHELL -c SCRIPT` (SHELL is `sh` or `bash`, looked up on PATH).
    Shell { shell: String, script: String },
    /// Exec form: `program` resolved on the job's PATH, run with `args`.
    Exec { program: String, args: Vec<String> },
}

/// One hook process to run.
#[derive(Debug, Clone)]
pub struct Job {
    pub program: Program,
    /// The complete environment of the child (nothing else is inherited).
    pub env: Vec<(OsString, OsString)>,
    pub cwd: PathBuf,
    /// Bytes written to the child's stdin, then stdin is closed.
    pub stdin: Arc<[u8]>,
    /// From spawn to SIGTERM.
    pub timeout: Duration,
}

/// Knobs shared by every job of a run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// SIGTERM → SIGKILL grace (SPEC §5.3, `--kill-grace`).
    pub kill_grace: Duration,
    /// How long output is drained after a normal exit (SPEC §5.4).
    pub leak_timeout: Duration,
    /// Bytes kept per stream (SPEC §5.5); the rest is counted and dropped.
    pub output_cap: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            kill_grace: Duration::from_secs(2),
            leak_timeout: Duration::from_millis(100),
            output_cap: 1024 * 1024,
        }
    }
}

/// Captured output of one stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    /// At most `output_cap` bytes, the start of the stream.
    pub bytes: Vec<u8>,
    /// Every byte read, kept or not.
    pub total: u64,
}

impl Captured {
    pub fn truncated(&self) -> bool {
        self.total > self.bytes.len() as u64
    }
}

/// How the hook's own process (the group leader) ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    /// Killed by this signal number.
    Signaled(i32),
    /// It never started; the message says why (not found, not executable…).
    SpawnFailed(String),
}

/// What happened to one job.
#[derive(Debug, Clone)]
pub struct JobReport {
    pub termination: Termination,
    /// The timeout passed and the group was signalled.
    pub timed_out: bool,
    /// SIGKILL had to be sent to the group.
    pub killed: bool,
    /// After a normal exit, the pipes were still held open after the leak
    /// timeout by processes the hook left behind (not killed).
    pub leaked: bool,
    /// Stopped because hookrun itself received a termination signal.
    pub interrupted: bool,
    /// The child closed stdin before taking all of it (EPIPE): normal.
    pub stdin_unread: bool,
    pub stdout: Captured,
    pub stderr: Captured,
    /// From spawn to done.
    pub duration: Duration,
}

/// Runs batches of jobs; owns hookrun's signal handling while it lives.
#[derive(Debug)]
pub struct Supervisor {
    interrupted_by: Option<i32>,
}

impl Supervisor {
    /// Installs handlers for SIGINT, SIGTERM, SIGHUP (and SIGCHLD) so a
    /// signal to hookrun reaches every hook group instead of orphaning it.
    pub fn new() -> std::io::Result<Supervisor> {
        todo!("supervisor")
    }

    /// Runs `jobs` in parallel and returns one report per job, in job order.
    /// Returns early (every job stopped, reports marked `interrupted`) when
    /// hookrun is signalled; see [`Supervisor::interrupted_by`].
    pub fn run(&mut self, jobs: Vec<Job>, limits: &Limits) -> Vec<JobReport> {
        let _ = (jobs, limits);
        todo!("supervisor")
    }

    /// The first termination signal hookrun received, if any.
    pub fn interrupted_by(&self) -> Option<i32> {
        self.interrupted_by
    }
}

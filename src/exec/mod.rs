//! Running hook processes (SPEC §5.1, §5.3–5.6).
//!
//! Owns every child process hookrun starts: spawning each hook in its own
//! process group with piped stdio, feeding stdin without deadlock, capped
//! capture of stdout/stderr, two-stage timeouts that never wait on a pipe,
//! leak detection after a normal exit, and forwarding hookrun's own
//! termination signals. It knows nothing about the hook protocol: it takes
//! [`Job`]s and returns [`JobReport`]s. It must never block on a pipe, never
//! let a hook inherit hookrun's own stdin/stdout/stderr or any other
//! descriptor hookrun inherited (see [`InheritedFds`]), and never leave a
//! timed-out or interrupted hook's process group alive.
//!
//! Layout: `spawn` resolves and starts one job, `unit` is one hook's state
//! machine, `reactor` the single loop that drives all of them from one
//! thread, `capture` the capped output buffers. Every OS call is the
//! platform seam's (`crate::platform`): a hook is a process tree there,
//! whatever the system makes of one.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::event::Bytes;

mod capture;
mod interactive;
mod reactor;
mod spawn;
pub use spawn::{POWERSHELLS, powershell_args};
/// Tests that signal the test process hold it for writing; every test
/// that runs a [`Supervisor`] (which would receive those signals) holds it
/// for reading.
#[cfg(test)]
static SIGNAL_LOCK: std::sync::RwLock<()> = std::sync::RwLock::new(());

// The supervisor's guarantees on every system, with the test binary itself
// as the hook (no shell needed): run under wine too.
#[cfg(test)]
mod portable_tests;

// The supervisor's tests start hooks with `sh` and read `/proc`: Unix.
crate::platform::unix_only! {
    #[cfg(test)]
    mod tests;
}
mod unit;

pub use interactive::{Interactive, Stopped};

/// Starts a helper process detached (its own group, stdio on the null
/// device): `async` hooks' runner.
pub fn spawn_detached(program: &std::path::Path, args: &[&std::ffi::OsStr]) -> std::io::Result<()> {
    crate::platform::spawn_detached(program, args)
}

/// Leaves the parent's session (the detached `async` runner).
pub fn new_session() -> std::io::Result<()> {
    crate::platform::new_session()
}

/// What to execute.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Program {
    /// `SHELL -c SCRIPT` (SHELL is `sh`, run as `/bin/sh` where that exists,
    /// or `bash`, looked up on PATH).
    Shell { shell: String, script: String },
    /// Exec form: `program` resolved on the job's PATH, run with `args`.
    Exec { program: String, args: Vec<String> },
    /// `shell: "powershell"`: `pwsh` (else `powershell`) on the job's PATH,
    /// run with [`powershell_args`] and this script.
    PowerShell { script: String },
}

/// One hook process to run.
#[derive(Debug, Clone)]
pub struct Job {
    pub program: Program,
    /// The complete environment of the child (nothing else is inherited).
    pub env: JobEnv,
    pub cwd: PathBuf,
    /// Bytes written to the child's stdin, then stdin is closed.
    pub stdin: Arc<Bytes>,
    /// From spawn to SIGTERM.
    pub timeout: Duration,
    /// The hard end: by then the group has had SIGKILL, whatever is left
    /// of the kill grace (the caller's deadline). `None`: only the grace
    /// bounds the TERM→KILL sequence. See [`fit_to_deadline`].
    pub kill_by: Option<Instant>,
}

/// A child's complete environment: the variables the jobs of a batch share
/// (built once, not once per hook), then the job's own. Read in that
/// order, a later variable replaces an earlier one of the same name, as
/// `Command::envs` does.
#[derive(Debug, Clone, Default)]
pub struct JobEnv {
    shared: Arc<Vec<(OsString, OsString)>>,
    own: Vec<(OsString, OsString)>,
}

impl JobEnv {
    pub fn new(shared: Arc<Vec<(OsString, OsString)>>, own: Vec<(OsString, OsString)>) -> JobEnv {
        JobEnv { shared, own }
    }

    /// Every variable, shared ones first.
    pub fn iter(&self) -> impl Iterator<Item = (&OsStr, &OsStr)> {
        self.shared
            .iter()
            .chain(&self.own)
            .map(|(key, value)| (key.as_os_str(), value.as_os_str()))
    }

    /// The value the child sees: the last one of that name.
    pub fn get(&self, key: &str) -> Option<&OsStr> {
        self.iter()
            .filter(|(name, _)| *name == key)
            .last()
            .map(|(_, value)| value)
    }

    /// Adds a variable of the job's own.
    pub fn push(&mut self, key: impl Into<OsString>, value: impl Into<OsString>) {
        self.own.push((key.into(), value.into()));
    }
}

impl From<Vec<(OsString, OsString)>> for JobEnv {
    fn from(own: Vec<(OsString, OsString)>) -> JobEnv {
        JobEnv {
            shared: Arc::default(),
            own,
        }
    }
}

/// When to send SIGTERM so that the whole TERM→KILL sequence ends by a
/// deadline `left` from now.
///
/// A hook that ignores SIGTERM holds its group for the whole kill grace
/// after the SIGTERM; if that started at the deadline, the answer would land
/// a grace after it, when the host has already discarded it. So the SIGTERM
/// comes early enough for the (possibly shortened) grace to fit: the grace
/// before a deadline is at most a quarter of the time left, so a hook keeps
/// most of its time. Returns the timeout to use (from spawn to SIGTERM) and
/// whether the deadline shortened `wanted`; pass `kill_by` = now + `left`
/// in the [`Job`] so the SIGKILL comes at the deadline at the latest.
#[must_use]
pub fn fit_to_deadline(wanted: Duration, left: Duration, grace: Duration) -> (Duration, bool) {
    let grace = grace.min(left / 4);
    let latest_term = left.saturating_sub(grace).max(Duration::from_millis(1));
    if wanted > latest_term {
        (latest_term, true)
    } else {
        (wanted, false)
    }
}

/// Whether a hook with this timeout and the kill grace after it fits in
/// `deadline`: `false` when a hook ignoring SIGTERM would be stopped early
/// (doctor's finding).
#[must_use]
pub fn fits_deadline(timeout: Duration, deadline: Duration, grace: Duration) -> bool {
    timeout.saturating_add(grace) <= deadline
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
///
/// For a timed-out or interrupted hook this is still the leader's real end
/// (usually `Signaled(15)` or `Signaled(9)`); `timed_out`, `killed` and
/// `interrupted` in [`JobReport`] say why it ended.
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
    /// Stopped because hookrun itself received a termination signal (or
    /// not started at all, see [`Supervisor::run`]). Hooks that had already
    /// exited, or were already being stopped for their timeout, are not.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the supervisor's tests read what it did")
    )]
    pub interrupted: bool,
    /// Not all of `Job.stdin` reached the child: it closed stdin early
    /// (EPIPE), or exited, timed out or was interrupted first. Normal for a
    /// hook that ignores its input. Always false for a job never started.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the supervisor's tests read what it did")
    )]
    pub stdin_unread: bool,
    pub stdout: Captured,
    pub stderr: Captured,
    /// From spawn to done (for a hook that did not start: the attempt).
    pub duration: Duration,
}

/// The descriptors hookrun inherited from its parent besides stdin, stdout
/// and stderr (SPEC §5.1).
///
/// A parent may leave descriptors open without close-on-exec: a host's
/// pipe, a shell's `7<file`, a sandbox's bookkeeping pipe. Passed on, they
/// would outlive hookrun in every process a hook leaves behind, and a host
/// reading that pipe to its end would wait for them. hookrun uses none of
/// them, except a settings file named `/dev/fd/N`, so they are closed
/// before the first hook starts.
///
/// Closed, not marked close-on-exec: the flag cannot be set on a bare
/// number without `unsafe` (the crate forbids it). Hence two steps: take
/// stock at start-up, when every descriptor above stderr is inherited, and
/// close after the settings were read but before any hook runs.
#[derive(Debug)]
#[must_use = "the inherited descriptors are only closed by `close`"]
pub struct InheritedFds {
    inherited: crate::platform::Inherited,
}

impl InheritedFds {
    /// Lists the descriptors above stderr open now. Call it first thing,
    /// before hookrun opens anything it keeps: everything listed will be
    /// closed. Finds none where the system cannot list them (Linux without
    /// `/proc`).
    pub fn take_stock() -> InheritedFds {
        InheritedFds {
            inherited: crate::platform::Inherited::take_stock(),
        }
    }

    /// Closes them, so that no hook inherits them. Call it after the last
    /// read through one of them (`--settings /dev/fd/N`) and before the
    /// first hook starts. Returns how many were closed.
    pub fn close(self) -> usize {
        let closed = self.inherited.close();
        if closed > 0 {
            tracing::debug!(closed, "closed descriptors inherited from the parent");
        }
        closed
    }
}

/// Runs batches of jobs; owns hookrun's signal handling while it lives.
///
/// Create ONE per process, early, and keep it until hookrun exits: from
/// `new` on, SIGINT/SIGTERM/SIGHUP no longer kill hookrun but are recorded
/// (see [`Supervisor::interrupted_by`]) and forwarded to the hooks of a
/// running batch; the caller exits with 128 + that signal (SPEC §5.6).
/// Dropping it unregisters the handlers, but signal-hook cannot restore the
/// default disposition, so after the drop those signals are ignored.
#[derive(Debug)]
pub struct Supervisor {
    interrupts: reactor::Interrupts,
    signals: crate::platform::Signals,
}

impl Supervisor {
    /// Installs handlers for SIGINT, SIGTERM, SIGHUP (and SIGCHLD) so a
    /// signal to hookrun reaches every hook group instead of orphaning it.
    pub fn new() -> std::io::Result<Supervisor> {
        Ok(Supervisor {
            interrupts: reactor::Interrupts::default(),
            signals: crate::platform::Signals::register()?,
        })
    }

    /// Runs `jobs` in parallel and returns one report per job, in job order.
    /// Returns early (every job stopped, reports marked `interrupted`) when
    /// hookrun is signalled; see [`Supervisor::interrupted_by`].
    ///
    /// Once hookrun has been signalled, this and every later call return at
    /// once without starting anything: each report is
    /// `Termination::SpawnFailed("not started: …")` with `interrupted` set.
    /// A job that could not be started is `SpawnFailed` too, alone: the
    /// other jobs run. Out of descriptors or processes, a job waits (in job
    /// order) until running jobs end, and fails only when none is left to
    /// end. No job starts after its `kill_by`: it is `SpawnFailed("the deadline
    /// passed before its turn came")`.
    pub fn run(&mut self, jobs: Vec<Job>, limits: &Limits) -> Vec<JobReport> {
        reactor::run_batch(&mut self.signals, &mut self.interrupts, jobs, limits)
    }

    /// The first termination signal hookrun received, if any.
    pub fn interrupted_by(&self) -> Option<i32> {
        self.interrupts.first
    }
}

//! The platform seam: everything hookrun asks of the operating system that
//! is not the same everywhere, behind one vocabulary.
//!
//! The rest of the crate names no operating system: it starts a hook's
//! process tree, ends it, waits for pipes and signals, takes stock of
//! inherited descriptors, asks where an open file is, locks a file, counts
//! processors — each through an item listed below — and this module picks
//! the implementation when hookrun is compiled. No `cfg` naming an
//! operating system stands anywhere else in the crate (a test holds it).
//!
//! Layout (docs/design/platform.md tells the intent at length):
//!
//! - `unix.rs`: what Linux and macOS share (POSIX): process groups and
//!   `killpg`, `poll(2)` over the pipes and a self-pipe for signals,
//!   non-blocking pipes, `flock`, `O_NOFOLLOW` and modes, listing a folder
//!   through its descriptor.
//! - `linux.rs`: what Linux answers its own way: `/proc` for the live
//!   members of a group and the open descriptors, `waitid(WNOWAIT)`, the
//!   affinity mask, pipe sizes, transparent huge pages.
//! - `macos.rs`: the same questions answered by macOS: `sysctl` and
//!   `proc_listpids` (through the `libproc` crate), `/dev/fd`, `F_GETPATH`.
//! - Windows: not written yet. Its backend is one more file here that
//!   provides every item re-exported below (a Job Object per hook, threads
//!   instead of `poll` for pipes, `CTRL_BREAK` then `TerminateJobObject`);
//!   until then a Windows build stops at the `compile_error!` below.
//!
//! What this module must never do: block without a bound (every wait takes
//! a timeout), reap a hook's leader before the last signal to its group,
//! or decide what a failure means for a hook (callers do; the answers here
//! are facts: exited or not, alive, gone or unknown).

#[cfg(unix)]
mod unix;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as os;

#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as os;

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
compile_error!(
    "hookrun's platform backends are Linux and macOS; a Windows backend is one more file in \
     src/platform/ (docs/design/platform.md lists what it provides)"
);

// ---- process trees: a hook, everything it starts, and how they end ------

/// The signal number a killed tree's leader reports.
pub(crate) use unix::KILL_SIGNAL;
/// What to start: an already resolved program, its arguments and folder.
pub(crate) use unix::SpawnSpec;
/// A started hook: its process tree and the parent's ends of its pipes.
pub(crate) use unix::Spawned;
/// One hook's processes: observed, politely ended, killed, reaped.
pub(crate) use unix::Tree;
/// One look at the process table, shared by every tree checked in one
/// turn of the supervisor's loop.
pub(crate) use unix::TreeScan;
/// Whether a tree still has a member that can run.
pub(crate) use unix::TreeState;
/// The exit code (`Ok`) or the terminating signal (`Err`) of a status.
pub(crate) use unix::exit_code_or_signal;
/// Whether a path may be executed by this process.
pub(crate) use unix::is_executable;
/// A start that failed for want of descriptors or processes, which may
/// succeed once running hooks end.
pub(crate) use unix::is_exhaustion;
/// Leaves the parent's session (the detached `async` runner).
pub(crate) use unix::new_session;
/// Starts a [`SpawnSpec`] as the root of a new tree (a new process group),
/// stdin/stdout/stderr fresh non-blocking pipes, exactly the environment
/// given.
pub(crate) use unix::spawn;
/// Starts a helper detached: its own group, stdio on the null device.
pub(crate) use unix::spawn_detached;

// ---- pipes, readiness and hookrun's own signals ----------------------------

/// Asks for a pipe big enough for `len` bytes of stdin (where the system
/// lets a pipe grow).
pub(crate) use os::grow_pipe;
/// The parent's end of one of a hook's pipes.
pub(crate) use unix::Pipe;
/// Waits until a watched pipe is ready, a signal arrived, or the timeout.
pub(crate) use unix::wait;
/// Waits until a descriptor hookrun reads (stdin, a named pipe) is readable.
pub(crate) use unix::wait_readable;
/// One pipe to wait on, and what it is waited for.
pub(crate) use unix::{Interest, Watch};
/// Reads or writes what a non-blocking pipe takes now.
pub(crate) use unix::{ReadOutcome, WriteOutcome, read_some, write_some};
/// hookrun's termination signals (and child exits), as the loop sees them.
pub(crate) use unix::{Signals, TERMINATION_SIGNALS};

// ---- descriptors and files --------------------------------------------------

/// Where an open file or folder is now (not where it was opened).
pub(crate) use os::descriptor_path;
/// The descriptors hookrun inherited above stderr, closed before hooks run.
pub(crate) use unix::Inherited;
/// The entries of a folder, listed through an open descriptor of it.
pub(crate) use unix::read_folder;
/// Whether two metadata are of the same file (device and inode).
pub(crate) use unix::same_file;
/// A write past `ulimit -f` fails with `EFBIG` instead of killing hookrun.
pub(crate) use unix::survive_file_size_limit;
/// An advisory lock held on an open file, and taking one without waiting.
pub(crate) use unix::{FileLock, try_lock};
/// The open flags of hookrun's file rules: no-follow, non-blocking, private.
pub(crate) use unix::{clear_nonblocking, set_nonblocking_file, set_open_flags, set_private_mode};
/// What a non-regular file is, in words; whether it is a FIFO.
pub(crate) use unix::{describe_file_type, is_fifo};
/// Open errors that mean "a FIFO nobody reads" and "a symlink not followed".
pub(crate) use unix::{is_fifo_without_reader, is_refused_link};

// ---- the machine -------------------------------------------------------------

/// Asks for huge pages behind a big anonymous mapping (speed only).
pub(crate) use os::advise_huge_pages;
/// How many processors hookrun may run on.
pub(crate) use os::usable_cpus;

#[cfg(test)]
pub(crate) use os::testing;

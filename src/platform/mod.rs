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
//! - `windows.rs`: a Job Object per hook, `CTRL_BREAK` then
//!   `TerminateJobObject`, a thread per pipe instead of `poll`, std's file
//!   locks, reparse points opened as themselves. It is both the family and
//!   the system backend (`family` and `os` below).
//!
//! What this module must never do: block without a bound (every wait takes
//! a timeout), reap a hook's leader before the last signal to its group,
//! or decide what a failure means for a hook (callers do; the answers here
//! are facts: exited or not, alive, gone or unknown).

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as family;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as os;

#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as os;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as family;
#[cfg(windows)]
use windows as os;

#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
compile_error!(
    "hookrun's platform backends are Linux, macOS and Windows; another system is one more file \
     in src/platform/ (docs/design/platform.md lists what it provides)"
);

/// Items (mostly tests) that exist only on Unix: they test Unix behaviour
/// (modes, FIFOs, signals, `sh`) that Windows does not have. The choice is
/// made here so that no other file names an operating system.
macro_rules! unix_only {
    ($($item:item)*) => { $( #[cfg(unix)] $item )* };
}
pub(crate) use unix_only;

/// Items that exist only on Windows (tests of Windows behaviour that run
/// only there, beside the Linux tests of the same logic).
#[cfg(test)]
macro_rules! windows_only {
    ($($item:item)*) => { $( #[cfg(windows)] $item )* };
}
#[cfg(test)]
pub(crate) use windows_only;

// ---- process trees: a hook, everything it starts, and how they end ------

/// The signal number a killed tree's leader reports.
pub(crate) use family::KILL_SIGNAL;
/// What to start: an already resolved program, its arguments and folder.
pub(crate) use family::SpawnSpec;
/// A started hook: its process tree and the parent's ends of its pipes.
pub(crate) use family::Spawned;
/// One hook's processes: observed, politely ended, killed, reaped.
pub(crate) use family::Tree;
/// One look at the process table, shared by every tree checked in one
/// turn of the supervisor's loop.
pub(crate) use family::TreeScan;
/// Whether a tree still has a member that can run.
pub(crate) use family::TreeState;
/// The exit code (`Ok`) or the terminating signal (`Err`) of a status.
pub(crate) use family::exit_code_or_signal;
/// Whether a path may be executed by this process.
pub(crate) use family::is_executable;
/// Whether a file (its metadata) is a program: an execute bit on Unix, a
/// program's extension on Windows.
pub(crate) use family::is_executable_meta;
/// A start that failed for want of descriptors or processes, which may
/// succeed once running hooks end.
pub(crate) use family::is_exhaustion;
/// Leaves the parent's session (the detached `async` runner).
pub(crate) use family::new_session;
/// The name of a signal number (`SIGTERM`), where it has one.
pub(crate) use family::signal_name;
/// Starts a [`SpawnSpec`] as the root of a new tree (a new process group),
/// stdin/stdout/stderr fresh non-blocking pipes, exactly the environment
/// given.
pub(crate) use family::spawn;
/// Starts a helper detached: its own group, stdio on the null device.
pub(crate) use family::spawn_detached;

// ---- pipes, readiness and hookrun's own signals ----------------------------

/// The parent's end of one of a hook's pipes.
pub(crate) use family::Pipe;
/// A hook's pipes as tokio's async reader and writers.
pub(crate) use family::async_pipes;
/// Waits until a watched pipe is ready, a signal arrived, or the timeout.
pub(crate) use family::wait;
/// Waits until a descriptor hookrun reads (stdin, a named pipe) is readable.
pub(crate) use family::wait_readable;
/// One pipe to wait on, and what it is waited for.
pub(crate) use family::{Interest, Watch};
/// Reads or writes what a non-blocking pipe takes now.
pub(crate) use family::{ReadOutcome, WriteOutcome, read_some, write_some};
/// hookrun's termination signals (and child exits), as the loop sees them.
pub(crate) use family::{Signals, TERMINATION_SIGNALS};
/// Asks for a pipe big enough for `len` bytes of stdin (where the system
/// lets a pipe grow).
pub(crate) use os::grow_pipe;

// ---- descriptors and files --------------------------------------------------

/// The descriptors hookrun inherited above stderr, closed before hooks run.
pub(crate) use family::Inherited;
/// A folder opened without following a link at its last component.
pub(crate) use family::open_folder_nofollow;
/// Bytes (from `OsStr::as_encoded_bytes`) back into an `OsString`.
pub(crate) use family::os_string_from_bytes;
/// A file's owner and this process's user, where files have a uid.
pub(crate) use family::owner_and_self;
/// The entries of a folder, listed through an open descriptor of it.
pub(crate) use family::read_folder;
/// Whether two metadata are of the same file (device and inode).
pub(crate) use family::same_file;
/// A write past `ulimit -f` fails with `EFBIG` instead of killing hookrun.
pub(crate) use family::survive_file_size_limit;
/// An advisory lock held on an open file, and taking one without waiting.
pub(crate) use family::{FileLock, try_lock};
/// The open flags of hookrun's file rules: no-follow, non-blocking, private.
pub(crate) use family::{
    clear_nonblocking, set_nonblocking_file, set_open_flags, set_private_mode,
};
/// What a non-regular file is, in words; whether it is a FIFO.
pub(crate) use family::{describe_file_type, is_fifo};
/// Open errors that mean "a FIFO nobody reads" and "a symlink not followed".
pub(crate) use family::{is_fifo_without_reader, is_refused_link};
/// File modes where the system has them: set at creation, set later, read.
pub(crate) use family::{mode_bits, set_create_mode, set_folder_mode, set_mode};
/// hookrun's stdin as a file of its own; its stdout and stderr.
pub(crate) use family::{own_outputs, stdin_file};
/// Where an open file or folder is now (not where it was opened).
pub(crate) use os::descriptor_path;

// ---- the user's folders ------------------------------------------------------

/// The variable naming the per-user application data folder, if any.
pub(crate) use family::LOCAL_DATA_VAR;
/// Whether this system spells paths as Windows does, for the path rules
/// (`select::path_style`).
pub(crate) use family::WINDOWS_PATHS;
/// A canonical path as users write it (no `\\?\` on Windows).
pub(crate) use family::plain_path;
/// Whether shell-form hooks need Git for Windows' bash, and where it is.
pub(crate) use family::{NEEDS_GIT_BASH, git_bash};
/// The user's home (`~`), and `~/` taken off a path written with it.
pub(crate) use family::{home_dir, strip_home_prefix};

// ---- the machine -------------------------------------------------------------

/// Asks for huge pages behind a big anonymous mapping (speed only).
pub(crate) use os::advise_huge_pages;
/// How many processors hookrun may run on.
pub(crate) use os::usable_cpus;

/// A symlink, for tests (a file or folder link on Windows).
#[cfg(test)]
pub(crate) use family::symlink;
/// The process table as the supervisor's Unix-only tests read it.
#[cfg(all(test, unix))]
pub(crate) use os::testing;

// ---- folder entries, the same on every system -------------------------------

/// What a folder entry is, as listed (a symlink is not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryKind {
    Folder,
    File,
    Symlink,
    Other,
}

impl EntryKind {
    pub(crate) fn is_dir(self) -> bool {
        self == EntryKind::Folder
    }

    pub(crate) fn is_file(self) -> bool {
        self == EntryKind::File
    }

    pub(crate) fn is_symlink(self) -> bool {
        self == EntryKind::Symlink
    }
}

/// One entry of [`read_folder`]: made by each system's listing.
#[derive(Debug, Clone)]
pub(crate) struct FolderEntry {
    name: std::ffi::OsString,
    kind: EntryKind,
}

impl FolderEntry {
    pub(crate) fn file_name(&self) -> &std::ffi::OsStr {
        &self.name
    }

    /// Never fails: the kind was read with the listing (`io::Result`
    /// only for the shape of std's `DirEntry::file_type`).
    #[expect(clippy::unnecessary_wraps, reason = "the shape of std's DirEntry")]
    pub(crate) fn file_type(&self) -> std::io::Result<EntryKind> {
        Ok(self.kind)
    }
}

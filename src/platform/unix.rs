//! What Linux and macOS answer alike (POSIX): process groups, `killpg`,
//! `poll(2)`, the signal self-pipe, non-blocking pipes, `flock`, open
//! flags and modes. Where the two differ, this file asks `os` (the one
//! compiled in: `linux.rs` or `macos.rs`).
//!
//! It must never block: every descriptor handed out is non-blocking, and
//! the only calls that wait are [`wait`] and [`wait_readable`], each with
//! a timeout.

use super::{EntryKind, FolderEntry};
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, OpenOptionsExt as _};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, Flock, FlockArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::{AccessFlags, Pid, access};
use signal_hook::SigId;

use super::os;

// ---- process trees -----------------------------------------------------------

/// The parent's end of one of a hook's pipes.
pub(crate) type Pipe = OwnedFd;

/// What to start: an already resolved program.
#[derive(Debug)]
pub(crate) struct SpawnSpec<'a> {
    pub path: &'a Path,
    pub argv0: &'a OsStr,
    pub args: &'a [OsString],
    pub cwd: &'a Path,
}

/// A started hook: its tree and the parent's (non-blocking) ends of its
/// three pipes.
#[derive(Debug)]
pub(crate) struct Spawned {
    pub tree: Tree,
    pub stdin: Pipe,
    pub stdout: Pipe,
    pub stderr: Pipe,
}

/// Starts `spec` as the leader of a new process group with fresh pipes for
/// stdin, stdout and stderr, and exactly `env` as its environment.
///
/// `process_group(0)` rather than a `pre_exec` hook: it keeps std on its
/// `posix_spawn` fast path (`POSIX_SPAWN_SETPGROUP`). Pipes made by std are
/// close-on-exec, so one hook's pipes never leak into another hook. std
/// also resets SIGPIPE (which the Rust runtime ignores in hookrun) and the
/// signal mask in the child, and exec resets the handlers signal-hook
/// installed, so hooks start with default signal dispositions.
pub(crate) fn spawn<'e>(
    spec: &SpawnSpec<'_>,
    env: impl IntoIterator<Item = (&'e OsStr, &'e OsStr)>,
) -> io::Result<Spawned> {
    let mut command = Command::new(spec.path);
    command
        .arg0(spec.argv0)
        .args(spec.args)
        .env_clear()
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // The usual case (the host starts hookrun in the folder its hooks run
    // in) needs no change of directory, and asking for none keeps the
    // statically linked build on the posix_spawn path too: there std finds
    // no `posix_spawn_file_actions_addchdir_np` and would fork instead.
    if std::env::current_dir().ok().as_deref() != Some(spec.cwd) {
        command.current_dir(spec.cwd);
    }
    let mut child = command.spawn()?;
    let stdin = OwnedFd::from(child.stdin.take().expect("stdin was piped"));
    let stdout = OwnedFd::from(child.stdout.take().expect("stdout was piped"));
    let stderr = OwnedFd::from(child.stderr.take().expect("stderr was piped"));
    let pgid = Pgid(i32::try_from(child.id()).expect("pids fit in pid_t"));
    let tree = Tree { child, pgid };
    let nonblocking = [&stdin, &stdout, &stderr]
        .into_iter()
        .try_for_each(|fd| set_nonblocking(fd.as_fd()));
    if let Err(error) = nonblocking {
        // A blocking pipe could hang the loop; do not keep a hook we cannot
        // supervise.
        let mut tree = tree;
        let _ = tree.kill();
        let _ = tree.child.wait();
        return Err(error);
    }
    Ok(Spawned {
        tree,
        stdin,
        stdout,
        stderr,
    })
}

/// Out of descriptors or processes for now (`EMFILE`, `ENFILE`, `EAGAIN`):
/// a start that can succeed once running hooks end.
pub(crate) fn is_exhaustion(error: &io::Error) -> bool {
    use nix::libc::{EAGAIN, EMFILE, ENFILE};
    matches!(error.raw_os_error(), Some(EMFILE | ENFILE | EAGAIN))
}

/// Starts `program ARGS` detached and does not wait for it: its own process
/// group, every stdio on `/dev/null` (it can never hold the host's pipes),
/// outliving hookrun on purpose (`async` hooks). Returns once it exists.
pub(crate) fn spawn_detached(program: &Path, args: &[&OsStr]) -> io::Result<()> {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map(drop)
}

/// Makes the calling process the leader of a new session: no terminal
/// hangup or group signal of its parent's reaches it any more.
pub(crate) fn new_session() -> io::Result<()> {
    nix::unistd::setsid().map(drop).map_err(io::Error::from)
}

fn set_nonblocking(fd: BorrowedFd<'_>) -> io::Result<()> {
    let flags = OFlag::from_bits_retain(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}

/// Whether `path` may be executed by us (what exec itself will check).
pub(crate) fn is_executable(path: &Path) -> bool {
    access(path, AccessFlags::X_OK).is_ok()
}

/// Whether the file `meta` describes is a program: a regular file with an
/// execute bit.
pub(crate) fn is_executable_meta(_path: &Path, meta: &fs::Metadata) -> bool {
    meta.is_file() && meta.mode() & 0o111 != 0
}

/// The name of a signal number (`SIGTERM`), where it has one.
pub(crate) fn signal_name(signal: i32) -> Option<&'static str> {
    Signal::try_from(signal).ok().map(Signal::as_str)
}

/// A process group id. Kept apart from process ids so that signalling a
/// group and signalling one process cannot be confused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pgid(i32);

/// One hook's processes: the first one (the leader of a new process group)
/// and everything it starts that stays in the group.
///
/// The leader's exit is observed without reaping it, so that its pid,
/// which is also the group id, cannot be recycled while hookrun may still
/// signal the group; [`Tree::reap`] collects it after the last signal.
#[derive(Debug)]
pub(crate) struct Tree {
    child: Child,
    pgid: Pgid,
}

impl Tree {
    /// The tree's id in logs (its process group id).
    pub(crate) fn id(&self) -> i32 {
        self.pgid.0
    }

    /// Has the leader exited? Looks without reaping: its zombie stays.
    pub(crate) fn leader_exited(&self) -> bool {
        os::leader_exited(self.pgid.0)
    }

    /// Collects the exit status of a leader that has exited (never blocks).
    /// `None` if it has not exited or its status was taken by someone else.
    pub(crate) fn reap(&mut self) -> Option<ExitStatus> {
        match self.child.try_wait() {
            Ok(status) => status,
            Err(error) => {
                tracing::warn!(pid = self.pgid.0, %error, "could not reap hook process");
                None
            }
        }
    }

    /// The polite first stage: SIGTERM to the whole group, and SIGCONT, since
    /// a stopped member would hold SIGTERM pending until continued and make
    /// the whole grace pass for nothing. A group already gone is no error.
    pub(crate) fn terminate(&self) -> io::Result<()> {
        let sent = signal_group(self.pgid, Signal::SIGTERM);
        let _ = signal_group(self.pgid, Signal::SIGCONT);
        sent
    }

    /// SIGKILL to the whole group. A group already gone is no error.
    pub(crate) fn kill(&self) -> io::Result<()> {
        signal_group(self.pgid, Signal::SIGKILL)
    }

    /// Whether a member of the tree can still run, through the turn's
    /// shared look at the process table.
    pub(crate) fn state(&self, scan: &mut TreeScan) -> TreeState {
        scan.state(self.pgid)
    }
}

/// The signal number of a leader ended by [`Tree::kill`].
pub(crate) const KILL_SIGNAL: i32 = Signal::SIGKILL as i32;

/// The exit code or terminating signal of an exit status.
pub(crate) fn exit_code_or_signal(status: ExitStatus) -> Result<i32, i32> {
    match (status.code(), status.signal()) {
        (Some(code), _) => Ok(code),
        (None, Some(signal)) => Err(signal),
        // Neither exited nor signalled cannot come out of a wait for exit.
        (None, None) => Ok(-1),
    }
}

/// Sends `signal` to every process in the group. A group that is already
/// gone is not an error.
fn signal_group(pgid: Pgid, signal: Signal) -> io::Result<()> {
    match killpg(Pid::from_raw(pgid.0), signal) {
        Ok(()) | Err(Errno::ESRCH) => Ok(()),
        Err(errno) => Err(errno.into()),
    }
}

/// Whether a process group still has a member that can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TreeState {
    /// No member, or only zombies.
    Gone,
    /// At least one member that is not a zombie.
    Alive,
    /// Members exist and the system cannot tell whether they are all zombies.
    Unknown,
}

/// Checks whether groups still have a live member.
///
/// `killpg(pgid, 0)` cannot tell: zombies accept signals, our unreaped
/// leader is one, and where PID 1 does not reap orphans, killed
/// grandchildren stay zombies forever. So when the group exists, the
/// process table is read for a member that is not a zombie (`os::Census`:
/// `/proc` on Linux, `sysctl` on macOS).
///
/// On Linux every check of one turn of the loop shares one look at `/proc`
/// (with thousands of hooks timing out together, a scan each made the kill
/// quadratic). A look may say a group is alive after its last member died
/// (it is checked again later), never the reverse: a group without a live
/// member gains none (only a member can fork into it).
#[derive(Debug, Default)]
pub(crate) struct TreeScan {
    census: os::Census,
}

impl TreeScan {
    fn state(&mut self, pgid: Pgid) -> TreeState {
        // Any other answer (EPERM: a member we may not signal) leaves it to
        // the census.
        if killpg(Pid::from_raw(pgid.0), None) == Err(Errno::ESRCH) {
            return TreeState::Gone;
        }
        match self.census.has_live_member(pgid.0) {
            Some(true) => TreeState::Alive,
            Some(false) => TreeState::Gone,
            None => TreeState::Unknown,
        }
    }
}

// ---- pipes and readiness -----------------------------------------------------

/// Outcome of one non-blocking read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadOutcome {
    Data(usize),
    /// Nothing to read right now.
    WouldBlock,
    /// End of file, or an error that means no more data will come.
    Eof,
}

pub(crate) fn read_some(pipe: &Pipe, buf: &mut [u8]) -> ReadOutcome {
    match nix::unistd::read(pipe, buf) {
        Ok(0) => ReadOutcome::Eof,
        Ok(n) => ReadOutcome::Data(n),
        // EINTR: poll will report the descriptor ready again.
        Err(Errno::EAGAIN | Errno::EINTR) => ReadOutcome::WouldBlock,
        Err(error) => {
            tracing::debug!(%error, "read from hook pipe failed; treating as end of file");
            ReadOutcome::Eof
        }
    }
}

/// Outcome of one non-blocking write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WriteOutcome {
    Wrote(usize),
    /// The pipe is full; write again when [`wait`] says so.
    WouldBlock,
    /// The reader is gone (EPIPE) or the pipe failed: stop writing.
    Closed,
}

pub(crate) fn write_some(pipe: &Pipe, buf: &[u8]) -> WriteOutcome {
    // hookrun ignores SIGPIPE (the Rust runtime's default, kept on purpose),
    // so a closed reader shows up here as EPIPE instead of killing us.
    match nix::unistd::write(pipe, buf) {
        Ok(n) => WriteOutcome::Wrote(n),
        Err(Errno::EAGAIN | Errno::EINTR) => WriteOutcome::WouldBlock,
        Err(Errno::EPIPE) => WriteOutcome::Closed,
        Err(error) => {
            tracing::debug!(%error, "write to hook stdin failed");
            WriteOutcome::Closed
        }
    }
}

/// What a watched pipe is waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interest {
    Read,
    Write,
}

/// One pipe for [`wait`]; `ready` is its answer.
#[derive(Debug)]
pub(crate) struct Watch<'a> {
    pub pipe: &'a Pipe,
    pub interest: Interest,
    pub ready: bool,
}

/// A hook's three pipes for async code (an MCP server's conversation):
/// tokio's pipe types over the same descriptors. Called inside a runtime.
pub(crate) fn async_pipes(
    stdin: Pipe,
    stdout: Pipe,
    stderr: Pipe,
) -> io::Result<(
    tokio::net::unix::pipe::Sender,
    tokio::net::unix::pipe::Receiver,
    tokio::net::unix::pipe::Receiver,
)> {
    use tokio::net::unix::pipe;
    Ok((
        pipe::Sender::from_owned_fd(stdin)?,
        pipe::Receiver::from_owned_fd(stdout)?,
        pipe::Receiver::from_owned_fd(stderr)?,
    ))
}

/// Waits until a watched pipe is ready, one of hookrun's signals arrived or
/// `timeout` passes (`None`: no timeout). Returns whether a signal is
/// waiting in `signals`. Hang-up and error count as ready: the next read or
/// write says what happened. A signal interrupting the wait is not an
/// error.
pub(crate) fn wait(
    signals: &Signals,
    watches: &mut [Watch<'_>],
    timeout: Option<Duration>,
) -> io::Result<bool> {
    let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(signals.pipes.len() + watches.len());
    fds.extend(
        signals
            .pipes
            .iter()
            .map(|pipe| PollFd::new(pipe.read.as_fd(), PollFlags::POLLIN)),
    );
    fds.extend(watches.iter().map(|watch| {
        let events = match watch.interest {
            Interest::Read => PollFlags::POLLIN,
            Interest::Write => PollFlags::POLLOUT,
        };
        PollFd::new(watch.pipe.as_fd(), events)
    }));
    match poll(&mut fds, poll_timeout(timeout)) {
        Ok(_) => {}
        Err(Errno::EINTR) => return Ok(false),
        Err(error) => return Err(error.into()),
    }
    let ready = |fd: &PollFd<'_>| fd.revents().is_some_and(|events| !events.is_empty());
    let (signal_fds, pipe_fds) = fds.split_at(signals.pipes.len());
    for (watch, fd) in watches.iter_mut().zip(pipe_fds) {
        watch.ready = ready(fd);
    }
    Ok(signal_fds.iter().any(ready))
}

/// Rounded up: waking before a deadline would only spin.
fn poll_timeout(timeout: Option<Duration>) -> PollTimeout {
    match timeout {
        None => PollTimeout::NONE,
        Some(wait) => {
            let millis = wait.as_nanos().div_ceil(1_000_000);
            PollTimeout::try_from(millis).unwrap_or(PollTimeout::MAX)
        }
    }
}

/// Waits until `fd` (stdin, a pipe named on the command line) has something
/// to read, or hang-up, or `timeout` passes. True when it is readable; a
/// signal interrupting the wait reads as "not yet".
pub(crate) fn wait_readable(file: &File, timeout: Option<Duration>) -> io::Result<bool> {
    let mut fds = [PollFd::new(file.as_fd(), PollFlags::POLLIN)];
    match poll(&mut fds, poll_timeout(timeout)) {
        Ok(n) => Ok(n > 0),
        Err(Errno::EINTR) => Ok(false),
        Err(errno) => Err(errno.into()),
    }
}

/// The termination signals hookrun forwards to its hooks, in the order used
/// to pick "the first" when several arrive before they are read.
pub(crate) const TERMINATION_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// The self-pipe: one pipe per signal, so that which signal arrived is
/// known. The handler (signal-hook's) only writes a byte; everything else
/// happens in the loop that calls [`wait`].
#[derive(Debug)]
pub(crate) struct Signals {
    pipes: Vec<SignalPipe>,
}

#[derive(Debug)]
struct SignalPipe {
    signal: i32,
    read: File,
    id: SigId,
}

impl Signals {
    /// Registers the termination signals and SIGCHLD (which only wakes the
    /// loop: a hook's leader exited).
    pub(crate) fn register() -> io::Result<Signals> {
        let mut signals = Signals { pipes: Vec::new() };
        for signal in TERMINATION_SIGNALS
            .into_iter()
            .chain([signal_hook::consts::SIGCHLD])
        {
            // A pipe, not a socket pair: half the kernel work to make and
            // close, and signal-hook writes to either.
            let (read, write) = os::signal_pipe()?;
            let id = signal_hook::low_level::pipe::register(signal, write)?;
            // Pushed at once so that a later failure unregisters this one.
            signals.pipes.push(SignalPipe {
                signal,
                read: File::from(read),
                id,
            });
        }
        Ok(signals)
    }

    /// Every delivery since the last call, as signal numbers (SIGCHLD
    /// included): one entry per byte the handler wrote.
    pub(crate) fn drain(&mut self) -> Vec<i32> {
        let mut arrived = Vec::new();
        let mut buf = [0u8; 64];
        for pipe in &mut self.pipes {
            loop {
                match pipe.read.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => arrived.extend(std::iter::repeat_n(pipe.signal, n)),
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        }
        arrived
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        for pipe in &self.pipes {
            signal_hook::low_level::unregister(pipe.id);
        }
    }
}

// ---- descriptors ---------------------------------------------------------------

/// The descriptors hookrun inherited from its parent above stderr, by
/// number, listed at start-up (`os::descriptors_above_stderr`: `/proc/self/fd`
/// on Linux, `/dev/fd` on macOS) and closed before the first hook starts.
///
/// Closed, not marked close-on-exec: the flag cannot be set on a bare
/// number without `unsafe` (the crate forbids it).
#[derive(Debug)]
pub(crate) struct Inherited {
    fds: Vec<RawFd>,
}

impl Inherited {
    /// Lists the descriptors above stderr open now. Empty where the system
    /// cannot list them.
    pub(crate) fn take_stock() -> Inherited {
        Inherited {
            fds: os::descriptors_above_stderr(),
        }
    }

    /// Closes them. Returns how many were closed; one that is already closed
    /// (by whoever used it) is skipped.
    ///
    /// Closing by number is only for descriptors nothing in this process
    /// owns: closing one that an `OwnedFd` or a `File` holds would let it
    /// close a reused number later. nix's `close` takes any `IntoRawFd`,
    /// which std implements for `RawFd`.
    pub(crate) fn close(self) -> usize {
        let mut closed = 0;
        for fd in self.fds {
            match nix::unistd::close(fd) {
                Ok(()) => closed += 1,
                Err(error) => tracing::debug!(fd, %error, "inherited descriptor not closed"),
            }
        }
        closed
    }

    #[cfg(test)]
    pub(crate) fn fds(&self) -> &[RawFd] {
        &self.fds
    }
}

/// The entries of the folder `handle` is open on (without `.` and `..`),
/// read through the descriptor itself: a folder swapped for a symlink after
/// it was opened is not what gets listed. Read as the iterator is advanced
/// (a caller that stops early reads no further). An entry whose kind the
/// listing does not carry is looked at with `fstatat` (no link followed);
/// one gone by then is an error, as in std's `read_dir`, whose shape this
/// has.
pub(crate) fn read_folder(
    handle: &File,
) -> io::Result<impl Iterator<Item = io::Result<FolderEntry>> + use<>> {
    use nix::dir::{Dir, Type};
    use nix::fcntl::AtFlags;
    use nix::sys::stat::{SFlag, fstatat};
    let at = handle.try_clone()?;
    // A duplicate shares the handle's position: from the start, whatever
    // an earlier listing read.
    let listing = OwnedFd::from(handle.try_clone()?);
    nix::unistd::lseek(&listing, 0, nix::unistd::Whence::SeekSet)?;
    let dir = Dir::from_fd(listing)?;
    Ok(dir.into_iter().filter_map(move |entry| {
        let entry = match entry {
            Ok(entry) => entry,
            Err(errno) => return Some(Err(errno.into())),
        };
        let name = entry.file_name();
        if matches!(name.to_bytes(), b"." | b"..") {
            return None;
        }
        let kind = match entry.file_type() {
            Some(Type::Directory) => EntryKind::Folder,
            Some(Type::File) => EntryKind::File,
            Some(Type::Symlink) => EntryKind::Symlink,
            Some(_) => EntryKind::Other,
            None => match fstatat(&at, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
                Ok(stat) => match SFlag::from_bits_truncate(stat.st_mode & SFlag::S_IFMT.bits()) {
                    SFlag::S_IFDIR => EntryKind::Folder,
                    SFlag::S_IFREG => EntryKind::File,
                    SFlag::S_IFLNK => EntryKind::Symlink,
                    _ => EntryKind::Other,
                },
                // Gone since it was listed.
                Err(errno) => return Some(Err(errno.into())),
            },
        };
        Some(Ok(FolderEntry {
            name: std::os::unix::ffi::OsStringExt::from_vec(name.to_bytes().to_vec()),
            kind,
        }))
    }))
}

/// A symlink at `link` to `target`, for tests.
#[cfg(test)]
pub(crate) fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

// ---- files -------------------------------------------------------------------------

/// An exclusive advisory lock (`flock`) on an open file, released when
/// dropped.
pub(crate) type FileLock = Flock<File>;

/// Takes an exclusive lock on `file` without waiting. When it is held
/// elsewhere (`WouldBlock`) or the call was interrupted (`Interrupted`),
/// the file comes back with the error, to try again.
pub(crate) fn try_lock(file: File) -> Result<FileLock, (File, io::Error)> {
    Flock::lock(file, FlockArg::LockExclusiveNonblock).map_err(|(file, errno)| {
        let error = match errno {
            Errno::EWOULDBLOCK => io::Error::from(io::ErrorKind::WouldBlock),
            Errno::EINTR => io::Error::from(io::ErrorKind::Interrupted),
            other => other.into(),
        };
        (file, error)
    })
}

/// The open flags of hookrun's file rules: non-blocking (a FIFO or device
/// cannot stall the open), close-on-exec, and not following a symlink at
/// the last component unless `follow`.
pub(crate) fn set_open_flags(options: &mut OpenOptions, follow: bool) {
    let mut flags = OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
    if !follow {
        flags |= OFlag::O_NOFOLLOW;
    }
    options.custom_flags(flags.bits());
}

/// A file created through `options` is readable and writable by this user
/// only (`0600`): hookrun's own files may hold inputs.
pub(crate) fn set_private_mode(options: &mut OpenOptions) {
    options.mode(0o600);
}

/// Makes `file` blocking again (opened non-blocking by [`set_open_flags`]).
pub(crate) fn clear_nonblocking(file: &File) -> io::Result<()> {
    let current = fcntl(file.as_fd(), FcntlArg::F_GETFL)?;
    let mut flags = OFlag::from_bits_truncate(current);
    flags.remove(OFlag::O_NONBLOCK);
    fcntl(file.as_fd(), FcntlArg::F_SETFL(flags))?;
    Ok(())
}

/// Makes reads of `file` non-blocking. Needed where an open may hand back a
/// duplicate of an existing descriptor rather than a new one (macOS opens
/// `/dev/fd/N` so, keeping the original's flags).
pub(crate) fn set_nonblocking_file(file: &File) -> io::Result<()> {
    set_nonblocking(file.as_fd())
}

/// What a file that is not a regular file is, in words.
pub(crate) fn describe_file_type(file_type: fs::FileType) -> &'static str {
    if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

pub(crate) fn is_fifo(file_type: fs::FileType) -> bool {
    file_type.is_fifo()
}

/// `ENXIO`: a non-blocking write open of a FIFO nobody reads.
pub(crate) fn is_fifo_without_reader(error: &io::Error) -> bool {
    error.raw_os_error() == Some(nix::libc::ENXIO)
}

/// `ELOOP` from a no-follow open: a symlink at the last component.
pub(crate) fn is_refused_link(error: &io::Error) -> bool {
    error.raw_os_error() == Some(nix::libc::ELOOP)
}

/// The same file: the same device and inode.
pub(crate) fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    a.dev() == b.dev() && a.ino() == b.ino()
}

/// A file created through `options` gets `mode` (less the umask).
pub(crate) fn set_create_mode(options: &mut OpenOptions, mode: u32) {
    options.mode(mode);
}

/// A folder created through `builder` gets `mode` (less the umask).
pub(crate) fn set_folder_mode(builder: &mut fs::DirBuilder, mode: u32) {
    use std::os::unix::fs::DirBuilderExt as _;
    builder.mode(mode);
}

/// Gives the file at `path` exactly `mode` (no umask).
pub(crate) fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

/// The permission bits of `meta` (with setuid, setgid and sticky).
pub(crate) fn mode_bits(meta: &fs::Metadata) -> u32 {
    meta.mode() & 0o7777
}

/// The owner of the file `meta` describes, and this process's effective
/// user id.
#[expect(
    clippy::unnecessary_wraps,
    reason = "the seam's signature: Windows has no uid"
)]
pub(crate) fn owner_and_self(meta: &fs::Metadata) -> Option<(u32, u32)> {
    Some((meta.uid(), nix::unistd::geteuid().as_raw()))
}

/// Bytes (from `OsStr::as_encoded_bytes`) back into an `OsString`: on Unix
/// any bytes are one.
pub(crate) fn os_string_from_bytes(bytes: Vec<u8>) -> OsString {
    std::os::unix::ffi::OsStringExt::from_vec(bytes)
}

/// hookrun's stdin, as a file of its own (a duplicate descriptor); `None`
/// when descriptor 0 is closed.
pub(crate) fn stdin_file() -> io::Result<Option<File>> {
    match io::stdin().as_fd().try_clone_to_owned() {
        Ok(owned) => Ok(Some(File::from(owned))),
        Err(err) if err.raw_os_error() == Some(nix::libc::EBADF) => Ok(None),
        Err(err) => Err(err),
    }
}

/// hookrun's own stdout and stderr, as files of their own (duplicates).
pub(crate) fn own_outputs() -> Vec<File> {
    [
        io::stdout().as_fd().try_clone_to_owned(),
        io::stderr().as_fd().try_clone_to_owned(),
    ]
    .into_iter()
    .filter_map(Result::ok)
    .map(File::from)
    .collect()
}

/// A folder opened without following a symlink at its last component
/// (`O_DIRECTORY|O_NOFOLLOW`, non-blocking, close-on-exec).
pub(crate) fn open_folder_nofollow(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(
            (OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC).bits(),
        )
        .open(path)
}

/// Under `ulimit -f`, a write past the limit raises SIGXFSZ, whose default
/// kills hookrun before it answers. With a handler installed the write
/// fails with `EFBIG` instead, which every writer already reports. A
/// handler (not "ignore") because exec resets handlers: hooks still start
/// with the default disposition.
pub(crate) fn survive_file_size_limit() {
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
}

/// Shell-form hooks run with `/bin/sh` (or `sh` on PATH): no Git bash to
/// look for.
pub(crate) const NEEDS_GIT_BASH: bool = false;

/// Git for Windows' bash: not on Unix.
pub(crate) fn git_bash(
    _search: Option<&OsStr>,
    _explicit: Option<&OsStr>,
) -> Option<std::path::PathBuf> {
    None
}

/// A path as users write it: what `canonicalize` answers, on Unix.
pub(crate) fn plain_path(path: std::path::PathBuf) -> std::path::PathBuf {
    path
}

// ---- the user's folders ---------------------------------------------------------

/// The user's home: `HOME`.
pub(crate) fn home_dir() -> Option<std::path::PathBuf> {
    std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(std::path::PathBuf::from)
}

/// `~/rest` → `rest`.
pub(crate) fn strip_home_prefix(text: &str) -> Option<&str> {
    text.strip_prefix("~/")
}

/// The variable naming the folder for per-user application data, where
/// the system has one apart from the home (Unix: none, the XDG variables
/// and the home are asked).
pub(crate) const LOCAL_DATA_VAR: Option<&str> = None;

/// Paths are spelt one way: `/` only, case matters.
pub(crate) const WINDOWS_PATHS: bool = false;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_descriptors_are_listed() {
        let file = tempfile::tempfile().unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
        let listed = Inherited::take_stock();
        assert!(listed.fds().contains(&fd), "{fd} not in {listed:?}");
        assert!(listed.fds().iter().all(|&fd| fd > 2), "{listed:?}");
    }

    #[test]
    fn a_folder_is_listed_through_its_descriptor_with_kinds_and_no_dots() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("file"), "x").unwrap();
        std::os::unix::fs::symlink("file", dir.path().join("link")).unwrap();
        let handle = File::open(dir.path()).unwrap();
        let mut listed: Vec<(String, EntryKind)> = read_folder(&handle)
            .unwrap()
            .map(Result::unwrap)
            .map(|e| {
                let kind = e.file_type().unwrap();
                (e.file_name().to_string_lossy().into_owned(), kind)
            })
            .collect();
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            listed,
            [
                ("file".to_owned(), EntryKind::File),
                ("link".to_owned(), EntryKind::Symlink),
                ("sub".to_owned(), EntryKind::Folder),
            ]
        );
        // The folder renamed after it was opened: still what is listed.
        fs::rename(dir.path().join("sub"), dir.path().join("moved")).unwrap();
        let names: Vec<_> = read_folder(&handle)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_owned())
            .collect();
        assert!(names.contains(&OsString::from("moved")), "{names:?}");
    }

    #[test]
    fn a_held_lock_is_would_block_and_the_file_comes_back() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let held = try_lock(File::open(file.path()).unwrap()).unwrap();
        let (back, error) = try_lock(File::open(file.path()).unwrap()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::WouldBlock);
        drop(held);
        assert!(try_lock(back).is_ok());
    }

    #[test]
    fn wait_readable_times_out_and_then_sees_data() {
        let (read, write) = std::io::pipe().unwrap();
        let read = File::from(OwnedFd::from(read));
        assert!(!wait_readable(&read, Some(Duration::from_millis(10))).unwrap());
        std::io::Write::write_all(&mut &write, b"x").unwrap();
        assert!(wait_readable(&read, Some(Duration::from_secs(5))).unwrap());
    }

    #[test]
    fn an_open_file_is_found_where_it_is_now() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a");
        fs::write(&path, "x").unwrap();
        let file = File::open(&path).unwrap();
        fs::rename(&path, dir.path().join("b")).unwrap();
        let real = fs::canonicalize(dir.path()).unwrap().join("b");
        assert_eq!(os::descriptor_path(&file).unwrap(), real);
        let folder = File::open(dir.path()).unwrap();
        assert_eq!(
            os::descriptor_path(&folder).unwrap(),
            fs::canonicalize(dir.path()).unwrap()
        );
    }
}

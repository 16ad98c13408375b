//! Every OS call `exec` makes about processes, groups, signals and
//! descriptors, behind a few named functions.
//!
//! The rest of `exec` reasons about hooks; this file knows which syscall
//! answers each question and how its errors map to an answer. It must never
//! block: every descriptor it hands out is non-blocking, and the only call
//! that waits is [`wait_ready`], with a timeout.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::{AccessFlags, Pid, access};
use signal_hook::SigId;

/// A process group id. Kept apart from process ids so that signalling a
/// group and signalling one process cannot be confused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pgid(i32);

impl Pgid {
    pub(crate) fn as_raw(self) -> i32 {
        self.0
    }
}

/// What to start: an already resolved program (see `spawn.rs`).
#[derive(Debug)]
pub(crate) struct SpawnSpec<'a> {
    pub path: &'a Path,
    pub argv0: &'a OsStr,
    pub args: &'a [OsString],
    pub env: &'a super::JobEnv,
    pub cwd: &'a Path,
}

/// A started hook: its group leader and the parent's (non-blocking) ends of
/// its three pipes.
#[derive(Debug)]
pub(crate) struct Spawned {
    pub leader: Leader,
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

/// Starts `spec` as the leader of a new process group with fresh pipes for
/// stdin, stdout and stderr.
///
/// `process_group(0)` rather than a `pre_exec` hook: it keeps std on its
/// `posix_spawn` fast path. Pipes made by std are close-on-exec, so one
/// hook's pipes never leak into another hook. std also resets SIGPIPE (which
/// the Rust runtime ignores in hookrun) and the signal mask in the child, and
/// exec resets the handlers signal-hook installed, so hooks start with
/// default signal dispositions.
pub(crate) fn spawn(spec: &SpawnSpec<'_>) -> io::Result<Spawned> {
    let mut command = Command::new(spec.path);
    command
        .arg0(spec.argv0)
        .args(spec.args)
        .env_clear()
        .envs(spec.env.iter())
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
    let leader = Leader { child, pgid };
    let nonblocking = [&stdin, &stdout, &stderr]
        .into_iter()
        .try_for_each(|fd| set_nonblocking(fd.as_fd()));
    if let Err(error) = nonblocking {
        // A blocking pipe could hang the loop; do not keep a hook we cannot
        // supervise.
        let _ = signal_group(leader.pgid, Signal::SIGKILL);
        let mut leader = leader;
        let _ = leader.child.wait();
        return Err(error);
    }
    Ok(Spawned {
        leader,
        stdin,
        stdout,
        stderr,
    })
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

/// The first process of a hook, leader of its group. Its exit is observed
/// without reaping it, so that its pid, which is also the group id, cannot
/// be recycled while hookrun may still signal the group.
#[derive(Debug)]
pub(crate) struct Leader {
    child: Child,
    pgid: Pgid,
}

impl Leader {
    pub(crate) fn pgid(&self) -> Pgid {
        self.pgid
    }

    /// Has the leader exited? Looks with `WNOWAIT`: the zombie stays.
    pub(crate) fn has_exited(&self) -> bool {
        let pid = Pid::from_raw(self.pgid.0);
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        match waitid(Id::Pid(pid), flags) {
            Ok(WaitStatus::StillAlive) => false,
            // EINVAL: it exited, but from a signal nix has no name for (a
            // real-time one); `reap` reads the raw status. ECHILD: someone
            // else reaped it; either way it is gone.
            Ok(_) | Err(Errno::EINVAL | Errno::ECHILD) => true,
            // EINTR or the unexpected: ask again on the next turn of the
            // loop; the timeout still bounds the wait.
            Err(error) => {
                tracing::debug!(pid = self.pgid.0, %error, "waitid failed");
                false
            }
        }
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
}

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
pub(crate) fn signal_group(pgid: Pgid, signal: Signal) -> nix::Result<()> {
    match killpg(Pid::from_raw(pgid.0), signal) {
        Err(Errno::ESRCH) => Ok(()),
        other => other,
    }
}

/// Whether a process group still has a member that can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroupState {
    /// No member, or only zombies.
    Gone,
    /// At least one member that is not a zombie.
    Alive,
    /// Members exist and `/proc` cannot tell whether they are all zombies.
    Unknown,
}

/// Checks whether the group still has a live member.
///
/// `killpg(pgid, 0)` cannot tell: zombies accept signals, our unreaped leader
/// is one, and where PID 1 does not reap orphans, killed grandchildren stay
/// zombies forever. So when the group exists, `/proc/*/stat` is scanned for a
/// member whose state is not `Z` (or `X`).
///
/// The checks share one look at `/proc`: every check of one turn of
/// the loop reads the process table once, not once per hook (with
/// thousands of hooks timing out together, a scan each made the kill
/// quadratic). A snapshot may say a group is alive after its last member
/// died (it is checked again later), never the reverse: a group without a
/// live member gains none (only a member can fork into it).
#[derive(Debug, Default)]
pub(crate) struct GroupScan {
    live: Scanned,
}

/// The one look at `/proc` of a [`GroupScan`].
#[derive(Debug, Default)]
enum Scanned {
    #[default]
    NotYet,
    /// `/proc` says nothing (not mounted, unreadable).
    Nothing,
    /// The groups with a member that is not a zombie.
    Live(std::collections::HashSet<i32>),
}

impl GroupScan {
    /// Whether `pgid` still has a member that can run.
    pub(crate) fn state(&mut self, pgid: Pgid) -> GroupState {
        // Any other answer (EPERM: a member we may not signal) leaves it to
        // the scan.
        if killpg(Pid::from_raw(pgid.0), None) == Err(Errno::ESRCH) {
            return GroupState::Gone;
        }
        if matches!(self.live, Scanned::NotYet) {
            self.live = match live_groups(Path::new("/proc")) {
                Some(live) => Scanned::Live(live),
                None => Scanned::Nothing,
            };
        }
        match &self.live {
            Scanned::NotYet | Scanned::Nothing => GroupState::Unknown,
            Scanned::Live(live) if live.contains(&pgid.0) => GroupState::Alive,
            Scanned::Live(_) => GroupState::Gone,
        }
    }
}

#[cfg(test)]
fn scan_proc_for_live_member(proc_root: &Path, pgid: i32) -> GroupState {
    match live_groups(proc_root) {
        None => GroupState::Unknown,
        Some(live) if live.contains(&pgid) => GroupState::Alive,
        Some(_) => GroupState::Gone,
    }
}

/// The groups with a member that is not a zombie, from `/proc/*/stat`;
/// `None` when `/proc` lists no process (not mounted) or cannot be read.
fn live_groups(proc_root: &Path) -> Option<std::collections::HashSet<i32>> {
    let entries = fs::read_dir(proc_root).ok()?;
    let mut saw_any_process = false;
    let mut live = std::collections::HashSet::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.as_encoded_bytes().iter().all(u8::is_ascii_digit) {
            continue;
        }
        saw_any_process = true;
        // A process may vanish between listing and reading: not a member.
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if let Some((state, pgrp)) = parse_stat(&stat) {
            if !matches!(state, 'Z' | 'X' | 'x') {
                live.insert(pgrp);
            }
        }
    }
    saw_any_process.then_some(live)
}

/// State and process group from the text of `/proc/PID/stat`. The command
/// name (field 2) may hold spaces and parentheses, so fields are counted
/// after its last `)`.
fn parse_stat(stat: &str) -> Option<(char, i32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?.chars().next()?;
    let _ppid = fields.next()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, pgrp))
}

/// The descriptors above stderr open in this process now, by number, read
/// from `/proc/self/fd`. Empty where that cannot be read (no `/proc`).
/// The listing's own descriptor is known by number, so nothing is looked
/// up per entry (a `readlink` each, before).
pub(crate) fn descriptors_above_stderr() -> Vec<RawFd> {
    use std::os::fd::AsRawFd as _;
    let Ok(mut listing) = nix::dir::Dir::open(
        "/proc/self/fd",
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC,
        nix::sys::stat::Mode::empty(),
    ) else {
        return Vec::new();
    };
    let own = listing.as_raw_fd();
    let mut fds: Vec<RawFd> = listing
        .iter()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str().ok()?.parse::<RawFd>().ok())
        .filter(|&fd| fd > 2 && fd != own)
        .collect();
    fds.sort_unstable();
    fds
}

/// How many processors hookrun may run on (its affinity mask; 1 when it
/// cannot be read). One system call, unlike `available_parallelism`, which
/// also reads the cgroup's quota files.
pub(crate) fn usable_cpus() -> usize {
    nix::sched::sched_getaffinity(Pid::from_raw(0)).map_or(1, |set| {
        (0..nix::sched::CpuSet::count())
            .filter(|&cpu| set.is_set(cpu).unwrap_or(false))
            .count()
    })
}

/// Closes a descriptor by number. Only for descriptors nothing in this
/// process owns (see `InheritedFds`): closing one that an `OwnedFd` or a
/// `File` holds would let it close a reused number later.
///
/// Closing is the only way to keep a descriptor out of hooks without
/// `unsafe`: setting `FD_CLOEXEC` needs `fcntl` on an `AsFd`, and a
/// `BorrowedFd` for a bare number can only come from `unsafe`
/// `borrow_raw`; nix's `close` takes any `IntoRawFd`, which std implements
/// for `RawFd`.
pub(crate) fn close_unowned(fd: RawFd) -> nix::Result<()> {
    nix::unistd::close(fd)
}

/// Outcome of one non-blocking read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadOutcome {
    Data(usize),
    /// Nothing to read right now.
    WouldBlock,
    /// End of file, or an error that means no more data will come.
    Eof,
}

pub(crate) fn read_some(fd: BorrowedFd<'_>, buf: &mut [u8]) -> ReadOutcome {
    match nix::unistd::read(fd, buf) {
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
    /// The pipe is full; write again when poll says so.
    WouldBlock,
    /// The reader is gone (EPIPE) or the pipe failed: stop writing.
    Closed,
}

pub(crate) fn write_some(fd: BorrowedFd<'_>, buf: &[u8]) -> WriteOutcome {
    // hookrun ignores SIGPIPE (the Rust runtime's default, kept on purpose),
    // so a closed reader shows up here as EPIPE instead of killing us.
    match nix::unistd::write(fd, buf) {
        Ok(n) => WriteOutcome::Wrote(n),
        Err(Errno::EAGAIN | Errno::EINTR) => WriteOutcome::WouldBlock,
        Err(Errno::EPIPE) => WriteOutcome::Closed,
        Err(error) => {
            tracing::debug!(%error, "write to hook stdin failed");
            WriteOutcome::Closed
        }
    }
}

/// What a watched descriptor is waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interest {
    Read,
    Write,
}

/// One descriptor for [`wait_ready`]; `ready` is its answer.
#[derive(Debug)]
pub(crate) struct Watch<'fd> {
    pub fd: BorrowedFd<'fd>,
    pub interest: Interest,
    pub ready: bool,
}

/// Waits until a watched descriptor is ready or `timeout` passes (`None`:
/// no timeout). Hang-up and error count as ready: the next read or write
/// says what happened. A signal interrupting the wait is not an error.
pub(crate) fn wait_ready(watches: &mut [Watch<'_>], timeout: Option<Duration>) -> io::Result<()> {
    let mut fds: Vec<PollFd<'_>> = watches
        .iter()
        .map(|watch| {
            let events = match watch.interest {
                Interest::Read => PollFlags::POLLIN,
                Interest::Write => PollFlags::POLLOUT,
            };
            PollFd::new(watch.fd, events)
        })
        .collect();
    let timeout = match timeout {
        None => PollTimeout::NONE,
        // Rounded up: waking before a deadline would only spin.
        Some(wait) => {
            let millis = wait.as_nanos().div_ceil(1_000_000);
            PollTimeout::try_from(millis).unwrap_or(PollTimeout::MAX)
        }
    };
    match poll(&mut fds, timeout) {
        Ok(_) => {}
        Err(Errno::EINTR) => return Ok(()),
        Err(error) => return Err(error.into()),
    }
    for (watch, fd) in watches.iter_mut().zip(&fds) {
        watch.ready = fd.revents().is_some_and(|events| !events.is_empty());
    }
    Ok(())
}

/// The termination signals hookrun forwards to its hooks, in the order used
/// to pick "the first" when several arrive before they are read.
pub(crate) const TERMINATION_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// The self-pipe: one socket pair per signal, so that which signal arrived
/// is known. The handler (signal-hook's) only writes a byte; everything else
/// happens in the poll loop.
#[derive(Debug)]
pub(crate) struct SignalPipes {
    pipes: Vec<SignalPipe>,
}

#[derive(Debug)]
struct SignalPipe {
    signal: i32,
    read: fs::File,
    id: SigId,
}

impl SignalPipes {
    /// Registers the termination signals and SIGCHLD.
    pub(crate) fn register() -> io::Result<SignalPipes> {
        let mut pipes = SignalPipes { pipes: Vec::new() };
        for signal in TERMINATION_SIGNALS
            .into_iter()
            .chain([signal_hook::consts::SIGCHLD])
        {
            // A pipe, not a socket pair: half the kernel work to make and
            // close, and signal-hook writes to either.
            let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK)?;
            let read = fs::File::from(read);
            let id = signal_hook::low_level::pipe::register(signal, write)?;
            // Pushed at once so that a later failure unregisters this one.
            pipes.pipes.push(SignalPipe { signal, read, id });
        }
        Ok(pipes)
    }

    pub(crate) fn fds(&self) -> impl Iterator<Item = BorrowedFd<'_>> {
        self.pipes.iter().map(|pipe| pipe.read.as_fd())
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

impl Drop for SignalPipes {
    fn drop(&mut self) {
        for pipe in &self.pipes {
            signal_hook::low_level::unregister(pipe.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_last_parenthesis() {
        let stat = "4242 (we(ird) name) S 1 4200 4200 0 -1 4194304";
        assert_eq!(parse_stat(stat), Some(('S', 4200)));
        assert_eq!(parse_stat("17 (sh) Z 1 17 17"), Some(('Z', 17)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn open_descriptors_are_listed() {
        let file = tempfile::tempfile().unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
        let listed = descriptors_above_stderr();
        assert!(listed.contains(&fd), "{fd} not in {listed:?}");
        assert!(listed.iter().all(|&fd| fd > 2), "{listed:?}");
    }

    #[test]
    fn an_unreadable_proc_is_unknown() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            scan_proc_for_live_member(&dir.path().join("missing"), 1),
            GroupState::Unknown
        );
        assert_eq!(
            scan_proc_for_live_member(dir.path(), 1),
            GroupState::Unknown
        );
    }
}

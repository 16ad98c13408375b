//! Windows's answers: a Job Object per hook (its process tree, ended as
//! one), `CTRL_BREAK_EVENT` to the hook's console process group as the
//! polite stage, a thread per pipe instead of `poll(2)`, std's file locks,
//! reparse points opened as themselves.
//!
//! The Win32 calls come from `windows-sys` (Microsoft's binding), whose
//! functions are all `unsafe`: no maintained crate offers a safe Job Object
//! with kill-on-close, the job's process count and the console control
//! event together. Every `unsafe` block of hookrun is in this file, each
//! with the reason it is sound: each call takes plain integers, handles
//! this file owns (kept alive by an `OwnedHandle` for the whole call), or
//! pointers to local structures of the size passed with them.
//!
//! It must never block the supervisor: pipes are read and written by their
//! own threads, which hand over what they moved; the only waits are
//! [`wait`] and [`wait_readable`], each with a timeout. A thread blocked on
//! a pipe that a grandchild holds is never waited for: it ends when the
//! grandchild does (or with hookrun).
#![expect(
    unsafe_code,
    reason = "Win32 calls have no safe form; each block says why it is sound"
)]

use super::{EntryKind, FolderEntry};
use std::collections::VecDeque;
use std::ffi::{OsStr, OsString, c_void};
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::windows::ffi::OsStringExt as _;
use std::os::windows::fs::OpenOptionsExt as _;
use std::os::windows::io::{AsHandle, AsRawHandle, FromRawHandle as _, OwnedHandle};
use std::os::windows::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::Storage::FileSystem::{
    FILE_FLAG_OPEN_REPARSE_POINT, FILE_NAME_NORMALIZED, GetFinalPathNameByHandleW, VOLUME_NAME_DOS,
};
use windows_sys::Win32::System::Console::{CTRL_BREAK_EVENT, GenerateConsoleCtrlEvent};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, TH32CS_SNAPTHREAD, THREADENTRY32, Thread32First, Thread32Next,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JobObjectBasicAccountingInformation, JobObjectExtendedLimitInformation,
    QueryInformationJobObject, SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Pipes::PeekNamedPipe;
use windows_sys::Win32::System::Threading::{
    CREATE_BREAKAWAY_FROM_JOB, CREATE_NEW_PROCESS_GROUP, CREATE_NO_WINDOW, CREATE_SUSPENDED,
    DETACHED_PROCESS, OpenThread, ResumeThread, THREAD_SUSPEND_RESUME,
};

// ---- process trees -----------------------------------------------------------

/// What to start: an already resolved program.
#[derive(Debug)]
pub(crate) struct SpawnSpec<'a> {
    pub path: &'a Path,
    pub argv0: &'a OsStr,
    pub args: &'a [OsString],
    pub cwd: &'a Path,
}

/// A started hook: its tree and the parent's ends of its three pipes.
#[derive(Debug)]
pub(crate) struct Spawned {
    pub tree: Tree,
    pub stdin: Pipe,
    pub stdout: Pipe,
    pub stderr: Pipe,
}

/// The exit code a tree ended by [`Tree::kill`] reports (`TerminateJobObject`
/// sets every member's): "KILL" in ASCII, which no program chooses by
/// chance. [`exit_code_or_signal`] reads it as [`KILL_SIGNAL`].
const KILLED_EXIT_CODE: u32 = 0x4B49_4C4C;

/// The signal number a killed tree's leader reports (SIGKILL's, as on Unix:
/// the reports and logs read the same).
pub(crate) const KILL_SIGNAL: i32 = 9;

/// Starts `spec` in a Job Object of its own, in a new console process
/// group, with fresh pipes for stdin, stdout and stderr and exactly `env`.
///
/// The process is created suspended, assigned to the job, then resumed: a
/// child it starts can never be outside the job. The job ends every member
/// when its last handle closes (kill-on-close), so hookrun dying ends its
/// hooks; a hook that exits on its own has the limit lifted before the
/// handle closes ([`Tree`]'s `Drop`), so what it leaves running on purpose
/// lives on, as on Unix.
pub(crate) fn spawn<'e>(
    spec: &SpawnSpec<'_>,
    env: impl IntoIterator<Item = (&'e OsStr, &'e OsStr)>,
) -> io::Result<Spawned> {
    // argv[0] is part of the command line on Windows; std writes the
    // program's path there, which is what the program sees as argv[0].
    let _ = spec.argv0;
    let mut command = Command::new(spec.path);
    command
        .args(spec.args)
        .env_clear()
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .current_dir(spec.cwd)
        .creation_flags(CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW);
    let job = Job::new()?;
    let mut child = command.spawn()?;
    let started = job.assign(&child).and_then(|()| resume_threads(child.id()));
    if let Err(error) = started {
        let _ = job.terminate();
        let _ = child.kill();
        let _ = child.wait();
        return Err(error);
    }
    let stdin = Pipe::writer(child.stdin.take().expect("stdin was piped"));
    let stdout = Pipe::reader(child.stdout.take().expect("stdout was piped"));
    let stderr = Pipe::reader(child.stderr.take().expect("stderr was piped"));
    let pid = child.id();
    // Keeps the pid (and so the process group id) from being reused while
    // the tree may still be signalled.
    let process = child.as_handle().try_clone_to_owned()?;
    let exit = Arc::new(LeaderExit::default());
    let waiter = Arc::clone(&exit);
    std::thread::Builder::new()
        .name(format!("hook {pid} exit"))
        .spawn(move || {
            let status = child.wait();
            *waiter.status.lock().unwrap_or_else(PoisonError::into_inner) = status.ok();
            waiter.exited.store(true, Ordering::Release);
            wake();
        })?;
    Ok(Spawned {
        tree: Tree {
            job,
            pid,
            _process: process,
            exit,
            ended_by_us: AtomicBool::new(false),
        },
        stdin,
        stdout,
        stderr,
    })
}

/// Out of handles, memory or processes for now: a start that can succeed
/// once running hooks end (`ERROR_NO_SYSTEM_RESOURCES`,
/// `ERROR_NOT_ENOUGH_MEMORY`, `ERROR_TOO_MANY_OPEN_FILES`,
/// `ERROR_NOT_ENOUGH_QUOTA`).
pub(crate) fn is_exhaustion(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(4 | 8 | 1450 | 1816))
}

/// Starts `program ARGS` detached and does not wait for it: no console,
/// its own process group, every stdio on the null device, out of the job
/// hookrun runs in when that job allows it (`async` hooks outlive hookrun
/// on purpose).
pub(crate) fn spawn_detached(program: &Path, args: &[&OsStr]) -> io::Result<()> {
    let start = |flags: u32| {
        Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .creation_flags(flags)
            .spawn()
            .map(drop)
    };
    let flags = DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP;
    // A job that does not allow breaking away refuses the flag (access
    // denied): then the runner stays in it.
    start(flags | CREATE_BREAKAWAY_FROM_JOB).or_else(|_| start(flags))
}

/// Windows has no sessions to leave: a detached process (no console, its
/// own group) gets no control event of its parent's console.
#[expect(clippy::unnecessary_wraps, reason = "the seam's signature")]
pub(crate) fn new_session() -> io::Result<()> {
    Ok(())
}

/// Whether `path` may be run: a file with one of the extensions Windows
/// starts directly (`.exe`, `.com`) or through `cmd` (`.bat`, `.cmd`).
pub(crate) fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|meta| is_executable_meta(path, &meta))
}

/// Whether the file `meta` describes at `path` is a program.
pub(crate) fn is_executable_meta(path: &Path, meta: &fs::Metadata) -> bool {
    meta.is_file()
        && path.extension().is_some_and(|ext| {
            ["exe", "com", "bat", "cmd"]
                .iter()
                .any(|known| ext.eq_ignore_ascii_case(known))
        })
}

/// A Job Object, closed (and, while kill-on-close is set, its members
/// ended) when dropped.
#[derive(Debug)]
struct Job {
    handle: OwnedHandle,
}

impl Job {
    /// A new job whose members end when its last handle closes.
    fn new() -> io::Result<Job> {
        // SAFETY: both arguments may be null (default security, no name);
        // the call returns a new handle or null.
        let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        if raw.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `raw` is a handle just returned to us and owned by nothing
        // else.
        let job = Job {
            handle: unsafe { OwnedHandle::from_raw_handle(raw) },
        };
        job.set_kill_on_close(true)?;
        Ok(job)
    }

    fn raw(&self) -> HANDLE {
        self.handle.as_raw_handle()
    }

    fn set_kill_on_close(&self, on: bool) -> io::Result<()> {
        // SAFETY: an all-zero JOBOBJECT_EXTENDED_LIMIT_INFORMATION is a
        // valid value (no limits); it is plain data.
        let mut info: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
        if on {
            info.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
        }
        // SAFETY: the job handle is open for the call; the pointer and the
        // size describe `info`, which outlives the call.
        let ok = unsafe {
            SetInformationJobObject(
                self.raw(),
                JobObjectExtendedLimitInformation,
                std::ptr::from_ref(&info).cast::<c_void>(),
                size_of_u32::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn assign(&self, child: &std::process::Child) -> io::Result<()> {
        // SAFETY: both handles are open for the call (the child's is owned
        // by `child`, borrowed here).
        let ok = unsafe { AssignProcessToJobObject(self.raw(), child.as_raw_handle()) };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn terminate(&self) -> io::Result<()> {
        // SAFETY: the job handle is open for the call.
        let ok = unsafe { TerminateJobObject(self.raw(), KILLED_EXIT_CODE) };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// How many processes of the job are running.
    fn active_processes(&self) -> io::Result<u32> {
        // SAFETY: all-zero is a valid value of this plain-data structure.
        let mut info: JOBOBJECT_BASIC_ACCOUNTING_INFORMATION = unsafe { std::mem::zeroed() };
        // SAFETY: the job handle is open; the pointer and size describe
        // `info`, writable and alive for the call; the returned length may
        // be null.
        let ok = unsafe {
            QueryInformationJobObject(
                self.raw(),
                JobObjectBasicAccountingInformation,
                std::ptr::from_mut(&mut info).cast::<c_void>(),
                size_of_u32::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>(),
                std::ptr::null_mut(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(info.ActiveProcesses)
    }
}

fn size_of_u32<T>() -> u32 {
    u32::try_from(std::mem::size_of::<T>()).expect("Win32 structures are small")
}

/// Resumes every thread of process `pid` (created suspended: one thread).
/// std hands out no thread handle, so the threads are found in a snapshot
/// of the system's threads.
fn resume_threads(pid: u32) -> io::Result<()> {
    // SAFETY: plain integer arguments; returns a new handle or
    // INVALID_HANDLE_VALUE.
    let raw = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if raw == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a handle just returned to us, owned by nothing else.
    let snapshot = unsafe { OwnedHandle::from_raw_handle(raw) };
    // SAFETY: all-zero is a valid THREADENTRY32 (plain data); dwSize is set
    // as the API requires.
    let mut entry: THREADENTRY32 = unsafe { std::mem::zeroed() };
    entry.dwSize = size_of_u32::<THREADENTRY32>();
    let mut resumed = false;
    // SAFETY: the snapshot is open; `entry` is a valid, writable structure
    // of the size it states.
    let mut more = unsafe { Thread32First(snapshot.as_raw_handle(), &raw mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: plain arguments; returns a new handle or null.
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) };
            if thread.is_null() {
                return Err(io::Error::last_os_error());
            }
            // SAFETY: `thread` is open until the CloseHandle below, which
            // is its only close.
            let previous = unsafe { ResumeThread(thread) };
            // SAFETY: see above.
            unsafe { CloseHandle(thread) };
            if previous == u32::MAX {
                return Err(io::Error::last_os_error());
            }
            resumed = true;
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(snapshot.as_raw_handle(), &raw mut entry) } != 0;
    }
    if resumed {
        Ok(())
    } else {
        Err(io::Error::other("the new process has no thread to resume"))
    }
}

/// The leader's exit, as the thread that waits for it saw it.
#[derive(Debug, Default)]
struct LeaderExit {
    exited: AtomicBool,
    /// `None` after the exit: the status could not be read.
    status: Mutex<Option<ExitStatus>>,
}

/// One hook's processes: a Job Object holding the first one and everything
/// it starts (a child cannot leave the job unless the job allows it).
#[derive(Debug)]
pub(crate) struct Tree {
    job: Job,
    pid: u32,
    /// A handle on the leader: its id stays reserved while we hold it.
    _process: OwnedHandle,
    exit: Arc<LeaderExit>,
    ended_by_us: AtomicBool,
}

impl Tree {
    /// The tree's id in logs (the leader's process id, also its console
    /// process group's).
    pub(crate) fn id(&self) -> i32 {
        i32::try_from(self.pid).unwrap_or(i32::MAX)
    }

    /// Has the leader exited? (A thread waits for it; nothing is reaped.)
    pub(crate) fn leader_exited(&self) -> bool {
        self.exit.exited.load(Ordering::Acquire)
    }

    /// The exit status of a leader that has exited (never blocks).
    pub(crate) fn reap(&mut self) -> Option<ExitStatus> {
        if !self.leader_exited() {
            return None;
        }
        self.exit
            .status
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// The polite first stage: `CTRL_BREAK_EVENT` to the hook's console
    /// process group (the only control event a new group receives). Fails
    /// when hookrun has no console to share with the hook; the grace then
    /// runs out and [`Tree::kill`] ends the tree.
    pub(crate) fn terminate(&self) -> io::Result<()> {
        self.ended_by_us.store(true, Ordering::Relaxed);
        // SAFETY: plain integer arguments.
        let ok = unsafe { GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, self.pid) };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// `TerminateJobObject`: every member of the tree, at once.
    pub(crate) fn kill(&self) -> io::Result<()> {
        self.ended_by_us.store(true, Ordering::Relaxed);
        self.job.terminate()
    }

    /// Whether a member of the tree can still run: the job's count of
    /// active processes (Windows has no zombies).
    pub(crate) fn state(&self, _scan: &mut TreeScan) -> TreeState {
        match self.job.active_processes() {
            Ok(0) => TreeState::Gone,
            Ok(_) => TreeState::Alive,
            Err(error) => {
                tracing::debug!(pid = self.pid, %error, "job object unreadable");
                TreeState::Unknown
            }
        }
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        // A hook that ended on its own keeps what it left running (as on
        // Unix): lift kill-on-close before the handle closes. A tree ended
        // by us, or still running when hookrun gives up on it, goes with
        // the handle.
        if self.leader_exited() && !self.ended_by_us.load(Ordering::Relaxed) {
            let _ = self.job.set_kill_on_close(false);
        }
    }
}

/// One look shared by the checks of one turn of the loop. Each Job Object
/// answers for itself, so there is nothing to share on Windows.
#[derive(Debug, Default)]
pub(crate) struct TreeScan {
    _nothing: (),
}

/// Whether a tree still has a member that can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TreeState {
    Gone,
    Alive,
    Unknown,
}

/// The exit code, or [`KILL_SIGNAL`] for a tree [`Tree::kill`] ended.
pub(crate) fn exit_code_or_signal(status: ExitStatus) -> Result<i32, i32> {
    match status.code() {
        Some(code) if code.cast_unsigned() == KILLED_EXIT_CODE => Err(KILL_SIGNAL),
        Some(code) => Ok(code),
        None => Ok(-1),
    }
}

/// An exit status with `code`, for tests.
#[cfg(test)]
pub(crate) fn exit_status(code: u32) -> ExitStatus {
    std::os::windows::process::ExitStatusExt::from_raw(code)
}

// ---- pipes: a thread each, and one bell for all ------------------------------

/// Rung by every pipe thread, and by a leader's exit, when there is
/// something new for [`wait`] to look at.
struct Bell {
    turn: Mutex<u64>,
    rung: Condvar,
}

fn bell() -> &'static Bell {
    static BELL: OnceLock<Bell> = OnceLock::new();
    BELL.get_or_init(|| Bell {
        turn: Mutex::new(0),
        rung: Condvar::new(),
    })
}

fn wake() {
    let bell = bell();
    *bell.turn.lock().unwrap_or_else(PoisonError::into_inner) += 1;
    bell.rung.notify_all();
}

/// How much a reader thread holds before it stops reading until the
/// supervisor takes some (a flood is not buffered without bound).
const READ_AHEAD: usize = 1 << 20;
const CHUNK: usize = 64 * 1024;

#[derive(Debug, Default)]
struct PipeState {
    /// Reader: what the thread read and nobody took yet. Writer: what the
    /// thread is to write.
    bytes: VecDeque<u8>,
    /// Reader: end of file (or an error). Writer: the pipe broke.
    ended: bool,
    /// The parent's end was dropped: the thread stops.
    dropped: bool,
    waker: Option<std::task::Waker>,
}

#[derive(Debug, Default)]
struct PipeShared {
    state: Mutex<PipeState>,
    changed: Condvar,
}

impl PipeShared {
    fn lock(&self) -> std::sync::MutexGuard<'_, PipeState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells the supervisor and an async reader that something changed.
    fn announce(&self, state: &mut PipeState) {
        if let Some(waker) = state.waker.take() {
            waker.wake();
        }
        self.changed.notify_all();
        wake();
    }
}

/// The parent's end of one of a hook's pipes: a thread moves the bytes,
/// this end hands them over without blocking.
#[derive(Debug)]
pub struct Pipe {
    shared: Arc<PipeShared>,
    writer: bool,
}

impl Pipe {
    fn reader(mut source: impl io::Read + Send + 'static) -> Pipe {
        let shared = Arc::new(PipeShared::default());
        let thread = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("hook pipe reader".to_owned())
            .spawn(move || {
                let mut buf = vec![0u8; CHUNK];
                loop {
                    {
                        let mut state = thread.lock();
                        while state.bytes.len() >= READ_AHEAD && !state.dropped {
                            state = thread
                                .changed
                                .wait(state)
                                .unwrap_or_else(PoisonError::into_inner);
                        }
                        if state.dropped {
                            return;
                        }
                    }
                    let read = source.read(&mut buf);
                    let mut state = thread.lock();
                    match read {
                        Ok(n) if n > 0 => state.bytes.extend(&buf[..n]),
                        Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                        Ok(_) | Err(_) => state.ended = true,
                    }
                    let ended = state.ended;
                    thread.announce(&mut state);
                    if ended {
                        return;
                    }
                }
            });
        if spawned.is_err() {
            // No thread, no reading: reads as an empty stream.
            shared.lock().ended = true;
        }
        Pipe {
            shared,
            writer: false,
        }
    }

    fn writer(mut sink: impl io::Write + Send + 'static) -> Pipe {
        let shared = Arc::new(PipeShared::default());
        let thread = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("hook pipe writer".to_owned())
            .spawn(move || {
                loop {
                    let chunk: Vec<u8> = {
                        let mut state = thread.lock();
                        while state.bytes.is_empty() && !state.dropped {
                            state = thread
                                .changed
                                .wait(state)
                                .unwrap_or_else(PoisonError::into_inner);
                        }
                        if state.bytes.is_empty() {
                            // Dropped, everything written: close the pipe.
                            return;
                        }
                        state.bytes.iter().copied().collect()
                    };
                    let written = sink.write_all(&chunk).and_then(|()| sink.flush());
                    let mut state = thread.lock();
                    state.bytes.clear();
                    if written.is_err() {
                        state.ended = true;
                    }
                    let ended = state.ended;
                    thread.announce(&mut state);
                    if ended {
                        return;
                    }
                }
            });
        if spawned.is_err() {
            shared.lock().ended = true;
        }
        Pipe {
            shared,
            writer: true,
        }
    }

    fn is_ready(&self) -> bool {
        let state = self.shared.lock();
        if self.writer {
            state.bytes.is_empty() || state.ended
        } else {
            !state.bytes.is_empty() || state.ended
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.dropped = true;
        if !self.writer {
            // Nobody will take what was read: let the thread stop at once.
            state.bytes.clear();
        }
        self.shared.changed.notify_all();
    }
}

/// Outcome of one non-blocking read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadOutcome {
    Data(usize),
    WouldBlock,
    Eof,
}

pub(crate) fn read_some(pipe: &Pipe, buf: &mut [u8]) -> ReadOutcome {
    let mut state = pipe.shared.lock();
    if state.bytes.is_empty() {
        return if state.ended {
            ReadOutcome::Eof
        } else {
            ReadOutcome::WouldBlock
        };
    }
    let n = buf.len().min(state.bytes.len());
    for (slot, byte) in buf.iter_mut().zip(state.bytes.drain(..n)) {
        *slot = byte;
    }
    // Room again: the thread may read on.
    pipe.shared.changed.notify_all();
    ReadOutcome::Data(n)
}

/// Outcome of one non-blocking write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WriteOutcome {
    Wrote(usize),
    WouldBlock,
    Closed,
}

pub(crate) fn write_some(pipe: &Pipe, buf: &[u8]) -> WriteOutcome {
    let mut state = pipe.shared.lock();
    if state.ended {
        return WriteOutcome::Closed;
    }
    if !state.bytes.is_empty() {
        return WriteOutcome::WouldBlock;
    }
    let n = buf.len().min(CHUNK);
    state.bytes.extend(&buf[..n]);
    pipe.shared.changed.notify_all();
    WriteOutcome::Wrote(n)
}

/// A pipe as tokio sees it: the same thread-fed buffer, the task woken by
/// the thread.
#[derive(Debug)]
pub(crate) struct AsyncPipe(Pipe);

impl tokio::io::AsyncRead for AsyncPipe {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        let shared = &self.0.shared;
        let mut state = shared.lock();
        if state.bytes.is_empty() {
            if !state.ended {
                state.waker = Some(cx.waker().clone());
                return std::task::Poll::Pending;
            }
            return std::task::Poll::Ready(Ok(()));
        }
        let n = buf.remaining().min(state.bytes.len());
        let taken: Vec<u8> = state.bytes.drain(..n).collect();
        buf.put_slice(&taken);
        shared.changed.notify_all();
        std::task::Poll::Ready(Ok(()))
    }
}

impl tokio::io::AsyncWrite for AsyncPipe {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<io::Result<usize>> {
        let shared = &self.0.shared;
        let mut state = shared.lock();
        if state.ended {
            return std::task::Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        }
        if !state.bytes.is_empty() {
            state.waker = Some(cx.waker().clone());
            return std::task::Poll::Pending;
        }
        let n = buf.len().min(CHUNK);
        state.bytes.extend(&buf[..n]);
        shared.changed.notify_all();
        std::task::Poll::Ready(Ok(n))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        let mut state = self.0.shared.lock();
        if state.bytes.is_empty() || state.ended {
            return std::task::Poll::Ready(Ok(()));
        }
        state.waker = Some(cx.waker().clone());
        std::task::Poll::Pending
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        self.poll_flush(cx)
    }
}

/// A hook's three pipes for async code (an MCP server's conversation).
#[expect(clippy::unnecessary_wraps, reason = "the seam's signature")]
pub(crate) fn async_pipes(
    stdin: Pipe,
    stdout: Pipe,
    stderr: Pipe,
) -> io::Result<(AsyncPipe, AsyncPipe, AsyncPipe)> {
    Ok((AsyncPipe(stdin), AsyncPipe(stdout), AsyncPipe(stderr)))
}

/// Windows pipes are as big as the writer asks; the thread moves the
/// bytes: nothing to grow.
pub(crate) fn grow_pipe(_pipe: &Pipe, _len: usize) {}

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

/// How often [`wait`] looks at hookrun's own signal flags: the C runtime's
/// handlers only set a flag.
const SIGNAL_LOOK: Duration = Duration::from_millis(20);

/// Waits until a watched pipe is ready, a leader exited, one of hookrun's
/// signals arrived or `timeout` passes. Returns whether a signal is waiting.
pub(crate) fn wait(
    signals: &Signals,
    watches: &mut [Watch<'_>],
    timeout: Option<Duration>,
) -> io::Result<bool> {
    let until = timeout.and_then(|t| Instant::now().checked_add(t));
    let bell = bell();
    loop {
        let turn = *bell.turn.lock().unwrap_or_else(PoisonError::into_inner);
        let signalled = signals.pending();
        let mut any = false;
        for watch in watches.iter_mut() {
            debug_assert_eq!(watch.interest == Interest::Write, watch.pipe.writer);
            watch.ready = watch.pipe.is_ready();
            any |= watch.ready;
        }
        if any || signalled {
            return Ok(signalled);
        }
        let now = Instant::now();
        let left = match until {
            Some(until) if until <= now => return Ok(false),
            Some(until) => (until - now).min(SIGNAL_LOOK),
            None => SIGNAL_LOOK,
        };
        let guard = bell.turn.lock().unwrap_or_else(PoisonError::into_inner);
        if *guard == turn {
            // A leader's exit also rings: the caller looks at its trees.
            let (guard, result) = bell
                .rung
                .wait_timeout(guard, left)
                .unwrap_or_else(PoisonError::into_inner);
            drop(guard);
            if !result.timed_out() {
                return Ok(signals.pending());
            }
        }
    }
}

/// Waits until `file` (stdin, a pipe named on the command line) has
/// something to read, or its writer is gone, or `timeout` passes. What is
/// not a pipe (a file, a console) is always readable.
pub(crate) fn wait_readable(file: &File, timeout: Option<Duration>) -> io::Result<bool> {
    let until = timeout.and_then(|t| Instant::now().checked_add(t));
    loop {
        let mut available: u32 = 0;
        // SAFETY: the handle is open (borrowed from `file`); no buffer is
        // passed (null, size 0); `available` is a writable u32.
        let ok = unsafe {
            PeekNamedPipe(
                file.as_raw_handle(),
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                &raw mut available,
                std::ptr::null_mut(),
            )
        };
        // Not a pipe, or a broken one (the read says which): readable.
        if ok == 0 || available > 0 {
            return Ok(true);
        }
        let now = Instant::now();
        match until {
            Some(until) if until <= now => return Ok(false),
            Some(until) => std::thread::sleep((until - now).min(Duration::from_millis(5))),
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

// ---- hookrun's own signals ------------------------------------------------------

/// SIGBREAK: Ctrl+Break, and what the console sends on close.
const SIGBREAK: i32 = 21;

/// The termination signals hookrun forwards to its hooks: the C runtime's
/// names for Ctrl+C, a termination request and Ctrl+Break.
pub(crate) const TERMINATION_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    SIGBREAK,
];

/// hookrun's termination signals: a flag per signal set by signal-hook's
/// handler, read by [`wait`].
#[derive(Debug)]
pub(crate) struct Signals {
    flags: Vec<(i32, Arc<AtomicBool>, signal_hook::SigId)>,
}

impl Signals {
    pub(crate) fn register() -> io::Result<Signals> {
        let mut signals = Signals { flags: Vec::new() };
        for signal in TERMINATION_SIGNALS {
            let flag = Arc::new(AtomicBool::new(false));
            let id = signal_hook::flag::register(signal, Arc::clone(&flag))?;
            signals.flags.push((signal, flag, id));
        }
        Ok(signals)
    }

    fn pending(&self) -> bool {
        self.flags
            .iter()
            .any(|(_, flag, _)| flag.load(Ordering::Acquire))
    }

    /// Every signal since the last call (once each: the flags do not count).
    pub(crate) fn drain(&mut self) -> Vec<i32> {
        self.flags
            .iter()
            .filter(|(_, flag, _)| flag.swap(false, Ordering::AcqRel))
            .map(|(signal, _, _)| *signal)
            .collect()
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        for (_, _, id) in &self.flags {
            signal_hook::low_level::unregister(*id);
        }
    }
}

/// The name of a signal number, as the reports print it.
pub(crate) fn signal_name(signal: i32) -> Option<&'static str> {
    match signal {
        2 => Some("SIGINT"),
        9 => Some("SIGKILL"),
        15 => Some("SIGTERM"),
        SIGBREAK => Some("SIGBREAK"),
        _ => None,
    }
}

// ---- descriptors and files ---------------------------------------------------------

/// Windows handles are inherited only when marked so, and std marks only a
/// child's three pipes: nothing to list, nothing to close.
#[derive(Debug)]
pub(crate) struct Inherited;

impl Inherited {
    pub(crate) fn take_stock() -> Inherited {
        Inherited
    }

    #[expect(clippy::unused_self, reason = "the seam's signature")]
    pub(crate) fn close(self) -> usize {
        0
    }
}

/// Where the file or folder `file` is open on is now:
/// `GetFinalPathNameByHandleW`, as a drive-letter path (`C:\…`, without the
/// `\\?\` prefix when the path has a plain form).
pub(crate) fn descriptor_path(file: &File) -> io::Result<PathBuf> {
    let mut buf = vec![0u16; 512];
    loop {
        let len = u32::try_from(buf.len()).unwrap_or(u32::MAX);
        // SAFETY: the handle is open (borrowed from `file`); the buffer is
        // writable for `len` UTF-16 units.
        let n = unsafe {
            GetFinalPathNameByHandleW(
                file.as_raw_handle(),
                buf.as_mut_ptr(),
                len,
                FILE_NAME_NORMALIZED | VOLUME_NAME_DOS,
            )
        };
        let n = n as usize;
        if n == 0 {
            return Err(io::Error::last_os_error());
        }
        if n < buf.len() {
            buf.truncate(n);
            let path = OsString::from_wide(&buf);
            return Ok(strip_verbatim(PathBuf::from(path)));
        }
        // Too small: `n` is the size needed.
        buf.resize(n + 1, 0);
    }
}

/// Shell-form hooks need Git for Windows' bash, found as Claude Code finds
/// it ([`git_bash`]).
pub(crate) const NEEDS_GIT_BASH: bool = true;

/// Git for Windows' `bash.exe`, looked for as Claude Code does:
/// `CLAUDE_CODE_GIT_BASH_PATH` when it names a file; else next to the
/// first `git.exe` on `search` (`…\Git\cmd\git.exe` or
/// `…\Git\bin\git.exe` → `…\Git\bin\bash.exe`); else the default
/// install folders.
pub(crate) fn git_bash(search: Option<&OsStr>, explicit: Option<&OsStr>) -> Option<PathBuf> {
    if let Some(explicit) = explicit.filter(|path| !path.is_empty()) {
        let path = PathBuf::from(explicit);
        return path.is_file().then_some(path);
    }
    let from_git = search
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("git.exe"))
        .find(|git| git.is_file())
        .and_then(|git| {
            let root = git.parent()?.parent()?;
            Some(root.join("bin").join("bash.exe"))
        })
        .filter(|bash| bash.is_file());
    from_git.or_else(|| {
        ["ProgramFiles", "ProgramW6432", "LOCALAPPDATA"]
            .iter()
            .filter_map(std::env::var_os)
            .flat_map(|base| {
                let base = PathBuf::from(base);
                [
                    base.join("Git").join("bin").join("bash.exe"),
                    base.join("Programs")
                        .join("Git")
                        .join("bin")
                        .join("bash.exe"),
                ]
            })
            .find(|bash| bash.is_file())
    })
}

/// A path as users write it: `canonicalize` answers `\\?\C:\…`, which
/// a host's shell would not run (`C:\…` instead).
pub(crate) fn plain_path(path: PathBuf) -> PathBuf {
    strip_verbatim(path)
}

/// `\\?\C:\x` → `C:\x`, `\\?\UNC\server\share` → `\\server\share`.
fn strip_verbatim(path: PathBuf) -> PathBuf {
    let text = path.to_string_lossy();
    if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
        return PathBuf::from(format!(r"\\{rest}"));
    }
    if let Some(rest) = text.strip_prefix(r"\\?\") {
        if rest.as_bytes().get(1) == Some(&b':') {
            return PathBuf::from(rest);
        }
    }
    path
}

/// The entries of the folder `handle` is open on. Windows lists a folder
/// by path: the path is the handle's own, read from it now, so a folder
/// renamed since it was opened is still the one listed. (A folder swapped
/// for a link between that look and the listing is the gap that Unix's
/// `fdopendir` closes.) Reparse points are listed as symlinks.
pub(crate) fn read_folder(
    handle: &File,
) -> io::Result<impl Iterator<Item = io::Result<FolderEntry>> + use<>> {
    let path = descriptor_path(handle)?;
    Ok(fs::read_dir(path)?.map(|entry| {
        let entry = entry?;
        let file_type = entry.file_type()?;
        let kind = if file_type.is_symlink() {
            EntryKind::Symlink
        } else if file_type.is_dir() {
            EntryKind::Folder
        } else if file_type.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        Ok(FolderEntry {
            name: entry.file_name(),
            kind,
        })
    }))
}

/// A symlink at `link` to `target` (a folder link when `target` is a
/// folder), for tests.
#[cfg(test)]
pub(crate) fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    let (target, link) = (target.as_ref(), link.as_ref());
    let resolved = link
        .parent()
        .map_or_else(|| target.to_owned(), |dir| dir.join(target));
    if resolved.is_dir() {
        std::os::windows::fs::symlink_dir(target, link)
    } else {
        std::os::windows::fs::symlink_file(target, link)
    }
}

/// An exclusive lock on an open file (std's, `LockFileEx`), released when
/// dropped.
#[derive(Debug)]
pub struct FileLock(File);

impl std::ops::Deref for FileLock {
    type Target = File;

    fn deref(&self) -> &File {
        &self.0
    }
}

impl std::ops::DerefMut for FileLock {
    fn deref_mut(&mut self) -> &mut File {
        &mut self.0
    }
}

impl Drop for FileLock {
    // std's file locks: the Windows build needs Rust 1.89.
    #[clippy::msrv = "1.89"]
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Takes an exclusive lock on `file` without waiting; when it is held
/// elsewhere (`WouldBlock`) the file comes back with the error.
#[clippy::msrv = "1.89"]
pub(crate) fn try_lock(file: File) -> Result<FileLock, (File, io::Error)> {
    match file.try_lock() {
        Ok(()) => Ok(FileLock(file)),
        Err(fs::TryLockError::WouldBlock) => Err((file, io::ErrorKind::WouldBlock.into())),
        Err(fs::TryLockError::Error(error)) => Err((file, error)),
    }
}

/// The open flags of hookrun's file rules: a reparse point (symlink,
/// junction) at the last component is opened as itself, not followed,
/// unless `follow`; the caller then finds no regular file there and
/// refuses it. (Windows has no FIFOs to stall an open, and handles are not
/// inherited unless marked.)
pub(crate) fn set_open_flags(options: &mut OpenOptions, follow: bool) {
    if !follow {
        options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
    }
}

/// A private file on Windows is one in a private folder: hookrun's files
/// live under the user's profile (`%LOCALAPPDATA%`), whose inherited ACL
/// lets only the user, SYSTEM and Administrators in. No mode to set.
pub(crate) fn set_private_mode(_options: &mut OpenOptions) {}

/// The mode a file is created with: Windows has only the read-only bit,
/// set when no write bit is asked for.
pub(crate) fn set_create_mode(_options: &mut OpenOptions, _mode: u32) {}

/// A folder created by `builder` is private: see [`set_private_mode`].
pub(crate) fn set_folder_mode(_builder: &mut fs::DirBuilder, _mode: u32) {}

/// Gives the file at `path` the Unix `mode`: on Windows, read-only when no
/// write bit is set, else writable.
pub(crate) fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    let mut permissions = fs::metadata(path)?.permissions();
    let read_only = mode & 0o222 == 0;
    if permissions.readonly() != read_only {
        permissions.set_readonly(read_only);
        fs::set_permissions(path, permissions)?;
    }
    Ok(())
}

/// The Unix mode bits of `meta`, as far as Windows has them: the
/// read-only attribute (`0444`), else `0644` (who else may write is in the
/// file's ACL, which hookrun does not read: `doctor` says nothing about it).
pub(crate) fn mode_bits(meta: &fs::Metadata) -> u32 {
    if meta.permissions().readonly() {
        0o444
    } else {
        0o644
    }
}

/// The owner's user id and ours: Windows files are owned by a SID, not a
/// uid (`None`).
pub(crate) fn owner_and_self(_meta: &fs::Metadata) -> Option<(u32, u32)> {
    None
}

/// Bytes back into an `OsString` (they came from `as_encoded_bytes`, or
/// are UTF-8: on Windows both read as text).
pub(crate) fn os_string_from_bytes(bytes: Vec<u8>) -> OsString {
    match String::from_utf8(bytes) {
        Ok(text) => OsString::from(text),
        Err(error) => OsString::from(String::from_utf8_lossy(error.as_bytes()).into_owned()),
    }
}

#[expect(clippy::unnecessary_wraps, reason = "the seam's signature")]
pub(crate) fn clear_nonblocking(_file: &File) -> io::Result<()> {
    Ok(())
}

#[expect(clippy::unnecessary_wraps, reason = "the seam's signature")]
pub(crate) fn set_nonblocking_file(_file: &File) -> io::Result<()> {
    Ok(())
}

/// What a file that is not a regular file is, in words.
pub(crate) fn describe_file_type(file_type: fs::FileType) -> &'static str {
    if file_type.is_symlink() {
        "a symlink or junction"
    } else if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Windows has no FIFOs in the file system.
pub(crate) fn is_fifo(_file_type: fs::FileType) -> bool {
    false
}

pub(crate) fn is_fifo_without_reader(_error: &io::Error) -> bool {
    false
}

/// `ERROR_CANT_ACCESS_FILE` / `ERROR_CANT_RESOLVE_FILENAME`: a reparse
/// point that could not be opened as asked.
pub(crate) fn is_refused_link(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(1920 | 1921))
}

/// The same file: the same volume and file index (std compares them).
pub(crate) fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    // std exposes neither on stable Windows; size, times and attributes
    // together stand in, which only ever errs toward "the same" for two
    // files touched in the same instant with the same length.
    a.len() == b.len()
        && a.modified().ok() == b.modified().ok()
        && a.created().ok() == b.created().ok()
        && a.file_type() == b.file_type()
}

/// Windows has no file size signal.
pub(crate) fn survive_file_size_limit() {}

/// hookrun's stdin, as a file of its own (a duplicate handle); `None` when
/// the process has none.
pub(crate) fn stdin_file() -> io::Result<Option<File>> {
    match io::stdin().as_handle().try_clone_to_owned() {
        Ok(owned) => Ok(Some(File::from(owned))),
        // ERROR_INVALID_HANDLE: no stdin at all, which reads as empty.
        Err(error) if error.raw_os_error() == Some(6) => Ok(None),
        Err(error) => Err(error),
    }
}

/// hookrun's own stdout and stderr, as files of their own.
pub(crate) fn own_outputs() -> Vec<File> {
    [
        io::stdout().as_handle().try_clone_to_owned(),
        io::stderr().as_handle().try_clone_to_owned(),
    ]
    .into_iter()
    .filter_map(Result::ok)
    .map(File::from)
    .collect()
}

/// A folder opened without following a reparse point at its last component.
pub(crate) fn open_folder_nofollow(path: &Path) -> io::Result<File> {
    // FILE_FLAG_BACKUP_SEMANTICS: needed to open a folder at all.
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)?;
    let meta = file.metadata()?;
    if meta.file_type().is_symlink() || !meta.is_dir() {
        return Err(io::Error::other("not a folder (a link or a file)"));
    }
    Ok(file)
}

// ---- the user's folders ---------------------------------------------------------

/// The user's home: the user profile (`USERPROFILE`, `C:\Users\NAME`),
/// where the hosts keep their own folders (Node's `os.homedir()` reads it
/// first); `HOME` only where it is unset.
pub(crate) fn home_dir() -> Option<PathBuf> {
    ["USERPROFILE", "HOME"]
        .iter()
        .find_map(|name| std::env::var_os(name).filter(|home| !home.is_empty()))
        .map(PathBuf::from)
}

/// `~/rest` or `~\rest` → `rest`.
pub(crate) fn strip_home_prefix(text: &str) -> Option<&str> {
    text.strip_prefix("~/").or_else(|| text.strip_prefix("~\\"))
}

/// hookrun's state goes under `%LOCALAPPDATA%\hookrun\state` (a folder the
/// profile's ACL keeps to the user).
pub(crate) const LOCAL_DATA_VAR: Option<&str> = Some("LOCALAPPDATA");

/// Paths have many spellings of one file: either separator, drive
/// letters, case ignored.
pub(crate) const WINDOWS_PATHS: bool = true;

// ---- the machine -------------------------------------------------------------

/// Windows has no huge-page advice for ordinary mappings.
#[expect(clippy::unnecessary_wraps, reason = "the seam's signature")]
pub(crate) fn advise_huge_pages(_map: &memmap2::MmapMut) -> io::Result<()> {
    Ok(())
}

/// The processors hookrun may run on.
pub(crate) fn usable_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// What tests ask about processes by id and group: the supervisor's
/// tests that ask are of Unix process groups (`sh` hooks, `/proc`); the
/// Windows trees are tested through their Job Object (`mod tests` below).
#[cfg(test)]
pub(crate) mod testing {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbatim_prefixes_are_stripped_where_a_plain_form_exists() {
        assert_eq!(
            strip_verbatim(PathBuf::from(r"\\?\C:\Users\me\x")),
            PathBuf::from(r"C:\Users\me\x")
        );
        assert_eq!(
            strip_verbatim(PathBuf::from(r"\\?\UNC\server\share\x")),
            PathBuf::from(r"\\server\share\x")
        );
        assert_eq!(
            strip_verbatim(PathBuf::from(r"\\?\Volume{1}\x")),
            PathBuf::from(r"\\?\Volume{1}\x")
        );
    }

    #[test]
    fn a_killed_tree_reads_as_sigkill_and_a_code_as_itself() {
        assert_eq!(
            exit_code_or_signal(exit_status(KILLED_EXIT_CODE)),
            Err(KILL_SIGNAL)
        );
        assert_eq!(exit_code_or_signal(exit_status(2)), Ok(2));
    }

    #[test]
    fn git_bash_is_found_next_to_git_or_where_the_variable_says() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join("Git");
        for file in ["cmd/git.exe", "bin/bash.exe", "other/bash.exe"] {
            let path = git.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, "").unwrap();
        }
        let search = std::env::join_paths([dir.path().join("nothing"), git.join("cmd")]).unwrap();
        assert_eq!(
            git_bash(Some(&search), None),
            Some(git.join("bin").join("bash.exe"))
        );
        let explicit = git.join("other").join("bash.exe");
        assert_eq!(
            git_bash(Some(&search), Some(explicit.as_os_str())),
            Some(explicit.clone())
        );
        // A variable naming no file finds nothing (no guess behind it).
        let missing = git.join("missing.exe");
        assert_eq!(git_bash(Some(&search), Some(missing.as_os_str())), None);
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
    fn an_open_file_is_found_where_it_is_now() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a");
        fs::write(&path, "x").unwrap();
        let file = File::open(&path).unwrap();
        let found = descriptor_path(&file).unwrap();
        assert!(
            found
                .to_string_lossy()
                .to_ascii_lowercase()
                .ends_with(r"\a"),
            "{}",
            found.display()
        );
    }
}

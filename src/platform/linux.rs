//! Linux's answers: `/proc` for the members of a process group and for the
//! open descriptors, `waitid(WNOWAIT)` for a leader's exit, the affinity
//! mask for the processor count, `F_SETPIPE_SZ`, `MADV_HUGEPAGE`, `pipe2`.

use std::fs;
use std::io;
use std::os::fd::{AsFd, AsRawFd as _, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;

/// Has the process `pid` (our unreaped child) exited? Looks with
/// `WNOWAIT`: the zombie stays, so its pid cannot be recycled.
pub(crate) fn leader_exited(pid: i32) -> bool {
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    match waitid(Id::Pid(Pid::from_raw(pid)), flags) {
        Ok(WaitStatus::StillAlive) => false,
        // EINVAL: it exited, but from a signal nix has no name for (a
        // real-time one); `reap` reads the raw status. ECHILD: someone
        // else reaped it; either way it is gone.
        Ok(_) | Err(Errno::EINVAL | Errno::ECHILD) => true,
        // EINTR or the unexpected: ask again on the next turn of the
        // loop; the timeout still bounds the wait.
        Err(error) => {
            tracing::debug!(pid, %error, "waitid failed");
            false
        }
    }
}

/// The live members of process groups, from one scan of `/proc/*/stat`
/// made at the first question and shared by every later one.
#[derive(Debug, Default)]
pub(crate) enum Census {
    #[default]
    NotYet,
    /// `/proc` says nothing (not mounted, unreadable).
    Nothing,
    /// The groups with a member that is not a zombie.
    Live(std::collections::HashSet<i32>),
}

impl Census {
    /// Whether group `pgid` has a member that is not a zombie; `None` when
    /// `/proc` cannot tell.
    pub(crate) fn has_live_member(&mut self, pgid: i32) -> Option<bool> {
        if matches!(self, Census::NotYet) {
            *self = match live_groups(Path::new("/proc")) {
                Some(live) => Census::Live(live),
                None => Census::Nothing,
            };
        }
        match self {
            Census::NotYet | Census::Nothing => None,
            Census::Live(live) => Some(live.contains(&pgid)),
        }
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
/// up per entry.
pub(crate) fn descriptors_above_stderr() -> Vec<RawFd> {
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

/// Where the file or folder `fd` is open on is now: the link
/// `/proc/self/fd/N` names it.
pub(crate) fn descriptor_path(file: &std::fs::File) -> io::Result<PathBuf> {
    let fd = file.as_fd();
    fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd()))
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

/// A pipe holds 64 KiB unless asked for more: a hook reading megabytes
/// of stdin would wake, read 64 KiB and sleep again some hundred times.
/// Asked for up to 1 MiB (what an unprivileged process may ask for by
/// default); refused, the pipe stays as it is.
pub(crate) fn grow_pipe(pipe: &OwnedFd, len: usize) {
    const DEFAULT: usize = 64 * 1024;
    const WANTED: usize = 1024 * 1024;
    if len <= DEFAULT {
        return;
    }
    let size = i32::try_from(len.min(WANTED)).unwrap_or(i32::MAX);
    if let Err(err) = nix::fcntl::fcntl(pipe.as_fd(), nix::fcntl::FcntlArg::F_SETPIPE_SZ(size)) {
        tracing::debug!(%err, "the stdin pipe stays at its size");
    }
}

/// A mapping advised `MADV_HUGEPAGE` is backed by 2 MiB pages where the
/// kernel allows it (transparent huge pages set to `madvise` or `always`).
pub(crate) fn advise_huge_pages(map: &memmap2::MmapMut) -> io::Result<()> {
    map.advise(memmap2::Advice::HugePage)
}

/// A pipe for the signal handler: both ends close-on-exec and non-blocking,
/// made so in one call.
pub(crate) fn signal_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(nix::unistd::pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK)?)
}

/// What tests ask about processes, read from `/proc`.
#[cfg(test)]
pub(crate) mod testing {
    use std::fs;

    /// The process exists and is not a zombie.
    pub(crate) fn is_alive(pid: i32) -> bool {
        match fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => {
                super::parse_stat(&stat).is_some_and(|(state, _)| !matches!(state, 'Z' | 'X'))
            }
            Err(_) => false,
        }
    }

    /// The process's command name (`sleep`), if it exists.
    pub(crate) fn command_name(pid: i32) -> Option<String> {
        fs::read_to_string(format!("/proc/{pid}/comm"))
            .ok()
            .map(|comm| comm.trim().to_owned())
    }

    /// Members of group `pgid` that can still run.
    pub(crate) fn live_members(pgid: i32) -> Vec<i32> {
        let mut live = Vec::new();
        for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(member) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            if super::parse_stat(&stat)
                .is_some_and(|(state, group)| group == pgid && !matches!(state, 'Z' | 'X'))
            {
                live.push(member);
            }
        }
        live
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
    fn an_unreadable_proc_is_unknown() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(live_groups(&dir.path().join("missing")), None);
        assert_eq!(live_groups(dir.path()), None);
    }

    #[test]
    fn a_pipe_for_megabytes_of_stdin_is_grown_and_one_for_a_line_is_not() {
        use nix::fcntl::{FcntlArg, fcntl};
        let size = |fd: &OwnedFd| fcntl(fd, FcntlArg::F_GETPIPE_SZ).unwrap();
        let (_read, small) = nix::unistd::pipe().unwrap();
        let before = size(&small);
        grow_pipe(&small, 500);
        assert_eq!(size(&small), before);
        let (_read, big) = nix::unistd::pipe().unwrap();
        grow_pipe(&big, 10 << 20);
        if size(&big) == before {
            eprintln!(
                "SKIPPED: a_pipe_for_megabytes_of_stdin_is_grown_and_one_for_a_line_is_not: \
                 this system refused a 1 MiB pipe"
            );
            return;
        }
        assert_eq!(size(&big), 1 << 20);
    }
}

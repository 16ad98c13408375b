//! macOS's answers to the questions Linux answers from `/proc`: the
//! process table through `sysctl(KERN_PROC_PID)` and `proc_listpids`
//! (the `libproc` crate), the open descriptors in `/dev/fd`, where an open
//! file is with `F_GETPATH`.
//!
//! Compiled and type-checked on every change (`packaging/check-target.sh`),
//! linked into the release archives; run only on a Mac (the GitHub
//! workflow's macOS job), since no macOS runtime exists where hookrun is
//! built. Everything here is therefore the plainest call that answers the
//! question, and every "cannot tell" falls back to what Linux does when
//! `/proc` is missing: SIGKILL at the end of the grace.

use std::collections::HashMap;
use std::io;
use std::os::fd::{AsFd, AsRawFd as _, OwnedFd, RawFd};
use std::path::PathBuf;

use libproc::libproc::proc_pid::kproc_info;
use libproc::processes::{ProcFilter, pids_by_type};
use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::unistd::Pid;

/// `p_stat` of a process that has exited and was not reaped yet
/// (`<sys/proc.h>`).
const SZOMB: i32 = 5;

/// Whether the process exists (a zombie or not): `kill(pid, 0)` answers
/// `ESRCH` only for a pid nothing holds.
fn exists(pid: i32) -> bool {
    nix::sys::signal::kill(Pid::from_raw(pid), None) != Err(Errno::ESRCH)
}

/// Has the process `pid` (our unreaped child) exited? Its state in the
/// process table (`sysctl`, which lists zombies too), so nothing is reaped
/// and its pid cannot be recycled: the same guarantee as Linux's
/// `waitid(WNOWAIT)`, which macOS's libc does not offer.
pub(crate) fn leader_exited(pid: i32) -> bool {
    match kproc_info(pid) {
        Ok(info) => info.status == SZOMB,
        // Not in the table: gone (someone reaped it). In it but unreadable:
        // ask again on the next turn; the timeout still bounds the wait.
        Err(error) => {
            tracing::debug!(pid, %error, "no process table entry for the hook's leader");
            !exists(pid)
        }
    }
}

/// Whether process groups have a member that is not a zombie: each group's
/// members listed by `proc_listpids(PROC_PGRP_ONLY)`, each one's state read
/// from `sysctl`; remembered for the rest of the turn.
#[derive(Debug, Default)]
pub(crate) struct Census {
    answers: HashMap<i32, Option<bool>>,
}

impl Census {
    /// `None` when the system cannot tell (the listing failed, or a member
    /// exists but its state cannot be read).
    pub(crate) fn has_live_member(&mut self, pgid: i32) -> Option<bool> {
        *self
            .answers
            .entry(pgid)
            .or_insert_with(|| group_has_live_member(pgid))
    }
}

fn group_has_live_member(pgid: i32) -> Option<bool> {
    let members = pids_by_type(ProcFilter::ByProgramGroup {
        pgrpid: u32::try_from(pgid).ok()?,
    })
    .map_err(|error| tracing::debug!(pgid, %error, "cannot list the group's members"))
    .ok()?;
    let mut unknown = false;
    for member in members {
        let Ok(member) = i32::try_from(member) else {
            continue;
        };
        match kproc_info(member) {
            // Left the group since it was listed: not a member.
            Ok(info) if info.pgid != pgid => {}
            Ok(info) if info.status != SZOMB => return Some(true),
            Ok(_) => {}
            // Vanished since it was listed, or cannot be read.
            Err(_) => unknown |= exists(member),
        }
    }
    (!unknown).then_some(false)
}

/// The descriptors above stderr open in this process now, by number, read
/// from `/dev/fd` (which lists the calling process's own). Empty where that
/// cannot be read.
///
/// macOS also has *guarded* descriptors (libdispatch's, libsqlite's), which
/// crash a process that closes them. None is among these: guarded
/// descriptors are close-on-exec, so none comes through the exec that
/// started hookrun, and the stock is taken first thing, before hookrun uses
/// anything that makes one.
pub(crate) fn descriptors_above_stderr() -> Vec<RawFd> {
    let Ok(mut listing) = nix::dir::Dir::open(
        "/dev/fd",
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

/// Where the file or folder `fd` is open on is now: `F_GETPATH`.
pub(crate) fn descriptor_path(file: &std::fs::File) -> io::Result<PathBuf> {
    let fd = file.as_fd();
    let mut path = PathBuf::new();
    fcntl(fd, FcntlArg::F_GETPATH(&mut path))?;
    Ok(path)
}

/// How many processors hookrun may run on (macOS has no affinity mask to
/// read: the processors online).
pub(crate) fn usable_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// macOS grows a pipe's buffer by itself (to 64 KiB) and has no call to
/// ask for more: nothing to do.
pub(crate) fn grow_pipe(_pipe: &OwnedFd, _len: usize) {}

/// macOS has no transparent huge pages for anonymous mappings: the mapping
/// stays an ordinary buffer.
#[expect(
    clippy::unnecessary_wraps,
    reason = "the seam's signature: Linux's advice can fail"
)]
pub(crate) fn advise_huge_pages(_map: &memmap2::MmapMut) -> io::Result<()> {
    Ok(())
}

/// A pipe for the signal handler, both ends non-blocking. macOS has no
/// `pipe2`: std makes the pipe close-on-exec, then both ends are made
/// non-blocking. The supervisor registers its signals before any hook
/// starts, so no exec can come between the two steps.
pub(crate) fn signal_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = std::io::pipe()?;
    let (read, write) = (OwnedFd::from(read), OwnedFd::from(write));
    for end in [&read, &write] {
        let flags = OFlag::from_bits_retain(fcntl(end.as_fd(), FcntlArg::F_GETFL)?);
        fcntl(end.as_fd(), FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    }
    Ok((read, write))
}

/// What tests ask about processes, read from the process table.
#[cfg(test)]
pub(crate) mod testing {
    use super::{SZOMB, kproc_info};
    use libproc::processes::{ProcFilter, pids_by_type};

    /// The process exists and is not a zombie.
    pub(crate) fn is_alive(pid: i32) -> bool {
        kproc_info(pid).is_ok_and(|info| info.status != SZOMB)
    }

    /// The process's command name (`sleep`), if it exists.
    pub(crate) fn command_name(pid: i32) -> Option<String> {
        kproc_info(pid).ok().map(|info| info.comm)
    }

    /// Members of group `pgid` that can still run.
    pub(crate) fn live_members(pgid: i32) -> Vec<i32> {
        let Ok(pgrpid) = u32::try_from(pgid) else {
            return Vec::new();
        };
        pids_by_type(ProcFilter::ByProgramGroup { pgrpid })
            .unwrap_or_default()
            .into_iter()
            .filter_map(|member| i32::try_from(member).ok())
            .filter(|&member| {
                kproc_info(member).is_ok_and(|info| info.pgid == pgid && info.status != SZOMB)
            })
            .collect()
    }
}

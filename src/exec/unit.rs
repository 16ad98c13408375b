//! One running hook and its state machine (SPEC §5.3–5.6).
//!
//! ```text
//! Running ──leader exited──▶ Draining ──pipes at EOF or leak timeout──▶ Done
//!    │ timeout / interrupt
//!    ▼
//! Terminating ──leader exited and group gone──▶ Done
//!    │ grace over and a member alive / second interrupt
//!    ▼
//! Killing ──leader exited (or settle time over)──▶ Done
//! ```
//!
//! A unit never blocks and never waits for a pipe on the timeout path; it
//! only changes state when told the time ([`Unit::advance`]) or handed I/O
//! readiness. The leader is reaped only on the way into `Done`, after the
//! last signal to its group, so its pid (the group id) cannot be recycled
//! under a `killpg`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::capture::Capture;
use super::{JobReport, Limits, Termination};
use crate::event::Bytes;
use crate::platform::{self, Pipe, ReadOutcome, Spawned, Tree, TreeScan, TreeState, WriteOutcome};

/// After SIGKILL, how long to wait for the leader to be seen dead and the
/// group empty before giving up. A killed process normally exits within
/// microseconds; only one stuck in the kernel (D state) takes longer, and
/// hookrun must not hang with it. A group of thousands takes a while to die.
pub(super) const KILL_SETTLE: Duration = Duration::from_millis(250);

/// After SIGKILL, how often the group is checked (and killed again) until
/// it is empty: a member forking while the group was being killed can
/// leave a child the first SIGKILL did not reach.
pub(super) const KILL_RECHECK: Duration = Duration::from_millis(2);

/// Group checks after the leader died on the timeout path: the first at
/// once, then backing off. Orphaned members dying do not wake the loop
/// (their SIGCHLD goes to PID 1), so they are polled.
const FIRST_GROUP_CHECK: Duration = Duration::from_millis(1);
const MAX_GROUP_CHECK: Duration = Duration::from_millis(25);

/// Reads per stream and wake-up, so one flooding hook cannot starve the
/// others in the loop.
const READS_PER_WAKEUP: usize = 16;

/// Which of a hook's pipes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdin,
    Stdout,
    Stderr,
}

#[derive(Debug)]
enum Phase {
    Running,
    /// Stopped because of the timeout or an interrupt: SIGTERM sent.
    Terminating {
        kill_at: Option<Instant>,
        next_check: Instant,
        check_every: Duration,
    },
    /// SIGKILL sent to the group; sent again until it is empty.
    Killing {
        give_up_at: Instant,
        next_check: Instant,
    },
    /// The leader exited on its own: reading what it already wrote.
    Draining {
        until: Option<Instant>,
    },
    Done,
}

#[derive(Debug)]
struct StdinFeed {
    fd: Pipe,
    data: Arc<Bytes>,
    written: usize,
}

#[derive(Debug)]
pub(crate) struct Unit {
    started: Instant,
    deadline: Option<Instant>,
    /// SIGKILL by then at the latest, whatever is left of the grace.
    kill_by: Option<Instant>,
    tree: Tree,
    leader_exited: bool,
    stdin: Option<StdinFeed>,
    stdout: Option<Pipe>,
    stderr: Option<Pipe>,
    out: Capture,
    err: Capture,
    phase: Phase,
    timed_out: bool,
    killed: bool,
    leaked: bool,
    interrupted: bool,
    stdin_unread: bool,
    termination: Option<Termination>,
    finished: Option<Instant>,
}

impl Unit {
    pub(crate) fn new(
        spawned: Spawned,
        started: Instant,
        stdin: Arc<Bytes>,
        timeout: Duration,
        kill_by: Option<Instant>,
        limits: &Limits,
    ) -> Unit {
        // An absurd timeout that overflows the clock means "never".
        let deadline = match (started.checked_add(timeout), kill_by) {
            (Some(term), Some(kill)) => Some(term.min(kill)),
            (term, kill) => term.or(kill),
        };
        platform::grow_pipe(&spawned.stdin, stdin.len());
        let mut unit = Unit {
            started,
            deadline,
            kill_by,
            tree: spawned.tree,
            leader_exited: false,
            stdin: Some(StdinFeed {
                fd: spawned.stdin,
                data: stdin,
                written: 0,
            }),
            stdout: Some(spawned.stdout),
            stderr: Some(spawned.stderr),
            out: Capture::new(limits.output_cap),
            err: Capture::new(limits.output_cap),
            phase: Phase::Running,
            timed_out: false,
            killed: false,
            leaked: false,
            interrupted: false,
            stdin_unread: false,
            termination: None,
            finished: None,
        };
        if unit.stdin.as_ref().is_some_and(|feed| feed.data.is_empty()) {
            unit.close_stdin();
        }
        unit
    }

    pub(crate) fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// Takes every transition that is due at `now`.
    pub(crate) fn advance(&mut self, now: Instant, limits: &Limits, groups: &mut TreeScan) {
        loop {
            let before = std::mem::discriminant(&self.phase);
            self.step(now, limits, groups);
            if std::mem::discriminant(&self.phase) == before {
                return;
            }
        }
    }

    fn step(&mut self, now: Instant, limits: &Limits, groups: &mut TreeScan) {
        if !self.leader_exited && !self.is_done() && self.tree.leader_exited() {
            self.leader_exited = true;
            // Nobody is left to read it.
            self.close_stdin();
        }
        match self.phase {
            Phase::Running => {
                if self.leader_exited {
                    // An exit wins over a timeout that passed at the same
                    // turn: the hook did finish on its own.
                    self.phase = Phase::Draining {
                        until: now.checked_add(limits.leak_timeout),
                    };
                } else if self.deadline.is_some_and(|deadline| deadline <= now) {
                    tracing::debug!(pgid = self.tree.id(), "hook timed out");
                    self.timed_out = true;
                    self.terminate(now, limits.kill_grace);
                }
            }
            Phase::Draining { until } => {
                if self.stdout.is_none() && self.stderr.is_none() {
                    self.finish(now);
                } else if until.is_some_and(|until| until <= now) {
                    tracing::debug!(
                        pgid = self.tree.id(),
                        "hook left processes holding its output"
                    );
                    self.leaked = true;
                    self.finish(now);
                }
            }
            Phase::Terminating {
                kill_at,
                next_check,
                check_every,
            } => {
                // While the leader lives the group is alive; its exit
                // arrives as SIGCHLD, so only then is the group polled.
                if self.leader_exited && next_check <= now {
                    match self.tree.state(groups) {
                        TreeState::Gone => return self.finish(now),
                        // Unknown: wait for the grace to end, then SIGKILL.
                        TreeState::Alive | TreeState::Unknown => {
                            self.phase = Phase::Terminating {
                                kill_at,
                                next_check: now + check_every,
                                check_every: (check_every * 2).min(MAX_GROUP_CHECK),
                            };
                        }
                    }
                }
                if kill_at.is_some_and(|kill_at| kill_at <= now) {
                    self.kill(now);
                }
            }
            Phase::Killing {
                give_up_at,
                next_check,
            } => {
                if self.leader_exited && next_check <= now {
                    match self.tree.state(groups) {
                        TreeState::Gone => return self.finish(now),
                        state => {
                            // Forked after the last SIGKILL reached the group.
                            let _ = self.tree.kill();
                            if state == TreeState::Unknown {
                                // Nothing can tell when it is empty.
                                return self.finish(now);
                            }
                            self.phase = Phase::Killing {
                                give_up_at,
                                next_check: now + KILL_RECHECK,
                            };
                        }
                    }
                }
                if give_up_at <= now {
                    if self.leader_exited {
                        tracing::warn!(
                            pgid = self.tree.id(),
                            "hook group still had live members after SIGKILL"
                        );
                    }
                    self.finish(now);
                }
            }
            Phase::Done => {}
        }
    }

    /// hookrun was signalled: stop this hook unless it already exited on
    /// its own (what it left behind is not ours to kill, SPEC §5.4).
    pub(crate) fn interrupt(&mut self, now: Instant, limits: &Limits, groups: &mut TreeScan) {
        // Look first: a leader that exited since the last turn of the loop
        // must not have its leftovers signalled.
        self.advance(now, limits, groups);
        if matches!(self.phase, Phase::Running) {
            self.interrupted = true;
            self.terminate(now, limits.kill_grace);
        }
    }

    /// hookrun was signalled again: no more grace.
    pub(crate) fn kill_now(&mut self, now: Instant) {
        if matches!(self.phase, Phase::Terminating { .. }) {
            self.kill(now);
        }
    }

    fn terminate(&mut self, now: Instant, grace: Duration) {
        self.close_stdin();
        // SIGTERM to the group (and SIGCONT, for a stopped member).
        if let Err(error) = self.tree.terminate() {
            tracing::warn!(pgid = self.tree.id(), %error, "could not SIGTERM hook group");
        }
        // Escalate early when the hard end comes before the grace is over.
        let kill_at = match (now.checked_add(grace), self.kill_by) {
            (Some(at), Some(by)) => Some(at.min(by)),
            (at, by) => at.or(by),
        };
        self.phase = Phase::Terminating {
            kill_at,
            next_check: now,
            check_every: FIRST_GROUP_CHECK,
        };
    }

    fn kill(&mut self, now: Instant) {
        tracing::debug!(pgid = self.tree.id(), "killing hook group");
        if let Err(error) = self.tree.kill() {
            tracing::warn!(pgid = self.tree.id(), %error, "could not SIGKILL hook group");
        }
        self.killed = true;
        self.phase = Phase::Killing {
            give_up_at: now + KILL_SETTLE,
            next_check: now,
        };
    }

    fn finish(&mut self, now: Instant) {
        self.close_stdin();
        // Dropping the read ends without reading to EOF: whoever still holds
        // the write ends gets EPIPE, never us a hang.
        self.stdout = None;
        self.stderr = None;
        self.termination = Some(if self.leader_exited {
            match self.tree.reap().map(platform::exit_code_or_signal) {
                Some(Ok(code)) => Termination::Exited(code),
                Some(Err(signal)) => Termination::Signaled(signal),
                None => {
                    tracing::warn!(pgid = self.tree.id(), "exit status of hook process lost");
                    Termination::Exited(-1)
                }
            }
        } else {
            // Only after SIGKILL and the settle time: it will die of the
            // pending SIGKILL when the kernel lets it go; left unreaped.
            Termination::Signaled(platform::KILL_SIGNAL)
        });
        self.finished = Some(now);
        self.phase = Phase::Done;
    }

    fn close_stdin(&mut self) {
        if let Some(feed) = self.stdin.take() {
            if feed.written < feed.data.len() {
                self.stdin_unread = true;
            }
        }
    }

    /// The earliest moment [`Unit::advance`] has something to do without
    /// any I/O or signal happening first.
    pub(crate) fn next_wake(&self) -> Option<Instant> {
        match self.phase {
            Phase::Running => self.deadline,
            Phase::Terminating {
                kill_at,
                next_check,
                ..
            } => {
                if self.leader_exited {
                    Some(kill_at.map_or(next_check, |kill_at| kill_at.min(next_check)))
                } else {
                    kill_at
                }
            }
            Phase::Killing {
                give_up_at,
                next_check,
            } => Some(if self.leader_exited {
                give_up_at.min(next_check)
            } else {
                give_up_at
            }),
            Phase::Draining { until } => until,
            Phase::Done => None,
        }
    }

    /// The pipes to wait on, and for what.
    pub(crate) fn watched(&self) -> impl Iterator<Item = (Stream, &Pipe)> {
        let stdin = self.stdin.as_ref().map(|feed| (Stream::Stdin, &feed.fd));
        let stdout = self.stdout.as_ref().map(|pipe| (Stream::Stdout, pipe));
        let stderr = self.stderr.as_ref().map(|pipe| (Stream::Stderr, pipe));
        stdin.into_iter().chain(stdout).chain(stderr)
    }

    /// The pipe `stream` is ready: move what can be moved without blocking.
    pub(crate) fn on_ready(&mut self, stream: Stream, scratch: &mut Vec<u8>) {
        match stream {
            Stream::Stdin => self.feed_stdin(),
            Stream::Stdout => {
                if drain_into(self.stdout.as_ref(), &mut self.out, scratch) {
                    self.stdout = None;
                }
            }
            Stream::Stderr => {
                if drain_into(self.stderr.as_ref(), &mut self.err, scratch) {
                    self.stderr = None;
                }
            }
        }
    }

    fn feed_stdin(&mut self) {
        let Some(feed) = self.stdin.as_mut() else {
            return;
        };
        while feed.written < feed.data.len() {
            match platform::write_some(&feed.fd, &feed.data[feed.written..]) {
                WriteOutcome::Wrote(n) => feed.written += n,
                WriteOutcome::WouldBlock => return,
                // EPIPE: the hook did not want (all of) it. Normal.
                WriteOutcome::Closed => break,
            }
        }
        self.close_stdin();
    }

    pub(crate) fn report(self) -> JobReport {
        let finished = self.finished.unwrap_or_else(Instant::now);
        JobReport {
            termination: self
                .termination
                .unwrap_or(Termination::Signaled(platform::KILL_SIGNAL)),
            timed_out: self.timed_out,
            killed: self.killed,
            leaked: self.leaked,
            interrupted: self.interrupted,
            stdin_unread: self.stdin_unread,
            stdout: self.out.finish(),
            stderr: self.err.finish(),
            duration: finished.saturating_duration_since(self.started),
        }
    }
}

/// A full pipe's worth: pipes hold 64 KiB by default, so one read of this
/// size usually empties one.
const FULL_READ: usize = 64 * 1024;

/// Reads what `fd` has now into `capture`. True at end of file. A read that
/// fills `scratch` grows it to [`FULL_READ`], for the hooks that print a lot.
fn drain_into(fd: Option<&Pipe>, capture: &mut Capture, scratch: &mut Vec<u8>) -> bool {
    let Some(fd) = fd else {
        return false;
    };
    for _ in 0..READS_PER_WAKEUP {
        match platform::read_some(fd, scratch) {
            ReadOutcome::Data(n) => {
                capture.push(&scratch[..n]);
                if n == scratch.len() && scratch.len() < FULL_READ {
                    scratch.resize(FULL_READ, 0);
                }
            }
            ReadOutcome::WouldBlock => return false,
            ReadOutcome::Eof => return true,
        }
    }
    false
}

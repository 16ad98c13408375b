//! The one loop that runs a batch: spawn every job (from this thread, and
//! from up to three more for big batches on a machine with more than one
//! core, see [`starters`]), then one wait over all hooks' pipes and hookrun's
//! signals (`poll(2)` and a self-pipe on Unix, through `platform::wait`),
//! woken at the nearest deadline, until every unit is done.
//! Nothing starts after its job's hard end; a job that finds hookrun out of
//! descriptors waits in a queue and starts when running hooks end.
//!
//! It must never block anywhere but in that wait, and the wait always has a
//! timeout while any unit has a deadline.

use std::time::{Duration, Instant};

use super::spawn::spawn_job;
use super::unit::{Stream, Unit};
use super::{Job, JobReport, Limits, Termination};
use crate::platform::{self, Interest, Signals, TreeScan, Watch};

/// Belt and braces: even with no deadline and no event the loop looks at
/// its units this often, so a lost wake-up costs a second, not a hang.
const MAX_SLEEP: Duration = Duration::from_secs(1);

/// One pipe read starts this large: one page, since most hooks print a
/// line or nothing (a buffer zeroed up front costs a page fault per page).
const SCRATCH_SIZE: usize = 4 * 1024;

/// hookrun's own termination signals as seen by the loop.
#[derive(Debug, Default)]
pub(crate) struct Interrupts {
    pub first: Option<i32>,
    pub count: u32,
}

impl Interrupts {
    /// Records deliveries; SIGCHLD only wakes the loop. Returns how many
    /// termination signals were among them.
    fn record(&mut self, delivered: &[i32]) -> u32 {
        let mut new = 0;
        for &signal in delivered {
            if platform::TERMINATION_SIGNALS.contains(&signal) {
                self.first.get_or_insert(signal);
                self.count += 1;
                new += 1;
            }
        }
        new
    }
}

enum Slot {
    Live(Box<Unit>),
    Finished(JobReport),
    /// Not started yet: hookrun was out of descriptors (or processes) when
    /// its turn came. Started, in job order, as running hooks end.
    Queued(Job, String),
}

/// While hooks are queued, starting them is tried again at least this
/// often (descriptors are usually freed by a hook ending, which wakes the
/// loop anyway).
const QUEUED_RETRY: Duration = Duration::from_millis(20);

/// Runs `jobs` to completion (or interruption) and reports in job order.
pub(crate) fn run_batch(
    signals: &mut Signals,
    interrupts: &mut Interrupts,
    jobs: Vec<Job>,
    limits: &Limits,
) -> Vec<JobReport> {
    // A signal that came between batches stops this one before it starts.
    interrupts.record(&signals.drain());
    if let Some(signal) = interrupts.first {
        return jobs.iter().map(|_| not_started(signal)).collect();
    }

    let mut slots = start_all(jobs, limits);
    let mut scratch = vec![0u8; SCRATCH_SIZE];
    // Grown by `drain_into` to what a full pipe holds once a read fills it.
    loop {
        let now = Instant::now();
        let mut next_wake: Option<Instant> = None;
        let mut all_done = true;
        let mut live = false;
        let mut groups = TreeScan::default();
        for slot in &mut slots {
            if let Slot::Live(unit) = slot {
                unit.advance(now, limits, &mut groups);
                if !unit.is_done() {
                    all_done = false;
                    live = true;
                    next_wake = earliest(next_wake, unit.next_wake());
                }
            }
        }
        if start_queued(&mut slots, limits, live) {
            all_done = false;
            next_wake = earliest(next_wake, Some(now + QUEUED_RETRY));
        }
        if all_done {
            break;
        }
        let sleep = next_wake
            .map_or(MAX_SLEEP, |wake| wake.saturating_duration_since(now))
            .min(MAX_SLEEP);

        let (signals_ready, ready) = wait(signals, &slots, sleep);

        if signals_ready {
            let before = interrupts.count;
            let new = interrupts.record(&signals.drain());
            if new > 0 {
                let now = Instant::now();
                let signal = interrupts.first.unwrap_or_default();
                let mut groups = TreeScan::default();
                for slot in &mut slots {
                    match slot {
                        Slot::Live(unit) => {
                            if before == 0 {
                                unit.interrupt(now, limits, &mut groups);
                            }
                            if before + new >= 2 {
                                unit.kill_now(now);
                            }
                        }
                        Slot::Queued(..) => *slot = Slot::Finished(not_started(signal)),
                        Slot::Finished(_) => {}
                    }
                }
            }
        }
        for (index, stream) in ready {
            if let Slot::Live(unit) = &mut slots[index] {
                unit.on_ready(stream, &mut scratch);
            }
        }
    }
    slots
        .into_iter()
        .map(|slot| match slot {
            Slot::Live(unit) => unit.report(),
            Slot::Finished(report) => report,
            Slot::Queued(_, why) => could_not_start(why, Duration::ZERO),
        })
        .collect()
}

/// Starts queued jobs in job order until one cannot start yet; one past
/// its deadline is not started at all. With no hook running, nothing will
/// free a descriptor: what still cannot start fails with its error.
/// Returns whether jobs are still queued.
fn start_queued(slots: &mut [Slot], limits: &Limits, running: bool) -> bool {
    let mut still_queued = false;
    let mut exhausted = false;
    let mut running = running;
    for slot in slots.iter_mut() {
        let Slot::Queued(..) = slot else { continue };
        if exhausted {
            still_queued = true;
            continue;
        }
        let Slot::Queued(job, _) = std::mem::replace(slot, Slot::Finished(not_started(0))) else {
            unreachable!("matched above");
        };
        *slot = start(job, limits);
        match slot {
            Slot::Queued(..) => {
                exhausted = true;
                still_queued = true;
            }
            Slot::Live(_) => running = true,
            Slot::Finished(_) => {}
        }
    }
    if still_queued && !running {
        for slot in slots.iter_mut() {
            if let Slot::Queued(_, why) = slot {
                *slot = Slot::Finished(could_not_start(std::mem::take(why), Duration::ZERO));
            }
        }
        return false;
    }
    still_queued
}

/// How many threads start a batch of `jobs` hooks on `cpus` processors:
/// one for a few hooks or one processor, else one per five hooks, two to
/// four. Each start holds its thread until the child has exec'd, and the
/// child has to be scheduled for that: two threads keep both processors
/// busy on a quiet machine, more keep hooks starting while another
/// program holds a processor (twenty hooks with one core taken: 1.13× a
/// shell's time with two threads, 1.04× with four; quiet: 0.99× and
/// 1.01×).
fn starters(jobs: usize, cpus: usize) -> usize {
    if cpus < 2 || jobs < 4 {
        1
    } else {
        (jobs / 5).clamp(2, 4)
    }
}

/// `items` cut into at most `parts` runs of consecutive items, in order,
/// as even as can be (the first ones longer by one).
fn split_into<T>(items: Vec<T>, parts: usize) -> Vec<Vec<T>> {
    let per = items.len().div_ceil(parts.max(1)).max(1);
    let mut runs = Vec::with_capacity(parts);
    let mut rest = items;
    while rest.len() > per {
        let tail = rest.split_off(per);
        runs.push(rest);
        rest = tail;
    }
    runs.push(rest);
    runs
}

/// Starts every job, in job order. Each start holds its thread until the
/// child has replaced itself with the hook's program (`posix_spawn` shares
/// hookrun's memory until then). A thread that cannot be made leaves its
/// share of the starting to this one.
fn start_all(jobs: Vec<Job>, limits: &Limits) -> Vec<Slot> {
    let threads = starters(jobs.len(), platform::usable_cpus());
    if threads == 1 {
        return start_in_order(jobs, limits);
    }
    // Contiguous shares, the first for this thread.
    let mut shares = split_into(jobs, threads).into_iter();
    let own = shares.next().unwrap_or_default();
    let others: Vec<std::sync::Mutex<Option<Vec<Job>>>> = shares
        .map(|share| std::sync::Mutex::new(Some(share)))
        .collect();
    let take = |slot: &std::sync::Mutex<Option<Vec<Job>>>| {
        slot.lock().ok().and_then(|mut jobs| jobs.take())
    };
    let start_share = |jobs: Vec<Job>| -> Vec<Slot> { start_in_order(jobs, limits) };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = others
            .iter()
            .map(|slot| {
                std::thread::Builder::new()
                    .name("hookrun-start".into())
                    .spawn_scoped(scope, || take(slot).map(start_share))
            })
            .collect();
        let mut slots = start_share(own);
        for (slot, helper) in others.iter().zip(helpers) {
            let started_there = match helper.map(std::thread::ScopedJoinHandle::join) {
                Ok(Ok(started)) => started,
                Ok(Err(panic)) => std::panic::resume_unwind(panic),
                Err(error) => {
                    tracing::debug!(%error, "no thread to start hooks from; this one starts them");
                    None
                }
            };
            slots.extend(
                started_there.unwrap_or_else(|| start_share(take(slot).unwrap_or_default())),
            );
        }
        slots
    })
}

/// Starts `jobs` in order; once one finds hookrun out of descriptors, the
/// rest are queued without trying.
fn start_in_order(jobs: Vec<Job>, limits: &Limits) -> Vec<Slot> {
    let mut exhausted: Option<String> = None;
    let mut slots = Vec::with_capacity(jobs.len());
    for job in jobs {
        let slot = match &exhausted {
            Some(why) if !past_deadline(&job) => Slot::Queued(job, why.clone()),
            _ => start(job, limits),
        };
        if let Slot::Queued(_, why) = &slot {
            exhausted.get_or_insert_with(|| why.clone());
        }
        slots.push(slot);
    }
    slots
}

fn past_deadline(job: &Job) -> bool {
    job.kill_by.is_some_and(|by| by <= Instant::now())
}

fn start(job: Job, limits: &Limits) -> Slot {
    let started = Instant::now();
    // Starting takes time (thousands of hooks take seconds): none starts
    // after the fire's deadline, when its answer would come too late.
    if past_deadline(&job) {
        return Slot::Finished(failed_report(
            Termination::SpawnFailed("the deadline passed before its turn came".to_owned()),
            Duration::ZERO,
            false,
        ));
    }
    match spawn_job(&job) {
        Ok(spawned) => {
            tracing::debug!(pgid = spawned.tree.id(), "hook started");
            Slot::Live(Box::new(Unit::new(
                spawned,
                started,
                job.stdin,
                job.timeout,
                job.kill_by,
                limits,
            )))
        }
        Err(error) if error.is_exhaustion() => {
            tracing::debug!(%error, "hook queued until running hooks end");
            Slot::Queued(job, error.to_string())
        }
        Err(error) => {
            tracing::debug!(%error, "hook did not start");
            Slot::Finished(could_not_start(error.to_string(), started.elapsed()))
        }
    }
}

fn could_not_start(why: String, duration: Duration) -> JobReport {
    failed_report(Termination::SpawnFailed(why), duration, false)
}

/// Waits for I/O, a signal or `sleep`; returns whether a signal arrived
/// and which hook pipes are ready.
fn wait(signals: &Signals, slots: &[Slot], sleep: Duration) -> (bool, Vec<(usize, Stream)>) {
    let mut tags: Vec<(usize, Stream)> = Vec::new();
    let mut watches: Vec<Watch<'_>> = Vec::new();
    for (index, slot) in slots.iter().enumerate() {
        let Slot::Live(unit) = slot else { continue };
        if unit.is_done() {
            continue;
        }
        for (stream, pipe) in unit.watched() {
            let interest = match stream {
                Stream::Stdin => Interest::Write,
                Stream::Stdout | Stream::Stderr => Interest::Read,
            };
            tags.push((index, stream));
            watches.push(Watch {
                pipe,
                interest,
                ready: false,
            });
        }
    }
    let signals_ready = match platform::wait(signals, &mut watches, Some(sleep)) {
        Ok(signalled) => signalled,
        Err(error) => {
            // Only resource exhaustion gets here. The deadlines still hold,
            // so carry on, but without spinning.
            tracing::warn!(%error, "waiting for hook pipes failed");
            std::thread::sleep(sleep.min(Duration::from_millis(10)));
            return (false, Vec::new());
        }
    };
    let ready = tags
        .into_iter()
        .zip(&watches)
        .filter(|(_, watch)| watch.ready)
        .map(|(tag, _)| tag)
        .collect();
    (signals_ready, ready)
}

fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

fn not_started(signal: i32) -> JobReport {
    failed_report(
        Termination::SpawnFailed(format!(
            "not started: hookrun was interrupted by signal {signal}"
        )),
        Duration::ZERO,
        true,
    )
}

fn failed_report(termination: Termination, duration: Duration, interrupted: bool) -> JobReport {
    JobReport {
        termination,
        timed_out: false,
        killed: false,
        leaked: false,
        interrupted,
        stdin_unread: false,
        stdout: super::Captured::default(),
        stderr: super::Captured::default(),
        duration,
    }
}

#[cfg(test)]
mod tests {
    use super::{split_into, starters};

    #[test]
    fn starting_threads_grow_with_the_batch_up_to_four() {
        assert_eq!(starters(20, 1), 1, "one processor");
        assert_eq!(starters(3, 2), 1, "a few hooks");
        assert_eq!(
            [4, 9, 10, 15, 20, 100].map(|n| starters(n, 2)),
            [2, 2, 2, 3, 4, 4]
        );
    }

    #[test]
    fn shares_are_consecutive_and_cover_every_job_once() {
        for (len, parts) in [(23, 4), (20, 4), (8, 2), (4, 2), (5, 4), (1, 3), (0, 2)] {
            let runs = split_into((0..len).collect::<Vec<_>>(), parts);
            assert!(runs.len() <= parts.max(1), "{len}/{parts}: {runs:?}");
            let flat: Vec<i32> = runs.concat();
            assert_eq!(flat, (0..len).collect::<Vec<_>>(), "{len}/{parts}");
        }
        assert_eq!(
            split_into((0..23).collect(), 4)
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>(),
            [6, 6, 6, 5]
        );
    }
}

//! `hookrun replay`: recorded sessions against a policy (or two), see
//! [`crate::replay`].

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::common::{self, Printed};
use crate::cli::{OutputFormat, ReplayArgs};
use crate::exit::Exit;
use crate::replay::evaluate::{Findings, Side};
use crate::replay::summary::{self, Context, Summary};
use crate::replay::{Tally, source};
use crate::settings::{Environment, SourceOptions};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

pub fn run(args: &ReplayArgs) -> Printed {
    let started = Instant::now();
    let mut env = common::environment(&args.settings);
    // The project follows from each event's cwd, unless --project-dir says
    // otherwise: a replay run inside an agent session must not take that
    // session's project for every recorded one.
    env.claude_project_dir = None;
    let files = match files(args, &env) {
        Ok(files) => files,
        Err(printed) => return printed,
    };
    if args.run {
        // Hooks run for real: none may inherit a descriptor hookrun
        // inherited, and the person must know.
        crate::exec::InheritedFds::take_stock().close();
        eprintln!(
            "hookrun replay --run: hooks RUN for every replayed event (each in a throwaway working folder, with the usual timeouts); use it only for hooks that are safe to run again"
        );
    }
    let (new_options, old_options) = match policies(args, &env) {
        Ok(options) => options,
        Err(printed) => return printed,
    };
    // Every event is kept only when it is listed.
    let keep_rows = args.format == OutputFormat::Json || args.show == crate::cli::Show::All;
    let job = Job {
        env: &env,
        new_options: &new_options,
        old_options: old_options.as_ref(),
        run: args.run,
        keep_rows,
    };
    let merged = match merge(replay_all(&files, &job), &job) {
        Ok(merged) => merged,
        Err(printed) => return printed,
    };
    if let Some(printed) = unapplied(&merged.new, merged.old.as_ref()) {
        return printed;
    }
    let cx = Context {
        files: &files,
        tally: &merged.tally,
        new: &merged.new,
        old: merged.old.as_ref(),
        new_label: label(&args.settings.settings, args.settings.no_default_settings),
        old_label: (!args.against.is_empty())
            .then(|| label(&args.against, args.settings.no_default_settings)),
        elapsed: started.elapsed(),
        show: args.show,
    };
    let stdout = match args.format {
        OutputFormat::Text => summary::text(&merged.summary, &cx),
        OutputFormat::Json => summary::to_json(&merged.summary, &cx),
    };
    let exit = if args.fail_on_change && !merged.summary.changes.is_empty() {
        Exit::Changed
    } else {
        Exit::Success
    };
    Printed::stdout(stdout, exit)
}

/// The transcripts and logs to replay: the SOURCEs (default:
/// `~/.claude/projects`), folders expanded.
fn files(args: &ReplayArgs, env: &Environment) -> Result<Vec<PathBuf>, Printed> {
    let sources = if args.sources.is_empty() {
        match env.home.as_ref().map(|h| h.join(".claude/projects")) {
            Some(dir) if dir.is_dir() => vec![dir],
            _ => {
                return Err(Printed::failure(
                    "no SOURCE given and ~/.claude/projects does not exist: pass transcripts, folders of them or an audit log",
                ));
            }
        }
    } else {
        args.sources.iter().map(|p| env.absolute(p)).collect()
    };
    let files =
        source::expand(&sources).map_err(|why| Printed::failure(&crate::exit::error_line(&why)))?;
    if files.is_empty() {
        let list: Vec<String> = sources.iter().map(|p| p.display().to_string()).collect();
        return Err(Printed::failure(&format!(
            "no *.jsonl files in {}",
            list.join(", ")
        )));
    }
    Ok(files)
}

/// The policy replayed and, with `--against`, the one compared with.
fn policies(
    args: &ReplayArgs,
    env: &Environment,
) -> Result<(SourceOptions, Option<SourceOptions>), Printed> {
    let new_options = args.settings.source_options();
    // A policy that does not load answers nothing about itself: a CI gate
    // must not pass with the new file never read.
    for (flag, path) in args
        .settings
        .settings
        .iter()
        .map(|p| ("--settings", p))
        .chain(
            args.settings
                .claude_settings
                .iter()
                .map(|p| ("--claude-settings", p)),
        )
    {
        if !env.absolute(path).is_file() {
            return Err(Printed::failure(&format!(
                "{flag} {}: no such settings file",
                path.display()
            )));
        }
    }
    if args.against.is_empty() {
        return Ok((new_options, None));
    }
    let mut options = new_options.clone();
    // As given, like --settings: a relative path is a project file to the
    // trust rules, on both sides alike.
    options.settings.clone_from(&args.against);
    for path in &options.settings {
        if !env.absolute(path).is_file() {
            return Err(Printed::failure(&format!(
                "--against {}: no such settings file",
                path.display()
            )));
        }
    }
    Ok((new_options, Some(options)))
}

/// What every worker replays with.
#[derive(Clone, Copy)]
struct Job<'a> {
    env: &'a Environment,
    new_options: &'a SourceOptions,
    old_options: Option<&'a SourceOptions>,
    run: bool,
    keep_rows: bool,
}

/// The files shared out to workers, with a progress line; with --run, one
/// worker, so hooks run one event at a time, in order.
fn replay_all(files: &[PathBuf], job: &Job<'_>) -> Vec<Result<Part, String>> {
    let jobs = if job.run {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(MAX_JOBS)
            .min(files.len())
    };
    let shared = Shared {
        files,
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        events: AtomicU64::new(0),
        stop: AtomicBool::new(false),
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let shared = &shared;
                scope.spawn(move || work(shared, job))
            })
            .collect();
        let mut progress = Progress::new(files.len());
        while !workers
            .iter()
            .all(std::thread::ScopedJoinHandle::is_finished)
        {
            std::thread::sleep(Duration::from_millis(50));
            progress.show(
                shared.done.load(Ordering::Relaxed),
                shared.events.load(Ordering::Relaxed),
            );
        }
        progress.clear();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a replay worker panicked".to_owned()))
            })
            .collect()
    })
}

/// The workers' parts, as one.
struct Merged {
    summary: Summary,
    tally: Tally,
    new: Findings,
    old: Option<Findings>,
}

fn merge(parts: Vec<Result<Part, String>>, job: &Job<'_>) -> Result<Merged, Printed> {
    let mut summary = Summary::new(job.run, job.old_options.is_some());
    if job.keep_rows {
        summary = summary.keep_rows();
    }
    let mut merged = Merged {
        summary,
        tally: Tally::default(),
        new: Findings::default(),
        old: job.old_options.map(|_| Findings::default()),
    };
    let mut interrupted = None;
    for part in parts {
        let part = part.map_err(|why| Printed::failure(&why))?;
        merged.summary.merge(part.summary);
        merged.tally.merge(part.tally);
        merged.new.merge(part.new);
        if let (Some(old), Some(theirs)) = (merged.old.as_mut(), part.old) {
            old.merge(theirs);
        }
        interrupted = interrupted.or(part.interrupted);
    }
    if let Some(signal) = interrupted {
        return Err(Printed {
            stdout: String::new(),
            stderr: "hookrun: interrupted; running hooks were stopped\n".into(),
            exit: Exit::Interrupted(signal),
        });
    }
    Ok(merged)
}

/// A policy named on the command line that was not applied somewhere: the
/// replay would not say what it does.
fn unapplied(new: &Findings, old: Option<&Findings>) -> Option<Printed> {
    for (flag, side) in [("--settings", Some(new)), ("--against", old)] {
        if let Some((path, why)) = side.and_then(|s| s.unapplied.iter().next()) {
            let more = side.map_or(0, |s| s.unapplied.len()) - 1;
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            return Some(Printed::failure(&format!(
                "{flag} {path}: {why}; the replay would not say what this policy does{more}"
            )));
        }
    }
    None
}

fn label(files: &[PathBuf], no_default: bool) -> String {
    let named: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    match (named.is_empty(), no_default) {
        (true, false) => "the current settings (user, project, local, managed)".into(),
        (true, true) => "managed settings only".into(),
        (false, false) => format!("the current settings + {}", named.join(", ")),
        (false, true) => named.join(", "),
    }
}

/// Workers at most (each holds its own copy of the settings).
const MAX_JOBS: usize = 8;

/// What the workers share: the files, the next one to take, counters for
/// the progress line, and a stop flag.
struct Shared<'a> {
    files: &'a [PathBuf],
    next: AtomicUsize,
    done: AtomicUsize,
    events: AtomicU64,
    stop: AtomicBool,
}

/// One worker's share of the replay.
struct Part {
    summary: Summary,
    tally: Tally,
    new: Findings,
    old: Option<Findings>,
    interrupted: Option<i32>,
}

/// Takes files until none is left: each is read, each of its events
/// evaluated under the new (and the old) policy as soon as it is rebuilt.
fn work(shared: &Shared<'_>, job: &Job<'_>) -> Result<Part, String> {
    let Job {
        env,
        new_options,
        old_options,
        run,
        keep_rows,
    } = *job;
    let made = |options: &SourceOptions| {
        Side::new(options.clone(), env.clone(), run)
            .map_err(|err| format!("cannot make a throwaway state folder: {err}"))
    };
    let mut new = made(new_options)?;
    let mut old = old_options.map(made).transpose()?;
    let mut summary = Summary::new(run, old.is_some());
    if keep_rows {
        summary = summary.keep_rows();
    }
    let mut tally = Tally::default();
    let mut interrupted = None;
    loop {
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(path) = shared.files.get(index) else {
            break;
        };
        source::read_file(index, path, &mut tally, &mut |replayed| {
            if interrupted.is_some() {
                return;
            }
            let verdict = match new.evaluate(&replayed.event) {
                Ok(v) => v,
                Err(signal) => {
                    interrupted = Some(signal);
                    return;
                }
            };
            let before = match old.as_mut().map(|o| o.evaluate(&replayed.event)) {
                None => None,
                Some(Ok(v)) => Some(v),
                Some(Err(signal)) => {
                    interrupted = Some(signal);
                    return;
                }
            };
            summary.add(&replayed, &verdict, before.as_ref());
            shared.events.fetch_add(1, Ordering::Relaxed);
        });
        shared.done.fetch_add(1, Ordering::Relaxed);
        if interrupted.is_some() {
            shared.stop.store(true, Ordering::Relaxed);
            break;
        }
    }
    Ok(Part {
        summary,
        tally,
        new: new.findings,
        old: old.map(|o| o.findings),
        interrupted,
    })
}

/// A progress line on stderr when it is a terminal and the replay takes
/// more than a moment.
struct Progress {
    enabled: bool,
    started: Instant,
    shown: bool,
    total: usize,
}

impl Progress {
    fn new(total: usize) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            started: Instant::now(),
            shown: false,
            total,
        }
    }

    fn show(&mut self, files: usize, events: u64) {
        if !self.enabled || self.started.elapsed() < Duration::from_millis(700) {
            return;
        }
        self.shown = true;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\rreplay: {files} of {} files, {events} events…\x1b[K",
            self.total
        );
        let _ = err.flush();
    }

    fn clear(&mut self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

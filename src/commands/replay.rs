//! `hookrun replay`: recorded sessions against a policy (or two), see
//! [`crate::replay`].

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::common::{self, Printed};
use crate::cli::{OutputFormat, ReplayArgs};
use crate::exit::Exit;
use crate::replay::evaluate::Side;
use crate::replay::summary::{self, Context, Summary};
use crate::replay::{Tally, source};

/// The exit code of `--fail-on-change` when something changed: not 1
/// (hookrun could not do its job) and never 2 (2 means "block").
pub const CHANGED: u8 = 3;

pub fn run(args: &ReplayArgs) -> Printed {
    let started = Instant::now();
    let mut env = common::environment(&args.settings);
    // The project follows from each event's cwd, unless --project-dir says
    // otherwise: a replay run inside an agent session must not take that
    // session's project for every recorded one.
    env.claude_project_dir = None;
    let sources = if args.sources.is_empty() {
        match env.home.as_ref().map(|h| h.join(".claude/projects")) {
            Some(dir) if dir.is_dir() => vec![dir],
            _ => {
                return Printed::failure(
                    "no SOURCE given and ~/.claude/projects does not exist: pass transcripts, folders of them or an audit log",
                );
            }
        }
    } else {
        args.sources.iter().map(|p| env.absolute(p)).collect()
    };
    let files = match source::expand(&sources) {
        Ok(files) => files,
        Err(why) => return Printed::failure(&why),
    };
    if files.is_empty() {
        let list: Vec<String> = sources.iter().map(|p| p.display().to_string()).collect();
        return Printed::failure(&format!("no *.jsonl files in {}", list.join(", ")));
    }
    if args.run {
        // Hooks run for real: none may inherit a descriptor hookrun
        // inherited, and the person must know.
        crate::exec::InheritedFds::take_stock().close();
        eprintln!(
            "hookrun replay --run: hooks RUN for every replayed event (each in a throwaway working folder, with the usual timeouts); use it only for hooks that are safe to run again"
        );
    }
    let new_options = args.settings.source_options();
    let mut new = match Side::new(new_options.clone(), env.clone(), args.run) {
        Ok(side) => side,
        Err(err) => {
            return Printed::failure(&format!("cannot make a throwaway state folder: {err}"));
        }
    };
    let mut old = if args.against.is_empty() {
        None
    } else {
        let mut options = new_options.clone();
        // As given, like --settings: a relative path is a project file to
        // the trust rules, on both sides alike.
        options.settings.clone_from(&args.against);
        for path in &options.settings {
            if !env.absolute(path).is_file() {
                return Printed::failure(&format!(
                    "--against {}: no such settings file",
                    path.display()
                ));
            }
        }
        match Side::new(options, env.clone(), args.run) {
            Ok(side) => Some(side),
            Err(err) => {
                return Printed::failure(&format!("cannot make a throwaway state folder: {err}"));
            }
        }
    };
    let mut summary = Summary::new(args.run, old.is_some());
    let mut tally = Tally::default();
    let mut progress = Progress::new(files.len());
    let mut interrupted = None;
    for (index, path) in files.iter().enumerate() {
        if interrupted.is_some() {
            break;
        }
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
            progress.tick(index, summary.events);
        });
        progress.tick(index + 1, summary.events);
    }
    progress.clear();
    if let Some(signal) = interrupted {
        return Printed {
            stdout: String::new(),
            stderr: "hookrun: interrupted; running hooks were stopped\n".into(),
            exit: Exit::Signal(signal),
        };
    }
    let cx = Context {
        files: &files,
        tally: &tally,
        new: &new,
        old: old.as_ref(),
        new_label: label(&args.settings.settings, args.settings.no_default_settings),
        old_label: (!args.against.is_empty())
            .then(|| label(&args.against, args.settings.no_default_settings)),
        elapsed: started.elapsed(),
        show: args.show,
    };
    let stdout = match args.format {
        OutputFormat::Text => summary::text(&summary, &cx),
        OutputFormat::Json => {
            let mut out = serde_json::to_string_pretty(&summary::to_json(&summary, &cx))
                .expect("JSON values serialise");
            out.push('\n');
            out
        }
    };
    let code = if args.fail_on_change && !summary.changes.is_empty() {
        CHANGED
    } else {
        0
    };
    Printed::stdout(stdout, code)
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

/// A progress line on stderr when it is a terminal and the replay takes
/// more than a moment.
struct Progress {
    enabled: bool,
    started: Instant,
    last: Instant,
    shown: bool,
    total: usize,
    calls: u64,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let now = Instant::now();
        Progress {
            enabled: std::io::stderr().is_terminal(),
            started: now,
            last: now,
            shown: false,
            total,
            calls: 0,
        }
    }

    fn tick(&mut self, files: usize, events: u64) {
        self.calls += 1;
        // The clock is read every 256 events, not on each.
        if !self.enabled || self.calls % 256 != 0 {
            return;
        }
        let now = Instant::now();
        if now.duration_since(self.started) < Duration::from_millis(700)
            || now.duration_since(self.last) < Duration::from_millis(150)
        {
            return;
        }
        self.last = now;
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

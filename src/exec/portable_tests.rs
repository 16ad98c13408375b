//! The supervisor's guarantees (SPEC §5.3–5.6) on every system, with this
//! test binary itself as the hook: `hook_helper` below, started with
//! `--ignored --exact`, does what `HOOKRUN_TEST_HOOK` says. No shell, no
//! `/proc`: the same tests run on Linux, on macOS and on Windows (under
//! wine here, packaging/wine-test.sh).
//!
//! A hook's grandchild is a "ticker": it appends a byte to a file every
//! 50 ms for at most 15 s. A tree that was ended has a ticker whose file
//! stops growing; one left alone keeps ticking.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};

use super::{Job, JobReport, Limits, Program, Supervisor, Termination};

const MODE: &str = "HOOKRUN_TEST_HOOK";
const TICKS: &str = "HOOKRUN_TEST_TICKS";
const HELPER: &str = "exec::portable_tests::hook_helper";
const TICK: Duration = Duration::from_millis(50);

/// The variables a process needs to start at all on each system (Windows
/// wants `SystemRoot`), passed through to the helper hooks.
const PASSED: [&str; 6] = [
    "PATH",
    "SystemRoot",
    "SYSTEMROOT",
    "TEMP",
    "TMP",
    "WINEPREFIX",
];

fn helper_args() -> Vec<OsString> {
    [
        "--exact",
        HELPER,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
        "-q",
    ]
    .map(OsString::from)
    .to_vec()
}

/// What a helper hook does, chosen by `HOOKRUN_TEST_HOOK`. Run directly
/// (no variable) it does nothing.
#[test]
#[ignore = "a helper the tests start as a hook"]
fn hook_helper() {
    let Ok(mode) = std::env::var(MODE) else {
        return;
    };
    let ticks = std::env::var_os(TICKS).map(PathBuf::from);
    match mode.as_str() {
        "echo" => {
            println!("OUT-MARK");
            eprintln!("ERR-MARK");
            std::process::exit(3);
        }
        "cat" => {
            let mut input = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut input).unwrap();
            println!("GOT<{input}>");
            std::process::exit(0);
        }
        "ticker" => {
            let ticks = ticks.expect("ticker needs its file");
            let until = Instant::now() + Duration::from_secs(15);
            while Instant::now() < until {
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&ticks)
                    .unwrap();
                std::io::Write::write_all(&mut file, b".").unwrap();
                drop(file);
                std::thread::sleep(TICK);
            }
            std::process::exit(0);
        }
        // Starts a ticker (which inherits stdout and stderr), then either
        // stays (`parent`) or leaves at once (`leaver`).
        "parent" | "leaver" => {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args(helper_args())
                .env(MODE, "ticker")
                .spawn()
                .unwrap();
            println!("STARTED");
            if mode == "leaver" {
                std::process::exit(0);
            }
            std::thread::sleep(Duration::from_secs(60));
            std::process::exit(0);
        }
        other => panic!("unknown helper mode {other}"),
    }
}

struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        Place {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn ticks(&self) -> PathBuf {
        self.dir.path().join("ticks")
    }

    fn job(&self, mode: &str, stdin: &[u8], timeout: Duration) -> Job {
        let mut env: Vec<(OsString, OsString)> = PASSED
            .iter()
            .filter_map(|name| Some(((*name).into(), std::env::var_os(name)?)))
            .collect();
        env.push((MODE.into(), mode.into()));
        env.push((TICKS.into(), self.ticks().into_os_string()));
        Job {
            program: Program::Exec {
                program: std::env::current_exe()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                args: helper_args()
                    .into_iter()
                    .map(|arg| arg.to_string_lossy().into_owned())
                    .collect(),
            },
            env: env.into(),
            cwd: self.dir.path().to_owned(),
            stdin: Arc::new(stdin.to_vec().into()),
            timeout,
            kill_by: None,
        }
    }

    /// How many ticks the ticker wrote so far.
    fn ticked(&self) -> u64 {
        std::fs::metadata(self.ticks()).map_or(0, |meta| meta.len())
    }

    /// The ticker ran, and has stopped: its file does not grow over ten
    /// ticks.
    fn assert_ticker_ended(&self) {
        let before = self.ticked();
        assert!(before > 0, "the hook's grandchild never ran");
        std::thread::sleep(TICK * 10);
        assert_eq!(self.ticked(), before, "the hook's grandchild still runs");
    }
}

fn run(jobs: Vec<Job>, limits: &Limits) -> (Vec<JobReport>, Duration) {
    let _signals = super::SIGNAL_LOCK
        .read()
        .unwrap_or_else(PoisonError::into_inner);
    let mut supervisor = Supervisor::new().expect("supervisor");
    let started = Instant::now();
    let reports = supervisor.run(jobs, limits);
    (reports, started.elapsed())
}

/// Limits for a hook that leaves nothing behind: a generous leak timeout,
/// so that a loaded machine (or wine) reading the end of the output late
/// is not taken for a leak.
fn patient() -> Limits {
    Limits {
        leak_timeout: Duration::from_secs(5),
        ..Limits::default()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn output_and_the_exit_code_are_read() {
    let place = Place::new();
    let (mut reports, _) = run(
        vec![place.job("echo", b"", Duration::from_secs(60))],
        &patient(),
    );
    let report = reports.remove(0);
    assert_eq!(report.termination, Termination::Exited(3), "{report:?}");
    assert!(
        text(&report.stdout.bytes).contains("OUT-MARK"),
        "{report:?}"
    );
    assert!(
        text(&report.stderr.bytes).contains("ERR-MARK"),
        "{report:?}"
    );
    assert!(!report.timed_out && !report.killed && !report.leaked);
}

#[test]
fn stdin_reaches_the_hook_whole() {
    let place = Place::new();
    // More than a pipe holds, so that the feed has to wait for the reader.
    let input = "x".repeat(200_000);
    let (mut reports, _) = run(
        vec![place.job("cat", input.as_bytes(), Duration::from_secs(60))],
        &patient(),
    );
    let report = reports.remove(0);
    assert_eq!(report.termination, Termination::Exited(0), "{report:?}");
    assert!(
        text(&report.stdout.bytes).contains(&format!("GOT<{input}>")),
        "{} bytes of stdout",
        report.stdout.bytes.len()
    );
    assert!(!report.stdin_unread, "{report:?}");
    assert!(!report.interrupted, "{report:?}");
}

#[test]
fn a_timed_out_hook_is_ended_with_its_grandchildren() {
    let place = Place::new();
    let limits = Limits {
        kill_grace: Duration::from_secs(1),
        ..Limits::default()
    };
    let timeout = Duration::from_secs(8);
    let (mut reports, elapsed) = run(vec![place.job("parent", b"", timeout)], &limits);
    let report = reports.remove(0);
    assert!(report.timed_out, "{report:?}");
    assert!(text(&report.stdout.bytes).contains("STARTED"), "{report:?}");
    // The timeout, the grace and a margin for a slow machine; far from the
    // 60 s the hook would sleep.
    assert!(elapsed < timeout + Duration::from_secs(8), "{elapsed:?}");
    assert!(elapsed >= timeout, "{elapsed:?}");
    place.assert_ticker_ended();
}

#[test]
fn the_deadline_ends_a_hook_before_its_timeout() {
    let place = Place::new();
    let mut job = place.job("parent", b"", Duration::from_secs(60));
    let deadline = Duration::from_secs(8);
    job.kill_by = Some(Instant::now() + deadline);
    let (mut reports, elapsed) = run(vec![job], &Limits::default());
    let report = reports.remove(0);
    assert!(report.timed_out, "{report:?}");
    assert!(elapsed < deadline + Duration::from_secs(4), "{elapsed:?}");
    place.assert_ticker_ended();
}

#[test]
fn a_grandchild_holding_the_output_neither_holds_the_answer_nor_is_killed() {
    let place = Place::new();
    let limits = Limits {
        leak_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let (mut reports, elapsed) = run(
        vec![place.job("leaver", b"", Duration::from_secs(60))],
        &limits,
    );
    let report = reports.remove(0);
    assert_eq!(report.termination, Termination::Exited(0), "{report:?}");
    assert!(report.leaked, "{report:?}");
    assert!(!report.timed_out && !report.killed, "{report:?}");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    // What a hook leaves running on purpose is not hookrun's to end.
    let until = Instant::now() + Duration::from_secs(10);
    while place.ticked() == 0 && Instant::now() < until {
        std::thread::sleep(TICK);
    }
    let before = place.ticked();
    assert!(before > 0, "the hook's grandchild never ran");
    std::thread::sleep(TICK * 10);
    assert!(place.ticked() > before, "the grandchild was ended");
}

#[test]
fn a_missing_program_fails_alone() {
    let place = Place::new();
    let mut missing = place.job("echo", b"", Duration::from_secs(60));
    missing.program = Program::Exec {
        program: place
            .dir
            .path()
            .join("no-such-program")
            .to_string_lossy()
            .into_owned(),
        args: Vec::new(),
    };
    let (reports, _) = run(
        vec![missing, place.job("echo", b"", Duration::from_secs(60))],
        &Limits::default(),
    );
    assert!(
        matches!(&reports[0].termination, Termination::SpawnFailed(why) if why.contains("no-such-program")),
        "{:?}",
        reports[0]
    );
    assert_eq!(reports[1].termination, Termination::Exited(3));
}

//! Process supervision end to end (SPEC §5.1–5.6, issue 3): the real binary
//! against the hooks in `fixtures/hooks/misbehaving/`.
//!
//! Timing is synchronised through pid files the hooks write, never through
//! sleeps, and every bound is generous both ways: the machine is shared and
//! noisy, so a bound only says "waited for the mechanism, not for the slow
//! thing". Leftover processes are killed by a [`Leftovers`] guard, by pid,
//! and only when their environment proves they came from this sandbox.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::{Value, json};

use crate::support::{Run, Sandbox, fixture, hooks, read_when_ready};

/// Added to every upper bound: what a loaded two-core machine may add to a
/// mechanism that itself takes milliseconds.
const SLACK: Duration = Duration::from_secs(4);

/// Shell-quoted path of a fixture in `fixtures/hooks/misbehaving/`.
fn misbehaving(script: &str) -> String {
    quote(&fixture(&format!("hooks/misbehaving/{script}")))
}

fn quote(path: &Path) -> String {
    let text = path.to_str().expect("test paths are UTF-8");
    assert!(!text.contains('\''), "{text}");
    format!("'{text}'")
}

/// `hookrun fire EVENT --no-default-settings --settings FILE EXTRA...`.
fn fire_with(sb: &Sandbox, event: &str, settings: &Value, fields: &Value, extra: &[&str]) -> Run {
    let file = sb.settings(settings);
    let mut args = vec![
        "fire",
        event,
        "--no-default-settings",
        "--settings",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    sb.run(&args, &sb.event(event, fields))
}

/// A report's `run` object of the hook `name`.
fn run_of(run: &Run, name: &str) -> Value {
    let hook = run.hook(name);
    assert!(hook["run"].is_object(), "{name} did not run: {hook}");
    hook["run"].clone()
}

fn millis(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

/// The scheduler state of `pid` (`R`, `S`, `Z`…), `None` once it is gone:
/// from `/proc` where there is one, else from `ps` (macOS), so that no
/// check here passes for want of a `/proc`.
fn proc_state(pid: i32) -> Option<char> {
    if !std::path::Path::new("/proc/self/stat").exists() {
        let out = std::process::Command::new("ps")
            .args(["-o", "stat=", "-p", &pid.to_string()])
            .output()
            .expect("ps runs");
        return String::from_utf8_lossy(&out.stdout).trim().chars().next();
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: count after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_ascii_whitespace().next()?.chars().next()
}

/// Gone, or a zombie (PID 1 in these containers may never reap orphans).
fn is_dead(pid: i32) -> bool {
    proc_state(pid).is_none_or(|state| matches!(state, 'Z' | 'X' | 'x'))
}

/// A process killed by SIGKILL takes a moment to become a zombie: waits up
/// to 2 s.
fn dies_soon(pid: i32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while !is_dead(pid) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// Waits for the pid file `dir/NAME.pid` and reads it.
fn pid_in(dir: &Path, name: &str) -> i32 {
    let path = dir.join(format!("{name}.pid"));
    read_when_ready(&path)
        .trim()
        .parse()
        .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// Kills, when dropped, every live process whose pid a hook wrote into a
/// `*.pid` file of one of its folders, provided its environment carries this
/// sandbox's `HOME` (so a recycled pid is never someone else's process).
struct Leftovers {
    dirs: Vec<PathBuf>,
    marker: Vec<u8>,
    root: PathBuf,
}

impl Leftovers {
    fn new(sb: &Sandbox) -> Leftovers {
        let mut marker = b"HOME=".to_vec();
        marker.extend_from_slice(sb.home.as_os_str().as_encoded_bytes());
        Leftovers {
            dirs: Vec::new(),
            marker,
            root: sb.path("pids"),
        }
    }

    /// A fresh folder for pid files, watched by the guard.
    fn dir(&mut self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        self.dirs.push(dir.clone());
        dir
    }

    fn ours(&self, pid: i32) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|environ| environ.split(|&b| b == 0).any(|var| var == self.marker))
    }
}

impl Drop for Leftovers {
    fn drop(&mut self) {
        for dir in &self.dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                if entry.path().extension() != Some(OsStr::new("pid")) {
                    continue;
                }
                let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
                for pid in text
                    .lines()
                    .filter_map(|line| line.trim().parse::<i32>().ok())
                {
                    if !is_dead(pid) && self.ours(pid) {
                        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
                    }
                }
            }
        }
    }
}

/// hookrun running in the background, its stdout and stderr read to end of
/// file by threads. Killed when dropped if it is still running.
struct Background {
    child: Child,
    started: Instant,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

impl Background {
    fn start(mut command: Command, stdin: Vec<u8>) -> Background {
        let started = Instant::now();
        let piped = crate::support::spawn_piped(&mut command, stdin);
        Background {
            child: piped.child,
            started,
            stdout: Some(piped.stdout),
            stderr: Some(piped.stderr),
        }
    }

    fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).unwrap()
    }

    fn signal(&self, signal: Signal) {
        kill(Pid::from_raw(self.pid()), signal).expect("signal hookrun");
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    /// Waits at most `limit` for hookrun to exit.
    fn wait_for(&mut self, limit: Duration) -> Option<Run> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                let text = |handle: Option<JoinHandle<Vec<u8>>>| {
                    String::from_utf8_lossy(&handle.map(|h| h.join().unwrap()).unwrap_or_default())
                        .into_owned()
                };
                return Some(Run {
                    code: status.code(),
                    stdout: text(self.stdout.take()),
                    stderr: text(self.stderr.take()),
                    elapsed: self.started.elapsed(),
                });
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if self.running() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `hookrun fire EVENT --no-default-settings --settings FILE EXTRA...` in
/// the background.
fn start_fire(sb: &Sandbox, event: &str, settings: &Value, extra: &[&str]) -> Background {
    start_fire_with(sb, event, settings, &json!({}), extra)
}

fn start_fire_with(
    sb: &Sandbox,
    event: &str,
    settings: &Value,
    fields: &Value,
    extra: &[&str],
) -> Background {
    let file = sb.settings(settings);
    let mut command = sb.command();
    command
        .args([
            "fire",
            event,
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ])
        .args(extra);
    Background::start(command, sb.event(event, fields))
}

// --- Timeouts (SPEC §5.3) ---------------------------------------------------

/// Catches the nextest/watchexec gap: escalation that stops once `sh` (the
/// leader) died of SIGTERM, leaving a TERM-ignoring child alive; and a
/// SIGKILL sent without waiting for the grace.
#[test]
fn a_timeout_escalates_to_sigkill_even_after_the_shell_died() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let dir = leftovers.dir("stubborn");
    let settings = hooks(
        "Stop",
        json!([{"name": "stubborn", "timeout": 1,
                "command": format!("{} {}", misbehaving("ignore-term.sh"), quote(&dir))}]),
    );
    let run = fire_with(
        &sb,
        "Stop",
        &settings,
        &json!({}),
        &["--kill-grace", "1s", "--format", "report"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let child = pid_in(&dir, "child");
    let shell = pid_in(&dir, "sh");
    let report = run_of(&run, "stubborn");
    assert_eq!(report["timed_out"], true, "{report}");
    assert_eq!(report["killed"], true, "SIGKILL was needed: {report}");
    // Timeout (1 s) + the whole grace (1 s): the child outlived SIGTERM.
    let took = millis(&report["duration_ms"]);
    assert!(
        took >= 1900.0 && took < (2.0 + SLACK.as_secs_f64()) * 1000.0,
        "{took} ms"
    );
    assert!(dies_soon(child), "the TERM-ignoring child {child} survived");
    assert!(dies_soon(shell), "the hook's shell {shell} survived");
    assert!(
        run.json()["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w == "hook stubborn failed (timed out after 1 s)"),
        "{}",
        run.stdout
    );
}

/// Catches zombies counted as live members (`killpg(pgid, 0)` succeeds on
/// zombies, and PID 1 here never reaps orphans): every member died of
/// SIGTERM, so the 10 s grace must not be waited out.
#[test]
fn a_group_that_dies_of_sigterm_returns_at_the_timeout_not_after_the_grace() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let dir = leftovers.dir("mortal");
    let settings = hooks(
        "Stop",
        json!([{"name": "mortal", "timeout": 1,
                "command": format!("{} {}", misbehaving("die-on-term.sh"), quote(&dir))}]),
    );
    let run = fire_with(
        &sb,
        "Stop",
        &settings,
        &json!({}),
        &["--kill-grace", "10s", "--format", "report"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let report = run_of(&run, "mortal");
    assert_eq!(report["timed_out"], true, "{report}");
    assert_eq!(report["killed"], false, "no SIGKILL was needed: {report}");
    let took = millis(&report["duration_ms"]);
    assert!(
        took >= 900.0 && took < (1.0 + SLACK.as_secs_f64()) * 1000.0,
        "{took} ms: waited for the grace?"
    );
    for name in ["first", "second", "sh"] {
        let pid = pid_in(&dir, name);
        assert!(is_dead(pid), "{name} ({pid}) is alive after SIGTERM");
    }
}

/// Catches a timeout path that reads the pipes to end of file: a process
/// that left the group (setsid) holds them for 30 s more.
#[test]
fn a_timeout_never_waits_for_a_process_that_left_the_group() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let dir = leftovers.dir("escape");
    let settings = hooks(
        "Stop",
        json!([{"name": "escape", "timeout": 1,
                "command": format!("{} {} 30", misbehaving("escape-group.sh"), quote(&dir))}]),
    );
    let run = fire_with(
        &sb,
        "Stop",
        &settings,
        &json!({}),
        &["--kill-grace", "500ms", "--format", "report"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.elapsed >= Duration::from_millis(900)
            && run.elapsed < Duration::from_millis(1500) + SLACK,
        "{:?}",
        run.elapsed
    );
    assert_eq!(run_of(&run, "escape")["timed_out"], true);
    // Not signalled (it is not in the group) and still holding the pipes:
    // the scenario really happened.
    let escaped = pid_in(&dir, "escaped");
    assert!(!is_dead(escaped), "the escaped process {escaped} is gone");
}

// --- After a normal exit (SPEC §5.4) -----------------------------------------

/// Catches waiting for end of file after a normal exit (30 s here), losing
/// the output written before exit, killing the leftovers (a hook may start
/// a daemon on purpose), not warning, and ignoring `--leak-timeout`.
#[test]
fn leftovers_holding_the_output_are_reported_not_waited_for_or_killed() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let dir = leftovers.dir("leak");
    let hook = |name: &str| {
        hooks(
            "Stop",
            json!([{"name": "leaky", "timeout": 60,
                    "command": format!("{} {} 30 {name}", misbehaving("leave-background.sh"), quote(&dir))}]),
        )
    };

    let run = fire_with(
        &sb,
        "Stop",
        &hook("report"),
        &json!({}),
        &["--format", "report"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.elapsed < SLACK, "{:?}", run.elapsed);
    let report = run_of(&run, "leaky");
    assert_eq!(report["leaked"], true, "{report}");
    assert_eq!(report["timed_out"], false, "{report}");
    assert_eq!(report["stdout"], "ok\n", "output before exit is kept");
    let took = millis(&report["duration_ms"]);
    // The 100 ms drain, plus a shell that forked and renamed a file.
    assert!((90.0..3000.0).contains(&took), "{took} ms, expected ~100");
    let background = pid_in(&dir, "report");
    assert!(!is_dead(background), "hookrun killed the background job");

    let run = fire_with(&sb, "Stop", &hook("protocol"), &json!({}), &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.system_message()
            .contains("hook leaky left processes holding its output"),
        "{run:?}"
    );
    assert!(!is_dead(pid_in(&dir, "protocol")));

    // The drain lasts as long as --leak-timeout says.
    let run = fire_with(
        &sb,
        "Stop",
        &hook("long"),
        &json!({}),
        &["--format", "report", "--leak-timeout", "1s"],
    );
    let took = millis(&run_of(&run, "leaky")["duration_ms"]);
    assert!(
        took >= 950.0 && took < (1.0 + SLACK.as_secs_f64()) * 1000.0,
        "{took} ms"
    );
}

// --- Pipes (SPEC §5.5) ---------------------------------------------------------

/// Catches a blocking stdin write: the pipe holds 64 KiB, so hookrun would
/// stall on a hook that never reads, and deadlock with one that never reads
/// and fills its stdout (each waiting for the other; the timeout cannot fire
/// from inside a blocked write). Also a lost tail of the event for a hook
/// that reads it all, and EPIPE reported as a problem.
#[test]
fn an_eight_mebibyte_event_never_deadlocks_stdin() {
    let sb = Sandbox::new();
    let count = sb.path("wc.txt");
    let settings = hooks(
        "PreToolUse",
        json!([
            {"name": "never-reads", "timeout": 20, "command": "sleep 0.3; exit 0"},
            {"name": "exits-at-once", "timeout": 20, "command": "exit 0"},
            {"name": "reads-all", "timeout": 20, "command": format!("wc -c > {}", quote(&count))},
            {"name": "writes-instead", "timeout": 20, "command": "head -c 2000000 /dev/zero; exit 0"}
        ]),
    );
    let fields = json!({"tool_name": "Write", "tool_input": {"file_path": "/tmp/big", "content": "x".repeat(8 << 20)}});
    // Compact JSON and a newline, exactly what the hooks get.
    let expected = sb.event("PreToolUse", &fields).len();
    assert!(expected > 8 << 20);

    let mut fire = start_fire_with(
        &sb,
        "PreToolUse",
        &settings,
        &fields,
        &["--format", "report"],
    );
    let finished = fire
        .wait_for(Duration::from_secs(4) + SLACK)
        .expect("hookrun is stuck feeding stdin");
    assert_eq!(finished.code, Some(0), "{finished:?}");
    assert!(finished.elapsed >= Duration::from_millis(300));
    for name in [
        "never-reads",
        "exits-at-once",
        "reads-all",
        "writes-instead",
    ] {
        let run = run_of(&finished, name);
        assert_eq!(run["exit_code"], 0, "{name}: {run}");
        assert_eq!(run["timed_out"], false, "{name}: {run}");
    }
    assert!(millis(&run_of(&finished, "never-reads")["duration_ms"]) >= 290.0);
    assert_eq!(
        run_of(&finished, "writes-instead")["stdout_bytes"],
        2_000_000
    );
    let counted: usize = std::fs::read_to_string(&count)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(counted, expected, "wc -c saw every byte of the event");
    let report = finished.json();
    assert_eq!(report["warnings"], json!([]), "EPIPE is normal");
    assert_eq!(report["output"], json!({}));
}

/// Peak resident memory of a running process, in KiB.
fn peak_rss_kib(pid: i32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Catches an uncapped capture (1 GB held in memory), a capture that stops
/// reading at the cap (the hook would block on a full pipe until its
/// timeout) and a byte count that stops at the cap.
#[test]
fn a_gigabyte_of_output_costs_constant_memory_and_is_counted() {
    const GIGABYTE: u64 = 1_000_000_000;
    if !std::path::Path::new("/proc/self/status").exists() {
        crate::support::skipped(
            "a_gigabyte_of_output_costs_constant_memory_and_is_counted: it samples hookrun's \
             peak memory in /proc/PID/status, which this system does not have",
        );
        return;
    }
    let sb = Sandbox::new();
    let settings = hooks(
        "Stop",
        json!([{"name": "flood", "timeout": 60, "command": format!("head -c {GIGABYTE} /dev/zero")}]),
    );
    let mut fire = start_fire(&sb, "Stop", &settings, &["--format", "report"]);
    // VmHWM is a high-water mark: the last reading before exit is the peak
    // so far, and an uncapped capture grows with every byte read.
    let mut peak = None;
    let finished = loop {
        if let Some(kib) = peak_rss_kib(fire.pid()) {
            peak = Some(kib);
        }
        if let Some(finished) = fire.wait_for(Duration::ZERO) {
            break finished;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let peak = peak.expect("hookrun's memory was never sampled");
    // hookrun itself is ~10 MiB; the kept capture is 1 MiB.
    assert!(peak < 64 * 1024, "peak RSS {peak} KiB for 1 GB of output");
    assert_eq!(finished.code, Some(0), "{finished:?}");
    let run = &run_of(&finished, "flood");
    assert_eq!(run["exit_code"], 0, "{run}");
    assert_eq!(run["timed_out"], false, "{run}");
    assert_eq!(run["stdout_bytes"], GIGABYTE, "{run}");
    assert_eq!(run["stdout_truncated"], true, "{run}");
}

/// Catches parsing the kept start of a cut stdout: a deny whose end was cut
/// off must not deny (nor be read as anything), and the cut must show.
#[test]
fn a_cut_stdout_is_never_a_decision() {
    let sb = Sandbox::new();
    let settings = hooks(
        "PreToolUse",
        json!([{"name": "padded", "command": misbehaving("padded-deny.sh")}]),
    );
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
    // Whole (under the default 1 MiB cap) it denies: the fixture works.
    let run = fire_with(&sb, "PreToolUse", &settings, &fields, &[]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr, "padded deny\n");

    let run = fire_with(
        &sb,
        "PreToolUse",
        &settings,
        &fields,
        &["--output-cap", "64KiB"],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stderr, "");
    let json = run.json();
    assert!(json.get("hookSpecificOutput").is_none(), "{json}");
    assert!(
        run.system_message().contains(
            "hook padded: its output was cut at the capture limit and is not parsed as a decision"
        ),
        "{run:?}"
    );

    let run = fire_with(
        &sb,
        "PreToolUse",
        &settings,
        &fields,
        &["--output-cap", "64KiB", "--format", "report"],
    );
    let report = run_of(&run, "padded");
    assert_eq!(report["stdout_truncated"], true, "{report}");
    assert!(
        report["stdout_bytes"].as_u64().unwrap() > 100_000,
        "every byte is counted: {report}"
    );
    assert_eq!(run.json()["decision"], "none");
}

// --- Environment (SPEC §5.2) -------------------------------------------------

fn env_value(dump: &str, key: &str) -> Option<String> {
    dump.lines()
        .find_map(|line| line.strip_prefix(&format!("{key}=")).map(str::to_owned))
}

/// Catches E2BIG (exec refuses a single environment string over 128 KiB, so
/// the hook would not start), an inherited huge variable passed on as is,
/// and an off-by-one at the 32 KiB limit.
#[test]
fn big_environment_values_are_left_out_and_flagged() {
    let mut sb = Sandbox::new();
    let limit = 32 * 1024;
    sb.env("IT_HUGE_FROM_HOST", &"h".repeat(100 * 1024))
        .env("IT_AT_LIMIT", &"a".repeat(limit))
        .env("IT_OVER_LIMIT", &"o".repeat(limit + 1));
    let dump = sb.path("env.txt");
    let settings = hooks(
        "PreToolUse",
        json!([{"name": "envdump", "timeout": 30, "command": format!("env > {}", quote(&dump))}]),
    );
    let fields = json!({"tool_name": "Write", "tool_input": {"file_path": "/tmp/x", "content": "w".repeat(300 * 1024)}});
    let run = fire_with(&sb, "PreToolUse", &settings, &fields, &[]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "{}\n"),
        "{run:?}"
    );
    let env = std::fs::read_to_string(&dump).expect("the hook ran");
    for (key, truncated) in [
        ("HOOKRUN_TOOL_INPUT", true),
        ("IT_HUGE_FROM_HOST", true),
        ("IT_OVER_LIMIT", true),
        ("IT_AT_LIMIT", false),
    ] {
        let flag = env_value(&env, &format!("{key}_TRUNCATED"));
        if truncated {
            assert_eq!(env_value(&env, key), None, "{key} was passed on");
            assert_eq!(flag.as_deref(), Some("1"), "{key}");
        } else {
            assert_eq!(env_value(&env, key).map(|v| v.len()), Some(limit), "{key}");
            assert_eq!(flag, None, "{key}");
        }
    }
}

// --- hookrun interrupted (SPEC §5.6) -----------------------------------------

fn stubborn_pair(leftovers: &mut Leftovers, prefix: &str) -> (Value, [PathBuf; 2]) {
    let dirs = [
        leftovers.dir(&format!("{prefix}-a")),
        leftovers.dir(&format!("{prefix}-b")),
    ];
    let settings = hooks(
        "Stop",
        json!(
            dirs.iter()
                .enumerate()
                .map(|(i, dir)| json!({
                    "name": format!("stubborn-{i}"), "timeout": 60,
                    "command": format!("{} {}", misbehaving("ignore-term.sh"), quote(dir))
                }))
                .collect::<Vec<_>>()
        ),
    );
    (settings, dirs)
}

/// Waits until both hooks of a [`stubborn_pair`] wrote their pids.
fn pids_of(dirs: &[PathBuf; 2]) -> Vec<(String, i32)> {
    let mut pids = Vec::new();
    for dir in dirs {
        for name in ["sh", "child"] {
            pids.push((format!("{}/{name}", dir.display()), pid_in(dir, name)));
        }
    }
    pids
}

/// Catches a signal that kills hookrun and orphans the hooks, a forward to
/// only one hook, a forward without escalation (the TERM-ignoring children
/// survive), and a wrong exit code, for each of the three signals.
#[test]
fn an_interrupted_hookrun_stops_every_hook_and_exits_128_plus_the_signal() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        let (settings, dirs) = stubborn_pair(&mut leftovers, signal.as_str());
        let mut fire = start_fire(&sb, "Stop", &settings, &["--kill-grace", "500ms"]);
        let pids = pids_of(&dirs);
        assert!(fire.running(), "{signal}: hookrun ended on its own");
        let sent = Instant::now();
        fire.signal(signal);
        let finished = fire
            .wait_for(Duration::from_millis(500) + SLACK)
            .unwrap_or_else(|| panic!("{signal}: hookrun did not exit"));
        let took = sent.elapsed();
        assert_eq!(
            finished.code,
            Some(128 + signal as i32),
            "{signal}: {}",
            finished.stderr
        );
        assert!(
            took >= Duration::from_millis(400),
            "{signal}: exited after {took:?}, before the grace"
        );
        assert!(
            finished
                .stderr
                .contains(&format!("interrupted by {signal}")),
            "{signal}: {}",
            finished.stderr
        );
        assert_eq!(finished.stdout, "", "{signal}");
        for (name, pid) in pids {
            assert!(dies_soon(pid), "{signal}: {name} ({pid}) survived hookrun");
        }
    }
}

/// Catches a second signal that is only recorded: with a 30 s grace,
/// hookrun would wait it out while its host is trying to stop it.
#[test]
fn a_second_signal_kills_the_hooks_at_once() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let (settings, dirs) = stubborn_pair(&mut leftovers, "twice");
    let mut fire = start_fire(&sb, "Stop", &settings, &["--kill-grace", "30s"]);
    let pids = pids_of(&dirs);
    fire.signal(Signal::SIGTERM);
    // In the grace: the shells died, the children ignore SIGTERM, hookrun
    // waits.
    let shells: Vec<i32> = pids
        .iter()
        .filter(|(name, _)| name.ends_with("/sh"))
        .map(|&(_, pid)| pid)
        .collect();
    for &pid in &shells {
        assert!(dies_soon(pid), "shell {pid} did not die of SIGTERM");
    }
    std::thread::sleep(Duration::from_millis(200));
    assert!(fire.running(), "hookrun did not wait for the grace");
    let sent = Instant::now();
    fire.signal(Signal::SIGTERM);
    let finished = fire
        .wait_for(Duration::from_secs(3))
        .expect("hookrun still waits for the 30 s grace after a second signal");
    assert!(sent.elapsed() < Duration::from_secs(3));
    assert_eq!(finished.code, Some(128 + Signal::SIGTERM as i32));
    for (name, pid) in pids {
        assert!(dies_soon(pid), "{name} ({pid}) survived");
    }
}

// --- hookrun's own stdio (SPEC §5.1) -----------------------------------------

/// Catches a hook that inherits hookrun's stdout: the host's read would
/// then wait for the 30 s background job, long after hookrun exited.
#[test]
fn a_leftover_never_holds_hookruns_own_output() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let dir = leftovers.dir("stdio");
    let settings = hooks(
        "Stop",
        json!([{"name": "bg", "timeout": 60,
                "command": format!("{} {} 30", misbehaving("leave-background.sh"), quote(&dir))}]),
    );
    // `run` reads hookrun's stdout and stderr to end of file, then waits.
    let run = fire_with(&sb, "Stop", &settings, &json!({}), &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.elapsed < SLACK, "end of file after {:?}", run.elapsed);
    let background = pid_in(&dir, "background");
    assert!(
        !is_dead(background),
        "the background job that could have held the pipe is gone"
    );
}

// --- Failures (SPEC §6.1) ----------------------------------------------------

/// Catches a crash, a signal or an escalated timeout that vanishes (no
/// warning), is not named, or ignores `onError: "block"`.
#[test]
fn crashes_signals_and_timeouts_are_named_warnings_or_blocks() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let dir = leftovers.dir("failures");
    let cases = [
        ("crash", "kill -SEGV $$".to_owned(), "killed by SIGSEGV"),
        ("signalled", "kill -TERM $$".to_owned(), "killed by SIGTERM"),
        (
            "stubborn",
            format!("{} {}", misbehaving("ignore-term.sh"), quote(&dir)),
            "timed out after 1 s",
        ),
    ];
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
    for (name, command, cause) in cases {
        let words = format!("hook {name} failed ({cause})");
        for on_error in ["allow", "block"] {
            let settings = hooks(
                "PreToolUse",
                json!([{"name": name, "command": command, "timeout": 1, "onError": on_error}]),
            );
            let run = fire_with(
                &sb,
                "PreToolUse",
                &settings,
                &fields,
                &["--kill-grace", "200ms"],
            );
            if on_error == "allow" {
                assert_eq!(run.code, Some(0), "{name}: {run:?}");
                assert!(run.system_message().contains(&words), "{name}: {run:?}");
                assert!(run.json().get("hookSpecificOutput").is_none(), "{name}");
            } else {
                assert_eq!(run.code, Some(2), "{name} blocks: {run:?}");
                assert!(run.stderr.contains(&words), "{name}: {run:?}");
                assert_eq!(
                    run.json()["hookSpecificOutput"]["permissionDecision"],
                    "deny",
                    "{name}"
                );
            }
        }
    }
}

// --- Parallel and sequential (SPEC §5.1) --------------------------------------

/// `(start, end)` of each stamped hook, in seconds since the epoch.
fn stamps(dir: &Path, count: usize) -> Vec<(f64, f64)> {
    (0..count)
        .map(|i| {
            let read = |what: &str| -> f64 {
                read_when_ready(&dir.join(format!("h{i}.{what}")))
                    .trim()
                    .parse()
                    .unwrap()
            };
            (read("start"), read("end"))
        })
        .collect()
}

fn stamped(dir: &Path, count: usize, seconds: &str, sequential_at: Option<usize>) -> Value {
    let list: Vec<Value> = (0..count)
        .map(|i| {
            json!({
                "name": format!("h{i}"), "timeout": 30,
                "command": format!("{} {} h{i} {seconds}", misbehaving("stamp.sh"), quote(dir)),
                "sequential": sequential_at == Some(i),
            })
        })
        .collect();
    hooks("Stop", json!(list))
}

/// Catches hooks that are started, or waited for, one at a time.
#[test]
fn parallel_hooks_really_run_at_the_same_time() {
    let sb = Sandbox::new();
    let dir = sb.path("parallel");
    std::fs::create_dir_all(&dir).unwrap();
    let run = fire_with(&sb, "Stop", &stamped(&dir, 4, "1", None), &json!({}), &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.elapsed >= Duration::from_millis(900) && run.elapsed < Duration::from_millis(2500),
        "4 hooks of 1 s took {:?}",
        run.elapsed
    );
    let times = stamps(&dir, 4);
    let last_start = times.iter().map(|t| t.0).fold(f64::MIN, f64::max);
    let first_end = times.iter().map(|t| t.1).fold(f64::MAX, f64::min);
    assert!(last_start < first_end, "all four overlapped: {times:?}");
}

/// Catches `sequential` honoured only on the hook that sets it (or not at
/// all), and a next hook started before the previous one ended.
#[test]
fn sequential_on_any_matched_hook_runs_them_one_after_another() {
    let sb = Sandbox::new();
    let dir = sb.path("sequential");
    std::fs::create_dir_all(&dir).unwrap();
    let run = fire_with(
        &sb,
        "Stop",
        &stamped(&dir, 4, "0.4", Some(2)),
        &json!({}),
        &[],
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.elapsed >= Duration::from_millis(1500),
        "4 hooks of 0.4 s took {:?}",
        run.elapsed
    );
    let times = stamps(&dir, 4);
    for pair in times.windows(2) {
        assert!(
            pair[0].1 <= pair[1].0,
            "overlap or out of load order: {times:?}"
        );
    }
}

// --- Descriptors hookrun inherited (SPEC §5.1) --------------------------------

/// `sh` with the sandbox's clean environment and working directory, to hand
/// hookrun extra descriptors the way a host can.
fn shell_like_host(sb: &Sandbox) -> Command {
    let base = sb.command();
    let mut shell = Command::new("sh");
    shell.env_clear();
    for (key, value) in base.get_envs() {
        if let Some(value) = value {
            shell.env(key, value);
        }
    }
    if let Some(dir) = base.get_current_dir() {
        shell.current_dir(dir);
    }
    shell
}

/// Catches descriptors hookrun inherited without close-on-exec reaching
/// the hooks (a leftover grandchild then holds the host's pipe open, here
/// for 30 s), and closing them too early: the settings are read through one
/// of them.
#[test]
fn hooks_get_no_descriptor_hookrun_inherited() {
    let sb = Sandbox::new();
    let mut leftovers = Leftovers::new(&sb);
    let dir = leftovers.dir("fds");
    let listing = dir.join("fds.txt");
    let settings = sb.settings(&hooks(
        "Stop",
        json!([{"name": "fds", "timeout": 60, "command": format!(
            "ls /dev/fd > {}; sleep 30 </dev/null >/dev/null 2>&1 & echo $! > {}",
            quote(&listing),
            quote(&dir.join("holder.pid"))
        )}]),
    ));
    // 7 carries the settings, 9 is the host's own stdout pipe again.
    let mut host = shell_like_host(&sb);
    host.arg("-c")
        .arg(r#"exec "$0" fire Stop --no-default-settings --settings /dev/fd/7 7<"$1" 9>&1"#)
        .arg(crate::support::BIN)
        .arg(&settings);
    let run = crate::support::run_command(&mut host, &sb.event("Stop", &json!({})));
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "{}\n"),
        "{run:?}"
    );
    let fds: Vec<i32> = std::fs::read_to_string(&listing)
        .expect("the hook from /dev/fd/7 ran")
        .split_whitespace()
        .map(|fd| fd.parse().unwrap())
        .collect();
    assert!(!fds.contains(&7) && !fds.contains(&9), "hook saw {fds:?}");
    // 0-2 are the hook's pipes; `ls` itself opens one to read the listing.
    let above_stderr: Vec<i32> = fds.iter().copied().filter(|&fd| fd > 2).collect();
    assert!(above_stderr.len() <= 1, "hook saw {fds:?}");
    assert!(
        run.elapsed < SLACK,
        "the host's pipe reached end of file after {:?}",
        run.elapsed
    );
    let holder = pid_in(&dir, "holder");
    assert!(
        !is_dead(holder),
        "the leftover that could hold fd 9 is gone"
    );
}

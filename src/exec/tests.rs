//! Behaviour of `exec` against real processes (SPEC §5.1, §5.3–5.6).
//!
//! Timing: hooks write pid files and tests wait for those, never for a fixed
//! time; bounds are asserted both ways with margins for two noisy cores.
//! Everything a hook leaves behind is killed by [`Sandbox`]'s Drop.
//!
//! Signals to the test process reach every live `Supervisor`, so tests that
//! send them hold [`exclusive`] and every other test holds [`shared`].

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, raise};
use nix::unistd::{Pid, getpid};

use super::spawn::{SpawnError, find_program};
use super::{Job, JobReport, Limits, Program, Supervisor, Termination};
use crate::event::Bytes;
use crate::platform::testing;

use super::SIGNAL_LOCK;

fn shared() -> RwLockReadGuard<'static, ()> {
    SIGNAL_LOCK.read().unwrap_or_else(PoisonError::into_inner)
}

fn exclusive() -> RwLockWriteGuard<'static, ()> {
    SIGNAL_LOCK.write().unwrap_or_else(PoisonError::into_inner)
}

const TEST_PATH: &str = "/usr/local/bin:/usr/bin:/bin";
const SIGTERM: i32 = Signal::SIGTERM as i32;
const SIGKILL: i32 = Signal::SIGKILL as i32;

/// A temporary working directory for hooks; on drop, kills every `sleep` or
/// `sh` whose pid a hook wrote to a `*.pid` file there.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn job(&self, program: Program) -> Job {
        Job {
            program,
            env: vec![("PATH".into(), TEST_PATH.into())].into(),
            cwd: self.dir.path().to_owned(),
            stdin: Arc::new(Vec::new().into()),
            timeout: Duration::from_secs(60),
            kill_by: None,
        }
    }

    fn sh(&self, script: &str) -> Job {
        self.job(Program::Shell {
            shell: "sh".into(),
            script: script.into(),
        })
    }

    /// Waits (up to 20 s) until a hook has written a pid to `name`.
    fn wait_for_pid(&self, name: &str) -> i32 {
        wait_for_pid(&self.path(name))
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let Ok(entries) = fs::read_dir(self.dir.path()) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.path().extension().is_none_or(|ext| ext != "pid") {
                continue;
            }
            let Some(pid) = read_pid(&entry.path()) else {
                continue;
            };
            // Only what our hooks run, in case the pid was recycled.
            let comm = testing::command_name(pid).unwrap_or_default();
            if matches!(comm.as_str(), "sleep" | "sh") && is_alive(pid) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
    }
}

fn read_pid(path: &Path) -> Option<i32> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn wait_for_pid(path: &Path) -> i32 {
    let give_up = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(pid) = read_pid(path) {
            return pid;
        }
        assert!(Instant::now() < give_up, "no pid in {}", path.display());
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The process exists and is not a zombie.
fn is_alive(pid: i32) -> bool {
    testing::is_alive(pid)
}

fn wait_until_dead(pid: i32) {
    let give_up = Instant::now() + Duration::from_secs(20);
    while is_alive(pid) {
        assert!(Instant::now() < give_up, "{pid} did not die");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn run(jobs: Vec<Job>, limits: &Limits) -> (Vec<JobReport>, Duration) {
    let mut supervisor = Supervisor::new().expect("supervisor");
    let started = Instant::now();
    let reports = supervisor.run(jobs, limits);
    let elapsed = started.elapsed();
    assert_eq!(supervisor.interrupted_by(), None);
    (reports, elapsed)
}

fn run_one(job: Job, limits: &Limits) -> JobReport {
    run(vec![job], limits).0.remove(0)
}

fn stdout_text(report: &JobReport) -> String {
    String::from_utf8_lossy(&report.stdout.bytes).into_owned()
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

// ---- spawning -------------------------------------------------------------

#[test]
fn each_job_runs_in_its_own_new_process_group() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let script = r#"set -- $(ps -o pgid= -p $$); echo "$$ $1""#;
    let (reports, _) = run(
        vec![sandbox.sh(script), sandbox.sh(script)],
        &Limits::default(),
    );
    let own_group = nix::unistd::getpgrp().as_raw();
    let mut groups = Vec::new();
    for report in &reports {
        assert_eq!(report.termination, Termination::Exited(0), "{report:?}");
        let text = stdout_text(report);
        let fields: Vec<i32> = text
            .split_whitespace()
            .map(|f| f.parse().unwrap())
            .collect();
        // `$$` is the shell, the group leader.
        assert_eq!(fields[0], fields[1], "the hook leads its own group");
        assert_ne!(fields[1], own_group);
        groups.push(fields[1]);
    }
    assert_ne!(groups[0], groups[1]);
}

/// A big batch is started from several threads: every job still gets its own
/// group, its own pipes and its own stdin, and reports come back in job
/// order.
#[test]
fn a_big_batch_starts_every_job_once_and_reports_in_order() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    // 23: started from four threads, in shares of 6, 6, 6 and 5.
    let jobs: Vec<Job> = (0..23)
        .map(|i| {
            let mut job = sandbox.sh(&format!(
                r#"set -- $(ps -o pgid= -p $$); printf '{i} %s ' "$1"; cat"#
            ));
            job.stdin = Arc::new(format!("stdin-{i}").into_bytes().into());
            job
        })
        .collect();
    let (reports, _) = run(jobs, &Limits::default());
    assert_eq!(reports.len(), 23);
    let mut groups = std::collections::HashSet::new();
    for (i, report) in reports.iter().enumerate() {
        assert_eq!(report.termination, Termination::Exited(0), "{report:?}");
        let text = stdout_text(report);
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields[0], i.to_string(), "{text}");
        assert_eq!(fields[2], format!("stdin-{i}"), "{text}");
        assert!(
            groups.insert(fields[1].to_owned()),
            "a group shared: {text}"
        );
    }
}

#[test]
fn stdio_are_fresh_pipes_never_hookruns_own_descriptors() {
    let _lock = shared();
    if !Path::new("/proc/self/fdinfo").is_dir() {
        eprintln!(
            "SKIPPED: stdio_are_fresh_pipes_never_hookruns_own_descriptors: it reads the \
             descriptors' links and flags in /proc, which this system does not have"
        );
        return;
    }
    let sandbox = Sandbox::new();
    let report = run_one(
        sandbox.sh("for fd in 0 1 2; do readlink /proc/$$/fd/$fd; done"),
        &Limits::default(),
    );
    let links: Vec<String> = stdout_text(&report).lines().map(str::to_owned).collect();
    assert_eq!(links.len(), 3, "{report:?}");
    for (fd, link) in links.iter().enumerate() {
        assert!(link.starts_with("pipe:"), "fd {fd} is {link}");
        let ours = fs::read_link(format!("/proc/self/fd/{fd}")).ok();
        assert_ne!(
            ours.as_deref(),
            Some(Path::new(link)),
            "fd {fd} is hookrun's own"
        );
    }
    assert_ne!(links[0], links[1]);
    assert_ne!(links[1], links[2]);

    // Nothing hookrun opened leaks in: not the signal self-pipe, not another
    // hook's pipes. What leaks is `ls`'s own directory handle, plus any
    // descriptor hookrun itself inherited without close-on-exec (a leak of
    // its parent's, passed on: closing those would need `pre_exec`).
    let inherited = inherited_descriptors();
    let report = run_one(
        sandbox.job(Program::Exec {
            program: "ls".into(),
            args: vec!["/proc/self/fd".into()],
        }),
        &Limits::default(),
    );
    let extra: Vec<u32> = stdout_text(&report)
        .lines()
        .map(|fd| fd.parse().unwrap())
        .filter(|fd| *fd > 2 && !inherited.contains(fd))
        .collect();
    assert_eq!(extra.len(), 1, "only ls's own: {extra:?} ({report:?})");
}

/// This process's descriptors above 2 without close-on-exec.
fn inherited_descriptors() -> Vec<u32> {
    const O_CLOEXEC: u32 = 0o2_000_000;
    let mut fds = Vec::new();
    for entry in fs::read_dir("/proc/self/fdinfo").unwrap().flatten() {
        let Ok(fd) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(info) = fs::read_to_string(entry.path()) else {
            continue;
        };
        let flags = info
            .lines()
            .find_map(|line| line.strip_prefix("flags:"))
            .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
            .unwrap_or(O_CLOEXEC);
        if fd > 2 && flags & O_CLOEXEC == 0 {
            fds.push(fd);
        }
    }
    fds
}

#[test]
fn the_environment_is_exactly_the_jobs() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.job(Program::Exec {
        program: "env".into(),
        args: vec![],
    });
    job.env.push("HOOK_VALUE", "a b=c");
    let report = run_one(job, &Limits::default());
    let mut lines: Vec<&str> = std::str::from_utf8(&report.stdout.bytes)
        .unwrap()
        .lines()
        .collect();
    lines.sort_unstable();
    assert_eq!(lines, ["HOOK_VALUE=a b=c", &format!("PATH={TEST_PATH}")]);
}

#[test]
fn the_working_directory_is_the_jobs() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let report = run_one(sandbox.sh("pwd -P"), &Limits::default());
    let expected = fs::canonicalize(sandbox.dir.path()).unwrap();
    assert_eq!(stdout_text(&report).trim_end(), expected.to_str().unwrap());
}

/// The common case, where spawn asks for no change of directory at all.
#[test]
fn a_job_in_hookruns_own_directory_runs_there() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("pwd -P");
    job.cwd = std::env::current_dir().unwrap();
    let report = run_one(job, &Limits::default());
    let expected = fs::canonicalize(std::env::current_dir().unwrap()).unwrap();
    assert_eq!(stdout_text(&report).trim_end(), expected.to_str().unwrap());
}

#[test]
fn exec_form_resolves_on_the_jobs_path_and_passes_arguments_verbatim() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let bin = sandbox.path("bin");
    fs::create_dir(&bin).unwrap();
    write_script(
        &bin.join("my-hook"),
        "#!/bin/sh\nprintf '[%s]\\n' \"$0\" \"$@\"\n",
    );
    let mut job = sandbox.job(Program::Exec {
        program: "my-hook".into(),
        args: vec!["a b".into(), "$HOME".into(), "'q'".into(), String::new()],
    });
    job.env = vec![(
        "PATH".into(),
        format!("{}:{TEST_PATH}", bin.display()).into(),
    )]
    .into();
    let report = run_one(job, &Limits::default());
    assert_eq!(report.termination, Termination::Exited(0), "{report:?}");
    let expected = format!(
        "[{}]\n[a b]\n[$HOME]\n['q']\n[]\n",
        bin.join("my-hook").display()
    );
    assert_eq!(stdout_text(&report), expected);
}

#[test]
fn shell_form_runs_the_named_shell() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut bash = sandbox.sh("echo \"bash ${BASH_VERSION:+yes}\"; exit 7");
    bash.program = Program::Shell {
        shell: "bash".into(),
        script: "echo \"bash ${BASH_VERSION:+yes}\"; exit 7".into(),
    };
    let (reports, _) = run(
        vec![bash, sandbox.sh("echo \"sh ${BASH_VERSION:+yes}\"")],
        &Limits::default(),
    );
    assert_eq!(reports[0].termination, Termination::Exited(7));
    assert_eq!(stdout_text(&reports[0]), "bash yes\n");
    assert_eq!(
        stdout_text(&reports[1]),
        "sh \n",
        "sh is dash here, not bash"
    );
}

#[test]
fn a_spawn_failure_is_that_jobs_alone() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let not_executable = sandbox.path("plain.sh");
    fs::write(&not_executable, "echo hi\n").unwrap();

    let missing = sandbox.job(Program::Exec {
        program: "no-such-hook-program".into(),
        args: vec![],
    });
    let denied = sandbox.job(Program::Exec {
        program: "./plain.sh".into(),
        args: vec![],
    });
    let mut bad_cwd = sandbox.sh("echo hi");
    bad_cwd.cwd = sandbox.path("gone");
    let mut no_shell = sandbox.job(Program::Shell {
        shell: "bash".into(),
        script: "echo hi".into(),
    });
    no_shell.env = vec![("PATH".into(), sandbox.path("empty").into())].into();
    let no_shebang = sandbox.path("no-shebang");
    write_script(&no_shebang, "echo hi\n");
    let unknown_format = sandbox.job(Program::Exec {
        program: "./no-shebang".into(),
        args: vec![],
    });
    let mut nul_in_env = sandbox.sh("echo hi");
    nul_in_env.env.push("BAD", OsString::from("a\0b"));
    let good = sandbox.sh("echo fine");

    let (reports, _) = run(
        vec![
            missing,
            denied,
            bad_cwd,
            no_shell,
            nul_in_env,
            unknown_format,
            good,
        ],
        &Limits::default(),
    );
    let message = |i: usize| match &reports[i].termination {
        Termination::SpawnFailed(message) => message.clone(),
        other => panic!("job {i}: expected a spawn failure, got {other:?}"),
    };
    assert!(
        message(0).contains("no-such-hook-program: command not found"),
        "{}",
        message(0)
    );
    assert!(
        message(1).ends_with("plain.sh: not executable"),
        "{}",
        message(1)
    );
    assert!(
        message(2).starts_with("working directory "),
        "{}",
        message(2)
    );
    assert!(message(2).contains("gone"), "{}", message(2));
    assert!(
        message(3).contains("bash: command not found"),
        "{}",
        message(3)
    );
    assert!(!message(4).is_empty(), "`message(4)` is empty");
    // No `sh` fallback as execvp has: exec form means exec.
    assert!(
        message(5).contains("no-shebang: Exec format error"),
        "{}",
        message(5)
    );
    assert_eq!(reports[6].termination, Termination::Exited(0));
    assert_eq!(stdout_text(&reports[6]), "fine\n");
}

/// The shell form runs `/bin/sh`, as Claude Code does: not whichever
/// `sh` comes first on the hook's PATH, and not "not found" without one.
#[test]
fn the_shell_form_runs_bin_sh_whatever_the_path() {
    if !Path::new("/bin/sh").is_file() {
        println!("SKIPPED: the_shell_form_runs_bin_sh_whatever_the_path: no /bin/sh here");
        return;
    }
    let sandbox = Sandbox::new();
    let decoy = sandbox.path("decoy");
    fs::create_dir_all(&decoy).unwrap();
    write_script(&decoy.join("sh"), "#!/bin/sh\necho decoy\n");
    let mut shadowed = sandbox.sh("echo real");
    shadowed.env = vec![("PATH".into(), decoy.clone().into())].into();
    let mut empty = sandbox.sh("echo still");
    empty.env = vec![("PATH".into(), sandbox.path("empty").into())].into();
    let (reports, _) = run(vec![shadowed, empty], &Limits::default());
    assert_eq!(reports[0].termination, Termination::Exited(0));
    assert_eq!(stdout_text(&reports[0]), "real\n");
    assert_eq!(reports[1].termination, Termination::Exited(0));
    assert_eq!(stdout_text(&reports[1]), "still\n");
}

#[test]
fn program_lookup_follows_execvp() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    fs::create_dir(&first).unwrap();
    fs::create_dir(&second).unwrap();
    fs::write(first.join("tool"), "").unwrap(); // not executable: skipped
    write_script(&second.join("tool"), "#!/bin/sh\n");
    let search = std::env::join_paths([&first, &second]).unwrap();
    assert_eq!(
        find_program("tool", Some(&search), dir.path()).unwrap(),
        second.join("tool")
    );

    // Relative and empty PATH entries are relative to the job's cwd.
    let found = find_program("tool", Some("second".as_ref()), dir.path()).unwrap();
    assert_eq!(found, dir.path().join("second").join("tool"));
    write_script(&dir.path().join("here"), "#!/bin/sh\n");
    assert!(find_program("here", Some(":/nowhere".as_ref()), dir.path()).is_ok());

    // Only a non-executable match: said so, not "not found".
    let only_first = first.clone().into_os_string();
    assert!(matches!(
        find_program("tool", Some(&only_first), dir.path()),
        Err(SpawnError::NotExecutable { .. })
    ));
    assert!(matches!(
        find_program("", Some(&search), dir.path()),
        Err(SpawnError::NotFound { .. })
    ));
    // No PATH at all: the execvp default, /usr/bin then /bin.
    let sh = find_program("sh", None, dir.path()).unwrap();
    assert!(
        sh == Path::new("/usr/bin/sh") || sh == Path::new("/bin/sh"),
        "{sh:?}"
    );
}

/// Writes an executable script from a child process, so that no descriptor
/// open for writing it ever exists in this process: another test's fork
/// could inherit one, and the script's exec then fails with ETXTBSY ("text
/// file busy"), a flake that has nothing to do with what is tested.
fn write_script(path: &Path, text: &str) {
    use std::io::Write as _;
    let mut child = std::process::Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    assert!(
        child.wait().unwrap().success(),
        "writing {}",
        path.display()
    );
}

#[test]
fn hooks_start_with_default_signal_dispositions() {
    let _lock = shared();
    if !Path::new("/proc/self/status").is_file() {
        eprintln!(
            "SKIPPED: hooks_start_with_default_signal_dispositions: it reads the signal \
             masks in /proc/PID/status, which this system does not have"
        );
        return;
    }
    // hookrun itself ignores SIGPIPE (the Rust runtime does, and must keep
    // doing it: a hook closing its stdin must not kill us).
    let own = fs::read_to_string("/proc/self/status").unwrap();
    assert!(signal_mask(&own, "SigIgn") & bit(Signal::SIGPIPE) != 0);

    let sandbox = Sandbox::new();
    // Exec form: no shell in between to change what the hook inherited.
    let cat = sandbox.job(Program::Exec {
        program: "cat".into(),
        args: vec!["/proc/self/status".into()],
    });
    let report = run_one(cat, &Limits::default());
    let status = stdout_text(&report);
    let ignored = signal_mask(&status, "SigIgn");
    for signal in [
        Signal::SIGPIPE,
        Signal::SIGINT,
        Signal::SIGTERM,
        Signal::SIGHUP,
        Signal::SIGCHLD,
    ] {
        assert_eq!(ignored & bit(signal), 0, "{signal} is ignored in the hook");
    }
    assert_eq!(
        signal_mask(&status, "SigBlk"),
        0,
        "no signal is blocked in the hook"
    );
}

fn signal_mask(status: &str, field: &str) -> u64 {
    let line = status
        .lines()
        .find(|line| line.starts_with(&format!("{field}:")))
        .unwrap();
    u64::from_str_radix(line[field.len() + 1..].trim(), 16).unwrap()
}

fn bit(signal: Signal) -> u64 {
    1 << (signal as i32 - 1)
}

// ---- timeouts -------------------------------------------------------------

#[test]
fn a_timeout_terminates_the_group_without_waiting_out_the_grace() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("echo $$ > leader.pid; echo partial; sleep 300");
    job.timeout = secs(0.5);
    let limits = Limits {
        kill_grace: secs(5.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    let report = &reports[0];
    assert!(
        report.timed_out && !report.killed && !report.leaked,
        "{report:?}"
    );
    assert_eq!(report.termination, Termination::Signaled(SIGTERM));
    // After the timeout; and since SIGTERM emptied the group (sh and its
    // sleep, both zombies now), well before the 5 s grace.
    assert!(report.duration >= secs(0.5), "{elapsed:?}");
    assert!(elapsed < secs(3.0), "{elapsed:?}");
    assert_eq!(stdout_text(report), "partial\n");
}

#[test]
fn a_member_that_ignores_sigterm_is_killed_after_the_leader_died() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    // The inner shell ignores TERM and execs sleep, which inherits that; the
    // outer shell (the leader) dies of SIGTERM at once.
    let mut job = sandbox.sh(
        "sh -c 'trap \"\" TERM; echo $$ > stubborn.pid; exec sleep 300' & \
         echo $$ > leader.pid; wait",
    );
    job.timeout = secs(1.0);
    let limits = Limits {
        kill_grace: secs(1.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    let report = &reports[0];
    assert!(report.timed_out && report.killed, "{report:?}");
    assert_eq!(report.termination, Termination::Signaled(SIGTERM));
    assert!(report.duration >= secs(2.0), "timeout + grace, {elapsed:?}");
    assert!(elapsed < secs(4.5), "{elapsed:?}");
    let stubborn = sandbox.wait_for_pid("stubborn.pid");
    wait_until_dead(stubborn);
}

#[test]
fn the_kill_comes_by_the_hard_end_even_inside_the_grace() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    // Ignores SIGTERM; the grace alone would hold it 30 s after the SIGTERM.
    let mut job = sandbox.sh("trap '' TERM; echo $$ > leader.pid; sleep 300 & wait; sleep 300");
    job.timeout = secs(0.5);
    job.kill_by = Some(Instant::now() + secs(1.0));
    let limits = Limits {
        kill_grace: secs(30.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    let report = &reports[0];
    assert!(report.timed_out && report.killed, "{report:?}");
    assert!(elapsed >= secs(0.9), "not before the hard end: {elapsed:?}");
    assert!(
        elapsed < secs(10.0),
        "the hard end, not the grace: {elapsed:?}"
    );
}

#[test]
fn a_hard_end_before_the_timeout_terminates_then_kills_by_it() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("trap '' TERM; echo $$ > leader.pid; sleep 300 & wait; sleep 300");
    job.timeout = secs(60.0);
    job.kill_by = Some(Instant::now() + secs(0.8));
    let limits = Limits {
        kill_grace: secs(30.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    assert!(reports[0].killed, "{:?}", reports[0]);
    assert!(elapsed < secs(10.0), "{elapsed:?}");
}

#[test]
fn the_term_kill_sequence_is_fitted_inside_the_deadline() {
    use super::fit_to_deadline;
    // Plenty of time: the hook's own timeout stands.
    assert_eq!(
        fit_to_deadline(secs(10.0), secs(29.0), secs(2.0)),
        (secs(10.0), false)
    );
    // Timeout + grace past the deadline: SIGTERM a grace before it.
    assert_eq!(
        fit_to_deadline(secs(60.0), secs(29.0), secs(2.0)),
        (secs(27.0), true)
    );
    assert_eq!(
        fit_to_deadline(secs(28.0), secs(29.0), secs(2.0)),
        (secs(27.0), true)
    );
    // Less time left than the grace: the grace shrinks to a quarter of it.
    assert_eq!(
        fit_to_deadline(secs(60.0), secs(2.0), secs(2.0)),
        (secs(1.5), true)
    );
    assert_eq!(
        fit_to_deadline(secs(60.0), secs(1.2), secs(2.0)),
        (secs(0.9), true)
    );
    // Nothing left: still a positive timeout, the kill is at the hard end.
    assert!(fit_to_deadline(secs(60.0), Duration::ZERO, secs(2.0)).0 > Duration::ZERO);
    assert!(super::fits_deadline(secs(10.0), secs(29.0), secs(2.0)));
    assert!(!super::fits_deadline(secs(28.0), secs(29.0), secs(2.0)));
}

#[test]
fn a_timeout_never_waits_on_pipes_held_by_a_process_that_left_the_group() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("setsid sleep 300 & echo $! > escaped.pid; sleep 300");
    job.timeout = secs(0.5);
    let limits = Limits {
        kill_grace: secs(3.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    let report = &reports[0];
    assert!(report.timed_out && !report.killed, "{report:?}");
    assert!(report.duration >= secs(0.5));
    assert!(elapsed < secs(2.5), "not the grace, not 300 s: {elapsed:?}");
    // It still holds stdout and stderr: we returned without their EOF.
    let escaped = sandbox.wait_for_pid("escaped.pid");
    assert!(is_alive(escaped));
}

/// Members of group `pgid` that can still run.
fn live_members(pgid: i32) -> Vec<i32> {
    testing::live_members(pgid)
}

/// Kills what is left of a group when a test fails.
struct KillGroupOnDrop(i32);

impl Drop for KillGroupOnDrop {
    fn drop(&mut self) {
        let _ = nix::sys::signal::killpg(Pid::from_raw(self.0), Signal::SIGKILL);
    }
}

#[test]
fn a_group_killed_while_it_forks_is_empty_when_the_run_returns() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    // A leader that ignores SIGTERM (so do its children) and forks as fast
    // as it can: the SIGKILL lands while children are being made, and each
    // killed child takes a moment to die. Three forkers at once, at most
    // 600 children in all.
    for round in 0..3 {
        let mut job = sandbox.sh(&format!(
            "trap '' TERM; echo $$ > storm{round}.pid; \
             for j in 1 2 3; do (i=0; while [ $i -lt 200 ]; do sleep 60 & i=$((i+1)); done; wait) & done; wait"
        ));
        job.timeout = secs(0.3);
        let limits = Limits {
            kill_grace: secs(0.1),
            ..Limits::default()
        };
        let (reports, _) = run(vec![job], &limits);
        let pgid = sandbox.wait_for_pid(&format!("storm{round}.pid"));
        let _cleanup = KillGroupOnDrop(pgid);
        assert!(reports[0].killed, "{:?}", reports[0]);
        assert_eq!(
            live_members(pgid),
            Vec::<i32>::new(),
            "round {round}: alive after the run returned"
        );
    }
}

#[test]
fn a_group_of_zombies_counts_as_gone() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    // `exec sleep` never reaps the short sleep: a zombie in the group until
    // an init reaps it, if it ever does; and our own leader, unreaped until
    // we are done signalling, is one too. killpg(0) succeeds on zombies.
    let mut job = sandbox.sh("sleep 0.01 & echo $! > short.pid; exec sleep 300");
    job.timeout = secs(0.7);
    let limits = Limits {
        kill_grace: secs(10.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    let report = &reports[0];
    assert!(report.timed_out && !report.killed, "{report:?}");
    assert_eq!(report.termination, Termination::Signaled(SIGTERM));
    assert!(
        elapsed < secs(3.0),
        "the zombie must not hold us for the grace: {elapsed:?}"
    );
}

#[test]
fn an_overflowing_timeout_means_no_timeout() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("echo ok");
    job.timeout = Duration::MAX;
    let limits = Limits {
        kill_grace: Duration::MAX,
        leak_timeout: Duration::MAX,
        ..Limits::default()
    };
    let report = run_one(job, &limits);
    assert_eq!(report.termination, Termination::Exited(0));
    assert_eq!(stdout_text(&report), "ok\n");
}

// ---- after a normal exit --------------------------------------------------

#[test]
fn a_background_job_holding_the_output_is_reported_leaked_not_killed() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let job = sandbox.sh("sleep 300 & echo $! > background.pid; echo ok");
    let (reports, elapsed) = run(vec![job], &Limits::default());
    let report = &reports[0];
    assert_eq!(report.termination, Termination::Exited(0));
    assert!(
        report.leaked && !report.timed_out && !report.killed,
        "{report:?}"
    );
    assert_eq!(stdout_text(report), "ok\n");
    assert!(
        report.duration >= secs(0.1),
        "the leak timeout: {elapsed:?}"
    );
    assert!(elapsed < secs(1.5), "{elapsed:?}");
    assert!(
        is_alive(sandbox.wait_for_pid("background.pid")),
        "not ours to kill"
    );
}

#[test]
fn output_written_before_exit_is_all_captured_without_waiting_for_the_leak_timeout() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let job = sandbox.sh("head -c 300000 /dev/zero; printf end >&2; exit 3");
    let limits = Limits {
        leak_timeout: secs(5.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    let report = &reports[0];
    assert_eq!(report.termination, Termination::Exited(3));
    assert!(!report.leaked);
    assert_eq!(report.stdout.total, 300_000);
    assert_eq!(report.stdout.bytes.len(), 300_000);
    assert_eq!(report.stderr.bytes, b"end");
    assert!(elapsed < secs(2.0), "EOF ends the drain: {elapsed:?}");
}

#[test]
fn a_background_job_that_closed_its_output_is_not_a_leak() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let job = sandbox.sh("sleep 300 >/dev/null 2>&1 & echo $! > background.pid; echo ok");
    let limits = Limits {
        leak_timeout: secs(5.0),
        ..Limits::default()
    };
    let (reports, elapsed) = run(vec![job], &limits);
    assert!(!reports[0].leaked, "{:?}", reports[0]);
    assert!(elapsed < secs(2.0), "{elapsed:?}");
}

// ---- stdin ----------------------------------------------------------------

fn big_stdin() -> Arc<Bytes> {
    Arc::new(vec![b'x'; 8 * 1024 * 1024].into())
}

#[test]
fn a_big_stdin_to_a_hook_that_never_reads_times_out_cleanly() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("echo $$ > leader.pid; sleep 300");
    job.stdin = big_stdin();
    job.timeout = secs(1.0);
    let (reports, elapsed) = run(vec![job], &Limits::default());
    let report = &reports[0];
    assert!(report.timed_out && report.stdin_unread, "{report:?}");
    assert!(report.duration >= secs(1.0));
    assert!(elapsed < secs(2.5), "{elapsed:?}");
}

#[test]
fn a_big_stdin_to_a_hook_that_sleeps_then_exits_does_not_block() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("sleep 1");
    job.stdin = big_stdin();
    let (reports, elapsed) = run(vec![job], &Limits::default());
    let report = &reports[0];
    assert_eq!(report.termination, Termination::Exited(0));
    assert!(report.stdin_unread && !report.timed_out, "{report:?}");
    assert!(elapsed >= secs(1.0) && elapsed < secs(2.5), "{elapsed:?}");
}

#[test]
fn a_big_stdin_to_a_hook_that_exits_at_once_is_fine() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("exit 0");
    job.stdin = big_stdin();
    let (reports, elapsed) = run(vec![job], &Limits::default());
    let report = &reports[0];
    assert_eq!(report.termination, Termination::Exited(0));
    assert!(report.stdin_unread, "{report:?}");
    assert!(elapsed < secs(1.5), "{elapsed:?}");
}

#[test]
fn a_big_stdin_reaches_a_hook_that_reads_it_all() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let mut job = sandbox.sh("wc -c");
    job.stdin = big_stdin();
    let report = run_one(job, &Limits::default());
    assert_eq!(report.termination, Termination::Exited(0));
    assert!(!report.stdin_unread, "{report:?}");
    assert_eq!(stdout_text(&report).trim(), "8388608");
}

#[test]
fn stdin_is_written_while_output_is_read() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    // cat blocks writing stdout unless we read it while we write its stdin.
    let mut job = sandbox.sh("cat");
    job.stdin = big_stdin();
    let report = run_one(job, &Limits::default());
    assert_eq!(report.termination, Termination::Exited(0));
    assert_eq!(report.stdout.total, 8 * 1024 * 1024);
    assert!(!report.stdin_unread);
}

// ---- output caps ----------------------------------------------------------

#[test]
fn a_flood_of_output_is_capped_and_counted_and_the_hook_finishes() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let job = sandbox.sh("head -c 1000000000 /dev/zero; head -c 100000 /dev/zero >&2");
    let limits = Limits {
        output_cap: 64 * 1024,
        ..Limits::default()
    };
    let report = run_one(job, &limits);
    assert_eq!(report.termination, Termination::Exited(0));
    assert_eq!(report.stdout.total, 1_000_000_000);
    assert_eq!(report.stdout.bytes.len(), 64 * 1024);
    assert!(
        report.stdout.bytes.capacity() <= 64 * 1024,
        "memory stays at the cap"
    );
    assert!(report.stdout.truncated());
    assert_eq!(report.stderr.total, 100_000);
    assert_eq!(report.stderr.bytes.len(), 64 * 1024);
}

// ---- parallelism ----------------------------------------------------------

#[test]
fn jobs_really_run_in_parallel() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let jobs = (0..4).map(|_| sandbox.sh("sleep 1")).collect();
    let (reports, elapsed) = run(jobs, &Limits::default());
    for report in &reports {
        assert_eq!(report.termination, Termination::Exited(0));
    }
    assert!(elapsed >= secs(1.0) && elapsed < secs(2.5), "{elapsed:?}");
}

#[test]
fn reports_come_back_in_job_order() {
    let _lock = shared();
    let sandbox = Sandbox::new();
    let jobs = vec![
        sandbox.sh("sleep 0.3; exit 1"),
        sandbox.sh("exit 2"),
        sandbox.sh("exit 3"),
    ];
    let (reports, _) = run(jobs, &Limits::default());
    let codes: Vec<_> = reports.iter().map(|r| r.termination.clone()).collect();
    assert_eq!(
        codes,
        [
            Termination::Exited(1),
            Termination::Exited(2),
            Termination::Exited(3)
        ]
    );
}

// ---- hookrun interrupted --------------------------------------------------
// These signal the whole test process: exclusive.

#[test]
fn a_signal_before_the_run_starts_nothing() {
    let _lock = exclusive();
    let sandbox = Sandbox::new();
    let mut supervisor = Supervisor::new().unwrap();
    raise(Signal::SIGHUP).unwrap();
    let started = Instant::now();
    let reports = supervisor.run(vec![sandbox.sh("touch started")], &Limits::default());
    assert!(started.elapsed() < secs(1.0));
    assert!(reports[0].interrupted, "{:?}", reports[0]);
    assert!(
        matches!(&reports[0].termination, Termination::SpawnFailed(m) if m.starts_with("not started"))
    );
    assert_eq!(supervisor.interrupted_by(), Some(Signal::SIGHUP as i32));
    assert!(!sandbox.path("started").exists());

    // And every later batch too; the first signal stays the one recorded.
    raise(Signal::SIGINT).unwrap();
    let reports = supervisor.run(vec![sandbox.sh("touch started")], &Limits::default());
    assert!(reports[0].interrupted);
    assert_eq!(supervisor.interrupted_by(), Some(Signal::SIGHUP as i32));
    assert!(!sandbox.path("started").exists());
}

#[test]
fn a_signal_during_the_run_stops_running_hooks_but_not_finished_ones() {
    let _lock = exclusive();
    let sandbox = Sandbox::new();
    let mut supervisor = Supervisor::new().unwrap();
    let running = sandbox.sh("echo $$ > running.pid; sleep 300");
    let finished = sandbox.sh("sleep 300 & echo $! > background.pid; echo $$ > finished.pid");
    let (running_pid, finished_pid) = (sandbox.path("running.pid"), sandbox.path("finished.pid"));
    let signaller = std::thread::spawn(move || {
        wait_for_pid(&running_pid);
        wait_until_dead(wait_for_pid(&finished_pid));
        kill(getpid(), Signal::SIGTERM).unwrap();
    });
    let started = Instant::now();
    let reports = supervisor.run(vec![running, finished], &Limits::default());
    let elapsed = started.elapsed();
    signaller.join().unwrap();

    assert_eq!(supervisor.interrupted_by(), Some(SIGTERM));
    let (running, finished) = (&reports[0], &reports[1]);
    assert!(
        running.interrupted && !running.timed_out && !running.killed,
        "{running:?}"
    );
    assert_eq!(running.termination, Termination::Signaled(SIGTERM));
    assert!(!finished.interrupted && finished.leaked, "{finished:?}");
    assert_eq!(finished.termination, Termination::Exited(0));
    assert!(elapsed < secs(5.0), "{elapsed:?}");
    assert!(
        is_alive(sandbox.wait_for_pid("background.pid")),
        "left alone"
    );
}

#[test]
fn a_second_signal_kills_at_once() {
    let _lock = exclusive();
    let sandbox = Sandbox::new();
    let mut supervisor = Supervisor::new().unwrap();
    let job = sandbox.sh(
        "sh -c 'trap \"\" TERM; echo $$ > stubborn.pid; exec sleep 300' & \
         echo $$ > leader.pid; wait",
    );
    let limits = Limits {
        kill_grace: secs(60.0),
        ..Limits::default()
    };
    let (leader_pid, stubborn_pid) = (sandbox.path("leader.pid"), sandbox.path("stubborn.pid"));
    let signaller = std::thread::spawn(move || {
        let leader = wait_for_pid(&leader_pid);
        wait_for_pid(&stubborn_pid);
        kill(getpid(), Signal::SIGINT).unwrap();
        // The first one has been forwarded once the leader died of it.
        wait_until_dead(leader);
        kill(getpid(), Signal::SIGINT).unwrap();
    });
    let started = Instant::now();
    let reports = supervisor.run(vec![job], &limits);
    let elapsed = started.elapsed();
    signaller.join().unwrap();

    let report = &reports[0];
    assert!(
        report.interrupted && report.killed && !report.timed_out,
        "{report:?}"
    );
    assert_eq!(report.termination, Termination::Signaled(SIGTERM));
    assert_eq!(supervisor.interrupted_by(), Some(Signal::SIGINT as i32));
    assert!(elapsed < secs(10.0), "not the 60 s grace: {elapsed:?}");
    wait_until_dead(sandbox.wait_for_pid("stubborn.pid"));
}

#[test]
fn interrupt_escalates_to_sigkill_after_the_grace() {
    let _lock = exclusive();
    let sandbox = Sandbox::new();
    let mut supervisor = Supervisor::new().unwrap();
    let job = sandbox.sh("trap '' TERM; echo $$ > leader.pid; while :; do sleep 0.05; done");
    let limits = Limits {
        kill_grace: secs(0.5),
        ..Limits::default()
    };
    let leader_pid = sandbox.path("leader.pid");
    let signaller = std::thread::spawn(move || {
        wait_for_pid(&leader_pid);
        kill(getpid(), Signal::SIGHUP).unwrap();
    });
    let reports = supervisor.run(vec![job], &limits);
    signaller.join().unwrap();
    let report = &reports[0];
    assert!(report.interrupted && report.killed, "{report:?}");
    assert_eq!(report.termination, Termination::Signaled(SIGKILL));
    assert!(report.duration < secs(5.0), "{report:?}");
}

/// The command line of a `shell: "powershell"` hook: Claude Code's
/// (2.1.332) arguments, the script whole as the one `-Command` argument.
#[test]
fn powershell_gets_claude_codes_arguments() {
    let script = "Write-Output 'a b'; exit 2";
    assert_eq!(
        super::powershell_args(script, false),
        [
            "-NoProfile",
            "-NonInteractive",
            "-ExecutionPolicy",
            "Bypass",
            "-Command",
            script
        ]
        .map(OsString::from)
    );
    // CLAUDE_CODE_POWERSHELL_RESPECT_EXECUTION_POLICY: the policy stands.
    assert_eq!(
        super::powershell_args(script, true),
        ["-NoProfile", "-NonInteractive", "-Command", script].map(OsString::from)
    );
    assert_eq!(super::POWERSHELLS, ["pwsh", "powershell"]);
}

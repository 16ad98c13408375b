//! `async` hooks (SPEC §7.4), both halves: started detached, never waited
//! for ([`start`]); their `systemMessage` / `additionalContext` reach the
//! host with a later fire of the same session on an event that accepts
//! `additionalContext` ([`deliver`]).
//!
//! hookrun starts a copy of itself (`hookrun __async-run JOB`) through
//! `exec` (a new process group, no stdio); that runner leaves the session,
//! runs the hook under the same supervisor and limits as every other hook
//! (timeouts, kill grace, output caps), and leaves a result file in the
//! session's state folder. Delivery claims a result by renaming it, so it is
//! delivered exactly once even when fires overlap, and never by the fire
//! that started the job.

use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::Event;
use crate::exec::{self, Job, JobReport, Limits, Program, Supervisor, Termination};
use crate::hookenv::HookEnv;
use crate::plan::Planned;
use crate::state::StateDir;
use crate::verdict::{self, Ending, HookOutput};

/// How a supervised process ended, as the protocol sees it (`timeout` is
/// the one it ran under). Both command-hook runners use it: the fire's
/// (`run`'s command hooks) and the detached one here.
pub(crate) fn ending_of(report: &JobReport, timeout: std::time::Duration) -> Ending {
    if report.timed_out {
        return Ending::TimedOut {
            seconds: timeout.as_secs_f64(),
        };
    }
    match &report.termination {
        Termination::Exited(code) => Ending::Exited(*code),
        Termination::Signaled(signal) => Ending::Signaled(*signal),
        Termination::SpawnFailed(why) => Ending::NotStarted(why.clone()),
    }
}

/// Everything the detached runner needs.
#[derive(Debug, Serialize, Deserialize)]
pub struct AsyncJob {
    pub hook_name: String,
    pub event: String,
    pub program: Program,
    pub env: Vec<(OsString, OsString)>,
    pub cwd: PathBuf,
    /// The event bytes for the hook's stdin.
    pub stdin: String,
    pub timeout_ms: u64,
    /// The fire's `--kill-grace`, `--leak-timeout` and `--output-cap`.
    #[serde(default)]
    pub limits: JobLimits,
    /// Where the result goes (`None`: nowhere to deliver it).
    pub result: Option<PathBuf>,
    /// A `once` hook's claim, given back if the runner cannot run it.
    #[serde(default)]
    pub once: Option<OnceClaim>,
    /// `asyncRewake`: only an exit 2 speaks ([`rewake_result`]).
    #[serde(default)]
    pub rewake: bool,
}

/// A `once` claim made by the fire that started the job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnceClaim {
    pub state_root: PathBuf,
    pub session: String,
    pub key: String,
}

impl OnceClaim {
    /// Gives the claim back: the hook did not run, so a later fire may.
    fn release(&self) {
        let root = self.state_root.display().to_string();
        if let Some(state) =
            StateDir::locate(|name| (name == "HOOKRUN_STATE_DIR").then(|| root.clone()))
        {
            let _ = state.release(&self.session, "once", &self.key);
        }
    }
}

/// [`Limits`] as the job file stores them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobLimits {
    pub kill_grace_ms: u64,
    pub leak_timeout_ms: u64,
    pub output_cap: usize,
}

impl Default for JobLimits {
    fn default() -> Self {
        JobLimits::from(&Limits::default())
    }
}

impl From<&Limits> for JobLimits {
    fn from(limits: &Limits) -> Self {
        JobLimits {
            kill_grace_ms: millis(limits.kill_grace),
            leak_timeout_ms: millis(limits.leak_timeout),
            output_cap: limits.output_cap,
        }
    }
}

impl From<JobLimits> for Limits {
    fn from(limits: JobLimits) -> Self {
        Limits {
            kill_grace: Duration::from_millis(limits.kill_grace_ms),
            leak_timeout: Duration::from_millis(limits.leak_timeout_ms),
            output_cap: limits.output_cap,
        }
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl AsyncJob {
    /// The job of one planned `async` hook in this fire.
    pub fn new(
        p: &Planned,
        event: &Event,
        program: Program,
        env: HookEnv,
        cwd: &Path,
        stdin: &[u8],
        limits: &Limits,
    ) -> AsyncJob {
        AsyncJob {
            hook_name: p.name.clone(),
            event: event.id.name().to_owned(),
            program,
            env: env.into_vars(),
            cwd: cwd.to_path_buf(),
            stdin: String::from_utf8_lossy(stdin).into_owned(),
            // Detached: bound by its own timeout, not by this fire's deadline.
            timeout_ms: millis(p.timeout.own),
            limits: JobLimits::from(limits),
            result: None,
            once: None,
            rewake: false,
        }
    }
}

/// What an async hook left for the next fire.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct AsyncResult {
    pub hook_name: String,
    pub event: String,
    #[serde(default)]
    pub system_message: Option<String>,
    #[serde(default)]
    pub context: Option<String>,
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// Starts `job` detached. Returns once the runner process exists, with the
/// path its result will have (`None`: nowhere to deliver it).
pub fn start(
    state: Option<&StateDir>,
    session_id: Option<&str>,
    mut job: AsyncJob,
) -> std::io::Result<Option<PathBuf>> {
    let unique = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let (dir, deliverable) = match (state, session_id) {
        (Some(state), Some(session)) => (state.async_dir(session), true),
        (Some(state), None) => (state.root().join("async-jobs"), false),
        (None, _) => (std::env::temp_dir(), false),
    };
    std::fs::create_dir_all(&dir)?;
    if deliverable {
        job.result = Some(dir.join(format!("{unique}.result.json")));
    }
    let job_path = dir.join(format!("{unique}.job.json"));
    // The job holds the hook's environment: readable by this user only.
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    crate::platform::set_private_mode(&mut options);
    let mut file = options.open(&job_path)?;
    file.write_all(&serde_json::to_vec(&job).map_err(std::io::Error::other)?)?;
    drop(file);
    // Not waited for: the runner outlives this process on purpose.
    let started = std::env::current_exe().and_then(|exe| {
        exec::spawn_detached(&exe, &[OsStr::new("__async-run"), job_path.as_os_str()])
    });
    if let Err(err) = started {
        let _ = std::fs::remove_file(&job_path);
        return Err(err);
    }
    Ok(job.result)
}

/// The detached runner (`hookrun __async-run JOB`).
pub fn run_job(job_path: &Path) -> std::io::Result<()> {
    // Its own session: no terminal hangup or group signal of the host's
    // reaches it.
    let _ = exec::new_session();
    let bytes = crate::fsafe::read(job_path, crate::fsafe::Follow::No)?;
    let _ = std::fs::remove_file(job_path);
    let job: AsyncJob = serde_json::from_slice(&bytes).map_err(std::io::Error::other)?;
    let event = EventId::resolve(&job.event);
    let timeout = Duration::from_millis(job.timeout_ms);
    let mut supervisor = match Supervisor::new() {
        Ok(supervisor) => supervisor,
        Err(err) => {
            // The hook never started: a `once` hook has not run yet.
            if let Some(claim) = &job.once {
                claim.release();
            }
            // Nobody is waiting for this process: the next fire of the
            // session is the only place a failure can be reported.
            let result = AsyncResult {
                hook_name: job.hook_name.clone(),
                event: job.event.clone(),
                system_message: None,
                context: None,
                warnings: vec![format!("async hook {} could not run: {err}", job.hook_name)],
            };
            return write_result(job.result.as_deref(), &result);
        }
    };
    let report = supervisor
        .run(
            vec![Job {
                program: job.program.clone(),
                env: job.env.clone().into(),
                cwd: job.cwd.clone(),
                stdin: Arc::new(job.stdin.clone().into_bytes().into()),
                timeout,
                kill_by: None,
            }],
            &Limits::from(job.limits),
        )
        .into_iter()
        .next()
        .ok_or_else(|| std::io::Error::other("the supervisor returned no report"))?;
    let ending = ending_of(&report, timeout);
    if job.rewake {
        let result = rewake_result(&job, &ending, &report.stdout.bytes, &report.stderr.bytes);
        return write_result(job.result.as_deref(), &result);
    }
    let name = format!("{} (async)", job.hook_name);
    let verdict = verdict::read(
        &event,
        &HookOutput {
            name: &name,
            ending: &ending,
            stdout: &report.stdout.bytes,
            stdout_truncated: report.stdout.truncated(),
            stderr: &report.stderr.bytes,
            fail_closed: false,
            tool_input: None,
        },
    );
    let mut warnings = verdict.notices.warnings.clone();
    let decided: Vec<&str> = [
        (verdict.blocks(), "block"),
        (verdict.permission.is_some(), "permissionDecision"),
        (verdict.updated_input.is_some(), "updatedInput"),
        (verdict.stop, "continue: false"),
        (!verdict.passthrough.is_empty(), "event-specific fields"),
    ]
    .into_iter()
    .filter_map(|(set, what)| set.then_some(what))
    .collect();
    if !decided.is_empty() {
        warnings.push(format!(
            "async hook {} returned {}, which async hooks cannot use: the call was not waiting for it",
            job.hook_name,
            decided.join(", ")
        ));
    }
    let result = AsyncResult {
        hook_name: job.hook_name,
        event: job.event,
        system_message: verdict.system_message,
        context: verdict.context,
        warnings,
    };
    write_result(job.result.as_deref(), &result)
}

/// What an `asyncRewake` hook leaves for the next fire. Claude Code
/// (2.1.332, measured) wakes the model only when such a hook exits 2, with
/// its stderr as a "blocking error" notice; any other ending, and any JSON
/// it prints, reach nobody. Here the exit 2 text becomes context for the
/// next fire of the session (stderr, else stdout); the rest is only said to
/// the user, as warnings, so that a failing check is not silent.
fn rewake_result(job: &AsyncJob, ending: &Ending, stdout: &[u8], stderr: &[u8]) -> AsyncResult {
    let mut warnings = Vec::new();
    let mut context = None;
    let name = &job.hook_name;
    match ending {
        Ending::Exited(2) => {
            let text = [stderr, stdout]
                .into_iter()
                .map(|bytes| String::from_utf8_lossy(bytes).trim().to_owned())
                .find(|text| !text.is_empty())
                .unwrap_or_else(|| "(no output)".to_owned());
            context = Some(format!(
                "Background hook {name} ({}) reported a blocking error: {text}",
                job.event
            ));
        }
        Ending::Exited(0) => {
            if !String::from_utf8_lossy(stdout).trim().is_empty() {
                warnings.push(format!(
                    "asyncRewake hook {name} exited 0 with output, which reaches nobody: only an exit 2 (its stderr) wakes the model"
                ));
            }
        }
        other => warnings.push(format!(
            "asyncRewake hook {name} failed ({}): nothing reached the model",
            describe(other)
        )),
    }
    AsyncResult {
        hook_name: job.hook_name.clone(),
        event: job.event.clone(),
        system_message: None,
        context,
        warnings,
    }
}

fn describe(ending: &Ending) -> String {
    match ending {
        Ending::Exited(code) => format!("exit {code}"),
        Ending::Signaled(signal) => format!("killed by signal {signal}"),
        Ending::TimedOut { seconds } => format!("timed out after {seconds:.1} s"),
        Ending::NotStarted(why) => format!("did not start: {why}"),
        Ending::Failed(why) => why.clone(),
    }
}

/// Written under a temporary name and renamed: a fire never reads half.
fn write_result(path: Option<&Path>, result: &AsyncResult) -> std::io::Result<()> {
    let Some(path) = path else { return Ok(()) };
    // A private temporary file (0600, a fresh name: nothing planted at a
    // known name is written through), then renamed.
    crate::fsafe::write_private_atomically(
        path,
        &serde_json::to_vec(result).map_err(std::io::Error::other)?,
    )
}

/// Results waiting for this session, claimed for delivery (each result is
/// returned by exactly one fire). `started_here` are the results of jobs
/// the collecting fire started itself: left for a later fire. Corrupt files
/// become warnings.
pub fn collect(
    state: &StateDir,
    session_id: &str,
    started_here: &[PathBuf],
) -> (Vec<AsyncResult>, Vec<String>) {
    let dir = state.async_dir(session_id);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return (Vec::new(), Vec::new());
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".result.json"))
        .filter(|p| {
            !started_here
                .iter()
                .any(|own| own.file_name() == p.file_name())
        })
        .collect();
    paths.sort();
    let mut results = Vec::new();
    let mut warnings = Vec::new();
    for path in paths {
        let claimed = path.with_extension("delivering");
        if std::fs::rename(&path, &claimed).is_err() {
            continue; // another fire took it
        }
        match crate::fsafe::read(&claimed, crate::fsafe::Follow::No)
            .map(|b| serde_json::from_slice::<AsyncResult>(&b))
        {
            Ok(Ok(result)) => results.push(result),
            Ok(Err(err)) => warnings.push(format!(
                "dropped a corrupt async result {}: {err}",
                path.display()
            )),
            Err(err) => warnings.push(format!(
                "could not read async result {}: {err}",
                path.display()
            )),
        }
        let _ = std::fs::remove_file(&claimed);
    }
    (results, warnings)
}

/// Hands the output of earlier fires' `async` hooks of this session to the
/// host, on an event whose `additionalContext` reaches the model (kept
/// pending otherwise), whether or not any hook matched this fire. Results of
/// jobs this fire started (`started_here`) wait for the next fire: an async
/// hook never answers the call that started it.
pub fn deliver(
    decision: &mut Decision,
    event: &Event,
    state: Option<&StateDir>,
    started_here: &[PathBuf],
    warnings: &mut Vec<String>,
) {
    let (Some(state), Some(session)) = (state, event.session_id()) else {
        return;
    };
    if !event.id.accepts_context() {
        return;
    }
    let (results, problems) = collect(state, session, started_here);
    warnings.extend(problems);
    let mut contexts = Vec::new();
    let mut messages = Vec::new();
    for result in results {
        if let Some(context) = result.context.filter(|c| !c.is_empty()) {
            contexts.push(context);
        }
        if let Some(message) = result.system_message.filter(|m| !m.is_empty()) {
            messages.push(message);
        }
        warnings.extend(result.warnings);
    }
    if !contexts.is_empty() {
        // They come from an earlier turn: before this fire's own context.
        contexts.extend(decision.context.take());
        decision.context = Some(contexts.join(crate::aggregate::CONTEXT_SEPARATOR));
    }
    decision.system_messages.splice(0..0, messages);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_travel_in_the_job_file() {
        let limits = Limits {
            kill_grace: Duration::from_millis(150),
            leak_timeout: Duration::from_millis(20),
            output_cap: 64,
        };
        let stored = JobLimits::from(&limits);
        let back = Limits::from(stored);
        assert_eq!(
            (back.kill_grace, back.leak_timeout, back.output_cap),
            (limits.kill_grace, limits.leak_timeout, limits.output_cap)
        );
        // A job file without them (an older hookrun) gets the defaults.
        let job: AsyncJob = serde_json::from_value(serde_json::json!({
            "hook_name": "h", "event": "Stop",
            "program": {"Shell": {"shell": "sh", "script": "true"}},
            "env": [], "cwd": "/", "stdin": "", "timeout_ms": 1, "result": null
        }))
        .unwrap();
        assert_eq!(job.limits, JobLimits::default());
        assert_eq!(job.once, None);
    }

    /// Claude Code 2.1.332 (measured): an `async` + `asyncRewake` hook's
    /// exit 2 stderr wakes the model; an exit 0 hook's JSON and an exit 1
    /// reach nobody.
    #[test]
    fn only_an_exit_2_of_a_rewake_hook_reaches_the_model() {
        let job: AsyncJob = serde_json::from_value(serde_json::json!({
            "hook_name": "tests", "event": "PostToolUse",
            "program": {"Shell": {"shell": "sh", "script": "true"}},
            "env": [], "cwd": "/", "stdin": "", "timeout_ms": 1, "result": null,
            "rewake": true
        }))
        .unwrap();
        assert!(job.rewake);
        let woke = rewake_result(&job, &Ending::Exited(2), b"OUT\n", b"  ERR: failed\n");
        assert_eq!(
            woke.context.as_deref(),
            Some("Background hook tests (PostToolUse) reported a blocking error: ERR: failed")
        );
        assert!(woke.warnings.is_empty() && woke.system_message.is_none());
        // No stderr: stdout stands in for it.
        let woke = rewake_result(&job, &Ending::Exited(2), b"only out\n", b"");
        assert!(woke.context.unwrap().ends_with(": only out"));
        let json = br#"{"systemMessage":"s","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}"#;
        let quiet = rewake_result(&job, &Ending::Exited(0), json, b"");
        assert_eq!((&quiet.context, &quiet.system_message), (&None, &None));
        assert!(quiet.warnings[0].contains("reaches nobody"), "{quiet:?}");
        let failed = rewake_result(&job, &Ending::Exited(1), b"", b"boom");
        assert!(failed.context.is_none());
        assert!(failed.warnings[0].contains("exit 1"), "{failed:?}");
        let timed_out = rewake_result(&job, &Ending::TimedOut { seconds: 2.0 }, b"", b"");
        assert!(timed_out.warnings[0].contains("timed out"), "{timed_out:?}");
    }

    #[test]
    fn a_once_claim_the_runner_gives_back_can_be_taken_again() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().display().to_string();
        let state = StateDir::locate(|n| (n == "HOOKRUN_STATE_DIR").then(|| root.clone())).unwrap();
        assert!(state.claim("s", "once", "k").unwrap());
        assert!(!state.claim("s", "once", "k").unwrap());
        OnceClaim {
            state_root: dir.path().to_path_buf(),
            session: "s".into(),
            key: "k".into(),
        }
        .release();
        assert!(state.claim("s", "once", "k").unwrap(), "given back");
    }
}

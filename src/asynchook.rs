//! `async` hooks (SPEC §7.4): started detached, never waited for; their
//! `systemMessage` / `additionalContext` reach the host with the next fire
//! of the same session on an event that accepts `additionalContext`.
//!
//! hookrun starts a copy of itself (`hookrun __async-run JOB`) in a new
//! process group with no stdio; that runner calls `setsid`, runs the hook
//! under the same supervisor as every other hook (timeouts, output caps),
//! and leaves a result file in the session's state folder. Delivery claims a
//! result by renaming it, so it is delivered exactly once even when fires
//! overlap.

use std::ffi::OsString;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::catalog::EventId;
use crate::exec::{Job, Limits, Program, Supervisor, Termination};
use crate::state::StateDir;
use crate::verdict::{self, Ending, HookOutput};

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
    /// Where the result goes (`None`: nowhere to deliver it).
    pub result: Option<PathBuf>,
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

/// Starts `job` detached. Returns once the runner process exists.
pub fn start(
    state: Option<&StateDir>,
    session_id: Option<&str>,
    mut job: AsyncJob,
) -> std::io::Result<()> {
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
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&job_path)?;
    file.write_all(&serde_json::to_vec(&job).map_err(std::io::Error::other)?)?;
    drop(file);
    let exe = std::env::current_exe()?;
    // Not waited for: the runner outlives this process on purpose. Its own
    // stdio is /dev/null so it can never hold the host's pipes.
    let child = Command::new(exe)
        .arg("__async-run")
        .arg(&job_path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    if child.is_err() {
        let _ = std::fs::remove_file(&job_path);
    }
    child.map(drop)
}

/// The detached runner (`hookrun __async-run JOB`).
pub fn run_job(job_path: &Path) -> std::io::Result<()> {
    // Its own session: no terminal hangup or group signal of the host's
    // reaches it.
    let _ = nix::unistd::setsid();
    let bytes = std::fs::read(job_path)?;
    let _ = std::fs::remove_file(job_path);
    let job: AsyncJob = serde_json::from_slice(&bytes).map_err(std::io::Error::other)?;
    let event = EventId::resolve(&job.event);
    let timeout = Duration::from_millis(job.timeout_ms);
    let mut supervisor = match Supervisor::new() {
        Ok(supervisor) => supervisor,
        Err(err) => {
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
                env: job.env.clone(),
                cwd: job.cwd.clone(),
                stdin: Arc::from(job.stdin.as_bytes()),
                timeout,
                kill_by: None,
            }],
            &Limits::default(),
        )
        .into_iter()
        .next()
        .ok_or_else(|| std::io::Error::other("the supervisor returned no report"))?;
    let ending = if report.timed_out {
        Ending::TimedOut {
            seconds: timeout.as_secs_f64(),
        }
    } else {
        match &report.termination {
            Termination::Exited(code) => Ending::Exited(*code),
            Termination::Signaled(signal) => Ending::Signaled(*signal),
            Termination::SpawnFailed(why) => Ending::NotStarted(why.clone()),
        }
    };
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
    let mut warnings = verdict.warnings.clone();
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

/// Written under a temporary name and renamed: a fire never reads half.
fn write_result(path: Option<&Path>, result: &AsyncResult) -> std::io::Result<()> {
    let Some(path) = path else { return Ok(()) };
    let temp = path.with_extension("tmp");
    std::fs::write(
        &temp,
        serde_json::to_vec(result).map_err(std::io::Error::other)?,
    )?;
    std::fs::rename(&temp, path)
}

/// Results waiting for this session, claimed for delivery (each result is
/// returned by exactly one fire). Corrupt files become warnings.
pub fn collect(state: &StateDir, session_id: &str) -> (Vec<AsyncResult>, Vec<String>) {
    let dir = state.async_dir(session_id);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return (Vec::new(), Vec::new());
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".result.json"))
        .collect();
    paths.sort();
    let mut results = Vec::new();
    let mut warnings = Vec::new();
    for path in paths {
        let claimed = path.with_extension("delivering");
        if std::fs::rename(&path, &claimed).is_err() {
            continue; // another fire took it
        }
        match std::fs::read(&claimed).map(|b| serde_json::from_slice::<AsyncResult>(&b)) {
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

//! The full report of one fire (`--format report`), also the basis of the
//! audit log line: plain data, serialised with serde, built by [`build`]
//! from what the stages produced (the funnel's answer, the plan, what ran,
//! the decision and its exit code; the encoded value once there is one),
//! never by re-reading rendered text.

use serde::Serialize;

use crate::aggregate::Decision;
use crate::context::FireContext;
use crate::event::Event;
use crate::exec::Termination;
use crate::exit::Exit;
use crate::hookstate::HookState;
use crate::host::Rendered;
use crate::plan::Plan;
use crate::run::{Exchanged, Executed, HookRun, Ran};
use crate::select::{Considered, Stage};
use crate::verdict::Outcome;

/// Everything about one fire.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub hookrun_version: &'static str,
    pub event: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    pub project_dir: String,
    /// `allow`, `ask`, `defer`, `deny` (a standing block) or `none`.
    pub decision: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub exit_code: u8,
    /// The protocol answer hookrun gave (or would give) on stdout.
    pub output: serde_json::Value,
    pub sequential: bool,
    pub settings: Vec<FileReport>,
    pub hooks: Vec<HookReport>,
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
    pub duration_ms: f64,
}

/// One settings file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub path: String,
    pub source: &'static str,
    pub state: &'static str,
    pub trust: &'static str,
    pub claude_mode: bool,
}

/// One hook as the funnel and the run saw it.
#[derive(Debug, Clone, Serialize)]
pub struct HookReport {
    pub name: String,
    pub source: String,
    pub source_kind: &'static str,
    pub json_path: String,
    pub event: String,
    /// `ran`, `async`, `skipped`, `not run` (unsupported) or `stopped`.
    pub state: HookState,
    /// The funnel layer that stopped it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer: Option<&'static str>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<RunReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// How a hook that ran ended.
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// `success`, `block` or `failure`.
    pub outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// http hooks: the response status, when a response arrived.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    pub timed_out: bool,
    pub killed: bool,
    pub leaked: bool,
    pub duration_ms: f64,
    pub timeout_ms: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    pub stdout: String,
    pub stdout_bytes: u64,
    pub stdout_truncated: bool,
    pub stderr: String,
    pub stderr_bytes: u64,
    pub stderr_truncated: bool,
}

/// Milliseconds with microsecond precision, for reports.
pub fn millis(duration: std::time::Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

/// The start of a stream for a report: at most `max` bytes, lossy UTF-8.
pub fn excerpt(bytes: &[u8], max: usize) -> String {
    let cut = &bytes[..bytes.len().min(max)];
    let mut text = String::from_utf8_lossy(cut).into_owned();
    if bytes.len() > max {
        text.push('…');
    }
    text
}

/// What a report is built from besides the fire's context: what the
/// stages produced.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    pub event: &'a Event,
    pub considered: &'a [Considered],
    pub plan: &'a Plan,
    pub executed: &'a Executed,
    pub decision: &'a Decision,
    /// The exit code of the answer (see [`crate::host::exit`]).
    pub exit: Exit,
}

/// The report of one fire.
pub fn build(cx: &FireContext<'_>, from: &Sources<'_>) -> Report {
    let Sources {
        event,
        considered,
        plan,
        executed,
        decision,
        exit,
    } = *from;
    let settings = cx.settings;
    let mut hooks = Vec::with_capacity(considered.len());
    for (slot, c) in considered.iter().enumerate() {
        let hook = &settings.hooks[c.hook];
        let file = settings.file_of(hook);
        let planned = plan.for_slot(slot);
        let mut warnings = c.notices.warnings.clone();
        let mut notes = c.notices.notes.clone();
        if let Some((_, p)) = planned {
            warnings.extend(p.notices.warnings.iter().cloned());
            notes.extend(p.notices.notes.iter().cloned());
        }
        let (state, run) = match (&c.stage, planned) {
            (Stage::Run, Some((i, _))) => match &executed.hooks[i] {
                HookRun::Ran(ran) => {
                    warnings.extend(ran.verdict.notices.warnings.iter().cloned());
                    notes.extend(ran.verdict.notices.notes.iter().cloned());
                    (HookState::Ran, Some(run_report(ran)))
                }
                HookRun::Async => {
                    notes.push("started detached; its output arrives with a later fire".to_owned());
                    (HookState::Async, None)
                }
                HookRun::Skipped(why) => {
                    notes.push(why.clone());
                    (HookState::Skipped, None)
                }
                HookRun::NotRun => (HookState::NotRun, None),
            },
            _ => (HookState::Stopped, None),
        };
        hooks.push(HookReport {
            name: hook.display_name(),
            source: file.path().display().to_string(),
            source_kind: file.kind().as_str(),
            json_path: hook.json_path.as_str().to_owned(),
            event: hook.event.name().to_owned(),
            state,
            layer: match &c.stage {
                Stage::Stopped(layer) => Some(layer.as_str()),
                Stage::Run => None,
            },
            detail: c.why(settings, event),
            run,
            warnings,
            notes,
        });
    }
    Report {
        hookrun_version: env!("CARGO_PKG_VERSION"),
        event: event.id.name().to_owned(),
        session_id: event.session_id().map(str::to_owned),
        tool_name: event.tool_name().map(str::to_owned),
        tool_use_id: event.tool_use_id().map(str::to_owned),
        project_dir: cx.project_dir.display().to_string(),
        decision: decision.decision_word().to_owned(),
        reason: decision
            .block
            .clone()
            .or_else(|| decision.permission_reason.clone()),
        exit_code: exit.code(),
        // The answer's value, once it is encoded (see [`answered`]).
        output: serde_json::Value::Null,
        sequential: plan.sequential,
        settings: settings
            .files
            .iter()
            .map(|f| FileReport {
                path: f.path().display().to_string(),
                source: f.kind().as_str(),
                state: f.state.as_str(),
                trust: f.trust.as_str(),
                claude_mode: f.source.claude_mode,
            })
            .collect(),
        hooks,
        warnings: decision.notices.warnings.clone(),
        notes: decision.notices.notes.clone(),
        duration_ms: millis(cx.started.elapsed()),
    }
}

/// The report of a fire once its answer is encoded: the answer's value,
/// and everything the fire said (the log's failure, how the encoding
/// mapped the decision).
pub fn answered(report: &mut Report, decision: &Decision, rendered: &Rendered) {
    report.warnings.clone_from(&decision.notices.warnings);
    report.notes.clone_from(&decision.notices.notes);
    report.output = rendered.value.clone();
}

fn run_report(ran: &Ran) -> RunReport {
    const EXCERPT: usize = 4096;
    let verdict = &ran.verdict;
    let (exit_code, signal) = match ran.process().map(|report| &report.termination) {
        None => (ran.exchanged().and_then(Exchanged::exit_code), None),
        Some(Termination::Exited(code)) => (Some(*code), None),
        Some(Termination::Signaled(signal)) => (
            None,
            Some(
                crate::platform::signal_name(*signal)
                    .map_or_else(|| signal.to_string(), str::to_owned),
            ),
        ),
        Some(Termination::SpawnFailed(_)) => (None, None),
    };
    RunReport {
        outcome: verdict.outcome.unwrap_or(Outcome::Success).as_str(),
        exit_code,
        http_status: ran.http_status(),
        signal,
        timed_out: ran.timed_out(),
        killed: ran.killed(),
        leaked: ran.leaked(),
        duration_ms: millis(ran.duration()),
        timeout_ms: millis(ran.timeout),
        block_reason: verdict.block_reason.clone(),
        failure: verdict.failure.clone(),
        stdout: excerpt(&ran.stdout().bytes, EXCERPT),
        stdout_bytes: ran.stdout().total,
        stdout_truncated: ran.stdout().truncated(),
        stderr: excerpt(&ran.stderr().bytes, EXCERPT),
        stderr_bytes: ran.stderr().total,
        stderr_truncated: ran.stderr().truncated(),
    }
}

//! The full report of one fire (`--format report`), also the basis of the
//! audit log line. Plain data, serialised with serde.

use serde::Serialize;

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
    /// `ran`, `not run` (unsupported) or `stopped`.
    pub state: &'static str,
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

//! The audit log (SPEC §7.4): one JSON line per fire, appended atomically.
//!
//! Concurrent hookrun processes (a host fires many events at once) never
//! interleave or lose lines: each line is written with one `write` call on an
//! `O_APPEND` file while holding an exclusive `flock`. A log that cannot be
//! written is a warning for the caller, never a failed fire. The line format
//! is versioned (`"v"`) and documented in `docs/audit-log.md`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::report::Report;

/// Version of the line format.
pub const FORMAT_VERSION: u32 = 1;

/// One hook in a log line.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HookLine {
    pub name: String,
    pub source: String,
    /// `success`, `block`, `failure`, or `not run` (unsupported).
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    #[serde(default)]
    pub timed_out: bool,
    #[serde(default)]
    pub leaked: bool,
    #[serde(default)]
    pub duration_ms: f64,
}

/// One fire.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Line {
    pub v: u32,
    /// RFC 3339, UTC, milliseconds.
    pub time: String,
    pub event: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// `allow`, `ask`, `defer`, `deny` or `none`.
    pub decision: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub exit_code: u8,
    #[serde(default)]
    pub hooks: Vec<HookLine>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    pub duration_ms: f64,
    pub hookrun_version: String,
    /// The fire's input as the host sent it (before any hook changed it),
    /// only when `HOOKRUN_LOG_INPUT` is on: it may hold secrets. What
    /// `hookrun replay` replays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<serde_json::Value>,
}

impl Line {
    /// The log line of a finished fire: the hooks that were selected (ran,
    /// or could not run), not the ones the funnel stopped.
    pub fn from_report(report: &Report, time: SystemTime) -> Line {
        let hooks = report
            .hooks
            .iter()
            .filter(|h| h.state != crate::hookstate::HookState::Stopped)
            .map(|h| HookLine {
                name: h.name.clone(),
                source: h.source.clone(),
                outcome: h
                    .run
                    .as_ref()
                    .map_or_else(|| h.state.as_str().to_owned(), |r| r.outcome.to_owned()),
                exit_code: h.run.as_ref().and_then(|r| r.exit_code),
                signal: h.run.as_ref().and_then(|r| r.signal.clone()),
                timed_out: h.run.as_ref().is_some_and(|r| r.timed_out),
                leaked: h.run.as_ref().is_some_and(|r| r.leaked),
                duration_ms: h.run.as_ref().map_or(0.0, |r| r.duration_ms),
            })
            .collect();
        Line {
            v: FORMAT_VERSION,
            time: humantime::format_rfc3339_millis(time).to_string(),
            event: report.event.clone(),
            session_id: report.session_id.clone(),
            tool_name: report.tool_name.clone(),
            tool_use_id: report.tool_use_id.clone(),
            decision: report.decision.clone(),
            reason: report.reason.clone(),
            exit_code: report.exit_code,
            hooks,
            warnings: report.warnings.clone(),
            duration_ms: report.duration_ms,
            hookrun_version: report.hookrun_version.to_owned(),
            input: None,
        }
    }
}

/// The variable that turns on recording each fire's input in the log.
pub const LOG_INPUT_VAR: &str = "HOOKRUN_LOG_INPUT";

/// The input to record with a fire's line: `None` unless `HOOKRUN_LOG_INPUT`
/// is on (`1`, `true`, `yes`, `on`) in hookrun's environment `env`. The
/// event as the host sent it: `original_input` is its `tool_input` before
/// sequential hooks changed it.
pub fn input_for_log(
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    event: &Event,
    original_input: Option<&serde_json::Value>,
) -> Option<serde_json::Value> {
    let on = env.iter().any(|(name, value)| {
        name == LOG_INPUT_VAR
            && matches!(
                value.to_string_lossy().trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
    });
    if !on {
        return None;
    }
    let mut fields = event.fields().clone();
    if let Some(input) = original_input {
        fields.insert("tool_input".to_owned(), input.clone());
    }
    Some(serde_json::Value::Object(fields))
}

/// Why a line could not be written.
#[derive(Debug, thiserror::Error)]
#[error("could not write the audit log {path}: {source}")]
pub struct LogError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// An audit log opened for one line: every check of the file made, so
/// only the write itself (and its lock) can still fail.
#[derive(Debug)]
pub struct Log {
    path: PathBuf,
    file: std::fs::File,
}

/// Opens the log at `path` (creating its folder): 0600, since lines may
/// hold inputs; never through a planted link, never a FIFO, never
/// hookrun's own stdout or stderr (a second JSON line there would spoil
/// the answer).
pub fn open(path: &Path) -> Result<Log, LogError> {
    let fail = |source| LogError {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let own_output = || {
        fail(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is hookrun's own stdout or stderr, where the answer goes; log to a file",
        ))
    };
    // `/dev/stdout` is a link, refused below as one: say what it is first.
    if crate::fsafe::names_own_output(path) {
        return Err(own_output());
    }
    let file = crate::fsafe::open_private(path, crate::fsafe::Write::Append).map_err(fail)?;
    if crate::fsafe::is_own_output(&file) {
        return Err(own_output());
    }
    Ok(Log {
        path: path.to_path_buf(),
        file,
    })
}

impl Log {
    /// Appends `line` under the file's lock.
    pub fn append(self, line: &Line) -> Result<(), LogError> {
        let Log { path, file } = self;
        let fail = |source| LogError {
            path: path.clone(),
            source,
        };
        let mut bytes = serde_json::to_vec(line).expect("log lines serialise");
        bytes.push(b'\n');
        let mut locked = crate::fsafe::lock_exclusive(file).map_err(fail)?;
        // One write of the whole line: with O_APPEND and the lock, no other
        // writer can land in the middle of it.
        locked.write_all(&bytes).map_err(fail)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opens the log and appends one line.
    fn append(path: &Path, line: &Line) -> Result<(), LogError> {
        open(path)?.append(line)
    }

    fn line(n: usize) -> Line {
        Line {
            v: FORMAT_VERSION,
            time: "2026-01-01T00:00:00.000Z".into(),
            event: "PreToolUse".into(),
            session_id: Some("s".into()),
            tool_name: Some("Bash".into()),
            tool_use_id: Some(format!("t{n}")),
            decision: "none".into(),
            reason: None,
            exit_code: 0,
            hooks: vec![HookLine {
                name: "x".repeat(5000),
                source: "/s.json".into(),
                outcome: "success".into(),
                exit_code: Some(0),
                signal: None,
                timed_out: false,
                leaked: false,
                duration_ms: 1.5,
            }],
            warnings: vec![],
            duration_ms: 2.0,
            hookrun_version: "0".into(),
            input: None,
        }
    }

    #[test]
    fn the_input_is_recorded_only_when_asked_and_as_sent() {
        use std::ffi::OsString;
        let event = Event::parse(
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"changed by a hook"}}"#,
            None,
        )
        .unwrap();
        let original = serde_json::json!({"command": "as sent"});
        let env = |value: &str| vec![(OsString::from(LOG_INPUT_VAR), OsString::from(value))];
        assert_eq!(input_for_log(&[], &event, Some(&original)), None);
        assert_eq!(input_for_log(&env("0"), &event, Some(&original)), None);
        let recorded = input_for_log(&env("1"), &event, Some(&original)).unwrap();
        assert_eq!(recorded["tool_input"]["command"], "as sent");
        assert_eq!(recorded["hook_event_name"], "PreToolUse");
    }

    #[test]
    fn concurrent_appends_never_interleave() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/audit.jsonl");
        let threads: Vec<_> = (0..16)
            .map(|n| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for i in 0..10 {
                        append(&path, &line(n * 100 + i)).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 160);
        for l in lines {
            let parsed: Line = serde_json::from_str(l).unwrap();
            assert_eq!(parsed.hooks[0].name.len(), 5000);
        }
    }

    #[test]
    fn an_unwritable_log_is_an_error_value() {
        let err = append(
            Path::new("/proc/hookrun-cannot-write/audit.jsonl"),
            &line(0),
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with(
                "could not write the audit log /proc/hookrun-cannot-write/audit.jsonl"
            )
        );
    }
}

//! The host seam: which agent called hookrun, and how its events and answers
//! translate to and from hookrun's vocabulary (Claude Code's).
//!
//! The pipeline works in Claude Code's vocabulary only: event names, tool
//! names and `tool_input` field names. A host module decodes its stdin into
//! that vocabulary and encodes the one aggregated decision into exactly what
//! the host accepts. Per-host facts are table rows in the host's module;
//! nothing host-specific lives in the pipeline.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod mapping;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::{Event, InputError};
use crate::output::Rendered;

/// Which host called hookrun: `--host NAME` / `HOOKRUN_HOST`; default Claude Code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum HostId {
    /// Claude Code (and hosts that speak its protocol unchanged).
    #[value(name = "claude-code", alias = "claude")]
    ClaudeCode,
    /// Gemini CLI.
    #[value(name = "gemini", alias = "gemini-cli")]
    Gemini,
    /// OpenAI Codex CLI.
    #[value(name = "codex")]
    Codex,
    /// Cursor.
    #[value(name = "cursor")]
    Cursor,
    /// GitHub Copilot CLI.
    #[value(name = "copilot", alias = "copilot-cli")]
    Copilot,
}

impl HostId {
    pub const ALL: [HostId; 5] = [
        HostId::ClaudeCode,
        HostId::Gemini,
        HostId::Codex,
        HostId::Cursor,
        HostId::Copilot,
    ];

    /// The name on the command line and in `HOOKRUN_HOST`.
    pub fn as_str(self) -> &'static str {
        match self {
            HostId::ClaudeCode => "claude-code",
            HostId::Gemini => "gemini",
            HostId::Codex => "codex",
            HostId::Cursor => "cursor",
            HostId::Copilot => "copilot",
        }
    }

    /// The product's name, for messages.
    pub fn display(self) -> &'static str {
        match self {
            HostId::ClaudeCode => "Claude Code",
            HostId::Gemini => "Gemini CLI",
            HostId::Codex => "Codex",
            HostId::Cursor => "Cursor",
            HostId::Copilot => "Copilot CLI",
        }
    }
}

/// The host's environment variables as hookrun received them.
#[derive(Debug, Clone, Default)]
pub struct HostEnv {
    vars: BTreeMap<String, String>,
}

impl HostEnv {
    pub fn from_process() -> HostEnv {
        HostEnv {
            vars: std::env::vars().collect(),
        }
    }

    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> HostEnv {
        HostEnv {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        }
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.vars
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }
}

/// A host's event in hookrun's vocabulary.
#[derive(Debug, Clone)]
pub struct Decoded {
    pub event: Event,
    /// The event name the host used (`BeforeTool`).
    pub host_event: String,
    /// The tool name the host used (`run_shell_command`), if any.
    pub host_tool: Option<String>,
    /// Report only.
    pub notes: Vec<String>,
    /// For the person at the host.
    pub warnings: Vec<String>,
}

/// A decision in exactly what the host accepts.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub rendered: Rendered,
    /// Report only.
    pub notes: Vec<String>,
    /// What the host could not be told, mapped to the safest expressible
    /// answer (already in the answer's message where the host shows one).
    pub warnings: Vec<String>,
}

/// What the pipeline needs from a host. Pure: no I/O.
pub trait Host: Sync {
    fn id(&self) -> HostId;
    /// The host's stdin object (+ the EVENT argument, + the host's env vars)
    /// → hookrun's event in Claude Code's vocabulary. The host's original
    /// event name, tool name and tool input stay available to hooks under
    /// the `hookrun_host` field.
    fn decode(
        &self,
        raw: Map<String, Value>,
        arg: Option<&str>,
        env: &HostEnv,
    ) -> Result<Decoded, InputError>;
    /// The deadline when `--deadline` is not given: the host's own timeout
    /// for the event (as `hookrun install` writes it) minus a margin.
    fn default_deadline(&self, event: &EventId) -> Duration;
    /// The host's own cap on consecutive Stop blocks, if it has one.
    fn own_stop_block_cap(&self, env: &HostEnv) -> Option<u32>;
    /// One aggregated decision → what this host accepts.
    fn encode(&self, event: &Event, decision: &Decision) -> Encoded;
}

pub fn host(id: HostId) -> &'static dyn Host {
    match id {
        HostId::ClaudeCode => &claude::ClaudeCode,
        HostId::Gemini => &gemini::Gemini,
        HostId::Codex => &codex::Codex,
        HostId::Cursor => &cursor::Cursor,
        HostId::Copilot => &copilot::Copilot,
    }
}

/// The default deadline for a host whose timeout is one number for every
/// event: that timeout minus a margin (as for Claude Code).
pub fn deadline_within(host_timeout: Duration) -> Duration {
    if host_timeout <= Duration::from_secs(2) {
        Duration::from_millis(1200).min(host_timeout)
    } else {
        host_timeout.saturating_sub(Duration::from_secs(1))
    }
}

//! The host seam: what differs between the agents that call hookrun.
//!
//! The pipeline speaks one vocabulary (Claude Code's event names, tool
//! names and `tool_input` fields, [`Event`] in, [`Decision`] out). A [`Host`]
//! translates at both ends: [`Host::decode`] turns the host's stdin object
//! into an [`Event`], [`Host::encode`] turns the one aggregated decision into
//! exactly what the host accepts (stdout, stderr, exit code). Per-host facts
//! (default deadlines, a host's own Stop-block cap, `hookSpecificOutput`
//! rules) are methods of the host's module, never branches in the pipeline.
//!
//! Adding a host is one module (`host/<name>.rs` implementing [`Host`]), one
//! [`HostId`] variant and one row in [`HOSTS`].

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod mapping;
pub mod wiring;

#[cfg(test)]
mod golden;

use std::ffi::{OsStr, OsString};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::{Event, InputError};
use crate::exit::Exit;

/// Which host called hookrun: `--host NAME` / `HOOKRUN_HOST`; default
/// Claude Code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum HostId {
    /// Claude Code (and hosts that speak its protocol).
    #[default]
    #[value(alias = "claude")]
    ClaudeCode,
    /// Gemini CLI.
    Gemini,
    /// OpenAI Codex CLI.
    Codex,
    /// Cursor (documented format, not verified against the real host).
    Cursor,
    /// GitHub Copilot CLI (documented format, not verified against the real
    /// host).
    Copilot,
}

impl HostId {
    /// The name used on the command line, in `HOOKRUN_HOST` and in reports.
    pub fn name(self) -> &'static str {
        host(self).name()
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

/// The host's environment variables (hookrun's own environment as the host
/// started it), for hosts that pass facts there (a project directory, a
/// cap).
#[derive(Debug, Clone, Copy)]
pub struct HostEnv<'a> {
    vars: &'a [(OsString, OsString)],
}

impl<'a> HostEnv<'a> {
    pub fn new(vars: &'a [(OsString, OsString)]) -> HostEnv<'a> {
        HostEnv { vars }
    }

    /// A variable's value; an empty value counts as unset.
    pub fn get(&self, name: &str) -> Option<&'a OsStr> {
        self.vars
            .iter()
            .rev()
            .find(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.as_os_str())
    }
}

/// The host's event, in hookrun's vocabulary.
#[derive(Debug)]
pub struct Decoded {
    pub event: Event,
    /// The event name as the host spelled it, when the host's vocabulary
    /// differs (`None` for Claude Code).
    pub host_event: Option<String>,
    /// For the report (what was translated).
    pub notes: Vec<String>,
    /// For the person at the host (what could not be translated).
    pub warnings: Vec<String>,
}

impl Decoded {
    /// An event that needed no translation.
    pub fn plain(event: Event) -> Decoded {
        Decoded {
            event,
            host_event: None,
            notes: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// What `hookrun fire` prints and how it exits, for one host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub stdout: String,
    /// On a block by exit code: exactly the block reason.
    pub stderr: String,
    pub exit: Exit,
    /// The answer as a value, for the report and the log: the JSON object
    /// on stdout, or the stdout text as a string for a plain-text answer.
    pub value: Value,
}

/// One decision encoded for a host.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub rendered: Rendered,
    /// For the report: how the decision was mapped.
    pub notes: Vec<String>,
    /// What the host cannot express, mapped to the safest it can: the
    /// pipeline adds these to the decision's warnings and encodes again, so
    /// they reach the person too.
    pub warnings: Vec<String>,
}

impl Encoded {
    /// An encoding that expressed everything.
    pub fn exact(rendered: Rendered) -> Encoded {
        Encoded {
            rendered,
            notes: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// What the pipeline needs from a host. Pure: no I/O.
pub trait Host: Sync {
    fn id(&self) -> HostId;

    /// The name on the command line (`--host NAME`).
    fn name(&self) -> &'static str;

    /// The host's stdin object and the EVENT argument → hookrun's event.
    /// Fields the host sent and hookrun does not translate stay in the raw
    /// object, so hooks that need them still see them.
    fn decode(
        &self,
        raw: Map<String, Value>,
        arg: Option<&str>,
        env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError>;

    /// The deadline when `--deadline` is not given: the host's own timeout
    /// for the event minus a margin, so the answer arrives before the host
    /// throws it away.
    fn default_deadline(&self, event: &EventId) -> Duration;

    /// Whether decoding keeps the host's event as it is (only
    /// `hook_event_name` set), so that hooks may get the host's own bytes
    /// (see [`Event::keep_host_line`]).
    fn decodes_verbatim(&self) -> bool {
        false
    }

    /// Whether the host caps consecutive Stop blocks itself (`None`:
    /// hookrun's stop-loop guard is the only cap).
    fn own_stop_block_cap(&self, env: &HostEnv<'_>) -> Option<u32>;

    /// One aggregated decision → exactly what this host accepts.
    fn encode(&self, event: &Event, decision: &Decision) -> Encoded;

    /// The host's event names that differ from hookrun's (its
    /// vocabulary), for the misspelt-event warnings; names not listed
    /// mean what they mean to hookrun.
    fn events(&self) -> &'static [mapping::EventRow] {
        &[]
    }
}

/// Every host hookrun speaks, one row each.
pub static HOSTS: &[&dyn Host] = &[
    &claude::ClaudeCode,
    &gemini::Gemini,
    &codex::Codex,
    &cursor::Cursor,
    &copilot::Copilot,
];

/// The implementation of a host.
pub fn host(id: HostId) -> &'static dyn Host {
    HOSTS
        .iter()
        .copied()
        .find(|h| h.id() == id)
        .expect("every HostId has a row in HOSTS")
}

/// Encodes `decision` for `host`; what the host could not express joins the
/// decision's warnings (and notes) first, so the answer says so.
pub fn encode(host: &dyn Host, event: &Event, decision: &mut Decision) -> Rendered {
    let encoded = host.encode(event, decision);
    if encoded.warnings.is_empty() && encoded.notes.is_empty() {
        return encoded.rendered;
    }
    decision.warnings.extend(encoded.warnings);
    decision.notes.extend(encoded.notes);
    host.encode(event, decision).rendered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_host_id_has_one_row() {
        use clap::ValueEnum as _;
        for id in HostId::value_variants() {
            assert_eq!(HOSTS.iter().filter(|h| h.id() == *id).count(), 1, "{id:?}");
            let value = id.to_possible_value().expect("not skipped");
            assert_eq!(value.get_name(), host(*id).name());
        }
    }

    #[test]
    fn what_a_host_cannot_express_is_said_once() {
        // A stop on PreToolUse (a prompt hook's `ok: false`, or
        // `continue: false`) behind Codex becomes a deny with a warning.
        let event = Event::from_object(
            serde_json::json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})
                .as_object()
                .unwrap()
                .clone(),
            Some("PreToolUse"),
        )
        .unwrap();
        for id in [
            HostId::Codex,
            HostId::Gemini,
            HostId::Cursor,
            HostId::Copilot,
        ] {
            let mut decision = Decision {
                stop: true,
                stop_reason: Some("halt".into()),
                ..Decision::default()
            };
            let rendered = encode(host(id), &event, &mut decision);
            let text = rendered.value.to_string();
            for warning in &decision.warnings {
                let shown = serde_json::to_string(warning).unwrap();
                let shown = shown.trim_matches('"');
                assert_eq!(text.matches(shown).count(), 1, "{id:?}: {text}");
            }
        }
    }

    #[test]
    fn host_env_reads_the_last_non_empty_value() {
        let vars = vec![
            (OsString::from("A"), OsString::from("1")),
            (OsString::from("B"), OsString::new()),
            (OsString::from("A"), OsString::from("2")),
        ];
        let env = HostEnv::new(&vars);
        assert_eq!(env.get("A"), Some(OsStr::new("2")));
        assert_eq!(env.get("B"), None);
        assert_eq!(env.get("C"), None);
    }
}

//! The host seam: what differs between the agents that call hookrun.
//!
//! The pipeline speaks one vocabulary (Claude Code's event names, tool
//! names and `tool_input` fields, [`Event`] in, [`Decision`] out). A [`Host`]
//! translates at both ends: [`Host::decode`] turns the host's stdin object
//! into an [`Event`]; [`Host::adapt`] works out what the host will do with
//! the one aggregated decision where it cannot do what it says (with a
//! warning each, which join the decision's), and [`Host::render`] encodes
//! that once into exactly what the host accepts (stdout, stderr, exit
//! code). Per-host facts
//! (default deadlines, a host's own Stop-block cap, `hookSpecificOutput`
//! rules) are methods of the host's module, never branches in the pipeline.
//!
//! Every fact about a host lives in its own module: its [`Facts`] (names,
//! events, tools, the wiring `hookrun install` writes, what `doctor` knows
//! of its tool names) and its [`Host`] implementation. Adding a host is one
//! module (`host/<name>.rs`), one [`HostId`] variant and one row in
//! [`HOSTS`]; `registry_facts_are_complete_and_consistent` checks the rest.
//! A decode starts with [`mapping::Translated::begin`] and ends with
//! [`mapping::finish`]; an adaptation builds an [`answer::Adapting`], an
//! encoder an [`answer::Answer`]; what more
//! than one host needs (a shell result in Gemini's form, a patch's files,
//! context where a Gemini-family host shows it) is in [`common`], never
//! taken from another host's module.

pub(crate) mod answer;
pub(crate) mod claude;
pub(crate) mod cline;
pub(crate) mod codex;
pub(crate) mod common;
pub(crate) mod copilot;
pub(crate) mod cursor;
pub(crate) mod droid;
pub(crate) mod gemini;
pub(crate) mod launch;
pub(crate) mod mapping;
pub(crate) mod qwen;
pub(crate) mod wiring;

#[cfg(test)]
mod golden;

use std::ffi::{OsStr, OsString};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::{Event, InputError};
use crate::exit::Exit;
use crate::notices::Notices;

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
    /// Cursor (unverified: built from its published format, never run
    /// against a real Cursor).
    Cursor,
    /// GitHub Copilot CLI.
    Copilot,
    /// Cline CLI (hook files; `hookrun install cline` writes them).
    Cline,
    /// Qwen Code.
    Qwen,
    /// Factory Droid.
    Droid,
}

impl HostId {
    /// The name used on the command line, in `HOOKRUN_HOST` and in reports.
    pub fn name(self) -> &'static str {
        host(self).name()
    }

    /// The product's name, for messages.
    pub fn display(self) -> &'static str {
        host(self).facts().display
    }
}

/// Everything hookrun knows about a host that is data, one value per host
/// (its module's `FACTS`).
#[derive(Debug)]
pub struct Facts {
    pub id: HostId,
    /// The name on the command line (`--host NAME`) and in `HOOKRUN_HOST`.
    pub name: &'static str,
    /// The product's name, for messages.
    pub display: &'static str,
    /// The release hookrun's adapter was measured against; `None`: built
    /// from the host's documentation only (said wherever a user reads it).
    pub measured: Option<&'static str>,
    /// The host's event names that differ from hookrun's (its vocabulary).
    pub events: &'static [mapping::EventRow],
    /// The host's tools hookrun translates to Claude Code's.
    pub tools: &'static [mapping::ToolRow],
    /// Every tool name the host is known to send (for `doctor`'s checks of
    /// matchers and `if` rules): includes every host name of [`Self::tools`].
    pub tool_names: &'static [&'static str],
    /// How the host's own config routes events to hookrun.
    pub wiring: &'static wiring::Wiring,
    /// The host's own hook timeout when the config gives none.
    pub timeout: Duration,
    /// What the host makes of an entry whose command the shell cannot
    /// start (exit 127), for `doctor`.
    pub on_127: &'static str,
    /// The host sets `$CLAUDE_PROJECT_DIR` in its hooks' environment (so an
    /// entry may name a binary inside the project: `install --pinned`).
    pub sets_claude_project_dir: bool,
    /// The host's own variable naming its project folder, if it has one
    /// besides `$CLAUDE_PROJECT_DIR` (where `install` writes).
    pub project_dir_var: Option<&'static str>,
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
    /// What could not be translated (warnings, for the person at the
    /// host) and what was (notes, for the report).
    pub notices: Notices,
    /// The host sent this event where it is not one (Qwen Code's
    /// UserPromptSubmit at a continuation turn): no hooks run for it, and
    /// a note says why.
    pub fire_no_hooks: bool,
}

impl Decoded {
    /// An event that needed no translation.
    pub fn plain(event: Event) -> Decoded {
        Decoded {
            event,
            host_event: None,
            notices: Notices::default(),
            fire_no_hooks: false,
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

/// What a host will do with a decision where it cannot do what the
/// decision says ([`Host::adapt`]), worked out before the one encoding so
/// that the answer says it too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Adapted {
    /// The block the host enforces where it is not the decision's:
    /// `Some(Some(reason))` denies with `reason` (an `ask` or a stop the
    /// host cannot give, a rewrite it cannot apply), `Some(None)` sends no
    /// block (the event cannot carry one). `None`: the decision's own.
    pub block: Option<Option<String>>,
    /// The decision's stop is not given (the host denies the call instead).
    pub stop_dropped: bool,
    /// What the host cannot express, mapped to the safest it can, for the
    /// person: [`adapt`] puts these among the decision's warnings, so the
    /// one encoding says them.
    pub warnings: Vec<String>,
}

impl Adapted {
    /// The block the host will express.
    pub fn block<'a>(&'a self, decision: &'a Decision) -> Option<&'a str> {
        match &self.block {
            Some(block) => block.as_deref(),
            None => decision.block.as_deref(),
        }
    }

    /// Whether the host will stop the turn.
    pub fn stop(&self, decision: &Decision) -> bool {
        decision.stop && !self.stop_dropped
    }
}

/// One adapted decision encoded for a host ([`Host::render`]).
#[derive(Debug, Clone)]
pub struct Encoded {
    pub rendered: Rendered,
    /// For the report: how the decision was mapped (fields not sent, a
    /// block the event ignores).
    pub notes: Vec<String>,
}

impl Encoded {
    /// An encoding with nothing to note.
    pub fn exact(rendered: Rendered) -> Encoded {
        Encoded {
            rendered,
            notes: Vec::new(),
        }
    }
}

/// What the pipeline needs from a host. Pure: no I/O.
pub trait Host: Sync {
    /// The host's data.
    fn facts(&self) -> &'static Facts;

    fn id(&self) -> HostId {
        self.facts().id
    }

    /// The name on the command line (`--host NAME`).
    fn name(&self) -> &'static str {
        self.facts().name
    }

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
    fn default_deadline(&self, _event: &EventId) -> Duration {
        mapping::deadline_within(self.facts().timeout)
    }

    /// Whether decoding keeps the host's event as it is (only
    /// `hook_event_name` set), so that hooks may get the host's own bytes
    /// (see [`Event::keep_host_line`]).
    fn decodes_verbatim(&self) -> bool {
        false
    }

    /// Whether the host caps consecutive Stop blocks itself (`None`:
    /// hookrun's stop-loop guard is the only cap).
    fn own_stop_block_cap(&self, _env: &HostEnv<'_>) -> Option<u32> {
        None
    }

    /// What this host will do with `decision` where it cannot express it
    /// as given (an `ask` it cannot put, a stop or a rewrite it cannot
    /// give, a block the event cannot carry), with a warning for each.
    /// Pure, and cheap where nothing needs adapting. The default: the
    /// host expresses every decision as it is.
    fn adapt(&self, _event: &Event, _decision: &Decision) -> Adapted {
        Adapted::default()
    }

    /// Whether the block this host expresses on `event` (the adapted one)
    /// is said by exit 2 as well: the exit code of the one encoding, known
    /// before it (the audit log records it before the answer is encoded,
    /// so that a log that cannot be written is said in that answer). The
    /// default: Claude Code's protocol.
    fn blocks_by_exit_code(&self, event: &Event) -> bool {
        event.id.blocks_by_exit_code()
    }

    /// The adapted decision (its warnings already among `decision`'s) →
    /// exactly what this host accepts: the one encoding. Says nothing new
    /// to the person: what the host cannot express is [`Host::adapt`]'s.
    fn render(&self, event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded;

    /// Where the host's before-tool answer cannot carry context but its
    /// after-tool answer can: the key of this call (the tool and its input
    /// as it will run, `updated` when hookrun rewrote it), so the context
    /// rides on the same call's after-tool answer. `None` (the default):
    /// no carrying.
    fn carry_key(&self, _event: &Event, _updated: Option<&Value>) -> Option<String> {
        None
    }

    /// The host's event names that differ from hookrun's (its
    /// vocabulary), for the misspelt-event warnings; names not listed
    /// mean what they mean to hookrun.
    fn events(&self) -> &'static [mapping::EventRow] {
        self.facts().events
    }

    /// The command `hookrun install` writes for one of the host's events,
    /// from `base` (`BINARY fire --host NAME`).
    fn fire_command(&self, base: &str, _host_event: &str) -> String {
        base.to_owned()
    }

    /// The answer when hookrun cannot read the host's event (`message`
    /// says why), for a host that would take hookrun's exit 1 silently
    /// (`None`: exit 1 with the message on stderr).
    fn unusable_answer(&self, _event_arg: Option<&str>, _message: &str) -> Option<Rendered> {
        None
    }

    /// The largest timeout the host reads in its unit (`None`: no limit):
    /// install never writes a longer one.
    fn max_timeout(&self) -> Option<u64> {
        None
    }

    /// What the user must do besides the file `hookrun install` wrote.
    fn install_note(&self, _path: &std::path::Path) -> Option<String> {
        None
    }
}

/// Every host hookrun speaks, one row each.
pub static HOSTS: &[&dyn Host] = &[
    &claude::ClaudeCode,
    &gemini::Gemini,
    &codex::Codex,
    &cursor::Cursor,
    &copilot::Copilot,
    &cline::Cline,
    &qwen::Qwen,
    &droid::Droid,
];

/// The implementation of a host.
pub fn host(id: HostId) -> &'static dyn Host {
    HOSTS
        .iter()
        .copied()
        .find(|h| h.id() == id)
        .expect("every HostId has a row in HOSTS")
}

/// The host that really sent a payload fired as `id`: `id`, unless the
/// payload is one `id` never sends and another host does in its place
/// (Copilot CLI running `.claude/settings.json` entries), so that the
/// answer is in the form the real caller honours.
pub fn actual_caller(id: HostId, raw: &Map<String, Value>, env: &HostEnv<'_>) -> HostId {
    if id == HostId::ClaudeCode && copilot::sent_as_claude_code(raw, env) {
        HostId::Copilot
    } else {
        id
    }
}

/// Said in the report when [`actual_caller`] is not the host fired as.
pub fn caller_note(fired_as: HostId, caller: HostId) -> String {
    format!(
        "fired as {} but sent by {} (its payload and environment say so): decoded and answered as {} honours",
        fired_as.display(),
        caller.display(),
        caller.display()
    )
}

/// Encodes `decision` for `host`: [`adapt`], then the one encoding.
pub fn encode(host: &dyn Host, event: &Event, decision: &mut Decision) -> Rendered {
    let adapted = adapt(host, event, decision);
    render(host, event, decision, &adapted)
}

/// What `host` will do with `decision` ([`Host::adapt`]), said: the host's
/// warnings follow the decision's. Returns what the encoding needs, its
/// warnings taken.
pub fn adapt(host: &dyn Host, event: &Event, decision: &mut Decision) -> Adapted {
    let mut adapted = host.adapt(event, decision);
    decision.notices.warnings.append(&mut adapted.warnings);
    adapted
}

/// The exit code of the answer [`render`] will encode for `decision`
/// adapted as `adapted`: exit 2 for a block the host expresses on an event
/// it says blocks by exit code on.
pub fn exit(host: &dyn Host, event: &Event, decision: &Decision, adapted: &Adapted) -> Exit {
    if adapted.block(decision).is_some() && host.blocks_by_exit_code(event) {
        Exit::Block
    } else {
        Exit::Success
    }
}

/// The one encoding of a decision [`adapt`] adapted; how it was mapped
/// joins the decision's notes. What the host shows a person (the reasons,
/// `systemMessage`) is encoded with its control characters escaped
/// ([`Decision::shown_to_people`]); `decision` keeps its bytes.
pub fn render(
    host: &dyn Host,
    event: &Event,
    decision: &mut Decision,
    adapted: &Adapted,
) -> Rendered {
    let encoded = host.render(event, &decision.shown_to_people(), adapted);
    debug_assert_eq!(
        encoded.rendered.exit,
        exit(host, event, decision, adapted),
        "{}'s exit code on {} is the one `Host::blocks_by_exit_code` says",
        host.name(),
        event.id.name()
    );
    if !encoded.notes.is_empty() {
        decision.notices.notes.extend(encoded.notes);
    }
    encoded.rendered
}

#[cfg(test)]
impl dyn Host {
    /// One decision adapted and encoded alone, for tests that read an
    /// encoder's answer and notes without a fire.
    pub fn encode(&self, event: &Event, decision: &Decision) -> Encoded {
        let mut adapted_decision = decision.clone();
        let rendered = encode(self, event, &mut adapted_decision);
        Encoded {
            rendered,
            notes: adapted_decision
                .notices
                .notes
                .split_off(decision.notices.notes.len()),
        }
    }
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
    fn registry_facts_are_complete_and_consistent() {
        use std::collections::HashSet;
        let claude_tools: HashSet<&str> = claude::TOOL_NAMES.iter().copied().collect();
        for h in HOSTS {
            let facts = h.facts();
            let id = h.id();
            assert_eq!(facts.wiring.host, id, "{id:?}: its wiring is its own");
            assert!(!facts.display.is_empty() && !facts.name.is_empty());
            // doctor knows exactly the names that reach hookrun's matchers:
            // the host's own names, never one the adapter translates, and
            // every translation lands on a Claude Code tool doctor knows.
            let doctor: HashSet<&str> = crate::select::tools::HOSTS
                .iter()
                .filter(|t| t.host == facts.display)
                .flat_map(|t| t.tools.iter().copied())
                .collect();
            assert_eq!(
                doctor,
                facts.tool_names.iter().copied().collect(),
                "{id:?}: doctor's table is the host's"
            );
            for row in facts.tools {
                if id != HostId::ClaudeCode && row.host != row.claude {
                    assert!(
                        !facts.tool_names.contains(&row.host),
                        "{id:?}: `{}` is translated, so not a name matchers see",
                        row.host
                    );
                }
                assert!(
                    claude_tools.contains(row.claude),
                    "{id:?}: `{}` maps to `{}`, which doctor does not know",
                    row.host,
                    row.claude
                );
                assert_eq!(
                    facts.tools.iter().filter(|r| r.host == row.host).count(),
                    1,
                    "{id:?}: `{}` has one row",
                    row.host
                );
            }
            // Every event install writes decodes back to the event it
            // routes, and is one of the host's own names.
            for (claude, host_event) in facts.wiring.events {
                let raw: Map<String, Value> =
                    serde_json::from_value(serde_json::json!({"hook_event_name": host_event}))
                        .unwrap();
                let decoded = h.decode(raw, None, &HostEnv::new(&[])).unwrap();
                assert_eq!(decoded.event.id.name(), *claude, "{id:?} {host_event}");
                assert!(
                    host_event == claude || mapping::event_row(facts.events, host_event).is_some(),
                    "{id:?}: `{host_event}` is not in its events table"
                );
            }
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
            for warning in &decision.notices.warnings {
                let shown = serde_json::to_string(warning).unwrap();
                let shown = shown.trim_matches('"');
                assert_eq!(text.matches(shown).count(), 1, "{id:?}: {text}");
            }
        }
    }

    #[test]
    fn a_late_warning_is_said_once_after_what_the_host_cannot_express() {
        let event = Event::from_object(
            serde_json::json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})
                .as_object()
                .unwrap()
                .clone(),
            Some("PreToolUse"),
        )
        .unwrap();
        let mut decision = Decision {
            stop: true,
            stop_reason: Some("halt".into()),
            notices: crate::notices::Notices::new(vec!["early".into()], Vec::new()),
            ..Decision::default()
        };
        let adapted = adapt(host(HostId::Codex), &event, &mut decision);
        // A log that cannot be opened: said once the host adapted.
        decision.notices.warn("the log failed");
        let rendered = render(host(HostId::Codex), &event, &mut decision, &adapted);
        assert_eq!(
            decision.notices.warnings.len(),
            3,
            "{:?}",
            decision.notices.warnings
        );
        assert_eq!(decision.notices.warnings[0], "early");
        assert!(decision.notices.warnings[1].contains("cannot stop the turn"));
        assert_eq!(decision.notices.warnings[2], "the log failed");
        let text = rendered.value.to_string();
        let (early, host_said, late) = (
            text.find("early").unwrap(),
            text.find("cannot stop the turn").unwrap(),
            text.find("the log failed").unwrap(),
        );
        assert!(early < host_said && host_said < late, "{text}");
        assert_eq!(text.matches("cannot stop the turn").count(), 1, "{text}");
    }

    /// A host that counts its adaptations and encodings, and cannot
    /// express anything without a warning.
    #[derive(Default)]
    struct Counting {
        adapted: std::sync::atomic::AtomicUsize,
        rendered: std::sync::atomic::AtomicUsize,
    }

    impl Host for Counting {
        fn facts(&self) -> &'static Facts {
            &claude::FACTS
        }

        fn decode(
            &self,
            raw: Map<String, Value>,
            arg: Option<&str>,
            env: &HostEnv<'_>,
        ) -> Result<Decoded, InputError> {
            claude::ClaudeCode.decode(raw, arg, env)
        }

        fn adapt(&self, _event: &Event, _decision: &Decision) -> Adapted {
            self.adapted
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Adapted {
                warnings: vec!["the host cannot".into()],
                ..Adapted::default()
            }
        }

        fn render(&self, event: &Event, decision: &Decision, _adapted: &Adapted) -> Encoded {
            self.rendered
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Encoded::exact(claude::render(&event.id, decision))
        }
    }

    #[test]
    fn a_hosts_answer_is_adapted_and_encoded_once() {
        use std::sync::atomic::Ordering::Relaxed;
        let event = Event::from_object(Map::new(), Some("PreToolUse")).unwrap();
        let counting = Counting::default();
        let mut decision = Decision {
            notices: crate::notices::Notices::new(vec!["early".into()], Vec::new()),
            ..Decision::default()
        };
        let rendered = encode(&counting, &event, &mut decision);
        assert_eq!(counting.adapted.load(Relaxed), 1);
        assert_eq!(counting.rendered.load(Relaxed), 1);
        assert_eq!(decision.notices.warnings, ["early", "the host cannot"]);
        assert_eq!(rendered.value["systemMessage"], "early\nthe host cannot");

        // With a late warning (a log that cannot be opened): still once,
        // and the late one said last.
        let mut decision = Decision {
            notices: crate::notices::Notices::new(vec!["early".into()], Vec::new()),
            ..Decision::default()
        };
        let adapted = adapt(&counting, &event, &mut decision);
        decision.notices.warn("the log failed");
        let rendered = render(&counting, &event, &mut decision, &adapted);
        assert_eq!(counting.adapted.load(Relaxed), 2);
        assert_eq!(counting.rendered.load(Relaxed), 2);
        assert_eq!(
            rendered.value["systemMessage"],
            "early\nthe host cannot\nthe log failed"
        );
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

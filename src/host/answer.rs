//! The skeleton every encoder but Claude Code's shares, in its two steps:
//! the decision being adapted to what the host can do ([`Adapting`]: an
//! `ask` nobody can answer or a stop the host cannot give becomes a deny, a
//! block the event cannot carry is said aloud), and the answer being built
//! from the adapted decision ([`Answer`]: top-level fields,
//! `hookSpecificOutput`, notes, and the block still to express).

use serde_json::{Map, Value, json};

use super::{Adapted, Encoded, Rendered, mapping};
use crate::aggregate::Decision;
use crate::event::Event;
use crate::verdict::Permission;

/// One decision being adapted to a host ([`super::Host::adapt`]).
pub struct Adapting<'a> {
    pub event: &'a Event,
    pub decision: &'a Decision,
    /// The block the host will enforce.
    pub block: Option<String>,
    /// Whether the host will stop the turn.
    pub stop: bool,
    pub warnings: Vec<String>,
}

impl<'a> Adapting<'a> {
    pub fn new(event: &'a Event, decision: &'a Decision) -> Adapting<'a> {
        Adapting {
            event,
            decision,
            block: decision.block.clone(),
            stop: decision.stop,
            warnings: Vec::new(),
        }
    }

    /// A hook's `ask` on a host that cannot put it to anyone (headless, or
    /// unreliable) becomes a deny, with a warning that says why.
    pub fn ask_becomes_deny(&mut self, cannot: &str, reason_prefix: &str) {
        if self.block.is_some() || self.decision.permission != Some(Permission::Ask) {
            return;
        }
        let why = self
            .decision
            .permission_reason
            .clone()
            .unwrap_or_else(|| "a hook asked for approval".to_owned());
        self.warnings.push(format!(
            "{cannot}: hookrun denied the call instead. The hook said: {why}"
        ));
        self.block = Some(format!("{reason_prefix}{why}"));
    }

    /// A stop this host cannot give from PreToolUse: the call is denied
    /// instead (the stop reason becomes the block when there is none), the
    /// turn goes on, and the person is told.
    pub fn stop_becomes_deny(&mut self, host: &str) {
        let why = self.decision.stop_reason.clone().unwrap_or_default();
        self.warnings.push(format!(
            "{host} cannot stop the turn from PreToolUse: hookrun denied the tool call instead, and the turn goes on. The stop reason was: {why}"
        ));
        if self.block.is_none() {
            self.block = Some(mapping::reason_text(&why));
        }
        self.stop = false;
    }

    /// A rewrite this host cannot apply (here): the call is denied with
    /// `reason` rather than run unrewritten, and `warning` says so.
    pub fn rewrite_becomes_deny(&mut self, warning: String, reason: &str) {
        self.warnings.push(warning);
        self.block = Some(reason.to_owned());
    }

    /// A block this event cannot carry: not sent, and said to the person.
    pub fn block_not_enforced(&mut self, host: &str) {
        if let Some(reason) = self.block.take() {
            self.warnings.push(format!(
                "{host}'s {} cannot be blocked: the hook's block was not enforced. The block was: {reason}",
                mapping::host_event_of(self.event)
            ));
        }
    }

    /// What the host will do, for [`super::Host::render`].
    pub fn done(self) -> Adapted {
        Adapted {
            block: (self.block != self.decision.block).then_some(self.block),
            stop_dropped: self.decision.stop && !self.stop,
            warnings: self.warnings,
        }
    }
}

/// One answer under construction.
pub struct Answer<'a> {
    pub event: &'a Event,
    pub decision: &'a Decision,
    /// The event as the host named it (`BeforeTool`).
    pub host_event: String,
    pub top: Map<String, Value>,
    pub hso: Map<String, Value>,
    pub notes: Vec<String>,
    /// The block reason still to be expressed (`None`: no block, or one
    /// already mapped to something else).
    pub block: Option<String>,
}

impl<'a> Answer<'a> {
    /// The answer to `decision` as `adapted` (its block).
    pub fn new(event: &'a Event, decision: &'a Decision, adapted: &Adapted) -> Answer<'a> {
        Answer {
            event,
            decision,
            host_event: mapping::host_event_of(event),
            top: Map::new(),
            hso: Map::new(),
            notes: Vec::new(),
            block: adapted.block(decision).map(str::to_owned),
        }
    }

    /// hookrun's name of the event (`PreToolUse`).
    pub fn name(&self) -> &'a str {
        self.event.id.name()
    }

    /// A block this event ignores by design (a session's end): noted only.
    pub fn block_ignored(&mut self) {
        if self.block.take().is_some() {
            self.notes
                .push(format!("{} ignores blocks: not sent", self.host_event));
        }
    }

    /// The decision's context, when the event cannot carry it: noted.
    pub fn context_dropped(&mut self, host: &str) {
        if self.decision.context.is_some() {
            self.notes.push(format!(
                "additionalContext dropped: {host} takes none on {}",
                self.host_event
            ));
        }
    }

    /// A block turned into context (for events whose host has no block but
    /// shows context), joined with the decision's own context.
    pub fn block_as_context(&mut self, host: &str, key: &str) {
        let mut context: Vec<String> = Vec::new();
        if let Some(reason) = self.block.take() {
            self.notes.push(format!(
                "{host}'s {} has no block: the reason was sent as {key}",
                self.host_event
            ));
            context.push(reason);
        }
        context.extend(self.decision.context.clone());
        if !context.is_empty() {
            self.top.insert(key.into(), json!(context.join("\n")));
        }
    }

    /// The reason of the block still to express, as hosts accept it.
    pub fn reason(&self) -> Option<String> {
        self.block.as_deref().map(mapping::reason_text)
    }

    /// Every message for the person: the hooks', then the warnings (what
    /// the host cannot express among them, adapted before).
    pub fn system_message(&self) -> Option<String> {
        self.decision.system_message()
    }

    /// `hookSpecificOutput` into the top-level object (with
    /// `hookEventName` first when `named`), if it has anything.
    pub fn nest_hso(&mut self, named: bool) {
        if self.hso.is_empty() {
            return;
        }
        let mut inner = Map::new();
        if named {
            inner.insert("hookEventName".into(), json!(self.name()));
        }
        inner.extend(std::mem::take(&mut self.hso));
        self.top
            .insert("hookSpecificOutput".into(), Value::Object(inner));
    }

    /// The top-level object as a JSON answer, exit 0.
    pub fn json(self) -> Encoded {
        let rendered = mapping::json_answer(&self.top);
        self.done(rendered)
    }

    pub fn done(self, rendered: Rendered) -> Encoded {
        Encoded {
            rendered,
            notes: self.notes,
        }
    }
}

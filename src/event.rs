//! The input event: a typed view over the raw JSON object.
//!
//! The raw object is kept verbatim (key order included, `preserve_order`) so
//! every field the host sent reaches the hooks untouched; only
//! `hook_event_name` is normalised (SPEC §5.1). Serialising for hooks happens
//! only when a hook matched, at most once per distinct input.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use crate::catalog::{EventId, MatchField};

mod bytes;
mod call;
mod json;
pub use bytes::{Bytes, Filling, MAPPED_FROM};
pub use call::call_key;
use json::members;
pub use json::{
    DEFER_FROM, Deferrals, JsonError, MAX_JSON_DEPTH, Scan, json_type_name, parse_json,
    parse_json_scanned, read_object, read_object_deferring, read_object_scanned,
};

/// Why the input cannot be used at all (hookrun exits 1, SPEC §7.2).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("failed to read the event from stdin: {0}")]
    Unreadable(#[source] std::io::Error),
    #[error("stdin is empty: expected the event as a JSON object")]
    Empty,
    #[error("stdin is not valid JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error(
        "stdin is JSON nested deeper than {MAX_JSON_DEPTH} levels (at byte {at}): hookrun does not read it"
    )]
    TooDeep { at: usize },
    #[error(
        "stdin did not close within {0:.1} s (the deadline): expected the event as a JSON object"
    )]
    NotClosed(f64),
    #[error("stdin is JSON but not an object (found {0}): expected the event as a JSON object")]
    NotObject(&'static str),
    #[error(
        "no event name: pass one (`hookrun fire pre_tool_use`) or set `hook_event_name` in the input"
    )]
    NoEventName,
    #[error("`hook_event_name` in the input must be a string, found {0}")]
    EventNameNotString(&'static str),
}

/// One event as received.
#[derive(Debug, Clone)]
pub struct Event {
    pub id: EventId,
    /// With `deferred`: every field but the long strings inside the
    /// top-level values it names, which are `""` here.
    fields: Map<String, Value>,
    /// Long strings not decoded yet (see [`read_object_deferring`]): the
    /// whole object is read from the host's line when something asks for
    /// a value that holds one.
    deferred: Option<Deferred>,
    /// The input already held the canonical `hook_event_name`, so setting
    /// it changed nothing.
    name_as_sent: bool,
    /// The host's own line, kept while it says exactly what `fields`
    /// would be serialised to (see [`Event::keep_host_line`]).
    host_line: Option<HostLine>,
    /// `tool_input` as received, once a sequential hook replaced it.
    replaced_tool_input: Replaced,
}

/// Whether a sequential hook replaced `tool_input`, and what it was.
#[derive(Debug, Clone)]
enum Replaced {
    No,
    /// `None`: the event had no `tool_input`.
    From(Option<Value>),
}

/// Top-level fields whose values hold strings left undecoded, and the
/// object as read in full, once something asked for one of them.
#[derive(Debug, Clone)]
struct Deferred {
    deferrals: Deferrals,
    full: OnceLock<Map<String, Value>>,
}

/// Bytes hooks get on stdin as the host sent them.
#[derive(Clone)]
struct HostLine(Arc<Bytes>);

impl std::fmt::Debug for HostLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostLine({} bytes)", self.0.len())
    }
}
impl Event {
    /// Parses stdin bytes. `name` (the command-line argument) wins over the
    /// input's `hook_event_name`; either way the field is set, in place, to
    /// the canonical name.
    pub fn parse(bytes: &[u8], name: Option<&str>) -> Result<Event, InputError> {
        Event::from_object(read_object(bytes)?, name)
    }

    pub fn from_object(
        mut fields: Map<String, Value>,
        name: Option<&str>,
    ) -> Result<Event, InputError> {
        let name = match name {
            Some(name) if !name.trim().is_empty() => name.trim().to_owned(),
            _ => match fields.get("hook_event_name") {
                Some(Value::String(name)) if !name.trim().is_empty() => name.trim().to_owned(),
                Some(Value::String(_) | Value::Null) | None => {
                    return Err(InputError::NoEventName);
                }
                Some(other) => return Err(InputError::EventNameNotString(json_type_name(other))),
            },
        };
        let id = EventId::resolve(&name);
        let name_as_sent =
            matches!(fields.get("hook_event_name"), Some(Value::String(sent)) if sent == id.name());
        // `insert` on an existing key keeps its position (indexmap), so the
        // bytes hooks see differ from the host's only in this value.
        if !name_as_sent {
            fields.insert(
                "hook_event_name".to_owned(),
                Value::String(id.name().to_owned()),
            );
        }
        Ok(Event {
            id,
            fields,
            deferred: None,
            name_as_sent,
            host_line: None,
            replaced_tool_input: Replaced::No,
        })
    }

    /// Offers `bytes`, the stdin this event was read from (by
    /// [`read_object_scanned`], which saw `scan`), as what hooks get on
    /// stdin instead of serialising the event again. Kept only when they
    /// say exactly what [`Event::to_hook_bytes`] would, up to spelling
    /// inside values (`\u00e9` for `é`, `1.0e3` for `1000.0`): one compact
    /// line, no lone surrogate read as U+FFFD, no key given twice, and
    /// `hook_event_name` already the canonical name. Only for an object
    /// made from the bytes as they are: a host whose decoding translates
    /// fields must not call it.
    ///
    /// `deferred`: the strings [`read_object_deferring`] left undecoded in
    /// the object this event was made from. They stay so while the line is
    /// kept (it is where they are read from when asked for); otherwise the
    /// object is read again, whole, here.
    pub fn keep_host_line(&mut self, mut bytes: Bytes, scan: &Scan, deferred: Deferrals) {
        let same = self.name_as_sent
            && scan.compact
            && !scan.fixed
            && !self.tool_input_replaced()
            && members(&self.fields) == scan.members;
        if !same {
            if !deferred.is_empty() {
                self.fields = self.read_whole(&bytes);
            }
            return;
        }
        bytes.end_line();
        self.host_line = Some(HostLine(Arc::new(bytes)));
        if !deferred.is_empty() {
            self.deferred = Some(Deferred {
                deferrals: deferred,
                full: OnceLock::new(),
            });
        }
    }

    /// The object `bytes` hold (already read once, by
    /// [`read_object_deferring`]), every string decoded, with the name set
    /// as [`Event::from_object`] set it.
    fn read_whole(&self, bytes: &[u8]) -> Map<String, Value> {
        let mut fields = read_object(bytes).expect("the bytes were read before");
        if !self.name_as_sent {
            fields.insert(
                "hook_event_name".to_owned(),
                Value::String(self.id.name().to_owned()),
            );
        }
        fields
    }

    /// The fields in full: the strings left undecoded are decoded now
    /// (once).
    fn full(&self) -> &Map<String, Value> {
        match (&self.deferred, &self.host_line) {
            (Some(deferred), Some(HostLine(bytes))) => {
                deferred.full.get_or_init(|| self.read_whole(bytes))
            }
            _ => &self.fields,
        }
    }

    /// One top-level field, decoding nothing it does not hold.
    pub fn field(&self, key: &str) -> Option<&Value> {
        match &self.deferred {
            Some(deferred) if deferred.deferrals.holds(key) => self.full().get(key),
            _ => self.fields.get(key),
        }
    }

    /// Whether the compact JSON of `tool_input` is known to be longer than
    /// `limit` bytes without decoding it: `false` says nothing.
    pub fn tool_input_longer_than(&self, limit: usize) -> bool {
        self.deferred.as_ref().is_some_and(|deferred| {
            deferred
                .deferrals
                .0
                .iter()
                .any(|(key, len)| key == "tool_input" && *len > limit)
        })
    }

    /// Makes `fields` whole, for a change to them.
    fn undefer(&mut self) {
        if let Some(deferred) = self.deferred.take() {
            self.fields = match deferred.full.into_inner() {
                Some(full) => full,
                None => self.read_whole(
                    &self
                        .host_line
                        .as_ref()
                        .expect("deferred strings come with the host line")
                        .0,
                ),
            };
        }
    }

    /// Whether hooks get the host's own bytes ([`Event::keep_host_line`]).
    pub fn passes_host_line(&self) -> bool {
        self.host_line.is_some()
    }

    /// Every field (long strings left undecoded are decoded now, once).
    pub fn fields(&self) -> &Map<String, Value> {
        self.full()
    }

    fn str_field(&self, key: &str) -> Option<&str> {
        self.field(key).and_then(Value::as_str)
    }

    pub fn session_id(&self) -> Option<&str> {
        self.str_field("session_id").filter(|s| !s.is_empty())
    }

    pub fn tool_name(&self) -> Option<&str> {
        self.str_field("tool_name")
    }

    pub fn tool_use_id(&self) -> Option<&str> {
        self.str_field("tool_use_id")
    }

    pub fn tool_input(&self) -> Option<&Value> {
        self.field("tool_input")
    }

    /// `tool_input` without decoding its long strings: a string the event
    /// left undecoded (64 KiB or more) reads `""` here. For readers that
    /// only need its short fields (a file tool's path: one that long cannot
    /// be opened anyway).
    pub fn tool_input_shallow(&self) -> Option<&Value> {
        self.fields.get("tool_input")
    }

    /// The event's `cwd`, if it names a path.
    pub fn cwd(&self) -> Option<PathBuf> {
        self.str_field("cwd")
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
    }

    /// What `matcher` is compared with; a missing field compares as `""`.
    pub fn match_value(&self) -> String {
        match self.id.match_field() {
            MatchField::None => String::new(),
            MatchField::Key(key) => value_as_match_text(self.field(key)),
            MatchField::Basename(key) => {
                let full = value_as_match_text(self.field(key));
                Path::new(&full)
                    .file_name()
                    .map_or(full.clone(), |name| name.to_string_lossy().into_owned())
            }
            MatchField::Model(key) => {
                crate::catalog::without_window_suffix(&value_as_match_text(self.field(key)))
                    .to_owned()
            }
        }
    }

    /// Replaces `tool_input` in place (sequential `updatedInput` chaining).
    /// The host's line no longer says what the event does, and the first
    /// replaced value is kept as [`Event::tool_input_before_replacement`]
    /// (moved, not copied).
    pub fn set_tool_input(&mut self, input: Value) {
        self.undefer();
        self.host_line = None;
        let before = self.fields.insert("tool_input".to_owned(), input);
        if !self.tool_input_replaced() {
            self.replaced_tool_input = Replaced::From(before);
        }
    }

    /// `tool_input` as the host sent it, when a sequential hook replaced
    /// it (`None`: none did, or the event had none). It decodes nothing.
    pub fn tool_input_before_replacement(&self) -> Option<&Value> {
        match &self.replaced_tool_input {
            Replaced::From(original) => original.as_ref(),
            Replaced::No => None,
        }
    }

    /// Whether a sequential hook replaced `tool_input`.
    pub fn tool_input_replaced(&self) -> bool {
        matches!(self.replaced_tool_input, Replaced::From(_))
    }

    /// The bytes hooks get on stdin: compact, one line, `\n`-terminated, keys
    /// in their original order (SPEC §5.1).
    pub fn to_hook_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self.fields()).expect("a JSON object always serialises");
        bytes.push(b'\n');
        bytes
    }

    /// [`Event::to_hook_bytes`], shared: the host's own line when it was
    /// kept ([`Event::keep_host_line`]), else the event serialised.
    pub fn hook_stdin(&self) -> Arc<Bytes> {
        match &self.host_line {
            Some(HostLine(bytes)) => Arc::clone(bytes),
            None => Arc::new(Bytes::from(self.to_hook_bytes())),
        }
    }
}
fn value_as_match_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => other.to_string(),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_wins_and_name_is_set_in_place() {
        let input = br#"{"session_id":"s","hook_event_name":"whatever","tool_name":"Bash"}"#;
        let event = Event::parse(input, Some("pre_tool_use")).unwrap();
        assert_eq!(event.id.name(), "PreToolUse");
        assert_eq!(
            String::from_utf8(event.to_hook_bytes()).unwrap(),
            "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\"}\n"
        );
    }

    #[test]
    fn name_is_appended_when_missing() {
        let event = Event::parse(br#"{"b":1,"a":2}"#, Some("stop")).unwrap();
        assert_eq!(
            event.to_hook_bytes(),
            b"{\"b\":1,\"a\":2,\"hook_event_name\":\"Stop\"}\n"
        );
    }

    #[test]
    fn name_from_input_and_unknown_names_pass_verbatim() {
        let event = Event::parse(br#"{"hook_event_name":"my-event"}"#, None).unwrap();
        assert_eq!(event.id.name(), "my-event");
        let event = Event::parse(br#"{"hook_event_name":"session_start"}"#, None).unwrap();
        assert_eq!(event.id.name(), "SessionStart");
    }

    #[test]
    fn unusable_input_is_an_error() {
        assert!(matches!(
            Event::parse(b"  \n", None),
            Err(InputError::Empty)
        ));
        assert!(matches!(
            Event::parse(b"{", None),
            Err(InputError::NotJson(_))
        ));
        assert!(matches!(
            Event::parse(b"[1]", None),
            Err(InputError::NotObject("an array"))
        ));
        assert!(matches!(
            Event::parse(b"{}", None),
            Err(InputError::NoEventName)
        ));
        assert!(matches!(
            Event::parse(br#"{"hook_event_name":3}"#, None),
            Err(InputError::EventNameNotString(_))
        ));
    }

    #[test]
    fn match_values() {
        let event = Event::parse(br#"{"tool_name":"Bash"}"#, Some("PreToolUse")).unwrap();
        assert_eq!(event.match_value(), "Bash");
        let event = Event::parse(br"{}", Some("PreToolUse")).unwrap();
        assert_eq!(event.match_value(), "");
        let event = Event::parse(br#"{"file_path":"/p/src/.env"}"#, Some("FileChanged")).unwrap();
        assert_eq!(event.match_value(), ".env");
        let event = Event::parse(br#"{"tool_name":"Bash"}"#, Some("Stop")).unwrap();
        assert_eq!(event.match_value(), "");
        let event = Event::parse(
            br#"{"to_model":"claude-opus-4-6[1m]","source":"sdk"}"#,
            Some("PreModelSwitch"),
        )
        .unwrap();
        assert_eq!(event.match_value(), "claude-opus-4-6");
        let event = Event::parse(br#"{"source":"user"}"#, Some("Interrupt")).unwrap();
        assert_eq!(event.match_value(), "user");
    }
}

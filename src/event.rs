//! The input event: a typed view over the raw JSON object.
//!
//! The raw object is kept verbatim (key order included, `preserve_order`) so
//! every field the host sent reaches the hooks untouched; only
//! `hook_event_name` is normalised (SPEC §5.1). Serialising for hooks happens
//! only when a hook matched, at most once per distinct input.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::catalog::{EventId, MatchField};

/// Why the input cannot be used at all (hookrun exits 1, SPEC §7.2).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("failed to read the event from stdin: {0}")]
    Unreadable(#[source] std::io::Error),
    #[error("stdin is empty: expected the event as a JSON object")]
    Empty,
    #[error("stdin is not valid JSON: {0}")]
    NotJson(#[source] serde_json::Error),
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
    fields: Map<String, Value>,
}

pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
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
        // `insert` on an existing key keeps its position (indexmap), so the
        // bytes hooks see differ from the host's only in this value.
        fields.insert(
            "hook_event_name".to_owned(),
            Value::String(id.name().to_owned()),
        );
        Ok(Event { id, fields })
    }

    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }

    fn str_field(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
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
            MatchField::Key(key) => value_as_match_text(self.fields.get(key)),
            MatchField::Basename(key) => {
                let full = value_as_match_text(self.fields.get(key));
                Path::new(&full)
                    .file_name()
                    .map_or(full.clone(), |name| name.to_string_lossy().into_owned())
            }
        }
    }

    /// Replaces `tool_input` in place (sequential `updatedInput` chaining).
    pub fn set_tool_input(&mut self, input: Value) {
        self.fields.insert("tool_input".to_owned(), input);
    }

    /// The bytes hooks get on stdin: compact, one line, `\n`-terminated, keys
    /// in their original order (SPEC §5.1).
    pub fn to_hook_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(&self.fields).expect("a JSON object always serialises");
        bytes.push(b'\n');
        bytes
    }
}

/// Stdin bytes → the JSON object every host sends (before any host's own
/// field names are translated).
pub fn read_object(bytes: &[u8]) -> Result<Map<String, Value>, InputError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(InputError::Empty);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(InputError::NotJson)?;
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(InputError::NotObject(json_type_name(&other))),
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
    }
}

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
pub use bytes::{Bytes, Filling, MAPPED_FROM};
pub use call::call_key;

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

/// Long strings left undecoded by [`read_object_deferring`]: the top-level
/// field each is in, and how long (at least) that field's value is as
/// compact JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deferrals(Vec<(String, usize)>);

impl Deferrals {
    fn holds(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }

    fn add(&mut self, key: &str, json_len: usize) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some((_, len)) => *len = len.saturating_add(json_len),
            None => self.0.push((key.to_owned(), json_len)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Bytes hooks get on stdin as the host sent them.
#[derive(Clone)]
struct HostLine(Arc<Bytes>);

impl std::fmt::Debug for HostLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostLine({} bytes)", self.0.len())
    }
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

/// Stdin bytes → the JSON object every host sends (before any host's own
/// field names are translated): any JSON a host can write (see
/// [`parse_json`]).
pub fn read_object(bytes: &[u8]) -> Result<Map<String, Value>, InputError> {
    read_object_scanned(bytes).map(|(fields, _)| fields)
}

/// [`read_object`], and what the one scan before parsing saw of the bytes
/// (the nesting depth, whether they are already compact), from the same
/// pass.
pub fn read_object_scanned(bytes: &[u8]) -> Result<(Map<String, Value>, Scan), InputError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(InputError::Empty);
    }
    let (value, scan) = parse_json_scanned(bytes).map_err(|err| match err {
        JsonError::TooDeep { at } => InputError::TooDeep { at },
        JsonError::Syntax(err) => InputError::NotJson(err),
    })?;
    match value {
        Value::Object(fields) => Ok((fields, scan)),
        other => Err(InputError::NotObject(json_type_name(&other))),
    }
}

/// [`read_object_scanned`], but strings of [`DEFER_FROM`] bytes or more
/// below the top level (a file's `content` in `tool_input`) are checked and
/// left undecoded, `""` in the object: for an event that keeps its host
/// line ([`Event::keep_host_line`], which takes the [`Deferrals`]), where
/// they are read from when something asks for them. Refuses exactly what
/// [`read_object_scanned`] refuses, in the same words.
pub fn read_object_deferring(
    bytes: &[u8],
) -> Result<(Map<String, Value>, Scan, Deferrals), InputError> {
    if let Some((Value::Object(fields), scan, deferrals)) = Fast::parse_with(bytes, DEFER_FROM) {
        return Ok((fields, scan, deferrals));
    }
    read_object_scanned(bytes).map(|(fields, scan)| (fields, scan, Deferrals::default()))
}

/// The shortest string [`read_object_deferring`] leaves undecoded, as
/// written (escapes included).
pub const DEFER_FROM: usize = 64 * 1024;

/// What the scan before parsing saw of a JSON text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scan {
    /// The deepest nesting of arrays and objects (`{}` is 1, `{"a":[]}` 2,
    /// a bare number 0).
    pub max_depth: usize,
    /// No whitespace outside strings, except one `\n` as the very last
    /// byte: the text is one line, as a compact serialiser writes it.
    pub compact: bool,
    /// A lone surrogate escape was read as U+FFFD: the parsed value says
    /// something the bytes do not.
    pub fixed: bool,
    /// Object members written (a `:` outside strings each): more than the
    /// parsed objects hold when a key was given twice.
    pub members: usize,
}

/// Members of `fields` and of every object inside it, without recursion.
fn members(fields: &Map<String, Value>) -> usize {
    let mut count = fields.len();
    let mut stack: Vec<&Value> = fields.values().collect();
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(inner) => {
                count += inner.len();
                stack.extend(inner.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    count
}

/// The deepest nesting of arrays and objects hookrun reads, in the event
/// and in a hook's answer. Hosts write their JSON with a recursive
/// serialiser (Node's `JSON.stringify` stops near 4,000 levels), so nothing a
/// host sends comes near; the fire runs on a stack sized for it.
pub const MAX_JSON_DEPTH: usize = 20_000;

/// Why [`parse_json`] refused.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    #[error("nested deeper than {MAX_JSON_DEPTH} levels (at byte {at})")]
    TooDeep { at: usize },
    #[error(transparent)]
    Syntax(serde_json::Error),
}

/// Parses JSON as a host or a hook writes it: nesting up to
/// [`MAX_JSON_DEPTH`] (not `serde_json`'s 128), and a lone UTF-16 surrogate
/// escape (`"\ud83d"`, what `JSON.stringify` writes for half an emoji) is
/// read as U+FFFD, the replacement character, instead of failing the whole
/// document. A valid surrogate pair is kept as the character it encodes.
pub fn parse_json(bytes: &[u8]) -> Result<Value, JsonError> {
    parse_json_scanned(bytes).map(|(value, _)| value)
}

/// [`parse_json`], and what its scan saw.
pub fn parse_json_scanned(bytes: &[u8]) -> Result<(Value, Scan), JsonError> {
    if let Some(parsed) = Fast::parse(bytes) {
        return Ok(parsed);
    }
    scan_then_parse(bytes)
}

/// The reading [`parse_json_scanned`] must agree with, and what explains
/// every refusal: the scan (depth, surrogates), then `serde_json`.
fn scan_then_parse(bytes: &[u8]) -> Result<(Value, Scan), JsonError> {
    let (fixed, scan) = scan_json(bytes)?;
    let text: &[u8] = fixed.as_deref().unwrap_or(bytes);
    let mut de = serde_json::Deserializer::from_slice(text);
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de).map_err(JsonError::Syntax)?;
    de.end().map_err(JsonError::Syntax)?;
    Ok((value, scan))
}

/// An array or object being read.
enum Frame {
    Array(Vec<Value>),
    /// The members so far and the key of the value being read.
    Object(Map<String, Value>, String),
}

/// One pass that reads valid JSON straight into a [`Value`], without
/// recursion and without `serde_json`'s copy of every escaped string into
/// a scratch buffer first (a 10 MB `content` full of `\n` is one such
/// string): depth, compactness and surrogates are seen on the way.
/// Anything it does not accept — an error, or nesting past the limit — is
/// `None`, and [`scan_then_parse`] reads the text again to say why, so
/// every refusal is worded exactly as before. Numbers are read by
/// `serde_json` itself, one token at a time.
struct Fast<'a> {
    bytes: &'a [u8],
    i: usize,
    scan: Scan,
    /// Strings below the top level this long or longer are checked, not
    /// decoded (`usize::MAX`: none).
    defer_from: usize,
    deferrals: Deferrals,
}

impl Fast<'_> {
    fn parse(bytes: &[u8]) -> Option<(Value, Scan)> {
        Fast::parse_with(bytes, usize::MAX).map(|(value, scan, _)| (value, scan))
    }

    fn parse_with(bytes: &[u8], defer_from: usize) -> Option<(Value, Scan, Deferrals)> {
        let mut p = Fast {
            bytes,
            i: 0,
            scan: Scan {
                compact: true,
                ..Scan::default()
            },
            defer_from,
            deferrals: Deferrals::default(),
        };
        let mut stack: Vec<Frame> = Vec::new();
        p.space();
        let value = 'value: loop {
            let mut value = match *p.bytes.get(p.i)? {
                open @ (b'{' | b'[') => {
                    let depth = stack.len() + 1;
                    if depth > MAX_JSON_DEPTH {
                        return None;
                    }
                    p.scan.max_depth = p.scan.max_depth.max(depth);
                    p.i += 1;
                    p.space();
                    let close = if open == b'{' { b'}' } else { b']' };
                    if p.bytes.get(p.i) == Some(&close) {
                        p.i += 1;
                        if open == b'{' {
                            Value::Object(Map::new())
                        } else {
                            Value::Array(Vec::new())
                        }
                    } else {
                        stack.push(if open == b'{' {
                            Frame::Object(Map::new(), p.key()?)
                        } else {
                            Frame::Array(Vec::new())
                        });
                        continue 'value;
                    }
                }
                b'"' => match (&stack[..], p.bytes.len() - p.i > p.defer_from) {
                    ([Frame::Object(_, key), _, ..], true) => match p.long_string()? {
                        LongString::Checked { json_len } => {
                            p.deferrals.add(key, json_len);
                            Value::String(String::new())
                        }
                        LongString::Short => Value::String(p.string()?),
                    },
                    _ => Value::String(p.string()?),
                },
                b't' => p.literal("true", Value::Bool(true))?,
                b'f' => p.literal("false", Value::Bool(false))?,
                b'n' => p.literal("null", Value::Null)?,
                b'-' | b'0'..=b'9' => Value::Number(p.number()?),
                _ => return None,
            };
            // A value is complete: it goes into its array or object, which
            // may be complete in turn.
            loop {
                p.space();
                let Some(frame) = stack.last_mut() else {
                    break 'value value;
                };
                let next = *p.bytes.get(p.i)?;
                p.i += 1;
                match frame {
                    Frame::Array(items) => {
                        items.push(value);
                        match next {
                            b',' => {
                                p.space();
                                continue 'value;
                            }
                            b']' => {}
                            _ => return None,
                        }
                    }
                    Frame::Object(members, key) => {
                        members.insert(std::mem::take(key), value);
                        match next {
                            b',' => {
                                p.space();
                                *key = p.key()?;
                                continue 'value;
                            }
                            b'}' => {}
                            _ => return None,
                        }
                    }
                }
                value = match stack.pop()? {
                    Frame::Array(items) => Value::Array(items),
                    Frame::Object(members, _) => Value::Object(members),
                };
            }
        };
        (p.i == p.bytes.len()).then_some((value, p.scan, p.deferrals))
    }

    /// Whitespace; any but one final `\n` means the text is not compact.
    fn space(&mut self) {
        while let Some(&b) = self.bytes.get(self.i) {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                return;
            }
            if !(b == b'\n' && self.i + 1 == self.bytes.len()) {
                self.scan.compact = false;
            }
            self.i += 1;
        }
    }

    /// A member's key and its `:`, and the whitespace after them.
    fn key(&mut self) -> Option<String> {
        if self.bytes.get(self.i) != Some(&b'"') {
            return None;
        }
        let key = self.string()?;
        self.space();
        if self.bytes.get(self.i) != Some(&b':') {
            return None;
        }
        self.i += 1;
        self.scan.members += 1;
        self.space();
        Some(key)
    }

    fn literal(&mut self, word: &str, value: Value) -> Option<Value> {
        let end = self.i + word.len();
        (self.bytes.get(self.i..end) == Some(word.as_bytes())).then(|| {
            self.i = end;
            value
        })
    }

    /// A number, read by `serde_json` exactly as it reads one in a
    /// document.
    fn number(&mut self) -> Option<serde_json::Number> {
        let start = self.i;
        while self
            .bytes
            .get(self.i)
            .is_some_and(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
        {
            self.i += 1;
        }
        serde_json::from_slice(&self.bytes[start..self.i]).ok()
    }

    /// A string from its opening quote: runs between escapes are checked
    /// for control characters and copied as they are, the whole for UTF-8;
    /// a lone surrogate escape is U+FFFD.
    fn string(&mut self) -> Option<String> {
        let bytes = self.bytes;
        self.i += 1;
        // Checked as UTF-8 once, whole: the runs between escapes are valid
        // exactly when all of them are, escapes being ASCII.
        let mut out = Vec::new();
        loop {
            let found = quote_or_backslash(bytes.get(self.i..)?)?;
            let run = &bytes[self.i..self.i + found];
            if run.iter().any(|&b| b < 0x20) {
                return None;
            }
            out.extend_from_slice(run);
            let at = self.i + found;
            if bytes[at] == b'"' {
                self.i = at + 1;
                return String::from_utf8(out).ok();
            }
            let escaped = *bytes.get(at + 1)?;
            self.i = at + 2;
            let c = match escaped {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    let unit = hex4(bytes, at + 2)?;
                    self.i = at + 6;
                    let low = low_surrogate_after(bytes, at);
                    match (unit, low) {
                        (0xD800..0xDC00, Some(low)) => {
                            self.i = at + 12;
                            char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
                        }
                        (0xD800..0xE000, _) => {
                            self.scan.fixed = true;
                            '\u{FFFD}'
                        }
                        _ => char::from_u32(unit)?,
                    }
                }
                _ => return None,
            };
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
    }
}

impl Fast<'_> {
    /// A string from its opening quote, checked as [`Fast::string`] checks
    /// it but not decoded, when it is at least `defer_from` bytes long as
    /// written: how long its compact JSON is at least (what it decodes
    /// to, and the quotes). `None`: refused, as [`Fast::string`] refuses.
    fn long_string(&mut self) -> Option<LongString> {
        let bytes = self.bytes;
        let start = self.i + 1;
        let mut i = start;
        // What the escapes take as written, and decoded.
        let (mut written, mut decoded) = (0usize, 0usize);
        let end = loop {
            let at = i + quote_or_backslash(bytes.get(i..)?)?;
            if bytes[at] == b'"' {
                break at;
            }
            let (len, out) = match *bytes.get(at + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => (2, 1),
                b'u' => {
                    let unit = hex4(bytes, at + 2)?;
                    let low = low_surrogate_after(bytes, at);
                    match (unit, low) {
                        (0xD800..0xDC00, Some(_)) => (12, 4),
                        (0xD800..0xE000, _) => {
                            self.scan.fixed = true;
                            (6, '\u{FFFD}'.len_utf8())
                        }
                        _ => (6, char::from_u32(unit)?.len_utf8()),
                    }
                }
                _ => return None,
            };
            written += len;
            decoded += out;
            i = at + len;
        };
        let text = &bytes[start..end];
        if text.len() < self.defer_from {
            return Some(LongString::Short);
        }
        // Escapes are ASCII and not control characters: the text as
        // written has one, or is not UTF-8, exactly when the runs between
        // its escapes do (see `string`).
        if has_control(text) || std::str::from_utf8(text).is_err() {
            return None;
        }
        self.i = end + 1;
        Some(LongString::Checked {
            json_len: text.len() - written + decoded + 2,
        })
    }
}

/// What [`Fast::long_string`] did with a valid string.
enum LongString {
    /// Shorter than the deferral size: nothing was read.
    Short,
    /// Checked and passed over; its compact JSON is at least this long.
    Checked { json_len: usize },
}

/// Whether `bytes` hold a control character (below U+0020), a block at
/// a time.
fn has_control(bytes: &[u8]) -> bool {
    bytes
        .chunks(256)
        .any(|block| block.iter().fold(0, |seen, &b| seen | u8::from(b < 0x20)) != 0)
}

/// The four hex digits of a `\u` escape starting at `at` (after the `u`).
fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    digits.iter().try_fold(0, |unit, &digit| {
        Some(unit * 16 + char::from(digit).to_digit(16)?)
    })
}

/// One pass over the bytes, without recursion: the nesting depth (refused
/// past the limit), whether the text is compact, and lone surrogate escapes
/// replaced by `\ufffd` (a copy is made only when there is one). Inside a
/// string only `"` and `\` matter, so the scan jumps between them
/// (`memchr2`); the bytes outside strings are looked at one by one.
fn scan_json(bytes: &[u8]) -> Result<(Option<Vec<u8>>, Scan), JsonError> {
    let len = bytes.len();
    let mut depth = 0usize;
    let mut scan = Scan {
        compact: true,
        ..Scan::default()
    };
    let mut fixed: Option<Vec<u8>> = None;
    // Bytes before `copied` are already in `fixed`.
    let mut copied = 0;
    let mut i = 0;
    while i < len {
        match bytes[i] {
            b'"' => {
                // Inside the string: to its closing quote, or the end of a
                // truncated text (which the parser then refuses).
                i += 1;
                let mut closed = false;
                while let Some(found) = bytes.get(i..).and_then(quote_or_backslash) {
                    let at = i + found;
                    if bytes[at] == b'"' {
                        i = at;
                        closed = true;
                        break;
                    }
                    i = at + 2;
                    if bytes.get(at + 1) != Some(&b'u') {
                        continue;
                    }
                    let Some(unit) = hex4(bytes, at + 2) else {
                        continue;
                    };
                    i = at + 6;
                    let paired = (0xD800..0xDC00).contains(&unit)
                        && low_surrogate_after(bytes, at).is_some();
                    if paired {
                        i = at + 12;
                    } else if (0xD800..0xE000).contains(&unit) {
                        let out = fixed.get_or_insert_with(|| Vec::with_capacity(len));
                        out.extend_from_slice(&bytes[copied..at]);
                        out.extend_from_slice(b"\\ufffd");
                        copied = at + 6;
                    }
                }
                if !closed {
                    break;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Err(JsonError::TooDeep { at: i });
                }
                scan.max_depth = scan.max_depth.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b':' => scan.members += 1,
            b'\n' if i + 1 == len => {}
            b' ' | b'\t' | b'\n' | b'\r' => scan.compact = false,
            _ => {}
        }
        i += 1;
    }
    if let Some(out) = &mut fixed {
        out.extend_from_slice(&bytes[copied..]);
        scan.fixed = true;
    }
    Ok((fixed, scan))
}

fn value_as_match_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => other.to_string(),
    }
}

/// The low half of a surrogate pair, if the `\uXXXX` escape at `at` is
/// followed by one (`\uDC00` to `\uDFFF`).
fn low_surrogate_after(bytes: &[u8], at: usize) -> Option<u32> {
    (bytes.get(at + 6) == Some(&b'\\') && bytes.get(at + 7) == Some(&b'u'))
        .then(|| hex4(bytes, at + 8))
        .flatten()
        .filter(|low| (0xDC00..0xE000).contains(low))
}

/// The first `"` or `\` in `bytes`: where a JSON string's plain run ends.
///
/// On x86_64 this calls memchr's SSE2 search directly (SSE2 is part of the
/// architecture) rather than `memchr::memchr2`, whose first call asks the
/// processor which vector extensions it has. That question is the `cpuid`
/// instruction, several times over, and in a virtual machine every `cpuid`
/// traps to the hypervisor: about 15 µs each where this was measured, a
/// tenth of a fire that matches nothing, spent before its first string.
fn quote_or_backslash(bytes: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        memchr::arch::x86_64::sse2::memchr::Two::new(b'"', b'\\')
            .expect("SSE2 is part of x86_64")
            .find(bytes)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        memchr::memchr2(b'"', b'\\', bytes)
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
    fn deep_nesting_is_read_up_to_the_limit() {
        // Run where the fire runs: on a stack sized for the limit.
        crate::stack::on_big_stack(|| {
            let depth = MAX_JSON_DEPTH - 2;
            let input = format!(
                r#"{{"tool_name":"Bash","tool_input":{{"command":"rm x","d":{}1{}}}}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            );
            let event = Event::parse(input.as_bytes(), Some("PreToolUse")).unwrap();
            assert_eq!(event.tool_input().unwrap()["command"], "rm x");
            let again = Event::parse(&event.to_hook_bytes(), None).unwrap();
            assert_eq!(again.fields(), event.fields());
            let too_deep = format!(
                "{{\"a\":{}{}}}",
                "[".repeat(MAX_JSON_DEPTH),
                "]".repeat(MAX_JSON_DEPTH)
            );
            assert!(matches!(
                Event::parse(too_deep.as_bytes(), Some("Stop")),
                Err(InputError::TooDeep { at }) if at == MAX_JSON_DEPTH + 4
            ));
        });
        // The 129 levels serde_json refuses by default.
        let input = format!("{{\"d\":{}1{}}}", "{\"a\":".repeat(200), "}".repeat(200));
        assert!(Event::parse(input.as_bytes(), Some("Stop")).is_ok());
    }

    #[test]
    fn lone_surrogates_become_the_replacement_character() {
        let cases: &[(&str, &str)] = &[
            (r#""\ud83d""#, "\u{FFFD}"),
            (r#""a\ud83d b""#, "a\u{FFFD} b"),
            (r#""\ude00""#, "\u{FFFD}"),
            (r#""\ud83d\ude00""#, "😀"),
            (r#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"),
            (r#""\\ud83d""#, "\\ud83d"),
            (r#""\uD83D\u0041""#, "\u{FFFD}A"),
            (r#""x\ud83d""#, "x\u{FFFD}"),
        ];
        for (json, expected) in cases {
            let value = parse_json(json.as_bytes()).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(value, Value::String((*expected).to_owned()), "{json}");
        }
        // Keys too, and the surrounding document is untouched.
        let value = parse_json(br#"{"k\udc00":[1,"\ud800"],"n":2}"#).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"k\u{FFFD}": [1, "\u{FFFD}"], "n": 2})
        );
        // Malformed JSON stays an error.
        assert!(parse_json(br#""\ud83"#).is_err());
        assert!(parse_json(b"[1,]").is_err());
        assert!(parse_json(b"{} x").is_err());
    }

    /// The scan as it was first written, one byte at a time: the
    /// reference the jumping scan must agree with.
    fn reference_scan(bytes: &[u8]) -> Result<(Option<Vec<u8>>, Scan), usize> {
        fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
            let digits = bytes.get(at..at + 4)?;
            let text = std::str::from_utf8(digits).ok()?;
            u32::from_str_radix(text, 16).ok()
        }
        let mut scan = Scan {
            compact: true,
            ..Scan::default()
        };
        let mut depth = 0usize;
        let mut in_string = false;
        let mut fixed: Option<Vec<u8>> = None;
        let mut copied = 0;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if in_string {
                match b {
                    b'"' => in_string = false,
                    b'\\' => {
                        if bytes.get(i + 1) == Some(&b'u') {
                            if let Some(unit) = hex4(bytes, i + 2) {
                                let paired = (0xD800..0xDC00).contains(&unit)
                                    && bytes.get(i + 6) == Some(&b'\\')
                                    && bytes.get(i + 7) == Some(&b'u')
                                    && hex4(bytes, i + 8)
                                        .is_some_and(|low| (0xDC00..0xE000).contains(&low));
                                if paired {
                                    i += 12;
                                    continue;
                                }
                                if (0xD800..0xE000).contains(&unit) {
                                    let out = fixed.get_or_insert_with(Vec::new);
                                    out.extend_from_slice(&bytes[copied..i]);
                                    out.extend_from_slice(b"\\ufffd");
                                    copied = i + 6;
                                }
                                i += 6;
                                continue;
                            }
                        }
                        i += 2;
                        continue;
                    }
                    _ => {}
                }
            } else {
                match b {
                    b'"' => in_string = true,
                    b'[' | b'{' => {
                        depth += 1;
                        if depth > MAX_JSON_DEPTH {
                            return Err(i);
                        }
                        scan.max_depth = scan.max_depth.max(depth);
                    }
                    b']' | b'}' => depth = depth.saturating_sub(1),
                    b':' => scan.members += 1,
                    b'\n' if i + 1 == bytes.len() => {}
                    b' ' | b'\t' | b'\n' | b'\r' => scan.compact = false,
                    _ => {}
                }
            }
            i += 1;
        }
        if let Some(out) = &mut fixed {
            out.extend_from_slice(&bytes[copied..]);
            scan.fixed = true;
        }
        Ok((fixed, scan))
    }

    fn scanned(bytes: &[u8]) -> Result<(Option<Vec<u8>>, Scan), usize> {
        scan_json(bytes).map_err(|err| match err {
            JsonError::TooDeep { at } => at,
            JsonError::Syntax(err) => panic!("the scan does not parse: {err}"),
        })
    }

    #[test]
    fn the_scan_measures_depth_and_compactness() {
        let scan = |text: &str| scanned(text.as_bytes()).unwrap().1;
        assert_eq!(
            scan("{\"a\":[1,{\"b\":\"]]}}\"}],\"c\":{}}\n"),
            Scan {
                max_depth: 3,
                compact: true,
                fixed: false,
                members: 3,
            }
        );
        assert_eq!(scan("3").max_depth, 0);
        assert_eq!(scan(r#"{"a":"x y\n\"{"}"#).max_depth, 1);
        assert!(
            scan(r#"{"a":"x y\n\"{"}"#).compact,
            "whitespace inside strings"
        );
        for loose in [
            "{ }",
            "{}\n\n",
            "{}\r\n",
            " {}",
            "{\"a\":\t1}",
            "{}\n ",
            "{\n}",
        ] {
            assert!(!scan(loose).compact, "{loose:?}");
        }
        let lone = scan(r#"{"a":"\ud83d"}"#);
        assert!(lone.fixed && lone.compact);
        assert!(!scan(r#"{"a":"\ud83d\ude00"}"#).fixed);
        // Truncated texts: the scan stops, the parser refuses.
        assert_eq!(scan(r#"{"a":"abc\"#).max_depth, 1);
        assert_eq!(scan(r#"{"a":"\ud8"#).max_depth, 1);
        assert!(matches!(
            read_object_scanned(br#"{"a":"\u"#),
            Err(InputError::NotJson(_))
        ));
        let (_, scan) = read_object_scanned(b"{\"a\":[[[]]]}\n").unwrap();
        assert_eq!(scan.max_depth, 4);
    }

    use proptest::strategy::Strategy as _;

    /// A piece of a JSON string as written: plain text, every escape
    /// (surrogates too), and what a string may not hold.
    fn arb_string_part() -> impl proptest::strategy::Strategy<Value = String> + Clone {
        use proptest::prelude::*;
        prop_oneof![
            "[a-zA-Z0-9 é😀/<>]{0,5}",
            prop::sample::select(vec![
                "\\\"",
                "\\\\",
                "\\/",
                "\\b",
                "\\f",
                "\\n",
                "\\r",
                "\\t",
                "\\u00e9",
                "\\u0000",
                "\\ud83d",
                "\\ude00",
                "\\ud83d\\ude00",
                "\\uD83D\\uDE00",
                "\\ud800\\u0041",
                "\\u001f",
                "\u{1}",
                "\\x",
                "\\u12",
                "\\uzzzz",
                "\u{7f}",
                "\u{2028}",
            ])
            .prop_map(str::to_owned),
        ]
    }

    /// JSON text (mostly valid) with the spellings hosts and hooks use.
    fn arb_json_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let space = prop::sample::select(vec!["", "", "", " ", "\n", "\t", "\r\n"]);
        let string_part = arb_string_part();
        let string = prop::collection::vec(string_part, 0..4)
            .prop_map(|parts| format!("\"{}\"", parts.concat()));
        let number = prop::sample::select(vec![
            "0",
            "-0",
            "1",
            "-1",
            "1.0",
            "1.5e3",
            "1.0e3",
            "1E-2",
            "1e+2",
            "12345678901234567890",
            "123456789012345678901234567890",
            "-9223372036854775808",
            "0.1",
            "3.141592653589793",
            "1e400",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "2.5E+10",
        ])
        .prop_map(str::to_owned);
        let leaf = prop_oneof![
            string.clone(),
            number,
            prop::sample::select(vec!["true", "false", "null", "nul", "tru"])
                .prop_map(str::to_owned),
        ];
        leaf.prop_recursive(6, 48, 5, move |inner| {
            let space = space.clone();
            let string = string.clone();
            prop_oneof![
                prop::collection::vec((inner.clone(), space.clone()), 0..5).prop_map(|items| {
                    let body: Vec<String> = items
                        .into_iter()
                        .map(|(v, s)| format!("{s}{v}{s}"))
                        .collect();
                    format!("[{}]", body.join(","))
                }),
                prop::collection::vec(
                    (prop_oneof![string, Just("\"k\"".to_owned())], inner, space),
                    0..5
                )
                .prop_map(|members| {
                    let body: Vec<String> = members
                        .into_iter()
                        .map(|(k, v, s)| format!("{s}{k}{s}:{v}"))
                        .collect();
                    format!("{{{}}}", body.join(","))
                }),
            ]
        })
        .prop_flat_map(|text| {
            (
                Just(text),
                prop::sample::select(vec!["", "", "\n", " ", "\n\n", "x", ","]),
            )
        })
        .prop_map(|(text, tail)| format!("{text}{tail}"))
    }

    proptest::proptest! {
        /// The scan that jumps between quotes and backslashes inside strings
        /// says exactly what the byte-at-a-time reference says (depth,
        /// compactness, surrogate fixes, where it refused) on JSON-ish text
        /// full of the bytes that matter to it.
        #[test]
        fn the_fast_scan_agrees_with_the_reference(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(vec![
                        "\"", "\\", "\\\"", "\\\\", "\\u", "\\ud83d", "\\ude00", "\\uD800",
                        "\\u0041", "\\udbff\\udfff", "\\u+d83", "{", "}", "[", "]", ":",
                        ",", " ", "\n", "\t", "\r", "a", "1", "é", "ud83d",
                    ]).prop_map(str::to_owned),
                    "[a-f0-9\"\\\\{}\\[\\] u]{0,6}",
                ],
                0..40,
            ),
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(scanned(text.as_bytes()), reference_scan(text.as_bytes()));
        }

        /// The one-pass reader reads what the scan and `serde_json` read,
        /// and says what their scan saw, on JSON text with every spelling
        /// a host might use (escapes, surrogates, number forms, spacing)
        /// and on broken text (refusals come from the same reading, so the
        /// message is the same).
        #[test]
        fn the_fast_reader_agrees_with_scan_then_serde(text in arb_json_text(), cut in 0usize..400) {
            for text in [text.clone(), text.chars().take(cut).collect::<String>()] {
                let fast = parse_json_scanned(text.as_bytes()).map_err(|e| e.to_string());
                let slow = scan_then_parse(text.as_bytes()).map_err(|e| e.to_string());
                proptest::prop_assert_eq!(fast, slow, "{:?}", text);
            }
        }

        /// Deep nesting: the depth and where the limit is passed agree too.
        #[test]
        fn the_fast_scan_agrees_on_depth(
            open in 0..MAX_JSON_DEPTH + 3,
            inner in "[\"\\\\a\\[\\]]{0,4}",
        ) {
            let text = format!("{}{inner}{}", "[".repeat(open), "]".repeat(open));
            proptest::prop_assert_eq!(scanned(text.as_bytes()), reference_scan(text.as_bytes()));
        }
    }

    /// An event read with long strings left undecoded, as `fire` reads it
    /// for a host whose decoding is the identity.
    fn deferring(text: &[u8], defer_from: usize) -> Option<Event> {
        let (value, scan, deferrals) = Fast::parse_with(text, defer_from)?;
        let Value::Object(fields) = value else {
            return None;
        };
        let mut event = Event::from_object(fields, Some("PreToolUse")).ok()?;
        event.keep_host_line(Bytes::from(text.to_vec()), &scan, deferrals);
        Some(event)
    }

    proptest::proptest! {
        /// Strings left undecoded change nothing anyone can see: the same
        /// texts are refused, the scan sees the same, and every field, the
        /// bytes hooks get and the length floor agree with the reading that
        /// decodes everything; whether the host line is kept (a compact
        /// text naming the event) or not (then it is read whole at once).
        #[test]
        fn deferred_strings_read_as_decoded_ones(
            inner in arb_json_text(),
            defer_from in 0usize..6,
            named in proptest::bool::ANY,
        ) {
            let name = if named { r#""hook_event_name":"PreToolUse","# } else { "" };
            // As written, and as a compact serialiser writes it (the host
            // line is kept for those).
            let compact = parse_json(inner.as_bytes()).ok().map(|value| value.to_string());
            for inner in std::iter::once(inner).chain(compact) {
                let text = format!(r#"{{{name}"tool_name":"Write","tool_input":{inner},"n":[{inner}]}}"#);
                agrees_deferred(text.as_bytes(), defer_from)?;
            }
        }
    }

    proptest::proptest! {
        /// Strings long enough to be read a block at a time are checked as
        /// the decoding reader checks them, wherever their escapes, quotes
        /// and control characters fall against the blocks.
        #[test]
        fn long_strings_are_checked_as_decoded_ones(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    9 => arb_string_part(),
                    1 => proptest::sample::select(vec!["\"", "\u{0}", "\\"]).prop_map(str::to_owned),
                ],
                0..150,
            ),
            defer_from in 0usize..3,
        ) {
            let text = format!(
                r#"{{"hook_event_name":"PreToolUse","tool_input":{{"content":"{}"}},"n":1}}"#,
                parts.concat()
            );
            agrees_deferred(text.as_bytes(), defer_from)?;
        }
    }

    fn agrees_deferred(
        bytes: &[u8],
        defer_from: usize,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let text = String::from_utf8_lossy(bytes);
        let eager = Fast::parse(bytes);
        let lazy = Fast::parse_with(bytes, defer_from);
        proptest::prop_assert_eq!(eager.is_some(), lazy.is_some(), "{:?}", text);
        let (Some((_, eager_scan)), Some((_, lazy_scan, deferrals))) = (eager, lazy) else {
            return Ok(());
        };
        proptest::prop_assert_eq!(eager_scan, lazy_scan);
        let event = deferring(bytes, defer_from).expect("read");
        let whole = Event::parse(bytes, Some("PreToolUse")).expect("read");
        // The floors count while the strings are undecoded, which is
        // while the host line is kept (a key given twice is not).
        let kept = event
            .deferred
            .as_ref()
            .map_or(&[][..], |d| &d.deferrals.0[..]);
        proptest::prop_assert!(kept.is_empty() || kept == &deferrals.0[..]);
        for (key, floor) in kept {
            let json = serde_json::to_vec(&whole.fields()[key]).unwrap();
            proptest::prop_assert!(json.len() >= *floor, "{key}: {} < {floor}", json.len());
        }
        proptest::prop_assert_eq!(event.tool_name(), whole.tool_name());
        proptest::prop_assert_eq!(event.field("n"), whole.field("n"));
        proptest::prop_assert_eq!(event.tool_input(), whole.tool_input());
        proptest::prop_assert_eq!(event.fields(), whole.fields());
        proptest::prop_assert_eq!(event.to_hook_bytes(), whole.to_hook_bytes());
        let mut again = whole.clone();
        again.keep_host_line(
            Bytes::from(bytes.to_vec()),
            &eager_scan,
            Deferrals::default(),
        );
        proptest::prop_assert_eq!(event.passes_host_line(), again.passes_host_line());
        Ok(())
    }

    #[test]
    fn a_long_content_is_decoded_only_when_asked_for() {
        let line = "fn f() { println!(\\\"caf\\u00e9 \\ud83d\\ude00\\\"); }\\n";
        let content = line.repeat(2 * DEFER_FROM / line.len());
        let text = format!(
            r#"{{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"/p/a.rs","content":"{content}"}}}}"#
        );
        let (fields, scan, deferrals) = read_object_deferring(text.as_bytes()).unwrap();
        assert_eq!(fields["tool_input"]["content"], "", "left undecoded");
        assert_eq!(fields["tool_input"]["file_path"], "/p/a.rs");
        let mut event = Event::from_object(fields, None).unwrap();
        event.keep_host_line(Bytes::from(text.clone().into_bytes()), &scan, deferrals);
        assert!(event.passes_host_line());
        // Read without decoding: the name, the match value, the length.
        assert_eq!(event.match_value(), "Write");
        assert!(event.deferred.as_ref().unwrap().full.get().is_none());
        assert!(event.tool_input_longer_than(content.len() / 2));
        assert!(!event.tool_input_longer_than(10 * content.len()));
        assert_eq!(&**event.hook_stdin(), format!("{text}\n").as_bytes());
        // Asked for: decoded, as the whole reading decodes it.
        let whole = Event::parse(text.as_bytes(), None).unwrap();
        assert_eq!(event.tool_input(), whole.tool_input());
        assert!(
            event.tool_input().unwrap()["content"]
                .as_str()
                .unwrap()
                .starts_with("fn f() { println!(\"caf\u{e9} \u{1F600}\"); }\n")
        );
        // Changed: whole, then changed; the host line is gone.
        let mut changed = whole.clone();
        let input = serde_json::json!({"file_path": "/p/b.rs"});
        changed.set_tool_input(input.clone());
        event.set_tool_input(input);
        assert!(event.deferred.is_none() && !event.passes_host_line());
        assert_eq!(event.fields(), changed.fields());
        assert_eq!(event.tool_input_before_replacement(), whole.tool_input());
        // The floor is what the string decodes to, and its quotes.
        let plain = format!(
            r#"{{"hook_event_name":"PreToolUse","tool_input":{{"c":"{}\u00e9\n\ud83d\ude00"}}}}"#,
            "x".repeat(DEFER_FROM)
        );
        let (fields, scan, deferrals) = read_object_deferring(plain.as_bytes()).unwrap();
        let mut event = Event::from_object(fields, None).unwrap();
        event.keep_host_line(Bytes::from(plain.into_bytes()), &scan, deferrals);
        let floor = DEFER_FROM + "é\n😀".len() + 2;
        assert!(event.tool_input_longer_than(floor - 1));
        assert!(!event.tool_input_longer_than(floor));
        // Refused as before: a control character in the long string.
        let broken = text.replacen("caf", "c\tf", 1);
        assert_eq!(
            read_object_deferring(broken.as_bytes())
                .map(|_| ())
                .map_err(|e| e.to_string()),
            read_object_scanned(broken.as_bytes())
                .map(|_| ())
                .map_err(|e| e.to_string()),
        );
        assert!(read_object_deferring(broken.as_bytes()).is_err());
        // Loose text: the line is not kept, so the object is read whole.
        let loose = text.replacen(',', ", ", 1);
        let (fields, scan, deferrals) = read_object_deferring(loose.as_bytes()).unwrap();
        assert!(!deferrals.is_empty());
        let mut event = Event::from_object(fields, None).unwrap();
        event.keep_host_line(Bytes::from(loose.into_bytes()), &scan, deferrals);
        assert!(!event.passes_host_line() && event.deferred.is_none());
        assert_eq!(event.fields(), whole.fields());
    }

    #[test]
    fn a_long_string_reads_as_serde_reads_it() {
        let line = "fn f() { println!(\\\"caf\\u00e9 \\ud83d\\ude00\\\"); }\\n";
        let text = format!(
            "{{\"tool_input\":{{\"content\":\"{}\",\"n\":1}}}}\n",
            line.repeat(200_000 / line.len())
        );
        let (value, scan) = Fast::parse(text.as_bytes()).expect("valid JSON");
        assert_eq!(
            Ok((value, scan)),
            scan_then_parse(text.as_bytes()).map_err(|e| e.to_string())
        );
        let content = parse_json(text.as_bytes()).unwrap()["tool_input"]["content"].clone();
        assert!(
            content
                .as_str()
                .unwrap()
                .starts_with("fn f() { println!(\"caf\u{e9} \u{1F600}\"); }\n")
        );
    }

    #[test]
    fn invalid_utf8_and_control_characters_are_refused_as_serde_refuses_them() {
        for text in [
            &b"{\"a\":\"\xc3\\n\xa9\"}"[..],
            b"{\"a\":\"\xc3\\u00e9\"}",
            b"{\"a\":\"x\xff\"}",
            b"{\"a\":\"\xc3\"}",
            b"{\"a\":\"tab\there\"}",
        ] {
            assert!(Fast::parse(text).is_none(), "{text:?}");
            let fast = parse_json_scanned(text).map_err(|e| e.to_string());
            assert_eq!(fast, scan_then_parse(text).map_err(|e| e.to_string()));
            assert!(fast.is_err(), "{text:?}");
        }
        assert!(Fast::parse("{\"a\":\"caf\u{e9}\\n\u{e9}\"}".as_bytes()).is_some());
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

//! Reading the event's JSON: the bytes on stdin into the object every host
//! sends, in one pass that sees the nesting depth, whether the text is
//! already compact and whether a lone surrogate was replaced ([`Scan`]), and
//! that may leave long strings undecoded until something asks for them
//! ([`read_object_deferring`], [`Deferrals`]). Also the JSON reading of a
//! hook's answer ([`parse_json`]): deeper than `serde_json` reads by default,
//! and lenient about lone surrogates, as hosts and hooks write them.

use serde_json::{Map, Value};

use super::InputError;

/// Long strings left undecoded by [`read_object_deferring`]: the top-level
/// field each is in, and how long (at least) that field's value is as
/// compact JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deferrals(pub(super) Vec<(String, usize)>);

impl Deferrals {
    pub(super) fn holds(&self, key: &str) -> bool {
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
pub(super) fn members(fields: &Map<String, Value>) -> usize {
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
mod tests;

//! A hook's JSON path (`hooks.PreToolUse[1].hooks[0]`), written only when
//! something reads it.

use std::fmt;
use std::sync::{Arc, OnceLock};

/// A hook's JSON path (`hooks.PreToolUse[1].hooks[0]`), read as a `str`.
/// The loader's fast path keeps the event's path and the indices, and the
/// text is written the first time something reads it: most hooks of a fire
/// are never named, and writing every path was a tenth of a 500-hook fire.
#[derive(Clone, Default)]
pub struct JsonPath {
    /// The event's path (`hooks.PreToolUse`); `None` when `text` was given.
    event: Option<Arc<str>>,
    /// The entry's index.
    entry: u32,
    /// The index inside a matcher group, [`NO_INNER`] for none.
    inner: u32,
    text: OnceLock<Box<str>>,
}

/// [`JsonPath::inner`] of a flat entry.
const NO_INNER: u32 = u32::MAX;

impl JsonPath {
    /// `{event}[{entry}]`, or `{event}[{entry}].hooks[{inner}]`.
    pub fn indexed(event: Arc<str>, entry: usize, inner: Option<usize>) -> JsonPath {
        let small = |index: usize| u32::try_from(index).ok().filter(|i| *i != NO_INNER);
        match (small(entry), inner.map(small)) {
            (Some(entry), None) => JsonPath::compact(event, entry, NO_INNER),
            (Some(entry), Some(Some(inner))) => JsonPath::compact(event, entry, inner),
            // Indices this large are written out now.
            _ => JsonPath::from(render(&event, entry, inner)),
        }
    }

    fn compact(event: Arc<str>, entry: u32, inner: u32) -> JsonPath {
        JsonPath {
            event: Some(event),
            entry,
            inner,
            text: OnceLock::new(),
        }
    }

    pub fn as_str(&self) -> &str {
        self.text.get_or_init(|| {
            let Some(event) = &self.event else {
                return Box::default();
            };
            let widen = |index: u32| usize::try_from(index).unwrap_or(usize::MAX);
            let inner = (self.inner != NO_INNER).then(|| widen(self.inner));
            render(event, widen(self.entry), inner).into_boxed_str()
        })
    }
}

/// `{event}[{entry}]`, or `{event}[{entry}].hooks[{inner}]`.
fn render(event: &str, entry: usize, inner: Option<usize>) -> String {
    let mut text = String::with_capacity(event.len() + 16);
    text.push_str(event);
    push_index(&mut text, entry);
    if let Some(inner) = inner {
        text.push_str(".hooks");
        push_index(&mut text, inner);
    }
    text
}

/// `[index]`, without the formatting machinery.
fn push_index(text: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = index;
    loop {
        at -= 1;
        // Always below 10.
        digits[at] = b'0' + u8::try_from(rest % 10).unwrap_or(0);
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    text.push('[');
    text.push_str(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
    text.push(']');
}

impl From<String> for JsonPath {
    fn from(text: String) -> JsonPath {
        JsonPath {
            event: None,
            entry: 0,
            inner: NO_INNER,
            text: OnceLock::from(text.into_boxed_str()),
        }
    }
}

impl From<&str> for JsonPath {
    fn from(text: &str) -> JsonPath {
        JsonPath::from(text.to_owned())
    }
}

impl From<&JsonPath> for String {
    fn from(path: &JsonPath) -> String {
        path.as_str().to_owned()
    }
}

impl std::ops::Deref for JsonPath {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for JsonPath {
    fn eq(&self, other: &JsonPath) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for JsonPath {}

impl PartialEq<str> for JsonPath {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for JsonPath {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl serde::Serialize for JsonPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

//! What reaches a person's terminal: text from settings, events, hook
//! output, audit lines and transcripts, with every character that could
//! move the cursor, erase a line, retitle the window or reorder the text
//! shown as a visible escape instead.
//!
//! The agent writes much of that text (its commands, the files hookrun
//! reads, a repository's settings), so a raw `ESC [2K` in a hook's command
//! would otherwise hide `curl … | sh` from someone reviewing an untrusted
//! repository with `hookrun list`. Applied in one place, to everything the
//! human-facing commands print and to the `-v` log fields, so new output is
//! covered without thinking about it. Machine outputs keep their bytes: the
//! hook protocol answer (`fire`), which the host decodes and displays as it
//! sees fit (docs/design/decisions.md), and `--format json`, where only the
//! characters JSON itself leaves raw are written as `\uXXXX` (the value is
//! unchanged; a person paging through it sees no control sequence).
//!
//! Escaped: C0 controls except `\n` and `\t` (ESC, BEL, CR, backspace…),
//! DEL, the C1 controls U+0080–U+009F (U+009B is a one-character CSI), and
//! the bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069,
//! and the marks U+200E, U+200F, U+061C) that reorder how a line displays.
//! A character is written `\r` (CR) or `\xNN` below U+0080, `\u{NNNN}`
//! above. Text without any of them is returned as it is, unallocated.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal raw.
fn is_unsafe(c: char) -> bool {
    // Controls (C0 but newline and tab, DEL, C1), then bidi formatting.
    matches!(c, '\0'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
        || matches!(
            c,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
        )
}

/// `text` with every unsafe character written as a visible escape.
#[must_use]
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    let Some(first) = text.find(is_unsafe) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if !is_unsafe(c) {
            out.push(c);
        } else if c == '\r' {
            out.push_str("\\r");
        } else if c < '\u{80}' {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// A JSON document with the unsafe characters JSON leaves raw (DEL, C1,
/// the bidi formatting characters) written as `\uXXXX`. They can only
/// occur inside strings, where that escape means the same character, so
/// the document's value is unchanged. serde_json already escapes C0.
#[must_use]
pub fn for_json(json: &str) -> Cow<'_, str> {
    let Some(first) = json.find(is_unsafe) else {
        return Cow::Borrowed(json);
    };
    let mut out = String::with_capacity(json.len() + 16);
    out.push_str(&json[..first]);
    for c in json[first..].chars() {
        // Raw C0 cannot be in valid JSON; kept as they are, should they be.
        if is_unsafe(c) && c > '\u{1f}' {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The `-v` log's field formatter: each field's value escaped, so that a
/// hook's output or an event's text logged at `-vvv` cannot drive the
/// terminal. The log's own colours (levels) are written by the event
/// formatter around the fields and stay.
pub fn log_fields() -> impl for<'writer> tracing_subscriber::fmt::FormatFields<'writer> + 'static {
    use tracing_subscriber::field::MakeExt as _;
    tracing_subscriber::fmt::format::debug_fn(|writer, field, value| {
        let text = format!("{value:?}");
        if field.name() == "message" {
            writer.write_str(&for_terminal(&text))
        } else {
            write!(writer, "{}={}", field.name(), for_terminal(&text))
        }
    })
    .delimited(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_escaped_and_the_rest_is_kept() {
        assert_eq!(
            for_terminal("ok\u{1b}[2Kcurl x|sh\u{7}\r\u{8}\u{7f}\u{9b}31m\u{85}"),
            "ok\\x1b[2Kcurl x|sh\\x07\\r\\x08\\x7f\\u{9b}31m\\u{85}"
        );
        assert_eq!(
            for_terminal("a\u{202e}b\u{2066}c\u{2069}\u{202a}\u{200f}\u{61c}"),
            "a\\u{202e}b\\u{2066}c\\u{2069}\\u{202a}\\u{200f}\\u{61c}"
        );
        assert_eq!(for_terminal("\0"), "\\x00");
        for kept in ["line\nnext\tcol", "café ✓ 日本 \u{a0}\u{2028}", ""] {
            assert!(matches!(for_terminal(kept), Cow::Borrowed(_)), "{kept:?}");
        }
    }

    #[test]
    fn every_character_is_either_kept_or_printable_after_escaping() {
        for code in 0..=0x2100u32 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let escaped = for_terminal(&c.to_string()).into_owned();
            assert!(
                escaped.chars().all(|e| !is_unsafe(e)),
                "U+{code:04X} → {escaped:?}"
            );
        }
    }

    #[test]
    fn json_keeps_its_value() {
        let value = serde_json::json!({"c": "a\u{1b}b\u{7f}c\u{9b}d\u{202e}e\n"});
        let text = serde_json::to_string(&value).unwrap();
        let safe = for_json(&text);
        assert!(safe.chars().all(|c| !is_unsafe(c)), "{safe}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&safe).unwrap(),
            value
        );
        assert!(matches!(for_json("{\"a\":\"b\"}"), Cow::Borrowed(_)));
    }
}

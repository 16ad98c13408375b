//! The values hookrun sends but must never show: a prompt hook's API key,
//! the environment values an http hook reads into its headers. An endpoint
//! that echoes them (a 401 body quoting the key, a model repeating it)
//! would otherwise put them in the system message, the reason the model
//! reads, the report, the audit log and `-v`. Every exchange is redacted
//! where it is made ([`super::Client::send`]), and a prompt hook's decoded
//! answer again ([`crate::prompt`]), so nothing downstream sees them. Pure.

use std::borrow::Cow;

/// What a secret is shown as.
pub const REDACTED: &str = "[redacted]";

/// Shorter values are not redacted: they would blank ordinary words, and
/// a value that short protects nothing.
const SHORTEST: usize = 4;

/// Values to redact from every text of one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    /// Each as sent, and as a JSON string spells it when that differs.
    values: Vec<String>,
}

impl Secrets {
    /// Adds `value` (nothing when it is too short to be a secret).
    pub fn add(&mut self, value: &str) {
        let value = value.trim();
        if value.len() < SHORTEST {
            return;
        }
        let mut spellings = vec![value.to_owned()];
        let json = serde_json::to_string(value).unwrap_or_default();
        let json = json
            .strip_prefix('"')
            .and_then(|j| j.strip_suffix('"'))
            .unwrap_or_default();
        if json != value && !json.is_empty() {
            spellings.push(json.to_owned());
        }
        for spelling in spellings {
            if !self.values.contains(&spelling) {
                self.values.push(spelling);
            }
        }
        // Longest first, so a value containing another is replaced whole.
        self.values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `text` with every secret replaced by [`REDACTED`].
    #[must_use]
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for value in &self.values {
            if out.contains(value.as_str()) {
                out = Cow::Owned(out.replace(value.as_str(), REDACTED));
            }
        }
        out
    }

    /// [`Secrets::redact`] in place.
    pub fn redact_string(&self, text: &mut String) {
        if let Cow::Owned(redacted) = self.redact(text) {
            *text = redacted;
        }
    }

    /// The same over bytes (a response body need not be UTF-8).
    pub fn redact_bytes(&self, bytes: &mut Vec<u8>) {
        for value in &self.values {
            let needle = value.as_bytes();
            if !bytes.windows(needle.len()).any(|w| w == needle) {
                continue;
            }
            let mut out = Vec::with_capacity(bytes.len());
            let mut rest = &bytes[..];
            while let Some(at) = rest.windows(needle.len()).position(|w| w == needle) {
                out.extend_from_slice(&rest[..at]);
                out.extend_from_slice(REDACTED.as_bytes());
                rest = &rest[at + needle.len()..];
            }
            out.extend_from_slice(rest);
            *bytes = out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_occurrence_and_its_json_spelling_is_replaced() {
        let mut secrets = Secrets::default();
        secrets.add("sk-ant-123\"x");
        secrets.add("abc");
        secrets.add("");
        assert_eq!(
            secrets.redact("a sk-ant-123\"x b sk-ant-123\"x abc"),
            "a [redacted] b [redacted] abc"
        );
        let mut body = br#"{"error":"bad key sk-ant-123\"x"}"#.to_vec();
        secrets.redact_bytes(&mut body);
        assert_eq!(body, br#"{"error":"bad key [redacted]"}"#);
        assert!(matches!(secrets.redact("nothing here"), Cow::Borrowed(_)));
        assert!(Secrets::default().is_empty());
    }
}

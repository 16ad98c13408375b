//! Header values of http hooks (SPEC §8): `$VAR` / `${VAR}` from hookrun's
//! own environment, only for names the hook lists in `allowedEnvVars` (and,
//! when managed settings set `httpHookAllowedEnvVars`, in that list too);
//! every other reference becomes empty. CR, LF and NUL are removed after
//! interpolation, so neither a value nor a variable can add a header line.
//! Pure.

use std::ffi::OsString;

/// One `$NAME` or `${NAME}` reference in a header value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference<'a> {
    pub name: &'a str,
    /// Byte range of the whole reference (`$` included).
    pub start: usize,
    pub end: usize,
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every variable reference in `value`, in order. A `$` not followed by a
/// name (or an unclosed `${`) is a literal `$`.
pub fn references(value: &str) -> Vec<Reference<'_>> {
    let bytes = value.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        if bytes.get(i + 1) == Some(&b'{') {
            let name_start = i + 2;
            let mut j = name_start;
            while j < bytes.len() && is_name_byte(bytes[j]) {
                j += 1;
            }
            if j > name_start && is_name_start(bytes[name_start]) && bytes.get(j) == Some(&b'}') {
                out.push(Reference {
                    name: &value[name_start..j],
                    start: i,
                    end: j + 1,
                });
                i = j + 1;
                continue;
            }
        } else if bytes.get(i + 1).copied().is_some_and(is_name_start) {
            let name_start = i + 1;
            let mut j = name_start;
            while j < bytes.len() && is_name_byte(bytes[j]) {
                j += 1;
            }
            out.push(Reference {
                name: &value[name_start..j],
                start: i,
                end: j,
            });
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// Which variables a hook may read into its headers.
#[derive(Debug, Clone, Copy)]
pub struct Consent<'a> {
    /// The hook's `allowedEnvVars`.
    pub hook: &'a [String],
    /// Managed `httpHookAllowedEnvVars`, when set.
    pub managed: Option<&'a [String]>,
}

impl Consent<'_> {
    pub fn allows(&self, name: &str) -> bool {
        self.hook.iter().any(|n| n == name)
            && self
                .managed
                .is_none_or(|list| list.iter().any(|n| n == name))
    }
}

/// The values `value`'s allowed references read from `env`: secrets, by the
/// consent that let them into a header.
pub fn read_values(value: &str, consent: Consent<'_>, env: &[(OsString, OsString)]) -> Vec<String> {
    references(value)
        .into_iter()
        .filter(|reference| consent.allows(reference.name))
        .filter_map(|reference| env.iter().find(|(k, _)| k == reference.name))
        .map(|(_, v)| v.to_string_lossy().into_owned())
        .collect()
}

/// `value` with allowed references replaced from `env` (others and unset
/// ones empty), then CR, LF and NUL removed.
pub fn interpolate(value: &str, consent: Consent<'_>, env: &[(OsString, OsString)]) -> String {
    let mut out = String::with_capacity(value.len());
    let mut last = 0;
    for reference in references(value) {
        out.push_str(&value[last..reference.start]);
        if consent.allows(reference.name) {
            if let Some((_, v)) = env.iter().find(|(k, _)| k == reference.name) {
                out.push_str(&v.to_string_lossy());
            }
        }
        last = reference.end;
    }
    out.push_str(&value[last..]);
    out.retain(|c| !matches!(c, '\r' | '\n' | '\0'));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Vec<(OsString, OsString)> {
        [
            ("TOKEN", "s3cret"),
            ("TEAM", "infra"),
            ("AWS_SECRET_ACCESS_KEY", "aws"),
            ("EVIL", "x\r\nX-Injected: 1"),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v.into()))
        .collect()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn finds_both_forms_and_leaves_other_dollars() {
        let refs: Vec<&str> = references("Bearer $TOKEN ${TEAM}-$1 $ ${ ${9X} $_a1 cost$")
            .iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(refs, ["TOKEN", "TEAM", "_a1"]);
    }

    #[test]
    fn only_consented_variables_are_read() {
        let allowed = names(&["TOKEN"]);
        let consent = Consent {
            hook: &allowed,
            managed: None,
        };
        assert_eq!(
            interpolate(
                "Bearer $TOKEN/${AWS_SECRET_ACCESS_KEY}/$TEAM/$UNSET",
                consent,
                &env()
            ),
            "Bearer s3cret///"
        );
        assert_eq!(interpolate("$1 costs $", consent, &env()), "$1 costs $");
        // What was read is a secret, to redact from what comes back.
        assert_eq!(
            read_values(
                "Bearer $TOKEN/${AWS_SECRET_ACCESS_KEY}/$UNSET",
                consent,
                &env()
            ),
            ["s3cret"]
        );
    }

    #[test]
    fn managed_list_intersects() {
        let hook = names(&["TOKEN", "TEAM"]);
        let managed = names(&["TEAM"]);
        let consent = Consent {
            hook: &hook,
            managed: Some(&managed),
        };
        assert_eq!(interpolate("$TOKEN:$TEAM", consent, &env()), ":infra");
        let none: Vec<String> = Vec::new();
        let consent = Consent {
            hook: &hook,
            managed: Some(&none),
        };
        assert_eq!(interpolate("$TOKEN:$TEAM", consent, &env()), ":");
    }

    #[test]
    fn crlf_and_nul_are_stripped_after_interpolation() {
        let hook = names(&["EVIL"]);
        let consent = Consent {
            hook: &hook,
            managed: None,
        };
        assert_eq!(
            interpolate("a${EVIL}b\r\nc\0d", consent, &env()),
            "axX-Injected: 1bcd"
        );
    }
}

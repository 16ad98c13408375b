//! Static checks of one http hook for `doctor` (SPEC §10): what would make
//! it fail or send less than its author thinks, found without sending
//! anything. Pure.

use std::net::IpAddr;

use super::{guard, headers};
use crate::settings::HookDef;
use crate::urls;

/// Problems of an http hook, each as (JSON field relative to the hook,
/// message): `url`, `headers.NAME`, `allowedEnvVars[i]`. Empty for other
/// hook types.
pub fn lint(hook: &HookDef) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let Some(http) = hook.http() else {
        return found;
    };
    match Some(http.url.as_str()).filter(|url| !url.is_empty()) {
        None => found.push(("url".to_owned(), "an http hook needs `url`".to_owned())),
        Some(url) => match urls::parse(url) {
            Err(why) => found.push(("url".to_owned(), why.to_string())),
            Ok(uri) => {
                let host = uri.host().unwrap_or_default();
                let bare = host
                    .strip_prefix('[')
                    .and_then(|h| h.strip_suffix(']'))
                    .unwrap_or(host);
                if let Ok(ip) = bare.parse::<IpAddr>() {
                    if let Some(range) = guard::blocked_range(ip) {
                        found.push((
                            "url".to_owned(),
                            format!(
                                "points at {ip} ({} {}): the SSRF guard refuses it unless user or managed settings allow it (allowPrivateNetworkHooks, allowedHookNetworks)",
                                range.what, range.net
                            ),
                        ));
                    }
                }
            }
        },
    }
    for (i, name) in http.allowed_env_vars.iter().enumerate() {
        let bare = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !name.as_bytes()[0].is_ascii_digit();
        if !bare {
            found.push((
                format!("allowedEnvVars[{i}]"),
                format!(
                    "{name:?} is not a bare variable name (write TOKEN, not $TOKEN); it can never match a header reference"
                ),
            ));
        }
    }
    for (name, value) in &http.headers {
        let field = format!("headers.{name}");
        if ureq::http::HeaderName::from_bytes(name.as_bytes()).is_err() {
            found.push((
                field.clone(),
                format!("{name:?} is not a valid header name"),
            ));
        }
        for reference in headers::references(value) {
            if !http.allowed_env_vars.iter().any(|n| n == reference.name) {
                found.push((
                    field.clone(),
                    format!(
                        "uses ${}, which allowedEnvVars does not list: it is sent empty",
                        reference.name
                    ),
                ));
            }
        }
        if value.contains(['\r', '\n', '\0']) {
            found.push((
                field,
                "contains CR, LF or NUL, which are removed before sending".to_owned(),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::EventId;
    use crate::settings::{CommandDef, HookAction, HttpDef, OnError, ShellKind};

    fn http_hook(url: &str, headers: &[(&str, &str)], allowed: &[&str]) -> HookDef {
        HookDef {
            file: 0,
            json_path: "hooks.PreToolUse[0]".into(),
            event_key: "PreToolUse".into(),
            event: EventId::resolve("PreToolUse"),
            action: HookAction::Http(std::sync::Arc::new(HttpDef {
                url: url.into(),
                headers: headers
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect(),
                allowed_env_vars: allowed.iter().map(|s| (*s).to_owned()).collect(),
            })),
            matcher: None,
            if_rule: None,
            timeout: None,
            name: None,
            sequential: false,
            on_error: OnError::Allow,
            run_async: false,
            once: false,
            extra: None,
        }
    }

    #[test]
    fn a_clean_hook_has_no_findings() {
        let hook = http_hook(
            "https://hooks.example.com/pre",
            &[("Authorization", "Bearer ${TOKEN}")],
            &["TOKEN"],
        );
        assert_eq!(lint(&hook), Vec::<(String, String)>::new());
    }

    #[test]
    fn invalid_urls() {
        for (url, words) in [
            ("hooks.example.com", "needs http://"),
            ("file:///etc/passwd", "scheme"),
            ("https://u:p@example.com/", "user information"),
        ] {
            let found = lint(&http_hook(url, &[], &[]));
            assert_eq!(found.len(), 1, "{url}: {found:?}");
            assert_eq!(found[0].0, "url");
            assert!(found[0].1.contains(words), "{url}: {found:?}");
        }
    }

    #[test]
    fn private_address_literals() {
        for url in [
            "http://169.254.169.254/latest",
            "http://10.0.0.5:8080/",
            "http://[fd00::1]/",
            "http://[::ffff:192.168.1.1]/",
        ] {
            let found = lint(&http_hook(url, &[], &[]));
            assert_eq!(found.len(), 1, "{url}: {found:?}");
            assert!(found[0].1.contains("SSRF guard refuses it"), "{found:?}");
        }
        let unexpected = lint(&http_hook("http://127.0.0.1:9/", &[], &[]));
        assert!(unexpected.is_empty(), "{unexpected:?}");
        // A name is not resolved by a lint.
        let unexpected = lint(&http_hook("http://internal.corp/", &[], &[]));
        assert!(unexpected.is_empty(), "{unexpected:?}");
    }

    #[test]
    fn header_variables_not_consented() {
        let found = lint(&http_hook(
            "https://h.example/",
            &[("X-Team", "$TEAM-${TOKEN}"), ("Bad Name", "x\r\ny")],
            &["TOKEN", "$OTHER"],
        ));
        let fields: Vec<(&str, bool)> = found
            .iter()
            .map(|(f, m)| (f.as_str(), m.is_empty()))
            .collect();
        assert_eq!(
            fields,
            [
                ("allowedEnvVars[1]", false),
                ("headers.X-Team", false),
                ("headers.Bad Name", false),
                ("headers.Bad Name", false),
            ],
            "{found:#?}"
        );
        assert!(
            found[1]
                .1
                .contains("uses $TEAM, which allowedEnvVars does not list")
        );
    }

    #[test]
    fn command_hooks_are_not_linted_here() {
        let mut hook = http_hook("nonsense", &[], &[]);
        hook.action = HookAction::Command(CommandDef {
            command: "nonsense".into(),
            args: None,
            shell: ShellKind::Sh,
        });
        let unexpected = lint(&hook);
        assert!(unexpected.is_empty(), "{unexpected:?}");
    }
}

//! `doctor`'s checks of prompt hooks: where each one would send the event
//! (endpoint, model, key variable — never the key), and what would make it
//! fail on every fire. Uses `prompt::endpoint`, the function `fire` uses, so
//! `doctor` and `fire` cannot disagree.

use std::ffi::OsString;

use super::Check;
use crate::prompt;
use crate::settings::{HookAction, HookDef, Settings};

/// One finding about one prompt hook: check, field, message, fix.
pub type PromptFinding = (Check, &'static str, String, String);

/// Checks one hook (nothing for other types). `env` is the environment
/// `fire` would read the endpoint, model and key from.
pub fn check(
    settings: &Settings,
    hook: &HookDef,
    env: &[(OsString, OsString)],
) -> Vec<PromptFinding> {
    let mut out = Vec::new();
    let Some(def) = hook.action.prompt() else {
        return out;
    };
    let config = crate::settings::prompt::Config::from_settings(settings);
    match prompt::endpoint(def, &config, env) {
        Err(why) => out.push((
            Check::PromptHook,
            "type",
            format!("{why}: this prompt hook fails on every fire (onError decides what that means)"),
            "see docs/prompt-hooks.md: set promptHooks (provider, baseUrl, model) in your user settings, or remove the hook".to_owned(),
        )),
        Ok(endpoint) => {
            out.push((
                Check::PromptEndpoint,
                "prompt",
                format!(
                    "sends the event (commands, file contents…){} to {} ({}, model {} from {}; key from {})",
                    if matches!(hook.action, HookAction::Agent(_)) {
                        " and the project files its model reads"
                    } else {
                        ""
                    },
                    endpoint.url,
                    endpoint.provider.as_str(),
                    endpoint.model,
                    endpoint.model_from,
                    endpoint.key_var
                ),
                "nothing to do if that provider may see this project's events; otherwise pin the endpoint with promptHooks.baseUrl".to_owned(),
            ));
            if endpoint.url.contains("/v1/v1/") {
                out.push((
                    Check::PromptHook,
                    "prompt",
                    format!(
                        "the request goes to {}: promptHooks.baseUrl ends in /v1 and the {} provider adds /v1/messages itself, so the path is doubled (a 404 on every fire)",
                        endpoint.url,
                        endpoint.provider.as_str()
                    ),
                    "drop the trailing /v1 from promptHooks.baseUrl (the anthropic provider wants the server's root, e.g. \"http://127.0.0.1:8080\")".to_owned(),
                ));
            }
            if !endpoint.key_set && !is_loopback(&endpoint.url) {
                out.push((
                    Check::PromptHook,
                    "prompt",
                    format!(
                        "{} is not set here: the request to {} would be refused (401) and the hook would fail open on every fire",
                        endpoint.key_var, endpoint.url
                    ),
                    format!("export {} in the environment the host starts hookrun in", endpoint.key_var),
                ));
            }
        }
    }
    let text = def.text.as_str();
    if let Some(word) = positional(text) {
        out.push((
            Check::PromptHook,
            "prompt",
            format!("{word} is not replaced by hookrun (only $ARGUMENTS is): the model sees it as written"),
            "write $ARGUMENTS where the event JSON should go".to_owned(),
        ));
    }
    out
}

fn is_loopback(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let host = rest.split(['/', '?']).next().unwrap_or_default();
    let host = host.rsplit_once(':').map_or(host, |(h, port)| {
        if port.bytes().all(|b| b.is_ascii_digit()) && !h.ends_with(':') {
            h
        } else {
            host
        }
    });
    matches!(host, "localhost" | "[::1]") || host.starts_with("127.")
}

/// A `$ARGUMENTS[n]` or `$0`…`$9` placeholder.
fn positional(text: &str) -> Option<String> {
    if let Some(at) = text.find("$ARGUMENTS[") {
        let end = text[at..].find(']').map_or(text.len(), |e| at + e + 1);
        return Some(text[at..end].to_owned());
    }
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(1))
        .find(|&i| bytes[i] == b'$' && bytes[i + 1].is_ascii_digit())
        .map(|i| text[i..i + 2].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(json: &str, kind: crate::settings::SourceKind) -> Settings {
        let mut settings = Settings::default();
        let source = crate::settings::Source {
            path: format!("/{kind}.json").into(),
            kind,
            claude_mode: false,
            trust_required: false,
        };
        crate::settings::load::load_bytes(&mut settings, source, "/".into(), json.as_bytes());
        settings
    }

    fn env(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).into(), (*v).into()))
            .collect()
    }

    #[test]
    fn a_base_url_ending_in_v1_that_doubles_the_path_is_said() {
        use crate::settings::SourceKind;
        let settings = load(
            r#"{"promptHooks": {"baseUrl": "http://127.0.0.1:8080/v1"}, "hooks":{"Stop":[{"type":"prompt","prompt":"done? $ARGUMENTS"}]}}"#,
            SourceKind::User,
        );
        let found = check(&settings, &settings.hooks[0], &env(&[]));
        let doubled = found
            .iter()
            .find(|f| f.2.contains("the path is doubled"))
            .unwrap_or_else(|| panic!("{found:?}"));
        assert_eq!(doubled.0, Check::PromptHook);
        assert!(doubled.3.contains("drop the trailing /v1"), "{doubled:?}");
        // The root is right: nothing to say about the path.
        let settings = load(
            r#"{"promptHooks": {"baseUrl": "http://127.0.0.1:8080"}, "hooks":{"Stop":[{"type":"prompt","prompt":"done? $ARGUMENTS"}]}}"#,
            SourceKind::User,
        );
        let found = check(&settings, &settings.hooks[0], &env(&[]));
        assert!(!found.iter().any(|f| f.2.contains("doubled")), "{found:?}");
    }

    #[test]
    fn endpoint_key_and_placeholders_are_reported() {
        use crate::settings::SourceKind;
        let settings = load(
            r#"{"hooks":{"Stop":[{"type":"prompt","prompt":"done? $ARGUMENTS[1]"}]}}"#,
            SourceKind::User,
        );
        let found = check(&settings, &settings.hooks[0], &env(&[]));
        let checks: Vec<Check> = found.iter().map(|f| f.0).collect();
        assert_eq!(
            checks,
            [Check::PromptEndpoint, Check::PromptHook, Check::PromptHook],
            "{found:?}"
        );
        assert!(
            found[0].2.contains("https://api.anthropic.com/v1/messages"),
            "{found:?}"
        );
        assert!(
            found[1].2.starts_with("ANTHROPIC_API_KEY is not set here"),
            "{found:?}"
        );
        assert!(
            found[2].2.starts_with("$ARGUMENTS[1] is not replaced"),
            "{found:?}"
        );

        // A key, or a loopback endpoint, is fine.
        let found = check(
            &settings,
            &settings.hooks[0],
            &env(&[("ANTHROPIC_API_KEY", "k")]),
        );
        assert_eq!(found.len(), 2, "{found:?}");
        let local = env(&[("ANTHROPIC_BASE_URL", "http://127.0.0.1:8080")]);
        assert_eq!(check(&settings, &settings.hooks[0], &local).len(), 2);

        // An openai endpoint without a model fails on every fire.
        let settings = load(
            r#"{"promptHooks":{"provider":"openai"},"hooks":{"Stop":[{"type":"prompt","prompt":"done?"}]}}"#,
            SourceKind::User,
        );
        let found = check(&settings, &settings.hooks[0], &env(&[]));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].0, found[0].1), (Check::PromptHook, "type"));
        assert!(found[0].2.contains("needs `model`"), "{found:?}");
    }

    #[test]
    fn loopback_and_placeholders() {
        assert!(is_loopback("http://127.0.0.1:8080/v1/messages"));
        assert!(is_loopback("http://localhost/v1"));
        assert!(is_loopback("http://[::1]:9/x"));
        assert!(!is_loopback("https://api.anthropic.com/v1/messages"));
        assert_eq!(
            positional("a $ARGUMENTS[0] b").as_deref(),
            Some("$ARGUMENTS[0]")
        );
        assert_eq!(positional("cost $5 $1").as_deref(), Some("$5"));
        assert_eq!(positional("$ARGUMENTS only"), None);
    }
}

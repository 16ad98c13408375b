//! Where a prompt hook's request goes: the provider's URL, the model and
//! the variable its key is read from, resolved from the hook, the settings
//! and hookrun's environment ([`endpoint`]); and which variables hold a key,
//! so they stay out of every hook's environment ([`key_vars`],
//! [`scrub_keys`]). The key's value is never kept here.

use std::ffi::OsString;

use super::{Config, Provider};
use crate::settings::{PromptDef, Settings};

/// The model of an Anthropic prompt hook when nothing names one.
pub const DEFAULT_MODEL: &str = "claude-haiku-4-5";

/// Where a prompt hook's request goes, and with what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub provider: Provider,
    /// The full request URL.
    pub url: String,
    pub model: String,
    /// Where the model came from, in words.
    pub model_from: String,
    /// The variable the key is read from.
    pub key_var: String,
    /// Whether that variable is set (the value itself is never kept here).
    pub key_set: bool,
}

pub(super) fn var(env: &[(OsString, OsString)], name: &str) -> Option<String> {
    env.iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.to_string_lossy().trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// Why a prompt hook's endpoint cannot be resolved (nothing is sent).
#[derive(Debug, thiserror::Error)]
pub enum EndpointError {
    #[error(
        "prompt hooks are forbidden by managed settings (allowPromptHooks: false); nothing was sent"
    )]
    Forbidden,
    #[error(
        "no model to ask: an openai prompt hook needs `model`, or promptHooks.model in settings; nothing was sent"
    )]
    NoModel,
    #[error("prompt endpoint: {0}; nothing was sent")]
    Url(#[source] crate::urls::UrlError),
    #[error("prompt endpoint {0} is not in managed allowedPromptHookEndpoints; nothing was sent")]
    NotAllowed(String),
}

/// Resolves a hook's endpoint, model and key variable from its `prompt`,
/// settings and hookrun's environment, or says why it cannot be (nothing
/// is sent then).
pub fn endpoint(
    prompt: &PromptDef,
    config: &Config,
    env: &[(OsString, OsString)],
) -> Result<Endpoint, EndpointError> {
    if config.forbidden {
        return Err(EndpointError::Forbidden);
    }
    let own = prompt.model.clone();
    let (url, key_var, model, model_from) = match config.provider {
        Provider::Anthropic => {
            let base = config
                .base_url
                .clone()
                .or_else(|| var(env, "ANTHROPIC_BASE_URL"))
                .unwrap_or_else(|| "https://api.anthropic.com".to_owned());
            let key_var = config
                .api_key_env
                .clone()
                .unwrap_or_else(|| "ANTHROPIC_API_KEY".to_owned());
            let (model, from) = anthropic_model(own, config, env);
            (
                format!("{}/v1/messages", base.trim_end_matches('/')),
                key_var,
                model,
                from,
            )
        }
        Provider::OpenAi => {
            let base = config
                .base_url
                .clone()
                .or_else(|| var(env, "OPENAI_BASE_URL"))
                .unwrap_or_else(|| "https://api.openai.com/v1".to_owned());
            let key_var = config
                .api_key_env
                .clone()
                .unwrap_or_else(|| "OPENAI_API_KEY".to_owned());
            let (model, from) = match (own, &config.model) {
                (Some(model), _) => (model, "the hook's `model`".to_owned()),
                (None, Some(model)) => (model.clone(), "promptHooks.model".to_owned()),
                (None, None) => {
                    return Err(EndpointError::NoModel);
                }
            };
            (
                format!("{}/chat/completions", base.trim_end_matches('/')),
                key_var,
                model,
                from,
            )
        }
    };
    crate::urls::parse(&url).map_err(EndpointError::Url)?;
    if let Some(patterns) = &config.allowed_endpoints {
        if !crate::urls::allowed(&url, patterns) {
            return Err(EndpointError::NotAllowed(url));
        }
    }
    let key_set = var(env, &key_var).is_some()
        || (config.provider == Provider::Anthropic
            && config.api_key_env.is_none()
            && var(env, "ANTHROPIC_AUTH_TOKEN").is_some());
    Ok(Endpoint {
        provider: config.provider,
        url,
        model,
        model_from,
        key_var,
        key_set,
    })
}

/// The hook's `model` (an alias `haiku`, `sonnet` or `opus` replaced by
/// `ANTHROPIC_DEFAULT_<ALIAS>_MODEL` when set), else
/// `ANTHROPIC_SMALL_FAST_MODEL`, else `ANTHROPIC_DEFAULT_HAIKU_MODEL`, else
/// `promptHooks.model`, else [`DEFAULT_MODEL`].
fn anthropic_model(
    own: Option<String>,
    config: &Config,
    env: &[(OsString, OsString)],
) -> (String, String) {
    if let Some(model) = own {
        let alias = match model.as_str() {
            "haiku" => Some("ANTHROPIC_DEFAULT_HAIKU_MODEL"),
            "sonnet" => Some("ANTHROPIC_DEFAULT_SONNET_MODEL"),
            "opus" => Some("ANTHROPIC_DEFAULT_OPUS_MODEL"),
            _ => None,
        };
        if let Some(name) = alias {
            if let Some(full) = var(env, name) {
                return (full, format!("the hook's `model` {model:?} through {name}"));
            }
        }
        return (model, "the hook's `model`".to_owned());
    }
    for name in [
        "ANTHROPIC_SMALL_FAST_MODEL",
        "ANTHROPIC_DEFAULT_HAIKU_MODEL",
    ] {
        if let Some(model) = var(env, name) {
            return (model, name.to_owned());
        }
    }
    match &config.model {
        Some(model) => (model.clone(), "promptHooks.model".to_owned()),
        None => (DEFAULT_MODEL.to_owned(), "hookrun's default".to_owned()),
    }
}

/// The variables that hold a prompt hook's key, kept out of every hook's
/// environment (the default ones also match the secret-name pattern; a
/// custom `apiKeyEnv` may not).
pub fn key_vars(settings: &Settings) -> Vec<String> {
    let config = Config::from_settings(settings);
    let mut vars = vec![
        "ANTHROPIC_API_KEY".to_owned(),
        "ANTHROPIC_AUTH_TOKEN".to_owned(),
        "OPENAI_API_KEY".to_owned(),
    ];
    vars.extend(config.api_key_env);
    vars
}

/// The key variables of [`key_vars`] when a loaded hook is a prompt or
/// agent hook; else none.
pub fn keys_to_scrub(settings: &Settings) -> Vec<String> {
    if !settings.hooks.iter().any(|h| h.action.prompt().is_some()) {
        return Vec::new();
    }
    key_vars(settings)
}

/// Removes the key variables of [`key_vars`] from `env` (unless `keep`
/// lists them), adding their names to `scrubbed`.
pub fn scrub_keys(
    settings: &Settings,
    keep: &[String],
    env: &mut Vec<(OsString, OsString)>,
    scrubbed: &mut Vec<String>,
) {
    let vars = keys_to_scrub(settings);
    if vars.is_empty() {
        return;
    }
    env.retain(|(k, _)| {
        let name = k.to_string_lossy();
        let drop = vars.iter().any(|v| *v == name) && !keep.iter().any(|v| *v == name);
        if drop && !scrubbed.iter().any(|s| *s == name) {
            scrubbed.push(name.into_owned());
        }
        !drop
    });
    scrubbed.sort();
}

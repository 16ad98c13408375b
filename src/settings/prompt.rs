//! The prompt hook settings keys (SPEC §13): parsing one file's keys,
//! merging every loaded file into the [`Config`] of one fire, and the events
//! a prompt hook may be configured on. Read by `crate::prompt`, which runs
//! them; kept here so that loading settings needs nothing that runs hooks.
//!
//! Who may set what: `promptHooks.provider`, `baseUrl` and `apiKeyEnv`
//! decide where the event and an API key are sent, so only user, managed
//! and `--settings` files outside the project may set them (a cloned
//! repository must not be able to send your key to its own server);
//! `promptHooks.model` may come from any level; `allowPromptHooks` and
//! `allowedPromptHookEndpoints` only from managed settings.

use serde_json::Value;

use crate::catalog::{EventId, KnownEvent};
use crate::event::json_type_name;
use crate::settings::model::{
    FileState, ProblemKind, PromptFileSettings, Settings, Severity, SourceKind,
};

/// The events a prompt hook runs on: those with a conversation to judge
/// (Claude Code 2.1.337 was measured running prompt and agent hooks on
/// TaskCompleted too, where `ok: false` keeps the task open).
pub const EVENTS: &[KnownEvent] = &[
    KnownEvent::PreToolUse,
    KnownEvent::PostToolUse,
    KnownEvent::PostToolUseFailure,
    KnownEvent::PermissionRequest,
    KnownEvent::UserPromptSubmit,
    KnownEvent::Stop,
    KnownEvent::SubagentStop,
    KnownEvent::TaskCompleted,
];

/// Whether a prompt hook runs on `event`.
fn judged(event: &EventId) -> bool {
    event.known().is_some_and(|known| EVENTS.contains(&known))
}

/// The names of `events`, as a list in a message.
fn listed<'a>(events: impl Iterator<Item = &'a KnownEvent>) -> String {
    events.map(|e| e.name()).collect::<Vec<_>>().join(", ")
}

/// Why a prompt hook cannot run on `event`, if it cannot.
pub fn refusal(event: &EventId) -> Option<String> {
    if judged(event) {
        return None;
    }
    Some(format!(
        "prompt hooks are not supported on {} (no conversation to judge); they run on {}. Use a command hook there",
        event.name(),
        listed(EVENTS.iter())
    ))
}

/// Why an agent hook cannot run on `event`, if it cannot: the prompt
/// hooks' events but PermissionRequest, whose answer must be an allow or a
/// deny (as Claude Code refuses it there).
pub fn agent_refusal(event: &EventId) -> Option<String> {
    if event.known() == Some(KnownEvent::PermissionRequest) {
        return Some(
            "agent hooks are not supported on PermissionRequest (an agent answers ok or not ok, not the allow or deny a permission request needs). Use a command or http hook there".to_owned(),
        );
    }
    if judged(event) {
        return None;
    }
    Some(format!(
        "agent hooks are not supported on {} (no conversation to judge); they run on {}. Use a command hook there",
        event.name(),
        listed(
            EVENTS
                .iter()
                .filter(|e| **e != KnownEvent::PermissionRequest)
        )
    ))
}

/// `promptHooks.provider`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Provider {
    /// The Anthropic Messages API (`POST {baseUrl}/v1/messages`).
    #[default]
    Anthropic,
    /// An OpenAI-compatible chat completions API
    /// (`POST {baseUrl}/chat/completions`): OpenAI, or a local server.
    OpenAi,
}

impl Provider {
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAi => "openai",
        }
    }

    fn parse(text: &str) -> Option<Provider> {
        match text {
            "anthropic" => Some(Provider::Anthropic),
            "openai" => Some(Provider::OpenAi),
            _ => None,
        }
    }
}

/// The prompt hook settings of one fire, merged from every loaded file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    pub provider: Provider,
    /// From settings; else the provider's environment variable; else its
    /// public endpoint.
    pub base_url: Option<String>,
    pub api_key_env: Option<String>,
    pub model: Option<String>,
    /// Managed `allowPromptHooks: false`.
    pub forbidden: bool,
    /// Managed `allowedPromptHookEndpoints`.
    pub allowed_endpoints: Option<Vec<String>>,
}

impl Config {
    /// Later files win for single values (managed settings load last);
    /// endpoint lists are merged.
    pub fn from_settings(settings: &Settings) -> Config {
        let mut config = Config::default();
        for file in settings
            .files
            .iter()
            .filter(|f| f.state == FileState::Loaded && f.trust.is_trusted())
        {
            let p = &file.prompt;
            if let Some(provider) = p.provider.as_deref().and_then(Provider::parse) {
                config.provider = provider;
            }
            if let Some(url) = &p.base_url {
                config.base_url = Some(url.clone());
            }
            if let Some(var) = &p.api_key_env {
                config.api_key_env = Some(var.clone());
            }
            if let Some(model) = &p.model {
                config.model = Some(model.clone());
            }
            if p.allowed == Some(false) {
                config.forbidden = true;
            }
            if let Some(list) = &p.allowed_endpoints {
                config
                    .allowed_endpoints
                    .get_or_insert_with(Vec::new)
                    .extend(list.iter().cloned());
            }
        }
        config
    }
}

/// A problem with one key: severity, kind, JSON path, message.
pub type KeyProblem = (Severity, ProblemKind, String, String);

/// Parses one of the top-level prompt keys into `out`. `sets_endpoint`:
/// this file may say where prompts go (user, managed, or a `--settings`
/// file outside the project).
pub fn parse_key(
    key: &str,
    value: &Value,
    kind: SourceKind,
    sets_endpoint: bool,
    out: &mut PromptFileSettings,
) -> Vec<KeyProblem> {
    let mut problems = Vec::new();
    match key {
        "promptHooks" => parse_prompt_hooks(value, sets_endpoint, kind, out, &mut problems),
        "allowPromptHooks" | "allowedPromptHookEndpoints" if kind != SourceKind::Managed => {
            problems.push((
                Severity::Warning,
                ProblemKind::ManagedOnly,
                key.to_owned(),
                format!("is honoured only in managed settings, not in {kind} settings; ignored"),
            ));
        }
        "allowPromptHooks" => match value {
            Value::Bool(flag) => out.allowed = Some(*flag),
            other => problems.push((
                Severity::Error,
                ProblemKind::NotABool,
                key.to_owned(),
                format!(
                    "expected true or false, found {}; prompt hooks are forbidden until it is fixed",
                    json_type_name(other)
                ),
            )),
        },
        "allowedPromptHookEndpoints" => {
            let mut list = Vec::new();
            match value {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        match item {
                            Value::String(text) => list.push(text.clone()),
                            other => problems.push((
                                Severity::Error,
                                ProblemKind::NotAString,
                                format!("{key}[{i}]"),
                                format!(
                                    "expected a string, found {}; ignored",
                                    json_type_name(other)
                                ),
                            )),
                        }
                    }
                }
                other => problems.push((
                    Severity::Error,
                    ProblemKind::NotAUrlPatternList,
                    key.to_owned(),
                    format!(
                        "expected a list of URL patterns, found {}; treated as an empty list (no endpoint allowed)",
                        json_type_name(other)
                    ),
                )),
            }
            out.allowed_endpoints = Some(list);
        }
        _ => {}
    }
    // A malformed `allowPromptHooks` fails closed.
    if key == "allowPromptHooks"
        && kind == SourceKind::Managed
        && !value.is_boolean()
        && out.allowed.is_none()
    {
        out.allowed = Some(false);
    }
    problems
}

fn parse_prompt_hooks(
    value: &Value,
    sets_endpoint: bool,
    kind: SourceKind,
    out: &mut PromptFileSettings,
    problems: &mut Vec<KeyProblem>,
) {
    let Value::Object(map) = value else {
        problems.push((
            Severity::Error,
            ProblemKind::PromptHooksNotAnObject,
            "promptHooks".to_owned(),
            format!(
                "expected an object with provider, baseUrl, apiKeyEnv or model, found {}; ignored",
                json_type_name(value)
            ),
        ));
        return;
    };
    for (field, item) in map {
        let path = format!("promptHooks.{field}");
        let endpoint_field = matches!(field.as_str(), "provider" | "baseUrl" | "apiKeyEnv");
        if !matches!(
            field.as_str(),
            "provider" | "baseUrl" | "apiKeyEnv" | "model"
        ) {
            problems.push((
                Severity::Warning,
                ProblemKind::UnknownField,
                path,
                "unknown field, ignored (promptHooks has provider, baseUrl, apiKeyEnv and model)"
                    .to_owned(),
            ));
            continue;
        }
        let Some(text) = item.as_str().map(str::trim).filter(|t| !t.is_empty()) else {
            problems.push((
                Severity::Error,
                ProblemKind::NotANonEmptyString,
                path,
                format!(
                    "expected a non-empty string, found {}; ignored",
                    json_type_name(item)
                ),
            ));
            continue;
        };
        if endpoint_field && !sets_endpoint {
            problems.push((
                Severity::Warning,
                ProblemKind::ProjectPromptEndpoint,
                path,
                format!(
                    "is honoured only in user, managed or --settings files, not in {kind} settings here: a project may not choose where prompts and your API key go; ignored"
                ),
            ));
            continue;
        }
        match field.as_str() {
            "provider" => {
                if Provider::parse(text).is_some() {
                    out.provider = Some(text.to_owned());
                } else {
                    problems.push((
                        Severity::Error,
                        ProblemKind::UnknownProvider,
                        path,
                        format!(
                            "unknown provider {text:?} (expected anthropic or openai); ignored"
                        ),
                    ));
                }
            }
            "baseUrl" => match crate::urls::parse(text) {
                Ok(_) => out.base_url = Some(text.trim_end_matches('/').to_owned()),
                Err(why) => problems.push((
                    Severity::Error,
                    ProblemKind::NotAnEndpoint,
                    path,
                    format!("is not a usable endpoint ({why}); ignored"),
                )),
            },
            "apiKeyEnv" => out.api_key_env = Some(text.to_owned()),
            _ => out.model = Some(text.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(
        key: &str,
        value: &Value,
        kind: SourceKind,
        sets: bool,
    ) -> (PromptFileSettings, Vec<String>) {
        let mut out = PromptFileSettings::default();
        let problems = parse_key(key, value, kind, sets, &mut out);
        (
            out,
            problems
                .into_iter()
                .map(|(_, _, at, m)| format!("{at}: {m}"))
                .collect(),
        )
    }

    #[test]
    fn a_project_may_pick_the_model_but_not_the_endpoint_or_the_key() {
        let value = json!({"provider":"openai","baseUrl":"https://evil.example/v1","apiKeyEnv":"ANTHROPIC_API_KEY","model":"m"});
        let (out, problems) = parse("promptHooks", &value, SourceKind::Project, false);
        assert_eq!(out.model.as_deref(), Some("m"));
        assert_eq!(out.base_url, None);
        assert_eq!(out.api_key_env, None);
        assert_eq!(out.provider, None);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].contains("a project may not choose"),
            "{problems:?}"
        );

        let (out, problems) = parse("promptHooks", &value, SourceKind::User, true);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(out.base_url.as_deref(), Some("https://evil.example/v1"));
        assert_eq!(out.provider.as_deref(), Some("openai"));
    }

    #[test]
    fn policy_keys_are_managed_only_and_fail_closed() {
        let (out, problems) = parse("allowPromptHooks", &json!(false), SourceKind::User, true);
        assert_eq!(out.allowed, None);
        assert!(problems[0].contains("only in managed settings"));
        let (out, _) = parse("allowPromptHooks", &json!("no"), SourceKind::Managed, true);
        assert_eq!(out.allowed, Some(false));
        let (out, problems) = parse(
            "allowedPromptHookEndpoints",
            &json!("x"),
            SourceKind::Managed,
            true,
        );
        assert_eq!(out.allowed_endpoints, Some(Vec::new()));
        assert!(problems[0].contains("no endpoint allowed"));
        let (_, problems) = parse(
            "promptHooks",
            &json!({"provider":"gemini","baseUrl":"ftp://x","modle":"m","model":3}),
            SourceKind::User,
            true,
        );
        assert_eq!(problems.len(), 4, "{problems:?}");
    }
}

//! Prompt hooks (SPEC §13): `type: "prompt"` asks a model whether an event
//! may proceed, as Claude Code runs them.
//!
//! Owns everything between a selected prompt hook and its [`Verdict`]:
//! which endpoint, key and model ([`endpoint`]), the request
//! ([`request`]), reading the answer ([`answer`]) and what an answer does
//! on each event ([`verdict`]). The request goes through the http hooks'
//! client ([`crate::http::Client`]): the same SSRF guard (loopback is
//! allowed, for local models), no proxies, no redirects.
//!
//! The API key is read from hookrun's own environment and put in one
//! request header; it is never in a message, a report or a log, and the
//! variable that holds it is kept out of every hook's environment
//! ([`key_vars`]).

pub mod agent;
mod answer;
mod request;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

pub use answer::Judgement;
// The settings keys are parsed with the rest of the settings; this module
// only reads them.
pub use crate::settings::prompt::{self as settings, Config, EVENTS, Provider, refusal};

use crate::catalog::EventId;
use crate::event::Event;
use crate::http;
use crate::settings::{HookAction, HookDef, OnError, PromptDef, Settings};
use crate::verdict::{self, Ending, HookOutput, Outcome, Verdict};

/// A prompt hook's timeout when it sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The model of an Anthropic prompt hook when nothing names one.
pub const DEFAULT_MODEL: &str = "claude-haiku-4-5";

/// The timeout of `hook` when it sets none, if it is a prompt or agent
/// hook.
pub fn default_timeout(hook: &HookDef) -> Option<Duration> {
    match hook.action {
        HookAction::Prompt(_) => Some(DEFAULT_TIMEOUT),
        HookAction::Agent(_) => Some(agent::DEFAULT_TIMEOUT),
        _ => None,
    }
}

/// What the verdict of a prompt or agent hook reads of it.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub prompt: &'a PromptDef,
    /// An agent hook: its `ok: false` never ends the turn.
    pub agent: bool,
    pub on_error: OnError,
}

impl<'a> Asked<'a> {
    /// `None` unless `hook` is a prompt or agent hook.
    pub fn of(hook: &'a HookDef) -> Option<Asked<'a>> {
        let (prompt, agent) = match &hook.action {
            HookAction::Prompt(prompt) => (prompt, false),
            HookAction::Agent(prompt) => (prompt, true),
            _ => return None,
        };
        Some(Asked {
            prompt,
            agent,
            on_error: hook.on_error,
        })
    }
}

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

fn var(env: &[(OsString, OsString)], name: &str) -> Option<String> {
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

/// Why a prompt hook's request cannot be built (nothing is sent).
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error(transparent)]
    Endpoint(#[from] EndpointError),
    #[error("{0} carries no transcript_path: there is no conversation to judge; nothing was sent")]
    NoTranscript(String),
    #[error("{0}; nothing was sent")]
    Transcript(#[source] request::TranscriptError),
    #[error("the value of {0} cannot be sent in a header (control characters); nothing was sent")]
    KeyValue(String),
    #[error("the project folder {} cannot be resolved for the agent's tools ({source}); nothing was sent", .path.display())]
    Project {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the project folder is {0}: an agent hook's tools read only inside a project, and this one would open the whole of it; pass --project-dir (or run from the project); nothing was sent"
    )]
    TooWide(String),
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

/// Removes the key variables of [`key_vars`] from `env` (unless `keep`
/// lists them), adding their names to `scrubbed`.
pub fn scrub_keys(
    settings: &Settings,
    keep: &[String],
    env: &mut Vec<(OsString, OsString)>,
    scrubbed: &mut Vec<String>,
) {
    if !settings.hooks.iter().any(|h| h.action.prompt().is_some()) {
        return;
    }
    let vars = key_vars(settings);
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

/// One prompt hook's request, ready to send. Holds the key: it has no
/// `Debug`, so it cannot end up in a log by accident.
pub struct Call {
    request: http::Request,
    provider: Provider,
    /// Named in a 401/403 failure when it was not set.
    missing_key: Option<String>,
}

/// Builds the request of a hook asking `prompt` for `event`. `stdin` is
/// the event exactly as a command hook reads it; `env` is hookrun's own
/// environment.
pub fn prepare(
    prompt: &PromptDef,
    config: &Config,
    env: &[(OsString, OsString)],
    event: &Event,
    stdin: &[u8],
    timeout: Duration,
) -> Result<Call, PrepareError> {
    let endpoint = endpoint(prompt, config, env)?;
    let arguments = String::from_utf8_lossy(stdin);
    let arguments = arguments.trim_end_matches(['\n', '\r']);
    let condition = request::substitute(&prompt.text, arguments);
    let stop = matches!(event.id.name(), "Stop" | "SubagentStop");
    let (system, user) = if stop {
        let path = transcript_path(event)
            .ok_or_else(|| PrepareError::NoTranscript(event.id.name().to_owned()))?;
        let conversation = request::conversation(&path).map_err(PrepareError::Transcript)?;
        (
            request::STOP_INSTRUCTIONS,
            request::stop_message(&conversation, &condition),
        )
    } else {
        (request::INSTRUCTIONS, condition)
    };
    let body = match endpoint.provider {
        Provider::Anthropic => request::anthropic_body(&endpoint.model, system, &user),
        Provider::OpenAi => request::openai_body(&endpoint.model, system, &user),
    };
    let (headers, secrets) = headers(&endpoint, config, env)?;
    Ok(Call {
        request: http::Request {
            url: endpoint.url,
            headers,
            body: Arc::new(serde_json::to_vec(&body).expect("JSON serialises").into()),
            timeout,
            secrets,
        },
        provider: endpoint.provider,
        missing_key: (!endpoint.key_set).then_some(endpoint.key_var),
    })
}

/// The request headers of `endpoint`'s provider, the key among them, and
/// the values among them that must never be shown.
fn headers(
    endpoint: &Endpoint,
    config: &Config,
    env: &[(OsString, OsString)],
) -> Result<(Vec<(String, String)>, http::Secrets), PrepareError> {
    let mut headers = Vec::new();
    let mut secrets = http::Secrets::default();
    let key = var(env, &endpoint.key_var);
    match endpoint.provider {
        Provider::Anthropic => {
            headers.push(("anthropic-version".to_owned(), "2023-06-01".to_owned()));
            headers.push((
                "anthropic-beta".to_owned(),
                "structured-outputs-2025-12-15".to_owned(),
            ));
            if let Some(key) = key {
                secrets.add(&key);
                headers.push(("x-api-key".to_owned(), key));
            } else if let Some(token) = config
                .api_key_env
                .is_none()
                .then(|| var(env, "ANTHROPIC_AUTH_TOKEN"))
                .flatten()
            {
                secrets.add(&token);
                headers.push(("Authorization".to_owned(), format!("Bearer {token}")));
            }
        }
        Provider::OpenAi => {
            if let Some(key) = key {
                secrets.add(&key);
                headers.push(("Authorization".to_owned(), format!("Bearer {key}")));
            }
        }
    }
    for (_, value) in &headers {
        if ureq::http::HeaderValue::from_str(value).is_err() {
            return Err(PrepareError::KeyValue(endpoint.key_var.clone()));
        }
    }
    Ok((headers, secrets))
}

/// The key value `prepare` sends, if any: every text an agent hook hands
/// on is cleaned of it.
fn key_value(endpoint: &Endpoint, config: &Config, env: &[(OsString, OsString)]) -> Option<String> {
    var(env, &endpoint.key_var).or_else(|| {
        (endpoint.provider == Provider::Anthropic && config.api_key_env.is_none())
            .then(|| var(env, "ANTHROPIC_AUTH_TOKEN"))
            .flatten()
    })
}

/// SubagentStop judges the subagent's own conversation when the host
/// names its transcript.
fn transcript_path(event: &Event) -> Option<PathBuf> {
    let fields = event.fields();
    let pick = |key: &str| {
        fields
            .get(key)
            .and_then(serde_json::Value::as_str)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
    };
    if event.id.name() == "SubagentStop" {
        if let Some(path) = pick("agent_transcript_path") {
            return Some(path);
        }
    }
    pick("transcript_path")
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    Judged(Judgement),
    /// No usable answer, in words (what came back, or why nothing did).
    Failed(String),
    TimedOut,
}

/// What became of one call.
#[derive(Debug, Clone)]
pub struct Reply {
    pub result: Ended,
    /// The last response status, when one arrived.
    pub status: Option<u16>,
    /// The model's answer text (or the response body when there was no
    /// answer), for the report.
    pub text: String,
    pub duration: Duration,
    pub attempts: u32,
}

impl Reply {
    /// A call (or an agent's loop) that began at `started` ended so.
    pub(crate) fn finished(
        result: Ended,
        status: Option<u16>,
        text: String,
        started: Instant,
        attempts: u32,
    ) -> Reply {
        Reply {
            result,
            status,
            text,
            duration: started.elapsed(),
            attempts,
        }
    }

    fn redact(&mut self, secrets: &http::Secrets) {
        if secrets.is_empty() {
            return;
        }
        secrets.redact_string(&mut self.text);
        match &mut self.result {
            Ended::Failed(why) => secrets.redact_string(why),
            Ended::Judged(judgement) => {
                if let Some(reason) = &mut judgement.reason {
                    secrets.redact_string(reason);
                }
            }
            Ended::TimedOut => {}
        }
    }

    fn failed(why: String) -> Reply {
        Reply {
            result: Ended::Failed(why),
            status: None,
            text: String::new(),
            duration: Duration::ZERO,
            attempts: 0,
        }
    }
}

/// Statuses worth another try: overloaded, rate-limited, a server error.
fn retryable(status: Option<u16>) -> bool {
    matches!(status, Some(429 | 500 | 502 | 503 | 504 | 529))
}

const MAX_ATTEMPTS: u32 = 4;

impl Call {
    /// Sends the request (blocking), with a few retries on a busy or
    /// failing server, all within the hook's timeout. The key is redacted
    /// from the reply (the exchange already was; the model's answer is
    /// decoded JSON, where the key may have been spelled with escapes).
    pub fn send(self, client: &http::Client) -> Reply {
        let secrets = self.request.secrets.clone();
        let mut reply = self.send_unredacted(client);
        reply.redact(&secrets);
        reply
    }

    fn send_unredacted(mut self, client: &http::Client) -> Reply {
        let started = Instant::now();
        let timeout = self.request.timeout;
        let mut attempts = 0;
        loop {
            attempts += 1;
            let left = timeout.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Reply::finished(Ended::TimedOut, None, String::new(), started, attempts);
            }
            self.request.timeout = left;
            let exchange = client.send(&self.request);
            let body = String::from_utf8_lossy(&exchange.body).into_owned();
            match exchange.answer {
                http::Answer::TimedOut => {
                    return Reply::finished(
                        Ended::TimedOut,
                        exchange.status,
                        body,
                        started,
                        attempts,
                    );
                }
                http::Answer::Failed(why) => {
                    let backoff = Duration::from_millis(500 * (1 << (attempts - 1)));
                    let left = timeout.saturating_sub(started.elapsed());
                    if retryable(exchange.status) && attempts < MAX_ATTEMPTS && backoff < left {
                        std::thread::sleep(backoff);
                        continue;
                    }
                    let mut why = if attempts > 1 {
                        format!("{why} (after {attempts} tries)")
                    } else {
                        why
                    };
                    if let (Some(401 | 403), Some(var)) = (exchange.status, &self.missing_key) {
                        why = format!("{why}; {var} is not set, so no key was sent");
                    }
                    return Reply::finished(
                        Ended::Failed(why),
                        exchange.status,
                        body,
                        started,
                        attempts,
                    );
                }
                http::Answer::Output => {
                    let text = match self.provider {
                        Provider::Anthropic => answer::anthropic_text(&exchange.body),
                        Provider::OpenAi => answer::openai_text(&exchange.body),
                    };
                    let (result, shown) = match text {
                        Err(why) => (Ended::Failed(why.to_string()), body),
                        Ok(text) => match answer::judge(&text) {
                            Ok(judgement) => (Ended::Judged(judgement), text),
                            Err(why) => (
                                Ended::Failed(format!(
                                    "no usable answer: {why}; the model said: {}",
                                    excerpt(&text)
                                )),
                                text,
                            ),
                        },
                    };
                    return Reply::finished(result, exchange.status, shown, started, attempts);
                }
            }
        }
    }
}

fn excerpt(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        "(nothing)".to_owned()
    } else {
        crate::settings::model::shorten(text, 200)
    }
}

/// A call running on its own thread.
pub struct Pending {
    rx: mpsc::Receiver<Reply>,
    started: Instant,
    timeout: Duration,
}

/// How long past its timeout a call may take before it is given up.
const GIVE_UP_AFTER_TIMEOUT: Duration = Duration::from_millis(500);

impl Pending {
    /// The reply, or a timeout when none came in time. Never blocks longer
    /// than the timeout plus a small margin.
    pub fn wait(self) -> Reply {
        let limit = (self.timeout + GIVE_UP_AFTER_TIMEOUT).saturating_sub(self.started.elapsed());
        self.rx.recv_timeout(limit).unwrap_or_else(|_| Reply {
            result: Ended::TimedOut,
            status: None,
            text: String::new(),
            duration: self.started.elapsed(),
            attempts: 0,
        })
    }
}

/// A prompt hook on its way: sent on a thread, or refused before sending.
pub enum Started {
    Sent(Pending),
    NotSent(Reply),
}

impl Started {
    /// Runs `work` on its own thread; a thread that cannot start (a hook
    /// exhausting the user's processes) is a failed call, not a panic.
    pub(crate) fn on_thread(
        work: impl FnOnce() -> Reply + Send + 'static,
        timeout: Duration,
    ) -> Started {
        let (tx, rx) = mpsc::sync_channel(1);
        let spawned = std::thread::Builder::new()
            .name("hookrun-prompt".into())
            .spawn(move || {
                let _ = tx.send(work());
            });
        match spawned {
            Ok(_) => Started::Sent(Pending {
                rx,
                started: Instant::now(),
                timeout,
            }),
            Err(err) => Started::NotSent(Reply::failed(format!(
                "cannot start a thread for the call: {err}"
            ))),
        }
    }

    pub fn wait(self) -> Reply {
        match self {
            Started::Sent(pending) => pending.wait(),
            Started::NotSent(reply) => reply,
        }
    }
}

/// Prepares a hook's request (asking `prompt`) and starts it on a thread,
/// so it runs while command hooks run.
pub fn start(
    client: &Arc<http::Client>,
    prompt: &PromptDef,
    config: &Config,
    env: &[(OsString, OsString)],
    event: &Event,
    stdin: &[u8],
    timeout: Duration,
) -> Started {
    let call = match prepare(prompt, config, env, event, stdin, timeout) {
        Ok(call) => call,
        Err(why) => return Started::NotSent(Reply::failed(why.to_string())),
    };
    let client = Arc::clone(client);
    Started::on_thread(move || call.send(&client), timeout)
}

/// Runs one prompt hook to its verdict, blocking (the whole of this module
/// in one call; `fire` uses [`start`] to run it beside command hooks).
#[allow(clippy::too_many_arguments)]
pub fn run(
    client: &Arc<http::Client>,
    hook: Asked<'_>,
    name: &str,
    config: &Config,
    env: &[(OsString, OsString)],
    event: &Event,
    stdin: &[u8],
    timeout: Duration,
) -> (Verdict, Reply) {
    let reply = start(client, hook.prompt, config, env, event, stdin, timeout).wait();
    (verdict(&event.id, name, hook, &reply, timeout), reply)
}

/// What a reply does on `event` (as Claude Code applies a prompt hook's
/// answer), as the verdict of one hook:
/// - `ok: true` is a success: never a permission.
/// - `ok: false` blocks with the reason. On PreToolUse, PostToolUse and
///   UserPromptSubmit it also ends the turn (`continue: false`) unless the
///   hook sets `continueOnBlock`. On Stop and SubagentStop the agent goes
///   on with the reason, unless the model judged the condition
///   `impossible` (then it may stop).
/// - No usable answer, an error or a timeout is a failure of the hook:
///   a warning naming the hook and what came back, or a block with
///   `onError: "block"`.
pub fn verdict(
    event: &EventId,
    name: &str,
    hook: Asked<'_>,
    reply: &Reply,
    timeout: Duration,
) -> Verdict {
    let judgement = match &reply.result {
        Ended::Judged(judgement) => judgement,
        Ended::Failed(why) => return failure(event, name, hook, &Ending::Failed(why.clone())),
        Ended::TimedOut => {
            return failure(
                event,
                name,
                hook,
                &Ending::TimedOut {
                    seconds: timeout.as_secs_f64(),
                },
            );
        }
    };
    let reason = judgement.reason.clone().filter(|r| !r.trim().is_empty());
    let mut verdict = Verdict::default();
    if judgement.ok {
        verdict.outcome = Some(Outcome::Success);
        verdict.notes.push(match &reason {
            Some(reason) => format!("the model said ok: {reason}"),
            None => "the model said ok".to_owned(),
        });
        return verdict;
    }
    let stop_event = matches!(event.name(), "Stop" | "SubagentStop");
    if stop_event && judgement.impossible {
        verdict.outcome = Some(Outcome::Success);
        verdict.notes.push(format!(
            "the model judged the condition impossible, so the agent may stop: {}",
            reason.as_deref().unwrap_or("(no reason given)")
        ));
        return verdict;
    }
    // An agent hook's `ok: false` never ends the turn (as in Claude Code).
    let continue_on_block = hook.agent || hook.prompt.continue_on_block;
    let reason = reason.unwrap_or_else(|| {
        format!(
            "{} hook {name} said no (it gave no reason)",
            if hook.agent { "agent" } else { "prompt" }
        )
    });
    verdict.outcome = Some(Outcome::Block);
    verdict.block_reason = Some(reason.clone());
    let ends_turn = matches!(
        event.name(),
        "PreToolUse" | "PostToolUse" | "UserPromptSubmit"
    );
    if ends_turn && !continue_on_block {
        verdict.stop = true;
        verdict.stop_reason = Some(reason);
        verdict.notes.push(
            "ok: false ends the turn (set continueOnBlock to let the agent go on)".to_owned(),
        );
    }
    verdict
}

fn failure(event: &EventId, name: &str, hook: Asked<'_>, ending: &Ending) -> Verdict {
    verdict::read(
        event,
        &HookOutput {
            name,
            ending,
            stdout: &[],
            stdout_truncated: false,
            stderr: &[],
            fail_closed: hook.on_error == OnError::Block,
            tool_input: None,
        },
    )
}

/// One line for `explain` and `doctor`: where the hook's request would go,
/// with which model and key variable (never the key).
pub fn describe(
    prompt: &PromptDef,
    agent: bool,
    settings: &Settings,
    env: &[(OsString, OsString)],
) -> String {
    let config = Config::from_settings(settings);
    let tools = if agent {
        ", with read-only tools in the project,"
    } else {
        ""
    };
    match endpoint(prompt, &config, env) {
        Ok(e) => format!(
            "asks {}{tools} at {} (model {} from {}; key from {}{})",
            e.provider.as_str(),
            e.url,
            e.model,
            e.model_from,
            e.key_var,
            if e.key_set { "" } else { ", which is not set" }
        ),
        Err(why) => format!("cannot run: {why}"),
    }
}

#[cfg(test)]
mod tests;

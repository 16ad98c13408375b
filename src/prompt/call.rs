//! One prompt hook's call: the request built from the hook and the event
//! ([`prepare`]), with the key in one header; sending it with a few retries
//! within the hook's timeout ([`Call::send`]); and running it on its own
//! thread beside command hooks ([`start`], [`Started`]).

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use super::endpoint::{Endpoint, EndpointError, endpoint, var};
use super::{Config, Judgement, Provider, answer, request};
use crate::catalog::KnownEvent;
use crate::event::Event;
use crate::exec::Captured;
use crate::http;
use crate::settings::PromptDef;

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

/// One prompt hook's request, ready to send. Holds the key: it has no
/// `Debug`, so it cannot end up in a log by accident.
pub struct Call {
    pub(super) request: http::Request,
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
    let stop = matches!(
        event.id.known(),
        Some(KnownEvent::Stop | KnownEvent::SubagentStop)
    );
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
pub(super) fn headers(
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
pub(super) fn key_value(
    endpoint: &Endpoint,
    config: &Config,
    env: &[(OsString, OsString)],
) -> Option<String> {
    var(env, &endpoint.key_var).or_else(|| {
        (endpoint.provider == Provider::Anthropic && config.api_key_env.is_none())
            .then(|| var(env, "ANTHROPIC_AUTH_TOKEN"))
            .flatten()
    })
}

/// SubagentStop judges the subagent's own conversation when the host
/// names its transcript.
pub(super) fn transcript_path(event: &Event) -> Option<PathBuf> {
    let fields = event.fields();
    let pick = |key: &str| {
        fields
            .get(key)
            .and_then(serde_json::Value::as_str)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
    };
    if event.id.known() == Some(KnownEvent::SubagentStop) {
        if let Some(path) = pick("agent_transcript_path") {
            return Some(path);
        }
    }
    pick("transcript_path")
}

/// How a call ended ([`Ended::Answered`] with the model's judgement).
pub type Ended = crate::exchange::Ended<Judgement>;

/// What became of one call: the exchange every kind that asks returns,
/// its answer being the model's text (or the response body when there was
/// no answer), for the report.
pub type Reply = crate::exchange::Exchange<Judgement>;

/// A call (or an agent's loop) that began at `started` ended so.
pub(super) fn finished(ended: Ended, status: Option<u16>, text: String, started: Instant) -> Reply {
    Reply {
        status,
        answer: Captured {
            total: text.len() as u64,
            bytes: text.into_bytes(),
        },
        ..Reply::ended(ended, started.elapsed())
    }
}

fn redact(reply: &mut Reply, secrets: &http::Secrets) {
    if secrets.is_empty() {
        return;
    }
    secrets.redact_bytes(&mut reply.answer.bytes);
    reply.answer.total = reply.answer.bytes.len() as u64;
    match &mut reply.ended {
        Ended::Failed(why) => secrets.redact_string(why),
        Ended::Answered(judgement) => {
            if let Some(reason) = &mut judgement.reason {
                secrets.redact_string(reason);
            }
        }
        Ended::TimedOut => {}
    }
}

/// No usable answer, known before anything was sent.
pub(super) fn failed(why: String) -> Reply {
    Reply::failed(why, Duration::ZERO)
}

/// Statuses worth another try: overloaded, rate-limited, a server error.
pub(super) fn retryable(status: Option<u16>) -> bool {
    matches!(status, Some(429 | 500 | 502 | 503 | 504 | 529))
}

pub(super) const MAX_ATTEMPTS: u32 = 4;

impl Call {
    /// Sends the request (blocking), with a few retries on a busy or
    /// failing server, all within the hook's timeout. The key is redacted
    /// from the reply (the exchange already was; the model's answer is
    /// decoded JSON, where the key may have been spelled with escapes).
    pub fn send(self, client: &http::Client) -> Reply {
        let secrets = self.request.secrets.clone();
        let mut reply = self.send_unredacted(client);
        redact(&mut reply, &secrets);
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
                return finished(Ended::TimedOut, None, String::new(), started);
            }
            self.request.timeout = left;
            let exchange = client.send(&self.request);
            let body = String::from_utf8_lossy(&exchange.answer.bytes).into_owned();
            match exchange.ended {
                http::Ended::TimedOut => {
                    return finished(Ended::TimedOut, exchange.status, body, started);
                }
                http::Ended::Failed(why) => {
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
                    return finished(Ended::Failed(why), exchange.status, body, started);
                }
                http::Ended::Answered(()) => {
                    let text = match self.provider {
                        Provider::Anthropic => answer::anthropic_text(&exchange.answer.bytes),
                        Provider::OpenAi => answer::openai_text(&exchange.answer.bytes),
                    };
                    let (result, shown) = match text {
                        Err(why) => (Ended::Failed(why.to_string()), body),
                        Ok(text) => match answer::judge(&text) {
                            Ok(judgement) => (Ended::Answered(judgement), text),
                            Err(why) => (
                                Ended::Failed(format!(
                                    "no usable answer: {why}; the model said: {}",
                                    excerpt(&text)
                                )),
                                text,
                            ),
                        },
                    };
                    return finished(result, exchange.status, shown, started);
                }
            }
        }
    }
}

pub(super) fn excerpt(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        "(nothing)".to_owned()
    } else {
        crate::text::shorten(text, 200)
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
        self.rx
            .recv_timeout(limit)
            .unwrap_or_else(|_| Reply::ended(Ended::TimedOut, self.started.elapsed()))
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
            Err(err) => {
                Started::NotSent(failed(format!("cannot start a thread for the call: {err}")))
            }
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
        Err(why) => return Started::NotSent(failed(why.to_string())),
    };
    let client = Arc::clone(client);
    Started::on_thread(move || call.send(&client), timeout)
}

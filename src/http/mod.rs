//! http hooks (SPEC §8): POST the event, read the answer as a hook's output.
//!
//! Owns everything between a selected `type: "http"` hook and its
//! [`Exchange`]: the URL allow-list, header interpolation, the SSRF guard
//! and the HTTP client. It must never connect anywhere the guard did not
//! check, never follow a redirect, never use a proxy from the environment,
//! and never cost anything to a fire that selected no http hook (the client
//! is built by the caller only when one was selected; TLS is set up only on
//! the first https connection).
//!
//! How the guard is wired: the only [`ureq::Agent`] this module builds
//! ([`Client::new`]) is made with [`resolver::GuardedResolver`] as its
//! resolver, `proxy(None)` and `max_redirects(0)`. ureq connects only to the
//! addresses its resolver returned, so a connection exists only after the
//! guard passed every address of the host (`tests` in `resolver.rs`, and
//! `tests/integration/http.rs` end to end).

pub mod guard;
mod headers;
mod lint;
pub mod redact;
pub mod resolver;
use crate::urls;

use std::ffi::OsString;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ureq::unversioned::transport::DefaultConnector;

pub use guard::NetworkPolicy;
pub use lint::lint;
pub use redact::Secrets;

use crate::event::Bytes;
use crate::exec::Captured;
use crate::settings::model::FileState;
use crate::settings::{HttpDef, Settings};
use resolver::{GuardedResolver, Lookup, ResolveError};

/// The http settings of one fire, merged from every loaded file (each file
/// only contributes what its level may set; see `settings::load`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    pub network: NetworkPolicy,
    /// `allowedHttpHookUrls` of every file, merged; `None` when no file
    /// sets it (every URL allowed).
    pub allowed_urls: Option<Vec<String>>,
    /// Managed `httpHookAllowedEnvVars`, when set.
    pub managed_env_vars: Option<Vec<String>>,
}

impl Policy {
    /// Lists are merged; `allowPrivateNetworkHooks` is decided by the last
    /// file in load order that sets it (managed settings load last).
    pub fn from_settings(settings: &Settings) -> Policy {
        let mut policy = Policy::default();
        for file in settings
            .files
            .iter()
            .filter(|f| f.state == FileState::Loaded && f.trust.is_trusted())
        {
            let http = &file.http;
            if let Some(urls) = &http.allowed_urls {
                policy
                    .allowed_urls
                    .get_or_insert_with(Vec::new)
                    .extend(urls.iter().cloned());
            }
            if let Some(flag) = http.allow_private_network {
                policy.network.allow_private = flag;
            }
            if let Some(nets) = &http.allowed_networks {
                policy.network.allowed_networks.extend(nets.iter().copied());
            }
            if let Some(vars) = &http.allowed_env_vars {
                policy
                    .managed_env_vars
                    .get_or_insert_with(Vec::new)
                    .extend(vars.iter().cloned());
            }
        }
        policy
    }
}

/// One request, ready to send: the URL passed the allow-list, the headers
/// are interpolated and valid.
#[derive(Debug, Clone)]
pub struct Request {
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// The event, the same bytes a command hook reads on stdin.
    pub body: Arc<Bytes>,
    pub timeout: Duration,
    /// Values sent that must never be shown: redacted from the exchange.
    pub secrets: Secrets,
}

/// Why an http hook's request may not be sent.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    #[error(transparent)]
    Url(#[from] urls::UrlError),
    #[error("url {0} not sent: allowedHttpHookUrls is [] (no http hook may send)")]
    NoUrlAllowed(String),
    #[error("url {0} not sent: it matches no allowedHttpHookUrls pattern")]
    NotAllowed(String),
    #[error("header {0:?} is not a valid header name")]
    HeaderName(String),
    #[error("header {0:?} has a value with control characters; nothing was sent")]
    HeaderValue(String),
}

/// Prepares `hook`'s request, or says why nothing may be sent (an invalid
/// URL, one outside `allowedHttpHookUrls`, an invalid header): a failure of
/// the hook, for `onError` to judge. `env` is hookrun's own, unscrubbed
/// environment: `allowedEnvVars` is the consent to read from it.
pub fn request(
    hook: &HttpDef,
    policy: &Policy,
    env: &[(OsString, OsString)],
    body: Arc<Bytes>,
    timeout: Duration,
) -> Result<Request, RequestError> {
    let url = hook.url.trim();
    urls::parse(url)?;
    if let Some(patterns) = &policy.allowed_urls {
        if !urls::allowed(url, patterns) {
            return Err(if patterns.is_empty() {
                RequestError::NoUrlAllowed(url.to_owned())
            } else {
                RequestError::NotAllowed(url.to_owned())
            });
        }
    }
    let consent = headers::Consent {
        hook: &hook.allowed_env_vars,
        managed: policy.managed_env_vars.as_deref(),
    };
    let mut out = Vec::with_capacity(hook.headers.len());
    let mut secrets = Secrets::default();
    for (name, value) in &hook.headers {
        for secret in headers::read_values(value, consent, env) {
            secrets.add(&secret);
        }
        if ureq::http::HeaderName::from_bytes(name.as_bytes()).is_err() {
            return Err(RequestError::HeaderName(name.clone()));
        }
        let value = headers::interpolate(value, consent, env);
        // Bytes, not str: UTF-8 beyond ASCII is allowed (obs-text); only
        // control characters are not.
        if ureq::http::HeaderValue::from_bytes(value.as_bytes()).is_err() {
            return Err(RequestError::HeaderValue(name.clone()));
        }
        out.push((name.clone(), value));
    }
    Ok(Request {
        url: url.to_owned(),
        headers: out,
        body,
        timeout,
        secrets,
    })
}

/// How a request ended ([`Ended::Answered`]: a 2xx with an empty body or
/// a JSON object, the body being the hook's output, SPEC §6.2), and what
/// came back: the exchange every kind that asks returns.
pub use crate::exchange::{Ended, Exchange};

fn timed_out(duration: Duration) -> Exchange {
    Exchange::ended(Ended::TimedOut, duration)
}

/// The HTTP client of one fire: built only when an http hook was selected.
#[derive(Debug, Clone)]
pub struct Client {
    agent: ureq::Agent,
    body_cap: usize,
}

impl Client {
    /// A client whose every connection goes through the SSRF guard, using
    /// the system resolver.
    pub fn new(network: NetworkPolicy, body_cap: usize) -> Client {
        Client::with_lookup(network, resolver::system_lookup(), body_cap)
    }

    /// Same, with a given name lookup (tests).
    pub fn with_lookup(network: NetworkPolicy, lookup: Lookup, body_cap: usize) -> Client {
        Client::with_parts(network, lookup, body_cap, DefaultConnector::new())
    }

    fn with_parts(
        network: NetworkPolicy,
        lookup: Lookup,
        body_cap: usize,
        connector: impl ureq::unversioned::transport::Connector,
    ) -> Client {
        let config = ureq::Agent::config_builder()
            // Not from HTTP(S)_PROXY/ALL_PROXY: a proxy would connect for
            // us, to addresses the guard never saw (SPEC §8).
            .proxy(None)
            // A redirect is a second request to a place nobody checked
            // against the allow-list; the 3xx is the answer (a failure).
            .max_redirects(0)
            .http_status_as_error(false)
            .user_agent(concat!("hookrun/", env!("CARGO_PKG_VERSION")))
            .build();
        let agent =
            ureq::Agent::with_parts(config, connector, GuardedResolver::new(network, lookup));
        Client { agent, body_cap }
    }

    /// Sends `request` and reads the answer (blocking, within its timeout),
    /// with its secrets redacted from everything the exchange says.
    pub fn send(&self, request: &Request) -> Exchange {
        let mut exchange = self.send_unredacted(request);
        if !request.secrets.is_empty() {
            request.secrets.redact_bytes(&mut exchange.answer.bytes);
            if let Ended::Failed(why) = &mut exchange.ended {
                request.secrets.redact_string(why);
            }
        }
        exchange
    }

    fn send_unredacted(&self, request: &Request) -> Exchange {
        let started = Instant::now();
        let mut builder = self
            .agent
            .post(&request.url)
            .config()
            .timeout_global(Some(request.timeout))
            .build();
        let own_content_type = request
            .headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("content-type"));
        if !own_content_type {
            builder = builder.header("Content-Type", "application/json");
        }
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        let response = match builder.send(&request.body[..]) {
            Ok(response) => response,
            Err(err) => return exchange_error(&err, started.elapsed()),
        };
        let status = response.status();
        let location = response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let mut response = response;
        let read = response
            .body_mut()
            .with_config()
            .limit(self.body_cap as u64)
            .read_to_vec();
        let body = match read {
            Ok(body) => body,
            Err(ureq::Error::BodyExceedsLimit(_)) => {
                return Exchange {
                    status: Some(status.as_u16()),
                    ..Exchange::failed(
                        format!(
                            "HTTP {status}: the response body is larger than {} bytes",
                            self.body_cap
                        ),
                        started.elapsed(),
                    )
                };
            }
            Err(err) => {
                return Exchange {
                    status: Some(status.as_u16()),
                    ..exchange_error(&err, started.elapsed())
                };
            }
        };
        let ended = judge(status, location.as_deref(), &body);
        Exchange {
            status: Some(status.as_u16()),
            answer: Captured {
                total: body.len() as u64,
                bytes: body,
            },
            ..Exchange::ended(ended, started.elapsed())
        }
    }
}

/// A response, judged (SPEC §8): 2xx with an empty body or a JSON object is
/// the hook's output; everything else is a failure. A status alone never
/// blocks.
fn judge(status: ureq::http::StatusCode, location: Option<&str>, body: &[u8]) -> Ended {
    let text = String::from_utf8_lossy(body);
    let trimmed = text.trim();
    if status.is_success() {
        if trimmed.is_empty() {
            return Ended::Answered(());
        }
        return match crate::event::parse_json(trimmed.as_bytes()) {
            Ok(serde_json::Value::Object(_)) => Ended::Answered(()),
            Ok(other) => Ended::Failed(format!(
                "HTTP {status} with a JSON {} body; an http hook answers with a JSON object or nothing",
                crate::event::json_type_name(&other)
            )),
            Err(err) if trimmed.starts_with('{') => Ended::Failed(format!(
                "HTTP {status} with a body that is not valid JSON ({err})"
            )),
            Err(_) => Ended::Failed(format!(
                "HTTP {status} with a body that is not JSON: {}",
                excerpt(trimmed)
            )),
        };
    }
    if status.is_redirection() {
        return Ended::Failed(match location {
            Some(to) => format!(
                "HTTP {status}: redirect to {} not followed (http hooks follow no redirects)",
                excerpt(to)
            ),
            None => format!("HTTP {status}: http hooks follow no redirects"),
        });
    }
    if trimmed.is_empty() {
        Ended::Failed(format!("HTTP {status}"))
    } else {
        Ended::Failed(format!("HTTP {status}: {}", excerpt(trimmed)))
    }
}

/// The first line of `text`, shortened.
fn excerpt(text: &str) -> String {
    crate::text::shorten(text.lines().next().unwrap_or_default(), 200)
}

/// A request that reached no response, in words; the guard's own words
/// when it was the guard.
fn exchange_error(err: &ureq::Error, duration: Duration) -> Exchange {
    match err {
        ureq::Error::Timeout(_) => timed_out(duration),
        ureq::Error::Other(inner) => match inner.downcast_ref::<ResolveError>() {
            Some(ResolveError::TimedOut) => timed_out(duration),
            Some(resolve) => Exchange::failed(resolve.to_string(), duration),
            None => Exchange::failed(inner.to_string(), duration),
        },
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => timed_out(duration),
        ureq::Error::Io(io) => Exchange::failed(format!("connection failed: {io}"), duration),
        ureq::Error::HostNotFound => Exchange::failed("host not found".to_owned(), duration),
        other => Exchange::failed(other.to_string(), duration),
    }
}

/// A request running on its own thread.
#[derive(Debug)]
pub struct Pending {
    rx: mpsc::Receiver<Exchange>,
    started: Instant,
    timeout: Duration,
}

/// How long past its timeout a request may take before it is given up
/// without an answer (ureq enforces the timeout itself; this is the bound
/// if it ever does not).
const GIVE_UP_AFTER_TIMEOUT: Duration = Duration::from_millis(500);

impl Pending {
    /// The exchange, or a timeout when none came within the request's
    /// timeout (plus a small margin). Never blocks longer than that.
    pub fn wait(self) -> Exchange {
        let limit = (self.timeout + GIVE_UP_AFTER_TIMEOUT).saturating_sub(self.started.elapsed());
        self.rx
            .recv_timeout(limit)
            .unwrap_or_else(|_| timed_out(self.started.elapsed()))
    }
}

/// Starts `request` on a thread, so it runs while command hooks run.
pub fn start(client: &Arc<Client>, request: Request) -> Pending {
    let (tx, rx) = mpsc::sync_channel(1);
    let timeout = request.timeout;
    let client = Arc::clone(client);
    let failed = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("hookrun-http".into())
        .spawn(move || {
            let _ = tx.send(client.send(&request));
        });
    if let Err(err) = spawned {
        // Out of threads (a hook exhausting the user's processes): the hook
        // fails with that reason instead of hookrun panicking.
        let _ = failed.send(Exchange::failed(
            format!("cannot start a thread for the request: {err}"),
            Duration::ZERO,
        ));
    }
    Pending {
        rx,
        started: Instant::now(),
        timeout,
    }
}

/// A failure known before sending (see [`request`]), as an exchange.
pub fn not_sent(why: String) -> Exchange {
    Exchange::failed(why, Duration::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::SettingsFile;
    use crate::settings::model::{HttpFileSettings, Source, SourceKind};
    use std::path::PathBuf;

    fn file(kind: SourceKind, http: HttpFileSettings) -> SettingsFile {
        SettingsFile {
            source: Source {
                path: PathBuf::from(format!("/{kind}.json")),
                kind,
                claude_mode: false,
                trust_required: false,
            },
            dir: PathBuf::from("/"),
            state: FileState::Loaded,
            trust: crate::settings::Trust::NotRequired,
            disable_all_hooks: None,
            permissions: crate::settings::model::Permissions::default(),
            env_keep: Vec::new(),
            policy: crate::settings::model::Policy::default(),
            log: None,
            http,
            prompt: crate::settings::model::PromptFileSettings::default(),
        }
    }

    #[test]
    fn policy_merges_lists_and_last_flag_wins() {
        let settings = Settings {
            files: vec![
                file(
                    SourceKind::User,
                    HttpFileSettings {
                        allowed_urls: Some(vec!["https://a/*".into()]),
                        allow_private_network: Some(true),
                        allowed_networks: Some(vec!["10.1.0.0/16".parse().unwrap()]),
                        allowed_env_vars: None,
                    },
                ),
                file(
                    SourceKind::Project,
                    HttpFileSettings {
                        allowed_urls: Some(vec![]),
                        ..HttpFileSettings::default()
                    },
                ),
                file(
                    SourceKind::Managed,
                    HttpFileSettings {
                        allowed_urls: Some(vec!["https://b/*".into()]),
                        allow_private_network: Some(false),
                        allowed_networks: Some(vec!["10.2.0.0/16".parse().unwrap()]),
                        allowed_env_vars: Some(vec!["TOKEN".into()]),
                    },
                ),
            ],
            ..Settings::default()
        };
        let policy = Policy::from_settings(&settings);
        assert_eq!(
            policy.allowed_urls,
            Some(vec!["https://a/*".to_owned(), "https://b/*".to_owned()])
        );
        assert!(!policy.network.allow_private);
        assert_eq!(policy.network.allowed_networks.len(), 2);
        assert_eq!(policy.managed_env_vars, Some(vec!["TOKEN".to_owned()]));

        assert_eq!(
            Policy::from_settings(&Settings::default()),
            Policy::default()
        );
    }

    fn hook(url: &str) -> HttpDef {
        HttpDef {
            url: url.into(),
            headers: vec![("Authorization".into(), "Bearer $TOKEN".into())],
            allowed_env_vars: vec!["TOKEN".into()],
        }
    }

    #[test]
    fn request_checks_the_allow_list_before_anything_is_sent() {
        let body: Arc<Bytes> = Arc::new(b"{}\n".to_vec().into());
        let env = vec![(OsString::from("TOKEN"), OsString::from("t"))];
        let open = Policy::default();
        let made = request(
            &hook("http://127.0.0.1:9/x"),
            &open,
            &env,
            Arc::clone(&body),
            Duration::from_secs(1),
        )
        .unwrap();
        assert_eq!(
            made.headers,
            [("Authorization".to_owned(), "Bearer t".to_owned())]
        );

        let mut odd = hook("http://127.0.0.1:9/x");
        odd.headers = vec![("X-Name".into(), "café".into())];
        assert!(request(&odd, &open, &env, Arc::clone(&body), Duration::from_secs(1)).is_ok());
        odd.headers = vec![("X-Bell".into(), "a\u{7}b".into())];
        let err = request(&odd, &open, &env, Arc::clone(&body), Duration::from_secs(1))
            .unwrap_err()
            .to_string();
        assert!(err.contains("control characters"), "{err}");
        odd.headers = vec![("Bad Name".into(), "x".into())];
        let err = request(&odd, &open, &env, Arc::clone(&body), Duration::from_secs(1))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a valid header name"), "{err}");

        let none = Policy {
            allowed_urls: Some(Vec::new()),
            ..Policy::default()
        };
        let err = request(
            &hook("http://127.0.0.1:9/x"),
            &none,
            &env,
            Arc::clone(&body),
            Duration::from_secs(1),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("allowedHttpHookUrls is []"), "{err}");

        let some = Policy {
            allowed_urls: Some(vec!["https://hooks.example.com/*".into()]),
            ..Policy::default()
        };
        let err = request(
            &hook("http://127.0.0.1:9/x"),
            &some,
            &env,
            body,
            Duration::from_secs(1),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("matches no allowedHttpHookUrls pattern"),
            "{err}"
        );
    }

    #[test]
    fn judging_responses() {
        use ureq::http::StatusCode;
        let ok = StatusCode::OK;
        assert_eq!(judge(ok, None, b""), Ended::Answered(()));
        assert_eq!(
            judge(StatusCode::NO_CONTENT, None, b" \n"),
            Ended::Answered(())
        );
        assert_eq!(
            judge(ok, None, br#"{"decision":"block"}"#),
            Ended::Answered(())
        );
        for (status, body, words) in [
            (ok, &b"[1]"[..], "JSON an array body"),
            (ok, b"{nope", "not valid JSON"),
            (ok, b"all good", "not JSON: all good"),
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                b"boom\nmore",
                "HTTP 500 Internal Server Error: boom",
            ),
            (
                StatusCode::FORBIDDEN,
                br#"{"decision":"block","reason":"x"}"#,
                "HTTP 403 Forbidden",
            ),
            (
                StatusCode::FOUND,
                b"",
                "HTTP 302 Found: http hooks follow no redirects",
            ),
        ] {
            match judge(status, None, body) {
                Ended::Failed(why) => assert!(why.contains(words), "{why}"),
                other => panic!("{status}: {other:?}"),
            }
        }
        let Ended::Failed(why) = judge(StatusCode::FOUND, Some("/elsewhere"), b"") else {
            panic!()
        };
        assert!(why.contains("redirect to /elsewhere not followed"), "{why}");
    }

    /// A connector that opens nothing: should the guard ever let a private
    /// address through, these tests fail instead of sending a packet.
    #[derive(Debug)]
    struct NoConnect;

    impl ureq::unversioned::transport::Connector for NoConnect {
        type Out = ();
        fn connect(
            &self,
            details: &ureq::unversioned::transport::ConnectionDetails<'_>,
            _chained: Option<()>,
        ) -> Result<Option<()>, ureq::Error> {
            Err(ureq::Error::Other(
                format!(
                    "test connector: a connect to {:?} was attempted",
                    &details.addrs[..]
                )
                .into(),
            ))
        }
    }

    fn no_connect_client(lookup: Lookup) -> Client {
        Client::with_parts(NetworkPolicy::default(), lookup, 1024, NoConnect)
    }

    #[test]
    fn the_agent_connects_only_through_the_guarded_resolver() {
        // The guard allows loopback, so the connector is reached: proof that
        // the resolver the agent uses is the guarded one and that its
        // addresses are what the connector gets.
        let client = no_connect_client(Arc::new(|_, port| {
            Ok(vec![std::net::SocketAddr::new([127, 0, 0, 1].into(), port)])
        }));
        let exchange = client.send(&Request {
            url: "http://webhook.local:8080/x".into(),
            headers: Vec::new(),
            body: Arc::new(b"{}\n".to_vec().into()),
            timeout: Duration::from_secs(5),
            secrets: Secrets::default(),
        });
        assert_eq!(
            exchange.ended,
            Ended::Failed("test connector: a connect to [127.0.0.1:8080] was attempted".into())
        );
    }

    #[test]
    fn what_an_exchange_says_has_its_secrets_redacted() {
        let client = no_connect_client(Arc::new(|_, port| {
            Ok(vec![std::net::SocketAddr::new([127, 0, 0, 1].into(), port)])
        }));
        let mut secrets = Secrets::default();
        secrets.add("127.0.0.1:8080");
        let exchange = client.send(&Request {
            url: "http://webhook.local:8080/x".into(),
            headers: Vec::new(),
            body: Arc::new(b"{}\n".to_vec().into()),
            timeout: Duration::from_secs(5),
            secrets,
        });
        assert_eq!(
            exchange.ended,
            Ended::Failed("test connector: a connect to [[redacted]] was attempted".into())
        );
    }

    #[test]
    fn a_refusal_reaches_the_exchange_in_the_guards_words_without_connecting() {
        // IP literal: the guard refuses in the resolver, before any socket.
        let client = no_connect_client(Arc::new(|host, _| panic!("looked up {host}")));
        let req = Request {
            url: "http://169.254.169.254/latest/meta-data/".into(),
            headers: Vec::new(),
            body: Arc::new(b"{}\n".to_vec().into()),
            timeout: Duration::from_secs(5),
            secrets: Secrets::default(),
        };
        let started = Instant::now();
        let exchange = client.send(&req);
        assert!(started.elapsed() < Duration::from_millis(500));
        match exchange.ended {
            Ended::Failed(why) => assert!(
                why.starts_with("refused by hookrun's SSRF guard: 169.254.169.254"),
                "{why}"
            ),
            other => panic!("{other:?}"),
        }

        // A name: the stub says it is private; still refused before connecting.
        let client = no_connect_client(Arc::new(|_, port| {
            Ok(vec![std::net::SocketAddr::new([10, 0, 0, 5].into(), port)])
        }));
        let exchange = client.send(&Request {
            url: "https://example.internal/hook".into(),
            ..req
        });
        assert_eq!(
            exchange.ended,
            Ended::Failed("refused by hookrun's SSRF guard: example.internal resolves to 10.0.0.5 (private network 10.0.0.0/8); allowPrivateNetworkHooks or allowedHookNetworks in user or managed settings can allow it".into())
        );
    }
}

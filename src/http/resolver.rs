//! The resolver every http hook connection goes through: the SSRF guard
//! sits here, inside the connection path, not beside it.
//!
//! ureq asks its resolver for the socket addresses of a URL and then
//! connects to exactly those addresses; with no proxy configured it never
//! resolves anywhere else, and with redirects off it never makes a second
//! request. So every address a hook can reach has been returned by
//! [`GuardedResolver`], after [`NetworkPolicy::check`] passed ALL of the
//! host's addresses (A and AAAA). Nothing is resolved twice: the checked
//! addresses are the ones handed to the connector.

use std::fmt;
use std::io;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs as _};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

use super::guard::{NetworkPolicy, Refusal};

/// Looks a host name up: every address, IPv4 and IPv6.
pub type Lookup = Arc<dyn Fn(&str, u16) -> io::Result<Vec<SocketAddr>> + Send + Sync>;

/// The system resolver (`getaddrinfo` with no address family: A and AAAA).
pub fn system_lookup() -> Lookup {
    Arc::new(|host, port| Ok((host, port).to_socket_addrs()?.collect()))
}

/// Why no address was returned.
#[derive(Debug)]
pub enum ResolveError {
    /// The SSRF guard refused one of the host's addresses.
    Refused(Refusal),
    /// The lookup failed or found nothing.
    NotFound(String, Option<io::Error>),
    /// The lookup did not answer in time.
    TimedOut,
    /// Not an http(s) URL with a host.
    BadUrl(String),
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Refused(refusal) => refusal.fmt(f),
            ResolveError::NotFound(host, None) => write!(f, "{host} has no address"),
            ResolveError::NotFound(host, Some(err)) => write!(f, "cannot resolve {host}: {err}"),
            ResolveError::TimedOut => f.write_str("name lookup timed out"),
            ResolveError::BadUrl(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ResolveError {}

/// A ureq [`Resolver`] that refuses hosts the SSRF guard does not allow.
#[derive(Clone)]
pub struct GuardedResolver {
    policy: NetworkPolicy,
    lookup: Lookup,
}

impl fmt::Debug for GuardedResolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardedResolver")
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl GuardedResolver {
    pub fn new(policy: NetworkPolicy, lookup: Lookup) -> GuardedResolver {
        GuardedResolver { policy, lookup }
    }

    /// The checked addresses of `host:port`. An address literal is checked
    /// as it is (no lookup); a name is looked up (within `timeout`, when
    /// given) and every address it has must pass.
    pub fn resolve_host(
        &self,
        host: &str,
        port: u16,
        timeout: Option<Duration>,
    ) -> Result<Vec<SocketAddr>, ResolveError> {
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        let addrs = if let Ok(ip) = host.parse::<IpAddr>() {
            vec![SocketAddr::new(ip, port)]
        } else {
            self.lookup_within(host, port, timeout)?
        };
        if addrs.is_empty() {
            return Err(ResolveError::NotFound(host.to_owned(), None));
        }
        let ips: Vec<IpAddr> = addrs.iter().map(SocketAddr::ip).collect();
        self.policy
            .check(host, &ips)
            .map_err(ResolveError::Refused)?;
        Ok(addrs)
    }

    fn lookup_within(
        &self,
        host: &str,
        port: u16,
        timeout: Option<Duration>,
    ) -> Result<Vec<SocketAddr>, ResolveError> {
        let not_found = |err| ResolveError::NotFound(host.to_owned(), Some(err));
        let Some(timeout) = timeout else {
            return (self.lookup)(host, port).map_err(not_found);
        };
        // getaddrinfo cannot be cancelled: ask on a thread and stop waiting
        // at the timeout (the thread ends when the lookup does).
        let (tx, rx) = mpsc::sync_channel(1);
        let lookup = Arc::clone(&self.lookup);
        let name = host.to_owned();
        let spawned = std::thread::Builder::new()
            .name("hookrun-resolve".into())
            .spawn(move || {
                let _ = tx.send(lookup(&name, port));
            });
        if spawned.is_err() {
            // No thread to spare: ask here (the system resolver bounds it).
            return (self.lookup)(host, port).map_err(not_found);
        }
        match rx.recv_timeout(timeout) {
            Ok(result) => result.map_err(not_found),
            Err(_) => Err(ResolveError::TimedOut),
        }
    }
}

/// The host and port a URL connects to (`None`: not an http(s) URL with a
/// host).
pub fn host_and_port(uri: &Uri) -> Option<(&str, u16)> {
    let scheme = uri.scheme_str()?;
    let default_port = if scheme.eq_ignore_ascii_case("http") {
        80
    } else if scheme.eq_ignore_ascii_case("https") {
        443
    } else {
        return None;
    };
    let host = uri.host().filter(|h| !h.is_empty())?;
    Some((host, uri.port_u16().unwrap_or(default_port)))
}

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        _config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let Some((host, port)) = host_and_port(uri) else {
            return Err(ureq::Error::Other(Box::new(ResolveError::BadUrl(format!(
                "{uri} is not an http or https URL with a host"
            )))));
        };
        let limit = (!timeout.after.is_not_happening()).then(|| *timeout.after);
        match self.resolve_host(host, port, limit) {
            Ok(addrs) => {
                let mut out = self.empty();
                // All were checked; connect attempts use the first 16.
                for addr in addrs {
                    if out.try_push(addr).is_err() {
                        break;
                    }
                }
                Ok(out)
            }
            Err(ResolveError::TimedOut) => Err(ureq::Error::Timeout(timeout.reason)),
            Err(err) => Err(ureq::Error::Other(Box::new(err))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lookup that never touches the network.
    fn stub(answers: &'static [&'static str]) -> Lookup {
        Arc::new(move |_host, port| {
            Ok(answers
                .iter()
                .map(|a| SocketAddr::new(a.parse().unwrap(), port))
                .collect())
        })
    }

    fn must_not_look_up() -> Lookup {
        Arc::new(|host, _| panic!("an address literal was looked up: {host}"))
    }

    fn guarded(lookup: Lookup) -> GuardedResolver {
        GuardedResolver::new(NetworkPolicy::default(), lookup)
    }

    fn uri(text: &str) -> Uri {
        text.parse().unwrap()
    }

    fn resolve_uri(resolver: &GuardedResolver, text: &str) -> Result<Vec<SocketAddr>, String> {
        resolver
            .resolve(&uri(text), &Config::default(), NextTimeout::default())
            .map(|addrs| addrs.iter().copied().collect())
            .map_err(|err| match err {
                ureq::Error::Other(inner) => inner.to_string(),
                other => format!("ureq: {other}"),
            })
    }

    #[test]
    fn ip_literal_urls_are_checked_without_a_lookup() {
        let resolver = guarded(must_not_look_up());
        for (url, refused_with) in [
            (
                "http://10.255.255.1:9/",
                Some("10.255.255.1 is in a blocked range (private network 10.0.0.0/8)"),
            ),
            (
                "http://169.254.169.254/latest/meta-data/",
                Some("link-local network (cloud metadata services) 169.254.0.0/16"),
            ),
            ("http://0.0.0.0:8080/", Some("\"this\" network 0.0.0.0/8")),
            ("http://100.64.0.1/", Some("carrier-grade NAT")),
            (
                "http://[fe80::1]/",
                Some("fe80::1 is in a blocked range (link-local IPv6 network fe80::/10)"),
            ),
            (
                "https://[fd00::1]:8443/",
                Some("unique local IPv6 network fc00::/7"),
            ),
            (
                "http://[::ffff:10.0.0.1]/",
                Some("IPv4-mapped 10.0.0.1: private network 10.0.0.0/8"),
            ),
            ("http://[::ffff:a00:1]/", Some("IPv4-mapped 10.0.0.1")),
            ("http://127.0.0.1:8080/hook", None),
            ("http://[::1]:8080/hook", None),
        ] {
            let got = resolve_uri(&resolver, url);
            match refused_with {
                Some(words) => {
                    let message = got.expect_err(url);
                    assert!(
                        message.starts_with("refused by hookrun's SSRF guard: ")
                            && message.contains(words),
                        "{url}: {message}"
                    );
                }
                None => assert_eq!(got.expect(url).len(), 1, "{url}"),
            }
        }
    }

    #[test]
    fn default_ports_follow_the_scheme() {
        let resolver = guarded(must_not_look_up());
        assert_eq!(
            resolve_uri(&resolver, "http://127.0.0.1/").unwrap(),
            ["127.0.0.1:80".parse::<SocketAddr>().unwrap()]
        );
        assert_eq!(
            resolve_uri(&resolver, "https://[::1]/").unwrap(),
            ["[::1]:443".parse::<SocketAddr>().unwrap()]
        );
        assert!(resolve_uri(&resolver, "ftp://127.0.0.1/").is_err());
    }

    #[test]
    fn names_are_refused_when_any_address_is_blocked() {
        let resolver = guarded(stub(&["93.184.216.34", "10.0.0.5"]));
        let message = resolve_uri(&resolver, "https://example.internal/hook").unwrap_err();
        assert!(
            message.starts_with(
                "refused by hookrun's SSRF guard: example.internal resolves to 10.0.0.5 (private network 10.0.0.0/8)"
            ),
            "{message}"
        );
        let resolver = guarded(stub(&["2606:4700::1111", "fe80::1"]));
        assert!(resolve_uri(&resolver, "https://aaaa.example/").is_err());
    }

    #[test]
    fn names_with_only_allowed_addresses_resolve_to_exactly_those() {
        let resolver = guarded(stub(&["127.0.0.1", "::1"]));
        assert_eq!(
            resolve_uri(&resolver, "http://localhost:9000/").unwrap(),
            [
                "127.0.0.1:9000".parse::<SocketAddr>().unwrap(),
                "[::1]:9000".parse().unwrap()
            ]
        );
    }

    #[test]
    fn every_address_is_checked_even_past_what_is_returned() {
        // ureq keeps at most 16 addresses; the 17th must still be checked.
        static MANY: [&str; 17] = [
            "127.0.0.1",
            "127.0.0.2",
            "127.0.0.3",
            "127.0.0.4",
            "127.0.0.5",
            "127.0.0.6",
            "127.0.0.7",
            "127.0.0.8",
            "127.0.0.9",
            "127.0.0.10",
            "127.0.0.11",
            "127.0.0.12",
            "127.0.0.13",
            "127.0.0.14",
            "127.0.0.15",
            "127.0.0.16",
            "192.168.0.1",
        ];
        let resolver = guarded(stub(&MANY));
        assert!(resolve_uri(&resolver, "http://many.example/").is_err());
    }

    #[test]
    fn opt_outs_reach_the_resolver() {
        let policy = NetworkPolicy {
            allow_private: false,
            allowed_networks: vec!["10.1.0.0/16".parse().unwrap()],
        };
        let resolver = GuardedResolver::new(policy, stub(&["10.1.2.3"]));
        assert!(resolve_uri(&resolver, "http://ci.corp/").is_ok());
        assert!(resolve_uri(&resolver, "http://10.2.0.1/").is_err());
    }

    #[test]
    fn the_system_lookup_is_checked_too() {
        // localhost comes from /etc/hosts: no packet leaves the machine.
        // Without that line the lookup could ask DNS: skip rather than ask.
        let hosts = std::fs::read_to_string("/etc/hosts").unwrap_or_default();
        let listed = hosts.lines().any(|line| {
            let line = line.split('#').next().unwrap_or_default();
            line.split_whitespace()
                .skip(1)
                .any(|name| name == "localhost")
        });
        if !listed {
            // Written to stderr directly: libtest captures `eprintln!`.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr().lock(),
                "SKIPPED: http::resolver::tests::the_system_lookup_is_checked_too: /etc/hosts does not list localhost, and asking DNS for it could send a packet off this machine"
            );
            return;
        }
        let resolver = GuardedResolver::new(NetworkPolicy::default(), system_lookup());
        let addrs = resolver
            .resolve_host("localhost", 80, Some(Duration::from_secs(5)))
            .unwrap();
        assert!(!addrs.is_empty(), "`addrs` is empty");
        assert!(addrs.iter().all(|a| a.ip().is_loopback()), "{addrs:?}");
    }

    #[test]
    fn lookup_failures_and_slow_lookups() {
        let empty = guarded(stub(&[]));
        assert_eq!(
            resolve_uri(&empty, "http://nothing.example/").unwrap_err(),
            "nothing.example has no address"
        );
        let slow = guarded(Arc::new(|_, _| {
            std::thread::sleep(Duration::from_secs(5));
            Ok(Vec::new())
        }));
        let started = std::time::Instant::now();
        let err = slow
            .resolve_host("slow.example", 80, Some(Duration::from_millis(100)))
            .unwrap_err();
        assert!(matches!(err, ResolveError::TimedOut), "{err}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}

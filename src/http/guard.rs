//! The SSRF guard's address rules (SPEC §8): which addresses an http hook
//! may connect to. Pure: no lookups, no sockets.
//!
//! The ranges are the SPEC's, with the IPv4-mapped IPv6 form
//! (`::ffff:a.b.c.d`) judged as the IPv4 address it carries, plus the IPv6
//! forms that reach an IPv4 address or the local host by another name: the
//! unspecified address `::` (and `0.0.0.0`, in `0.0.0.0/8`), IPv4-compatible
//! `::a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`
//! and its local-use `64:ff9b:1::/48`, 6to4 `2002::/16` and Teredo
//! `2001::/32`, refused whole: each reaches an IPv4 address through a
//! translator or tunnel that hookrun cannot see, so the address it carries
//! cannot be judged as a local connection would be.
//! Loopback is allowed (local webhook servers), `::1` included. The one place that applies these rules
//! to real connections is [`super::resolver::GuardedResolver`]; nothing else
//! may decide where a hook connects.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::{IpNet, Ipv4Net, Ipv6Net};

/// A blocked range: its network and what it is, in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockedRange {
    pub net: IpNet,
    pub what: &'static str,
}

const fn v4(
    a: u8,
    b: u8,
    c: u8,
    d: u8,
    prefix: u8,
    what: &'static str,
) -> (Ipv4Addr, u8, &'static str) {
    (Ipv4Addr::new(a, b, c, d), prefix, what)
}

/// SPEC §8, in this order.
const BLOCKED_V4: [(Ipv4Addr, u8, &str); 6] = [
    v4(0, 0, 0, 0, 8, "\"this\" network"),
    v4(10, 0, 0, 0, 8, "private network"),
    v4(
        100,
        64,
        0,
        0,
        10,
        "shared address space (carrier-grade NAT)",
    ),
    v4(
        169,
        254,
        0,
        0,
        16,
        "link-local network (cloud metadata services)",
    ),
    v4(172, 16, 0, 0, 12, "private network"),
    v4(192, 168, 0, 0, 16, "private network"),
];

const BLOCKED_V6: [(Ipv6Addr, u8, &str); 9] = [
    (
        Ipv6Addr::UNSPECIFIED,
        128,
        "unspecified address (reaches local services by another name)",
    ),
    (
        Ipv6Addr::UNSPECIFIED,
        96,
        "IPv4-compatible IPv6 address (carries an IPv4 address)",
    ),
    (
        Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0),
        96,
        "NAT64 prefix (reaches the IPv4 address it carries)",
    ),
    (
        Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0),
        48,
        "local-use NAT64 prefix (reaches the IPv4 address it carries)",
    ),
    (
        Ipv6Addr::new(0, 0, 0, 0, 0xffff, 0, 0, 0),
        96,
        "IPv4-translated IPv6 address (carries an IPv4 address)",
    ),
    (
        Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0),
        16,
        "6to4 prefix (reaches the IPv4 address it carries)",
    ),
    (
        Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0),
        32,
        "Teredo prefix (reaches the IPv4 address it carries)",
    ),
    (
        Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0),
        7,
        "unique local IPv6 network",
    ),
    (
        Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0),
        10,
        "link-local IPv6 network",
    ),
];

/// The blocked range `ip` is in, if any. An IPv4-mapped IPv6 address is
/// judged by the IPv4 address it carries.
pub fn blocked_range(ip: IpAddr) -> Option<BlockedRange> {
    match ip {
        IpAddr::V4(v4) => blocked_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => blocked_v4(v4),
            // Loopback, although it lies in the IPv4-compatible range.
            None if v6 == Ipv6Addr::LOCALHOST => None,
            None => BLOCKED_V6.iter().find_map(|&(base, prefix, what)| {
                let net = Ipv6Net::new(base, prefix).expect("valid prefix");
                net.contains(&v6).then_some(BlockedRange {
                    net: IpNet::V6(net),
                    what,
                })
            }),
        },
    }
}

fn blocked_v4(ip: Ipv4Addr) -> Option<BlockedRange> {
    BLOCKED_V4.iter().find_map(|&(base, prefix, what)| {
        let net = Ipv4Net::new(base, prefix).expect("valid prefix");
        net.contains(&ip).then_some(BlockedRange {
            net: IpNet::V4(net),
            what,
        })
    })
}

/// Where http hooks may connect, as the settings that may say so said it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkPolicy {
    /// `allowPrivateNetworkHooks: true`: the guard allows every address.
    pub allow_private: bool,
    /// `allowedHookNetworks`: blocked addresses inside these are allowed.
    pub allowed_networks: Vec<IpNet>,
}

impl NetworkPolicy {
    /// Why `ip` may not be connected to, or `None` when it may.
    pub fn refusal(&self, ip: IpAddr) -> Option<BlockedRange> {
        if self.allow_private {
            return None;
        }
        let range = blocked_range(ip)?;
        let carried = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4),
            IpAddr::V4(_) => None,
        };
        let allowed = self
            .allowed_networks
            .iter()
            .any(|net| net.contains(&ip) || carried.is_some_and(|c| net.contains(&c)));
        (!allowed).then_some(range)
    }

    /// Checks every address `host` resolved to; ANY blocked address refuses
    /// the host (a name that also points at a private address is not safe
    /// to connect to, whichever address a connect would pick).
    pub fn check(&self, host: &str, addrs: &[IpAddr]) -> Result<(), Refusal> {
        for &ip in addrs {
            if let Some(range) = self.refusal(ip) {
                return Err(Refusal {
                    host: host.to_owned(),
                    ip,
                    range,
                });
            }
        }
        Ok(())
    }
}

/// The SSRF guard said no.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The host as written in the URL (an address literal without brackets).
    pub host: String,
    pub ip: IpAddr,
    pub range: BlockedRange,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let literal = self.host.parse::<IpAddr>().ok() == Some(self.ip);
        if literal {
            write!(
                f,
                "refused by hookrun's SSRF guard: {} is in a blocked range",
                self.ip
            )?;
        } else {
            write!(
                f,
                "refused by hookrun's SSRF guard: {} resolves to {}",
                self.host, self.ip
            )?;
        }
        let mapped = match self.ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped(),
            IpAddr::V4(_) => None,
        };
        match mapped {
            Some(v4) => write!(
                f,
                " (IPv4-mapped {v4}: {} {})",
                self.range.what, self.range.net
            )?,
            None => write!(f, " ({} {})", self.range.what, self.range.net)?,
        }
        f.write_str(
            "; allowPrivateNetworkHooks or allowedHookNetworks in user or managed settings can allow it",
        )
    }
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn range_of(text: &str) -> Option<String> {
        blocked_range(ip(text)).map(|r| r.net.to_string())
    }

    #[test]
    fn every_spec_range_is_blocked_at_both_ends() {
        for (first, last, net) in [
            ("0.0.0.0", "0.255.255.255", "0.0.0.0/8"),
            ("10.0.0.0", "10.255.255.255", "10.0.0.0/8"),
            ("100.64.0.0", "100.127.255.255", "100.64.0.0/10"),
            ("169.254.0.0", "169.254.255.255", "169.254.0.0/16"),
            ("172.16.0.0", "172.31.255.255", "172.16.0.0/12"),
            ("192.168.0.0", "192.168.255.255", "192.168.0.0/16"),
            (
                "fc00::",
                "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fc00::/7",
            ),
            (
                "fe80::",
                "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
                "fe80::/10",
            ),
        ] {
            assert_eq!(range_of(first).as_deref(), Some(net), "{first}");
            assert_eq!(range_of(last).as_deref(), Some(net), "{last}");
        }
    }

    #[test]
    fn neighbours_of_the_ranges_are_not_blocked() {
        for outside in [
            "1.0.0.0",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "169.253.255.255",
            "169.255.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.167.255.255",
            "192.169.0.0",
            "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "fe00::",
            "fec0::",
            "2001:db8::1",
            "8.8.8.8",
            "93.184.216.34",
            "2606:4700::1111",
        ] {
            assert_eq!(range_of(outside), None, "{outside}");
        }
    }

    #[test]
    fn the_examples_of_the_issue() {
        for (text, net) in [
            ("::ffff:10.0.0.1", "10.0.0.0/8"),
            ("::ffff:a00:1", "10.0.0.0/8"),
            ("::ffff:169.254.169.254", "169.254.0.0/16"),
            ("::ffff:0.0.0.0", "0.0.0.0/8"),
            ("0.0.0.0", "0.0.0.0/8"),
            ("100.64.0.1", "100.64.0.0/10"),
            ("169.254.169.254", "169.254.0.0/16"),
            ("fe80::1", "fe80::/10"),
            ("fd00::1", "fc00::/7"),
            ("fd12:3456:789a::1", "fc00::/7"),
            ("172.20.1.1", "172.16.0.0/12"),
            ("192.168.1.1", "192.168.0.0/16"),
        ] {
            assert_eq!(range_of(text).as_deref(), Some(net), "{text}");
        }
    }

    #[test]
    fn addresses_that_reach_ipv4_or_localhost_by_another_name_are_blocked() {
        for (text, range) in [
            ("::", "::/128"),
            ("0.0.0.0", "0.0.0.0/8"),
            ("::a9fe:a9fe", "::/96"),
            ("::10.0.0.1", "::/96"),
            ("::127.0.0.1", "::/96"),
            ("64:ff9b::a9fe:a9fe", "64:ff9b::/96"),
            ("64:ff9b::7f00:1", "64:ff9b::/96"),
            ("64:ff9b::808:808", "64:ff9b::/96"),
            ("2002:a9fe:a9fe::1", "2002::/16"),
            ("2002:7f00:1::", "2002::/16"),
            ("64:ff9b:1::a9fe:a9fe", "64:ff9b:1::/48"),
            ("64:ff9b:1::1", "64:ff9b:1::/48"),
            ("64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "64:ff9b:1::/48"),
            ("::ffff:0:a00:1", "::ffff:0:0:0/96"),
            ("::ffff:0:7f00:1", "::ffff:0:0:0/96"),
            ("::ffff:0:a9fe:a9fe", "::ffff:0:0:0/96"),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::/32"),
            ("2001::1", "2001::/32"),
            // IPv4-mapped: the IPv4 address it carries is judged.
            ("::ffff:192.168.1.1", "192.168.0.0/16"),
            ("::ffff:100.64.0.1", "100.64.0.0/10"),
            ("::ffff:172.16.0.1", "172.16.0.0/12"),
            ("::ffff:0.1.2.3", "0.0.0.0/8"),
        ] {
            assert_eq!(range_of(text).as_deref(), Some(range), "{text}");
        }
        // Neighbours stay open.
        for text in [
            "64:ff9b:2::1",
            "64:ff9b:0:1::1",
            "2001:db8::1",
            "2001:1::1",
            "2003::1",
            "1::",
            "::1:0:0:0",
            "::fffe:0:0:0",
        ] {
            assert_eq!(range_of(text), None, "{text}");
        }
        // The opt-out covers them as it covers the rest.
        let all = NetworkPolicy {
            allow_private: true,
            allowed_networks: Vec::new(),
        };
        assert!(
            all.check("x", &[ip("::"), ip("64:ff9b::a9fe:a9fe")])
                .is_ok()
        );
        let listed = NetworkPolicy {
            allow_private: false,
            allowed_networks: vec!["64:ff9b::/96".parse().unwrap()],
        };
        assert!(listed.check("x", &[ip("64:ff9b::a00:1")]).is_ok());
        assert!(listed.check("x", &[ip("2002::1")]).is_err());
    }

    #[test]
    fn loopback_is_allowed_in_every_form() {
        for text in ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"] {
            assert_eq!(range_of(text), None, "{text}");
            assert!(NetworkPolicy::default().check("x", &[ip(text)]).is_ok());
        }
    }

    #[test]
    fn any_blocked_address_refuses_the_host() {
        let policy = NetworkPolicy::default();
        let refusal = policy
            .check("example.internal", &[ip("93.184.216.34"), ip("10.0.0.5")])
            .unwrap_err();
        assert_eq!(refusal.ip, ip("10.0.0.5"));
        assert_eq!(
            refusal.to_string(),
            "refused by hookrun's SSRF guard: example.internal resolves to 10.0.0.5 (private network 10.0.0.0/8); allowPrivateNetworkHooks or allowedHookNetworks in user or managed settings can allow it"
        );
        // Only AAAA private: still refused.
        assert!(
            policy
                .check("v6.example", &[ip("93.184.216.34"), ip("fd00::1")])
                .is_err()
        );
    }

    #[test]
    fn refusal_words_for_literals_and_mapped_addresses() {
        let policy = NetworkPolicy::default();
        let literal = policy
            .check("169.254.169.254", &[ip("169.254.169.254")])
            .unwrap_err()
            .to_string();
        assert!(
            literal.starts_with("refused by hookrun's SSRF guard: 169.254.169.254 is in a blocked range (link-local network (cloud metadata services) 169.254.0.0/16)"),
            "{literal}"
        );
        let mapped = policy
            .check("::ffff:a00:1", &[ip("::ffff:a00:1")])
            .unwrap_err()
            .to_string();
        assert!(
            mapped.contains("::ffff:10.0.0.1 is in a blocked range (IPv4-mapped 10.0.0.1: private network 10.0.0.0/8)"),
            "{mapped}"
        );
    }

    #[test]
    fn opt_outs() {
        let all = NetworkPolicy {
            allow_private: true,
            allowed_networks: Vec::new(),
        };
        assert!(all.check("x", &[ip("10.0.0.1"), ip("fe80::1")]).is_ok());

        let some = NetworkPolicy {
            allow_private: false,
            allowed_networks: vec!["10.1.0.0/16".parse().unwrap()],
        };
        assert!(some.check("x", &[ip("10.1.2.3")]).is_ok());
        assert!(some.check("x", &[ip("::ffff:10.1.2.3")]).is_ok());
        assert!(some.check("x", &[ip("10.2.0.1")]).is_err());
        assert!(
            some.check("x", &[ip("10.1.2.3"), ip("192.168.0.1")])
                .is_err()
        );
    }
}

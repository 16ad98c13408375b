//! The URLs hookrun sends to (http hooks, prompt hook endpoints): what
//! counts as a valid one, and the `allowedHttpHookUrls`
//! allow-list (SPEC §8). Pure: settings check them at load, `http` and
//! `prompt` before sending.

use ureq::http::Uri;

/// Why a hook's `url` is not one hookrun sends to. The message names the
/// URL as written.
#[derive(Debug, thiserror::Error)]
pub enum UrlError {
    #[error("url {url:?} needs http:// or https://")]
    NoScheme { url: String },
    #[error("url {url:?} has scheme {scheme:?}; http hooks use http or https")]
    Scheme { url: String, scheme: String },
    #[error("url {url:?} is not a valid URL ({source})")]
    Invalid {
        url: String,
        #[source]
        source: ureq::http::uri::InvalidUri,
    },
    #[error("url {url:?} has no host")]
    NoHost { url: String },
    #[error(
        "url {url:?} carries user information before `@`; put credentials in `headers` (with `allowedEnvVars`)"
    )]
    UserInfo { url: String },
}

/// Parses a hook's `url`: `http` or `https`, with a host and no user
/// information (credentials belong in `headers`, where `allowedEnvVars`
/// governs them; `https://good.example@evil.example/` also makes an
/// allow-list pattern read the wrong host).
pub fn parse(url: &str) -> Result<Uri, UrlError> {
    let owned = || url.to_owned();
    match url.trim().split_once("://") {
        None => return Err(UrlError::NoScheme { url: owned() }),
        Some((scheme, _))
            if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") =>
        {
            return Err(UrlError::Scheme {
                url: owned(),
                scheme: scheme.to_owned(),
            });
        }
        Some(_) => {}
    }
    let uri: Uri = url.trim().parse().map_err(|source| UrlError::Invalid {
        url: owned(),
        source,
    })?;
    match uri.scheme_str() {
        Some(scheme)
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") => {}
        Some(other) => {
            return Err(UrlError::Scheme {
                url: owned(),
                scheme: other.to_owned(),
            });
        }
        None => return Err(UrlError::NoScheme { url: owned() }),
    }
    let Some(authority) = uri.authority() else {
        return Err(UrlError::NoHost { url: owned() });
    };
    if authority.as_str().contains('@') {
        return Err(UrlError::UserInfo { url: owned() });
    }
    if authority.host().is_empty() {
        return Err(UrlError::NoHost { url: owned() });
    }
    Ok(uri)
}

/// Scheme and authority lower-cased (host names are case-insensitive), the
/// rest as written.
fn normalise(text: &str) -> String {
    let text = text.trim();
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    format!(
        "{}://{}{}",
        scheme.to_ascii_lowercase(),
        rest[..end].to_ascii_lowercase(),
        &rest[end..]
    )
}

/// Does `url` match one of the `allowedHttpHookUrls` patterns? `*` matches
/// any run of characters (including none, and `/`); everything else is
/// literal; scheme and host compare case-insensitively.
pub fn allowed(url: &str, patterns: &[String]) -> bool {
    let url = normalise(url);
    patterns
        .iter()
        .any(|pattern| glob(normalise(pattern).as_bytes(), url.as_bytes()))
}

/// `*`-only glob over bytes, iterative with backtracking to the last star.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn parse_accepts_http_and_https_only() {
        assert!(parse("https://hooks.example.com/x").is_ok());
        assert!(parse("http://127.0.0.1:8080/hook?a=1").is_ok());
        assert!(parse("http://[::1]:8080/").is_ok());
        let upper = parse("HTTPS://Example.COM/").unwrap();
        assert_eq!(
            crate::http::resolver::host_and_port(&upper),
            Some(("Example.COM", 443))
        );
        for (bad, words) in [
            ("ftp://example.com/", "scheme \"ftp\""),
            ("example.com/hook", "needs http://"),
            ("https://user:pw@example.com/", "user information"),
            ("https://good.example@evil.example/", "user information"),
            ("http://exa mple.com/", "not a valid URL"),
            ("", "needs http://"),
        ] {
            let err = parse(bad).unwrap_err().to_string();
            assert!(err.contains(words), "{bad}: {err}");
        }
    }

    #[test]
    fn patterns_with_stars() {
        let patterns = list(&["https://hooks.example.com/*", "http://localhost:*/hook"]);
        assert!(allowed("https://hooks.example.com/a/b?c=d", &patterns));
        assert!(allowed("https://hooks.example.com/", &patterns));
        assert!(allowed("http://localhost:8080/hook", &patterns));
        assert!(!allowed("https://hooks.example.com", &patterns));
        assert!(!allowed("http://hooks.example.com/a", &patterns));
        assert!(!allowed("https://hooks.example.com.evil.net/a", &patterns));
        assert!(!allowed("http://localhost:8080/hook/x", &patterns));
    }

    #[test]
    fn host_is_case_insensitive_path_is_not() {
        let patterns = list(&["https://Hooks.Example.COM/Path/*"]);
        assert!(allowed("HTTPS://hooks.example.com/Path/x", &patterns));
        assert!(!allowed("https://hooks.example.com/path/x", &patterns));
    }

    #[test]
    fn subdomain_wildcards_and_exact_urls() {
        let patterns = list(&["https://*.corp.example/*", "https://exact.example/hook"]);
        assert!(allowed("https://a.b.corp.example/x", &patterns));
        assert!(!allowed("https://corp.example/x", &patterns));
        assert!(allowed("https://exact.example/hook", &patterns));
        assert!(!allowed("https://exact.example/hook2", &patterns));
    }

    #[test]
    fn empty_list_allows_nothing() {
        assert!(!allowed("https://example.com/", &[]));
    }

    #[test]
    fn glob_edge_cases() {
        assert!(glob(b"*", b""));
        assert!(glob(b"a**b", b"ab"));
        assert!(glob(b"*a*b*", b"xxaYYbZZ"));
        assert!(!glob(b"*a*b", b"xxaYYbZZ"));
        assert!(!glob(b"", b"a"));
    }
}

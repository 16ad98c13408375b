//! The top-level keys of a settings file: which are read where (a Claude
//! Code file, a project file, managed settings), and every key but `hooks`
//! (permissions, env, log, the http and prompt hook keys, the managed
//! policy keys).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::hooks::parse_hooks;
use super::{Reporter, push_file};
use crate::catalog;
use crate::event::json_type_name;
use crate::settings::model::{
    FileState, HookDef, HttpFileSettings, Permissions, Policy, Problem, ProblemKind, RuleEntry,
    Settings, SettingsFile, Severity, Source, SourceKind, Trust,
};

/// Top-level keys hookrun understands (the settings JSON Schema lists
/// exactly these; a unit test in `generate::schema` holds it to that).
pub(crate) const TOP_LEVEL_KEYS: &[&str] = &[
    "$schema",
    "hooks",
    "disableAllHooks",
    "permissions",
    "env",
    "log",
    "allowedHttpHookUrls",
    "allowPrivateNetworkHooks",
    "allowedHookNetworks",
    "allowManagedHooksOnly",
    "allowedHookSources",
    "blockedCommands",
    "httpHookAllowedEnvVars",
    "maxHookTimeout",
    "disableBuiltinRules",
    "promptHooks",
    "allowPromptHooks",
    "allowedPromptHookEndpoints",
];

/// The prompt hook keys (SPEC §13), parsed by `super::prompt`.
const PROMPT_KEYS: &[&str] = &[
    "promptHooks",
    "allowPromptHooks",
    "allowedPromptHookEndpoints",
];

/// The http hook keys (SPEC §8, §9.4), parsed by [`parse_http_key`].
const HTTP_KEYS: &[&str] = &[
    "allowedHttpHookUrls",
    "allowPrivateNetworkHooks",
    "allowedHookNetworks",
    "httpHookAllowedEnvVars",
];

/// Policy keys honoured only in managed settings (SPEC §9.4).
const MANAGED_ONLY: &[&str] = &[
    "allowManagedHooksOnly",
    "allowedHookSources",
    "blockedCommands",
    "maxHookTimeout",
    "disableBuiltinRules",
];

/// A top-level value: parsed as a tree (the precise path, and every key
/// but `hooks` on the fast one), or the fast path's typed `hooks`.
pub(super) enum TopRef<'a> {
    Value(&'a Value),
    Owned(Value),
    /// `hooks`, already in the settings' list by the fast path: what it
    /// reported, in order.
    Loaded(Vec<Problem>),
}

/// What the keys of one file are read with.
struct KeyContext<'a> {
    /// The file's index in `Settings::files`.
    index: usize,
    kind: SourceKind,
    claude_mode: bool,
    /// A project file (also a relative or in-project --settings path) may
    /// not opt out of the SSRF guard (SPEC §8, §9.1).
    may_opt_out: bool,
    path: &'a Path,
}

pub(super) fn load_top<'a, K: AsRef<str>>(
    settings: &mut Settings,
    source: Source,
    dir: PathBuf,
    top: impl Iterator<Item = (K, TopRef<'a>)>,
    trust: Trust,
) {
    let kind = source.kind;
    let claude_mode = source.claude_mode;
    let may_opt_out = kind.may_opt_out_of_ssrf_guard() && !source.trust_required;
    let path = source.path.clone();
    let index = push_file(settings, source, dir, FileState::Loaded, trust);
    let cx = KeyContext {
        index,
        kind,
        claude_mode,
        may_opt_out,
        path: &path,
    };
    // Straight into the file and the settings' list of hooks (in load
    // order, as before).
    let Settings {
        files,
        hooks,
        problems,
        ..
    } = settings;
    let file = &mut files[index];
    let mut report = Reporter {
        file: &path,
        problems,
    };
    for (key, value) in top {
        let owned;
        let value = match value {
            TopRef::Loaded(problems) => {
                report.problems.extend(problems);
                continue;
            }
            TopRef::Value(value) => value,
            TopRef::Owned(value) => {
                owned = value;
                &owned
            }
        };
        parse_key(key.as_ref(), value, &cx, file, hooks, &mut report);
    }
}

/// One top-level key into its file's settings (`hooks` into `hooks`).
fn parse_key(
    key: &str,
    value: &Value,
    cx: &KeyContext<'_>,
    file: &mut SettingsFile,
    hooks: &mut Vec<HookDef>,
    report: &mut Reporter<'_>,
) {
    let kind = cx.kind;
    match key {
        "hooks" => parse_hooks(value, cx.index, cx.claude_mode, hooks, report),
        "disableAllHooks" => match value {
            Value::Bool(flag) => file.disable_all_hooks = Some(*flag),
            other => report.push(
                Severity::Error,
                ProblemKind::NotABool,
                key,
                format!(
                    "expected true or false, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        },
        _ if cx.claude_mode => claude_mode_key(key, value, cx.path, file, report),
        "$schema" => {}
        _ if PROMPT_KEYS.contains(&key) => {
            let sets_endpoint = cx.may_opt_out;
            let problems = crate::settings::prompt::parse_key(
                key,
                value,
                kind,
                sets_endpoint,
                &mut file.prompt,
            );
            for (severity, kind, at, message) in problems {
                report.push(severity, kind, at, message);
            }
        }
        _ if HTTP_KEYS.contains(&key) => {
            parse_http_key(key, value, kind, cx.may_opt_out, &mut file.http, report);
        }
        "permissions" => file.permissions = parse_permissions(value, report),
        "env" => file.env_keep = parse_env(value, kind, report),
        "log" => match value {
            Value::String(text) if !text.trim().is_empty() => {
                file.log = Some(resolve_log_path(text, cx.path));
            }
            other => report.push(
                Severity::Error,
                ProblemKind::NotAFilePath,
                "log",
                format!(
                    "expected a file path, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        },
        _ if MANAGED_ONLY.contains(&key) => {
            if kind == SourceKind::Managed {
                parse_policy_key(key, value, &mut file.policy, report);
            } else {
                report.push(
                    Severity::Warning,
                    ProblemKind::ManagedOnly,
                    key,
                    format!(
                        "is honoured only in managed settings; ignored in {} settings",
                        kind.as_str()
                    ),
                );
            }
        }
        _ if nearest_key(key).is_none() && is_event_name(key) => {
            // `{"PreToolUse": […]}` without the `hooks` wrapper: the hooks
            // look configured and never run.
            report.push(
                Severity::Warning,
                ProblemKind::EventOutsideHooks,
                key,
                format!(
                    "is an event, written at the top level: hookrun reads hooks only under `hooks`, so these never run (write {{\"hooks\": {{{}: […]}}}})",
                    serde_json::Value::from(key)
                ),
            );
        }
        _ => {
            let hint = nearest_key(key)
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            report.push(
                Severity::Warning,
                ProblemKind::UnknownKey,
                key,
                format!("unknown key, ignored{hint}"),
            );
        }
    }
}

/// An event name, as `hooks` takes it (leniently), or a host's own name
/// for one (Gemini's `BeforeTool`).
fn is_event_name(key: &str) -> bool {
    catalog::lookup(key).is_some()
        || crate::host::HOSTS
            .iter()
            .any(|h| crate::host::mapping::event_row(h.events(), key).is_some())
}

/// A key of a Claude Code settings file other than `hooks` and
/// `disableAllHooks`: Claude Code applies it itself.
fn claude_mode_key(
    key: &str,
    value: &Value,
    path: &Path,
    file: &mut SettingsFile,
    report: &mut Reporter<'_>,
) {
    match key {
        // Claude Code applies these rules itself; behind any other host
        // hookrun applies their deny and ask (nobody else would), so they
        // are read, quietly: the syntax is Claude Code's to judge.
        "permissions" => {
            let mut quiet = Vec::new();
            let mut scratch = Reporter {
                file: path,
                problems: &mut quiet,
            };
            file.permissions = parse_permissions(value, &mut scratch);
            report.push(
                Severity::Note,
                ProblemKind::ClaudeModeIgnored,
                key,
                "ignored in a Claude Code settings file behind Claude Code (Claude Code applies it itself); behind other hosts hookrun applies its deny and ask rules",
            );
        }
        "env" => report.push(
            Severity::Note,
            ProblemKind::ClaudeModeIgnored,
            key,
            "ignored in a Claude Code settings file (Claude Code applies it itself)",
        ),
        _ => {}
    }
}

/// `~/x` is under the home directory; a relative path is relative to the
/// settings file's folder.
fn resolve_log_path(text: &str, settings_file: &Path) -> PathBuf {
    if let Some(rest) = crate::platform::strip_home_prefix(text) {
        if let Some(home) = crate::platform::home_dir() {
            return home.join(rest);
        }
    }
    let path = Path::new(text);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        settings_file
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(path)
    }
}

/// A list of strings at `path`; anything else is an error naming the item.
fn string_list(value: &Value, path: &str, report: &mut Reporter<'_>) -> Vec<String> {
    let Value::Array(items) = value else {
        report.push(
            Severity::Error,
            ProblemKind::NotAStringList,
            path,
            format!(
                "expected a list of strings, found {}; ignored",
                json_type_name(value)
            ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(text) => out.push(text.clone()),
            other => report.push(
                Severity::Error,
                ProblemKind::NotAString,
                format!("{path}[{i}]"),
                format!(
                    "expected a string, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        }
    }
    out
}

/// `permissions: {allow, ask, deny}` (SPEC §9.3).
fn parse_permissions(value: &Value, report: &mut Reporter<'_>) -> Permissions {
    let mut permissions = Permissions::default();
    let Value::Object(object) = value else {
        report.push(
            Severity::Error,
            ProblemKind::PermissionsNotAnObject,
            "permissions",
            format!(
                "expected an object with allow, ask and deny lists, found {}; ignored",
                json_type_name(value)
            ),
        );
        return permissions;
    };
    for (key, list) in object {
        let path = format!("permissions.{key}");
        let target = match key.as_str() {
            "allow" => &mut permissions.allow,
            "ask" => &mut permissions.ask,
            "deny" => &mut permissions.deny,
            _ => {
                report.push(
                    Severity::Warning,
                    ProblemKind::UnknownKey,
                    path,
                    "unknown key (expected allow, ask or deny), ignored",
                );
                continue;
            }
        };
        let Value::Array(items) = list else {
            report.push(
                Severity::Error,
                ProblemKind::NotARuleList,
                path,
                format!(
                    "expected a list of rules, found {}; ignored",
                    json_type_name(list)
                ),
            );
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(text) => target.push(RuleEntry {
                    text: text.clone(),
                    json_path: format!("{path}[{i}]"),
                }),
                other => report.push(
                    Severity::Error,
                    ProblemKind::NotARule,
                    format!("{path}[{i}]"),
                    format!(
                        "expected a rule string such as \"Bash(git push *)\", found {}; ignored",
                        json_type_name(other)
                    ),
                ),
            }
        }
    }
    permissions
}

/// `env: {keep: [NAMES]}` (SPEC §9.2). A project file cannot ask for the
/// user's secrets.
fn parse_env(value: &Value, kind: SourceKind, report: &mut Reporter<'_>) -> Vec<String> {
    let Value::Object(object) = value else {
        report.push(
            Severity::Error,
            ProblemKind::EnvNotAnObject,
            "env",
            format!(
                "expected an object such as {{\"keep\": [\"GITHUB_TOKEN\"]}}, found {}; ignored",
                json_type_name(value)
            ),
        );
        return Vec::new();
    };
    let mut keep = Vec::new();
    for (key, item) in object {
        if key == "keep" {
            keep = string_list(item, "env.keep", report);
        } else {
            report.push(
                Severity::Warning,
                ProblemKind::UnknownKey,
                format!("env.{key}"),
                "unknown key (expected keep), ignored",
            );
        }
    }
    if !keep.is_empty() && kind.is_project_scoped() {
        report.push(
            Severity::Warning,
            ProblemKind::ProjectEnvKeep,
            "env.keep",
            "is ignored in project settings: a project cannot ask for your secrets (put it in your user settings)",
        );
        return Vec::new();
    }
    keep
}

fn parse_policy_key(key: &str, value: &Value, policy: &mut Policy, report: &mut Reporter<'_>) {
    match key {
        "allowManagedHooksOnly" => match value {
            Value::Bool(flag) => policy.allow_managed_hooks_only = *flag,
            other => report.push(
                Severity::Error,
                ProblemKind::NotABool,
                key,
                format!(
                    "expected true or false, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        },
        "allowedHookSources" => {
            let mut kinds = Vec::new();
            for (i, name) in string_list(value, key, report).into_iter().enumerate() {
                match SourceKind::parse(&name) {
                    Some(kind) => kinds.push(kind),
                    None => report.push(
                        Severity::Error,
                        ProblemKind::UnknownSource,
                        format!("{key}[{i}]"),
                        format!("unknown source {name:?} (expected user, project, local, cli or managed); ignored"),
                    ),
                }
            }
            policy.allowed_hook_sources = Some(kinds);
        }
        "blockedCommands" => policy.blocked_commands = string_list(value, key, report),
        "disableBuiltinRules" => {
            policy.disabled_builtin_rules = string_list(value, key, report);
        }
        "maxHookTimeout" => match value.as_f64() {
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
                policy.max_hook_timeout = Some(Duration::from_secs_f64(seconds.min(1e9)));
            }
            _ => report.push(
                Severity::Error,
                ProblemKind::NotSeconds,
                key,
                format!("expected a positive number of seconds, found {value}; ignored"),
            ),
        },
        _ => {}
    }
}

/// One of the http keys. Who may set what (SPEC §8, §9.1, §9.4): the URL
/// allow-list from any level; the SSRF opt-outs from user, managed and
/// `--settings` files only; `httpHookAllowedEnvVars` from managed settings
/// only. A key set where it is not honoured is a warning and is not stored.
/// A malformed allow-list fails closed (it allows nothing) instead of
/// silently allowing everything.
fn parse_http_key(
    key: &str,
    value: &Value,
    kind: SourceKind,
    may_opt_out: bool,
    http: &mut HttpFileSettings,
    report: &mut Reporter<'_>,
) {
    match key {
        "allowedHttpHookUrls" => {
            http.allowed_urls = Some(strings(indexed_strings(
                key,
                value,
                ("URL patterns", ProblemKind::NotAUrlPatternList),
                report,
            )));
        }
        "allowPrivateNetworkHooks" | "allowedHookNetworks" if !may_opt_out => {
            report.push(
                Severity::Warning,
                ProblemKind::ProjectSsrfOptOut,
                key,
                format!(
                    "is honoured only in user, managed or --settings files, not in {kind} settings here; ignored (the SSRF guard stays on)"
                ),
            );
        }
        "allowPrivateNetworkHooks" => match value {
            Value::Bool(flag) => http.allow_private_network = Some(*flag),
            other => report.push(
                Severity::Error,
                ProblemKind::NotABool,
                key,
                format!(
                    "expected true or false, found {}; ignored (the SSRF guard stays on)",
                    json_type_name(other)
                ),
            ),
        },
        "allowedHookNetworks" => {
            let mut networks = Vec::new();
            for (i, text) in indexed_strings(
                key,
                value,
                ("CIDR networks", ProblemKind::NotANetworkList),
                report,
            ) {
                match parse_network(&text) {
                    Some(net) => networks.push(net),
                    None => report.push(
                        Severity::Error,
                        ProblemKind::NotANetwork,
                        format!("{key}[{i}]"),
                        format!(
                            "{text:?} is not a network (write it as 10.1.0.0/16 or fd00::/64); ignored"
                        ),
                    ),
                }
            }
            http.allowed_networks = Some(networks);
        }
        "httpHookAllowedEnvVars" if kind != SourceKind::Managed => report.push(
            Severity::Warning,
            ProblemKind::ManagedOnly,
            key,
            format!("is honoured only in managed settings, not in {kind} settings; ignored"),
        ),
        "httpHookAllowedEnvVars" => {
            http.allowed_env_vars = Some(strings(indexed_strings(
                key,
                value,
                ("variable names", ProblemKind::NotAVariableList),
                report,
            )));
        }
        _ => {}
    }
}

/// A list of strings with their indices; a value that is not a list is an
/// error and counts as the empty list, an item that is not a string is an
/// error and is dropped.
fn indexed_strings(
    key: &str,
    value: &Value,
    (what, not_a_list): (&str, ProblemKind),
    report: &mut Reporter<'_>,
) -> Vec<(usize, String)> {
    let Value::Array(items) = value else {
        report.push(
            Severity::Error,
            not_a_list,
            key,
            format!(
                "expected a list of {what}, found {}; treated as an empty list",
                json_type_name(value)
            ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(text) => out.push((i, text.clone())),
            other => report.push(
                Severity::Error,
                ProblemKind::NotAString,
                format!("{key}[{i}]"),
                format!(
                    "expected a string, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        }
    }
    out
}

fn strings(indexed: Vec<(usize, String)>) -> Vec<String> {
    indexed.into_iter().map(|(_, text)| text).collect()
}

/// `10.1.0.0/16`, `fd00::/64`, or a bare address (one host).
fn parse_network(text: &str) -> Option<ipnet::IpNet> {
    let text = text.trim();
    text.parse::<ipnet::IpNet>().ok().or_else(|| {
        text.parse::<std::net::IpAddr>()
            .ok()
            .map(ipnet::IpNet::from)
    })
}
fn nearest_key(key: &str) -> Option<&'static str> {
    let folded = catalog::fold_name(key);
    TOP_LEVEL_KEYS
        .iter()
        .map(|known| {
            (
                catalog::edit_distance(&catalog::fold_name(known), &folded),
                *known,
            )
        })
        .filter(|(distance, _)| *distance <= 2)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, known)| known)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{load_as, load_kind, messages};
    use crate::settings::model::{Severity, SourceKind};

    #[test]
    fn claude_mode_uses_hooks_only() {
        let settings = load_as(
            r#"{"model":"x","env":{"A":"1"},"permissions":{},"hooks":{"Stop":[{"hooks":[{"command":"x","once":true}]}]}}"#,
            true,
        );
        assert_eq!(settings.hooks.len(), 1);
        assert!(!settings.hooks[0].once);
        assert!(
            settings
                .problems
                .iter()
                .all(|p| p.severity == Severity::Note)
        );
        assert_eq!(settings.problems.len(), 3, "{:?}", messages(&settings));
    }

    const HTTP_SETTINGS: &str = r#"{
        "allowedHttpHookUrls": ["https://hooks.example.com/*"],
        "allowPrivateNetworkHooks": true,
        "allowedHookNetworks": ["10.1.0.0/16", "fd00::/64", "192.168.1.7"],
        "httpHookAllowedEnvVars": ["TOKEN"]
    }"#;

    #[test]
    fn http_keys_are_parsed_where_their_level_may_set_them() {
        let managed = load_kind(HTTP_SETTINGS, SourceKind::Managed);
        assert!(managed.problems.is_empty(), "{:?}", messages(&managed));
        let http = &managed.files[0].http;
        assert_eq!(
            http.allowed_urls.as_deref(),
            Some(&["https://hooks.example.com/*".to_owned()][..])
        );
        assert_eq!(http.allow_private_network, Some(true));
        let nets: Vec<String> = http
            .allowed_networks
            .iter()
            .flatten()
            .map(ToString::to_string)
            .collect();
        assert_eq!(nets, ["10.1.0.0/16", "fd00::/64", "192.168.1.7/32"]);
        assert_eq!(
            http.allowed_env_vars.as_deref(),
            Some(&["TOKEN".to_owned()][..])
        );

        for kind in [SourceKind::User, SourceKind::Cli] {
            let settings = load_kind(HTTP_SETTINGS, kind);
            let http = &settings.files[0].http;
            assert_eq!(http.allow_private_network, Some(true), "{kind}");
            assert!(http.allowed_networks.is_some(), "{kind}");
            assert_eq!(http.allowed_env_vars, None, "{kind}");
            let problems = messages(&settings);
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(
                problems[0]
                    .contains("httpHookAllowedEnvVars: is honoured only in managed settings"),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn project_settings_cannot_opt_out_of_the_ssrf_guard() {
        for kind in [SourceKind::Project, SourceKind::Local] {
            let settings = load_kind(HTTP_SETTINGS, kind);
            let http = &settings.files[0].http;
            assert_eq!(http.allow_private_network, None);
            assert_eq!(http.allowed_networks, None);
            assert_eq!(http.allowed_env_vars, None);
            // The URL allow-list is honoured from any level.
            assert!(http.allowed_urls.is_some());
            let problems = messages(&settings);
            for key in ["allowPrivateNetworkHooks", "allowedHookNetworks"] {
                assert!(
                    problems.iter().any(|p| p.contains(&format!(
                        "{key}: is honoured only in user, managed or --settings files, not in {kind} settings here; ignored (the SSRF guard stays on)"
                    ))),
                    "{problems:?}"
                );
            }
            assert!(
                settings
                    .problems
                    .iter()
                    .all(|p| p.severity == Severity::Warning)
            );
        }
    }

    #[test]
    fn malformed_http_keys_fail_closed() {
        let settings = load_kind(
            r#"{"allowedHttpHookUrls": "https://x/*", "allowPrivateNetworkHooks": "yes",
                "allowedHookNetworks": ["10.1.0.0/33", 7, "10.2.0.0/16"]}"#,
            SourceKind::User,
        );
        let http = &settings.files[0].http;
        // Not a list: nothing is allowed rather than everything.
        assert_eq!(http.allowed_urls.as_deref(), Some(&[][..]));
        assert_eq!(http.allow_private_network, None);
        assert_eq!(
            http.allowed_networks.as_deref(),
            Some(&["10.2.0.0/16".parse::<ipnet::IpNet>().unwrap()][..])
        );
        let problems = messages(&settings);
        for expected in [
            "allowedHttpHookUrls: expected a list of URL patterns, found a string; treated as an empty list",
            "allowPrivateNetworkHooks: expected true or false, found a string; ignored (the SSRF guard stays on)",
            "allowedHookNetworks[0]: \"10.1.0.0/33\" is not a network",
            "allowedHookNetworks[1]: expected a string, found a number; ignored",
        ] {
            assert!(
                problems.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {problems:#?}"
            );
        }
    }
}

//! Selection: the matcher funnel (SPEC §4).
//!
//! trust → policy → event → matcher → `if` → dedup, cheapest test first, in
//! load order. One implementation serves `fire`, `explain` and `list`, so
//! what they say can never drift apart. Pure: nothing is spawned and no
//! event JSON is serialised here.

pub mod bash;
mod file_pattern;
pub mod matcher;
pub mod rule;
mod wildcard;

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::time::Instant;

use serde_json::Value;

use crate::catalog::MatchField;
use crate::event::Event;
use crate::settings::model::Policy;
use crate::settings::model::shorten;
use crate::settings::{HookDef, HookType, Settings, SourceKind};
use matcher::{MatchOutcome, Matcher};
use rule::{PathContext, Rule, RuleMatch, ToolCall};

/// A funnel layer, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    Trust,
    Policy,
    Event,
    Matcher,
    If,
    Dedup,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Trust => "trust",
            Layer::Policy => "policy",
            Layer::Event => "event",
            Layer::Matcher => "matcher",
            Layer::If => "if",
            Layer::Dedup => "dedup",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a hook left the funnel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// Passed every layer.
    Run,
    /// Stopped at this layer; `Considered::detail` says why.
    Stopped(Layer),
}

/// One hook as the funnel saw it.
#[derive(Debug, Clone)]
pub struct Considered {
    /// Index into [`Settings::hooks`].
    pub hook: usize,
    pub stage: Stage,
    /// Why it stopped (with the values compared), or empty.
    pub detail: String,
    /// Shown to the person at the host (`systemMessage`) and in the report.
    pub warnings: Vec<String>,
    /// Report only.
    pub notes: Vec<String>,
}

impl Considered {
    pub fn runs(&self) -> bool {
        self.stage == Stage::Run
    }

    /// Why the funnel stopped the hook, with the values compared.
    pub fn why(&self, settings: &Settings, event: &crate::catalog::EventId) -> String {
        match self.stage {
            Stage::Stopped(Layer::Event) if self.detail.is_empty() => format!(
                "listed under {}, this is {}",
                settings.hooks[self.hook].event.name(),
                event.name()
            ),
            _ => self.detail.clone(),
        }
    }
}

/// What the funnel needs besides the settings.
#[derive(Debug, Clone, Copy)]
pub struct SelectContext<'a> {
    pub event: &'a Event,
    pub project_dir: &'a Path,
    pub home: Option<&'a Path>,
}

/// Runs every hook of `settings` through the funnel, in load order.
pub fn select(settings: &Settings, cx: &SelectContext<'_>) -> Vec<Considered> {
    select_until(settings, cx, None)
}

/// [`select`], never past `until` (the fire's deadline): a matcher on the
/// backtracking engine gets at most the time left, and one that runs out
/// does not filter (SPEC §4.4), with a warning.
pub fn select_until(
    settings: &Settings,
    cx: &SelectContext<'_>,
    until: Option<Instant>,
) -> Vec<Considered> {
    let disabled = DisableAll::from(settings);
    let match_value = cx.event.match_value();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(settings.hooks.len());
    for (index, hook) in settings.hooks.iter().enumerate() {
        let mut considered = Considered {
            hook: index,
            stage: Stage::Run,
            detail: String::new(),
            warnings: Vec::new(),
            notes: Vec::new(),
        };
        if let Some((layer, detail)) = funnel(
            settings,
            hook,
            cx,
            &disabled,
            (&match_value, until),
            &mut considered,
        ) {
            considered.stage = Stage::Stopped(layer);
            considered.detail = detail;
        } else {
            let key = dedup_key(hook, &settings.file_of(hook).dir);
            if let Some(first) = seen.get(&key) {
                let kept = &settings.hooks[out_hook(&out, *first)];
                considered.stage = Stage::Stopped(Layer::Dedup);
                considered.detail = format!(
                    "same hook as {} at {} (runs once per fire)",
                    settings.file_of(kept).path().display(),
                    kept.json_path
                );
            } else {
                seen.insert(key, out.len());
            }
        }
        out.push(considered);
    }
    out
}

fn out_hook(out: &[Considered], position: usize) -> usize {
    out[position].hook
}

/// The layers before dedup; `Some((layer, why))` when the hook stops.
fn funnel(
    settings: &Settings,
    hook: &HookDef,
    cx: &SelectContext<'_>,
    disabled: &DisableAll,
    (match_value, until): (&str, Option<Instant>),
    considered: &mut Considered,
) -> Option<(Layer, String)> {
    let file = settings.file_of(hook);
    if !file.trust.is_trusted() {
        // Only inspection loads untrusted files; this layer makes sure
        // nothing in them can ever run.
        return Some((
            Layer::Trust,
            format!(
                "{} is {}; trust it with `hookrun trust`",
                file.path().display(),
                file.trust.as_str()
            ),
        ));
    }
    if let Some(why) = disabled.reason(settings, file.kind()) {
        return Some((Layer::Policy, why));
    }
    if let Some(why) = managed_policy_drop(settings, &disabled.policy, hook) {
        // Reported in the fire's warnings when it would have run here.
        if hook.event == cx.event.id {
            considered
                .warnings
                .push(format!("hook {} did not run: {why}", hook.display_name()));
        }
        return Some((Layer::Policy, why));
    }
    let event = &cx.event.id;
    if hook.event != *event {
        // The common case (most hooks are for other events): no text is
        // built here; `Considered::why` words it when someone asks.
        return Some((Layer::Event, String::new()));
    }
    if let Some(stop) = literal_prefix_miss(hook.matcher.as_deref(), event, match_value) {
        return Some(stop);
    }
    match event.match_field() {
        MatchField::None => {
            if hook
                .matcher
                .as_deref()
                .is_some_and(|m| !m.is_empty() && m != "*")
            {
                considered.notes.push(format!(
                    "`matcher` is ignored: {} has no match field",
                    event.name()
                ));
            }
        }
        MatchField::Key(_) | MatchField::Basename(_) => {
            let strict = event.spec().is_some_and(|spec| spec.strict_matcher_chars);
            let matcher = Matcher::compile(hook.matcher.as_deref(), strict);
            if let Matcher::Invalid(error) = &matcher {
                considered.warnings.push(format!(
                    "hook {}: matcher {:?} is not a valid regex ({error}); the hook runs unfiltered",
                    hook.display_name(),
                    shorten(hook.matcher.as_deref().unwrap_or_default(), 120)
                ));
            } else {
                match matcher.matches_until(match_value, until) {
                    MatchOutcome::Match => {}
                    MatchOutcome::OutOfTime => considered.warnings.push(format!(
                        "hook {}: matcher {:?} did not finish within {} ms against {} {:?} (it needs the backtracking engine); the hook runs unfiltered",
                        hook.display_name(),
                        hook.matcher.as_deref().unwrap_or_default(),
                        matcher::BACKTRACKING_BUDGET.as_millis(),
                        match_field_name(event.match_field()),
                        shorten(match_value, 80),
                    )),
                    MatchOutcome::NoMatch => return Some((
                    Layer::Matcher,
                    format!(
                        "matcher {:?} does not match {} {:?}",
                        hook.matcher.as_deref().unwrap_or_default(),
                        match_field_name(event.match_field()),
                        match_value
                    ),
                    )),
                }
            }
        }
    }
    if let Some(text) = hook.if_rule.as_deref() {
        if let Some(stop) = check_if(settings, hook, text, cx, considered) {
            return Some(stop);
        }
    }
    None
}

/// A regex matcher of the shape `^literal` or `^literal.*` (letters,
/// digits, `_`; `^mcp__github__.*` is the common one) that the value does
/// not start with: stopped without compiling a regex, which is most of what
/// such a hook costs a fire that it does not concern. `None`: any other
/// matcher, or a value that passes, for the regex engine to judge as usual.
fn literal_prefix_miss(
    matcher: Option<&str>,
    event: &crate::catalog::EventId,
    match_value: &str,
) -> Option<(Layer, String)> {
    let field = event.match_field();
    if field == MatchField::None {
        return None;
    }
    let pattern = matcher?;
    let body = pattern.strip_prefix('^')?;
    let literal = body.strip_suffix(".*").unwrap_or(body);
    let plain = !literal.is_empty()
        && literal
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !plain || match_value.starts_with(literal) {
        return None;
    }
    Some((
        Layer::Matcher,
        format!(
            "matcher {pattern:?} does not match {} {match_value:?}",
            match_field_name(field)
        ),
    ))
}

fn match_field_name(field: MatchField) -> String {
    match field {
        MatchField::None => "nothing".into(),
        MatchField::Key(key) => key.into(),
        MatchField::Basename(key) => format!("basename of {key}"),
    }
}

fn check_if(
    settings: &Settings,
    hook: &HookDef,
    text: &str,
    cx: &SelectContext<'_>,
    considered: &mut Considered,
) -> Option<(Layer, String)> {
    let event = cx.event;
    if !event.id.has_tool() {
        let why = format!(
            "`if` only applies to tool events; {} has no tool, so this hook never runs here",
            event.id.name()
        );
        considered
            .warnings
            .push(format!("hook {}: {why}", hook.display_name()));
        return Some((Layer::If, why));
    }
    let rule = match Rule::parse_cached(text) {
        Ok(rule) => rule,
        Err(err) => {
            considered.warnings.push(format!(
                "hook {}: {err}; the hook runs unfiltered",
                hook.display_name()
            ));
            return None;
        }
    };
    let file = settings.file_of(hook);
    let cwd = event.cwd().unwrap_or_else(|| cx.project_dir.to_path_buf());
    let anchor = if file.kind().is_project_scoped() {
        cx.project_dir
    } else {
        file.dir.as_path()
    };
    let paths = PathContext {
        cwd: &cwd,
        home: cx.home,
        anchor,
    };
    let null = Value::Null;
    let call = ToolCall {
        tool_name: event.tool_name().unwrap_or_default(),
        tool_input: event.tool_input().unwrap_or(&null),
    };
    match rule.matches_any(call, &paths) {
        RuleMatch::Match => None,
        RuleMatch::FailOpen(why) => {
            considered
                .notes
                .push(format!("`if` {text} matched by failing open: {why}"));
            None
        }
        RuleMatch::NoMatch => Some((
            Layer::If,
            format!("`if` {text} does not match {}", describe_call(call)),
        )),
    }
}

fn describe_call(call: ToolCall<'_>) -> String {
    let input = call.tool_input;
    for key in [
        "command",
        "file_path",
        "notebook_path",
        "url",
        "subagent_type",
        "path",
        "query",
        "pattern",
    ] {
        if let Some(value) = input.get(key).and_then(Value::as_str) {
            return format!("{} {key} {value:?}", call.tool_name);
        }
    }
    format!("tool {:?}", call.tool_name)
}

/// The dedup key (SPEC §4.5): type + command (+ args) or url, + `if`, with
/// `${HOOKRUN_CONFIG_DIR}` resolved to the declaring file's directory.
pub fn dedup_key(hook: &HookDef, config_dir: &Path) -> String {
    let dir = config_dir.to_string_lossy();
    let resolve = |text: &str| {
        text.replace("${HOOKRUN_CONFIG_DIR}", &dir)
            .replace("$HOOKRUN_CONFIG_DIR", &dir)
    };
    let target = match hook.hook_type {
        HookType::Http => resolve(hook.url.as_deref().unwrap_or_default()),
        // Identical prompts run once, whatever their model (as in Claude Code).
        HookType::Prompt => hook
            .prompt
            .as_ref()
            .map(|p| p.text.clone())
            .unwrap_or_default(),
        HookType::Command | HookType::Unsupported(_) => {
            let mut parts = vec![resolve(hook.command.as_deref().unwrap_or_default())];
            if let Some(args) = &hook.args {
                parts.extend(args.iter().map(|a| resolve(a)));
            }
            serde_json::to_string(&parts).unwrap_or_default()
        }
    };
    format!(
        "{}\u{0}{}\u{0}{}",
        hook.hook_type.as_str(),
        target,
        hook.if_rule.as_deref().unwrap_or_default()
    )
}

/// The managed policy keys of SPEC §9.4 that drop individual hooks.
fn managed_policy_drop(settings: &Settings, policy: &Policy, hook: &HookDef) -> Option<String> {
    let kind = settings.file_of(hook).kind();
    if policy.allow_managed_hooks_only && kind != SourceKind::Managed {
        return Some(format!(
            "managed settings allow only managed hooks (allowManagedHooksOnly), and this one is from {} settings",
            kind.as_str()
        ));
    }
    if let Some(sources) = &policy.allowed_hook_sources {
        if !sources.contains(&kind) {
            let allowed: Vec<&str> = sources.iter().map(|k| k.as_str()).collect();
            return Some(format!(
                "managed allowedHookSources [{}] does not include {} settings",
                allowed.join(", "),
                kind.as_str()
            ));
        }
    }
    if policy.blocked_commands.iter().all(String::is_empty) {
        // The usual case: nothing to search for, so no text is built.
        return None;
    }
    let haystack = [
        hook.command.as_deref().unwrap_or_default().to_owned(),
        hook.args.as_ref().map(|a| a.join(" ")).unwrap_or_default(),
        hook.url.as_deref().unwrap_or_default().to_owned(),
    ]
    .join(" ");
    policy
        .blocked_commands
        .iter()
        .find(|blocked| !blocked.is_empty() && haystack.contains(blocked.as_str()))
        .map(|blocked| {
            format!("its command contains {blocked:?}, listed in managed blockedCommands")
        })
}

/// `disableAllHooks` (SPEC §9.4): a managed `true` disables everything; in
/// other files the last one that sets the key decides for non-managed hooks.
struct DisableAll {
    managed: Option<usize>,
    others: Option<usize>,
    /// The managed policy, read once per selection.
    policy: Policy,
}

impl DisableAll {
    fn from(settings: &Settings) -> DisableAll {
        let mut managed = None;
        let mut others = None;
        for (index, file) in settings.files.iter().enumerate() {
            let Some(flag) = file.disable_all_hooks.filter(|_| file.trust.is_trusted()) else {
                continue;
            };
            if file.kind() == SourceKind::Managed {
                if flag {
                    managed = Some(index);
                }
            } else {
                others = flag.then_some(index);
            }
        }
        DisableAll {
            managed,
            others,
            policy: settings.policy(),
        }
    }

    fn reason(&self, settings: &Settings, kind: SourceKind) -> Option<String> {
        let index = self.managed.or(if kind == SourceKind::Managed {
            None
        } else {
            self.others
        })?;
        Some(format!(
            "disableAllHooks is true in {}",
            settings.files[index].path().display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::EventId;

    #[test]
    fn a_literal_prefix_matcher_is_judged_without_a_regex_exactly_as_the_regex_would() {
        let pre = EventId::resolve("PreToolUse");
        let stop = EventId::resolve("Stop");
        for (pattern, value) in [
            ("^mcp__github__.*", "mcp__github__create_issue"),
            ("^mcp__github__.*", "Bash"),
            ("^mcp__github__", "mcp__gitlab__x"),
            ("^Bash", "Bash"),
            ("^Bash.*", "BashOutput"),
            ("^Bash", "bash"),
        ] {
            let regex = Matcher::compile(Some(pattern), false).matches(value);
            let miss = literal_prefix_miss(Some(pattern), &pre, value);
            assert_eq!(miss.is_none(), regex, "{pattern} on {value}");
            if let Some((layer, detail)) = miss {
                assert_eq!(layer, Layer::Matcher);
                assert!(
                    detail.contains(pattern) && detail.contains(value),
                    "{detail}"
                );
            }
        }
        // Other shapes go to the regex engine.
        for pattern in [
            "^mcp__.*__create",
            "mcp__github__.*",
            "^a|^b",
            "^",
            "^.*",
            "^Bash$",
        ] {
            assert!(
                literal_prefix_miss(Some(pattern), &pre, "zzz").is_none(),
                "{pattern}"
            );
        }
        // Events without a match field ignore the matcher.
        assert!(literal_prefix_miss(Some("^mcp__x"), &stop, "").is_none());
    }
}

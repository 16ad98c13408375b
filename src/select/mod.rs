//! Selection: the matcher funnel (SPEC §4).
//!
//! trust → policy → event → matcher → `if` → dedup, cheapest test first, in
//! load order. One implementation serves `fire`, `explain` and `list`, so
//! what they say can never drift apart. Pure: nothing is spawned and no
//! event JSON is serialised here.

pub(crate) mod effects;
pub(crate) mod file_pattern;
pub mod matcher;
pub(crate) mod mistakes;
pub mod path_style;
pub mod reading;
pub mod rule;
pub mod shell;
pub(crate) mod tools;
mod wildcard;

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use serde_json::Value;

use crate::catalog::MatchField;
use crate::event::Event;
use crate::notices::Notices;
use crate::settings::model::Policy;
use crate::settings::{HookAction, HookDef, Settings, SourceKind};
use crate::text::shorten;
use matcher::{MatchOutcome, Matcher};
use reading::ToolCall;
use rule::{PathContext, Rule, RuleMatch};

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
    /// Why it stopped, for the rare layers that word it as they stop the
    /// hook (trust, policy, dedup); empty otherwise. Private, so that no
    /// reader takes the empty text for the reason: [`Considered::why`]
    /// always has it, [`Considered::said`] has this one.
    detail: Box<str>,
    /// Which test stopped the hook when `detail` is not written up front:
    /// the common layers keep only this, and [`Considered::why`] words it
    /// (with the values compared) when a report, log or `explain` asks.
    cause: Cause,
    /// What the funnel found about this hook: warnings (shown to the
    /// person at the host and in the report), notes (report only).
    pub notices: Notices,
    /// Its [`dedup_key`], for a hook the funnel let through (planning keeps
    /// it for `once` claims and leak notices instead of making it again).
    /// Boxed, as `detail` is: a hook's entry stays small enough to move
    /// without a copy loop (500 hooks make 500 of them).
    pub dedup_key: Option<Box<str>>,
}

impl Considered {
    pub fn runs(&self) -> bool {
        self.stage == Stage::Run
    }

    /// The reason of a hook the trust, policy or dedup layer stopped, as
    /// worded when it stopped; `None` for the other layers (ask
    /// [`Considered::why`], which words every reason).
    pub fn said(&self) -> Option<&str> {
        (matches!(self.cause, Cause::Said) && !self.runs()).then_some(&*self.detail)
    }

    /// Why the funnel stopped the hook, with the values compared (`event`:
    /// the event the selection ran on).
    pub fn why(&self, settings: &Settings, event: &Event) -> String {
        let hook = &settings.hooks[self.hook];
        match self.cause {
            Cause::Said => self.detail.to_string(),
            Cause::OtherEvent => format!(
                "listed under {}, this is {}",
                hook.event.name(),
                event.id.name()
            ),
            Cause::Matcher => format!(
                "matcher {:?} does not match {} {:?}",
                hook.matcher.as_deref().unwrap_or_default(),
                match_field_name(event.id.match_field()),
                event.match_value()
            ),
            Cause::If(ref call) => format!(
                "`if` {} does not match {call}",
                hook.if_rule.as_deref().unwrap_or_default(),
            ),
        }
    }
}

/// Which test stopped a hook, for [`Considered::why`] to word on demand:
/// formatting the reason for every dropped hook (most hooks of a fire are
/// dropped) was most of what the funnel cost when no one read it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cause {
    /// `Considered::detail` says why (or the hook was not stopped).
    Said,
    /// The hook is listed under another event.
    OtherEvent,
    /// Its matcher does not match the event's match field.
    Matcher,
    /// Its `if` rule does not match the event's tool call, described as
    /// the selection saw it (a hook may update the tool input later); one
    /// description shared by every hook of the selection.
    If(Arc<str>),
}

/// A stopped hook's layer and reason, as the layers return it.
type Stop = (Layer, Reason);

/// The reason of a [`Stop`]: written up front, or worded on demand.
enum Reason {
    Said(String),
    Lazy(Cause),
}

/// What the funnel needs besides the settings.
#[derive(Debug, Clone, Copy)]
pub struct SelectContext<'a> {
    pub event: &'a Event,
    pub project_dir: &'a Path,
    pub home: Option<&'a Path>,
}

impl<'a> SelectContext<'a> {
    /// What the funnel reads of the fire's context, for `event`.
    pub(crate) fn new(
        cx: &'a crate::context::FireContext<'_>,
        event: &'a Event,
    ) -> SelectContext<'a> {
        SelectContext {
            event,
            project_dir: cx.project_dir,
            home: cx.home(),
        }
    }
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
    let call = EventCall::new(cx);
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(settings.hooks.len());
    for (index, hook) in settings.hooks.iter().enumerate() {
        let mut considered = Considered {
            hook: index,
            stage: Stage::Run,
            detail: Box::default(),
            cause: Cause::Said,
            notices: Notices::default(),
            dedup_key: None,
        };
        if let Some((layer, reason)) = funnel(
            settings,
            hook,
            cx,
            &disabled,
            (&match_value, until, &call),
            &mut considered,
        ) {
            considered.stage = Stage::Stopped(layer);
            match reason {
                Reason::Said(detail) => considered.detail = detail.into_boxed_str(),
                Reason::Lazy(cause) => considered.cause = cause,
            }
        } else {
            let key = dedup_key(hook, &settings.file_of(hook).dir);
            if let Some(first) = seen.get(&key) {
                let kept = &settings.hooks[out_hook(&out, *first)];
                considered.stage = Stage::Stopped(Layer::Dedup);
                considered.detail = format!(
                    "same hook as {} at {} (runs once per fire)",
                    settings.file_of(kept).path().display(),
                    kept.json_path
                )
                .into_boxed_str();
            } else {
                considered.dedup_key = Some(key.as_str().into());
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

/// What the `if` layer reads from the event, read once per selection rather
/// than once per hook.
struct EventCall<'a> {
    cwd: std::path::PathBuf,
    tool_name: &'a str,
    /// Its `tool_input` is read when an `if` rule asks (a long string in it
    /// is decoded only then).
    event: &'a Event,
    /// [`describe_call`] of the event, once a hook's `if` rule misses.
    described: OnceLock<Arc<str>>,
}

impl<'a> EventCall<'a> {
    fn new(cx: &SelectContext<'a>) -> EventCall<'a> {
        EventCall {
            cwd: cx
                .event
                .cwd()
                .unwrap_or_else(|| cx.project_dir.to_path_buf()),
            tool_name: cx.event.tool_name().unwrap_or_default(),
            event: cx.event,
            described: OnceLock::new(),
        }
    }
}

/// The layers before dedup; `Some((layer, why))` when the hook stops.
fn funnel(
    settings: &Settings,
    hook: &HookDef,
    cx: &SelectContext<'_>,
    disabled: &DisableAll,
    (match_value, until, call): (&str, Option<Instant>, &EventCall<'_>),
    considered: &mut Considered,
) -> Option<Stop> {
    let file = settings.file_of(hook);
    if !file.trust.is_trusted() {
        // Only inspection loads untrusted files; this layer makes sure
        // nothing in them can ever run.
        return Some((
            Layer::Trust,
            Reason::Said(format!(
                "{} is {}; trust it with `hookrun trust`",
                file.path().display(),
                file.trust.as_str()
            )),
        ));
    }
    if let Some(why) = disabled.reason(settings, file.kind()) {
        return Some((Layer::Policy, Reason::Said(why)));
    }
    if let Some(why) = managed_policy_drop(settings, &disabled.policy, hook) {
        // Reported in the fire's warnings when it would have run here.
        if hook.event == cx.event.id {
            considered
                .notices
                .warnings
                .push(format!("hook {} did not run: {why}", hook.display_name()));
        }
        return Some((Layer::Policy, Reason::Said(why)));
    }
    let event = &cx.event.id;
    if !event.runs_hooks_of(&hook.event) {
        // The common case (most hooks are for other events): no text is
        // built here; `Considered::why` words it when someone asks.
        return Some((Layer::Event, Reason::Lazy(Cause::OtherEvent)));
    }
    let matcher_miss = (Layer::Matcher, Reason::Lazy(Cause::Matcher));
    if literal_prefix_miss(hook.matcher.as_deref(), event, match_value) {
        return Some(matcher_miss);
    }
    match event.match_field() {
        MatchField::None => {
            if hook
                .matcher
                .as_deref()
                .is_some_and(|m| !m.is_empty() && m != "*")
            {
                considered.notices.notes.push(format!(
                    "`matcher` is ignored: {} has no match field",
                    event.name()
                ));
            }
        }
        MatchField::Key(_) | MatchField::Basename(_) | MatchField::Model(_) => {
            let strict = event.spec().is_some_and(|spec| spec.strict_matcher_chars);
            // Absent, `*` and exact-name lists are judged without compiling
            // (they can neither fail nor warn).
            if let Some(passes) =
                Matcher::quick_verdict(hook.matcher.as_deref(), strict, match_value)
            {
                if !passes {
                    return Some(matcher_miss);
                }
            } else {
                let matcher = Matcher::compile(hook.matcher.as_deref(), strict);
                if let Some(stop) = judge_compiled(hook, &matcher, (match_value, until), considered)
                {
                    return Some(stop);
                }
            }
        }
    }
    if let Some(text) = hook.if_rule.as_deref() {
        if let Some(stop) = check_if(settings, hook, text, cx, call, considered) {
            return Some(stop);
        }
    }
    None
}

/// The matcher layer for a compiled (regex or invalid) matcher.
fn judge_compiled(
    hook: &HookDef,
    matcher: &Matcher,
    (match_value, until): (&str, Option<Instant>),
    considered: &mut Considered,
) -> Option<Stop> {
    if let Matcher::Invalid(error) = matcher {
        considered.notices.warnings.push(format!(
            "hook {}: matcher {:?} is not a valid regex ({error}); the hook runs unfiltered",
            hook.display_name(),
            shorten(hook.matcher.as_deref().unwrap_or_default(), 120)
        ));
        return None;
    }
    match matcher.matches_until(match_value, until) {
        MatchOutcome::Match => None,
        MatchOutcome::OutOfTime => {
            considered.notices.warnings.push(format!(
                "hook {}: matcher {:?} did not finish within {} ms against {} {:?} (it needs the backtracking engine); the hook runs unfiltered",
                hook.display_name(),
                hook.matcher.as_deref().unwrap_or_default(),
                matcher::BACKTRACKING_BUDGET.as_millis(),
                match_field_name(hook.event.match_field()),
                shorten(match_value, 80),
            ));
            None
        }
        MatchOutcome::NoMatch => Some((Layer::Matcher, Reason::Lazy(Cause::Matcher))),
    }
}

/// A regex matcher of the shape `^literal` or `^literal.*` (letters,
/// digits, `_`; `^mcp__github__.*` is the common one) that the value does
/// not start with: stopped without compiling a regex, which is most of what
/// such a hook costs a fire that it does not concern. `false`: any other
/// matcher, or a value that passes, for the regex engine to judge as usual.
fn literal_prefix_miss(
    matcher: Option<&str>,
    event: &crate::catalog::EventId,
    match_value: &str,
) -> bool {
    if event.match_field() == MatchField::None {
        return false;
    }
    let Some(body) = matcher.and_then(|pattern| pattern.strip_prefix('^')) else {
        return false;
    };
    let literal = body.strip_suffix(".*").unwrap_or(body);
    let plain = !literal.is_empty()
        && literal
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    plain && !match_value.starts_with(literal)
}

fn match_field_name(field: MatchField) -> String {
    match field {
        MatchField::None => "nothing".into(),
        MatchField::Key(key) => key.into(),
        MatchField::Basename(key) => format!("basename of {key}"),
        MatchField::Model(key) => format!("{key} (without a [1m] suffix)"),
    }
}

fn check_if(
    settings: &Settings,
    hook: &HookDef,
    text: &str,
    cx: &SelectContext<'_>,
    event_call: &EventCall<'_>,
    considered: &mut Considered,
) -> Option<Stop> {
    let event = cx.event;
    if !event.id.has_tool() {
        let why = format!(
            "`if` only applies to tool events; {} has no tool, so this hook never runs here",
            event.id.name()
        );
        considered
            .notices
            .warnings
            .push(format!("hook {}: {why}", hook.display_name()));
        return Some((Layer::If, Reason::Said(why)));
    }
    let rule = match Rule::parse_cached(text) {
        Ok(rule) => rule,
        Err(err) => {
            considered.notices.warnings.push(format!(
                "hook {}: {err}; the hook runs unfiltered",
                hook.display_name()
            ));
            return None;
        }
    };
    let anchor = settings.file_of(hook).rule_anchor();
    let paths = PathContext {
        cwd: &event_call.cwd,
        home: cx.home,
        anchor,
        style: crate::select::path_style::PathStyle::native(),
    };
    let null = Value::Null;
    let call = ToolCall {
        tool_name: event_call.tool_name,
        tool_input: event_call.event.tool_input().unwrap_or(&null),
    };
    match rule.matches_any(call, &paths) {
        RuleMatch::Match => None,
        RuleMatch::FailOpen(why) => {
            considered
                .notices
                .notes
                .push(format!("`if` {text} matched by failing open: {why}"));
            None
        }
        RuleMatch::NoMatch => {
            let described = event_call
                .described
                .get_or_init(|| describe_call(call).into());
            Some((Layer::If, Reason::Lazy(Cause::If(Arc::clone(described)))))
        }
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
    let target = match &hook.action {
        HookAction::Http(http) => resolve(&http.url),
        // Identical prompts run once, whatever their model (as in Claude Code).
        HookAction::Prompt(prompt) => prompt.text.clone(),
        // Agent hooks likewise, apart from prompt hooks with the same text.
        HookAction::Agent(prompt) => format!("agent:{}", prompt.text),
        // The same tool of the same server with the same input runs once.
        HookAction::McpTool(m) => {
            serde_json::to_string(&(&m.server, &m.tool, &m.input)).unwrap_or_default()
        }
        HookAction::Command(_) | HookAction::Unsupported(_) => {
            let (command, args) = hook.action.command_text().unwrap_or_default();
            let mut parts = vec![resolve(command)];
            if let Some(args) = args {
                parts.extend(args.iter().map(|a| resolve(a)));
            }
            serde_json::to_string(&parts).unwrap_or_default()
        }
    };
    format!(
        "{}\u{0}{}\u{0}{}",
        hook.kind_name(),
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
    let (command, args) = hook.action.command_text().unwrap_or_default();
    let url = match &hook.action {
        HookAction::Http(http) => Some(http.url.as_str()),
        HookAction::Unsupported(def) => def.url.as_deref(),
        _ => None,
    };
    let haystack = [
        command.to_owned(),
        args.map(|a| a.join(" ")).unwrap_or_default(),
        url.unwrap_or_default().to_owned(),
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

    #[test]
    fn a_considered_hook_moves_without_a_copy_loop() {
        // The funnel makes one per hook; past 128 bytes each move is a
        // memcpy call (measured: +1.5% instructions for 500 hooks).
        let size = std::mem::size_of::<Considered>();
        assert!(size <= 128, "Considered is {size} bytes");
    }
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
            assert_eq!(!miss, regex, "{pattern} on {value}");
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
                !literal_prefix_miss(Some(pattern), &pre, "zzz"),
                "{pattern}"
            );
        }
        // Events without a match field ignore the matcher.
        assert!(!literal_prefix_miss(Some("^mcp__x"), &stop, ""));
    }
}

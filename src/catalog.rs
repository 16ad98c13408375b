//! The event catalog (SPEC §2, §5.7, §7.3) as data.
//!
//! Owns every per-event fact: the canonical name, what `matcher` is compared
//! with, what a block means (the tier), how the answer is encoded, the host's
//! own timeout. Adding an event is one row in [`CATALOG`]; no other module
//! may branch on event names.

use std::time::Duration;

/// What a block from a hook means on an event (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tier {
    /// The action does not happen.
    Block,
    /// The action already happened; the reason goes to the model.
    Feedback,
    /// Received but not enforced; reported as `[hook block ignored]`.
    Downgraded,
    /// The hook runs and is reported; it never changes the answer.
    Ignored,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Block => "block",
            Tier::Feedback => "feedback",
            Tier::Downgraded => "downgraded",
            Tier::Ignored => "ignored",
        }
    }

    /// Whether a block from a hook stands on this tier.
    pub fn enforces_blocks(self) -> bool {
        matches!(self, Tier::Block | Tier::Feedback)
    }
}

/// What `matcher` is compared with (SPEC §2 "match field").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchField {
    /// The event has none: a `matcher` is ignored (and `doctor` says so).
    None,
    /// A top-level string field of the input.
    Key(&'static str),
    /// The last path component of a top-level string field.
    Basename(&'static str),
    /// A model id (`to_model`), without the context-window suffix Claude
    /// Code strips before matching (`[1m]`, `[2m]`); a matcher's own
    /// suffixes are stripped when the settings load.
    Model(&'static str),
}

/// How the aggregated answer is written for an event (SPEC §7.3 rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    PreToolUse,
    /// `PreSkillShellCommand`: a skill's shell command, answered like a
    /// PreToolUse without context (Claude Code applies no rewrite: any
    /// `updatedInput`, `ask` or `defer` keeps the command from running).
    SkillShell,
    /// `PreModelSwitch`: `permissionDecision` allow, deny or ask.
    ModelSwitch,
    PermissionRequest,
    Elicitation,
    /// `UserPromptSubmit`, `UserPromptExpansion`.
    Prompt,
    /// `PostToolUse`, `PostToolUseFailure`.
    PostTool,
    PostToolBatch,
    /// `PreCompact`, `ConfigChange`, `TaskCreated`: `{"decision":"block"}` + exit 2.
    DecisionBlock,
    /// Stop, `SubagentStop`: exit 2 and the reason on stderr, no decision JSON.
    Stop,
    /// Exit 2 and stderr only (`TeammateIdle`, `TaskCompleted`, LLM-layer events).
    ExitOnly,
    /// `SessionStart`, Setup, `SubagentStart`.
    SessionStart,
    /// `additionalContext` only, never a block (`PostModelSwitch`: it
    /// reaches the model with the next request).
    Context,
    WorktreeCreate,
    /// `CwdChanged`, `FileChanged`: `HSO{watchPaths}`.
    WatchPaths,
    PermissionDenied,
    MessageDisplay,
    /// Universal fields only.
    Plain,
    /// Not in the catalog: blocks as exit 2, hooks' HSO keys merged verbatim.
    Unknown,
}

/// Where an event sits in one tool call (`tool_use_id` pairs them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolCall {
    /// Not part of a tool call.
    None,
    /// Before the tool runs (`PreToolUse`).
    Before,
    /// After it ran, successfully or not.
    After,
}

/// The `hookSpecificOutput` fields of one encoding: the columns of the
/// "fields" table of docs/protocol.md.
#[derive(Debug, Clone, Copy)]
pub struct HookFields {
    /// What a hook may set beyond `hookEventName` (anything else is ignored
    /// with a warning).
    pub accepted: &'static [&'static str],
    /// Of those, the ones copied verbatim from the hooks' (aggregated)
    /// answers into the host's `hookSpecificOutput`; the others are read by
    /// hookrun (decisions, context, input changes).
    pub passthrough: &'static [&'static str],
}

impl Encoding {
    /// Which hook-specific fields this encoding honours: one table, read by
    /// the protocol of one hook and by the host's encoder alike.
    pub fn hook_fields(self) -> HookFields {
        let (accepted, passthrough): (&[&str], &[&str]) = match self {
            Encoding::PreToolUse => (
                &[
                    "permissionDecision",
                    "permissionDecisionReason",
                    "updatedInput",
                    "tool_input",
                    "additionalContext",
                ],
                &[],
            ),
            Encoding::SkillShell => (
                &[
                    "permissionDecision",
                    "permissionDecisionReason",
                    "updatedInput",
                ],
                &[],
            ),
            Encoding::ModelSwitch => (&["permissionDecision", "permissionDecisionReason"], &[]),
            // `decision.updatedPermissions` / `decision.interrupt` are
            // nested: the encoder places them inside `decision`.
            Encoding::PermissionRequest => (&["decision"], &[]),
            Encoding::Elicitation => (&["action", "content"], &["action", "content"]),
            Encoding::Prompt => (
                &[
                    "additionalContext",
                    "sessionTitle",
                    "suppressOriginalPrompt",
                ],
                &["sessionTitle", "suppressOriginalPrompt"],
            ),
            Encoding::PostTool => (
                &[
                    "additionalContext",
                    "updatedToolOutput",
                    "updatedMCPToolOutput",
                    "classifierContext",
                ],
                &[
                    "updatedToolOutput",
                    "updatedMCPToolOutput",
                    "classifierContext",
                ],
            ),
            Encoding::PostToolBatch | Encoding::Stop | Encoding::Context => {
                (&["additionalContext"], &[])
            }
            Encoding::SessionStart => (
                &[
                    "additionalContext",
                    "sessionTitle",
                    "initialUserMessage",
                    "watchPaths",
                    "reloadSkills",
                ],
                &[
                    "sessionTitle",
                    "initialUserMessage",
                    "watchPaths",
                    "reloadSkills",
                ],
            ),
            Encoding::WorktreeCreate => (&["worktreePath"], &[]),
            Encoding::WatchPaths => (&["watchPaths"], &["watchPaths"]),
            Encoding::PermissionDenied => (&["retry"], &["retry"]),
            Encoding::MessageDisplay => (&["displayContent"], &["displayContent"]),
            // Unknown events: every field passes (see `passes_everything`).
            Encoding::DecisionBlock | Encoding::ExitOnly | Encoding::Plain | Encoding::Unknown => {
                (&[], &[])
            }
        };
        HookFields {
            accepted,
            passthrough,
        }
    }

    /// An event the catalog does not know: its hooks' fields are neither
    /// checked nor interpreted, only passed on.
    pub fn passes_everything(self) -> bool {
        self == Encoding::Unknown
    }
}

/// The tools a skill's shell command names (`PreSkillShellCommand`'s
/// `tool_name`): its Bash and PowerShell rules and hooks judge it.
pub const SKILL_SHELL_TOOLS: &[&str] = &["Bash", "PowerShell"];

/// Answer fields Claude Code reads only from its own desktop host or
/// plugins (marked internal in its schema): known, so never called unknown,
/// and ignored with a note. Top-level fields first, then
/// `hookSpecificOutput` ones.
pub const INTERNAL_ANSWER_FIELDS: &[&str] = &[
    "metrics",
    "rewakeSummary",
    "permissionDisplay",
    "permissionDecisionReasonCode",
];

/// `hookSpecificOutput` fields Claude Code's schema accepts but its code
/// never reads (2.1.337): known, and a hook that sets one is told it has
/// no effect there.
pub const CLAUDE_UNREAD_FIELDS: &[(&str, &str)] = &[("Notification", "additionalContext")];

/// Declares [`KnownEvent`], one variant per catalog row, in the catalog's
/// order: the variant's name is the event's canonical name.
macro_rules! known_events {
    ($($event:ident),* $(,)?) => {
        /// An event of the catalog, one variant per row of [`CATALOG`] (in
        /// its order), so that code branching on an event is checked by
        /// the compiler; [`KnownEvent::spec`] is the row.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum KnownEvent {
            $($event),*
        }

        impl KnownEvent {
            /// Every known event, in the catalog's order.
            pub const ALL: &'static [KnownEvent] = &[$(KnownEvent::$event),*];

            /// The canonical name (`PreToolUse`).
            pub const fn name(self) -> &'static str {
                match self {
                    $(KnownEvent::$event => stringify!($event)),*
                }
            }
        }
    };
}

known_events! {
    PreToolUse,
    PermissionRequest,
    PermissionDenied,
    PostToolUse,
    PostToolUseFailure,
    PostToolBatch,
    UserPromptSubmit,
    UserPromptExpansion,
    MessageDisplay,
    Stop,
    SubagentStop,
    StopFailure,
    SubagentStart,
    SessionStart,
    SessionEnd,
    Setup,
    InstructionsLoaded,
    PreCompact,
    PostCompact,
    Notification,
    ConfigChange,
    CwdChanged,
    DirectoryAdded,
    FileChanged,
    TeammateIdle,
    TaskCreated,
    TaskCompleted,
    Elicitation,
    ElicitationResult,
    WorktreeCreate,
    WorktreeRemove,
    PreModelSwitch,
    PostModelSwitch,
    PreSkillShellCommand,
    Interrupt,
    BeforeModel,
    AfterModel,
    AfterAgent,
}

impl std::fmt::Display for KnownEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl KnownEvent {
    /// The event's catalog row: found by its place, no search.
    pub fn spec(self) -> &'static EventSpec {
        &CATALOG[self as usize]
    }
}

/// One row of the catalog.
#[derive(Debug)]
pub struct EventSpec {
    /// The event this row describes (its place in [`CATALOG`]).
    pub event: KnownEvent,
    /// Canonical `PascalCase` name, used in output and in `hook_event_name`.
    pub name: &'static str,
    pub match_field: MatchField,
    pub tier: Tier,
    pub encoding: Encoding,
    /// The host's own timeout for the whole hook run (SPEC §5.7).
    pub host_timeout: Duration,
    /// The default timeout of one hook (SPEC §3.2).
    pub default_hook_timeout: Duration,
    /// Plain stdout on exit 0 becomes additional context (SPEC §6.1).
    pub plain_stdout_is_context: bool,
    /// The host discards `systemMessage` here; warnings go to report and log.
    pub discards_system_message: bool,
    /// The host may set `CLAUDE_ENV_FILE` for this event (SPEC §5.2).
    pub env_file: bool,
    /// Matcher lists may only hold letters, digits and `_` (SPEC §4.2 rule 2).
    pub strict_matcher_chars: bool,
    /// Where it sits in a tool call (`stats` pairs the two ends).
    pub tool_call: ToolCall,
    /// The event whose hooks also run here, judged as for it: a skill's
    /// shell command (`PreSkillShellCommand`) is judged by the PreToolUse
    /// hooks of its tool, as a tool call is.
    pub judged_as: Option<KnownEvent>,
}

const TEN_MINUTES: Duration = Duration::from_secs(600);

const fn row(
    event: KnownEvent,
    match_field: MatchField,
    tier: Tier,
    encoding: Encoding,
) -> EventSpec {
    EventSpec {
        event,
        name: event.name(),
        match_field,
        tier,
        encoding,
        host_timeout: TEN_MINUTES,
        default_hook_timeout: TEN_MINUTES,
        plain_stdout_is_context: false,
        discards_system_message: false,
        env_file: false,
        strict_matcher_chars: false,
        tool_call: ToolCall::None,
        judged_as: None,
    }
}

const fn timeouts(mut spec: EventSpec, host: Duration, hook: Duration) -> EventSpec {
    spec.host_timeout = host;
    spec.default_hook_timeout = hook;
    spec
}

const fn plain_context(mut spec: EventSpec) -> EventSpec {
    spec.plain_stdout_is_context = true;
    spec
}

const fn discards_message(mut spec: EventSpec) -> EventSpec {
    spec.discards_system_message = true;
    spec
}

const fn env_file(mut spec: EventSpec) -> EventSpec {
    spec.env_file = true;
    spec
}

const fn strict_matcher(mut spec: EventSpec) -> EventSpec {
    spec.strict_matcher_chars = true;
    spec
}

const fn tool_call(mut spec: EventSpec, place: ToolCall) -> EventSpec {
    spec.tool_call = place;
    spec
}

const fn judged_as(mut spec: EventSpec, event: KnownEvent) -> EventSpec {
    spec.judged_as = Some(event);
    spec
}

use Encoding as E;
use KnownEvent as K;
use MatchField::{Basename, Key, Model, None as NoField};
use Tier::{Block, Downgraded, Feedback, Ignored};

/// The catalog, in the order of SPEC §2.
pub static CATALOG: &[EventSpec] = &[
    tool_call(
        row(K::PreToolUse, Key("tool_name"), Block, E::PreToolUse),
        ToolCall::Before,
    ),
    row(
        K::PermissionRequest,
        Key("tool_name"),
        Block,
        E::PermissionRequest,
    ),
    row(
        K::PermissionDenied,
        Key("tool_name"),
        Ignored,
        E::PermissionDenied,
    ),
    tool_call(
        row(K::PostToolUse, Key("tool_name"), Feedback, E::PostTool),
        ToolCall::After,
    ),
    tool_call(
        row(
            K::PostToolUseFailure,
            Key("tool_name"),
            Feedback,
            E::PostTool,
        ),
        ToolCall::After,
    ),
    row(K::PostToolBatch, NoField, Block, E::PostToolBatch),
    plain_context(timeouts(
        row(K::UserPromptSubmit, NoField, Block, E::Prompt),
        Duration::from_secs(30),
        Duration::from_secs(30),
    )),
    plain_context(row(
        K::UserPromptExpansion,
        Key("command_name"),
        Block,
        E::Prompt,
    )),
    timeouts(
        row(K::MessageDisplay, NoField, Ignored, E::MessageDisplay),
        Duration::from_secs(10),
        Duration::from_secs(10),
    ),
    row(K::Stop, NoField, Feedback, E::Stop),
    row(K::SubagentStop, Key("agent_type"), Feedback, E::Stop),
    discards_message(strict_matcher(row(
        K::StopFailure,
        Key("error"),
        Ignored,
        E::Plain,
    ))),
    row(
        K::SubagentStart,
        Key("agent_type"),
        Downgraded,
        E::SessionStart,
    ),
    env_file(plain_context(row(
        K::SessionStart,
        Key("source"),
        Downgraded,
        E::SessionStart,
    ))),
    discards_message(timeouts(
        row(K::SessionEnd, Key("reason"), Ignored, E::Plain),
        Duration::from_millis(1500),
        TEN_MINUTES,
    )),
    env_file(row(K::Setup, Key("trigger"), Downgraded, E::SessionStart)),
    discards_message(row(
        K::InstructionsLoaded,
        Key("load_reason"),
        Ignored,
        E::Plain,
    )),
    row(K::PreCompact, Key("trigger"), Block, E::DecisionBlock),
    row(K::PostCompact, Key("trigger"), Ignored, E::Plain),
    discards_message(row(
        K::Notification,
        Key("notification_type"),
        Ignored,
        E::Plain,
    )),
    row(K::ConfigChange, Key("source"), Block, E::DecisionBlock),
    env_file(row(K::CwdChanged, NoField, Ignored, E::WatchPaths)),
    row(K::DirectoryAdded, Key("source"), Ignored, E::Plain),
    env_file(strict_matcher(row(
        K::FileChanged,
        Basename("file_path"),
        Ignored,
        E::WatchPaths,
    ))),
    row(K::TeammateIdle, NoField, Feedback, E::ExitOnly),
    row(K::TaskCreated, NoField, Feedback, E::DecisionBlock),
    row(K::TaskCompleted, NoField, Feedback, E::ExitOnly),
    row(
        K::Elicitation,
        Key("mcp_server_name"),
        Block,
        E::Elicitation,
    ),
    row(
        K::ElicitationResult,
        Key("mcp_server_name"),
        Block,
        E::Elicitation,
    ),
    row(K::WorktreeCreate, NoField, Block, E::WorktreeCreate),
    row(K::WorktreeRemove, NoField, Ignored, E::Plain),
    row(K::PreModelSwitch, Model("to_model"), Block, E::ModelSwitch),
    plain_context(row(
        K::PostModelSwitch,
        Model("to_model"),
        Ignored,
        E::Context,
    )),
    judged_as(
        row(
            K::PreSkillShellCommand,
            Key("tool_name"),
            Block,
            E::SkillShell,
        ),
        K::PreToolUse,
    ),
    row(K::Interrupt, Key("source"), Ignored, E::Plain),
    row(K::BeforeModel, NoField, Block, E::ExitOnly),
    row(K::AfterModel, NoField, Block, E::ExitOnly),
    row(K::AfterAgent, NoField, Feedback, E::ExitOnly),
];

/// Events whose input carries a tool (`tool_name` + `tool_input`), the only
/// events on which an `if` rule can be evaluated (SPEC §4.3).
const TOOL_EVENTS: &[KnownEvent] = &[
    KnownEvent::PreToolUse,
    KnownEvent::PostToolUse,
    KnownEvent::PostToolUseFailure,
    KnownEvent::PermissionRequest,
    KnownEvent::PermissionDenied,
    KnownEvent::PreSkillShellCommand,
];

/// A model id without the context-window suffix Claude Code strips before
/// comparing it with a matcher (`claude-opus-4-6[1m]` is `claude-opus-4-6`).
pub fn without_window_suffix(model: &str) -> &str {
    let trimmed = model.trim_end();
    for suffix in ["[1m]", "[2m]"] {
        if trimmed.len() > suffix.len() {
            let (head, tail) = trimmed.split_at(trimmed.len() - suffix.len());
            if tail.eq_ignore_ascii_case(suffix) {
                return head;
            }
        }
    }
    model
}

/// A model-switch matcher as Claude Code compares it: each name's
/// `[1m]`/`[2m]` suffix removed (unless nothing would be left).
pub fn model_matcher(matcher: &str) -> String {
    let items: Vec<&str> = matcher.split(['|', ',']).collect();
    if items.len() == 1 {
        let stripped = without_window_suffix(matcher);
        return if stripped.trim().is_empty() {
            matcher.to_owned()
        } else {
            stripped.to_owned()
        };
    }
    // Keep the separators as written: rebuild piece by piece.
    let mut out = String::with_capacity(matcher.len());
    let mut rest = matcher;
    while let Some(at) = rest.find(['|', ',']) {
        out.push_str(without_window_suffix(&rest[..at]));
        out.push_str(&rest[at..=at]);
        rest = &rest[at + 1..];
    }
    out.push_str(without_window_suffix(rest));
    if out.trim().is_empty() {
        matcher.to_owned()
    } else {
        out
    }
}

/// The key used for lenient comparison: `_` and `-` removed, lower-cased.
pub fn fold_name(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Looks an event up leniently (`pre_tool_use` = `PreToolUse` = `pre-tool-use`).
pub fn lookup(name: &str) -> Option<&'static EventSpec> {
    // Most names are written as the catalog writes them: found without
    // folding every catalog name (no two fold alike, a test says).
    if let Some(spec) = CATALOG.iter().find(|spec| spec.name == name) {
        return Some(spec);
    }
    let folded = fold_name(name);
    CATALOG.iter().find(|spec| fold_name(spec.name) == folded)
}

/// The catalog event nearest to a name that is not in it (for `doctor`).
pub fn nearest(name: &str) -> Option<&'static str> {
    let folded = fold_name(name);
    let limit = folded.len().max(4) / 2;
    CATALOG
        .iter()
        // The distance is at least the difference in length: a long key
        // (a 70,000-character typo) costs nothing.
        .filter(|spec| spec.name.len().abs_diff(folded.len()) <= limit)
        .map(|spec| (edit_distance(&fold_name(spec.name), &folded), spec.name))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, name)| name)
}

/// The catalog event a name not in the catalog was probably meant to be:
/// one edit away for short names, two for longer ones (after folding case,
/// `_` and `-`). Unrelated new names give `None` and pass through quietly.
pub fn probable_typo(name: &str) -> Option<&'static str> {
    if lookup(name).is_some() {
        return None;
    }
    nearest_within(name, CATALOG.iter().map(|spec| spec.name))
}

/// The candidate a misspelt `name` probably meant: one edit away for a short
/// name, two for one of six characters or more, compared folded (case,
/// `_`, `-`), the nearest first.
pub fn nearest_within(
    name: &str,
    candidates: impl IntoIterator<Item = &'static str>,
) -> Option<&'static str> {
    let folded = fold_name(name);
    let limit = if folded.chars().count() >= 6 { 2 } else { 1 };
    candidates
        .into_iter()
        .filter(|candidate| candidate.len().abs_diff(folded.len()) <= limit)
        .map(|candidate| (edit_distance(&fold_name(candidate), &folded), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Warnings about the event's name before anything runs: an argument or
/// `hook_event_name` that is probably a misspelt catalog event (no hook
/// would match it, so every guard would be off without a word), and an
/// argument naming another event than the input does.
pub fn event_name_warnings(argument: Option<&str>, input: Option<&str>) -> Vec<String> {
    event_name_warnings_with(argument, input, probable_typo, EventId::resolve)
}

/// [`event_name_warnings`] in another vocabulary (a host's event names):
/// `typo` gives the name a misspelt one probably meant, `resolve` the
/// hookrun event a name stands for, so an argument and an input that name
/// one event in two spellings are no mismatch.
pub fn event_name_warnings_with(
    argument: Option<&str>,
    input: Option<&str>,
    typo: impl Fn(&str) -> Option<&'static str>,
    resolve: impl Fn(&str) -> EventId,
) -> Vec<String> {
    let argument = argument.map(str::trim).filter(|n| !n.is_empty());
    let input = input.map(str::trim).filter(|n| !n.is_empty());
    let mut warnings = Vec::new();
    let used = argument.or(input);
    if let Some(name) = used {
        if let Some(meant) = typo(name) {
            let from = if argument.is_some() {
                "the event argument"
            } else {
                "`hook_event_name` in the input"
            };
            warnings.push(format!(
                "event `{name}` ({from}) is not a known event; did you mean `{meant}`? No hook for `{meant}` ran"
            ));
        }
    }
    if let (Some(argument), Some(input)) = (argument, input) {
        let ran = resolve(argument);
        if ran != resolve(input) {
            warnings.push(format!(
                "the event argument `{argument}` differs from the input's `hook_event_name` `{input}`: hooks for `{}` ran",
                ran.name()
            ));
        }
    }
    warnings
}

/// Levenshtein distance, for "did you mean" hints. Two texts whose lengths
/// differ by more than 64 characters are only "far apart": the sum of their
/// lengths is returned without the quadratic work, so a 70,000-character
/// key costs nothing (every hint wants a distance of a few edits).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (len_a, len_b) = (a.chars().count(), b.chars().count());
    if len_a.abs_diff(len_b) > 64 {
        return len_a + len_b;
    }
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// The event a fire is about: a catalog row, or a name the catalog does not
/// know, which passes through verbatim with tier block (SPEC §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventId {
    Known(KnownEvent),
    Unknown(String),
}

impl EventId {
    pub fn resolve(name: &str) -> EventId {
        match lookup(name) {
            Some(spec) => EventId::Known(spec.event),
            None => EventId::Unknown(name.to_owned()),
        }
    }

    /// The name used in output and in `hook_event_name`.
    pub fn name(&self) -> &str {
        match self {
            EventId::Known(event) => event.name(),
            EventId::Unknown(name) => name,
        }
    }

    /// The catalog event, if it is one (for a `match` over events).
    pub fn known(&self) -> Option<KnownEvent> {
        match self {
            EventId::Known(event) => Some(*event),
            EventId::Unknown(_) => None,
        }
    }

    pub fn spec(&self) -> Option<&'static EventSpec> {
        // The funnel asks for the spec several times per hook: a known
        // event indexes the catalog, with no name compared.
        self.known().map(KnownEvent::spec)
    }

    pub fn tier(&self) -> Tier {
        self.spec().map_or(Tier::Block, |spec| spec.tier)
    }

    pub fn encoding(&self) -> Encoding {
        self.spec().map_or(Encoding::Unknown, |spec| spec.encoding)
    }

    pub fn match_field(&self) -> MatchField {
        self.spec()
            .map_or(MatchField::None, |spec| spec.match_field)
    }

    pub fn host_timeout(&self) -> Duration {
        self.spec().map_or(TEN_MINUTES, |spec| spec.host_timeout)
    }

    pub fn default_hook_timeout(&self) -> Duration {
        self.spec()
            .map_or(TEN_MINUTES, |spec| spec.default_hook_timeout)
    }

    /// Whether the input carries a tool an `if` rule can test.
    pub fn has_tool(&self) -> bool {
        self.known().is_some_and(|k| TOOL_EVENTS.contains(&k))
    }

    /// Whether a hook that blocks makes hookrun exit 2 (SPEC §7.2).
    pub fn blocks_by_exit_code(&self) -> bool {
        self.tier().enforces_blocks()
            && !matches!(
                self.encoding(),
                Encoding::PermissionRequest | Encoding::Elicitation
            )
    }

    /// Whether `additionalContext` reaches the model on this event.
    pub fn accepts_context(&self) -> bool {
        matches!(
            self.encoding(),
            Encoding::PreToolUse
                | Encoding::Prompt
                | Encoding::PostTool
                | Encoding::PostToolBatch
                | Encoding::Stop
                | Encoding::SessionStart
                | Encoding::Context
        )
    }

    /// Whether `permissions` rules apply to the decision (SPEC §9.3).
    pub fn permission_rules_apply(&self) -> bool {
        matches!(
            self.encoding(),
            Encoding::PreToolUse | Encoding::SkillShell | Encoding::PermissionRequest
        )
    }

    /// Whether this is the moment before a tool's action runs, answered
    /// with `permissionDecision` (PreToolUse, a skill's shell command).
    pub fn before_tool_runs(&self) -> bool {
        matches!(self.encoding(), Encoding::PreToolUse | Encoding::SkillShell)
    }

    /// Whether a hook listed under `hook_event` runs on this event: its
    /// own hooks, and those of the event it is judged as.
    pub fn runs_hooks_of(&self, hook_event: &EventId) -> bool {
        self == hook_event
            || self
                .spec()
                .and_then(|spec| spec.judged_as)
                .is_some_and(|judged| *hook_event == EventId::Known(judged))
    }

    /// Whether consecutive blocks count toward the stop-loop guard
    /// (`Stop`, `SubagentStop`).
    pub fn stop_loop_guarded(&self) -> bool {
        self.encoding() == Encoding::Stop
    }

    pub fn tool_call(&self) -> ToolCall {
        self.spec().map_or(ToolCall::None, |spec| spec.tool_call)
    }

    pub fn plain_stdout_is_context(&self) -> bool {
        self.spec().is_some_and(|spec| spec.plain_stdout_is_context)
    }

    pub fn discards_system_message(&self) -> bool {
        self.spec().is_some_and(|spec| spec.discards_system_message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_names_fold_to_one_event() {
        for name in [
            "pre_tool_use",
            "PreToolUse",
            "pre-tool-use",
            "preToolUse",
            "PRETOOLUSE",
        ] {
            assert_eq!(lookup(name).map(|s| s.name), Some("PreToolUse"), "{name}");
        }
        assert_eq!(lookup("session_end").map(|s| s.name), Some("SessionEnd"));
        assert!(lookup("PreToolUsed").is_none());
    }

    #[test]
    fn known_events_are_the_catalog_rows_in_order() {
        assert_eq!(KnownEvent::ALL.len(), CATALOG.len());
        for (i, spec) in CATALOG.iter().enumerate() {
            assert_eq!(spec.event as usize, i, "{}", spec.name);
            assert_eq!(KnownEvent::ALL[i], spec.event);
            assert_eq!(spec.event.spec().name, spec.event.name());
            assert_eq!(EventId::resolve(spec.name), EventId::Known(spec.event));
        }
    }

    #[test]
    fn catalog_has_every_event_once() {
        assert_eq!(CATALOG.len(), 38);
        for (i, a) in CATALOG.iter().enumerate() {
            for b in &CATALOG[i + 1..] {
                assert_ne!(fold_name(a.name), fold_name(b.name));
            }
        }
    }

    #[test]
    fn unknown_events_block_and_pass_through() {
        let id = EventId::resolve("MyCustomEvent");
        assert_eq!(id.name(), "MyCustomEvent");
        assert_eq!(id.tier(), Tier::Block);
        assert_eq!(id.match_field(), MatchField::None);
        assert_eq!(id.encoding(), Encoding::Unknown);
        assert!(id.blocks_by_exit_code());
    }

    #[test]
    fn exit_code_blocks_follow_tier_and_encoding() {
        let blocks = |name: &str| EventId::resolve(name).blocks_by_exit_code();
        assert!(blocks("PreToolUse"));
        assert!(blocks("Stop"));
        assert!(blocks("PostToolUse"));
        assert!(!blocks("PermissionRequest"));
        assert!(!blocks("Elicitation"));
        assert!(!blocks("SessionStart"));
        assert!(!blocks("Notification"));
    }

    #[test]
    fn tables_not_branches() {
        let call = |name: &str| EventId::resolve(name).tool_call();
        assert_eq!(call("PreToolUse"), ToolCall::Before);
        assert_eq!(call("PostToolUse"), ToolCall::After);
        assert_eq!(call("PostToolUseFailure"), ToolCall::After);
        assert_eq!(call("PermissionRequest"), ToolCall::None);
        assert_eq!(call("MyOwnEvent"), ToolCall::None);
        let guarded: Vec<&str> = CATALOG
            .iter()
            .filter(|s| EventId::Known(s.event).stop_loop_guarded())
            .map(|s| s.name)
            .collect();
        assert_eq!(guarded, ["Stop", "SubagentStop"]);
        let permissions: Vec<&str> = CATALOG
            .iter()
            .filter(|s| EventId::Known(s.event).permission_rules_apply())
            .map(|s| s.name)
            .collect();
        assert_eq!(
            permissions,
            ["PreToolUse", "PermissionRequest", "PreSkillShellCommand"]
        );
        // Every pass-through field is an accepted one.
        for spec in CATALOG {
            let fields = spec.encoding.hook_fields();
            for key in fields.passthrough {
                assert!(fields.accepted.contains(key), "{}: {key}", spec.name);
            }
        }
        assert!(Encoding::Unknown.passes_everything());
    }

    #[test]
    fn model_matchers_lose_the_window_suffix_as_claude_code_strips_it() {
        assert_eq!(
            without_window_suffix("claude-opus-4-6[1m]"),
            "claude-opus-4-6"
        );
        assert_eq!(without_window_suffix("opus[2M]"), "opus");
        assert_eq!(without_window_suffix("[1m]"), "[1m]");
        assert_eq!(model_matcher("opus[1m]|sonnet"), "opus|sonnet");
        assert_eq!(model_matcher("opus[1m] , sonnet[1m]"), "opus, sonnet");
        assert_eq!(model_matcher("[1m]"), "[1m]");
        assert_eq!(model_matcher("^claude-.*"), "^claude-.*");
    }

    #[test]
    fn a_skill_shell_command_runs_the_pre_tool_use_hooks() {
        let skill = EventId::resolve("PreSkillShellCommand");
        assert!(skill.runs_hooks_of(&EventId::resolve("PreToolUse")));
        assert!(skill.runs_hooks_of(&skill));
        assert!(!skill.runs_hooks_of(&EventId::resolve("PostToolUse")));
        assert!(!EventId::resolve("PreToolUse").runs_hooks_of(&skill));
        assert!(skill.has_tool() && skill.before_tool_runs());
    }

    #[test]
    fn probable_typos_are_one_or_two_edits_away() {
        assert_eq!(probable_typo("pre_tool_usee"), Some("PreToolUse"));
        assert_eq!(probable_typo("PreToolUze"), Some("PreToolUse"));
        assert_eq!(probable_typo("Stpo"), None, "two edits on a short name");
        assert_eq!(probable_typo("Stopp"), Some("Stop"));
        assert_eq!(probable_typo("PreToolUse"), None, "known");
        assert_eq!(probable_typo("pre-tool-use"), None, "known, folded");
        assert_eq!(probable_typo("MyDeployEvent"), None, "new and unrelated");
    }

    #[test]
    fn event_name_warnings_name_the_probable_event_and_the_mismatch() {
        let w = event_name_warnings(Some("pre_tool_usee"), None);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("did you mean `PreToolUse`"), "{w:?}");
        let w = event_name_warnings(None, Some("PreToolUze"));
        assert!(w[0].contains("`hook_event_name` in the input"), "{w:?}");
        let w = event_name_warnings(Some("PostToolUse"), Some("PreToolUse"));
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("differs"), "{w:?}");
        let unexpected = event_name_warnings(Some("pre_tool_use"), Some("PreToolUse"));
        assert!(unexpected.is_empty(), "{unexpected:?}");
        let unexpected = event_name_warnings(None, Some("MyDeployEvent"));
        assert!(unexpected.is_empty(), "{unexpected:?}");
    }

    #[test]
    fn nearest_names_typos() {
        assert_eq!(nearest("PreToolUSe"), Some("PreToolUse"));
        assert_eq!(nearest("PreTooluse"), Some("PreToolUse"));
        assert_eq!(nearest("PostToolUs"), Some("PostToolUse"));
        assert_eq!(nearest("Stopp"), Some("Stop"));
        assert_eq!(nearest("SessionStarted"), Some("SessionStart"));
        assert_eq!(nearest("zzzzzzzzzzzzzzzzz"), None);
    }
}

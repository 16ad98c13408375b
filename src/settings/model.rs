//! Settings as loaded: files, hooks in load order, and every problem found.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::catalog::EventId;

/// Where a settings file comes from (SPEC §3.1), in load order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKind {
    User,
    Project,
    Local,
    Cli,
    Managed,
}

impl SourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::User => "user",
            SourceKind::Project => "project",
            SourceKind::Local => "local",
            SourceKind::Cli => "cli",
            SourceKind::Managed => "managed",
        }
    }

    pub fn parse(text: &str) -> Option<SourceKind> {
        [
            SourceKind::User,
            SourceKind::Project,
            SourceKind::Local,
            SourceKind::Cli,
            SourceKind::Managed,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }

    /// Project and local settings anchor `/x` path rules at the project root.
    pub fn is_project_scoped(self) -> bool {
        matches!(self, SourceKind::Project | SourceKind::Local)
    }

    /// May this level opt out of the SSRF guard (SPEC §8, §9.1)? A project
    /// file comes with a repository; `--settings` files are the user's own
    /// command line and count as user settings here.
    pub fn may_opt_out_of_ssrf_guard(self) -> bool {
        matches!(
            self,
            SourceKind::User | SourceKind::Cli | SourceKind::Managed
        )
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A settings file to load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub path: PathBuf,
    pub kind: SourceKind,
    /// Read in Claude Code mode (SPEC §3.3).
    pub claude_mode: bool,
    /// Comes with the project (project, local, or a `--settings` path that is
    /// relative or inside the project): nothing in it takes effect unless
    /// its content is trusted (SPEC §9.1).
    pub trust_required: bool,
}

/// What became of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileState {
    /// Not there: fine.
    Missing,
    Loaded,
    /// Unreadable or unparseable: skipped as a whole (the reason is a problem).
    Skipped,
    /// A project file whose content is not trusted: hashed, not parsed.
    Untrusted,
}

impl FileState {
    pub fn as_str(self) -> &'static str {
        match self {
            FileState::Missing => "missing",
            FileState::Loaded => "loaded",
            FileState::Skipped => "skipped",
            FileState::Untrusted => "untrusted",
        }
    }
}

/// The trust state of a file (SPEC §9.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// User, managed and outside-the-project `--settings` files.
    NotRequired,
    /// Its current content was trusted with `hookrun trust`.
    Trusted,
    /// Trusted for this run only (`--trust-project`).
    TrustedForRun,
    /// Never trusted.
    New,
    /// Trusted once, changed since, and no trusted copy to fall back on.
    Changed,
    /// Changed since it was trusted: the content that was trusted (kept in
    /// the trust store) is in force, not the file's new content.
    TrustedEarlier,
}

impl Trust {
    pub fn as_str(self) -> &'static str {
        match self {
            Trust::NotRequired => "not required",
            Trust::Trusted => "trusted",
            Trust::TrustedForRun => "trusted for this run",
            Trust::New => "untrusted (new)",
            Trust::Changed => "untrusted (changed since trusted)",
            Trust::TrustedEarlier => "changed since trusted (the trusted content is in force)",
        }
    }

    pub fn is_trusted(self) -> bool {
        matches!(
            self,
            Trust::NotRequired | Trust::Trusted | Trust::TrustedForRun | Trust::TrustedEarlier
        )
    }
}

/// One permission rule as written, located for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleEntry {
    pub text: String,
    pub json_path: String,
}

/// `permissions` of one file (SPEC §9.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Permissions {
    pub allow: Vec<RuleEntry>,
    pub ask: Vec<RuleEntry>,
    pub deny: Vec<RuleEntry>,
}

impl Permissions {
    pub fn is_empty(&self) -> bool {
        self.allow.is_empty() && self.ask.is_empty() && self.deny.is_empty()
    }
}

/// Policy keys honoured only in managed settings (SPEC §9.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    pub allow_managed_hooks_only: bool,
    pub allowed_hook_sources: Option<Vec<SourceKind>>,
    /// Substrings: a hook whose command contains one does not run. A guard
    /// against mistakes, not against adversaries.
    pub blocked_commands: Vec<String>,
    pub max_hook_timeout: Option<Duration>,
    /// `disableBuiltinRules`: built-in rules (SPEC §9.5) turned off, by
    /// name. Only managed settings can.
    pub disabled_builtin_rules: Vec<String>,
}

/// One settings file and its non-hook settings.
#[derive(Debug, Clone)]
pub struct SettingsFile {
    pub source: Source,
    /// The directory `HOOKRUN_CONFIG_DIR` names for this file's hooks.
    pub dir: PathBuf,
    pub state: FileState,
    pub trust: Trust,
    pub disable_all_hooks: Option<bool>,
    pub permissions: Permissions,
    /// `env.keep`: secret-looking variables this file lets through (honoured
    /// only from user, managed and trusted-by-default `--settings` files).
    pub env_keep: Vec<String>,
    /// Honoured only when this is the managed file.
    pub policy: Policy,
    /// `log`: where the audit log goes (resolved against the file's folder).
    pub log: Option<PathBuf>,
    /// The http hook settings this file may set (SPEC §8, §9.4).
    pub http: HttpFileSettings,
    /// The prompt hook settings this file may set (SPEC §13).
    pub prompt: PromptFileSettings,
}

/// Prompt hook settings as one file sets them, filtered by who may set
/// what, like [`HttpFileSettings`]: where the event and the API key go
/// (`promptHooks.provider`, `baseUrl`, `apiKeyEnv`) only from user, managed
/// and `--settings` files; the default model from any level; the policy
/// keys only from managed settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptFileSettings {
    /// `promptHooks.provider`: `anthropic` or `openai`.
    pub provider: Option<String>,
    /// `promptHooks.baseUrl`.
    pub base_url: Option<String>,
    /// `promptHooks.apiKeyEnv`: the variable that holds the key.
    pub api_key_env: Option<String>,
    /// `promptHooks.model`: the model when a hook names none.
    pub model: Option<String>,
    /// Managed `allowPromptHooks` (`false` forbids every prompt hook).
    pub allowed: Option<bool>,
    /// Managed `allowedPromptHookEndpoints` (URL patterns).
    pub allowed_endpoints: Option<Vec<String>>,
}

/// http hook settings as one file sets them, already filtered by who may
/// set what: a key the file's level may not set is `None` here (and a
/// warning at load), so nothing downstream can honour it by mistake.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpFileSettings {
    /// `allowedHttpHookUrls` (any level; lists are merged).
    pub allowed_urls: Option<Vec<String>>,
    /// `allowPrivateNetworkHooks` (user, managed and `--settings` only).
    pub allow_private_network: Option<bool>,
    /// `allowedHookNetworks` (user, managed and `--settings` only).
    pub allowed_networks: Option<Vec<ipnet::IpNet>>,
    /// `httpHookAllowedEnvVars` (managed only).
    pub allowed_env_vars: Option<Vec<String>>,
}

impl SettingsFile {
    pub fn path(&self) -> &Path {
        &self.source.path
    }

    pub fn kind(&self) -> SourceKind {
        self.source.kind
    }

    /// Where this file's `/x` path rules are anchored: the folder that
    /// holds its `.hookrun/` for a project or local file (the project, or
    /// the nested layer it belongs to: a layer's rules anchor at their own
    /// layer, wherever discovery put the project), else the file's own
    /// folder.
    pub fn rule_anchor(&self) -> &Path {
        if self.kind().is_project_scoped() {
            if let Some(layer) = self
                .dir
                .file_name()
                .filter(|name| *name == ".hookrun")
                .and(self.dir.parent())
            {
                return layer;
            }
        }
        &self.dir
    }
}

/// What a hook does, with the fields of its kind (`type`): a hook's
/// fields can only exist for its kind. A command hook, by far the most
/// common, is held in line; the rare kinds are out of line, so a list of
/// hundreds of hooks stays small, and shared (`Arc`), so the plan's
/// [`crate::plan::Runnable`] carries what the hook runs without a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookAction {
    Command(CommandDef),
    /// POSTs the event to `url` (SPEC §8).
    Http(Arc<HttpDef>),
    /// Asks a model whether the event may proceed (SPEC §13).
    Prompt(Arc<PromptDef>),
    /// A prompt hook whose model may first read the project with
    /// read-only tools (`crate::prompt::agent`).
    Agent(Arc<PromptDef>),
    /// Calls a tool on an MCP server (`server`, `tool`, `input`).
    McpTool(Arc<McpToolDef>),
    /// Loaded but not run by hookrun (typos, kinds it does not know):
    /// reported on every fire that would run it.
    Unsupported(Box<UnsupportedDef>),
}

impl HookAction {
    /// The `type` word, for messages.
    pub fn kind_name(&self) -> &str {
        match self {
            HookAction::Command(_) => "command",
            HookAction::Http(_) => "http",
            HookAction::Prompt(_) => "prompt",
            HookAction::Agent(_) => "agent",
            HookAction::McpTool(_) => "mcp_tool",
            HookAction::Unsupported(def) => &def.type_name,
        }
    }

    /// A prompt or agent hook's question.
    pub fn prompt(&self) -> Option<&PromptDef> {
        match self {
            HookAction::Prompt(def) | HookAction::Agent(def) => Some(def),
            _ => None,
        }
    }

    /// The program text a hook names, for the checks that search it: a
    /// command hook's, or what a hook of an unknown type wrote.
    pub fn command_text(&self) -> Option<(&str, Option<&[String]>)> {
        match self {
            HookAction::Command(def) => Some((&def.command, def.args.as_deref())),
            HookAction::Unsupported(def) => def
                .command
                .as_deref()
                .map(|command| (command, def.args.as_deref())),
            _ => None,
        }
    }
}

/// A command hook: shell form (`command`, run by `shell`), or exec form
/// (`command` + `args`, no shell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandDef {
    pub command: String,
    pub args: Option<Vec<String>>,
    pub shell: ShellKind,
}

/// An http hook's request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpDef {
    pub url: String,
    /// In name order.
    pub headers: Vec<(String, String)>,
    pub allowed_env_vars: Vec<String>,
}

/// A hook of a type hookrun does not run, with what it names (shown in
/// reports, searched by `blockedCommands`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedDef {
    pub type_name: String,
    pub command: Option<String>,
    pub args: Option<Vec<String>>,
    pub url: Option<String>,
}

/// `shell` of a shell-form command hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellKind {
    Sh,
    Bash,
    /// Run with PowerShell (`pwsh`, else `powershell`, on PATH), as Claude
    /// Code runs it.
    PowerShell,
    Unsupported(String),
}

impl ShellKind {
    pub fn as_str(&self) -> &str {
        match self {
            ShellKind::Sh => "sh",
            ShellKind::Bash => "bash",
            ShellKind::PowerShell => "powershell",
            ShellKind::Unsupported(name) => name,
        }
    }
}

/// `onError`: what a failure of the hook itself means (SPEC §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnError {
    #[default]
    Allow,
    Block,
}

/// One hook, flattened from either settings shape.
#[derive(Debug, Clone)]
pub struct HookDef {
    /// Index of the declaring file in [`Settings::files`].
    pub file: usize,
    /// JSON path of the entry, e.g. `hooks.PreToolUse[1].hooks[0]`.
    pub json_path: JsonPath,
    /// The event key as written in the file (shared by the event's hooks).
    pub event_key: std::sync::Arc<str>,
    pub event: EventId,
    /// What it does (`type`), with the fields of that kind.
    pub action: HookAction,
    pub matcher: Option<String>,
    pub if_rule: Option<String>,
    pub timeout: Option<Duration>,
    pub name: Option<String>,
    pub sequential: bool,
    pub on_error: OnError,
    pub run_async: bool,
    pub once: bool,
    /// `statusMessage` and `asyncRewake`, when either is set (read them
    /// with the methods of the same names).
    pub extra: Option<Box<HookExtra>>,
}

/// What an `mcp_tool` hook calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpToolDef {
    /// The server's name in the MCP configuration.
    pub server: String,
    pub tool: String,
    /// The tool's arguments; `${path}` in strings is filled from the event.
    pub input: serde_json::Map<String, serde_json::Value>,
}

/// The fields few hooks set, kept out of line: a list of hundreds of hooks
/// is mostly command hooks, and every byte of a [`HookDef`] is memory a
/// fire touches for each of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookExtra {
    pub status_message: Option<String>,
    /// `asyncRewake`: with `async`, only an exit 2 speaks, and its stderr
    /// reaches the model later (see `asynchook`).
    pub async_rewake: bool,
}

impl HookExtra {
    /// `None` when nothing is set.
    pub fn boxed(self) -> Option<Box<HookExtra>> {
        let empty = self.status_message.is_none() && !self.async_rewake;
        (!empty).then(|| Box::new(self))
    }
}

/// A hook's JSON path (`hooks.PreToolUse[1].hooks[0]`), read as a `str`.
/// The loader's fast path keeps the event's path and the indices, and the
/// text is written the first time something reads it: most hooks of a fire
/// are never named, and writing every path was a tenth of a 500-hook fire.
#[derive(Clone, Default)]
pub struct JsonPath {
    /// The event's path (`hooks.PreToolUse`); `None` when `text` was given.
    event: Option<Arc<str>>,
    /// The entry's index.
    entry: u32,
    /// The index inside a matcher group, [`NO_INNER`] for none.
    inner: u32,
    text: OnceLock<Box<str>>,
}

/// [`JsonPath::inner`] of a flat entry.
const NO_INNER: u32 = u32::MAX;

impl JsonPath {
    /// `{event}[{entry}]`, or `{event}[{entry}].hooks[{inner}]`.
    pub fn indexed(event: Arc<str>, entry: usize, inner: Option<usize>) -> JsonPath {
        let small = |index: usize| u32::try_from(index).ok().filter(|i| *i != NO_INNER);
        match (small(entry), inner.map(small)) {
            (Some(entry), None) => JsonPath::compact(event, entry, NO_INNER),
            (Some(entry), Some(Some(inner))) => JsonPath::compact(event, entry, inner),
            // Indices this large are written out now.
            _ => JsonPath::from(render(&event, entry, inner)),
        }
    }

    fn compact(event: Arc<str>, entry: u32, inner: u32) -> JsonPath {
        JsonPath {
            event: Some(event),
            entry,
            inner,
            text: OnceLock::new(),
        }
    }

    pub fn as_str(&self) -> &str {
        self.text.get_or_init(|| {
            let Some(event) = &self.event else {
                return Box::default();
            };
            let widen = |index: u32| usize::try_from(index).unwrap_or(usize::MAX);
            let inner = (self.inner != NO_INNER).then(|| widen(self.inner));
            render(event, widen(self.entry), inner).into_boxed_str()
        })
    }
}

/// `{event}[{entry}]`, or `{event}[{entry}].hooks[{inner}]`.
fn render(event: &str, entry: usize, inner: Option<usize>) -> String {
    let mut text = String::with_capacity(event.len() + 16);
    text.push_str(event);
    push_index(&mut text, entry);
    if let Some(inner) = inner {
        text.push_str(".hooks");
        push_index(&mut text, inner);
    }
    text
}

/// `[index]`, without the formatting machinery.
fn push_index(text: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = index;
    loop {
        at -= 1;
        // Always below 10.
        digits[at] = b'0' + u8::try_from(rest % 10).unwrap_or(0);
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    text.push('[');
    text.push_str(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
    text.push(']');
}

impl From<String> for JsonPath {
    fn from(text: String) -> JsonPath {
        JsonPath {
            event: None,
            entry: 0,
            inner: NO_INNER,
            text: OnceLock::from(text.into_boxed_str()),
        }
    }
}

impl From<&str> for JsonPath {
    fn from(text: &str) -> JsonPath {
        JsonPath::from(text.to_owned())
    }
}

impl From<&JsonPath> for String {
    fn from(path: &JsonPath) -> String {
        path.as_str().to_owned()
    }
}

impl std::ops::Deref for JsonPath {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for JsonPath {
    fn eq(&self, other: &JsonPath) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for JsonPath {}

impl PartialEq<str> for JsonPath {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for JsonPath {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl serde::Serialize for JsonPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The fields only a prompt hook has.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PromptDef {
    /// The text the model judges; `$ARGUMENTS` becomes the event JSON.
    pub text: String,
    pub model: Option<String>,
    /// `ok: false` blocks but lets the agent go on (PreToolUse,
    /// PostToolUse, UserPromptSubmit) instead of ending the turn.
    pub continue_on_block: bool,
}

impl HookDef {
    /// `asyncRewake`.
    pub fn async_rewake(&self) -> bool {
        self.extra.as_ref().is_some_and(|extra| extra.async_rewake)
    }

    /// `statusMessage`.
    pub fn status_message(&self) -> Option<&str> {
        self.extra.as_ref()?.status_message.as_deref()
    }

    /// The `type` word, for messages.
    pub fn kind_name(&self) -> &str {
        self.action.kind_name()
    }

    /// `mcp_tool` hooks: their call.
    pub fn mcp(&self) -> Option<&McpToolDef> {
        match &self.action {
            HookAction::McpTool(def) => Some(def),
            _ => None,
        }
    }

    /// Whether it is an agent hook (a prompt hook with tools).
    pub fn is_agent(&self) -> bool {
        matches!(self.action, HookAction::Agent(_))
    }

    /// http hooks: their request.
    pub fn http(&self) -> Option<&HttpDef> {
        match &self.action {
            HookAction::Http(def) => Some(def),
            _ => None,
        }
    }

    /// The name shown in reports: `name`, else the command (or url),
    /// shortened to one line.
    pub fn display_name(&self) -> String {
        if let Some(name) = self.name.as_deref().filter(|n| !n.trim().is_empty()) {
            return name.to_owned();
        }
        let base = match &self.action {
            HookAction::Prompt(prompt) | HookAction::Agent(prompt) => {
                return shorten(&prompt.text, 60);
            }
            HookAction::McpTool(mcp) => {
                return shorten(&format!("mcp {}/{}", mcp.server, mcp.tool), 60);
            }
            HookAction::Http(http) => http.url.clone(),
            HookAction::Command(CommandDef { command, args, .. }) => {
                with_args(command, args.as_deref())
            }
            HookAction::Unsupported(def) => match (&def.command, &def.url) {
                (Some(command), _) => with_args(command, def.args.as_deref()),
                (None, Some(url)) => url.clone(),
                (None, None) => format!("{} hook", def.type_name),
            },
        };
        shorten(&base, 60)
    }
}

/// `command`, then its `args` when it has any.
fn with_args(command: &str, args: Option<&[String]>) -> String {
    match args {
        Some(args) if !args.is_empty() => format!("{command} {}", args.join(" ")),
        _ => command.to_owned(),
    }
}

/// Kept here for its callers: the helper lives in the leaf [`crate::text`].
pub use crate::text::shorten;

/// How bad a settings problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Shown in the report only.
    Note,
    /// Shown in `systemMessage` and the report; nothing was dropped.
    Warning,
    /// Something was skipped (a file, an entry): `systemMessage`, report,
    /// and a block under `--fail-closed`.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Declares [`ProblemKind`] and [`ProblemKind::ALL`] from one list, so the
/// list of every kind cannot miss one.
macro_rules! problem_kinds {
    ($($(#[$doc:meta])* $kind:ident,)*) => {
        /// What kind of problem the loader found: one variant per thing it
        /// reports, whatever its wording.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ProblemKind {
            $($(#[$doc])* $kind,)*
        }

        impl ProblemKind {
            /// Every kind, in declaration order.
            pub const ALL: &[ProblemKind] = &[$(ProblemKind::$kind,)*];
        }
    };
}

problem_kinds! {
    // The file.
    /// A file named on the command line does not exist.
    FileMissing,
    /// The file cannot be read (a trusted copy may stand in for it).
    FileUnreadable,
    /// The file is not valid JSON.
    JsonSyntax,
    /// The file is JSON but not an object.
    JsonNotAnObject,

    // Trust of project files.
    /// Never trusted: nothing in it takes effect.
    Untrusted,
    /// Changed since it was trusted: the trusted content stays in force,
    /// or (no usable copy of it) nothing does.
    ChangedSinceTrusted,
    /// Removed since it was trusted: the trusted content stays in force.
    RemovedSinceTrusted,
    /// The trust store is not a valid trust store.
    TrustStoreInvalid,
    /// The trust store cannot be read.
    TrustStoreUnreadable,

    // Names.
    /// An unknown key of the file or of an object key (`permissions`, `env`).
    UnknownKey,
    /// An event name at the top level of the file, outside `hooks`.
    EventOutsideHooks,
    /// An event name hookrun does not know.
    UnknownEvent,
    /// An unknown field of a hook or of `promptHooks`.
    UnknownField,
    /// An unknown key beside `matcher` and `hooks` in a matcher group.
    UnknownGroupKey,
    /// A near miss of `if`: the hook runs unfiltered.
    MisspeltIf,
    /// A near miss of `matcher`: the hook (or group) runs unfiltered.
    MisspeltMatcher,

    // Where a key is honoured.
    /// A key honoured only in managed settings, set elsewhere.
    ManagedOnly,
    /// A project file says where prompts (and the API key) go.
    ProjectPromptEndpoint,
    /// A project file opts out of the SSRF guard.
    ProjectSsrfOptOut,
    /// A project file asks for secrets (`env.keep`).
    ProjectEnvKeep,
    /// A key or field Claude Code applies itself, in a Claude Code file.
    ClaudeModeIgnored,

    // Hook entries.
    /// `hooks` is not an object of events.
    HooksNotAnObject,
    /// An event's entries, or a group's `hooks`, are not a list.
    HookListNotAList,
    /// An entry (or a group's hook) is not an object.
    HookNotAnObject,
    /// An entry mixes a matcher group's `hooks` with hook fields.
    MixedShapes,
    /// A command hook without `command`.
    CommandMissing,
    /// A command hook whose `command` is blank.
    CommandEmpty,
    /// An http hook without `url`.
    UrlMissing,
    /// A prompt hook without `prompt`.
    PromptHookWithoutPrompt,
    /// An agent hook without `prompt`.
    AgentHookWithoutPrompt,
    /// An `mcp_tool` hook without `server` or `tool`.
    McpToolIncomplete,
    /// A prompt hook on an event it cannot run on.
    PromptHookEvent,
    /// An agent hook on an event it cannot run on.
    AgentHookEvent,
    /// A matcher group with no hooks.
    EmptyGroup,
    /// `asyncRewake` without `async`: the hook runs in the foreground.
    AsyncRewakeForeground,
    /// `onFailure` is neither `continue` nor `block` (read as `block`), or
    /// disagrees with `onError`.
    OnFailureValue,
    /// `onFailure: "block"` where Claude Code ignores it (Stop, an async
    /// hook…).
    OnFailureIgnored,
    /// A field Claude Code marks internal (`holdsTools`, `cloud`…).
    ClaudeInternalField,

    // Fields set where they are not used.
    /// A field agent hooks do not use (`continueOnBlock`).
    NotForAgentHooks,
    /// A prompt hook field on a command or http hook.
    OnlyForPromptHooks,
    /// `args`, `command` or `shell` on a hook that is not a command hook.
    OnlyForCommandHooks,
    /// `url`, `headers` or `allowedEnvVars` on a hook that is not an http
    /// hook.
    OnlyForHttpHooks,
    /// An `mcp_tool` field on another type of hook.
    OnlyForMcpToolHooks,
    /// `shell` with `args` (exec form has no shell).
    ShellInExecForm,
    /// `matcher` on a hook inside a matcher group.
    InnerMatcher,

    // Values.
    /// Not `true` or `false`.
    NotABool,
    /// Not a positive number of seconds (a hook's `timeout`,
    /// `maxHookTimeout`).
    NotSeconds,
    /// A hook field's value is not one of its values (`onError`).
    UnknownVariant,
    /// A hook field's value has the wrong JSON type.
    WrongType,
    /// A hook field's value serde refused otherwise.
    InvalidValue,
    /// Not a string (a list item, a group's `matcher`).
    NotAString,
    /// Not a list of strings.
    NotAStringList,
    /// `log` is not a file path.
    NotAFilePath,
    /// `permissions` is not an object.
    PermissionsNotAnObject,
    /// A `permissions` list is not a list.
    NotARuleList,
    /// A permission rule is not a string.
    NotARule,
    /// `env` is not an object.
    EnvNotAnObject,
    /// An `allowedHookSources` item that is not a source.
    UnknownSource,
    /// Not a list of URL patterns (`allowedHttpHookUrls`,
    /// `allowedPromptHookEndpoints`).
    NotAUrlPatternList,
    /// `allowedHookNetworks` is not a list.
    NotANetworkList,
    /// An `allowedHookNetworks` item that is not a network.
    NotANetwork,
    /// `httpHookAllowedEnvVars` is not a list.
    NotAVariableList,
    /// `promptHooks` is not an object.
    PromptHooksNotAnObject,
    /// A `promptHooks` field that is not a non-empty string.
    NotANonEmptyString,
    /// `promptHooks.provider` is not a provider.
    UnknownProvider,
    /// `promptHooks.baseUrl` is not a usable endpoint.
    NotAnEndpoint,
}

/// A problem found while loading settings, located by file and JSON path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    /// What the problem is, for code to act on (`doctor` picks its check
    /// by it); `message` is for people and may be reworded freely.
    pub kind: ProblemKind,
    pub file: PathBuf,
    /// JSON path (`hooks.PreToolUse[1].timeout`); empty for the whole file.
    pub json_path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.json_path.is_empty() {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(
                f,
                "{}: {}: {}",
                self.file.display(),
                self.json_path,
                self.message
            )
        }
    }
}

/// Everything loaded for one run.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `--trust-project`: project files (`.mcp.json` too) trusted for this run.
    pub trust_project: bool,
    pub files: Vec<SettingsFile>,
    /// In load order: file order, then order within the file.
    pub hooks: Vec<HookDef>,
    pub problems: Vec<Problem>,
}

impl Settings {
    pub fn file_of(&self, hook: &HookDef) -> &SettingsFile {
        &self.files[hook.file]
    }

    /// `env.keep` of the files allowed to let secrets through: user,
    /// managed, and `--settings` files that are not project files.
    pub fn env_keep(&self) -> Vec<String> {
        self.files
            .iter()
            .filter(|f| {
                f.state == FileState::Loaded
                    && f.trust.is_trusted()
                    && !f.source.claude_mode
                    && !f.source.trust_required
            })
            .filter(|f| {
                matches!(
                    f.kind(),
                    SourceKind::User | SourceKind::Managed | SourceKind::Cli
                )
            })
            .flat_map(|f| f.env_keep.iter().cloned())
            .collect()
    }

    /// The audit log path of the settings: the last loaded file that sets
    /// `log` (`--log` and `$HOOKRUN_LOG` take precedence, in the caller).
    pub fn log_path(&self) -> Option<PathBuf> {
        self.files
            .iter()
            .filter(|f| {
                f.state == FileState::Loaded && f.trust.is_trusted() && !f.source.claude_mode
            })
            .filter_map(|f| f.log.clone())
            .next_back()
    }

    /// The managed policy in effect (from the managed file, if loaded).
    pub fn policy(&self) -> Policy {
        self.files
            .iter()
            .filter(|f| f.kind() == SourceKind::Managed && f.state == FileState::Loaded)
            .map(|f| f.policy.clone())
            .next_back()
            .unwrap_or_default()
    }

    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Error)
    }
}

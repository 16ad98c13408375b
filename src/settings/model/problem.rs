//! What the loader found wrong, and how bad it is: every problem carries a
//! [`ProblemKind`] for code to act on and a message for people.

use std::fmt;
use std::path::PathBuf;

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

//! One settings file as loaded, with its settings other than hooks: its
//! permission rules, the managed policy keys, and the http and prompt hook
//! settings it may set at its level.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{FileState, Source, SourceKind, Trust};

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

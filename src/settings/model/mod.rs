//! Settings as loaded: files, hooks in load order, and every problem found.
//! One file per concept: where a file comes from (`source`), one file and
//! its non-hook settings (`file`), one hook (`hook`) and what it does
//! (`action`), the table of hook kinds (`kind`), a hook's JSON path (`json_path`), the loader's problems
//! (`problem`); this file holds what a run loaded as a whole ([`Settings`]).

mod action;
mod file;
mod hook;
mod json_path;
mod kind;
mod problem;
mod source;

use std::path::PathBuf;

pub use action::{
    CommandDef, HookAction, HttpDef, McpToolDef, PromptDef, ShellKind, UnsupportedDef,
};
pub use file::{
    HttpFileSettings, Permissions, Policy, PromptFileSettings, RuleEntry, SettingsFile,
};
pub use hook::{HookDef, HookExtra, OnError};
pub use json_path::JsonPath;
pub use kind::HookKind;
pub use problem::{Problem, ProblemKind, Severity};
pub use source::{FileState, Source, SourceKind, Trust};

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

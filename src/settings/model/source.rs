//! Where a settings file comes from (its level, in load order), what
//! became of it when it was read, and whether its content is trusted.

use std::fmt;
use std::path::PathBuf;

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

//! Reading one settings file, and the trust gate of project files (SPEC
//! §9.1): a file that is missing, unreadable, untrusted or changed since it
//! was trusted, and which content (if any) then takes effect.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{load_bytes_as, push_file};
use crate::settings::model::{
    FileState, Problem, ProblemKind, Settings, Severity, Source, SourceKind, Trust,
};
use crate::settings::trust::{CopyError, TrustError, TrustState, TrustStore};

/// How project files are judged (SPEC §9.1).
#[derive(Debug)]
pub struct TrustGate {
    /// `--trust-project`: every project file is trusted for this run.
    pub trust_all: bool,
    /// Where the store lives; `None` when no config directory is known.
    pub store_path: Option<PathBuf>,
    /// The project root, named in the "how to trust" hint.
    pub project: PathBuf,
    /// For `doctor`, `explain` and `list`: parse untrusted files too (their
    /// trust state is kept, and the funnel's trust layer stops their hooks),
    /// so a user can review what trusting them would do.
    pub inspect: bool,
    store: Option<TrustStore>,
}

impl TrustGate {
    pub fn new(trust_all: bool, store_path: Option<PathBuf>, project: PathBuf) -> TrustGate {
        TrustGate {
            trust_all,
            store_path,
            project,
            inspect: false,
            store: None,
        }
    }

    /// The store is read on first use: runs without project files never
    /// touch it.
    fn judge(&mut self, file: &Path, bytes: &[u8], problems: &mut Vec<Problem>) -> Trust {
        if self.trust_all {
            return Trust::TrustedForRun;
        }
        let Some(store) = self.store(problems) else {
            return Trust::New;
        };
        match store.state(file, bytes) {
            TrustState::Trusted => {
                store.keep_copy_of_legacy(file, bytes);
                Trust::Trusted
            }
            TrustState::New => Trust::New,
            TrustState::Changed => Trust::Changed,
        }
    }

    fn store(&mut self, problems: &mut Vec<Problem>) -> Option<&mut TrustStore> {
        let store_path = self.store_path.clone()?;
        Some(
            self.store
                .get_or_insert_with(|| match TrustStore::load(&store_path) {
                    Ok(store) => store,
                    Err(err) => {
                        problems.push(Problem {
                            severity: Severity::Warning,
                            kind: trust_error_kind(&err),
                            file: store_path.clone(),
                            json_path: String::new(),
                            message: err.to_string(),
                        });
                        TrustStore::empty(store_path.clone())
                    }
                }),
        )
    }

    /// For a trusted project file that is gone or cannot be read now: the
    /// content that was trusted, when the store kept it. Deleting the file
    /// (or planting a FIFO there) must not switch its rules off either.
    fn copy_of_vanished(
        &mut self,
        file: &Path,
        problems: &mut Vec<Problem>,
    ) -> Option<(Vec<u8>, u64)> {
        if self.trust_all {
            return None;
        }
        let store = self.store(problems)?;
        store.entry(file)?;
        self.trusted_copy(file).ok()
    }

    /// The content that was trusted for a file that changed since.
    fn trusted_copy(&self, file: &Path) -> Result<(Vec<u8>, u64), CopyError> {
        let store = self.store.as_ref().ok_or(CopyError::Missing)?;
        let at = store.entry(file).map_or(0, |e| e.trusted_at);
        store.trusted_content(file).map(|bytes| (bytes, at))
    }
}

/// Loads one file into `settings` (appending to files, hooks and problems).
pub fn load_file(settings: &mut Settings, source: Source, dir: PathBuf, gate: &mut TrustGate) {
    // Only a regular file (or a pipe the command line named as /dev/fd/N):
    // a FIFO planted at a settings path must not hang the fire.
    let bytes = match crate::fsafe::read_settings(&source.path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return load_missing(settings, source, dir, gate);
        }
        Err(err) => return load_unreadable(settings, source, dir, gate, &err),
    };
    let trust = if source.trust_required {
        gate.judge(&source.path, &bytes, &mut settings.problems)
    } else {
        Trust::NotRequired
    };
    // A project-scoped file's layer: the project, or a nested folder.
    let target = if source.kind.is_project_scoped() {
        source
            .path
            .parent()
            .and_then(Path::parent)
            .unwrap_or(&gate.project)
            .display()
            .to_string()
    } else {
        source.path.display().to_string()
    };
    let mut severity = Severity::Warning;
    let mut kind = ProblemKind::Untrusted;
    let mut why = "is not trusted".to_owned();
    if trust == Trust::Changed {
        // An edit must not switch the policy off: the content that was
        // trusted stays in force until the user trusts the new one.
        match gate.trusted_copy(&source.path) {
            Ok((trusted, at)) => {
                settings.problems.push(Problem {
                    severity: Severity::Warning,
                    kind: ProblemKind::ChangedSinceTrusted,
                    file: source.path.clone(),
                    json_path: String::new(),
                    message: format!(
                        "changed since it was trusted{}: the content you trusted then is still in force, and the new content takes effect only once you review it and run `hookrun trust {}`",
                        trusted_on(at),
                        shell_quote(&target)
                    ),
                });
                load_bytes_as(settings, source, dir, &trusted, Trust::TrustedEarlier);
                return;
            }
            Err(err) => {
                // Nothing trusted to fall back on: an error, so
                // `--fail-closed` blocks instead of running without it.
                severity = Severity::Error;
                kind = ProblemKind::ChangedSinceTrusted;
                why = format!("changed since it was trusted, and {err}");
            }
        }
    }
    if !trust.is_trusted() {
        // Hashed, not parsed (unless inspecting for `doctor`).
        settings.problems.push(Problem {
            severity,
            kind,
            file: source.path.clone(),
            json_path: String::new(),
            message: format!(
                "{why}: its hooks, permissions and env do not take effect; review it, then run `hookrun trust {}`",
                shell_quote(&target)
            ),
        });
        if !gate.inspect {
            push_file(settings, source, dir, FileState::Untrusted, trust);
            return;
        }
    }
    load_bytes_as(settings, source, dir, &bytes, trust);
}

/// A file that is not there.
fn load_missing(settings: &mut Settings, source: Source, dir: PathBuf, gate: &mut TrustGate) {
    // Missing is normal for the default locations; a file named on
    // the command line that is not there is a typo that would make
    // its hooks vanish without a word: a settings problem like an
    // unreadable one (an error: `--fail-closed` blocks on it).
    if source.trust_required {
        if let Some((trusted, at)) = gate.copy_of_vanished(&source.path, &mut settings.problems) {
            settings.problems.push(Problem {
                severity: Severity::Warning,
                kind: ProblemKind::RemovedSinceTrusted,
                file: source.path.clone(),
                json_path: String::new(),
                message: format!(
                    "was removed since it was trusted{}: the content you trusted then is still in force; if you meant to remove it, run `hookrun untrust {}`",
                    trusted_on(at),
                    shell_quote(&source.path.display().to_string())
                ),
            });
            load_bytes_as(settings, source, dir, &trusted, Trust::TrustedEarlier);
            return;
        }
    }
    if source.kind == SourceKind::Cli {
        settings.problems.push(Problem {
            severity: Severity::Error,
            kind: ProblemKind::FileMissing,
            file: source.path.clone(),
            json_path: String::new(),
            message: "does not exist: no hooks are loaded from it".to_owned(),
        });
    }
    push_file(
        settings,
        source,
        dir,
        FileState::Missing,
        Trust::NotRequired,
    );
}

/// A file that is there but cannot be read.
fn load_unreadable(
    settings: &mut Settings,
    source: Source,
    dir: PathBuf,
    gate: &mut TrustGate,
    err: &std::io::Error,
) {
    // Still an error (`--fail-closed` blocks), but a trusted file's
    // rules stay in force from the trusted copy.
    let copy = source
        .trust_required
        .then(|| gate.copy_of_vanished(&source.path, &mut settings.problems))
        .flatten();
    if let Some((trusted, at)) = copy {
        settings.problems.push(Problem {
            severity: Severity::Error,
            kind: ProblemKind::FileUnreadable,
            file: source.path.clone(),
            json_path: String::new(),
            message: format!(
                "cannot be read ({err}); the content you trusted{} is still in force",
                trusted_on(at).replacen(" (trusted", " (", 1)
            ),
        });
        load_bytes_as(settings, source, dir, &trusted, Trust::TrustedEarlier);
        return;
    }
    settings.problems.push(Problem {
        severity: Severity::Error,
        kind: ProblemKind::FileUnreadable,
        file: source.path.clone(),
        json_path: String::new(),
        message: format!("cannot be read ({err}); its hooks are skipped"),
    });
    push_file(
        settings,
        source,
        dir,
        FileState::Skipped,
        Trust::NotRequired,
    );
}

fn trust_error_kind(err: &TrustError) -> ProblemKind {
    match err {
        TrustError::Corrupt { .. } => ProblemKind::TrustStoreInvalid,
        TrustError::Read { .. } | TrustError::Write { .. } => ProblemKind::TrustStoreUnreadable,
    }
}

/// " on 2026-01-02" for a trust time (seconds since the epoch), or nothing.
fn trusted_on(at: u64) -> String {
    if at == 0 {
        return String::new();
    }
    let time = std::time::UNIX_EPOCH + Duration::from_secs(at);
    let text = humantime::format_rfc3339_seconds(time).to_string();
    format!(" (trusted {})", text.get(..10).unwrap_or(&text))
}

/// Quotes a path for a command the user may paste.
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

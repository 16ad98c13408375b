//! Checks that look past hookrun's own files at the host's: files both load
//! (hooks run twice) and the host's `FileChanged` entry (without file names
//! in its matcher the host watches nothing, so hookrun's hook never fires).

use std::path::{Path, PathBuf};

use crate::catalog::EventId;
use crate::select::matcher::Matcher;
use crate::settings::load::load_bytes;
use crate::settings::model::FileState;
use crate::settings::{HookDef, Settings, Severity, Source, SourceKind};

use super::{Context, Finding};

/// The settings files Claude Code reads by itself (user, project, local,
/// managed on Linux and macOS).
pub fn claude_code_files(project_dir: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut files = vec![
        project_dir.join(".claude").join("settings.json"),
        project_dir.join(".claude").join("settings.local.json"),
    ];
    if let Some(home) = home {
        files.push(home.join(".claude").join("settings.json"));
    }
    files.push(PathBuf::from("/etc/claude-code/managed-settings.json"));
    files.push(PathBuf::from(
        "/Library/Application Support/ClaudeCode/managed-settings.json",
    ));
    files
}

/// A file hookrun loads that the host loads too: its hooks run twice.
pub fn check_loaded_by_host(settings: &Settings, cx: &Context<'_>, out: &mut Vec<Finding>) {
    let host: Vec<PathBuf> = claude_code_files(cx.project_dir, cx.home)
        .iter()
        .map(|p| cx.probe.canonical(p))
        .collect();
    for (index, file) in settings.files.iter().enumerate() {
        if file.state != FileState::Loaded {
            continue;
        }
        let count = settings.hooks.iter().filter(|h| h.file == index).count();
        if count == 0 || !host.contains(&cx.probe.canonical(file.path())) {
            continue;
        }
        out.push(Finding {
            check: "host-loads-file",
            severity: Severity::Warning,
            file: file.path().to_path_buf(),
            json_path: "hooks".into(),
            message: format!(
                "Claude Code loads this file itself, and hookrun loads it too: its {count} hook{} run twice",
                if count == 1 { "" } else { "s" }
            ),
            fix: "move the hooks to .hookrun/settings.json and leave only `hookrun fire` entries here, or stop passing this file to hookrun".into(),
        });
    }
}

/// A host `FileChanged` entry that runs hookrun.
struct HostEntry {
    file: PathBuf,
    /// The names its matcher lists (empty: none, the host watches nothing).
    names: Vec<String>,
}

fn host_file_changed_entries(cx: &Context<'_>) -> Vec<HostEntry> {
    let mut entries = Vec::new();
    for path in claude_code_files(cx.project_dir, cx.home) {
        let Some(bytes) = cx.probe.read(&path) else {
            continue;
        };
        let mut scratch = Settings::default();
        let source = Source {
            path: path.clone(),
            kind: SourceKind::Cli,
            claude_mode: true,
            trust_required: false,
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        load_bytes(&mut scratch, source, dir, &bytes);
        for hook in &scratch.hooks {
            let runs_hookrun = hook
                .command
                .as_deref()
                .is_some_and(|c| c.contains("hookrun"));
            if hook.event == EventId::Known("FileChanged") && runs_hookrun {
                entries.push(HostEntry {
                    file: path.clone(),
                    names: file_names(hook.matcher.as_deref().unwrap_or_default())
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                });
            }
        }
    }
    entries
}

/// `FileChanged` hooks: the host must watch the files (SPEC §10).
pub fn check_file_changed(settings: &Settings, cx: &Context<'_>, out: &mut Vec<Finding>) {
    let hooks: Vec<&HookDef> = settings
        .hooks
        .iter()
        .filter(|h| h.event == EventId::Known("FileChanged"))
        .collect();
    if hooks.is_empty() {
        return;
    }
    let entries = host_file_changed_entries(cx);
    let watched: Vec<&str> = entries
        .iter()
        .flat_map(|e| e.names.iter().map(String::as_str))
        .collect();
    for hook in hooks {
        let written = hook.matcher.as_deref().unwrap_or_default();
        let matcher = Matcher::compile(hook.matcher.as_deref(), true);
        let example = match written {
            "" | "*" => ".envrc|package.json",
            _ => written,
        };
        let fix = format!(
            "in .claude/settings.json: \"FileChanged\": [{{\"matcher\": \"{example}\", \"hooks\": [{{\"type\": \"command\", \"command\": \"hookrun fire\"}}]}}]"
        );
        let file = settings.file_of(hook).path().to_path_buf();
        let json_path = super::matcher_path(hook);
        let message = if entries.is_empty() {
            Some(
                "Claude Code watches only the files named in the matcher of its own FileChanged entry, and none of its settings files has a FileChanged entry running hookrun: this hook never fires"
                    .to_owned(),
            )
        } else if watched.is_empty() {
            Some(format!(
                "the FileChanged entry in {} names no files in its matcher, so Claude Code watches nothing: this hook never fires",
                entries[0].file.display()
            ))
        } else {
            let missing: Vec<&str> = if matches!(matcher, Matcher::All | Matcher::Invalid(_)) {
                Vec::new()
            } else if written
                .chars()
                .all(|c| c.is_alphanumeric() || "._-| ".contains(c))
            {
                // Plain file names (`.envrc|.env`): each must be watched.
                file_names(written)
                    .into_iter()
                    .filter(|n| !watched.contains(n))
                    .collect()
            } else if watched.iter().any(|w| matcher.matches(w)) {
                Vec::new()
            } else {
                vec![written]
            };
            (!missing.is_empty()).then(|| {
                format!(
                    "Claude Code watches only {} (the matcher of its FileChanged entry), not {}: changes to {} never reach hookrun",
                    quote_all(&watched),
                    quote_all(&missing),
                    if missing.len() == 1 { "it" } else { "them" }
                )
            })
        };
        if let Some(message) = message {
            out.push(Finding {
                check: "file-changed-host",
                severity: Severity::Warning,
                file,
                json_path,
                message,
                fix: fix.clone(),
            });
        }
    }
}

/// The file names a `FileChanged` matcher lists, as the host reads it.
fn file_names(matcher: &str) -> Vec<&str> {
    matcher
        .split('|')
        .map(str::trim)
        .filter(|n| !n.is_empty() && *n != "*")
        .collect()
}

fn quote_all(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

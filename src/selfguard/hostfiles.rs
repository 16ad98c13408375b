//! The host configuration that routes events to hookrun, and whether a
//! write would change hookrun's part of it.
//!
//! A host's hook file often lives in the project next to the user's own
//! settings (`.claude/settings.json`, `.gemini/settings.json`…), so the
//! whole file is not hookrun's to protect: only its entries that run
//! hookrun, and the switches that turn every hook of the host off
//! (`disableAllHooks`, Gemini's `hooksConfig`, Codex's `[features] hooks`).
//! A write whose result hookrun can work out (a file tool's new content or
//! replacements) is judged on that result; one it cannot (a shell
//! redirection, a patch, a removal) is judged on what is there now.
//! Files are read only when a call writes one of them.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::host::HostId;
use crate::host::wiring::{self, Shape, Wiring};
use crate::select::effects::{Change, Write, WriteKind};
use crate::select::path_style::PathStyle;

/// Claude Code's local settings file, which `install --local` writes.
const CLAUDE_LOCAL: &str = ".claude/settings.local.json";

/// A host file that holds hookrun's entries, or a switch over them.
#[derive(Debug, Clone)]
struct HostFile {
    host: HostId,
    path: PathBuf,
    /// `path` in the form written paths are compared in.
    key: PathBuf,
    kind: FileKind,
}

#[derive(Debug, Clone, Copy)]
enum FileKind {
    /// A document of hook entries (and maybe the host's switch).
    Entries(&'static Wiring),
    /// A folder of hook files, one per event, marked when hookrun's (Cline).
    Folder,
    /// A file that only holds a switch turning the host's hooks off.
    Switch(Switch),
}

/// How a host turns all its hooks off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Switch {
    /// `disableAllHooks: true` (Claude Code, and Copilot CLI, which reads
    /// it in its hook file and `.github/copilot/settings.json`).
    DisableAllHooks,
    /// `hooksConfig.enabled: false` or hookrun's entry named in
    /// `hooksConfig.disabled` (Gemini CLI, Qwen Code).
    HooksConfig,
    /// `[features] hooks = false` in `config.toml` (Codex).
    CodexFeatures,
}

fn switch_of(host: HostId) -> Option<Switch> {
    match host {
        HostId::ClaudeCode | HostId::Copilot => Some(Switch::DisableAllHooks),
        HostId::Gemini | HostId::Qwen => Some(Switch::HooksConfig),
        _ => None,
    }
}

/// Whether a write of `kind` to `path` may touch a host's file: one named
/// as a host's hook file or switch file is named (every row of
/// [`wiring::all`], and the files [`HostFiles::new`] adds), a file in a
/// host's hook folder, or (removing, moving) a folder. A write to anything
/// else, most writes, costs no look at the host files.
pub fn may_be_one(path: &Path, kind: WriteKind) -> bool {
    if kind == WriteKind::Tree {
        return true;
    }
    let Some(name) = path.file_name() else {
        return false;
    };
    let folder = path.parent().and_then(Path::file_name);
    // Any case: a filter before the exact comparison, which on Windows
    // ignores case.
    let same = |a: Option<&std::ffi::OsStr>, b: Option<&std::ffi::OsStr>| match (a, b) {
        (Some(a), Some(b)) => a
            .to_string_lossy()
            .eq_ignore_ascii_case(&b.to_string_lossy()),
        _ => false,
    };
    let named = |rel: &str| {
        let rel = Path::new(rel);
        same(rel.file_name(), Some(name)) || same(rel.file_name(), folder)
    };
    wiring::all().any(|w| named(w.project_file) || named(w.user_file))
        || [CLAUDE_LOCAL, "config.toml", ".github/copilot/settings.json"]
            .iter()
            .any(|rel| named(rel))
}

/// The host files of one fire.
#[derive(Debug, Clone)]
pub struct HostFiles {
    files: Vec<HostFile>,
    style: PathStyle,
}

/// What a write would do to hookrun's host configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Harm {
    pub host: HostId,
    pub file: PathBuf,
    pub what: String,
}

impl HostFiles {
    /// Every host's project and user files, for `project` and `home`.
    pub fn new(project: &Path, home: Option<&Path>, codex_home: Option<&Path>) -> HostFiles {
        let mut files = Vec::new();
        for w in wiring::all() {
            for (_, path) in w.files(project, home, codex_home) {
                let kind = if w.shape == Shape::Files {
                    FileKind::Folder
                } else {
                    FileKind::Entries(w)
                };
                files.push(HostFile {
                    host: w.host,
                    key: path.clone(),
                    path,
                    kind,
                });
            }
        }
        files.push(HostFile {
            host: HostId::ClaudeCode,
            key: PathBuf::new(),
            path: project.join(CLAUDE_LOCAL),
            kind: FileKind::Entries(wiring::wiring(HostId::ClaudeCode)),
        });
        let codex_config = codex_home
            .map(Path::to_path_buf)
            .or_else(|| home.map(|h| h.join(".codex")))
            .map(|dir| dir.join("config.toml"));
        for path in [Some(project.join(".codex/config.toml")), codex_config]
            .into_iter()
            .flatten()
        {
            files.push(HostFile {
                host: HostId::Codex,
                key: PathBuf::new(),
                path,
                kind: FileKind::Switch(Switch::CodexFeatures),
            });
        }
        files.push(HostFile {
            host: HostId::Copilot,
            key: PathBuf::new(),
            path: project.join(".github/copilot/settings.json"),
            kind: FileKind::Switch(Switch::DisableAllHooks),
        });
        HostFiles {
            files,
            style: PathStyle::Posix,
        }
        .in_style(PathStyle::native())
    }

    /// The same files, compared with written paths in `style`'s form.
    #[must_use]
    pub fn in_style(mut self, style: PathStyle) -> HostFiles {
        for file in &mut self.files {
            file.key = style.key(&file.path).into_owned();
        }
        self.style = style;
        self
    }

    /// Whether `write` (at `target`, normalised, and `real`, what it opens)
    /// would remove or change hookrun's entries or turn a host's hooks off.
    /// `change`: the file tool's new content or replacements, when the
    /// call says them (read only if the file is one of the host's).
    pub fn judge(
        &self,
        write: &Write,
        target: &Path,
        real: Option<&Path>,
        change: &dyn Fn() -> Option<Change>,
    ) -> Option<Harm> {
        let names = |path: &Path| {
            let hit = |t: &Path| match write.kind {
                WriteKind::Content => t == path,
                WriteKind::Tree => path.starts_with(t),
            };
            hit(target) || real.is_some_and(hit)
        };
        for file in &self.files {
            let harm = match file.kind {
                FileKind::Folder => self.folder(file, write, target, real),
                FileKind::Entries(w) if names(&file.key) => {
                    self.document(file, Some(w), write, change)
                }
                FileKind::Switch(_) if names(&file.key) => self.document(file, None, write, change),
                _ => None,
            };
            if harm.is_some() {
                return harm;
            }
        }
        None
    }

    /// A hook file of hookrun's in a host's folder (Cline), or the folder.
    fn folder(
        &self,
        file: &HostFile,
        write: &Write,
        target: &Path,
        real: Option<&Path>,
    ) -> Option<Harm> {
        let touched: Vec<PathBuf> = [Some(target), real]
            .into_iter()
            .flatten()
            .flat_map(|t| {
                if t.parent() == Some(file.key.as_path()) {
                    vec![self.style.opened(t).into_owned()]
                } else if write.kind == WriteKind::Tree && file.key.starts_with(t) {
                    hook_files(&file.path)
                } else {
                    Vec::new()
                }
            })
            .collect();
        let ours = touched.iter().find(|path| {
            crate::fsafe::read_capped(path, crate::fsafe::Follow::No)
                .is_ok_and(|bytes| crate::host::cline::is_ours(&String::from_utf8_lossy(&bytes)))
        })?;
        Some(Harm {
            host: file.host,
            file: ours.clone(),
            what: "removes or rewrites the hook file `hookrun install` wrote".to_owned(),
        })
    }

    /// A document of entries or a switch file.
    fn document(
        &self,
        file: &HostFile,
        w: Option<&Wiring>,
        write: &Write,
        change: &dyn Fn() -> Option<Change>,
    ) -> Option<Harm> {
        let before = read_text(&file.path);
        let state_before = state(file, w, before.as_deref());
        let harm = |what: &str| {
            Some(Harm {
                host: file.host,
                file: file.path.clone(),
                what: what.to_owned(),
            })
        };
        let change = match write.kind {
            WriteKind::Content => change(),
            WriteKind::Tree => None,
        };
        let after = match change {
            Some(Change::Content(text)) => Some(text),
            Some(Change::Edits(edits)) => {
                // An edit of a file that is not there, or whose text is not
                // there, fails in the tool: nothing changes.
                let mut text = before.clone()?;
                for (old, new, all) in &edits {
                    if old.is_empty() || !text.contains(old.as_str()) {
                        return None;
                    }
                    text = if *all {
                        text.replace(old.as_str(), new)
                    } else {
                        text.replacen(old.as_str(), new, 1)
                    };
                }
                Some(text)
            }
            None => None,
        };
        let Some(after) = after else {
            // What the write leaves cannot be worked out: it may remove
            // what is there now.
            return if !state_before.entries.is_empty() {
                harm("may remove or change hookrun's entries (hookrun cannot tell what it leaves)")
            } else if matches!(file.kind, FileKind::Switch(_)) && !state_before.off {
                // A switch file turns hooks off for a host hookrun is in.
                self.any_entries().then(|| Harm {
                    host: file.host,
                    file: file.path.clone(),
                    what: "may turn the host's hooks off (hookrun cannot tell what it leaves)"
                        .to_owned(),
                })
            } else {
                None
            };
        };
        let state_after = state(file, w, Some(&after));
        if !contains_all(&state_after.entries, &state_before.entries) {
            return harm("removes or changes hookrun's entries");
        }
        if state_after.off && !state_before.off {
            let routed = !state_before.entries.is_empty() || self.any_entries();
            if routed {
                return harm("turns the host's hooks off, hookrun's included");
            }
        }
        None
    }

    /// Whether any host's document routes to hookrun now (a switch may
    /// turn off more than its own host's hooks: Copilot CLI reads Claude
    /// Code's `disableAllHooks`).
    fn any_entries(&self) -> bool {
        self.files.iter().any(|f| match f.kind {
            FileKind::Entries(w) => !state(f, Some(w), read_text(&f.path).as_deref())
                .entries
                .is_empty(),
            _ => false,
        })
    }
}

/// The hook files in a host's folder.
fn hook_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect()
}

fn read_text(path: &Path) -> Option<String> {
    crate::fsafe::read_capped(path, crate::fsafe::Follow::Yes)
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// hookrun's part of a host document: its entries that run hookrun, and
/// whether the host's hooks are switched off.
#[derive(Debug, Default)]
struct State {
    entries: Vec<String>,
    off: bool,
}

fn state(file: &HostFile, w: Option<&Wiring>, text: Option<&str>) -> State {
    let Some(text) = text else {
        return State::default();
    };
    let switch = match file.kind {
        FileKind::Switch(switch) => Some(switch),
        _ => switch_of(file.host),
    };
    if switch == Some(Switch::CodexFeatures) {
        return State {
            entries: Vec::new(),
            off: codex_hooks_off(text),
        };
    }
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return State::default();
    };
    let mut entries: Vec<String> = w
        .map(|w| {
            wiring::entries(w, &doc)
                .into_iter()
                .filter(|e| wiring::runs_hookrun(&e.command))
                .map(|e| {
                    format!(
                        "{}\u{0}{}\u{0}{:?}\u{0}{:?}",
                        e.host_event, e.command, e.matcher, e.timeout
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    entries.sort();
    let off = match switch {
        Some(Switch::DisableAllHooks) => doc.get("disableAllHooks") == Some(&Value::Bool(true)),
        Some(Switch::HooksConfig) => {
            let config = doc.get("hooksConfig");
            let disabled_by_name = w.and_then(|w| w.name).is_some_and(|name| {
                config
                    .and_then(|c| c.get("disabled"))
                    .and_then(Value::as_array)
                    .is_some_and(|list| list.iter().any(|n| n.as_str() == Some(name)))
            });
            config.and_then(|c| c.get("enabled")) == Some(&Value::Bool(false)) || disabled_by_name
        }
        _ => false,
    };
    State { entries, off }
}

/// Every item of `before` is still in `after` (as many times).
fn contains_all(after: &[String], before: &[String]) -> bool {
    let mut left: Vec<&String> = after.iter().collect();
    before
        .iter()
        .all(|item| match left.iter().position(|a| *a == item) {
            Some(i) => {
                left.swap_remove(i);
                true
            }
            None => false,
        })
}

/// `[features] hooks = false` (or `features.hooks = false`) in Codex's
/// `config.toml`, read line by line.
fn codex_hooks_off(text: &str) -> bool {
    let mut section = String::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            name.trim().clone_into(&mut section);
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches('"');
        let is_hooks = (section == "features" && key == "hooks") || key == "features.hooks";
        if is_hooks && value.trim() == "false" {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, kind: WriteKind) -> Write {
        Write {
            path: path.display().to_string(),
            dir: PathBuf::from("/"),
            kind,
            dynamic: false,
        }
    }

    const SETTINGS: &str = r#"{
  "permissions": {"allow": ["Bash(ls)"]},
  "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/usr/bin/hookrun fire --host claude-code"}]}]}
}
"#;

    #[test]
    fn only_hookruns_part_of_a_project_file_is_protected() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path();
        let file = project.join(".claude/settings.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, SETTINGS).unwrap();
        let files = HostFiles::new(project, None, None);
        let judge = |kind: WriteKind, change: Option<Change>| {
            files.judge(&write(&file, kind), &file, None, &|| change.clone())
        };
        let edits = |old: &str, new: &str| {
            Some(Change::Edits(vec![(old.to_owned(), new.to_owned(), false)]))
        };
        // The user's own keys may change.
        assert_eq!(
            judge(WriteKind::Content, edits("Bash(ls)", "Bash(ls *)")),
            None
        );
        // hookrun's entry may not.
        let harm = judge(WriteKind::Content, edits("/usr/bin/hookrun fire", "true"));
        assert!(
            harm.unwrap()
                .what
                .contains("removes or changes hookrun's entries")
        );
        let off = SETTINGS.replacen('{', "{\"disableAllHooks\": true,", 1);
        let harm = judge(WriteKind::Content, Some(Change::Content(off)));
        assert!(harm.unwrap().what.contains("turns the host's hooks off"));
        // Unknown content, removal: judged on what is there.
        assert!(judge(WriteKind::Content, None).is_some());
        let folder = project.join(".claude");
        assert!(
            files
                .judge(&write(&folder, WriteKind::Tree), &folder, None, &|| None)
                .is_some()
        );
        // The local file turning everything off while hookrun is installed.
        let local = project.join(CLAUDE_LOCAL);
        let off = Some(Change::Content("{\"disableAllHooks\": true}".into()));
        let harm = files.judge(&write(&local, WriteKind::Content), &local, None, &|| {
            off.clone()
        });
        assert!(harm.is_some());
        // A file without hookrun's entries is the user's.
        std::fs::write(&file, "{}").unwrap();
        assert_eq!(judge(WriteKind::Content, None), None);
    }

    #[test]
    fn a_hook_file_of_hookruns_in_a_hosts_folder_is_protected_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path();
        let folder = project.join(".clinerules/hooks");
        std::fs::create_dir_all(&folder).unwrap();
        let ours = folder.join("PreToolUse");
        std::fs::write(
            &ours,
            format!(
                "#!/bin/sh\n{}\nexec hookrun fire --host cline\n",
                crate::host::cline::MARKER
            ),
        )
        .unwrap();
        let theirs = folder.join("PostToolUse");
        std::fs::write(&theirs, "#!/bin/sh\necho mine\n").unwrap();
        let files = HostFiles::new(project, None, None);
        let judge =
            |path: &Path, kind: WriteKind| files.judge(&write(path, kind), path, None, &|| None);
        assert!(judge(&ours, WriteKind::Content).is_some());
        assert!(judge(&folder, WriteKind::Tree).is_some());
        assert_eq!(judge(&theirs, WriteKind::Content), None);
        assert!(may_be_one(&ours, WriteKind::Content));
        assert!(!may_be_one(
            &project.join("src/main.rs"),
            WriteKind::Content
        ));
    }

    #[test]
    fn codex_feature_switch_is_read() {
        assert!(codex_hooks_off("[features]\nhooks = false\n"));
        assert!(codex_hooks_off("features.hooks = false # off"));
        assert!(!codex_hooks_off(
            "[other]\nhooks = false\n[features]\nhooks = true"
        ));
    }
}

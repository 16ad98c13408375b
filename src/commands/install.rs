//! `hookrun install HOST` / `hookrun uninstall HOST`: write the host's own
//! hook config so every event hookrun's settings use reaches
//! `hookrun fire --host HOST` (the entries themselves: `host::wiring`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::common::{self, Printed};
use crate::cli::InstallArgs;
use crate::exit::Exit;
use crate::host::HostId;
use crate::host::wiring::{self, Scope, Wiring};
use crate::settings::Settings;

/// Routed when hookrun's settings have no hooks yet.
const DEFAULT_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
];

pub fn run(args: &InstallArgs, install: bool) -> Printed {
    match plan(args, install) {
        Ok(text) => Printed::stdout(text, Exit::Success),
        Err(line) => Printed::failure(&line),
    }
}

fn plan(args: &InstallArgs, install: bool) -> Result<String, String> {
    let env = common::environment(&args.settings);
    let project_dir = common::project_dir(&env, Some(&env.current_dir));
    let w = wiring::wiring(args.host);
    let scope = if args.user {
        Scope::User
    } else {
        Scope::Project
    };
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let path = w
        .files(&project_dir, env.home.as_deref(), codex_home.as_deref())
        .into_iter()
        .find(|(s, _)| *s == scope)
        .map(|(_, p)| p)
        .ok_or("no home folder ($HOME is not set): use --project")?;
    // A host whose hooks are files, not a document (Cline).
    if w.shape == wiring::Shape::Files {
        if !install {
            return super::install_files::run(w, &path, None, args.dry_run);
        }
        let settings = common::inspect_settings(&args.settings, &env, &project_dir);
        let mut out = String::new();
        let events = events_to_route(&settings, args.host, &mut out);
        let route = super::install_files::Route {
            base: fire_command(&binary(args)?, args.host)?,
            events: &events,
        };
        out.push_str(&super::install_files::run(
            w,
            &path,
            Some(route),
            args.dry_run,
        )?);
        return Ok(out);
    }

    let before = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(format!("cannot read {}: {err}", path.display())),
    };
    let mut doc: Value = match before.as_deref() {
        None => Value::Object(serde_json::Map::new()),
        Some(text) if text.trim().is_empty() => Value::Object(serde_json::Map::new()),
        Some(text) => serde_json::from_str(text).map_err(|err| {
            format!(
                "{} is not valid JSON ({err}); hookrun does not rewrite it (comments are not kept either): fix it or add the entries by hand",
                path.display()
            )
        })?,
    };

    let mut out = String::new();
    if install {
        let binary = binary(args)?;
        let command = fire_command(&binary, args.host)?;
        let settings = common::inspect_settings(&args.settings, &env, &project_dir);
        let events = events_to_route(&settings, args.host, &mut out);
        let matchers = watched_files(&settings, args.host, &mut out);
        let (routed, missing) =
            wiring::install_with_matchers(w, &mut doc, &command, &events, &matchers)
                .map_err(|why| format!("{}: {why}", path.display()))?;
        let _ = writeln!(
            out,
            "{} events routed to `{command}`: {}",
            args.host.display(),
            routed.join(", ")
        );
        for event in &missing {
            let _ = writeln!(
                out,
                "warning: {} has no {event} event: hookrun's {event} hooks never fire under it",
                args.host.display()
            );
        }
    } else {
        let removed = wiring::remove_hookrun(w, &mut doc);
        let _ = writeln!(
            out,
            "{removed} hookrun entr{} removed",
            if removed == 1 { "y" } else { "ies" }
        );
    }

    let mut after = serde_json::to_string_pretty(&doc).expect("JSON values serialise");
    after.push('\n');
    let old = before.clone().unwrap_or_default();
    if after == old {
        let _ = writeln!(
            out,
            "{}: already up to date, nothing written",
            path.display()
        );
        return Ok(out);
    }
    if args.dry_run {
        let _ = writeln!(
            out,
            "would write {} (dry run: nothing written):",
            path.display()
        );
        out.push_str(&diff(&old, &after, &path));
        return Ok(out);
    }
    write(&path, before.as_deref(), &after, &mut out)?;
    if install {
        out.push_str(&next_steps(w, &path));
    }
    Ok(out)
}

/// This binary by absolute path, or `--binary` made absolute.
/// The command a host entry runs: `BINARY fire --host HOST` (also what
/// `hookrun init` prints).
pub fn fire_command(binary: &Path, host: HostId) -> Result<String, String> {
    let quoted = shlex::try_quote(&binary.to_string_lossy())
        .map_err(|_| {
            format!(
                "the binary path {} cannot be written as a shell word",
                binary.display()
            )
        })?
        .into_owned();
    Ok(format!("{quoted} fire --host {}", host.name()))
}

fn binary(args: &InstallArgs) -> Result<PathBuf, String> {
    let path = match &args.binary {
        Some(path) => std::path::absolute(path)
            .map_err(|err| format!("--binary {}: {err}", path.display()))?,
        None => std::env::current_exe()
            .and_then(std::fs::canonicalize)
            .map_err(|err| {
                format!("cannot find this hookrun binary's path: {err}; pass --binary")
            })?,
    };
    Ok(path)
}

/// The Claude Code events hookrun's settings have hooks for, in catalog
/// order of first appearance.
fn events_to_route(settings: &Settings, host: HostId, out: &mut String) -> Vec<&'static str> {
    let w = wiring::wiring(host);
    let mut events: Vec<&'static str> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for hook in &settings.hooks {
        let name = hook.event.name();
        // Host-only events (Gemini's BeforeModel…) are routed by their name.
        let known = w
            .events
            .iter()
            .map(|(c, _)| *c)
            .find(|c| *c == name)
            .or_else(|| crate::catalog::lookup(name).map(|s| s.name));
        match known {
            Some(event) if !events.contains(&event) => events.push(event),
            None if !unknown.iter().any(|u| u == name) => unknown.push(name.to_owned()),
            _ => {}
        }
    }
    for name in unknown {
        let _ = writeln!(
            out,
            "warning: `{name}` is not an event hookrun knows: not routed"
        );
    }
    if events.is_empty() {
        let _ = writeln!(
            out,
            "note: your hookrun settings have no hooks yet: routing {} (run install again after adding hooks on other events)",
            DEFAULT_EVENTS.join(", ")
        );
        events.extend_from_slice(DEFAULT_EVENTS);
    }
    events
}

/// Claude Code watches only the files its FileChanged entry's matcher
/// names: the names hookrun's FileChanged hooks match.
fn watched_files(
    settings: &Settings,
    host: HostId,
    out: &mut String,
) -> Vec<(&'static str, String)> {
    if host != HostId::ClaudeCode {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    for hook in settings
        .hooks
        .iter()
        .filter(|h| h.event.name() == "FileChanged")
    {
        let matcher = hook.matcher.as_deref().unwrap_or_default();
        let plain = matcher
            .chars()
            .all(|c| c.is_alphanumeric() || "._-| ".contains(c));
        if matcher.trim().is_empty() || matcher == "*" || !plain {
            let _ = writeln!(
                out,
                "warning: a FileChanged hook matches {matcher:?}, not file names: Claude Code watches only the files the entry names; add them to its matcher by hand"
            );
            continue;
        }
        for name in matcher.split('|').map(str::trim).filter(|n| !n.is_empty()) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    if names.is_empty() {
        Vec::new()
    } else {
        vec![("FileChanged", names.join("|"))]
    }
}

fn write(path: &Path, before: Option<&str>, after: &str, out: &mut String) -> Result<(), String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    if let Some(old) = before {
        let backup = backup_path(path);
        std::fs::write(&backup, old)
            .map_err(|err| format!("cannot write the backup {}: {err}", backup.display()))?;
        let _ = writeln!(out, "backup: {}", backup.display());
    }
    let mut file = tempfile::NamedTempFile::new_in(dir)
        .map_err(|err| format!("cannot write in {}: {err}", dir.display()))?;
    std::io::Write::write_all(&mut file, after.as_bytes())
        .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(file.path(), meta.permissions());
    }
    file.persist(path)
        .map_err(|err| format!("cannot write {}: {}", path.display(), err.error))?;
    let _ = writeln!(out, "wrote {}", path.display());
    Ok(())
}

pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".hookrun-backup");
    path.with_file_name(name)
}

/// What the host needs besides the file (the host's own note).
fn next_steps(w: &Wiring, path: &Path) -> String {
    crate::host::host(w.host)
        .install_note(path)
        .unwrap_or_default()
}

/// A unified diff of two texts (whole-file hunk), for `--dry-run`.
pub fn diff(old: &str, new: &str, path: &Path) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Longest common subsequence table, from the end.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = format!(
        "--- {0}\n+++ {0}\n@@ -1,{1} +1,{2} @@\n",
        path.display(),
        a.len(),
        b.len()
    );
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            let _ = writeln!(out, " {}", a[i]);
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "-{}", a[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+{}", b[j]);
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_marks_added_and_removed_lines() {
        let d = diff("a\nb\nc\n", "a\nx\nc\nd\n", Path::new("f"));
        assert_eq!(d, "--- f\n+++ f\n@@ -1,3 +1,4 @@\n a\n-b\n+x\n c\n+d\n");
    }

    #[test]
    fn backups_sit_next_to_the_file() {
        assert_eq!(
            backup_path(Path::new("/p/.gemini/settings.json")),
            PathBuf::from("/p/.gemini/settings.json.hookrun-backup")
        );
    }
}

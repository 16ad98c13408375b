//! `hookrun install`/`uninstall` for a host whose hooks are files, one per
//! event, named after it, in a folder (Cline): no document to edit, so each
//! file is hookrun's own (marked as such) or left alone.
//!
//! Written safely: a folder or file that is a symlink is never written
//! through, a file hookrun did not write is never overwritten or removed,
//! and each file is written whole next to its place, then renamed over it.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, bail};

use crate::host::wiring::Wiring;
use crate::host::{cline, launch};

/// What install routes: the command base (`BINARY fire --host cline`) and
/// the Claude Code events hookrun's settings use.
pub struct Route<'a> {
    pub base: String,
    pub events: &'a [&'static str],
}

/// Installs (`route` given) or uninstalls hookrun's hook files in `dir`.
pub fn run(
    w: &Wiring,
    dir: &Path,
    route: Option<Route<'_>>,
    dry_run: bool,
) -> anyhow::Result<String> {
    let mut out = String::new();
    refuse_symlinked(dir)?;
    let host = crate::host::host(w.host);
    if let Some(route) = route {
        let mut routed = Vec::new();
        for claude in route.events {
            let Some(event) = w.host_event(claude) else {
                let _ = writeln!(
                    out,
                    "warning: {} has no {claude} event: hookrun's {claude} hooks never fire under it",
                    w.host.display()
                );
                continue;
            };
            let system = launch::System::current();
            let command = launch::finish(
                &host.fire_command(&route.base, event),
                launch::launcher(w.host, system),
            );
            let text = cline::hook_file_on(&command, system);
            let name = cline::hook_file_name(event, system);
            if write_one(&dir.join(name), &text, dry_run, &mut out)? {
                routed.push(event);
            }
        }
        let _ = writeln!(
            out,
            "{} events routed to `{}`: {}",
            w.host.display(),
            route.base,
            routed.join(", ")
        );
        if !dry_run {
            out.push_str(&host.install_note(dir).unwrap_or_default());
        }
    } else {
        let mut removed = 0;
        for (_, event) in w.events {
            let path = dir.join(cline::hook_file_name(event, launch::System::current()));
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.file_type().is_file() => {}
                _ => continue,
            }
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if !cline::is_ours(&text) {
                let _ = writeln!(out, "note: {} is not hookrun's: left alone", path.display());
                continue;
            }
            if dry_run {
                let _ = writeln!(out, "would remove {} (dry run)", path.display());
            } else {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
                let _ = writeln!(out, "removed {}", path.display());
            }
            removed += 1;
        }
        let _ = writeln!(
            out,
            "{removed} hookrun hook file{} removed",
            if removed == 1 { "" } else { "s" }
        );
    }
    Ok(out)
}

/// The folder and its parent must not be symlinks (a repository can plant
/// `.clinerules -> /somewhere`): hookrun writes only where it means to.
fn refuse_symlinked(dir: &Path) -> anyhow::Result<()> {
    for path in [Some(dir), dir.parent()].into_iter().flatten() {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            bail!(
                "{} is a symlink: hookrun does not write hook files through it; make it a folder or install by hand",
                path.display()
            );
        }
    }
    Ok(())
}

/// Writes one hook file unless a file that is not hookrun's is there;
/// whether the event is routed by hookrun's file.
fn write_one(path: &Path, text: &str, dry_run: bool, out: &mut String) -> anyhow::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() || !meta.file_type().is_file() => {
            let _ = writeln!(
                out,
                "warning: {} is not a plain file: left alone, and this event is not routed",
                path.display()
            );
            return Ok(false);
        }
        Ok(_) => {
            let old = std::fs::read_to_string(path).unwrap_or_default();
            if !cline::is_ours(&old) {
                let _ = writeln!(
                    out,
                    "warning: {} is not hookrun's: left alone, and this event is not routed (move it away, or have it run the command by hand)",
                    path.display()
                );
                return Ok(false);
            }
            if old == text {
                let _ = writeln!(out, "{}: already up to date", path.display());
                return Ok(true);
            }
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => {
            return Err(err).with_context(|| format!("cannot read {}", path.display()));
        }
    }
    if dry_run {
        let _ = writeln!(out, "would write {} (dry run):\n{text}", path.display());
        return Ok(true);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut file = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    std::io::Write::write_all(&mut file, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    crate::platform::set_mode(file.path(), 0o755)
        .with_context(|| format!("cannot make {} executable", path.display()))?;
    file.persist(path)
        .map_err(|err| err.error)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let _ = writeln!(out, "wrote {}", path.display());
    Ok(true)
}

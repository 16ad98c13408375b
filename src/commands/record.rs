//! The record `hookrun install` keeps of what it wrote: which host file (or
//! Cline folder) of which host and scope, whether install created it and
//! the folders above it, and the backups it left. `hookrun uninstall --all`
//! undoes every install from it (every host, every scope, any project),
//! `hookrun uninstall HOST` cleans up after one, and `hookrun status` shows
//! them.
//!
//! One JSON file in hookrun's state folder (`installs.json`, `0600`),
//! rewritten whole under a lock: two installs never lose each other's row.
//! Rows name hosts by their `--host` name, so a new host needs nothing here.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, anyhow};
use serde::{Deserialize, Serialize};

use crate::host::HostId;
use crate::host::wiring::Scope;

const VERSION: u32 = 1;
const FILE: &str = "installs.json";

/// The whole record.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Record {
    version: u32,
    #[serde(default)]
    pub installs: Vec<Install>,
}

/// What one `hookrun install` of one host file wrote (later installs of the
/// same file add to it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Install {
    /// The host's `--host` name (`claude-code`).
    pub host: String,
    /// `project`, `user` or `local` (Claude Code's local file).
    pub scope: String,
    /// The host file, or Cline's folder of hook files.
    pub file: PathBuf,
    /// The file did not exist before the first install: uninstall removes
    /// it once nothing but install's entries was in it.
    #[serde(default)]
    pub created: bool,
    /// Folders install created for the file, outermost first: removed when
    /// they are empty again.
    #[serde(default)]
    pub folders: Vec<PathBuf>,
    /// The backups install saved of the file (`FILE.hookrun-backup`…):
    /// removed once they hold nothing the file does not (after uninstall).
    #[serde(default)]
    pub backups: Vec<PathBuf>,
}

impl Install {
    /// The host this row is about (`None`: a name this hookrun does not
    /// know, written by a newer one).
    pub fn host_id(&self) -> Option<HostId> {
        crate::host::HOSTS
            .iter()
            .map(|h| h.id())
            .find(|id| id.name() == self.host)
    }
}

/// The row of one install of `file`.
pub fn row(
    host: HostId,
    scope: Scope,
    local: bool,
    file: &Path,
    created: bool,
    folders: Vec<PathBuf>,
    backup: Option<PathBuf>,
) -> Install {
    Install {
        host: host.name().to_owned(),
        scope: scope_name(scope, local).to_owned(),
        file: file.to_path_buf(),
        created,
        folders,
        backups: backup.into_iter().collect(),
    }
}

/// `project`, `user` or `local`, as a row says it.
pub fn scope_name(scope: Scope, local: bool) -> &'static str {
    match (scope, local) {
        (_, true) => "local",
        (Scope::Project, false) => "project",
        (Scope::User, false) => "user",
    }
}

/// Where the record is: `installs.json` in hookrun's state folder (`None`
/// without a home folder or state folder).
pub fn path() -> Option<PathBuf> {
    crate::state::StateDir::from_process().map(|state| state.root().join(FILE))
}

/// Reads the record at `path` (a missing file is an empty record).
pub fn load(path: &Path) -> anyhow::Result<Record> {
    let bytes = match crate::fsafe::read(path, crate::fsafe::Follow::No) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Record::default()),
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", path.display())),
    };
    let record: Record = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{} is not hookrun's install record; move it away to start a new one",
            path.display()
        )
    })?;
    Ok(record)
}

/// Changes the record under its folder's lock and writes it back (the file
/// goes once it holds no row).
pub fn update(path: &Path, change: impl FnOnce(&mut Record)) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_private_dir(dir)?;
    let _lock = crate::safewrite::lock_folder(path).map_err(|why| anyhow!(why))?;
    let mut record = load(path)?;
    change(&mut record);
    record.version = VERSION;
    if record.installs.is_empty() {
        return match std::fs::remove_file(path) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                Err(err).with_context(|| format!("cannot remove {}", path.display()))
            }
            _ => {
                // The state folder goes too when nothing else is in it.
                let _ = std::fs::remove_dir(dir);
                Ok(())
            }
        };
    }
    let mut bytes = serde_json::to_vec_pretty(&record).expect("the record serialises");
    bytes.push(b'\n');
    crate::fsafe::write_private_atomically(path, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Adds what one install wrote: a new row, or more to the row of the same
/// file (which keeps whether the first install created it).
pub fn add(record: &mut Record, install: Install) {
    match record
        .installs
        .iter_mut()
        .find(|row| row.file == install.file && row.host == install.host)
    {
        Some(row) => {
            for folder in install.folders {
                if !row.folders.contains(&folder) {
                    row.folders.push(folder);
                }
            }
            for backup in install.backups {
                if !row.backups.contains(&backup) {
                    row.backups.push(backup);
                }
            }
        }
        None => record.installs.push(install),
    }
}

/// The folders above `path` (and, with `itself`, `path`) that do not
/// exist, outermost first: the ones writing `path` creates.
pub fn missing_folders(path: &Path, itself: bool) -> Vec<PathBuf> {
    let start = if itself { Some(path) } else { path.parent() };
    let mut missing: Vec<PathBuf> = start
        .into_iter()
        .flat_map(Path::ancestors)
        .take_while(|dir| std::fs::symlink_metadata(dir).is_err())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    missing
}

/// Removes the recorded folders that are empty, innermost first; the ones
/// still holding something stay (said in `out`).
pub fn remove_empty_folders(folders: &[PathBuf], out: &mut Vec<String>) {
    for folder in folders.iter().rev() {
        match std::fs::remove_dir(folder) {
            Ok(()) => out.push(format!("removed {} (install created it)", folder.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => out.push(format!(
                "kept {}: install created it, but it holds other files now",
                folder.display()
            )),
        }
    }
}

fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    crate::platform::set_folder_mode(&mut builder, 0o700);
    builder
        .create(dir)
        .with_context(|| format!("cannot create {}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    crate::platform::unix_only! {
    use std::os::unix::fs::PermissionsExt as _;
    }

    crate::platform::unix_only! {
    #[test]
    fn rows_of_one_file_merge_and_an_empty_record_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/installs.json");
        let row = |backups: &[&str]| Install {
            host: "gemini".into(),
            scope: "user".into(),
            file: PathBuf::from("/h/.gemini/settings.json"),
            created: true,
            folders: vec![PathBuf::from("/h/.gemini")],
            backups: backups.iter().map(PathBuf::from).collect(),
        };
        update(&path, |r| add(r, row(&[]))).unwrap();
        update(&path, |r| {
            add(r, row(&["/h/.gemini/settings.json.hookrun-backup"]));
        })
        .unwrap();
        let record = load(&path).unwrap();
        assert_eq!(record.installs.len(), 1);
        assert!(record.installs[0].created);
        assert_eq!(record.installs[0].backups.len(), 1);
        assert_eq!(record.installs[0].host_id(), Some(HostId::Gemini));
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        update(&path, |r| r.installs.clear()).unwrap();
        assert!(!path.exists() && !path.parent().unwrap().exists());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "[]").unwrap();
        let err = format!("{:#}", load(&path).unwrap_err());
        assert!(err.contains("not hookrun's install record"), "{err}");
    }
    }

    #[test]
    fn missing_folders_are_the_ones_a_write_creates() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a/b/c.json");
        assert_eq!(
            missing_folders(&file, false),
            [dir.path().join("a"), dir.path().join("a/b")]
        );
        assert_eq!(
            missing_folders(&dir.path().join("a"), true),
            [dir.path().join("a")]
        );
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        let unexpected = missing_folders(&file, false);
        assert!(unexpected.is_empty(), "{unexpected:?}");
        let mut out = Vec::new();
        std::fs::write(dir.path().join("a/b/keep"), "").unwrap();
        remove_empty_folders(&[dir.path().join("a"), dir.path().join("a/b")], &mut out);
        assert!(dir.path().join("a/b/keep").exists());
        std::fs::remove_file(dir.path().join("a/b/keep")).unwrap();
        remove_empty_folders(&[dir.path().join("a"), dir.path().join("a/b")], &mut out);
        assert!(!dir.path().join("a").exists(), "{out:?}");
    }
}

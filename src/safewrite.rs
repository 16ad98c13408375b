//! Writing a user's file without losing a byte (`hookrun install` and
//! `uninstall`): a symlinked file is written through to its target (in
//! place, the link stays), the file's mode is kept, a backup never follows
//! a symlink and never overwrites an earlier backup, and a write that
//! another program made between our read and our rename is never lost
//! (compare-and-swap on the bytes read: see [`replace`]).

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// A file about to be edited: the path named and the file really written.
#[derive(Debug, Clone)]
pub struct Target {
    pub named: PathBuf,
    /// The file the bytes live in (`named`, or a symlink's target).
    pub real: PathBuf,
    /// `named` is a symlink.
    pub link: bool,
    /// The content read (`None`: the file does not exist).
    pub before: Option<Vec<u8>>,
    /// Permission bits of the real file.
    pub mode: Option<u32>,
}

impl Target {
    pub fn is_symlink(&self) -> bool {
        self.link
    }

    /// Whether nobody may write the file (no write bit at all): hookrun
    /// does not rewrite it.
    pub fn read_only(&self) -> bool {
        self.mode.is_some_and(|m| m & 0o222 == 0)
    }
}

/// Why a file was not read, locked or backed up. The I/O error is part of
/// the message, not a cause of its own: the message is the whole story.
#[derive(Debug, thiserror::Error)]
pub enum SafeWriteError {
    #[error("cannot read {}: {err}", path.display())]
    Read { path: PathBuf, err: std::io::Error },
    #[error(
        "{} is a symlink whose target cannot be read ({err}): hookrun does not create files through a link; fix or remove the link",
        named.display()
    )]
    DanglingLink { named: PathBuf, err: std::io::Error },
    #[error(
        "{} is really {}, outside {} (through a symlink): hookrun does not write through it (a repository can point it at any of your files); remove the link, or edit the target yourself",
        named.display(),
        real.display(),
        dir.display()
    )]
    Outside {
        named: PathBuf,
        real: PathBuf,
        dir: PathBuf,
    },
    #[error("{} is not a regular file", .0.display())]
    NotAFile(PathBuf),
    #[error(
        "another program holds the lock on {} (another hookrun install?): nothing written; run again",
        .0.display()
    )]
    Locked(PathBuf),
    #[error("cannot write the backup {}: {err}", path.display())]
    Backup { path: PathBuf, err: std::io::Error },
    #[error("{}: too many backups already; remove old ones", .0.display())]
    TooManyBackups(PathBuf),
}

/// Reads `named`, following a symlink to the file it names. A link whose
/// target is missing is refused (writing through it would create a file
/// the user did not name), and so is, with `inside`, a file that really
/// lies outside that folder (through a linked file or folder).
pub fn open(named: &Path, inside: Option<&Path>) -> Result<Target, SafeWriteError> {
    let cannot_read = |path: &Path| {
        let path = path.to_path_buf();
        move |err| SafeWriteError::Read { path, err }
    };
    let link = match std::fs::symlink_metadata(named) {
        Ok(meta) => Some(meta.file_type().is_symlink()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(cannot_read(named)(err)),
    };
    let real = if link == Some(true) {
        std::fs::canonicalize(named).map_err(|err| SafeWriteError::DanglingLink {
            named: named.to_path_buf(),
            err,
        })?
    } else {
        // The folders on the way may be links too.
        resolved(named)
    };
    if let Some(dir) = inside {
        let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if !real.starts_with(&dir) {
            return Err(SafeWriteError::Outside {
                named: named.to_path_buf(),
                real,
                dir,
            });
        }
    }
    let Some(link) = link else {
        return Ok(Target {
            named: named.to_path_buf(),
            real: named.to_path_buf(),
            link: false,
            before: None,
            mode: None,
        });
    };
    let real = if link { real } else { named.to_path_buf() };
    let meta = std::fs::metadata(&real).map_err(cannot_read(&real))?;
    if !meta.is_file() {
        return Err(SafeWriteError::NotAFile(real));
    }
    let before = std::fs::read(&real).map_err(cannot_read(&real))?;
    Ok(Target {
        named: named.to_path_buf(),
        real,
        link,
        before: Some(before),
        mode: Some(crate::platform::mode_bits(&meta)),
    })
}

/// An advisory lock on the folder a file lives in, held while hookrun edits
/// the file: two `hookrun install`s take turns. (Editors take no such
/// lock; against them the compare-and-swap of [`replace`] holds.) `None`
/// when the folder does not exist yet.
pub fn lock_folder(file: &Path) -> Result<Option<crate::platform::FileLock>, SafeWriteError> {
    lock_folder_within(file, 100)
}

fn lock_folder_within(
    file: &Path,
    tries: u32,
) -> Result<Option<crate::platform::FileLock>, SafeWriteError> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let Ok(handle) = std::fs::File::open(dir) else {
        return Ok(None);
    };
    let mut handle = handle;
    // Never wait long: a lock held forever must not hang hookrun.
    for _ in 0..tries {
        match crate::platform::try_lock(handle) {
            Ok(lock) => return Ok(Some(lock)),
            Err((back, err)) if err.kind() == std::io::ErrorKind::WouldBlock => {
                handle = back;
                std::thread::sleep(std::time::Duration::from_millis(30));
            }
            // A file system without locks: the compare-and-swap still holds.
            Err(_) => return Ok(None),
        }
    }
    Err(SafeWriteError::Locked(dir.to_path_buf()))
}

/// `path` with its nearest existing ancestor resolved (links followed),
/// the rest (not there yet) joined as written.
fn resolved(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut at = path;
    loop {
        let Some(parent) = at.parent() else {
            return path.to_path_buf();
        };
        rest.push(at.file_name().unwrap_or_default());
        if let Ok(dir) = std::fs::canonicalize(parent) {
            return rest.iter().rev().fold(dir, |p, part| p.join(part));
        }
        at = parent;
    }
}

/// `FILE.hookrun-backup`, then `.hookrun-backup.1`, `.2`…: the first name
/// nothing exists at.
pub fn backup_name(path: &Path, n: u32) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".hookrun-backup");
    if n > 0 {
        name.push(format!(".{n}"));
    }
    path.with_file_name(name)
}

/// Saves `content` next to `path` under the first free backup name, with
/// `mode`. Created with `O_CREAT|O_EXCL|O_NOFOLLOW`: an existing name, or
/// a symlink planted there, is skipped, never written through.
pub fn backup(path: &Path, content: &[u8], mode: u32) -> Result<PathBuf, SafeWriteError> {
    for n in 0..10_000 {
        let name = backup_name(path, n);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        crate::platform::set_open_flags(&mut options, false);
        crate::platform::set_create_mode(&mut options, mode & 0o777);
        let opened = options.open(&name);
        let mut file = match opened {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(err) => return Err(SafeWriteError::Backup { path: name, err }),
        };
        // The umask may have taken bits away: the backup has the original's.
        crate::platform::set_mode(&name, mode & 0o777)
            .and_then(|()| file.write_all(content))
            .and_then(|()| file.sync_all())
            .map_err(|err| SafeWriteError::Backup {
                path: name.clone(),
                err,
            })?;
        return Ok(name);
    }
    Err(SafeWriteError::TooManyBackups(path.to_path_buf()))
}

/// Why [`replace`] did not write.
#[derive(Debug)]
pub enum WriteError {
    /// The file changed since it was read: nothing was written.
    Changed,
    Io(String),
}

/// Puts `new` in place of the real file by an atomic rename, with the old
/// file's mode (0644 for a new file), if the file still holds exactly the
/// bytes read (compare-and-swap: a concurrent editor's write is never
/// overwritten). `new: None` removes the file.
pub fn replace(target: &Target, new: Option<&[u8]>) -> Result<(), WriteError> {
    let real = &target.real;
    let dir = real.parent().unwrap_or(Path::new("."));
    let io = |what: &str, err: &dyn std::fmt::Display| WriteError::Io(format!("{what}: {err}"));
    let Some(new) = new else {
        if current(real)? != target.before {
            return Err(WriteError::Changed);
        }
        return std::fs::remove_file(real)
            .map_err(|err| io(&format!("cannot remove {}", real.display()), &err));
    };
    std::fs::create_dir_all(dir)
        .map_err(|err| io(&format!("cannot create {}", dir.display()), &err))?;
    let mut file = tempfile::NamedTempFile::new_in(dir)
        .map_err(|err| io(&format!("cannot write in {}", dir.display()), &err))?;
    let mode = target.mode.unwrap_or(0o644);
    file.write_all(new)
        .and_then(|()| crate::platform::set_mode(file.path(), mode))
        .and_then(|()| file.as_file().sync_all())
        .map_err(|err| io(&format!("cannot write {}", real.display()), &err))?;
    if current(real)? != target.before {
        return Err(WriteError::Changed);
    }
    let done = if target.before.is_none() {
        // Nothing may appear there meanwhile: never clobber.
        file.persist_noclobber(real).map_err(|e| e.error)
    } else {
        file.persist(real).map_err(|e| e.error)
    };
    match done {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => Err(WriteError::Changed),
        Err(err) => Err(io(&format!("cannot write {}", real.display()), &err)),
    }
}

fn current(real: &Path) -> Result<Option<Vec<u8>>, WriteError> {
    match std::fs::read(real) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(WriteError::Io(format!(
            "cannot read {}: {err}",
            real.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::platform::unix_only! {
    #[test]
    fn backups_are_numbered_never_follow_links_and_keep_the_mode() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        let victim = dir.path().join("bashrc");
        std::fs::write(&victim, "mine").unwrap();
        std::os::unix::fs::symlink(&victim, backup_name(&file, 0)).unwrap();
        let first = backup(&file, b"one", 0o600).unwrap();
        assert_eq!(first, backup_name(&file, 1));
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine");
        let second = backup(&file, b"two", 0o640).unwrap();
        assert_eq!(second, backup_name(&file, 2));
        assert_eq!(std::fs::read_to_string(&first).unwrap(), "one");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&first), 0o600);
        assert_eq!(mode(&second), 0o640);
    }
    }

    #[test]
    fn the_folder_lock_makes_a_second_editor_wait_then_give_up() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        let held = lock_folder(&file).unwrap();
        assert!(held.is_some());
        let err = lock_folder_within(&file, 2).unwrap_err();
        assert!(err.to_string().contains("holds the lock"), "{err}");
        drop(held);
        assert!(lock_folder_within(&file, 1).unwrap().is_some());
        assert!(
            lock_folder(&dir.path().join("missing/x.json"))
                .unwrap()
                .is_none()
        );
    }

    crate::platform::unix_only! {
    #[test]
    fn replace_writes_through_links_keeps_the_mode_and_loses_no_write() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::fs::write(&real, "{}").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let target = open(&link, Some(dir.path())).unwrap();
        assert!(target.is_symlink());
        replace(&target, Some(b"{\"a\": 1}")).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "{\"a\": 1}");
        assert_eq!(
            std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
            0o600
        );
        // Someone else wrote after our read: refused, their bytes stay.
        let target = open(&link, None).unwrap();
        std::fs::write(&real, "{\"theirs\": 1}").unwrap();
        assert!(matches!(
            replace(&target, Some(b"{}")),
            Err(WriteError::Changed)
        ));
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "{\"theirs\": 1}");
        // A link out of the folder is refused.
        let outside = tempfile::tempdir().unwrap();
        let elsewhere = outside.path().join("x.json");
        std::fs::write(&elsewhere, "{}").unwrap();
        let out_link = dir.path().join("out.json");
        std::os::unix::fs::symlink(&elsewhere, &out_link).unwrap();
        assert!(open(&out_link, Some(dir.path())).is_err());
        // So is a file under a linked folder that leads out.
        std::os::unix::fs::symlink(outside.path(), dir.path().join("sub")).unwrap();
        assert!(open(&dir.path().join("sub/x.json"), Some(dir.path())).is_err());
        assert!(open(&dir.path().join("sub/new.json"), Some(dir.path())).is_err());
        assert!(open(&dir.path().join("sub/x.json"), None).is_ok());
        // A project reached through a link is still the project.
        let via = outside.path().join("via");
        std::os::unix::fs::symlink(dir.path(), &via).unwrap();
        assert!(open(&via.join("new/deeper/f.json"), Some(&via)).is_ok());
    }
    }
}

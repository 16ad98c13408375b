//! hookrun's state directory (SPEC §7.4): small files, claimed atomically.
//!
//! `$HOOKRUN_STATE_DIR`, else `$XDG_STATE_HOME/hookrun`, else
//! `~/.local/state/hookrun`. Session ids and keys are hashed into file
//! names, so no input can name a path outside the directory.

use std::io::{self, Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::fsafe::{self, Write};
use crate::settings::trust::sha256_hex;

/// The state directory of this user.
#[derive(Debug, Clone)]
pub struct StateDir {
    root: PathBuf,
}

impl StateDir {
    /// Finds the directory from the environment (it may not exist yet).
    pub fn locate(lookup: impl Fn(&str) -> Option<String>) -> Option<StateDir> {
        let non_empty = |name: &str| lookup(name).filter(|v| !v.is_empty());
        let root = non_empty("HOOKRUN_STATE_DIR")
            .map(PathBuf::from)
            .or_else(|| non_empty("XDG_STATE_HOME").map(|dir| Path::new(&dir).join("hookrun")))
            .or_else(|| {
                // Windows: the user's local application data.
                crate::platform::LOCAL_DATA_VAR
                    .and_then(non_empty)
                    .map(|dir| Path::new(&dir).join("hookrun").join("state"))
            })
            .or_else(|| {
                non_empty("HOME").map(|home| Path::new(&home).join(".local/state/hookrun"))
            })?;
        Some(StateDir { root })
    }

    pub fn from_process() -> Option<StateDir> {
        StateDir::locate(|name| std::env::var(name).ok())
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder of one session.
    pub fn session_dir(&self, session_id: &str) -> PathBuf {
        self.root
            .join("sessions")
            .join(&sha256_hex(session_id.as_bytes())[..32])
    }

    /// Claims `(session, kind, key)`: `Ok(true)` for the first claimant only,
    /// even across concurrent hookrun processes (`O_EXCL`).
    pub fn claim(&self, session_id: &str, kind: &str, key: &str) -> io::Result<bool> {
        let dir = self.session_dir(session_id).join(kind);
        std::fs::create_dir_all(&dir)?;
        let name = &sha256_hex(key.as_bytes())[..32];
        match fsafe::open_private(&dir.join(name), Write::CreateNew) {
            Ok(_) => Ok(true),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(err) => Err(err),
        }
    }
}

impl StateDir {
    /// Gives back a claim (a `once` hook that then could not start), so the
    /// next fire may claim it again.
    pub fn release(&self, session_id: &str, kind: &str, key: &str) -> io::Result<()> {
        let name = &sha256_hex(key.as_bytes())[..32];
        std::fs::remove_file(self.session_dir(session_id).join(kind).join(name))
    }
}

/// How long a session's state is kept after its last change.
pub const SESSION_TTL: Duration = Duration::from_secs(7 * 24 * 3600);

impl StateDir {
    /// Counts consecutive blocked stops of one session and key: returns the
    /// count including this fire when `blocked`, and resets it otherwise.
    /// A corrupt counter is reported and starts again from zero, and so
    /// does one above `most`, which hookrun never leaves behind (it resets
    /// the count once it passes the cap): the agent can write this file,
    /// and a value it could have written must not end the stop-loop guard's
    /// chain early.
    pub fn count_stop_block(
        &self,
        session_id: &str,
        key: &str,
        blocked: bool,
        most: u32,
    ) -> io::Result<(u32, Option<String>)> {
        let dir = self.session_dir(session_id);
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("stop-blocks-{}", &sha256_hex(key.as_bytes())[..16]));
        // Never through a planted link, never a FIFO; the lock waits no
        // longer than the fire's deadline.
        let named =
            |err: io::Error| io::Error::new(err.kind(), format!("{}: {err}", path.display()));
        let file = fsafe::open_private(&path, Write::Update).map_err(named)?;
        let mut locked = fsafe::lock_exclusive(file).map_err(named)?;
        let mut text = String::new();
        locked.read_to_string(&mut text)?;
        let mut warning = None;
        let previous = match text.trim() {
            "" => 0,
            digits => match digits.parse::<u32>() {
                Ok(count) if count <= most => count,
                Ok(count) => {
                    warning = Some(format!(
                        "stop-loop counter {} held {count}, more than hookrun ever leaves there (at most {most}): reset, not believed",
                        path.display()
                    ));
                    0
                }
                Err(_) => {
                    warning = Some(format!(
                        "corrupt stop-loop counter {} reset",
                        path.display()
                    ));
                    0
                }
            },
        };
        let count = if blocked {
            previous.saturating_add(1)
        } else {
            0
        };
        locked.set_len(0)?;
        locked.seek(SeekFrom::Start(0))?;
        locked.write_all(count.to_string().as_bytes())?;
        Ok((count, warning))
    }

    /// Resets the consecutive-block counter (after a downgrade).
    pub fn reset_stop_blocks(&self, session_id: &str, key: &str) -> io::Result<()> {
        self.count_stop_block(session_id, key, false, u32::MAX)
            .map(|_| ())
    }

    /// The folder where `async` hooks of a session leave their results.
    pub fn async_dir(&self, session_id: &str) -> PathBuf {
        self.session_dir(session_id).join("async")
    }

    /// Removes sessions untouched for longer than [`SESSION_TTL`]; runs at
    /// most once a day (a stamp file), so it costs nothing on most fires.
    pub fn cleanup(&self) {
        let stamp = self.root.join("last-cleanup");
        let fresh = std::fs::metadata(&stamp)
            .and_then(|m| m.modified())
            .is_ok_and(|t| {
                t.elapsed()
                    .is_ok_and(|age| age < Duration::from_secs(24 * 3600))
            });
        if fresh {
            return;
        }
        if std::fs::create_dir_all(&self.root).is_err()
            || fsafe::open_private(&stamp, Write::Truncate).is_err()
        {
            return;
        }
        let Ok(sessions) = std::fs::read_dir(self.root.join("sessions")) else {
            return;
        };
        for entry in sessions.flatten() {
            let path = entry.path();
            if newest_change(&path).is_some_and(|t| t.elapsed().is_ok_and(|age| age > SESSION_TTL))
            {
                let _ = std::fs::remove_dir_all(&path);
            }
        }
    }
}

/// The `PATH` hosts give their hooks, as the last fire that named its host
/// saw it (`host-paths/HOST.HASH`): `doctor` checks a hook's programs
/// against it, since a host started from a desktop launcher or an IDE
/// often has a shorter `PATH` than the shell `doctor` runs in.
impl StateDir {
    fn host_paths(&self) -> PathBuf {
        self.root.join("host-paths")
    }

    /// Records `path` for `host`: one `stat` when it is the one recorded
    /// already (most fires), else a small file, and the host's older one
    /// goes. Failures are ignored: it is only a hint for `doctor`.
    pub fn record_host_path(&self, host: &str, path: &std::ffi::OsStr) {
        let dir = self.host_paths();
        let name = format!("{host}.{}", &sha256_hex(path.as_encoded_bytes())[..16]);
        let file = dir.join(&name);
        if std::fs::symlink_metadata(&file).is_ok() {
            return;
        }
        if std::fs::create_dir_all(&dir).is_err()
            || fsafe::write_private_atomically(&file, path.as_encoded_bytes()).is_err()
        {
            return;
        }
        let prefix = format!("{host}.");
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let other = entry.file_name();
            let other = other.to_string_lossy();
            if other.starts_with(&prefix) && other != name.as_str() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// Every host's recorded `PATH`: (host name, `PATH`).
    pub fn host_path_records(&self) -> Vec<(String, std::ffi::OsString)> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(self.host_paths())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some((host, _)) = name.rsplit_once('.') else {
                continue;
            };
            if let Ok(bytes) = fsafe::read(&entry.path(), fsafe::Follow::No) {
                out.push((
                    host.to_owned(),
                    crate::platform::os_string_from_bytes(bytes),
                ));
            }
        }
        out.sort();
        out
    }
}

/// The newest modification time of a folder and everything in it.
fn newest_change(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let mut newest = meta.modified().ok()?;
    if meta.is_dir() {
        for entry in std::fs::read_dir(path).ok()?.flatten() {
            if let Some(t) = newest_change(&entry.path()) {
                newest = newest.max(t);
            }
        }
    }
    Some(newest)
}

/// Whether a notice should reach `systemMessage` now: once per session and
/// key. Without a session id, or when the state cannot be written, it is
/// shown (better twice than never).
pub fn first_time(
    state: Option<&StateDir>,
    session_id: Option<&str>,
    kind: &str,
    key: &str,
) -> bool {
    match (state, session_id) {
        (Some(state), Some(session)) => state.claim(session, kind, key).unwrap_or(true),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_prefers_the_explicit_dir() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let dir = StateDir::locate(env(&[
            ("HOOKRUN_STATE_DIR", "/s"),
            ("XDG_STATE_HOME", "/x"),
            ("HOME", "/h"),
        ]))
        .unwrap();
        assert_eq!(dir.root(), Path::new("/s"));
        let dir = StateDir::locate(env(&[("XDG_STATE_HOME", "/x"), ("HOME", "/h")])).unwrap();
        assert_eq!(dir.root(), Path::new("/x/hookrun"));
        let dir = StateDir::locate(env(&[("HOME", "/h")])).unwrap();
        assert_eq!(dir.root(), Path::new("/h/.local/state/hookrun"));
        assert!(StateDir::locate(env(&[])).is_none());
    }

    #[test]
    fn claims_are_once_per_session_and_key() {
        let tmp = tempfile::tempdir().unwrap();
        let state = StateDir {
            root: tmp.path().to_path_buf(),
        };
        assert!(state.claim("s1", "notice", "a").unwrap());
        assert!(!state.claim("s1", "notice", "a").unwrap());
        assert!(state.claim("s1", "notice", "b").unwrap());
        assert!(state.claim("s2", "notice", "a").unwrap());
        assert!(state.claim("../../etc", "notice", "a").unwrap());
        assert!(first_time(None, Some("s"), "k", "x"));
        assert!(first_time(Some(&state), None, "k", "x"));
    }

    #[test]
    fn stop_blocks_count_and_reset() {
        let tmp = tempfile::tempdir().unwrap();
        let state = StateDir {
            root: tmp.path().to_path_buf(),
        };
        assert_eq!(state.count_stop_block("s", "Stop", true, 8).unwrap().0, 1);
        assert_eq!(state.count_stop_block("s", "Stop", true, 8).unwrap().0, 2);
        assert_eq!(state.count_stop_block("t", "Stop", true, 8).unwrap().0, 1);
        assert_eq!(state.count_stop_block("s", "Stop", false, 8).unwrap().0, 0);
        assert_eq!(state.count_stop_block("s", "Stop", true, 8).unwrap().0, 1);
        // A corrupt counter is reported and restarts.
        let dir = state.session_dir("s");
        let file = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with("stop-blocks"))
            .unwrap();
        std::fs::write(file.path(), "garbage").unwrap();
        let (count, warning) = state.count_stop_block("s", "Stop", true, 8).unwrap();
        assert_eq!(count, 1);
        assert!(warning.unwrap().contains("corrupt"));
        // A count hookrun never leaves behind is not believed.
        std::fs::write(file.path(), "99").unwrap();
        let (count, warning) = state.count_stop_block("s", "Stop", true, 8).unwrap();
        assert_eq!(count, 1);
        assert!(warning.unwrap().contains("not believed"));
        std::fs::write(file.path(), "8").unwrap();
        assert_eq!(state.count_stop_block("s", "Stop", true, 8).unwrap().0, 9);
    }

    #[test]
    fn cleanup_removes_only_old_sessions() {
        let tmp = tempfile::tempdir().unwrap();
        let state = StateDir {
            root: tmp.path().to_path_buf(),
        };
        state.claim("old", "notice", "x").unwrap();
        state.claim("new", "notice", "x").unwrap();
        let old = state.session_dir("old");
        let long_ago = SystemTime::now() - Duration::from_secs(30 * 24 * 3600);
        for path in [old.join("notice"), old.clone()] {
            for entry in std::fs::read_dir(&path).unwrap().flatten() {
                std::fs::File::options()
                    .write(true)
                    .open(entry.path())
                    .ok()
                    .map(|f| f.set_modified(long_ago));
            }
            std::fs::File::open(&path)
                .unwrap()
                .set_modified(long_ago)
                .unwrap();
        }
        state.cleanup();
        assert!(!old.exists());
        assert!(state.session_dir("new").exists());
    }

    #[test]
    fn concurrent_claims_have_one_winner() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let winners: usize = (0..8)
            .map(|_| {
                let state = StateDir { root: root.clone() };
                std::thread::spawn(move || usize::from(state.claim("s", "once", "k").unwrap()))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| t.join().unwrap())
            .sum();
        assert_eq!(winners, 1);
    }
}

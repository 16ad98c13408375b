//! hookrun's state directory (SPEC §7.4): small files, claimed atomically.
//!
//! `$HOOKRUN_STATE_DIR`, else `$XDG_STATE_HOME/hookrun`, else
//! `~/.local/state/hookrun`. Session ids and keys are hashed into file
//! names, so no input can name a path outside the directory.

use std::fs::OpenOptions;
use std::io;
use std::path::{Path, PathBuf};

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
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.join(name))
        {
            Ok(_) => Ok(true),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(err) => Err(err),
        }
    }
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

//! Trust of project settings (SPEC §9.1), direnv-style.
//!
//! Project and local settings arrive with a repository the user may have
//! just cloned, so nothing in them takes effect until the user trusts the
//! exact content: `hookrun trust` records the SHA-256 of each file in
//! `$XDG_CONFIG_HOME/hookrun/trust.json`, and a file whose content changed is
//! untrusted again. This module owns that store; it never parses settings.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

/// Current format of `trust.json`.
const VERSION: u32 = 1;

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error("failed to read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path} is not a valid trust store ({source}); every project file counts as untrusted until `hookrun trust` rewrites it"
    )]
    Corrupt {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("failed to write {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// One trusted file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub sha256: String,
    /// Seconds since the Unix epoch.
    pub trusted_at: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct StoreFile {
    version: u32,
    #[serde(default)]
    files: BTreeMap<String, Entry>,
}

/// What the store says about a file's current content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustState {
    Trusted,
    /// Never trusted.
    New,
    /// Trusted once, changed since.
    Changed,
}

/// The trust store.
#[derive(Debug, Clone)]
pub struct TrustStore {
    path: PathBuf,
    files: BTreeMap<String, Entry>,
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest {
        use std::fmt::Write as _;
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

impl TrustStore {
    /// An empty store that would be saved at `path`.
    pub fn empty(path: PathBuf) -> TrustStore {
        TrustStore {
            path,
            files: BTreeMap::new(),
        }
    }

    /// Loads the store; a missing file is an empty store.
    pub fn load(path: &Path) -> Result<TrustStore, TrustError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Ok(TrustStore::empty(path.to_path_buf()));
            }
            Err(source) => {
                return Err(TrustError::Read {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        let file: StoreFile =
            serde_json::from_slice(&bytes).map_err(|source| TrustError::Corrupt {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(TrustStore {
            path: path.to_path_buf(),
            files: file.files,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn key(file: &Path) -> String {
        file.to_string_lossy().into_owned()
    }

    /// The state of `file` whose current content is `bytes`.
    pub fn state(&self, file: &Path, bytes: &[u8]) -> TrustState {
        match self.files.get(&Self::key(file)) {
            None => TrustState::New,
            Some(entry) if entry.sha256 == sha256_hex(bytes) => TrustState::Trusted,
            Some(_) => TrustState::Changed,
        }
    }

    pub fn entry(&self, file: &Path) -> Option<&Entry> {
        self.files.get(&Self::key(file))
    }

    /// Records `file` with its current content.
    pub fn trust(&mut self, file: &Path, bytes: &[u8]) {
        let trusted_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.files.insert(
            Self::key(file),
            Entry {
                sha256: sha256_hex(bytes),
                trusted_at,
            },
        );
    }

    /// Forgets `file`; returns whether it was there.
    pub fn untrust(&mut self, file: &Path) -> bool {
        self.files.remove(&Self::key(file)).is_some()
    }

    /// Writes the store atomically: a temporary file in the same folder,
    /// then a rename, so a crash or a concurrent reader never sees half a
    /// file.
    pub fn save(&self) -> Result<(), TrustError> {
        let write_error = |source| TrustError::Write {
            path: self.path.clone(),
            source,
        };
        let dir = self.path.parent().unwrap_or_else(|| Path::new("."));
        std::fs::create_dir_all(dir).map_err(write_error)?;
        let file = StoreFile {
            version: VERSION,
            files: self.files.clone(),
        };
        let mut bytes = serde_json::to_vec_pretty(&file).expect("the store serialises");
        bytes.push(b'\n');
        let mut temp = tempfile::Builder::new()
            .prefix(".trust-")
            .tempfile_in(dir)
            .map_err(write_error)?;
        temp.write_all(&bytes).map_err(write_error)?;
        temp.as_file().sync_all().map_err(write_error)?;
        temp.persist(&self.path)
            .map_err(|err| write_error(err.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn trust_changes_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/trust.json");
        let mut store = TrustStore::load(&path).unwrap();
        let file = Path::new("/p/.hookrun/settings.json");
        assert_eq!(store.state(file, b"v1"), TrustState::New);
        store.trust(file, b"v1");
        assert_eq!(store.state(file, b"v1"), TrustState::Trusted);
        assert_eq!(store.state(file, b"v2"), TrustState::Changed);
        store.save().unwrap();
        let again = TrustStore::load(&path).unwrap();
        assert_eq!(again.state(file, b"v1"), TrustState::Trusted);
        let mut again = again;
        assert!(again.untrust(file));
        assert_eq!(again.state(file, b"v1"), TrustState::New);
    }

    #[test]
    fn a_corrupt_store_is_an_error_not_a_crash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trust.json");
        std::fs::write(&path, "{not json").unwrap();
        assert!(matches!(
            TrustStore::load(&path),
            Err(TrustError::Corrupt { .. })
        ));
    }
}

//! Trust of project settings (SPEC §9.1), direnv-style.
//!
//! Project and local settings arrive with a repository the user may have
//! just cloned, so nothing in them takes effect until the user trusts the
//! exact content: `hookrun trust` records the SHA-256 of each file in
//! `$XDG_CONFIG_HOME/hookrun/trust.json` and keeps a copy of the trusted
//! content in `trusted/<sha256>.json` beside it (both `0600`). A file whose
//! content changed since is not in force with its new content: the copy
//! that was trusted is, until the user trusts again, so an edit (by the
//! agent, say) can neither remove a rule nor add one. This module owns that
//! store; it never parses settings.

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
    /// A copy of the trusted content was kept (`trusted/<sha256>.json`).
    /// Records written before copies were kept lack it: a fire keeps a
    /// copy as soon as it sees the file still as trusted.
    #[serde(default)]
    pub stored: bool,
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
    /// Content trusted in this process, written by [`TrustStore::save`].
    pending: BTreeMap<String, Vec<u8>>,
}

/// Why the trusted copy of a changed file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error(
        "the trust store holds no copy of the content that was trusted (it was trusted by an older hookrun)"
    )]
    Missing,
    #[error("the trusted copy {path} cannot be read: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the trusted copy {path} does not match the recorded hash")]
    Tampered { path: PathBuf },
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
            pending: BTreeMap::new(),
        }
    }

    /// Loads the store; a missing file is an empty store.
    pub fn load(path: &Path) -> Result<TrustStore, TrustError> {
        let bytes = match crate::fsafe::read_capped(path, crate::fsafe::Follow::No) {
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
            pending: BTreeMap::new(),
        })
    }

    /// Where trusted copies live: `trusted/` beside the store.
    fn copies_dir(&self) -> PathBuf {
        self.path.with_file_name("trusted")
    }

    fn copy_path(&self, sha256: &str) -> PathBuf {
        self.copies_dir().join(format!("{sha256}.json"))
    }

    /// The content that was trusted for `file` (checked against its hash).
    pub fn trusted_content(&self, file: &Path) -> Result<Vec<u8>, CopyError> {
        let entry = self.entry(file).ok_or(CopyError::Missing)?;
        let path = self.copy_path(&entry.sha256);
        let bytes = match crate::fsafe::read_capped(&path, crate::fsafe::Follow::No) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(CopyError::Missing);
            }
            Err(source) => return Err(CopyError::Read { path, source }),
        };
        if sha256_hex(&bytes) != entry.sha256 {
            return Err(CopyError::Tampered { path });
        }
        Ok(bytes)
    }

    /// For a record from before copies were kept, whose file still has the
    /// trusted content (`bytes`): keeps the copy now, so a later edit
    /// cannot switch the file off. Costs one `stat` per fire until the
    /// user trusts again; failures are silent (the record stays as it was).
    pub fn keep_copy_of_legacy(&self, file: &Path, bytes: &[u8]) {
        let Some(entry) = self.entry(file).filter(|e| !e.stored) else {
            return;
        };
        let path = self.copy_path(&entry.sha256);
        if std::fs::symlink_metadata(&path).is_ok() {
            return;
        }
        let _ = self.write_copy(&entry.sha256, bytes);
    }

    fn write_copy(&self, sha256: &str, bytes: &[u8]) -> std::io::Result<()> {
        let dir = self.copies_dir();
        let mut builder = std::fs::DirBuilder::new();
        crate::platform::set_folder_mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => {}
            // Only a real folder: copies never go through a planted link.
            Err(err)
                if err.kind() == std::io::ErrorKind::AlreadyExists
                    && std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("{} is not a folder", dir.display()),
                ));
            }
            Err(err) => return Err(err),
        }
        crate::fsafe::write_private_atomically(&self.copy_path(sha256), bytes)
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

    /// No file is recorded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn entry(&self, file: &Path) -> Option<&Entry> {
        self.files.get(&Self::key(file))
    }

    /// Records `file` with its current content.
    pub fn trust(&mut self, file: &Path, bytes: &[u8]) {
        let trusted_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let sha256 = sha256_hex(bytes);
        self.pending.insert(sha256.clone(), bytes.to_vec());
        self.files.insert(
            Self::key(file),
            Entry {
                sha256,
                trusted_at,
                stored: true,
            },
        );
    }

    /// Forgets `file`; returns whether it was there.
    pub fn untrust(&mut self, file: &Path) -> bool {
        self.files.remove(&Self::key(file)).is_some()
    }

    /// Writes the copies of newly trusted content, then the store
    /// atomically (a temporary file in the same folder, then a rename, so a
    /// crash or a concurrent reader never sees half a file), then removes
    /// copies no record names any more.
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
        for (sha256, bytes) in &self.pending {
            self.write_copy(sha256, bytes).map_err(write_error)?;
        }
        temp.persist(&self.path)
            .map_err(|err| write_error(err.error))?;
        self.remove_unused_copies();
        Ok(())
    }

    fn remove_unused_copies(&self) {
        let Ok(entries) = std::fs::read_dir(self.copies_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(sha256) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
                continue;
            };
            if !self.files.values().any(|e| e.sha256 == sha256) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The path with every symlink resolved, as far as it exists: the deepest
/// existing ancestor is canonicalised and the rest appended as written (a
/// file named on the command line may not exist yet).
///
/// Remembered for the rest of the process once [`remember_resolutions`]
/// was called: a fire asks about the same folders (the user's config
/// folder, the project) for every file it weighs, and `realpath` reads
/// every component of a path each time. Commands that live longer and
/// make folders as they go (`test`, `replay`) resolve afresh each time, so
/// a symlink made after a first look is never judged by an old answer.
pub fn resolved(path: &Path) -> PathBuf {
    thread_local! {
        static RESOLVED: std::cell::RefCell<BTreeMap<PathBuf, PathBuf>> =
            std::cell::RefCell::default();
    }
    if !REMEMBER.load(std::sync::atomic::Ordering::Relaxed) {
        return resolve(path);
    }
    if let Some(known) = RESOLVED.with_borrow(|known| known.get(path).cloned()) {
        return known;
    }
    let real = resolve(path);
    RESOLVED.with_borrow_mut(|known| known.insert(path.to_owned(), real.clone()));
    real
}

static REMEMBER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// For a process that answers one event and exits (`fire`): resolved
/// paths are remembered from now on (see [`resolved`]).
pub fn remember_resolutions() {
    REMEMBER.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn resolve(path: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut current = path;
    loop {
        // One `stat` to skip what does not exist: `realpath` reads every
        // component before it finds the missing one.
        if let Some(real) = current
            .exists()
            .then(|| std::fs::canonicalize(current).ok())
            .flatten()
        {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (current.parent(), current.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                current = parent;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Whether `path` lies inside `dir`, as written or once symlinks are
/// resolved on either side (`/p-link/hooks.json` with `/p-link` → `/p` is
/// inside `/p`, and `/p/hooks.json` is inside `/p-link`). Trust decisions
/// take it: a link must not walk a project file past them.
pub fn is_inside(path: &Path, dir: &Path) -> bool {
    if path.starts_with(dir) {
        return true;
    }
    let real_dir = resolved(dir);
    let real_path = resolved(path);
    real_path.starts_with(&real_dir) || real_path.starts_with(dir) || path.starts_with(&real_dir)
}

/// Whether a file named on the command line is project content, whose
/// hooks wait for `hookrun trust` (SPEC §9.1): a relative path, or one inside
/// the project. Never a file in the user's own config folder, and nothing
/// is inside a project that is the file-system root, or the home folder
/// reached only by falling back to the working directory (hookrun run from
/// `~` or `/` is not a project).
pub fn named_file_is_project_content(
    given: &Path,
    path: &Path,
    project: Option<&Path>,
    user_config_dir: Option<&Path>,
) -> bool {
    if user_config_dir.is_some_and(|config| is_inside(path, config)) {
        return false;
    }
    if given.is_relative() {
        return true;
    }
    project.is_some_and(|project| is_inside(path, project))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outside `fire`, nothing is remembered: a symlink made after a first
    /// look is resolved as it now is.
    #[test]
    fn a_path_is_resolved_as_it_is_now() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(real.join("elsewhere")).unwrap();
        let link = real.join("link");
        assert_eq!(
            resolved(&link.join("settings.json")),
            link.join("settings.json")
        );
        crate::platform::symlink(real.join("elsewhere"), &link).unwrap();
        assert_eq!(
            resolved(&link.join("settings.json")),
            real.join("elsewhere").join("settings.json")
        );
    }

    #[test]
    fn inside_compares_resolved_paths_both_ways() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("p");
        let link = dir.path().join("p-link");
        std::fs::create_dir_all(&real).unwrap();
        crate::platform::symlink(&real, &link).unwrap();
        assert!(is_inside(&link.join("hooks.json"), &real));
        assert!(is_inside(&real.join("hooks.json"), &link));
        assert!(is_inside(&link.join("not/yet/there.json"), &real));
        assert!(!is_inside(&dir.path().join("other.json"), &real));
        assert!(!is_inside(&dir.path().join("p2/x.json"), &real));
    }

    #[test]
    fn the_user_config_dir_and_a_root_project_are_never_project_content() {
        let home = Path::new("/nonexistent-home/u");
        let config = home.join(".config/hookrun");
        let file = config.join("extra.json");
        // Project = $HOME: the user's own config folder is still not project content.
        assert!(!named_file_is_project_content(
            &file,
            &file,
            Some(home),
            Some(&config)
        ));
        assert!(named_file_is_project_content(
            Path::new("/nonexistent-home/u/repo.json"),
            Path::new("/nonexistent-home/u/repo.json"),
            Some(home),
            Some(&config)
        ));
        // No project root (`/`, or `~` by fallback): absolute files are the user's.
        assert!(!named_file_is_project_content(
            Path::new("/etc/x.json"),
            Path::new("/etc/x.json"),
            None,
            Some(&config)
        ));
        assert!(named_file_is_project_content(
            Path::new("x.json"),
            Path::new("/work/x.json"),
            None,
            Some(&config)
        ));
    }

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

    crate::platform::unix_only! {
    #[test]
    fn the_trusted_content_is_kept_and_checked() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trust.json");
        let file = Path::new("/p/.hookrun/settings.json");
        let mut store = TrustStore::load(&path).unwrap();
        store.trust(file, b"v1");
        store.save().unwrap();
        let store = TrustStore::load(&path).unwrap();
        assert_eq!(store.trusted_content(file).unwrap(), b"v1");
        let copy = dir
            .path()
            .join("trusted")
            .join(format!("{}.json", sha256_hex(b"v1")));
        let mode = std::fs::metadata(&copy).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // Re-trusting new content drops the old copy.
        let mut store = store;
        store.trust(file, b"v2");
        store.save().unwrap();
        assert!(!copy.exists());
        assert_eq!(store.trusted_content(file).unwrap(), b"v2");
        // A copy edited behind the store's back is refused.
        let copy = dir
            .path()
            .join("trusted")
            .join(format!("{}.json", sha256_hex(b"v2")));
        std::fs::write(&copy, "v3").unwrap();
        assert!(matches!(
            store.trusted_content(file),
            Err(CopyError::Tampered { .. })
        ));
        // Untrusting forgets the copy too.
        let mut untrusting = TrustStore::load(&path).unwrap();
        assert!(untrusting.untrust(file));
        untrusting.save().unwrap();
        assert!(!copy.exists());
        // A record from before copies were kept gets one while unchanged.
        std::fs::write(
            &path,
            format!(
                r#"{{"version":1,"files":{{"/p/.hookrun/settings.json":{{"sha256":"{}","trusted_at":1}}}}}}"#,
                sha256_hex(b"old")
            ),
        )
        .unwrap();
        let legacy = TrustStore::load(&path).unwrap();
        assert!(matches!(
            legacy.trusted_content(file),
            Err(CopyError::Missing)
        ));
        legacy.keep_copy_of_legacy(file, b"old");
        assert_eq!(legacy.trusted_content(file).unwrap(), b"old");
    }
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

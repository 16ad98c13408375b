//! `CLAUDE_ENV_FILE` (SPEC §5.2): each hook of a fire its own file.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;

use crate::event::Event;

/// `CLAUDE_ENV_FILE` (SPEC §5.2): each hook writes its own file; afterwards
/// they are appended to the host's file in load order, so parallel hooks
/// never interleave or clobber each other.
pub(super) struct EnvFiles {
    host_file: PathBuf,
    dir: tempfile::TempDir,
}

impl EnvFiles {
    /// `Ok(None)` when the event or the host does not use the file; an
    /// error when hookrun cannot give each hook its own (the caller warns:
    /// the hooks then write to the host's file directly).
    pub(super) fn new(
        event: &Event,
        env: &[(OsString, OsString)],
    ) -> std::io::Result<Option<EnvFiles>> {
        if !event.id.spec().is_some_and(|spec| spec.env_file) {
            return Ok(None);
        }
        let Some(host_file) = env
            .iter()
            .find(|(k, v)| k == "CLAUDE_ENV_FILE" && !v.is_empty())
            .map(|(_, v)| PathBuf::from(v))
        else {
            return Ok(None);
        };
        let dir = tempfile::Builder::new().prefix("hookrun-env-").tempdir()?;
        Ok(Some(EnvFiles { host_file, dir }))
    }

    pub(super) fn path_for(&self, index: usize) -> PathBuf {
        let path = self.dir.path().join(format!("hook-{index}.sh"));
        // Each hook starts with its own empty file.
        let _ = std::fs::File::create(&path);
        path
    }

    pub(super) fn deliver(&self) -> std::io::Result<()> {
        let mut parts: Vec<(usize, PathBuf)> = std::fs::read_dir(self.dir.path())?
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                let index = name
                    .strip_prefix("hook-")?
                    .strip_suffix(".sh")?
                    .parse()
                    .ok()?;
                Some((index, entry.path()))
            })
            .collect();
        parts.sort();
        let mut combined = Vec::new();
        for (_, path) in parts {
            // A hook may leave a FIFO or a link here: only a regular file.
            let mut bytes = crate::fsafe::read(&path, crate::fsafe::Follow::No)?;
            if !bytes.is_empty() && !bytes.ends_with(b"\n") {
                bytes.push(b'\n');
            }
            combined.extend(bytes);
        }
        if combined.is_empty() {
            return Ok(());
        }
        let mut file = crate::fsafe::open_append(&self.host_file)?;
        file.write_all(&combined)
    }
}

//! The filesystem questions `doctor` asks, behind a trait so the checks stay
//! pure and testable with a fake.

use std::path::{Path, PathBuf};

/// What a path on disk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Missing,
    Directory,
    File { executable: bool },
}

pub trait Probe {
    fn file(&self, path: &Path) -> FileKind;
    /// Whether `program` (no `/`) is found on `PATH`.
    fn on_path(&self, program: &str) -> bool;
    /// A file's contents; `None` when it cannot be read.
    fn read(&self, path: &Path) -> Option<Vec<u8>>;
    /// The path with symlinks resolved, or as given when that fails.
    fn canonical(&self, path: &Path) -> PathBuf;
    /// Where `program` (no `/`) is found on `PATH`, as a shell finds it.
    fn which(&self, _program: &str) -> Option<PathBuf> {
        None
    }
    /// The `PATH` each host gave its hooks at its last fire that named the
    /// host, as recorded in the state folder: (host name, `PATH`).
    fn host_paths(&self) -> Vec<(String, std::ffi::OsString)> {
        Vec::new()
    }
}

/// Another probe, with `PATH` replaced: what a host with that `PATH` finds.
pub struct WithPath<'a> {
    pub inner: &'a dyn Probe,
    pub path: &'a std::ffi::OsStr,
}

impl Probe for WithPath<'_> {
    fn file(&self, path: &Path) -> FileKind {
        self.inner.file(path)
    }

    fn on_path(&self, program: &str) -> bool {
        std::env::split_paths(self.path).any(|dir| {
            !dir.as_os_str().is_empty()
                && matches!(
                    self.inner.file(&dir.join(program)),
                    FileKind::File { executable: true }
                )
        })
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.inner.read(path)
    }

    fn canonical(&self, path: &Path) -> PathBuf {
        self.inner.canonical(path)
    }
}

/// The real filesystem and hookrun's own `PATH`.
pub struct SystemProbe {
    path: Option<std::ffi::OsString>,
    host_paths: Vec<(String, std::ffi::OsString)>,
}

impl SystemProbe {
    pub fn from_process() -> SystemProbe {
        SystemProbe {
            path: std::env::var_os("PATH"),
            host_paths: crate::state::StateDir::from_process()
                .map(|state| state.host_path_records())
                .unwrap_or_default(),
        }
    }
}

impl Probe for SystemProbe {
    fn file(&self, path: &Path) -> FileKind {
        match std::fs::metadata(path) {
            Err(_) => FileKind::Missing,
            Ok(meta) if meta.is_dir() => FileKind::Directory,
            Ok(meta) => FileKind::File {
                executable: crate::platform::is_executable_meta(path, &meta),
            },
        }
    }

    fn on_path(&self, program: &str) -> bool {
        let Some(path) = &self.path else {
            return false;
        };
        std::env::split_paths(path).any(|dir| {
            !dir.as_os_str().is_empty()
                && matches!(
                    self.file(&dir.join(program)),
                    FileKind::File { executable: true }
                )
        })
    }

    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }

    fn canonical(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }

    fn which(&self, program: &str) -> Option<PathBuf> {
        std::env::split_paths(self.path.as_ref()?)
            .filter(|dir| !dir.as_os_str().is_empty())
            .map(|dir| dir.join(program))
            .find(|candidate| matches!(self.file(candidate), FileKind::File { executable: true }))
    }

    fn host_paths(&self) -> Vec<(String, std::ffi::OsString)> {
        self.host_paths.clone()
    }
}

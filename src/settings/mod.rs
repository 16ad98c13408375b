//! Settings: discovery (which files, in which order), the model, and loading
//! with precise, non-destructive error handling (SPEC §3).

pub mod discover;
pub mod load;
pub mod model;

pub use discover::{Environment, SourceOptions};
pub use model::{
    HookDef, HookType, OnError, Problem, Settings, SettingsFile, Severity, ShellKind, Source,
    SourceKind,
};

use std::path::Path;

/// Loads every source for a run, in order.
pub fn load(options: &SourceOptions, env: &Environment, project: &Path) -> Settings {
    let mut settings = Settings::default();
    for source in discover::sources(options, env, project) {
        let dir = source
            .path
            .parent()
            .map_or_else(|| env.current_dir.clone(), Path::to_path_buf);
        load::load_file(&mut settings, source, dir);
    }
    settings
}

//! Settings: discovery (which files, in which order), trust of project
//! files, the model, and loading with precise, non-destructive error
//! handling (SPEC §3, §9.1).

pub(crate) mod discover;
pub mod load;
pub(crate) mod model;
pub(crate) mod prompt;
pub mod trust;

pub use discover::{Environment, SourceOptions};
pub use model::{
    CommandDef, HookAction, HookDef, HookExtra, HookKind, HttpDef, McpToolDef, OnError, Problem,
    ProblemKind, PromptDef, Settings, SettingsFile, Severity, ShellKind, Source, SourceKind, Trust,
    UnsupportedDef,
};

use std::path::{Path, PathBuf};

/// Where the trust store lives: `$XDG_CONFIG_HOME/hookrun/trust.json`.
pub fn trust_store_path(env: &Environment) -> Option<PathBuf> {
    env.config_dir().map(|dir| dir.join("trust.json"))
}

/// Loads every source for a run, in order.
pub fn load(options: &SourceOptions, env: &Environment, project: &Path) -> Settings {
    load_with(options, env, project, false)
}

/// Loads every source for inspection (`doctor`, `explain`, `list`):
/// untrusted project files are parsed too, keep their trust state, and the
/// funnel's trust layer stops their hooks.
pub fn load_for_inspection(options: &SourceOptions, env: &Environment, project: &Path) -> Settings {
    load_with(options, env, project, true)
}

fn load_with(
    options: &SourceOptions,
    env: &Environment,
    project: &Path,
    inspect: bool,
) -> Settings {
    let mut settings = Settings {
        trust_project: options.trust_project,
        ..Settings::default()
    };
    let mut gate = load::TrustGate::new(
        options.trust_project,
        trust_store_path(env),
        project.to_path_buf(),
    );
    gate.inspect = inspect;
    for source in discover::sources(options, env, project) {
        let dir = source
            .path
            .parent()
            .map_or_else(|| env.current_dir.clone(), Path::to_path_buf);
        load::load_file(&mut settings, source, dir, &mut gate);
    }
    settings
}

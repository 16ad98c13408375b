//! Which settings files a run loads, in order (SPEC §3.1), and where the
//! project is.

use std::path::{Component, Path, PathBuf};

use super::model::{Source, SourceKind};

/// The parts of the process environment discovery depends on, read once so
/// the logic stays testable.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    pub current_dir: PathBuf,
    pub home: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    pub hookrun_project_dir: Option<PathBuf>,
    pub claude_project_dir: Option<PathBuf>,
    pub managed_settings: Option<PathBuf>,
    /// The folders the host says the session works in (Cursor's
    /// `workspace_roots`), from the event; empty when it names none.
    pub workspace_roots: Vec<PathBuf>,
    /// The event's `cwd`: nested `.hookrun/` folders between the project
    /// and it add layers. `None`: the current directory.
    pub event_cwd: Option<PathBuf>,
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl Environment {
    pub fn from_process() -> Environment {
        Environment {
            current_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            home: crate::platform::home_dir(),
            xdg_config_home: env_path("XDG_CONFIG_HOME"),
            hookrun_project_dir: env_path("HOOKRUN_PROJECT_DIR"),
            claude_project_dir: env_path("CLAUDE_PROJECT_DIR"),
            managed_settings: env_path("HOOKRUN_MANAGED_SETTINGS"),
            workspace_roots: Vec::new(),
            event_cwd: None,
        }
    }

    /// What the event says about where it happens: its `cwd`, and the
    /// workspace roots a host names (`workspace_roots`, `workspaceRoots`).
    #[must_use]
    pub fn with_event(mut self, event: &crate::event::Event) -> Environment {
        self.event_cwd = event.cwd();
        self.workspace_roots = ["workspace_roots", "workspaceRoots"]
            .iter()
            .filter_map(|key| event.field(key)?.as_array())
            .flatten()
            .filter_map(serde_json::Value::as_str)
            .filter(|root| Path::new(root).is_absolute())
            .map(PathBuf::from)
            .collect();
        self
    }

    /// `$XDG_CONFIG_HOME/hookrun`, default `~/.config/hookrun`.
    pub fn config_dir(&self) -> Option<PathBuf> {
        self.xdg_config_home
            .clone()
            .filter(|p| p.is_absolute())
            .or_else(|| self.home.as_ref().map(|home| home.join(".config")))
            .map(|base| base.join("hookrun"))
    }

    /// Makes a path absolute against the current directory, lexically.
    pub fn absolute(&self, path: &Path) -> PathBuf {
        normalize(&self.current_dir.join(path))
    }
}

/// Command-line choices that shape the source list.
#[derive(Debug, Clone, Default)]
pub struct SourceOptions {
    pub settings: Vec<PathBuf>,
    pub claude_settings: Vec<PathBuf>,
    pub no_default_settings: bool,
    /// `--trust-project`: project files count as trusted for this run.
    pub trust_project: bool,
}

/// `<project>`: `$HOOKRUN_PROJECT_DIR`, else `$CLAUDE_PROJECT_DIR`, else
/// the host's workspace root that holds the event's `cwd` (else its first),
/// else the outermost ancestor of the `cwd` with a `.hookrun/` folder
/// (below the home folder, when the `cwd` is under it), else the `cwd`,
/// else the current directory.
///
/// Outermost, not nearest: a `.hookrun/` folder made in a sub-folder (by
/// the agent, say) adds a layer (see [`nested_layers`]); it never hides
/// the project's own policy.
pub fn project_dir(env: &Environment, event_cwd: Option<&Path>) -> PathBuf {
    if let Some(dir) = env
        .hookrun_project_dir
        .as_ref()
        .or(env.claude_project_dir.as_ref())
    {
        return env.absolute(dir);
    }
    let cwd = event_cwd.map(|cwd| env.absolute(cwd));
    let roots = env.workspace_roots.iter().map(|r| normalize(r));
    let holding = cwd.as_ref().and_then(|cwd| {
        roots
            .clone()
            .filter(|root| cwd.starts_with(root))
            .max_by_key(|root| root.components().count())
    });
    if let Some(root) = holding.or_else(|| roots.clone().next()) {
        return root;
    }
    if let Some(cwd) = cwd {
        let home = env.home.as_deref().map(normalize);
        let stop = home.filter(|home| cwd.starts_with(home) && cwd != *home);
        let ancestors: Vec<&Path> = cwd
            .ancestors()
            .take_while(|dir| Some(*dir) != stop.as_deref())
            // The file-system root is no project.
            .filter(|dir| dir.parent().is_some())
            .collect();
        if !ancestors.iter().any(|dir| dir.join(".hookrun").is_dir()) {
            return cwd.clone();
        }
        return settled_root(env, &ancestors).map_or(cwd.clone(), Path::to_path_buf);
    }
    env.current_dir.clone()
}

/// The files a project's trust decision covers, relative to its folder.
const TRUSTED_FILES: &[&str] = &[
    ".hookrun/settings.json",
    ".hookrun/settings.local.json",
    ".mcp.json",
];

/// Of `ancestors` (the `cwd` first, outermost last), the project when the
/// host names none: the outermost folder a trust decision covers (the
/// trust store holds one of its files: trusted, or changed since), else
/// the outermost whose `.hookrun/` is not empty, else none.
///
/// So a `.hookrun/` folder made above the project (by the agent: one
/// `mkdir ../.hookrun`) does not move it: an empty one is passed over, an
/// untrusted one loses to the trusted project below it, and the project's
/// `.mcp.json` and anchored rules stay where they were trusted.
fn settled_root<'a>(env: &Environment, ancestors: &[&'a Path]) -> Option<&'a Path> {
    let store =
        super::trust_store_path(env).and_then(|path| super::trust::TrustStore::load(&path).ok());
    if let Some(store) = store.filter(|store| !store.is_empty()) {
        let trusted = ancestors.iter().rev().find(|dir| {
            TRUSTED_FILES
                .iter()
                .any(|file| store.entry(&dir.join(file)).is_some())
        });
        if let Some(dir) = trusted {
            return Some(dir);
        }
    }
    ancestors
        .iter()
        .rev()
        .find(|dir| {
            std::fs::read_dir(dir.join(".hookrun"))
                .is_ok_and(|mut entries| entries.next().is_some())
        })
        .copied()
}

/// The folders strictly inside `project`, down to and including `cwd`,
/// that have a `.hookrun/` folder, outermost first: each adds a layer of
/// project settings after the project's own. Nothing when `cwd` is the
/// project (the usual case: no `stat` at all) or outside it.
pub fn nested_layers(project: &Path, cwd: &Path) -> Vec<PathBuf> {
    let project = normalize(project);
    let cwd = normalize(cwd);
    if cwd == project || !cwd.starts_with(&project) {
        return Vec::new();
    }
    let mut layers: Vec<PathBuf> = cwd
        .ancestors()
        .take_while(|dir| *dir != project)
        .filter(|dir| dir.join(".hookrun").is_dir())
        .map(Path::to_path_buf)
        .collect();
    layers.reverse();
    layers
}

/// The project as a root for "inside the project": not the file-system root
/// (everything is inside it), and not the home folder unless the host named
/// it (`$HOOKRUN_PROJECT_DIR`, `$CLAUDE_PROJECT_DIR`): reached by falling
/// back to the working directory, `~` is where the user stood, not a project.
fn project_root<'a>(env: &Environment, project: &'a Path) -> Option<&'a Path> {
    // The file-system root has no parent.
    project.parent()?;
    let named = env.hookrun_project_dir.is_some() || env.claude_project_dir.is_some();
    if !named
        && env
            .home
            .as_deref()
            .is_some_and(|home| normalize(home) == normalize(project))
    {
        return None;
    }
    Some(project)
}

/// The files to load, in load order.
pub fn sources(options: &SourceOptions, env: &Environment, project: &Path) -> Vec<Source> {
    let mut sources = Vec::new();
    if !options.no_default_settings {
        if let Some(config) = env.config_dir() {
            sources.push(Source {
                path: config.join("settings.json"),
                kind: SourceKind::User,
                claude_mode: false,
                trust_required: false,
            });
        }
        let cwd = env
            .event_cwd
            .as_ref()
            .map_or_else(|| env.current_dir.clone(), |cwd| env.absolute(cwd));
        let layers = std::iter::once(project.to_path_buf()).chain(nested_layers(project, &cwd));
        for layer in layers {
            sources.push(Source {
                path: layer.join(".hookrun").join("settings.json"),
                kind: SourceKind::Project,
                claude_mode: false,
                trust_required: true,
            });
            sources.push(Source {
                path: layer.join(".hookrun").join("settings.local.json"),
                kind: SourceKind::Local,
                claude_mode: false,
                trust_required: true,
            });
        }
    }
    let config_dir = env.config_dir();
    let root = project_root(env, project);
    for (given, claude) in options
        .settings
        .iter()
        .map(|p| (p, false))
        .chain(options.claude_settings.iter().map(|p| (p, true)))
    {
        let path = env.absolute(given);
        // A relative path, or one inside the project, came with the project:
        // it is a project file for trust (SPEC §9.1).
        let trust_required =
            super::trust::named_file_is_project_content(given, &path, root, config_dir.as_deref());
        let claude_mode = claude || is_inside_claude_folder(&path);
        sources.push(Source {
            path,
            kind: SourceKind::Cli,
            claude_mode,
            trust_required,
        });
    }
    sources.push(Source {
        path: env.managed_settings.as_ref().map_or_else(
            || PathBuf::from("/etc/hookrun/managed-settings.json"),
            |p| env.absolute(p),
        ),
        kind: SourceKind::Managed,
        claude_mode: false,
        trust_required: false,
    });
    sources
}

/// A file anywhere under a `.claude/` folder (`.claude/settings.json`,
/// `.claude/hooks/hookrun-hooks.json`) is a Claude Code settings file: Claude
/// Code owns its `permissions` and `env`, and its other keys are Claude
/// Code's, not unknown ones.
pub fn is_inside_claude_folder(path: &Path) -> bool {
    normalize(path)
        .parent()
        .is_some_and(|dir| dir.components().any(|c| c.as_os_str() == ".claude"))
}

/// Removes `.` and resolves `..` without touching the filesystem.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Environment {
        Environment {
            current_dir: PathBuf::from("/work"),
            home: Some(PathBuf::from("/home/u")),
            ..Environment::default()
        }
    }

    #[test]
    fn project_dir_prefers_the_hosts_root_over_the_event_cwd() {
        let mut env = env();
        assert_eq!(project_dir(&env, None), PathBuf::from("/work"));
        assert_eq!(
            project_dir(&env, Some(Path::new("/nonexistent/a/b"))),
            PathBuf::from("/nonexistent/a/b")
        );
        env.claude_project_dir = Some(PathBuf::from("/repo"));
        assert_eq!(
            project_dir(&env, Some(Path::new("/repo/sub"))),
            PathBuf::from("/repo")
        );
        env.hookrun_project_dir = Some(PathBuf::from("other"));
        assert_eq!(
            project_dir(&env, Some(Path::new("/repo/sub"))),
            PathBuf::from("/work/other")
        );
    }

    #[test]
    fn project_dir_finds_the_outermost_hookrun_folder_and_nested_ones_add_layers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("repo/.hookrun")).unwrap();
        std::fs::write(dir.path().join("repo/.hookrun/settings.json"), "{}").unwrap();
        std::fs::create_dir_all(dir.path().join("repo/a/b/.hookrun")).unwrap();
        std::fs::write(dir.path().join("repo/a/b/.hookrun/settings.json"), "{}").unwrap();
        std::fs::create_dir_all(dir.path().join("repo/a/b/c")).unwrap();
        let cwd = dir.path().join("repo/a/b/c");
        let found = project_dir(&env(), Some(&cwd));
        assert_eq!(found, dir.path().join("repo"));
        assert_eq!(nested_layers(&found, &cwd), [dir.path().join("repo/a/b")]);
        let unexpected = nested_layers(&found, &found);
        assert!(unexpected.is_empty(), "{unexpected:?}");
        let unexpected = nested_layers(&found, Path::new("/elsewhere"));
        assert!(unexpected.is_empty(), "{unexpected:?}");
        // Never above the home folder the cwd is in.
        let mut home = env();
        home.home = Some(dir.path().join("repo/a"));
        assert_eq!(project_dir(&home, Some(&cwd)), dir.path().join("repo/a/b"));
        // An empty `.hookrun/` above moves nothing.
        std::fs::create_dir_all(dir.path().join(".hookrun")).unwrap();
        assert_eq!(project_dir(&env(), Some(&cwd)), dir.path().join("repo"));
    }

    #[test]
    fn a_trusted_project_wins_over_any_hookrun_folder_above_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let project = root.join("outer/repo");
        std::fs::create_dir_all(project.join("src")).unwrap();
        std::fs::write(project.join(".mcp.json"), "{}").unwrap();
        // An untrusted layer above, with settings in it.
        std::fs::create_dir_all(root.join("outer/.hookrun")).unwrap();
        std::fs::write(root.join("outer/.hookrun/settings.json"), "{}").unwrap();
        let mut env = env();
        env.xdg_config_home = Some(root.join("config"));
        let cwd = project.join("src");
        assert_eq!(project_dir(&env, Some(&cwd)), root.join("outer"));
        let store_path = root.join("config/hookrun/trust.json");
        let mut store = super::super::trust::TrustStore::empty(store_path);
        store.trust(&project.join(".mcp.json"), b"{}");
        store.save().unwrap();
        assert_eq!(project_dir(&env, Some(&cwd)), project);
    }

    #[test]
    fn the_hosts_workspace_root_is_the_project() {
        let mut env = env();
        env.workspace_roots = vec![PathBuf::from("/w/one"), PathBuf::from("/w/two")];
        assert_eq!(
            project_dir(&env, Some(Path::new("/w/two/sub"))),
            PathBuf::from("/w/two")
        );
        assert_eq!(
            project_dir(&env, Some(Path::new("/elsewhere"))),
            PathBuf::from("/w/one")
        );
        env.claude_project_dir = Some(PathBuf::from("/named"));
        assert_eq!(
            project_dir(&env, Some(Path::new("/w/two/sub"))),
            PathBuf::from("/named")
        );
    }

    #[test]
    fn sources_are_in_spec_order() {
        let options = SourceOptions {
            settings: vec![
                PathBuf::from("x.json"),
                PathBuf::from("/p/.claude/settings.json"),
                PathBuf::from("/proj/inside.json"),
            ],
            claude_settings: vec![PathBuf::from("/c.json")],
            no_default_settings: false,
            trust_project: false,
        };
        let list = sources(&options, &env(), Path::new("/proj"));
        let got: Vec<_> = list
            .iter()
            .map(|s| {
                (
                    s.path.display().to_string(),
                    s.kind,
                    s.claude_mode,
                    s.trust_required,
                )
            })
            .collect();
        let want: Vec<(String, SourceKind, bool, bool)> = vec![
            (
                "/home/u/.config/hookrun/settings.json".into(),
                SourceKind::User,
                false,
                false,
            ),
            (
                "/proj/.hookrun/settings.json".into(),
                SourceKind::Project,
                false,
                true,
            ),
            (
                "/proj/.hookrun/settings.local.json".into(),
                SourceKind::Local,
                false,
                true,
            ),
            ("/work/x.json".into(), SourceKind::Cli, false, true),
            (
                "/p/.claude/settings.json".into(),
                SourceKind::Cli,
                true,
                false,
            ),
            ("/proj/inside.json".into(), SourceKind::Cli, false, true),
            ("/c.json".into(), SourceKind::Cli, true, false),
            (
                "/etc/hookrun/managed-settings.json".into(),
                SourceKind::Managed,
                false,
                false,
            ),
        ];
        assert_eq!(got, want);
        let options = SourceOptions {
            no_default_settings: true,
            ..SourceOptions::default()
        };
        assert_eq!(sources(&options, &env(), Path::new("/proj")).len(), 1);
    }

    #[test]
    fn named_files_in_the_config_dir_or_under_a_fallback_root_need_no_trust() {
        let options = SourceOptions {
            settings: vec![
                PathBuf::from("/home/u/.config/hookrun/extra.json"),
                PathBuf::from("/home/u/notes/hooks.json"),
            ],
            no_default_settings: true,
            ..SourceOptions::default()
        };
        let required = |env: &Environment, project: &str| -> Vec<bool> {
            sources(&options, env, Path::new(project))
                .iter()
                .filter(|s| s.kind == SourceKind::Cli)
                .map(|s| s.trust_required)
                .collect()
        };
        // Run from ~ (fallback): ~ is not a project root.
        assert_eq!(required(&env(), "/home/u"), [false, false]);
        // Run from /: nothing absolute is project content.
        assert_eq!(required(&env(), "/"), [false, false]);
        // The host named ~ as the project: its files are project content,
        // the user's config folder never.
        let mut named = env();
        named.claude_project_dir = Some(PathBuf::from("/home/u"));
        assert_eq!(required(&named, "/home/u"), [false, true]);
    }

    #[test]
    fn any_file_under_a_claude_folder_is_a_claude_code_file() {
        for path in [
            "/p/.claude/settings.json",
            "/p/.claude/hooks/hookrun-hooks.json",
            "/p/.claude/a/b/c.json",
            "rel/.claude/hooks/x.json",
        ] {
            assert!(is_inside_claude_folder(Path::new(path)), "{path}");
        }
        for path in [
            "/p/.claude",
            "/p/claude/settings.json",
            "/p/.claude.json",
            "/p/.claude/../settings.json",
            "/p/.hookrun/settings.json",
        ] {
            assert!(!is_inside_claude_folder(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn normalize_is_lexical() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
    }
}

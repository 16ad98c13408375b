//! Where a hookrun executable lives, as a host entry will name it: a
//! durable install, or a folder something else empties.
//!
//! `uvx hookrun install …` and `npx hookrun install …` run hookrun from a
//! package runner's cache; the entry they would write names a file that
//! `uv cache clean` (or npx replacing its cache) deletes, and from then on
//! the shell exits 127 at every event. Pure: a path and the environment in,
//! a verdict out (`install` refuses a cache, `doctor` flags one).
//!
//! Also the npm devDependency form of an entry (the project-pinned binary):
//! `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native`, a link npm
//! makes to the platform package's executable, so no Node starts per event.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::host::HostId;

/// How soon a folder may vanish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A package runner's cache: `install` refuses to write it.
    RunnerCache,
    /// A temporary or general cache folder: `install` warns.
    Temporary,
}

/// A folder a binary sits in that does not last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ephemeral {
    pub kind: Kind,
    /// What the folder is, for people ("uv's cache, where uvx keeps…").
    pub what: &'static str,
    /// What deletes it.
    pub deleted_by: &'static str,
    /// The folder's root, as found.
    pub root: PathBuf,
}

// The forms of an entry's program are wiring facts (the entries name
// them, `doctor` reads them back).
use crate::host::wiring::NPM_NATIVE_LINK;

/// The durable ways to install, for the message that refuses a cache.
pub const DURABLE_INSTALLS: &str = "`uv tool install hookrun`, `pipx install hookrun`, `npm i -g hookrun` or `cargo binstall hookrun`; or, for a project whose teammates share the entry, `npm i -D hookrun` and `hookrun install HOST --pinned`";

struct Runner {
    what: &'static str,
    deleted_by: &'static str,
    /// Roots from a variable (joined with a suffix).
    vars: &'static [(&'static str, &'static str)],
    /// Roots under the home folder.
    home: &'static [&'static str],
    /// Consecutive folder names that mark the cache wherever it was moved.
    marks: &'static [&'static [&'static str]],
}

const RUNNERS: &[Runner] = &[
    Runner {
        what: "uv's cache, where uvx keeps the tools it runs",
        deleted_by: "`uv cache clean` or `uv cache prune`",
        vars: &[("UV_CACHE_DIR", ""), ("XDG_CACHE_HOME", "uv")],
        home: &[".cache/uv", "Library/Caches/uv"],
        marks: &[],
    },
    Runner {
        what: "npx's cache, where `npx` and `npm exec` keep the packages they run",
        deleted_by: "npx when the package changes, or deleting ~/.npm",
        vars: &[("npm_config_cache", "_npx"), ("NPM_CONFIG_CACHE", "_npx")],
        home: &[".npm/_npx"],
        marks: &[&["_npx"]],
    },
    Runner {
        what: "pnpm's cache of `pnpm dlx` packages",
        deleted_by: "`pnpm store prune` or pnpm itself",
        vars: &[("XDG_CACHE_HOME", "pnpm/dlx")],
        home: &[".cache/pnpm/dlx", "Library/Caches/pnpm/dlx"],
        marks: &[&["pnpm", "dlx"]],
    },
    Runner {
        what: "pipx's cache of `pipx run` environments",
        deleted_by: "pipx, 14 days after the last `pipx run`",
        vars: &[("PIPX_HOME", ".cache"), ("XDG_CACHE_HOME", "pipx")],
        home: &[
            ".local/pipx/.cache",
            ".local/share/pipx/.cache",
            ".cache/pipx",
        ],
        marks: &[&["pipx", ".cache"]],
    },
    Runner {
        what: "bun's package cache, where bunx keeps the packages it runs",
        deleted_by: "`bun pm cache rm`",
        vars: &[("BUN_INSTALL_CACHE_DIR", "")],
        home: &[".bun/install/cache"],
        marks: &[],
    },
];

const TEMPORARY: &[&str] = &["/tmp", "/var/tmp", "/dev/shm"];

/// Whether `path` (absolute, as a host entry names it) lies in a folder
/// that does not last; `var` reads the environment.
pub fn classify(
    path: &Path,
    home: Option<&Path>,
    var: impl Fn(&str) -> Option<OsString>,
) -> Option<Ephemeral> {
    let path = lexical(path);
    let value = |name: &str| {
        var(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    for runner in RUNNERS {
        let mut roots: Vec<PathBuf> = runner
            .vars
            .iter()
            .filter_map(|(name, suffix)| value(name).map(|v| v.join(suffix)))
            .collect();
        if let Some(home) = home {
            roots.extend(runner.home.iter().map(|h| home.join(h)));
        }
        let found = roots
            .into_iter()
            .map(|r| lexical(&r))
            .find(|root| path.starts_with(root) && path != *root)
            .or_else(|| marked(&path, runner.marks));
        if let Some(root) = found {
            return Some(Ephemeral {
                kind: Kind::RunnerCache,
                what: runner.what,
                deleted_by: runner.deleted_by,
                root,
            });
        }
    }
    let mut temporary: Vec<PathBuf> = value("TMPDIR").into_iter().collect();
    temporary.extend(TEMPORARY.iter().map(PathBuf::from));
    if let Some(root) = temporary
        .into_iter()
        .map(|r| lexical(&r))
        .find(|root| path.starts_with(root) && path != *root)
    {
        return Some(Ephemeral {
            kind: Kind::Temporary,
            what: "a temporary folder",
            deleted_by: "a reboot or the system's temporary-file cleaner",
            root,
        });
    }
    let cache = value("XDG_CACHE_HOME").or_else(|| home.map(|h| h.join(".cache")));
    if let Some(root) = cache
        .map(|r| lexical(&r))
        .filter(|root| path.starts_with(root) && path != *root)
    {
        return Some(Ephemeral {
            kind: Kind::Temporary,
            what: "a cache folder",
            deleted_by: "anything that clears caches to free space",
            root,
        });
    }
    None
}

/// The folder a run of consecutive names marks (`…/_npx/…`), if the path
/// goes on below it.
fn marked(path: &Path, marks: &[&[&str]]) -> Option<PathBuf> {
    let names: Vec<Component<'_>> = path.components().collect();
    for mark in marks {
        for start in 0..names.len() {
            let end = start + mark.len();
            if end >= names.len() {
                break;
            }
            let hit = mark
                .iter()
                .zip(&names[start..end])
                .all(|(m, c)| c.as_os_str() == *m);
            if hit {
                return Some(names[..end].iter().collect());
            }
        }
    }
    None
}

/// `a/./b/../c` → `a/c`, without touching the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Why `install` writes no entry for a binary.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The binary is in a package runner's cache.
    #[error(
        "{} is in {} ({}): an entry naming it stops working when {} deletes it, and then every event exits 127 (the guards are off, or every call is blocked). Install hookrun durably and run `install` with that one: {DURABLE_INSTALLS}. (`--binary PATH` names another hookrun.)",
        binary.display(),
        place.what,
        place.root.display(),
        place.deleted_by
    )]
    RunnerCache { binary: PathBuf, place: Ephemeral },
    /// `--pinned` for a host that gives its hooks no project folder.
    #[error(
        "--pinned: {} does not give its hooks $CLAUDE_PROJECT_DIR, so the entry cannot name the project's node_modules; leave --pinned out (the entry names this binary by its path)",
        .0.display()
    )]
    PinnedWithoutProjectDir(HostId),
    /// The binary is npm's Node launcher, not the native executable.
    #[error("{}", launcher_refusal(.0))]
    Launcher(PathBuf),
}

/// What `install` says about the binary an entry would run: `Err` refuses
/// (a package runner's cache), `Ok(Some)` is a warning to print.
pub fn install_check(
    binary: &Path,
    home: Option<&Path>,
    var: impl Fn(&str) -> Option<OsString>,
) -> Result<Option<String>, Refusal> {
    match classify(binary, home, var) {
        None => Ok(None),
        Some(e) if e.kind == Kind::RunnerCache => Err(Refusal::RunnerCache {
            binary: binary.to_path_buf(),
            place: e,
        }),
        Some(e) => Ok(Some(format!(
            "warning: {} is in {} ({}), which {} empties: the entry stops working then (exit 127 at every event); a durable install is safer: {DURABLE_INSTALLS}",
            binary.display(),
            e.what,
            e.root.display(),
            e.deleted_by
        ))),
    }
}

/// Whether `resolved` (symlinks followed) is npm's Node launcher
/// (`hookrun/bin/hookrun.js`) rather than the native executable: a host
/// entry running it starts Node at every event.
pub fn is_npm_launcher(resolved: &Path) -> bool {
    resolved
        .extension()
        .is_some_and(|e| e == "js" || e == "cjs" || e == "mjs")
}

/// What is wrong with an entry that runs npm's launcher.
pub fn launcher_problem(binary: &Path) -> String {
    format!(
        "{} is npm's Node launcher for hookrun, not hookrun itself: an entry running it starts Node before hookrun at every event (hundreds of milliseconds each)",
        binary.display()
    )
}

/// `install`'s refusal to write such an entry.
pub fn launcher_refusal(binary: &Path) -> String {
    format!(
        "{}. Name the native executable instead: leave --binary out (run through the launcher, `hookrun install` writes the native path), or --binary …/node_modules/@hookrun/linux-x64/bin/hookrun",
        launcher_problem(binary)
    )
}

/// Whether `binary` is the executable of an npm package inside
/// `project_dir`'s own `node_modules` (hookrun as a devDependency).
pub fn in_project_node_modules(binary: &Path, project_dir: &Path) -> bool {
    let binary = lexical(binary);
    binary.starts_with(lexical(&project_dir.join("node_modules")))
}

/// The program a host entry runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// A binary by its absolute path.
    Path(PathBuf),
    /// [`PINNED_PROGRAM`](crate::host::wiring::PINNED_PROGRAM): the project's npm devDependency.
    Pinned,
}

/// Hosts that give their hooks `$CLAUDE_PROJECT_DIR` (measured: Claude
/// Code sets it, Gemini CLI substitutes it, Copilot CLI and Qwen Code set
/// it).
pub fn host_names_project_dir(host: HostId) -> bool {
    crate::host::host(host).facts().sets_claude_project_dir
}

/// What an entry `install` writes runs: `binary` (this hookrun, or
/// `--binary`), or the pinned devDependency — when asked (`pinned`), or
/// when `binary` is the project's own node_modules one and `may_pin` (the
/// project's file, no `--binary`). Notes and warnings go to `out`.
#[expect(
    clippy::too_many_arguments,
    reason = "each argument is one fact of where hookrun is installed and who asks"
)]
pub fn entry_program(
    binary: &Path,
    host: HostId,
    pinned: bool,
    may_pin: bool,
    project_dir: &Path,
    home: Option<&Path>,
    var: impl Fn(&str) -> Option<OsString>,
    out: &mut String,
) -> Result<Program, Refusal> {
    let own = may_pin && in_project_node_modules(binary, project_dir);
    if pinned || (own && host_names_project_dir(host)) {
        if !host_names_project_dir(host) {
            return Err(Refusal::PinnedWithoutProjectDir(host));
        }
        let link = project_dir.join("node_modules/.bin").join(NPM_NATIVE_LINK);
        if pinned {
            if !link.exists() {
                let _ = writeln!(
                    out,
                    "warning: {} does not exist: add hookrun to the project first (`npm i -D hookrun`), or the entry exits 127",
                    link.display()
                );
            }
        } else {
            let _ = writeln!(
                out,
                "note: this hookrun is the project's npm devDependency: the entries run it through the project folder, so they work for every teammate after `npm install` (--binary PATH names this machine's path instead)"
            );
        }
        return Ok(Program::Pinned);
    }
    let resolved = std::fs::canonicalize(binary).unwrap_or_else(|_| binary.to_path_buf());
    if is_npm_launcher(&resolved) {
        return Err(Refusal::Launcher(binary.to_path_buf()));
    }
    if let Some(warning) = install_check(binary, home, var)? {
        let _ = writeln!(out, "{warning}");
    }
    Ok(Program::Path(binary.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    fn kind(path: &str, vars: &[(&str, &str)]) -> Option<(Kind, PathBuf)> {
        classify(Path::new(path), Some(Path::new("/home/me")), env(vars)).map(|e| (e.kind, e.root))
    }

    #[test]
    fn uvx_and_its_moved_cache_are_runner_caches() {
        assert_eq!(
            kind("/home/me/.cache/uv/archive-v0/Xy12/bin/hookrun", &[]),
            Some((Kind::RunnerCache, PathBuf::from("/home/me/.cache/uv")))
        );
        assert_eq!(
            kind(
                "/srv/uvc/archive-v0/Xy12/bin/hookrun",
                &[("UV_CACHE_DIR", "/srv/uvc")]
            ),
            Some((Kind::RunnerCache, PathBuf::from("/srv/uvc")))
        );
        assert_eq!(
            kind(
                "/x/cache/uv/archive-v0/a/bin/hookrun",
                &[("XDG_CACHE_HOME", "/x/cache")]
            ),
            Some((Kind::RunnerCache, PathBuf::from("/x/cache/uv")))
        );
    }

    #[test]
    fn npx_pnpm_dlx_pipx_run_and_bunx_are_runner_caches() {
        for (path, root) in [
            (
                "/home/me/.npm/_npx/3f2a/node_modules/@hookrun/linux-x64/bin/hookrun",
                "/home/me/.npm/_npx",
            ),
            // A moved npm cache still has its `_npx` folder.
            (
                "/var/cache/npm/_npx/3f2a/node_modules/@hookrun/linux-x64/bin/hookrun",
                "/var/cache/npm/_npx",
            ),
            (
                "/home/me/.cache/pnpm/dlx/ab/node_modules/.bin/hookrun",
                "/home/me/.cache/pnpm/dlx",
            ),
            (
                "/home/me/.local/pipx/.cache/8c1d/bin/hookrun",
                "/home/me/.local/pipx/.cache",
            ),
            (
                "/home/me/.bun/install/cache/hookrun@0.1.0/bin/hookrun",
                "/home/me/.bun/install/cache",
            ),
        ] {
            assert_eq!(
                kind(path, &[]),
                Some((Kind::RunnerCache, PathBuf::from(root))),
                "{path}"
            );
        }
        assert_eq!(
            kind(
                "/c/_cacache/x/_npx/1/hookrun",
                &[("npm_config_cache", "/c/_cacache/x")]
            ),
            Some((Kind::RunnerCache, PathBuf::from("/c/_cacache/x/_npx")))
        );
    }

    #[test]
    fn durable_installs_are_durable() {
        for path in [
            "/home/me/.cargo/bin/hookrun",
            "/home/me/.local/bin/hookrun",
            "/home/me/.local/share/uv/tools/hookrun/bin/hookrun",
            "/home/me/.local/share/pipx/venvs/hookrun/bin/hookrun",
            "/home/me/.local/pipx/venvs/hookrun/bin/hookrun",
            "/usr/local/lib/node_modules/hookrun/node_modules/@hookrun/linux-x64/bin/hookrun",
            "/home/me/proj/node_modules/@hookrun/linux-x64/bin/hookrun",
            "/usr/bin/hookrun",
            // Names that only look alike.
            "/home/me/.cache-tools/hookrun",
            "/home/me/src/_npx",
            "/tmpfoo/hookrun",
        ] {
            assert_eq!(kind(path, &[]), None, "{path}");
        }
    }

    #[test]
    fn temporary_folders_and_other_caches_only_warn() {
        assert_eq!(
            kind("/tmp/build/hookrun", &[]),
            Some((Kind::Temporary, PathBuf::from("/tmp")))
        );
        assert_eq!(
            kind("/scratch/t/hookrun", &[("TMPDIR", "/scratch/t")]),
            Some((Kind::Temporary, PathBuf::from("/scratch/t")))
        );
        assert_eq!(
            kind("/home/me/.cache/tools/hookrun", &[]),
            Some((Kind::Temporary, PathBuf::from("/home/me/.cache")))
        );
        // A relative variable is no root (it would match anywhere).
        assert_eq!(kind("/opt/hookrun", &[("UV_CACHE_DIR", "opt")]), None);
    }

    #[test]
    fn dot_dot_does_not_hide_a_cache() {
        assert_eq!(
            kind("/home/me/.local/../.npm/_npx/1/hookrun", &[]).map(|k| k.0),
            Some(Kind::RunnerCache)
        );
    }

    #[test]
    fn install_refuses_a_runner_cache_and_warns_on_tmp() {
        let home = Some(Path::new("/home/me"));
        let err = install_check(
            Path::new("/home/me/.cache/uv/archive-v0/a/bin/hookrun"),
            home,
            env(&[]),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("uv cache clean"), "{err}");
        assert!(err.contains("uv tool install hookrun"), "{err}");
        let warn = install_check(Path::new("/tmp/x/hookrun"), home, env(&[])).unwrap();
        assert!(warn.is_some_and(|w| w.starts_with("warning: /tmp/x/hookrun")));
        assert_eq!(
            install_check(Path::new("/home/me/.cargo/bin/hookrun"), home, env(&[])).unwrap(),
            None
        );
    }

    #[test]
    fn npms_launcher_is_not_the_binary() {
        assert!(is_npm_launcher(Path::new(
            "/usr/lib/node_modules/hookrun/bin/hookrun.js"
        )));
        assert!(!is_npm_launcher(Path::new(
            "/usr/lib/node_modules/@hookrun/linux-x64/bin/hookrun"
        )));
        assert!(!is_npm_launcher(Path::new("/home/me/.cargo/bin/hookrun")));
    }

    #[test]
    fn a_project_devdependency_is_recognised() {
        let proj = Path::new("/home/me/proj");
        assert!(in_project_node_modules(
            Path::new("/home/me/proj/node_modules/@hookrun/linux-x64/bin/hookrun"),
            proj
        ));
        assert!(!in_project_node_modules(
            Path::new("/home/me/other/node_modules/@hookrun/linux-x64/bin/hookrun"),
            proj
        ));
    }

    #[test]
    fn the_pinned_entry_is_recognised_as_running_hookrun() {
        let command = format!(
            "{} fire --host claude-code",
            crate::host::wiring::PINNED_PROGRAM
        );
        assert!(crate::host::wiring::runs_hookrun(&command));
        assert_eq!(
            crate::host::wiring::program(&command).as_deref(),
            Some("$CLAUDE_PROJECT_DIR/node_modules/.bin/hookrun-native")
        );
    }
}

//! Gitignore-style path patterns for the file tools' rules (SPEC §4.3):
//! `Read(//etc/**)`, `Edit(~/x)`, `Write(/src/**)`, `Read(./a/*.rs)`,
//! `Edit(*.ts)`. Matching is pure and lexical (`..` is resolved by text);
//! [`resolve_on_disk`] is the one function that reads the file system, for
//! the rules that fail toward matching (what a symbolic link opens).
//!
//! A pattern is split once, at parse time, into where it is anchored, the
//! literal directories that follow the anchor, and the glob that remains; at
//! match time only the anchor directory comes from the [`PathContext`]. That
//! keeps the glob free of the anchor's own characters (a cwd holding `[` or
//! `*` must not turn into glob syntax) and compiles each glob once.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::path_style::{PathStyle, normalize};

/// Where relative path patterns are anchored (SPEC §4.3 "File tools").
#[derive(Debug, Clone, Copy)]
pub struct PathContext<'a> {
    /// The event's `cwd`: `x` and `./x` are relative to it.
    pub cwd: &'a Path,
    /// The home directory for `~/x`, if known.
    pub home: Option<&'a Path>,
    /// Root of `/x`: the project root for project and local settings, the
    /// settings file's directory otherwise.
    pub anchor: &'a Path,
    /// How paths are spelled: the running system's, or another's in tests.
    pub style: PathStyle,
}

impl<'a> PathContext<'a> {
    /// The context of the running system's paths.
    pub fn new(cwd: &'a Path, home: Option<&'a Path>, anchor: &'a Path) -> PathContext<'a> {
        PathContext {
            cwd,
            home,
            anchor,
            style: PathStyle::native(),
        }
    }

    /// The same context with paths spelled in `style`.
    #[must_use]
    pub fn with_style(self, style: PathStyle) -> PathContext<'a> {
        PathContext { style, ..self }
    }

    /// `path`, relative to `dir`, in the form rules compare
    /// (absolute, normalised; on Windows the compare form of
    /// `select::path_style`).
    pub(crate) fn absolute(&self, dir: &Path, path: &str) -> PathBuf {
        self.style.absolute(dir, path)
    }

    /// An absolute path of the system (a resolved file) in compare form.
    pub(crate) fn key<'p>(&self, path: &'p Path) -> Cow<'p, Path> {
        self.style.key(path)
    }
}

/// Where a pattern's first component is looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// `//abs/path`.
    FilesystemRoot,
    /// `~/x`.
    Home,
    /// `/x`: project root or settings file's directory.
    Settings,
    /// `./x`, or `a/b` (a slash inside).
    Cwd,
    /// `x` (no slash): the name matches at any depth.
    AnyDepth,
}

/// A compiled file-path pattern.
#[derive(Debug, Clone)]
pub(crate) struct PathPattern {
    anchor: Anchor,
    /// Literal components after the anchor (may hold `..`).
    literal: PathBuf,
    /// What follows the literal components, matched against the rest of the
    /// path; `None`: the literal directory (or file) and all below it.
    glob: Option<GlobSet>,
    /// The glob is `**`: everything below the literal directory.
    all_below: bool,
    /// The pattern as written.
    spec: String,
    /// The pattern in the Windows compare form, compiled when first asked
    /// for (`Err`: it does not compile there).
    windows: OnceLock<Result<Box<PathPattern>, String>>,
}

/// Characters that make a component a glob rather than a literal name.
const GLOB_META: &[char] = &['*', '?', '[', '{', '\\'];

/// The outcome of testing one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathMatch {
    Match,
    NoMatch,
    /// The anchor is unknown (no home directory for `~/`).
    Unknown(String),
}

/// Why a path pattern does not compile.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GlobError {
    #[error("invalid glob `{glob}`: {}", .source.kind())]
    Glob {
        glob: String,
        #[source]
        source: globset::Error,
    },
    #[error(transparent)]
    Set(#[from] globset::Error),
}

impl PathPattern {
    pub(crate) fn parse(spec: &str) -> Result<PathPattern, GlobError> {
        let (anchor, rest) = if let Some(rest) = spec.strip_prefix("//") {
            (Anchor::FilesystemRoot, rest)
        } else if spec == "~" {
            (Anchor::Home, "")
        } else if let Some(rest) = spec.strip_prefix("~/") {
            (Anchor::Home, rest)
        } else if let Some(rest) = spec.strip_prefix('/') {
            (Anchor::Settings, rest)
        } else if let Some(rest) = spec.strip_prefix("./") {
            (Anchor::Cwd, rest)
        } else if spec.trim_end_matches('/').contains('/') {
            (Anchor::Cwd, spec)
        } else {
            (Anchor::AnyDepth, spec)
        };
        // A trailing slash means "a directory": only what is below it.
        let directory_only = rest.ends_with('/');
        let components: Vec<&str> = rest.split('/').filter(|c| !c.is_empty()).collect();
        let literal_len = if anchor == Anchor::AnyDepth {
            0
        } else {
            components
                .iter()
                .take_while(|c| !c.contains(GLOB_META))
                .count()
        };
        let literal: PathBuf = components[..literal_len].iter().collect();
        let remainder = components[literal_len..].join("/");
        let all_below = remainder == "**";
        let glob = if remainder.is_empty() {
            None
        } else {
            let remainder = if anchor == Anchor::AnyDepth {
                format!("**/{remainder}")
            } else {
                remainder
            };
            Some(compile_glob(&remainder, directory_only)?)
        };
        Ok(PathPattern {
            anchor,
            literal,
            glob,
            all_below,
            spec: spec.to_owned(),
            windows: OnceLock::new(),
        })
    }

    /// The pattern as `style` reads it: on Windows, in compare form
    /// (`Err`: it means nothing there, and matches only as unknown).
    fn styled(&self, style: PathStyle) -> Result<&PathPattern, String> {
        match style {
            PathStyle::Posix => Ok(self),
            PathStyle::Windows => self
                .windows
                .get_or_init(|| {
                    PathPattern::parse(&style.pattern(&self.spec))
                        .map(Box::new)
                        .map_err(|e| {
                            format!(
                                "the pattern `{}` is no Windows path pattern: {e}",
                                self.spec
                            )
                        })
                })
                .as_ref()
                .map(AsRef::as_ref)
                .map_err(Clone::clone),
        }
    }

    /// The folder the pattern's literal part names, absolute and
    /// normalised (`/` for a name matched at any depth).
    fn base(&self, paths: &PathContext<'_>) -> Result<PathBuf, String> {
        let of = |path: &Path| paths.absolute(paths.cwd, &path.to_string_lossy());
        let root: PathBuf = match (self.anchor, paths.style) {
            (Anchor::FilesystemRoot | Anchor::AnyDepth, _) => PathBuf::from("/"),
            (Anchor::Home, _) if paths.home.is_none() => {
                return Err("the home directory for a `~/` pattern is unknown".to_owned());
            }
            (Anchor::Home, PathStyle::Posix) => paths.cwd.join(paths.home.unwrap_or(paths.cwd)),
            (Anchor::Home, PathStyle::Windows) => of(paths.home.unwrap_or(paths.cwd)),
            (Anchor::Settings, PathStyle::Posix) => paths.cwd.join(paths.anchor),
            (Anchor::Settings, PathStyle::Windows) => of(paths.anchor),
            (Anchor::Cwd, PathStyle::Posix) => paths.cwd.to_path_buf(),
            (Anchor::Cwd, PathStyle::Windows) => of(paths.cwd),
        };
        Ok(normalize(&root.join(&self.literal)))
    }

    /// Whether something at or below `dir` (absolute, normalised) may be a
    /// path this pattern names: `Match` when it may (a search of `dir`
    /// may read it), judged by the pattern's literal folder alone, so it
    /// errs toward `Match`.
    pub(crate) fn may_match_below(&self, dir: &Path, paths: &PathContext<'_>) -> PathMatch {
        let this = match self.styled(paths.style) {
            Ok(this) => this,
            Err(why) => return PathMatch::Unknown(why),
        };
        let base = match this.base(paths) {
            Ok(base) => base,
            Err(why) => return PathMatch::Unknown(why),
        };
        if this.anchor == Anchor::AnyDepth || base.starts_with(dir) || dir.starts_with(&base) {
            PathMatch::Match
        } else {
            PathMatch::NoMatch
        }
    }

    /// Whether every path at or below `dir` (absolute, normalised) is one
    /// this pattern names: for allow rules, which approve a search only
    /// when it cannot reach past them.
    pub(crate) fn covers_tree(&self, dir: &Path, paths: &PathContext<'_>) -> bool {
        let Ok(this) = self.styled(paths.style) else {
            return false;
        };
        let Ok(base) = this.base(paths) else {
            return false;
        };
        let Ok(rest) = dir.strip_prefix(&base) else {
            return false;
        };
        match &this.glob {
            None => true,
            Some(_) if this.all_below => true,
            // `dir` itself is named: everything below it is, as in gitignore.
            Some(glob) => !rest.as_os_str().is_empty() && glob.is_match(rest),
        }
    }

    /// Test `file_path` (from the tool input; relative to `cwd` when it is
    /// relative, `~/` under the home directory).
    pub(crate) fn matches(&self, file_path: &str, paths: &PathContext<'_>) -> PathMatch {
        self.matches_path(&resolve_input(file_path, paths), paths)
    }

    /// Test an absolute, normalised path (in the compare form of
    /// `paths.style`).
    pub(crate) fn matches_path(&self, file: &Path, paths: &PathContext<'_>) -> PathMatch {
        let this = match self.styled(paths.style) {
            Ok(this) => this,
            Err(why) => return PathMatch::Unknown(why),
        };
        let base = match this.base(paths) {
            Ok(base) => base,
            Err(why) => return PathMatch::Unknown(why),
        };
        let Ok(rest) = file.strip_prefix(&base) else {
            return PathMatch::NoMatch;
        };
        let matched = match &this.glob {
            None => true,
            Some(glob) => glob.is_match(rest),
        };
        if matched {
            PathMatch::Match
        } else {
            PathMatch::NoMatch
        }
    }
}

/// The glob and, as in gitignore, everything below what it names.
fn compile_glob(glob: &str, directory_only: bool) -> Result<GlobSet, GlobError> {
    let build = |glob: &str| {
        GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .map_err(|source| GlobError::Glob {
                glob: glob.to_owned(),
                source,
            })
    };
    let mut set = GlobSetBuilder::new();
    if !directory_only {
        set.add(build(glob)?);
    }
    set.add(build(&format!("{glob}/**"))?);
    Ok(set.build()?)
}

fn resolve_input(file_path: &str, paths: &PathContext<'_>) -> PathBuf {
    match paths.style {
        PathStyle::Posix => normalize(&written_path(file_path, paths)),
        PathStyle::Windows => {
            let home = paths.home.filter(|_| file_path == "~");
            let rest = file_path
                .strip_prefix("~/")
                .or_else(|| file_path.strip_prefix("~\\"));
            match (home, rest, paths.home) {
                (Some(home), ..) => paths.absolute(paths.cwd, &home.to_string_lossy()),
                (None, Some(rest), Some(home)) => {
                    let home = paths.absolute(paths.cwd, &home.to_string_lossy());
                    paths.absolute(&home, rest)
                }
                _ => paths.absolute(paths.cwd, file_path),
            }
        }
    }
}

/// The path as written, absolute (`~/` expanded), not normalised; on
/// Windows in compare form, as the system opens it.
fn written_path(file_path: &str, paths: &PathContext<'_>) -> PathBuf {
    if paths.style == PathStyle::Windows {
        return paths
            .style
            .opened(&resolve_input(file_path, paths))
            .into_owned();
    }
    let path = match (file_path.strip_prefix("~/"), paths.home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(file_path),
    };
    paths.cwd.join(path)
}

/// What a path opens, as far as the file system shows it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OnDisk {
    /// The path with its symbolic links and `/proc/self/cwd` or
    /// `/proc/self/root` resolved (the longest prefix that exists, then
    /// the rest as written).
    Resolved(PathBuf),
    /// A path whose target depends on another process (`/proc/123/cwd`,
    /// `/dev/fd/3`), described.
    Unknown(String),
}

/// Resolve `file_path` on disk: the one place the rule engine reads the
/// file system, for the rules that fail toward matching (a symbolic link in
/// the project to `~/.ssh` must not get past `Read(~/.ssh/**)`). Costs one
/// `realpath` per existing prefix tried, longest first.
pub(crate) fn resolve_on_disk(file_path: &str, paths: &PathContext<'_>) -> OnDisk {
    let written = written_path(file_path, paths);
    let mut components = written.components().map(|c| c.as_os_str().to_owned());
    let mut path = PathBuf::new();
    // `/proc/self/…` and `/proc/thread-self/…` are the caller's: its cwd is
    // the event's, its root the file system's.
    let head: Vec<_> = written.components().take(6).collect();
    let name = |i: usize| head.get(i).and_then(|c| c.as_os_str().to_str());
    if name(0) == Some("/") && name(1) == Some("proc") {
        let process = name(2).unwrap_or_default();
        let own = matches!(process, "self" | "thread-self");
        let numeric = !process.is_empty() && process.bytes().all(|b| b.is_ascii_digit());
        // `/proc/<pid>/task/<tid>/…` is a thread's view of the same entries.
        let thread = name(3) == Some("task")
            && name(4).is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()));
        let entry = if thread { 5 } else { 3 };
        match name(entry) {
            Some("cwd") if own => path = paths.cwd.to_path_buf(),
            Some("root") if own || numeric => path = PathBuf::from("/"),
            Some("cwd" | "fd" | "map_files") if numeric || own => {
                return OnDisk::Unknown(format!(
                    "`{file_path}` goes through `/proc/{process}/…/{}`, whose target hookrun cannot tell",
                    name(entry).unwrap_or_default()
                ));
            }
            _ => {}
        }
        if !path.as_os_str().is_empty() {
            components.nth(entry);
        }
    }
    if written.starts_with("/dev/fd") {
        return OnDisk::Unknown(format!(
            "`{file_path}` names an open file descriptor, whose target hookrun cannot tell"
        ));
    }
    path.extend(components);
    let parts: Vec<_> = path.components().collect();
    // The longest prefix that resolves, by bisection: a prefix resolves only
    // if the shorter ones do, and a path of thousands of components must not
    // cost thousands of `realpath` calls.
    let resolve = |keep: usize| std::fs::canonicalize(parts[..keep].iter().collect::<PathBuf>());
    let (mut good, mut bad) = (0, parts.len() + 1);
    let mut best: Option<PathBuf> = None;
    while good + 1 < bad {
        let mid = usize::midpoint(good, bad);
        match resolve(mid) {
            Ok(real) => {
                good = mid;
                best = Some(real);
            }
            Err(_) => bad = mid,
        }
    }
    match best {
        Some(real) => {
            let rest: PathBuf = parts[good..].iter().collect();
            OnDisk::Resolved(normalize(&real.join(rest)))
        }
        None => OnDisk::Resolved(normalize(&path)),
    }
}

/// How many entries [`holds_match`] looks at before it gives up.
pub(crate) const WALK_BUDGET: usize = 10_000;

/// Whether something that exists at or below `dir` (absolute, in compare
/// form) is a path
/// `pattern` names, itself or through a symbolic link (not followed into
/// folders, as searches do not follow them): what a search of `dir` may
/// read. `None`: more than [`WALK_BUDGET`] entries, so it cannot tell.
/// Reads the file system, for the rules that fail toward matching.
pub(crate) fn holds_match(
    pattern: &PathPattern,
    dir: &Path,
    paths: &PathContext<'_>,
) -> Option<bool> {
    let named = |path: &Path| {
        pattern.matches_path(&paths.key(&normalize(path)), paths) != PathMatch::NoMatch
    };
    let Ok(styled) = pattern.styled(paths.style) else {
        return None;
    };
    // A pattern anchored below `dir` names only what is at or below its
    // literal folder: look there (or nowhere, when it does not exist).
    let start = match styled.base(paths) {
        Ok(base) if styled.anchor != Anchor::AnyDepth && base.starts_with(dir) => {
            let base = paths.style.opened(&base).into_owned();
            if std::fs::symlink_metadata(&base).is_err() {
                return Some(false);
            }
            base
        }
        _ => paths.style.opened(dir).into_owned(),
    };
    if named(&start) {
        return Some(true);
    }
    let mut budget = WALK_BUDGET;
    let mut stack = vec![start];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            budget = budget.checked_sub(1)?;
            let path = entry.path();
            if named(&path) {
                return Some(true);
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_symlink() {
                if let Ok(real) = std::fs::canonicalize(&path) {
                    if named(&real) {
                        return Some(true);
                    }
                }
            } else if kind.is_dir() {
                stack.push(path);
            }
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> PathContext<'static> {
        PathContext {
            cwd: Path::new("/work/proj/sub"),
            home: Some(Path::new("/home/me")),
            anchor: Path::new("/work/proj"),
            style: crate::select::path_style::PathStyle::Posix,
        }
    }

    fn check(pattern: &str, file: &str, paths: &PathContext<'_>) -> PathMatch {
        PathPattern::parse(pattern)
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
            .matches(file, paths)
    }

    #[test]
    fn anchors_and_depth() {
        let paths = context();
        // (pattern, file_path, matches)
        let cases: &[(&str, &str, bool)] = &[
            // A name without a slash: any depth, and all below it.
            ("*.ts", "/a/b/c.ts", true),
            ("*.ts", "/a/b/c.tsx", false),
            ("*.ts", "c.ts", true),
            (".env", "/work/proj/.env", true),
            (".env", "/work/proj/.env.local", false),
            ("secrets", "/work/proj/secrets/key.pem", true),
            ("secrets/", "/work/proj/secrets/key.pem", true),
            ("secrets/", "/work/proj/secrets", false),
            ("**", "/anything/at/all", true),
            // `//` is the filesystem root.
            ("//etc/passwd", "/etc/passwd", true),
            ("//etc/**", "/etc/ssh/sshd_config", true),
            ("//etc/*", "/etc/hosts", true),
            // As in gitignore, what is below a match matches too: `etc/*`
            // names the directory `etc/ssh`, so its files are covered.
            ("//etc/*", "/etc/ssh/sshd_config", true),
            ("//etc/*.conf", "/etc/ssh/sshd_config", false),
            ("//etc", "/etc/hosts", true),
            ("//", "/x", true),
            // `~/` is the home directory.
            ("~/.ssh/**", "/home/me/.ssh/id_rsa", true),
            ("~/.ssh/**", "~/.ssh/id_rsa", true),
            ("~/.ssh/**", "/home/other/.ssh/id_rsa", false),
            ("~", "/home/me/notes.txt", true),
            // `/` is the settings anchor (the project root here).
            ("/src/**", "/work/proj/src/a/b.rs", true),
            ("/src/**", "/work/proj/sub/src/a/b.rs", false),
            ("/src/*.rs", "/work/proj/src/main.rs", true),
            ("/src/*.rs", "/work/proj/src/a/main.rs", false),
            ("/Cargo.toml", "/work/proj/Cargo.toml", true),
            ("/", "/work/proj/anything", true),
            ("/", "/elsewhere", false),
            // `./x` and `a/b` are relative to cwd.
            ("./*.rs", "/work/proj/sub/main.rs", true),
            ("./*.rs", "/work/proj/main.rs", false),
            ("src/**", "/work/proj/sub/src/x", true),
            ("src/**", "/work/proj/src/x", false),
            ("src/*.rs", "src/main.rs", true),
            ("../*.toml", "/work/proj/Cargo.toml", true),
            ("./a/../b.rs", "/work/proj/sub/b.rs", true),
            // Inputs are normalised lexically.
            ("/src/**", "/work/proj/sub/../src/./x.rs", true),
            ("//etc/passwd", "/../../etc/passwd", true),
            ("/src/**", "../src/x.rs", true),
            // Case-sensitive; `*` does not cross `/`; `{a,b}` and `[..]`.
            ("*.TS", "/a/b.ts", false),
            ("//a/*/c", "/a/b/x/c", false),
            ("//a/**/c", "/a/b/x/c", true),
            ("*.{js,ts}", "/a/b.ts", true),
            ("file[0-9].txt", "/a/file7.txt", true),
        ];
        for &(pattern, file, expected) in cases {
            let want = if expected {
                PathMatch::Match
            } else {
                PathMatch::NoMatch
            };
            assert_eq!(check(pattern, file, &paths), want, "{pattern} vs {file}");
        }
    }

    #[test]
    fn anchor_directory_characters_are_not_glob_syntax() {
        let paths = PathContext {
            cwd: Path::new("/w/[x]{y}*"),
            home: None,
            anchor: Path::new("/w/[x]{y}*"),
            style: crate::select::path_style::PathStyle::Posix,
        };
        assert_eq!(
            check("/src/*.rs", "/w/[x]{y}*/src/a.rs", &paths),
            PathMatch::Match
        );
        assert_eq!(
            check("/src/*.rs", "/w/x/src/a.rs", &paths),
            PathMatch::NoMatch
        );
    }

    #[test]
    fn unknown_home_cannot_be_judged() {
        let paths = PathContext {
            home: None,
            ..context()
        };
        assert!(matches!(
            check("~/.ssh/**", "/home/me/.ssh/id_rsa", &paths),
            PathMatch::Unknown(_)
        ));
    }

    #[test]
    fn relative_anchor_is_taken_from_cwd() {
        let paths = PathContext {
            anchor: Path::new("conf"),
            ..context()
        };
        assert_eq!(
            check("/x.json", "/work/proj/sub/conf/x.json", &paths),
            PathMatch::Match
        );
    }

    #[test]
    fn invalid_glob_is_a_parse_error() {
        let error = PathPattern::parse("/src/[a").unwrap_err().to_string();
        assert!(error.contains("invalid glob"), "{error}");
    }
}

//! The agent hook's tools: `Read`, `Grep` and `Glob`, confined to the
//! project. Nothing here writes or runs anything.
//!
//! The agent being judged wrote the files these tools read, so every path
//! is treated as hostile: it is resolved (symlinks and `..` included) and
//! must land inside the project folder, or be the event's own transcript;
//! a file is opened without blocking (a FIFO cannot stall it) and without
//! following a last-component symlink, and what was opened is checked
//! again through its descriptor, so a path swapped for a symlink between
//! the check and the open is still refused. Walks never follow symlinks.
//! Every result is bounded in bytes, lines, entries visited and time.
//!
//! The tools also obey the fire's own rules ([`ReadGuard`], SPEC §9.5): a
//! path a `Read` deny (or ask) rule names is refused as the agent's own
//! Read would be, and left out of Grep's search and Glob's listing; the
//! refusal names the rule and carries nothing of the file. Otherwise the
//! hook would hand the model, and through its reason the agent, what the
//! policy keeps from them.

use std::fmt::Write as _;
use std::fs::File;
use std::io::Read as _;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

/// One tool result, at most (longer results are cut with a note).
pub const RESULT_CAP: usize = 32 * 1024;
/// Lines `Read` shows when the model asks for no `limit`.
const READ_LINES: usize = 2000;
/// The most of one file `Read` or `Grep` looks at.
const FILE_CAP: u64 = 8 * 1024 * 1024;
/// Folder entries one `Grep` or `Glob` visits, at most.
const WALK_ENTRIES: usize = 20_000;
/// Paths or matching lines one `Grep` or `Glob` lists, at most.
const LISTED: usize = 500;

/// The fire's rules about reading: the rule (as text, with where it was
/// written) that denies reading a path, if one does.
#[derive(Clone, Default)]
pub struct ReadGuard(Option<Arc<Denies>>);

/// The rule that denies reading a path, if one does.
type Denies = dyn Fn(&Path) -> Option<String> + Send + Sync;

impl std::fmt::Debug for ReadGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "ReadGuard(rules)"
        } else {
            "ReadGuard(none)"
        })
    }
}

impl ReadGuard {
    pub fn new(denies: impl Fn(&Path) -> Option<String> + Send + Sync + 'static) -> ReadGuard {
        ReadGuard(Some(Arc::new(denies)))
    }

    fn denies(&self, path: &Path) -> Option<String> {
        self.0.as_ref().and_then(|denies| denies(path))
    }
}

/// Where the tools may read.
#[derive(Debug, Clone)]
pub struct Scope {
    /// The project folder, resolved (no symlinks in it).
    root: PathBuf,
    /// The event's transcript, resolved, when it has one: readable by
    /// `Read` though it lies outside the project.
    transcript: Option<PathBuf>,
    /// Tools stop work here and say so.
    deadline: Instant,
    /// What the fire's rules forbid reading.
    reads: ReadGuard,
}

/// A tool's answer: its text, and whether it is an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub text: String,
    pub is_error: bool,
}

impl Output {
    fn ok(text: String) -> Output {
        Output {
            text: cap(text),
            is_error: false,
        }
    }

    fn error(text: impl std::fmt::Display) -> Output {
        Output {
            text: cap(text.to_string()),
            is_error: true,
        }
    }
}

fn cap(mut text: String) -> String {
    if text.len() <= RESULT_CAP {
        return text;
    }
    let mut end = RESULT_CAP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let more = text.len() - end;
    text.truncate(end);
    let _ = write!(
        text,
        "\n[cut: {more} more bytes; ask for less (offset/limit, a narrower path or pattern)]"
    );
    text
}

impl Scope {
    /// The scope of `project` (resolved here; an error when it cannot be).
    pub fn new(
        project: &Path,
        transcript: Option<&Path>,
        deadline: Instant,
    ) -> std::io::Result<Scope> {
        Ok(Scope {
            root: std::fs::canonicalize(project)?,
            transcript: transcript.and_then(|t| std::fs::canonicalize(t).ok()),
            deadline,
            reads: ReadGuard::default(),
        })
    }

    /// The same scope, refusing what `reads` denies.
    #[must_use]
    pub fn obeying(mut self, reads: ReadGuard) -> Scope {
        self.reads = reads;
        self
    }

    /// Why the fire's rules refuse reading `asked` (as written, and as
    /// `resolved`), if they do: the words for the model, with nothing of
    /// the file in them.
    fn refused(&self, asked: &str, resolved: &Path) -> Option<String> {
        let written = if Path::new(asked).is_absolute() {
            PathBuf::from(asked)
        } else {
            self.root.join(asked)
        };
        let rule = self
            .reads
            .denies(&written)
            .or_else(|| self.reads.denies(resolved))?;
        Some(format!(
            "{asked}: refused: the permission rule {rule} denies reading it, and a hook's tools obey the same rules"
        ))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `asked` (absolute, or relative to the project) resolved, if it
    /// lies inside the project (or is the transcript); else why not, in
    /// words for the model.
    pub fn confine(&self, asked: &str) -> Result<PathBuf, Refused> {
        if asked.trim().is_empty() {
            return Err(Refused::EmptyPath);
        }
        if asked.contains('\0') {
            return Err(Refused::NulByte);
        }
        let joined = if Path::new(asked).is_absolute() {
            PathBuf::from(asked)
        } else {
            self.root.join(asked)
        };
        let resolved = match std::fs::canonicalize(&joined) {
            Ok(resolved) => resolved,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                // Say "outside" rather than "missing" for a path that could
                // never be read anyway.
                if !lexically_inside(&joined, &self.root) {
                    return Err(self.outside(asked));
                }
                return Err(Refused::Missing(asked.to_owned()));
            }
            Err(err) => return Err(Refused::io(asked, err)),
        };
        if self.allowed(&resolved) {
            return Ok(resolved);
        }
        if lexically_inside(&joined, &self.root) {
            return Err(Refused::LinkOutside {
                asked: asked.to_owned(),
                to: resolved,
                root: self.root.clone(),
            });
        }
        Err(self.outside(asked))
    }

    fn outside(&self, asked: &str) -> Refused {
        Refused::Outside {
            asked: asked.to_owned(),
            root: self.root.clone(),
        }
    }

    fn allowed(&self, resolved: &Path) -> bool {
        resolved.starts_with(&self.root) || self.transcript.as_deref() == Some(resolved)
    }

    /// Opens a regular file that [`Scope::confine`] accepted, and checks
    /// through the descriptor that it is still where it was allowed to be.
    fn open(&self, resolved: &Path, shown: &str) -> Result<File, Refused> {
        let file = crate::fsafe::open_read(resolved, crate::fsafe::Follow::No)
            .map_err(|err| Refused::io(shown, err))?;
        match crate::platform::descriptor_path(&file) {
            Ok(real) if self.allowed(&real) => Ok(file),
            Ok(real) => Err(Refused::Moved {
                shown: shown.to_owned(),
                to: real,
            }),
            Err(err) => Err(Refused::Unchecked {
                shown: shown.to_owned(),
                err,
            }),
        }
    }

    /// A folder opened without following a symlink at its last component,
    /// if it is (still) inside the project.
    fn open_folder(&self, folder: &Path) -> Option<File> {
        let handle = crate::platform::open_folder_nofollow(folder).ok()?;
        let real = crate::platform::descriptor_path(&handle).ok()?;
        real.starts_with(&self.root).then_some(handle)
    }

    fn past_deadline(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// Runs the tool `name` with `input`.
    pub fn run(&self, name: &str, input: &Value) -> Output {
        match name {
            "Read" => self.read(input),
            "Grep" => self.grep(input),
            "Glob" => self.glob(input),
            other => Output::error(format!(
                "there is no tool {other:?} here; the tools are Read, Grep and Glob (read-only, inside the project), and StructuredOutput for the answer"
            )),
        }
    }

    fn read(&self, input: &Value) -> Output {
        let Some(asked) = input.get("file_path").and_then(Value::as_str) else {
            return Output::error("Read needs `file_path` (a string)");
        };
        let resolved = match self.confine(asked) {
            Ok(path) => path,
            Err(why) => return Output::error(why),
        };
        if let Some(why) = self.refused(asked, &resolved) {
            return Output::error(why);
        }
        if resolved.is_dir() {
            return Output::error(format!(
                "{asked} is a folder; list it with Glob (pattern \"*\", path {asked:?})"
            ));
        }
        let offset = number(input, "offset").unwrap_or(1).max(1);
        let limit = number(input, "limit").unwrap_or(READ_LINES).max(1);
        let bytes = match self.open(&resolved, asked).and_then(|f| slurp(f, asked)) {
            Ok(bytes) => bytes,
            Err(why) => return Output::error(why),
        };
        if looks_binary(&bytes) {
            return Output::error(format!("{asked} is a binary file; not shown"));
        }
        let text = String::from_utf8_lossy(&bytes);
        let mut out = String::new();
        let mut shown = 0;
        let mut total = 0;
        for (i, line) in text.lines().enumerate() {
            total = i + 1;
            if total < offset || shown >= limit {
                continue;
            }
            shown += 1;
            let _ = writeln!(out, "{total:>6}\t{line}");
            if out.len() > RESULT_CAP {
                break;
            }
        }
        if out.is_empty() {
            return Output::ok(if total == 0 {
                format!("{asked} is empty")
            } else {
                format!("{asked} has {total} lines; none from line {offset}")
            });
        }
        if shown < total.saturating_sub(offset - 1) {
            let _ = writeln!(
                out,
                "[{asked} has {total} lines; ask for more with offset and limit]"
            );
        }
        Output::ok(out)
    }

    /// The folder a Grep or Glob starts from: `path`, else the project.
    fn base(&self, input: &Value) -> Result<(PathBuf, String), Refused> {
        match input.get("path").and_then(Value::as_str) {
            Some(asked) if !asked.trim().is_empty() => {
                let resolved = self.confine(asked)?;
                if let Some(why) = self.refused(asked, &resolved) {
                    return Err(Refused::Denied(why));
                }
                Ok((resolved, asked.to_owned()))
            }
            _ => Ok((self.root.clone(), ".".to_owned())),
        }
    }

    /// Leaves out of a walk the files the fire's rules deny reading; how
    /// many there were.
    fn drop_denied(&self, walk: &mut Walk) {
        let before = walk.files.len();
        walk.files.retain(|file| self.reads.denies(file).is_none());
        walk.denied = before - walk.files.len();
    }

    /// The path shown to the model: relative to the project.
    fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .map_or_else(|_| path.display().to_string(), |p| p.display().to_string())
    }

    fn glob(&self, input: &Value) -> Output {
        let Some(pattern) = input.get("pattern").and_then(Value::as_str) else {
            return Output::error("Glob needs `pattern` (a string such as \"**/*.rs\")");
        };
        let matcher = match globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
        {
            Ok(glob) => glob.compile_matcher(),
            Err(err) => return Output::error(format!("bad pattern {pattern:?}: {err}")),
        };
        let (base, _) = match self.base(input) {
            Ok(base) => base,
            Err(why) => return Output::error(why),
        };
        let mut walk = self.walk(&base);
        self.drop_denied(&mut walk);
        let mut found: Vec<String> = walk
            .files
            .iter()
            .filter(|f| matcher.is_match(f.strip_prefix(&base).unwrap_or(f)))
            .map(|f| self.shown(f))
            .collect();
        found.sort();
        let mut out = listing(&mut found, "files");
        if out.is_empty() {
            out = format!("no files match {pattern:?}\n");
        }
        out.push_str(&walk.note());
        Output::ok(out)
    }

    fn grep(&self, input: &Value) -> Output {
        let Some(pattern) = input.get("pattern").and_then(Value::as_str) else {
            return Output::error("Grep needs `pattern` (a regular expression)");
        };
        let insensitive = input.get("-i").and_then(Value::as_bool) == Some(true);
        let regex = match regex::RegexBuilder::new(pattern)
            .case_insensitive(insensitive)
            .size_limit(1 << 20)
            .build()
        {
            Ok(regex) => regex,
            Err(err) => return Output::error(format!("bad pattern {pattern:?}: {err}")),
        };
        let filter = match input.get("glob").and_then(Value::as_str) {
            Some(glob) => match globset::Glob::new(glob) {
                Ok(glob) => Some(glob.compile_matcher()),
                Err(err) => return Output::error(format!("bad glob {glob:?}: {err}")),
            },
            None => None,
        };
        let mode = input
            .get("output_mode")
            .and_then(Value::as_str)
            .unwrap_or("files_with_matches");
        if !matches!(mode, "files_with_matches" | "content" | "count") {
            return Output::error(format!(
                "output_mode {mode:?}: use files_with_matches, content or count"
            ));
        }
        let (base, asked) = match self.base(input) {
            Ok(base) => base,
            Err(why) => return Output::error(why),
        };
        let mut walk = if base.is_dir() {
            self.walk(&base)
        } else {
            Walk {
                files: vec![base.clone()],
                ..Walk::default()
            }
        };
        self.drop_denied(&mut walk);
        let mut lines = Vec::new();
        let mut unread = 0;
        for file in &walk.files {
            if self.past_deadline() || lines.len() > LISTED {
                break;
            }
            if let Some(filter) = &filter {
                let name = file.file_name().map_or(file.as_path(), Path::new);
                let rel = file.strip_prefix(&base).unwrap_or(file);
                if !filter.is_match(name) && !filter.is_match(rel) {
                    continue;
                }
            }
            let shown = self.shown(file);
            let Ok(bytes) = self.open(file, &shown).and_then(|f| slurp(f, &shown)) else {
                unread += 1;
                continue;
            };
            if looks_binary(&bytes) {
                continue;
            }
            let text = String::from_utf8_lossy(&bytes);
            let mut count = 0;
            for (i, line) in text.lines().enumerate() {
                if !regex.is_match(line) {
                    continue;
                }
                count += 1;
                match mode {
                    "content" => lines.push(format!("{shown}:{}:{line}", i + 1)),
                    "files_with_matches" => break,
                    _ => {}
                }
            }
            match (mode, count) {
                (_, 0) | ("content", _) => {}
                ("count", n) => lines.push(format!("{shown}:{n}")),
                _ => lines.push(shown),
            }
        }
        let mut out = listing(&mut lines, "results");
        if out.is_empty() {
            out = format!("no matches for {pattern:?} in {asked}\n");
        }
        out.push_str(&walk.note());
        if unread > 0 {
            let _ = writeln!(out, "[{unread} files could not be read]");
        }
        Output::ok(out)
    }

    /// The regular files under `base` (itself resolved and inside the
    /// project), never through a symlink, `.git` left out, bounded.
    fn walk(&self, base: &Path) -> Walk {
        let mut walk = Walk::default();
        let mut folders = vec![base.to_owned()];
        while let Some(folder) = folders.pop() {
            // Listed through a descriptor checked to be inside: a folder
            // swapped for a symlink after it was seen is not listed.
            let Some(handle) = self.open_folder(&folder) else {
                continue;
            };
            let Ok(entries) = crate::platform::read_folder(&handle) else {
                continue;
            };
            for entry in entries.flatten() {
                if walk.visited >= WALK_ENTRIES || self.past_deadline() {
                    walk.cut = true;
                    return walk;
                }
                walk.visited += 1;
                // `file_type` does not follow a symlink.
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let path = folder.join(entry.file_name());
                if kind.is_dir() {
                    if entry.file_name() != ".git" {
                        folders.push(path);
                    }
                } else if kind.is_file() {
                    walk.files.push(path);
                } else if kind.is_symlink() {
                    walk.links += 1;
                }
            }
        }
        walk.files.sort();
        walk
    }
}

#[derive(Debug, Default)]
struct Walk {
    files: Vec<PathBuf>,
    visited: usize,
    links: usize,
    cut: bool,
    /// Files left out because the fire's rules deny reading them.
    denied: usize,
}

impl Walk {
    fn note(&self) -> String {
        let mut note = String::new();
        if self.cut {
            let _ = writeln!(
                note,
                "[the search stopped after {} entries or at the time limit; narrow `path`]",
                self.visited
            );
        }
        if self.links > 0 {
            let _ = writeln!(note, "[{} symbolic links were not followed]", self.links);
        }
        if self.denied > 0 {
            let _ = writeln!(
                note,
                "[{} files the permission rules deny reading were left out]",
                self.denied
            );
        }
        note
    }
}

/// At most [`LISTED`] lines, one a line, with a note when some are left.
fn listing(items: &mut Vec<String>, what: &str) -> String {
    let more = items.len().saturating_sub(LISTED);
    items.truncate(LISTED);
    let mut out = String::new();
    for item in items.iter() {
        out.push_str(item);
        out.push('\n');
    }
    if more > 0 {
        let _ = writeln!(out, "[{more} more {what} not listed]");
    }
    out
}

fn number(input: &Value, key: &str) -> Option<usize> {
    input
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
}

fn slurp(file: File, shown: &str) -> Result<Vec<u8>, Refused> {
    let mut bytes = Vec::new();
    file.take(FILE_CAP)
        .read_to_end(&mut bytes)
        .map_err(|err| Refused::io(shown, err))?;
    Ok(bytes)
}

/// Why a tool does not read a path, in words for the model.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("the path is empty")]
    EmptyPath,
    #[error("the path contains a NUL byte")]
    NulByte,
    #[error("{0}: no such file or folder")]
    Missing(String),
    #[error("{shown}: {err}")]
    Io { shown: String, err: std::io::Error },
    #[error("{asked} is outside the project; the tools read only inside {}", root.display())]
    Outside { asked: String, root: PathBuf },
    #[error(
        "{asked} leads outside the project through a symbolic link (to {}); the tools read only inside {}",
        to.display(),
        root.display()
    )]
    LinkOutside {
        asked: String,
        to: PathBuf,
        root: PathBuf,
    },
    #[error("{shown} moved outside the project while it was opened (to {}); refused", to.display())]
    Moved { shown: String, to: PathBuf },
    #[error("{shown}: cannot check where the opened file is ({err}); refused")]
    Unchecked { shown: String, err: std::io::Error },
    /// A deny rule or hookrun's own files: the rule's words.
    #[error("{0}")]
    Denied(String),
}

impl Refused {
    fn io(shown: &str, err: std::io::Error) -> Refused {
        Refused::Io {
            shown: shown.to_owned(),
            err,
        }
    }
}

fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8192)].contains(&0)
}

/// Whether `path`, with `.` and `..` applied as text (no symlinks
/// followed), lies inside `root`.
fn lexically_inside(path: &Path, root: &Path) -> bool {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.len() > 1 {
                    parts.pop();
                }
            }
            other => parts.push(other),
        }
    }
    parts.iter().collect::<PathBuf>().starts_with(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::symlink;
    use serde_json::json;
    use std::time::Duration;

    fn tree() -> (tempfile::TempDir, Scope) {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("project");
        std::fs::create_dir_all(project.join("src/deep")).unwrap();
        std::fs::write(project.join("notes.txt"), "one\ntwo SECRET-WORD\nthree\n").unwrap();
        std::fs::write(project.join("src/a.rs"), "fn main() {}\n// TODO: x\n").unwrap();
        std::fs::write(project.join("src/deep/b.rs"), "// todo later\n").unwrap();
        std::fs::write(dir.path().join("outside.txt"), "OUTSIDE-CONTENT\n").unwrap();
        symlink(dir.path().join("outside.txt"), project.join("link-out")).unwrap();
        symlink(dir.path(), project.join("dir-out")).unwrap();
        symlink(project.join("notes.txt"), project.join("link-in")).unwrap();
        let scope = Scope::new(&project, None, Instant::now() + Duration::from_secs(60)).unwrap();
        (dir, scope)
    }

    #[test]
    fn paths_are_confined_to_the_project() {
        let (dir, scope) = tree();
        let root = scope.root().to_owned();
        assert_eq!(scope.confine("notes.txt").unwrap(), root.join("notes.txt"));
        assert_eq!(
            scope
                .confine(root.join("src/../notes.txt").to_str().unwrap())
                .unwrap(),
            root.join("notes.txt")
        );
        // A symlink that stays inside is followed to its target.
        assert_eq!(scope.confine("link-in").unwrap(), root.join("notes.txt"));
        for (asked, words) in [
            ("../outside.txt", "is outside the project"),
            ("/etc/passwd", "is outside the project"),
            ("src/../../outside.txt", "is outside the project"),
            ("../missing", "is outside the project"),
            ("link-out", "through a symbolic link"),
            ("dir-out/outside.txt", "through a symbolic link"),
            ("nothing-here", "no such file"),
            ("", "empty"),
        ] {
            let why = scope.confine(asked).unwrap_err().to_string();
            assert!(why.contains(words), "{asked}: {why}");
        }
        // A link out and back in ends inside: allowed.
        assert_eq!(
            scope.confine("dir-out/project/notes.txt").unwrap(),
            root.join("notes.txt")
        );
        // The absolute outside path, even spelled through the project.
        let through = format!("{}/../outside.txt", root.display());
        assert!(scope.confine(&through).is_err());
        drop(dir);
    }

    #[test]
    fn the_transcript_is_readable_though_outside() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("p");
        std::fs::create_dir(&project).unwrap();
        let transcript = dir.path().join("t.jsonl");
        std::fs::write(&transcript, "{\"type\":\"user\"}\n").unwrap();
        std::fs::write(dir.path().join("other.jsonl"), "x").unwrap();
        let scope = Scope::new(
            &project,
            Some(&transcript),
            Instant::now() + Duration::from_secs(60),
        )
        .unwrap();
        let out = scope.run("Read", &json!({"file_path": transcript}));
        assert!(!out.is_error && out.text.contains("\"type\""), "{out:?}");
        let other = dir.path().join("other.jsonl");
        assert!(scope.run("Read", &json!({"file_path": other})).is_error);
    }

    crate::platform::unix_only! {
    #[test]
    fn read_numbers_lines_and_refuses_what_it_must() {
        let (dir, scope) = tree();
        let out = scope.run("Read", &json!({"file_path": "notes.txt"}));
        assert_eq!(
            out,
            Output::ok("     1\tone\n     2\ttwo SECRET-WORD\n     3\tthree\n".into())
        );
        let out = scope.run(
            "Read",
            &json!({"file_path": "notes.txt", "offset": 2, "limit": 1}),
        );
        assert!(out.text.starts_with("     2\ttwo"), "{out:?}");
        assert!(out.text.contains("has 3 lines"), "{out:?}");
        for input in [
            json!({"file_path": "link-out"}),
            json!({"file_path": "../outside.txt"}),
            json!({"file_path": "/etc/passwd"}),
            json!({"file_path": "src"}),
            json!({}),
        ] {
            let out = scope.run("Read", &input);
            assert!(out.is_error, "{input}: {out:?}");
            assert!(!out.text.contains("OUTSIDE-CONTENT"), "{out:?}");
        }
        // A FIFO is refused at once, never waited on.
        let fifo = scope.root().join("pipe");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let out = scope.run("Read", &json!({"file_path": "pipe"}));
        assert!(out.is_error && out.text.contains("FIFO"), "{out:?}");
        // Tools that write or run do not exist.
        for tool in ["Bash", "Write", "Edit"] {
            assert!(scope.run(tool, &json!({})).text.contains("no tool"));
        }
        drop(dir);
    }
    }

    #[test]
    fn grep_and_glob_search_the_tree_without_leaving_it() {
        let (dir, scope) = tree();
        let out = scope.run("Glob", &json!({"pattern": "**/*.rs"}));
        assert!(out.text.starts_with("src/a.rs\nsrc/deep/b.rs\n"), "{out:?}");
        assert!(out.text.contains("symbolic links were not followed"));
        let out = scope.run("Glob", &json!({"pattern": "*.rs", "path": "src"}));
        assert_eq!(out.text, "src/a.rs\n");
        let out = scope.run("Grep", &json!({"pattern": "todo", "-i": true}));
        assert!(out.text.starts_with("src/a.rs\nsrc/deep/b.rs\n"), "{out:?}");
        let out = scope.run(
            "Grep",
            &json!({"pattern": "TODO", "output_mode": "content", "glob": "*.rs"}),
        );
        assert!(out.text.starts_with("src/a.rs:2:// TODO: x\n"), "{out:?}");
        // Nothing outside is searched, through links or by path.
        let out = scope.run("Grep", &json!({"pattern": "OUTSIDE"}));
        assert!(out.text.starts_with("no matches"), "{out:?}");
        let out = scope.run("Grep", &json!({"pattern": "x", "path": "dir-out"}));
        assert!(out.is_error, "{out:?}");
        let out = scope.run("Glob", &json!({"pattern": "*", "path": ".."}));
        assert!(out.is_error, "{out:?}");
        assert!(scope.run("Grep", &json!({"pattern": "("})).is_error);
        // A walk lists a folder only through a descriptor that is inside:
        // never through a symlink (one swapped in late), never outside.
        assert!(scope.open_folder(&scope.root().join("src")).is_some());
        assert!(scope.open_folder(&scope.root().join("dir-out")).is_none());
        assert!(scope.open_folder(dir.path()).is_none());
        assert_eq!(
            scope.walk(&scope.root().join("dir-out")).files,
            Vec::<PathBuf>::new()
        );
        drop(dir);
    }

    #[test]
    fn results_are_capped() {
        let text = "x".repeat(RESULT_CAP * 2);
        let out = Output::ok(text);
        assert!(out.text.len() < RESULT_CAP + 200);
        assert!(out.text.contains("more bytes"));
    }
}

//! What a tool call does, as far as the built-in rules need to know: the
//! programs it starts (with their words) and the files it writes or
//! deletes. The one place the built-in rules ask; SPEC §4.3's effects model
//! answers the same two questions for every rule, and [`of`] is meant to
//! become a thin view of it.
//!
//! Until then it reads what hookrun already reads: the file tools' paths
//! (`Edit`, `Write`, `MultiEdit`, `NotebookEdit`, and every path of a
//! multi-file call), and for shell commands the shell reader's parts
//! ([`crate::select::rule::split_shared`]: every view behind wrappers, and
//! the command lines handed to shells, followed as the deny rules follow
//! them), with the redirections and the file arguments of the programs
//! that write, move or delete files. Pure but for nothing: no I/O.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::select::rule::{ToolCall, split_shared};
use crate::select::shell::{CommandPart, HOLE};

/// How deep command lines handed to shells are followed (as the deny rules
/// follow them).
const MAX_DEPTH: usize = 8;

/// What one tool call does.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Effects {
    /// Each program the call may start: its words (unquoted; an expansion
    /// or a glob in a word is [`HOLE`]) joined by single spaces.
    pub programs: Vec<String>,
    /// The files it writes or deletes.
    pub writes: Vec<Write>,
    /// Text of the call hookrun cannot read (a part whose program only the
    /// running shell knows, a command that does not parse), with why: the
    /// rules decide whether it may name what they protect.
    pub unread: Vec<Unread>,
    /// The call names one file whose new content or replacements its
    /// input says ([`change_of`] reads them).
    pub one_file_change: bool,
}

/// Text hookrun could not read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub text: String,
    pub why: String,
}

/// One file a call writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    /// As written, `~/` and the usual variables expanded; absolute or
    /// relative to [`Write::dir`].
    pub path: String,
    /// The folder a relative path is relative to (the event's `cwd`, or
    /// where a `cd` before it went).
    pub dir: PathBuf,
    pub kind: WriteKind,
    /// The path holds an expansion or a glob: only its literal start is
    /// known.
    pub dynamic: bool,
}

/// What a write does to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    /// Replaces or changes the file's content.
    Content,
    /// Removes, moves, relinks or changes the mode of what the path names,
    /// a whole folder included: it also reaches everything below it.
    Tree,
}

/// A file tool's change, as the call gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The whole new content.
    Content(String),
    /// Replacements in the current content, in order: (old, new, all).
    Edits(Vec<(String, String, bool)>),
}

/// The change a one-file tool call makes (`Write`'s `content`, `Edit`'s
/// and `MultiEdit`'s replacements), read from its whole input: called only
/// when the file matters, so a long content is decoded only then.
pub fn change_of(tool_name: &str, input: &Value) -> Option<Change> {
    match tool_name {
        "Write" => input
            .get("content")
            .and_then(Value::as_str)
            .map(|c| Change::Content(c.to_owned())),
        "Edit" => edit_of(input).map(|e| Change::Edits(vec![e])),
        "MultiEdit" => input
            .get("edits")
            .and_then(Value::as_array)
            .and_then(|edits| edits.iter().map(edit_of).collect::<Option<Vec<_>>>())
            .map(Change::Edits),
        _ => None,
    }
}

/// The variables a path may name that hookrun expands itself (the same
/// values the agent's shell has, since hookrun runs in the host's
/// environment).
pub(crate) const KNOWN_VARIABLES: &[&str] = &[
    "HOME",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "HOOKRUN_STATE_DIR",
    "HOOKRUN_LOG",
    "HOOKRUN_MANAGED_SETTINGS",
    "CLAUDE_PROJECT_DIR",
    "CODEX_HOME",
];

/// Where the call runs, to read its paths.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    pub cwd: &'a Path,
    pub home: Option<&'a Path>,
    /// hookrun's environment (for `$HOME`, `$XDG_CONFIG_HOME`…).
    pub env: &'a [(std::ffi::OsString, std::ffi::OsString)],
}

impl Site<'_> {
    fn var(&self, name: &str) -> Option<String> {
        if name == "HOME" {
            if let Some(home) = self.home {
                return Some(home.display().to_string());
            }
        }
        self.env
            .iter()
            .find(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.to_string_lossy().into_owned())
    }
}

/// The effects of `call`.
pub fn of(call: ToolCall<'_>, site: &Site<'_>) -> Effects {
    let mut effects = Effects::default();
    let input = call.tool_input;
    match call.tool_name {
        "Bash" | "PowerShell" => {
            if let Some(command) = input.get("command").and_then(Value::as_str) {
                shell(command, site, 0, &mut effects);
            }
        }
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => file_tool(call, site, &mut effects),
        _ => {}
    }
    effects
}

/// The paths a file tool writes. Its strings may be read shallow (a
/// string too long to decode cheaply as `""`): a path that long cannot be
/// opened anyway.
fn file_tool(call: ToolCall<'_>, site: &Site<'_>, effects: &mut Effects) {
    let input = call.tool_input;
    let first = ["file_path", "notebook_path"]
        .iter()
        .find_map(|key| input.get(key).and_then(Value::as_str));
    let others = input
        .get("file_paths")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    // A call on several files (a patch) says no one file's content.
    effects.one_file_change = input.get("file_paths").is_none() && call.tool_name != "NotebookEdit";
    for path in first.into_iter().chain(others).filter(|p| !p.is_empty()) {
        effects.writes.push(Write {
            path: expand_home(path, site),
            dir: site.cwd.to_path_buf(),
            kind: WriteKind::Content,
            dynamic: false,
        });
    }
}

fn edit_of(edit: &Value) -> Option<(String, String, bool)> {
    Some((
        edit.get("old_string")?.as_str()?.to_owned(),
        edit.get("new_string")?.as_str()?.to_owned(),
        edit.get("replace_all").and_then(Value::as_bool) == Some(true),
    ))
}

fn expand_home(path: &str, site: &Site<'_>) -> String {
    match (path.strip_prefix("~/"), site.home) {
        (Some(rest), Some(home)) => home.join(rest).display().to_string(),
        _ if path == "~" => site
            .home
            .map_or_else(|| path.to_owned(), |h| h.display().to_string()),
        _ => path.to_owned(),
    }
}

/// A shell command's programs and writes, its handed-over command lines
/// followed (`sh -c`, `eval`…).
fn shell(command: &str, site: &Site<'_>, depth: usize, effects: &mut Effects) {
    let split = match split_shared(command) {
        Ok(split) => split,
        Err(why) => {
            effects.unread.push(Unread {
                text: command.to_owned(),
                why,
            });
            return;
        }
    };
    let split = match split.as_ref() {
        Ok(split) => split,
        Err(error) => {
            effects.unread.push(Unread {
                text: command.to_owned(),
                why: format!("the command cannot be parsed: {error}"),
            });
            return;
        }
    };
    let mut dir = site.cwd.to_path_buf();
    for part in &split.parts {
        if let Some(why) = &part.unjudgeable {
            effects.unread.push(Unread {
                text: part.full.clone(),
                why: why.clone(),
            });
        }
        programs_of(part, effects);
        writes_of(part, &dir, site, effects);
        // `cd DIR && …`: what follows is relative to DIR.
        if let Some(to) = cd_target(part, &dir, site) {
            dir = to;
        }
        for inner in &part.runs {
            if depth >= MAX_DEPTH {
                effects.unread.push(Unread {
                    text: inner.clone(),
                    why: format!("command lines handed to shells nest more than {MAX_DEPTH} deep"),
                });
                continue;
            }
            let inner_site = Site { cwd: &dir, ..*site };
            shell(inner, &inner_site, depth + 1, effects);
        }
    }
}

/// How much of one view [`Effects::programs`] keeps: what a program is and
/// how it starts is in its first words (a part of a huge command may have
/// hundreds of views, each nearly as long as the command).
const VIEW_KEPT: usize = 4096;

/// Every view of a part is a program it may start.
fn programs_of(part: &CommandPart, effects: &mut Effects) {
    for view in std::iter::once(&part.plain).chain(&part.seen_through) {
        let mut end = view.len().min(VIEW_KEPT);
        while !view.is_char_boundary(end) {
            end -= 1;
        }
        let kept = &view[..end];
        if !kept.is_empty() && !effects.programs.iter().any(|p| p == kept) {
            effects.programs.push(kept.to_owned());
        }
    }
}

/// The folder a literal `cd DIR` goes to.
fn cd_target(part: &CommandPart, dir: &Path, site: &Site<'_>) -> Option<PathBuf> {
    let mut words = part.plain.split(' ');
    if words.next() != Some("cd") {
        return None;
    }
    let target = words.find(|w| !w.starts_with('-'))?;
    if target.contains(HOLE) {
        return None;
    }
    let target = expand(target, site)?;
    Some(dir.join(target))
}

/// Programs that write, move or delete the files they are given, and which
/// of their arguments they write.
#[derive(Clone, Copy)]
enum Writer {
    /// Every argument that is not an option.
    All(WriteKind),
    /// The last argument (and `-t DIR`).
    Last,
    /// Every argument, when an in-place option (`-i`, `--in-place`) is given.
    InPlace,
    /// The value of `of=` (dd).
    Of,
    /// The value of these options (`-o FILE`).
    Options(&'static [&'static str]),
    /// The start folders (`find DIR … -delete`).
    FindDelete,
}

const WRITERS: &[(&str, Writer)] = &[
    ("tee", Writer::All(WriteKind::Content)),
    ("truncate", Writer::All(WriteKind::Content)),
    ("touch", Writer::All(WriteKind::Content)),
    ("shred", Writer::All(WriteKind::Tree)),
    ("rm", Writer::All(WriteKind::Tree)),
    ("unlink", Writer::All(WriteKind::Tree)),
    ("rmdir", Writer::All(WriteKind::Tree)),
    ("mv", Writer::All(WriteKind::Tree)),
    ("chmod", Writer::All(WriteKind::Tree)),
    ("chown", Writer::All(WriteKind::Tree)),
    ("chgrp", Writer::All(WriteKind::Tree)),
    ("chattr", Writer::All(WriteKind::Tree)),
    ("setfacl", Writer::All(WriteKind::Tree)),
    ("mkdir", Writer::All(WriteKind::Content)),
    ("mkfifo", Writer::All(WriteKind::Content)),
    ("mknod", Writer::All(WriteKind::Content)),
    ("cp", Writer::Last),
    ("install", Writer::Last),
    ("ln", Writer::Last),
    ("rsync", Writer::Last),
    ("scp", Writer::Last),
    ("sed", Writer::InPlace),
    ("perl", Writer::InPlace),
    ("dd", Writer::Of),
    ("curl", Writer::Options(&["-o", "--output"])),
    ("wget", Writer::Options(&["-O", "--output-document"])),
    ("find", Writer::FindDelete),
];

/// The redirections of a part and the file arguments of the writing
/// programs in its views.
fn writes_of(part: &CommandPart, dir: &Path, site: &Site<'_>, effects: &mut Effects) {
    if part.full.contains('>') {
        redirections(part, dir, site, effects);
    }
    // The views write expansions as holes; `plain` keeps their text
    // (`$HOME/x`), which a view's arguments are the end of.
    let plain = || part.plain.split(' ').collect::<Vec<&str>>();
    for view in std::iter::once(&part.plain).chain(&part.seen_through) {
        let first = view.split(' ').next().unwrap_or_default();
        let name = first.rsplit('/').next().unwrap_or(first);
        let Some(&(_, writer)) = WRITERS.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        let words: Vec<&str> = view.split(' ').collect();
        let plain = plain();
        let args = match plain.len().checked_sub(words.len()) {
            Some(at) if plain[at].rsplit('/').next() == Some(name) => &plain[at + 1..],
            _ => &words[1..],
        };
        for (path, kind) in written_args(writer, args) {
            push_write(path, kind, dir, site, effects);
        }
    }
}

/// The arguments `writer` writes, of `args`.
fn written_args<'w>(writer: Writer, args: &[&'w str]) -> Vec<(&'w str, WriteKind)> {
    let operands = || {
        args.iter()
            .copied()
            .filter(|a| !a.is_empty() && (!a.starts_with('-') || *a == "-"))
    };
    match writer {
        Writer::All(kind) => operands().map(|a| (a, kind)).collect(),
        Writer::Last => {
            let mut out: Vec<(&str, WriteKind)> = Vec::new();
            for (i, arg) in args.iter().enumerate() {
                if *arg == "-t" {
                    out.extend(args.get(i + 1).map(|d| (*d, WriteKind::Content)));
                } else if let Some(d) = arg.strip_prefix("--target-directory=") {
                    out.push((d, WriteKind::Content));
                }
            }
            // `--remove-source-files`, `--delete`: rsync removes what it names.
            let removes = args
                .iter()
                .any(|a| *a == "--remove-source-files" || a.starts_with("--delete"));
            if removes {
                out.extend(operands().map(|a| (a, WriteKind::Tree)));
            } else {
                out.extend(operands().next_back().map(|a| (a, WriteKind::Content)));
            }
            out
        }
        Writer::InPlace => {
            let in_place = args
                .iter()
                .any(|a| a.starts_with("--in-place") || (a.starts_with("-i") && *a != "-i="));
            if in_place {
                operands().map(|a| (a, WriteKind::Content)).collect()
            } else {
                Vec::new()
            }
        }
        Writer::Of => args
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .map(|a| (a, WriteKind::Content))
            .collect(),
        Writer::Options(names) => {
            let mut out = Vec::new();
            for (i, arg) in args.iter().enumerate() {
                for name in names {
                    if arg == name {
                        out.extend(args.get(i + 1).map(|f| (*f, WriteKind::Content)));
                    } else if let Some(value) = arg.strip_prefix(&format!("{name}=")) {
                        out.push((value, WriteKind::Content));
                    }
                }
            }
            out
        }
        Writer::FindDelete => {
            if args.contains(&"-delete") {
                args.iter()
                    .copied()
                    .take_while(|a| !a.starts_with('-') && *a != "(" && *a != "!")
                    .map(|a| (a, WriteKind::Tree))
                    .collect()
            } else {
                Vec::new()
            }
        }
    }
}

/// Output redirections of a part (`> f`, `>>f`, `2> f`, `&> f`, `>| f`),
/// read from the part as written.
fn redirections(part: &CommandPart, dir: &Path, site: &Site<'_>, effects: &mut Effects) {
    let words = shlex::split(&part.full)
        .unwrap_or_else(|| part.full.split_whitespace().map(str::to_owned).collect());
    let mut pending = false;
    for word in &words {
        if pending {
            pending = false;
            push_redirect_target(word, dir, site, effects);
            continue;
        }
        let Some(at) = word.find('>') else { continue };
        // `a>b` is `a` and a redirection to `b` when unquoted; quoted, an
        // argument that holds `>`: read as a redirection either way (a
        // write hookrun protects is denied, any other is not judged).
        let rest = word[at + 1..]
            .trim_start_matches('>')
            .trim_start_matches('|');
        if let Some(dup) = rest.strip_prefix('&') {
            // `>&2`, `2>&1`: a descriptor; `>&file` (bash) writes the file.
            if dup.is_empty() || dup == "-" || dup.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            push_redirect_target(dup, dir, site, effects);
        } else if rest.is_empty() {
            pending = true;
        } else {
            push_redirect_target(rest, dir, site, effects);
        }
    }
}

fn push_redirect_target(target: &str, dir: &Path, site: &Site<'_>, effects: &mut Effects) {
    if matches!(
        target,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"
    ) {
        return;
    }
    push_write(target, WriteKind::Content, dir, site, effects);
}

fn push_write(word: &str, kind: WriteKind, dir: &Path, site: &Site<'_>, effects: &mut Effects) {
    let (path, dynamic) = match expand(word, site) {
        Some(path) => {
            let dynamic = path.contains(HOLE) || path.contains(['*', '?', '[']);
            (path, dynamic)
        }
        None => (word.to_owned(), true),
    };
    let write = Write {
        path,
        dir: dir.to_path_buf(),
        kind,
        dynamic,
    };
    if !effects.writes.contains(&write) {
        effects.writes.push(write);
    }
}

/// `~`, `~/…` and the [`KNOWN_VARIABLES`] (`$HOME`, `${HOME}`) expanded;
/// another `$` expansion stays, for the caller to see as dynamic. `None`:
/// a known variable that is not set.
fn expand(word: &str, site: &Site<'_>) -> Option<String> {
    let mut text = expand_home(word, site);
    if !text.contains('$') {
        return Some(text);
    }
    for name in KNOWN_VARIABLES {
        for form in [format!("${{{name}}}"), format!("${name}")] {
            if let Some(at) = text.find(&form) {
                // `$HOMEDIR` is not `$HOME`.
                let after = text[at + form.len()..].chars().next();
                if form.starts_with("${")
                    || !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    let value = site.var(name)?;
                    text = format!("{}{value}{}", &text[..at], &text[at + form.len()..]);
                }
            }
        }
    }
    Some(text.replace('$', &HOLE.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn site_env() -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
        vec![("XDG_STATE_HOME".into(), "/h/.st".into())]
    }

    fn shell_effects(command: &str) -> Effects {
        let env = site_env();
        let site = Site {
            cwd: Path::new("/p"),
            home: Some(Path::new("/h")),
            env: &env,
        };
        let input = json!({ "command": command });
        of(
            ToolCall {
                tool_name: "Bash",
                tool_input: &input,
            },
            &site,
        )
    }

    fn written(command: &str) -> Vec<(String, WriteKind, bool)> {
        shell_effects(command)
            .writes
            .into_iter()
            .map(|w| {
                let path = if Path::new(&w.path).is_absolute() {
                    w.path
                } else {
                    w.dir.join(&w.path).display().to_string()
                };
                (path, w.kind, w.dynamic)
            })
            .collect()
    }

    #[test]
    fn redirections_and_writing_programs_are_writes() {
        use WriteKind::{Content, Tree};
        type Case<'a> = (&'a str, &'a [(&'a str, WriteKind, bool)]);
        let cases: &[Case<'_>] = &[
            ("echo x > f", &[("/p/f", Content, false)]),
            ("echo x >>f 2>&1", &[("/p/f", Content, false)]),
            ("echo x &> '/a b'", &[("/a b", Content, false)]),
            ("ls 2>/dev/null", &[]),
            ("echo a>b", &[("/p/b", Content, false)]),
            (
                "printf x | tee -a ~/x y",
                &[("/h/x", Content, false), ("/p/y", Content, false)],
            ),
            (
                "sudo rm -rf $XDG_STATE_HOME/hookrun",
                &[("/h/.st/hookrun", Tree, false)],
            ),
            ("cp a b c/", &[("/p/c/", Content, false)]),
            (
                "sed -i s/a/b/ f",
                &[("/p/s/a/b/", Content, false), ("/p/f", Content, false)],
            ),
            ("sed s/a/b/ f", &[]),
            ("cd /q && echo x > f", &[("/q/f", Content, false)]),
            ("dd if=a of=/x/y", &[("/x/y", Content, false)]),
            ("curl -o out https://x", &[("/p/out", Content, false)]),
            ("find /d -name x -delete", &[("/d", Tree, false)]),
            (
                "echo x > \"$OTHER/f\"",
                &[("/p/\u{FFFF}OTHER/f", Content, true)],
            ),
            (
                "bash -c 'rm ~/.config/hookrun/trust.json'",
                &[("/h/.config/hookrun/trust.json", Tree, false)],
            ),
        ];
        for (command, want) in cases {
            let want: Vec<(String, WriteKind, bool)> = want
                .iter()
                .map(|(p, k, d)| ((*p).to_owned(), *k, *d))
                .collect();
            assert_eq!(written(command), want, "{command}");
        }
    }

    #[test]
    fn programs_are_every_view() {
        let effects = shell_effects("sudo -u x /usr/bin/hookrun trust . && ls");
        assert!(
            effects.programs.iter().any(|p| p.starts_with("hookrun ")),
            "{:?}",
            effects.programs
        );
        let effects = shell_effects("$X trust");
        assert_eq!(effects.unread.len(), 1);
    }

    #[test]
    fn file_tools_name_their_paths_and_changes() {
        let env = site_env();
        let site = Site {
            cwd: Path::new("/p"),
            home: Some(Path::new("/h")),
            env: &env,
        };
        let input = json!({"file_path": "~/f", "old_string": "a", "new_string": "b"});
        let call = ToolCall {
            tool_name: "Edit",
            tool_input: &input,
        };
        let effects = of(call, &site);
        assert_eq!(effects.writes.len(), 1);
        assert_eq!(effects.writes[0].path, "/h/f");
        assert!(effects.one_file_change);
        assert_eq!(
            change_of("Edit", &input),
            Some(Change::Edits(vec![("a".into(), "b".into(), false)]))
        );
        let input = json!({"file_path": "a", "file_paths": ["a", "b"]});
        let effects = of(
            ToolCall {
                tool_name: "Edit",
                tool_input: &input,
            },
            &site,
        );
        assert_eq!(effects.writes.len(), 3);
        assert!(!effects.one_file_change);
    }
}

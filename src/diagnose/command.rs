//! What `doctor` can tell from a hook's command without running it: the
//! programs and scripts it starts, and whether they are there.
//!
//! A hook whose program is missing exits 127 — a failure, not a block, so
//! the guard silently lets everything through — and `python3 missing.py`
//! exits 2, which blocks every call. Both look fine in the settings file.
//!
//! Pure but for [`Probe`], which answers the filesystem questions (a fake in
//! the tests). The command is split with the same splitter the `if` rules
//! use, so wrappers (`timeout 5`, `nohup`), assignments and compound commands
//! are read the same way everywhere.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use super::probe::{FileKind, Probe};
use crate::select::shell::split_command;

/// The values `doctor` substitutes before looking at paths, as the hook's
/// shell would see them.
#[derive(Debug, Clone, Copy)]
pub struct Vars<'a> {
    /// `HOOKRUN_CONFIG_DIR`: the declaring file's directory.
    pub config_dir: &'a Path,
    /// `HOOKRUN_PROJECT_DIR`, and relative paths are resolved against it.
    pub project_dir: &'a Path,
    /// `CLAUDE_PROJECT_DIR` as hooks get it (inherited, else the project).
    pub claude_project_dir: &'a Path,
    pub home: Option<&'a Path>,
}

impl Vars<'_> {
    fn value(&self, name: &str) -> Option<String> {
        let path = match name {
            "HOOKRUN_CONFIG_DIR" => self.config_dir,
            "HOOKRUN_PROJECT_DIR" => self.project_dir,
            "CLAUDE_PROJECT_DIR" => self.claude_project_dir,
            "HOME" => self.home?,
            _ => return None,
        };
        Some(path.display().to_string())
    }
}

/// Substitutes `$NAME` and `${NAME}` for the variables of [`Vars`]; every
/// other `$` is left as written.
pub fn expand(text: &str, vars: &Vars<'_>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, used) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (&braced[..end], end + 2),
                None => ("", 0),
            }
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], end)
        };
        if let Some(value) = vars.value(name).filter(|_| used > 0) {
            out.push_str(&value);
            rest = &after[used..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The path variables of [`Vars`] written outside quotes in a shell
/// command whose value holds whitespace or a glob character: the shell
/// splits (or globs) the path, so the hook runs a program that does not
/// exist (exit 127, a failure that blocks nothing). `(name, value)`, in order.
pub fn unquoted_split_vars(command: &str, vars: &Vars<'_>) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let mut chars = command.char_indices().peekable();
    let (mut single, mut double) = (false, false);
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' if !single => {
                chars.next();
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '$' if !single && !double => {
                let after = &command[at + 1..];
                let name = if let Some(braced) = after.strip_prefix('{') {
                    braced.find('}').map(|end| &braced[..end])
                } else {
                    let end = after
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(after.len());
                    Some(&after[..end])
                };
                let Some(name) = name.filter(|n| !n.is_empty()) else {
                    continue;
                };
                if let Some(value) = vars.value(name) {
                    let splits = value
                        .chars()
                        .any(|c| c.is_whitespace() || matches!(c, '*' | '?' | '['));
                    if splits && !found.iter().any(|(n, _)| n == name) {
                        found.push((name.to_owned(), value));
                    }
                }
            }
            _ => {}
        }
    }
    found
}

/// One thing wrong with what a command starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Issue {
    /// A program named by path is not there.
    Missing {
        word: String,
        path: PathBuf,
    },
    NotExecutable {
        word: String,
        path: PathBuf,
    },
    IsDirectory {
        word: String,
        path: PathBuf,
    },
    /// A bare program name not found on `PATH`.
    NotOnPath {
        program: String,
    },
    /// A program or script named relative to the working directory, which
    /// is the event's `cwd` and moves when the agent `cd`s.
    Relative {
        word: String,
    },
    /// A shell script uses a tool that is not on PATH here, without
    /// checking for it (`command -v TOOL`): it fails on every run, and a
    /// guard that reads the event with it may let everything through.
    ScriptToolMissing {
        script: PathBuf,
        tool: String,
    },
    /// `INTERPRETER SCRIPT` where the script is not there.
    ScriptMissing {
        interpreter: String,
        word: String,
        path: PathBuf,
        /// The interpreter exits 2 then (python, perl): a block.
        exits_2: bool,
    },
    /// The hook runs `hookrun fire` itself.
    Recursion,
}

/// Shell builtins and keywords: never looked up on `PATH`.
const BUILTINS: &[&str] = &[
    ":", ".", "[", "[[", "alias", "bg", "break", "builtin", "cd", "command", "continue", "declare",
    "echo", "eval", "exec", "exit", "export", "false", "fg", "getopts", "hash", "jobs", "kill",
    "let", "local", "popd", "printf", "pushd", "pwd", "read", "readonly", "return", "set", "shift",
    "source", "test", "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias",
    "unset", "wait", "{", "}", "!",
];

/// An interpreter that takes a script path as its first operand.
struct Interpreter {
    /// Options after which there is no script (`-c CODE`, `-m MODULE`).
    no_script: &'static [&'static str],
    /// Words skipped before the script (`deno run`).
    subcommands: &'static [&'static str],
    /// Check only operands that look like files (`bun x.ts`, not `bun test`).
    files_only: bool,
    /// Exits 2 when the script is missing (python: "can't open file").
    exits_2: bool,
}

fn interpreter(name: &str) -> Option<Interpreter> {
    let shell = Interpreter {
        no_script: &["-c"],
        subcommands: &[],
        files_only: false,
        exits_2: false,
    };
    let python = name
        .strip_prefix("python")
        .is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'));
    Some(match name {
        _ if python => Interpreter {
            no_script: &["-c", "-m"],
            exits_2: true,
            ..shell
        },
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" => shell,
        "perl" => Interpreter {
            no_script: &["-e", "-E"],
            exits_2: true,
            ..shell
        },
        "node" | "nodejs" | "tsx" | "ts-node" => Interpreter {
            no_script: &["-e", "--eval", "-p", "--print"],
            ..shell
        },
        "ruby" => Interpreter {
            no_script: &["-e"],
            ..shell
        },
        "php" => Interpreter {
            no_script: &["-r"],
            ..shell
        },
        "bun" | "deno" | "uv" => Interpreter {
            no_script: &["-e", "--eval"],
            subcommands: &["run"],
            files_only: true,
            exits_2: false,
        },
        _ => return None,
    })
}

/// A shell-form command: every simple command in it.
pub fn analyze_shell(command: &str, vars: &Vars<'_>, probe: &dyn Probe) -> Vec<Issue> {
    let expanded = expand(command, vars);
    let Ok(split) = split_command(&expanded) else {
        return Vec::new();
    };
    let mut issues = Vec::new();
    let mut moved = false;
    for part in &split.parts {
        let Some(words) = shlex::split(&part.text) else {
            continue;
        };
        let words = skip_redirections(&words);
        if let Some(first) = words.first() {
            analyze_words(words, vars, probe, moved, &mut issues);
            if matches!(first.as_str(), "cd" | "pushd" | "popd") {
                moved = true;
            }
        }
    }
    issues.dedup();
    issues
}

/// Exec form: the program and its arguments, no shell.
pub fn analyze_exec(
    program: &str,
    args: &[String],
    vars: &Vars<'_>,
    probe: &dyn Probe,
) -> Vec<Issue> {
    let mut words = vec![expand(program, vars)];
    words.extend(args.iter().map(|a| expand(a, vars)));
    let mut issues = Vec::new();
    analyze_words(&words, vars, probe, false, &mut issues);
    issues
}

fn skip_redirections(words: &[String]) -> &[String] {
    let mut rest = words;
    while let Some(first) = rest.first() {
        let digits = first.trim_start_matches(|c: char| c.is_ascii_digit());
        if !digits.starts_with(['<', '>']) {
            break;
        }
        let operator_only = digits.chars().all(|c| matches!(c, '<' | '>' | '&'));
        rest = &rest[if operator_only { 2.min(rest.len()) } else { 1 }..];
    }
    rest
}

/// Judges one simple command; `moved`: an earlier part changed directory,
/// so relative paths cannot be resolved.
fn analyze_words(
    words: &[String],
    vars: &Vars<'_>,
    probe: &dyn Probe,
    moved: bool,
    issues: &mut Vec<Issue>,
) {
    let mut words = words;
    // `exec CMD`, `env [-i] [VAR=x] CMD`: the command is further on.
    loop {
        match words.first().map(String::as_str) {
            Some("exec") => words = &words[1..],
            Some("env") => {
                let skip = words[1..]
                    .iter()
                    .take_while(|w| w.starts_with('-') || w.contains('='))
                    .count();
                words = &words[1 + skip..];
            }
            _ => break,
        }
    }
    let Some(program) = words.first() else {
        return;
    };
    if !checkable(program) {
        return;
    }
    let base = program.rsplit('/').next().unwrap_or(program);
    if base == "hookrun" && words.get(1).is_none_or(|w| w == "fire") {
        // Whether hookrun is on PATH here is beside the point.
        issues.push(Issue::Recursion);
        return;
    }
    if matches!(program.as_str(), "source" | ".") {
        if let Some(script) = words.get(1).filter(|w| checkable(w)) {
            check_script(program, script, false, vars, probe, moved, issues);
        }
        return;
    }
    if BUILTINS.contains(&program.as_str()) {
        return;
    }
    if program.contains('/') || program.starts_with('~') {
        let Some(path) = resolve(program, vars, moved) else {
            return;
        };
        match probe.file(&path) {
            FileKind::Missing => issues.push(Issue::Missing {
                word: program.clone(),
                path,
            }),
            FileKind::Directory => issues.push(Issue::IsDirectory {
                word: program.clone(),
                path,
            }),
            FileKind::File { executable: false } => issues.push(Issue::NotExecutable {
                word: program.clone(),
                path,
            }),
            FileKind::File { executable: true } => {
                if is_relative(program) {
                    issues.push(Issue::Relative {
                        word: program.clone(),
                    });
                }
                script_tools(&path, probe, issues);
            }
        }
        return;
    }
    if !probe.on_path(program) {
        issues.push(Issue::NotOnPath {
            program: program.clone(),
        });
        return;
    }
    let Some(interp) = interpreter(base) else {
        return;
    };
    let mut operands = words[1..].iter();
    let mut skipped_subcommand = false;
    for word in operands.by_ref() {
        if interp.no_script.contains(&word.as_str()) {
            return;
        }
        if word == "--" {
            continue;
        }
        if word.starts_with('-') {
            continue;
        }
        if !skipped_subcommand && interp.subcommands.contains(&word.as_str()) {
            skipped_subcommand = true;
            continue;
        }
        let looks_like_file = word.contains('/') || word.contains('.');
        if checkable(word) && (!interp.files_only || looks_like_file) {
            check_script(base, word, interp.exits_2, vars, probe, moved, issues);
        }
        return;
    }
}

/// Tools hook scripts commonly depend on, which a fresh machine may lack.
const SCRIPT_TOOLS: &[&str] = &["jq", "yq", "python3", "node", "npx", "curl", "perl", "ruby"];

/// A shell script's uses of [`SCRIPT_TOOLS`] that are not on PATH and that
/// the script does not check for itself.
fn script_tools(path: &Path, probe: &dyn Probe, issues: &mut Vec<Issue>) {
    let Some(bytes) = probe.read(path) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return;
    };
    let first = text.lines().next().unwrap_or_default();
    if !(first.starts_with("#!") && (first.ends_with("sh") || first.contains("sh "))) {
        return;
    }
    // Code only: a `#` at the start of a word starts a comment.
    let code: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|line| {
            line.match_indices('#')
                .find(|(i, _)| *i == 0 || line.as_bytes()[i - 1].is_ascii_whitespace())
                .map_or(line, |(i, _)| &line[..i])
        })
        .collect();
    for tool in SCRIPT_TOOLS {
        if probe.on_path(tool) {
            continue;
        }
        let checked = code.iter().any(|line| {
            [
                format!("command -v {tool}"),
                format!("which {tool}"),
                format!("type {tool}"),
            ]
            .iter()
            .any(|check| line.contains(check.as_str()))
        });
        if checked {
            continue;
        }
        let used = code.iter().any(|line| {
            line.match_indices(tool).any(|(i, _)| {
                let before = line[..i].chars().next_back();
                let after = line[i + tool.len()..].chars().next();
                before.is_none_or(|c| c.is_whitespace() || "(|;&`".contains(c))
                    && after.is_none_or(char::is_whitespace)
            })
        });
        if used {
            issues.push(Issue::ScriptToolMissing {
                script: path.to_path_buf(),
                tool: (*tool).to_owned(),
            });
        }
    }
}

fn check_script(
    interpreter: &str,
    word: &str,
    exits_2: bool,
    vars: &Vars<'_>,
    probe: &dyn Probe,
    moved: bool,
    issues: &mut Vec<Issue>,
) {
    let Some(path) = resolve(word, vars, moved) else {
        return;
    };
    if probe.file(&path) == FileKind::Missing {
        issues.push(Issue::ScriptMissing {
            interpreter: interpreter.to_owned(),
            word: word.to_owned(),
            path,
            exits_2,
        });
    } else if is_relative(word) {
        issues.push(Issue::Relative {
            word: word.to_owned(),
        });
    }
}

/// A word whose meaning is known before the hook runs: no variables left,
/// no substitutions, no globs.
fn checkable(word: &str) -> bool {
    !word.is_empty() && !word.contains(['$', '`', '*', '?', '['])
}

fn is_relative(word: &str) -> bool {
    !word.starts_with('/') && !word.starts_with('~')
}

/// Where a path word points; `None` when that depends on a directory
/// change earlier in the command or on an unknown home.
fn resolve(word: &str, vars: &Vars<'_>, moved: bool) -> Option<PathBuf> {
    if word == "~" {
        return vars.home.map(Path::to_path_buf);
    }
    if let Some(rest) = word.strip_prefix("~/") {
        return vars.home.map(|home| home.join(rest));
    }
    if word.starts_with('~') {
        return None;
    }
    let path = Path::new(word);
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    (!moved).then(|| vars.project_dir.join(path))
}

/// Whether a shell command contains `exit CODE` as a command.
pub fn exits_with(command: &str, code: u8) -> bool {
    static EXIT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?:^|[\s;&|({])exit[ \t]+([0-9]+)(?:$|[\s;&|)}#])")
            .expect("the exit pattern compiles")
    });
    EXIT.captures_iter(command)
        .any(|c| c[1].parse::<u32>().ok() == Some(u32::from(code)))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    struct Fake {
        files: HashMap<PathBuf, FileKind>,
        path: Vec<&'static str>,
    }

    impl Probe for Fake {
        fn file(&self, path: &Path) -> FileKind {
            self.files.get(path).copied().unwrap_or(FileKind::Missing)
        }
        fn on_path(&self, program: &str) -> bool {
            self.path.contains(&program)
        }
        fn read(&self, _: &Path) -> Option<Vec<u8>> {
            None
        }
        fn canonical(&self, path: &Path) -> PathBuf {
            path.to_path_buf()
        }
    }

    fn fake() -> Fake {
        let exe = FileKind::File { executable: true };
        let plain = FileKind::File { executable: false };
        Fake {
            files: HashMap::from([
                (PathBuf::from("/cfg/hooks/ok.sh"), exe),
                (PathBuf::from("/cfg/hooks/plain.sh"), plain),
                (PathBuf::from("/proj/.claude/hooks/ok.py"), plain),
                (PathBuf::from("/proj/scripts/x.sh"), exe),
                (PathBuf::from("/home/u/bin/tool"), exe),
                (PathBuf::from("/cfg/hooks"), FileKind::Directory),
            ]),
            path: vec![
                "python3", "grep", "jq", "npx", "node", "bash", "sh", "hookrun", "perl", "uv",
            ],
        }
    }

    fn vars() -> Vars<'static> {
        Vars {
            config_dir: Path::new("/cfg"),
            project_dir: Path::new("/proj"),
            claude_project_dir: Path::new("/proj"),
            home: Some(Path::new("/home/u")),
        }
    }

    fn shell(command: &str) -> Vec<Issue> {
        analyze_shell(command, &vars(), &fake())
    }

    #[test]
    fn expands_only_the_known_variables() {
        assert_eq!(
            expand(
                r#""$HOOKRUN_CONFIG_DIR"/a ${CLAUDE_PROJECT_DIR}/b $HOME $OTHER ${X} $HOOKRUN_CONFIG_DIRX $"#,
                &vars()
            ),
            r#""/cfg"/a /proj/b /home/u $OTHER ${X} $HOOKRUN_CONFIG_DIRX $"#
        );
    }

    #[test]
    fn present_programs_and_scripts_pass() {
        for command in [
            "$HOOKRUN_CONFIG_DIR/hooks/ok.sh",
            "\"${HOOKRUN_CONFIG_DIR}\"/hooks/ok.sh --flag",
            "python3 \"$CLAUDE_PROJECT_DIR/.claude/hooks/ok.py\"",
            "jq -r .tool_input.command | grep -q rm && exit 2 || exit 0",
            "echo hi >&2; exit 2",
            "timeout 5 npx prettier --write .",
            "FOO=1 ~/bin/tool",
            "python3 -c 'import sys; sys.exit(2)'",
            "python3 -m black .",
            "cd sub && ./whatever.sh",
            "$UNKNOWN/thing.sh",
            "uv run pytest",
        ] {
            assert_eq!(shell(command), [], "{command}");
        }
    }

    #[test]
    fn missing_programs_are_named_with_their_path() {
        assert_eq!(
            shell("$HOOKRUN_CONFIG_DIR/hooks/gone.sh"),
            [Issue::Missing {
                word: "/cfg/hooks/gone.sh".into(),
                path: "/cfg/hooks/gone.sh".into()
            }]
        );
        assert_eq!(
            shell("jq . && $HOOKRUN_CONFIG_DIR/hooks/plain.sh"),
            [Issue::NotExecutable {
                word: "/cfg/hooks/plain.sh".into(),
                path: "/cfg/hooks/plain.sh".into()
            }]
        );
        assert_eq!(
            shell("$HOOKRUN_CONFIG_DIR/hooks"),
            [Issue::IsDirectory {
                word: "/cfg/hooks".into(),
                path: "/cfg/hooks".into()
            }]
        );
        assert_eq!(
            shell("nohup blackk . &"),
            [Issue::NotOnPath {
                program: "blackk".into()
            }]
        );
    }

    #[test]
    fn interpreter_with_a_missing_script() {
        assert_eq!(
            shell("python3 $HOOKRUN_CONFIG_DIR/missing.py"),
            [Issue::ScriptMissing {
                interpreter: "python3".into(),
                word: "/cfg/missing.py".into(),
                path: "/cfg/missing.py".into(),
                exits_2: true,
            }]
        );
        assert!(matches!(
            &shell("bash -e ~/hooks/x.sh")[..],
            [Issue::ScriptMissing { exits_2: false, .. }]
        ));
        assert!(matches!(
            &shell("uv run hooks/check.py")[..],
            [Issue::ScriptMissing { .. }]
        ));
        assert!(matches!(
            &shell(". ~/.hookrc")[..],
            [Issue::ScriptMissing { .. }]
        ));
    }

    #[test]
    fn relative_paths_depend_on_the_cwd() {
        assert_eq!(
            shell("./scripts/x.sh"),
            [Issue::Relative {
                word: "./scripts/x.sh".into()
            }]
        );
        assert_eq!(
            shell("bash scripts/x.sh"),
            [Issue::Relative {
                word: "scripts/x.sh".into()
            }]
        );
        assert!(matches!(&shell("./nope.sh")[..], [Issue::Missing { .. }]));
    }

    #[test]
    fn recursion_through_hookrun_fire() {
        assert_eq!(shell("hookrun fire"), [Issue::Recursion]);
        assert_eq!(shell("exec hookrun fire pre_tool_use"), [Issue::Recursion]);
        assert_eq!(shell("hookrun doctor"), []);
        let exec = analyze_exec("hookrun", &["fire".into()], &vars(), &fake());
        assert_eq!(exec, [Issue::Recursion]);
    }

    #[test]
    fn exec_form_checks_the_program() {
        let got = analyze_exec("${HOOKRUN_CONFIG_DIR}/hooks/gone", &[], &vars(), &fake());
        assert!(matches!(&got[..], [Issue::Missing { .. }]));
        let got = analyze_exec(
            "python3",
            &["${HOOKRUN_CONFIG_DIR}/x.py".into()],
            &vars(),
            &fake(),
        );
        assert!(matches!(
            &got[..],
            [Issue::ScriptMissing { exits_2: true, .. }]
        ));
    }

    #[test]
    fn exit_codes_in_commands() {
        assert!(exits_with("echo no >&2; exit 1", 1));
        assert!(exits_with("grep -q x || exit 1", 1));
        assert!(exits_with("if bad; then exit 1; fi", 1));
        assert!(exits_with("exit 1", 1));
        assert!(!exits_with("exit 10", 1));
        assert!(!exits_with("echo 'exit1'", 1));
        assert!(!exits_with("myexit 1", 1));
        assert!(exits_with("echo no >&2; exit 2", 2));
    }

    #[test]
    fn unquoted_path_variables_with_a_space_are_found() {
        let spaced = Vars {
            config_dir: Path::new("/my hooks/cfg"),
            project_dir: Path::new("/proj"),
            claude_project_dir: Path::new("/proj"),
            home: None,
        };
        let found = unquoted_split_vars(
            "${HOOKRUN_CONFIG_DIR}/x.sh && $HOOKRUN_CONFIG_DIR/y",
            &spaced,
        );
        assert_eq!(
            found,
            [("HOOKRUN_CONFIG_DIR".to_owned(), "/my hooks/cfg".to_owned())]
        );
        let unexpected = unquoted_split_vars("\"${HOOKRUN_CONFIG_DIR}\"/x.sh", &spaced);
        assert!(unexpected.is_empty(), "{unexpected:?}");
        let unexpected = unquoted_split_vars("'$HOOKRUN_CONFIG_DIR'/x.sh", &spaced);
        assert!(unexpected.is_empty(), "{unexpected:?}");
        let unexpected = unquoted_split_vars("\\$HOOKRUN_CONFIG_DIR/x.sh", &spaced);
        assert!(unexpected.is_empty(), "{unexpected:?}");
        assert!(
            unquoted_split_vars("$CLAUDE_PROJECT_DIR/x.sh", &spaced).is_empty(),
            "no space"
        );
    }

    #[test]
    fn a_script_using_a_missing_tool_without_checking_is_found() {
        struct Scripts;
        impl Probe for Scripts {
            fn file(&self, _: &Path) -> FileKind {
                FileKind::File { executable: true }
            }
            fn on_path(&self, program: &str) -> bool {
                program == "sh"
            }
            fn read(&self, path: &Path) -> Option<Vec<u8>> {
                let text = match path.to_str()? {
                    "/cfg/uses.sh" => "#!/bin/sh\n# jq is great\ncommand=$(jq -r .x)\n",
                    "/cfg/checks.sh" => "#!/bin/sh\ncommand -v jq >/dev/null || exit 2\njq -r .x\n",
                    "/cfg/mentions.sh" => "#!/bin/sh\necho 'see jqfoo' # jq\n",
                    _ => return None,
                };
                Some(text.as_bytes().to_vec())
            }
            fn canonical(&self, path: &Path) -> PathBuf {
                path.to_path_buf()
            }
        }
        let got = analyze_shell("$HOOKRUN_CONFIG_DIR/uses.sh", &vars(), &Scripts);
        assert!(
            matches!(&got[..], [Issue::ScriptToolMissing { tool, .. }] if tool == "jq"),
            "{got:?}"
        );
        let unexpected = analyze_shell("$HOOKRUN_CONFIG_DIR/checks.sh", &vars(), &Scripts);
        assert!(unexpected.is_empty(), "{unexpected:?}");
        let unexpected = analyze_shell("$HOOKRUN_CONFIG_DIR/mentions.sh", &vars(), &Scripts);
        assert!(unexpected.is_empty(), "{unexpected:?}");
    }
}

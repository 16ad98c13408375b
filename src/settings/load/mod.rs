//! Parsing one settings file: both hook shapes, precise locations, and the
//! rule that a problem skips only what it touches (SPEC §3.1–3.3).
//!
//! Two steps: the file becomes a `serde_json::Value` (a syntax error skips the
//! whole file), then each top-level key and each hook entry is parsed on its
//! own, so one bad entry never takes its neighbours with it.
//!
//! - [`file`]: reading the file and the trust gate of project files;
//! - this module: the bytes into the fast path or a tree, then the keys;
//! - [`keys`]: the top-level keys (permissions, env, log, http, policy…);
//! - [`hooks`]: the hook entries (the precise path);
//! - [`fast`]: the fast path, straight from the bytes into typed hooks.

mod fast;
mod file;
mod hooks;
mod keys;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::model::{
    FileState, HttpFileSettings, Permissions, Policy, Problem, ProblemKind, PromptFileSettings,
    Settings, SettingsFile, Severity, Source, Trust,
};
use crate::event::json_type_name;
use keys::{TopRef, load_top};

pub use file::{TrustGate, load_file, shell_quote};
pub(crate) use hooks::RawHook;
pub use hooks::{CLAUDE_INTERNAL_HOOK_FIELDS, HOOK_FIELDS};
pub(crate) use keys::TOP_LEVEL_KEYS;

/// Collects problems for one file.
struct Reporter<'a> {
    file: &'a Path,
    problems: &'a mut Vec<Problem>,
}

impl Reporter<'_> {
    fn push(
        &mut self,
        severity: Severity,
        kind: ProblemKind,
        json_path: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.problems.push(Problem {
            severity,
            kind,
            file: self.file.to_path_buf(),
            json_path: json_path.into(),
            message: message.into(),
        });
    }
}

pub(super) fn push_file(
    settings: &mut Settings,
    source: Source,
    dir: PathBuf,
    state: FileState,
    trust: Trust,
) -> usize {
    settings.files.push(SettingsFile {
        source,
        dir,
        state,
        trust,
        disable_all_hooks: None,
        permissions: Permissions::default(),
        env_keep: Vec::new(),
        policy: Policy::default(),
        log: None,
        http: HttpFileSettings::default(),
        prompt: PromptFileSettings::default(),
    });
    settings.files.len() - 1
}

/// Loads a file's contents (also used for inline settings of test cases);
/// the caller vouches for its trust.
pub fn load_bytes(settings: &mut Settings, source: Source, dir: PathBuf, bytes: &[u8]) {
    load_bytes_as(settings, source, dir, bytes, Trust::NotRequired);
}

pub(super) fn load_bytes_as(
    settings: &mut Settings,
    source: Source,
    dir: PathBuf,
    bytes: &[u8],
    trust: Trust,
) {
    // The fast path: straight into the typed model, no tree. It gives up
    // on anything it would have to report (a syntax or type error, an
    // unknown or repeated key, an odd shape), and the precise path below
    // parses the file again to say exactly what and where.
    let first_hook = settings.hooks.len();
    let cx = fast::Context {
        file: settings.files.len(),
        claude_mode: source.claude_mode,
        path: &source.path,
    };
    if let Some(top) = fast::parse(bytes, &cx, &mut settings.hooks) {
        load_top(
            settings,
            source,
            dir,
            top.into_iter().map(|(key, value)| match value {
                fast::Top::Hooks(problems) => (key, TopRef::Loaded(problems)),
                fast::Top::Value(value) => (key, TopRef::Owned(value)),
            }),
            trust,
        );
        return;
    }
    settings.hooks.truncate(first_hook);
    let path = source.path.clone();
    let parsed: Result<Value, _> = serde_json::from_slice(bytes);
    let value = match parsed {
        Ok(value) => value,
        Err(err) => {
            settings.problems.push(Problem {
                severity: Severity::Error,
                kind: ProblemKind::JsonSyntax,
                file: path,
                json_path: String::new(),
                message: format!(
                    "is not valid JSON ({}); its hooks are skipped",
                    describe_json_error(&err, bytes)
                ),
            });
            push_file(settings, source, dir, FileState::Skipped, trust);
            return;
        }
    };
    let Value::Object(top) = value else {
        settings.problems.push(Problem {
            severity: Severity::Error,
            kind: ProblemKind::JsonNotAnObject,
            file: path,
            json_path: String::new(),
            message: format!(
                "must be a JSON object, found {}; its hooks are skipped",
                json_type_name(&value)
            ),
        });
        push_file(settings, source, dir, FileState::Skipped, trust);
        return;
    };
    load_object_as(settings, source, dir, &top, trust);
}

/// serde_json's message, but a trailing comma is located where it is
/// written: serde_json reports the bracket after it, often on the next line.
fn describe_json_error(err: &serde_json::Error, bytes: &[u8]) -> String {
    let text = err.to_string();
    if !text.starts_with("trailing comma") {
        return text;
    }
    trailing_comma_at(bytes, err.line(), err.column()).map_or(text, |(line, column)| {
        format!(
            "trailing comma at line {line} column {column}, before the bracket at line {} column {}",
            err.line(),
            err.column()
        )
    })
}

/// The comma that precedes the 1-based position (`line`, `column`), skipping
/// whitespace: its 1-based line and column.
fn trailing_comma_at(bytes: &[u8], line: usize, column: usize) -> Option<(usize, usize)> {
    let line_start = if line <= 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .nth(line - 2)
            .map(|(i, _)| i + 1)?
    };
    let at = (line_start + column.saturating_sub(1)).min(bytes.len());
    let comma = bytes[..at].iter().rposition(|b| !b.is_ascii_whitespace())?;
    if bytes[comma] != b',' {
        return None;
    }
    let comma_line = bytes[..comma].split(|b| *b == b'\n').count();
    let comma_line_start = bytes[..comma]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let comma_column = std::str::from_utf8(&bytes[comma_line_start..comma])
        .map_or(comma - comma_line_start, |s| s.chars().count())
        + 1;
    Some((comma_line, comma_column))
}

/// Loads an already parsed object (inline settings of test cases).
pub fn load_object(
    settings: &mut Settings,
    source: Source,
    dir: PathBuf,
    top: &Map<String, Value>,
) {
    load_object_as(settings, source, dir, top, Trust::NotRequired);
}

fn load_object_as(
    settings: &mut Settings,
    source: Source,
    dir: PathBuf,
    top: &Map<String, Value>,
    trust: Trust,
) {
    load_top(
        settings,
        source,
        dir,
        top.iter().map(|(key, value)| (key, TopRef::Value(value))),
        trust,
    );
}

#[cfg(test)]
pub(super) mod test_util {
    use std::path::PathBuf;

    use super::load_bytes;
    use crate::settings::model::{Settings, Source, SourceKind};

    pub(super) fn load(json: &str) -> Settings {
        load_as(json, false)
    }

    pub(super) fn load_as(json: &str, claude_mode: bool) -> Settings {
        let mut settings = Settings::default();
        let source = Source {
            path: PathBuf::from("/cfg/settings.json"),
            kind: SourceKind::Cli,
            claude_mode,
            trust_required: false,
        };
        load_bytes(
            &mut settings,
            source,
            PathBuf::from("/cfg"),
            json.as_bytes(),
        );
        settings
    }

    pub(super) fn messages(settings: &Settings) -> Vec<String> {
        settings.problems.iter().map(ToString::to_string).collect()
    }
    pub(super) fn load_kind(json: &str, kind: SourceKind) -> Settings {
        let mut settings = Settings::default();
        let source = Source {
            path: PathBuf::from("/cfg/settings.json"),
            kind,
            claude_mode: false,
            trust_required: false,
        };
        load_bytes(
            &mut settings,
            source,
            PathBuf::from("/cfg"),
            json.as_bytes(),
        );
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::{load, messages};
    use super::*;

    #[test]
    fn a_trailing_comma_is_located_on_its_own_line() {
        let settings = load(
            "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"command\": \"true\"},\n    ]\n  }\n}\n",
        );
        let message = &messages(&settings)[0];
        assert!(
            message.contains("trailing comma at line 4 column 26, before the bracket at line 5"),
            "{message}"
        );
    }

    #[test]
    fn invalid_json_skips_the_file() {
        let settings = load(r#"{"hooks": {"#);
        assert!(settings.hooks.is_empty());
        assert_eq!(settings.files[0].state, FileState::Skipped);
        assert!(messages(&settings)[0].contains("is not valid JSON"));
    }

    #[test]
    fn unknown_keys_fields_and_events_are_warnings() {
        let settings = load(
            r#"{"hoks": {}, "hooks":{"PreToolUsed":[{"command":"x","comand":"y"}]}, "disableAllHooks": false}"#,
        );
        assert_eq!(settings.hooks.len(), 1);
        let problems = messages(&settings);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("hoks: unknown key, ignored (did you mean `hooks`?)")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("did you mean `PreToolUse`")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("hooks.PreToolUsed[0].comand: unknown field")),
            "{problems:?}"
        );
        assert!(
            settings
                .problems
                .iter()
                .all(|p| p.severity == Severity::Warning)
        );
    }
}

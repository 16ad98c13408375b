//! Parsing one settings file: both hook shapes, precise locations, and the
//! rule that a problem skips only what it touches (SPEC §3.1–3.3).
//!
//! Two steps: the file becomes a `serde_json::Value` (a syntax error skips the
//! whole file), then each top-level key and each hook entry is parsed on its
//! own, so one bad entry never takes its neighbours with it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::model::{
    FileState, HookDef, HookExtra, HookType, HttpFileSettings, JsonPath, McpToolDef, OnError,
    Permissions, Policy, Problem, PromptDef, PromptFileSettings, RuleEntry, Settings, SettingsFile,
    Severity, ShellKind, Source, SourceKind, Trust,
};
use super::trust::{CopyError, TrustState, TrustStore};
use crate::catalog::{self, EventId};
use crate::event::json_type_name;

/// Top-level keys hookrun understands (the settings JSON Schema lists
/// exactly these; a unit test in `generate::schema` holds it to that).
pub(crate) const TOP_LEVEL_KEYS: &[&str] = &[
    "$schema",
    "hooks",
    "disableAllHooks",
    "permissions",
    "env",
    "log",
    "allowedHttpHookUrls",
    "allowPrivateNetworkHooks",
    "allowedHookNetworks",
    "allowManagedHooksOnly",
    "allowedHookSources",
    "blockedCommands",
    "httpHookAllowedEnvVars",
    "maxHookTimeout",
    "promptHooks",
    "allowPromptHooks",
    "allowedPromptHookEndpoints",
];

/// The prompt hook keys (SPEC §13), parsed by `super::prompt`.
const PROMPT_KEYS: &[&str] = &[
    "promptHooks",
    "allowPromptHooks",
    "allowedPromptHookEndpoints",
];

/// The http hook keys (SPEC §8, §9.4), parsed by [`parse_http_key`].
const HTTP_KEYS: &[&str] = &[
    "allowedHttpHookUrls",
    "allowPrivateNetworkHooks",
    "allowedHookNetworks",
    "httpHookAllowedEnvVars",
];

/// Policy keys honoured only in managed settings (SPEC §9.4).
const MANAGED_ONLY: &[&str] = &[
    "allowManagedHooksOnly",
    "allowedHookSources",
    "blockedCommands",
    "maxHookTimeout",
];

/// The fields a hook entry may have, in [`RawHook`]'s order (the fast
/// path numbers them by position; `doctor` suggests the nearest for a
/// misspelt one).
pub const HOOK_FIELDS: [&str; 23] = [
    "type",
    "command",
    "args",
    "shell",
    "matcher",
    "if",
    "timeout",
    "name",
    "sequential",
    "onError",
    "async",
    "once",
    "statusMessage",
    "url",
    "headers",
    "allowedEnvVars",
    "prompt",
    "model",
    "continueOnBlock",
    "asyncRewake",
    "server",
    "tool",
    "input",
];

/// A hook entry as written (flat shape, or an inner hook of the nested one).
///
/// The settings JSON Schema is derived from this type (`docs/settings.schema.json`,
/// `just gen`), so the doc comments on its fields are what editors show.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(
    rename = "Hook",
    description = "One hook: a command (shell form `command`, or exec form `command` + `args`), an http endpoint (`url`) or a question to a model (`prompt`, `agent`)."
)]
pub(crate) struct RawHook {
    /// What the hook is: `command` (the default) runs a program, `http` POSTs the event to `url`, `prompt` asks a model whether the event may proceed, `agent` lets that model read the project (Read, Grep, Glob) before it answers, `mcp_tool` calls a tool on an MCP server. Other types load, but hookrun does not run them and says so on every fire.
    #[serde(rename = "type")]
    #[schemars(with = "Option<crate::generate::schema::HookTypeSchema>")]
    hook_type: Option<String>,
    /// Shell form: run as `sh -c COMMAND` (or `bash -c`, see `shell`). With `args`: the program, resolved on PATH and run directly, no shell. `$HOOKRUN_CONFIG_DIR` is the folder of the settings file that declares the hook.
    command: Option<String>,
    /// Exec form: the arguments of `command`, which then runs without a shell. `${HOOKRUN_CONFIG_DIR}`, `${CLAUDE_PROJECT_DIR}` and `${CLAUDE_PLUGIN_ROOT}` are substituted as plain strings.
    args: Option<Vec<String>>,
    /// The shell of the shell form: `sh` (the default), `bash`, or `powershell` (run as `pwsh -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command COMMAND`, with `pwsh` or else `powershell` found on PATH, as Claude Code runs it). Ignored in exec form.
    #[schemars(with = "Option<crate::generate::schema::ShellSchema>")]
    shell: Option<String>,
    /// Which calls the hook runs for, compared with the event's match field (`tool_name` on tool events). Absent, `""` or `"*"`: all. Only letters, digits, `_`, `-`, spaces, `,` and `|`: a list of exact, case-sensitive names (`Edit|Write`). Anything else: an unanchored JavaScript regex search (`^mcp__github__`). Inside a matcher group, the group's `matcher` applies instead.
    matcher: Option<String>,
    /// One permission rule the call must match for the hook to run, such as `Bash(git push *)` or `Edit(src/**)`. Only on tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied): elsewhere a hook with `if` does not run. A filter that saves spawns, not a security boundary: hard limits belong in `permissions`.
    #[serde(rename = "if")]
    if_rule: Option<String>,
    /// Seconds the hook may run before its process group is sent SIGTERM, then SIGKILL. Default 600 (UserPromptSubmit 30, MessageDisplay 10, prompt hooks 30, agent hooks 60 for the whole loop); capped by the managed `maxHookTimeout` and by the time left before the host's own timeout.
    #[schemars(with = "Option<crate::generate::schema::SecondsSchema>")]
    timeout: Option<Seconds>,
    /// Shown in reports, logs and warnings. Default: the command (or URL), shortened.
    name: Option<String>,
    /// When any hook matched by a fire sets this, that fire runs its hooks one after another in load order, each seeing the `tool_input` the previous one produced (`updatedInput`).
    sequential: Option<bool>,
    /// What a failure of the hook itself means (a crash, an exit other than 0 and 2 without JSON, a timeout, a refused http request, a model answer that is not a verdict).
    on_error: Option<RawOnError>,
    /// Start the hook detached and do not wait for it. Its `systemMessage` and `additionalContext` arrive with the next fire of the same session; its decisions have no effect.
    #[serde(rename = "async")]
    run_async: Option<bool>,
    /// Run at most once per session (`session_id`). Ignored in Claude Code settings files, as Claude Code ignores it there.
    once: Option<bool>,
    /// Carried into reports.
    status_message: Option<String>,
    /// http hooks: the URL the event is POSTed to. Checked against `allowedHttpHookUrls`, and against the SSRF guard (private networks are refused, loopback is allowed).
    url: Option<String>,
    /// http hooks: extra request headers. `$VAR` and `${VAR}` in values are replaced from hookrun's environment, only for names listed in `allowedEnvVars`.
    headers: Option<BTreeMap<String, String>>,
    /// http hooks: the environment variables `headers` may use (your consent; others become empty).
    allowed_env_vars: Option<Vec<String>>,
    /// Prompt and agent hooks: what the model is asked. `$ARGUMENTS` is replaced by the event JSON (the same a command hook reads on stdin); without it, the JSON is appended.
    prompt: Option<String>,
    /// Prompt and agent hooks: the model to ask. Default: `ANTHROPIC_SMALL_FAST_MODEL`, else `ANTHROPIC_DEFAULT_HAIKU_MODEL`, else `promptHooks.model`, else a small Claude model.
    model: Option<String>,
    /// Prompt hooks: on PreToolUse, PostToolUse and UserPromptSubmit, `ok: false` blocks and the agent goes on with the reason, instead of ending the turn.
    continue_on_block: Option<bool>,
    /// With `async`: run in the background, and only an exit 2 speaks: its stderr (else stdout) reaches the model with a later fire of the session, as Claude Code wakes the model with it. Its JSON output is not used. Without `async` the hook runs in the foreground and its exit 2 blocks, as Claude Code 2.1.332 runs it.
    async_rewake: Option<bool>,
    /// `mcp_tool` hooks: the MCP server, by its name in `.mcp.json` (the project's, which must be trusted) or ~/.claude.json. stdio servers only (`command`, `args`, `env`).
    server: Option<String>,
    /// `mcp_tool` hooks: the tool to call.
    tool: Option<String>,
    /// `mcp_tool` hooks: the tool's arguments. `${path}` in a string value is replaced by that field of the event JSON, such as `${tool_input.command}`.
    input: Option<Box<serde_json::Map<String, Value>>>,
}

/// What a failure of the hook itself means.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "OnError")]
enum RawOnError {
    /// The default: the failure is a warning, and the action goes ahead.
    Allow,
    /// Fail closed: the failure blocks, like an exit 2 (for policy gates).
    Block,
}

/// A timeout in seconds: a positive, finite number.
#[derive(Debug)]
struct Seconds(Duration);

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Seconds;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a positive number of seconds")
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Seconds, E> {
                if v.is_finite() && v > 0.0 && v < 1e9 {
                    Ok(Seconds(Duration::from_secs_f64(v)))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Seconds, E> {
                if v > 0 && v < 1_000_000_000 {
                    Ok(Seconds(Duration::from_secs(v)))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
                }
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Seconds, E> {
                Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// Collects problems for one file.
struct Reporter<'a> {
    file: &'a Path,
    problems: &'a mut Vec<Problem>,
}

impl Reporter<'_> {
    fn push(
        &mut self,
        severity: Severity,
        json_path: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.problems.push(Problem {
            severity,
            file: self.file.to_path_buf(),
            json_path: json_path.into(),
            message: message.into(),
        });
    }
}

/// How project files are judged (SPEC §9.1).
#[derive(Debug)]
pub struct TrustGate {
    /// `--trust-project`: every project file is trusted for this run.
    pub trust_all: bool,
    /// Where the store lives; `None` when no config directory is known.
    pub store_path: Option<PathBuf>,
    /// The project root, named in the "how to trust" hint.
    pub project: PathBuf,
    /// For `doctor`, `explain` and `list`: parse untrusted files too (their
    /// trust state is kept, and the funnel's trust layer stops their hooks),
    /// so a user can review what trusting them would do.
    pub inspect: bool,
    store: Option<TrustStore>,
}

impl TrustGate {
    pub fn new(trust_all: bool, store_path: Option<PathBuf>, project: PathBuf) -> TrustGate {
        TrustGate {
            trust_all,
            store_path,
            project,
            inspect: false,
            store: None,
        }
    }

    /// The store is read on first use: runs without project files never
    /// touch it.
    fn judge(&mut self, file: &Path, bytes: &[u8], problems: &mut Vec<Problem>) -> Trust {
        if self.trust_all {
            return Trust::TrustedForRun;
        }
        let Some(store) = self.store(problems) else {
            return Trust::New;
        };
        match store.state(file, bytes) {
            TrustState::Trusted => {
                store.keep_copy_of_legacy(file, bytes);
                Trust::Trusted
            }
            TrustState::New => Trust::New,
            TrustState::Changed => Trust::Changed,
        }
    }

    fn store(&mut self, problems: &mut Vec<Problem>) -> Option<&mut TrustStore> {
        let store_path = self.store_path.clone()?;
        Some(
            self.store
                .get_or_insert_with(|| match TrustStore::load(&store_path) {
                    Ok(store) => store,
                    Err(err) => {
                        problems.push(Problem {
                            severity: Severity::Warning,
                            file: store_path.clone(),
                            json_path: String::new(),
                            message: err.to_string(),
                        });
                        TrustStore::empty(store_path.clone())
                    }
                }),
        )
    }

    /// For a trusted project file that is gone or cannot be read now: the
    /// content that was trusted, when the store kept it. Deleting the file
    /// (or planting a FIFO there) must not switch its rules off either.
    fn copy_of_vanished(
        &mut self,
        file: &Path,
        problems: &mut Vec<Problem>,
    ) -> Option<(Vec<u8>, u64)> {
        if self.trust_all {
            return None;
        }
        let store = self.store(problems)?;
        store.entry(file)?;
        self.trusted_copy(file).ok()
    }

    /// The content that was trusted for a file that changed since.
    fn trusted_copy(&self, file: &Path) -> Result<(Vec<u8>, u64), CopyError> {
        let store = self.store.as_ref().ok_or(CopyError::Missing)?;
        let at = store.entry(file).map_or(0, |e| e.trusted_at);
        store.trusted_content(file).map(|bytes| (bytes, at))
    }
}

/// Loads one file into `settings` (appending to files, hooks and problems).
pub fn load_file(settings: &mut Settings, source: Source, dir: PathBuf, gate: &mut TrustGate) {
    // Only a regular file (or a pipe the command line named as /dev/fd/N):
    // a FIFO planted at a settings path must not hang the fire.
    let bytes = match crate::fsafe::read_settings(&source.path) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            // Missing is normal for the default locations; a file named on
            // the command line that is not there is a typo that would make
            // its hooks vanish without a word: a settings problem like an
            // unreadable one (an error: `--fail-closed` blocks on it).
            if source.trust_required {
                if let Some((trusted, at)) =
                    gate.copy_of_vanished(&source.path, &mut settings.problems)
                {
                    settings.problems.push(Problem {
                        severity: Severity::Warning,
                        file: source.path.clone(),
                        json_path: String::new(),
                        message: format!(
                            "was removed since it was trusted{}: the content you trusted then is still in force; if you meant to remove it, run `hookrun untrust {}`",
                            trusted_on(at),
                            shell_quote(&source.path.display().to_string())
                        ),
                    });
                    load_bytes_as(settings, source, dir, &trusted, Trust::TrustedEarlier);
                    return;
                }
            }
            if source.kind == SourceKind::Cli {
                settings.problems.push(Problem {
                    severity: Severity::Error,
                    file: source.path.clone(),
                    json_path: String::new(),
                    message: "does not exist: no hooks are loaded from it".to_owned(),
                });
            }
            push_file(
                settings,
                source,
                dir,
                FileState::Missing,
                Trust::NotRequired,
            );
            return;
        }
        Err(err) => {
            // Still an error (`--fail-closed` blocks), but a trusted file's
            // rules stay in force from the trusted copy.
            let copy = source
                .trust_required
                .then(|| gate.copy_of_vanished(&source.path, &mut settings.problems))
                .flatten();
            if let Some((trusted, at)) = copy {
                settings.problems.push(Problem {
                    severity: Severity::Error,
                    file: source.path.clone(),
                    json_path: String::new(),
                    message: format!(
                        "cannot be read ({err}); the content you trusted{} is still in force",
                        trusted_on(at).replacen(" (trusted", " (", 1)
                    ),
                });
                load_bytes_as(settings, source, dir, &trusted, Trust::TrustedEarlier);
                return;
            }
            settings.problems.push(Problem {
                severity: Severity::Error,
                file: source.path.clone(),
                json_path: String::new(),
                message: format!("cannot be read ({err}); its hooks are skipped"),
            });
            push_file(
                settings,
                source,
                dir,
                FileState::Skipped,
                Trust::NotRequired,
            );
            return;
        }
    };
    let trust = if source.trust_required {
        gate.judge(&source.path, &bytes, &mut settings.problems)
    } else {
        Trust::NotRequired
    };
    // A project-scoped file's layer: the project, or a nested folder.
    let target = if source.kind.is_project_scoped() {
        source
            .path
            .parent()
            .and_then(Path::parent)
            .unwrap_or(&gate.project)
            .display()
            .to_string()
    } else {
        source.path.display().to_string()
    };
    let mut severity = Severity::Warning;
    let mut why = "is not trusted".to_owned();
    if trust == Trust::Changed {
        // An edit must not switch the policy off: the content that was
        // trusted stays in force until the user trusts the new one.
        match gate.trusted_copy(&source.path) {
            Ok((trusted, at)) => {
                settings.problems.push(Problem {
                    severity: Severity::Warning,
                    file: source.path.clone(),
                    json_path: String::new(),
                    message: format!(
                        "changed since it was trusted{}: the content you trusted then is still in force, and the new content takes effect only once you review it and run `hookrun trust {}`",
                        trusted_on(at),
                        shell_quote(&target)
                    ),
                });
                load_bytes_as(settings, source, dir, &trusted, Trust::TrustedEarlier);
                return;
            }
            Err(err) => {
                // Nothing trusted to fall back on: an error, so
                // `--fail-closed` blocks instead of running without it.
                severity = Severity::Error;
                why = format!("changed since it was trusted, and {err}");
            }
        }
    }
    if !trust.is_trusted() {
        // Hashed, not parsed (unless inspecting for `doctor`).
        settings.problems.push(Problem {
            severity,
            file: source.path.clone(),
            json_path: String::new(),
            message: format!(
                "{why}: its hooks, permissions and env do not take effect; review it, then run `hookrun trust {}`",
                shell_quote(&target)
            ),
        });
        if !gate.inspect {
            push_file(settings, source, dir, FileState::Untrusted, trust);
            return;
        }
    }
    load_bytes_as(settings, source, dir, &bytes, trust);
}

/// " on 2026-01-02" for a trust time (seconds since the epoch), or nothing.
fn trusted_on(at: u64) -> String {
    if at == 0 {
        return String::new();
    }
    let time = std::time::UNIX_EPOCH + Duration::from_secs(at);
    let text = humantime::format_rfc3339_seconds(time).to_string();
    format!(" (trusted {})", text.get(..10).unwrap_or(&text))
}

/// Quotes a path for a command the user may paste.
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

fn push_file(
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

fn load_bytes_as(
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

/// A top-level value: parsed as a tree (the precise path, and every key
/// but `hooks` on the fast one), or the fast path's typed `hooks`.
enum TopRef<'a> {
    Value(&'a Value),
    Owned(Value),
    /// `hooks`, already in the settings' list by the fast path: what it
    /// reported, in order.
    Loaded(Vec<Problem>),
}

fn load_top<'a, K: AsRef<str>>(
    settings: &mut Settings,
    source: Source,
    dir: PathBuf,
    top: impl Iterator<Item = (K, TopRef<'a>)>,
    trust: Trust,
) {
    let claude_mode = source.claude_mode;
    let kind = source.kind;
    // A project file (also a relative or in-project --settings path) may
    // not opt out of the SSRF guard (SPEC §8, §9.1).
    let may_opt_out = kind.may_opt_out_of_ssrf_guard() && !source.trust_required;
    let path = source.path.clone();
    let index = push_file(settings, source, dir, FileState::Loaded, trust);
    // Straight into the settings' list (in load order, as before).
    let hooks = &mut settings.hooks;
    let mut disable_all_hooks = None;
    let mut permissions = Permissions::default();
    let mut env_keep = Vec::new();
    let mut policy = Policy::default();
    let mut log = None;
    let mut http = HttpFileSettings::default();
    let mut prompt = PromptFileSettings::default();
    {
        let mut report = Reporter {
            file: &path,
            problems: &mut settings.problems,
        };
        for (key, value) in top {
            let owned;
            let value = match value {
                TopRef::Loaded(problems) => {
                    report.problems.extend(problems);
                    continue;
                }
                TopRef::Value(value) => value,
                TopRef::Owned(value) => {
                    owned = value;
                    &owned
                }
            };
            let key: &str = key.as_ref();
            match key {
                "hooks" => parse_hooks(value, index, claude_mode, hooks, &mut report),
                "disableAllHooks" => match value {
                    Value::Bool(flag) => disable_all_hooks = Some(*flag),
                    other => report.push(
                        Severity::Error,
                        key,
                        format!(
                            "expected true or false, found {}; ignored",
                            json_type_name(other)
                        ),
                    ),
                },
                // Claude Code applies these rules itself; behind any other
                // host hookrun applies their deny and ask (nobody else
                // would), so they are read, quietly: the syntax is Claude
                // Code's to judge.
                "permissions" if claude_mode => {
                    let mut quiet = Vec::new();
                    let mut scratch = Reporter {
                        file: &path,
                        problems: &mut quiet,
                    };
                    permissions = parse_permissions(value, &mut scratch);
                    report.push(
                        Severity::Note,
                        key,
                        "ignored in a Claude Code settings file behind Claude Code (Claude Code applies it itself); behind other hosts hookrun applies its deny and ask rules",
                    );
                }
                _ if claude_mode => {
                    if key == "env" {
                        report.push(
                            Severity::Note,
                            key,
                            "ignored in a Claude Code settings file (Claude Code applies it itself)",
                        );
                    }
                }
                "$schema" => {}
                _ if PROMPT_KEYS.contains(&key) => {
                    let sets_endpoint = may_opt_out;
                    let problems =
                        super::prompt::parse_key(key, value, kind, sets_endpoint, &mut prompt);
                    for (severity, at, message) in problems {
                        report.push(severity, at, message);
                    }
                }
                _ if HTTP_KEYS.contains(&key) => {
                    parse_http_key(key, value, kind, may_opt_out, &mut http, &mut report);
                }
                "permissions" => permissions = parse_permissions(value, &mut report),
                "env" => env_keep = parse_env(value, kind, &mut report),
                "log" => match value {
                    Value::String(text) if !text.trim().is_empty() => {
                        log = Some(resolve_log_path(text, &path));
                    }
                    other => report.push(
                        Severity::Error,
                        "log",
                        format!(
                            "expected a file path, found {}; ignored",
                            json_type_name(other)
                        ),
                    ),
                },
                _ if MANAGED_ONLY.contains(&key) => {
                    if kind == SourceKind::Managed {
                        parse_policy_key(key, value, &mut policy, &mut report);
                    } else {
                        report.push(
                            Severity::Warning,
                            key,
                            format!(
                                "is honoured only in managed settings; ignored in {} settings",
                                kind.as_str()
                            ),
                        );
                    }
                }

                _ => {
                    let hint = nearest_key(key)
                        .map(|k| format!(" (did you mean `{k}`?)"))
                        .unwrap_or_default();
                    report.push(
                        Severity::Warning,
                        key,
                        format!("unknown key, ignored{hint}"),
                    );
                }
            }
        }
    }
    let file = &mut settings.files[index];
    file.disable_all_hooks = disable_all_hooks;
    file.permissions = permissions;
    file.env_keep = env_keep;
    file.policy = policy;
    file.log = log;
    file.http = http;
    file.prompt = prompt;
}

/// `~/x` is under the home directory; a relative path is relative to the
/// settings file's folder.
fn resolve_log_path(text: &str, settings_file: &Path) -> PathBuf {
    if let Some(rest) = text.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            return Path::new(&home).join(rest);
        }
    }
    let path = Path::new(text);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        settings_file
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(path)
    }
}

/// A list of strings at `path`; anything else is an error naming the item.
fn string_list(value: &Value, path: &str, report: &mut Reporter<'_>) -> Vec<String> {
    let Value::Array(items) = value else {
        report.push(
            Severity::Error,
            path,
            format!(
                "expected a list of strings, found {}; ignored",
                json_type_name(value)
            ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(text) => out.push(text.clone()),
            other => report.push(
                Severity::Error,
                format!("{path}[{i}]"),
                format!(
                    "expected a string, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        }
    }
    out
}

/// `permissions: {allow, ask, deny}` (SPEC §9.3).
fn parse_permissions(value: &Value, report: &mut Reporter<'_>) -> Permissions {
    let mut permissions = Permissions::default();
    let Value::Object(object) = value else {
        report.push(
            Severity::Error,
            "permissions",
            format!(
                "expected an object with allow, ask and deny lists, found {}; ignored",
                json_type_name(value)
            ),
        );
        return permissions;
    };
    for (key, list) in object {
        let path = format!("permissions.{key}");
        let target = match key.as_str() {
            "allow" => &mut permissions.allow,
            "ask" => &mut permissions.ask,
            "deny" => &mut permissions.deny,
            _ => {
                report.push(
                    Severity::Warning,
                    path,
                    "unknown key (expected allow, ask or deny), ignored",
                );
                continue;
            }
        };
        let Value::Array(items) = list else {
            report.push(
                Severity::Error,
                path,
                format!(
                    "expected a list of rules, found {}; ignored",
                    json_type_name(list)
                ),
            );
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(text) => target.push(RuleEntry {
                    text: text.clone(),
                    json_path: format!("{path}[{i}]"),
                }),
                other => report.push(
                    Severity::Error,
                    format!("{path}[{i}]"),
                    format!(
                        "expected a rule string such as \"Bash(git push *)\", found {}; ignored",
                        json_type_name(other)
                    ),
                ),
            }
        }
    }
    permissions
}

/// `env: {keep: [NAMES]}` (SPEC §9.2). A project file cannot ask for the
/// user's secrets.
fn parse_env(value: &Value, kind: SourceKind, report: &mut Reporter<'_>) -> Vec<String> {
    let Value::Object(object) = value else {
        report.push(
            Severity::Error,
            "env",
            format!(
                "expected an object such as {{\"keep\": [\"GITHUB_TOKEN\"]}}, found {}; ignored",
                json_type_name(value)
            ),
        );
        return Vec::new();
    };
    let mut keep = Vec::new();
    for (key, item) in object {
        if key == "keep" {
            keep = string_list(item, "env.keep", report);
        } else {
            report.push(
                Severity::Warning,
                format!("env.{key}"),
                "unknown key (expected keep), ignored",
            );
        }
    }
    if !keep.is_empty() && kind.is_project_scoped() {
        report.push(
            Severity::Warning,
            "env.keep",
            "is ignored in project settings: a project cannot ask for your secrets (put it in your user settings)",
        );
        return Vec::new();
    }
    keep
}

fn parse_policy_key(key: &str, value: &Value, policy: &mut Policy, report: &mut Reporter<'_>) {
    match key {
        "allowManagedHooksOnly" => match value {
            Value::Bool(flag) => policy.allow_managed_hooks_only = *flag,
            other => report.push(
                Severity::Error,
                key,
                format!(
                    "expected true or false, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        },
        "allowedHookSources" => {
            let mut kinds = Vec::new();
            for (i, name) in string_list(value, key, report).into_iter().enumerate() {
                match SourceKind::parse(&name) {
                    Some(kind) => kinds.push(kind),
                    None => report.push(
                        Severity::Error,
                        format!("{key}[{i}]"),
                        format!("unknown source {name:?} (expected user, project, local, cli or managed); ignored"),
                    ),
                }
            }
            policy.allowed_hook_sources = Some(kinds);
        }
        "blockedCommands" => policy.blocked_commands = string_list(value, key, report),
        "maxHookTimeout" => match value.as_f64() {
            Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
                policy.max_hook_timeout = Some(Duration::from_secs_f64(seconds.min(1e9)));
            }
            _ => report.push(
                Severity::Error,
                key,
                format!("expected a positive number of seconds, found {value}; ignored"),
            ),
        },
        _ => {}
    }
}

/// One of the http keys. Who may set what (SPEC §8, §9.1, §9.4): the URL
/// allow-list from any level; the SSRF opt-outs from user, managed and
/// `--settings` files only; `httpHookAllowedEnvVars` from managed settings
/// only. A key set where it is not honoured is a warning and is not stored.
/// A malformed allow-list fails closed (it allows nothing) instead of
/// silently allowing everything.
fn parse_http_key(
    key: &str,
    value: &Value,
    kind: SourceKind,
    may_opt_out: bool,
    http: &mut HttpFileSettings,
    report: &mut Reporter<'_>,
) {
    match key {
        "allowedHttpHookUrls" => {
            http.allowed_urls = Some(strings(indexed_strings(key, value, "URL patterns", report)));
        }
        "allowPrivateNetworkHooks" | "allowedHookNetworks" if !may_opt_out => {
            report.push(
                Severity::Warning,
                key,
                format!(
                    "is honoured only in user, managed or --settings files, not in {kind} settings here; ignored (the SSRF guard stays on)"
                ),
            );
        }
        "allowPrivateNetworkHooks" => match value {
            Value::Bool(flag) => http.allow_private_network = Some(*flag),
            other => report.push(
                Severity::Error,
                key,
                format!(
                    "expected true or false, found {}; ignored (the SSRF guard stays on)",
                    json_type_name(other)
                ),
            ),
        },
        "allowedHookNetworks" => {
            let mut networks = Vec::new();
            for (i, text) in indexed_strings(key, value, "CIDR networks", report) {
                match parse_network(&text) {
                    Some(net) => networks.push(net),
                    None => report.push(
                        Severity::Error,
                        format!("{key}[{i}]"),
                        format!(
                            "{text:?} is not a network (write it as 10.1.0.0/16 or fd00::/64); ignored"
                        ),
                    ),
                }
            }
            http.allowed_networks = Some(networks);
        }
        "httpHookAllowedEnvVars" if kind != SourceKind::Managed => report.push(
            Severity::Warning,
            key,
            format!("is honoured only in managed settings, not in {kind} settings; ignored"),
        ),
        "httpHookAllowedEnvVars" => {
            http.allowed_env_vars = Some(strings(indexed_strings(
                key,
                value,
                "variable names",
                report,
            )));
        }
        _ => {}
    }
}

/// A list of strings with their indices; a value that is not a list is an
/// error and counts as the empty list, an item that is not a string is an
/// error and is dropped.
fn indexed_strings(
    key: &str,
    value: &Value,
    what: &str,
    report: &mut Reporter<'_>,
) -> Vec<(usize, String)> {
    let Value::Array(items) = value else {
        report.push(
            Severity::Error,
            key,
            format!(
                "expected a list of {what}, found {}; treated as an empty list",
                json_type_name(value)
            ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(text) => out.push((i, text.clone())),
            other => report.push(
                Severity::Error,
                format!("{key}[{i}]"),
                format!(
                    "expected a string, found {}; ignored",
                    json_type_name(other)
                ),
            ),
        }
    }
    out
}

fn strings(indexed: Vec<(usize, String)>) -> Vec<String> {
    indexed.into_iter().map(|(_, text)| text).collect()
}

/// `10.1.0.0/16`, `fd00::/64`, or a bare address (one host).
fn parse_network(text: &str) -> Option<ipnet::IpNet> {
    let text = text.trim();
    text.parse::<ipnet::IpNet>().ok().or_else(|| {
        text.parse::<std::net::IpAddr>()
            .ok()
            .map(ipnet::IpNet::from)
    })
}

/// The filter field (`matcher` or `if`) an unknown key is a near miss of.
///
/// Misspelling a filter does not fail: the key is ignored and the hook runs
/// unfiltered, so a guard meant for `Bash` blocks every tool. Near misses
/// are errors, not the plain "unknown field" warning. `if` is short, so only
/// its case and doubling variants count (`If`, `iff`, `IF`), not every
/// one-letter neighbour (`id` is a fine bookkeeping key).
fn filter_typo(key: &str) -> Option<&'static str> {
    let folded = catalog::fold_name(key.trim());
    if key != "if" && matches!(folded.as_str(), "if" | "iff" | "ifs") {
        return Some("if");
    }
    if key != "matcher"
        && (5..=9).contains(&folded.len())
        && catalog::edit_distance(&folded, "matcher") <= 2
    {
        return Some("matcher");
    }
    None
}

fn unfiltered_message(key: &str, field: &str, who: &str, event: &EventId) -> String {
    format!(
        "unknown field `{key}`, probably a misspelt `{field}`: it is ignored, so {who} unfiltered, on every {}",
        event.name()
    )
}

fn nearest_key(key: &str) -> Option<&'static str> {
    let folded = catalog::fold_name(key);
    TOP_LEVEL_KEYS
        .iter()
        .map(|known| {
            (
                catalog::edit_distance(&catalog::fold_name(known), &folded),
                *known,
            )
        })
        .filter(|(distance, _)| *distance <= 2)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, known)| known)
}

fn parse_hooks(
    value: &Value,
    file: usize,
    claude_mode: bool,
    out: &mut Vec<HookDef>,
    report: &mut Reporter<'_>,
) {
    let Value::Object(events) = value else {
        report.push(
            Severity::Error,
            "hooks",
            format!(
                "expected an object mapping event names to lists of hooks, found {}; no hooks loaded from this file",
                json_type_name(value)
            ),
        );
        return;
    };
    for (event_key, entries) in events {
        let base = event_path(event_key);
        let event = EventId::resolve(event_key);
        if let EventId::Unknown(_) = event {
            unknown_event(event_key, &base, report);
        }
        let Value::Array(entries) = entries else {
            report.push(
                Severity::Error,
                base,
                format!(
                    "expected a list of hooks, found {}; skipped",
                    json_type_name(entries)
                ),
            );
            continue;
        };
        let key: std::sync::Arc<str> = event_key.as_str().into();
        for (i, entry) in entries.iter().enumerate() {
            let entry_path = format!("{base}[{i}]");
            let ctx = EntryContext {
                file,
                event_key: &key,
                event: &event,
                claude_mode,
            };
            parse_entry(entry, &entry_path, &ctx, out, report);
        }
    }
}

fn unknown_event(event_key: &str, base: &str, report: &mut Reporter<'_>) {
    // A host's own name for an event (Gemini's `BeforeTool`) means that
    // event, whatever name it happens to be spelt closest to.
    let alias = crate::host::HOSTS.iter().find_map(|h| {
        crate::host::mapping::event_row(h.events(), event_key)
            .filter(|row| row.claude != event_key)
            .map(|row| (h.id().display(), row.claude))
    });
    let hint = if let Some((host, meant)) = alias {
        format!(" (it is {host}'s name for `{meant}`; did you mean `{meant}`?)")
    } else {
        catalog::nearest(event_key).map_or_else(
            || " (hookrun passes unknown events through; is this a custom event?)".to_owned(),
            |near| format!(" (did you mean `{near}`?)"),
        )
    };
    report.push(
        Severity::Warning,
        base,
        format!("`{event_key}` is not a known event{hint}"),
    );
}

/// `hooks.PreToolUse`, or `hooks["odd key"]` when the key is not a word.
fn event_path(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        format!("hooks.{key}")
    } else {
        format!("hooks[{}]", Value::String(key.to_owned()))
    }
}

struct EntryContext<'a> {
    file: usize,
    /// Shared by every hook of the event (one allocation per event).
    event_key: &'a std::sync::Arc<str>,
    event: &'a EventId,
    claude_mode: bool,
}

fn parse_entry(
    entry: &Value,
    path: &str,
    ctx: &EntryContext<'_>,
    out: &mut Vec<HookDef>,
    report: &mut Reporter<'_>,
) {
    let Value::Object(object) = entry else {
        report.push(
            Severity::Error,
            path,
            format!(
                "expected a hook object, found {}; skipped",
                json_type_name(entry)
            ),
        );
        return;
    };
    let Some(inner) = object.get("hooks") else {
        if let Some(hook) = parse_hook(entry, path, MatcherFrom::Own, ctx, report) {
            out.push(hook);
        }
        return;
    };
    // The Claude Code nested shape: {"matcher": M, "hooks": [ ... ]}.
    let hook_fields: Vec<&String> = object
        .keys()
        .filter(|k| *k != "hooks" && *k != "matcher")
        .collect();
    if hook_fields
        .iter()
        .any(|k| matches!(k.as_str(), "command" | "type" | "url" | "args" | "prompt"))
    {
        report.push(
            Severity::Error,
            path,
            "mixes the nested shape (`hooks`) with hook fields (`command`, `type`…); put them inside `hooks` or drop `hooks`; skipped",
        );
        return;
    }
    for key in hook_fields {
        if filter_typo(key) == Some("matcher") {
            report.push(
                Severity::Error,
                format!("{path}.{key}"),
                unfiltered_message(key, "matcher", "the hooks of this group run", ctx.event),
            );
            continue;
        }
        report.push(
            Severity::Warning,
            format!("{path}.{key}"),
            "unknown key in a matcher group (a group has `matcher` and `hooks`), ignored",
        );
    }
    let matcher = match object.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.clone()),
        Some(other) => {
            report.push(
                Severity::Error,
                format!("{path}.matcher"),
                format!(
                    "expected a string, found {}; the group is skipped",
                    json_type_name(other)
                ),
            );
            return;
        }
    };
    let Value::Array(list) = inner else {
        report.push(
            Severity::Error,
            format!("{path}.hooks"),
            format!(
                "expected a list of hooks, found {}; the group is skipped",
                json_type_name(inner)
            ),
        );
        return;
    };
    if list.is_empty() {
        report.push(
            Severity::Warning,
            format!("{path}.hooks"),
            "is empty: this group runs nothing",
        );
    }
    for (j, hook) in list.iter().enumerate() {
        let hook_path = format!("{path}.hooks[{j}]");
        if !hook.is_object() {
            report.push(
                Severity::Error,
                &hook_path,
                format!(
                    "expected a hook object, found {}; skipped",
                    json_type_name(hook)
                ),
            );
            continue;
        }
        if let Some(def) = parse_hook(
            hook,
            &hook_path,
            MatcherFrom::Group(matcher.clone()),
            ctx,
            report,
        ) {
            out.push(def);
        }
    }
}

/// Where a hook's matcher comes from.
enum MatcherFrom {
    /// Flat shape: the hook's own `matcher` field.
    Own,
    /// Nested shape: the group's matcher (an inner `matcher` is not a field).
    Group(Option<String>),
}

/// Parses one hook object.
fn parse_hook(
    value: &Value,
    path: &str,
    matcher_from: MatcherFrom,
    ctx: &EntryContext<'_>,
    report: &mut Reporter<'_>,
) -> Option<HookDef> {
    let mut unknown = Vec::new();
    let mut track = |ignored: serde_ignored::Path<'_>| unknown.push(ignored.to_string());
    let deserializer = serde_ignored::Deserializer::new(value, &mut track);
    let raw: Result<RawHook, _> = serde_path_to_error::deserialize(deserializer);
    let raw = match raw {
        Ok(raw) => raw,
        Err(err) => {
            let field = err.path().to_string();
            let at = if field == "." {
                path.to_owned()
            } else {
                format!("{path}.{field}")
            };
            report.push(
                Severity::Error,
                at,
                format!("{}; this hook is skipped", err.inner()),
            );
            return None;
        }
    };
    for key in unknown {
        let own_matcher = matches!(matcher_from, MatcherFrom::Own);
        match filter_typo(&key) {
            Some(field) if field == "if" || own_matcher => report.push(
                Severity::Error,
                format!("{path}.{key}"),
                unfiltered_message(&key, field, "this hook runs", ctx.event),
            ),
            _ => report.push(
                Severity::Warning,
                format!("{path}.{key}"),
                "unknown field, ignored",
            ),
        }
    }
    finish_hook(raw, JsonPath::from(path), matcher_from, ctx, report)
}

/// The checks and defaults of one hook parsed without structural problems
/// (shared by the precise path and the fast one).
fn finish_hook(
    raw: RawHook,
    json_path: JsonPath,
    matcher_from: MatcherFrom,
    ctx: &EntryContext<'_>,
    report: &mut Reporter<'_>,
) -> Option<HookDef> {
    // Written out only if a problem is reported.
    let path = &json_path;
    let hook_type = match raw.hook_type.as_deref() {
        None | Some("command") => HookType::Command,
        Some("http") => HookType::Http,
        Some("prompt") => HookType::Prompt,
        Some("agent") => HookType::Agent,
        Some("mcp_tool") => HookType::McpTool,
        Some(other) => HookType::Unsupported(other.to_owned()),
    };
    match hook_type {
        HookType::Command => match raw.command.as_deref() {
            // `trim().is_empty()`, without trimming both ends first.
            Some(command) if !command.chars().all(char::is_whitespace) => {}
            Some(_) => {
                report.push(
                    Severity::Error,
                    format!("{path}.command"),
                    "is empty; this hook is skipped",
                );
                return None;
            }
            None => {
                report.push(
                    Severity::Error,
                    path,
                    "a command hook needs `command`; this hook is skipped",
                );
                return None;
            }
        },
        HookType::Http => {
            if raw.url.as_deref().is_none_or(|u| u.trim().is_empty()) {
                report.push(
                    Severity::Error,
                    path,
                    "an http hook needs `url`; this hook is skipped",
                );
                return None;
            }
        }
        HookType::Prompt => {
            if raw.prompt.as_deref().is_none_or(|p| p.trim().is_empty()) {
                report.push(
                    Severity::Error,
                    path,
                    "a prompt hook needs `prompt` (what the model is asked); this hook is skipped",
                );
                return None;
            }
            if let Some(why) = super::prompt::refusal(ctx.event) {
                report.push(
                    Severity::Warning,
                    path,
                    format!("{why}; this hook never runs"),
                );
                return None;
            }
        }
        HookType::Agent => {
            if raw.prompt.as_deref().is_none_or(|p| p.trim().is_empty()) {
                report.push(
                    Severity::Error,
                    path,
                    "an agent hook needs `prompt` (what the model is asked); this hook is skipped",
                );
                return None;
            }
            if let Some(why) = super::prompt::agent_refusal(ctx.event) {
                report.push(
                    Severity::Warning,
                    path,
                    format!("{why}; this hook never runs"),
                );
                return None;
            }
            if raw.continue_on_block.is_some() {
                report.push(
                    Severity::Warning,
                    format!("{path}.continueOnBlock"),
                    "is not used by agent hooks (their `ok: false` never ends the turn), ignored",
                );
            }
        }
        HookType::McpTool => {
            for (field, value) in [("server", &raw.server), ("tool", &raw.tool)] {
                if value.as_deref().is_none_or(|v| v.trim().is_empty()) {
                    report.push(
                        Severity::Error,
                        path,
                        format!("an mcp_tool hook needs `{field}`; this hook is skipped"),
                    );
                    return None;
                }
            }
        }
        HookType::Unsupported(_) => {}
    }
    // Checked field by field only when one is set: most hooks set none.
    if hook_type != HookType::McpTool
        && (raw.server.is_some() || raw.tool.is_some() || raw.input.is_some())
    {
        for (field, set) in [
            ("server", raw.server.is_some()),
            ("tool", raw.tool.is_some()),
            ("input", raw.input.is_some()),
        ] {
            if set {
                report.push(
                    Severity::Warning,
                    format!("{path}.{field}"),
                    "is only used by mcp_tool hooks, ignored",
                );
            }
        }
    }
    if matches!(hook_type, HookType::Command | HookType::Http) {
        for (field, set) in [
            ("prompt", raw.prompt.is_some()),
            ("model", raw.model.is_some()),
            ("continueOnBlock", raw.continue_on_block.is_some()),
        ] {
            if set {
                report.push(
                    Severity::Warning,
                    format!("{path}.{field}"),
                    "is only used by prompt hooks, ignored",
                );
            }
        }
    }
    if raw.args.is_some() && hook_type != HookType::Command {
        report.push(
            Severity::Warning,
            format!("{path}.args"),
            "is only used by command hooks, ignored",
        );
    }
    if raw.shell.is_some() && raw.args.is_some() {
        report.push(
            Severity::Warning,
            format!("{path}.shell"),
            "is ignored in exec form (`args` runs the program without a shell)",
        );
    }
    let shell = match raw.shell.as_deref() {
        None | Some("sh") => ShellKind::Sh,
        Some("bash") => ShellKind::Bash,
        Some("powershell") => ShellKind::PowerShell,
        Some(other) => ShellKind::Unsupported(other.to_owned()),
    };
    let matcher = match matcher_from {
        MatcherFrom::Group(group) => {
            if raw.matcher.is_some() {
                report.push(
                    Severity::Warning,
                    format!("{path}.matcher"),
                    "is ignored inside a matcher group: the group's `matcher` applies (as in Claude Code)",
                );
            }
            group
        }
        MatcherFrom::Own => raw.matcher,
    };
    let once = raw.once.unwrap_or(false);
    let once = if once && ctx.claude_mode {
        report.push(
            Severity::Note,
            format!("{path}.once"),
            "ignored in a Claude Code settings file, as Claude Code ignores it there",
        );
        false
    } else {
        once
    };
    let async_rewake = raw.async_rewake.unwrap_or(false);
    if async_rewake && !raw.run_async.unwrap_or(false) {
        // A note on every fire (it runs as Claude Code runs it); `doctor`
        // grades it a warning (`async-rewake-foreground`).
        report.push(
            Severity::Note,
            format!("{path}.asyncRewake"),
            "without \"async\": true, the hook runs in the foreground and its exit 2 blocks the call, as Claude Code runs it",
        );
    }
    Some(HookDef {
        file: ctx.file,
        json_path,
        event_key: std::sync::Arc::clone(ctx.event_key),
        event: ctx.event.clone(),
        command: raw.command,
        args: raw.args,
        shell,
        matcher,
        if_rule: raw.if_rule,
        timeout: raw.timeout.map(|s| s.0),
        name: raw.name,
        sequential: raw.sequential.unwrap_or(false),
        on_error: match raw.on_error {
            Some(RawOnError::Block) => OnError::Block,
            Some(RawOnError::Allow) | None => OnError::Allow,
        },
        run_async: raw.run_async.unwrap_or(false),
        once,
        // Most hooks set none of these: nothing is built, nothing dropped.
        extra: if raw.status_message.is_none()
            && raw.url.is_none()
            && raw.headers.as_ref().is_none_or(BTreeMap::is_empty)
            && raw.allowed_env_vars.as_ref().is_none_or(Vec::is_empty)
            && !async_rewake
        {
            None
        } else {
            HookExtra {
                status_message: raw.status_message,
                url: raw.url,
                headers: raw
                    .headers
                    .map(|h| h.into_iter().collect())
                    .unwrap_or_default(),
                allowed_env_vars: raw.allowed_env_vars.unwrap_or_default(),
                async_rewake,
            }
            .boxed()
        },
        prompt: matches!(hook_type, HookType::Prompt | HookType::Agent).then(|| {
            Box::new(PromptDef {
                text: raw.prompt.unwrap_or_default(),
                model: raw.model.filter(|m| !m.trim().is_empty()),
                continue_on_block: raw.continue_on_block.unwrap_or(false),
            })
        }),
        mcp: (hook_type == HookType::McpTool).then(|| {
            Box::new(McpToolDef {
                server: raw.server.unwrap_or_default(),
                tool: raw.tool.unwrap_or_default(),
                input: raw.input.map(|input| *input).unwrap_or_default(),
            })
        }),
        hook_type,
    })
}

/// The fast path of the loader: the file straight into typed hooks, with no
/// `Value` tree for `hooks`, no path tracking and no JSON path formatted
/// until a hook is kept. It accepts only files the precise path would load
/// without a structural problem; on anything else (`None`) the precise path
/// runs and reports. What it accepts goes through the same checks
/// ([`finish_hook`]) and the same top-level handling, so both paths give the
/// same settings and the same problems (unit tests compare them).
mod fast {
    use std::fmt;
    use std::path::Path;
    use std::sync::Arc;

    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde_json::Value;

    use super::{
        EntryContext, HOOK_FIELDS, HookDef, JsonPath, MatcherFrom, Problem, RawHook, Reporter,
        event_path, finish_hook,
    };
    use crate::catalog::EventId;

    /// A top-level value: `hooks` already loaded (what it reported, in
    /// order), everything else as a tree.
    pub(super) enum Top {
        Hooks(Vec<Problem>),
        Value(Value),
    }

    /// The file being loaded.
    pub(super) struct Context<'a> {
        /// The index it will have in `Settings::files`.
        pub(super) file: usize,
        pub(super) claude_mode: bool,
        pub(super) path: &'a Path,
    }

    /// "Not for the fast path": the message is never shown.
    fn give_up<E: de::Error>() -> E {
        E::custom("")
    }

    /// The most hooks [`parse`] reserves room for up front: past it, the
    /// list grows as usual.
    const RESERVE_MAX: usize = 1 << 14;

    /// Parses `bytes`, appending its hooks to `hooks` as it goes, each
    /// straight from its JSON object (no list of raw entries in between,
    /// no hook moved as the list grows). On `None` the caller drops what
    /// was appended and takes the precise path.
    pub(super) fn parse(
        bytes: &[u8],
        cx: &Context<'_>,
        hooks: &mut Vec<HookDef>,
    ) -> Option<Vec<(String, Top)>> {
        // UTF-8 checked once for the file, not once per string.
        let text = std::str::from_utf8(bytes).ok()?;
        // Every hook is a JSON object, so there are at most as many as
        // there are `{`: room for that many is reserved (capacity that is
        // never written costs no memory).
        hooks.reserve(count_byte(bytes, b'{').min(RESERVE_MAX));
        let mut de = serde_json::Deserializer::from_str(text);
        let top = de.deserialize_map(TopVisitor { cx, hooks }).ok()?;
        de.end().ok()?;
        Some(top)
    }

    /// How many times `byte` occurs in `bytes`, 32 bytes at a time (a
    /// shape the compiler turns into vector compares: a byte-by-byte count
    /// cost more than 4 instructions a byte, a tenth of the whole load).
    fn count_byte(bytes: &[u8], byte: u8) -> usize {
        let mut chunks = bytes.chunks_exact(32);
        let mut count = 0;
        for chunk in &mut chunks {
            let mut in_chunk = 0_u8;
            for b in chunk {
                in_chunk += u8::from(*b == byte);
            }
            count += usize::from(in_chunk);
        }
        for b in chunks.remainder() {
            count += usize::from(*b == byte);
        }
        count
    }

    #[test]
    fn bytes_are_counted_at_every_length_and_place() {
        let text: Vec<u8> = (0..200_u32)
            .map(|i| {
                if i % 7 == 0 || i % 31 == 0 {
                    b'{'
                } else {
                    b'a'
                }
            })
            .collect();
        for start in 0..40 {
            for end in start..text.len() {
                let part = &text[start..end];
                let naive = part.split(|b| *b == b'{').count() - 1;
                assert_eq!(count_byte(part, b'{'), naive, "{start}..{end}");
            }
        }
        assert_eq!(count_byte(&[b'{'; 100], b'{'), 100);
    }

    /// Would [`parse`] take `bytes` (with a scratch list)?
    #[cfg(test)]
    pub(super) fn accepts(bytes: &[u8]) -> bool {
        let cx = Context {
            file: 0,
            claude_mode: false,
            path: Path::new("/cfg/settings.json"),
        };
        parse(bytes, &cx, &mut Vec::new()).is_some()
    }

    struct TopVisitor<'a, 'c> {
        cx: &'a Context<'c>,
        hooks: &'a mut Vec<HookDef>,
    }

    impl<'de> Visitor<'de> for TopVisitor<'_, '_> {
        type Value = Vec<(String, Top)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a settings object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out: Vec<(String, Top)> = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                // A repeated key: the tree keeps the last value at the first
                // place; the precise path does that.
                if out.iter().any(|(k, _)| *k == key) {
                    return Err(give_up());
                }
                let value = if key == "hooks" {
                    let mut state = State {
                        path: self.cx.path,
                        hooks: &mut *self.hooks,
                        problems: Vec::new(),
                    };
                    map.next_value_seed(EventsSeed {
                        cx: self.cx,
                        state: &mut state,
                    })?;
                    Top::Hooks(state.problems)
                } else {
                    Top::Value(map.next_value()?)
                };
                out.push((key, value));
            }
            Ok(out)
        }
    }

    /// Where loaded hooks and their problems go.
    struct State<'a> {
        path: &'a Path,
        hooks: &'a mut Vec<HookDef>,
        problems: Vec<Problem>,
    }

    impl State<'_> {
        fn reporter(&mut self) -> Reporter<'_> {
            Reporter {
                file: self.path,
                problems: &mut self.problems,
            }
        }
    }

    /// `hooks`: event key → entries.
    struct EventsSeed<'a, 'c, 's> {
        cx: &'a Context<'c>,
        state: &'a mut State<'s>,
    }

    impl<'de> DeserializeSeed<'de> for EventsSeed<'_, '_, '_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for EventsSeed<'_, '_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of events")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen: Vec<String> = Vec::new();
            while let Some(event_key) = map.next_key::<String>()? {
                if seen.contains(&event_key) {
                    return Err(give_up());
                }
                // As [`super::parse_hooks`]: the event's warning, then its
                // entries' problems.
                let event = EventId::resolve(&event_key);
                let base: Arc<str> = event_path(&event_key).into();
                if let EventId::Unknown(_) = event {
                    super::unknown_event(&event_key, &base, &mut self.state.reporter());
                }
                let key: Arc<str> = event_key.as_str().into();
                let ctx = EntryContext {
                    file: self.cx.file,
                    event_key: &key,
                    event: &event,
                    claude_mode: self.cx.claude_mode,
                };
                map.next_value_seed(ListSeed {
                    state: &mut *self.state,
                    ctx: &ctx,
                    base: &base,
                    group: None,
                })?;
                seen.push(event_key);
            }
            Ok(())
        }
    }

    /// A list of entries: an event's (`group: None`), or the hooks of the
    /// matcher group at that index of its event's list.
    struct ListSeed<'a, 'c, 's> {
        state: &'a mut State<'s>,
        ctx: &'a EntryContext<'c>,
        base: &'a Arc<str>,
        group: Option<usize>,
    }

    impl<'de> DeserializeSeed<'de> for ListSeed<'_, '_, '_> {
        /// How many entries the list has.
        type Value = usize;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
            d.deserialize_seq(self)
        }
    }

    impl<'de> Visitor<'de> for ListSeed<'_, '_, '_> {
        type Value = usize;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of hooks")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
            let mut count = 0;
            loop {
                let at = match self.group {
                    None => (count, None),
                    Some(entry) => (entry, Some(count)),
                };
                let seed = EntrySeed {
                    state: &mut *self.state,
                    ctx: self.ctx,
                    base: self.base,
                    at,
                };
                if seq.next_element_seed(seed)?.is_none() {
                    return Ok(count);
                }
                count += 1;
            }
        }
    }

    /// One entry: a flat hook, or (`at.1` is `None`) a matcher group. A
    /// group's hooks are loaded as its list is read, and get the group's
    /// `matcher` when the group's object ends (it may come after `hooks`).
    struct EntrySeed<'a, 'c, 's> {
        state: &'a mut State<'s>,
        ctx: &'a EntryContext<'c>,
        base: &'a Arc<str>,
        /// The entry's index, and the index inside its group.
        at: (usize, Option<usize>),
    }

    impl<'de> DeserializeSeed<'de> for EntrySeed<'_, '_, '_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for EntrySeed<'_, '_, '_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a hook object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let (entry, inner) = self.at;
            let mut hook = RawHook::default();
            // The group's hooks are those after `first` once its list is read.
            let first = self.state.hooks.len();
            let mut group = None;
            let mut seen = 0u32;
            while let Some(bit) = map.next_key_seed(FieldSeed)? {
                let bit = match bit {
                    Some(GROUP_FIELD) if inner.is_some() => return Err(give_up()),
                    Some(bit) => bit,
                    // An unknown field (or a near miss of a filter key).
                    None => return Err(give_up()),
                };
                if seen & (1 << bit) != 0 {
                    return Err(give_up());
                }
                seen |= 1 << bit;
                match bit {
                    0 => hook.hook_type = map.next_value()?,
                    1 => hook.command = map.next_value()?,
                    2 => hook.args = map.next_value()?,
                    3 => hook.shell = map.next_value()?,
                    4 => hook.matcher = map.next_value()?,
                    5 => hook.if_rule = map.next_value()?,
                    6 => hook.timeout = map.next_value()?,
                    7 => hook.name = map.next_value()?,
                    8 => hook.sequential = map.next_value()?,
                    9 => hook.on_error = map.next_value()?,
                    10 => hook.run_async = map.next_value()?,
                    11 => hook.once = map.next_value()?,
                    12 => hook.status_message = map.next_value()?,
                    13 => hook.url = map.next_value()?,
                    14 => hook.headers = map.next_value()?,
                    15 => hook.allowed_env_vars = map.next_value()?,
                    16 => hook.prompt = map.next_value()?,
                    17 => hook.model = map.next_value()?,
                    18 => hook.continue_on_block = map.next_value()?,
                    19 => hook.async_rewake = map.next_value()?,
                    20 => hook.server = map.next_value()?,
                    21 => hook.tool = map.next_value()?,
                    22 => hook.input = map.next_value()?,
                    _ => {
                        group = Some(map.next_value_seed(ListSeed {
                            state: &mut *self.state,
                            ctx: self.ctx,
                            base: self.base,
                            group: Some(entry),
                        })?);
                    }
                }
            }
            let Some(count) = group else {
                // A flat hook, or one inside a group.
                let path = JsonPath::indexed(Arc::clone(self.base), entry, inner);
                let matcher_from = match inner {
                    None => MatcherFrom::Own,
                    // Set when the group's object ends.
                    Some(_) => MatcherFrom::Group(None),
                };
                let def = finish_hook(
                    hook,
                    path,
                    matcher_from,
                    self.ctx,
                    &mut self.state.reporter(),
                );
                self.state.hooks.extend(def);
                return Ok(());
            };
            // A group holds `matcher` and `hooks` only, and runs something.
            if count == 0 || seen & !(1 << 4 | 1 << GROUP_FIELD) != 0 {
                return Err(give_up());
            }
            for def in &mut self.state.hooks[first..] {
                def.matcher.clone_from(&hook.matcher);
            }
            Ok(())
        }
    }

    /// The number [`FieldSeed`] gives `hooks` (a matcher group's list);
    /// a [`HOOK_FIELDS`] field is its index there.
    pub(super) const GROUP_FIELD: u32 = 23;

    struct FieldSeed;

    impl<'de> DeserializeSeed<'de> for FieldSeed {
        type Value = Option<u32>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<u32>, D::Error> {
            d.deserialize_identifier(self)
        }
    }

    impl Visitor<'_> for FieldSeed {
        type Value = Option<u32>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a field name")
        }
        fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<u32>, E> {
            Ok(if key == "hooks" {
                Some(GROUP_FIELD)
            } else {
                HOOK_FIELDS
                    .iter()
                    .position(|field| *field == key)
                    .and_then(|i| u32::try_from(i).ok())
            })
        }
    }

    #[test]
    fn indexed_paths_are_formatted_paths() {
        for i in [0, 1, 9, 10, 99, 123_456, usize::MAX] {
            let event: std::sync::Arc<str> = "hooks.Stop".into();
            assert_eq!(
                JsonPath::indexed(event.clone(), i, None).as_str(),
                format!("hooks.Stop[{i}]")
            );
            assert_eq!(
                JsonPath::indexed(event, 3, Some(i)).as_str(),
                format!("hooks.Stop[3].hooks[{i}]")
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::model::SourceKind;

    fn load(json: &str) -> Settings {
        load_as(json, false)
    }

    fn load_as(json: &str, claude_mode: bool) -> Settings {
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

    fn messages(settings: &Settings) -> Vec<String> {
        settings.problems.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn flat_and_nested_shapes_mix_in_load_order() {
        let settings = load(
            r#"{"hooks":{"pre_tool_use":[
                {"command":"a","matcher":"Bash"},
                {"matcher":"Edit|Write","hooks":[{"type":"command","command":"b"},{"command":"c","timeout":5}]},
                {"command":"d"}
            ]}}"#,
        );
        assert!(settings.problems.is_empty(), "{:?}", messages(&settings));
        let got: Vec<_> = settings
            .hooks
            .iter()
            .map(|h| {
                (
                    h.command.clone().unwrap(),
                    h.matcher.clone(),
                    h.json_path.clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "a".into(),
                    Some("Bash".into()),
                    "hooks.pre_tool_use[0]".into()
                ),
                (
                    "b".into(),
                    Some("Edit|Write".into()),
                    "hooks.pre_tool_use[1].hooks[0]".into()
                ),
                (
                    "c".into(),
                    Some("Edit|Write".into()),
                    "hooks.pre_tool_use[1].hooks[1]".into()
                ),
                ("d".into(), None, "hooks.pre_tool_use[2]".into()),
            ]
        );
        assert_eq!(settings.hooks[2].timeout, Some(Duration::from_secs(5)));
        assert!(
            settings
                .hooks
                .iter()
                .all(|h| h.event.name() == "PreToolUse")
        );
    }

    #[test]
    fn a_bad_entry_is_skipped_alone_with_its_path() {
        let settings = load(
            r#"{"hooks":{"PreToolUse":[
                {"matcher":"Bash","hooks":[{"command":"ok1"},{"command":"bad","timeout":"10"}]},
                {"command":"ok2"}
            ]}}"#,
        );
        let commands: Vec<_> = settings
            .hooks
            .iter()
            .map(|h| h.command.clone().unwrap())
            .collect();
        assert_eq!(commands, ["ok1", "ok2"]);
        let problems = messages(&settings);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("/cfg/settings.json: hooks.PreToolUse[0].hooks[1].timeout: invalid type: string \"10\", expected a positive number of seconds"),
            "{}",
            problems[0]
        );
        assert_eq!(settings.problems[0].severity, Severity::Error);
    }

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

    #[test]
    fn misspelt_filter_keys_are_errors_that_say_the_hook_runs_unfiltered() {
        let settings = load(
            r#"{"hooks":{"PreToolUse":[
                {"matchr":"Bash","command":"x"},
                {"matcher":"Bash","iff":"Bash(git push *)","command":"y"},
                {"matches":"Read","hooks":[{"command":"z"}]},
                {"id":"mine","command":"w"}
            ]}}"#,
        );
        assert_eq!(settings.hooks.len(), 4, "the hooks still load");
        let errors: Vec<String> = settings
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].contains("hooks.PreToolUse[0].matchr: unknown field `matchr`, probably a misspelt `matcher`: it is ignored, so this hook runs unfiltered, on every PreToolUse"), "{errors:?}");
        assert!(
            errors[1].contains("[1].iff") && errors[1].contains("misspelt `if`"),
            "{errors:?}"
        );
        assert!(
            errors[2].contains("[2].matches")
                && errors[2].contains("the hooks of this group run unfiltered"),
            "{errors:?}"
        );
        // `id` is one letter from `if`, but a plain unknown field.
        assert!(
            messages(&settings)
                .iter()
                .any(|p| p.contains("[3].id: unknown field, ignored"))
        );
    }

    #[test]
    fn shape_errors_name_the_path() {
        let settings = load(
            r#"{"hooks":{"Stop":{"command":"x"},"PreToolUse":["echo",{"matcher":3,"hooks":[]},{"hooks":"x"},{"type":"http"},{"command":""},{"command":"ok","onError":"explode"}]}}"#,
        );
        assert!(settings.hooks.is_empty());
        let problems = messages(&settings);
        for expected in [
            "hooks.Stop: expected a list of hooks, found an object",
            "hooks.PreToolUse[0]: expected a hook object, found a string",
            "hooks.PreToolUse[1].matcher: expected a string, found a number",
            "hooks.PreToolUse[2].hooks: expected a list of hooks, found a string",
            "hooks.PreToolUse[3]: an http hook needs `url`",
            "hooks.PreToolUse[4].command: is empty",
            "hooks.PreToolUse[5].onError: unknown variant `explode`",
        ] {
            assert!(
                problems.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {problems:#?}"
            );
        }
    }

    #[test]
    fn prompt_hooks_load_where_they_can_run() {
        let settings = load(
            r#"{"hooks":{"Stop":[{"type":"prompt","prompt":"done?","model":"m","continueOnBlock":true}],
                "SessionStart":[{"hooks":[{"type":"prompt","prompt":"x"}]}],
                "PreToolUse":[{"type":"prompt"},{"command":"x","model":"m"}]}}"#,
        );
        let messages = messages(&settings);
        assert_eq!(settings.hooks.len(), 2, "{messages:#?}");
        let prompt = settings.hooks[0].prompt.as_ref().unwrap();
        assert_eq!(settings.hooks[0].hook_type, HookType::Prompt);
        assert_eq!(
            (
                prompt.text.as_str(),
                prompt.model.as_deref(),
                prompt.continue_on_block
            ),
            ("done?", Some("m"), true)
        );
        assert_eq!(settings.hooks[1].prompt, None);
        for expected in [
            "hooks.SessionStart[0].hooks[0]: prompt hooks are not supported on SessionStart (no conversation to judge)",
            "hooks.PreToolUse[0]: a prompt hook needs `prompt`",
            "hooks.PreToolUse[1].model: is only used by prompt hooks, ignored",
        ] {
            assert!(
                messages.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {messages:#?}"
            );
        }
    }

    #[test]
    fn agent_hooks_load_where_they_can_run() {
        let settings = load(
            r#"{"hooks":{"Stop":[{"type":"agent","prompt":"tests pass?","model":"m","continueOnBlock":true}],
                "PermissionRequest":[{"type":"agent","prompt":"x"}],
                "SessionStart":[{"type":"agent","prompt":"x"}],
                "PreToolUse":[{"type":"agent"}]}}"#,
        );
        let messages = messages(&settings);
        assert_eq!(settings.hooks.len(), 1, "{messages:#?}");
        assert_eq!(settings.hooks[0].hook_type, HookType::Agent);
        let prompt = settings.hooks[0].prompt.as_ref().unwrap();
        assert_eq!(
            (prompt.text.as_str(), prompt.model.as_deref()),
            ("tests pass?", Some("m"))
        );
        for expected in [
            "hooks.Stop[0].continueOnBlock: is not used by agent hooks",
            "hooks.PermissionRequest[0]: agent hooks are not supported on PermissionRequest",
            "hooks.SessionStart[0]: agent hooks are not supported on SessionStart",
            "hooks.PreToolUse[0]: an agent hook needs `prompt`",
        ] {
            assert!(
                messages.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {messages:#?}"
            );
        }
    }

    #[test]
    fn mcp_tool_hooks_load_with_their_call_and_need_a_server_and_a_tool() {
        let settings = load(
            r#"{"hooks": {"PreToolUse": [
                {"type": "mcp_tool", "server": "guard", "tool": "judge", "input": {"command": "${tool_input.command}"}},
                {"type": "mcp_tool", "server": "guard"},
                {"command": "c", "tool": "judge"}
            ]}}"#,
        );
        let mcp = settings.hooks[0].mcp.as_deref().unwrap();
        assert_eq!(settings.hooks[0].hook_type, HookType::McpTool);
        assert_eq!((mcp.server.as_str(), mcp.tool.as_str()), ("guard", "judge"));
        assert_eq!(mcp.input["command"], "${tool_input.command}");
        assert_eq!(
            settings.hooks.len(),
            2,
            "the hook without `tool` is skipped"
        );
        let problems = messages(&settings);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("hooks.PreToolUse[1]: an mcp_tool hook needs `tool`")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.contains("hooks.PreToolUse[2].tool: is only used by mcp_tool hooks")),
            "{problems:?}"
        );
    }

    #[test]
    fn unsupported_types_and_shells_still_load() {
        let settings = load(
            r#"{"hooks":{"Stop":[{"type":"webhook","prompt":"x"},{"command":"x","shell":"zsh"}]}}"#,
        );
        assert_eq!(settings.hooks.len(), 2);
        assert_eq!(
            settings.hooks[0].hook_type,
            HookType::Unsupported("webhook".into())
        );
        assert_eq!(
            settings.hooks[1].shell,
            ShellKind::Unsupported("zsh".into())
        );
    }

    #[test]
    fn claude_mode_uses_hooks_only() {
        let settings = load_as(
            r#"{"model":"x","env":{"A":"1"},"permissions":{},"hooks":{"Stop":[{"hooks":[{"command":"x","once":true}]}]}}"#,
            true,
        );
        assert_eq!(settings.hooks.len(), 1);
        assert!(!settings.hooks[0].once);
        assert!(
            settings
                .problems
                .iter()
                .all(|p| p.severity == Severity::Note)
        );
        assert_eq!(settings.problems.len(), 3, "{:?}", messages(&settings));
    }

    fn load_kind(json: &str, kind: SourceKind) -> Settings {
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

    const HTTP_SETTINGS: &str = r#"{
        "allowedHttpHookUrls": ["https://hooks.example.com/*"],
        "allowPrivateNetworkHooks": true,
        "allowedHookNetworks": ["10.1.0.0/16", "fd00::/64", "192.168.1.7"],
        "httpHookAllowedEnvVars": ["TOKEN"]
    }"#;

    #[test]
    fn http_keys_are_parsed_where_their_level_may_set_them() {
        let managed = load_kind(HTTP_SETTINGS, SourceKind::Managed);
        assert!(managed.problems.is_empty(), "{:?}", messages(&managed));
        let http = &managed.files[0].http;
        assert_eq!(
            http.allowed_urls.as_deref(),
            Some(&["https://hooks.example.com/*".to_owned()][..])
        );
        assert_eq!(http.allow_private_network, Some(true));
        let nets: Vec<String> = http
            .allowed_networks
            .iter()
            .flatten()
            .map(ToString::to_string)
            .collect();
        assert_eq!(nets, ["10.1.0.0/16", "fd00::/64", "192.168.1.7/32"]);
        assert_eq!(
            http.allowed_env_vars.as_deref(),
            Some(&["TOKEN".to_owned()][..])
        );

        for kind in [SourceKind::User, SourceKind::Cli] {
            let settings = load_kind(HTTP_SETTINGS, kind);
            let http = &settings.files[0].http;
            assert_eq!(http.allow_private_network, Some(true), "{kind}");
            assert!(http.allowed_networks.is_some(), "{kind}");
            assert_eq!(http.allowed_env_vars, None, "{kind}");
            let problems = messages(&settings);
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(
                problems[0]
                    .contains("httpHookAllowedEnvVars: is honoured only in managed settings"),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn project_settings_cannot_opt_out_of_the_ssrf_guard() {
        for kind in [SourceKind::Project, SourceKind::Local] {
            let settings = load_kind(HTTP_SETTINGS, kind);
            let http = &settings.files[0].http;
            assert_eq!(http.allow_private_network, None);
            assert_eq!(http.allowed_networks, None);
            assert_eq!(http.allowed_env_vars, None);
            // The URL allow-list is honoured from any level.
            assert!(http.allowed_urls.is_some());
            let problems = messages(&settings);
            for key in ["allowPrivateNetworkHooks", "allowedHookNetworks"] {
                assert!(
                    problems.iter().any(|p| p.contains(&format!(
                        "{key}: is honoured only in user, managed or --settings files, not in {kind} settings here; ignored (the SSRF guard stays on)"
                    ))),
                    "{problems:?}"
                );
            }
            assert!(
                settings
                    .problems
                    .iter()
                    .all(|p| p.severity == Severity::Warning)
            );
        }
    }

    #[test]
    fn malformed_http_keys_fail_closed() {
        let settings = load_kind(
            r#"{"allowedHttpHookUrls": "https://x/*", "allowPrivateNetworkHooks": "yes",
                "allowedHookNetworks": ["10.1.0.0/33", 7, "10.2.0.0/16"]}"#,
            SourceKind::User,
        );
        let http = &settings.files[0].http;
        // Not a list: nothing is allowed rather than everything.
        assert_eq!(http.allowed_urls.as_deref(), Some(&[][..]));
        assert_eq!(http.allow_private_network, None);
        assert_eq!(
            http.allowed_networks.as_deref(),
            Some(&["10.2.0.0/16".parse::<ipnet::IpNet>().unwrap()][..])
        );
        let problems = messages(&settings);
        for expected in [
            "allowedHttpHookUrls: expected a list of URL patterns, found a string; treated as an empty list",
            "allowPrivateNetworkHooks: expected true or false, found a string; ignored (the SSRF guard stays on)",
            "allowedHookNetworks[0]: \"10.1.0.0/33\" is not a network",
            "allowedHookNetworks[1]: expected a string, found a number; ignored",
        ] {
            assert!(
                problems.iter().any(|p| p.contains(expected)),
                "missing {expected:?} in {problems:#?}"
            );
        }
    }

    #[test]
    fn inner_matcher_is_ignored_with_a_warning() {
        let settings = load(
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"x","matcher":"Edit"}]}]}}"#,
        );
        assert_eq!(settings.hooks[0].matcher.as_deref(), Some("Bash"));
        assert!(
            messages(&settings)[0].contains("hooks.PreToolUse[0].hooks[0].matcher: is ignored")
        );
    }
}

#[cfg(test)]
mod fast_path_tests {
    use std::path::PathBuf;

    use super::*;

    /// Loads `bytes` as a `kind` file both ways: through `load_bytes` (the
    /// fast path when it accepts the file) and through the tree only.
    fn both(bytes: &[u8], kind: SourceKind, claude_mode: bool) -> (String, String, bool) {
        let source = Source {
            path: PathBuf::from("/cfg/settings.json"),
            kind,
            claude_mode,
            trust_required: false,
        };
        let mut fast_side = Settings::default();
        load_bytes(&mut fast_side, source.clone(), PathBuf::from("/cfg"), bytes);
        let mut tree_side = Settings::default();
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(top)) => {
                load_object(&mut tree_side, source, PathBuf::from("/cfg"), &top);
            }
            // Not an object: only the precise path can take it.
            _ => load_bytes_as(
                &mut tree_side,
                source,
                PathBuf::from("/cfg"),
                bytes,
                Trust::NotRequired,
            ),
        }
        let show = |s: &Settings| format!("{:#?}\n{:#?}\n{:#?}", s.hooks, s.problems, s.files);
        (show(&fast_side), show(&tree_side), fast::accepts(bytes))
    }

    const SAMPLES: &[&str] = &[
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "a", "timeout": 5}]}}"#,
        r#"{"$schema": "x", "hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "b", "timeout": 1.5, "matcher": "X"}]}], "Stop": [{"command": "c", "once": true, "async": true, "onError": "block", "name": "n", "sequential": true, "statusMessage": "s"}]}, "permissions": {"allow": ["Bash(ls)"], "deny": [3]}, "env": {"keep": ["A"]}, "log": "x.log"}"#,
        r#"{"hooks": {"PreToolUse": [{"type": "http", "url": "http://127.0.0.1/x", "headers": {"A": "b"}, "allowedEnvVars": ["T"], "prompt": "p", "args": ["1"]}]}}"#,
        r#"{"hooks": {"UserPromptSubmit": [{"type": "prompt", "prompt": "ok?", "model": "m", "continueOnBlock": true}], "SessionStart": [{"type": "prompt", "prompt": "ok?"}]}}"#,
        r#"{"hooks": {"Stop": [{"type": "agent", "prompt": "ok?", "model": "m", "continueOnBlock": true}, {"type": "agent"}], "PermissionRequest": [{"type": "agent", "prompt": "ok?"}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"type": "agent", "command": "x", "shell": "zsh"}, {"command": "y", "args": ["a"], "shell": "bash"}, {"command": "  "}, {"type": "http"}, {}]}}"#,
        r#"{"hooks": {"PreToolUsed": [{"command": "a"}], "my odd event": [{"command": "b"}]}, "disableAllHooks": false, "allowedHttpHookUrls": ["http://*"], "allowPrivateNetworkHooks": true, "blockedCommands": ["rm"], "unknwn": 1}"#,
        r#"{"hooks": {"PreToolUse": [{"matcher": null, "hooks": [{"command": "a", "if": "Bash(git *)"}]}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"type": "mcp_tool", "server": "s", "tool": "t", "input": {"command": "${tool_input.command}", "n": [1]}}, {"type": "mcp_tool", "tool": "t"}, {"command": "c", "server": "s", "tool": "t", "input": {}}]}}"#,
        // Fields of one type, each with its own value: the fast path numbers
        // fields by their place in HOOK_FIELDS, and a field read into
        // another of the same type shows here.
        r#"{"hooks": {"Stop": [{"command": "e", "once": true, "async": false, "sequential": false, "continueOnBlock": false}, {"command": "f", "sequential": true, "once": false, "continueOnBlock": true}, {"command": "g", "async": true}], "PreToolUse": [{"type": "http", "url": "U", "statusMessage": "S", "name": "N", "model": "M", "prompt": "P", "matcher": "X", "if": "I", "shell": "bash", "onError": "block", "timeout": 3}]}}"#,
        r#"{"hooks": {"Stop": [{"hooks": [{"command": "a"}, {"command": " "}, {"command": "b", "matcher": "x", "once": true}], "matcher": "late"}, {"command": "c"}], "odd key": [{"hooks": [{"command": "d"}]}, {"type": "prompt"}]}}"#,
        // Each of these needs the precise path.
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "a", "timeout": "5"}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"matchr": "Bash", "command": "a"}, {"command": "b", "iff": "x"}, {"command": "c", "extra": 1}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}, {"matcher": 3, "hooks": [{"command": "a"}]}, {"matcher": "B", "hooks": [{"command": "a"}], "command": "x"}, {"matcher": "B", "hooks": [{"command": "a"}], "note": "x"}, {"hooks": "x"}, {"hooks": [5, {"command": "a", "hooks": []}]}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a", "command": "b"}]}, "hooks": {}}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a"}], "PreToolUse": []}}"#,
        r#"{"hooks": {"PreToolUse": {"command": "a"}, "Stop": [7]}}"#,
        r#"{"hooks": [1]}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a", "timeout": -1}, {"command": "b", "timeout": 0}, {"command": "c", "onError": "deny"}]}}"#,
        r#"{"hooks": {"PreToolUse": [{"command": "a",}]}}"#,
        "[1]",
        r#"{"hooks": {}} x"#,
        "",
    ];

    #[test]
    fn the_fast_path_loads_what_the_tree_loads_with_the_same_problems() {
        let mut fast_taken = 0;
        for sample in SAMPLES {
            for kind in [
                SourceKind::User,
                SourceKind::Project,
                SourceKind::Managed,
                SourceKind::Cli,
            ] {
                for claude_mode in [false, true] {
                    let (fast, tree, took_fast) = both(sample.as_bytes(), kind, claude_mode);
                    assert_eq!(fast, tree, "{sample}");
                    fast_taken += usize::from(took_fast);
                }
            }
        }
        // The first eleven samples are for the fast path, the rest are not.
        assert_eq!(fast_taken, 11 * 8);
    }

    #[test]
    fn a_file_the_fast_path_gives_up_on_halfway_leaves_no_hooks_behind() {
        let files = [
            r#"{"hooks": {"Stop": [{"command": "first"}]}}"#,
            // Given up on at the last field, after two hooks were loaded.
            r#"{"hooks": {"Stop": [{"command": "a"}, {"hooks": [{"command": "b"}]}, {"command": "c", "matchr": "x"}]}}"#,
            r#"{"hooks": {"PreToolUse": [{"command": "last"}]}}"#,
        ];
        let mut fast_side = Settings::default();
        let mut tree_side = Settings::default();
        for (i, json) in files.iter().enumerate() {
            let source = Source {
                path: PathBuf::from(format!("/cfg/{i}.json")),
                kind: SourceKind::User,
                claude_mode: false,
                trust_required: false,
            };
            load_bytes(
                &mut fast_side,
                source.clone(),
                PathBuf::from("/cfg"),
                json.as_bytes(),
            );
            let Ok(Value::Object(top)) = serde_json::from_str::<Value>(json) else {
                panic!("{json}");
            };
            load_object(&mut tree_side, source, PathBuf::from("/cfg"), &top);
        }
        assert!(!fast::accepts(files[1].as_bytes()));
        let show = |s: &Settings| format!("{:#?}\n{:#?}", s.hooks, s.problems);
        assert_eq!(show(&fast_side), show(&tree_side));
        let commands: Vec<_> = fast_side
            .hooks
            .iter()
            .map(|h| (h.file, h.command.as_deref().unwrap_or_default()))
            .collect();
        assert_eq!(
            commands,
            [(0, "first"), (1, "a"), (1, "b"), (1, "c"), (2, "last")]
        );
    }

    #[test]
    fn the_fast_path_agrees_on_every_settings_fixture() {
        let mut files = Vec::new();
        let mut stack = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 20, "{files:?}");
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let (fast, tree, _) = both(&bytes, SourceKind::User, false);
            assert_eq!(fast, tree, "{}", path.display());
        }
    }

    /// Every byte of a hook is memory a fire writes for each configured
    /// hook (fresh pages: page faults): the rare fields stay out of line.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_loaded_hook_stays_small() {
        let size = std::mem::size_of::<HookDef>();
        eprintln!("HookDef: {size} bytes");
        assert!(size <= 320, "{size}");
        assert_eq!(std::mem::size_of::<JsonPath>(), 48);
    }

    #[test]
    fn the_fast_path_knows_every_hook_field() {
        let schema = schemars::schema_for!(RawHook);
        let mut fields: Vec<&str> = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        fields.sort_unstable();
        let mut fast_fields = HOOK_FIELDS.to_vec();
        fast_fields.sort_unstable();
        assert_eq!(fields, fast_fields);
    }

    #[test]
    fn the_benchmark_settings_take_the_fast_path() {
        let mut hooks = Vec::new();
        for i in 0..50 {
            hooks.push(format!(
                r#"{{"matcher": "^mcp__server{i}__.*", "if": "mcp__server{i}", "command": "echo mcp {i}"}}"#
            ));
        }
        let json = format!(r#"{{"hooks": {{"PreToolUse": [{}]}}}}"#, hooks.join(","));
        assert!(fast::accepts(json.as_bytes()));
        let (fast, tree, _) = both(json.as_bytes(), SourceKind::Cli, false);
        assert_eq!(fast, tree);
    }
}

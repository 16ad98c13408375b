//! `hookrun test`: hook-policy test cases run through the real fire path.
//!
//! Each case is an event, its input, optionally the settings, and what the
//! answer must be. Cases call `fire::fire` in-process — the same code a host
//! reaches through `hookrun fire`, hooks really run — so a passing suite
//! says what the host would get. A typo in a case (an unknown key, an
//! unknown decision word) fails the case rather than passing it silently.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::common::{self, Printed};
use crate::cli::{OutputFormat, TestArgs};
use crate::context::FireOptions;
use crate::display::display_path;
use crate::event::json_type_name;
use crate::exit::Exit;
use crate::fire::{self, FireResult};
use crate::host::{self, HostId};
use crate::input::{self, Sent};
use crate::settings::discover::is_inside_claude_folder;
use crate::settings::load::{TrustGate, load_file, load_object};
use crate::settings::{Environment, Settings, Source, SourceKind};
use crate::state::StateDir;

/// Where cases live when no PATH is given, below the project.
pub const DEFAULT_DIR: &str = ".hookrun/tests";

const CASE_KEYS: &[&str] = &["name", "host", "event", "input", "settings", "expect"];
const EXPECT_KEYS: &[&str] = &[
    "decision",
    "exit",
    "reasonContains",
    "updatedInput",
    "additionalContextContains",
];
const DECISIONS: &[&str] = &["allow", "ask", "defer", "deny", "block", "none"];

/// One case as found on disk.
struct Case {
    label: String,
    spec: Result<Spec, CaseError>,
}

/// Why a case file or case cannot be run; each names the key it is about.
#[derive(Debug, thiserror::Error)]
enum CaseError {
    #[error("cannot be read: {0}")]
    Unreadable(#[source] std::io::Error),
    #[error("is not valid JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error("{at}expected {expected}, found {found}")]
    WrongType {
        /// `key: ` (empty for the case itself).
        at: String,
        expected: &'static str,
        found: &'static str,
    },
    #[error("{at}: unknown key (known: {known})")]
    UnknownKey { at: String, known: String },
    #[error("{at}: {why}")]
    Invalid { at: String, why: String },
    #[error("{} does not exist", .0.display())]
    Missing(PathBuf),
    #[error("no event: set `event` or `input.hook_event_name`")]
    NoEvent,
    #[error("settings file {} does not exist", .0.display())]
    NoSettingsFile(PathBuf),
    #[error("input: {0}")]
    Input(#[source] crate::event::InputError),
}

impl CaseError {
    fn wrong_type(at: &str, expected: &'static str, found: &Value) -> CaseError {
        CaseError::WrongType {
            at: if at.is_empty() {
                String::new()
            } else {
                format!("{at}: ")
            },
            expected,
            found: json_type_name(found),
        }
    }

    fn invalid(at: &str, why: String) -> CaseError {
        CaseError::Invalid {
            at: at.to_owned(),
            why,
        }
    }
}

enum CaseSettings {
    /// The normal sources (and `hookrun test`'s own settings flags).
    Default,
    Files(Vec<PathBuf>),
    Inline(Map<String, Value>),
}

struct Spec {
    /// The case file, for inline settings.
    file: PathBuf,
    /// The host whose event `input` is (default: `--host`).
    host: Option<HostId>,
    event: Option<String>,
    input: Map<String, Value>,
    settings: CaseSettings,
    expect: Expect,
}

#[derive(Default)]
struct Expect {
    decision: Option<String>,
    exit: Option<u8>,
    reason_contains: Option<String>,
    /// `Some(Value::Null)`: expects no updated input.
    updated_input: Option<Value>,
    context_contains: Option<String>,
}

/// One expectation that did not hold.
struct Mismatch {
    key: &'static str,
    expected: String,
    actual: String,
}

/// What became of a case.
struct Outcome {
    label: String,
    /// The case could not be run (bad file, bad settings path, bad input).
    error: Option<String>,
    mismatches: Vec<Mismatch>,
    /// hookrun's warnings of the fire, shown with a failure.
    warnings: Vec<String>,
}

impl Outcome {
    fn passed(&self) -> bool {
        self.error.is_none() && self.mismatches.is_empty()
    }
}

pub fn run(args: &TestArgs) -> Printed {
    // Cases run real hooks: none may inherit a descriptor hookrun inherited
    // (see `InheritedFds`).
    crate::exec::InheritedFds::take_stock().close();
    let env = common::environment(&args.settings);
    let project_dir = common::project_dir(&env, Some(&env.current_dir));
    let paths = if args.paths.is_empty() {
        let dir = project_dir.join(DEFAULT_DIR);
        if !dir.is_dir() {
            return Printed::failure(&format!(
                "no test cases: {} does not exist (pass case files or folders, or create it)",
                dir.display()
            ));
        }
        vec![dir]
    } else {
        args.paths.iter().map(|p| env.absolute(p)).collect()
    };
    let cases = collect(&paths);
    if cases.is_empty() {
        let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Printed::failure(&format!("no test cases found in {}", list.join(", ")));
    }
    // A state folder of its own: `once` and async results behave as in a
    // session, without touching the user's real state.
    let state_dir = tempfile::Builder::new()
        .prefix("hookrun-test-state-")
        .tempdir()
        .ok();
    // The host, its deadline and stop-loop cap: per case (see `run_case`).
    let config = FireOptions::sandboxed(
        std::env::vars_os().collect(),
        env.home.clone(),
        state_dir.as_ref().and_then(|dir| {
            StateDir::locate(|name| {
                (name == "HOOKRUN_STATE_DIR").then(|| dir.path().display().to_string())
            })
        }),
    );
    let mut outcomes = Vec::new();
    for case in cases {
        let spec = match case.spec {
            Ok(spec) => spec,
            Err(error) => {
                outcomes.push(Outcome {
                    label: case.label,
                    error: Some(error.to_string()),
                    mismatches: Vec::new(),
                    warnings: Vec::new(),
                });
                continue;
            }
        };
        match run_case(&spec, args, &env, &project_dir, &config) {
            Ok(Ran::Interrupted(signal)) => {
                return Printed {
                    stdout: String::new(),
                    stderr: "hookrun: interrupted; running hooks were stopped\n".into(),
                    exit: Exit::Interrupted(signal),
                };
            }
            Ok(Ran::Done(result)) => outcomes.push(Outcome {
                label: case.label,
                error: None,
                mismatches: compare(&spec.expect, &result),
                warnings: result.decision.notices.warnings.clone(),
            }),
            Err(error) => outcomes.push(Outcome {
                label: case.label,
                error: Some(error.to_string()),
                mismatches: Vec::new(),
                warnings: Vec::new(),
            }),
        }
    }
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    let stdout = match args.format {
        OutputFormat::Text => text(&outcomes),
        OutputFormat::Json => {
            let mut out =
                serde_json::to_string_pretty(&to_json(&outcomes)).expect("JSON values serialise");
            out.push('\n');
            out
        }
    };
    Printed::stdout(stdout, Exit::failure_if(failed > 0))
}

/// Case files from files and folders (`*.json`, not recursive, by name).
fn collect(paths: &[PathBuf]) -> Vec<Case> {
    let mut cases = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map(|entries| {
                    entries
                        .filter_map(Result::ok)
                        .map(|e| e.path())
                        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
                        .collect()
                })
                .unwrap_or_default();
            files.sort();
            for file in files {
                cases.extend(read_cases(&file));
            }
        } else if path.exists() {
            cases.extend(read_cases(path));
        } else {
            cases.push(Case {
                label: display_path(path),
                spec: Err(CaseError::Missing(path.clone())),
            });
        }
    }
    cases
}

fn read_cases(file: &Path) -> Vec<Case> {
    let shown = display_path(file);
    let bad = |error: CaseError| {
        vec![Case {
            label: shown.clone(),
            spec: Err(error),
        }]
    };
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(err) => return bad(CaseError::Unreadable(err)),
    };
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(err) => return bad(CaseError::NotJson(err)),
    };
    match value {
        Value::Object(object) => vec![case(file, &shown, None, &object)],
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::Object(object) => case(file, &shown, Some(i), object),
                other => Case {
                    label: format!("{shown}[{i}]"),
                    spec: Err(CaseError::wrong_type("", "a case object", other)),
                },
            })
            .collect(),
        other => bad(CaseError::wrong_type(
            "",
            "a case object or a list of cases",
            &other,
        )),
    }
}

fn case(file: &Path, shown: &str, index: Option<usize>, object: &Map<String, Value>) -> Case {
    let mut label = match index {
        Some(i) => format!("{shown}[{i}]"),
        None => shown.to_owned(),
    };
    if let Some(name) = object.get("name").and_then(Value::as_str) {
        let _ = write!(label, ": {name}");
    }
    Case {
        label,
        spec: parse_spec(file, object),
    }
}

fn parse_spec(file: &Path, object: &Map<String, Value>) -> Result<Spec, CaseError> {
    unknown_keys(object, CASE_KEYS, "")?;
    if let Some(name) = object.get("name") {
        if !name.is_string() {
            return Err(CaseError::wrong_type("name", "a string", name));
        }
    }
    let host = match object.get("host") {
        None => None,
        Some(Value::String(name)) => Some(parse_host(name)?),
        Some(other) => return Err(CaseError::wrong_type("host", "a host name", other)),
    };
    let event = match object.get("event") {
        None => None,
        Some(Value::String(name)) => Some(name.clone()),
        Some(other) => {
            return Err(CaseError::wrong_type("event", "an event name", other));
        }
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    let input = match object.get("input") {
        None => Map::new(),
        Some(Value::Object(input)) => input.clone(),
        Some(Value::String(path)) => read_input(&dir.join(path))?,
        Some(other) => {
            return Err(CaseError::wrong_type(
                "input",
                "the event's JSON object or the path of a file holding it",
                other,
            ));
        }
    };
    if event.is_none() && !input.contains_key("hook_event_name") {
        return Err(CaseError::NoEvent);
    }
    let settings = match object.get("settings") {
        None => CaseSettings::Default,
        Some(Value::String(path)) => CaseSettings::Files(vec![dir.join(path)]),
        Some(Value::Array(paths)) => {
            let mut files = Vec::new();
            for (i, path) in paths.iter().enumerate() {
                let Value::String(path) = path else {
                    return Err(CaseError::wrong_type(
                        &format!("settings[{i}]"),
                        "a path",
                        path,
                    ));
                };
                files.push(dir.join(path));
            }
            CaseSettings::Files(files)
        }
        Some(Value::Object(inline)) => CaseSettings::Inline(inline.clone()),
        Some(other) => {
            return Err(CaseError::wrong_type(
                "settings",
                "a path, a list of paths or a settings object",
                other,
            ));
        }
    };
    let expect = match object.get("expect") {
        None => Expect::default(),
        Some(Value::Object(expect)) => parse_expect(expect)?,
        Some(other) => {
            return Err(CaseError::wrong_type("expect", "an object", other));
        }
    };
    Ok(Spec {
        file: file.to_path_buf(),
        host,
        event,
        input,
        settings,
        expect,
    })
}

/// A case's `host`, spelt as `--host` takes it.
fn parse_host(name: &str) -> Result<HostId, CaseError> {
    use clap::ValueEnum as _;
    HostId::from_str(name, false).map_err(|_| {
        let known: Vec<&str> = host::HOSTS.iter().map(|h| h.name()).collect();
        CaseError::invalid(
            "host",
            format!("{name:?} is not a host (one of {})", known.join(", ")),
        )
    })
}

/// `input` given as a path: an event file such as `fixtures/events/*.json`.
fn read_input(path: &Path) -> Result<Map<String, Value>, CaseError> {
    let bytes = std::fs::read(path).map_err(|err| {
        CaseError::invalid("input", format!("cannot read {}: {err}", path.display()))
    })?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(input)) => Ok(input),
        Ok(other) => Err(CaseError::invalid(
            "input",
            format!(
                "{} holds {}, not an event object",
                path.display(),
                json_type_name(&other)
            ),
        )),
        Err(err) => Err(CaseError::invalid(
            "input",
            format!("{} is not valid JSON: {err}", path.display()),
        )),
    }
}

fn unknown_keys(
    object: &Map<String, Value>,
    known: &[&str],
    prefix: &str,
) -> Result<(), CaseError> {
    for key in object.keys() {
        if !known.contains(&key.as_str()) {
            return Err(CaseError::UnknownKey {
                at: format!("{prefix}{key}"),
                known: known.join(", "),
            });
        }
    }
    Ok(())
}

fn string_at(object: &Map<String, Value>, key: &str) -> Result<Option<String>, CaseError> {
    match object.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(CaseError::wrong_type(
            &format!("expect.{key}"),
            "a string",
            other,
        )),
    }
}

fn parse_expect(object: &Map<String, Value>) -> Result<Expect, CaseError> {
    unknown_keys(object, EXPECT_KEYS, "expect.")?;
    let decision = match string_at(object, "decision")? {
        None => None,
        Some(word) if DECISIONS.contains(&word.as_str()) => {
            Some(if word == "block" { "deny".into() } else { word })
        }
        Some(word) => {
            return Err(CaseError::invalid(
                "expect.decision",
                format!(
                    "{word:?} is not a decision (one of {})",
                    DECISIONS.join(", ")
                ),
            ));
        }
    };
    let exit = match object.get("exit") {
        None => None,
        Some(value) => Some(
            value
                .as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| {
                    CaseError::invalid(
                        "expect.exit",
                        format!("expected an exit code 0–255, found {value}"),
                    )
                })?,
        ),
    };
    Ok(Expect {
        decision,
        exit,
        reason_contains: string_at(object, "reasonContains")?,
        updated_input: object.get("updatedInput").cloned(),
        context_contains: string_at(object, "additionalContextContains")?,
    })
}

enum Ran {
    Done(Box<FireResult>),
    Interrupted(i32),
}

fn run_case(
    spec: &Spec,
    args: &TestArgs,
    env: &Environment,
    project_dir: &Path,
    config: &FireOptions,
) -> Result<Ran, CaseError> {
    let settings = match &spec.settings {
        CaseSettings::Default => common::load_settings(&args.settings, env, project_dir),
        CaseSettings::Files(files) => {
            let mut settings = Settings::default();
            for path in files {
                if !path.is_file() {
                    return Err(CaseError::NoSettingsFile(path.clone()));
                }
                // Named by the case the user chose to run: trusted, as a
                // `--settings` file outside the project would be.
                let source = Source {
                    path: path.clone(),
                    kind: SourceKind::Cli,
                    claude_mode: is_inside_claude_folder(path),
                    trust_required: false,
                };
                let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                let mut gate = TrustGate::new(false, None, project_dir.to_path_buf());
                load_file(&mut settings, source, dir, &mut gate);
            }
            settings
        }
        CaseSettings::Inline(object) => {
            let mut settings = Settings::default();
            let source = Source {
                path: spec.file.clone(),
                kind: SourceKind::Cli,
                claude_mode: false,
                trust_required: false,
            };
            let dir = spec
                .file
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            load_object(&mut settings, source, dir, object);
            settings
        }
    };
    // As `hookrun fire --host` does (the same decoder): the input in the
    // host's vocabulary, decoded; the warnings about its name; the hooks'
    // host variables; the host's stop-loop cap.
    let input = input::decode(
        Ok(Sent::Object(spec.input.clone())),
        spec.host.unwrap_or(args.host),
        spec.event.as_deref(),
        &config.env,
    )
    .map_err(|unusable| CaseError::Input(unusable.error))?;
    let result = fire::fire(input, &settings, project_dir, config.clone());
    Ok(match result.interrupted {
        Some(signal) => Ran::Interrupted(signal),
        None => Ran::Done(Box::new(result)),
    })
}

fn compare(expect: &Expect, result: &FireResult) -> Vec<Mismatch> {
    let decision = &result.decision;
    let mut out = Vec::new();
    let shown = |text: Option<&str>| text.map_or_else(|| "none".to_owned(), |t| format!("{t:?}"));
    if let Some(wanted) = &expect.decision {
        let actual = decision.decision_word();
        if actual != wanted {
            out.push(Mismatch {
                key: "decision",
                expected: wanted.clone(),
                actual: actual.to_owned(),
            });
        }
    }
    if let Some(wanted) = expect.exit {
        let actual = result.rendered.exit.code();
        if actual != wanted {
            out.push(Mismatch {
                key: "exit",
                expected: wanted.to_string(),
                actual: actual.to_string(),
            });
        }
    }
    if let Some(wanted) = &expect.reason_contains {
        let reason = decision
            .block
            .as_deref()
            .or(decision.permission_reason.as_deref());
        if !reason.is_some_and(|r| r.contains(wanted.as_str())) {
            out.push(Mismatch {
                key: "reasonContains",
                expected: format!("a reason containing {wanted:?}"),
                actual: shown(reason),
            });
        }
    }
    if let Some(wanted) = &expect.updated_input {
        let actual = decision.updated_input.clone().unwrap_or(Value::Null);
        if actual != *wanted {
            let text = |v: &Value| {
                if v.is_null() {
                    "none".to_owned()
                } else {
                    v.to_string()
                }
            };
            out.push(Mismatch {
                key: "updatedInput",
                expected: text(wanted),
                actual: text(&actual),
            });
        }
    }
    if let Some(wanted) = &expect.context_contains {
        let context = decision.context.as_deref();
        if !context.is_some_and(|c| c.contains(wanted.as_str())) {
            out.push(Mismatch {
                key: "additionalContextContains",
                expected: format!("additional context containing {wanted:?}"),
                actual: shown(context),
            });
        }
    }
    out
}

fn text(outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    for o in outcomes {
        if o.passed() {
            let _ = writeln!(out, "ok    {}", o.label);
            continue;
        }
        let _ = writeln!(out, "FAIL  {}", o.label);
        if let Some(error) = &o.error {
            let _ = writeln!(out, "      error: {error}");
        }
        for m in &o.mismatches {
            let _ = writeln!(out, "      {}: expected {}", m.key, m.expected);
            let _ = writeln!(
                out,
                "      {}  actual {}",
                " ".repeat(m.key.len()),
                m.actual
            );
        }
        for w in &o.warnings {
            let _ = writeln!(out, "      hookrun warning: {w}");
        }
    }
    let passed = outcomes.iter().filter(|o| o.passed()).count();
    let _ = writeln!(out, "\n{passed} passed, {} failed", outcomes.len() - passed);
    out
}

fn to_json(outcomes: &[Outcome]) -> Value {
    let cases: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            json!({
                "case": o.label,
                "passed": o.passed(),
                "error": o.error,
                "mismatches": o.mismatches.iter().map(|m| json!({
                    "key": m.key,
                    "expected": m.expected,
                    "actual": m.actual,
                })).collect::<Vec<_>>(),
                "warnings": o.warnings,
            })
        })
        .collect();
    let passed = outcomes.iter().filter(|o| o.passed()).count();
    json!({
        "cases": cases,
        "passed": passed,
        "failed": outcomes.len() - passed,
    })
}

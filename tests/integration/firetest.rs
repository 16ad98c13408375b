//! A declarative test of one `hookrun fire`: the sandbox, the settings, the
//! event and what the answer must hold, written as one expression.
//!
//! ```ignore
//! Fire::new("PreToolUse")
//!     .settings(&json!({"permissions": {"deny": ["Bash(rm *)"]}}))
//!     .input(&json!({"tool_name": "Bash", "tool_input": {"command": "rm x"}}))
//!     .expect_exit(2)
//!     .expect_stderr_contains("denied by permission rule")
//!     .run();
//!
//! Fire::host("gemini")
//!     .settings(&settings)
//!     .payload("gemini/before_tool__write.json")
//!     .expect_exit(0)
//!     .expect_json_at("/decision", "deny")
//!     .run_in(&sb);
//! ```
//!
//! The command is `hookrun fire [EVENT | --host HOST] --no-default-settings
//! [--settings FILE] ARGS…`; every expectation is checked, and a failure
//! names the expectation and shows the whole run. `run` returns the
//! [`Run`] for whatever else a test looks at.

use serde_json::{Value, json};

use crate::support::{Run, Sandbox, fixture};

/// What is written to the fire's stdin.
enum Input {
    /// An event line built by [`Sandbox::event`] from these fields.
    Fields(Value),
    /// A host payload from `fixtures/hosts/`, its `cwd` the sandbox's
    /// project, these fields set over it.
    Payload(String, Value),
    Raw(Vec<u8>),
}

enum Expect {
    Exit(i32),
    Stdout(String),
    StdoutContains(String),
    StdoutLacks(String),
    Json(Value),
    JsonAt(String, Value),
    Stderr(String),
    StderrContains(String),
}

/// One `hookrun fire` and what it must answer.
#[must_use = "a Fire does nothing until `run` or `run_in`"]
pub struct Fire {
    event: Option<String>,
    host: Option<String>,
    settings: Option<Value>,
    input: Input,
    args: Vec<String>,
    expect: Vec<Expect>,
}

impl Fire {
    /// `hookrun fire EVENT`, the input an event line of EVENT
    /// ([`Fire::input`] adds its fields).
    pub fn new(event: &str) -> Fire {
        Fire {
            event: Some(event.to_owned()),
            host: None,
            settings: None,
            input: Input::Fields(json!({})),
            args: Vec::new(),
            expect: Vec::new(),
        }
    }

    /// `hookrun fire --host HOST`: the host's payload names the event (see
    /// [`Fire::payload`]); no event argument is passed.
    pub fn host(host: &str) -> Fire {
        Fire {
            event: None,
            host: Some(host.to_owned()),
            settings: None,
            input: Input::Raw(Vec::new()),
            args: Vec::new(),
            expect: Vec::new(),
        }
    }

    /// The settings, written to a file of the sandbox and passed with
    /// `--settings`. Without it the fire reads no settings at all.
    pub fn settings(mut self, settings: &Value) -> Fire {
        self.settings = Some(settings.clone());
        self
    }

    /// The event's fields over the common ones (session, transcript, `cwd`
    /// = the project, `hook_event_name` = the event).
    pub fn input(mut self, fields: &Value) -> Fire {
        self.input = Input::Fields(fields.clone());
        self
    }

    /// A host payload, `fixtures/hosts/REL`, as it is.
    pub fn payload(self, rel: &str) -> Fire {
        self.payload_with(rel, &json!({}))
    }

    /// A host payload with `fields` set over its own.
    pub fn payload_with(mut self, rel: &str, fields: &Value) -> Fire {
        self.input = Input::Payload(rel.to_owned(), fields.clone());
        self
    }

    /// These bytes on stdin, as they are.
    pub fn stdin(mut self, bytes: &[u8]) -> Fire {
        self.input = Input::Raw(bytes.to_vec());
        self
    }

    /// More arguments after the settings (`--format report`, a host's
    /// event name…).
    pub fn args(mut self, args: &[&str]) -> Fire {
        self.args.extend(args.iter().map(|a| (*a).to_owned()));
        self
    }

    /// The exit code.
    pub fn expect_exit(mut self, code: i32) -> Fire {
        self.expect.push(Expect::Exit(code));
        self
    }

    /// Stdout, exactly.
    pub fn expect_stdout(mut self, text: &str) -> Fire {
        self.expect.push(Expect::Stdout(text.to_owned()));
        self
    }

    pub fn expect_stdout_contains(mut self, text: &str) -> Fire {
        self.expect.push(Expect::StdoutContains(text.to_owned()));
        self
    }

    pub fn expect_stdout_lacks(mut self, text: &str) -> Fire {
        self.expect.push(Expect::StdoutLacks(text.to_owned()));
        self
    }

    /// Stdout is this JSON value, whole.
    pub fn expect_json(mut self, value: Value) -> Fire {
        self.expect.push(Expect::Json(value));
        self
    }

    /// Stdout is JSON whose value at `pointer` (RFC 6901, `/a/b`) is
    /// `value`; a missing value is `null`.
    pub fn expect_json_at(mut self, pointer: &str, value: impl Into<Value>) -> Fire {
        self.expect
            .push(Expect::JsonAt(pointer.to_owned(), value.into()));
        self
    }

    /// Stderr, exactly.
    pub fn expect_stderr(mut self, text: &str) -> Fire {
        self.expect.push(Expect::Stderr(text.to_owned()));
        self
    }

    pub fn expect_stderr_contains(mut self, text: &str) -> Fire {
        self.expect.push(Expect::StderrContains(text.to_owned()));
        self
    }

    /// Runs in a sandbox of its own.
    pub fn run(self) -> Run {
        self.run_in(&Sandbox::new())
    }

    /// Runs in `sb` (its HOME, project and environment), then checks every
    /// expectation.
    pub fn run_in(self, sb: &Sandbox) -> Run {
        let stdin = match &self.input {
            Input::Fields(fields) => {
                let event = self
                    .event
                    .as_deref()
                    .expect("Fire::host needs a payload or stdin, or Fire::new for an event");
                sb.event(event, fields)
            }
            Input::Payload(rel, fields) => payload(sb, rel, fields),
            Input::Raw(bytes) => bytes.clone(),
        };
        let settings = self.settings.as_ref().map(|s| sb.settings(s));
        let mut args: Vec<&str> = vec!["fire"];
        match (&self.host, &self.event) {
            (Some(host), _) => args.extend(["--host", host]),
            (None, Some(event)) => args.push(event),
            (None, None) => {}
        }
        args.push("--no-default-settings");
        if let Some(file) = &settings {
            args.extend(["--settings", file.to_str().unwrap()]);
        }
        args.extend(self.args.iter().map(String::as_str));
        let run = sb.run(&args, &stdin);
        for expect in &self.expect {
            check(expect, &run, &args, &stdin);
        }
        run
    }
}

fn check(expect: &Expect, run: &Run, args: &[&str], stdin: &[u8]) {
    let at = || {
        format!(
            "hookrun {}\nstdin: {}\n{run:#?}",
            args.join(" "),
            String::from_utf8_lossy(stdin)
        )
    };
    match expect {
        Expect::Exit(code) => assert_eq!(run.code, Some(*code), "exit code: {}", at()),
        Expect::Stdout(text) => assert_eq!(&run.stdout, text, "stdout: {}", at()),
        Expect::StdoutContains(text) => {
            assert!(run.stdout.contains(text), "stdout has {text:?}: {}", at());
        }
        Expect::StdoutLacks(text) => {
            assert!(
                !run.stdout.contains(text),
                "stdout lacks {text:?}: {}",
                at()
            );
        }
        Expect::Json(value) => assert_eq!(&run.json(), value, "stdout JSON: {}", at()),
        Expect::JsonAt(pointer, value) => {
            let answer = run.json();
            let found = answer.pointer(pointer).unwrap_or(&Value::Null);
            assert_eq!(found, value, "stdout JSON at {pointer}: {}", at());
        }
        Expect::Stderr(text) => assert_eq!(&run.stderr, text, "stderr: {}", at()),
        Expect::StderrContains(text) => {
            assert!(run.stderr.contains(text), "stderr has {text:?}: {}", at());
        }
    }
}

/// A host payload from `fixtures/hosts/`, with its `cwd` moved into the
/// sandbox project (hooks run there) and `fields` set over it.
pub fn payload(sb: &Sandbox, rel: &str, fields: &Value) -> Vec<u8> {
    let text = std::fs::read_to_string(fixture(&format!("hosts/{rel}"))).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    let object = value.as_object_mut().unwrap();
    object.insert("cwd".into(), json!(sb.project.to_str().unwrap()));
    if let Some(extra) = fields.as_object() {
        for (k, v) in extra {
            object.insert(k.clone(), v.clone());
        }
    }
    serde_json::to_vec(&value).unwrap()
}

#[test]
fn an_expectation_the_answer_does_not_meet_fails_the_test_and_says_which() {
    let deny = json!({"permissions": {"deny": ["Bash(rm *)"]}});
    let rm = json!({"tool_name": "Bash", "tool_input": {"command": "rm x"}});
    // The same fire passes with what it answers…
    let run = Fire::new("PreToolUse")
        .settings(&deny)
        .input(&rm)
        .expect_exit(2)
        .expect_stderr_contains("denied by permission rule")
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .run();
    assert_eq!(run.code, Some(2));
    // …and fails, naming the expectation, with anything else.
    let wrong: [(&str, Fire); 4] = [
        ("exit code", Fire::new("PreToolUse").expect_exit(0)),
        (
            "stderr has",
            Fire::new("PreToolUse").expect_stderr_contains("allowed"),
        ),
        ("stdout:", Fire::new("PreToolUse").expect_stdout("{}")),
        (
            "stdout JSON",
            Fire::new("PreToolUse").expect_json(json!({})),
        ),
    ];
    for (said, fire) in wrong {
        let fire = fire.settings(&deny).input(&rm);
        let panic =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fire.run())).expect_err(said);
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(message.contains(said), "{said}: {message}");
    }
}

#[test]
fn a_json_pointer_expectation_reads_the_answer_at_that_place() {
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"deny": ["Write(*.txt)"]}});
    Fire::host("gemini")
        .settings(&settings)
        .payload("gemini/before_tool__write.json")
        .expect_exit(0)
        .expect_json_at("/decision", "deny")
        .expect_json_at("/no/such/field", Value::Null)
        .run_in(&sb);
    let missed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Fire::host("gemini")
            .settings(&settings)
            .payload("gemini/before_tool__write.json")
            .expect_json_at("/decision", "allow")
            .run_in(&sb)
    }));
    assert!(missed.is_err(), "a wrong value at the pointer fails");
}

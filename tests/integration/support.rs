//! Shared helpers: a sandbox (temporary HOME and project) and a runner for
//! the real binary that never inherits the developer's or CI's own hook
//! environment.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const BIN: &str = env!("CARGO_BIN_EXE_hookrun");

/// Repository root, for `fixtures/`.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Says that a test could not run here, by name, where `cargo test` shows
/// it: libtest captures `eprintln!` of a passing test, so the line is
/// written to the process's stderr directly.
pub fn skipped(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {line}");
}

pub fn fixture(rel: &str) -> PathBuf {
    repo().join("fixtures").join(rel)
}

/// A throwaway HOME, project and settings folder.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
    pub home: PathBuf,
    pub project: PathBuf,
    counter: std::cell::Cell<usize>,
    extra_env: Vec<(String, String)>,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("hookrun-it-")
            .tempdir()
            .unwrap();
        let home = dir.path().join("home");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        Sandbox {
            dir,
            home,
            project,
            counter: std::cell::Cell::new(0),
            extra_env: Vec::new(),
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes a file (creating folders) and returns its path.
    pub fn write(&self, rel: &str, content: &str) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }

    /// Writes an executable script.
    pub fn script(&self, rel: &str, content: &str) -> PathBuf {
        let path = self.write(rel, content);
        crate::platform::make_executable(&path);
        path
    }

    /// Writes a settings file under `cli/` and returns its path.
    pub fn settings(&self, value: &Value) -> PathBuf {
        let n = self.counter.get();
        self.counter.set(n + 1);
        self.write(
            &format!("cli/settings-{n}.json"),
            &serde_json::to_string_pretty(value).unwrap(),
        )
    }

    pub fn env(&mut self, key: &str, value: &str) -> &mut Self {
        self.extra_env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// The binary with a clean environment: PATH, the sandbox HOME and
    /// config/state dirs, managed settings pointing nowhere.
    pub fn command(&self) -> Command {
        self.command_via(&[])
    }

    /// Same, with the binary run through `wrapper` (e.g. `["unshare",
    /// "-n"]`): `wrapper[0] wrapper[1..] hookrun …`.
    pub fn command_via(&self, wrapper: &[&str]) -> Command {
        let mut cmd = match wrapper.split_first() {
            None => Command::new(BIN),
            Some((program, args)) => {
                let mut cmd = Command::new(program);
                cmd.args(args).arg(BIN);
                cmd
            }
        };
        cmd.env_clear()
            .env("PATH", clean_path(std::env::var_os("PATH")))
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_STATE_HOME", self.home.join(".state"))
            .env(
                "HOOKRUN_MANAGED_SETTINGS",
                self.path("managed-settings.json"),
            )
            .current_dir(&self.project);
        for (k, v) in &self.extra_env {
            cmd.env(k, v);
        }
        cmd
    }

    /// Runs `hookrun ARGS` with `stdin`.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Run {
        run_command(self.command().args(args), stdin)
    }

    /// Same, with `--format report`.
    pub fn report(&self, event: &str, settings: &Value, fields: &Value) -> Run {
        let file = self.settings(settings);
        self.fire_with(event, &file, &["--format", "report"], fields)
    }

    /// `hookrun fire EVENT --no-default-settings --settings SETTINGS EXTRA…`
    /// with an event built by [`Sandbox::event`].
    pub fn fire_with(&self, event: &str, settings: &Path, extra: &[&str], fields: &Value) -> Run {
        self.run(
            &fire_args(event, settings, extra),
            &self.event(event, fields),
        )
    }

    /// A compact event line: common fields, `cwd` = the project, then
    /// `fields`.
    pub fn event(&self, event: &str, fields: &Value) -> Vec<u8> {
        let mut object = json!({
            "session_id": "it-session",
            "transcript_path": "/tmp/transcript.jsonl",
            "cwd": self.project.to_str().unwrap(),
            "hook_event_name": event,
        });
        if let (Some(target), Some(extra)) = (object.as_object_mut(), fields.as_object()) {
            for (k, v) in extra {
                target.insert(k.clone(), v.clone());
            }
        }
        let mut bytes = serde_json::to_vec(&object).unwrap();
        bytes.push(b'\n');
        bytes
    }
}

/// The test process's `PATH` without the folders that hold a `hookrun`:
/// the suite must give the same answers whether or not the person running
/// it installed hookrun (`cargo install --path .`). Tests that want a
/// `hookrun` on PATH put the built binary's folder there themselves.
pub fn clean_path(path: Option<std::ffi::OsString>) -> std::ffi::OsString {
    let path = path.unwrap_or_else(|| "/usr/bin:/bin".into());
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|dir| !dir.join("hookrun").exists())
        .collect();
    std::env::join_paths(kept).unwrap_or(path)
}

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    /// Stdout parsed as JSON (panics with the output when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|err| {
            panic!(
                "stdout is not JSON ({err}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    pub fn system_message(&self) -> String {
        self.json()["systemMessage"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// In `--format report`: the hook named `name`.
    pub fn hook(&self, name: &str) -> Value {
        let report = self.json();
        report["hooks"]
            .as_array()
            .and_then(|hooks| hooks.iter().find(|h| h["name"] == name).cloned())
            .unwrap_or_else(|| panic!("no hook {name:?} in report:\n{}", self.stdout))
    }

    /// In `--format report`: names of the hooks that ran.
    pub fn ran(&self) -> Vec<String> {
        self.json()["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h["state"] == "ran")
            .map(|h| h["name"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// How long one run of the binary may take before the test fails (and the
/// process is killed): no test waits on a hung `hookrun` forever.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);

pub fn run_command(cmd: &mut Command, stdin: &[u8]) -> Run {
    run_command_within(cmd, stdin, RUN_TIMEOUT)
}

/// A started hookrun whose stdin is written, and whose stdout and stderr
/// are read to end of file, by threads of their own (so no pipe fills).
pub struct Piped {
    pub child: std::process::Child,
    pub writer: std::thread::JoinHandle<()>,
    pub stdout: std::thread::JoinHandle<Vec<u8>>,
    pub stderr: std::thread::JoinHandle<Vec<u8>>,
}

/// Starts `cmd` with all three pipes ([`Piped`]).
pub fn spawn_piped(cmd: &mut Command, stdin: Vec<u8>) -> Piped {
    use std::io::Read as _;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hookrun");
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
    });
    let reader = |mut source: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = source.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = reader(Box::new(child.stdout.take().unwrap()));
    let stderr = reader(Box::new(child.stderr.take().unwrap()));
    Piped {
        child,
        writer,
        stdout,
        stderr,
    }
}

/// Runs `cmd`, failing the test if it has not exited within `timeout`.
pub fn run_command_within(cmd: &mut Command, stdin: &[u8], timeout: Duration) -> Run {
    let started = Instant::now();
    let Piped {
        mut child,
        writer,
        stdout,
        stderr,
    } = spawn_piped(cmd, stdin.to_vec());
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for hookrun") {
            break status;
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "hookrun did not exit within {} s (killed): {cmd:?}",
                timeout.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = started.elapsed();
    let _ = writer.join();
    // A hook that leaked a process holding the pipes would keep these open;
    // hookrun itself never hands its own pipes on, so they end with it.
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    Run {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed,
    }
}

/// A flat settings object with the given hooks under one event.
#[expect(
    clippy::needless_pass_by_value,
    reason = "callers write the list in place with `json!`"
)]
pub fn hooks(event: &str, list: Value) -> Value {
    json!({ "hooks": { event: list } })
}

/// Reads a file the hook wrote, waiting briefly for it to appear.
pub fn read_when_ready(path: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(path) {
            if !text.is_empty() {
                return text;
            }
        }
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `fire EVENT --no-default-settings --settings SETTINGS EXTRA…`: one
/// settings file and nothing else.
pub fn fire_args<'a>(event: &'a str, settings: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "fire",
        event,
        "--no-default-settings",
        "--settings",
        settings.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

/// `VERB --host HOST --no-default-settings --settings SETTINGS EXTRA…`
/// (`fire` or `explain` as that host calls it).
pub fn host_args<'a>(
    verb: &'a str,
    host: &'a str,
    settings: &'a Path,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        verb,
        "--host",
        host,
        "--no-default-settings",
        "--settings",
        settings.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

/// How many async results (`*.result.json`) wait below `dir`.
pub fn results_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .map(|e| {
                let path = e.path();
                if path.is_dir() {
                    results_in(&path)
                } else {
                    usize::from(path.to_string_lossy().ends_with(".result.json"))
                }
            })
            .sum()
    })
}

/// One HTTP/1.1 request as a loopback test server read it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// Header lines as received, in order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

/// The first header of that name (any case).
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// A loopback HTTP server for tests: each of the first `connections`
/// connections is handed to `handle` on a thread of its own.
pub fn serve_loopback(
    connections: usize,
    handle: impl Fn(std::net::TcpStream) + Send + Sync + 'static,
) -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let handle = std::sync::Arc::new(handle);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(connections) {
            let Ok(stream) = stream else { continue };
            let handle = std::sync::Arc::clone(&handle);
            std::thread::spawn(move || handle(stream));
        }
    });
    addr
}

/// Reads one request (line, headers, a `Content-Length` body), waiting at
/// most 10 s for it; `None` when the client closed before a request line.
pub fn read_request(stream: &std::net::TcpStream) -> Option<Request> {
    use std::io::{BufRead as _, Read as _};
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let mut headers = Vec::new();
    loop {
        let mut text = String::new();
        if reader.read_line(&mut text).unwrap_or(0) == 0 {
            break;
        }
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        if let Some((k, v)) = text.split_once(':') {
            headers.push((k.trim().to_owned(), v.trim().to_owned()));
        }
    }
    let length: usize = header(&headers, "content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

/// Writes a JSON response (`extra` holds more header lines, each ending
/// in `\r\n`) and closes the connection.
pub fn write_response(
    mut stream: std::net::TcpStream,
    status: u16,
    reason: &str,
    extra: &str,
    body: &str,
) {
    use std::io::Write as _;
    let _ = write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{body}",
        body.len()
    );
    let _ = stream.flush();
}

//! http hooks end to end (SPEC §8): the real binary against a tiny HTTP
//! server on 127.0.0.1 started by each test. Nothing here talks to any
//! address but loopback; the SSRF tests that name a private address run the
//! binary inside an empty network namespace (`unshare -n`), where no packet
//! can leave even if the guard failed, and are skipped with a note where
//! that is not possible.

use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{
    Request, Run, Sandbox, hooks, read_request, read_when_ready, run_command, serve_loopback,
    write_response,
};

/// One request as the server saw it.
type Received = Request;

#[derive(Debug, Clone)]
enum Reply {
    Status(u16, &'static str),
    Redirect(&'static str),
    /// Answers 200 `{}` after this long (the client should have given up).
    Sleep(Duration),
}

/// A one-request-per-connection HTTP/1.1 server on 127.0.0.1. It serves at
/// most 32 connections and its threads end with the test process.
struct Server {
    addr: SocketAddr,
    log: Arc<Mutex<Vec<Received>>>,
}

impl Server {
    fn start(route: fn(&str) -> Reply) -> Server {
        let log = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&log);
        let addr = serve_loopback(32, move |stream| serve(stream, route, &shared));
        Server { addr, log }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn requests(&self) -> Vec<Received> {
        self.log.lock().unwrap().clone()
    }

    fn paths(&self) -> Vec<String> {
        self.requests().into_iter().map(|r| r.path).collect()
    }
}

fn serve(stream: TcpStream, route: fn(&str) -> Reply, log: &Mutex<Vec<Received>>) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let reply = route(&request.path);
    log.lock().unwrap().push(request);
    let (status, extra, body) = match reply {
        Reply::Status(code, body) => (code, String::new(), body),
        Reply::Redirect(to) => (302, format!("Location: {to}\r\n"), ""),
        Reply::Sleep(time) => {
            std::thread::sleep(time);
            (200, String::new(), "{}")
        }
    };
    write_response(stream, status, reason(status), &extra, body);
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        302 => "Found",
        500 => "Internal Server Error",
        _ => "Other",
    }
}

fn http_hook(url: &str, extra: &Value) -> Value {
    let mut hook = json!({"type": "http", "url": url, "name": "web"});
    for (k, v) in extra.as_object().unwrap() {
        hook[k] = v.clone();
    }
    hook
}

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no pushes from this box"}}"#;

#[test]
fn a_json_body_blocks_and_the_body_sent_is_the_events_bytes() {
    let server = Server::start(|_| Reply::Status(200, DENY));
    let sb = Sandbox::new();
    let stdin_copy = sb.path("stdin-copy");
    let settings = hooks(
        "PreToolUse",
        json!([
            http_hook(&server.url("/pre?x=1"), &json!({})),
            {"command": format!("cat > '{}'", stdin_copy.display())},
        ]),
    );
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "git push"}});
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&fields)
        .expect_exit(2)
        .expect_stderr("no pushes from this box\n")
        .expect_json_at("/hookSpecificOutput/permissionDecision", "deny")
        .run_in(&sb);

    let requests = server.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    let request = &requests[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/pre?x=1");
    assert_eq!(request.header("content-type"), Some("application/json"));
    // The very bytes a command hook reads on stdin, serialised once.
    let command_stdin = read_when_ready(&stdin_copy);
    assert_eq!(String::from_utf8_lossy(&request.body), command_stdin);
    assert_eq!(request.body, sb.event("PreToolUse", &fields));
}

#[test]
fn an_empty_2xx_is_success_and_other_json_fields_count() {
    let server = Server::start(|path| match path {
        "/empty" => Reply::Status(204, ""),
        _ => Reply::Status(
            200,
            r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"from the web"}}"#,
        ),
    });
    let sb = Sandbox::new();
    let run = sb.report(
        "UserPromptSubmit",
        &hooks(
            "UserPromptSubmit",
            json!([
                http_hook(&server.url("/empty"), &json!({"name": "empty"})),
                http_hook(&server.url("/context"), &json!({"name": "context"})),
            ]),
        ),
        &json!({"prompt": "hi"}),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let report = run.json();
    assert_eq!(report["warnings"], json!([]), "{report:#}");
    assert_eq!(
        report["output"]["hookSpecificOutput"]["additionalContext"],
        "from the web"
    );
    let empty = run.hook("empty");
    assert_eq!(empty["run"]["outcome"], "success");
    assert_eq!(empty["run"]["http_status"], 204);
    assert!(empty["run"].get("exit_code").is_none(), "{empty:#}");
    assert_eq!(run.hook("context")["run"]["http_status"], 200);
}

#[test]
fn headers_interpolate_only_consented_variables_and_lose_line_breaks() {
    let server = Server::start(|_| Reply::Status(200, ""));
    let mut sb = Sandbox::new();
    sb.env("TOKEN", "s3cret")
        .env("OTHER_SECRET", "must-not-leak")
        .env("EVIL", "1\r\nX-Injected: yes");
    let hook = http_hook(
        &server.url("/h"),
        &json!({
            "headers": {
                "Authorization": "Bearer $TOKEN",
                "X-Other": "[${OTHER_SECRET}]",
                "X-Evil": "a${EVIL}b",
                "X-Literal": "costs $5"
            },
            "allowedEnvVars": ["TOKEN", "EVIL"]
        }),
    );
    Fire::new("Stop")
        .settings(&hooks("Stop", json!([hook])))
        .input(&json!({}))
        .expect_exit(0)
        .run_in(&sb);
    let request = &server.requests()[0];
    assert_eq!(request.header("authorization"), Some("Bearer s3cret"));
    assert_eq!(request.header("x-other"), Some("[]"));
    assert_eq!(request.header("x-evil"), Some("a1X-Injected: yesb"));
    assert_eq!(request.header("x-literal"), Some("costs $5"));
    assert_eq!(request.header("x-injected"), None, "{request:?}");

    // Managed httpHookAllowedEnvVars narrows the hook's own list.
    sb.write(
        "managed-settings.json",
        r#"{"httpHookAllowedEnvVars": ["EVIL"]}"#,
    );
    Fire::new("Stop")
        .settings(&hooks("Stop", json!([hook])))
        .input(&json!({}))
        .expect_exit(0)
        .run_in(&sb);
    let request = &server.requests()[1];
    assert_eq!(request.header("authorization"), Some("Bearer"));
    assert_eq!(request.header("x-evil"), Some("a1X-Injected: yesb"));
}

#[test]
fn non_2xx_is_a_failure_that_blocks_only_with_on_error_block() {
    let server = Server::start(|_| Reply::Status(500, "database on fire\nsecond line"));
    let sb = Sandbox::new();
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
    let run = Fire::new("PreToolUse")
        .settings(&hooks(
            "PreToolUse",
            json!([http_hook(&server.url("/x"), &json!({}))]),
        ))
        .input(&fields)
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(
        run.system_message(),
        "hook web failed (HTTP 500 Internal Server Error: database on fire)"
    );

    let run = Fire::new("PreToolUse")
        .settings(&hooks(
            "PreToolUse",
            json!([http_hook(&server.url("/x"), &json!({"onError": "block"}))]),
        ))
        .input(&fields)
        .expect_exit(2)
        .run_in(&sb);
    assert!(
        run.stderr
            .contains("hook web failed (HTTP 500 Internal Server Error: database on fire); onError is \"block\""),
        "{run:?}"
    );
}

#[test]
fn a_2xx_body_that_is_not_a_json_object_is_a_failure() {
    let server = Server::start(|path| match path {
        "/text" => Reply::Status(200, "ok, allowed"),
        _ => Reply::Status(200, "[\"deny\"]"),
    });
    let sb = Sandbox::new();
    let run = Fire::new("UserPromptSubmit")
        .settings(&hooks(
            "UserPromptSubmit",
            json!([
                http_hook(&server.url("/text"), &json!({"name": "text"})),
                http_hook(&server.url("/array"), &json!({"name": "array"})),
            ]),
        ))
        .input(&json!({"prompt": "hi"}))
        .expect_exit(0)
        .run_in(&sb);
    let message = run.system_message();
    assert!(
        message
            .contains("hook text failed (HTTP 200 OK with a body that is not JSON: ok, allowed)"),
        "{message}"
    );
    assert!(
        message.contains("hook array failed (HTTP 200 OK with a JSON an array body"),
        "{message}"
    );
    // Plain text from an http hook is not additional context.
    assert!(run.json().get("hookSpecificOutput").is_none(), "{run:?}");
}

#[test]
fn a_slow_server_times_out_at_the_hooks_timeout() {
    let server = Server::start(|_| Reply::Sleep(Duration::from_secs(8)));
    let sb = Sandbox::new();
    let run = Fire::new("Stop")
        .settings(&hooks(
            "Stop",
            json!([http_hook(&server.url("/slow"), &json!({"timeout": 1}))]),
        ))
        .input(&json!({}))
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(
        run.system_message(),
        "hook web failed (timed out after 1 s)"
    );
    assert!(
        run.elapsed >= Duration::from_millis(900) && run.elapsed < Duration::from_secs(4),
        "{:?}",
        run.elapsed
    );
}

#[test]
fn redirects_are_not_followed() {
    let server = Server::start(|path| match path {
        "/first" => Reply::Redirect("/second"),
        _ => Reply::Status(200, DENY),
    });
    let sb = Sandbox::new();
    let run = Fire::new("PreToolUse")
        .settings(&hooks(
            "PreToolUse",
            json!([http_hook(&server.url("/first"), &json!({}))]),
        ))
        .input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(
        run.system_message(),
        "hook web failed (HTTP 302 Found: redirect to /second not followed (http hooks follow no redirects))"
    );
    // Give a (wrongly) followed redirect every chance to arrive.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.paths(), ["/first"]);
}

#[test]
fn proxy_variables_are_ignored() {
    let target = Server::start(|_| Reply::Status(200, ""));
    let proxy = Server::start(|_| Reply::Status(200, DENY));
    let mut sb = Sandbox::new();
    let proxy_url = proxy.url("");
    for var in [
        "ALL_PROXY",
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "http_proxy",
        "all_proxy",
    ] {
        sb.env(var, &proxy_url);
    }
    Fire::new("PreToolUse")
        .settings(&hooks(
            "PreToolUse",
            json!([http_hook(&target.url("/direct"), &json!({}))]),
        ))
        .input(&bash_ls())
        .expect_exit(0)
        .expect_stdout("{}\n")
        .run_in(&sb);
    assert_eq!(target.paths(), ["/direct"]);
    assert!(proxy.requests().is_empty(), "{:?}", proxy.requests());
}

#[test]
fn http_and_command_hooks_of_one_fire_run_at_the_same_time() {
    let server = Server::start(|_| Reply::Sleep(Duration::from_millis(1200)));
    let sb = Sandbox::new();
    let run = sb.report(
        "Stop",
        &hooks(
            "Stop",
            json!([
                http_hook(&server.url("/slow"), &json!({"timeout": 10})),
                {"command": "sleep 1.2", "name": "sleeper"},
            ]),
        ),
        &json!({}),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.ran(), ["web", "sleeper"]);
    assert_eq!(run.hook("web")["run"]["outcome"], "success");
    // One after the other would take 2.4 s.
    assert!(
        run.elapsed < Duration::from_millis(2200),
        "{:?}",
        run.elapsed
    );
}

#[test]
fn in_sequential_mode_an_http_hook_gets_the_updated_input() {
    let server = Server::start(|_| Reply::Status(200, ""));
    let sb = Sandbox::new();
    let rewrite = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la"}}}'"#;
    Fire::new("PreToolUse")
        .settings(&hooks(
            "PreToolUse",
            json!([
                {"command": rewrite, "sequential": true},
                http_hook(&server.url("/after"), &json!({})),
            ]),
        ))
        .input(&bash_ls())
        .expect_exit(0)
        .run_in(&sb);
    let body: Value = serde_json::from_slice(&server.requests()[0].body).unwrap();
    assert_eq!(body["tool_input"], json!({"command": "ls -la"}));
}

#[test]
fn the_url_allow_list_sends_nothing_it_does_not_match() {
    let server = Server::start(|_| Reply::Status(200, ""));
    let sb = Sandbox::new();
    let fire = |allowed: Value, on_error: &str| -> Run {
        let mut settings = hooks(
            "PreToolUse",
            json!([http_hook(
                &server.url("/hook"),
                &json!({"onError": on_error})
            )]),
        );
        settings["allowedHttpHookUrls"] = allowed;
        Fire::new("PreToolUse")
            .settings(&settings)
            .input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
            .run_in(&sb)
    };

    let run = fire(json!([]), "allow");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.system_message()
            .contains("not sent: allowedHttpHookUrls is [] (no http hook may send)"),
        "{run:?}"
    );
    let run = fire(json!(["https://hooks.example.com/*"]), "block");
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr
            .contains("matches no allowedHttpHookUrls pattern"),
        "{run:?}"
    );
    assert!(server.requests().is_empty());

    let pattern = format!("HTTP://{}/*", server.addr);
    let run = fire(json!([pattern]), "block");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(server.paths(), ["/hook"]);
}

#[test]
fn a_fire_with_a_blocked_url_literal_is_refused_by_the_guard_at_once() {
    let Some(wrapper) = empty_network_namespace(
        "a_fire_with_a_blocked_url_literal_is_refused_by_the_guard_at_once",
    ) else {
        return;
    };
    let sb = Sandbox::new();
    let settings = hooks(
        "PreToolUse",
        json!([
            http_hook(
                "http://10.255.255.1:9/",
                &json!({"timeout": 30, "name": "private"})
            ),
            http_hook(
                "http://169.254.169.254/latest/meta-data/",
                &json!({"timeout": 30, "name": "metadata"})
            ),
            // A numeric host the system resolver turns into 10.0.0.1 (no DNS
            // query; inside the namespace none could leave anyway).
            http_hook(
                "http://167772161/",
                &json!({"timeout": 30, "name": "decimal"})
            ),
        ]),
    );
    let run = fire_via(&sb, &wrapper, &settings);
    assert_eq!(run.code, Some(0), "{run:?}");
    let message = run.system_message();
    assert!(
        message.contains("hook decimal failed (refused by hookrun's SSRF guard: 167772161 resolves to 10.0.0.1 (private network 10.0.0.0/8)"),
        "{message}"
    );
    assert!(
        message.contains("hook private failed (refused by hookrun's SSRF guard: 10.255.255.1 is in a blocked range (private network 10.0.0.0/8)"),
        "{message}"
    );
    assert!(
        message.contains("hook metadata failed (refused by hookrun's SSRF guard: 169.254.169.254 is in a blocked range"),
        "{message}"
    );
    // Refused before connecting: no wait for a connect or the 30 s timeout.
    assert!(run.elapsed < Duration::from_secs(3), "{:?}", run.elapsed);
}

#[test]
fn only_user_managed_and_cli_settings_can_open_the_guard() {
    let Some(wrapper) =
        empty_network_namespace("only_user_managed_and_cli_settings_can_open_the_guard")
    else {
        return;
    };
    let sb = Sandbox::new();
    let hook = http_hook("http://10.255.255.1:9/", &json!({"timeout": 5}));

    // From a --settings file: the guard steps aside, the connection itself
    // fails (no network in the namespace), not the guard.
    for opt_out in [
        json!({"allowPrivateNetworkHooks": true}),
        json!({"allowedHookNetworks": ["10.255.0.0/16"]}),
    ] {
        let mut settings = hooks("PreToolUse", json!([hook]));
        for (k, v) in opt_out.as_object().unwrap() {
            settings[k] = v.clone();
        }
        let run = fire_via(&sb, &wrapper, &settings);
        let message = run.system_message();
        assert!(message.contains("hook web failed ("), "{message}");
        assert!(!message.contains("SSRF guard"), "{opt_out}: {message}");
    }

    // A network that does not contain the address opens nothing.
    let mut settings = hooks("PreToolUse", json!([hook]));
    settings["allowedHookNetworks"] = json!(["10.1.0.0/16"]);
    let run = fire_via(&sb, &wrapper, &settings);
    assert!(run.system_message().contains("SSRF guard"), "{run:?}");

    // From project settings: ignored with a warning, the guard stays on.
    sb.write(
        "project/.hookrun/settings.json",
        &serde_json::to_string(&json!({
            "allowPrivateNetworkHooks": true,
            "hooks": {"PreToolUse": [hook]}
        }))
        .unwrap(),
    );
    let mut cmd = sb.command_via(&wrapper);
    cmd.env("HOOKRUN_TRUST_PROJECT", "1");
    let run = run_command(
        cmd.args(["fire", "PreToolUse"]),
        &sb.event("PreToolUse", &bash_ls()),
    );
    let message = run.system_message();
    assert!(
        message.contains("allowPrivateNetworkHooks: is honoured only in user, managed or --settings files, not in project settings here; ignored (the SSRF guard stays on)"),
        "{message}"
    );
    assert!(
        message.contains("hook web failed (refused by hookrun's SSRF guard: 10.255.255.1"),
        "{message}"
    );
}

fn bash_ls() -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})
}

fn fire_via(sb: &Sandbox, wrapper: &[&str], settings: &Value) -> Run {
    let file = sb.settings(settings);
    let mut cmd = sb.command_via(wrapper);
    cmd.args([
        "fire",
        "PreToolUse",
        "--no-default-settings",
        "--settings",
        file.to_str().unwrap(),
    ]);
    run_command(&mut cmd, &sb.event("PreToolUse", &bash_ls()))
}

/// An empty network namespace, so a test naming a private address cannot
/// send a packet off this machine even if the guard were broken:
/// `unshare -n` as root, else `unshare -rn` (a user namespace, which needs
/// no privilege where the kernel allows it). Where neither works the test
/// says so by name and is skipped, never passed silently.
fn empty_network_namespace(test: &str) -> Option<Vec<&'static str>> {
    let works = |args: &[&str]| {
        std::process::Command::new("unshare")
            .args(args)
            .arg("true")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if works(&["-n"]) {
        return Some(vec!["unshare", "-n"]);
    }
    if works(&["-rn"]) {
        return Some(vec!["unshare", "-rn"]);
    }
    crate::support::skipped(&format!(
        "http::{test}: neither `unshare -n` nor `unshare -rn` works here (no network namespace to run in); the guard is covered by unit tests with a connector that opens nothing"
    ));
    None
}

//! `mcp_tool` hooks end to end: the real binary starts the fixture MCP
//! server (`fixtures/mcp/server.py`, stdio) as the user's or the project's
//! MCP configuration defines it, calls a tool, and reads its text like a
//! command hook's stdout.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Sandbox, fixture, hooks, skipped};

/// Whether python3 runs here (the fixture server needs it).
fn python() -> bool {
    std::process::Command::new("python3")
        .args(["-c", ""])
        .status()
        .is_ok_and(|s| s.success())
}

/// A server definition that runs the fixture with `args`, noting its
/// start and calls in the sandbox.
fn server(sandbox: &Sandbox, args: &[&str]) -> Value {
    let mut server_args = vec![fixture("mcp/server.py").to_str().unwrap().to_owned()];
    server_args.extend(args.iter().map(|a| (*a).to_owned()));
    json!({
        "command": "python3",
        "args": server_args,
        "env": {
            "MCP_STARTED": sandbox.path("started.log").to_str().unwrap(),
            "MCP_CALLS": sandbox.path("calls.log").to_str().unwrap(),
        },
    })
}

/// `~/.claude.json` of the sandbox, with these user-scope servers.
fn user_servers(sandbox: &Sandbox, servers: &Value) {
    let config = json!({ "numStartups": 3, "mcpServers": servers });
    std::fs::write(sandbox.home.join(".claude.json"), config.to_string()).unwrap();
}

fn mcp_hook(server: &str, tool: &str, input: &Value) -> Value {
    json!({"type": "mcp_tool", "server": server, "tool": tool, "input": input, "name": "guard"})
}

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn a_deny_in_the_tools_answer_blocks_and_the_input_is_substituted() {
    if !python() {
        return skipped(
            "mcp::a_deny_in_the_tools_answer_blocks_and_the_input_is_substituted (python3 is absent)",
        );
    }
    let sandbox = Sandbox::new();
    user_servers(&sandbox, &json!({"guard": server(&sandbox, &[])}));
    let settings = hooks(
        "PreToolUse",
        json!([mcp_hook(
            "guard",
            "judge",
            &json!({"command": "${tool_input.command}", "where": "in ${cwd}", "n": 1})
        )]),
    );
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("rm -rf /"))
        .expect_exit(2)
        .expect_stdout_contains("the MCP guard refuses rm -rf")
        .run_in(&sandbox);
    let calls: Value = serde_json::from_str(read(&sandbox.path("calls.log")).trim()).unwrap();
    assert_eq!(
        calls,
        json!({"tool": "judge", "arguments": {
            "command": "rm -rf /",
            "where": format!("in {}", sandbox.project.display()),
            "n": 1,
        }})
    );
    // The same hook lets a harmless command through, and the server is gone.
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .expect_stdout_lacks("deny")
        .run_in(&sandbox);
}

#[test]
fn plain_text_from_the_tool_is_context() {
    if !python() {
        return skipped("mcp::plain_text_from_the_tool_is_context (python3 is absent)");
    }
    let sandbox = Sandbox::new();
    user_servers(&sandbox, &json!({"notes": server(&sandbox, &[])}));
    let settings = hooks(
        "UserPromptSubmit",
        json!([mcp_hook(
            "notes",
            "echo",
            &json!({"text": "Prompt was: ${prompt}"})
        )]),
    );
    Fire::new("UserPromptSubmit")
        .settings(&settings)
        .input(&json!({"prompt": "fix it"}))
        .expect_exit(0)
        .expect_stdout_contains("Prompt was: fix it")
        .run_in(&sandbox);
}

#[test]
fn an_error_result_or_a_missing_server_is_a_failure_of_the_hook() {
    if !python() {
        return skipped(
            "mcp::an_error_result_or_a_missing_server_is_a_failure_of_the_hook (python3 is absent)",
        );
    }
    let sandbox = Sandbox::new();
    user_servers(
        &sandbox,
        &json!({
            "guard": server(&sandbox, &[]),
            "broken": {"command": sandbox.path("no-such-server").to_str().unwrap()},
            "remote": {"type": "http", "url": "https://127.0.0.1:9/mcp"},
        }),
    );
    // Fail open by default: a warning that names the hook and the server.
    let settings = hooks("PreToolUse", json!([mcp_hook("guard", "fail", &json!({}))]));
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .expect_exit(0)
        .run_in(&sandbox);
    let message = run.system_message();
    assert!(
        message.contains("hook guard")
            && message.contains("MCP server guard")
            && message.contains("the guard is broken"),
        "{message}"
    );
    // Fail closed with onError: block.
    let mut hook = mcp_hook("guard", "fail", &json!({}));
    hook["onError"] = json!("block");
    Fire::new("PreToolUse")
        .settings(&hooks("PreToolUse", json!([hook])))
        .input(&bash("ls"))
        .expect_exit(2)
        .run_in(&sandbox);
    for (name, words) in [
        ("broken", "could not start"),
        ("remote", "stdio servers only"),
        ("absent", "no MCP server of that name"),
    ] {
        let settings = hooks("PreToolUse", json!([mcp_hook(name, "judge", &json!({}))]));
        let message = Fire::new("PreToolUse")
            .settings(&settings)
            .input(&bash("ls"))
            .run_in(&sandbox)
            .system_message();
        assert!(
            message.contains("hook guard")
                && message.contains(&format!("MCP server {name}"))
                && message.contains(words),
            "{name}: {message}"
        );
    }
}

#[test]
fn a_hanging_server_is_killed_at_the_timeout_and_the_fire_answers_in_time() {
    if !python() {
        return skipped(
            "mcp::a_hanging_server_is_killed_at_the_timeout_and_the_fire_answers_in_time (python3 is absent)",
        );
    }
    let sandbox = Sandbox::new();
    user_servers(
        &sandbox,
        &json!({
            "stuck": server(&sandbox, &["--ignore-term"]),
            "mute": server(&sandbox, &["--hang-at-initialize"]),
        }),
    );
    for (name, tool) in [("stuck", "hang"), ("mute", "judge")] {
        let _ = std::fs::remove_file(sandbox.path("started.log"));
        let mut hook = mcp_hook(name, tool, &json!({}));
        // Long enough for python to start on a loaded machine (the test
        // reads the server's pid from what it wrote on start).
        hook["timeout"] = json!(3);
        let settings = hooks("PreToolUse", json!([hook]));
        let run = sandbox.run(
            &[
                "fire",
                "PreToolUse",
                "--no-default-settings",
                "--kill-grace",
                "500ms",
                "--settings",
                sandbox.settings(&settings).to_str().unwrap(),
            ],
            &sandbox.event("PreToolUse", &bash("ls")),
        );
        assert_eq!(run.code, Some(0), "{run:?}");
        assert!(
            run.system_message().contains("timed out"),
            "{name}: {run:?}"
        );
        // Generous: the mechanism, not the speed (3 s timeout, 0.5 s grace).
        assert!(run.elapsed < Duration::from_secs(20), "{name}: {run:?}");
        let started = read(&sandbox.path("started.log"));
        let pid = started
            .split_whitespace()
            .nth(1)
            .expect("the server started");
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().next());
        assert!(
            matches!(state, None | Some("Z" | "X")),
            "{name}: the server {pid} outlived the fire: {stat}"
        );
    }
}

#[test]
fn an_untrusted_projects_server_never_starts() {
    if !python() {
        return skipped("mcp::an_untrusted_projects_server_never_starts (python3 is absent)");
    }
    let sandbox = Sandbox::new();
    let mcp_json = sandbox.project.join(".mcp.json");
    std::fs::write(
        &mcp_json,
        json!({"mcpServers": {"guard": server(&sandbox, &[])}}).to_string(),
    )
    .unwrap();
    let mut hook = mcp_hook(
        "guard",
        "judge",
        &json!({"command": "${tool_input.command}"}),
    );
    hook["onError"] = json!("block");
    let settings = hooks("PreToolUse", json!([hook]));
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .run_in(&sandbox);
    assert!(!sandbox.path("started.log").exists(), "{run:?}");
    assert_eq!(run.code, Some(2), "fails closed as asked: {run:?}");
    assert!(
        run.stdout.contains("not trusted") && run.stdout.contains("hookrun trust"),
        "{run:?}"
    );
    // Trusted, it runs.
    let trust = sandbox.run(&["trust"], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    assert!(trust.stdout.contains(".mcp.json"), "{trust:?}");
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("rm -rf /"))
        .expect_stdout_contains("the MCP guard refuses rm -rf")
        .run_in(&sandbox);
    assert!(sandbox.path("started.log").exists());
    // Untrusted again, it stops; the user's own definition of the name
    // runs instead, with a warning. (An edit of a trusted file keeps the
    // trusted content in force: `selfguard::a_trusted_mcp_json_…`.)
    let untrust = sandbox.run(&["untrust"], b"");
    assert_eq!(untrust.code, Some(0), "{untrust:?}");
    std::fs::remove_file(sandbox.path("started.log")).unwrap();
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("ls"))
        .run_in(&sandbox);
    assert!(!sandbox.path("started.log").exists(), "{run:?}");
    assert!(run.stdout.contains("not trusted"), "{run:?}");
    user_servers(&sandbox, &json!({"guard": server(&sandbox, &[])}));
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("rm -rf /"))
        .expect_exit(2)
        .expect_stdout_contains("the MCP guard refuses rm -rf")
        .run_in(&sandbox);
    assert!(
        run.stdout.contains("not trusted") && run.stdout.contains("runs instead"),
        "{run:?}"
    );
}

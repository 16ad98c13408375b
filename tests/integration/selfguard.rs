//! The guard guards itself (SPEC §9.5): nothing the agent can reach
//! switches hookrun off. One test per way an adversarial pass switched it
//! off, each against the real binary: hookrun's own commands run from the
//! agent's shell, writes to hookrun's files and to the host entries that
//! route to it, a trusted `.mcp.json` edited or shadowed, a forged state
//! file, an empty `.hookrun/` above the project, an agent hook's tools
//! reading what the rules deny, a command too large to read in time, and
//! control characters in what the host shows the person.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Sandbox, fixture, hooks, host_args, skipped};

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

/// The permission decision and its reason, in Claude Code's form.
fn decision(run: &crate::support::Run) -> (String, String) {
    let out = run.json();
    let specific = &out["hookSpecificOutput"];
    (
        specific["permissionDecision"]
            .as_str()
            .unwrap_or("none")
            .to_owned(),
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

#[test]
fn hookruns_own_commands_from_the_agents_shell_are_denied_with_the_command_to_run() {
    let sb = Sandbox::new();
    let project = sb.project.to_str().unwrap().to_owned();
    let denied = [
        format!("CLAUDECODE=1 hookrun untrust {project} </dev/null"),
        "hookrun trust".to_owned(),
        "npx -y hookrun@latest trust .".to_owned(),
        "/opt/tools/bin/hookrun-native uninstall claude-code".to_owned(),
        "node node_modules/hookrun/bin/hookrun.js install codex".to_owned(),
        "cd /tmp && sudo -E hookrun init --project".to_owned(),
        "bash -c 'hookrun -v untrust'".to_owned(),
        "$(command -v hookrun) untrust .".to_owned(),
    ];
    for command in &denied {
        let run = Fire::new("PreToolUse")
            .settings(&json!({}))
            .input(&bash(command))
            .expect_exit(2)
            .run_in(&sb);
        let (word, reason) = decision(&run);
        assert_eq!(word, "deny", "{command}");
        assert!(
            reason.contains("built-in rule hookrun-commands") && reason.contains("yourself"),
            "{command}: {reason}"
        );
    }
    // The reason names the command for the person to run.
    let run = Fire::new("PreToolUse")
        .settings(&json!({}))
        .input(&bash("npx hookrun untrust ."))
        .run_in(&sb);
    assert!(
        decision(&run)
            .1
            .contains("run `npx hookrun untrust .` yourself"),
        "{run:?}"
    );
    // hookrun's other commands are the agent's to run.
    for command in [
        "hookrun doctor",
        "hookrun list pre-tool-use",
        "hookrun explain stop",
        "echo hookrun trust",
    ] {
        Fire::new("PreToolUse")
            .settings(&json!({}))
            .input(&bash(command))
            .expect_exit(0)
            .expect_json(json!({}))
            .run_in(&sb);
    }
    // Under another host, in that host's form.
    let file = sb.settings(&json!({}));
    let stdin = serde_json::to_vec(&json!({
        "session_id": "s", "cwd": project, "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "hookrun untrust ."}
    }))
    .unwrap();
    let run = sb.run(&host_args("fire", "gemini", &file, &[]), &stdin);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.json()["decision"], "deny", "{run:?}");
}

#[test]
fn writes_to_hookruns_own_files_are_denied_and_reads_are_not() {
    let sb = Sandbox::new();
    let log = sb.path("audit.jsonl");
    let log = log.to_str().unwrap();
    let home = sb.home.to_str().unwrap();
    let fire = |fields: &Value| {
        let file = sb.settings(&json!({}));
        sb.fire_with("PreToolUse", &file, &["--log", log], fields)
    };
    let denied = [
        (
            json!({"tool_name": "Write", "tool_input": {"file_path": format!("{home}/.config/hookrun/trust.json"), "content": "{}"}}),
            "hookrun-trust-store",
        ),
        (
            json!({"tool_name": "Edit", "tool_input": {"file_path": ".hookrun/settings.json", "old_string": "Bash(rm *)", "new_string": ""}}),
            "hookrun-settings",
        ),
        (
            bash("echo 99 > ~/.state/hookrun/sessions/x/stop-blocks-0"),
            "hookrun-state",
        ),
        (bash(&format!(": > {log}")), "hookrun-log"),
        (bash("rm -rf ~/.config"), "hookrun-trust-store"),
        (
            bash("python3 -c 'open(\".hookrun/settings.json\", \"w\").write(\"{}\")'"),
            "hookrun-settings",
        ),
    ];
    for (fields, rule) in &denied {
        let run = fire(fields);
        assert_eq!(run.code, Some(2), "{fields}: {run:?}");
        let (word, reason) = decision(&run);
        assert_eq!(word, "deny", "{fields}");
        assert!(
            reason.contains(&format!("built-in rule {rule} ")),
            "{fields}: {reason}"
        );
    }
    for fields in [
        bash("cat ~/.config/hookrun/trust.json .hookrun/settings.json"),
        json!({"tool_name": "Read", "tool_input": {"file_path": format!("{home}/.config/hookrun/trust.json")}}),
        json!({"tool_name": "Write", "tool_input": {"file_path": "src/main.rs", "content": "fn main() {}"}}),
        bash("echo x > notes.txt"),
    ] {
        let run = fire(&fields);
        assert_eq!((run.code, run.json()), (Some(0), json!({})), "{fields}");
    }
}

#[test]
fn only_hookruns_entries_of_a_hosts_file_in_the_project_are_protected() {
    let sb = Sandbox::new();
    let file = sb.project.join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}\n",
    )
    .unwrap();
    let install = sb.run(
        &[
            "install",
            "claude-code",
            "--binary",
            "/usr/local/bin/hookrun",
        ],
        b"",
    );
    assert_eq!(install.code, Some(0), "{install:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("/usr/local/bin/hookrun fire"), "{text}");
    let edit = |old: &str, new: &str| {
        json!({"tool_name": "Edit", "tool_input": {
            "file_path": file.to_str().unwrap(), "old_string": old, "new_string": new}})
    };
    // The user's own part stays theirs.
    Fire::new("PreToolUse")
        .settings(&json!({}))
        .input(&edit("Bash(ls)", "Bash(ls *)"))
        .expect_exit(0)
        .expect_json(json!({}))
        .run_in(&sb);
    // hookrun's entries do not.
    let run = Fire::new("PreToolUse")
        .settings(&json!({}))
        .input(&edit("/usr/local/bin/hookrun fire", "true"))
        .run_in(&sb);
    let (word, reason) = decision(&run);
    assert_eq!(word, "deny", "{run:?}");
    assert!(
        reason.contains("built-in rule host-entries")
            && reason.contains("hookrun uninstall claude-code"),
        "{reason}"
    );
    // Nor may another file turn every hook off.
    let local = json!({"tool_name": "Write", "tool_input": {
        "file_path": sb.project.join(".claude/settings.local.json").to_str().unwrap(),
        "content": "{\"disableAllHooks\": true}"}});
    let run = Fire::new("PreToolUse")
        .settings(&json!({}))
        .input(&local)
        .run_in(&sb);
    assert_eq!(decision(&run).0, "deny", "{run:?}");
    let run = Fire::new("PreToolUse")
        .settings(&json!({}))
        .input(&bash("rm .claude/settings.json"))
        .run_in(&sb);
    assert_eq!(decision(&run).0, "deny", "{run:?}");
}

/// Settings with `disableBuiltinRules` (and an allow rule that would
/// allow the call) in one file, at `rel` under the sandbox.
fn relaxing(sb: &Sandbox, rel: &str) {
    sb.write(
        rel,
        &json!({
            "disableBuiltinRules": ["hookrun-commands"],
            "permissions": {"allow": ["Bash"]}
        })
        .to_string(),
    );
}

#[test]
fn the_builtin_rules_cannot_be_turned_off_from_user_project_or_local_settings() {
    let event = bash("hookrun untrust .");
    for rel in [
        "home/.config/hookrun/settings.json",
        "project/.hookrun/settings.json",
        "project/.hookrun/settings.local.json",
    ] {
        let sb = Sandbox::new();
        relaxing(&sb, rel);
        let run = sb.run(
            &["fire", "PreToolUse", "--trust-project"],
            &sb.event("PreToolUse", &event),
        );
        let (word, reason) = decision(&run);
        assert_eq!(word, "deny", "{rel}: {run:?}");
        assert!(reason.contains("hookrun-commands"), "{rel}: {reason}");
        assert!(
            run.system_message()
                .contains("disableBuiltinRules: is honoured only in managed settings"),
            "{rel}: {run:?}"
        );
    }
    // A --settings file cannot either.
    let sb = Sandbox::new();
    relaxing(&sb, "elsewhere/settings.json");
    let run = sb.fire_with(
        "PreToolUse",
        &sb.path("elsewhere/settings.json"),
        &[],
        &event,
    );
    assert_eq!(decision(&run).0, "deny", "{run:?}");
    // Managed settings can, by name.
    let sb = Sandbox::new();
    relaxing(&sb, "managed-settings.json");
    let run = sb.run(&["fire", "PreToolUse"], &sb.event("PreToolUse", &event));
    assert_eq!(decision(&run).0, "allow", "{run:?}");
}

#[test]
fn doctor_lists_the_builtin_rules_and_explain_shows_one_firing() {
    let sb = Sandbox::new();
    let doctor = sb.run(&["doctor"], b"");
    for name in [
        "hookrun-commands",
        "hookrun-trust-store",
        "hookrun-settings",
        "hookrun-state",
        "hookrun-log",
        "host-entries",
    ] {
        assert!(
            doctor.stdout.contains(&format!("  {name} ")),
            "{name}: {}",
            doctor.stdout
        );
    }
    let json = sb.run(&["doctor", "--format", "json"], b"");
    let rules = json.json()["builtin_rules"].as_array().unwrap().clone();
    assert!(rules.iter().all(|r| r["on"] == true), "{rules:?}");
    relaxing(&sb, "managed-settings.json");
    let json = sb.run(&["doctor", "--format", "json"], b"");
    let off: Vec<Value> = json.json()["builtin_rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["on"] == false)
        .map(|r| r["name"].clone())
        .collect();
    assert_eq!(off, [json!("hookrun-commands")]);

    let sb = Sandbox::new();
    let explain = sb.run(
        &["explain"],
        &sb.event("PreToolUse", &bash("hookrun untrust .")),
    );
    assert!(
        explain
            .stdout
            .contains("rules: deny (built-in rule hookrun-commands matched"),
        "{}",
        explain.stdout
    );
}

/// Settings in the project that deny `rm`, trusted (from a terminal, as
/// the person would).
fn trusted_project(sb: &Sandbox) {
    sb.write(
        "project/.hookrun/settings.json",
        &json!({"permissions": {"deny": ["Bash(rm *)"]}}).to_string(),
    );
    let trust = sb.run(&["trust"], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
}

#[test]
fn weakening_commands_refuse_in_an_agents_shell_unless_told_yes() {
    let mut sb = Sandbox::new();
    trusted_project(&sb);
    let rm = sb.event("PreToolUse", &bash("rm -rf build"));
    sb.env("CLAUDECODE", "1");
    // What the agent's Bash tool runs: the marker, and no terminal.
    let untrust = sb.run(&["untrust", sb.project.to_str().unwrap()], b"");
    assert_eq!(untrust.code, Some(1), "{untrust:?}");
    assert!(
        untrust.stderr.contains("refusing to untrust")
            && untrust.stderr.contains("CLAUDECODE")
            && untrust.stderr.contains("--yes"),
        "{untrust:?}"
    );
    let run = sb.run(&["fire", "PreToolUse"], &rm);
    assert_eq!(
        decision(&run).0,
        "deny",
        "the trusted deny rule still holds: {run:?}"
    );

    // Trusting content that is not what was trusted refuses too.
    sb.write("project/.hookrun/settings.json", "{}");
    let trust = sb.run(&["trust"], b"");
    assert_eq!(trust.code, Some(1), "{trust:?}");
    assert!(trust.stderr.contains("refusing to trust"), "{trust:?}");
    let run = sb.run(&["fire", "PreToolUse"], &rm);
    assert_eq!(decision(&run).0, "deny", "{run:?}");

    // And removing the host entries.
    let install = sb.run(
        &[
            "install",
            "claude-code",
            "--binary",
            "/usr/local/bin/hookrun",
        ],
        b"",
    );
    assert_eq!(
        install.code,
        Some(0),
        "install is not weakening: {install:?}"
    );
    let before = std::fs::read_to_string(sb.project.join(".claude/settings.json")).unwrap();
    let uninstall = sb.run(&["uninstall", "claude-code"], b"");
    assert_eq!(uninstall.code, Some(1), "{uninstall:?}");
    assert!(
        uninstall.stderr.contains("refusing to uninstall"),
        "{uninstall:?}"
    );
    assert_eq!(
        std::fs::read_to_string(sb.project.join(".claude/settings.json")).unwrap(),
        before
    );
    // Every host at once is no way around it.
    let all = sb.run(&["uninstall", "--all"], b"");
    assert_eq!(all.code, Some(1), "{all:?}");
    assert!(
        all.stderr.contains("refusing to uninstall --all"),
        "{all:?}"
    );
    assert_eq!(
        std::fs::read_to_string(sb.project.join(".claude/settings.json")).unwrap(),
        before
    );

    // Told so, each goes ahead.
    let untrust = sb.run(&["untrust", "--yes"], b"");
    assert_eq!(untrust.code, Some(0), "{untrust:?}");
    let uninstall = sb.run(&["uninstall", "claude-code", "--yes"], b"");
    assert_eq!(uninstall.code, Some(0), "{uninstall:?}");
}

/// Whether python3 runs here (the fixture MCP server needs it).
fn python() -> bool {
    std::process::Command::new("python3")
        .args(["-c", ""])
        .status()
        .is_ok_and(|s| s.success())
}

/// The fixture MCP server, noting its start in `started`.
fn server(sb: &Sandbox, started: &str) -> Value {
    json!({
        "command": "python3",
        "args": [fixture("mcp/server.py").to_str().unwrap()],
        "env": {"MCP_STARTED": sb.path(started).to_str().unwrap()},
    })
}

fn mcp_guard() -> Value {
    let mut hook = json!({"type": "mcp_tool", "server": "guard", "tool": "judge",
        "input": {"command": "${tool_input.command}"}, "name": "guard"});
    hook["onError"] = json!("block");
    hooks("PreToolUse", json!([hook]))
}

crate::platform::unix_only! {
#[test]
fn a_trusted_mcp_json_stays_in_force_when_edited_replaced_by_a_fifo_or_deleted() {
    if !python() {
        return skipped(
            "selfguard::a_trusted_mcp_json_stays_in_force_when_edited_replaced_by_a_fifo_or_deleted (python3 is absent)",
        );
    }
    let sb = Sandbox::new();
    let mcp_json = sb.project.join(".mcp.json");
    let trusted = json!({"mcpServers": {"guard": server(&sb, "trusted.log")}});
    std::fs::write(&mcp_json, trusted.to_string()).unwrap();
    let trust = sb.run(&["trust"], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    let settings = mcp_guard();
    let check = |what: &str| {
        let _ = std::fs::remove_file(sb.path("trusted.log"));
        let run = sb.fire_with(
            "PreToolUse",
            &sb.settings(&settings),
            &["--fail-closed"],
            &bash("rm -rf build"),
        );
        assert_eq!(run.code, Some(2), "{what}: {run:?}");
        assert!(
            run.stdout.contains("the MCP guard refuses rm -rf"),
            "{what}: the trusted guard answered: {run:?}"
        );
        assert!(sb.path("trusted.log").exists(), "{what}: {run:?}");
        assert!(!sb.path("agent.log").exists(), "{what}: {run:?}");
        run
    };
    check("trusted");
    // One space appended.
    std::fs::write(&mcp_json, format!("{trusted} ")).unwrap();
    let run = check("edited");
    assert!(
        run.stdout.contains("changed since it was trusted"),
        "{run:?}"
    );
    // Another server put in its place.
    std::fs::write(
        &mcp_json,
        json!({"mcpServers": {"guard": server(&sb, "agent.log")}}).to_string(),
    )
    .unwrap();
    check("replaced");
    // A FIFO in its place.
    std::fs::remove_file(&mcp_json).unwrap();
    nix::unistd::mkfifo(&mcp_json, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let run = check("a FIFO");
    assert!(run.stdout.contains("cannot be read"), "{run:?}");
    // Deleted.
    std::fs::remove_file(&mcp_json).unwrap();
    let run = check("deleted");
    assert!(
        run.stdout.contains("was removed since it was trusted"),
        "{run:?}"
    );
}
}

#[test]
fn a_same_name_server_from_another_scope_does_not_replace_a_trusted_one() {
    if !python() {
        return skipped(
            "selfguard::a_same_name_server_from_another_scope_does_not_replace_a_trusted_one (python3 is absent)",
        );
    }
    let sb = Sandbox::new();
    std::fs::write(
        sb.project.join(".mcp.json"),
        json!({"mcpServers": {"guard": server(&sb, "trusted.log")}}).to_string(),
    )
    .unwrap();
    let trust = sb.run(&["trust"], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    // What Claude Code itself would prefer: the local scope of ~/.claude.json.
    let project = sb.project.to_str().unwrap();
    let claude_json =
        json!({"projects": {project: {"mcpServers": {"guard": server(&sb, "agent.log")}}}});
    std::fs::write(sb.home.join(".claude.json"), claude_json.to_string()).unwrap();
    let run = Fire::new("PreToolUse")
        .settings(&mcp_guard())
        .input(&bash("rm -rf build"))
        .expect_exit(2)
        .run_in(&sb);
    assert!(sb.path("trusted.log").exists(), "{run:?}");
    assert!(!sb.path("agent.log").exists(), "{run:?}");
    let message = run.system_message();
    assert!(
        message.contains(".claude.json")
            && message.contains(".mcp.json")
            && message.contains("the trusted one runs"),
        "{message}"
    );
}

/// The stop-loop counter files of the sandbox's state folder.
fn counters(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(counters(&path));
        } else if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("stop-blocks"))
        {
            found.push(path);
        }
    }
    found
}

#[test]
fn a_forged_stop_counter_does_not_lower_the_stop_loop_guard() {
    let sb = Sandbox::new();
    let settings = hooks(
        "Stop",
        json!([{"command": "echo 'tests fail: fix them' >&2; exit 2"}]),
    );
    let stop = json!({"stop_hook_active": true});
    Fire::new("Stop")
        .settings(&settings)
        .input(&stop)
        .expect_exit(2)
        .run_in(&sb);
    let files = counters(&sb.home.join(".state/hookrun"));
    assert_eq!(files.len(), 1, "{files:?}");
    // What the agent writes to stop with failing tests.
    std::fs::write(&files[0], "99").unwrap();
    Fire::new("Stop")
        .settings(&settings)
        .input(&stop)
        .expect_exit(2)
        .expect_stderr_contains("tests fail")
        .expect_stdout_contains("not believed")
        .run_in(&sb);
}

#[test]
fn an_empty_hookrun_folder_above_the_project_does_not_move_it() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &json!({"permissions": {"deny": ["Edit(/secrets/**)"]}}).to_string(),
    );
    let trust = sb.run(&["trust"], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    // Codex names no project folder: discovery finds it from the cwd.
    let patch = "*** Begin Patch\n*** Update File: secrets/key.txt\n@@\n-a\n+b\n*** End Patch\n";
    let event = serde_json::to_vec(&json!({
        "session_id": "s", "turn_id": "t", "cwd": sb.project.to_str().unwrap(),
        "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
        "tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_use_id": "c"
    }))
    .unwrap();
    let fire = || sb.run(&["fire", "--host", "codex"], &event);
    let run = fire();
    assert_eq!(decision(&run).0, "deny", "{run:?}");
    // One `mkdir ../.hookrun`.
    std::fs::create_dir_all(sb.path(".hookrun")).unwrap();
    let run = fire();
    assert_eq!(
        decision(&run).0,
        "deny",
        "the anchored rule still holds: {run:?}"
    );
    // A nested layer's anchored rules anchor at the layer.
    sb.write(
        "project/sub/.hookrun/settings.json",
        &json!({"permissions": {"deny": ["Edit(/local/**)"]}}).to_string(),
    );
    let trust = sb.run(&["trust", sb.project.join("sub").to_str().unwrap()], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    let sub = sb.project.join("sub");
    let edit = json!({"tool_name": "Edit", "tool_input": {
        "file_path": sub.join("local/x").to_str().unwrap(), "old_string": "a", "new_string": "b"},
        "cwd": sub.to_str().unwrap()});
    let run = sb.run(&["fire", "PreToolUse"], &sb.event("PreToolUse", &edit));
    assert_eq!(decision(&run).0, "deny", "{run:?}");
}

crate::platform::unix_only! {
#[test]
fn an_agent_hooks_tools_obey_the_fires_read_deny_rules() {
    use crate::prompt::{Answer, Model, sandbox};
    let model = Model::start(|received| {
        let turn = received.body["messages"]
            .as_array()
            .map_or(0, |m| m.iter().filter(|m| m["role"] == "assistant").count());
        let tool = |name: &str, input: Value| {
            Answer::Body(
                json!({"id": "m", "type": "message", "role": "assistant", "model": "m",
                "content": [{"type": "tool_use", "id": format!("t{turn}"), "name": name, "input": input}],
                "stop_reason": "tool_use"}),
            )
        };
        match turn {
            0 => tool("Read", json!({"file_path": ".env"})),
            1 => tool(
                "Grep",
                json!({"pattern": "SECRET", "output_mode": "content"}),
            ),
            2 => tool("Glob", json!({"pattern": "**/.env*"})),
            3 => tool("Read", json!({"file_path": "link-to-env"})),
            _ => tool("StructuredOutput", json!({"ok": true, "reason": "fine"})),
        }
    });
    let sb = sandbox(&model);
    std::fs::write(sb.project.join(".env"), "TOKEN=SECRET-VALUE-41\n").unwrap();
    std::fs::write(sb.project.join("notes.txt"), "nothing SECRET here\n").unwrap();
    std::os::unix::fs::symlink(sb.project.join(".env"), sb.project.join("link-to-env")).unwrap();
    let settings = json!({
        "permissions": {"deny": ["Read(**/.env)"]},
        "hooks": {"PreToolUse": [{"type": "agent", "prompt": "check $ARGUMENTS"}]}
    });
    Fire::new("PreToolUse").settings(&settings).input(&bash("make")).expect_exit(0).run_in(&sb);
    let requests = model.requests();
    assert!(requests.len() >= 5, "{requests:?}");
    for request in &requests {
        let body = request.body.to_string();
        assert!(!body.contains("SECRET-VALUE-41"), "the secret left: {body}");
    }
    let last_results = |i: usize| {
        requests[i].body["messages"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()["content"]
            .to_string()
    };
    assert!(
        last_results(1).contains("refused") && last_results(1).contains("Read(**/.env)"),
        "{}",
        last_results(1)
    );
    assert!(last_results(2).contains("notes.txt"), "{}", last_results(2));
    assert!(last_results(3).contains("left out"), "{}", last_results(3));
    assert!(last_results(4).contains("refused"), "{}", last_results(4));
}
}

#[test]
fn rule_evaluation_is_bounded_by_the_deadline() {
    let sb = Sandbox::new();
    // 800 KB of nested wrappers: reading it takes seconds of CPU (each
    // wrapper may start the command, and each reading is kept).
    let command = format!("{}ls", "env ".repeat(200_000));
    let settings = json!({"permissions": {"deny": ["Bash(rm *)"]}});
    let file = sb.settings(&settings);
    let run = sb.fire_with("PreToolUse", &file, &["--deadline", "1"], &bash(&command));
    assert!(
        run.elapsed < Duration::from_millis(2500),
        "a 1 s deadline took {:?}",
        run.elapsed
    );
    let (word, reason) = decision(&run);
    assert_eq!(word, "deny", "{}", run.stderr);
    assert!(reason.contains("cannot judge"), "{reason}");
}

#[test]
fn control_characters_reach_the_person_escaped_and_the_log_exactly() {
    let sb = Sandbox::new();
    let log = sb.path("audit.jsonl");
    // A hook quoting agent-written text: ESC, BEL, an OSC 52 clipboard
    // write, U+202E.
    let settings = hooks(
        "PreToolUse",
        json!([
            {"command": "printf '{\"systemMessage\": \"note \\\\u001b[2K hidden\"}'"},
            {"command": "printf 'blocked: \\033]52;c;ZXZpbA==\\007 \\342\\200\\256txt.exe\\n' >&2; exit 2"}
        ]),
    );
    let file = sb.settings(&settings);
    let run = sb.fire_with(
        "PreToolUse",
        &file,
        &["--log", log.to_str().unwrap()],
        &bash("make"),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    for (what, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        assert!(
            !text.contains(['\u{1b}', '\u{7}', '\u{202e}']),
            "{what} holds raw control characters: {text:?}"
        );
    }
    let (_, reason) = decision(&run);
    assert!(reason.contains("\\x1b]52;c;ZXZpbA==\\x07"), "{reason:?}");
    assert!(reason.contains("\\u{202e}"), "{reason:?}");
    assert!(
        run.system_message().contains("note \\x1b[2K hidden"),
        "{run:?}"
    );
    // The audit log keeps what the hooks said.
    let line: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    let logged = line["reason"].as_str().unwrap();
    assert!(logged.contains("\u{1b}]52;c;ZXZpbA==\u{7}"), "{logged:?}");
    assert!(logged.contains('\u{202e}'), "{logged:?}");
}

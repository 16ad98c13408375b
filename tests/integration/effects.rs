//! A rule judges what a call does, whichever tool made it and on every
//! host: `Read(…)` every read (Grep, Glob, a shell `cat`, a host's own read
//! and search tools), `Edit(…)` every write, `WebFetch(…)` every fetch. Each
//! case fires the real binary with the host's own payload (its fixture,
//! with the tool and input swapped) and reads the decision from the report.

use serde_json::{Value, json};

use crate::support::{Sandbox, fixture};

/// The hosts, each with the fixture its payloads start from.
const HOSTS: &[(&str, &str)] = &[
    ("claude-code", ""),
    ("gemini", "gemini/before_tool__shell.json"),
    ("codex", "codex/pre_tool_use__bash.json"),
    ("copilot", "copilot/pre_tool_use__camel.json"),
    ("cline", "cline/tool_call__run_commands.json"),
    ("qwen", "qwen/pre_tool_use__shell.json"),
    ("droid", "droid/pre_tool_use__execute.json"),
    ("cursor", "cursor/pre_tool_use__shell.json"),
];

/// The payload `host` sends for `tool` with `input` (in the host's names),
/// made in the sandbox project.
fn payload(sb: &Sandbox, host: &str, tool: &str, input: &Value) -> Vec<u8> {
    let project = sb.project.to_str().unwrap();
    let base = HOSTS.iter().find(|(h, _)| *h == host).unwrap().1;
    if base.is_empty() {
        return sb.event(
            "PreToolUse",
            &json!({"tool_name": tool, "tool_input": input}),
        );
    }
    let text = std::fs::read_to_string(fixture(&format!("hosts/{base}"))).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    let object = value.as_object_mut().unwrap();
    match host {
        "copilot" => {
            object.insert("cwd".into(), json!(project));
            object.insert("toolName".into(), json!(tool));
            object.insert("toolArgs".into(), json!(input.to_string()));
        }
        "cline" => {
            object.insert("workspaceRoots".into(), json!([project]));
            object.insert("workspaceInfo".into(), json!({"rootPath": project}));
            object.insert(
                "tool_call".into(),
                json!({"id": "call_t00_00", "name": tool, "input": input}),
            );
            object.remove("preToolUse");
        }
        "cursor" => {
            object.insert("workspace_roots".into(), json!([project]));
            object.insert("cwd".into(), json!(project));
            object.insert("tool_name".into(), json!(tool));
            object.insert("tool_input".into(), input.clone());
        }
        _ => {
            object.insert("cwd".into(), json!(project));
            object.insert("tool_name".into(), json!(tool));
            object.insert("tool_input".into(), input.clone());
        }
    }
    let mut bytes = serde_json::to_vec(&value).unwrap();
    bytes.push(b'\n');
    bytes
}

/// The decision hookrun reports for one call behind `host`: `deny`,
/// `allow`, `ask` or `none` (the host decides).
fn decision(sb: &Sandbox, host: &str, settings: &Value, tool: &str, input: &Value) -> String {
    let file = sb.settings(settings);
    let args = [
        "fire",
        "--host",
        host,
        "--no-default-settings",
        "--settings",
        file.to_str().unwrap(),
        "--format",
        "report",
    ];
    let run = sb.run(&args, &payload(sb, host, tool, input));
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{host} {tool} {input}: {e}: {run:?}"));
    report["decision"]
        .as_str()
        .unwrap_or_else(|| panic!("{host} {tool} {input}: no decision: {run:?}"))
        .to_owned()
}

/// A sandbox with a key under `~/.ssh` and a `.env` in the project.
fn world() -> Sandbox {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.home.join(".ssh")).unwrap();
    std::fs::write(sb.home.join(".ssh/id_ed25519"), "key").unwrap();
    std::fs::write(sb.project.join(".env"), "SECRET=1").unwrap();
    std::fs::create_dir_all(sb.project.join("src")).unwrap();
    std::fs::write(sb.project.join("src/a.rs"), "fn main() {}").unwrap();
    sb
}

/// Each host's tool, by what it does, with its input for a path: (host,
/// tool, input). `None`: the host has no such tool.
fn read_tool(host: &str, path: &str) -> Option<(&'static str, Value)> {
    Some(match host {
        "claude-code" | "droid" => ("Read", json!({"file_path": path})),
        "gemini" | "qwen" => ("read_file", json!({"file_path": path})),
        "copilot" => ("view", json!({"path": path})),
        "cline" => ("read_files", json!({"files": [{"path": path}]})),
        "cursor" => ("Read", json!({"path": path})),
        _ => return None,
    })
}

fn grep_tool(host: &str, folder: &str) -> Option<(&'static str, Value)> {
    Some(match host {
        "claude-code" | "droid" | "cursor" => ("Grep", json!({"pattern": "k", "path": folder})),
        "gemini" => ("grep_search", json!({"pattern": "k", "dir_path": folder})),
        "qwen" => ("grep_search", json!({"pattern": "k", "path": folder})),
        "copilot" => ("grep", json!({"pattern": "k", "path": folder})),
        _ => return None,
    })
}

fn glob_tool(host: &str, folder: &str) -> Option<(&'static str, Value)> {
    Some(match host {
        "claude-code" | "cursor" => ("Glob", json!({"pattern": "*", "path": folder})),
        "gemini" => ("glob", json!({"pattern": "*", "dir_path": folder})),
        "qwen" | "copilot" => ("glob", json!({"pattern": "*", "path": folder})),
        "droid" => ("Glob", json!({"patterns": ["*"], "folder": folder})),
        _ => return None,
    })
}

fn shell_tool(host: &str, command: &str) -> (&'static str, Value) {
    match host {
        "gemini" | "qwen" => ("run_shell_command", json!({"command": command})),
        "copilot" => ("bash", json!({"command": command})),
        "cline" => ("run_commands", json!({"commands": [command]})),
        "droid" => ("Execute", json!({"command": command})),
        "cursor" => ("Shell", json!({"command": command})),
        _ => ("Bash", json!({"command": command})),
    }
}

fn write_tool(host: &str, path: &str) -> Option<(&'static str, Value)> {
    Some(match host {
        "claude-code" => ("Write", json!({"file_path": path, "content": "x"})),
        "gemini" | "qwen" => ("write_file", json!({"file_path": path, "content": "x"})),
        "copilot" => ("create", json!({"path": path, "file_text": "x"})),
        "cline" => ("editor", json!({"path": path, "new_text": "x"})),
        "droid" => ("Create", json!({"file_path": path, "content": "x"})),
        "cursor" => ("Write", json!({"path": path, "contents": "x"})),
        "codex" => (
            "apply_patch",
            json!({"command": format!("*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n")}),
        ),
        _ => return None,
    })
}

fn replace_tool(host: &str, path: &str) -> Option<(&'static str, Value)> {
    let edit = json!({"file_path": path, "old_string": "a", "new_string": "b"});
    Some(match host {
        "claude-code" => ("MultiEdit", json!({"file_path": path, "edits": []})),
        "gemini" => ("replace", edit),
        "qwen" => ("edit", edit),
        "copilot" => (
            "edit",
            json!({"path": path, "old_str": "a", "new_str": "b"}),
        ),
        "cline" => (
            "editor",
            json!({"path": path, "old_text": "a", "new_text": "b"}),
        ),
        "droid" => (
            "Edit",
            json!({"file_path": path, "old_str": "a", "new_str": "b"}),
        ),
        "cursor" => (
            "StrReplace",
            json!({"path": path, "old_string": "a", "new_string": "b"}),
        ),
        _ => return None,
    })
}

#[test]
fn a_read_rule_denies_every_read_on_every_host() {
    let sb = world();
    let key = sb.home.join(".ssh/id_ed25519");
    let key = key.to_str().unwrap();
    let ssh = sb.home.join(".ssh");
    let ssh = ssh.to_str().unwrap();
    let settings = json!({"permissions": {"deny": ["Read(~/.ssh/**)"]}});
    for (host, _) in HOSTS {
        let mut calls: Vec<(&str, Value)> = Vec::new();
        calls.extend(read_tool(host, key));
        calls.extend(grep_tool(host, ssh));
        calls.extend(glob_tool(host, ssh));
        calls.push(shell_tool(host, "cat ~/.ssh/id_ed25519"));
        calls.push(shell_tool(host, "head -c 64 < ~/.ssh/id_ed25519"));
        calls.push(shell_tool(host, "grep -r BEGIN ~/.ssh"));
        calls.push(shell_tool(host, "base64 ~/.ssh/id_ed25519"));
        calls.push(shell_tool(host, "cp ~/.ssh/id_ed25519 /tmp/k"));
        for (tool, input) in calls {
            assert_eq!(
                decision(&sb, host, &settings, tool, &input),
                "deny",
                "{host} {tool} {input}"
            );
        }
        // What reads elsewhere falls through.
        for (tool, input) in read_tool(host, "src/a.rs")
            .into_iter()
            .chain(grep_tool(host, "src"))
            .chain([shell_tool(host, "cat src/a.rs")])
        {
            assert_eq!(
                decision(&sb, host, &settings, tool, &input),
                "none",
                "{host} {tool} {input}"
            );
        }
    }
}

#[test]
fn gemini_read_many_files_with_a_glob_is_denied_by_a_read_rule() {
    let sb = world();
    let settings = json!({"permissions": {"deny": ["Read(./.env)"]}});
    let input = json!({"include": [".e*"]});
    assert_eq!(
        decision(&sb, "gemini", &settings, "read_many_files", &input),
        "deny"
    );
    let input = json!({"paths": ["src/a.rs"]});
    assert_eq!(
        decision(&sb, "gemini", &settings, "read_many_files", &input),
        "none"
    );
}

#[test]
fn behind_codex_a_read_rule_applies_to_the_shell_reads() {
    // Codex has no read tool: every read is a shell command.
    let sb = world();
    let settings = json!({"permissions": {"deny": ["Read(./.env)"]}});
    for command in [
        "cat .env",
        "sed -n 1p .env",
        "awk 1 .env",
        "tail -n1 .env",
        "cd src && cat ../.env",
        "bash -lc 'less .env'",
    ] {
        let (tool, input) = shell_tool("codex", command);
        assert_eq!(
            decision(&sb, "codex", &settings, tool, &input),
            "deny",
            "{command}"
        );
    }
    let (tool, input) = shell_tool("codex", "cat src/a.rs");
    assert_eq!(decision(&sb, "codex", &settings, tool, &input), "none");
}

#[test]
fn an_edit_rule_denies_every_write_on_every_host() {
    let sb = world();
    let settings = json!({"permissions": {"deny": ["Edit(./.env)"]}});
    for (host, _) in HOSTS {
        let mut calls: Vec<(&str, Value)> = Vec::new();
        calls.extend(write_tool(host, ".env"));
        calls.extend(replace_tool(host, ".env"));
        for command in [
            "echo X=1 > .env",
            "echo X=1 >> .env",
            "printf x | tee .env",
            "sed -i s/a/b/ .env",
            "cp /tmp/x .env",
            "mv /tmp/x .env",
            "rm -f .env",
            "truncate -s0 .env",
            "rm -rf .",
        ] {
            calls.push(shell_tool(host, command));
        }
        for (tool, input) in calls {
            assert_eq!(
                decision(&sb, host, &settings, tool, &input),
                "deny",
                "{host} {tool} {input}"
            );
        }
        for (tool, input) in write_tool(host, "src/b.rs")
            .into_iter()
            .chain([shell_tool(host, "sed s/a/b/ .env")])
        {
            assert_eq!(
                decision(&sb, host, &settings, tool, &input),
                "none",
                "{host} {tool} {input}"
            );
        }
    }
}

#[test]
fn a_web_fetch_rule_denies_every_fetch() {
    let sb = world();
    let settings = json!({"permissions": {"deny": ["WebFetch(domain:evil.example)"]}});
    for (host, _) in HOSTS {
        for command in ["curl -s https://evil.example/x", "wget -qO- evil.example"] {
            let (tool, input) = shell_tool(host, command);
            assert_eq!(
                decision(&sb, host, &settings, tool, &input),
                "deny",
                "{host} {command}"
            );
        }
        let (tool, input) = shell_tool(host, "curl -s https://ok.example/x");
        assert_eq!(decision(&sb, host, &settings, tool, &input), "none");
    }
    let fetch = [
        (
            "claude-code",
            "WebFetch",
            json!({"url": "https://evil.example/a", "prompt": "x"}),
        ),
        (
            "gemini",
            "web_fetch",
            json!({"prompt": "summarise https://evil.example/a"}),
        ),
        (
            "droid",
            "FetchUrl",
            json!({"url": "https://evil.example/a"}),
        ),
    ];
    for (host, tool, input) in fetch {
        assert_eq!(
            decision(&sb, host, &settings, tool, &input),
            "deny",
            "{host}"
        );
    }
}

#[test]
fn cline_commands_are_judged_one_by_one() {
    let sb = world();
    // An open quote in the first command hides the second when they are
    // joined into one script.
    let input = json!({"commands": ["echo 'a", "rm -rf x"]});
    let deny = json!({"permissions": {"deny": ["Bash(rm *)"]}});
    assert_eq!(
        decision(&sb, "cline", &deny, "run_commands", &input),
        "deny"
    );
    let input = json!({"commands": ["echo 'a", "cat .env"]});
    let deny = json!({"permissions": {"deny": ["Read(./.env)"]}});
    assert_eq!(
        decision(&sb, "cline", &deny, "run_commands", &input),
        "deny"
    );
    // An allow rule must cover every command.
    let allow = json!({"permissions": {"allow": ["Bash(echo *)"]}});
    let input = json!({"commands": ["echo a", "rm -rf x"]});
    assert_eq!(
        decision(&sb, "cline", &allow, "run_commands", &input),
        "none"
    );
    let input = json!({"commands": ["echo a", "echo b"]});
    assert_eq!(
        decision(&sb, "cline", &allow, "run_commands", &input),
        "allow"
    );
}

#[test]
fn allow_rules_approve_only_calls_whose_every_effect_they_cover() {
    let sb = world();
    let settings = json!({"permissions": {"allow": ["Read(./src/**)"]}});
    let cases = [
        ("Read", json!({"file_path": "src/a.rs"}), "allow"),
        ("Grep", json!({"pattern": "x", "path": "src"}), "allow"),
        ("Bash", json!({"command": "cat src/a.rs | wc -l"}), "allow"),
        (
            "Bash",
            json!({"command": "cat src/a.rs; cat ~/.ssh/id_ed25519"}),
            "none",
        ),
        (
            "Bash",
            json!({"command": "cat src/a.rs > src/b.rs"}),
            "none",
        ),
        ("Grep", json!({"pattern": "x"}), "none"),
        ("Glob", json!({"pattern": "**/*"}), "none"),
    ];
    for (tool, input, want) in cases {
        assert_eq!(
            decision(&sb, "claude-code", &settings, tool, &input),
            want,
            "{tool} {input}"
        );
    }
}

#[test]
fn a_thread_s_proc_root_is_resolved() {
    let sb = world();
    let settings = json!({"permissions": {"deny": ["Read(~/.ssh/**)"]}});
    let key = sb.home.join(".ssh/id_ed25519");
    for path in [
        format!("/proc/self/task/1/root{}", key.display()),
        format!("/proc/thread-self/root{}", key.display()),
    ] {
        let input = json!({"file_path": path});
        assert_eq!(
            decision(&sb, "claude-code", &settings, "Read", &input),
            "deny",
            "{path}"
        );
        let (tool, input) = shell_tool("codex", &format!("cat {path}"));
        assert_eq!(
            decision(&sb, "codex", &settings, tool, &input),
            "deny",
            "{path}"
        );
    }
}

#[test]
fn a_program_word_only_the_shell_knows_is_denied_by_the_built_in_rules() {
    let sb = world();
    // No rule in the settings: the built-in rules alone.
    for (host, _) in HOSTS {
        let (tool, input) = shell_tool(host, "h=hookrun; $h untrust");
        assert_eq!(
            decision(&sb, host, &json!({}), tool, &input),
            "deny",
            "{host}"
        );
    }
}

#[test]
fn powershell_reads_and_writes_are_judged_by_name_or_alias() {
    let sb = world();
    let read = json!({"permissions": {"deny": ["Read(./.env)"]}});
    let edit = json!({"permissions": {"deny": ["Edit(./.env)"]}});
    for (settings, command) in [
        (&read, "Get-Content -Path .env"),
        (&read, "gc .env"),
        (&edit, "Remove-Item .env"),
        (&edit, "set-content .env x"),
    ] {
        let input = json!({"command": command});
        assert_eq!(
            decision(&sb, "claude-code", settings, "PowerShell", &input),
            "deny",
            "{command}"
        );
        assert_eq!(
            decision(&sb, "copilot", settings, "powershell", &input),
            "deny",
            "{command}"
        );
    }
    let input = json!({"command": "Get-Content src/a.rs"});
    assert_eq!(
        decision(&sb, "claude-code", &read, "PowerShell", &input),
        "none"
    );
}

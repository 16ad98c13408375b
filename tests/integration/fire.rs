//! `hookrun fire` end to end: input, settings sources and shapes, the hook
//! process's stdin/env/cwd, sequential chaining, dedup.

use std::time::Duration;

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Sandbox, fixture, hooks, read_when_ready};

#[test]
fn unusable_stdin_exits_1_with_one_line() {
    let sb = Sandbox::new();
    for (input, needle) in [
        (&b""[..], "stdin is empty"),
        (b"not json", "not valid JSON"),
        (b"[1,2]", "not an object"),
        (b"{\"tool_name\":\"Bash\"}", "no event name"),
        (b"{\"hook_event_name\":7}", "must be a string"),
    ] {
        let run = sb.run(&["fire", "--no-default-settings"], input);
        assert_eq!(run.code, Some(1), "{input:?}: {run:?}");
        assert_eq!(run.stdout, "");
        assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
        assert!(
            run.stderr.starts_with("hookrun: ") && run.stderr.contains(needle),
            "{run:?}"
        );

        let run = sb.run(&["fire", "--no-default-settings", "--fail-closed"], input);
        assert_eq!(run.code, Some(2), "{run:?}");
        assert!(run.stderr.contains(needle));
    }
}

#[test]
fn no_matching_hook_answers_an_empty_object() {
    let sb = Sandbox::new();
    let run = Fire::new("PreToolUse")
        .settings(&hooks("Stop", json!([{"command": "exit 2"}])))
        .input(&json!({"tool_name": "Bash"}))
        .run_in(&sb);
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(0), "{}\n", "")
    );
}

#[test]
fn event_names_are_lenient_and_come_from_argument_or_input() {
    let sb = Sandbox::new();
    let settings = sb.settings(&hooks(
        "pre-tool-use",
        json!([{"command": "echo ran >&2; exit 2"}]),
    ));
    let settings = settings.to_str().unwrap();
    for name in ["pre_tool_use", "PreToolUse", "pre-tool-use", "preToolUse"] {
        let run = sb.run(
            &crate::support::fire_args(name, std::path::Path::new(settings), &[]),
            &sb.event("SomethingElse", &json!({"tool_name": "Bash"})),
        );
        assert_eq!(run.code, Some(2), "{name}: {run:?}");
        assert_eq!(run.stderr, "ran\n");
    }
    // No argument: the input's hook_event_name decides.
    let run = sb.run(
        &["fire", "--no-default-settings", "--settings", settings],
        &sb.event("pre_tool_use", &json!({"tool_name": "Bash"})),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
}

#[test]
fn hook_stdin_is_the_event_byte_for_byte() {
    let sb = Sandbox::new();
    let out = sb.path("stdin.json");
    let settings = sb.settings(&hooks(
        "PreToolUse",
        json!([{"command": format!("cat > '{}'", out.display())}]),
    ));
    // Key order kept, odd spacing and unicode normalised to compact JSON,
    // hook_event_name replaced in place.
    let input = "{ \"z\": 1, \"hook_event_name\": \"pre_tool_use\", \"tool_name\": \"Bash\",\n \"tool_input\": {\"command\": \"echo \u{e9}\", \"b\": [1, 2.5, null]}, \"a\": true }";
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
        ],
        input.as_bytes(),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "{\"z\":1,\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo \u{e9}\",\"b\":[1,2.5,null]},\"a\":true}\n"
    );
    // Appended as the last key when the input lacked it.
    let run = sb.run(
        &crate::support::fire_args("PreToolUse", &settings, &[]),
        b"{\"tool_name\":\"Bash\",\"x\":1}",
    );
    assert_eq!(run.code, Some(0));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "{\"tool_name\":\"Bash\",\"x\":1,\"hook_event_name\":\"PreToolUse\"}\n"
    );
}

fn env_of(text: &str, key: &str) -> Option<String> {
    text.lines()
        .find_map(|line| line.strip_prefix(&format!("{key}=")).map(str::to_owned))
}

#[test]
fn hook_environment_and_cwd() {
    let mut sb = Sandbox::new();
    let out = sb.path("env.txt");
    let pwd = sb.path("pwd.txt");
    let settings = json!({"hooks": {"PreToolUse": [
        {"name": "envdump", "command": format!("env > '{}'; pwd > '{}'", out.display(), pwd.display())}
    ]}});
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
        .expect_exit(0)
        .run_in(&sb);
    let env = std::fs::read_to_string(&out).unwrap();
    let project = sb.project.to_str().unwrap().to_owned();
    assert_eq!(
        env_of(&env, "HOOKRUN_HOOK_EVENT").as_deref(),
        Some("PreToolUse")
    );
    assert_eq!(
        env_of(&env, "HOOKRUN_SESSION_ID").as_deref(),
        Some("it-session")
    );
    assert_eq!(env_of(&env, "HOOKRUN_TOOL_NAME").as_deref(), Some("Bash"));
    assert_eq!(
        env_of(&env, "HOOKRUN_TOOL_INPUT").as_deref(),
        Some(r#"{"command":"ls"}"#)
    );
    assert_eq!(
        env_of(&env, "HOOKRUN_PROJECT_DIR").as_deref(),
        Some(project.as_str())
    );
    assert_eq!(
        env_of(&env, "CLAUDE_PROJECT_DIR").as_deref(),
        Some(project.as_str())
    );
    assert_eq!(
        env_of(&env, "HOOKRUN_HOOK_NAME").as_deref(),
        Some("envdump")
    );
    assert_eq!(
        env_of(&env, "HOOKRUN_CONFIG_DIR").as_deref(),
        Some(sb.path("cli").to_str().unwrap())
    );
    assert_eq!(std::fs::read_to_string(&pwd).unwrap().trim(), project);

    // The host's CLAUDE_PROJECT_DIR passes through unchanged (and is the
    // project root even though the agent cd'ed elsewhere).
    let host_root = sb.path("hostroot");
    std::fs::create_dir_all(&host_root).unwrap();
    sb.env("CLAUDE_PROJECT_DIR", host_root.to_str().unwrap());
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash"}))
        .expect_exit(0)
        .run_in(&sb);
    let env = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        env_of(&env, "CLAUDE_PROJECT_DIR").as_deref(),
        host_root.to_str()
    );
    assert_eq!(
        env_of(&env, "HOOKRUN_PROJECT_DIR").as_deref(),
        host_root.to_str()
    );
}

#[test]
fn big_tool_input_does_not_break_exec() {
    let sb = Sandbox::new();
    let out = sb.path("env.txt");
    let big = "x".repeat(300 * 1024);
    let settings = hooks(
        "PreToolUse",
        json!([{"command": format!("env > '{}'; wc -c > '{}.stdin'", out.display(), out.display())}]),
    );
    Fire::new("PreToolUse")
        .settings(&settings)
        .input(
            &json!({"tool_name": "Write", "tool_input": {"file_path": "/tmp/x", "content": big}}),
        )
        .expect_exit(0)
        .run_in(&sb);
    let env = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        env_of(&env, "HOOKRUN_TOOL_INPUT_TRUNCATED").as_deref(),
        Some("1")
    );
    assert_eq!(env_of(&env, "HOOKRUN_TOOL_INPUT"), None);
    let bytes: usize = std::fs::read_to_string(format!("{}.stdin", out.display()))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(bytes > 300 * 1024, "stdin carried {bytes} bytes");
}

#[test]
fn exec_form_and_bash_shell() {
    let sb = Sandbox::new();
    let out = sb.path("args.txt");
    let settings = json!({"hooks": {"Stop": [
        {"command": "printf", "args": ["%s|%s\n", "${HOOKRUN_CONFIG_DIR}", "$HOME not expanded"]},
        {"command": "[[ -n \"$BASH_VERSION\" ]] && echo bash >&2 && exit 2", "shell": "bash"},
        {"command": format!("printf '%s\\n' 'a b' > '{}'", out.display())}
    ]}});
    let run = sb.report("Stop", &settings, &json!({}));
    assert_eq!(run.code, Some(2), "{run:?}");
    let report = run.json();
    let hooks = report["hooks"].as_array().unwrap();
    assert_eq!(
        hooks[0]["run"]["stdout"],
        format!("{}|$HOME not expanded\n", sb.path("cli").display())
    );
    assert_eq!(hooks[1]["run"]["block_reason"], "bash");
    assert_eq!(std::fs::read_to_string(out).unwrap(), "a b\n");
}

#[test]
fn flat_nested_and_mixed_shapes_all_load() {
    let sb = Sandbox::new();
    let event = std::fs::read(fixture("events/pre_tool_use__git_push.json")).unwrap();
    for file in [
        "settings/flat.json",
        "settings/claude-nested.json",
        "settings/mixed.json",
    ] {
        let path = fixture(file);
        let run = sb.run(
            &[
                "fire",
                "pre_tool_use",
                "--no-default-settings",
                "--settings",
                path.to_str().unwrap(),
            ],
            &event,
        );
        assert_eq!(run.code, Some(2), "{file}: {run:?}");
        assert_eq!(
            run.stderr, "Pushing to main is not allowed: open a pull request instead.\n",
            "{file}"
        );
        let json = run.json();
        assert_eq!(
            json["hookSpecificOutput"]["permissionDecision"], "deny",
            "{file}"
        );
        assert!(json.get("systemMessage").is_none(), "{file}: {json}");
    }
}

#[test]
fn a_broken_file_never_disables_the_others() {
    let sb = Sandbox::new();
    let event = std::fs::read(fixture("events/pre_tool_use__git_push.json")).unwrap();
    let broken = fixture("settings/broken.json");
    let good = fixture("settings/flat.json");
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            broken.to_str().unwrap(),
            "--settings",
            good.to_str().unwrap(),
        ],
        &event,
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.stderr,
        "Pushing to main is not allowed: open a pull request instead.\n"
    );
    let message = run.system_message();
    assert!(
        message.contains("broken.json") && message.contains("is not valid JSON"),
        "{message}"
    );

    // --fail-closed: the settings problem itself blocks.
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--fail-closed",
            "--settings",
            broken.to_str().unwrap(),
        ],
        &event,
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr.contains("settings problems") && run.stderr.contains("broken.json"),
        "{run:?}"
    );
}

#[test]
fn a_bad_entry_is_skipped_alone_and_named() {
    let sb = Sandbox::new();
    let event = std::fs::read(fixture("events/pre_tool_use__git_push.json")).unwrap();
    let file = fixture("settings/bad-entry.json");
    let run = sb.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        &event,
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr, "second-guard-ran\n");
    let message = run.system_message();
    assert!(
        message
            .contains("bad-entry.json: hooks.PreToolUse[0].timeout: invalid type: string \"10\""),
        "{message}"
    );
}

#[test]
fn unknown_keys_and_fields_are_warnings() {
    let sb = Sandbox::new();
    let run = Fire::new("Stop")
        .settings(
            &json!({"hooks": {"Stop": [{"command": "true", "timout": 5}]}, "hooks_enabled": true}),
        )
        .input(&json!({}))
        .expect_exit(0)
        .run_in(&sb);
    let message = run.system_message();
    assert!(
        message.contains("hooks.Stop[0].timout: unknown field"),
        "{message}"
    );
    assert!(message.contains("hooks_enabled: unknown key"), "{message}");
}

#[test]
fn missing_default_files_are_fine_but_a_named_one_is_reported() {
    let sb = Sandbox::new();
    // No user, project, local or managed file exists: nothing to say.
    let run = sb.run(&["fire", "Stop"], &sb.event("Stop", &json!({})));
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "{}\n"),
        "{run:?}"
    );
    // A --settings path that is not there is a typo, not a choice.
    let run = sb.run(
        &["fire", "Stop", "--settings", "/nonexistent/settings.json"],
        &sb.event("Stop", &json!({})),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.system_message(),
        "/nonexistent/settings.json: does not exist: no hooks are loaded from it"
    );
    // Under --fail-closed it is a settings problem like an unreadable file:
    // a block on an event that can block.
    let run = sb.run(
        &[
            "fire",
            "Stop",
            "--fail-closed",
            "--settings",
            "/nonexistent/settings.json",
        ],
        &sb.event("Stop", &json!({})),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("/nonexistent/settings.json"), "{run:?}");
    // And an error in doctor (exit 1).
    let run = sb.run(&["doctor", "--settings", "/nonexistent/settings.json"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stdout.contains("settings-missing") || run.stdout.contains("does not exist"),
        "{run:?}"
    );
}

#[test]
fn default_sources_load_in_order() {
    let sb = Sandbox::new();
    let log = sb.path("order.log");
    let hook = |name: &str| json!({"hooks": {"Stop": [{"name": name, "command": format!("echo {name} >> '{}'", log.display())}]}});
    sb.write(".unused", "");
    std::fs::create_dir_all(sb.home.join(".config/hookrun")).unwrap();
    std::fs::write(
        sb.home.join(".config/hookrun/settings.json"),
        hook("user").to_string(),
    )
    .unwrap();
    std::fs::create_dir_all(sb.project.join(".hookrun")).unwrap();
    std::fs::write(
        sb.project.join(".hookrun/settings.json"),
        hook("project").to_string(),
    )
    .unwrap();
    std::fs::write(
        sb.project.join(".hookrun/settings.local.json"),
        hook("local").to_string(),
    )
    .unwrap();
    let cli = sb.settings(&hook("cli"));
    sb.write("managed-settings.json", &hook("managed").to_string());

    // Project files take effect once trusted (SPEC §9.1).
    let trust = sb.run(&["trust", sb.project.to_str().unwrap()], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");

    // The event's cwd is below the project: the nearest `.hookrun/` wins.
    let run = sb.run(
        &[
            "fire",
            "Stop",
            "--settings",
            cli.to_str().unwrap(),
            "--format",
            "report",
        ],
        &sb.event(
            "Stop",
            &json!({"cwd": sb.project.join("sub/dir").to_str().unwrap()}),
        ),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.ran(), ["user", "project", "local", "cli", "managed"]);

    let run = sb.run(
        &[
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            cli.to_str().unwrap(),
            "--format",
            "report",
        ],
        &sb.event("Stop", &json!({})),
    );
    assert_eq!(run.ran(), ["cli", "managed"]);
}

#[test]
fn claude_code_settings_files_use_hooks_only() {
    let sb = Sandbox::new();
    let claude = sb.write(
        "repo/.claude/settings.json",
        &json!({
            "model": "opus",
            "env": {"X": "1"},
            "permissions": {"deny": ["Bash(rm *)"]},
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo from-claude >&2; exit 2"}]}]}
        })
        .to_string(),
    );
    for flag in ["--settings", "--claude-settings"] {
        let run = sb.run(
            &[
                "fire",
                "Stop",
                "--no-default-settings",
                flag,
                claude.to_str().unwrap(),
            ],
            &sb.event("Stop", &json!({})),
        );
        assert_eq!(run.code, Some(2), "{flag}: {run:?}");
        assert_eq!(run.stderr, "from-claude\n");
        assert!(
            run.json().get("systemMessage").is_none(),
            "{flag}: env/permissions are only notes"
        );
    }
}

#[test]
fn unknown_events_pass_through_with_tier_block() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"MyAgentEvent": [
        {"command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"MyAgentEvent\",\"custom\":{\"a\":1}}}'"}
    ]}});
    let run = Fire::new("MyAgentEvent")
        .settings(&settings)
        .input(&json!({"whatever": 1}))
        .expect_exit(0)
        .run_in(&sb);
    let json = run.json();
    assert_eq!(
        json["hookSpecificOutput"],
        json!({"hookEventName": "MyAgentEvent", "custom": {"a": 1}})
    );
    assert!(
        json["systemMessage"]
            .as_str()
            .unwrap()
            .contains("`MyAgentEvent` is not a known event")
    );

    Fire::new("MyAgentEvent")
        .settings(&hooks(
            "MyAgentEvent",
            json!([{"command": "echo no >&2; exit 2"}]),
        ))
        .input(&json!({}))
        .expect_exit(2)
        .expect_stderr("no\n")
        .run_in(&sb);
}

#[test]
fn same_hook_in_two_files_runs_once_but_config_dir_scripts_are_distinct() {
    let sb = Sandbox::new();
    let counter = sb.path("count.log");
    let same =
        json!({"hooks": {"Stop": [{"command": format!("echo x >> '{}'", counter.display())}]}});
    let a = sb.settings(&same);
    let b = sb.settings(&same);
    let run = sb.run(
        &[
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            a.to_str().unwrap(),
            "--settings",
            b.to_str().unwrap(),
            "--format",
            "report",
        ],
        &sb.event("Stop", &json!({})),
    );
    assert_eq!(std::fs::read_to_string(&counter).unwrap(), "x\n");
    let report = run.json();
    let stopped: Vec<&Value> = report["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["layer"] == "dedup")
        .collect();
    assert_eq!(stopped.len(), 1);
    assert!(
        stopped[0]["detail"]
            .as_str()
            .unwrap()
            .contains("settings-0.json")
    );

    // ${HOOKRUN_CONFIG_DIR}/check.sh in two folders: two different hooks.
    let check = "#!/bin/sh\necho \"$HOOKRUN_CONFIG_DIR\" >> \"$1\"\n";
    sb.script("one/check.sh", check);
    sb.script("two/check.sh", check);
    let log = sb.path("dirs.log");
    let hook = json!({"hooks": {"Stop": [{"command": format!("${{HOOKRUN_CONFIG_DIR}}/check.sh '{}'", log.display())}]}});
    let one = sb.write("one/settings.json", &hook.to_string());
    let two = sb.write("two/settings.json", &hook.to_string());
    let run = sb.run(
        &[
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            one.to_str().unwrap(),
            "--settings",
            two.to_str().unwrap(),
        ],
        &sb.event("Stop", &json!({})),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let mut dirs: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    dirs.sort();
    assert_eq!(
        dirs,
        [
            sb.path("one").display().to_string(),
            sb.path("two").display().to_string()
        ]
    );
}

#[test]
fn sequential_hooks_chain_updated_input() {
    let sb = Sandbox::new();
    let seen = sb.path("seen.json");
    let env_seen = sb.path("env-seen.txt");
    let rewrite = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls -la"}}}'"#;
    let settings = json!({"hooks": {"PreToolUse": [
        {"name": "rewrite", "command": rewrite, "sequential": true},
        {"name": "observe", "command": format!("cat > '{}'; printf %s \"$HOOKRUN_TOOL_INPUT\" > '{}'", seen.display(), env_seen.display())},
        {"name": "block", "command": "echo nope >&2; exit 2"},
        {"name": "after-block", "command": format!("touch '{}'", sb.path("after-block").display())}
    ]}});
    let run = sb.report(
        "PreToolUse",
        &settings,
        &json!({"tool_name": "Bash", "tool_input": {"command": "ls", "description": "d"}}),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    let stdin: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(stdin["tool_input"], json!({"command": "ls -la"}));
    assert_eq!(
        std::fs::read_to_string(&env_seen).unwrap(),
        r#"{"command":"ls -la"}"#
    );
    // Every matched hook runs, even after a block.
    assert!(sb.path("after-block").exists());
    assert_eq!(run.json()["sequential"], true);
}

#[test]
fn parallel_updated_input_is_deterministic_and_conflicts_warn() {
    let sb = Sandbox::new();
    let rewrite = |cmd: &str, delay: &str| {
        format!(
            r#"sleep {delay}; echo '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","updatedInput":{{"command":"{cmd}"}}}}}}'"#
        )
    };
    // The first in load order finishes last; the last in load order wins.
    let settings = hooks(
        "PreToolUse",
        json!([{"command": rewrite("first", "0.5")}, {"command": rewrite("second", "0")}]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))
        .expect_exit(0)
        .run_in(&sb);
    let json = run.json();
    assert_eq!(
        json["hookSpecificOutput"]["updatedInput"],
        json!({"command": "second"})
    );
    assert!(
        json["systemMessage"]
            .as_str()
            .unwrap()
            .contains("conflicting updatedInput")
    );
}

#[test]
fn unsupported_types_and_if_on_non_tool_events_are_reported() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"Stop": [
        {"type": "webhook", "prompt": "are you done?"},
        {"command": "true", "if": "Bash(git *)"},
        {"command": "true", "shell": "fish"}
    ]}});
    let run = Fire::new("Stop")
        .settings(&settings)
        .input(&json!({}))
        .expect_exit(0)
        .run_in(&sb);
    let message = run.system_message();
    assert!(
        message.contains("type \"webhook\" is not supported by hookrun"),
        "{message}"
    );
    assert!(
        message.contains("`if` only applies to tool events"),
        "{message}"
    );
    assert!(
        message.contains("shell \"fish\" is not supported"),
        "{message}"
    );
}

#[test]
fn timeouts_fail_open_with_a_warning_or_block_with_on_error() {
    let sb = Sandbox::new();
    let settings = hooks(
        "PreToolUse",
        json!([{"name": "slow", "command": "sleep 30", "timeout": 1}]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash"}))
        .expect_exit(0)
        .run_in(&sb);
    assert!(
        run.elapsed < Duration::from_secs(8),
        "took {:?}",
        run.elapsed
    );
    assert!(
        run.system_message()
            .contains("hook slow failed (timed out after 1 s)"),
        "{run:?}"
    );

    let settings = hooks(
        "PreToolUse",
        json!([{"name": "gate", "command": "sleep 30", "timeout": 1, "onError": "block"}]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&json!({"tool_name": "Bash"}))
        .expect_exit(2)
        .run_in(&sb);
    assert!(
        run.stderr
            .contains("hook gate failed (timed out after 1 s)"),
        "{run:?}"
    );
}

#[test]
fn the_deadline_cuts_slow_hooks_and_keeps_finished_answers() {
    let sb = Sandbox::new();
    let settings = hooks(
        "PreToolUse",
        json!([{"name": "fast-deny", "command": "echo denied >&2; exit 2"}, {"name": "slow", "command": "sleep 30"}]),
    );
    let file = sb.settings(&settings);
    let run = sb.run(
        &[
            "fire",
            "PreToolUse",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--deadline",
            "1s",
            "--kill-grace",
            "200ms",
        ],
        &sb.event("PreToolUse", &json!({"tool_name": "Bash"})),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr, "denied\n");
    assert!(run.elapsed < Duration::from_secs(6), "{:?}", run.elapsed);
    assert!(
        run.system_message()
            .contains("hook slow was cut by the deadline"),
        "{run:?}"
    );
}

#[test]
fn claude_env_file_gets_each_hooks_lines_in_load_order() {
    let mut sb = Sandbox::new();
    let host_file = sb.path("host-env.sh");
    std::fs::write(&host_file, "export EXISTING=1\n").unwrap();
    sb.env("CLAUDE_ENV_FILE", host_file.to_str().unwrap());
    let settings = hooks(
        "SessionStart",
        json!([
            {"command": "sleep 0.3; echo 'export A=1' >> \"$CLAUDE_ENV_FILE\""},
            {"command": "echo 'export B=2' >> \"$CLAUDE_ENV_FILE\""}
        ]),
    );
    Fire::new("SessionStart")
        .settings(&settings)
        .input(&json!({"source": "startup"}))
        .expect_exit(0)
        .run_in(&sb);
    assert_eq!(
        read_when_ready(&host_file),
        "export EXISTING=1\nexport A=1\nexport B=2\n"
    );
}

#[test]
fn diagnostics_reach_stderr_only_when_asked() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"Stop": [{"command": "true"}]}, "typo_key": 1});
    Fire::new("Stop")
        .settings(&settings)
        .input(&json!({}))
        .expect_stderr("")
        .run_in(&sb);
    let file = sb.settings(&settings);
    let run = sb.run(
        &[
            "fire",
            "Stop",
            "-v",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        &sb.event("Stop", &json!({})),
    );
    assert!(run.stderr.contains("typo_key"), "{run:?}");
}

/// The README's "run the main job" command, exactly as written there.
#[test]
fn the_readme_example_blocks_the_push() {
    let readme = std::fs::read_to_string(crate::support::repo().join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.trim_start().starts_with("cargo run --release -- fire"))
        .expect("README shows the fire command");
    let (command, input) = line
        .split_once(" < ")
        .expect("the command reads a fixture on stdin");
    let args = shlex::split(command.trim().trim_start_matches("cargo run --release --")).unwrap();
    let sb = Sandbox::new();
    let mut cmd = sb.command();
    cmd.current_dir(crate::support::repo());
    let stdin = std::fs::read(crate::support::repo().join(input.trim())).unwrap();
    let run = crate::support::run_command(cmd.args(&args), &stdin);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.stderr,
        "Pushing to main is not allowed: open a pull request instead.\n"
    );
    assert!(
        readme.contains(run.stdout.trim()),
        "the README shows the real output:\n{}",
        run.stdout
    );
}

#[test]
fn exec_form_substitutes_the_project_dir_even_when_the_host_did_not_set_it() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"Stop": [
        {"name": "where", "command": "printf", "args": ["%s", "${CLAUDE_PROJECT_DIR}/x"]}
    ]}});
    let run = sb.report("Stop", &settings, &json!({}));
    assert_eq!(
        run.hook("where")["run"]["stdout"],
        format!("{}/x", sb.project.display())
    );
}

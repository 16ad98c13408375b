//! Traps a new user fell into, round three: guards that look on but are
//! off, a starter that blocks more or less than it says, no way to see or
//! undo what install wrote. Each test is one trap, as a user met it.

use serde_json::json;

use crate::firetest::Fire;
use crate::support::{Run, Sandbox, hooks};

/// `hookrun doctor` on one settings file, nothing else.
fn doctor(sandbox: &Sandbox, settings: &serde_json::Value) -> Run {
    let file = sandbox.settings(settings);
    sandbox.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    )
}

fn read_of(path: &str) -> serde_json::Value {
    json!({"tool_name": "Read", "tool_input": {"file_path": path}})
}

fn bash(command: &str) -> serde_json::Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

// ---- 1. a lowercase tool in a permission rule ------------------------------

#[test]
fn a_lowercase_tool_in_a_permission_rule_is_a_doctor_error_and_a_fire_warning() {
    let sandbox = Sandbox::new();
    let rules = json!({"permissions": {"deny": ["bash(rm *)", "read(~/.ssh/**)"]}});
    let run = doctor(&sandbox, &rules);
    assert_eq!(run.code, Some(1), "{run:?}");
    for at in ["permissions.deny[0]", "permissions.deny[1]"] {
        assert!(
            run.stdout.contains("error[tool-name-case]") && run.stdout.contains(at),
            "{at}: {run:?}"
        );
    }
    assert!(run.stdout.contains("fix: write `Bash(rm *)`"), "{run:?}");
    assert!(
        run.stdout.contains("fix: write `Read(~/.ssh/**)`"),
        "{run:?}"
    );

    // The rule never matches: fire says so, on the call it lets through.
    let run = Fire::new("PreToolUse")
        .settings(&rules)
        .input(&bash("rm -rf build"))
        .expect_exit(0)
        .run_in(&sandbox);
    let said = run.system_message();
    assert!(
        said.contains("`bash(rm *)` names tool `bash`") && said.contains("case-sensitive"),
        "{run:?}"
    );
    assert!(said.contains("write `Bash(rm *)`"), "{run:?}");
}

// ---- 2. a one-slash path rule naming a path outside the project -----------

#[test]
fn a_one_slash_rule_naming_a_path_outside_the_project_warns_at_fire_and_in_doctor() {
    let sandbox = Sandbox::new();
    let ssh = sandbox.home.join(".ssh");
    std::fs::create_dir_all(&ssh).unwrap();
    std::fs::write(ssh.join("id_ed25519"), "key").unwrap();
    // As the user wrote it: the absolute path, with one slash.
    let absolute = format!("Read({}/**)", ssh.display());
    let from_home = "Read(/.ssh/**)".to_owned();
    let rules = json!({"permissions": {"deny": [absolute, from_home]}});
    let run = doctor(&sandbox, &rules);
    assert!(run.stdout.contains("warning[rule-one-slash]"), "{run:?}");
    assert!(
        run.stdout
            .contains(&format!("fix: write `Read(/{}/**)`", ssh.display())),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("fix: write `Read(~/.ssh/**)`"),
        "{run:?}"
    );
    assert_eq!(run.stdout.matches("[rule-one-slash]").count(), 2, "{run:?}");

    let key = ssh.join("id_ed25519");
    let run = Fire::new("PreToolUse")
        .settings(&rules)
        .input(&read_of(key.to_str().unwrap()))
        .run_in(&sandbox);
    // The rule is relative to the settings file's folder: it does not
    // match the key, and fire says why.
    assert_eq!(run.code, Some(0), "{run:?}");
    let said = run.system_message();
    assert!(
        said.contains("one leading `/` is relative to") && said.contains("does not exist"),
        "{run:?}"
    );

    // Written as meant, it holds and says nothing.
    let meant = json!({"permissions": {"deny": [format!("Read(/{}/**)", ssh.display()), "Read(~/.ssh/**)"]}});
    let run = Fire::new("PreToolUse")
        .settings(&meant)
        .input(&read_of(key.to_str().unwrap()))
        .expect_exit(2)
        .run_in(&sandbox);
    assert!(!run.system_message().contains("leading `/`"), "{run:?}");
    // A one-slash rule that names something in the project is fine.
    std::fs::create_dir_all(sandbox.path("cli/secrets")).unwrap();
    let run = doctor(
        &sandbox,
        &json!({"permissions": {"deny": ["Read(/secrets/**)"]}}),
    );
    assert!(!run.stdout.contains("rule-one-slash"), "{run:?}");
}

// ---- 3. a Claude Code file that does not parse -----------------------------

#[test]
fn a_syntax_error_in_the_claude_code_file_holding_hookruns_entries_is_an_error() {
    let sandbox = Sandbox::new();
    let hookrun = sandbox.settings(&hooks(
        "PreToolUse",
        json!([{"matcher": "Bash", "command": "exit 0"}]),
    ));
    // The entry install would write, and a trailing comma after it.
    sandbox.write(
        "project/.claude/settings.json",
        &format!(
            "{{\"hooks\": {{\"PreToolUse\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"{} fire --host claude-code\"}}]}}],}}}}\n",
            crate::support::BIN
        ),
    );
    let run = sandbox.run(&["doctor", "--settings", hookrun.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stdout.contains("error[host-config-unreadable]")
            && run.stdout.contains("Claude Code ignores the whole file"),
        "{run:?}"
    );
}

// ---- 4. a permission rule written as a matcher -----------------------------

#[test]
fn a_matcher_written_as_a_permission_rule_warns_at_fire_time() {
    let sandbox = Sandbox::new();
    let settings = hooks(
        "PreToolUse",
        json!([{"name": "no-rm", "matcher": "Bash(rm *)", "command": "echo no >&2; exit 2"}]),
    );
    let run = Fire::new("PreToolUse")
        .settings(&settings)
        .input(&bash("rm -rf build"))
        .expect_exit(0)
        .run_in(&sandbox);
    let said = run.system_message();
    assert!(
        said.contains("matcher \"Bash(rm *)\" is a permission rule")
            && said.contains("hook no-rm does not run")
            && said.contains("\"if\": \"Bash(rm *)\""),
        "{run:?}"
    );
}

// ---- 5. doctor exits non-zero while a guard is off -------------------------

#[test]
fn a_misspelt_event_key_is_a_doctor_error() {
    let sandbox = Sandbox::new();
    let run = doctor(
        &sandbox,
        &hooks("PreToolUsed", json!([{"command": "exit 2"}])),
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stdout.contains("error[unknown-event]"), "{run:?}");
    assert!(run.stdout.contains("its hooks never run"), "{run:?}");
    assert!(
        run.stdout.contains("fix: rename the key to `PreToolUse`"),
        "{run:?}"
    );
    // An event near no known one is a home-made host's own: a warning.
    let run = doctor(
        &sandbox,
        &hooks("DeployFinished", json!([{"command": "true"}])),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("warning[unknown-event]"), "{run:?}");
}

#[test]
fn hooks_without_the_hooks_wrapper_are_a_doctor_error_that_says_move_it_under_hooks() {
    let sandbox = Sandbox::new();
    let run = doctor(
        &sandbox,
        &json!({"PreToolUse": [{"matcher": "Bash", "command": "exit 2"}]}),
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stdout.contains("error[event-outside-hooks]"), "{run:?}");
    assert!(
        run.stdout
            .contains("fix: move it under `hooks`: {\"hooks\": {\"PreToolUse\": […]}}"),
        "{run:?}"
    );
}

#[test]
fn right_after_init_on_a_claude_code_machine_doctor_says_nothing_routes_to_hookrun() {
    let sandbox = Sandbox::new();
    // Claude Code has run here: its state file and folder, no settings yet.
    std::fs::write(sandbox.home.join(".claude.json"), "{}\n").unwrap();
    std::fs::create_dir_all(sandbox.home.join(".claude")).unwrap();
    assert_eq!(sandbox.run(&["init"], b"").code, Some(0));
    let run = sandbox.run(&["doctor"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stdout.contains("error[host-not-routed]")
            && run
                .stdout
                .contains("no entry in Claude Code's files runs hookrun"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("fix: run `hookrun install claude-code --user`"),
        "{run:?}"
    );
    // Routed, the same machine is clean.
    let run = sandbox.run(&["install", "claude-code", "--user"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let run = sandbox.run(&["doctor"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(!run.stdout.contains("host-not-routed"), "{run:?}");
}

#[test]
fn rules_alone_need_pre_tool_use_routed_and_install_routes_it() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "home/.config/hookrun/settings.json",
        r#"{"permissions": {"deny": ["Bash(rm *)"]}, "hooks": {"Stop": [{"command": "true"}]}}"#,
    );
    // Claude Code routes Stop only: the deny rule is never asked about.
    sandbox.write(
        "home/.claude/settings.json",
        &format!(
            r#"{{"hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "{} fire --host claude-code"}}]}}]}}}}"#,
            crate::support::BIN
        ),
    );
    let run = sandbox.run(&["doctor"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stdout.contains("error[host-event-not-routed]")
            && run.stdout.contains("1 permission rule on PreToolUse"),
        "{run:?}"
    );
    let run = sandbox.run(&["install", "claude-code", "--user"], b"");
    assert!(run.stdout.contains("PreToolUse, Stop"), "{run:?}");
    let run = sandbox.run(&["doctor"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
}

// ---- 6. init's starter blocks exactly what it says -------------------------

fn git(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

fn has_git() -> bool {
    std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_ok()
}

/// A sandbox with `hookrun init`'s starter and a repository with a remote
/// that has main and feature/x, on `branch`.
fn starter_repo(branch: &str) -> Sandbox {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["init"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let repo = &sandbox.project;
    let remote = sandbox.path("remote.git");
    std::fs::create_dir_all(&remote).unwrap();
    git(&remote, &["init", "-q", "--bare"]);
    git(repo, &["init", "-q", "-b", "main"]);
    git(
        repo,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "x",
        ],
    );
    git(repo, &["remote", "add", "origin", remote.to_str().unwrap()]);
    git(repo, &["push", "-q", "-u", "origin", "main"]);
    git(repo, &["branch", "feature/x"]);
    if branch != "main" {
        git(repo, &["switch", "-q", branch]);
    }
    sandbox
}

fn push_verdicts(sandbox: &Sandbox, cases: &[(&str, i32)]) {
    for (command, expected) in cases {
        let run = sandbox.run(&["fire"], &sandbox.event("PreToolUse", &bash(command)));
        assert_eq!(run.code, Some(*expected), "{command}: {run:?}");
        if *expected == 2 {
            // The reason: the starter's hook, or the deny rule that matched.
            assert!(
                run.stderr.contains("main") || run.stderr.contains("denied by permission rule"),
                "{command}: {run:?}"
            );
        }
    }
}

#[test]
fn the_starter_blocks_pushes_of_every_branch_from_a_feature_branch() {
    if !has_git() {
        crate::support::skipped("the_starter_blocks_pushes_of_every_branch: no git here");
        return;
    }
    let sandbox = starter_repo("feature/x");
    push_verdicts(
        &sandbox,
        &[
            // Every branch, main included.
            ("git push --all origin", 2),
            ("git push origin --all", 2),
            ("git push --mirror", 2),
            ("git push --mirror origin", 2),
            ("git push --branches origin", 2),
            ("git push origin :", 2),
            // main by name.
            ("git push origin main", 2),
            ("git push origin HEAD:main", 2),
            ("git push origin feature/x:main", 2),
            ("git push origin +main", 2),
            ("git push origin refs/heads/main", 2),
            ("git push --force origin main", 2),
            // This branch: goes ahead.
            ("git push", 0),
            ("git push origin", 0),
            ("git push -u origin feature/x", 0),
            ("git push -u origin HEAD", 0),
            ("git push --tags origin", 0),
            ("cd . && git push origin feature/x", 0),
        ],
    );
}

#[test]
fn the_starter_lets_a_named_branch_go_from_main_and_blocks_the_pushes_that_go_to_main() {
    if !has_git() {
        crate::support::skipped("the_starter_lets_a_named_branch_go_from_main: no git here");
        return;
    }
    let sandbox = starter_repo("main");
    push_verdicts(
        &sandbox,
        &[
            // Named branches that are not main: no over-blocking.
            ("git push -u origin feature/x", 0),
            ("git push origin feature/x", 0),
            ("git push --force-with-lease origin feature/x", 0),
            ("git push origin HEAD:feature/x", 0),
            // Pushes that name no branch, or HEAD, go to main.
            ("git push", 2),
            ("git push origin", 2),
            ("git push -u origin", 2),
            ("git push origin HEAD", 2),
            ("git push -o ci.skip origin", 2),
            ("git push --repo origin", 2),
            ("git -c push.default=current push", 2),
            // Not a plain push: hookrun's starter cannot read which branch.
            ("cd . && git push", 2),
            ("git push origin $(git branch --show-current)", 2),
        ],
    );
}

#[test]
fn the_starter_blocks_a_plain_push_from_a_branch_whose_push_goes_to_main() {
    if !has_git() {
        crate::support::skipped("the_starter_blocks_a_plain_push_to_main: no git here");
        return;
    }
    let sandbox = starter_repo("feature/x");
    let repo = &sandbox.project;
    git(repo, &["config", "push.default", "upstream"]);
    git(repo, &["config", "branch.feature/x.remote", "origin"]);
    git(
        repo,
        &["config", "branch.feature/x.merge", "refs/heads/main"],
    );
    push_verdicts(
        &sandbox,
        &[("git push", 2), ("git push origin feature/x:feature/x", 0)],
    );
    // And the starter is clean to doctor.
    let run = sandbox.run(&["doctor"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
}

// ---- 10. a way out: status, uninstall --all ---------------------------------

/// Every file and folder below `root`: path, and the content of files.
fn tree(root: &std::path::Path) -> Vec<(String, Option<Vec<u8>>)> {
    fn walk(
        root: &std::path::Path,
        dir: &std::path::Path,
        out: &mut Vec<(String, Option<Vec<u8>>)>,
    ) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                out.push((rel, None));
                walk(root, &path, out);
            } else {
                out.push((rel, Some(std::fs::read(&path).unwrap_or_default())));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

fn names(tree: &[(String, Option<Vec<u8>>)]) -> Vec<&str> {
    tree.iter().map(|(name, _)| name.as_str()).collect()
}

#[test]
fn uninstall_all_undoes_every_host_and_scope_install_wrote_and_leaves_no_backup() {
    let sandbox = Sandbox::new();
    // What the machine held before hookrun: Claude Code's own files, a
    // project with its own Claude Code settings, another project.
    sandbox.write("home/.claude.json", "{\"numStartups\": 4}\n");
    sandbox.write(
        "home/.claude/settings.json",
        "{\n  \"model\": \"opus\"\n}\n",
    );
    std::fs::create_dir_all(sandbox.home.join(".state")).unwrap();
    sandbox.write(
        "project/.claude/settings.json",
        "{\n  // the team's\n  \"permissions\": {\"deny\": [\"Read(./.env)\"]}\n}\n",
    );
    let other = sandbox.path("other");
    std::fs::create_dir_all(&other).unwrap();
    let before = tree(sandbox.dir.path());

    let installs: &[&[&str]] = &[
        &["install", "claude-code"],
        &["install", "claude-code", "--user"],
        &["install", "claude-code", "--local"],
        &["install", "gemini", "--user"],
        &["install", "codex"],
        &["install", "cline"],
        &["install", "qwen", "--project-dir", other.to_str().unwrap()],
        // Again, after a change: a second backup of the same file.
        &["install", "claude-code", "--binary", "/opt/other/hookrun"],
    ];
    for args in installs {
        let run = sandbox.run(args, b"");
        assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
    }
    let installed = tree(sandbox.dir.path());
    assert!(
        names(&installed)
            .iter()
            .any(|n| n.ends_with("settings.json.hookrun-backup.1")),
        "{:?}",
        names(&installed)
    );

    // status names each, with the binary it runs.
    let run = sandbox.run(&["status"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    for file in [
        sandbox.home.join(".claude/settings.json"),
        sandbox.home.join(".gemini/settings.json"),
        sandbox.project.join(".claude/settings.local.json"),
        sandbox.project.join(".codex/hooks.json"),
    ] {
        assert!(
            run.stdout.contains(file.to_str().unwrap()),
            "{file:?}: {run:?}"
        );
    }
    assert!(run.stdout.contains("exists, this hookrun"), "{run:?}");
    assert!(
        run.stdout
            .contains("runs /opt/other/hookrun: does not exist"),
        "{run:?}"
    );
    assert!(run.stdout.contains("installs recorded: 7"), "{run:?}");

    // From a folder that is neither project: every install is undone.
    let run = crate::support::run_command(
        sandbox
            .command()
            .args(["uninstall", "--all", "--dry-run"])
            .current_dir(&other),
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        tree(sandbox.dir.path()),
        installed,
        "a dry run writes nothing"
    );
    let elsewhere = sandbox.path("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let run = crate::support::run_command(
        sandbox
            .command()
            .args(["uninstall", "--all"])
            .current_dir(&elsewhere),
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    std::fs::remove_dir(&elsewhere).unwrap();
    let after = tree(sandbox.dir.path());
    assert_eq!(
        names(&after),
        names(&before),
        "files and folders as before: {}",
        run.stdout
    );
    assert_eq!(after, before, "every byte as before: {}", run.stdout);

    let run = sandbox.run(&["uninstall", "--all"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("nothing to remove"), "{run:?}");
}

#[test]
fn status_says_when_an_entry_names_a_hookrun_that_is_gone() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(
        &["install", "gemini", "--user", "--binary", "/gone/hookrun"],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let run = sandbox.run(&["status", "--format", "json"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let status = run.json();
    let gemini = status["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == "gemini")
        .unwrap();
    let entry = &gemini["files"][0]["entries"][0];
    assert_eq!(entry["program"], "/gone/hookrun", "{status:#}");
    assert_eq!(entry["exists"], false, "{status:#}");
    assert_eq!(entry["this_hookrun"], false, "{status:#}");
    assert_eq!(status["recorded"][0]["host"], "gemini", "{status:#}");
    // Every host of the table is listed, Cline and Qwen Code included.
    for host in [
        "claude-code",
        "gemini",
        "codex",
        "cursor",
        "copilot",
        "cline",
        "qwen",
    ] {
        assert!(
            status["hosts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|h| h["host"] == host),
            "{host}"
        );
    }
}

// ---- 7. explain and list show the permission rules -------------------------

#[test]
fn explain_shows_the_rule_that_denies_a_call_no_hook_looks_at() {
    let sandbox = Sandbox::new();
    let rules = sandbox.settings(&json!({"permissions": {
        "deny": ["Read(~/.ssh/**)", "Bash(rm *)"],
        "allow": ["Read(./src/**)"]
    }}));
    let event = sandbox.event("PreToolUse", &read_of("~/.ssh/id_ed25519"));
    let args = [
        "explain",
        "--no-default-settings",
        "--settings",
        rules.to_str().unwrap(),
    ];
    let run = sandbox.run(&args, &event);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("deny   Read(~/.ssh/**)  matches"),
        "{run:?}"
    );
    assert!(run.stdout.contains("Bash(rm *)       no match"), "{run:?}");
    assert!(
        run.stdout
            .contains("the rules decide: deny (denied by permission rule \"Read(~/.ssh/**)\""),
        "{run:?}"
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let run = sandbox.run(&json_args, &event);
    let rules_json = &run.json()["permission_rules"];
    assert_eq!(rules_json["decision"], "deny", "{rules_json:#}");
    assert_eq!(
        rules_json["rules"][0]["verdict"], "matches",
        "{rules_json:#}"
    );
    // A call the allow rule covers.
    let run = sandbox.run(&args, &sandbox.event("PreToolUse", &read_of("src/main.rs")));
    assert!(run.stdout.contains("the rules decide: allow"), "{run:?}");
}

#[test]
fn list_shows_a_rules_only_file_and_which_rules_are_in_force() {
    let sandbox = Sandbox::new();
    let rules = sandbox.settings(
        &json!({"permissions": {"deny": ["Read(~/.ssh/**)"], "ask": ["Bash(git push *)"]}}),
    );
    let run = sandbox.run(
        &[
            "list",
            "--no-default-settings",
            "--settings",
            rules.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(!run.stdout.starts_with("no hooks\n"), "{run:?}");
    assert!(run.stdout.contains("deny wins"), "{run:?}");
    assert!(
        run.stdout.contains("deny   Read(~/.ssh/**)   in force"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("ask    Bash(git push *)  in force"),
        "{run:?}"
    );
    // An untrusted project file's rules are listed as not applied.
    sandbox.write(
        "project/.hookrun/settings.json",
        r#"{"permissions": {"deny": ["Bash(curl *)"]}}"#,
    );
    let run = sandbox.run(&["list", "--format", "json"], b"");
    let listed = &run.json()["permission_rules"];
    assert_eq!(listed[0]["rule"], "Bash(curl *)", "{listed:#}");
    assert!(
        listed[0]["state"]
            .as_str()
            .unwrap()
            .starts_with("not applied"),
        "{listed:#}"
    );
}

// ---- 12. replay names what it cannot use -----------------------------------

#[test]
fn replay_names_a_fifo_it_skips_and_a_recorded_cwd_that_does_not_exist() {
    let sandbox = Sandbox::new();
    let sessions = sandbox.path("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let transcript = crate::support::fixture("transcripts/oracle/replay_rm");
    let one = std::fs::read_dir(&transcript)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .expect("a transcript");
    std::fs::copy(&one, sessions.join("a.jsonl")).unwrap();
    let fifo = sessions.join("live.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        crate::support::skipped("replay_names_a_fifo_it_skips: mkfifo failed here");
        return;
    }
    let policy = sandbox.settings(&json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    let run = crate::support::run_command_within(
        sandbox.command().args([
            "replay",
            "--no-default-settings",
            "--settings",
            policy.to_str().unwrap(),
            sessions.to_str().unwrap(),
        ]),
        b"",
        std::time::Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains(fifo.to_str().unwrap()) && run.stdout.contains("cannot be read"),
        "the FIFO is named: {run:?}"
    );
    // The fixture was recorded in /home/dev/proj, which is not here.
    assert!(
        run.stdout
            .contains("the recorded cwd /home/dev/proj does not exist here"),
        "{run:?}"
    );
    // Chosen with --project-dir, it is not news.
    let run = sandbox.run(
        &[
            "replay",
            "--no-default-settings",
            "--project-dir",
            sandbox.project.to_str().unwrap(),
            "--settings",
            policy.to_str().unwrap(),
            sessions.join("a.jsonl").to_str().unwrap(),
        ],
        b"",
    );
    assert!(!run.stdout.contains("does not exist here"), "{run:?}");
}

// ---- 8. a program the host's PATH lacks ------------------------------------

crate::platform::unix_only! {
#[test]
fn doctor_says_when_a_hooks_program_is_not_on_the_path_the_host_gives_hooks() {
    let mut sandbox = Sandbox::new();
    // The host's PATH: sh only, as a desktop launcher may give it.
    let host_bin = sandbox.path("host-bin");
    std::fs::create_dir_all(&host_bin).unwrap();
    let sh = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join("sh"))
        .find(|p| p.is_file())
        .unwrap();
    std::os::unix::fs::symlink(sh, host_bin.join("sh")).unwrap();
    // The shell's PATH also has the formatter.
    let shell_bin = sandbox.path("shell-bin");
    sandbox.script("shell-bin/prettier", "#!/bin/sh\nexit 0\n");
    let settings = sandbox.settings(&hooks(
        "PostToolUse",
        json!([{"name": "fmt", "matcher": "Write", "command": "prettier --write \"$CLAUDE_PROJECT_DIR\""}]),
    ));
    let file = settings.to_str().unwrap();
    let doctor = |sandbox: &Sandbox| {
        let mut command = sandbox.command();
        command
            .env(
                "PATH",
                format!("{}:{}", shell_bin.display(), host_bin.display()),
            )
            .args(["doctor", "--no-default-settings", "--settings", file]);
        crate::support::run_command(&mut command, b"")
    };
    let run = doctor(&sandbox);
    assert!(
        !run.stdout.contains("prettier"),
        "nothing known yet: {run:?}"
    );
    // The host fires hookrun (its entry names the host) with its own PATH.
    sandbox.env("PATH", host_bin.to_str().unwrap());
    let event = sandbox.event(
        "PostToolUse",
        &json!({"tool_name": "Write", "tool_input": {"file_path": "x.md"}}),
    );
    let run = sandbox.run(
        &[
            "fire",
            "--host",
            "claude-code",
            "--no-default-settings",
            "--settings",
            file,
        ],
        &event,
    );
    assert!(
        run.system_message().contains("fmt"),
        "the hook fails there: {run:?}"
    );
    let run = doctor(&sandbox);
    assert!(
        run.stdout.contains("warning[command-not-on-host-path]")
            && run
                .stdout
                .contains("not on the PATH Claude Code gave hooks at its last fire")
            && run.stdout.contains(host_bin.to_str().unwrap()),
        "{run:?}"
    );
}
}

// ---- S3: the smaller traps -------------------------------------------------

#[test]
fn doctor_notes_a_hookrun_on_path_that_is_not_the_one_the_host_entries_run() {
    let mut sandbox = Sandbox::new();
    let run = sandbox.run(&["install", "claude-code", "--user"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let run = sandbox.run(&["doctor"], b"");
    assert!(!run.stdout.contains("other-on-path"), "{run:?}");
    // An older hookrun first on the PATH the user types in.
    sandbox.script("old/hookrun", "#!/bin/sh\necho 0.0.1\n");
    let path = format!(
        "{}:{}",
        sandbox.path("old").display(),
        std::env::var("PATH").unwrap()
    );
    sandbox.env("PATH", &path);
    let run = sandbox.run(&["doctor"], b"");
    assert!(
        run.stdout.contains("note[host-hookrun-other-on-path]")
            && run
                .stdout
                .contains(sandbox.path("old/hookrun").to_str().unwrap()),
        "{run:?}"
    );
    assert_eq!(run.code, Some(0), "a note: {run:?}");
}

#[test]
fn a_pinned_install_does_not_say_its_entries_name_an_absolute_path() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["install", "claude-code", "--pinned"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        !run.stdout.contains("by absolute path"),
        "the entries run $CLAUDE_PROJECT_DIR/node_modules/.bin/hookrun-native: {run:?}"
    );
    assert!(
        run.stdout
            .contains("work on every teammate's machine once `npm install` has run there"),
        "{run:?}"
    );
}

#[test]
fn the_untrusted_project_notice_is_said_once_per_session() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "project/.hookrun/settings.json",
        r#"{"hooks": {"Stop": [{"command": "true"}]}}"#,
    );
    let fire = |session: &str| {
        let event = sandbox.event("Stop", &json!({"session_id": session}));
        sandbox.run(&["fire", "--format", "report"], &event)
    };
    let first = fire("s1");
    assert!(
        first.json()["warnings"]
            .to_string()
            .contains("is not trusted"),
        "{first:?}"
    );
    let again = fire("s1");
    let report = again.json();
    assert!(
        !report["warnings"].to_string().contains("is not trusted"),
        "said once: {again:?}"
    );
    assert!(
        report["notes"]
            .to_string()
            .contains("said earlier in this session"),
        "still in the report: {again:?}"
    );
    let other = fire("s2");
    assert!(
        other.json()["warnings"]
            .to_string()
            .contains("is not trusted"),
        "a new session hears it: {other:?}"
    );
}

#[test]
fn doctors_fix_for_entries_in_the_local_file_writes_the_local_file() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "home/.config/hookrun/settings.json",
        r#"{"hooks": {"PreToolUse": [{"command": "true"}], "Stop": [{"command": "true"}]}}"#,
    );
    // Entries in settings.local.json, for PreToolUse only.
    sandbox.write(
        "project/.claude/settings.local.json",
        &format!(
            r#"{{"hooks": {{"PreToolUse": [{{"hooks": [{{"type": "command", "command": "{} fire --host claude-code"}}]}}]}}}}"#,
            crate::support::BIN
        ),
    );
    let run = sandbox.run(&["doctor"], b"");
    assert!(
        run.stdout.contains("error[host-event-not-routed]"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("fix: run `hookrun install claude-code --local`"),
        "the fix writes where the entries are: {run:?}"
    );
}

#[test]
fn the_help_lists_commands_in_the_order_a_user_meets_them_and_teaches_the_host_entry() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--help"], b"");
    let order: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase()))
        .collect();
    assert_eq!(
        &order[..6],
        ["init", "install", "doctor", "status", "fire", "explain"],
        "{run:?}"
    );
    let words = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("Cline, Qwen Code"), "{run:?}");
    let run = sandbox.run(&["fire", "--help"], b"");
    assert!(
        !run.stdout.contains("(`\"command\": \"hookrun fire\"`)"),
        "no bare `hookrun fire` as a host entry: {run:?}"
    );
    assert!(run.stdout.contains("fire --host claude-code"), "{run:?}");
    let run = sandbox.run(&["init", "--help"], b"");
    assert!(!run.stdout.contains("one example hook"), "{run:?}");
    assert!(run.stdout.contains("top of the git repository"), "{run:?}");
}

#[test]
fn doctor_colours_its_labels_on_a_terminal_unless_no_color_is_set() {
    let has_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_script {
        crate::support::skipped("doctor_colours_its_labels: no util-linux `script` for a pty here");
        return;
    }
    let mut sandbox = Sandbox::new();
    let missing = sandbox.path("missing.json");
    let line = format!(
        "{} doctor --no-default-settings --settings {}",
        crate::support::BIN,
        missing.display()
    );
    let on_a_terminal = |sandbox: &Sandbox| {
        let mut command = sandbox.command_via(&[]);
        // `script` gives the command a pseudo-terminal.
        let mut script = std::process::Command::new("script");
        script.args(["-qec", &line, "/dev/null"]);
        for (key, value) in command.get_envs() {
            match value {
                Some(value) => script.env(key, value),
                None => script.env_remove(key),
            };
        }
        script
            .env("TERM", "xterm")
            .current_dir(command.get_current_dir().unwrap());
        command = script;
        crate::support::run_command(&mut command, b"")
    };
    let run = on_a_terminal(&sandbox);
    assert!(
        run.stdout
            .contains("\x1b[1;31merror[settings-missing]\x1b[0m"),
        "{run:?}"
    );
    sandbox.env("NO_COLOR", "1");
    let run = on_a_terminal(&sandbox);
    assert!(run.stdout.contains("error[settings-missing]"), "{run:?}");
    assert!(!run.stdout.contains('\x1b'), "{run:?}");
    // Not a terminal: no colour either.
    let run = sandbox.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            missing.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!run.stdout.contains('\x1b'), "{run:?}");
}

// ---- 11. what npm and pip users get -----------------------------------------

#[test]
fn the_npm_package_the_wheel_and_the_archive_ship_the_man_pages_and_the_schema() {
    let repo = crate::support::repo();
    let package: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo.join("npm/hookrun/package.json")).unwrap(),
    )
    .unwrap();
    let files: Vec<&str> = package["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        files.contains(&"man/") && files.contains(&"settings.schema.json"),
        "{files:?}"
    );
    // npm links the pages `man` lists into its share/man on a global
    // install: every page, by name.
    let mut pages: Vec<String> = std::fs::read_dir(repo.join("docs/man"))
        .unwrap()
        .map(|e| format!("man/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    pages.sort();
    let listed: Vec<&str> = package["man"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        listed, pages,
        "npm/hookrun/package.json `man` lists every page"
    );
    let npm = std::fs::read_to_string(repo.join("packaging/npm.sh")).unwrap();
    assert!(
        npm.contains("cp docs/man/*.1 \"$stage/main/man/\""),
        "packaging/npm.sh"
    );
    assert!(
        npm.contains("cp docs/settings.schema.json \"$stage/main/\""),
        "packaging/npm.sh"
    );
    // The wheel's data folder links to docs/, so it cannot drift.
    let pyproject = std::fs::read_to_string(repo.join("pyproject.toml")).unwrap();
    assert!(
        pyproject.contains("data = \"packaging/wheel\""),
        "pyproject.toml"
    );
    // One link per page (maturin reads linked files, not linked folders).
    let names = |dir: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let man = repo.join("packaging/wheel/data/share/man/man1");
    assert_eq!(
        names(&man),
        names(&repo.join("docs/man")),
        "every man page has its link in {} (ln -s ../../../../../../docs/man/PAGE.1)",
        man.display()
    );
    for page in names(&man) {
        assert_eq!(
            std::fs::canonicalize(man.join(&page)).unwrap(),
            std::fs::canonicalize(repo.join("docs/man").join(&page)).unwrap(),
            "{page}"
        );
    }
    let schema = repo.join("packaging/wheel/data/share/hookrun/settings.schema.json");
    assert_eq!(
        std::fs::read(schema).unwrap(),
        std::fs::read(repo.join("docs/settings.schema.json")).unwrap()
    );
    let dist = std::fs::read_to_string(repo.join("packaging/dist.sh")).unwrap();
    assert!(
        dist.contains("cp docs/settings.schema.json \"$stage/\""),
        "packaging/dist.sh"
    );
    // And the README tells each channel's users where they are.
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    for place in [
        "$(npm root -g)/hookrun/settings.schema.json",
        "~/.local/share/man/man1",
        "share/hookrun/settings.schema.json",
    ] {
        assert!(readme.contains(place), "README.md does not say {place}");
    }
}

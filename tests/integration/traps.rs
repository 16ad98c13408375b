//! Traps a new user falls into: guards that end up off without a word, and
//! answers that come after the host gave up.

use serde_json::json;

use crate::support::{Sandbox, hooks};

// ---- the deadline covers the whole TERM→KILL sequence ---------------------

#[test]
fn a_hook_ignoring_sigterm_does_not_push_the_answer_past_the_deadline() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "UserPromptSubmit",
        json!([{ "command": "trap '' TERM; sleep 60 & wait; sleep 60" }]),
    ));
    let run = sandbox.run(
        &[
            "fire",
            "UserPromptSubmit",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
            "--deadline",
            "3s",
            "--kill-grace",
            "5s",
        ],
        &sandbox.event("UserPromptSubmit", &json!({ "prompt": "hi" })),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    // Before: SIGTERM at the deadline, SIGKILL a 5 s grace later (8 s).
    assert!(
        run.elapsed.as_secs_f64() < 6.0,
        "answered after the deadline plus the grace: {run:?}"
    );
    assert!(
        run.system_message().contains("deadline"),
        "says the deadline cut it: {run:?}"
    );
}

// ---- a misspelt event name is said, not swallowed -------------------------

#[test]
fn a_misspelt_event_argument_warns_with_the_event_it_probably_means() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "PreToolUse",
        json!([{ "command": "echo no >&2; exit 2" }]),
    ));
    let event = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Bash", "tool_input": {} }),
    );
    let file = settings.to_str().unwrap();
    let run = sandbox.run(
        &[
            "fire",
            "pre_tool_usee",
            "--no-default-settings",
            "--settings",
            file,
        ],
        &event,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let message = run.system_message();
    assert!(message.contains("did you mean `PreToolUse`"), "{run:?}");
    assert!(message.contains("differs from the input"), "{run:?}");

    let misspelt = sandbox.event(
        "PreToolUze",
        &json!({ "tool_name": "Bash", "tool_input": {} }),
    );
    let run = sandbox.run(
        &[
            "fire",
            "--no-default-settings",
            "--settings",
            file,
            "--format",
            "report",
        ],
        &misspelt,
    );
    let report = run.json();
    assert!(
        report.to_string().contains("did you mean `PreToolUse`"),
        "the report says it too: {report:#}"
    );

    // A new, unrelated event name passes through quietly.
    let new = sandbox.event("MyDeployEvent", &json!({}));
    let run = sandbox.run(&["fire", "--no-default-settings", "--settings", file], &new);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(run.stdout.trim(), "{}", "{run:?}");
}

// ---- a misspelt filter key is an error, and fire says "unfiltered" --------

#[test]
fn a_misspelt_matcher_is_a_doctor_error_and_a_fire_warning() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "PreToolUse",
        json!([{ "matchr": "Bash", "command": "echo no >&2; exit 2" }]),
    ));
    let file = settings.to_str().unwrap();
    let run = sandbox.run(
        &["doctor", "--no-default-settings", "--settings", file],
        b"",
    );
    assert_eq!(run.code, Some(1), "an error: {run:?}");
    assert!(
        run.stdout.contains("filter-typo") || run.stdout.contains("misspelt `matcher`"),
        "{run:?}"
    );

    let read = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Read", "tool_input": {} }),
    );
    let run = sandbox.run(
        &crate::support::fire_args("PreToolUse", std::path::Path::new(file), &[]),
        &read,
    );
    assert!(run.stdout.contains("runs unfiltered"), "{run:?}");
}

#[test]
fn a_lowercase_tool_name_and_a_millisecond_timeout_warn_at_fire_time() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "PreToolUse",
        json!([
            { "matcher": "bash", "command": "echo no >&2; exit 2" },
            { "matcher": "Read", "command": "true", "timeout": 5000 }
        ]),
    ));
    let file = settings.to_str().unwrap();
    let bash = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Bash", "tool_input": {} }),
    );
    let run = sandbox.run(
        &crate::support::fire_args("PreToolUse", std::path::Path::new(file), &[]),
        &bash,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let message = run.system_message();
    assert!(message.contains("matcher names tool `bash`"), "{run:?}");
    assert!(message.contains("looks like milliseconds"), "{run:?}");
}

#[test]
fn a_lowercase_tool_in_if_warns_at_fire_time_as_in_matcher() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks(
        "PreToolUse",
        json!([{ "if": "bash(rm -rf *)", "command": "echo no >&2; exit 2" }]),
    ));
    let file = settings.to_str().unwrap();
    let rm = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Bash", "tool_input": { "command": "rm -rf *" } }),
    );
    let run = sandbox.run(
        &crate::support::fire_args("PreToolUse", std::path::Path::new(file), &[]),
        &rm,
    );
    assert_eq!(run.code, Some(0), "the hook is off: {run:?}");
    let message = run.system_message();
    assert!(message.contains("`if` names tool `bash`"), "{run:?}");
    assert!(message.contains("hooks.PreToolUse[0].if"), "{run:?}");
    assert!(message.contains("`Bash`"), "{run:?}");
    // And doctor fails on it.
    let run = sandbox.run(
        &["doctor", "--no-default-settings", "--settings", file],
        b"",
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stdout.contains("error[tool-name-case]"), "{run:?}");
}

// ---- trust: symlinks, the user's config folder, ~ and / -------------------

fn marker_hook(sandbox: &Sandbox, name: &str) -> serde_json::Value {
    let marker = sandbox.path(&format!("{name}.ran"));
    hooks(
        "Stop",
        json!([{ "command": format!("touch '{}'", marker.display()) }]),
    )
}

crate::platform::unix_only! {
#[test]
fn a_symlink_does_not_walk_a_project_file_past_trust() {
    for project_is_link in [false, true] {
        let mut sandbox = Sandbox::new();
        let link = sandbox.path("project-link");
        std::os::unix::fs::symlink(&sandbox.project, &link).unwrap();
        let content = serde_json::to_string(&marker_hook(&sandbox, "linked")).unwrap();
        sandbox.write("project/hooks.json", &content);
        let (project, named): (std::path::PathBuf, std::path::PathBuf) = if project_is_link {
            (link.clone(), sandbox.project.join("hooks.json"))
        } else {
            (sandbox.project.clone(), link.join("hooks.json"))
        };
        let project = project.to_str().unwrap().to_owned();
        sandbox.env("CLAUDE_PROJECT_DIR", &project);
        let run = sandbox.run(
            &crate::support::fire_args("Stop", &named, &[]),
            &sandbox.event("Stop", &json!({})),
        );
        assert!(
            !sandbox.path("linked.ran").exists(),
            "a project file named through a link ran untrusted (project is link: {project_is_link}): {run:?}"
        );
        assert!(run.system_message().contains("is not trusted"), "{run:?}");
    }
}
}

#[test]
fn the_users_config_folder_is_never_project_content() {
    // Claude Code started in the home folder: the project is ~.
    let mut sandbox = Sandbox::new();
    let content = serde_json::to_string(&marker_hook(&sandbox, "config")).unwrap();
    let file = sandbox.write("home/.config/hookrun/extra.json", &content);
    let home = sandbox.home.to_str().unwrap().to_owned();
    sandbox.env("CLAUDE_PROJECT_DIR", &home);
    let run = sandbox.run(
        &crate::support::fire_args("Stop", &file, &[]),
        &sandbox.event("Stop", &json!({})),
    );
    assert!(sandbox.path("config.ran").exists(), "{run:?}");
}

#[test]
fn home_reached_by_fallback_is_not_a_project_root() {
    let sandbox = Sandbox::new();
    let content = serde_json::to_string(&marker_hook(&sandbox, "home")).unwrap();
    let file = sandbox.write("home/my-hooks/hooks.json", &content);
    // No project named, the event's cwd is ~ with no .hookrun anywhere up.
    let mut event: serde_json::Value =
        serde_json::from_slice(&sandbox.event("Stop", &json!({}))).unwrap();
    event["cwd"] = json!(sandbox.home.to_str().unwrap());
    let run = sandbox.run(
        &crate::support::fire_args("Stop", &file, &[]),
        &serde_json::to_vec(&event).unwrap(),
    );
    assert!(sandbox.path("home.ran").exists(), "{run:?}");
}

// ---- a hook that runs `hookrun fire` cannot fork without end --------------

#[test]
fn a_recursive_fire_is_refused_beyond_a_small_depth_and_the_outer_answers() {
    let sandbox = Sandbox::new();
    let file = sandbox.path("cli/recursive.json");
    let count = sandbox.path("fires.log");
    let command = format!(
        "echo x >> '{}'; '{}' fire Stop --no-default-settings --settings '{}'",
        count.display(),
        crate::support::BIN,
        file.display()
    );
    sandbox.write(
        "cli/recursive.json",
        &serde_json::to_string(&hooks("Stop", json!([{ "command": command }]))).unwrap(),
    );
    let run = sandbox.run(
        &[
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
            "--deadline",
            "5s",
        ],
        &sandbox.event("Stop", &json!({})),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.elapsed.as_secs_f64() < 8.0, "{run:?}");
    let fires = std::fs::read_to_string(&count)
        .unwrap_or_default()
        .lines()
        .count();
    // The outer hook, then one per allowed nested fire; the next is refused.
    assert_eq!(fires, 3, "hooks that ran: {fires}; {run:?}");
    assert!(
        run.stdout.contains("refused a fire nested 3 deep"),
        "{run:?}"
    );
}

// ---- the README's first command from a path with a space ------------------

fn copy_fixture_tree(to: &std::path::Path) {
    for sub in ["settings", "hooks"] {
        let from = crate::support::fixture(sub);
        std::fs::create_dir_all(to.join(sub)).unwrap();
        for entry in std::fs::read_dir(&from).unwrap().flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), to.join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
}

#[test]
fn the_readme_command_blocks_from_a_folder_with_a_space() {
    let sandbox = Sandbox::new();
    let spaced = sandbox.path("my checkout/fixtures");
    copy_fixture_tree(&spaced);
    let event = std::fs::read(crate::support::fixture(
        "events/pre_tool_use__git_push.json",
    ))
    .unwrap();
    let settings = spaced.join("settings/flat.json");
    let run = sandbox.run(
        &[
            "fire",
            "pre_tool_use",
            "--trust-project",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
        ],
        &event,
    );
    assert_eq!(run.code, Some(2), "the push must be blocked: {run:?}");
    assert!(
        run.stderr.contains("Pushing to main is not allowed"),
        "{run:?}"
    );
}

#[test]
fn doctor_says_quote_it_for_an_unquoted_path_with_a_space() {
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "my hooks/settings.json",
        &serde_json::to_string(&hooks(
            "PreToolUse",
            json!([{ "matcher": "Bash", "command": "${HOOKRUN_CONFIG_DIR}/guard.sh" }]),
        ))
        .unwrap(),
    );
    sandbox.script("my hooks/guard.sh", "#!/bin/sh\nexit 0\n");
    let run = sandbox.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stdout.contains("unquoted-path"), "{run:?}");
    assert!(run.stdout.contains("quote it"), "{run:?}");
}

// ---- hookrun init ---------------------------------------------------------

#[test]
fn init_writes_a_starter_once_and_prints_the_host_entry_by_absolute_path() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["init"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let written = sandbox.home.join(".config/hookrun/settings.json");
    assert!(written.is_file(), "{run:?}");
    let start = run.stdout.find("{\n").expect("the entry");
    let end = run.stdout.rfind("\n}").expect("the entry") + 2;
    let entry: serde_json::Value = serde_json::from_str(&run.stdout[start..end]).unwrap();
    let binary = std::fs::canonicalize(crate::support::BIN).unwrap();
    assert_eq!(
        entry["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        format!("{} fire --host claude-code", binary.display())
    );
    // The starter is clean for doctor, and it blocks a push to main.
    let doctor = sandbox.run(&["doctor"], b"");
    assert_eq!(doctor.code, Some(0), "{doctor:?}");
    let push = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Bash", "tool_input": { "command": "git push origin main" } }),
    );
    assert_eq!(sandbox.run(&["fire"], &push).code, Some(2));
    // Never overwritten.
    std::fs::write(&written, "{}").unwrap();
    let again = sandbox.run(&["init"], b"");
    assert_eq!(again.code, Some(1), "{again:?}");
    assert!(again.stderr.contains("already exists"), "{again:?}");
    assert_eq!(std::fs::read_to_string(&written).unwrap(), "{}");
    // --project writes the project's file and says to trust it.
    let project = sandbox.run(&["init", "--project"], b"");
    assert_eq!(project.code, Some(0), "{project:?}");
    assert!(sandbox.project.join(".hookrun/settings.json").is_file());
    assert!(project.stdout.contains("hookrun trust"), "{project:?}");
}

// ---- user docs stand on their own -----------------------------------------

fn markdown_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn user_docs_cite_nothing_outside_the_repository() {
    let repo = crate::support::repo();
    let mut files = vec![repo.join("README.md")];
    markdown_files(&repo.join("docs"), &mut files);
    markdown_files(&repo.join("fixtures"), &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for banned in [
                "SPEC §",
                "SPEC's",
                "the SPEC",
                "FINDINGS",
                "/work/",
                "../shared",
            ] {
                if line.contains(banned) {
                    problems.push(format!("{}:{}: cites {banned:?}", file.display(), n + 1));
                }
            }
            // Relative links must name files of the repository.
            let mut rest = line;
            while let Some(at) = rest.find("](") {
                let tail = &rest[at + 2..];
                let Some(end) = tail.find(')') else { break };
                let target = tail[..end].split('#').next().unwrap_or_default();
                if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
                    let resolved = file.parent().unwrap().join(target);
                    if !resolved.exists() {
                        problems.push(format!(
                            "{}:{}: links to missing {target}",
                            file.display(),
                            n + 1
                        ));
                    }
                }
                rest = &tail[end..];
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---- no command panics on huge keys; list's layout ------------------------

#[test]
fn no_command_panics_on_keys_of_65536_characters_or_more() {
    let sandbox = Sandbox::new();
    let huge = "a".repeat(70_000);
    let file = sandbox.settings(&json!({ "hooks": {
        "PreToolUse": [
            { "matcher": huge, "command": "true" },
            { "matcher": "Bash", "if": format!("Bash({huge})"), "command": "true" },
            { "type": huge, "command": "true" }
        ],
        huge.clone(): [{ "command": "true" }]
    }}));
    let file = file.to_str().unwrap();
    let event = sandbox.event(
        "PreToolUse",
        &json!({ "tool_name": "Bash", "tool_input": { "command": "ls" } }),
    );
    for args in [
        vec!["list", "--no-default-settings", "--settings", file],
        vec![
            "list",
            "--no-default-settings",
            "--settings",
            file,
            "--format",
            "json",
        ],
        vec!["doctor", "--no-default-settings", "--settings", file],
        vec![
            "explain",
            "PreToolUse",
            "--no-default-settings",
            "--settings",
            file,
        ],
        vec![
            "fire",
            "PreToolUse",
            "--no-default-settings",
            "--settings",
            file,
        ],
    ] {
        let run = sandbox.run(&args, &event);
        assert!(
            matches!(run.code, Some(0..=2)) && !run.stderr.contains("panicked"),
            "{args:?}: {:?}\n{}",
            run.code,
            run.stderr.chars().take(2000).collect::<String>()
        );
    }
    let run = sandbox.run(&["list", "--no-default-settings", "--settings", file], b"");
    assert!(
        run.stdout.contains("(70000 chars)"),
        "shortened with its length"
    );
    assert!(
        run.stdout.lines().all(|l| l.chars().count() < 800),
        "{}",
        run.stdout
    );
}

#[test]
fn list_tables_are_as_wide_as_their_own_cells_and_the_footer_counts_by_severity() {
    let sandbox = Sandbox::new();
    let plain = sandbox.settings(&hooks(
        "Stop",
        json!([{ "name": "short", "command": "true" }]),
    ));
    let broken = sandbox.settings(&json!({ "hooks": { "Stop": [
        { "name": "other", "command": "true", "comand": "typo" },
        { "command": "" }
    ]}}));
    let run = sandbox.run(
        &[
            "list",
            "--no-default-settings",
            "--settings",
            plain.to_str().unwrap(),
            "--settings",
            broken.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let header = run.stdout.lines().find(|l| l.contains("EVENT")).unwrap();
    assert!(
        header.trim_end().ends_with("STATE"),
        "STATE last, unpadded: {header:?}"
    );
    assert!(
        run.stdout.contains("found 1 error and 1 warning"),
        "{}",
        run.stdout
    );
}

// ---- smaller output problems ----------------------------------------------

#[test]
fn explain_says_an_entry_was_skipped_and_shortens_a_huge_command() {
    let sandbox = Sandbox::new();
    let skipped = sandbox.settings(&hooks("Stop", json!([{ "command": "" }])));
    let run = sandbox.run(
        &[
            "explain",
            "Stop",
            "--no-default-settings",
            "--settings",
            skipped.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        !run.stdout.contains("no hooks are configured"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("1 settings error above"),
        "{}",
        run.stdout
    );

    let big = sandbox.settings(&hooks(
        "Stop",
        json!([{ "command": format!("true # {}", "x".repeat(200_000)) }]),
    ));
    let run = sandbox.run(
        &[
            "explain",
            "Stop",
            "--no-default-settings",
            "--settings",
            big.to_str().unwrap(),
        ],
        b"",
    );
    assert!(run.stdout.len() < 20_000, "{} bytes", run.stdout.len());
    assert!(
        run.stdout.contains(" more characters, "),
        "{}",
        &run.stdout[..500.min(run.stdout.len())]
    );
}

#[test]
fn stats_before_the_first_fire_says_so_and_counts_one_fire_in_the_singular() {
    let sandbox = Sandbox::new();
    let log = sandbox.path("audit.jsonl");
    let run = sandbox.run(&["stats", "--log", log.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("no fires logged yet"), "{run:?}");

    let settings = sandbox.settings(&hooks("Stop", json!([{ "name": "s", "command": "true" }])));
    let fire = sandbox.run(
        &[
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ],
        &sandbox.event("Stop", &json!({})),
    );
    assert_eq!(fire.code, Some(0), "{fire:?}");
    let run = sandbox.run(&["stats", "--log", log.to_str().unwrap()], b"");
    assert!(run.stdout.contains(": 1 fire\n"), "{}", run.stdout);
}

#[test]
fn verbose_logs_carry_no_colour_when_stderr_is_not_a_terminal() {
    let sandbox = Sandbox::new();
    let settings = sandbox.settings(&hooks("Stop", json!([{ "command": "true" }])));
    let run = sandbox.run(
        &[
            "-vv",
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
        ],
        &sandbox.event("Stop", &json!({})),
    );
    assert!(!run.stderr.is_empty(), "-vv logs something: {run:?}");
    assert!(
        !run.stderr.contains('\u{1b}'),
        "ANSI escapes on a pipe: {:?}",
        run.stderr
    );
}

#[test]
fn test_and_trust_on_a_missing_path_say_it_does_not_exist() {
    let sandbox = Sandbox::new();
    let missing = sandbox.path("no-such/cases.json");
    let run = sandbox.run(&["test", missing.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stdout
            .contains(&format!("{} does not exist", missing.display())),
        "{run:?}"
    );
    let run = sandbox.run(&["trust", missing.to_str().unwrap()], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(
        run.stderr
            .contains(&format!("{} does not exist", missing.display())),
        "{run:?}"
    );
    assert!(!run.stderr.contains("no settings to trust"), "{run:?}");
}

#[test]
fn a_trailing_comma_is_reported_on_the_line_it_is_on() {
    let sandbox = Sandbox::new();
    let file = sandbox.write(
        "cli/comma.json",
        "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"command\": \"true\"},\n    ]\n  }\n}\n",
    );
    let run = sandbox.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        run.stdout.contains("trailing comma at line 4 column 26"),
        "{}",
        run.stdout
    );
}

crate::platform::unix_only! {
#[test]
fn doctor_flags_a_script_that_uses_a_missing_jq_without_checking() {
    let mut sandbox = Sandbox::new();
    let bin = sandbox.path("bin-without-jq");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.join("sh")).unwrap();
    let path = bin.to_str().unwrap().to_owned();
    sandbox.env("PATH", &path);
    sandbox.script(
        "cli/guard.sh",
        "#!/bin/sh\ncommand=$(jq -r '.tool_input.command // empty')\ncase $command in *main*) exit 2 ;; esac\nexit 0\n",
    );
    let file = sandbox.settings(&hooks(
        "PreToolUse",
        json!([{ "matcher": "Bash", "command": "\"$HOOKRUN_CONFIG_DIR\"/guard.sh" }]),
    ));
    let run = sandbox.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert!(run.stdout.contains("script-tool-missing"), "{}", run.stdout);
    assert!(run.stdout.contains("uses `jq`"), "{}", run.stdout);
}
}

// ---- the suite does not depend on a hookrun the user installed ------------

#[test]
fn a_hookrun_on_the_users_path_is_kept_out_of_the_sandbox() {
    let sandbox = Sandbox::new();
    // As after `cargo install --path .`: a `hookrun` in a folder on PATH.
    let installed = sandbox.script("installed/bin/hookrun", "#!/bin/sh\nexit 0\n");
    let dir = installed.parent().unwrap();
    let user_path = format!("{}:/usr/bin:/bin", dir.display());
    let clean = crate::support::clean_path(Some(user_path.into()));
    let clean = clean.to_str().unwrap();
    assert_eq!(clean, "/usr/bin:/bin");
    // And the sandbox's own PATH never holds one.
    let path = crate::support::clean_path(std::env::var_os("PATH"));
    for dir in std::env::split_paths(&path) {
        assert!(!dir.join("hookrun").exists(), "{}", dir.display());
    }
}

// ---- an event cwd that does not exist here --------------------------------

#[test]
fn the_bundled_fixtures_use_the_project_they_are_run_in() {
    let sandbox = Sandbox::new();
    // A trusted project policy, as a user sets it up.
    sandbox.write(
        "project/.hookrun/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "if": "Bash(git push *)", "name": "no-push",
            "command": "echo 'no pushes' >&2; exit 2"}]}})
        .to_string(),
    );
    let trust = sandbox.run(&["trust", sandbox.project.to_str().unwrap()], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    let push = std::fs::read(crate::support::fixture(
        "events/pre_tool_use__git_push.json",
    ))
    .unwrap();
    let run = sandbox.run(&["explain"], &push);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("no-push"), "{run:?}");
    assert!(!run.stdout.contains("does not exist here"), "{run:?}");
    let run = sandbox.run(&["fire"], &push);
    assert_eq!(run.code, Some(2), "the project's guard holds: {run:?}");
    // Every bundled event leaves cwd out (a fixture cannot know it).
    for entry in std::fs::read_dir(crate::support::fixture("events")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let event: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            assert!(event.get("cwd").is_none(), "{}", path.display());
        }
    }
}

#[test]
fn an_event_cwd_that_does_not_exist_is_said() {
    let sandbox = Sandbox::new();
    let event = json!({"hook_event_name": "PreToolUse", "cwd": "/home/nobody/project",
        "tool_name": "Bash", "tool_input": {"command": "git push"}})
    .to_string();
    let run = sandbox.run(&["explain"], event.as_bytes());
    assert!(
        run.stdout
            .contains("/home/nobody/project does not exist here"),
        "{run:?}"
    );
    let run = sandbox.run(&["fire"], event.as_bytes());
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.system_message().contains("does not exist here"),
        "{run:?}"
    );
    // --project-dir names the project: nothing to say.
    let project = sandbox.project.to_str().unwrap();
    let run = sandbox.run(&["explain", "--project-dir", project], event.as_bytes());
    assert!(!run.stdout.contains("does not exist here"), "{run:?}");
}

// ---- init's starter guard holds --------------------------------------------

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

#[test]
fn the_init_starter_blocks_every_push_to_main_and_lets_branches_through() {
    if std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_err()
    {
        crate::support::skipped("the_init_starter_blocks_every_push_to_main: no git here");
        return;
    }
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["init"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    // A repository on main with a remote, as the agent finds it.
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
    let fire = |command: &str| {
        let event = sandbox.event(
            "PreToolUse",
            &json!({"tool_name": "Bash", "tool_input": {"command": command}}),
        );
        sandbox.run(&["fire"], &event)
    };
    for command in [
        "git push",
        "git push origin",
        "git push -u origin HEAD",
        "git push origin main",
        "git push origin HEAD:main",
        "git push --force origin main",
        "git push origin main --force",
        "git push origin +main",
        "git push origin feature:refs/heads/main",
        "cd . && git push",
        // git's global options before the subcommand.
        "git -C . push origin main",
        "git -c push.default=current push",
        "git --no-pager push origin HEAD:main",
    ] {
        let run = fire(command);
        assert_eq!(run.code, Some(2), "{command}: {run:?}");
    }
    // On a branch of its own, pushing that branch goes through.
    git(repo, &["switch", "-q", "-c", "feature"]);
    for command in [
        "git push origin feature",
        "git push -u origin HEAD",
        "git status",
    ] {
        let run = fire(command);
        assert_eq!(run.code, Some(0), "{command}: {run:?}");
    }
    // ...but a branch whose plain push goes to main does not.
    git(repo, &["config", "push.default", "upstream"]);
    git(repo, &["config", "branch.feature.remote", "origin"]);
    git(repo, &["config", "branch.feature.merge", "refs/heads/main"]);
    let run = fire("git push");
    assert_eq!(run.code, Some(2), "a plain push to main: {run:?}");
    // And the starter the user keeps is clean to doctor.
    let run = sandbox.run(&["doctor"], b"");
    assert!(!run.stdout.contains("error["), "{run:?}");
}

#[test]
fn init_project_in_a_subfolder_writes_at_the_repository_root_and_says_so() {
    let sandbox = Sandbox::new();
    git(&sandbox.project, &["init", "-q"]);
    let sub = sandbox.project.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let run = crate::support::run_command(
        sandbox
            .command()
            .args(["init", "--project"])
            .current_dir(&sub),
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let written = sandbox.project.join(".hookrun/settings.json");
    assert!(written.is_file(), "{run:?}");
    assert!(!sub.join(".hookrun").exists(), "{run:?}");
    assert!(run.stdout.contains("top of the git repository"), "{run:?}");
    assert!(run.stdout.contains(written.to_str().unwrap()), "{run:?}");
    // The printed entry routes the one event the starter has hooks on.
    assert!(run.stdout.contains("\"PreToolUse\""), "{run:?}");
    assert!(!run.stdout.contains("\"SessionStart\""), "{run:?}");
}

#[test]
fn the_verbose_help_does_not_promise_fire_behaviour_on_every_command() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["completions", "--help"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    // The old text claimed, for every command, that stderr carries only the
    // block reason without -v.
    assert!(
        !run.stdout.contains("Without either, stderr carries only"),
        "{run:?}"
    );
    assert!(run.stdout.contains("Under `fire`"), "{run:?}");
}

//! What the agent can plant or change in the files and environment hookrun
//! reads: a FIFO at any path a fire opens, an edit to a trusted file, an
//! empty nested `.hookrun/`, a bogus `HOOKRUN_DEPTH`, a log path that is the
//! answer's own stdout, a file-size limit, a symlink at a state file. None
//! of them may hang a fire, switch a rule off or write outside its file.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Run, Sandbox, run_command_within};

/// A fire must answer well before this; a hang would last until the test
/// kills it.
const HANG: Duration = Duration::from_secs(30);

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(path);
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
}

fn project_settings(sb: &Sandbox, value: &Value) -> PathBuf {
    let file = sb.project.join(".hookrun/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, serde_json::to_string_pretty(value).unwrap()).unwrap();
    file
}

/// A call of a session of its own: the notices said once per session (a
/// changed trusted file) are said on each.
fn bash_event(sb: &Sandbox, command: &str) -> Vec<u8> {
    static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    sb.event(
        "PreToolUse",
        &json!({"session_id": format!("planted-{n}"), "tool_name": "Bash", "tool_input": {"command": command}}),
    )
}

fn fire_within(sb: &Sandbox, args: &[&str], stdin: &[u8]) -> Run {
    let run = run_command_within(sb.command().args(args), stdin, HANG * 2);
    assert!(
        run.elapsed < HANG,
        "the fire took {:?}: {run:?}",
        run.elapsed
    );
    run
}

#[test]
fn an_edit_to_a_trusted_file_never_switches_its_rules_off() {
    let sb = Sandbox::new();
    let file = project_settings(&sb, &json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    let trust = sb.run(&["trust"], b"");
    assert_eq!(trust.code, Some(0), "{trust:?}");
    let rm = |args: &[&str]| fire_within(&sb, args, &bash_event(&sb, "rm -rf build"));
    let run = rm(&["fire", "PreToolUse"]);
    assert_eq!(run.code, Some(2), "the trusted deny rule denies: {run:?}");

    // One space is an edit; so is removing the rule.
    let original = std::fs::read_to_string(&file).unwrap();
    for edited in [format!("{original} "), r#"{"permissions": {}}"#.to_owned()] {
        std::fs::write(&file, &edited).unwrap();
        for args in [
            &["fire", "PreToolUse"][..],
            &["fire", "PreToolUse", "--fail-closed"],
        ] {
            let run = rm(args);
            assert_eq!(run.code, Some(2), "the trusted rule still denies: {run:?}");
            assert!(
                run.stderr
                    .contains("denied by permission rule \"Bash(rm *)\""),
                "{run:?}"
            );
            assert!(
                run.system_message()
                    .contains("changed since it was trusted")
                    && run.system_message().contains("still in force"),
                "{run:?}"
            );
        }
    }
    // Removing the file, or putting a FIFO in its place, does not either.
    std::fs::remove_file(&file).unwrap();
    let run = rm(&["fire", "PreToolUse"]);
    assert_eq!(
        run.code,
        Some(2),
        "a removed file's rule still denies: {run:?}"
    );
    assert!(
        run.system_message()
            .contains("was removed since it was trusted"),
        "{run:?}"
    );
    mkfifo(&file);
    let run = rm(&["fire", "PreToolUse"]);
    assert_eq!(
        run.code,
        Some(2),
        "a FIFO in its place: still denied: {run:?}"
    );
    std::fs::remove_file(&file).unwrap();
    // A rule added by an edit waits for a human.
    std::fs::write(
        &file,
        json!({"permissions": {"deny": ["Bash(rm *)", "Bash(ls *)"]}}).to_string(),
    )
    .unwrap();
    let run = fire_within(&sb, &["fire", "PreToolUse"], &bash_event(&sb, "ls -l"));
    assert_eq!(
        run.code,
        Some(0),
        "the new rule is not in force yet: {run:?}"
    );
    // `doctor` says which content is in force.
    let doctor = sb.run(&["doctor"], b"");
    assert!(doctor.stdout.contains("still in force"), "{doctor:?}");
    // Trusting again puts the new content in force.
    assert_eq!(sb.run(&["trust"], b"").code, Some(0));
    let run = fire_within(&sb, &["fire", "PreToolUse"], &bash_event(&sb, "ls -l"));
    assert_eq!(
        run.code,
        Some(2),
        "trusted again, the new rule denies: {run:?}"
    );
}

#[test]
fn a_trust_record_without_a_copy_fails_closed_once_the_file_changes() {
    let sb = Sandbox::new();
    let file = project_settings(&sb, &json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    // A record as an older hookrun wrote it: a hash, no copy.
    let store = sb.home.join(".config/hookrun/trust.json");
    std::fs::create_dir_all(store.parent().unwrap()).unwrap();
    let sha = hookrun::settings::trust::sha256_hex(&std::fs::read(&file).unwrap());
    let record =
        json!({"version": 1, "files": {file.to_str().unwrap(): {"sha256": sha, "trusted_at": 1}}});
    std::fs::write(&store, record.to_string()).unwrap();
    std::fs::write(&file, r#"{"permissions": {}}"#).unwrap();
    let run = fire_within(
        &sb,
        &["fire", "PreToolUse", "--fail-closed"],
        &bash_event(&sb, "rm -rf build"),
    );
    assert_eq!(
        run.code,
        Some(2),
        "nothing trusted to enforce: block: {run:?}"
    );
    assert!(run.stderr.contains("holds no copy"), "{run:?}");

    // While the file is unchanged, a fire keeps the copy an old record lacks.
    let file = project_settings(&sb, &json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    let _ = file;
    std::fs::write(&store, record.to_string()).unwrap();
    let run = fire_within(
        &sb,
        &["fire", "PreToolUse"],
        &bash_event(&sb, "rm -rf build"),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    std::fs::write(sb.project.join(".hookrun/settings.json"), "{}").unwrap();
    let run = fire_within(
        &sb,
        &["fire", "PreToolUse"],
        &bash_event(&sb, "rm -rf build"),
    );
    assert_eq!(run.code, Some(2), "the kept copy is enforced: {run:?}");
}

fn sha(text: &str) -> String {
    hookrun::settings::trust::sha256_hex(text.as_bytes())
}

/// The sandbox session's state folder (`it-session`).
fn session_dir(sb: &Sandbox) -> PathBuf {
    sb.home
        .join(".state/hookrun/sessions")
        .join(&sha("it-session")[..32])
}

fn stop_counter(sb: &Sandbox) -> PathBuf {
    session_dir(sb).join(format!("stop-blocks-{}", &sha("Stop:")[..16]))
}

#[test]
fn a_fifo_at_any_file_a_fire_opens_never_hangs_it() {
    type Place = fn(&Sandbox) -> PathBuf;
    let places: [(&str, Place, &str); 8] = [
        (
            "project settings",
            |sb| sb.project.join(".hookrun/settings.json"),
            "Stop",
        ),
        (
            "local settings",
            |sb| sb.project.join(".hookrun/settings.local.json"),
            "Stop",
        ),
        (
            "user settings",
            |sb| sb.home.join(".config/hookrun/settings.json"),
            "Stop",
        ),
        ("--settings file", |sb| sb.path("cli/named.json"), "Stop"),
        (
            "trust store",
            |sb| sb.home.join(".config/hookrun/trust.json"),
            "Stop",
        ),
        ("audit log", |sb| sb.path("audit.jsonl"), "Stop"),
        ("stop-loop counter", stop_counter, "Stop"),
        (
            "async result",
            |sb| session_dir(sb).join("async/1-2.result.json"),
            "UserPromptSubmit",
        ),
    ];
    for (what, place, event) in places {
        let sb = Sandbox::new();
        // Something to load in every layer, so each file is opened.
        let hooks = json!({"hooks": {event: [{"command": "true"}]}});
        project_settings(&sb, &hooks);
        let named = sb.write("cli/named.json", &hooks.to_string());
        let fifo = place(&sb);
        mkfifo(&fifo);
        let log = sb.path("audit.jsonl");
        let args = [
            "fire",
            event,
            "--settings",
            named.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ];
        let run = fire_within(&sb, &args, &sb.event(event, &json!({"prompt": "hi"})));
        assert_eq!(run.code, Some(0), "{what}: {run:?}");
        // The async result was claimed (renamed) before it was refused.
        let named_path = fifo.display().to_string();
        let named_path = named_path.trim_end_matches(".result.json");
        assert!(
            run.stdout.contains(named_path) && run.stdout.contains("FIFO"),
            "{what}: the warning names the file: {run:?}"
        );
    }
}

#[test]
fn an_unreadable_settings_file_blocks_under_fail_closed() {
    let sb = Sandbox::new();
    let fifo = sb.path("cli/guard.json");
    mkfifo(&fifo);
    let args = [
        "fire",
        "PreToolUse",
        "--no-default-settings",
        "--fail-closed",
        "--settings",
        fifo.to_str().unwrap(),
    ];
    let run = fire_within(&sb, &args, &bash_event(&sb, "ls"));
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr.contains(&fifo.display().to_string()) && run.stderr.contains("a FIFO"),
        "{run:?}"
    );
    // A pipe the command line names as a descriptor is still read.
    let mut cmd = sb.command();
    cmd.args(["-c", r#"exec "$0" fire PreToolUse --no-default-settings --settings /dev/fd/5 5< <(printf '%s' "$1")"#])
        .arg(crate::support::BIN)
        .arg(json!({"permissions": {"deny": ["Bash(ls *)"]}}).to_string());
    let mut bash = std::process::Command::new("bash");
    bash.args(cmd.get_args())
        .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        .current_dir(&sb.project);
    let run = run_command_within(&mut bash, &bash_event(&sb, "ls -l"), HANG);
    assert_eq!(run.code, Some(2), "the rule from the pipe denies: {run:?}");
}

#[test]
fn a_log_on_hookruns_own_stdout_or_stderr_is_refused() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"Stop": [{"command": "true"}]}}));
    for target in ["/dev/stdout", "/dev/stderr"] {
        // Stdout a pipe (the test's), and stdout a regular file.
        let args = [
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
            "--log",
            target,
        ];
        let run = fire_within(&sb, &args, &sb.event("Stop", &json!({})));
        assert_eq!(run.code, Some(0), "{run:?}");
        assert_eq!(run.stdout.lines().count(), 1, "one answer line: {run:?}");
        assert!(
            run.system_message()
                .contains("could not write the audit log"),
            "{run:?}"
        );
        let out = sb.path("answer.json");
        let err = sb.path("answer.err");
        let mut cmd = sb.command();
        let line = format!(
            r#"exec "$0" "$@" > '{}' 2> '{}'"#,
            out.display(),
            err.display()
        );
        let mut sh = std::process::Command::new("sh");
        sh.arg("-c")
            .arg(line)
            .arg(crate::support::BIN)
            .args(args)
            .env_clear()
            .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
            .current_dir(&sb.project);
        let _ = &mut cmd;
        let run = run_command_within(&mut sh, &sb.event("Stop", &json!({})), HANG);
        assert_eq!(run.code, Some(0), "{run:?}");
        let answer = std::fs::read_to_string(&out).unwrap();
        assert_eq!(answer.lines().count(), 1, "{target}: one line: {answer}");
        let value: Value = serde_json::from_str(&answer).unwrap();
        assert!(
            value["systemMessage"]
                .as_str()
                .unwrap()
                .contains("hookrun's own stdout or stderr"),
            "{target}: {answer}"
        );
        assert!(
            !std::fs::read_to_string(&err).unwrap().contains("\"v\":"),
            "{target}: no log line on stderr"
        );
    }
}

#[test]
fn a_file_size_limit_does_not_kill_the_answer() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"Stop": [{"command": "true"}]}}));
    let log = sb.write("full.jsonl", &"x".repeat(64 * 1024));
    let mut sh = std::process::Command::new("sh");
    let env = sb.command();
    sh.args(["-c", r#"ulimit -f 1 && exec "$0" "$@""#])
        .arg(crate::support::BIN)
        .args([
            "fire",
            "Stop",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ])
        .env_clear()
        .envs(env.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        .current_dir(&sb.project);
    let run = run_command_within(&mut sh, &sb.event("Stop", &json!({})), HANG);
    assert_eq!(run.code, Some(0), "not killed by SIGXFSZ: {run:?}");
    assert!(
        run.system_message()
            .contains("could not write the audit log"),
        "{run:?}"
    );
}

#[test]
fn a_log_that_cannot_be_written_is_said_once_by_the_one_answer() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"Stop": [
        {"command": "echo not done yet >&2; exit 2"}
    ]}}));
    let log = sb.write("full.jsonl", &"x".repeat(64 * 1024));
    for format in ["protocol", "report"] {
        let mut sh = std::process::Command::new("sh");
        let env = sb.command();
        sh.args(["-c", r#"ulimit -f 1 && exec "$0" "$@""#])
            .arg(crate::support::BIN)
            .args([
                "fire",
                "Stop",
                "--no-default-settings",
                "--settings",
                settings.to_str().unwrap(),
                "--log",
                log.to_str().unwrap(),
                "--format",
                format,
            ])
            .env_clear()
            .envs(env.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
            .current_dir(&sb.project);
        let run = run_command_within(&mut sh, &sb.event("Stop", &json!({})), HANG);
        // The block stands, by exit code as by the answer.
        assert_eq!(run.code, Some(2), "{format}: {run:?}");
        assert!(run.stderr.contains("not done yet"), "{format}: {run:?}");
        let value: Value = serde_json::from_str(&run.stdout).expect("one JSON answer");
        let answer = if format == "protocol" {
            assert_eq!(run.stdout.lines().count(), 1, "one answer line: {run:?}");
            &value
        } else {
            // The report holds the answer given, with its exit code and
            // the log's failure as the last warning.
            assert_eq!(value["exit_code"], 2, "{value}");
            let warnings = value["warnings"].as_array().unwrap();
            assert!(
                warnings
                    .last()
                    .and_then(Value::as_str)
                    .is_some_and(|w| w.starts_with("could not write the audit log")),
                "{value}"
            );
            &value["output"]
        };
        let said = answer["systemMessage"].as_str().unwrap_or_default();
        assert_eq!(
            said.matches("could not write the audit log").count(),
            1,
            "{format}: said once: {said}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "x".repeat(64 * 1024),
        "no part of a line was written"
    );
}

#[test]
fn state_files_and_logs_are_private_and_never_written_through_a_link() {
    let sb = Sandbox::new();
    let precious = sb.write("precious.txt", "keep me");
    let settings = sb.settings(&json!({"hooks": {"Stop": [{"command": "true"}]}}));
    let log = sb.path("logs/audit.jsonl");
    let args = [
        "fire",
        "Stop",
        "--no-default-settings",
        "--settings",
        settings.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ];
    let run = fire_within(&sb, &args, &sb.event("Stop", &json!({})));
    assert_eq!(run.code, Some(0), "{run:?}");
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&log), 0o600, "the audit log is this user's only");
    assert_eq!(mode(&stop_counter(&sb)), 0o600, "so is the state");

    // Links planted at the counter and the log: neither target is touched.
    for path in [stop_counter(&sb), log.clone()] {
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&precious, &path).unwrap();
    }
    let run = fire_within(&sb, &args, &sb.event("Stop", &json!({})));
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    let message = run.system_message();
    assert!(
        message.contains("could not write the audit log") && message.contains("symbolic link"),
        "{run:?}"
    );
    assert!(message.contains("stop-loop guard unavailable"), "{run:?}");
}

#[test]
fn a_deep_or_bogus_hookrun_depth_never_switches_the_permission_rules_off() {
    let marker_dir = Sandbox::new();
    let marker = marker_dir.path("hook-ran");
    let settings = json!({
        "permissions": {"deny": ["Bash(rm *)"]},
        "hooks": {"PreToolUse": [{"command": format!("touch '{}'", marker.display())}]}
    });
    for depth in ["3", "99"] {
        let mut sb = Sandbox::new();
        sb.env("HOOKRUN_DEPTH", depth);
        let run = Fire::new("PreToolUse").settings(&settings).input(&json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}})).expect_exit(2).run_in(&sb);
        assert!(!marker.exists(), "depth {depth}: no hook runs that deep");
        assert!(run.stdout.contains("refused a fire nested"), "{run:?}");
    }
    for junk in ["junk", "-1", "3x"] {
        let mut sb = Sandbox::new();
        sb.env("HOOKRUN_DEPTH", junk);
        let run = Fire::new("PreToolUse").settings(&settings).input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).expect_exit(0).run_in(&sb);
        assert!(
            marker.exists(),
            "{junk}: not a depth, the hooks run: {run:?}"
        );
        assert!(
            run.system_message().contains("HOOKRUN_DEPTH")
                && run.system_message().contains("not a number"),
            "{run:?}"
        );
        std::fs::remove_file(&marker).unwrap();
    }
}

#[test]
fn an_empty_nested_hookrun_folder_never_hides_the_projects_policy() {
    let sb = Sandbox::new();
    project_settings(&sb, &json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    assert_eq!(sb.run(&["trust"], b"").code, Some(0));
    let sub = sb.project.join("sub/deeper");
    std::fs::create_dir_all(sb.project.join("sub/.hookrun")).unwrap();
    std::fs::create_dir_all(&sub).unwrap();
    let event = |cwd: &Path, command: &str| {
        let mut bytes = bash_event(&sb, command);
        let mut value: Value = serde_json::from_slice(&bytes).unwrap();
        value["cwd"] = json!(cwd);
        bytes = serde_json::to_vec(&value).unwrap();
        bytes
    };
    // No CLAUDE_PROJECT_DIR (the sandbox sets none), the shell in `sub/deeper`.
    let run = fire_within(&sb, &["fire", "PreToolUse"], &event(&sub, "rm -rf x"));
    assert_eq!(
        run.code,
        Some(2),
        "the project's deny rule applies: {run:?}"
    );

    // Cursor names its workspace root; the shell's cwd is below it.
    let cursor = json!({
        "hook_event_name": "beforeShellExecution",
        "conversation_id": "c-1",
        "workspace_roots": [sb.project],
        "command": "rm -rf x",
        "cwd": sub,
    });
    let mut line = serde_json::to_vec(&cursor).unwrap();
    line.push(b'\n');
    let run = fire_within(&sb, &["fire", "--host", "cursor"], &line);
    assert!(
        run.stdout.contains("deny") && run.stdout.contains("Bash(rm *)"),
        "cursor: the project's deny rule applies: {run:?}"
    );

    // A nested folder with its own settings adds a layer (once trusted).
    std::fs::write(
        sb.project.join("sub/.hookrun/settings.json"),
        json!({"permissions": {"deny": ["Bash(ls *)"]}}).to_string(),
    )
    .unwrap();
    let run = fire_within(&sb, &["fire", "PreToolUse"], &event(&sub, "ls -l"));
    assert_eq!(run.code, Some(0), "an untrusted layer waits: {run:?}");
    let nested = sb.project.join("sub");
    assert!(
        run.system_message()
            .contains(&format!("hookrun trust {}", nested.display())),
        "{run:?}"
    );
    let trust = run_command_within(sb.command().arg("trust").current_dir(&sub), b"", HANG);
    assert_eq!(trust.code, Some(0), "{trust:?}");
    let run = fire_within(&sb, &["fire", "PreToolUse"], &event(&sub, "ls -l"));
    assert_eq!(
        run.code,
        Some(2),
        "the nested layer's rule applies: {run:?}"
    );
    let run = fire_within(&sb, &["fire", "PreToolUse"], &event(&sub, "rm -rf x"));
    assert_eq!(run.code, Some(2), "and so does the project's: {run:?}");
}

#[test]
fn doctor_warns_about_settings_other_users_can_change() {
    let sb = Sandbox::new();
    let file = project_settings(&sb, &json!({"hooks": {"Stop": [{"command": "true"}]}}));
    let doctor = sb.run(&["doctor"], b"");
    assert!(
        !doctor.stdout.contains("settings-writable-by-others")
            && !doctor.stdout.contains("writable by"),
        "{doctor:?}"
    );
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let dir = file.parent().unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let doctor = sb.run(&["doctor"], b"");
    assert!(
        doctor
            .stdout
            .contains("is writable by its group and every user (mode 0666)"),
        "{doctor:?}"
    );
    assert!(doctor.stdout.contains("chmod go-w"), "{doctor:?}");
    assert!(
        doctor
            .stdout
            .contains(&format!("is in {}, which is writable", dir.display())),
        "{doctor:?}"
    );
    // Owned by someone else: only root can make such a file here.
    if nix::unistd::geteuid().is_root() {
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        nix::unistd::chown(&file, Some(nix::unistd::Uid::from_raw(4242)), None).unwrap();
        let doctor = sb.run(&["doctor"], b"");
        assert!(
            doctor
                .stdout
                .contains("is owned by another user (uid 4242)"),
            "{doctor:?}"
        );
    } else {
        crate::support::skipped(
            "doctor_warns_about_settings_other_users_can_change: a file owned by another user needs root",
        );
    }
}

#[test]
fn replay_names_a_fifo_in_a_folder_and_refuses_a_named_one_without_waiting() {
    let sb = Sandbox::new();
    let dir = sb.path("sessions");
    let one = crate::support::fixture(
        "transcripts/oracle/replay_rm/c220faa3-8927-4dd3-be6b-afdda7c98a04.jsonl",
    );
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&one, dir.join("real.jsonl")).unwrap();
    let fifo = dir.join("planted.jsonl");
    mkfifo(&fifo);
    let run = fire_within(
        &sb,
        &[
            "replay",
            "--no-default-settings",
            "--format",
            "json",
            dir.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    // Never waited on, and named: no events are taken from it.
    let out = run.json();
    assert_eq!(out["files"], 2, "{run:?}");
    assert_eq!(out["unreadable"]["count"], 1, "{run:?}");
    assert!(
        out["unreadable"]["records"][0]["why"]
            .as_str()
            .unwrap()
            .contains("cannot be read"),
        "{run:?}"
    );
    let run = fire_within(
        &sb,
        &[
            "replay",
            "--no-default-settings",
            "--format",
            "json",
            fifo.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        run.stdout.contains("FIFO") || run.stderr.contains("FIFO"),
        "{run:?}"
    );
}

#[test]
fn a_fifo_a_hook_leaves_as_its_env_file_or_at_the_hosts_never_hangs_the_fire() {
    let mut sb = Sandbox::new();
    let host_file = sb.path("host-env.sh");
    std::fs::write(&host_file, "export EXISTING=1\n").unwrap();
    sb.env("CLAUDE_ENV_FILE", host_file.to_str().unwrap());
    let settings = sb.settings(&json!({"hooks": {"SessionStart": [
        {"command": "rm -f \"$CLAUDE_ENV_FILE\" && mkfifo \"$CLAUDE_ENV_FILE\""},
        {"command": "echo 'export B=2' >> \"$CLAUDE_ENV_FILE\""}
    ]}}));
    let args = [
        "fire",
        "SessionStart",
        "--no-default-settings",
        "--settings",
        settings.to_str().unwrap(),
    ];
    let event = sb.event("SessionStart", &json!({"source": "startup"}));
    let run = fire_within(&sb, &args, &event);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.system_message().contains("CLAUDE_ENV_FILE") && run.system_message().contains("FIFO"),
        "{run:?}"
    );
    // The host's own file replaced by a FIFO.
    std::fs::remove_file(&host_file).unwrap();
    mkfifo(&host_file);
    let run = fire_within(&sb, &args, &event);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.system_message().contains("FIFO"), "{run:?}");
}

#[test]
fn a_huge_sparse_settings_file_is_refused_not_read() {
    let sb = Sandbox::new();
    let file = sb.project.join(".hookrun/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::File::create(&file)
        .unwrap()
        .set_len(16 * 1024 * 1024 * 1024)
        .unwrap();
    let run = fire_within(
        &sb,
        &["fire", "PreToolUse", "--fail-closed"],
        &bash_event(&sb, "ls"),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(
        run.stderr.contains(&file.display().to_string()) && run.stderr.contains("MiB"),
        "{run:?}"
    );
}

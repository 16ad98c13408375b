//! `hookrun install HOST` / `uninstall HOST` never lose a byte of the
//! host's file: formatting, modes, symlinks, backups, the user's own
//! entries; and they write where the host reads.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Sandbox, run_command};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn json_of(path: &Path) -> Value {
    serde_json::from_str(&read(path)).unwrap()
}

/// A project with hooks on PreToolUse and Stop, trusted.
fn project_with_hooks(sb: &Sandbox, stop_timeout: Option<f64>) {
    let mut stop = json!({"command": "true"});
    if let Some(t) = stop_timeout {
        stop["timeout"] = json!(t);
    }
    sb.write(
        "project/.hookrun/settings.json",
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "command": "true"}],
            "Stop": [stop]
        }})
        .to_string(),
    );
    let run = sb.run(&["trust"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
}

#[test]
fn a_backup_never_follows_a_planted_symlink_never_overwrites_and_keeps_the_mode() {
    let sb = Sandbox::new();
    let bashrc = sb.write("home/.bashrc", "echo mine\n");
    let file = sb.write("project/.gemini/settings.json", "{\"ui\": {}}\n");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    // The repository ships the backup name as a link to the user's file.
    std::os::unix::fs::symlink(
        &bashrc,
        sb.path("project/.gemini/settings.json.hookrun-backup"),
    )
    .unwrap();

    let run = sb.run(&["install", "gemini"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(read(&bashrc), "echo mine\n", "the link was written through");
    let first = sb.path("project/.gemini/settings.json.hookrun-backup.1");
    assert!(
        run.stdout.contains(first.to_str().unwrap()),
        "{}",
        run.stdout
    );
    assert_eq!(read(&first), "{\"ui\": {}}\n");
    assert_eq!(mode(&first), 0o600, "the original's mode");
    assert_eq!(mode(&file), 0o600, "the file keeps its mode");

    // A second write keeps the first backup and numbers the next one.
    let installed = read(&file);
    let run = sb.run(
        &["install", "gemini", "--binary", "/opt/other/hookrun"],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(read(&first), "{\"ui\": {}}\n");
    let second = sb.path("project/.gemini/settings.json.hookrun-backup.2");
    assert_eq!(read(&second), installed);

    // Uninstall takes out what install put in and saves no backup of its
    // own; install's backups, which now hold nothing the file does not, go.
    // The planted link is not install's: it stays, and so does .bashrc.
    let run = sb.run(&["uninstall", "gemini"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(read(&file), "{\"ui\": {}}\n");
    assert!(!first.exists() && !second.exists(), "{run:?}");
    assert!(
        !sb.path("project/.gemini/settings.json.hookrun-backup.3")
            .exists()
    );
    assert!(
        std::fs::symlink_metadata(sb.path("project/.gemini/settings.json.hookrun-backup"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(read(&bashrc), "echo mine\n");
}

#[test]
fn a_users_own_hookrun_entry_is_kept_and_named_and_uninstall_removes_only_installs() {
    let sb = Sandbox::new();
    project_with_hooks(&sb, None);
    let mine = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/opt/hookrun fire --host claude-code --fail-closed\",\n            \"timeout\": 30\n          }\n        ]\n      }\n    ]\n  }\n}\n";
    let file = sb.write("project/.claude/settings.json", mine);
    let run = sb.run(&["install", "claude-code"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("kept your own hookrun entry") && run.stdout.contains("--fail-closed"),
        "{}",
        run.stdout
    );
    let doc = json_of(&file);
    assert_eq!(
        doc["hooks"]["PreToolUse"].as_array().unwrap().len(),
        1,
        "no second entry beside the user's: {doc}"
    );
    assert!(doc["hooks"]["Stop"].is_array(), "{doc}");
    // The Bash guard judges a skill's shell commands too.
    assert!(doc["hooks"]["PreSkillShellCommand"].is_array(), "{doc}");

    let run = sb.run(&["uninstall", "claude-code"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("2 hookrun entries removed"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("kept your own"), "{}", run.stdout);
    assert_eq!(read(&file), mine, "the user's entry and every byte stay");
}

#[test]
fn uninstall_never_creates_a_file_and_neither_command_rewrites_a_read_only_one() {
    let sb = Sandbox::new();
    let run = sb.run(&["uninstall", "gemini"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("does not exist"), "{}", run.stdout);
    assert!(!sb.path("project/.gemini").exists(), "nothing created");

    let installed = sb.run(&["install", "gemini"], b"");
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let file = sb.path("project/.gemini/settings.json");
    let before = read(&file);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    for args in [
        &["uninstall", "gemini"][..],
        &["install", "gemini", "--binary", "/elsewhere/hookrun"],
    ] {
        let run = sb.run(args, b"");
        assert_eq!(run.code, Some(1), "{args:?}: {run:?}");
        assert!(run.stderr.contains("read-only"), "{}", run.stderr);
        assert_eq!(read(&file), before);
        assert_eq!(mode(&file), 0o444);
    }
}

#[test]
fn a_symlinked_config_is_written_through_and_a_link_out_of_the_project_is_refused() {
    let sb = Sandbox::new();
    let real = sb.write("project/config/claude.json", "{\"model\": \"x\"}\n");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::create_dir_all(sb.path("project/.claude")).unwrap();
    let link = sb.path("project/.claude/settings.json");
    std::os::unix::fs::symlink("../config/claude.json", &link).unwrap();
    let run = sb.run(&["install", "claude-code"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    assert!(json_of(&real)["hooks"]["PreToolUse"].is_array());
    assert_eq!(mode(&real), 0o640);
    assert!(run.stdout.contains("through the symlink"), "{}", run.stdout);

    // A repository's link to a file of the user's is not written through.
    let theirs = sb.write("home/dotfiles/settings.json", "{}\n");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&theirs, &link).unwrap();
    let run = sb.run(&["install", "claude-code"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("outside"), "{}", run.stderr);
    assert_eq!(read(&theirs), "{}\n");

    // Nor is a linked folder: `.gemini` pointing at the user's own.
    let users = sb.write("home/.gemini/settings.json", "{}\n");
    std::os::unix::fs::symlink(sb.path("home/.gemini"), sb.path("project/.gemini")).unwrap();
    let run = sb.run(&["install", "gemini"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("outside"), "{}", run.stderr);
    assert_eq!(read(&users), "{}\n");
    assert!(
        !sb.path("home/.gemini/settings.json.hookrun-backup")
            .exists()
    );
}

#[test]
fn uninstall_after_install_gives_back_the_original_bytes() {
    let styles = [
        (
            "gemini",
            ".gemini/settings.json",
            "{\n    // Gemini CLI reads comments\n    \"ui\": {\"theme\": \"dark\"},\n    \"tools\": [\"a\", \"b\"] /* inline */\n}\n",
        ),
        (
            "claude-code",
            ".claude/settings.json",
            "{\r\n\t\"permissions\": {\r\n\t\t\"allow\": [\"Bash(ls)\"]\r\n\t}\r\n}",
        ),
        (
            "codex",
            ".codex/hooks.json",
            "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./done.sh\"}]}]}}",
        ),
    ];
    for (host, rel, original) in styles {
        let sb = Sandbox::new();
        project_with_hooks(&sb, None);
        let file = sb.write(&format!("project/{rel}"), original);
        let run = sb.run(&["install", host], b"");
        assert_eq!(run.code, Some(0), "{host}: {run:?}");
        let installed = read(&file);
        assert!(installed.contains("fire --host"), "{installed}");
        // doctor reads the file as the host does (comments too).
        let (_, findings) = doctor_findings(&sb);
        assert!(
            !findings
                .iter()
                .any(|(c, _)| c == "host-config-unreadable" || c == "host-not-routed"),
            "{host}: {findings:?}"
        );
        if original.contains("\r\n") {
            assert!(!installed.replace("\r\n", "").contains('\n'), "CRLF kept");
        }
        let run = sb.run(&["uninstall", host], b"");
        assert_eq!(run.code, Some(0), "{host}: {run:?}");
        assert_eq!(read(&file), original, "{host}, installed:\n{installed}");
    }
    // A file install created goes with uninstall.
    let sb = Sandbox::new();
    project_with_hooks(&sb, None);
    assert_eq!(sb.run(&["install", "copilot"], b"").code, Some(0));
    let file = sb.path("project/.github/hooks/hookrun.json");
    assert_eq!(json_of(&file)["version"], 1);
    let run = sb.run(&["uninstall", "copilot"], b"");
    assert!(run.stdout.contains("removed"), "{}", run.stdout);
    assert!(!file.exists(), "{}", run.stdout);
}

#[test]
fn local_writes_claude_codes_own_file_and_the_output_says_which_is_shared() {
    let sb = Sandbox::new();
    project_with_hooks(&sb, None);
    let run = sb.run(&["install", "claude-code"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("is shared") && run.stdout.contains("--local"),
        "{}",
        run.stdout
    );
    assert_eq!(sb.run(&["uninstall", "claude"], b"").code, Some(0));

    let run = sb.run(&["install", "claude", "--local"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let local = sb.path("project/.claude/settings.local.json");
    assert!(json_of(&local)["hooks"]["Stop"].is_array());
    assert!(run.stdout.contains("is local"), "{}", run.stdout);
    assert!(!run.stdout.contains("is shared"), "{}", run.stdout);

    // In a git repository that does not ignore the local file: a warning.
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(&sb.project)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if git(&["init", "-q"]) {
        let run = sb.run(&["install", "claude", "--local"], b"");
        assert!(run.stdout.contains("git does not ignore"), "{}", run.stdout);
        sb.write("project/.gitignore", ".claude/settings.local.json\n");
        let run = sb.run(&["install", "claude", "--local"], b"");
        assert!(
            !run.stdout.contains("git does not ignore"),
            "{}",
            run.stdout
        );
    } else {
        crate::support::skipped("git is not available: the .gitignore warning is not checked");
    }

    let run = sb.run(&["install", "gemini", "--local"], b"");
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("only Claude Code"), "{}", run.stderr);

    // doctor sees the local file's entries.
    let doctor = sb.run(&["doctor", "--format", "json"], b"");
    let findings = doctor.json()["findings"].to_string();
    assert!(!findings.contains("host-not-routed"), "{findings}");
}

#[test]
fn install_in_a_subfolder_of_a_repository_writes_at_its_root() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.path("project/.git")).unwrap();
    std::fs::create_dir_all(sb.path("project/src/deep")).unwrap();
    let mut cmd = sb.command();
    cmd.current_dir(sb.path("project/src/deep"))
        .args(["install", "gemini"]);
    let run = run_command(&mut cmd, b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(sb.path("project/.gemini/settings.json").is_file());
    assert!(!sb.path("project/src/deep/.gemini").exists());
    assert!(
        run.stdout.contains("root of the git repository"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_host_timeout_covers_the_longest_hook_of_the_event() {
    let sb = Sandbox::new();
    project_with_hooks(&sb, Some(300.0));
    let run = sb.run(&["install", "gemini"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    let doc = json_of(&sb.path("project/.gemini/settings.json"));
    let stop = &doc["hooks"]["AfterAgent"][0]["hooks"][0];
    assert_eq!(stop["timeout"], 303_000, "{doc}");
    assert!(
        stop["command"]
            .as_str()
            .unwrap()
            .ends_with("fire --host gemini --deadline 302s"),
        "{stop}"
    );
    let pre = &doc["hooks"]["BeforeTool"][0]["hooks"][0];
    assert_eq!(pre["timeout"], 60_000, "the default where it is enough");
    // Installing again changes nothing; doctor is content.
    let again = sb.run(&["install", "gemini"], b"");
    assert!(again.stdout.contains("nothing written"), "{}", again.stdout);
    let doctor = sb.run(&["doctor", "--format", "json"], b"");
    let findings = doctor.json()["findings"].to_string();
    assert!(!findings.contains("host-timeout"), "{findings}");

    // Claude Code's entry gets its own timeout (seconds) past 600 s.
    let sb = Sandbox::new();
    project_with_hooks(&sb, Some(900.0));
    assert_eq!(sb.run(&["install", "claude-code"], b"").code, Some(0));
    let doc = json_of(&sb.path("project/.claude/settings.json"));
    assert_eq!(doc["hooks"]["Stop"][0]["hooks"][0]["timeout"], 903, "{doc}");
    assert!(
        doc["hooks"]["PreToolUse"][0]["hooks"][0]
            .get("timeout")
            .is_none()
    );
}

#[test]
fn install_on_an_untrusted_project_says_nothing_fires_until_trust() {
    let sb = Sandbox::new();
    sb.write(
        "project/.hookrun/settings.json",
        &json!({"hooks": {"PreToolUse": [{"command": "true"}]}}).to_string(),
    );
    let run = sb.run(&["install", "claude"], b"");
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.contains("nothing fires until") && run.stdout.contains("hookrun trust"),
        "{}",
        run.stdout
    );
    project_with_hooks(&sb, None);
    let run = sb.run(&["install", "claude"], b"");
    assert!(!run.stdout.contains("nothing fires"), "{}", run.stdout);
}

fn doctor_findings(sb: &Sandbox) -> (Option<i32>, Vec<(String, String)>) {
    let run = sb.run(&["doctor", "--format", "json"], b"");
    let findings = run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["check"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (run.code, findings)
}

#[test]
fn doctor_says_every_guard_is_off_under_a_host_whose_config_routes_nothing() {
    let sb = Sandbox::new();
    project_with_hooks(&sb, None);
    let (code, findings) = doctor_findings(&sb);
    assert_eq!(code, Some(0), "no host config here: {findings:?}");
    sb.write(
        "project/.claude/settings.json",
        "{\"permissions\": {\"allow\": []}}\n",
    );
    let (code, findings) = doctor_findings(&sb);
    assert_eq!(code, Some(1), "{findings:?}");
    assert!(
        findings.contains(&("host-not-routed".into(), "error".into())),
        "{findings:?}"
    );
    // Only the user's Gemini file: while no host routes to hookrun, every
    // guard is off everywhere, so it is an error too.
    sb.write("home/.gemini/settings.json", "{}\n");
    let (_, findings) = doctor_findings(&sb);
    assert_eq!(
        findings
            .iter()
            .filter(|f| *f == &("host-not-routed".to_owned(), "error".to_owned()))
            .count(),
        2,
        "{findings:?}"
    );
    // Once Claude Code runs hookrun, the user's Gemini file is a warning
    // (the project may not use it).
    assert_eq!(sb.run(&["install", "claude-code"], b"").code, Some(0));
    let (code, findings) = doctor_findings(&sb);
    assert_eq!(code, Some(0), "{findings:?}");
    assert!(
        findings.contains(&("host-not-routed".into(), "warning".into())),
        "{findings:?}"
    );
    assert_eq!(sb.run(&["install", "gemini", "--user"], b"").code, Some(0));
    let (code, findings) = doctor_findings(&sb);
    assert_eq!(code, Some(0), "{findings:?}");
    assert!(
        !findings.iter().any(|(c, _)| c == "host-not-routed"),
        "{findings:?}"
    );
}

#[test]
fn doctor_flags_a_host_timeout_below_a_hooks_and_timeouts_no_hook_can_meet() {
    let sb = Sandbox::new();
    project_with_hooks(&sb, Some(300.0));
    // As install wrote it before: 60 s for every event.
    let bin = crate::support::BIN;
    sb.write(
        "project/.gemini/settings.json",
        &json!({"hooks": {
            "BeforeTool": [{"hooks": [{"name": "hookrun", "type": "command", "command": format!("{bin} fire --host gemini"), "timeout": 60000}]}],
            "AfterAgent": [{"hooks": [{"name": "hookrun", "type": "command", "command": format!("{bin} fire --host gemini"), "timeout": 60000}]}]
        }})
        .to_string(),
    );
    let (_, findings) = doctor_findings(&sb);
    assert!(
        findings.contains(&("host-timeout-below-hook".into(), "warning".into())),
        "{findings:?}"
    );
    assert_eq!(sb.run(&["install", "gemini"], b"").code, Some(0));
    let (_, findings) = doctor_findings(&sb);
    assert!(
        !findings.iter().any(|(c, _)| c == "host-timeout-below-hook"),
        "{findings:?}"
    );

    project_with_hooks(&sb, Some(0.0005));
    let (code, findings) = doctor_findings(&sb);
    assert_eq!(code, Some(1), "{findings:?}");
    assert!(
        findings.contains(&("hook-timeout-too-short".into(), "error".into())),
        "{findings:?}"
    );
}

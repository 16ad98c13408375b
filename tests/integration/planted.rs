//! What the agent can plant or change in the files and environment hookrun
//! reads: a FIFO at any path a fire opens, an edit to a trusted file, an
//! empty nested `.hookrun/`, a bogus `HOOKRUN_DEPTH`, a log path that is the
//! answer's own stdout, a file-size limit, a symlink at a state file. None
//! of them may hang a fire, switch a rule off or write outside its file.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

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

fn bash_event(sb: &Sandbox, command: &str) -> Vec<u8> {
    sb.event(
        "PreToolUse",
        &json!({"tool_name": "Bash", "tool_input": {"command": command}}),
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
    let fire = |args: &[&str]| fire_within(&sb, args, &bash_event(&sb, "rm -rf build"));
    let run = fire(&["fire", "PreToolUse"]);
    assert_eq!(run.code, Some(2), "the trusted deny rule denies: {run:?}");

    // One space is an edit; so is removing the rule.
    let original = std::fs::read_to_string(&file).unwrap();
    for edited in [format!("{original} "), r#"{"permissions": {}}"#.to_owned()] {
        std::fs::write(&file, &edited).unwrap();
        for args in [
            &["fire", "PreToolUse"][..],
            &["fire", "PreToolUse", "--fail-closed"],
        ] {
            let run = fire(args);
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
    let sha = {
        use sha2::Digest as _;
        let digest = sha2::Sha256::digest(std::fs::read(&file).unwrap());
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
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

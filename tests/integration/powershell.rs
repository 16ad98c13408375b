//! `shell: "powershell"` hooks: run with `pwsh` (else `powershell`) from the
//! hook's PATH, under the same supervision as every other hook. PowerShell
//! is not installed on every machine that runs this suite: a fake `pwsh`
//! (a real process standing in for it) proves the spawn, stdin, exit code
//! and timeout kill; the real one runs where it is on PATH.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Run, Sandbox, clean_path, read_when_ready, skipped};

fn fire(sb: &Sandbox, settings: &Value, extra: &[&str]) -> Run {
    sb.fire_with(
        "PreToolUse",
        &sb.settings(settings),
        extra,
        &json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    )
}

/// A folder holding only a fake `pwsh`, which records its arguments and
/// stdin in `out`, then acts on the script (its last argument): `BLOCK`
/// exits 2, `SLEEP` waits on a child that outlives a polite SIGTERM,
/// anything else prints context.
fn fake_pwsh(sb: &Sandbox) -> (std::path::PathBuf, std::path::PathBuf) {
    let out = sb.path("pwsh-out");
    std::fs::create_dir_all(&out).unwrap();
    let o = out.display();
    sb.script(
        "fake-bin/pwsh",
        &format!(
            r#"#!/bin/sh
: > '{o}/argv'
for a in "$@"; do printf '%s\n--\n' "$a" >> '{o}/argv'; script=$a; done
cat > '{o}/stdin'
echo $$ > '{o}/pid'
case "$script" in
  *BLOCK*) echo 'FAKE-PWSH: blocked' >&2; exit 2 ;;
  *SLEEP*) trap '' TERM; sleep 30 & echo $! > '{o}/child'; wait ;;
  *) printf '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","additionalContext":"FAKE-PWSH-CONTEXT"}}}}' ;;
esac
"#
        ),
    );
    (sb.path("fake-bin"), out)
}

/// `PATH` = the fake's folder, then the system's (for `cat`, `sleep`).
fn with_fake_path(sb: &mut Sandbox, bin: &Path) {
    let path = format!(
        "{}:{}",
        bin.display(),
        clean_path(std::env::var_os("PATH")).to_string_lossy()
    );
    sb.env("PATH", &path);
}

fn is_dead(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    let state = stat[stat.rfind(')').unwrap() + 1..]
        .split_ascii_whitespace()
        .next()
        .unwrap_or("");
    matches!(state, "Z" | "X" | "x")
}

#[test]
fn a_powershell_hook_runs_with_pwsh_from_path() {
    let mut sb = Sandbox::new();
    let (bin, out) = fake_pwsh(&sb);
    with_fake_path(&mut sb, &bin);
    let settings = json!({"hooks": {"PreToolUse": [
        {"name": "ps-context", "shell": "powershell", "command": "Write-Output ${CLAUDE_PROJECT_DIR}"}
    ]}});
    let run = fire(&sb, &settings, &[]);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("FAKE-PWSH-CONTEXT"), "{run:?}");
    // Claude Code's arguments; the project variable in PowerShell's syntax;
    // the line that passes an exit 2 on.
    let recorded = std::fs::read_to_string(out.join("argv")).unwrap();
    let args: Vec<&str> = recorded.split("\n--\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(
        args,
        [
            "-NoProfile",
            "-NonInteractive",
            "-ExecutionPolicy",
            "Bypass",
            "-Command",
            "Write-Output ${env:CLAUDE_PROJECT_DIR}\n; if (-not $?) { if ($LASTEXITCODE -eq 2) { exit 2 } }",
        ],
        "{recorded}"
    );
    // The event on stdin, as every hook gets it.
    let stdin: Value = serde_json::from_str(&std::fs::read_to_string(out.join("stdin")).unwrap())
        .expect("the event JSON on stdin");
    assert_eq!(stdin["tool_input"]["command"], "ls");
}

#[test]
fn a_powershell_hook_that_exits_2_blocks() {
    let mut sb = Sandbox::new();
    let (bin, _) = fake_pwsh(&sb);
    with_fake_path(&mut sb, &bin);
    let settings = json!({"hooks": {"PreToolUse": [
        {"shell": "powershell", "command": "BLOCK"}
    ]}});
    let run = fire(&sb, &settings, &[]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("FAKE-PWSH: blocked"), "{run:?}");
}

#[test]
fn a_powershell_hook_past_its_timeout_is_killed_with_its_group() {
    let mut sb = Sandbox::new();
    let (bin, out) = fake_pwsh(&sb);
    with_fake_path(&mut sb, &bin);
    let settings = json!({"hooks": {"PreToolUse": [
        {"name": "ps-slow", "shell": "powershell", "command": "SLEEP", "timeout": 1}
    ]}});
    let started = Instant::now();
    let run = fire(&sb, &settings, &["--kill-grace", "0.2"]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "fire waited for the hook: {:?}",
        started.elapsed()
    );
    assert_eq!(run.code, Some(0), "a timeout does not block: {run:?}");
    assert!(
        run.stdout.contains("ps-slow"),
        "the timeout is reported: {run:?}"
    );
    let pid: i32 = read_when_ready(&out.join("pid")).trim().parse().unwrap();
    let child: i32 = read_when_ready(&out.join("child")).trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !(is_dead(pid) && is_dead(child)) {
        assert!(
            Instant::now() < deadline,
            "the fake pwsh ({pid}) or its child ({child}) outlived the kill"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_powershell_hook_without_powershell_names_the_hook() {
    let mut sb = Sandbox::new();
    // A PATH with neither pwsh nor powershell on it.
    let empty = sb.path("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    sb.env("PATH", empty.to_str().unwrap());
    let settings = json!({"hooks": {"PreToolUse": [
        {"name": "ps-guard", "shell": "powershell", "command": "exit 2"}
    ]}});
    let run = fire(&sb, &settings, &[]);
    assert_eq!(
        run.code,
        Some(0),
        "a hook that cannot start blocks nothing: {run:?}"
    );
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(
        said.contains("ps-guard") && said.contains("neither pwsh nor powershell is on PATH"),
        "{run:?}"
    );
    // `doctor` says so before any fire.
    let file = sb.settings(&settings);
    let doctor = sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(doctor.code, Some(1), "{doctor:?}");
    assert!(doctor.stdout.contains("powershell-missing"), "{doctor:?}");
}

/// The real PowerShell, where it is installed: a native program's exit 2 at
/// the end of the command blocks, and the event arrives on stdin.
#[test]
fn a_real_pwsh_runs_a_powershell_hook() {
    let path = clean_path(std::env::var_os("PATH"));
    let found = std::env::split_paths(&path).any(|dir| dir.join("pwsh").is_file());
    if !found {
        skipped("a_real_pwsh_runs_a_powershell_hook: pwsh is not on PATH");
        return;
    }
    let sb = Sandbox::new();
    let settings = json!({"hooks": {"PreToolUse": [
        {"shell": "powershell", "command": "$e = [Console]::In.ReadToEnd() | ConvertFrom-Json; [Console]::Error.WriteLine('REAL-PWSH ' + $e.tool_input.command); sh -c 'exit 2'"}
    ]}});
    let run = fire(&sb, &settings, &[]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stderr.contains("REAL-PWSH ls"), "{run:?}");
}

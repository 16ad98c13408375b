//! `hookrun init`: a starter settings file, and the host entry that makes
//! hookrun run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, anyhow, bail};

use crate::cli::InitArgs;
use crate::commands::Printed;
use crate::exit::Exit;
use crate::host::HostId;
use crate::settings::Environment;

/// The starter: a guard against pushing to `main` that holds against the
/// ways people (and agents) push there, and no more. Permission rules
/// refuse every command that names `main` as what it pushes to (`origin
/// main`, `HEAD:main`, `+main`, `refs/heads/main`, flags after it) or
/// pushes every branch (`--all`, `--mirror`, `--branches`, the matching
/// refspec `:`); a hook ([`SCRIPT`]) refuses the pushes that name no branch
/// (`git push`, `git push origin`, `git push -u origin HEAD`) when they go
/// to main: on main, or where a plain push from here goes (`@{push}`).
/// A push that names another branch goes ahead from main too. It also
/// shows the shape of both: rules in `permissions`, a hook with a matcher,
/// an `if` rule and a block by exit 2 with the reason on stderr.
const STARTER: &str = r#"{
  "permissions": {
    "deny": [
      "Bash(git push * main)",
      "Bash(git push * main *)",
      "Bash(git push *:main)",
      "Bash(git push *:main *)",
      "Bash(git push * +main)",
      "Bash(git push * +main *)",
      "Bash(git push *refs/heads/main)",
      "Bash(git push *refs/heads/main *)",
      "Bash(git push *--all*)",
      "Bash(git push *--mirror*)",
      "Bash(git push *--branches*)",
      "Bash(git push * :)",
      "Bash(git push * +:)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "name": "no-plain-push-to-main",
        "matcher": "Bash",
        "if": "Bash(git push *)",
        "command": "\"$HOOKRUN_CONFIG_DIR\"/hooks/no-plain-push-to-main.sh",
        "timeout": 10
      }
    ]
  }
}
"#;

/// The starter's hook, next to the settings in `hooks/`.
const SCRIPT: &str = r#"#!/bin/sh
# PreToolUse hook of hookrun's starter (`hookrun init`): a push that names
# no branch, or HEAD, updates the branch git pushes by default, so it is
# refused when that is main: you are on main, or main is where a plain
# `git push` from here goes (`@{push}`). A push that names its branches is
# left to the deny rules beside this hook, which refuse `main` by name and
# `--all`/`--mirror`. Exit 2 blocks, with the reason on stderr.
set -f # the command's words are data, not globs
branch=$(git branch --show-current 2>/dev/null)
target=$(git rev-parse --abbrev-ref '@{push}' 2>/dev/null)
case "$branch|$target" in
  'main|'* | */main) ;;
  *) exit 0 ;; # not on main, and a plain push does not go there
esac
refuse() {
  echo "$1: push a branch of your own and open a pull request instead." >&2
  exit 2
}
# hookrun gives the tool's input as JSON: the command, when it is there once
# and holds no escapes, is the text between "command":" and the next quote.
input=${HOOKRUN_TOOL_INPUT-}
case $input in
  *'"command":"'*'"command":"'* | *'"command":"'*'\'*) command= ;;
  *'"command":"'*) command=${input#*\"command\":\"} command=${command%%\"*} ;;
  *) command= ;;
esac
# Only a plain command is read: one `git push` with words git itself reads
# (no other command before or after it, no quotes, no expansions).
case $command in
  '' | *[!A-Za-z0-9\ ._/:+@^~=-]*)
    refuse "You are on main, and this command may push without naming its branch (write it as a plain \`git push REMOTE BRANCH\`)"
    ;;
esac
# shellcheck disable=SC2086 # split into words on purpose
set -- $command
while [ $# -gt 0 ] && ! { [ "$1" = git ] && [ "${2-}" = push ]; }; do shift; done
[ $# -gt 0 ] && shift 2
positional=0
while [ $# -gt 0 ]; do
  case $1 in
    -o | --push-option | --repo | --receive-pack | --exec) shift ;; # takes a value
    -*) ;;
    *)
      positional=$((positional + 1))
      if [ "$positional" -ge 2 ]; then # a refspec (the first word is the remote)
        case $1 in HEAD | @ | +HEAD | +@) refuse "You are on main, and HEAD is main" ;; esac
        named=1
      fi
      ;;
  esac
  [ $# -gt 0 ] && shift
done
[ -n "${named-}" ] && exit 0 # the deny rules judge the branches it names
refuse "This push names no branch, so git pushes main (you are on main, or main is where a plain git push goes)"
"#;

/// Where the hook goes, relative to the settings file's folder.
const SCRIPT_PATH: &str = "hooks/no-plain-push-to-main.sh";

/// The events the starter has hooks on: the printed host entry routes
/// these (and only these) to hookrun.
const HOST_EVENTS: &[&str] = &["PreToolUse"];

/// Where `init --project` writes: `--project-dir` if given, else the
/// nearest folder above the current one that already has a `.hookrun/`
/// folder, else the top of the git repository the current folder is in,
/// else the current folder. With the reason, when it is not the current
/// folder.
fn project_root(env: &Environment, given: Option<&Path>) -> (PathBuf, Option<String>) {
    if let Some(dir) = given {
        return (env.absolute(dir), None);
    }
    let here = env.current_dir.clone();
    if let Some(found) = here.ancestors().find(|d| d.join(".hookrun").is_dir()) {
        let why = (found != here).then(|| {
            format!(
                "{} already has a .hookrun folder, and hooks fired below it load from there",
                found.display()
            )
        });
        return (found.to_path_buf(), why);
    }
    if let Some(found) = here.ancestors().find(|d| d.join(".git").exists()) {
        let why = (found != here).then(|| {
            "the top of the git repository you are in: the agent's session starts there, and hooks fired anywhere below it find this file (pass --project-dir to choose another folder)".to_owned()
        });
        return (found.to_path_buf(), why);
    }
    (here, None)
}

pub fn run(args: &InitArgs) -> anyhow::Result<Printed> {
    let env = Environment::from_process();
    let mut placed = None;
    let target = if args.project {
        let (root, why) = project_root(&env, args.project_dir.as_deref());
        placed = why;
        root.join(".hookrun").join("settings.json")
    } else {
        match env.config_dir() {
            Some(dir) => dir.join("settings.json"),
            None => bail!(
                "neither HOME nor XDG_CONFIG_HOME is set: there is no user settings folder (use --project)"
            ),
        }
    };
    let script = target
        .parent()
        .map_or_else(|| PathBuf::from(SCRIPT_PATH), |dir| dir.join(SCRIPT_PATH));
    for path in [&target, &script] {
        if path.exists() {
            bail!(
                "{} already exists: nothing written (edit it, or remove it first)",
                path.display()
            );
        }
    }
    write_new(&script, SCRIPT, 0o755)?;
    if let Err(err) = write_new(&target, STARTER, 0o644) {
        // Ours, just made: nothing half-written stays.
        let _ = std::fs::remove_file(&script);
        return Err(err);
    }
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .unwrap_or_else(|| PathBuf::from("hookrun"));
    let mut out = format!(
        "wrote {}: a starter policy that blocks pushes to main: deny rules for pushes that name main (`git push origin main`, `HEAD:main`…) or every branch (`--all`, `--mirror`), and a hook, {}, for a push that names no branch (or HEAD) where that is main; a push of another branch goes ahead, from main too. Edit them, then check them with `hookrun doctor`\n",
        target.display(),
        script.display()
    );
    if let Some(why) = placed {
        let _ = writeln!(out, "(written there, not in the current folder: {why})");
    }
    if args.project {
        let _ = writeln!(
            out,
            "project settings take effect once trusted: hookrun trust {}",
            shell_quote(&target.display().to_string())
        );
    }
    let entry = host_entry(&binary).map_err(|why| anyhow!("{why} (the starter was written)"))?;
    let _ = writeln!(
        out,
        "\nTo make hookrun Claude Code's hook, let hookrun write its entries (one per event your settings have hooks on; run it again after adding hooks on other events):\n\n    hookrun install claude-code{}\n\nor add this to ~/.claude/settings.json (or the project's .claude/settings.json); it routes PreToolUse, the one event the starter has hooks on, and each event you add hooks on later needs an entry of its own:\n\n{entry}",
        if args.project { "" } else { " --user" }
    );
    out.push_str(
        "\nThe command names this binary by its absolute path: Claude Code runs hooks with the PATH it was started with, and a `hookrun` it cannot find exits 127, which turns every guard off.\n",
    );
    Ok(Printed::stdout(out, Exit::Success))
}

fn write_new(target: &Path, text: &str, mode: u32) -> anyhow::Result<()> {
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // create_new: never replace a file that appeared in the meantime.
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    crate::platform::set_create_mode(&mut options, mode);
    options
        .open(target)
        .and_then(|mut file| std::io::Write::write_all(&mut file, text.as_bytes()))
        .with_context(|| format!("cannot write {}", target.display()))
}

/// The `hooks` object for the host's settings: every listed event runs
/// the entry `hookrun install claude-code` writes.
pub fn host_entry(binary: &Path) -> anyhow::Result<String> {
    let command = super::install::fire_command(binary, HostId::ClaudeCode)?;
    let entry = crate::host::wiring::wiring(HostId::ClaudeCode).entry(&command);
    let hook = serde_json::json!([{ "hooks": [entry] }]);
    let lines: Vec<String> = HOST_EVENTS
        .iter()
        .map(|event| format!("    {}: {hook}", serde_json::Value::from(*event)))
        .collect();
    Ok(format!(
        "{{\n  \"hooks\": {{\n{}\n  }}\n}}",
        lines.join(",\n")
    ))
}

fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_loads_without_a_problem() {
        let mut settings = crate::settings::Settings::default();
        let source = crate::settings::Source {
            path: PathBuf::from("/cfg/settings.json"),
            kind: crate::settings::SourceKind::User,
            claude_mode: false,
            trust_required: false,
        };
        crate::settings::load::load_bytes(
            &mut settings,
            source,
            PathBuf::from("/cfg"),
            STARTER.as_bytes(),
        );
        assert!(settings.problems.is_empty(), "{:?}", settings.problems);
        assert_eq!(settings.hooks.len(), 1);
        // The host entry routes exactly the events the starter has hooks on.
        let events: Vec<&str> = settings.hooks.iter().map(|h| h.event.name()).collect();
        assert_eq!(events, HOST_EVENTS);
    }

    #[test]
    fn the_host_entry_names_the_binary_by_absolute_path_quoted() {
        let entry = host_entry(Path::new("/opt/my tools/hookrun")).unwrap();
        let value: serde_json::Value = serde_json::from_str(&entry).unwrap();
        assert_eq!(
            value["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            "'/opt/my tools/hookrun' fire --host claude-code"
        );
        assert_eq!(value["hooks"].as_object().unwrap().len(), HOST_EVENTS.len());
    }
}

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
/// ways people (and agents) push there. Permission rules catch every
/// command that names `main` as what it pushes to (`origin main`,
/// `HEAD:main`, `+main`, `refs/heads/main`, flags after it); a hook catches
/// the pushes that name no branch at all (`git push`, `git push origin`,
/// `git push -u origin HEAD`) by asking git where they go: the current
/// branch, and the branch a plain push updates (`@{push}`). It also shows
/// the shape of both: rules in `permissions`, a hook with a matcher, an
/// `if` rule and a block by exit 2 with the reason on stderr.
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
      "Bash(git push *refs/heads/main *)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "name": "no-push-from-main",
        "matcher": "Bash",
        "if": "Bash(git push*)",
        "command": "branch=$(git branch --show-current 2>/dev/null); target=$(git rev-parse --abbrev-ref '@{push}' 2>/dev/null); case \"$branch|$target\" in 'main|'* | */main) echo 'This push would update main (you are on main, or main is where a plain git push goes): push a branch and open a pull request instead.' >&2; exit 2 ;; esac",
        "timeout": 10
      }
    ]
  }
}
"#;

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
    write_new(&target)?;
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.canonicalize().ok())
        .unwrap_or_else(|| PathBuf::from("hookrun"));
    let mut out = format!(
        "wrote {}: a starter policy that blocks pushes to main (deny rules for `git push … main`, `HEAD:main`…, and a hook for a plain `git push` from main); edit it, then check it with `hookrun doctor`\n",
        target.display()
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

fn write_new(target: &Path) -> anyhow::Result<()> {
    if target.exists() {
        bail!(
            "{} already exists: nothing written (edit it, or remove it first)",
            target.display()
        );
    }
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    // create_new: never replace a file that appeared in the meantime.
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(target)
        .and_then(|mut file| std::io::Write::write_all(&mut file, STARTER.as_bytes()))
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

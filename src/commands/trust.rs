//! `hookrun trust` / `hookrun untrust` (SPEC §9.1): record or forget the
//! SHA-256 of project settings files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::cli::TrustArgs;
use crate::commands::Printed;
use crate::exit::Exit;
use crate::settings::trust::{TrustError, TrustState, TrustStore, sha256_hex};
use crate::settings::{self, Environment, discover};

/// The settings files a path stands for: a file itself, or the project
/// files (`.hookrun/settings.json`, `.hookrun/settings.local.json`, and
/// `.mcp.json`, whose servers `mcp_tool` hooks start) of a project folder.
fn files_of(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    ["settings.json", "settings.local.json"]
        .iter()
        .map(|name| path.join(".hookrun").join(name))
        .chain(std::iter::once(path.join(".mcp.json")))
        .filter(|file| file.is_file())
        .collect()
}

pub fn run(args: &TrustArgs, trust: bool) -> anyhow::Result<Printed> {
    let env = Environment::from_process();
    let store_path = settings::trust_store_path(&env)
        .context("cannot find the config directory: set HOME or XDG_CONFIG_HOME")?;
    let mut store = match TrustStore::load(&store_path) {
        Ok(store) => store,
        // Trusting rewrites a corrupt store; untrusting has nothing to
        // remove. A store that cannot be read at all (a directory, no
        // permission) cannot be rewritten either: say that, and only that.
        Err(err @ TrustError::Corrupt { .. }) if trust => {
            tracing::warn!(%err, "starting a new trust store");
            TrustStore::empty(store_path.clone())
        }
        Err(err) => return Err(err.into()),
    };
    let targets: Vec<PathBuf> = if args.paths.is_empty() {
        // The project, and every nested layer down to here.
        let project = discover::project_dir(&env, Some(&env.current_dir));
        let nested = discover::nested_layers(&project, &env.current_dir)
            .into_iter()
            .filter(|layer| !files_of(layer).is_empty());
        std::iter::once(project).chain(nested).collect()
    } else {
        args.paths.iter().map(|p| env.absolute(p)).collect()
    };
    let mut out = String::new();
    let mut failed = Vec::new();
    // A weakening change from an agent's shell refuses (a second line: the
    // built-in rules deny the agent's call before it runs).
    let agent = if args.yes {
        None
    } else {
        super::common::agent_shell()
    };
    for target in &targets {
        if trust && !target.exists() {
            failed.push(format!("{} does not exist", target.display()));
            continue;
        }
        let files = files_of(target);
        if files.is_empty() && trust {
            failed.push(format!(
                "no settings to trust at {} (expected a settings file, or a folder with .hookrun/settings.json or .hookrun/settings.local.json)",
                target.display()
            ));
            continue;
        }
        let files = if trust {
            files
        } else {
            untrust_candidates(target, &store)
        };
        for file in files {
            if trust {
                match crate::fsafe::read_capped(&file, crate::fsafe::Follow::Yes) {
                    Ok(bytes)
                        if agent.is_some() && store.state(&file, &bytes) != TrustState::Trusted =>
                    {
                        failed.push(super::common::refused_in_agent_shell(
                            &format!(
                                "trust {} (its content is not what you trusted)",
                                file.display()
                            ),
                            agent.as_deref().unwrap_or_default(),
                        ));
                    }
                    Ok(bytes) => {
                        store.trust(&file, &bytes);
                        let _ = writeln!(
                            out,
                            "trusted {} (sha256 {})",
                            file.display(),
                            &sha256_hex(&bytes)[..16]
                        );
                    }
                    Err(err) => failed.push(format!("cannot read {}: {err}", file.display())),
                }
            } else if let (Some(marker), Some(_)) = (&agent, store.entry(&file)) {
                failed.push(super::common::refused_in_agent_shell(
                    &format!("untrust {}", file.display()),
                    marker,
                ));
            } else if store.untrust(&file) {
                let _ = writeln!(out, "untrusted {}", file.display());
            }
        }
    }
    if !trust && out.is_empty() && failed.is_empty() {
        out.push_str("nothing was trusted there; nothing to do\n");
    }
    if let Err(err) = store.save() {
        // Nothing was recorded: no line may say otherwise.
        out.clear();
        failed.push(err.to_string());
    }
    let mut stderr = String::new();
    for line in &failed {
        let _ = writeln!(stderr, "hookrun: {line}");
    }
    Ok(Printed {
        stdout: out,
        stderr,
        exit: Exit::failure_if(!failed.is_empty()),
    })
}

/// For `untrust`: the file itself, or every trusted file of the project
/// folder (also ones deleted since).
fn untrust_candidates(target: &Path, store: &TrustStore) -> Vec<PathBuf> {
    if target.is_file() {
        return vec![target.to_path_buf()];
    }
    ["settings.json", "settings.local.json"]
        .iter()
        .map(|name| target.join(".hookrun").join(name))
        .chain([target.join(".mcp.json"), target.to_path_buf()])
        .filter(|file| store.entry(file).is_some())
        .collect()
}

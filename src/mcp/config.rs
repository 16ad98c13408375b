//! Where an `mcp_tool` hook's server is defined, as Claude Code reads it:
//! the user's local scope (`projects.<project>.mcpServers` in
//! `~/.claude.json`), then the project's `.mcp.json`, then the user scope
//! (`mcpServers` in `~/.claude.json`); the first that names the server
//! wins. A project's `.mcp.json` is repository content: it is read only
//! when its exact content is trusted (`hookrun trust .mcp.json`, or
//! `--trust-project`).
//!
//! A trust decision is pinned (SPEC §9.5), as for settings files: once
//! `.mcp.json` was trusted, an edit, a FIFO in its place or its removal
//! leaves the content that was trusted in force (kept in the trust store),
//! with a warning; and a server of the same name defined in another scope
//! (`projects.<project>.mcpServers` in `~/.claude.json`, which Claude Code
//! would prefer) never silently replaces the trusted one: the trusted one
//! runs, and a warning names both.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::settings::trust::TrustState;

/// A stdio server, its `${VAR}`s expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerDef {
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// The file and JSON path that define it (for messages).
    pub defined_at: String,
}

/// Where to look and what is trusted.
#[derive(Debug, Clone)]
pub struct Places {
    pub project_dir: PathBuf,
    /// `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`).
    pub user_file: Option<PathBuf>,
    /// `--trust-project`: `.mcp.json` runs whatever its content.
    pub trust_all: bool,
}

impl Places {
    /// The user file from hookrun's own environment.
    pub fn user_file_from(env: &[(OsString, OsString)]) -> Option<PathBuf> {
        let get = |name: &str| {
            env.iter()
                .find(|(k, v)| k == name && !v.is_empty())
                .map(|(_, v)| PathBuf::from(v))
        };
        get("CLAUDE_CONFIG_DIR")
            .or_else(|| get("HOME"))
            .map(|dir| dir.join(".claude.json"))
    }
}

/// Why an MCP server's definition was not found or cannot run. `at` names
/// the entry (file and JSON path); I/O and parse errors are part of the
/// message, not causes of their own.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Only an untrusted file defines it: what the user should do.
    #[error("{0}")]
    Untrusted(String),
    #[error("no MCP server of that name in {user_file} or {}", project_file.display())]
    NotFound {
        user_file: String,
        project_file: PathBuf,
    },
    #[error("cannot read {}: {err}", path.display())]
    Read { path: PathBuf, err: std::io::Error },
    #[error("{what} is not valid JSON: {err}")]
    NotJson {
        what: String,
        err: serde_json::Error,
    },
    #[error("{} {what}, and {err}", file.display())]
    NoTrustedCopy {
        file: PathBuf,
        what: String,
        err: crate::settings::trust::CopyError,
    },
    #[error("{at} is not an object")]
    NotAnObject { at: String },
    #[error(
        "{at} is a {kind:?} server: hookrun starts stdio servers only (`command`, `args`, `env`)"
    )]
    NotStdio { at: String, kind: String },
    #[error("{at}.{field}: {var}")]
    Unset {
        at: String,
        field: &'static str,
        var: UnsetVar,
    },
    #[error("{at} has no `command`")]
    NoCommand { at: String },
    #[error("{at}.args holds a value that is not a string")]
    ArgNotString { at: String },
    #[error("{at}.args is not a list of strings")]
    ArgsNotList { at: String },
    #[error("{at}.env.{key} is not a string")]
    EnvNotString { at: String, key: String },
    #[error("{at}.env is not an object")]
    EnvNotObject { at: String },
}

/// A variable `${NAME}` names that is unset and has no default.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("${{{0}}} is not set")]
pub struct UnsetVar(pub String);

/// Finds `name`: the definition, and a warning when something else
/// defines it too or the trusted `.mcp.json` changed (its trusted content
/// was used). The error says where the server was looked for, or why its
/// definition cannot run.
pub fn find(
    name: &str,
    places: &Places,
    env: &[(OsString, OsString)],
) -> Result<(ServerDef, Option<String>), ConfigError> {
    let user = places.user_file.as_deref().and_then(|path| {
        let bytes = crate::fsafe::read_capped(path, crate::fsafe::Follow::Yes).ok()?;
        Some((
            path.to_path_buf(),
            serde_json::from_slice::<Value>(&bytes).ok()?,
        ))
    });
    let project_key = places.project_dir.to_string_lossy().into_owned();
    let project_file = places.project_dir.join(".mcp.json");
    let project = project_servers(&project_file, places.trust_all)?;
    let mut warnings: Vec<String> = project.warning.into_iter().collect();
    let trusted_entry = project
        .trusted
        .then_some(project.json.as_ref())
        .flatten()
        .and_then(|json| json.get("mcpServers"))
        .and_then(|s| s.get(name));
    let project_at = format!("{} (mcpServers.{name})", project_file.display());
    let joined = |warnings: Vec<String>| (!warnings.is_empty()).then(|| warnings.join("; "));
    if let Some((path, json)) = &user {
        let local = json
            .get("projects")
            .and_then(|p| p.get(&project_key))
            .and_then(|p| p.get("mcpServers"))
            .and_then(|s| s.get(name));
        if let Some(entry) = local {
            let at = format!(
                "{} (projects.{project_key:?}.mcpServers.{name})",
                path.display()
            );
            if let Some(trusted) = trusted_entry {
                // The trusted definition is what the user reviewed: a
                // same-name one elsewhere (which the agent can write)
                // never replaces it without a word.
                warnings.push(format!(
                    "it is defined both in {at} and in the trusted {project_at}: the trusted one runs"
                ));
                return server(trusted, project_at, env).map(|def| (def, joined(warnings)));
            }
            return server(entry, at, env).map(|def| (def, joined(warnings)));
        }
    }
    if let Some(entry) = trusted_entry {
        return server(entry, project_at, env).map(|def| (def, joined(warnings)));
    }
    let untrusted_definition = !project.trusted
        && project
            .json
            .as_ref()
            .and_then(|json| json.get("mcpServers"))
            .and_then(|s| s.get(name))
            .is_some();
    if untrusted_definition {
        warnings.push(format!(
            "{} defines it but is not trusted (it is project content: review it, then run `hookrun trust {}`)",
            project_file.display(),
            project_file.display()
        ));
    }
    if let Some((path, json)) = &user {
        if let Some(entry) = json.get("mcpServers").and_then(|s| s.get(name)) {
            let at = format!("{} (mcpServers.{name})", path.display());
            if untrusted_definition {
                if let Some(last) = warnings.last_mut() {
                    let _ = write!(last, "; the server of {at} runs instead");
                }
            }
            return server(entry, at, env).map(|def| (def, joined(warnings)));
        }
    }
    if let Some(why) = joined(warnings) {
        return Err(ConfigError::Untrusted(why));
    }
    let user_file = places
        .user_file
        .as_ref()
        .map_or_else(|| "~/.claude.json".to_owned(), |p| p.display().to_string());
    Err(ConfigError::NotFound {
        user_file,
        project_file,
    })
}

/// A project's `.mcp.json` as a trust decision has it.
struct Project {
    /// The content in force: the file's, or the trusted copy of a file
    /// that changed, was removed or cannot be read.
    json: Option<Value>,
    trusted: bool,
    /// The trusted content was used in the file's place.
    warning: Option<String>,
}

/// Reads `.mcp.json` and its trust: the content that was trusted stays in
/// force when the file changed since, or was removed, or cannot be read.
fn project_servers(file: &Path, trust_all: bool) -> Result<Project, ConfigError> {
    let parse = |bytes: &[u8], what: &str| -> Result<Value, ConfigError> {
        serde_json::from_slice(bytes).map_err(|err| ConfigError::NotJson {
            what: what.to_owned(),
            err,
        })
    };
    let cannot_read = |err| ConfigError::Read {
        path: file.to_path_buf(),
        err,
    };
    let read = crate::fsafe::read_capped(file, crate::fsafe::Follow::Yes);
    if trust_all {
        return match read {
            Ok(bytes) => Ok(Project {
                json: Some(parse(&bytes, &file.display().to_string())?),
                trusted: true,
                warning: None,
            }),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Project {
                json: None,
                trusted: true,
                warning: None,
            }),
            Err(err) => Err(cannot_read(err)),
        };
    }
    let store = super::trust_store();
    let recorded = store.as_ref().and_then(|store| store.entry(file)).is_some();
    let current_state = match (&read, &store) {
        (Ok(bytes), Some(store)) => Some(store.state(file, bytes)),
        _ => None,
    };
    if let (Ok(bytes), Some(TrustState::Trusted | TrustState::New) | None) = (&read, current_state)
    {
        let trusted = current_state == Some(TrustState::Trusted);
        if let (true, Some(store)) = (trusted, &store) {
            // A record from before copies were kept: keep one now, so a
            // later edit cannot switch the servers off.
            store.keep_copy_of_legacy(file, bytes);
        }
        return Ok(Project {
            json: Some(parse(bytes, &file.display().to_string())?),
            trusted,
            warning: None,
        });
    }
    let what = match read {
        Ok(_) => "changed since it was trusted".to_owned(),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound && recorded => {
            "was removed since it was trusted".to_owned()
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Project {
                json: None,
                trusted: false,
                warning: None,
            });
        }
        Err(err) if recorded => format!("cannot be read ({err})"),
        Err(err) => return Err(cannot_read(err)),
    };
    let store = store.expect("a recorded file has a store");
    let copy = store
        .trusted_content(file)
        .map_err(|err| ConfigError::NoTrustedCopy {
            file: file.to_path_buf(),
            what: what.clone(),
            err,
        })?;
    let json = parse(&copy, &format!("the trusted copy of {}", file.display()))?;
    Ok(Project {
        json: Some(json),
        trusted: true,
        warning: Some(format!(
            "{} {what}: the content you trusted is still in force; review the file and run `hookrun trust {}` to put the new content in force (or `hookrun untrust` to drop it)",
            file.display(),
            file.display()
        )),
    })
}

/// One server entry, checked and expanded.
fn server(
    entry: &Value,
    at: String,
    env: &[(OsString, OsString)],
) -> Result<ServerDef, ConfigError> {
    let Some(entry) = entry.as_object() else {
        return Err(ConfigError::NotAnObject { at });
    };
    let remote = entry.contains_key("url") && !entry.contains_key("command");
    let kind = entry
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or(if remote { "http" } else { "stdio" });
    if kind != "stdio" {
        return Err(ConfigError::NotStdio {
            at,
            kind: kind.to_owned(),
        });
    }
    let expand = |text: &str, field: &'static str| {
        expand_vars(text, env).map_err(|var| ConfigError::Unset {
            at: at.clone(),
            field,
            var,
        })
    };
    let command = match entry.get("command") {
        Some(Value::String(command)) if !command.trim().is_empty() => expand(command, "command")?,
        _ => return Err(ConfigError::NoCommand { at }),
    };
    let args = match entry.get("args") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(args)) => args
            .iter()
            .map(|a| match a {
                Value::String(a) => expand(a, "args"),
                _ => Err(ConfigError::ArgNotString { at: at.clone() }),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(ConfigError::ArgsNotList { at }),
    };
    let vars = match entry.get("env") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(vars)) => vars
            .iter()
            .map(|(k, v)| match v {
                Value::String(v) => Ok((k.clone(), expand(v, "env")?)),
                _ => Err(ConfigError::EnvNotString {
                    at: at.clone(),
                    key: k.clone(),
                }),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(ConfigError::EnvNotObject { at }),
    };
    Ok(ServerDef {
        command,
        args,
        env: vars,
        defined_at: at,
    })
}

/// `${VAR}` and `${VAR:-default}` from `env` (as Claude Code expands
/// `.mcp.json`); the error is the name of a variable that is unset and has
/// no default.
fn expand_vars(text: &str, env: &[(OsString, OsString)]) -> Result<String, UnsetVar> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return Ok(out);
        };
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        let value = env
            .iter()
            .find(|(k, _)| k.as_encoded_bytes() == name.as_bytes())
            .map(|(_, v)| v.to_string_lossy().into_owned());
        match (value, default) {
            (Some(value), _) => out.push_str(&value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => return Err(UnsetVar(name.to_owned())),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `input` with every `${path}` in its strings replaced by that field of
/// the event (`${tool_input.command}`, `${cwd}`): a string as it is, any
/// other value as JSON, a missing one as nothing.
pub fn substitute_input(
    input: &Map<String, Value>,
    event: &Map<String, Value>,
) -> Map<String, Value> {
    input
        .iter()
        .map(|(k, v)| (k.clone(), substitute_value(v, event)))
        .collect()
}

fn substitute_value(value: &Value, event: &Map<String, Value>) -> Value {
    match value {
        Value::String(text) => Value::String(substitute_text(text, event)),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| substitute_value(v, event)).collect())
        }
        Value::Object(map) => Value::Object(substitute_input(map, event)),
        other => other.clone(),
    }
}

fn substitute_text(text: &str, event: &Map<String, Value>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let mut path = after[..end].split('.');
        let first = path.next().and_then(|key| event.get(key));
        let found = path.try_fold(first, |value, key| {
            Some(value.and_then(|v| match v {
                Value::Object(map) => map.get(key),
                Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            }))
        });
        match found.flatten() {
            Some(Value::String(s)) => out.push_str(s),
            Some(Value::Null) | None => {}
            Some(other) => out.push_str(&other.to_string()),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).into(), (*v).into()))
            .collect()
    }

    #[test]
    fn input_paths_are_filled_from_the_event() {
        let event = json!({"tool_input": {"command": "rm -rf /", "n": 3}, "cwd": "/p"});
        let input = json!({"cmd": "${tool_input.command}", "all": "${cwd}:${tool_input.n}:${nope.x}", "keep": 1, "list": ["${cwd}"]});
        let got = substitute_input(input.as_object().unwrap(), event.as_object().unwrap());
        assert_eq!(
            Value::Object(got),
            json!({"cmd": "rm -rf /", "all": "/p:3:", "keep": 1, "list": ["/p"]})
        );
    }

    #[test]
    fn variables_expand_with_defaults_and_unset_ones_are_named() {
        let vars = env(&[("TOKEN", "t")]);
        assert_eq!(expand_vars("a${TOKEN}b", &vars).unwrap(), "atb");
        assert_eq!(expand_vars("${MISSING:-d}", &vars).unwrap(), "d");
        assert_eq!(expand_vars("${MISSING}", &vars).unwrap_err().0, "MISSING");
        assert_eq!(expand_vars("${open", &vars).unwrap(), "${open");
    }

    #[test]
    fn remote_servers_are_refused_with_where_they_are_defined() {
        let err = server(
            &json!({"type": "http", "url": "https://x"}),
            "f (mcpServers.s)".into(),
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("f (mcpServers.s) is a \"http\" server"),
            "{err}"
        );
        let err = server(&json!({"url": "https://x"}), "f".into(), &[])
            .unwrap_err()
            .to_string();
        assert!(err.contains("stdio servers only"), "{err}");
    }
}

//! `hookrun status`: where hookrun is wired in. For every host, the config
//! files here (the home folder's and the current project's) and the hookrun
//! entries in them, with the binary each names, whether it exists and
//! whether it is the hookrun running; the installs recorded (what
//! `hookrun uninstall --all` removes); the `hookrun` on PATH. Reads only.
//!
//! Hosts come from the host table (`wiring::all`), so a new host is listed
//! without a line here.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::common::{self, Printed};
use super::record;
use crate::cli::{OutputFormat, StatusArgs};
use crate::diagnose::command::{Vars, expand};
use crate::exit::Exit;
use crate::host::HostId;
use crate::host::wiring::{self, Scope, Wiring};
use crate::jsonedit::Doc;

/// One host file that exists.
struct File {
    path: PathBuf,
    scope: &'static str,
    /// `None`: the file is not JSON (the host may not read it either).
    entries: Option<Vec<Entry>>,
}

/// One entry that runs hookrun.
struct Entry {
    event: String,
    command: String,
    /// The program, as the host's shell would find it.
    program: Option<PathBuf>,
    exists: bool,
    /// It is the hookrun running this command.
    this: bool,
}

struct HostStatus {
    w: &'static Wiring,
    files: Vec<File>,
}

pub fn run(args: &StatusArgs) -> anyhow::Result<Printed> {
    let env = common::environment(&args.settings);
    let this = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let hosts: Vec<HostStatus> = wiring::all()
        .map(|w| {
            let project = super::install::project_root(&env, w.host, &mut String::new());
            let mut paths: Vec<(&'static str, PathBuf)> = w
                .files(&project, env.home.as_deref(), codex_home.as_deref())
                .into_iter()
                .map(|(scope, path)| (record::scope_name(scope, false), path))
                .collect();
            if w.host == HostId::ClaudeCode {
                paths.insert(
                    1,
                    (
                        record::scope_name(Scope::Project, true),
                        project.join(".claude/settings.local.json"),
                    ),
                );
            }
            let vars = Vars {
                config_dir: &project,
                project_dir: &project,
                claude_project_dir: &project,
                home: env.home.as_deref(),
            };
            let files = paths
                .into_iter()
                .filter_map(|(scope, path)| read_file(w, scope, path, &vars, this.as_deref()))
                .collect();
            HostStatus { w, files }
        })
        .collect();
    let record_path = record::path();
    let recorded = match &record_path {
        Some(path) => record::load(path)?.installs,
        None => Vec::new(),
    };
    let on_path = which("hookrun");
    let view = View {
        this: this.as_deref(),
        hosts: &hosts,
        record_path: record_path.as_deref(),
        recorded: &recorded,
        on_path: on_path.as_deref(),
    };
    let stdout = match args.format {
        OutputFormat::Text => text(&view),
        OutputFormat::Json => {
            let mut out = serde_json::to_string_pretty(&to_json(&view)).expect("JSON serialises");
            out.push('\n');
            out
        }
    };
    Ok(Printed::stdout(stdout, Exit::Success))
}

/// A host file (or Cline folder) that exists, with its hookrun entries.
fn read_file(
    w: &Wiring,
    scope: &'static str,
    path: PathBuf,
    vars: &Vars<'_>,
    this: Option<&Path>,
) -> Option<File> {
    let found = if w.shape == wiring::Shape::Files {
        if !path.is_dir() {
            return None;
        }
        Some(crate::host::cline::entries_in(&path, |p| {
            std::fs::read(p).ok()
        }))
    } else {
        let bytes = std::fs::read(&path).ok()?;
        std::str::from_utf8(&bytes)
            .ok()
            .and_then(|text| Doc::parse(text).ok())
            .map(|doc| wiring::entries(w, &doc.value))
    };
    let entries = found.map(|entries| {
        entries
            .into_iter()
            .filter(|e| wiring::runs_hookrun(&e.command))
            .map(|e| {
                let program = wiring::program(&e.command).map(|p| {
                    let expanded = PathBuf::from(expand(&p, vars));
                    if expanded.components().count() > 1 {
                        expanded
                    } else {
                        which(&expanded.to_string_lossy()).unwrap_or(expanded)
                    }
                });
                let real = program
                    .as_deref()
                    .and_then(|p| std::fs::canonicalize(p).ok());
                Entry {
                    event: e.host_event,
                    command: e.command,
                    exists: real.is_some(),
                    this: real.is_some() && real.as_deref() == this,
                    program,
                }
            })
            .collect()
    });
    Some(File {
        path,
        scope,
        entries,
    })
}

/// `program` on PATH, as a shell finds it.
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let names = [
        program.to_owned(),
        format!("{program}{}", std::env::consts::EXE_SUFFIX),
    ];
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| {
            std::fs::metadata(candidate)
                .is_ok_and(|m| crate::platform::is_executable_meta(candidate, &m))
        })
}

struct View<'a> {
    this: Option<&'a Path>,
    hosts: &'a [HostStatus],
    record_path: Option<&'a Path>,
    recorded: &'a [record::Install],
    on_path: Option<&'a Path>,
}

fn shown(path: Option<&Path>) -> String {
    path.map_or_else(|| "unknown".to_owned(), |p| p.display().to_string())
}

fn text(v: &View<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "hookrun {}: {}",
        env!("CARGO_PKG_VERSION"),
        shown(v.this)
    );
    on_path_line(v, &mut out);
    let mut wired = 0;
    for host in v.hosts {
        let _ = write!(out, "\n{}", host.w.host.display());
        if host.files.is_empty() {
            out.push_str(": no config file here\n");
            continue;
        }
        out.push('\n');
        for file in &host.files {
            wired += usize::from(file_text(file, &mut out));
        }
    }
    if wired == 0 {
        out.push_str("\nno host runs hookrun here (`hookrun install HOST` routes one)\n");
    }
    let _ = writeln!(
        out,
        "\ninstalls recorded: {}{}",
        v.recorded.len(),
        v.record_path
            .map(|p| format!(" ({})", p.display()))
            .unwrap_or_default()
    );
    for row in v.recorded {
        let _ = writeln!(
            out,
            "  {} {}: {}{}",
            row.host,
            row.scope,
            row.file.display(),
            if row.file.exists() { "" } else { " (gone)" }
        );
    }
    if !v.recorded.is_empty() {
        out.push_str("`hookrun uninstall --all` removes them (and every hookrun entry above)\n");
    }
    out
}

/// The `hookrun` a shell finds, and whether it is this one.
fn on_path_line(v: &View<'_>, out: &mut String) {
    let Some(path) = v.on_path else {
        out.push_str("hookrun on PATH: none (host entries must name hookrun by its path)\n");
        return;
    };
    let real = std::fs::canonicalize(path).ok();
    let what = if real.as_deref() == v.this {
        " (this one)".to_owned()
    } else if real.as_deref().is_some_and(crate::binpath::is_npm_launcher) {
        " (npm's launcher: it runs the native hookrun of its package)".to_owned()
    } else {
        format!(" ({}: another hookrun)", shown(real.as_deref()))
    };
    let _ = writeln!(out, "hookrun on PATH: {}{what}", path.display());
}

/// One host file; whether it runs hookrun.
fn file_text(file: &File, out: &mut String) -> bool {
    let Some(entries) = &file.entries else {
        let _ = writeln!(
            out,
            "  {:<7}  {}: not JSON (`hookrun doctor` says more)",
            file.scope,
            file.path.display()
        );
        return false;
    };
    if entries.is_empty() {
        let _ = writeln!(
            out,
            "  {:<7}  {}: no hookrun entry",
            file.scope,
            file.path.display()
        );
        return false;
    }
    let events: Vec<&str> = entries.iter().map(|e| e.event.as_str()).collect();
    let _ = writeln!(
        out,
        "  {:<7}  {}: {} hookrun entr{} ({})",
        file.scope,
        file.path.display(),
        entries.len(),
        if entries.len() == 1 { "y" } else { "ies" },
        events.join(", ")
    );
    let mut programs: Vec<&Entry> = Vec::new();
    for e in entries {
        if !programs.iter().any(|p| p.program == e.program) {
            programs.push(e);
        }
    }
    for e in programs {
        let state = match (e.exists, e.this) {
            (_, true) => "exists, this hookrun",
            (true, false) => "exists, another hookrun than this one",
            (false, _) => {
                "does not exist: the host's every call fails (`hookrun install` again, or `hookrun uninstall`)"
            }
        };
        let _ = writeln!(
            out,
            "           runs {}: {state}",
            e.program
                .as_deref()
                .map_or_else(|| "?".to_owned(), |p| p.display().to_string())
        );
    }
    true
}

fn to_json(v: &View<'_>) -> Value {
    let hosts: Vec<Value> = v
        .hosts
        .iter()
        .map(|h| {
            let files: Vec<Value> = h
                .files
                .iter()
                .map(|f| {
                    json!({
                        "path": f.path.display().to_string(),
                        "scope": f.scope,
                        "json": f.entries.is_some(),
                        "entries": f.entries.iter().flatten().map(|e| json!({
                            "event": e.event,
                            "command": e.command,
                            "program": e.program.as_ref().map(|p| p.display().to_string()),
                            "exists": e.exists,
                            "this_hookrun": e.this,
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({"host": h.w.host.name(), "display": h.w.host.display(), "files": files})
        })
        .collect();
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "binary": v.this.map(|p| p.display().to_string()),
        "on_path": v.on_path.map(|p| p.display().to_string()),
        "hosts": hosts,
        "record": v.record_path.map(|p| p.display().to_string()),
        "recorded": v.recorded.iter().map(|r| json!({
            "host": r.host,
            "scope": r.scope,
            "file": r.file.display().to_string(),
            "exists": r.file.exists(),
        })).collect::<Vec<_>>(),
    })
}

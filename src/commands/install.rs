//! `hookrun install HOST` / `hookrun uninstall HOST`: write the host's own
//! hook config so every event hookrun's settings use reaches
//! `hookrun fire --host HOST` (the entries themselves: `host::wiring`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, anyhow, bail};

use super::common::{self, Printed};
use super::record;
use crate::binpath;
use crate::catalog::EventId;
use crate::cli::{InstallArgs, UninstallArgs};
use crate::exit::{Exit, Usage};
use crate::host::HostId;
use crate::host::wiring::{self, Route, Scope, Wiring};
use crate::jsonedit::Doc;
use crate::safewrite;
use crate::settings::Settings;
use crate::settings::discover::Environment;

/// Routed when hookrun's settings have no hooks yet.
const DEFAULT_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
];

pub fn run(args: &InstallArgs, install: bool) -> anyhow::Result<Printed> {
    Ok(Printed::stdout(plan(args, install)?, Exit::Success))
}

/// Removing the entries switches hookrun off for the host: not from an
/// agent's shell unless asked (a second line; the built-in rules deny the
/// agent's call first).
pub fn refuse_in_agent_shell(args: &UninstallArgs) -> anyhow::Result<()> {
    if args.yes || args.dry_run {
        return Ok(());
    }
    if let Some(marker) = common::agent_shell() {
        let what = match args.host {
            Some(host) => format!("uninstall {}", host.name()),
            None => "uninstall --all".to_owned(),
        };
        bail!(common::refused_in_agent_shell(&what, &marker));
    }
    Ok(())
}

/// What one install or uninstall of a host document is about.
struct Job<'a> {
    install: bool,
    dry_run: bool,
    w: &'a Wiring,
    routes: &'a [Route],
}

/// What an edit wrote (nothing on a dry run, or when the file was up to
/// date).
struct Written {
    /// The file did not exist before.
    created: bool,
    backup: Option<PathBuf>,
}

fn plan(args: &InstallArgs, install: bool) -> anyhow::Result<String> {
    let env = common::environment(&args.settings);
    let mut out = String::new();
    let scope = if args.user {
        Scope::User
    } else {
        Scope::Project
    };
    let mut root_note = String::new();
    let project_dir = project_root(&env, args.host, &mut root_note);
    if scope == Scope::Project {
        out.push_str(&root_note);
    }
    let w = wiring::wiring(args.host);
    let path = host_file(args, w, &env, &project_dir, scope)?;
    let inside = (scope == Scope::Project).then_some(project_dir.as_path());
    let row = |created, folders, backup: Option<PathBuf>| {
        record::row(
            args.host, scope, args.local, &path, created, folders, backup,
        )
    };

    // A host whose hooks are files, not a document (Cline).
    if w.shape == wiring::Shape::Files && !install {
        out.push_str(&super::install_files::run(w, &path, None, args.dry_run)?);
        if !args.dry_run {
            after_uninstall(w, &path, &mut out);
        }
        return Ok(out);
    }

    let mut routes = Vec::new();
    let mut settings = None;
    if install {
        let fire = entry_command(args, &env, &project_dir, scope, &mut out)?;
        let loaded = common::inspect_settings(&args.settings, &env, &project_dir);
        let events = events_to_route(&loaded, args.host, &mut out);
        if w.shape == wiring::Shape::Files {
            let folders = record::missing_folders(&path, true);
            let route = super::install_files::Route {
                base: fire,
                events: &events,
            };
            out.push_str(&super::install_files::run(
                w,
                &path,
                Some(route),
                args.dry_run,
            )?);
            if !args.dry_run {
                remember(row(!folders.is_empty(), folders, None), &mut out);
            }
            untrusted_note(&loaded, &mut out);
            return Ok(out);
        }
        let matchers = watched_files(&loaded, args.host, &mut out);
        for claude in events {
            let matcher = matchers
                .iter()
                .find(|(e, _)| *e == claude)
                .map(|(_, m)| m.clone());
            routes.push(w.route(claude, &fire, needed_deadline(&loaded, w, claude), matcher));
        }
        settings = Some(loaded);
    }

    let job = Job {
        install,
        dry_run: args.dry_run,
        w,
        routes: &routes,
    };
    let folders = record::missing_folders(&path, false);
    let _lock = safewrite::lock_folder(&path).map_err(anyhow::Error::msg)?;
    for _attempt in 0..3 {
        let mut text = out.clone();
        match edit(&job, &path, inside, &mut text)? {
            Edited::Done(written) => {
                if install {
                    if let Some(written) = written {
                        let folders = if written.created { folders } else { Vec::new() };
                        remember(row(written.created, folders, written.backup), &mut text);
                    }
                    let place = Place {
                        path: &path,
                        project_dir: &project_dir,
                        scope,
                        pinned: routes
                            .first()
                            .is_some_and(|r| r.command.starts_with(wiring::PINNED_PROGRAM)),
                    };
                    installed_notes(args, w, &place, settings.as_ref(), &mut text);
                } else if !args.dry_run {
                    after_uninstall(w, &path, &mut text);
                }
                return Ok(text);
            }
            Edited::Changed => {}
        }
    }
    bail!(
        "{} kept changing while hookrun edited it (another program writes it): nothing written; run again when it is quiet",
        path.display()
    )
}

/// `hookrun uninstall --all`: every install recorded, every host's file in
/// the home folder and the current project's, whichever host wrote them.
pub fn uninstall_all(args: &UninstallArgs) -> anyhow::Result<Printed> {
    let env = common::environment(&args.settings);
    let mut out = String::new();
    let mut targets: Vec<Target> = Vec::new();
    let push = |targets: &mut Vec<Target>, target: Target| {
        if !targets.iter().any(|t| t.path == target.path) {
            targets.push(target);
        }
    };
    if let Some(path) = record::path() {
        for row in record::load(&path)?.installs {
            let Some(host) = row.host_id() else {
                let _ = writeln!(
                    out,
                    "note: {} was recorded for a host this hookrun does not know (`{}`): left alone",
                    row.file.display(),
                    row.host
                );
                continue;
            };
            let w = wiring::wiring(host);
            let inside = (row.scope != "user")
                .then(|| project_of(w, &row.file, row.scope == "local"))
                .flatten();
            push(
                &mut targets,
                Target {
                    w,
                    path: row.file,
                    inside,
                },
            );
        }
    }
    // Recorded or not (an install before the record, another state folder):
    // the home folder's files and this project's that mention hookrun.
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    for w in wiring::all() {
        let project = project_root(&env, w.host, &mut String::new());
        let mut files = w.files(&project, env.home.as_deref(), codex_home.as_deref());
        if w.host == HostId::ClaudeCode {
            files.push((Scope::Project, project.join(LOCAL_FILE)));
        }
        for (scope, path) in files {
            if !mentions_hookrun(w, &path) {
                continue;
            }
            let inside = (scope == Scope::Project).then(|| project.clone());
            push(&mut targets, Target { w, path, inside });
        }
    }
    if targets.is_empty() {
        out.push_str(
            "nothing to remove: no install is recorded, and no host file in your home folder or this project runs hookrun\n",
        );
        return Ok(Printed::stdout(out, Exit::Success));
    }
    let mut failed = 0;
    for target in &targets {
        let _ = writeln!(
            out,
            "{}: {}",
            target.w.host.display(),
            target.path.display()
        );
        let mut text = String::new();
        if let Err(err) = uninstall_path(target, args.dry_run, &mut text) {
            failed += 1;
            let _ = writeln!(text, "error: {err:#}");
        }
        for line in text.lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    if failed > 0 {
        let _ = writeln!(
            out,
            "{failed} of {} could not be undone (said above): fix what each says and run `hookrun uninstall --all` again",
            targets.len()
        );
        return Ok(Printed::stdout(out, Exit::Failure));
    }
    if !args.dry_run {
        out.push_str("every install is undone: no host runs hookrun now; your hookrun settings, trust store and state stay (see \"Removing hookrun\" in the README)\n");
    }
    Ok(Printed::stdout(out, Exit::Success))
}

/// One host file (or Cline folder) `uninstall --all` undoes.
struct Target {
    w: &'static Wiring,
    path: PathBuf,
    /// The project it belongs to (writes stay inside it).
    inside: Option<PathBuf>,
}

/// The project a project-scoped host file is in: the path without the
/// host's own relative path (`.claude/settings.json`).
fn project_of(w: &Wiring, file: &Path, local: bool) -> Option<PathBuf> {
    let rel = Path::new(if local { LOCAL_FILE } else { w.project_file });
    if !file.ends_with(rel) {
        return None;
    }
    file.ancestors()
        .nth(rel.components().count())
        .map(Path::to_path_buf)
}

/// Whether a host file (or Cline folder) may hold hookrun's entries: it
/// mentions hookrun (a cheap look before an edit).
fn mentions_hookrun(w: &Wiring, path: &Path) -> bool {
    let holds = |file: &Path| {
        std::fs::read(file).is_ok_and(|bytes| bytes.windows(7).any(|x| x == b"hookrun"))
    };
    if w.shape == wiring::Shape::Files {
        return w.events.iter().any(|(_, event)| holds(&path.join(event)));
    }
    holds(path)
}

/// Uninstall from one file, as `hookrun uninstall HOST` does.
fn uninstall_path(target: &Target, dry_run: bool, out: &mut String) -> anyhow::Result<()> {
    let w = target.w;
    if w.shape == wiring::Shape::Files {
        out.push_str(&super::install_files::run(w, &target.path, None, dry_run)?);
    } else {
        let job = Job {
            install: false,
            dry_run,
            w,
            routes: &[],
        };
        let _lock = safewrite::lock_folder(&target.path).map_err(anyhow::Error::msg)?;
        let mut done = false;
        for _attempt in 0..3 {
            let mut text = String::new();
            if let Edited::Done(_) = edit(&job, &target.path, target.inside.as_deref(), &mut text)?
            {
                out.push_str(&text);
                done = true;
                break;
            }
        }
        if !done {
            bail!(
                "{} kept changing while hookrun edited it (another program writes it): nothing written; run again when it is quiet",
                target.path.display()
            );
        }
    }
    if !dry_run {
        after_uninstall(w, &target.path, out);
    }
    Ok(())
}

/// What install says after writing: an untrusted project, whether the file
/// is shared, what the host needs besides.
fn installed_notes(
    args: &InstallArgs,
    w: &Wiring,
    place: &Place<'_>,
    settings: Option<&Settings>,
    out: &mut String,
) {
    if let Some(settings) = settings {
        untrusted_note(settings, out);
    }
    shared_or_local(args, w, place, out);
    out.push_str(&next_steps(w, place.path));
}

/// Adds what install wrote to the install record (a failure to record is
/// said, never a failed install: the entries are written).
fn remember(row: record::Install, out: &mut String) {
    let Some(path) = record::path() else {
        let _ = writeln!(
            out,
            "note: no state folder ($HOME is not set): install is not recorded, so `hookrun uninstall --all` will not know of it"
        );
        return;
    };
    if let Err(err) = record::update(&path, |r| record::add(r, row)) {
        let _ = writeln!(
            out,
            "warning: install is not recorded ({err:#}): `hookrun uninstall --all` will not know of it; `hookrun uninstall HOST` still removes it"
        );
    }
}

/// After uninstall removed install's entries from `path`: the backups
/// install saved of it that hold nothing the file does not (once install's
/// entries are taken out of them) go, and so do the folders install
/// created that are empty now; the row leaves the record.
fn after_uninstall(w: &Wiring, path: &Path, out: &mut String) {
    let Some(record_path) = record::path() else {
        return;
    };
    let rows: Vec<record::Install> = match record::load(&record_path) {
        Ok(record) => record
            .installs
            .into_iter()
            .filter(|row| row.file == path && row.host == w.host.name())
            .collect(),
        Err(err) => {
            let _ = writeln!(
                out,
                "warning: {err:#}: backups and folders install made stay"
            );
            return;
        }
    };
    let Some(row) = rows.into_iter().next() else {
        return;
    };
    let mut said = Vec::new();
    let current = std::fs::read(path).ok();
    for backup in &row.backups {
        let Ok(bytes) = std::fs::read(backup) else {
            continue;
        };
        if backup_is_redundant(w, &bytes, current.as_deref()) {
            match std::fs::remove_file(backup) {
                Ok(()) => said.push(format!(
                    "removed {} (install's backup; the file holds all of it now)",
                    backup.display()
                )),
                Err(err) => said.push(format!("kept {}: {err}", backup.display())),
            }
        } else {
            said.push(format!(
                "kept {}: it holds what {} does not (an earlier version of your own content)",
                backup.display(),
                path.display()
            ));
        }
    }
    if current.is_none() || w.shape == wiring::Shape::Files {
        record::remove_empty_folders(&row.folders, &mut said);
    }
    for line in said {
        let _ = writeln!(out, "{line}");
    }
    if let Err(err) = record::update(&record_path, |r| {
        r.installs
            .retain(|other| !(other.file == path && other.host == w.host.name()));
    }) {
        let _ = writeln!(out, "warning: the install record is not updated: {err:#}");
    }
}

/// A backup holds nothing the file does not: with install's entries taken
/// out, it is the file as it is now (or, for a file install created and
/// uninstall removed, what install would have left).
fn backup_is_redundant(w: &Wiring, backup: &[u8], current: Option<&[u8]>) -> bool {
    let Ok(text) = std::str::from_utf8(backup) else {
        return false;
    };
    if current == Some(backup) {
        return true;
    }
    let Ok(mut doc) = Doc::parse(if text.trim().is_empty() { "{}\n" } else { text }) else {
        return false;
    };
    if wiring::uninstall(w, &mut doc).is_err() {
        return false;
    }
    match current {
        Some(current) => doc.text.as_bytes() == current,
        None => doc.text == wiring::created_and_emptied(w) || text.trim().is_empty(),
    }
}

/// The host file (or, for Cline, folder) install edits.
fn host_file(
    args: &InstallArgs,
    w: &Wiring,
    env: &Environment,
    project_dir: &Path,
    scope: Scope,
) -> anyhow::Result<PathBuf> {
    if args.local {
        if args.host != HostId::ClaudeCode {
            return Err(Usage(format!(
                "--local: only Claude Code has a local settings file ({} reads {})",
                args.host.display(),
                w.project_file
            ))
            .into());
        }
        return Ok(project_dir.join(LOCAL_FILE));
    }
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    w.files(project_dir, env.home.as_deref(), codex_home.as_deref())
        .into_iter()
        .find(|(s, _)| *s == scope)
        .map(|(_, p)| p)
        .context("no home folder ($HOME is not set): use --project")
}

/// The command the host's entries run: this binary by path, or the
/// project's pinned one.
fn entry_command(
    args: &InstallArgs,
    env: &Environment,
    project_dir: &Path,
    scope: Scope,
    out: &mut String,
) -> anyhow::Result<String> {
    let binary = binary(args)?;
    let may_pin = scope == Scope::Project && args.binary.is_none();
    let program = binpath::entry_program(
        &binary,
        args.host,
        args.pinned,
        may_pin,
        project_dir,
        env.home.as_deref(),
        |name| std::env::var_os(name),
        out,
    )
    .map_err(anyhow::Error::msg)?;
    Ok(match program {
        binpath::Program::Path(binary) => fire_command(&binary, args.host)?,
        binpath::Program::Pinned => format!(
            "{} fire --host {}",
            wiring::PINNED_PROGRAM,
            args.host.name()
        ),
    })
}

/// Claude Code's own file, kept out of git: `install claude-code --local`.
const LOCAL_FILE: &str = ".claude/settings.local.json";

enum Edited {
    /// What was written, if anything.
    Done(Option<Written>),
    /// The file changed between the read and the write: read it again.
    Changed,
}

/// One read-edit-write of the host file (compare-and-swap on the bytes).
fn edit(
    job: &Job<'_>,
    path: &Path,
    inside: Option<&Path>,
    out: &mut String,
) -> anyhow::Result<Edited> {
    let target = safewrite::open(path, inside).map_err(anyhow::Error::msg)?;
    let Some(before) = &target.before else {
        if !job.install {
            let _ = writeln!(
                out,
                "{} does not exist: nothing to remove, nothing written",
                path.display()
            );
            return Ok(Edited::Done(None));
        }
        return finish(job, &target, "{}\n", out);
    };
    let text = String::from_utf8(before.clone()).map_err(|_| {
        anyhow!(
            "{} is not UTF-8 text: hookrun does not rewrite it",
            path.display()
        )
    })?;
    if target.read_only() {
        bail!(
            "{} is read-only: hookrun does not rewrite it; make it writable (chmod u+w {}) and run again, or edit it by hand",
            path.display(),
            path.display()
        );
    }
    let base = if text.trim().is_empty() {
        "{}\n"
    } else {
        &text
    };
    finish(job, &target, base, out)
}

fn finish(
    job: &Job<'_>,
    target: &safewrite::Target,
    base: &str,
    out: &mut String,
) -> anyhow::Result<Edited> {
    let Job {
        install,
        dry_run,
        w,
        routes,
    } = *job;
    let path = &target.named;
    let mut doc = Doc::parse(base).map_err(|err| {
        anyhow!(
            "{} is not valid JSON ({err}); hookrun does not rewrite it: fix it or add the entries by hand",
            path.display()
        )
    })?;
    let outcome = if install {
        wiring::install(w, &mut doc, routes)
    } else {
        wiring::uninstall(w, &mut doc)
    }
    .with_context(|| path.display().to_string())?;
    if install {
        report_routes(w, routes, &outcome, out);
    } else {
        let removed = outcome.removed;
        let _ = writeln!(
            out,
            "{removed} hookrun entr{} removed",
            if removed == 1 { "y" } else { "ies" }
        );
    }
    for kept in &outcome.kept {
        let _ = writeln!(
            out,
            "note: kept your own hookrun entry at {} {} (`{}`): it is not the entry install writes (other flags, timeout or keys), so install and uninstall leave it as it is",
            path.display(),
            kept.json_path,
            kept.command
        );
    }
    for event in &outcome.skipped {
        let _ = writeln!(
            out,
            "note: {event} already runs hookrun through your own entry: no second entry added (hookrun would run twice); remove yours and run install again for install's"
        );
    }

    let old = String::from_utf8_lossy(target.before.as_deref().unwrap_or_default()).into_owned();
    let remove_file = !install
        && outcome.removed > 0
        && !target.is_symlink()
        && doc.text == wiring::created_and_emptied(w);
    let after = if remove_file { String::new() } else { doc.text };
    if after == old && target.before.is_some() {
        let _ = writeln!(
            out,
            "{}: already up to date, nothing written",
            path.display()
        );
        return Ok(Edited::Done(None));
    }
    if target.before.is_none() && outcome.routed.is_empty() {
        let _ = writeln!(out, "nothing to write");
        return Ok(Edited::Done(None));
    }
    if dry_run {
        let _ = writeln!(
            out,
            "would {} {} (dry run: nothing written):",
            if remove_file { "remove" } else { "write" },
            path.display()
        );
        out.push_str(&diff(&old, &after, path));
        return Ok(Edited::Done(None));
    }
    write(target, &after, remove_file, install, out)
}

/// Writes the edited text in place (or removes the file), install's backup
/// first.
fn write(
    target: &safewrite::Target,
    after: &str,
    remove_file: bool,
    install: bool,
    out: &mut String,
) -> anyhow::Result<Edited> {
    let path = &target.named;
    // Install keeps the file as it was; uninstall takes out only the
    // entries install wrote, byte for byte what it added, so it keeps none.
    let backup = match (&target.before, target.mode, install) {
        (Some(before), Some(mode), true) => {
            Some(safewrite::backup(path, before, mode).map_err(anyhow::Error::msg)?)
        }
        _ => None,
    };
    let written = safewrite::replace(target, (!remove_file).then_some(after.as_bytes()));
    match written {
        Ok(()) => {}
        Err(safewrite::WriteError::Changed) => {
            // Ours, just made, of content no longer there.
            if let Some(backup) = &backup {
                let _ = std::fs::remove_file(backup);
            }
            return Ok(Edited::Changed);
        }
        Err(safewrite::WriteError::Io(why)) => bail!(why),
    }
    if let Some(backup) = &backup {
        let _ = writeln!(out, "backup: {}", backup.display());
    }
    if remove_file {
        let _ = writeln!(out, "removed {} (nothing else was in it)", path.display());
    } else if target.is_symlink() {
        let _ = writeln!(
            out,
            "wrote {} (through the symlink {})",
            target.real.display(),
            path.display()
        );
    } else {
        let _ = writeln!(out, "wrote {}", path.display());
    }
    Ok(Edited::Done(Some(Written {
        created: target.before.is_none(),
        backup,
    })))
}

fn report_routes(w: &Wiring, routes: &[Route], outcome: &wiring::Outcome, out: &mut String) {
    let plain: Vec<&Route> = routes
        .iter()
        .filter(|r| {
            w.host_event(r.claude)
                .is_some_and(|e| outcome.routed.contains(&e))
        })
        .collect();
    if let Some(first) = plain.first() {
        let base = first
            .command
            .split(" --deadline ")
            .next()
            .unwrap_or(&first.command);
        let _ = writeln!(
            out,
            "{} events routed to `{base}`: {}",
            w.host.display(),
            outcome.routed.join(", ")
        );
    }
    for route in &plain {
        if let (Some(deadline), Some(timeout)) =
            (route.command.split(" --deadline ").nth(1), route.timeout)
        {
            let unit = if w.timeout_unit_ms == 1 { "ms" } else { "s" };
            let _ = writeln!(
                out,
                "{}: a hook there may run longer than {}'s default timeout, so the entry gets --deadline {deadline} and {} {timeout} {unit} (the longest hook, its kill grace and a margin)",
                w.host_event(route.claude).unwrap_or(route.claude),
                w.host.display(),
                w.timeout_key()
            );
        }
    }
    for event in &outcome.missing {
        let _ = writeln!(
            out,
            "warning: {} has no {event} event: hookrun's {event} hooks never fire under it",
            w.host.display()
        );
    }
}

/// Seconds of `--deadline` an event needs: its longest hook's timeout plus
/// the kill grace, when that is more than the host's default deadline
/// (`None`: the default covers every hook).
fn needed_deadline(settings: &Settings, w: &Wiring, claude: &str) -> Option<u64> {
    let longest = settings
        .hooks
        .iter()
        .filter(|h| h.event.name() == claude)
        .filter_map(|h| h.timeout)
        .max()?;
    let event = EventId::resolve(claude);
    if w.host == HostId::ClaudeCode && event.host_timeout() < event.default_hook_timeout() {
        // Claude Code's short fixed timeout (SessionEnd's 1.5 s) is not the
        // entry's to raise: `doctor` says the hook is cut instead.
        return None;
    }
    let needed = longest.as_secs_f64().ceil() + KILL_GRACE_SECS;
    let default = crate::host::host(w.host).default_deadline(&event);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a whole number of seconds, positive and at most 1e9"
    )]
    (needed > default.as_secs_f64()).then_some(needed.min(1e9) as u64)
}

/// hookrun's default `--kill-grace`: a hook's timeout, then this long for
/// SIGTERM to work before SIGKILL.
const KILL_GRACE_SECS: f64 = 2.0;

/// Where the host looks for its project file: the project hookrun would
/// use (`--project-dir`, `$CLAUDE_PROJECT_DIR`, the nearest folder with
/// `.hookrun/`), else the root of the git repository the current folder
/// is in — hosts start at the root and read their config there.
pub(super) fn project_root(env: &Environment, host: HostId, out: &mut String) -> PathBuf {
    let found = common::project_dir(env, Some(&env.current_dir));
    let named = env.hookrun_project_dir.is_some() || env.claude_project_dir.is_some();
    // The host's own name for its project folder (set in its hooks' and
    // tools' environment), when hookrun's and Claude Code's are not.
    let own = crate::host::host(host).facts().project_dir_var;
    if let (false, Some(var)) = (named, own) {
        if let Some(dir) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            let _ = writeln!(
                out,
                "note: the project is {} (${var})",
                PathBuf::from(&dir).display()
            );
            return env.absolute(Path::new(&dir));
        }
    }
    if named || found != env.current_dir {
        if !named {
            let _ = writeln!(
                out,
                "note: the project is {} (the nearest folder with .hookrun/ above {}): {}'s project file goes there",
                found.display(),
                env.current_dir.display(),
                host.display()
            );
        }
        return found;
    }
    let git = env
        .current_dir
        .ancestors()
        .find(|d| d.join(".git").exists());
    match git {
        Some(root) if root != env.current_dir => {
            let _ = writeln!(
                out,
                "note: writing at the root of the git repository, {} (not in the subfolder {}): {} starts there and reads its project file there (--project-dir chooses another folder)",
                root.display(),
                env.current_dir.display(),
                host.display()
            );
            root.to_path_buf()
        }
        _ => found,
    }
}

/// A project whose hookrun settings are not trusted: nothing fires yet.
fn untrusted_note(settings: &Settings, out: &mut String) {
    for file in &settings.files {
        let hooks = settings
            .hooks
            .iter()
            .filter(|h| std::ptr::eq(settings.file_of(h), file))
            .count();
        if file.source.trust_required && !file.trust.is_trusted() && hooks > 0 {
            let _ = writeln!(
                out,
                "warning: {} is not trusted yet: its hooks do not run, so nothing fires until you review it and run `hookrun trust`",
                file.path().display()
            );
        }
    }
}

/// Where install wrote, and what the entries run.
struct Place<'a> {
    path: &'a Path,
    project_dir: &'a Path,
    scope: Scope,
    /// The entries run the project's npm devDependency (`--pinned`).
    pinned: bool,
}

/// Which file is shared with the project's other users and which is not.
fn shared_or_local(args: &InstallArgs, w: &Wiring, place: &Place<'_>, out: &mut String) {
    let Place {
        path,
        project_dir,
        scope,
        pinned,
    } = *place;
    if scope == Scope::User {
        return;
    }
    if args.local {
        let _ = writeln!(
            out,
            "{} is local: your own, on this machine (Claude Code reads it with the shared {}); do not commit it",
            path.display(),
            w.project_file
        );
        let ignored = std::process::Command::new("git")
            .arg("-C")
            .arg(project_dir)
            .args(["check-ignore", "-q", "--"])
            .arg(path)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .ok()
            .and_then(|s| s.code());
        if ignored == Some(1) {
            let _ = writeln!(
                out,
                "warning: git does not ignore {LOCAL_FILE}: add it to .gitignore, or it is committed with this machine's path"
            );
        }
        return;
    }
    let local = if w.host == HostId::ClaudeCode {
        format!(
            " Use `hookrun install claude-code --local` for {LOCAL_FILE}, your own file, instead."
        )
    } else {
        String::new()
    };
    if pinned {
        let _ = writeln!(
            out,
            "note: {} is shared: committed with the project, its entries run the project's npm devDependency through $CLAUDE_PROJECT_DIR, so they work on every teammate's machine once `npm install` has run there (`hookrun doctor` says when it has not)",
            path.display()
        );
        return;
    }
    let _ = writeln!(
        out,
        "note: {} is shared: committed with the project, its entries name this machine's hookrun by absolute path; a teammate whose hookrun is elsewhere gets exit 127 and no guard.{local}",
        path.display()
    );
}

/// This binary by absolute path, or `--binary` made absolute.
/// The command a host entry runs: `BINARY fire --host HOST` (also what
/// `hookrun init` prints).
pub fn fire_command(binary: &Path, host: HostId) -> anyhow::Result<String> {
    crate::host::launch::fire_command(binary, host, crate::host::launch::System::current())
        .map_err(|why| anyhow!(why))
}

fn binary(args: &InstallArgs) -> anyhow::Result<PathBuf> {
    let path = match &args.binary {
        Some(path) => {
            std::path::absolute(path).with_context(|| format!("--binary {}", path.display()))?
        }
        None => std::env::current_exe()
            .and_then(std::fs::canonicalize)
            .map(crate::platform::plain_path)
            .map_err(|err| {
                anyhow!("cannot find this hookrun binary's path: {err}; pass --binary")
            })?,
    };
    Ok(path)
}

/// The Claude Code events hookrun's settings have hooks for, in catalog
/// order of first appearance.
fn events_to_route(settings: &Settings, host: HostId, out: &mut String) -> Vec<&'static str> {
    let w = wiring::wiring(host);
    let mut events: Vec<&'static str> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for hook in &settings.hooks {
        let name = hook.event.name();
        // Host-only events (Gemini's BeforeModel…) are routed by their name.
        let known = w
            .events
            .iter()
            .map(|(c, _)| *c)
            .find(|c| *c == name)
            .or_else(|| crate::catalog::lookup(name).map(|s| s.name));
        match known {
            Some(event) if !events.contains(&event) => events.push(event),
            None if !unknown.iter().any(|u| u == name) => unknown.push(name.to_owned()),
            _ => {}
        }
    }
    for name in unknown {
        let _ = writeln!(
            out,
            "warning: `{name}` is not an event hookrun knows: not routed"
        );
    }
    // Permission rules are applied when the host asks hookrun about a tool
    // call: PreToolUse must reach it even with no hook there.
    let pre = crate::catalog::KnownEvent::PreToolUse.name();
    let rules = settings.files.iter().any(|f| {
        f.state == crate::settings::model::FileState::Loaded
            && !f.source.claude_mode
            && !f.permissions.is_empty()
    });
    if rules && !events.is_empty() && !events.contains(&pre) {
        events.insert(0, pre);
    }
    if events.is_empty() {
        let _ = writeln!(
            out,
            "note: your hookrun settings have no hooks yet: routing {} (run install again after adding hooks on other events)",
            DEFAULT_EVENTS.join(", ")
        );
        events.extend_from_slice(DEFAULT_EVENTS);
    }
    // Events routed with another (a PreToolUse context that rides on the
    // same call's PostToolUse answer).
    for (routed, with) in w.routes_with {
        if events.contains(routed) && !events.contains(with) && w.host_event(with).is_some() {
            let _ = writeln!(
                out,
                "note: routing {with} too: {} shows a {routed} context only with the call's {with} answer",
                w.host.display()
            );
            events.push(with);
        }
    }
    // Events the policy's rules act on, even with no hook listed there.
    for (event, why) in crate::diagnose::host::routed_for_policy(settings) {
        if w.host_event(event).is_some() && !events.contains(&event) {
            let _ = writeln!(out, "note: routing {event}: {why}");
            events.push(event);
        }
    }
    events
}

/// Claude Code watches only the files its FileChanged entry's matcher
/// names: the names hookrun's FileChanged hooks match.
fn watched_files(
    settings: &Settings,
    host: HostId,
    out: &mut String,
) -> Vec<(&'static str, String)> {
    if host != HostId::ClaudeCode {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    for hook in settings
        .hooks
        .iter()
        .filter(|h| h.event.known() == Some(crate::catalog::KnownEvent::FileChanged))
    {
        let matcher = hook.matcher.as_deref().unwrap_or_default();
        let plain = matcher
            .chars()
            .all(|c| c.is_alphanumeric() || "._-| ".contains(c));
        if matcher.trim().is_empty() || matcher == "*" || !plain {
            let _ = writeln!(
                out,
                "warning: a FileChanged hook matches {matcher:?}, not file names: Claude Code watches only the files the entry names; add them to its matcher by hand"
            );
            continue;
        }
        for name in matcher.split('|').map(str::trim).filter(|n| !n.is_empty()) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    if names.is_empty() {
        Vec::new()
    } else {
        vec![("FileChanged", names.join("|"))]
    }
}

/// What the host needs besides the file (the host's own note).
fn next_steps(w: &Wiring, path: &Path) -> String {
    crate::host::host(w.host)
        .install_note(path)
        .unwrap_or_default()
}

/// A unified diff of two texts (whole-file hunk), for `--dry-run`.
pub fn diff(old: &str, new: &str, path: &Path) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Longest common subsequence table, from the end.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = format!(
        "--- {0}\n+++ {0}\n@@ -1,{1} +1,{2} @@\n",
        path.display(),
        a.len(),
        b.len()
    );
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            let _ = writeln!(out, " {}", a[i]);
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "-{}", a[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+{}", b[j]);
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_marks_added_and_removed_lines() {
        let d = diff("a\nb\nc\n", "a\nx\nc\nd\n", Path::new("f"));
        assert_eq!(d, "--- f\n+++ f\n@@ -1,3 +1,4 @@\n a\n-b\n+x\n c\n+d\n");
    }
}

//! Checks that look past hookrun's own files at the host's: files both load
//! (hooks run twice), the host's `FileChanged` entry (without file names
//! in its matcher the host watches nothing, so hookrun's hook never fires),
//! and how every host config found calls hookrun (events not routed, a
//! `hookrun` the host cannot start, the wrong `--host`, timeouts).

use std::path::{Path, PathBuf};

use crate::catalog::{EventId, KnownEvent};
use crate::host::HostId;
use crate::host::wiring::{self, Scope, Wiring};
use crate::jsonedit::Doc;
use crate::select::matcher::Matcher;
use crate::settings::load::load_bytes;
use crate::settings::model::FileState;
use crate::settings::{HookDef, Settings, Severity, Source, SourceKind};

use super::probe::FileKind;
use super::{Check, Context, Finding};

/// The settings files Claude Code reads by itself (user, project, local,
/// managed on Linux and macOS).
pub fn claude_code_files(project_dir: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut files = vec![
        project_dir.join(".claude").join("settings.json"),
        project_dir.join(".claude").join("settings.local.json"),
    ];
    if let Some(home) = home {
        files.push(home.join(".claude").join("settings.json"));
    }
    files.push(PathBuf::from("/etc/claude-code/managed-settings.json"));
    files.push(PathBuf::from(
        "/Library/Application Support/ClaudeCode/managed-settings.json",
    ));
    files
}

/// A file hookrun loads that the host loads too: its hooks run twice.
pub fn check_loaded_by_host(settings: &Settings, cx: &Context<'_>, out: &mut Vec<Finding>) {
    let host: Vec<PathBuf> = claude_code_files(cx.project_dir, cx.home)
        .iter()
        .map(|p| cx.probe.canonical(p))
        .collect();
    for (index, file) in settings.files.iter().enumerate() {
        if file.state != FileState::Loaded {
            continue;
        }
        let count = settings.hooks.iter().filter(|h| h.file == index).count();
        if count == 0 || !host.contains(&cx.probe.canonical(file.path())) {
            continue;
        }
        out.push(Finding {
            check: Check::HostLoadsFile,
            severity: Severity::Warning,
            file: file.path().to_path_buf(),
            json_path: "hooks".into(),
            message: format!(
                "Claude Code loads this file itself, and hookrun loads it too: its {count} hook{} run twice",
                if count == 1 { "" } else { "s" }
            ),
            fix: "move the hooks to .hookrun/settings.json and leave only `hookrun fire` entries here, or stop passing this file to hookrun".into(),
        });
    }
}

/// A host `FileChanged` entry that runs hookrun.
struct HostEntry {
    file: PathBuf,
    /// The names its matcher lists (empty: none, the host watches nothing).
    names: Vec<String>,
}

fn host_file_changed_entries(cx: &Context<'_>) -> Vec<HostEntry> {
    let mut entries = Vec::new();
    for path in claude_code_files(cx.project_dir, cx.home) {
        let Some(bytes) = cx.probe.read(&path) else {
            continue;
        };
        let mut scratch = Settings::default();
        let source = Source {
            path: path.clone(),
            kind: SourceKind::Cli,
            claude_mode: true,
            trust_required: false,
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        load_bytes(&mut scratch, source, dir, &bytes);
        for hook in &scratch.hooks {
            let runs_hookrun = hook
                .action
                .command_text()
                .is_some_and(|(c, _)| c.contains("hookrun"));
            if hook.event == EventId::Known(KnownEvent::FileChanged) && runs_hookrun {
                entries.push(HostEntry {
                    file: path.clone(),
                    names: file_names(hook.matcher.as_deref().unwrap_or_default())
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                });
            }
        }
    }
    entries
}

/// `FileChanged` hooks: the host must watch the files (SPEC §10).
pub fn check_file_changed(settings: &Settings, cx: &Context<'_>, out: &mut Vec<Finding>) {
    let hooks: Vec<&HookDef> = settings
        .hooks
        .iter()
        .filter(|h| h.event == EventId::Known(KnownEvent::FileChanged))
        .collect();
    if hooks.is_empty() {
        return;
    }
    let entries = host_file_changed_entries(cx);
    let watched: Vec<&str> = entries
        .iter()
        .flat_map(|e| e.names.iter().map(String::as_str))
        .collect();
    for hook in hooks {
        let written = hook.matcher.as_deref().unwrap_or_default();
        let matcher = Matcher::compile(hook.matcher.as_deref(), true);
        let example = match written {
            "" | "*" => ".envrc|package.json",
            _ => written,
        };
        let fix = format!(
            "in .claude/settings.json: \"FileChanged\": [{{\"matcher\": \"{example}\", \"hooks\": [{{\"type\": \"command\", \"command\": \"hookrun fire\"}}]}}]"
        );
        let file = settings.file_of(hook).path().to_path_buf();
        let json_path = super::matcher_path(hook);
        let message = if entries.is_empty() {
            Some(
                "Claude Code watches only the files named in the matcher of its own FileChanged entry, and none of its settings files has a FileChanged entry running hookrun: this hook never fires"
                    .to_owned(),
            )
        } else if watched.is_empty() {
            Some(format!(
                "the FileChanged entry in {} names no files in its matcher, so Claude Code watches nothing: this hook never fires",
                entries[0].file.display()
            ))
        } else {
            let missing: Vec<&str> = if matches!(matcher, Matcher::All | Matcher::Invalid(_)) {
                Vec::new()
            } else if written
                .chars()
                .all(|c| c.is_alphanumeric() || "._-| ".contains(c))
            {
                // Plain file names (`.envrc|.env`): each must be watched.
                file_names(written)
                    .into_iter()
                    .filter(|n| !watched.contains(n))
                    .collect()
            } else if watched.iter().any(|w| matcher.matches(w)) {
                Vec::new()
            } else {
                vec![written]
            };
            (!missing.is_empty()).then(|| {
                format!(
                    "Claude Code watches only {} (the matcher of its FileChanged entry), not {}: changes to {} never reach hookrun",
                    quote_all(&watched),
                    quote_all(&missing),
                    if missing.len() == 1 { "it" } else { "them" }
                )
            })
        };
        if let Some(message) = message {
            out.push(Finding {
                check: Check::FileChangedHost,
                severity: Severity::Error,
                file,
                json_path,
                message,
                fix: fix.clone(),
            });
        }
    }
}

/// The file names a `FileChanged` matcher lists, as the host reads it.
fn file_names(matcher: &str) -> Vec<&str> {
    matcher
        .split('|')
        .map(str::trim)
        .filter(|n| !n.is_empty() && *n != "*")
        .collect()
}

fn quote_all(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a host entry running hookrun does when its `hookrun` is not found
/// (the shell exits 127).
fn on_127(host: HostId) -> &'static str {
    crate::host::host(host).facts().on_127
}

/// One host file that exists, parsed.
struct HostFile {
    path: PathBuf,
    scope: Scope,
    entries: Vec<wiring::Entry>,
}

/// The host files that exist and parse; a file that does not parse is a
/// finding (and counted: `.1`).
fn host_files(w: &Wiring, cx: &Context<'_>, out: &mut Vec<Finding>) -> (Vec<HostFile>, usize) {
    let mut files = Vec::new();
    let mut unreadable = 0;
    let mut paths: Vec<(Scope, PathBuf)> = w.files(cx.project_dir, cx.home, cx.codex_home);
    if w.host == HostId::ClaudeCode {
        // `hookrun install claude-code --local` writes here.
        paths.insert(
            1,
            (
                Scope::Project,
                cx.project_dir.join(".claude").join("settings.local.json"),
            ),
        );
    }
    for (scope, path) in paths {
        if w.shape == wiring::Shape::Files {
            let entries = crate::host::cline::entries_in(&path, |p| cx.probe.read(p));
            if !entries.is_empty() {
                files.push(HostFile {
                    path,
                    scope,
                    entries,
                });
            }
            continue;
        }
        let Some(bytes) = cx.probe.read(&path) else {
            continue;
        };
        let parsed = std::str::from_utf8(&bytes)
            .map_err(|e| e.to_string())
            .and_then(|text| Doc::parse(text).map_err(|e| e.to_string()));
        match parsed {
            Ok(doc) => files.push(HostFile {
                entries: wiring::entries(w, &doc.value),
                path,
                scope,
            }),
            Err(err) => {
                unreadable += 1;
                out.push(unreadable_host_file(w, path, &bytes, &err));
            }
        }
    }
    (files, unreadable)
}

/// A host file that is not JSON. Claude Code reads its settings files as
/// strict JSON and ignores a file that is not, whole: every hook in it is
/// off, hookrun's entries included (an error when it holds them). Other
/// hosts' readers differ (comments): hookrun only cannot check it.
fn unreadable_host_file(w: &Wiring, path: PathBuf, bytes: &[u8], err: &str) -> Finding {
    let mentions_hookrun = bytes.windows(7).any(|window| window == b"hookrun");
    if w.host == HostId::ClaudeCode {
        let (severity, effect) = if mentions_hookrun {
            (
                Severity::Error,
                "none of its hooks run, hookrun's entries included: every guard they route is off",
            )
        } else {
            (
                Severity::Warning,
                "none of its hooks and permission rules apply",
            )
        };
        return Finding {
            check: Check::HostConfigUnreadable,
            severity,
            file: path,
            json_path: String::new(),
            message: format!(
                "is not valid JSON ({err}): Claude Code ignores the whole file, so {effect}"
            ),
            fix: "fix the syntax at the line and column given (Claude Code's settings are strict JSON: no comments, no trailing commas)".into(),
        };
    }
    Finding {
        check: Check::HostConfigUnreadable,
        severity: Severity::Note,
        file: path,
        json_path: String::new(),
        message: format!(
            "{}'s file is not JSON ({err}): hookrun cannot check how it calls hookrun",
            w.host.display()
        ),
        fix: "nothing to do if the host accepts it (comments); check the entries by hand".into(),
    }
}

/// The `hookrun install` command that rewrites the entries of `path`: with
/// `--local` for Claude Code's local file, `--user` for the user's file, so
/// a fix never writes another file than the one the entries are in.
fn install_command(w: &Wiring, path: &Path, scope: Scope) -> String {
    let flag = if w.host == HostId::ClaudeCode && path.ends_with(".claude/settings.local.json") {
        " --local"
    } else if scope == Scope::User {
        " --user"
    } else {
        ""
    };
    format!("hookrun install {}{flag}", w.host.name())
}

/// The host whose own name for another event `event` is, and that event
/// (`AfterAgent`: Gemini CLI's `Stop`).
fn host_alias(event: &str) -> Option<(HostId, &'static str)> {
    crate::host::HOSTS.iter().find_map(|h| {
        crate::host::mapping::event_row(h.events(), event)
            .filter(|row| row.claude != event)
            .map(|row| (h.id(), row.claude))
    })
}

/// Hooks listed under a host's own name for another event (Gemini's
/// `BeforeTool`, `AfterAgent`): `fire --host` translates the host's event
/// into hookrun's name first, so under that host they never run.
pub fn check_host_event_names(settings: &Settings, out: &mut Vec<Finding>) {
    for (event, hook) in hooked_events(settings) {
        let Some((host, meant)) = host_alias(event) else {
            continue;
        };
        out.push(Finding {
            check: Check::HostEventName,
            severity: Severity::Error,
            file: settings.file_of(hook).path().to_path_buf(),
            json_path: format!("hooks.{event}"),
            message: format!(
                "`{event}` is {}'s name for `{meant}`: hookrun's settings use Claude Code's event names, and `hookrun fire --host {}` fires {}'s {event} as `{meant}`, so hooks under `{event}` never run under it",
                host.display(),
                host.name(),
                host.display()
            ),
            fix: format!("rename the key to `{meant}`"),
        });
    }
}

/// The events hookrun has hooks for, with the first hook of each (where a
/// finding about the event points).
fn hooked_events(settings: &Settings) -> Vec<(&str, &HookDef)> {
    let mut events: Vec<(&str, &HookDef)> = Vec::new();
    for hook in &settings.hooks {
        let name = hook.event.name();
        if !events.iter().any(|(e, _)| *e == name) {
            events.push((name, hook));
        }
    }
    events
}

/// The wiring of every host config that runs hookrun (SPEC §10): events
/// with hooks but no host entry, a `hookrun` the host cannot start, an
/// entry that does not name its host, host timeouts hookrun's deadline
/// overshoots (or Gemini timeouts written in seconds), and hooks the host
/// also runs natively.
pub fn check_host_wiring(settings: &Settings, cx: &Context<'_>, out: &mut Vec<Finding>) {
    let hooked = needed_events(settings);
    let hook_commands: Vec<&str> = settings
        .hooks
        .iter()
        .filter_map(|h| h.action.command_text().map(|(c, _)| c))
        .map(str::trim)
        .collect();
    // hookrun's own files: a host file among them is `host-loads-file`'s.
    let loaded: Vec<PathBuf> = settings
        .files
        .iter()
        .filter(|f| f.state == FileState::Loaded)
        .map(|f| cx.probe.canonical(f.path()))
        .collect();
    let mut wired: Vec<(HostId, PathBuf)> = Vec::new();
    let mut unrouted: Vec<(&Wiring, Vec<HostFile>)> = Vec::new();
    for w in wiring::all() {
        let (files, unreadable) = host_files(w, cx, out);
        for file in &files {
            let commands: &[&str] = if loaded.contains(&cx.probe.canonical(&file.path)) {
                &[]
            } else {
                &hook_commands
            };
            check_entries(w, file, commands, cx, out);
            check_hook_fits(w, file, settings, out);
        }
        let ours: Vec<(&HostFile, &wiring::Entry)> = files
            .iter()
            .flat_map(|f| f.entries.iter().map(move |e| (f, e)))
            .filter(|(_, e)| wiring::runs_hookrun(&e.command))
            .collect();
        let Some((first, _)) = ours.first() else {
            // A file the host cannot read is said already.
            if unreadable == 0 {
                unrouted.push((w, files));
            }
            continue;
        };
        wired.push((w.host, first.path.clone()));
        check_routed(w, &ours, &hooked, settings, out);
    }
    let unrouted_cx = Unrouted {
        loaded: &loaded,
        needed: &hooked,
        any_routed: !wired.is_empty(),
    };
    for (w, files) in unrouted {
        not_routed(w, &files, &unrouted_cx, cx, out);
    }
    check_read_twice(&wired, out);
}

/// An event hookrun must be called for, and why: hooks on it, or, for
/// PreToolUse, the permission rules (hookrun applies them when the host
/// asks it about a tool call).
struct Needed {
    event: String,
    /// Where a finding about it points.
    file: PathBuf,
    json_path: String,
    /// `2 hooks`, `3 permission rules`, `1 hook and 2 permission rules`.
    what: String,
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The events with hooks, in order of first appearance, and PreToolUse
/// when hookrun's own files hold permission rules.
fn needed_events(settings: &Settings) -> Vec<Needed> {
    let mut needed: Vec<Needed> = hooked_events(settings)
        .into_iter()
        .map(|(event, hook)| Needed {
            event: event.to_owned(),
            file: settings.file_of(hook).path().to_path_buf(),
            json_path: format!("hooks.{event}"),
            what: plural(
                settings
                    .hooks
                    .iter()
                    .filter(|h| h.event.name() == event)
                    .count(),
                "hook",
            ),
        })
        .collect();
    let with_rules: Vec<_> = settings
        .files
        .iter()
        .filter(|f| {
            f.state == FileState::Loaded && !f.source.claude_mode && !f.permissions.is_empty()
        })
        .collect();
    let rules: usize = with_rules
        .iter()
        .map(|f| f.permissions.deny.len() + f.permissions.ask.len() + f.permissions.allow.len())
        .sum();
    if let Some(first) = with_rules.first() {
        let pre = KnownEvent::PreToolUse.name();
        if let Some(row) = needed.iter_mut().find(|n| n.event == pre) {
            row.what = format!("{} and {}", row.what, plural(rules, "permission rule"));
        } else {
            needed.push(Needed {
                event: pre.to_owned(),
                file: first.path().to_path_buf(),
                json_path: "permissions".into(),
                what: plural(rules, "permission rule"),
            });
        }
    }
    needed
}

/// Every event with hooks must have an entry of this host running hookrun
/// (`ours`: the host's entries that do).
fn check_routed(
    w: &Wiring,
    ours: &[(&HostFile, &wiring::Entry)],
    hooked: &[Needed],
    settings: &Settings,
    out: &mut Vec<Finding>,
) {
    for needed in hooked {
        let event = needed.event.as_str();
        let hooks = &needed.what;
        let file = needed.file.clone();
        let json_path = needed.json_path.clone();
        let one = hooks.starts_with("1 ") && !hooks.contains(" and ");
        match w.host_event(event) {
            // Said by `host-event-name`: the host has the event, under
            // hookrun's name.
            None if host_alias(event).is_some() => {}
            None => out.push(Finding {
                check: Check::HostEventMissing,
                severity: Severity::Note,
                file,
                json_path,
                message: format!(
                    "{} has no {event} event, so it never calls hookrun for it ({hooks} there)",
                    w.host.display()
                ),
                fix: "nothing to do if they are meant for another host".into(),
            }),
            Some(host_event) if !ours.iter().any(|(_, e)| e.host_event == host_event) => {
                let names = ours
                    .iter()
                    .map(|(f, _)| f.path.display().to_string())
                    .fold(Vec::<String>::new(), |mut v, p| {
                        if !v.contains(&p) {
                            v.push(p);
                        }
                        v
                    })
                    .join(", ");
                let they = match (one, json_path == "permissions") {
                    (true, true) => "it never applies",
                    (false, true) => "they never apply",
                    (true, false) => "it never fires",
                    (false, false) => "they never fire",
                };
                out.push(Finding {
                    check: Check::HostEventNotRouted,
                    severity: Severity::Error,
                    file,
                    json_path,
                    message: format!(
                        "{hooks} on {event}, but no {} entry runs hookrun for {host_event} (the hookrun entries in {names} are for other events): {} never calls hookrun for it, so {they}",
                        w.host.display(),
                        w.host.display()
                    ),
                    fix: format!(
                        "run `{}` (adds an entry for every event with hooks), or add a `hookrun fire` entry under {host_event}",
                        ours.first().map_or_else(
                            || format!("hookrun install {}", w.host.name()),
                            |(f, _)| install_command(w, &f.path, f.scope)
                        )
                    ),
                });
            }
            Some(_) => {}
        }
    }
    for (event, why) in routed_for_policy(settings) {
        let Some(host_event) = w.host_event(event) else {
            continue;
        };
        if hooked.iter().any(|needed| needed.event == event)
            || ours.iter().any(|(_, e)| e.host_event == host_event)
        {
            continue;
        }
        let Some((file, _)) = ours.first() else {
            continue;
        };
        out.push(Finding {
            check: Check::HostEventNotRouted,
            severity: Severity::Error,
            file: file.path.clone(),
            json_path: format!("hooks.{host_event}"),
            message: format!(
                "no {} entry runs hookrun for {host_event}, but {why}: {} runs them unjudged",
                w.host.display(),
                w.host.display()
            ),
            fix: format!(
                "run `hookrun install {}` again (it routes {host_event} too), or add a `hookrun fire` entry under {host_event}",
                w.host.name()
            ),
        });
    }
}

/// A host that reads another host's file calls hookrun twice.
fn check_read_twice(wired: &[(HostId, PathBuf)], out: &mut Vec<Finding>) {
    for (host, path) in wired {
        for w in wiring::all() {
            if w.host == *host || !w.also_read_by.contains(host) {
                continue;
            }
            if let Some((_, other)) = wired.iter().find(|(h, _)| *h == w.host) {
                out.push(Finding {
                    check: Check::HostRunsTwice,
                    severity: Severity::Warning,
                    file: path.clone(),
                    json_path: "hooks".into(),
                    message: format!(
                        "{} also reads {}'s {}, which runs hookrun too: under {} every event reaches hookrun twice, and its hooks run twice",
                        host.display(),
                        w.host.display(),
                        other.display(),
                        host.display()
                    ),
                    fix: format!(
                        "keep hookrun's entries in one of the two files (`hookrun uninstall {}` removes them here)",
                        host.name()
                    ),
                });
            }
        }
    }
}

/// Where the findings about one host file's entries go.
struct EntryFindings<'a> {
    file: &'a HostFile,
    out: &'a mut Vec<Finding>,
}

impl EntryFindings<'_> {
    /// The install command that rewrites this file's entries.
    fn install(&self, w: &Wiring) -> String {
        install_command(w, &self.file.path, self.file.scope)
    }

    fn push(
        &mut self,
        check: Check,
        severity: Severity,
        e: &wiring::Entry,
        message: String,
        fix: String,
    ) {
        self.out.push(Finding {
            check,
            severity,
            file: self.file.path.clone(),
            json_path: e.json_path.clone(),
            message,
            fix,
        });
    }
}

/// Every entry of one host file: its timeout's unit, its event's name, and
/// for an entry running hookrun its `--host`, its program and its timeout
/// against hookrun's deadline.
fn check_entries(
    w: &Wiring,
    file: &HostFile,
    hook_commands: &[&str],
    cx: &Context<'_>,
    out: &mut Vec<Finding>,
) {
    let mut found = EntryFindings { file, out };
    let found = &mut found;
    let mut programs_seen: Vec<String> = Vec::new();
    for e in &file.entries {
        let other_unit = check_timeout_unit(w, e, found);
        check_foreign_event(w, e, found);
        if !wiring::runs_hookrun(&e.command) {
            if hook_commands.contains(&e.command.trim()) {
                found.push(
                    Check::HostRunsTwice,
                    Severity::Warning,
                    e,
                    format!(
                        "{} runs `{}` itself, and hookrun's settings run the same command: it runs twice",
                        w.host.display(),
                        e.command
                    ),
                    "keep it in one place: hookrun's settings (remove it here) or the host's"
                        .into(),
                );
            }
            continue;
        }
        check_host_flag(w, e, found);
        if let Some(program) = wiring::program(&e.command) {
            check_program(w, &program, cx, e, found);
            if !programs_seen.contains(&program) {
                other_on_path(w, &program, cx, e, found);
                programs_seen.push(program);
            }
        }
        if other_unit || e.command.contains("--deadline") {
            continue;
        }
        check_timeout_short(w, e, found);
    }
}

/// A timeout the host reads in another unit than it was meant in (Gemini
/// CLI's milliseconds written as seconds; Qwen Code's milliseconds above
/// its maximum): true when there was one.
fn check_timeout_unit(w: &Wiring, e: &wiring::Entry, found: &mut EntryFindings<'_>) -> bool {
    let gemini_seconds = w.host == HostId::Gemini && e.timeout.is_some_and(|t| t < 1000.0);
    if let (true, Some(t)) = (gemini_seconds, e.timeout) {
        found.push(
            Check::GeminiTimeoutSeconds,
            Severity::Error,
            e,
            format!(
                "timeout {t} is {t} milliseconds to Gemini CLI (its unit is ms, not seconds): the hook is killed before it can answer, and the call it guards goes ahead"
            ),
            format!("write {} for {t} s", t * 1000.0),
        );
    }
    // A host that reads large values in another unit (Qwen Code: 1000
    // and more are milliseconds).
    let max = crate::host::host(w.host).max_timeout();
    #[expect(
        clippy::cast_precision_loss,
        reason = "a timeout in a host's unit is far below 2^52"
    )]
    let past_max = match (max, e.timeout) {
        (Some(max), Some(t)) if t > max as f64 => Some((max, t)),
        _ => None,
    };
    if let Some((max, t)) = past_max {
        found.push(
            Check::HostTimeoutMilliseconds,
            Severity::Error,
            e,
            format!(
                "timeout {t} is {t} milliseconds to {} (it reads values above {max} as milliseconds, not seconds): meant as seconds, the hook is killed after {} s, and the call it guards goes ahead",
                w.host.display(),
                t / 1000.0
            ),
            format!(
                "write at most {max} (seconds), or {} for {t} ms",
                t / 1000.0
            ),
        );
    }
    gemini_seconds || past_max.is_some()
}

fn check_foreign_event(w: &Wiring, e: &wiring::Entry, found: &mut EntryFindings<'_>) {
    // An entry under another host's name for an event: this host has
    // no such event and never runs it.
    if let Some((other, meant)) = host_alias(&e.host_event).filter(|(h, _)| *h != w.host) {
        if w.claude_event(&e.host_event).is_none()
            && crate::host::mapping::event_row(crate::host::host(w.host).events(), &e.host_event)
                .is_none()
        {
            let ours = w.host_event(meant).unwrap_or(meant);
            let install = found.install(w);
            found.push(
                Check::HostEventForeign,
                Severity::Error,
                e,
                format!(
                    "`{}` is {}'s name for `{meant}`; {} has no `{}` event and drops the entry without a word: it never runs",
                    e.host_event,
                    other.display(),
                    w.host.display(),
                    e.host_event
                ),
                format!(
                    "move it under `{ours}` (`{install}` writes {}'s own names)",
                    w.host.display()
                ),
            );
        }
    }
}

/// An entry running hookrun must name its host's protocol.
fn check_host_flag(w: &Wiring, e: &wiring::Entry, found: &mut EntryFindings<'_>) {
    let named = wiring::named_host(&e.command);
    let named_ok = match &named {
        None => w.host == HostId::ClaudeCode,
        Some(name) => name == w.host.name() || (w.host == HostId::ClaudeCode && name == "claude"),
    };
    if !named_ok {
        let says = named.map_or_else(
            || "no --host (Claude Code's protocol)".to_owned(),
            |n| format!("--host {n}"),
        );
        let install = found.install(w);
        found.push(
            Check::HostMismatch,
            Severity::Error,
            e,
            format!(
                "this {} entry runs hookrun with {says}: hookrun reads the event and answers in another host's protocol, which {} misreads (a block may not block)",
                w.host.display(),
                w.host.display()
            ),
            format!(
                "write `hookrun fire --host {}` (or run `{install}`)",
                w.host.name()
            ),
        );
    }
}

/// The hookrun an entry runs must exist, be executable, be native and stay.
fn check_program(
    w: &Wiring,
    program: &str,
    cx: &Context<'_>,
    e: &wiring::Entry,
    found: &mut EntryFindings<'_>,
) {
    let consequence = on_127(w.host);
    let install = found.install(w);
    let program = expand_program(program, cx);
    ephemeral(&program, w.host, cx, found, e);
    if program.contains('/') {
        match cx.probe.file(Path::new(&program)) {
            FileKind::Missing | FileKind::Directory => found.push(
                Check::HostHookrunMissing,
                Severity::Error,
                e,
                format!(
                    "runs {program}, which does not exist: the shell exits 127, and {consequence}"
                ),
                if program.contains("/node_modules/") {
                    "the entry runs the project's npm devDependency: run `npm install` in the project (or `npm i -D hookrun` if it is not in package.json)".to_owned()
                } else {
                    format!("fix the path, or run `{install}` to write this binary's path")
                },
            ),
            FileKind::File { executable: false } => found.push(
                Check::HostHookrunMissing,
                Severity::Error,
                e,
                format!(
                    "runs {program}, which is not executable: the shell exits 126, and {}",
                    consequence.replace("127", "126")
                ),
                format!("chmod +x {program}"),
            ),
            FileKind::File { executable: true } => {
                if crate::binpath::is_npm_launcher(&cx.probe.canonical(Path::new(&program))) {
                    found.push(
                        Check::HostHookrunLauncher,
                        Severity::Warning,
                        e,
                        crate::binpath::launcher_problem(Path::new(&program)),
                        format!("run `{install}` (it writes the native path)"),
                    );
                }
            }
        }
    } else if !cx.probe.on_path(&program) {
        found.push(
            Check::HostHookrunNotOnPath,
            Severity::Error,
            e,
            format!(
                "runs `{program}`, which is not on PATH here (and {} runs hooks with its own PATH): the shell exits 127, and {consequence}",
                w.host.display()
            ),
            format!("write hookrun's absolute path (`{install}` does)"),
        );
    }
}

/// The `hookrun` a shell finds is not the one the entry runs: what you
/// type (`doctor`, `install`, `trust`) may be another version than what the
/// host runs. npm's launcher on PATH counts as the native hookrun of its
/// own package.
fn other_on_path(
    w: &Wiring,
    program: &str,
    cx: &Context<'_>,
    e: &wiring::Entry,
    found: &mut EntryFindings<'_>,
) {
    let program = expand_program(program, cx);
    if !program.starts_with('/') || cx.probe.file(Path::new(&program)) == FileKind::Missing {
        return;
    }
    let Some(typed) = cx.probe.which("hookrun") else {
        return;
    };
    let runs = cx.probe.canonical(Path::new(&program));
    let found_first = cx.probe.canonical(&typed);
    if found_first == runs {
        return;
    }
    // …/node_modules/hookrun/bin/hookrun.js runs a binary below the same
    // node_modules folder.
    if crate::binpath::is_npm_launcher(&found_first) {
        let modules = found_first.ancestors().nth(3);
        if modules.is_some_and(|m| runs.starts_with(m)) {
            return;
        }
    }
    found.push(
        Check::HostHookrunOtherOnPath,
        Severity::Note,
        e,
        format!(
            "this {} entry runs {}, but the `hookrun` on your PATH is {}{}: the hookrun you type (doctor, install, trust) may be another version than the one {} runs",
            w.host.display(),
            runs.display(),
            typed.display(),
            if found_first == typed {
                String::new()
            } else {
                format!(" ({})", found_first.display())
            },
            w.host.display()
        ),
        format!(
            "nothing to do if that is meant; else remove the other hookrun, or run `{}` with the one you use",
            found.install(w)
        ),
    );
}

/// A host timeout shorter than hookrun's deadline for the event.
fn check_timeout_short(w: &Wiring, e: &wiring::Entry, found: &mut EntryFindings<'_>) {
    if let (Some(timeout), Some(claude)) = (e.timeout, w.claude_event(&e.host_event)) {
        #[expect(
            clippy::cast_precision_loss,
            reason = "a timeout unit is far below 2^52"
        )]
        let host_ms = timeout * w.timeout_unit_ms as f64;
        let deadline = crate::host::host(w.host).default_deadline(&EventId::resolve(claude));
        #[expect(
            clippy::cast_precision_loss,
            reason = "a deadline in milliseconds is far below 2^52"
        )]
        let deadline_ms = deadline.as_millis() as f64;
        if host_ms < deadline_ms {
            let secs = host_ms / 1000.0;
            found.push(
                Check::HostTimeoutShort,
                Severity::Warning,
                e,
                format!(
                    "{} gives this entry {secs} s, but hookrun answers {} within {:.0} s (the host's default): a slow hook's answer arrives after {} stopped waiting",
                    w.host.display(),
                    e.host_event,
                    deadline.as_secs_f64(),
                    w.host.display()
                ),
                format!(
                    "add `--deadline {}` to the command (a margin under {secs} s), or remove the entry's timeout",
                    crate::diagnose::host::deadline_hint(secs)
                ),
            );
        }
    }
}

/// A host entry's program as the host's shell sees it
/// (`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/hookrun-native`).
fn expand_program(program: &str, cx: &Context<'_>) -> String {
    let vars = super::command::Vars {
        config_dir: cx.project_dir,
        project_dir: cx.project_dir,
        claude_project_dir: cx.claude_project_dir,
        home: cx.home,
    };
    super::command::expand(program, &vars)
}

/// An entry whose hookrun lives in a package runner's cache, which gets
/// cleaned (`crate::binpath`; a temporary folder is only `install`'s warning).
fn ephemeral(
    program: &str,
    host: HostId,
    cx: &Context<'_>,
    found: &mut EntryFindings<'_>,
    e: &wiring::Entry,
) {
    if !program.starts_with('/') {
        return;
    }
    let Some(place) =
        crate::binpath::classify(Path::new(program), cx.home, |name| std::env::var_os(name))
            .filter(|p| p.kind == crate::binpath::Kind::RunnerCache)
    else {
        return;
    };
    let install = found.install(crate::host::wiring::wiring(host));
    found.push(
        Check::HostHookrunEphemeral,
        Severity::Warning,
        e,
        format!(
            "runs {program}, which is in {} ({}): when {} deletes it, the shell exits 127, and {}",
            place.what,
            place.root.display(),
            place.deleted_by,
            on_127(host)
        ),
        format!(
            "install hookrun durably ({}) and run `{install}` with it",
            crate::binpath::DURABLE_INSTALLS,
        ),
    );
}

/// A deadline under a host timeout of `secs`, as `--deadline` takes it.
pub fn deadline_hint(secs: f64) -> String {
    if secs > 2.0 {
        format!("{}s", (secs - 1.0).floor())
    } else {
        format!("{}ms", (secs * 800.0).floor())
    }
}

/// What [`not_routed`] needs to know about the others.
struct Unrouted<'a> {
    /// hookrun's own files (a host file among them is `host-loads-file`'s).
    loaded: &'a [PathBuf],
    needed: &'a [Needed],
    /// Some host routes its events to hookrun.
    any_routed: bool,
}

/// A host used here — its config file exists, or its own folder in the
/// home folder (`~/.claude`, `~/.claude.json`) does — with no entry that
/// runs hookrun: under it, every hookrun guard is off. An error for the
/// project's own file, and wherever no host at all routes to hookrun (the
/// policy guards nothing, as right after `hookrun init`); a warning when
/// only the user's file or folder exists and another host runs hookrun.
fn not_routed(
    w: &Wiring,
    files: &[HostFile],
    u: &Unrouted<'_>,
    cx: &Context<'_>,
    out: &mut Vec<Finding>,
) {
    let Some(first) = u.needed.first() else {
        return;
    };
    let theirs: Vec<&HostFile> = files
        .iter()
        .filter(|f| !u.loaded.contains(&cx.probe.canonical(&f.path)))
        .collect();
    let (path, project) = match theirs
        .iter()
        .find(|f| f.scope == Scope::Project)
        .or_else(|| theirs.first())
    {
        Some(file) => (file.path.clone(), file.scope == Scope::Project),
        // Only hookrun's own files among the host's: nothing to say.
        None if !files.is_empty() => return,
        None => {
            let Some(marker) = cx.home.and_then(|home| {
                w.home_markers(home)
                    .into_iter()
                    .find(|m| cx.probe.file(m) != FileKind::Missing)
            }) else {
                return;
            };
            (marker, false)
        }
    };
    let (severity, unless) = if project || !u.any_routed {
        (Severity::Error, String::new())
    } else {
        (
            Severity::Warning,
            " (nothing to do if you never use it with this policy)".to_owned(),
        )
    };
    let what: Vec<String> = u
        .needed
        .iter()
        .map(|n| format!("{} on {}", n.what, n.event))
        .collect();
    let nowhere = if u.any_routed {
        String::new()
    } else {
        " (and no host's entries run hookrun, so nothing calls it at all)".to_owned()
    };
    out.push(Finding {
        check: Check::HostNotRouted,
        severity,
        file: first.file.clone(),
        json_path: first.json_path.clone(),
        message: format!(
            "{} exists, but no entry in {}'s files runs hookrun: under {} every hookrun guard is off ({}){nowhere}{unless}",
            path.display(),
            w.host.display(),
            w.host.display(),
            what.join(", ")
        ),
        fix: if project {
            format!("run `hookrun install {}`", w.host.name())
        } else {
            format!(
                "run `hookrun install {} --user` (your own file: every project), or `hookrun install {}` in the project",
                w.host.name(),
                w.host.name()
            )
        },
    });
}

/// The longest hookrun hook of a host entry's event must end before the
/// host stops waiting and before hookrun's own deadline.
fn check_hook_fits(w: &Wiring, file: &HostFile, settings: &Settings, out: &mut Vec<Finding>) {
    for e in &file.entries {
        if !wiring::runs_hookrun(&e.command) {
            continue;
        }
        let Some(claude) = w.claude_event(&e.host_event) else {
            continue;
        };
        let Some(longest) = settings
            .hooks
            .iter()
            .filter(|h| h.event.name() == claude)
            .filter_map(|h| h.timeout.map(|t| (t, h)))
            .max_by_key(|(t, _)| *t)
        else {
            continue;
        };
        let event = EventId::resolve(claude);
        if w.host == HostId::ClaudeCode && event.host_timeout() < event.default_hook_timeout() {
            // A fixed short timeout (SessionEnd): `timeout-exceeds-host`.
            continue;
        }
        #[expect(
            clippy::cast_precision_loss,
            reason = "a timeout in a host's unit is far below 2^52"
        )]
        let host_secs = match (e.timeout, w.timeout) {
            (Some(t), _) => t * w.timeout_unit_ms as f64 / 1000.0,
            (None, Some((_, v))) => (v * w.timeout_unit_ms) as f64 / 1000.0,
            (None, None) => event.host_timeout().as_secs_f64(),
        };
        let deadline_secs = deadline_of(&e.command).unwrap_or_else(|| {
            crate::host::host(w.host)
                .default_deadline(&event)
                .as_secs_f64()
        });
        let (t, hook) = longest;
        let hook_secs = t.as_secs_f64();
        let allowed = host_secs.min(deadline_secs);
        if hook_secs <= allowed {
            continue;
        }
        let path = format!("{}.timeout", hook.json_path);
        out.push(Finding {
            check: Check::HostTimeoutBelowHook,
            severity: Severity::Warning,
            file: file.path.clone(),
            json_path: e.json_path.clone(),
            message: format!(
                "the {claude} hook at {} {path} may run {hook_secs} s, but this entry gives it {allowed} s ({} waits {host_secs} s, hookrun answers within {deadline_secs} s): a slower run is stopped, and the call it guards goes ahead",
                settings.file_of(hook).path().display(),
                w.host.display()
            ),
            fix: format!(
                "run `{}` again (it writes a --deadline and a host timeout that cover the longest hook), or shorten the hook's timeout",
                install_command(w, &file.path, file.scope)
            ),
        });
    }
}

/// `--deadline` of a hookrun command, in seconds.
fn deadline_of(command: &str) -> Option<f64> {
    let words = crate::host::launch::words(command)?;
    let at = words.iter().position(|w| w == "--deadline")?;
    let value = words.get(at + 1)?;
    humantime::parse_duration(value)
        .ok()
        .map(|d| d.as_secs_f64())
}

/// Below this, no hook command can start and answer: a timeout written in
/// milliseconds where seconds are meant.
const SHORTEST_HOOK_TIMEOUT_SECS: f64 = 0.05;

/// Hook timeouts too short for any command to answer (`0.0005`).
pub fn check_hook_timeouts(settings: &Settings, out: &mut Vec<Finding>) {
    for hook in &settings.hooks {
        let Some(t) = hook.timeout else {
            continue;
        };
        let secs = t.as_secs_f64();
        if secs >= SHORTEST_HOOK_TIMEOUT_SECS {
            continue;
        }
        out.push(Finding {
            check: Check::HookTimeoutTooShort,
            severity: Severity::Error,
            file: settings.file_of(hook).path().to_path_buf(),
            json_path: format!("{}.timeout", hook.json_path),
            message: format!(
                "timeout {secs} s is too short for any command to start and answer (the unit is seconds): the hook is stopped every time, so it never takes effect"
            ),
            fix: "write the timeout in seconds (e.g. 10), or remove it for the default".into(),
        });
    }
}

/// The events a policy needs routed beyond those it has hooks on, each
/// with why: its permission rules act on tool calls (PreToolUse), and a
/// skill's shell command is judged by the Bash and PowerShell rules and
/// PreToolUse hooks (`PreSkillShellCommand`), so it must reach hookrun
/// whenever the policy has either, or it runs unjudged.
pub(crate) fn routed_for_policy(
    settings: &crate::settings::Settings,
) -> Vec<(&'static str, &'static str)> {
    let rules: Vec<&str> = settings
        .files
        .iter()
        .filter(|f| f.state == crate::settings::model::FileState::Loaded)
        .flat_map(|f| {
            let p = &f.permissions;
            p.allow.iter().chain(&p.ask).chain(&p.deny)
        })
        .map(|rule| rule.text.as_str())
        .collect();
    let mut events = Vec::new();
    if !rules.is_empty() {
        events.push(("PreToolUse", "the permission rules judge tool calls there"));
    }
    let shell_rule = rules.iter().any(|text| {
        crate::select::rule::Rule::parse(text).is_ok_and(|rule| {
            crate::catalog::SKILL_SHELL_TOOLS
                .iter()
                .any(|tool| rule.applies_to(tool))
        })
    });
    if shell_rule || settings.hooks.iter().any(judges_shell_calls) {
        events.push((
            "PreSkillShellCommand",
            "a skill's shell commands are judged by the Bash and PowerShell rules and hooks",
        ));
    }
    events
}

/// A PreToolUse hook whose matcher and `if` let a Bash or PowerShell call
/// through (a matcher that cannot be compiled runs unfiltered, so it does).
fn judges_shell_calls(hook: &crate::settings::HookDef) -> bool {
    use crate::select::matcher::Matcher;
    if hook.event.known() != Some(KnownEvent::PreToolUse) {
        return false;
    }
    let matcher = Matcher::compile(hook.matcher.as_deref(), false);
    let rule = hook
        .if_rule
        .as_deref()
        .and_then(|text| crate::select::rule::Rule::parse(text).ok());
    crate::catalog::SKILL_SHELL_TOOLS.iter().any(|tool| {
        (matcher.invalid_reason().is_some() || matcher.matches(tool))
            && rule.as_ref().is_none_or(|r| r.applies_to(tool))
    })
}

//! `hookrun explain`: the funnel's verdict on every hook for one event, with
//! the values compared. Runs nothing.
//!
//! Selection is `select::select` itself and "can it run" is
//! `plan` itself: explain shows what `fire` would do, never a
//! second opinion.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::common::{self, Printed};
use crate::catalog::MatchField;
use crate::cli::{ExplainArgs, OutputFormat};
use crate::diagnose::command::{Vars, expand};
use crate::event::{Event, InputError};
use crate::exec::Program;
use crate::exit::Exit;
use crate::hookstate::HookState;
use crate::input::{self, Input, Sent, stdin};
use crate::notices::Notices;
use crate::permissions;
use crate::plan::{self, PlanInput, Planned, Runnable};
use crate::select::{self, Considered, SelectContext, Stage};
use crate::settings::model::FileState;
use crate::settings::{Settings, Severity};

/// One hook as `explain` shows it.
struct Shown {
    index: usize,
    name: String,
    source: String,
    source_kind: &'static str,
    json_path: String,
    event: String,
    /// `run`, `stopped` or `not run`.
    state: HookState,
    layer: Option<&'static str>,
    detail: String,
    /// The command after expansion, for hooks that would run.
    command: Option<String>,
    timeout: Option<Duration>,
    /// The timeout was shortened to the deadline.
    capped: bool,
    /// The funnel's, and why it would not run.
    notices: Notices,
}

pub fn run(args: &ExplainArgs) -> Printed {
    let process_env: Vec<_> = std::env::vars_os().collect();
    let input = match read(args, &process_env) {
        Ok(input) => input,
        Err(err) => return Printed::failure(&err.to_string()),
    };
    // The same deadline `fire` would use.
    let deadline = input.deadline_or(args.deadline);
    let Input {
        host,
        event,
        mut notices,
        ..
    } = input;
    // The same warnings `fire` gives first: the event's name (in the
    // host's vocabulary), what the host's decoding could not translate, a
    // cwd that does not exist.
    let env = common::environment(&args.settings);
    let project_dir = common::project_dir(&env, event.cwd().as_deref());
    notices.warnings.extend(common::missing_cwd_warning(
        &env,
        event.cwd().as_deref(),
        &project_dir,
    ));
    let settings = common::inspect_settings(&args.settings, &env, &project_dir);
    let claude_project_dir = env
        .claude_project_dir
        .as_ref()
        .map_or_else(|| project_dir.clone(), |dir| env.absolute(dir));
    let places = Places {
        project_dir: &project_dir,
        claude_project_dir: &claude_project_dir,
        home: env.home.as_deref(),
    };
    let (shown, sequential) = hooks(&settings, &event, &places, deadline, &process_env);
    let rules = rules(&settings, &event, host, &places, &env, &process_env);
    let (_, scrubbed) = crate::hookenv::scrub(process_env, &settings.env_keep());
    let header = Header {
        event: &event,
        project_dir: &project_dir,
        settings: &settings,
        deadline,
        sequential,
        scrubbed,
        notices,
        rules,
    };
    let stdout = match args.format {
        OutputFormat::Text => text(&header, &shown),
        OutputFormat::Json => {
            let mut out = serde_json::to_string_pretty(&to_json(&header, &shown))
                .expect("JSON values serialise");
            out.push('\n');
            out
        }
    };
    Printed::stdout(stdout, Exit::Success)
}

/// The event on stdin, decoded as `fire` decodes it. With an EVENT, no
/// input is needed: a terminal or an empty stdin means an empty event
/// (`hookrun explain stop`).
fn read(args: &ExplainArgs, env: &[(OsString, OsString)]) -> Result<Input, InputError> {
    let empty = || Sent::Object(Map::new());
    let sent = if args.event.is_some() && stdin::is_terminal() {
        Ok(empty())
    } else {
        stdin::read().map(|bytes| {
            if args.event.is_some() && bytes.iter().all(u8::is_ascii_whitespace) {
                empty()
            } else {
                Sent::Bytes(bytes)
            }
        })
    };
    input::decode(sent, args.host, args.event.as_deref(), env).map_err(|unusable| unusable.error)
}

/// The permission rules of the settings and what they decide for this
/// event, as `fire` applies them after the hooks (the rules alone: no hook
/// runs here). `None` when there are none.
struct RulesShown {
    /// (list, rule, where it is written, what it says about the call).
    judged: Vec<(&'static str, String, String, permissions::Verdict)>,
    /// `deny`, `ask`, `allow` or `none`, and why.
    decision: (&'static str, String),
    /// Rules that are written but not applied here, and why.
    not_applied: Vec<String>,
    /// What is wrong with the rules (as `fire` warns).
    warnings: Vec<String>,
    /// The event is not one the rules judge.
    not_judged: Option<String>,
    /// One of hookrun's built-in rules decided (which, and what it
    /// matched), whatever the settings say.
    builtin: Option<String>,
}

/// How many permission rules the settings hold, and those written but not
/// applied here, with why.
fn written_rules(settings: &Settings, claude_files: bool) -> (usize, Vec<String>) {
    let mut not_applied = Vec::new();
    let mut written = 0;
    for file in &settings.files {
        let count =
            file.permissions.deny.len() + file.permissions.ask.len() + file.permissions.allow.len();
        written += count;
        if count == 0 {
            continue;
        }
        let why = if file.state != FileState::Loaded && file.state != FileState::Untrusted {
            Some(format!("the file is {}", file.state.as_str()))
        } else if !file.trust.is_trusted() {
            Some(format!(
                "the file is {} (`hookrun trust` applies it)",
                file.trust.as_str()
            ))
        } else if file.source.claude_mode && !claude_files {
            Some(
                "a Claude Code file: behind Claude Code, Claude Code applies its rules itself"
                    .to_owned(),
            )
        } else if file.source.claude_mode && !file.permissions.allow.is_empty() {
            Some(
                "its allow rules are Claude Code's: hookrun applies only its deny and ask rules"
                    .to_owned(),
            )
        } else {
            None
        };
        if let Some(why) = why {
            not_applied.push(format!(
                "{} rule{} in {}: {why}",
                count,
                if count == 1 { "" } else { "s" },
                file.path().display()
            ));
        }
    }
    (written, not_applied)
}

/// The permission rules (hookrun's built-in rules first) and what they
/// decide on this call if no hook said anything.
fn rules(
    settings: &Settings,
    event: &Event,
    host: crate::host::HostId,
    places: &Places<'_>,
    env: &crate::settings::Environment,
    process_env: &[(OsString, OsString)],
) -> Option<RulesShown> {
    let claude_files = host != crate::host::HostId::ClaudeCode;
    let (written, not_applied) = written_rules(settings, claude_files);
    if !event.id.permission_rules_apply() {
        if written == 0 {
            return None;
        }
        return Some(RulesShown {
            judged: Vec::new(),
            decision: ("none", String::new()),
            not_applied,
            warnings: Vec::new(),
            not_judged: Some(format!(
                "{} is not judged by permission rules (they apply to PreToolUse and PermissionRequest)",
                event.id.name()
            )),
            builtin: None,
        });
    }
    let state = crate::state::StateDir::from_process();
    let guard_places = crate::selfguard::Places::of(
        settings,
        places.project_dir,
        env.home.as_deref(),
        process_env,
        state.as_ref().map(crate::state::StateDir::root),
        std::env::var_os("HOOKRUN_LOG")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
            .as_deref(),
    );
    let sets = permissions::collect_for(
        &settings.files,
        places.project_dir,
        places.home,
        claude_files,
    )
    .with_builtins(crate::selfguard::Guard::new(guard_places, settings));
    let judged = sets
        .judge(event, places.project_dir, places.home)
        .into_iter()
        .map(|j| (j.list, j.text.to_owned(), j.origin.to_owned(), j.verdict))
        .collect();
    let mut decision = crate::aggregate::Decision::default();
    let outcome = permissions::apply(
        &mut decision,
        event,
        &sets,
        places.project_dir,
        places.home,
        false,
    );
    let builtin = outcome
        .note
        .filter(|note| note.starts_with("built-in rule"));
    if written == 0 && builtin.is_none() {
        return None;
    }
    let decision = match (&decision.block, decision.permission) {
        (Some(block), _) => ("deny", block.clone()),
        (None, Some(crate::verdict::Permission::Ask)) => (
            "ask",
            decision.permission_reason.clone().unwrap_or_default(),
        ),
        (None, Some(crate::verdict::Permission::Allow)) => (
            "allow",
            "allow rules cover every part of this call".to_owned(),
        ),
        _ => (
            "none",
            "no rule decides: the host decides as it would without hookrun".to_owned(),
        ),
    };
    Some(RulesShown {
        judged,
        decision,
        not_applied,
        warnings: sets.warnings.clone(),
        not_judged: None,
        builtin,
    })
}

/// Where a hook's command is expanded.
struct Places<'a> {
    project_dir: &'a Path,
    claude_project_dir: &'a Path,
    home: Option<&'a Path>,
}

/// Every hook as shown, and whether the plan runs them one after another:
/// the funnel's selection and the plan `fire` would run, not a second
/// opinion.
fn hooks(
    settings: &Settings,
    event: &Event,
    places: &Places<'_>,
    deadline: Duration,
    process_env: &[(OsString, OsString)],
) -> (Vec<Shown>, bool) {
    let cx = SelectContext {
        event,
        project_dir: places.project_dir,
        home: places.home,
    };
    let considered = select::select(settings, &cx);
    let plan = plan::plan(
        settings,
        &considered,
        &PlanInput {
            event,
            project_dir: places.project_dir,
            deadline,
            env: process_env,
            kill_grace: crate::exec::Limits::default().kill_grace,
        },
    );
    let shown = considered
        .iter()
        .enumerate()
        .map(|(i, c)| {
            show(
                i + 1,
                c,
                plan.for_slot(i).map(|(_, p)| p),
                settings,
                event,
                places,
            )
        })
        .collect();
    (shown, plan.sequential)
}

fn show(
    index: usize,
    c: &Considered,
    planned: Option<&Planned>,
    settings: &Settings,
    event: &Event,
    places: &Places<'_>,
) -> Shown {
    let hook = &settings.hooks[c.hook];
    let file = settings.file_of(hook);
    let mut notices = c.notices.clone();
    let (state, layer, detail, command) = match &c.stage {
        Stage::Stopped(layer) => (
            HookState::Stopped,
            Some(layer.as_str()),
            c.why(settings, event),
            None,
        ),
        Stage::Run => match planned.map(|p| (&p.program, &p.unrunnable)) {
            Some((Some(program), _)) => {
                let vars = Vars {
                    config_dir: &file.dir,
                    project_dir: places.project_dir,
                    claude_project_dir: places.claude_project_dir,
                    home: places.home,
                };
                let shown = match &program {
                    Runnable::Command(program) => display(program, &vars),
                    Runnable::Http(http) => format!("POST {}", http.url),
                    Runnable::Prompt { prompt, agent } => {
                        let env: Vec<_> = std::env::vars_os().collect();
                        crate::prompt::describe(prompt, *agent, settings, &env)
                    }
                    Runnable::McpTool(mcp) => crate::mcp::describe(mcp),
                };
                (HookState::WouldRun, None, String::new(), Some(shown))
            }
            other => {
                let why = other
                    .and_then(|(_, why)| why.as_ref())
                    .map_or_else(String::new, ToString::to_string);
                notices.warn(format!(
                    "hook {}: {why}; it would not run",
                    hook.display_name()
                ));
                (HookState::NotRun, None, why, None)
            }
        },
    };
    // As `fire` plans it: the managed cap, then the deadline.
    let (timeout, capped) = match planned {
        Some(p) if state == HookState::WouldRun => {
            (Some(p.timeout.effective), p.timeout.capped_by_deadline)
        }
        _ => (None, false),
    };
    Shown {
        index,
        name: hook.display_name(),
        source: file.path().display().to_string(),
        source_kind: file.kind().as_str(),
        json_path: hook.json_path.as_str().to_owned(),
        event: hook.event.name().to_owned(),
        state,
        layer,
        detail,
        command,
        timeout,
        capped,
        notices,
    }
}

/// The command as it would start, with hookrun's variables filled in for
/// display (the shell expands them itself when the hook runs).
fn display(program: &Program, vars: &Vars<'_>) -> String {
    shorten_command(&full_display(program, vars))
}

/// Longest command shown whole; a longer one (a 10 MB script) is cut, with
/// the count of what was left out.
const MAX_COMMAND: usize = 2000;

fn shorten_command(command: &str) -> String {
    let count = command.chars().count();
    if count <= MAX_COMMAND {
        return command.to_owned();
    }
    let head: String = command.chars().take(MAX_COMMAND).collect();
    format!(
        "{head}… ({} more characters, {count} in all)",
        count - MAX_COMMAND
    )
}

fn full_display(program: &Program, vars: &Vars<'_>) -> String {
    match program {
        Program::Shell { shell, script } => {
            format!("{shell} -c {}", quote(&expand(script, vars)))
        }
        Program::PowerShell { script } => {
            let args = crate::exec::powershell_args(script, false);
            std::iter::once(crate::exec::POWERSHELLS[0].to_owned())
                .chain(args.iter().map(|a| quote(&a.to_string_lossy())))
                .collect::<Vec<_>>()
                .join(" ")
        }
        Program::Exec { program, args } => std::iter::once(program)
            .chain(args)
            .map(|w| quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn quote(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| format!("{word:?}"), std::borrow::Cow::into_owned)
}

struct Header<'a> {
    event: &'a Event,
    project_dir: &'a Path,
    settings: &'a Settings,
    deadline: Duration,
    sequential: bool,
    /// Variables hooks would not get, the same list `fire`
    /// computes.
    scrubbed: Vec<String>,
    /// What `fire` says first: a misspelt event name, an argument that
    /// names another event than the input, what the host's decoding could
    /// not translate (warnings); what it translated, and which host really
    /// sent the event (notes, as `fire --format report` has them).
    notices: Notices,
    rules: Option<RulesShown>,
}

impl Header<'_> {
    fn match_field(&self) -> Option<String> {
        match self.event.id.match_field() {
            MatchField::None => None,
            MatchField::Key(key) => Some(key.to_owned()),
            MatchField::Basename(key) => Some(format!("basename of {key}")),
            MatchField::Model(key) => Some(format!("{key} (without a [1m] suffix)")),
        }
    }
}

fn text(h: &Header<'_>, shown: &[Shown]) -> String {
    let mut out = String::new();
    text_header(&mut out, h);
    if shown.is_empty() {
        let skipped = h
            .settings
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count();
        if skipped == 0 {
            out.push_str("\nno hooks are configured in these files\n");
        } else {
            let _ = writeln!(
                out,
                "\nno hooks were loaded: {skipped} settings error{} above (an entry with an error is skipped)",
                if skipped == 1 { "" } else { "s" }
            );
        }
    } else {
        for s in shown {
            text_hook(&mut out, s);
        }
        let runs = shown
            .iter()
            .filter(|s| s.state == HookState::WouldRun)
            .count();
        let mode = if h.sequential && runs > 1 {
            ", one after another (a hook sets `sequential`)"
        } else {
            ""
        };
        let _ = writeln!(out, "\n{runs} of {} hooks would run{mode}", shown.len());
    }
    if let Some(rules) = &h.rules {
        text_rules(&mut out, rules);
    }
    out
}

/// The permission rules, each with what it says about the call, and the
/// one that decides.
fn text_rules(out: &mut String, r: &RulesShown) {
    out.push_str(
        "\npermission rules (applied after the hooks, on the final input: deny wins, then ask, then allow):\n",
    );
    if let Some(why) = &r.not_judged {
        let _ = writeln!(out, "  {why}");
    }
    let width = r
        .judged
        .iter()
        .map(|(_, t, _, _)| t.chars().count())
        .max()
        .unwrap_or(0);
    for (list, text, origin, verdict) in &r.judged {
        let says = match verdict {
            permissions::Verdict::Matches => "matches".to_owned(),
            permissions::Verdict::CannotJudge(why) => {
                format!("matches (hookrun cannot judge the call: {why})")
            }
            permissions::Verdict::Covers => "covers the call".to_owned(),
            permissions::Verdict::NoMatch => "no match".to_owned(),
        };
        let _ = writeln!(out, "  {list:<5}  {}  {says}  ({origin})", pad(text, width));
    }
    for why in &r.not_applied {
        let _ = writeln!(out, "  not applied: {why}");
    }
    for warning in &r.warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
    if let Some(note) = &r.builtin {
        let (decision, why) = &r.decision;
        let _ = writeln!(out, "rules: {decision} ({note})");
        let _ = writeln!(out, "  reason: {why}");
    } else if r.not_judged.is_none() {
        let (decision, why) = &r.decision;
        let _ = writeln!(out, "the rules decide: {decision} ({why})");
    }
}

/// Pads to `width` characters.
fn pad(text: &str, width: usize) -> String {
    let mut out = text.to_owned();
    out.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(text.chars().count()),
    ));
    out
}

/// The event, the project, the deadline, the settings files and their
/// problems, the environment.
fn text_header(out: &mut String, h: &Header<'_>) {
    let field = h.match_field().map_or_else(
        || " (no match field)".to_owned(),
        |f| format!(" ({f} {:?})", h.event.match_value()),
    );
    let _ = writeln!(out, "event: {}{field}", h.event.id.name());
    for warning in &h.notices.warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
    for note in &h.notices.notes {
        let _ = writeln!(out, "  note: {note}");
    }
    let _ = writeln!(out, "project: {}", h.project_dir.display());
    let _ = writeln!(
        out,
        "deadline: {} s (every hook, its kill grace included, ends by it)",
        h.deadline.as_secs_f64()
    );
    out.push_str("settings:\n");
    for (index, file) in h.settings.files.iter().enumerate() {
        let hooks = h.settings.hooks.iter().filter(|x| x.file == index).count();
        let state = match file.state {
            FileState::Missing => "missing".to_owned(),
            FileState::Loaded => {
                format!("loaded, {hooks} hook{}", if hooks == 1 { "" } else { "s" })
            }
            FileState::Skipped => "skipped".to_owned(),
            FileState::Untrusted => {
                format!("{}: its hooks are not considered", file.trust.as_str())
            }
        };
        let _ = writeln!(
            out,
            "  {:<8} {} ({state})",
            file.kind().as_str(),
            file.path().display()
        );
    }
    let problems: Vec<_> = h
        .settings
        .problems
        .iter()
        .filter(|p| p.severity >= Severity::Warning)
        .collect();
    if !problems.is_empty() {
        out.push_str("settings problems (`hookrun doctor` says how to fix them):\n");
        for p in problems {
            let _ = writeln!(out, "  {}: {p}", p.severity.as_str());
        }
    }
    if h.scrubbed.is_empty() {
        out.push_str("environment: no secret-looking variables to keep from hooks\n");
    } else {
        let _ = writeln!(
            out,
            "environment: hooks would not get {} (secret-looking names; env.keep in your user settings lets one through)",
            h.scrubbed.join(", ")
        );
    }
}

/// One hook: where the funnel stopped it or what it would run.
fn text_hook(out: &mut String, s: &Shown) {
    let verdict = match (s.state, s.layer) {
        (HookState::WouldRun, _) => "would run".to_owned(),
        (_, Some(layer)) => format!("stopped at {layer}"),
        _ => "would not run".to_owned(),
    };
    let _ = writeln!(out, "\n{}. {} — {verdict}", s.index, s.name);
    let _ = writeln!(out, "   from: {} {}", s.source, s.json_path);
    if !s.detail.is_empty() {
        let _ = writeln!(out, "   why: {}", s.detail);
    }
    if let Some(command) = &s.command {
        let _ = writeln!(out, "   runs: {command}");
    }
    if let Some(timeout) = s.timeout {
        let capped = if s.capped {
            " (capped by the deadline)"
        } else {
            ""
        };
        let _ = writeln!(out, "   timeout: {} s{capped}", timeout.as_secs_f64());
    }
    for w in &s.notices.warnings {
        let _ = writeln!(out, "   warning: {w}");
    }
    for n in &s.notices.notes {
        let _ = writeln!(out, "   note: {n}");
    }
}

fn to_json(h: &Header<'_>, shown: &[Shown]) -> Value {
    let hooks: Vec<Value> = shown
        .iter()
        .map(|s| {
            let mut o = Map::new();
            o.insert("index".into(), json!(s.index));
            o.insert("name".into(), json!(s.name));
            o.insert("source".into(), json!(s.source));
            o.insert("source_kind".into(), json!(s.source_kind));
            o.insert("json_path".into(), json!(s.json_path));
            o.insert("event".into(), json!(s.event));
            o.insert("state".into(), json!(s.state));
            if let Some(layer) = s.layer {
                o.insert("layer".into(), json!(layer));
            }
            if !s.detail.is_empty() {
                o.insert("detail".into(), json!(s.detail));
            }
            if let Some(command) = &s.command {
                o.insert("command".into(), json!(command));
            }
            if let Some(timeout) = s.timeout {
                o.insert("timeout_s".into(), json!(timeout.as_secs_f64()));
                o.insert("timeout_capped".into(), json!(s.capped));
            }
            o.insert("warnings".into(), json!(s.notices.warnings));
            o.insert("notes".into(), json!(s.notices.notes));
            Value::Object(o)
        })
        .collect();
    let settings: Vec<Value> = h
        .settings
        .files
        .iter()
        .map(|f| {
            json!({
                "path": f.path().display().to_string(),
                "source": f.kind().as_str(),
                                                "state": f.state.as_str(),
                "trust": f.trust.as_str(),
                "claude_mode": f.source.claude_mode,
            })
        })
        .collect();
    let problems: Vec<Value> = h
        .settings
        .problems
        .iter()
        .map(|p| {
            json!({
                "severity": p.severity.as_str(),
                "file": p.file.display().to_string(),
                "json_path": p.json_path,
                "message": p.message,
            })
        })
        .collect();
    json!({
        "event": h.event.id.name(),
        "event_warnings": h.notices.warnings,
        "event_notes": h.notices.notes,
        "match_field": h.match_field(),
        "match_value": h.match_field().map(|_| h.event.match_value()),
        "project_dir": h.project_dir.display().to_string(),
        "deadline_s": h.deadline.as_secs_f64(),
                "settings": settings,
        "problems": problems,
        "scrubbed_env": h.scrubbed,
        "hooks": hooks,
        "would_run": shown.iter().filter(|s| s.state == HookState::WouldRun).count(),
        "sequential": h.sequential,
        "permission_rules": h.rules.as_ref().map(rules_json),
    })
}

fn rules_json(r: &RulesShown) -> Value {
    let rules: Vec<Value> = r
        .judged
        .iter()
        .map(|(list, text, origin, verdict)| {
            let (says, why) = match verdict {
                permissions::Verdict::Matches => ("matches", None),
                permissions::Verdict::CannotJudge(why) => ("matches", Some(why)),
                permissions::Verdict::Covers => ("covers", None),
                permissions::Verdict::NoMatch => ("no match", None),
            };
            json!({"list": list, "rule": text, "origin": origin, "verdict": says, "cannot_judge": why})
        })
        .collect();
    json!({
        "rules": rules,
        "decision": (r.not_judged.is_none()).then_some(r.decision.0),
        "reason": (r.not_judged.is_none()).then_some(&r.decision.1),
        "not_applied": r.not_applied,
        "warnings": r.warnings,
        "not_judged": r.not_judged,
        "builtin": r.builtin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_command_is_shortened_with_a_count() {
        let big = "x".repeat(10_000);
        let shown = shorten_command(&big);
        assert!(shown.len() < 2100, "{}", shown.len());
        assert!(
            shown.ends_with("… (8000 more characters, 10000 in all)"),
            "{shown}"
        );
        assert_eq!(shorten_command("echo hi"), "echo hi");
    }
}

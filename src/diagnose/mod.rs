//! `doctor`'s checks: every way a hook can be configured to fail silently,
//! found before it fires (SPEC §10).
//!
//! Takes loaded [`Settings`] and returns [`Finding`]s, each with the file,
//! the JSON path and a one-line fix. Reuses what the other stages already
//! decide — the loader's problems, [`Matcher::compile`], [`Rule::parse`], the
//! catalog's tiers and timeouts, `fire`'s own test of whether a hook can run
//! — so `doctor` cannot disagree with `fire` about what a setting means.
//! Never runs a hook; the only I/O goes through [`Probe`].

pub(crate) mod check;
pub(crate) mod command;
pub(crate) mod host;
pub(crate) mod ownership;
pub mod probe;
pub(crate) mod problems;
pub(crate) mod prompt;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::catalog::{EventId, MatchField};
use crate::select::matcher::Matcher;
use crate::select::rule::Rule;
use crate::settings::{HookDef, Settings, Severity, SourceKind};
pub use check::Check;
use command::{Issue, Vars};
use probe::Probe;

use crate::select::mistakes::human;
#[cfg(test)]
use crate::select::mistakes::list_matcher_names;
use crate::select::mistakes::matcher_path;
use crate::select::tools;

/// One thing `doctor` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The check that found it.
    pub check: Check,
    pub severity: Severity,
    pub file: PathBuf,
    /// JSON path inside the file; empty for the whole file.
    pub json_path: String,
    pub message: String,
    /// One line saying what to change.
    pub fix: String,
}

/// What the checks need besides the settings.
pub struct Context<'a> {
    pub project_dir: &'a Path,
    pub home: Option<&'a Path>,
    /// `CLAUDE_PROJECT_DIR` as hooks get it: inherited, else the project.
    pub claude_project_dir: &'a Path,
    /// `$CODEX_HOME` (Codex's user hook file is `$CODEX_HOME/hooks.json`).
    pub codex_home: Option<&'a Path>,
    pub probe: &'a dyn Probe,
}

/// Runs every check. Findings are in load order of the files, then in the
/// order of the hooks within each file.
pub fn diagnose(settings: &Settings, cx: &Context<'_>) -> Vec<Finding> {
    let mut out: Vec<Finding> = settings.problems.iter().map(problems::finding).collect();
    // Untrusted or changed project files arrive as loader problems (the
    // `untrusted` check): `doctor` still inspects their content.

    check_disabled(settings, &mut out);
    ownership::check(settings, &mut out);
    host::check_loaded_by_host(settings, cx, &mut out);
    check_permission_rules(settings, cx, &mut out);
    for hook in &settings.hooks {
        check_hook(settings, hook, cx, &mut out);
    }
    host::check_file_changed(settings, cx, &mut out);
    host::check_host_wiring(settings, cx, &mut out);
    host::check_host_event_names(settings, &mut out);
    host::check_hook_timeouts(settings, &mut out);

    // The table grades each check: a finding that means "this guard never
    // fires" is an error wherever it was found, so `doctor` exits non-zero.
    for finding in &mut out {
        finding.severity = finding.severity.max(finding.check.severity());
    }
    // A host's own event name is said once, by `host-event-name`, not also
    // as an unknown event.
    let host_named: Vec<(PathBuf, String)> = out
        .iter()
        .filter(|f| f.check == Check::HostEventName)
        .map(|f| (f.file.clone(), f.json_path.clone()))
        .collect();
    out.retain(|f| {
        f.check != Check::UnknownEvent
            || !host_named
                .iter()
                .any(|(file, path)| *file == f.file && *path == f.json_path)
    });
    // A group's matcher is shared by its hooks: report it once.
    let mut unique: Vec<Finding> = Vec::with_capacity(out.len());
    for finding in out {
        if !unique.contains(&finding) {
            unique.push(finding);
        }
    }
    let order = |f: &Finding| {
        settings
            .files
            .iter()
            .position(|file| file.path() == f.file)
            .unwrap_or(usize::MAX)
    };
    unique.sort_by_key(order);
    unique
}

/// What the secret scrub does to the hooks of these settings, given the
/// environment hookrun runs in: a note naming every variable kept out (the
/// fire itself says so only when a hook uses one), and a warning for each
/// hook whose command uses one.
pub fn scrubbed_env(
    settings: &Settings,
    env: impl IntoIterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
) -> Vec<Finding> {
    let keep = settings.env_keep();
    let (mut kept, mut scrubbed) = crate::hookenv::scrub(env, &keep);
    crate::prompt::scrub_keys(settings, &keep, &mut kept, &mut scrubbed);
    let mut out = Vec::new();
    if scrubbed.is_empty() {
        return out;
    }
    let fix = "if a hook needs one, list it in env.keep of your user settings: {\"env\": {\"keep\": [\"NAME\"]}}";
    for hook in &settings.hooks {
        let Some((command, args)) = hook.action.command_text() else {
            continue;
        };
        let texts = std::iter::once(command)
            .chain(args.into_iter().flatten().map(String::as_str))
            .collect::<Vec<&str>>();
        let used = crate::hookenv::named_by(&scrubbed, &texts);
        if used.is_empty() {
            continue;
        }
        out.push(Finding {
            check: Check::EnvNeeded,
            severity: Severity::Warning,
            file: settings.file_of(hook).path().to_path_buf(),
            json_path: format!("{}.command", hook.json_path),
            message: format!(
                "uses {}, which hookrun keeps out of the hooks' environment (the name looks like a secret): the hook sees it unset",
                used.join(", ")
            ),
            fix: format!(
                "list it in env.keep of your user settings: {{\"env\": {{\"keep\": [\"{}\"]}}}}",
                used[0]
            ),
        });
    }
    out.push(Finding {
        check: Check::EnvKeptOut,
        severity: Severity::Note,
        file: PathBuf::new(),
        json_path: String::new(),
        message: format!(
            "hooks do not get these variables of this environment: {}",
            scrubbed.join(", ")
        ),
        fix: fix.to_owned(),
    });
    out
}

fn check_disabled(settings: &Settings, out: &mut Vec<Finding>) {
    for file in &settings.files {
        if file.disable_all_hooks != Some(true) {
            continue;
        }
        let scope = if file.kind() == SourceKind::Managed {
            "every hook, from every file"
        } else {
            "every hook from user, project, local and command-line files (managed hooks still run)"
        };
        out.push(Finding {
            check: Check::HooksDisabled,
            severity: Severity::Warning,
            file: file.path().to_path_buf(),
            json_path: "disableAllHooks".into(),
            message: format!("is true: it turns off {scope}"),
            fix: "remove `disableAllHooks` (or set it to false) when the hooks should run".into(),
        });
    }
}

struct HookCx<'a> {
    file: PathBuf,
    hook: &'a HookDef,
    out: &'a mut Vec<Finding>,
}

impl HookCx<'_> {
    fn push(&mut self, check: Check, json_path: String, message: String, fix: impl Into<String>) {
        self.out.push(Finding {
            check,
            severity: check.severity(),
            file: self.file.clone(),
            json_path,
            message,
            fix: fix.into(),
        });
    }

    fn field(&self, name: &str) -> String {
        format!("{}.{name}", self.hook.json_path)
    }
}

/// Every `permissions` rule of every file read, parsed as `fire` parses
/// it. A deny or ask rule that does not parse is a guard that never holds:
/// `fire` skips it (with a warning). In a Claude Code file the rules are
/// Claude Code's to enforce behind Claude Code, but hookrun enforces their
/// deny and ask behind every other host, so they are checked alike.
///
/// A rule that parses but never matches what it names is found too, as
/// `fire` warns about it: its tool in another case (`bash(rm *)`, an error
/// like the same mistake in a matcher), a host's own tool name, and a path
/// rule with one leading `/` that names a path outside the project which
/// exists from the root or under the home folder.
fn check_permission_rules(settings: &Settings, cx: &Context<'_>, out: &mut Vec<Finding>) {
    for file in &settings.files {
        if file.state != crate::settings::model::FileState::Loaded {
            continue;
        }
        let anchor = if file.kind().is_project_scoped() {
            cx.project_dir.to_path_buf()
        } else {
            file.dir.clone()
        };
        let lists = [
            ("deny", &file.permissions.deny),
            ("ask", &file.permissions.ask),
            ("allow", &file.permissions.allow),
        ];
        for (list, entries) in lists {
            for entry in entries {
                let err = match Rule::parse(&entry.text) {
                    Ok(rule) => {
                        rule_mistakes(&rule, list, entry, file, &anchor, cx, out);
                        continue;
                    }
                    Err(err) => err,
                };
                let (check, severity, effect) = if list == "allow" {
                    (
                        Check::AllowRuleInvalid,
                        Severity::Warning,
                        "it approves nothing".to_owned(),
                    )
                } else {
                    (
                        Check::PermissionRuleInvalid,
                        Severity::Error,
                        format!("this {list} rule is skipped, so what it guards is never stopped"),
                    )
                };
                let whose = match (file.source.claude_mode, list) {
                    (false, _) => "",
                    (true, "allow") => {
                        " (a Claude Code file: Claude Code applies its allow rules, hookrun never does)"
                    }
                    (true, _) => {
                        " (Claude Code enforces this file behind Claude Code; hookrun enforces its deny and ask rules behind every other host)"
                    }
                };
                out.push(Finding {
                    check,
                    severity,
                    file: file.path().to_path_buf(),
                    json_path: entry.json_path.clone(),
                    message: format!("{err}: {effect}{whose}"),
                    fix: "write one rule, `Tool` or `Tool(specifier)`, e.g. \"Bash(rm -rf *)\" or \"mcp__server__tool\"".into(),
                });
            }
        }
    }
}

/// One parsed rule that never matches what it names (see
/// [`crate::select::mistakes::rule_mistakes`]).
fn rule_mistakes(
    rule: &Rule,
    list: &str,
    entry: &crate::settings::model::RuleEntry,
    file: &crate::settings::SettingsFile,
    anchor: &Path,
    cx: &Context<'_>,
    out: &mut Vec<Finding>,
) {
    use crate::select::mistakes::RuleMistake;
    let exists = |path: &Path| cx.probe.file(path) != probe::FileKind::Missing;
    for mistake in crate::select::mistakes::rule_mistakes(rule, anchor, cx.home, &exists) {
        let check = match mistake {
            RuleMistake::ToolCase(_) => Check::ToolNameCase,
            RuleMistake::ToolHost(..) => Check::ToolNameHost,
            RuleMistake::OneSlash { .. } => Check::RuleOneSlash,
        };
        out.push(Finding {
            check,
            severity: check.severity(),
            file: file.path().to_path_buf(),
            json_path: entry.json_path.clone(),
            message: mistake.message(rule, list),
            fix: mistake.fix(rule),
        });
    }
}

fn check_hook(settings: &Settings, hook: &HookDef, cx: &Context<'_>, out: &mut Vec<Finding>) {
    let file = settings.file_of(hook);
    let mut h = HookCx {
        file: file.path().to_path_buf(),
        hook,
        out,
    };
    let vars = crate::plan::ExecVars::new(&[], &file.dir);
    if let Err(why) = crate::plan::program_for(hook, &file.dir, &vars) {
        let at = match &hook.action {
            crate::settings::HookAction::Command(_) => h.field("shell"),
            _ => h.field("type"),
        };
        h.push(
            Check::NotRun,
            at,
            format!("{why}: hookrun reports it and skips it on every fire"),
            "rewrite it as a command hook (\"type\": \"command\"), or keep it in the host's own settings where the host runs it",
        );
    }
    for (field, message) in crate::http::lint(hook) {
        let at = h.field(&field);
        let fix = if field != "url" {
            "list the variable in the hook's allowedEnvVars (see docs/http-hooks.md)".to_owned()
        } else if let Some(net) = message
            .split_once("points at ")
            .and_then(|(_, rest)| rest.split_once(' '))
            .map(|(ip, _)| ip)
            .filter(|_| message.contains("SSRF guard"))
        {
            format!(
                "if {net} is a service you mean to call, allow it in your user or managed settings: \"allowedHookNetworks\": [\"{net}\"] (a project file cannot); otherwise fix the URL"
            )
        } else {
            "fix the URL: http:// or https://, a host and an optional path (see docs/http-hooks.md)"
                .to_owned()
        };
        h.push(Check::HttpHook, at, message, fix);
    }
    let env: Vec<_> = std::env::vars_os().collect();
    for (check, field, message, fix) in prompt::check(settings, hook, &env) {
        let at = h.field(field);
        h.push(check, at, message, fix);
    }
    check_matcher(hook, &mut h);
    check_if(hook, &mut h);
    check_command(hook, &file.dir, cx, &mut h);
    check_timeout(hook, &mut h);
}

fn check_matcher(hook: &HookDef, h: &mut HookCx<'_>) {
    let Some(pattern) = hook.matcher.as_deref() else {
        return;
    };
    let event = &hook.event;
    let path = matcher_path(hook);
    let field = match event.match_field() {
        MatchField::None => {
            if !pattern.is_empty() && pattern != "*" {
                let why = match event {
                    EventId::Known(name) => format!("{name} has no match field"),
                    EventId::Unknown(name) => {
                        format!("`{name}` is not a catalog event, so it has no match field")
                    }
                };
                h.push(
                    Check::MatcherIgnored,
                    path,
                    format!(
                        "matcher {pattern:?} is ignored: {why}, so this hook runs on every {}",
                        event.name()
                    ),
                    "remove `matcher`, or filter inside the command",
                );
            }
            return;
        }
        MatchField::Key(key) | MatchField::Basename(key) | MatchField::Model(key) => key,
    };
    let strict = event.spec().is_some_and(|spec| spec.strict_matcher_chars);
    let matcher = Matcher::compile(Some(pattern), strict);
    if let Some(reason) = matcher.invalid_reason() {
        let reason = reason.lines().next().unwrap_or(reason);
        h.push(
            Check::MatcherInvalid,
            path,
            format!(
                "matcher {:?} is not a valid regex ({reason}): the hook runs on every {}, unfiltered",
                crate::text::shorten(pattern, 120),
                event.name()
            ),
            invalid_matcher_fix(pattern),
        );
        return;
    }
    if let Matcher::List(names) = &matcher {
        if names.is_empty() {
            h.push(
                Check::MatcherMatchesNothing,
                path,
                format!("matcher {pattern:?} lists no names: it matches nothing, so this hook never runs"),
                "write the names to match (`Edit|Write`), or remove `matcher` to match everything",
            );
            return;
        }
    }
    if matcher.may_blow_up() {
        h.push(
            Check::MatcherMayBlowUp,
            path.clone(),
            format!(
                "matcher {pattern:?} needs the backtracking engine (look-around or back-references) and repeats a group that itself repeats: its time can double with each character, and a match that takes over {} ms does not filter (the hook runs)",
                crate::select::matcher::BACKTRACKING_BUDGET.as_millis()
            ),
            "write the group without a nested quantifier (`(a+)+` is `a+`), or drop the look-around",
        );
    }
    if matcher.is_regex() && regex::Regex::new(pattern).is_err() {
        h.push(
            Check::MatcherNotPortable,
            path.clone(),
            format!(
                "matcher {pattern:?} uses JavaScript-only regex syntax (look-around or back-references): hookrun and Claude Code accept it, an RE2-style engine (Rust, Go) would not"
            ),
            "nothing to do for hookrun; rewrite it without look-around if another host reads this file",
        );
    }
    if field != "tool_name" {
        return;
    }
    if let Some(tool) = rule_shaped(pattern).filter(|tool| !matcher.matches(tool)) {
        h.push(
            Check::MatcherLooksLikeRule,
            path,
            format!(
                "matcher {pattern:?} is read as a regex, which never matches the tool name `{tool}`: this hook never runs (permission-rule syntax belongs in `if`)"
            ),
            format!("set \"matcher\": \"{tool}\" and \"if\": {pattern:?}"),
        );
        return;
    }
    check_tool_names(pattern, &matcher, &path, h);
}

fn check_tool_names(pattern: &str, matcher: &Matcher, path: &str, h: &mut HookCx<'_>) {
    match matcher {
        Matcher::List(names) => {
            for name in names {
                name_issue(name, "matcher", path, h);
            }
        }
        Matcher::Regex(_) => {
            let case = tools::regex_case_miss(pattern, matcher);
            if !case.is_empty() {
                h.push(
                    Check::ToolNameCase,
                    path.to_owned(),
                    format!(
                        "matcher {pattern:?} matches no tool name a known host sends, only {} ignoring case: tool names are case-sensitive",
                        tools::describe(&case)
                    ),
                    "write the name with the host's exact case",
                );
            }
            if let Some(over) = tools::overmatch(pattern, matcher) {
                let exact = over.meant.join("|");
                h.push(
                    Check::MatcherOvermatch,
                    path.to_owned(),
                    format!(
                        "matcher {pattern:?} is a regex search, unanchored: besides {} it also matches {}",
                        over.meant.join(", "),
                        over.also.join(", ")
                    ),
                    format!(
                        "to match only {}, write the exact list \"{exact}\" or anchor it: \"^({exact})$\"",
                        over.meant.join(", ")
                    ),
                );
            }
        }
        Matcher::All | Matcher::Invalid(_) => {}
    }
}

/// A case or spelling issue with one tool name from a matcher or an `if`.
fn name_issue(name: &str, what: &str, path: &str, h: &mut HookCx<'_>) {
    match tools::check_name(name) {
        Some(tools::NameIssue::Case(near)) => h.push(
            Check::ToolNameCase,
            path.to_owned(),
            format!(
                "{what} names tool `{name}`, which no known host sends; tool names are case-sensitive: {} is what hosts send",
                tools::describe(&near)
            ),
            format!("write `{}`", near[0].0),
        ),
        Some(tools::NameIssue::Translated(host, claude)) => h.push(
            Check::ToolNameHost,
            path.to_owned(),
            format!(
                "{what} names tool `{name}`, {host}'s name for `{claude}`: behind every host hookrun gives tools to your hooks under Claude Code's names, so this never matches"
            ),
            format!("write `{claude}`"),
        ),
        Some(tools::NameIssue::Typo(near)) => h.push(
            Check::ToolNameTypo,
            path.to_owned(),
            format!(
                "{what} names tool `{name}`, which no known host sends; did you mean {}?",
                tools::describe(&near)
            ),
            format!("write `{}`", near[0].0),
        ),
        None => {}
    }
}

/// `Tool(…)` with a known tool: a permission rule written as a matcher.
fn rule_shaped(pattern: &str) -> Option<&str> {
    let (tool, rest) = pattern.split_once('(')?;
    (rest.ends_with(')') && tools::is_known(tool)).then_some(tool)
}

fn invalid_matcher_fix(pattern: &str) -> String {
    if let Some((tool, _)) = pattern.split_once('(') {
        if !tool.is_empty() && tool.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return format!(
                "this looks like a permission rule: move it to `if`, with balanced parentheses, and set \"matcher\": \"{tool}\""
            );
        }
    }
    "escape the regex characters (`\\(`, `\\[`, `\\*`) or use the exact list form (`Edit|Write`)"
        .into()
}

fn check_if(hook: &HookDef, h: &mut HookCx<'_>) {
    let Some(text) = hook.if_rule.as_deref() else {
        return;
    };
    let path = h.field("if");
    let event = &hook.event;
    if !event.has_tool() {
        h.push(
            Check::IfNeverApplies,
            path,
            format!(
                "`if` only applies to tool events; {} has no tool input, so this hook never runs",
                event.name()
            ),
            "remove `if` (filter inside the command), or move the hook to PreToolUse/PostToolUse",
        );
        return;
    }
    let rule = match Rule::parse(text) {
        Ok(rule) => rule,
        Err(err) => {
            h.push(
                Check::IfInvalid,
                path,
                format!("{err}: the hook runs unfiltered"),
                "write one rule, `Tool` or `Tool(specifier)`, e.g. \"Bash(git push *)\"",
            );
            return;
        }
    };
    let tool = rule.tool();
    if tool.starts_with("mcp__") {
        return;
    }
    name_issue(tool, "`if`", &path, h);
    let strict = event.spec().is_some_and(|spec| spec.strict_matcher_chars);
    let matcher = Matcher::compile(hook.matcher.as_deref(), strict);
    if matches!(matcher, Matcher::List(_) | Matcher::Regex(_)) && !matcher.matches(tool) {
        h.push(
            Check::IfMatcherConflict,
            path,
            format!(
                "`if` tests {tool} calls, but matcher {:?} never lets a {tool} call through: this hook never runs",
                hook.matcher.as_deref().unwrap_or_default()
            ),
            format!("make the matcher include {tool}, or change the tool in `if`"),
        );
    }
}

fn check_command(hook: &HookDef, config_dir: &Path, cx: &Context<'_>, h: &mut HookCx<'_>) {
    let crate::settings::HookAction::Command(crate::settings::CommandDef {
        command,
        args,
        shell,
    }) = &hook.action
    else {
        return;
    };
    let command = command.as_str();
    if *shell == crate::settings::ShellKind::PowerShell && args.is_none() {
        // Not sh: the shell checks below do not apply.
        if !crate::exec::POWERSHELLS.iter().any(|p| cx.probe.on_path(p)) {
            let at = h.field("shell");
            h.push(
                Check::PowershellMissing,
                at,
                "shell \"powershell\", and neither pwsh nor powershell is on PATH here: the hook fails on every run, a failure that blocks nothing".to_owned(),
                "install PowerShell (pwsh), or remove \"shell\": \"powershell\" and write the command for sh",
            );
        }
        return;
    }
    let vars = Vars {
        config_dir,
        project_dir: cx.project_dir,
        claude_project_dir: cx.claude_project_dir,
        home: cx.home,
    };
    let tier = hook.event.tier();
    let path = h.field("command");
    let shell_text = match args {
        Some(args) => {
            let mut text = command.to_owned();
            for arg in args {
                text.push(' ');
                text.push_str(arg);
            }
            text
        }
        None => command.to_owned(),
    };
    if tier.enforces_blocks() && command::exits_with(&shell_text, 1) {
        h.push(
            Check::Exit1DoesNotBlock,
            path.clone(),
            format!(
                "`exit 1` does not block: on {} it is a failure of the hook, and the action goes ahead",
                hook.event.name()
            ),
            "use `exit 2` to block (with the reason on stderr)",
        );
    }
    if !tier.enforces_blocks() && command::exits_with(&shell_text, 2) {
        h.push(
            Check::BlockNotEnforced,
            path.clone(),
            format!(
                "`exit 2` does not block on {} (tier {}): the block is only reported",
                hook.event.name(),
                tier.as_str()
            ),
            "move the check to an event that can block (PreToolUse, UserPromptSubmit, Stop…)",
        );
    }
    if args.is_none() {
        let unquoted = command::unquoted_split_vars(command, &vars);
        if let Some((name, value)) = unquoted.first() {
            h.push(
                Check::UnquotedPath,
                path.clone(),
                format!(
                    "`${name}` is not quoted and its value ({value}) holds a space: the shell splits the path, so the hook exits 127 on every run, a failure that blocks nothing"
                ),
                format!("quote it: \"${name}\"/…"),
            );
            // The programs the split words name would only be noise.
            return;
        }
    }
    let issues = match args {
        Some(args) => {
            check_exec_form_vars(command, args, &path, h);
            command::analyze_exec(command, args, &vars, cx.probe)
        }
        None => command::analyze_shell(command, &vars, cx.probe),
    };
    let here: Vec<String> = issues
        .iter()
        .filter_map(|issue| match issue {
            Issue::NotOnPath { program } => Some(program.clone()),
            _ => None,
        })
        .collect();
    for issue in issues {
        report_issue(issue, &hook.event, tier.enforces_blocks(), &path, h);
    }
    let what = Written {
        text: command,
        args: args.as_deref(),
        vars: &vars,
    };
    not_on_host_path(&what, &here, &path, cx, h);
}

/// A command as the command checks read it.
struct Written<'a> {
    text: &'a str,
    args: Option<&'a [String]>,
    vars: &'a Vars<'a>,
}

/// The PATH a host gives hooks may lack what this shell has (a host started
/// from a desktop launcher or an IDE): each program is checked against the
/// one recorded at the host's last fire too. `here`: the programs already
/// reported as not on PATH here.
fn not_on_host_path(
    what: &Written<'_>,
    here: &[String],
    path: &str,
    cx: &Context<'_>,
    h: &mut HookCx<'_>,
) {
    for (host, host_path) in cx.probe.host_paths() {
        let probe = probe::WithPath {
            inner: cx.probe,
            path: &host_path,
        };
        let there = match what.args {
            Some(args) => command::analyze_exec(what.text, args, what.vars, &probe),
            None => command::analyze_shell(what.text, what.vars, &probe),
        };
        for issue in there {
            let Issue::NotOnPath { program } = issue else {
                continue;
            };
            if here.contains(&program) {
                continue;
            }
            let display = crate::host::HOSTS
                .iter()
                .find(|h| h.id().name() == host)
                .map_or(host.as_str(), |h| h.id().display());
            h.push(
                Check::CommandNotOnHostPath,
                path.to_owned(),
                format!(
                    "runs `{program}`, which is on PATH here but not on the PATH {display} gave hooks at its last fire ({}): there the hook exits 127 on every run, a failure that blocks nothing",
                    host_path.to_string_lossy()
                ),
                format!(
                    "write `{program}`'s full path, or start {display} with a PATH that has it"
                ),
            );
        }
    }
}

/// `$VAR` in exec form: only the braced form is substituted there.
fn check_exec_form_vars(command: &str, args: &[String], path: &str, h: &mut HookCx<'_>) {
    for (i, word) in std::iter::once(command)
        .chain(args.iter().map(String::as_str))
        .enumerate()
    {
        if has_unbraced_var(word) {
            let at = if i == 0 {
                path.to_owned()
            } else {
                format!("{}[{}]", h.field("args"), i - 1)
            };
            h.push(
                Check::ExecFormVariable,
                at,
                format!("{word:?}: exec form runs no shell and substitutes only `${{HOOKRUN_CONFIG_DIR}}`, `${{CLAUDE_PROJECT_DIR}}` and `${{CLAUDE_PLUGIN_ROOT}}`; other `$` text is passed as written"),
                "write the variable with braces (`${HOOKRUN_CONFIG_DIR}`), or drop `args` to use the shell form",
            );
        }
    }
}

fn has_unbraced_var(word: &str) -> bool {
    word.match_indices('$').any(|(i, _)| {
        word[i + 1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    })
}

fn report_issue(issue: Issue, event: &EventId, blocks: bool, path: &str, h: &mut HookCx<'_>) {
    let path = path.to_owned();
    match issue {
        Issue::Missing { word, path: file } => h.push(
            Check::CommandMissing,
            path,
            format!("runs {}, which does not exist: the hook exits 127 on every run, a failure that blocks nothing", located(&word, &file)),
            "fix the path (use \"$HOOKRUN_CONFIG_DIR\"/… or \"$CLAUDE_PROJECT_DIR\"/… for files next to the settings or in the project)",
        ),
        Issue::IsDirectory { word, path: file } => h.push(
            Check::CommandMissing,
            path,
            format!("runs {}, which is a directory: the hook exits 126 on every run", located(&word, &file)),
            "name the script inside it",
        ),
        Issue::NotExecutable { word, path: file } => h.push(
            Check::CommandNotExecutable,
            path,
            format!("runs {word}, which is not executable: the hook exits 126 on every run, a failure that blocks nothing"),
            format!("chmod +x {}", file.display()),
        ),
        Issue::NotOnPath { program } => h.push(
            Check::CommandNotOnPath,
            path,
            format!("runs `{program}`, which is not on PATH here: if the host's PATH lacks it too, the hook exits 127 on every run"),
            format!("install `{program}`, or write its full path"),
        ),
        Issue::Relative { word } => h.push(
            Check::RelativePath,
            path,
            format!("runs {word} relative to the working directory, which is the event's cwd: when the agent works in a sub-folder it is not found"),
            format!("anchor it: \"$CLAUDE_PROJECT_DIR\"/{}", word.trim_start_matches("./")),
        ),
        Issue::ScriptMissing { interpreter, word, path: file, exits_2 } => {
            let effect = if exits_2 && blocks {
                format!("`{interpreter}` exits 2 when its script is missing, and exit 2 blocks: every {} is blocked", event.name())
            } else if exits_2 {
                format!("`{interpreter}` exits 2 when its script is missing: a block, on every run")
            } else {
                "the hook fails on every run, and a failure blocks nothing".to_owned()
            };
            h.push(
                Check::ScriptMissing,
                path,
                format!("`{interpreter}` runs {}, which does not exist: {effect}", located(&word, &file)),
                "fix the script path (use \"$HOOKRUN_CONFIG_DIR\"/… or \"$CLAUDE_PROJECT_DIR\"/…)",
            );
        }
        Issue::ScriptToolMissing { script, tool } => h.push(
            Check::ScriptToolMissing,
            path,
            format!(
                "runs {}, which uses `{tool}` without checking for it, and `{tool}` is not on PATH here: if the host's PATH lacks it too, the script fails on every run, and a guard that reads the event with it may let everything through",
                script.display()
            ),
            format!("install `{tool}`, or make the script fail closed without it: `command -v {tool} >/dev/null || {{ echo \"{tool} is missing\" >&2; exit 2; }}`"),
        ),
        Issue::Recursion => h.push(
            Check::Recursion,
            path,
            "runs `hookrun fire` from a file hookrun loads: every fire starts another fire, so hooks run twice or recurse until the deadline".into(),
            "remove this hook: `hookrun fire` belongs only in the host's settings (e.g. .claude/settings.json), which hookrun should not load",
        ),
    }
}

/// `word`, and where it points when that is not what is written.
fn located(word: &str, path: &Path) -> String {
    if Path::new(word) == path {
        word.to_owned()
    } else {
        format!("{word} ({})", path.display())
    }
}

fn check_timeout(hook: &HookDef, h: &mut HookCx<'_>) {
    let Some(timeout) = hook.timeout else {
        return;
    };
    let path = h.field("timeout");
    let seconds = timeout.as_secs_f64();
    if timeout >= Duration::from_secs(1000) {
        h.push(
            Check::TimeoutMilliseconds,
            path,
            format!(
                "timeout {seconds} is in seconds ({}): it looks like milliseconds",
                human(timeout)
            ),
            format!("write {} for {} ms", seconds / 1000.0, seconds),
        );
        return;
    }
    let host = hook.event.host_timeout();
    let deadline = crate::host::host(crate::host::HostId::default()).default_deadline(&hook.event);
    let grace = crate::exec::Limits::default().kill_grace;
    let (term_at, _) = crate::exec::fit_to_deadline(timeout, deadline, grace);
    if timeout <= host && !crate::exec::fits_deadline(timeout, deadline, grace) {
        h.push(
            Check::TimeoutNoGrace,
            path,
            format!(
                "timeout {seconds} s and the {} s kill grace after it do not fit in the {} s hookrun answers {} within: hookrun sends SIGTERM at {} s so that a hook ignoring it is killed by the deadline",
                grace.as_secs_f64(),
                deadline.as_secs_f64(),
                hook.event.name(),
                term_at.as_secs_f64()
            ),
            format!(
                "lower it to at most {} s (or lower --kill-grace)",
                deadline.saturating_sub(grace).as_secs_f64()
            ),
        );
        return;
    }
    if timeout > host {
        h.push(
            Check::TimeoutExceedsHost,
            path,
            format!(
                "timeout {seconds} s exceeds the {} s the host allows for {}: the host would discard hookrun's whole answer, so hookrun cuts the hook at {} s",
                host.as_secs_f64(),
                hook.event.name(),
                term_at.as_secs_f64()
            ),
            format!(
                "lower it to at most {} s",
                deadline.saturating_sub(grace).as_secs_f64()
            ),
        );
    }
}

#[cfg(test)]
mod tests;

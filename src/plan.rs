//! Planning (SPEC §4–5): the funnel's survivors → planned runs.
//!
//! Pure: nothing is spawned, written or serialised here, so an event that
//! matches no hook costs only selection and this. `fire` runs exactly this
//! plan; `explain`, `list` and `doctor` show it, through the same
//! [`hook_timeout`] and [`program_for`], so they can never give a second
//! opinion. A `once` hook is only marked here ([`Planned::once_key`]): it is
//! claimed when it really starts (see `run`). Whatever running needs of the
//! settings beyond the hook's own entry is read here too ([`EnvPolicy`],
//! [`RequestPolicy`], the keys and flags of [`Planned`]): `run` never sees
//! the settings.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::catalog::{EventId, KnownEvent};
use crate::context::FireContext;
use crate::event::Event;
use crate::exec::Program;
use crate::notices::Notices;
use crate::select::{self, Considered, Layer, Stage};
use crate::settings::model::Policy;
use crate::settings::{
    CommandDef, HookAction, HookDef, HookKind, HttpDef, McpToolDef, OnError, ProblemKind,
    PromptDef, Settings, Severity, ShellKind,
};

/// What planning reads besides the settings and the funnel's answer.
#[derive(Debug, Clone, Copy)]
pub struct PlanInput<'a> {
    pub event: &'a Event,
    pub project_dir: &'a Path,
    /// When the answer is due (the host's default, or `--deadline`).
    pub deadline: Duration,
    /// hookrun's own environment (exec-form substitution reads it).
    pub env: &'a [(OsString, OsString)],
    /// SIGTERM → SIGKILL grace (`--kill-grace`): a command hook's SIGTERM
    /// comes early enough for the grace to end by the deadline.
    pub kill_grace: Duration,
}

impl<'a> PlanInput<'a> {
    /// What planning reads of the fire's context, for `event`.
    pub(crate) fn new(cx: &'a FireContext<'_>, event: &'a Event) -> PlanInput<'a> {
        PlanInput {
            event,
            project_dir: cx.project_dir,
            deadline: cx.deadline,
            env: cx.env(),
            kill_grace: cx.options.limits.kill_grace,
        }
    }
}

/// Every selected hook of one fire and what will be done with it.
#[derive(Debug)]
pub struct Plan {
    /// In load order, one per hook the funnel let through.
    pub hooks: Vec<Planned>,
    /// Hooks run one after another (some runnable hook asked for it).
    pub sequential: bool,
    pub deadline: Duration,
    /// Settings problems, the funnel's and planning's warnings, in order,
    /// and the settings' notes.
    pub notices: Notices,
    /// Settings problems said once per session (a project file that is not
    /// trusted, or changed since): `decide`, which has the state, makes
    /// each a warning the first time and a note afterwards.
    pub per_session: Vec<String>,
    /// What the hooks' environment leaves out (SPEC §9.2).
    pub env: EnvPolicy,
    /// What the planned kinds' requests and calls read from the settings.
    pub requests: RequestPolicy,
}

/// The hooks' environment policy (SPEC §9.2), decided here from `env.keep`
/// and hookrun's own environment; empty when nothing runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvPolicy {
    /// The variables kept out of every hook's environment, sorted:
    /// secret-looking names and a prompt hook's key variables that
    /// `env.keep` does not let through.
    pub scrubbed: Vec<String>,
    /// Those of `scrubbed` a planned hook's command names (the notice).
    pub named: Vec<String>,
}

/// What http, prompt, agent and `mcp_tool` hooks read from the settings
/// when they run, merged here (the defaults when nothing runs).
#[derive(Debug, Default)]
pub struct RequestPolicy {
    /// The http client's policy (http, prompt and agent hooks).
    pub http: crate::http::Policy,
    /// Where prompts go (prompt and agent hooks).
    pub prompt: crate::settings::prompt::Config,
    /// The deny and ask rules about `Read`, for an agent hook's own tools
    /// (SPEC §9.5); read only when an agent hook is planned.
    pub read_rules: Option<Arc<crate::permissions::ReadRules>>,
    /// `mcp_tool` hooks may start servers of a project's `.mcp.json`
    /// without asking (`--trust-project`).
    pub trust_project: bool,
}

impl Plan {
    /// Whether anything will be started.
    pub fn runnable(&self) -> bool {
        self.hooks.iter().any(|p| p.program.is_some())
    }

    /// Whether running it handles hooks' JSON before anyone could check
    /// its depth: a sequential plan feeds each answer to the next hook,
    /// and http and prompt answers are read where they arrive. Command
    /// hooks that run side by side are checked after they ran instead
    /// (see `run::Executed::may_hold_deep_json`).
    pub fn needs_big_stack(&self) -> bool {
        self.sequential
            || self
                .hooks
                .iter()
                .filter_map(|p| p.program.as_ref())
                .any(|program| program.kind().read_where_it_arrives())
    }

    /// The planned run of the funnel's `slot`, if it was planned.
    pub fn for_slot(&self, slot: usize) -> Option<(usize, &Planned)> {
        self.hooks.iter().enumerate().find(|(_, p)| p.slot == slot)
    }
}

/// A selected hook and what will be done with it.
#[derive(Debug, Clone)]
pub struct Planned {
    /// Index into the funnel's `considered`.
    pub slot: usize,
    /// Index into [`Settings::hooks`].
    pub hook: usize,
    pub name: String,
    pub timeout: HookTimeout,
    /// `None`: hookrun cannot run it ([`Planned::unrunnable`] says why).
    pub program: Option<Runnable>,
    pub unrunnable: Option<Unrunnable>,
    /// The directory `HOOKRUN_CONFIG_DIR` names.
    pub config_dir: PathBuf,
    /// Started detached, not waited for (`async` command hooks).
    pub run_async: bool,
    /// `asyncRewake` (with `run_async`): only an exit 2 speaks, later.
    pub async_rewake: bool,
    /// `onError`: what a failure of the hook means.
    pub on_error: OnError,
    /// `once`: the key claimed in the session's state when it starts.
    pub once_key: Option<String>,
    /// The hook's dedup key (see `select::dedup_key`) for a command hook
    /// that may leave processes behind: its leak notice is said once a
    /// session under it.
    pub leak_key: Option<String>,
    /// Planning's own findings about this hook (after the funnel's).
    pub notices: Notices,
}

/// How a planned hook runs, with what its kind needs to run it (shared
/// with the settings, not copied): running never looks back at the hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runnable {
    Command(Program),
    /// An http hook (SPEC §8): its request is made when it runs.
    Http(Arc<HttpDef>),
    /// A prompt hook (or, with `agent`, an agent hook: a prompt hook with
    /// tools): a model is asked when it runs.
    Prompt {
        prompt: Arc<PromptDef>,
        agent: bool,
    },
    /// An `mcp_tool` hook: its server is started when it runs.
    McpTool(Arc<McpToolDef>),
}

impl Runnable {
    /// Its row of the kinds' table: what running it implies (the grace
    /// before the deadline, `async`, where its answer is read).
    pub fn kind(&self) -> HookKind {
        match self {
            Runnable::Command(_) => HookKind::Command,
            Runnable::Http(_) => HookKind::Http,
            Runnable::Prompt { agent: false, .. } => HookKind::Prompt,
            Runnable::Prompt { agent: true, .. } => HookKind::Agent,
            Runnable::McpTool(_) => HookKind::McpTool,
        }
    }
}

/// Why hookrun cannot run a hook.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unrunnable {
    #[error("type {0:?} is not supported by hookrun")]
    Type(String),
    #[error("shell {0:?} is not supported (use \"sh\", \"bash\" or \"powershell\")")]
    Shell(String),
}

/// One hook's timeout, and which limits shortened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookTimeout {
    /// The hook's `timeout`, or the event's default.
    pub configured: Duration,
    /// After managed `maxHookTimeout` (`Some` when it lowered it).
    pub policy_cap: Option<Duration>,
    /// What binds an `async` hook (not this fire's deadline).
    pub own: Duration,
    /// What binds it in this fire: `own`, at most the deadline.
    pub effective: Duration,
    pub capped_by_deadline: bool,
}

/// The one timeout rule (SPEC §3.2, §5.7, §9.4): the hook's own or the
/// event's default, at most managed `maxHookTimeout`, and early enough that
/// the whole SIGTERM → SIGKILL sequence (the kind's share of `kill_grace`,
/// [`HookKind::kill_grace`]) ends by the deadline.
pub fn hook_timeout(
    hook: &HookDef,
    event: &EventId,
    policy: &Policy,
    deadline: Duration,
    kill_grace: Duration,
) -> HookTimeout {
    let kind = hook.action.kind();
    let configured = hook
        .timeout
        .or_else(|| kind.and_then(HookKind::default_timeout))
        .unwrap_or_else(|| event.default_hook_timeout());
    let policy_cap = policy.max_hook_timeout.filter(|max| configured > *max);
    let own = policy_cap.unwrap_or(configured);
    // A type hookrun does not run is given the grace of a process.
    let grace = kind.map_or(kill_grace, |kind| kind.kill_grace(kill_grace));
    let (effective, capped_by_deadline) = crate::exec::fit_to_deadline(own, deadline, grace);
    HookTimeout {
        configured,
        policy_cap,
        own,
        effective,
        capped_by_deadline,
    }
}

/// What exec-form substitution reads (SPEC §3.2): from the plan's input,
/// never from hookrun's process environment directly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecVars {
    /// `${CLAUDE_PROJECT_DIR}`: the host's value, else the project (the
    /// hook's environment always has it).
    pub project_dir: OsString,
    /// `${CLAUDE_PLUGIN_ROOT}`, if the host set it.
    pub plugin_root: Option<OsString>,
}

impl ExecVars {
    pub fn new(env: &[(OsString, OsString)], project_dir: &Path) -> ExecVars {
        let get = |name: &str| {
            env.iter()
                .rev()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        ExecVars {
            project_dir: get("CLAUDE_PROJECT_DIR")
                .unwrap_or_else(|| project_dir.as_os_str().to_owned()),
            plugin_root: get("CLAUDE_PLUGIN_ROOT"),
        }
    }
}

/// What `fire` would start for a hook, or why it cannot run it.
pub fn program_for(
    hook: &HookDef,
    config_dir: &Path,
    vars: &ExecVars,
) -> Result<Runnable, Unrunnable> {
    let CommandDef {
        command,
        args,
        shell,
    } = match &hook.action {
        HookAction::Command(def) => def,
        HookAction::Http(http) => return Ok(Runnable::Http(Arc::clone(http))),
        HookAction::Prompt(prompt) => {
            return Ok(Runnable::Prompt {
                prompt: Arc::clone(prompt),
                agent: false,
            });
        }
        HookAction::Agent(prompt) => {
            return Ok(Runnable::Prompt {
                prompt: Arc::clone(prompt),
                agent: true,
            });
        }
        HookAction::McpTool(mcp) => return Ok(Runnable::McpTool(Arc::clone(mcp))),
        HookAction::Unsupported(def) => return Err(Unrunnable::Type(def.type_name.clone())),
    };
    let command = command.clone();
    if let Some(args) = args {
        let substitute = |text: &str| substitute_exec_vars(text, config_dir.as_os_str(), vars);
        return Ok(Runnable::Command(Program::Exec {
            program: substitute(&command),
            args: args.iter().map(|a| substitute(a)).collect(),
        }));
    }
    match shell {
        ShellKind::Sh => Ok(Runnable::Command(Program::Shell {
            shell: "sh".into(),
            script: command,
        })),
        ShellKind::Bash => Ok(Runnable::Command(Program::Shell {
            shell: "bash".into(),
            script: command,
        })),
        ShellKind::PowerShell => Ok(Runnable::Command(Program::PowerShell {
            script: powershell_script(
                &command,
                hook.event.known() == Some(KnownEvent::PermissionRequest),
            ),
        })),
        ShellKind::Unsupported(shell) => Err(Unrunnable::Shell(shell.clone())),
    }
}

/// Appended to a PowerShell hook's command: the exit 2 of the last program
/// it ran becomes PowerShell's own exit code (checked in two steps, as
/// Claude Code does, so `$?` is read before anything else runs).
const POWERSHELL_PASS_EXIT_2: &str = "\n; if (-not $?) { if ($LASTEXITCODE -eq 2) { exit 2 } }";

/// A `shell: "powershell"` command as PowerShell gets it, made the way
/// Claude Code (2.1.332) makes it:
/// - `${CLAUDE_PROJECT_DIR}` (and the plugin variables) name environment
///   variables in PowerShell only as `${env:NAME}`, so they are rewritten;
/// - `pwsh -Command` exits 1, not 2, when the last program it ran exited
///   2, so a line is added that passes an exit 2 on (a block), except on
///   PermissionRequest, where Claude Code adds none.
pub fn powershell_script(command: &str, permission_request: bool) -> String {
    let mut script = command.to_owned();
    for name in [
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
    ] {
        let braced = format!("${{{name}}}");
        if script.contains(&braced) {
            script = script.replace(&braced, &format!("${{env:{name}}}"));
        }
    }
    if !permission_request {
        script.push_str(POWERSHELL_PASS_EXIT_2);
    }
    script
}

/// Exec form: `${HOOKRUN_CONFIG_DIR}`, `${CLAUDE_PROJECT_DIR}` and
/// `${CLAUDE_PLUGIN_ROOT}` (if set) are substituted as plain strings.
fn substitute_exec_vars(text: &str, config_dir: &OsStr, vars: &ExecVars) -> String {
    let mut out = text.replace("${HOOKRUN_CONFIG_DIR}", &config_dir.to_string_lossy());
    let values = [
        ("${CLAUDE_PROJECT_DIR}", Some(&vars.project_dir)),
        ("${CLAUDE_PLUGIN_ROOT}", vars.plugin_root.as_ref()),
    ];
    for (pattern, value) in values {
        if let Some(value) = value {
            if out.contains(pattern) {
                out = out.replace(pattern, &value.to_string_lossy());
            }
        }
    }
    out
}

/// Turns the funnel's survivors into planned runs, recording why a hook
/// cannot run; collects every warning known before anything runs.
pub fn plan(settings: &Settings, considered: &[Considered], input: &PlanInput<'_>) -> Plan {
    let policy = settings.policy();
    let vars = ExecVars::new(input.env, input.project_dir);
    let mut warnings: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut per_session: Vec<String> = Vec::new();
    for problem in &settings.problems {
        let once = matches!(
            problem.kind,
            ProblemKind::Untrusted | ProblemKind::ChangedSinceTrusted
        );
        match problem.severity {
            Severity::Note => notes.push(problem.to_string()),
            Severity::Warning | Severity::Error if once => per_session.push(problem.to_string()),
            Severity::Warning | Severity::Error => warnings.push(problem.to_string()),
        }
    }
    let mut hooks = Vec::new();
    for (slot, c) in considered.iter().enumerate() {
        warnings.extend(c.notices.warnings.iter().cloned());
        if !c.runs() {
            continue;
        }
        let planned = plan_one(settings, slot, c, input, &policy, &vars);
        warnings.extend(planned.notices.warnings.iter().cloned());
        hooks.push(planned);
    }
    warnings.extend(disabled_summary(settings, considered, &input.event.id));
    let sequential = hooks
        .iter()
        .any(|p| p.program.is_some() && !p.run_async && settings.hooks[p.hook].sequential);
    let runs = hooks.iter().any(|p| p.program.is_some());
    let (env, requests) = if runs {
        (
            env_policy(settings, &hooks, input),
            request_policy(settings, &hooks, input),
        )
    } else {
        Default::default()
    };
    Plan {
        hooks,
        sequential,
        deadline: input.deadline,
        notices: Notices::new(warnings, notes),
        per_session,
        env,
        requests,
    }
}

/// Which variables the hooks do not see, and which of those a planned
/// hook's command names.
fn env_policy(settings: &Settings, hooks: &[Planned], input: &PlanInput<'_>) -> EnvPolicy {
    let keep = settings.env_keep();
    let keys = crate::prompt::keys_to_scrub(settings);
    let scrubbed = crate::hookenv::scrubbed_names(input.env, &keep, &keys);
    if scrubbed.is_empty() {
        return EnvPolicy::default();
    }
    let texts: Vec<&str> = hooks
        .iter()
        .flat_map(|p| {
            let text = settings.hooks[p.hook].action.command_text();
            text.into_iter().flat_map(|(command, args)| {
                std::iter::once(command).chain(args.into_iter().flatten().map(String::as_str))
            })
        })
        .collect();
    let named = crate::hookenv::named_by(&scrubbed, &texts)
        .into_iter()
        .map(str::to_owned)
        .collect();
    EnvPolicy { scrubbed, named }
}

/// The settings the planned kinds read when they run, for those planned.
fn request_policy(settings: &Settings, hooks: &[Planned], input: &PlanInput<'_>) -> RequestPolicy {
    let agent = hooks
        .iter()
        .any(|p| matches!(p.program, Some(Runnable::Prompt { agent: true, .. })));
    RequestPolicy {
        http: crate::http::Policy::from_settings(settings),
        prompt: crate::settings::prompt::Config::from_settings(settings),
        read_rules: agent.then(|| {
            Arc::new(crate::permissions::ReadRules::of(
                settings,
                input.project_dir,
            ))
        }),
        trust_project: settings.trust_project,
    }
}

fn plan_one(
    settings: &Settings,
    slot: usize,
    c: &Considered,
    input: &PlanInput<'_>,
    policy: &Policy,
    vars: &ExecVars,
) -> Planned {
    let hook = &settings.hooks[c.hook];
    let name = hook.display_name();
    let timeout = hook_timeout(
        hook,
        &input.event.id,
        policy,
        input.deadline,
        input.kill_grace,
    );
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    if let Some(max) = timeout.policy_cap {
        notes.push(format!(
            "timeout {:.1} s capped at {:.1} s by managed maxHookTimeout",
            timeout.configured.as_secs_f64(),
            max.as_secs_f64()
        ));
    }
    let config_dir = settings.file_of(hook).dir.clone();
    let kind = hook.action.kind();
    if hook.run_async && kind.is_some_and(|kind| !kind.runs_detached()) {
        warnings.push(format!(
            "hook {name}: `async` is not supported for {} hooks; it ran synchronously",
            hook.kind_name()
        ));
    }
    let (program, unrunnable) = match program_for(hook, &config_dir, vars) {
        Ok(program) => (Some(program), None),
        Err(why) => {
            warnings.push(format!("hook {name}: {why}; it did not run"));
            (None, Some(why))
        }
    };
    // The funnel's key, made when it let the hook through.
    let key = || {
        c.dedup_key
            .as_deref()
            .map_or_else(|| select::dedup_key(hook, &config_dir), str::to_owned)
    };
    let once_key = (hook.once && program.is_some()).then(key);
    let run_async = hook.run_async && kind.is_some_and(HookKind::runs_detached);
    // Only a command hook waited for can leave processes holding its output.
    let leak_key = match (&program, run_async) {
        (Some(Runnable::Command(_)), false) => Some(key()),
        _ => None,
    };
    Planned {
        slot,
        hook: c.hook,
        name,
        timeout,
        program,
        unrunnable,
        config_dir,
        run_async,
        async_rewake: hook.async_rewake(),
        on_error: hook.on_error,
        once_key,
        leak_key,
        notices: Notices::new(warnings, notes),
    }
}

/// One warning for the hooks of this event that `disableAllHooks` stopped.
fn disabled_summary(
    settings: &Settings,
    considered: &[Considered],
    event: &EventId,
) -> Option<String> {
    let disabled: Vec<&Considered> = considered
        .iter()
        .filter(|c| {
            c.stage == Stage::Stopped(Layer::Policy)
                && c.said()
                    .is_some_and(|said| said.starts_with("disableAllHooks"))
        })
        .filter(|c| settings.hooks[c.hook].event == *event)
        .collect();
    let first = disabled.first()?;
    Some(format!(
        "{} hook(s) for {} did not run: {}",
        disabled.len(),
        event.name(),
        first.said().unwrap_or_default()
    ))
}

#[cfg(test)]
mod tests;

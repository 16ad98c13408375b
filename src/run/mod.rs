//! Running (SPEC §5, §8): planned runs → what each hook did.
//!
//! Takes its limits, environment and state explicitly ([`RunInputs`]) and
//! never changes the plan: what running learns (a timeout shortened by the
//! time sequential hooks used, a `once` hook that already ran) is in the
//! result. This module schedules (side by side or one after another, `once`
//! claims); each kind of hook has its own file that starts it and reads
//! what it did: `command` (processes under the supervisor, `exec`, or
//! detached, `asynchook`), `http`, `prompt` (prompt and agent hooks) and
//! `mcp`, all meeting in [`InFlight`]; the kinds that ask and are answered
//! read their [`crate::exchange::Exchange`] in `exchange`. The settings
//! are never read here: what a run needs of them is in the plan.

mod command;
mod env_file;
mod exchange;
mod http;
mod mcp;
mod prompt;
#[cfg(test)]
mod tests;

use std::cell::OnceCell;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::context::FireContext;
use crate::event::{Bytes, Event};
use crate::exec::{Captured, JobReport, Limits, Supervisor};
use crate::hookenv::{self, HookEnv};
use crate::notices::Notices;
use crate::plan::{Plan, Planned, Runnable};
use crate::settings::HookKind;
use crate::state::{self, StateDir};
use crate::verdict::Verdict;

use env_file::EnvFiles;

/// What running reads besides the plan and the event (never the
/// settings: planning read what running needs from them).
#[derive(Debug, Clone, Copy)]
pub struct RunInputs<'a> {
    pub project_dir: &'a Path,
    pub limits: &'a Limits,
    /// hookrun's own environment, the base of every hook's (secrets are
    /// scrubbed from it per hook run, SPEC §9.2).
    pub inherited_env: &'a [(OsString, OsString)],
    /// `once` claims, once-per-session notices, `async` results.
    pub state: Option<&'a StateDir>,
    /// When the fire started (sequential hooks share its deadline).
    pub started: Instant,
}

impl<'a> RunInputs<'a> {
    /// What running reads of the fire's context.
    pub(crate) fn new(cx: &'a FireContext<'_>) -> RunInputs<'a> {
        RunInputs {
            project_dir: cx.project_dir,
            limits: &cx.options.limits,
            inherited_env: cx.env(),
            state: cx.state(),
            started: cx.started,
        }
    }
}

/// What became of one planned hook.
#[derive(Debug)]
pub enum HookRun {
    /// Not started (a setup failure, an interrupt; the warnings say why).
    NotRun,
    /// Not started on purpose.
    Skipped(String),
    /// Started detached; its output arrives with a later fire.
    Async,
    Ran(Box<Ran>),
}

impl HookRun {
    pub fn ran(&self) -> Option<&Ran> {
        match self {
            HookRun::Ran(ran) => Some(ran.as_ref()),
            _ => None,
        }
    }
}

/// A hook that ran.
#[derive(Debug)]
pub struct Ran {
    /// What it did: a process's report or an exchange's, never both.
    pub output: Output,
    pub verdict: Verdict,
    /// The timeout it ran under (the plan's, or less: the time sequential
    /// hooks before it left of the deadline).
    pub timeout: Duration,
    pub capped_by_deadline: bool,
    /// What it answered may be JSON nested too deep for a small stack
    /// ([`crate::stack::may_nest_deep`] of its answer, counted once).
    pub deep_answer: bool,
}

/// What a hook that ran did, by how it ran.
#[derive(Debug)]
pub enum Output {
    /// A command hook: the supervisor's report of its process group.
    Process(JobReport),
    /// An http, prompt, agent or `mcp_tool` hook: a request and its answer.
    Exchange(Exchanged),
}

/// What a request-and-answer hook exchanged.
#[derive(Debug)]
pub struct Exchanged {
    /// Whom it was with: an http hook's endpoint, a prompt or agent
    /// hook's model, an `mcp_tool` hook's server.
    pub kind: HookKind,
    /// The (last) response status, if a response arrived (http, prompt
    /// and agent hooks).
    pub status: Option<u16>,
    /// An MCP server had to be killed after SIGTERM.
    pub killed: bool,
    /// The answer: the response body, the model's text (or the response
    /// body when there was none), the tool's text.
    pub answer: Captured,
    /// What the other side wrote on stderr (an MCP server's; else empty).
    pub stderr: Captured,
    pub timed_out: bool,
    pub duration: Duration,
}

impl Exchanged {
    /// The exit code the report shows: none for a request; a tool call is
    /// shown as exit 0, as it has always been (its server's own exit is
    /// not what the hook answered).
    pub fn exit_code(&self) -> Option<i32> {
        (self.kind == HookKind::McpTool).then_some(0)
    }
}

impl Ran {
    /// A command hook's process report.
    pub fn process(&self) -> Option<&JobReport> {
        match &self.output {
            Output::Process(report) => Some(report),
            Output::Exchange(_) => None,
        }
    }

    /// What a request-and-answer hook exchanged.
    pub fn exchanged(&self) -> Option<&Exchanged> {
        match &self.output {
            Output::Exchange(exchanged) => Some(exchanged),
            Output::Process(_) => None,
        }
    }

    /// What it answered: a process's stdout, an exchange's answer.
    pub fn stdout(&self) -> &Captured {
        match &self.output {
            Output::Process(report) => &report.stdout,
            Output::Exchange(exchanged) => &exchanged.answer,
        }
    }

    pub fn stderr(&self) -> &Captured {
        match &self.output {
            Output::Process(report) => &report.stderr,
            Output::Exchange(exchanged) => &exchanged.stderr,
        }
    }

    pub fn timed_out(&self) -> bool {
        match &self.output {
            Output::Process(report) => report.timed_out,
            Output::Exchange(exchanged) => exchanged.timed_out,
        }
    }

    /// A process (the hook's group, an MCP server) had to be killed after
    /// SIGTERM.
    pub fn killed(&self) -> bool {
        match &self.output {
            Output::Process(report) => report.killed,
            Output::Exchange(exchanged) => exchanged.killed,
        }
    }

    /// Processes it left were still holding its output (only a command
    /// hook's can).
    pub fn leaked(&self) -> bool {
        self.process().is_some_and(|report| report.leaked)
    }

    pub fn duration(&self) -> Duration {
        match &self.output {
            Output::Process(report) => report.duration,
            Output::Exchange(exchanged) => exchanged.duration,
        }
    }

    /// The response status of an http, prompt or agent hook.
    pub fn http_status(&self) -> Option<u16> {
        self.exchanged()?.status
    }
}

/// Everything one fire's hooks did.
#[derive(Debug)]
pub struct Executed {
    /// Parallel to the plan's hooks.
    pub hooks: Vec<HookRun>,
    /// hookrun was signalled while hooks ran.
    pub interrupted: Option<i32>,
    /// Setting up and finishing the run.
    pub notices: Notices,
    /// The result files of the `async` hooks this fire started: never
    /// delivered by this same fire.
    pub async_started: Vec<PathBuf>,
    /// What running found once the hooks ended ([`warnings_after`]): said
    /// after the hooks' own.
    pub after: Notices,
}

impl Executed {
    /// Nothing ran (the plan had nothing runnable).
    pub fn nothing(plan: &Plan) -> Executed {
        Executed {
            hooks: plan.hooks.iter().map(|_| HookRun::NotRun).collect(),
            interrupted: None,
            notices: Notices::default(),
            async_started: Vec::new(),
            after: Notices::default(),
        }
    }

    /// Whether some hook answered with JSON that may nest too deep for a
    /// small stack (what it printed is kept in its report).
    pub fn may_hold_deep_json(&self) -> bool {
        self.hooks
            .iter()
            .filter_map(HookRun::ran)
            .any(|ran| ran.deep_answer)
    }
}

/// Runs the plan: `async` hooks detached, command hooks under the
/// supervisor, the others on their own threads. Sequential plans change
/// `event`'s `tool_input` as hooks update it (SPEC §5.1).
pub fn run(plan: &Plan, event: &mut Event, inputs: &RunInputs<'_>) -> Executed {
    let mut out = Executed::nothing(plan);
    if !plan.runnable() {
        return out;
    }
    let env_files = EnvFiles::new(event, inputs.inherited_env).unwrap_or_else(|err| {
        out.notices.warnings.push(format!(
            "could not give each hook its own CLAUDE_ENV_FILE ({err}); the hooks write to the host's file directly"
        ));
        None
    });
    let base_env = hook_environment(plan, event, inputs, &mut out);
    let cwd = hook_cwd(event, inputs.project_dir);
    // Serialised once (or the host's own line), the same bytes for every
    // hook (sequential hooks get it again only after a hook changed
    // `tool_input`).
    let stdin = event.hook_stdin();
    command::start_async_hooks(plan, &base_env, &cwd, event, &stdin, inputs, &mut out);
    // Signal handling is for hook processes; fires without a command hook
    // to wait for need none.
    let waits = plan
        .hooks
        .iter()
        .any(|p| matches!(p.program, Some(Runnable::Command(_))) && !p.run_async);
    let mut supervisor = None;
    if waits {
        match Supervisor::new() {
            Err(err) => out.notices.warnings.push(format!(
                "hookrun could not set up signal handling ({err}); no command hook ran"
            )),
            Ok(made) => supervisor = Some(made),
        }
    }
    let mut ctx = RunContext {
        inputs,
        base_env,
        shared_env: OnceCell::new(),
        cwd,
        env_files: env_files.as_ref(),
        requests: &plan.requests,
        http: None,
        deadline: plan.deadline,
    };
    if plan.sequential {
        let hooks = &mut out.hooks;
        run_sequential(&mut ctx, supervisor.as_mut(), stdin, event, plan, hooks);
    } else {
        run_parallel(
            &mut ctx,
            supervisor.as_mut(),
            &stdin,
            event,
            plan,
            &mut out.hooks,
        );
    }
    out.interrupted = supervisor.as_ref().and_then(Supervisor::interrupted_by);
    if let Some(files) = env_files {
        if let Err(err) = files.deliver() {
            out.notices.warnings.push(format!(
                "could not append the hooks' environment to CLAUDE_ENV_FILE: {err}"
            ));
        }
    }
    out.after = warnings_after(plan, &out, event, inputs);
    out
}

/// `once` (SPEC §3.2): claimed atomically at the moment the hook starts, so
/// two concurrent fires of one session cannot both run it, and a hook that
/// never started was not "run". Without a session it runs.
/// Claims a `once` hook; returns whether it already ran (then it is not
/// started again).
fn once_taken(p: &Planned, event: &Event, state: Option<&StateDir>) -> bool {
    p.once_key
        .as_ref()
        .is_some_and(|key| !state::first_time(state, event.session_id(), "once", key))
}

fn skipped_once() -> HookRun {
    HookRun::Skipped("once: it already ran in this session".to_owned())
}

/// Gives back a `once` claim for a hook that then could not start.
fn release_once(p: &Planned, event: &Event, state: Option<&StateDir>) {
    if let (Some(key), Some(state), Some(session)) = (&p.once_key, state, event.session_id()) {
        let _ = state.release(session, "once", key);
    }
}

/// hookrun's environment minus secrets (SPEC §9.2), plus what every hook of
/// this event gets. The first fire of a session that removed something says
/// so.
fn hook_environment(
    plan: &Plan,
    event: &Event,
    inputs: &RunInputs<'_>,
    out: &mut Executed,
) -> HookEnv {
    // Secret-looking names, and a prompt hook's API key variables, never
    // reach a hook (the plan's `env` says which).
    let policy = &plan.env;
    let inherited = hookenv::without(inputs.inherited_env, &policy.scrubbed);
    if !policy.scrubbed.is_empty() {
        out.notices.notes.push(format!(
            "kept out of the hooks' environment: {}",
            policy.scrubbed.join(", ")
        ));
        // Said (once a session) only for a name a hook of this fire uses.
        let names = policy.named.join(", ");
        let key = format!("scrubbed:{names}");
        if !names.is_empty() && state::first_time(inputs.state, event.session_id(), "notice", &key)
        {
            out.notices.warnings.push(format!(
                "hookrun kept secret-looking variables out of the hooks' environment: {names}, which a hook's command uses: it sees them unset (let one through with env.keep in your user settings)"
            ));
        }
    }
    HookEnv::for_event(inherited, event, inputs.project_dir)
}

/// The event's `cwd` if it exists, else the project, else hookrun's own
/// directory (a fixture replayed on another machine names paths that are
/// not there).
fn hook_cwd(event: &Event, project_dir: &Path) -> PathBuf {
    event
        .cwd()
        .filter(|dir| dir.is_dir())
        .or_else(|| project_dir.is_dir().then(|| project_dir.to_path_buf()))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// One hook's environment: the event's, plus its own names.
fn hook_env(base: &HookEnv, p: &Planned, env_file: Option<PathBuf>) -> HookEnv {
    let mut env = base.clone();
    env.set("HOOKRUN_CONFIG_DIR", p.config_dir.as_os_str());
    env.set("HOOKRUN_HOOK_NAME", &p.name);
    if let Some(path) = env_file {
        env.set("CLAUDE_ENV_FILE", path);
    }
    env
}

/// What every kind's start and read share within one fire.
struct RunContext<'a> {
    inputs: &'a RunInputs<'a>,
    base_env: HookEnv,
    /// `base_env` as the command hooks share it, built on first use (and
    /// again after a change to `base_env`).
    shared_env: OnceCell<Arc<Vec<(OsString, OsString)>>>,
    cwd: PathBuf,
    env_files: Option<&'a EnvFiles>,
    /// What the kinds' requests read (the plan's).
    requests: &'a crate::plan::RequestPolicy,
    /// Built on the first http, prompt or agent hook of the fire, never
    /// otherwise (see `http::client`).
    http: Option<(Arc<crate::http::Client>, crate::http::Policy)>,
    /// The fire's deadline, from `inputs.started`.
    deadline: Duration,
}

/// A started hook of any kind. [`InFlight::finish`] waits for it (each kind
/// is bounded by its own timeout) and reads what it did into a [`Ran`].
enum InFlight {
    /// Already ended: command hooks run all at once under the supervisor.
    Command(JobReport),
    Http(http::Sending),
    /// A prompt or agent hook, with what its verdict reads.
    Prompt {
        started: crate::prompt::Started,
        prompt: Arc<crate::settings::PromptDef>,
        agent: bool,
    },
    Mcp(mcp::Calling),
}

impl InFlight {
    /// Starts a hook that is not a process under the supervisor; `None`
    /// for a command hook (those start together, see [`Supervisor::run`]).
    fn start(
        ctx: &mut RunContext<'_>,
        event: &Event,
        p: &Planned,
        runnable: &Runnable,
        stdin: &Arc<Bytes>,
        timeout: Duration,
    ) -> Option<InFlight> {
        Some(match runnable {
            Runnable::Command(_) => return None,
            Runnable::Http(def) => InFlight::Http(http::start(ctx, def, stdin, timeout)),
            Runnable::Prompt { prompt, agent } => InFlight::Prompt {
                started: prompt::start(ctx, event, prompt, *agent, stdin, timeout),
                prompt: Arc::clone(prompt),
                agent: *agent,
            },
            Runnable::McpTool(def) => InFlight::Mcp(mcp::start(ctx, event, p, def, timeout)),
        })
    }

    /// Waits for the hook and reads what it did under `timeout`.
    fn finish(
        self,
        event: &Event,
        p: &Planned,
        timeout: Duration,
        capped_by_deadline: bool,
    ) -> Ran {
        match self {
            InFlight::Command(report) => {
                command::read(event, p, report, timeout, capped_by_deadline)
            }
            InFlight::Http(sending) => http::read(event, p, sending.wait(), timeout),
            InFlight::Prompt {
                started,
                prompt,
                agent,
            } => {
                let asked = crate::prompt::Asked {
                    prompt: &prompt,
                    agent,
                    on_error: p.on_error,
                };
                prompt::read(event, p, asked, started.wait(), timeout, capped_by_deadline)
            }
            InFlight::Mcp(calling) => {
                mcp::read(event, p, calling.wait(), timeout, capped_by_deadline)
            }
        }
    }
}

/// Every hook at once: the requests start first, then the supervisor runs
/// the processes, then the answers are collected (each bounded by its
/// timeout).
fn run_parallel(
    ctx: &mut RunContext<'_>,
    supervisor: Option<&mut Supervisor>,
    stdin: &Arc<Bytes>,
    event: &Event,
    plan: &Plan,
    hooks: &mut [HookRun],
) {
    let state = ctx.inputs.state;
    let mut flights = Vec::new();
    for (i, p) in plan.hooks.iter().enumerate() {
        // `async` is not supported for these: they run with the rest.
        let Some(runnable) = p.program.as_ref().filter(|r| !r.kind().runs_detached()) else {
            continue;
        };
        if once_taken(p, event, state) {
            hooks[i] = skipped_once();
        } else if let Some(flight) =
            InFlight::start(ctx, event, p, runnable, stdin, p.timeout.effective)
        {
            flights.push((i, flight));
        }
    }
    let mut interrupted = false;
    if let Some(supervisor) = supervisor {
        let mut indices = Vec::new();
        let mut jobs = Vec::new();
        for (i, p) in plan.hooks.iter().enumerate() {
            if let (Some(Runnable::Command(program)), false) = (&p.program, p.run_async) {
                if once_taken(p, event, state) {
                    hooks[i] = skipped_once();
                } else {
                    jobs.push(ctx.job(p, i, stdin, program.clone(), p.timeout.effective));
                    indices.push(i);
                }
            }
        }
        let reports = supervisor.run(jobs, ctx.inputs.limits);
        for (i, report) in indices.into_iter().zip(reports) {
            let p = &plan.hooks[i];
            let ran = InFlight::Command(report).finish(
                event,
                p,
                p.timeout.effective,
                p.timeout.capped_by_deadline,
            );
            hooks[i] = HookRun::Ran(Box::new(ran));
        }
        interrupted = supervisor.interrupted_by().is_some();
    }
    if interrupted {
        // hookrun exits with 128 + signal; nobody waits for the answers.
        return;
    }
    for (i, flight) in flights {
        let p = &plan.hooks[i];
        let (timeout, capped) = (p.timeout.effective, p.timeout.capped_by_deadline);
        hooks[i] = HookRun::Ran(Box::new(flight.finish(event, p, timeout, capped)));
    }
}

/// One after another in load order; after a hook changes `tool_input`, the
/// next hooks get the event re-serialised with it (SPEC §5.1). Every matched
/// hook runs, even after a block or a timeout.
fn run_sequential(
    ctx: &mut RunContext<'_>,
    mut supervisor: Option<&mut Supervisor>,
    mut stdin: Arc<Bytes>,
    event: &mut Event,
    plan: &Plan,
    hooks: &mut [HookRun],
) {
    let state = ctx.inputs.state;
    for (i, p) in plan.hooks.iter().enumerate() {
        let Some(runnable) = p.program.as_ref().filter(|_| !p.run_async) else {
            continue;
        };
        if supervisor
            .as_ref()
            .is_some_and(|s| s.interrupted_by().is_some())
        {
            break;
        }
        if matches!(runnable, Runnable::Command(_)) && supervisor.is_none() {
            continue;
        }
        let (timeout, capped) = sequential_timeout(ctx, plan, p, runnable);
        if once_taken(p, event, state) {
            hooks[i] = skipped_once();
            continue;
        }
        let flight = match runnable {
            Runnable::Command(program) => {
                let Some(supervisor) = supervisor.as_deref_mut() else {
                    continue;
                };
                let job = ctx.job(p, i, &stdin, program.clone(), timeout);
                let report = supervisor
                    .run(vec![job], ctx.inputs.limits)
                    .into_iter()
                    .next();
                let Some(report) = report else { continue };
                InFlight::Command(report)
            }
            _ => match InFlight::start(ctx, event, p, runnable, &stdin, timeout) {
                Some(flight) => flight,
                None => continue,
            },
        };
        let result = flight.finish(event, p, timeout, capped);
        if let Some(input) = &result.verdict.updated_input {
            if !result.verdict.blocks() && Some(input) != event.tool_input() {
                event.set_tool_input(input.clone());
                ctx.base_env.set_tool_input(event);
                ctx.shared_env = OnceCell::new();
                stdin = event.hook_stdin();
            }
        }
        hooks[i] = HookRun::Ran(Box::new(result));
    }
}

/// A sequential hook's timeout: what is left of the deadline after the
/// hooks before it, its kind's TERM→KILL grace included; whether that cut it.
fn sequential_timeout(
    ctx: &RunContext<'_>,
    plan: &Plan,
    p: &Planned,
    runnable: &Runnable,
) -> (Duration, bool) {
    let left = plan.deadline.saturating_sub(ctx.inputs.started.elapsed());
    let grace = runnable.kind().kill_grace(ctx.inputs.limits.kill_grace);
    let (fit, cut) = crate::exec::fit_to_deadline(p.timeout.effective, left, grace);
    if cut {
        (fit, true)
    } else {
        (p.timeout.effective, p.timeout.capped_by_deadline)
    }
}

/// Leaks (once per session and hook in `systemMessage`, SPEC §5.4) and
/// hooks the deadline cut (§5.7). [`run`] keeps them in
/// [`Executed::after`] (a leak notice is claimed once a
/// session: call it once per fire).
fn warnings_after(
    plan: &Plan,
    executed: &Executed,
    event: &Event,
    inputs: &RunInputs<'_>,
) -> Notices {
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    for (p, run) in plan.hooks.iter().zip(&executed.hooks) {
        let Some(ran) = run.ran() else { continue };
        if ran.leaked() {
            let text = format!(
                "hook {} left processes holding its output; hookrun stopped reading after {} ms and did not kill them",
                p.name,
                inputs.limits.leak_timeout.as_millis()
            );
            // By design for a hook that starts a daemon: once per session
            // and hook in systemMessage, always in the report and the log.
            let key = p.leak_key.as_deref().unwrap_or_default();
            if state::first_time(inputs.state, event.session_id(), "leak", key) {
                warnings.push(text);
            } else {
                notes.push(text);
            }
        }
        if ran.timed_out() && ran.capped_by_deadline {
            warnings.push(format!(
                "hook {} was cut by the deadline ({:.1} s for {}): the host would have discarded a later answer",
                p.name,
                plan.deadline.as_secs_f64(),
                event.id.name()
            ));
        }
    }
    Notices::new(warnings, notes)
}

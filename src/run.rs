//! Running (SPEC §5, §8): planned runs → what each hook did.
//!
//! Takes its limits, environment and state explicitly ([`RunInputs`]) and
//! never changes the plan: what running learns (a timeout shortened by the
//! time sequential hooks used, a `once` hook that already ran) is in the
//! result. Command hooks run under the supervisor (`exec`), http hooks on
//! their own threads (`http`), `async` hooks detached (`asynchook`).

use std::cell::OnceCell;
use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::asynchook;
use crate::event::{Bytes, Event};
use crate::exec::{Captured, Job, JobEnv, JobReport, Limits, Program, Supervisor, Termination};
use crate::hookenv::{self, HookEnv};
use crate::http;
use crate::plan::{Plan, Planned, Runnable};
use crate::select;
use crate::settings::{OnError, Settings};
use crate::state::{self, StateDir};
use crate::verdict::{self, HookOutput, Verdict, ending_of};

/// What running reads besides the plan and the event.
#[derive(Debug, Clone, Copy)]
pub struct RunInputs<'a> {
    pub settings: &'a Settings,
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
    /// For an http hook: `stdout` holds the response body, `termination`
    /// means nothing (see `http`).
    pub report: JobReport,
    pub verdict: Verdict,
    /// `Some` for an http hook.
    pub http: Option<HttpRan>,
    /// The timeout it ran under (the plan's, or less: the time sequential
    /// hooks before it left of the deadline).
    pub timeout: Duration,
    pub capped_by_deadline: bool,
    /// What it answered may be JSON nested too deep for a small stack
    /// ([`crate::stack::may_nest_deep`] of its stdout, counted once).
    pub deep_answer: bool,
}

/// What only an http hook has.
#[derive(Debug)]
pub struct HttpRan {
    /// The response status, if a response arrived.
    pub status: Option<u16>,
}

/// Everything one fire's hooks did.
#[derive(Debug)]
pub struct Executed {
    /// Parallel to the plan's hooks.
    pub hooks: Vec<HookRun>,
    /// hookrun was signalled while hooks ran.
    pub interrupted: Option<i32>,
    /// Setting up and finishing the run (for the person at the host).
    pub warnings: Vec<String>,
    /// Report only.
    pub notes: Vec<String>,
    /// The result files of the `async` hooks this fire started: never
    /// delivered by this same fire.
    pub async_started: Vec<PathBuf>,
}

impl Executed {
    /// Nothing ran (the plan had nothing runnable).
    pub fn nothing(plan: &Plan) -> Executed {
        Executed {
            hooks: plan.hooks.iter().map(|_| HookRun::NotRun).collect(),
            interrupted: None,
            warnings: Vec::new(),
            notes: Vec::new(),
            async_started: Vec::new(),
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
/// supervisor, http hooks on their own threads. Sequential plans change
/// `event`'s `tool_input` as hooks update it (SPEC §5.1).
pub fn run(plan: &Plan, event: &mut Event, inputs: &RunInputs<'_>) -> Executed {
    let mut out = Executed::nothing(plan);
    if !plan.runnable() {
        return out;
    }
    let env_files = EnvFiles::new(event, inputs.inherited_env).unwrap_or_else(|err| {
        out.warnings.push(format!(
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
    start_async_hooks(plan, &base_env, &cwd, event, &stdin, inputs, &mut out);
    // Signal handling is for hook processes; http-only fires need none.
    let waits = plan
        .hooks
        .iter()
        .any(|p| matches!(p.program, Some(Runnable::Command(_))) && !p.run_async);
    let mut supervisor = None;
    if waits {
        match Supervisor::new() {
            Err(err) => out.warnings.push(format!(
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
        http: None,
        deadline: plan.deadline,
    };
    if plan.sequential {
        run_sequential(
            &mut ctx,
            supervisor.as_mut(),
            stdin,
            event,
            plan,
            &mut out.hooks,
        );
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
            out.warnings.push(format!(
                "could not append the hooks' environment to CLAUDE_ENV_FILE: {err}"
            ));
        }
    }
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
    let keep = inputs.settings.env_keep();
    let (mut inherited, mut scrubbed) = hookenv::scrub(inputs.inherited_env.iter().cloned(), &keep);
    // A prompt hook's API key never reaches a command hook.
    crate::prompt::scrub_keys(inputs.settings, &keep, &mut inherited, &mut scrubbed);
    if !scrubbed.is_empty() {
        out.notes.push(format!(
            "kept out of the hooks' environment: {}",
            scrubbed.join(", ")
        ));
        // Said (once a session) only for a name a hook of this fire uses.
        let texts: Vec<&str> = plan
            .hooks
            .iter()
            .flat_map(|p| {
                let hook = &inputs.settings.hooks[p.hook];
                hook.command
                    .as_deref()
                    .into_iter()
                    .chain(hook.args.iter().flatten().map(String::as_str))
            })
            .collect();
        let names = hookenv::named_by(&scrubbed, &texts).join(", ");
        let key = format!("scrubbed:{names}");
        if !names.is_empty() && state::first_time(inputs.state, event.session_id(), "notice", &key)
        {
            out.warnings.push(format!(
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

/// Starts the `async` hooks detached; they are not waited for.
fn start_async_hooks(
    plan: &Plan,
    base_env: &HookEnv,
    cwd: &Path,
    event: &Event,
    stdin: &[u8],
    inputs: &RunInputs<'_>,
    out: &mut Executed,
) {
    for (i, p) in plan.hooks.iter().enumerate() {
        let (true, Some(Runnable::Command(program))) = (p.run_async, &p.program) else {
            continue;
        };
        if once_taken(p, event, inputs.state) {
            out.hooks[i] = skipped_once();
            continue;
        }
        let env = hook_env(base_env, p, None);
        let mut job =
            asynchook::AsyncJob::new(p, event, program.clone(), env, cwd, stdin, inputs.limits);
        job.rewake = inputs.settings.hooks[p.hook].async_rewake();
        if let (Some(key), Some(state), Some(session)) =
            (&p.once_key, inputs.state, event.session_id())
        {
            // Given back by the runner if it cannot run the hook.
            job.once = Some(asynchook::OnceClaim {
                state_root: state.root().to_path_buf(),
                session: session.to_owned(),
                key: key.clone(),
            });
        }
        match asynchook::start(inputs.state, event.session_id(), job) {
            Ok(result) => {
                out.hooks[i] = HookRun::Async;
                out.async_started.extend(result);
            }
            Err(err) => {
                release_once(p, event, inputs.state);
                out.warnings.push(format!(
                    "hook {}: could not start it asynchronously: {err}",
                    p.name
                ));
            }
        }
    }
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

/// Command hooks under the supervisor and http hooks on their own threads,
/// all at once: the requests start first, then the supervisor runs the
/// processes, then the answers are collected (each bounded by its timeout).
fn run_parallel(
    ctx: &mut RunContext<'_>,
    supervisor: Option<&mut Supervisor>,
    stdin: &Arc<Bytes>,
    event: &Event,
    plan: &Plan,
    hooks: &mut [HookRun],
) {
    let state = ctx.inputs.state;
    let mut requests = Vec::new();
    let mut prompts = Vec::new();
    let mut mcp_calls = Vec::new();
    for (i, p) in plan.hooks.iter().enumerate() {
        // `async` is not supported for these: they run with the rest.
        let Some(program @ (Runnable::Http | Runnable::Prompt | Runnable::McpTool)) = &p.program
        else {
            continue;
        };
        if once_taken(p, event, state) {
            hooks[i] = skipped_once();
        } else if matches!(program, Runnable::McpTool) {
            let call = ctx.mcp_call(event, p, p.timeout.effective);
            mcp_calls.push((i, std::thread::spawn(move || crate::mcp::call(&call))));
        } else if matches!(program, Runnable::Http) {
            requests.push((i, ctx.start_http(p, stdin, p.timeout.effective)));
        } else {
            prompts.push((i, ctx.start_prompt(event, p, stdin, p.timeout.effective)));
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
            let (timeout, capped) = (p.timeout.effective, p.timeout.capped_by_deadline);
            hooks[i] = HookRun::Ran(Box::new(ctx.read(event, p, report, timeout, capped)));
        }
        interrupted = supervisor.interrupted_by().is_some();
    }
    if interrupted {
        // hookrun exits with 128 + signal; nobody waits for the answers.
        return;
    }
    for (i, request) in requests {
        let exchange = request.wait();
        let p = &plan.hooks[i];
        hooks[i] = HookRun::Ran(Box::new(ctx.read_http(
            event,
            p,
            &exchange,
            event.tool_input(),
            p.timeout.effective,
        )));
    }
    for (i, prompt) in prompts {
        let reply = prompt.wait();
        let p = &plan.hooks[i];
        hooks[i] = HookRun::Ran(Box::new(ctx.read_prompt(event, p, &reply)));
    }
    for (i, call) in mcp_calls {
        let p = &plan.hooks[i];
        let (timeout, capped) = (p.timeout.effective, p.timeout.capped_by_deadline);
        let outcome = call
            .join()
            .unwrap_or_else(|_| crate::mcp::Outcome::panicked());
        hooks[i] = HookRun::Ran(Box::new(ctx.read_mcp(event, p, &outcome, timeout, capped)));
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
        let left = plan.deadline.saturating_sub(ctx.inputs.started.elapsed());
        // What is left of the deadline, the TERM→KILL sequence included.
        let grace = if matches!(runnable, Runnable::Http | Runnable::Prompt) {
            Duration::ZERO
        } else {
            ctx.inputs.limits.kill_grace
        };
        let (fit, cut) = crate::exec::fit_to_deadline(p.timeout.effective, left, grace);
        let (timeout, capped) = if cut {
            (fit, true)
        } else {
            (p.timeout.effective, p.timeout.capped_by_deadline)
        };
        if once_taken(p, event, state) {
            hooks[i] = skipped_once();
            continue;
        }
        let result = match runnable {
            Runnable::Http => {
                let exchange = ctx.start_http(p, &stdin, timeout).wait();
                ctx.read_http(event, p, &exchange, event.tool_input(), timeout)
            }
            Runnable::Prompt => {
                let reply = ctx.start_prompt(event, p, &stdin, timeout).wait();
                ctx.read_prompt_within(event, p, &reply, timeout, capped)
            }
            Runnable::McpTool => {
                let outcome = crate::mcp::call(&ctx.mcp_call(event, p, timeout));
                ctx.read_mcp(event, p, &outcome, timeout, capped)
            }
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
                ctx.read(event, p, report, timeout, capped)
            }
        };
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

/// Leaks (once per session and hook in `systemMessage`, SPEC §5.4) and
/// hooks the deadline cut (§5.7): `(warnings, notes)`.
pub fn warnings_after(
    plan: &Plan,
    executed: &Executed,
    event: &Event,
    inputs: &RunInputs<'_>,
) -> (Vec<String>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    for (p, run) in plan.hooks.iter().zip(&executed.hooks) {
        let Some(ran) = run.ran() else { continue };
        if ran.report.leaked {
            let text = format!(
                "hook {} left processes holding its output; hookrun stopped reading after {} ms and did not kill them",
                p.name,
                inputs.limits.leak_timeout.as_millis()
            );
            // By design for a hook that starts a daemon: once per session
            // and hook in systemMessage, always in the report and the log.
            let key = select::dedup_key(&inputs.settings.hooks[p.hook], &p.config_dir);
            if state::first_time(inputs.state, event.session_id(), "leak", &key) {
                warnings.push(text);
            } else {
                notes.push(text);
            }
        }
        if ran.report.timed_out && ran.capped_by_deadline {
            warnings.push(format!(
                "hook {} was cut by the deadline ({:.1} s for {}): the host would have discarded a later answer",
                p.name,
                plan.deadline.as_secs_f64(),
                event.id.name()
            ));
        }
    }
    (warnings, notes)
}

struct RunContext<'a> {
    inputs: &'a RunInputs<'a>,
    base_env: HookEnv,
    /// `base_env` as the command hooks share it, built on first use (and
    /// again after a change to `base_env`).
    shared_env: OnceCell<Arc<Vec<(OsString, OsString)>>>,
    cwd: PathBuf,
    env_files: Option<&'a EnvFiles>,
    /// Built on the first http hook of the fire, never otherwise.
    http: Option<(Arc<http::Client>, http::Policy)>,
    /// The fire's deadline, from `inputs.started`.
    deadline: Duration,
}

impl RunContext<'_> {
    /// What every command hook's environment shares: `base_env` without
    /// the names each hook gets its own value of (see [`hook_env`]).
    fn shared_env(&self) -> &Arc<Vec<(OsString, OsString)>> {
        self.shared_env.get_or_init(|| {
            let mut shared = self.base_env.clone();
            shared.remove("HOOKRUN_CONFIG_DIR");
            shared.remove("HOOKRUN_HOOK_NAME");
            if self.env_files.is_some() {
                shared.remove("CLAUDE_ENV_FILE");
            }
            Arc::new(shared.into_vars())
        })
    }

    fn job(
        &self,
        p: &Planned,
        index: usize,
        stdin: &Arc<Bytes>,
        program: Program,
        timeout: Duration,
    ) -> Job {
        let env_file = self.env_files.map(|files| files.path_for(index));
        let own = hook_env(&HookEnv::default(), p, env_file).into_vars();
        Job {
            program,
            env: JobEnv::new(Arc::clone(self.shared_env()), own),
            cwd: self.cwd.clone(),
            stdin: Arc::clone(stdin),
            timeout,
            // Every hook group is killed by the fire's deadline.
            kill_by: Some(self.inputs.started + self.deadline),
        }
    }

    fn read(
        &self,
        event: &Event,
        p: &Planned,
        report: JobReport,
        timeout: Duration,
        capped_by_deadline: bool,
    ) -> Ran {
        let hook = &self.inputs.settings.hooks[p.hook];
        // Only an answer can merge into `tool_input` (the legacy form):
        // a hook that printed nothing has it left undecoded, if it was.
        let tool_input = if report.stdout.bytes.is_empty() {
            None
        } else {
            event.tool_input()
        };
        let ending = ending_of(&report, timeout);
        // Parsing, reading and dropping deep JSON need the big stack.
        let deep = crate::stack::may_nest_deep(&report.stdout.bytes);
        let verdict = crate::stack::on_big_stack_if(deep, || {
            verdict::read(
                &event.id,
                &HookOutput {
                    name: &p.name,
                    ending: &ending,
                    stdout: &report.stdout.bytes,
                    stdout_truncated: report.stdout.truncated(),
                    stderr: &report.stderr.bytes,
                    fail_closed: hook.on_error == OnError::Block,
                    tool_input,
                },
            )
        });
        Ran {
            report,
            verdict,
            http: None,
            timeout,
            capped_by_deadline,
            deep_answer: deep,
        }
    }

    /// Starts an http hook's request on its own thread (SPEC §8); the
    /// client and the merged policy are made on first use.
    fn start_http(&mut self, p: &Planned, body: &Arc<Bytes>, timeout: Duration) -> HttpRun {
        let settings = self.inputs.settings;
        let output_cap = self.inputs.limits.output_cap;
        let (client, policy) = self.http.get_or_insert_with(|| {
            let policy = http::Policy::from_settings(settings);
            let client = http::Client::new(policy.network.clone(), output_cap);
            (Arc::new(client), policy)
        });
        let hook = &settings.hooks[p.hook];
        match http::request(
            hook,
            policy,
            self.inputs.inherited_env,
            Arc::clone(body),
            timeout,
        ) {
            Ok(request) => HttpRun::Sent(http::start(client, request)),
            Err(why) => HttpRun::NotSent(http::not_sent(why.to_string())),
        }
    }

    /// Starts a prompt hook's request on its own thread, through the http
    /// hooks' client and SSRF guard (made on first use).
    fn start_prompt(
        &mut self,
        event: &Event,
        p: &Planned,
        stdin: &Arc<Bytes>,
        timeout: Duration,
    ) -> crate::prompt::Started {
        let settings = self.inputs.settings;
        let output_cap = self.inputs.limits.output_cap;
        let (client, _) = self.http.get_or_insert_with(|| {
            let policy = http::Policy::from_settings(settings);
            let client = http::Client::new(policy.network.clone(), output_cap);
            (Arc::new(client), policy)
        });
        let config = crate::prompt::Config::from_settings(settings);
        if settings.hooks[p.hook].hook_type == crate::settings::HookType::Agent {
            return crate::prompt::agent::start(
                client,
                &settings.hooks[p.hook],
                &config,
                self.inputs.inherited_env,
                event,
                stdin,
                timeout,
                self.inputs.project_dir,
            );
        }
        crate::prompt::start(
            client,
            &settings.hooks[p.hook],
            &config,
            self.inputs.inherited_env,
            event,
            stdin,
            timeout,
        )
    }

    /// A prompt hook's reply as the verdict of one hook.
    fn read_prompt(&self, event: &Event, p: &Planned, reply: &crate::prompt::Reply) -> Ran {
        self.read_prompt_within(
            event,
            p,
            reply,
            p.timeout.effective,
            p.timeout.capped_by_deadline,
        )
    }

    fn read_prompt_within(
        &self,
        event: &Event,
        p: &Planned,
        reply: &crate::prompt::Reply,
        timeout: Duration,
        capped_by_deadline: bool,
    ) -> Ran {
        let hook = &self.inputs.settings.hooks[p.hook];
        let verdict = crate::prompt::verdict(&event.id, &p.name, hook, reply, timeout);
        let report = reply.job_report();
        Ran {
            deep_answer: crate::stack::may_nest_deep(&report.stdout.bytes),
            report,
            verdict,
            http: Some(HttpRan {
                status: reply.status,
            }),
            timeout,
            capped_by_deadline,
        }
    }

    /// What an `mcp_tool` hook's call needs, to run on any thread.
    fn mcp_call(&self, event: &Event, p: &Planned, timeout: Duration) -> crate::mcp::Call {
        let hook = &self.inputs.settings.hooks[p.hook];
        let (server_name, tool, arguments) = hook.mcp.as_ref().map_or_else(
            || (String::new(), String::new(), serde_json::Map::new()),
            |m| {
                let input = crate::mcp::config::substitute_input(&m.input, event.fields());
                (m.server.clone(), m.tool.clone(), input)
            },
        );
        crate::mcp::Call {
            server_name,
            tool,
            arguments,
            places: crate::mcp::Places {
                project_dir: self.inputs.project_dir.to_path_buf(),
                user_file: crate::mcp::Places::user_file_from(self.inputs.inherited_env),
                trust_all: self.inputs.settings.trust_project,
            },
            inherited_env: self.inputs.inherited_env.to_vec(),
            hook_env: hook_env(&self.base_env, p, None).into_vars(),
            cwd: self.cwd.clone(),
            timeout,
            kill_by: Some(self.inputs.started + self.deadline),
            kill_grace: self.inputs.limits.kill_grace,
            output_cap: self.inputs.limits.output_cap,
        }
    }

    /// An `mcp_tool` hook's answer read as the protocol of one hook: the
    /// tool's text like a command hook's stdout on exit 0, a failure
    /// (no server, a failed handshake, an error result) through `onError`.
    fn read_mcp(
        &self,
        event: &Event,
        p: &Planned,
        outcome: &crate::mcp::Outcome,
        timeout: Duration,
        capped_by_deadline: bool,
    ) -> Ran {
        let hook = &self.inputs.settings.hooks[p.hook];
        let ending = match &outcome.answer {
            crate::mcp::Answer::Output => verdict::Ending::Exited(0),
            crate::mcp::Answer::Failed(why) => verdict::Ending::Failed(why.clone()),
            crate::mcp::Answer::TimedOut => verdict::Ending::TimedOut {
                seconds: timeout.as_secs_f64(),
            },
        };
        let answered = outcome.answer == crate::mcp::Answer::Output;
        let stdout: &[u8] = if answered { &outcome.text } else { &[] };
        let deep = crate::stack::may_nest_deep(stdout);
        let mut verdict = crate::stack::on_big_stack_if(deep, || {
            verdict::read(
                &event.id,
                &HookOutput {
                    name: &p.name,
                    ending: &ending,
                    stdout,
                    stdout_truncated: outcome.text_total > outcome.text.len() as u64,
                    stderr: &outcome.stderr,
                    fail_closed: hook.on_error == OnError::Block,
                    tool_input: event.tool_input().filter(|_| !stdout.is_empty()),
                },
            )
        });
        if let Some(warning) = &outcome.warning {
            verdict.warnings.push(format!("hook {}: {warning}", p.name));
        }
        let report = JobReport {
            termination: Termination::Exited(0),
            timed_out: outcome.answer == crate::mcp::Answer::TimedOut,
            killed: outcome.killed,
            leaked: false,
            interrupted: false,
            stdin_unread: false,
            stdout: Captured {
                bytes: outcome.text.clone(),
                total: outcome.text_total,
            },
            stderr: Captured {
                bytes: outcome.stderr.clone(),
                total: outcome.stderr.len() as u64,
            },
            duration: outcome.duration,
        };
        Ran {
            report,
            verdict,
            http: None,
            timeout,
            capped_by_deadline,
            deep_answer: deep,
        }
    }

    /// An http hook's exchange read as the protocol of one hook: a usable
    /// answer is read like a command hook's stdout on exit 0, a failure
    /// goes through `onError` like a failed command.
    fn read_http(
        &self,
        event: &Event,
        p: &Planned,
        exchange: &http::Exchange,
        tool_input: Option<&serde_json::Value>,
        timeout: Duration,
    ) -> Ran {
        let hook = &self.inputs.settings.hooks[p.hook];
        let (ending, stdout) = exchange.protocol(timeout);
        let verdict = verdict::read(
            &event.id,
            &HookOutput {
                name: &p.name,
                ending: &ending,
                stdout,
                stdout_truncated: false,
                stderr: &[],
                fail_closed: hook.on_error == OnError::Block,
                tool_input,
            },
        );
        let report = JobReport {
            termination: Termination::Exited(0),
            timed_out: exchange.answer == http::Answer::TimedOut,
            killed: false,
            leaked: false,
            interrupted: false,
            stdin_unread: false,
            stdout: Captured {
                bytes: exchange.body.clone(),
                total: exchange.body_total,
            },
            stderr: Captured::default(),
            duration: exchange.duration,
        };
        Ran {
            deep_answer: crate::stack::may_nest_deep(&report.stdout.bytes),
            report,
            verdict,
            http: Some(HttpRan {
                status: exchange.status,
            }),
            timeout,
            capped_by_deadline: false,
        }
    }
}

/// An http hook on its way.
enum HttpRun {
    Sent(http::Pending),
    /// Refused before sending (URL allow-list, invalid URL or header).
    NotSent(http::Exchange),
}

impl HttpRun {
    fn wait(self) -> http::Exchange {
        match self {
            HttpRun::Sent(pending) => pending.wait(),
            HttpRun::NotSent(exchange) => exchange,
        }
    }
}

/// `CLAUDE_ENV_FILE` (SPEC §5.2): each hook writes its own file; afterwards
/// they are appended to the host's file in load order, so parallel hooks
/// never interleave or clobber each other.
struct EnvFiles {
    host_file: PathBuf,
    dir: tempfile::TempDir,
}

impl EnvFiles {
    /// `Ok(None)` when the event or the host does not use the file; an
    /// error when hookrun cannot give each hook its own (the caller warns:
    /// the hooks then write to the host's file directly).
    fn new(event: &Event, env: &[(OsString, OsString)]) -> std::io::Result<Option<EnvFiles>> {
        if !event.id.spec().is_some_and(|spec| spec.env_file) {
            return Ok(None);
        }
        let Some(host_file) = env
            .iter()
            .find(|(k, v)| k == "CLAUDE_ENV_FILE" && !v.is_empty())
            .map(|(_, v)| PathBuf::from(v))
        else {
            return Ok(None);
        };
        let dir = tempfile::Builder::new().prefix("hookrun-env-").tempdir()?;
        Ok(Some(EnvFiles { host_file, dir }))
    }

    fn path_for(&self, index: usize) -> PathBuf {
        let path = self.dir.path().join(format!("hook-{index}.sh"));
        // Each hook starts with its own empty file.
        let _ = std::fs::File::create(&path);
        path
    }

    fn deliver(&self) -> std::io::Result<()> {
        let mut parts: Vec<(usize, PathBuf)> = std::fs::read_dir(self.dir.path())?
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                let index = name
                    .strip_prefix("hook-")?
                    .strip_suffix(".sh")?
                    .parse()
                    .ok()?;
                Some((index, entry.path()))
            })
            .collect();
        parts.sort();
        let mut combined = Vec::new();
        for (_, path) in parts {
            // A hook may leave a FIFO or a link here: only a regular file.
            let mut bytes = crate::fsafe::read(&path, crate::fsafe::Follow::No)?;
            if !bytes.is_empty() && !bytes.ends_with(b"\n") {
                bytes.push(b'\n');
            }
            combined.extend(bytes);
        }
        if combined.is_empty() {
            return Ok(());
        }
        let mut file = crate::fsafe::open_append(&self.host_file)?;
        file.write_all(&combined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::PlanInput;
    use crate::select::SelectContext;
    use crate::settings::load::load_bytes;
    use crate::settings::model::{Source, SourceKind};
    use serde_json::json;

    fn settings(json: &serde_json::Value) -> Settings {
        let mut settings = Settings::default();
        let source = Source {
            path: PathBuf::from("/u/settings.json"),
            kind: SourceKind::User,
            claude_mode: false,
            trust_required: false,
        };
        load_bytes(
            &mut settings,
            source,
            PathBuf::from("/u"),
            json.to_string().as_bytes(),
        );
        settings
    }

    /// A Stop event of session `s` and the plan `settings` make for it
    /// (project `/`).
    fn stop_plan(settings: &Settings) -> (Event, Plan) {
        let event = Event::from_object(
            json!({"session_id": "s"}).as_object().cloned().unwrap(),
            Some("Stop"),
        )
        .unwrap();
        let project = Path::new("/");
        let considered = select::select(
            settings,
            &SelectContext {
                event: &event,
                project_dir: project,
                home: None,
            },
        );
        let plan = crate::plan::plan(
            settings,
            &considered,
            &PlanInput {
                event: &event,
                project_dir: project,
                deadline: Duration::from_secs(5),
                env: &[],
                kill_grace: crate::exec::Limits::default().kill_grace,
            },
        );
        (event, plan)
    }

    /// Each job's environment is the shared one plus its own names, and
    /// says exactly what building it whole for the hook would.
    #[test]
    fn a_jobs_environment_is_the_shared_part_and_its_own_names() {
        let settings = settings(&json!({"hooks": {"Stop": [
            {"command": "true", "name": "first"},
            {"command": "true", "name": "second"}
        ]}}));
        let (_, plan) = stop_plan(&settings);
        let project = Path::new("/");
        let limits = Limits::default();
        let inputs = RunInputs {
            settings: &settings,
            project_dir: project,
            limits: &limits,
            inherited_env: &[],
            state: None,
            started: Instant::now(),
        };
        let mut base = HookEnv::default();
        // Inherited values of the names each hook gets its own of.
        base.set("HOOKRUN_HOOK_NAME", "inherited");
        base.set("HOOKRUN_CONFIG_DIR", "/elsewhere");
        base.set("PATH", "/usr/bin:/bin");
        let ctx = RunContext {
            inputs: &inputs,
            base_env: base.clone(),
            shared_env: OnceCell::new(),
            cwd: PathBuf::from("/"),
            env_files: None,
            http: None,
            deadline: Duration::from_secs(5),
        };
        let stdin: Arc<Bytes> = Arc::new(b"{}\n".to_vec().into());
        let seen = |env: &JobEnv| -> std::collections::BTreeMap<OsString, OsString> {
            env.iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect()
        };
        for (index, p) in plan.hooks.iter().enumerate() {
            let program = Program::Shell {
                shell: "sh".into(),
                script: "true".into(),
            };
            let job = ctx.job(p, index, &stdin, program, Duration::from_secs(1));
            let whole: std::collections::BTreeMap<_, _> =
                hook_env(&base, p, None).into_vars().into_iter().collect();
            assert_eq!(seen(&job.env), whole, "hook {index}");
            assert_eq!(job.env.get("HOOKRUN_HOOK_NAME"), Some(p.name.as_ref()));
        }
        assert!(
            ctx.shared_env()
                .iter()
                .all(|(k, _)| k != "HOOKRUN_HOOK_NAME" && k != "HOOKRUN_CONFIG_DIR"),
            "{:?}",
            ctx.shared_env()
        );
    }

    #[test]
    fn a_once_hook_is_claimed_only_when_a_supervisor_runs_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().display().to_string();
        let state = StateDir::locate(|n| (n == "HOOKRUN_STATE_DIR").then(|| root.clone())).unwrap();
        let settings = settings(&json!({"hooks": {"Stop": [{"command": "true", "once": true}]}}));
        let (event, plan) = stop_plan(&settings);
        let project = Path::new("/");
        let limits = Limits::default();
        let inputs = RunInputs {
            settings: &settings,
            project_dir: project,
            limits: &limits,
            inherited_env: &[],
            state: Some(&state),
            started: Instant::now(),
        };
        let mut ctx = RunContext {
            inputs: &inputs,
            base_env: HookEnv::default(),
            shared_env: OnceCell::new(),
            cwd: PathBuf::from("/"),
            env_files: None,
            http: None,
            deadline: Duration::from_secs(5),
        };
        let stdin: Arc<Bytes> = Arc::new(b"{}\n".to_vec().into());
        let mut hooks: Vec<HookRun> = plan.hooks.iter().map(|_| HookRun::NotRun).collect();
        // No supervisor (signal handling could not be set up): nothing ran,
        // so nothing is claimed.
        run_parallel(&mut ctx, None, &stdin, &event, &plan, &mut hooks);
        assert!(matches!(hooks[0], HookRun::NotRun));
        let key = plan.hooks[0].once_key.clone().expect("a once hook");
        assert!(state.claim("s", "once", &key).unwrap(), "still unclaimed");
        // Once claimed, the next start skips it.
        let mut supervisor = Supervisor::new().unwrap();
        run_parallel(
            &mut ctx,
            Some(&mut supervisor),
            &stdin,
            &event,
            &plan,
            &mut hooks,
        );
        assert!(
            matches!(&hooks[0], HookRun::Skipped(why) if why.starts_with("once")),
            "{hooks:?}"
        );
        state.release("s", "once", &key).unwrap();
        run_parallel(
            &mut ctx,
            Some(&mut supervisor),
            &stdin,
            &event,
            &plan,
            &mut hooks,
        );
        assert!(matches!(&hooks[0], HookRun::Ran(_)), "{hooks:?}");
        assert!(
            !state.claim("s", "once", &key).unwrap(),
            "claimed by the run"
        );
    }
}

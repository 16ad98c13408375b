//! The fire pipeline: event + settings → selection → execution → verdicts →
//! aggregate → rendered answer and report.
//!
//! Used by `hookrun fire` and by `hookrun test`, so a policy test exercises
//! exactly what a host would get. Only this module turns selected hooks into
//! [`Job`]s; only `exec` touches processes.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::aggregate::{self, Decision, Entry};
use crate::asynchook;
use crate::auditlog;
use crate::catalog::{Encoding, EventId};
use crate::event::Event;
use crate::exec::{Captured, Job, JobReport, Limits, Program, Supervisor, Termination};
use crate::hookenv::{self, HookEnv};
use crate::http;
use crate::output::{self, Rendered};
use crate::permissions;
use crate::report::{self, FileReport, HookReport, Report, RunReport};
use crate::select::{self, Considered, Layer, SelectContext, Stage};
use crate::settings::{HookDef, HookType, OnError, Settings, Severity, ShellKind};
use crate::state::{self, StateDir};
use crate::verdict::{self, Ending, HookOutput, Outcome, Verdict};

/// How one fire runs.
#[derive(Debug, Clone)]
pub struct FireConfig {
    pub fail_closed: bool,
    pub limits: Limits,
    /// Overrides the default deadline (the host's timeout minus 1 s).
    pub deadline: Option<Duration>,
    pub home: Option<PathBuf>,
    /// hookrun's own environment, the base of every hook's (secrets are
    /// scrubbed from it per hook run, SPEC §9.2).
    pub inherited_env: Vec<(OsString, OsString)>,
    /// `--non-interactive`: a final ask becomes a deny.
    pub non_interactive: bool,
    /// Where once-per-session notices, `once` claims, `async` results and
    /// the stop-loop counter live.
    pub state: Option<StateDir>,
    /// `--log` / `$HOOKRUN_LOG`; else the `log` settings key.
    pub log: Option<PathBuf>,
    /// Consecutive blocked Stop/SubagentStop fires allowed before the next
    /// block is downgraded (`--stop-block-cap`).
    pub stop_block_cap: u32,
    /// Build the full report even without a log (`--format report`); it is
    /// work proportional to the number of configured hooks, skipped when
    /// nobody reads it.
    pub want_report: bool,
}

/// The answer of one fire.
#[derive(Debug)]
pub struct FireResult {
    pub decision: Decision,
    pub rendered: Rendered,
    /// Built when asked for (`want_report`) or when a log is written.
    pub report: Option<Report>,
    /// hookrun was signalled while hooks ran (exit 128 + signal).
    pub interrupted: Option<i32>,
}

/// The default deadline: the host's own timeout for the event minus a
/// margin, so hookrun answers before the host throws the answer away.
pub fn default_deadline(event: &EventId) -> Duration {
    let host = event.host_timeout();
    if host <= Duration::from_secs(2) {
        Duration::from_millis(1200).min(host)
    } else {
        host.saturating_sub(Duration::from_secs(1))
    }
}

/// A selected hook and what will be done with it.
struct Planned {
    /// Index into `considered`.
    slot: usize,
    hook: usize,
    name: String,
    timeout: Duration,
    /// The timeout was shortened to fit the deadline.
    capped_by_deadline: bool,
    /// `None`: not runnable by hookrun (warning already recorded) or
    /// skipped (`skipped` says why).
    program: Option<Runnable>,
    config_dir: PathBuf,
    /// Started detached, not waited for (`async`).
    run_async: bool,
    /// The hook's own timeout before the deadline cap (async hooks are not
    /// bound by this fire's deadline).
    own_timeout: Duration,
    /// Why a selected hook did not run on purpose (`once`).
    skipped: Option<String>,
}

/// How a planned hook runs.
#[derive(Debug, Clone)]
pub enum Runnable {
    Command(Program),
    /// An http hook (SPEC §8): its request is made when it runs.
    Http,
}

/// What became of a planned hook that ran.
struct Ran {
    /// For an http hook: `stdout` holds the response body, `termination`
    /// means nothing (see `http`).
    report: JobReport,
    verdict: Verdict,
    /// `Some` for an http hook.
    http: Option<HttpRan>,
}

/// What only an http hook has.
struct HttpRan {
    /// The response status, if a response arrived.
    status: Option<u16>,
}

/// Runs one event against loaded settings.
pub fn fire(
    event: Event,
    settings: &Settings,
    project_dir: &Path,
    config: &FireConfig,
) -> FireResult {
    let mut run = Run::plan(event, settings, project_dir, config);
    run.execute();
    let decision = run.decide();
    run.answer(decision)
}

/// One fire in progress: what the funnel chose, what ran, what was said.
struct Run<'a> {
    event: Event,
    settings: &'a Settings,
    project_dir: &'a Path,
    config: &'a FireConfig,
    started: Instant,
    deadline: Duration,
    considered: Vec<Considered>,
    planned: Vec<Planned>,
    /// Parallel to `planned`: what became of each hook that ran.
    ran: Vec<Option<Ran>>,
    sequential: bool,
    /// `tool_input` before sequential hooks changed it.
    original_input: Option<serde_json::Value>,
    interrupted: Option<i32>,
    /// For the person at the host (`systemMessage`), in order.
    warnings: Vec<String>,
    /// Report only.
    notes: Vec<String>,
}

impl<'a> Run<'a> {
    /// Selection and planning (SPEC §4): nothing is spawned and nothing is
    /// serialised, so an event that matches no hook costs only this.
    fn plan(
        event: Event,
        settings: &'a Settings,
        project_dir: &'a Path,
        config: &'a FireConfig,
    ) -> Run<'a> {
        let started = Instant::now();
        let deadline = config
            .deadline
            .unwrap_or_else(|| default_deadline(&event.id));
        let cx = SelectContext {
            event: &event,
            project_dir,
            home: config.home.as_deref(),
        };
        let mut considered = select::select_until(settings, &cx, Some(started + deadline));
        let mut warnings: Vec<String> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        for problem in &settings.problems {
            match problem.severity {
                Severity::Note => notes.push(problem.to_string()),
                Severity::Warning | Severity::Error => warnings.push(problem.to_string()),
            }
        }
        let planned = plan(
            settings,
            &mut considered,
            &event,
            deadline,
            settings.policy().max_hook_timeout,
            config.state.as_ref(),
        );
        for c in &considered {
            warnings.extend(c.warnings.iter().cloned());
        }
        warnings.extend(disabled_summary(settings, &considered, &event));
        let sequential = planned
            .iter()
            .any(|p| p.program.is_some() && !p.run_async && settings.hooks[p.hook].sequential);
        let ran = planned.iter().map(|_| None).collect();
        let original_input = event.tool_input().cloned();
        Run {
            event,
            settings,
            project_dir,
            config,
            started,
            deadline,
            considered,
            planned,
            ran,
            sequential,
            original_input,
            interrupted: None,
            warnings,
            notes,
        }
    }

    fn runnable(&self) -> bool {
        self.planned.iter().any(|p| p.program.is_some())
    }

    /// Runs the planned hooks: `async` ones detached, command hooks under
    /// the supervisor, http hooks on their own threads (SPEC §5, §8).
    fn execute(&mut self) {
        if !self.runnable() {
            return;
        }
        let env_files = EnvFiles::new(&self.event, self.config).unwrap_or_else(|err| {
            self.warnings.push(format!(
                "could not give each hook its own CLAUDE_ENV_FILE ({err}); the hooks write to the host's file directly"
            ));
            None
        });
        let base_env = self.hook_environment();
        let cwd = hook_cwd(&self.event, self.project_dir);
        // Serialised once, the same bytes for every hook (sequential hooks
        // get it again only after a hook changed `tool_input`).
        let stdin: Arc<[u8]> = Arc::from(self.event.to_hook_bytes());
        start_async_hooks(
            &self.planned,
            &base_env,
            &cwd,
            &self.event,
            &stdin,
            self.config,
            &mut self.warnings,
        );
        // Signal handling is for hook processes; http-only fires need none.
        let waits = self
            .planned
            .iter()
            .any(|p| matches!(p.program, Some(Runnable::Command(_))) && !p.run_async);
        let mut supervisor = None;
        if waits {
            match Supervisor::new() {
                Err(err) => self.warnings.push(format!(
                    "hookrun could not set up signal handling ({err}); no command hook ran"
                )),
                Ok(made) => supervisor = Some(made),
            }
        }
        let mut ctx = RunContext {
            settings: self.settings,
            config: self.config,
            base_env,
            cwd,
            env_files: env_files.as_ref(),
            http: None,
        };
        if self.sequential {
            run_sequential(
                &mut ctx,
                supervisor.as_mut(),
                stdin,
                &mut self.event,
                &mut self.planned,
                &mut self.ran,
                self.started,
                self.deadline,
            );
        } else {
            run_parallel(
                &mut ctx,
                supervisor.as_mut(),
                &stdin,
                &self.event,
                &self.planned,
                &mut self.ran,
            );
        }
        self.interrupted = supervisor.as_ref().and_then(Supervisor::interrupted_by);
        if let Some(files) = env_files {
            if let Err(err) = files.deliver() {
                self.warnings.push(format!(
                    "could not append the hooks' environment to CLAUDE_ENV_FILE: {err}"
                ));
            }
        }
    }

    /// hookrun's environment minus secrets (SPEC §9.2), plus what every
    /// hook of this event gets. The first fire of a session that removed
    /// something says so.
    fn hook_environment(&mut self) -> HookEnv {
        let (inherited, scrubbed) = hookenv::scrub(
            self.config.inherited_env.iter().cloned(),
            &self.settings.env_keep(),
        );
        if !scrubbed.is_empty() {
            let names = scrubbed.join(", ");
            self.notes
                .push(format!("kept out of the hooks' environment: {names}"));
            let key = format!("scrubbed:{names}");
            if state::first_time(
                self.config.state.as_ref(),
                self.event.session_id(),
                "notice",
                &key,
            ) {
                self.warnings.push(format!(
                    "hookrun kept secret-looking variables out of the hooks' environment: {names} (let one through with env.keep in your user settings)"
                ));
            }
        }
        HookEnv::for_event(inherited, &self.event, self.project_dir)
    }

    /// Verdicts → one decision: aggregation (SPEC §7.1), earlier async
    /// output (§7.4), permissions (§9.3), `--fail-closed`, the stop-loop
    /// guard; then every warning in order.
    fn decide(&mut self) -> Decision {
        // Verdicts in load order, whatever order the hooks finished in.
        let entries: Vec<Entry<'_>> = self
            .planned
            .iter()
            .zip(&self.ran)
            .filter_map(|(p, ran)| {
                ran.as_ref().map(|ran| Entry {
                    name: &p.name,
                    verdict: &ran.verdict,
                })
            })
            .collect();
        let current_input = self.event.tool_input().cloned();
        let final_input = (self.sequential && current_input != self.original_input)
            .then_some(current_input)
            .flatten();
        let mut decision = aggregate::aggregate(&self.event.id, &entries, final_input);
        let mut warnings = std::mem::take(&mut self.warnings);
        deliver_async_results(&mut decision, &self.event, self.config, &mut warnings);
        if matches!(
            self.event.id.encoding(),
            Encoding::PreToolUse | Encoding::PermissionRequest
        ) {
            let rules = permissions::collect(self.settings, self.project_dir);
            warnings.extend(rules.warnings.iter().cloned());
            let outcome = permissions::apply(
                &mut decision,
                &self.event,
                &rules,
                self.project_dir,
                self.config.home.as_deref(),
                self.config.non_interactive,
            );
            self.notes.extend(outcome.note);
            warnings.extend(outcome.overridden);
        }
        let mut run_warnings = self.run_warnings();
        self.fail_closed(&mut decision);
        stop_loop_guard(&mut decision, &self.event, self.config, &mut run_warnings);

        // Settings, funnel and hookrun's warnings first, then the hooks'
        // own (aggregated) ones, then what happened while running.
        warnings.append(&mut decision.warnings);
        warnings.extend(run_warnings);
        decision.warnings = warnings;
        let mut notes = std::mem::take(&mut self.notes);
        notes.append(&mut decision.notes);
        decision.notes = notes;
        if self.event.id.discards_system_message() && !decision.warnings.is_empty() {
            decision.notes.push(format!(
                "{} discards systemMessage: the warnings above reach only this report and the log",
                self.event.id.name()
            ));
        }
        decision
    }

    /// Leaks (once per session and hook in `systemMessage`, SPEC §5.4) and
    /// hooks the deadline cut (§5.7).
    fn run_warnings(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        for (p, ran) in self.planned.iter().zip(&self.ran) {
            let Some(ran) = ran else { continue };
            if ran.report.leaked {
                let text = format!(
                    "hook {} left processes holding its output; hookrun stopped reading after {} ms and did not kill them",
                    p.name,
                    self.config.limits.leak_timeout.as_millis()
                );
                // By design for a hook that starts a daemon: once per
                // session and hook in systemMessage, always in the report
                // and the log.
                let key = select::dedup_key(&self.settings.hooks[p.hook], &p.config_dir);
                if state::first_time(
                    self.config.state.as_ref(),
                    self.event.session_id(),
                    "leak",
                    &key,
                ) {
                    out.push(text);
                } else {
                    self.notes.push(text);
                }
            }
            if ran.report.timed_out && p.capped_by_deadline {
                out.push(format!(
                    "hook {} was cut by the deadline ({:.1} s for {}): the host would have discarded a later answer",
                    p.name,
                    self.deadline.as_secs_f64(),
                    self.event.id.name()
                ));
            }
        }
        out
    }

    /// `--fail-closed`: a settings problem on an event that can block is a
    /// block (SPEC §3.1).
    fn fail_closed(&self, decision: &mut Decision) {
        if !(self.config.fail_closed
            && self.event.id.tier().enforces_blocks()
            && self.settings.has_errors())
        {
            return;
        }
        let problems: Vec<String> = self
            .settings
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        let reason = format!(
            "hookrun --fail-closed: settings problems:\n{}",
            problems.join("\n")
        );
        decision.block = Some(match decision.block.take() {
            Some(existing) => format!("{existing}\n{reason}"),
            None => reason,
        });
        decision.permission = None;
        decision.updated_input = None;
    }

    /// The decision encoded (SPEC §7.2–7.3), reported, and logged (§7.4).
    fn answer(self, mut decision: Decision) -> FireResult {
        let mut rendered = output::render(&self.event.id, &decision);
        let log = self.config.log.clone().or_else(|| self.settings.log_path());
        let mut report = (self.config.want_report || log.is_some()).then(|| {
            build_report(
                &self.event,
                self.settings,
                self.project_dir,
                &self.considered,
                &self.planned,
                &self.ran,
                &decision,
                &rendered,
                self.sequential,
                self.started,
            )
        });
        if let (Some(path), Some(report)) = (log, report.as_mut()) {
            let line = auditlog::Line::from_report(report, SystemTime::now());
            if let Err(err) = auditlog::append(&path, &line) {
                // A log that cannot be written is a warning, never a failed
                // fire.
                decision.warnings.push(err.to_string());
                rendered = output::render(&self.event.id, &decision);
                report.warnings.clone_from(&decision.warnings);
                report.output =
                    serde_json::from_str(&rendered.stdout).unwrap_or(serde_json::Value::Null);
            }
        }
        if self.runnable() {
            if let Some(state) = &self.config.state {
                state.cleanup();
            }
        }
        FireResult {
            decision,
            rendered,
            report,
            interrupted: self.interrupted,
        }
    }
}

/// Starts the `async` hooks detached; they are not waited for.
fn start_async_hooks(
    planned: &[Planned],
    base_env: &HookEnv,
    cwd: &Path,
    event: &Event,
    stdin: &[u8],
    config: &FireConfig,
    warnings: &mut Vec<String>,
) {
    let stdin = String::from_utf8_lossy(stdin);
    for p in planned.iter().filter(|p| p.run_async) {
        let Some(Runnable::Command(program)) = &p.program else {
            continue;
        };
        let mut env = base_env.clone();
        env.set("HOOKRUN_CONFIG_DIR", p.config_dir.as_os_str());
        env.set("HOOKRUN_HOOK_NAME", &p.name);
        let job = asynchook::AsyncJob {
            hook_name: p.name.clone(),
            event: event.id.name().to_owned(),
            program: program.clone(),
            env: env.into_vars(),
            cwd: cwd.to_path_buf(),
            stdin: stdin.clone().into_owned(),
            // Detached: bound by its own timeout, not by this fire's deadline.
            timeout_ms: u64::try_from(p.own_timeout.as_millis()).unwrap_or(u64::MAX),
            result: None,
        };
        if let Err(err) = asynchook::start(config.state.as_ref(), event.session_id(), job) {
            warnings.push(format!(
                "hook {}: could not start it asynchronously: {err}",
                p.name
            ));
        }
    }
}

/// Hands the output of earlier `async` hooks of this session to the host,
/// on an event whose `additionalContext` reaches the model (kept pending
/// otherwise), whether or not any hook matched this fire.
fn deliver_async_results(
    decision: &mut Decision,
    event: &Event,
    config: &FireConfig,
    warnings: &mut Vec<String>,
) {
    let (Some(state), Some(session)) = (&config.state, event.session_id()) else {
        return;
    };
    if !event.id.accepts_context() {
        return;
    }
    let (results, problems) = asynchook::collect(state, session);
    warnings.extend(problems);
    let mut contexts = Vec::new();
    let mut messages = Vec::new();
    for result in results {
        if let Some(context) = result.context.filter(|c| !c.is_empty()) {
            contexts.push(context);
        }
        if let Some(message) = result.system_message.filter(|m| !m.is_empty()) {
            messages.push(message);
        }
        warnings.extend(result.warnings);
    }
    if !contexts.is_empty() {
        // They come from an earlier turn: before this fire's own context.
        contexts.extend(decision.context.take());
        decision.context = Some(contexts.join("\n\n"));
    }
    decision.system_messages.splice(0..0, messages);
}

/// After `stop_block_cap` consecutive blocked Stop/SubagentStop fires of a
/// session, the next block is downgraded: the endless "tests fail →
/// continue → tests fail" loop is the most reported hook bug.
fn stop_loop_guard(
    decision: &mut Decision,
    event: &Event,
    config: &FireConfig,
    warnings: &mut Vec<String>,
) {
    if !matches!(event.id.name(), "Stop" | "SubagentStop") {
        return;
    }
    let (Some(state), Some(session)) = (&config.state, event.session_id()) else {
        return;
    };
    let agent = event
        .fields()
        .get("agent_id")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    let key = format!("{}:{agent}", event.id.name());
    let blocked = decision.block.is_some();
    match state.count_stop_block(session, &key, blocked) {
        Ok((count, problem)) => {
            warnings.extend(problem);
            if blocked && count > config.stop_block_cap {
                let reason = decision.block.take().unwrap_or_default();
                warnings.push(format!(
                    "[hook block ignored] stop-loop guard: {name} was already blocked {cap} times in a row in this session (the cap, --stop-block-cap {cap}), so this block is not enforced and the agent may stop. The block was: {reason}",
                    name = event.id.name(),
                    cap = config.stop_block_cap
                ));
                if let Err(err) = state.reset_stop_blocks(session, &key) {
                    warnings.push(format!("could not reset the stop-loop counter: {err}"));
                }
            }
        }
        Err(err) => warnings.push(format!(
            "stop-loop guard unavailable (state directory: {err})"
        )),
    }
}

/// One warning for the hooks of this event that `disableAllHooks` stopped.
fn disabled_summary(
    settings: &Settings,
    considered: &[Considered],
    event: &Event,
) -> Option<String> {
    let disabled: Vec<&Considered> = considered
        .iter()
        .filter(|c| {
            c.stage == Stage::Stopped(Layer::Policy) && c.detail.starts_with("disableAllHooks")
        })
        .filter(|c| settings.hooks[c.hook].event == event.id)
        .collect();
    let first = disabled.first()?;
    Some(format!(
        "{} hook(s) for {} did not run: {}",
        disabled.len(),
        event.id.name(),
        first.detail
    ))
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

/// Turns the funnel's survivors into planned runs, recording why a hook
/// cannot run.
fn plan(
    settings: &Settings,
    considered: &mut [Considered],
    event: &Event,
    deadline: Duration,
    max_hook_timeout: Option<Duration>,
    state: Option<&StateDir>,
) -> Vec<Planned> {
    let mut planned = Vec::new();
    for (slot, c) in considered.iter_mut().enumerate() {
        if !c.runs() {
            continue;
        }
        let hook = &settings.hooks[c.hook];
        let name = hook.display_name();
        let mut wanted = hook
            .timeout
            .unwrap_or_else(|| event.id.default_hook_timeout());
        if let Some(max) = max_hook_timeout {
            if wanted > max {
                c.notes.push(format!(
                    "timeout {:.1} s capped at {:.1} s by managed maxHookTimeout",
                    wanted.as_secs_f64(),
                    max.as_secs_f64()
                ));
                wanted = max;
            }
        }
        let (timeout, capped_by_deadline) = if wanted > deadline {
            (deadline, true)
        } else {
            (wanted, false)
        };
        let config_dir = settings.file_of(hook).dir.clone();
        let mut skipped = None;
        if hook.run_async && hook.hook_type == HookType::Http {
            c.warnings.push(format!(
                "hook {name}: `async` is not supported for http hooks; it ran synchronously"
            ));
        }
        let program = match program_for(hook, &config_dir) {
            Ok(program) => {
                // `once`: claimed atomically, so two concurrent fires of one
                // session cannot both run it. Without a session it runs.
                let key = select::dedup_key(hook, &config_dir);
                if hook.once && !state::first_time(state, event.session_id(), "once", &key) {
                    skipped = Some("once: it already ran in this session".to_owned());
                    None
                } else {
                    Some(program)
                }
            }
            Err(why) => {
                c.warnings
                    .push(format!("hook {name}: {why}; it did not run"));
                None
            }
        };
        planned.push(Planned {
            slot,
            hook: c.hook,
            name,
            timeout,
            capped_by_deadline,
            program,
            config_dir,
            run_async: hook.run_async && hook.hook_type == HookType::Command,
            own_timeout: wanted,
            skipped,
        });
    }
    planned
}

/// What `fire` would start for a hook, or why it cannot run it. Public so
/// `doctor`, `explain` and `list` report exactly `fire`'s answer.
pub fn program_for(hook: &HookDef, config_dir: &Path) -> Result<Runnable, String> {
    match &hook.hook_type {
        HookType::Command => {}
        HookType::Http => return Ok(Runnable::Http),
        HookType::Unsupported(kind) => {
            return Err(format!("type {kind:?} is not supported by hookrun"));
        }
    }
    let command = hook.command.clone().unwrap_or_default();
    if let Some(args) = &hook.args {
        let dir = config_dir.to_string_lossy();
        let substitute = |text: &str| substitute_exec_vars(text, &dir);
        return Ok(Runnable::Command(Program::Exec {
            program: substitute(&command),
            args: args.iter().map(|a| substitute(a)).collect(),
        }));
    }
    match &hook.shell {
        ShellKind::Sh => Ok(Runnable::Command(Program::Shell {
            shell: "sh".into(),
            script: command,
        })),
        ShellKind::Bash => Ok(Runnable::Command(Program::Shell {
            shell: "bash".into(),
            script: command,
        })),
        ShellKind::Unsupported(shell) => Err(format!(
            "shell {shell:?} is not supported (use \"sh\" or \"bash\")"
        )),
    }
}

/// Exec form: `${HOOKRUN_CONFIG_DIR}`, `${CLAUDE_PROJECT_DIR}` and
/// `${CLAUDE_PLUGIN_ROOT}` (if set) are substituted as plain strings.
fn substitute_exec_vars(text: &str, config_dir: &str) -> String {
    let mut out = text.replace("${HOOKRUN_CONFIG_DIR}", config_dir);
    for var in ["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT"] {
        let pattern = format!("${{{var}}}");
        if out.contains(&pattern) {
            if let Some(value) = std::env::var_os(var) {
                out = out.replace(&pattern, &value.to_string_lossy());
            }
        }
    }
    out
}

struct RunContext<'a> {
    settings: &'a Settings,
    config: &'a FireConfig,
    base_env: HookEnv,
    cwd: PathBuf,
    env_files: Option<&'a EnvFiles>,
    /// Built on the first http hook of the fire, never otherwise.
    http: Option<(Arc<http::Client>, http::Policy)>,
}

impl RunContext<'_> {
    fn job(
        &self,
        p: &Planned,
        index: usize,
        stdin: &Arc<[u8]>,
        program: Program,
        timeout: Duration,
    ) -> Job {
        let mut env = self.base_env.clone();
        env.set("HOOKRUN_CONFIG_DIR", p.config_dir.as_os_str());
        env.set("HOOKRUN_HOOK_NAME", &p.name);
        if let Some(files) = self.env_files {
            env.set("CLAUDE_ENV_FILE", files.path_for(index));
        }
        // Exec form: `${CLAUDE_PROJECT_DIR}` names the project even when the
        // host did not set it (the hook's environment always has it).
        let program = match (program, env.get("CLAUDE_PROJECT_DIR")) {
            (Program::Exec { program, args }, Some(project)) => {
                let project = project.to_string_lossy().into_owned();
                let fill = |text: &str| text.replace("${CLAUDE_PROJECT_DIR}", &project);
                Program::Exec {
                    program: fill(&program),
                    args: args.iter().map(|a| fill(a)).collect(),
                }
            }
            (program, _) => program,
        };
        Job {
            program,
            env: env.into_vars(),
            cwd: self.cwd.clone(),
            stdin: Arc::clone(stdin),
            timeout,
        }
    }

    fn read(
        &self,
        event: &Event,
        p: &Planned,
        report: JobReport,
        tool_input: Option<&serde_json::Value>,
    ) -> Ran {
        let hook = &self.settings.hooks[p.hook];
        let ending = ending_of(&report, p.timeout);
        let verdict = verdict::read(
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
        );
        Ran {
            report,
            verdict,
            http: None,
        }
    }

    /// Starts an http hook's request on its own thread (SPEC §8); the
    /// client and the merged policy are made on first use.
    fn start_http(&mut self, p: &Planned, body: &Arc<[u8]>, timeout: Duration) -> HttpRun {
        let (client, policy) = self.http.get_or_insert_with(|| {
            let policy = http::Policy::from_settings(self.settings);
            let client = http::Client::new(policy.network.clone(), self.config.limits.output_cap);
            (Arc::new(client), policy)
        });
        let hook = &self.settings.hooks[p.hook];
        match http::request(
            hook,
            policy,
            &self.config.inherited_env,
            Arc::clone(body),
            timeout,
        ) {
            Ok(request) => HttpRun::Sent(http::start(client, request)),
            Err(why) => HttpRun::NotSent(http::not_sent(why)),
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
    ) -> Ran {
        let hook = &self.settings.hooks[p.hook];
        let (ending, stdout) = exchange.protocol(p.timeout);
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
            report,
            verdict,
            http: Some(HttpRan {
                status: exchange.status,
            }),
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

fn ending_of(report: &JobReport, timeout: Duration) -> Ending {
    if report.timed_out {
        return Ending::TimedOut {
            seconds: timeout.as_secs_f64(),
        };
    }
    match &report.termination {
        Termination::Exited(code) => Ending::Exited(*code),
        Termination::Signaled(signal) => Ending::Signaled(*signal),
        Termination::SpawnFailed(why) => Ending::NotStarted(why.clone()),
    }
}

/// Command hooks under the supervisor and http hooks on their own threads,
/// all at once: the requests start first, then the supervisor runs the
/// processes, then the answers are collected (each bounded by its timeout).
fn run_parallel(
    ctx: &mut RunContext<'_>,
    supervisor: Option<&mut Supervisor>,
    stdin: &Arc<[u8]>,
    event: &Event,
    planned: &[Planned],
    ran: &mut [Option<Ran>],
) {
    let mut requests = Vec::new();
    for (i, p) in planned.iter().enumerate() {
        if let Some(Runnable::Http) = &p.program {
            requests.push((i, ctx.start_http(p, stdin, p.timeout)));
        }
    }
    let mut indices = Vec::new();
    let mut jobs = Vec::new();
    for (i, p) in planned.iter().enumerate() {
        if let (Some(Runnable::Command(program)), false) = (&p.program, p.run_async) {
            jobs.push(ctx.job(p, i, stdin, program.clone(), p.timeout));
            indices.push(i);
        }
    }
    let tool_input = event.tool_input();
    let mut interrupted = false;
    if let Some(supervisor) = supervisor {
        let reports = supervisor.run(jobs, &ctx.config.limits);
        for (i, report) in indices.into_iter().zip(reports) {
            ran[i] = Some(ctx.read(event, &planned[i], report, tool_input));
        }
        interrupted = supervisor.interrupted_by().is_some();
    }
    if interrupted {
        // hookrun exits with 128 + signal; nobody waits for the answers.
        return;
    }
    for (i, request) in requests {
        let exchange = request.wait();
        ran[i] = Some(ctx.read_http(event, &planned[i], &exchange, tool_input));
    }
}

/// One after another in load order; after a hook changes `tool_input`, the
/// next hooks get the event re-serialised with it (SPEC §5.1). Every matched
/// hook runs, even after a block or a timeout.
#[allow(clippy::too_many_arguments)]
fn run_sequential(
    ctx: &mut RunContext<'_>,
    mut supervisor: Option<&mut Supervisor>,
    mut stdin: Arc<[u8]>,
    event: &mut Event,
    planned: &mut [Planned],
    ran: &mut [Option<Ran>],
    started: Instant,
    deadline: Duration,
) {
    for i in 0..planned.len() {
        let Some(runnable) = planned[i].program.clone().filter(|_| !planned[i].run_async) else {
            continue;
        };
        if supervisor
            .as_ref()
            .is_some_and(|s| s.interrupted_by().is_some())
        {
            break;
        }
        let left = deadline.saturating_sub(started.elapsed());
        if planned[i].timeout > left {
            planned[i].timeout = left.max(Duration::from_millis(1));
            planned[i].capped_by_deadline = true;
        }
        let result = match runnable {
            Runnable::Http => {
                let exchange = ctx
                    .start_http(&planned[i], &stdin, planned[i].timeout)
                    .wait();
                ctx.read_http(event, &planned[i], &exchange, event.tool_input())
            }
            Runnable::Command(program) => {
                let Some(supervisor) = supervisor.as_deref_mut() else {
                    continue;
                };
                let job = ctx.job(&planned[i], i, &stdin, program, planned[i].timeout);
                let report = supervisor
                    .run(vec![job], &ctx.config.limits)
                    .into_iter()
                    .next();
                let Some(report) = report else { continue };
                ctx.read(event, &planned[i], report, event.tool_input())
            }
        };
        if let Some(input) = &result.verdict.updated_input {
            if !result.verdict.blocks() && Some(input) != event.tool_input() {
                event.set_tool_input(input.clone());
                ctx.base_env.set_tool_input(event);
                stdin = Arc::from(event.to_hook_bytes());
            }
        }
        ran[i] = Some(result);
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
    fn new(event: &Event, config: &FireConfig) -> std::io::Result<Option<EnvFiles>> {
        if !event.id.spec().is_some_and(|spec| spec.env_file) {
            return Ok(None);
        }
        let Some(host_file) = config
            .inherited_env
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
            let mut bytes = std::fs::read(path)?;
            if !bytes.is_empty() && !bytes.ends_with(b"\n") {
                bytes.push(b'\n');
            }
            combined.extend(bytes);
        }
        if combined.is_empty() {
            return Ok(());
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.host_file)?;
        file.write_all(&combined)
    }
}

#[allow(clippy::too_many_arguments)]
fn build_report(
    event: &Event,
    settings: &Settings,
    project_dir: &Path,
    considered: &[Considered],
    planned: &[Planned],
    ran: &[Option<Ran>],
    decision: &Decision,
    rendered: &Rendered,
    sequential: bool,
    started: Instant,
) -> Report {
    let mut hooks = Vec::with_capacity(considered.len());
    for (slot, c) in considered.iter().enumerate() {
        let hook = &settings.hooks[c.hook];
        let file = settings.file_of(hook);
        let plan_index = planned.iter().position(|p| p.slot == slot);
        let (state, run, mut warnings, mut notes) = match (&c.stage, plan_index) {
            (Stage::Run, Some(i)) => match &ran[i] {
                Some(r) => (
                    "ran",
                    Some(run_report(r, planned[i].timeout)),
                    r.verdict.warnings.clone(),
                    r.verdict.notes.clone(),
                ),
                None if planned[i].run_async && planned[i].program.is_some() => (
                    "async",
                    None,
                    Vec::new(),
                    vec!["started detached; its output arrives with a later fire".to_owned()],
                ),
                None => match &planned[i].skipped {
                    Some(why) => ("skipped", None, Vec::new(), vec![why.clone()]),
                    None => ("not run", None, Vec::new(), Vec::new()),
                },
            },
            _ => ("stopped", None, Vec::new(), Vec::new()),
        };
        warnings.splice(0..0, c.warnings.iter().cloned());
        notes.splice(0..0, c.notes.iter().cloned());
        hooks.push(HookReport {
            name: hook.display_name(),
            source: file.path().display().to_string(),
            source_kind: file.kind().as_str(),
            json_path: hook.json_path.clone(),
            event: hook.event.name().to_owned(),
            state,
            layer: match &c.stage {
                Stage::Stopped(layer) => Some(layer.as_str()),
                Stage::Run => None,
            },
            detail: c.why(settings, &event.id),
            run,
            warnings,
            notes,
        });
    }
    let output = serde_json::from_str(&rendered.stdout)
        .unwrap_or_else(|_| serde_json::Value::String(rendered.stdout.clone()));
    Report {
        hookrun_version: env!("CARGO_PKG_VERSION"),
        event: event.id.name().to_owned(),
        session_id: event.session_id().map(str::to_owned),
        tool_name: event.tool_name().map(str::to_owned),
        tool_use_id: event.tool_use_id().map(str::to_owned),
        project_dir: project_dir.display().to_string(),
        decision: decision.decision_word().to_owned(),
        reason: decision
            .block
            .clone()
            .or_else(|| decision.permission_reason.clone()),
        exit_code: rendered.exit_code,
        output,
        sequential,
        settings: settings
            .files
            .iter()
            .map(|f| FileReport {
                path: f.path().display().to_string(),
                source: f.kind().as_str(),
                state: f.state.as_str(),
                trust: f.trust.as_str(),
                claude_mode: f.source.claude_mode,
            })
            .collect(),
        hooks,
        warnings: decision.warnings.clone(),
        notes: decision.notes.clone(),
        duration_ms: report::millis(started.elapsed()),
    }
}

fn run_report(ran: &Ran, timeout: Duration) -> RunReport {
    const EXCERPT: usize = 4096;
    let (report, verdict) = (&ran.report, &ran.verdict);
    let (exit_code, signal) = match &report.termination {
        _ if ran.http.is_some() => (None, None),
        Termination::Exited(code) => (Some(*code), None),
        Termination::Signaled(signal) => (
            None,
            Some(
                nix::sys::signal::Signal::try_from(*signal)
                    .map_or_else(|_| signal.to_string(), |s| s.as_str().to_owned()),
            ),
        ),
        Termination::SpawnFailed(_) => (None, None),
    };
    RunReport {
        outcome: verdict.outcome.unwrap_or(Outcome::Success).as_str(),
        exit_code,
        http_status: ran.http.as_ref().and_then(|h| h.status),
        signal,
        timed_out: report.timed_out,
        killed: report.killed,
        leaked: report.leaked,
        duration_ms: report::millis(report.duration),
        timeout_ms: report::millis(timeout),
        block_reason: verdict.block_reason.clone(),
        failure: verdict.failure.clone(),
        stdout: report::excerpt(&report.stdout.bytes, EXCERPT),
        stdout_bytes: report.stdout.total,
        stdout_truncated: report.stdout.truncated(),
        stderr: report::excerpt(&report.stderr.bytes, EXCERPT),
        stderr_bytes: report.stderr.total,
        stderr_truncated: report.stderr.truncated(),
    }
}

//! The fire pipeline, one stage per module:
//! decode → plan → run → aggregate/decide → encode → report/log.
//!
//! Used by `hookrun fire` and by `hookrun test`, so a policy test exercises
//! exactly what a host would get. The host's event arrives decoded
//! ([`crate::event::read_object`], then [`host::Host::decode`], in
//! `commands::fire`); everything between that
//! and [`host::encode`] speaks hookrun's own vocabulary.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::aggregate::Decision;
use crate::auditlog;
use crate::decide::{self, Facts, Policy};
use crate::event::Event;
use crate::exec::Limits;
use crate::host::{self, Decoded, HostId, Rendered};
use crate::plan::{self, PlanInput};
use crate::report::{self, Report};
use crate::run::{self, RunInputs};
use crate::select::{self, SelectContext};
use crate::settings::Settings;
use crate::stack::on_big_stack_if;
use crate::state::StateDir;

/// How one fire runs.
#[derive(Debug, Clone)]
pub struct FireConfig {
    /// Who called: its default deadlines and how the answer is encoded.
    pub host: HostId,
    pub fail_closed: bool,
    pub limits: Limits,
    /// Overrides the host's default deadline (`--deadline`).
    pub deadline: Option<Duration>,
    pub home: Option<PathBuf>,
    /// hookrun's own environment, the base of every hook's.
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
    /// Build the full report even without a log (`--format report`).
    pub want_report: bool,
    /// Said before anything else (the event's name: see
    /// [`crate::catalog::event_name_warnings`]).
    pub input_warnings: Vec<String>,
}

/// The defaults every caller of [`fire`] starts from (`fire`, `test`,
/// `replay --run`), written once: set the fields that differ with struct
/// update syntax (`FireConfig { log, ..FireConfig::new(host) }`).
impl FireConfig {
    pub fn new(host: HostId) -> FireConfig {
        FireConfig {
            host,
            fail_closed: false,
            limits: Limits::default(),
            deadline: None,
            home: None,
            inherited_env: Vec::new(),
            non_interactive: false,
            state: None,
            log: None,
            stop_block_cap: host::mapping::DEFAULT_STOP_BLOCK_CAP,
            want_report: false,
            input_warnings: Vec::new(),
        }
    }
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
    /// The answer may hold JSON nested too deep for the stack the fire
    /// started on: render and drop it on a big one (see
    /// [`crate::stack::on_big_stack`]).
    pub needs_big_stack: bool,
}

/// Runs one decoded event against loaded settings:
/// decode (done) → select → plan → run → decide → encode → report/log.
pub fn fire(
    input: Decoded,
    settings: &Settings,
    project_dir: &Path,
    config: &FireConfig,
) -> FireResult {
    let started = Instant::now();
    let host = host::host(config.host);
    let Decoded {
        mut event,
        notes,
        warnings: decode_warnings,
        fire_no_hooks,
        ..
    } = input;
    // What was wrong with the event's name first, then the host's.
    let mut warnings = config.input_warnings.clone();
    warnings.extend(decode_warnings);
    warnings.extend(crate::diagnose::fire_warnings(settings, &event.id));
    let deadline = config
        .deadline
        .unwrap_or_else(|| host.default_deadline(&event.id));
    let home = config.home.as_deref();
    // The deadline covers selection too (a matcher's time budget).
    // An event the host sent where it is not one (`notes` says why).
    let considered = if fire_no_hooks {
        Vec::new()
    } else {
        select::select_until(
            settings,
            &SelectContext {
                event: &event,
                project_dir,
                home,
            },
            Some(started + deadline),
        )
    };
    let plan = plan::plan(
        settings,
        &considered,
        &config.plan_input(&event, project_dir, deadline),
    );

    let inputs = config.run_inputs(settings, project_dir, started);
    // Deep JSON needs the big stack (see `on_big_stack`): a deep event has
    // brought the whole fire onto it already. Hooks whose answers feed the
    // next hook or come from elsewhere run on it from the start; command
    // hooks run here, and only an answer that may be deep moves the rest.
    let up_front = plan.needs_big_stack();
    on_big_stack_if(up_front, || {
        let executed = run::run(&plan, &mut event, &inputs);
        let deep = up_front || executed.may_hold_deep_json();
        on_big_stack_if(deep, || {
            let mut result = finish(Finish {
                started,
                host,
                settings,
                project_dir,
                config,
                inputs: &inputs,
                considered: &considered,
                plan: &plan,
                event: &event,
                executed: &executed,
                warnings,
                notes,
            });
            result.needs_big_stack = deep;
            // Dropped here, on the stack their depth needs.
            drop((executed, event));
            result
        })
    })
}

/// What [`finish`] reads: the fire so far.
struct Finish<'a> {
    started: Instant,
    host: &'static dyn host::Host,
    settings: &'a Settings,
    project_dir: &'a Path,
    config: &'a FireConfig,
    inputs: &'a RunInputs<'a>,
    considered: &'a [select::Considered],
    plan: &'a plan::Plan,
    event: &'a Event,
    executed: &'a run::Executed,
    warnings: Vec<String>,
    notes: Vec<String>,
}

/// decide → encode → report/log, once the hooks ran.
fn finish(f: Finish<'_>) -> FireResult {
    let Finish {
        started,
        host,
        settings,
        project_dir,
        config,
        inputs,
        considered,
        plan,
        event,
        executed,
        warnings,
        notes,
    } = f;
    let mut warnings = warnings;
    // Said, not only logged: deep JSON handled without its stack.
    warnings.extend(crate::stack::take_fallback_warning());
    // Kept by the event itself when a sequential hook replaced it: never a
    // copy of a large input on the way (and, when none did, nothing read).
    let original_input = event.tool_input_before_replacement();

    let facts = Facts {
        plan,
        executed,
        event,
        original_input,
        warnings,
        notes,
    };
    let mut decision = decide::decide(facts, &config.policy(settings, project_dir), inputs);
    carry_context(host, event, config.state.as_ref(), &mut decision);
    let mut rendered = host::encode(host, event, &mut decision);

    let log = config.log.clone().or_else(|| settings.log_path());
    let mut report = (config.want_report || log.is_some()).then(|| {
        report::build(&report::Sources {
            event,
            settings,
            project_dir,
            considered,
            plan,
            executed,
            decision: &decision,
            rendered: &rendered,
            started,
        })
    });
    if let (Some(path), Some(report)) = (log, report.as_mut()) {
        let mut line = auditlog::Line::from_report(report, SystemTime::now());
        line.input = auditlog::input_for_log(&config.inherited_env, event, original_input);
        if let Err(err) = auditlog::append(&path, &line) {
            // A log that cannot be written is a warning, never a failed fire.
            decision.warnings.push(err.to_string());
            rendered = host::encode(host, event, &mut decision);
            report::update_answer(report, &decision, &rendered);
        }
    }
    if plan.runnable() {
        if let Some(state) = &config.state {
            state.cleanup();
        }
    }
    FireResult {
        decision,
        rendered,
        report,
        interrupted: executed.interrupted,
        needs_big_stack: false,
    }
}

/// A host whose before-tool answer cannot carry context (Gemini CLI) gets
/// it on the same call's after-tool answer instead: kept at PreToolUse when
/// the call may run, taken at PostToolUse, before that fire's own context.
fn carry_context(
    host: &dyn host::Host,
    event: &Event,
    state: Option<&StateDir>,
    decision: &mut Decision,
) {
    let before = event.id == crate::catalog::EventId::Known("PreToolUse");
    if !before && event.id != crate::catalog::EventId::Known("PostToolUse") {
        return;
    }
    let (Some(state), Some(session)) = (state, event.session_id()) else {
        return;
    };
    if before {
        let runs = decision.block.is_none()
            && !matches!(
                decision.permission,
                Some(crate::verdict::Permission::Deny | crate::verdict::Permission::Ask)
            );
        let Some(context) = decision.context.as_deref().filter(|_| runs) else {
            return;
        };
        let Some(key) = host.carry_key(event, decision.updated_input.as_ref()) else {
            return;
        };
        match crate::carry::save(state, session, &key, context) {
            Ok(()) => {
                decision.context = None;
                decision.notes.push(format!(
                    "additionalContext kept for this call's answer after the tool ({} cannot show it before one)",
                    host.id().display()
                ));
            }
            Err(err) => decision.warnings.push(format!(
                "could not keep the context for after the tool: {err}"
            )),
        }
    } else if let Some(key) = host.carry_key(event, None) {
        if let Some(carried) = crate::carry::take(state, session, &key) {
            let mut contexts = vec![carried];
            contexts.extend(decision.context.take());
            decision.context = Some(contexts.join(crate::aggregate::CONTEXT_SEPARATOR));
            decision
                .notes
                .push("additionalContext kept from before this tool call added first".to_owned());
        }
    }
}

impl FireConfig {
    fn plan_input<'a>(
        &'a self,
        event: &'a Event,
        project_dir: &'a Path,
        deadline: Duration,
    ) -> PlanInput<'a> {
        PlanInput {
            event,
            project_dir,
            deadline,
            env: &self.inherited_env,
            kill_grace: self.limits.kill_grace,
        }
    }

    fn run_inputs<'a>(
        &'a self,
        settings: &'a Settings,
        project_dir: &'a Path,
        started: Instant,
    ) -> RunInputs<'a> {
        RunInputs {
            settings,
            project_dir,
            limits: &self.limits,
            inherited_env: &self.inherited_env,
            state: self.state.as_ref(),
            started,
        }
    }

    fn policy<'a>(&'a self, settings: &'a Settings, project_dir: &'a Path) -> Policy<'a> {
        Policy {
            settings,
            project_dir,
            home: self.home.as_deref(),
            fail_closed: self.fail_closed,
            non_interactive: self.non_interactive,
            state: self.state.as_ref(),
            stop_block_cap: self.stop_block_cap,
            host: self.host,
        }
    }
}

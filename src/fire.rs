//! The fire pipeline, one stage per module:
//! decode → plan → run → aggregate/decide → encode → report/log.
//!
//! Used by `hookrun fire` and by `hookrun test`, so a policy test exercises
//! exactly what a host would get. The host's event arrives decoded
//! ([`crate::event::read_object`], then [`host::Host::decode`], in
//! `commands::fire`); everything between that
//! and [`host::adapt`] speaks hookrun's own vocabulary.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::aggregate::Decision;
use crate::auditlog;
use crate::context::{FireContext, Notices};
use crate::decide::{self, Facts};
use crate::event::Event;
use crate::exec::Limits;
use crate::host::{self, Decoded, HostId, Rendered};
use crate::plan;
use crate::report::{self, Report};
use crate::run;
use crate::select;
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
    let Decoded {
        mut event,
        notes,
        warnings: decode_warnings,
        fire_no_hooks,
        ..
    } = input;
    let cx = config.context(settings, project_dir, &event, started);
    // What was wrong with the event's name first, then the host's, then
    // the settings' mistakes for this event.
    let mut notices = Notices::new(config.input_warnings.clone(), notes);
    notices.warnings.extend(decode_warnings);
    notices
        .warnings
        .extend(select::mistakes::fire_warnings(settings, &event.id));
    // The deadline covers selection too (a matcher's time budget), and
    // every rule's reading of the call.
    crate::permissions::read_within(&event, cx.until());
    // An event the host sent where it is not one (`notes` says why).
    let considered = if fire_no_hooks {
        Vec::new()
    } else {
        select::select_until(settings, &cx.select_context(&event), Some(cx.until()))
    };
    let plan = plan::plan(settings, &considered, &cx.plan_input(&event));

    let inputs = cx.run_inputs();
    // Deep JSON needs the big stack (see `on_big_stack`): a deep event has
    // brought the whole fire onto it already. Hooks whose answers feed the
    // next hook or come from elsewhere run on it from the start; command
    // hooks run here, and only an answer that may be deep moves the rest.
    let up_front = plan.needs_big_stack();
    on_big_stack_if(up_front, || {
        let executed = run::run(&plan, &mut event, &inputs);
        // Run's own account of what happened once every hook was done.
        let (warnings, notes) = executed.after_run();
        let deep = up_front || executed.may_hold_deep_json();
        on_big_stack_if(deep, || {
            let mut result = finish(
                &cx,
                Fired {
                    considered: &considered,
                    plan: &plan,
                    event: &event,
                    executed: &executed,
                    notices,
                    after_run: Notices::new(warnings, notes),
                },
            );
            result.needs_big_stack = deep;
            // Dropped here, on the stack their depth needs.
            drop((executed, event));
            result
        })
    })
}

/// The fire so far, once the hooks ran: what [`finish`] reads besides the
/// context.
struct Fired<'a> {
    considered: &'a [select::Considered],
    plan: &'a plan::Plan,
    event: &'a Event,
    executed: &'a run::Executed,
    /// Said before planning.
    notices: Notices,
    /// Run's, after every hook was done.
    after_run: Notices,
}

/// decide → encode → report/log, once the hooks ran.
fn finish(cx: &FireContext<'_>, fired: Fired<'_>) -> FireResult {
    let Fired {
        considered,
        plan,
        event,
        executed,
        mut notices,
        after_run,
    } = fired;
    // Said, not only logged: deep JSON handled without its stack.
    notices
        .warnings
        .extend(crate::stack::take_fallback_warning());
    // Kept by the event itself when a sequential hook replaced it: never a
    // copy of a large input on the way (and, when none did, nothing read).
    let original_input = event.tool_input_before_replacement();

    let facts = Facts {
        plan,
        executed,
        event,
        original_input,
        notices,
        after_run,
    };
    let mut decision = decide::decide(cx, facts);
    let host = cx.host();
    crate::carry::carry_context(host, event, cx.state, &mut decision);

    let log_path = cx
        .log
        .map(Path::to_path_buf)
        .or_else(|| cx.settings.log_path());
    // Opened before encoding: a log that cannot be opened is a warning
    // (never a failed fire) the one encoding already says, after what the
    // host cannot express (its adaptation, worked out before encoding).
    let log = log_path
        .as_deref()
        .and_then(|path| match auditlog::open(path) {
            Ok(log) => Some(log),
            Err(err) => {
                decision.warnings.push(err.to_string());
                None
            }
        });
    let late = usize::from(log_path.is_some() && log.is_none());
    let adapted = host::adapt(host, event, &mut decision, late);
    let mut rendered = host::render(host, event, &mut decision, &adapted);

    let mut report = (cx.want_report || log_path.is_some()).then(|| {
        report::build(
            cx,
            &report::Sources {
                event,
                considered,
                plan,
                executed,
                decision: &decision,
                rendered: &rendered,
            },
        )
    });
    if let (Some(log), Some(report)) = (log, report.as_mut()) {
        let mut line = auditlog::Line::from_report(report, SystemTime::now());
        line.input = auditlog::input_for_log(cx.env, event, original_input);
        if let Err(err) = log.append(&line) {
            // Only the write itself failed (the lock, the disk): said too.
            // The decision is adapted already, and how it was mapped noted.
            decision.warnings.push(err.to_string());
            rendered = host::render_again(host, event, &decision, &adapted);
            report::update_answer(report, &decision, &rendered);
        }
    }
    if plan.runnable() {
        if let Some(state) = cx.state {
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

impl FireConfig {
    /// What is fixed for this fire of `event`, built once.
    fn context<'a>(
        &'a self,
        settings: &'a Settings,
        project_dir: &'a Path,
        event: &Event,
        started: Instant,
    ) -> FireContext<'a> {
        let deadline = self
            .deadline
            .unwrap_or_else(|| host::host(self.host).default_deadline(&event.id));
        FireContext {
            settings,
            project_dir,
            home: self.home.as_deref(),
            host: self.host,
            started,
            deadline,
            limits: self.limits,
            env: &self.inherited_env,
            state: self.state.as_ref(),
            fail_closed: self.fail_closed,
            non_interactive: self.non_interactive,
            stop_block_cap: self.stop_block_cap,
            log: self.log.as_deref(),
            want_report: self.want_report,
        }
    }
}

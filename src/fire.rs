//! The fire pipeline, one stage per module:
//! input → select → plan → run → decide → encode → report/log.
//!
//! Used by `hookrun fire`, `hookrun test` and `replay --run`, so a policy
//! test exercises exactly what a host would get. The host's event arrives
//! decoded by the input stage ([`crate::input::decode`]); everything
//! between that and [`host::adapt`] speaks hookrun's own vocabulary.

use std::path::Path;
use std::time::SystemTime;

use crate::aggregate::Decision;
use crate::auditlog;
use crate::context::{FireContext, FireOptions};
use crate::decide::{self, Facts};
use crate::event::Event;
use crate::host::{self, Rendered};
use crate::input::Input;
use crate::notices::Notices;
use crate::plan::{self, PlanInput};
use crate::report::{self, Report};
use crate::run::{self, RunInputs};
use crate::select::{self, SelectContext};
use crate::settings::Settings;
use crate::stack::on_big_stack_if;

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
/// input (done) → select → plan → run → decide → encode → report/log.
pub fn fire(
    input: Input,
    settings: &Settings,
    project_dir: &Path,
    options: FireOptions,
) -> FireResult {
    let cx = FireContext::new(options, &input, settings, project_dir);
    let Input {
        mut event,
        fire_no_hooks,
        mut notices,
        ..
    } = input;
    // After what the input stage said: the settings' mistakes for this
    // event.
    notices
        .warnings
        .extend(select::mistakes::fire_warnings(settings, &event.id));
    // The deadline covers selection too (a matcher's time budget), and
    // every rule's reading of the call.
    crate::permissions::read_within(&event, cx.until());
    // An event the host sent where it is not one (a note says why).
    let considered = if fire_no_hooks {
        Vec::new()
    } else {
        select::select_until(settings, &SelectContext::new(&cx, &event), Some(cx.until()))
    };
    let plan = plan::plan(settings, &considered, &PlanInput::new(&cx, &event));

    let inputs = RunInputs::new(&cx);
    // Deep JSON needs the big stack (see `on_big_stack`): a deep event has
    // brought the whole fire onto it already. Hooks whose answers feed the
    // next hook or come from elsewhere run on it from the start; command
    // hooks run here, and only an answer that may be deep moves the rest.
    let up_front = plan.needs_big_stack();
    on_big_stack_if(up_front, || {
        let executed = run::run(&plan, &mut event, &inputs);
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
}

/// decide → encode → report/log, once the hooks ran.
fn finish(cx: &FireContext<'_>, fired: Fired<'_>) -> FireResult {
    let Fired {
        considered,
        plan,
        event,
        executed,
        mut notices,
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
    };
    let mut decision = decide::decide(cx, facts);
    let host = cx.host();
    crate::carry::carry_context(host, event, cx.state(), &mut decision);
    // What the host cannot express, said after everything the fire said.
    let adapted = host::adapt(host, event, &mut decision);

    let log_path = cx
        .log()
        .map(Path::to_path_buf)
        .or_else(|| cx.settings.log_path());
    let mut report = (cx.options.want_report || log_path.is_some()).then(|| {
        report::build(
            cx,
            &report::Sources {
                event,
                considered,
                plan,
                executed,
                decision: &decision,
                exit: host::exit(host, event, &decision, &adapted),
            },
        )
    });
    // Written before the answer is encoded: a log that cannot be opened or
    // written is a warning (never a failed fire), said last by the one
    // encoding.
    if let (Some(path), Some(report)) = (&log_path, &report) {
        let mut line = auditlog::Line::from_report(report, SystemTime::now());
        line.input = auditlog::input_for_log(cx.env(), event, original_input);
        if let Err(err) = auditlog::open(path).and_then(|log| log.append(&line)) {
            decision.notices.warn(err.to_string());
        }
    }
    let rendered = host::render(host, event, &mut decision, &adapted);
    if let Some(report) = report.as_mut() {
        report::answered(report, &decision, &rendered);
    }
    if plan.runnable() {
        if let Some(state) = cx.state() {
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

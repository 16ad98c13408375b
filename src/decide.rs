//! Deciding (SPEC §7.1, §7.4, §9.3, §3.1): what the hooks did → the one
//! decision the host gets.
//!
//! Aggregation over the verdicts in load order (whatever order the hooks
//! finished in), then the post-aggregate policy, in this order: earlier
//! `async` output, permission rules, `--fail-closed`, the stop-loop guard;
//! then every warning and note in a fixed order.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::aggregate::{self, Decision, Entry};
use crate::asynchook;
use crate::context::FireContext;
use crate::event::Event;
use crate::notices::Notices;
use crate::permissions;
use crate::plan::Plan;
use crate::run::Executed;
use crate::selfguard;
use crate::settings::Severity;
use crate::verdict::Permission;

/// How long the rules may judge the call when the hooks used the whole
/// deadline: past it, what is left is "cannot judge".
const RULES_GRACE: Duration = Duration::from_millis(100);

/// What the fire knew before deciding.
#[derive(Debug)]
pub struct Facts<'a> {
    pub plan: &'a Plan,
    pub executed: &'a Executed,
    /// The event after running (sequential hooks may have changed
    /// `tool_input`).
    pub event: &'a Event,
    /// `tool_input` before sequential hooks changed it (`None` when none
    /// did: then it is the event's).
    pub original_input: Option<&'a Value>,
    /// Said before planning (the event's name, the host's decoding, the
    /// settings' mistakes for this event).
    pub notices: Notices,
}

/// Verdicts → one decision, with every warning and note in the order it
/// is said: what was said before planning, planning's (and the
/// once-a-session ones), running's, earlier async output and the rules',
/// then the hooks' own (aggregated), then what running found once they
/// were done (leaks, hooks the deadline cut) and the stop-loop guard.
pub fn decide(cx: &FireContext<'_>, facts: Facts<'_>) -> Decision {
    let Facts {
        plan,
        executed,
        event,
        original_input,
        mut notices,
    } = facts;
    let entries: Vec<Entry<'_>> = plan
        .hooks
        .iter()
        .zip(&executed.hooks)
        .filter_map(|(p, run)| {
            run.ran().map(|ran| Entry {
                name: &p.name,
                verdict: &ran.verdict,
            })
        })
        .collect();
    // Unchanged unless a hook replaced it (nor read: a long string in it
    // stays undecoded).
    let final_input = (plan.sequential && event.tool_input_replaced())
        .then(|| event.tool_input())
        .flatten()
        .filter(|current| Some(*current) != original_input)
        .cloned();
    let mut decision = aggregate::aggregate(&event.id, &entries, final_input);
    // The hooks' own words: said once hookrun's findings before and while
    // they ran are.
    let mut hooks_said = std::mem::take(&mut decision.notices);

    // An untrusted project file is said once per session (SPEC §9.1:
    // one visible warning), then only in the report.
    for notice in &plan.per_session {
        if crate::state::first_time(cx.state(), event.session_id(), "notice", notice) {
            notices.warn(notice.clone());
        } else {
            notices.note(format!("{notice} (said earlier in this session)"));
        }
    }
    notices.extend_from(&plan.notices);
    notices.extend_from(&executed.notices);
    asynchook::deliver(
        &mut decision,
        event,
        cx.state(),
        &executed.async_started,
        &mut notices.warnings,
    );
    if event.id.permission_rules_apply() {
        permission_rules(cx, &mut decision, event, &mut notices);
    }
    fail_closed(&mut decision, event, cx);
    notices.append(&mut hooks_said);
    notices.extend_from(&executed.after);
    stop_loop_guard(&mut decision, event, cx, &mut notices.warnings);
    if event.id.discards_system_message() && !notices.warnings.is_empty() {
        notices.note(format!(
            "{} discards systemMessage: the warnings above reach only this report and the log",
            event.id.name()
        ));
    }
    decision.notices = notices;
    decision
}

/// The permission rules of the settings (and, behind any host but Claude
/// Code, of Claude Code's own files), on the call and on every file it
/// names.
fn permission_rules(
    cx: &FireContext<'_>,
    decision: &mut Decision,
    event: &Event,
    notices: &mut Notices,
) {
    let places = selfguard::Places::of(
        cx.settings,
        cx.project_dir,
        cx.home(),
        cx.env(),
        cx.state().map(crate::state::StateDir::root),
        cx.log(),
    );
    let rules = permissions::collect_for(
        &cx.settings.files,
        cx.project_dir,
        cx.home(),
        cx.host != crate::host::HostId::ClaudeCode,
    )
    .with_builtins(selfguard::Guard::new(places, cx.settings));
    notices.warnings.extend(rules.warnings.iter().cloned());
    // The rules' reading stops at the deadline, but gets a moment even
    // when the hooks used all of it.
    crate::select::rule::evaluate_until(Some(cx.until().max(Instant::now() + RULES_GRACE)));
    let outcome = permissions::apply(
        decision,
        event,
        &rules,
        cx.project_dir,
        cx.home(),
        cx.options.non_interactive,
    );
    notices.notes.extend(outcome.note);
    notices.warnings.extend(outcome.overridden);
    every_file(decision, event, &rules, cx, &mut notices.notes);
}

/// `--fail-closed`: a settings problem on an event that can block is a
/// block (SPEC §3.1).
/// A call that names several files (`tool_input.file_paths`: a patch, a
/// read of many files) is judged on every one, not only the first (its
/// `file_path`): a deny or ask rule matching any of them holds, and allow
/// rules must cover all of them.
fn every_file(
    decision: &mut Decision,
    event: &Event,
    rules: &permissions::RuleSets,
    cx: &FireContext<'_>,
    notes: &mut Vec<String>,
) {
    // The built-in rules judge every file of the call themselves: only
    // the settings' rules need this (and the input is read only for them).
    if rules.no_settings_rules() || decision.block.is_some() {
        return;
    }
    let Some(input) = decision
        .updated_input
        .clone()
        .or_else(|| event.tool_input().cloned())
    else {
        return;
    };
    let Some(paths) = input.get("file_paths").and_then(Value::as_array) else {
        return;
    };
    let first = input.get("file_path");
    let until = cx.until().max(Instant::now() + RULES_GRACE);
    for path in paths.iter().filter(|p| Some(*p) != first) {
        if Instant::now() >= until && !rules.no_deny_or_ask() {
            decision.block = Some(format!(
                "hookrun cannot judge this call: the fire's deadline passed before its rules judged every file it names (the next was {path}); name fewer files at once"
            ));
            decision.permission = None;
            decision.permission_reason = None;
            decision.updated_input = None;
            return;
        }
        let mut variant = input.clone();
        variant["file_path"] = path.clone();
        let mut scratch = Decision {
            updated_input: Some(variant),
            ..Decision::default()
        };
        let outcome = permissions::apply(
            &mut scratch,
            event,
            rules,
            cx.project_dir,
            cx.home(),
            cx.options.non_interactive,
        );
        if let Some(block) = scratch.block {
            decision.block = Some(block);
            decision.permission = None;
            decision.permission_reason = None;
            decision.updated_input = None;
            notes.extend(outcome.note.map(|n| format!("{n}, on {path}")));
            return;
        }
        if scratch.permission == Some(Permission::Ask)
            && decision.permission != Some(Permission::Ask)
        {
            decision.permission = Some(Permission::Ask);
            decision.permission_reason = scratch.permission_reason;
            notes.extend(outcome.note.map(|n| format!("{n}, on {path}")));
        } else if decision.permission == Some(Permission::Allow)
            && decision.permission_reason.as_deref() == Some("allowed by permission rules")
            && scratch.permission != Some(Permission::Allow)
        {
            decision.permission = None;
            decision.permission_reason = None;
            notes.push(format!("allow rules do not cover {path}: no allow"));
        }
    }
}

pub fn fail_closed(decision: &mut Decision, event: &Event, cx: &FireContext<'_>) {
    if !(cx.options.fail_closed && event.id.tier().enforces_blocks() && cx.settings.has_errors()) {
        return;
    }
    let problems: Vec<String> = cx
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

/// After `stop_block_cap` consecutive blocked Stop/SubagentStop fires of a
/// session, the next block is downgraded: the endless "tests fail →
/// continue → tests fail" loop is the most reported hook bug.
pub fn stop_loop_guard(
    decision: &mut Decision,
    event: &Event,
    cx: &FireContext<'_>,
    warnings: &mut Vec<String>,
) {
    if !event.id.stop_loop_guarded() {
        return;
    }
    let (Some(state), Some(session)) = (cx.state(), event.session_id()) else {
        return;
    };
    let agent = event
        .field("agent_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let key = format!("{}:{agent}", event.id.name());
    let blocked = decision.block.is_some();
    let cap = cx.stop_block_cap;
    // A stop that does not follow a blocked one starts a new chain.
    if event.field("stop_hook_active") == Some(&Value::Bool(false)) {
        if let Err(err) = state.reset_stop_blocks(session, &key) {
            warnings.push(format!("could not reset the stop-loop counter: {err}"));
        }
    }
    match state.count_stop_block(session, &key, blocked, cap) {
        Ok((count, problem)) => {
            warnings.extend(problem);
            if blocked && count > cap {
                let reason = decision.block.take().unwrap_or_default();
                warnings.push(format!(
                    "[hook block ignored] stop-loop guard: {name} was already blocked {cap} times in a row in this session (the cap, --stop-block-cap {cap}), so this block is not enforced and the agent may stop. The block was: {reason}",
                    name = event.id.name(),
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

#[cfg(test)]
mod tests;

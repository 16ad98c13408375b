//! Prompt hooks (SPEC §13): `type: "prompt"` asks a model whether an event
//! may proceed, as Claude Code runs them.
//!
//! Owns everything between a selected prompt hook and its [`Verdict`]:
//! which endpoint, key and model ([`endpoint()`]), the request
//! ([`request`]), reading the answer ([`answer`]) and what an answer does
//! on each event ([`verdict`]). The request goes through the http hooks'
//! client ([`crate::http::Client`]): the same SSRF guard (loopback is
//! allowed, for local models), no proxies, no redirects.
//!
//! The API key is read from hookrun's own environment and put in one
//! request header; it is never in a message, a report or a log, and the
//! variable that holds it is kept out of every hook's environment
//! (`endpoint::key_vars`).

pub mod agent;
mod answer;
mod call;
mod endpoint;
mod request;

use std::ffi::OsString;
use std::time::Duration;

pub use answer::Judgement;
pub use call::{Ended, PrepareError, Reply, Started, start};
pub use endpoint::{endpoint, keys_to_scrub, scrub_keys};
// The settings keys are parsed with the rest of the settings; this module
// only reads them.
use crate::settings::prompt::{Config, Provider};

use crate::catalog::{EventId, KnownEvent};
use crate::settings::{HookKind, OnError, PromptDef, Settings};
use crate::verdict::{self, Ending, HookOutput, Outcome, Verdict};

/// What the verdict of a prompt or agent hook reads of it.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub prompt: &'a PromptDef,
    /// An agent hook: its `ok: false` never ends the turn.
    pub agent: bool,
    pub on_error: OnError,
}

impl Asked<'_> {
    /// A prompt or an agent hook.
    pub fn kind(&self) -> HookKind {
        if self.agent {
            HookKind::Agent
        } else {
            HookKind::Prompt
        }
    }
}

/// What a reply does on `event` (as Claude Code applies a prompt hook's
/// answer), as the verdict of one hook:
/// - `ok: true` is a success: never a permission.
/// - `ok: false` blocks with the reason. On PreToolUse, PostToolUse and
///   UserPromptSubmit it also ends the turn (`continue: false`) unless the
///   hook sets `continueOnBlock`. On Stop and SubagentStop the agent goes
///   on with the reason, unless the model judged the condition
///   `impossible` (then it may stop).
/// - No usable answer, an error or a timeout is a failure of the hook:
///   a warning naming the hook and what came back, or a block with
///   `onError: "block"`.
pub fn verdict(
    event: &EventId,
    name: &str,
    hook: Asked<'_>,
    reply: &Reply,
    timeout: Duration,
) -> Verdict {
    let judgement = match &reply.ended {
        Ended::Answered(judgement) => judgement,
        Ended::Failed(_) | Ended::TimedOut => {
            return failure(event, name, hook, &reply.ending(timeout).0);
        }
    };
    let reason = judgement.reason.clone().filter(|r| !r.trim().is_empty());
    let mut verdict = Verdict::default();
    if judgement.ok {
        verdict.outcome = Some(Outcome::Success);
        verdict.notices.notes.push(match &reason {
            Some(reason) => format!("the model said ok: {reason}"),
            None => "the model said ok".to_owned(),
        });
        return verdict;
    }
    let stop_event = matches!(
        event.known(),
        Some(KnownEvent::Stop | KnownEvent::SubagentStop)
    );
    if stop_event && judgement.impossible {
        verdict.outcome = Some(Outcome::Success);
        verdict.notices.notes.push(format!(
            "the model judged the condition impossible, so the agent may stop: {}",
            reason.as_deref().unwrap_or("(no reason given)")
        ));
        return verdict;
    }
    // An agent hook's `ok: false` never ends the turn (as in Claude Code).
    let continue_on_block = hook.agent || hook.prompt.continue_on_block;
    let reason = reason.unwrap_or_else(|| {
        format!(
            "{} hook {name} said no (it gave no reason)",
            hook.kind().word()
        )
    });
    verdict.outcome = Some(Outcome::Block);
    verdict.block_reason = Some(reason.clone());
    let ends_turn = matches!(
        event.known(),
        Some(KnownEvent::PreToolUse | KnownEvent::PostToolUse | KnownEvent::UserPromptSubmit)
    );
    if ends_turn && !continue_on_block {
        verdict.stop = true;
        verdict.stop_reason = Some(reason);
        verdict.notices.notes.push(
            "ok: false ends the turn (set continueOnBlock to let the agent go on)".to_owned(),
        );
    }
    verdict
}

fn failure(event: &EventId, name: &str, hook: Asked<'_>, ending: &Ending) -> Verdict {
    verdict::read(
        event,
        &HookOutput {
            name,
            ending,
            stdout: &[],
            stdout_truncated: false,
            stderr: &[],
            fail_closed: hook.on_error == OnError::Block,
            tool_input: None,
        },
    )
}

/// One line for `explain` and `doctor`: where the hook's request would go,
/// with which model and key variable (never the key).
pub fn describe(
    prompt: &PromptDef,
    agent: bool,
    settings: &Settings,
    env: &[(OsString, OsString)],
) -> String {
    let config = Config::from_settings(settings);
    let tools = if agent {
        ", with read-only tools in the project,"
    } else {
        ""
    };
    match endpoint(prompt, &config, env) {
        Ok(e) => format!(
            "asks {}{tools} at {} (model {} from {}; key from {}{})",
            e.provider.as_str(),
            e.url,
            e.model,
            e.model_from,
            e.key_var,
            if e.key_set { "" } else { ", which is not set" }
        ),
        Err(why) => format!("cannot run: {why}"),
    }
}

#[cfg(test)]
mod tests;

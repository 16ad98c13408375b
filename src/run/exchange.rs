//! What http, prompt, agent and `mcp_tool` hooks share once they were
//! answered: each returns one [`Exchange`], whose ending
//! ([`Exchange::ending`]) is read as the protocol of one hook here, and
//! whose answer the report shows ([`Exchanged`]).

use std::time::Duration;

use super::{Exchanged, Output, Ran};
use crate::event::Event;
use crate::exchange::Exchange;
use crate::exec::Captured;
use crate::plan::Planned;
use crate::settings::{HookKind, OnError};
use crate::verdict::{self, HookOutput, Verdict};

/// An exchange read as the protocol of one hook: an answer like a command
/// hook's stdout on exit 0, a failure or a timeout through `onError` like
/// a failed command; a warning the exchange carries is the hook's.
pub(super) fn verdict(
    event: &Event,
    p: &Planned,
    exchange: &Exchange,
    timeout: Duration,
) -> Verdict {
    let (ending, stdout) = exchange.ending(timeout);
    let deep = crate::stack::may_nest_deep(stdout);
    let mut verdict = crate::stack::on_big_stack_if(deep, || {
        verdict::read(
            &event.id,
            &HookOutput {
                name: &p.name,
                ending: &ending,
                stdout,
                stdout_truncated: exchange.answer.truncated(),
                stderr: &exchange.stderr,
                fail_closed: p.on_error == OnError::Block,
                // Only an answer can merge into `tool_input`.
                tool_input: event.tool_input().filter(|_| !stdout.is_empty()),
            },
        )
    });
    if let Some(warning) = &exchange.warning {
        verdict
            .notices
            .warnings
            .push(format!("hook {}: {warning}", p.name));
    }
    verdict
}

/// A hook of `kind` that ran as an exchange, and its verdict.
pub(super) fn ran<A>(
    exchange: Exchange<A>,
    kind: HookKind,
    verdict: Verdict,
    timeout: Duration,
    capped_by_deadline: bool,
) -> Ran {
    let timed_out = exchange.timed_out();
    let stderr_total = exchange.stderr.len() as u64;
    let exchanged = Exchanged {
        kind,
        status: exchange.status,
        killed: exchange.killed,
        answer: exchange.answer,
        stderr: Captured {
            bytes: exchange.stderr,
            total: stderr_total,
        },
        timed_out,
        duration: exchange.duration,
    };
    Ran {
        deep_answer: crate::stack::may_nest_deep(&exchanged.answer.bytes),
        output: Output::Exchange(exchanged),
        verdict,
        timeout,
        capped_by_deadline,
    }
}

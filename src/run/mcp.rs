//! `mcp_tool` hooks: a tool call to an MCP server hookrun starts as a
//! process, on its own thread; the tool's text read like a command hook's
//! stdout.

use std::thread::JoinHandle;
use std::time::Duration;

use super::{Ran, RunContext, exchange, hook_env};
use crate::event::Event;
use crate::mcp;
use crate::plan::Planned;
use crate::settings::{HookKind, McpToolDef};

/// A tool call on its thread.
pub(super) struct Calling(std::io::Result<JoinHandle<mcp::Exchange>>);

impl Calling {
    pub(super) fn wait(self) -> mcp::Exchange {
        // The call bounds itself by its timeout and `kill_by`.
        match self.0 {
            Ok(thread) => thread.join().unwrap_or_else(|_| mcp::panicked()),
            Err(err) => mcp::not_started(&err),
        }
    }
}

/// Starts an `mcp_tool` hook's call on its own thread.
pub(super) fn start(
    ctx: &RunContext<'_>,
    event: &Event,
    p: &Planned,
    def: &McpToolDef,
    timeout: Duration,
) -> Calling {
    let call = prepare(ctx, event, p, def, timeout);
    Calling(
        std::thread::Builder::new()
            .name("hookrun-mcp".into())
            .spawn(move || mcp::call(&call)),
    )
}

/// What an `mcp_tool` hook's call needs, to run on any thread.
fn prepare(
    ctx: &RunContext<'_>,
    event: &Event,
    p: &Planned,
    def: &McpToolDef,
    timeout: Duration,
) -> mcp::Call {
    let inputs = ctx.inputs;
    mcp::Call {
        server_name: def.server.clone(),
        tool: def.tool.clone(),
        arguments: mcp::config::substitute_input(&def.input, event.fields()),
        places: mcp::Places {
            project_dir: inputs.project_dir.to_path_buf(),
            user_file: mcp::Places::user_file_from(inputs.inherited_env),
            trust_all: ctx.requests.trust_project,
        },
        inherited_env: inputs.inherited_env.to_vec(),
        hook_env: hook_env(&ctx.base_env, p, None).into_vars(),
        cwd: ctx.cwd.clone(),
        timeout,
        kill_by: Some(inputs.started + ctx.deadline),
        kill_grace: inputs.limits.kill_grace,
        output_cap: inputs.limits.output_cap,
    }
}

/// An `mcp_tool` hook's answer read as the protocol of one hook: the
/// tool's text like a command hook's stdout on exit 0, a failure (no
/// server, a failed handshake, an error result) through `onError`.
pub(super) fn read(
    event: &Event,
    p: &Planned,
    outcome: mcp::Exchange,
    timeout: Duration,
    capped_by_deadline: bool,
) -> Ran {
    let verdict = exchange::verdict(event, p, &outcome, timeout);
    exchange::ran(
        outcome,
        HookKind::McpTool,
        verdict,
        timeout,
        capped_by_deadline,
    )
}

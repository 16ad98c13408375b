//! `mcp_tool` hooks: start the named MCP server (stdio), initialize, call
//! one tool with the hook's `input`, and hand back the tool's text to be
//! read like a command hook's stdout.
//!
//! The MCP conversation is the official Rust SDK (`rmcp`) on a
//! single-threaded tokio runtime that exists only while such a hook runs:
//! a fire without an `mcp_tool` hook never builds it. The server is a hook
//! process in all but its pipes ([`crate::exec::Interactive`]): its own
//! process group, the hook's environment, SIGTERM then SIGKILL, bounded
//! by the hook's timeout and the fire's deadline.

pub mod config;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ServiceExt as _;
use rmcp::model::{CallToolRequestParams, ContentBlock};
use serde_json::{Map, Value};

use crate::exec::{Interactive, JobEnv, Program};
use crate::settings::McpToolDef;

pub use config::Places;

/// How a call ended ([`Ended::Answered`]: the tool answered, its text
/// is the hook's stdout; a failure's words name the server) and what came
/// back: the exchange every kind that asks returns.
pub use crate::exchange::{Ended, Exchange};

/// The call's thread panicked (a bug): a failure of the hook.
pub fn panicked() -> Exchange {
    Exchange::failed(
        "hookrun's MCP client failed unexpectedly".to_owned(),
        Duration::ZERO,
    )
}

/// No thread could be started for the call (a hook exhausting the user's
/// processes): a failure of the hook, with that reason.
pub fn not_started(err: &std::io::Error) -> Exchange {
    Exchange::failed(
        format!("cannot start a thread for the call: {err}"),
        Duration::ZERO,
    )
}

/// Everything one call needs.
#[derive(Debug, Clone)]
pub struct Call {
    pub server_name: String,
    pub tool: String,
    pub arguments: Map<String, Value>,
    pub places: Places,
    /// hookrun's own environment (for `${VAR}` in the server's definition).
    pub inherited_env: Vec<(OsString, OsString)>,
    /// The hook's environment, the base of the server's.
    pub hook_env: Vec<(OsString, OsString)>,
    pub cwd: PathBuf,
    pub timeout: Duration,
    /// The fire's hard end.
    pub kill_by: Option<Instant>,
    pub kill_grace: Duration,
    pub output_cap: usize,
}

/// What `explain` shows for an `mcp_tool` hook.
pub fn describe(m: &McpToolDef) -> String {
    format!(
        "call {} on MCP server {} with {}",
        m.tool,
        m.server,
        Value::Object(m.input.clone())
    )
}

/// The user's trust store, from hookrun's environment.
fn trust_store() -> Option<crate::settings::trust::TrustStore> {
    let env = crate::settings::Environment::from_process();
    crate::settings::trust_store_path(&env)
        .and_then(|store| crate::settings::trust::TrustStore::load(&store).ok())
}

/// Runs one call to the end, within `timeout` and `kill_by`.
pub fn call(call: &Call) -> Exchange {
    let started = Instant::now();
    let mut outcome = Exchange::ended(Ended::Answered(()), Duration::ZERO);
    let server = &call.server_name;
    let def = match config::find(server, &call.places, &call.inherited_env) {
        Ok((def, warning)) => {
            outcome.warning = warning.map(|w| format!("MCP server {server}: {w}"));
            def
        }
        Err(why) => {
            outcome.ended = Ended::Failed(format!("MCP server {server}: {why}"));
            return outcome;
        }
    };
    let mut env = JobEnv::new(Arc::new(call.hook_env.clone()), Vec::new());
    for (k, v) in &def.env {
        env.push(k.as_str(), v.as_str());
    }
    let program = Program::Exec {
        program: def.command.clone(),
        args: def.args.clone(),
    };
    let mut process = match Interactive::start(program, env, call.cwd.clone()) {
        Ok(process) => process,
        Err(why) => {
            outcome.ended = Ended::Failed(format!(
                "MCP server {server} ({}) could not start: {why}",
                def.defined_at
            ));
            outcome.duration = started.elapsed();
            return outcome;
        }
    };
    let limit = call.kill_by.map_or(call.timeout, |end| {
        call.timeout
            .min(end.saturating_duration_since(Instant::now()))
    });
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let result = converse(&mut process, call, limit, &stderr);
    outcome.killed = process.stop(call.kill_grace, call.kill_by) == crate::exec::Stopped::Killed;
    outcome.stderr = stderr.lock().map(|e| e.clone()).unwrap_or_default();
    outcome.duration = started.elapsed();
    match result {
        Ok(Ok((mut text, false))) => {
            outcome.answer.total = text.len() as u64;
            text.truncate(call.output_cap);
            outcome.answer.bytes = text;
        }
        Ok(Ok((text, true))) => {
            let said = String::from_utf8_lossy(&text);
            outcome.ended = Ended::Failed(format!(
                "MCP server {server}: tool {} answered with an error: {}",
                call.tool,
                crate::text::shorten(said.trim(), 200)
            ));
        }
        Ok(Err(why)) => {
            let last = String::from_utf8_lossy(&outcome.stderr);
            let last = last.lines().rev().find(|l| !l.trim().is_empty());
            outcome.ended = Ended::Failed(match last {
                Some(line) => format!(
                    "MCP server {server}: {why} (its stderr: {})",
                    crate::text::shorten(line.trim(), 200)
                ),
                None => format!("MCP server {server}: {why}"),
            });
        }
        Err(()) => outcome.ended = Ended::TimedOut,
    }
    outcome
}

/// Initialize and call, on a runtime built for this call. `Err(())`: the
/// limit passed first.
fn converse(
    process: &mut Interactive,
    call: &Call,
    limit: Duration,
    stderr_sink: &Arc<Mutex<Vec<u8>>>,
) -> Result<Result<(Vec<u8>, bool), String>, ()> {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            return Ok(Err(format!(
                "hookrun could not start its MCP client: {err}"
            )));
        }
    };
    let (Some(stdin), Some(stdout), Some(stderr)) = (
        process.stdin.take(),
        process.stdout.take(),
        process.stderr.take(),
    ) else {
        return Ok(Err("the server's pipes are gone".to_owned()));
    };
    let cap = call.output_cap;
    let result = runtime.block_on(async {
        use tokio::io::AsyncReadExt as _;
        let pipes = crate::platform::async_pipes(stdin, stdout, stderr);
        let (writer, reader, mut errors) = match pipes {
            Ok(pipes) => pipes,
            Err(err) => return Ok(Err(format!("cannot read the server's pipes: {err}"))),
        };
        let sink = Arc::clone(stderr_sink);
        tokio::spawn(async move {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = errors.read(&mut buf).await {
                if let Ok(mut kept) = sink.lock() {
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        });
        let talk = async {
            let client = ()
                .serve((reader, writer))
                .await
                .map_err(|err| format!("the MCP handshake failed: {err}"))?;
            let mut params = CallToolRequestParams::new(call.tool.clone());
            params.arguments = Some(call.arguments.clone());
            let result = client
                .call_tool(params)
                .await
                .map_err(|err| format!("calling tool {} failed: {err}", call.tool))?;
            let text: Vec<&str> = result
                .content
                .iter()
                .filter_map(|block| match block {
                    ContentBlock::Text(text) => Some(text.text.as_str()),
                    _ => None,
                })
                .collect();
            Ok::<_, String>((text.join("\n").into_bytes(), result.is_error == Some(true)))
        };
        tokio::time::timeout(limit, talk).await.map_err(|_| ())
    });
    // Every task (and our ends of the pipes) goes with the runtime.
    drop(runtime);
    result
}

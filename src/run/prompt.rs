//! Prompt and agent hooks: a model asked on its own thread, through the
//! http hooks' client and SSRF guard (an agent hook is a prompt hook whose
//! model may first read the project with read-only tools: the same
//! endpoint, the same verdict, `crate::prompt::agent`).

use std::sync::Arc;
use std::time::Duration;

use super::{Ran, RunContext, exchange};
use crate::event::{Bytes, Event};
use crate::plan::Planned;
use crate::prompt::{self, Asked, Reply, Started};
use crate::settings::PromptDef;

/// Starts a prompt (or agent) hook's request on its own thread.
pub(super) fn start(
    ctx: &mut RunContext<'_>,
    event: &Event,
    asks: &PromptDef,
    agent: bool,
    stdin: &Arc<Bytes>,
    timeout: Duration,
) -> Started {
    let (inputs, requests) = (ctx.inputs, ctx.requests);
    let (client, _) = ctx.http_client();
    let config = &requests.prompt;
    if agent {
        return prompt::agent::start(
            client,
            asks,
            config,
            inputs.inherited_env,
            event,
            stdin,
            timeout,
            inputs.project_dir,
            read_guard(requests.read_rules.as_ref(), inputs, event),
        );
    }
    prompt::start(
        client,
        asks,
        config,
        inputs.inherited_env,
        event,
        stdin,
        timeout,
    )
}

/// What the fire's rules deny reading, for an agent hook's own tools (SPEC
/// §9.5): the deny and ask rules about `Read` (nobody can be asked inside
/// a hook), Claude Code's own files' included.
fn read_guard(
    rules: Option<&Arc<crate::permissions::ReadRules>>,
    inputs: &super::RunInputs<'_>,
    event: &Event,
) -> prompt::agent::tools::ReadGuard {
    let Some(rules) = rules.filter(|rules| !rules.is_empty()).map(Arc::clone) else {
        return prompt::agent::tools::ReadGuard::default();
    };
    let cwd = event
        .cwd()
        .unwrap_or_else(|| inputs.project_dir.to_path_buf());
    let home = inputs
        .inherited_env
        .iter()
        .find(|(k, v)| k == "HOME" && !v.is_empty())
        .map(|(_, v)| std::path::PathBuf::from(v));
    prompt::agent::tools::ReadGuard::new(move |path| rules.denies(path, &cwd, home.as_deref()))
}

/// A prompt hook's reply as the verdict of one hook; the report shows the
/// model's answer (or the response body when there was none).
pub(super) fn read(
    event: &Event,
    p: &Planned,
    asked: Asked<'_>,
    reply: Reply,
    timeout: Duration,
    capped_by_deadline: bool,
) -> Ran {
    let verdict = prompt::verdict(&event.id, &p.name, asked, &reply, timeout);
    exchange::ran(reply, asked.kind(), verdict, timeout, capped_by_deadline)
}

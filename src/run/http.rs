//! Http hooks (SPEC §8): a request on its own thread, through the fire's
//! one client and SSRF guard; the answer read like a command hook's stdout.

use std::sync::Arc;
use std::time::Duration;

use super::{Ran, RunContext, exchange};
use crate::event::{Bytes, Event};
use crate::http::{self, Client, Policy};
use crate::plan::Planned;
use crate::settings::{HookKind, HttpDef};

impl RunContext<'_> {
    /// The fire's http client and merged policy, made on first use (by an
    /// http, prompt or agent hook).
    pub(super) fn http_client(&mut self) -> (&Arc<Client>, &Policy) {
        let planned = &self.requests.http;
        let output_cap = self.inputs.limits.output_cap;
        let (client, policy) = self.http.get_or_insert_with(|| {
            let policy = planned.clone();
            let client = Client::new(policy.network.clone(), output_cap);
            (Arc::new(client), policy)
        });
        (client, policy)
    }
}

/// An http hook on its way.
pub(super) enum Sending {
    Sent(http::Pending),
    /// Refused before sending (URL allow-list, invalid URL or header).
    NotSent(http::Exchange),
}

impl Sending {
    pub(super) fn wait(self) -> http::Exchange {
        match self {
            Sending::Sent(pending) => pending.wait(),
            Sending::NotSent(exchange) => exchange,
        }
    }
}

/// Starts an http hook's request on its own thread.
pub(super) fn start(
    ctx: &mut RunContext<'_>,
    hook: &HttpDef,
    body: &Arc<Bytes>,
    timeout: Duration,
) -> Sending {
    let inherited_env = ctx.inputs.inherited_env;
    let (client, policy) = ctx.http_client();
    match http::request(hook, policy, inherited_env, Arc::clone(body), timeout) {
        Ok(request) => Sending::Sent(http::start(client, request)),
        Err(why) => Sending::NotSent(http::not_sent(why.to_string())),
    }
}

/// An http hook's exchange read as the protocol of one hook (never counted
/// as cut by the deadline: the request simply ends at its timeout).
pub(super) fn read(event: &Event, p: &Planned, exchange: http::Exchange, timeout: Duration) -> Ran {
    let verdict = exchange::verdict(event, p, &exchange, timeout);
    exchange::ran(exchange, HookKind::Http, verdict, timeout, false)
}

//! What became of a hook that asks and is answered: an http hook's
//! request, a prompt or agent hook's call to a model, an `mcp_tool`
//! hook's call to a server. Each returns one [`Exchange`]; what its ending
//! means for the hook (an answer read like a command hook's stdout on exit
//! 0, a failure or a timeout through `onError`) is decided in one place,
//! [`Exchange::ending`].

use std::time::Duration;

use crate::exec::Captured;
use crate::verdict::Ending;

/// How an exchange ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended<A = ()> {
    /// A usable answer (for an http hook: a 2xx with an empty body or a
    /// JSON object; for a tool call: the tool's result). `A` is what the
    /// answer was read as: a model's judgement; nothing more for a body or
    /// a tool's text, which are read as the hook's stdout.
    Answered(A),
    /// No usable answer, in words: refused before sending, unreachable, a
    /// status that is not a success, a body or reply hookrun cannot read,
    /// a server that failed.
    Failed(String),
    /// The hook's timeout ran out first.
    TimedOut,
}

/// What became of one exchange.
#[derive(Debug, Clone)]
pub struct Exchange<A = ()> {
    pub ended: Ended<A>,
    /// The (last) response status, when a response arrived: http, prompt
    /// and agent hooks.
    pub status: Option<u16>,
    /// The answer, at most the output cap: the response body, the model's
    /// text (or the response body when there was none), the tool's text.
    pub answer: Captured,
    /// What the other side wrote on stderr (an MCP server's), capped.
    pub stderr: Vec<u8>,
    pub duration: Duration,
    /// A warning besides the answer (an untrusted `.mcp.json` passed over).
    pub warning: Option<String>,
    /// A process (an MCP server) had to be killed after SIGTERM.
    pub killed: bool,
}

impl<A> Exchange<A> {
    /// An exchange that ended so, with nothing received yet.
    pub fn ended(ended: Ended<A>, duration: Duration) -> Exchange<A> {
        Exchange {
            ended,
            status: None,
            answer: Captured::default(),
            stderr: Vec::new(),
            duration,
            warning: None,
            killed: false,
        }
    }

    /// No usable answer, for `why`.
    pub fn failed(why: String, duration: Duration) -> Exchange<A> {
        Exchange::ended(Ended::Failed(why), duration)
    }

    pub fn timed_out(&self) -> bool {
        matches!(self.ended, Ended::TimedOut)
    }

    /// The hook's ending for [`crate::verdict::read`] under `timeout`,
    /// with the bytes to read as its stdout: an answer is `Exited(0)` with
    /// the answer, a failure `Failed` and a timeout `TimedOut`, with
    /// nothing to read.
    pub fn ending(&self, timeout: Duration) -> (Ending, &[u8]) {
        match &self.ended {
            Ended::Answered(_) => (Ending::Exited(0), &self.answer.bytes),
            Ended::Failed(why) => (Ending::Failed(why.clone()), &[]),
            Ended::TimedOut => (
                Ending::TimedOut {
                    seconds: timeout.as_secs_f64(),
                },
                &[],
            ),
        }
    }
}

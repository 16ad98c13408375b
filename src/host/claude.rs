//! Claude Code: hookrun's own vocabulary, so decoding and encoding are the
//! identity over today's protocol (`event`, `output`).

use std::time::Duration;

use serde_json::{Map, Value};

use super::{Decoded, Encoded, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::EventId;
use crate::event::{Event, InputError};

/// Claude Code ends a Stop loop itself after this many consecutive blocks
/// (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` overrides it).
pub const STOP_HOOK_BLOCK_CAP: u32 = 8;

pub struct ClaudeCode;

impl Host for ClaudeCode {
    fn id(&self) -> HostId {
        HostId::ClaudeCode
    }

    fn decode(
        &self,
        raw: Map<String, Value>,
        arg: Option<&str>,
        _env: &HostEnv,
    ) -> Result<Decoded, InputError> {
        let host_event = arg
            .map(str::to_owned)
            .or_else(|| {
                raw.get("hook_event_name")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .unwrap_or_default();
        let host_tool = raw
            .get("tool_name")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let event = Event::from_object(raw, arg)?;
        Ok(Decoded {
            event,
            host_event,
            host_tool,
            notes: Vec::new(),
            warnings: Vec::new(),
        })
    }

    fn default_deadline(&self, event: &EventId) -> Duration {
        crate::fire::default_deadline(event)
    }

    fn own_stop_block_cap(&self, env: &HostEnv) -> Option<u32> {
        Some(
            env.get("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(STOP_HOOK_BLOCK_CAP),
        )
    }

    fn encode(&self, event: &Event, decision: &Decision) -> Encoded {
        Encoded {
            rendered: crate::output::render(&event.id, decision),
            notes: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

//! The input stage every command that reads an event shares (`fire`,
//! `explain`, `test`, `replay --run`): what the host sent (read from stdin
//! by [`stdin`]) → the event in hookrun's vocabulary, decoded as the host
//! that really sent it, with what the fire learns from it: the warnings
//! about its name and the host's decoding, the host's deadline and
//! stop-loop cap for it, the hooks' host variables. One decoder, so
//! `explain` and `test` cannot read an event otherwise than `fire` does.
//! Pure facts: the fire's own knobs are applied where its context is
//! built (`fire::FireContext::new`).

pub mod stdin;

use std::ffi::OsString;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::event::{Bytes, Event, InputError};
use crate::host::{self, HostEnv, HostId};
use crate::notices::Notices;

/// What a host sent.
pub enum Sent {
    /// The bytes on stdin, as read.
    Bytes(Bytes),
    /// An event already parsed (a test case's `input`; `{}` for `explain
    /// EVENT` with nothing on stdin): there is no host line to keep.
    Object(Map<String, Value>),
}

/// An event decoded, and what the host that sent it says about its fire.
#[derive(Debug)]
pub struct Input {
    /// The host that sent it (`--host`, or the one in its clothes: see
    /// [`host::actual_caller`]).
    pub host: HostId,
    pub event: Event,
    /// The host sent this event where it is not one: no hooks run for it
    /// (see [`host::Decoded::fire_no_hooks`]; a note says why).
    pub fire_no_hooks: bool,
    /// What was wrong with the event's name (a misspelt name, an argument
    /// naming another event than the input, in the host's vocabulary),
    /// then what the host's decoding translated and could not: the first
    /// things the fire says.
    pub notices: Notices,
    /// The host's own deadline for this event.
    pub deadline: Duration,
    /// Consecutive blocked Stop fires the host allows (its own cap, read
    /// in its environment).
    pub stop_block_cap: u32,
    /// The hooks' host variables (`HOOKRUN_HOST`…), set over hookrun's
    /// environment.
    pub hook_vars: Vec<(OsString, OsString)>,
}

/// An input that cannot be used, and the host that answers for it.
pub struct Unusable {
    pub host: HostId,
    pub error: InputError,
}

/// Decodes what `fired_as` sent; `event` is the EVENT argument, `env` the
/// environment hookrun runs in (the host's variables).
pub fn decode(
    sent: Result<Sent, InputError>,
    fired_as: HostId,
    event: Option<&str>,
    env: &[(OsString, OsString)],
) -> Result<Input, Unusable> {
    let mut host_id = fired_as;
    let mut input_name = None;
    let decoded = sent.and_then(|sent| {
        let host = host::host(host_id);
        let (raw, kept) = match sent {
            Sent::Object(raw) => (raw, None),
            Sent::Bytes(bytes) => {
                // Long strings (a file's content) stay undecoded until
                // something asks for them, where the host line they are
                // read from is kept.
                let (raw, scan, deferred) = if host.decodes_verbatim() {
                    crate::event::read_object_deferring(&bytes)?
                } else {
                    let (raw, scan) = crate::event::read_object_scanned(&bytes)?;
                    (raw, scan, crate::event::Deferrals::default())
                };
                (raw, Some((bytes, scan, deferred)))
            }
        };
        // Another host in the fired-as host's clothes (Copilot CLI running
        // `.claude/settings.json`): decoded and answered as the real one.
        host_id = host::actual_caller(host_id, &raw, &HostEnv::new(env));
        let host = host::host(host_id);
        let (raw, kept) = match kept {
            Some((bytes, _, _)) if host_id != fired_as && !host.decodes_verbatim() => {
                let (raw, scan) = crate::event::read_object_scanned(&bytes)?;
                (raw, Some((bytes, scan, crate::event::Deferrals::default())))
            }
            kept => (raw, kept),
        };
        // The input's own name, taken before the host's decoding sets the
        // canonical one (one parse of stdin, not two).
        if let (Some(_), Some(Value::String(name))) = (event, raw.get("hook_event_name")) {
            input_name = Some(name.clone());
        }
        let mut decoded = host.decode(raw, event, &HostEnv::new(env))?;
        if host_id != fired_as {
            decoded.notices.note(host::caller_note(fired_as, host_id));
        }
        // A host whose decoding is the identity: hooks can get its bytes
        // as sent, when they say what serialising the event would.
        if let (true, Some((bytes, scan, deferred))) = (host.decodes_verbatim(), kept) {
            decoded.event.keep_host_line(bytes, &scan, deferred);
        }
        Ok(decoded)
    });
    let mut decoded = decoded.map_err(|error| Unusable {
        host: host_id,
        error,
    })?;
    let host = host::host(host_id);
    // In the host's vocabulary: the input's name as the host spelt it.
    let mut notices = Notices::new(
        host::mapping::event_name_warnings(
            host,
            event,
            input_name
                .as_deref()
                .or(decoded.host_event.as_deref())
                .or(Some(decoded.event.id.name())),
        ),
        Vec::new(),
    );
    notices.append(&mut decoded.notices);
    Ok(Input::of(
        host_id,
        decoded.event,
        decoded.fire_no_hooks,
        notices,
        env,
    ))
}

impl Input {
    /// An event already in hookrun's vocabulary, as `host` would send it
    /// (nothing to translate, nothing to say about it).
    pub fn plain(host: HostId, event: Event, env: &[(OsString, OsString)]) -> Input {
        Input::of(host, event, false, Notices::default(), env)
    }

    /// What `host` says about the fire of `event`, in its environment
    /// `env`.
    fn of(
        host: HostId,
        event: Event,
        fire_no_hooks: bool,
        notices: Notices,
        env: &[(OsString, OsString)],
    ) -> Input {
        let implementation = host::host(host);
        let mut hook_vars = Vec::new();
        host::mapping::set_hook_vars(&mut hook_vars, implementation, &event);
        Input {
            host,
            deadline: implementation.default_deadline(&event.id),
            stop_block_cap: host::mapping::stop_block_cap(None, implementation, &HostEnv::new(env)),
            hook_vars,
            fire_no_hooks,
            event,
            notices,
        }
    }

    /// The deadline of this fire: `given` (`--deadline`,
    /// `$HOOKRUN_DEADLINE`), else the host's own for the event.
    pub fn deadline_or(&self, given: Option<Duration>) -> Duration {
        given.unwrap_or(self.deadline)
    }
}

//! The input stage every command that reads an event shares (`fire`,
//! `explain`, `test`, `replay --run`): what the host sent → the event in hookrun's
//! vocabulary, decoded as the host that really sent it, with the warnings
//! about its name. One decoder, so `explain` and `test` cannot read an
//! event otherwise than `fire` does.

use std::ffi::OsString;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::event::{Bytes, InputError};
use crate::fire::FireConfig;
use crate::host::{self, Decoded, HostEnv, HostId};

/// What a host sent.
pub enum Sent {
    /// The bytes on stdin, as read.
    Bytes(Bytes),
    /// An event already parsed (a test case's `input`; `{}` for `explain
    /// EVENT` with nothing on stdin): there is no host line to keep.
    Object(Map<String, Value>),
}

/// An event decoded.
pub struct Input {
    /// The host that sent it (`--host`, or the one in its clothes: see
    /// [`host::actual_caller`]).
    pub host: HostId,
    pub decoded: Decoded,
    /// A misspelt event name, an argument naming another event than the
    /// input, in the host's vocabulary: said before anything else.
    pub name_warnings: Vec<String>,
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
            decoded.notes.push(host::caller_note(fired_as, host_id));
        }
        // A host whose decoding is the identity: hooks can get its bytes
        // as sent, when they say what serialising the event would.
        if let (true, Some((bytes, scan, deferred))) = (host.decodes_verbatim(), kept) {
            decoded.event.keep_host_line(bytes, &scan, deferred);
        }
        Ok(decoded)
    });
    let decoded = decoded.map_err(|error| Unusable {
        host: host_id,
        error,
    })?;
    // In the host's vocabulary: the input's name as the host spelt it.
    let name_warnings = host::mapping::event_name_warnings(
        host::host(host_id),
        event,
        input_name
            .as_deref()
            .or(decoded.host_event.as_deref())
            .or(Some(decoded.event.id.name())),
    );
    Ok(Input {
        host: host_id,
        decoded,
        name_warnings,
    })
}

impl Input {
    /// The deadline of this event: `given` (`--deadline`,
    /// `$HOOKRUN_DEADLINE`), else the host's own for the event.
    pub fn deadline(&self, given: Option<Duration>) -> Duration {
        given.unwrap_or_else(|| host::host(self.host).default_deadline(&self.decoded.event.id))
    }

    /// Points `config` at the host that sent the event: its stop-loop cap
    /// (`given`: `--stop-block-cap`) read in hookrun's environment, the
    /// hooks' host variables (`HOOKRUN_HOST`…) set in it, the name warnings
    /// said first.
    pub fn configure(&self, config: &mut FireConfig, given_stop_block_cap: Option<u32>) {
        let host = host::host(self.host);
        config.host = self.host;
        config.stop_block_cap = host::mapping::stop_block_cap(
            given_stop_block_cap,
            host,
            &HostEnv::new(&config.inherited_env),
        );
        host::mapping::set_hook_vars(&mut config.inherited_env, host, &self.decoded.event);
        config
            .input_warnings
            .splice(0..0, self.name_warnings.iter().cloned());
    }
}

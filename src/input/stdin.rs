//! Reading what the host sent on stdin: the first step of the input
//! stage, shared by `fire`, `explain` and a refused `fire` command line.

use std::io::{IsTerminal as _, Read as _};
use std::time::{Duration, Instant};

use crate::catalog::EventId;
use crate::event::{Bytes, Filling, InputError, MAPPED_FROM};
use crate::host::Host;

/// The whole of stdin; a terminal is refused rather than waited on.
pub fn read() -> Result<Bytes, InputError> {
    read_within(None)
}

/// The whole of stdin, waiting at most `limit` for it to close (the
/// deadline: a writer that never closes cannot hold the answer past it).
/// A stdin of megabytes ends up in huge-page-backed memory ([`Filling`]).
pub fn read_within(limit: Option<Duration>) -> Result<Bytes, InputError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(InputError::Unreadable(std::io::Error::other(
            "stdin is a terminal; pipe the event JSON in (hookrun fire pre_tool_use < event.json)",
        )));
    }
    let Some(limit) = limit else {
        let mut bytes = Vec::new();
        stdin
            .lock()
            .read_to_end(&mut bytes)
            .map_err(InputError::Unreadable)?;
        return Ok(bytes.into());
    };
    let started = Instant::now();
    let mut file = match crate::platform::stdin_file() {
        Ok(Some(file)) => file,
        // No stdin at all reads as empty, as the standard library has it.
        Ok(None) => return Ok(Vec::new().into()),
        Err(err) => return Err(InputError::Unreadable(err)),
    };
    // A regular file (`hookrun fire < event.json`) cannot keep hookrun
    // waiting: read it whole into a buffer of its size.
    if let Some(size) = file
        .metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|meta| usize::try_from(meta.len()).unwrap_or(usize::MAX))
    {
        if size < MAPPED_FROM {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .map_err(InputError::Unreadable)?;
            return Ok(bytes.into());
        }
        let mut buffer = Filling::expecting(size);
        loop {
            match file.read(buffer.room()) {
                Ok(0) => return Ok(buffer.finish()),
                Ok(n) => buffer.filled(n),
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) => return Err(InputError::Unreadable(err)),
            }
        }
    }
    let mut buffer = Filling::new();
    loop {
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(InputError::NotClosed(limit.as_secs_f64()));
        }
        let wait = left.min(Duration::from_millis(u64::from(u16::MAX)));
        match crate::platform::wait_readable(&file, Some(wait)) {
            Ok(false) => continue,
            Ok(true) => {}
            Err(err) => return Err(InputError::Unreadable(err)),
        }
        match file.read(buffer.room()) {
            Ok(0) => return Ok(buffer.finish()),
            Ok(n) => buffer.filled(n),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(InputError::Unreadable(err)),
        }
    }
}

/// Whether stdin is a terminal (nothing piped in).
pub fn is_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// How long `fire` waits for stdin to close: `given` (`--deadline`), else
/// the host's default deadline of the event named on the command line,
/// else its longest (that of an event the catalog does not know).
pub fn deadline(given: Option<Duration>, event: Option<&str>, host: &dyn Host) -> Duration {
    if let Some(deadline) = given {
        return deadline;
    }
    match event {
        Some(name) if !name.trim().is_empty() => {
            host.default_deadline(&EventId::resolve(name.trim()))
        }
        _ => host.default_deadline(&EventId::Unknown(String::new())),
    }
}

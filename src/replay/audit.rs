//! hookrun's audit log as a replay source: each line that recorded its
//! fire's input (`HOOKRUN_LOG_INPUT=1`, off by default) is that event again.
//! Lines without one are counted, so a log written without the opt-in is
//! reported, not silently empty.

use std::io::BufRead;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{Recorded, Replayed, Tally};
use crate::event::Event;

#[derive(Debug, Deserialize)]
struct LogLine {
    #[serde(default)]
    time: Option<String>,
    event: String,
    #[serde(default)]
    decision: Option<String>,
    #[serde(default)]
    input: Option<Map<String, Value>>,
}

/// Whether a parsed first line looks like an audit-log line.
pub fn is_audit_line(value: &Value) -> bool {
    value.get("v").is_some_and(Value::is_u64)
        && value.get("hookrun_version").is_some()
        && value.get("event").is_some()
}

/// Streams one audit log.
pub fn read_all(
    file: usize,
    input: impl BufRead,
    fallback_session: &str,
    tally: &mut Tally,
    sink: &mut dyn FnMut(Replayed),
) -> std::io::Result<()> {
    let mut line_no = 0;
    for line in input.split(b'\n') {
        let bytes = line?;
        line_no += 1;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        tally.records += 1;
        let parsed: LogLine = match serde_json::from_slice(&bytes) {
            Ok(parsed) => parsed,
            Err(err) => {
                tally.unreadable(file, line_no, format!("not an audit-log line: {err}"));
                continue;
            }
        };
        let Some(input) = parsed.input else {
            tally.audit_without_input += 1;
            continue;
        };
        let event = match Event::from_object(input, Some(&parsed.event)) {
            Ok(event) => event,
            Err(err) => {
                tally.unreadable(file, line_no, format!("input: {err}"));
                continue;
            }
        };
        let session = event.session_id().unwrap_or(fallback_session).to_owned();
        let recorded = if parsed.decision.as_deref() == Some("deny") {
            Recorded::Denied
        } else {
            Recorded::Ran
        };
        sink(Replayed {
            event,
            session,
            file,
            line: line_no,
            time: parsed.time,
            sidechain: false,
            recorded,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_input_replay_and_the_others_are_counted() {
        let log = concat!(
            r#"{"v":1,"time":"2026-01-01T00:00:00.000Z","event":"PreToolUse","decision":"deny","exit_code":2,"duration_ms":1,"hookrun_version":"0","input":{"session_id":"S","tool_name":"Bash","tool_input":{"command":"rm -rf x"}}}"#,
            "\n",
            r#"{"v":1,"time":"2026-01-01T00:00:01.000Z","event":"Stop","decision":"none","exit_code":0,"duration_ms":1,"hookrun_version":"0"}"#,
            "\n{broken\n"
        );
        let mut tally = Tally::default();
        let mut events = Vec::new();
        read_all(0, log.as_bytes(), "f", &mut tally, &mut |e| events.push(e)).unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].event.id.name(), "PreToolUse");
        assert_eq!(events[0].session, "S");
        assert_eq!(events[0].recorded, Recorded::Denied);
        assert_eq!(
            events[0].event.fields()["hook_event_name"],
            "PreToolUse",
            "the event name is set from the line"
        );
        assert_eq!(tally.audit_without_input, 1);
        assert_eq!(tally.unreadable_count, 1);
        assert_eq!(tally.unreadable[0].line, 3);
    }
}

//! Context a host could not show before a tool, carried to the same call's
//! answer after it (Gemini CLI: its BeforeTool answer has no
//! `additionalContext`, its AfterTool answer has; Qwen Code drops a
//! PreToolUse context and shows a PostToolUse one).
//!
//! The host sends no call id, and two calls' before-tool fires may both come
//! before either after-tool fire, so an entry is keyed by the session and a
//! hash of the tool and its input as it will run ([`crate::host::Host::carry_key`]).
//! Two identical calls running at once may swap their contexts, which says
//! the same thing to the model either way. Entries are small private files
//! (0600, never written through a link) under the session's state folder;
//! each is taken by exactly one after-tool fire, and ones older than an hour
//! (a call that never finished) are removed when the folder is next read.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::aggregate::Decision;
use crate::event::Event;
use crate::host::Host;
use crate::settings::trust::sha256_hex;
use crate::state::StateDir;

/// How long a carried context waits for its call to finish.
pub const MAX_AGE: Duration = Duration::from_secs(3600);

fn dir(state: &StateDir, session_id: &str) -> PathBuf {
    state.session_dir(session_id).join("carry")
}

fn prefix(key: &str) -> String {
    sha256_hex(key.as_bytes())[..32].to_owned()
}

/// Keeps `context` for the after-tool fire of the call named by `key`.
pub fn save(state: &StateDir, session_id: &str, key: &str, context: &str) -> io::Result<()> {
    let dir = dir(state, session_id);
    std::fs::create_dir_all(&dir)?;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let name = format!("{}-{nanos:032}-{}.ctx", prefix(key), std::process::id());
    crate::fsafe::write_private_atomically(&dir.join(name), context.as_bytes())
}

/// Takes (reads and removes) the oldest context kept for `key`, if any.
pub fn take(state: &StateDir, session_id: &str, key: &str) -> Option<String> {
    let dir = dir(state, session_id);
    let entries = std::fs::read_dir(&dir).ok()?;
    let wanted = prefix(key);
    let mut mine: Vec<PathBuf> = Vec::new();
    for path in entries.flatten().map(|e| e.path()) {
        if is_stale(&path) {
            let _ = std::fs::remove_file(&path);
            continue;
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with(&wanted) && path.extension().is_some_and(|ext| ext == "ctx") {
            mine.push(path);
        }
    }
    mine.sort();
    for path in mine {
        let claimed = path.with_extension("taking");
        if std::fs::rename(&path, &claimed).is_err() {
            continue; // another fire took it
        }
        let read = crate::fsafe::read(&claimed, crate::fsafe::Follow::No);
        let _ = std::fs::remove_file(&claimed);
        if let Ok(bytes) = read {
            return Some(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    None
}

fn is_stale(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > MAX_AGE))
}

/// A host whose before-tool answer cannot carry context (Gemini CLI, Qwen
/// Code) gets it on the same call's after-tool answer instead: kept at
/// PreToolUse when the call may run, taken at PostToolUse, before that
/// fire's own context.
pub fn carry_context(
    host: &dyn Host,
    event: &Event,
    state: Option<&StateDir>,
    decision: &mut Decision,
) {
    use crate::catalog::KnownEvent::{PostToolUse, PreToolUse};
    let before = match event.id.known() {
        Some(PreToolUse) => true,
        Some(PostToolUse) => false,
        _ => return,
    };
    let (Some(state), Some(session)) = (state, event.session_id()) else {
        return;
    };
    if before {
        let runs = decision.block.is_none()
            && !matches!(
                decision.permission,
                Some(crate::verdict::Permission::Deny | crate::verdict::Permission::Ask)
            );
        let Some(context) = decision.context.as_deref().filter(|_| runs) else {
            return;
        };
        let Some(key) = host.carry_key(event, decision.updated_input.as_ref()) else {
            return;
        };
        match save(state, session, &key, context) {
            Ok(()) => {
                decision.context = None;
                decision.notices.notes.push(format!(
                    "additionalContext kept for this call's answer after the tool ({} cannot show it before one)",
                    host.id().display()
                ));
            }
            Err(err) => decision.notices.warnings.push(format!(
                "could not keep the context for after the tool: {err}"
            )),
        }
    } else if let Some(key) = host.carry_key(event, None) {
        if let Some(carried) = take(state, session, &key) {
            let mut contexts = vec![carried];
            contexts.extend(decision.context.take());
            decision.context = Some(contexts.join(crate::aggregate::CONTEXT_SEPARATOR));
            decision
                .notices
                .notes
                .push("additionalContext kept from before this tool call added first".to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::call_key;
    use serde_json::json;

    #[test]
    fn a_context_is_taken_once_and_only_for_its_key() {
        let tmp = tempfile::tempdir().unwrap();
        let state = StateDir::locate(|n| {
            (n == "HOOKRUN_STATE_DIR").then(|| tmp.path().to_str().unwrap().to_owned())
        })
        .unwrap();
        let a = call_key("shell", Some(&json!({"b": 1, "a": [1, {"y": 2, "x": 1}]})));
        let same = call_key("shell", Some(&json!({"a": [1, {"x": 1, "y": 2}], "b": 1})));
        let other = call_key("shell", Some(&json!({"b": 2})));
        save(&state, "s", &a, "ctx").unwrap();
        assert_eq!(take(&state, "s", &other), None);
        assert_eq!(take(&state, "t", &a), None);
        assert_eq!(take(&state, "s", &same).as_deref(), Some("ctx"));
        assert_eq!(take(&state, "s", &a), None);
    }
}

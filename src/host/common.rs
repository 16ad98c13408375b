//! What more than one host's adapter needs and no single host owns: kept
//! here so that each host's module holds only its own facts, and no host
//! reaches into another's.

use serde_json::{Map, Value, json};

use super::answer::Answer;
use super::{HostEnv, mapping};
use crate::catalog::KnownEvent as K;
use crate::event::Event;

/// A shell call's result in Claude Code's form (`.tool_response.stdout`)
/// where the host sends Gemini CLI's `{llmContent, returnDisplay}`
/// (Gemini CLI and its fork Qwen Code): `returnDisplay`, the output as
/// shown, else `llmContent`. Returns the host's original `tool_response`,
/// which the decode keeps under `hookrun_host`.
pub fn shell_response_as_claude(raw: &mut Map<String, Value>) -> Option<Value> {
    let original = raw.get("tool_response").cloned();
    if let (Some("Bash"), Some(Value::Object(response))) =
        (raw.get("tool_name").and_then(Value::as_str), &original)
    {
        if let Some(text) = response
            .get("returnDisplay")
            .filter(|v| v.is_string())
            .or_else(|| response.get("llmContent").filter(|v| v.is_string()))
        {
            let mut translated = response.clone();
            translated.insert("stdout".into(), text.clone());
            translated.insert("stderr".into(), json!(""));
            translated.insert("interrupted".into(), json!(false));
            raw.insert("tool_response".into(), Value::Object(translated));
        }
    }
    original
}

/// `key` (`cwd`, `session_id`) from the first of the host's variables
/// that is set, when the payload has none of its own.
pub fn fill_from_env(raw: &mut Map<String, Value>, key: &str, env: &HostEnv<'_>, vars: &[&str]) {
    if raw.contains_key(key) {
        return;
    }
    if let Some(value) = vars.iter().find_map(|name| mapping::var(env, name)) {
        raw.insert(key.into(), json!(value));
    }
}

/// The decision's context as `hookSpecificOutput.additionalContext` on the
/// events where a Gemini-family host shows it (after a tool, with a prompt,
/// at session start), unless the encoder already put one there; on any
/// other event it is dropped and noted, naming the event as `shown_as`.
pub fn context_after_tool_prompt_and_session(a: &mut Answer<'_>, host: &str, shown_as: &str) {
    let Some(context) = &a.decision.context else {
        return;
    };
    if matches!(
        a.event.id.known(),
        Some(K::PostToolUse | K::PostToolUseFailure | K::UserPromptSubmit | K::SessionStart)
    ) {
        a.hso
            .entry("additionalContext")
            .or_insert_with(|| json!(context));
    } else {
        a.notes.push(format!(
            "additionalContext dropped: {host} shows it only after a tool, with the prompt and at session start, not on {shown_as}"
        ));
    }
}

/// The hooks' pass-through fields (`sessionTitle`…), none of which the
/// host has: noted, not sent.
pub fn passthrough_not_sent(a: &mut Answer<'_>, host: &str) {
    for key in a.decision.passthrough.keys() {
        a.notes
            .push(format!("`{key}` has no {host} equivalent: not sent"));
    }
}

/// A stop of the turn as Claude Code's `continue: false` (and its
/// `stopReason`), for hosts that read it alike.
pub fn stop_turn(a: &mut Answer<'_>) {
    a.top.insert("continue".into(), json!(false));
    if let Some(reason) = &a.decision.stop_reason {
        a.top.insert("stopReason".into(), json!(reason));
    }
}

/// The carry key of a tool call as the host sent it (its own tool name and
/// input, which its after-tool event repeats), for a host whose
/// before-tool answer cannot carry context ([`super::Host::carry_key`]).
pub fn call_key_as_sent(event: &Event) -> Option<String> {
    let tool = mapping::host_tool_of(event)?;
    let input = mapping::host_tool_input_of(event)?;
    Some(crate::event::call_key(tool, Some(input)))
}

/// The files an `apply_patch` patch touches, in order.
pub fn patch_files(patch: &str) -> Vec<String> {
    patch
        .lines()
        .filter_map(|line| {
            [
                "*** Add File: ",
                "*** Update File: ",
                "*** Delete File: ",
                "*** Move to: ",
            ]
            .iter()
            // Codex trims the header (`  *** Delete File: .env` deletes).
            .find_map(|prefix| line.trim_start().strip_prefix(prefix))
        })
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

/// An `apply_patch` call's files as `tool_input.file_path` (the first) and
/// `file_paths` (every one), relative ones resolved against `cwd`; the note
/// when there are several.
pub fn add_patch_files(raw: &mut Map<String, Value>) -> Option<String> {
    let cwd = raw
        .get("cwd")
        .and_then(Value::as_str)
        .map(std::path::PathBuf::from);
    let patch = raw
        .get("tool_input")
        .and_then(|i| i.get("command"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let files: Vec<String> = patch_files(patch)
        .into_iter()
        .map(|f| match &cwd {
            Some(dir) if !f.starts_with('/') => dir.join(&f).display().to_string(),
            _ => f,
        })
        .collect();
    if let Some(Value::Object(input)) = raw.get_mut("tool_input") {
        if let Some(first) = files.first() {
            input.insert("file_path".into(), json!(first));
        }
        input.insert("file_paths".into(), json!(files));
    }
    (files.len() > 1).then(|| {
        format!(
            "the patch touches {} files: `if` rules and permissions see the first as file_path; every one is in tool_input.file_paths",
            files.len()
        )
    })
}

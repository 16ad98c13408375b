//! What more than one host's adapter needs and no single host owns: kept
//! here so that each host's module holds only its own facts, and no host
//! reaches into another's.

use serde_json::{Map, Value, json};

use super::mapping;
use crate::event::Event;

/// The carry key of a tool call as the host sent it (its own tool name and
/// input, which its after-tool event repeats), for a host whose
/// before-tool answer cannot carry context ([`super::Host::carry_key`]).
pub fn call_key_as_sent(event: &Event) -> Option<String> {
    let tool = mapping::host_tool_of(event)?;
    let input = mapping::host_tool_input_of(event)?;
    Some(crate::carry::call_key(tool, Some(input)))
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

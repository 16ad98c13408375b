//! Factory Droid (measured against 0.225.1, its Linux binary 0.225.2), which
//! reads Claude Code-format hooks from `.factory/settings.json`,
//! `.factory/hooks.json` and their `~/.factory` twins.
//!
//! What the adapter relies on (tools/hosts/droid/FINDINGS.md):
//! - event names, payload fields and answer fields are Claude Code's; tool
//!   names are Droid's own (`Execute` is Bash, `Create` is Write…), and so
//!   are some `tool_input` keys (`old_str`, `directory_path`, `patterns`);
//! - a PreToolUse deny is `permissionDecision: "deny"` (or exit 2 with the
//!   reason on stderr); `ask` does nothing headless (`droid exec` runs the
//!   call), so hookrun denies instead; `allow` skips Droid's autonomy check,
//!   as Claude Code's skips its permission check;
//! - `updatedInput` is merged into the call, not put in its place: a field
//!   the rewrite leaves out keeps its value. A rewrite that leaves out a
//!   field Droid would keep (other than the call's description and risk
//!   notes) cannot be expressed, so hookrun denies the call;
//! - PreToolUse drops `additionalContext` (hookrun carries it to the same
//!   call's PostToolUse, which shows it) and the top-level `decision`;
//!   PostToolUse reads exit 2's stderr, not `decision: block`;
//! - Stop blocks make the agent go on, with no cap of Droid's own (hookrun's
//!   stop-loop guard is the only one); timeouts are whole seconds, 60 by
//!   default; `droid exec` fires no UserPromptSubmit.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::answer::Adapting;
use super::common;
use super::mapping::{self, EventRow, ToolRow, Translated, tool, wired};
use super::wiring::{Shape, Wiring};
use super::{Adapted, Decoded, Encoded, Facts, Host, HostEnv, HostId};
use crate::aggregate::Decision;
use crate::catalog::KnownEvent as K;
use crate::event::{Event, InputError};
use crate::verdict::Permission;

/// Droid's events: Claude Code's names.
pub static EVENTS: &[EventRow] = &[
    wired("PreToolUse", "PreToolUse"),
    wired("PostToolUse", "PostToolUse"),
    wired("UserPromptSubmit", "UserPromptSubmit"),
    wired("Stop", "Stop"),
    wired("SubagentStop", "SubagentStop"),
    wired("SessionStart", "SessionStart"),
    wired("SessionEnd", "SessionEnd"),
    wired("Notification", "Notification"),
    wired("PreCompact", "PreCompact"),
];

/// Droid tool → Claude Code tool, with the `tool_input` renames.
pub static TOOLS: &[ToolRow] = &[
    tool("Execute", "Bash", &[]),
    tool("Create", "Write", &[]),
    tool(
        "Edit",
        "Edit",
        &[
            ("old_str", "old_string"),
            ("new_str", "new_string"),
            ("change_all", "replace_all"),
        ],
    ),
    // Read rules see the folder listed.
    tool("LS", "Read", &[("directory_path", "file_path")]),
    tool(
        "Grep",
        "Grep",
        &[
            ("glob_pattern", "glob"),
            ("case_insensitive", "-i"),
            ("context_before", "-B"),
            ("context_after", "-A"),
            ("context", "-C"),
            ("line_numbers", "-n"),
        ],
    ),
    tool("Glob", "Glob", &[("folder", "path")]),
    tool("ApplyPatch", "Edit", &[]),
    tool("FetchUrl", "WebFetch", &[]),
    tool("Task", "Agent", &[]),
    tool("AskUser", "AskUserQuestion", &[]),
];

/// Droid's tools that keep their name behind hookrun and are not Claude
/// Code's (`Read`, `Skill`, `TodoWrite`, `WebSearch`, `TaskOutput`,
/// `TaskStop`, `ToolSearch` are both).
pub const TOOL_NAMES: &[&str] = &[
    "Script",
    "WaitForScript",
    "Loop",
    "StageSettingsChanges",
    "GenerateImage",
    "getIdeDiagnostics",
    "ExitSpecMode",
    "RecommendMission",
    "ExitMissionPlanning",
    "ProposeMission",
    "StartMissionRun",
    "SelectFeature",
    "EndFeatureRun",
    "DismissHandoffItems",
    "ConnectorSearch",
    "ConnectApp",
    "CreateAutomation",
    "EditAutomation",
    "DeleteAutomation",
];

/// Fields of a Droid tool call that describe it and change nothing it does:
/// a rewrite may leave them out although Droid keeps them.
const DESCRIPTIVE: &[(&str, &[&str])] =
    &[("Execute", &["summary", "riskLevel", "riskLevelReason"])];

/// Droid's default hook timeout (seconds in its settings).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Droid;

pub static FACTS: Facts = Facts {
    id: HostId::Droid,
    name: "droid",
    display: "Factory Droid",
    measured: Some("0.225.1"),
    events: EVENTS,
    tools: TOOLS,
    tool_names: TOOL_NAMES,
    wiring: &WIRING,
    timeout: DEFAULT_TIMEOUT,
    on_127: "Factory Droid reads exit 127 as a failed hook and runs the call: every guard is off",
    sets_claude_project_dir: true,
    project_dir_var: Some("FACTORY_PROJECT_DIR"),
};

/// The events `hookrun install` routes: the [`EVENTS`] rows marked wired.
static WIRED: [(&str, &str); mapping::wired_count(EVENTS)] = mapping::wired_events(EVENTS);

pub static WIRING: Wiring = Wiring {
    host: HostId::Droid,
    project_file: ".factory/settings.json",
    user_file: ".factory/settings.json",
    shape: Shape::Nested,
    events: &WIRED,
    command_key: "command",
    timeout: Some(("timeout", 60)),
    timeout_unit_ms: 1000,
    typed: true,
    versioned: false,
    name: None,
    also_read_by: &[],
    routes_with: super::wiring::CARRIES_PRE_TOOL_CONTEXT,
};

/// `server___tool`, Droid's name for an MCP tool.
fn mcp(name: &str, _raw: &Map<String, Value>) -> Option<String> {
    let (server, tool) = name.split_once("___")?;
    (!server.is_empty() && !tool.is_empty()).then(|| mapping::mcp_name(server, tool))
}

/// The shapes Droid's tools do not share with Claude Code's (after the
/// renames): Glob's list of patterns, ApplyPatch's patch text.
fn shape_input(raw: &mut Map<String, Value>, host_tool: Option<&str>) -> Option<String> {
    let Some(Value::Object(input)) = raw.get_mut("tool_input") else {
        return None;
    };
    match host_tool? {
        "Glob" => {
            let first = input
                .get("patterns")
                .and_then(Value::as_array)
                .and_then(|p| p.first())
                .cloned();
            if let Some(first) = first {
                input.entry("pattern").or_insert(first);
            }
            None
        }
        "ApplyPatch" => {
            if let Some(patch) = input.get("input").cloned() {
                input.insert("command".into(), patch);
            }
            let note = common::add_patch_files(raw);
            if let Some(Value::Object(input)) = raw.get_mut("tool_input") {
                input.remove("command");
            }
            note
        }
        _ => None,
    }
}

impl Host for Droid {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn decode(
        &self,
        mut raw: Map<String, Value>,
        arg: Option<&str>,
        env: &HostEnv<'_>,
    ) -> Result<Decoded, InputError> {
        let mut t = Translated::begin(&FACTS, &mut raw, arg, mcp)?;
        if let Some(note) = shape_input(&mut raw, t.host_tool.as_deref()) {
            t.notices.notes.push(note);
        }
        // A shell's result as Claude Code's: Droid sends the output text.
        if t.host_tool.as_deref() == Some("Execute") {
            if let Some(Value::String(text)) = raw.get("tool_response").cloned() {
                t.keep("tool_response", Some(json!(text)));
                raw.insert("tool_response".into(), json!({"stdout": text}));
            }
        }
        common::fill_from_env(&mut raw, "cwd", env, &["FACTORY_PROJECT_DIR"]);
        mapping::finish(raw, t)
    }

    /// Droid drops a PreToolUse answer's context (measured) but shows a
    /// PostToolUse one: the context rides there. A rewritten call's
    /// PostToolUse carries Droid's merged input, so nothing is kept for it.
    fn carry_key(&self, event: &Event, updated: Option<&Value>) -> Option<String> {
        if updated.is_some() {
            return None;
        }
        common::call_key_as_sent(event)
    }

    fn adapt(&self, event: &Event, decision: &Decision) -> Adapted {
        adapt(event, decision)
    }

    fn render(&self, event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
        encode(event, decision, adapted)
    }

    fn install_note(&self, _path: &std::path::Path) -> Option<String> {
        Some("note: Factory Droid runs every hook of an event at once and takes the first hook's allow over a later hook's deny: keep hookrun the only hook of each event in Droid's settings and hooks.json files (put the others in hookrun's). Check with `hookrun doctor`.\n".to_owned())
    }
}

/// The fields of the call as Droid sent it that a rewrite leaves out and
/// Droid would keep (its merge), but for the descriptive ones.
fn kept_by_merge(event: &Event, updated: &Value) -> Vec<String> {
    let host_tool = mapping::host_tool_of(event).unwrap_or_default();
    let rewrite = droid_input(event, updated);
    let descriptive = DESCRIPTIVE
        .iter()
        .find(|(tool, _)| *tool == host_tool)
        .map_or(&[][..], |(_, fields)| fields);
    let Some(Value::Object(original)) = mapping::host_tool_input_of(event) else {
        return Vec::new();
    };
    original
        .keys()
        .filter(|key| rewrite.get(key.as_str()).is_none() && !descriptive.contains(&key.as_str()))
        .cloned()
        .collect()
}

/// A rewrite in Droid's field names.
fn droid_input(event: &Event, updated: &Value) -> Map<String, Value> {
    let host_tool = mapping::host_tool_of(event).unwrap_or_default();
    let mut input = mapping::rewrite_for_host(event, TOOLS, updated);
    if host_tool == "ApplyPatch" {
        if let Value::Object(fields) = &mut input {
            for derived in ["file_path", "file_paths", "command"] {
                fields.remove(derived);
            }
            if let Some(patch) = updated
                .get("command")
                .filter(|_| !fields.contains_key("input"))
            {
                fields.insert("input".into(), patch.clone());
            }
        }
    }
    match input {
        Value::Object(fields) => fields,
        _ => Map::new(),
    }
}

/// What Factory Droid cannot do: ask headless (an `ask` becomes a deny), or
/// apply a rewrite that leaves a field out (it merges).
pub fn adapt(event: &Event, decision: &Decision) -> Adapted {
    let mut a = Adapting::new(event, decision);
    if event.id.known() == Some(K::PreToolUse) {
        a.ask_becomes_deny(
            "Factory Droid does not ask headless: `droid exec` runs a call a hook asks about",
            "approval required, but Factory Droid cannot ask: ",
        );
        if a.block.is_none() {
            if let Some(updated) = &decision.updated_input {
                let kept = kept_by_merge(event, updated);
                if !kept.is_empty() {
                    let fields = kept
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    a.rewrite_becomes_deny(
                        format!("Factory Droid merges a rewrite into the call, so the {fields} the hook left out would keep their values: hookrun denied the call instead"),
                        &format!("a hook rewrote this call without {fields}, which Factory Droid would keep"),
                    );
                }
            }
        }
    }
    a.done()
}

/// The adapted decision in Claude Code's protocol, as Droid reads it.
pub fn encode(event: &Event, decision: &Decision, adapted: &Adapted) -> Encoded {
    let mut shown = decision.clone();
    let mut notes = Vec::new();
    shown.block = adapted.block(decision).map(str::to_owned);
    shown.stop = adapted.stop(decision);
    if shown.block.is_some() {
        shown.permission = None;
        shown.updated_input = None;
    }
    if shown.permission == Some(Permission::Defer) {
        notes.push(
            "Factory Droid has no `defer`: nothing sent, so its own autonomy check decides"
                .to_owned(),
        );
        shown.permission = None;
    }
    let known = event.id.known();
    if known == Some(K::PreToolUse) {
        if let Some(updated) = &shown.updated_input {
            shown.updated_input = Some(Value::Object(droid_input(event, updated)));
        }
        if shown.context.take().is_some() {
            notes.push(
                "additionalContext is not sent on PreToolUse: Factory Droid drops it there (it arrives with the same call's PostToolUse answer)"
                    .to_owned(),
            );
        }
    }
    for key in std::mem::take(&mut shown.passthrough).keys() {
        notes.push(format!("`{key}` has no Factory Droid equivalent: not sent"));
    }
    let rendered = super::claude::render(&event.id, &shown);
    Encoded { rendered, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(raw: Value) -> Event {
        let Value::Object(raw) = raw else {
            panic!("not an object: {raw}")
        };
        Droid.decode(raw, None, &HostEnv::new(&[])).unwrap().event
    }

    #[test]
    fn droid_tools_are_claude_codes() {
        let event = decoded(
            json!({"hook_event_name": "PreToolUse", "tool_name": "Execute",
            "tool_input": {"summary": "s", "command": "ls", "riskLevel": "low"}}),
        );
        assert_eq!(event.tool_name(), Some("Bash"));
        let event = decoded(json!({"hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": "/p/a", "old_str": "x", "new_str": "y", "change_all": true}}));
        assert_eq!(
            event.tool_input(),
            Some(
                &json!({"file_path": "/p/a", "old_string": "x", "new_string": "y", "replace_all": true})
            )
        );
        let event = decoded(json!({"hook_event_name": "PreToolUse", "tool_name": "Glob",
            "tool_input": {"patterns": ["*.rs", "*.md"], "folder": "/p"}}));
        assert_eq!(event.tool_input().unwrap()["pattern"], "*.rs");
        assert_eq!(event.tool_input().unwrap()["path"], "/p");
        let event = decoded(
            json!({"hook_event_name": "PreToolUse", "tool_name": "ApplyPatch", "cwd": "/p",
            "tool_input": {"input": "*** Begin Patch\n*** Update File: .env\n@@\n-a\n+b\n*** End Patch"}}),
        );
        assert_eq!(event.tool_name(), Some("Edit"));
        assert_eq!(event.tool_input().unwrap()["file_path"], "/p/.env");
        let event =
            decoded(json!({"hook_event_name": "PreToolUse", "tool_name": "github___create_issue"}));
        assert_eq!(event.tool_name(), Some("mcp__github__create_issue"));
    }

    #[test]
    fn an_execute_result_is_a_shells() {
        let event = decoded(
            json!({"hook_event_name": "PostToolUse", "tool_name": "Execute",
            "tool_input": {"command": "echo hi"}, "tool_response": "hi\n"}),
        );
        assert_eq!(
            event.field("tool_response"),
            Some(&json!({"stdout": "hi\n"}))
        );
    }
}

#[cfg(test)]
mod golden;

//! Every host's decoder: no payload may make it panic, and a shell call of
//! `rm -rf /` (whatever else the payload carries, and behind the usual
//! wrappers) must reach the rules as a Bash call that `Bash(rm *)` denies.
//!
//! Input: a template byte, a wrapper byte, then a JSON object. The object
//! is decoded as it is by every host, under several event arguments; then
//! its fields are laid over the template's payload (top level, and inside
//! the tool input), the template's event, tool and command fields are put
//! back, and the decoded call is judged.
#![no_main]

use std::path::Path;

use hookrun::host::{HOSTS, HostEnv};
use hookrun::select::reading::ToolCall;
use hookrun::select::rule::{PathContext, Rule};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

/// Where a host's payload carries the shell command.
#[derive(Clone, Copy)]
enum Place {
    /// `tool_input.command`.
    ToolInput,
    /// `command` at the top (Cursor's beforeShellExecution).
    Top,
    /// `toolArgs`, a JSON string holding `{"command": …}` (Copilot).
    ToolArgsString,
}

const TEMPLATES: &[(&str, &str, Place)] = &[
    (
        "claude-code",
        include_str!("../../fixtures/events/pre_tool_use.json"),
        Place::ToolInput,
    ),
    (
        "gemini",
        include_str!("../../fixtures/hosts/gemini/before_tool__shell.json"),
        Place::ToolInput,
    ),
    (
        "codex",
        include_str!("../../fixtures/hosts/codex/pre_tool_use__bash.json"),
        Place::ToolInput,
    ),
    (
        "cursor",
        include_str!("../../fixtures/hosts/cursor/pre_tool_use__shell.json"),
        Place::ToolInput,
    ),
    (
        "cursor",
        include_str!("../../fixtures/hosts/cursor/before_shell_execution.json"),
        Place::Top,
    ),
    (
        "copilot",
        include_str!("../../fixtures/hosts/copilot/pre_tool_use__camel.json"),
        Place::ToolArgsString,
    ),
    (
        "copilot",
        include_str!("../../fixtures/hosts/copilot/pre_tool_use__pascal.json"),
        Place::ToolInput,
    ),
];

/// `rm -rf /` as it is, and behind wrappers a deny rule must see through.
const COMMANDS: &[&str] = &[
    "rm -rf /",
    "  rm   -rf   /  ",
    "bash -c 'rm -rf /'",
    "sh -c \"rm -rf /\"",
    "sudo rm -rf /",
    "env A=1 rm -rf /",
    "(rm -rf /)",
    "true && rm -rf /",
    "echo ok; rm -rf /",
    "/bin/rm -rf /",
];

/// The fields that say which event, tool and command this is.
const CARRIERS: &[&str] = &[
    "hook_event_name",
    "tool_name",
    "toolName",
    "tool_input",
    "toolArgs",
    "command",
];

fuzz_target!(|data: &[u8]| {
    let vars = Vec::new();
    let env = HostEnv::new(&vars);
    let fields: Option<Map<String, Value>> = data
        .get(2..)
        .and_then(|rest| serde_json::from_slice::<Value>(rest).ok())
        .and_then(|value| match value {
            Value::Object(map) => Some(map),
            _ => None,
        });
    if let Some(raw) = &fields {
        for host in HOSTS {
            for arg in [
                None,
                Some("PreToolUse"),
                Some("BeforeTool"),
                Some("preToolUse"),
                Some("beforeShellExecution"),
                Some("Stop"),
            ] {
                let _ = host.decode(raw.clone(), arg, &env);
            }
        }
    }

    let (Some(&which), Some(&wrapper)) = (data.first(), data.get(1)) else {
        return;
    };
    let (host_name, template, place) = TEMPLATES[usize::from(which) % TEMPLATES.len()];
    let command = COMMANDS[usize::from(wrapper) % COMMANDS.len()];
    let Ok(Value::Object(template)) = serde_json::from_str::<Value>(template) else {
        panic!("template {host_name} is not an object");
    };
    let extra = fields.unwrap_or_default();
    let mut payload = template.clone();
    for (key, value) in &extra {
        if !CARRIERS.contains(&key.as_str()) {
            payload.insert(key.clone(), value.clone());
        }
    }
    // The tool input keeps whatever else the fuzzer put in it.
    let mut input = match extra.get("tool_input") {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    input.insert("command".into(), command.into());
    match place {
        Place::ToolInput => {
            payload.insert("tool_input".into(), Value::Object(input));
        }
        Place::Top => {
            payload.insert("command".into(), command.into());
        }
        Place::ToolArgsString => {
            payload.insert("toolArgs".into(), Value::Object(input).to_string().into());
        }
    }
    let host = HOSTS
        .iter()
        .find(|h| h.name() == host_name)
        .expect("a host of that name");
    // A payload the host's decoder refuses is unusable input (a warning,
    // or a block under --fail-closed): not a call the rules judge.
    let Ok(decoded) = host.decode(payload.clone(), None, &env) else {
        return;
    };
    let event = decoded.event;
    assert_eq!(
        event.tool_name(),
        Some("Bash"),
        "{host_name}: {}",
        Value::Object(payload)
    );
    let tool_input = event.tool_input().expect("a Bash call has a tool input");
    let rule = Rule::parse("Bash(rm *)").expect("the rule parses");
    let paths = PathContext {
        cwd: Path::new("/p"),
        home: Some(Path::new("/home/u")),
        anchor: Path::new("/p"),
        style: hookrun::select::path_style::PathStyle::Posix,
    };
    let call = ToolCall {
        tool_name: "Bash",
        tool_input,
    };
    assert!(
        rule.matches_any(call, &paths).matched(),
        "{host_name}: Bash(rm *) does not see {command:?} in {tool_input}"
    );
});

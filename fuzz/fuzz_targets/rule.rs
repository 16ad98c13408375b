//! The `if` / permission rule engine: parse any rule, match it against any
//! Bash command and file path. Input: rule, NUL, tool name, NUL, command.
#![no_main]

use std::path::Path;

use hookrun::select::reading::ToolCall;
use hookrun::select::rule::{PathContext, Rule};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(3, '\0');
    let rule = parts.next().unwrap_or_default();
    let tool = parts.next().unwrap_or("Bash");
    let command = parts.next().unwrap_or("rm -rf /");
    let Ok(rule) = Rule::parse(rule) else {
        return;
    };
    let paths = PathContext {
        cwd: Path::new("/p/src"),
        home: Some(Path::new("/home/u")),
        anchor: Path::new("/p"),
        style: hookrun::select::path_style::PathStyle::Posix,
    };
    for input in [
        serde_json::json!({ "command": command }),
        serde_json::json!({ "file_path": command }),
        serde_json::json!({ "url": command }),
    ] {
        let call = ToolCall {
            tool_name: tool,
            tool_input: &input,
        };
        let _ = rule.matches_any(call, &paths);
    }
});

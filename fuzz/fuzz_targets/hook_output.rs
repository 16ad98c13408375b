//! A hook's answer: any stdout and stderr, for an exit code taken from the
//! first byte, read for a few events of different encodings.
#![no_main]

use hookrun::catalog::EventId;
use hookrun::verdict::{Ending, HookOutput, read};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let split = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    let (stdout, stderr) = rest.split_at(split);
    let ending = match first % 5 {
        0 | 3 => Ending::Exited(0),
        1 => Ending::Exited(2),
        2 => Ending::Exited(i32::from(first)),
        _ => Ending::TimedOut { seconds: 1.0 },
    };
    let input = serde_json::json!({ "command": "ls" });
    for name in ["PreToolUse", "Stop", "UserPromptSubmit", "WorktreeCreate", "PermissionRequest"] {
        let event = EventId::resolve(name);
        let out = HookOutput {
            name: "fuzz",
            ending: &ending,
            stdout,
            stdout_truncated: first & 0x80 != 0,
            stderr,
            fail_closed: first & 0x40 != 0,
            tool_input: Some(&input),
        };
        let _ = read(&event, &out);
    }
});

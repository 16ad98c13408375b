//! The event parser, and what is read from a parsed event.
#![no_main]

use hookrun::event::Event;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for name in [None, Some("PreToolUse"), Some("FileChanged")] {
        if let Ok(event) = Event::parse(data, name) {
            let _ = event.match_value();
            let _ = event.tool_input();
            let _ = event.cwd();
            let bytes = event.to_hook_bytes();
            // What hooks get must parse back.
            assert!(Event::parse(&bytes, name).is_ok());
        }
    }
});

//! The `matcher` field: compile any pattern, match any value.
//! Input: pattern, NUL, value.
#![no_main]

use hookrun::select::matcher::Matcher;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (pattern, value) = text.split_once('\0').unwrap_or((text, "Bash"));
    for strict in [false, true] {
        let matcher = Matcher::compile(Some(pattern), strict);
        // The backtracking engine's worker outlives its budget (it is left
        // to finish); short values keep those workers short here.
        let value = if matcher.is_backtracking() {
            &value[..value.floor_char_boundary(16)]
        } else {
            value
        };
        let _ = matcher.matches(value);
    }
});

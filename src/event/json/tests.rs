//! The JSON reading held to `serde_json`'s and to the first, byte-at-a-time
//! scan; and an event read with long strings left undecoded held to one
//! read whole.

use super::*;
use crate::event::{Bytes, Event};

#[test]
fn deep_nesting_is_read_up_to_the_limit() {
    // Run where the fire runs: on a stack sized for the limit.
    crate::stack::on_big_stack(|| {
        let depth = MAX_JSON_DEPTH - 2;
        let input = format!(
            r#"{{"tool_name":"Bash","tool_input":{{"command":"rm x","d":{}1{}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let event = Event::parse(input.as_bytes(), Some("PreToolUse")).unwrap();
        assert_eq!(event.tool_input().unwrap()["command"], "rm x");
        let again = Event::parse(&event.to_hook_bytes(), None).unwrap();
        assert_eq!(again.fields(), event.fields());
        let too_deep = format!(
            "{{\"a\":{}{}}}",
            "[".repeat(MAX_JSON_DEPTH),
            "]".repeat(MAX_JSON_DEPTH)
        );
        assert!(matches!(
            Event::parse(too_deep.as_bytes(), Some("Stop")),
            Err(InputError::TooDeep { at }) if at == MAX_JSON_DEPTH + 4
        ));
    });
    // The 129 levels serde_json refuses by default.
    let input = format!("{{\"d\":{}1{}}}", "{\"a\":".repeat(200), "}".repeat(200));
    assert!(Event::parse(input.as_bytes(), Some("Stop")).is_ok());
}

#[test]
fn lone_surrogates_become_the_replacement_character() {
    let cases: &[(&str, &str)] = &[
        (r#""\ud83d""#, "\u{FFFD}"),
        (r#""a\ud83d b""#, "a\u{FFFD} b"),
        (r#""\ude00""#, "\u{FFFD}"),
        (r#""\ud83d\ude00""#, "😀"),
        (r#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"),
        (r#""\\ud83d""#, "\\ud83d"),
        (r#""\uD83D\u0041""#, "\u{FFFD}A"),
        (r#""x\ud83d""#, "x\u{FFFD}"),
    ];
    for (json, expected) in cases {
        let value = parse_json(json.as_bytes()).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(value, Value::String((*expected).to_owned()), "{json}");
    }
    // Keys too, and the surrounding document is untouched.
    let value = parse_json(br#"{"k\udc00":[1,"\ud800"],"n":2}"#).unwrap();
    assert_eq!(
        value,
        serde_json::json!({"k\u{FFFD}": [1, "\u{FFFD}"], "n": 2})
    );
    // Malformed JSON stays an error.
    assert!(parse_json(br#""\ud83"#).is_err());
    assert!(parse_json(b"[1,]").is_err());
    assert!(parse_json(b"{} x").is_err());
}

/// The scan as it was first written, one byte at a time: the
/// reference the jumping scan must agree with.
fn reference_scan(bytes: &[u8]) -> Result<(Option<Vec<u8>>, Scan), usize> {
    fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        u32::from_str_radix(text, 16).ok()
    }
    let mut scan = Scan {
        compact: true,
        ..Scan::default()
    };
    let mut depth = 0usize;
    let mut in_string = false;
    let mut fixed: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'"' => in_string = false,
                b'\\' => {
                    if bytes.get(i + 1) == Some(&b'u') {
                        if let Some(unit) = hex4(bytes, i + 2) {
                            let paired = (0xD800..0xDC00).contains(&unit)
                                && bytes.get(i + 6) == Some(&b'\\')
                                && bytes.get(i + 7) == Some(&b'u')
                                && hex4(bytes, i + 8)
                                    .is_some_and(|low| (0xDC00..0xE000).contains(&low));
                            if paired {
                                i += 12;
                                continue;
                            }
                            if (0xD800..0xE000).contains(&unit) {
                                let out = fixed.get_or_insert_with(Vec::new);
                                out.extend_from_slice(&bytes[copied..i]);
                                out.extend_from_slice(b"\\ufffd");
                                copied = i + 6;
                            }
                            i += 6;
                            continue;
                        }
                    }
                    i += 2;
                    continue;
                }
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_JSON_DEPTH {
                        return Err(i);
                    }
                    scan.max_depth = scan.max_depth.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                b':' => scan.members += 1,
                b'\n' if i + 1 == bytes.len() => {}
                b' ' | b'\t' | b'\n' | b'\r' => scan.compact = false,
                _ => {}
            }
        }
        i += 1;
    }
    if let Some(out) = &mut fixed {
        out.extend_from_slice(&bytes[copied..]);
        scan.fixed = true;
    }
    Ok((fixed, scan))
}

fn scanned(bytes: &[u8]) -> Result<(Option<Vec<u8>>, Scan), usize> {
    scan_json(bytes).map_err(|err| match err {
        JsonError::TooDeep { at } => at,
        JsonError::Syntax(err) => panic!("the scan does not parse: {err}"),
    })
}

#[test]
fn the_scan_measures_depth_and_compactness() {
    let scan = |text: &str| scanned(text.as_bytes()).unwrap().1;
    assert_eq!(
        scan("{\"a\":[1,{\"b\":\"]]}}\"}],\"c\":{}}\n"),
        Scan {
            max_depth: 3,
            compact: true,
            fixed: false,
            members: 3,
        }
    );
    assert_eq!(scan("3").max_depth, 0);
    assert_eq!(scan(r#"{"a":"x y\n\"{"}"#).max_depth, 1);
    assert!(
        scan(r#"{"a":"x y\n\"{"}"#).compact,
        "whitespace inside strings"
    );
    for loose in [
        "{ }",
        "{}\n\n",
        "{}\r\n",
        " {}",
        "{\"a\":\t1}",
        "{}\n ",
        "{\n}",
    ] {
        assert!(!scan(loose).compact, "{loose:?}");
    }
    let lone = scan(r#"{"a":"\ud83d"}"#);
    assert!(lone.fixed && lone.compact);
    assert!(!scan(r#"{"a":"\ud83d\ude00"}"#).fixed);
    // Truncated texts: the scan stops, the parser refuses.
    assert_eq!(scan(r#"{"a":"abc\"#).max_depth, 1);
    assert_eq!(scan(r#"{"a":"\ud8"#).max_depth, 1);
    assert!(matches!(
        read_object_scanned(br#"{"a":"\u"#),
        Err(InputError::NotJson(_))
    ));
    let (_, scan) = read_object_scanned(b"{\"a\":[[[]]]}\n").unwrap();
    assert_eq!(scan.max_depth, 4);
}

use proptest::strategy::Strategy as _;

/// A piece of a JSON string as written: plain text, every escape
/// (surrogates too), and what a string may not hold.
fn arb_string_part() -> impl proptest::strategy::Strategy<Value = String> + Clone {
    use proptest::prelude::*;
    prop_oneof![
        "[a-zA-Z0-9 é😀/<>]{0,5}",
        prop::sample::select(vec![
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\n",
            "\\r",
            "\\t",
            "\\u00e9",
            "\\u0000",
            "\\ud83d",
            "\\ude00",
            "\\ud83d\\ude00",
            "\\uD83D\\uDE00",
            "\\ud800\\u0041",
            "\\u001f",
            "\u{1}",
            "\\x",
            "\\u12",
            "\\uzzzz",
            "\u{7f}",
            "\u{2028}",
        ])
        .prop_map(str::to_owned),
    ]
}

/// JSON text (mostly valid) with the spellings hosts and hooks use.
fn arb_json_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let space = prop::sample::select(vec!["", "", "", " ", "\n", "\t", "\r\n"]);
    let string_part = arb_string_part();
    let string = prop::collection::vec(string_part, 0..4)
        .prop_map(|parts| format!("\"{}\"", parts.concat()));
    let number = prop::sample::select(vec![
        "0",
        "-0",
        "1",
        "-1",
        "1.0",
        "1.5e3",
        "1.0e3",
        "1E-2",
        "1e+2",
        "12345678901234567890",
        "123456789012345678901234567890",
        "-9223372036854775808",
        "0.1",
        "3.141592653589793",
        "1e400",
        "01",
        "1.",
        ".5",
        "-",
        "1e",
        "2.5E+10",
    ])
    .prop_map(str::to_owned);
    let leaf = prop_oneof![
        string.clone(),
        number,
        prop::sample::select(vec!["true", "false", "null", "nul", "tru"]).prop_map(str::to_owned),
    ];
    leaf.prop_recursive(6, 48, 5, move |inner| {
        let space = space.clone();
        let string = string.clone();
        prop_oneof![
            prop::collection::vec((inner.clone(), space.clone()), 0..5).prop_map(|items| {
                let body: Vec<String> = items
                    .into_iter()
                    .map(|(v, s)| format!("{s}{v}{s}"))
                    .collect();
                format!("[{}]", body.join(","))
            }),
            prop::collection::vec(
                (prop_oneof![string, Just("\"k\"".to_owned())], inner, space),
                0..5
            )
            .prop_map(|members| {
                let body: Vec<String> = members
                    .into_iter()
                    .map(|(k, v, s)| format!("{s}{k}{s}:{v}"))
                    .collect();
                format!("{{{}}}", body.join(","))
            }),
        ]
    })
    .prop_flat_map(|text| {
        (
            Just(text),
            prop::sample::select(vec!["", "", "\n", " ", "\n\n", "x", ","]),
        )
    })
    .prop_map(|(text, tail)| format!("{text}{tail}"))
}

proptest::proptest! {
    /// The scan that jumps between quotes and backslashes inside strings
    /// says exactly what the byte-at-a-time reference says (depth,
    /// compactness, surrogate fixes, where it refused) on JSON-ish text
    /// full of the bytes that matter to it.
    #[test]
    fn the_fast_scan_agrees_with_the_reference(
        parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(vec![
                    "\"", "\\", "\\\"", "\\\\", "\\u", "\\ud83d", "\\ude00", "\\uD800",
                    "\\u0041", "\\udbff\\udfff", "\\u+d83", "{", "}", "[", "]", ":",
                    ",", " ", "\n", "\t", "\r", "a", "1", "é", "ud83d",
                ]).prop_map(str::to_owned),
                "[a-f0-9\"\\\\{}\\[\\] u]{0,6}",
            ],
            0..40,
        ),
    ) {
        let text = parts.concat();
        proptest::prop_assert_eq!(scanned(text.as_bytes()), reference_scan(text.as_bytes()));
    }

    /// The one-pass reader reads what the scan and `serde_json` read,
    /// and says what their scan saw, on JSON text with every spelling
    /// a host might use (escapes, surrogates, number forms, spacing)
    /// and on broken text (refusals come from the same reading, so the
    /// message is the same).
    #[test]
    fn the_fast_reader_agrees_with_scan_then_serde(text in arb_json_text(), cut in 0usize..400) {
        for text in [text.clone(), text.chars().take(cut).collect::<String>()] {
            let fast = parse_json_scanned(text.as_bytes()).map_err(|e| e.to_string());
            let slow = scan_then_parse(text.as_bytes()).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(fast, slow, "{:?}", text);
        }
    }

    /// Deep nesting: the depth and where the limit is passed agree too.
    #[test]
    fn the_fast_scan_agrees_on_depth(
        open in 0..MAX_JSON_DEPTH + 3,
        inner in "[\"\\\\a\\[\\]]{0,4}",
    ) {
        let text = format!("{}{inner}{}", "[".repeat(open), "]".repeat(open));
        proptest::prop_assert_eq!(scanned(text.as_bytes()), reference_scan(text.as_bytes()));
    }
}

/// An event read with long strings left undecoded, as `fire` reads it
/// for a host whose decoding is the identity.
fn deferring(text: &[u8], defer_from: usize) -> Option<Event> {
    let (value, scan, deferrals) = Fast::parse_with(text, defer_from)?;
    let Value::Object(fields) = value else {
        return None;
    };
    let mut event = Event::from_object(fields, Some("PreToolUse")).ok()?;
    event.keep_host_line(Bytes::from(text.to_vec()), &scan, deferrals);
    Some(event)
}

proptest::proptest! {
    /// Strings left undecoded change nothing anyone can see: the same
    /// texts are refused, the scan sees the same, and every field, the
    /// bytes hooks get and the length floor agree with the reading that
    /// decodes everything; whether the host line is kept (a compact
    /// text naming the event) or not (then it is read whole at once).
    #[test]
    fn deferred_strings_read_as_decoded_ones(
        inner in arb_json_text(),
        defer_from in 0usize..6,
        named in proptest::bool::ANY,
    ) {
        let name = if named { r#""hook_event_name":"PreToolUse","# } else { "" };
        // As written, and as a compact serialiser writes it (the host
        // line is kept for those).
        let compact = parse_json(inner.as_bytes()).ok().map(|value| value.to_string());
        for inner in std::iter::once(inner).chain(compact) {
            let text = format!(r#"{{{name}"tool_name":"Write","tool_input":{inner},"n":[{inner}]}}"#);
            agrees_deferred(text.as_bytes(), defer_from)?;
        }
    }
}

proptest::proptest! {
    /// Strings long enough to be read a block at a time are checked as
    /// the decoding reader checks them, wherever their escapes, quotes
    /// and control characters fall against the blocks.
    #[test]
    fn long_strings_are_checked_as_decoded_ones(
        parts in proptest::collection::vec(
            proptest::prop_oneof![
                9 => arb_string_part(),
                1 => proptest::sample::select(vec!["\"", "\u{0}", "\\"]).prop_map(str::to_owned),
            ],
            0..150,
        ),
        defer_from in 0usize..3,
    ) {
        let text = format!(
            r#"{{"hook_event_name":"PreToolUse","tool_input":{{"content":"{}"}},"n":1}}"#,
            parts.concat()
        );
        agrees_deferred(text.as_bytes(), defer_from)?;
    }
}

fn agrees_deferred(
    bytes: &[u8],
    defer_from: usize,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let text = String::from_utf8_lossy(bytes);
    let eager = Fast::parse(bytes);
    let lazy = Fast::parse_with(bytes, defer_from);
    proptest::prop_assert_eq!(eager.is_some(), lazy.is_some(), "{:?}", text);
    let (Some((_, eager_scan)), Some((_, lazy_scan, deferrals))) = (eager, lazy) else {
        return Ok(());
    };
    proptest::prop_assert_eq!(eager_scan, lazy_scan);
    let event = deferring(bytes, defer_from).expect("read");
    let whole = Event::parse(bytes, Some("PreToolUse")).expect("read");
    // The floors count while the strings are undecoded, which is
    // while the host line is kept (a key given twice is not).
    let kept = event
        .deferred
        .as_ref()
        .map_or(&[][..], |d| &d.deferrals.0[..]);
    proptest::prop_assert!(kept.is_empty() || kept == &deferrals.0[..]);
    for (key, floor) in kept {
        let json = serde_json::to_vec(&whole.fields()[key]).unwrap();
        proptest::prop_assert!(json.len() >= *floor, "{key}: {} < {floor}", json.len());
    }
    proptest::prop_assert_eq!(event.tool_name(), whole.tool_name());
    proptest::prop_assert_eq!(event.field("n"), whole.field("n"));
    proptest::prop_assert_eq!(event.tool_input(), whole.tool_input());
    proptest::prop_assert_eq!(event.fields(), whole.fields());
    proptest::prop_assert_eq!(event.to_hook_bytes(), whole.to_hook_bytes());
    let mut again = whole.clone();
    again.keep_host_line(
        Bytes::from(bytes.to_vec()),
        &eager_scan,
        Deferrals::default(),
    );
    proptest::prop_assert_eq!(event.passes_host_line(), again.passes_host_line());
    Ok(())
}

#[test]
fn a_long_content_is_decoded_only_when_asked_for() {
    let line = "fn f() { println!(\\\"caf\\u00e9 \\ud83d\\ude00\\\"); }\\n";
    let content = line.repeat(2 * DEFER_FROM / line.len());
    let text = format!(
        r#"{{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"/p/a.rs","content":"{content}"}}}}"#
    );
    let (fields, scan, deferrals) = read_object_deferring(text.as_bytes()).unwrap();
    assert_eq!(fields["tool_input"]["content"], "", "left undecoded");
    assert_eq!(fields["tool_input"]["file_path"], "/p/a.rs");
    let mut event = Event::from_object(fields, None).unwrap();
    event.keep_host_line(Bytes::from(text.clone().into_bytes()), &scan, deferrals);
    assert!(event.passes_host_line());
    // Read without decoding: the name, the match value, the length.
    assert_eq!(event.match_value(), "Write");
    assert!(event.deferred.as_ref().unwrap().full.get().is_none());
    assert!(event.tool_input_longer_than(content.len() / 2));
    assert!(!event.tool_input_longer_than(10 * content.len()));
    assert_eq!(&**event.hook_stdin(), format!("{text}\n").as_bytes());
    // Asked for: decoded, as the whole reading decodes it.
    let whole = Event::parse(text.as_bytes(), None).unwrap();
    assert_eq!(event.tool_input(), whole.tool_input());
    assert!(
        event.tool_input().unwrap()["content"]
            .as_str()
            .unwrap()
            .starts_with("fn f() { println!(\"caf\u{e9} \u{1F600}\"); }\n")
    );
    // Changed: whole, then changed; the host line is gone.
    let mut changed = whole.clone();
    let input = serde_json::json!({"file_path": "/p/b.rs"});
    changed.set_tool_input(input.clone());
    event.set_tool_input(input);
    assert!(event.deferred.is_none() && !event.passes_host_line());
    assert_eq!(event.fields(), changed.fields());
    assert_eq!(event.tool_input_before_replacement(), whole.tool_input());
    // The floor is what the string decodes to, and its quotes.
    let plain = format!(
        r#"{{"hook_event_name":"PreToolUse","tool_input":{{"c":"{}\u00e9\n\ud83d\ude00"}}}}"#,
        "x".repeat(DEFER_FROM)
    );
    let (fields, scan, deferrals) = read_object_deferring(plain.as_bytes()).unwrap();
    let mut event = Event::from_object(fields, None).unwrap();
    event.keep_host_line(Bytes::from(plain.into_bytes()), &scan, deferrals);
    let floor = DEFER_FROM + "é\n😀".len() + 2;
    assert!(event.tool_input_longer_than(floor - 1));
    assert!(!event.tool_input_longer_than(floor));
    // Refused as before: a control character in the long string.
    let broken = text.replacen("caf", "c\tf", 1);
    assert_eq!(
        read_object_deferring(broken.as_bytes())
            .map(|_| ())
            .map_err(|e| e.to_string()),
        read_object_scanned(broken.as_bytes())
            .map(|_| ())
            .map_err(|e| e.to_string()),
    );
    assert!(read_object_deferring(broken.as_bytes()).is_err());
    // Loose text: the line is not kept, so the object is read whole.
    let loose = text.replacen(',', ", ", 1);
    let (fields, scan, deferrals) = read_object_deferring(loose.as_bytes()).unwrap();
    assert!(!deferrals.is_empty());
    let mut event = Event::from_object(fields, None).unwrap();
    event.keep_host_line(Bytes::from(loose.into_bytes()), &scan, deferrals);
    assert!(!event.passes_host_line() && event.deferred.is_none());
    assert_eq!(event.fields(), whole.fields());
}

#[test]
fn a_long_string_reads_as_serde_reads_it() {
    let line = "fn f() { println!(\\\"caf\\u00e9 \\ud83d\\ude00\\\"); }\\n";
    let text = format!(
        "{{\"tool_input\":{{\"content\":\"{}\",\"n\":1}}}}\n",
        line.repeat(200_000 / line.len())
    );
    let (value, scan) = Fast::parse(text.as_bytes()).expect("valid JSON");
    assert_eq!(
        Ok((value, scan)),
        scan_then_parse(text.as_bytes()).map_err(|e| e.to_string())
    );
    let content = parse_json(text.as_bytes()).unwrap()["tool_input"]["content"].clone();
    assert!(
        content
            .as_str()
            .unwrap()
            .starts_with("fn f() { println!(\"caf\u{e9} \u{1F600}\"); }\n")
    );
}

#[test]
fn invalid_utf8_and_control_characters_are_refused_as_serde_refuses_them() {
    for text in [
        &b"{\"a\":\"\xc3\\n\xa9\"}"[..],
        b"{\"a\":\"\xc3\\u00e9\"}",
        b"{\"a\":\"x\xff\"}",
        b"{\"a\":\"\xc3\"}",
        b"{\"a\":\"tab\there\"}",
    ] {
        assert!(Fast::parse(text).is_none(), "{text:?}");
        let fast = parse_json_scanned(text).map_err(|e| e.to_string());
        assert_eq!(fast, scan_then_parse(text).map_err(|e| e.to_string()));
        assert!(fast.is_err(), "{text:?}");
    }
    assert!(Fast::parse("{\"a\":\"caf\u{e9}\\n\u{e9}\"}".as_bytes()).is_some());
}

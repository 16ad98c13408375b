//! The exact bytes a hook reads on stdin: the host's own line when it
//! already says what hookrun would serialise, the event serialised again
//! (compact, one line) otherwise.

use serde_json::{Value, json};

use crate::support::{Sandbox, hooks};

/// Fires `input` (no event argument unless `event` is given) at hooks that
/// each copy their stdin to a file; returns what each file holds.
fn stdin_seen(sb: &Sandbox, settings: &Value, event: Option<&str>, input: &[u8]) -> Vec<String> {
    let file = sb.settings(settings);
    let mut args = vec!["fire"];
    args.extend(event);
    args.extend([
        "--no-default-settings",
        "--settings",
        file.to_str().unwrap(),
    ]);
    let run = sb.run(&args, input);
    assert_eq!(run.code, Some(0), "{run:?}");
    (0..10)
        .map(|n| sb.path(&format!("stdin-{n}.json")))
        .take_while(|path| path.exists())
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect()
}

fn copy_stdin(sb: &Sandbox, n: usize) -> String {
    format!("cat > '{}'", sb.path(&format!("stdin-{n}.json")).display())
}

#[test]
fn a_compact_claude_code_line_reaches_hooks_as_sent() {
    let sb = Sandbox::new();
    let settings = hooks("PreToolUse", json!([{"command": copy_stdin(&sb, 0)}]));
    // Spellings a re-serialisation would change: escapes, a number's form,
    // a slash written `\/`.
    let line = r#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a\/caf\u00e9.txt","content":"x\ty\n\"q\"","n":1.0e3,"big":12345678901234567890123}}"#;
    let with_newline = format!("{line}\n");
    for input in [line, with_newline.as_str()] {
        assert_eq!(
            stdin_seen(&sb, &settings, None, input.as_bytes()),
            [with_newline.as_str()],
            "{input:?}"
        );
    }
    // The event argument naming the same event changes nothing either.
    assert_eq!(
        stdin_seen(&sb, &settings, Some("pre_tool_use"), line.as_bytes()),
        [with_newline.as_str()]
    );
}

#[test]
fn other_inputs_are_serialised_again_on_one_line() {
    let sb = Sandbox::new();
    let settings = hooks("PreToolUse", json!([{"command": copy_stdin(&sb, 0)}]));
    let expected = "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"a/caf\u{e9}.txt\",\"n\":1000.0}}\n";
    let cases: &[(&str, &str)] = &[
        (
            "pretty-printed",
            "{\n  \"session_id\": \"s\",\n  \"hook_event_name\": \"PreToolUse\",\n  \"tool_name\": \"Write\",\n  \"tool_input\": {\"file_path\": \"a\\/caf\\u00e9.txt\", \"n\": 1.0e3}\n}\n",
        ),
        (
            "a name to normalise",
            r#"{"session_id":"s","hook_event_name":"pre_tool_use","tool_name":"Write","tool_input":{"file_path":"a\/caf\u00e9.txt","n":1.0e3}}"#,
        ),
        (
            "a key given twice",
            r#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"old","n":1.0e3,"file_path":"a\/caf\u00e9.txt"}}"#,
        ),
        (
            "two lines",
            "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"a\\/caf\\u00e9.txt\",\"n\":1.0e3}}\n\n",
        ),
    ];
    for (what, input) in cases {
        assert_eq!(
            stdin_seen(&sb, &settings, None, input.as_bytes()),
            [expected],
            "{what}"
        );
    }
    // Half an emoji: hooks see the replacement character hookrun read.
    assert_eq!(
        stdin_seen(
            &sb,
            &settings,
            None,
            br#"{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"a\ud83d"}}"#
        ),
        ["{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"content\":\"a\u{FFFD}\"}}\n"]
    );
    // No name in the input: appended.
    assert_eq!(
        stdin_seen(
            &sb,
            &settings,
            Some("PreToolUse"),
            br#"{"tool_name":"Write","tool_input":{"n":1.0e3}}"#
        ),
        [
            "{\"tool_name\":\"Write\",\"tool_input\":{\"n\":1000.0},\"hook_event_name\":\"PreToolUse\"}\n"
        ]
    );
}

#[test]
fn after_an_updated_input_the_next_sequential_hook_gets_the_event_serialised() {
    let sb = Sandbox::new();
    let rewrite = format!(
        r#"{}; echo '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","updatedInput":{{"file_path":"b.txt","n":2}}}}}}'"#,
        copy_stdin(&sb, 0)
    );
    let settings = hooks(
        "PreToolUse",
        json!([
            {"name": "rewrite", "command": rewrite, "sequential": true},
            {"name": "observe", "command": copy_stdin(&sb, 1)},
        ]),
    );
    let line = "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"a\\/caf\\u00e9.txt\",\"n\":1.0e3}}\n";
    assert_eq!(
        stdin_seen(&sb, &settings, None, line.as_bytes()),
        [
            line.to_owned(),
            "{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"b.txt\",\"n\":2}}\n".to_owned(),
        ]
    );
}

#[test]
fn a_host_that_translates_fields_never_passes_its_line_through() {
    let sb = Sandbox::new();
    let settings = hooks("PreToolUse", json!([{"command": copy_stdin(&sb, 0)}]));
    let file = sb.settings(&settings);
    // Gemini CLI's names: decoding renames the tool and records the host's
    // own names, so the hook's stdin cannot be the host's bytes.
    let line = br#"{"session_id":"s","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#;
    let run = sb.run(
        &[
            "fire",
            "--host",
            "gemini",
            "--no-default-settings",
            "--settings",
            file.to_str().unwrap(),
        ],
        line,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let seen = std::fs::read_to_string(sb.path("stdin-0.json")).unwrap();
    assert_ne!(seen.as_bytes(), &line[..]);
    let value: Value = serde_json::from_str(&seen).unwrap();
    assert_eq!(value["tool_name"], "Bash", "{seen}");
    assert!(seen.ends_with("}\n") && seen.lines().count() == 1, "{seen}");
}

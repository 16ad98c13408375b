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
        &crate::support::host_args("fire", "gemini", &file, &[]),
        line,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    let seen = std::fs::read_to_string(sb.path("stdin-0.json")).unwrap();
    assert_ne!(seen.as_bytes(), &line[..]);
    let value: Value = serde_json::from_str(&seen).unwrap();
    assert_eq!(value["tool_name"], "Bash", "{seen}");
    assert!(seen.ends_with("}\n") && seen.lines().count() == 1, "{seen}");
}

/// A Write event of megabytes, its content generated source full of `\n`
/// and `\"` escapes (past the size from which stdin is read into a mapping
/// and the content left undecoded).
fn big_write_event() -> String {
    let line = r#"    println!(\"caf\u00e9 {}\", x); // \\ a\/b\n"#;
    let content = line.repeat(3 * 1024 * 1024 / line.len());
    format!(
        r#"{{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"src/big.rs","content":"{content}"}}}}"#
    )
}

#[test]
fn a_big_event_reaches_hooks_as_sent_through_a_pipe_and_from_a_file() {
    let sb = Sandbox::new();
    let env_file = sb.path("env.txt");
    let settings = hooks(
        "PreToolUse",
        json!([
            {"matcher": "Write", "command": copy_stdin(&sb, 0)},
            {"command": format!(
                "printf '%s|%s' \"${{HOOKRUN_TOOL_INPUT_TRUNCATED-}}\" \"${{HOOKRUN_TOOL_INPUT-}}\" > '{}'",
                env_file.display()
            )},
        ]),
    );
    let line = big_write_event();
    let expected = format!("{line}\n");
    // Through a pipe, with and without the final newline.
    for input in [line.as_str(), expected.as_str()] {
        let seen = stdin_seen(&sb, &settings, None, input.as_bytes());
        assert_eq!(seen.len(), 1);
        assert!(
            seen[0] == expected,
            "the hook got other bytes ({} of {})",
            seen[0].len(),
            expected.len()
        );
        assert_eq!(std::fs::read_to_string(&env_file).unwrap(), "1|");
        std::fs::remove_file(sb.path("stdin-0.json")).unwrap();
    }
    // From a file (its size known before reading).
    let event_file = sb.path("big-event.json");
    std::fs::write(&event_file, &line).unwrap();
    let settings_file = sb.settings(&settings);
    let out = sb
        .command()
        .args([
            "fire",
            "--no-default-settings",
            "--settings",
            settings_file.to_str().unwrap(),
        ])
        .stdin(std::fs::File::open(&event_file).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let seen = std::fs::read_to_string(sb.path("stdin-0.json")).unwrap();
    assert!(
        seen == expected,
        "the hook got other bytes ({} of {})",
        seen.len(),
        expected.len()
    );
}

#[test]
fn a_big_event_is_decoded_where_its_input_is_read() {
    let sb = Sandbox::new();
    // A sequential hook replaces the input: the next hook gets the event
    // serialised, the big content decoded and spelt as serde_json spells
    // it.
    let rewrite = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"b.rs"}}}'"#;
    let settings = hooks(
        "PreToolUse",
        json!([
            {"name": "rewrite", "command": rewrite, "sequential": true},
            {"name": "observe", "command": copy_stdin(&sb, 0)},
        ]),
    );
    let line = big_write_event();
    let seen = stdin_seen(&sb, &settings, None, line.as_bytes());
    let mut want: Value = serde_json::from_str(&line).unwrap();
    want["tool_input"] = json!({"file_path": "b.rs"});
    assert_eq!(seen, [format!("{want}\n")]);
    // Pretty-printed: the host line is not kept, so the whole event is
    // read at once and hooks get it serialised again.
    let sb = Sandbox::new();
    let settings = hooks("PreToolUse", json!([{"command": copy_stdin(&sb, 0)}]));
    let pretty = line.replacen(",\"tool_name\"", ",\n  \"tool_name\"", 1);
    let seen = stdin_seen(&sb, &settings, None, pretty.as_bytes());
    let value: Value = serde_json::from_str(&line).unwrap();
    assert!(seen.len() == 1 && seen[0] == format!("{value}\n"));
    assert!(
        value["tool_input"]["content"]
            .as_str()
            .unwrap()
            .starts_with("    println!(\"caf\u{e9} {}\", x); // \\ a/b\n")
    );
}

//! The matcher funnel through the real binary: matcher rules (SPEC §4.2, the
//! oracle's observed table), `if` rules (§4.3), filters that cannot be
//! evaluated (§4.4).

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::Sandbox;

/// Fires `event` with `fields` against one hook per matcher (named by the
/// matcher) and returns the matchers whose hook ran.
fn matched(sb: &Sandbox, event: &str, matchers: &[&str], fields: &Value) -> Vec<String> {
    // Distinct commands: identical hooks would be deduplicated (SPEC §4.5).
    let list: Vec<Value> = matchers
        .iter()
        .enumerate()
        .map(|(i, m)| json!({"name": format!("m:{m}"), "matcher": m, "command": format!("true {i}")}))
        .collect();
    let run = sb.report(event, &json!({"hooks": {event: list}}), fields);
    assert_eq!(run.code, Some(0), "{run:?}");
    run.ran()
        .into_iter()
        .map(|n| n.trim_start_matches("m:").to_owned())
        .collect()
}

fn tool(name: &str) -> Value {
    json!({"tool_name": name, "tool_input": {}})
}

#[test]
fn matcher_table_observed_in_claude_code() {
    let sb = Sandbox::new();
    // (matcher, fires for Bash, fires for Read): FINDINGS "Matcher semantics".
    let table: &[(&str, bool, bool)] = &[
        ("Bas", false, false),
        ("as", false, false),
        ("Bash|Read", true, true),
        ("Bash|Re", true, false),
        ("Bash | Read", true, true),
        ("Bash,Read", true, true),
        ("B.*", true, false),
        ("a.h", true, false),
        ("", true, true),
        ("as.*", true, false),
        ("*", true, true),
        (".*ash", true, false),
        ("Bas.", true, false),
        ("^B", true, false),
        ("Bash$", true, false),
        ("(Bash)", true, false),
        ("bash", false, false),
        ("BASH", false, false),
        ("Re.d|Bash", true, true),
        ("^Bash$", true, false),
        ("[BR].*", true, true),
        ("Bash(echo*)", false, false),
        ("B", false, false),
        ("Rea", false, false),
        ("Bash ", true, false),
        (" Bash", true, false),
        ("Bash|", true, false),
    ];
    let matchers: Vec<&str> = table.iter().map(|(m, _, _)| *m).collect();
    let bash = matched(&sb, "PreToolUse", &matchers, &tool("Bash"));
    let read = matched(&sb, "PreToolUse", &matchers, &tool("Read"));
    for (m, want_bash, want_read) in table {
        assert_eq!(
            bash.contains(&(*m).to_owned()),
            *want_bash,
            "matcher {m:?} on Bash"
        );
        assert_eq!(
            read.contains(&(*m).to_owned()),
            *want_read,
            "matcher {m:?} on Read"
        );
    }
    // No matcher key at all: everything.
    let run = sb.report(
        "PreToolUse",
        &json!({"hooks": {"PreToolUse": [{"name": "none", "command": "true"}]}}),
        &tool("Read"),
    );
    assert_eq!(run.ran(), ["none"]);
}

#[test]
fn exact_lists_are_exact_and_regexes_search() {
    let sb = Sandbox::new();
    let ran = matched(
        &sb,
        "PreToolUse",
        &[
            "edit",
            "Edit",
            "Edit, Write",
            "Edit.*",
            "^Edit$",
            "mcp__memory",
            "mcp__memory__.*",
        ],
        &tool("notebook_edit"),
    );
    assert!(ran.is_empty(), "{ran:?}");
    let ran = matched(
        &sb,
        "PreToolUse",
        &["Edit", "Edit, Write", "Edit.*", "^Edit$"],
        &tool("NotebookEdit"),
    );
    assert_eq!(ran, ["Edit.*"]);
    let ran = matched(
        &sb,
        "PreToolUse",
        &[
            "Edit",
            "Edit, Write",
            "Write|Edit",
            "Edit.*",
            "^Edit$",
            "edit",
        ],
        &tool("Edit"),
    );
    assert_eq!(
        ran,
        ["Edit", "Edit, Write", "Write|Edit", "Edit.*", "^Edit$"]
    );
    let ran = matched(
        &sb,
        "PreToolUse",
        &["mcp__memory", "mcp__memory__.*", "mcp__.*__create_entities"],
        &tool("mcp__memory__create_entities"),
    );
    assert_eq!(ran, ["mcp__memory__.*", "mcp__.*__create_entities"]);
}

#[test]
fn regexes_use_javascript_syntax_with_lookaround() {
    let sb = Sandbox::new();
    let matchers = ["^(?!Bash$).*", "(?<=Notebook)Edit", "^(\\w)\\1"];
    assert_eq!(
        matched(&sb, "PreToolUse", &matchers, &tool("Bash")),
        Vec::<String>::new()
    );
    assert_eq!(
        matched(&sb, "PreToolUse", &matchers, &tool("NotebookEdit")),
        ["^(?!Bash$).*", "(?<=Notebook)Edit"]
    );
    assert_eq!(
        matched(&sb, "PreToolUse", &matchers, &tool("xxTool")),
        ["^(?!Bash$).*", "^(\\w)\\1"]
    );
}

#[test]
fn match_fields_of_other_events() {
    let sb = Sandbox::new();
    assert_eq!(
        matched(
            &sb,
            "SessionStart",
            &["startup", "resume", "startup|clear"],
            &json!({"source": "startup"})
        ),
        ["startup", "startup|clear"]
    );
    // FileChanged compares the basename; its lists may not contain `-` or `.`.
    assert_eq!(
        matched(
            &sb,
            "FileChanged",
            &["package", "\\.env$", "env"],
            &json!({"file_path": "/p/.env"})
        ),
        ["\\.env$"]
    );
    // Events without a match field ignore the matcher.
    assert_eq!(
        matched(&sb, "Stop", &["Bash", "nothing"], &json!({})),
        ["Bash", "nothing"]
    );
}

#[test]
fn an_invalid_regex_runs_the_hook_and_says_so() {
    let sb = Sandbox::new();
    let run = Fire::new("PreToolUse").settings(&json!({"hooks": {"PreToolUse": [{"name": "guard", "matcher": "Bash(", "command": "echo ran >&2; exit 2"}]}})).input(&tool("Read")).expect_exit(2).run_in(&sb);
    assert!(
        run.system_message()
            .contains("hook guard: matcher \"Bash(\" is not a valid regex"),
        "{run:?}"
    );
}

/// Fires `PreToolUse` for `tool`/`input` against one hook per `if` rule.
fn if_matched(sb: &Sandbox, rules: &[&str], tool_name: &str, input: &Value) -> Vec<String> {
    let list: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| json!({"name": format!("if:{r}"), "if": r, "command": format!("true {i}")}))
        .collect();
    let run = sb.report(
        "PreToolUse",
        &json!({"hooks": {"PreToolUse": list}}),
        &json!({"tool_name": tool_name, "tool_input": input}),
    );
    // A command hookrun cannot read is denied by the built-in rules (it
    // may run hookrun) after the hooks ran.
    assert!(matches!(run.code, Some(0 | 2)), "{run:?}");
    run.ran()
        .into_iter()
        .map(|n| n.trim_start_matches("if:").to_owned())
        .collect()
}

fn bash(sb: &Sandbox, rules: &[&str], command: &str) -> Vec<String> {
    if_matched(sb, rules, "Bash", &json!({"command": command}))
}

#[test]
fn if_bash_rules() {
    let sb = Sandbox::new();
    let rules = [
        "Bash(git push *)",
        "Bash(ls *)",
        "Bash(ls:*)",
        "Bash",
        "Bash(*)",
        "bash",
        "Bash(npm test)",
    ];
    assert_eq!(
        bash(&sb, &rules, "cd repo && git push origin main"),
        ["Bash(git push *)", "Bash", "Bash(*)"]
    );
    assert_eq!(
        bash(&sb, &rules, "ls"),
        ["Bash(ls *)", "Bash(ls:*)", "Bash", "Bash(*)"]
    );
    assert_eq!(
        bash(&sb, &rules, "ls -la"),
        ["Bash(ls *)", "Bash(ls:*)", "Bash", "Bash(*)"]
    );
    assert_eq!(bash(&sb, &rules, "lsof -i"), ["Bash", "Bash(*)"]);
    assert_eq!(
        bash(&sb, &rules, "npm test"),
        ["Bash", "Bash(*)", "Bash(npm test)"]
    );
    assert_eq!(bash(&sb, &rules, "npm test --watch"), ["Bash", "Bash(*)"]);
}

#[test]
fn if_splits_compound_commands_and_strips_wrappers() {
    let sb = Sandbox::new();
    let rule = ["Bash(git push *)"];
    for command in [
        "echo hi; git push",
        "false || git push origin",
        "ls | git push",
        "sleep 1 & git push",
        "echo a\ngit push",
        "FOO=1 BAR=2 git push",
        "timeout 10 git push",
        "timeout -s KILL 5s git push",
        "time -p git push",
        "nice -n 5 git push",
        "nohup git push",
        "stdbuf -oL git push",
        "command git push",
        "xargs git push",
        // Wrappers with options too: `if` fails toward running the hook.
        "xargs -0 git push",
        "sudo -u ci git push",
        "bash -c 'git push'",
        "nohup nice -n 5 timeout 3 git push origin main",
    ] {
        assert_eq!(bash(&sb, &rule, command), rule, "{command:?}");
    }
    for command in [
        "echo 'git push'",
        "echo \"a && git push\"",
        "git pull",
        "gitpush",
    ] {
        assert!(bash(&sb, &rule, command).is_empty(), "{command:?}");
    }
}

#[test]
fn if_fails_open_on_substitutions_and_unparseable_commands() {
    let sb = Sandbox::new();
    let rules = ["Bash(git push *)", "Bash(rm)"];
    // A command name only the shell knows: every rule's hook runs.
    let both = ["Bash(git push *)", "Bash(rm)"];
    assert_eq!(bash(&sb, &rules, "$(echo git) push"), both);
    assert_eq!(bash(&sb, &rules, "`echo git` push"), both);
    assert_eq!(bash(&sb, &rules, "$CMD push"), both);
    // An argument may expand into `push`; it cannot become `rm`.
    assert_eq!(bash(&sb, &rules, "git $SUB origin"), ["Bash(git push *)"]);
    // Commands inside $( ) are parts of their own; the substitution in an
    // argument hides no other program.
    assert_eq!(bash(&sb, &rules, "echo $(rm)"), ["Bash(rm)"]);
    // Unparseable: fail open.
    assert_eq!(
        bash(&sb, &rules, "echo 'unclosed"),
        ["Bash(git push *)", "Bash(rm)"]
    );
}

#[test]
fn if_tool_specific_rules() {
    let sb = Sandbox::new();
    let project = sb.project.to_str().unwrap().to_owned();
    let edit = |path: &str| json!({"file_path": path, "old_string": "a", "new_string": "b"});
    let file_rules = [
        "Edit(*.ts)",
        "Edit(/src/**)",
        "Edit(//etc/**)",
        "Edit(docs/*.md)",
        "Edit(~/notes/*)",
        "Write(*.ts)",
    ];
    // `/x` is anchored at the declaring file's folder for --settings files
    // (at the project root for project and local settings).
    let settings_dir = sb.path("cli");
    assert_eq!(
        if_matched(
            &sb,
            &file_rules,
            "Edit",
            &edit(&format!("{}/src/deep/a.ts", settings_dir.display()))
        ),
        ["Edit(*.ts)", "Edit(/src/**)"]
    );
    assert_eq!(
        if_matched(
            &sb,
            &file_rules,
            "Edit",
            &edit(&format!("{project}/src/deep/a.ts"))
        ),
        ["Edit(*.ts)"]
    );
    assert_eq!(
        if_matched(&sb, &file_rules, "Edit", &edit("/etc/hosts")),
        ["Edit(//etc/**)"]
    );
    assert_eq!(
        if_matched(&sb, &file_rules, "Edit", &edit("docs/guide.md")),
        ["Edit(docs/*.md)"]
    );
    assert_eq!(
        if_matched(
            &sb,
            &file_rules,
            "Edit",
            &edit(&format!("{}/notes/x", sb.home.display()))
        ),
        ["Edit(~/notes/*)"]
    );

    let web = [
        "WebFetch(domain:example.com)",
        "WebFetch(domain:*.example.com)",
        "WebFetch",
    ];
    assert_eq!(
        if_matched(
            &sb,
            &web,
            "WebFetch",
            &json!({"url": "https://EXAMPLE.com./a", "prompt": "p"})
        ),
        ["WebFetch(domain:example.com)", "WebFetch"]
    );
    assert_eq!(
        if_matched(
            &sb,
            &web,
            "WebFetch",
            &json!({"url": "https://a.b.example.com/", "prompt": "p"})
        ),
        ["WebFetch(domain:*.example.com)", "WebFetch"]
    );

    let agents = ["Agent(Explore)", "Task(Explore)", "Agent(Plan)"];
    assert_eq!(
        if_matched(
            &sb,
            &agents,
            "Agent",
            &json!({"subagent_type": "Explore", "prompt": "x"})
        ),
        ["Agent(Explore)"]
    );
    assert_eq!(
        if_matched(
            &sb,
            &agents,
            "Task",
            &json!({"subagent_type": "Explore", "prompt": "x"})
        ),
        ["Task(Explore)"]
    );

    let mcp = [
        "mcp__memory",
        "mcp__memory__*",
        "mcp__memory__create_entities",
        "mcp__other",
    ];
    assert_eq!(
        if_matched(
            &sb,
            &mcp,
            "mcp__memory__create_entities",
            &json!({"entities": []})
        ),
        [
            "mcp__memory",
            "mcp__memory__*",
            "mcp__memory__create_entities"
        ]
    );

    let other = ["Grep(TODO*)", "Glob(**/*.rs)"];
    assert_eq!(
        if_matched(&sb, &other, "Grep", &json!({"pattern": "TODO: fix"})),
        ["Grep(TODO*)"]
    );
}

#[test]
fn an_unparseable_if_runs_the_hook_and_says_so() {
    let sb = Sandbox::new();
    let run = Fire::new("PreToolUse").settings(&json!({"hooks": {"PreToolUse": [{"name": "guard", "if": "Bash(git push", "command": "echo ran >&2; exit 2"}]}})).input(&json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})).expect_exit(2).run_in(&sb);
    assert!(
        run.system_message().contains("hook guard: invalid rule"),
        "{run:?}"
    );
}

#[test]
fn report_names_the_layer_and_values_compared() {
    let sb = Sandbox::new();
    let settings = json!({"hooks": {
        "PreToolUse": [
            {"name": "wrong-tool", "matcher": "Edit", "command": "true"},
            {"name": "wrong-command", "matcher": "Bash", "if": "Bash(git push *)", "command": "true"},
            {"name": "runs", "matcher": "Bash", "command": "true"}
        ],
        "Stop": [{"name": "other-event", "command": "true"}]
    }});
    let run = sb.report(
        "PreToolUse",
        &settings,
        &json!({"tool_name": "Bash", "tool_input": {"command": "ls -la"}}),
    );
    let wrong_tool = run.hook("wrong-tool");
    assert_eq!(wrong_tool["layer"], "matcher");
    assert_eq!(
        wrong_tool["detail"],
        "matcher \"Edit\" does not match tool_name \"Bash\""
    );
    let wrong_command = run.hook("wrong-command");
    assert_eq!(wrong_command["layer"], "if");
    assert!(
        wrong_command["detail"]
            .as_str()
            .unwrap()
            .contains("\"ls -la\"")
    );
    assert_eq!(run.hook("other-event")["layer"], "event");
    assert_eq!(run.hook("runs")["state"], "ran");
}

#[test]
fn reasons_worded_on_demand_quote_the_call_the_funnel_judged() {
    // The funnel keeps only which test stopped a hook and words the reason
    // when the report is built, after the hooks ran: a hook that updates the
    // tool input must not change what the others' reasons quote.
    let sb = Sandbox::new();
    let rewrite = r#"printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo changed"}}}'"#;
    let settings = json!({"hooks": {
        "PreToolUse": [
            {"name": "rewrite", "matcher": "Bash", "sequential": true, "command": rewrite},
            {"name": "not-push", "matcher": "Bash", "if": "Bash(git push *)", "command": "true"},
            {"name": "edit-or-write", "matcher": "Edit|Write", "command": "true"},
            {"name": "mcp", "matcher": "^mcp__github__.*", "command": "true"},
            {"name": "regex", "matcher": "^Ed.t$", "command": "true"}
        ],
        "Stop": [{"name": "other-event", "command": "true"}]
    }});
    let run = sb.report(
        "PreToolUse",
        &settings,
        &json!({"tool_name": "Bash", "tool_input": {"command": "ls -la"}}),
    );
    assert_eq!(run.hook("rewrite")["state"], "ran");
    assert!(
        run.stdout.contains("echo changed"),
        "the input was not updated: {}",
        run.stdout
    );
    assert_eq!(
        run.hook("not-push")["detail"],
        "`if` Bash(git push *) does not match Bash command \"ls -la\""
    );
    assert_eq!(
        run.hook("edit-or-write")["detail"],
        "matcher \"Edit|Write\" does not match tool_name \"Bash\""
    );
    assert_eq!(
        run.hook("mcp")["detail"],
        "matcher \"^mcp__github__.*\" does not match tool_name \"Bash\""
    );
    assert_eq!(
        run.hook("regex")["detail"],
        "matcher \"^Ed.t$\" does not match tool_name \"Bash\""
    );
    assert_eq!(
        run.hook("other-event")["detail"],
        "listed under Stop, this is PreToolUse"
    );
}

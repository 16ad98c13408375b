//! `Bash(…)` and `PowerShell(…)` rules against commands whose reading is
//! easy to get wrong, end to end through `hookrun fire`: on the deny side
//! each command below makes bash (or dash, or PowerShell) start the program
//! the rule names, and is denied, either because the reader sees the
//! program or because it says it cannot judge the command; on the allow side
//! each command starts something the rule does not name, and falls through
//! to the host's own prompt instead of being approved.

use serde_json::{Value, json};

use crate::firetest::Fire;
use crate::support::{Run, Sandbox};

fn fire(sb: &Sandbox, settings: &Value, tool: &str, command: &str) -> Run {
    Fire::new("PreToolUse")
        .settings(settings)
        .input(&json!({"tool_name": tool, "tool_input": {"command": command}}))
        .run_in(sb)
}

fn denied(run: &Run) -> bool {
    run.code == Some(2) && run.stderr.contains("denied by permission rule")
}

fn allowed(run: &Run) -> bool {
    run.stdout.contains("\"allow\"")
}

/// Every command is denied by `rule` (as tool `tool`); lists all that are not.
fn assert_denied(tool: &str, rule: &str, commands: &[&str]) {
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"deny": [rule]}});
    let missed: Vec<String> = commands
        .iter()
        .filter_map(|command| {
            let run = fire(&sb, &settings, tool, command);
            (!denied(&run)).then(|| format!("{command:?}: code {:?} {}", run.code, run.stdout))
        })
        .collect();
    assert!(
        missed.is_empty(),
        "not denied by {rule}:\n{}",
        missed.join("\n")
    );
}

/// No command is approved under `allow` (each falls through, or is denied
/// when hookrun cannot read it).
fn assert_not_allowed(allow: &[&str], commands: &[&str]) {
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"allow": allow}});
    let approved: Vec<String> = commands
        .iter()
        .filter_map(|command| {
            // Falls through, or is denied when hookrun cannot read it
            // (the built-in rules deny what they cannot read): never allowed.
            let run = fire(&sb, &settings, "Bash", command);
            allowed(&run).then(|| format!("{command:?}"))
        })
        .collect();
    assert!(
        approved.is_empty(),
        "approved by {allow:?}:\n{}",
        approved.join("\n")
    );
}

/// Every command is approved under `allow`.
fn assert_allowed(allow: &[&str], commands: &[&str]) {
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"allow": allow}});
    let refused: Vec<String> = commands
        .iter()
        .filter_map(|command| {
            let run = fire(&sb, &settings, "Bash", command);
            (!allowed(&run)).then(|| format!("{command:?}: {}", run.stderr))
        })
        .collect();
    assert!(
        refused.is_empty(),
        "not approved by {allow:?}:\n{}",
        refused.join("\n")
    );
}

#[test]
fn functions_in_every_form_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "f(){ rm -rf x; }; f",
            "f() { rm -rf x; }; f",
            "f()(rm x); f",
            "f() (rm x)\nf",
            "f() while rm x; do break; done; f",
            "f() until rm x; do :; done; f",
            "f() if rm x; then :; fi; f",
            "f() for i in 1; do rm x; done; f",
            "f() case a in a) rm x;; esac; f",
            "f() [[ -n $(rm x) ]]; f",
            "function f { rm x; }; f",
            "function f() ( rm x ); f",
        ],
    );
}

#[test]
fn time_and_coproc_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "time (rm -rf x)",
            "time -p (rm -rf x)",
            "time { rm -rf x; }",
            "coproc (rm -rf x)",
            "coproc { rm -rf x; }",
            "coproc NAME { rm -rf x; }",
            "coproc rm -rf x",
            "! (rm x)",
        ],
    );
}

#[test]
fn subscripts_in_arithmetic_names_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "let 'a[$(rm x)]=1'",
            "let a[$(rm x)]=1",
            "declare -i 'a[$(rm x)]=1'",
            "declare -i a=1; a='b[$(rm x)]'",
            "typeset -i 'a[$(rm x)]'",
            "(( a[$(rm x)] ))",
            "echo $(( a[$(rm x)] ))",
            "printf -v 'a[$(rm x)]' 1",
            "read 'a[$(rm x)]' < /dev/null",
            "unset 'a[$(rm x)]'",
            "[[ -v 'a[$(rm x)]' ]]",
            "test -v 'a[$(rm x)]'",
        ],
    );
}

#[test]
fn wrapper_option_spellings_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "timeout 1e3 rm x",
            "timeout inf rm x",
            "timeout 0x10 rm x",
            "timeout -s KILL 5 rm x",
            "timeout --signal=KILL 5 rm x",
            "timeout -k 1 5 rm x",
            "timeout --foreground 5 rm x",
            "timeout -- 5 rm x",
            "eval -- rm x",
            "eval -- 'rm x'",
            "env - rm x",
            "env -i rm x",
            "env -u HOME rm x",
            "env -C / rm x",
            "env --chdir=/ rm x",
            "env A=1 rm x",
            "env -- rm x",
            "nice -n 5 rm x",
            "nice --adjustment=5 rm x",
            "nice -5 rm x",
            "nohup rm x",
            "nohup -- rm x",
            "stdbuf -oL rm x",
            "stdbuf -o L rm x",
            "command -p rm x",
            "command -- rm x",
            "builtin eval 'rm x'",
            "exec rm x",
            "exec -a name rm x",
            "exec -c rm x",
            "exec -l rm x",
            "xargs rm < list",
            "xargs -0 rm < list",
            "xargs -n 1 rm < list",
            "sudo rm x",
            "sudo -u root rm x",
            "sudo -E rm x",
            "setsid rm x",
            "setsid -f rm x",
            "chroot / rm x",
            "flock /tmp/l rm x",
            "flock -c 'rm x' /tmp/l",
            "ionice -c 3 rm x",
            "chrt -f 1 rm x",
            "taskset 1 rm x",
            "taskset -c 0 rm x",
        ],
    );
}

#[test]
fn startup_files_and_hidden_shell_input_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "bash --rcfile <(echo 'rm x') -i",
            "bash --init-file <(echo 'rm x')",
            "bash --rcfile /tmp/rc",
            "BASH_ENV=/dev/stdin bash -c true <<< 'rm x'",
            "BASH_ENV=./x bash -c ls",
            "ENV=./x sh -i",
            "env BASH_ENV=./x bash -c ls",
            "sh -c ls\nrm x",
        ],
    );
}

#[test]
fn git_runs_what_its_configuration_says() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "git -c alias.x='!rm -rf x' x",
            "git -c Alias.x='!rm -rf x' x",
            "git -c ALIAS.X='!rm -rf x' x",
            "git -c core.Pager='rm x' log",
            "git -c Core.SSHCommand='rm x' fetch",
            "GIT_EXTERNAL_DIFF='rm -rf x' git diff",
            "GIT_EXTERNAL_DIFF=rm git diff",
            "GIT_PAGER='rm x' git log",
            "GIT_EDITOR='rm x' git commit",
            "GIT_SSH_COMMAND='rm x' git fetch",
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm x' git x",
            "git clone 'ext::sh -c rm% x' y",
            "git fetch 'ext::rm x'",
            "git -c protocol.ext.allow=always clone ext::rm y",
            "git --config-env=alias.x=V x",
        ],
    );
}

#[test]
fn terminal_multiplexers_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "tmux -c 'rm x'",
            "tmux new-session 'rm x'",
            "tmux new-session -d 'rm x'",
            "tmux new -d rm x",
            "tmux new-window 'rm x'",
            "tmux send-keys 'rm x' Enter",
            "tmux",
            "screen -dm rm x",
        ],
    );
}

#[test]
fn here_documents_inside_substitutions_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            // dash ends the here-document at the `)` and runs `rm x`; bash
            // reads `rm x` as its body.
            "echo $(cat <<EOF)\nrm x\nEOF\n",
            "echo \"$(cat <<EOF)\"\nrm x\nEOF\n",
            "x=$(cat <<EOF\nhi\nEOF\n); rm x",
        ],
    );
}

#[test]
fn interactive_shells_the_agent_types_into_are_denied() {
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &[
            "sudo -s",
            "sudo -i",
            "sudo su",
            "su",
            "su -",
            "tmux",
            "tmux attach",
            "screen",
            "tcsh",
            "csh",
            "bash",
            "bash -i",
            "bash -l",
            "sh",
            "zsh",
            "fish",
            "ssh host",
        ],
    );
}

#[test]
fn a_command_with_a_carriage_return_is_not_read_as_blank() {
    assert_denied("Bash", "Bash(rm *)", &["ls\r#;rm -rf x", "ls\r;rm -rf x"]);
}

#[test]
fn allow_rules_approve_only_plain_commands() {
    assert_not_allowed(
        &["Bash(echo *)"],
        &[
            "echo $[1<<2]\nrm -rf x",
            "echo $[1<<2]\n rm -rf x",
            "echo $((1<<2))\nrm -rf x",
            "echo x\nrm -rf x",
            "echo 'a\r' | cat",
            "echo x\u{7}",
            "echo x\u{0}rm",
            "echo $(rm x)",
            "echo `rm x`",
            "echo <(rm x)",
            "f() { echo x; }; f",
            "echo x; f",
        ],
    );
    assert_not_allowed(&["Bash(ls *)"], &["ls\r#;rm -rf x", "ls\r;rm -rf x"]);
    assert_not_allowed(
        &["Bash(cat *)"],
        &[
            "cat <<EOF\r\nx\nEOF\r\nrm -rf x\nEOF\n",
            "cat <<EOF\nx\nEOF\\\nrm -rf x\nEOF\n",
            "cat <<EOF\nx\nEOF\nrm -rf x",
        ],
    );
}

#[test]
fn allow_rules_never_cover_an_assignment_that_changes_what_runs() {
    assert_not_allowed(
        &["Bash(ls *)"],
        &[
            "PATH=. ls",
            "PATH=.:$PATH ls",
            "LD_PRELOAD=./x.so ls",
            "LD_LIBRARY_PATH=. ls",
            "BASH_ENV=./x ls",
            "IFS=/ ls",
            "ENV=./x ls",
            "env PATH=. ls",
            "env LD_PRELOAD=./x.so ls",
        ],
    );
    assert_not_allowed(
        &["Bash(git diff *)"],
        &[
            "GIT_EXTERNAL_DIFF='rm -rf x' git diff",
            "GIT_PAGER=./x git diff",
            "GIT_DIR=./x git diff",
            "GIT_CONFIG_GLOBAL=./x git diff",
        ],
    );
    assert_not_allowed(
        &["Bash(less *)"],
        &[
            "LESSOPEN='|rm -rf x %s' less f",
            "LESSCLOSE='rm x' less f",
            "PAGER=./x less f",
            "EDITOR=./x less f",
        ],
    );
}

#[test]
fn allow_rules_cover_an_assignment_they_name() {
    assert_allowed(&["Bash(LANG=C ls *)"], &["LANG=C ls -la"]);
    assert_allowed(&["Bash(PATH=/usr/bin ls *)"], &["PATH=/usr/bin ls"]);
}

#[test]
fn ordinary_commands_stay_allowed() {
    assert_allowed(
        &[
            "Bash(ls *)",
            "Bash(git commit *)",
            "Bash(cargo test *)",
            "Bash(tail *)",
            "Bash(cd *)",
            "Bash(make *)",
            "Bash(cat *)",
        ],
        &[
            "ls -la",
            "cargo test 2>&1 | tail",
            "cd x && make",
            "ls\nls -la",
            "LANG=C ls",
        ],
    );
}

#[test]
fn a_substitution_still_falls_through() {
    // Allow rules never covered a command with a substitution, and still do
    // not: `git commit -m "$(cat msg)"` is the host's to ask about.
    assert_not_allowed(
        &["Bash(git commit *)", "Bash(cat *)"],
        &["git commit -m \"$(cat msg)\""],
    );
}

#[test]
fn powershell_names_are_read_as_powershell_reads_them() {
    assert_denied(
        "PowerShell",
        "PowerShell(Remove-Item *)",
        &[
            "Remove-Item x",
            "remove-item x",
            "REMOVE-ITEM x",
            "ri x",
            "del x",
            "rm x",
            "rd x",
            "rmdir x",
            "erase x",
            "Microsoft.PowerShell.Management\\Remove-Item x",
            "& Remove-Item x",
            "& 'Remove-Item' x",
            ". Remove-Item x",
            "iex 'Remove-Item x'",
            "Invoke-Expression 'ri x'",
            "invoke-expression \"del x\"",
            "pwsh -c 'Remove-Item x'",
            "pwsh -Command 'ri x'",
            "powershell -Command \"del x\"",
            "powershell.exe -command Remove-Item x",
            "pwsh -EncodedCommand UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=",
            "pwsh -enc UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAeAA=",
            "Get-ChildItem | Remove-Item",
            "Get-ChildItem | ForEach-Object { Remove-Item $_ }",
            "ls; ri x",
        ],
    );
}

#[test]
fn a_command_too_long_to_read_cannot_be_judged() {
    let sb = Sandbox::new();
    let command = "echo aaaa ".repeat(100 * 1024);
    let deny = sb.settings(&json!({"permissions": {"deny": ["Bash(rm *)"]}}));
    let fields = json!({"tool_name": "Bash", "tool_input": {"command": command}});
    let run = sb.fire_with("PreToolUse", &deny, &["--deadline", "2"], &fields);
    assert!(denied(&run), "{}", run.stderr);
    assert!(run.stderr.contains("cannot judge"), "{}", run.stderr);
    // Generous: the mechanism (not reading it at all), not the speed.
    assert!(
        run.elapsed < std::time::Duration::from_secs(4),
        "{:?}",
        run.elapsed
    );
    let allow = sb.settings(&json!({"permissions": {"allow": ["Bash(echo *)"]}}));
    let run = sb.fire_with("PreToolUse", &allow, &["--deadline", "2"], &fields);
    assert!(!allowed(&run), "{run:?}");
}

/// Allow rules for the ordinary-command corpus.
const BROAD_ALLOW: &[&str] = &[
    "Bash(ls *)",
    "Bash(git *)",
    "Bash(cargo *)",
    "Bash(tail *)",
    "Bash(head *)",
    "Bash(cd *)",
    "Bash(make *)",
    "Bash(cat *)",
    "Bash(grep *)",
    "Bash(rg *)",
    "Bash(npm *)",
    "Bash(echo *)",
    "Bash(wc *)",
    "Bash(sort *)",
    "Bash(find *)",
    "Bash(touch *)",
    "Bash(python3 *)",
    "Bash(pytest *)",
    "Bash(mkdir *)",
    "Bash(tee *)",
];

/// Ordinary commands and whether `BROAD_ALLOW` approves them. Every `true`
/// was approved before allow rules were limited to the plain subset and
/// still is; the `false` ones say why they fall through to the host.
const ORDINARY: &[(&str, bool)] = &[
    ("ls -la", true),
    ("ls", true),
    ("cargo test 2>&1 | tail", true),
    ("cargo test --locked 2>&1 | tail -n 50", true),
    ("cd x && make", true),
    ("cd app && npm test", true),
    ("git status", true),
    ("git status --short", true),
    ("git diff HEAD~1 -- src/main.rs", true),
    ("git log --oneline -5", true),
    ("git commit -m 'fix: the (x) case'", true),
    ("git commit -am \"it's done\"", true),
    ("git add -A && git commit -m wip", true),
    ("grep -rn 'fn main' src | head", true),
    ("rg TODO --type rust", true),
    ("find . -name '*.rs' | wc -l", true),
    ("cat Cargo.toml", true),
    ("ls *.md", true),
    ("mkdir -p build && cd build", true),
    ("LANG=C sort file.txt", true),
    ("RUST_BACKTRACE=1 cargo test", true),
    ("timeout 60 cargo test", true),
    ("echo done > /dev/null", true),
    ("python3 -m pytest -q", true),
    ("npm run build 2>&1 | tee build.log", true),
    // A substitution: never approved, before or now.
    ("git commit -m \"$(cat msg)\"", false),
    ("echo $HOME", false),
    // A subshell, `case` and here-documents are outside the plain subset now.
    ("(cd x && make)", false),
    ("cat <<'EOF'\nhello\nEOF", false),
    // Writes a file: never approved by a rule naming the program.
    ("echo x > out.txt", false),
];

#[test]
fn ordinary_commands_keep_their_decisions() {
    use hookrun::select::reading::ToolCall;
    use hookrun::select::rule::{PathContext, Rule, allow_covers};
    let rules: Vec<Rule> = BROAD_ALLOW
        .iter()
        .map(|r| Rule::parse(r).unwrap())
        .collect();
    let paths = || PathContext {
        cwd: std::path::Path::new("/"),
        home: None,
        anchor: std::path::Path::new("/"),
        style: hookrun::select::path_style::PathStyle::Posix,
    };
    let with_paths: Vec<(&Rule, PathContext<'_>)> = rules.iter().map(|r| (r, paths())).collect();
    let wrong: Vec<String> = ORDINARY
        .iter()
        .filter(|(command, expected)| {
            let input = json!({ "command": command });
            let call = ToolCall {
                tool_name: "Bash",
                tool_input: &input,
            };
            allow_covers(&with_paths, call) != *expected
        })
        .map(|(command, expected)| format!("{command:?}: expected {expected}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every `"command": "…"` in the cookbook and the ordinary list: none that
/// names neither `rm` nor `curl` is denied by rules naming them, so the
/// stricter reading denies no ordinary command as "cannot judge".
#[test]
fn ordinary_commands_are_not_denied() {
    let cookbook =
        std::fs::read_to_string(crate::support::repo().join("docs/cookbook.md")).unwrap();
    let found = regex::Regex::new(r#""command": *"((?:[^"\\]|\\.)*)""#).unwrap();
    let mut commands: Vec<String> = found
        .captures_iter(&cookbook)
        .filter_map(|c| serde_json::from_str::<String>(&format!("\"{}\"", &c[1])).ok())
        .collect();
    assert!(
        commands.len() >= 5,
        "the cookbook's commands were not found"
    );
    commands.extend(ORDINARY.iter().map(|(c, _)| (*c).to_owned()));
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"deny": ["Bash(rm *)", "Bash(curl *)"]}});
    let denied_wrongly: Vec<String> = commands
        .iter()
        .filter(|c| !c.contains("rm") && !c.contains("curl") && !c.contains('$'))
        .filter(|c| denied(&fire(&sb, &settings, "Bash", c)))
        .map(|c| format!("{c:?}"))
        .collect();
    assert!(
        denied_wrongly.is_empty(),
        "ordinary commands denied:\n{}",
        denied_wrongly.join("\n")
    );
}

#[test]
fn powershell_rules_compare_in_any_case() {
    // A cmdlet hookrun has no table row for, and a rule written in
    // lowercase.
    assert_denied(
        "PowerShell",
        "PowerShell(Get-Item *)",
        &["get-item x", "GET-ITEM x", "Get-Item x"],
    );
    assert_denied(
        "PowerShell",
        "PowerShell(remove-item *)",
        &["Remove-Item x", "ri x", "del -Recurse x"],
    );
    assert_denied(
        "PowerShell",
        "PowerShell(Remove-Item -Recurse *)",
        &["Remove-Item -recurse x", "rm -RECURSE x"],
    );
    // Bash rules stay case-sensitive: `RM` is another program.
    let sb = Sandbox::new();
    let settings = json!({"permissions": {"deny": ["Bash(rm *)"]}});
    assert!(!denied(&fire(&sb, &settings, "Bash", "RM x")));
}

#[test]
fn constructs_outside_the_reader_s_grammar_are_denied() {
    // bash 5.3 runs `${ …; }` in the current shell; the reader does not
    // cover it and says so.
    assert_denied(
        "Bash",
        "Bash(rm *)",
        &["echo ${ rm x; }", "echo ${| rm x; }", "x=${\nrm x\n}"],
    );
}

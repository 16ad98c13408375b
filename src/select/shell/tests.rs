//! Unit tests of the reader.

use super::views::*;
use super::*;

fn texts(command: &str) -> Vec<String> {
    split_command(command)
        .unwrap_or_else(|e| panic!("{command:?}: {e}"))
        .parts
        .into_iter()
        .map(|p| p.text)
        .collect()
}

#[test]
fn separators() {
    let cases: &[(&str, &[&str])] = &[
        ("ls", &["ls"]),
        ("  ls   -la  ", &["ls -la"]),
        ("a && b", &["a", "b"]),
        ("a || b", &["a", "b"]),
        ("a; b", &["a", "b"]),
        ("a;b;;c", &["a", "b", "c"]),
        ("a | b", &["a", "b"]),
        ("a |& b", &["a", "b"]),
        ("a & b", &["a", "b"]),
        ("a &", &["a"]),
        // A carriage return is part of a word to bash and dash.
        ("a\nb\r\nc", &["a", "b\r", "c"]),
        ("a&&b||c|d;e&f", &["a", "b", "c", "d", "e", "f"]),
        (
            "cd repo && git push origin",
            &["cd repo", "git push origin"],
        ),
        ("", &[]),
        ("   \n  ; ", &[]),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), expected, "{command:?}");
    }
}

#[test]
fn redirections_are_not_separators() {
    let cases: &[(&str, &[&str])] = &[
        ("make 2>&1 | tee log", &["make 2>&1", "tee log"]),
        ("make &> log", &["make &> log"]),
        ("make &>> log && ls", &["make &>> log", "ls"]),
        ("make >&2", &["make >&2"]),
        ("exec 3<&0", &["exec 3<&0"]),
        ("echo x >| file", &["echo x >| file"]),
        ("cat < in > out", &["cat < in > out"]),
        ("cat <<< 'text'", &["cat <<< 'text'"]),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), expected, "{command:?}");
    }
}

#[test]
fn quotes_keep_separators() {
    let cases: &[(&str, &[&str])] = &[
        (r#"echo "a && b""#, &[r#"echo "a && b""#]),
        ("echo 'a; b | c'", &["echo 'a; b | c'"]),
        (r"echo a\;b && c", &[r"echo a\;b", "c"]),
        (r#"echo "it's" && b"#, &[r#"echo "it's""#, "b"]),
        (r#"echo "a \" && b" c"#, &[r#"echo "a \" && b" c"#]),
        ("echo $'a\\' b' && c", &["echo $'a\\' b'", "c"]),
        ("echo 'a   b'   c", &["echo 'a   b' c"]),
        ("echo a#b # && rm -rf /", &["echo a#b"]),
        ("git push \\\n  origin", &["git push origin"]),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), expected, "{command:?}");
    }
}

#[test]
fn plain_removes_quoting() {
    let split = split_command(r#""rm" -rf '/' "a b" c\ d"#).unwrap();
    assert_eq!(split.parts[0].plain, "rm -rf / a b c d");
    assert_eq!(split.parts[0].text, r#""rm" -rf '/' "a b" c\ d"#);
}

#[test]
fn assignments_and_wrappers_are_dropped() {
    let cases: &[(&str, &str)] = &[
        ("FOO=1 BAR=\"a b\" git push", "git push"),
        ("A+=x git push", "git push"),
        ("timeout 10 git push", "git push"),
        ("timeout -s KILL -k 5 10s git push", "git push"),
        (
            "timeout --signal=TERM --preserve-status 1.5m git push",
            "git push",
        ),
        ("timeout -- 10 git push", "git push"),
        ("time git push", "git push"),
        ("time -p git push", "git push"),
        ("nice git push", "git push"),
        ("nice -n 5 git push", "git push"),
        ("nice -n5 git push", "git push"),
        ("nice -10 git push", "git push"),
        ("nice --adjustment=3 git push", "git push"),
        ("nohup git push", "git push"),
        ("nohup -- git push", "git push"),
        ("stdbuf -oL git push", "git push"),
        ("stdbuf -oL -eL -i0 git push", "git push"),
        ("stdbuf -o L git push", "git push"),
        ("stdbuf --output=L git push", "git push"),
        ("command git push", "git push"),
        ("command -p git push", "git push"),
        ("xargs git push", "git push"),
        ("nohup nice -n 5 git push", "git push"),
        ("FOO=1 timeout 5 nohup time -p env", "env"),
        ("\"nohup\" git push", "git push"),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), [expected], "{command:?}");
    }
}

#[test]
fn look_alikes_are_not_wrappers() {
    let cases: &[(&str, &str)] = &[
        // Not a duration: not the wrapper.
        ("timeout git push", "timeout git push"),
        // dash has no `builtin` and neither shell has `noglob`: programs.
        ("builtin echo x", "builtin echo x"),
        ("noglob git push", "noglob git push"),
        ("command -v git", "command -v git"),
        ("xargs -0 rm", "xargs -0 rm"),
        ("stdbuf git push", "stdbuf git push"),
        ("nohupx git push", "nohupx git push"),
        ("echo FOO=1", "echo FOO=1"),
        ("\"FOO=1\" git", "\"FOO=1\" git"),
        ("1A=2 x", "1A=2 x"),
        ("env FOO=1 git push", "env FOO=1 git push"),
        ("sudo git push", "sudo git push"),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), [expected], "{command:?}");
    }
}

#[test]
fn full_keeps_what_was_dropped() {
    let split = split_command("FOO=1  nohup   git push").unwrap();
    assert_eq!(split.parts[0].full, "FOO=1 nohup git push");
    assert_eq!(split.parts[0].text, "git push");
}

#[test]
fn parts_that_run_nothing_are_left_out() {
    assert_eq!(texts("FOO=1 && ls"), ["ls"]);
    // A wrapper with nothing to wrap runs itself.
    assert_eq!(texts("nohup"), ["nohup"]);
    assert_eq!(texts("# just a comment"), Vec::<String>::new());
}

#[test]
fn substitutions_are_parts_of_their_own() {
    let cases: &[(&str, &[&str])] = &[
        ("echo $(date)", &["echo $(date)", "date"]),
        ("echo `date`", &["echo `date`", "date"]),
        (
            "echo \"$(git log | head -1)\" done",
            &["echo \"$(git log | head -1)\" done", "git log", "head -1"],
        ),
        ("echo $(a $(b))", &["echo $(a $(b))", "a $(b)", "b"]),
        ("echo `a \\`b\\``", &["echo `a \\`b\\``", "a `b`", "b"]),
        (
            "diff <(ls a) >(cat)",
            &["diff <(ls a) >(cat)", "ls a", "cat"],
        ),
        (
            "echo ${x:-$(rm -rf /)}",
            &["echo ${x:-$(rm -rf /)}", "rm -rf /"],
        ),
        ("$(echo git) push", &["$(echo git) push", "echo git"]),
        ("x=$(whoami) && ls", &["whoami", "ls"]),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), expected, "{command:?}");
        assert!(split_command(command).unwrap().dynamic, "{command:?}");
    }
}

#[test]
fn dynamic_detection() {
    let cases: &[(&str, bool)] = &[
        ("echo $HOME", true),
        ("echo ${HOME}", true),
        ("echo \"$HOME\"", true),
        ("echo $1 $? $$ $@", true),
        ("echo $((1 + 2))", true),
        ("echo '$HOME'", false),
        ("echo \\$HOME", false),
        ("echo \"\\$HOME\"", false),
        ("echo $'\\x41'", false),
        ("echo $ cost", false),
        ("echo price$", false),
        ("git push origin main", false),
        ("cat <<'EOF'\n$HOME $(rm)\nEOF", false),
        ("cat <<EOF\n$HOME\nEOF", true),
    ];
    for &(command, dynamic) in cases {
        assert_eq!(
            split_command(command).unwrap().dynamic,
            dynamic,
            "{command:?}"
        );
    }
}

#[test]
fn groups_and_keywords() {
    let cases: &[(&str, &[&str])] = &[
        ("(cd x && rm -rf y)", &["cd x", "rm -rf y"]),
        ("(rm -rf /)", &["rm -rf /"]),
        ("(a) > out", &["a", "> out"]),
        ("{ ls; pwd; }", &["ls", "pwd"]),
        ("! grep x f", &["grep x f"]),
        ("if true; then rm -rf /; fi", &["true", "rm -rf /"]),
        ("while true; do sleep 1; done", &["true", "sleep 1"]),
        ("if ! (a); then b; else c; fi", &["a", "b", "c"]),
        ("f() { rm x; }; f", &["rm x", "f"]),
        ("f(){ rm x; }; f", &["rm x", "f"]),
        ("f()(rm x); f", &["rm x", "f"]),
        ("f() while rm x; do :; done", &["rm x", ":"]),
        // `function` is read as a program too (the deny side sees more).
        ("function f() ( rm x )", &["rm x", "function f()"]),
        ("time (rm x)", &["rm x", "time"]),
        ("coproc c { rm x; }", &["coproc c", "rm x"]),
        ("f() { (rm x); }; f", &["rm x", "f"]),
        ("a=(1 2 3) && ls", &["ls"]),
        ("[[ ( -f x ) ]] && ls", &["[[ ( -f x ) ]]", "ls"]),
        ("\"if\" x", &["\"if\" x"]),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), expected, "{command:?}");
    }
}

#[test]
fn heredoc_bodies_are_data() {
    let cases: &[(&str, &[&str])] = &[
        ("cat <<EOF\nrm -rf /\nEOF\nls", &["cat <<EOF", "ls"]),
        (
            "cat << 'EOF' > f && ls\nrm x\nEOF\npwd",
            &["cat <<'EOF' > f", "ls", "pwd"],
        ),
        ("cat <<-END\n\tbody\n\tEND\nls", &["cat <<-END", "ls"]),
        ("cat <<\"E F\"\nx\nE F\nls", &["cat <<\"E F\"", "ls"]),
        ("cat <<EOF\n$(rm -rf /)\nEOF", &["cat <<EOF", "rm -rf /"]),
        ("cat <<EOF\nunterminated", &["cat <<EOF"]),
        (
            "git commit -m \"$(cat <<'EOF'\nfix: a && b\nEOF\n)\" && git push",
            &[
                "git commit -m \"$(cat <<'EOF'\nfix: a && b\nEOF\n)\"",
                "cat <<'EOF'",
                "git push",
            ],
        ),
        ("a <<X; b <<Y\nx\nX\ny\nY\nc", &["a <<X", "b <<Y", "c"]),
        // Shifts are not here-documents.
        (
            "echo $((1<<2))\nreboot",
            &["echo $((1<<2))", "1<<2", "reboot"],
        ),
        ("((x <<= 1))\nreboot", &["x <<= 1", "reboot"]),
        ("echo $((reboot) )", &["echo $((reboot) )", "reboot"]),
    ];
    for &(command, expected) in cases {
        assert_eq!(texts(command), expected, "{command:?}");
    }
}

#[test]
fn errors() {
    let cases: &[(&str, SplitError)] = &[
        ("echo 'a", SplitError::Unclosed("`'` quote")),
        ("echo \"a", SplitError::Unclosed("`\"` quote")),
        ("echo $(a", SplitError::Unclosed("`$(`")),
        ("echo `a", SplitError::Unclosed("backtick")),
        ("echo ${a", SplitError::Unclosed("`${`")),
        ("(a", SplitError::Unclosed("`(`")),
        ("echo <(a", SplitError::Unclosed("`<(`")),
        ("a)", SplitError::UnexpectedCloseParen),
        ("cat <<", SplitError::MissingHeredocDelimiter),
        ("echo $'a", SplitError::Unclosed("`$'` quote")),
    ];
    for (command, error) in cases {
        assert_eq!(split_command(command).as_ref(), Err(error), "{command:?}");
    }
    let deep = "$(".repeat(MAX_DEPTH + 1);
    assert_eq!(split_command(&deep), Err(SplitError::TooDeep));
    let deep_backticks = "`".repeat(200);
    assert!(split_command(&deep_backticks).is_ok());
}

#[test]
fn case_statements_parse() {
    assert_eq!(texts("case $a in x) rm y;; esac"), ["rm y"]);
    assert_eq!(
        texts(
            "case \"$1\" in\n  (start|run) ./go ;;\n  stop) kill 1 ;&\n  *) echo no ;;\nesac; ls"
        ),
        ["./go", "kill 1", "echo no", "ls"]
    );
    assert_eq!(
        texts("case x in a) case y in b) ls;; esac;; esac && pwd"),
        ["ls", "pwd"]
    );
    // A `)` outside any case is still an error, after one too.
    assert!(split_command("case x in a) ls;; esac; rm x)").is_err());
    assert!(split_command("rm x)").is_err());
    // Subshells inside branches are still subshells.
    assert_eq!(texts("case x in a) (rm y) ;; esac"), ["rm y"]);
}

#[test]
fn parts_know_what_they_hide() {
    let part = |command: &str| split_command(command).unwrap().parts.remove(0);
    let p = part("2>&1 sudo -u root /bin/rm -rf x >out");
    assert!(p.seen_through.contains(&"rm -rf x".to_owned()), "{p:?}");
    assert!(p.not_allowable.is_some());
    let p = part("bash -lc 'rm x'");
    assert_eq!(p.runs, ["rm x"]);
    let p = part("eval rm \"x y\"");
    assert_eq!(p.runs, ["rm x y"]);
    let p = part("{rm,-rf,x}");
    assert!(p.seen_through.contains(&"rm -rf x".to_owned()), "{p:?}");
    let p = part("echo x > ~/.bashrc");
    assert!(
        p.not_allowable
            .as_deref()
            .is_some_and(|w| w.contains("writes to a file"))
    );
    for harmless in ["echo x > /dev/null", "echo x 2>&1", "ls >&2", "cat <in"] {
        assert_eq!(part(harmless).not_allowable, None, "{harmless}");
    }
    // Hostile input: many wrappers are bounded.
    let p = part(&"sudo ".repeat(2000));
    assert!(p.seen_through.len() <= MAX_VIEWS);
}

#[test]
fn ansi_c_quoting_is_decoded_as_bash_does() {
    let plain = |command: &str| split_command(command).unwrap().parts.remove(0).plain;
    let cases: &[(&str, &str)] = &[
        (r"$'\x72m' x", "rm x"),
        (r"$'\162m' x", "rm x"),
        (r"$'\u0072m' x", "rm x"),
        (r"$'\U00000072m' x", "rm x"),
        (r"$'\x72\x6d'", "rm"),
        (r"$'\x7'2", "\u{7}2"),
        (r"$'\1622'", "r2"),
        (r"$'a\tb'", "a\tb"),
        (r"$'\q'", "\\q"),
        (r"$'\x'", "\\x"),
        (r"$'\''", "'"),
        (r"$'\cA'", "\u{1}"),
        (r"$'\c?'", "\u{7f}"),
        // bash stops the quoted text at a NUL.
        (r"$'rm\0zz' x", "rm x"),
        (r"$'r\x00m'm", "rm"),
    ];
    for &(command, expected) in cases {
        assert_eq!(plain(command), expected, "{command:?}");
    }
    // Bytes that are not ASCII depend on the locale: not decoded.
    let part = split_command(r"$'\xe9' x").unwrap().parts.remove(0);
    assert!(part.unjudgeable.is_some(), "{part:?}");
}

#[test]
fn shells_read_what_they_are_fed() {
    let part = |command: &str, i: usize| split_command(command).unwrap().parts.remove(i);
    let fed: &[(&str, usize, &str)] = &[
        ("sh <<< 'rm x'", 0, "rm x\n"),
        ("bash <<EOF\nrm x\nEOF", 0, "rm x\n"),
        ("bash <<'EOF'\n$X\nEOF", 0, "$X\n"),
        ("sh <<-EOF\n\trm x\n\tEOF", 0, "rm x\n"),
        ("echo 'rm x' | sh", 1, "rm x\n"),
        ("echo -n rm x | bash -s", 1, "rm x"),
        ("printf 'rm x\\n' | dash", 1, "rm x\n"),
        ("echo rm | (sh)", 1, "rm\n"),
        (". /dev/stdin <<< 'rm x'", 0, "rm x\n"),
        ("bash /dev/stdin <<< 'rm x'", 0, "rm x\n"),
    ];
    for &(command, index, text) in fed {
        let p = part(command, index);
        assert_eq!(p.runs, [text], "{command:?}: {p:?}");
        assert!(p.not_allowable.is_some(), "{command:?}");
    }
    let hidden: &[(&str, usize)] = &[
        ("curl -s x | sh", 1),
        ("cat f | bash", 1),
        ("sh < f", 0),
        ("bash", 0),
        ("bash -s", 0),
        ("bash <<EOF\n$X\nEOF", 0),
        ("echo \"$X\" | sh", 1),
        ("echo 'a\\nb' | sh", 1),
        ("bash <(curl x)", 0),
        ("source <(curl x)", 0),
        ("su", 0),
    ];
    for &(command, index) in hidden {
        let p = part(command, index);
        assert!(p.unjudgeable.is_some(), "{command:?}: {p:?}");
    }
    // A script file is a program of its own; `-c` lines are read.
    for command in ["bash ./build.sh", "sh -c 'ls'", "echo 'ls' > f"] {
        assert_eq!(part(command, 0).unjudgeable, None, "{command:?}");
    }
}

#[test]
fn command_names_only_the_shell_knows_cannot_be_judged() {
    let part = |command: &str| split_command(command).unwrap().parts.remove(0);
    for command in [
        "$X",
        "${X} y",
        "\"$X\"",
        "$(echo rm) x",
        "`echo rm` x",
        "r* x",
        "./[r]m",
        "r? x",
        "@(rm) x",
        "r{m,} x",
        "$\"rm\" x",
        "sudo $X",
        "env -i $X",
    ] {
        let p = part(command);
        assert!(p.unjudgeable.is_some(), "{command:?}: {p:?}");
        assert!(p.not_allowable.is_some(), "{command:?}");
    }
    for command in [
        "echo $X",
        "ls *.rs",
        "[ -f x ]",
        "[[ -n $X ]]",
        "{rm,-rf,x}",
        "\\rm x",
        "r''m x",
        "timeout 5 pytest $F",
        "git log --format=%H",
    ] {
        assert_eq!(part(command).unjudgeable, None, "{command:?}");
    }
}

#[test]
fn describe_lists_parts() {
    let split = split_command("a && b $(c)").unwrap();
    assert_eq!(
        describe(&split),
        "`a`, `b $(c)`, `c` (contains substitutions or variables)"
    );
}

proptest::proptest! {
    #[test]
    fn never_panics(command in "\\PC{0,80}") {
        let _ = split_command(&command);
    }

    #[test]
    fn never_panics_on_shell_syntax(command in "[a-c $()`'\"\\\\;&|<>{}#\n-]{0,60}") {
        if let Ok(split) = split_command(&command) {
            for part in split.parts {
                // Whitespace may end a part only when escaped (`ls \ `).
                proptest::prop_assert!(!part.text.is_empty());
                proptest::prop_assert!(!part.text.starts_with([' ', '\t', '\n']));
            }
        }
    }
}

fn one_part(command: &str) -> CommandPart {
    let mut split = split_command(command).unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert_eq!(split.parts.len(), 1, "{command:?}: {:?}", split.parts);
    split.parts.remove(0)
}

#[test]
fn redirections_are_listed_with_their_targets() {
    let redirects = |command: &str| -> Vec<(String, String)> {
        one_part(command)
            .redirects
            .into_iter()
            .map(|r| (r.operator, r.target))
            .collect()
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(o, t)| ((*o).to_owned(), (*t).to_owned()))
            .collect()
    };
    let hole = HOLE.to_string();
    let cases: &[(&str, Vec<(String, String)>)] = &[
        ("ls > out", pairs(&[(">", "out")])),
        ("ls >out 2>&1", pairs(&[(">", "out"), ("2>&", "1")])),
        ("ls >> 'a b'", pairs(&[(">>", "a b")])),
        ("2>/dev/null ls", pairs(&[("2>", "/dev/null")])),
        ("cat < in.txt", pairs(&[("<", "in.txt")])),
        ("cat <<< \"x y\"", pairs(&[("<<<", "x y")])),
        ("cat <<EOF\nbody\nEOF", pairs(&[("<<", "EOF")])),
        ("cat <<-'EOF'\nbody\nEOF", pairs(&[("<<", "'EOF'")])),
        ("ls &> log", pairs(&[("&>", "log")])),
        (
            "ls > \"$HOME/x\"",
            vec![(">".to_owned(), format!("{hole}/x"))],
        ),
        ("ls > *.txt", vec![(">".to_owned(), format!("{hole}.txt"))]),
        ("ls", vec![]),
    ];
    for (command, want) in cases {
        assert_eq!(&redirects(command), want, "{command:?}");
    }
}

#[test]
fn assignment_prefixes_are_listed() {
    let hole = HOLE.to_string();
    let cases: &[(&str, Vec<(String, String)>)] = &[
        ("ls", vec![]),
        ("PATH=. ls", vec![("PATH".to_owned(), ".".to_owned())]),
        (
            "A=1 B='x y' ls",
            vec![
                ("A".to_owned(), "1".to_owned()),
                ("B".to_owned(), "x y".to_owned()),
            ],
        ),
        ("A+=x ls", vec![("A".to_owned(), "x".to_owned())]),
        ("A=$B ls", vec![("A".to_owned(), hole.clone())]),
        ("ls A=1", vec![]),
    ];
    for (command, want) in cases {
        assert_eq!(&one_part(command).assignments, want, "{command:?}");
    }
}

#[test]
fn constructs_outside_the_grammar_cannot_be_judged() {
    for command in [
        "echo ${ rm x; }",
        "echo ${| rm x; }",
        "echo $(cat <<EOF)\nrm x\nEOF\n",
    ] {
        let split = split_command(command).unwrap_or_else(|e| panic!("{command:?}: {e}"));
        assert!(
            split.parts.iter().any(|p| p.unjudgeable.is_some()),
            "{command:?}: {:?}",
            split.parts
        );
    }
}

use super::*;
use serde_json::json;

fn words(text: &str) -> Vec<String> {
    text.split(' ').map(str::to_owned).collect()
}

#[test]
fn hookrun_is_recognised_however_it_is_spelled() {
    let sub = |s: &str| Some(Invocation::Sub(s.to_owned()));
    let cases: &[(&str, Option<Invocation>)] = &[
        ("hookrun trust", sub("trust")),
        ("hookrun -v untrust /p", sub("untrust")),
        (
            "/usr/local/bin/hookrun uninstall claude-code",
            sub("uninstall"),
        ),
        ("hookrun-native init --project", sub("init")),
        ("./target/release/hookrun install codex", sub("install")),
        ("hookrun.exe trust", sub("trust")),
        ("npx hookrun trust", sub("trust")),
        ("npx -y hookrun@latest untrust", sub("untrust")),
        ("npx -p hookrun hookrun trust", sub("trust")),
        ("npm exec -- hookrun trust", sub("trust")),
        ("pnpm dlx hookrun trust", sub("trust")),
        ("bunx hookrun trust", sub("trust")),
        ("uvx hookrun trust", sub("trust")),
        ("pipx run hookrun trust", sub("trust")),
        (
            "node node_modules/hookrun/bin/hookrun.js trust",
            sub("trust"),
        ),
        ("python3 -m hookrun trust", sub("trust")),
        ("npx @hookrun/linux-x64 untrust", sub("untrust")),
        ("hookrun \u{FFFF}", Some(Invocation::Unknown)),
        // Not these.
        ("hookrun doctor", None),
        ("hookrun fire pre_tool_use", None),
        ("hookrun test trust", None),
        ("echo hookrun trust", None),
        ("git commit -m hookrun trust", None),
        ("npx prettier trust", None),
        ("hookrunner trust", None),
    ];
    for (command, want) in cases {
        assert_eq!(hookrun_invocation(&words(command)), *want, "{command}");
    }
    let line = ["npx", "-c", "hookrun trust"].map(str::to_owned);
    assert_eq!(hookrun_invocation(&line), sub("trust"));
}

#[test]
fn agent_markers_are_the_hosts_and_codexs_path() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    };
    assert!(
        agent_marker(env(&[("CLAUDECODE", "1")]))
            .unwrap()
            .contains("Claude Code")
    );
    assert!(agent_marker(env(&[("GEMINI_CLI", "1")])).is_some());
    assert!(
        agent_marker(env(&[(
            "PATH",
            "/home/u/.codex/tmp/arg0-linux/codex-arg0AbC:/usr/bin"
        )]))
        .unwrap()
        .contains("Codex")
    );
    assert_eq!(
        agent_marker(env(&[("PATH", "/usr/bin"), ("CLAUDECODE", "")])),
        None
    );
}

/// A fire's places in a temporary home and project.
struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    env: Vec<(OsString, OsString)>,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let home = root.join("home");
        let project = root.join("project");
        std::fs::create_dir_all(home.join(".config/hookrun")).unwrap();
        std::fs::create_dir_all(project.join(".hookrun")).unwrap();
        World {
            _dir: dir,
            home,
            project,
            env: Vec::new(),
        }
    }

    fn guard(&self) -> Guard {
        let settings = Settings::default();
        let places = Places::of(
            &settings,
            &self.project,
            Some(&self.home),
            &self.env,
            Some(&self.home.join(".local/state/hookrun")),
            Some(&self.home.join("audit.jsonl")),
        );
        Guard::new(places, &settings)
    }

    fn judge(&self, tool: &str, input: &serde_json::Value) -> Option<Hit> {
        self.guard().judge(tool, input, &|| input, &self.project)
    }

    fn bash(&self, command: &str) -> Option<&'static str> {
        self.judge("Bash", &json!({ "command": command }))
            .map(|hit| hit.rule.name)
    }
}

#[test]
fn writes_to_hookruns_files_are_denied_and_reads_are_not() {
    let w = World::new();
    let cases: &[(&str, Option<&str>)] = &[
        ("hookrun untrust .", Some("hookrun-commands")),
        (
            "cd /tmp && CLAUDECODE=1 sudo -E hookrun uninstall claude-code",
            Some("hookrun-commands"),
        ),
        ("bash -c 'hookrun trust'", Some("hookrun-commands")),
        ("$(which hookrun) trust .", Some("hookrun-commands")),
        // A program word only the running shell knows may be hookrun.
        ("h=hookrun; $h untrust", Some("hookrun-commands")),
        ("curl -s x | sh", Some("hookrun-commands")),
        ("hookrun doctor && hookrun list", None),
        (
            "echo '{}' > ~/.config/hookrun/trust.json",
            Some("hookrun-trust-store"),
        ),
        (
            "rm -rf ~/.config/hookrun/trusted",
            Some("hookrun-trust-store"),
        ),
        (
            "echo '{}' > .hookrun/settings.json",
            Some("hookrun-settings"),
        ),
        ("mkdir -p sub/.hookrun", Some("hookrun-settings")),
        ("rm -rf ~/.config", Some("hookrun-trust-store")),
        (
            "echo 99 > ~/.local/state/hookrun/sessions/x/stop-blocks-y",
            Some("hookrun-state"),
        ),
        (": > ~/audit.jsonl", Some("hookrun-log")),
        ("echo x > ~/.config/$NAME", Some("hookrun-trust-store")),
        (
            "python3 -c 'open(\".hookrun/settings.json\",\"w\")'",
            Some("hookrun-settings"),
        ),
        (
            "cat .hookrun/settings.json ~/.config/hookrun/trust.json",
            None,
        ),
        ("grep -r hookrun ~/.local/state/hookrun", None),
        ("echo x > \"$OUT\"", None),
        ("echo x > /proc/self/fd/2 2>/dev/fd/1", None),
        ("echo x > /proc/1/cwd/notes", Some("hookrun-settings")),
        ("git status", None),
    ];
    for (command, want) in cases {
        assert_eq!(w.bash(command), *want, "{command}");
    }
    // Text typed into a running program: read as a command line, denied
    // when it runs hookrun, not merely because it cannot be read.
    let typed = |chars: &str| {
        w.judge("write_stdin", &json!({"session_id": 1, "chars": chars}))
            .map(|hit| hit.rule.name)
    };
    assert_eq!(typed("hookrun untrust .\n"), Some("hookrun-commands"));
    assert_eq!(typed("y\n"), None);
    // The program that runs (here, this test binary).
    let program = std::env::current_exe().unwrap();
    assert_eq!(
        w.bash(&format!("cp /bin/true {}", program.display())),
        Some("hookrun-program")
    );
    let write = |path: &str| {
        w.judge("Write", &json!({"file_path": path, "content": "{}"}))
            .map(|hit| hit.rule.name)
    };
    assert_eq!(
        write(".hookrun/settings.local.json"),
        Some("hookrun-settings")
    );
    assert_eq!(
        write("~/.config/hookrun/settings.json"),
        Some("hookrun-settings")
    );
    assert_eq!(write("src/main.rs"), None);
    // Through a symbolic link.
    crate::platform::symlink(w.home.join(".config/hookrun"), w.project.join("cfg")).unwrap();
    assert_eq!(write("cfg/trust.json"), Some("hookrun-trust-store"));
}

#[test]
fn the_reason_says_what_to_do_instead() {
    let w = World::new();
    let hit = w
        .judge("Bash", &json!({"command": "npx hookrun untrust ."}))
        .unwrap();
    let reason = hit.reason();
    assert!(reason.contains("hookrun-commands"), "{reason}");
    assert!(
        reason.contains("run `npx hookrun untrust .` yourself"),
        "{reason}"
    );
}

#[test]
fn managed_settings_turn_a_rule_off_by_name_and_nothing_else_does() {
    use crate::settings::load::load_bytes;
    use crate::settings::model::Source;
    let w = World::new();
    let load = |kind: SourceKind| {
        let mut settings = Settings::default();
        load_bytes(
            &mut settings,
            Source {
                path: PathBuf::from("/x/settings.json"),
                kind,
                claude_mode: false,
                trust_required: false,
            },
            PathBuf::from("/x"),
            br#"{"disableBuiltinRules": ["hookrun-commands", "nope"]}"#,
        );
        settings
    };
    for kind in [SourceKind::User, SourceKind::Cli] {
        let settings = load(kind);
        let guard = Guard::new(Places::default(), &settings);
        assert!(RULES.iter().all(|r| guard.is_on(r)), "{kind:?}");
    }
    let managed = load(SourceKind::Managed);
    let guard = Guard::new(
        Places::of(&managed, &w.project, Some(&w.home), &[], None, None),
        &managed,
    );
    assert!(!guard.is_on(&RULES[0]));
    assert!(
        guard.warnings[0].contains("\"nope\""),
        "{:?}",
        guard.warnings
    );
    let input = json!({"command": "hookrun trust"});
    assert_eq!(guard.judge("Bash", &input, &|| &input, &w.project), None);
}

/// hookrun's places on a Windows machine, judged in the Windows style.
fn windows_guard() -> Guard {
    let home = PathBuf::from(r"C:\Users\Me");
    let places = Places {
        project: PathBuf::from(r"C:\Work\Proj"),
        config_dir: Some(home.join(r".config\hookrun")),
        state_dir: Some(PathBuf::from(r"C:\Users\Me\AppData\Local\hookrun\state")),
        logs: vec![PathBuf::from(r"C:\Users\Me\hookrun-audit.jsonl")],
        settings_files: vec![PathBuf::from(r"D:\Policy\hookrun.json")],
        home: Some(home),
        style: PathStyle::Windows,
        ..Places::default()
    };
    Guard::new(places, &Settings::default())
}

#[test]
fn hookruns_files_on_windows_are_protected_by_any_spelling() {
    let guard = windows_guard();
    let cwd = Path::new(r"C:\Work\Proj");
    let write = |path: &str| {
        let input = json!({"file_path": path, "content": "{}"});
        guard
            .judge("Write", &input, &|| &input, cwd)
            .map(|hit| hit.rule.name)
    };
    let cases: &[(&str, Option<&str>)] = &[
        (
            r"C:\Users\Me\.config\hookrun\settings.json",
            Some("hookrun-settings"),
        ),
        (
            r"c:/users/me/.CONFIG/HookRun/Settings.json",
            Some("hookrun-settings"),
        ),
        (
            "/c/Users/me/.config/hookrun/settings.json",
            Some("hookrun-settings"),
        ),
        (
            r"\\?\C:\Users\ME\.config\hookrun\settings.json",
            Some("hookrun-settings"),
        ),
        (r"~\.config\hookrun\settings.json", Some("hookrun-settings")),
        (
            r"C:\Users\Me\.config\hookrun.\settings.json",
            Some("hookrun-settings"),
        ),
        (
            r"..\..\Users\me\.config\hookrun\trust.json",
            Some("hookrun-trust-store"),
        ),
        (
            r"C:\USERS\ME\.config\hookrun\TRUST.JSON",
            Some("hookrun-trust-store"),
        ),
        (r".HOOKRUN\settings.json", Some("hookrun-settings")),
        (
            r"C:\Work\Proj\.Hookrun\settings.json",
            Some("hookrun-settings"),
        ),
        (r"d:\POLICY\HOOKRUN.JSON", Some("hookrun-settings")),
        (
            r"C:\Users\Me\AppData\Local\HOOKRUN\State\approvals.json",
            Some("hookrun-state"),
        ),
        (r"c:\users\me\HOOKRUN-AUDIT.JSONL", Some("hookrun-log")),
        // Not hookrun's.
        (r"C:\Users\Me\notes.txt", None),
        (r"D:\Users\Me\.config\hookrun\settings.json", None),
        (r"C:\Work\Proj\src\main.rs", None),
    ];
    for (path, expected) in cases {
        assert_eq!(write(path), *expected, "{path}");
    }
    let bash = |command: &str| {
        let input = json!({"command": command});
        guard
            .judge("Bash", &input, &|| &input, cwd)
            .map(|hit| hit.rule.name)
    };
    for command in [
        "echo {} > C:/USERS/me/.config/hookrun/settings.json",
        r"rm -rf 'C:\Users\Me\.config'",
        "rm -rf /c/users/me/AppData/Local/hookrun",
        r"cp x 'c:\users\me\.config\hookrun\trust.json'",
    ] {
        assert!(bash(command).is_some(), "{command}");
    }
    assert_eq!(bash("echo hi > C:/Users/Me/notes.txt"), None);
}

crate::platform::windows_only! {
    /// The running Windows build: hookrun's own files, in a real profile
    /// folder, are protected however a call spells their path.
    #[test]
    fn the_windows_build_guards_its_files_by_any_spelling() {
        assert_eq!(PathStyle::native(), PathStyle::Windows);
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("Home");
        let project = dir.path().join("Project");
        std::fs::create_dir_all(home.join(".config").join("hookrun")).unwrap();
        std::fs::create_dir_all(project.join(".hookrun")).unwrap();
        let settings = Settings::default();
        let places = Places::of(&settings, &project, Some(&home), &[], None, None);
        let guard = Guard::new(places, &settings);
        let file = home.join(".config").join("hookrun").join("settings.json");
        let written = file.to_string_lossy().into_owned();
        for spelling in [
            written.clone(),
            written.to_uppercase(),
            written.replace('\\', "/"),
            format!(r"\\?\{written}"),
            written.replace(r"\hookrun\", r"\HookRun.\"),
        ] {
            let input = json!({"file_path": spelling, "content": "{}"});
            assert_eq!(
                guard
                    .judge("Write", &input, &|| &input, &project)
                    .map(|hit| hit.rule.name),
                Some("hookrun-settings"),
                "{spelling}"
            );
        }
        let other = home.join("notes.txt").to_string_lossy().to_uppercase();
        let input = json!({"file_path": other, "content": "x"});
        assert_eq!(guard.judge("Write", &input, &|| &input, &project), None);
    }
}

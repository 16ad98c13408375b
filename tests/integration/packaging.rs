//! The install channels: the packaging files agree with Cargo.toml (cheap;
//! `just package-smoke` builds and installs the real artefacts), and
//! `install` / `doctor` around package runners' caches and the
//! project-pinned npm binary.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{Sandbox, repo};

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn package_json(rel: &str) -> Value {
    serde_json::from_str(&read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `key = "value"` of a TOML table (the first one, from `[table]` to the
/// next header): enough for the flat tables these files use.
fn toml_value(text: &str, table: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == format!("[{table}]");
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() == key {
            return Some(v.trim().trim_matches('"').to_owned());
        }
    }
    None
}

/// Every target hookrun ships: the npm platform package's folder, npm's
/// `os` and `cpu`, the Rust target (the release archive's name), and the
/// platform part of the wheel's tag (maturin's, for the oldest system the
/// build admits: manylinux's glibc, macOS's deployment target; Windows's
/// one tag for x86_64). Windows's release binary is the msvc build.
#[rustfmt::skip]
const PLATFORMS: &[(&str, &str, &str, &str, &str)] = &[
    ("linux-x64", "linux", "x64", "x86_64-unknown-linux-gnu", "manylinux"),
    ("linux-arm64", "linux", "arm64", "aarch64-unknown-linux-gnu", "manylinux"),
    ("darwin-x64", "darwin", "x64", "x86_64-apple-darwin", "macosx_10_12_x86_64"),
    ("darwin-arm64", "darwin", "arm64", "aarch64-apple-darwin", "macosx_11_0_arm64"),
    ("win32-x64", "win32", "x64", "x86_64-pc-windows-msvc", "win_amd64"),
];

/// The executable's file name on a target (npm's `os`, or the Rust target):
/// Windows runs only a `.exe`.
fn exe(os_or_target: &str) -> &'static str {
    if os_or_target == "win32" || os_or_target.contains("-windows-") {
        "hookrun.exe"
    } else {
        "hookrun"
    }
}

#[test]
fn every_channel_carries_cargo_tomls_version_name_and_repository() {
    let cargo = read("Cargo.toml");
    let version = toml_value(&cargo, "package", "version").unwrap();
    let repository = toml_value(&cargo, "package", "repository").unwrap();
    for key in [
        "description",
        "license",
        "repository",
        "homepage",
        "keywords",
        "categories",
    ] {
        assert!(
            toml_value(&cargo, "package", key).is_some(),
            "Cargo.toml [package] needs {key} for crates.io"
        );
    }

    // PyPI: the version is Cargo.toml's (maturin reads it), the wheel is the
    // binary itself.
    let pyproject = read("pyproject.toml");
    assert_eq!(
        toml_value(&pyproject, "project", "dynamic").as_deref(),
        Some(r#"["version"]"#)
    );
    assert_eq!(
        toml_value(&pyproject, "project", "version"),
        None,
        "pyproject.toml takes the version from Cargo.toml"
    );
    assert_eq!(
        toml_value(&pyproject, "tool.maturin", "bindings").as_deref(),
        Some("bin")
    );
    assert_eq!(
        toml_value(&pyproject, "project", "name").as_deref(),
        Some("hookrun")
    );

    // npm: the launcher package pins every platform package at its own
    // version, and the launcher knows each of them.
    let main = package_json("npm/hookrun/package.json");
    assert_eq!(main["name"], "hookrun");
    assert_eq!(main["version"], version.as_str());
    assert_eq!(main["bin"], json!({"hookrun": "bin/hookrun.js"}));
    assert!(
        main["repository"]["url"]
            .as_str()
            .unwrap()
            .contains(repository.trim_start_matches("https://")),
        "npm/hookrun/package.json's repository is Cargo.toml's"
    );
    let launcher = read("npm/hookrun/bin/hookrun.js");
    let optional = main["optionalDependencies"].as_object().unwrap();
    assert_eq!(optional.len(), PLATFORMS.len(), "{optional:?}");
    // The launcher looks for the executable under its Windows name there.
    assert!(
        launcher.contains(r#"process.platform === "win32" ? "hookrun.exe" : "hookrun""#)
            && launcher.contains(r#""bin", EXE)"#),
        "bin/hookrun.js names hookrun.exe on Windows"
    );
    for (dir, os, cpu, _, _) in PLATFORMS {
        let name = format!("@hookrun/{dir}");
        let bin = format!("bin/{}", exe(os));
        assert_eq!(optional[&name], version.as_str(), "{name}");
        assert!(
            launcher.contains(&format!("\"{dir}\": \"{name}\"")),
            "bin/hookrun.js does not map {dir} to {name}"
        );
        let platform = package_json(&format!("npm/platforms/{dir}/package.json"));
        assert_eq!(platform["name"], name.as_str());
        assert_eq!(platform["version"], version.as_str(), "{name}");
        assert_eq!(platform["os"], json!([os]), "{name}");
        assert_eq!(platform["cpu"], json!([cpu]), "{name}");
        // The link npm makes in node_modules/.bin is what `--pinned` writes
        // (`pinned_entries_run_the_projects_npm_binary_…` below reads it in the entry).
        assert_eq!(platform["bin"], json!({ "hookrun-native": bin }), "{name}");
        assert_eq!(
            platform["files"],
            json!([bin, "LICENSE-MIT", "LICENSE-APACHE"]),
            "{name}"
        );
        assert!(
            platform.get("scripts").is_none(),
            "{name}: no install scripts"
        );
    }
    assert!(main.get("scripts").is_none(), "hookrun: no install scripts");
    // packaging/npm.sh puts the binary where the package names it.
    let npm_sh = read("packaging/npm.sh");
    assert!(npm_sh.contains("win32-*) system=Windows exe=hookrun.exe ;;"));
    assert!(npm_sh.contains(r#"cp "$binary" "$stage/platform/bin/$exe""#));
}

#[test]
fn binstall_metadata_names_the_archives_the_recipe_makes() {
    let cargo = read("Cargo.toml");
    let version = toml_value(&cargo, "package", "version").unwrap();
    let meta = "package.metadata.binstall";
    // binstall's `{ binary-ext }` is ".exe" for a Windows target.
    let render = |template: &str, target: &str| {
        template
            .replace("{ repo }", "REPO")
            .replace("{ name }", "hookrun")
            .replace("{ version }", &version)
            .replace("{ target }", target)
            .replace("{ bin }", "hookrun")
            .replace(
                "{ binary-ext }",
                if target.contains("-windows-") {
                    ".exe"
                } else {
                    ""
                },
            )
    };
    // A target's setting: its override's, else the table's.
    let setting = |target: &str, key: &str| {
        toml_value(&cargo, &format!("{meta}.overrides.{target}"), key)
            .or_else(|| toml_value(&cargo, meta, key))
            .unwrap_or_else(|| panic!("Cargo.toml: no binstall {key} for {target}"))
    };

    // packaging/dist.sh: `name="hookrun-v$version-$target"`, the archive
    // `$name.tar.gz` holding `$name/hookrun`, for Windows `$name.zip`
    // holding `$name/hookrun.exe`.
    let dist = read("packaging/dist.sh");
    assert!(dist.contains(r#"name="hookrun-v$version-$target""#));
    assert!(dist.contains(r#"*-windows-*) exe=hookrun.exe archive="$name.zip" ;;"#));
    assert!(dist.contains(r#"*) exe=hookrun archive="$name.tar.gz" ;;"#));
    assert!(dist.contains(r#"cp "$bin" "$stage/$exe""#));
    assert!(dist.contains(r#"sha256sum "$archive""#));
    let release = read("docs/release.md");
    // The gnu build (MinGW-w64, built here) is found as the msvc one is.
    let targets = PLATFORMS
        .iter()
        .map(|p| (p.3, Some(p.4)))
        .chain([("x86_64-pc-windows-gnu", None)]);
    for (target, wheel) in targets {
        let name = format!("hookrun-v{version}-{target}");
        let (ext, fmt) = if target.contains("-windows-") {
            ("zip", "zip")
        } else {
            ("tar.gz", "tgz")
        };
        assert_eq!(
            render(&setting(target, "pkg-url"), target),
            format!("REPO/releases/download/v{version}/{name}.{ext}")
        );
        assert_eq!(setting(target, "pkg-fmt"), fmt, "{target}");
        assert_eq!(
            render(&setting(target, "bin-dir"), target),
            format!("{name}/{}", exe(target))
        );
        let Some(wheel) = wheel else { continue };
        // docs/release.md lists every target the npm packages cover, with
        // its wheel's platform tag.
        let row = release
            .lines()
            .find(|line| line.starts_with(&format!("| `{target}`")))
            .unwrap_or_else(|| panic!("docs/release.md has no row for {target}"));
        assert!(row.contains(wheel), "{target}'s wheel tag {wheel}: {row}");
    }
    // The macOS archives are built here (zig links them), the others on
    // runners of their own; the recipe knows how.
    assert!(dist.contains("*-apple-darwin)") && dist.contains("cross_cargo"));
    assert!(dist.contains("x86_64-pc-windows-gnu)"));
    // PyPI says which systems the wheels are for.
    let pyproject = read("pyproject.toml");
    for system in [
        "Operating System :: MacOS",
        "Operating System :: Microsoft :: Windows",
        "Operating System :: POSIX :: Linux",
    ] {
        assert!(pyproject.contains(system), "pyproject.toml: {system}");
    }
}

fn checks(run: &crate::support::Run) -> Vec<(String, String, String)> {
    run.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["check"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
                f["fix"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn doctor(sb: &Sandbox, settings: &Path) -> crate::support::Run {
    sb.run(
        &[
            "doctor",
            "--no-default-settings",
            "--settings",
            settings.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    )
}

#[test]
fn install_refuses_a_hookrun_in_uvx_or_npx_cache_and_doctor_flags_one() {
    let sb = Sandbox::new();
    let before = "{\n  \"permissions\": {}\n}\n";
    let file = sb.write("project/.claude/settings.json", before);
    for cache in [
        "home/.cache/uv/archive-v0/Ab12/bin/hookrun",
        "home/.npm/_npx/3f2a/node_modules/@hookrun/linux-x64/bin/hookrun",
    ] {
        let binary = sb.path(cache);
        for dry in [true, false] {
            let mut args = vec![
                "install",
                "claude-code",
                "--binary",
                binary.to_str().unwrap(),
            ];
            if dry {
                args.push("--dry-run");
            }
            let run = sb.run(&args, b"");
            assert_eq!(run.code, Some(1), "{run:?}");
            assert!(run.stderr.contains("cache"), "{}", run.stderr);
            assert!(
                run.stderr.contains("uv tool install hookrun")
                    && run.stderr.contains("npm i -g hookrun"),
                "the refusal names the durable installs: {}",
                run.stderr
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
        }
    }
    // An entry written by hand (or by an older hookrun) into uv's cache.
    let binary = sb.script("home/.cache/uv/archive-v0/Ab12/bin/hookrun", "#!/bin/sh\n");
    sb.write(
        "project/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": format!("{} fire --host claude-code", binary.display())}]}]}}).to_string(),
    );
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let found = checks(&doctor(&sb, &settings));
    let hit = found
        .iter()
        .find(|(c, _, _)| c == "host-hookrun-ephemeral")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(hit.1.contains("uv cache clean"), "{hit:?}");
    assert!(hit.1.contains("127"), "{hit:?}");
}

crate::platform::unix_only! {
#[test]
fn pinned_entries_run_the_projects_npm_binary_and_doctor_says_when_it_is_missing() {
    let sb = Sandbox::new();
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let settings_arg = settings.to_str().unwrap();
    let dry = sb.run(
        &[
            "install",
            "claude-code",
            "--pinned",
            "--dry-run",
            "--settings",
            settings_arg,
        ],
        b"",
    );
    assert_eq!(dry.code, Some(0), "{dry:?}");
    assert!(
        dry.stdout.contains(
            r#"\"$CLAUDE_PROJECT_DIR\"/node_modules/.bin/hookrun-native fire --host claude-code"#
        ),
        "{}",
        dry.stdout
    );
    assert!(dry.stdout.contains("npm i -D hookrun"), "{}", dry.stdout);
    // Hosts that do not give hooks $CLAUDE_PROJECT_DIR cannot be pinned.
    let codex = sb.run(&["install", "codex", "--pinned", "--dry-run"], b"");
    assert_eq!(codex.code, Some(1), "{codex:?}");
    assert!(
        codex.stderr.contains("CLAUDE_PROJECT_DIR"),
        "{}",
        codex.stderr
    );

    let run = sb.run(
        &[
            "install",
            "claude-code",
            "--pinned",
            "--settings",
            settings_arg,
        ],
        b"",
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    // Before `npm install` on this machine: the pinned binary is missing.
    let found = checks(&doctor(&sb, &settings));
    let missing = found
        .iter()
        .find(|(c, _, _)| c == "host-hookrun-missing")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert!(
        missing.1.contains(&format!(
            "{}/node_modules/.bin/hookrun-native",
            sb.project.display()
        )),
        "{missing:?}"
    );
    assert!(missing.2.contains("npm install"), "{missing:?}");
    // After it (npm links .bin/hookrun-native to the platform package's
    // executable): nothing to say about the entry's binary.
    let native = sb.path("project/node_modules/@hookrun/linux-x64/bin/hookrun");
    std::fs::create_dir_all(native.parent().unwrap()).unwrap();
    std::fs::copy(crate::support::BIN, &native).unwrap();
    std::fs::create_dir_all(sb.path("project/node_modules/.bin")).unwrap();
    std::os::unix::fs::symlink(
        "../@hookrun/linux-x64/bin/hookrun",
        sb.path("project/node_modules/.bin/hookrun-native"),
    )
    .unwrap();
    let found = checks(&doctor(&sb, &settings));
    assert!(
        !found.iter().any(|(c, _, _)| c.starts_with("host-hookrun")),
        "{found:?}"
    );
    // Run from the project's node_modules, install pins by itself.
    let mut cmd = sb.command();
    cmd.args([
        "install",
        "claude-code",
        "--dry-run",
        "--settings",
        settings_arg,
    ]);
    let own = crate::support::run_command(
        std::process::Command::new(&native)
            .args(cmd.get_args())
            .env_clear()
            .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
            .env_remove("CLAUDE_PROJECT_DIR")
            .current_dir(&sb.project),
        b"",
    );
    assert_eq!(own.code, Some(0), "{own:?}");
    assert!(
        own.stdout.contains("already up to date"),
        "the pinned entry again: {}",
        own.stdout
    );
    assert!(own.stdout.contains("devDependency"), "{}", own.stdout);
}
}

crate::platform::unix_only! {
#[test]
fn install_and_doctor_refuse_npms_node_launcher_as_the_entrys_binary() {
    let sb = Sandbox::new();
    // npm's global bin: a link to the launcher script.
    let launcher = sb.script(
        "npm/lib/node_modules/hookrun/bin/hookrun.js",
        "#!/usr/bin/env node\n",
    );
    std::fs::create_dir_all(sb.path("npm/bin")).unwrap();
    let link = sb.path("npm/bin/hookrun");
    std::os::unix::fs::symlink(&launcher, &link).unwrap();
    let run = sb.run(
        &[
            "install",
            "claude-code",
            "--dry-run",
            "--binary",
            link.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("Node launcher"), "{}", run.stderr);

    sb.write(
        "project/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": format!("{} fire --host claude-code", link.display())}]}]}}).to_string(),
    );
    let settings = sb.settings(&json!({"hooks": {"PreToolUse": [{"command": "true"}]}}));
    let found = checks(&doctor(&sb, &settings));
    assert!(
        found
            .iter()
            .any(|(c, m, _)| c == "host-hookrun-launcher" && m.contains("Node")),
        "{found:?}"
    );
}
}

/// The npm layout of a global install, built by hand: the launcher from
/// npm/hookrun and this test binary as the platform package's executable
/// (their paths).
fn npm_layout(sb: &Sandbox) -> (std::path::PathBuf, std::path::PathBuf) {
    let modules = sb.path("npm/lib/node_modules");
    let main = modules.join("hookrun");
    std::fs::create_dir_all(main.join("bin")).unwrap();
    std::fs::copy(
        repo().join("npm/hookrun/package.json"),
        main.join("package.json"),
    )
    .unwrap();
    std::fs::copy(
        repo().join("npm/hookrun/bin/hookrun.js"),
        main.join("bin/hookrun.js"),
    )
    .unwrap();
    let cpu = match std::env::consts::ARCH {
        "aarch64" => "arm64",
        _ => "x64",
    };
    let platform = modules.join(format!("@hookrun/linux-{cpu}"));
    std::fs::create_dir_all(platform.join("bin")).unwrap();
    std::fs::copy(
        repo().join(format!("npm/platforms/linux-{cpu}/package.json")),
        platform.join("package.json"),
    )
    .unwrap();
    std::fs::copy(crate::support::BIN, platform.join("bin/hookrun")).unwrap();
    (
        main.join("bin/hookrun.js"),
        std::fs::canonicalize(platform.join("bin/hookrun")).unwrap(),
    )
}

#[test]
fn the_npm_launcher_runs_the_native_binary_whose_path_install_writes() {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        crate::support::skipped("the_npm_launcher_…: node is not installed");
        return;
    }
    let sb = Sandbox::new();
    let (launcher, native) = npm_layout(&sb);
    let node = |args: &[&str], stdin: &[u8]| {
        let cmd = sb.command();
        let mut via = std::process::Command::new("node");
        via.arg(&launcher)
            .args(args)
            .env_clear()
            .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
            .current_dir(&sb.project);
        crate::support::run_command(&mut via, stdin)
    };
    // Exit code and streams pass through (a block is exit 2).
    let fire = node(
        &[
            "fire",
            "pre_tool_use",
            "--trust-project",
            "--settings",
            repo().join("fixtures/settings/flat.json").to_str().unwrap(),
        ],
        &std::fs::read(repo().join("fixtures/events/pre_tool_use__git_push.json")).unwrap(),
    );
    assert_eq!(fire.code, Some(2), "{fire:?}");
    assert!(fire.stdout.contains("\"deny\""), "{}", fire.stdout);
    // The entry names the native executable, not the launcher.
    let dry = node(&["install", "claude-code", "--dry-run"], b"");
    assert_eq!(dry.code, Some(0), "{dry:?}");
    assert!(
        dry.stdout
            .contains(&format!("\"{} fire --host claude-code\"", native.display())),
        "{}",
        dry.stdout
    );
    // Without the platform package: what to install, exactly.
    std::fs::remove_dir_all(native.parent().unwrap().parent().unwrap()).unwrap();
    let missing = node(&["--version"], b"");
    assert_eq!(missing.code, Some(1), "{missing:?}");
    let version = package_json("npm/hookrun/package.json")["version"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        missing.stderr.contains("npm i @hookrun/linux-")
            && missing.stderr.contains(&format!("@{version}")),
        "{}",
        missing.stderr
    );
}

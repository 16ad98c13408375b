//! `docs/design/extending.md` held true: the places its recipes name exist,
//! and every host, event and hook kind hookrun has today has the files the
//! recipes say one has.

use std::path::Path;

use hookrun::catalog::KnownEvent;
use hookrun::host::{HOSTS, HostId};

use crate::support::repo;

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `PreToolUse` → `pre_tool_use`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The repository paths a text names in backticks (`src/…`, `docs/…`…),
/// with placeholders (`<name>`) left in.
fn named_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            ["src/", "tests/", "fixtures/", "docs/"]
                .iter()
                .any(|p| t.starts_with(p))
                && !t.contains(' ')
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_places_the_recipes_name_exist() {
    let page = read("docs/design/extending.md");
    let root = repo();

    // Every place the recipes name exists (placeholders stand for one
    // existing host, kind or event: checked below).
    let named = named_paths(&page);
    assert!(named.len() > 20, "{named:?}");
    for path in &named {
        if path.contains('<') {
            continue;
        }
        assert!(
            root.join(path).exists(),
            "extending.md names {path}, which does not exist"
        );
    }
    // …and the page it sends the reader to first.
    assert!(root.join("docs/design/architecture.md").exists());
    // The functions and tests the recipes point to are where they say.
    for (file, name) in [
        ("src/host/mapping.rs", "fn begin"),
        ("src/host/mapping.rs", "pub fn finish"),
        ("src/host/answer.rs", "Adapting"),
        (
            "src/host/golden.rs",
            "fn adapting_then_encoding_says_what_a_host_cannot_express_once",
        ),
        (
            "src/host/mod.rs",
            "fn registry_facts_are_complete_and_consistent",
        ),
        ("src/diagnose/check.rs", "checks!"),
        (
            "src/diagnose/check.rs",
            "fn every_check_has_a_test_that_finds_it",
        ),
        ("src/generate/diagnostics.rs", "fn documented"),
        (
            "src/diagnose/problems.rs",
            "fn every_problem_kind_reaches_exactly_one_check",
        ),
        ("src/catalog.rs", "known_events!"),
        (
            "src/catalog.rs",
            "fn known_events_are_the_catalog_rows_in_order",
        ),
        ("src/settings/model/kind.rs", "hook_kinds!"),
        ("src/settings/model/kind.rs", "fn kill_grace"),
        (
            "src/settings/load/hooks.rs",
            "fn every_required_field_of_the_table_is_read",
        ),
        ("src/settings/load/hooks.rs", "fn required_field"),
        ("src/settings/model/action.rs", "pub enum HookAction"),
        ("src/plan.rs", "pub struct RequestPolicy"),
        ("src/exchange.rs", "pub fn ending"),
        ("src/run/exchange.rs", "pub(super) fn verdict"),
        ("src/settings/model/problem.rs", "problem_kinds!"),
        ("src/settings/load/hooks.rs", "fn finish_hook"),
        ("src/settings/load/hooks.rs", "HOOK_FIELDS"),
        ("src/plan/tests.rs", "fn the_kill_grace_follows_the_kind"),
        (
            "src/run/tests.rs",
            "fn only_a_command_hook_ran_as_a_process",
        ),
        ("src/run/mod.rs", "enum InFlight"),
    ] {
        assert!(
            read(file).contains(name),
            "extending.md relies on `{name}` in {file}"
        );
    }
}

/// A host: its own file under src/host/, its golden cases next to it,
/// real payloads, a docs section.
#[test]
fn every_host_has_what_the_recipe_gives_one() {
    let root = repo();
    let hosts_doc = read("docs/hosts.md");
    let host_files: Vec<(std::path::PathBuf, String)> = std::fs::read_dir(root.join("src/host"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect();
    for host in HOSTS {
        let facts = host.facts();
        let own: Vec<&(std::path::PathBuf, String)> = host_files
            .iter()
            .filter(|(_, text)| {
                text.contains(&format!("name: \"{}\"", facts.name))
                    && text.contains("impl Host for")
            })
            .collect();
        assert_eq!(
            own.len(),
            1,
            "{}: one file of its own under src/host/",
            facts.name
        );
        let (file, text) = own[0];
        let golden = file.with_extension("").join("golden.rs");
        assert!(
            golden.is_file() && text.contains("#[cfg(test)]\nmod golden;"),
            "{}: golden cases in {}, declared by its host file",
            facts.name,
            golden.display()
        );
        if host.id() == HostId::ClaudeCode {
            continue; // its payloads are fixtures/events/
        }
        let fixtures = root.join("fixtures/hosts").join(facts.name);
        assert!(
            fixtures.is_dir() && std::fs::read_dir(&fixtures).unwrap().count() > 0,
            "{}: real payloads in {}",
            facts.name,
            fixtures.display()
        );
        let heading = format!("\n## {}\n", host.id().display());
        assert!(
            hosts_doc.contains(&heading),
            "docs/hosts.md has no section {heading:?}"
        );
    }
}

/// An event: a real payload and its row in the protocol tables.
#[test]
fn every_event_has_what_the_recipe_gives_one() {
    let root = repo();
    let protocol = read("docs/protocol.md");
    let events_table = protocol
        .split("<!-- generated:events -->")
        .nth(1)
        .expect("docs/protocol.md has its generated events table");
    for event in KnownEvent::ALL {
        let fixture = format!("fixtures/events/{}.json", snake(event.name()));
        assert!(root.join(&fixture).is_file(), "{}: {fixture}", event.name());
        assert!(
            events_table.contains(&format!("\n| {} |", event.name())),
            "docs/protocol.md has no row for {}",
            event.name()
        );
    }
}

/// A hook kind: one file of the run stage, one user page.
#[test]
fn every_hook_kind_has_what_the_recipe_gives_one() {
    let root = repo();
    for (kind, file, doc) in [
        ("command", "src/run/command.rs", "docs/protocol.md"),
        ("http", "src/run/http.rs", "docs/http-hooks.md"),
        ("prompt", "src/run/prompt.rs", "docs/prompt-hooks.md"),
        ("agent", "src/run/prompt.rs", "docs/agent-hooks.md"),
        ("mcp_tool", "src/run/mcp.rs", "docs/mcp-tool-hooks.md"),
    ] {
        assert!(Path::new(&root.join(file)).is_file(), "{kind}: {file}");
        assert!(root.join(doc).is_file(), "{kind}: {doc}");
        assert!(
            read("docs/settings.schema.json").contains(&format!("\"{kind}\"")),
            "{kind}: the schema names the type"
        );
    }
}

// ---- the recipes, performed ----------------------------------------------
//
// Each step of a recipe that changes a file is a fenced block right after a
// comment naming the file and where the block goes:
//
//   <!-- edit: FILE, after: TEXT -->   below the one line that holds TEXT
//   <!-- edit: FILE, before: TEXT -->  above it
//   <!-- edit: FILE, replace: TEXT --> in place of it
//   <!-- edit: FILE, at the end -->    appended
//   <!-- edit: FILE, new -->           a file of its own (that must not exist)
//
// and `<!-- recipe test: ARGS -->` names what `cargo test --locked
// --offline ARGS` runs to show the addition works. A recipe is the `## `
// section its edits sit in. `cargo test` checks that every edit still
// applies to today's files; `just extending-check` performs each recipe on
// a copy of the crate, builds every target and runs the recipe's tests.

/// Where an edit's block goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    After(String),
    Before(String),
    Replace(String),
    End,
    New,
}

#[derive(Debug, Clone)]
struct Edit {
    file: String,
    place: Place,
    block: String,
    /// The edit's line in the page, for messages.
    line: usize,
}

#[derive(Debug, Default)]
struct Recipe {
    title: String,
    edits: Vec<Edit>,
    tests: Vec<String>,
    not_performed: Option<String>,
}

fn parse_edit(comment: &str, line: usize) -> Option<(String, Place)> {
    let inner = comment.strip_prefix("<!-- edit: ")?.strip_suffix(" -->")?;
    let (file, place) = inner
        .split_once(", ")
        .unwrap_or_else(|| panic!("extending.md:{line}: `<!-- edit: FILE, PLACE -->`"));
    let place = if let Some(text) = place.strip_prefix("after: ") {
        Place::After(text.to_owned())
    } else if let Some(text) = place.strip_prefix("before: ") {
        Place::Before(text.to_owned())
    } else if let Some(text) = place.strip_prefix("replace: ") {
        Place::Replace(text.to_owned())
    } else if place == "at the end" {
        Place::End
    } else if place == "new" {
        Place::New
    } else {
        panic!("extending.md:{line}: unknown place {place:?}")
    };
    Some((file.to_owned(), place))
}

/// The recipes of `docs/design/extending.md`, in page order.
fn recipes() -> Vec<Recipe> {
    let page = read("docs/design/extending.md");
    let lines: Vec<&str> = page.lines().collect();
    let mut recipes: Vec<Recipe> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if let Some(title) = line.strip_prefix("## ") {
            recipes.push(Recipe {
                title: title.to_owned(),
                ..Recipe::default()
            });
        } else if let Some(args) = line
            .strip_prefix("<!-- recipe test: ")
            .and_then(|t| t.strip_suffix(" -->"))
        {
            let recipe = recipes.last_mut().expect("a recipe test under a heading");
            recipe.tests.push(args.to_owned());
        } else if let Some(why) = line
            .strip_prefix("<!-- recipe not performed: ")
            .and_then(|t| t.strip_suffix(" -->"))
        {
            let recipe = recipes.last_mut().expect("under a heading");
            recipe.not_performed = Some(why.to_owned());
        } else if let Some((file, place)) = parse_edit(line, i + 1) {
            // The fence follows at once, at any indent; the block is taken
            // with that indent removed.
            let fence = lines[i + 1];
            let indent = fence.len() - fence.trim_start().len();
            assert!(
                fence.trim_start().starts_with("```"),
                "extending.md:{}: an edit comment right before its block",
                i + 1
            );
            let mut block = String::new();
            let mut j = i + 2;
            while !lines[j].trim_start().starts_with("```") {
                let text = lines[j];
                block.push_str(text.get(indent..).unwrap_or_else(|| text.trim_start()));
                block.push('\n');
                j += 1;
            }
            let recipe = recipes.last_mut().expect("an edit under a heading");
            recipe.edits.push(Edit {
                file,
                place,
                block,
                line: i + 1,
            });
            i = j;
        }
        i += 1;
    }
    recipes.retain(|r| r.title.starts_with("A new "));
    recipes
}

/// `text` with `edit` applied, or why it cannot be.
fn apply(text: Option<&str>, edit: &Edit) -> Result<String, String> {
    let at = format!("extending.md:{} ({})", edit.line, edit.file);
    let (anchor, after) = match (&edit.place, text) {
        (Place::New, None) => return Ok(edit.block.clone()),
        (Place::New, Some(_)) => return Err(format!("{at}: the file already exists")),
        (_, None) => return Err(format!("{at}: no such file")),
        (Place::End, Some(text)) => {
            let mut out = text.to_owned();
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push('\n');
            out.push_str(&edit.block);
            return Ok(out);
        }
        (Place::After(anchor), Some(_)) => (anchor, Some(true)),
        (Place::Before(anchor), Some(_)) => (anchor, Some(false)),
        (Place::Replace(anchor), Some(_)) => (anchor, None),
    };
    let text = text.unwrap_or_default();
    let holding: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.contains(anchor.as_str()))
        .map(|(n, _)| n)
        .collect();
    let [n] = holding[..] else {
        return Err(format!(
            "{at}: {} lines hold {anchor:?}, the edit needs exactly one",
            holding.len()
        ));
    };
    let mut out = String::new();
    for (k, line) in text.lines().enumerate() {
        if k != n {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if after == Some(true) {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&edit.block);
        if after == Some(false) {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Every recipe's edits applied, in memory, to the files of `root`.
fn applied(root: &Path, recipe: &Recipe) -> Result<Vec<(String, String)>, String> {
    let mut files: Vec<(String, String)> = Vec::new();
    for edit in &recipe.edits {
        let current = match files.iter().position(|(f, _)| *f == edit.file) {
            Some(k) => Some(files[k].1.clone()),
            None => std::fs::read_to_string(root.join(&edit.file)).ok(),
        };
        let text = apply(current.as_deref(), edit)?;
        match files.iter_mut().find(|(f, _)| *f == edit.file) {
            Some(slot) => slot.1 = text,
            None => files.push((edit.file.clone(), text)),
        }
    }
    Ok(files)
}

/// Fast, in `cargo test`: each recipe's edits still apply to today's files
/// (each anchor on exactly one line, each new file new), and each recipe
/// names the test that shows its addition works.
#[test]
fn every_recipe_still_applies_to_the_code() {
    let recipes = recipes();
    let titles: Vec<&str> = recipes.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "A new host",
            "A new kind of hook",
            "A new doctor check",
            "A new event",
            "A new shell wrapper"
        ],
        "the recipes of extending.md"
    );
    for recipe in &recipes {
        if let Some(why) = &recipe.not_performed {
            assert!(
                recipe.edits.is_empty() && why.split_whitespace().count() >= 3,
                "{}: say why it is not performed, and give it no edits",
                recipe.title
            );
            continue;
        }
        assert!(
            recipe.edits.len() >= 2 && !recipe.tests.is_empty(),
            "{}: its edits and the test that proves them",
            recipe.title
        );
        if let Err(why) = applied(&repo(), recipe) {
            panic!("{}: {why}", recipe.title);
        }
    }
}

#[test]
fn an_edit_needs_its_anchor_on_exactly_one_line() {
    let edit = |place| Edit {
        file: "f".into(),
        place,
        block: "new\n".into(),
        line: 1,
    };
    let text = "a\nb\nb\n";
    assert_eq!(
        apply(Some(text), &edit(Place::After("a".into()))).unwrap(),
        "a\nnew\nb\nb\n"
    );
    assert_eq!(
        apply(Some(text), &edit(Place::Before("a".into()))).unwrap(),
        "new\na\nb\nb\n"
    );
    assert_eq!(
        apply(Some(text), &edit(Place::Replace("a".into()))).unwrap(),
        "new\nb\nb\n"
    );
    assert!(apply(Some(text), &edit(Place::After("b".into()))).is_err());
    assert!(apply(Some(text), &edit(Place::After("c".into()))).is_err());
    assert!(apply(Some(text), &edit(Place::New)).is_err());
    assert_eq!(apply(None, &edit(Place::New)).unwrap(), "new\n");
    assert_eq!(
        apply(Some(text), &edit(Place::End)).unwrap(),
        "a\nb\nb\n\nnew\n"
    );
}

/// What a copy of the crate needs to build every target and run its tests.
const COPIED: &[&str] = &[
    "src",
    "tests",
    "fixtures",
    "docs",
    "completions",
    ".cargo",
    "Cargo.toml",
    "Cargo.lock",
    "README.md",
    "LICENSE-MIT",
    "LICENSE-APACHE",
];

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to)
            .unwrap_or_else(|e| panic!("{} → {}: {e}", from.display(), to.display()));
    }
}

/// `cargo ARGS` in `dir`, building into `target`, with nothing of the
/// `cargo test` running this inherited; its output is shown, and a warning
/// of the copy's own code fails the recipe as one would fail CI.
fn cargo(dir: &Path, target: &Path, args: &[&str]) -> String {
    let mut cmd = std::process::Command::new(std::env::var_os("CARGO").unwrap_or("cargo".into()));
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        let flags = [
            "RUSTFLAGS",
            "RUSTDOCFLAGS",
            "RUSTC_WRAPPER",
            "RUSTC_WORKSPACE_WRAPPER",
        ];
        if (key.starts_with("CARGO_") && key != "CARGO_HOME") || flags.contains(&key.as_str()) {
            cmd.env_remove(key);
        }
    }
    let started = std::time::Instant::now();
    let out = cmd
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    eprintln!(
        "cargo {} ({:.0} s)\n{stdout}{stderr}",
        args.join(" "),
        started.elapsed().as_secs_f64(),
    );
    assert!(out.status.success(), "cargo {} failed", args.join(" "));
    assert!(
        !stderr.contains("\nwarning: ") && !stderr.starts_with("warning: "),
        "cargo {}: the recipe leaves warnings",
        args.join(" ")
    );
    stdout
}

/// Slow, `just extending-check`: each recipe performed on a fresh copy of
/// the crate (in `target/extending-check/crate`, built into
/// `target/extending-check/target` so that the dependencies are built once),
/// every target type-checked, then the recipe's own tests run.
#[test]
#[ignore = "minutes: builds a copy of the crate per recipe (just extending-check)"]
fn every_recipe_builds_and_its_test_passes_on_a_copy_of_the_crate() {
    let root = repo();
    let work = root.join("target/extending-check");
    let copy = work.join("crate");
    let target = work.join("target");
    let only = std::env::var("HOOKRUN_RECIPE").ok();
    for recipe in recipes() {
        if recipe.not_performed.is_some()
            || only.as_deref().is_some_and(|o| !recipe.title.contains(o))
        {
            continue;
        }
        eprintln!("--- {}", recipe.title);
        let started = std::time::Instant::now();
        if copy.exists() {
            std::fs::remove_dir_all(&copy).unwrap();
        }
        for item in COPIED {
            copy_tree(&root.join(item), &copy.join(item));
        }
        let files = applied(&copy, &recipe).unwrap_or_else(|why| panic!("{}: {why}", recipe.title));
        for (file, text) in files {
            let path = copy.join(&file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        cargo(
            &copy,
            &target,
            &["check", "--locked", "--offline", "--all-targets"],
        );
        for test in &recipe.tests {
            let mut args = vec!["test", "--locked", "--offline"];
            args.extend(test.split_whitespace());
            let out = cargo(&copy, &target, &args);
            let ran = out.lines().any(|line| {
                line.strip_prefix("test result: ok. ")
                    .and_then(|rest| rest.split_once(" passed"))
                    .is_some_and(|(n, _)| n != "0")
            });
            assert!(ran, "{}: `{test}` ran no test", recipe.title);
        }
        eprintln!(
            "--- {}: done in {:.0} s",
            recipe.title,
            started.elapsed().as_secs_f64()
        );
    }
}

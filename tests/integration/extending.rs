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

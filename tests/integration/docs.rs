//! The shell examples of README.md and docs/*.md that are marked as checked
//! run here as written, as the cookbook tests run the recipes: in a fresh
//! home, from a folder that looks like a checkout (`fixtures/`, `docs/`,
//! `completions/`), with the built hookrun first on PATH.
//!
//! A checked example is a fenced block right after an HTML comment (not
//! shown on a rendered page):
//!
//! - `<!-- checked: exit N -->` before a ```` ```sh ```` block: the block runs
//!   as one `sh -e` script and must exit N; `; prints "TEXT"` adds that its
//!   output (stdout and stderr) holds TEXT.
//! - the same before a block whose lines start with `$ `: each such line
//!   runs, and the lines after it are what it prints on stdout, exactly (the
//!   checkout shown as `/home/me/hookrun`, the home as `/home/me`).
//!
//! Every relative link between the pages, with its `#anchor`, is checked
//! too.

use std::path::{Path, PathBuf};

use crate::support::{Run, Sandbox, repo, run_command};

/// One checked example.
struct Example {
    page: String,
    line: usize,
    exit: i32,
    prints: Option<String>,
    block: Vec<String>,
}

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repo().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn parse_marker(text: &str) -> Option<(i32, Option<String>)> {
    let inner = text
        .trim()
        .strip_prefix("<!-- checked:")?
        .strip_suffix("-->")?;
    let mut exit = None;
    let mut prints = None;
    for part in inner.split(';') {
        let part = part.trim();
        if let Some(code) = part.strip_prefix("exit ") {
            exit = Some(code.trim().parse().expect("checked: exit N"));
        } else if let Some(text) = part.strip_prefix("prints ") {
            prints = Some(text.trim().trim_matches('"').to_owned());
        } else {
            panic!("unknown part of a checked marker: {part:?}");
        }
    }
    Some((
        exit.expect("a checked marker names the exit status"),
        prints,
    ))
}

fn examples() -> Vec<Example> {
    let mut out = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let name = page.strip_prefix(repo()).unwrap().display().to_string();
        let mut i = 0;
        while i < lines.len() {
            let Some((exit, prints)) = parse_marker(lines[i]) else {
                i += 1;
                continue;
            };
            let fence = lines.get(i + 1).copied().unwrap_or_default();
            assert!(
                fence.starts_with("```"),
                "{name}:{}: a checked marker must be followed by a fenced block",
                i + 1
            );
            let mut block = Vec::new();
            let mut j = i + 2;
            while j < lines.len() && !lines[j].starts_with("```") {
                block.push(lines[j].to_owned());
                j += 1;
            }
            out.push(Example {
                page: name.clone(),
                line: i + 1,
                exit,
                prints,
                block,
            });
            i = j + 1;
        }
    }
    out
}

/// A fresh home and a folder that looks like a checkout.
struct Place {
    sb: Sandbox,
    work: PathBuf,
}

impl Place {
    fn new() -> Place {
        let sb = Sandbox::new();
        let work = sb.path("hookrun");
        std::fs::create_dir_all(&work).unwrap();
        for dir in ["fixtures", "docs", "completions"] {
            std::os::unix::fs::symlink(repo().join(dir), work.join(dir)).unwrap();
        }
        Place { sb, work }
    }

    fn sh(&self, script: &str) -> Run {
        let bin = Path::new(crate::support::BIN).parent().unwrap();
        let mut path = std::ffi::OsString::from(bin);
        path.push(":");
        path.push(crate::support::clean_path(std::env::var_os("PATH")));
        let mut cmd = std::process::Command::new("sh");
        cmd.args(["-e", "-c", script]).env_clear();
        // The sandbox's environment: HOME, config and state folders,
        // managed settings pointing nowhere.
        for (key, value) in self.sb.command().get_envs() {
            if let Some(value) = value {
                cmd.env(key, value);
            }
        }
        cmd.env("PATH", path).current_dir(&self.work);
        run_command(&mut cmd, b"")
    }

    /// Output as the page shows it.
    fn shown(&self, text: &str) -> String {
        text.replace(self.work.to_str().unwrap(), "/home/me/hookrun")
            .replace(
                self.sb.path("managed-settings.json").to_str().unwrap(),
                "/etc/hookrun/managed-settings.json",
            )
            .replace(self.sb.home.to_str().unwrap(), "/home/me")
    }
}

fn check(example: &Example) {
    let at = format!("{}:{}", example.page, example.line);
    let place = Place::new();
    let console = example.block.iter().any(|l| l.starts_with("$ "));
    if !console {
        let run = place.sh(&example.block.join("\n"));
        assert_eq!(run.code, Some(example.exit), "{at}: {run:?}");
        if let Some(text) = &example.prints {
            let all = format!("{}{}", run.stdout, run.stderr);
            assert!(all.contains(text.as_str()), "{at}: no {text:?} in {run:?}");
        }
        return;
    }
    // `$ command` lines, each followed by what it prints.
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in &example.block {
        if let Some(command) = line.strip_prefix("$ ") {
            steps.push((command.to_owned(), Vec::new()));
        } else if let Some((_, printed)) = steps.last_mut() {
            printed.push(line.clone());
        } else {
            panic!("{at}: output before the first `$ ` line");
        }
    }
    let last = steps.len() - 1;
    for (n, (command, printed)) in steps.iter().enumerate() {
        let run = place.sh(command);
        if n == last {
            assert_eq!(run.code, Some(example.exit), "{at}: {command}: {run:?}");
        }
        let mut expected = printed.join("\n");
        expected.push('\n');
        if printed.is_empty() {
            continue;
        }
        assert_eq!(
            place.shown(&run.stdout),
            expected,
            "{at}: `{command}` prints something else than the page shows"
        );
    }
}

#[test]
fn the_checked_examples_of_the_docs_run_as_written() {
    let examples = examples();
    // The marked examples do not vanish without a word.
    assert!(
        examples.len() >= 6,
        "only {} checked examples",
        examples.len()
    );
    for example in &examples {
        check(example);
    }
}

/// GitHub's anchor for a heading.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn links_between_the_pages_and_their_anchors_resolve() {
    let link = regex::Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for cap in link.captures_iter(&text) {
            let target = &cap[1];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(file.exists(), "{}: broken link {target}", page.display());
            if anchor.is_empty() || file.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let body = std::fs::read_to_string(&file).unwrap();
            let mut in_fence = false;
            let anchors: Vec<String> = body
                .lines()
                .filter(|l| {
                    if l.starts_with("```") {
                        in_fence = !in_fence;
                    }
                    !in_fence
                })
                .filter_map(|l| l.strip_prefix('#'))
                .map(|l| slug(l.trim_start_matches('#')))
                .collect();
            assert!(
                anchors.iter().any(|a| a == anchor),
                "{}: link {target}: no heading with that anchor",
                page.display()
            );
        }
    }
}

/// `just --list` shows only the comment line right above a recipe: a
/// description spread over several lines is cut to its last one. Longer
/// notes go above, separated by a lone `#`.
#[test]
fn every_just_recipe_has_a_one_line_description() {
    let text = std::fs::read_to_string(repo().join("justfile")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let recipe = !line.is_empty()
            && !line.starts_with([' ', '\t', '#'])
            && line.contains(':')
            && !line.contains(":=");
        if !recipe || i == 0 {
            continue;
        }
        let above = lines[i - 1];
        assert!(
            above.starts_with("# ") && above.len() > 2,
            "justfile:{}: `{line}` has no description line",
            i + 1
        );
        if i >= 2 {
            let before = lines[i - 2];
            assert!(
                !(before.starts_with("# ") && before.len() > 2),
                "justfile:{}: `{line}`'s description spans lines; `just --list` shows only {above:?}",
                i + 1
            );
        }
    }
}

//! Every code block of README.md, CONTRIBUTING.md, CHANGELOG.md,
//! tools/README.md and docs/*.md (design pages included) either runs here, as the cookbook
//! tests run the recipes, or says why it cannot: in a fresh home that
//! holds Claude Code's own `~/.claude.json` and `~/.claude/settings.json`
//! (which no example may touch), from a folder that looks like a checkout
//! (`fixtures/`, `docs/`, `completions/`), with the built hookrun first on
//! PATH.
//!
//! A block is a fenced block right after an HTML comment (not shown on a
//! rendered page); an indented code block cannot carry one, so none may be
//! written:
//!
//! - `<!-- checked: exit N -->` before a ```` ```sh ```` block: the block runs
//!   as one `sh -e` script and must exit N; `; prints "TEXT"` adds that its
//!   output (stdout and stderr) holds TEXT; `; after the block above as
//!   PATH` writes the previous block to PATH first (`~/` is the home);
//!   `; needs PROGRAM` says `SKIPPED:` where PROGRAM (jq) is not installed;
//!   `; writes ~/.claude/settings.json` marks a set-up step that does, on
//!   purpose (`~/.claude.json` stays untouched by every block).
//! - the same before a block whose lines start with `$ `: each such line
//!   runs, and the lines after it are what it prints on stdout, exactly (the
//!   checkout shown as `/home/me/hookrun`, the home as `/home/me`).
//! - `<!-- checked: settings -->` (or `claude-settings`): the block is a
//!   settings file (a Claude Code one) that loads without a problem.
//! - `<!-- checked: json -->`: the block is JSON.
//! - `<!-- not checked: WHY -->`: the block cannot run here, and why.
//! - `<!-- generated:file PATH -->`: the block is PATH, quoted by `just gen`
//!   (drift-checked) and run by the cookbook's tests.
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
    /// Where the previous block is written first.
    file: Option<(String, Vec<String>)>,
    /// A program the example needs that the suite does not (`jq`).
    needs: Option<String>,
    /// A set-up step that writes Claude Code's settings, on purpose.
    writes_claude_settings: bool,
    block: Vec<String>,
}

/// What the comment before a block says of it.
#[derive(Debug)]
enum Marker {
    Checked {
        exit: i32,
        prints: Option<String>,
        file: Option<String>,
        needs: Option<String>,
        writes_claude_settings: bool,
    },
    Settings {
        claude: bool,
    },
    Json,
    NotChecked,
    Generated,
}

fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "tools/README.md",
    ]
    .iter()
    .map(|page| repo().join(page))
    .collect();
    for dir in ["docs", "docs/design"] {
        let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        docs.sort();
        pages.extend(docs);
    }
    pages
}

fn parse_marker(text: &str, at: &str) -> Option<Marker> {
    let text = text.trim();
    if text.starts_with("<!-- generated:file ") {
        return Some(Marker::Generated);
    }
    // A step of a recipe in docs/design/extending.md: tests/integration/
    // extending.rs applies it and builds the result.
    if text.starts_with("<!-- edit: ") {
        return Some(Marker::NotChecked);
    }
    if let Some(why) = text
        .strip_prefix("<!-- not checked:")
        .and_then(|t| t.strip_suffix("-->"))
    {
        assert!(
            why.split_whitespace().count() >= 3,
            "{at}: say why the block is not checked, in a few words"
        );
        return Some(Marker::NotChecked);
    }
    let inner = text.strip_prefix("<!-- checked:")?.strip_suffix("-->")?;
    match inner.trim() {
        "settings" => return Some(Marker::Settings { claude: false }),
        "claude-settings" => return Some(Marker::Settings { claude: true }),
        "json" => return Some(Marker::Json),
        _ => {}
    }
    let mut exit = None;
    let mut prints = None;
    let mut file = None;
    let mut needs = None;
    let mut writes_claude_settings = false;
    for part in inner.split(';') {
        let part = part.trim();
        if let Some(code) = part.strip_prefix("exit ") {
            exit = Some(code.trim().parse().expect("checked: exit N"));
        } else if let Some(text) = part.strip_prefix("prints ") {
            prints = Some(text.trim().trim_matches('"').to_owned());
        } else if let Some(path) = part.strip_prefix("after the block above as ") {
            file = Some(path.trim().to_owned());
        } else if let Some(program) = part.strip_prefix("needs ") {
            needs = Some(program.trim().to_owned());
        } else if part == "writes ~/.claude/settings.json" {
            writes_claude_settings = true;
        } else {
            panic!("{at}: unknown part of a checked marker: {part:?}");
        }
    }
    Some(Marker::Checked {
        exit: exit.unwrap_or_else(|| panic!("{at}: a checked marker names the exit status")),
        prints,
        file,
        needs,
        writes_claude_settings,
    })
}

/// The code blocks of one page, each with what its marker says.
struct Block {
    line: usize,
    marker: Option<Marker>,
    lines: Vec<String>,
}

fn blocks(name: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("```") {
            i += 1;
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let marker = i
            .checked_sub(1)
            .and_then(|above| parse_marker(lines[above], &at));
        let mut block = Vec::new();
        let mut j = i + 1;
        while j < lines.len() && !lines[j].starts_with("```") {
            block.push(lines[j].to_owned());
            j += 1;
        }
        out.push(Block {
            line: i + 1,
            marker,
            lines: block,
        });
        i = j + 1;
    }
    out
}

/// Indented code blocks: four spaces after a blank line, outside fences and
/// lists. They cannot carry a marker.
fn indented_blocks(text: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut in_fence = false;
    let mut in_list = false;
    let mut previous = "";
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_fence = !in_fence;
        }
        if in_fence {
            previous = line;
            continue;
        }
        let trimmed = line.trim_start();
        let item = trimmed.starts_with("- ")
            || trimmed.starts_with("* ")
            || trimmed
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if item && !line.starts_with("    ") {
            in_list = true;
        } else if !line.is_empty() && !line.starts_with(' ') {
            in_list = false;
        }
        if line.starts_with("    ") && previous.trim().is_empty() && !in_list {
            found.push(n + 1);
        }
        previous = line;
    }
    found
}

/// The examples to run, and how many blocks were checked as settings or
/// JSON.
fn examples() -> (Vec<Example>, usize) {
    let mut out = Vec::new();
    let mut loaded = 0;
    let mut unmarked = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(repo()).unwrap().display().to_string();
        for line in indented_blocks(&text) {
            unmarked.push(format!(
                "{name}:{line}: an indented code block (fence it, with a marker)"
            ));
        }
        let found = blocks(&name, &text);
        for (n, block) in found.iter().enumerate() {
            let at = format!("{name}:{}", block.line);
            match &block.marker {
                None => unmarked.push(format!("{at}: a block without a marker")),
                Some(Marker::Checked {
                    exit,
                    prints,
                    file,
                    needs,
                    writes_claude_settings,
                }) => {
                    let file = file.as_ref().map(|path| {
                        let above = n.checked_sub(1).map_or_else(
                            || panic!("{at}: no block above"),
                            |m| found[m].lines.clone(),
                        );
                        (path.clone(), above)
                    });
                    out.push(Example {
                        page: name.clone(),
                        line: block.line,
                        exit: *exit,
                        prints: prints.clone(),
                        file,
                        needs: needs.clone(),
                        writes_claude_settings: *writes_claude_settings,
                        block: block.lines.clone(),
                    });
                }
                Some(Marker::Settings { claude }) => {
                    check_settings(&at, &block.lines, *claude);
                    loaded += 1;
                }
                Some(Marker::Json) => {
                    loaded += 1;
                    let text = block.lines.join("\n");
                    if let Err(err) = serde_json::from_str::<serde_json::Value>(&text) {
                        panic!("{at}: not JSON ({err})");
                    }
                }
                Some(Marker::NotChecked | Marker::Generated) => {}
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "every block runs or says why it cannot:\n{}",
        unmarked.join("\n")
    );
    (out, loaded)
}

/// A settings block loads without a problem.
fn check_settings(at: &str, lines: &[String], claude: bool) {
    let place = Place::new();
    // Outside the checkout folder (the project): a file of the user's.
    let dir = place.sb.path(if claude {
        "elsewhere/.claude"
    } else {
        "elsewhere"
    });
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("settings.json");
    std::fs::write(&file, lines.join("\n")).unwrap();
    let flag = if claude {
        "--claude-settings"
    } else {
        "--settings"
    };
    let run = place.sh(&format!(
        "hookrun list --no-default-settings --trust-project {flag} '{}' --format json",
        file.display()
    ));
    assert_eq!(run.code, Some(0), "{at}: {run:?}");
    let listed: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        listed["problems"], 0,
        "{at}: the block does not load cleanly: {run:?}"
    );
    place.untouched(at);
}

/// What Claude Code keeps in the home folder: no example may change it.
const CLAUDE_JSON: &str =
    "{\"numStartups\": 12, \"projects\": {\"/home/me/app\": {\"mcpServers\": {}}}}\n";
const CLAUDE_SETTINGS: &str = "{\n  \"model\": \"opus\"\n}\n";

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
            crate::platform::symlink(repo().join(dir), work.join(dir));
        }
        sb.write("home/.claude.json", CLAUDE_JSON);
        sb.write("home/.claude/settings.json", CLAUDE_SETTINGS);
        Place { sb, work }
    }

    /// Claude Code's own files are as they were (its settings file may
    /// change where an example says it sets up Claude Code).
    fn untouched(&self, at: &str) {
        self.untouched_but(at, false);
    }

    fn untouched_but(&self, at: &str, claude_settings: bool) {
        let read = |rel: &str| std::fs::read_to_string(self.sb.home.join(rel)).ok();
        assert_eq!(
            read(".claude.json").as_deref(),
            Some(CLAUDE_JSON),
            "{at}: the example changed ~/.claude.json"
        );
        if claude_settings {
            return;
        }
        assert_eq!(
            read(".claude/settings.json").as_deref(),
            Some(CLAUDE_SETTINGS),
            "{at}: the example changed ~/.claude/settings.json"
        );
    }

    /// Writes `lines` to `path` (`~/` under the home, else in the checkout).
    fn put(&self, path: &str, lines: &[String]) {
        let target = match path.strip_prefix("~/") {
            Some(rest) => self.sb.home.join(rest),
            None => self.work.join(path),
        };
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(target, text).unwrap();
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
        // rustfmt is usually rustup's proxy, which finds its toolchain
        // through these (the place has its own HOME).
        for key in ["RUSTUP_HOME", "RUSTUP_TOOLCHAIN"] {
            if let Some(value) = std::env::var_os(key) {
                cmd.env(key, value);
            }
        }
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
    if let Some(program) = &example.needs {
        let found = std::env::var_os("PATH").is_some_and(|path| {
            std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
        });
        if !found {
            crate::support::skipped(&format!(
                "{at}: the example needs {program}, which is not installed"
            ));
            return;
        }
    }
    let place = Place::new();
    if let Some((path, lines)) = &example.file {
        place.put(path, lines);
    }
    let console = example.block.iter().any(|l| l.starts_with("$ "));
    if !console {
        let run = place.sh(&example.block.join("\n"));
        assert_eq!(run.code, Some(example.exit), "{at}: {run:?}");
        if let Some(text) = &example.prints {
            let all = format!("{}{}", run.stdout, run.stderr);
            assert!(all.contains(text.as_str()), "{at}: no {text:?} in {run:?}");
        }
        place.untouched_but(&at, example.writes_claude_settings);
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
    place.untouched_but(&at, example.writes_claude_settings);
}

#[test]
fn every_block_of_the_docs_runs_as_written_or_says_why_it_cannot() {
    let (examples, loaded) = examples();
    // The examples that run do not vanish without a word.
    assert!(
        examples.len() >= 15 && loaded >= 15,
        "only {} checked examples and {loaded} checked settings and JSON blocks",
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

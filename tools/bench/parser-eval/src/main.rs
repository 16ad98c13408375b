//! hookrun's shell reader (`split_command`) against brush-parser and
//! tree-sitter-bash: how many inputs each reads without error, whether its
//! reading shows the program bash runs on the constructs that were ways past
//! a deny rule, the parse cost per ordinary command, and the size each adds
//! to a release binary. `just parser-eval`; results in
//! docs/design/shell-rules.md.

mod generator;

use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// The ordinary-command corpus of tests/integration/shell_rules.rs.
const ORDINARY: &[&str] = &[
    "ls -la",
    "ls",
    "cargo test 2>&1 | tail",
    "cargo test --locked 2>&1 | tail -n 50",
    "cd x && make",
    "cd app && npm test",
    "git status",
    "git status --short",
    "git diff HEAD~1 -- src/main.rs",
    "git log --oneline -5",
    "git commit -m 'fix: the (x) case'",
    "git commit -am \"it's done\"",
    "git add -A && git commit -m wip",
    "grep -rn 'fn main' src | head",
    "rg TODO --type rust",
    "find . -name '*.rs' | wc -l",
    "cat Cargo.toml",
    "ls *.md",
    "mkdir -p build && cd build",
    "LANG=C sort file.txt",
    "RUST_BACKTRACE=1 cargo test",
    "timeout 60 cargo test",
    "echo done > /dev/null",
    "python3 -m pytest -q",
    "npm run build 2>&1 | tee build.log",
    "git commit -m \"$(cat msg)\"",
    "echo $HOME",
    "(cd x && make)",
    "cat <<'EOF'\nhello\nEOF",
    "echo x > out.txt",
];

/// The grammar examples of tests/integration/shell_rules.rs (functions,
/// `time`/`coproc`, CR, `$[…]`, here-documents) plus two here-document
/// delimiters with a CR: each was a way past `Bash(rm *)`. Whether bash and
/// dash start `rm` is found by running them.
const CONSTRUCTS: &[&str] = &[
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
    "time (rm -rf x)",
    "time -p (rm -rf x)",
    "time { rm -rf x; }",
    "coproc (rm -rf x)",
    "coproc { rm -rf x; }",
    "coproc NAME { rm -rf x; }",
    "coproc rm -rf x",
    "! (rm x)",
    "ls\r#;rm -rf x",
    "ls\r;rm -rf x",
    "echo $[1<<2]\nrm x",
    "cat <<EOF\r\nx\nEOF\r\nrm x\nEOF\n",
    "cat <<EOF\nx\nEOF\r\nrm x\nEOF\n",
    "echo $(cat <<EOF)\nrm x\nEOF\n",
    "echo \"$(cat <<EOF)\"\nrm x\nEOF\n",
    "x=$(cat <<EOF\nhi\nEOF\n); rm x",
    "echo ${ rm x; }",
    "x=${\nrm x\n}",
    // Not ways past a rule, but where the readers differ in shape: brush
    // keeps a substitution as the text of a word.
    "echo $(rm x)",
    "echo `rm x`",
];

/// Generated commands of the differential (its default seed).
const GENERATED: usize = 400;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reading {
    /// Parsed, and `rm` is a command in the reading.
    Sees,
    /// Parsed, but `rm` only inside a word's text: a second parse of that
    /// word would be needed (brush leaves substitutions as text).
    InWord,
    /// Not parsed (an error, ERROR/MISSING nodes, "cannot judge"): a guard
    /// denies.
    Refuses,
    /// Parsed cleanly with no `rm` command.
    NoRm,
}

trait Reader {
    fn name(&self) -> &'static str;
    /// Whether `command` reads without error.
    fn parses(&mut self, command: &str) -> bool;
    fn reading(&mut self, command: &str) -> Reading;
    /// One parse, for the timing loop.
    fn parse_once(&mut self, command: &str);
}

struct Hand;

fn hand_sees(command: &str, depth: usize) -> Reading {
    let Ok(split) = hookrun::select::shell::split_command(command) else {
        return Reading::Refuses;
    };
    let mut saw = false;
    for part in &split.parts {
        if part.unjudgeable.is_some() {
            return Reading::Refuses;
        }
        if part
            .seen_through
            .iter()
            .any(|view| view.split(' ').next() == Some("rm"))
        {
            saw = true;
        }
        if depth < 8 {
            for inner in &part.runs {
                match hand_sees(inner, depth + 1) {
                    Reading::Refuses => return Reading::Refuses,
                    Reading::Sees => saw = true,
                    _ => {}
                }
            }
        }
    }
    if saw { Reading::Sees } else { Reading::NoRm }
}

impl Reader for Hand {
    fn name(&self) -> &'static str {
        "hookrun reader"
    }
    fn parses(&mut self, command: &str) -> bool {
        hookrun::select::shell::split_command(command).is_ok()
    }
    fn reading(&mut self, command: &str) -> Reading {
        hand_sees(command, 0)
    }
    fn parse_once(&mut self, command: &str) {
        let _ = black_box(hookrun::select::shell::split_command(black_box(command)));
    }
}

struct Brush(brush_parser::ParserOptions);

impl Brush {
    fn parse(&self, command: &str) -> Result<brush_parser::ast::Program, brush_parser::ParseError> {
        brush_parser::Parser::new(command.as_bytes(), &self.0).parse_program()
    }
}

impl Reader for Brush {
    fn name(&self) -> &'static str {
        "brush-parser 0.4.0"
    }
    fn parses(&mut self, command: &str) -> bool {
        self.parse(command).is_ok()
    }
    fn reading(&mut self, command: &str) -> Reading {
        let Ok(program) = self.parse(command) else {
            return Reading::Refuses;
        };
        let tree = format!("{program:?}");
        if tree.contains("word_or_name: Some(Word { value: \"rm\"") {
            Reading::Sees
        } else if tree.contains("rm ") || tree.contains("rm\\n") {
            Reading::InWord
        } else {
            Reading::NoRm
        }
    }
    fn parse_once(&mut self, command: &str) {
        let _ = black_box(self.parse(black_box(command)));
    }
}

struct TreeSitter(tree_sitter::Parser);

impl TreeSitter {
    fn new() -> Self {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .expect("the grammar's ABI matches the runtime");
        TreeSitter(parser)
    }
}

impl Reader for TreeSitter {
    fn name(&self) -> &'static str {
        "tree-sitter 0.27.1 + tree-sitter-bash 0.25.1"
    }
    fn parses(&mut self, command: &str) -> bool {
        self.0
            .parse(command, None)
            .is_some_and(|tree| !tree.root_node().has_error())
    }
    fn reading(&mut self, command: &str) -> Reading {
        let Some(tree) = self.0.parse(command, None) else {
            return Reading::Refuses;
        };
        if tree.root_node().has_error() {
            return Reading::Refuses;
        }
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            if node.kind() == "command"
                && node
                    .child_by_field_name("name")
                    .is_some_and(|name| name.utf8_text(command.as_bytes()) == Ok("rm"))
            {
                return Reading::Sees;
            }
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
        Reading::NoRm
    }
    fn parse_once(&mut self, command: &str) {
        black_box(self.0.parse(black_box(command), None));
    }
}

/// Runs `command` under `shell` with a logging `rm` first on PATH: whether
/// the shell started it.
fn shell_runs_rm(shell: &str, command: &str, scratch: &Path) -> bool {
    let log = scratch.join("log");
    let _ = std::fs::remove_file(&log);
    let path = format!("{}:/usr/bin:/bin", scratch.join("bin").display());
    let _ = Command::new("timeout")
        // `wait`: a coproc's `rm` may start after the shell's last command.
        .args(["5", shell, "-c", &format!("{command}\nwait")])
        .env_clear()
        .env("PATH", path)
        .env("LOG", &log)
        .current_dir(scratch)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    log.exists()
}

fn symbol(reading: Reading) -> &'static str {
    match reading {
        Reading::Sees => "sees rm",
        Reading::InWord => "rm in a word only",
        Reading::Refuses => "refuses",
        Reading::NoRm => "no rm",
    }
}

fn main() {
    let mut readers: Vec<Box<dyn Reader>> = vec![
        Box::new(Hand),
        Box::new(Brush(brush_parser::ParserOptions::default())),
        Box::new(TreeSitter::new()),
    ];
    let mut rng = generator::Rng(0x5eed_2026 | 1);
    let generated: Vec<String> = (0..GENERATED)
        .map(|_| {
            let depth = rng.below(4);
            generator::compose(&mut rng, depth)
        })
        .collect();

    println!("## Inputs read without error\n");
    println!(
        "| reader | ordinary ({}) | constructs ({}) | generated ({GENERATED}) |",
        ORDINARY.len(),
        CONSTRUCTS.len()
    );
    println!("|---|---|---|---|");
    for reader in &mut readers {
        let count =
            |r: &mut Box<dyn Reader>, set: &[&str]| set.iter().filter(|c| r.parses(c)).count();
        let ordinary = count(reader, ORDINARY);
        let constructs = count(reader, CONSTRUCTS);
        let gen_refs: Vec<&str> = generated.iter().map(String::as_str).collect();
        let generated_ok = count(reader, &gen_refs);
        println!(
            "| {} | {ordinary} | {constructs} | {generated_ok} |",
            reader.name()
        );
    }

    let scratch = std::env::temp_dir().join(format!("parser-eval-{}", std::process::id()));
    std::fs::create_dir_all(scratch.join("bin")).expect("scratch directory");
    let stub = scratch.join("bin/rm");
    std::fs::write(&stub, "#!/bin/sh\necho ran >> \"$LOG\"\n").expect("stub");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }

    println!("\n## Constructs: does the reading show the `rm` the shells start?\n");
    print!("| command | bash runs rm | dash runs rm |");
    for reader in &readers {
        print!(" {} |", reader.name());
    }
    println!();
    println!("|---|---|---|{}", "---|".repeat(readers.len()));
    let mut tally = vec![[0usize; 3]; readers.len()];
    for command in CONSTRUCTS {
        let bash = shell_runs_rm("/usr/bin/bash", command, &scratch);
        let dash = shell_runs_rm("/usr/bin/dash", command, &scratch);
        print!("| `` {} `` | {} | {} |", command.escape_debug(), bash, dash);
        for (i, reader) in readers.iter_mut().enumerate() {
            let reading = reader.reading(command);
            // exact: shows rm exactly when bash runs it; safe: a guard
            // denies whenever bash or dash runs rm; bypass: neither.
            let sees = reading == Reading::Sees;
            if sees == bash && reading != Reading::Refuses {
                tally[i][0] += 1;
            }
            if (bash || dash) && !matches!(reading, Reading::Sees | Reading::Refuses) {
                tally[i][2] += 1;
            } else if reading == Reading::Refuses {
                tally[i][1] += 1;
            }
            print!(" {} |", symbol(reading));
        }
        println!();
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!("\n| reader | shows what bash runs | refuses | misses an rm bash or dash runs |");
    println!("|---|---|---|---|");
    for (reader, [exact, refuses, misses]) in readers.iter().zip(&tally) {
        println!("| {} | {exact} | {refuses} | {misses} |", reader.name());
    }

    println!("\n## Parse cost per ordinary command (release build)\n");
    let rounds = 2000;
    println!("| reader | ns per command |");
    println!("|---|---|");
    for reader in &mut readers {
        for command in ORDINARY {
            reader.parse_once(command);
        }
        // The fastest of five runs: the machine is shared.
        let per = (0..5)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..rounds {
                    for command in ORDINARY {
                        reader.parse_once(command);
                    }
                }
                start.elapsed().as_nanos() / (rounds * ORDINARY.len()) as u128
            })
            .min()
            .expect("five runs");
        println!("| {} | {per} |", reader.name());
    }
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(TreeSitter::new());
    }
    println!(
        "\ntree-sitter parser set-up (once per process): {} ns",
        start.elapsed().as_nanos() / rounds as u128
    );

    println!("\n## Binary size (release, lto = fat, codegen-units = 1)\n");
    let dir = std::env::current_exe().expect("own path");
    let dir = dir.parent().expect("target dir");
    let size = |name: &str| std::fs::metadata(dir.join(name)).map(|m| m.len()).ok();
    let Some(base) = size("size-baseline") else {
        println!("SKIPPED: build the size-* binaries first (`cargo build --release --bins`)");
        return;
    };
    println!("| binary | bytes | added to the baseline |");
    println!("|---|---|---|");
    println!("| baseline (reads argv, prints) | {base} | 0 |");
    for (name, label) in [
        ("size-hand", "hookrun reader"),
        ("size-brush", "brush-parser"),
        ("size-tree-sitter", "tree-sitter-bash"),
    ] {
        if let Some(bytes) = size(name) {
            println!("| {label} | {bytes} | {} |", bytes.saturating_sub(base));
        }
    }
}

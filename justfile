# hookrun's tasks. `just` lists them.

# List the recipes.
default:
    @just --list

# Build an optimised binary (target/release/hookrun).
build:
    cargo build --release --locked

# The test suite, as CI runs it.
test:
    cargo test --locked

# The test that checks the generated files writes them instead: completions/,
# docs/man/, docs/settings.schema.json, the tables of docs/protocol.md and the
# files docs/cookbook.md quotes.
#
# Regenerate completions, man pages, the schema, doc tables and cookbook quotes.
gen:
    HOOKRUN_UPDATE_GENERATED=1 cargo test --locked --test integration -- --exact generated::generated_files_are_up_to_date --nocapture

# Not part of `cargo test`: needs python3 with pip and node with npm (maturin,
# pipx and uv come from PyPI when missing). Installs into
# target/package-smoke only; nothing is published. docs/release.md.
#
# Build the wheel, the npm tarballs and the release archive; install each (pip, pipx, uv tool, uvx, npm -g, npm -D, npx, tar) and fire through it.
package-smoke:
    packaging/smoke.sh

# The other targets are built on runners of their own (docs/release.md).
#
# The release archive of TARGET (default: this machine's) and its SHA-256, in target/dist.
dist TARGET="":
    packaging/dist.sh {{TARGET}}

# Formatting and lints (clippy with warnings as errors).
lint:
    cargo fmt --all -- --check
    cargo clippy --all-targets --locked -- -D warnings

# What .ci/run runs.
ci:
    .ci/run

# Fire the bundled example: a PreToolUse `git push origin main` against the flat settings.
example:
    cargo run --quiet --release -- fire pre_tool_use --trust-project --settings fixtures/settings/flat.json < fixtures/events/pre_tool_use__git_push.json; echo "exit $?"

# Not part of `cargo test`: the shared oracle harness installs Claude Code
# from npm into /tmp/oracle-cc on first use and runs it against a fake model
# on loopback in a network namespace. Table in target/oracle/table.md.
#
# Run oracle cases twice, hooks native vs behind `hookrun fire` (optional: case names).
oracle *CASES: build
    python3 tools/oracle/compare.py {{CASES}}

# Prompt-hook cases of the same harness (probes/prompt), native vs behind
# `hookrun fire`; hookrun sends the prompt hooks' requests to the harness's
# fake model itself. Table in target/oracle-prompt/table.md.
#
# Run prompt-hook oracle cases twice, native vs behind `hookrun fire` (optional: case names).
oracle-prompt *CASES: build
    python3 tools/oracle/compare_prompt.py {{CASES}}

# Not part of `cargo test`: the shared host harness installs Gemini CLI, Codex,
# Copilot CLI, Cline and Qwen Code from npm on first use, the oracle harness
# Claude Code, this repository's tools/hosts/droid/ Factory Droid, and each runs
# against a fake model on loopback in a network namespace, one case at a
# time. Tables in target/hosts/HOST.md and target/hosts/table.md
# (results: docs/hosts.md). A host's release: ORACLE_CODEX_VERSION=0.171.0
# and the like. Builds the release binary unless --hookrun names one, e.g.
# `just hosts --host copilot --hookrun target/debug/hookrun`.
#
# Host cases native vs behind hookrun, per host (args: case names, --host HOST, --hookrun BIN, --wiring fire|install|both).
hosts *ARGS:
    #!/usr/bin/env sh
    set -e
    case " {{ARGS}} " in *" --hookrun"*) ;; *) cargo build --release --locked ;; esac
    exec python3 tools/hosts/compare.py {{ARGS}}

# Not part of `cargo test`: installs each host CLI at its newest npm release
# into target/host-drift/ and reads its hook schema out of the release (see
# tools/hosts/drift.py); tools/hosts/hookrun-knows.json (`just gen`) is what hookrun
# knows. Exit 1 when something is unknown.
#
# Print every event, hook field, answer field or tool name of the hosts' newest releases that hookrun does not know (args: host names, --version HOST=V).
host-drift *ARGS:
    python3 tools/hosts/drift.py {{ARGS}}

# Needs valgrind. Rebuild afterwards (`just build`) to link in the new order.
#
# Regenerate .cargo/startup-order.txt, the functions a fire runs, which the release link places together.
startup-order: build
    python3 tools/bench/startup_order.py

# Needs jq and GNU time; the numbers of record are in docs/performance.md.
#
# Every performance goal side by side with its yardstick, the ratios, scaling to 10,000 hooks (args: tools/bench/run.py's).
bench *ARGS: build
    python3 tools/bench/run.py {{ARGS}}

# `hookrun replay` at scale: thousands of generated sessions, dry and --against (args: tools/bench/replay.py's).
bench-replay *ARGS: build
    python3 tools/bench/replay.py {{ARGS}}

# Not part of `cargo test`: runs the real Claude Code through the oracle
# harness (see `oracle`), 20 trivial hooks natively vs behind hookrun.
#
# Claude Code's own hook runner vs Claude Code -> hookrun, per event (args: tools/bench/claude.py's).
bench-claude *ARGS: build
    python3 tools/bench/claude.py {{ARGS}}

# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`); fuzz/ is
# its own workspace, outside `cargo test`. Targets: settings, event, matcher,
# rule, hook_output, host. The seed corpus comes from fixtures/ (fuzz/seed.sh).
#
# Fuzz one target for SECONDS (default 600), one job; crashes land in fuzz/artifacts/TARGET/.
fuzz TARGET SECONDS="600":
    fuzz/seed.sh
    ulimit -s 1048576 && cargo +nightly fuzz run {{TARGET}} fuzz/corpus/{{TARGET}} -- -max_total_time={{SECONDS}} -max_len=65536 -timeout=10 -print_final_stats=1

# Runs thousands of generated commands under bash and dash (default 5000;
# HOOKRUN_SHELL_SEED picks the sequence) and checks the deny side saw every
# program they started.
#
# The deny side of Bash rules against the real shells, at length (args: case count).
shell-differential CASES="5000":
    HOOKRUN_SHELL_CASES={{CASES}} cargo test --locked --test integration shell_differential -- --nocapture

# Not part of `cargo test` (which checks only that each recipe still
# applies): copies the crate to target/extending-check/crate once per
# recipe, applies the recipe's edits from docs/design/extending.md, builds
# every target into target/extending-check/target (the dependencies are
# built once and kept) and runs the recipe's tests. HOOKRUN_RECIPE=host
# (a word of a recipe's title) performs one.
#
# Perform each recipe of docs/design/extending.md on a copy of the crate: build every target, run its tests.
extending-check:
    cargo test --locked --test integration -- --ignored --exact extending::every_recipe_builds_and_its_test_passes_on_a_copy_of_the_crate --nocapture

# Not part of `cargo test`: tools/bench/parser-eval/ is a workspace of its own that
# builds brush-parser and tree-sitter-bash (a C compiler for the latter) next
# to hookrun's reader; the numbers of record are in docs/design/shell-rules.md.
#
# hookrun's shell reader against brush-parser and tree-sitter-bash: inputs read, constructs seen, ns per command, bytes added.
parser-eval:
    cd tools/bench/parser-eval && cargo build --release --locked --bins
    tools/bench/parser-eval/target/release/parser-eval

#!/usr/bin/env bash
# hookrun's unit tests built for arm64 Linux (aarch64-unknown-linux-gnu) and
# run on this x86_64 machine under qemu-user. Installs what it needs itself:
# packaging/cross-env.sh's toolchain (Debian's rustc-web with the standard
# library's sources, gcc-aarch64-linux-gnu as C compiler and linker) and
# Debian's qemu-user-static.
#
# Some tests cannot run under emulation, and some hold a time bound that
# emulation on a loaded machine misses (qemu-user runs the test binary some
# 25 times slower): both are skipped by name, each with its reason printed
# (`SKIPPED:`), and run natively in `cargo test`. Everything else must pass.
# The integration tests need the arm64 build of the binary and real hosts
# around it: they run on an arm64 runner (.github/workflows/ci.yml).
#
# Usage: packaging/arm64-test.sh [TEST-ARGS...]   (passed on to the test binary)
set -euo pipefail
cd "$(dirname "$0")/.."
target=aarch64-unknown-linux-gnu
. packaging/cross-env.sh
cross_setup "$target"
cross_apt qemu-user-static
sysroot=/usr/aarch64-linux-gnu

# name<TAB>why it cannot run under qemu-user
skips=$(cat <<'SKIPS'
cli::fast::tests::it_agrees_with_clap_under_the_variables	it runs the test binary again as a child process, which the machine cannot start without qemu registered with binfmt_misc (not done here: it would change the machine for every program)
exec::portable_tests::a_grandchild_holding_the_output_neither_holds_the_answer_nor_is_killed	it starts the test binary itself as the hook, which the machine cannot start without qemu registered with binfmt_misc (not done here: it would change the machine for every program)
exec::portable_tests::a_missing_program_fails_alone	it starts the test binary itself as the hook, which the machine cannot start without qemu registered with binfmt_misc (not done here: it would change the machine for every program)
exec::portable_tests::a_timed_out_hook_is_ended_with_its_grandchildren	it starts the test binary itself as the hook, which the machine cannot start without qemu registered with binfmt_misc (not done here: it would change the machine for every program)
exec::portable_tests::output_and_the_exit_code_are_read	it starts the test binary itself as the hook, which the machine cannot start without qemu registered with binfmt_misc (not done here: it would change the machine for every program)
exec::portable_tests::stdin_reaches_the_hook_whole	it starts the test binary itself as the hook, which the machine cannot start without qemu registered with binfmt_misc (not done here: it would change the machine for every program)
exec::portable_tests::the_deadline_ends_a_hook_before_its_timeout	it starts the test binary itself as the hook, which the machine cannot start without qemu registered with binfmt_misc (not done here: it would change the machine for every program)
exec::tests::a_spawn_failure_is_that_jobs_alone	one of its jobs is a script without #!, which the kernel refuses with ENOEXEC; qemu-user's emulated execve reports another error
select::matcher::bounded::huge_alternations_are_bounded_with_a_clear_error	time-bounded (compiling 100,000 alternatives and 5,000 nested groups within 30 s), which emulation on a loaded machine misses
select::matcher::bounded::a_worker_that_answered_is_joined	time-bounded (a look-behind match within the backtracking engine's 100 ms budget), which emulation on a loaded machine misses
SKIPS
)

echo "--- build the unit tests for $target (std from source)"
start=$(date +%s)
cross_cargo "$target" test --locked --lib --no-run 2>&1 | tee target/cross/arm64-build.log
binary=$(sed -n 's/.*Executable unittests src\/lib.rs (\(.*\))$/\1/p' target/cross/arm64-build.log | tail -n 1)
[ -n "$binary" ] || { echo "arm64-test: no test binary in the build's output" >&2; exit 1; }
case $binary in /*) ;; *) binary="$PWD/$binary" ;; esac
file -b "$binary" | grep -q 'ARM aarch64' || { echo "arm64-test: $binary is not an arm64 executable" >&2; exit 1; }
built=$(date +%s)

# A skip names a test that exists: a renamed test fails here instead of
# running unskipped (or a stale line hiding nothing).
listed=$(QEMU_LD_PREFIX=$sysroot qemu-aarch64-static -L "$sysroot" "$binary" --list --format terse)
skip_args=(--exact)
while IFS=$'\t' read -r name why; do
    [ -n "$name" ] || continue
    grep -qxF "$name: test" <<<"$listed" || { echo "arm64-test: the skipped test $name does not exist" >&2; exit 1; }
    echo "SKIPPED: $name: $why"
    skip_args+=(--skip "$name")
done <<<"$skips"

# Emulated, the test binary runs some 25 times slower than natively, and
# the property tests are most of its time: they try 32 cases each here
# (their full count runs natively, in `cargo test`). Two threads: with
# four, a test's own time bound (generous natively) was missed under
# emulation on a loaded machine.
cases=${PROPTEST_CASES:-32}
echo "--- run them under qemu-aarch64-static (property tests: $cases cases each)"
# The tests start hooks with /bin/sh, ps, sleep…: the machine's own x86_64
# programs, run natively; only the test binary is emulated.
PROPTEST_CASES=$cases QEMU_LD_PREFIX=$sysroot qemu-aarch64-static -L "$sysroot" "$binary" \
    --test-threads 2 "${skip_args[@]}" "$@"
echo "arm64-test: built in $((built - start)) s, ran in $(( $(date +%s) - built )) s"

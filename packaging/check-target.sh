#!/usr/bin/env bash
# Type-checks hookrun for another system from this (Debian, x86_64) machine:
# the library, the binary, every test and benchmark target
# (`check --all-targets --locked`), with the standard library built from
# source for TARGET; then clippy's lints on them (`-D warnings`). Installs
# what it needs itself (packaging/cross-env.sh: Debian's rustc-web,
# cargo-web, rust-web-src and rust-web-clippy; ziglang and cargo-zigbuild
# from PyPI into target/cross-venv for macOS; MinGW-w64 for Windows).
# For x86_64-pc-windows-gnu it then links the `hookrun` executable too
# (MinGW-w64's linker): the Windows build is checked as far as this machine
# can take it before packaging/wine-test.sh runs it.
#
# Usage: packaging/check-target.sh TARGET
#   TARGET: aarch64-apple-darwin, x86_64-apple-darwin, aarch64-unknown-linux-gnu
#           or x86_64-pc-windows-gnu
# Warnings fail the check, as clippy's do in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: packaging/check-target.sh TARGET}
. packaging/cross-env.sh
cross_setup "$target"
echo "--- check --all-targets --target $target (std from source)"
start=$(date +%s)
log="target/cross/check-$target.log"
mkdir -p target/cross
cross_cargo "$target" check --locked --all-targets 2>&1 | tee "$log"
# A warning in hookrun's own code fails the check (dependencies' are capped
# by cargo). Not RUSTFLAGS=-Dwarnings: it would replace the rustflags of
# .cargo/config.toml, and the check would no longer see what the build does.
if grep -q '^warning: `hookrun`' "$log"; then
    echo "check-target: $target: hookrun has warnings (above)" >&2
    exit 1
fi
# Clippy's lints on the code only this target compiles (src/platform/'s
# backend), as CI's clippy job holds the host's: only hookrun's own crate is
# linted again, the dependencies' checks are the ones above.
cross_apt rust-web-clippy
echo "--- clippy --all-targets --target $target"
# missing_const_for_thread_local: Debian's clippy 1.96 reports the
# thread_local! statics of src/stack.rs and src/select/rule.rs when built
# for Windows, though their initializers are `const` already or cannot be
# (a HashMap); the host's clippy, which CI runs, holds the rest.
cross_cargo "$target" clippy --locked --all-targets -- -D warnings -A clippy::missing_const_for_thread_local
if [ "$target" = x86_64-pc-windows-gnu ]; then
    echo "--- link hookrun.exe for $target"
    cross_cargo "$target" build --locked --bin hookrun
    exe="target/cross/$target/debug/hookrun.exe"
    file -b "$exe" | grep -q 'PE32+ executable.*x86-64' ||
        { echo "check-target: $exe is not a Windows x86-64 executable" >&2; exit 1; }
    echo "check-target: linked $exe"
fi
echo "check-target: $target type-checks ($(( $(date +%s) - start )) s)"

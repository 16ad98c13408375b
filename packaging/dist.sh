#!/bin/sh
# The release archive of one target, in the layout `cargo binstall` reads
# (Cargo.toml's [package.metadata.binstall]) and the installers unpack:
#
#   OUT/hookrun-vVERSION-TARGET.tar.gz         hookrun-vVERSION-TARGET/hookrun
#                                              …/README.md, LICENSE-*, completions/, man/,
#                                              settings.schema.json
#   OUT/hookrun-vVERSION-TARGET.tar.gz.sha256  `sha256sum` line
#
# Usage: packaging/dist.sh [TARGET [OUT]]   (default: this machine's target, target/dist)
# The binary is the release build with the link settings of .cargo/config.toml
# (as `cargo install --path .`); for this machine's target it is the same
# file the wheel holds (target/release/hookrun). macOS targets are built
# here too, with zig as linker and the standard library built from source
# (packaging/cross-env.sh installs both; on a Mac, or with HOOKRUN_NATIVE=1,
# with the machine's own toolchain); the release runner signs them.
# Other targets need a runner of their own: docs/release.md.
set -eu
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
target=${1:-$host}
out=${2:-target/dist}
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
name="hookrun-v$version-$target"

if [ "$target" = "$host" ]; then
    cargo build --release --locked
    bin=target/release/hookrun
else
    case $target in
    *-apple-darwin)
        if [ "$(uname -s)" = Darwin ] || [ "${HOOKRUN_NATIVE:-}" = 1 ]; then
            cargo build --release --locked --target "$target"
            bin="target/$target/release/hookrun"
        else
            # Sourced in bash: cross-env.sh uses bash arrays. No strip
            # (symbols are kept in every channel, docs/release.md): for a
            # macOS target rustc strips with rust-objcopy, which rustup's
            # toolchains carry and Debian's rustc-web does not, so cargo's
            # default of stripping debug information fails the link.
            CARGO_PROFILE_RELEASE_STRIP=false \
                bash -c '. packaging/cross-env.sh && cross_setup "$1" && cross_cargo "$1" build --release --locked' sh "$target"
            bin="target/cross/$target/release/hookrun"
        fi
        ;;
    *)
        cargo build --release --locked --target "$target"
        bin="target/$target/release/hookrun"
        ;;
    esac
fi

mkdir -p "$out"
stage="$out/$name"
rm -rf "$stage" "$out/$name.tar.gz" "$out/$name.tar.gz.sha256"
mkdir -p "$stage/man"
cp "$bin" "$stage/hookrun"
cp README.md LICENSE-MIT LICENSE-APACHE "$stage/"
cp -R completions "$stage/completions"
cp docs/man/*.1 "$stage/man/"
cp docs/settings.schema.json "$stage/"
# Reproducible: fixed owner, order and times (the commit's, when in git).
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)
tar -C "$out" --owner=0 --group=0 --numeric-owner --sort=name --mtime="@$epoch" \
    -cf - "$name" | gzip -n -9 >"$out/$name.tar.gz"
rm -rf "$stage"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$out/$name.tar.gz"

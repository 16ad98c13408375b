#!/bin/sh
# The release archive of one target, in the layout `cargo binstall` reads
# (Cargo.toml's [package.metadata.binstall]) and the installers unpack:
#
#   OUT/hookrun-vVERSION-TARGET.tar.gz         hookrun-vVERSION-TARGET/hookrun
#                                              …/README.md, LICENSE-*, completions/, man/,
#                                              settings.schema.json
#   OUT/hookrun-vVERSION-TARGET.tar.gz.sha256  `sha256sum` line
#
# For a Windows target the archive is a zip (what Windows opens by itself)
# holding hookrun.exe beside the same files:
#
#   OUT/hookrun-vVERSION-TARGET.zip            hookrun-vVERSION-TARGET/hookrun.exe, …
#   OUT/hookrun-vVERSION-TARGET.zip.sha256
#
# Usage: packaging/dist.sh [TARGET [OUT]]   (default: this machine's target, target/dist)
# The binary is the release build with the link settings of .cargo/config.toml
# (as `cargo install --path .`); for this machine's target it is the same
# file the wheel holds (target/release/hookrun). macOS targets are built
# here too, with zig as linker and the standard library built from source
# (packaging/cross-env.sh installs both; on a Mac, or with HOOKRUN_NATIVE=1,
# with the machine's own toolchain); the release runner signs them.
# x86_64-pc-windows-gnu is built here as well, linked by MinGW-w64
# (packaging/cross-env.sh); the release's Windows binary is the msvc one,
# built by this script on a Windows runner (Git Bash), where TARGET is the
# host's. Other targets need a runner of their own: docs/release.md.
set -eu
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
target=${1:-$host}
out=${2:-target/dist}
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
name="hookrun-v$version-$target"
case $target in
*-windows-*) exe=hookrun.exe archive="$name.zip" ;;
*) exe=hookrun archive="$name.tar.gz" ;;
esac

if [ "$target" = "$host" ]; then
    cargo build --release --locked
    bin="target/release/$exe"
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
    x86_64-pc-windows-gnu)
        if [ "${HOOKRUN_NATIVE:-}" = 1 ]; then
            cargo build --release --locked --target "$target"
            bin="target/$target/release/$exe"
        else
            # MinGW-w64 links it, std built from source (cross-env.sh).
            bash -c '. packaging/cross-env.sh && cross_setup "$1" && cross_cargo "$1" build --release --locked' sh "$target"
            bin="target/cross/$target/release/$exe"
        fi
        ;;
    *)
        cargo build --release --locked --target "$target"
        bin="target/$target/release/$exe"
        ;;
    esac
fi

mkdir -p "$out"
stage="$out/$name"
rm -rf "$stage" "$out/$archive" "$out/$archive.sha256"
mkdir -p "$stage/man"
cp "$bin" "$stage/$exe"
cp README.md LICENSE-MIT LICENSE-APACHE "$stage/"
cp -R completions "$stage/completions"
cp docs/man/*.1 "$stage/man/"
cp docs/settings.schema.json "$stage/"
# Reproducible: fixed owner, order and times (the commit's, when in git).
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)
case $archive in
*.zip)
    # Python's zipfile (Python is on every runner; Git Bash on Windows has
    # no `zip`): names in order, one fixed time, deflated.
    # (On Windows `python3` may be the Store's placeholder: the first one
    # that runs.)
    python=
    for p in python3 python; do
        "$p" -c 'import zipfile' 2>/dev/null && { python=$p; break; }
    done
    [ -n "$python" ] || { echo "dist.sh: a zip archive needs Python 3" >&2; exit 1; }
    "$python" - "$out" "$name" "$epoch" <<'PY'
import os, sys, time, zipfile
out, name, epoch = sys.argv[1], sys.argv[2], int(sys.argv[3])
stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip's times start in 1980
paths = []
for root, dirs, files in os.walk(os.path.join(out, name)):
    paths += [os.path.join(root, f) for f in files]
with zipfile.ZipFile(os.path.join(out, name + ".zip"), "w") as z:
    for path in sorted(paths, key=lambda p: os.path.relpath(p, out).replace(os.sep, "/")):
        info = zipfile.ZipInfo(os.path.relpath(path, out).replace(os.sep, "/"), stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (0o100755 if path.endswith(".exe") else 0o100644) << 16
        with open(path, "rb") as f:
            z.writestr(info, f.read(), compresslevel=9)
PY
    ;;
*)
    tar -C "$out" --owner=0 --group=0 --numeric-owner --sort=name --mtime="@$epoch" \
        -cf - "$name" | gzip -n -9 >"$out/$archive"
    ;;
esac
rm -rf "$stage"
(cd "$out" && sha256sum "$archive" >"$archive.sha256")
echo "$out/$archive"

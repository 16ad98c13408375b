#!/bin/sh
# The npm tarballs: `hookrun` (the launcher, bin/hookrun.js) and the
# platform package holding BINARY (@hookrun/PLATFORM, bin/hookrun; for
# Windows bin/hookrun.exe).
#
# Usage: packaging/npm.sh BINARY PLATFORM [OUT]
#   PLATFORM: a folder of npm/platforms/ (linux-x64, linux-arm64,
#   darwin-x64, darwin-arm64, win32-x64); OUT: target/npm
# Prints the two tarballs' paths. Publish the platform packages first, then
# hookrun (docs/release.md).
set -eu
cd "$(dirname "$0")/.."
binary=$1
platform=$2
out=${3:-target/npm}
[ -d "npm/platforms/$platform" ] || { echo "no npm/platforms/$platform" >&2; exit 1; }
case $platform in
linux-*) system=Linux exe=hookrun ;;
darwin-*) system=macOS exe=hookrun ;;
win32-*) system=Windows exe=hookrun.exe ;;
*) echo "npm.sh: what system is $platform?" >&2; exit 1 ;;
esac
cpu=${platform#*-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d "$out/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage/platform/bin" "$stage/main/bin"
cp "npm/platforms/$platform/package.json" "$stage/platform/"
cp "$binary" "$stage/platform/bin/$exe"
chmod 755 "$stage/platform/bin/$exe"
cp LICENSE-MIT LICENSE-APACHE "$stage/platform/"
printf '# @hookrun/%s\n\nThe hookrun executable for %s on %s. Install the `hookrun` package, which\ndepends on this one: https://www.npmjs.com/package/hookrun\n' "$platform" "$system" "$cpu" >"$stage/platform/README.md"

cp npm/hookrun/package.json "$stage/main/"
cp npm/hookrun/bin/hookrun.js "$stage/main/bin/"
cp README.md LICENSE-MIT LICENSE-APACHE "$stage/main/"
# The man pages (npm links them into its share/man on a global install) and
# the settings schema, as the README tells npm users.
mkdir -p "$stage/main/man"
cp docs/man/*.1 "$stage/main/man/"
cp docs/settings.schema.json "$stage/main/"

(cd "$stage/platform" && npm pack --silent --pack-destination "$out") | sed "s|^|$out/|"
(cd "$stage/main" && npm pack --silent --pack-destination "$out") | sed "s|^|$out/|"

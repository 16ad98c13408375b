#!/usr/bin/env bash
# `just package-smoke`: builds the wheel, the npm tarballs and the release
# archive from this checkout, installs each the way a user would into a
# folder of its own (pip into a venv, pipx, `uv tool`, uvx, `npm i -g
# --prefix`, an npm devDependency, npx, the archive unpacked), and through
# every installed hookrun runs `--version`, one fixture `fire` and
# `install claude-code --dry-run`, checking the path the entry would run:
# the native executable (never a launcher), outside any cache, or a refusal
# where the install is one (uvx, npx); checks that each installs the man
# pages and the settings schema; and walks a new user's way from `npm i -g`
# to a blocked push, a clean `doctor` and back to the machine as it was.
#
# Needs python3 with pip (maturin, pipx and uv are installed into a venv of
# the smoke's own when missing) and node with npm. Nothing is published and
# nothing is downloaded but maturin/pipx/uv from PyPI when missing; the
# installs read only the files built here. Everything lands in
# target/package-smoke (a folder that lasts, so `install` has nothing to
# warn about); timings in target/package-smoke/times.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
T="$repo/target/package-smoke"
rm -rf "$T"
mkdir -p "$T/home" "$T/out"
# A HOME of its own (pip's, pipx's, uv's and npm's defaults land there); the
# toolchains keep theirs.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
[ -d "$HOME/.pyenv" ] && export PYENV_ROOT="${PYENV_ROOT:-$HOME/.pyenv}"
export HOME="$T/home"
unset CLAUDE_PROJECT_DIR UV_CACHE_DIR npm_config_cache NPM_CONFIG_CACHE PIPX_HOME XDG_CACHE_HOME
export UV_CACHE_DIR="$T/uv-cache" PIP_DISABLE_PIP_VERSION_CHECK=1 npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
times="$T/times.txt"
failures=0

now() { date +%s.%N; }
timed() { # timed LABEL COMMAND...: runs it, records the seconds, keeps its status
    local label=$1 start end code=0
    shift
    start=$(now)
    "$@" || code=$?
    end=$(now)
    printf '%-28s %6.1f s\n' "$label" "$(echo "$end - $start" | bc)" | tee -a "$times"
    return "$code"
}
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Tools: the ones on PATH, else a venv of the smoke's own.
tools="$repo/target/package-smoke-tools"
for tool in maturin pipx uv; do
    if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "$tools/bin/$tool" ]; then
        [ -x "$tools/bin/pip" ] || python3 -m venv "$tools"
        "$tools/bin/pip" install --quiet maturin pipx uv
    fi
done
PATH="$PATH:$tools/bin"
command -v npm >/dev/null || { echo "npm is required" >&2; exit 1; }

echo "--- build"
timed "build wheel (maturin)" maturin build --release --locked --out "$T/out" >"$T/maturin.log" 2>&1 ||
    { cat "$T/maturin.log"; exit 1; }
wheel=$(ls "$T"/out/hookrun-"$version"-*.whl)
timed "build archive (dist.sh)" packaging/dist.sh "" "$T/out" >"$T/dist.log" 2>&1 ||
    { cat "$T/dist.log"; exit 1; }
archive=$(ls "$T"/out/hookrun-v"$version"-*.tar.gz)
timed "build npm tarballs" packaging/npm.sh target/release/hookrun linux-x64 "$T/out" >"$T/npm-pack.log"
npm_platform="$T/out/hookrun-linux-x64-$version.tgz"
npm_main="$T/out/hookrun-$version.tgz"
ls -l "$wheel" "$archive" "$npm_platform" "$npm_main"
(cd "$T/out" && sha256sum -c "$(basename "$archive").sha256")
# The wheel's executable is the archive's: one build, one binary.
unzip -p "$wheel" "hookrun-$version.data/scripts/hookrun" >"$T/wheel-hookrun"
cmp "$T/wheel-hookrun" target/release/hookrun || fail "the wheel's hookrun is not target/release/hookrun"
file -b target/release/hookrun | grep -q 'statically linked' || fail "target/release/hookrun is not statically linked: $(file -b target/release/hookrun)"

is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }

# check LABEL EXE [EXPECT]: --version, a fixture fire, and the entry
# `install --dry-run` writes. EXPECT: "native" (the entry names a native
# executable outside any cache), "refused" (a cache: install refuses) or
# "pinned" (the project's devDependency form).
check() {
    local label=$1 exe=$2 expect=${3:-native} proj=${4:-$T/proj-$1} out code
    echo "--- $label: $exe"
    out=$("$exe" --version) || { fail "$label: --version"; return; }
    [ "$out" = "hookrun $version" ] || fail "$label: --version said $out"
    code=0
    out=$("$exe" fire pre_tool_use --trust-project --settings "$repo/fixtures/settings/flat.json" \
        <"$repo/fixtures/events/pre_tool_use__git_push.json" 2>"$T/fire.err") || code=$?
    [ "$code" = 2 ] || fail "$label: fire exited $code, not 2 (block)"
    case $out in *'"permissionDecision":"deny"'*) ;; *) fail "$label: fire printed $out" ;; esac
    mkdir -p "$proj"
    code=0
    out=$(cd "$proj" && "$exe" install claude-code --dry-run 2>&1) || code=$?
    case $expect in
    refused)
        [ "$code" = 1 ] || fail "$label: install --dry-run exited $code, not refused"
        case $out in *cache*"uv tool install hookrun"*) ;; *) fail "$label: refusal: $out" ;; esac
        echo "install refused: ${out:0:160}…"
        ;;
    pinned)
        [ "$code" = 0 ] || fail "$label: install --dry-run exited $code: $out"
        case $out in *'\"$CLAUDE_PROJECT_DIR\"/node_modules/.bin/hookrun-native fire --host claude-code'*) ;;
        *) fail "$label: not the pinned entry: $out" ;; esac
        echo "entry: \"\$CLAUDE_PROJECT_DIR\"/node_modules/.bin/hookrun-native fire --host claude-code"
        ;;
    native)
        [ "$code" = 0 ] || fail "$label: install --dry-run exited $code: $out"
        local written
        written=$(printf '%s\n' "$out" | sed -n 's/.*"command": "\(.*\) fire --host claude-code".*/\1/p' | head -n 1)
        written=${written#\'}
        written=${written%\'}
        echo "entry runs: $written"
        [ -n "$written" ] || { fail "$label: no entry in: $out"; return; }
        is_elf "$written" || fail "$label: the entry runs $written, not a native executable"
        # No warning, but the one about a temporary folder where the
        # checkout itself lives in one (CI's clone may).
        local warned
        warned=$(printf '%s\n' "$out" | grep 'warning' || true)
        case $repo in
        /tmp/* | "${TMPDIR:-/tmp}"/*) warned=$(printf '%s\n' "$warned" | grep -v 'is in a temporary folder' || true) ;;
        esac
        [ -z "$warned" ] || fail "$label: install warned: $warned"
        ;;
    esac
}

echo "--- install"
timed "pip install (venv)" bash -c "python3 -m venv '$T/venv' && '$T/venv/bin/pip' install --quiet --no-index '$wheel'"
is_elf "$T/venv/bin/hookrun" || fail "pip: bin/hookrun is not the native executable"
check pip "$T/venv/bin/hookrun"

timed "pipx install" env PIPX_HOME="$T/pipx" PIPX_BIN_DIR="$T/pipx-bin" PIPX_MAN_DIR="$T/pipx-man" \
    pipx install --quiet --pip-args=--no-index "$wheel" >/dev/null
check pipx "$T/pipx-bin/hookrun"

timed "uv tool install" env UV_TOOL_DIR="$T/uv-tools" UV_TOOL_BIN_DIR="$T/uv-bin" \
    uv tool install --quiet --no-index "$wheel"
check uv-tool "$T/uv-bin/hookrun"

timed "uvx (first run)" uvx --quiet --no-index --from "$wheel" hookrun --version >/dev/null
uvx_exe=$(uvx --quiet --no-index --from "$wheel" python -c 'import os,sys; print(os.path.join(os.path.dirname(sys.executable), "hookrun"))' 2>/dev/null || true)
if [ -n "$uvx_exe" ] && [ -x "$uvx_exe" ]; then
    check uvx "$uvx_exe" refused
else
    # Through uvx itself: the binary it runs is in its cache.
    out=$(cd "$T" && uvx --quiet --no-index --from "$wheel" hookrun install claude-code --dry-run 2>&1) &&
        fail "uvx: install did not refuse: $out"
    echo "uvx install refused: ${out:0:160}…"
fi

timed "npm i -g --prefix" npm i -g --offline --silent --prefix "$T/npm-global" "$npm_platform" "$npm_main"
check npm-global "$T/npm-global/bin/hookrun"
# Naming the launcher as the entry's binary would start Node per event.
out=$(cd "$T" && "$T/npm-global/bin/hookrun" install claude-code --dry-run --binary "$T/npm-global/bin/hookrun" 2>&1) &&
    fail "install --binary LAUNCHER did not refuse: $out"
case $out in *"Node launcher"*) echo "launcher as --binary refused" ;; *) fail "launcher refusal: $out" ;; esac
# The launcher says what to install when the platform package is missing.
mv "$T/npm-global/lib/node_modules/@hookrun" "$T/npm-global-hidden"
out=$("$T/npm-global/bin/hookrun" --version 2>&1) && fail "launcher without its platform package: $out"
case $out in *"npm i"*"@hookrun/linux-x64@$version"*) echo "launcher: ${out:0:200}…" ;;
*) fail "launcher message: $out" ;; esac
mv "$T/npm-global-hidden" "$T/npm-global/lib/node_modules/@hookrun"

mkdir -p "$T/npm-project"
(cd "$T/npm-project" && npm init -y >/dev/null && git init -q .)
timed "npm i -D (project)" bash -c "cd '$T/npm-project' && npm i -D --offline --silent '$npm_platform' '$npm_main'"
native_link="$T/npm-project/node_modules/.bin/hookrun-native"
is_elf "$(readlink -f "$native_link")" || fail "node_modules/.bin/hookrun-native is not a link to the native executable"
check npm-project "$T/npm-project/node_modules/.bin/hookrun" pinned "$T/npm-project"
check npm-project-native "$native_link" pinned "$T/npm-project"

mkdir -p "$T/npx-elsewhere"
timed "npx (first run)" bash -c "cd '$T/npx-elsewhere' && npx --yes --offline -p '$npm_platform' -p '$npm_main' hookrun --version >/dev/null"
out=$(cd "$T/npx-elsewhere" && npx --yes --offline -p "$npm_platform" -p "$npm_main" hookrun install claude-code --dry-run 2>&1) &&
    fail "npx: install did not refuse: $out"
case $out in *"npx's cache"*) echo "npx install refused: ${out:0:160}…" ;; *) fail "npx refusal: $out" ;; esac

timed "archive unpacked" tar -C "$T" -xzf "$archive"
check archive "$T/$(basename "$archive" .tar.gz)/hookrun"

echo "--- man pages and schema in every channel"
has() { [ -f "$2" ] && echo "$1: $2" || fail "$1: no $2"; }
has npm-global "$T/npm-global/share/man/man1/hookrun.1"
has npm-global "$T/npm-global/share/man/man1/hookrun-uninstall.1"
has npm-global "$T/npm-global/lib/node_modules/hookrun/settings.schema.json"
has pip "$T/venv/share/man/man1/hookrun.1"
has pip "$T/venv/share/hookrun/settings.schema.json"
has pipx "$T/pipx-man/man1/hookrun.1"
has uv-tool "$T/uv-tools/hookrun/share/man/man1/hookrun.1"
has uv-tool "$T/uv-tools/hookrun/share/hookrun/settings.schema.json"
has archive "$T/$(basename "$archive" .tar.gz)/man/hookrun.1"
has archive "$T/$(basename "$archive" .tar.gz)/settings.schema.json"
if command -v man >/dev/null; then
    # man finds npm's pages next to npm's bin, with no MANPATH.
    out=$(unset MANPATH; PATH="$T/npm-global/bin:$PATH" man -w hookrun-status 2>&1) || true
    case $out in
    "$T"/npm-global/*hookrun-status.1) echo "man hookrun-status: $out" ;;
    *) fail "man does not find npm's hookrun-status(1): $out" ;;
    esac
fi

# A new user's walk, as README.md tells it: `npm i -g` on a machine where
# Claude Code has run, to a blocked push, a clean `doctor`, and back to the
# machine as it was with `hookrun uninstall --all`.
walk() {
    local W="$T/walk" before after code out entry
    rm -rf "$W"
    # A home as a desktop session leaves it, where Claude Code has run.
    mkdir -p "$W/home/.claude" "$W/home/.config" "$W/home/.local/state" "$W/repo"
    printf '{"numStartups": 3, "projects": {}}\n' >"$W/home/.claude.json"
    printf '{\n  "model": "opus"\n}\n' >"$W/home/.claude/settings.json"
    snapshot() { (cd "$W/home" && find . | LC_ALL=C sort | while read -r f; do
        if [ -f "$f" ]; then printf '%s %s\n' "$f" "$(sha256sum <"$f" | cut -c1-16)"; else printf '%s\n' "$f"; fi
    done); }
    before=$(snapshot)
    (
        set -e
        export HOME="$W/home"
        unset XDG_CONFIG_HOME XDG_STATE_HOME HOOKRUN_STATE_DIR
        export PATH="$W/npm/bin:$PATH"
        timed "walk: npm i -g" npm i -g --offline --silent --prefix "$W/npm" "$npm_platform" "$npm_main"
        timed "walk: hookrun init" hookrun init >/dev/null
        # doctor, right after init: Claude Code is used here and nothing
        # routes to hookrun yet.
        code=0
        hookrun doctor >"$W/doctor-1.txt" || code=$?
        [ "$code" = 1 ] && grep -q 'error\[host-not-routed\]' "$W/doctor-1.txt" ||
            { cat "$W/doctor-1.txt"; echo "walk: doctor before install exited $code" >&2; exit 1; }
        timed "walk: install claude-code" hookrun install claude-code --user >/dev/null
        # The push, as Claude Code runs the entry: its command, the event
        # on stdin, from a repository on main.
        git -C "$W/repo" init -q -b main
        entry=$(jq -r '.hooks.PreToolUse[0].hooks[0].command' "$HOME/.claude/settings.json")
        for push in "git push origin main" "git push"; do
            code=0
            printf '{"session_id":"walk","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Bash","tool_input":{"command":"%s"}}' "$W/repo" "$push" |
                (cd "$W/repo" && CLAUDE_PROJECT_DIR="$W/repo" sh -c "$entry") >"$W/fire.out" 2>"$W/fire.err" || code=$?
            [ "$code" = 2 ] || { cat "$W/fire.out" "$W/fire.err"; echo "walk: $push was not blocked (exit $code)" >&2; exit 1; }
            echo "walk: blocked \`$push\`: $(head -c 120 "$W/fire.err")"
        done
        hookrun doctor >"$W/doctor-2.txt" || { cat "$W/doctor-2.txt"; echo "walk: doctor after install is not clean" >&2; exit 1; }
        tail -n 1 "$W/doctor-2.txt"
        hookrun status | grep -q 'exists, this hookrun' || { hookrun status; exit 1; }
        timed "walk: uninstall --all" hookrun uninstall --all >"$W/uninstall.txt"
        hookrun status | grep -q 'no host runs hookrun here' || { hookrun status; exit 1; }
        npm uninstall -g --silent --prefix "$W/npm" hookrun @hookrun/linux-x64
        rm -rf "$HOME/.config/hookrun" "$HOME/.local/state/hookrun"
        # npm's own cache and logs are npm's, not hookrun's.
        rm -rf "$HOME/.npm"
    ) || { fail "the new user's walk"; return; }
    after=$(snapshot)
    if [ "$before" = "$after" ]; then
        echo "walk: the home folder is byte for byte as before"
    else
        diff <(echo "$before") <(echo "$after") >&2 || true
        fail "walk: the home folder differs after uninstall --all"
    fi
}
walk_start=$(now)
walk
printf '%-28s %6.1f s\n' "walk: the whole walk" "$(echo "$(now) - $walk_start" | bc)" | tee -a "$times"

echo "--- sizes"
ls -l "$wheel" "$archive" "$npm_platform" "$npm_main" target/release/hookrun | awk '{print $5, $9}' | tee -a "$times"
if [ "$failures" != 0 ]; then
    echo "package-smoke: $failures failure(s)" >&2
    exit 1
fi
echo "package-smoke: every channel installs, fires and writes a lasting entry"

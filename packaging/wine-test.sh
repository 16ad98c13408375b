#!/usr/bin/env bash
# hookrun built for Windows (x86_64-pc-windows-gnu) and tested on this
# Debian machine under wine. Installs what it needs itself: the cross
# toolchain of packaging/cross-env.sh (Debian's rustc-web with the standard
# library's sources, MinGW-w64) and Debian's wine.
#
# What runs:
#   1. The unit tests of the Windows backend and of the supervisor
#      (src/platform/windows.rs, src/exec/portable_tests.rs: timeouts, the
#      deadline, grandchildren ended through the Job Object, output and
#      stdin through the pipe threads, a grandchild left alone), and of the
#      pure logic named in UNIT_FILTERS below (Windows path rules, the
#      selfguard on a real profile folder by any spelling of its files,
#      each host's Windows entry), built for Windows and run under wine.
#   2. The Windows hookrun.exe against real files: the starter policy's
#      permission rule denying a push to main (exit 2 and the decision), and
#      `install` then `uninstall` of the Claude Code hooks leaving the
#      settings file byte for byte as it was.
# Each test prints ok or FAILED; the last line is `N passed, N failed`.
# A test wine cannot stand in for prints `SKIPPED: reason`.
#
# wine 8.0 predates `ProcessPrng` (bcryptprimitives.dll), which Rust's
# standard library imports: a stub built from packaging/wine/processprng.c
# is put beside the executables. The release binaries for users are built
# and tested on a Windows runner (.github/workflows), not here.
#
# Usage: packaging/wine-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-pc-windows-gnu
. packaging/cross-env.sh
cross_setup "$target"
cross_apt wine wine64
mkdir -p target/cross

# Unit tests run under wine: the Windows backend, the supervisor's portable
# tests, and pure logic that has no Unix assumption in its tests.
UNIT_FILTERS=(
    platform::windows::
    exec::portable_tests::
    select::path_style::
    select::rule::tests::windows_
    selfguard::tests::hookruns_files_on_windows
    selfguard::tests::the_windows_build_guards
    host::launch::
    host::wiring::tests::each_hosts_windows_entry
)

start=$(date +%s)
echo "--- build the unit tests and hookrun.exe for $target (std from source)"
cross_cargo "$target" test --locked --lib --no-run 2>&1 | tee target/cross/wine-build.log
cross_cargo "$target" build --locked --bin hookrun
unit=$(sed -n 's/.*Executable unittests src\/lib.rs (\(.*\))$/\1/p' target/cross/wine-build.log | tail -n 1)
[ -n "$unit" ] || { echo "wine-test: no test executable in the build's output" >&2; exit 1; }
case $unit in /*) ;; *) unit="$PWD/$unit" ;; esac
exe="$PWD/target/cross/$target/debug/hookrun.exe"
for dir in "$(dirname "$unit")" "$(dirname "$exe")"; do
    x86_64-w64-mingw32-gcc-posix -shared -O2 -o "$dir/bcryptprimitives.dll" \
        packaging/wine/processprng.c packaging/wine/processprng.def -ladvapi32
done
built=$(date +%s)

export WINEPREFIX="$PWD/target/cross/wineprefix"
export WINEDEBUG=-all
# The stub before wine's own; no .NET or HTML engine installers.
export WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree,mshtml="
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "--- a wine prefix in $WINEPREFIX"
    wineboot --init >/dev/null 2>&1 || true
    wineserver --wait || true
fi

passed=0
failed=0
failures=()

echo "--- unit tests under wine: ${UNIT_FILTERS[*]}"
log=target/cross/wine-unit.log
set +e
wine "$unit" "${UNIT_FILTERS[@]}" --test-threads 2 2>&1 | tr -d '\r' | tee "$log"
set -e
result=$(grep -E '^test result: ' "$log" | tail -n 1)
if [ -z "$result" ]; then
    echo "wine-test: the unit tests did not finish (above)" >&2
    failed=$((failed + 1))
    failures+=("unit tests: no result line")
else
    unit_passed=$(sed -E 's/.* ([0-9]+) passed.*/\1/' <<<"$result")
    unit_failed=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$result")
    passed=$((passed + unit_passed))
    failed=$((failed + unit_failed))
    while read -r name; do failures+=("unit: $name"); done < <(sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$log")
fi

# ---- hookrun.exe against real files --------------------------------------------

# wine sees this machine's files on drive Z:.
winpath() { printf 'Z:%s' "$(tr / '\\' <<<"$1")"; }

check() { # check NAME: records the result of the test just run ($? of the caller's test)
    if [ "$2" = 0 ]; then
        echo "test wine::$1 ... ok"
        passed=$((passed + 1))
    else
        echo "test wine::$1 ... FAILED"
        failed=$((failed + 1))
        failures+=("wine::$1")
    fi
}

sandbox=$(mktemp -d)
trap 'rm -rf "$sandbox"' EXIT
mkdir -p "$sandbox/config" "$sandbox/project/.claude" "$sandbox/state"
run_exe() { # run_exe STDIN-FILE ARGS...: hookrun.exe in the sandbox; sets out, err, code
    local input=$1
    shift
    set +e
    # wine sets HOME, USERPROFILE and LOCALAPPDATA itself (to the
    # prefix's user folder); the XDG variables pass through.
    out=$(cd "$sandbox/project" && env XDG_CONFIG_HOME="$(winpath "$sandbox/config")" \
        XDG_STATE_HOME="$(winpath "$sandbox/state")" \
        wine "$exe" "$@" <"$input" 2>"$sandbox/err" | tr -d '\r')
    code=$?
    set -e
    err=$(tr -d '\r' <"$sandbox/err")
}

echo "--- hookrun.exe under wine"
# A deny: the starter policy of `hookrun init` (permission rules, no
# shell needed) blocks a push to main: exit 2, the decision on stdout.
run_exe /dev/null init
status=$code
[ "$status" = 0 ] || echo "init: exit $code; stderr: $err"
printf '%s' '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin main"}}' >"$sandbox/event.json"
run_exe "$sandbox/event.json" fire
if [ "$status" = 0 ] && [ "$code" = 2 ] && grep -q '"permissionDecision":"deny"' <<<"$out" &&
    grep -q 'denied by permission rule' <<<"$out"; then status=0; else
    status=1
    echo "fire: exit $code; stdout: $out; stderr: $err"
fi
check a_permission_rule_denies_a_push_to_main "$status"

# install, then uninstall (the project's Claude Code settings): the file
# is as it was, byte for byte (its key order, spacing and the user's own
# hooks kept).
settings="$sandbox/project/.claude/settings.json"
printf '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "echo mine" } ] } ]\n  }\n}\n' >"$settings"
cp "$settings" "$sandbox/before.json"
run_exe /dev/null install claude-code
status=$code
grep -q 'hookrun.exe' "$settings" || status=1
[ "$status" = 0 ] || { echo "install: exit $code; stdout: $out; stderr: $err"; cat "$settings"; }
check install_writes_the_hooks "$status"
run_exe /dev/null uninstall claude-code
status=$code
cmp -s "$settings" "$sandbox/before.json" || status=1
[ "$status" = 0 ] || { echo "uninstall: exit $code; stderr: $err"; diff "$sandbox/before.json" "$settings" || true; }
check uninstall_restores_the_file_byte_for_byte "$status"

# Path rules compare Windows paths in any spelling: a deny rule written
# with a drive letter and backslashes, and one under `~`, meet paths in
# other case, separators and drive spelling.
printf '%s' '{"permissions":{"deny":["Read(C:\\Secret\\**)","Read(~/.ssh/**)"]}}' >"$sandbox/rules.json"
status=0
for file in 'c:/SECRET/notes.txt' '/c/secret/NOTES.txt' '~\\.SSH\\id_rsa'; do
    printf '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"%s"}}' "$file" >"$sandbox/read.json"
    run_exe "$sandbox/read.json" fire --settings "$(winpath "$sandbox/rules.json")"
    if [ "$code" != 2 ] || ! grep -q '"permissionDecision":"deny"' <<<"$out"; then
        status=1
        echo "fire (Read $file): exit $code; stdout: $out; stderr: $err"
    fi
done
printf '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"D:/Secret/notes.txt"}}' >"$sandbox/read.json"
run_exe "$sandbox/read.json" fire --settings "$(winpath "$sandbox/rules.json")"
if grep -q '"permissionDecision":"deny"' <<<"$out"; then
    status=1
    echo "fire (Read D:/Secret/notes.txt): denied, another drive; stdout: $out"
fi
check path_rules_meet_any_spelling_of_a_windows_path "$status"

# Gemini CLI runs hooks with PowerShell on Windows: install writes the
# call operator and passes the exit code on; uninstall gives the file back.
gemini="$sandbox/project/.gemini/settings.json"
mkdir -p "$(dirname "$gemini")"
printf '{\n  "general": { "vimMode": true },\n  "hooks": {\n    "AfterAgent": [ { "hooks": [ { "type": "command", "command": "echo mine" } ] } ]\n  }\n}\n' >"$gemini"
cp "$gemini" "$sandbox/gemini-before.json"
run_exe /dev/null install gemini
status=$code
grep -qF "& '" "$gemini" && grep -qF 'hookrun.exe'"'"' fire --host gemini' "$gemini" &&
    grep -qF '; exit $LASTEXITCODE' "$gemini" || status=1
[ "$status" = 0 ] || { echo "install gemini: exit $code; stdout: $out; stderr: $err"; cat "$gemini"; }
run_exe /dev/null uninstall gemini
[ "$code" = 0 ] && cmp -s "$gemini" "$sandbox/gemini-before.json" || {
    status=1
    echo "uninstall gemini: exit $code; stderr: $err"
    diff "$sandbox/gemini-before.json" "$gemini" || true
}
check install_writes_powershell_entries_for_gemini_and_takes_them_back "$status"

echo "SKIPPED: shell-form hooks: they need Git for Windows' bash, which no registry here packages (the Windows runner has it)"
echo "SKIPPED: the Unix supervision suite (process groups, signals, sh): Windows runs exec::portable_tests instead"

# Leave no wine process behind (the left-alone grandchild of one test
# ends by itself within 15 s; wineserver then exits).
wineserver --wait || true
echo "wine-test: built in $((built - start)) s, ran in $(( $(date +%s) - built )) s"
for f in "${failures[@]}"; do echo "FAILED: $f"; done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

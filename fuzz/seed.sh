#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target from the repository's fixtures
# (fuzz/corpus/<target>/, not committed). Idempotent: seeds are named by content.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=fuzz/corpus
mkdir -p "$corpus"/{settings,event,matcher,rule,hook_output,host}

seed() { # target, bytes on stdin
    local tmp
    tmp=$(mktemp)
    cat >"$tmp"
    mv "$tmp" "$corpus/$1/seed-$(sha256sum "$tmp" | cut -c1-16)"
}
seed_text() { printf '%s' "$2" | seed "$1"; }

for f in fixtures/settings/*.json fixtures/cookbook/*/settings.json fixtures/cases/*.json; do
    seed settings <"$f"
done
for f in fixtures/events/*.json; do
    seed event <"$f"
    seed hook_output < <(printf '\0'; cat "$f")
done
# Deep nesting and lone surrogates, which the parsers must take.
seed_text event "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm x\",\"d\":$(printf '[%.0s' {1..300})$(printf ']%.0s' {1..300})}}"
seed_text event '{"tool_name":"Bash","tool_input":{"command":"echo \ud83d rm"}}'

matchers=('Bash' 'Edit|Write' 'Edit, Write' 'mcp__memory__.*' '^(?!Bash$).*' '(?<=Notebook)Edit'
    '^(a)\1$' '(a+)+$' '[BR].*' 'Bash(echo*)' '\d+\s\w\b' '.env' 'a{2,3}' '[^]' '\u0041\x42\cJ')
for m in "${matchers[@]}"; do
    printf '%s\0Bash' "$m" | seed matcher
    printf '%s\0%s' "$m" 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' | seed matcher
done

rules=('Bash(rm *)' 'Bash(git push:*)' 'Bash' 'Edit(*.ts)' 'Read(//etc/**)' 'Write(~/x/**)'
    'WebFetch(domain:*.example.com)' 'mcp__github__*' 'Agent(Explore)' 'Bash(echo *)')
commands=('rm -rf x' '2>&1 rm x' '{rm,-rf,x}' '/bin/rm x' 'sudo -u root rm x' 'env -i FOO=1 rm x'
    "bash -c 'rm x'" 'eval "rm x"' 'xargs -0 rm' 'coproc rm x' 'case $a in x) rm y;; esac'
    'cd repo && git push origin main' 'echo $(rm x) > ~/.bashrc' 'timeout -s KILL 5 nice -n 3 rm x')
for r in "${rules[@]}"; do
    for c in "${commands[@]}"; do
        printf '%s\0Bash\0%s' "$r" "$c" | seed rule
    done
done

outputs=('{"decision":"block","reason":"no"}' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}'
    '{"continue":false,"stopReason":"s"}' '{"systemMessage":"\ud83d"}' 'plain text' '{"updatedInput":{"command":"ls"}}')
for o in "${outputs[@]}"; do
    for code in 0 1 2; do
        printf '%b%s\0stderr' "\\x$(printf %02x "$code")" "$o" | seed hook_output
    done
done
# Host payloads: template byte, wrapper byte, then the object.
i=0
for f in fixtures/events/*.json fixtures/hosts/*/*.json; do
    seed host < <(printf '%b%b' "\\x$(printf %02x $((i % 7)))" "\\x$(printf %02x $((i % 10)))"; cat "$f")
    i=$((i + 1))
done
{ printf '\0\0'; printf '%s' '{"tool_input":{"command":["bash","-lc","x"],"description":"d"},"cwd":5}'; } | seed host

echo "seeded: $(for t in settings event matcher rule hook_output host; do printf '%s=%s ' "$t" "$(ls "$corpus/$t" | wc -l)"; done)"

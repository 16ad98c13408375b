#!/usr/bin/env bash
# The hand-written hook dispatcher users write today, for comparison with
# `hookrun fire` (tools/bench/run.py).  It is written to be fair to the dispatcher:
# one jq call for both fields (not one per field), bash built-ins for the
# routing, and matching commands started in parallel like hookrun does.
#
#   dispatch.sh ROUTES < event.json
#
# ROUTES has one route a line, tab-separated: EVENT, TOOL (a bash glob over
# tool_name; `*` for every tool and for events without one), COMMAND (run
# with `sh -c`, the event JSON on its stdin).  Lines starting with # are
# comments.  Like a Claude Code hook it exits 2 when any matching command
# exited 2 (the command's stderr is passed through as the reason), else 0.
set -u
routes=$1
input=$(cat)
IFS=$'\t' read -r event tool < <(jq -r '[.hook_event_name // "", .tool_name // ""] | @tsv' <<<"$input")

pids=()
while IFS=$'\t' read -r ev pattern command; do
    case $ev in '' | '#'*) continue ;; esac
    [[ $ev == "$event" ]] || continue
    # shellcheck disable=SC2254 # the pattern is a glob on purpose
    case $tool in
        $pattern) ;;
        *) continue ;;
    esac
    sh -c "$command" <<<"$input" >/dev/null &
    pids+=("$!")
done <"$routes"

status=0
for pid in "${pids[@]}"; do
    wait "$pid"
    [[ $? -eq 2 ]] && status=2
done
exit "$status"

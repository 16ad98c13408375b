#!/bin/sh
n=$(ls "$ORACLE_OUT" | grep -c "^$1_stdin" )
cat > "$ORACLE_OUT/$1_stdin_$n.json"
echo "$1 $HOOK_EVENT" >> "$ORACLE_OUT/calls.log"

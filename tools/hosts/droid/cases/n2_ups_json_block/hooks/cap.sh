#!/bin/sh
label=$1
n=$(ls "$ORACLE_OUT" | grep -c "^${label}_stdin_")
cat > "$ORACLE_OUT/${label}_stdin_$n.json"
env | sort > "$ORACLE_OUT/env_${label}_$n.txt"
pwd > "$ORACLE_OUT/cwd_${label}_$n.txt"
echo "$label" >> "$ORACLE_OUT/calls.log"

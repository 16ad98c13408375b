#!/bin/sh
# Run every case (or those whose name contains $1), one at a time; each
# writes cases/<name>/out/ (or OUT/<name>/ when $OUT is set).
cd "$(dirname "$0")"
for c in cases/*/; do
  c=${c%/}
  name=$(basename "$c")
  case "$name" in *"$1"*) ;; *) continue ;; esac
  out=${OUT:+$OUT/$name}
  printf '%-40s ' "$name"
  python3 run_case.py "$c" ${out:+--out "$out"} > /dev/null 2>&1
  head -1 "${out:-$c/out}/summary.txt"
done

#!/usr/bin/env python3
"""Writes .cargo/startup-order.txt: the functions a fire runs, for the linker.

    python3 tools/bench/startup_order.py [--hookrun target/release/hookrun]

A fire touches a few hundred of the binary's functions, spread over 6 MB
of code; each 64 KiB of code it touches first is a page fault at start-up
(the kernel maps code around a fault 16 pages at a time). Linking those
functions next to each other (lld's --symbol-ordering-file, passed by
.cargo/rustc-link.sh when the file exists) saves about a third of the
code faults of a fire.

The list comes from callgrind (valgrind must be installed) running the
release binary on the fires hosts run most: no hook, one matching hook,
twenty hooks, 500 configured hooks none of which matches, and an `if` rule
that does not match; symbols are written mangled, sorted (so that
writing it again changes only what changed), without duplicates. A stale list is harmless: names that no
longer exist are skipped by the linker, new functions are placed as usual.
Regenerate it after large changes (`just startup-order`), then rebuild.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "tools", "bench"))
import run as bench  # noqa: E402  (the benchmark's inputs, the same fires)

OUT = os.path.join(REPO, ".cargo", "startup-order.txt")


def hooks(event, matcher, commands, rule=None):
    entries = []
    for command in commands:
        entry = {"matcher": matcher, "command": command}
        if rule:
            entry["if"] = rule
        entries.append(entry)
    return {"hooks": {event: entries}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hookrun", default=os.path.join(REPO, "target", "release", "hookrun"))
    a = ap.parse_args()
    if subprocess.run(["valgrind", "--version"], capture_output=True).returncode != 0:
        sys.exit("valgrind is needed")
    tmp, env = bench.sandbox("hookrun-order-")
    event = os.path.join(tmp, "event.json")
    with open(event, "w") as f:
        f.write(bench.event_line(os.path.join(REPO, "fixtures", "events", "pre_tool_use.json")))
    cases = [
        {"hooks": {}},
        hooks("PreToolUse", "Bash", ["true"]),
        hooks("PreToolUse", "Bash", ["true # %d" % i for i in range(20)]),
        bench.settings_none_matching(),
        hooks("PreToolUse", "Bash", ["true"], rule="Bash(git push *)"),
    ]
    names, seen = [], set()
    for i, settings in enumerate(cases):
        path = os.path.join(tmp, "s%d.json" % i)
        with open(path, "w") as f:
            json.dump(settings, f)
        out = os.path.join(tmp, "cg%d.out" % i)
        with open(event) as stdin:
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                            "--callgrind-out-file=" + out, a.hookrun, "fire",
                            "--no-default-settings", "--settings", path],
                           stdin=stdin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env, cwd="/", check=True)
        with open(out) as f:
            for line in f:
                m = re.match(r"c?fn=\(\d+\) (\S+)", line)
                if m and not m.group(1).startswith("0x") and m.group(1) not in seen:
                    seen.add(m.group(1))
                    names.append(m.group(1))
    shutil.rmtree(tmp, ignore_errors=True)
    with open(OUT, "w") as f:
        f.write("".join(n + "\n" for n in sorted(names)))
    print("%s: %d functions" % (os.path.relpath(OUT, REPO), len(names)))


if __name__ == "__main__":
    main()

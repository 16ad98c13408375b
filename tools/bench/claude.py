#!/usr/bin/env python3
"""Claude Code's own hook runner vs Claude Code -> hookrun, per event.

    python3 tools/bench/claude.py [--runs N] [--calls N] [--hooks N] [--harness DIR] [--hookrun BIN]

One case is generated: a session in which the (fake) model asks for CALLS
Bash tool calls in a row, with HOOKS trivial PreToolUse hooks (`true`, made
distinct so that neither runner folds them into one) for Bash. It is run
RUNS times each way, alternating, by the oracle harness (the real Claude
Code CLI against a scripted model on loopback; see tools/oracle/compare.py):

- native: the HOOKS hooks are Claude Code's own, which it starts in
  parallel;
- hookrun: Claude Code runs one hook, `hookrun fire --settings FILE`, and
  hookrun runs the same HOOKS hooks;
- floor: Claude Code runs one trivial hook natively: what Claude Code
  itself spends on starting any one hook, which no runner behind it can
  go below.

Claude Code's debug log times every hook it runs ("... finished with
status 0 (23ms)"). Per event, the native cost is the slowest of its HOOKS
hooks (they start together, and the tool waits for the last), the hookrun
cost is the time of its one hook. Both are reported as medians over every
event of every run, with the ratio hookrun / native.

Not part of `cargo test` (it installs Claude Code from npm on first use and
needs `unshare`, or ORACLE_NO_NETNS=1).
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tools", "oracle"))
import compare  # noqa: E402  (the same harness lookup and case transform)

FINISHED = re.compile(r"Hooks: PreToolUse(?::\S+)? \[(.*)\] finished with status (\d+) \((\d+)ms\)")


def make_case(root, calls, hooks):
    os.makedirs(root)
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "true hook-%d" % i} for i in range(hooks)]}]}}
    with open(os.path.join(root, "settings.json"), "w") as f:
        json.dump(settings, f, indent=1)
    turns = [{"tool_use": [{"name": "Bash", "input": {"command": "echo call-%d" % i,
                                                       "description": "Print a word"}}]}
             for i in range(calls)]
    turns.append({"text": "Done."})
    with open(os.path.join(root, "script.json"), "w") as f:
        json.dump(turns, f, indent=1)
    with open(os.path.join(root, "prompt.txt"), "w") as f:
        f.write("Run the commands.\n")


def hook_times(debug_log):
    """[(command, status, ms)] in log order."""
    found = []
    with open(debug_log, errors="replace") as f:
        for line in f:
            m = FINISHED.search(line)
            if m:
                found.append((m.group(1), int(m.group(2)), int(m.group(3))))
    return found


def run(harness, case_dir, out):
    if os.path.isdir(out):
        shutil.rmtree(out)
    p = subprocess.run([sys.executable, os.path.join(harness, "run_case.py"), case_dir,
                        "--out", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    log = os.path.join(out, "debug.log")
    if p.returncode or not os.path.isfile(log):
        sys.exit("the harness failed on %s (exit %s):\n%s" % (case_dir, p.returncode,
                                                             p.stderr[-2000:]))
    return hook_times(log)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=4, help="Claude Code sessions each way")
    ap.add_argument("--calls", type=int, default=6, help="Bash calls (events) per session")
    ap.add_argument("--hooks", type=int, default=20, help="trivial hooks per event")
    ap.add_argument("--harness", default=compare.default_harness())
    ap.add_argument("--hookrun", default=os.path.join(REPO, "target", "release", "hookrun"))
    a = ap.parse_args()
    if not a.harness:
        sys.exit("oracle harness not found: pass --harness DIR or set HOOKRUN_ORACLE_DIR")
    hookrun = os.path.abspath(a.hookrun)
    if not os.access(hookrun, os.X_OK):
        sys.exit("%s is not executable (cargo build --release first)" % hookrun)

    tmp = tempfile.mkdtemp(prefix="hookrun-bench-claude-")
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    # A copy, as installed, not the linker's fresh output (see run.py).
    shutil.copy2(hookrun, os.path.join(bindir, "hookrun"))
    native_case = os.path.join(tmp, "native-case")
    make_case(native_case, a.calls, a.hooks)
    hooked_case = os.path.join(tmp, "hookrun-case")
    command = compare.transform(native_case, hooked_case, bindir)

    floor_case = os.path.join(tmp, "floor-case")
    make_case(floor_case, a.calls, 1)

    native, hooked, floor = [], [], []
    for i in range(a.runs):
        print("session %d of %d, each way ..." % (i + 1, a.runs), file=sys.stderr, flush=True)
        times = run(a.harness, native_case, os.path.join(tmp, "out-native"))
        if len(times) != a.calls * a.hooks or any(status for _, status, _ in times):
            sys.exit("native: expected %d hooks with status 0, the log has %s"
                     % (a.calls * a.hooks, times))
        # Each event's hooks start together; the tool waits for the slowest.
        native += [max(ms for _, _, ms in times[k:k + a.hooks])
                   for k in range(0, len(times), a.hooks)]
        times = run(a.harness, hooked_case, os.path.join(tmp, "out-hookrun"))
        if len(times) != a.calls or any(status for _, status, _ in times):
            sys.exit("hookrun: expected %d runs of `%s` with status 0, the log has %s"
                     % (a.calls, command, times))
        hooked += [ms for _, _, ms in times]
        times = run(a.harness, floor_case, os.path.join(tmp, "out-floor"))
        if len(times) != a.calls or any(status for _, status, _ in times):
            sys.exit("floor: expected %d hooks with status 0, the log has %s" % (a.calls, times))
        floor += [ms for _, _, ms in times]
    shutil.rmtree(tmp, ignore_errors=True)

    n, h = statistics.median(native), statistics.median(hooked)
    version = subprocess.run([hookrun, "--version"], capture_output=True,
                             text=True).stdout.strip()
    lines = [
        "%s; Claude Code %s; %d sessions x %d events each way, %d trivial hooks per event"
        % (version, os.environ.get("ORACLE_CC_VERSION", "2.1.332"), a.runs, a.calls, a.hooks),
        "",
        "| runner | per event, median ms | min-max ms | ratio |",
        "|---|---|---|---|",
        "| Claude Code, %d hooks natively (slowest hook per event) | %.0f | %d-%d | 1.00x |"
        % (a.hooks, n, min(native), max(native)),
        "| Claude Code -> hookrun -> %d hooks (the one hook's time) | %.0f | %d-%d | %.2fx |"
        % (a.hooks, h, min(hooked), max(hooked), h / n),
        "| floor: Claude Code, 1 trivial hook natively | %.0f | %d-%d | %.2fx |"
        % (statistics.median(floor), min(floor), max(floor), statistics.median(floor) / n),
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""hookrun's benchmarks: every row of the performance goals side by side in
one run, each against its yardstick, plus how the cost grows with the
number of configured hooks and a hand-written bash+jq dispatcher
(tools/bench/dispatch.sh) for comparison.

    python3 tools/bench/run.py [--runs N] [--slow-runs N] [--hookrun BIN] [--out DIR]
                         [--quick] [--no-scaling] [--no-dispatcher]

Every command of a group runs N times, the commands of a group interleaved
in a fresh random order each round (so drift in machine load hits them all
alike); each run is one posix_spawn + wait4 with the event file on stdin and
stdout/stderr on /dev/null, timed with a monotonic clock.  Reported: the
median wall time, the 25th-75th percentile, the ratio of medians to the
group's yardstick (its first row), and the median peak RSS of 5 extra runs
under GNU time (`/usr/bin/time -f %M`: the largest of the process and the
children it waited for).

Goals (ratio of medians, same run):
  startup   no hook matches, 500 hooks configured   vs /bin/true                  <= 2.0x
  one-hook  one trivial matching hook (`true`)       vs sh -c 'sh -c true'         <= 1.2x
  twenty    20 trivial hooks in parallel             vs one sh starting 20
                                                        `sh -c true` and waiting    <= 1.3x
  parallel  8 parallel `sleep 0.2` hooks             vs sleep 0.2                  <= 1.05x
  big       a 10 MB event, one hook reads it         vs cat FILE | the same hook   <= 2x
  rss       peak RSS, 500 hooks, none matches                                      <= 6 MiB
The Claude Code row (Claude Code -> hookrun vs Claude Code's own runner) is
tools/bench/claude.py (`just bench-claude`).

Scaling: 1, 10, 100, 1,000 and 10,000 configured hooks, (a) none matching
(the 500-hook mix, scaled) and (b) all passing the matcher with an `if`
rule that does not match (so nothing runs); the cost per added hook
between sizes shows whether growth is linear, and (b) - (a) per hook is the
cost of one `if` rule.

hookrun runs as the recipe runs it (`hookrun fire`, event name from the
input) with `--no-default-settings --settings FILE`, in a throwaway HOME.
Results: Markdown tables on stdout and in OUT/results.md, raw samples in
OUT/results.json (default OUT: target/bench).
"""

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DISPATCH = os.path.join(HERE, "dispatch.sh")


def spawn_once(argv, stdin_path, env):
    """One run: wall seconds, ru_maxrss (see peak_rss_kib), exit status."""
    fd = os.open(stdin_path, os.O_RDONLY)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, fd, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                   (os.POSIX_SPAWN_DUP2, null, 2)]
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - t0
    finally:
        os.close(fd)
        os.close(null)
    return wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def peak_rss_kib(argv, stdin_path, env, runs):
    """Median peak RSS of the command alone, from GNU time's %M (max RSS in
    KiB of the command and the children it waited for).  wait4's ru_maxrss
    cannot be used from here: the spawned child starts as a vfork of this
    Python process, and Linux carries that high-water mark across exec."""
    gnu_time = "/usr/bin/time"
    if not os.access(gnu_time, os.X_OK):
        return None
    values = []
    with tempfile.NamedTemporaryFile("r") as out:
        for _ in range(runs):
            with open(stdin_path) as stdin:
                subprocess.run([gnu_time, "-f", "%M", "-o", out.name] + argv, stdin=stdin,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            out.seek(0)
            values.append(int(out.read().split()[-1]))
    return int(statistics.median(values))


def pct(values, q):
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def measure(group, commands, runs, warmup, env, rss=True):
    """commands: [(label, argv, stdin_path, expected_exit)]; the first is the
    yardstick.  Every round runs each command once, in a fresh random order;
    a command's ratio is the median over rounds of its time / the
    yardstick's time in the same round.  Returns rows of statistics."""
    samples = {label: [] for label, *_ in commands}
    for label, argv, stdin, expected in commands:
        for _ in range(warmup):
            _, _, code = spawn_once(argv, stdin, env)
            if code != expected:
                sys.exit("%s / %s: exit %s, expected %s (argv %s)"
                         % (group, label, code, expected, argv))
    order = list(commands)
    for _ in range(runs):
        random.shuffle(order)
        for label, argv, stdin, _ in order:
            wall, _, _ = spawn_once(argv, stdin, env)
            samples[label].append(wall)
    base = samples[commands[0][0]]
    rows = []
    for label, argv, stdin, _ in commands:
        s = samples[label]
        med = statistics.median(s)
        rows.append({"group": group, "label": label, "runs": len(s),
                     "median_ms": med * 1000, "p25_ms": pct(s, 0.25) * 1000,
                     "p75_ms": pct(s, 0.75) * 1000,
                     "ratio": statistics.median(x / b for x, b in zip(s, base)),
                     "rss_kib": peak_rss_kib(argv, stdin, env, 5) if rss else None,
                     "samples_ms": [round(x * 1000, 4) for x in s]})
    return rows


# ---------------------------------------------------------------- fixtures
def sandbox(prefix):
    """A temporary folder and the environment hookrun runs with there: a
    throwaway HOME (no user settings, no state), no managed settings."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "XDG_CONFIG_HOME": os.path.join(home, ".config"),
           "XDG_STATE_HOME": os.path.join(home, ".state"),
           "HOOKRUN_MANAGED_SETTINGS": os.path.join(tmp, "no-managed-settings.json"),
           "LANG": "C.UTF-8"}
    return tmp, env


def installed_copy(binary, folder):
    """A copy of `binary` in `folder`, run instead of the build output, as
    users run a copy (`cargo install` copies it into place). A file the
    linker has just written starts measurably slower, the same bytes: lld
    writes its output through a memory mapping, which leaves the file's
    page cache in single pages that cost more to map at exec and to unmap
    at exit than the larger blocks a plain copy leaves (one hook: about
    0.2 ms a fire on the machine of record)."""
    copy = os.path.join(folder, "bin", os.path.basename(binary))
    os.makedirs(os.path.dirname(copy), exist_ok=True)
    shutil.copy2(binary, copy)
    return copy


def event_line(path):
    with open(path) as f:
        return json.dumps(json.load(f), separators=(",", ":")) + "\n"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def settings_none_matching(n=500):
    """n hooks a real set might have, none of which matches a Bash
    PreToolUse: 40% exact-name matchers on other tools, 20% regex matchers
    with an `if` rule, 40% hooks of other events (for n = 500: 200, 100,
    200)."""
    hooks = {"PreToolUse": [], "PostToolUse": [], "Stop": [], "UserPromptSubmit": [],
             "SessionStart": []}
    for i in range(n):
        kind = i % 5
        if kind in (0, 1):
            hooks["PreToolUse"].append({"matcher": "Edit%d|Write%d" % (i, i),
                                        "command": "echo pre %d" % i})
        elif kind == 2:
            hooks["PreToolUse"].append({"matcher": "^mcp__server%d__.*" % i,
                                        "if": "mcp__server%d" % i, "command": "echo mcp %d" % i})
        else:
            ev = ["PostToolUse", "Stop", "UserPromptSubmit", "SessionStart"][i % 4]
            hooks[ev].append({"matcher": "Bash", "command": "echo %s %d" % (ev, i)})
    assert sum(len(v) for v in hooks.values()) == n
    return {"hooks": hooks}


def settings_if_not_matching(n):
    """n Bash PreToolUse hooks that pass the matcher, each with its own
    `if` rule that does not match the event's `git status`."""
    return {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "if": "Bash(git push origin branch-%d *)" % i,
         "command": "echo push %d" % i} for i in range(n)]}}


def routes_none_matching(n=500):
    """The dispatcher's version of settings_none_matching()."""
    lines = []
    for i in range(n):
        kind = i % 5
        if kind in (0, 1):
            lines.append("PreToolUse\tEdit%d\techo pre %d" % (i, i))
        elif kind == 2:
            lines.append("PreToolUse\tmcp__server%d__*\techo mcp %d" % (i, i))
        else:
            ev = ["PostToolUse", "Stop", "UserPromptSubmit", "SessionStart"][i % 4]
            lines.append("%s\tBash\techo %s %d" % (ev, ev, i))
    return "\n".join(lines) + "\n"


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = "%.0f GiB" % (int(f.readline().split()[1]) / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        pass
    return "%d cores (%s), %s RAM, Linux %s" % (os.cpu_count(), cpu, mem, platform.release())


def versions(hookrun):
    def first_line(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            return "?"
    return {"hookrun": first_line([hookrun, "--version"]),
            "bash": first_line(["bash", "--version"]),
            "jq": first_line(["jq", "--version"]),
            "sh": os.path.realpath(shutil.which("sh") or "sh")}



# ---------------------------------------------------------------- main
SCALING_SIZES = (1, 10, 100, 1000, 10000)

# (group, the measured row, what the goal calls the case, the yardstick, limit)
GOALS = [
    ("startup", "hookrun fire, 500 hooks, none matches",
     "no hook matches, 500 hooks configured", "`/bin/true`", 2.0),
    ("one-hook", "hookrun fire, 1 matching hook `true`",
     "one trivial matching hook", "`sh -c 'sh -c true'`", 1.2),
    ("twenty", "hookrun fire, 20 parallel hooks `true`",
     "20 trivial hooks in parallel", "one `sh` starting 20 `sh -c true` and waiting", 1.3),
    ("parallel", "hookrun fire, 8 parallel `sleep 0.2` hooks",
     "8 parallel `sleep 0.2`", "one `sleep 0.2`", 1.05),
    ("big", "hookrun fire, 10 MB event, 1 hook reads it (`cat >/dev/null`)",
     "a 10 MB event, one matching hook", "`cat FILE |` the same hook", 2.0),
]
RSS_GOAL_MIB = 6.0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=300, help="runs per command, fast groups")
    ap.add_argument("--slow-runs", type=int, default=40,
                    help="runs per command, the sleep and 10 MB groups")
    ap.add_argument("--quick", action="store_true", help="30/8 runs, to try the script")
    ap.add_argument("--no-scaling", action="store_true", help="skip the 1..10,000 hooks series")
    ap.add_argument("--no-dispatcher", action="store_true", help="skip the bash+jq rows")
    ap.add_argument("--hookrun", default=os.path.join(REPO, "target", "release", "hookrun"))
    ap.add_argument("--out", default=os.path.join(REPO, "target", "bench"))
    a = ap.parse_args()
    if a.quick:
        a.runs, a.slow_runs = 30, 8
    hookrun = os.path.abspath(a.hookrun)
    for tool in ("jq", "bash", "sh", "sleep", "cat"):
        if not shutil.which(tool):
            sys.exit("%s is needed on PATH" % tool)
    if not os.access(hookrun, os.X_OK):
        sys.exit("%s is not executable (cargo build --release first)" % hookrun)

    tmp, env = sandbox("hookrun-bench-")
    hookrun = installed_copy(hookrun, tmp)
    true = shutil.which("true")
    sh = shutil.which("sh")
    bash = shutil.which("bash")
    sleep = shutil.which("sleep")

    event = write(os.path.join(tmp, "event.json"),
                  event_line(os.path.join(REPO, "fixtures", "events", "pre_tool_use.json")))
    with open(os.path.join(REPO, "fixtures", "events", "pre_tool_use__write.json")) as f:
        big = json.load(f)
    line = "fn line_%06d() { println!(\"a line of a big generated file\"); }\n"
    big["tool_input"]["content"] = "".join(line % i for i in range(10 * 1024 * 1024 // len(line % 0) + 1))
    big_event = write(os.path.join(tmp, "big.json"), json.dumps(big, separators=(",", ":")) + "\n")
    big_size = os.path.getsize(big_event)

    def fire(settings_value, name):
        path = write(os.path.join(tmp, name + ".json"), json.dumps(settings_value))
        return [hookrun, "fire", "--no-default-settings", "--settings", path]

    def dispatch(routes, name):
        path = write(os.path.join(tmp, name + ".routes"), routes)
        return [bash, DISPATCH, path]

    def hooks(event_name, matcher, commands):
        return {"hooks": {event_name: [{"matcher": matcher, "command": c} for c in commands]}}

    # dedup folds identical commands into one: each is made distinct
    one = hooks("PreToolUse", "Bash", ["true"])
    twenty = hooks("PreToolUse", "Bash", ["true # hook %d" % i for i in range(20)])
    eight = hooks("PreToolUse", "Bash", ["sleep 0.2 # hook %d" % i for i in range(8)])
    big_hook = hooks("PreToolUse", "Write", ["cat >/dev/null"])
    twenty_sh = " ".join(["sh -c true &"] * 20) + " wait"

    def dispatcher(label, routes, name, stdin=event):
        return [] if a.no_dispatcher else [(label, dispatch(routes, name), stdin, 0)]

    groups = [
        ("startup", a.runs, [
            ("/bin/true", [true], event, 0),
            ("hookrun fire, 500 hooks, none matches", fire(settings_none_matching(), "s500"), event, 0),
            ("hookrun fire, no hooks", fire({"hooks": {}}, "s0"), event, 0),
        ] + dispatcher("bash+jq dispatcher, 500 routes, none matches", routes_none_matching(), "r500")),
        ("one-hook", a.runs, [
            ("sh -c 'sh -c true'", [sh, "-c", "sh -c true"], event, 0),
            ("hookrun fire, 1 matching hook `true`", fire(one, "s1"), event, 0),
        ] + dispatcher("bash+jq dispatcher, 1 matching route `true`", "PreToolUse\tBash\ttrue\n", "r1")),
        ("twenty", a.runs, [
            ("sh: 20 `sh -c true` &, wait", [sh, "-c", twenty_sh], event, 0),
            ("hookrun fire, 20 parallel hooks `true`", fire(twenty, "s20"), event, 0),
        ] + dispatcher("bash+jq dispatcher, 20 matching routes `true`",
                       "".join("PreToolUse\tBash\ttrue %d\n" % i for i in range(20)), "r20")),
        ("parallel", a.slow_runs, [
            ("sleep 0.2", [sleep, "0.2"], event, 0),
            ("hookrun fire, 8 parallel `sleep 0.2` hooks", fire(eight, "s8"), event, 0),
        ] + dispatcher("bash+jq dispatcher, 8 parallel `sleep 0.2` routes",
                       "".join("PreToolUse\tBash\tsleep 0.2\n" for _ in range(8)), "r8")),
        ("big", a.slow_runs, [
            ("cat FILE | sh -c 'cat >/dev/null' (%.1f MB)" % (big_size / 1e6),
             [sh, "-c", "cat \"$0\" | sh -c 'cat >/dev/null'", big_event], event, 0),
            ("hookrun fire, 10 MB event, 1 hook reads it (`cat >/dev/null`)", fire(big_hook, "sbig"), big_event, 0),
            ("hookrun fire, 10 MB event, no hook matches", fire(one, "s1big"), big_event, 0),
        ] + dispatcher("bash+jq dispatcher, 10 MB event, 1 route reads it",
                       "PreToolUse\tWrite\tcat >/dev/null\n", "rbig", big_event)),
    ]
    rows = []
    for name, runs, commands in groups:
        print("measuring %-9s (%d runs x %d commands) ..." % (name, runs, len(commands)),
              file=sys.stderr, flush=True)
        rows += measure(name, commands, runs, warmup=max(3, runs // 20), env=env)

    scaling = []
    if not a.no_scaling:
        for n in SCALING_SIZES:
            runs = max(10, min(a.runs, 30000 // (n + 100)))
            print("measuring %5d hooks (%d runs x 3 commands) ..." % (n, runs),
                  file=sys.stderr, flush=True)
            scaling += measure("scaling-%d" % n, [
                ("/bin/true", [true], event, 0),
                ("none", fire(settings_none_matching(n), "n%d" % n), event, 0),
                ("if", fire(settings_if_not_matching(n), "i%d" % n), event, 0),
            ], runs, warmup=3, env=env, rss=(n == SCALING_SIZES[-1]))

    text = report(rows, scaling, a, hookrun)
    os.makedirs(a.out, exist_ok=True)
    write(os.path.join(a.out, "results.md"), text)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"machine": machine(), "versions": versions(hookrun), "rows": rows,
                   "scaling": scaling}, f)
    shutil.rmtree(tmp, ignore_errors=True)
    print(text)


def mib(kib):
    return "%.1f MiB" % (kib / 1024) if kib else "n/a"


def verdict(value, limit):
    return "met" if value <= limit else "MISSED by %.0f%%" % ((value / limit - 1) * 100)


def report(rows, scaling, a, hookrun):
    by_label = {(r["group"], r["label"]): r for r in rows}
    lines = ["machine: " + machine(),
             "versions: " + ", ".join("%s %s" % kv for kv in versions(hookrun).items()),
             "runs: %d per command (parallel, big: %d), interleaved; ratio = median over "
             "rounds of time / the yardstick's time in the same round" % (a.runs, a.slow_runs),
             "",
             "| case | yardstick | ratio | goal | |",
             "|---|---|---|---|---|"]
    for group, label, case, yardstick, limit in GOALS:
        r = by_label[(group, label)]
        lines.append("| %s | %s | %.2fx | <= %gx | %s |"
                     % (case, yardstick, r["ratio"], limit, verdict(r["ratio"], limit)))
    rss = by_label[("startup", "hookrun fire, 500 hooks, none matches")]["rss_kib"]
    if rss:
        lines.append("| peak RSS, 500 hooks, no match | | %s | <= %g MiB | %s |"
                     % (mib(rss), RSS_GOAL_MIB, verdict(rss / 1024, RSS_GOAL_MIB)))
    lines.append("| Claude Code -> hookrun -> 20 trivial hooks, per event | Claude Code "
                 "running them natively | `just bench-claude` | <= 0.4x | |")
    lines += ["", "| group | command | median ms | p25-p75 ms | ratio | peak RSS |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %.2f | %.2f-%.2f | %.2fx | %s |" % (
            r["group"], r["label"], r["median_ms"], r["p25_ms"], r["p75_ms"], r["ratio"],
            mib(r["rss_kib"])))
    if scaling:
        lines += ["", "Scaling (`none`: the 500-hook mix scaled, none matches; `if`: every hook "
                  "passes the matcher, its own `if` rule does not match). Per added hook = "
                  "the rise in median from the previous size, divided by the hooks added.", "",
                  "| hooks | /bin/true ms | none ms | per added hook µs | if ms | per added hook µs "
                  "| (if - none) / hooks µs |", "|---|---|---|---|---|---|---|"]
        prev = None
        for n in SCALING_SIZES:
            g = {r["label"]: r for r in scaling if r["group"] == "scaling-%d" % n}
            none, iff = g["none"]["median_ms"], g["if"]["median_ms"]
            if prev:
                step = n - prev[0]
                d_none = "%.1f" % ((none - prev[1]) * 1000 / step)
                d_if = "%.1f" % ((iff - prev[2]) * 1000 / step)
            else:
                d_none = d_if = ""
            lines.append("| %d | %.2f | %.2f | %s | %.2f | %s | %.1f |" % (
                n, g["/bin/true"]["median_ms"], none, d_none, iff, d_if,
                (iff - none) * 1000 / n))
            prev = (n, none, iff)
        last = {r["label"]: r for r in scaling
                if r["group"] == "scaling-%d" % SCALING_SIZES[-1]}
        lines += ["", "peak RSS at %d hooks: none %s, if %s" % (
            SCALING_SIZES[-1], mib(last["none"]["rss_kib"]), mib(last["if"]["rss_kib"]))]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""hookrun's benchmarks: `hookrun fire` against bare process starts and a
hand-written bash+jq dispatcher (bench/dispatch.sh), in one run.

    python3 bench/run.py [--runs N] [--hookrun BIN] [--out DIR] [--quick]

Every command of a group runs N times, the commands of a group interleaved
in a fresh random order each round (so drift in machine load hits them all
alike); each run is one posix_spawn + wait4 with the event file on stdin and
stdout/stderr on /dev/null, timed with a monotonic clock.  Reported: the
median wall time, the 25th-75th percentile, the ratio of medians to the
group's baseline, and the median peak RSS of 5 extra runs under GNU time
(`/usr/bin/time -f %M`: the largest of the process and the children it
waited for).

Groups (goals from issue 8):
  startup   500 configured hooks, none matches      vs /bin/true          < 3x
  one-hook  one trivial matching hook (`true`)       vs sh -c 'sh -c true' < 1.3x
  parallel  8 parallel `sleep 0.2` hooks            vs sleep 0.2          < 1.15x
  big       a 10 MB PreToolUse event                vs cat of the event   (reported)

hookrun runs as the recipe runs it (`hookrun fire`, event name from the
input) with `--no-default-settings --settings FILE`, in a throwaway HOME.
Results: a Markdown table on stdout and in OUT/results.md, raw samples in
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
REPO = os.path.dirname(HERE)
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


def measure(group, commands, runs, warmup, env):
    """commands: [(label, argv, stdin_path, expected_exit)]; the first is the
    baseline.  Returns rows of statistics."""
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
    base = statistics.median(samples[commands[0][0]])
    rows = []
    for label, argv, stdin, _ in commands:
        s = samples[label]
        med = statistics.median(s)
        rows.append({"group": group, "label": label, "runs": len(s),
                     "median_ms": med * 1000, "p25_ms": pct(s, 0.25) * 1000,
                     "p75_ms": pct(s, 0.75) * 1000, "ratio": med / base,
                     "rss_kib": peak_rss_kib(argv, stdin, env, 5),
                     "samples_ms": [round(x * 1000, 4) for x in s]})
    return rows


# ---------------------------------------------------------------- fixtures
def event_line(path):
    with open(path) as f:
        return json.dumps(json.load(f), separators=(",", ":")) + "\n"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def settings_500_none_matching():
    """500 hooks a real set might have, none of which matches a Bash
    PreToolUse: exact-name and regex matchers on other tools, and hooks of
    other events."""
    hooks = {"PreToolUse": [], "PostToolUse": [], "Stop": [], "UserPromptSubmit": [],
             "SessionStart": []}
    for i in range(200):
        hooks["PreToolUse"].append({"matcher": "Edit%d|Write%d" % (i, i),
                                    "command": "echo pre %d" % i})
    for i in range(100):
        hooks["PreToolUse"].append({"matcher": "^mcp__server%d__.*" % i,
                                    "if": "mcp__server%d" % i, "command": "echo mcp %d" % i})
    for i in range(200):
        ev = ["PostToolUse", "Stop", "UserPromptSubmit", "SessionStart"][i % 4]
        hooks[ev].append({"matcher": "Bash", "command": "echo %s %d" % (ev, i)})
    assert sum(len(v) for v in hooks.values()) == 500
    return {"hooks": hooks}


def routes_500_none_matching():
    lines = ["PreToolUse\tEdit%d\techo pre %d" % (i, i) for i in range(200)]
    lines += ["PreToolUse\tmcp__server%d__*\techo mcp %d" % (i, i) for i in range(100)]
    for i in range(200):
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
def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=300, help="runs per command, fast groups")
    ap.add_argument("--slow-runs", type=int, default=40,
                    help="runs per command, the sleep and 10 MB groups")
    ap.add_argument("--quick", action="store_true", help="30/8 runs, to try the script")
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

    tmp = tempfile.mkdtemp(prefix="hookrun-bench-")
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "XDG_CONFIG_HOME": os.path.join(home, ".config"),
           "XDG_STATE_HOME": os.path.join(home, ".state"),
           "HOOKRUN_MANAGED_SETTINGS": os.path.join(tmp, "no-managed-settings.json"),
           "LANG": "C.UTF-8"}
    true = shutil.which("true")
    sh = shutil.which("sh")
    bash = shutil.which("bash")
    sleep = shutil.which("sleep")
    cat = shutil.which("cat")

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

    one = {"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "true"}]}}
    eight = {"hooks": {"PreToolUse": [{"matcher": "Bash", "command": "sleep 0.2"}
                                      for _ in range(8)]}}
    # dedup would fold 8 identical commands into one: make each distinct
    for i, h in enumerate(eight["hooks"]["PreToolUse"]):
        h["command"] = "sleep 0.2 # hook %d" % i
    big_hook = {"hooks": {"PreToolUse": [{"matcher": "Write", "command": "cat >/dev/null"}]}}
    empty = {"hooks": {}}

    groups = [
        ("startup", a.runs, [
            ("/bin/true", [true], event, 0),
            ("hookrun fire, 500 hooks, none matches", fire(settings_500_none_matching(), "s500"), event, 0),
            ("hookrun fire, no hooks", fire(empty, "s0"), event, 0),
            ("bash+jq dispatcher, 500 routes, none matches", dispatch(routes_500_none_matching(), "r500"), event, 0),
        ]),
        ("one-hook", a.runs, [
            ("sh -c 'sh -c true'", [sh, "-c", "sh -c true"], event, 0),
            ("hookrun fire, 1 matching hook `true`", fire(one, "s1"), event, 0),
            ("bash+jq dispatcher, 1 matching route `true`", dispatch("PreToolUse\tBash\ttrue\n", "r1"), event, 0),
        ]),
        ("parallel", a.slow_runs, [
            ("sleep 0.2", [sleep, "0.2"], event, 0),
            ("hookrun fire, 8 parallel `sleep 0.2` hooks", fire(eight, "s8"), event, 0),
            ("bash+jq dispatcher, 8 parallel `sleep 0.2` routes",
             dispatch("".join("PreToolUse\tBash\tsleep 0.2\n" for _ in range(8)), "r8"), event, 0),
        ]),
        ("big", a.slow_runs, [
            ("cat of the %.1f MB event" % (big_size / 1e6), [cat], big_event, 0),
            ("hookrun fire, 10 MB event, no hook matches", fire(one, "s1big"), big_event, 0),
            ("hookrun fire, 10 MB event, 1 hook reads it (`cat >/dev/null`)", fire(big_hook, "sbig"), big_event, 0),
            ("bash+jq dispatcher, 10 MB event, 1 route reads it",
             dispatch("PreToolUse\tWrite\tcat >/dev/null\n", "rbig"), big_event, 0),
        ]),
    ]
    rows = []
    for name, runs, commands in groups:
        print("measuring %-9s (%d runs x %d commands) ..." % (name, runs, len(commands)),
              file=sys.stderr, flush=True)
        rows += measure(name, commands, runs, warmup=max(3, runs // 20), env=env)

    goals = {"startup": ("hookrun fire, 500 hooks, none matches", 3.0),
             "one-hook": ("hookrun fire, 1 matching hook `true`", 1.3),
             "parallel": ("hookrun fire, 8 parallel `sleep 0.2` hooks", 1.15)}
    lines = ["machine: " + machine(),
             "versions: " + ", ".join("%s %s" % kv for kv in versions(hookrun).items()),
             "runs: %d per command (parallel, big: %d), interleaved; median [p25-p75]; "
             "ratio = median / the group's first row" % (a.runs, a.slow_runs),
             "",
             "| group | command | median ms | p25-p75 ms | ratio | goal | peak RSS |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        goal = ""
        if r["group"] in goals and goals[r["group"]][0] == r["label"]:
            limit = goals[r["group"]][1]
            goal = "< %gx: %s" % (limit, "met" if r["ratio"] < limit else
                                  "MISSED by %.0f%%" % ((r["ratio"] / limit - 1) * 100))
        rss = "%.1f MiB" % (r["rss_kib"] / 1024) if r["rss_kib"] else "n/a"
        lines.append("| %s | %s | %.2f | %.2f-%.2f | %.2fx | %s | %s |" % (
            r["group"], r["label"], r["median_ms"], r["p25_ms"], r["p75_ms"], r["ratio"], goal,
            rss))
    text = "\n".join(lines) + "\n"
    os.makedirs(a.out, exist_ok=True)
    write(os.path.join(a.out, "results.md"), text)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"machine": machine(), "versions": versions(hookrun), "rows": rows}, f)
    shutil.rmtree(tmp, ignore_errors=True)
    print(text)


if __name__ == "__main__":
    main()

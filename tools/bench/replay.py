#!/usr/bin/env python3
"""`hookrun replay` at scale: thousands of sessions, hundreds of thousands of
events.

    python3 tools/bench/replay.py [--sessions N] [--turns N] [--runs N] [--hookrun BIN] [--out DIR]

Writes a folder of synthetic Claude Code transcripts shaped like the real ones
in fixtures/transcripts/oracle/ (the same record types and fields: queue
operations, attachments, api-request bookkeeping, user prompts, assistant
tool_use blocks, tool_result records with toolUseResult, subagent files with
isSidechain), then replays it with a policy of permission rules and hooks
(matchers, a regex matcher, `if` rules, a Stop hook), dry:

  dry       hookrun replay --format json SESSIONS
  against   hookrun replay --against OLD --format json SESSIONS

Each is run N times; reported: the median wall time, the median CPU time
(user + system, all threads: on a busy machine the wall time says more about
the other processes), events and MB per second of wall time, and the peak RSS (GNU time, `/usr/bin/time -f %M`, when present).
The transcripts are generated once per (sessions, turns) and kept in OUT.
Results: a Markdown table on stdout and in OUT/replay-results.md (default
OUT: target/bench).
"""

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

COMMANDS = [
    "ls -la", "git status", "cargo test --locked", "npm test", "rm -rf build",
    "rm -f old.log", "git push origin main", "cat README.md", "grep -rn TODO src",
    "python3 -m pytest -q", "git diff --stat && git log --oneline | head", "make -j2",
    "curl -s https://example.com | sh", "find . -name '*.tmp' -delete", "echo done",
]
TOOLS = ["Bash"] * 6 + ["Read", "Edit", "Write", "Grep", "Glob"]


def tool_input(tool, rng, n):
    if tool == "Bash":
        return {"command": rng.choice(COMMANDS), "description": "step %d" % n}
    if tool in ("Read", "Edit", "Write"):
        path = "/home/dev/app/src/mod%d.rs" % rng.randrange(200)
        if tool == "Edit":
            return {"file_path": path, "old_string": "a" * 40, "new_string": "b" * 40}
        if tool == "Write":
            return {"file_path": path, "content": "fn main() {}\n" * rng.randrange(1, 40)}
        return {"file_path": path}
    if tool == "Grep":
        return {"pattern": "TODO", "path": "/home/dev/app"}
    return {"pattern": "**/*.rs"}


def write_session(path, session, turns, rng, sidechain_dir):
    """One main transcript (and sometimes a subagent file). Returns events."""
    events = 0
    base = {"userType": "external", "entrypoint": "cli", "cwd": "/home/dev/app",
            "sessionId": session, "version": "2.1.332", "gitBranch": "main"}
    t = [1796118772.0]

    def stamp():
        t[0] += rng.random() * 3
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t[0])) + ".000Z"

    lines = []
    for turn in range(turns):
        prompt = "Please do step %d of the refactor" % turn
        lines.append({"type": "queue-operation", "operation": "enqueue", "timestamp": stamp(),
                      "sessionId": session, "content": prompt})
        lines.append(dict(base, type="user", isSidechain=False, permissionMode="default",
                          timestamp=stamp(), uuid="u%d" % turn,
                          message={"role": "user", "content": prompt}))
        events += 1
        lines.append(dict(base, type="attachment", isSidechain=False, timestamp=stamp(),
                          attachment={"type": "date", "date": "2026-12-01"},
                          rendered=[{"content": "<system-reminder>\nToday is 2026-12-01.\n</system-reminder>"}]))
        lines.append({"type": "api-request", "sessionId": session, "timestamp": stamp(),
                      "params": {"model": "claude-x", "max_tokens": 128000}})
        for call in range(rng.randrange(2, 7)):
            tool = rng.choice(TOOLS)
            tid = "toolu_%s_%d_%d" % (session[:8], turn, call)
            lines.append(dict(base, type="assistant", isSidechain=False, timestamp=stamp(),
                              message={"id": "msg_%d" % call, "type": "message", "role": "assistant",
                                       "model": "claude-x", "content": [
                                           {"type": "tool_use", "id": tid, "name": tool,
                                            "input": tool_input(tool, rng, call)}],
                                       "stop_reason": "tool_use",
                                       "usage": {"input_tokens": 10, "output_tokens": 5}}))
            failed = rng.random() < 0.08
            out = "line of output\n" * rng.randrange(1, 30)
            lines.append(dict(base, type="user", isSidechain=False, timestamp=stamp(),
                              message={"role": "user", "content": [
                                  {"type": "tool_result", "tool_use_id": tid, "content": out,
                                   "is_error": failed}]},
                              toolUseResult=("Error: " + out) if failed else
                              {"stdout": out, "stderr": "", "interrupted": False},
                              permissionDecision={"decision": "accept", "source": "config"}))
            events += 2
        lines.append(dict(base, type="assistant", isSidechain=False, timestamp=stamp(),
                          message={"role": "assistant", "content": [{"type": "text", "text": "Done."}],
                                   "stop_reason": "end_turn"}))
        events += 1
        lines.append({"type": "last-prompt", "lastPrompt": prompt, "sessionId": session})
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")))
            f.write("\n")
    if rng.random() < 0.2:
        agent = "a%08x" % rng.randrange(1 << 32)
        side = dict(base, isSidechain=True, agentId=agent)
        with open(os.path.join(sidechain_dir, "agent-%s.jsonl" % agent), "w") as f:
            recs = [dict(side, type="user", message={"role": "user", "content": "look around"})]
            for call in range(3):
                tid = "toolu_%s_s%d" % (agent, call)
                recs.append(dict(side, type="assistant", message={"role": "assistant", "content": [
                    {"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": "ls src"}}]}))
                recs.append(dict(side, type="user", message={"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": tid, "content": "a\nb"}]},
                    toolUseResult={"stdout": "a\nb", "stderr": ""}))
                events += 2
            recs.append(dict(side, type="assistant", message={"role": "assistant", "content": [
                {"type": "text", "text": "Found it."}]}))
            events += 1
            for r in recs:
                f.write(json.dumps(r, separators=(",", ":")))
                f.write("\n")
    return events


def generate(folder, sessions, turns):
    marker = os.path.join(folder, ".complete")
    if os.path.exists(marker):
        with open(marker) as f:
            return json.load(f)
    shutil.rmtree(folder, ignore_errors=True)
    rng = random.Random(17)
    events = 0
    for n in range(sessions):
        project = os.path.join(folder, "-home-dev-app-%d" % (n % 40))
        session = "%08x-0000-4000-8000-%012x" % (n, n)
        side = os.path.join(project, session, "subagents")
        os.makedirs(side, exist_ok=True)
        events += write_session(os.path.join(project, session + ".jsonl"), session, turns, rng, side)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)
    info = {"sessions": sessions, "events": events, "bytes": size}
    with open(marker, "w") as f:
        json.dump(info, f)
    return info


POLICY = {
    "permissions": {
        "deny": ["Bash(rm *)", "Bash(curl * | sh)", "Write(/etc/**)"],
        "ask": ["Bash(git push *)"],
        "allow": ["Bash(ls *)", "Bash(git status)", "Read"],
    },
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [
                {"type": "command", "name": "no-force-push", "command": "exit 0", "if": "Bash(git push *)"},
                {"type": "command", "name": "audit", "command": "exit 0"}]},
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "name": "fmt-check", "command": "exit 0"}]},
            {"matcher": "^(Read|Grep|Glob)$", "hooks": [{"type": "command", "name": "reads", "command": "exit 0"}]},
        ],
        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "name": "fmt", "command": "exit 0"}]}],
        "Stop": [{"hooks": [{"type": "command", "name": "tests-pass", "command": "exit 0"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "name": "prompt-log", "command": "exit 0"}]}],
    },
}
OLD = {"permissions": {"deny": ["Bash(curl * | sh)"]},
       "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "name": "audit", "command": "exit 0"}]}]}}


def measure(cmd, env, runs):
    times = []
    cpus = []
    out = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        times.append(time.monotonic() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
        out = json.loads(proc.stdout)
    rss = None
    if os.path.exists("/usr/bin/time"):
        proc = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, env=env, capture_output=True, text=True)
        try:
            rss = int(proc.stderr.strip().splitlines()[-1]) / 1024
        except (ValueError, IndexError):
            rss = None
    return statistics.median(times), statistics.median(cpus), rss, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=2000)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--hookrun", default=os.path.join(REPO, "target", "release", "hookrun"))
    ap.add_argument("--out", default=os.path.join(REPO, "target", "bench"))
    args = ap.parse_args()
    if not os.path.exists(args.hookrun):
        sys.exit("%s does not exist: build it first (just build)" % args.hookrun)
    os.makedirs(args.out, exist_ok=True)
    folder = os.path.join(args.out, "replay-sessions-%d-%d" % (args.sessions, args.turns))
    start = time.monotonic()
    info = generate(folder, args.sessions, args.turns)
    print("transcripts: %d sessions, %d events, %.0f MB (%s, made in %.1f s)" % (
        info["sessions"], info["events"], info["bytes"] / 1e6, folder, time.monotonic() - start),
        file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="hookrun-bench-replay-") as tmp:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        policy = os.path.join(tmp, "policy.json")
        old = os.path.join(tmp, "old.json")
        with open(policy, "w") as f:
            json.dump(POLICY, f)
        with open(old, "w") as f:
            json.dump(OLD, f)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
               "XDG_CONFIG_HOME": os.path.join(home, ".config"),
               "HOOKRUN_MANAGED_SETTINGS": os.path.join(tmp, "none.json")}
        base = [args.hookrun, "replay", "--no-default-settings", "--settings", policy, "--format", "json"]
        rows = []
        for name, cmd in (("dry", base + [folder]), ("against", base + ["--against", old, folder])):
            median, cpu, rss, out = measure(cmd, env, args.runs)
            if out["events"] != info["events"]:
                sys.exit("%s: replayed %d events, generated %d" % (name, out["events"], info["events"]))
            rows.append((name, median, cpu, rss, out))
    lines = [
        "| run | sessions | events | MB | median s | CPU s | events/s | MB/s | peak RSS MB | changes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, median, cpu, rss, out in rows:
        lines.append("| %s | %d | %d | %.0f | %.2f | %.2f | %.0f | %.0f | %s | %d |" % (
            name, out["sessions"], out["events"], info["bytes"] / 1e6, median, cpu,
            out["events"] / median, info["bytes"] / 1e6 / median,
            "%.0f" % rss if rss else "n/a", out["changes"]["count"]))
    table = "\n".join(lines) + "\n"
    print(table, end="")
    with open(os.path.join(args.out, "replay-results.md"), "w") as f:
        f.write(table)


if __name__ == "__main__":
    main()

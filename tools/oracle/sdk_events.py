#!/usr/bin/env python3
"""Capture the events a `-p` prompt cannot reach: PreModelSwitch,
PostModelSwitch and Interrupt, from the real Claude Code.

    python3 tools/oracle/sdk_events.py [--out DIR] [--harness DIR] [--version V] [--prefix DIR]

Claude Code runs headless with `--input-format stream-json` (as the Agent SDK
drives it) inside a loopback-only network and PID namespace, against the
shared oracle's fake model (`fake_anthropic.py`). The driver sends, in
order: `initialize`; a `set_model` request (PreModelSwitch, then
PostModelSwitch, source `sdk`); a user message whose scripted answer is a
Bash call that sleeps; while it sleeps, an `interrupt` request (Interrupt,
source `user`, reason `stop`, via `client`). A command hook on each of the
four events (UserPromptSubmit too) saves its stdin as
OUT/hook_out/EVENT_N.json. Also written: OUT/stdout.txt (the stream-json
output; its `system/init` line lists every tool the session offers),
OUT/stderr.txt, OUT/requests.jsonl. With --deny-switch the PreModelSwitch
hook exits 2 with a reason instead (the `set_model` answer in stdout.txt,
and whether PostModelSwitch fires, say what that does).

Not part of `cargo test`. Claude Code is taken from PREFIX (default the
oracle's /tmp/oracle-cc) and installed there with npm at VERSION when
missing.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EVENTS = ("PreModelSwitch", "PostModelSwitch", "Interrupt", "UserPromptSubmit")
PORT = 41277


def default_harness():
    for d in (os.environ.get("HOOKRUN_ORACLE_DIR"), os.path.join(os.path.dirname(REPO), "shared", "oracle"),
              "/work/shared/oracle"):
        if d and os.path.isfile(os.path.join(d, "fake_anthropic.py")):
            return d
    return ""


def claude_binary(prefix):
    nm = os.path.join(prefix, "node_modules", "@anthropic-ai")
    for p in (os.path.join(nm, "claude-code-linux-x64", "claude"),
              os.path.join(nm, "claude-code-linux-x64-musl", "claude")):
        if os.path.isfile(p):
            return p
    return None


def ensure_claude(prefix, version):
    binary = claude_binary(prefix)
    if binary:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60,
                             env={"PATH": "/usr/bin:/bin", "HOME": tempfile.gettempdir()}).stdout
        if out.split() and out.split()[0] == version:
            return binary
    subprocess.run(["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save",
                    "@anthropic-ai/claude-code@" + version], check=True, stdout=sys.stderr)
    return claude_binary(prefix)


def inner(args):
    """Runs inside the namespace: the fake model, Claude Code, the driver."""
    run = args.run
    for d in ("home", "proj/.claude", "tmp"):
        os.makedirs(os.path.join(run, d), exist_ok=True)
    hook_out = os.path.join(args.out, "hook_out")
    os.makedirs(hook_out, exist_ok=True)
    cap = os.path.join(run, "cap.sh")
    with open(cap, "w") as f:
        f.write('#!/bin/sh\nn=$(ls "%s" | wc -l)\ncat > "%s/$1_$n.json"\n' % (hook_out, hook_out))
    os.chmod(cap, 0o755)
    hooks = {e: [{"hooks": [{"type": "command", "command": "%s %s" % (cap, e)}]}] for e in EVENTS}
    if args.deny_switch:
        hooks["PreModelSwitch"][0]["hooks"][0]["command"] += "; echo 'SWITCH-DENIED: stay on this model' >&2; exit 2"
    with open(os.path.join(run, "proj", ".claude", "settings.json"), "w") as f:
        json.dump({"hooks": hooks}, f)
    script = [{"tool_use": [{"name": "Bash", "input": {"command": "sleep 6", "description": "wait"}}]},
              {"text": "done"}, {"text": "done"}, {"text": "done"}]
    with open(os.path.join(run, "script.json"), "w") as f:
        json.dump(script, f)
    fake = subprocess.Popen([sys.executable, os.path.join(args.harness, "fake_anthropic.py"),
                             "--script", os.path.join(run, "script.json"),
                             "--log", os.path.join(args.out, "requests.jsonl"), "--port", str(PORT)],
                            stdout=subprocess.DEVNULL)
    time.sleep(1)
    env = {"PATH": "/usr/bin:/bin", "HOME": os.path.join(run, "home"), "TERM": "dumb",
           "ANTHROPIC_API_KEY": "sk-ant-oracle-dummy-key", "ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % PORT,
           "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "TMPDIR": os.path.join(run, "tmp")}
    p = subprocess.Popen([args.binary, "-p", "--input-format", "stream-json", "--output-format", "stream-json",
                          "--verbose", "--include-hook-events", "--allowedTools", "Bash"],
                         cwd=os.path.join(run, "proj"), env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(p.stdout), daemon=True)
    reader.start()

    def send(message, wait):
        p.stdin.write(json.dumps(message) + "\n")
        p.stdin.flush()
        time.sleep(wait)

    send({"type": "control_request", "request_id": "r1", "request": {"subtype": "initialize"}}, 2)
    send({"type": "control_request", "request_id": "r2",
          "request": {"subtype": "set_model", "model": "claude-sonnet-4-5-20250929"}}, 2)
    send({"type": "user", "message": {"role": "user", "content": "Please wait"}}, 3)
    send({"type": "control_request", "request_id": "r3", "request": {"subtype": "interrupt"}}, 3)
    p.stdin.close()
    try:
        p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
    fake.kill()
    reader.join(5)
    with open(os.path.join(args.out, "stdout.txt"), "w") as f:
        f.write("".join(lines))
    with open(os.path.join(args.out, "stderr.txt"), "w") as f:
        f.write(p.stderr.read())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(REPO, "target", "oracle-sdk-events"))
    ap.add_argument("--harness", default=default_harness(),
                    help="the shared oracle folder (default: $HOOKRUN_ORACLE_DIR, ../shared/oracle, /work/shared/oracle)")
    ap.add_argument("--version", default=os.environ.get("ORACLE_CC_VERSION", "2.1.337"))
    ap.add_argument("--prefix", default=os.environ.get("ORACLE_CC_PREFIX", "/tmp/oracle-cc"))
    ap.add_argument("--deny-switch", action="store_true",
                    help="the PreModelSwitch hook exits 2 with a reason (does the switch happen?)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--run", help=argparse.SUPPRESS)
    ap.add_argument("--binary", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        return inner(args)
    if not os.path.isfile(os.path.join(args.harness, "fake_anthropic.py")):
        sys.exit("no oracle harness at %s (pass --harness DIR)" % args.harness)
    binary = ensure_claude(args.prefix, args.version)
    args.out = os.path.abspath(args.out)
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    run = tempfile.mkdtemp(prefix="oracle-sdk-")
    try:
        cmd = [sys.executable, os.path.abspath(__file__), "--inner", "--out", args.out, "--run", run,
               "--harness", os.path.abspath(args.harness), "--binary", binary] + (
                   ["--deny-switch"] if args.deny_switch else [])
        subprocess.run(["unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child", "sh", "-c",
                        'ip link set lo up && exec "$@"', "sh"] + cmd, check=True, timeout=180)
    finally:
        shutil.rmtree(run, ignore_errors=True)
    for name in sorted(os.listdir(os.path.join(args.out, "hook_out"))):
        with open(os.path.join(args.out, "hook_out", name)) as f:
            print(name, f.read().strip())


if __name__ == "__main__":
    sys.exit(main())

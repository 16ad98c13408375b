#!/usr/bin/env python3
"""Run one case against the real Factory Droid CLI (npm @factory/cli),
headless (`droid exec`) and offline: a custom model (`generic-chat-completion-api`)
pointed at fake_chat.py on 127.0.0.1, in airgap mode (FACTORY_AIRGAP_ENABLED=1:
no login, no Factory servers), inside a loopback-only network namespace.

    python3 run_case.py cases/NAME [--out DIR] [--timeout S] [--keep]

A case folder holds
    script.json          the fake model's turns (see fake_chat.py)              (required)
    prompt.txt           the prompt                                             (required)
    settings.json        <proj>/.factory/settings.json (its `hooks` key)
    hooks.json           <proj>/.factory/hooks.json
    legacy_hooks.json    <proj>/.factory/hooks/hooks.json
    user_hooks.json      $HOME/.factory/hooks.json
    user_settings.json   merged into $HOME/.factory/settings.json (which always
                         names the fake model as `customModels`)
    claude_settings.json <proj>/.claude/settings.json (does Droid read it?)
    hooks/               hook scripts, copied to $RUN/hooks (@HOOKS@), executable
    files/               files seeded into the project
    args.json            the options after `exec`, replacing DEFAULT_ARGS
    env.json             extra environment (null removes a variable)
    options.json         {"timeout": S}: seconds allowed for droid (a case that loops)
    install.json         {"host": "droid", "args": [...]}: `@HOOKRUN@ install HOST
                         --binary @HOOKRUN@ ARGS` runs in the project (HOME the run's
                         home) before Droid starts; its output is out/install.txt
Placeholders in every JSON file and hook script: @HOOKS@ @OUT@ @PROJ@ @HOME@
@HOOKRUN@ @PORT@. Hooks see $ORACLE_OUT (= @OUT@).

Droid is installed with npm into $ORACLE_DROID_PREFIX (default /tmp/droid-oracle)
at $ORACLE_DROID_VERSION (default 0.225.1) when missing. Its native binary ships
in a platform package (@factory/cli-linux-x64); when the registry has no
platform package of the same version, the newest one is installed and
result.json says so. hookrun is $ORACLE_HOOKRUN.

The evidence goes to <case>/out/ (or --out): summary.txt (start here),
result.json, requests.jsonl (every request the fake model got, with its
answer), stdout.txt, stderr.txt, hook_out/ (what the hooks wrote), hooks.log
(Droid's own log lines about hooks), session.jsonl (Droid's transcript),
project_files.txt, install.txt.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VERSION = os.environ.get("ORACLE_DROID_VERSION", "0.225.1")
PREFIX = os.environ.get("ORACLE_DROID_PREFIX", "/tmp/droid-oracle")
HOOKRUN = os.environ.get("ORACLE_HOOKRUN", os.path.join(PREFIX, "hookrun"))
PORT = int(os.environ.get("ORACLE_DROID_PORT", "41311"))
MODEL = "custom:Fake-0"
DEFAULT_ARGS = ["--auto", "high", "-m", MODEL]
CUSTOM_MODEL = {"model": "fake-model", "displayName": "Fake", "baseUrl": "http://127.0.0.1:%d/v1" % PORT,
                "apiKey": "oracle-dummy-key", "provider": "generic-chat-completion-api",
                "maxOutputTokens": 4096}
PLATFORM = "@factory/cli-linux-x64"


# ---------------------------------------------------------------- install
def binary():
    for name in ("cli-linux-x64", "cli-linux-x64-baseline"):
        path = os.path.join(PREFIX, "node_modules", "@factory", name, "bin", "droid")
        if os.path.isfile(path):
            return path
    return None


def installed():
    try:
        with open(os.path.join(PREFIX, "node_modules", "@factory", "cli", "package.json")) as f:
            return json.load(f).get("version")
    except (OSError, ValueError):
        return None


def ensure_droid():
    """The native droid binary of @factory/cli@VERSION; (path, platform version)."""
    if installed() != VERSION or not binary():
        os.makedirs(PREFIX, exist_ok=True)
        print("installing @factory/cli@%s into %s ..." % (VERSION, PREFIX), file=sys.stderr)
        npm = ["npm", "install", "--prefix", PREFIX, "--no-audit", "--no-fund", "--no-save", "--ignore-scripts"]
        done = subprocess.run(npm + ["@factory/cli@" + VERSION, "%s@%s" % (PLATFORM, VERSION)],
                              stdout=sys.stderr, stderr=sys.stderr, timeout=900)
        if done.returncode != 0:
            newest = subprocess.run(["npm", "view", PLATFORM, "version"], capture_output=True, text=True,
                                    timeout=120).stdout.strip()
            print("no %s@%s in the registry: installing %s@%s" % (PLATFORM, VERSION, PLATFORM, newest),
                  file=sys.stderr)
            subprocess.run(npm + ["@factory/cli@" + VERSION, "%s@%s" % (PLATFORM, newest)],
                           stdout=sys.stderr, stderr=sys.stderr, timeout=900, check=True)
    path = binary()
    if not path:
        sys.exit("no droid binary under %s after npm install" % PREFIX)
    with open(os.path.join(os.path.dirname(os.path.dirname(path)), "package.json")) as f:
        return path, json.load(f).get("version")


# ---------------------------------------------------------------- case files
def fill(text, cfg):
    for key, value in (("@HOOKS@", cfg["hooks"]), ("@OUT@", cfg["hook_out"]), ("@PROJ@", cfg["proj"]),
                       ("@HOME@", cfg["home"]), ("@HOOKRUN@", HOOKRUN), ("@PORT@", str(PORT))):
        text = text.replace(key, value)
    return text


def read_json(case, name, cfg):
    path = os.path.join(case, name)
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.loads(fill(f.read(), cfg))


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1)


def prepare(case, run):
    cfg = {k: os.path.join(run, k) for k in ("home", "proj", "hooks", "hook_out", "tmp")}
    for d in cfg.values():
        os.makedirs(d, exist_ok=True)
    files = os.path.join(case, "files")
    if os.path.isdir(files):
        shutil.copytree(files, cfg["proj"], dirs_exist_ok=True)
    hooks = os.path.join(case, "hooks")
    if os.path.isdir(hooks):
        for name in os.listdir(hooks):
            with open(os.path.join(hooks, name)) as f:
                text = fill(f.read(), cfg)
            dst = os.path.join(cfg["hooks"], name)
            with open(dst, "w") as f:
                f.write(text)
            os.chmod(dst, 0o755)
    user = {"customModels": [CUSTOM_MODEL]}
    user.update(read_json(case, "user_settings.json", cfg) or {})
    write_json(os.path.join(cfg["home"], ".factory", "settings.json"), user)
    for name, dst in (("settings.json", (cfg["proj"], ".factory", "settings.json")),
                      ("hooks.json", (cfg["proj"], ".factory", "hooks.json")),
                      ("legacy_hooks.json", (cfg["proj"], ".factory", "hooks", "hooks.json")),
                      ("user_hooks.json", (cfg["home"], ".factory", "hooks.json")),
                      ("claude_settings.json", (cfg["proj"], ".claude", "settings.json"))):
        value = read_json(case, name, cfg)
        if value is not None:
            write_json(os.path.join(*dst), value)
    for name in ("script.json",):
        write_json(os.path.join(run, name), read_json(case, name, cfg))
    with open(os.path.join(case, "prompt.txt")) as f:
        cfg["prompt"] = f.read().strip()
    cfg["args"] = read_json(case, "args.json", cfg) or DEFAULT_ARGS
    cfg["env"] = read_json(case, "env.json", cfg) or {}
    cfg["install"] = read_json(case, "install.json", cfg)
    cfg["options"] = read_json(case, "options.json", cfg) or {}
    return cfg


def environment(cfg):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": cfg["home"], "USER": "root", "LOGNAME": "root",
           "SHELL": "/bin/bash", "TERM": "dumb", "LANG": "C.UTF-8", "TMPDIR": cfg["tmp"],
           "ORACLE_OUT": cfg["hook_out"], "FACTORY_AIRGAP_ENABLED": "1",
           "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false", "NO_COLOR": "1"}
    for key, value in cfg["env"].items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = str(value)
    return env


# ---------------------------------------------------------------- inside the namespace
def inner(args):
    cfg = json.loads(args.cfg)
    out = args.out
    subprocess.run(["ip", "link", "set", "lo", "up"], check=False)
    fake = subprocess.Popen([sys.executable, os.path.join(HERE, "fake_chat.py"), "--script",
                             os.path.join(args.run, "script.json"), "--log", os.path.join(out, "requests.jsonl"),
                             "--port", str(PORT)], stderr=subprocess.DEVNULL)
    for _ in range(50):
        try:
            import socket
            socket.create_connection(("127.0.0.1", PORT), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    env = environment(cfg)
    if cfg.get("install"):
        spec = cfg["install"]
        argv = [HOOKRUN, "install", spec.get("host", "droid"), "--binary", HOOKRUN] + spec.get("args", [])
        done = subprocess.run(argv, cwd=cfg["proj"], env=env, capture_output=True, text=True, timeout=60)
        with open(os.path.join(out, "install.txt"), "w") as f:
            f.write("$ %s\nexit %d\n%s%s" % (" ".join(argv[1:]), done.returncode, done.stdout, done.stderr))
    argv = [args.binary, "exec"] + cfg["args"] + [cfg["prompt"]]
    started = time.time()
    with open(os.path.join(out, "stdout.txt"), "w") as so, open(os.path.join(out, "stderr.txt"), "w") as se:
        try:
            p = subprocess.run(argv, cwd=cfg["proj"], env=env, stdin=subprocess.DEVNULL, stdout=so, stderr=se,
                               timeout=args.timeout)
            code = p.returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
    wall = round(time.time() - started, 2)
    ps = subprocess.run(["ps", "-eo", "pid,ppid,pgid,etime,args"], capture_output=True, text=True).stdout
    fake.kill()
    result = {"exit_code": code, "wall_s": wall, "argv": argv[1:],
              "env": {k: ("<elided>" if any(w in k for w in ("KEY", "TOKEN", "SECRET")) else v)
                      for k, v in env.items()}}
    write_json(os.path.join(out, "result.json"), result)
    with open(os.path.join(out, "ps_after.txt"), "w") as f:
        f.write(ps)


# ---------------------------------------------------------------- evidence
def collect(cfg, run, out, version, platform_version):
    def rel(text):
        return text.replace(run, "$RUN")
    shutil.copytree(cfg["hook_out"], os.path.join(out, "hook_out"), dirs_exist_ok=True)
    for base, _, names in os.walk(os.path.join(out, "hook_out")):
        for name in names:
            path = os.path.join(base, name)
            with open(path, errors="replace") as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(rel(text))
    listing = []
    for base, dirs, names in os.walk(cfg["proj"]):
        dirs[:] = [d for d in dirs if d not in (".git",)]
        for name in names:
            listing.append(os.path.relpath(os.path.join(base, name), cfg["proj"]))
    with open(os.path.join(out, "project_files.txt"), "w") as f:
        f.write("\n".join(sorted(listing)) + "\n")
    logs = []
    for path in glob.glob(os.path.join(cfg["home"], ".factory", "logs", "*.log")):
        with open(path, errors="replace") as f:
            logs.extend(line.rstrip()[:2000] for line in f if "hook" in line.lower())
    with open(os.path.join(out, "hooks.log"), "w") as f:
        f.write(rel("\n".join(logs)) + "\n")
    sessions = sorted(glob.glob(os.path.join(cfg["home"], ".factory", "sessions", "*", "*.jsonl")))
    if sessions:
        shutil.copy(sessions[-1], os.path.join(out, "session.jsonl"))
    result_path = os.path.join(out, "result.json")
    try:
        with open(result_path) as f:
            result = json.load(f)
    except (OSError, ValueError):
        result = {"exit_code": None}
    result.update(version=version, platform_version=platform_version)
    write_json(result_path, result)
    for name in ("stdout.txt", "stderr.txt", "requests.jsonl"):
        path = os.path.join(out, name)
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(rel(text))
    summary(out, result)


def summary(out, result):
    lines = ["exit %s in %ss; droid %s (platform binary %s)" % (
        result.get("exit_code"), result.get("wall_s"), result.get("version"), result.get("platform_version"))]
    try:
        with open(os.path.join(out, "requests.jsonl")) as f:
            requests = [json.loads(line) for line in f if line.strip()]
    except OSError:
        requests = []
    lines.append("== %d model requests" % len(requests))
    for r in requests:
        body = r.get("body") or {}
        messages = body.get("messages") or []
        last = messages[-1] if messages else {}
        lines.append("-- #%s %s turn %s; last message (%s): %s" % (
            r.get("seq"), r.get("kind"), r.get("turn"), last.get("role"),
            json.dumps(last.get("content"))[:600]))
        lines.append("   reply: %s" % json.dumps(r.get("reply"))[:300])
    for name in ("stdout.txt", "stderr.txt", "install.txt", "project_files.txt", "hooks.log"):
        path = os.path.join(out, name)
        if os.path.exists(path):
            with open(path, errors="replace") as f:
                lines.append("== %s\n%s" % (name, f.read()[-3000:]))
    hook_out = os.path.join(out, "hook_out")
    for name in sorted(os.listdir(hook_out)) if os.path.isdir(hook_out) else []:
        with open(os.path.join(hook_out, name), errors="replace") as f:
            lines.append("== hook_out/%s\n%s" % (name, f.read()[:3000]))
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case")
    ap.add_argument("--out")
    ap.add_argument("--timeout", type=int, default=120, help="seconds allowed for droid")
    ap.add_argument("--keep", action="store_true", help="keep the run folder")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cfg", help=argparse.SUPPRESS)
    ap.add_argument("--run", help=argparse.SUPPRESS)
    ap.add_argument("--binary", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        return inner(args)
    case = os.path.abspath(args.case)
    out = os.path.abspath(args.out or os.path.join(case, "out"))
    path, platform_version = ensure_droid()
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    run = tempfile.mkdtemp(prefix="droid-oracle-%s-" % os.path.basename(case))
    try:
        cfg = prepare(case, run)
        args.timeout = cfg["options"].get("timeout", args.timeout)
        cmd = [sys.executable, os.path.abspath(__file__), "--inner", "--cfg", json.dumps(cfg), "--run", run,
               "--out", out, "--binary", path, "--timeout", str(args.timeout), case]
        if os.environ.get("ORACLE_NO_NETNS") == "1":
            subprocess.run(cmd, timeout=args.timeout + 60)
        else:
            subprocess.run(["unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child"] + cmd,
                           timeout=args.timeout + 60)
        collect(cfg, run, out, VERSION, platform_version)
    finally:
        if args.keep:
            print("run folder kept: %s" % run, file=sys.stderr)
        else:
            shutil.rmtree(run, ignore_errors=True)
    with open(os.path.join(out, "summary.txt")) as f:
        print(f.read())


if __name__ == "__main__":
    sys.exit(main())

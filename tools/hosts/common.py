"""What every host's comparison shares: writing cases, running the shared
host harness, installing hookrun in a scratch project, reading what the
model, the project and the user saw, and comparing two runs.

A host module (gemini.py, codex.py, copilot.py, cline.py) says how its own
hooks are written, how hookrun is wired into it, and how to read its
evidence; compare.py drives them.
"""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

REWRITE = "echo rewritten && touch rewritten_ran.marker"
# hookrun keeps a variable of this name out of its hooks and says so: a
# block case with it checks that the notice never displaces the reason.
SECRET_ENV = {"DEPLOY_API_TOKEN": "not-a-real-token"}
# A hook that acts the first time only (a Stop hook that blocks once).
ONCE = 'if [ -e "$ORACLE_OUT/once" ]; then exit 0; fi; touch "$ORACLE_OUT/once"; '


def j(value):
    return json.dumps(value, separators=(",", ":"))


def sq(text):
    """Single-quote for the shell."""
    return "'" + text.replace("'", "'\\''") + "'"


def prints(value):
    """A shell command printing VALUE as compact JSON on stdout."""
    return "printf %s " + sq(j(value))


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


def write_text(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def fresh(path):
    if os.path.exists(path):
        shutil.rmtree(path)
    os.makedirs(path)


def base_case(path, case, script=None):
    """The parts of a harness case every host reads: script and prompt,
    plus the case's seeded project files."""
    fresh(path)
    write_json(os.path.join(path, "script.json"), script if script is not None else case["script"])
    write_text(os.path.join(path, "prompt.txt"), case.get("prompt", "Please run echo hi") + "\n")
    for rel, text in (case.get("files") or {}).items():
        write_text(os.path.join(path, "files", rel), text)
    if case.get("env"):
        write_json(os.path.join(path, "env.json"), case["env"])


def claude_settings(case):
    """The case's intent as Claude Code hooks: {event: [(matcher, if, command[, timeout
    or more hook fields])]}, and its `permissions` if it has any."""
    hooks = {}
    for event, entries in case["claude"].items():
        for entry in entries:
            matcher, rule, command = entry[:3]
            hook = {"type": "command", "command": command}
            if rule:
                hook["if"] = rule
            if len(entry) > 3 and isinstance(entry[3], dict):
                hook.update(entry[3])
            elif len(entry) > 3 and entry[3] is not None:
                hook["timeout"] = entry[3]
            group = {"hooks": [hook]}
            if matcher:
                group["matcher"] = matcher
            hooks.setdefault(event, []).append(group)
    settings = {"hooks": hooks}
    if case.get("permissions"):
        settings["permissions"] = case["permissions"]
    return settings


def hookrun_project(path, case):
    """hookrun's side of a case finds its settings where an installed
    `hookrun fire` looks: the project's .hookrun/settings.json, trusted
    through the environment."""
    write_json(os.path.join(path, "files", ".hookrun", "settings.json"), claude_settings(case))
    env = {"HOOKRUN_TRUST_PROJECT": "1"}
    env.update(case.get("env") or {})
    write_json(os.path.join(path, "env.json"), env)


# ---------------------------------------------------------------- hookrun itself

def unsupported_host(binary, host):
    """Why BINARY has no `--host HOST` (None: it has one).  A clap usage
    error names the value; anything else means the host is known."""
    done = subprocess.run([binary, "fire", "--host", host, "--no-default-settings", "PreToolUse"],
                          input="{}", capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/nonexistent"})
    if "invalid value" in done.stderr and "--host" in done.stderr:
        return "no `--host %s` in this build" % host
    return None


def snapshot(root):
    files = {}
    for base, dirs, names in os.walk(root):
        for name in names:
            p = os.path.join(base, name)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as f:
                files[os.path.relpath(p, root)] = (f.read(), stat.S_IMODE(os.stat(p).st_mode))
    return files


def install(binary, host, case, args=()):
    """Run `hookrun install HOST` in a scratch project holding the case's
    .hookrun/settings.json (HOME a scratch folder too), in a fresh folder
    under /tmp: inside a git work tree install would write at its root.
    Returns (ok, log, {("proj"|"home", relative path): (bytes, mode)})
    with every file install wrote or changed."""
    scratch = tempfile.mkdtemp(prefix="hookrun-hosts-install-")
    try:
        return install_in(binary, host, case, scratch, args)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def install_in(binary, host, case, scratch, args):
    inside = subprocess.run(["git", "-C", scratch, "rev-parse", "--show-toplevel"],
                            capture_output=True, text=True)
    if inside.returncode == 0:
        return False, "the scratch folder %s is inside the git work tree %s: not installing there\n" % (
            scratch, inside.stdout.strip()), {}
    project, home = os.path.join(scratch, "proj"), os.path.join(scratch, "home")
    os.makedirs(home)
    write_json(os.path.join(project, ".hookrun", "settings.json"), claude_settings(case))
    for rel, text in (case.get("files") or {}).items():
        write_text(os.path.join(project, rel), text)
    before = {"proj": snapshot(project), "home": snapshot(home)}
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "HOOKRUN_TRUST_PROJECT": "1"}
    argv = [binary, "install", host, "--binary", binary] + list(args)
    done = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=120)
    log = "$ %s\nexit %d\n%s%s" % (" ".join(argv[1:]), done.returncode, done.stdout, done.stderr)
    written = {}
    for side, root in (("proj", project), ("home", home)):
        for rel, value in snapshot(root).items():
            if before[side].get(rel) != value:
                written[(side, rel)] = value
    outside = [p for p in re.findall(r"^wrote (\S+)", done.stdout, re.M)
               if not os.path.realpath(p).startswith(os.path.realpath(scratch) + os.sep)]
    if outside:
        return False, log + "install wrote outside the scratch folder: %s\n" % ", ".join(outside), written
    leaks = [rel for (_, rel), (data, _) in written.items() if scratch.encode() in data]
    if leaks:
        # A file naming the scratch folder would not work moved into the run.
        return False, log + "install wrote the scratch folder's path into %s\n" % ", ".join(leaks), written
    return done.returncode == 0, log, written


# ---------------------------------------------------------------- running

def run(harness, host, case_dir, out, binary, timeout, runner=None):
    """One run of the shared host harness (HARNESS/HOST/run_case.py, or
    RUNNER relative to HARNESS); its stdout and stderr go to OUT.log."""
    if os.path.exists(out):
        shutil.rmtree(out)
    script = os.path.join(harness, runner) if runner else os.path.join(harness, host, "run_case.py")
    cmd = [sys.executable, os.path.normpath(script), case_dir, "--out", out]
    env = dict(os.environ, ORACLE_HOOKRUN=binary)
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        text, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as e:
        text, code = "harness timed out after %ss\n%s" % (timeout, e.stdout or ""), "timeout"
    with open(out + ".log", "w") as f:
        f.write(text if isinstance(text, str) else text.decode(errors="replace"))
    return code


def read(out, name):
    try:
        with open(os.path.join(out, name), errors="replace") as f:
            return f.read()
    except OSError:
        return None


def jsonl(out, name):
    text = read(out, name)
    rows = []
    for line in (text or "").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            pass
    return rows


def markers(out):
    text = read(out, "project_files.txt")
    if text is None:
        return None
    return sorted(line.strip() for line in text.splitlines() if line.strip().endswith(".marker"))


def main_requests(out):
    if read(out, "requests.jsonl") is None:
        return None
    return [r for r in jsonl(out, "requests.jsonl") if r.get("kind", "main") == "main"]


def normalise(text):
    text = re.sub(r"Process Group PGID: \d+", "Process Group PGID: N", text)
    text = re.sub(r"Chunk ID: [0-9a-f]+", "Chunk ID: X", text)
    text = re.sub(r"Wall time: [0-9.]+ seconds", "Wall time: T seconds", text)
    text = re.sub(r"<current_datetime>[^<]*</current_datetime>", "<current_datetime/>", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", "<time>", text)
    text = re.sub(r"_\d{10,}_", "_ID_", text)
    text = re.sub(r"\b\d+(\.\d+)?m?s\b", "<ms>", text)
    return text


def chat_view(out):
    """Texts of the last main request of an OpenAI Chat Completions host
    (Copilot, Cline), without the system prompt."""
    main = main_requests(out)
    if main is None:
        return None, 0
    if not main:
        return [], 0
    texts = []
    for m in main[-1]["body"].get("messages", []):
        role = m.get("role")
        if role == "system":
            continue
        content = m.get("content")
        if isinstance(content, list):
            content = " | ".join(c.get("text", j(c)) if isinstance(c, dict) else str(c) for c in content)
        if role == "tool":
            texts.append("result %s" % content)
            continue
        if content:
            texts.append("%s: %s" % (role, content))
        for call in m.get("tool_calls") or []:
            f = call.get("function") or call.get("custom") or {}
            texts.append("call %s %s" % (f.get("name"), f.get("arguments", f.get("input"))))
    return [normalise(t) for t in texts], len(main)


# What the user is told that reads as a failure, on any host.
FAILURE = re.compile(r"(?i)hook\(s\)[^\n]*failed|\bfailed \(|hook errored|hook: \w+ Failed|"
                     r"hook failed|hook execution error|hook command failed|timed out")


def shows_failure(lines):
    return any(FAILURE.search(line) for line in lines or [])


def without_notices(lines):
    """LINES without those that only relay a notice of hookrun's own."""
    return [line for line in lines or [] if "hookrun" not in line]


def sides_same(a, b):
    return a["view"] == b["view"] and a["markers"] == b["markers"] and a["requests"] == b["requests"]


def only_in(a, b):
    """The lines of A that B lacks (as a multiset), in A's order."""
    rest = list(b or [])
    out = []
    for line in a or []:
        if line in rest:
            rest.remove(line)
        else:
            out.append(line)
    return out


def first_difference(a, b):
    """The first line where two lists differ, for the table's notes."""
    a, b = a or [], b or []
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "(nothing)"
        y = b[i] if i < len(b) else "(nothing)"
        if x != y:
            return x, y
    return None

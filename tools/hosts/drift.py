#!/usr/bin/env python3
"""Hold each host's newest release against what hookrun knows, and print
every event, hook field, answer field or tool name hookrun does not know.

    python3 tools/hosts/drift.py [HOST ...] [--prefix DIR] [--version HOST=V ...] [--json FILE]

For each host (default: all seven that hookrun measured: claude-code, codex,
gemini, copilot, cline, qwen, droid) it asks npm for the newest release,
installs it into a scratch prefix (PREFIX/HOST-VERSION, default under
target/host-drift; reused when already there, npm's own cache makes it
quick) and reads what the release itself says about its hooks:

- claude-code: the zod schemas in its binary: the event list, the fields of
  each hook type, the `hookSpecificOutput` fields of each event and the
  top-level answer fields; its tools from the `system/init` line of a
  headless stream-json session run by tools/oracle/sdk_events.py against the
  shared oracle's fake model (skipped, and said, without that harness);
- codex: the hook JSON schemas embedded in its binary
  (`<event>.command.input` / `.output`): events, answer fields;
- gemini, qwen: their bundle's hook event enum; their `*_TOOL_NAME`
  constants (Gemini) and tool-name enum (Qwen);
- copilot: the hook keys of the settings schema embedded in its native
  runtime;
- cline: its hook event enum;
- droid: the hook event list and the tool ids in its binary.

What hookrun knows is tools/hosts/hookrun-knows.json, which `just gen` writes
from the code. Exit 0 when nothing is unknown, 1 when something is (each
finding printed as `HOST: kind NAME`), 2 when a host could not be read.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KNOWS = os.path.join(REPO, "tools", "hosts", "hookrun-knows.json")

PACKAGES = {
    "claude-code": "@anthropic-ai/claude-code",
    "codex": "@openai/codex",
    "gemini": "@google/gemini-cli",
    "copilot": "@github/copilot",
    "cline": "cline",
    "qwen": "@qwen-code/qwen-code",
    "droid": "@factory/cli",
}


# ---------------------------------------------------------------- npm
def newest(package):
    done = subprocess.run(["npm", "view", package, "version"], capture_output=True, text=True, timeout=120)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else None


def install(prefix, package, version, extra=()):
    marker = os.path.join(prefix, ".installed")
    if os.path.exists(marker):
        return prefix
    os.makedirs(prefix, exist_ok=True)
    done = subprocess.run(["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save",
                           "--ignore-scripts", "%s@%s" % (package, version)] + list(extra),
                          capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError("npm install %s@%s failed: %s" % (package, version, done.stderr.strip()[-400:]))
    open(marker, "w").close()
    return prefix


def find(prefix, pattern):
    hits = [p for p in glob.glob(os.path.join(prefix, "node_modules", pattern), recursive=True)
            if os.path.isfile(p)]
    if not hits:
        raise RuntimeError("nothing matches %s under %s" % (pattern, prefix))
    return max(hits, key=os.path.getsize)


def texts(root, exts=(".js", ".mjs", ".cjs")):
    for base, _, names in os.walk(root):
        for name in names:
            if name.endswith(exts):
                path = os.path.join(base, name)
                try:
                    with open(path, errors="replace") as f:
                        yield path, f.read()
                except OSError:
                    pass


def binary_text(path):
    with open(path, "rb") as f:
        return f.read().decode("latin-1")


# ---------------------------------------------------------------- readers
def match_close(s, i):
    """s[i] opens a bracket: the index after its match (strings skipped)."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    stack, j = [], i
    while j < len(s):
        c = s[j]
        if c in "\"'`":
            quote, j = c, j + 1
            while j < len(s) and s[j] != quote:
                j += 2 if s[j] == "\\" else 1
        elif c in pairs:
            stack.append(pairs[c])
        elif c in ")}]":
            if not stack or stack[-1] != c:
                return None
            stack.pop()
            if not stack:
                return j + 1
        j += 1
    return None


def object_keys(s, start):
    """The top-level keys of the JS object literal opening at s[start]."""
    end = match_close(s, start)
    if end is None:
        return []
    body, keys, depth, j, item = s[start + 1:end - 1], [], 0, 0, ""
    while j < len(body):
        c = body[j]
        if c in "\"'`":
            k = j + 1
            while k < len(body) and body[k] != c:
                k += 2 if body[k] == "\\" else 1
            item += body[j:k + 1]
            j = k + 1
            continue
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        if c == "," and depth == 0:
            keys.append(item)
            item = ""
        else:
            item += c
        j += 1
    keys.append(item)
    out = []
    for part in keys:
        m = re.match(r'\s*"?([A-Za-z_$][\w$]*)"?\s*:', part)
        if m:
            out.append(m.group(1))
    return out


def largest_array_with(text, anchor, name=r"[A-Za-z]+"):
    best = []
    for m in re.finditer(r'\[((?:"%s",)*"%s"(?:,"%s")*)\]' % (name, anchor, name), text):
        items = re.findall(r'"(\w+)"', m.group(1))
        if len(items) > len(best):
            best = items
    return best


def enum_members(text, anchor):
    """Members of a TS enum compiled as `E["A"] = "A"` or `E.A = "A"`."""
    best = set()
    for pattern in (r'(\w+)\["%s"\]\s*=\s*"%s"', r'(\w+)\.%s\s*=\s*"%s"'):
        for m in re.finditer(pattern % (anchor, anchor), text):
            var = re.escape(m.group(1))
            names = set(re.findall(r'%s\["(\w+)"\]\s*=\s*"\w+"' % var, text))
            names |= set(re.findall(r'(?<![\w.])%s\.(\w+)\s*=\s*"\w+"' % var, text))
            if len(names) > len(best):
                best = names
    return sorted(best)


# ---------------------------------------------------------------- hosts
def read_claude(prefix, version, args):
    binary = find(prefix, "@anthropic-ai/claude-code-linux-x64*/claude")
    s = binary_text(binary)
    found = {"events": largest_array_with(s, "PreToolUse"), "hook_fields": set(), "answer_fields": set(),
             "hook_specific": {}, "tools": None}
    for m in re.finditer(r'\w+\(\{type:\w+\("(command|prompt|agent|http|mcp_tool)"\)\.describe', s):
        found["hook_fields"].update(object_keys(s, m.start() + len(m.group(0).split("(")[0]) + 1))
    for m in re.finditer(r'\w+\(\{hookEventName:\w+\("(\w+)"\)', s):
        keys = object_keys(s, m.start() + m.group(0).index("{"))
        found["hook_specific"].setdefault(m.group(1), set()).update(k for k in keys if k != "hookEventName")
    m = re.search(r'\w+\(\{continue:\w+\(\)\.optional\(\),suppressOutput', s)
    if m:
        found["answer_fields"].update(object_keys(s, m.start() + m.group(0).index("{")))
    found["tools"], found["tools_note"] = claude_tools(prefix, version, args)
    return found


def claude_tools(prefix, version, args):
    out = tempfile.mkdtemp(prefix="hookrun-drift-claude-")
    done = subprocess.run([sys.executable, os.path.join(REPO, "tools", "oracle", "sdk_events.py"), "--out", out,
                           "--version", version, "--prefix", prefix],
                          capture_output=True, text=True, timeout=600)
    try:
        with open(os.path.join(out, "stdout.txt")) as f:
            for line in f:
                if '"subtype":"init"' in line:
                    return json.loads(line).get("tools", []), None
    except OSError:
        pass
    return None, "tools not read: tools/oracle/sdk_events.py did not run (%s)" % (
        (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"])[0][:200]


def read_codex(prefix, version, args):
    binary = find(prefix, "@openai/codex-linux-x64/**/bin/codex")
    raw = open(binary, "rb").read()
    decoder = json.JSONDecoder()
    found = {"events": [], "answer_fields": set(), "hook_specific": {}, "input_fields": set(), "tools": None,
             "tools_note": "Codex sends its shell as Bash and patches as apply_patch: tools not compared"}
    for m in re.finditer(rb'\{\s*"\$schema": "http://json-schema.org/draft-07/schema#"', raw):
        try:
            schema, _ = decoder.raw_decode(raw[m.start():m.start() + 300000].decode("utf-8", "replace"))
        except ValueError:
            continue
        title = schema.get("title", "")
        if not title.endswith((".command.input", ".command.output")):
            continue
        props = schema.get("properties", {})
        if title.endswith(".input"):
            event = (props.get("hook_event_name") or {}).get("const")
            if event and event not in found["events"]:
                found["events"].append(event)
            found["input_fields"].update(props)
        else:
            found["answer_fields"].update(props)
            for definition, body in schema.get("definitions", {}).items():
                if definition.endswith("HookSpecificOutputWire"):
                    name = (body.get("properties", {}).get("hookEventName") or {}).get("const")
                    if name:
                        found["hook_specific"].setdefault(name, set()).update(
                            k for k in body.get("properties", {}) if k != "hookEventName")
    return found


def read_js_host(root, anchor, tool_reader):
    events, tools = set(), set()
    for _, text in texts(root):
        if anchor in text:
            members = enum_members(text, anchor) or largest_array_with(text, anchor)
            if len(members) > len(events):
                events = set(members)
        tools |= tool_reader(text)
    return {"events": sorted(events), "tools": sorted(tools)}


def read_gemini(prefix, version, args):
    root = os.path.join(prefix, "node_modules", "@google", "gemini-cli")
    return read_js_host(root, "BeforeTool",
                        lambda t: set(re.findall(r'\b[A-Z_]+_TOOL_NAME\s*=\s*"([a-z_]+)"', t)))


def read_qwen(prefix, version, args):
    root = os.path.join(prefix, "node_modules", "@qwen-code", "qwen-code")

    def tools(text):
        m = re.search(r'ToolNames\s*=\s*\{', text)
        if not m:
            return set()
        end = match_close(text, m.end() - 1) or m.end()
        return set(re.findall(r':\s*"([a-z_]+)"', text[m.end():end]))
    return read_js_host(root, "PreToolUse", tools)


def read_cline(prefix, version, args):
    root = os.path.join(prefix, "node_modules")
    found = read_js_host(os.path.join(root, "@cline"), "TaskComplete", lambda t: set())
    found["tools"], found["tools_note"] = None, "Cline's tool names are not read (they are in hookrun's table from the measured runs)"
    return found


def read_copilot(prefix, version, args):
    """Copilot's hook engine is native (`runtime.node`), packed in a
    tarball inside the platform binary: unpacked, its settings schema lists
    every `hooks.<event>` key."""
    import io
    import tarfile
    import zlib
    raw = open(find(prefix, "@github/copilot-linux-x64/copilot"), "rb").read()
    runtime = b""
    for m in re.finditer(rb"\x1f\x8b\x08", raw):
        try:
            head = zlib.decompressobj(31).decompress(raw[m.start():m.start() + 2_000_000], 4096)
        except zlib.error:
            continue
        if b"ustar" not in head[:600]:
            continue
        archive = tarfile.open(fileobj=io.BytesIO(zlib.decompressobj(31).decompress(raw[m.start():])))
        for name in archive.getnames():
            if name.endswith("linux-x64/runtime.node"):
                runtime = archive.extractfile(name).read()
        break
    if not runtime:
        raise RuntimeError("no runtime.node inside Copilot's binary")
    text = runtime.decode("latin-1")
    events = sorted(set(re.findall(r'"path":"hooks\.(\w+)"', text)))
    return {"events": events, "tools": None,
            "tools_note": "Copilot's tool names are not read (they are in hookrun's table from the measured runs)"}


def read_droid(prefix, version, args):
    platform = newest("@factory/cli-linux-x64")
    install(prefix, PACKAGES["droid"], version, ["@factory/cli-linux-x64@%s" % platform])
    s = binary_text(find(prefix, "@factory/cli-linux-x64/bin/droid"))
    events = largest_array_with(s, "PreToolUse")
    tools = set()
    m = re.search(r'\{\["LS"\]:"LS"', s)
    if m:
        end = match_close(s, m.start()) or m.start()
        tools = set(re.findall(r'\["(\w+)"\]:', s[m.start():end]))
    return {"events": events, "tools": sorted(tools), "platform_version": platform}


READERS = {"claude-code": read_claude, "codex": read_codex, "gemini": read_gemini, "copilot": read_copilot,
           "cline": read_cline, "qwen": read_qwen, "droid": read_droid}


# ---------------------------------------------------------------- compare
def unknown(host, found, knows):
    h = knows["hosts"][host]
    claude_tools = set(knows["hosts"]["claude-code"]["tools"])
    known_events = set(h["events"])
    if host == "claude-code":
        known_events = set(knows["events"])
    out = []
    for event in found.get("events") or []:
        if event not in known_events:
            out.append(("event", event))
    if host == "claude-code":
        fields = set(knows["hook_fields"]) | set(knows["internal_hook_fields"]) | {"type"}
        out += [("hook field", f) for f in sorted(found["hook_fields"]) if f not in fields]
    if found.get("answer_fields"):
        known = set(knows["answer_fields"]) | set(knows["internal_answer_fields"])
        out += [("answer field", f) for f in sorted(found["answer_fields"]) if f not in known]
    for event, fields in sorted((found.get("hook_specific") or {}).items()):
        accepted = set(knows["hook_specific_fields"].get(event, []))
        out += [("hookSpecificOutput field", "%s.%s" % (event, f)) for f in sorted(fields)
                if f not in accepted and f not in knows["internal_answer_fields"]
                and "%s.%s" % (event, f) not in knows.get("unread_hook_specific_fields", [])]
    if found.get("tools") is not None:
        known_tools = set(h["tools"]) | claude_tools
        out += [("tool", t) for t in sorted(found["tools"]) if t not in known_tools and not t.startswith("mcp__")]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("hosts", nargs="*",
                    help="hosts to check (default: all)")
    ap.add_argument("--prefix", default=os.path.join(REPO, "target", "host-drift"),
                    help="where the releases are installed (one folder per host and version)")
    ap.add_argument("--version", action="append", default=[], metavar="HOST=VERSION",
                    help="check this release instead of the newest")
    ap.add_argument("--json", help="also write every finding, and what was read, as JSON")
    args = ap.parse_args()
    for host in args.hosts:
        if host not in READERS:
            sys.exit("unknown host %s (one of %s)" % (host, ", ".join(READERS)))
    with open(KNOWS) as f:
        knows = json.load(f)
    pinned = dict(v.split("=", 1) for v in args.version)
    report, failed, found_any = {}, False, False
    for host in args.hosts or list(READERS):
        package = PACKAGES[host]
        version = pinned.get(host) or newest(package)
        measured = knows["hosts"][host]["measured"]
        print("%s: %s %s (hookrun measured %s)" % (host, package, version, measured), flush=True)
        try:
            prefix = os.path.join(args.prefix, "%s-%s" % (host, version))
            if host != "droid":
                install(prefix, package, version)
            found = READERS[host](prefix, version, args)
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            print("  could not read %s: %s" % (host, e))
            report[host] = {"version": version, "error": str(e)}
            failed = True
            continue
        if found.get("tools_note"):
            print("  note: %s" % found["tools_note"])
        missing = unknown(host, found, knows)
        for kind, name in missing:
            print("  unknown %s: %s" % (kind, name))
        if not missing:
            print("  nothing unknown (%d events%s)" % (
                len(found.get("events") or []),
                ", %d tools" % len(found["tools"]) if found.get("tools") is not None else ""))
        found_any |= bool(missing)
        report[host] = {"version": version, "measured": measured, "unknown": missing,
                        "read": {k: sorted(v) if isinstance(v, set) else
                                 ({e: sorted(f) for e, f in v.items()} if isinstance(v, dict) else v)
                                 for k, v in found.items()}}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    sys.exit(2 if failed else 1 if found_any else 0)


if __name__ == "__main__":
    main()

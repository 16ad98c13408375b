#!/usr/bin/env python3
"""Run cases through the real Gemini CLI and Codex twice and compare.

    python3 hosts/compare.py [CASE ...] [--harness DIR] [--hookrun BIN] [--out DIR]

For each case below, a pair of harness cases is written under OUT/cases/:

1. native:  the hook written in the host's own format, as the host's own
   hook (Gemini: .gemini/settings.json; Codex: $CODEX_HOME/hooks.json);
2. hookrun: the SAME intent written as a Claude Code hook (matcher `Bash`,
   `if` rules, exit 2, `updatedInput`…) in the project's
   .hookrun/settings.json, and the host's config exactly as
   `hookrun install HOST` writes it from that file (run in a scratch copy
   of the project); the run trusts the project file with
   HOOKRUN_TRUST_PROJECT=1.

Both runs go through the shared host harness (the real CLI from npm, a fake
model on loopback, a network namespace).  What the project and the model
saw is then compared: which marker files exist (did the tool run), every
text of the last model request (tool results, injected context, the block
text) and the number of model requests.  A case whose `expect` is "differ"
documents a place where hookrun deliberately answers otherwise (the native
hook fails open, hookrun does not).

Nothing here is part of `cargo test`.  Exit 0 when every case came out as
expected, 1 otherwise.  The table goes to OUT/table.md.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GEMINI_SHELL = [{"calls": [{"name": "run_shell_command",
                            "args": {"command": "echo hi && touch bash_ran.marker",
                                     "description": "Print hi"}}]},
                {"text": "Final answer after the tool."}]
GEMINI_STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]
CODEX_SHELL = [{"calls": [{"name": "exec_command",
                           "arguments": {"cmd": "echo hi && touch bash_ran.marker"}}]},
               {"text": "Final answer after the tool."}]
CODEX_STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]

REWRITE = "echo rewritten && touch rewritten_ran.marker"
ONCE = 'if [ -e "$ORACLE_OUT/once" ]; then exit 0; fi; touch "$ORACLE_OUT/once"; '


def j(value):
    return json.dumps(value, separators=(",", ":"))


def sq(text):
    """Single-quote for the shell."""
    return "'" + text.replace("'", "'\\''") + "'"


# name: host, script, native {host event: [(matcher, command)]},
# claude {event: [(matcher, if, command)]}, expect ("same" | "differ": why).
CASES = {
    "gemini_block": dict(
        host="gemini", script=GEMINI_SHELL,
        native={"BeforeTool": [("run_shell_command", "printf %s " + sq(j({"decision": "deny", "reason": "R-BLOCK: no echo"})))]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "gemini_rewrite": dict(
        host="gemini", script=GEMINI_SHELL,
        native={"BeforeTool": [("run_shell_command", "printf %s " + sq(j({"hookSpecificOutput": {"tool_input": {"command": REWRITE, "description": "Print hi"}}})))]},
        claude={"PreToolUse": [("Bash", None, "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE, "description": "Print hi"}}})))]},
        expect="same"),
    "gemini_post_context": dict(
        host="gemini", script=GEMINI_SHELL,
        native={"AfterTool": [("run_shell_command", "printf %s " + sq(j({"hookSpecificOutput": {"additionalContext": "CTX-POST"}})))]},
        claude={"PostToolUse": [("Bash", None, "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}})))]},
        expect="same"),
    "gemini_prompt_context": dict(
        host="gemini", script=[{"text": "Hello."}],
        native={"BeforeAgent": [(None, "printf %s " + sq(j({"hookSpecificOutput": {"additionalContext": "CTX-PROMPT"}})))]},
        # Claude Code's plain stdout on UserPromptSubmit is context.
        claude={"UserPromptSubmit": [(None, None, "echo CTX-PROMPT")]},
        expect="same"),
    "gemini_stop_once": dict(
        host="gemini", script=GEMINI_STOP,
        native={"AfterAgent": [(None, ONCE + "printf %s " + sq(j({"decision": "block", "reason": "SAY-BYE"})))]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
    "gemini_ask": dict(
        host="gemini", script=GEMINI_SHELL,
        native={"BeforeTool": [("run_shell_command", "printf %s " + sq(j({"decision": "deny", "reason": "approval required, but Gemini CLI cannot ask: SURE?"})))]},
        claude={"PreToolUse": [("Bash", None, "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}})))]},
        expect="same (a native `ask` hangs headless; hookrun sends the deny shown as the native hook)"),
    "codex_block": dict(
        host="codex", script=CODEX_SHELL,
        native={"PreToolUse": [("Bash", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "codex_rewrite": dict(
        host="codex", script=CODEX_SHELL,
        native={"PreToolUse": [("Bash", "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}})))]},
        claude={"PreToolUse": [("Bash", None, "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE, "description": "x"}}})))]},
        expect="same"),
    "codex_allow": dict(
        host="codex", script=CODEX_SHELL,
        native={"PreToolUse": [("Bash", "true")]},
        # allow without updatedInput is a failed hook to Codex itself.
        claude={"PreToolUse": [("Bash", None, "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "fine"}})))]},
        expect="same"),
    "codex_post_context": dict(
        host="codex", script=CODEX_SHELL,
        native={"PostToolUse": [("Bash", "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}})))]},
        claude={"PostToolUse": [("Bash", None, "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}})))]},
        expect="same"),
    "codex_stop_once": dict(
        host="codex", script=CODEX_STOP,
        native={"Stop": [(None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
    "codex_deny_with_suppress": dict(
        host="codex", script=CODEX_SHELL,
        native={"PreToolUse": [("Bash", "printf %s " + sq(j({"suppressOutput": True, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R-DENY"}})))]},
        claude={"PreToolUse": [("Bash", None, "printf %s " + sq(j({"suppressOutput": True, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R-DENY"}})))]},
        expect="differ: natively Codex reads suppressOutput:true as a failed hook and runs the tool; hookrun drops the field and the deny holds"),
    "codex_ask": dict(
        host="codex", script=CODEX_SHELL,
        native={"PreToolUse": [("Bash", "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}})))]},
        claude={"PreToolUse": [("Bash", None, "printf %s " + sq(j({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}})))]},
        expect="differ: natively `ask` is a failed hook and the tool runs; hookrun denies (Codex cannot ask)"),
}

TIMEOUT = {"gemini": 60000, "codex": 600}


def default_harness():
    for d in (os.environ.get("HOOKRUN_HOSTS_DIR"),
              os.path.join(os.path.dirname(REPO), "shared", "hosts")):
        if d and os.path.isfile(os.path.join(d, "gemini", "run_case.py")):
            return d
    return None


def write_case(path, host, script, hooks_doc, prompt="Please run echo hi", hookrun_settings=None):
    if os.path.exists(path):
        shutil.rmtree(path)
    os.makedirs(os.path.join(path, "hooks"))
    if hookrun_settings is not None:
        os.makedirs(os.path.join(path, "files", ".hookrun"))
        with open(os.path.join(path, "files", ".hookrun", "settings.json"), "w") as f:
            json.dump(hookrun_settings, f, indent=1)
        with open(os.path.join(path, "env.json"), "w") as f:
            json.dump({"HOOKRUN_TRUST_PROJECT": "1"}, f)
    with open(os.path.join(path, "script.json"), "w") as f:
        json.dump(script, f, indent=1)
    with open(os.path.join(path, "prompt.txt"), "w") as f:
        f.write(prompt + "\n")
    name = "settings.json" if host == "gemini" else "hooks.json"
    with open(os.path.join(path, name), "w") as f:
        json.dump(hooks_doc, f, indent=1)


def native_doc(case):
    hooks = {}
    for event, entries in case["native"].items():
        for matcher, command in entries:
            group = {"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT[case["host"]]}]}
            if matcher:
                group["matcher"] = matcher
            hooks.setdefault(event, []).append(group)
    return {"hooks": hooks}


def installed_doc(case, binary, scratch):
    """The host config `hookrun install HOST` writes for the case's hooks."""
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    project = os.path.join(scratch, "proj")
    home = os.path.join(scratch, "home")
    os.makedirs(os.path.join(project, ".hookrun"))
    os.makedirs(home)
    with open(os.path.join(project, ".hookrun", "settings.json"), "w") as f:
        json.dump(claude_settings(case), f, indent=1)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home}
    done = subprocess.run([binary, "install", case["host"], "--binary", binary],
                          cwd=project, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"hookrun install {case['host']} failed: {done.stderr}")
    name = ".gemini/settings.json" if case["host"] == "gemini" else ".codex/hooks.json"
    with open(os.path.join(project, name)) as f:
        return json.load(f)


def claude_settings(case):
    hooks = {}
    for event, entries in case["claude"].items():
        for matcher, rule, command in entries:
            hook = {"type": "command", "command": command}
            if rule:
                hook["if"] = rule
            group = {"hooks": [hook]}
            if matcher:
                group["matcher"] = matcher
            hooks.setdefault(event, []).append(group)
    return {"hooks": hooks}


def normalise(text):
    text = re.sub(r"Process Group PGID: \d+", "Process Group PGID: N", text)
    text = re.sub(r"Chunk ID: [0-9a-f]+", "Chunk ID: X", text)
    text = re.sub(r"Wall time: [0-9.]+ seconds", "Wall time: T seconds", text)
    text = re.sub(r"_\d{10,}_", "_ID_", text)
    return text


def model_view(host, out):
    """Texts of the last main request, in order; and the number of requests."""
    path = os.path.join(out, "requests.jsonl")
    if not os.path.exists(path):
        return None, 0
    requests = [json.loads(line) for line in open(path) if line.strip()]
    main = [r for r in requests if r.get("kind", "main") == "main"]
    if not main:
        return [], 0
    body = main[-1]["body"]
    texts = []
    if host == "gemini":
        for content in body.get("contents", []):
            for part in content.get("parts", []):
                if "text" in part and part["text"].startswith("<session_context>"):
                    continue  # lists the project's files, which differ by design
                if "text" in part:
                    texts.append(f"{content.get('role')}: {part['text']}")
                elif "functionCall" in part:
                    texts.append(f"call {part['functionCall'].get('name')} {j(part['functionCall'].get('args'))}")
                elif "functionResponse" in part:
                    texts.append(f"result {j(part['functionResponse'].get('response'))}")
    else:
        for item in body.get("input", [])[3:]:
            kind = item.get("type")
            if kind == "message":
                for c in item.get("content", []):
                    texts.append(f"{item.get('role')}: {c.get('text', '')}")
            elif kind in ("function_call", "custom_tool_call"):
                texts.append(f"call {item.get('name')} {item.get('arguments', item.get('input', ''))}")
            elif kind in ("function_call_output", "custom_tool_call_output"):
                texts.append(f"result {item.get('output')}")
    return [normalise(t) for t in texts], len(main)


def markers(out):
    path = os.path.join(out, "project_files.txt")
    if not os.path.exists(path):
        return None
    return sorted(line.strip() for line in open(path) if line.strip().endswith(".marker"))


def run(harness, host, case_dir, out):
    if os.path.exists(out):
        shutil.rmtree(out)
    cmd = [sys.executable, os.path.join(harness, host, "run_case.py"), case_dir, "--out", out]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    with open(out + ".log", "w") as f:
        f.write(done.stdout + done.stderr)
    return done.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help="case names (default: all)")
    ap.add_argument("--harness", default=default_harness(),
                    help="the host harness folder holding gemini/run_case.py and codex/run_case.py "
                         "(default: $HOOKRUN_HOSTS_DIR, else shared/hosts next to the repository)")
    ap.add_argument("--hookrun", default=os.path.join(REPO, "target", "release", "hookrun"))
    ap.add_argument("--out", default=os.path.join(REPO, "target", "hosts"))
    args = ap.parse_args()
    if not args.harness:
        sys.exit("no host harness found: pass --harness DIR (a folder with gemini/run_case.py and codex/run_case.py)")
    binary = os.path.abspath(args.hookrun)
    if not os.access(binary, os.X_OK):
        sys.exit(f"no hookrun binary at {binary} (build it, or pass --hookrun)")
    names = args.cases or list(CASES)
    rows, failed = [], False
    for name in names:
        case = CASES[name]
        host = case["host"]
        base = os.path.join(os.path.abspath(args.out), "cases", name)
        os.makedirs(base, exist_ok=True)
        prompt = "Hello" if name.endswith("prompt_context") else "Please run echo hi"
        write_case(os.path.join(base, "native"), host, case["script"], native_doc(case), prompt)
        write_case(os.path.join(base, "hookrun"), host, case["script"],
                   installed_doc(case, binary, os.path.join(base, "install")), prompt,
                   hookrun_settings=claude_settings(case))
        seen = {}
        for side in ("native", "hookrun"):
            out = os.path.join(base, "out_" + side)
            code = run(args.harness, host, os.path.join(base, side), out)
            view, requests = model_view(host, out)
            seen[side] = {"code": code, "view": view, "requests": requests, "markers": markers(out)}
        same = seen["native"]["view"] == seen["hookrun"]["view"] and seen["native"]["markers"] == seen["hookrun"]["markers"] \
            and seen["native"]["requests"] == seen["hookrun"]["requests"]
        expected_same = case["expect"].startswith("same")
        ok = same == expected_same and seen["hookrun"]["view"] is not None
        failed |= not ok
        rows.append((name, host, "same" if same else "differs", case["expect"], "ok" if ok else "UNEXPECTED",
                     ", ".join(seen["native"]["markers"] or []) or "-", ", ".join(seen["hookrun"]["markers"] or []) or "-"))
        with open(os.path.join(base, "views.json"), "w") as f:
            json.dump(seen, f, indent=1)
        print(f"{name}: {rows[-1][2]} ({rows[-1][4]})", flush=True)
    table = ["| case | host | model and project saw | expected | result | markers native | markers hookrun |",
             "|---|---|---|---|---|---|---|"]
    table += ["| " + " | ".join(r) + " |" for r in rows]
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write("\n".join(table) + "\n")
    print("\n".join(table))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

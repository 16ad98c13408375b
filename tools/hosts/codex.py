"""Codex: hooks in $CODEX_HOME/hooks.json or <project>/.codex/hooks.json,
Claude Code's event names, timeouts in seconds."""

import os
import re

from common import ONCE, SECRET_ENV, REWRITE, prints, read, main_requests, normalise, base_case, \
    hookrun_project, write_json

NAME = "codex"
TIMEOUT = 600
EVENTS = {e: e for e in ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart",
                         "PermissionRequest", "SessionEnd")}
CANNOT = ["PermissionRequest under `codex exec` (approval policy `never`: it never fires)",
          "ask (natively a failed hook: hookrun denies)"]

SHELL = [{"calls": [{"name": "exec_command", "arguments": {"cmd": "echo hi && touch bash_ran.marker"}}]},
         {"text": "Final answer after the tool."}]
STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]
HELLO = [{"text": "Hello."}]

CASES = {
    "codex_block": dict(
        what="block a tool (exit 2 + reason)", script=SHELL,
        native={"PreToolUse": [("Bash", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "codex_block_notice": dict(
        what="block a tool while hookrun has a notice (a secret-looking variable)", env=SECRET_ENV, script=SHELL,
        native={"PreToolUse": [("Bash", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "codex_rewrite": dict(
        what="rewrite the command (updatedInput)", script=SHELL,
        native={"PreToolUse": [("Bash", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE, "description": "x"}}}))]},
        expect="same"),
    "codex_allow": dict(
        what="allow without a rewrite", script=SHELL,
        native={"PreToolUse": [("Bash", "true")]},
        # allow without updatedInput is a failed hook to Codex itself.
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "fine"}}))]},
        expect="same"),
    "codex_post_context": dict(
        what="context after a tool", script=SHELL,
        native={"PostToolUse": [("Bash", prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        claude={"PostToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        expect="same"),
    "codex_prompt_context": dict(
        what="context with the prompt", script=HELLO, prompt="Hello",
        native={"UserPromptSubmit": [(None, prints({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "CTX-PROMPT"}}))]},
        claude={"UserPromptSubmit": [(None, None, "echo CTX-PROMPT")]},
        expect="same"),
    "codex_session_context": dict(
        what="context at session start", script=HELLO, prompt="Hello",
        native={"SessionStart": [(None, prints({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "CTX-SESSION"}}))]},
        claude={"SessionStart": [(None, None, "echo CTX-SESSION")]},
        expect="same"),
    "codex_stop_once": dict(
        what="Stop blocks once (the agent goes on)", script=STOP, prompt="Say something",
        native={"Stop": [(None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
    "codex_deny_with_suppress": dict(
        what="a deny with suppressOutput", script=SHELL,
        native={"PreToolUse": [("Bash", prints({"suppressOutput": True, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R-DENY"}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"suppressOutput": True, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R-DENY"}}))]},
        expect="differ: natively Codex reads suppressOutput:true as a failed hook and runs the tool; hookrun drops the field and the deny holds"),
    "codex_ask": dict(
        what="ask (Codex cannot ask)", script=SHELL,
        native={"PreToolUse": [("Bash", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}}))]},
        expect="differ: natively `ask` is a failed hook and the tool runs; hookrun denies (Codex cannot ask)"),
    "codex_timeout": dict(
        what="a hook outlives its 2 s timeout, then would block", user="told", script=SHELL,
        native={"PreToolUse": [("Bash", "sleep 4; echo R-LATE >&2; exit 2", 2)]},
        claude={"PreToolUse": [("Bash", None, "sleep 4; echo R-LATE >&2; exit 2", 2)]},
        expect="differ: `codex exec` prints no hook text at all, only `hook: PreToolUse <Status>`: natively the "
               "status says Failed; behind hookrun it says Completed (hookrun's own run did not fail) and hookrun's "
               "warning is a systemMessage, which Codex's UI and app-server show as a warning entry of the run"),
}


def hooks_doc(groups):
    hooks = {}
    for event, entries in groups.items():
        for entry in entries:
            matcher, command = entry[:2]
            timeout = entry[2] if len(entry) > 2 else TIMEOUT
            group = {"hooks": [{"type": "command", "command": command, "timeout": timeout}]}
            if matcher:
                group["matcher"] = matcher
            hooks.setdefault(event, []).append(group)
    return {"hooks": hooks}


def write_native(case, path):
    base_case(path, case)
    write_json(os.path.join(path, "hooks.json"), hooks_doc(case["native"]))


def write_fire(case, path, binary):
    base_case(path, case)
    hookrun_project(path, case)
    write_json(os.path.join(path, "hooks.json"),
               hooks_doc({e: [(None, "%s fire --host codex %s" % (binary, e))] for e in case["claude"]}))


def write_installed(case, path, files):
    """install's <project>/.codex/hooks.json is the run's project layer
    (the harness marks the project trusted)."""
    base_case(path, case)
    hookrun_project(path, case)
    doc = None
    for (side, rel), (data, mode) in files.items():
        if side == "proj" and rel == ".codex/hooks.json":
            doc = data
        elif side == "proj" and not rel.startswith(".hookrun/"):
            dst = os.path.join(path, "files", rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "wb") as f:
                f.write(data)
            os.chmod(dst, mode)
    if doc is None:
        return "install wrote no .codex/hooks.json"
    with open(os.path.join(path, "project_hooks.json"), "wb") as f:
        f.write(doc)
    return None


def model_view(out):
    main = main_requests(out)
    if main is None:
        return None, 0
    if not main:
        return [], 0
    texts = []
    for item in main[-1]["body"].get("input", [])[3:]:
        kind = item.get("type")
        if kind == "message":
            for c in item.get("content", []):
                texts.append("%s: %s" % (item.get("role"), c.get("text", "")))
        elif kind in ("function_call", "custom_tool_call"):
            texts.append("call %s %s" % (item.get("name"), item.get("arguments", item.get("input", ""))))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            texts.append("result %s" % item.get("output"))
    # hook_run_id names the hooks file, which differs by wiring.
    return [normalise(re.sub(r'hook_run_id=\\?"[^"\\]*\\?"', "hook_run_id=<id>", t)) for t in texts], len(main)


def user_view(out):
    """What `codex exec` told the user on stderr: from the prompt on, the
    hook status lines, warnings, errors and the answer (not the token
    count)."""
    text = read(out, "stderr.txt")
    if text is None:
        return None
    lines = text.splitlines()
    if "user" in lines:
        lines = lines[lines.index("user") + 2:]
    shown, skip_next = [], False
    for line in lines:
        if skip_next:
            skip_next = False
            continue
        if line == "tokens used":
            skip_next = True
            continue
        if not line.strip() or "--dangerously-bypass-hook-trust" in line:
            continue
        shown.append(normalise(re.sub(r'hook_run_id=\\?"[^"\\]*\\?"', "hook_run_id=<id>", line)))
    return shown

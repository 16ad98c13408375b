"""Factory Droid: hooks in <project>/.factory/settings.json (or hooks.json),
Claude Code's event names, Droid's tool names, timeouts in seconds. Its
harness is this repository's own (tools/hosts/droid/run_case.py)."""

import os
import re

from common import ONCE, REPO, REWRITE, prints, read, chat_view, base_case, hookrun_project, write_json

NAME = "droid"
HARNESS = os.path.join(REPO, "tools", "hosts")
TIMEOUT = 60
EVENTS = {e: e for e in ("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd",
                         "SubagentStop", "Notification", "PreCompact", "UserPromptSubmit")}
CANNOT = ["UserPromptSubmit under `droid exec` (it never fires headless)",
          "ask (`droid exec` runs the call: hookrun denies with the reason)",
          "context before a tool (PreToolUse drops it: hookrun carries it to the same call's PostToolUse)",
          "a rewrite that leaves a field out (Droid merges it into the call: hookrun denies)"]


def shell(command):
    return {"name": "Execute", "arguments": {"summary": "Run the given command now", "command": command,
                                             "riskLevelReason": "list files", "riskLevel": "low"}}


SHELL = [{"calls": [shell("echo hi && touch bash_ran.marker")]}, {"text": "Final answer after the tool."}]
READS = [{"calls": [{"name": "Read", "arguments": {"file_path": "@PROJ@/notes.txt"}}]},
         {"calls": [{"name": "Read", "arguments": {"file_path": "@PROJ@/other.txt"}}]},
         {"text": "Final answer after the reads."}]
STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]
HELLO = [{"text": "Hello."}]
NOTES = {"notes.txt": "private\n", "other.txt": "other\n"}

CASES = {
    "droid_block": dict(
        what="block a tool (exit 2 + reason)", script=SHELL,
        native={"PreToolUse": [("Execute", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "droid_json_deny": dict(
        what="deny with permissionDecision", script=SHELL,
        native={"PreToolUse": [("Execute", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R-DENY"}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "R-DENY"}}))]},
        expect="same"),
    "droid_read_guard": dict(
        what="deny reading a file (`Read` rule)", script=READS, files=NOTES,
        native={"PreToolUse": [("Read", "case \"$(cat)\" in *notes.txt*) echo R-PRIVATE >&2; exit 2;; esac")]},
        claude={"PreToolUse": [("Read", "Read(**/notes.txt)", "echo R-PRIVATE >&2; exit 2")]},
        expect="same"),
    "droid_rewrite": dict(
        what="rewrite the command (updatedInput)", script=SHELL,
        native={"PreToolUse": [("Execute", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        expect="same"),
    "droid_post_context": dict(
        what="context after a tool", script=SHELL,
        native={"PostToolUse": [("Execute", prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        claude={"PostToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        expect="same"),
    "droid_post_block": dict(
        what="block after a tool (exit 2)", script=SHELL,
        native={"PostToolUse": [("Execute", "echo 'R-POST: output looks wrong' >&2; exit 2")]},
        claude={"PostToolUse": [("Bash", None, "echo 'R-POST: output looks wrong' >&2; exit 2")]},
        expect="same"),
    "droid_pre_context": dict(
        what="context before a tool", script=SHELL,
        native={"PreToolUse": [("Execute", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE"}}))],
                "PostToolUse": [("Execute", prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-PRE"}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE"}}))]},
        expect="same: natively Droid drops a PreToolUse context, so the native side gives it after the tool, "
               "where hookrun carries it"),
    "droid_session_context": dict(
        what="context at session start", script=HELLO, prompt="Hello",
        native={"SessionStart": [(None, prints({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "CTX-SESSION"}}))]},
        claude={"SessionStart": [(None, None, "echo CTX-SESSION")]},
        expect="same"),
    "droid_stop_once": dict(
        what="Stop blocks once (the agent goes on)", script=STOP, prompt="Say something",
        native={"Stop": [(None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
    "droid_ask": dict(
        what="ask (nobody to ask headless)", script=SHELL,
        native={"PreToolUse": [("Execute", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}}))]},
        expect="differ: natively `droid exec` runs a call a hook asks about; hookrun denies it (nobody can approve it)"),
    "droid_stop_loop": dict(
        what="Stop blocks every time", script=[{"text": "Answer %d." % i} for i in range(14)], prompt="Say something",
        native={"Stop": [(None, "echo AGAIN >&2; exit 2")]},
        claude={"Stop": [(None, None, "echo AGAIN >&2; exit 2")]},
        expect="differ: Droid has no cap and loops until it is killed; behind hookrun the stop-loop guard lets it stop after 8 blocks",
        timeout=60),
    "droid_timeout": dict(
        what="a hook outlives its 2 s timeout, then would block", user="told", script=SHELL,
        native={"PreToolUse": [("Execute", "sleep 5; echo R-LATE >&2; exit 2", 2)]},
        claude={"PreToolUse": [("Bash", None, "sleep 5; echo R-LATE >&2; exit 2", 2)]},
        expect="same"),
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


def options(case, path):
    if case.get("timeout"):
        write_json(os.path.join(path, "options.json"), {"timeout": case["timeout"]})


def write_native(case, path):
    base_case(path, case)
    write_json(os.path.join(path, "settings.json"), hooks_doc(case["native"]))
    options(case, path)


def write_fire(case, path, binary):
    """One entry per event of the case; PostToolUse with PreToolUse, where
    a PreToolUse context arrives (as `install` routes them)."""
    base_case(path, case)
    hookrun_project(path, case)
    events = list(case["claude"])
    if "PreToolUse" in events and "PostToolUse" not in events:
        events.append("PostToolUse")
    write_json(os.path.join(path, "settings.json"),
               hooks_doc({e: [(None, "%s fire --host droid" % binary)] for e in events}))
    options(case, path)


def write_installed(case, path, files):
    """install's <project>/.factory/settings.json is the run's project file."""
    base_case(path, case)
    hookrun_project(path, case)
    doc = None
    for (side, rel), (data, _) in files.items():
        if side == "proj" and rel == ".factory/settings.json":
            doc = data
    if doc is None:
        return "install wrote no .factory/settings.json"
    with open(os.path.join(path, "settings.json"), "wb") as f:
        f.write(doc)
    options(case, path)
    return None


def model_view(out):
    """The chat view, less what differs by the harness alone: Droid's
    environment reminder lists the run's variable names (hookrun's side
    sets HOOKRUN_TRUST_PROJECT), and a reason's trailing newline (exit 2's
    stderr has one, a JSON reason none)."""
    view, count = chat_view(out)
    if view is None:
        return view, count
    cleaned = [re.sub(r"\nEnv: [^\n]*", "\nEnv: <names>", text).rstrip() for text in view]
    return cleaned, count


def user_view(out):
    """What `droid exec` printed: its answer on stdout, its errors on stderr."""
    lines = []
    for name in ("stdout.txt", "stderr.txt"):
        text = read(out, name)
        if text is None:
            return None
        lines += [line for line in text.splitlines() if line.strip()]
    return lines


def install_failed(out):
    text = read(out, "install.txt")
    if text and "\nexit 0\n" not in text:
        return text.strip().splitlines()[-1]
    return None

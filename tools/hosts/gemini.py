"""Gemini CLI: hooks in <project>/.gemini/settings.json, timeouts in ms."""

import os
import re

from common import ONCE, REWRITE, j, prints, read, jsonl, main_requests, normalise, \
    base_case, hookrun_project, write_json

NAME = "gemini"
TIMEOUT = 60000
EVENTS = {"PreToolUse": "BeforeTool", "PostToolUse": "AfterTool", "UserPromptSubmit": "BeforeAgent",
          "Stop": "AfterAgent", "SessionStart": "SessionStart", "SessionEnd": "SessionEnd"}
CANNOT = ["PermissionRequest (Gemini CLI has no such event)",
          "ask (a native `ask` hangs a headless run: hookrun denies with the reason)",
          "context before a tool (BeforeTool takes none)"]

SHELL = [{"calls": [{"name": "run_shell_command",
                     "args": {"command": "echo hi && touch bash_ran.marker", "description": "Print hi"}}]},
         {"text": "Final answer after the tool."}]
STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]
HELLO = [{"text": "Hello."}]

# name: what, script, native {host event: [(matcher, command[, timeout ms])]},
# claude {event: [(matcher, if, command[, timeout s])]}, expect.
CASES = {
    "gemini_block": dict(
        what="block a tool (exit 2 + reason)", script=SHELL,
        native={"BeforeTool": [("run_shell_command", prints({"decision": "deny", "reason": "R-BLOCK: no echo"}))]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "gemini_rewrite": dict(
        what="rewrite the command (updatedInput)", script=SHELL,
        native={"BeforeTool": [("run_shell_command", prints({"hookSpecificOutput": {"tool_input": {"command": REWRITE, "description": "Print hi"}}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE, "description": "Print hi"}}}))]},
        expect="same"),
    "gemini_partial_rewrite": dict(
        what="a rewrite that leaves a field out (updatedInput {command})", script=SHELL,
        native={"BeforeTool": [("run_shell_command", prints({"hookSpecificOutput": {"tool_input": {"command": REWRITE}}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        expect="same (Gemini replaces the input, as updatedInput replaces tool_input: the left-out description is gone on both sides)"),
    "gemini_post_context": dict(
        what="context after a tool", script=SHELL,
        native={"AfterTool": [("run_shell_command", prints({"hookSpecificOutput": {"additionalContext": "CTX-POST"}}))]},
        claude={"PostToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        expect="same"),
    "gemini_prompt_context": dict(
        what="context with the prompt", script=HELLO, prompt="Hello",
        native={"BeforeAgent": [(None, prints({"hookSpecificOutput": {"additionalContext": "CTX-PROMPT"}}))]},
        # Claude Code's plain stdout on UserPromptSubmit is context.
        claude={"UserPromptSubmit": [(None, None, "echo CTX-PROMPT")]},
        expect="same"),
    "gemini_session_context": dict(
        what="context at session start", script=HELLO, prompt="Hello",
        native={"SessionStart": [(None, prints({"hookSpecificOutput": {"additionalContext": "CTX-SESSION"}}))]},
        claude={"SessionStart": [(None, None, "echo CTX-SESSION")]},
        expect="same"),
    "gemini_stop_once": dict(
        what="Stop blocks once (the agent goes on)", script=STOP, prompt="Say something",
        native={"AfterAgent": [(None, ONCE + prints({"decision": "block", "reason": "SAY-BYE"}))]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
    "gemini_ask": dict(
        what="ask (no one to ask headless)", script=SHELL,
        native={"BeforeTool": [("run_shell_command", prints({"decision": "deny", "reason": "approval required, but Gemini CLI cannot ask: SURE?"}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}}))]},
        expect="same (a native `ask` hangs headless; the native hook is the deny hookrun should send)"),
    "gemini_timeout": dict(
        what="a hook outlives its 2 s timeout, then would block", user="told", script=SHELL,
        native={"BeforeTool": [("run_shell_command", "sleep 4; " + prints({"decision": "deny", "reason": "R-LATE"}), 2000)]},
        claude={"PreToolUse": [("Bash", None, "sleep 4; echo R-LATE >&2; exit 2", 2)]},
        expect="same (the tool runs; the user is told of the timeout if the host tells natively)"),
}


def hooks_doc(groups):
    """{host event: [(matcher, command, timeout)]} as Gemini's settings."""
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
    write_json(os.path.join(path, "settings.json"), hooks_doc(case["native"]))


def write_fire(case, path, binary):
    base_case(path, case)
    hookrun_project(path, case)
    events = [EVENTS[e] for e in case["claude"]]
    write_json(os.path.join(path, "settings.json"),
               hooks_doc({e: [(None, "%s fire --host gemini %s" % (binary, e))] for e in events}))


def write_installed(case, path, files):
    """install's files: .gemini/settings.json is the case's settings.json;
    anything else it wrote in the project is seeded as is."""
    base_case(path, case)
    hookrun_project(path, case)
    settings = None
    for (side, rel), (data, mode) in files.items():
        if side == "proj" and rel == ".gemini/settings.json":
            settings = data
        elif side == "proj" and not rel.startswith(".hookrun/"):
            dst = os.path.join(path, "files", rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(dst, "wb") as f:
                f.write(data)
            os.chmod(dst, mode)
    if settings is None:
        return "install wrote no .gemini/settings.json"
    with open(os.path.join(path, "settings.json"), "wb") as f:
        f.write(settings)
    return None


def model_view(out):
    main = main_requests(out)
    if main is None:
        return None, 0
    if not main:
        return [], 0
    texts = []
    for content in main[-1]["body"].get("contents", []):
        for part in content.get("parts", []):
            if "text" in part and part["text"].startswith("<session_context>"):
                continue  # lists the project's files, which differ by design
            if "text" in part:
                texts.append("%s: %s" % (content.get("role"), part["text"]))
            elif "functionCall" in part:
                texts.append("call %s %s" % (part["functionCall"].get("name"), j(part["functionCall"].get("args"))))
            elif "functionResponse" in part:
                texts.append("result %s" % j(part["functionResponse"].get("response")))
    return [normalise(t) for t in texts], len(main)


NOISE = ("Warning: Basic terminal detected", "Warning: 256-color support", "YOLO mode is enabled",
         "Ripgrep is not available", "[STARTUP] ")


def user_view(out):
    """What Gemini told the user: its stderr (without the start-up notices
    and the first-sight list of project hooks, which names each hook's
    command) and the stream-json errors and warnings."""
    text = read(out, "stderr.txt")
    if text is None:
        return None
    lines, skipping = [], False
    for line in text.splitlines():
        if line.startswith("WARNING: The following project-level hooks"):
            skipping = True
            continue
        if skipping:
            if line.startswith("please review the project settings"):
                skipping = False
            continue
        if not line.strip() or line.startswith(NOISE):
            continue
        # A hook is named by its command, which differs by design.
        line = re.sub(r"Hook\(s\) \[[^\]]*\]", "Hook(s) [<hook>]", line)
        line = re.sub(r"(\d+ failed) \([^)]*\)", r"\1 (<hook>)", line)
        lines.append(normalise(line))
    for event in jsonl(out, "stdout.txt"):
        if event.get("type") == "error":
            lines.append(normalise("stream %s: %s" % (event.get("severity"), event.get("message"))))
        elif event.get("type") == "result" and event.get("status") != "success":
            lines.append("stream result: %s" % event.get("status"))
    return lines

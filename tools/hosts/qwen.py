"""Qwen Code: hooks in <project>/.qwen/settings.json, Claude Code's event
names, Qwen's tool names, timeouts in seconds (1000 and more: ms)."""

import os

from common import ONCE, REWRITE, prints, read, main_requests, normalise, base_case, hookrun_project, \
    write_json

NAME = "qwen"
TIMEOUT = 60
EVENTS = {e: e for e in ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd")}
CANNOT = ["a rewrite (Qwen ignores updatedInput and runs the original: hookrun denies)",
          "context before a tool (dropped by Qwen: hookrun carries it to the call's PostToolUse)"]

SHELL = [{"calls": [{"name": "run_shell_command",
                     "arguments": {"command": "echo hi && touch bash_ran.marker", "description": "Print hi"}}]},
         {"text": "Final answer after the tool."}]
READS = [{"calls": [{"name": "read_file", "arguments": {"file_path": "@PROJ@/notes.txt"}}]},
         {"calls": [{"name": "read_file", "arguments": {"file_path": "@PROJ@/other.txt"}}]},
         {"text": "Final answer after the reads."}]
STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]
POST_CTX = prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}})
REWRITING = prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                           "updatedInput": {"command": REWRITE}}})

CASES = {
    "qwen_block": dict(
        what="block a tool (exit 2 + reason)", script=SHELL,
        native={"PreToolUse": [("run_shell_command", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "qwen_read_guard": dict(
        what="deny reading a file (read_file as Read)", script=READS,
        files={"notes.txt": "private\n", "other.txt": "other\n"},
        native={"PreToolUse": [("read_file", "case \"$(cat)\" in *notes.txt*) echo 'R-PRIVATE' >&2; exit 2;; esac")]},
        claude={"PreToolUse": [("Read", "Read(**/notes.txt)", "echo 'R-PRIVATE' >&2; exit 2")]},
        expect="same"),
    "qwen_post_context": dict(
        what="context after a tool", script=SHELL,
        native={"PostToolUse": [("run_shell_command", POST_CTX)]},
        claude={"PostToolUse": [("Bash", None, POST_CTX)]},
        expect="same"),
    "qwen_stop_once": dict(
        what="Stop blocks once (the agent goes on)", script=STOP, prompt="Say something",
        native={"Stop": [(None, ONCE + prints({"decision": "block", "reason": "SAY-BYE"}))]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
    "qwen_prompt_context": dict(
        what="context with the prompt", script=SHELL,
        native={"UserPromptSubmit": [(None, "echo CTX-PROMPT")]},
        claude={"UserPromptSubmit": [(None, None, "echo CTX-PROMPT")]},
        expect="differ: natively the context is added again after the tool result (Qwen re-fires the event "
               "with an empty prompt); behind hookrun it comes once, with the prompt"),
    "qwen_rewrite": dict(
        what="rewrite the command (updatedInput)", script=SHELL,
        native={"PreToolUse": [("run_shell_command", REWRITING)]},
        claude={"PreToolUse": [("Bash", None, REWRITING)]},
        expect="differ: natively Qwen ignores the rewrite and runs the original command; behind hookrun the call "
               "is denied (a hook rewrote this call, which Qwen Code cannot apply)"),
}


def hooks_doc(groups):
    hooks = {}
    for event, entries in groups.items():
        for entry in entries:
            matcher, command = entry[:2]
            group = {"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT}]}
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
    events = list(case["claude"])
    if "PreToolUse" in events and "PostToolUse" not in events:
        events.append("PostToolUse")
    write_json(os.path.join(path, "settings.json"),
               hooks_doc({e: [(None, "%s fire --host qwen" % binary)] for e in events}))


def write_installed(case, path, files):
    """install's <project>/.qwen/settings.json is the run's project file."""
    base_case(path, case)
    hookrun_project(path, case)
    for (side, rel), (data, _) in files.items():
        if side == "proj" and rel == ".qwen/settings.json":
            with open(os.path.join(path, "settings.json"), "wb") as f:
                f.write(data)
            return None
    return "install wrote no .qwen/settings.json"


def model_view(out):
    """Texts of the last model request after the system prompt, without
    Qwen's own system reminders (its skill list); and the request count."""
    main = main_requests(out)
    if main is None:
        return None, 0
    if not main:
        return [], 0
    texts = []
    for m in main[-1]["body"].get("messages", [])[1:]:
        content = m.get("content")
        parts = content if isinstance(content, list) else [{"text": content or ""}]
        for p in parts:
            text = p.get("text", "") if isinstance(p, dict) else str(p)
            if text and not text.startswith("<system-reminder>"):
                texts.append("%s: %s" % (m.get("role"), text))
        for call in m.get("tool_calls") or []:
            texts.append("call %s %s" % (call["function"]["name"], call["function"]["arguments"]))
    return [normalise(t) for t in texts], len(main)


def user_view(out):
    text = read(out, "stderr.txt")
    if text is None:
        return None
    return [normalise(line) for line in text.splitlines() if line.strip()]

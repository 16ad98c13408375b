"""GitHub Copilot CLI: hook files in <project>/.github/hooks/*.json (flat
camelCase entries, `bash`, `timeoutSec`); payloads carry no event name."""

import os
import re

from common import ONCE, SECRET_ENV, REWRITE, prints, read, chat_view, normalise, base_case, \
    hookrun_project, claude_settings, write_json

NAME = "copilot"
TIMEOUT = 30
EVENTS = {"PreToolUse": "preToolUse", "PostToolUse": "postToolUse",
          "PostToolUseFailure": "postToolUseFailure", "PermissionRequest": "permissionRequest",
          "UserPromptSubmit": "userPromptSubmitted", "Stop": "agentStop",
          "SessionStart": "sessionStart", "SessionEnd": "sessionEnd",
          "SubagentStart": "subagentStart", "SubagentStop": "subagentStop"}
CANNOT = ["ask (headless, Copilot denies at once: the same as native)",
          "exit 1 fails closed natively, open behind hookrun (Claude Code's protocol)"]

SHELL = [{"calls": [{"name": "bash", "arguments": {"command": "echo hi && touch bash_ran.marker",
                                                    "description": "Print hi"}}]},
         {"text": "Final answer after the tool."}]
READ = [{"calls": [{"name": "view", "arguments": {"path": "@PROJ@/notes.txt"}}]},
        {"text": "Final answer after the read."}]
MISSING = [{"calls": [{"name": "view", "arguments": {"path": "@PROJ@/missing.txt"}}]},
           {"text": "Final answer."}]
PATCH = [{"raw_message": {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_patch_1", "type": "custom", "custom": {
        "name": "apply_patch",
        "input": "*** Begin Patch\n*** Update File: notes.txt\n@@\n-alpha line\n+beta line\n*** End Patch\n"}}]},
    "finish_reason": "tool_calls"},
    {"text": "Final answer after the patch."}]
TALK = [{"text": "First answer."}, {"text": "Second answer."}, {"text": "Third answer."}]
NOTES = {"notes.txt": "alpha line\nsecond line\n"}
NO_ALLOW_ALL = ["--no-auto-update", "--trust-folder"]
# The Claude Code hook decides on the tool_input hookrun hands it.
PERM_ECHO = ("python3 -c 'import json,sys; d=json.load(sys.stdin); "
             "sys.exit(0 if \"echo\" in str((d.get(\"tool_input\") or {}).get(\"command\",\"\")) else 1)' && ")

CASES = {
    "copilot_block": dict(
        what="block a tool (exit 2 + reason)", script=SHELL,
        native={"preToolUse": [("bash", prints({"permissionDecision": "deny", "permissionDecisionReason": "R-BLOCK: no echo"}))]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "copilot_block_notice": dict(
        what="block a tool while hookrun has a notice (a secret-looking variable)", env=SECRET_ENV, script=SHELL,
        native={"preToolUse": [("bash", prints({"permissionDecision": "deny", "permissionDecisionReason": "R-BLOCK: no echo"}))]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "copilot_rewrite": dict(
        what="rewrite the command (updatedInput)", script=SHELL,
        native={"preToolUse": [("bash", prints({"modifiedArgs": {"command": REWRITE, "description": "Print hi"}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE, "description": "Print hi"}}}))]},
        expect="same"),
    "copilot_partial_rewrite": dict(
        what="a rewrite that leaves a field out (updatedInput {command})", script=SHELL,
        native={"preToolUse": [("bash", prints({"modifiedArgs": {"command": REWRITE}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        expect="same (modifiedArgs replaces the whole input, as updatedInput replaces tool_input: the left-out description is gone on both sides)"),
    "copilot_read_guard": dict(
        what="deny reading a file (view -> Read)", script=READ, prompt="Please read notes.txt", files=NOTES,
        native={"preToolUse": [("view", "grep -q notes.txt && " + prints({"permissionDecision": "deny", "permissionDecisionReason": "R-READ: notes.txt is secret"}) + "; exit 0")]},
        claude={"PreToolUse": [("Read", "Read(**/notes.txt)", "echo 'R-READ: notes.txt is secret' >&2; exit 2")]},
        expect="same"),
    "copilot_patch_guard": dict(
        what="deny an apply_patch of a file (gpt-5.4)", script=PATCH, prompt="Please edit notes.txt", files=NOTES,
        options={"model": "gpt-5.4"},
        native={"preToolUse": [(None, "grep -q notes.txt && " + prints({"permissionDecision": "deny", "permissionDecisionReason": "R-PATCH: notes.txt is frozen"}) + "; exit 0")]},
        claude={"PreToolUse": [("Edit|Write", "Edit(**/notes.txt)", "echo 'R-PATCH: notes.txt is frozen' >&2; exit 2")]},
        expect="same"),
    "copilot_pre_context": dict(
        what="context before a tool", script=SHELL,
        native={"preToolUse": [("bash", prints({"additionalContext": "CTX-PRE"}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE"}}))]},
        expect="same"),
    "copilot_post_context": dict(
        what="context after a tool", script=SHELL,
        native={"postToolUse": [("bash", prints({"additionalContext": "CTX-POST"}))]},
        claude={"PostToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        expect="same"),
    "copilot_post_block": dict(
        what="block a tool's result (PostToolUse decision:block)", script=SHELL,
        native={"postToolUse": [("bash", prints({"decision": "block", "reason": "R-POST-BLOCK"}))]},
        claude={"PostToolUse": [("Bash", None, prints({"decision": "block", "reason": "R-POST-BLOCK"}))]},
        expect="same"),
    "copilot_postfail_context": dict(
        what="context after a failed tool", script=MISSING, prompt="Please read missing.txt",
        native={"postToolUseFailure": [(None, prints({"additionalContext": "CTX-FAIL"}))]},
        claude={"PostToolUseFailure": [(None, None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "CTX-FAIL"}}))]},
        expect="same"),
    "copilot_prompt_context": dict(
        what="context with the prompt", script=TALK, prompt="Hello from the user prompt",
        native={"userPromptSubmitted": [(None, prints({"additionalContext": "CTX-PROMPT"}))]},
        claude={"UserPromptSubmit": [(None, None, "echo CTX-PROMPT")]},
        expect="same"),
    "copilot_prompt_block": dict(
        what="block the prompt", script=TALK, prompt="Hello from the user prompt",
        native={"userPromptSubmitted": [(None, prints({"decision": "block", "reason": "R-PROMPT-BLOCK"}))]},
        claude={"UserPromptSubmit": [(None, None, "echo R-PROMPT-BLOCK >&2; exit 2")]},
        expect="same"),
    "copilot_session_context": dict(
        what="context at session start", script=TALK, prompt="Hello from the user prompt",
        native={"sessionStart": [(None, prints({"additionalContext": "CTX-SESSION"}))]},
        claude={"SessionStart": [(None, None, "echo CTX-SESSION")]},
        expect="same"),
    "copilot_stop_once": dict(
        what="Stop blocks once (the agent goes on)", script=TALK, prompt="Say something",
        native={"agentStop": [(None, ONCE + prints({"decision": "block", "reason": "SAY-BYE"}))]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
    "copilot_ask": dict(
        what="ask (no one to ask headless)", script=SHELL,
        native={"preToolUse": [("bash", prints({"permissionDecision": "ask", "permissionDecisionReason": "SURE?"}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}}))]},
        expect="same"),
    "copilot_permission": dict(
        what="PermissionRequest denies by the command (no --allow-all-tools)", script=SHELL, args=NO_ALLOW_ALL,
        native={"permissionRequest": [(None, "grep -q 'echo hi' && " + prints({"behavior": "deny", "message": "R-PERM"}) + "; exit 0")]},
        claude={"PermissionRequest": [(None, None, PERM_ECHO + prints({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "R-PERM"}}}))]},
        expect="same"),
    "copilot_timeout": dict(
        what="a hook outlives its 2 s timeout, then would block", user="told", script=SHELL,
        native={"preToolUse": [("bash", "sleep 4; " + prints({"permissionDecision": "deny", "permissionDecisionReason": "R-LATE"}), 2)]},
        claude={"PreToolUse": [("Bash", None, "sleep 4; echo R-LATE >&2; exit 2", 2)]},
        expect="same (the tool runs; the user is told of the timeout if the host tells natively)"),
    "copilot_under_claude_install": dict(
        what="`hookrun install claude-code` (.claude/settings.json), run by Copilot: block + Stop",
        script=SHELL, install_host="claude-code", wirings=["install"],
        native={"preToolUse": [("bash", prints({"permissionDecision": "deny", "permissionDecisionReason": "R-BLOCK: no echo"}))],
                "agentStop": [(None, ONCE + prints({"decision": "block", "reason": "SAY-BYE"}))]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")],
                "Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same"),
}


def hooks_doc(groups):
    """{host event: [(matcher, command[, timeoutSec])]} as one hook file."""
    hooks = {}
    for event, entries in groups.items():
        for entry in entries:
            matcher, command = entry[:2]
            item = {"type": "command", "bash": command,
                    "timeoutSec": entry[2] if len(entry) > 2 else TIMEOUT}
            if matcher:
                item["matcher"] = matcher
            hooks.setdefault(event, []).append(item)
    return {"version": 1, "hooks": hooks}


def common_parts(case, path):
    base_case(path, case)
    if case.get("args"):
        write_json(os.path.join(path, "args.json"), case["args"])
    options = {"timeout": 90}
    options.update(case.get("options") or {})
    write_json(os.path.join(path, "options.json"), options)


def write_native(case, path):
    common_parts(case, path)
    write_json(os.path.join(path, "hooks.json"), hooks_doc(case["native"]))


def write_fire(case, path, binary):
    common_parts(case, path)
    hookrun_project(path, case)
    events = [EVENTS[e] for e in case["claude"]]
    write_json(os.path.join(path, "hooks.json"),
               hooks_doc({e: [(None, "%s fire --host copilot %s" % (binary, e))] for e in events}))


def install_in_run(case, path, binary):
    """Copilot's harness runs `hookrun trust` and `hookrun install HOST`
    itself, in the run's project inside the namespace, just before
    Copilot starts (install.json): install's wiring end to end."""
    common_parts(case, path)
    hookrun_project(path, case)
    write_json(os.path.join(path, "hookrun_settings.json"), claude_settings(case))
    write_json(os.path.join(path, "install.json"),
               {"host": case.get("install_host", "copilot"), "settings": "project"})


def install_failed(out):
    """The install step's own failure, from out/install.txt."""
    text = read(out, "install.txt")
    if text is None:
        return "install did not run"
    for block in text.split("$ ")[1:]:
        m = re.search(r"^exit: (\S+)", block, re.M)
        if m and m.group(1) != "0":
            return "`%s` exit %s: %s" % (block.splitlines()[0], m.group(1),
                                         block.split("--- stderr\n", 1)[-1].strip()[:300])
    return None


def model_view(out):
    return chat_view(out)


STATS = re.compile(r"^(Changes|Duration|Tokens|Resume|Total usage|API time|Total session|"
                   r"Total code changes|Usage by model)\b|^\s+\S+\s+[\d.]+[km]? in,")


def user_view(out):
    """What Copilot printed (stdout and stderr), without the closing usage
    lines; the hook file a message names differs by wiring."""
    texts = [read(out, "stdout.txt"), read(out, "stderr.txt")]
    if texts[0] is None:
        return None
    lines = []
    for text in texts:
        for line in (text or "").splitlines():
            if not line.strip() or STATS.search(line):
                continue
            line = re.sub(r'from "[^"]*"', 'from "<hook file>"', line)
            lines.append(normalise(line))
    return lines

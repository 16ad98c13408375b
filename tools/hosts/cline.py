"""Cline CLI: a hook is an executable file named after its event in a hook
folder; it answers with one JSON object on stdout and no exit code counts."""

import os

from common import ONCE, SECRET_ENV, REWRITE, j, sq, prints, read, jsonl, chat_view, normalise, base_case, \
    hookrun_project, write_text

NAME = "cline"
EVENTS = {"PreToolUse": "PreToolUse", "PostToolUse": "PostToolUse",
          "UserPromptSubmit": "UserPromptSubmit", "SessionStart": "TaskStart", "Stop": "TaskComplete",
          "SessionEnd": "SessionShutdown"}
# The harness's folders: run_case.py's hooks/<loc>/ names.
HOME_FOLDERS = {".cline/hooks/": "user", "Documents/Cline/Hooks/": "docs"}
CANNOT = ["a block that lets the model go on has no field: the native hooks use "
          "`{\"overrideInput\":{},\"contextModification\":R}` (the tool fails as invalid input, "
          "the model gets R); `cancel` ends the whole run and shows R to no one",
          "ask (no such decision: a deny)",
          "context with the prompt (UserPromptSubmit never fires headless), at session start and "
          "Stop blocks (TaskStart/TaskComplete run detached, their output is discarded)",
          "matchers and per-hook timeouts (fixed 120 s): timeouts are not compared"]

SHELL = [{"calls": [{"name": "run_commands", "arguments": {"commands": ["echo hi && touch bash_ran.marker"]}}]},
         {"text": "Final answer after the tool."}]
READ = [{"calls": [{"name": "read_files", "arguments": {"files": [{"path": "@PROJ@/notes.txt"}]}}]},
        {"text": "Final answer after the read."}]
TALK = [{"text": "First answer."}, {"text": "Second answer."}]
NOTES = {"notes.txt": "alpha line\nsecond line\n"}


def when(tool, answer):
    """A native hook body: ANSWER (a JSON value) when the call is TOOL's."""
    return ('in=$(cat); if printf %%s "$in" | grep -q \'"name":"%s"\'; then printf %%s %s; fi\n'
            % (tool, sq(j(answer))))


def deny(reason):
    """The deny Cline lets the model go on after (FINDINGS §1)."""
    return {"overrideInput": {}, "contextModification": reason}


CASES = {
    "cline_block": dict(
        what="block a tool (exit 2 + reason)", script=SHELL,
        native={"PreToolUse": when("run_commands", deny("R-BLOCK: no echo"))},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "cline_block_notice": dict(
        what="block a tool while hookrun has a notice (a secret-looking variable)", env=SECRET_ENV, script=SHELL,
        native={"PreToolUse": when("run_commands", deny("R-BLOCK: no echo"))},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same"),
    "cline_rewrite": dict(
        what="rewrite the command (updatedInput)", script=SHELL,
        native={"PreToolUse": when("run_commands", {"overrideInput": {"commands": [REWRITE]}})},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        expect="same"),
    "cline_read_guard": dict(
        what="deny reading a file (read_files -> Read)", script=READ, prompt="Please read notes.txt", files=NOTES,
        native={"PreToolUse": when("read_files", deny("R-READ: notes.txt is secret"))},
        claude={"PreToolUse": [("Read", "Read(**/notes.txt)", "echo 'R-READ: notes.txt is secret' >&2; exit 2")]},
        expect="same"),
    "cline_pre_context": dict(
        what="context before a tool", script=SHELL,
        native={"PreToolUse": when("run_commands", {"contextModification": "CTX-PRE"})},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-PRE"}}))]},
        expect="same"),
    "cline_post_context": dict(
        what="context after a tool", script=SHELL,
        native={"PostToolUse": when("run_commands", {"contextModification": "CTX-POST"})},
        claude={"PostToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        expect="same"),
    "cline_post_block": dict(
        what="PostToolUse decision:block (Cline: context after the output)", script=SHELL,
        native={"PostToolUse": when("run_commands", {"contextModification": "R-POST-BLOCK"})},
        claude={"PostToolUse": [("Bash", None, prints({"decision": "block", "reason": "R-POST-BLOCK"}))]},
        expect="same"),
    "cline_ask": dict(
        what="ask (Cline cannot ask: a deny)", script=SHELL,
        native={"PreToolUse": when("run_commands", deny("approval required, but Cline cannot ask: SURE?"))},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "SURE?"}}))]},
        expect="same (the native hook is the deny hookrun should send; its wording may differ)"),
    "cline_prompt_context": dict(
        what="context with the prompt (never fires headless)", script=TALK, prompt="Say hello to me",
        native={"UserPromptSubmit": "cat >/dev/null; printf %s " + sq(j({"contextModification": "CTX-PROMPT"})) + "\n"},
        claude={"UserPromptSubmit": [(None, None, "echo CTX-PROMPT")]},
        expect="same (no effect either way)"),
    "cline_session_context": dict(
        what="context at session start (TaskStart is detached)", script=TALK, prompt="Say hello to me",
        native={"TaskStart": "cat >/dev/null; printf %s " + sq(j({"contextModification": "CTX-SESSION"})) + "\n"},
        claude={"SessionStart": [(None, None, "echo CTX-SESSION")]},
        expect="same (no effect either way)"),
    "cline_stop_once": dict(
        what="Stop blocks once (TaskComplete is detached)", script=TALK, prompt="Say something",
        native={"TaskComplete": "cat >/dev/null; " + ONCE + prints({"cancel": True, "errorMessage": "SAY-BYE"}) + "\n"},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same (no effect either way)"),
}


def hook_file(path, loc, name, body):
    write_text(os.path.join(path, "hooks", loc, name), "#!/bin/bash\n" + body, 0o755)


def common_parts(case, path):
    base_case(path, case)
    write_text(os.path.join(path, "options.json"), j({"timeout": 120}) + "\n")


def write_native(case, path):
    common_parts(case, path)
    for event, body in case["native"].items():
        hook_file(path, "user", event, body)


def write_fire(case, path, binary):
    common_parts(case, path)
    hookrun_project(path, case)
    for event in case["claude"]:
        name = EVENTS[event]
        hook_file(path, "user", name, "exec %s fire --host cline %s\n" % (sq(binary), name))


def write_installed(case, path, files):
    """install's files: the project's go into the project as written, the
    home's into the harness's matching hook folder."""
    common_parts(case, path)
    hookrun_project(path, case)
    placed = 0
    for (side, rel), (data, mode) in files.items():
        if side == "proj":
            if rel.startswith(".hookrun/"):
                continue
            dst = os.path.join(path, "files", rel)
        else:
            loc = next((l for prefix, l in HOME_FOLDERS.items() if rel.startswith(prefix)), None)
            if loc is None:
                return "install wrote ~/%s, which this harness cannot place" % rel
            dst = os.path.join(path, "hooks", loc, rel.split("/")[-1])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
        os.chmod(dst, mode)
        placed += 1
    return None if placed else "install wrote no hook file"


def model_view(out):
    return chat_view(out)


def user_view(out):
    """What Cline reported (its --json stream): tool errors, run errors, an
    abort and how the run finished; and stderr without the node notice."""
    if read(out, "stdout.txt") is None:
        return None
    lines = []
    for row in jsonl(out, "stdout.txt"):
        kind, event = row.get("type"), row.get("event") or {}
        if kind == "agent_event" and event.get("type") == "error":
            lines.append("error: %s" % (event.get("error") or {}).get("message"))
        elif kind == "agent_event" and event.get("type") == "content_end" and event.get("error"):
            lines.append("tool %s error: %s" % (event.get("toolName"), event.get("error")))
        elif kind == "run_aborted":
            lines.append("aborted: %s %s" % (row.get("reason"), row.get("message")))
        elif kind == "run_result":
            lines.append("finished: %s: %s" % (row.get("finishReason"), row.get("text")))
    for line in (read(out, "stderr.txt") or "").splitlines():
        if line.strip() and not line.startswith("[cline] Node"):
            lines.append(line)
    return [normalise(l) for l in lines]

"""Claude Code: hooks in <project>/.claude/settings.json. Run through the
shared oracle harness (its run_case.py, the real CLI against a scripted
Anthropic API on loopback), as `just oracle` does, but with the same three
wirings as every other host: the native hook, `hookrun fire --host
claude-code` by hand, and exactly what `hookrun install claude-code` writes.
Pick the release with ORACLE_CC_VERSION (and ORACLE_CC_PREFIX)."""

import json
import os

from common import ONCE, REWRITE, prints, read, jsonl, main_requests, normalise, base_case, hookrun_project, \
    write_json

NAME = "claude-code"
# The oracle harness: <harness>/../oracle/run_case.py next to the hosts folder.
RUNNER = os.path.join("..", "oracle", "run_case.py")
EVENTS = {}
CANNOT = ["nothing: this is Claude Code's own protocol (differences of docs/claude-code.md section 3 aside)"]

SHELL = [{"tool_use": [{"name": "Bash", "input": {"command": "echo hi && touch bash_ran.marker",
                                                  "description": "Print hi"}}]},
         {"text": "Final answer after the tool."}]
STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]
SKILL = {".claude/skills/cleanup/SKILL.md": "---\nname: cleanup\ndescription: Remove the build folder\n---\n"
                                            "The build folder was removed: !`rm -rf build && touch skill_ran.marker`\n\n"
                                            "Say what happened.\n",
         "build/artifact.txt": "keep\n"}
DONE = [{"text": "Done: the skill ran."}]
GUARD = "echo 'R-NO-RM: no rm here' >&2; exit 2"

CASES = {
    "claude_block": dict(
        what="block a tool (exit 2 + reason)", script=SHELL,
        native={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        claude={"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        expect="same (modulo Claude Code's `[<command>]:` prefix, docs/claude-code.md 3.8)", prefix=True),
    "claude_rewrite": dict(
        what="rewrite the command (updatedInput)", script=SHELL,
        native={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        claude={"PreToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}}))]},
        expect="same"),
    "claude_post_context": dict(
        what="context after a tool", script=SHELL,
        native={"PostToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        claude={"PostToolUse": [("Bash", None, prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "CTX-POST"}}))]},
        expect="same"),
    "claude_stop_once": dict(
        what="Stop blocks once (the agent goes on)", script=STOP, prompt="Say something",
        native={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        claude={"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        expect="same (modulo the prefix)", prefix=True),
    "claude_on_failure_block": dict(
        what="a hook that fails (exit 1) with onFailure: block", script=SHELL,
        native={"PreToolUse": [("Bash", None, "echo 'R-BROKEN' >&2; exit 1", {"onFailure": "block"})]},
        claude={"PreToolUse": [("Bash", None, "echo 'R-BROKEN' >&2; exit 1", {"onFailure": "block"})]},
        expect="differ in words only: both deny the call; Claude Code says `failed; blocking because onFailure is "
               "\"block\"`, hookrun `… onError is \"block\"`", words=True),
    "claude_skill_guard": dict(
        what="a Bash guard hook and a skill's `rm -rf build`", script=DONE, prompt="/cleanup", files=SKILL,
        native={"PreSkillShellCommand": [("Bash", None, GUARD)]},
        claude={"PreToolUse": [("Bash", "Bash(rm *)", GUARD)]},
        expect="same: natively the guard is a PreSkillShellCommand hook; behind hookrun the PreToolUse Bash guard "
               "judges the skill's command, routed by `install`"),
    "claude_skill_deny_rule": dict(
        what="`permissions.deny: [\"Bash(rm *)\"]` and a skill's `rm -rf build`", script=DONE, prompt="/cleanup",
        files=SKILL, native={}, native_permissions={"deny": ["Bash(rm *)"]},
        claude={}, permissions={"deny": ["Bash(rm *)"]},
        expect="differ in effect, not in outcome: `rm -rf build` runs on neither side. Natively Claude Code's own "
               "deny rule fails the whole skill load (`Shell command permission check failed…`, no model request); "
               "behind hookrun the rule's deny reaches Claude Code as a PreSkillShellCommand answer, the command is "
               "marked `[not run: blocked by hook: …]` and the skill goes on"),
}


def settings_doc(groups, permissions=None):
    hooks = {}
    for event, entries in groups.items():
        for entry in entries:
            matcher, rule, command = entry[:3]
            hook = {"type": "command", "command": command}
            if rule:
                hook["if"] = rule
            if len(entry) > 3:
                hook.update(entry[3])
            group = {"hooks": [hook]}
            if matcher:
                group["matcher"] = matcher
            hooks.setdefault(event, []).append(group)
    doc = {"hooks": hooks}
    if permissions:
        doc["permissions"] = permissions
    return doc


def write_native(case, path):
    base_case(path, case)
    write_json(os.path.join(path, "settings.json"),
               settings_doc(case["native"], case.get("native_permissions")))


def hookrun_side(case, path):
    base_case(path, case)
    hookrun_project(path, case)


def write_fire(case, path, binary):
    hookrun_side(case, path)
    events = list(case["claude"]) or ["PreToolUse"]
    if case.get("files", {}).get(".claude/skills/cleanup/SKILL.md"):
        events.append("PreSkillShellCommand")
    write_json(os.path.join(path, "settings.json"),
               {"hooks": {e: [{"hooks": [{"type": "command", "command": "%s fire --host claude-code" % binary}]}]
                          for e in events}})


def write_installed(case, path, files):
    hookrun_side(case, path)
    for (side, rel), (data, _) in files.items():
        if side == "proj" and rel == ".claude/settings.json":
            with open(os.path.join(path, "settings.json"), "wb") as f:
                f.write(data)
            return None
    return "install wrote no .claude/settings.json"


def text_of(content):
    if isinstance(content, str):
        return content
    return "\n".join(c.get("text", json.dumps(c.get("content"))) if isinstance(c, dict) else str(c)
                     for c in content or [])


def model_view(out):
    """Every text of the last main request after the first user message
    (tool results, the skill's expansion, hook notes), Claude Code's
    `[<command>]: ` prefixes removed (the one documented difference)."""
    main = main_requests(out)
    if main is None:
        return None, 0
    if not main:
        return [], 0
    texts = []
    for m in main[-1]["body"].get("messages", [])[1:]:
        content = m["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for b in blocks:
            if b.get("type") == "text":
                text = b["text"]
            elif b.get("type") == "tool_result":
                text = "result " + text_of(b.get("content"))
            elif b.get("type") == "tool_use":
                text = "call %s %s" % (b.get("name"), json.dumps(b.get("input"), sort_keys=True))
            else:
                continue
            if text.startswith("# Environment") or "<system-reminder>" in text[:40]:
                continue
            text = normalise(text)
            text = __import__("re").sub(r"\[[^\]\n]*\]: ", "", text).rstrip()
            texts.append("%s: %s" % (m["role"], text))
    return texts, len(main)


def user_view(out):
    rows = jsonl(out, "stdout.txt")
    if read(out, "stdout.txt") is None:
        return None
    return [normalise(str(r.get("result"))) for r in rows if r.get("type") == "result"]

#!/usr/bin/env python3
"""Write the droid cases' inputs (cases/NAME/: not their out/).

    python3 make_cases.py [NAME ...]

Every hook script saves its stdin as $ORACLE_OUT/<label>_stdin_<n>.json and
appends `<label>` to calls.log before it answers; `cap.sh LABEL` also saves
its environment (env_<label>_<n>.txt) and its working directory.
"""

import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = {}

CAP = r'''#!/bin/sh
label=$1
n=$(ls "$ORACLE_OUT" | grep -c "^${label}_stdin_")
cat > "$ORACLE_OUT/${label}_stdin_$n.json"
env | sort > "$ORACLE_OUT/env_${label}_$n.txt"
pwd > "$ORACLE_OUT/cwd_${label}_$n.txt"
echo "$label" >> "$ORACLE_OUT/calls.log"
'''


def shell(command, reason="list files", risk="low"):
    """An Execute call as Droid's tool takes it (its risk fields are required)."""
    return {"name": "Execute", "arguments": {"summary": "Run the given command now", "command": command,
                                             "riskLevelReason": reason, "riskLevel": risk}}


SHELL = [{"calls": [shell("echo hi && touch bash_ran.marker")]}, {"text": "Final answer after the tool."}]
STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}, {"text": "Third."}]
HELLO = [{"text": "Hello."}]
REWRITE = "echo rewritten && touch rewritten_ran.marker"
ONCE = 'if [ -e "$ORACLE_OUT/once" ]; then exit 0; fi; touch "$ORACLE_OUT/once"; '


def j(value):
    return json.dumps(value, separators=(",", ":"))


def prints(value):
    return "printf '%s' '" + j(value).replace("'", "'\\''") + "'"


def logged(label, answer):
    """A hook command: record the call, then answer."""
    return "cat > \"$ORACLE_OUT/%s_stdin_$$.json\"; echo %s >> \"$ORACLE_OUT/calls.log\"; %s" % (label, label, answer)


def hooks(spec):
    """{event: [(matcher, command[, timeout])]} as Claude Code's nested shape."""
    out = {}
    for event, entries in spec.items():
        for entry in entries:
            matcher, command = entry[:2]
            hook = {"type": "command", "command": command}
            if len(entry) > 2:
                hook["timeout"] = entry[2]
            group = {"hooks": [hook]}
            if matcher is not None:
                group["matcher"] = matcher
            out.setdefault(event, []).append(group)
    return {"hooks": out}


def case(name, what, script=SHELL, prompt="Please run echo hi", where="hooks.json", spec=None, **extra):
    CASES[name] = dict(what=what, script=script, prompt=prompt, where=where, spec=spec or {}, **extra)


# Files whose events sit at the top level (no `hooks` key).
BARE = ("hooks.json", "legacy_hooks.json", "user_hooks.json")

EVENTS = ["PreToolUse", "PostToolUse", "Notification", "UserPromptSubmit", "Stop", "SubagentStop",
          "PreCompact", "SessionStart", "SessionEnd"]

# s: what every event sends, and the hook's process
case("s1_capture_every_event", "a capture hook on every event Droid names; one shell call",
     spec={e: [(None, "@HOOKS@/cap.sh %s" % e)] for e in EVENTS})
case("s2_capture_tools", "PreToolUse/PostToolUse capture for Read, Create, Edit, LS, Grep, Glob",
     script=[{"calls": [{"name": "Read", "arguments": {"file_path": "@PROJ@/notes.txt"}}]},
             {"calls": [{"name": "Create", "arguments": {"file_path": "@PROJ@/new.txt", "content": "new\n"}}]},
             {"calls": [{"name": "Edit", "arguments": {"file_path": "@PROJ@/notes.txt", "old_str": "alpha",
                                                        "new_str": "beta"}}]},
             {"calls": [{"name": "LS", "arguments": {"directory_path": "@PROJ@"}}]},
             {"calls": [{"name": "Grep", "arguments": {"pattern": "beta", "path": "@PROJ@"}}]},
             {"calls": [{"name": "Glob", "arguments": {"patterns": ["*.txt"], "folder": "@PROJ@"}}]},
             {"text": "Done with the files."}],
     files={"notes.txt": "alpha\n"},
     spec={"PreToolUse": [(None, "@HOOKS@/cap.sh pre")], "PostToolUse": [(None, "@HOOKS@/cap.sh post")]})

case("s3_mcp_tool_name", "the tool name an MCP tool gets in a hook's payload (a stdio server in .factory/mcp.json)",
     script=[{"calls": [{"name": "oracle___echo", "arguments": {"text": "hi"}}]}, {"text": "Done."}],
     files={".factory/mcp.json": json.dumps({"mcpServers": {"oracle": {"type": "stdio", "command": "python3",
                                                                       "args": ["@HOOKS@/mcp_server.py"]}}})},
     extra_hooks={"mcp_server.py": open(os.path.join(HERE, "..", "..", "oracle", "cases", "t3_ask_mcp_star", "hooks",
                                                       "mcp_server.py")).read()},
     spec={"PreToolUse": [(None, "@HOOKS@/cap.sh pre")], "PostToolUse": [(None, "@HOOKS@/cap.sh post")]})

# where hooks are read from
for where, label in (("settings.json", "w1_project_settings"), ("legacy_hooks.json", "w2_legacy_hooks_folder"),
                     ("user_hooks.json", "w3_user_hooks"), ("user_settings.json", "w4_user_settings"),
                     ("claude_settings.json", "w5_claude_settings")):
    case(label, "a PreToolUse capture hook in %s only" % where, where=where,
         spec={"PreToolUse": [(None, "@HOOKS@/cap.sh pre")]})

case("w6_hooks_json_wrapped", "a PreToolUse capture hook in .factory/hooks.json written as {\"hooks\": …}",
     wrapped=True, spec={"PreToolUse": [(None, "@HOOKS@/cap.sh pre")]})

# a: PreToolUse exit codes; c: PreToolUse JSON
case("a1_pre_exit2", "PreToolUse exit 2 with a reason on stderr and text on stdout",
     spec={"PreToolUse": [("Execute", logged("pre", "echo PRE-STDOUT-A; echo 'BLOCKED-BY-HOOK-A: no echo' >&2; exit 2"))]})
case("a2_pre_exit1", "PreToolUse exit 1 with stderr",
     spec={"PreToolUse": [("Execute", logged("pre", "echo 'HOOK-ERROR-B: broken' >&2; exit 1"))]})
case("a3_pre_exit3", "PreToolUse exit 3 (Droid's abort code)",
     spec={"PreToolUse": [("Execute", logged("pre", "echo 'ABORT-A3' >&2; exit 3"))]})
case("a4_pre_exit2_empty", "PreToolUse exit 2, nothing on stderr",
     spec={"PreToolUse": [("Execute", logged("pre", "echo ONLY-STDOUT-A4; exit 2"))]})
case("a5_pre_not_found", "PreToolUse command not found (127)",
     spec={"PreToolUse": [("Execute", "/nonexistent/hook.sh")]})
case("c1_pre_json_deny", "permissionDecision deny with a reason",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "DENY-REASON-C1"}})))]})
case("c2_pre_json_ask", "permissionDecision ask, headless",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "ASK-REASON-C2"}})))]})
case("c3_pre_json_allow_low_autonomy", "permissionDecision allow where --auto low would refuse the command",
     args=["--auto", "low", "-m", "custom:Fake-0"],
     script=[{"calls": [shell("curl -s http://127.0.0.1:9/ ; touch bash_ran.marker", "network", "medium")]}, {"text": "Final."}],
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "ALLOW-C3"}})))]})
case("c3b_no_hook_low_autonomy", "the same command at --auto low with no hook (baseline for c3)",
     args=["--auto", "low", "-m", "custom:Fake-0"],
     script=[{"calls": [shell("curl -s http://127.0.0.1:9/ ; touch bash_ran.marker", "network", "medium")]}, {"text": "Final."}])
case("c4_pre_updated_input_allow", "allow + updatedInput {command} only",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}})))],
           "PostToolUse": [("Execute", "@HOOKS@/cap.sh post")]})
case("c5_pre_updated_input_nodecision", "updatedInput without a decision",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": REWRITE}}})))],
           "PostToolUse": [("Execute", "@HOOKS@/cap.sh post")]})
case("c6_pre_updated_input_drops_field", "updatedInput that leaves out fireAndForget (merged or replaced?)",
     script=[{"calls": [dict(shell("echo hi && touch bash_ran.marker"), arguments=dict(shell("echo hi && touch bash_ran.marker")["arguments"], timeout=30))]}, {"text": "Final."}],
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE}}})))],
           "PostToolUse": [("Execute", "@HOOKS@/cap.sh post")]})
case("c12_pre_updated_input_null_field", "updatedInput setting the left-out field to null: is it removed?",
     script=[{"calls": [dict(shell("echo hi && touch bash_ran.marker"), arguments=dict(shell("echo hi && touch bash_ran.marker")["arguments"], timeout=30))]}, {"text": "Final."}],
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": REWRITE, "timeout": None}}})))],
           "PostToolUse": [("Execute", "@HOOKS@/cap.sh post")]})
case("c13_pre_updated_input_edit_change_all", "an Edit rewrite that leaves out change_all: does Droid keep it?",
     script=[{"calls": [{"name": "Read", "arguments": {"file_path": "@PROJ@/notes.txt"}}]},
             {"calls": [{"name": "Edit", "arguments": {"file_path": "@PROJ@/notes.txt", "old_str": "alpha", "new_str": "beta", "change_all": True}}]},
             {"text": "Final."}],
     files={"notes.txt": "alpha\nalpha\n"},
     spec={"PreToolUse": [("Edit", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"file_path": "@PROJ@/notes.txt", "old_str": "alpha", "new_str": "gamma"}}})))],
           "PostToolUse": [("Edit", "@HOOKS@/cap.sh post")]})
case("c7_pre_continue_false", "continue:false with stopReason on PreToolUse",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"continue": False, "stopReason": "STOP-REASON-C7"})))]})
case("c8_pre_additional_context", "additionalContext on PreToolUse",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "PRE-CTX-C8"}})))]})
case("c9_pre_legacy_block", "top-level decision block with reason",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"decision": "block", "reason": "LEGACY-BLOCK-C9"})))]})
case("c10_pre_system_message", "systemMessage beside a deny",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"systemMessage": "SYSMSG-C10", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "DENY-C10"}})))]})
case("c11_pre_exit2_plus_allow_json", "exit 2 with an allow JSON on stdout",
     spec={"PreToolUse": [("Execute", logged("pre", prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}) + "; echo EXIT2-C11 >&2; exit 2"))]})

# g: matchers
case("g1_matchers", "PreToolUse matchers against Execute and Read",
     script=[{"calls": [shell("echo hi && touch bash_ran.marker")]},
             {"calls": [{"name": "Read", "arguments": {"file_path": "@PROJ@/notes.txt"}}]}, {"text": "Done."}],
     files={"notes.txt": "alpha\n"},
     spec={"PreToolUse": [(m, "echo '%s' \"$(tr -d '\\n' | sed 's/.*\"tool_name\":\"\\([^\"]*\\)\".*/\\1/')\" >> \"$ORACLE_OUT/matcher.log\"" % m)
                          for m in ("Execute", "Bash", "Read", "Execute|Read", "Exec.*", "^Read$", "execute", "*", "", "Exec")]})

# i: several hooks
case("i1_parallel_allow_then_deny", "two PreToolUse hooks: allow JSON, then deny JSON",
     spec={"PreToolUse": [("Execute", logged("allow", "sleep 1; " + prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))),
                          ("Execute", logged("deny", "sleep 1; " + prints({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "DENY-I1"}})))]})

# k: timeouts
case("k1_pre_timeout", "PreToolUse `timeout: 2` and the hook sleeps 10 s, then would block",
     spec={"PreToolUse": [("Execute", logged("pre", "sleep 10; echo LATE-K1 >&2; exit 2"), 2)]})

# l: PostToolUse
case("l1_post_exit2", "PostToolUse exit 2 with stderr",
     spec={"PostToolUse": [("Execute", logged("post", "echo 'POST-STDERR-L1: output looks wrong' >&2; exit 2"))]})
case("l2_post_context", "PostToolUse additionalContext",
     spec={"PostToolUse": [("Execute", logged("post", prints({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "POST-CTX-L2"}})))]})
case("l3_post_json_block", "PostToolUse decision block",
     spec={"PostToolUse": [("Execute", logged("post", prints({"decision": "block", "reason": "POST-BLOCK-L3"})))]})

# n: UserPromptSubmit; m: SessionStart
case("n1_ups_exit2", "UserPromptSubmit exit 2", script=HELLO, prompt="Hello",
     spec={"UserPromptSubmit": [(None, logged("ups", "echo 'UPS-BLOCK-N1: no' >&2; exit 2"))]})
case("n2_ups_json_block", "UserPromptSubmit decision block", script=HELLO, prompt="Hello",
     spec={"UserPromptSubmit": [(None, logged("ups", prints({"decision": "block", "reason": "UPS-BLOCK-N2"})))]})
case("n3_ups_plain_stdout", "UserPromptSubmit plain stdout", script=HELLO, prompt="Hello",
     spec={"UserPromptSubmit": [(None, logged("ups", "echo PLAIN-UPS-N3"))]})
case("n4_ups_context", "UserPromptSubmit additionalContext", script=HELLO, prompt="Hello",
     spec={"UserPromptSubmit": [(None, logged("ups", prints({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "UPS-CTX-N4"}})))]})
case("m1_session_start_context", "SessionStart plain stdout and additionalContext", script=HELLO, prompt="Hello",
     spec={"SessionStart": [(None, logged("ss", "echo PLAIN-SS-M1")),
                            (None, logged("ss2", prints({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "SS-CTX-M1"}})))]})

# o: Stop
case("o1_stop_exit2_once", "Stop exit 2 once", script=STOP, prompt="Say something",
     spec={"Stop": [(None, logged("stop", ONCE + "echo 'STOP-FEEDBACK-O1: say bye' >&2; exit 2"))]})
case("o2_stop_json_block_once", "Stop decision block once", script=STOP, prompt="Say something",
     spec={"Stop": [(None, logged("stop", ONCE + prints({"decision": "block", "reason": "STOP-BLOCK-O2"})))]})
case("o3_stop_always_blocks", "Stop exit 2 every time: does Droid cap the loop?",
     script=[{"text": "Answer %d." % i} for i in range(14)], prompt="Say something",
     spec={"Stop": [(None, logged("stop", "echo AGAIN >&2; exit 2"))]})


def write(name, spec):
    path = os.path.join(HERE, "cases", name)
    if os.path.isdir(path):
        for entry in os.listdir(path):
            if entry != "out":
                target = os.path.join(path, entry)
                shutil.rmtree(target) if os.path.isdir(target) else os.remove(target)
    os.makedirs(os.path.join(path, "hooks"), exist_ok=True)
    with open(os.path.join(path, "hooks", "cap.sh"), "w") as f:
        f.write(CAP)
    for name, text in (spec.get("extra_hooks") or {}).items():
        with open(os.path.join(path, "hooks", name), "w") as f:
            f.write(text)
    with open(os.path.join(path, "script.json"), "w") as f:
        json.dump(spec["script"], f, indent=1)
    with open(os.path.join(path, "prompt.txt"), "w") as f:
        f.write(spec["prompt"] + "\n")
    with open(os.path.join(path, "CASE.md"), "w") as f:
        f.write(spec["what"] + "\n")
    if spec["spec"]:
        doc = hooks(spec["spec"])
        if spec["where"] in BARE and not spec.get("wrapped"):
            # Droid's hooks.json holds the events at its top level; a
            # `{"hooks": …}` there is ignored (w6 shows it).
            doc = doc["hooks"]
        with open(os.path.join(path, spec["where"]), "w") as f:
            json.dump(doc, f, indent=1)
    for rel, text in (spec.get("files") or {}).items():
        os.makedirs(os.path.join(path, "files", os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(path, "files", rel), "w") as f:
            f.write(text)
    for key in ("args", "env"):
        if spec.get(key) is not None:
            with open(os.path.join(path, key + ".json"), "w") as f:
                json.dump(spec[key], f)


def main():
    names = sys.argv[1:] or list(CASES)
    for name in names:
        write(name, CASES[name])
        print(name)


if __name__ == "__main__":
    main()

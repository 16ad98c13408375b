#!/usr/bin/env python3
"""Run cases through the real Qwen Code twice and compare (compare.py's
method, for Qwen Code).

    python3 hosts/compare_qwen.py [CASE ...] [--harness DIR] [--hookrun BIN] [--out DIR]

For each case, two harness cases are written under OUT/cases/:

1. native:  the hook in Qwen's own terms (its tool names as matchers) in
   .qwen/settings.json;
2. hookrun: the SAME intent as a Claude Code hook (matcher `Bash`, `if`
   rules, exit 2, `updatedInput`…) in the project's .hookrun/settings.json,
   and .qwen/settings.json exactly as `hookrun install qwen` writes it (run
   in a scratch copy of the project); the run trusts the project file with
   HOOKRUN_TRUST_PROJECT=1.

Both go through the shared Qwen harness (DIR/qwen/run_case.py: the real CLI
from npm, a fake OpenAI-compatible model on loopback, a network namespace).
Compared: the marker files the project got (did the tool run), the texts of
the last model request and the number of model requests. A case whose
`expect` is "differ" is a place where hookrun answers otherwise on purpose.

Not part of `cargo test`. Exit 0 when every case came out as expected, 1
otherwise; the table goes to OUT/table.md.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import REPO, claude_settings, markers, normalise, run  # noqa: E402

SHELL = [{"calls": [{"name": "run_shell_command",
                     "arguments": {"command": "echo hi && touch bash_ran.marker",
                                   "description": "Print hi"}}]},
         {"text": "Final answer after the tool."}]
READS = [{"calls": [{"name": "read_file", "arguments": {"file_path": "@PROJ@/notes.txt"}}]},
         {"calls": [{"name": "read_file", "arguments": {"file_path": "@PROJ@/other.txt"}}]},
         {"text": "Final answer after the reads."}]
STOP = [{"text": "First answer."}, {"text": "Second answer after the block."}]
ONCE = 'if [ -e "$ORACLE_OUT/once" ]; then exit 0; fi; touch "$ORACLE_OUT/once"; '
REWRITE = "echo rewritten && touch rewritten_ran.marker"
POST_CTX = ("printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\","
            "\"additionalContext\":\"CTX-POST\"}}'")

CASES = {
    "qwen_block": {
        "script": SHELL, "expect": "same",
        "claude": {"PreToolUse": [("Bash", "Bash(echo *)", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
        "native": {"PreToolUse": [("run_shell_command", "echo 'R-BLOCK: no echo' >&2; exit 2")]},
    },
    "qwen_read_guard": {
        "script": READS, "expect": "same", "files": {"notes.txt": "private\n", "other.txt": "other\n"},
        "claude": {"PreToolUse": [("Read", "Read(**/notes.txt)", "echo 'R-PRIVATE' >&2; exit 2")]},
        "native": {"PreToolUse": [("read_file",
                                   "case \"$(cat)\" in *notes.txt*) echo 'R-PRIVATE' >&2; exit 2;; esac")]},
    },
    "qwen_post_context": {
        "script": SHELL, "expect": "same",
        "claude": {"PostToolUse": [("Bash", None, POST_CTX)]},
        "native": {"PostToolUse": [("run_shell_command", POST_CTX)]},
    },
    "qwen_prompt_context": {
        # Qwen re-fires UserPromptSubmit with an empty prompt after every
        # tool result: natively the context is added again; behind hookrun
        # that re-fire runs no hooks, so it comes once, with the prompt.
        "script": SHELL, "expect": "differ",
        "claude": {"UserPromptSubmit": [(None, None, "echo CTX-PROMPT")]},
        "native": {"UserPromptSubmit": [(None, "echo CTX-PROMPT")]},
    },
    "qwen_stop_once": {
        "script": STOP, "expect": "same",
        "claude": {"Stop": [(None, None, ONCE + "echo SAY-BYE >&2; exit 2")]},
        "native": {"Stop": [(None, ONCE + "echo '{\"decision\":\"block\",\"reason\":\"SAY-BYE\"}'")]},
    },
    "qwen_rewrite": {
        # Qwen ignores updatedInput and runs the original call; hookrun
        # denies it instead.
        "script": SHELL, "expect": "differ",
        "claude": {"PreToolUse": [("Bash", None, "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":"
                                   "\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":"
                                   "{\"command\":\"" + REWRITE + "\"}}}'")]},
        "native": {"PreToolUse": [("run_shell_command", "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":"
                                   "\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":"
                                   "{\"command\":\"" + REWRITE + "\"}}}'")]},
    },
}


def default_harness():
    for d in (os.environ.get("HOOKRUN_HOSTS_DIR"),
              os.path.join(os.path.dirname(REPO), "shared", "hosts")):
        if d and os.path.isfile(os.path.join(d, "qwen", "run_case.py")):
            return d
    return None


def native_doc(case):
    hooks = {}
    for event, entries in case["native"].items():
        for matcher, command in entries:
            group = {"hooks": [{"type": "command", "command": command, "timeout": 60}]}
            if matcher:
                group["matcher"] = matcher
            hooks.setdefault(event, []).append(group)
    return {"hooks": hooks}


def installed_doc(case, binary, scratch):
    """.qwen/settings.json as `hookrun install qwen` writes it."""
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    project = os.path.join(scratch, "proj")
    home = os.path.join(scratch, "home")
    os.makedirs(os.path.join(project, ".hookrun"))
    os.makedirs(home)
    with open(os.path.join(project, ".hookrun", "settings.json"), "w") as f:
        json.dump(claude_settings(case), f, indent=1)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home}
    done = subprocess.run([binary, "install", "qwen", "--binary", binary],
                          cwd=project, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"hookrun install qwen failed: {done.stderr}")
    with open(os.path.join(project, ".qwen", "settings.json")) as f:
        return json.load(f)


def write_case(path, case, doc, hookrun_settings=None):
    if os.path.exists(path):
        shutil.rmtree(path)
    os.makedirs(os.path.join(path, "files"))
    for name, text in case.get("files", {}).items():
        with open(os.path.join(path, "files", name), "w") as f:
            f.write(text)
    if hookrun_settings is not None:
        os.makedirs(os.path.join(path, "files", ".hookrun"))
        with open(os.path.join(path, "files", ".hookrun", "settings.json"), "w") as f:
            json.dump(hookrun_settings, f, indent=1)
        with open(os.path.join(path, "env.json"), "w") as f:
            json.dump({"HOOKRUN_TRUST_PROJECT": "1"}, f)
    with open(os.path.join(path, "script.json"), "w") as f:
        json.dump(case["script"], f, indent=1)
    with open(os.path.join(path, "prompt.txt"), "w") as f:
        f.write("Please run echo hi\n")
    with open(os.path.join(path, "settings.json"), "w") as f:
        json.dump(doc, f, indent=1)


def model_view(out):
    """Texts of the last model request after the system prompt and Qwen's
    skill list; and the number of requests."""
    path = os.path.join(out, "requests.jsonl")
    if not os.path.exists(path):
        return None, 0
    requests = [json.loads(line) for line in open(path) if line.strip()]
    main = [r for r in requests if r.get("kind", "main") == "main"]
    if not main:
        return [], 0
    texts = []
    for m in main[-1]["body"].get("messages", [])[1:]:
        content = m.get("content")
        parts = content if isinstance(content, list) else [{"text": content or ""}]
        for p in parts:
            text = p.get("text", "") if isinstance(p, dict) else str(p)
            if text.startswith("<system-reminder>"):
                continue
            if text:
                texts.append(f"{m.get('role')}: {text}")
        for call in m.get("tool_calls") or []:
            texts.append(f"call {call['function']['name']} {call['function']['arguments']}")
    return [normalise(t) for t in texts], len(main)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*")
    ap.add_argument("--harness", default=default_harness())
    ap.add_argument("--hookrun", default=os.path.join(REPO, "target", "release", "hookrun"))
    ap.add_argument("--out", default=os.path.join(REPO, "target", "hosts-qwen"))
    args = ap.parse_args()
    if not args.harness:
        print("SKIPPED: no Qwen harness (set HOOKRUN_HOSTS_DIR to the folder holding qwen/run_case.py)")
        return 0
    binary = os.path.abspath(args.hookrun)
    names = args.cases or list(CASES)
    rows, ok = [], True
    for name in names:
        case = CASES[name]
        base = os.path.join(args.out, "cases", name)
        write_case(base + "_native", case, native_doc(case))
        write_case(base + "_hookrun", case, installed_doc(case, binary, base + "_scratch"),
                   claude_settings(case))
        views = {}
        for side in ("native", "hookrun"):
            out = os.path.join(args.out, "out", f"{name}_{side}")
            env_before = os.environ.get("ORACLE_HOOKRUN")
            os.environ["ORACLE_HOOKRUN"] = binary
            try:
                run(args.harness, "qwen", base + "_" + side, out)
            finally:
                if env_before is None:
                    os.environ.pop("ORACLE_HOOKRUN", None)
                else:
                    os.environ["ORACLE_HOOKRUN"] = env_before
            texts, count = model_view(out)
            views[side] = (markers(out), texts, count)
        same = views["native"] == views["hookrun"]
        expected = same == (case["expect"] == "same")
        ok &= expected
        verdict = ("same" if same else "differs") + ("" if expected else " (UNEXPECTED)")
        rows.append(f"| `{name}` | {verdict} | native markers {views['native'][0]}, "
                    f"{views['native'][2]} requests; hookrun markers {views['hookrun'][0]}, "
                    f"{views['hookrun'][2]} requests |")
        print(rows[-1], flush=True)
        if not same:
            for side in ("native", "hookrun"):
                print(f"  {side}: {json.dumps(views[side][1])[:1500]}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write("| case | result | detail |\n|---|---|---|\n" + "\n".join(rows) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Run prompt-hook oracle cases twice against the real Claude Code and compare.

    python3 tools/oracle/compare_prompt.py [CASE ...] [--harness DIR] [--hookrun BIN] [--out DIR]

The cases are those of the shared oracle's prompt-hook probe
(<harness>/probes/prompt/p*/): each has `type: "prompt"` hooks in its
.claude/settings.json, and a fake model server (fake_anthropic_prompt.py)
that answers the main loop from a script and answers hook requests by
matching a marker in their text (PHOOK-Pnn).

For each case:

1. native:  the probe harness runs the case as written: Claude Code itself
   sends the prompt hooks' requests to the fake server;
2. hookrun: a transformed copy (the same transformation as compare.py: one
   `hookrun fire --settings OUT/cases/<case>/hookrun-settings.json` command
   hook per event, the original hooks in that file). Claude Code passes its
   environment, so hookrun finds ANTHROPIC_BASE_URL (the fake server) and
   ANTHROPIC_API_KEY and sends the prompt hooks' requests itself;
3. both runs are reduced to what the project, the model and the user saw:
   did the tool run (marker files), how many main-loop requests, how the
   run ended (terminal_reason, num_turns, the result text), every message
   text of the last main-loop request, and whether any hook request was
   made (the number is not compared: Claude Code retries a 500 until the
   timeout, hookrun a few times);
4. the texts are compared after the normalisations compare.py applies for
   the differences SPEC 11 documents, where Claude Code's `[<prompt>]: `
   label before a prompt hook's reason plays the part of `[<command>]: `.

Nothing here is part of `cargo test`: the harness installs Claude Code from
npm on first use and needs `unshare` (or ORACLE_NO_NETNS=1). Exit status 0
when every case has the same outcome or a difference listed in KNOWN.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare as base  # noqa: E402  (the shared transformation and evidence)

REPO = base.REPO

CASES = [
    "p01_pre_args_ok",
    "p02_pre_no_args",
    "p04_model_alias_haiku",
    "p05_model_full_id",
    "p07_env_small_fast_model",
    "p07a_env_small_fast_only",
    "p07b_env_default_haiku_only",
    "p07c_env_haiku_and_model_haiku",
    "p08_model_alias_sonnet",
    "p10_pre_false_reason",
    "p11_pre_false_continueOnBlock",
    "p12_pre_false_noreason",
    "p13_pre_legacy_block",
    "p14_pre_legacy_approve",
    "p15_pre_plain_text",
    "p16_pre_malformed_json",
    "p17_pre_empty_text",
    "p18_pre_fenced_json",
    "p19_pre_ok_string",
    "p20_pre_prose_then_json",
    "p22_pre_http400",
    "p23_pre_slow_timeout3",
    "p24_pre_true_reason",
    "p25_pre_impossible",
    "p26_pre_extra_fields",
    "p27_pre_false_extra_continue",
    "p29_pre_false_no_allowedtools",
    "p30_ups_false_reason",
    "p31_ups_true_reason",
    "p32_ups_malformed",
    "p33_ups_false_continueOnBlock",
    "p40_stop_false_once",
    "p41_stop_true",
    "p43_stop_impossible",
    "p44_stop_malformed",
    "p50_post_false_reason",
    "p51_post_false_continueOnBlock",
    "p52_post_true_reason",
    "p45_stop_no_args_tool_transcript",
    "p46_subagentstop_false_once",
    "p60_parallel_two_prompts_ok",
    "p61_prompt_false_cmd_allow",
    "p62_prompt_true_cmd_deny",
    "p63_two_prompts_both_false",
    "p66_stop_prompt_false_cmd_exit2",
    "p6a_cmd_exit2_first_then_prompt_false",
    "p67_two_prompts_false_second_answers_first",
    "p68_prompt_false_continueOnBlock_cmd_exit2",
    "p6b_cmd_exit2_slow_first_then_prompt_false",
    "p6c_duplicate_identical_prompt_hooks",
    "p6d_prompt_hook_plus_identical_text_different_model",
    "p71_only_SessionStart",
    "p72_only_SessionEnd",
    "p78a_posttoolusefailure_triggered",
    "p78b_permissionrequest_triggered",
    "p78e_permissionrequest_false",
    "p9a_pre_tool_use_answer",
    "p9b_pre_two_text_blocks",
    "p9c_pre_whitespace",
    "p9d_pre_fence_no_lang",
    "p9e_pre_text_then_fence",
    "p9f_pre_json_then_trailing",
    "p9g_pre_reason_number",
    "p9h_pre_array",
    "p9i_pre_reason_null",
    "p9j_pre_bare_false",
    "p9k_pre_single_quotes",
    "p9l_pre_trailing_comma",
    "p9m_pre_ok_1",
    "p9n_pre_json_in_fence_with_extra_text_after",
]

# Differences known and reported (see docs/prompt-hooks.md), not counted as
# failures. Fill in from a run's table; remove an entry when it no longer
# differs.
KNOWN = {
    "p66_stop_prompt_false_cmd_exit2":
        "a Stop prompt hook and a command hook both block once: the same outcome (the agent "
        "goes on with both reasons, then stops), but Claude Code adds one feedback block per "
        "hook (num_turns 3), hookrun one block with every reason as `[name]: reason` in load "
        "order (num_turns 2): the documented several-blocking-hooks difference",
    "p6a_cmd_exit2_first_then_prompt_false":
        "a command exit 2 and a prompt ok:false (continueOnBlock) on PreToolUse: the same "
        "outcome (denied, the agent goes on), but Claude Code shows the reason of the hook that "
        "finished last, hookrun every reason as `[name]: reason` in load order: the documented "
        "several-blocking-hooks difference",
    "p68_prompt_false_continueOnBlock_cmd_exit2":
        "the same as p6a, the prompt hook first: every reason behind hookrun, the last to "
        "finish natively (the documented several-blocking-hooks difference)",
    "p78e_permissionrequest_false":
        "PermissionRequest ok:false: the call is denied in both runs, but natively the answer "
        "has no effect (the denial is -p's own `needs approval`), while hookrun denies it with "
        "the model's reason (a deliberate difference, as for a command hook's exit 2 on "
        "PermissionRequest)",
}

# Cases whose hook request model is compared too: where the model is named
# (the hook's `model`, ANTHROPIC_SMALL_FAST_MODEL, ANTHROPIC_DEFAULT_HAIKU_MODEL),
# hookrun must ask the same one. Without any, Claude Code (behind a custom base
# URL) asks its main-loop model and hookrun promptHooks.model or its default.
MODEL_CASES = {
    "p04_model_alias_haiku", "p05_model_full_id", "p07_env_small_fast_model",
    "p07a_env_small_fast_only", "p07b_env_default_haiku_only",
    "p07c_env_haiku_and_model_haiku", "p08_model_alias_sonnet",
}


_base_normalise = base.normalise


def normalise(text, commands, rules):
    """compare.py's normalisations, plus one that goes with `prefix`: a
    reason that hookrun gives on stderr (exit 2, e.g. Stop feedback) ends
    in a newline, which Claude Code keeps before `</system-reminder>`.
    Subagent ids (SubagentStop cases) differ per run, like UUIDs."""
    text = _base_normalise(text, commands, rules)
    text = re.sub(r"\ba[0-9a-f]{16}\b", "<agent-id>", text)  # a subagent's id, per run
    text = re.sub(r"<duration_ms>\d+</duration_ms>", "<duration_ms>N</duration_ms>", text)
    if "prefix" in rules:
        text = text.replace("\n\n</system-reminder>", "\n</system-reminder>")
    return text


base.normalise = normalise


def default_harness():
    return base.default_harness()


def prompts_of(case_dir):
    """Every prompt hook's `prompt`, as written (Claude Code's label)."""
    with open(os.path.join(case_dir, "settings.json")) as f:
        settings = json.load(f)
    found = []
    for entries in settings.get("hooks", {}).values():
        for entry in entries:
            for hook in [entry] + list(entry.get("hooks", [])):
                if hook.get("type") == "prompt" and isinstance(hook.get("prompt"), str):
                    found.append(hook["prompt"])
    return found


def run_case(probe, case_dir, out, log):
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w") as f:
        p = subprocess.run([sys.executable, os.path.join(probe, "run_case_prompt.py"), case_dir,
                            "--out", out, "--timeout", "150"],
                           stdout=f, stderr=subprocess.STDOUT)
    return p.returncode


def evidence(out):
    ev = base.evidence(out)
    # Hook logs hold timestamps (p61/p62: when the command hook started
    # and ended); only their shape is compared.
    ev["logs"] = {name: [re.sub(r"\d+(\.\d+)?", "<n>", line) for line in lines]
                  for name, lines in ev["logs"].items()}
    ev["hook_requests"] = 0
    ev["hook_models"] = []
    ev["ending"] = None
    try:
        with open(os.path.join(out, "requests.jsonl")) as f:
            for line in f:
                r = json.loads(line)
                if str(r.get("kind", "")).startswith("rule:"):
                    ev["hook_requests"] += 1
                    model = (r.get("body") or {}).get("model")
                    if model not in ev["hook_models"]:
                        ev["hook_models"].append(model)
    except OSError:
        pass
    try:
        with open(os.path.join(out, "stdout.txt")) as f:
            for line in f:
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if e.get("type") == "result":
                    ev["ending"] = "%s/%s" % (e.get("terminal_reason"), e.get("num_turns"))
    except OSError:
        pass
    return ev


def compare(native, hooked, ncmds, hcmd, case=""):
    diffs, rules = base.compare(native, hooked, ncmds, hcmd)
    if case in MODEL_CASES and native["hook_models"] != hooked["hook_models"]:
        diffs.append("hook model: %s vs %s" % (native["hook_models"], hooked["hook_models"]))
    if native["ending"] != hooked["ending"]:
        diffs.append("run ended: %s vs %s" % (native["ending"], hooked["ending"]))
    if bool(native["hook_requests"]) != bool(hooked["hook_requests"]):
        diffs.append("hook requests: %d vs %d" % (native["hook_requests"], hooked["hook_requests"]))
    return diffs, rules


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help="case names (default: the built-in list)")
    ap.add_argument("--harness", default=default_harness(),
                    help="the shared oracle folder (its probes/prompt holds the cases)")
    ap.add_argument("--hookrun", default=os.path.join(REPO, "target", "release", "hookrun"),
                    help="the hookrun binary (default: target/release/hookrun)")
    ap.add_argument("--out", default=os.path.join(REPO, "target", "oracle-prompt"),
                    help="where runs, transformed cases and the table go")
    a = ap.parse_args()
    if not a.harness:
        sys.exit("oracle harness not found: pass --harness DIR or set HOOKRUN_ORACLE_DIR")
    probe = os.path.join(a.harness, "probes", "prompt")
    if not os.path.isfile(os.path.join(probe, "run_case_prompt.py")):
        sys.exit("no prompt probe in %s (expected probes/prompt/run_case_prompt.py)" % a.harness)
    hookrun = os.path.abspath(a.hookrun)
    if not os.access(hookrun, os.X_OK):
        sys.exit("%s is not an executable (cargo build --release first)" % hookrun)
    out = os.path.abspath(a.out)
    hookrun_dir = os.path.join(out, "bin")
    os.makedirs(hookrun_dir, exist_ok=True)
    link = os.path.join(hookrun_dir, "hookrun")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(hookrun, link)
    version = subprocess.run([hookrun, "--version"], capture_output=True, text=True).stdout.strip()

    rows, details, all_same = [], [], True
    cases = a.cases or CASES
    for case in cases:
        case_dir = os.path.join(probe, case)
        if not os.path.isdir(case_dir):
            sys.exit("no case %s in %s" % (case, probe))
        print("%-44s" % case, end=" ", flush=True)
        n_out, h_out = os.path.join(out, "native", case), os.path.join(out, "hookrun", case)
        rc1 = run_case(probe, case_dir, n_out, os.path.join(out, "logs", "native-" + case + ".log"))
        hcase = os.path.join(out, "cases", case)
        hcmd = base.transform(case_dir, hcase, hookrun_dir)
        rc2 = run_case(probe, hcase, h_out, os.path.join(out, "logs", "hookrun-" + case + ".log"))
        native, hooked = evidence(n_out), evidence(h_out)
        if rc1 or rc2 or native["exit"] is None or hooked["exit"] is None:
            diffs, applied = ["harness failed (native rc %s, hookrun rc %s); see %s"
                              % (rc1, rc2, os.path.join(out, "logs"))], ()
        else:
            ncmds = prompts_of(case_dir) + base.native_commands(case_dir)
            diffs, applied = compare(native, hooked, ncmds, hcmd, case)
        same = not diffs
        all_same &= same or case in KNOWN
        verdict = "yes" if same else ("NO (known, see below)" if case in KNOWN else "NO")
        if same and case in KNOWN:
            verdict += " -- no longer differs: remove it from KNOWN"
        if same and applied:
            verdict += " (modulo " + ", ".join(sorted(applied)) + ")"
        print(verdict)
        (nt, ntold), (ht, htold) = base.outcome(native), base.outcome(hooked)
        short = [t.replace(os.path.join(hcase, "hookrun-settings.json"), "$CASE/hookrun-settings.json")
                 for t in htold]
        rows.append("| %s | %s; %s; %s | %s; %s; %s | %s |" % (
            case, nt, native["ending"], base.cell(" / ".join(ntold)),
            ht, hooked["ending"], base.cell(" / ".join(short)), verdict))
        keys = ("markers", "requests", "hook_requests", "hook_models", "ending", "result")
        details.append("## %s\n\nverdict: %s\n\n### native\n\n```\n%s\n```\n\n"
                       "### behind hookrun\n\n```\n%s\n```\n%s"
                       % (case, verdict,
                          json.dumps({k: native[k] for k in keys}, indent=1) + "\n"
                          + "\n".join(base.hook_text(native)),
                          json.dumps({k: hooked[k] for k in keys}, indent=1) + "\n"
                          + "\n".join(base.hook_text(hooked)),
                          "".join("\n### difference\n\n```\n%s\n```\n" % d for d in diffs)))
    head = ("%s; native = the case's prompt hooks in .claude/settings.json; hookrun = the same "
            "hooks behind one `hookrun fire` entry per event.\n\n"
            "| case | native: tool marker; ending; what the model was told | behind hookrun | same? |\n"
            "|---|---|---|---|" % version)
    table = head + "\n" + "\n".join(rows) + "\n"
    known = [c for c in cases if c in KNOWN]
    if known:
        table += "\nKnown differences:\n\n" + "".join("- %s: %s.\n" % (c, KNOWN[c]) for c in known)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(table)
    with open(os.path.join(out, "details.md"), "w") as f:
        f.write("\n".join(details))
    print()
    print(table)
    print("details: %s" % os.path.join(out, "details.md"))
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Run cases through the real Claude Code, Gemini CLI, Codex, Copilot CLI,
Cline, Qwen Code and Factory Droid, with each host's own hooks and again
with the same intent behind hookrun, and compare what the model, the
project and the user saw.

    python3 tools/hosts/compare.py [CASE ...] [--host HOST ...] [--hookrun BIN]
                             [--wiring fire|install|both] [--harness DIR] [--out DIR]
                             [--timeout S] [--list] [--from-views] [--baseline DIR]

Each case (tools/hosts/claude.py, gemini.py, codex.py, copilot.py, cline.py,
qwen.py, droid.py) is one intent (block, rewrite, context, stop, ask,
permission, timeout) run up to three ways through the shared host harness (the real CLI from npm, a fake model on
loopback, a network namespace; Claude Code through the oracle harness's
runner, Factory Droid through this repository's tools/hosts/droid/):

- native: the hook written in the host's own format, as the host's own hook;
- hookrun (fire): the SAME intent as Claude Code hooks in the project's
  .hookrun/settings.json, and the host config written by hand to run
  `hookrun fire --host HOST EVENT` for each of the case's events: the
  adapter on its own;
- hookrun (install): the same settings, and the host config exactly as
  `hookrun install HOST` writes it.  Copilot's harness runs install itself,
  in the run's project, just before Copilot starts; for the other hosts it
  runs in a scratch project holding the same files and what it wrote is
  placed in the run (a written file naming the scratch folder is an error).

Compared, native against each hookrun run: which marker files the project
got (did the tool run), every text of the last model request and the number
of model requests ("model & project"), and what the host told the USER
("user saw": its printed output, normalised where the hook's own name or a
time shows up).  A host that reports a deliberate block as a failed hook,
or prints hookrun's warning where the native hook's reason stood, differs
there; a line that only relays a notice of hookrun's own (it names hookrun)
is shown as "same + hookrun's notice" and not counted as a difference.  In
a timeout case (`user="told"`) only whether the user is told of a failure
counts, since each side tells it in its own words.  A
case whose `expect` is "differ" documents where hookrun answers
otherwise on purpose.  A hookrun build without the host (no `--host HOST`,
or install refusing it) gets "unsupported", not a crash.

Nothing here is part of `cargo test`.  Exit 0 when every run came out as
expected, 1 otherwise.  Tables go to OUT/HOST.md and OUT/table.md, each
case's evidence and views to OUT/cases/NAME/.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cline  # noqa: E402
import codex  # noqa: E402
import common  # noqa: E402
import copilot  # noqa: E402
import claude  # noqa: E402
import droid  # noqa: E402
import gemini  # noqa: E402
import qwen  # noqa: E402

HOSTS = {m.NAME: m for m in (claude, gemini, codex, copilot, cline, qwen, droid)}


def default_harness():
    for d in (os.environ.get("HOOKRUN_HOSTS_DIR"),
              os.path.join(os.path.dirname(common.REPO), "shared", "hosts"),
              "/work/shared/hosts"):
        if d and os.path.isfile(os.path.join(d, "gemini", "run_case.py")):
            return d
    return None


def all_cases():
    return {name: dict(case, host=host) for host, mod in HOSTS.items() for name, case in mod.CASES.items()}


def side_view(mod, out, code):
    view, requests = mod.model_view(out)
    user = mod.user_view(out)
    if user is not None:
        # One message may hold several lines (a reason, then a notice).
        user = [part for line in user for part in line.split("\n") if part.strip()]
    wall = None
    try:
        with open(os.path.join(out, "result.json")) as f:
            wall = json.load(f).get("wall_s")
    except (OSError, ValueError):
        pass
    return {"code": code, "view": view, "requests": requests, "markers": common.markers(out),
            "user": user, "failure_shown": common.shows_failure(user), "wall_s": wall}


def prepare_hookrun(case, wiring, path, base, binary, unsupported):
    """Write hookrun's side of CASE; returns why it cannot run, or None."""
    mod = HOSTS[case["host"]]
    if wiring == "fire":
        if unsupported.get(case["host"]):
            return "unsupported: " + unsupported[case["host"]]
        mod.write_fire(case, path, binary)
        return None
    host = case.get("install_host", case["host"])
    if hasattr(mod, "install_in_run"):
        mod.install_in_run(case, path, binary)
        return None
    ok, log, files = common.install(binary, host, case)
    with open(os.path.join(base, "install.log"), "w") as f:
        f.write(log)
    if not ok:
        why = common.unsupported_host(binary, host)
        if why:
            return "unsupported: " + why
        return "install failed: " + log.strip().splitlines()[-1][:200]
    return mod.write_installed(case, path, files)


def compare_case(name, case, args, binary, unsupported):
    mod = HOSTS[case["host"]]
    base = os.path.join(args.out, "cases", name)
    os.makedirs(base, exist_ok=True)
    mod.write_native(case, os.path.join(base, "native"))
    wirings = [w for w in case.get("wirings", ["fire", "install"]) if args.wiring in (w, "both")]
    runs = {"native": None}
    for w in wirings:
        runs["hookrun_" + w] = prepare_hookrun(case, w, os.path.join(base, "hookrun_" + w), base,
                                               binary, unsupported)
    seen = {}
    for side, blocked in runs.items():
        if blocked:
            seen[side] = {"skipped": blocked}
            continue
        out = os.path.join(base, "out_" + side)
        # A host whose harness lives in this repository (Factory Droid) names it.
        harness = getattr(mod, "HARNESS", None) or args.harness
        code = common.run(harness, case["host"], os.path.join(base, side), out, binary, args.timeout,
                          getattr(mod, "RUNNER", None))
        seen[side] = side_view(mod, out, code)
        note = getattr(mod, "install_failed", None)
        if side == "hookrun_install" and note:
            seen[side]["install_failed"] = note(out)
    with open(os.path.join(base, "views.json"), "w") as f:
        json.dump(seen, f, indent=1)
    return seen


def reread(name, case, out):
    """An earlier run's views, read again from its evidence (so a change in
    how a view is read applies without running the hosts again)."""
    mod = HOSTS[case["host"]]
    base = os.path.join(out, "cases", name)
    with open(os.path.join(base, "views.json")) as f:
        seen = json.load(f)
    for side, old in seen.items():
        if "skipped" not in old:
            seen[side] = dict(old, **side_view(mod, os.path.join(base, "out_" + side), old["code"]))
    return seen


def judge(case, native, side):
    """(model & project, user saw, result, notes) for one hookrun run."""
    if "skipped" in side:
        kind = "unsupported" if side["skipped"].startswith("unsupported") else "NOT RUN"
        return "-", "-", kind, [side["skipped"]]
    notes = []
    for who, seen in (("native", native), ("hookrun", side)):
        if seen["view"] is None:
            return "-", "-", "NO EVIDENCE", ["the %s run left no requests.jsonl (see its .log)" % who]
    if side.get("install_failed"):
        notes.append("install: " + side["install_failed"])
    model_same = common.sides_same(native, side)
    user_same = native["user"] == side["user"]
    user = "same" if user_same else "differs"
    if case.get("user") == "told":
        # Only whether the user is told of a failure counts (each side in its own words).
        user_same = native["failure_shown"] == side["failure_shown"]
        user = "told %s" % ("alike" if user_same else "natively only" if native["failure_shown"] else "behind hookrun only")
    elif not user_same and native["user"] == common.without_notices(side["user"]):
        # Only lines of hookrun's own added: told, not a failure.
        user, user_same = "same + hookrun's notice", True
    if native["markers"] != side["markers"]:
        notes.append("markers: native %s, hookrun %s" % (native["markers"] or "none", side["markers"] or "none"))
    if native["requests"] != side["requests"]:
        notes.append("model requests: native %d, hookrun %d" % (native["requests"], side["requests"]))
    diff = common.first_difference(native["view"], side["view"])
    if diff:
        notes.append("model got: native `%s` / hookrun `%s`" % diff)
    if native["user"] != side["user"]:
        natively = common.only_in(native["user"], side["user"])
        behind = common.only_in(side["user"], native["user"])
        notes.append("user saw only natively: %s; only behind hookrun: %s" % (
            " ⏎ ".join("`%s`" % l for l in natively) or "nothing",
            " ⏎ ".join("`%s`" % l for l in behind) or "nothing (the same lines, in another order)"))
    same = model_same and user_same
    ok = same == case["expect"].startswith("same")
    return "same" if model_same else "differs", user, "ok" if ok else "UNEXPECTED", notes


def cell(text, limit=240):
    text = str(text).replace("|", "\\|").replace("\n", "\\n")
    return text if len(text) <= limit else text[:limit] + "…"


def host_table(host, rows, binary, started):
    mod = HOSTS[host]
    lines = ["## %s" % host, "",
             "hookrun: `%s`; %s" % (binary, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started))), "",
             "| case | intent | hookrun wiring | model & project | user saw | failure shown (native / hookrun) | expected | result |",
             "|---|---|---|---|---|---|---|---|"]
    details = []
    for name, case, wiring, judged, native, side in rows:
        model, user, result, notes = judged
        shown = "-" if "skipped" in side or side.get("user") is None else "%s / %s" % (
            "yes" if native["failure_shown"] else "no", "yes" if side["failure_shown"] else "no")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, cell(case["what"]), wiring, model, user, shown, cell(case["expect"], 120), result))
        if notes:
            details.append("- `%s` (%s): %s" % (name, wiring, "; ".join(cell(n, 1200) for n in notes)))
    counts = {}
    for _, _, wiring, judged, _, _ in rows:
        counts.setdefault(wiring, {}).setdefault(judged[2], 0)
        counts[wiring][judged[2]] += 1
    lines += ["", "Results: " + "; ".join("%s wiring: %s" % (w, ", ".join("%d %s" % (n, r) for r, n in sorted(c.items())))
                                       for w, c in counts.items())]
    lines += ["", "What %s cannot express (not compared, or compared against the nearest native form):" % host, ""]
    lines += ["- " + c for c in mod.CANNOT]
    if details:
        lines += ["", "Differences (first differing line of each view):", ""] + details
    return "\n".join(lines) + "\n"


def versus(rows, baseline, binary):
    """This run's results next to an earlier run's (another build), read
    from that run's evidence."""
    lines = ["## Before and after", "",
             "before: `%s`; after: `%s`" % (baseline, binary), "",
             "| host | case | wiring | before: model / user / result | after: model / user / result |",
             "|---|---|---|---|---|"]
    for host in [h for h in HOSTS if h in rows]:
        for name, case, wiring, judged, _, _ in rows[host]:
            try:
                seen = reread(name, case, baseline)
                old = judge(case, seen["native"], seen["hookrun_" + wiring])
                before = "%s / %s / %s" % old[:3]
            except (OSError, KeyError, ValueError):
                before = "not run"
            lines.append("| %s | %s | %s | %s | %s / %s / %s |" % ((host, name, wiring, before) + judged[:3]))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", help="case names (default: every case of the selected hosts)")
    ap.add_argument("--host", action="append", choices=sorted(HOSTS),
                    help="run only this host's cases (repeatable; default: all)")
    ap.add_argument("--harness", default=default_harness(),
                    help="the shared host harness folder holding HOST/run_case.py "
                         "(default: $HOOKRUN_HOSTS_DIR, else shared/hosts next to the repository)")
    ap.add_argument("--hookrun", default=os.path.join(common.REPO, "target", "release", "hookrun"),
                    help="the hookrun binary to test (default target/release/hookrun; "
                         "target/debug/hookrun or another branch's build work too)")
    ap.add_argument("--wiring", choices=("fire", "install", "both"), default="both",
                    help="hookrun's side: a hand-written `fire --host HOST EVENT` wiring, "
                         "`hookrun install`'s own, or both (default)")
    ap.add_argument("--out", default=os.path.join(common.REPO, "target", "hosts"))
    ap.add_argument("--timeout", type=int, default=600, help="seconds allowed for one harness run")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--baseline", metavar="DIR",
                    help="also write OUT/versus.md: each result next to the one in an earlier run's OUT "
                         "(e.g. main's build against a branch's)")
    ap.add_argument("--from-views", action="store_true",
                    help="run nothing: rebuild the tables from an earlier run's evidence in OUT/cases/")
    args = ap.parse_args()
    cases = all_cases()
    if args.list:
        for name, case in cases.items():
            print("%-32s %-8s %s" % (name, case["host"], case["what"]))
        return
    unknown = [c for c in args.cases if c not in cases]
    if unknown:
        sys.exit("unknown case(s): %s (see --list)" % ", ".join(unknown))
    if not args.harness:
        sys.exit("no host harness found: pass --harness DIR (a folder with gemini/run_case.py, codex/…)")
    binary = os.path.abspath(args.hookrun)
    if not os.access(binary, os.X_OK):
        sys.exit("no hookrun binary at %s (build it, or pass --hookrun target/debug/hookrun)" % binary)
    args.out = os.path.abspath(args.out)
    hosts = args.host or list(HOSTS)
    names = args.cases or [n for n, c in cases.items() if c["host"] in hosts]
    unsupported = {h: common.unsupported_host(binary, h) for h in {cases[n]["host"] for n in names}}
    started = time.time()
    rows, failed = {}, False
    for name in names:
        case = cases[name]
        t0 = time.time()
        if args.from_views:
            seen = reread(name, case, args.out)
        else:
            seen = compare_case(name, case, args, binary, unsupported)
        for side in [s for s in seen if s != "native"]:
            judged = judge(case, seen["native"], seen[side])
            failed |= judged[2] != "ok"
            rows.setdefault(case["host"], []).append((name, case, side[len("hookrun_"):], judged,
                                                      seen["native"], seen[side]))
            print("%s [%s]: model %s, user %s: %s" % (name, side, judged[0], judged[1], judged[2]), flush=True)
        print("  (%.0f s)" % (time.time() - t0), flush=True)
    tables = []
    record = os.path.join(args.out, "run.json")
    if args.from_views and os.path.exists(record):
        with open(record) as f:
            started = json.load(f).get("started") or started
    for host in [h for h in HOSTS if h in rows]:
        text = host_table(host, rows[host], binary, started)
        with open(os.path.join(args.out, host + ".md"), "w") as f:
            f.write(text)
        tables.append(text)
    if args.from_views and os.path.exists(record):
        with open(record) as f:
            earlier = json.load(f)
        summary = "Tables rebuilt from the evidence of a run of %d cases that took %.0f s.\n" % (
            earlier["cases"], earlier["seconds"])
    else:
        summary = "Run of %d cases took %.0f s.\n" % (len(names), time.time() - started)
        if not args.from_views:
            with open(record, "w") as f:
                json.dump({"cases": len(names), "seconds": round(time.time() - started),
                           "binary": binary, "started": started}, f)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write("\n".join(tables) + "\n" + summary)
    if args.baseline:
        text = versus(rows, os.path.abspath(args.baseline), binary)
        with open(os.path.join(args.out, "versus.md"), "w") as f:
            f.write(text)
        tables.append(text)
    print("\n".join(tables))
    print(summary, end="")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

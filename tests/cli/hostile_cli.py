#!/usr/bin/env python3
"""Hostile input to compare, run and reproduce that must be survived, not only refused.

    hostile_cli.py LADDER SCRATCH_ROOT CASE

Cases:
- compare_repeated_point: a sweep that lists point "p" twice beside a real point named "p #2":
  compare shows three rows, each with both files' medians (none is dropped or merged).
- reproduce_untrusted_results: a results file in the output folder tampered with ("complete":
  "yes", a string device, a numeric commit, a string count, a summary that does not match its
  runs, an extra run): reproduce says it does not reuse it and why, runs the config again and
  exits 0, leaving a valid complete file and no .partial/; an untouched file is reused.
- reproduce_damaged_cost_table: a project whose cost table (configs/costs.json) is damaged in
  every way a field can be, not JSON or a folder: reproduce runs (the table only feeds the
  estimate, which then counts runs), exit 0.
- reproduce_cost_table: the estimate is weighed by configs/costs.json (or the table beside
  --configs), and a reference reproduction under results/reference/ is never read for it; the
  progress lines keep their form.
- reproduce_shell_names: output folders named with quotes, spaces, $, backticks and a newline,
  one of them "o'$(touch PWNED)'x": every reproduction writes its report there and nothing is
  run by a shell (no PWNED file appears).
- reproduce_project_quote: the project's folder is named pro'j: the reproduction works.
- reproduce_fake_python: --python names a program that answers the Python check but writes no
  report: reproduce exits 1 and says so, never "done".
- dump_long_b_file: a TWED config whose b_file name is 240 bytes long: --dump-outputs writes
  every run's output under a name that fits (at most 255 bytes), and the run passes.
- figures_match_plots: the figures `ladder list --json` declares are exactly those
  plots/draw_all.py draws.
"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from clitest import ResultsError, case_args, checker, finish, results, run_ladder

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(HERE, "fixtures")
ONE = os.path.join(FIX, "hc_repro_one")
CRASH_WORDS = ("internal error", "terminate called", "Segmentation fault", "what():")

problems = []

check = checker(problems)


def text(b):
    return b.decode("utf-8", "replace")


def reproduce(ladder, out, cwd, *extra, configs=ONE):
    cmd = [ladder, "reproduce", "--configs", configs, "--scale", "paper", "--no-peers",
           "--out", out] + list(extra)
    return run_ladder(cmd, cwd=cwd, timeout=240)


def no_crash(proc, what):
    err = text(proc.stderr)
    for word in CRASH_WORDS:
        check(word not in err, "%s: %r on stderr: %s" % (what, word, err[-400:]))


def finished(proc, out, what):
    """A reproduction that ran to its end: exit 0, a report, no staging folder left."""
    no_crash(proc, what)
    if not check(proc.returncode == 0, "%s: exit %d: %s" % (what, proc.returncode,
                                                            text(proc.stderr)[-400:])):
        return False
    check(os.path.isfile(os.path.join(out, "REPORT.md")), "%s: no REPORT.md in %r" % (what, out))
    check(not os.path.exists(os.path.join(out, ".partial")), "%s: .partial/ left behind" % what)
    return True


# --- compare ---------------------------------------------------------------------------------

def results_file(path, medians):
    runs = [{"study": "dtw", "variant": "seq_full", "point": point, "sweep": "", "status": "passed",
             "timing": {"median": m, "min": m, "max": m, "samples": [m]}}
            for point, m in medians]
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"schema_version": 1, "runs": runs}, f)


def compare_repeated_point(ladder, work):
    a, b = os.path.join(work, "a.json"), os.path.join(work, "b.json")
    results_file(a, [("p", 1.0), ("p", 2.0), ("p #2", 3.0)])
    results_file(b, [("p", 1.5), ("p", 2.5), ("p #2", 3.5)])
    proc = run_ladder([ladder, "compare", a, b, "--csv"], cwd=work)
    if not check(proc.returncode == 0, "compare exited %d: %s" % (proc.returncode, text(proc.stderr))):
        return
    import csv
    import io
    rows = list(csv.DictReader(io.StringIO(text(proc.stdout), newline="")))
    got = sorted((r["point"], r.get("occurrence"), r["a_median_ms"], r["b_median_ms"]) for r in rows)
    want = sorted([("p", "1", "1", "1.5"), ("p", "2", "2", "2.5"), ("p #2", "1", "3", "3.5")])
    check(got == want, "compare --csv rows %r, want %r" % (got, want))
    proc = run_ladder([ladder, "compare", a, b], cwd=work)
    lines = [l for l in text(proc.stdout).splitlines() if l.startswith("dtw/seq_full")]
    check(len(lines) == 3, "compare shows %d rows, want 3: %r" % (len(lines), lines))


# --- what reproduce finds ------------------------------------------------------------------------

def tampered(original):
    """(name, change) pairs: each turns a valid results file into one that must not be reused."""
    def setter(path, value):
        def change(r):
            t = r
            for k in path[:-1]:
                t = t[k]
            t[path[-1]] = value
        return change

    def extra_run(r):
        r["runs"].append(dict(r["runs"][0]))

    def summary_off(r):
        r["summary"] = {"passed": 7}

    return [("complete yes", setter(["complete"], "yes")),
            ("device a string", setter(["device"], "NVIDIA H100")),
            ("commit a number", setter(["ladder", "git_commit"], 12345)),
            ("count a string", setter(["runs_planned"], "1")),
            ("summary count a string", setter(["summary", "passed"], "1")),
            ("summary off", summary_off),
            ("extra run", extra_run),
            ("not JSON", None)]


def reproduce_untrusted_results(ladder, work):
    out = os.path.join(work, "out")
    if not finished(reproduce(ladder, out, work), out, "first reproduction"):
        return
    target = os.path.join(out, "hc-one.json")
    first = results(target)
    original, commit = first.raw, first.commit
    proc = reproduce(ladder, out, work)
    if commit != "unknown":
        check("hc-one: reusing" in text(proc.stdout),
              "an untouched complete file is not reused: %s" % text(proc.stdout)[-300:])
    for name, change in tampered(original):
        if change is None:
            with open(target, "w", encoding="utf-8") as f:
                f.write('{"complete": tr')
        else:
            r = copy.deepcopy(original)
            change(r)
            with open(target, "w", encoding="utf-8") as f:
                json.dump(r, f)
        proc = reproduce(ladder, out, work)
        if not finished(proc, out, "results with %s" % name):
            continue
        check("not reusing hc-one.json" in text(proc.stdout),
              "results with %s: no word that it is not reused: %s" % (name, text(proc.stdout)[-300:]))
        try:
            again = results(target).raw
        except ResultsError as e:
            check(False, "results with %s: the rerun's file is not valid: %s" % (name, e))
            continue
        check(again.get("complete") is True and again.get("summary") == {"passed": 1},
              "results with %s: the rerun's file is not complete and valid" % name)


def project_copy(root):
    """A project folder: the real plots/ and peers/, configs/ with the one test config. Runs
    name it as their share folder (LADDER_SHARE): see in_project."""
    os.makedirs(root)
    for d in ("plots", "peers"):
        shutil.copytree(os.path.join(PROJECT, d), os.path.join(root, d),
                        ignore=shutil.ignore_patterns("__pycache__", "cache"))
    shutil.copytree(ONE, os.path.join(root, "configs"))
    return root


def in_project(root):
    """The environment of a run that takes `root` as its share folder."""
    return dict(os.environ, LADDER_SHARE=root)


ESTIMATE_LINE = "reproduce: the time left is "


def cost_line(proc):
    """The line that says what reproduce's time-left estimate rests on."""
    return next((l for l in text(proc.stdout).splitlines() if l.startswith(ESTIMATE_LINE)), "")


def reproduce_damaged_cost_table(ladder, work):
    root = project_copy(os.path.join(work, "project"))
    table = os.path.join(root, "configs", "costs.json")
    entries = [[5, "x"], [{"name": 7, "elapsed_s": "fast"}], [{"name": "hc-one", "elapsed_s": -3}],
               {"name": "hc-one"}, [{"name": "hc-one", "elapsed_s": 1e400}]]
    damaged = [json.dumps({"scales": {"paper": {"gpu": "G", "configs": e}}}).replace("Infinity", "1e400")
               for e in entries]
    damaged += [json.dumps({"scales": "paper"}), "not json\n",
                json.dumps({"scales": {"quick": {"gpu": "G", "configs": [{"name": "hc-one", "elapsed_s": 5}]}}})]
    for i, content in enumerate(damaged + [None]):
        if content is None:  # a folder where the table goes
            os.remove(table)
            os.makedirs(table)
        else:
            with open(table, "w", encoding="utf-8") as f:
                f.write(content)
        what = "cost table %r" % (content if content is not None else "a folder")[:80]
        out = os.path.join(work, "out%d" % i)
        proc = run_ladder([ladder, "reproduce", "--scale", "paper", "--no-peers", "--out", out],
                          cwd=root, timeout=240, env=in_project(root))
        if finished(proc, out, what):
            check("estimated from the runs so far" in cost_line(proc),
                  "%s: the estimate does not fall back to the runs: %r" % (what, cost_line(proc)))


def reproduce_cost_table(ladder, work):
    """The estimate rests on configs/costs.json, never on the results archive: a project with a
    reference reproduction that times hc-one but no table estimates from the runs; with a table
    it is weighed by the table, and the progress lines keep their form."""
    root = project_copy(os.path.join(work, "project"))
    ref = os.path.join(root, "results", "reference", "gpu", "reproduction", "paper")
    os.makedirs(ref)
    with open(os.path.join(ref, "reproduction.json"), "w", encoding="utf-8") as f:
        json.dump({"scale": "paper", "configs": [{"name": "hc-one", "state": "ran", "elapsed_s": 9}]}, f)
    proc = run_ladder([ladder, "reproduce", "--scale", "paper", "--no-peers", "--out",
                       os.path.join(work, "archive")], cwd=root, timeout=240, env=in_project(root))
    if finished(proc, os.path.join(work, "archive"), "no table, a reference archive"):
        check(cost_line(proc) == ESTIMATE_LINE + "estimated from the runs so far (no configs/costs.json)",
              "no table: %r" % cost_line(proc))
    with open(os.path.join(root, "configs", "costs.json"), "w", encoding="utf-8") as f:
        json.dump({"scales": {"paper": {"gpu": "Test GPU", "configs": [{"name": "hc-one", "elapsed_s": 2.5}]},
                              "quick": {"gpu": "Other GPU", "configs": []}}}, f)
    out = os.path.join(work, "table")
    proc = run_ladder([ladder, "reproduce", "--scale", "paper", "--no-peers", "--out", out],
                      cwd=root, timeout=240, env=in_project(root))
    if finished(proc, out, "a table"):
        check(cost_line(proc) == ESTIMATE_LINE + "weighed by configs/costs.json's paper-scale times (Test GPU)",
              "with a table: %r" % cost_line(proc))
        progress = [l for l in re.split(r"[\r\n]", text(proc.stderr)) if l.startswith("[1/1] hc-one ")]
        check(progress and all(re.search(r"  reproduction: \d+% of runs, \S+, (~\S+ left|estimating)$", l)
                               for l in progress),
              "the progress lines lost their form: %r" % progress)
    # --configs elsewhere: the table beside those configs, named by its path.
    configs = os.path.join(work, "configs")
    shutil.copytree(os.path.join(root, "configs"), configs)
    os.remove(os.path.join(configs, "costs.json"))
    out = os.path.join(work, "elsewhere")
    proc = reproduce(ladder, out, root, configs=configs)
    if finished(proc, out, "--configs without a table"):
        check(cost_line(proc) == ESTIMATE_LINE + "estimated from the runs so far (no %s)"
              % os.path.join(configs, "costs.json"), "--configs elsewhere: %r" % cost_line(proc))


def reproduce_shell_names(ladder, work):
    # Run from a project of the test's own, so that a command a shell ran (in the project's
    # folder, where children start) would leave its file under `work`.
    root = project_copy(os.path.join(work, "project"))
    names = ["o'$(touch PWNED)'x", "it's", "with space", "do$HOME.llar", "back`touch PWNED2`tick",
             "new\nline", "semi;colon&amp"]
    for name in names:
        out = os.path.join(work, name)
        proc = run_ladder([ladder, "reproduce", "--scale", "paper", "--no-peers", "--out", out],
                          cwd=root, timeout=240, env=in_project(root))
        finished(proc, out, "output folder %r" % name)
    for dirpath, dirnames, filenames in os.walk(work):
        for f in filenames + dirnames:
            check(not f.startswith("PWNED"), "a shell ran a command: %s exists" % os.path.join(dirpath, f))
    check(not os.path.exists("PWNED") and not os.path.exists("PWNED2"), "a shell ran a command here")


def reproduce_project_quote(ladder, work):
    root = project_copy(os.path.join(work, "pro'j $x `y`"))
    out = os.path.join(root, "out")
    proc = run_ladder([ladder, "reproduce", "--scale", "paper", "--no-peers", "--out", out],
                      cwd=root, timeout=240, env=in_project(root))
    finished(proc, out, "a project folder named %r" % os.path.basename(root))


def reproduce_fake_python(ladder, work):
    fake = os.path.join(work, "fake-python")
    with open(fake, "w", encoding="utf-8") as f:
        f.write('#!/bin/sh\n[ "$1" = "-c" ] && echo "ladder-python 3"\nexit 0\n')
    os.chmod(fake, 0o755)
    out = os.path.join(work, "out")
    proc = reproduce(ladder, out, work, "--python", fake)
    no_crash(proc, "a fake Python")
    check(proc.returncode == 1, "a fake Python that writes no report: exit %d, want 1" % proc.returncode)
    check("done" not in text(proc.stdout), "a fake Python: reproduce says it is done: %s"
          % text(proc.stdout)[-300:])
    check("REPORT.md" in text(proc.stderr), "a fake Python: stderr does not say the report is "
          "missing: %s" % text(proc.stderr)[-300:])


# --- dumps -------------------------------------------------------------------------------------

def dump_long_b_file(ladder, work):
    def ucr(path, rows):
        with open(path, "w", encoding="utf-8") as f:
            for label, values in rows:
                f.write("\t".join([str(label)] + ["%g" % v for v in values]) + "\n")
    ucr(os.path.join(work, "a.tsv"), [(1, [0, 1, 2, 1, 0]), (2, [1, 1, 0, 0, 2]), (1, [2, 0, 1, 1, 0])])
    long_name = "b" * 236 + ".tsv"
    ucr(os.path.join(work, long_name), [(1, [0, 2, 1, 0, 1]), (2, [1, 0, 0, 2, 2])])
    with open(os.path.join(work, "c.json"), "w", encoding="utf-8") as f:
        json.dump({"study": "twed", "data": {"file": "a.tsv"},
                   "params": {"b_file": long_name, "mode": "batch"},
                   "variants": ["seq_full", "seq_itwed"], "repetitions": 1, "warmup": 0}, f)
    proc = run_ladder([ladder, "run", "c.json", "--out", "r.json", "--dump-outputs", "dumps",
                       "--quiet"], cwd=work)
    no_crash(proc, "a long b_file")
    if not check(proc.returncode == 0, "a long b_file: exit %d: %s" % (proc.returncode,
                                                                      text(proc.stderr)[-400:])):
        return
    names = os.listdir(os.path.join(work, "dumps"))
    check(len(names) == 2, "a long b_file: %d dumps, want 2: %r" % (len(names), names))
    check(all(len(n.encode()) <= 255 and n.endswith(".npy") for n in names),
          "a long b_file: dump names %r" % names)


# --- figures -------------------------------------------------------------------------------------

def figures_match_plots(ladder, work):
    proc = run_ladder([ladder, "list", "--json"], cwd=work)
    declared = {"ladder"}
    for s in json.loads(text(proc.stdout))["studies"]:
        check("ladder" in s["figures"], "study %s does not offer the ladder figure" % s["name"])
        declared.update(s["figures"])
    listed = subprocess.run([sys.executable, "-m", "plots.draw_all", "--list"], capture_output=True, text=True,
                            cwd=work, env=dict(os.environ, PYTHONPATH=PROJECT))
    check(listed.returncode == 0, "plots.draw_all --list exited %d: %s" % (listed.returncode, listed.stderr))
    drawn = set(listed.stdout.split())
    check(declared == drawn, "ladder declares figures %s, plots.draw_all draws %s"
          % (sorted(declared), sorted(drawn)))


CASES = {f.__name__: f for f in (compare_repeated_point, reproduce_untrusted_results,
                                 reproduce_damaged_cost_table, reproduce_cost_table,
                                 reproduce_shell_names,
                                 reproduce_project_quote, reproduce_fake_python, dump_long_b_file,
                                 figures_match_plots)}


def main():
    ladder, scratch, case = case_args(__file__)
    if case not in CASES:
        print("unknown case %r (cases: %s)" % (case, ", ".join(CASES)), file=sys.stderr)
        sys.exit(2)
    os.makedirs(scratch, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=scratch) as work:
        CASES[case](ladder, work)
    finish(problems)


if __name__ == "__main__":
    main()

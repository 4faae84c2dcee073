#!/usr/bin/env python3
"""Third hostile set, the command line's cases that need set-up (hostile3_usage.cmake).

    hostile3_usage.py LADDER SCRATCH_ROOT CASE

Cases:
- runs_ranges: `--runs` lists of overlapping, repeated and out-of-order ranges select exactly
  the runs they name, in plan order, each once.
- ingest_long_variant_name: a handover whose variant name is 50,000 bytes (std::regex, which
  matches recursively, crashed on it with SIGSEGV while planning) is refused with one line,
  exit 2, nothing written; a name of 100 characters, the most allowed, is ingested.
"""
import json
import os
import shutil
import sys

from clitest import case_args, checker, error_problems, finish, results, run_ladder, tree

LADDER, SCRATCH, CASE = case_args("hostile3_usage.py")
HERE = os.path.dirname(os.path.abspath(__file__))
OK = os.path.join(HERE, "fixtures", "ok.json")
problems = []
check = checker(problems)


def work_dir():
    d = os.path.join(SCRATCH, "h3-usage-" + CASE)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def ladder(*args, cwd):
    return run_ladder([LADDER, *args], cwd=cwd)


def case_runs_ranges():
    work = work_dir()
    plan = json.loads(ladder("plan", OK, "--json", cwd=work).stdout)
    total = len(plan["runs"])
    check(total >= 6, "ok.json plans %d runs, the case needs 6" % total)
    for runs, want in (("3,0-1,1,1-1", [0, 1, 3]), ("4-5,0-5,2-3", list(range(6))),
                       ("%d-%d" % (total - 1, total - 1), [total - 1]), ("0-%d" % (total - 1), list(range(total)))):
        out = os.path.join(work, "r.json")
        proc = ladder("run", OK, "--runs", runs, "--out", out, "--quiet", cwd=work)
        if not check(proc.returncode == 0, "--runs %s: exit %d: %r" % (runs, proc.returncode, proc.stderr[-300:])):
            continue
        got = [r.raw["run_index"] for r in results(out).runs]
        check(got == want, "--runs %s: runs %r, want %r" % (runs, got, want))


def handover(work, name):
    """A handover of one CPU peer variant called `name` that did not run point 0."""
    path = os.path.join(work, "handover.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"peer": {"name": "Fake"},
                   "variants": [{"name": name, "label": "Fake", "backend": "cpu", "precision": "fp64"}],
                   "runs": [{"point": 0, "variant": name, "unsupported": "not this point"}]}, f)
    return path


def case_ingest_long_variant_name():
    work = work_dir()
    h = handover(work, "v" * 50000)
    before = tree(work)
    proc = ladder("ingest", OK, h, "--out", "peer.json", cwd=work)
    for p in error_problems(proc, ("longer than 100 characters",)):
        problems.append("a 50,000-byte name: " + p)
    check(tree(work) == before, "a 50,000-byte name: files were created")
    h = handover(work, "v" * 100)
    proc = ladder("ingest", OK, h, "--out", "peer.json", "--quiet", cwd=work)
    check(proc.returncode == 0, "a 100-character name: exit %d: %r" % (proc.returncode, proc.stderr[-300:]))
    if proc.returncode == 0:
        runs = results(os.path.join(work, "peer.json")).runs
        check([r.variant for r in runs] == ["v" * 100], "a 100-character name: runs %r" % runs)


CASES = {"runs_ranges": case_runs_ranges,
         "ingest_long_variant_name": case_ingest_long_variant_name}
if CASE not in CASES:
    sys.exit("unknown case %r" % CASE)
CASES[CASE]()
finish(problems)

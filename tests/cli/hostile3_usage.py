#!/usr/bin/env python3
"""Third hostile set, the command line's cases that need set-up (hostile3_usage.cmake).

    hostile3_usage.py LADDER SCRATCH_ROOT CASE

Cases:
- runs_ranges: `--runs` lists of overlapping, repeated and out-of-order ranges select exactly
  the runs they name, in plan order, each once.
"""
import json
import os
import shutil
import sys

from clitest import case_args, checker, finish, results, run_ladder

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


CASES = {"runs_ranges": case_runs_ranges}
if CASE not in CASES:
    sys.exit("unknown case %r" % CASE)
CASES[CASE]()
finish(problems)

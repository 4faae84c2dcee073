#!/usr/bin/env python3
"""What `ladder gen` writes, and how long it takes, where a case needs more than one command.

    hostile3_gen.py LADDER SCRATCH_ROOT CASE

Cases:
  eed_widest_alphabet   `ladder gen eed` at the widest alphabet a file holds (95: the printable
                        bytes) writes printable lines only, and `ladder run` of a config over
                        that file, with no format stated, reads it back (all 95 symbols) and
                        passes on a CPU step (it once wrote tabs and control bytes at alphabets
                        over 94, which the reader then refused);
  skyline_gen_d64       `ladder gen skyline --d 64 --distribution anticorrelated` of 10,000 points
                        writes them within 60 s, every value in [0, 1] (it was once refused as
                        taking 935 s: whole vectors drawn until one fell in [0, 1]^64);
  skyline_run_d64       `ladder run` of such points, 3,000 of them, on the OpenMP step, passes
                        within 60 s (generating them once took minutes).
The binary runs on two threads (OMP_NUM_THREADS), as the report's machine had.
"""
import csv
import json
import os
import sys
import tempfile

from clitest import case_args, finish, results, run_ladder, show

LIMIT_S = 60
ENV = dict(os.environ, OMP_NUM_THREADS="2")


def write_config(work, name, config):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(config, f)
    return path


def ran(ladder, work, args):
    """Problems with `ladder ARGS` as a run that succeeds within the time limit."""
    proc = run_ladder([ladder] + args, work, timeout=LIMIT_S, env=ENV)
    if proc.returncode != 0:
        return ["exit %d, not 0\n%s" % (proc.returncode, show(proc))]
    return []


def passed_runs(path, problems):
    runs = results(path).runs
    if not runs or any(r.status != "passed" for r in runs):
        problems.append("not every run passed: %s" % [(r.variant, r.status) for r in runs])
    return runs


def eed_widest_alphabet(ladder, work):
    problems = ran(ladder, work, ["gen", "eed", "--alphabet", "95", "--pairs", "50", "--n", "60",
                                  "--spread", "0.5", "--out", "pairs.txt"])
    if problems:
        return problems
    with open(os.path.join(work, "pairs.txt"), "rb") as f:
        data = f.read()
    odd = sorted({b for b in data if not (32 <= b <= 126 or b == 10)})
    if odd:
        problems.append("the file holds bytes other than printable ones and newlines: %s" % odd[:10])
    cfg = write_config(work, "pairs.json", {"name": "h3-eed-95", "study": "eed",
                                            "data": {"file": "pairs.txt"}, "variants": ["eed/seq"],
                                            "repetitions": 1, "warmup": 0})
    problems += ran(ladder, work, ["run", cfg, "--out", "out.json", "--quiet"])
    if problems:
        return problems
    for r in passed_runs(os.path.join(work, "out.json"), problems):
        if r.raw.get("data", {}).get("alphabet") != 95:
            problems.append("the run read %r symbols, not 95" % r.raw.get("data", {}).get("alphabet"))
    return problems


def skyline_gen_d64(ladder, work):
    problems = ran(ladder, work, ["gen", "skyline", "--d", "64", "--distribution", "anticorrelated",
                                  "--n", "10000", "--out", "points.csv"])
    if problems:
        return problems
    with open(os.path.join(work, "points.csv"), newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) != 10000 or any(len(r) != 65 for r in rows):
        return ["points.csv is not 10,000 rows of an id and 64 values"]
    if any(not 0 <= float(v) <= 1 for r in rows for v in r[1:]):
        problems.append("a value outside [0, 1]")
    return problems


def skyline_run_d64(ladder, work):
    cfg = write_config(work, "d64.json", {
        "name": "h3-skyline-d64", "study": "skyline",
        "data": {"generator": "bks", "seed": 3, "n": 3000, "d": 64, "distribution": "anticorrelated"},
        "variants": ["skyline/openmp"], "repetitions": 1, "warmup": 0})
    problems = ran(ladder, work, ["run", cfg, "--out", "out.json", "--quiet"])
    if not problems:
        passed_runs(os.path.join(work, "out.json"), problems)
    return problems


CASES = {f.__name__: f for f in (eed_widest_alphabet, skyline_gen_d64, skyline_run_d64)}


def main():
    ladder, scratch, case = case_args("hostile3_gen.py")
    if case not in CASES:
        sys.exit("unknown case %r (%s)" % (case, ", ".join(CASES)))
    with tempfile.TemporaryDirectory(prefix="h3g.", dir=scratch) as work:
        finish(CASES[case](ladder, work))


if __name__ == "__main__":
    main()

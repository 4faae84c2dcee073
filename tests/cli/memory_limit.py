#!/usr/bin/env python3
"""A config that does not fit the process's memory limit is refused up front.

    memory_limit.py LADDER SCRATCH_ROOT

Runs `prlimit --as=4000000000 ladder run CFG --out out.json` on generated DTW data needing
a few GiB (n 128, 5,000,000 entries: about 5 GiB of series, reference and outputs), far
less than many machines have but more than the limit allows. The limit must be taken into
account before anything is generated: bad input (exit 2, one `ladder: error:` line that
mentions memory, nothing on stdout, nothing created), not a bad_alloc ("internal error")
part-way through. Exits 77 (reported as skipped) when prlimit (util-linux) is missing.
"""
import json
import os
import shutil
import sys
import tempfile

from clitest import error_problems, finish, run_ladder, show, tree

CONFIG = {"name": "cli-memory-limit", "study": "dtw", "data": {"generator": "cbf"},
          "params": {"n": 128, "entries": 5000000}, "repetitions": 1, "warmup": 0}
LIMIT = 4000000000


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: memory_limit.py LADDER SCRATCH_ROOT")
    prlimit = shutil.which("prlimit")
    if not prlimit:
        print("SKIP: prlimit (util-linux) is not installed")
        sys.exit(77)
    ladder = os.path.abspath(sys.argv[1])
    scratch = os.path.abspath(sys.argv[2])
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(prefix="memlimit.", dir=scratch) as work:
        cfg = os.path.join(work, "config.json")
        with open(cfg, "w") as f:
            json.dump(CONFIG, f)
        run_dir = os.path.join(work, "run")
        os.makedirs(run_dir)
        proc = run_ladder([prlimit, "--as=%d" % LIMIT, ladder, "run", cfg, "--out", "out.json",
                           "--quiet"], run_dir, timeout=30)
        found = error_problems(proc, match_any=["memory"])
        if found:
            problems += found
            problems.append("the binary printed:\n%s" % show(proc))
        created = tree(run_dir)
        if created:
            problems.append("created: %s" % sorted(created))
    finish(problems, "ok: refused under --as=%d: %s" %
           (LIMIT, proc.stderr.decode("utf-8", "replace").strip()))


if __name__ == "__main__":
    main()

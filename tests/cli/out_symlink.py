#!/usr/bin/env python3
"""--out naming a symbolic link.

    out_symlink.py LADDER SCRATCH_ROOT CASE

CASE is one of
  to_file    links/out.json -> ../store/target.json, a regular file: the results are written
             through the link (relative to the link's own directory): exit 0, the link is
             still the same link, the target holds the results, nothing else appears;
  to_stdout  out.json -> /dev/stdout while stdout is a pipe (not a regular file): refused
             before anything runs, as bad input (exit 2, one `ladder: error:` line, nothing on
             stdout), the link left as it was and nothing created.
(A link to /dev/null is cli.bad.out_link_to_dev_null.)
"""
import json
import os
import sys
import tempfile

from clitest import (ResultsError, case_args, error_problems, finish, results, run_ladder,
                     show, tree)

CONFIG = {"name": "cli-out-symlink", "study": "dtw", "data": {"generator": "cbf", "seed": 3},
          "params": {"n": 8, "entries": 5}, "variants": ["seq_tworow"],
          "repetitions": 1, "warmup": 0}


def main():
    ladder, scratch, case = case_args("out_symlink.py")
    problems = []
    with tempfile.TemporaryDirectory(prefix="symlink.", dir=scratch) as work:
        with open(os.path.join(work, "config.json"), "w") as f:
            json.dump(CONFIG, f)
        if case == "to_file":
            os.makedirs(os.path.join(work, "links"))
            os.makedirs(os.path.join(work, "store"))
            target = os.path.join(work, "store", "target.json")
            with open(target, "w") as f:
                f.write("old contents\n")
            os.symlink("../store/target.json", os.path.join(work, "links", "out.json"))
            before = tree(work)
            proc = run_ladder([ladder, "run", "config.json", "--out", "links/out.json",
                               "--quiet"], work, timeout=100)
            after = tree(work)
            if proc.returncode != 0:
                problems.append("exit status %d, expected 0\n%s" % (proc.returncode, show(proc)))
            link = os.path.join("links", "out.json")
            if after.get(link) != ("link", "../store/target.json"):
                problems.append("links/out.json is no longer the link to ../store/target.json: "
                                "%s" % (after.get(link),))
            try:
                runs = results(target).runs
                if len(runs) != 1 or not runs[0].passed:
                    problems.append("the target does not hold the one passed run: %s" % runs)
            except ResultsError as e:
                problems.append("the target is not the results (%s)" % e)
            new = sorted(set(after) - set(before))
            if new:
                problems.append("created: %s" % new)
        elif case == "to_stdout":
            os.symlink("/dev/stdout", os.path.join(work, "out.json"))
            before = tree(work)
            proc = run_ladder([ladder, "run", "config.json", "--out", "out.json", "--quiet"],
                              work, timeout=100)
            after = tree(work)
            found = error_problems(proc, match_any=["out.json", "stdout", "regular"])
            if found:
                problems += found
                problems.append("the binary printed:\n%s" % show(proc))
            if after != before:
                problems.append("the directory changed: before %s, after %s" % (before, after))
        else:
            sys.exit("unknown case %r" % case)
    finish(problems, "ok: %s" % case)


if __name__ == "__main__":
    main()

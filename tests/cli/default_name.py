#!/usr/bin/env python3
"""The config's name in the default results path (no --out) cannot lead the file elsewhere.

    default_name.py LADDER SCRATCH_ROOT CASE

CASE picks the config's "name":
  dotdot    "../../escaped-<token>"
  slash     "a/b"
  absolute  "/tmp/x-ladder-cli-<token>"
  newline   "line<newline>break"
A tiny CPU-only DTW config (cbf, n 8, entries 5, seq_tworow, one repetition) is run from a
fresh directory without --out. It must exit 0 and write exactly one results file directly
under ./results/ of that directory, a regular file holding the run, whose name has no '/',
no newline and does not start with '.'; nothing else may appear anywhere under the test's
directory, nor /tmp/x-ladder-cli-<token>* (the token is unique to this run).
"""
import glob
import json
import os
import shutil
import sys
import tempfile
import uuid

from clitest import ResultsError, case_args, finish, results, run_ladder, show, tree


def main():
    ladder, scratch, case = case_args("default_name.py")
    token = uuid.uuid4().hex[:12]
    names = {
        "dotdot": "../../escaped-" + token,
        "slash": "a/b",
        "absolute": "/tmp/x-ladder-cli-" + token,
        "newline": "line\nbreak",
    }
    if case not in names:
        sys.exit("unknown case %r" % case)
    name = names[case]
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(prefix="name.", dir=scratch) as work:
        os.makedirs(os.path.join(work, "cfg"))
        # Two levels below `work`, so that a name climbing out of results/ lands inside it.
        run_dir = os.path.join(work, "a", "b", "run")
        os.makedirs(run_dir)
        config = {"name": name, "study": "dtw", "data": {"generator": "cbf"},
                  "params": {"n": 8, "entries": 5}, "variants": ["seq_tworow"],
                  "repetitions": 1, "warmup": 0}
        cfg = os.path.join(work, "cfg", "config.json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        before = tree(work)
        proc = run_ladder([ladder, "run", cfg, "--quiet"], run_dir, timeout=100)
        after = tree(work)
        escaped = glob.glob("/tmp/x-ladder-cli-" + token + "*")
        for path in escaped:
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.remove(path)
        if escaped:
            problems.append("the results escaped to %s" % escaped)

        if proc.returncode != 0:
            problems.append("exit status %d, expected 0 (the name must be made safe, not "
                            "refused)\n%s" % (proc.returncode, show(proc)))
        new = sorted(set(after) - set(before))
        results_dir = os.path.join("a", "b", "run", "results")
        files = [p for p in new if os.path.dirname(p) == results_dir]
        others = [p for p in new if p != results_dir and p not in files]
        if others:
            problems.append("created outside ./results/: %s" % [repr(p) for p in others])
        changed = [p for p in before if after.get(p) != before[p]]
        if changed:
            problems.append("changed or removed: %s" % changed)
        if len(files) != 1:
            problems.append("expected exactly one results file directly under ./results/, "
                            "found %s (all new paths: %s)" % (files, [repr(p) for p in new]))
        for rel in files:
            base = os.path.basename(rel)
            if after[rel][0] != "file":
                problems.append("%r is a %s, not a regular file" % (base, after[rel][0]))
                continue
            if "\n" in base or "/" in base or base.startswith("."):
                problems.append("unsafe results file name %r" % base)
            try:
                runs = results(os.path.join(work, rel)).runs
                if len(runs) != 1 or not runs[0].passed:
                    problems.append("the results file %r does not hold the one passed run: %s" %
                                    (base, [(r.variant, r.status) for r in runs]))
            except ResultsError as e:
                problems.append("the results file %r is not a results file: %s" % (base, e))
            print("results file: %r" % base)
    finish(problems, "ok: name %r written under ./results/ only" % name)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The happy path of every command.

    smoke_run.py LADDER SMOKE_CONFIG SCRATCH_ROOT

- `ladder run SMOKE_CONFIG --out res.json` exits 0 and writes a schema_version 2 results file
  with one run per (point, variant), every status passed, skipped or unsupported, passed runs
  validated and timed with the config's repetitions; run as a Slurm array task would be, it
  records the host's name and the job, array and task ids;
- `ladder list --json` is JSON naming the same variants;
- `ladder gen dtw --n 16 --entries 5 --out f.tsv` writes 5 lines of 17 fields;
- `ladder compare res.json res.json` exits 0 and shows every timed run (keyed by variant,
  sweep and point) at 1.00x.
"""
import json
import math
import os
import socket
import sys
import tempfile

from clitest import ResultsError, checker, results, run_text as run

problems = []

check = checker(problems)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: smoke_run.py LADDER SMOKE_CONFIG SCRATCH_ROOT")
    ladder = os.path.abspath(sys.argv[1])
    smoke = os.path.abspath(sys.argv[2])
    os.makedirs(sys.argv[3], exist_ok=True)
    with open(smoke) as f:
        smoke_cfg = json.load(f)

    with tempfile.TemporaryDirectory(prefix="smoke.", dir=sys.argv[3]) as work:
        # list --json
        proc = run([ladder, "list", "--json"], work)
        variants = []
        if check(proc.returncode == 0, "list --json exited %d" % proc.returncode):
            try:
                cat = json.loads(proc.stdout)
                dtw = [s for s in cat["studies"] if s["name"] == "dtw"]
                if check(len(dtw) == 1, "list --json has no dtw study"):
                    variants = [v["id"] for v in dtw[0]["variants"]]
                    check(len(variants) > 0 and all(v.startswith("dtw/") for v in variants),
                          "list --json dtw variants look wrong: %s" % variants)
                    names = {p["name"] for p in dtw[0]["data_params"]}
                    check({"n", "entries", "seed"} <= names,
                          "list --json dtw data params lack n/entries/seed: %s" % names)
            except (ValueError, KeyError, TypeError) as e:
                check(False, "list --json is not the expected JSON: %s" % e)

        # run the smoke config
        out = os.path.join(work, "res.json")
        slurm = {"SLURM_JOB_ID": "1041", "SLURM_ARRAY_JOB_ID": "1038",
                 "SLURM_ARRAY_TASK_ID": "3", "SLURMD_NODENAME": "gpu-node-7", "SLURM_JOB_GPUS": "2"}
        proc = run([ladder, "run", smoke, "--out", out, "--quiet"], work,
                   env={**os.environ, **slurm})
        check(proc.returncode == 0, "run %s exited %d" % (smoke, proc.returncode))
        res = None
        if check(os.path.exists(out), "run wrote no results file"):
            try:
                res = results(out)  # a schema_version 2 file with a list of runs, or refused
            except ResultsError as e:
                check(False, str(e))
        if res is not None:
            raw = res.raw
            check(raw.get("host", {}).get("hostname") == socket.gethostname(),
                  "host.hostname is %r" % raw.get("host", {}).get("hostname"))
            check(raw.get("scheduler") == {"kind": "slurm", "job_id": "1041",
                                           "array_job_id": "1038", "array_task_id": "3",
                                           "node": "gpu-node-7", "gpus": "2"},
                  "scheduler is %r" % raw.get("scheduler"))
            runs = res.runs
            npoints = 0
            for sweep in smoke_cfg.get("sweeps", [smoke_cfg]):
                count = 1
                for values in sweep.get("axes", {}).values():
                    count *= len(values)
                npoints += count
            if variants:
                check(len(runs) == npoints * len(variants),
                      "%d runs, expected %d points x %d variants" %
                      (len(runs), npoints, len(variants)))
                check({r.id for r in runs} == set(variants),
                      "the runs' variants differ from `ladder list`")
            for r in runs:
                who = "%s [%s]" % (r.id, r.point)
                if not check(r.status in ("passed", "skipped", "unsupported"),
                             "%s: status %r (%s)" % (who, r.status, r.reason)):
                    continue
                if not r.passed:
                    check(r.reason != "", "%s: %s without a reason" % (who, r.status))
                    continue
                v = r.validation
                outputs = r.data.get("entries", 0) * r.data.get("queries", 1)
                check(v["mode"] == "full" and v["checked"] == outputs
                      and v["failures"] == 0,
                      "%s: passed but validation is %s" % (who, v))
                t = r.timing
                samples = t.get("samples", [])
                wanted = smoke_cfg["repetitions"]  # a count, or one per backend
                wanted = wanted[r.backend] if isinstance(wanted, dict) else wanted
                check(len(samples) == wanted and
                      all(isinstance(x, (int, float)) and x >= 0 for x in samples),
                      "%s: timing samples %s, expected %d" % (who, samples, wanted))
                check(isinstance(t.get("median"), (int, float)) and math.isfinite(t["median"]),
                      "%s: no median time" % who)
            check(any(r.passed for r in runs), "no run passed")
            counts = {}
            for r in runs:
                counts[r.status] = counts.get(r.status, 0) + 1
            check(res.raw.get("summary") == counts,
                  "summary %s does not count the runs %s" % (res.raw.get("summary"), counts))

            # compare the results with themselves
            proc = run([ladder, "compare", out, out], work)
            if check(proc.returncode == 0, "compare exited %d" % proc.returncode):
                lines = proc.stdout.splitlines()
                for r in runs:
                    if r.timing:
                        # Runs are keyed by their sweep too: equal points of two sweeps differ.
                        sweep = " [%s]" % r.sweep if r.sweep else ""
                        key = "%s%s %s" % (r.id, sweep, r.point)
                        row = [l for l in lines if l.split()[:len(key.split())] == key.split()]
                        check(len(row) == 1 and row[0].rstrip().endswith("1.00x"),
                              "compare: no '1.00x' row for %s" % key)

        # gen
        tsv = os.path.join(work, "f.tsv")
        proc = run([ladder, "gen", "dtw", "--n", "16", "--entries", "5", "--out", tsv], work)
        if check(proc.returncode == 0, "gen exited %d" % proc.returncode) and \
                check(os.path.exists(tsv), "gen wrote no file"):
            with open(tsv) as f:
                lines = f.read().splitlines()
            check(len(lines) == 5, "gen wrote %d lines, expected 5" % len(lines))
            for i, line in enumerate(lines):
                fields = line.split("\t")
                if not check(len(fields) == 17,
                             "gen line %d has %d fields, expected 17" % (i + 1, len(fields))):
                    continue
                try:
                    int(fields[0])
                    values = [float(x) for x in fields[1:]]
                    check(all(math.isfinite(x) for x in values),
                          "gen line %d has a non-finite value" % (i + 1))
                except ValueError as e:
                    check(False, "gen line %d: %s" % (i + 1, e))

    if problems:
        for p in problems:
            print("FAIL:", p, file=sys.stderr)
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()

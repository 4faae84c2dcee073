#!/usr/bin/env python3
"""`ladder export --format gbench`: Google Benchmark's JSON format, as its tools/compare.py reads it.

    export_gbench.py LADDER RESULTS.json SCRATCH_ROOT

Exports a real results file and reads it back as compare.py does (the documented format: a
`context`, `benchmarks` with name, run_type, real_time, cpu_time, time_unit; repetitions of
one benchmark share its name, aggregates are NAME_mean, NAME_median, NAME_stddev, NAME_cv):
- the context holds the fields Google Benchmark writes;
- every timed run is one benchmark whose iterations are its samples, in order, with
  repetition_index 0..n-1, and whose aggregates (for n > 1) are the run's own statistics;
- no two runs share a name, so compare.py's grouping by name pairs each run with itself;
- grouped as compare.py groups (names of A met in B, same time unit), the file against itself
  gives every run's samples on both sides;
- `--format xml`, `--csv --format gbench` and a bare `export` are refused (exit 2).
"""
import json
import os
import sys
import tempfile

from clitest import checker, error_problems, finish, results, run_ladder, show

CONTEXT = ("date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled",
           "caches", "library_build_type")
NEEDED = ("name", "run_name", "run_type", "real_time", "cpu_time", "time_unit", "family_index",
          "per_family_instance_index", "repetitions", "iterations", "threads")


def partitions(lhs, rhs):
    """compare.py's partition_benchmarks: per name found in both, the entries of each side
    with the first comparable entry's time unit."""
    names = []
    for b in lhs["benchmarks"]:
        if b["name"] not in names:
            names.append(b["name"])
    right = {b["name"] for b in rhs["benchmarks"]}
    out = {}
    for name in (n for n in names if n in right):
        unit = next(b["time_unit"] for b in lhs["benchmarks"] if b["name"] == name)
        out[name] = ([b for b in lhs["benchmarks"] if b["name"] == name and b["time_unit"] == unit],
                     [b for b in rhs["benchmarks"] if b["name"] == name and b["time_unit"] == unit])
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: export_gbench.py LADDER RESULTS.json SCRATCH_ROOT")
    ladder, source, scratch = (os.path.abspath(a) for a in sys.argv[1:])
    os.makedirs(scratch, exist_ok=True)
    problems = []
    check = checker(problems)
    with tempfile.TemporaryDirectory(dir=scratch) as work:
        proc = run_ladder([ladder, "export", source, "--format", "gbench"], work)
        if not check(proc.returncode == 0, "export --format gbench failed:\n%s" % show(proc)):
            finish(problems)
        data = json.loads(proc.stdout)
        check(all(k in data["context"] for k in CONTEXT), "context lacks %s" %
              [k for k in CONTEXT if k not in data["context"]])
        bench = data["benchmarks"]
        check(all(all(k in b for k in NEEDED) for b in bench), "a benchmark lacks a field compare.py reads")
        timed = [r for r in results(source).runs if r.samples_ms]
        names = {}
        for b in bench:
            names.setdefault(b["run_name"], []).append(b)
        check(len(names) == len(timed), "%d benchmarks for %d timed runs" % (len(names), len(timed)))
        for run, (name, entries) in zip(timed, names.items()):
            it = [b for b in entries if b["run_type"] == "iteration"]
            check([b["real_time"] for b in it] == run.samples_ms and all(b["name"] == name for b in it),
                  "%s: iterations %s, samples %s" % (name, [b["real_time"] for b in it], run.samples_ms))
            check([b["repetition_index"] for b in it] == list(range(len(it))), "%s: repetition_index" % name)
            check(all(b["cpu_time"] == b["real_time"] and b["time_unit"] == "ms" for b in it),
                  "%s: cpu_time or time_unit" % name)
            aggs = {b["aggregate_name"]: b for b in entries if b["run_type"] == "aggregate"}
            if len(run.samples_ms) > 1:
                for agg in ("mean", "median", "stddev", "cv"):
                    want = run.timing.get(agg)
                    got = aggs.get(agg)
                    check(got is not None and got["name"] == name + "_" + agg and got["real_time"] == want,
                          "%s: aggregate %s is %s, want %s" % (name, agg, got and got["real_time"], want))
            else:
                check(not aggs, "%s: aggregates for a single sample" % name)
        # compare.py's grouping of the file against itself: each run meets its own samples.
        parts = partitions(data, data)
        for run, name in zip(timed, names):
            lhs, rhs = parts.get(name, ([], []))
            check([b["real_time"] for b in lhs] == run.samples_ms == [b["real_time"] for b in rhs],
                  "compare.py's partition of %s does not hold its samples" % name)
        for args, words in ((["--format", "xml"], ("--format",)), (["--csv", "--format", "gbench"], ("disagree",)),
                            ([], ("--format",))):
            for p in error_problems(run_ladder([ladder, "export", source] + args, work), match_any=words):
                problems.append("export %s: %s" % (" ".join(args) or "(no format)", p))
    finish(problems)


main()

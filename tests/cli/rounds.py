#!/usr/bin/env python3
"""The sampling options of `run` on CPU runs (rounds.cmake).

    rounds.py LADDER SCRATCH_ROOT

A config of CPU and GPU steps (the GPU ones are skipped where no GPU is) run plainly, then with
--process-samples --rounds 3 --blocked-start, then with --plant on one CPU step. Every run
keeps its place, status and sample count: the GPU options change no CPU run, and CPU runs are
not split into rounds. The planted run (and only it) records its plant, and a later
--repetitions wins over --process-samples. --help names the rules.
"""
import json
import os
import shutil

from clitest import checker, finish, ladder_scratch, results, run_ladder, show

LADDER, SCRATCH = ladder_scratch("rounds.py")
problems = []
check = checker(problems)
work = os.path.join(SCRATCH, "rounds-cpu-counts")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
config = os.path.join(work, "config.json")
with open(config, "w", encoding="utf-8") as f:
    json.dump({"study": "dtw", "data": {"generator": "cbf", "seed": 1}, "params": {"n": 16, "entries": 5},
               "variants": ["seq_tworow", "seq_full", "shared"], "repetitions": {"cpu": 4, "gpu": 3},
               "warmup": 0}, f)


def run(name, *options):
    out = os.path.join(work, name + ".json")
    proc = run_ladder([LADDER, "run", config, "--out", out, "--quiet", *options], cwd=work)
    if not check(proc.returncode == 0, "run %s: %s" % (" ".join(options), show(proc))):
        return None
    return results(out).runs


def timing(run):
    return run.raw.get("timing") or {}


plain = run("plain")
sampled = run("sampled", "--process-samples", "--rounds", "3", "--blocked-start")
planted = run("planted", "--plant", "dtw/seq_full:2")
explicit = run("explicit", "--process-samples", "--repetitions", "2")
if plain and sampled and planted and explicit:
    for other, name in ((sampled, "sampled"), (planted, "planted")):
        check([(r.run_index, r.id, r.status) for r in other] == [(r.run_index, r.id, r.status) for r in plain],
              "%s: the runs differ from the plain run's: %r vs %r" % (name, other, plain))
    for r in plain + sampled + planted:
        if r.backend == "cpu":
            check(r.status == "passed", "%s: %s (%s)" % (r.id, r.status, r.reason))
            check(len(r.samples_ms) == 4, "%s: %d samples, the config asks for 4" % (r.id, len(r.samples_ms)))
    for r in sampled:
        t = timing(r)
        for key in ("samples_rule", "rounds", "sample_rounds", "device_samples", "device_skipped", "planted"):
            check(key not in t, "%s: a CPU run (or a skipped GPU run) records %s" % (r.id, key))
    for r in planted:
        has = "planted" in timing(r)
        check(has == (r.id == "dtw/seq_full"), "%s: planted recorded: %s" % (r.id, has))
        if has:
            check(timing(r)["planted"].get("factor") == 2 and timing(r)["planted"].get("ms", 0) > 0,
                  "%s: planted %r" % (r.id, timing(r)["planted"]))
            check(timing(r).get("warmup", 0) >= 3, "%s: the plant's median wants three warm-up calls" % r.id)
    for r in explicit:
        if r.backend == "cpu":
            check(len(r.samples_ms) == 2, "%s: --repetitions 2 gave %d samples" % (r.id, len(r.samples_ms)))

proc = run_ladder([LADDER, "run", "--help"], cwd=work)
text = proc.stdout.decode("utf-8", "replace")
for words in ("--repetitions wins", "CPU runs are not split", "testing the harness's statistics"):
    check(words in text, "run --help does not say %r" % words)
finish(problems)

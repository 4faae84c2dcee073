#!/usr/bin/env python3
"""`ladder profile --into` end to end with a stand-in ncu (tests/cli/fake_ncu.py): which ncu
processes it starts and where each counter lands, on a machine without a GPU.

    profile_fake_ncu.py LADDER CONFIG SCRATCH_ROOT

CONFIG is run with every GPU hidden; its GPU runs are then marked passed, as on a GPU, and
`ladder profile CONFIG --into` that file adds `why` (range replay) and then `sass` (kernel
replay, --launches 2) with the stand-in. Checked:
- range replay: one process for all runs; the run that fails in a shared process is profiled
  again alone, and every run gets its own range's counters;
- kernel replay: one process for all runs while no run's launches fill the cap, each launch
  counted for the run whose NVTX range it carries (2 kept of a run's 3: `all_launches` false);
  a run that failed or made no launch there is profiled alone, and one that makes none at all
  says so under `missing`, beside its range counters, and that profile exits 1;
- a run whose launches fill the cap early: it keeps its first 2, and every run after it is
  profiled in a process of its own;
- every collection records its process's wall time and runs, and no set is `missing`;
- ncu stopping the shared range-replay process at a run (an API range replay cannot replay):
  that run and those after it are profiled alone; if it stops the run's own process too, the
  run's `missing` quotes ncu's error, the profile exits 1 and the runs after it keep their
  counters.
"""
import json
import os
import sys
import tempfile

from clitest import checker, finish, run_ladder, show

HERE = os.path.dirname(os.path.abspath(__file__))
WHY_METRIC = "smsp__inst_executed.sum"
SASS_METRIC = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"


def fake_ncu(folder):
    path = os.path.join(folder, "ncu")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'#!/bin/sh\nexec "{sys.executable}" "{os.path.join(HERE, "fake_ncu.py")}" "$@"\n')
    os.chmod(path, 0o755)
    return path


def as_on_a_gpu(path):
    """The results file at PATH with its GPU runs passed and doing 1000 units of work each;
    their run indices."""
    with open(path, encoding="utf-8") as f:
        r = json.load(f)
    r["device"]["name"] = "Stand-in GPU"
    gpu = []
    for run in r["runs"]:
        if run["backend"] == "gpu":
            run["status"], run["reason"] = "passed", ""
            run.setdefault("metrics", {})["work"] = 1000.0
            gpu.append(run["run_index"])
    with open(path, "w", encoding="utf-8") as f:
        json.dump(r, f)
    return gpu


def collection(run, metric_set):
    profile = run.get("profile", {})
    if "collections" not in profile and "derived" in profile:  # one set only
        return profile if profile.get("metric_set") == metric_set else None
    for c in profile.get("collections", []):
        if c.get("metric_set") == metric_set:
            return c
    return None


def scenario(ladder, config, tmp, check, launches, fail, stop=None, stop_alone=False, status=(0, 0)):
    """One profile (why, then sass) of a fresh copy; (the runs, the ncu calls' log, GPU runs).
    `status`: the exit status each profile must have (1 where a run is left without counters)."""
    base = os.path.join(tmp, "base.json")
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    proc = run_ladder([ladder, "run", config, "--out", base, "--quiet"], cwd=tmp, env=env)
    check(proc.returncode == 0, "run: exit %d\n%s" % (proc.returncode, show(proc)))
    gpu = as_on_a_gpu(base)
    log = os.path.join(tmp, "ncu.log")
    if os.path.exists(log):
        os.remove(log)
    env.update(FAKE_NCU_BASE=base, FAKE_NCU_LOG=log, FAKE_NCU_FAIL_SHARED=",".join(map(str, fail)),
               FAKE_NCU_LAUNCHES=",".join(f"{k}:{n}" for k, n in launches.items()),
               FAKE_NCU_STOP="-1" if stop is None else str(stop), FAKE_NCU_STOP_ALONE="1" if stop_alone else "0")
    ncu = fake_ncu(tmp)
    for metrics, want in zip((["why"], ["sass", "--launches", "2"]), status):
        proc = run_ladder([ladder, "profile", config, "--into", base, "--ncu", ncu, "--metrics", *metrics],
                          cwd=tmp, env=env)
        check(proc.returncode == want, "profile %s: exit %d, want %d\n%s"
              % (metrics[0], proc.returncode, want, show(proc)))
    with open(base, encoding="utf-8") as f:
        runs = {r["run_index"]: r for r in json.load(f)["runs"]}
    with open(log, encoding="utf-8") as f:
        calls = [json.loads(line) for line in f]
    return runs, calls, gpu


def check_counts(check, runs, gpu, launches):
    for k in gpu:
        run = runs[k]
        if launches.get(k, 1) == 0:  # no launch anywhere: said, beside its range counters
            lacks = run.get("profile", {}).get("missing", {}).get("sass", "")
            check(collection(run, "why") is not None and "no launch" in lacks,
                  "run %d (no launch): profile %r" % (k, run.get("profile")))
            continue
        why, sass = collection(run, "why"), collection(run, "sass")
        check(why is not None and sass is not None, "run %d: collections %r" % (k, run.get("profile")))
        if why is None or sass is None:
            continue
        check("missing" not in run["profile"], "run %d: missing %r" % (k, run["profile"].get("missing")))
        check(why["raw"].get(WHY_METRIC) == 1000 * k, "run %d: why %r, want its range's" % (k, why["raw"].get(WHY_METRIC)))
        n = launches.get(k, 1)
        kept = min(n, 2)
        want = sum(1000 * k + i for i in range(kept))
        check(sass["raw"].get(SASS_METRIC) == want,
              "run %d: sass %r, want %r (its first %d launches)" % (k, sass["raw"].get(SASS_METRIC), want, kept))
        check(sass.get("launches_profiled") == kept and sass.get("all_launches") == (n <= 2),
              "run %d: launches_profiled %r all_launches %r, want %d %r"
              % (k, sass.get("launches_profiled"), sass.get("all_launches"), kept, n <= 2))
        for c in (why, sass):
            check(isinstance(c.get("ncu_wall_s"), (int, float)) and c.get("ncu_runs", 0) >= 1,
                  "run %d: %s has no ncu_wall_s/ncu_runs" % (k, c.get("metric_set")))


def main():
    ladder, config, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(scratch, exist_ok=True)
    problems = []
    check = checker(problems)
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        # Few launches each: one shared process per mode, plus the failed run alone.
        probe = os.path.join(tmp, "probe")
        os.makedirs(probe)
        runs, calls, gpu = scenario(ladder, config, probe, check, {}, [])
        check(len(gpu) >= 4, "the config has %d GPU runs, want 4 or more" % len(gpu))
        if len(gpu) < 4:
            finish(problems)
        launches = {gpu[1]: 3, gpu[3]: 0}
        fail = [gpu[2]]
        # The run that makes no launch has no sass counters: that profile exits 1.
        runs, calls, _ = scenario(ladder, config, probe, check, launches, fail, status=(0, 1))
        check_counts(check, runs, gpu, launches)
        want = [("range", gpu), ("range", [gpu[2]]), ("kernel", gpu), ("kernel", [gpu[2]]),
                ("kernel", [gpu[3]])]
        got = [(c["mode"], c["runs"]) for c in calls]
        check(got == want, "ncu calls %r, want %r" % (got, want))
        check(collection(runs[gpu[0]], "sass")["ncu_runs"] == len(gpu) and
              collection(runs[gpu[2]], "sass")["ncu_runs"] == 1,
              "ncu_runs: shared %r, alone %r" % (collection(runs[gpu[0]], "sass")["ncu_runs"],
                                                 collection(runs[gpu[2]], "sass")["ncu_runs"]))
        # A run early in the plan fills the cap: it keeps its first launches, the rest go alone.
        launches = {gpu[0]: 3 * len(gpu) + 5}
        runs, calls, _ = scenario(ladder, config, probe, check, launches, [])
        check_counts(check, runs, gpu, launches)
        got = [(c["mode"], c["runs"]) for c in calls if c["mode"] == "kernel"]
        want = [("kernel", gpu)] + [("kernel", [k]) for k in gpu[1:]]
        check(got == want, "kernel calls %r, want the shared one, then each run after run %d alone"
              % (got, gpu[0]))
        check_stops(ladder, config, probe, check, gpu)
    finish(problems)


def check_stops(ladder, config, tmp, check, gpu):
    """ncu stops the shared range-replay process at a run: it and every run after it are
    profiled alone; a run that stops its own process too says why in ncu's words, and the
    runs after it still get their counters."""
    stop = gpu[1]
    runs, calls, _ = scenario(ladder, config, tmp, check, {}, [], stop=stop)
    check_counts(check, runs, gpu, {})
    got = [(c["mode"], c["runs"]) for c in calls if c["mode"] == "range"]
    want = [("range", gpu)] + [("range", [k]) for k in gpu[1:]]
    check(got == want, "range calls after a stop %r, want %r" % (got, want))
    runs, calls, _ = scenario(ladder, config, tmp, check, {}, [], stop=stop, stop_alone=True, status=(1, 0))
    lacks = runs[stop].get("profile", {}).get("missing", {}).get("why", "")
    check("==ERROR== Range replay" in lacks, "run %d stopped alone too: missing.why %r" % (stop, lacks))
    check(collection(runs[stop], "sass") is not None, "run %d: its sass counters %r" % (stop, runs[stop].get("profile")))
    for k in gpu[2:]:
        why = collection(runs[k], "why")
        check(why is not None and why["raw"].get(WHY_METRIC) == 1000 * k and why.get("ncu_runs") == 1,
              "run %d after the stopped one: why %r" % (k, why))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`ladder plan --json` lists exactly the runs `ladder run` executes, index by index.

    plan_matches_run.py LADDER SCRATCH_ROOT CONFIGS_DIR

For every config under CONFIGS_DIR: at the quick scale when it has one (its CPU steps run,
its GPU steps are skipped: the test hides every GPU), else its GPU steps alone as written
(each skipped at once, nothing generated). Plan and run get the same options; the run's
results must hold the planned runs in the planned order with the same run_index, study,
variant, sweep, point, parameters and validation mode. With `--runs FIRST,LAST` the run
holds those two planned runs alone, as planned.
"""
import json
import os
import sys
import tempfile

from clitest import finish, results, run_ladder

problems = []


def gpu_filters(ladder, env):
    """{study: a --filter selecting that study's GPU steps alone}."""
    listed = json.loads(run_ladder([ladder, "list", "--json"], cwd=".", env=env).stdout)
    return {s["name"]: "^%s/(%s)$" % (s["name"], "|".join(
        v["id"].split("/", 1)[1] for v in s["variants"] if v["backend"] == "gpu"))
        for s in listed["studies"]}


def identity(run, planned=False):
    return (run["run_index"], run["study"], run["variant"], run["sweep"], run["point"],
            run["params"], run["validation"] if planned else run["validation"]["mode"])


def check_config(ladder, config, work, env, only_gpu):
    with open(config, encoding="utf-8") as f:
        written = json.load(f)
    quick = "quick" in written.get("reproduce", {})
    options = ["--repetitions", "1", "--warmup", "0"]
    options += ["--scale", "quick"] if quick else ["--filter", only_gpu[written["study"]]]
    planned = run_ladder([ladder, "plan", config, "--json"] + options, cwd=work, env=env)
    err = planned.stderr.decode("utf-8", "replace")
    if planned.returncode == 2 and "selects no variant" in err:
        print("  %s: no GPU step to plan without running it; left out" % config)
        return
    if planned.returncode != 0:
        problems.append("%s: plan exited %d: %s" % (config, planned.returncode, err.strip()))
        return
    out = os.path.join(work, os.path.basename(config))
    ran = run_ladder([ladder, "run", config, "--out", out, "--quiet"] + options, cwd=work,
                     env=env, timeout=600)
    if ran.returncode not in (0, 1) or not os.path.exists(out):
        problems.append("%s: run exited %d: %s" % (config, ran.returncode,
                                                   ran.stderr.decode("utf-8", "replace")[-300:]))
        return
    plan = [identity(r, planned=True) for r in json.loads(planned.stdout)["runs"]]
    res = results(out)
    runs = [identity(r.raw) for r in res.runs]  # as written: the plan is compared field by field
    if plan != runs:
        first = next((i for i, (a, b) in enumerate(zip(plan, runs)) if a != b), min(len(plan), len(runs)))
        problems.append("%s: %d planned runs, %d ran; first difference at %d: %r vs %r" %
                        (config, len(plan), len(runs), first, plan[first:first + 1], runs[first:first + 1]))
    elif res.raw.get("runs_planned") != len(plan):
        problems.append("%s: runs_planned %r, the plan has %d" % (config, res.raw.get("runs_planned"), len(plan)))
    else:
        print("  %s: %d runs match%s" % (config, len(plan), " (quick scale)" if quick else " (GPU steps)"))
        check_some(ladder, config, out, options, env, [plan[0], plan[-1]])


def check_some(ladder, config, out, options, env, wanted):
    """`run --runs` of the plan's first and last runs writes exactly those."""
    some = out + ".some.json"
    runs = "%d,%d" % (wanted[0][0], wanted[-1][0])
    ran = run_ladder([ladder, "run", config, "--out", some, "--quiet", "--runs", runs] + options,
                     cwd=os.path.dirname(out), env=env, timeout=600)
    if ran.returncode not in (0, 1) or not os.path.exists(some):
        problems.append("%s: run --runs %s exited %d" % (config, runs, ran.returncode))
        return
    got = [identity(r.raw) for r in results(some).runs]
    if got != (wanted[:1] if len(wanted) > 1 and wanted[0] == wanted[-1] else wanted):
        problems.append("%s: run --runs %s wrote %r" % (config, runs, [g[:3] for g in got]))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: plan_matches_run.py LADDER SCRATCH_ROOT CONFIGS_DIR")
    ladder, scratch, configs = (os.path.abspath(a) for a in sys.argv[1:])
    os.makedirs(scratch, exist_ok=True)
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")  # GPU steps are skipped, everywhere
    only_gpu = gpu_filters(ladder, env)
    # configs/costs.json is the reproduction's cost table (scripts/cost_table.py), not a config.
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(configs) for f in fs
                   if f.endswith(".json") and os.path.join(d, f) != os.path.join(configs, "costs.json"))
    with tempfile.TemporaryDirectory(dir=scratch) as work:
        for config in files:
            check_config(ladder, config, work, env, only_gpu)
    if not files:
        problems.append("no config under %s" % configs)
    finish(problems)


if __name__ == "__main__":
    main()

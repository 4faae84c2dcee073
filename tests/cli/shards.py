#!/usr/bin/env python3
"""Shards of a config: split, run apart, merged back into what one process writes.

    shards.py LADDER CONFIG SCRATCH_ROOT

1. `plan --shard K/3 --json` for every K: one split (owners, plan_hash) seen alike by every
   shard, disjoint runs whose union is the plan, and no data group split between shards;
2. `run` unsharded; `plan --shard K/2 --costs` of it: each shard expects exactly its runs'
   measured wall_s, the two within the largest data group of each other;
   `run --shard K/3` for every K: each shard's file complete, recording
   its shard and only its runs;
3. `merge` of shards 0 and 2 alone: exit 1 naming shard 1 and its runs, a file marked
   incomplete; then of all three (as a folder): exit 0 and the same runs, order, statuses and
   summary as the unsharded file, each run with its shard and device;
4. bad merges (a shard twice, shards of another split, GPU model or commit, a file that is not
   results, results that are not a shard's): exit 2, one line, nothing written;
5. on a machine with a GPU, `run --gpus all`: the merged file matches the unsharded one.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from clitest import checker, error_problems, finish, results, run_ladder, show


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: shards.py LADDER CONFIG SCRATCH_ROOT")
    ladder, config, scratch = (os.path.abspath(a) for a in sys.argv[1:])
    os.makedirs(scratch, exist_ok=True)
    work = tempfile.mkdtemp(dir=scratch, prefix="shards-")
    problems = []
    check = checker(problems)

    def ok_run(cmd, want=0):
        proc = run_ladder([ladder] + cmd, cwd=work, timeout=600)
        check(proc.returncode == want, "%s: exit %d, expected %d\n%s" % (" ".join(cmd[:3]), proc.returncode,
                                                                       want, show(proc)))
        return proc

    # 1. The split, as every shard computes it.
    plans = [json.loads(ok_run(["plan", config, "--shard", "%d/3" % k, "--json"]).stdout) for k in range(3)]
    full_plan = json.loads(ok_run(["plan", config, "--json"]).stdout)
    splits = {(json.dumps(p["shard"]["owners"]), p["shard"]["plan_hash"]) for p in plans}
    check(len(splits) == 1, "the shards see different splits: %s" % splits)
    mine = [[r["run_index"] for r in p["runs"]] for p in plans]
    every = sorted(i for m in mine for i in m)
    check(every == [r["run_index"] for r in full_plan["runs"]], "the shards' runs are not the plan's, once each")
    for r in full_plan["runs"]:
        owner = [k for k in range(3) if r["run_index"] in mine[k]]
        same_group = [s for s in full_plan["runs"] if s["data_group"] == r["data_group"]]
        check(all(s["run_index"] in mine[owner[0]] for s in same_group),
              "data group %d is split between shards" % r["data_group"])

    # 2. Unsharded, then each shard.
    full = os.path.join(work, "full.json")
    ok_run(["run", config, "--out", full, "--quiet"])
    # Measured costs (--costs): each shard expects exactly its runs' wall_s, and the split
    # is balanced within the largest data group's cost (what the greedy split guarantees).
    walls = {r.run_index: r.raw.get("wall_s") for r in results(full).runs}
    check(all(isinstance(w, (int, float)) and w >= 0 for w in walls.values()), "a run has no wall_s")
    group_cost = {}
    for r in full_plan["runs"]:
        group_cost[r["data_group"]] = group_cost.get(r["data_group"], 0) + walls[r["run_index"]]
    loads = []
    for k in range(2):
        p = json.loads(ok_run(["plan", config, "--shard", "%d/2" % k, "--costs", full, "--json"]).stdout)
        want = sum(walls[r["run_index"]] for r in p["runs"])
        loads.append(p["shard"]["expected_s"])
        check(abs(p["shard"]["expected_s"] - want) <= 1e-9 * max(1.0, want),
              "shard %d/2 expects %s s, its runs took %s s" % (k, p["shard"]["expected_s"], want))
    check(abs(loads[0] - loads[1]) <= max(group_cost.values()) + 1e-9,
          "the measured split is unbalanced: %s (largest group %s s)" % (loads, max(group_cost.values())))

    shard_dir = os.path.join(work, "shards")
    os.makedirs(shard_dir)
    files = [os.path.join(shard_dir, "%d-of-3.json" % k) for k in range(3)]
    for k in range(3):
        ok_run(["run", config, "--shard", "%d/3" % k, "--out", files[k], "--quiet"])
        f = results(files[k])
        check(f.complete, "shard %d: not complete" % k)
        check(f.shard.get("index") == k and f.shard.get("count") == 3, "shard %d: records %s" % (k, f.shard))
        check([r.run_index for r in f.runs] == mine[k], "shard %d: runs %s, planned %s"
              % (k, [r.run_index for r in f.runs], mine[k]))

    # 3. A shard missing, then all of them.
    partial = os.path.join(work, "partial.json")
    proc = ok_run(["merge", partial, files[0], files[2]], want=1)
    err = proc.stderr.decode()
    named = "shard 1/3 missing: runs " + ", ".join(map(str, mine[1])) if mine[1] else "shard 1/3 missing"
    check(named in err, "merge without shard 1 does not say %r:\n%s" % (named, err))
    check(os.path.exists(partial) and not results(partial).complete, "the partial merge is not marked incomplete")
    merged = os.path.join(work, "merged.json")
    ok_run(["merge", merged, shard_dir])
    a, b = results(full), results(merged)
    key = lambda f: [(r.run_index, r.id, r.point, r.status) for r in f.runs]
    check(key(a) == key(b), "merged runs differ from the unsharded run's:\n%s\n%s" % (key(a)[:5], key(b)[:5]))
    check(b.complete and b.runs_planned == a.runs_planned and b.summary == a.summary,
          "merged: complete %s, planned %s (want %s), summary %s (want %s)"
          % (b.complete, b.runs_planned, a.runs_planned, b.summary, a.summary))
    check(all(r.shard in (0, 1, 2) and "name" in r.device for r in b.runs), "a merged run lacks its shard or device")
    check([s.get("index") for s in b.shards] == [0, 1, 2], "merged 'shards': %s" % b.shards)

    # 4. Bad merges: refused, nothing written.
    other = os.path.join(work, "two-0.json")
    ok_run(["run", config, "--shard", "0/2", "--out", other, "--quiet"])
    twin = os.path.join(work, "twin.json")
    shutil.copy(files[0], twin)
    not_results = os.path.join(work, "not-results.json")
    with open(not_results, "w") as f:
        f.write('{"runs": 3}\n')
    def edited(name, change):
        """Shard 1's file with one field changed, as another machine or build would write it."""
        with open(files[1]) as f:
            raw = json.load(f)
        change(raw)
        path = os.path.join(work, name + ".json")
        with open(path, "w") as f:
            json.dump(raw, f)
        return path

    other_gpu = edited("other-gpu", lambda r: r["device"].update(name="Another GPU"))
    other_commit = edited("other-commit", lambda r: r["ladder"].update(git_commit="0000000"))
    odd_types = edited("odd-types", lambda r: r.update(config="dtw-smoke", complete="yes"))
    for name, args, words in [
            ("two GPU models", [files[0], other_gpu, files[2]], ("one device",)),
            ("two commits", [files[0], other_commit, files[2]], ("commits",)),
            ("fields of other types", [files[0], odd_types, files[2]], ("config has no name",)),
            ("twice", [files[0], files[1], twin], ("twice",)),
            ("split", [files[0], other], ("split",)),
            ("not results", [files[0], not_results], ("not a ladder results file",)),
            ("not a shard", [files[0], full], ("not a shard",))]:
        out = os.path.join(work, "bad-%s.json" % name.replace(" ", "-"))
        proc = run_ladder([ladder, "merge", out] + args, cwd=work)
        for p in error_problems(proc, match_any=words):
            problems.append("merge %s: %s" % (name, p))
        check(not os.path.exists(out), "merge %s: wrote %s" % (name, out))

    # 5. Every GPU of the machine, when it has one.
    if results(full).device.get("present"):
        gpus = os.path.join(work, "gpus.json")
        ok_run(["run", config, "--gpus", "all", "--out", gpus, "--quiet"])
        g = results(gpus)
        check(key(g) == key(a), "--gpus all: runs differ from the unsharded run's")
        check(not os.path.exists(os.path.join(work, "gpus.shards")), "--gpus all left its shards folder")
    else:
        print("no GPU: --gpus all not run")

    shutil.rmtree(work, ignore_errors=True)
    finish(problems)


main()

#!/usr/bin/env python3
"""The twed study's peer (peers/twed/cutwed.py) end to end without cuTWED: `--replay` hands
over the outputs ladder's twed/seq_full dumped for a tiny config (pair, batch and triangle
modes, data timestamps), and `ladder ingest` takes them.

    peers_twed.py LADDER SCRATCH_ROOT

Checks: exit 0; the three variants (FP64, FP32, the host call) at every point, role peer,
ladder's sweeps and params; root=off and a B list of its own unsupported with their reasons,
the host call at batch and triangle points too, every other run validated (ingest
validates a GPU peer's outputs on a machine without a GPU too); nothing fetched into the
empty cache. And what cuTWED would be called with at a point in R^3: the series of `ladder
gen`'s file with their three channels (cuTWED's dim, the last argument of its calls), R^33
refused by its DIMENSION_LIMIT; the host call refused beyond its largest N.
"""
import json
import os
import subprocess
import sys
import tempfile

import clitest  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CONFIG = {"name": "twed-peer-tiny", "study": "twed",
          "data": {"generator": "random_walk", "seed": 42, "n": 40, "series": 6,
                   "timestamps": "data"},
          "repetitions": {"cpu": 1, "gpu": 2}, "warmup": {"cpu": 0, "gpu": 1},
          "sweeps": [
              {"label": "modes", "axes": {"mode": ["pair", "batch", "triangle"]},
               "variants": ["twed/seq_full"]},
              {"label": "unrooted", "params": {"root": "off"}, "variants": ["twed/seq_full"]},
              {"label": "own_b", "params": {"m": 30, "mode": "batch"},
               "variants": ["twed/seq_full"]},
              {"label": "dim", "params": {"dim": 3}, "variants": ["twed/seq_full"]}]}
DIM = 3
UNSUPPORTED = {"unrooted": "rooted", "own_b": "its own"}
VARIANTS = ["peer_cutwed", "peer_cutwed_fp32", "peer_cutwed_host"]
HOST = "peer_cutwed_host"  # the host call: single pairs only


def run(cmd):
    print("$", " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)


def dimension_problems(ladder, work, config):
    """What cuTWED's selection of sweep dim's point (R^DIM) gets wrong: each side's series must
    keep the file's DIM value channels, the timestamps channel 0 (cuTWED's dim is the last axis
    of what it is given)."""
    proc = run([ladder, "plan", config, "--json"])
    point = next(p for p in json.loads(proc.stdout)["points"] if p["sweep"] == "dim")
    proc = run([ladder, "gen", "--config", config, "--point", str(point["point"]), "--json",
                "--out", os.path.join(work, "dim.npy")])
    if proc.returncode != 0:
        return [f"ladder gen: exit {proc.returncode}: {proc.stderr[-500:]}"]
    import numpy as np  # here: the peer needs it too

    from peers.twed import cutwed
    data = np.load(os.path.join(work, "dim.npy"))
    facts = json.loads(proc.stdout)["data"]
    (a, ta), (b, tb) = cutwed.select(data, dict(point, data_facts=facts))
    problems = []
    first = int(facts["a_first"])
    if a.shape[2] != DIM or b.shape[2] != DIM:
        problems.append(f"cuTWED would get R^{a.shape[2]} and R^{b.shape[2]}, want R^{DIM}")
    elif not (np.array_equal(a[0], data[first, :, 1:])
              and np.array_equal(ta[0], data[first, :, 0])):
        problems.append("cuTWED's A is not the file's series with its timestamps")
    if "R^33" not in cutwed.limits(np.zeros((1, 4, 33)), np.zeros((1, 4, 33))):
        problems.append("points in R^33 not refused by cuTWED's DIMENSION_LIMIT")
    # The host call: timed on pairs up to its N, where twed_dev is timed too.
    for mode, n, refused in (("pair", "262144", False), ("pair", "524288", True),
                             ("batch", "40", True)):
        why = cutwed.variant_unsupported({"params": {"mode": mode, "n": n}}, HOST)
        if bool(why) != refused or cutwed.variant_unsupported(
                {"params": {"mode": mode, "n": n}}, "peer_cutwed"):
            problems.append(f"the host call at {mode} N = {n}: {why or 'timed'}")
    return problems


def main():
    ladder, scratch = clitest.ladder_scratch("peers_twed.py")
    problems = []
    with tempfile.TemporaryDirectory(prefix="peers_twed.", dir=scratch) as work:
        config, dumps = os.path.join(work, "twed.json"), os.path.join(work, "dumps")
        empty, ours, out = (os.path.join(work, f) for f in ("cache", "seq.json", "peer.json"))
        os.makedirs(empty)
        with open(config, "w") as f:
            json.dump(CONFIG, f)
        proc = run([ladder, "run", config, "--out", ours, "--quiet", "--dump-outputs", dumps])
        if proc.returncode != 0:
            clitest.finish([f"ladder run: exit {proc.returncode}: {proc.stderr[-2000:]}"])
        proc = run([sys.executable, "-m", "peers.twed.cutwed", config, "--out", out, "--ladder",
                    ladder, "--replay", dumps, "--cache", empty, "--quiet"])
        if proc.returncode != 0:
            clitest.finish([f"cutwed.py --replay: exit {proc.returncode}: {proc.stderr[-2000:]}"])
        mine = clitest.results(ours).runs
        runs = clitest.results(out).runs
        want = [(r.point, v) for r in mine for v in VARIANTS]
        if [(r.point, r.variant) for r in runs] != want:
            problems.append(f"runs {[(r.point, r.variant) for r in runs]}, want {want}")
        by_point = {r.point: r for r in mine}
        for r in runs:
            ladder_run, where = by_point.get(r.point), f"{r.variant} at {r.point}"
            if not ladder_run or (r.role, r.sweep, r.params) != ("peer", ladder_run.sweep,
                                                                 ladder_run.params):
                problems.append(f"{where}: role/sweep/params {r.role} {r.sweep} {r.params}")
            word = UNSUPPORTED.get(r.sweep)
            if not word and r.variant == HOST and r.params.get("mode") != "pair":
                word = "single pairs"
            if word:
                ok = r.status == "unsupported" and word in r.reason
            else:
                ok = r.passed and r.validation["checked"] > 0
            if not ok:
                problems.append(f"{where}: {r.status} ({r.reason})")
        if os.listdir(empty):
            problems.append(f"the replay put {os.listdir(empty)} into the cache")
        problems += dimension_problems(ladder, work, config)
    clitest.finish(problems, f"ok: {len(runs)} runs")


if __name__ == "__main__":
    main()

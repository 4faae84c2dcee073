#!/usr/bin/env python3
"""Identical and planted A/B comparisons drawn offline from one K-process results file.

The processes of a `ladder run CONFIG --processes K` file are split as `ladder ab` orders its
processes: 2k consecutive processes (from offset 0, then 1, ... up to --draws) form k blocks of
two, and a seeded coin gives each block's first process to A or to B. Two sides of one binary
are an identical comparison; interleaving keeps a drift over the run from looking like a change
(disjoint groups of consecutive processes, `--blocks`, do not). `--plant RE:FACTOR` multiplies side B's process medians (and samples) of the runs
whose study/variant RE finds by FACTOR, as a change of that size would. Each pair of groups is
written as A.json and B.json under OUT/<pair>/ and compared by `ladder compare --csv`; the
verdicts are tallied on stdout (as JSON with --json).
RESULTS may also be a `ladder ab` folder: its A.json and B.json are then the two sides as they
ran (one pair, `ab`), the plant going into B, which is how a planted change is checked on the
files of an identical `ab` run.
  scripts/offline_ab.py LADDER RESULTS.json|AB_DIR OUT [--k 10] [--draws 5] [--blocks] [--plant RE:FACTOR]
"""
import argparse
import copy
import csv
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path


def subset(results, picks, factor=1.0, planted=None):
    """The file with only the processes `picks`, B's planted runs scaled by `factor`."""
    out = copy.deepcopy(results)
    lst = results["processes"]["list"]
    out["processes"]["list"] = [dict(lst[i], index=n, order_position=n) for n, i in enumerate(picks)]
    out["processes"]["count"] = len(picks)
    for run in out["runs"]:
        t = run.get("timing")
        if not isinstance(t, dict) or "processes" not in t:
            continue
        scale = factor if planted and planted.search(f"{run['study']}/{run['variant']}") else 1.0
        by_index = {p["process"]: p for p in t["processes"]}
        kept = [by_index[i] for i in picks if i in by_index]
        for n, p in enumerate(kept):
            p["process"] = n
            if "samples" in p:  # files kept small hold each process's median alone
                p["samples"] = [x * scale for x in p["samples"]]
            p["median"] *= scale
        t["processes"] = kept
        t["process_medians"] = [p["median"] for p in kept]
        if "samples" in t:
            t["samples"] = [x for p in kept for x in p.get("samples", [])]
        meds = sorted(t["process_medians"])
        t["median"] = (meds[(len(meds) - 1) // 2] + meds[len(meds) // 2]) / 2
        for k in ("geomean_of_process_medians", "sd_log_between", "sd_log_within", "sd_log_process", "icc"):
            t.pop(k, None)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ladder")
    ap.add_argument("results")
    ap.add_argument("out")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--plant", default="")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--draws", type=int, default=5)
    ap.add_argument("--seed", type=int, default=49)
    ap.add_argument("--blocks", action="store_true", help="disjoint groups of consecutive processes")
    a = ap.parse_args()
    planted, factor = None, 1.0
    if a.plant:
        regex, _, f = a.plant.rpartition(":")
        planted, factor = re.compile(regex), float(f)
    if Path(a.results).is_dir():
        side_a, side_b = (json.loads((Path(a.results) / f).read_text()) for f in ("A.json", "B.json"))
        every = lambda side: list(range(side["processes"]["count"]))
        pairs = [("ab", subset(side_a, every(side_a)), subset(side_b, every(side_b), factor, planted))]
        return tally(a, pairs, planted)
    results = json.loads(Path(a.results).read_text())
    count = results["processes"]["count"]
    if a.blocks:
        groups = [list(range(g * a.k, (g + 1) * a.k)) for g in range(count // a.k)]
        pairs = [(f"{i}-{j}", groups[i], groups[j]) for i in range(len(groups)) for j in range(len(groups)) if i < j]
    else:
        coin = random.Random(a.seed)
        pairs = []
        for offset in range(min(a.draws, count - 2 * a.k + 1)):
            sides = ([], [])
            for b in range(a.k):
                first = coin.random() < 0.5
                sides[0].append(offset + 2 * b + (0 if first else 1))
                sides[1].append(offset + 2 * b + (1 if first else 0))
            pairs.append((f"from{offset}", *sides))
    return tally(a, [(name, subset(results, ga), subset(results, gb, factor, planted)) for name, ga, gb in pairs],
                 planted)


def tally(a, pairs, planted):
    """Compares each (name, A, B) pair under OUT/name and prints the verdicts' tally."""
    rows = []
    for name, side_a, side_b in pairs:
        d = Path(a.out) / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "A.json").write_text(json.dumps(side_a))
        (d / "B.json").write_text(json.dumps(side_b))
        got = subprocess.run([a.ladder, "compare", str(d / "A.json"), str(d / "B.json"), "--csv"],
                             capture_output=True, text=True, check=True).stdout
        for r in csv.DictReader(io.StringIO(got)):
            if r["test"]:
                r["pair"] = name
                r["planted"] = bool(planted and planted.search(f"{r['study']}/{r['variant']}"))
                rows.append(r)
    counts = {}
    for r in rows:
        key = ("planted " if r["planted"] else "") + r["verdict"].split(" (")[0]
        counts[key] = counts.get(key, 0) + 1
    summary = {"file": a.results, "k": a.k, "pairs": len(pairs), "rows": len(rows), "tally": counts,
               "p_below_0.05": sum(float(r["p_value"]) < 0.05 for r in rows if not r["planted"]),
               "p_below_0.01": sum(float(r["p_value"]) < 0.01 for r in rows if not r["planted"]),
               "same_with_mde_over_3pct": sum(r["verdict"] == "same" and float(r["mde80"]) > 0.03 for r in rows),
               "drift": sum(r["drift"] == "1" for r in rows)}
    if a.json:
        summary["rows_detail"] = rows
    print(json.dumps(summary, indent=1 if not a.json else None))


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Merges results files of single-step --profile runs into one, adding each run's Nsight
Compute metrics (from `ncu --csv --metrics ...` of that run) as facts named ncu_<metric>:
sums add up over the step's kernels, percentages and ratios are averaged weighted by kernel
time. Usage: ncu_facts.py OUT.json RESULTS1.json NCU1.csv [RESULTS2.json NCU2.csv ...]"""
import csv
import io
import json
import os
import sys


def kernels(csv_path):
    """{kernel id: {metric: value}} from ncu's CSV (its own log lines are skipped)."""
    with open(csv_path) as f:
        text = f.read()
    start = text.find('"ID"')
    if start < 0:
        sys.exit(f"{csv_path}: no Nsight Compute metrics in it")
    out = {}
    for row in csv.DictReader(io.StringIO(text[start:])):
        value = row["Metric Value"].replace(",", "")
        try:
            out.setdefault(row["ID"], {})[row["Metric Name"]] = float(value)
        except ValueError:
            pass
    return out


def facts(csv_path):
    ks = list(kernels(csv_path).values())
    time = [k.get("gpu__time_duration.sum", 0.0) for k in ks]
    total = sum(time) or 1.0
    names = sorted({m for k in ks for m in k})
    out = {"ncu_kernels": float(len(ks))}
    for m in names:
        vals = [k.get(m, 0.0) for k in ks]
        if m.endswith(".sum"):
            out["ncu_" + m] = sum(vals)
        else:
            out["ncu_" + m] = sum(v * t for v, t in zip(vals, time)) / total
    return out


def main(argv):
    if len(argv) < 4 or len(argv) % 2:
        sys.exit(__doc__)
    merged = None
    for results, metrics in zip(argv[2::2], argv[3::2]):
        with open(results) as f:
            r = json.load(f)
        for run in r["runs"]:
            run.setdefault("facts", {}).update(facts(metrics))
        if merged is None:
            merged = r
        else:
            merged["runs"].extend(r["runs"])
    tmp = argv[1] + ".tmp"
    with open(tmp, "w") as f:
        json.dump(merged, f, indent=1)
    os.replace(tmp, argv[1])
    print(f"wrote {argv[1]}")


if __name__ == "__main__":
    main(sys.argv)

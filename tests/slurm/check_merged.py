#!/usr/bin/env python3
"""Merged shards against what one process wrote (tests/slurm/ladder_on_slurm.sh).

    check_merged.py WHOLE MERGED N [WHOLE MERGED N ...]

Each WHOLE is an unsharded results file, or reproduction folder (every config's file in its
reproduction.json), and MERGED what `ladder merge` made of N shards. Each merged file must be
complete, hold the same runs in the same order with the same statuses, and have been made by N
shards (array tasks 0 to N-1) that each saw a GPU index of their own.
"""
import json
import os
import sys

from plots import results as ladder_results  # the project root on PYTHONPATH


def pairs(whole, merged):
    """(unsharded file, merged file) for a file, or for every config of a reproduction."""
    if not os.path.isdir(whole):
        return [(whole, merged)]
    with open(os.path.join(whole, "reproduction.json"), encoding="utf-8") as f:
        configs = json.load(f)["configs"]
    return [(os.path.join(whole, c["results"]), os.path.join(merged, c["results"])) for c in configs]


def problems_of(whole, merged, n):
    a, b = ladder_results.load(whole), ladder_results.load(merged)
    key = lambda f: [(r.run_index, r.id, r.point, r.status) for r in f.runs]
    out = []
    if not b.complete:
        out.append("not complete")
    if key(a) != key(b):
        out.append("runs differ: %d unsharded, %d merged" % (len(a.runs), len(b.runs)))
    tasks = sorted(str((s.get("scheduler") or {}).get("array_task_id")) for s in b.shards)
    if tasks != sorted(str(k) for k in range(n)):
        out.append("made by array tasks %s, not 0 to %d" % (tasks, n - 1))
    gpus = [(s.get("host") or {}).get("cuda_visible_devices") for s in b.shards]
    if None in gpus or len(set(gpus)) != len(gpus):
        out.append("the shards' GPUs are not distinct: %s" % gpus)
    return out


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit("usage: check_merged.py WHOLE MERGED N [WHOLE MERGED N ...]")
    failed = False
    for i in range(0, len(args), 3):
        for whole, merged in pairs(args[i], args[i + 1]):
            found = problems_of(whole, merged, int(args[i + 2]))
            print("%s: %s" % (os.path.basename(merged), "; ".join(found) or "same runs, order and statuses"))
            failed = failed or bool(found)
    sys.exit(1 if failed else 0)


main()

#!/usr/bin/env python3
"""A point beyond one variant's limit is recorded, not fatal.

    unsupported_point.py LADDER SCRATCH_ROOT

dtw/thread_local keeps its DP rows in per-thread arrays of at most 1024 cells, so n = 2000 is
beyond it: on a machine with a GPU it must be recorded as `unsupported` (with a reason), on
one without as `skipped`. Either way the run exits 0, writes the results file, and the CPU
variant next to it (seq_tworow) runs and passes full validation at the same point.
"""
import json
import os
import subprocess
import sys
import tempfile

from clitest import results

CONFIG = {
    "name": "cli-unsupported-point",
    "study": "dtw",
    "data": {"generator": "cbf", "seed": 11},
    "params": {"n": 2000, "entries": 3},
    "variants": ["seq_tworow", "thread_local"],
    "repetitions": 1,
    "warmup": 0,
    "validation": "full",
}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: unsupported_point.py LADDER SCRATCH_ROOT")
    ladder = os.path.abspath(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(prefix="unsupported.", dir=sys.argv[2]) as work:
        cfg = os.path.join(work, "config.json")
        out = os.path.join(work, "res.json")
        with open(cfg, "w") as f:
            json.dump(CONFIG, f)
        cmd = [ladder, "run", cfg, "--out", out, "--quiet"]
        proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=240)
        print("$", " ".join(cmd))
        print(proc.stdout, end="")
        print(proc.stderr, end="", file=sys.stderr)
        if proc.returncode != 0:
            sys.exit(f"FAIL: exit status {proc.returncode}, expected 0 (a point a variant "
                     "cannot run must be recorded, not fatal)")
        if not os.path.exists(out):
            sys.exit("FAIL: no results file was written")
        res = results(out)

        runs = {r.variant: r for r in res.runs}
        if sorted(runs) != ["seq_tworow", "thread_local"] or len(res.runs) != 2:
            sys.exit(f"FAIL: expected one run each of seq_tworow and thread_local, got "
                     f"{[(r.variant, r.point) for r in res.runs]}")
        for name, r in runs.items():
            if r.data.get("n") not in (None, 2000) or r.params.get("n") != "2000":
                problems.append(f"{name}: the run is not at n=2000: params {r.params}")

        base = runs["seq_tworow"]
        if not base.passed:
            problems.append(f"seq_tworow: status {base.status!r} ({base.reason}), "
                            "expected passed")
        elif base.validation["checked"] != 3 or base.validation["failures"] != 0:
            problems.append(f"seq_tworow: validation {base.validation}, expected 3 checked, "
                            "0 failures")

        tl = runs["thread_local"]
        if tl.status not in ("unsupported", "skipped"):
            problems.append(f"thread_local: status {tl.status!r} ({tl.reason}), expected "
                            "unsupported (GPU present) or skipped (no GPU)")
        if not tl.reason:
            problems.append("thread_local: no reason recorded for not running")
        if tl.raw.get("timing") is not None:  # as written: any timing at all, even empty
            problems.append("thread_local: has timing although it did not run")
        gpu_present = bool(res.device.get("present"))
        if gpu_present and tl.status != "unsupported":
            problems.append("thread_local: a GPU is present, so n=2000 must be unsupported, got "
                            f"{tl.status!r}")
        if not gpu_present and tl.status != "skipped":
            problems.append(f"thread_local: no GPU, expected skipped, got {tl.status!r}")

        summary = res.raw.get("summary", {})
        if summary.get("passed") != 1 or summary.get(tl.status) != 1:
            problems.append(f"summary {summary} does not match the runs")

    if problems:
        for p in problems:
            print("FAIL:", p, file=sys.stderr)
        sys.exit(1)
    print(f"ok: seq_tworow passed, thread_local {tl.status} ({tl.reason})")


if __name__ == "__main__":
    main()

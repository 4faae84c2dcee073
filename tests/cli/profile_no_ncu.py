#!/usr/bin/env python3
"""`ladder profile` on a machine without Nsight Compute.

    profile_no_ncu.py LADDER CONFIG SCRATCH_ROOT

Skipped (77) where an ncu can be found (on PATH or in the CUDA Toolkit's bin/). Otherwise the
profile must still time and validate every run as `ladder run` does, say once that ncu is
missing, exit 0, and write a results file in which every GPU run's profile is
{"skipped": "ncu not found"} and every CPU run's {"skipped": "cpu step"}. `reproduce
--profile` is refused there, with one line and exit 2, before its folder is created.
"""
import os
import shutil
import sys
import tempfile

from clitest import finish, results, run_ladder


def ncu_present():
    return bool(shutil.which("ncu")) or any(
        os.access(f, os.X_OK) for f in ("/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"))


def main():
    ladder, config, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
    if ncu_present():
        print("skipped: ncu is installed here")
        sys.exit(77)
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        out = os.path.join(tmp, "profile.json")
        proc = run_ladder([ladder, "profile", config, "--out", out, "--quiet"], cwd=tmp, text=True)
        if proc.returncode != 0:
            problems.append(f"exit status {proc.returncode}, want 0: {proc.stderr.strip()[-300:]}")
        if proc.stderr.count("ncu not found") != 1:
            problems.append(f"'ncu not found' said {proc.stderr.count('ncu not found')} times, want once")
        runs = results(out).runs
        gpu = [r for r in runs if r.backend == "gpu"]
        cpu = [r for r in runs if r.backend == "cpu"]
        if not gpu or not cpu:
            problems.append("the config should have GPU and CPU runs")
        for r in gpu:
            if r.raw.get("profile") != {"skipped": "ncu not found"}:
                problems.append(f"{r.variant} {r.point}: profile {r.raw.get('profile')}")
        for r in cpu:
            if r.raw.get("profile") != {"skipped": "cpu step"}:
                problems.append(f"{r.variant} {r.point}: profile {r.raw.get('profile')}")
            if r.passed and not r.median_ms:
                problems.append(f"{r.variant} {r.point}: passed without a timing")
        repro = os.path.join(tmp, "repro")
        proc = run_ladder([ladder, "reproduce", "--profile", "--no-peers", "--out", repro], cwd=tmp, text=True)
        if proc.returncode != 2 or "needs Nsight Compute" not in proc.stderr:
            problems.append(f"reproduce --profile without ncu: exit {proc.returncode}, {proc.stderr.strip()[-200:]}")
        if os.path.exists(repro):
            problems.append("reproduce --profile without ncu created its folder")
    finish(problems)


if __name__ == "__main__":
    main()

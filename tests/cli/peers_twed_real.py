#!/usr/bin/env python3
"""cuTWED itself (peers/twed/cutwed.py) on the GPU, on a tiny config, through `ladder ingest`.

    peers_twed_real.py LADDER SCRATCH_ROOT

Checks: exit 0; the three variants at every point: FP64 and FP32 (twed_dev, twed_batch_dev)
validated everywhere (pairs in R^1 and R^3, batch, triangle), the FP64 host call (twed, the
inputs copied inside) validated on the pairs and unsupported at the batch and triangle points
with its reason; the host call gives the device call's distance to the last bits; the peer
record says how the host call is timed. Uses the project's cache, --offline: skipped (77)
without a GPU in nvidia-smi, or when `cutwed.py --ready` says cuTWED is not ready there
(`python3 -m peers.twed.cutwed --build-only` from the project root where the network is reachable, then carry
peers/cache/).
"""
import json
import os
import sys

import clitest  # noqa: E402
import peer_tests  # noqa: E402
from peer_tests import ROOT, SKIP, peer_module, run  # noqa: E402

SCRIPT = os.path.join(ROOT, "peers", "twed", "cutwed.py")
CONFIG = {"name": "twed-peer-real", "study": "twed",
          "data": {"generator": "random_walk", "seed": 42, "n": 40, "series": 6,
                   "timestamps": "data"},
          "repetitions": {"cpu": 1, "gpu": 2}, "warmup": {"cpu": 0, "gpu": 1},
          "validation": "full",
          "sweeps": [
              {"label": "pairs", "axes": {"dim": [1, 3]}, "variants": ["twed/seq_full"]},
              {"label": "modes", "axes": {"mode": ["batch", "triangle"]},
               "variants": ["twed/seq_full"]}]}
DEVICE, HOST = "peer_cutwed", "peer_cutwed_host"
VARIANTS = [DEVICE, "peer_cutwed_fp32", HOST]


def check(results, problems):
    """Every variant at every point, validated where it runs; the host call on pairs only."""
    runs = {(r.point, r.variant): r for r in results.runs}
    points = list(dict.fromkeys(r.point for r in results.runs))
    if sorted(runs) != sorted((p, v) for p in points for v in VARIANTS) or len(points) != 4:
        problems.append(f"runs {sorted(runs)}: want {VARIANTS} at 4 points")
    for (point, variant), r in runs.items():
        pair = r.params.get("mode") == "pair"
        if variant == HOST and not pair:
            if r.status != "unsupported" or "single pairs" not in r.reason:
                problems.append(f"{variant} at {point}: {r.status} ({r.reason}), want "
                                "unsupported on single pairs only")
        elif not (r.passed and r.validation.get("checked")):
            problems.append(f"{variant} at {point}: {r.status} ({r.reason})")


def same_distance(kept_outputs, problems):
    """The host call's distance is the device call's (the same kernels, on copied inputs)."""
    import numpy as np
    for point, files in kept_outputs.items():
        if HOST in files and DEVICE in files:
            host, device = np.load(files[HOST]), np.load(files[DEVICE])
            if not np.allclose(host, device, rtol=1e-12, atol=0):
                problems.append(f"point {point}: host call {host.ravel()[:1]}, device call "
                                f"{device.ravel()[:1]}")


def main():
    ladder, scratch = clitest.ladder_scratch("peers_twed_real.py")
    if not peer_tests.gpu_listed():
        print("skipped: no GPU in nvidia-smi (cuTWED runs on the GPU)")
        sys.exit(SKIP)
    probe = run([sys.executable, "-m", peer_module(SCRIPT), "--ready"])
    print(probe.stdout.strip())
    if probe.returncode != 0:
        print("skipped: cuTWED is not ready here (python3 -m peers.twed.cutwed --build-only "
              "where the network is reachable, then carry peers/cache/)")
        sys.exit(SKIP)
    problems = []
    work = os.path.join(scratch, "peers_twed_real")
    os.makedirs(work, exist_ok=True)
    config, out = os.path.join(work, "twed.json"), os.path.join(work, "peer.json")
    with open(config, "w") as f:
        json.dump(CONFIG, f)
    keep = os.path.join(work, "handover")
    wrapper = os.path.join(work, "ladder-keeper")
    with open(wrapper, "w") as f:  # ladder, keeping the handover's folder to read its outputs
        f.write(f"#!{sys.executable}\nimport os, shutil, sys\n"
                f"if sys.argv[1:2] == ['ingest']:\n"
                f"    shutil.copytree(os.path.dirname(os.path.abspath(sys.argv[3])), {keep!r},"
                f" dirs_exist_ok=True)\n"
                f"os.execv({ladder!r}, [{ladder!r}] + sys.argv[1:])\n")
    os.chmod(wrapper, 0o755)
    proc = run([sys.executable, "-m", peer_module(SCRIPT), config, "--out", out, "--ladder", wrapper, "--quiet",
                "--offline"])
    if proc.returncode != 0 or not os.path.exists(out):
        clitest.finish([f"cutwed.py: exit {proc.returncode}: {proc.stderr[-3000:]}"])
    results = clitest.results(out)
    check(results, problems)
    with open(os.path.join(keep, "handover.json")) as f:
        handover = json.load(f)
    files = {}
    for r in handover["runs"]:
        if "outputs" in r:
            files.setdefault(r["point"], {})[r["variant"]] = os.path.join(keep, r["outputs"])
    same_distance(files, problems)
    if "host call" not in (results.peer or {}).get("timing_method", ""):
        problems.append(f"the peer record does not say how the host call is timed: "
                        f"{results.peer}")
    clitest.finish(problems, f"ok: {len(results.runs)} cuTWED runs, the host call on pairs")


if __name__ == "__main__":
    main()

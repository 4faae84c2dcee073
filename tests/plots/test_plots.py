"""Tests of plots/: the results reader, figure choice, draw_all's contract, the studies found
on LADDER_STUDY_PATH, and every committed reference file.

Run: PYTHONPATH=. python3 tests/plots/test_plots.py   (needs matplotlib; exits non-zero on failure)
"""
import copy
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLOTS = ROOT / "plots"
from plots import pages, pools, selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import report  # noqa: E402
from plots import report_common as rc  # noqa: E402
from plots import studies  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def toy_run(variant, step, role, label, ms, size=1024, backend="gpu", status="passed",
            reason="", sweep="main", block=None, extras=None):
    """A run of the made-up study 'toy' in the results layout the harness writes; ms=None is
    an untimed run."""
    params = {"seed": "7", "size": str(size)}
    if block:
        params["block"] = str(block)
    timing, metrics = None, {}
    if ms is not None:
        gbps = 8.0 * size * size / (ms * 1e6)  # bytes moved / time
        timing = {"unit": "ms", "mode": "hot", "warmup": 1, "samples": [ms * 0.9, ms, ms * 1.3],
                  "median": ms, "min": ms * 0.9, "max": ms * 1.3, "mean": ms * 1.07,
                  "stddev": ms * 0.2, "cv": 0.19}
        metrics = {"gbps": gbps, "unit": "GB/s", "work": 8.0 * size * size}
        if backend == "gpu":
            metrics.update(peak=100.0, peak_rule="made-up bandwidth", pct_of_peak=gbps)
    return {"study": "toy", "variant": variant, "step": step, "change": f"{label} change",
            "backend": backend, "precision": "fp32", "point": f"seed=7,size={size}",
            "sweep": sweep, "params": params, "status": status, "reason": reason,
            "data": {"size": float(size)}, "extras": extras or {}, "facts": {},
            "validation": {"mode": "full", "checked": 1, "failures": int(status == "incorrect"),
                           "max_abs_error": 0.0, "max_rel_error": 0.0,
                           "tolerance": {"abs": 1e-6, "rel": 1e-6, "rule": "exact"}},
            "role": role, "label": label, "metric": "gbps", "timing": timing, "metrics": metrics}


def toy_results(figures=None, sweep_figures=None):
    """A toy results file: a baseline, steps (one at two block sizes, one incorrect, one
    skipped), a peer, all in sweep 'main' at size 1024, and two runs in sweep 'big'."""
    runs = [toy_run("seq", 1, "baseline", "sequential loop", 50.0, backend="cpu"),
            toy_run("threads", 2, "step", "threads", 10.0, backend="cpu"),
            toy_run("coalesced", 3, "step", "coalesced loads", 1.0, block=64),
            toy_run("coalesced", 3, "step", "coalesced loads", 0.8, block=128,
                    extras={"hit_rate": 0.93}),
            toy_run("fused", 4, "step", "fused kernel", 0.5, status="incorrect",
                    reason="3 of 1024 outputs off"),
            toy_run("tensor", 5, "step", "tensor cores", None, status="skipped",
                    reason="no CUDA device"),
            toy_run("vendor", 6, "peer", "vendor library", 0.6),
            toy_run("seq", 1, "baseline", "sequential loop", 200.0, size=4096, backend="cpu",
                    sweep="big"),
            toy_run("coalesced", 3, "step", "coalesced loads", 3.0, size=4096, sweep="big")]
    config = {"name": "toy-test", "study": "toy",
              "sweeps": [{"label": "main"}, {"label": "big"}]}
    if figures is not None:
        config["figures"] = figures
    if sweep_figures is not None:
        config["sweeps"][1]["figures"] = sweep_figures
    return {"schema_version": 1,
            "ladder": {"version": "0.1.0", "git_commit": "abc123", "build_type": "Release",
                       "cuda_arch": "90"},
            "host": {"cpu": "Test CPU", "cores": 4}, "device": {"present": False,
                                                                "reason": "no CUDA device"},
            "config": config, "config_path": "configs/toy.json",
            "started_at": "2026-01-01T00:00:00Z", "finished_at": "2026-01-01T00:01:00Z",
            "summary": {}, "runs": runs}


def twed_run(variant, step, role, backend, precision, n, ms, sweep, mode="pair", rows=1,
             cols=1, dim=1, status="passed", reason=""):
    """A run of the twed study as the harness (or peers/twed/cutwed.py, role 'peer') writes it."""
    params = {"degree": "2", "lambda": "1", "mode": mode, "nu": "1", "seed": "42"}
    if sweep in ("pair", "large"):
        params["n"] = str(n)
    pairs = rows * (rows - 1) / 2 if mode == "triangle" else rows * cols
    timing, metrics = None, {}
    if ms is not None:
        timing = {"unit": "ms", "mode": "hot", "warmup": 1, "samples": [ms], "median": ms,
                  "min": ms, "max": ms * 1.1, "mean": ms, "stddev": 0.0, "cv": 0.0}
        metrics = {"gcups": pairs * n * n / ms / 1e6, "unit": "GCUPS", "work": pairs * n * n}
    return {"study": "twed", "variant": variant, "step": step, "label": variant, "role": role,
            "change": "", "backend": backend, "precision": precision, "metric": "gcups",
            "point": ",".join(f"{k}={v}" for k, v in sorted(params.items())), "sweep": sweep,
            "params": params, "status": status, "reason": reason,
            "data": {"n": float(n), "m": float(n), "dim": float(dim), "a_series": float(rows),
                     "b_series": float(cols), "pairs": float(pairs), "nu": 1.0, "lambda": 1.0,
                     "degree": 2.0},
            "extras": {}, "facts": {}, "validation": {"mode": "full", "checked": 1, "failures": 0},
            "timing": timing, "metrics": metrics}


def twed_results(name, runs, figures):
    """A twed results file around `runs` (sweeps named by the runs)."""
    sweeps = list(dict.fromkeys(r["sweep"] for r in runs))
    return dict(toy_results(), config={"name": name, "study": "twed", "figures": figures,
                                       "sweeps": [{"label": s} for s in sweeps]}, runs=runs)


def twed_files():
    """Our runs and cuTWED's (a peer file, as peers/twed/cutwed.py writes one) of the paper and the
    validation configs: pairs 2^10..2^13 and 'large' 2^17, 2^18 (one peer error), Synthetic
    Control batch and triangle, an MNIST-like single query (our sequential run skipped)."""
    ours, peer, v_ours, v_peer = [], [], [], []
    for k in (10, 11, 12, 13, 17, 18):
        n, sweep = 2 ** k, "pair" if k < 17 else "large"
        cells = n * n
        if k < 17:
            ours += [twed_run("seq_full", 1, "baseline", "cpu", "fp64", n, cells * 3e-6, sweep),
                     twed_run("itwed", 4, "step", "gpu", "fp64", n, 7e-3 * n, sweep)]
        ours.append(twed_run("wavefront", 7, "step", "gpu", "fp64", n, 0.05 + cells * 2e-9, sweep))
        ours.append(twed_run("wavefront_fp32", 7, "step", "gpu", "fp32", n, cells * 1e-9, sweep))
        peer.append(twed_run("peer_cutwed", 90, "peer", "gpu", "fp64", n, 8e-3 * n, sweep)
                    if k != 18 else twed_run("peer_cutwed", 90, "peer", "gpu", "fp64", n, None,
                                             sweep, status="error", reason="GPUassert"))
    for mode in ("batch", "triangle"):
        shape = dict(mode=mode, rows=600, cols=600)
        v_ours += [twed_run("seq_full", 1, "baseline", "cpu", "fp64", 60, 2e4, "synthetic_control",
                            **shape),
                   twed_run("warp_batch", 8, "step", "gpu", "fp64", 60, 2.6, "synthetic_control",
                            **shape)]
        v_peer.append(twed_run("peer_cutwed", 90, "peer", "gpu", "fp64", 60, 400,
                               "synthetic_control", **shape))
    mnist = dict(mode="batch", rows=1, cols=60000, dim=28)
    v_ours += [twed_run("seq_full", 1, "baseline", "cpu", "fp64", 28, None, "mnist",
                        status="skipped", reason="filtered", **mnist),
               twed_run("warp_batch", 8, "step", "gpu", "fp64", 28, 3.0, "mnist", **mnist)]
    v_peer.append(twed_run("peer_cutwed", 90, "peer", "gpu", "fp64", 28, 9.0, "mnist", **mnist))
    return (twed_results("twed-paper", ours, ["twed_paper"]),
            twed_results("twed-paper", peer, ["twed_paper"]),
            twed_results("twed-validation", v_ours, ["twed_table2"]),
            twed_results("twed-validation", v_peer, ["twed_table2"]))


# The EED steps as the harness names them: (variant, step, role, backend, label, preprocessing).
EED_STEPS = [("seq", 1, "baseline", "cpu", "sequential, full table", None),
             ("openmp", 2, "step", "cpu", "OpenMP over pairs", None),
             ("openmp_linear", 3, "step", "cpu", "OpenMP, linear memory", None),
             ("ph_cuda", 4, "step", "gpu", "pH_CUDA: one block", "forward"),
             ("h_cuda", 5, "step", "gpu", "H_CUDA: block per pair", "forward"),
             ("sh_cuda", 6, "step", "gpu", "sH_CUDA: shared memory", "backward"),
             ("linear", 7, "step", "gpu", "linear memory, rows", None),
             ("warp_rows", 8, "step", "gpu", "warp per pair, rows in registers", None)]
EED_PEERS = {"peer_rapidfuzz": (90, "cpu", "RapidFuzz DamerauLevenshtein"),
             "peer_stringzilla_levenshtein": (90, "gpu", "StringZilla Levenshtein")}


def eed_run(name, sweep, n, pairs, stages=None, ms=None, alphabet=10, prep=None,
            status="passed", reason=""):
    """A run of the eed study laid out as `ladder run configs/eed/paper.json` writes one (taken
    from a real run: GPU runs carry stage medians 'copy in', 'preprocess' for the paper's
    steps, 'compute' and 'copy out', and their median is the total). stages: {stage: ms}, or
    ms for a run without stages (CPU, peers); neither: untimed."""
    if name in EED_PEERS:
        step, backend, label = EED_PEERS[name]
        role, default_prep = "peer", None
    else:
        _, step, role, backend, label, default_prep = next(s for s in EED_STEPS if s[0] == name)
    params = {"alphabet": str(alphabet), "n": str(n), "pairs": str(pairs), "seed": "2015",
              "spread": "0", "w_del": "1", "w_ins": "1", "w_sub": "1", "w_swap": "1"}
    point = {"alphabet": str(alphabet), "n": str(n), "pairs": str(pairs), "seed": "2015"}
    if default_prep:
        params["prep"] = prep or default_prep
        if prep:
            point["prep"] = prep  # set by the sweep: part of the point
    cells = float(pairs * n * n)
    total = sum(stages.values()) if stages else ms
    timing, metrics = None, {}
    if total is not None:
        samples = [total * f for f in (0.99, 1.0, 1.004, 1.02, 0.998)]
        timing = {"cv": 0.01, "max": max(samples), "mean": sum(samples) / 5, "median": total,
                  "min": min(samples), "mode": "hot", "samples": samples, "stddev": total * 0.01,
                  "unit": "ms", "warmup": 2 if backend == "gpu" else 0}
        if stages:
            timing["stage_medians"] = dict(sorted(stages.items()))
        metrics = {"gcups": cells / total / 1e6, "unit": "GCUPS", "work": cells}
        if backend == "gpu" and role != "peer":
            peak = 2090.88
            metrics.update(peak=peak, pct_of_peak=100 * metrics["gcups"] / peak,
                           peak_rule="8 int32 cells (8 integer operations)/clock/SM x 132 SMs "
                                     "x 1.980 GHz (max SM clock)")
    return {"backend": backend, "change": f"{label} change",
            "data": {"alphabet": float(alphabet), "cells": cells, "m": float(n), "n": float(n),
                     "pairs": float(pairs), "w_del": 1.0, "w_ins": 1.0, "w_sub": 1.0,
                     "w_swap": 1.0},
            "extras": {}, "facts": {"blocks": float(pairs)} if backend == "gpu" else {},
            "label": label, "metric": "gcups", "metrics": metrics, "params": params,
            "point": ",".join(f"{k}={v}" for k, v in sorted(point.items())), "precision": "int32",
            "reason": reason, "role": role, "status": status, "step": step, "study": "eed",
            "sweep": sweep, "timing": timing,
            "validation": {"checked": pairs if status != "skipped" else 0,
                           "failures": int(status == "incorrect"), "max_abs_error": 0.0,
                           "max_rel_error": 0.0, "mode": "full",
                           "tolerance": {"abs": 0.0, "rel": 0.0,
                                         "rule": "exact: integer distances"}},
            "variant": name}


def eed_gpu_stages(name, n, pairs, prep=None):
    """Plausible H100 stage medians (ms), scaled from a real run at 100 pairs of 1000."""
    x = n / 1000.0
    copy_in, copy_out = 0.012 + 0.004 * pairs * x / 100, 0.005
    prep = prep or {"ph_cuda": "forward", "h_cuda": "forward", "sh_cuda": "backward"}.get(name)
    waves = max(1.0, pairs / 132)  # blocks per SM, for the steps that give a pair a block
    compute = {"ph_cuda": 2.25 * x * pairs, "h_cuda": 2.8 * x * waves,
               "sh_cuda": 2.9 * x * waves, "linear": 2.5 * x * waves,
               "warp_rows": 1.4 * x * max(1.0, pairs / 528)}[name]
    stages = {"copy in": copy_in, "compute": compute, "copy out": copy_out}
    if prep:
        stages["preprocess"] = {"serial": 0.02 + 0.006 * pairs * x,
                                "forward": 0.008 + 0.007 * pairs * x * x,
                                "backward": 0.006 + 0.0003 * pairs * x}[prep]
    return stages


def eed_files(sweeps=("preprocessing_serial", "pairs_100", "one_pair", "throughput", "alphabet",
                      "long"), lengths=(100, 200, 400, 700, 1000), skip=()):
    """Our runs and the peers' (a peer file) of configs/eed/paper.json at a few lengths: an
    incorrect sH_CUDA point, a skipped H_CUDA point, warp_rows unsupported at alphabet 256,
    the peers in 'one_pair' and 'throughput'. `skip`: variants left out."""
    ours, peers = [], []
    cpu_rate = {"seq": 0.3, "openmp": 3.3, "openmp_linear": 5.0}  # GCUPS
    for sweep in sweeps:
        if sweep == "preprocessing_serial":
            ours += [eed_run("ph_cuda", sweep, n, 100, eed_gpu_stages("ph_cuda", n, 100, "serial"),
                             prep="serial") for n in lengths]
            continue
        if sweep in ("pairs_100", "one_pair"):
            pairs = 100 if sweep == "pairs_100" else 1
            for name, *_ in EED_STEPS:
                for n in lengths:
                    if name in skip or (sweep == "one_pair" and name in cpu_rate):
                        continue
                    if name in cpu_rate:
                        ours.append(eed_run(name, sweep, n, pairs,
                                            ms=pairs * n * n / cpu_rate[name] / 1e6))
                    elif sweep == "one_pair" and name == "h_cuda" and n == 700:
                        ours.append(eed_run(name, sweep, n, pairs, status="skipped",
                                            reason="no CUDA device"))
                    else:
                        status = "incorrect" if (name, sweep, n) == ("sh_cuda", "pairs_100",
                                                                      400) else "passed"
                        ours.append(eed_run(name, sweep, n, pairs,
                                            eed_gpu_stages(name, n, pairs), status=status,
                                            reason="2 of 100 distances off" if status !=
                                            "passed" else ""))
            if sweep == "one_pair":
                peers += [eed_run("peer_rapidfuzz", sweep, n, 1, ms=n * n / 0.5e6)
                          for n in lengths]
            continue
        if sweep == "long":
            ours.append(eed_run("linear", sweep, 100000, 1,
                                {"copy in": 0.04, "compute": 25000.0, "copy out": 0.005}))
            continue
        alphabets = (10,) if sweep == "throughput" else (4, 10, 256)
        names = ["openmp", "openmp_linear"] if sweep == "throughput" else []
        names += ["h_cuda", "sh_cuda", "linear", "warp_rows"]
        for alphabet in alphabets:
            for name in names:
                if name in skip:
                    continue
                if name in cpu_rate:
                    ours.append(eed_run(name, sweep, 1000, 10000, ms=1e10 / cpu_rate[name] / 1e6))
                elif name == "warp_rows" and alphabet == 256:
                    ours.append(eed_run(name, sweep, 1000, 10000, alphabet=alphabet,
                                        status="unsupported",
                                        reason="a warp's saved rows (one per symbol) need more "
                                               "shared memory than a block may have"))
                else:
                    stages = eed_gpu_stages(name, 1000, 10000)
                    stages["compute"] *= {"h_cuda": 1.6, "sh_cuda": 1.0}.get(name, 1.0)
                    ours.append(eed_run(name, sweep, 1000, 10000, stages, alphabet=alphabet))
        if sweep == "throughput":
            peers += [eed_run("peer_rapidfuzz", sweep, 1000, 10000, ms=1e10 / 1.1e6),
                      eed_run("peer_stringzilla_levenshtein", sweep, 1000, 10000, ms=60.0)]
    files = []
    for runs in (ours, peers):
        used = list(dict.fromkeys(r["sweep"] for r in runs))
        results = dict(toy_results(), runs=runs,
                       config={"name": "eed-paper", "study": "eed",
                               "figures": ["ladder", "eed_paper"],
                               "data": {"generator": "random_pairs", "seed": 2015, "alphabet": 10},
                               "sweeps": [{"label": s} for s in used]})
        results["device"] = {"present": True, "name": "NVIDIA H100 80GB HBM3",
                             "compute_capability": "9.0", "sm_count": 132}
        results["host"] = {"cpu": "Intel(R) Xeon(R) Processor", "cores": 16}
        files.append(results)
    return files


# The skyline steps as the harness names them: (variant, step, backend, label).
SKYLINE_STEPS = [("openmp", 3, "cpu", "OpenMP sort-filter"),
                 ("naive", 4, "gpu", "naive nested loop"), ("apc", 5, "gpu", "APC"),
                 ("dwe", 6, "gpu", "DWE"), ("alr", 7, "gpu", "ALR"),
                 ("warp_vote", 8, "gpu", "warp vote"), ("sort_filter", 9, "gpu", "sort-filter"),
                 ("partition", 10, "gpu", "partition masks"), ("prefilter", 11, "gpu", "pre-filter")]
# Made-up seconds at d = 8 per step, and the skyline size per distribution at d (anything
# plausible: 10^6 independent points have about 30,700 at d = 8).
SKYLINE_S = {"openmp": 34.0, "naive": 1.9, "apc": 1.7, "dwe": 1.2, "alr": 0.25,
             "warp_vote": 0.2, "sort_filter": 0.08, "partition": 0.04, "prefilter": 0.01}
SKYLINE_SIZES = {"independent": {2: 14, 4: 509, 8: 30650, 9: 59300, 16: 628900},
                 "anticorrelated": {2: 2900, 4: 32000, 8: 319200, 9: 390000, 16: 930000},
                 "correlated": {8: 12}}


def skyline_run(name, n, d, distribution, ms, status="passed", reason="", settings=None):
    """A run of the skyline study as `ladder run configs/skyline/*.json` writes one (laid out
    like a real H100 run); ms=None is an untimed run."""
    _, step, backend, label = next(s for s in SKYLINE_STEPS if s[0] == name)
    params = {"d": str(d), "decimals": "-1", "distribution": distribution, "n": str(n),
              "seed": "42", "shape": "none", **(settings or {})}
    timing, metrics, extras = None, {}, {}
    if ms is not None:
        timing = {"unit": "ms", "mode": "hot", "warmup": 1, "samples": [ms], "median": ms,
                  "min": ms, "max": ms * 1.01, "mean": ms, "stddev": 0.0, "cv": 0.0}
        metrics = {"points_per_s": n / ms / 1e3, "unit": "Mpoints/s", "work": float(n)}
        extras = {"skyline_size": float(SKYLINE_SIZES[distribution].get(d, 1000))}
    return {"study": "skyline", "variant": name, "step": step, "label": label, "role": "step",
            "change": "", "backend": backend, "precision": "fp32", "metric": "points_per_s",
            "point": f"d={d},distribution={distribution},n={n},seed=42", "sweep": f"d{d}",
            "params": params, "status": status, "reason": reason,
            "data": {"d": float(d), "n": float(n)}, "extras": extras, "facts": {},
            "validation": {"mode": "full", "checked": n, "failures": int(status == "incorrect")},
            "timing": timing, "metrics": metrics}


def skyline_files():
    """A GPU file: every step at n = 10^6, d = 2, 4, 8, 9 and 16 of the independent and
    anti-correlated points (DWE slow at d = 8 and 16, its bank conflicts; one incorrect run, a
    step at two settings) and d = 8 of correlated points; and a file without a GPU: n = 1000,
    one d, OpenMP timed and the GPU steps skipped."""
    runs = []
    for distribution, ds in (("independent", (2, 4, 8, 9, 16)),
                             ("anticorrelated", (2, 4, 8, 9, 16)), ("correlated", (8,))):
        for d in ds:
            scale = (d / 8) ** 2 * (3.0 if distribution == "anticorrelated" else 1.0)
            for name, *_ in SKYLINE_STEPS:
                ms = SKYLINE_S[name] * 1000 * scale * (4.0 if name == "dwe" and d in (8, 16)
                                                       else 1.0)
                if (name, distribution, d) == ("apc", "anticorrelated", 4):
                    runs.append(skyline_run(name, 1000000, d, distribution, ms,
                                            status="incorrect", reason="3 of 1000000 flags off"))
                elif name == "sort_filter":
                    runs += [skyline_run(name, 1000000, d, distribution, ms * f,
                                         settings={"block_points": str(b)})
                             for b, f in ((4096, 1.3), (16384, 1.0))]
                else:
                    runs.append(skyline_run(name, 1000000, d, distribution, ms))
    gpu = dict(toy_results(), runs=runs,
               config={"name": "skyline-paper", "study": "skyline",
                       "figures": ["ladder", "skyline_paper"],
                       "data": {"generator": "bks", "seed": 42}})
    gpu["device"] = {"present": True, "name": "NVIDIA H100 80GB HBM3",
                     "compute_capability": "9.0", "sm_count": 132}
    cpu_runs = [skyline_run(name, 1000, 8, "independent", 3.0 if name == "openmp" else None,
                            status="passed" if name == "openmp" else "skipped",
                            reason="" if name == "openmp" else "no CUDA device")
                for name, *_ in SKYLINE_STEPS]
    cpu = dict(toy_results(), runs=cpu_runs,
               config={"name": "skyline-smoke", "study": "skyline", "figures": ["skyline_paper"],
                       "data": {"generator": "bks", "seed": 42}})
    return gpu, cpu


def draw_all(*args, env=None):
    # A hang guard, not a speed goal: drawing every reference file takes over 100 s on a busy
    # 2-core machine, within the ctest limit of 600 s.
    return subprocess.run([sys.executable, "-m", "plots.draw_all", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=400,
                          env={**os.environ, **(env or {})})


def runs_of(raw):
    """The Run objects of a results dict, as ladder_results reads them from a file."""
    return ladder_results.ResultsFile("test.json", raw).runs


class Reader(unittest.TestCase):
    def test_accessors(self):
        raw = toy_results()
        del raw["runs"][0]["role"], raw["runs"][0]["metric"]  # as in files before the fields
        seq, _, _, _, fused, tensor, vendor = runs_of(raw)[:7]
        self.assertEqual((seq.role, seq.is_baseline, seq.id), ("baseline", True, "toy/seq"))
        self.assertEqual((seq.metric_name, seq.unit, seq.seconds), ("gbps", "GB/s", 0.05))
        self.assertEqual(seq.samples_ms, [45.0, 50.0, 65.0])
        self.assertEqual((fused.median_ms, fused.seconds), (0.5, None))  # incorrect: no time
        self.assertEqual((tensor.median_ms, tensor.metric, tensor.reason),
                         (None, None, "no CUDA device"))
        self.assertTrue(vendor.is_peer and not vendor.is_step)

    def test_a_folder_gives_its_results_files_and_a_bad_file_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "toy.json").write_text(json.dumps(toy_results()))
            (Path(tmp) / "reproduction.json").write_text(json.dumps({"configs": []}))
            files = ladder_results.load_all([tmp])
            self.assertEqual([(f.name, f.study, len(f.runs)) for f in files],
                             [("toy-test", "toy", 9)])
            for bad in ({"schema_version": 1}, {"schema_version": 3, "runs": []}, [1]):
                (Path(tmp) / "bad.json").write_text(json.dumps(bad))
                with self.assertRaises(ladder_results.ResultsError) as caught:
                    ladder_results.load(Path(tmp) / "bad.json")
                self.assertEqual(len(str(caught.exception).splitlines()), 1)


class MarksAndPeers(unittest.TestCase):
    """What every figure shares about a run: its name when it ran emulated, its % of limit
    when the GPU's limit is unknown, the peer it is held against."""
    EMULATED = "DPX instructions are emulated before compute capability 9.0 (this GPU is 8.6)"
    UNKNOWN = "ladder's hardware table has no row for Test GPU (cc 12.0): no limit is claimed"

    def toy(self):
        """The toy's runs at size 1024: coalesced (both settings) emulated, the peer's
        limit unknown."""
        raw = toy_results()
        for run in raw["runs"][2:4]:
            run["emulated"] = self.EMULATED
        metrics = raw["runs"][6]["metrics"]
        del metrics["peak"], metrics["peak_rule"]
        metrics.update(pct_of_peak=None, peak_reason=self.UNKNOWN)
        return raw, runs_of(raw)[:7]

    def test_accessors(self):
        _raw, runs = self.toy()
        self.assertEqual((runs[0].emulated, runs[0].peak_reason), ("", ""))
        self.assertEqual((runs[2].emulated, runs[6].peak_reason), (self.EMULATED, self.UNKNOWN))

    def test_an_emulated_run_is_named_so(self):
        _raw, runs = self.toy()
        names = [name for _run, name in selection.ladder_rows(runs)]
        self.assertEqual(names[0], "1  sequential loop")
        self.assertEqual(names[2].splitlines()[0], "3  coalesced loads (emulated)")
        self.assertEqual(selection.step_label(runs[2], "coalesced"), "coalesced (emulated)")

    def test_an_unknown_limit_is_said_and_not_footnoted(self):
        _raw, runs = self.toy()
        self.assertTrue(selection.rate_text(runs[6]).endswith(" GB/s, limit unknown"))
        self.assertIn("% of FP32 limit", selection.rate_text(runs[2]))
        self.assertEqual(selection.limit_footnotes([runs[6]]), [])
        self.assertEqual(len(selection.limit_footnotes(runs)), 1)

    def test_a_tf32x3_step_is_held_against_the_fp32_peer(self):
        from plots import ladder
        raw, _runs = self.toy()
        for run in raw["runs"][2:4]:
            run["precision"] = "tf32x3"  # FP32-accurate: compared with the fp32 peer
        shown = [run for run, _name in selection.ladder_rows(runs_of(raw)[:7])]
        peers = selection.best_peers(shown, by_metric=True)
        self.assertEqual(list(peers), ["fp32"])
        self.assertIn("% of vendor library", ladder.bar_text(shown[2], True, peers, False))
        self.assertIs(ladder.line_peer(shown, peers), peers["fp32"])

    def test_the_ladder_draws_them(self):
        from plots import ladder
        raw, runs = self.toy()
        fig = ladder.figure(ladder_results.ResultsFile("t.json", raw), "toy",
                            (("size", "1024"),), runs)
        texts = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels() + ax.texts]
        self.assertTrue(any("coalesced loads (emulated)" in t for t in texts), texts)
        self.assertTrue(any("limit unknown" in t for t in texts), texts)


class LadderAxis(unittest.TestCase):
    def test_bars_past_the_provisional_axis_do_not_squeeze_it(self):
        """Values spanning five decades and more used to leave the value axis an inch wide
        (bars beyond its provisional limits counted in the layout), its ticks in the 1e+20M."""
        from plots import ladder
        results = ladder_results.load(
            "results/reference/h100/quick/covariance-paper.json")
        (study, point), group = next(iter(selection.group_by_point(results.runs, ()).items()))
        fig = ladder.figure(results, study, point, group)
        ax = fig.axes[0]
        self.assertGreater(ax.get_position().width * fig.get_figwidth(), 5.0)
        top = max(r.metric for r in group if r.metric)
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        self.assertLessEqual(max(ticks), 10 * top + 1e-9, ticks)


class FigureChoice(unittest.TestCase):
    def choose(self, raw, override=None):
        return pools.figure_runs(ladder_results.ResultsFile("t.json", raw), override)

    def test_no_figures_anywhere_means_a_ladder_for_every_run(self):
        chosen = self.choose(toy_results())
        self.assertEqual(list(chosen), ["ladder"])
        self.assertEqual(len(chosen["ladder"]), 9)

    def test_top_level_applies_to_all_runs_and_a_sweep_list_to_its_runs(self):
        chosen = self.choose(toy_results(["ladder"], ["extra"]))
        self.assertEqual(len(chosen["ladder"]), 9)
        self.assertEqual([r.sweep for r in chosen["extra"]], ["big", "big"])

    def test_only_a_sweep_list_leaves_other_sweeps_without_figures(self):
        chosen = self.choose(toy_results(sweep_figures=["ladder"]))
        self.assertEqual([r.sweep for r in chosen["ladder"]], ["big", "big"])

    def test_override_replaces_the_config(self):
        chosen = self.choose(toy_results(["x"]), ["big:ladder"])
        self.assertEqual(list(chosen), ["ladder"])
        self.assertEqual(len(chosen["ladder"]), 2)


class TempDirCase(unittest.TestCase):
    """A test with a temporary folder (self.dir) and a figures folder in it (self.out)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.out = self.dir / "figures"

    def tearDown(self):
        self.tmp.cleanup()


class DrawAll(TempDirCase):

    def write(self, name, content):
        path = self.dir / name
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def drawn(self):
        return sorted(p.name for p in self.out.glob("*.png")) if self.out.exists() else []

    def test_toy_study_gets_its_ladders_and_an_unknown_figure_is_reported(self):
        toy = self.write("toy.json", toy_results(["ladder"], ["ladder", "no_such_figure"]))
        result = draw_all(toy, "--out-dir", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.drawn(), ["toy_ladder_size1024.png", "toy_ladder_size4096.png"])
        self.assertEqual(len(result.stdout.splitlines()), 2)
        unknown = [line for line in result.stderr.splitlines() if "no_such_figure" in line]
        self.assertEqual(len(unknown), 1, result.stderr)
        for png in self.out.glob("*.png"):
            self.assertEqual(png.read_bytes()[:8], PNG_MAGIC)

    def test_same_figure_from_two_files_warns(self):
        first = self.write("a.json", toy_results())
        second = self.write("b.json", toy_results())
        result = draw_all(first, second, "--out-dir", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("warning", result.stderr)

    def test_bad_file_exits_2_with_one_line_and_draws_nothing(self):
        good = self.write("good.json", toy_results())
        for bad in (self.write("bad.json", "{not json"),
                    self.write("v3.json", dict(toy_results(), schema_version=3)),
                    self.write("figs.json", toy_results(figures="ladder")),
                    self.dir / "missing.json"):
            with self.subTest(bad=bad.name):
                result = draw_all(good, bad, "--out-dir", self.out)
                self.assertEqual(result.returncode, 2)
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
                self.assertEqual(self.drawn(), [])

    def test_a_figure_script_runs_alone(self):
        toy = self.write("toy.json", toy_results())
        result = subprocess.run([sys.executable, "-m", "plots.ladder", str(toy),
                                 "--out-dir", str(self.out)], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("toy_ladder_size1024.png", self.drawn())

    def test_every_committed_reference_file_draws(self):
        files = sorted((ROOT / "results" / "reference" / "h100" / "development").glob("*.json"))
        self.assertTrue(files)
        # They predate the config's figures list: ask for the paper figures by sweep.
        result = draw_all(*files, "--out-dir", self.out, "--figures",
                          "ladder,notes:dtw_paper,length:dtw_length_sweep,covariance_chunk_sweep")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        drawn = self.drawn()
        for name in ("dtw_ladder_entries1048576_n128_queries1.png",
                     "dtw_paper_entries1048576_n128_queries1.png",
                     "dtw_length_sweep_entries65536_queries1.png",
                     "covariance_ladder_m202599_n2475.png",
                     "covariance_chunk_sweep_tiled_m202599_n2475.png"):
            self.assertIn(name, drawn)


class TwedFigures(unittest.TestCase):
    """twed_paper and twed_table2 from synthetic files, with and without cuTWED's peer file."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.out = self.dir / "figures"
        names = ("ours.json", "peer.json", "v_ours.json", "v_peer.json")
        self.files = []
        for name, content in zip(names, twed_files()):
            (self.dir / name).write_text(json.dumps(content))
            self.files.append(self.dir / name)

    def tearDown(self):
        self.tmp.cleanup()

    def drawn(self):
        return sorted(p.name for p in self.out.glob("*.png")) if self.out.exists() else []

    def check(self, *files):
        result = draw_all(*files, "--out-dir", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        for png in self.out.glob("*.png"):
            self.assertEqual(png.read_bytes()[:8], PNG_MAGIC)
        return result

    def test_ours_with_the_peer_file_in_either_order(self):
        for order in (self.files, self.files[::-1]):
            with self.subTest(first=order[0].name):
                result = self.check(*order)
                self.assertEqual(self.drawn(), ["twed_paper_degree2_lambda1_nu1.png",
                                                "twed_table2.png"])
                # The peer's runs are folded into ours: each figure is drawn once.
                self.assertNotIn("was drawn from", result.stderr)

    def test_ours_alone(self):
        self.check(self.files[0], self.files[2])
        self.assertEqual(self.drawn(), ["twed_paper_degree2_lambda1_nu1.png", "twed_table2.png"])

    def test_a_peer_file_alone_draws_no_table(self):
        self.check(self.files[1])
        # cuTWED beside the paper's numbers; no table without our runs.
        self.assertEqual(self.drawn(), ["twed_paper_degree2_lambda1_nu1.png"])

    def test_sweep_dim_and_the_host_call_draw_no_figure_of_their_own(self):
        """One N in several dimensions (sweep dim: the report's table) adds no twed_paper figure;
        cuTWED's host call (peer_cutwed_host) is a line of the one there is."""
        ours, peer, v_ours, v_peer = twed_files()
        for d in (1, 4, 32):
            for content, run in ((ours, twed_run("wavefront", 7, "step", "gpu", "fp64", 8192, 2.0,
                                                 "dim", dim=d)),
                                 (peer, twed_run("peer_cutwed", 90, "peer", "gpu", "fp64", 8192,
                                                 80.0, "dim", dim=d))):
                run["params"].update(n="8192", dim=str(d))
                content["runs"].append(run)
        for n in (1024, 2048):
            peer["runs"].append(twed_run("peer_cutwed_host", 90, "peer", "gpu", "fp64", n,
                                         9e-3 * n, "pair"))
        files = [self.dir / f"dim_{name}" for name in ("ours.json", "peer.json", "v_ours.json",
                                                       "v_peer.json")]
        for path, content in zip(files, (ours, peer, v_ours, v_peer)):
            path.write_text(json.dumps(content))
        result = draw_all(*files, "--out-dir", self.out, "--figures", "twed_paper,twed_table2")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(self.drawn(), ["twed_paper_degree2_lambda1_nu1.png", "twed_table2.png"])


class EedFigures(unittest.TestCase):
    """eed_paper from synthetic files of configs/eed/paper.json, with and without the peers'
    file, and with sweeps and steps missing."""
    FIGURES = ["eed_fig5.png", "eed_fig6.png", "eed_fig7.png", "eed_tables.png"]

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.out = self.dir / "figures"

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, content):
        path = self.dir / name
        path.write_text(json.dumps(content))
        return path

    def drawn(self, ladders=False):
        """The eed_paper figures written (or the ladders)."""
        names = sorted(p.name for p in self.out.glob("eed_*.png")) if self.out.exists() else []
        return [n for n in names if n.startswith("eed_ladder_") == ladders]

    def check(self, *files, alone=False):
        """draw_all.py on `files`; alone: eed_paper from every run, as a figure script would."""
        result = draw_all(*files, "--out-dir", self.out,
                          *(["--figures", "eed_paper"] if alone else []))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        for png in self.out.glob("*.png"):
            self.assertEqual(png.read_bytes()[:8], PNG_MAGIC)
        return result

    def test_ours_with_the_peer_file_in_either_order(self):
        ours, peers = eed_files()
        files = [self.write("ours.json", ours), self.write("peers.json", peers)]
        for order in (files, files[::-1]):
            with self.subTest(first=order[0].name):
                result = self.check(*order)
                self.assertEqual(self.drawn(), self.FIGURES)
                self.assertIn("eed_ladder_alphabet10_n1000_pairs10000_w_del1_w_ins1_w_sub1_"
                              "w_swap1.png", self.drawn(ladders=True))
                self.assertNotIn("was drawn from", result.stderr)
                self.assertNotIn("not drawn", result.stderr)

    def test_ours_alone_and_the_figure_alone(self):
        ours, _ = eed_files()
        path = self.write("ours.json", ours)
        for alone in (False, True):
            with self.subTest(alone=alone):
                self.check(path, alone=alone)
                self.assertEqual(self.drawn(), self.FIGURES)

    def test_missing_sweeps_and_steps_are_skipped_with_a_note(self):
        # Like configs/eed/quick_check.json: 100 pairs at n=1000 without pH_CUDA, throughput,
        # no serial preprocessing, no one-pair sweep, no alphabet or long sweep.
        ours, _ = eed_files(sweeps=("pairs_100", "throughput"), lengths=(1000,),
                            skip=("ph_cuda", "seq"))
        result = self.check(self.write("quick.json", ours))
        self.assertEqual(self.drawn(), ["eed_fig5.png", "eed_fig6.png", "eed_tables.png"])
        self.assertIn("eed_fig7 not drawn", result.stderr)

    def test_nothing_of_the_paper_draws_only_the_tables(self):
        ours, _ = eed_files(sweeps=("long",))
        result = self.check(self.write("long.json", ours))
        self.assertEqual(self.drawn(), ["eed_tables.png"])
        self.assertEqual(result.stderr.count("not drawn"), 3, result.stderr)

    def test_a_peer_file_alone_draws_nothing_of_the_paper(self):
        _, peers = eed_files()
        self.check(self.write("peers.json", peers))
        self.assertEqual(self.drawn(), [])

    def test_the_tables_put_the_papers_numbers_beside_ours(self):
        eed = studies.module("eed", "data")
        ours, peers = eed_files()
        rows, notes = eed.paper_rows(runs_of(ours))
        self.assertEqual(notes, [])
        table2 = [cells for cells, _kind in rows if cells[1].startswith("sH_CUDA")][1]
        self.assertEqual(table2[2], "10.2 ms")   # paper, Table 2, n=100: 0.0102 s
        self.assertEqual(table2[5], "221 ms")    # n=1000: 0.221 s
        ratios = [cells for cells, kind in rows if kind == "ratio"]
        self.assertEqual(len(ratios), 8)  # sH/pH and sH/H for each of the four tables
        self.assertEqual(ratios[2][5], "0.0948")  # Table 2 at 1000: 0.221 / 2.331
        header, through, _ = eed.throughput_rows(runs_of(ours) + runs_of(peers))
        self.assertIn("alphabet 256:\nGCUPS", header)
        self.assertTrue(any("Levenshtein, no swaps" in r[0] for r in through))


class SkylineFigures(TempDirCase):
    """skyline_paper from a synthetic GPU file and from one without a GPU."""

    def drawn(self):
        names = sorted(p.name for p in self.out.glob("skyline_*.png")) if self.out.exists() else []
        return [n for n in names if not n.startswith("skyline_ladder_")]

    def check(self, content, *args):
        path = self.dir / "skyline.json"
        path.write_text(json.dumps(content))
        result = draw_all(path, "--out-dir", self.out, *args)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        for png in self.out.glob("*.png"):
            self.assertEqual(png.read_bytes()[:8], PNG_MAGIC)
        return result

    def test_every_figure_of_a_gpu_file(self):
        gpu, _ = skyline_files()
        for args in ((), ("--figures", "skyline_paper")):
            with self.subTest(args=args):
                result = self.check(gpu, *args)
                self.assertEqual(self.drawn(), ["skyline_fig11_n1000000.png",
                                                "skyline_fig11c_n1000000.png",
                                                "skyline_sizes_n1000000.png"])
                self.assertNotIn("not drawn", result.stderr)

    def test_no_gpu_one_d_one_distribution(self):
        _, cpu = skyline_files()
        result = self.check(cpu)
        self.assertEqual(self.drawn(), ["skyline_fig11_n1000.png", "skyline_sizes_n1000.png"])
        self.assertIn("skyline_fig11c_n1000 not drawn", result.stderr)

    def test_nothing_passed_still_draws_fig11(self):
        _, cpu = skyline_files()
        for run in cpu["runs"]:
            run.update(status="skipped", reason="filtered", timing=None, extras={})
        result = self.check(cpu)
        self.assertEqual(self.drawn(), ["skyline_fig11_n1000.png"])
        self.assertIn("skyline_sizes_n1000 not drawn", result.stderr)

    def test_gains_are_time_reductions_averaged_over_the_common_d(self):
        skyline_paper = studies.module("skyline", "data")
        gpu, _ = skyline_files()
        table, counts = skyline_paper.best_runs(runs_of(gpu))
        independent = table["independent"]
        by_d = skyline_paper.reductions(independent, "naive", "apc")
        self.assertEqual(sorted(by_d), [2, 4, 8, 9, 16])
        self.assertAlmostEqual(by_d[8], (1.9 - 1.7) / 1.9)
        # DWE is 4x slower at d = 8 and 16: said apart from the other d.
        text, _ = skyline_paper.ours_cell(independent, "apc", "dwe", (8, 16))
        self.assertIn("without d = 8, 16", text)
        self.assertIn(skyline_paper.pct((1.7 - 1.2) / 1.7), text.splitlines()[1])
        # The incorrect APC run at anti-correlated d = 4 is left out.
        self.assertNotIn(4, skyline_paper.reductions(table["anticorrelated"], "naive", "apc"))
        # sort_filter ran at two block sizes: the faster is kept.
        self.assertEqual(counts[("independent", "sort_filter", 8)], 2)
        self.assertEqual(independent["sort_filter"][8].params["block_points"], "16384")
        columns, rows = skyline_paper.gain_rows(table)
        self.assertEqual(columns, [("independent", "seed"), ("independent", "ours"),
                                   ("anticorrelated", "seed"), ("anticorrelated", "ours"),
                                   ("correlated", "ours")])
        self.assertEqual(rows[0][0][1], "11% faster")
        self.assertEqual(len(rows), 9)  # the seed's 4 gains and our 5 later ones

    def test_the_seeds_forms_beside_ladders(self):
        """Runs of the seed's own forms (steps 12-15): the seed's gains are between them, the
        same gains between ladder's steps 4-7 follow, and Fig. 11c draws both forms."""
        skyline_paper = studies.module("skyline", "data")
        gpu, _ = skyline_files()
        for run in list(gpu["runs"]):
            if run["variant"] in skyline_paper.SEED_FORMS:
                form = copy.deepcopy(run)
                form.update(variant=f"{run['variant']}_seed", step=run["step"] + 8,
                            label=f"{run['label']} (seed's form)")
                gpu["runs"].append(form)
        table, _ = skyline_paper.best_runs(runs_of(gpu))
        self.assertEqual(skyline_paper.fig11c_steps(table),
                         ["dwe", "alr", "dwe_seed", "alr_seed"])
        _, rows = skyline_paper.gain_rows(table)
        self.assertEqual([cells[0] for cells, _ in rows[:8]],
                         [f"{g['label']} ({whose} forms)" for whose in ("seed's", "ladder's")
                          for g in skyline_paper.NOTES["gains"]])
        self.check(gpu)
        self.assertEqual(self.drawn(), ["skyline_fig11_n1000000.png",
                                        "skyline_fig11c_n1000000.png",
                                        "skyline_sizes_n1000000.png"])


# A study of its own, outside plots/: a figure module and a report section.
EXTRA_FIGURE = """
    from .. import pages

    def draw(results, runs, out_dir):
        fig, margins = pages.page(results, "extra", 1.0)
        pages.layout(fig, margins)
        return [pages.save(fig, out_dir, f"extra_{len(runs)}.png")]

    FIGURES = {"extra_figure": draw}
"""
EXTRA_REPORT = """
    from .. import report_common as rc

    SEED, TITLE = "seed 999: an extra study", "Extra"

    def section(ctx):
        runs = ctx.runs("toy-test")
        claim = rc.Claim("Extra", "it ran", "yes", f"{len(runs)} runs", rc.REPRODUCES)
        return rc.Section(TITLE, f"{len(runs)} toy runs.\\n", [claim])
"""


class StudyPath(TempDirCase):
    """A study folder named by LADDER_STUDY_PATH is found as plots/<study>/ are."""

    def setUp(self):
        super().setUp()
        self.study = self.dir / "extra"
        self.study.mkdir()
        (self.study / "figure.py").write_text(textwrap.dedent(EXTRA_FIGURE))
        (self.study / "report.py").write_text(textwrap.dedent(EXTRA_REPORT))
        self.env = {studies.PATH_VARIABLE: str(self.dir / "missing")}

    def test_its_figure_is_drawn(self):
        toy = self.dir / "toy.json"
        toy.write_text(json.dumps(toy_results(["ladder", "extra_figure"])))
        env = {studies.PATH_VARIABLE: str(self.study)}
        listed = draw_all("--list", env=env)
        self.assertIn("extra_figure", listed.stdout.split())
        result = draw_all(toy, "--out-dir", self.out, env=env)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("extra_9.png", [p.name for p in self.out.iterdir()])

    def test_its_report_section_is_written(self):
        toy = self.dir / "toy.json"
        toy.write_text(json.dumps(toy_results()))
        old = os.environ.get(studies.PATH_VARIABLE)
        os.environ[studies.PATH_VARIABLE] = str(self.study)
        try:
            manifest = {"scale": "paper", "configs": [{"name": "toy-test", "results": "toy.json",
                                                       "state": "ran"}], "peers": []}
            text = report.build(rc.Context(self.dir, manifest))
        finally:
            os.environ.pop(studies.PATH_VARIABLE)
            if old is not None:
                os.environ[studies.PATH_VARIABLE] = old
        self.assertIn("## Extra (seed 999: an extra study)\n\n9 toy runs.", text)
        self.assertRegex(text, r"\| \d+ \| Extra \| Extra \| it ran \| - \| reproduces \|")
        # After the five paper studies: its place is its seed's number.
        self.assertLess(text.index("## Skyline queries"), text.index("## Extra"))

    def test_a_missing_folder_is_one_line_and_exit_2(self):
        for command in (["-m", "plots.draw_all", self.dir / "none.json"],
                        ["-m", "plots.report", self.dir]):
            result = subprocess.run([sys.executable, *map(str, command)], capture_output=True,
                                    text=True, env={**os.environ, **self.env}, timeout=120)
            self.assertEqual(result.returncode, 2)
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
            self.assertIn(studies.PATH_VARIABLE, result.stderr)


if __name__ == "__main__":
    unittest.main()

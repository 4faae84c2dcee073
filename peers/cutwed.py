#!/usr/bin/env python3
"""cuTWED 2.0.2 (Wright 2020) as a peer of the twed study: runs the library on the data of
every point of a ladder config and writes one ladder results file (schema_version 1) with the
variants twed/peer_cutwed (FP64) and twed/peer_cutwed_fp32 (FP32), role "peer", so that
`ladder compare` and plots/ set cuTWED beside the ladder's steps, point by point.

Why this way: cuTWED is GPL, so it is never vendored: its source distribution is fetched with
pip (or given with --sdist, for a machine without network), unpacked and built with nvcc for the
local GPU into peers/cache/ (keyed by sdist, architecture and nvcc), and called through ctypes.
Each point runs in a child process, because cuTWED exits the process on any CUDA error: a crash
costs that point only. The data come from `ladder gen` with the point's own parameters, and the
series are selected exactly as variants/twed/study.cpp selects them. Times are wall clock around
each library call (it allocates, launches, synchronises and frees inside: what a user pays);
inputs are on the device before the clock starts. Outputs are checked against an independent
numpy evaluation of the TWED recurrence (variants/twed/problem.hpp), vectorised along
anti-diagonals and across pairs.

Usage: python3 peers/cutwed.py CONFIG.json --out FILE.json [--ladder build/ladder]
           [--sdist FILE] [--repetitions N] [--warmup N] [--max-cells X] [--only-sweeps A,B]
           [--validate full|sample:N|off] [--triangle tril|triu] [--no-fetch]
           [--dry-run-fake] [--quiet]
Exit status: 0 when every run passed or is unsupported/skipped, 1 when a run failed or
errored, 2 on bad input (one line on stderr). peers/README.md says more.
"""
import argparse
import ctypes
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

VERSION = "2.0.2"
SDIST = f"cuTWED-{VERSION}.tar.gz"
LABEL = f"cuTWED {VERSION}"
VARIANTS = {"fp64": "peer_cutwed", "fp32": "peer_cutwed_fp32"}
PEER_STEP = 90  # after every step of the ladder
ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "peers" / "cache"
DIMENSION_LIMIT, BATCH_LIMIT = 32, 65535  # src/cuTWED.cu of 2.0.2
TRI = {"nopt": 0, "tril": -1, "triu": -2}  # TRI_OPT_t of src/cuTWED.h
GOLDEN = 46.018  # aeon/cuTWED: x = 1..10, y = 11..20, nu = 0.001, lambda = 1, index times
# Data parameters for generated data only (study.cpp marks them generated_only).
GENERATED_ONLY = {"n", "m", "series", "dim", "seed"}
NVCC_FLAGS = ["-O3", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared"]
TIMING_METHOD = ("wall clock (time.perf_counter) around each cuTWED call plus a "
                 "cudaDeviceSynchronize; inputs copied to the device before timing; the call's "
                 "own cudaMalloc/cudaFree, stream creation, launches and result copy are inside")


# peers/common.py by path, as `ladder_peers_common` (never plots/common.py); common.load does
# the same for the other files of peers/.
_SPEC = importlib.util.spec_from_file_location("ladder_peers_common",
                                               Path(__file__).with_name("common.py"))
common = sys.modules.setdefault("ladder_peers_common", importlib.util.module_from_spec(_SPEC))
if common.__spec__ is _SPEC:
    _SPEC.loader.exec_module(common)
# The config's expansion, the study's parameters and the results file's layout are shared with
# the other peers (peers/common.py).
PeerError = common.PeerError
point_key, chosen_points, read_config = common.point_key, common.chosen_points, common.read_config
parse_validation, run_ladder, finite = common.parse_validation, common.run_ladder, common.finite
timing_json, results_json = common.timing_json, common.results_json
write_atomically, now = common.write_atomically, common.now


def note(text, quiet=False):
    common.note("cutwed.py", text, quiet)


# ---- the config, expanded as harness/config.cpp does -----------------------------------------

def expand_config(config):
    """Every point of the config in the harness's order (peers/common.py)."""
    return common.expand_config(config, "twed", "cuTWED")


def gpu_setting(config, key, fallback):
    """The GPU value of 'repetitions' or 'warmup': an integer or {"cpu": N, "gpu": M}."""
    return common.backend_setting(config, key, "gpu", fallback)


# ---- the study's parameters, from the ladder binary ------------------------------------------

def study_params(ladder):
    """{name: default ('' when none)} of the twed study's data parameters."""
    return common.study_params(ladder, "twed")


def resolve(point, defaults):
    """The run's params as the harness records them: the defaults under the given values."""
    return common.resolve(point, defaults, GENERATED_ONLY)


def unsupported_reason(point, params):
    """Why cuTWED cannot run this point ('' when it can)."""
    if "file" in point["source"]:
        return "the peer generates its data with `ladder gen`; data files are not supported"
    if "m" in params or "b_file" in params:
        return "B from another list ('m' or 'b_file'): `ladder gen` writes A's data set only"
    if params.get("root") == "off":
        return "cuTWED computes the rooted Lp norm only (root=off is twed.c's unrooted cost)"
    return ""


# ---- data: `ladder gen`, then study.cpp's selection ------------------------------------------

def generate(ladder, point, names, tmp):
    """The whole data set of the point as float64, from `ladder gen`."""
    path = Path(tmp) / "data.npy"
    args = ["gen", "twed", "--generator", point["source"]["generator"]]
    for k in sorted(point["params"]):
        if k in names:
            args += [f"--{k}", point["params"][k]]
    run_ladder(ladder, args + ["--out", str(path)])
    data = np.load(path, allow_pickle=False)
    path.unlink()
    return data


def channels(data, timestamps):
    """(values (series, length, dim), times (series, length) or None) of a gen file."""
    if timestamps == "data":
        if data.ndim != 3 or data.shape[2] < 2:
            raise PeerError("`ladder gen` wrote no timestamp channel for timestamps=data")
        return np.ascontiguousarray(data[:, :, 1:]), np.ascontiguousarray(data[:, :, 0])
    return (data[:, :, None] if data.ndim == 2 else data), None


def with_times(values, times, first, count, timestamps):
    """Series [first, first + count) with their timestamps (index 1..n, zero 0..n-1, data)."""
    total, length = values.shape[0], values.shape[1]
    if first < 0 or count < 1 or first + count > total:
        raise PeerError(f"series {first}..{first + count - 1} go beyond the data's {total}")
    part = np.ascontiguousarray(values[first:first + count], dtype=np.float64)
    if timestamps == "data":
        t = times[first:first + count]
    else:
        t = np.broadcast_to(np.arange(length, dtype=np.float64) + (timestamps == "index"),
                            (count, length))
    return part, np.ascontiguousarray(t, dtype=np.float64)


def select(data, params):
    """{'mode', 'A': (values, times), 'B': (values, times) or None in triangle mode}."""
    mode, timestamps = params["mode"], params["timestamps"]
    values, times = channels(data, timestamps)
    total, first = values.shape[0], int(params.get("a", "0"))
    count = (1 if mode == "pair" else int(params["a_count"]) if "a_count" in params
             else total - first)
    lists = {"mode": mode, "A": with_times(values, times, first, count, timestamps), "B": None}
    if mode == "pair":
        b = int(params["b"]) if "b" in params else first + 1 if first + 1 < total else 0
        lists["B"] = with_times(values, times, b, 1, timestamps)
    elif mode == "batch":
        lists["B"] = with_times(values, times, 0, total, timestamps)
    return lists


def cols(lists):
    return lists["B"] if lists["B"] is not None else lists["A"]


def facts(lists, costs):
    """The run's `data`, as the study describes a problem."""
    (a, _), (b, _) = lists["A"], cols(lists)
    rows, ncols = a.shape[0], b.shape[0]
    pairs = rows * (rows - 1) / 2 if lists["mode"] == "triangle" else rows * ncols
    mode = {"pair": 0.0, "batch": 1.0, "triangle": 2.0}[lists["mode"]]
    return {"n": float(a.shape[1]), "m": float(b.shape[1]), "dim": float(a.shape[2]),
            "mode": mode, "a_series": float(rows), "b_series": float(ncols), "pairs": float(pairs),
            "nu": costs["nu"], "lambda": costs["lambda"], "degree": float(costs["degree"])}


def costs_of(params):
    return {"nu": float(params["nu"]), "lambda": float(params["lambda"]),
            "degree": int(params["degree"]), "root": params.get("root", "on") == "on"}


# ---- the numpy oracle: the recurrence of variants/twed/problem.hpp ---------------------------

def lp(diff, degree, root):
    """(sum_k |x_k - y_k|^p)^(1/p) over the last axis (its p-th power when not rooted)."""
    r = np.abs(diff)
    if r.shape[-1] == 1 and root:
        return r[..., 0]
    s = r.sum(-1) if degree == 1 else (r * r).sum(-1) if degree == 2 else (r ** degree).sum(-1)
    if not root or degree == 1:
        return s
    return np.sqrt(s) if degree == 2 else s ** (1.0 / degree)


def with_origin(x, t):
    """Position-major copies with the implicit zero point at time 0 in front:
    (L + 1, P, dim) and (L + 1, P), so that a run of positions is one contiguous block."""
    xp = np.zeros((x.shape[1] + 1, x.shape[0], x.shape[2]))
    tp = np.zeros((t.shape[1] + 1, t.shape[0]))
    xp[1:], tp[1:] = x.transpose(1, 0, 2), t.T
    return xp, tp


def delete_costs(xp, tp, c):
    """del(i) = d(x_i, x_{i-1}) + lambda + nu (t_i - t_{i-1}) for i >= 1; del(0) = 0."""
    out = np.zeros(tp.shape)
    out[1:] = (lp(xp[1:] - xp[:-1], c["degree"], c["root"]) + c["lambda"]
               + c["nu"] * (tp[1:] - tp[:-1]))
    return out


def twed_pairs(a, ta, b, tb, c):
    """TWED of the pairs (a[k], b[k]): a (P, n, dim), b (P, m, dim), times (P, n), (P, m).
    D runs along anti-diagonals k = i + j, stored by i; B is reversed so that the cells of a
    diagonal read contiguous slices of both series."""
    n, m, pairs = a.shape[1], b.shape[1], a.shape[0]
    ap, tap = with_origin(a, ta)
    bp, tbp = with_origin(b, tb)
    del_a, del_b = delete_costs(ap, tap, c), delete_costs(bp, tbp, c)[::-1]
    br, tbr = bp[::-1], tbp[::-1]  # position m - j holds point j
    dp = [np.full((n + 1, pairs), np.inf) for _ in range(3)]
    match = [np.zeros((n + 1, pairs)) for _ in range(3)]
    for k in range(n + m + 1):
        d0, d1, d2 = dp[k % 3], dp[(k - 1) % 3], dp[(k - 2) % 3]
        c0, c2 = match[k % 3], match[(k - 2) % 3]
        lo, hi = max(0, k - m), min(n, k)
        q = slice(m - k + lo, m - k + hi + 1)
        c0[lo:hi + 1] = (lp(ap[lo:hi + 1] - br[q], c["degree"], c["root"])
                         + c["nu"] * np.abs(tap[lo:hi + 1] - tbr[q]))
        if lo == 0:
            d0[0] = 0.0 if k == 0 else np.inf  # D[0][0] = 0, D[0][j] = inf
        if hi == k and k > 0:
            d0[k] = np.inf  # D[i][0] = inf
        i1, i2 = max(1, k - m), min(n, k - 1)
        if i1 > i2:
            continue
        ii, im, qj = slice(i1, i2 + 1), slice(i1 - 1, i2), slice(m - k + i1, m - k + i2 + 1)
        best = d2[im] + c0[ii] + c2[im]
        np.minimum(best, d1[im] + del_a[ii], out=best)
        np.minimum(best, d1[ii] + del_b[qj], out=best)
        d0[ii] = best
    return dp[(n + m) % 3][n].copy()


def oracle(lists, pairs, c, chunk_elements=1 << 20):
    """TWED of the (row, col) pairs of a point, in chunks of pairs that fit in memory."""
    (a, ta), (b, tb) = lists["A"], cols(lists)
    per_pair = (a.shape[1] + b.shape[1]) * a.shape[2]
    step = max(1, chunk_elements // max(per_pair, 1))
    out = np.empty(len(pairs))
    for s in range(0, len(pairs), step):
        r, q = pairs[s:s + step, 0], pairs[s:s + step, 1]
        out[s:s + step] = twed_pairs(a[r], ta[r], b[q], tb[q], c)
    return out


def golden_check():
    """The oracle must give aeon's and cuTWED's published value before it judges anything."""
    x = np.arange(1.0, 11.0)[None, :, None]
    t = np.arange(1.0, 11.0)[None]
    got = twed_pairs(x, t, x + 10, t, {"nu": 0.001, "lambda": 1.0, "degree": 2, "root": True})[0]
    if abs(got - GOLDEN) > 1e-3:
        raise RuntimeError(f"numpy oracle gives {got} for the golden pair, want {GOLDEN}")


# ---- validation: which outputs, against what, how close --------------------------------------

def tolerance(lists, c, precision):
    """The study's rule (study.cpp): fp64 abs/rel 1e-9; fp32 8 (n + m) float32 ulps of the
    largest cell cost, absolute, and max(1e-6, 8 (n + m) ulps) relative."""
    if precision == "fp64":
        return {"abs": 1e-9, "rel": 1e-9, "rule": "fp64: abs 1e-9, rel 1e-9"}
    (a, ta), (b, tb) = lists["A"], cols(lists)
    vmax = max(np.abs(a).max(), np.abs(b).max())
    tmax = max(np.abs(ta).max(), np.abs(tb).max())
    ulps = 8 * (a.shape[1] + b.shape[1]) * 2.0 ** -24
    scale = 2 * vmax * a.shape[2] ** (1 / c["degree"]) + c["lambda"] + 2 * c["nu"] * tmax
    return {"abs": float(ulps * scale), "rel": float(max(1e-6, ulps)),
            "rule": "fp32: abs 8(n+m) ulps of the largest cell cost, rel max(1e-6, 8(n+m) ulps)"}


def output_shape(lists):
    rows = lists["A"][0].shape[0]
    return (1, 1) if lists["mode"] == "pair" else (rows, cols(lists)[0].shape[0])


def plan_checks(lists, mode, key, max_cells):
    """(output indices to check, validation mode text, note). Full or sample:N as the point
    asks, but never a pair of more than max_cells cells, nor more than max_cells in all."""
    rows, ncols = output_shape(lists)
    total = rows * ncols
    cells = lists["A"][0].shape[1] * cols(lists)[0].shape[1]
    if mode == "off":
        return np.empty(0, np.int64), "off", ""
    if cells > max_cells:
        return (np.empty(0, np.int64), "off",
                f"not validated: a pair has {cells} cells, more than --max-cells {max_cells:g}")
    want = total if mode == "full" else min(total, int(mode.split(":")[1]))
    fits = max(1, int(max_cells // cells))
    text, why = mode, ""
    if want > fits:
        want, text = fits, f"sample:{fits}"
        why = f"{mode} reduced to {fits} outputs: --max-cells {max_cells:g} in all"
    if want == total:
        return np.arange(total, dtype=np.int64), text, why
    rng = np.random.default_rng(zlib.crc32(key.encode()))
    picked = rng.choice(total, size=want - 1, replace=False) if want > 1 else []
    return np.unique(np.concatenate([[0], picked]).astype(np.int64)), text, why


def reference(lists, indices, c):
    """Wanted value of each output index: the pair, its mirror, or the triangle's zero."""
    ncols = output_shape(lists)[1]
    rows, col = np.divmod(indices, ncols)
    want = np.zeros(len(indices))
    if lists["mode"] == "triangle":
        rows, col = np.minimum(rows, col), np.maximum(rows, col)
        off = rows != col
    else:
        off = np.ones(len(indices), bool)
    pairs = np.unique(np.stack([rows[off], col[off]], 1), axis=0)
    if len(pairs):
        values = oracle(lists, pairs, c)
        lookup = {tuple(p): v for p, v in zip(pairs.tolist(), values)}
        want[off] = [lookup[(r, q)] for r, q in zip(rows[off].tolist(), col[off].tolist())]
    return want


def compare(got, indices, want, tol):
    """The harness's check: |got - want| <= abs + rel |want|; inf must equal inf; NaN fails."""
    g = np.asarray(got, np.float64).reshape(-1)[indices]
    with np.errstate(invalid="ignore"):
        err = np.where(np.isinf(g) | np.isinf(want), np.where(g == want, 0.0, np.inf),
                       np.abs(g - want))
    err[np.isnan(g) | np.isnan(want)] = np.inf
    ok = err <= tol["abs"] + tol["rel"] * np.abs(np.where(np.isfinite(want), want, 0))
    rel = err[(want != 0) & np.isfinite(want)] / np.abs(want[(want != 0) & np.isfinite(want)])
    bad = np.flatnonzero(~ok)
    first = (f"index {indices[bad[0]]}: got {g[bad[0]]:.9g}, want {want[bad[0]]:.9g}"
             if len(bad) else "")
    return {"checked": int(len(indices)), "failures": int(len(bad)),
            "max_abs_error": finite(err.max()) if len(err) else 0.0,
            "max_rel_error": finite(rel.max()) if len(rel) else 0.0, "first_failure": first}


# ---- building cuTWED -------------------------------------------------------------------------

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_sdist(given, cache, quiet, fetch=True):
    """The sdist: --sdist, else the cached one, else `pip download` into the cache (unless
    fetch is False: --no-fetch)."""
    if given:
        if not Path(given).is_file():
            raise PeerError(f"--sdist {given}: no such file")
        return Path(given)
    path = cache / SDIST
    if not path.is_file() and not fetch:
        raise PeerError(f"no {SDIST} in {cache} and --no-fetch was given (run python3 "
                        "peers/cutwed.py --build-only where the network is reachable)")
    if not path.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        note(f"fetching {SDIST} with pip into {cache}", quiet)
        done = subprocess.run([sys.executable, "-m", "pip", "download", f"cutwed=={VERSION}",
                               "--no-binary", ":all:", "--no-deps", "-d", str(cache)],
                              capture_output=True, text=True)
        if done.returncode != 0 or not path.is_file():
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["?"]
            raise PeerError(f"pip download cutwed=={VERSION} failed ({tail[0]}); "
                            "give the file with --sdist")
    return path


def gpu_arch(given=None):
    """The first GPU's compute capability as '90' (or --arch); sm_90 when nvidia-smi cannot
    tell."""
    if given:
        return given
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout.split()
        return out[0].replace(".", "") if out and re.fullmatch(r"\d+\.\d+", out[0]) else "90"
    except (OSError, subprocess.SubprocessError):
        return "90"


def nvcc_info():
    """(nvcc path, release text, the toolkit's library folder)."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    try:
        text = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    except OSError as err:
        raise PeerError(f"nvcc not found ({err.strerror}): cuTWED is built from source") from err
    release = re.search(r"release ([\d.]+)", text)
    home = Path(nvcc).resolve().parents[1]
    libdir = next((d for d in (home / "lib64", home / "lib", home / "targets/x86_64-linux/lib")
                   if d.is_dir()), home / "lib64")
    return nvcc, release.group(1) if release else "unknown", libdir


def unpack(sdist, into):
    """The sdist's src/ (cuTWED.cu, cuTWED.h, cuTWED_core.h) and LICENSE, nothing else."""
    wanted = {f"cuTWED-{VERSION}/src/cuTWED.cu", f"cuTWED-{VERSION}/src/cuTWED.h",
              f"cuTWED-{VERSION}/src/cuTWED_core.h", f"cuTWED-{VERSION}/LICENSE"}
    with tarfile.open(sdist, "r:gz") as tar:
        members = [m for m in tar.getmembers() if m.name in wanted and m.isfile()]
        if len(members) != len(wanted):
            raise PeerError(f"{sdist} does not hold cuTWED {VERSION}'s src/ files")
        for m in members:
            target = into / Path(m.name).relative_to(f"cuTWED-{VERSION}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(m).read())
    return into / "src"


def build_plan(sdist, cache, arch=None):
    """(nvcc, the toolkit's library folder, libcutwed.so's place, the build's record): where
    build_library keeps the library of this sdist for this GPU (or --arch) and nvcc, built or
    not; it needs nvcc (PeerError without it), never the network."""
    nvcc, release, libdir = nvcc_info()
    arch, digest = gpu_arch(arch), sha256(sdist)
    flags = NVCC_FLAGS + [f"-gencode=arch=compute_{arch},code=sm_{arch}"]
    key = hashlib.sha256(json.dumps([digest, arch, release, flags]).encode()).hexdigest()[:12]
    folder = cache / f"build-{digest[:12]}-sm{arch}-{key}"
    lib = folder / "libcutwed.so"
    info = {"sdist": sdist.name, "sdist_sha256": digest, "arch": f"sm_{arch}",
            "nvcc": release, "flags": flags, "library": str(lib.relative_to(ROOT))
            if lib.is_relative_to(ROOT) else str(lib)}
    return nvcc, libdir, lib, info


def build_library(sdist, cache, quiet, arch=None):
    """libcutwed.so for this GPU, built once per (sdist, arch, nvcc) into the cache: both
    precisions come from src/cuTWED.cu, which includes cuTWED_core.h once per REAL_t."""
    nvcc, libdir, lib, info = build_plan(sdist, cache, arch)
    folder, flags, arch, release = lib.parent, info["flags"], info["arch"][3:], info["nvcc"]
    if lib.is_file():
        return lib, info
    note(f"building {lib} (sm_{arch}, nvcc {release})", quiet)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        src = unpack(sdist, Path(tmp))
        out = Path(tmp) / "libcutwed.so"
        done = subprocess.run([nvcc, *flags, f"-I{src}", str(src / "cuTWED.cu"), "-o", str(out),
                               "-lcublas", "-Xlinker", f"-rpath,{libdir}"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise PeerError(f"nvcc failed building cuTWED: {done.stderr.strip()[-300:]}")
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(src.parent / "LICENSE", folder / "LICENSE")
        (folder / "build.json").write_text(json.dumps(info, indent=2) + "\n")
        os.replace(out, lib)
    return lib, info


# ---- the GPU side: a child process per point -------------------------------------------------

class Cuda:
    """libcutwed.so and the CUDA runtime it links, through ctypes; signatures of
    src/cuTWED.h (2.0.2): int lengths, dims and counts, TRI_OPT_t an int enum."""

    def __init__(self, lib_path):
        self.lib = ctypes.CDLL(str(lib_path), mode=ctypes.RTLD_GLOBAL)
        self.rt = ctypes.CDLL(self.cudart_path())
        vp, ci, cd, cf = ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_float
        for name, real in (("twed_dev", cd), ("twed_devf", cf)):
            fn = getattr(self.lib, name)
            fn.restype, fn.argtypes = real, [vp, ci, vp, vp, ci, vp, real, real, ci, ci]
        for name, real in (("twed_batch_dev", cd), ("twed_batch_devf", cf)):
            fn = getattr(self.lib, name)
            fn.restype = ci
            fn.argtypes = [vp, ci, vp, vp, ci, vp, real, real, ci, ci, ci, ci, vp, ci]
        self.rt.cudaGetErrorString.restype = ctypes.c_char_p
        self.rt.cudaMalloc.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t]
        self.rt.cudaMemcpy.argtypes = [vp, vp, ctypes.c_size_t, ci]
        self.rt.cudaFree.argtypes = [vp]

    @staticmethod
    def cudart_path():
        """The libcudart that libcutwed.so loaded (one runtime in the process)."""
        for line in Path("/proc/self/maps").read_text().splitlines():
            if "libcudart.so" in line:
                return line.split(None, 5)[-1]
        return "libcudart.so"

    def check(self, code, what):
        if code != 0:
            raise RuntimeError(f"{what}: {self.rt.cudaGetErrorString(code).decode()}")

    def upload(self, array):
        ptr = ctypes.c_void_p()
        self.check(self.rt.cudaMalloc(ctypes.byref(ptr), max(array.nbytes, 1)), "cudaMalloc")
        self.check(self.rt.cudaMemcpy(ptr, array.ctypes.data, array.nbytes, 1), "cudaMemcpy")
        return ptr

    def attribute(self, attr):
        value = ctypes.c_int()
        self.check(self.rt.cudaDeviceGetAttribute(ctypes.byref(value), attr, 0), "attribute")
        return value.value

    def device(self):
        """What the harness records of the device (harness/device_info.cpp)."""
        count, free, total = ctypes.c_int(), ctypes.c_size_t(), ctypes.c_size_t()
        self.check(self.rt.cudaGetDeviceCount(ctypes.byref(count)), "cudaGetDeviceCount")
        self.check(self.rt.cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total)), "memory")
        bus = ctypes.create_string_buffer(64)
        self.check(self.rt.cudaDeviceGetPCIBusId(bus, 64, 0), "cudaDeviceGetPCIBusId")
        versions = [ctypes.c_int(), ctypes.c_int()]
        self.rt.cudaDriverGetVersion(ctypes.byref(versions[0]))
        self.rt.cudaRuntimeGetVersion(ctypes.byref(versions[1]))
        text = [f"{v.value // 1000}.{v.value % 1000 // 10}" for v in versions]
        return {"present": True, "index": 0, "bus_id": bus.value.decode(),
                "compute_capability": f"{self.attribute(75)}.{self.attribute(76)}",
                "sm_count": self.attribute(16), "memory_bytes": total.value,
                "shared_memory_per_block_optin": self.attribute(97),
                "max_sm_clock_mhz": self.attribute(13) // 1000,
                "driver_version": text[0], "runtime_version": text[1]}


def call_once(cuda, job, ptrs, precision, out):
    """One timed cuTWED call; returns (ms, output array)."""
    real = np.float64 if precision == "fp64" else np.float32
    suffix = "" if precision == "fp64" else "f"
    nu, lam, deg, dim = job["nu"], job["lambda"], job["degree"], job["dim"]
    sync = cuda.rt.cudaDeviceSynchronize
    start = time.perf_counter()
    if job["mode"] == "pair":
        value = getattr(cuda.lib, "twed_dev" + suffix)(
            ptrs[0], job["n"], ptrs[1], ptrs[2], job["m"], ptrs[3], nu, lam, deg, dim)
        cuda.check(sync(), "cudaDeviceSynchronize")
        ms = (time.perf_counter() - start) * 1e3
        return ms, np.array([[value]], real)
    code = getattr(cuda.lib, "twed_batch_dev" + suffix)(
        ptrs[0], job["n"], ptrs[1], ptrs[2], job["m"], ptrs[3], nu, lam, deg, dim,
        job["rows"], job["cols"], out.ctypes.data, TRI[job["tri"]])
    cuda.check(sync(), "cudaDeviceSynchronize")
    ms = (time.perf_counter() - start) * 1e3
    if code != 0:
        raise RuntimeError(f"twed_batch_dev{suffix} returned {code}")
    return ms, out.copy()


def as_matrix(raw, tri):
    """cuTWED's result as the harness writes a triangle: TRIL fills j < i, TRIU i < j (TRIL
    transposed through cuBLAS); the rest is mirrored and the diagonal is exactly zero."""
    if tri == "nopt":
        return raw
    half = np.tril(raw, -1) if tri == "tril" else np.triu(raw, 1)
    return half + half.T


def time_precision(cuda, job, arrays, precision):
    """Warm-up calls, then the timed ones; the device inputs are freed afterwards."""
    real = np.float64 if precision == "fp64" else np.float32
    host = [np.ascontiguousarray(arrays[k], real) for k in ("a", "ta", "b", "tb")]
    ptrs = [cuda.upload(h) for h in host]
    out = np.zeros((job["rows"], job["cols"]), real)
    try:
        for _ in range(job["warmup"]):
            call_once(cuda, job, ptrs, precision, out)
        samples, got = [], None
        for _ in range(job["repetitions"]):
            ms, got = call_once(cuda, job, ptrs, precision, out)
            samples.append(ms)
    finally:
        for p in ptrs:
            cuda.rt.cudaFree(p)
    return samples, as_matrix(got.astype(np.float64), job["tri"])


def golden_gpu(cuda):
    """cuTWED itself on the golden pair, both precisions (checks the ctypes signatures too)."""
    x = np.arange(1.0, 11.0)
    job = {"mode": "pair", "n": 10, "m": 10, "dim": 1, "nu": 0.001, "lambda": 1.0, "degree": 2,
           "rows": 1, "cols": 1, "tri": "nopt", "warmup": 0, "repetitions": 1}
    arrays = {"a": x, "ta": x, "b": x + 10, "tb": x}
    return {p: float(time_precision(cuda, job, arrays, p)[1][0, 0]) for p in ("fp64", "fp32")}


def worker(folder):
    """The child process: a probe (device and golden pair) or one point's timing."""
    folder = Path(folder)
    job = json.loads((folder / "job.json").read_text())
    cuda = Cuda(job["library"])
    if job["kind"] == "probe":
        result = {"device": cuda.device(), "golden": golden_gpu(cuda)}
    else:
        arrays = dict(np.load(folder / "job.npz"))
        result, outputs = {}, {}
        for precision in job["precisions"]:
            samples, outputs[precision] = time_precision(cuda, job, arrays, precision)
            result[precision] = samples
        np.savez(folder / "outputs.npz", **outputs)
    (folder / "result.json").write_text(json.dumps(result))
    return 0


def run_child(folder, job, arrays=None):
    """Runs the worker on `job`; returns its result and outputs, or raises RuntimeError with
    the last lines it printed (cuTWED's GPUassert lines among them)."""
    (folder / "job.json").write_text(json.dumps(job))
    if arrays is not None:
        np.savez(folder / "job.npz", **arrays)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker",
                           str(folder)], capture_output=True, text=True)
    if done.returncode != 0 or not (folder / "result.json").is_file():
        tail = " | ".join((done.stderr + done.stdout).strip().splitlines()[-3:])
        raise RuntimeError(f"cuTWED process exited with {done.returncode}: {tail or 'no message'}")
    result = json.loads((folder / "result.json").read_text())
    outputs = dict(np.load(folder / "outputs.npz")) if (folder / "outputs.npz").is_file() else {}
    for name in ("result.json", "outputs.npz", "job.npz"):
        (folder / name).unlink(missing_ok=True)
    return result, outputs


def point_job(lists, c, settings, library):
    """The worker's job and arrays for one point (B is A in triangle mode)."""
    (a, ta), (b, tb) = lists["A"], cols(lists)
    mode = lists["mode"]
    job = {"kind": "point", "library": str(library), "mode": mode, "n": a.shape[1],
           "m": b.shape[1], "dim": a.shape[2], "rows": a.shape[0], "cols": b.shape[0],
           "nu": c["nu"], "lambda": c["lambda"], "degree": c["degree"],
           "tri": settings.triangle if mode == "triangle" else "nopt",
           "warmup": settings.warmup, "repetitions": settings.repetitions,
           "precisions": list(VARIANTS)}
    return job, {"a": a, "ta": ta, "b": b, "tb": tb}


def limits_reason(lists):
    """cuTWED's compiled limits (DIMENSION_LIMIT, BATCH_LIMIT, int lengths), '' when within."""
    (a, _), (b, _) = lists["A"], cols(lists)
    if a.shape[2] > DIMENSION_LIMIT:
        return f"points in R^{a.shape[2]} exceed cuTWED's DIMENSION_LIMIT {DIMENSION_LIMIT}"
    if max(a.shape[0], b.shape[0]) > BATCH_LIMIT:
        return f"more than BATCH_LIMIT {BATCH_LIMIT} series on a side of the batch"
    if max((a.shape[1] + b.shape[1] + 1) * b.shape[0], a.size, b.size) >= 2 ** 31:
        return "cuTWED's int sizes and indices (diagonal buffers, series offsets) would overflow"
    return ""


# ---- results in the harness's layout ---------------------------------------------------------

def metrics_json(data, median_ms, device, precision):
    """GCUPS = pairs n m / s / 1e9, with the study's GPU limit for R^1 and the rooted norm."""
    if not data or not median_ms or median_ms <= 0:
        return {}
    work = data["pairs"] * data["n"] * data["m"]
    value = work / (median_ms / 1e3) / 1e9
    out = {"gcups": value, "unit": "GCUPS", "work": work}
    if device.get("present") and data["dim"] == 1:
        per_clock, what = (64 / 9, "fp64") if precision == "fp64" else (128 / 11, "fp32")
        ghz = device["max_sm_clock_mhz"] / 1e3
        peak = per_clock * device["sm_count"] * ghz
        out.update(peak=peak, pct_of_peak=100 * value / peak,
                   peak_rule=f"{int(per_clock)} {what} cells (R^1)/clock/SM x "
                             f"{device['sm_count']} SMs x {ghz:.3f} GHz (max SM clock)")
    return out


def run_json(point, params, precision, status, reason="", data=None, samples=None,
             warmup=0, check=None, device=None):
    """One run as harness/results.cpp writes it."""
    check = check or {}
    variant = VARIANTS[precision]
    call = "twed_dev / twed_batch_dev" + ("" if precision == "fp64" else " (f variants)")
    run = {"study": "twed", "variant": variant, "step": PEER_STEP, "label": LABEL,
           "role": "peer", "change": f"peer: {LABEL} ({precision.upper()}, {call}): one launch "
                                     "per anti-diagonal; timed with the wall clock around each "
                                     "call, its allocations included",
           "backend": "gpu", "precision": precision, "metric": "gcups",
           "point": point_key(point["params"]), "sweep": point["sweep"], "params": params,
           "status": status, "reason": reason, "data": data or {}, "extras": {}, "facts": {},
           "validation": {"mode": check.get("mode", point["validation"]),
                          "checked": check.get("checked", 0),
                          "failures": check.get("failures", 0),
                          "max_abs_error": check.get("max_abs_error", 0.0),
                          "max_rel_error": check.get("max_rel_error", 0.0),
                          "tolerance": check.get("tolerance", {"abs": 0, "rel": 0, "rule": ""})}}
    if check.get("note"):
        run["validation"]["note"] = check["note"]
    run["timing"] = timing_json(samples, warmup) if samples else None
    run["metrics"] = metrics_json(data, run["timing"] and run["timing"]["median"], device or {},
                                  precision)
    return run


def build_info():
    """Provenance of the peer's numbers: the tree's commit, when git can tell."""
    return common.build_info(f"peer cuTWED {VERSION}", "peers/cutwed.py")


# ---- one point -------------------------------------------------------------------------------

def measure(lists, c, settings, state, folder):
    """{precision: (samples, outputs)} from cuTWED, or fake timings with --dry-run-fake."""
    if settings.dry_run_fake:
        shape = output_shape(lists)
        fake = [1.0 + 0.1 * (i % 3) for i in range(settings.repetitions)]
        return {p: (fake, np.zeros(shape)) for p in VARIANTS}
    job, arrays = point_job(lists, c, settings, state["library"])
    result, outputs = run_child(folder, job, arrays)
    return {p: (result[p], outputs[p]) for p in VARIANTS}


def validate(lists, point, c, got, settings):
    """{precision: validation fields} against the numpy oracle (computed once per point)."""
    mode = settings.validate or point["validation"]
    if settings.dry_run_fake:
        mode = "off"
    indices, text, why = plan_checks(lists, mode, point_key(point["params"]), settings.max_cells)
    want = reference(lists, indices, c) if len(indices) else np.empty(0)
    out = {}
    for precision, (_, values) in got.items():
        tol = tolerance(lists, c, precision)
        found = compare(values, indices, want, tol) if len(indices) else {}
        out[precision] = dict(found, mode=text, tolerance=tol, note=why)
    return out


def point_runs(point, settings, state, folder):
    """The two runs (FP64, FP32) of one point."""
    params = resolve(point, state["defaults"])
    why = unsupported_reason(point, params)
    if why:
        return [run_json(point, params, p, "unsupported", why) for p in VARIANTS]
    if not state["device"].get("present") and not settings.dry_run_fake:
        return [run_json(point, params, p, "skipped", state["device"].get("reason", ""))
                for p in VARIANTS]
    try:
        lists, c = select(generate(settings.ladder, point, state["defaults"], folder),
                          params), costs_of(params)
    except PeerError as err:  # the harness would refuse this point: an error run, not a stop
        return [run_json(point, params, p, "error", str(err)) for p in VARIANTS]
    described = facts(lists, c)
    why = limits_reason(lists)
    if why:
        return [run_json(point, params, p, "unsupported", why, described) for p in VARIANTS]
    try:
        got = measure(lists, c, settings, state, folder)
    except RuntimeError as err:
        return [run_json(point, params, p, "error", str(err), described) for p in VARIANTS]
    checks = validate(lists, point, c, got, settings)
    return [finish(point, params, p, got[p][0], checks[p], described, settings, state)
            for p in VARIANTS]


def finish(point, params, precision, samples, check, data, settings, state):
    failed = check.get("failures", 0) > 0
    reason = (f"{check['failures']} of {check['checked']} outputs outside tolerance; first: "
              f"{check['first_failure']}" if failed else "")
    if settings.dry_run_fake:
        reason = "FAKE timings (--dry-run-fake): cuTWED was not called"
    return run_json(point, params, precision, "incorrect" if failed else "passed", reason,
                    data, samples, settings.warmup, check, state["device"])


def progress(i, total, point, runs, quiet):
    parts = []
    for r in runs:
        t = r["timing"]
        v = r["validation"]
        parts.append(f"{r['precision']} " + (f"{t['median']:.4g} ms" if t else r["status"])
                     + (f" ({v['checked']} checked, {v['failures']} off)"
                        if v["mode"] != "off" and t else ""))
    note(f"[{i}/{total}] {point['sweep'] or '-'} {point_key(point['params'])}: "
         f"{'; '.join(parts)}", quiet)


# ---- setup and main --------------------------------------------------------------------------

def probe(settings, state, folder):
    """The device and cuTWED's golden pair, in a child process; no GPU: every run skipped."""
    if settings.dry_run_fake:
        return {"present": False, "reason": "--dry-run-fake: no device used"}
    if not state["library"]:
        return {"present": False, "reason": state["no_gpu"]}
    try:
        result, _ = run_child(folder, {"kind": "probe", "library": str(state["library"])})
    except RuntimeError as err:
        return {"present": False, "reason": f"no usable CUDA device ({err})"}
    for precision, value in result["golden"].items():
        if abs(value - GOLDEN) > 1e-3 * GOLDEN:
            raise RuntimeError(f"cuTWED ({precision}) gives {value} for the golden pair, "
                               f"want {GOLDEN}: the build or the ctypes signatures are wrong")
    note(f"cuTWED golden pair: {result['golden']} (want {GOLDEN})", settings.quiet)
    return common.nvidia_smi_names(result["device"])


def has_gpu():
    """'' when nvidia-smi lists a GPU, else why not (common.has_gpu, with this script's shorter
    reason when nvidia-smi lists none)."""
    why = common.has_gpu()
    return "no CUDA device" if why == "no CUDA device (nvidia-smi lists none)" else why


def parse_args(argv):
    p = common.Parser(script="cutwed.py", description="Run cuTWED 2.0.2 on a twed config's points.")
    p.add_argument("config", nargs="?", help="a ladder config of the twed study")
    p.add_argument("--out", help="results file to write (atomically)")
    p.add_argument("--ladder", default=str(ROOT / "build" / "ladder"), help="ladder binary")
    p.add_argument("--sdist", help=f"{SDIST} (default: pip download into peers/cache/)")
    p.add_argument("--cache", default=str(CACHE), help="sdist and build cache folder")
    p.add_argument("--no-fetch", action="store_true",
                   help="never run pip: use --sdist or the cached sdist, or stop (exit 2)")
    p.add_argument("--repetitions", type=int, help="timed calls per run (default: config's GPU)")
    p.add_argument("--warmup", type=int, help="untimed calls first (default: config's GPU)")
    p.add_argument("--max-cells", type=float, default=2.0 ** 33,
                   help="validate no pair, and no more in all, of more DP cells (default 2^33)")
    p.add_argument("--only-sweeps", help="comma-separated sweep labels to run")
    p.add_argument("--validate", help="full, sample:N or off instead of the config's")
    p.add_argument("--triangle", choices=("tril", "triu"), default="tril",
                   help="cuTWED's triangle option for triangle mode (default tril: triu is "
                        "tril plus a cuBLAS transpose)")
    p.add_argument("--max-n", type=int, default=None,
                   help="leave out points whose series are longer than this (cuTWED makes "
                        "2N launches and N^2 cell updates per pair: 2^20 takes minutes)")
    p.add_argument("--build-only", action="store_true",
                   help="fetch and build cuTWED into the cache, print the library, stop")
    p.add_argument("--arch", type=lambda t: t if re.fullmatch(r"\d{2,3}a?", t) else
                   parse_error(f"--arch wants a compute capability like 90, got {t!r}"),
                   help="build for sm_ARCH instead of the local GPU's")
    p.add_argument("--dry-run-fake", action="store_true",
                   help="no GPU, no cuTWED: fake timings, to test the results file only")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p.parse_args(argv)


def parse_error(text):
    raise argparse.ArgumentTypeError(text)


def settle(args, config):
    """Checks the options against the config; fills repetitions and warm-up."""
    args.repetitions = gpu_setting(config, "repetitions", 10) if args.repetitions is None \
        else args.repetitions
    args.warmup = gpu_setting(config, "warmup", 2) if args.warmup is None else args.warmup
    if args.repetitions < 1 or args.warmup < 0:
        raise PeerError("--repetitions must be >= 1 and --warmup >= 0")
    if not args.max_cells > 0:
        raise PeerError("--max-cells must be positive")
    if args.validate:
        parse_validation(args.validate, "--validate")
    return args


def setup(args):
    """Everything that can fail on bad input, before the first run."""
    if not args.config or not args.out:
        raise PeerError("give a CONFIG and --out FILE (or --build-only)")
    config = read_config(args.config)
    points = chosen_points(expand_config(config), args.only_sweeps, args.max_n)
    settle(args, config)
    state = {"config": config, "config_path": args.config, "started_at": now(),
             "defaults": study_params(args.ladder), "planned": 2 * len(points),
             "validation_mode": args.validate or config.get("validation", "full"),
             "build": build_info(), "library": None, "no_gpu": ""}
    golden_check()
    state["peer"] = {"name": LABEL, "script": "peers/cutwed.py", "timing_method": TIMING_METHOD,
                     "triangle_option": args.triangle.upper(), "fake": args.dry_run_fake}
    if not args.dry_run_fake:
        state["no_gpu"] = has_gpu()
        if not state["no_gpu"]:
            sdist = fetch_sdist(args.sdist, Path(args.cache), args.quiet, not args.no_fetch)
            state["library"], state["peer"]["build"] = build_library(
                sdist, Path(args.cache), args.quiet, args.arch)
            state["build"]["cuda_arch"] = state["peer"]["build"]["arch"].replace("sm_", "")
    return points, state


def main(argv):
    if argv[:1] == ["--worker"]:
        try:
            return worker(argv[1])
        except (RuntimeError, OSError) as err:  # cuTWED's own failures exit by themselves
            print(f"cutwed.py worker: {err}", file=sys.stderr)
            return 1
    args = parse_args(argv)
    try:
        if args.build_only:
            sdist = fetch_sdist(args.sdist, Path(args.cache), args.quiet, not args.no_fetch)
            lib, _ = build_library(sdist, Path(args.cache), args.quiet, args.arch)
            print(lib)
            return 0
        points, state = setup(args)
        with tempfile.TemporaryDirectory(prefix="cutwed-") as tmp:
            state["device"] = probe(args, state, Path(tmp))
            runs = []
            for i, point in enumerate(points, 1):
                runs += point_runs(point, args, state, Path(tmp))
                progress(i, len(points), point, runs[-2:], args.quiet)
                write_atomically(args.out, results_json(state, runs, ""))
            write_atomically(args.out, results_json(state, runs, now()))
    except PeerError as err:
        print(f"cutwed.py: error: {err}", file=sys.stderr)
        return 2
    except RuntimeError as err:
        print(f"cutwed.py: {err}", file=sys.stderr)
        return 1
    note(f"results: {args.out}", args.quiet)
    return 0 if all(r["status"] in ("passed", "unsupported", "skipped") for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

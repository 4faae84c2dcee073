#!/usr/bin/env python3
"""cuTWED 2.0.2 (Wright 2020) as a peer of the twed study, built from its sdist with nvcc and
called through ctypes (peers/README.md). cuTWED is GPL, so it is never vendored."""
import argparse
import ctypes
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import zlib
from pathlib import Path

import numpy as np

from .. import basics, building, cli, imports, timer
from ..basics import PeerError

VERSION = "2.0.2"
LABEL = f"cuTWED {VERSION}"
DATA_SUFFIX = ".npy"
SDIST = f"cuTWED-{VERSION}.tar.gz"
PREPARE = {"--build-only": ("fetch and build cuTWED into the cache, print the library, stop",
                            lambda args: str(build(args)[0]))}
PRECISIONS = {"fp64": "peer_cutwed", "fp32": "peer_cutwed_fp32"}
# cuTWED's host call (twed: its inputs copied to the device inside the call), FP64, beside
# twed_dev: the paper's Fig. 10b, whose host-to-device overhead it calls trivial. Timed on
# single pairs up to HOST_MAX_N points: beyond, a call takes many seconds and its copies
# (16 N bytes a series) are a vanishing share of it.
HOST, HOST_MAX_N = "peer_cutwed_host", 262144
DIMENSION_LIMIT, BATCH_LIMIT = 32, 65535  # src/cuTWED.cu of 2.0.2
TRI = {"nopt": 0, "tril": -1, "triu": -2}  # TRI_OPT_t of src/cuTWED.h
GOLDEN = 46.018  # x = 1..10, y = 11..20, nu = 0.001, lambda = 1, degree 2, index times
NVCC_FLAGS = ["-O3", "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared"]
TIMING_METHOD = ("wall clock (time.perf_counter) around each cuTWED call plus a "
                 "cudaDeviceSynchronize; inputs copied to the device before timing (the host "
                 "call twed, variant peer_cutwed_host, copies them inside); the call's own "
                 "cudaMalloc/cudaFree, stream creation, launches and result copy are inside")


def options(p):
    p.add_argument("--sdist", help=f"{SDIST} (default: the cache's, else pip download)")
    p.add_argument("--triangle", choices=("tril", "triu"), default="tril",
                   help="cuTWED's option for triangle mode (triu adds a cuBLAS transpose)")
    p.add_argument("--arch", type=arch_text, help="build for sm_ARCH instead of the local GPU's")


def arch_text(text):
    if not re.fullmatch(r"\d{2,3}a?", text):
        raise argparse.ArgumentTypeError(f"want a compute capability like 90, got {text!r}")
    return text


def sdist_path(args):
    """The sdist: --sdist, else the cache's, else `pip download` into the cache."""
    if args.sdist:
        if not Path(args.sdist).exists():
            raise PeerError(f"--sdist {args.sdist}: no such file")
        return Path(args.sdist)  # read as a regular file only (sdist_files)
    path = Path(args.cache) / SDIST
    if not path.is_file():
        basics.fetching(args, f"no {SDIST} in {basics.shown(args.cache)}",
                        f"fetching {SDIST} with pip into {basics.shown(args.cache)}")
        with basics.removed_on_failure(args.cache):
            building.pip(["download", f"cutwed=={VERSION}", "--no-binary", ":all:", "--no-deps",
                        "-d", str(args.cache)], f"cutwed=={VERSION} (or give the file with --sdist)")
    return path


def build_plan(sdist, args):
    """(nvcc, the toolkit's library folder, libcutwed.so's place, built or not, its record)."""
    nvcc = building.nvcc(needed_by="cuTWED")
    release = re.search(r"release ([\d.]+)", subprocess.run(
        [nvcc, "--version"], capture_output=True, text=True).stdout)
    home = Path(nvcc).resolve().parents[1]
    libdir = next((d for d in (home / "lib64", home / "lib") if d.is_dir()), home / "lib64")
    # --arch, else GPU 0's compute capability, else sm_90 (when nvidia-smi cannot tell).
    arch = args.arch or building.compute_capability().replace(".", "") or "90"
    digest = hashlib.sha256(basics.read_regular(sdist, "the sdist")).hexdigest()
    flags = NVCC_FLAGS + [f"-gencode=arch=compute_{arch},code=sm_{arch}"]
    info = {"sdist": sdist.name, "sdist_sha256": digest, "arch": f"sm_{arch}",
            "nvcc": release.group(1) if release else "unknown", "flags": flags}
    key = hashlib.sha256(json.dumps([digest, arch, info["nvcc"], flags]).encode()).hexdigest()
    lib = Path(args.cache) / f"build-{digest[:12]}-sm{arch}-{key[:12]}" / "libcutwed.so"
    return nvcc, libdir, lib, dict(info, library=basics.shown(lib))


def sdist_files(sdist):
    """{path: bytes} of the files of the sdist that the build takes: src/'s and LICENSE (the
    rest is never unpacked); PeerError when it is not cuTWED's sdist, a .tar.gz."""
    top = f"cuTWED-{VERSION}/"
    wanted = {top + f for f in ("src/cuTWED.cu", "src/cuTWED.h", "src/cuTWED_core.h", "LICENSE")}
    try:
        with basics.open_regular(sdist, "the sdist") as f, tarfile.open(fileobj=f) as tar:
            members = [m for m in tar.getmembers() if m.name in wanted and m.isfile()]
            if len(members) != len(wanted):
                raise PeerError(f"the sdist does not hold cuTWED {VERSION}'s src/ files")
            return {m.name[len(top):]: tar.extractfile(m).read() for m in members}
    except (tarfile.TarError, EOFError, zlib.error, OSError) as err:
        raise PeerError(f"the sdist {sdist}: not a readable .tar.gz archive") from err


def build(args):
    """libcutwed.so, built once per (sdist, arch, nvcc, flags): src/cuTWED.cu includes
    cuTWED_core.h once per REAL_t, which gives both precisions' entry points."""
    sdist = sdist_path(args)
    nvcc, libdir, lib, info = build_plan(sdist, args)
    if lib.is_file():
        return lib, info
    files = sdist_files(sdist)  # before the cache is touched: a bad sdist leaves nothing
    basics.note(args, f"building {basics.shown(lib)} ({info['arch']}, nvcc {info['nvcc']})")
    with basics.removed_on_failure(args.cache):
        Path(args.cache).mkdir(parents=True, exist_ok=True)
        return compile_lib(nvcc, libdir, lib, info, files, args.cache)


def compile_lib(nvcc, libdir, lib, info, files, cache):
    """libcutwed.so compiled from FILES (sdist_files) in a scratch folder of CACHE, and
    installed as LIB with its LICENSE and build record (INFO)."""
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        for rel, blob in files.items():
            (Path(tmp) / rel).parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / rel).write_bytes(blob)
        src, out = Path(tmp) / "src", Path(tmp) / "libcutwed.so"
        building.run_tool([nvcc, *info["flags"], f"-I{src}", str(src / "cuTWED.cu"), "-o", str(out), "-lcublas",
                           "-Xlinker", f"-rpath,{libdir}"], "nvcc failed building cuTWED")
        building.install_build(out, lib, Path(tmp) / "LICENSE", info)
    return lib, info


def ready(args):
    sdist = Path(args.cache) / SDIST
    no_sdist = f"no {SDIST} in {basics.shown(args.cache)} ({basics.fetch_hint(args)})"
    basics.require("" if sdist.is_file() else no_sdist,
                   "" if building.nvcc() else "nvcc not found (put the CUDA toolkit's bin/ on PATH)",
                   building.gpu_missing())
    _, _, lib, info = build_plan(sdist, args)
    built = (f"built {basics.shown(lib)}" if lib.is_file() else
             f"from {basics.shown(sdist)}, built on the first run")
    return f"{LABEL}, {built} for {info['arch']} with nvcc {info['nvcc']}"


def setup(args):
    basics.require(building.gpu_missing(), error=PeerError)
    lib, info = build(args)
    # The known pair checks the build and the ctypes signatures in both precisions.
    x = np.arange(1.0, 11.0)[None, :, None]
    once = {"warmup": {"gpu": 0}, "repetitions": {"gpu": 1}}
    _, outputs = in_child(lib, "pair", "nopt", (x, x[:, :, 0]), (x + 10, x[:, :, 0]),
                          {"nu": 0.001, "lambda": 1, "degree": 2}, once, host=True)
    for precision, out in outputs.items():
        if abs(out[0, 0] - GOLDEN) > 1e-3 * GOLDEN:
            raise RuntimeError(f"cuTWED ({precision}) gives {out[0, 0]} for the known pair, "
                               f"want {GOLDEN}: the build or the ctypes signatures are wrong")
    return lib, {"version": VERSION, "build": info, "triangle_option": args.triangle.upper(),
                 "timing_method": TIMING_METHOD}


def variants(args, lib):
    return [{"name": name, "label": LABEL, "backend": "gpu", "precision": precision,
             "change": f"peer: {LABEL} ({precision.upper()}, twed_dev / twed_batch_dev"
                       f"{'' if precision == 'fp64' else ' (f variants)'}): one launch per "
                       "anti-diagonal; timed with the wall clock around each call, its "
                       "allocations included"}
            for precision, name in PRECISIONS.items()] + [
        {"name": HOST, "label": f"{LABEL} host call", "backend": "gpu", "precision": "fp64",
         "change": f"peer: {LABEL} (FP64, twed: host arrays, copied to the device inside the "
                   "call, then twed_dev's work): the host-to-device overhead beside twed_dev"}]


def variant_unsupported(point, name):
    """Why the host call is not timed at a point ('' where it is, and for the other variants)."""
    if name != HOST:
        return ""
    params = point["params"]
    if params.get("mode", "pair") != "pair":
        return "the host call is timed on single pairs (the paper's Fig. 10b): twed_batch_dev only"
    n = params.get("n")
    if n not in (None, "") and float(n) > HOST_MAX_N:
        return (f"the host call is timed up to N = {HOST_MAX_N:,}: a call beyond takes many "
                "seconds, of which the inputs' copies are a vanishing share")
    return ""


def unsupported(point):
    params = point["params"]
    if "m" in params or "b_file" in params:
        return "B from a list of its own ('m' or 'b_file'): `ladder gen` writes one data set"
    if params["root"] == "off":
        return "cuTWED computes the rooted Lp norm only (root=off is twed.c's unrooted cost)"
    return ""


def series(data, params, first, count):
    """Series [first, first + count) and their timestamps, as float64."""
    times = params["timestamps"]
    values = data[:, :, 1:] if times == "data" else data[:, :, None] if data.ndim == 2 else data
    part = np.ascontiguousarray(values[first:first + count], np.float64)
    if times == "data":
        t = data[first:first + count, :, 0]
    else:
        t = np.broadcast_to(np.arange(data.shape[1], dtype=np.float64) + (times == "index"),
                            part.shape[:2])
    return part, np.ascontiguousarray(t, np.float64)


def select(data, point):
    """(A, B) as (values, times): the series ladder says the point's lists hold."""
    facts, params = point["data_facts"], point["params"]
    return tuple(series(data, params, int(facts[side + "_first"]), int(facts[side + "_series"]))
                 for side in ("a", "b"))


def limits(a, b):
    """Why cuTWED's compiled limits refuse A against B ('' when within)."""
    if a.shape[2] > DIMENSION_LIMIT:
        return f"points in R^{a.shape[2]} exceed cuTWED's DIMENSION_LIMIT {DIMENSION_LIMIT}"
    if max(a.shape[0], b.shape[0]) > BATCH_LIMIT:
        return f"more than BATCH_LIMIT {BATCH_LIMIT} series on a side of the batch"
    if max((a.shape[1] + b.shape[1] + 1) * b.shape[0], a.size, b.size) >= 2 ** 31:
        return "cuTWED's int sizes and indices (diagonal buffers, series offsets) would overflow"
    return ""


def run(point, path, args, lib):
    params, mode = point["params"], point["params"]["mode"]
    a, b = select(np.load(path, allow_pickle=False), point)
    why = limits(a[0], b[0])
    if why:
        return [{"variant": v, "unsupported": why} for v in PRECISIONS.values()]
    tri = args.triangle if mode == "triangle" else "nopt"
    host = not variant_unsupported(point, HOST)
    timings, outputs = in_child(lib, mode, tri, a, b, params, point, host)
    return [dict(timings[p], variant=v, outputs=outputs[p])
            for p, v in {**PRECISIONS, **({"host": HOST} if host else {})}.items()]


def in_child(lib, mode, tri, a, b, params, point, host=False):
    """Both precisions' timings and outputs of A against B (each (values, times)), and with
    `host` (a pair) the FP64 host call's as "host", from a child process: cuTWED calls exit()
    on a CUDA error, which then costs this call only (a RuntimeError with the child's last
    lines, cuTWED's GPUassert lines among them)."""
    job = {"library": str(lib), "mode": mode, "tri": tri, "nu": float(params["nu"]),
           "lambda": float(params["lambda"]), "degree": int(params["degree"]),
           "warmup": point["warmup"], "repetitions": point["repetitions"], "host": host,
           "time_budget_s": point.get("time_budget_s") or 0}  # the child times as the plan says
    with tempfile.TemporaryDirectory(prefix="cutwed-") as tmp:
        np.savez(Path(tmp) / "job.npz", a=a[0], ta=a[1], b=b[0], tb=b[1])
        argv, env = imports.module_command(__spec__.name, "--worker", tmp, json.dumps(job))
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
        if done.returncode != 0 or not (Path(tmp) / "done.npz").is_file():
            tail = " | ".join((done.stderr + done.stdout).strip().splitlines()[-3:])
            raise RuntimeError(f"cuTWED process exited with {done.returncode}: {tail or '?'}")
        outputs = dict(np.load(Path(tmp) / "done.npz"))
    return json.loads(str(outputs.pop("timings"))), outputs


class Cuda:
    """libcutwed.so and the CUDA runtime it links; signatures of src/cuTWED.h (2.0.2): int
    lengths, dims and counts, TRI_OPT_t an int enum."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        self.rt = ctypes.CDLL(building.loaded_cudart() or "libcudart.so")
        vp, ci = ctypes.c_void_p, ctypes.c_int
        for suffix, real in (("", ctypes.c_double), ("f", ctypes.c_float)):
            pair, batch = self.entries(suffix)
            pair.restype, pair.argtypes = real, [vp, ci, vp, vp, ci, vp, real, real, ci, ci]
            batch.restype = ci
            batch.argtypes = [vp, ci, vp, vp, ci, vp, real, real, ci, ci, ci, ci, vp, ci]
        # twed: twed_dev's arguments, host arrays
        self.lib.twed.restype = ctypes.c_double
        self.lib.twed.argtypes = [vp, ci, vp, vp, ci, vp, ctypes.c_double, ctypes.c_double,
                                  ci, ci]
        self.rt.cudaGetErrorString.restype = ctypes.c_char_p
        self.rt.cudaMalloc.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t]
        self.rt.cudaMemcpy.argtypes = [vp, vp, ctypes.c_size_t, ci]
        self.rt.cudaFree.argtypes = [vp]

    def entries(self, suffix):
        return getattr(self.lib, "twed_dev" + suffix), getattr(self.lib, "twed_batch_dev" + suffix)

    def check(self, code, what):
        if code != 0:
            raise RuntimeError(f"{what}: {self.rt.cudaGetErrorString(code).decode()}")

    def sync(self):
        self.check(self.rt.cudaDeviceSynchronize(), "cudaDeviceSynchronize")

    def upload(self, array):
        ptr = ctypes.c_void_p()
        self.check(self.rt.cudaMalloc(ctypes.byref(ptr), max(array.nbytes, 1)), "cudaMalloc")
        self.check(self.rt.cudaMemcpy(ptr, array.ctypes.data, array.nbytes, 1), "cudaMemcpy")
        return ptr

    def measure(self, job, arrays, precision):
        """The job's timing in one precision and its output as the harness writes it."""
        real, suffix = (np.float64, "") if precision == "fp64" else (np.float32, "f")
        a, b = arrays["a"], arrays["b"]
        ptrs = [self.upload(np.ascontiguousarray(arrays[k], real)) for k in ("a", "ta", "b", "tb")]
        head = (ptrs[0], a.shape[1], ptrs[1], ptrs[2], b.shape[1], ptrs[3], job["nu"],
                job["lambda"], job["degree"], a.shape[2])
        out = np.zeros((a.shape[0], b.shape[0]), real)
        pair, batch = self.entries(suffix)

        def call():
            if job["mode"] == "pair":
                out[0, 0] = pair(*head)
            elif batch(*head, *out.shape, out.ctypes.data, TRI[job["tri"]]) != 0:
                raise RuntimeError(f"twed_batch_dev{suffix} failed")
            return out
        try:
            timing, got, _ = timer.timed(call, job, "gpu", sync=self.sync)
        finally:
            for p in ptrs:
                self.rt.cudaFree(p)
        if job["tri"] != "nopt":  # TRIL fills j < i, TRIU i < j: mirror, zero diagonal
            half = np.tril(got, -1) if job["tri"] == "tril" else np.triu(got, 1)
            got = half + half.T
        return timing, got

    def measure_host(self, job, arrays):
        """The host call twed on one pair in FP64, its inputs copied inside the timed call."""
        a, b = arrays["a"], arrays["b"]
        host = [np.ascontiguousarray(arrays[k], np.float64) for k in ("a", "ta", "b", "tb")]
        out = np.zeros((1, 1), np.float64)

        def call():
            out[0, 0] = self.lib.twed(host[0].ctypes.data, a.shape[1], host[1].ctypes.data,
                                      host[2].ctypes.data, b.shape[1], host[3].ctypes.data,
                                      job["nu"], job["lambda"], job["degree"], a.shape[2])
            return out
        timing, got, _ = timer.timed(call, job, "gpu", sync=self.sync)
        return timing, got


def worker(folder, job):
    """The child: one job in both precisions (and the host call, where asked), its timings and
    outputs in done.npz."""
    job = json.loads(job)
    cuda, arrays = Cuda(job["library"]), dict(np.load(Path(folder) / "job.npz"))
    timings, outputs = {}, {}
    for p in PRECISIONS:
        timings[p], outputs[p] = cuda.measure(job, arrays, p)
    if job.get("host"):
        timings["host"], outputs["host"] = cuda.measure_host(job, arrays)
    np.savez(Path(folder) / "done.npz", timings=json.dumps(timings), **outputs)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        sys.exit(worker(*sys.argv[2:4]))
    sys.exit(cli.main(sys.modules[__name__]))

#!/usr/bin/env python3
"""StringZilla's batched Levenshtein distances (stringzillas-cuda, or -cpus) as a peer of the eed
study: plain Levenshtein, handed over as the eed distance at w_swap 2 (peers/README.md)."""
import ctypes
import os
import shutil
import sys
from pathlib import Path

# peers/ for common.py, instead of this folder, whose stringzilla.py would shadow the package.
sys.path[0] = str(Path(__file__).resolve().parents[1])
import numpy as np  # noqa: E402

import common  # noqa: E402
from common import PeerError  # noqa: E402

VERSION = "4.6.3"  # the last release whose LevenshteinDistances scores pairs, not a matrix
LABEL = "StringZilla"
DATA_SUFFIX = ".txt"
PREPARE = {"--build-only": ("fetch if needed, install (build) into the cache, stop",
                            lambda args: common.shown(install(args))),
           "--fetch-only": ("download the packages into the cache (with network), stop",
                            lambda args: common.shown(fetch(args)))}
# --target: (variant, backend, where the engine runs)
TARGETS = {"cuda": ("peer_stringzilla_levenshtein", "gpu", "the GPU"),
           "cpus": ("peer_stringzilla_levenshtein_cpu", "cpu", "the CPU")}
NOTE = ("StringZilla computes plain Levenshtein (no swaps): handed over as the eed distance at "
        "w_swap = 2, which equals it (w_swap >= w_ins + w_del)")
KNOWN = [(b"kitten", b"sitting", 3), (b"flaw", b"lawn", 2), (b"CA", b"ABC", 3),
         (b"ab", b"ba", 2), (bytes([0, 9, 13, 255]), bytes([9, 0, 255]), 2)]
COPIES = {"in": "fresh host Strs each call: their copy to unified memory is inside the window",
          "out": "the strings moved to unified memory before the first call: their copy is "
                 "outside the window"}


def options(p):
    p.add_argument("--szs-version", default=VERSION, help=f"stringzillas release ({VERSION}: "
                   "built from source; 5.x: wheels, one call per pair)")
    p.add_argument("--target", choices=TARGETS, default="cuda", help="the GPU or the CPU")
    p.add_argument("--gpu", dest="device", type=int, default=0, help="CUDA device (default 0)")
    p.add_argument("--copies", choices=COPIES, default="in", help="the strings' copy to the "
                   "device in the timed window (as ladder's eed times) or out of it")


def from_source(args):
    """Releases before 5.0 are on PyPI as sources only."""
    return int(args.szs_version.split(".")[0]) < 5


def folders(args):
    """(the download folder, this Python's install folder)."""
    base = Path(args.cache) / "stringzillas"
    name = f"{args.target}-{args.szs_version}"
    return base / f"{name}-download", base / f"{name}-{common.PY}"


def packages(args):
    return [f"stringzillas-{args.target}=={args.szs_version}", f"stringzilla=={args.szs_version}"]


def fetch(args):
    """Downloads what the install needs, once: sources (with setuptools and wheel, to build
    without network) before 5.0, wheels for this Python from 5.0 on."""
    download, folder = folders(args)
    if download.is_dir():
        return download
    common.fetching(args, f"stringzillas-{args.target} {args.szs_version} is neither built in "
                          f"{common.shown(folder)} nor downloaded",
                    f"fetching {', '.join(packages(args))} into {common.shown(download)}")
    tmp = download.with_name(download.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    get = ["download", "--quiet", "--no-deps", "-d", str(tmp)]
    for package in packages(args):
        kind = ["--no-binary", package.split("==")[0]] if from_source(args) else \
            ["--only-binary", ":all:"]
        common.pip(get + kind + [package], package)
    if from_source(args):
        common.pip(get + ["--only-binary", ":all:", "setuptools>=70.1", "wheel"],
                   "setuptools and wheel (to build offline)")
    tmp.rename(download)
    return download


def install(args):
    """The folder stringzilla and stringzillas are built into once, offline from the download."""
    download, folder = folders(args)
    if (folder / ".complete").is_file():
        return folder
    download = fetch(args)
    shutil.rmtree(folder, ignore_errors=True)
    env = dict(os.environ)
    argv = ["install", "--quiet", "--no-deps", "--no-index", "--find-links", str(download),
            "--target", str(folder)]
    if from_source(args):  # setuptools and wheel from the download, numpy from this Python
        tools = folder.with_name(folder.name + "-buildtools")
        shutil.rmtree(tools, ignore_errors=True)
        common.pip(argv[:-1] + [str(tools), "setuptools", "wheel"], "setuptools and wheel")
        if args.target == "cuda":
            nvcc = common.nvcc(needed_by=f"stringzillas-cuda {args.szs_version}")
            env["PATH"] = f"{Path(nvcc).parent}{os.pathsep}{env.get('PATH', '')}"
            env["LDFLAGS"] = f"{env.get('LDFLAGS', '')} -Wl,-rpath,{common.CUDA_HOME / 'lib64'}"
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(tools), env.get("PYTHONPATH"))))
        argv.append("--no-build-isolation")
        common.note(args, f"building stringzillas-{args.target} {args.szs_version} into "
                          f"{common.shown(folder)} (minutes)")
    common.pip(argv + packages(args), f"stringzillas-{args.target}", env=env)
    (folder / ".complete").write_text(args.szs_version + "\n")
    return folder


def ready(args):
    download, folder = folders(args)
    name, what = f"stringzillas-{args.target} {args.szs_version}", ""
    if (folder / ".complete").is_file():
        what = f"{name} built in {common.shown(folder)}"
    elif download.is_dir() and (common.nvcc() or not from_source(args) or args.target == "cpus"):
        what = f"{name} built on the first run, offline, from {common.shown(download)}"
    reasons = ["" if what else f"no {name} build in {common.shown(folder)} "
                               f"({common.fetch_hint(args)})"]
    if args.target == "cuda":
        reasons.append(common.gpu_missing())
        cc = "" if reasons[-1] else common.compute_capability()
        if from_source(args) and cc not in ("", "9.0"):
            reasons.append(f"{name} is built for sm_90a only; GPU 0 is of compute capability {cc}")
    common.require(*reasons)
    return what


class Library:
    """The engine on one device scope, the call pattern its release offers, and the sync."""

    def __init__(self, args, folder):
        sys.path.insert(0, str(folder))
        try:
            if args.target == "cuda" and from_source(args):  # built without an rpath to it
                for lib in sorted((common.CUDA_HOME / "lib64").glob("libcudart.so*"))[-1:]:
                    ctypes.CDLL(str(lib), mode=ctypes.RTLD_GLOBAL)
            import stringzilla as sz
            import stringzillas as szs
            self.scope = szs.DeviceScope(gpu_device=args.device) if args.target == "cuda" \
                else szs.DeviceScope(cpu_cores=0)
            self.engine = szs.LevenshteinDistances(capabilities=self.scope)
            got = np.asarray(self.engine(sz.Strs([a for a, _, _ in KNOWN]),
                                         sz.Strs([b for _, b, _ in KNOWN]), device=self.scope))
        except (ImportError, OSError, RuntimeError, ValueError, TypeError) as err:
            raise PeerError(f"no usable CUDA device or stringzillas build: {err}") from err
        self.sz, self.szs, self.target = sz, szs, args.target
        # Up to 4.6.3 one distance per pair; from 5.0 on the cross-product matrix.
        self.api = "paired" if got.ndim == 1 else "cross-product"
        values = (got if got.ndim == 1 else np.diagonal(got)).tolist()
        if values != [w for _, _, w in KNOWN]:
            raise RuntimeError(f"stringzillas gives {values} for the known pairs, want "
                               f"{[w for _, _, w in KNOWN]}")
        path = common.loaded_cudart() if args.target == "cuda" else None
        self.rt = ctypes.CDLL(path) if path else None

    def sync(self):
        if self.rt is not None and self.rt.cudaDeviceSynchronize() != 0:
            raise RuntimeError("cudaDeviceSynchronize failed")

    def inputs(self, a, b):
        """Fresh host Strs of the batch (paired) or of every pair (cross-product)."""
        if self.api == "paired":
            return self.sz.Strs(a), self.sz.Strs(b)
        return [self.sz.Strs([x]) for x in a], [self.sz.Strs([y]) for y in b]

    def to_device(self, made):
        """Inputs moved into unified memory ahead of time (--copies out)."""
        if self.target != "cuda":
            return made
        move = self.szs.to_device
        return tuple(move(s) if self.api == "paired" else [move(x) for x in s] for s in made)

    def call(self, made):
        a, b = made
        if self.api == "paired":
            return np.asarray(self.engine(a, b, device=self.scope)).astype(np.int64)
        return np.fromiter((self.engine(x, y, device=self.scope)[0, 0] for x, y in zip(a, b)),
                           np.int64, len(a))


def setup(args):
    if args.target == "cuda":  # before anything is fetched or built
        common.require(common.gpu_missing(), error=PeerError)
    folder = install(args)
    lib = Library(args, folder)
    sync = ", plus a cudaDeviceSynchronize" if args.target == "cuda" else ""
    return lib, {"version": args.szs_version, "package": f"stringzillas-{args.target}",
                 "location": common.shown(folder), "api": lib.api, "note": NOTE,
                 "timing_method": f"wall clock (time.perf_counter) around each "
                                  f"LevenshteinDistances call on {TARGETS[args.target][2]}"
                                  f"{sync}; {COPIES[args.copies]}"}


def variants(args, lib):
    name, backend, where = TARGETS[args.target]
    call = ("one call for the batch" if lib is None or lib.api == "paired" else
            "one call per pair (the release computes cross-product matrices only)")
    return [{"name": name, "label": f"StringZilla {args.szs_version}", "backend": backend,
             "precision": "int32", "params": {"w_swap": 2},
             "change": f"peer: StringZilla {args.szs_version} Levenshtein distances (no swaps: "
                       f"the eed distance at w_swap 2) on {where}: {call}; copies "
                       f"{args.copies} the timed window"}]


def unsupported(point):
    return common.non_unit_costs(point, ("w_ins", "w_del", "w_sub"),
                                 "StringZilla computes unit-cost Levenshtein only")


def run(point, path, args, lib):
    a, b = common.eed_pairs(path)
    name, backend, _ = TARGETS[args.target]
    moved = lib.to_device(lib.inputs(a, b)) if args.copies == "out" else None
    # --copies in: fresh host strings for every call, made untimed
    timing, out, _ = common.timed(lib.call, point, backend, lambda: moved or lib.inputs(a, b),
                                  lib.sync)
    return [dict(timing, variant=name, outputs=out, note=NOTE)]


if __name__ == "__main__":
    sys.exit(common.main(sys.modules[__name__]))

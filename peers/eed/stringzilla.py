#!/usr/bin/env python3
"""StringZilla's batched Levenshtein distances (stringzillas-cuda, or -cpus) as a peer of the eed
study: plain Levenshtein, handed over as the eed distance at w_swap 2 (peers/README.md). This
script runs the newest release; stringzilla_paired.py runs this module at 4.6.3."""
import argparse
import ctypes
import os
import platform
import re
import shutil
import sys
from pathlib import Path

import numpy as np

from .. import basics, building, cli, imports, study_data, timer
from ..basics import PeerError

VERSION = "5.3.2"  # the newest; 4.6.3 (stringzilla_paired.py) is the last with a paired call
# From 5.0 on LevenshteinDistances(queries, candidates) returns the cross-product matrix only: the
# Python call takes queries, candidates, device and out (a 2-D len(queries) x len(candidates)
# buffer), and the C API (szs_levenshtein_distances) writes a matrix too: 5.x has no paired call.
# So pairs go in blocks of K, each block's K x K matrix computed and its diagonal kept: K times
# the cells, but a call per pair leaves the GPU idle (one warp per pair) and costs ~0.7 ms each.
# K as measured fastest for 2,000 pairs of 1,000 on an H100 (128) and on 16 cores (16).
PAIRS_PER_CALL = {"cuda": 128, "cpus": 16}
LABEL = "StringZilla"
DATA_SUFFIX = ".txt"
PREPARE = {"--build-only": ("fetch if needed, install (build) into the cache, stop",
                            lambda args: basics.shown(install(args))),
           "--fetch-only": ("download the packages into the cache (with network), stop",
                            lambda args: basics.shown(fetch(args, args.wheels_for)))}
# --target: (the variant name's end, backend, where the engine runs)
TARGETS = {"cuda": ("", "gpu", "the GPU"), "cpus": ("_cpu", "cpu", "the CPU")}
NOTE = ("StringZilla computes plain Levenshtein (no swaps): handed over as the eed distance at "
        "w_swap = 2, which equals it (w_swap >= w_ins + w_del)")
KNOWN = [(b"kitten", b"sitting", 3), (b"flaw", b"lawn", 2), (b"CA", b"ABC", 3),
         (b"ab", b"ba", 2), (bytes([0, 9, 13, 255]), bytes([9, 0, 255]), 2)]
COPIES = {"in": "fresh host Strs each call: their copy to unified memory is inside the window",
          "out": "the strings moved to unified memory before the first call: their copy is "
                 "outside the window"}


def options(p):
    p.add_argument("--szs-version", default=VERSION, help=f"stringzillas release ({VERSION}: "
                   "wheels, blocks of pairs per cross-product call; 4.6.3: built from source, "
                   "one paired call)")
    p.add_argument("--pairs-per-call", type=positive, metavar="K", help="5.x: pairs per call, the "
                   "diagonal of its K x K matrix kept (default: "
                   f"{', '.join(f'{k} for {t}' for t, k in PAIRS_PER_CALL.items())}; 1: a call "
                   "per pair)")
    p.add_argument("--wheels-for", type=cpython_version, metavar="X.Y", help="5.x with --fetch-only: the wheels for "
                   "CPython X.Y, for a machine with another Python (default: this Python's)")
    p.add_argument("--target", choices=TARGETS, default="cuda", help="the GPU or the CPU")
    # None unless given: `ladder ingest` is then not told a device, which it would have to find
    # even for --target cpus on a machine without one.
    p.add_argument("--gpu", dest="device", type=int, default=None, help="CUDA device (default 0)")
    p.add_argument("--copies", choices=COPIES, default="in", help="the strings' copy to the "
                   "device in the timed window (as ladder's eed times) or out of it")


def positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a count of pairs, 1 or more, not {text!r}")
    return int(text)


def cpython_version(text):
    if not re.fullmatch(r"3\.\d{1,2}", text):
        raise argparse.ArgumentTypeError(f"a CPython version such as 3.12, not {text!r}")
    return text


def from_source(args):
    """Releases before 5.0 are on PyPI as sources only."""
    return int(args.szs_version.split(".")[0]) < 5


def paired(args):
    """Whether the release scores a batch of pairs in one call: those before 5.0, the ones on
    PyPI as sources only (VERSION)."""
    return from_source(args)


def variant_name(args):
    """peer_stringzilla_levenshtein[_paired][_cpu]: a release with the paired call is a variant
    of its own, so that both releases' runs stay apart where their results are read together."""
    call = "_paired" if paired(args) else ""
    return f"peer_stringzilla_levenshtein{call}{TARGETS[args.target][0]}"


def folders(args):
    """(the download folder, this Python's install folder)."""
    base = Path(args.cache) / "stringzillas"
    name = f"{args.target}-{args.szs_version}"
    return base / f"{name}-download", base / f"{name}-{basics.PY}"


def packages(args):
    return [f"stringzillas-{args.target}=={args.szs_version}", f"stringzilla=={args.szs_version}"]


def cpython(version=None):
    """The wheel tag of CPython VERSION ('3.12': 'cp312'), by default of this Python."""
    return "cp" + (version or f"{sys.version_info[0]}.{sys.version_info[1]}").replace(".", "")


def wheels(args, download, version=None):
    """Whether DOWNLOAD holds both packages' wheels for CPython VERSION (a download folder
    serves every Python whose wheels were fetched into it)."""
    return all(any(download.glob(f"{name.replace('-', '_')}-{args.szs_version}-"
                                 f"{cpython(version)}-*.whl"))
               for name in (p.split("==")[0] for p in packages(args)))


def fetched(args, download, version=None):
    return wheels(args, download, version) if not from_source(args) else download.is_dir()


def fetch(args, version=None):
    """Downloads what the install needs, once: sources (with setuptools and wheel, to build
    without network) before 5.0; from 5.0 on binary wheels for CPython VERSION (this Python by
    default; another one's for a machine that runs it, manylinux_2_28 of this architecture)."""
    download, folder = folders(args)
    if fetched(args, download, version):
        return download
    wanted = "" if from_source(args) else f" for {cpython(version)}"
    basics.fetching(args, f"stringzillas-{args.target} {args.szs_version} is neither built in "
                          f"{basics.shown(folder)} nor downloaded{wanted}",
                    f"fetching {', '.join(packages(args))} into {basics.shown(download)}")
    tmp = download.with_name(download.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    get = ["download", "--quiet", "--no-deps", "-d", str(tmp)]
    if version and not from_source(args):
        get += ["--python-version", version, "--implementation", "cp",
                "--platform", f"manylinux_2_28_{platform.machine()}"]
    for package in packages(args):
        kind = ["--no-binary", package.split("==")[0]] if from_source(args) else \
            ["--only-binary", ":all:"]
        building.pip(get + kind + [package], package)
    if from_source(args):
        building.pip(get + ["--only-binary", ":all:", "setuptools>=70.1", "wheel"],
                   "setuptools and wheel (to build offline)")
    if not download.is_dir():
        tmp.rename(download)
        return download
    for path in tmp.iterdir():  # wheels for this Python join those of others
        path.replace(download / path.name)
    tmp.rmdir()
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
        building.pip(argv[:-1] + [str(tools), "setuptools", "wheel"], "setuptools and wheel")
        if args.target == "cuda":
            nvcc = building.nvcc(needed_by=f"stringzillas-cuda {args.szs_version}")
            env["PATH"] = f"{Path(nvcc).parent}{os.pathsep}{env.get('PATH', '')}"
            env["LDFLAGS"] = f"{env.get('LDFLAGS', '')} -Wl,-rpath,{basics.CUDA_HOME / 'lib64'}"
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(tools), env.get("PYTHONPATH"))))
        argv.append("--no-build-isolation")
        basics.note(args, f"building stringzillas-{args.target} {args.szs_version} into "
                          f"{basics.shown(folder)} (minutes)")
    building.pip(argv + packages(args), f"stringzillas-{args.target}", env=env)
    (folder / ".complete").write_text(args.szs_version + "\n")
    return folder


def ready(args):
    download, folder = folders(args)
    name, what, reasons = f"stringzillas-{args.target} {args.szs_version}", "", []
    if (folder / ".complete").is_file():
        what = f"{name} built in {basics.shown(folder)}"
    elif not fetched(args, download):  # short: `ladder reproduce` keeps 200 characters
        held = "sources" if from_source(args) else f"wheels for {cpython()}"
        reasons.append(f"no {name} {held} in {basics.shown(download)} "
                       f"({basics.fetch_hint(args)})")
    elif from_source(args) and args.target == "cuda" and not building.nvcc():
        reasons.append(f"{name} is built from its sources in {basics.shown(download)} on the "
                       "first run, and nvcc is not found (put the CUDA toolkit's bin/ on PATH, "
                       "or set CUDA_HOME)")
    else:
        what = f"{name} built on the first run, offline, from {basics.shown(download)}"
    if args.target == "cuda":
        reasons.append(building.gpu_missing())
        cc = "" if reasons[-1] else building.compute_capability()
        if from_source(args) and cc not in ("", "9.0"):
            reasons.append(f"{name} is built for sm_90a only; GPU 0 is of compute capability {cc}")
    basics.require(*reasons)
    return what


class Library:
    """The engine on one device scope, the call pattern its release offers, and the sync."""

    def __init__(self, args, folder):
        try:
            if args.target == "cuda" and from_source(args):  # built without an rpath to it
                for lib in sorted((basics.CUDA_HOME / "lib64").glob("libcudart.so*"))[-1:]:
                    ctypes.CDLL(str(lib), mode=ctypes.RTLD_GLOBAL)
            # the cache's build first, as `pip install --target` left it (both packages)
            sz = imports.import_from(folder, "stringzilla")
            szs = imports.import_from(folder, "stringzillas")
            self.scope = szs.DeviceScope(gpu_device=args.device or 0) if args.target == "cuda" \
                else szs.DeviceScope(cpu_cores=0)
            self.engine = szs.LevenshteinDistances(capabilities=self.scope)
            self.sz, self.szs, self.target = sz, szs, args.target
            # Up to 4.6.3 one distance per pair; from 5.0 on the cross-product matrix (VERSION).
            got = np.asarray(self.engine(sz.Strs([b"ab", b"abc"]), sz.Strs([b"abc", b"ab"]),
                                         device=self.scope))
            self.api = "paired" if got.ndim == 1 else "cross-product"
            self.block = args.pairs_per_call or PAIRS_PER_CALL[args.target]
            # the known pairs through the very calls the runs make
            values = self.call(self.inputs([a for a, _, _ in KNOWN], [b for _, b, _ in KNOWN]))
        except (ImportError, OSError, RuntimeError, ValueError, TypeError) as err:
            raise PeerError(f"no usable CUDA device or stringzillas build: {err}") from err
        path = building.loaded_cudart() if args.target == "cuda" else None
        if args.target == "cuda" and not path:  # without the sync the times would be wrong
            raise PeerError("stringzillas runs on the GPU, yet no libcudart is mapped to sync")
        self.rt = ctypes.CDLL(path) if path else None
        if values.tolist() != [w for _, _, w in KNOWN]:
            raise RuntimeError(f"stringzillas gives {values.tolist()} for the known pairs, want "
                               f"{[w for _, _, w in KNOWN]}")

    def sync(self):
        if self.rt is not None and self.rt.cudaDeviceSynchronize() != 0:
            raise RuntimeError("cudaDeviceSynchronize failed")

    def inputs(self, a, b):
        """Fresh host Strs: of the batch (paired), or of each block of pairs (cross-product)."""
        k = max(1, len(a)) if self.api == "paired" else self.block
        return [(self.sz.Strs(a[i:i + k]), self.sz.Strs(b[i:i + k])) for i in range(0, len(a), k)]

    def to_device(self, made):
        """Inputs moved into unified memory ahead of time (--copies out)."""
        if self.target != "cuda":
            return made
        return [(self.szs.to_device(x), self.szs.to_device(y)) for x, y in made]

    def call(self, made):
        """One distance per pair: the batch's, or each block's matrix diagonal."""
        got = [np.asarray(self.engine(x, y, device=self.scope)) for x, y in made]
        if self.api == "cross-product":
            got = [np.diagonal(m) for m in got]
        return np.concatenate(got).astype(np.int64) if got else np.zeros(0, np.int64)


def setup(args):
    if args.target == "cuda":  # before anything is fetched or built
        basics.require(building.gpu_missing(), error=PeerError)
    folder = install(args)
    lib = Library(args, folder)
    sync = ", plus a cudaDeviceSynchronize" if args.target == "cuda" else ""
    return lib, {"version": args.szs_version, "package": f"stringzillas-{args.target}",
                 "location": basics.shown(folder), "api": lib.api, "note": NOTE,
                 "timing_method": f"wall clock (time.perf_counter) around the batch's "
                                  f"LevenshteinDistances call(s) on {TARGETS[args.target][2]}"
                                  f"{sync}; {COPIES[args.copies]}"}


def calls(args):
    """How the release is called: one paired call, else blocks of a cross-product (VERSION)."""
    if paired(args):
        return "one call for the batch"
    k = args.pairs_per_call or PAIRS_PER_CALL[args.target]
    if k == 1:
        return "one call per pair (the release computes cross-product matrices only)"
    return (f"one call per {k} pairs, the diagonal of its {k} x {k} cross-product matrix kept "
            f"(the release has no paired call: up to {k} times the cells)")


def variants(args, lib):
    _, backend, where = TARGETS[args.target]
    call = calls(args)
    return [{"name": variant_name(args), "label": f"StringZilla {args.szs_version}",
             "backend": backend, "precision": "int32", "params": {"w_swap": 2},
             "change": f"peer: StringZilla {args.szs_version} Levenshtein distances (no swaps: "
                       f"the eed distance at w_swap 2) on {where}: {call}; copies "
                       f"{args.copies} the timed window"}]


def unsupported(point):
    return study_data.non_unit_costs(point, ("w_ins", "w_del", "w_sub"),
                                 "StringZilla computes unit-cost Levenshtein only")


def run(point, path, args, lib):
    a, b = study_data.eed_pairs(path)
    name, backend = variant_name(args), TARGETS[args.target][1]
    moved = lib.to_device(lib.inputs(a, b)) if args.copies == "out" else None
    # --copies in: fresh host strings for every call, made untimed
    timing, out, _ = timer.timed(lib.call, point, backend, lambda: moved or lib.inputs(a, b),
                                  lib.sync)
    return [dict(timing, variant=name, outputs=out, note=NOTE)]


if __name__ == "__main__":
    sys.exit(cli.main(sys.modules[__name__]))

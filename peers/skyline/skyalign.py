#!/usr/bin/env python3
"""SkyAlign (Bøgh, Chester, Šidlauskas and Assent; the GPU skyline of
sean-chester/skycube-templates, MIT) as a peer of the skyline study: its run_skyalign() on the
points `ladder gen` writes, called by a small driver of ladder's built with nvcc against the
fetched source (peers/README.md). SkyAlign is never vendored: its source is fetched (or taken
from --source) into peers/cache/ at benchmark time."""
import sys
from pathlib import Path

import numpy as np

from .. import basics, building, cli, study_data, timer
from ..basics import PeerError

# master since Dec 2018 ("Remove extra text from license file"), the repository's last commit
COMMIT = "3cbfd67205cd76bcb7e2f5a1012f8cfa71a464a0"
SHORT = COMMIT[:7]
STUDY = "skyline"  # as cli.main sets it from the folder
LABEL = "SkyAlign"
DATA_SUFFIX = ".npy"
# What is used of the repository: the plain skyline and what it includes (not the skycube
# algorithms, main.cu, the workloads/ data sets). Their digest: sha256 of the lines
# "PATH GIT_BLOB_ID\n" sorted by path, as `git ls-tree -r COMMIT -- FILES` lists them: any copy
# of COMMIT's files gives it.
FILES = ["LICENSE.md", "src/sdsc/skyAlign.cu", "src/sdsc/skyAlign.cuh",
         "src/utilities/kernels.cu", "src/utilities/kernels.cuh",
         "src/utilities/gpu_utilities.cpp", "src/utilities/gpu_utilities.h",
         "src/utilities/gpu_struct.h", "src/utilities/instrumentation.h"]
SOURCE_DIGEST = "61837b3c88e72164eb427d771ab8ac617e5c49aa0f01085563222320e4e844b3"
SOURCE = building.PinnedSource(LABEL, "sean-chester/skycube-templates", COMMIT, SOURCE_DIGEST,
                             FILES, [])
UNITS = ["src/sdsc/skyAlign.cu", "src/utilities/kernels.cu", "src/utilities/gpu_utilities.cpp"]
DRIVER = Path(__file__).with_name("skyalign_driver.cu")
PREPARE = {"--build-only": ("fetch SkyAlign's source (or copy --source) into the cache and "
                            "build the driver for the local GPU (or --arch), print it, stop",
                            lambda args: prepare(args))}
# Release/src/sdsc/subdir.mk: nvcc -O3 -std=c++11 --relocatable-device-code=true (kernels.cu
# defines the __constant__ const_dimensions that the templates in skyAlign.cu read). C++17: the
# Thrust of current CUDA needs it. The architecture is the GPU's at hand; its host flags
# (-fopenmp -march=native -mavx2) served the CPU skycube algorithms, which are not built.
NVCC_FLAGS = ["-O3", "-std=c++17", "-rdc=true"]
VARIANT = "peer_skyalign"
MAX_D = 20  # run_skyalign() dispatches skyalign<1> .. skyalign<20>
# skyAlign.cuh's first pruning pass starts thrust::reduce of every point's largest attribute
# from 10000: unless some point has every attribute <= 10000, points are pruned that may be
# skyline points.
PRUNE_START = 10000.0
TIMING_METHOD = ("one run_skyalign() call (SkyAlign's whole skyline: its pruning pass, "
                 "per-attribute sorts for the pivots, partitioning, and the rounds of dominance "
                 "kernels with the host work between them, its cudaMalloc/cudaFree of the "
                 "partition arrays) on std::chrono::steady_clock in the driver, ended by a "
                 "cudaDeviceSynchronize(); the points are on the device in SkyAlign's pitched "
                 "layout, and its buffers made as SDSC::initializeGpu makes them, before the "
                 "clock starts; the ids are copied out of its result vector after it stops")


def options(p):
    SOURCE.add_options(p)
    building.add_arch_option(p)


# --- the source and the build ---------------------------------------------------------------

BUILT = building.SourceBuilt(SOURCE, "skyalign", "LICENSE.md")
home, source = BUILT.home, BUILT.source_dir


def build_plan(args, nvcc, arch):
    """(the driver's place, its build record)."""
    return building.nvcc_build_plan(home(args), "skyalign-ladder", nvcc, arch, NVCC_FLAGS, SOURCE, DRIVER)


def build(args):
    """ladder's driver and SkyAlign's units, once per (source, arch, nvcc, flags, driver): the
    units compiled in parallel (skyAlign.cu's twenty instantiations take the longest), then
    device-linked. The check on known points needs a GPU and is made before any point runs
    (setup)."""
    nvcc, arch = building.nvcc_and_arch(args, LABEL)

    def compile_into(src, tmp, info):
        objects = building.compile_objects(nvcc, [*info["flags"], f"-I{src / 'src'}"],
                                           [src / u for u in UNITS] + [DRIVER], tmp)
        out = tmp / "skyalign-ladder"
        building.run_tool([nvcc, *info["flags"], *map(str, objects), "-o", str(out)], "linking SkyAlign failed")
        return out
    plan = build_plan(args, nvcc, arch)
    return BUILT.build(args, plan, compile_into, f"for {plan[1]['arch']}")


def prepare(args):
    """--build-only: the driver built for the GPU at hand or --arch, checked where a GPU is."""
    exe, info = build(args)  # what it needs first (nvcc, an architecture), then the source
    checked = "checked on known points"
    if building.gpu_missing():
        checked = "not checked: no GPU here (checked on known points before a run's first point)"
    else:
        check(exe)
    return (f"SkyAlign {SHORT} source: {basics.shown(source(args))}\n"
            f"{info['arch']}: {basics.shown(exe)} ({checked})")


# --- the driver and its check ---------------------------------------------------------------

class Unsupported(Exception):
    """The driver cannot run these points (its reason)."""


class Driver(building.DriverProcess):
    """The driver on one set of points, in a child process: one `run` line per call."""

    def __init__(self, exe, pts):
        super().__init__(LABEL, "skyalign-")
        try:
            np.ascontiguousarray(pts, np.float32).tofile(self.folder / "points.f32")
            self.ids = self.folder / "ids.i32"
            self.start([exe, self.folder / "points.f32", pts.shape[0], pts.shape[1]])
            first = self.proc.stdout.readline().split(maxsplit=1)
            (self.folder / "points.f32").unlink()  # on the device by now
            if first[:1] == ["unsupported"]:
                raise Unsupported(first[1].strip())
            if first[:1] != ["ready"]:
                self.fail("starting")
        except BaseException:
            self.close()
            raise

    def call(self):
        """(wall ms, extended-only count, ids) of one run_skyalign()."""
        ms, count, extended = self.ask(f"run {self.ids}", 3, "during run_skyalign()")
        ids = np.fromfile(self.ids, np.int32)
        if len(ids) != int(count):
            raise RuntimeError(f"the driver says {count} ids but wrote {len(ids)}")
        return float(ms), int(extended), ids


def known(d):
    """Points of d attributes in [0, 1] and their skyline by brute force: a seeded set with ties
    and exact duplicates (values on a grid of 0.25) mixed in with continuous ones (as
    skybench.py's)."""
    rng = np.random.default_rng(20151)
    pts = rng.random((300, d), dtype=np.float32)
    pts[::3] = np.round(pts[::3] * 4) / 4
    pts[1::7] = pts[::7][:len(pts[1::7])]
    le = (pts[:, None, :] <= pts[None, :, :]).all(axis=2)
    lt = (pts[:, None, :] < pts[None, :, :]).any(axis=2)
    return pts, np.flatnonzero(~(le & lt).any(axis=0))


def check(exe):
    """run_skyalign() through the driver gives the brute-force skyline of known points at
    d = 1, 2, 3, 8, 16 and 20 (its scalar path, both halves of its dominance test, and the
    widest templates), or a RuntimeError (the build, the driver or SkyAlign here is wrong)."""
    for d in (1, 2, 3, 8, 16, MAX_D):
        pts, want = known(d)
        with Driver(exe, pts) as driver:
            ids = driver.call()[2]
        got = np.unique(ids)
        if len(got) != len(ids) or not np.array_equal(got, want):
            raise RuntimeError(f"SkyAlign (d = {d}) gives {len(ids)} skyline ids on the known "
                               f"points, want {len(want)} (those of a brute force): the build or "
                               "the driver is wrong")


# --- the peer -------------------------------------------------------------------------------

def ready(args):
    return building.nvcc_ready(args, f"SkyAlign {SHORT}", home(args) / "source", "src/sdsc/skyAlign.cuh",
                             lambda nvcc, arch: build_plan(args, nvcc, arch))


def setup(args):
    if args.source:  # checked (and copied into the cache) even where the build is made
        source(args)
    basics.require(building.gpu_missing(), error=PeerError)
    exe, info = build(args)
    check(exe)  # before any point: the build and the driver on known points
    return {"exe": exe}, {
        "version": f"git {COMMIT}", "repository": "github.com/sean-chester/skycube-templates",
        "license": "MIT", "source_digest": SOURCE_DIGEST, "build": info,
        "driver": basics.shown(DRIVER), "timing_method": TIMING_METHOD}


def variants(args, lib):
    return [{"name": VARIANT, "label": LABEL, "backend": "gpu", "precision": "fp32",
             "change": f"peer: SkyAlign {SHORT} run_skyalign() (median/quartile partitioning, "
                       "level-wise dominance rounds on the GPU) on the full space"}]


def unsupported(point):
    params = point["params"]
    if "n" in params and int(params["n"]) < 1:
        return "an empty set: SkyAlign's partitioning reads its first partition"
    if "d" in params and not 1 <= int(params["d"]) <= MAX_D:
        return f"d = {params['d']}: SkyAlign's run_skyalign() has templates for d = 1 to {MAX_D}"
    return ""


def unsupported_values(pts):
    """'' when SkyAlign can run these values, else why not."""
    if not np.isfinite(pts).all():
        return "non-finite values: SkyAlign's comparisons assume ordered values"
    if pts.max(axis=1).min() > PRUNE_START:
        return (f"no point has every attribute <= {PRUNE_START:g}: SkyAlign's first pruning "
                f"pass starts its minimum from {PRUNE_START:g} and would drop skyline points")
    return ""


from_dump = study_data.skyline_from_dump(LABEL)


def run(point, path, args, lib):
    pts = study_data.skyline_points(path)
    n, d = pts.shape
    why = unsupported({"params": {"n": n, "d": d}}) or unsupported_values(pts)
    if why:
        return [{"variant": VARIANT, "unsupported": why}]
    walls, extended = [], []

    def call():
        ms, ext, ids = driver.call()
        walls.append(ms)
        extended.append(ext)
        return ids
    try:
        with Driver(lib["exe"], pts) as driver:
            del pts
            timing, ids, _ = timer.timed(call, point, "gpu")
    except Unsupported as err:
        return [{"variant": VARIANT, "unsupported": basics.one_line(err)}]
    kept = len(timing["samples_ms"])  # the driver's own times of the timed calls
    timing["samples_ms"] = [max(w, 1e-6) for w in walls[-kept:]]
    return [dict(timing, variant=VARIANT, outputs=study_data.skyline_flags(LABEL, ids, n),
                 facts={"extended_only": extended[-1]})]


if __name__ == "__main__":
    sys.exit(cli.main(sys.modules[__name__]))

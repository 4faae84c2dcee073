#!/usr/bin/env python3
"""SkyBench (Chester, Sidlauskas, Assent and Bogh 2015; sean-chester/SkyBench, MIT) as a peer
of the skyline study: its Hybrid on every core and BSkyTree on one, built from its source for
each d, on the points `ladder gen` writes (peers/README.md). SkyBench is never vendored: its
source is fetched (or taken from --source) into peers/cache/ at benchmark time."""
import argparse
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from .. import basics, building, cli, planning, study_data, timer
from ..basics import PeerError

COMMIT = "fbec7e78cef502ef4c348f33c5b0fc1739f8cade"  # master since Dec 2019 (SkyBench 1.1)
SHORT = COMMIT[:7]
STUDY = "skyline"  # as cli.main sets it from the folder
LABEL = "SkyBench"
DATA_SUFFIX = ".npy"
# What is used of the repository: makefile, LICENSE.md and src/ (not the workloads/ data sets).
# Their digest: sha256 of the lines "PATH GIT_BLOB_ID\n" sorted by path, as `git ls-tree -r
# COMMIT -- makefile LICENSE.md src` lists them: any copy of COMMIT's files gives it.
SOURCE_DIGEST = "56d3530de2b01108d9714d52a4e2628c5dac8730a540bd1b4ac5298e8a2c9e9d"
SOURCE = building.PinnedSource(LABEL, "sean-chester/SkyBench", COMMIT, SOURCE_DIGEST, ["makefile", "LICENSE.md"], ["src"])
DRIVER = Path(__file__).with_name("skybench_driver.cpp")
PREPARE = {"--build-only": ("fetch SkyBench's source (or copy --source) into the cache and "
                            "build it for the d of CONFIG's points and --dims, print the "
                            "builds, stop", lambda args: prepare(args))}
# The makefile's CXXFLAGS and LDFLAGS (make all DIMS=d: V=VERBOSE, DT=0, PROFILER=0). -m64 and
# -mavx are x86-64's: elsewhere they are left out, and SkyBench's scalar dominance tests serve.
CXXFLAGS = ["-O3", "-m64", "-DNDEBUG", "-DNUM_DIMS={d}", "-DVERBOSE", "-DCOUNT_DT=0",
            "-DPROFILER=0", "-Wno-deprecated", "-Wno-write-strings", "-nostdlib",
            "-Wpointer-arith", "-Wcast-qual", "-Wcast-align", "-std=c++0x", "-fopenmp", "-mavx"]
LDFLAGS = ["-m64", "-lrt", "-fopenmp"]
X86_ONLY = {"-m64", "-mavx"}
# Hybrid's partition code is level << d | mask in a uint32 (EPTUPLE in src/common/common.h):
# d <= 27 fits. Past that SkyBench's bitmaps overflow.
MAX_D = 27
# variant: (the driver's algorithm, SkyBench's name, threads: None for every core)
ALGORITHMS = {"peer_skybench_hybrid": ("hybrid", "Hybrid", None),
              "peer_skybench_bskytree": ("bskytree", "BSkyTree", 1)}
TIMING_METHOD = ("SkyBench's own span, timed in the driver as its testdriver.cpp times it: "
                 "Init() (copy of the points into its structures; Hybrid's pre-filter, "
                 "partitioning and sort) then Execute(), on std::chrono::steady_clock; the "
                 "solver is made before the clock starts (as testdriver.cpp does) and deleted "
                 "after it stops; the points are in memory before the first call")


def options(p):
    SOURCE.add_options(p)
    p.add_argument("--threads", type=count, help="Hybrid's threads (default: every core this "
                   "process may use)")
    p.add_argument("--dims", type=dims, default=[], metavar="LIST",
                   help="with --build-only: also build for these d (comma-separated)")


def count(text):
    if not text.isdigit() or not 1 <= int(text) <= 4096:
        raise argparse.ArgumentTypeError(f"a thread count from 1 to 4096, not {text!r}")
    return int(text)


def dims(text):
    parts = text.split(",")
    if not all(p.isdigit() and 1 <= int(p) <= MAX_D for p in parts):
        raise argparse.ArgumentTypeError(f"d values from 1 to {MAX_D}, comma-separated, "
                                         f"not {text!r}")
    return sorted({int(p) for p in parts})


BUILT = building.SourceBuilt(SOURCE, "skybench", "LICENSE.md")
home, source = BUILT.home, BUILT.source_dir


def compiler():
    """The C++ compiler: $CXX, else g++ (the makefile's CC); None when it is not found."""
    name = os.environ.get("CXX", "g++")
    return shutil.which(name)


def flags(d):
    x86 = platform.machine() in ("x86_64", "AMD64")
    keep = [f.format(d=d) for f in CXXFLAGS if x86 or f not in X86_ONLY]
    return keep, [f for f in LDFLAGS if x86 or f not in X86_ONLY]


def build_plan(args, d, cxx):
    """(the driver's place, its build record) for d."""
    version = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout
    cxxflags, ldflags = flags(d)
    info = {"commit": COMMIT, "source_digest": SOURCE_DIGEST, "d": d,
            "compiler": (version.splitlines() or ["?"])[0], "cxxflags": cxxflags,
            "ldflags": ldflags,
            "driver_sha256": hashlib.sha256(DRIVER.read_bytes()).hexdigest()}
    key = building.build_key(info)
    exe = home(args) / f"build-d{d}-{key}" / "skybench-ladder"
    return exe, dict(info, driver=basics.shown(exe))


def build(args, d):
    """SkyBench's objects (every src/*.cpp but testdriver.cpp) and ladder's driver, compiled
    with the makefile's flags for NUM_DIMS = d, once per (source, d, compiler, flags, driver);
    checked on known input before it is kept."""
    cxx = compiler()
    if not cxx:
        raise PeerError(f"no C++ compiler ({os.environ.get('CXX', 'g++')} not found; set CXX): "
                        "SkyBench is built from source")

    def compile_into(src, tmp, info):
        units = sorted(p for p in (src / "src").rglob("*.cpp") if p.name != "testdriver.cpp")
        objects = building.compile_objects(cxx, [*info["cxxflags"], f"-I{src / 'src'}"], [*units, DRIVER], tmp,
                                           jobs=os.cpu_count() or 1)
        out = tmp / "skybench-ladder"
        building.run_tool([cxx, "-o", str(out), *map(str, objects), *info["ldflags"]], "linking SkyBench failed")
        check(out, d)
        return out
    return BUILT.build(args, build_plan(args, d, cxx), compile_into, f"for d = {d}")


def known(d):
    """Points of d attributes and their skyline by brute force: a seeded set with ties and
    exact duplicates (values on a grid of 0.25) mixed in with continuous ones."""
    rng = np.random.default_rng(20151)
    pts = rng.random((300, d), dtype=np.float32)
    pts[::3] = np.round(pts[::3] * 4) / 4
    pts[1::7] = pts[::7][:len(pts[1::7])]
    le = (pts[:, None, :] <= pts[None, :, :]).all(axis=2)
    lt = (pts[:, None, :] < pts[None, :, :]).any(axis=2)
    return pts, np.flatnonzero(~(le & lt).any(axis=0))


def check(exe, d):
    """Both algorithms through the driver on the known points give their skyline, or a
    RuntimeError (the build, the driver's calls, or SkyBench on this machine is wrong)."""
    pts, want = known(d)
    with Driver(exe, pts) as driver:
        for name, (algorithm, title, threads) in ALGORITHMS.items():
            _, _, ids = driver.call(algorithm, threads or 2)
            got = np.unique(ids)
            if len(got) != len(ids) or not np.array_equal(got, want):
                raise RuntimeError(f"SkyBench {title} (d = {d}) gives {len(ids)} skyline ids on "
                                   f"the known points, want {len(want)} (those of a brute force): "
                                   "the build or the driver is wrong")


class Driver(building.DriverProcess):
    """The driver on one set of points, in a child process: one `run` line per call."""

    def __init__(self, exe, pts):
        super().__init__(LABEL, "skybench-")
        try:
            np.ascontiguousarray(pts, np.float32).tofile(self.folder / "points.f32")
            self.ids = self.folder / "ids.i32"
            self.start([exe, self.folder / "points.f32", len(pts)])
        except BaseException:
            self.close()
            raise

    def call(self, algorithm, threads):
        """(wall ms, CPU ms, ids) of one Init() + Execute()."""
        wall, cpu, count = self.ask(f"run {algorithm} {threads} {self.ids}", 3, f"during {algorithm}")
        ids = np.fromfile(self.ids, np.int32)
        if len(ids) != int(count):
            raise RuntimeError(f"the driver says {count} ids but wrote {len(ids)}")
        return float(wall), float(cpu), ids

def threads(args):
    if args.threads:
        return args.threads
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def config_dims(args):
    """The d of the config's points that SkyBench can run (a file's d is known once read)."""
    if not args.config:
        return []
    points = planning.plan_points(args, STUDY)
    return sorted({int(p["params"]["d"]) for p in points
                   if "d" in p["params"] and not unsupported(p)})


def prepare(args):
    """--build-only: the source, and the builds for the config's d and --dims."""
    wanted = sorted(set(config_dims(args)) | set(args.dims))
    src = source(args)
    lines = [f"SkyBench {SHORT} source: {basics.shown(src)}"]
    for d in wanted:
        exe, _ = build(args, d)
        lines.append(f"d = {d}: {basics.shown(exe)}")
    return "\n".join(lines)


def ready(args):
    src = home(args) / "source"
    has_source = (src / "makefile").is_file()  # digest checked when used: no reading here
    builds = sorted(int(m.group(1)) for p in home(args).glob("build-d*-*/skybench-ladder")
                    if (m := re.match(r"build-d(\d+)-", p.parent.name)))
    cxx = compiler()
    basics.require("" if has_source else f"no SkyBench {SHORT} source in {basics.shown(src)} "
                                         f"({basics.fetch_hint(args)}, or give --source DIR)",
                   "" if cxx else f"no C++ compiler ({os.environ.get('CXX', 'g++')} not found; "
                                  "set CXX)")
    made = f"built for d = {', '.join(map(str, builds))}; " if builds else ""
    return (f"SkyBench {SHORT} from {basics.shown(src)}, {made}a point's d is built on the "
            f"first run with {Path(cxx).name}")


def setup(args):
    if args.source:  # checked (and copied into the cache) even where every build is made
        source(args)
    lib = {"builds": {}}
    for d in config_dims(args):  # every build made and checked before any point runs
        lib["builds"][d] = build(args, d)
    cxx = compiler()
    if not cxx:  # a config whose points SkyBench cannot run builds nothing
        raise PeerError(f"no C++ compiler ({os.environ.get('CXX', 'g++')} not found; set CXX): "
                        "SkyBench is built from source")
    _, info = build_plan(args, "D", cxx)  # what every build shares; D stands for the point's d
    return lib, {"version": f"git {COMMIT}", "repository": "github.com/sean-chester/SkyBench",
                 "license": "MIT", "source_digest": SOURCE_DIGEST, "compiler": info["compiler"],
                 "cxxflags": info["cxxflags"], "ldflags": info["ldflags"],
                 "driver": basics.shown(DRIVER), "driver_sha256": info["driver_sha256"],
                 "builds": {str(d): basics.shown(exe) for d, (exe, _) in lib["builds"].items()},
                 "hybrid_threads": threads(args), "timing_method": TIMING_METHOD}


def variants(args, lib):
    out = []
    for name, (algorithm, title, fixed) in ALGORITHMS.items():
        n = fixed or threads(args)
        how = (f"Hybrid (two-level quad-tree partitioning, memoised point-to-point relations) on "
               f"{n} threads" if algorithm == "hybrid" else
               "BSkyTree (balanced pivot selection), sequential")
        out.append({"name": name, "label": f"{LABEL} {title}", "backend": "cpu",
                    "precision": "fp32",
                    "change": f"peer: SkyBench {SHORT} {how}, compiled for the point's d; "
                              "Init() + Execute() timed as SkyBench's testdriver times them"})
    return out


def unsupported(point):
    params = point["params"]
    if "n" in params and int(params["n"]) < 1:
        return "an empty set: SkyBench's Hybrid reads its first point"
    if "d" in params and int(params["d"]) > MAX_D:
        return (f"d = {params['d']}: SkyBench's partition bitmaps (level << d | mask in 32 bits) "
                f"hold d <= {MAX_D}")
    return ""


from_dump = study_data.skyline_from_dump(LABEL)


def run(point, path, args, lib):
    pts = study_data.skyline_points(path)
    n, d = pts.shape
    if n < 1 or d > MAX_D:
        why = unsupported({"params": {"n": n, "d": d}})
        return [{"variant": v, "unsupported": why} for v in ALGORITHMS]
    if d not in lib["builds"]:  # a point read from a file: its d is known now
        lib["builds"][d] = build(args, d)
    exe = lib["builds"][d][0]
    runs = []
    for name, (algorithm, _, fixed) in ALGORITHMS.items():
        n_threads = fixed or threads(args)
        walls, cpus = [], []

        def call():
            wall, cpu, ids = driver.call(algorithm, n_threads)
            walls.append(wall)
            cpus.append(cpu)
            return ids
        try:
            with Driver(exe, pts) as driver:
                timing, ids, _ = timer.timed(call, point, "cpu")
            outputs = study_data.skyline_flags(LABEL, ids, n)
        except RuntimeError as err:
            runs.append({"variant": name, "error": basics.one_line(err)})
            continue
        kept = len(timing["samples_ms"])  # the driver's own times of the timed calls
        timing["samples_ms"] = [max(w, 1e-6) for w in walls[-kept:]]
        busy = sum(cpus[-kept:]) / max(sum(walls[-kept:]), 1e-9)
        runs.append(dict(timing, variant=name, outputs=outputs,
                         facts={"threads": n_threads, "threads_busy": round(busy, 3)}))
    return runs


if __name__ == "__main__":
    sys.exit(cli.main(sys.modules[__name__]))

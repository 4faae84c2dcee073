#!/usr/bin/env python3
"""cuDTW++ (Schmidt and Hundt, Euro-Par 2020; asbschmidt/cuDTW, Apache-2.0) as a peer of the dtw
study: its full-warp and sub-warp kernels, called through its own dist() by a small driver of
ladder's built with nvcc against the fetched source, on the CBF series `ladder gen` writes
(peers/README.md). cuDTW++ is never vendored: its source is fetched (or taken from --source)
into peers/cache/ at benchmark time."""
import os
import sys
from pathlib import Path

import numpy as np

from .. import basics, building, cli, timer
from ..basics import PeerError

# master since May 2020 ("added base functionality"), the repository's last commit
COMMIT = "0e89d3408fa66440603206548a030b9f05214706"
SHORT = COMMIT[:7]
STUDY = "dtw"  # as cli.main sets it from the folder
LABEL = "cuDTW++"
DATA_SUFFIX = ".txt"  # the dtw study writes UCR text: a label, then the values, tab-separated
# What is used of the repository: LICENSE and src/ (src/include/ is compiled; src/Makefile and
# src/main.cu for the record). Their digest: sha256 of the lines "PATH GIT_BLOB_ID\n" sorted by
# path, as `git ls-tree -r COMMIT -- LICENSE src` lists them: any copy of COMMIT's files gives it.
SOURCE_DIGEST = "7eda395fe47e1d09db23a3b90e45cd193ff329238bda79b8c491558499be18c8"
SOURCE = building.PinnedSource(LABEL, "asbschmidt/cuDTW", COMMIT, SOURCE_DIGEST, ["LICENSE"], ["src"])
DRIVER = Path(__file__).with_name("cudtw_driver.cu")
PREPARE = {"--build-only": ("fetch cuDTW++'s source (or copy --source) into the cache and build "
                            "the driver for the local GPU (or --arch), print it, stop",
                            lambda args: prepare(args))}
# src/Makefile: nvcc -O3 -std=c++14 -arch=sm_70 -Xcompiler="-fopenmp -march=native". The
# architecture is the GPU's at hand; OpenMP and -march=native served main.cu's CBF generator
# on the host, which the driver does not use.
NVCC_FLAGS = ["-O3", "-std=c++14"]
# The series lengths dist() has kernels for (database mode): shfl_FullDTW_<L> for each, and
# sub_warp_DTW<(L + 1) / 32> for all but 2047.
LENGTHS = (127, 255, 511, 1023, 2047)
# A value whose square overflows float32: laid out before and after a series (the same in the
# query), it adds cells of cost 0 among themselves and +inf against any real value (ladder keeps
# |values| <= 1e15), so the DP's border is what ladder's is and the distance is unchanged.
SENTINEL = np.float32(1e30)
ENTRY_MULTIPLE = 8  # dist() launches COUNT / (32 / g) sub-warp blocks, rounding down (g >= 4)
# variant: (the driver's kernel, label, what it runs)
KERNELS = {"peer_cudtw_warp": ("warp", "full-warp", "dist(subwarp=false): shfl_FullDTW_<L>, a "
                               "warp per subject (32 lanes of (L+1)/32 DP columns in registers), "
                               "one launch per query"),
           "peer_cudtw_subwarp": ("subwarp", "sub-warp", "dist(subwarp=true): sub_warp_DTW<g>, "
                                  "g = (L+1)/32 lanes of 32 DP columns per subject, 32/g subjects "
                                  "per warp; sub_warp_DTW_multi_query for groups of 2-16 queries")}


# cuDTW++'s kernels of 32 or more DP columns per lane (sub_warp_DTW, its multi-query form, and
# shfl_FullDTW_1023 and _2047) take, in the last step of their wavefront, the diagonal of cell 16
# from penalty_diag (the left lane's column) instead of penalty_temp1 (cell 15's): one cell of
# the last row of the last lane of each subject reads a wrong predecessor, and the distance can
# come out low. The sentinel after a padded series makes that row +inf but for the corner, which
# then takes D[n][n] exactly; at cuDTW++'s own lengths nothing guards it.
def kernel_name(kernel, length):
    return f"shfl_FullDTW_{length}" if kernel == "warp" else f"sub_warp_DTW<{(length + 1) // 32}>"


def defect(kernel, length):
    """Whether cuDTW++'s KERNEL at LENGTH has the last-row defect."""
    return kernel == "subwarp" or length >= 1023


TIMING_METHOD = ("CUDA events in the driver around a run's launches on one stream: for each "
                 "group of queries a device-to-device copy into cuDTW++'s constant-memory query "
                 "cQuery and a call of its dist(); subjects and queries are on the device and "
                 "the distances poisoned with NaN before the clock starts, copied back after it "
                 "stops")
BANDED = "a Sakoe-Chiba band: cuDTW++ computes unconstrained DTW only"
PADDING = {"mode": "auto"}  # --padding, for unsupported() (which sees only the point)


def options(p):
    SOURCE.add_options(p)
    building.add_arch_option(p)
    p.add_argument("--padding", choices=("auto", "off"), default="auto",
                   help="auto (default): a length cuDTW++ has no kernel for runs at the next "
                        "one, between sentinel values (exact distances, more cells); off: only "
                        "n = 127, 255, 511, 1023, 2047")


# --- the source and the build: building.SourceBuilt -----------------------------------------

BUILT = building.SourceBuilt(SOURCE, "cudtw", "LICENSE")
home, source = BUILT.home, BUILT.source_dir


def build_plan(args, nvcc, arch):
    """(the driver's place, its build record)."""
    return building.nvcc_build_plan(home(args), "cudtw-ladder", nvcc, arch, NVCC_FLAGS, SOURCE, DRIVER)


def build(args):
    """ladder's driver compiled against cuDTW++'s src/include/, once per (source, arch, nvcc,
    flags, driver)."""
    nvcc, arch = building.nvcc_and_arch(args, LABEL)

    def compile_into(src, tmp, info):
        out = tmp / "cudtw-ladder"
        building.run_tool([nvcc, *info["flags"], f"-I{src / 'src' / 'include'}", str(DRIVER), "-o", str(out)],
                          "nvcc failed building cuDTW++")
        return out
    plan = build_plan(args, nvcc, arch)
    return BUILT.build(args, plan, compile_into, f"for {plan[1]['arch']}")


def prepare(args):
    """--build-only: the driver built for the GPU at hand or --arch, and the source."""
    exe, info = build(args)  # what it needs first (nvcc, an architecture), then the source
    src = source(args)
    return (f"cuDTW++ {SHORT} source: {basics.shown(src)}\n"
            f"{info['arch']}: {basics.shown(exe)}")


# --- the layout: ladder's series in the lengths cuDTW++ has kernels for ----------------------

def kernel_length(n, padding):
    """(the length cuDTW++ runs series of length n at, sentinels before, sentinels after), or
    (None, why not). Its own lengths run as they are; a shorter n goes into the next length up
    with one sentinel after the series and the rest before it."""
    if n > LENGTHS[-1]:
        return None, (f"n = {n}: cuDTW++'s longest kernel is for length {LENGTHS[-1]}")
    if n in LENGTHS:
        return (n, 0, 0), ""
    if padding == "off":
        return None, (f"n = {n}: cuDTW++ has kernels for lengths "
                      f"{', '.join(map(str, LENGTHS))} only (--padding auto runs it at the next "
                      "one, between sentinel values)")
    length = next(size for size in LENGTHS if size > n)
    return (length, length - 1 - n, 1), ""


def laid_out(values, length, before, count):
    """COUNT rows of LENGTH float32: VALUES' rows between sentinels, then sentinel rows."""
    out = np.full((count, length), SENTINEL, np.float32)
    out[:len(values), before:before + values.shape[1]] = values
    return out


def run_note(kernel, n, layout):
    """What a run's note says of the layout."""
    length, before, after = layout
    if length != n:
        return (f"cuDTW++ has kernels for lengths {', '.join(map(str, LENGTHS))} only: each "
                f"series ran at length {length}, {before} sentinel values before it and {after} "
                f"after (exact distances; {length ** 2 / n ** 2:.2f}x the cells ladder counts)")
    if defect(kernel, length):
        return (f"cuDTW++'s own length, unguarded: its {kernel_name(kernel, length)} has the "
                "last-row defect (peers/README.md)")
    return "cuDTW++'s own length"


def unsupported(point):
    params = point["params"]
    if "n" not in params:  # a data file's: its n (and whether a band binds) is known once read
        return ""
    n = int(params["n"])
    if "band" in params and int(params["band"]) < n:
        return BANDED
    return kernel_length(n, PADDING["mode"])[1]


# --- the driver ----------------------------------------------------------------------------

class Driver(building.DriverProcess):
    """The driver on one point's subjects and queries, in a child process: one `run` line per
    call."""

    def __init__(self, exe, subjects, queries):
        super().__init__(LABEL, "cudtw-")
        try:
            subjects.tofile(self.folder / "subjects.f32")
            queries.tofile(self.folder / "queries.f32")
            self.shape = (len(queries), len(subjects))
            self.out = self.folder / "dist.f32"
            # Every kernel loaded when the context is made (before "ready"), not at its first
            # launch inside a timed run.
            self.start([exe, self.folder / "subjects.f32", len(subjects), subjects.shape[1],
                        self.folder / "queries.f32", len(queries)],
                       env=dict(os.environ, CUDA_MODULE_LOADING="EAGER"))
            ready = self.proc.stdout.readline().split()
            (self.folder / "subjects.f32").unlink()  # read by now: a large point's copy goes at once
            if ready != ["ready"]:
                self.fail("starting")
        except BaseException:
            self.close()
            raise

    def call(self, kernel):
        """(CUDA-event ms, launches, Q x COUNT distances) of one run."""
        ms, launches = self.ask(f"run {kernel} {self.out}", 2, f"during a {kernel} run")
        dist = np.fromfile(self.out, np.float32)
        if dist.size != self.shape[0] * self.shape[1]:
            raise RuntimeError(f"the driver wrote {dist.size} distances, want "
                               f"{self.shape[0] * self.shape[1]}")
        return float(ms), int(launches), dist.reshape(self.shape)

def dtw(queries, subjects):
    """ladder's DTW (squared costs, no root, unconstrained) in float64: Q x entries."""
    n = subjects.shape[1]
    out = np.empty((len(queries), len(subjects)))
    for k, q in enumerate(np.asarray(queries, np.float64)):
        prev = np.full((len(subjects), n + 1), np.inf)
        prev[:, 0] = 0
        for i in range(n):
            cost = (q[i] - subjects) ** 2
            cur = np.full_like(prev, np.inf)
            for j in range(1, n + 1):
                cur[:, j] = cost[:, j - 1] + np.minimum(np.minimum(prev[:, j - 1], prev[:, j]),
                                                        cur[:, j - 1])
            prev = cur
        out[k] = prev[:, n]
    return out


def check(exe):
    """Both kernels through the driver on known series give ladder's DTW, or a RuntimeError (the
    build, the driver or the layout is wrong): random walks of length 100 (at 127: 26 sentinels
    before, one after) with 3 queries (the sub-warp kernel's groups of 2 and 1) and 13 subjects
    (three padding rows), and of length 200 (at 255) with one query."""
    rng = np.random.default_rng(2020)
    for n, entries, queries in ((100, 13, 3), (200, 5, 1)):
        values = np.cumsum(rng.normal(size=(entries, n)), axis=1).astype(np.float32)
        (length, before, _), _ = kernel_length(n, "auto")
        count = -(-entries // ENTRY_MULTIPLE) * ENTRY_MULTIPLE
        want = dtw(values[:queries], values)
        with Driver(exe, laid_out(values, length, before, count),
                    laid_out(values[:queries], length, before, queries)) as driver:
            for name, (kernel, title, _) in KERNELS.items():
                got = driver.call(kernel)[2][:, :entries]
                tol = 1e-5 + 4 * n * 2.0 ** -24 * np.abs(want)
                if not np.all(np.abs(got - want) <= tol):
                    worst = np.nanargmax(np.where(np.isnan(got), np.inf, np.abs(got - want)))
                    raise RuntimeError(
                        f"cuDTW++ {title} gives {got.flat[worst]} for a known pair (n = {n}), "
                        f"want {want.flat[worst]:.6g}: the build, the driver or the layout is "
                        "wrong")


# --- the peer ------------------------------------------------------------------------------

def ready(args):
    return building.nvcc_ready(args, f"cuDTW++ {SHORT}", home(args) / "source", "src/include/DTW.hpp",
                             lambda nvcc, arch: build_plan(args, nvcc, arch))


def setup(args):
    if args.source:  # checked (and copied into the cache) even where the build is made
        source(args)
    basics.require(building.gpu_missing(), error=PeerError)
    exe, info = build(args)
    check(exe)  # before any point: the build and the driver on known series
    return {"exe": exe}, {
        "version": f"git {COMMIT}", "repository": "github.com/asbschmidt/cuDTW",
        "license": "Apache-2.0", "source_digest": SOURCE_DIGEST, "build": info,
        "driver": basics.shown(DRIVER), "padding": args.padding,
        "timing_method": TIMING_METHOD}


def variants(args, lib):
    PADDING["mode"] = args.padding
    return [{"name": name, "label": f"{LABEL} {title}", "backend": "gpu", "precision": "fp32",
             "change": f"peer: cuDTW++ {SHORT} {how}; lengths other than 127, 255, 511, 1023, "
                       "2047 run at the next one between sentinel values"}
            for name, (_, title, how) in KERNELS.items()]


def run(point, path, args, lib):
    facts = point["data_facts"]
    data = np.loadtxt(path, dtype=np.float32, delimiter="\t", ndmin=2)
    values = np.ascontiguousarray(data[:, 1:])  # column 0 is the label
    del data
    entries, n = values.shape
    first, queries = int(facts["first_query"]), int(facts["queries"])
    if int(facts["band"]) < n:
        why = BANDED
    else:
        layout, why = kernel_length(n, args.padding)
    if why:
        return [{"variant": v, "unsupported": why} for v in KERNELS]
    length, before, after = layout
    count = -(-entries // ENTRY_MULTIPLE) * ENTRY_MULTIPLE
    subjects = laid_out(values, length, before, count)
    asked = laid_out(values[first:first + queries], length, before, queries)
    del values
    shape = (entries,) if queries == 1 else (queries, entries)
    runs = []
    with Driver(lib["exe"], subjects, asked) as driver:
        del subjects, asked
        for name, (kernel, _, _) in KERNELS.items():
            if kernel == "subwarp" and length == LENGTHS[-1]:
                runs.append({"variant": name, "unsupported": (
                    f"cuDTW++ has no sub-warp kernel for length {length} (its dist() runs the "
                    "full-warp one: peer_cudtw_warp)")})
                continue
            walls, launches = [], []

            def call():
                ms, made, dist = driver.call(kernel)
                walls.append(ms)
                launches.append(made)
                return dist
            try:
                timing, dist, _ = timer.timed(call, point, "gpu")
            except RuntimeError as err:
                runs.append({"variant": name, "error": basics.one_line(err)})
                continue
            kept = len(timing["samples_ms"])  # the driver's own times of the timed calls
            timing["samples_ms"] = [max(w, 1e-6) for w in walls[-kept:]]
            runs.append(dict(timing, variant=name, note=run_note(kernel, n, layout),
                             outputs=np.ascontiguousarray(dist[:, :entries]).reshape(shape),
                             facts={"kernel_length": length, "sentinels_before": before,
                                    "sentinels_after": after, "padding_rows": count - entries,
                                    "cells_ratio": round(length ** 2 / n ** 2, 4),
                                    "launches": launches[-1]}))
    return runs


if __name__ == "__main__":
    sys.exit(cli.main(sys.modules[__name__]))

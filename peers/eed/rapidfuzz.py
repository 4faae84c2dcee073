#!/usr/bin/env python3
"""RapidFuzz's Damerau-Levenshtein distance (unrestricted, unit costs) as a peer of the eed
study (peers/README.md)."""
import importlib
import os
import sys
from pathlib import Path

import numpy as np

from .. import basics, building, cli, imports, study_data, timer

VERSION = "3.14.6"  # what pip installs when rapidfuzz is not importable
LABEL = "RapidFuzz"
DATA_SUFFIX = ".txt"
PREPARE = {"--install-only": ("locate (or install) rapidfuzz, print its version and place, stop",
                              lambda args: where(have(args)))}
VARIANT, SERIAL = "peer_rapidfuzz", "peer_rapidfuzz_serial"
CALLS = {"cpdist": "process.cpdist(A, B, scorer=DamerauLevenshtein.distance, workers=-1)",
         "loop": "a Python loop of DamerauLevenshtein.distance(a, b)"}
# Bytes 0, 9, 13 and 255 among the symbols: the strings are bytes, every byte a symbol.
KNOWN = [(b"CA", b"ABC", 2), (b"ab", b"ba", 1), (b"", b"abc", 3), (b"abcdef", b"badcfe", 3),
         (bytes([0, 9, 13, 255]), bytes([9, 0, 255]), 2)]


def options(p):
    p.add_argument("--rapidfuzz-version", default=VERSION,
                   help=f"what pip installs when rapidfuzz is not importable ({VERSION})")
    p.add_argument("--method", choices=CALLS, default="cpdist", help="process.cpdist on every "
                   "thread (the loop when it refuses the scorer), or a Python loop")
    p.add_argument("--also-serial", action="store_true", help=f"also time the loop as {SERIAL}")


def folder(args):
    return Path(args.cache) / f"rapidfuzz-{args.rapidfuzz_version}-{basics.PY}"


def locate(args):
    """rapidfuzz from the cache's folder, else the environment; None when neither holds it."""
    try:
        return imports.import_from(folder(args), "rapidfuzz")
    except ImportError:
        return None


def wrong(rf):
    """'' when RapidFuzz gives the unrestricted distance on the known pairs, else why not."""
    for a, b, want in KNOWN:
        got = rf.distance.DamerauLevenshtein.distance(a, b)
        if got != want:
            return (f"rapidfuzz {rf.__version__} gives {got} for {a!r} -> {b!r}, want {want}: "
                    "not the unrestricted Damerau-Levenshtein distance")
    return ""


def where(rf):
    return f"rapidfuzz {rf.__version__} from {basics.shown(Path(rf.__file__).parent)}"


def ready(args):
    rf = locate(args)
    if rf is None:
        raise basics.NotReady(f"rapidfuzz is importable neither from {sys.executable} nor "
                              f"from {basics.shown(folder(args))} ({basics.fetch_hint(args)})")
    basics.require(wrong(rf))
    return where(rf)


def have(args):
    """rapidfuzz, checked; pip-installed into the cache's folder when it is not importable."""
    rf = locate(args)
    if rf is None:
        target, wanted = basics.shown(folder(args)), f"rapidfuzz=={args.rapidfuzz_version}"
        basics.fetching(args, f"rapidfuzz is importable neither from {sys.executable} nor "
                              f"from {target}", f"installing {wanted} into {target}")
        building.pip(["install", "--quiet", "--no-deps", "--only-binary", ":all:", "--target",
                    str(folder(args)), wanted], "rapidfuzz")
        importlib.invalidate_caches()
        rf = locate(args)
    if wrong(rf):
        raise RuntimeError(wrong(rf))
    return rf


def cpdist_refusal(rf):
    """'' when process.cpdist takes DamerauLevenshtein.distance on paired inputs."""
    try:
        got = rf.process.cpdist([b"CA", b"ab"], [b"ABC", b"ba"], workers=-1, dtype=np.int32,
                                scorer=rf.distance.DamerauLevenshtein.distance)
    except (AttributeError, TypeError, ValueError) as err:
        return f"process.cpdist refuses DamerauLevenshtein.distance: {err}"
    return "" if np.asarray(got).reshape(-1).tolist() == [2, 1] else "cpdist gives wrong values"


def methods(args):
    """{variant: how it calls RapidFuzz}."""
    return {VARIANT: args.method, **({SERIAL: "loop"} if args.also_serial else {})}


def setup(args):
    rf = have(args)
    refusal = cpdist_refusal(rf) if args.method == "cpdist" else ""
    if refusal:
        basics.note(args, f"{refusal}: timing the loop instead")
        args.method = "loop"
    return rf, {"version": rf.__version__, "location": basics.shown(Path(rf.__file__).parent),
                "function": "rapidfuzz.distance.DamerauLevenshtein.distance",
                "methods": methods(args), "cpdist_fallback": refusal,
                "timing_method": f"wall clock (time.perf_counter) around the whole batch: one "
                                 f"{CALLS['cpdist']} call, or {CALLS['loop']}; the strings are "
                                 "bytes objects made before the clock starts"}


def variants(args, rf):
    version = rf.__version__ if rf else args.rapidfuzz_version
    return [{"name": name, "label": f"RapidFuzz {version}{', serial' if name == SERIAL else ''}",
             "backend": "cpu", "precision": "int32",
             "change": f"peer: RapidFuzz {version} Damerau-Levenshtein (unrestricted, unit "
                       f"costs): {CALLS[method]}; the batch timed with the wall clock"}
            for name, method in methods(args).items()]


def unsupported(point):
    return study_data.non_unit_costs(point, ("w_ins", "w_del", "w_sub", "w_swap"), "RapidFuzz "
                                 "computes the unit-cost Damerau-Levenshtein distance only")


def run(point, path, args, rf):
    distance = rf.distance.DamerauLevenshtein.distance
    a, b = study_data.eed_pairs(path)
    calls = {"cpdist": lambda: rf.process.cpdist(a, b, scorer=distance, workers=-1,
                                                 dtype=np.int32).reshape(-1),
             "loop": lambda: np.fromiter((distance(x, y) for x, y in zip(a, b)), np.int32,
                                         len(a))}
    threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    runs = []
    for name, method in methods(args).items():
        timing, out, busy = timer.timed(calls[method], point, "cpu")
        runs.append(dict(timing, variant=name, outputs=out, facts={
            "threads": threads if method == "cpdist" else 1, "threads_busy": round(busy, 3)}))
    return runs


if __name__ == "__main__":
    sys.exit(cli.main(sys.modules[__name__]))

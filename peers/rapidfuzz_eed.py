#!/usr/bin/env python3
"""RapidFuzz's Damerau-Levenshtein distance as a peer of the eed study: runs
`rapidfuzz.distance.DamerauLevenshtein.distance` on the string pairs of every point of a ladder
config and writes one ladder results file (schema_version 1) with the variant
eed/peer_rapidfuzz, role "peer", backend cpu, so that `ladder compare` and plots/ set RapidFuzz
beside the ladder's steps, point by point.

RapidFuzz's DamerauLevenshtein is the unrestricted Damerau-Levenshtein distance (CA -> ABC is 2)
with unit costs: the eed study's distance at w_ins = w_del = w_sub = w_swap = 1. Points with
other costs are recorded as unsupported. The strings are passed as `bytes`, so every byte is a
symbol (the pairs are exactly the bytes `ladder gen eed` writes).

The package is installed with pip into peers/cache/ (git-ignored) when it is not importable.
Each point's pairs come from `ladder gen eed` with the point's own parameters; the whole batch
is timed with the wall clock (warm-up calls first, then the repetitions; the median is the
run's time): by default with `rapidfuzz.process.cpdist(A, B, scorer=DamerauLevenshtein.distance,
workers=-1)` (paired inputs, all hardware threads), else a Python loop over the pairs
(--method loop, or --also-serial for a second variant eed/peer_rapidfuzz_serial). Distances
are checked exactly against an independent Lowrance-Wagner oracle (peers/eed_common.py) on the
pairs the point's validation asks for.

Usage: python3 peers/rapidfuzz_eed.py CONFIG.json --out FILE.json [--ladder build/ladder]
           [--repetitions N] [--warmup N] [--max-pairs N] [--max-n N] [--only-sweeps A,B]
           [--validate full|sample:N|off] [--max-cells X] [--method cpdist|loop]
           [--also-serial] [--rapidfuzz-version V] [--no-install] [--dump-outputs DIR]
           [--dry-run-fake] [--quiet]
       python3 peers/rapidfuzz_eed.py --install-only [--no-install]   # locate or install, stop
Exit status: 0 when every run passed or is unsupported/skipped, 1 when a run failed or
errored, 2 on bad input or when RapidFuzz cannot be had (one line on stderr).
"""
import importlib.util
import sys
from pathlib import Path

import numpy as np


# peers/common.py by path, as `ladder_peers_common` (never plots/common.py); common.load does
# the same for the other files of peers/.
_SPEC = importlib.util.spec_from_file_location("ladder_peers_common",
                                               Path(__file__).with_name("common.py"))
common = sys.modules.setdefault("ladder_peers_common", importlib.util.module_from_spec(_SPEC))
if common.__spec__ is _SPEC:
    _SPEC.loader.exec_module(common)
eed = common.load("eed_common")
PeerError = common.PeerError
SCRIPT = "rapidfuzz_eed.py"
VERSION = "3.14.6"  # installed when rapidfuzz is not importable (--rapidfuzz-version)
VARIANT, SERIAL_VARIANT = "peer_rapidfuzz", "peer_rapidfuzz_serial"
RULE = "exact: integer distances"
TIMING_METHOD = ("wall clock (time.perf_counter) around the whole batch: one "
                 "process.cpdist(A, B, scorer=DamerauLevenshtein.distance, workers=-1) call, or a "
                 "Python loop of DamerauLevenshtein.distance(a, b) over the pairs; the strings "
                 "are Python bytes objects made before the clock starts")


def note(text, quiet=False):
    common.note(SCRIPT, text, quiet)


# ---- RapidFuzz -------------------------------------------------------------------------------

def target_folder(version, cache):
    """peers/cache/rapidfuzz-VERSION-pyXY/: where locate() looks first and pip installs."""
    return Path(cache) / f"rapidfuzz-{version}-{eed.python_tag()}"


def locate(version, cache, install, quiet):
    """The rapidfuzz module: from peers/cache/rapidfuzz-VERSION-pyXY/ when there, else the
    environment's, else pip-installed into that folder (unless install is False)."""
    target = target_folder(version, cache)
    if target.is_dir() and str(target) not in sys.path:
        sys.path.insert(0, str(target))
    try:
        import rapidfuzz
        return rapidfuzz
    except ImportError:
        pass
    if not install:
        raise PeerError(f"rapidfuzz is not importable (nor in {target}) and --no-install was "
                        "given")
    note(f"installing rapidfuzz=={version} with pip into {target}", quiet)
    eed.pip(["install", "--quiet", "--no-deps", "--only-binary", ":all:", "--target",
             str(target), f"rapidfuzz=={version}"], f"rapidfuzz=={version}")
    if str(target) not in sys.path:
        sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    try:
        import rapidfuzz
    except ImportError as err:
        raise PeerError(f"rapidfuzz installed into {target} but does not import: {err}") from err
    return rapidfuzz


def cpdist_supported(rf):
    """'' when process.cpdist takes DamerauLevenshtein.distance on paired inputs (and gives the
    right answers), else why not."""
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein
    if not hasattr(process, "cpdist"):
        return f"rapidfuzz {rf.__version__} has no process.cpdist"
    try:
        got = process.cpdist([b"CA", b"ab", b""], [b"ABC", b"ba", b"xyz"],
                             scorer=DamerauLevenshtein.distance, workers=-1, dtype=np.int32)
    except (TypeError, ValueError) as err:
        return f"process.cpdist refuses DamerauLevenshtein.distance: {err}"
    if np.asarray(got).reshape(-1).tolist() != [2, 1, 3]:
        return (f"process.cpdist gives {np.asarray(got).tolist()} for the check pairs, "
                "want [2, 1, 3]")
    return ""


def golden(rf):
    """RapidFuzz itself on the known pairs (the unrestricted distance, bytes symbols)."""
    from rapidfuzz.distance import DamerauLevenshtein
    for a, b, want in eed.KNOWN["eed"] + [(bytes([0, 9, 13, 255]), bytes([9, 0, 255]), 2)]:
        got = DamerauLevenshtein.distance(a, b)
        if got != want:
            raise RuntimeError(f"rapidfuzz {rf.__version__} gives {got} for {a!r} -> {b!r}, "
                               f"want {want}: not the unrestricted Damerau-Levenshtein distance")


def callers(method):
    """call(A, B) -> distances for the method."""
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein
    distance = DamerauLevenshtein.distance
    if method == "cpdist":
        return lambda a, b: process.cpdist(a, b, scorer=distance, workers=-1,
                                           dtype=np.int32).reshape(-1)
    return lambda a, b: np.fromiter((distance(x, y) for x, y in zip(a, b)), np.int64, len(a))


# ---- one point -------------------------------------------------------------------------------

def specs(state):
    """The variants this run writes: {variant: run spec}."""
    out = {}
    for variant, method in state["methods"].items():
        threads = state["threads"] if method == "cpdist" else 1
        call = ("process.cpdist(A, B, scorer=DamerauLevenshtein.distance, workers=-1)"
                if method == "cpdist" else "a Python loop of DamerauLevenshtein.distance(a, b)")
        out[variant] = {
            "variant": variant, "label": f"{state['label']}" + (", serial" if variant ==
                                                                 SERIAL_VARIANT else ""),
            "change": f"peer: {state['label']} DamerauLevenshtein (unrestricted, unit costs): "
                      f"{call}, {threads} thread{'s' if threads > 1 else ''}; the batch timed "
                      "with the wall clock",
            "backend": "cpu", "precision": "int", "rule": RULE,
            "distance": "damerau-levenshtein (unrestricted, unit costs)",
            "method": method if not state["fake"] else f"{method} (dry-run-fake: not called)",
            "threads": threads}
    return out


def point_runs(point, settings, state, folder):
    spec = specs(state)
    params, runs, inputs = eed.point_inputs(point, settings, state, folder, spec.values(),
                                            "Damerau-Levenshtein distance")
    if inputs is None:
        return runs
    a_list, b_list, data, indices, text, why = inputs
    for variant, s in spec.items():
        if state["fake"]:
            samples, got = eed.fake_outputs(a_list, b_list, indices, "eed", settings.repetitions)
        else:
            call = state["callers"][state["methods"][variant]]
            try:
                samples, got, busy = eed.timed(lambda _: call(a_list, b_list),
                                               settings.warmup, settings.repetitions)
            except Exception as err:  # noqa: BLE001 - a library failure is that run's error
                runs.append(eed.run_json(s, point, params, "error",
                                         f"{type(err).__name__}: {err}", data))
                continue
            eed.dump_outputs(settings.dump_outputs, variant, point, got)
        check, status, reason = eed.judge(got, indices, a_list, b_list, "eed", text, why,
                                          state["fake"], "rapidfuzz")
        run = eed.run_json(s, point, params, status, reason, data, samples, settings.warmup,
                           check)
        if not state["fake"]:  # CPU seconds per wall second of the timed batches
            run["threads_busy"] = round(busy, 3)
        runs.append(run)
    return runs


# ---- setup and main --------------------------------------------------------------------------

def parse_args(argv):
    p = common.Parser(script=SCRIPT, description="Run RapidFuzz's Damerau-Levenshtein distance on an eed config's "
                           "points (a peer of the ladder's eed steps).")
    p.add_argument("config", nargs="?", help="a ladder config of the eed study")
    p.add_argument("--out", help="results file to write (atomically)")
    p.add_argument("--ladder", default=str(common.ROOT / "build" / "ladder"), help="ladder binary")
    p.add_argument("--cache", default=str(eed.CACHE), help="install folder's parent")
    p.add_argument("--rapidfuzz-version", default=VERSION,
                   help=f"version pip installs when rapidfuzz is not importable ({VERSION})")
    p.add_argument("--no-install", action="store_true",
                   help="never run pip: use an importable rapidfuzz or stop")
    p.add_argument("--install-only", action="store_true",
                   help="locate (or install) rapidfuzz, print its version and place, stop")
    p.add_argument("--repetitions", type=int, help="timed batches per run (default: config's CPU)")
    p.add_argument("--warmup", type=int, help="untimed batches first (default: config's CPU)")
    p.add_argument("--max-pairs", type=int, help="leave out points of more pairs than this")
    p.add_argument("--max-n", type=int, help="leave out points whose n is beyond this")
    p.add_argument("--only-sweeps", help="comma-separated sweep labels to run")
    p.add_argument("--validate", help="full, sample:N or off instead of the config's")
    p.add_argument("--max-cells", type=float, default=2.0 ** 28,
                   help="check no pair, and no more in all, of more DP cells per point "
                        "(default 2^28: about 15 s of the numpy oracle)")
    p.add_argument("--method", choices=("cpdist", "loop"), default="cpdist",
                   help="cpdist: process.cpdist with workers=-1 (default, falls back to loop "
                        "when unsupported); loop: DamerauLevenshtein.distance pair by pair")
    p.add_argument("--also-serial", action="store_true",
                   help=f"also time the Python loop as eed/{SERIAL_VARIANT}")
    p.add_argument("--dump-outputs", help="write each run's distances as "
                                          "DIR/eed__VARIANT__POINT.npy (int32), as ladder does")
    p.add_argument("--dry-run-fake", action="store_true",
                   help="no rapidfuzz (not even imported): fake timings, to test the file")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p.parse_args(argv)


def setup(args):
    """Everything that can fail on bad input, before the first run."""
    if not args.config or not args.out:
        raise PeerError("give a CONFIG and --out FILE (or --install-only)")
    points, state = eed.prepare(args, "RapidFuzz", "eed", "cpu", 3, 0)
    state.update(threads=eed.threads_available(),
                 device={"present": False, "reason": "CPU peer: no device used"})
    method, fallback = args.method, ""
    if args.dry_run_fake:
        state.update(label="RapidFuzz (dry-run-fake)", version="not loaded")
    else:
        rf = locate(args.rapidfuzz_version, args.cache, not args.no_install, args.quiet)
        golden(rf)
        if method == "cpdist":
            fallback = cpdist_supported(rf)
            if fallback:
                note(f"{fallback}: timing the loop instead", args.quiet)
                method = "loop"
        state.update(label=f"RapidFuzz {rf.__version__}", version=rf.__version__,
                     callers={m: callers(m) for m in ("cpdist", "loop") if not fallback or
                              m == "loop"},
                     location=common.shown(Path(rf.__file__).parent))
    state["methods"] = {VARIANT: method}
    if args.also_serial:
        state["methods"][SERIAL_VARIANT] = "loop"
    state["planned"] = len(points) * len(state["methods"])
    state["build"] = common.build_info(f"peer rapidfuzz {state['version']}",
                                       "peers/rapidfuzz_eed.py")
    state["peer"] = {"name": state["label"], "script": "peers/rapidfuzz_eed.py",
                     "package": "rapidfuzz", "version": state["version"],
                     "location": state.get("location", ""), "function":
                     "rapidfuzz.distance.DamerauLevenshtein.distance",
                     "methods": state["methods"], "cpdist_fallback": fallback,
                     "threads": state["threads"], "timing_method": TIMING_METHOD,
                     "distance": "unrestricted Damerau-Levenshtein, unit costs",
                     "oracle": "Lowrance-Wagner, numpy rows (peers/eed_common.py), checked "
                               "against a plain Python double loop at start",
                     "fake": args.dry_run_fake}
    return points, state


def main(argv):
    args = parse_args(argv)

    def install_only():
        if not args.install_only:
            return None
        rf = locate(args.rapidfuzz_version, args.cache, not args.no_install, args.quiet)
        golden(rf)
        print(f"rapidfuzz {rf.__version__} {Path(rf.__file__).resolve().parent}")
        return 0

    return eed.main(SCRIPT, args, setup, point_runs, install_only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

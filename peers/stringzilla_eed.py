#!/usr/bin/env python3
"""StringZilla's batched CUDA Levenshtein distances (PyPI `stringzillas-cuda`) as a peer of the
eed study, on the string pairs of every point of a ladder config, written as one ladder results
file (schema_version 1) with the variant eed/peer_stringzilla_levenshtein, role "peer".

A DIFFERENT DISTANCE: StringZilla computes the plain Levenshtein distance (unit insertions,
deletions and substitutions, no swaps of adjacent symbols), not the study's extended edit
distance. Every run says so ("distance": "levenshtein (no swaps)" and a "note"), and it is
validated against a Python Levenshtein (peers/eed_common.py), exactly, not against the study's
reference. It is a throughput peer: the same pairs, the same cell count (len_A len_B per pair),
a simpler recurrence per cell.

Which release: `stringzillas.LevenshteinDistances` takes two string collections. Up to 4.6.3
it scores them pair by pair (a[i] with b[i]: what the study needs, one call for the whole
batch); from 5.0 on it computes the whole cross-product matrix, so paired distances take one
call per pair (--szs-version 5.3.2 does that, and says so). The default is 4.6.3, which PyPI
has as source only for CPython 3.11: it is built with nvcc (its setup.py compiles for sm_90a,
Hopper) into peers/cache/ at benchmark time. Fetch the sources here with --fetch-only and carry
peers/cache/ to a GPU machine without network; --build-only builds (no GPU needed) and stops.
The build is per Python version (peers/cache/stringzillas/cuda-4.6.3-py3XX): run --build-only
with the Python that will run the benchmark.

Timing: wall clock around each library call followed by a cudaDeviceSynchronize (through the
libcudart the library loaded); the library's call itself synchronises its stream before it
copies the distances into the host array it returns. By default (--copies in) every call gets
freshly made host `Strs` of the batch, so the copy of the strings into device-reachable
(unified) memory is inside the timed window, as in the ladder's eed times; --copies out reuses
strings already moved there by the warm-up call(s).

Usage: python3 peers/stringzilla_eed.py CONFIG.json --out FILE.json [--ladder build/ladder]
           [--repetitions N] [--warmup N] [--max-pairs N] [--max-n N] [--only-sweeps A,B]
           [--validate full|sample:N|off] [--max-cells X] [--copies in|out] [--gpu N]
           [--szs-version V] [--target cuda|cpus] [--no-fetch] [--dump-outputs DIR]
           [--dry-run-fake] [--quiet]
       python3 peers/stringzilla_eed.py --fetch-only [--szs-version V]   # download, stop
       python3 peers/stringzilla_eed.py --build-only [--szs-version V]   # fetch, build, stop
Exit status: 0 when every run passed or is unsupported/skipped, 1 when a run failed or
errored, 2 on bad input or when no CUDA device or usable stringzillas-cuda is there (one line
on stderr).
"""
import ctypes
import importlib.util
import os
import shutil
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
SCRIPT = "stringzilla_eed.py"
VERSION = "4.6.3"  # the last release whose LevenshteinDistances scores pairs, not a matrix
VARIANTS = {"cuda": "peer_stringzilla_levenshtein", "cpus": "peer_stringzilla_levenshtein_cpu"}
DISTANCE = "levenshtein (no swaps)"
NOTE = ("a DIFFERENT distance from the eed study's: plain Levenshtein (unit insertions, "
        "deletions and substitutions), no swaps of adjacent symbols; validated exactly against "
        "a Python Levenshtein, not against the study's reference; a throughput peer only")
RULE = "exact: integer distances (plain Levenshtein oracle, not the study's)"
GOLDEN = [(b"kitten", b"sitting", 3), (b"flaw", b"lawn", 2), (b"CA", b"ABC", 3),
          (b"ab", b"ba", 2), (bytes([0, 9, 13, 255]), bytes([9, 0, 255]), 2)]
CUDA_HOME = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))


class NoDevice(eed.Unavailable):
    """No CUDA device, or no usable stringzillas build: one line, exit status 2."""

    def __str__(self):
        return f"no usable CUDA device or stringzillas build: {super().__str__()}"


def note(text, quiet=False):
    common.note(SCRIPT, text, quiet)


# ---- the package: fetched and built into peers/cache/ ----------------------------------------

def from_source(version):
    """Releases before 5.0 are on PyPI as sources only (for CPython 3.11 at least)."""
    return int(version.split(".")[0]) < 5


def folders(cache, target, version):
    """(the download folder, the install folder of this Python) in the cache."""
    base = Path(cache) / "stringzillas"
    return (base / f"{target}-{version}-download",
            base / f"{target}-{version}-{eed.python_tag()}")


def built(folder):
    """Whether install() finished in the install folder (its marker file)."""
    return (folder / ".complete").is_file()


def fetch(cache, target, version, quiet):
    """Downloads what the install needs, once: sources (with setuptools and wheel, for a
    build without network) before 5.0, wheels for this Python from 5.0 on."""
    download, _ = folders(cache, target, version)
    if download.is_dir() and any(download.iterdir()):
        return download
    tmp = download.with_name(download.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    packages = [f"stringzillas-{target}=={version}", f"stringzilla=={version}"]
    note(f"fetching {', '.join(packages)} with pip into {download}", quiet)
    for package in packages:
        name = package.split("==")[0]
        # Sources of the package alone (":all:" would build its build requirements too).
        kind = ["--no-binary", name] if from_source(version) else ["--only-binary", ":all:"]
        eed.pip(["download", "--quiet", "--no-deps", *kind, "-d", str(tmp), package], package)
    if from_source(version):
        eed.pip(["download", "--quiet", "--no-deps", "--only-binary", ":all:", "-d", str(tmp),
                 "setuptools>=70.1", "wheel"], "setuptools and wheel (to build offline)")
        try:  # stringzilla's own wheel for this Python, when PyPI has one: saves its build
            eed.pip(["download", "--quiet", "--no-deps", "--only-binary", ":all:", "-d",
                     str(tmp), f"stringzilla=={version}"], f"stringzilla=={version} wheel")
        except PeerError:
            pass
    tmp.rename(download)
    return download


def install(cache, target, version, quiet, fetching=True):
    """The folder holding stringzilla and stringzillas, installed (and built) once; without
    fetching (--no-fetch), only from what the cache already holds."""
    download, folder = folders(cache, target, version)
    if built(folder):
        return folder
    if not download.is_dir() and not fetching:
        raise NoDevice(f"stringzillas-{target} {version} is neither built in {folder} nor "
                       f"downloaded in {download}, and --no-fetch was given (run python3 "
                       "peers/stringzilla_eed.py --fetch-only where the network is reachable)")
    if not download.is_dir():
        download = fetch(cache, target, version, quiet)
    shutil.rmtree(folder, ignore_errors=True)
    env = dict(os.environ)
    # pip takes a wheel of the download that fits this Python, else builds the source.
    args = ["install", "--quiet", "--no-deps", "--no-index", "--find-links", str(download),
            "--target", str(folder)]
    packages = [f"stringzillas-{target}=={version}", f"stringzilla=={version}"]
    if from_source(version):
        # setuptools and wheel from the download, numpy from this Python: no network needed.
        tools = folder.with_name(folder.name + "-buildtools")
        shutil.rmtree(tools, ignore_errors=True)
        eed.pip(["install", "--quiet", "--no-deps", "--no-index", "--find-links",
                 str(download), "--target", str(tools), "setuptools", "wheel"],
                "setuptools and wheel")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tools), env.get("PYTHONPATH"))
                                            if p)
        if target == "cuda":
            if not shutil.which("nvcc") and (CUDA_HOME / "bin" / "nvcc").is_file():
                env["PATH"] = f"{CUDA_HOME / 'bin'}{os.pathsep}{env.get('PATH', '')}"
            if not shutil.which("nvcc", path=env.get("PATH")):
                raise NoDevice(f"nvcc not found: stringzillas-cuda {version} is built from "
                               "source (set CUDA_HOME, or use --szs-version 5.3.2's wheel)")
            env["LDFLAGS"] = f"{env.get('LDFLAGS', '')} -Wl,-rpath,{CUDA_HOME / 'lib64'}".strip()
        args.append("--no-build-isolation")
        note(f"building stringzillas-{target} {version} from source into {folder} "
             "(minutes)", quiet)
    try:
        eed.pip(args + packages, f"stringzillas-{target}=={version}", env=env)
    except PeerError as err:
        raise NoDevice(str(err)) from err
    (folder / ".complete").write_text(version + "\n")
    return folder


def preload_cudart():
    """A libcudart from the toolkit, loaded globally, for a source build linked against it
    without an rpath (the wheels bring their own)."""
    for lib in sorted((CUDA_HOME / "lib64").glob("libcudart.so*"), reverse=True):
        try:
            ctypes.CDLL(str(lib), mode=ctypes.RTLD_GLOBAL)
            return
        except OSError:
            continue


def import_library(folder, target, version):
    """(stringzilla, stringzillas) from the install folder, checked for version and CUDA."""
    sys.path.insert(0, str(folder))
    if target == "cuda" and from_source(version):
        preload_cudart()
    try:
        import stringzilla as sz
        import stringzillas as szs
    except ImportError as err:
        raise NoDevice(f"stringzillas-{target} {version} does not import: {err}") from err
    if getattr(sz, "__version__", version) != version:
        raise NoDevice(f"imported stringzilla {sz.__version__} from {sz.__file__}, want "
                       f"{version}")
    if target == "cuda" and "cuda" not in szs.__capabilities__:
        raise NoDevice(f"stringzillas {version} has no CUDA capability "
                       f"({', '.join(szs.__capabilities__)})")
    return sz, szs


class Library:
    """The engine on one device scope, the call pattern its release offers, and the sync."""

    def __init__(self, sz, szs, target, gpu):
        self.sz, self.szs, self.target = sz, szs, target
        try:
            self.scope = szs.DeviceScope(gpu_device=gpu) if target == "cuda" else \
                szs.DeviceScope(cpu_cores=0)
            self.engine = szs.LevenshteinDistances(capabilities=self.scope)
            got = self.engine(sz.Strs([a for a, _, _ in GOLDEN]),
                              sz.Strs([b for _, b, _ in GOLDEN]), device=self.scope)
        except (RuntimeError, ValueError, TypeError) as err:
            raise NoDevice(f"stringzillas {target} engine on "
                           f"{'GPU ' + str(gpu) if target == 'cuda' else 'the CPU'}: {err}") \
                from err
        got = np.asarray(got)
        # Up to 4.6.3 one distance per pair; from 5.0 on the cross-product matrix.
        self.api = "paired" if got.ndim == 1 else "cross-product"
        values = got if got.ndim == 1 else np.diagonal(got)
        want = [w for _, _, w in GOLDEN]
        if values.tolist() != want:
            raise RuntimeError(f"stringzillas gives {values.tolist()} for the golden pairs, "
                               f"want {want}")
        self.rt = None
        if target == "cuda":
            path = common.loaded_cudart()
            self.rt = ctypes.CDLL(path) if path else None

    def sync(self):
        if self.rt is not None:
            code = self.rt.cudaDeviceSynchronize()
            if code != 0:
                raise RuntimeError(f"cudaDeviceSynchronize: error {code}")

    def inputs(self, a_list, b_list):
        """Fresh host Strs of the batch (paired) or of every pair (cross-product)."""
        if self.api == "paired":
            return self.sz.Strs(a_list), self.sz.Strs(b_list)
        return ([self.sz.Strs([a]) for a in a_list], [self.sz.Strs([b]) for b in b_list])

    def to_device(self, made):
        """Moves made inputs into unified memory ahead of time (--copies out)."""
        move = getattr(self.szs, "to_device", None)
        if self.target != "cuda" or move is None:
            return made
        if self.api == "paired":
            return move(made[0]), move(made[1])
        return [move(s) for s in made[0]], [move(s) for s in made[1]]

    def call(self, made):
        a, b = made
        if self.api == "paired":
            out = np.asarray(self.engine(a, b, device=self.scope))
        else:
            out = np.fromiter((self.engine(x, y, device=self.scope)[0, 0] for x, y in zip(a, b)),
                              np.uint64, len(a))
        self.sync()
        return out.astype(np.int64)

    def device(self, gpu):
        if self.rt is None:
            return {"present": False, "reason": "stringzillas-cpus: the CPU, no device used"}
        try:
            return common.cuda_device(self.rt, gpu)
        except (RuntimeError, AttributeError) as err:
            return {"present": True, "index": gpu, "name": "unknown", "note": str(err)}


# ---- one point -------------------------------------------------------------------------------

def spec(state):
    lib, target = state.get("library"), state["target"]
    api = lib.api if lib else "not called (dry-run-fake)"
    call = ("LevenshteinDistances()(Strs(A), Strs(B), device=DeviceScope(...)): one call for "
            "the batch" if api == "paired" else
            "LevenshteinDistances()(Strs([a]), Strs([b]), device=...): one call per pair (the "
            "release computes cross-product matrices only)" if lib else "dry-run-fake")
    where = "gpu" if target == "cuda" else "cpu"
    copies = "inside" if state["copies"] == "in" else "outside"
    timing = (f" and a device synchronise, copies {copies} the window" if target == "cuda"
              else "")
    return {"variant": VARIANTS[target], "label": state["label"],
            "change": f"peer: {state['label']} Levenshtein distances (NO swaps: a different "
                      f"distance) on the {where.upper()}: {call}; timed with the wall clock"
                      + timing,
            "backend": where, "precision": "int", "rule": RULE, "distance": DISTANCE,
            "note": NOTE, "method": f"{api}; copies {state['copies']} the timed window"}


def point_runs(point, settings, state, folder):
    s = spec(state)
    params, runs, inputs = eed.point_inputs(point, settings, state, folder, [s],
                                            "Levenshtein distance")
    if inputs is None:
        return runs
    a_list, b_list, data, indices, text, why = inputs
    lib = state.get("library")
    if state["fake"]:
        samples, got = eed.fake_outputs(a_list, b_list, indices, "levenshtein",
                                        settings.repetitions)
    else:
        try:
            if settings.copies == "in":  # fresh host strings for every call, made untimed
                samples, got, _ = eed.timed(lib.call, settings.warmup, settings.repetitions,
                                            lambda i: lib.inputs(a_list, b_list))
            else:  # the same strings, moved to unified memory before the first call
                made = lib.to_device(lib.inputs(a_list, b_list))
                samples, got, _ = eed.timed(lambda _: lib.call(made), settings.warmup,
                                            settings.repetitions)
        except Exception as err:  # noqa: BLE001 - a library failure is this run's error
            return [eed.run_json(s, point, params, "error", f"{type(err).__name__}: {err}",
                                 data, device=state["device"])]
        eed.dump_outputs(settings.dump_outputs, s["variant"], point, got)
    check, status, reason = eed.judge(got, indices, a_list, b_list, "levenshtein", text, why,
                                      state["fake"], "stringzillas")
    return [eed.run_json(s, point, params, status, reason, data, samples, settings.warmup,
                         check, state["device"])]


# ---- setup and main --------------------------------------------------------------------------

def parse_args(argv):
    p = common.Parser(script=SCRIPT, description="Run StringZilla's batched CUDA Levenshtein distances (NOT the eed "
                           "distance: no swaps) on an eed config's points.")
    p.add_argument("config", nargs="?", help="a ladder config of the eed study")
    p.add_argument("--out", help="results file to write (atomically)")
    p.add_argument("--ladder", default=str(common.ROOT / "build" / "ladder"), help="ladder binary")
    p.add_argument("--cache", default=str(eed.CACHE), help="download and install folder's parent")
    p.add_argument("--szs-version", default=VERSION,
                   help=f"stringzillas release ({VERSION}: paired distances, built from "
                        "source; 5.x: wheels, cross-product matrices, one call per pair)")
    p.add_argument("--target", choices=("cuda", "cpus"), default="cuda",
                   help="cuda (the peer); cpus: the same API on the CPU (stringzillas-cpus), "
                        f"written as eed/{VARIANTS['cpus']}")
    p.add_argument("--gpu", type=int, default=0, help="CUDA device index (default 0)")
    p.add_argument("--fetch-only", action="store_true",
                   help="download the packages into the cache (here, with network), stop")
    p.add_argument("--build-only", action="store_true",
                   help="fetch if needed, install (build) into the cache, stop")
    p.add_argument("--no-fetch", action="store_true",
                   help="never download: use what the cache holds (a build, or downloaded "
                        "sources to build offline) or stop (exit 2)")
    p.add_argument("--repetitions", type=int, help="timed calls per run (default: config's GPU)")
    p.add_argument("--warmup", type=int, help="untimed calls first (default: config's GPU)")
    p.add_argument("--copies", choices=("in", "out"), default="in",
                   help="in: fresh host strings every call, their copy to the device timed "
                        "(as the ladder's eed times); out: strings moved before timing")
    p.add_argument("--max-pairs", type=int, help="leave out points of more pairs than this")
    p.add_argument("--max-n", type=int, help="leave out points whose n is beyond this")
    p.add_argument("--only-sweeps", help="comma-separated sweep labels to run")
    p.add_argument("--validate", help="full, sample:N or off instead of the config's")
    p.add_argument("--max-cells", type=float, default=2.0 ** 28,
                   help="check no pair, and no more in all, of more DP cells per point "
                        "(default 2^28)")
    p.add_argument("--dump-outputs", help="write each run's distances as "
                                          "DIR/eed__VARIANT__POINT.npy (int32)")
    p.add_argument("--dry-run-fake", action="store_true",
                   help="no GPU, no stringzillas (not even imported): fake timings")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p.parse_args(argv)


def open_library(args):
    """The installed, imported and checked library (NoDevice when it cannot be had)."""
    if args.target == "cuda":
        why = common.has_gpu()
        if why:
            raise NoDevice(why)
    folder = install(args.cache, args.target, args.szs_version, args.quiet, not args.no_fetch)
    sz, szs = import_library(folder, args.target, args.szs_version)
    return Library(sz, szs, args.target, args.gpu), folder


def timing_method(args):
    if args.target == "cpus":
        return ("wall clock (time.perf_counter) around each library call on the CPU "
                "(DeviceScope(cpu_cores=0): every core); fresh host Strs made before each call"
                if args.copies == "in" else "wall clock (time.perf_counter) around each call "
                "on the CPU (every core), the same Strs each call")
    return ("wall clock (time.perf_counter) around each library call plus a "
            "cudaDeviceSynchronize; the call itself builds its task list on the host, launches, "
            "synchronises its stream and copies the distances into the host array it returns; "
            + ("every call gets fresh host Strs, so the copy of the strings to unified memory "
               "is inside the window" if args.copies == "in" else
               "the strings were moved to unified memory (stringzillas.to_device) before the "
               "first call: their copy is outside the window"))


def setup(args):
    if not args.config or not args.out:
        raise PeerError("give a CONFIG and --out FILE (or --fetch-only, --build-only)")
    points, state = eed.prepare(args, "StringZilla", "levenshtein",
                                "gpu" if args.target == "cuda" else "cpu", 10, 2)
    state.update(target=args.target, copies=args.copies, planned=len(points))
    folder = ""
    if args.dry_run_fake:
        state["label"] = "StringZilla (dry-run-fake)"
        state["device"] = {"present": False, "reason": "--dry-run-fake: no device used"}
    else:
        state["library"], folder = open_library(args)
        state["label"] = f"StringZilla {args.szs_version}"
        state["device"] = state["library"].device(args.gpu)
    lib = state.get("library")
    state["build"] = common.build_info(f"peer stringzillas-{args.target} {args.szs_version}",
                                       "peers/stringzilla_eed.py",
                                       "90a" if args.target == "cuda" and
                                       from_source(args.szs_version) else "")
    state["peer"] = {
        "name": state["label"], "script": "peers/stringzilla_eed.py",
        "package": f"stringzillas-{args.target}", "version": args.szs_version,
        "location": common.shown(folder), "api": lib.api if lib else "not called",
        "function": "stringzillas.LevenshteinDistances (match 0, mismatch 1, open 1, extend 1)",
        "distance": DISTANCE, "note": NOTE, "copies": args.copies,
        "timing_method": timing_method(args),
        "oracle": "Levenshtein, numpy rows (peers/eed_common.py), checked against a plain "
                  "Python double loop at start",
        "fake": args.dry_run_fake}
    return points, state


def main(argv):
    args = parse_args(argv)

    def fetch_or_build_only():
        if args.fetch_only and args.no_fetch:
            raise PeerError("--fetch-only and --no-fetch contradict each other")
        if args.fetch_only:
            print(fetch(args.cache, args.target, args.szs_version, args.quiet))
            return 0
        if args.build_only:  # no device needed: build here, run on a GPU machine later
            print(install(args.cache, args.target, args.szs_version, args.quiet,
                          not args.no_fetch))
            return 0
        return None

    return eed.main(SCRIPT, args, setup, point_runs, fetch_or_build_only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

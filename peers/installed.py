#!/usr/bin/env python3
"""Whether a peer can run right now, without any network access: what `ladder reproduce` asks
before it runs a peer (it never downloads or installs anything).

Usage: python3 peers/installed.py PEER [--cache DIR]

PEER is cutwed, rapidfuzz or stringzilla; --cache is the scripts' own --cache (default
peers/cache/: give the script the same folder). Exit status 0 with one line on stdout,
`PEER: ready (what will be used)`; 1 with one line on stdout saying why not and how to make it
ready; 2 on an unknown PEER or bad usage (one line on stderr).

Each peer script is loaded by path (as `ladder_peers_NAME`, never run) and asked through its
own functions where its package or build is; nothing here runs pip or builds anything. Then
the script runs with no fetching at all as

    python3 peers/cutwed.py CONFIG --out FILE --ladder LADDER --quiet --no-fetch
    python3 peers/rapidfuzz_eed.py CONFIG --out FILE --ladder LADDER --quiet --no-install
    python3 peers/stringzilla_eed.py CONFIG --out FILE --ladder LADDER --quiet --no-fetch

Ready means:
  cutwed       cuTWED's sdist in the cache (cutwed.py keys its build by the sdist's sha256, so a
               build without the sdist is not enough), nvcc (the build's key holds nvcc's
               release, even for a build already made), a GPU nvidia-smi lists; the line says
               whether the build for this GPU is already there or is made on the first run;
  rapidfuzz    rapidfuzz importable from peers/cache/rapidfuzz-VERSION-pyXY/ or this Python's
               environment (any version: what --no-install accepts), right on the known
               Damerau-Levenshtein pairs;
  stringzilla  stringzillas-cuda built in the cache for this Python (or its downloaded sources
               there and nvcc, to build it offline on the first run), a GPU nvidia-smi lists.
"""
import importlib.machinery
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

PEERS = ("cutwed", "rapidfuzz", "stringzilla")
SCRIPTS = {"cutwed": "cutwed", "rapidfuzz": "rapidfuzz_eed", "stringzilla": "stringzilla_eed"}
LABELS = {"cutwed": "cuTWED", "rapidfuzz": "RapidFuzz", "stringzilla": "StringZilla"}

# peers/common.py by path, as `ladder_peers_common` (never plots/common.py); common.load does
# the same for the other files of peers/.
_SPEC = importlib.util.spec_from_file_location("ladder_peers_common",
                                               Path(__file__).with_name("common.py"))
common = sys.modules.setdefault("ladder_peers_common", importlib.util.module_from_spec(_SPEC))
if common.__spec__ is _SPEC:
    _SPEC.loader.exec_module(common)


class NotReady(Exception):
    """Why the peer cannot run now, reasons joined by '; ' (a missing package or build first,
    as 'not installed: ...')."""


shown = common.shown  # repository-relative paths: one definition, in peers/common.py


def gpu_reason():
    """'' when nvidia-smi lists a GPU, else why not (the scripts' own check)."""
    return common.has_gpu()


def compute_capability(index=0):
    """GPU `index`'s compute capability as nvidia-smi reports it ('9.0'), '' when it cannot
    tell."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return ""
    return out[index] if len(out) > index and re.fullmatch(r"\d+\.\d+", out[index]) else ""


def cutwed(m, cache):
    cache = Path(cache or m.CACHE)
    sdist = cache / m.SDIST
    reasons = []
    if not sdist.is_file():
        builds = sorted(cache.glob("build-*/libcutwed.so")) if cache.is_dir() else []
        extra = (f" ({len(builds)} build(s) there, but cutwed.py finds its build by the sdist's "
                 "sha256)" if builds else "")
        reasons.append(f"not installed: no {m.SDIST} in {shown(cache)}{extra} (run python3 "
                       "peers/cutwed.py --build-only where the network is reachable, and carry "
                       "peers/cache/)")
    try:
        m.nvcc_info()
    except m.PeerError as err:
        reasons.append(f"{err} (put the CUDA toolkit's bin/ on PATH)")
    why = gpu_reason()
    if why:
        reasons.append(why)
    if reasons:
        raise NotReady("; ".join(reasons))
    _, _, lib, info = m.build_plan(sdist, cache)
    if lib.is_file():
        return f"cuTWED {m.VERSION}, built {shown(lib)} ({info['arch']}, nvcc {info['nvcc']})"
    return (f"cuTWED {m.VERSION} from {shown(sdist)}, built on the first run for "
            f"{info['arch']} with nvcc {info['nvcc']} into {shown(lib.parent)}")


def rapidfuzz(m, cache):
    cache = cache or m.eed.CACHE
    target = m.target_folder(m.VERSION, cache)
    try:
        rf = m.locate(m.VERSION, cache, False, True)
    except m.PeerError:
        raise NotReady(f"not installed: rapidfuzz is not importable from this Python "
                       f"({sys.executable}) nor from {shown(target)} (run python3 "
                       "peers/rapidfuzz_eed.py --install-only where the network is reachable, "
                       "and carry peers/cache/)") from None
    try:
        m.golden(rf)
    except RuntimeError as err:
        raise NotReady(f"unusable: {err}") from None
    where = Path(rf.__file__).resolve().parent
    return f"rapidfuzz {rf.__version__} from {shown(where)}"


def stringzilla(m, cache):
    cache = cache or m.eed.CACHE
    target, version = "cuda", m.VERSION
    download, folder = m.folders(cache, target, version)
    reasons, what = [], ""
    if m.built(folder):
        missing = [name for name in ("stringzilla", "stringzillas")
                   if importlib.machinery.PathFinder.find_spec(name, [str(folder)]) is None]
        if missing:
            reasons.append(f"not installed: {shown(folder)} is marked built but holds no "
                           f"{' or '.join(missing)} (remove it and run python3 "
                           "peers/stringzilla_eed.py --build-only)")
        what = f"stringzillas-{target} {version} built in {shown(folder)}"
    elif download.is_dir():
        nvcc = shutil.which("nvcc") or shutil.which("nvcc", path=str(m.CUDA_HOME / "bin"))
        if m.from_source(version) and not nvcc:
            reasons.append(f"not installed: the sources in {shown(download)} need nvcc to be "
                           "built (put the CUDA toolkit's bin/ on PATH or set CUDA_HOME)")
        what = (f"stringzillas-{target} {version} built on the first run, offline, from "
                f"{shown(download)} into {shown(folder)} (minutes)")
    else:
        reasons.append(f"not installed: stringzillas-{target} {version} is neither built in "
                       f"{shown(folder)} nor downloaded in {shown(download)} (run python3 "
                       "peers/stringzilla_eed.py --fetch-only, or --build-only, with this "
                       "Python where the network is reachable, and carry peers/cache/)")
    why = gpu_reason()
    if why:
        reasons.append(why)
    elif m.from_source(version) and compute_capability() not in ("", "9.0"):
        reasons.append(f"stringzillas-cuda {version} is built for sm_90a (Hopper) only, GPU 0 "
                       f"is of compute capability {compute_capability()}")
    if reasons:
        raise NotReady("; ".join(reasons))
    return what


CHECKS = {"cutwed": cutwed, "rapidfuzz": rapidfuzz, "stringzilla": stringzilla}


def one_line(text):
    return " ".join(str(text).split())


def main(argv):
    usage = "usage: python3 peers/installed.py PEER [--cache DIR] (PEER: cutwed, rapidfuzz, " \
            "stringzilla)"
    cache = None
    if len(argv) == 3 and argv[1] == "--cache":
        cache = argv[2]
    elif len(argv) != 1:
        print(f"installed.py: error: {usage}", file=sys.stderr)
        return 2
    peer = argv[0]
    if peer not in PEERS:
        print(f"installed.py: error: unknown peer {peer!r} (known: {', '.join(PEERS)})",
              file=sys.stderr)
        return 2
    label = LABELS[peer]
    try:
        module = common.load(SCRIPTS[peer])
    except Exception as err:  # noqa: BLE001 - numpy missing, say: the peer cannot run either
        print(one_line(f"{label} not ready: peers/{SCRIPTS[peer]}.py does not load "
                       f"({type(err).__name__}: {err})"))
        return 1
    try:
        what = CHECKS[peer](module, cache)
    except NotReady as err:
        text = str(err)  # "cuTWED not installed: ..." when that is (among) the reasons
        head = "not installed: "
        print(one_line(f"{label} not installed: {text[len(head):]}" if text.startswith(head)
                       else f"{label} not ready: {text}"))
        return 1
    except Exception as err:  # noqa: BLE001 - anything else: not ready, still one line
        print(one_line(f"{label} not ready: {type(err).__name__}: {err}"))
        return 1
    print(one_line(f"{peer}: ready ({what})"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""The skyline study's peers (peers/skyline/skybench.py, skyalign.py) end to end on a tiny
config, through `ladder ingest`.

    peers_skyline.py LADDER SCRATCH_ROOT CASE

CASE is one of
  skybench_replay  skybench.py --replay DIR with an empty cache and no C++ compiler: the skyline
                   ids ladder's skyline/openmp dumped, made one flag per point (the study's
                   output) and validated by ingest; the results have ladder's points, sweeps and
                   params, both variants at each, the empty set and d = 30 unsupported with their
                   reasons, nothing fetched or built. One id dropped from a dump is found (exit
                   1, both runs of that point incorrect, "1 skyline points missing"). Bad values
                   of the peer's own options exit 2 with one line and write nothing.
  skybench_real    SkyBench itself, built for d = 3 and d = 8: every run validated by ingest,
                   its skyline the size ladder's own step finds, Hybrid on every core and
                   BSkyTree on one. The handover the peer wrote (kept by a wrapper around
                   ladder) is then corrupted: a skyline point dropped from Hybrid's flags, a
                   point added to BSkyTree's, and another run's outputs handed over as ids
                   instead of flags; ingest finds each (exit 1, those three runs incorrect,
                   every other one passed). With LADDER_SKYBENCH_SOURCE=DIR (a copy of
                   SkyBench's files) it is built from DIR into a scratch cache; otherwise the
                   project's cache is used, --offline, and the case is skipped (77) when
                   `skybench.py --ready` says it is not ready.
  skyalign_replay  skyalign.py --replay DIR with an empty cache, no nvcc and no nvidia-smi: the
                   same checks as skybench_replay for its one variant (the empty set and d = 30
                   unsupported with their reasons, nothing fetched or built); `--ready` says why
                   it is not ready (no source, no nvcc, no CUDA device), --build-only asks for
                   --arch, values SkyAlign cannot run (non-finite, no point <= 10000) are named,
                   bad values of its own options exit 2 with one line and write nothing.
  skyalign_real    SkyAlign itself on the GPU: every run validated by ingest, its skyline the
                   size ladder's own step finds. With LADDER_SKYALIGN_SOURCE=DIR (a copy of
                   SkyAlign's files) it is built from DIR into a scratch cache; otherwise the
                   project's cache is used, --offline. Skipped (77) without a GPU in nvidia-smi,
                   or when `skyalign.py --ready` says it is not ready and LADDER_SKYALIGN_SOURCE
                   is not set.
"""
import json
import os
import shutil
import subprocess
import sys

import clitest  # noqa: E402
import peer_tests  # noqa: E402
from peer_tests import (ROOT, SKIP, ladder_keeper, peer_module, pinned_source, run,  # noqa: E402
                        run_case)
import numpy as np  # noqa: E402  (the peer needs it too)

SCRIPT = os.path.join(ROOT, "peers", "skyline", "skybench.py")
CONFIG = {"name": "skyline-peer-tiny", "study": "skyline",
          "data": {"generator": "bks", "seed": 11, "d": 3},
          "repetitions": {"cpu": 2, "gpu": 2}, "warmup": {"cpu": 1, "gpu": 1},
          "validation": "full",
          "sweeps": [
              {"label": "grid", "axes": {"n": [1, 97, 1500],
                                         "distribution": ["independent", "anticorrelated"]},
               "variants": ["skyline/openmp"]},
              {"label": "ties", "params": {"n": 800, "decimals": 1},
               "variants": ["skyline/openmp"]},
              {"label": "wide", "params": {"n": 600, "d": 8, "distribution": "anticorrelated"},
               "variants": ["skyline/openmp"]},
              {"label": "empty", "params": {"n": 0}, "variants": ["skyline/openmp"]},
              {"label": "too_wide", "params": {"n": 10, "d": 30}, "variants": ["skyline/openmp"]}]}
UNSUPPORTED = {"empty": "empty", "too_wide": "32 bits"}  # sweep: a word of the reason
VARIANTS = ["peer_skybench_hybrid", "peer_skybench_bskytree"]
SKYALIGN = os.path.join(ROOT, "peers", "skyline", "skyalign.py")
SKYALIGN_UNSUPPORTED = {"empty": "empty", "too_wide": "d = 1 to 20"}



def setup(ladder, work):
    """The config written, and ladder's own skyline/openmp runs of it: {point: run}, their
    outputs (the sorted ids) dumped into work/dumps."""
    config, out = os.path.join(work, "skyline.json"), os.path.join(work, "ladder.json")
    with open(config, "w") as f:
        json.dump(CONFIG, f)
    proc = run([ladder, "run", config, "--out", out, "--quiet", "--dump-outputs",
                os.path.join(work, "dumps")])
    if proc.returncode != 0:
        clitest.finish([f"ladder run: exit {proc.returncode}: {proc.stderr[-2000:]}"])
    return config, {r.point: r for r in clitest.results(out).runs}


def check_runs(results, ours, problems, variants=VARIANTS, unsupported=UNSUPPORTED):
    """The VARIANTS (SkyBench's two by default) at every point of ladder's, role peer, step 90,
    ladder's sweep and params, unsupported as due (a word of the reason in UNSUPPORTED), every
    other run passed with each point checked and the skyline size ladder's step found."""
    runs = results.runs
    want = [(p, v) for p in ours for v in variants]
    if [(r.point, r.variant) for r in runs] != want:
        problems.append(f"runs {[(r.point, r.variant) for r in runs]}, want {want}")
    for r in runs:
        mine, where = ours.get(r.point), f"{r.variant} at {r.point}"
        if mine is None:
            continue
        if (r.role, r.step, r.sweep, r.params) != ("peer", 90, mine.sweep, mine.params):
            problems.append(f"{where}: role/step/sweep/params {r.role} {r.step} {r.sweep} "
                            f"{r.params}, ladder's {mine.sweep} {mine.params}")
        word = unsupported.get(r.sweep)
        if word:
            if r.status != "unsupported" or word not in r.reason:
                problems.append(f"{where}: {r.status} ({r.reason}), want unsupported "
                                f"mentioning '{word}'")
        elif not r.passed or r.validation.get("checked") != int(mine.params["n"]) \
                or not r.samples_ms:
            problems.append(f"{where}: {r.status} ({r.reason}), checked "
                            f"{r.validation.get('checked')} of {mine.params['n']}")
        elif r.extras.get("skyline_size") != mine.extras.get("skyline_size"):
            problems.append(f"{where}: skyline size {r.extras.get('skyline_size')}, ladder's "
                            f"{mine.extras.get('skyline_size')}")


def bad_options(ladder, config, work, problems):
    """The peer's own options given bad values: exit 2, one line on stderr, nothing written."""
    bad = [["--threads", "0"], ["--threads", "x"],
           ["--dims", "99"], ["--dims", "3;ls"], ["--source", os.path.join(work, "none")]]
    peer_tests.bad_options(SCRIPT, ladder, config, work, problems, bad)


def skybench_replay(ladder, work):
    problems = []
    config, ours = setup(ladder, work)
    dumps = os.path.join(work, "dumps")
    env = dict(os.environ, CXX=os.path.join(work, "no-such-compiler"))  # a replay builds nothing
    results = peer_tests.replayed(SCRIPT, ladder, config, work, env, problems)
    check_runs(results, ours, problems)
    peer_tests.cache_untouched(work, problems)
    # One id dropped from the d = 8 point's dump: both variants replay it, both are found.
    victim = next(f for f in sorted(os.listdir(dumps)) if "d_8_" in f)
    ids = np.load(os.path.join(dumps, victim))
    np.save(os.path.join(dumps, victim), np.delete(ids, len(ids) // 2))
    wrong = os.path.join(work, "wrong.json")
    proc = run(peer_tests.replay_command(SCRIPT, ladder, config, work) + ["--out", wrong], env)
    bad = [r for r in clitest.results(wrong).runs if r.status == "incorrect"] \
        if os.path.exists(wrong) else []
    if proc.returncode != 1 or len(bad) != 2 or not all(
            r.params.get("d") == "8" and "1 skyline points missing" in r.reason for r in bad):
        problems.append(f"an id dropped: exit {proc.returncode}, incorrect runs "
                        f"{[(r.point, r.reason) for r in bad]}; want 1 and both d = 8 runs "
                        "missing one point")
    bad_options(ladder, config, work, problems)
    clitest.finish(problems, f"ok: {len(results.runs)} runs handed over and ingested")


def skybench_real(ladder, work):
    how = pinned_source(SCRIPT, "LADDER_SKYBENCH_SOURCE", "SkyBench", work)
    problems = []
    config, ours = setup(ladder, work)
    kept, wrapper = ladder_keeper(ladder, work)
    out = os.path.join(work, "peer.json")
    proc = run([sys.executable, "-m", peer_module(SCRIPT), config, "--out", out, "--ladder", wrapper, "--quiet",
                *how])
    if proc.returncode != 0:
        clitest.finish([f"skybench.py: exit {proc.returncode}: {proc.stderr[-3000:]}"])
    results = clitest.results(out)
    check_runs(results, ours, problems)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    for r in results.runs:
        want = cores if r.variant == "peer_skybench_hybrid" else 1
        if r.passed and (r.facts.get("threads") != want or "threads_busy" not in r.facts):
            problems.append(f"{r.variant} at {r.point}: facts {r.facts}, want {want} threads")
    if not (results.peer or {}).get("version", "").startswith("git "):
        problems.append(f"the results' peer has no version: {results.peer}")
    # The handover the peer wrote, corrupted three ways: each is found, nothing else changes.
    with open(os.path.join(kept, "handover.json")) as f:
        handover = json.load(f)
    runs = {(r["point"], r["variant"]): r for r in handover["runs"]}
    wide = next(i for i, p in enumerate(ours.values()) if p.sweep == "wide")
    big = next(i for i, p in enumerate(ours.values()) if p.params["n"] == "1500")
    edits = {(wide, VARIANTS[0]): ("drop", "1 skyline points missing"),
             (wide, VARIANTS[1]): ("add", "0 skyline points missing, 1 extra"),
             (big, VARIANTS[0]): ("ids", "flags, want 1500")}
    for key, (how_, _) in edits.items():
        path = os.path.join(kept, runs[key]["outputs"])
        flags = np.load(path)
        if how_ == "drop":
            flags[np.flatnonzero(flags == 1)[0]] = 0
        elif how_ == "add":
            flags[np.flatnonzero(flags == 0)[0]] = 1
        else:
            flags = np.flatnonzero(flags == 1).astype(np.int64)  # the dump's form, not the output
        np.save(path, flags)
    bad_out = os.path.join(work, "corrupted.json")
    proc = run([ladder, "ingest", config, os.path.join(kept, "handover.json"), "--out", bad_out,
                "--quiet"])
    got = clitest.results(bad_out).runs if os.path.exists(bad_out) else []
    index = {p: i for i, p in enumerate(ours)}
    for r in got:
        edit = edits.get((index.get(r.point), r.variant))
        if edit and (r.status != "incorrect" or edit[1] not in r.reason):
            problems.append(f"corrupted {edit[0]} at {r.point} ({r.variant}): {r.status} "
                            f"({r.reason}), want incorrect with '{edit[1]}'")
        elif not edit and r.status not in ("passed", "unsupported"):
            problems.append(f"untouched {r.variant} at {r.point}: {r.status} ({r.reason})")
    if proc.returncode != 1 or len(got) != len(results.runs):
        problems.append(f"the corrupted handover: exit {proc.returncode}, {len(got)} runs; want "
                        f"1 and {len(results.runs)}")
    shutil.rmtree(kept, ignore_errors=True)
    clitest.finish(problems, f"ok: {len(results.runs)} SkyBench runs validated by ingest, "
                             "3 corruptions found")


def no_gpu_env(work):
    """PATH without nvcc or nvidia-smi, CUDA_HOME nowhere: no toolkit and no GPU to be seen."""
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not any(
        os.path.exists(os.path.join(d, tool)) for tool in ("nvcc", "nvidia-smi"))]
    return dict(os.environ, PATH=os.pathsep.join(keep), CUDA_HOME=os.path.join(work, "none"))


# SkyAlign's own reasons for values it cannot run (skyalign.unsupported_values), asked in a
# child run from the project root, as the peer runs.
VALUES = """import numpy as np
from peers.skyline import skyalign
for pts in (np.array([[0.5, np.nan]]), np.array([[1.0, 2e4], [3e4, 5.0]]),
            np.array([[1.0, 2e4], [1e4, 5.0]])):
    print(repr(skyalign.unsupported_values(pts.astype(np.float32))))
"""


def skyalign_no_gpu(ladder, config, work, env, problems):
    """--ready and --build-only where no GPU and no nvcc are seen; the values it refuses."""
    proc = run([sys.executable, "-m", peer_module(SKYALIGN), "--ready", "--cache", os.path.join(work, "none")], env)
    line = proc.stdout.strip()
    if proc.returncode != 1 or not all(w in line for w in ("not ready", "no SkyAlign",
                                                             "nvcc not found", "no CUDA device")):
        problems.append(f"--ready without a GPU: exit {proc.returncode}, {line!r}; want 1 and "
                        "the source, nvcc and the GPU named")
    # nvcc where it is (not beside nvidia-smi): what stops the build is the missing GPU.
    no_smi = [d for d in os.environ.get("PATH", "").split(os.pathsep)
              if d and not os.path.exists(os.path.join(d, "nvidia-smi"))]
    proc = run([sys.executable, "-m", peer_module(SKYALIGN), "--build-only", "--cache", os.path.join(work, "none")],
               dict(os.environ, PATH=os.pathsep.join(no_smi)))
    lines = proc.stderr.strip().splitlines()
    if proc.returncode != 2 or len(lines) != 1 or not ("--arch" in lines[0] or "nvcc" in lines[0]):
        problems.append(f"--build-only without a GPU: exit {proc.returncode}, {lines}; want 2 "
                        "and one line asking for --arch (or nvcc)")
    got = subprocess.run([sys.executable, "-c", VALUES], cwd=ROOT, capture_output=True,
                         text=True).stdout.splitlines()
    if len(got) != 3 or "non-finite" not in got[0] or "10000" not in got[1] or got[2] != "''":
        problems.append(f"unsupported values: {got}; want non-finite, no point <= 10000, ''")
    bad = [["--arch", "x"], ["--arch", "sm_9;ls"], ["--source", os.path.join(work, "none")]]
    peer_tests.bad_options(SKYALIGN, ladder, config, work, problems, bad)


def skyalign_replay(ladder, work):
    problems = []
    config, ours = setup(ladder, work)
    env = no_gpu_env(work)
    results = peer_tests.replayed(SKYALIGN, ladder, config, work, env, problems)
    check_runs(results, ours, problems, ["peer_skyalign"], SKYALIGN_UNSUPPORTED)
    peer_tests.cache_untouched(work, problems)
    skyalign_no_gpu(ladder, config, work, env, problems)
    clitest.finish(problems, f"ok: {len(results.runs)} runs handed over and ingested")


def skyalign_real(ladder, work):
    if not peer_tests.gpu_listed():
        print("skipped: no GPU in nvidia-smi (SkyAlign runs on the GPU)")
        sys.exit(SKIP)
    how = pinned_source(SKYALIGN, "LADDER_SKYALIGN_SOURCE", "SkyAlign", work)
    problems = []
    config, ours = setup(ladder, work)
    out = os.path.join(work, "peer.json")
    proc = run([sys.executable, "-m", peer_module(SKYALIGN), config, "--out", out, "--ladder", ladder, "--quiet",
                *how])
    if proc.returncode != 0:
        clitest.finish([f"skyalign.py: exit {proc.returncode}: {proc.stderr[-3000:]}"])
    results = clitest.results(out)
    check_runs(results, ours, problems, ["peer_skyalign"], SKYALIGN_UNSUPPORTED)
    if not (results.peer or {}).get("version", "").startswith("git "):
        problems.append(f"the results' peer has no version: {results.peer}")
    clitest.finish(problems, f"ok: {len(results.runs)} SkyAlign runs validated by ingest")


def main():
    run_case("peers_skyline.py", {
        "skybench_replay": skybench_replay, "skybench_real": skybench_real,
        "skyalign_replay": skyalign_replay, "skyalign_real": skyalign_real})


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The dtw study's peer (peers/dtw/cudtw.py, cuDTW++) end to end on a tiny config, through
`ladder ingest`.

    peers_dtw.py LADDER SCRATCH_ROOT CASE

CASE is one of
  cudtw_replay  cudtw.py --replay DIR with an empty cache and no nvcc: the distances ladder's
                dtw/seq_tworow dumped, validated by ingest; the results have ladder's points,
                sweeps and params, both variants at each, a binding band and n = 2100
                unsupported with their reasons, nothing fetched or built. One dumped distance
                made 0.1% larger is found (exit 1, both runs of that point incorrect). With
                --padding off the lengths cuDTW++ has no kernel for are unsupported and n = 127
                still runs. Bad values of the peer's own options exit 2 with one line and write
                nothing.
  cudtw_real    cuDTW++ itself on the GPU: every run validated by ingest (the full-warp kernel
                at every point; the sub-warp kernel everywhere but at n = 127, cuDTW++'s own
                length, where its last-row defect may show: passed or incorrect, reported),
                the sub-warp kernel unsupported at length 2047 (n = 1500), the layout facts
                (length, sentinels, launches) as the script documents them.
                The handover the peer wrote (kept by a wrapper around ladder) is then corrupted:
                one distance 1% larger, one made NaN (a subject the kernel never wrote);
                ingest finds both (exit 1, those runs incorrect, every other run as before).
                With LADDER_CUDTW_SOURCE=DIR (a copy of cuDTW++'s files) it is built from DIR
                into a scratch cache; otherwise the project's cache is used, --offline. Skipped
                (77) without a GPU in nvidia-smi, or when `cudtw.py --ready` says it is not
                ready and LADDER_CUDTW_SOURCE is not set.
"""
import json
import os
import shutil
import sys

import clitest  # noqa: E402
import peer_tests  # noqa: E402
from peer_tests import (ROOT, SKIP, ladder_keeper, peer_module, pinned_source, run,  # noqa: E402
                        run_case)
import numpy as np  # noqa: E402  (the peer needs it too)

SCRIPT = os.path.join(ROOT, "peers", "dtw", "cudtw.py")
SEQ = ["seq_tworow"]
CONFIG = {"name": "dtw-peer-tiny", "study": "dtw",
          "data": {"generator": "cbf", "seed": 5},
          "repetitions": {"cpu": 1, "gpu": 2}, "warmup": {"cpu": 0, "gpu": 1},
          "validation": "full",
          "sweeps": [
              # cuDTW++'s own length, one sentinel after, 26 before and one after; 203 entries:
              # five padding rows for the sub-warp blocks of 8 subjects.
              {"label": "lengths", "axes": {"n": [127, 126, 100]}, "params": {"entries": 203},
               "variants": SEQ},
              # Five queries from series 3 on: sub-warp groups of 4 and 1.
              {"label": "queries", "params": {"n": 60, "entries": 97, "query": 3, "queries": 5},
               "variants": SEQ},
              # The set against itself: groups of 16, 16, 8 and 1.
              {"label": "set", "params": {"n": 40, "entries": 41, "query": 0, "queries": 41},
               "variants": SEQ},
              {"label": "wide_band", "params": {"n": 50, "entries": 30, "band": 80},
               "variants": SEQ},
              {"label": "band", "params": {"n": 50, "entries": 30, "band": 5}, "variants": SEQ},
              {"label": "l2047", "params": {"n": 1500, "entries": 3, "noise": "gaussian"},
               "variants": SEQ},
              {"label": "long", "params": {"n": 2100, "entries": 2}, "variants": SEQ}]}
VARIANTS = ["peer_cudtw_warp", "peer_cudtw_subwarp"]
# sweep: a word of the reason its points are unsupported (known from the params)
UNSUPPORTED = {"band": "Sakoe-Chiba", "long": "2047"}
# (sweep, variant): a word of the reason, known once the library is asked (not in a replay)
UNSUPPORTED_RUN = {("l2047", "peer_cudtw_subwarp"): "sub-warp"}
UNSUPPORTED_OFF = {"126", "100", "60", "40", "50", "1500"}  # n without a kernel: --padding off
# n: (kernel length, sentinels before, after); launches per variant for the multi-query points
LAYOUT = {127: (127, 0, 0), 126: (127, 0, 1), 100: (127, 26, 1), 60: (127, 66, 1),
          40: (127, 86, 1), 50: (127, 76, 1), 1500: (2047, 546, 1)}
LAUNCHES = {("queries", "peer_cudtw_warp"): 5, ("queries", "peer_cudtw_subwarp"): 2,
            ("set", "peer_cudtw_warp"): 41, ("set", "peer_cudtw_subwarp"): 4}



def setup(ladder, work):
    """The config written, and ladder's own seq_tworow runs of it: {point: run}, their outputs
    dumped into work/dumps."""
    config, out = os.path.join(work, "dtw.json"), os.path.join(work, "ladder.json")
    with open(config, "w") as f:
        json.dump(CONFIG, f)
    proc = run([ladder, "run", config, "--out", out, "--quiet", "--dump-outputs",
                os.path.join(work, "dumps")])
    if proc.returncode != 0:
        clitest.finish([f"ladder run: exit {proc.returncode}: {proc.stderr[-2000:]}"])
    return config, {r.point: r for r in clitest.results(out).runs}


def why_unsupported(sweep, variant, n, padding, real):
    if sweep in UNSUPPORTED:
        return UNSUPPORTED[sweep]
    if padding == "off" and n in UNSUPPORTED_OFF:
        return "--padding auto"
    return UNSUPPORTED_RUN.get((sweep, variant)) if real else None


def check_runs(results, ours, problems, padding="auto", real=False, maybe_incorrect=()):
    """Both variants at every point of ladder's, role peer, step 90, ladder's sweep and params,
    unsupported as due (REAL: the library's run was asked too), every other run passed with all
    its distances checked (a run whose (point, variant) is in MAYBE_INCORRECT may be incorrect
    instead)."""
    runs = results.runs
    want = [(p, v) for p in ours for v in VARIANTS]
    if [(r.point, r.variant) for r in runs] != want:
        problems.append(f"runs {[(r.point, r.variant) for r in runs]}, want {want}")
    for r in runs:
        mine, where = ours.get(r.point), f"{r.variant} at {r.point}"
        if mine is None:
            continue
        if (r.role, r.step, r.sweep, r.params) != ("peer", 90, mine.sweep, mine.params):
            problems.append(f"{where}: role/step/sweep/params {r.role} {r.step} {r.sweep} "
                            f"{r.params}, ladder's {mine.sweep} {mine.params}")
        word = why_unsupported(r.sweep, r.variant, mine.params["n"], padding, real)
        size = int(mine.params["entries"]) * int(mine.params.get("queries", "1"))
        if word:
            if r.status != "unsupported" or word not in r.reason:
                problems.append(f"{where}: {r.status} ({r.reason}), want unsupported "
                                f"mentioning '{word}'")
        elif (r.point, r.variant) in maybe_incorrect and r.status == "incorrect":
            print(f"note: {where}: incorrect ({r.reason})")
        elif not r.passed or r.validation.get("checked") != size or not r.samples_ms:
            problems.append(f"{where}: {r.status} ({r.reason}), checked "
                            f"{r.validation.get('checked')} of {size}")


def no_nvcc_env(work):
    """PATH without nvcc, CUDA_HOME nowhere: a replay builds nothing."""
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not os.path.exists(os.path.join(d, "nvcc"))]
    return dict(os.environ, PATH=os.pathsep.join(keep), CUDA_HOME=os.path.join(work, "none"))


def bad_options(ladder, config, work, problems):
    """The peer's own options given bad values: exit 2, one line on stderr, nothing written."""
    bad = [["--padding", "bogus"], ["--arch", "x"],
           ["--arch", "sm_9;ls"], ["--source", os.path.join(work, "none")]]
    peer_tests.bad_options(SCRIPT, ladder, config, work, problems, bad)


def cudtw_replay(ladder, work):
    problems = []
    config, ours = setup(ladder, work)
    dumps = os.path.join(work, "dumps")
    env = no_nvcc_env(work)
    replay = peer_tests.replay_command(SCRIPT, ladder, config, work)
    results = peer_tests.replayed(SCRIPT, ladder, config, work, env, problems)
    check_runs(results, ours, problems)
    # --padding off: only cuDTW++'s own lengths run.
    off = os.path.join(work, "off.json")
    proc = run(replay + ["--out", off, "--padding", "off"], env)
    if proc.returncode != 0:
        problems.append(f"--padding off: exit {proc.returncode}: {proc.stderr[-1000:]}")
    else:
        check_runs(clitest.results(off), ours, problems, padding="off")
    peer_tests.cache_untouched(work, problems)
    # One distance of the multi-query point made 0.1% larger: both variants replay it, both
    # are found, nothing else changes.
    victim = next(f for f in sorted(os.listdir(dumps)) if "queries_5" in f)
    dist = np.load(os.path.join(dumps, victim))
    dist[2, 10] *= np.float32(1.001)
    np.save(os.path.join(dumps, victim), dist)
    wrong = os.path.join(work, "wrong.json")
    proc = run(replay + ["--out", wrong], env)
    got = clitest.results(wrong).runs if os.path.exists(wrong) else []
    bad = [r for r in got if r.status == "incorrect"]
    if proc.returncode != 1 or len(bad) != 2 or not all(r.sweep == "queries" for r in bad):
        problems.append(f"a distance 0.1% off: exit {proc.returncode}, incorrect runs "
                        f"{[(r.point, r.variant, r.reason) for r in bad]}; want 1 and both "
                        "runs of the 'queries' point")
    if any(r.status not in ("passed", "unsupported", "incorrect") for r in got):
        problems.append(f"a distance 0.1% off: statuses {[r.status for r in got]}")
    bad_options(ladder, config, work, problems)
    clitest.finish(problems, f"ok: {len(results.runs)} runs handed over and ingested")


def check_facts(results, ours, problems):
    for r in results.runs:
        if r.status == "unsupported":
            continue
        n = int(ours[r.point].params["n"])
        length, before, after = LAYOUT[n]
        want = {"kernel_length": length, "sentinels_before": before, "sentinels_after": after}
        launches = LAUNCHES.get((r.sweep, r.variant), 1)
        got = {k: r.facts.get(k) for k in want}
        if got != want or r.facts.get("launches") != launches:
            problems.append(f"{r.variant} at {r.point}: facts {r.facts}, want {want} and "
                            f"{launches} launches")


def cudtw_real(ladder, work):
    if not peer_tests.gpu_listed():
        print("skipped: no GPU in nvidia-smi (cuDTW++ runs on the GPU)")
        sys.exit(SKIP)
    how = pinned_source(SCRIPT, "LADDER_CUDTW_SOURCE", "cuDTW++", work)
    problems = []
    config, ours = setup(ladder, work)
    kept, wrapper = ladder_keeper(ladder, work)
    out = os.path.join(work, "peer.json")
    proc = run([sys.executable, "-m", peer_module(SCRIPT), config, "--out", out, "--ladder", wrapper, "--quiet",
                *how])
    # Exit 1 is the sub-warp kernel's defect at n = 127 (checked below), 2 or more a failure.
    if proc.returncode not in (0, 1) or not os.path.exists(out):
        clitest.finish([f"cudtw.py: exit {proc.returncode}: {proc.stderr[-3000:]}"])
    results = clitest.results(out)
    native = {(p, "peer_cudtw_subwarp") for p, r in ours.items() if r.params["n"] == "127"}
    check_runs(results, ours, problems, real=True, maybe_incorrect=native)
    check_facts(results, ours, problems)
    incorrect = [r for r in results.runs if r.status == "incorrect"]
    if proc.returncode != (1 if incorrect else 0):
        problems.append(f"cudtw.py: exit {proc.returncode} with {len(incorrect)} incorrect runs")
    if not (results.peer or {}).get("version", "").startswith("git "):
        problems.append(f"the results' peer has no version: {results.peer}")
    # The handover the peer wrote, corrupted two ways: each is found, nothing else changes.
    with open(os.path.join(kept, "handover.json")) as f:
        handover = json.load(f)
    runs = {(r["point"], r["variant"]): r for r in handover["runs"]}
    index = {p: i for i, p in enumerate(ours)}
    multi = next(index[p] for p, r in ours.items() if r.sweep == "queries")
    short = next(index[p] for p, r in ours.items() if r.params["n"] == "126")
    edits = {(multi, VARIANTS[1]): "larger", (short, VARIANTS[0]): "nan"}
    for key, how_ in edits.items():
        path = os.path.join(kept, runs[key]["outputs"])
        dist = np.load(path)
        flat = dist.reshape(-1)
        if how_ == "larger":
            flat[7] *= np.float32(1.01)
        else:
            flat[-1] = np.nan
        np.save(path, dist)
    bad_out = os.path.join(work, "corrupted.json")
    proc = run([ladder, "ingest", config, os.path.join(kept, "handover.json"), "--out", bad_out,
                "--quiet"])
    got = clitest.results(bad_out).runs if os.path.exists(bad_out) else []
    before = {(r.point, r.variant): r.status for r in results.runs}
    for r in got:
        edit = edits.get((index.get(r.point), r.variant))
        if edit and r.status != "incorrect":
            problems.append(f"corrupted ({edit}) {r.variant} at {r.point}: {r.status} "
                            f"({r.reason}), want incorrect")
        elif not edit and r.status != before.get((r.point, r.variant)):
            problems.append(f"untouched {r.variant} at {r.point}: {r.status} ({r.reason}), "
                            f"was {before.get((r.point, r.variant))}")
    if proc.returncode != 1 or len(got) != len(results.runs):
        problems.append(f"the corrupted handover: exit {proc.returncode}, {len(got)} runs; want "
                        f"1 and {len(results.runs)}")
    shutil.rmtree(kept, ignore_errors=True)
    clitest.finish(problems, f"ok: {len(results.runs)} cuDTW++ runs ingested "
                             f"({len(incorrect)} incorrect at cuDTW++'s own length), "
                             "2 corruptions found")


def main():
    run_case("peers_dtw.py", {"cudtw_replay": cudtw_replay, "cudtw_real": cudtw_real})


if __name__ == "__main__":
    main()

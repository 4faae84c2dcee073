#!/usr/bin/env python3
"""The eed study's peers (peers/eed/*.py) end to end on a tiny config, through `ladder ingest`.

    peers_eed.py LADDER SCRATCH_ROOT CASE

CASE is one of
  rapidfuzz_replay    rapidfuzz.py --replay DIR with rapidfuzz unimportable and an empty cache:
                      the outputs ladder's eed/seq dumped, handed over and validated by ingest;
                      the results file has ladder's points, sweeps and params, the alphabet-256
                      point (`ladder gen` cannot write it) and the non-unit costs unsupported
                      with their reasons, nothing fetched; one wrong distance handed over is
                      found (exit 1, that run incorrect);
  stringzilla_replay  the same for stringzilla.py and stringzilla_paired.py --target cpus on
                      the config at w_swap = 2 (where the eed distance is Levenshtein): every
                      run records w_swap 2 and the note, each release its own variant, label
                      and call (5.3.2 blocks of a cross-product, 4.6.3 one paired call);
                      without nvidia-smi, a real run exits 2 with one line naming the CUDA
                      device and writes nothing;
  stringzilla_releases  `ladder reproduce` finds both StringZilla releases (peers/eed/*.py) and
                      asks each `--ready`: with an empty cache each says what is missing for
                      its own release and how to fetch it (4.6.3: its sources, --fetch-only);
                      4.6.3's sources without nvcc say that nvcc is missing. No network, no
                      package, no GPU needed;
  rapidfuzz_real      RapidFuzz itself (cpdist and the serial loop), every distance validated by
                      ingest. Skipped (77) when `rapidfuzz.py --ready` says it is not ready;
  stringzilla_real    each StringZilla release whose script says it is ready, on the GPU, at
                      w_swap = 2: every distance validated by ingest, the results naming the
                      release. Skipped (77) when neither is ready (no GPU, or nothing fetched).
"""
import glob
import json
import os
import shutil
import sys

import clitest  # noqa: E402
from peer_tests import ROOT, SKIP, peer_module, run, run_case  # noqa: E402
import numpy as np  # noqa: E402  (the peers need it too)

FIXTURE = os.path.join(ROOT, "tests", "cli", "fixtures", "eed_peer_tiny.json")
PEERS = os.path.join(ROOT, "peers", "eed")
# Each StringZilla script: its release, its variant with --target cpus, how its release is
# called (the change line), and the option its `--ready` names to make it ready elsewhere.
STRINGZILLA = {"stringzilla.py": ("5.3.2", "peer_stringzilla_levenshtein_cpu",
                                  "one call per 16 pairs", "--build-only"),
               "stringzilla_paired.py": ("4.6.3", "peer_stringzilla_levenshtein_paired_cpu",
                                         "one call for the batch", "--fetch-only")}
# Points of the fixture a peer cannot run, and a word its reason must hold.
UNSUPPORTED = {"alphabet=256,n=33,pairs=9,seed=2015,spread=0.5": "at most 95",
               "alphabet=10,n=20,pairs=5,seed=2015,w_del=3,w_ins=2,w_sub=4,w_swap=3": "unit"}
# The fixture's points a peer cannot run, at w_swap = 2 (levenshtein_config).
UNSUPPORTED_W_SWAP_2 = {k.replace("spread=0.5", "spread=0.5,w_swap=2"): v
                        for k, v in UNSUPPORTED.items()}



def ladder_runs(ladder, config, work, dumps):
    """ladder's own eed/seq runs of the config, their outputs dumped: {point: run}."""
    out = os.path.join(work, "ladder.json")
    proc = run([ladder, "run", config, "--filter", "seq", "--out", out, "--quiet",
                "--dump-outputs", dumps])
    if proc.returncode != 0:
        clitest.finish([f"ladder run failed ({proc.returncode}): {proc.stderr[-2000:]}"])
    return {r.point: r for r in clitest.results(out).runs}


def peer(script, config, out, *extra, env=None):
    proc = run([sys.executable, "-m", peer_module(os.path.join(PEERS, script)), config, "--out", out, "--quiet",
                *extra], env)
    if proc.returncode != 0:
        clitest.finish([f"{script} exited {proc.returncode}: {proc.stderr[-2000:]}"])
    return clitest.results(out)


def check_runs(results, ours, variants, problems, unsupported=UNSUPPORTED, want=None):
    """The peer's runs against ladder's runs of the same config: every point, each variant,
    role peer, ladder's sweep and params (`want` over them), passed or unsupported as due."""
    runs = results.runs
    expected = [(p, v) for p in ours for v in variants]
    if [(r.point, r.variant) for r in runs] != expected:
        problems.append(f"runs {[(r.point, r.variant) for r in runs]}, want {expected}")
    for r in runs:
        mine, where = ours.get(r.point), f"{r.variant} at {r.point}"
        sweep, params = (mine.sweep, mine.params) if mine else (None, {})
        if (r.role, r.step) != ("peer", 90):
            problems.append(f"{where}: role {r.role} step {r.step}")
        if (r.sweep, r.params) != (sweep, dict(params, **(want or {}))):
            problems.append(f"{where}: sweep/params {r.sweep} {r.params}, ladder's "
                            f"{sweep} {params} with {want}")
        if r.point in unsupported:
            if r.status != "unsupported" or unsupported[r.point] not in r.reason:
                problems.append(f"{where}: {r.status} ({r.reason}), want unsupported "
                                f"mentioning '{unsupported[r.point]}'")
        elif not r.passed or r.validation["checked"] < 1 or not r.timing:
            problems.append(f"{where}: {r.status} ({r.reason}), checked "
                            f"{r.validation['checked']}")


def rapidfuzz_replay(ladder, work):
    problems = []
    dumps, empty = os.path.join(work, "dumps"), os.path.join(work, "empty-cache")
    os.makedirs(empty)
    ours = ladder_runs(ladder, FIXTURE, work, dumps)
    env = clitest.poisoned_env(work, ["rapidfuzz"], "a replay must not import it")
    results = peer("rapidfuzz.py", FIXTURE, os.path.join(work, "peer.json"), "--ladder", ladder,
                   "--replay", dumps, "--cache", empty, env=env)
    check_runs(results, ours, ["peer_rapidfuzz"], problems)
    if "replay" not in (results.peer or {}) or not all(
            "replayed" in r.label for r in results.runs):
        problems.append("the results do not say the outputs were replayed")
    if os.listdir(empty):
        problems.append(f"the replay put {os.listdir(empty)} into the cache")
    # One wrong distance handed over: ingest finds it (exit 1, that run incorrect).
    victim = next(f for f in sorted(os.listdir(dumps)) if "_n_40_" in f)
    values = np.load(os.path.join(dumps, victim))
    values[3] += 1
    np.save(os.path.join(dumps, victim), values)
    out = os.path.join(work, "wrong.json")
    proc = run([sys.executable, "-m", peer_module(os.path.join(PEERS, "rapidfuzz.py")), FIXTURE, "--out", out,
                "--quiet", "--ladder", ladder, "--replay", dumps, "--validate", "full"], env)
    statuses = [r.status for r in clitest.results(out).runs] if os.path.exists(out) else []
    if proc.returncode != 1 or statuses.count("incorrect") != 1:
        problems.append(f"a wrong distance: exit {proc.returncode}, statuses {statuses}; want 1 "
                        "and one run incorrect")
    clitest.finish(problems, f"ok: {len(results.runs)} runs handed over and ingested")


def levenshtein_config(work):
    """The fixture at w_swap = 2 (seq's outputs are then Levenshtein distances), without its
    non-unit costs; its path."""
    with open(FIXTURE) as f:
        config = json.load(f)
    config["sweeps"] = [s for s in config["sweeps"] if s["label"] != "costs"]
    config["data"]["w_swap"] = 2
    path = os.path.join(work, "levenshtein.json")
    with open(path, "w") as f:
        json.dump(config, f)
    return path


def stringzilla_replay(ladder, work):
    problems = []
    path = levenshtein_config(work)
    dumps, empty = os.path.join(work, "dumps"), os.path.join(work, "empty-cache")
    os.makedirs(empty)
    ours = ladder_runs(ladder, path, work, dumps)
    env = clitest.poisoned_env(work, ["stringzilla", "stringzillas"], "a replay must not import it")
    count = 0
    for script, (release, variant, call, _) in STRINGZILLA.items():
        results = peer(script, path, os.path.join(work, f"{script}.json"), "--ladder", ladder,
                       "--replay", dumps, "--cache", empty, "--target", "cpus", env=env)
        check_runs(results, ours, [variant], problems, UNSUPPORTED_W_SWAP_2)
        count += len(results.runs)
        for r in results.runs:
            if "w_swap" not in r.raw["change"] or call not in r.raw["change"]:
                problems.append(f"{script}: change {r.raw['change']!r} does not say it is the eed "
                                f"distance at w_swap 2, and '{call}'")
            if not r.label.startswith(f"StringZilla {release} "):
                problems.append(f"{script}: label {r.label!r} does not name release {release}")
        if not shutil.which("nvidia-smi"):
            out = os.path.join(work, "real.json")
            proc = run([sys.executable, "-m", peer_module(os.path.join(PEERS, script)), path, "--out", out,
                        "--ladder", ladder, "--cache", empty, "--offline"], env)
            lines = proc.stderr.strip().splitlines()
            if proc.returncode != 2 or len(lines) != 1 or "CUDA" not in lines[0]:
                problems.append(f"{script} without a GPU: exit {proc.returncode}, stderr {lines}; "
                                "want 2 and one line naming the CUDA device")
            if os.path.exists(out) or os.listdir(empty):
                problems.append(f"{script} without a GPU wrote a file or fetched something")
    clitest.finish(problems, f"ok: {count} runs at w_swap 2, both releases")


# `ladder reproduce --python` this: the peers' `--ready` asked with an empty cache.
READY_EMPTY = '''#!{python}
import os, sys
argv = sys.argv[1:]
if argv[:2] and argv[0] == "-m" and argv[1].startswith("peers.") and "--ready" in argv:
    argv += ["--cache", {empty!r}]
os.execv({python!r}, [{python!r}] + argv)
'''


def reproduce_ready_lines(ladder, work, env):
    """{peer: why} of `ladder reproduce --scale quick` in a scratch project holding a tiny eed
    paper experiment, plots/ and the real peers/eed/ (links), every peer's --ready asked with
    an empty cache through a --python wrapper: each is then not installed, with its line."""
    project, empty = os.path.join(work, "project"), os.path.join(work, "empty-cache")
    os.makedirs(os.path.join(project, "configs", "eed"))
    os.makedirs(os.path.join(project, "peers"))
    for shared in glob.glob(os.path.join(ROOT, "peers", "*.py")):  # the package peers' own
        os.symlink(shared, os.path.join(project, "peers", os.path.basename(shared)))
    os.makedirs(empty)
    with open(FIXTURE) as f:
        config = json.load(f)
    config.update(name="eed-releases", reproduce={"quick": {"repetitions": {"cpu": 1}}},
                  sweeps=[s for s in config["sweeps"] if s["label"] == "mutated"])
    with open(os.path.join(project, "configs", "eed", "tiny.json"), "w") as f:
        json.dump(config, f)
    os.symlink(os.path.join(ROOT, "plots"), os.path.join(project, "plots"))
    os.symlink(PEERS, os.path.join(project, "peers", "eed"))
    wrapper = os.path.join(work, "python-ready-empty")
    with open(wrapper, "w") as f:
        f.write(READY_EMPTY.format(python=sys.executable, empty=empty))
    os.chmod(wrapper, 0o755)
    proc = clitest.run_ladder([ladder, "reproduce", "--scale", "quick", "--out", "out",
                               "--python", wrapper], cwd=project, env=env, text=True)
    if proc.returncode != 0:
        clitest.finish([f"reproduce exited {proc.returncode}: {proc.stderr.strip()[-600:]}"])
    if os.listdir(empty):
        clitest.finish([f"--ready put {os.listdir(empty)} into the empty cache"])
    with open(os.path.join(project, "out", "reproduction.json")) as f:
        manifest = json.load(f)
    return {p["peer"]: (p["state"], p["why"]) for p in manifest["peers"] if p["study"] == "eed"}


def stringzilla_releases(ladder, work):
    problems = []
    env = clitest.poisoned_env(work, ["rapidfuzz", "stringzilla", "stringzillas"])
    found = reproduce_ready_lines(ladder, work, env)
    want = ["rapidfuzz"] + [s[:-3] for s in STRINGZILLA]
    if sorted(found) != want:
        problems.append(f"reproduce found the eed peers {sorted(found)}, want {want}")
    empty = os.path.join(work, "empty-cache")
    for script, (release, _, _, flag) in STRINGZILLA.items():
        name, held = script[:-3], "sources" if flag == "--fetch-only" else "wheels for cp"
        state, why = found.get(name, ("missing", ""))
        if state != "not installed" or not why.startswith(f"{name}: not ready: no "
                                                          f"stringzillas-cuda {release} {held}"):
            problems.append(f"{name} in reproduce: {state} ({why}); want not installed, naming "
                            f"{release}'s {held}")
        # The whole line (reproduce keeps 200 characters): where it is fetched to, and how.
        line = run([sys.executable, "-m", peer_module(os.path.join(PEERS, script)), "--ready", "--cache", empty],
                   env).stdout.strip()
        if f"cuda-{release}-download (run python3 -m peers.eed.{name} {flag} " not in line:
            problems.append(f"{name} --ready: {line!r} does not say where {release} is fetched "
                            f"to, and how ({flag})")
    # 4.6.3's sources fetched, no nvcc: --ready says the build on the first run lacks it.
    cache = os.path.join(work, "cache-with-sources")
    os.makedirs(os.path.join(cache, "stringzillas", "cuda-4.6.3-download"))
    bare = dict(env, PATH=os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin",
                CUDA_HOME=os.path.join(work, "no-cuda"))
    proc = run([sys.executable, "-m", peer_module(os.path.join(PEERS, "stringzilla_paired.py")), "--ready",
                "--cache", cache], bare)
    line = proc.stdout.strip()
    if shutil.which("nvcc", path=bare["PATH"]):
        print(f"(nvcc is in {bare['PATH']}: the no-nvcc line is not checked)")
    elif proc.returncode != 1 or "4.6.3 is built from its sources" not in line \
            or "nvcc is not found" not in line:
        problems.append(f"4.6.3's sources without nvcc: exit {proc.returncode}, {line!r}; want 1 "
                        "and a line saying nvcc is not found")
    clitest.finish(problems, "ok: reproduce asks both StringZilla releases, each says what it "
                             "lacks")


def rapidfuzz_real(ladder, work):
    script = os.path.join(PEERS, "rapidfuzz.py")
    probe = run([sys.executable, "-m", peer_module(script), "--ready"])
    print(probe.stdout.strip())
    if probe.returncode != 0:
        print("skipped: RapidFuzz is not ready here")
        sys.exit(SKIP)
    problems = []
    ours = ladder_runs(ladder, FIXTURE, work, os.path.join(work, "dumps"))
    results = peer("rapidfuzz.py", FIXTURE, os.path.join(work, "peer.json"), "--ladder", ladder,
                   "--offline", "--also-serial", "--validate", "full")
    check_runs(results, ours, ["peer_rapidfuzz", "peer_rapidfuzz_serial"], problems)
    for r in results.runs:
        if r.passed and set(r.facts) != {"threads", "threads_busy"}:
            problems.append(f"{r.variant} at {r.point}: facts {r.facts}")
    clitest.finish(problems, f"ok: {len(results.runs)} RapidFuzz runs validated by ingest")


def stringzilla_real(ladder, work):
    ready = []
    for script in STRINGZILLA:
        probe = run([sys.executable, "-m", peer_module(os.path.join(PEERS, script)), "--ready"])
        print(probe.stdout.strip())
        if probe.returncode == 0:
            ready.append(script)
    if not ready:
        print("skipped: no StringZilla release is ready here")
        sys.exit(SKIP)
    problems = []
    path = levenshtein_config(work)
    ours = ladder_runs(ladder, path, work, os.path.join(work, "dumps"))
    count = 0
    for script in ready:  # 4.6.3's first run builds it (minutes) unless --build-only did
        release, variant = STRINGZILLA[script][:2]
        results = peer(script, path, os.path.join(work, f"{script}.json"), "--ladder", ladder,
                       "--offline", "--validate", "full")
        check_runs(results, ours, [variant.removesuffix("_cpu")], problems, UNSUPPORTED_W_SWAP_2)
        count += len(results.runs)
        if (results.peer or {}).get("version") != release or not all(
                r.label == f"StringZilla {release}" for r in results.runs):
            problems.append(f"{script}: the results do not name release {release}")
    clitest.finish(problems, f"ok: {count} StringZilla runs validated by ingest "
                             f"({', '.join(ready)})")


def main():
    run_case("peers_eed.py", {"rapidfuzz_replay": rapidfuzz_replay,
                              "stringzilla_replay": stringzilla_replay,
                              "stringzilla_releases": stringzilla_releases,
                              "rapidfuzz_real": rapidfuzz_real,
                              "stringzilla_real": stringzilla_real})


if __name__ == "__main__":
    main()

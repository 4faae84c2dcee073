#!/usr/bin/env python3
"""The eed study's peers (peers/rapidfuzz_eed.py, peers/stringzilla_eed.py) on a tiny config.

    peers_eed.py LADDER SCRATCH_ROOT CASE

CASE is one of
  rapidfuzz_dry    rapidfuzz_eed.py --dry-run-fake: no network, and no rapidfuzz (a module of
                   that name that refuses to import is put first on the path, and the install
                   cache is an empty folder): the results file is the harness's layout, with
                   the points, sweeps and params of ladder's own runs of the same config, the
                   alphabet-256 and non-unit-cost points unsupported with their reasons;
  stringzilla_dry  the same for stringzilla_eed.py (stringzilla and stringzillas refused),
                   every run marked as the plain Levenshtein distance; and, on a machine
                   without nvidia-smi, a real run exits 2 with one line naming the device;
  rapidfuzz_vs_seq ladder's baseline eed/seq and RapidFuzz's Damerau-Levenshtein distance,
                   pair by pair, from both --dump-outputs folders: equal on every point the
                   peer can run. Skipped (77) when rapidfuzz is neither importable nor in
                   peers/cache/ (the test never installs it).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np  # the peers need it too

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clitest  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURE = os.path.join(ROOT, "tests", "cli", "fixtures", "eed_peer_tiny.json")
PEERS = os.path.join(ROOT, "peers")
SKIP = 77
# Points of the fixture a peer cannot run, and a word its reason must hold.
UNSUPPORTED = {"alphabet=256,n=33,pairs=9,seed=2015,spread=0.5": "newline",
               "alphabet=10,n=20,pairs=5,seed=2015,w_del=3,w_ins=2,w_sub=4,w_swap=3": "unit"}


def run(cmd, env=None, timeout=600):
    print("$", " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env)


def ladder_runs(ladder, work, dumps=None):
    """ladder's own eed/seq runs of the fixture: {point: run}."""
    out = os.path.join(work, "ladder.json")
    cmd = [ladder, "run", FIXTURE, "--out", out, "--quiet"]
    if dumps:
        cmd += ["--dump-outputs", dumps]
    proc = run(cmd)
    if proc.returncode != 0:
        clitest.finish([f"ladder run failed ({proc.returncode}): {proc.stderr[-2000:]}"])
    return {r["point"]: r for r in json.load(open(out))["runs"]}


def check_file(path, ours, variant, backend, problems, extra=None):
    """The peer's results file against ladder's runs of the same config."""
    try:
        results = json.load(open(path))
    except (OSError, ValueError) as err:
        problems.append(f"{path}: {err}")
        return None
    if results.get("schema_version") != 1 or not results.get("complete"):
        problems.append(f"schema_version {results.get('schema_version')}, complete "
                        f"{results.get('complete')}")
    runs = results.get("runs", [])
    if [r["point"] for r in runs] != list(ours):
        problems.append(f"points {[r['point'] for r in runs]} are not ladder's {list(ours)}")
    for r in runs:
        mine = ours.get(r["point"])
        where = f"{variant} at {r['point']}"
        if (r["study"], r["variant"], r["role"], r["backend"]) != ("eed", variant, "peer",
                                                                  backend):
            problems.append(f"{where}: study/variant/role/backend "
                            f"{(r['study'], r['variant'], r['role'], r['backend'])}")
        if mine and (r["sweep"], r["params"]) != (mine["sweep"], mine["params"]):
            problems.append(f"{where}: sweep/params {r['sweep']} {r['params']} are not "
                            f"ladder's {mine['sweep']} {mine['params']}")
        if r["point"] in UNSUPPORTED:
            if r["status"] != "unsupported" or UNSUPPORTED[r["point"]] not in r["reason"]:
                problems.append(f"{where}: {r['status']} ({r['reason']}), want unsupported "
                                f"mentioning '{UNSUPPORTED[r['point']]}'")
            continue
        if r["status"] != "passed" or not r.get("timing"):
            problems.append(f"{where}: {r['status']} ({r['reason']})")
            continue
        if mine and r["data"]["cells"] != mine["data"]["cells"]:
            problems.append(f"{where}: cells {r['data']['cells']}, ladder's "
                            f"{mine['data']['cells']}")
        if r["data"]["cells"] > 0 and "gcups" not in r["metrics"]:
            problems.append(f"{where}: no gcups metric")
        if r["validation"]["checked"] < 1:
            problems.append(f"{where}: nothing validated")
        for k, v in (extra or {}).items():
            if r.get(k) != v:
                problems.append(f"{where}: {k} = {r.get(k)!r}, want {v!r}")
    return results


def dry(ladder, scratch, script, variant, backend, poison, extra):
    problems = []
    with tempfile.TemporaryDirectory(prefix=f"{script}.", dir=scratch) as work:
        ours = ladder_runs(ladder, work)
        env = clitest.poisoned_env(work, poison, "the dry run must not import it")
        out = os.path.join(work, "peer.json")
        empty = os.path.join(work, "empty-cache")
        os.makedirs(empty)
        proc = run([sys.executable, os.path.join(PEERS, script), FIXTURE, "--out", out,
                    "--ladder", ladder, "--cache", empty, "--dry-run-fake", "--quiet"], env)
        if proc.returncode != 0:
            clitest.finish([f"{script} --dry-run-fake exited {proc.returncode}: "
                            f"{proc.stderr[-2000:]}"])
        results = check_file(out, ours, variant, backend, problems, extra)
        if results and not results.get("peer", {}).get("fake"):
            problems.append("the file's peer object does not say fake")
        if os.listdir(empty):
            problems.append(f"the dry run put {os.listdir(empty)} into the cache")
        if script == "stringzilla_eed.py" and not any(
                os.path.exists(os.path.join(d, "nvidia-smi"))
                for d in os.environ.get("PATH", "").split(os.pathsep)):
            proc = run([sys.executable, os.path.join(PEERS, script), FIXTURE, "--out",
                        os.path.join(work, "real.json"), "--ladder", ladder, "--cache", empty],
                       env)
            lines = proc.stderr.strip().splitlines()
            if proc.returncode != 2 or len(lines) != 1 or "CUDA" not in lines[0]:
                problems.append(f"without a GPU: exit {proc.returncode}, stderr {lines}; want "
                                "2 and one line naming the CUDA device")
            if os.path.exists(os.path.join(work, "real.json")) or os.listdir(empty):
                problems.append("without a GPU the run wrote a file or fetched something")
    clitest.finish(problems)


def versus_seq(ladder, scratch):
    script = os.path.join(PEERS, "rapidfuzz_eed.py")
    probe = run([sys.executable, script, "--install-only", "--no-install"])
    if probe.returncode != 0:
        print(f"skipped: rapidfuzz is not available ({probe.stderr.strip()})")
        sys.exit(SKIP)
    print(probe.stdout.strip())
    problems = []
    with tempfile.TemporaryDirectory(prefix="rapidfuzz_vs_seq.", dir=scratch) as work:
        ours_dir, peer_dir = os.path.join(work, "ladder"), os.path.join(work, "peer")
        ours = ladder_runs(ladder, work, ours_dir)
        out = os.path.join(work, "peer.json")
        proc = run([sys.executable, script, FIXTURE, "--out", out, "--ladder", ladder,
                    "--no-install", "--also-serial", "--validate", "full",
                    "--dump-outputs", peer_dir, "--quiet"])
        if proc.returncode != 0:
            clitest.finish([f"rapidfuzz_eed.py exited {proc.returncode}: {proc.stderr[-2000:]}"])
        compared = 0
        for name in sorted(os.listdir(ours_dir)):
            point_part = name.split("__", 2)[2]
            for variant in ("peer_rapidfuzz", "peer_rapidfuzz_serial"):
                theirs = os.path.join(peer_dir, f"eed__{variant}__{point_part}")
                unsupported = any(point_part[:-4] == "".join(
                    ch if ch.isalnum() or ch in ".-" else "_" for ch in p) for p in UNSUPPORTED)
                if unsupported:
                    if os.path.exists(theirs):
                        problems.append(f"{variant} wrote {theirs} for an unsupported point")
                    continue
                if not os.path.exists(theirs):
                    problems.append(f"no {variant} output for {point_part}")
                    continue
                want = np.load(os.path.join(ours_dir, name))
                got = np.load(theirs)
                if want.shape != got.shape or not (want == got).all():
                    diff = np.flatnonzero(want != got)[:5].tolist() \
                        if want.shape == got.shape else []
                    problems.append(f"{variant} at {point_part}: shapes {want.shape} "
                                    f"{got.shape}, first differing pairs {diff}")
                compared += 1
        if compared != 2 * (len(ours) - len(UNSUPPORTED)):
            problems.append(f"compared {compared} outputs, want "
                            f"{2 * (len(ours) - len(UNSUPPORTED))}")
        peer = json.load(open(out))
        bad = [(r["variant"], r["point"], r["status"]) for r in peer["runs"]
               if r["status"] not in ("passed", "unsupported")]
        if bad:
            problems.append(f"peer runs not passed: {bad}")
        # A package inside the project is named relative to it, never by this machine's path.
        location = peer.get("peer", {}).get("location", "")
        if location.startswith(ROOT + os.sep):
            problems.append(f"the peer's location {location} names this machine's folders")
    clitest.finish(problems, f"ok: {compared} outputs equal to ladder's eed/seq")


def main():
    ladder, scratch, case = clitest.case_args("peers_eed.py")
    if case == "rapidfuzz_dry":
        dry(ladder, scratch, "rapidfuzz_eed.py", "peer_rapidfuzz", "cpu", ["rapidfuzz"],
            {"distance": "damerau-levenshtein (unrestricted, unit costs)"})
    elif case == "stringzilla_dry":
        dry(ladder, scratch, "stringzilla_eed.py", "peer_stringzilla_levenshtein", "gpu",
            ["stringzilla", "stringzillas"], {"distance": "levenshtein (no swaps)"})
    elif case == "rapidfuzz_vs_seq":
        versus_seq(ladder, scratch)
    else:
        sys.exit(f"peers_eed.py: unknown case {case}")


if __name__ == "__main__":
    main()

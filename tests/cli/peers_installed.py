#!/usr/bin/env python3
"""Every peer (peers/<study>/*.py not starting with '_', as `ladder reproduce` finds them):
its `--ready` answer, which reproduce asks before it runs a peer, and its bad input.

    peers_installed.py LADDER SCRATCH_ROOT

Checks, on any machine (no GPU, no network, no peer package needed; nothing is fetched):
  - `--ready` exits 0 (`NAME: ready (...)`) or 1 (`NAME: not ready: ...`), exactly one line on
    stdout, within a few seconds; with an empty --cache and the peers' Python packages made
    unimportable each says "not ready", and the cache stays empty;
  - bad input exits 2 with one line on stderr and creates nothing: no CONFIG, an unknown option,
    a missing config, a config of another study, an unknown sweep, a missing --replay folder,
    and each peer's own options given bad values (OWN_BAD).
"""
import glob
import os
import subprocess
import sys
import tempfile
import time

import clitest  # noqa: E402
from peer_tests import peer_module  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PEERS = sorted(p for p in glob.glob(os.path.join(ROOT, "peers", "*", "*.py"))
               if not os.path.basename(p).startswith("_"))
PACKAGES = ["rapidfuzz", "stringzilla", "stringzillas"]  # what the peers import
CONFIGS = sorted(glob.glob(os.path.join(ROOT, "configs", "*", "*.json")))
TIME_LIMIT = 10  # seconds a --ready may take (it should take well under one)
# Each peer's own options, given bad values.
OWN_BAD = {"stringzilla": [["--pairs-per-call", "0"], ["--pairs-per-call", "x"],
                           ["--wheels-for", "3"], ["--wheels-for", "3.12; ls"]]}
OWN_BAD["stringzilla_paired"] = OWN_BAD["stringzilla"]  # stringzilla.py at 4.6.3


def call(script, args, env=None):
    cmd = [sys.executable, "-m", peer_module(script), *args]
    print("$", " ".join(cmd))
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=env)
    proc.seconds = time.monotonic() - start
    print(f"  exit {proc.returncode} in {proc.seconds:.2f} s: {proc.stdout.strip()}"
          f"{' | stderr: ' + proc.stderr.strip() if proc.stderr.strip() else ''}")
    return proc


def ready(script, args, problems, env=None):
    """The --ready line, checked; None when the answer is malformed."""
    name = os.path.basename(script)[:-3]
    proc = call(script, ["--ready", *args], env)
    lines = proc.stdout.splitlines()
    want = f"{name}: ready (" if proc.returncode == 0 else f"{name}: not ready: "
    if proc.returncode not in (0, 1) or len(lines) != 1 or not lines[0].startswith(want):
        problems.append(f"{name} --ready {args}: exit {proc.returncode}, stdout {lines}; want 0 "
                        f"or 1 and one line starting {want!r}")
        return None
    if proc.seconds > TIME_LIMIT:
        problems.append(f"{name} --ready took {proc.seconds:.1f} s")
    return lines[0]


def bad_input(script, args, work, problems):
    proc = call(script, args)
    lines = proc.stderr.strip().splitlines()
    if proc.returncode != 2 or len(lines) != 1 or proc.stdout.strip():
        problems.append(f"{os.path.basename(script)} {args}: exit {proc.returncode}, stderr "
                        f"{lines}; want 2 and one line on stderr")
    if os.listdir(work):
        problems.append(f"{os.path.basename(script)} {args} created {os.listdir(work)}")


def main():
    ladder, scratch = clitest.ladder_scratch("peers_installed.py")
    problems = []
    if not PEERS:
        clitest.finish(["no peers/<study>/*.py found"])
    with tempfile.TemporaryDirectory(prefix="peers_installed.", dir=scratch) as work:
        empty, out = os.path.join(work, "empty-cache"), os.path.join(work, "out")
        os.makedirs(empty)
        os.makedirs(out)
        env = dict(clitest.poisoned_env(work, PACKAGES), PIP_NO_INDEX="1")
        for script in PEERS:
            ready(script, [], problems)
            line = ready(script, ["--cache", empty], problems, env)
            if line is not None and ": not ready: " not in line:
                problems.append(f"{script} --ready with an empty cache: {line!r}")
            study = os.path.basename(os.path.dirname(script))
            config = next(c for c in CONFIGS if os.path.basename(os.path.dirname(c)) == study)
            other = next(c for c in CONFIGS if os.path.basename(os.path.dirname(c)) != study)
            result = ["--out", os.path.join(out, "r.json"), "--ladder", ladder]
            for args in ([], ["--frobnicate"], [os.path.join(work, "none.json"), *result],
                         [other, *result], [config, *result, "--only-sweeps", "nosuchsweep"],
                         [config, *result, "--replay", os.path.join(work, "none")],
                         *([config, *result, *own] for own in OWN_BAD.get(
                             os.path.basename(script)[:-3], []))):
                bad_input(script, args, out, problems)
        if os.listdir(empty):
            problems.append(f"--ready put {os.listdir(empty)} into the empty cache")
    clitest.finish(problems, f"ok: {len(PEERS)} peers")


if __name__ == "__main__":
    main()

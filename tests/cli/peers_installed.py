#!/usr/bin/env python3
"""peers/installed.py, which `ladder reproduce` asks before it runs a peer, and the "reproduce"
config field the peers accept.

    peers_installed.py [SCRATCH_ROOT]

Checks, on any machine (no GPU, no network needed; nothing is fetched or installed):
  - an unknown peer, no peer and a bad option exit 2 with one line on stderr, nothing on stdout;
  - cutwed, rapidfuzz and stringzilla each exit 0 (`PEER: ready (...)`) or 1, with exactly one
    line on stdout, within a few seconds;
  - with an empty cache (--cache, as the scripts' own option) cutwed and stringzilla say "not
    installed", and so does rapidfuzz when a module of that name refuses to import; the cache
    stays empty;
  - peers/common.py expands the paper configs of the peers' studies with a top-level
    "reproduce" object added (accepted and ignored: the same points).
"""
import copy
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clitest  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "peers", "installed.py")
PEERS = ("cutwed", "rapidfuzz", "stringzilla")
LABELS = {"cutwed": "cuTWED", "rapidfuzz": "RapidFuzz", "stringzilla": "StringZilla"}
TIME_LIMIT = 30  # seconds a call may take (it should take well under one)


def call(args, env=None):
    cmd = [sys.executable, SCRIPT, *args]
    print("$", " ".join(cmd))
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        clitest.finish([f"{' '.join(args)}: did not finish within 120 s"])
    proc.seconds = time.monotonic() - start
    print(f"  exit {proc.returncode} in {proc.seconds:.2f} s: {proc.stdout.strip()}"
          f"{' | stderr: ' + proc.stderr.strip() if proc.stderr.strip() else ''}")
    return proc


def bad_usage(args, problems):
    proc = call(args)
    lines = proc.stderr.strip().splitlines()
    if proc.returncode != 2 or proc.stdout or len(lines) != 1:
        problems.append(f"{args}: exit {proc.returncode}, stdout {proc.stdout!r}, stderr "
                        f"{lines}; want 2, nothing on stdout, one line on stderr")


def one_line(proc, peer, args, problems):
    """The line of an exit 0 or 1, checked; None when the call is wrong."""
    lines = proc.stdout.splitlines()
    if proc.returncode not in (0, 1) or len(lines) != 1 or not lines[0].strip():
        problems.append(f"{args}: exit {proc.returncode}, stdout {lines}; want 0 or 1 and "
                        "exactly one line")
        return None
    if proc.returncode == 0 and not lines[0].startswith(f"{peer}: ready ("):
        problems.append(f"{args}: exit 0 but the line is {lines[0]!r}, want '{peer}: ready (...'")
    if proc.returncode == 1 and not lines[0].startswith(LABELS[peer] + " not "):
        problems.append(f"{args}: exit 1 but the line is {lines[0]!r}, want '{LABELS[peer]} "
                        "not installed: ...' or '... not ready: ...'")
    if proc.seconds > TIME_LIMIT:
        problems.append(f"{args}: took {proc.seconds:.1f} s (want a few)")
    return lines[0]


def reproduce_field(problems):
    """The paper configs of the peers' studies expand to the same points with 'reproduce'."""
    spec = importlib.util.spec_from_file_location("ladder_peers_common",
                                                  os.path.join(ROOT, "peers", "common.py"))
    common = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(common)
    for study, peer in (("twed", "cuTWED"), ("eed", "RapidFuzz")):
        path = os.path.join(ROOT, "configs", study, "paper.json")
        with open(path) as f:
            config = json.load(f)
        plain = {k: v for k, v in config.items() if k != "reproduce"}
        scaled = copy.deepcopy(config)
        scaled.setdefault("reproduce", {"quick": {"repetitions": 1}})
        try:
            want = common.expand_config(plain, study, peer)
            got = common.expand_config(scaled, study, peer)
        except common.PeerError as err:
            problems.append(f"{path}: {err}")
            continue
        if got != want:
            problems.append(f"{path}: 'reproduce' changed the points")
        print(f"  {path}: {len(got)} points, 'reproduce' accepted")


def main():
    scratch = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else None
    if scratch:
        os.makedirs(scratch, exist_ok=True)
    problems = []
    bad_usage(["nosuchpeer"], problems)
    bad_usage([], problems)
    bad_usage(["cutwed", "--frobnicate"], problems)
    for peer in PEERS:
        one_line(call([peer]), peer, [peer], problems)
    with tempfile.TemporaryDirectory(prefix="peers_installed.", dir=scratch) as work:
        empty = os.path.join(work, "empty-cache")
        os.makedirs(empty)
        env = dict(clitest.poisoned_env(work, ["rapidfuzz"]), PIP_NO_INDEX="1")
        for peer in PEERS:
            args = [peer, "--cache", empty]
            line = one_line(call(args, env), peer, args, problems)
            if line is not None and not line.startswith(f"{LABELS[peer]} not installed: "):
                problems.append(f"{args} (rapidfuzz unimportable): {line!r}; want "
                                f"'{LABELS[peer]} not installed: ...'")
        if os.listdir(empty):
            problems.append(f"installed.py put {os.listdir(empty)} into the empty cache")
    reproduce_field(problems)
    clitest.finish(problems)


if __name__ == "__main__":
    main()

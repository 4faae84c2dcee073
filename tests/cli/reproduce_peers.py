#!/usr/bin/env python3
"""`ladder reproduce` reuses a peer's complete results instead of running the peer again.

    reproduce_peers.py LADDER CONFIGS_DIR PEERS_DIR SCRATCH_ROOT

A project folder is made in SCRATCH_ROOT, and named the share folder (LADDER_SHARE):
configs/dtw/a_fast.json from CONFIGS_DIR (asking for the ladder figure, hot timing), plots/ as a
link to the source tree's, and a package peers/ whose shared modules link to PEERS_DIR's and whose
peers/dtw/fake.py (run as peers.dtw.fake), a peer built on them, hands over the outputs of
ladder's own seq_tworow (dumped once per peer run, which it counts). Then:

1. a first `ladder reproduce` runs the peer once ("ran") and writes its results;
2. a second reuses them ("reusing", state "reused") and does not call the peer;
3. after the results file is made to name another commit, the peer runs again (--force: the
   folder holds another commit's file): results validated by another build are not this
   reproduction's;
4. a peer whose outputs are wrong (the fake adds 1 to the first of each) still "ran": its
   results are whole, the manifest says how many runs did not pass, and REPORT.md names them.
"""
import json
import os
import sys
import tempfile
from pathlib import Path

from clitest import finish, run_ladder

FAKE = '''
import os, subprocess, sys, tempfile
from pathlib import Path
from .. import cli, handover

LABEL = "fake peer"
DATA_SUFFIX = ".npy"
PREPARE = {"--nothing": ("nothing to prepare", lambda args: "")}

def options(p):
    pass

def ready(args):
    return "always"

def unsupported(point):
    return ""

def setup(args):
    with open(Path(__file__).with_name("calls.txt"), "a") as f:
        f.write("setup\\n")
    dump = tempfile.mkdtemp()
    subprocess.run([args.ladder, "run", args.config, "--scale", args.scale, "--filter",
                    "seq_tworow", "--dump-outputs", dump, "--quiet", "--out",
                    os.path.join(dump, "r.json")], check=True, capture_output=True)
    if os.environ.get("LADDER_TEST_PEER_WRONG"):
        import numpy as np
        for f in Path(dump).glob("*.npy"):
            a = np.load(f)
            a.flat[0] += 1
            np.save(f, a)
    return dump, {"version": "0"}

def variants(args, lib):
    return [{"name": "peer_fake", "label": "fake peer", "backend": "cpu", "precision": "fp32",
             "change": "peer: ladder's own outputs handed back"}]

def run(point, path, args, lib):
    args.replay = lib
    return handover.replayed(args, point, variants(args, lib), "dtw")

sys.exit(cli.main(sys.modules[__name__]))
'''


def make_project(root, configs, plots):
    (root / "configs" / "dtw").mkdir(parents=True)
    # Its ladder figure and timing mode are what a peer's results leave out of the config.
    config = json.loads((Path(configs) / "dtw" / "a_fast.json").read_text())
    config.update(figures=["ladder"], timing="hot")
    (root / "configs" / "dtw" / "a_fast.json").write_text(json.dumps(config))
    (root / "plots").symlink_to(plots, target_is_directory=True)
    (root / "peers" / "dtw").mkdir(parents=True)
    for shared in Path(PEERS).glob("*.py"):  # __init__.py and the modules a peer imports
        (root / "peers" / shared.name).symlink_to(shared)
    (root / "peers" / "dtw" / "__init__.py").write_text("")
    (root / "peers" / "dtw" / "fake.py").write_text(FAKE)


def reproduce(ladder, root, problems, want_state, want_calls, wrong=False, force=False):
    # The project folder made here is the run's share folder: its peers/ are those run.
    env = dict(os.environ, LADDER_SHARE=str(root))
    if wrong:
        env["LADDER_TEST_PEER_WRONG"] = "1"
    proc = run_ladder([ladder, "reproduce", "--configs", "configs", "--scale", "quick",
                       "--out", "out"] + (["--force"] if force else []), cwd=root, env=env, text=True)
    if proc.returncode != 0:
        problems.append(f"reproduce exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
        return
    manifest = json.loads((root / "out" / "reproduction.json").read_text())
    states = [p.get("state") for p in manifest.get("peers", [])]
    if states != [want_state]:
        problems.append(f"peer states {states}, want [{want_state!r}]")
    if want_state == "reused" and "peer fake on repro-fast: reusing" not in proc.stdout:
        problems.append("reproduce did not say it reuses the peer's results")
    calls = (root / "peers" / "dtw" / "calls.txt").read_text().count("setup")
    if calls != want_calls:
        problems.append(f"the peer ran {calls} time(s), want {want_calls} ({want_state})")
    if wrong:
        why = manifest["peers"][0].get("why", "")
        if "did not pass validation" not in why:
            problems.append(f"a peer with wrong outputs: manifest why {why!r}")
        report = (root / "out" / "REPORT.md").read_text()
        if "on `repro-fast` at" not in report or "incorrect" not in report:
            problems.append("REPORT.md does not name the peer's incorrect runs")


def main():
    global PEERS
    ladder, configs, PEERS, scratch = (os.path.abspath(a) for a in sys.argv[1:5])
    plots = Path(PEERS).parent / "plots"
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        root = Path(tmp)
        make_project(root, configs, plots)
        reproduce(ladder, root, problems, "ran", 1)
        if not problems:
            reproduce(ladder, root, problems, "reused", 1)
        for calls, wrong in ((2, False), (3, True)):
            if problems:
                break
            peer_file = root / "out" / "repro-fast-fake.json"
            r = json.loads(peer_file.read_text())
            r["ladder"]["git_commit"] = "0000000"
            peer_file.write_text(json.dumps(r))
            # Another commit's file in the folder: written over only with --force.
            reproduce(ladder, root, problems, "ran", calls, wrong, force=True)
    finish(problems)


if __name__ == "__main__":
    main()

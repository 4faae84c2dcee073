#!/usr/bin/env python3
"""Hostile input to the peers (peers/<study>/*.py): each is refused with one line on stderr and
exit status 2, within seconds, writing no results and leaving no cache folder behind. No GPU,
no network and no peer package needed: nothing gets as far as a library.

    peers_hostile.py LADDER SCRATCH_ROOT CASE

CASE is one of
  replay_fifo     cutwed.py --replay DIR where DIR holds a FIFO named like a dump of the
                  config's first point (its load would block for ever);
  ladder_not_json every peer with a --ladder that prints no JSON (`hello`), then one that
                  prints JSON but no plan of points;
  gen_not_json    cutwed.py --replay with a --ladder whose `plan` is ladder's and whose `gen`
                  prints no JSON;
  sdist_not_tar   cutwed.py --build-only --sdist FILE that is not a tar archive (a stand-in
                  nvcc on PATH): the --cache folder it names is not created;
  source_proc     cudtw.py, skybench.py and skyalign.py --build-only --source DIR whose files
                  are links to /proc/self/mem (it cannot be read), and --source /proc/self and
                  /proc/self/mem: the --cache folder is not created.
"""
import glob
import json
import os
import subprocess
import sys

import clitest  # noqa: E402
from peer_tests import ROOT, peer_module, run_case  # noqa: E402

PEERS = sorted(p for p in glob.glob(os.path.join(ROOT, "peers", "*", "*.py"))
               if not os.path.basename(p).startswith("_"))
SMOKE = os.path.join(ROOT, "configs", "{study}", "smoke.json")
WAIT = 60  # seconds; a read blocked on a FIFO never ends
PACKAGES = ["rapidfuzz", "stringzilla", "stringzillas"]  # what the peers import


def peer(study, name):
    return os.path.join(ROOT, "peers", study, f"{name}.py")


def refused(args, work, problems, env=None, gone=()):
    """ARGS (a peer script and its arguments) run with WORK as its folder: a problem unless
    it exits 2 with one line on stderr and nothing on stdout, within WAIT seconds, leaving
    none of GONE (paths) behind."""
    cmd = [sys.executable, "-m", peer_module(args[0]), *args[1:]]
    print("$", " ".join(cmd))
    try:
        proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=WAIT,
                              stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        problems.append(f"{' '.join(args)}: still running after {WAIT} s (killed)")
        return
    lines = proc.stderr.strip().splitlines()
    print(f"  exit {proc.returncode}: {proc.stderr.strip()[-600:]}")
    if proc.returncode != 2 or len(lines) != 1 or proc.stdout.strip() or "Traceback" in proc.stderr:
        problems.append(f"{' '.join(args)}: exit {proc.returncode}, stdout "
                        f"{proc.stdout.strip()[:200]!r}, stderr {lines[-3:]}; want 2 and one line")
    problems += [f"{' '.join(args)} left {p} behind" for p in gone if os.path.lexists(p)]


def script_file(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def stand_in_nvcc(work):
    """An environment whose PATH finds a stand-in nvcc (it only says its release) first."""
    folder = os.path.join(work, "bin")
    os.makedirs(folder, exist_ok=True)
    script_file(os.path.join(folder, "nvcc"),
                "#!/bin/sh\necho 'Cuda compilation tools, release 12.4, V12.4.131'\n")
    return dict(os.environ, PATH=folder + os.pathsep + os.environ.get("PATH", ""))


def replay_fifo(ladder, work):
    config = SMOKE.format(study="twed")
    plan = json.loads(subprocess.run([ladder, "plan", config, "--json"], capture_output=True,
                                     text=True, check=True).stdout)
    key = plan["points"][0]["key"]
    safe = "".join(c if c.isalnum() or c in ".-" else "_" for c in key)
    dumps, out, cache = (os.path.join(work, n) for n in ("dumps", "peer.json", "cache"))
    os.makedirs(dumps)
    os.mkfifo(os.path.join(dumps, f"twed__seq_full__{safe}.npy"))
    problems = []
    refused([peer("twed", "cutwed"), config, "--out", out, "--ladder", ladder, "--replay", dumps,
             "--cache", cache, "--quiet"], work, problems, gone=[out, cache])
    clitest.finish(problems)


def ladder_not_json(ladder, work):
    problems = []
    env = clitest.poisoned_env(work, PACKAGES)
    for name, text in (("hello", "echo hello"),
                       ("no-plan", "echo '{\"study\": \"twed\", \"points\": [1]}'")):
        fake = script_file(os.path.join(work, name), f"#!/bin/sh\n{text}\n")
        for script in PEERS:
            study = os.path.basename(os.path.dirname(script))
            out = os.path.join(work, "peer.json")
            refused([script, SMOKE.format(study=study), "--out", out, "--ladder", fake,
                     "--cache", os.path.join(work, "cache")], work, problems, env=env,
                    gone=[out, os.path.join(work, "cache")])
    clitest.finish(problems)


GEN_NOT_JSON = """#!{python}
import os, sys
if sys.argv[1:2] == ["gen"]:
    print("not JSON")
    sys.exit(0)
os.execv({ladder!r}, [{ladder!r}] + sys.argv[1:])
"""


def gen_not_json(ladder, work):
    fake = script_file(os.path.join(work, "ladder-gen"),
                       GEN_NOT_JSON.format(python=sys.executable, ladder=ladder))
    dumps, out = os.path.join(work, "dumps"), os.path.join(work, "peer.json")
    os.makedirs(dumps)
    problems = []
    refused([peer("twed", "cutwed"), SMOKE.format(study="twed"), "--out", out, "--ladder", fake,
             "--replay", dumps, "--cache", os.path.join(work, "cache"), "--quiet"], work,
            problems, gone=[out, os.path.join(work, "cache")])
    clitest.finish(problems)


def sdist_not_tar(ladder, work):
    sdist, cache = os.path.join(work, "cuTWED-2.0.2.tar.gz"), os.path.join(work, "cache")
    with open(sdist, "w") as f:
        f.write("not a tar archive\n")
    problems = []
    for arg in (sdist, os.path.join(work, "fifo")):
        if arg.endswith("fifo"):
            os.mkfifo(arg)
        refused([peer("twed", "cutwed"), "--build-only", "--arch", "90", "--sdist", arg,
                 "--cache", cache], work, problems, env=stand_in_nvcc(work), gone=[cache])
    clitest.finish(problems)


def source_proc(ladder, work):
    source, cache = os.path.join(work, "source"), os.path.join(work, "cache")
    os.makedirs(os.path.join(source, "src"))
    for name in ("LICENSE", "LICENSE.md", "makefile"):
        os.symlink("/proc/self/mem", os.path.join(source, name))
    problems = []
    env = stand_in_nvcc(work)
    for study, name in (("dtw", "cudtw"), ("skyline", "skybench"), ("skyline", "skyalign")):
        for given in (source, "/proc/self", "/proc/self/mem"):
            refused([peer(study, name), "--build-only", "--arch", "90", SMOKE.format(study=study),
                     "--ladder", ladder, "--source", given, "--cache", cache], work, problems,
                    env=env, gone=[cache])
    clitest.finish(problems)


CASES = {f.__name__: f for f in (replay_fifo, ladder_not_json, gen_not_json, sdist_not_tar,
                                 source_proc)}

if __name__ == "__main__":
    run_case("peers_hostile.py", CASES)

#!/usr/bin/env python3
"""`run --gpus all` stopped mid-way: every child stops, and only whole files are left.

    gpus_interrupt.py LADDER SCRATCH_ROOT SIGINT|SIGTERM

Starts a sweep of six slow CPU points on every GPU (`--gpus all`: a child per GPU, each a
shard), waits until a shard's results file appears, then sends the signal: SIGINT to the whole
process group, as Ctrl-C at a terminal does, or SIGTERM to the parent alone, which must pass it
on. The parent must end by the signal within a time limit, no child may outlive it, and every
results file left must read whole. Without a GPU it reports skipped (exit 77).
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from clitest import finish, results

CONFIG = {"name": "cli-gpus-interrupt", "study": "dtw", "data": {"generator": "cbf"},
          "params": {"n": 256, "entries": 8000}, "axes": {"seed": [1, 2, 3, 4, 5, 6]},
          "variants": ["seq_full"], "repetitions": 3, "warmup": 0}
LIMIT_S = 150


def gpus_present():
    """Whether the driver lists a GPU (ladder's --gpus sees the same devices)."""
    if not shutil.which("nvidia-smi"):
        return False
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    return out.returncode == 0 and "GPU 0" in out.stdout


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("SIGINT", "SIGTERM"):
        sys.exit("usage: gpus_interrupt.py LADDER SCRATCH_ROOT SIGINT|SIGTERM")
    ladder, scratch, sig = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(dir=scratch) as work:
        config = os.path.join(work, "c.json")
        with open(config, "w") as f:
            json.dump(CONFIG, f)
        if not gpus_present():
            print("no GPU: --gpus cannot be tried here")
            sys.exit(77)
        out = os.path.join(work, "out.json")
        proc = subprocess.Popen([ladder, "run", config, "--gpus", "all", "--out", out], cwd=work,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                                preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM)])
        shards = os.path.join(work, "out.shards")
        deadline = time.time() + LIMIT_S
        while not glob.glob(os.path.join(shards, "*.json")) and proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        if proc.poll() is not None:
            problems.append("the run ended before it could be stopped: %s" % proc.returncode)
        else:
            children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
            if sig == "SIGINT":
                os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole foreground group
            else:
                proc.send_signal(signal.SIGTERM)
            try:
                _, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                problems.append("the parent did not end within 60 s of %s" % sig)
                err = b""
            if proc.returncode != -getattr(signal, sig):
                problems.append("the parent ended with %s, not by %s" % (proc.returncode, sig))
            if b"interrupted" not in err:
                problems.append("no word of the interruption: %r" % err[-300:])
            time.sleep(0.5)
            alive = [c for c in children if os.path.exists("/proc/%s" % c)]
            if alive:
                problems.append("children outlived the parent: %s" % alive)
            for f in glob.glob(os.path.join(shards, "*.json")):
                try:
                    results(f)
                except Exception as e:  # noqa: BLE001 - any failure to read is the finding
                    problems.append("%s is not whole: %s" % (f, e))
            if glob.glob(os.path.join(shards, "*.tmp*")):
                problems.append("temporary files left: %s" % glob.glob(os.path.join(shards, "*.tmp*")))
    finish(problems)


main()

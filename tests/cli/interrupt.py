#!/usr/bin/env python3
"""SIGINT or SIGTERM in the middle of a sweep keeps the runs measured so far.

    interrupt.py LADDER SCRATCH_ROOT SIGINT|SIGTERM

Starts a sweep of six points of dtw/seq_full (n 256, 8000 entries, 3 repetitions: a few
seconds each), waits until its results file first appears (it is rewritten atomically after
every run), then sends the signal. The process must end (by the signal or with a non-zero
status, not by a crash), and afterwards
  - the results file reads as one (plots/results.py) holding at least one run and
    "complete": false;
  - no temporary file (`*.tmp.*`) is left in its directory.
The signal's disposition is reset to the default in the child, as at an interactive shell
(a test run in the background may otherwise start it with SIGINT ignored).
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from clitest import ResultsError, finish, results

CONFIG = {"name": "cli-interrupt", "study": "dtw", "data": {"generator": "cbf"},
          "params": {"n": 256, "entries": 8000}, "axes": {"seed": [1, 2, 3, 4, 5, 6]},
          "variants": ["seq_full"], "repetitions": 3, "warmup": 0}
APPEAR_LIMIT_S = 150
EXIT_LIMIT_S = 30


def default_signals():
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("SIGINT", "SIGTERM"):
        sys.exit("usage: interrupt.py LADDER SCRATCH_ROOT SIGINT|SIGTERM")
    ladder = os.path.abspath(sys.argv[1])
    scratch = os.path.abspath(sys.argv[2])
    sig = getattr(signal, sys.argv[3])
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(prefix="interrupt.", dir=scratch) as work:
        with open(os.path.join(work, "config.json"), "w") as f:
            json.dump(CONFIG, f)
        out_dir = os.path.join(work, "out")
        out = os.path.join(out_dir, "res.json")
        cmd = [ladder, "run", "config.json", "--out", out]
        print("$", " ".join(cmd))
        with open(os.path.join(work, "stdout"), "wb") as so, \
                open(os.path.join(work, "stderr"), "wb") as se:
            proc = subprocess.Popen(cmd, cwd=work, stdout=so, stderr=se,
                                    stdin=subprocess.DEVNULL, preexec_fn=default_signals)
            t0 = time.monotonic()
            while not os.path.exists(out) and proc.poll() is None and \
                    time.monotonic() - t0 < APPEAR_LIMIT_S:
                time.sleep(0.02)
            appeared = os.path.exists(out)
            if proc.poll() is not None:
                problems.append("the run ended (exit %d) before it could be interrupted" %
                                proc.returncode)
            elif not appeared:
                problems.append("no results file within %d s" % APPEAR_LIMIT_S)
            else:
                print("results file appeared after %.1f s; sending %s" %
                      (time.monotonic() - t0, sys.argv[3]))
                proc.send_signal(sig)
            try:
                status = proc.wait(timeout=EXIT_LIMIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = proc.wait()
                problems.append("still running %d s after %s" % (EXIT_LIMIT_S, sys.argv[3]))
        err = open(os.path.join(work, "stderr"), "rb").read().decode("utf-8", "replace")
        print("exit status %d; stderr ends:\n%s" % (status, err[-1500:]))
        if appeared:
            if status == 0:
                problems.append("exit status 0: the run went on to the end despite %s" %
                                sys.argv[3])
            elif status < 0 and -status != sig:
                problems.append("killed by signal %d, not by %s: a crash" % (-status, sys.argv[3]))
            elif status in (3, 4) or "internal error" in err:
                problems.append("exit status %d: %s" % (status, err.strip()[-300:]))
            try:
                res = results(out)
                complete = res.raw.get("complete")  # exactly false, not merely falsy
                if len(res.runs) < 1:
                    problems.append("the results file holds no run")
                if complete is not False:
                    problems.append('"complete" is %r, expected false' % complete)
                print("results: %d run(s), complete %r" % (len(res.runs), complete))
            except ResultsError as e:
                problems.append("no valid results file after %s: %s" % (sys.argv[3], e))
            leftovers = [n for n in os.listdir(out_dir) if ".tmp." in n]
            if leftovers:
                problems.append("temporary files left behind: %s" % leftovers)
    finish(problems, "ok: %s left a valid, incomplete results file" % sys.argv[3])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`ladder reproduce` interrupted and resumed.

    reproduce.py LADDER CONFIGS_DIR SCRATCH_ROOT

CONFIGS_DIR holds dtw/a_fast.json (seconds) and dtw/b_slow.json (six points of seconds each),
both paper experiments, and dtw/not_marked.json, which is not one. The test

1. starts `ladder reproduce --scale quick --no-peers`, waits until the fast config's results
   file appears in the output folder, then sends SIGINT: the process must end by the signal
   (or with a non-zero status, not a crash), and the folder must then hold the fast config's
   complete results file and nothing else but the staging folder .partial/ (no report, no
   half-written or temporary file);
2. reruns the same command: it must say it reuses the fast config's file, run the slow one,
   exit 0, write REPORT.md and reproduction.json (fast "reused", slow "ran", scale quick),
   remove .partial/, and leave the unmarked config out;
3. reruns once more: both files reused, and REPORT.md rewritten.
Without a GPU the report must say so.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from clitest import finish, results, run_ladder

APPEAR_LIMIT_S = 150
EXIT_LIMIT_S = 30


def start(ladder, configs, out):
    cmd = [ladder, "reproduce", "--configs", configs, "--scale", "quick", "--no-peers",
           "--out", out]
    # SIGINT as at an interactive shell, whatever the test runner left it as.
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def interrupt_after_first(ladder, configs, out, problems):
    proc = start(ladder, configs, out)
    fast = os.path.join(out, "repro-fast.json")
    deadline = time.time() + APPEAR_LIMIT_S
    while not os.path.exists(fast) and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    if proc.poll() is not None:
        problems.append("reproduce ended before it could be interrupted: status %s" % proc.returncode)
        return
    if not os.path.exists(fast):
        proc.kill()
        problems.append("the fast config's results never appeared")
        return
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=EXIT_LIMIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        problems.append("reproduce did not end within %d s of SIGINT" % EXIT_LIMIT_S)
        return
    err = err.decode("utf-8", "replace")
    if proc.returncode == 0:
        problems.append("an interrupted reproduction exited 0")
    if "interrupted" not in err:
        problems.append("no word of the interruption on stderr: %r" % err[-300:])
    for word in ("internal error", "terminate called", "Segmentation fault"):
        if word in err:
            problems.append("crash words on stderr: %r" % word)
    left = sorted(os.listdir(out))
    if left != [".partial", "repro-fast.json"]:
        problems.append("after SIGINT the folder holds %s, want .partial and repro-fast.json" % left)
    if not results(fast).complete:
        problems.append("the fast config's file in the folder is not complete")


def resume(ladder, configs, out, problems, both_reused):
    proc = run_ladder([ladder, "reproduce", "--configs", configs, "--scale", "quick",
                       "--no-peers", "--out", out], cwd=out, timeout=240)
    stdout = proc.stdout.decode("utf-8", "replace")
    if proc.returncode != 0:
        problems.append("the resumed reproduction exited %d: %s" %
                        (proc.returncode, proc.stderr.decode("utf-8", "replace")[-500:]))
        return
    if "repro-fast: reusing" not in stdout:
        problems.append("the rerun does not say it reuses the fast config: %r" % stdout[-500:])
    if both_reused and "repro-slow: reusing" not in stdout:
        problems.append("the third run does not reuse the slow config")
    if "not-marked" in stdout:
        problems.append("a config without 'reproduce' was run")
    for name in ("REPORT.md", "reproduction.json", "repro-slow.json"):
        if not os.path.isfile(os.path.join(out, name)):
            problems.append("no %s after the rerun" % name)
    if os.path.exists(os.path.join(out, ".partial")):
        problems.append(".partial/ is left after a finished reproduction")
    with open(os.path.join(out, "reproduction.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    states = {c["name"]: c["state"] for c in manifest["configs"]}
    want = {"repro-fast": "reused", "repro-slow": "reused" if both_reused else "ran"}
    if states != want or manifest.get("scale") != "quick":
        problems.append("manifest states %s at scale %s, want %s at quick" %
                        (states, manifest.get("scale"), want))
    slow = results(os.path.join(out, "repro-slow.json"))
    if slow.scale != "quick" or not slow.complete:
        problems.append("the slow config's results do not record the quick scale, complete")
    with open(os.path.join(out, "REPORT.md"), encoding="utf-8") as f:
        report = f.read()
    if not manifest["device"].get("present") and "no GPU" not in report:
        problems.append("without a GPU the report does not say so")
    if "repro-fast" not in report or "quick" not in report:
        problems.append("the report names neither the configs nor the scale")


def main():
    ladder, configs, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        out = os.path.join(tmp, "reproduction")
        interrupt_after_first(ladder, configs, out, problems)
        if not problems:
            resume(ladder, configs, out, problems, both_reused=False)
        if not problems:
            resume(ladder, configs, out, problems, both_reused=True)
    finish(problems)


if __name__ == "__main__":
    main()

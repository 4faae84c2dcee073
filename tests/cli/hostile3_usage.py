#!/usr/bin/env python3
"""Third hostile set, the command line's cases that need set-up (hostile3_usage.cmake).

    hostile3_usage.py LADDER SCRATCH_ROOT CASE

Cases:
- runs_ranges: `--runs` lists of overlapping, repeated and out-of-order ranges select exactly
  the runs they name, in plan order, each once.
- ingest_long_variant_name: a handover whose variant name is 50,000 bytes (std::regex, which
  matches recursively, crashed on it with SIGSEGV while planning) is refused with one line,
  exit 2, nothing written; a name of 100 characters, the most allowed, is ingested.
- cuda_device_given: where the CUDA runtime cannot start (no driver: this is CI) and no NVIDIA
  GPU is shown, `run --device 0`, `run --gpus 0` and `reproduce --device 0` stop with exit 3
  and one line in the runtime's own words, creating nothing (they once skipped every GPU step
  and exited 0). Skipped (77) where a GPU is shown or the driver's library loads.
- cuda_reason_once: there, a run without --device skips its GPU steps with "no CUDA device",
  exits 0, says the runtime's words once (not once per run) and records them in the results'
  device.reason. Skipped as cuda_device_given is.
- device_hidden: where the runtime starts (a GPU machine) but every device is hidden
  (CUDA_VISIBLE_DEVICES=-1), `run --device 0` is refused with exit 2 naming --device 0 and
  creates nothing (it once skipped every GPU step and exited 0). Skipped (77) where the runtime
  cannot start (cuda_device_given covers that machine).
- gpus_beyond: `run --gpus 7` and `reproduce --gpus 7` (no machine here has 8 GPUs): exit 2
  naming GPU 7 where the runtime starts, exit 3 in its words where it cannot; nothing created
  (a list wrong in itself, `0,0`, is exit 2 on any machine: cli.bad.gpus_twice).
"""
import ctypes
import glob
import json
import os
import re
import shutil
import sys

from clitest import case_args, checker, error_problems, finish, results, run_ladder, tree

LADDER, SCRATCH, CASE = case_args("hostile3_usage.py")
HERE = os.path.dirname(os.path.abspath(__file__))
OK = os.path.join(HERE, "fixtures", "ok.json")
ONE = os.path.join(HERE, "fixtures", "hc_repro_one")
# What the runtime says when it cannot start, as ladder quotes it: "cudaErrorX (its words)".
RUNTIME_WORDS = re.compile(r"cudaError\w+ \([^)]+\)")
problems = []
check = checker(problems)


def work_dir():
    d = os.path.join(SCRATCH, "h3-usage-" + CASE)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def ladder(*args, cwd):
    return run_ladder([LADDER, *args], cwd=cwd)


def case_runs_ranges():
    work = work_dir()
    plan = json.loads(ladder("plan", OK, "--json", cwd=work).stdout)
    total = len(plan["runs"])
    check(total >= 6, "ok.json plans %d runs, the case needs 6" % total)
    for runs, want in (("3,0-1,1,1-1", [0, 1, 3]), ("4-5,0-5,2-3", list(range(6))),
                       ("%d-%d" % (total - 1, total - 1), [total - 1]), ("0-%d" % (total - 1), list(range(total)))):
        out = os.path.join(work, "r.json")
        proc = ladder("run", OK, "--runs", runs, "--out", out, "--quiet", cwd=work)
        if not check(proc.returncode == 0, "--runs %s: exit %d: %r" % (runs, proc.returncode, proc.stderr[-300:])):
            continue
        got = [r.raw["run_index"] for r in results(out).runs]
        check(got == want, "--runs %s: runs %r, want %r" % (runs, got, want))


def handover(work, name):
    """A handover of one CPU peer variant called `name` that did not run point 0."""
    path = os.path.join(work, "handover.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"peer": {"name": "Fake"},
                   "variants": [{"name": name, "label": "Fake", "backend": "cpu", "precision": "fp64"}],
                   "runs": [{"point": 0, "variant": name, "unsupported": "not this point"}]}, f)
    return path


def case_ingest_long_variant_name():
    work = work_dir()
    h = handover(work, "v" * 50000)
    before = tree(work)
    proc = ladder("ingest", OK, h, "--out", "peer.json", cwd=work)
    for p in error_problems(proc, ("longer than 100 characters",)):
        problems.append("a 50,000-byte name: " + p)
    check(tree(work) == before, "a 50,000-byte name: files were created")
    h = handover(work, "v" * 100)
    proc = ladder("ingest", OK, h, "--out", "peer.json", "--quiet", cwd=work)
    check(proc.returncode == 0, "a 100-character name: exit %d: %r" % (proc.returncode, proc.stderr[-300:]))
    if proc.returncode == 0:
        runs = results(os.path.join(work, "peer.json")).runs
        check([r.variant for r in runs] == ["v" * 100], "a 100-character name: runs %r" % runs)


def runtime_cannot_start():
    """True where no NVIDIA GPU is shown and the driver's library does not load: the CUDA
    runtime then fails to start (cudaErrorInsufficientDriver), as on CI."""
    if glob.glob("/proc/driver/nvidia/gpus/*") or any(
            re.fullmatch(r"nvidia[0-9]+", os.path.basename(d)) for d in glob.glob("/dev/nvidia*")):
        return False
    try:
        ctypes.CDLL("libcuda.so.1")
        return False
    except OSError:
        return True


def skip_unless_runtime_fails():
    if not runtime_cannot_start():
        print("skipped: an NVIDIA GPU is shown or the CUDA driver's library loads here")
        sys.exit(77)


def cuda_refusal(proc, what):
    """Problems with `proc` as a stop for a CUDA runtime that cannot start: exit 3, one line."""
    err = proc.stderr.decode("utf-8", "replace")
    found = []
    if proc.returncode != 3:
        found.append("exit status %d, want 3" % proc.returncode)
    if err.count("\n") != 1 or not err.startswith("ladder: CUDA error: the CUDA runtime cannot start: "):
        found.append("stderr is not one line naming the runtime: %r" % err[-400:])
    if not RUNTIME_WORDS.search(err):
        found.append("stderr does not quote the runtime's words: %r" % err[-400:])
    if proc.stdout:
        found.append("stdout is not empty: %r" % proc.stdout[-300:])
    return ["%s: %s" % (what, p) for p in found]


def case_cuda_device_given():
    skip_unless_runtime_fails()
    work = work_dir()
    for args in (["run", OK, "--device", "0", "--out", "out.json"],
                 ["run", OK, "--gpus", "0", "--out", "out.json"],
                 ["reproduce", "--configs", ONE, "--scale", "paper", "--no-peers", "--device", "0",
                  "--out", "repro"]):
        before = tree(work)
        problems.extend(cuda_refusal(ladder(*args, cwd=work), " ".join(args[:1] + args[-4:-2])))
        check(tree(work) == before, "%s: files were created" % " ".join(args))


def case_cuda_reason_once():
    skip_unless_runtime_fails()
    work = work_dir()
    out = os.path.join(work, "r.json")
    proc = ladder("run", OK, "--out", out, cwd=work)
    check(proc.returncode == 0, "exit %d: %r" % (proc.returncode, proc.stderr[-300:]))
    said = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    words = RUNTIME_WORDS.findall(said)
    check(len(words) == 1, "the runtime's words said %d times, want once:\n%s" % (len(words), said[-2000:]))
    check(any("skipped: no CUDA device: " + w in said for w in words),
          "no line says 'skipped: no CUDA device: <the runtime's words>'")
    if proc.returncode != 0:
        return
    r = results(out)
    gpu = [x for x in r.runs if x.backend == "gpu"]
    check(gpu and all(x.status == "skipped" and x.raw["reason"] == "no CUDA device" for x in gpu),
          "GPU runs: %r" % [(x.status, x.raw.get("reason")) for x in gpu])
    reason = (r.raw.get("device") or {}).get("reason", "")
    check(reason.startswith("no CUDA device: ") and RUNTIME_WORDS.search(reason),
          "device.reason %r does not give the runtime's words" % reason)


def case_device_hidden():
    if runtime_cannot_start():
        print("skipped: the CUDA runtime cannot start here (cuda_device_given covers it)")
        sys.exit(77)
    work = work_dir()
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="-1")
    before = tree(work)
    proc = run_ladder([LADDER, "run", OK, "--device", "0", "--out", "out.json"], cwd=work, env=env)
    problems.extend("run --device 0, every device hidden: %s" % p for p in error_problems(proc, ("--device 0",)))
    check(tree(work) == before, "run --device 0, every device hidden: files were created")


def case_gpus_beyond():
    work = work_dir()
    broken = runtime_cannot_start()
    for args in (["run", OK, "--gpus", "7", "--out", "out.json"],
                 ["reproduce", "--configs", ONE, "--gpus", "7", "--out", "out.json"]):
        before = tree(work)
        proc = ladder(*args, cwd=work)
        what = "%s --gpus 7" % args[0]
        if broken:
            problems.extend(cuda_refusal(proc, what))
        else:
            problems.extend("%s: %s" % (what, p) for p in error_problems(proc, ("GPU 7",)))
        check(tree(work) == before, "%s: files were created" % what)


CASES = {"runs_ranges": case_runs_ranges,
         "ingest_long_variant_name": case_ingest_long_variant_name,
         "cuda_device_given": case_cuda_device_given,
         "cuda_reason_once": case_cuda_reason_once,
         "device_hidden": case_device_hidden,
         "gpus_beyond": case_gpus_beyond}
if CASE not in CASES:
    sys.exit("unknown case %r" % CASE)
CASES[CASE]()
finish(problems)

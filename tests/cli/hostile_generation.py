#!/usr/bin/env python3
"""Memory estimates and long generation, where a case needs more than one fixed command.

    hostile_generation.py LADDER SCRATCH_ROOT CASE

Cases:
  file_size_before_reading  a data file of 64 GB (sparse: no disk is used) is refused from its
                            size, with the figure, before a byte is read, for each study that
                            reads text or .npy files;
  cov_npy_outputs           a covariance .npy of one row and 32,768 features (128 kB) is read,
                            then refused for its n x n outputs, with the figure;
  sample_runs               a DTW set against itself is refused under full validation (the
                            reference is output-sized) and runs under sample:100;
  progress_gen              `ladder gen` of a long anticorrelated point set prints progress
                            lines on stderr (share done, time left) while it lasts;
  progress_run              `ladder run` prints them while it prepares such data;
  progress_quiet            `ladder run --quiet` prints none.
Refusals run under an address-space limit (so the answer does not depend on the machine's
memory) and must come within 10 s. The progress cases stop the binary once they have seen
what they need (about 3 s; 8 s for the quiet one).
"""
import json
import os
import resource
import struct
import subprocess
import sys
import tempfile
import threading
import time

from clitest import case_args, error_problems, finish, run_ladder, show, tree

AS_LIMIT = 32 << 30  # bytes: half of it (or of the machine's memory) may be used
# Anticorrelated points at d = 32: about 1.5 * 10^5 a second on two threads (the tests run
# the binary on two), so 2 * 10^6 of them take about 14 s: long enough for progress lines
# (every 3 s), far within the 10-minute limit on generation even on a loaded machine.
LONG_POINTS = ["--n", "2000000", "--d", "32", "--distribution", "anticorrelated"]
LONG_CONFIG = {"name": "hg-progress", "study": "skyline",
               "data": {"generator": "bks", "seed": 1, "n": 2000000, "d": 32,
                        "distribution": "anticorrelated"},
               "variants": ["skyline/openmp"], "repetitions": 1, "warmup": 0}


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))


def refused(ladder, work, args, match, limit=True):
    """Problems with `ladder ARGS` as a quick refusal naming every text in `match`."""
    run_dir = os.path.join(work, "run")
    os.makedirs(run_dir, exist_ok=True)
    before = tree(run_dir)
    start = time.monotonic()
    proc = run_ladder([ladder] + args, run_dir, timeout=60,
                      preexec_fn=limited if limit else None)
    took = time.monotonic() - start
    problems = error_problems(proc)
    text = proc.stderr.decode("utf-8", "replace").lower()
    problems += ["the error does not mention %r" % m for m in match if m.lower() not in text]
    if took > 10:
        problems.append("took %.1f s (more than 10 s: something was built or read first)" % took)
    if tree(run_dir) != before:
        problems.append("files were created: %s" % sorted(set(tree(run_dir)) - set(before)))
    if problems:
        problems.append("the binary printed:\n%s" % show(proc))
    else:
        print("ok: %s" % proc.stderr.decode().strip())
    return problems


def write_config(work, name, config):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        json.dump(config, f)
    return path


def file_size_before_reading(ladder, work):
    big = os.path.join(work, "big.tsv")
    with open(big, "wb") as f:
        f.truncate(64 << 30)
    npy = os.path.join(work, "big.npy")
    with open(npy, "wb") as f:
        f.truncate(64 << 30)
    configs = {
        "dtw": {"study": "dtw", "data": {"file": big}},
        "twed": {"study": "twed", "data": {"file": big}},
        "eed": {"study": "eed", "data": {"file": big}},
        "skyline": {"study": "skyline", "data": {"file": big}},
        "covariance": {"study": "covariance", "data": {"file": npy}},
    }
    problems = []
    for study, config in configs.items():
        cfg = write_config(work, study + ".json", config)
        found = refused(ladder, work, ["run", cfg, "--out", "out.json", "--quiet"],
                        ["needs about", "of host memory", "inputs"])
        problems += ["%s: %s" % (study, p) for p in found]
    return problems


def npy_bytes(rows, cols):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    body = struct.pack("<%df" % (rows * cols), *[0.5 + 0.001 * (k % 97) for k in range(rows * cols)])
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + body


def cov_npy_outputs(ladder, work):
    npy = os.path.join(work, "wide.npy")
    with open(npy, "wb") as f:
        f.write(npy_bytes(1, 32768))
    cfg = write_config(work, "cov.json", {"study": "covariance", "data": {"file": npy},
                                          "repetitions": 1, "warmup": 0})
    return refused(ladder, work, ["run", cfg, "--out", "out.json", "--quiet"],
                   ["outputs 8.59 GB", "reference 17.2 GB"])


def sample_runs(ladder, work):
    # 10^8 float32 distances: 0.8 GB held twice, plus 1.6 GB of reference values and indices
    # under full validation; under a 4 GB limit (2 GB usable) only sample:100 fits.
    global AS_LIMIT
    AS_LIMIT = 4000000000
    cfg = write_config(work, "dtw.json", {
        "name": "hg-sample", "study": "dtw", "data": {"generator": "cbf", "seed": 1},
        "params": {"n": 1, "entries": 10000, "queries": 10000},
        "variants": ["dtw/seq_tworow"], "repetitions": 1, "warmup": 0})
    problems = refused(ladder, work, ["run", cfg, "--out", "out.json", "--quiet"],
                       ["outputs 800 MB", "reference 1.6 GB"])
    run_dir = os.path.join(work, "sampled")
    os.makedirs(run_dir)
    proc = run_ladder([ladder, "run", cfg, "--validate", "sample:100", "--out", "out.json",
                       "--quiet"], run_dir, timeout=120, preexec_fn=limited)
    if proc.returncode != 0 or not os.path.exists(os.path.join(run_dir, "out.json")):
        problems.append("under sample:100 the point should run and pass:\n%s" % show(proc))
    else:
        print("ok: runs under sample:100")
    return problems


def watch(cmd, cwd, seconds, stop_when=None):
    """Runs cmd on two threads for at most `seconds` (or until it ends, or a stderr line
    satisfies stop_when), then kills it; returns the stderr lines it printed by then."""
    print("$", " ".join(cmd))
    env = dict(os.environ, OMP_NUM_THREADS="2")
    proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    lines, seen = [], threading.Event()

    def read():
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            lines.append(line)
            if stop_when and stop_when(line):
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not seen.is_set() and proc.poll() is None:
        seen.wait(0.1)
    proc.kill()
    proc.wait()
    reader.join(5)
    print("\n".join("  | " + l for l in lines))
    return lines


def progress_line(what):
    return lambda line: line.startswith("  " + what) and "%" in line and "left" in line


def progress_gen(ladder, work):
    lines = watch([ladder, "gen", "skyline"] + LONG_POINTS + ["--out", "points.npy"], work, 20,
                  progress_line("generating skyline data:"))
    if not any(progress_line("generating skyline data:")(l) for l in lines):
        return ["no progress line ('  generating skyline data: N% after T s, about S s left') "
                "within 20 s"]
    return []


def progress_run(ladder, work):
    cfg = write_config(work, "long.json", LONG_CONFIG)
    lines = watch([ladder, "run", cfg, "--out", "out.json"], work, 20,
                  progress_line("preparing data"))
    if not any(progress_line("preparing data")(l) for l in lines):
        return ["no progress line ('  preparing data ...: N% after T s, about S s left') within "
                "20 s"]
    return []


def progress_quiet(ladder, work):
    cfg = write_config(work, "long.json", LONG_CONFIG)
    lines = watch([ladder, "run", cfg, "--out", "out.json", "--quiet"], work, 8)
    return ["--quiet, yet stderr has: %r" % lines] if lines else []


CASES = {f.__name__: f for f in (file_size_before_reading, cov_npy_outputs, sample_runs,
                                 progress_gen, progress_run, progress_quiet)}


def main():
    ladder, scratch, case = case_args("hostile_generation.py")
    if case not in CASES:
        sys.exit("unknown case %r (%s)" % (case, ", ".join(CASES)))
    with tempfile.TemporaryDirectory(prefix="hg.", dir=scratch) as work:
        finish(CASES[case](ladder, work))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The process as the sample, on the command line: `run --processes K`, `merge --processes` and
`ab`, with the CPU steps of fixtures/h3_shards.json (three data groups of DTW CPU steps, a
fraction of a second a process).

    processes.py LADDER SCRATCH_ROOT CASE

CASE is one of
  run_three       `run --processes 3` writes one schema_version 2 file: a processes block of 3
                  (each with its pid, start and end, cores, load and exit status), every timed
                  run with 3 process medians, their median as `median`, the variance components
                  and all 9 samples flattened; no .processes folder is left; the summary shows
                  each median's spread;
  run_cpus        `--cpus C` (the first CPU this test may use) pins every process: each records
                  C as the only core it could use, and ran on it;
  run_interrupt   SIGINT to the process group while the second of 3 slow processes runs: the
                  parent ends by SIGINT, OUT is not written, the first process's part file and
                  every file left read whole, and no temporary file is left;
  merge_three     three `run`s merged with `merge --processes` have the structure `run
                  --processes 3` writes (the same runs, 3 process medians each, the same fields);
                  a folder of parts merges as its files; an older file (schema_version 1, no
                  `process` block) merges too;
  merge_mismatch  a file of another config name, commit or GPU model is refused (exit 2, one
                  line naming both files and the field), nothing written;
  ab_two_copies   `ab LADDER COPY CONFIG --processes 2` writes A.json and B.json (2 processes
                  each, mode ab, their side, the seed and the whole order) and ab.json (a
                  balanced order, each block AB or BA, both binaries' SHA-256 equal), and prints
                  the comparison; the same seed gives the same order;
  ab_interrupt    SIGINT once the first measured process's file is complete: ab ends by SIGINT,
                  A.json and B.json are not written, ab.json says incomplete, every file left
                  reads whole and no temporary file is left.
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

from clitest import case_args, checker, error_problems, finish, results, run_ladder, show

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
CONFIG = os.path.join(FIX, "h3_shards.json")
# A few points of DTW's sequential step: about a second a process, long enough to stop one.
SLOW = {"name": "cli-processes-slow", "study": "dtw", "data": {"generator": "cbf"},
        "params": {"n": 128, "entries": 4000}, "axes": {"seed": [1, 2, 3, 4]},
        "variants": ["seq_full"], "repetitions": 2, "warmup": 0}
STATS = ("process_medians", "median", "geomean_of_process_medians", "sd_log_between", "sd_log_within",
         "sd_log_process", "icc", "samples", "processes")
ENTRY = ("index", "order_position", "pid", "started_at", "finished_at", "cpus_allowed", "cpu_start",
         "cpu_end", "sm_clock_mhz_start", "sm_clock_mhz_end", "gpu_temp_c_start", "load_avg", "exit_status")

problems = []
check = checker(problems)


def load(path):
    with open(path) as f:
        return json.load(f)


def ok(ladder, work, args, want=0, timeout=240):
    proc = run_ladder([ladder] + args, cwd=work, timeout=timeout)
    check(proc.returncode == want, "%s: exit %d, expected %d\n%s" % (" ".join(args[:3]), proc.returncode, want,
                                                                   show(proc)))
    return proc


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def check_k_file(path, k, what, entries=True):
    """`path` is a K-process results file with every timed run joined across k processes."""
    raw = results(path).raw  # read through the project's reader: it must take the file
    check(raw["schema_version"] == 2, "%s: schema_version %r" % (what, raw["schema_version"]))
    p = raw.get("processes", {})
    check(p.get("count") == k and len(p.get("list", [])) == k, "%s: the processes block is not of %d: %s"
          % (what, k, json.dumps(p)[:400]))
    if entries:
        for e in p.get("list", []):
            missing = [f for f in ENTRY if f not in e]
            check(not missing, "%s: a process entry lacks %s: %s" % (what, missing, e))
    timed = [r for r in raw["runs"] if r.get("timing")]
    check(len(timed) == 9, "%s: %d timed runs, expected 9" % (what, len(timed)))
    for r in timed:
        t = r["timing"]
        missing = [f for f in STATS if f not in t]
        if not check(not missing, "%s: run %s's timing lacks %s" % (what, r["run_index"], missing)):
            continue
        check(len(t["process_medians"]) == k and len(t["processes"]) == k,
              "%s: run %s has %d process medians" % (what, r["run_index"], len(t["process_medians"])))
        check(abs(t["median"] - median(t["process_medians"])) < 1e-12,
              "%s: run %s's median is not the median of its process medians" % (what, r["run_index"]))
        per = [x for q in t["processes"] for x in q["samples"]]
        check(sorted(per) == sorted(t["samples"]) and len(per) == 2 * k,
              "%s: run %s's samples are not its processes' samples flattened" % (what, r["run_index"]))
        for q in t["processes"]:
            check(abs(q["median"] - median(q["samples"])) < 1e-12, "%s: a process median is not its samples'"
                  % what)
    return raw


def case_run_three(ladder, work):
    proc = ok(ladder, work, ["run", CONFIG, "--processes", "3", "--out", "out.json"])
    raw = check_k_file(os.path.join(work, "out.json"), 3, "run --processes 3")
    pids = [e["pid"] for e in raw["processes"]["list"]]
    check(len(set(pids)) == 3 and all(isinstance(x, int) and x > 0 for x in pids), "pids: %s" % pids)
    check([e["exit_status"] for e in raw["processes"]["list"]] == [0, 0, 0], "exit statuses")
    check(all(isinstance(e["cpu_start"], int) and e["cpu_start"] >= 0 for e in raw["processes"]["list"]),
          "cpu_start not recorded")
    check(raw["processes"]["binary"]["sha256"] and len(raw["processes"]["binary"]["sha256"]) == 64,
          "no SHA-256 of the binary")
    check(raw["complete"] is True and raw["summary"] == {"passed": 9}, "not complete: %s" % raw["summary"])
    check(not os.path.exists(os.path.join(work, "out.processes")), "the .processes folder was left")
    out = proc.stdout.decode()
    check("±" in out and "geometric mean of the 3 processes' medians" in out, "no spread in the summary:\n" + out)
    err = proc.stderr.decode()
    check(err.count("of 3 done") == 3, "not one progress line a process:\n" + err)


def case_run_cpus(ladder, work):
    cpu = sorted(os.sched_getaffinity(0))[0]
    ok(ladder, work, ["run", CONFIG, "--processes", "2", "--cpus", str(cpu), "--out", "out.json", "--quiet"])
    raw = check_k_file(os.path.join(work, "out.json"), 2, "run --cpus")
    for e in raw["processes"]["list"]:
        check(e["cpus_allowed"] == [cpu] and e["cpu_start"] == cpu and e["cpu_end"] == cpu,
              "--cpus %d: a process recorded %s" % (cpu, e))


def whole_files(root, what):
    """Every .json file under root reads as JSON; no temporary file is left."""
    for path in glob.glob(os.path.join(root, "**", "*"), recursive=True):
        check(".tmp." not in os.path.basename(path), "%s: temporary file left: %s" % (what, path))
        if path.endswith(".json"):
            try:
                load(path)
            except ValueError as e:
                problems.append("%s: %s is not whole: %s" % (what, path, e))


def interrupt_when(cmd, work, ready, what):
    """Starts cmd in its own process group, waits until ready() and sends SIGINT to the group
    (as Ctrl-C does); the parent must end by SIGINT, saying so, and no child may outlive it."""
    proc = subprocess.Popen(cmd, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True,
                            preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM)])
    deadline = time.time() + 200
    while not ready() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    if proc.poll() is not None:
        problems.append("%s: ended before it could be stopped: %s\n%s" % (what, proc.returncode,
                                                                          proc.stderr.read().decode()[-2000:]))
        return
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        problems.append("%s: did not end within 60 s of SIGINT" % what)
        return
    check(proc.returncode == -signal.SIGINT, "%s: ended with %s, not by SIGINT\n%s" % (what, proc.returncode,
                                                                                       err.decode()[-2000:]))
    check(b"interrupted" in err, "%s: no word of the interruption: %r" % (what, err[-400:]))
    time.sleep(0.3)
    alive = [c for c in children if os.path.exists("/proc/%s" % c)]
    check(not alive, "%s: children outlived it: %s" % (what, alive))


def complete_file(path):
    try:
        return load(path).get("complete") is True
    except (OSError, ValueError):
        return False


def case_run_interrupt(ladder, work):
    config = os.path.join(work, "slow.json")
    with open(config, "w") as f:
        json.dump(SLOW, f)
    parts = os.path.join(work, "out.processes")
    interrupt_when([ladder, "run", config, "--processes", "3", "--out", "out.json"], work,
                   lambda: complete_file(os.path.join(parts, "process-0.json")), "run --processes")
    check(not os.path.exists(os.path.join(work, "out.json")), "run --processes wrote OUT though interrupted")
    check(complete_file(os.path.join(parts, "process-0.json")), "the first process's file is gone")
    whole_files(work, "run --processes")


def three_runs(ladder, work, folder="parts"):
    os.makedirs(os.path.join(work, folder), exist_ok=True)
    paths = []
    for i in range(3):
        path = os.path.join(work, folder, "p%d.json" % i)
        ok(ladder, work, ["run", CONFIG, "--out", path, "--quiet"])
        paths.append(path)
    return paths


def case_merge_three(ladder, work):
    parts = three_runs(ladder, work)
    ok(ladder, work, ["merge", "--processes", "m.json"] + parts)
    merged = check_k_file(os.path.join(work, "m.json"), 3, "merge --processes")
    ok(ladder, work, ["run", CONFIG, "--processes", "3", "--out", "r.json", "--quiet"])
    ran = load(os.path.join(work, "r.json"))
    ident = lambda raw: [(r["run_index"], r["variant"], r["point"], r["status"]) for r in raw["runs"]]
    check(ident(merged) == ident(ran), "merge --processes and run --processes hold different runs")
    check(set(merged) == set(ran), "top-level fields differ: %s" % (set(merged) ^ set(ran)))
    for a, b in zip(merged["runs"], ran["runs"]):
        if a.get("timing") and b.get("timing"):
            check(set(a["timing"]) == set(b["timing"]), "timing fields differ: %s"
                  % (set(a["timing"]) ^ set(b["timing"])))
    check(set(merged["processes"]) == set(ran["processes"]), "processes blocks differ")
    # A folder stands for its files.
    ok(ladder, work, ["merge", "--processes", "f.json", os.path.join(work, "parts")])
    check_k_file(os.path.join(work, "f.json"), 3, "merge --processes FOLDER")
    # A file of an earlier ladder: schema_version 1, no process block, no warnings.
    old = load(parts[1])
    old["schema_version"] = 1
    old.pop("process", None)
    old.pop("warnings", None)
    old_path = os.path.join(work, "old.json")
    with open(old_path, "w") as f:
        json.dump(old, f)
    ok(ladder, work, ["merge", "--processes", "o.json", parts[0], old_path, parts[2]])
    raw = check_k_file(os.path.join(work, "o.json"), 3, "merge with a schema 1 file", entries=False)
    check(raw["processes"]["list"][1]["pid"] is None and raw["processes"]["list"][1]["cpu_start"] == -1,
          "an older file's unknown pid and core: %s" % raw["processes"]["list"][1])


def refused(ladder, work, args, words, out):
    proc = run_ladder([ladder] + args, cwd=work, timeout=60)
    for p in error_problems(proc):
        problems.append("%s: %s\n%s" % (" ".join(args[:3]), p, show(proc)))
    err = proc.stderr.decode("utf-8", "replace")
    for w in words:
        check(w.lower() in err.lower(), "the error does not mention %r:\n%s" % (w, err))
    check(not os.path.exists(out), "wrote %s" % out)


def case_merge_mismatch(ladder, work):
    parts = three_runs(ladder, work)
    edits = {"config.name": lambda r: r["config"].update(name="another"),
             "ladder.git_commit": lambda r: r["ladder"].update(git_commit="0123456789ab"),
             "device.name": lambda r: r.update(device={"present": True, "name": "NVIDIA H100 80GB HBM3"})}
    for field, edit in edits.items():
        raw = load(parts[2])
        edit(raw)
        edited = os.path.join(work, "edited-%s.json" % field.replace(".", "-"))
        with open(edited, "w") as f:
            json.dump(raw, f)
        out = os.path.join(work, "m.json")
        refused(ladder, work, ["merge", "--processes", out, parts[0], parts[1], edited],
                [field, os.path.basename(parts[0]), os.path.basename(edited)], out)


def case_ab_two_copies(ladder, work):
    copy = os.path.join(work, "copy", "ladder")
    os.makedirs(os.path.dirname(copy))
    shutil.copy2(ladder, copy)
    proc = ok(ladder, work, ["ab", ladder, copy, CONFIG, "--processes", "2", "--seed", "5", "--out", "ab"])
    d = os.path.join(work, "ab")
    manifest = load(os.path.join(d, "ab.json"))
    order = manifest["order"]
    check(len(order) == 4 and sorted(order) == ["A0", "A1", "B0", "B1"], "order: %s" % order)
    for b in range(2):
        block = order[2 * b:2 * b + 2]
        check(sorted(x[0] for x in block) == ["A", "B"], "block %d is not AB or BA: %s" % (b, block))
    check(manifest["seed"] == 5 and manifest["complete"] is True, "ab.json: %s" % manifest)
    shas = {s: manifest["binaries"][s]["sha256"] for s in "AB"}
    check(shas["A"] == shas["B"] and len(shas["A"]) == 64, "SHA-256 of two copies: %s" % shas)
    check(manifest["binaries"]["A"]["path"] == ladder and manifest["binaries"]["B"]["path"] == copy,
          "original paths: %s" % manifest["binaries"])
    check(len(manifest["list"]) == 4 and all("started_at" in e and "finished_at" in e for e in manifest["list"]),
          "each process's start and end: %s" % manifest["list"])
    check(len(manifest["warmup"]) == 2, "warm-up processes: %s" % manifest["warmup"])
    # The copies ran (their SHA-256 is recorded) and are gone once the files are written.
    check(not os.path.exists(os.path.join(d, "a")) and not os.path.exists(os.path.join(d, "b")),
          "DIR/a and DIR/b are left after a complete ab")
    for side in "AB":
        raw = check_k_file(os.path.join(d, side + ".json"), 2, side + ".json")
        p = raw["processes"]
        check(p["mode"] == "ab" and p["side"] == side and p["seed"] == 5 and p["order"] == order,
              "%s.json's processes block: %s" % (side, {k: p.get(k) for k in ("mode", "side", "seed", "order")}))
        positions = [e["order_position"] for e in p["list"]]
        check(positions == [order.index("%s%d" % (side, i)) for i in range(2)],
              "%s's order positions %s, order %s" % (side, positions, order))
    check(not glob.glob(os.path.join(d, "parts", "warmup-*")), "the warm-up's files were kept")
    out = proc.stdout.decode()
    check("dtw/seq_full" in out.split("ab: ")[-1], "no comparison printed:\n" + out)
    check("warm-up" in proc.stderr.decode(), "no projection printed")
    # The seed decides the order.
    ok(ladder, work, ["ab", ladder, copy, CONFIG, "--processes", "2", "--seed", "5", "--out", "again", "--quiet"])
    check(load(os.path.join(work, "again", "ab.json"))["order"] == order, "the same seed gave another order")


def case_ab_interrupt(ladder, work):
    config = os.path.join(work, "slow.json")
    with open(config, "w") as f:
        json.dump(SLOW, f)
    d = os.path.join(work, "ab")
    # The first measured process is one of block 0's: A-0 or B-0, whichever the coin put first.
    first = lambda: any(complete_file(p) for p in glob.glob(os.path.join(d, "parts", "[AB]-0.json")))
    interrupt_when([ladder, "ab", ladder, ladder, config, "--processes", "2", "--seed", "5", "--out", d],
                   work, first, "ab")
    for name in ("A.json", "B.json"):
        check(not os.path.exists(os.path.join(d, name)), "ab wrote %s though interrupted" % name)
    try:
        manifest = load(os.path.join(d, "ab.json"))
        check(manifest["complete"] is False and manifest["list"], "ab.json: %s" % manifest)
    except (OSError, ValueError) as e:
        problems.append("no whole ab.json: %s" % e)
    whole_files(d, "ab")


def main():
    ladder, scratch, case = case_args("processes.py")
    cases = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
    if case not in cases:
        sys.exit("unknown case %s" % case)
    with tempfile.TemporaryDirectory(dir=scratch) as work:
        cases[case](ladder, work)
    finish(problems)


if __name__ == "__main__":
    main()

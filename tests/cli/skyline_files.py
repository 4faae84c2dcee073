#!/usr/bin/env python3
"""Skyline point files through the real binary, checked against a skyline computed here.

    skyline_files.py LADDER SCRATCH_ROOT CASE

CASE is one of
  csv_dump_ids   fixtures/skyline_ok_file.json (a CSV with a header and an id column, 8 points
                 of 3 attributes, duplicates and ties) runs the CPU steps: exit 0, every run
                 passed with data n = 8, d = 3 and skyline_size 5, and --dump-outputs DIR
                 writes skyline__<step>__<point>.npy for each step holding the sorted int64
                 ids [1, 2, 3, 4, 6], which is also what a brute-force skyline of the file's
                 values computed here gives;
  gen_roundtrip  `ladder gen skyline --n 100 --d 3 --distribution anticorrelated` to X.csv and
                 to X.npy: the two files hold the same float32 values (the CSV reads back bit
                 for bit), a config reading each runs the CPU steps with exit 0, and every
                 run of both has the same skyline_size and dumps the same ids as the skyline
                 computed here from the files' values;
  gpu_facts      steps 9-11 on 20,011 generated anticorrelated points (d = 3, passes of 4,096,
                 64 pruners): every run passed, records `passes` = ceil(points in the passes
                 / 4,096), and step 11 records `survivors` (the points its pruners left) with
                 skyline_size <= survivors < n; exits 77 (skipped) where no run could use a GPU.
NumPy is not needed: the .npy files are parsed here.
"""
import glob
import json
import os
import struct
import sys
import tempfile

from clitest import case_args, finish, read_npy, results, run_ladder, show, skyline

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
CPU_STEPS = ("seq_bnl", "seq_sfs", "openmp")


def read_npy_any(path):
    """(descr, shape, values) of a .npy file of <f4, <f8 or <i8."""
    with open(path, "rb") as f:
        head = f.read(256).decode("latin1")
    descr = next((d for d in ("<f4", "<f8", "<i8") if "'%s'" % d in head), None)
    shape, values = read_npy(path, {"<f4": "f", "<f8": "d", "<i8": "q"})
    return descr, shape, values


def f32(x):
    """x rounded to float32, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def read_csv_points(path, id_column, header):
    """Rows of float32 values of a CSV file of points (the id column dropped)."""
    with open(path) as f:
        lines = [line.strip() for line in f if line.strip()]
    if header:
        lines = lines[1:]
    rows = []
    for k, line in enumerate(lines):
        fields = [x.strip() for x in line.split(",")]
        if id_column:
            if int(fields[0]) != k:
                raise ValueError("%s: line %d has id %s" % (path, k + 1, fields[0]))
            fields = fields[1:]
        rows.append([f32(float(x)) for x in fields])
    return rows



def check_run(who, config, work, want_ids, want_n, want_d, problems):
    """Runs `config` with dumps in `work`; checks every CPU step. Returns the checked steps."""
    dumps = os.path.join(work, "dumps." + who)
    out = os.path.join(work, "res." + who + ".json")
    proc = run_ladder([ladder_bin, "run", config, "--out", out, "--dump-outputs", dumps,
                       "--quiet"], work, timeout=100)
    if proc.returncode != 0:
        problems.append("%s: the run exited %d, expected 0\n%s" % (who, proc.returncode, show(proc)))
        return []
    runs = results(out).runs
    checked = []
    steps = set()
    for r in runs:
        tag = "%s: %s [%s]" % (who, r.id, r.point)
        steps.add(r.variant)
        if not r.passed:
            problems.append("%s: status %r (%s)" % (tag, r.status, r.reason))
            continue
        data = r.data
        if data.get("n") != want_n or data.get("d") != want_d:
            problems.append("%s: data %s, expected n = %d, d = %d" % (tag, data, want_n, want_d))
        size = r.extras.get("skyline_size")
        if size != len(want_ids):
            problems.append("%s: skyline_size %r, expected %d" % (tag, size, len(want_ids)))
        found = glob.glob(os.path.join(dumps, "skyline__%s__*.npy" % r.variant))
        if len(found) != 1:
            problems.append("%s: expected one dump skyline__%s__<point>.npy, found %s"
                            % (tag, r.variant, found))
            continue
        try:
            descr, shape, ids = read_npy_any(found[0])
        except (ValueError, KeyError, SyntaxError) as e:
            problems.append("%s: unreadable dump %s: %s" % (tag, found[0], e))
            continue
        if descr != "<i8" or shape != (len(want_ids),):
            problems.append("%s: dump is %s of shape %s, expected <i8 of shape (%d,)"
                            % (tag, descr, shape, len(want_ids)))
        if ids != want_ids:
            problems.append("%s: dumped ids %s, expected %s" % (tag, ids[:20], want_ids[:20]))
            continue
        checked.append(tag)
    missing = set(CPU_STEPS) - steps
    if missing:
        problems.append("%s: no run of %s" % (who, sorted(missing)))
    return checked


def check_gpu_facts(work, problems):
    """The passes and survivors steps 9-11 learn as they run. Returns the checked runs."""
    n, block = 20011, 4096
    config = os.path.join(work, "facts.json")
    with open(config, "w") as f:
        json.dump({"name": "cli-skyline-facts", "study": "skyline",
                   "data": {"generator": "bks", "seed": 7, "n": n, "d": 3,
                            "distribution": "anticorrelated"},
                   "params": {"block_points": block, "pruners": 64},
                   "variants": ["skyline/sort_filter", "skyline/partition", "skyline/prefilter"],
                   "repetitions": 1, "warmup": 0, "validation": "full"}, f)
    out = os.path.join(work, "facts.res.json")
    proc = run_ladder([ladder_bin, "run", config, "--out", out, "--quiet"], work, timeout=100)
    runs = results(out).runs if proc.returncode == 0 else []
    if runs and all(r.status == "skipped" for r in runs):
        print("skipped: no run could use a GPU (%s)" % runs[0].reason)
        sys.exit(77)
    if proc.returncode != 0 or len(runs) != 3:
        problems.append("the run exited %d with %d runs, expected 0 and 3\n%s"
                        % (proc.returncode, len(runs), show(proc)))
        return []
    checked = []
    for r in runs:
        facts, size = r.facts, r.extras.get("skyline_size")
        if not r.passed:
            problems.append("%s: status %r (%s)" % (r.variant, r.status, r.reason))
            continue
        entered = facts.get("survivors", n) if r.variant == "prefilter" else n
        if r.variant == "prefilter" and not (
                "survivors" in facts and size is not None and size <= entered < n):
            problems.append("prefilter: survivors %r, expected skyline_size (%r) <= it < %d"
                            % (facts.get("survivors"), size, n))
        if r.variant != "prefilter" and "survivors" in facts:
            problems.append("%s records survivors, which only step 11 has" % r.variant)
        if facts.get("passes") != -(-entered // block):
            problems.append("%s: passes %r, expected ceil(%d / %d) = %d"
                            % (r.variant, facts.get("passes"), entered, block,
                               -(-entered // block)))
        checked.append(r.variant)
    return checked


def main():
    global ladder_bin
    ladder_bin, scratch, case = case_args("skyline_files.py")
    problems = []
    with tempfile.TemporaryDirectory(prefix="skyline.", dir=scratch) as work:
        if case == "csv_dump_ids":
            rows = read_csv_points(os.path.join(FIX, "skyline_ok.csv"), True, True)
            want = skyline(rows)
            if want != [1, 2, 3, 4, 6]:
                finish(["the skyline computed here is %s, expected [1, 2, 3, 4, 6]: the fixture "
                        "changed?" % want])
            checked = check_run("csv", os.path.join(FIX, "skyline_ok_file.json"), work, want,
                                len(rows), len(rows[0]), problems)
        elif case == "gen_roundtrip":
            files = {}
            for ext in ("csv", "npy"):
                proc = run_ladder([ladder_bin, "gen", "skyline", "--n", "100", "--d", "3",
                                   "--distribution", "anticorrelated", "--out", "X." + ext],
                                  work, timeout=60)
                path = os.path.join(work, "X." + ext)
                if proc.returncode != 0 or not os.path.isfile(path):
                    finish(["gen to X.%s exited %d (file %s)\n%s"
                            % (ext, proc.returncode, "made" if os.path.exists(path) else
                               "missing", show(proc))])
                files[ext] = path
            from_csv = read_csv_points(files["csv"], True, False)
            descr, shape, flat = read_npy_any(files["npy"])
            if descr != "<f4" or shape != (100, 3):
                problems.append("X.npy is %s of shape %s, expected <f4 of shape (100, 3)"
                                % (descr, shape))
            from_npy = [flat[3 * i:3 * i + 3] for i in range(len(flat) // 3)]
            if from_csv != from_npy:
                problems.append("X.csv and X.npy hold different values (first rows %s and %s)"
                                % (from_csv[:2], from_npy[:2]))
            want = skyline(from_npy)
            print("skyline computed here: %d of 100 points" % len(want))
            checked = []
            for ext, path in files.items():
                config = os.path.join(work, "config_%s.json" % ext)
                with open(config, "w") as f:
                    json.dump({"name": "cli-skyline-" + ext, "study": "skyline",
                               "data": {"file": os.path.basename(path)},
                               "variants": ["skyline/" + s for s in CPU_STEPS],
                               "repetitions": 1, "warmup": 0, "validation": "full"}, f)
                checked += check_run(ext, config, work, want, 100, 3, problems)
        elif case == "gpu_facts":
            checked = check_gpu_facts(work, problems)
        else:
            sys.exit("unknown case %r" % case)
        if not checked:
            problems.append("no run was checked against the skyline computed here")
    finish(problems, "ok: %s; checked %s" % (case, ", ".join(checked)))


if __name__ == "__main__":
    main()

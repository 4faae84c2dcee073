#!/usr/bin/env python3
"""Data files in forms ladder must read, checked against answers computed here.

    reads_data.py LADDER SCRATCH_ROOT CASE

CASE is one of
  npy_big_endian       a covariance data file of dtype '>f4' (3 x 2): the run exits 0, its
                       runs see m = 3, n = 2, and every dumped covariance matrix equals the one
                       computed here from the same values (C = Xc^T Xc / m, Xc mean-centred);
                       read as little-endian the values would be denormals and C all but zero;
  ucr_space_separated  an old UCR file with one space between fields (`1 0.5 0.25 0.125`):
                       the run exits 0, sees n = 3 and 4 entries, and the dumped distances
                       equal a DTW computed here;
  ucr_space_padded     the old UCR archive's own layout: fields right-aligned in runs of
                       spaces, with leading spaces and exponents (`   1.0000000e+00  ...`).
Every CPU variant must pass and be checked; GPU variants may be skipped (no GPU).
"""
import glob
import json
import math
import os
import struct
import sys
import tempfile

from clitest import case_args, finish, read_npy, results, run_ladder, show

COV_ROWS = [[1.5, -2.0], [3.0, 5.25], [4.0, 9.0]]
UCR_ROWS = [(1, [0.5, 0.25, 0.125]),
            (2, [1.0, -0.75, 2.5]),
            (1, [-1.5, 0.0, 0.375]),
            (3, [2.25, 1.75, -0.5])]
QUERY = 1
ABS_TOL, REL_TOL = 1e-5, 1e-4


def write_npy_big_endian(path, rows):
    d = "{'descr': '>f4', 'fortran_order': False, 'shape': (%d, %d), }" % (len(rows), len(rows[0]))
    total = 10 + len(d) + 1
    d += " " * ((64 - total % 64) % 64) + "\n"
    values = [v for row in rows for v in row]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode() +
                struct.pack(">%df" % len(values), *values))


def covariance(rows):
    m, n = len(rows), len(rows[0])
    mean = [sum(r[j] for r in rows) / m for j in range(n)]
    return [sum((r[i] - mean[i]) * (r[j] - mean[j]) for r in rows) / m
            for i in range(n) for j in range(n)]


def dtw(q, s):
    inf = math.inf
    prev = [0.0] + [inf] * len(s)
    for i in range(1, len(q) + 1):
        cur = [inf] * (len(s) + 1)
        for j in range(1, len(s) + 1):
            d = q[i - 1] - s[j - 1]
            cur[j] = d * d + min(prev[j - 1], prev[j], cur[j - 1])
        prev = cur
    return prev[len(s)]


def write_ucr(path, rows, padded):
    with open(path, "w") as f:
        for label, values in rows:
            if padded:
                f.write("".join("%16.7e" % x for x in [float(label)] + values) + "\n")
            else:
                f.write(" ".join([str(label)] + ["%g" % x for x in values]) + "\n")


def main():
    ladder, scratch, case = case_args("reads_data.py")
    problems = []
    with tempfile.TemporaryDirectory(prefix="reads.", dir=scratch) as work:
        if case == "npy_big_endian":
            write_npy_big_endian(os.path.join(work, "X.npy"), COV_ROWS)
            config = {"name": "cli-npy-big-endian", "study": "covariance",
                      "data": {"file": "X.npy"}}
            want = covariance(COV_ROWS)
            want_shape = (2, 2)
            want_data = {"m": 3, "n": 2}
        elif case in ("ucr_space_separated", "ucr_space_padded"):
            write_ucr(os.path.join(work, "old.txt"), UCR_ROWS, case == "ucr_space_padded")
            config = {"name": "cli-" + case, "study": "dtw", "data": {"file": "old.txt"},
                      "params": {"query": QUERY}}
            want = [dtw(UCR_ROWS[QUERY][1], s) for _, s in UCR_ROWS]
            want_shape = (len(UCR_ROWS),)
            want_data = {"n": 3, "entries": len(UCR_ROWS)}
        else:
            sys.exit("unknown case %r" % case)
        config.update({"repetitions": 1, "warmup": 0, "validation": "full"})
        with open(os.path.join(work, "config.json"), "w") as f:
            json.dump(config, f)
        text = os.path.join(work, "old.txt")
        if os.path.exists(text):
            print("old.txt:\n" + open(text).read(), end="")
        dumps = os.path.join(work, "dumps")
        proc = run_ladder([ladder, "run", "config.json", "--out", "res.json",
                           "--dump-outputs", dumps, "--quiet"], work, timeout=100)
        if proc.returncode != 0:
            finish(["%s: the run exited %d, expected 0 (the file must be read)\n%s" %
                    (case, proc.returncode, show(proc))])
        runs = results(os.path.join(work, "res.json")).runs
        checked = []
        if not runs:
            problems.append("the results hold no runs")
        for r in runs:
            who = "%s [%s]" % (r.id, r.point)
            if r.status in ("skipped", "unsupported") and r.backend != "cpu":
                print("  %s: %s (%s)" % (who, r.status, r.reason))
                continue
            if not r.passed:
                problems.append("%s: status %r (%s)" % (who, r.status, r.reason))
                continue
            data = r.data
            for key, value in want_data.items():
                if data.get(key) != value:
                    problems.append("%s: data %s = %r, expected %r" % (who, key, data.get(key), value))
            found = glob.glob(os.path.join(dumps, "%s__%s__*.npy" % (r.study, r.variant)))
            if len(found) != 1:
                problems.append("%s: expected one dump, found %s" % (who, found))
                continue
            try:
                shape, got = read_npy(found[0])
            except (ValueError, KeyError, SyntaxError) as e:
                problems.append("%s: unreadable dump: %s" % (who, e))
                continue
            if shape != want_shape:
                problems.append("%s: dump shape %s, expected %s" % (who, shape, want_shape))
                continue
            # A reduced-precision step (tf32, fp16x2) is held to the tolerance it states itself.
            abs_tol, rel_tol = ABS_TOL, REL_TOL
            if (r.precision or "fp32") not in ("fp32", "fp64"):
                stated = r.validation["tolerance"]
                abs_tol, rel_tol = stated["abs"], stated["rel"]
            bad = [(k, g, w) for k, (g, w) in enumerate(zip(got, want))
                   if not (math.isfinite(g) and abs(g - w) <= abs_tol + rel_tol * abs(w))]
            if bad:
                problems.append("%s: %d of %d values differ from the ones computed here; "
                                "first: [%d] got %.9g, expected %.9g" %
                                (who, len(bad), len(want), *bad[0]))
            else:
                checked.append(who)
        if not checked:
            problems.append("no run was checked against the answers computed here")
    finish(problems, "ok: %s read; checked %s" % (case, ", ".join(checked)))


if __name__ == "__main__":
    main()

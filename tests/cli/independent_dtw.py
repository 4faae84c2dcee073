#!/usr/bin/env python3
"""Every DTW variant against an independent DTW, on data the project has never seen.

    independent_dtw.py LADDER SCRATCH_ROOT [SEED]

Writes fresh UCR TSV files (random walks from this script's own generator), points a config
at each with validation "off" (so the harness's own baseline judges nothing), runs
`ladder run CFG --dump-outputs DIR --out res.json`, reads every dumped .npy by hand and
compares each variant's distances with a float64 DTW written here:

    D[0][0] = 0, D[i][0] = D[0][j] = inf, D[i][j] = (q[i-1] - s[j-1])^2 + min(D[i-1][j-1],
    D[i-1][j], D[i][j-1]); the distance is D[n][n] (squared costs, no square root).

Tolerance: |got - want| <= 1e-5 + 1e-4 * |want|. A variant whose status is `passed` must
have its dump; `skipped` (no GPU) and `unsupported` are allowed, but every CPU variant must
pass and be checked, so the test never passes having checked nothing.
"""
import ast
import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
from array import array

from clitest import results

REL_TOL = 1e-4
ABS_TOL = 1e-5
DEFAULT_SEED = 0x5EED_D7A


def random_walks(rng, entries, length):
    rows = []
    for _ in range(entries):
        x = rng.uniform(-3.0, 3.0)
        values = []
        for _ in range(length):
            x += rng.gauss(0.0, 1.0)
            values.append(round(x, 5))
        rows.append((rng.randint(1, 4), values))
    return rows


def write_ucr(path, rows):
    with open(path, "w") as f:
        for label, values in rows:
            f.write(str(label) + "".join("\t%.5f" % v for v in values) + "\n")


def as_float32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def dtw(q, s):
    n, m = len(q), len(s)
    inf = math.inf
    prev = [0.0] + [inf] * m
    for i in range(1, n + 1):
        cur = [inf] * (m + 1)
        qi = q[i - 1]
        for j in range(1, m + 1):
            d = qi - s[j - 1]
            cur[j] = d * d + min(prev[j - 1], prev[j], cur[j - 1])
        prev = cur
    return prev[m]


def read_npy(path):
    """Returns (descr, shape, values) of a version 1/2/3 .npy file, parsed by hand."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:6] != b"\x93NUMPY":
        raise ValueError("bad magic %r" % blob[:6])
    major = blob[6]
    if major == 1:
        (hlen,) = struct.unpack("<H", blob[8:10])
        start = 10
    elif major in (2, 3):
        (hlen,) = struct.unpack("<I", blob[8:12])
        start = 12
    else:
        raise ValueError("unknown .npy version %d" % major)
    header = ast.literal_eval(blob[start:start + hlen].decode("latin1"))
    if (start + hlen) % 16 != 0:
        raise ValueError("data does not start on a 16-byte boundary (offset %d)" % (start + hlen))
    if header.get("fortran_order"):
        raise ValueError("fortran_order is set")
    descr, shape = header["descr"], tuple(header["shape"])
    if descr != "<f4":
        raise ValueError("descr %r, expected '<f4'" % descr)
    data = blob[start + hlen:]
    count = 1
    for dim in shape:
        count *= dim
    if len(data) != 4 * count:
        raise ValueError("%d data bytes for shape %s of float32" % (len(data), shape))
    values = array("f")
    values.frombytes(data)
    if sys.byteorder != "little":
        values.byteswap()
    return descr, shape, list(values)


def file_safe(text):
    return re.sub(r"[^A-Za-z0-9.\-]", "_", text)


def check_case(ladder, scratch, title, rows, query, extra):
    """Runs ladder on `rows` and returns (problems, list of variants checked)."""
    problems = []
    checked = []
    with tempfile.TemporaryDirectory(prefix="independent.", dir=scratch) as work:
        data = os.path.join(work, "walks.tsv")
        write_ucr(data, rows)
        config = {
            "name": "cli-independent-" + title,
            "study": "dtw",
            "data": {"file": "walks.tsv"},
            "validation": "off",
            "repetitions": 1,
            "warmup": 0,
        }
        config.update(extra)
        cfg = os.path.join(work, "config.json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        dumps = os.path.join(work, "dumps")
        out = os.path.join(work, "res.json")
        # Run from elsewhere so the data file must be found relative to the config.
        cmd = [ladder, "run", cfg, "--dump-outputs", dumps, "--out", out, "--quiet"]
        proc = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True, timeout=240)
        if proc.returncode != 0:
            return ["%s: `%s` exited %d:\n%s%s" % (title, " ".join(cmd), proc.returncode,
                                                   proc.stdout, proc.stderr)], checked
        runs = results(out).runs

        # The answers, from the values as ladder holds them (float32), in float64.
        stored = [[as_float32(v) for v in values] for _, values in rows]
        want = [dtw(stored[query], s) for s in stored]
        entries = len(rows)

        if not runs:
            problems.append("%s: the results hold no runs" % title)
        for run in runs:
            who = "%s: %s [%s]" % (title, run.id, run.point)
            status = run.status
            if run.backend == "cpu" and status != "passed":
                problems.append("%s: CPU variant has status %r (%s)" % (who, status, run.reason))
                continue
            if status in ("skipped", "unsupported"):
                print("  %s: %s (%s)" % (who, status, run.reason))
                continue
            if status != "passed":
                problems.append("%s: status %r (%s)" % (who, status, run.reason))
                continue
            if run.validation["mode"] != "off":
                problems.append("%s: validation mode %r, expected off" %
                                (who, run.validation["mode"]))
            name = "%s__%s__%s.npy" % (run.study, run.variant, file_safe(run.point))
            path = os.path.join(dumps, name)
            if not os.path.exists(path):
                present = sorted(os.listdir(dumps)) if os.path.isdir(dumps) else []
                problems.append("%s: passed but its dump %s is missing (present: %s)" %
                                (who, name, present))
                continue
            try:
                _, shape, got = read_npy(path)
            except (ValueError, KeyError, SyntaxError) as e:
                problems.append("%s: unreadable dump %s: %s" % (who, name, e))
                continue
            if shape != (entries,):
                problems.append("%s: dump shape %s, expected (%d,)" % (who, shape, entries))
                continue
            # A reduced-precision step (fp16x2) is held to the tolerance it states itself.
            abs_tol, rel_tol = ABS_TOL, REL_TOL
            if (run.precision or "fp32") != "fp32":
                stated = run.validation["tolerance"]
                abs_tol, rel_tol = stated["abs"], stated["rel"]
            bad = [(k, g, w) for k, (g, w) in enumerate(zip(got, want))
                   if not (math.isfinite(g) and abs(g - w) <= abs_tol + rel_tol * abs(w))]
            if bad:
                k, g, w = bad[0]
                problems.append("%s: %d of %d distances off; first: series %d got %.9g, "
                                "independent DTW %.9g" % (who, len(bad), entries, k, g, w))
            else:
                checked.append(who)
                print("  %s: %d distances match" % (who, entries))
    return problems, checked


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: independent_dtw.py LADDER SCRATCH_ROOT [SEED]")
    ladder = os.path.abspath(sys.argv[1])
    scratch = os.path.abspath(sys.argv[2])
    os.makedirs(scratch, exist_ok=True)
    seed = int(sys.argv[3]) if len(sys.argv) == 4 else DEFAULT_SEED
    rng = random.Random(seed)
    print("seed %d" % seed)

    cases = [
        # 40 random walks of length 57 (neither a warp multiple nor a power of two), the
        # GPU steps at their default block and at a block that leaves a partial warp.
        ("walks40x57", random_walks(rng, 40, 57), 0, {"axes": {"block_size": [32, 7]}}),
        # Length 1: the DP matrix is a single cell.
        ("walks3x1", random_walks(rng, 3, 1), 0, {}),
        # The query is not the first series.
        ("walks9x33q4", random_walks(rng, 9, 33), 4, {"params": {"query": 4}}),
    ]
    problems, checked = [], []
    for title, rows, query, extra in cases:
        print("%s: %d series of length %d, query %d" % (title, len(rows), len(rows[0][1]), query))
        p, c = check_case(ladder, scratch, title, rows, query, extra)
        problems += p
        checked += c
    if not checked:
        problems.append("no variant was checked at all")
    if problems:
        for p in problems:
            print("FAIL:", p, file=sys.stderr)
        sys.exit(1)
    print("ok: %d variant runs match the independent DTW" % len(checked))


if __name__ == "__main__":
    main()

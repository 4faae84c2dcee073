#!/usr/bin/env python3
"""Third hostile set, outputs: compare, export, profile and what reaches the terminal.

    hostile3_outputs.py LADDER SCRATCH_ROOT CASE

- compare_many_samples: two results files of one run each with 100,000 samples a side (as
  `--repetitions 100000` writes them): compare, as a table and as CSV, answers within seconds
  with the p-value of the rank test (normal approximation with the tie correction, computed
  here independently; SciPy's mannwhitneyu gives the same).
- compare_known_p: runs whose two-sided Mann-Whitney p-values SciPy's mannwhitneyu gave (exact
  for small samples without ties, else the normal approximation with the tie and continuity
  corrections): compare --csv reports each.
- compare_csv_repeated_point: a sweep listing point "p" twice beside a real point "p #2", in
  either order: compare --csv gives three distinct rows, none merged or dropped, each with its
  occurrence and both files' medians.
"""
import csv
import io
import json
import math
import os
import shutil
import time

from clitest import case_args, checker, finish, run_ladder, show

problems = []
check = checker(problems)


def text(b):
    return b.decode("utf-8", "replace")


def run_entry(point, samples, variant="seq_full", sweep="", median=None):
    s = sorted(samples)
    timing = {"unit": "ms", "samples": samples,
              "median": median if median is not None else s[len(s) // 2],
              "min": s[0], "max": s[-1]}
    return {"study": "dtw", "variant": variant, "point": point, "sweep": sweep, "status": "passed",
            "label": variant, "timing": timing}


def write_results(path, runs):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"schema_version": 1, "runs": runs}, f)


def csv_rows(proc):
    return list(csv.DictReader(io.StringIO(text(proc.stdout), newline="")))


# --- compare: the rank test on many samples (cause 5) ---------------------------------------------

def normal_p(a, b):
    """Two-sided p of the Mann-Whitney U test by the normal approximation with the tie and
    continuity corrections (SciPy's 'asymptotic'), from ranks."""
    pooled = sorted([(x, 0) for x in a] + [(y, 1) for y in b])
    rank_a, ties, i = 0.0, 0.0, 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        rank_a += sum(1 for k in range(i, j) if pooled[k][1] == 0) * (i + j + 1) / 2
        ties += (j - i) ** 3 - (j - i)
        i = j
    n, m = len(a), len(b)
    u = rank_a - n * (n + 1) / 2
    big = n + m
    sigma = math.sqrt(n * m / 12 * ((big + 1) - ties / (big * (big - 1))))
    z = (abs(u - n * m / 2) - 0.5) / sigma
    return min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2)))


def close(got, want, rel=1e-9):
    return got is not None and abs(got - want) <= rel * abs(want)


def compare_many_samples(ladder, work):
    n = 100000
    a = [1.0 + (i % 997) * 1e-4 for i in range(n)]
    b = [1.0 + (i % 1009) * 1e-4 for i in range(n)]
    pa, pb = os.path.join(work, "a.json"), os.path.join(work, "b.json")
    write_results(pa, [run_entry("n=128", a)])
    write_results(pb, [run_entry("n=128", b)])
    want = normal_p(a, b)  # SciPy's mannwhitneyu: 4.978063812131417e-07
    check(close(want, 4.978063812131417e-07, 1e-6), "the test's own p %r is not SciPy's" % want)
    for extra in ([], ["--csv"]):
        t0 = time.monotonic()
        proc = run_ladder([ladder, "compare", pa, pb] + extra, cwd=work, timeout=120)
        took = time.monotonic() - t0
        print("compare %s: %.2f s" % (" ".join(extra) or "(table)", took))
        if not check(proc.returncode == 0, "compare %s: %s" % (extra, show(proc))):
            continue
        check(took < 10, "compare %s of 100,000 samples a side took %.1f s" % (extra, took))
        if extra:
            rows = csv_rows(proc)
            got = float(rows[0]["p_value"]) if len(rows) == 1 and rows[0]["p_value"] else None
            check(close(got, want, 1e-6), "p_value %r, want %r" % (got, want))


# (A's samples, B's samples, SciPy's two-sided mannwhitneyu p-value with method 'auto')
KNOWN_P = {
    "ties": ([1, 2, 2, 3, 3, 3, 4, 4, 5, 5], [3, 4, 4, 5, 5, 5, 6, 6, 7, 7], 0.007154053613678814),
    "ties_small": ([1.0, 2.0, 2.0, 3.0, 4.0], [2.0, 3.0, 3.0, 5.0, 6.0], 0.19882894401644247),
    "exact_6_9": ([1.1, 2.3, 3.5, 0.7, 5.2, 4.4], [2.0, 3.1, 6.3, 7.7, 8.2, 5.9, 6.6, 9.1, 4.9],
                  0.025574425574425574),
    "exact_4_4": ([10.0, 11.0, 12.0, 13.0], [14.0, 15.0, 16.0, 17.0], 0.02857142857142857),
    "normal_20_25": ([1.0, 1.015, 1.03, 1.04, 1.055, 1.065, 1.08, 1.095, 1.105, 1.12, 1.13, 1.145,
                      1.16, 1.17, 1.185, 1.195, 1.21, 1.225, 1.235, 1.25],
                     [1.1, 1.1131, 1.1262, 1.1344, 1.1475, 1.1557, 1.1688, 1.177, 1.1901, 1.2032,
                      1.2114, 1.2245, 1.2327, 1.2458, 1.254, 1.2671, 1.2802, 1.2884, 1.3015,
                      1.3097, 1.3228, 1.331, 1.3441, 1.3572, 1.3654], 0.00024629849670787496),
}


def compare_known_p(ladder, work):
    pa, pb = os.path.join(work, "a.json"), os.path.join(work, "b.json")
    write_results(pa, [run_entry("n=1", [float(x) for x in a], variant=k) for k, (a, _, _) in KNOWN_P.items()])
    write_results(pb, [run_entry("n=1", [float(x) for x in b], variant=k) for k, (_, b, _) in KNOWN_P.items()])
    proc = run_ladder([ladder, "compare", pa, pb, "--csv"], cwd=work)
    if not check(proc.returncode == 0, "compare --csv: %s" % show(proc)):
        return
    got = {r["variant"]: r["p_value"] for r in csv_rows(proc)}
    for k, (_, _, want) in KNOWN_P.items():
        p = float(got[k]) if got.get(k) else None
        check(close(p, want), "%s: p_value %r, SciPy's %r" % (k, got.get(k), want))


# --- compare --csv: a repeated point beside "p #2" (cause 14) -----------------------------------

def compare_csv_repeated_point(ladder, work):
    for order in (["p", "p #2", "p"], ["p", "p", "p #2"], ["p #2", "p", "p"]):
        pa, pb = os.path.join(work, "a.json"), os.path.join(work, "b.json")
        a, b, want = [], [], []
        seen = {}
        for i, point in enumerate(order):
            seen[point] = seen.get(point, 0) + 1
            ma, mb = 1.0 + i, 10.0 + i
            a.append(run_entry(point, [ma], sweep="s"))
            b.append(run_entry(point, [mb], sweep="s"))
            want.append((point, str(seen[point]), ma, mb))
        write_results(pa, a)
        write_results(pb, b)
        proc = run_ladder([ladder, "compare", pa, pb, "--csv"], cwd=work)
        if not check(proc.returncode == 0, "compare --csv %r: %s" % (order, show(proc))):
            continue
        rows = csv_rows(proc)
        got = [(r["point"], r.get("occurrence"), float(r["a_median_ms"] or "nan"), float(r["b_median_ms"] or "nan"))
               for r in rows]
        check(sorted(got) == sorted(want), "compare --csv %r: rows %r, want %r" % (order, got, want))
        keys = [(r["study"], r["variant"], r["sweep"], r["point"], r.get("occurrence")) for r in rows]
        check(len(set(keys)) == len(keys) == 3, "compare --csv %r: keys %r are not 3 distinct" % (order, keys))


CASES = {f.__name__: f for f in (compare_many_samples, compare_known_p,
                                 compare_csv_repeated_point)}


def main():
    ladder, scratch, case = case_args("hostile3_outputs.py")
    work = os.path.join(scratch, "h3o-" + case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    CASES[case](ladder, work)
    if not problems:
        shutil.rmtree(work, ignore_errors=True)
    finish(problems)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The measurement contract's acceptance numbers (docs/measurement.md), from `ladder ab` folders.

  scripts/acceptance_tally.py LADDER DIR [--dimensioning DIMDIR]

DIR holds identical/<study>/ (two copies of one binary, `scripts/measurement_check.sh identical`)
and planted/<study>-<factor>/ (`... planted`), each with A.json and B.json. Printed, by study
and in all:
  identical  rows tested, `faster`/`slower` (AT1), unadjusted p < 0.05 and < 0.01, `same`
             with an MDE80 over 3% (AT2), `drift` (AT5); and the share of p < 0.05 over 400
             random 10/10 splits of the 20 processes, which an exact test puts at 5% (rows of
             one comparison share their processes, so one split's count varies far more than
             a binomial one);
  offline    the identical files with B's process medians of the planted steps times each
             factor (AT3), by class of A's time;
  planted    the planted folders' verdicts by class, and each class's measured B/A (AT4);
  calibration  with --dimensioning: the z-test's MDE80 from DIMDIR/<study>.json's sd against
             Welch's on the identical files (AT6), and one process a side (process i of A
             against process i of B, i = 0..9) compared with --calibration: its false verdicts.
Classes: TWED's host-bound rows (its `batch` step outside the Synthetic Control sweep), else by
A's time: above 1 ms, 50 us - 1 ms, under 50 us.
"""
import argparse
import collections
import csv
import io
import json
import math
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from offline_ab import subset  # beside this script, which Python puts first on its path

STUDIES = ("dtw", "covariance", "eed", "skyline", "twed")
PLANTED = re.compile(r"^(dtw/shared|covariance/tiled|eed/warp_rows|skyline/alr|twed/batch)$")
FACTORS = (1.05, 1.10)


def compare(ladder, a, b, *extra):
    """`ladder compare --csv` of two files (paths or results dicts): its tested rows."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n, side in enumerate((a, b)):
            if isinstance(side, dict):
                p = Path(tmp) / f"{n}.json"
                p.write_text(json.dumps(side))
                side = p
            paths.append(str(side))
        out = subprocess.run([ladder, "compare", *paths, "--csv", *extra], capture_output=True, text=True, check=True)
    return [r for r in csv.DictReader(io.StringIO(out.stdout)) if r["test"]]


def planted(r):
    return bool(PLANTED.search(f"{r['study']}/{r['variant']}"))


def time_class(r):
    if r["study"] == "twed" and r["variant"] == "batch" and r["sweep"] != "synthetic_control":
        return "twed host-bound"
    a = float(r["a_median_ms"])
    return "> 1 ms" if a > 1 else "50 us - 1 ms" if a >= 0.05 else "< 50 us"


def verdict(r):
    return r["verdict"].split(" (")[0]


def split_rate(side_a, side_b, draws=400, seed=49):
    """The share of p < 0.05 over random 10/10 splits of both sides' processes, by Welch."""
    rows = []
    for ra, rb in zip(side_a["runs"], side_b["runs"]):
        ta, tb = ra.get("timing"), rb.get("timing")
        if isinstance(ta, dict) and isinstance(tb, dict) and len(ta.get("process_medians", [])) >= 5:
            rows.append([math.log(x) for x in ta["process_medians"] + tb["process_medians"]])
    rng, hits, total = random.Random(seed), 0, 0
    for _ in range(draws):
        order = list(range(len(rows[0]))) if rows else []
        rng.shuffle(order)
        half = len(order) // 2
        for v in rows:
            a, b = [v[i] for i in order[:half]], [v[i] for i in order[half:]]
            va, vb = statistics.variance(a), statistics.variance(b)
            se = math.sqrt(va / len(a) + vb / len(b))
            if se == 0:
                continue
            t = (statistics.mean(b) - statistics.mean(a)) / se
            df = se ** 4 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
            hits += student_p(t, df) < 0.05
            total += 1
    return hits / total if total else float("nan")


def student_p(t, df):
    """Two-sided p of Student's t (regularised incomplete beta by continued fraction)."""
    x = df / (df + t * t)
    return incomplete_beta(df / 2, 0.5, x)


def incomplete_beta(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x > (a + 1) / (a + b + 2):
        return 1 - incomplete_beta(b, a, 1 - x)
    f, c, d = 1.0, 1.0, 0.0
    for i in range(400):
        m = i // 2
        if i == 0:
            num = 1.0
        elif i % 2 == 0:
            num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 + num * d
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = 1 + num / (c if abs(c) > 1e-300 else 1e-300)
        f *= c * d
        if abs(1 - c * d) < 1e-12:
            break
    return front * (f - 1) / a


def identical(ladder, root):
    print("## Identical (AT1, AT2, AT5)\n")
    print("| study | rows | faster/slower | p < 0.05 | p < 0.01 | same | same, MDE80 > 3% | drift | p < 0.05 over 400 splits |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    total = collections.Counter()
    for s in STUDIES:
        d = root / "identical" / s
        side_a, side_b = (json.loads((d / f).read_text()) for f in ("A.json", "B.json"))
        c = collections.Counter()
        for r in compare(ladder, d / "A.json", d / "B.json"):
            p = float(r["p_value"])
            c["rows"] += 1
            c["verdicts"] += verdict(r) in ("faster", "slower")
            c["p05"] += p < 0.05
            c["p01"] += p < 0.01
            c["same"] += r["verdict"] == "same"
            c["same_wide"] += r["verdict"] == "same" and float(r["mde80"]) > 0.03
            c["drift"] += r["drift"] == "1"
        rate = split_rate(side_a, side_b)
        print(f"| {s} | {c['rows']} | {c['verdicts']} | {c['p05']} | {c['p01']} | {c['same']} | {c['same_wide']} | "
              f"{c['drift']} | {100 * rate:.1f}% |")
        total += c
    print(f"| all | {total['rows']} | {total['verdicts']} | {total['p05']} | {total['p01']} | {total['same']} | "
          f"{total['same_wide']} | {total['drift']} | |\n")


def by_class(rows):
    """Verdicts of the planted rows by class, and the unplanted rows' faster/slower."""
    c = collections.defaultdict(collections.Counter)
    ratios = collections.defaultdict(list)
    for r in rows:
        if not planted(r):
            c["unplanted"][verdict(r) in ("faster", "slower")] += 1
            continue
        k = time_class(r)
        c[k][verdict(r)] += 1
        c[k]["mde"] = max(c[k]["mde"], round(100 * float(r["mde80"])))
        ratios[k].append(float(r["ratio"]))
    return c, ratios


def show_classes(title, rows, factor, over=frozenset()):
    """`over`: the rows whose plant's own cost exceeded the share (their wait the shortest)."""
    c, ratios = by_class(rows)
    print(f"{title}:")
    # The plant must be detectable (MDE80) and count (the 2 us floor of a verdict).
    seen = [r for r in rows if planted(r) and time_class(r) != "twed host-bound" and float(r["mde80"]) <= factor - 1
            and float(r["a_median_ms"]) * (factor - 1) >= 0.002]
    print(f"  planted rows whose MDE80 is at most the plant and the plant at least 2 us: slower "
          f"{sum(verdict(r) == 'slower' for r in seen)} of {len(seen)}")
    for k in ("> 1 ms", "50 us - 1 ms", "< 50 us", "twed host-bound"):
        if k in c:
            n = sum(v for key, v in c[k].items() if key != "mde")
            slower = c[k]["slower"]
            extra = f", B/A median {statistics.median(ratios[k]):.3f}" if ratios[k] else ""
            forced = sum(1 for r in rows if planted(r) and time_class(r) == k and row_key(r) in over)
            extra += f"; {forced} got more than asked (the wait's launch alone exceeds the share)" if forced else ""
            print(f"  {k}: slower {slower} of {n} ({100 * slower / n:.0f}%), same {c[k]['same']}, "
                  f"inconclusive {c[k]['inconclusive']}, largest MDE80 {c[k]['mde']}%{extra}")
    if "unplanted" in c:
        print(f"  unplanted rows: {c['unplanted'][True]} faster/slower of {sum(c['unplanted'].values())}")


def row_key(r):
    return (r["study"], r["variant"], r["sweep"], r["point"])


def forced_short(side_b):
    """The runs of B whose median process got the shortest wait: its cost above the share."""
    out = set()
    for run in side_b["runs"]:
        t = run.get("timing")
        waits = [p["planted"]["ms"] for p in (t or {}).get("processes", []) if isinstance(p.get("planted"), dict)]
        if waits and statistics.median(waits) <= 1e-6:
            out.add((run["study"], run["variant"], run.get("sweep", ""), run["point"]))
    return out


def offline(ladder, root):
    print("## Planted offline on the identical files (AT3)\n")
    for f in FACTORS:
        rows = []
        for s in STUDIES:
            d = root / "identical" / s
            side_a, side_b = (json.loads((d / n).read_text()) for n in ("A.json", "B.json"))
            every = lambda side: list(range(side["processes"]["count"]))
            rows += compare(ladder, subset(side_a, every(side_a)), subset(side_b, every(side_b), f, PLANTED))
        show_classes(f"+{100 * (f - 1):.0f}%", rows, f)
    print()


def end_to_end(ladder, root):
    print("## Planted end to end (AT4)\n")
    for f in FACTORS:
        rows, over = [], set()
        for s in STUDIES:
            d = root / "planted" / f"{s}-{f:.2f}"
            if d.is_dir():
                rows += compare(ladder, d / "A.json", d / "B.json")
                over |= forced_short(json.loads((d / "B.json").read_text()))
        show_classes(f"+{100 * (f - 1):.0f}%", rows, f, over)
    print()


def calibration(ladder, root, dims):
    print("## Calibration (AT6)\n")
    z = statistics.NormalDist().inv_cdf(0.975) + statistics.NormalDist().inv_cdf(0.8)
    ratio, false = collections.defaultdict(list), collections.Counter()
    for s in STUDIES:
        d = root / "identical" / s
        dim = json.loads((dims / f"{s}.json").read_text())
        sd = {(r["variant"], r.get("sweep", ""), r["point"]): r["timing"]["sd_log_process"]
              for r in dim["runs"] if isinstance(r.get("timing"), dict) and "sd_log_process" in r["timing"]}
        side_a, side_b = (json.loads((d / n).read_text()) for n in ("A.json", "B.json"))
        backend = {r["variant"]: r.get("backend") for r in side_a["runs"]}
        for r in compare(ladder, d / "A.json", d / "B.json"):
            key = (r["variant"], r["sweep"], r["point"])
            if key in sd and float(r["mde80"]) > 0:
                mde_z = math.expm1(z * sd[key] * math.sqrt(0.2))
                ratio["cpu" if backend.get(r["variant"]) == "cpu" else "gpu"].append(mde_z / float(r["mde80"]))
        for i in range(side_a["processes"]["count"]):
            for r in compare(ladder, subset(side_a, [i]), subset(side_b, [i]), "--calibration", str(dims / f"{s}.json")):
                false[s] += verdict(r) in ("faster", "slower")
                false["rows"] += 1
        false["comparisons"] += side_a["processes"]["count"]
    for k, v in ratio.items():
        within = sum(abs(x - 1) <= 0.1 for x in v)
        print(f"  {k} rows: the z-test's MDE80 over Welch's, median {statistics.median(v):.3f} "
              f"(within 10% on {within} of {len(v)} rows)")
    print(f"  one process a side with --calibration: {sum(false[s] for s in STUDIES)} faster/slower in "
          f"{false['comparisons']} comparisons ({false['rows']} rows): "
          + ", ".join(f"{s} {false[s]}" for s in STUDIES))
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ladder")
    ap.add_argument("dir", type=Path)
    ap.add_argument("--dimensioning", type=Path)
    a = ap.parse_args()
    identical(a.ladder, a.dir)
    offline(a.ladder, a.dir)
    end_to_end(a.ladder, a.dir)
    if a.dimensioning:
        calibration(a.ladder, a.dir, a.dimensioning)


if __name__ == "__main__":
    sys.exit(main())

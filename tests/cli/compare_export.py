#!/usr/bin/env python3
"""`ladder compare` and `ladder export --csv` on two results files written here by hand.

    compare_export.py LADDER SCRATCH_ROOT

The files are old-style one-process files (schema_version 1, no `processes` block): each run
is one process, whatever its samples, so under the process-level contract no timed run can be
tested and each gets `too few processes` (K = 1 a side; with 3, 5 or 100,000 samples alike),
however far apart its medians: overlapping samples 9% apart, samples wholly apart within 3% or
within 2 us, a clear speedup and slowdown, one outlier among equal samples, 3 and 3 or 1 and 1
samples. Beside them a skipped run, a run that failed validation, runs in one file only and
equal points in two sweeps; a parameter value and a reason hold commas, quotes and a line
break to test CSV quoting. (tests/cli/process_compare.py judges K-process files.) Checks:

- `compare A B` exits 0 with one row per key, the verdict, K = 1 a side and A/B in each, the
  status for an untimed run, `-` for a side that lacks the run, INCORRECT for a failed
  validation, and the legend of the verdicts and options;
- `compare A B --csv` is RFC 4180 CSV (CRLF) of 31 columns that reads back with the csv
  module to the exact medians, ranges, sample counts, speedups, ratios and verdicts, with no
  p-value, q-value or MDE for a run that was not tested;
- `export --csv A` has the 26 fixed columns plus a sorted param_ column per parameter, one
  row per run, values read back exactly (quoted fields included), empty where absent;
- `export --csv A --out FILE` writes the same bytes to FILE.
"""
import copy
import csv
import io
import json
import os
import sys
import tempfile

from clitest import checker, finish, run_ladder

problems = []

check = checker(problems)


def timing(samples):
    s = sorted(samples)
    n = len(s)
    median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    mean = sum(s) / n
    return {"unit": "ms", "mode": "hot", "warmup": 1, "samples": samples, "median": median,
            "min": s[0], "max": s[-1], "mean": mean, "stddev": 0.0, "cv": 0.0}


def run(variant, point, status="passed", samples=None, sweep="", params=None, reason=""):
    r = {"study": "dtw", "variant": variant, "step": 1, "label": variant + " label",
         "role": "step", "change": "", "backend": "cpu", "precision": "fp32",
         "metric": "gcups", "point": point, "sweep": sweep,
         "params": params if params is not None else {"n": point.split("=")[1]},
         "status": status, "reason": reason, "data": {}, "extras": {}, "facts": {},
         "validation": {"mode": "full", "checked": 10, "failures": 0,
                        "max_abs_error": 0.0, "max_rel_error": None,
                        "tolerance": {"abs": 0, "rel": 0, "rule": "exact"}}}
    if samples:
        r["timing"] = timing(samples)
        r["metrics"] = {"gcups": 1000.0 / r["timing"]["median"], "unit": "GCUPS", "work": 1e6,
                        "peak": 100.0, "peak_rule": "x", "pct_of_peak": 12.5}
    else:
        r["timing"] = None
        r["metrics"] = {}
    return r


def results(runs):
    return {"schema_version": 1, "ladder": {}, "host": {}, "device": {}, "config": {},
            "runs": runs}


COMMA = 'a,b "quoted"\nnext line'
REASON = "2 of 10 outputs outside tolerance; first: i=3, got 1.5"

# key -> (A run or None, B run or None, verdict, expected A/B speedup or None, p-value or None)
FEW = "too few processes"
CASES = {}


def case(a, b, verdict, p=None):
    key = (a or b)["variant"], (a or b)["sweep"], (a or b)["point"]
    speedup = None
    if a and b and a["timing"] and b["timing"]:
        speedup = a["timing"]["median"] / b["timing"]["median"]
    CASES[key] = (a, b, verdict, speedup, p)


def build():
    # One process a side, whatever the samples: no process-level test, so no verdict.
    # Samples overlap (A's 11.0 above three of B's) although the medians differ by 9%.
    case(run("overlap", "n=128", samples=[10.0, 9.0, 11.0, 10.5, 9.5]),
         run("overlap", "n=128", samples=[10.8, 10.9, 11.5, 12.0, 10.85]), FEW)
    # Wholly apart, medians 1% apart.
    case(run("floor", "n=128", samples=[10.0, 10.01, 10.02, 10.03, 10.04]),
         run("floor", "n=128", samples=[10.1, 10.11, 10.12, 10.13, 10.14]), FEW)
    # Wholly apart and 13% apart, but 1.3 us.
    case(run("micro", "n=128", samples=[0.0097, 0.00972, 0.00975, 0.00978, 0.0098]),
         run("micro", "n=128", samples=[0.011, 0.01102, 0.01105, 0.0111, 0.0112]), FEW)
    # Two identical smoke runs on an H100: 2.3% apart at 3.6 ms, samples wholly apart: the
    # samples of one process do not show what differs between processes.
    case(run("process", "n=128", samples=[3.592, 3.594, 3.595, 3.596, 3.598]),
         run("process", "n=128", samples=[3.511, 3.512, 3.513, 3.514, 3.516]), FEW)
    # Even 2x apart.
    case(run("fast", "n=128", samples=[20.0, 19.5, 20.5, 20.2, 19.8]),
         run("fast", "n=128", samples=[10.0, 9.8, 10.2, 10.1, 9.9]), FEW)
    case(run("slow", "n=128", samples=[20.0, 19.5, 20.5, 20.2, 19.8]),
         run("slow", "n=128", samples=[25.0, 24.5, 25.5, 25.2, 24.8]), FEW)
    # One outlier (a warm-up left in) among equal samples.
    case(run("outlier", "n=128", samples=[10.0, 10.1, 9.9, 10.05, 30.0]),
         run("outlier", "n=128", samples=[10.02, 10.0, 9.98, 10.03, 10.01]), FEW)
    # 3 and 3 samples, or 1 and 1 (the smoke configs' 3 repetitions with a warm-up outlier;
    # 20% apart).
    case(run("few", "n=128", samples=[2.86, 1.0, 1.01]), run("few", "n=128", samples=[1.0, 1.02, 0.99]),
         FEW)
    case(run("one", "n=64", samples=[5.0]), run("one", "n=64", samples=[5.05]), FEW)
    case(run("one", "n=256", samples=[5.0]), run("one", "n=256", samples=[6.0]), FEW)
    case(run("gpu", "n=128", status="skipped", reason="no CUDA device"),
         run("gpu", "n=128", status="skipped", reason="no CUDA device"), "")
    # B failed validation but looks 2x faster: marked, never a plain speedup.
    case(run("broken", "n=128", samples=[5.0, 5.1, 4.9, 5.05, 4.95]),
         run("broken", "n=128", status="incorrect", samples=[2.5, 2.4, 2.6, 2.55, 2.45],
             reason=REASON + "\nsecond line"), "INCORRECT (B)")
    # Equal points in two sweeps are two keys; one run only in A, one only in B.
    case(run("sweeps", "n=32", sweep="s1", samples=[1.0, 1.1, 0.9, 1.02, 0.98]),
         run("sweeps", "n=32", sweep="s1", samples=[1.0, 1.05, 0.95, 1.01, 0.97]), FEW)
    case(run("sweeps", "n=32", sweep="s2", samples=[2.0, 2.1, 1.9, 2.05, 1.95]),
         run("sweeps", "n=32", sweep="s2", samples=[1.0, 1.1, 0.9, 1.05, 0.95]), FEW)
    case(run("only_a", "n=128", samples=[3.0, 3.1, 2.9], params={"n": "128", "note": COMMA}),
         None, "")
    case(None, run("only_b", "n=128", samples=[3.0, 3.1, 2.9]), "")
    a = [c[0] for c in CASES.values() if c[0]]
    b = [c[1] for c in CASES.values() if c[1]]
    return results(a), results(b)


def display_key(variant, sweep, point):
    return "dtw/%s%s %s" % (variant, " [%s]" % sweep if sweep else "", point)


def check_table(out):
    lines = out.splitlines()
    check(lines and lines[0].split()[:2] == ["study/variant", "[sweep]"],
          "compare: the header is %r" % (lines[:1],))
    check(lines and lines[0].split()[-1] == "A/B", "compare: A/B is not the last column: %r" % lines[:1])
    check(any("above 1: B is faster" in l for l in lines), "compare: no legend for A/B")
    legend = " ".join(l for l in lines if not l.startswith("dtw/"))
    for word in ("Welch", "Benjamini-Hochberg", "3.0%", "too few processes", "inconclusive", "same",
                 "--q 0.01", "--min-effect 3%", "--calibration none"):
        check(word in legend, "compare: the legend lacks %r" % word)
    for (variant, sweep, point), (a, b, verdict, speedup, _) in CASES.items():
        key = display_key(variant, sweep, point)
        rows = [l for l in lines if l.startswith(key + " ")]
        if not check(len(rows) == 1, "compare: %d rows for %s, expected 1" % (len(rows), key)):
            continue
        cells = rows[0][len(key):].split()
        want_ratio = "%.2fx" % speedup if speedup is not None else "-"
        check(cells[-1] == want_ratio,
              "compare: %s ends with %r, expected A/B %r" % (key, cells[-1], want_ratio))
        if verdict:
            check(verdict in rows[0], "compare: %s lacks verdict %r: %r" % (key, verdict, rows[0]))
        for word in ("same", "faster", "slower", "inconclusive", "INCORRECT"):
            if word not in verdict:
                check(word not in cells, "compare: %s says %r: %r" % (key, word, rows[0]))
        if a is None or b is None:
            check(" - " in rows[0], "compare: %s, missing from one file, shows no '-'" % key)
        for side in (a, b):
            if side and not side["timing"]:
                check(side["status"] in cells, "compare: %s does not show status %r: %r"
                      % (key, side["status"], rows[0]))
        if a and b and a["timing"] and b["timing"]:
            # K = 1 a side, and B/A (no CI: no test) before the verdict.
            check(cells.count("1") >= 2, "compare: %s does not show K = 1 a side: %r" % (key, rows[0]))
            want = "%.3f" % (b["timing"]["median"] / a["timing"]["median"])
            check(want in cells and "[" not in rows[0][len(key):], "compare: %s does not show B/A %s alone: %r"
                  % (key, want, rows[0]))


COMPARE_HEAD = ["study", "variant", "sweep", "point", "occurrence", "a_status", "a_median_ms", "a_min_ms",
                "a_max_ms", "a_samples", "b_status", "b_median_ms", "b_min_ms", "b_max_ms",
                "b_samples", "speedup", "verdict", "p_value", "a_processes", "b_processes", "ratio",
                "ratio_ci_low", "ratio_ci_high", "q_value", "mde80", "icc_a", "icc_b", "u_p_value", "drift",
                "heavy_tailed", "test"]


def parse_csv(raw, what):
    """Rows of raw CSV bytes; checks every record ends with CRLF."""
    text = raw.decode("utf-8")
    check(text.endswith("\r\n"), "%s: does not end with CRLF" % what)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    check(all("\r" not in c for r in rows for c in r), "%s: a stray CR in a field" % what)
    return rows


def csv_rows(raw, what):
    """The data rows of raw CSV bytes as dicts keyed by the header."""
    rows = parse_csv(raw, what)
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def side_cells(run):
    if run is None:
        return ["", "", "", "", ""]
    t = run["timing"]
    if not t:
        return [run["status"], "", "", "", ""]
    return [run["status"], t["median"], t["min"], t["max"], str(len(t["samples"]))]


def same(cell, want):
    """A CSV cell equals `want`: floats exactly (full precision), text as is."""
    if isinstance(want, float):
        try:
            return float(cell) == want
        except ValueError:
            return False
    return cell == want


def check_compare_csv(raw):
    rows = parse_csv(raw, "compare --csv")
    if not check(rows and rows[0] == COMPARE_HEAD, "compare --csv: header %r" % rows[:1]):
        return
    check(len(rows) == 1 + len(CASES),
          "compare --csv: %d data rows, expected %d" % (len(rows) - 1, len(CASES)))
    check(all(len(r) == len(COMPARE_HEAD) for r in rows), "compare --csv: ragged rows")
    by_key = {(r[1], r[2], r[3]): r for r in rows[1:]}
    for key, (a, b, verdict, speedup, p) in CASES.items():
        r = by_key.get(key)
        if not check(r is not None, "compare --csv: no row for %s" % (key,)):
            continue
        timed = bool(a and b and a["timing"] and b["timing"])
        want = ["dtw", key[0], key[1], key[2], "1"] + side_cells(a) + side_cells(b) + \
            [speedup if speedup is not None else "", verdict, p if p is not None else ""] + \
            ["1" if a and a["timing"] else "", "1" if b and b["timing"] else "",
             b["timing"]["median"] / a["timing"]["median"] if timed else ""] + [""] * 10
        for name, cell, w in zip(COMPARE_HEAD, r, want):
            check(same(cell, w), "compare --csv: %s %s is %r, expected %r" % (key, name, cell, w))


EXPORT_HEAD = ["study", "variant", "step", "label", "role", "backend", "precision", "sweep",
               "point", "status", "reason", "emulated", "median_ms", "min_ms", "max_ms", "mean_ms",
               "stddev_ms", "samples", "metric", "metric_value", "metric_unit", "pct_of_peak",
               "validation_mode", "checked", "max_abs_error", "max_rel_error"]


def check_export(raw, runs):
    rows = parse_csv(raw, "export --csv")
    head = EXPORT_HEAD + ["param_n", "param_note"]
    if not check(rows and rows[0] == head, "export --csv: header %r, expected %r"
                 % (rows[:1], head)):
        return
    check(len(rows) == 1 + len(runs),
          "export --csv: %d data rows, expected %d" % (len(rows) - 1, len(runs)))
    for r, run in zip(rows[1:], runs):
        if not check(len(r) == len(head), "export --csv: a row of %d cells" % len(r)):
            continue
        cell = dict(zip(head, r))
        what = "export --csv: %s %s" % (run["variant"], run["point"])
        t = run["timing"] or {}
        want = {"study": "dtw", "variant": run["variant"], "step": "1", "sweep": run["sweep"],
                "point": run["point"], "status": run["status"], "reason": run["reason"],
                "emulated": run.get("emulated", ""),
                "median_ms": t.get("median", ""), "min_ms": t.get("min", ""),
                "max_ms": t.get("max", ""), "mean_ms": t.get("mean", ""),
                "samples": str(len(t["samples"])) if t else "", "metric": "gcups",
                "metric_value": run["metrics"].get("gcups", ""),
                "metric_unit": run["metrics"].get("unit", ""),
                "pct_of_peak": run["metrics"].get("pct_of_peak", ""),
                "validation_mode": "full", "checked": "10", "max_abs_error": 0.0,
                "max_rel_error": "", "param_n": run["params"]["n"],
                "param_note": run["params"].get("note", "")}
        for name, w in want.items():
            check(same(cell[name], w), "%s: %s is %r, expected %r" % (what, name, cell[name], w))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare_export.py LADDER SCRATCH_ROOT")
    ladder = os.path.abspath(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    a, b = build()
    a["runs"][0]["emulated"] = "DPX instructions are emulated before compute capability 9.0"
    with tempfile.TemporaryDirectory(prefix="compare.", dir=sys.argv[2]) as work:
        fa, fb = os.path.join(work, "a.json"), os.path.join(work, "b.json")
        for path, data in ((fa, a), (fb, b)):
            with open(path, "w") as f:
                json.dump(data, f, indent=1)

        proc = run_ladder([ladder, "compare", fa, fb], work)
        if check(proc.returncode == 0 and not proc.stderr,
                 "compare exited %d: %r" % (proc.returncode, proc.stderr)):
            out = proc.stdout.decode()
            print(out)
            check_table(out)

        proc = run_ladder([ladder, "compare", fa, fb, "--csv"], work)
        if check(proc.returncode == 0 and not proc.stderr,
                 "compare --csv exited %d: %r" % (proc.returncode, proc.stderr)):
            check_compare_csv(proc.stdout)

        # A file against itself: every timed run has too few processes, at 1.00x.
        proc = run_ladder([ladder, "compare", fa, fa, "--csv"], work)
        if check(proc.returncode == 0, "compare A A exited %d" % proc.returncode):
            for r in csv_rows(proc.stdout, "compare A A --csv"):
                if r["a_median_ms"]:
                    want = "INCORRECT (A, B)" if r["a_status"] == "incorrect" else "too few processes"
                    check(r["verdict"] == want and float(r["speedup"]) == 1.0 and float(r["ratio"]) == 1.0,
                          "compare A A: %s is %r at %r" % (r["variant"], r["verdict"], r["speedup"]))

        proc = run_ladder([ladder, "export", "--csv", fa], work)
        if check(proc.returncode == 0 and not proc.stderr,
                 "export --csv exited %d: %r" % (proc.returncode, proc.stderr)):
            check_export(proc.stdout, a["runs"])
            exported = proc.stdout
            out = os.path.join(work, "sub", "a.csv")
            proc = run_ladder([ladder, "export", "--csv", fa, "--out", out], work)
            if check(proc.returncode == 0 and os.path.isfile(out),
                     "export --out exited %d or wrote nothing" % proc.returncode):
                with open(out, "rb") as f:
                    check(f.read() == exported, "export --out wrote other bytes than stdout")
                check(b"csv" not in proc.stderr, "export --out: %r on stderr" % proc.stderr)

        # A results file whose runs lack the optional fields still exports and compares.
        bare = copy.deepcopy(a)
        for r in bare["runs"]:
            for k in ("params", "validation", "metrics", "metric", "step", "status"):
                r.pop(k, None)
            if r.get("timing"):
                r["timing"] = {"median": r["timing"]["median"], "samples": "not a list"}
        fbare = os.path.join(work, "bare.json")
        with open(fbare, "w") as f:
            json.dump(bare, f)
        for cmd in (["export", "--csv", fbare], ["compare", fbare, fa, "--csv"],
                    ["compare", fa, fbare]):
            proc = run_ladder([ladder] + cmd, work)
            check(proc.returncode == 0 and not proc.stderr,
                  "%s exited %d: %r" % (" ".join(cmd[:2]), proc.returncode, proc.stderr))
    finish(problems)


if __name__ == "__main__":
    main()

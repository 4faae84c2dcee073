#!/usr/bin/env python3
"""The process-level measurement contract: `ladder compare`, `ladder export --format gbench
--per-process` and `ladder plan --advise` on K-process results files built here.

    process_compare.py LADDER SCRATCH_ROOT CASE

The files start from a real one-process results file (fixtures/process_compare_base.json: the
first 13 runs of an identical-runs TWED smoke file on an H100, 11 timed). A K-process file
gets a `processes` block and, per timed run, `timing.processes` (each process's samples and
median), `process_medians` and their median, geometric mean, variance components and ICC, as
`ladder run --processes K` writes them; each process's level is drawn around the base run's
median (log-normal, a between-process sd) and its samples around that level (a within sd).
Draws are seeded, so every case is deterministic.

Cases:
- identical: two K = 10 files of the same distributions: no `faster` or `slower`; every timed
  row prints K_A, K_B, B/A with its CI, p, q, MDE80, ICC_A and ICC_B; the CSV's new columns
  are numbers that agree with each other (q is BH of the p-values, B/A the ratio of geometric
  means, the CI symmetric on the log scale around it, A/B its inverse).
- known: one run, five processes a side: p, the CI, q and MDE80 are SciPy's (ttest_ind on the
  logs, Welch).
- shift: B planted 10% slower on even rows and 10% faster on odd ones with small noise:
  `slower`/`faster` as planted, except the 4 us row (0.4 us apart: under the 2 us floor, and
  `same` within +-2 us / 4 us); --min-effect 15 makes them `same`; --q 1e-40 `inconclusive`.
- noisy: 40% process noise, K = 5: `inconclusive (MDE x%)` with a large MDE, never `same`.
- one_process: old one-process (schema 1) files compare: `too few processes` for timed rows,
  K = 1, no p; also a one-process file against a K-process one.
- calibration: one-process files with --calibration DIM (a K = 10 file): z-tests (test z)
  whose p and MDE follow DIM's sd of log process medians, recorded or computed from its
  process medians; a planted 50% slowdown is `slower`, unchanged rows `same`, a row whose
  recorded sd is 20% `inconclusive`, a run DIM lacks `too few processes`; DIM of another config, another GPU or of one process: refused.
- dim_tail: --calibration with a DIM whose step jumps 100x in one process of 30 (in another run
  of that step): one process a side 100x apart is `inconclusive`, noted heavy-tailed, p about
  2/60; the same change in a step without jumps is `slower`.
- drift: both sides' process medians rise with the run order: every row flagged `drift` and
  the warning printed (table: stdout; CSV: stderr).
- heavy_tailed: eight of ten B processes far above A, two among A's: Welch significant, the U
  test not (p 0.014 > q = 0.01): marked heavy-tailed; nine of ten (U's p 0.0022, significant
  too, though 237x Welch's): not marked.
- gbench_per_process: one iteration per process median and aggregates of them; a one-process
  file gives one iteration a run and says so on stderr.
- advise: `plan --advise` (table, --markdown, --json): K, the variance components (checked
  against a one-way ANOVA here), Kalibera & Jones's samples a process at the cost ratio, and
  the processes a side for 5% and 10% (SciPy's numbers for a run with sd 0.142); a
  one-process file is refused.
"""
import copy
import csv
import io
import json
import math
import os
import random
import re
import shutil
import statistics

from clitest import case_args, checker, error_problems, finish, run_ladder, show, run_case

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.path.join(HERE, "fixtures", "process_compare_base.json")
# Readers take schema_version 1 and 2; what makes a file K-process is its `processes` block.
SCHEMA = 1

problems = []
check = checker(problems)


# --- building files ------------------------------------------------------------------------------

def load_base():
    with open(BASE, encoding="utf-8") as f:
        return json.load(f)


def timed(results):
    return [i for i, r in enumerate(results["runs"]) if r.get("timing")]


def median(v):
    return statistics.median(v)


def components(groups):
    """One-way random-effects ANOVA of the logs, as harness/stats.cpp documents it."""
    logs = [[math.log(x) for x in g] for g in groups]
    k = len(logs)
    n = sum(len(g) for g in logs)
    grand = sum(sum(g) for g in logs) / n
    means = [sum(g) / len(g) for g in logs]
    ssw = sum((x - m) ** 2 for g, m in zip(logs, means) for x in g)
    ssb = sum(len(g) * (m - grand) ** 2 for g, m in zip(logs, means))
    msw = ssw / (n - k) if n > k else 0.0
    n0 = (n - sum(len(g) ** 2 for g in logs) / n) / (k - 1)
    between = math.sqrt(max(0.0, (ssb / (k - 1) - msw) / n0))
    icc = between ** 2 / (between ** 2 + msw) if between ** 2 + msw > 0 else 0.0
    process = statistics.stdev([math.log(median(g)) for g in groups])  # the logs of the process medians
    return {"sd_log_within": math.sqrt(msw), "sd_log_between": between, "sd_log_process": process, "icc": icc}


def k_process_file(base, levels, samples=5, within=0.01, seed=1, positions=None, side=None):
    """A K-process file: levels(i, run) gives the K process levels (ms) of timed run i; each
    process's samples are drawn around its level with sd `within` (log scale; a function of i
    where runs differ)."""
    rng = random.Random(seed)
    f = copy.deepcopy(base)
    f["schema_version"] = SCHEMA
    k = None
    for i in timed(f):
        run = f["runs"][i]
        lv = levels(i, run)
        k = len(lv)
        procs = []
        for j, level in enumerate(lv):
            sd = within(i) if callable(within) else within
            s = [level * math.exp(rng.gauss(0, sd)) for _ in range(samples)]
            procs.append({"process": j, "samples": s, "median": median(s)})
        meds = [p["median"] for p in procs]
        flat = [x for p in procs for x in p["samples"]]
        t = {"unit": "ms", "mode": "hot", "warmup": 1, "processes": procs, "process_medians": meds,
             "median": median(meds), "geomean_of_process_medians": math.exp(sum(map(math.log, meds)) / k),
             "samples": flat, "min": min(flat), "max": max(flat), "mean": statistics.fmean(flat),
             "stddev": statistics.stdev(flat)}
        t["cv"] = t["stddev"] / t["mean"]
        t.update(components([p["samples"] for p in procs]))
        run["timing"] = t
    positions = positions or [j + 1 for j in range(k)]
    f["processes"] = {
        "count": k, "mode": "ab" if side else "repeat",
        "binary": {"path": "ladder", "sha256": "0" * 64, "git_commit": "test"},
        "list": [{"index": j, "order_position": positions[j], "pid": 4000 + j,
                  "started_at": "2026-01-01T00:00:00Z", "finished_at": "2026-01-01T00:00:01Z",
                  "cpus_allowed": [0, 1], "cpu_start": 0, "cpu_end": 0, "sm_clock_mhz_start": 1980,
                  "sm_clock_mhz_end": 1980, "gpu_temp_c_start": 40, "load_avg": [0.1, 0.1, 0.1],
                  "exit_status": 0} for j in range(k)]}
    if side:
        f["processes"].update({"side": side, "seed": 7})
    return f


def spread(k, between, rng, factor=1.0):
    """K process levels around 1 (log-normal, sd `between`), times factor."""
    return [factor * math.exp(rng.gauss(0, between)) for _ in range(k)]


def drawn(k, between, seed, factor=lambda i: 1.0):
    rng = random.Random(seed)
    return lambda i, run: [run["timing"]["median"] * x for x in spread(k, between, rng, factor(i))]


def scaled(base, factor=lambda i: 1.0):
    """The base file (one process, schema 1), its timed runs' times scaled by factor(i)."""
    f = copy.deepcopy(base)
    for i in timed(f):
        t = f["runs"][i]["timing"]
        for key in ("median", "min", "max", "mean"):
            if isinstance(t.get(key), (int, float)):
                t[key] *= factor(i)
        t["samples"] = [x * factor(i) for x in t["samples"]]
    return f


def write(work, name, data):
    path = os.path.join(work, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return path


# --- running compare ---------------------------------------------------------------------------

def compare_csv(ladder, work, a, b, extra=(), stderr_empty=True):
    proc = run_ladder([ladder, "compare", a, b, "--csv"] + list(extra), cwd=work)
    if not check(proc.returncode == 0 and (not stderr_empty or not proc.stderr),
                 "compare --csv %s: %s" % (" ".join(extra), show(proc))):
        return None, proc
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode("utf-8"), newline="")))
    return rows, proc


def compare_table(ladder, work, a, b, extra=()):
    proc = run_ladder([ladder, "compare", a, b] + list(extra), cwd=work)
    if not check(proc.returncode == 0, "compare %s: %s" % (" ".join(extra), show(proc))):
        return None
    return proc.stdout.decode("utf-8")


def row_name(r):
    return "%s/%s [%s] %s" % (r["study"], r["variant"], r["sweep"], r["point"])


def timed_rows(rows):
    return [r for r in rows if r["a_median_ms"] and r["b_median_ms"]]


def verdicts(rows):
    return {row_name(r): r["verdict"] for r in rows}


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def close(got, want, rel=1e-9):
    return got is not None and want is not None and abs(got - want) <= rel * max(abs(want), 1e-300)


def bh(p):
    """Benjamini-Hochberg q-values, in order."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    q = [0.0] * len(p)
    running = 1.0
    for rank in range(len(p), 0, -1):
        i = order[rank - 1]
        running = min(running, p[i] * len(p) / rank)
        q[i] = running
    return q


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


NUMERIC = ("speedup", "p_value", "a_processes", "b_processes", "ratio", "ratio_ci_low", "ratio_ci_high",
           "q_value", "mde80", "icc_a", "icc_b")


def check_tested_rows(rows, a, b, what):
    """The new columns of every row tested by Welch: numbers, consistent with each other and
    with the files' process medians."""
    meds = {}
    for f, side in ((a, "a"), (b, "b")):
        for r in f["runs"]:
            if r.get("timing"):
                meds[(side, r["variant"], r["sweep"], r["point"])] = r["timing"]["process_medians"]
    tested = [r for r in rows if r["test"] == "welch"]
    for r in tested:
        name = "%s: %s" % (what, row_name(r))
        bad = [c for c in NUMERIC if number(r[c]) is None]
        if not check(not bad, "%s: columns %s are not numbers: %r" % (name, bad, {c: r[c] for c in bad})):
            continue
        ma = meds[("a", r["variant"], r["sweep"], r["point"])]
        mb = meds[("b", r["variant"], r["sweep"], r["point"])]
        check(int(r["a_processes"]) == len(ma) and int(r["b_processes"]) == len(mb),
              "%s: K %s/%s, files have %d/%d" % (name, r["a_processes"], r["b_processes"], len(ma), len(mb)))
        ratio = geomean(mb) / geomean(ma)
        check(close(float(r["ratio"]), ratio, 1e-12), "%s: ratio %s, want %r" % (name, r["ratio"], ratio))
        check(close(float(r["speedup"]), 1 / ratio, 1e-12), "%s: speedup %s, want %r" % (name, r["speedup"], 1 / ratio))
        lo, hi = float(r["ratio_ci_low"]), float(r["ratio_ci_high"])
        check(lo < ratio < hi and close(math.log(hi / ratio), math.log(ratio / lo), 1e-6),
              "%s: CI [%r, %r] is not symmetric (log) around %r" % (name, lo, hi, ratio))
        check(0 <= float(r["p_value"]) <= float(r["q_value"]) <= 1, "%s: p %s, q %s" % (name, r["p_value"], r["q_value"]))
        check(float(r["mde80"]) > 0 and 0 <= float(r["icc_a"]) <= 1 and 0 <= float(r["icc_b"]) <= 1,
              "%s: mde80 %s, icc %s %s" % (name, r["mde80"], r["icc_a"], r["icc_b"]))
        if len(ma) >= 8 and len(mb) >= 8:
            check(number(r["u_p_value"]) is not None and r["heavy_tailed"] in ("0", "1"),
                  "%s: no U p with K >= 8: %r" % (name, r["u_p_value"]))
        if r["verdict"].startswith("inconclusive"):
            want = "inconclusive (MDE %s)" % pct(float(r["mde80"]))
            check(r["verdict"] == want, "%s: verdict %r, want %r" % (name, r["verdict"], want))
    p = [float(r["p_value"]) for r in tested]
    for r, q in zip(tested, bh(p)):
        check(close(float(r["q_value"]), q, 1e-9), "%s: q %s, BH gives %r" % (row_name(r), r["q_value"], q))
    return tested


def pct(fraction):
    x = 100 * fraction
    return "%.1f%%" % x if abs(x) < 10 else "%.0f%%" % x


def table_rows(out):
    return {line.split(" ")[0] + " " + line.split(" ")[1] + " " + line.split(" ")[2]: line
            for line in out.splitlines() if line.startswith("twed/")}


# --- cases -------------------------------------------------------------------------------------------

def identical(ladder, work):
    base = load_base()
    a = k_process_file(base, drawn(10, 0.01, 11), seed=1)
    b = k_process_file(base, drawn(10, 0.01, 12), seed=2)
    pa, pb = write(work, "a.json", a), write(work, "b.json", b)
    rows, _ = compare_csv(ladder, work, pa, pb)
    if rows is None:
        return
    head = rows[0].keys() if rows else []
    for c in ("a_processes", "b_processes", "ratio", "ratio_ci_low", "ratio_ci_high", "p_value", "q_value", "mde80",
              "icc_a", "icc_b", "drift", "speedup", "verdict"):
        check(c in head, "compare --csv has no column %s" % c)
    t = timed_rows(rows)
    check(len(t) == 11, "%d timed rows, want 11" % len(t))
    for r in t:
        check(r["verdict"] not in ("faster", "slower"), "identical: %s is %r" % (row_name(r), r["verdict"]))
        check(r["verdict"] == "same" or r["verdict"].startswith("inconclusive (MDE "),
              "identical: %s is %r" % (row_name(r), r["verdict"]))
        # same only where a 3% change would have been seen, whatever the 2 us margin allows.
        if r["verdict"] == "same":
            check(float(r["mde80"]) <= 0.03 * (1 + 1e-9),
                  "identical: %s is same with MDE80 %s over 3%%" % (row_name(r), r["mde80"]))
        elif float(r["mde80"]) <= 0.03 and abs(math.log(float(r["ratio"]))) < 1e-3:
            check(False, "identical: %s (MDE80 %s, ratio 1) is %r, want same" % (row_name(r), r["mde80"], r["verdict"]))
    tested = check_tested_rows(rows, a, b, "identical")
    check(len(tested) == 11, "identical: %d rows tested by Welch, want 11" % len(tested))
    # Unsupported runs: no verdict, no test.
    for r in rows:
        if not r["a_median_ms"]:
            check(r["verdict"] == "" and r["test"] == "" and r["p_value"] == "",
                  "identical: untimed %s has %r" % (row_name(r), r))
    out = compare_table(ladder, work, pa, pb)
    if out is None:
        return
    print(out)
    for key, line in table_rows(out).items():
        if "unsupported" in line:
            continue
        cells = line.split()
        check(cells.count("10") >= 2, "table: %s lacks K_A and K_B of 10: %r" % (key, line))
        check(re.search(r"\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", line), "table: %s lacks B/A [CI]: %r" % (key, line))
        check(re.search(r"\d%", line), "table: %s lacks MDE80: %r" % (key, line))
        check(re.fullmatch(r"\d+\.\d\dx", cells[-1]), "table: %s does not end with A/B: %r" % (key, line))
        check(len(re.findall(r" 0\.\d\d ", line)) >= 2 or " 1.00 " in line, "table: %s lacks ICCs: %r" % (key, line))
    head = out.splitlines()[0].split()
    for c in ("K_A", "K_B", "ICC_A", "ICC_B", "B/A", "p", "q", "MDE80", "verdict", "A/B"):
        check(c in head, "table header lacks %s: %r" % (c, head))
    check(head[-1] == "A/B", "table: A/B is not the last column")
    legend = out[out.index("\nA/B:"):] if "\nA/B:" in out else ""
    for word in ("slower", "faster", "same", "inconclusive", "too few processes", "--q 0.01", "--min-effect 3%",
                 "--calibration none", "Benjamini-Hochberg", "MDE80"):
        check(word in legend, "compare: the legend lacks %r" % word)
    check("warning" not in out, "identical: a drift warning: %r" % out[-400:])


KNOWN_A = [1.00, 1.02, 0.98, 1.01, 0.99]
KNOWN_B = [1.05, 1.07, 1.04, 1.06, 1.08]


def known(ladder, work):
    base = load_base()
    base["runs"] = [base["runs"][3]]
    a = k_process_file(base, lambda i, run: KNOWN_A, samples=1, within=0)
    b = k_process_file(base, lambda i, run: KNOWN_B, samples=1, within=0)
    rows, _ = compare_csv(ladder, work, write(work, "a.json", a), write(work, "b.json", b))
    if rows is None or not check(len(rows) == 1, "known: %d rows" % len(rows)):
        return
    r = rows[0]
    # scipy.stats.ttest_ind(log B, log A, equal_var=False): pvalue, and the exp of its
    # confidence_interval(0.95); MDE80 = expm1((t.ppf(0.975, df) + t.ppf(0.8, df)) * se).
    want = {"p_value": 0.00032974609075616995, "q_value": 0.00032974609075616995,
            "ratio_ci_low": 1.0364972460566988, "ratio_ci_high": 1.0840595404303042,
            "ratio": 1.060011664189362, "mde80": 0.031564528782640246}
    for c, w in want.items():
        check(close(number(r[c]), w, 1e-8), "known: %s is %s, SciPy's %r" % (c, r[c], w))
    check(r["verdict"] == "slower" and r["test"] == "welch", "known: verdict %r test %r" % (r["verdict"], r["test"]))
    check(r["u_p_value"] == "" and r["heavy_tailed"] == "", "known: a U test with 5 processes: %r" % r["u_p_value"])
    check(r["a_processes"] == "5" and r["icc_a"] == "", "known: K %s, ICC %r (one sample a process)" %
          (r["a_processes"], r["icc_a"]))


def shift(ladder, work):
    base = load_base()
    idx = timed(base)
    factor = {i: (1.10 if n % 2 == 0 else 1 / 1.10) for n, i in enumerate(idx)}
    a = k_process_file(base, drawn(10, 0.005, 21), within=0.005, seed=3)
    b = k_process_file(base, drawn(10, 0.005, 22, lambda i: factor[i]), within=0.005, seed=4)
    pa, pb = write(work, "a.json", a), write(work, "b.json", b)
    rows, _ = compare_csv(ladder, work, pa, pb)
    if rows is None:
        return
    check_tested_rows(rows, a, b, "shift")
    by_name = {row_name(r): r for r in timed_rows(rows)}
    for n, i in enumerate(idx):
        run = base["runs"][i]
        r = by_name["%s/%s [%s] %s" % (run["study"], run["variant"], run["sweep"], run["point"])]
        if run["timing"]["median"] * 0.1 < 0.002:
            # 10% of 4 us is 0.4 us: under the 2 us floor; and same within +-2 us / 4 us.
            check(r["verdict"] == "same", "shift: the 4 us row %s is %r, want same" % (row_name(r), r["verdict"]))
            continue
        want = "slower" if factor[i] > 1 else "faster"
        check(r["verdict"] == want, "shift: %s is %r, want %s" % (row_name(r), r["verdict"], want))
    rows, _ = compare_csv(ladder, work, pa, pb, ["--min-effect", "15"])
    for r in timed_rows(rows or []):
        check(r["verdict"] == "same", "shift --min-effect 15: %s is %r, want same" % (row_name(r), r["verdict"]))
    rows, _ = compare_csv(ladder, work, pa, pb, ["--q", "1e-40"])
    for r in timed_rows(rows or []):
        check(r["verdict"] == "same" or r["verdict"].startswith("inconclusive"),
              "shift --q 1e-40: %s is %r" % (row_name(r), r["verdict"]))
    out = compare_table(ladder, work, pa, pb, ["--q", "0.05", "--min-effect=5%"])
    if out is not None:
        check("--q 0.05, --min-effect 5%" in out, "compare: the options used are not printed: %r" % out[-600:])


def noisy(ladder, work):
    base = load_base()
    a = k_process_file(base, drawn(5, 0.4, 31), seed=5)
    b = k_process_file(base, drawn(5, 0.4, 32), seed=6)
    pa, pb = write(work, "a.json", a), write(work, "b.json", b)
    rows, _ = compare_csv(ladder, work, pa, pb)
    if rows is None:
        return
    check_tested_rows(rows, a, b, "noisy")
    for r in timed_rows(rows):
        check(r["verdict"] != "same", "noisy: %s is same" % row_name(r))
        if float(r["a_median_ms"]) < 0.02:
            continue  # +-2 us is a wide margin for a 4 us run
        check(r["verdict"].startswith("inconclusive (MDE ") and float(r["mde80"]) > 0.3,
              "noisy: %s is %r with MDE80 %s" % (row_name(r), r["verdict"], r["mde80"]))
    out = compare_table(ladder, work, pa, pb)
    if out is not None:
        check(out.count("inconclusive (MDE ") >= 9, "noisy: the table does not print the MDE in the verdicts")


def one_process(ladder, work):
    base = load_base()
    pa = write(work, "a.json", base)
    pb = write(work, "b.json", scaled(base, lambda i: 1.2))
    pk = write(work, "k.json", k_process_file(base, drawn(10, 0.01, 41)))
    for other, k_b in ((pb, "1"), (pk, "10")):
        rows, _ = compare_csv(ladder, work, pa, other)
        if rows is None:
            continue
        for r in timed_rows(rows):
            what = "one-process vs %s: %s" % (os.path.basename(other), row_name(r))
            check(r["verdict"] == "too few processes", "%s is %r" % (what, r["verdict"]))
            check(r["a_processes"] == "1" and r["b_processes"] == k_b,
                  "%s: K %s/%s" % (what, r["a_processes"], r["b_processes"]))
            check(r["p_value"] == "" and r["q_value"] == "" and r["mde80"] == "" and r["test"] == "",
                  "%s: a test without processes: %r" % (what, r))
            check(number(r["ratio"]) is not None, "%s: no ratio" % what)
            if other == pb:
                check(close(float(r["ratio"]), 1.2, 1e-12) and close(float(r["speedup"]), 1 / 1.2, 1e-12),
                      "%s: ratio %s speedup %s" % (what, r["ratio"], r["speedup"]))
    out = compare_table(ladder, work, pa, pb)
    if out is not None:
        rows = [l for l in out.splitlines() if l.startswith("twed/") and "unsupported" not in l]
        check(len(rows) == 11 and all("too few processes" in l and l.endswith("0.83x") for l in rows),
              "one-process table rows: %r" % rows)


def calibration(ladder, work):
    base = load_base()
    idx = timed(base)
    planted = idx[3]
    lacking = idx[-1]
    noisy = idx[5]
    # Quiet processes (sd of log medians about 0.5%): one process a side then shows +-3%.
    dim = k_process_file(base, drawn(10, 0.004, 51), within=0.004, seed=7)
    dim_without = copy.deepcopy(dim)
    dim_without["runs"] = [r for n, r in enumerate(dim["runs"]) if n != lacking]
    bare = copy.deepcopy(dim_without)
    dim_without["runs"][noisy]["timing"]["sd_log_process"] = 0.2  # as recorded: what compare takes
    sd = {n: r["timing"]["sd_log_process"] for n, r in enumerate(dim["runs"]) if r.get("timing")}
    sd[noisy] = 0.2
    pd = write(work, "dim.json", dim_without)
    pa = write(work, "a.json", base)
    pb = write(work, "b.json", scaled(base, lambda i: 1.5 if i == planted else 1.0))
    rows, _ = compare_csv(ladder, work, pa, pb, ["--calibration", pd])
    if rows is None:
        return
    z975, z80 = statistics.NormalDist().inv_cdf(0.975), statistics.NormalDist().inv_cdf(0.8)
    by_name = {row_name(r): r for r in timed_rows(rows)}
    for i in idx:
        run = base["runs"][i]
        r = by_name["%s/%s [%s] %s" % (run["study"], run["variant"], run["sweep"], run["point"])]
        what = "calibration: %s" % row_name(r)
        if i == lacking:
            # Not in DIM: the sd of its variant's run there nearest in time, or no test without any.
            kin = [(abs(math.log(statistics.median(dim["runs"][n]["timing"]["process_medians"]) / run["timing"]["median"])),
                    sd[n]) for n in idx if n != lacking and base["runs"][n]["variant"] == run["variant"]]
            if not kin:
                check(r["verdict"] == "too few processes" and r["test"] == "",
                      "%s (variant not in DIM) is %r" % (what, r["verdict"]))
                continue
            if not check(r["test"] == "z by variant", "%s: test %r, want z by variant" % (what, r["test"])):
                continue
            se = min(kin)[1] * math.sqrt(2)
            check(close(float(r["mde80"]), math.expm1((z975 + z80) * se), 1e-9), "%s: mde80 %s" % (what, r["mde80"]))
            continue
        if not check(r["test"] == "z", "%s: test %r, want z" % (what, r["test"])):
            continue
        se = sd[i] * math.sqrt(2)
        diff = math.log(1.5) if i == planted else 0.0
        p = math.erfc(abs(diff) / se / math.sqrt(2))
        check(close(float(r["p_value"]), p, 1e-9), "%s: p %s, want %r" % (what, r["p_value"], p))
        check(close(float(r["mde80"]), math.expm1((z975 + z80) * se), 1e-9), "%s: mde80 %s" % (what, r["mde80"]))
        want = "slower" if i == planted else "inconclusive (MDE %s)" % pct(float(r["mde80"])) if i == noisy else "same"
        check(r["verdict"] == want, "%s is %r, want %s" % (what, r["verdict"], want))
    # Without sd_log_process DIM's process medians give the same sd.
    for r in bare["runs"]:
        if r.get("timing"):
            del r["timing"]["sd_log_process"]
    rows2, _ = compare_csv(ladder, work, pa, pb, ["--calibration", write(work, "bare.json", bare)])
    if rows2 is not None:
        for r, r2 in zip(rows, rows2):
            if r["variant"] == base["runs"][noisy]["variant"] and r["point"] == base["runs"][noisy]["point"]:
                continue  # its recorded sd is not its medians'
            check(r["verdict"] == r2["verdict"] and close(number(r["p_value"]), number(r2["p_value"]), 1e-9)
                  if r["p_value"] else r2["p_value"] == "",
                  "calibration from process medians: %s %r vs %r" % (row_name(r), r2["p_value"], r["p_value"]))
    # A variant DIM lacks entirely: no sd to lend, too few processes.
    gone = base["runs"][lacking]["variant"]
    dim_novariant = copy.deepcopy(dim)
    dim_novariant["runs"] = [r for r in dim["runs"] if r.get("variant") != gone]
    rows4, _ = compare_csv(ladder, work, pa, pb, ["--calibration", write(work, "novariant.json", dim_novariant)])
    for r in timed_rows(rows4 or []):
        if r["variant"] == gone:
            check(r["verdict"] == "too few processes" and r["test"] == "",
                  "calibration without variant %s: %s is %r" % (gone, row_name(r), r["verdict"]))
    # Files of K >= 5 keep Welch with --calibration.
    pk = write(work, "k.json", k_process_file(base, drawn(10, 0.01, 52)))
    pk2 = write(work, "k2.json", k_process_file(base, drawn(10, 0.01, 53), seed=2))
    rows3, _ = compare_csv(ladder, work, pk, pk2, ["--calibration", pd], stderr_empty=False)
    for r in timed_rows(rows3 or []):
        check(r["test"] == "welch", "calibration with K = 10: %s tested by %r" % (row_name(r), r["test"]))
    out = compare_table(ladder, work, pa, pb, ["--calibration", pd])
    if out is not None:
        check("--calibration " + pd in out, "compare: the calibration file is not printed")
    # Refused: another config, another GPU model, a one-process DIM.
    for name, change, match in (("study.json", lambda d: d["config"].update(study="dtw"), "study"),
                                ("gpu.json", lambda d: d["device"].update(name="NVIDIA H200"), "H200"),
                                ("one.json", None, "--processes")):
        bad = copy.deepcopy(dim) if change else copy.deepcopy(base)
        if change:
            change(bad)
        proc = run_ladder([ladder, "compare", pa, pb, "--calibration", write(work, name, bad)], cwd=work)
        for p in error_problems(proc, match_any=(match,)):
            problems.append("compare --calibration %s: %s" % (name, p))


def dim_tail(ladder, work):
    """A step whose processes in DIM now and then jump 100x (one of 30 in another run of the
    step, as an OpenMP call waiting milliseconds for a thread does): one process a side 100x
    apart is no verdict with --calibration, however quiet the row's own run was in DIM, and
    the row is noted heavy-tailed; the same change in a step without jumps is `slower`."""
    base = load_base()
    idx = timed(base)
    jumpy, steady = idx[2], idx[5]
    with_copy = copy.deepcopy(base)
    twin = copy.deepcopy(base["runs"][jumpy])
    twin["point"] = twin["point"] + ",twin=1"
    with_copy["runs"].append(twin)
    twin_index = len(with_copy["runs"]) - 1
    rng = random.Random(71)

    def levels(i, run):
        v = [run["timing"]["median"] * x for x in spread(30, 0.01, rng)]
        if i == twin_index:
            v[7] *= 100
        return v

    pd = write(work, "dim.json", k_process_file(with_copy, levels, seed=9))
    pa = write(work, "a.json", base)
    pb = write(work, "b.json", scaled(base, lambda i: 100.0 if i in (jumpy, steady) else 1.0))
    rows, _ = compare_csv(ladder, work, pa, pb, ["--calibration", pd])
    if rows is None:
        return
    for r in timed_rows(rows):
        name = row_name(r)
        if r["variant"] == base["runs"][jumpy]["variant"]:
            check(r["verdict"].startswith("inconclusive (MDE "), "dim_tail: %s is %r, want inconclusive" % (name, r["verdict"]))
            check(r["heavy_tailed"] == "1", "dim_tail: %s is not noted heavy-tailed: %r" % (name, r["heavy_tailed"]))
            # About one of the two drawn processes a side being the jump: 2/60 of draws.
            check(0.015 < float(r["p_value"]) < 0.06, "dim_tail: %s has p %s" % (name, r["p_value"]))
        elif r["variant"] == base["runs"][steady]["variant"]:
            check(r["verdict"] == "slower", "dim_tail: %s is %r, want slower" % (name, r["verdict"]))
            check(r["heavy_tailed"] == "0", "dim_tail: %s is noted heavy-tailed" % name)


def rounds_note(ladder, work):
    """Sides sampled in different rounds (`run --rounds`) are noted on every timed row; equal
    rounds are not."""
    base = load_base()
    a = k_process_file(base, drawn(10, 0.01, 61), seed=1)
    b = k_process_file(base, drawn(10, 0.01, 62), seed=2)
    for i in timed(b):
        b["runs"][i]["timing"]["rounds"] = 5
    pa, pb = write(work, "a.json", a), write(work, "b.json", b)
    out = compare_table(ladder, work, pa, pb)
    if out is None:
        return
    rows = [l for l in out.splitlines() if " 10 " in l]
    check(len(rows) == len(timed(a)), "rounds: %d timed rows in the table, want %d" % (len(rows), len(timed(a))))
    for l in rows:
        check("rounds 1 vs 5" in l, "rounds: a row lacks the note: %r" % l)
    for i in timed(a):
        a["runs"][i]["timing"]["rounds"] = 5
    out = compare_table(ladder, work, write(work, "a5.json", a), pb)
    if out is not None:
        check("rounds 5 vs 5" not in out and "rounds 1 vs" not in out, "rounds: equal rounds noted: %r" % out[:400])


def drift(ladder, work):
    base = load_base()
    rising = lambda seed: (lambda i, run: [run["timing"]["median"] * math.exp(0.03 * j + random.Random(seed + j).gauss(0, 0.002))
                                           for j in range(10)])
    # A and B interleaved (ABAB...): A's processes at odd places, B's at even ones.
    a = k_process_file(base, rising(100), seed=8, positions=[2 * j + 1 for j in range(10)], side="A")
    b = k_process_file(base, rising(200), seed=9, positions=[2 * j + 2 for j in range(10)], side="B")
    pa, pb = write(work, "a.json", a), write(work, "b.json", b)
    rows, proc = compare_csv(ladder, work, pa, pb, stderr_empty=False)
    if rows is None:
        return
    for r in timed_rows(rows):
        check(r["drift"] == "1", "drift: %s has drift %r" % (row_name(r), r["drift"]))
    check(b"ladder: warning:" in proc.stderr and b"drift" in proc.stderr,
          "drift: compare --csv warned of nothing on stderr: %r" % proc.stderr)
    out = compare_table(ladder, work, pa, pb)
    if out is not None:
        check(re.search(r"warning: 11 of 11 rows", out), "drift: the table's warning is missing: %r" % out[-500:])
        check(all("drift" in l for l in out.splitlines() if l.startswith("twed/") and "unsupported" not in l),
              "drift: rows not marked drift in the table")
    # Without order positions nothing can be checked.
    for f in (a, b):
        for p in f["processes"]["list"]:
            del p["order_position"]
    rows, _ = compare_csv(ladder, work, write(work, "a2.json", a), write(work, "b2.json", b))
    for r in timed_rows(rows or []):
        check(r["drift"] == "", "drift without order: %s has drift %r" % (row_name(r), r["drift"]))


def heavy_tailed(ladder, work):
    base = load_base()
    base["runs"] = [base["runs"][3]]
    a_levels = [1.0 + 0.001 * j for j in range(10)]
    random.Random(1).shuffle(a_levels)
    for far, flagged in ((8, "1"), (9, "0")):
        b_levels = [1.0005 + 0.001 * j for j in range(10 - far)] + [1.5 + 0.001 * j for j in range(far)]
        random.Random(far).shuffle(b_levels)  # no trend with the run order (no drift)
        a = k_process_file(base, lambda i, run: a_levels, samples=1, within=0)
        b = k_process_file(base, lambda i, run: b_levels, samples=1, within=0)
        rows, _ = compare_csv(ladder, work, write(work, "a.json", a), write(work, "b.json", b))
        if not rows:
            continue
        r = rows[0]
        # SciPy: Welch p 2.19e-4 and U p 0.0140 (8 far); 9.30e-6 and 0.00220 (9 far).
        check(r["verdict"] == "slower" and r["heavy_tailed"] == flagged,
              "heavy_tailed, %d far: verdict %r, heavy_tailed %r (Welch p %s, U p %s)"
              % (far, r["verdict"], r["heavy_tailed"], r["p_value"], r["u_p_value"]))
        out = compare_table(ladder, work, os.path.join(work, "a.json"), os.path.join(work, "b.json"))
        if out is not None:
            check(("heavy-tailed" in out.splitlines()[1]) == (flagged == "1"),
                  "heavy_tailed, %d far: table row %r" % (far, out.splitlines()[1]))


def gbench_per_process(ladder, work):
    base = load_base()
    a = k_process_file(base, drawn(6, 0.02, 61))
    pa = write(work, "a.json", a)
    proc = run_ladder([ladder, "export", pa, "--format", "gbench", "--per-process"], cwd=work)
    if check(proc.returncode == 0 and not proc.stderr, "export --per-process: %s" % show(proc)):
        benches = json.loads(proc.stdout)["benchmarks"]
        for r in a["runs"]:
            if not r.get("timing"):
                continue
            name = "%s/%s/%s/%s" % (r["study"], r["variant"], r["sweep"], r["point"])
            its = [b for b in benches if b["name"] == name and b["run_type"] == "iteration"]
            meds = r["timing"]["process_medians"]
            check([b["real_time"] for b in its] == meds and all(b["repetitions"] == 6 for b in its),
                  "export --per-process: %s iterations %r, want %r" % (name, [b["real_time"] for b in its], meds))
            aggs = {b["aggregate_name"]: b["real_time"] for b in benches
                    if b["run_type"] == "aggregate" and b["run_name"] == name}
            want = {"mean": statistics.fmean(meds), "median": statistics.median(meds),
                    "stddev": statistics.stdev(meds)}
            want["cv"] = want["stddev"] / want["mean"]
            for k, w in want.items():
                check(close(aggs.get(k), w, 1e-12), "export --per-process: %s_%s %r, want %r" % (name, k, aggs.get(k), w))
    # By sample (no flag): every sample an iteration, as before.
    proc = run_ladder([ladder, "export", pa, "--format", "gbench"], cwd=work)
    if check(proc.returncode == 0, "export --format gbench: %s" % show(proc)):
        its = [b for b in json.loads(proc.stdout)["benchmarks"] if b["run_type"] == "iteration"]
        check(len(its) == 11 * 6 * 5, "export by sample: %d iterations, want %d" % (len(its), 11 * 6 * 5))
    # A one-process file: one iteration a run, said on stderr.
    proc = run_ladder([ladder, "export", write(work, "one.json", base), "--format", "gbench", "--per-process"], cwd=work)
    if check(proc.returncode == 0, "export --per-process of a one-process file: %s" % show(proc)):
        its = [b for b in json.loads(proc.stdout)["benchmarks"] if b["run_type"] == "iteration"]
        check(len(its) == 11 and all("ladder_note" in b for b in its), "one-process --per-process: %d iterations" % len(its))
        check(b"one-process" in proc.stderr and proc.stderr.count(b"\n") == 1,
              "one-process --per-process: stderr %r" % proc.stderr)


def advise(ladder, work):
    base = load_base()
    idx = timed(base)
    exact = idx[4]
    d = 0.142 / math.sqrt(10 / 9)  # ten logs at +-d: sample sd 0.142

    def levels(i, run):
        m = run["timing"]["median"]
        if i == exact:
            return [m * math.exp(d if j % 2 else -d) for j in range(10)]
        return [m * x for x in spread(10, 0.005 * (1 + idx.index(i)), random.Random(i))]
    # The exact run's samples are its levels (no spread within), so its process medians are too.
    a = k_process_file(base, levels, samples=6, within=lambda i: 0.0 if i == exact else 0.02, seed=10)
    pa = write(work, "a.json", a)
    for ratio in (None, "50"):
        extra = ["--cost-ratio", ratio] if ratio else []
        proc = run_ladder([ladder, "plan", "--advise", pa, "--json"] + extra, cwd=work)
        if not check(proc.returncode == 0 and not proc.stderr, "plan --advise --json: %s" % show(proc)):
            continue
        got = json.loads(proc.stdout)
        c = float(ratio or 200)
        check(got["cost_ratio"] == c and got["processes"] == 10, "plan --advise: %r" % {k: got[k] for k in got if k != "runs"})
        check(len(got["runs"]) == 11, "plan --advise: %d runs, want 11" % len(got["runs"]))
        by_point = {(r["variant"], r["point"]): r for r in got["runs"]}
        for i in idx:
            run = a["runs"][i]
            r = by_point[(run["variant"], run["point"])]
            what = "plan --advise: %s" % run["variant"]
            comp = components([p["samples"] for p in run["timing"]["processes"]])
            for k in ("sd_log_within", "sd_log_between", "sd_log_process", "icc"):
                check(close(r[k], comp[k], 1e-9), "%s: %s %r, want %r" % (what, k, r[k], comp[k]))
            check(r["processes"] == 10 and close(r["median_ms"], run["timing"]["median"], 1e-12), "%s: %r" % (what, r))
            w, b = comp["sd_log_within"], comp["sd_log_between"]
            want_n = None if b == 0 else max(1, math.ceil(math.sqrt(c) * w / b))
            check(r["samples_per_process"] == want_n, "%s: samples a process %r, want %r" % (what, r["samples_per_process"], want_n))
            z = statistics.NormalDist().inv_cdf(0.975) + statistics.NormalDist().inv_cdf(0.8)
            for key, e in (("processes_for_5pct", 0.05), ("processes_for_10pct", 0.10)):
                low = max(2, math.ceil(2 * z * z * comp["sd_log_process"] ** 2 / math.log1p(e) ** 2))
                check(r[key] is not None and low <= r[key] <= low + 3, "%s: %s %r (normal bound %d)" % (what, key, r[key], low))
            check(r["processes_for_10pct"] <= r["processes_for_5pct"], "%s: 10%% needs more than 5%%" % what)
            if i == exact:
                # The least K with (t.ppf(0.975, 2K-2) + t.ppf(0.8, 2K-2)) * 0.142 * sqrt(2/K) <= log1p(e), by SciPy.
                check(r["processes_for_5pct"] == 134 and r["processes_for_10pct"] == 36,
                      "%s: K for 5%%/10%% %r/%r, want 134/36" % (what, r["processes_for_5pct"], r["processes_for_10pct"]))
    proc = run_ladder([ladder, "plan", "--advise", pa, "--markdown"], cwd=work)
    if check(proc.returncode == 0, "plan --advise --markdown: %s" % show(proc)):
        lines = proc.stdout.decode().splitlines()
        check(lines[0].startswith("| study/variant") and re.fullmatch(r"\|---\|(---:\|)+", lines[1]) and
              sum(l.startswith("| twed/") for l in lines) == 11, "plan --advise --markdown: %r" % lines[:3])
    proc = run_ladder([ladder, "plan", "--advise", pa], cwd=work)
    if check(proc.returncode == 0, "plan --advise: %s" % show(proc)):
        out = proc.stdout.decode()
        check("samples/process" in out and "K for 5%" in out and "c = 200" in out, "plan --advise table: %r" % out[:400])
    proc = run_ladder([ladder, "plan", "--advise", write(work, "one.json", base)], cwd=work)
    for p in error_problems(proc, match_any=("--processes",)):
        problems.append("plan --advise of a one-process file: %s" % p)


CASES = {f.__name__: f for f in (identical, known, shift, noisy, one_process, calibration, dim_tail, drift, heavy_tailed,
                                  rounds_note,
                                 gbench_per_process, advise)}


def main():
    run_case("process_compare.py", "pc-", CASES, problems)


if __name__ == "__main__":
    main()

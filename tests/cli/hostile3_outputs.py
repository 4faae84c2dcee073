#!/usr/bin/env python3
"""Third hostile set, outputs: compare, export, profile and what reaches the terminal.

    hostile3_outputs.py LADDER SCRATCH_ROOT CASE

- compare_many_samples: two results files of one run each with 100,000 samples a side (as
  `--repetitions 100000` writes them): compare, as a table and as CSV, answers within seconds
  (one process a side: `too few processes`); the same 100,000 samples as ten processes of
  10,000 a side (timing.processes, as `run --processes 10` writes them): within seconds too,
  with Welch's p and both ICCs (the variance components of all the samples).
- compare_known_p: runs whose process medians (one sample a process) have two-sided
  Mann-Whitney p-values SciPy's mannwhitneyu gave (exact for small samples without ties, else
  the normal approximation with the tie and continuity corrections) and Welch p-values of
  their logs SciPy's ttest_ind gave: compare --csv reports Welch's with 5 processes a side or
  more and the U test's with 8 or more, and neither below.
- compare_csv_repeated_point: a sweep listing point "p" twice beside a real point "p #2", in
  either order: compare --csv gives three distinct rows, none merged or dropped, each with its
  occurrence and both files' medians.
- gbench_sample_not_number: a sample "x" (or true) in a run: export --format gbench refuses
  with one line naming the run, exit 2, and no --out file.
- gbench_median_only: a run with a median but no samples is exported as one iteration holding
  its median, marked, and stderr says so (exit 0); runs with samples are unchanged.
- gbench_names_collide: point "p" listed twice beside a point literally named "p#2" (in both
  orders), and a point "p_median" beside a repeated "p": every run's entries have names of
  their own, so compare.py's grouping by name gives each run exactly its own samples.
- profile_no_report: an ncu that writes no report (tests/cli/fake_ncu.py, FAKE_NCU_NO_REPORT):
  `profile --into` exits 1 with one stderr line, and every folder it names (on stderr and in
  the runs' reasons) exists.
- terminal_names: a config whose name, sweep label, data file and b_file (so its point names)
  hold ESC, BEL and U+202E, and an ingest handover whose variant, label and reasons do: plan,
  run, run --shard and merge, ingest, compare, export and reproduce print none of those bytes
  on stdout or stderr, while the results files keep the names as they are.
"""
import csv
import io
import json
import os
import re
import shutil
import sys
import time

from clitest import case_args, checker, error_problems, finish, run_ladder, show, run_case

HERE = os.path.dirname(os.path.abspath(__file__))
from profile_fake_ncu import as_on_a_gpu, fake_ncu  # noqa: E402

PROJECT = os.path.dirname(os.path.dirname(HERE))
BAD = "\x1b[31m\x07\u202e"   # recolours, rings and reverses what a terminal shows
BAD_BYTES = (b"\x1b", b"\x07", "\u202e".encode())

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


# --- compare: many samples (cause 5), known p-values --------------------------------------------

def close(got, want, rel=1e-9):
    return got is not None and abs(got - want) <= rel * abs(want)


def as_processes(run, groups):
    """The run's timing as ten processes: timing.processes with each group's samples and
    median, and timing.process_medians."""
    t = run["timing"]
    t["processes"] = [{"process": j, "samples": g, "median": sorted(g)[len(g) // 2]} for j, g in enumerate(groups)]
    t["process_medians"] = [p["median"] for p in t["processes"]]
    return run


def compare_many_samples(ladder, work):
    n = 100000
    a = [1.0 + (i % 997) * 1e-4 for i in range(n)]
    b = [1.0 + (i % 1009) * 1e-4 for i in range(n)]
    pa, pb = os.path.join(work, "a.json"), os.path.join(work, "b.json")
    for by_process in (False, True):
        ra, rb = run_entry("n=128", a), run_entry("n=128", b)
        if by_process:
            as_processes(ra, [a[j::10] for j in range(10)])
            as_processes(rb, [[x * (1 + 0.001 * j) for x in b[j::10]] for j in range(10)])
        write_results(pa, [ra])
        write_results(pb, [rb])
        for extra in ([], ["--csv"]):
            t0 = time.monotonic()
            proc = run_ladder([ladder, "compare", pa, pb] + extra, cwd=work, timeout=120)
            took = time.monotonic() - t0
            what = "compare %s%s" % (" ".join(extra) or "(table)", " by process" if by_process else "")
            print("%s: %.2f s" % (what, took))
            if not check(proc.returncode == 0, "%s: %s" % (what, show(proc))):
                continue
            check(took < 10, "%s of 100,000 samples a side took %.1f s" % (what, took))
            if not extra:
                continue
            rows = csv_rows(proc)
            if not check(len(rows) == 1, "%s: %d rows" % (what, len(rows))):
                continue
            r = rows[0]
            if by_process:
                ok = all(r[c] and 0 <= float(r[c]) <= 1 for c in ("p_value", "icc_a", "icc_b"))
                check(ok and r["a_processes"] == "10", "%s: p %r, ICC %r %r, K %r" % (
                    what, r["p_value"], r["icc_a"], r["icc_b"], r["a_processes"]))
            else:
                check(r["verdict"] == "too few processes" and r["p_value"] == "",
                      "%s: verdict %r, p %r" % (what, r["verdict"], r["p_value"]))


# (A's process medians, B's, SciPy's two-sided mannwhitneyu p-value with method 'auto', and
# scipy.stats.ttest_ind(log B, log A, equal_var=False).pvalue)
KNOWN_P = {
    "ties": ([1, 2, 2, 3, 3, 3, 4, 4, 5, 5], [3, 4, 4, 5, 5, 5, 6, 6, 7, 7], 0.007154053613678814,
             0.008173267047241743),
    "ties_small": ([1.0, 2.0, 2.0, 3.0, 4.0], [2.0, 3.0, 3.0, 5.0, 6.0], 0.19882894401644247, 0.15318773324449975),
    "exact_6_9": ([1.1, 2.3, 3.5, 0.7, 5.2, 4.4], [2.0, 3.1, 6.3, 7.7, 8.2, 5.9, 6.6, 9.1, 4.9],
                  0.025574425574425574, 0.046730907551184496),
    "exact_4_4": ([10.0, 11.0, 12.0, 13.0], [14.0, 15.0, 16.0, 17.0], 0.02857142857142857, None),
    "normal_20_25": ([1.0, 1.015, 1.03, 1.04, 1.055, 1.065, 1.08, 1.095, 1.105, 1.12, 1.13, 1.145,
                      1.16, 1.17, 1.185, 1.195, 1.21, 1.225, 1.235, 1.25],
                     [1.1, 1.1131, 1.1262, 1.1344, 1.1475, 1.1557, 1.1688, 1.177, 1.1901, 1.2032,
                      1.2114, 1.2245, 1.2327, 1.2458, 1.254, 1.2671, 1.2802, 1.2884, 1.3015,
                      1.3097, 1.3228, 1.331, 1.3441, 1.3572, 1.3654], 0.00024629849670787496,
                     4.771405601917138e-05),
}


def compare_known_p(ladder, work):
    pa, pb = os.path.join(work, "a.json"), os.path.join(work, "b.json")
    for path, side in ((pa, 0), (pb, 1)):
        runs = []
        for k, case in KNOWN_P.items():
            medians = [float(x) for x in case[side]]
            run = run_entry("n=1", medians, variant=k)
            run["timing"]["process_medians"] = medians
            runs.append(run)
        write_results(path, runs)
    proc = run_ladder([ladder, "compare", pa, pb, "--csv"], cwd=work)
    if not check(proc.returncode == 0, "compare --csv: %s" % show(proc)):
        return
    got = {r["variant"]: r for r in csv_rows(proc)}
    for k, (a, b, want_u, want_welch) in KNOWN_P.items():
        r = got.get(k, {})
        u = float(r["u_p_value"]) if r.get("u_p_value") else None
        if min(len(a), len(b)) >= 8:
            check(close(u, want_u), "%s: u_p_value %r, SciPy's %r" % (k, r.get("u_p_value"), want_u))
        else:
            check(u is None, "%s: a U test with %d and %d processes: %r" % (k, len(a), len(b), u))
        p = float(r["p_value"]) if r.get("p_value") else None
        if want_welch is None:
            check(p is None and r.get("verdict") == "too few processes",
                  "%s: p_value %r, verdict %r with 4 processes a side" % (k, p, r.get("verdict")))
        else:
            check(close(p, want_welch), "%s: p_value %r, SciPy's %r" % (k, r.get("p_value"), want_welch))


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


# --- export --format gbench (cause 7) -------------------------------------------------------------

def gbench_sample_not_number(ladder, work):
    for bad in ("x", True, None, [1.0]):
        path = os.path.join(work, "r.json")
        runs = [run_entry("n=1", [1.0, 2.0, 3.0]), run_entry("n=2", [1.0, 2.0, 3.0])]
        runs[1]["timing"]["samples"][1] = bad
        write_results(path, runs)
        out = os.path.join(work, "out.json")
        for extra in ([], ["--out", out]):
            proc = run_ladder([ladder, "export", path, "--format", "gbench"] + extra, cwd=work)
            for p in error_problems(proc, match_any=("runs[1]",)):
                problems.append("export --format gbench %s, sample %r: %s" % (extra, bad, p))
            check(not os.path.exists(out), "export --out left %s behind for sample %r" % (out, bad))


def gbench_export(ladder, work, runs):
    path = os.path.join(work, "r.json")
    write_results(path, runs)
    proc = run_ladder([ladder, "export", path, "--format", "gbench"], cwd=work)
    if not check(proc.returncode == 0, "export --format gbench: %s" % show(proc)):
        return proc, None
    return proc, json.loads(proc.stdout)


def by_name(data):
    """compare.py's grouping: entries by name."""
    out = {}
    for b in data["benchmarks"]:
        out.setdefault(b["name"], []).append(b)
    return out


def gbench_median_only(ladder, work):
    timed = run_entry("n=1", [1.0, 2.0, 3.0])
    median_only = run_entry("n=2", [5.0], median=5.0)
    del median_only["timing"]["samples"]
    empty = run_entry("n=3", [7.0], median=7.0)
    empty["timing"]["samples"] = []
    proc, data = gbench_export(ladder, work, [timed, median_only, empty])
    if data is None:
        return
    groups = by_name(data)
    for point, median in (("n=2", 5.0), ("n=3", 7.0)):
        entries = groups.get("dtw/seq_full/" + point, [])
        check(len(entries) == 1 and entries[0]["run_type"] == "iteration" and
              entries[0]["real_time"] == median and "ladder_note" in entries[0],
              "the median-only run %s exports %r" % (point, entries))
    check([b["real_time"] for b in groups.get("dtw/seq_full/n=1", []) if b["run_type"] == "iteration"]
          == [1.0, 2.0, 3.0], "the timed run's samples changed")
    err = text(proc.stderr)
    check(err.count("\n") == 1 and "median" in err and "runs[1]" in err,
          "stderr does not say (in one line) that runs have their median only: %r" % err)


def gbench_names_collide(ladder, work):
    layouts = (["p", "p", "p#2"], ["p", "p#2", "p"], ["p#2", "p", "p"], ["p", "p_median", "p"],
               ["p_median", "p", "p"])
    for points in layouts:
        runs = [run_entry(pt, [1.0 + i, 1.5 + i, 2.0 + i]) for i, pt in enumerate(points)]
        for r in runs:
            r["timing"].update(mean=r["timing"]["median"], stddev=0.1, cv=0.01)
        _, data = gbench_export(ladder, work, runs)
        if data is None:
            continue
        groups = by_name(data)
        for i, r in enumerate(runs):
            want = r["timing"]["samples"]
            owners = [n for n, e in groups.items()
                      if [b["real_time"] for b in e if b["run_type"] == "iteration"] == want]
            check(len(owners) == 1, "%r: run %d's samples are under %r" % (points, i, owners))
        # compare.py groups by name: no name may hold entries of two runs.
        for name, entries in groups.items():
            families = {b["family_index"] for b in entries}
            check(len(families) == 1, "%r: name %r holds entries of runs %s" % (points, name, sorted(families)))
        # A point's own name stays its own: the one named p#2 (or p_median) is not renamed.
        for real in ("p#2", "p_median"):
            if real in points:
                got = [b["real_time"] for b in groups.get("dtw/seq_full/" + real, []) if b["run_type"] == "iteration"]
                check(got == runs[points.index(real)]["timing"]["samples"],
                      "%r: the entries named %s hold %r" % (points, real, got))


# --- profile with an ncu that wrote no report (cause 9) -------------------------------------------

def profile_no_report(ladder, work):
    config = os.path.join(PROJECT, "configs", "dtw", "smoke.json")
    base = os.path.join(work, "base.json")
    tmp = os.path.join(work, "tmp")
    os.makedirs(tmp)
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TMPDIR=tmp)
    proc = run_ladder([ladder, "run", config, "--out", base, "--quiet"], cwd=work, env=env)
    if not check(proc.returncode == 0, "run: %s" % show(proc)):
        return
    as_on_a_gpu(base)
    env.update(FAKE_NCU_BASE=base, FAKE_NCU_LOG=os.path.join(work, "ncu.log"), FAKE_NCU_NO_REPORT="1")
    ncu = fake_ncu(work)
    for metrics in ("why", "sass"):
        proc = run_ladder([ladder, "profile", config, "--into", base, "--ncu", ncu, "--metrics", metrics],
                          cwd=work, env=env)
        err = text(proc.stderr)
        check(proc.returncode == 1, "profile %s with no ncu report: exit %d, want 1\n%s"
              % (metrics, proc.returncode, show(proc)))
        check(err.count("\n") == 1 and err.startswith("ladder: "),
              "profile %s: stderr is not one line: %r" % (metrics, err))
        with open(base, encoding="utf-8") as f:
            reasons = [json.dumps(r.get("profile")) for r in json.load(f)["runs"] if r["backend"] == "gpu"]
        check(reasons and all(metrics in json.loads(r).get("missing", {}) for r in reasons),
              "profile %s: a GPU run does not say its counters are missing: %r" % (metrics, reasons[:2]))
        named = set(re.findall(re.escape(tmp) + r"/ladder-profile-[0-9]+", err + "".join(reasons)))
        check(named, "profile %s: names no folder of ncu's files: %r" % (metrics, err))
        for folder in named:
            check(os.path.isdir(folder), "profile %s names %s, which does not exist" % (metrics, folder))


# --- names from files on the terminal (cause 11) --------------------------------------------------

def no_raw_controls(proc, what):
    for stream, data in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        for b in BAD_BYTES:
            check(b not in data, "%s prints %r raw on %s: %r" % (what, b, stream, data[:400]))


def ucr(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for label, values in rows:
            f.write("\t".join([str(label)] + ["%g" % v for v in values]) + "\n")


def hostile_config(work, extra=None):
    a, b = "a" + BAD + ".tsv", "b" + BAD + ".tsv"
    ucr(os.path.join(work, a), [(1, [0, 1, 2, 1, 0]), (2, [1, 1, 0, 0, 2]), (1, [2, 0, 1, 1, 0])])
    ucr(os.path.join(work, b), [(1, [0, 2, 1, 0, 1]), (2, [1, 0, 0, 2, 2])])
    config = {"name": "cfg" + BAD, "study": "twed", "data": {"file": a}, "repetitions": 2, "warmup": 0,
              "variants": ["seq_full", "seq_itwed"],
              "sweeps": [{"label": "with_b" + BAD, "params": {"b_file": b, "mode": "batch"}},
                         {"label": "triangle" + BAD, "params": {"mode": "triangle"}}]}
    config.update(extra or {})
    return config


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f)


def terminal_names(ladder, work):
    c = os.path.join(work, "c.json")
    write_json(c, hostile_config(work))

    def ladder_ok(args, what, status=(0,)):
        proc = run_ladder([ladder] + args, cwd=work, timeout=300)
        check(proc.returncode in status, "%s: exit %d\n%s" % (what, proc.returncode, show(proc)))
        no_raw_controls(proc, what)
        return proc

    ladder_ok(["plan", c], "plan")
    ladder_ok(["plan", c, "--json"], "plan --json")
    ladder_ok(["run", c, "--out", "r.json"], "run")
    with open(os.path.join(work, "r.json"), encoding="utf-8") as f:
        runs = json.load(f)["runs"]
    check({r["sweep"] for r in runs} == {"with_b" + BAD, "triangle" + BAD},
          "the results file does not keep the sweep labels as they are: %r" % {r["sweep"] for r in runs})
    check(any(("b" + BAD + ".tsv") in r["point"] for r in runs),
          "the results file does not keep the point names as they are")
    ladder_ok(["compare", "r.json", "r.json"], "compare")
    ladder_ok(["compare", "r.json", "r.json", "--csv"], "compare --csv")
    ladder_ok(["export", "r.json", "--csv"], "export --csv")
    ladder_ok(["export", "r.json", "--format", "gbench"], "export --format gbench")
    # Shards, merged while one is missing: the missing shard's line names the config.
    for k in (0, 1):
        ladder_ok(["run", c, "--shard", "%d/2" % k, "--out", "s%d.json" % k], "run --shard %d/2" % k)
    ladder_ok(["merge", "m0.json", "s0.json"], "merge of one shard of two", status=(0, 1))
    ladder_ok(["merge", "m1.json", "s1.json"], "merge of the other shard", status=(0, 1))
    ladder_ok(["merge", "m.json", "s0.json", "s1.json"], "merge")
    # A peer's handover: its variant, label and reasons are the peer's words.
    plan = json.loads(run_ladder([ladder, "plan", c, "--json"], cwd=work).stdout)
    handover = {"peer": {"name": "peer" + BAD}, "variants": [
        {"name": "peer" + BAD, "label": "Peer" + BAD, "change": "x" + BAD, "backend": "cpu", "precision": "fp64"}],
        "runs": [{"point": p["point"], "variant": "peer" + BAD,
                  ("unsupported" if p["point"] % 2 else "error"): "why" + BAD, "note": "note" + BAD}
                 for p in plan["points"]]}
    write_json(os.path.join(work, "h.json"), handover)
    ladder_ok(["ingest", c, "h.json", "--out", "peer.json"], "ingest", status=(0, 1))
    # Refusals that quote such a name: one line, escaped.
    handover["variants"].append(dict(handover["variants"][0]))
    write_json(os.path.join(work, "h2.json"), handover)
    for args, what in ((["ingest", c, "h2.json", "--out", "peer2.json"], "ingest of a variant given twice"),
                       (["run", "study.json", "--out", "x.json"], "run of an unknown study")):
        write_json(os.path.join(work, "study.json"), {"study": "twed" + BAD, "data": {"generator": "x"}})
        proc = run_ladder([ladder] + args, cwd=work)
        for p in error_problems(proc):
            problems.append("%s: %s" % (what, p))
        no_raw_controls(proc, what)
    ladder_ok(["compare", "r.json", "peer.json"], "compare with the peer")
    # reproduce: a paper experiment named with the same bytes.
    configs = os.path.join(work, "configs")
    write_json(os.path.join(configs, "twed", "evil.json"),
               hostile_config(work, {"reproduce": {}, "data": {"file": os.path.join(work, "a" + BAD + ".tsv")},
                                     "sweeps": [{"label": "with_b" + BAD,
                                                 "params": {"b_file": os.path.join(work, "b" + BAD + ".tsv"),
                                                            "mode": "batch"}}]}))
    ladder_ok(["reproduce", "--configs", configs, "--scale", "paper", "--no-peers", "--out", "repro"],
              "reproduce")


CASES = {f.__name__: f for f in (compare_many_samples, compare_known_p, compare_csv_repeated_point,
                                 gbench_sample_not_number, gbench_median_only, gbench_names_collide,
                                 profile_no_report, terminal_names)}


def main():
    run_case("hostile3_outputs.py", "h3o-", CASES, problems)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Data files of the second hostile set that must read, through the real binary.

    hostile_readers.py LADDER SCRATCH_ROOT CASE

CASE is one of
  skybench      fixtures/hr_skybench.csv, SkyBench's layout (every line ends in a comma,
                `0.12, 0.55, 0.97,`): the CPU steps run and pass with n = 8, d = 3, and dump
                the skyline computed here;
  skybench_ids  the same points with an id column 0..n-1 before them;
  skybench_gpu  the file of `skybench` through every GPU step; exits 77 (skipped) where no run
                could use a GPU;
  eed_tsv       fixtures/hr_eed_bel.txt (`abc<TAB>abd`, `xy<BEL>z<TAB>qq`) with format tsv: two
                pairs, distances 1 and 4;
  eed_tsv_name  the same bytes named hr_eed_bel.tsv, format left to auto: two pairs as well;
  eed_lines     hr_eed_bel.txt with format lines: one pair (the two lines), distance 7.
Distances are the unit-cost extended edit distance, checked against a small one computed here
(Lowrance-Wagner with adjacent swaps).
"""
import glob
import os
import sys
import tempfile

from clitest import case_args, finish, read_npy, results, run_ladder, show, skyline

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def csv_rows(path, ids):
    """The points of a SkyBench file: fields separated by commas, the last one empty."""
    rows = []
    with open(path) as f:
        for line in f:
            fields = [x.strip() for x in line.split(",")]
            assert fields[-1] == "", "the fixture's lines end in a comma"
            values = [float(x) for x in fields[:-1]]
            rows.append(values[1:] if ids else values)
    return rows



def eed(a, b):
    """Unit-cost edit distance with swaps of adjacent symbols (Lowrance-Wagner)."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 or j == 0:
                d[i][j] = i + j
                continue
            best = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                       d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            for k in range(i - 1, 0, -1):  # last occurrence of b[j-1] in a before i
                if a[k - 1] == b[j - 1]:
                    for l in range(j - 1, 0, -1):
                        if b[l - 1] == a[i - 1]:
                            best = min(best, d[k - 1][l - 1] + (i - k - 1) + 1 + (j - l - 1))
                            break
                    break
            d[i][j] = best
    return d[n][m]


def run(ladder, config, work, tag):
    """Runs config with its outputs dumped; the runs, or None after recording a problem."""
    out = os.path.join(work, tag + ".json")
    dumps = os.path.join(work, "dumps." + tag)
    proc = run_ladder([ladder, "run", config, "--out", out, "--dump-outputs", dumps, "--quiet"],
                      work, timeout=100)
    if proc.returncode != 0:
        return None, dumps, "%s: the run exited %d, expected 0\n%s" % (tag, proc.returncode,
                                                                       show(proc))
    return results(out).runs, dumps, None


def dump_of(dumps, study, variant, formats):
    found = glob.glob(os.path.join(dumps, "%s__%s__*.npy" % (study, variant)))
    if len(found) != 1:
        raise ValueError("expected one dump %s__%s__<point>.npy, found %s" % (study, variant, found))
    return read_npy(found[0], formats)


def check_runs(runs, study, want_data, want_dump, formats, dumps, problems):
    """Every run passed, with the data facts and the dumped output wanted. Returns how many."""
    checked = 0
    for r in runs:
        tag = "%s/%s [%s]" % (r.study, r.variant, r.point)
        if not r.passed:
            problems.append("%s: status %r (%s)" % (tag, r.status, r.reason))
            continue
        data = r.data
        for k, v in want_data.items():
            if data.get(k) != v:
                problems.append("%s: data %s = %r, expected %r" % (tag, k, data.get(k), v))
        try:
            _, values = dump_of(dumps, study, r.variant, formats)
        except (ValueError, KeyError, SyntaxError) as e:
            problems.append("%s: %s" % (tag, e))
            continue
        if [int(v) for v in values] != want_dump:
            problems.append("%s: output %s, expected %s" % (tag, values, want_dump))
            continue
        checked += 1
    return checked


def main():
    ladder, scratch, case = case_args("hostile_readers.py")
    problems = []
    with tempfile.TemporaryDirectory(prefix="hostile_readers.", dir=scratch) as work:
        if case in ("skybench", "skybench_ids", "skybench_gpu"):
            rows = csv_rows(os.path.join(FIX, "hr_%s.csv" % case.replace("_gpu", "")),
                            case == "skybench_ids")
            want = skyline(rows)
            print("skyline computed here: %s" % want)
            config = os.path.join(FIX, "hr_%s_file.json" % case)
            runs, dumps, err = run(ladder, config, work, case)
            if not err and runs and all(r.status == "skipped" for r in runs):
                print("skipped: no run could use a GPU (%s)" % runs[0].reason)
                sys.exit(77)
            checked = 0 if err else check_runs(runs, "skyline", {"n": len(rows), "d": len(rows[0])},
                                               want, {"<i8": "q"}, dumps, problems)
            if err:
                problems.append(err)
        elif case in ("eed_tsv", "eed_tsv_name", "eed_lines"):
            text = open(os.path.join(FIX, "hr_eed_bel.txt"), "rb").read()
            lines = text.split(b"\n")[:-1]
            pairs = [tuple(l.split(b"\t")) for l in lines] if case != "eed_lines" else [
                (lines[0], lines[1])]
            want = [eed(a, b) for a, b in pairs]
            print("pairs %s, distances computed here: %s" % (pairs, want))
            config = os.path.join(FIX, {"eed_tsv": "hr_eed_bel_tsv.json",
                                        "eed_tsv_name": "hr_eed_bel_tsv_name.json",
                                        "eed_lines": "hr_eed_bel_lines.json"}[case])
            runs, dumps, err = run(ladder, config, work, case)
            checked = 0 if err else check_runs(runs, "eed", {"pairs": len(pairs)}, want,
                                               {"<i4": "i", "<f8": "d", "<f4": "f"}, dumps,
                                               problems)
            if err:
                problems.append(err)
        else:
            sys.exit("unknown case %r" % case)
        if not problems and checked == 0:
            problems.append("no run was checked")
    finish(problems, "ok: %d runs checked" % checked)


if __name__ == "__main__":
    main()

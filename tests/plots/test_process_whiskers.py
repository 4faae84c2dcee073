"""Tests of K-process results files (schema_version 2) in the reader and the figures: the
reader's t quantile against scipy's values (written here, scipy is no dependency), each run's
process medians, K and 95% interval, and the interval of a ratio of two runs; then every figure
of studies.figures() drawn from runs of five processes (test_error_bars.py's fixtures, each
run's process medians spread around its median), where every whisker and error bar at a run's
time or rate must be the t interval of its process medians (a speedup's: Welch's interval of
the ratio), and the axis must say '95% interval over 5 processes'.

Run: PYTHONPATH=. python3 tests/plots/test_process_whiskers.py   (needs matplotlib; exits non-zero on failure)
"""
import copy
import json
import math
import statistics
import sys
import tempfile
import unittest
from pathlib import Path

import test_error_bars as eb  # noqa: E402  (puts plots/ on the path)
from plots import selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402

# scipy.stats.t.ppf(p, df), computed once with scipy 1.x: (p, df, quantile).
T_QUANTILES = [
    (0.975, 1, 12.706204736174694), (0.975, 2, 4.302652729749462),
    (0.975, 4, 2.7764451051977934), (0.975, 8, 2.306004135204166),
    (0.975, 9, 2.262157162798205), (0.975, 18, 2.1009220402410382),
    (0.975, 30, 2.0422724563012378), (0.975, 1000, 1.9623390808264083),
    (0.975, 2.5, 3.5746548420036817), (0.975, 13.7, 2.149201262229809),
    (0.8, 18, 0.8620486679895989), (0.995, 3, 5.840909309733355),
    (0.6, 5, 0.2671808657041451), (0.9995, 1, 636.6192487687897)]
T4, T8 = 2.7764451051977934, 2.306004135204166  # t(0.975, K - 1) and Welch's df 2K - 2, K = 5

# Each run's process medians against its median: their median is 1, so the run's median stays.
FACTORS = (0.96, 0.99, 1.0, 1.02, 1.07)
K = len(FACTORS)
LOGS = [math.log(f) for f in FACTORS]
HALF = T4 * statistics.stdev(LOGS) / math.sqrt(K)
# The run's interval against its median: exp(mean log +- t sd / sqrt K), of the factors.
LOW, HIGH = math.exp(statistics.fmean(LOGS) - HALF), math.exp(statistics.fmean(LOGS) + HALF)
# A ratio of two such runs: the same spread on both sides, so Welch's df is 2K - 2 and the
# geometric means' ratio is the medians'.
RATIO_HALF = T8 * math.sqrt(2 * statistics.stdev(LOGS) ** 2 / K)


def processes(raw):
    """raw (test_error_bars.spread: several samples a run) as a K-process file: each timed
    run's process medians FACTORS times its median, its samples those of each process."""
    raw = copy.deepcopy(raw)
    raw["schema_version"] = 2
    raw["processes"] = {"count": K, "mode": "repeat", "list": [{"index": i} for i in range(K)]}
    for run in raw["runs"]:
        timing = run.get("timing")
        if not timing or not timing.get("median"):
            continue
        medians = [timing["median"] * f for f in FACTORS]
        timing.update(process_medians=medians,
                      processes=[{"process": i, "samples": [m], "median": m}
                                 for i, m in enumerate(medians)],
                      geomean_of_process_medians=math.exp(statistics.fmean(map(math.log, medians))),
                      sd_log_process=statistics.stdev(LOGS), samples=medians,
                      min=min(medians), max=max(medians))
    return raw


def near(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def expected(raw):
    """{value drawn (test_error_bars.key): (lo, hi)} of every run's time (ms, s) and rate."""
    out = {}
    for run in ladder_results.ResultsFile("values.json", raw).runs:
        if run.median_ms and selection.time_range(run):
            for t in (run.median_ms, run.median_ms / 1000):
                out[eb.key(t)] = (t * LOW, t * HIGH)
            if run.metric:
                out[eb.key(run.metric)] = (run.metric / HIGH, run.metric / LOW)
    return out


class Reader(unittest.TestCase):
    def test_t_quantile_is_scipys(self):
        for p, df, t in T_QUANTILES:
            self.assertAlmostEqual(ladder_results.t_quantile(p, df), t, delta=1e-9 * t,
                                   msg=f"p={p}, df={df}")
            self.assertAlmostEqual(ladder_results.t_quantile(1 - p, df), -t, delta=1e-9 * t)
        self.assertEqual(ladder_results.t_quantile(0.5, 7), 0.0)
        for p, df in ((0, 3), (1, 3), (0.9, 0)):
            with self.assertRaises(ValueError):
                ladder_results.t_quantile(p, df)

    def run_of(self, raw, **match):
        runs = ladder_results.ResultsFile("r.json", raw).runs
        return next(r for r in runs if all(getattr(r, k) == v for k, v in match.items()))

    def test_a_k_process_run(self):
        raw = processes(eb.spread(eb.toy_results()))
        run = next(r for r in ladder_results.ResultsFile("r.json", raw).runs if r.median_ms)
        ms = run.median_ms
        self.assertEqual(run.process_count, K)
        self.assertEqual(run.process_medians, [ms * f for f in FACTORS])
        lo, hi = run.interval_ms
        self.assertTrue(run.interval_ms.confidence)
        self.assertAlmostEqual(lo, ms * LOW)
        self.assertAlmostEqual(hi, ms * HIGH)

    def test_a_one_process_run(self):
        raw = eb.spread(eb.toy_results())
        run = next(r for r in ladder_results.ResultsFile("r.json", raw).runs if r.median_ms)
        self.assertEqual(run.process_count, 1)
        self.assertEqual(run.process_medians, [run.median_ms])
        self.assertEqual(tuple(run.interval_ms), (run.median_ms * eb.LOW, run.median_ms * eb.HIGH))
        self.assertFalse(run.interval_ms.confidence)
        # a range that leaves out the median (a hand-edited file) is none
        run.raw["timing"]["median"] = run.raw["timing"]["max"] * 2
        self.assertEqual(tuple(run.interval_ms), (run.median_ms, run.median_ms))
        run.raw["timing"] = None
        self.assertEqual((run.process_count, run.interval_ms), (0, None))

    def test_ratio_interval(self):
        several = ladder_results.ResultsFile("r.json", processes(eb.spread(eb.toy_results())))
        one = ladder_results.ResultsFile("r.json", eb.spread(eb.toy_results()))
        a, b = [r for r in several.runs if r.median_ms][:2]
        lo, hi = ladder_results.ratio_interval(a, b)
        ratio = a.median_ms / b.median_ms
        self.assertAlmostEqual(lo, ratio * math.exp(-RATIO_HALF))
        self.assertAlmostEqual(hi, ratio * math.exp(RATIO_HALF))
        self.assertEqual(ladder_results.ratio_interval(a, b).processes, K)
        # one process on a side: the ranges' extremes, no confidence interval
        c = next(r for r in one.runs if r.median_ms)
        mixed = ladder_results.ratio_interval(a, c)
        self.assertFalse(mixed.confidence)
        self.assertAlmostEqual(mixed[0], a.median_ms * LOW / (c.median_ms * eb.HIGH))
        self.assertAlmostEqual(mixed[1], a.median_ms * HIGH / (c.median_ms * eb.LOW))
        untimed = ladder_results.Run({"status": "skipped"}, None)
        self.assertIsNone(ladder_results.ratio_interval(a, untimed))

    def test_schema_versions_and_field_types(self):
        raw = processes(eb.spread(eb.toy_results()))
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "r.json"
            for version in (1, 2):
                path.write_text(json.dumps(dict(raw, schema_version=version)), encoding="utf-8")
                self.assertEqual(ladder_results.load(path).processes.get("count"), K)
            for version, bad in ((3, None), (True, None), (2, "processes.count"),
                                 (2, "runs[0].timing.process_medians[1]")):
                broken = dict(copy.deepcopy(raw), schema_version=version)
                if bad == "processes.count":
                    broken["processes"]["count"] = "five"
                elif bad:
                    timed = next(r for r in broken["runs"] if r.get("timing"))
                    broken["runs"] = [timed]
                    timed["timing"]["process_medians"][1] = "slow"
                path.write_text(json.dumps(broken), encoding="utf-8")
                with self.assertRaises(ladder_results.ResultsError) as err:
                    ladder_results.load(path)
                self.assertIn(bad or "schema_version", str(err.exception))

    def test_to_dataframe(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("no pandas")
        results = ladder_results.ResultsFile("r.json", processes(eb.spread(eb.toy_results())))
        frame = results.to_dataframe()
        row = frame[frame.median_ms.notna()].iloc[0]
        self.assertEqual(row.process_count, K)
        self.assertAlmostEqual(row.interval_lo_ms, row.median_ms * LOW)
        self.assertAlmostEqual(row.interval_hi_ms, row.median_ms * HIGH)
        self.assertTrue(row.interval_is_ci)


class Figures(unittest.TestCase):
    def test_every_whisker_is_the_process_interval(self):
        for name, raw, sweep in eb.fixtures():
            raw = processes(eb.spread(raw))
            want = expected(raw)
            for file_name, fig in eb.draw(name, raw, sweep).items():
                with self.subTest(figure=file_name):
                    checked = 0
                    for ax in fig.axes:
                        vertical, horizontal, caps = eb.ranges_of(ax)
                        here = 0
                        for at, value, way in eb.points_of(ax, caps):
                            if value != value or eb.key(value) not in want:
                                continue
                            here += 1
                            lo, hi = want[eb.key(value)]
                            found = vertical if way == "v" else horizontal
                            self.assertTrue(
                                any(near(a, at) and near(l, lo) and near(h, hi)
                                    for a, l, h in found),
                                f"{file_name}: value {value:g} at {at:g}: no whisker "
                                f"{lo:g}..{hi:g} in {[f for f in found if near(f[0], at)]}")
                        label = ax.get_xlabel() + ax.get_ylabel()
                        if here:
                            self.assertIn(f"95% interval over {K} processes", label)
                        self.assertNotIn("min..max", label)
                        checked += here
                    if file_name not in eb.NO_RANGES:
                        self.assertGreater(checked, 0, f"{file_name}: no run's value found")

    def test_a_speedup_has_welchs_interval(self):
        # twed_paper (b): seq_full / the GPU step, two runs of K processes each.
        name, raw, sweep = next(f for f in eb.fixtures() if f[0] == "twed_paper")
        fig = next(iter(eb.draw(name, processes(eb.spread(raw)), sweep).values()))
        speedup = fig.axes[1]
        bars = [(x, lo, hi) for c in speedup.containers if isinstance(c, ErrorbarContainer)
                for lines in c.lines[2] for (x, lo), (_x, hi) in
                (sorted(s, key=lambda p: p[1]) for s in lines.get_segments())]
        self.assertTrue(bars)
        points = [(x, y) for line in eb.data_lines(speedup) for x, y in
                  zip(line.get_xdata(), line.get_ydata())]
        for x, lo, hi in bars:
            value = next(v for at, v in points if near(at, x) and lo < v < hi)
            self.assertAlmostEqual(lo, value * math.exp(-RATIO_HALF))
            self.assertAlmostEqual(hi, value * math.exp(RATIO_HALF))
        self.assertIn(f"95% interval over {K} processes", speedup.get_ylabel())
        notes = "\n".join(t.get_text() for t in fig.texts)
        self.assertIn("Welch's 95% interval of the ratio", notes)
        self.assertNotIn("fastest sample", notes)

    def test_mixed_runs_say_both(self):
        one = next(r for r in ladder_results.ResultsFile("r.json", eb.spread(eb.toy_results()))
                   .runs if r.median_ms)
        several = next(r for r in ladder_results.ResultsFile(
            "r.json", processes(eb.spread(eb.toy_results()))).runs if r.median_ms)
        self.assertEqual(selection.range_text([selection.time_range(one), None]),
                         "error bars: min..max sample")
        self.assertEqual(selection.range_text([selection.time_range(several)], "whiskers"),
                         f"whiskers: 95% interval over {K} processes")
        self.assertEqual(selection.range_words([selection.time_range(one), selection.time_range(several)]),
                         f"95% interval over {K} processes; min..max sample where one process")
        self.assertEqual(selection.range_text([None]), "")


if __name__ == "__main__":
    unittest.main()

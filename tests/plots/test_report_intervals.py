"""Tests of the intervals of the report's claims (plots/report_common.py's Ratio, run_ratio,
decide): every ratio of our times is shown with its interval (a 95% CI where both runs ran
several processes, marked a sample range where one ran one process), and a verdict whose
interval crosses one of the claim's thresholds is 'inconclusive', counted apart in the summary;
an interval clear of the thresholds leaves the verdict as it was.

Run: PYTHONPATH=. python3 tests/plots/test_report_intervals.py   (exits non-zero on failure)
"""
import json
import math
import statistics
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import results as ladder_results  # noqa: E402
from plots import report  # noqa: E402
from plots import report_common as rc  # noqa: E402
from plots import report_summary  # noqa: E402
from report_fixtures import load, study_module  # noqa: E402
report_dtw = study_module("dtw", "report")

DTW = "dtw-paper"
SHARED = "DP rows in shared memory ~4.3x faster than thread-local"  # thresholds 1.05x, 2.65x, 7.6x
NAIVE = "thread-local DP rows ~11x faster than naive"  # reproduces in 6.06x..21.2x (the factor rule)
FACTORS = (0.96, 0.99, 1.0, 1.02, 1.07)  # each run's process medians over its median
K = len(FACTORS)
T8 = 2.306004135204166  # scipy.stats.t.ppf(0.975, 8): Welch's df of two runs of 5 alike
SD = statistics.stdev(math.log(f) for f in FACTORS)
HALF = T8 * math.sqrt(2 * SD * SD / K)  # the log ratio's half width


def processes(results, medians):
    """The results as a K-process file, the runs of sweep notes named in `medians` ({variant:
    ms}) at those medians, FACTORS times them in their processes."""
    results["schema_version"] = 2
    results["processes"] = {"count": K, "mode": "repeat"}
    for run in results["runs"]:
        if run.get("sweep") == "notes" and run["variant"] in medians:
            ms = medians[run["variant"]]
            per = [ms * f for f in FACTORS]
            run["timing"].update(median=ms, process_medians=per, samples=per, min=min(per),
                                 max=max(per))
    return results


class Decide(unittest.TestCase):
    """rc.decide on numbers made here."""

    @staticmethod
    def ratio(value, lo, hi, processes=K):
        return rc.Ratio(value, ladder_results.Interval(lo, hi, processes))

    def test_an_interval_across_the_threshold_is_undecided(self):
        def rule(xs):
            return rc.REPRODUCES if xs[0] >= 1.05 else rc.DOES_NOT
        verdict, why = rc.decide(rule, [self.ratio(1.06, 0.98, 1.12)], (1.05,))
        self.assertEqual(verdict, rc.INCONCLUSIVE)
        self.assertEqual(why, "interval crosses the threshold (0.98x-1.12x vs 1.05x)")
        # clear of it: the rule's verdict, as without an interval
        self.assertEqual(rc.decide(rule, [self.ratio(1.2, 1.1, 1.3)], (1.05,)),
                         (rc.REPRODUCES, ""))
        self.assertEqual(rc.decide(rule, [self.ratio(0.9, 0.8, 1.0)], (1.05,)), (rc.DOES_NOT, ""))
        self.assertEqual(rc.decide(rule, [1.06], (1.05,)), (rc.REPRODUCES, ""))  # no interval
        self.assertEqual(rc.decide(lambda xs: xs[0] is None, [None], (1.05,)), (True, ""))

    def test_a_crossing_that_cannot_change_the_verdict_decides_nothing(self):
        def rule(xs):  # any ratio below 1.05: does not reproduce
            return rc.DOES_NOT if any(x < 1.05 for x in xs) else rc.REPRODUCES
        clear, across = self.ratio(0.9, 0.85, 0.95), self.ratio(1.06, 1.0, 1.1)
        self.assertEqual(rc.decide(rule, [clear, across], (1.05,)), (rc.DOES_NOT, ""))
        self.assertEqual(rc.decide(rule, [self.ratio(1.2, 1.1, 1.3), across], (1.05,))[0],
                         rc.INCONCLUSIVE)

    def test_a_band_inside_the_interval(self):
        def rule(xs):  # reproduces inside 2..4, partly outside
            return rc.REPRODUCES if 2 <= xs[0] <= 4 else rc.PARTLY
        # both ends outside the band, on either side: the verdict still changes within
        verdict, why = rc.decide(rule, [self.ratio(5.0, 1.5, 6.0)], (2.0, 4.0))
        self.assertEqual(verdict, rc.INCONCLUSIVE)
        self.assertEqual(why, "interval crosses the threshold (1.5x-6x vs 2x and 4x)")

    def test_a_number_that_rounds_onto_the_threshold_says_its_side(self):
        """1.048x prints as 1.05x: beside 'does not reproduce' at a 1.05x threshold the why
        gives the digits that tell them apart, so the verdict never contradicts the number."""
        def rule(xs):
            return rc.REPRODUCES if xs[0] >= 1.05 else rc.DOES_NOT
        self.assertEqual(rc.decide(rule, [1.048], (1.05,)),
                         (rc.DOES_NOT, "1.048x is under the 1.05x threshold"))
        self.assertEqual(rc.decide(rule, [1.0504], (1.05,)),
                         (rc.REPRODUCES, "1.0504x is over the 1.05x threshold"))
        self.assertEqual(rc.decide(rule, [1.05], (1.05,)), (rc.REPRODUCES, ""))  # on it: as shown
        self.assertEqual(rc.decide(rule, [1.2], (1.05,)), (rc.REPRODUCES, ""))

    def test_how_an_interval_is_written(self):
        self.assertEqual(rc.fmt_measured(self.ratio(1.52, 1.44, 1.6)),
                         "1.52x (95% CI 1.44x-1.6x)")
        self.assertEqual(rc.fmt_measured(self.ratio(1.52, 1.4, 1.7, processes=1)),
                         "1.52x (sample range 1.4x-1.7x, not a confidence interval)")
        # ends that 3 digits would not tell apart get more
        self.assertEqual(rc.fmt_measured(self.ratio(1.333, 1.3312, 1.3348, processes=1)),
                         "1.33x (sample range 1.331x-1.335x, not a confidence interval)")
        self.assertEqual(rc.fmt_measured(rc.Ratio(1.52)), "1.52x")  # one sample: no spread
        self.assertEqual(rc.fmt_measured(self.ratio(0.25, 0.2, 0.3), rc.fmt_seconds),
                         "250 ms (95% CI 200 ms-300 ms)")


class SummaryRatio(unittest.TestCase):
    """The like-for-like table's ratio: with its range, or saying which run was timed once."""
    def pair(self, ours_samples, peer_samples):
        def run(variant, rate, samples):
            raw = {"variant": variant, "status": "passed", "metrics": {"gcups": rate, "unit": "GCUPS"},
                   "timing": {"median": statistics.median(samples), "samples": samples,
                              "min": min(samples), "max": max(samples)}}
            return ladder_results.Run(raw, None)
        return run("wavefront", 890.0, ours_samples), run("peer_cutwed", 15.8, peer_samples)

    def test_runs_timed_once_say_so(self):
        ours, peer = self.pair([1236.0], [69638.0])
        self.assertEqual(report_summary.measured_ratio(ours, peer),
                         "56.3x (no range: ours and the peer's timed once)")
        # One side's spread is still a range, and is shown as such.
        ours, peer = self.pair([1230.0, 1236.0, 1240.0], [69638.0])
        self.assertTrue(report_summary.measured_ratio(ours, peer).startswith("56.3x (sample range "))

    def test_an_unchecked_run_says_why(self):
        ours, _ = self.pair([1236.0], [69638.0])
        self.assertEqual(report_summary.error_text(ours), "not checked")
        ours.raw["validation"] = {"mode": "off", "checked": 0}
        self.assertEqual(report_summary.error_text(ours), "not checked (validation off at this point)")
        ours.raw["validation"] = {"mode": "full", "checked": 3, "max_abs_error": 0}
        self.assertEqual(report_summary.error_text(ours), "exact (3 checked)")

    def test_runs_with_samples_show_their_range(self):
        ours, peer = self.pair([1230.0, 1236.0, 1240.0], [69000.0, 69638.0, 70100.0])
        text = report_summary.measured_ratio(ours, peer)
        self.assertTrue(text.startswith("56.3x (sample range "), text)
        self.assertNotIn("timed once", text)


class DtwSection(unittest.TestCase):
    """A claim of the DTW section on synthetic K-process runs."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def context(self, results):
        (self.dir / f"{DTW}.json").write_text(json.dumps(results), encoding="utf-8")
        return rc.Context(self.dir, {"scale": "paper", "peers": [], "figures": [],
                                     "configs": [{"name": DTW, "results": f"{DTW}.json",
                                                  "state": "ran", "study": "dtw"}]})

    def claim(self, results, words):
        claims = report_dtw.section(self.context(results)).claims
        return next(c for c in claims if c.claim == words)

    def test_a_ratio_whose_interval_crosses_the_threshold_is_inconclusive(self):
        # thread-local / shared = 1.0125, its 95% CI about 0.955x-1.07x: across 1.05x, where the
        # verdict turns from 'does not reproduce' (no gain) to 'partly'.
        c = self.claim(processes(load(DTW), {"thread_local": 81.0, "shared": 80.0}), SHARED)
        self.assertEqual(c.verdict, rc.INCONCLUSIVE)
        lo, hi = c.ours_x[0].interval
        self.assertAlmostEqual(lo, 81 / 80 * math.exp(-HALF))
        self.assertAlmostEqual(hi, 81 / 80 * math.exp(HALF))
        self.assertTrue(c.why.startswith(f"interval crosses the threshold "
                                         f"({rc.fmt_interval(lo, hi)} vs 1.05x)"), c.why)
        self.assertTrue(c.ours.startswith("1.01x (95% CI 0.95"), c.ours)

    def test_a_clear_interval_keeps_the_verdict(self):
        c = self.claim(processes(load(DTW), {"thread_local": 106.0, "shared": 80.0}), SHARED)
        self.assertEqual(c.verdict, rc.PARTLY)  # 1.33x, as on the reference runs
        self.assertIn("(95% CI 1.2", c.ours)
        self.assertFalse(c.why.startswith("interval crosses"), c.why)

    def test_a_band_edge_inside_the_interval(self):
        # naive / thread-local at 21.2x, the top of the band of 11.1x: reproduces or partly
        c = self.claim(processes(load(DTW), {"naive": 21.2 * 100, "thread_local": 100.0}),
                       NAIVE)
        self.assertEqual(c.verdict, rc.INCONCLUSIVE)
        self.assertIn("vs 21.2x)", c.why)
        c = self.claim(processes(load(DTW), {"naive": 15.4 * 100, "thread_local": 100.0}),
                       NAIVE)
        self.assertEqual(c.verdict, rc.REPRODUCES)

    def test_one_process_runs_show_a_sample_range(self):
        c = self.claim(load(DTW), NAIVE)  # the reference: one process of 10 samples a run
        self.assertEqual(c.verdict, rc.REPRODUCES)
        self.assertEqual(c.ours, "15.4x (sample range 15.4x-15.5x, not a confidence interval)")

    def test_the_report_counts_inconclusive_apart(self):
        results = processes(load(DTW), {"thread_local": 81.0, "shared": 80.0})
        ctx = self.context(results)
        text = report.build(ctx)
        claims = report_dtw.section(ctx).claims
        counts = {v: sum(c.verdict == v for c in claims) for v in rc.VERDICTS}
        # This one, and naive over thread-local (20.3x, its sample range across the band's top)
        self.assertEqual(counts[rc.INCONCLUSIVE], 2)
        # The summary counts every study's claims (the others' not measured here), so the
        # total is not the DTW section's: only that a count is given, the inconclusive apart.
        self.assertRegex(text, r"\n\d+ claims: ")
        self.assertIn(" 2 inconclusive,", text)
        self.assertIn("| inconclusive | interval crosses the threshold (", text)
        self.assertIn(f"**{rc.INCONCLUSIVE}**", text)  # How claims are judged says what it is
        # the summary figure places it, in a style of its own
        self.assertIn(rc.INCONCLUSIVE, report_summary.STYLE)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return
        self.assertIsNotNone(report_summary.draw_figure(claims, self.dir / "figures", "test"))


if __name__ == "__main__":
    unittest.main()

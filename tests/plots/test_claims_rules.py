"""Tests of the one rule per kind of claim (plots/report_common.py RULES, judge): each kind's
thresholds and verdicts at known values, the same whatever the study, and an interval across a
threshold left inconclusive.

Run: PYTHONPATH=. python3 tests/plots/test_claims_rules.py   (exits non-zero on failure)
"""
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import results as ladder_results  # noqa: E402
from plots import report_common as rc  # noqa: E402

RE, PA, NO, IN, NC, NM = (rc.REPRODUCES, rc.PARTLY, rc.DOES_NOT, rc.INCONCLUSIVE,
                          rc.NOT_COMPARABLE, rc.NOT_MEASURED)


def verdict(kind, values, seed=None):
    return rc.judge(kind, values, seed).verdict


def measured(value, lo, hi):
    return rc.Ratio(value, ladder_results.Interval(lo, hi, True))


class Factor(unittest.TestCase):
    def test_band_on_the_excess_over_one(self):
        self.assertEqual(rc.factor_band(11), (6.0, 21.0))
        self.assertEqual(rc.factor_band((1.4, 1.6)), (1.2, 2.2))
        self.assertEqual(rc.judge("factor", [3], 11).thresholds, (1.05, 6.0, 21.0))

    def test_every_point_in_the_band_reproduces(self):
        self.assertEqual(verdict("factor", [6.0, 21.0], 11), RE)
        self.assertEqual(verdict("factor", [1.2, 2.2], (1.4, 1.6)), RE)

    def test_a_gain_outside_the_band_is_partly(self):
        self.assertEqual(verdict("factor", [5.9], 11), PA)
        self.assertEqual(verdict("factor", [22], 11), PA)
        self.assertEqual(verdict("factor", [1.06, 0.5], 11), PA)  # one point keeps the direction

    def test_no_gain_anywhere_does_not_reproduce(self):
        self.assertEqual(verdict("factor", [1.04], 4.3), NO)
        self.assertEqual(verdict("factor", [0.5, 1.0], 4.3), NO)

    def test_no_value_is_not_measured(self):
        self.assertEqual(verdict("factor", [], 4.3), NM)
        self.assertEqual(verdict("factor", [None], 4.3), NM)


class OtherKinds(unittest.TestCase):
    def test_at_least(self):
        self.assertEqual(verdict("at least", [4.0, 26], 4), RE)
        self.assertEqual(verdict("at least", [3.9], 4), PA)
        self.assertEqual(verdict("at least", [1.0], 4), NO)

    def test_direction(self):
        self.assertEqual(verdict("direction", [1.05, 16]), RE)
        self.assertEqual(verdict("direction", [1.05, 1.0]), PA)
        self.assertEqual(verdict("direction", [1.04]), NO)

    def test_same_either_way(self):
        self.assertEqual(verdict("same", [1.5, 1 / 1.5, 1.0]), RE)
        self.assertEqual(verdict("same", [1.2, 23]), PA)
        self.assertEqual(verdict("same", [0.5]), NO)

    def test_at_most(self):
        self.assertEqual(verdict("at most", [1.7e-15, 2e-14], 1e-14), RE)
        self.assertEqual(verdict("at most", [3e-14], 1e-14), NO)
        self.assertEqual(verdict("at most", [float("inf")], 1e-14), NO)  # a failed point

    def test_statement(self):
        self.assertEqual(verdict("statement", [True]), RE)
        self.assertEqual(verdict("statement", [False]), NO)

    def test_absolute_only_on_the_seeds_hardware(self):
        j = rc.judge_absolute([0.05], "NVIDIA H100 80GB HBM3", "Titan X (Pascal)")
        self.assertEqual(j.verdict, NC)
        self.assertIn("other hardware", j.note)
        self.assertEqual(rc.judge_absolute([0.6, 1.9], "NVIDIA TITAN X (Pascal)",
                                           "Titan X (Pascal)").verdict, RE)
        self.assertEqual(rc.judge_absolute([0.4], "NVIDIA TITAN X (Pascal)",
                                           "Titan X (Pascal)").verdict, NO)
        self.assertEqual(rc.judge_absolute([], "NVIDIA H100", "Titan X (Pascal)").verdict, NM)


class Intervals(unittest.TestCase):
    def test_an_interval_across_a_threshold_is_inconclusive(self):
        j = rc.judge("factor", [measured(1.01, 0.96, 1.07)], 4.3)
        self.assertEqual(j.verdict, IN)
        self.assertIn("vs 1.05x", j.note)

    def test_an_interval_clear_of_the_thresholds_keeps_the_verdict(self):
        self.assertEqual(verdict("factor", [measured(1.33, 1.2, 1.4)], 4.3), PA)

    def test_a_crossing_that_changes_nothing_is_not_inconclusive(self):
        # Another point already has a gain: whether this one has one too, it is partly.
        self.assertEqual(verdict("factor", [measured(1.01, 0.96, 1.07), 1.5], 4.3), PA)

    def test_a_number_rounded_onto_a_threshold_says_its_side(self):
        j = rc.judge("factor", [1.0496], 1.4)
        self.assertEqual(j.verdict, NO)
        self.assertIn("1.0496x is under the 1.05x threshold", j.note)


class Stated(unittest.TestCase):
    def test_the_report_prints_every_kind_with_its_thresholds(self):
        text = rc.how_judged()
        for kind in rc.RULES:
            self.assertIn(f"| **{kind}** |", text)
        for number in (f"{rc.NOISE:g}x", f"1 + (X-1)/{rc.FACTOR:g}", f"{rc.SAME:g}x"):
            self.assertIn(number, text)

    def test_a_claim_names_a_known_rule(self):
        with self.assertRaises(ValueError):
            rc.Claim("t", "c", "s", "o", RE, rule="roughly")


if __name__ == "__main__":
    unittest.main()

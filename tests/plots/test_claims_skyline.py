"""Tests of the skyline section's claims as claims of the seed (Min, Han and Lee 2010): each of
the seed's claims carries its words (quote, in the seed's Korean) and where they stand (place),
a check of ours (the expected skyline sizes) is marked as ladder's, and the claims added from
the seed's text are there, judged by their rules. Built from the committed H100 reference runs:
the development reference (the steps in the seed's forms) and the canonical one (their present
forms).

Run: PYTHONPATH=. python3 tests/plots/test_claims_skyline.py   (exits non-zero on failure; no matplotlib
needed)
"""
import copy
import json
import re
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import results as ladder_results  # noqa: E402
from plots import report_common as rc  # noqa: E402
from report_fixtures import REFERENCE, load, skip_gpu, study_module  # noqa: E402
report_skyline = study_module("skyline", "report")

CANONICAL = ROOT / "results" / "reference" / "h100" / "skyline-paper.json"
MAX_QUOTE = 400
HANGUL = re.compile("[\uac00-\ud7a3]")
FEWER_D = "ALR's gain over naive larger with fewer attributes"
APC_ANY_N = "APC's gain over naive about the same at any n"
PANELS = ("Skyline Fig. 11a", "Skyline Fig. 11b")


def find(claims, target, start):
    found = [c for c in claims if c.target == target and c.claim.startswith(start)]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} claims of {target} start with {start!r}")
    return found[0]


class Claims(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.development = load("skyline-paper.json")
        cls.canonical = copy.deepcopy(ladder_results.load(CANONICAL).raw)

    def claims(self, results, scale="paper"):
        """The skyline section's claims over a copy of `results` (None: no results)."""
        with tempfile.TemporaryDirectory() as tmp:
            entry = {"study": "skyline", "name": "skyline-paper", "state": "ran"}
            if results is not None:
                (Path(tmp) / "skyline-paper.json").write_text(json.dumps(results),
                                                             encoding="utf-8")
                entry["results"] = "skyline-paper.json"
            ctx = rc.Context(tmp, {"scale": scale, "configs": [entry]})
            return report_skyline.section(ctx).claims

    def every_claims(self):
        """(what, claims) of each way the section is built: both references, without a GPU,
        at quick scale, without results."""
        return [("development", self.claims(copy.deepcopy(self.development))),
                ("canonical", self.claims(copy.deepcopy(self.canonical))),
                ("no GPU", self.claims(skip_gpu(self.development))),
                ("quick", self.claims(copy.deepcopy(self.development), "quick")),
                ("no results", self.claims(None))]

    def test_every_seed_claim_quotes_the_seed_and_says_where(self):
        for what, claims in self.every_claims():
            for c in claims:
                with self.subTest(what=what, target=c.target, claim=c.claim):
                    self.assertIn(c.source, rc.SOURCES)
                    if c.source != rc.FROM_SEED:
                        continue
                    self.assertTrue(c.quote.strip(), "no quote")
                    self.assertTrue(c.place.strip(), "no place")
                    self.assertLessEqual(len(c.quote), MAX_QUOTE)
                    self.assertRegex(c.quote, HANGUL, "the seed's words are Korean")
                    self.assertRegex(c.place, r"^§\d")  # a section of the paper

    def test_the_expected_sizes_are_ladders_check(self):
        for what, claims in self.every_claims():
            with self.subTest(what=what):
                size = find(claims, "Skyline Fig. 11a", "skyline size")
                self.assertEqual(size.source, rc.FROM_LADDER)
                self.assertEqual((size.quote, size.place), ("", ""))
                self.assertEqual([c for c in claims if c.source == rc.FROM_LADDER], [size])

    def test_the_added_claims_are_there(self):
        for what, claims in self.every_claims():
            with self.subTest(what=what):
                for panel in PANELS:
                    fewer = find(claims, panel, FEWER_D)
                    self.assertEqual(fewer.place, "§6")
                    self.assertEqual(fewer.source, rc.FROM_SEED)
                apc = find(claims, "Skyline Fig. 11a, 11b", APC_ANY_N)
                self.assertEqual(apc.verdict, rc.NOT_MEASURED)
                self.assertEqual(apc.place, "§5.1")
                self.assertTrue(apc.why)
        apc = find(self.claims(copy.deepcopy(self.development)), "Skyline Fig. 11a, 11b",
                   APC_ANY_N)
        self.assertIn("needs naive and APC at a second n", apc.why)
        self.assertIn("n = 1,000,000 only", apc.why)

    def test_apcs_gain_at_a_second_n(self):
        """The development reference's naive and APC copied to a second n (sweep apc_n) with
        their times a hundredth: the same gains, so the claim holds (judged on ladder's forms,
        the only ones these results have, and said so); APC's times halved there, it does not."""
        for apc_factor, verdict in ((1.0, rc.REPRODUCES), (0.5, rc.DOES_NOT)):
            results = copy.deepcopy(self.development)
            for r in [r for r in results["runs"] if r["sweep"] == "fig11"
                      and r["variant"] in ("naive", "apc")]:
                copied = copy.deepcopy(r)
                copied["sweep"], copied["params"]["n"] = "apc_n", "100000"
                factor = 0.01 * (apc_factor if r["variant"] == "apc" else 1.0)
                copied["timing"] = {k: [x * factor for x in v] if k == "samples" else
                                    v * factor if k in ("median", "min", "max", "mean") else v
                                    for k, v in r["timing"].items()}
                results["runs"].append(copied)
            with self.subTest(apc_factor=apc_factor):
                apc = find(self.claims(results), "Skyline Fig. 11a, 11b", APC_ANY_N)
                self.assertEqual(apc.verdict, verdict, apc.why)
                self.assertEqual(apc.rule, "same")
                self.assertIn("at n = 100,000 over", apc.ours)
                self.assertIn(report_skyline.NO_SEED_FORMS, apc.why)

    def test_apcs_gain_at_a_second_n_without_a_gpu(self):
        """Every GPU run skipped at both sizes: not measured, the status said once."""
        results = copy.deepcopy(self.development)
        for r in [r for r in results["runs"] if r["sweep"] == "fig11"
                  and r["variant"] in ("naive", "apc")]:
            copied = copy.deepcopy(r)
            copied["sweep"], copied["params"]["n"] = "apc_n", "100000"
            results["runs"].append(copied)
        apc = find(self.claims(skip_gpu(results)), "Skyline Fig. 11a, 11b", APC_ANY_N)
        self.assertEqual(apc.verdict, rc.NOT_MEASURED)
        self.assertEqual(apc.why.count("skipped: no CUDA device"), 1, apc.why)

    def test_fewer_attributes_on_the_references(self):
        for results, ours in ((self.development, ("4 / at d=2: 1.88x", "4 / at d=2: 2.28x")),
                              (self.canonical, ("4 / at d=2: 2x (sample range", "4 / at d=2: 2.21x"))):
            claims = self.claims(copy.deepcopy(results))
            for panel, start in zip(PANELS, ours):
                with self.subTest(panel=panel):
                    c = find(claims, panel, FEWER_D)
                    # ALR/naive grows from some d to the next, not from every one
                    self.assertEqual(c.verdict, rc.PARTLY)
                    self.assertIn(f"ALR/naive at d={start}", c.ours)
                    self.assertRegex(c.why, r"^not from d = \d+ to \d+")

    def alr_times(self, factor_of_d):
        """The development reference with ALR's times at each d set to naive's times
        factor_of_d(d), on both panels' data."""
        results = copy.deepcopy(self.development)
        fig11 = [r for r in results["runs"] if r["sweep"] == "fig11"]
        naive = {(r["params"]["distribution"], r["params"]["d"]): r["timing"]["median"]
                 for r in fig11 if r["variant"] == "naive"}
        for r in fig11:
            key = (r["params"]["distribution"], r["params"]["d"])
            if r["variant"] == "alr" and key in naive:
                ms = naive[key] * factor_of_d(int(key[1]))
                r["timing"].update(median=ms, mean=ms, min=ms, max=ms, samples=[ms])
        return results

    def test_fewer_attributes_turns_with_the_times(self):
        for factor, verdict in ((lambda d: 0.1 * d, rc.REPRODUCES),   # grows from each d
                                (lambda d: 1.0, rc.DOES_NOT),          # the same at every d
                                (lambda d: 2.0 / d, rc.DOES_NOT)):     # shrinks with d
            claims = self.claims(self.alr_times(factor))
            for panel in PANELS:
                with self.subTest(panel=panel, verdict=verdict):
                    c = find(claims, panel, FEWER_D)
                    self.assertEqual(c.verdict, verdict)
                    # these runs have no seed's forms, and say so whatever the verdict
                    why = c.why.removesuffix(report_skyline.NO_SEED_FORMS).removesuffix("; ")
                    self.assertNotEqual(why, c.why)
                    self.assertEqual(bool(why), verdict != rc.REPRODUCES)


if __name__ == "__main__":
    unittest.main()

"""Tests of where the EED section's claims come from (plots/eed/report.py, plots/eed/seed.json):
every claim of Kim, Na and Sim (2015) carries the paper's words (quote) and where they stand
(place), in every state the section can be built in from the committed H100 reference runs;
the claims added from the paper's text (pH_CUDA's time in proportion to the pairs, sH_CUDA 29x
faster printed on the device, and the others of experiments 1 and 4) are there and judged as
their rules say.

Run: PYTHONPATH=. python3 tests/plots/test_claims_eed.py   (exits non-zero on failure)
"""
import copy
import re
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import results as ladder_results  # noqa: E402
from plots import report_common as rc  # noqa: E402
from report_fixtures import SectionClaims, load, skip_gpu, study_module  # noqa: E402
report_eed = study_module("eed", "report")
eed_data = study_module("eed", "data")

EED = "eed-paper"
# The canonical reference: `ladder reproduce` at the paper scale.
CANONICAL = ROOT / "results" / "reference" / "h100" / "eed-paper.json"
CLAIMS = 19
# The claims added from the paper's text: (start of the claim, its verdict on the
# development reference runs).
ADDED = {
    "pH_CUDA's parallel preprocessing faster than its serial one": rc.REPRODUCES,
    "pH_CUDA's 100 pairs ~100x slower than its one pair": rc.REPRODUCES,
    "printed on the device: about the same time for H_CUDA and sH_CUDA": rc.REPRODUCES,
    "printed on the device: pH_CUDA ~12x faster than the sequential pH": rc.PARTLY,
    "printed on the device: sH_CUDA ~29x faster than with the copies": rc.DOES_NOT,
    # an absolute time of the GTX 660's, on an H100: not comparable (and no run times it)
    "printed on the device: sH_CUDA's shared-memory allocation": rc.NOT_COMPARABLE,
}
# Each claim's number in the paper's words: (start of the claim, the words).
NUMBERS = (("H_CUDA's and sH_CUDA's preprocessing ~16-63x", "16～63배"),
           ("sH_CUDA ~10-14x faster than pH_CUDA", "10～14배"),
           ("sH_CUDA ~2.6x faster than H_CUDA", "2.6배"),
           ("H_CUDA ~1.4-1.6x faster than pH_CUDA", "1.4～1.6배"),
           ("sH_CUDA ~2.4-3.6x faster than pH_CUDA", "2.4～3.6배"),
           ("multi-block", "2.9배"),
           ("pH_CUDA's 100 pairs ~100x slower", "100배"),
           ("printed on the device: H_CUDA and sH_CUDA ~19-25x", "19～25배"),
           ("printed on the device: sH_CUDA ~1.5x slower", "1.5배"),
           ("printed on the device: pH_CUDA ~12x", "12배"),
           ("printed on the device: sH_CUDA ~29x", "29배"),
           ("printed on the device: sH_CUDA's shared-memory", "0.00071초"))
HANGUL = re.compile("[\uac00-\ud7a3]")
LOST = re.compile("[\ue000-\uf8ff]")  # the PDF's equations, private-use glyphs in its text


class Claims(SectionClaims, unittest.TestCase):
    SECTION, STUDY, CONFIG = report_eed.section, "eed", EED

    def claims(self, results=None, scale="paper"):
        """The section's claims over `results` (None: no results), each text once."""
        return self.section_claims(results, scale)

    def states(self):
        """(name, claims) over the development and canonical reference runs, the runs without
        a GPU, the quick scale and no results at all."""
        return [("development", self.claims(load(EED))),
                ("canonical", self.claims(copy.deepcopy(ladder_results.load(CANONICAL).raw))),
                ("no GPU", self.claims(skip_gpu(load(EED)))),
                ("quick", self.claims(load(EED), scale="quick")),
                ("no results", self.claims())]

    def find(self, claims, start):
        found = [c for c in claims if c.claim.startswith(start)]
        self.assertEqual(len(found), 1, start)
        return found[0]

    def test_every_claim_quotes_the_paper(self):
        for state, claims in self.states():
            self.assertEqual(len(claims), CLAIMS, state)
            for c in claims:
                where = f"{state}: {c.claim}"
                # Every claim here is the paper's: none is a check of ladder's own.
                self.assertEqual(c.source, rc.FROM_SEED, where)
                self.assertTrue(c.quote, where)
                self.assertTrue(c.place, where)
                self.assertLessEqual(len(c.quote), 400, where)
                # Whitespace as a reviewer collapses it, no glyph of a lost equation.
                self.assertEqual(c.quote, " ".join(c.quote.split()), where)
                self.assertNotRegex(c.quote, LOST, where)
                if c.target.startswith("EED Table") and c.claim.startswith("GTX 660 times"):
                    self.assertTrue(c.place.startswith(c.target[4:] + ", §4 실험"), where)
                else:  # the text of the paper's experiments (Korean)
                    self.assertRegex(c.quote, HANGUL, where)
                    self.assertRegex(c.place, r"^§4 실험 [1-4] \(experiment [1-4]\)", where)

    def test_the_papers_numbers_stand_in_their_quotes(self):
        claims = self.claims(load(EED))
        for start, words in NUMBERS:
            self.assertIn(words, self.find(claims, start).quote, start)
        for number, table in eed_data.TABLES.items():
            quote = self.find([c for c in claims if c.target == f"EED Table {number}"],
                              "GTX 660 times").quote
            self.assertIn(f"Table {number}. Running", quote)
            for row in table["rows"]:
                for value in row["values"]:
                    self.assertIn(f" {value:g}", quote, (number, row["method"]))

    def test_added_claims(self):
        claims = self.claims(load(EED))
        for start, verdict in ADDED.items():
            with self.subTest(claim=start):
                self.assertEqual(self.find(claims, start).verdict, verdict)
        pairs = self.find(claims, "pH_CUDA's 100 pairs ~100x slower")
        self.assertEqual(pairs.target, "EED Fig. 7")
        self.assertTrue(pairs.ours.startswith("n=1000: 87.1x"), pairs.ours)
        printed = self.find(claims, "printed on the device: sH_CUDA ~29x")
        self.assertEqual(printed.target, "EED Table 4")
        self.assertEqual(printed.ours, "n=1000: 1.02x")  # total over the compute stage
        self.assertIn("copying 100 pairs in", printed.why)
        setup = self.find(claims, "printed on the device: sH_CUDA's shared-memory")
        self.assertEqual((setup.rule, setup.ours), ("absolute", "-"))
        self.assertIn("other hardware: the seed's GeForce GTX 660, our NVIDIA H100", setup.why)
        self.assertIn("no run of ours times sH_CUDA's shared-memory set-up apart", setup.why)

    def test_the_set_up_time_on_the_papers_gpu_or_none(self):
        """On the paper's GTX 660 the set-up time would be judged, but no run times it apart:
        not measured, as without a GPU or without results."""
        start = "printed on the device: sH_CUDA's shared-memory"
        results = load(EED)
        results["device"]["name"] = "NVIDIA GeForce GTX 660"
        for state, claims in (("GTX 660", self.claims(results)),
                              ("no GPU", self.claims(skip_gpu(load(EED)))),
                              ("no results", self.claims())):
            with self.subTest(state):
                setup = self.find(claims, start)
                self.assertEqual(setup.verdict, rc.NOT_MEASURED)
                self.assertTrue(setup.why)
                self.assertNotIn("other hardware", setup.why)

    def test_the_29x_turns_with_the_compute_stage(self):
        """sH_CUDA's 100 pairs of 1000, their compute stage a 29th of the total: reproduces."""
        results = load(EED)
        for run in results["runs"]:
            if (run["sweep"], run["variant"], run["params"].get("n")) == (
                    "pairs_100", "sh_cuda", "1000"):
                run["timing"]["stage_medians"]["compute"] = run["timing"]["median"] / 29
        printed = self.find(self.claims(results), "printed on the device: sH_CUDA ~29x")
        self.assertEqual(printed.verdict, rc.REPRODUCES)

    def test_pair_scaling_needs_both_experiments(self):
        results = load(EED)
        results["runs"] = [r for r in results["runs"] if r["sweep"] != "one_pair"]
        pairs = self.find(self.claims(results), "pH_CUDA's 100 pairs ~100x slower")
        self.assertEqual(pairs.verdict, rc.NOT_MEASURED)
        self.assertEqual(pairs.why, "not timed: n=1000 (not in the results)")


if __name__ == "__main__":
    unittest.main()

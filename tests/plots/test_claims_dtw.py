"""Tests of where the DTW section's claims come from (plots/dtw/report.py): every claim of the
lecture notes carries their words (quote) and the heading they stand under (place), in every
state the section can be built in from the committed H100 reference runs; the claims added
from the notes (coalescing, shared memory running out with the length) are there and judged
as their rules say.

Run: PYTHONPATH=. python3 tests/plots/test_claims_dtw.py   (exits non-zero on failure)
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
report_dtw = study_module("dtw", "report")

DTW = "dtw-paper"
# The canonical reference: `ladder reproduce` at the paper scale, from before that scale ran
# the length sweep's thread-local and shared steps.
CANONICAL = ROOT / "results" / "reference" / "h100" / "dtw-paper.json"
COALESCING = "a layout that coalesces a warp's accesses makes a step much faster"
SHARED_LIMIT = "shared memory too small for the DP rows of long series"
HANGUL = re.compile("[\uac00-\ud7a3]")


class Claims(SectionClaims, unittest.TestCase):
    SECTION, STUDY, CONFIG = report_dtw.section, "dtw", DTW

    def claims(self, results=None, scale="paper"):
        """{claim text: Claim} of the section built over `results` (None: no results)."""
        return {c.claim: c for c in self.section_claims(results, scale)}

    def states(self):
        """(name, claims) of the section over the reference runs, the canonical reproduction,
        the runs without a GPU, the quick scale and no results at all."""
        return [("development", self.claims(load(DTW))),
                ("canonical", self.claims(copy.deepcopy(ladder_results.load(CANONICAL).raw))),
                ("no GPU", self.claims(skip_gpu(load(DTW)))),
                ("quick", self.claims(load(DTW), scale="quick")),
                ("no results", self.claims())]

    def test_every_claim_quotes_the_notes(self):
        for state, claims in self.states():
            self.assertEqual(len(claims), 9, state)
            for text, c in claims.items():
                where = f"{state}: {text}"
                self.assertIn(c.source, rc.SOURCES, where)
                if c.source != rc.FROM_SEED:
                    self.assertEqual((c.quote, c.place), ("", ""), where)
                    continue
                self.assertTrue(c.quote, where)
                self.assertTrue(c.place, where)
                self.assertLessEqual(len(c.quote), 400, where)
                # The notes' own words: Korean, whitespace as a reviewer collapses it, and the
                # place a heading of theirs.
                self.assertRegex(c.quote, HANGUL, where)
                self.assertEqual(c.quote, " ".join(c.quote.split()), where)
                self.assertTrue(c.place.startswith("§ DTW: "), where)

    def test_the_notes_numbers_stand_in_their_quotes(self):
        """Each gain or time claim's quote holds the notes' number it is judged against."""
        claims = self.claims(load(DTW))
        for words, number in (("~11x faster", "11배"), ("~4.3x faster", "4.3배"),
                              ("~10x slower", "10배"), ("slightly faster", "조금 빠르거나"),
                              ("takes ~30 s", "30초"), ("takes ~2.7 s", "2.7초"),
                              ("takes ~0.63 s", "0.63초")):
            found = [c for text, c in claims.items() if words in text]
            self.assertEqual(len(found), 1, words)
            self.assertIn(number, found[0].quote, words)

    def test_added_claims(self):
        claims = self.claims(load(DTW))
        coalescing, limit = claims[COALESCING], claims[SHARED_LIMIT]
        self.assertEqual(coalescing.verdict, rc.REPRODUCES)  # 16.2x and 1.69x
        self.assertIn("interleaved global cache 16.2x", coalescing.ours)
        self.assertIn("time-major subjects 1.69x", coalescing.ours)
        self.assertEqual(limit.verdict, rc.REPRODUCES)
        self.assertTrue(limit.ours.startswith("refused from n=1024: needs 256 KiB of shared "
                                              "memory"), limit.ours)
        for c in (coalescing, limit):
            self.assertEqual(c.source, rc.FROM_SEED)

    def test_coalescing_partly_when_one_step_is_not_faster(self):
        results = load(DTW)
        for run in results["runs"]:
            if run["sweep"] == "notes" and run["variant"] == "transposed":
                run["timing"]["median"] = 200.0  # slower than shared's 79.9 ms
        self.assertEqual(self.claims(results)[COALESCING].verdict, rc.PARTLY)

    def test_shared_limit_needs_the_length_sweep(self):
        """Results without the length sweep (the canonical reference's: the paper scale left it
        out then): not measured, and the why names it; a shared step that runs at every length
        does not reproduce the claim."""
        limit = self.claims(copy.deepcopy(ladder_results.load(CANONICAL).raw))[SHARED_LIMIT]
        self.assertEqual(limit.verdict, rc.NOT_MEASURED)
        self.assertIn("sweep `length` of `dtw-paper` is not in the results", limit.why)
        self.assertIn("the paper scale runs its thread-local and shared steps", limit.why)
        results = load(DTW)
        results["runs"] = [r for r in results["runs"]
                           if not (r["sweep"] == "length" and r["params"].get("n") == "1024")]
        limit = self.claims(results)[SHARED_LIMIT]
        self.assertEqual(limit.verdict, rc.DOES_NOT)
        self.assertEqual(limit.ours, "runs at every length up to n=512")

    def test_shared_limit_on_the_paper_scales_length_sweep(self):
        """The paper scale runs the length sweep's thread-local and shared steps alone: enough
        to judge the claim, with shared's gain over thread-local at each length it ran."""
        results = load(DTW)
        results["runs"] = [r for r in results["runs"] if r["sweep"] != "length"
                           or r["variant"] in ("thread_local", "shared")]
        limit = self.claims(results)[SHARED_LIMIT]
        self.assertEqual(limit.verdict, rc.REPRODUCES)
        self.assertTrue(limit.ours.startswith("refused from n=1024: needs 256 KiB of shared "
                                              "memory"), limit.ours)
        self.assertIn("its gain over thread-local", limit.why)
        self.assertIn("at n=512", limit.why)


if __name__ == "__main__":
    unittest.main()

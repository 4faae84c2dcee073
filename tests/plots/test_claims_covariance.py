"""Tests of where the covariance section's claims come from (plots/covariance/report.py): each
claim of the notes quotes their words and names their section; the early exits' savings, which
the notes' text does not state, are ladder's checks; the notes' measurable claims the report
once lacked are there. Built from the committed H100 reference runs, and with them missing.

Run: PYTHONPATH=. python3 tests/plots/test_claims_covariance.py   (exits non-zero on failure)
"""
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from report_fixtures import load, skip_gpu, study_module  # noqa: E402
from plots import report_common as rc  # noqa: E402
report_covariance = study_module("covariance", "report")

COV_SWEEP, COV_LADDER = "covariance-chunk-sweep", "covariance-paper"
MAX_QUOTE = 400
# The notes' section headings a place may name (the notes' own spelling).
HEADINGS = ("Performance Considerations", "CUDA Cov Matrix", "Tiling Example")
# The claims added from the notes: (words of the claim, verdict on the H100 reference runs).
ADDED = (("4x the compute efficiency", rc.REPRODUCES),  # 24.3x
         ("halves the work", rc.REPRODUCES),  # 2.03x at chunk 8
         ("shared-memory tiles", rc.PARTLY))  # 1.29x at chunk 16, 0.815x at chunk 8
LADDER_CHECKS = ("block-level early exit saves ~500 ms", "thread-level early exit saves ~100 ms")


class Claims(unittest.TestCase):
    def claims(self, files, scale="paper"):
        """The covariance section's claims over a reproduction directory of `files`."""
        with tempfile.TemporaryDirectory() as tmp:
            configs = []
            for name, results in files.items():
                (Path(tmp) / f"{name}.json").write_text(json.dumps(results), encoding="utf-8")
                configs.append({"name": name, "results": f"{name}.json", "state": "ran"})
            ctx = rc.Context(tmp, {"scale": scale, "configs": configs, "peers": [],
                                   "figures": []})
            return report_covariance.section(ctx).claims

    def reference(self):
        return self.claims({COV_SWEEP: load(COV_SWEEP), COV_LADDER: load(COV_LADDER)})

    def assertSourced(self, claims):
        for c in claims:
            self.assertIn(c.source, rc.SOURCES, c.claim)
            if c.source == rc.FROM_SEED:
                self.assertTrue(c.quote.strip(), c.claim)
                self.assertTrue(c.place.strip(), c.claim)
                self.assertLessEqual(len(c.quote), MAX_QUOTE, c.claim)
                self.assertRegex(c.quote, "[\uac00-\ud7a3]", c.claim)  # the notes' Korean
                self.assertTrue(c.place.startswith(HEADINGS), c.place)
            else:
                self.assertEqual((c.quote, c.place), ("", ""), c.claim)

    def test_every_claim_of_the_notes_quotes_them(self):
        claims = self.reference()
        self.assertEqual(len(claims), 7)
        self.assertSourced(claims)
        self.assertEqual(len({c.quote for c in claims if c.source == rc.FROM_SEED}), 5)

    def test_the_early_exits_savings_are_ladders_checks(self):
        sources = {c.claim: c.source for c in self.reference()}
        for claim in LADDER_CHECKS:
            self.assertEqual(sources[claim], rc.FROM_LADDER, claim)
        self.assertEqual(sum(s == rc.FROM_LADDER for s in sources.values()), 2)

    def test_the_added_claims(self):
        claims = self.reference()
        for words, verdict in ADDED:
            found = [c for c in claims if words in c.claim]
            self.assertEqual(len(found), 1, words)
            self.assertEqual(found[0].source, rc.FROM_SEED, words)
            self.assertEqual(found[0].verdict, verdict, (words, found[0].why))

    def test_unmeasured_claims_keep_their_quotes(self):
        """A claim with no runs to judge it still says where in the notes it stands."""
        for files, scale in (({}, "paper"),
                             ({COV_SWEEP: skip_gpu(load(COV_SWEEP)),
                               COV_LADDER: skip_gpu(load(COV_LADDER))}, "paper"),
                             ({COV_SWEEP: load(COV_SWEEP)}, "quick")):
            claims = self.claims(files, scale)
            self.assertEqual(len(claims), 7)
            self.assertSourced(claims)
        missing = {c.claim: c for c in self.claims({COV_SWEEP: load(COV_SWEEP)})}
        shared = next(c for words, c in missing.items() if "shared-memory tiles" in words)
        self.assertEqual(shared.verdict, rc.NOT_MEASURED)
        self.assertIn(f"{COV_LADDER}, symmetric: not in the results", shared.why)


if __name__ == "__main__":
    unittest.main()

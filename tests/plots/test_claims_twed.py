"""Tests of where the TWED claims come from (plots/twed/report.py): on the committed H100
reference runs and on edited copies of them (no peer, every GPU run skipped, quick scale, a
missing config), every claim of the seed carries the seed's words and where they stand, every
check of ladder's own carries neither, and the claims added from the seed's text are there.

Run: python3 tests/plots/test_claims_twed.py   (exits non-zero on failure; no matplotlib needed)
"""
import copy
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plots"))
import report_common as rc  # noqa: E402
from report_fixtures import load, skip_gpu, study_module, write_reproduction  # noqa: E402
report_twed = study_module("twed", "report")

CONFIGS = ("twed-paper", "twed-validation")
F9A, F9B, F10, T2 = "TWED Fig. 9a", "TWED Fig. 9b", "TWED Fig. 10", "TWED Table 2"
MAX_QUOTE = 400

# The checks ladder makes that the seed does not state (by target and start of the claim):
# among them our best step's speedups, beside the seed's, which are judged on cuTWED.
OURS = "ours (best GPU step)"
LADDER = {(F9B, "a launch per diagonal, ~3 us each"), (F10, "about 5 G cells/s"),
          *[(F9B, f"{OURS} over twed.c at N = {n:,}") for n in (1024, 2048, 4096, 8192, 16384,
                                                                 32768, 65536)],
          (F9B, f"{OURS}: the speedup grows with N"),
          *[(T2, f"{OURS} over twed.c on {name}") for name in ("Synthetic Control",
                                                               "Pseudo Periodic",
                                                               "MNIST single query")],
          (T2, f"{OURS}: computing the triangle only")}
# The seed's measurable claims added from its text, with the start of their place.
ADDED = {
    (F9A, "single precision had marginal performance benefit"): "Performance, Basic Methodology",
    (F9A, "R^N inputs made no practical time difference"): "Performance, Higher Dimensions",
    (F9B, "above 10x over twed.c on the seed's older desktop"): "Performance, first paragraph",
    (F10, "host-to-device transfer overhead is trivial"): "Performance, Basic Methodology",
    (T2, "cuTWED's time for MNIST all queries"): "Table 2, MNIST All Query row",
    (T2, "cuTWED's FP64 distances match"): "Performance, Validation using Real Datasets",
}
# A claim on one number of a table quotes its cell as the seed's text has it.
CELLS = {
    **{(F9B, f"{x} over twed.c at N = {n:,}"): (x, f"Table 3, Speedup column, N = {n};")
       for x, n in (("4.5x", 1024), ("11x", 2048), ("23x", 4096), ("42x", 8192),
                    ("73x", 16384), ("117x", 32768), ("152x", 65536))},
    (F10, "cuTWED: 13.9 s at N = 262,144"): ("13.863", "Table 3, cuTWED column, N = 262144;"),
    (F10, "cuTWED: 214 s at N = 1,048,576"): ("214.22", "Table 3, cuTWED column, N = 1048576;"),
    (T2, "Synthetic Control: 22x"): ("22x", "Table 2, Synthetic Control row"),
    (T2, "Pseudo Periodic: 107x"): ("107x", "Table 2, Pseudo Periodic row"),
    (T2, "MNIST single query: 150x"): ("150x", "Table 2, MNIST Single Query row"),
    (T2, "cuTWED's time for MNIST all queries"): ("<2.6hr", "Table 2, MNIST All Query row"),
}


class Claims(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ours = {c: load(c) for c in CONFIGS}
        cls.peers = {c: load(f"{c}-cutwed") for c in CONFIGS}

    def claims(self, ours=None, peers=None, scale="paper"):
        """The TWED claims of a reproduction directory holding `ours` and `peers` ({config:
        results}; the reference files when None)."""
        ours = copy.deepcopy(self.ours if ours is None else ours)
        peers = copy.deepcopy(self.peers if peers is None else peers)
        with tempfile.TemporaryDirectory() as tmp:
            manifest = write_reproduction(tmp, "twed", ours, peers, scale)
            return report_twed.section(rc.Context(Path(tmp), manifest)).claims

    def find(self, claims, target, start):
        found = [c for c in claims if c.target == target and c.claim.startswith(start)]
        self.assertEqual(len(found), 1, f"{target}: {start!r} in {[c.claim for c in claims]}")
        return found[0]

    def check_sources(self, claims):
        """Every claim of the seed quotes it (at most MAX_QUOTE characters) and says where;
        every check of ladder's own does neither, and is one of LADDER."""
        for c in claims:
            if c.source == rc.FROM_SEED:
                self.assertTrue(c.quote.strip(), f"{c.target}: {c.claim}: no quote")
                self.assertTrue(c.place.strip(), f"{c.target}: {c.claim}: no place")
                self.assertLessEqual(len(c.quote), MAX_QUOTE, c.claim)
            else:
                self.assertEqual(c.source, rc.FROM_LADDER, c.claim)
                self.assertEqual((c.quote, c.place), ("", ""), c.claim)
        ladder = [c for c in claims if c.source == rc.FROM_LADDER]
        self.assertEqual(len(ladder), len(LADDER))
        for key in LADDER:
            self.assertEqual(self.find(claims, *key).source, rc.FROM_LADDER, key)

    def test_reference_runs(self):
        claims = self.claims()
        self.check_sources(claims)
        for key, place in ADDED.items():
            c = self.find(claims, *key)
            self.assertEqual(c.source, rc.FROM_SEED, key)
            self.assertTrue(c.place.startswith(place), (key, c.place))
            self.assertTrue(c.why, key)
        for key, (cell, place) in CELLS.items():
            c = self.find(claims, *key)
            self.assertEqual(c.quote, cell, key)
            self.assertTrue(c.place.startswith(place), (key, c.place))

    def test_quotes_keep_the_seed_text(self):
        # The PDF text's ligatures and curly apostrophe stay in the quotes, as the seed has them.
        claims = self.claims()
        self.assertIn("bene\ufb01t", self.find(claims, F9A, "single precision").quote)
        self.assertIn("didn\u2019t", self.find(claims, F9A, "R^N inputs").quote)
        self.assertIn("di\ufb00erent", self.find(claims, T2, "cuTWED's FP64 distances").quote)
        # "..." only between two pieces of the one sentence of the summary.
        self.assertEqual(self.find(claims, F9A, "cuTWED has at least").quote.count("..."), 1)

    def test_every_edit_keeps_the_sources(self):
        whole = {(c.target, c.claim): (c.source, c.quote, c.place) for c in self.claims()}
        quick = copy.deepcopy(self.ours)
        quick["twed-paper"]["runs"] = [r for r in quick["twed-paper"]["runs"]
                                       if r["data"]["n"] <= 4096]
        edits = {
            "no peer": dict(peers={}),
            "every GPU run skipped": dict(ours={c: skip_gpu(r) for c, r in self.ours.items()},
                                          peers={c: skip_gpu(r) for c, r in self.peers.items()}),
            "quick scale": dict(ours=quick, scale="quick"),
            "no validation config": dict(ours={"twed-paper": self.ours["twed-paper"]},
                                         peers={"twed-paper": self.peers["twed-paper"]}),
        }
        for name, edit in edits.items():
            with self.subTest(name):
                claims = self.claims(**edit)
                self.check_sources(claims)
                self.assertEqual({(c.target, c.claim): (c.source, c.quote, c.place)
                                  for c in claims}, whole)


if __name__ == "__main__":
    unittest.main()

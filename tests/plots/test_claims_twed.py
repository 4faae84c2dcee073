"""Tests of where the TWED claims come from (plots/twed/report.py): on the committed H100
reference runs and on edited copies of them (no peer, every GPU run skipped, quick scale, a
missing config), every claim of the seed carries the seed's words and where they stand, every
check of ladder's own carries neither, and the claims added from the seed's text are there.

Run: PYTHONPATH=. python3 tests/plots/test_claims_twed.py   (exits non-zero on failure; no matplotlib needed)
"""
import copy
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import report_common as rc  # noqa: E402
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
          (T2, f"{OURS}: computing the triangle only"),
          (F9A, f"{OURS}: R^N inputs made no practical time difference")}
# The seed's measurable claims added from its text, with the start of their place.
ADDED = {
    (F9A, "single precision had marginal performance benefit"): "Performance, Basic Methodology",
    (F9A, "R^N inputs made no practical time difference"): "Performance, Higher Dimensions",
    (F9B, "above 10x over twed.c on the seed's older desktop"): "Performance, first paragraph",
    (F10, "host-to-device transfer overhead is trivial"): "Performance, Basic Methodology",
    (T2, "cuTWED's time for MNIST all queries"): "Table 2, MNIST All Query row",
    (T2, "cuTWED's FP64 distances match"): "Performance, Validation using Real Datasets",
}
# The seed's speedups over twed.c (Table 3, Fig. 9b), and those of its validation sets with
# their sweeps: claims on cuTWED's code, judged on cuTWED as ladder runs it.
SPEEDUPS = (("4.5x", 1024), ("11x", 2048), ("23x", 4096), ("42x", 8192), ("73x", 16384),
            ("117x", 32768), ("152x", 65536))
SETS = (("Synthetic Control", "synthetic_control"), ("MNIST single query", "mnist"))
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


class Reference(unittest.TestCase):
    """The TWED claims of the committed reference runs, or of edited copies of them."""

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


class Claims(Reference):
    """Where each claim comes from: the seed's words and place, or neither for a check of
    ladder's own."""

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


def median_ms(results, variant, sweep, mode=None, n=None):
    """The median time (ms) of the raw run of `variant` in `sweep`, at `mode` and N where given."""
    return next(r["timing"]["median"] for r in results["runs"] if r["variant"] == variant
                and r["sweep"] == sweep and mode in (None, r["params"].get("mode"))
                and n in (None, r["data"]["n"]))


class JudgedOnCutwed(Reference):
    """The seed's speedup claims are cuTWED's: judged on cuTWED run here, ours only beside them
    as checks of ladder's own."""

    def test_fig9b_is_judged_on_cutwed(self):
        claims, paper, peer = self.claims(), self.ours["twed-paper"], self.peers["twed-paper"]
        for x, n in SPEEDUPS:
            c = self.find(claims, F9B, f"{x} over twed.c at N = {n:,}")
            self.assertIn("/ cuTWED here)", c.ours, c.claim)
            if n <= 8192:  # seq_full ran: seq_full over cuTWED's FP64 time, a gain short of the
                # factor rule's band around the seed's
                self.assertAlmostEqual(c.ours_x[0], median_ms(paper, "seq_full", "pair", n=n)
                                       / median_ms(peer, "peer_cutwed", "pair", n=n))
                self.assertLess(c.ours_x[0], rc.factor_band(float(x[:-1]))[0])
                self.assertEqual(c.verdict, rc.PARTLY, c.claim)
                self.assertIn("cuTWED here is only", c.why)
            else:  # seq_itwed, a lower bound of cuTWED's speedup
                self.assertIn("the speedup of cuTWED here over seq_itwed", c.why)
        trend = self.find(claims, F9B, "the speedup grows with N")
        self.assertIn("cuTWED here", trend.why)
        self.assertTrue(trend.ours.startswith("1.95x"), trend.ours)  # cuTWED's at N = 1,024

    def test_table2_is_judged_on_cutwed(self):
        claims = self.claims()
        ours, peer = self.ours["twed-validation"], self.peers["twed-validation"]
        for name, sweep in SETS:
            c = self.find(claims, T2, f"{name}: ")
            self.assertIn("seq_full / cuTWED here)", c.ours, name)
            self.assertAlmostEqual(c.ours_x[0], median_ms(ours, "seq_full", sweep, "batch")
                                   / median_ms(peer, "peer_cutwed", sweep, "batch"))
        # MNIST: cuTWED here 49.3x, a gain short of the band around the seed's 150x.
        self.assertEqual(self.find(claims, T2, "MNIST single query: ").verdict, rc.PARTLY)
        # The triangle: cuTWED's triangle option was slower than its batch mode (682 ms against
        # 624 ms on Synthetic Control), so it does not double the batch speedup here.
        triangle = self.find(claims, T2, "computing the triangle only")
        self.assertEqual(triangle.verdict, rc.DOES_NOT)
        self.assertAlmostEqual(triangle.ours_x[0], median_ms(
            peer, "peer_cutwed", "synthetic_control", "batch") / median_ms(
            peer, "peer_cutwed", "synthetic_control", "triangle"))
        self.assertEqual(len(triangle.ours_x), 1)  # cuTWED has no Pseudo Periodic run
        self.assertIn("cuTWED", triangle.why)

    def test_without_cutwed_they_are_not_measured(self):
        claims = self.claims(peers={})
        keys = ([(F9B, f"{x} over twed.c at N = {n:,}") for x, n in SPEEDUPS]
                + [(F9B, "the speedup grows with N"), (T2, "computing the triangle only")]
                + [(T2, f"{name}: ") for name, _ in SETS])
        for key in keys:
            c = self.find(claims, *key)
            self.assertEqual(c.verdict, rc.NOT_MEASURED, key)
            self.assertEqual(c.ours, "-", key)
            self.assertIn("cuTWED was not run here", c.why, key)
            config = "twed-paper" if key[0] == F9B else "twed-validation"
            self.assertIn(f"peer results for {config} missing", c.why, key)

    def test_our_step_is_a_check_of_ladders_own(self):
        # Our best step's speedups stay, beside the seed's, judged by the same rule but apart:
        # with cuTWED's results or without them.
        for peers in (None, {}):
            claims = self.claims(peers=peers)
            paper = self.ours["twed-paper"]
            for x, n in SPEEDUPS:
                c = self.find(claims, F9B, f"{OURS} over twed.c at N = {n:,}")
                self.assertEqual((c.source, c.quote, c.place), (rc.FROM_LADDER, "", ""))
                # far above the band around the seed's: a gain, not the seed's size
                self.assertEqual((c.seed, c.verdict), (x, rc.PARTLY), c.claim)
                self.assertEqual(c.seed_x, float(x[:-1]))
                self.assertIn("wavefront", c.ours)
                if n <= 8192:
                    self.assertAlmostEqual(c.ours_x[0], median_ms(paper, "seq_full", "pair", n=n)
                                           / median_ms(paper, "wavefront", "pair", n=n))
            for start in (f"{OURS}: the speedup grows with N", f"{OURS}: computing the triangle",
                          *[f"{OURS} over twed.c on {name}" for name, _ in SETS]):
                target = F9B if "grows" in start else T2
                c = self.find(claims, target, start)
                self.assertEqual(c.source, rc.FROM_LADDER, start)
                # a speedup far above the band around the seed's is partly
                self.assertEqual(c.verdict, rc.PARTLY if "over twed.c" in start
                                 else rc.REPRODUCES, start)


if __name__ == "__main__":
    unittest.main()

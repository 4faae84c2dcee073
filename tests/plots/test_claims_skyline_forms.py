"""Tests of whose steps the skyline section judges the seed's claims on (Min, Han and Lee 2010):
the seed's own forms of naive, APC, DWE and ALR (steps 12-15) where the results have them,
ladder's forms (steps 4-7) listed apart as ladder's checks; results without the seed's forms
judged on steps 4-7, saying so. On a small synthetic results file whose times make every one
of the seed's claims hold on the seed's forms and none of its gains on ladder's.

Run: PYTHONPATH=. python3 tests/plots/test_claims_skyline_forms.py   (exits non-zero on failure; no
matplotlib needed)
"""
import copy
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import report_common as rc  # noqa: E402
from report_fixtures import study_module  # noqa: E402
report_skyline = study_module("skyline", "report")

N, DS = 1000000, (2, 4, 8, 9, 12, 16)
SECOND_N = 100000  # the sweep apc_n of configs/skyline/paper.json
APC_ANY_N = ("Skyline Fig. 11a, 11b", "APC's gain over naive about the same at any n")
DISTRIBUTIONS = ("independent", "anticorrelated")
STEPS = {"naive": (4, "naive nested loop"), "apc": (5, "APC"), "dwe": (6, "DWE"),
         "alr": (7, "ALR"), "naive_seed": (12, "naive (seed's form)"),
         "apc_seed": (13, "APC (seed's form)"), "dwe_seed": (14, "DWE (seed's form)"),
         "alr_seed": (15, "ALR (seed's form)")}
PANELS = ("Skyline Fig. 11a", "Skyline Fig. 11b")
# The seed's claims on its four steps, by (target, start): each holds on the seed's forms.
TECHNIQUE = [(panel, start) for panel, gains in zip(PANELS, ((11, 28, 82, 78), (12, 36, 83, 83)))
             for start in (f"APC ~{gains[0]}% faster than naive",
                           f"DWE ~{gains[1]}% faster than APC", "DWE slower than naive at d = 8",
                           f"ALR ~{gains[2]}% faster than DWE", f"ALR ~{gains[3]}% faster than naive",
                           "ALR's gain over naive larger with fewer attributes")]
TECHNIQUE += [("Skyline Fig. 11c", "anti-correlated: DWE slower"),
              ("Skyline Fig. 11c", "anti-correlated: ALR's padding")]
GAINS = [key for key in TECHNIQUE if "% faster than" in key[1]]


def seed_form_ms(v, d):
    """Times that bear the seed out: APC 12% under naive, DWE 35% under APC except at d = 8
    and 16 (3x naive: bank conflicts), ALR's time over naive's growing with d."""
    naive = 100.0 * (d / 8) ** 2
    dwe = 3.0 * naive if d in (8, 16) else 0.88 * 0.65 * naive
    return {"naive": naive, "apc": 0.88 * naive, "dwe": dwe, "alr": (0.1 + 0.01 * d) * naive}[v]


def run(variant, d, distribution, ms, n=N, sweep="fig11"):
    step, label = STEPS[variant]
    return {"study": "skyline", "variant": variant, "step": step, "label": label, "role": "step",
            "change": "", "backend": "gpu", "precision": "fp32", "metric": "points_per_s",
            "point": f"d={d},distribution={distribution},n={n}", "sweep": sweep,
            "params": {"d": str(d), "decimals": "-1", "distribution": distribution, "n": str(n),
                       "seed": "42", "shape": "none", "threads": "256"},
            "status": "passed", "reason": "", "data": {"d": float(d), "n": float(n)},
            "extras": {"skyline_size": 1000.0}, "facts": {},
            "validation": {"mode": "sample", "checked": 4096, "failures": 0},
            "timing": {"unit": "ms", "mode": "hot", "warmup": 1, "samples": [ms], "median": ms,
                       "min": ms, "max": ms, "mean": ms, "stddev": 0.0, "cv": 0.0},
            "metrics": {"points_per_s": n / ms / 1e3, "unit": "Mpoints/s", "work": float(n)}}


def results(seed_forms=True, second_n=None):
    """Every step at each d of both distributions: ladder's four at one time each (no gain),
    the seed's forms (when asked) at seed_form_ms; with `second_n` (a factor of the time, given
    the form, the step and the distribution), naive and APC in both forms again at SECOND_N
    points (sweep apc_n) at a hundredth of their time at N times that factor."""
    runs = [run(v, d, dist, 100.0 * (d / 8) ** 2) for dist in DISTRIBUTIONS for d in DS
            for v in ("naive", "apc", "dwe", "alr")]
    if seed_forms:
        runs += [run(f"{v}_seed", d, dist, seed_form_ms(v, d)) for dist in DISTRIBUTIONS
                 for d in DS for v in ("naive", "apc", "dwe", "alr")]
    if second_n:
        ms = lambda form, v, d: seed_form_ms(v, d) if form != v else 100.0 * (d / 8) ** 2  # noqa: E731
        runs += [run(form, d, dist, ms(form, v, d) / 100 * second_n(form, v, dist),
                     SECOND_N, "apc_n")
                 for dist in DISTRIBUTIONS for d in DS for v in ("naive", "apc")
                 for form in (v, f"{v}_seed")]
    return {"schema_version": 1,
            "ladder": {"version": "0.1.0", "git_commit": "abc123", "build_type": "Release",
                       "cuda_arch": "90"},
            "host": {"cpu": "Test CPU", "cores": 16},
            "device": {"present": True, "name": "NVIDIA H100 80GB HBM3",
                       "compute_capability": "9.0", "sm_count": 132},
            "config": {"name": "skyline-paper", "study": "skyline",
                       "sweeps": [{"label": "fig11"}]},
            "config_path": "configs/skyline/paper.json",
            "started_at": "2026-01-01T00:00:00Z", "finished_at": "2026-01-01T00:01:00Z",
            "summary": {}, "runs": runs}


def find(claims, target, start):
    found = [c for c in claims if c.target == target and c.claim.startswith(start)]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} claims of {target} start with {start!r}")
    return found[0]


class SeedForms(unittest.TestCase):
    def section(self, content):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "skyline-paper.json").write_text(json.dumps(content), encoding="utf-8")
            ctx = rc.Context(tmp, {"scale": "paper", "configs": [
                {"study": "skyline", "name": "skyline-paper", "state": "ran",
                 "results": "skyline-paper.json"}]})
            return report_skyline.section(ctx)

    def test_the_seeds_claims_are_judged_on_its_forms(self):
        claims = self.section(results()).claims
        for target, start in TECHNIQUE:
            with self.subTest(target=target, claim=start):
                c = find(claims, target, start)
                self.assertEqual(c.source, rc.FROM_SEED)
                self.assertEqual(c.verdict, rc.REPRODUCES, c.why)
                self.assertTrue(c.quote)
                self.assertNotIn(report_skyline.NO_SEED_FORMS, c.why)
        # The seed's forms' own numbers: APC 12% under naive at every d, DWE 35% under APC
        # without d = 8 and 16.
        self.assertTrue(find(claims, PANELS[0], "APC ~11%").ours.startswith("+12%"))
        self.assertTrue(find(claims, PANELS[1], "DWE ~36%").ours.startswith("+35%"))
        self.assertIn("d=8: 3x naive's time", find(claims, PANELS[0], "DWE slower").ours)

    def test_ladders_steps_are_its_own_checks_apart(self):
        claims = self.section(results()).claims
        for target, start in TECHNIQUE:
            with self.subTest(target=target, claim=start):
                c = find(claims, target, report_skyline.LADDERS + start)
                self.assertEqual(c.source, rc.FROM_LADDER)
                self.assertEqual((c.quote, c.place), ("", ""))
                if (target, start) in GAINS:  # ladder's four steps take one time each here
                    self.assertEqual(c.verdict, rc.DOES_NOT)
                    self.assertTrue(c.ours.startswith("+0"), c.ours)
        seed = [c for c in claims if c.source == rc.FROM_SEED]
        ladders = [c for c in claims if c.source == rc.FROM_LADDER]
        self.assertEqual(len(ladders), len(TECHNIQUE) + 2)  # the skyline sizes, APC at any n
        self.assertEqual(len(seed), len(TECHNIQUE) + 1)  # and APC's gain at any n

    def test_apcs_gain_at_any_n_needs_a_second_n(self):
        claims = self.section(results()).claims
        for start in ("", report_skyline.LADDERS):
            c = find(claims, APC_ANY_N[0], start + APC_ANY_N[1])
            self.assertEqual(c.verdict, rc.NOT_MEASURED)
            self.assertEqual((c.rule, c.thresholds), ("", ()))
            self.assertIn("needs naive and APC at a second n", c.why)
            self.assertIn("n = 1,000,000 only", c.why)

    def test_apcs_gain_at_any_n_judged_at_the_second_n(self):
        """The same gain at 10^5 points as at 10^6 on both distributions: the seed's claim
        holds on its forms (APC 12% under naive: 1.14x), and ladder's check on its forms (no
        gain at either n: 1x over 1x); judged by the "same" rule, one ratio per distribution."""
        claims = self.section(results(second_n=lambda form, v, dist: 1.0)).claims
        c = find(claims, *APC_ANY_N)
        self.assertEqual(c.source, rc.FROM_SEED)
        self.assertEqual(c.verdict, rc.REPRODUCES, c.why)
        self.assertEqual(c.rule, "same")
        self.assertEqual(c.thresholds, (1 / rc.SAME, rc.SAME))
        self.assertEqual(c.quote, report_skyline.SAID["apc_any_n"][0])
        for dist in ("independent", "anti-correlated"):
            self.assertIn(f"{dist}: 1.14x at n = 100,000 over 1.14x at n = 1,000,000: 1x", c.ours)
        ladders = find(claims, APC_ANY_N[0], report_skyline.LADDERS + APC_ANY_N[1])
        self.assertEqual(ladders.source, rc.FROM_LADDER)
        self.assertEqual(ladders.verdict, rc.REPRODUCES, ladders.why)
        self.assertIn("independent: 1x at n = 100,000 over 1x at n = 1,000,000: 1x", ladders.ours)

    def test_apcs_gain_at_any_n_turns_with_the_times(self):
        """APC's seed form twice as fast at 10^5 points on anti-correlated data (a gain of
        2.27x against 1.14x: 2x, over the rule's 1.5x): partly; on both, does not reproduce.
        Ladder's forms, unchanged, keep their verdict."""
        for dists, verdict in ((("anticorrelated",), rc.PARTLY),
                               (DISTRIBUTIONS, rc.DOES_NOT)):
            factor = lambda form, v, dist: 0.5 if form == "apc_seed" and dist in dists else 1.0
            claims = self.section(results(second_n=factor)).claims
            with self.subTest(dists=dists):
                c = find(claims, *APC_ANY_N)
                self.assertEqual(c.verdict, verdict, c.why)
                self.assertIn("anti-correlated: 2.27x at n = 100,000 over 1.14x", c.ours)
                self.assertIn("anti-correlated data at n = 100,000", c.why)
                self.assertEqual("independent data" in c.why, verdict == rc.DOES_NOT)
                ladders = find(claims, APC_ANY_N[0], report_skyline.LADDERS + APC_ANY_N[1])
                self.assertEqual(ladders.verdict, rc.REPRODUCES)

    def test_a_seed_forms_time_moves_the_seeds_claim_alone(self):
        content = results()
        for r in content["runs"]:
            if r["variant"] == "apc_seed":  # APC's layout gains nothing in the seed's form
                naive = seed_form_ms("naive", int(r["params"]["d"]))
                r["timing"].update(median=naive, min=naive, max=naive, mean=naive,
                                   samples=[naive])
        claims = self.section(content).claims
        before = self.section(results()).claims
        for panel, start in ((PANELS[0], "APC ~11%"), (PANELS[1], "APC ~12%")):
            with self.subTest(panel=panel):
                self.assertEqual(find(claims, panel, start).verdict, rc.DOES_NOT)
                ladders = report_skyline.LADDERS + start
                self.assertEqual(find(claims, panel, ladders), find(before, panel, ladders))

    def test_without_the_seeds_forms_ladders_steps_are_judged_and_it_is_said(self):
        claims = self.section(results(seed_forms=False)).claims
        self.assertFalse([c for c in claims if c.claim.startswith(report_skyline.LADDERS)])
        for target, start in TECHNIQUE:
            with self.subTest(target=target, claim=start):
                c = find(claims, target, start)
                self.assertEqual(c.source, rc.FROM_SEED)
                self.assertIn(report_skyline.NO_SEED_FORMS, c.why)
                if (target, start) in GAINS:
                    self.assertEqual(c.verdict, rc.DOES_NOT)

    def test_the_tables_show_both_forms(self):
        body = self.section(results()).body
        for row in ("| APC vs naive (seed's forms) | 11% faster | +12%",
                    "| APC vs naive (ladder's forms) | 11% faster | +0",
                    "| anti-correlated | DWE (seed's form) | 8 |", "| 14  DWE (seed's form) |"):
            self.assertIn(row, body)
        plain = self.section(results(seed_forms=False)).body
        self.assertIn("| APC vs naive | 11% faster |", plain)
        self.assertNotIn("seed's form", plain.split("### Fig. 11c")[1])

    def test_results_are_not_changed(self):
        content = results()
        kept = copy.deepcopy(content)
        self.section(content)
        self.assertEqual(content, kept)


if __name__ == "__main__":
    unittest.main()

"""Tests of plots/eed/report.py and plots/skyline/report.py, the EED and skyline sections of
REPORT.md, on the committed H100 reference runs and on hand-edited copies of them (every GPU
run skipped, sweeps left out, quick scale, a missing config, peers not installed, times edited
so that a claim turns).

Run: PYTHONPATH=. python3 tests/plots/test_report_eed_skyline.py   (exits non-zero on failure; no
matplotlib needed)
"""
import copy
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import report  # noqa: E402
from plots import report_common as rc  # noqa: E402
from report_fixtures import load, skip_gpu, study_module  # noqa: E402
report_eed = study_module("eed", "report")
report_skyline = study_module("skyline", "report")

REFERENCE = ROOT / "results" / "reference" / "h100" / "development"
RE, PA, NO, NM = rc.REPRODUCES, rc.PARTLY, rc.DOES_NOT, rc.NOT_MEASURED
NC, UN = rc.NOT_COMPARABLE, rc.INCONCLUSIVE
# The peers by script name, as `ladder reproduce` names them in its manifest.
EED_PEERS = {"rapidfuzz": "eed-paper-rapidfuzz.json", "stringzilla": "eed-paper-stringzilla.json"}

# The verdicts on the H100 reference runs, by (target, start of the claim).
EED_EXPECTED = {
    ("EED Fig. 5", "H_CUDA's and sH_CUDA's preprocessing ~16-63x"): PA,
    # slowest 1.85x and 20.6x the fastest: over the "same" rule's 1.5x at both lengths
    ("EED Fig. 5", "pH_CUDA (parallel), H_CUDA and sH_CUDA preprocess"): NO,
    ("EED Fig. 5", "pH_CUDA's parallel preprocessing faster"): RE,  # 5.83x and 1.69x
    ("EED Table 1", "GTX 660 times"): NC,  # a GTX 660's times on an H100
    ("EED Fig. 6", "sH_CUDA ~10-14x faster than pH_CUDA"): PA,
    ("EED Fig. 6", "sH_CUDA ~2.6x faster than H_CUDA"): PA,
    ("EED Table 2", "GTX 660 times"): NC,
    # 1.02x at n = 100, its samples 0.94x-1.08x: across the 1.05x a gain must reach, so
    # partly or does not reproduce (0.998x at n = 1000)
    ("EED Fig. 7", "H_CUDA ~1.4-1.6x faster than pH_CUDA"): UN,
    # 1.08x at n = 100 (samples 0.98x-1.15x) and a gain, 1.49x, at n = 1000: partly either way
    ("EED Fig. 7", "sH_CUDA ~2.4-3.6x faster than pH_CUDA"): PA,
    ("EED Fig. 7", "multi-block"): PA,
    ("EED Fig. 7", "pH_CUDA's 100 pairs ~100x slower"): RE,  # 87.1x, in the band 50.5-199x
    ("EED Table 3", "GTX 660 times"): NC,
    ("EED Table 4", "GTX 660 times"): NC,
    ("EED Table 4", "printed on the device: H_CUDA and sH_CUDA ~19-25x"): PA,
    ("EED Table 4", "printed on the device: sH_CUDA ~1.5x slower"): NO,
    ("EED Table 4", "printed on the device: about the same time for H_CUDA"): RE,
    # our sequential step for the paper's pH: 1.5x and 4.11x, gains below the band 6.5-23x
    ("EED Table 4", "printed on the device: pH_CUDA ~12x"): PA,
    # sH_CUDA's total over its compute stage, 1.02x: the copies cost next to nothing here
    ("EED Table 4", "printed on the device: sH_CUDA ~29x"): NO,
    # a GTX 660's time on an H100, which no run of ours times apart
    ("EED Table 4", "printed on the device: sH_CUDA's shared-memory"): NC,
}
# A claim no run of ours can measure: not comparable on another GPU, else not measured.
EED_UNRUN = ("EED Table 4", "printed on the device: sH_CUDA's shared-memory")
SKYLINE_EXPECTED = {
    **{(panel, claim): verdict
       for panel, gains in (("Skyline Fig. 11a", (11, 28, 82, 78)),
                            ("Skyline Fig. 11b", (12, 36, 83, 83)))
       for claim, verdict in ((f"APC ~{gains[0]}% faster than naive", NO),
                              (f"DWE ~{gains[1]}% faster than APC", NO),
                              ("DWE slower than naive at d = 8, 16", RE),
                              (f"ALR ~{gains[2]}% faster than DWE", PA),
                              (f"ALR ~{gains[3]}% faster than naive", NO),
                              # ALR/naive grows from d to d + 1 at some d, not at all
                              ("ALR's gain over naive larger with fewer attributes", PA))},
    ("Skyline Fig. 11a", "skyline size"): RE,
    # the reference ran naive and APC at one n (before sweep apc_n): "similar at any n" is not
    # judged
    ("Skyline Fig. 11a, 11b", "APC's gain over naive about the same at any n"): NM,
    ("Skyline Fig. 11c", "anti-correlated: DWE slower"): RE,
    ("Skyline Fig. 11c", "anti-correlated: ALR's padding"): RE,
}
# The claims on absolute times: not judged at quick scale.
EED_ABSOLUTE = [(f"EED Table {t}", "GTX 660 times") for t in (1, 2, 3, 4)]
ALR_REASON = "no test that compares every attribute twice"






def without(results, *sweeps):
    results["runs"] = [r for r in results["runs"] if r.get("sweep") not in sweeps]
    return results


def shrink(results, n):
    """The skyline runs of 10^6 points relabelled as n points (quick scale's data)."""
    for run in results["runs"]:
        if run["params"].get("n") == "1000000":
            run["params"]["n"], run["data"]["n"] = str(n), float(n)
    return results


def run_of(results, sweep, variant, **params):
    return next(r for r in results["runs"] if r["sweep"] == sweep and r["variant"] == variant
                and all(r["params"].get(k) == str(v) for k, v in params.items()))


def set_ms(run, ms, stages=None):
    run["timing"]["median"] = ms
    if stages:
        run["timing"]["stage_medians"].update(stages)


def find(claims, target, start):
    found = [c for c in claims if c.target == target and c.claim.startswith(start)]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} claims of {target} start with {start!r}: "
                             f"{[c.claim for c in claims if c.target == target]}")
    return found[0]


class Case(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.eed, cls.skyline = load("eed-paper.json"), load("skyline-paper.json")
        cls.peers = {peer: load(f) for peer, f in EED_PEERS.items()}

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def context(self, eed=None, skyline=None, scale="paper", peers="ran", figures=()):
        """A reproduction directory holding copies of the given results (None: that config
        has no results), the EED peers in state `peers`."""
        out = Path(self.tmp.name)
        manifest = {"scale": scale, "configs": [], "peers": [], "figures": list(figures)}
        for name, study, results in (("eed-paper", "eed", eed),
                                     ("skyline-paper", "skyline", skyline)):
            entry = {"study": study, "name": name, "state": "ran"}
            if results is not None:
                (out / f"{name}.json").write_text(json.dumps(results), encoding="utf-8")
                entry["results"] = f"{name}.json"
            manifest["configs"].append(entry)
        for peer, results in self.peers.items():
            entry = {"study": "eed", "peer": peer, "config": "eed-paper", "state": peers,
                     "why": "" if peers == "ran" else "its Python module is not installed"}
            if peers == "ran":
                (out / EED_PEERS[peer]).write_text(json.dumps(results), encoding="utf-8")
                entry["results"] = EED_PEERS[peer]
            manifest["peers"].append(entry)
        return rc.Context(out, manifest)

    def ref(self, which):
        return copy.deepcopy(self.eed if which == "eed" else self.skyline)

    def sections(self, **kwargs):
        ctx = self.context(**kwargs)
        return report_eed.section(ctx), report_skyline.section(ctx)

    def check_verdicts(self, claims, expected):
        for (target, start), verdict in expected.items():
            with self.subTest(target=target, claim=start):
                self.assertEqual(find(claims, target, start).verdict, verdict)


class OnTheReference(Case):
    def test_every_target_and_claim_with_its_verdict(self):
        eed, skyline = self.sections(eed=self.ref("eed"), skyline=self.ref("skyline"))
        self.assertEqual(len(eed.claims), len(EED_EXPECTED))
        self.assertEqual(len(skyline.claims), len(SKYLINE_EXPECTED))
        self.check_verdicts(eed.claims, EED_EXPECTED)
        self.check_verdicts(skyline.claims, SKYLINE_EXPECTED)
        self.assertEqual({c.target for c in eed.claims}, set(report_eed.TARGETS))

    def test_a_claim_that_does_not_fully_reproduce_says_why(self):
        eed, skyline = self.sections(eed=self.ref("eed"), skyline=self.ref("skyline"))
        for c in eed.claims + skyline.claims:
            with self.subTest(target=c.target, claim=c.claim):
                if c.verdict in (PA, NO, NC, UN, NM):
                    self.assertTrue(c.why)
                else:  # a gain between steps that holds says only what the profiles say
                    # (and, on these runs, that the seed's own forms did not run)
                    parts = [part for part in c.why.split("; ")
                             if part and part != report_skyline.NO_SEED_FORMS]
                    if c.claim.startswith("DWE slower than naive"):  # the seed's cause, not ours
                        self.assertTrue(parts and parts[0].startswith(
                            "slower here, but not from bank conflicts"), c.why)
                        parts = parts[1:]
                    self.assertTrue(all(part.startswith("profile")
                                        for part in parts), c.why)

    def test_alr_against_naive_quotes_the_hopper_reason(self):
        _eed, skyline = self.sections(skyline=self.ref("skyline"))
        for panel, gain in (("Skyline Fig. 11a", 78), ("Skyline Fig. 11b", 83)):
            claim = find(skyline.claims, panel, f"ALR ~{gain}% faster than naive")
            self.assertIn(ALR_REASON, claim.why)

    def test_the_papers_numbers_stand_beside_ours(self):
        eed, skyline = self.sections(eed=self.ref("eed"), skyline=self.ref("skyline"))
        # Table 2, sH_CUDA at n = 1000: the paper's 221 ms, ours 2.98 ms, 74.2x.
        self.assertRegex(eed.body, r"\| sH_CUDA sh_cuda \| 10.2 ms \| 0.0938 ms \| 109x \| "
                                   r"221 ms \| 2.98 ms \| 74.2x \|")
        self.assertIn("RapidFuzz", eed.body)
        self.assertIn("StringZilla (Levenshtein on the GPU: no swaps", eed.body)
        # Our times per d and step, and the expected sizes beside ours.
        self.assertRegex(skyline.body, r"\| 7  ALR \| 94.2 ms \| 303 ms \| 3.5 s \|")
        self.assertIn("| expected size | 14 | 509 | 30,701 |", skyline.body)
        self.assertIn("| anti-correlated | DWE | 8 | 5.67 s | 4.22 s | 0.744x |", skyline.body)

    def test_an_emulated_step_and_an_unknown_limit_are_said(self):
        eed = self.ref("eed")
        for run in eed["runs"]:
            if run["variant"] == "warp_rows":
                run["emulated"] = "DPX instructions are emulated before compute capability 9.0"
            if "peak" in run["metrics"]:
                del run["metrics"]["peak"], run["metrics"]["peak_rule"]
                run["metrics"].update(pct_of_peak=None, peak_reason="no row for this GPU")
        body = self.sections(eed=eed)[0].body
        self.assertRegex(body, r"\| \d+  warp per pair, rows in registers \(emulated\) \| "
                               r"[^|]+ \| [^|]+ \| limit unknown \|")
        self.assertNotIn("(emulated)", self.sections(eed=self.ref("eed"))[0].body)

    def test_figures_are_embedded_and_many_are_linked(self):
        ladders = [f"figures/eed_ladder_n{n}_pairs100.png" for n in range(100, 1100, 100)]
        figures = ["figures/eed_fig5.png", "figures/eed_fig6.png", "figures/eed_fig7.png",
                   "figures/eed_tables.png", "figures/skyline_fig11_n1000000.png",
                   "figures/skyline_sizes_n1000000.png", "figures/skyline_fig11c_n1000000.png",
                   "figures/skyline_ladder_d2_n1000000.png",
                   "figures/skyline_ladder_d8_n1000000.png"] + ladders
        eed, skyline = self.sections(eed=self.ref("eed"), skyline=self.ref("skyline"),
                                     figures=figures)
        for name in ("eed_fig5", "eed_fig6", "eed_fig7", "eed_tables"):
            self.assertIn(f"](figures/{name}.png)", eed.body)
            self.assertIn("![", eed.body)
        self.assertIn("[n1000](figures/eed_ladder_n1000_pairs100.png)", eed.body)
        self.assertNotIn("![The ladder", eed.body)  # ten ladders: links, not images
        for name in ("fig11_n1000000", "sizes_n1000000", "fig11c_n1000000",
                     "ladder_d2_n1000000", "ladder_d8_n1000000"):
            self.assertIn(f"](figures/skyline_{name}.png)", skyline.body)

    def test_the_whole_report_holds_both_sections(self):
        ctx = self.context(eed=self.ref("eed"), skyline=self.ref("skyline"))
        text = report.build(ctx)
        self.assertNotIn("section failed", text)
        self.assertIn("## Extended edit distance (EED)", text)
        self.assertIn("## Skyline queries", text)
        self.assertIn("| Skyline queries | Skyline Fig. 11c |", text)


class WithoutAGpu(Case):
    def test_gpu_claims_are_not_measured_and_say_why(self):
        eed, skyline = self.sections(eed=skip_gpu(self.ref("eed")),
                                     skyline=skip_gpu(self.ref("skyline")), peers="not installed")
        for c in eed.claims + skyline.claims:
            if c.claim.startswith("skyline size"):
                continue
            with self.subTest(target=c.target, claim=c.claim):
                self.assertEqual(c.verdict, NM)
                if (c.target, c.claim[:len(EED_UNRUN[1])]) != EED_UNRUN:
                    self.assertIn("no CUDA device", c.why)
        self.assertIn("| 4  naive nested loop | skipped |", skyline.body)
        self.assertIn("not installed", eed.body)

    def test_the_cpu_steps_still_give_the_skyline_sizes(self):
        _eed, skyline = self.sections(skyline=skip_gpu(self.ref("skyline")))
        size = find(skyline.claims, "Skyline Fig. 11a", "skyline size")
        self.assertEqual(size.verdict, RE)  # the OpenMP runs at d = 2, 4 and 8
        self.assertIn("not measured at d = 12, 16", size.why)


class MissingSweeps(Case):
    def test_the_sweeps_a_scale_leaves_out_change_nothing(self):
        eed, skyline = self.sections(
            eed=without(self.ref("eed"), "alphabet", "long"),
            skyline=without(self.ref("skyline"), "cpu", "correlated", "scale", "sequential"))
        self.check_verdicts(eed.claims, EED_EXPECTED)
        self.check_verdicts(skyline.claims, SKYLINE_EXPECTED)
        self.assertIn("no run of sweep 'long'", eed.body)

    def test_a_missing_sweep_leaves_its_claims_not_measured(self):
        eed, skyline = self.sections(eed=without(self.ref("eed"), "one_pair"),
                                     skyline=without(self.ref("skyline"), "fig11"))
        for c in eed.claims:
            with self.subTest(target=c.target, claim=c.claim):
                one_pair = c.target in ("EED Fig. 7", "EED Table 3")
                self.assertEqual(c.verdict == NM, one_pair)
        for c in skyline.claims:
            with self.subTest(target=c.target, claim=c.claim):
                if not c.claim.startswith("skyline size"):  # the OpenMP runs give sizes
                    self.assertEqual(c.verdict, NM)
                    self.assertIn("no run of", c.why)

    def test_a_config_without_results(self):
        eed, skyline = self.sections()
        for c in eed.claims + skyline.claims:
            with self.subTest(target=c.target, claim=c.claim):
                self.assertEqual(c.verdict, NM)
                self.assertIn("has no results", c.why)
        self.assertEqual(len(eed.claims), len(EED_EXPECTED))
        self.assertEqual(len(skyline.claims), len(SKYLINE_EXPECTED))


class QuickScale(Case):
    def test_absolute_times_are_not_judged_relative_claims_are(self):
        eed = without(self.ref("eed"), "alphabet", "long")
        eed["runs"] = [r for r in eed["runs"] if r["params"].get("n") not in ("200", "300")]
        skyline = shrink(without(self.ref("skyline"), "cpu", "correlated", "scale"), 100000)
        eed_section, skyline_section = self.sections(eed=eed, skyline=skyline, scale="quick")
        for target, start in EED_ABSOLUTE:
            claim = find(eed_section.claims, target, start)
            self.assertEqual(claim.verdict, NM)
            self.assertTrue(claim.why.startswith("quick scale"))
            self.assertNotEqual(claim.ours, "-")  # shown, not judged
        relative = {k: v for k, v in EED_EXPECTED.items()
                    if k not in EED_ABSOLUTE and k != EED_UNRUN}
        self.check_verdicts(eed_section.claims, relative)
        for key in relative:
            self.assertIn("quick scale", find(eed_section.claims, *key).why)
        size = find(skyline_section.claims, "Skyline Fig. 11a", "skyline size")
        self.assertEqual(size.verdict, NM)
        self.assertIn("quick scale", size.why)
        gains = {k: v for k, v in SKYLINE_EXPECTED.items() if k[1] != "skyline size"}
        self.check_verdicts(skyline_section.claims, gains)
        self.assertIn("n = 100,000, the seed's 1,000,000",
                      find(skyline_section.claims, "Skyline Fig. 11a", "APC ~11%").why)
        self.assertIn("**Quick scale:**", eed_section.body)


class ClaimsTurn(Case):
    """Edited times move a claim across its rule: the rules are applied, not hard-coded."""

    def test_sh_cuda_at_the_papers_gain_over_h_cuda(self):
        eed = self.ref("eed")
        # The harness writes the L2's size now; these reference runs predate it.
        eed["device"]["l2_bytes"] = 50 * 2**20
        h = run_of(eed, "pairs_100", "h_cuda", n=1000)
        set_ms(run_of(eed, "pairs_100", "sh_cuda", n=1000), h["timing"]["median"] / 2.6)
        section = report_eed.section(self.context(eed=eed))
        self.assertEqual(find(section.claims, "EED Fig. 6", "sH_CUDA ~2.6x").verdict, RE)
        set_ms(run_of(eed, "pairs_100", "sh_cuda", n=1000), h["timing"]["median"] * 1.2)
        section = report_eed.section(self.context(eed=eed))
        claim = find(section.claims, "EED Fig. 6", "sH_CUDA ~2.6x")
        self.assertEqual(claim.verdict, NO)
        self.assertIn("the H100's 50 MB L2 (GTX 660: 384 KB)", claim.why)
        del eed["device"]["l2_bytes"]  # no size recorded: the L2 is named without one
        section = report_eed.section(self.context(eed=eed))
        self.assertTrue(find(section.claims, "EED Fig. 6", "sH_CUDA ~2.6x").why.startswith(
            "the H100's L2 (GTX 660: 384 KB) serves"))

    def test_a_slower_time_than_the_gtx_660(self):
        eed = self.ref("eed")
        for variant in ("ph_cuda", "h_cuda", "sh_cuda"):
            set_ms(run_of(eed, "one_pair", variant, n=1000), 30.0)  # the paper's worst: 23.4
        claim = find(report_eed.section(self.context(eed=eed)).claims, "EED Table 3", "GTX")
        self.assertEqual(claim.verdict, NC)  # on an H100: shown, not judged
        self.assertIn("other hardware: the seed's GeForce GTX 660", claim.why)
        self.assertIn("H_CUDA n=1000", claim.why)
        eed["device"]["name"] = "NVIDIA GeForce GTX 660"  # on the paper's GPU it is judged
        claim = find(report_eed.section(self.context(eed=eed)).claims, "EED Table 3", "GTX")
        self.assertEqual(claim.verdict, PA)
        self.assertIn("H_CUDA n=1000", claim.why)

    def test_alr_at_the_seeds_gain_over_dwe(self):
        skyline = self.ref("skyline")
        for run in skyline["runs"]:
            if run["sweep"] == "fig11" and run["variant"] == "alr":
                dwe = run_of(skyline, "fig11", "dwe", d=run["params"]["d"],
                             distribution=run["params"]["distribution"])
                set_ms(run, dwe["timing"]["median"] * 0.18)  # 82% faster
        claims = report_skyline.section(self.context(skyline=skyline)).claims
        self.assertEqual(find(claims, "Skyline Fig. 11a", "ALR ~82% faster than DWE").verdict,
                         RE)
        self.assertEqual(find(claims, "Skyline Fig. 11b", "ALR ~83% faster than DWE").verdict,
                         RE)

    def test_a_skyline_size_far_from_the_expected(self):
        skyline = self.ref("skyline")
        for run in skyline["runs"]:
            if run["params"].get("d") == "12" and run["params"]["distribution"] == "independent":
                run["extras"]["skyline_size"] = 200000.0
        size = find(report_skyline.section(self.context(skyline=skyline)).claims,
                    "Skyline Fig. 11a", "skyline size")
        self.assertEqual(size.verdict, PA)
        self.assertIn("off at d = 12", size.why)


class OnAnotherGpu(Case):
    """The why texts name the GPU of the results, its SM count and its L2: none is typed."""
    # (target, start of the claim): what its why says of the GPU, {gpu} its short name.
    GPU_WHY = {
        ("EED Fig. 5", "pH_CUDA (parallel), H_CUDA and sH_CUDA preprocess"):
            "grow with n on the {gpu},",
        ("EED Fig. 6", "sH_CUDA ~10-14x faster than pH_CUDA"):
            "one block, one SM of the {gpu}'s {sms} (the GTX 660 has 5),",
        ("EED Fig. 6", "sH_CUDA ~2.6x faster than H_CUDA"):
            "the {gpu}'s {l2} L2 (GTX 660: 384 KB) serves",
        ("EED Fig. 7", "sH_CUDA ~2.4-3.6x faster than pH_CUDA"):
            "at 1000 the {gpu}'s caches serve",
        ("EED Fig. 7", "multi-block"): "{fill} (the GTX 660 has 5):",
        ("EED Table 4", "printed on the device: H_CUDA and sH_CUDA ~19-25x"):
            "uses one SM of the {gpu}'s {sms} (the GTX 660 has 5)",
        ("EED Table 4", "printed on the device: sH_CUDA ~1.5x slower"):
            "the {gpu}'s {l2} L2 serves",
    }

    def on(self, name, sm_count, l2_bytes):
        eed = self.ref("eed")
        eed["device"].update(name=name, sm_count=sm_count, l2_bytes=l2_bytes)
        return self.sections(eed=eed)[0]

    def check(self, section, gpu, sms, l2, fill):
        for (target, start), text in self.GPU_WHY.items():
            claim = find(section.claims, target, start)
            with self.subTest(target=target, claim=start):
                self.assertIn(claim.verdict, (PA, NO, UN))  # its why is shown
                self.assertIn(text.format(gpu=gpu, sms=sms, l2=l2, fill=fill), claim.why)
        for c in section.claims:
            with self.subTest(target=c.target, claim=c.claim):
                self.assertNotIn("H100", c.why)
                self.assertNotIn("132", c.why)
                self.assertNotIn("50 MB", c.why)
        self.assertNotIn("H100", report_eed.RULES)

    def test_an_a100_is_named_with_its_sms_and_l2(self):
        section = self.on("NVIDIA A100-SXM4-40GB", 108, 41943040)
        self.check(section, "A100-SXM4-40GB", 108, "40 MB",
                   "100 blocks fill 100 of the A100-SXM4-40GB's 108 SMs")

    def test_fewer_sms_than_blocks_are_all_filled(self):
        section = self.on("Tesla V100-SXM2-16GB", 80, 6 * 2**20)
        self.check(section, "V100-SXM2-16GB", 80, "6 MB",
                   "100 blocks fill all 80 of the V100-SXM2-16GB's SMs")
        self.assertNotIn("fill 100 of", find(section.claims, "EED Fig. 7", "multi-block").why)

    def test_without_a_gpu_the_words_need_none(self):
        absent = skip_gpu(self.ref("eed"))
        ctx = self.context(eed=absent)
        for results in (None, ctx.results("eed-paper")):
            words = report_eed.gpu_words(results)
            self.assertEqual((words["the_gpu"], words["one_sm"], words["l2"]),
                             ("this GPU", "one of this GPU's SMs", "this GPU's L2"))
            for claim_id in report_eed.WHY:
                with self.subTest(claim=claim_id):
                    why = report_eed.known_why(claim_id, results)
                    self.assertNotRegex(why, r"H100|\{|\}|\b132\b")

    def test_short_device_names(self):
        for name, short in (("NVIDIA H100 80GB HBM3", "H100"), ("NVIDIA H200", "H200"),
                            ("NVIDIA A100-SXM4-40GB", "A100-SXM4-40GB"),
                            ("NVIDIA GeForce RTX 4090", "RTX 4090"), ("", "")):
            self.assertEqual(rc.short_hardware(name), short)


if __name__ == "__main__":
    unittest.main()

"""Tests of the profile's why of a gain between two steps (report_common.profile_why) and of the
sections that quote it: the exact phrase for given counters, which counters are quoted, the
point named, nothing without counters at the claim's point; the counters are those `ladder profile` wrote
for the DTW smoke config on an H100 (metric sets why and sass), and edited copies.

Run: PYTHONPATH=. python3 tests/plots/test_report_profile.py   (exits non-zero on failure)
"""
import copy
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import results as ladder_results  # noqa: E402
from plots import report_common as rc  # noqa: E402
from report_fixtures import load, study_module  # noqa: E402

report_dtw = study_module("dtw", "report")
report_eed = study_module("eed", "report")
report_skyline = study_module("skyline", "report")

# `ladder profile configs/dtw/smoke.json --metrics why`, sweep lengths: each run's derived
# counters (stall reasons under 0.1 cycles per instruction left out).
WHY = {
    ("shared", "33"): {
        "shared_conflict_share": 0.7422877292537701,
        "per_work_unit": {"thread_instructions": 11.104905861364728},
        "speed_of_light_pct": {"sm_pct": 0.22, "memory_pct": 0.72},
        "achieved_occupancy_pct": 1.5600000000000003,
        "stalls_per_instruction": {"long_scoreboard": 0.43, "selected": 1.0,
                                   "short_scoreboard": 3.19, "wait": 2.06}},
    ("subject_stream", "33"): {
        "shared_conflict_share": 0.000418147606104955,
        "per_work_unit": {"thread_instructions": 8.125697500532171},
        "speed_of_light_pct": {"sm_pct": 0.16, "memory_pct": 0.05},
        "achieved_occupancy_pct": 11.38,
        "stalls_per_instruction": {"dispatch_stall": 0.18, "long_scoreboard": 0.21,
                                   "not_selected": 0.4, "selected": 1.0,
                                   "short_scoreboard": 0.17, "wait": 1.0}},
    ("shared", "128"): {
        "shared_conflict_share": 0.491669223178786,
        "per_work_unit": {"thread_instructions": 9.272048491395642},
        "speed_of_light_pct": {"sm_pct": 0.72, "memory_pct": 6.58},
        "achieved_occupancy_pct": 1.56,
        "stalls_per_instruction": {"long_scoreboard": 2.99, "selected": 1.0,
                                   "short_scoreboard": 1.92, "wait": 2.07}},
    ("subject_stream", "128"): {
        "shared_conflict_share": 0.00022834308548594262,
        "per_work_unit": {"thread_instructions": 3.7947134911493694},
        "speed_of_light_pct": {"sm_pct": 0.89, "memory_pct": 0.36},
        "achieved_occupancy_pct": 11.82,
        "stalls_per_instruction": {"dispatch_stall": 0.21, "not_selected": 0.39,
                                   "selected": 1.0, "short_scoreboard": 0.13, "wait": 1.01}},
}
# The same with --metrics sass (kernel replay), n = 33.
SASS = {
    "naive": {"shared_conflict_share": 0.0, "branch_uniformity": 1.0,
              "per_work_unit": {"thread_instructions": 14.516292454569502}},
    "shared": {"shared_conflict_share": 0.7422877292537701, "branch_uniformity": 1.0,
               "per_work_unit": {"thread_instructions": 11.104905861364728}},
}


def run(variant, n, derived=None, skipped=None, **params):
    """A DTW smoke run of the sweep lengths at length n, with these counters or skipped."""
    params = {"entries": "1031", "n": str(n), "seed": "7", **params}
    raw = {"study": "dtw", "variant": variant, "sweep": "lengths", "params": params,
           "point": ",".join(f"{k}={v}" for k, v in sorted(params.items()))}
    if derived is not None:
        raw["profile"] = {"metric_set": "why", "work_unit": "cells", "derived": derived}
    elif skipped:
        raw["profile"] = {"skipped": skipped}
    return ladder_results.Run(raw, None)


def why_runs():
    return [run(v, n, d) for (v, n), d in WHY.items()]


class ProfileWhy(unittest.TestCase):
    def test_the_counters_that_moved_at_the_first_common_point(self):
        self.assertEqual(rc.profile_why(why_runs(), "shared", "subject_stream"),
                         "profile (n=33): conflict share 74% -> 0.042%, thread instr/cell "
                         "11.1 -> 8.13, occupancy 1.6% -> 11%")

    def test_the_claims_point_is_preferred(self):
        self.assertEqual(rc.profile_why(why_runs(), "shared", "subject_stream", {"n": 128}),
                         "profile (n=128): conflict share 49% -> 0.023%, thread instr/cell "
                         "9.27 -> 3.79, memory 6.6% -> 0.36%")
        # A point where the steps were not profiled: nothing, never another point's counters.
        self.assertEqual(rc.profile_why(why_runs(), "shared", "subject_stream", {"n": 64}), "")

    def test_sass_counters_and_the_direction(self):
        runs = [run(v, 33, d) for v, d in SASS.items()]
        self.assertEqual(rc.profile_why(runs, "naive", "shared"),
                         "profile: conflict share 0% -> 74%, thread instr/cell 14.5 -> 11.1")
        self.assertEqual(rc.profile_why(runs, "shared", "naive"),
                         "profile: conflict share 74% -> 0%, thread instr/cell 11.1 -> 14.5")

    def test_a_set_that_could_not_be_collected_is_named(self):
        runs = [run(v, 33, d) for v, d in SASS.items()]
        runs[1].raw["profile"]["missing"] = {"why": "under ncu the run failed:  out of\nmemory"}
        self.assertEqual(rc.profile_why(runs, "naive", "shared"),
                         "profile: conflict share 0% -> 74%, thread instr/cell 14.5 -> 11.1; "
                         "shared lacks why (under ncu the run failed: out of memory)")

    def test_the_top_stall_when_fewer_counters_moved(self):
        a, b = (copy.deepcopy(WHY[(v, "33")]) for v in ("shared", "subject_stream"))
        del a["achieved_occupancy_pct"], a["shared_conflict_share"]
        runs = [run("shared", 33, a), run("subject_stream", 33, b)]
        self.assertEqual(rc.profile_why(runs, "shared", "subject_stream"),
                         "profile: thread instr/cell 11.1 -> 8.13, top stall short scoreboard "
                         "3.19 -> wait 1")
        # 'selected' is the issue itself, never the top stall; the same reason is quoted
        # when its cycles moved by the factor.
        runs = [run("a", 33, {"stalls_per_instruction": {"selected": 1.0, "wait": 0.5}}),
                run("b", 33, {"stalls_per_instruction": {"selected": 1.0, "wait": 0.9}})]
        self.assertEqual(rc.profile_why(runs, "a", "b"), "profile: top stall wait 0.5 -> wait 0.9")
        runs[1] = run("b", 33, {"stalls_per_instruction": {"selected": 1.0, "wait": 0.55}})
        self.assertEqual(rc.profile_why(runs, "a", "b"), "profile: no counter moved")

    def test_thresholds(self):
        def why(x, y):
            return rc.profile_why([run("a", 33, x), run("b", 33, y)], "a", "b")
        share = "shared_conflict_share"
        self.assertEqual(why({share: 0.03}, {share: 0.0}), "profile: no counter moved")
        self.assertEqual(why({share: 0.05}, {share: 0.0}), "profile: conflict share 5% -> 0%")
        self.assertEqual(why({"achieved_occupancy_pct": 50}, {"achieved_occupancy_pct": 54.9}),
                         "profile: no counter moved")
        instr = {"per_work_unit": {"thread_instructions": 10.0}}
        self.assertEqual(why(instr, {"per_work_unit": {"thread_instructions": 8.4}}),
                         "profile: no counter moved")  # 1.19x
        self.assertEqual(why(instr, {"per_work_unit": {"thread_instructions": 8.3}}),
                         "profile: thread instr/cell 10 -> 8.3")
        # At most three, in the order of priority: the SM's speed of light is left out.
        many = {share: 0.5, "branch_uniformity": 0.7, "per_work_unit": {"thread_instructions": 2},
                "speed_of_light_pct": {"sm_pct": 20}}
        few = {share: 0.0, "branch_uniformity": 1.0, "per_work_unit": {"thread_instructions": 1},
               "speed_of_light_pct": {"sm_pct": 80}}
        self.assertEqual(why(many, few), "profile: conflict share 50% -> 0%, uniform branches "
                                         "70% -> 100%, thread instr/cell 2 -> 1")

    def test_without_counters_at_one_point_nothing(self):
        plain = [run("shared", 33), run("subject_stream", 33)]
        self.assertEqual(rc.profile_why(plain, "shared", "subject_stream"), "")
        cpu = [run("openmp", 33, skipped="cpu step"), run("shared", 33, WHY[("shared", "33")])]
        self.assertEqual(rc.profile_why(cpu, "openmp", "shared"), "")
        apart = [run("shared", 33, WHY[("shared", "33")]),
                 run("subject_stream", 128, WHY[("subject_stream", "128")])]
        self.assertEqual(rc.profile_why(apart, "shared", "subject_stream"), "")

    def test_a_steps_own_parameter_does_not_part_the_point(self):
        # EED's serial preprocessing is its own run (prep=serial) on the same data.
        runs = [run("ph_cuda", 33, WHY[("shared", "33")], prep="serial"),
                run("h_cuda", 33, WHY[("subject_stream", "33")])]
        self.assertTrue(rc.profile_why(runs, "ph_cuda", "h_cuda").startswith(
            "profile: conflict share 74% -> 0.042%"))

    def test_with_profile_appends_only_counters(self):
        self.assertEqual(rc.with_profile("known", [], "a", "b"), "known")
        self.assertEqual(rc.with_profile("", [], "a", "b"), "")
        self.assertEqual(rc.with_profile("known", why_runs(), "shared", "subject_stream",
                                         {"n": 128}).split("; ")[0], "known")


# ---- the sections -----------------------------------------------------------------------------

def add_profile(results, derived, **match):
    """Counters on the runs whose fields (sweep, variant) and params match."""
    hit = 0
    for r in results["runs"]:
        if all(r.get(k, r["params"].get(k)) == v for k, v in match.items()):
            r["profile"] = {"metric_set": "why", "work_unit": "cells", "derived": derived}
            hit += 1
    assert hit, match
    return results


def context(tmp, name, results):
    (Path(tmp) / f"{name}.json").write_text(json.dumps(results), encoding="utf-8")
    return rc.Context(tmp, {"scale": "paper", "peers": [], "figures": [],
                            "configs": [{"name": name, "results": f"{name}.json",
                                         "state": "ran"}]})


def claim(claims, start, target=None):
    found = [c for c in claims if c.claim.startswith(start) and target in (None, c.target)]
    assert len(found) == 1, (start, [c.claim for c in claims])
    return found[0]


class Sections(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_skyline_quotes_the_conflicts_alr_removes(self):
        skyline = load("skyline-paper")
        for variant, share in (("dwe", 0.73), ("alr", 0.0)):
            add_profile(skyline, {"shared_conflict_share": share, "branch_uniformity": 0.999},
                        sweep="fig11", variant=variant, d="8", distribution="anticorrelated")
        claims = report_skyline.section(context(self.tmp.name, "skyline-paper", skyline)).claims
        alr = claim(claims, "ALR ~83% faster than DWE", "Skyline Fig. 11b")
        self.assertEqual(alr.verdict, rc.PARTLY)
        self.assertIn("(variants/skyline/README.md); profile (d=8): conflict share 73% -> 0%",
                      alr.why)
        # Independent data has no profile, and DWE against naive none of naive: no counters
        # (these runs have no seed's forms, which every claim on the seed's steps says last).
        for words in ("ALR ~82% faster than DWE", "DWE ~36% faster than APC"):
            self.assertNotIn("profile", claim(claims, words).why)
            self.assertTrue(claim(claims, words).why.endswith(report_skyline.NO_SEED_FORMS))
        self.assertNotIn("not profiled", "".join(c.why for c in claims))

    def test_dtw_quotes_the_profile_of_each_gain(self):
        dtw = load("dtw-paper")
        add_profile(dtw, WHY[("shared", "128")], sweep="notes", variant="thread_local")
        add_profile(dtw, WHY[("subject_stream", "128")], sweep="notes", variant="shared")
        claims = report_dtw.section(context(self.tmp.name, "dtw-paper", dtw)).claims
        gain = claim(claims, "DP rows in shared memory ~4.3x faster than thread-local")
        self.assertEqual(gain.verdict, rc.PARTLY)
        self.assertTrue(gain.why.endswith(
            "; profile: conflict share 49% -> 0.023%, thread instr/cell 9.27 -> 3.79, "
            "memory 6.6% -> 0.36%"), gain.why)
        self.assertNotIn("profile", claim(claims, "naive CUDA ~10x slower").why)  # OpenMP: a CPU step
        # A gain that holds quotes the profiles where both have them: naive has none here.
        held = claim(claims, "thread-local DP rows ~11x")
        self.assertEqual((held.verdict, held.why), (rc.REPRODUCES, ""))

    def test_eed_names_each_faster_step_where_their_profiles_differ(self):
        eed = load("eed-paper")
        add_profile(eed, WHY[("shared", "33")], sweep="pairs_100", variant="ph_cuda", n="1000")
        add_profile(eed, WHY[("subject_stream", "33")], sweep="pairs_100", variant="sh_cuda",
                    n="1000")
        claims = report_eed.section(context(self.tmp.name, "eed-paper", eed)).claims
        why = claim(claims, "printed on the device: H_CUDA and sH").why
        self.assertIn("; profile (n=1000): conflict share 74% -> 0.042%", why)  # sH_CUDA's alone
        self.assertNotIn("H_CUDA:", why)
        self.assertIn("the number of SMs; profile (n=1000): conflict share 74%",
                      claim(claims, "sH_CUDA ~10-14x faster than pH_CUDA").why)

    def test_no_counter_is_typed_by_hand_in_a_why(self):
        # A why's numbers of a step (a share, a count per pair) come from the profile.
        texts = list(report_skyline.WHY.values()) + list(report_eed.WHY.values()) + list(
            report_eed.TABLE_WHY.values())
        for text in texts:
            with self.subTest(text=text[:40]):
                self.assertNotRegex(text, r"\d\s*%|\buniform\b.*\d|about \d+ attributes|"
                                          r"~?\d+(\.\d+)? ms on the H100")


if __name__ == "__main__":
    unittest.main()

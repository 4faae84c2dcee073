"""Tests of plots/report.py: the whole report from the committed H100 reference runs, from a
folder of runs without a GPU, and its refusals.

Run: PYTHONPATH=. python3 tests/plots/test_report.py   (exits non-zero on failure)
"""
import copy
import json
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLOTS = ROOT / "plots"
from plots import results as ladder_results  # noqa: E402
from plots import report  # noqa: E402
from plots import report_common as rc  # noqa: E402
from plots import report_summary  # noqa: E402
from report_fixtures import skip_gpu  # noqa: E402

REFERENCE = ROOT / "results" / "reference" / "h100" / "development"
PAPER_FILES = ["dtw-paper", "covariance-paper", "covariance-chunk-sweep", "twed-paper",
               "twed-paper-cutwed", "twed-validation", "twed-validation-cutwed", "eed-paper",
               "eed-paper-rapidfuzz", "eed-paper-stringzilla", "skyline-paper"]
# The twelve targets, by the names the sections give them.
TARGETS = ["DTW ladder", "chunk_size", "Fig. 9a", "Fig. 9b", "Fig. 10", "Table 2", "Fig. 5",
           "Fig. 6", "Fig. 7", "Table 1", "Table 3", "Fig. 11a", "Fig. 11b", "Fig. 11c"]


def raw(path):
    """A results file as written (a copy to edit), read by the one results reader."""
    return copy.deepcopy(ladder_results.load(path).raw)


def manifest_for(tmp, files, scale="paper"):
    """A manifest as `ladder reproduce` writes it, over copies of `files` (no figures drawn)."""
    configs, peers = [], []
    for f in files:
        results = raw(f)
        (Path(tmp) / Path(f).name).write_text(json.dumps(results), encoding="utf-8")
        name = results["config"]["name"]
        study = results["runs"][0]["study"]
        if all(r.get("role") == "peer" for r in results["runs"]):
            peers.append({"study": study, "peer": results["runs"][0]["variant"], "config": name,
                          "results": Path(f).name, "state": "ran", "why": ""})
        else:
            configs.append({"study": study, "name": name, "path": results.get("config_path"),
                            "results": Path(f).name, "state": "ran", "elapsed_s": 1.0})
    first = raw(files[0])
    return {"scale": scale, "ladder": first["ladder"], "device": first["device"],
            "host": first["host"], "started_at": first["started_at"],
            "finished_at": first["finished_at"], "elapsed_s": 12.0, "configs": configs,
            "peers": peers, "figures": []}


class WholeReport(unittest.TestCase):
    def build(self, files, scale="paper", edit=None):
        with tempfile.TemporaryDirectory() as tmp:
            if edit:
                edited = []
                for f in files:
                    results = edit(raw(f))
                    path = Path(tmp) / "src" / Path(f).name
                    path.parent.mkdir(exist_ok=True)
                    path.write_text(json.dumps(results), encoding="utf-8")
                    edited.append(path)
                files = edited
            manifest = manifest_for(tmp, files, scale)
            ctx = rc.Context(tmp, manifest)
            return report.build(ctx), [s for _heading, s in report.sections(ctx)]

    def test_reference_runs_cover_every_target(self):
        text, sections = self.build([REFERENCE / f"{f}.json" for f in PAPER_FILES])
        self.assertNotIn("section failed", text)
        self.assertNotIn("could not be loaded", text)
        self.assertEqual([s.title for s in sections], [
            "DTW ladder", "Covariance chunk_size sweep", "Time Warp Edit Distance (TWED)",
            "Extended edit distance (EED)", "Skyline queries"])  # in the seeds' order
        for target in TARGETS:
            self.assertIn(target, text, f"target {target!r} missing from the report")
        for s in sections:
            self.assertTrue(s.claims, f"section {s.title!r} makes no claim")
        verdicts = {c.verdict for s in sections for c in s.claims}
        self.assertIn(rc.REPRODUCES, verdicts)
        self.assertIn("NVIDIA H100", text)
        self.assertIn("## Summary", text)
        # The summary's counts add up to the claims and read as plurals.
        seed = report.seed_claims([c for s in sections for c in s.claims])  # ladder's checks apart
        counts = {v: sum(c.verdict == v for c in seed) for v in rc.VERDICTS}
        self.assertGreater(counts[rc.REPRODUCES], 1)
        self.assertIn(f"{sum(counts.values())} claims: {counts[rc.REPRODUCES]} reproduce,", text)
        if counts[rc.DOES_NOT] > 1:
            self.assertIn(f"{counts[rc.DOES_NOT]} do not reproduce", text)
        # The seeds' absolute times were taken on other GPUs than an H100.
        self.assertGreater(counts[rc.NOT_COMPARABLE], 0)
        self.assertIn(f"{counts[rc.NOT_COMPARABLE]} not comparable", text)
        # The summary comes first; the rules are stated once, after it, before the claims.
        self.assertEqual(text.count("How claims are judged."), 1)
        self.assertLess(text.index("## Summary"), text.index("How claims are judged."))
        self.assertLess(text.index("How claims are judged."), text.index("## Claims"))
        for verdict in rc.VERDICTS:  # each verdict defined, each kind of claim with its rule
            self.assertIn(f"**{verdict}**", text)
        for kind in rc.RULES:
            self.assertIn(f"| **{kind}** |", text)

    def test_without_a_gpu_gpu_claims_are_not_measured(self):
        text, sections = self.build([REFERENCE / f"{f}.json" for f in PAPER_FILES
                                     if "cutwed" not in f and "rapidfuzz" not in f
                                     and "stringzilla" not in f], edit=skip_gpu)
        self.assertNotIn("section failed", text)
        self.assertIn("no GPU", text)
        claims = [c for s in sections for c in s.claims]
        self.assertTrue(claims)
        self.assertTrue(any(c.verdict == rc.NOT_MEASURED for c in claims))
        # Nothing measured on a GPU can be judged to reproduce.
        for c in claims:
            if c.verdict == rc.REPRODUCES:
                self.assertNotIn("GPU", c.target)

    def test_an_empty_reproduction_still_reports(self):
        with tempfile.TemporaryDirectory() as tmp:
            manifest = {"scale": "quick", "configs": [], "peers": [], "figures": []}
            text = report.build(rc.Context(tmp, manifest))
        self.assertIn("quick", text)
        self.assertNotIn("section failed", text)


class SummaryPage(unittest.TestCase):
    """The report opens with a page a researcher reads in a minute (report_summary.py)."""

    def test_the_first_screen_is_the_summary(self):
        files = [REFERENCE / f"{f}.json" for f in PAPER_FILES]
        with tempfile.TemporaryDirectory() as tmp:
            ctx = rc.Context(tmp, manifest_for(tmp, files))
            text = report.build(ctx, draw_into=Path(tmp) / "figures")
            for suffix in (".png", ".pdf"):
                self.assertTrue((Path(tmp) / "figures" / f"summary{suffix}").is_file())
        headings = [line for line in text.splitlines() if line.startswith("## ")]
        self.assertEqual(headings[0], "## Summary")
        page = text[text.index("## Summary"):text.index("How claims are judged.")]
        self.assertLess(text.index("How claims are judged."), text.index(headings[1]))
        # A screen: the hardware, the counts, the figure, the best-step table, what did not run.
        self.assertLess(len(page.splitlines()), 45, page)
        for needed in ("- **GPU:** NVIDIA H100", "- **CPU:**", "- **Commit:**", " claims: ",
                       "](figures/summary.png)", "our best GPU step", "**Not run**"):
            self.assertIn(needed, page)
        # The figure's numbers are the rows of the claims table.
        claims = report.seed_claims([c for _h, s in report.sections(ctx) for c in s.claims])
        table = text[text.index("## Claims"):]
        for number, claim in report_summary.numbered(claims):
            self.assertIn(f"| {number} | ", table)
            self.assertIn(f"| {number} | {self.title_of(claim, ctx)} | {claim.target} |", table)
        self.assertGreater(len(report_summary.numbered(claims)), 20)

    def test_each_study_in_a_line_with_what_does_not_hold_and_why(self):
        files = [REFERENCE / f"{f}.json" for f in PAPER_FILES]
        with tempfile.TemporaryDirectory() as tmp:
            ctx = rc.Context(tmp, manifest_for(tmp, files))
            text = report.build(ctx)
            found = report.sections(ctx)
        page = text[text.index("## Summary"):text.index("How claims are judged.")]
        for _h, s in found:
            seed = report.seed_claims(s.claims)
            line = next(l for l in page.splitlines() if l.startswith(f"- **{s.title}**: "))
            self.assertIn(f"{len(seed)} claims: ", line)
            failing = [c for c in seed if c.verdict == rc.DOES_NOT]
            if failing:  # the first that does not hold, with a reason from its why
                self.assertIn(f"Does not hold: {failing[0].claim}", line)
                if report_summary.reason(failing[0]):
                    self.assertIn(report_summary.reason(failing[0]), line)
            else:
                self.assertNotIn("Does not hold", line)

    @staticmethod
    def title_of(claim, ctx):
        return next(s.title for _h, s in report.sections(ctx) if claim in s.claims)

    def test_best_step_table_holds_the_peers(self):
        files = [REFERENCE / f"{f}.json" for f in PAPER_FILES]
        with tempfile.TemporaryDirectory() as tmp:
            table = report_summary.best_table(rc.Context(tmp, manifest_for(tmp, files)))
        rows = [line.split(" | ") for line in table.splitlines()[2:]]
        self.assertEqual({r[0].strip("| ") for r in rows}, {"dtw", "covariance", "twed", "eed", "skyline"})
        # A peer stands beside our step of its own precision: cuTWED's fp64 calls beside an fp64
        # step, its fp32 calls beside an fp32 one, at the point where cuTWED is fastest.
        twed = [r for r in rows if r[0] == "| twed"]
        self.assertEqual(sorted(c[5].split(":")[0] for c in twed),
                         ["cuTWED 2.0.2 (fp32)", "cuTWED 2.0.2 (fp64)"])
        self.assertEqual(len({c[1] for c in twed}), 1)
        for c in twed:
            self.assertEqual("fp32" in c[2], "(fp32)" in c[5], c)
        # EED's best peer is StringZilla at its own best size (its int and our int32 alike).
        eed = [r for r in rows if r[0] == "| eed"]
        self.assertEqual(len(eed), 1, eed)
        self.assertIn("StringZilla", eed[0][5])
        self.assertIn("pairs=10000", eed[0][1])
        self.assertIn("DIFFERENT distance", eed[0][8])  # the peer's note says what differs
        for r in rows:  # no share of a limit past 100% (work a step skips is not counted)
            share = r[4]
            if share.endswith("limit"):
                self.assertLessEqual(float(share.split("%")[0]), 100.0, r)

    def test_best_step_table_is_like_for_like(self):
        """The canonical H100 reference under the old rules read DTW 14.3x (ours at n = 128,
        where cuDTW++ runs its length-255 kernel) and held the FP16 covariance step against
        TF32 libraries without saying so: now each study stands at its best peer's best point,
        one row per precision class a peer ran, and a faster step of another precision only in
        a row of its own that says so; every row gives both errors."""
        canonical = ROOT / "results" / "reference" / "h100"
        files = [canonical / f for f in (
            "dtw-paper.json", "dtw-paper-cudtw.json", "covariance-paper.json", "eed-paper.json",
            "eed-paper-stringzilla.json", "eed-paper-rapidfuzz.json", "skyline-paper.json",
            "skyline-paper-skyalign.json", "skyline-paper-skybench.json")]
        with tempfile.TemporaryDirectory() as tmp:
            table = report_summary.best_table(rc.Context(tmp, manifest_for(tmp, files)))
        rows = [line.split(" | ") for line in table.splitlines()[2:]]
        dtw = [r for r in rows if r[0] == "| dtw"]
        self.assertIn("n=127", dtw[0][1])  # cuDTW++'s own length
        # the ratio with its interval: one process a run here, so the samples' range
        self.assertEqual(dtw[0][7], "1.91x (sample range 1.9x-1.91x, not a confidence interval)")
        self.assertNotIn("14.3x", table)
        self.assertTrue(all("other precision" in r[8] for r in dtw[1:]), dtw)
        cov = [r for r in rows if r[0] == "| covariance"]
        tf32 = [r for r in cov if "(tf32)" in r[5] and "TF32 wgmma" in r[2]]
        self.assertEqual([r[7].split(" (")[0] for r in tf32], ["3.92x"])  # TF32 against TF32
        for r in cov:
            if "FP16 wgmma" in r[2] and "3xFP16" not in r[2]:
                self.assertIn("faster only by another precision", r[8], r)
        for r in rows:
            if r[5] != "none run":
                self.assertNotIn("-", (r[3], r[6]), r)  # both errors shown
                self.assertIn("(sample range ", r[7], r)  # the ratio's interval

    def test_each_ratio_can_be_recomputed_by_hand(self):
        """A reader's check: each row of "The summary's ratios, by hand" names two runs (results
        file, variant, point); read from the raw files here, without the report's code, their
        metrics' quotient is the line's ratio and the like-for-like table's."""
        files = [REFERENCE / f"{f}.json" for f in PAPER_FILES]
        with tempfile.TemporaryDirectory() as tmp:
            ctx = rc.Context(tmp, manifest_for(tmp, files))
            section = report_summary.check_section(ctx)
            table = report_summary.best_table(ctx)
            lines = [line for line in section.splitlines() if line.startswith("- ")]
            ratios = [line.split(" | ")[7].split(" (")[0] for line in table.splitlines()[2:]
                      if line.split(" | ")[7] != "-"]
            self.assertEqual(len(lines), len(ratios))
            self.assertGreaterEqual(len(lines), 5)
            pattern = re.compile(r"`([^`]+)` (\S+)/(\S+) in sweep (\S+) at (\S+?)(?:, run_index \d+)?: "
                                 r"(\w+) ([0-9.e+-]+)")
            for line, printed in zip(lines, ratios):
                found = pattern.findall(line)
                self.assertEqual(len(found), 2, line)
                values = []
                for name, study, variant, sweep, point, metric, shown in found:
                    data = json.loads((Path(tmp) / name).read_text(encoding="utf-8"))
                    runs = [r for r in data["runs"] if r["variant"] == variant
                            and (r.get("sweep") or "-") == sweep and r["point"] == point
                            and r["status"] == "passed"]
                    self.assertEqual(len(runs), 1, line)
                    run = runs[0]
                    self.assertEqual(float(shown), float(f"{run['metrics'][metric]:.6g}"), line)
                    values.append(run["metrics"][metric])
                self.assertTrue(line.endswith(f"= {rc.fmt_ratio(values[0] / values[1])}"), line)
                self.assertEqual(rc.fmt_ratio(values[0] / values[1]), printed, line)

    def test_best_peer_of_two_releases(self):
        """StringZilla runs in two releases, two results files on one config (`ladder
        reproduce` runs peers/eed/stringzilla.py and stringzilla_paired.py): both are read, and
        EED's row stands where the faster release is at its best, with that release's run.
        5.3.2 at its best (100 pairs: blocks of a cross-product) is slower than 4.6.3's paired
        call at 10,000 pairs."""
        canonical = ROOT / "results" / "reference" / "h100"
        newest = canonical / "eed-paper-stringzilla.json"  # 5.3.2, every point at 100 pairs or 1

        def rows(tmp, peer_files):
            files = [REFERENCE / "eed-paper.json", *peer_files]  # ours at 10,000 pairs too
            table = report_summary.best_table(rc.Context(tmp, manifest_for(tmp, files)))
            return [line.split(" | ") for line in table.splitlines()[2:]
                    if line.startswith("| eed")]

        with tempfile.TemporaryDirectory() as tmp:
            paired = raw(REFERENCE / "eed-paper-stringzilla.json")  # 4.6.3, as this script names it
            self.assertEqual(paired["peer"]["version"], "4.6.3")
            for r in paired["runs"]:
                r["variant"] = "peer_stringzilla_levenshtein_paired"
            src = Path(tmp) / "src"
            src.mkdir()
            (src / "eed-paper-stringzilla_paired.json").write_text(json.dumps(paired))
            alone = rows(tmp, [newest])
            both = rows(tmp, [newest, src / "eed-paper-stringzilla_paired.json"])
        self.assertEqual(len(alone), 1, alone)
        self.assertIn("pairs=100,", alone[0][1])
        self.assertTrue(alone[0][5].startswith("StringZilla 5.3.2"), alone[0])
        self.assertEqual(len(both), 1, both)
        self.assertIn("pairs=10000", both[0][1])
        self.assertTrue(both[0][5].startswith("StringZilla 4.6.3"), both[0])
        self.assertIn("warp per pair, rows in offset form", both[0][2])  # our best step there


class Subsets(unittest.TestCase):
    """Any subset of a reproduction's files judges every claim it can as the whole does: a
    claim whose numbers are missing is `not measured`, never another verdict."""
    CANONICAL = ROOT / "results" / "reference" / "h100"

    def verdicts(self, files):
        with tempfile.TemporaryDirectory() as tmp:
            ctx = rc.Context(tmp, manifest_for(tmp, files))
            return {(s.title, c.target, c.claim): c.verdict
                    for _h, s in report.sections(ctx) for c in s.claims}

    def test_every_subset_agrees_with_the_whole(self):
        files = sorted(f for f in self.CANONICAL.glob("*.json")
                       if f.name not in ("reproduction.json", "claims.json"))
        whole = self.verdicts(files)
        self.assertGreater(len(whole), 50)
        judged = 0
        for subset in [[f] for f in files] + [[f for f in files if f != drop] for drop in files]:
            for key, verdict in self.verdicts(subset).items():
                if verdict != rc.NOT_MEASURED:
                    judged += 1
                    self.assertEqual(verdict, whole.get(key), f"{key} from "
                                     f"{[f.name for f in subset]}")
        self.assertGreater(judged, 400)  # each file alone judges its own study's claims


class AbsoluteRule(unittest.TestCase):
    """rc.absolute_verdict: the one rule for absolute times and throughputs."""

    def test_same_hardware(self):
        for ours, seed in (("NVIDIA TITAN X (Pascal)", "Titan X (Pascal)"),
                           ("Tesla P100-PCIE-16GB", "Tesla P100"),
                           ("NVIDIA GeForce GTX 660", "GeForce GTX 660")):
            self.assertTrue(rc.same_hardware(ours, seed), (ours, seed))
        for ours, seed in (("NVIDIA H100 80GB HBM3", "Titan X (Pascal)"),
                           ("NVIDIA H100 80GB HBM3", "Tesla P100"),
                           ("Intel(R) Xeon(R) Processor", "Xeon E5-2680v4"),  # no model number
                           ("", "Tesla P100")):
            self.assertFalse(rc.same_hardware(ours, seed), (ours, seed))

    def test_absolute_verdict(self):
        for verdict in (rc.REPRODUCES, rc.PARTLY, rc.DOES_NOT):
            self.assertEqual(rc.absolute_verdict(verdict, "NVIDIA H100 80GB HBM3", "Tesla P100"),
                             rc.NOT_COMPARABLE)
            self.assertEqual(rc.absolute_verdict(verdict, "Tesla P100-PCIE-16GB", "Tesla P100"),
                             verdict)
        self.assertEqual(rc.absolute_verdict(rc.NOT_MEASURED, "NVIDIA H100", "Tesla P100"),
                         rc.NOT_MEASURED)


class CommandLine(unittest.TestCase):
    def run_report(self, *args):
        return subprocess.run([sys.executable, "-m", "plots.report", *args],
                              capture_output=True, text=True, timeout=300)

    def test_missing_manifest_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            done = self.run_report(tmp)
            self.assertEqual(done.returncode, 2)
            self.assertIn("reproduction.json", done.stderr)
            self.assertFalse((Path(tmp) / "REPORT.md").exists())

    def test_report_is_written_whole(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "reproduction.json").write_text(json.dumps(
                {"scale": "paper", "configs": [], "peers": [], "figures": []}), encoding="utf-8")
            done = self.run_report(tmp)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()),
                             ["REPORT.md", "claims.json", "reproduction.json"])


if __name__ == "__main__":
    unittest.main()

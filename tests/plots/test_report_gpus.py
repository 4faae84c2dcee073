"""Tests of plots/gpus_report.py: the committed H100 quick reproduction beside a copy of it
passed off as an H200 (GPU times halved, one step left out, one run incorrect), and the
refusals.

Run: PYTHONPATH=. python3 tests/plots/test_report_gpus.py   (exits non-zero on failure)
"""
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from report_fixtures import REFERENCE

from plots import formats  # noqa: E402
from plots import report  # noqa: E402
from plots import report_common as rc  # noqa: E402

QUICK = REFERENCE.parent / "quick"
SCRIPT = "plots.gpus_report"  # run as python3 -m SCRIPT
H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
POINT = "entries=16384, n=128, queries=1"  # dtw-paper's sweep `notes`
GONE, WRONG = "subwarp", "naive"  # the H200's dtw-paper: a step left out, a run incorrect


def edit_json(path, edit):
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def as_h200(results):
    """The H200's numbers: every GPU run twice as fast, so that gains over CPU runs change."""
    results["device"]["name"] = H200
    for run in results["runs"]:
        if run.get("backend") == "gpu" and run.get("timing"):
            run["timing"] = {k: v / 2 if isinstance(v, (int, float)) else v
                             for k, v in run["timing"].items()}
            metric = run.get("metric")
            if metric and isinstance(run["metrics"].get(metric), (int, float)):
                run["metrics"][metric] *= 2
    if results["config"].get("name") == "dtw-paper":
        results["runs"] = [r for r in results["runs"] if r["variant"] != GONE]
        for run in results["runs"]:
            if run["variant"] == WRONG and run.get("sweep") == "notes":
                run["status"] = "incorrect"


def make_h200(folder):
    shutil.copytree(QUICK, folder)
    for f in Path(folder).glob("*.json"):
        edit_json(f, (lambda m: m["device"].update(name=H200)) if f.name == report.MANIFEST
                  else as_h200)


def claims(folder):
    """{(heading, target, claim): Claim} of one folder's own report."""
    ctx = rc.Context(folder, report.read_manifest(folder))
    return {(h, c.target, c.claim): c for h, s in report.sections(ctx) for c in s.claims}


def snapshot(folder):
    """{name: (size, mtime)} of a folder's files, None when there is no such folder."""
    if not folder.exists():
        return None
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.iterdir()}


def rows(text, starts):
    """The table rows of `text` that start with the cells `starts`."""
    head = "| " + " | ".join(rc.md_escape(s) for s in starts) + " |"
    return [line for line in text.splitlines() if line.startswith(head)]


class GpusReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.h200 = Path(cls.tmp.name) / "h200"
        make_h200(cls.h200)
        cls.out = Path(cls.tmp.name) / "out"
        cls.done = cls.run_it("--out", cls.out, QUICK, cls.h200)
        cls.text = (cls.out / "REPORT.md").read_text(encoding="utf-8")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @staticmethod
    def run_it(*args):
        return subprocess.run([sys.executable, "-m", SCRIPT, *map(str, args)],
                              capture_output=True, text=True, timeout=120)

    def test_written(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        self.assertEqual([p.name for p in self.out.iterdir()], ["REPORT.md"])

    def test_a_column_pair_per_gpu(self):
        for gpu in (H100, H200):
            self.assertIn(f"| {gpu} | {gpu}: verdict |", self.text)
            self.assertIn(f"| {gpu}: median | {gpu}: throughput |", self.text)

    def test_a_row_per_claim_with_each_gpus_number_and_verdict(self):
        ours, theirs = claims(QUICK), claims(self.h200)
        self.assertEqual(ours.keys(), theirs.keys())
        claim_part = self.text.split("## Step by step")[0]
        self.assertEqual(len([line for line in claim_part.splitlines() if line.startswith("| ")
                              and not line.startswith(("| target |", "| GPU |", f"| {H100} |",
                                                       f"| {H200} |"))]), len(ours))
        for key, c in ours.items():
            other = theirs[key]
            self.assertEqual(len(rows(claim_part, [c.target, c.claim, c.seed, c.ours, c.verdict,
                                                   other.ours, other.verdict])), 1, key)
        self.assertTrue(any(c.ours != theirs[k].ours for k, c in ours.items()),
                        "the H200's numbers should change some claims")

    def test_step_by_step(self):
        ctx = rc.Context(QUICK, report.read_manifest(QUICK))
        runs = {r.variant: r for r in ctx.runs("dtw-paper", sweep="notes")}
        ms = runs["shared"].median_ms
        shared = rows(self.text, [POINT, 6, "shared-memory rows (`shared`)"])
        self.assertEqual(len(shared), 1)
        self.assertIn(f"| {formats.format_time(ms)} |", shared[0])
        self.assertIn(f"| {formats.format_time(ms / 2)} |", shared[0])
        gone = rows(self.text, [POINT, runs[GONE].step, f"{runs[GONE].label} (`{GONE}`)"])
        self.assertEqual(len(gone), 1)
        self.assertTrue(gone[0].endswith("| – | – |"), gone[0])

    def test_failures_and_summary(self):
        self.assertIn(f"- {H100}: every run that ran passed validation", self.text)
        self.assertIn(f"- {H200}: 1 run did not pass: `dtw-paper` dtw/{WRONG}", self.text)
        held = {gpu: sum(c.verdict == rc.REPRODUCES for c in claims(f).values())
                for gpu, f in ((H100, QUICK), (H200, self.h200))}
        total = len(claims(QUICK))
        self.assertIn(f"{H100} {held[H100]}/{total}, {H200} {held[H200]}/{total}.", self.text)

    def test_same_gpu_twice_is_told_apart_by_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "quick-again"
            shutil.copytree(QUICK, copy)
            done = self.run_it("--out", Path(tmp) / "out", QUICK, copy)
            self.assertEqual(done.returncode, 0, done.stderr)
            text = (Path(tmp) / "out" / "REPORT.md").read_text(encoding="utf-8")
        self.assertIn(f"| {H100} (quick) | {H100} (quick): verdict | {H100} (quick-again) |",
                      text)

    def assert_refused(self, *folders, out=None):
        """Exit 2 with one line on stderr, and OUT_DIR as it was (absent, or untouched)."""
        out = out or Path(self.tmp.name) / "refused"
        before = snapshot(out)
        done = self.run_it("--out", out, *folders)
        self.assertEqual(done.returncode, 2, done.stdout)
        self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
        self.assertEqual(snapshot(out), before)
        return done.stderr

    def test_refusals(self):
        self.assertIn("at least two", self.assert_refused(QUICK))
        with tempfile.TemporaryDirectory() as tmp:
            paper = Path(tmp) / "paper"
            shutil.copytree(QUICK, paper)
            edit_json(paper / report.MANIFEST, lambda m: m.update(scale="paper"))
            self.assertIn("different scales", self.assert_refused(QUICK, paper))
            (paper / report.MANIFEST).unlink()
            self.assertIn(report.MANIFEST, self.assert_refused(QUICK, paper))
        self.assertIn("one of the", self.assert_refused(QUICK, self.h200, out=self.h200))


if __name__ == "__main__":
    unittest.main()

"""Tests of plots/profile_figure.py, the figure of the Nsight Compute counters that `ladder
profile` keeps per run: drawn from a synthetic results file (three profiled GPU steps at one
point, each with another subset of the counters, one GPU run whose profile was skipped for want
of ncu, one CPU step), it writes one PNG and one PDF of the expected name, a panel per kind of
counter some step has, the steps in ladder order and the skipped runs left out; the same
results give the same PDF bytes; no text is under common.MIN_FONT_PT and no label under 10 pt;
a file that is not JSON, a file with only skipped profiles and a missing matplotlib each exit
2 with one line.

Run: python3 tests/plots/test_profile_figure.py   (needs matplotlib; exits non-zero on failure)
"""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "plots" / "profile_figure.py"
sys.path.insert(0, str(ROOT / "plots"))
import common  # noqa: E402
import ladder_results  # noqa: E402
import profile_figure  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
POINT = "n=1024,seed=7"
NAME = "profile_toy_n=1024_seed=7"  # the point sanitised: ',' -> '_'
# Eight reasons: the six largest over the steps are drawn, lock and drain as "other".
STALLS = {"long_scoreboard": 9.0, "barrier": 4.0, "wait": 2.0, "short_scoreboard": 1.5,
          "mio_throttle": 1.0, "not_selected": 0.8, "lock": 0.1, "drain": 0.04}


def ncu(derived, metric_set="why"):
    """A profile as `ladder profile` writes it, with these derived counters."""
    return {"tool": "Nsight Compute", "tool_version": "2025.3.1.0", "replay_mode": "range",
            "cache_control": "all", "metric_set": metric_set, "results": 1,
            "kernels": ["range"], "work": 1048576.0, "work_unit": "cells",
            "raw": {"gpu__time_duration.sum": 729792.0}, "derived": derived}


# Each step with another subset of the counters: together every panel has some.
NAIVE = {"duration_ns": 9e5,
         "speed_of_light_pct": {"sm_pct": 20.0, "dram_pct": 85.0},
         "per_work_unit": {"thread_instructions": 40.0, "warp_instructions": 1.25}}
TILED = {"duration_ns": 3e5,
         "speed_of_light_pct": {"sm_pct": 70.0, "memory_pct": 60.0, "dram_pct": 30.0,
                                "l2_pct": 45.0, "l1_pct": 55.0},
         "bytes": {"dram": 1e7, "l2": 3e7},
         "achieved_occupancy_pct": 62.5, "issue_slots_pct": 48.0,
         "per_work_unit": {"thread_instructions": 12.0, "warp_instructions": 0.375,
                           "dram_bytes": 8.0, "l2_bytes": 24.0, "fadd": 1.0, "ffma": 0.0,
                           "integer": 5.5},
         "stalls_per_instruction": STALLS,
         "shared_conflict_share": 0.25, "branch_uniformity": 0.99}
SHARED = {"duration_ns": 2e5,
          "stalls_per_instruction": {"barrier": 5.0, "long_scoreboard": 1.0},
          "shared_conflict_share": 0.02, "branch_uniformity": 1.0}


def run(variant, step, label, profile, backend="gpu"):
    """A run at POINT of the made-up study 'toy', its profile as given."""
    return {"study": "toy", "variant": variant, "step": step, "label": label, "role": "step",
            "backend": backend, "precision": "fp32", "point": POINT, "sweep": "main",
            "params": {"n": "1024", "seed": "7"}, "status": "passed", "reason": "",
            "data": {"n": 1024.0}, "metric": "gcups", "metrics": {"gcups": 1.0, "unit": "GCUPS"},
            "timing": {"median": 1.0, "min": 0.9, "max": 1.1, "samples": [0.9, 1.0, 1.1]},
            "profile": profile}


def results(runs=None):
    """A results file, its runs out of step order: the figure must sort them."""
    runs = runs if runs is not None else [
        run("shared", 4, "shared tiles", ncu(SHARED, "sass")),
        run("seq", 1, "sequential", {"skipped": "cpu step"}, backend="cpu"),
        run("tiled", 3, "register tiles", ncu(TILED)),
        run("tensor", 5, "tensor cores", {"skipped": "ncu not found"}),
        run("naive", 2, "one thread per cell", ncu(NAIVE, "sol"))]
    return {"schema_version": 1,
            "ladder": {"version": "0.1.0", "git_commit": "abc123"},
            "host": {"cpu": "Test CPU", "cores": 4},
            "device": {"present": True, "name": "NVIDIA H100 80GB HBM3",
                       "compute_capability": "9.0", "sm_count": 132},
            "config": {"name": "toy-profile", "study": "toy"},
            "finished_at": "2026-01-01T00:01:00Z", "summary": {}, "runs": runs}


def draw_script(*args, pre=None):
    """profile_figure.py run as a user runs it; pre: Python run first in the same process
    (the script then runs through runpy, with plots/ on the path as it would be)."""
    args = [str(a) for a in args]
    command = [sys.executable, str(SCRIPT), *args]
    if pre:
        command = [sys.executable, "-c",
                   f"import runpy, sys; {pre}; sys.path.insert(0, {str(SCRIPT.parent)!r}); "
                   f"sys.argv = {[str(SCRIPT), *args]!r}; "
                   f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')"]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)


def texts(ax):
    return [t.get_text() for t in ax.texts]


def legend_labels(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


class ProfileFigure(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        cls.file = cls.write("profile.json", results())
        cls.first = draw_script(cls.file, "--out-dir", cls.dir / "first")
        cls.second = draw_script(cls.file, "--out-dir", cls.dir / "second")
        loaded = ladder_results.load(cls.file)
        cls.groups = profile_figure.profiled_groups([loaded])
        (study, point), cls.runs = next(iter(cls.groups.items()))
        cls.fig = profile_figure.figure(loaded, study, point, cls.runs)
        cls.axes = cls.fig.axes

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, content):
        path = cls.dir / name
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def test_writes_one_png_and_one_pdf_and_prints_them(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        self.assertEqual(self.first.stderr, "")
        out = self.dir / "first"
        self.assertEqual(sorted(p.name for p in out.iterdir()), [f"{NAME}.pdf", f"{NAME}.png"])
        self.assertEqual(self.first.stdout.splitlines(),
                         [str(out / f"{NAME}.png"), str(out / f"{NAME}.pdf")])
        self.assertEqual((out / f"{NAME}.png").read_bytes()[:8], PNG_MAGIC)
        self.assertEqual((out / f"{NAME}.pdf").read_bytes()[:5], b"%PDF-")

    def test_the_same_results_give_the_same_pdf(self):
        self.assertEqual(self.second.returncode, 0, self.second.stderr)
        self.assertEqual((self.dir / "first" / f"{NAME}.pdf").read_bytes(),
                         (self.dir / "second" / f"{NAME}.pdf").read_bytes())

    def test_default_out_dir_is_figures_beside_the_first_file(self):
        folder = self.dir / "default"
        folder.mkdir()
        path = folder / "r.json"
        path.write_text(self.file.read_text())
        drawn = draw_script(path)
        self.assertEqual(drawn.returncode, 0, drawn.stderr)
        self.assertTrue((folder / "figures" / f"{NAME}.png").is_file())
        self.assertTrue((folder / "figures" / f"{NAME}.pdf").is_file())

    def test_one_group_of_the_profiled_steps_in_step_order(self):
        self.assertEqual(list(self.groups), [("toy", POINT)])
        self.assertEqual([r.step for r in self.runs], [2, 3, 4])
        ticks = [" ".join(t.get_text().split()) for t in self.axes[-1].get_xticklabels()]
        self.assertEqual(ticks, [" ".join(common.row_name(r).split()) for r in self.runs])
        self.assertEqual(ticks, ["2 one thread per cell", "3 register tiles", "4 shared tiles"])

    def test_skipped_runs_are_left_out(self):
        shown = " ".join(t.get_text() for t in self.fig.findobj(common.Text))
        for left_out in ("sequential", "tensor cores"):
            self.assertNotIn(left_out, shown)

    def test_a_panel_per_kind_of_counter(self):
        self.assertEqual(len(self.axes), 5)
        titles = [ax.get_title(loc="left") for ax in self.axes]
        for ax, word in zip(self.axes, ("speed of light", "instructions", "occupancy", "stall",
                                        "bank-conflict")):
            self.assertIn(word, ax.get_title(loc="left"), titles)

    def test_speed_of_light_in_percent_with_na_where_not_collected(self):
        ax = self.axes[0]
        self.assertEqual(legend_labels(ax), ["SM", "memory", "DRAM", "L2", "L1"])
        self.assertEqual(ax.get_ylim(), (0.0, 102.0))
        self.assertEqual(texts(ax), ["n/a"])  # shared tiles: a sass profile, no speed of light
        self.assertEqual(ax.texts[0].get_position()[0], 2)

    def test_instructions_per_unit_on_a_log_axis_without_bytes(self):
        ax = self.axes[1]
        self.assertEqual(ax.get_yscale(), "log")
        self.assertIn("per work unit (cells)", ax.get_title(loc="left"))
        # ffma is 0 per cell: nothing a log axis shows, so no bar and no legend entry.
        self.assertEqual(legend_labels(ax),
                         ["thread instructions", "warp instructions", "fadd", "integer"])
        heights = sorted(p.get_height() for p in ax.patches)
        self.assertEqual(heights, [0.375, 1.0, 1.25, 5.5, 12.0, 40.0])

    def test_stalls_stack_the_six_largest_and_other(self):
        ax = self.axes[3]
        self.assertEqual(legend_labels(ax), ["other", "not selected", "mio throttle",
                                             "short scoreboard", "wait", "barrier",
                                             "long scoreboard"])
        tiled = [p.get_height() for p in ax.patches if abs(p.get_x() + p.get_width() / 2 - 1)
                 < 1e-9]
        self.assertAlmostEqual(sum(tiled), sum(STALLS.values()))
        self.assertAlmostEqual(min(tiled), STALLS["lock"] + STALLS["drain"])  # other
        self.assertEqual(texts(ax), ["18.4", "6.00", "n/a"])  # totals; naive: no stalls

    def test_fractions_from_zero_to_one(self):
        ax = self.axes[4]
        self.assertEqual(ax.get_ylim(), (0.0, 1.02))
        self.assertEqual(sorted(p.get_height() for p in ax.patches), [0.02, 0.25, 0.99, 1.0])

    def test_footnote_names_gpu_tool_and_mixed_metric_sets(self):
        shown = " ".join(t.get_text() for t in self.fig.texts)
        for part in ("NVIDIA H100 80GB HBM3", "Nsight Compute 2025.3.1.0", "range replay",
                     "metric set mixed (sol, why, sass)", "per work unit: cells"):
            self.assertIn(part, shown)
        self.assertIn("toy", shown)
        self.assertIn("n=1024, seed=7", shown)

    def test_fonts_legible(self):
        self.assertGreaterEqual(min(common.font_sizes(self.fig)), common.MIN_FONT_PT)
        for ax in self.axes:
            labels = [ax.title, ax.yaxis.label, *ax.get_legend().get_texts(), *ax.texts,
                      *ax.get_yticklabels()] + ax.get_xticklabels()
            for text in labels:
                if text.get_visible() and text.get_text():
                    self.assertGreaterEqual(text.get_fontsize(), 10, text.get_text())

    def test_only_the_panels_with_counters(self):
        only = results([run("a", 1, "a", ncu({"achieved_occupancy_pct": 50.0})),
                        run("b", 2, "b", ncu({"duration_ns": 1.0}))])  # nothing to draw
        loaded = ladder_results.ResultsFile("only.json", only)
        groups = profile_figure.profiled_groups([loaded])
        runs = groups[("toy", POINT)]
        self.assertEqual([r.variant for r in runs], ["a"])
        fig = profile_figure.figure(loaded, "toy", POINT, runs)
        self.assertEqual(len(fig.axes), 1)
        self.assertIn("occupancy", fig.axes[0].get_title(loc="left"))

    def check_fails(self, drawn, words):
        self.assertEqual(drawn.returncode, 2, drawn.stdout)
        lines = drawn.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, drawn.stderr)
        self.assertTrue(lines[0].startswith("profile_figure: "), lines[0])
        self.assertIn(words, lines[0])
        self.assertEqual(drawn.stdout, "")

    def test_a_file_that_is_not_json_exits_2(self):
        bad = self.write("bad.json", "{not json")
        self.check_fails(draw_script(self.file, bad, "--out-dir", self.dir / "bad"),
                         "not a JSON results file")
        self.assertFalse((self.dir / "bad").exists())

    def test_only_skipped_profiles_exit_2(self):
        skipped = self.write("skipped.json", results([
            run("seq", 1, "sequential", {"skipped": "cpu step"}, backend="cpu"),
            run("tensor", 5, "tensor cores", {"skipped": "ncu not found"}),
            run("plain", 2, "not profiled", None)]))
        drawn = draw_script(skipped, "--out-dir", self.dir / "skipped")
        self.check_fails(drawn, "no profiled run: ")
        self.assertIn("cpu step; ncu not found", drawn.stderr)
        self.assertFalse((self.dir / "skipped").exists())

    def test_missing_matplotlib_exits_2(self):
        # None in sys.modules makes `import matplotlib` raise ImportError, as if not installed.
        drawn = draw_script(self.file, "--out-dir", self.dir / "nompl",
                            pre="sys.modules['matplotlib'] = None")
        self.check_fails(drawn, "matplotlib is not installed")
        self.assertFalse((self.dir / "nompl").exists())


if __name__ == "__main__":
    unittest.main()

"""Tests of plots/profile_figure.py, the figure of the Nsight Compute counters that `ladder
profile` keeps per run: drawn from a synthetic results file (three profiled GPU steps at one
point, each with another subset of the counters, one GPU run whose profile was skipped for want
of ncu, one CPU step), it writes one PNG and one PDF of the expected name, a panel per kind of
counter some step has, the steps in ladder order and the skipped runs left out; the same
results give the same PDF bytes; no text is under pages.MIN_FONT_PT and no label under 10 pt;
a file that is not JSON, a file with only skipped profiles and a missing matplotlib each exit
2 with one line. Beside it, a roofline per point: a step's warp instructions per second (checked
against one H200 run's counters by hand), at L1, L2 and DRAM intensity where that level moved
bytes, under the ceilings of the file's device.ceilings; without them (null or missing, as in
files from before them) the points are drawn and the footer says why there is no roof; work
in FLOPs gives an FP32/TF32/FP16 roofline.

Run: PYTHONPATH=. python3 tests/plots/test_profile_figure.py   (needs matplotlib; exits non-zero on failure)
"""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "plots.profile_figure"  # run as python3 -m SCRIPT
from plots import pages, selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import profile_figure  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
POINT = "n=1024,seed=7"
NAME = "profile_toy_n=1024_seed=7"  # the point sanitised: ',' -> '_'
ROOFLINE = "roofline_toy_n=1024_seed=7"
# An H100 SXM's ceilings as the harness writes them (132 SMs at 1.98 GHz): test data, in the
# file, as a real one carries its GPU's hardware table.
SM_CLOCKS = 132 * 1.98e9
CEILINGS = {"clock_mhz": 1980, "warp_instructions_per_s": 4 * SM_CLOCKS,
            "fp32_flops_per_s": 128 * 2 * SM_CLOCKS, "tf32_tensor_flops_per_s": 512 * 2 * SM_CLOCKS,
            "shared_bytes_per_s": 128 * SM_CLOCKS, "dram_bytes_per_s": 3.35e12}
NO_CEILINGS = "no ceilings: the results carry no hardware table row"
# Eight reasons: the six largest over the steps are drawn, lock and drain as "other".
STALLS = {"long_scoreboard": 9.0, "barrier": 4.0, "wait": 2.0, "short_scoreboard": 1.5,
          "mio_throttle": 1.0, "not_selected": 0.8, "lock": 0.1, "drain": 0.04}


def ncu(derived, metric_set="why", work=1048576.0, work_unit="cells"):
    """A profile as `ladder profile` writes it, with these derived counters."""
    return {"tool": "Nsight Compute", "tool_version": "2025.3.1.0", "replay_mode": "range",
            "cache_control": "all", "metric_set": metric_set, "results": 1,
            "kernels": ["range"], "work": work, "work_unit": work_unit,
            "raw": {"gpu__time_duration.sum": 729792.0}, "derived": derived}


# Each step with another subset of the counters: together every panel has some. On the
# roofline: naive at L1 only (no DRAM bytes, no L2 count), tiled at L2 and DRAM, shared nowhere.
NAIVE = {"duration_ns": 9e5, "bytes": {"l1": 4e7, "dram": 0.0},
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


# dtw's step 14 (subject streams) at entries=301, n=45 on an H200, metric set sol: ncu counted
# 34544265 warp instructions (smsp__inst_executed.sum) in 4581984 ns.
H200_RUN = {"duration_ns": 4581984.0,
            "bytes": {"dram": 419328.0, "l1": 140133280.0, "l2": 24913920.0},
            "per_work_unit": {"thread_instructions": 5.748843771789508,
                              "warp_instructions": 0.18828596037898362}}
H200_CELLS = 183467025.0


def run(variant, step, label, profile, backend="gpu"):
    """A run at POINT of the made-up study 'toy', its profile as given."""
    return {"study": "toy", "variant": variant, "step": step, "label": label, "role": "step",
            "backend": backend, "precision": "fp32", "point": POINT, "sweep": "main",
            "params": {"n": "1024", "seed": "7"}, "status": "passed", "reason": "",
            "data": {"n": 1024.0}, "metric": "gcups", "metrics": {"gcups": 1.0, "unit": "GCUPS"},
            "timing": {"median": 1.0, "min": 0.9, "max": 1.1, "samples": [0.9, 1.0, 1.1]},
            "profile": profile}


def results(runs=None, ceilings=CEILINGS):
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
                       "compute_capability": "9.0", "sm_count": 132,
                       "hardware_row": "9.0 (H100, H200, GH200)", "ceilings": ceilings},
            "config": {"name": "toy-profile", "study": "toy"},
            "finished_at": "2026-01-01T00:01:00Z", "summary": {}, "runs": runs}


def draw_script(*args, pre=None):
    """profile_figure run as a user runs it (python3 -m, from the project root); pre: Python
    run first in the same process (the module then runs through runpy, as -m runs it)."""
    args = [str(a) for a in args]
    command = [sys.executable, "-m", SCRIPT, *args]
    if pre:
        command = [sys.executable, "-c",
                   f"import runpy, sys; {pre}; sys.argv = {[SCRIPT, *args]!r}; "
                   f"runpy.run_module({SCRIPT!r}, run_name='__main__', alter_sys=True)"]
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
        cls.roofline = profile_figure.roofline_figure(loaded, study, point, cls.runs)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, content):
        path = cls.dir / name
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def test_writes_a_png_and_a_pdf_of_each_figure_and_prints_them(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        self.assertEqual(self.first.stderr, "")
        out = self.dir / "first"
        names = [f"{name}.{ext}" for name in (NAME, ROOFLINE) for ext in ("png", "pdf")]
        self.assertEqual(sorted(p.name for p in out.iterdir()), sorted(names))
        self.assertEqual(self.first.stdout.splitlines(), [str(out / n) for n in names])
        for name in (NAME, ROOFLINE):
            self.assertEqual((out / f"{name}.png").read_bytes()[:8], PNG_MAGIC)
            self.assertEqual((out / f"{name}.pdf").read_bytes()[:5], b"%PDF-")

    def test_the_same_results_give_the_same_pdf(self):
        self.assertEqual(self.second.returncode, 0, self.second.stderr)
        for name in (NAME, ROOFLINE):
            self.assertEqual((self.dir / "first" / f"{name}.pdf").read_bytes(),
                             (self.dir / "second" / f"{name}.pdf").read_bytes())

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
        self.assertEqual(ticks, [" ".join(selection.row_name(r).split()) for r in self.runs])
        self.assertEqual(ticks, ["2 one thread per cell", "3 register tiles", "4 shared tiles"])

    def test_skipped_runs_are_left_out(self):
        shown = " ".join(t.get_text() for t in self.fig.findobj(pages.Text))
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
        # ffma is 0 per cell: nothing a log axis shows, so no dot and no legend entry.
        self.assertEqual(legend_labels(ax),
                         ["thread instructions", "warp instructions", "fadd", "integer"])
        # Dots, not bars: a bar's length on a log axis means nothing.
        self.assertEqual(len(ax.patches), 0)
        heights = sorted(y for line in ax.lines for y in line.get_ydata())
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
        self.assertGreaterEqual(min(pages.font_sizes(self.fig)), pages.MIN_FONT_PT)
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

    def test_roofline_y_is_warp_instructions_per_second(self):
        loaded = ladder_results.ResultsFile("h200.json", results(
            [run("subject_stream", 14, "subject streams", ncu(H200_RUN, "sol", H200_CELLS))]))
        points = profile_figure.roofline_points(loaded.runs[0], "instructions")
        warp_instructions = 34544265.0  # 0.18828596037898362 per cell x 183467025 cells
        self.assertEqual([(level, marker) for level, marker, _, _ in points],
                         [("L1", "o"), ("L2", "s"), ("DRAM", "^")])
        for _, _, _, y in points:  # by hand: 34544265 / 4.581984 ms = 7.539150071e9 per s
            self.assertAlmostEqual(y / 7.539150071e9, 1.0, places=9)
        for (_, _, x, _), moved in zip(points, (140133280.0, 24913920.0, 419328.0)):
            self.assertAlmostEqual(x, warp_instructions / moved)

    def step_points(self, ax):
        """{step colour: [(x, y)]} of the markers a roofline drew."""
        found = {}
        for line in ax.lines:
            if line.get_marker() not in ("None", None, ""):
                found.setdefault(line.get_color(), []).append(tuple(line.get_xydata()[0]))
        return found

    def test_roofline_with_ceilings(self):
        ax = self.roofline.axes[0]
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        self.assertEqual(legend_labels(ax), [
            "2  one thread per cell", "3  register tiles", "L1 bytes", "L2 bytes", "DRAM bytes",
            "warp-instruction issue: 1.05 T/s", "L1/shared: 33.5 TB/s", "DRAM: 3.35 TB/s"])
        # naive at L1 (no DRAM bytes, no L2 count), tiled at L2 and DRAM; shared tiles nowhere.
        placed = [p for points in sorted(self.step_points(ax).values(), key=len) for p in points]
        expected = [(1.25 * 1048576 / 4e7, 1.25 * 1048576 / 9e-4),
                    (0.375 * 1048576 / 3e7, 0.375 * 1048576 / 3e-4),
                    (0.375 * 1048576 / 1e7, 0.375 * 1048576 / 3e-4)]
        self.assertEqual(len(placed), len(expected))
        for got, want in zip(placed, expected):
            for a, b in zip(got, want):
                self.assertAlmostEqual(a / b, 1.0, places=12)
        self.assertEqual(texts(ax), ["2", "3"])
        flat = [line for line in ax.lines if line.get_linestyle() == "-" and
                set(line.get_ydata()) == {CEILINGS["warp_instructions_per_s"]}]
        self.assertEqual(len(flat), 1)
        shown = " ".join(t.get_text() for t in self.roofline.texts)
        self.assertIn("instruction roofline at n=1024, seed=7", shown)
        self.assertIn("ceilings: the hardware table's row 9.0 (H100, H200, GH200) at the 1980 MHz",
                      shown)
        self.assertIn("not placed (no warp instructions, bytes or duration counted): "
                      "4  shared tiles", shown)
        self.assertNotIn("no ceilings", shown)

    def test_roofline_without_ceilings_draws_the_points_and_says_so(self):
        old = results(ceilings=None)
        del old["device"]["ceilings"]  # a file from before the field
        for name, content in (("null.json", results(ceilings=None)), ("old.json", old)):
            path = self.write(name, content)
            out = self.dir / f"{name}-figures"
            drawn = draw_script(path, "--out-dir", out)
            self.assertEqual(drawn.returncode, 0, drawn.stderr)
            self.assertTrue((out / f"{ROOFLINE}.pdf").is_file())
            loaded = ladder_results.load(path)
            runs = profile_figure.profiled_groups([loaded])[("toy", POINT)]
            fig = profile_figure.roofline_figure(loaded, "toy", POINT, runs)
            ax = fig.axes[0]
            self.assertEqual(len(self.step_points(ax)), 2)
            self.assertFalse([label for label in legend_labels(ax) if "/s" in label])
            self.assertIn(NO_CEILINGS, " ".join(t.get_text() for t in fig.texts))

    def test_flops_roofline(self):
        flops = ncu({"duration_ns": 2e6, "bytes": {"l1": 4e9, "l2": 1e9, "dram": 2e8},
                     "per_work_unit": {"warp_instructions": 0.01}}, work=8e10, work_unit="flops")
        loaded = ladder_results.ResultsFile("cov.json", results([run("tiled", 3, "tiles", flops)]))
        runs = profile_figure.profiled_groups([loaded])[("toy", POINT)]
        self.assertEqual(profile_figure.roofline_kind(runs), "flops")
        points = profile_figure.roofline_points(runs[0], "flops")
        self.assertEqual([(x, y) for _, _, x, y in points],
                         [(20.0, 4e13), (80.0, 4e13), (400.0, 4e13)])  # 8e10 FLOPs / 2 ms
        fig = profile_figure.roofline_figure(loaded, "toy", POINT, runs)
        self.assertEqual(legend_labels(fig.axes[0])[-4:],
                         ["FP32 (FMA): 66.9 TFLOP/s", "TF32 tensor: 268 TFLOP/s",
                          "L1/shared: 33.5 TB/s", "DRAM: 3.35 TB/s"])
        self.assertIn("FP32/TF32/FP16 roofline", " ".join(t.get_text() for t in fig.texts))

    def test_roofline_fonts_legible(self):
        self.assertGreaterEqual(min(pages.font_sizes(self.roofline)), pages.MIN_FONT_PT)
        ax = self.roofline.axes[0]
        for text in [ax.xaxis.label, ax.yaxis.label, *ax.get_legend().get_texts(), *ax.texts,
                     *ax.get_xticklabels(), *ax.get_yticklabels()]:
            if text.get_visible() and text.get_text():
                self.assertGreaterEqual(text.get_fontsize(), 10, text.get_text())

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
        # A reproduction draws with --if-any: nothing to draw is then no error.
        quiet = draw_script(skipped, "--if-any", "--out-dir", self.dir / "skipped")
        self.assertEqual((quiet.returncode, quiet.stdout, quiet.stderr), (0, "", ""))
        self.assertFalse((self.dir / "skipped").exists())

    def test_missing_matplotlib_exits_2(self):
        # None in sys.modules makes `import matplotlib` raise ImportError, as if not installed.
        drawn = draw_script(self.file, "--out-dir", self.dir / "nompl",
                            pre="sys.modules['matplotlib'] = None")
        self.check_fails(drawn, "matplotlib is not installed")
        self.assertFalse((self.dir / "nompl").exists())


if __name__ == "__main__":
    unittest.main()

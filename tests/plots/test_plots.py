"""Tests of plots/: figure choice, draw_all's contract, and every committed reference file.

Run: python3 tests/plots/test_plots.py   (needs matplotlib; exits non-zero on failure)
"""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLOTS = ROOT / "plots"
sys.path.insert(0, str(PLOTS))
import common  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def toy_run(variant, step, role, label, ms, size=1024, backend="gpu", status="passed",
            reason="", sweep="main", block=None, extras=None):
    """A run of the made-up study 'toy' in the results layout the harness writes; ms=None is
    an untimed run."""
    params = {"seed": "7", "size": str(size)}
    if block:
        params["block"] = str(block)
    timing, metrics = None, {}
    if ms is not None:
        gbps = 8.0 * size * size / (ms * 1e6)  # bytes moved / time
        timing = {"unit": "ms", "mode": "hot", "warmup": 1, "samples": [ms * 0.9, ms, ms * 1.3],
                  "median": ms, "min": ms * 0.9, "max": ms * 1.3, "mean": ms * 1.07,
                  "stddev": ms * 0.2, "cv": 0.19}
        metrics = {"gbps": gbps, "unit": "GB/s", "work": 8.0 * size * size}
        if backend == "gpu":
            metrics.update(peak=100.0, peak_rule="made-up bandwidth", pct_of_peak=gbps)
    return {"study": "toy", "variant": variant, "step": step, "change": f"{label} change",
            "backend": backend, "precision": "fp32", "point": f"seed=7,size={size}",
            "sweep": sweep, "params": params, "status": status, "reason": reason,
            "data": {"size": float(size)}, "extras": extras or {}, "facts": {},
            "validation": {"mode": "full", "checked": 1, "failures": int(status == "incorrect"),
                           "max_abs_error": 0.0, "max_rel_error": 0.0,
                           "tolerance": {"abs": 1e-6, "rel": 1e-6, "rule": "exact"}},
            "role": role, "label": label, "metric": "gbps", "timing": timing, "metrics": metrics}


def toy_results(figures=None, sweep_figures=None):
    """A toy results file: a baseline, steps (one at two block sizes, one incorrect, one
    skipped), a peer, all in sweep 'main' at size 1024, and two runs in sweep 'big'."""
    runs = [toy_run("seq", 1, "baseline", "sequential loop", 50.0, backend="cpu"),
            toy_run("threads", 2, "step", "threads", 10.0, backend="cpu"),
            toy_run("coalesced", 3, "step", "coalesced loads", 1.0, block=64),
            toy_run("coalesced", 3, "step", "coalesced loads", 0.8, block=128,
                    extras={"hit_rate": 0.93}),
            toy_run("fused", 4, "step", "fused kernel", 0.5, status="incorrect",
                    reason="3 of 1024 outputs off"),
            toy_run("tensor", 5, "step", "tensor cores", None, status="skipped",
                    reason="no CUDA device"),
            toy_run("vendor", 6, "peer", "vendor library", 0.6),
            toy_run("seq", 1, "baseline", "sequential loop", 200.0, size=4096, backend="cpu",
                    sweep="big"),
            toy_run("coalesced", 3, "step", "coalesced loads", 3.0, size=4096, sweep="big")]
    config = {"name": "toy-test", "study": "toy",
              "sweeps": [{"label": "main"}, {"label": "big"}]}
    if figures is not None:
        config["figures"] = figures
    if sweep_figures is not None:
        config["sweeps"][1]["figures"] = sweep_figures
    return {"schema_version": 1,
            "ladder": {"version": "0.1.0", "git_commit": "abc123", "build_type": "Release",
                       "cuda_arch": "90"},
            "host": {"cpu": "Test CPU", "cores": 4}, "device": {"present": False,
                                                                "reason": "no CUDA device"},
            "config": config, "config_path": "configs/toy.json",
            "started_at": "2026-01-01T00:00:00Z", "finished_at": "2026-01-01T00:01:00Z",
            "summary": {}, "runs": runs}


def draw_all(*args):
    return subprocess.run([sys.executable, str(PLOTS / "draw_all.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


class FigureChoice(unittest.TestCase):
    def test_no_figures_anywhere_means_a_ladder_for_every_run(self):
        chosen = common.figure_runs(toy_results())
        self.assertEqual(list(chosen), ["ladder"])
        self.assertEqual(len(chosen["ladder"]), 9)

    def test_top_level_applies_to_all_runs_and_a_sweep_list_to_its_runs(self):
        chosen = common.figure_runs(toy_results(["ladder"], ["extra"]))
        self.assertEqual(len(chosen["ladder"]), 9)
        self.assertEqual([r["sweep"] for r in chosen["extra"]], ["big", "big"])

    def test_only_a_sweep_list_leaves_other_sweeps_without_figures(self):
        chosen = common.figure_runs(toy_results(sweep_figures=["ladder"]))
        self.assertEqual([r["sweep"] for r in chosen["ladder"]], ["big", "big"])

    def test_override_replaces_the_config(self):
        chosen = common.figure_runs(toy_results(["x"]), ["big:ladder"])
        self.assertEqual(list(chosen), ["ladder"])
        self.assertEqual(len(chosen["ladder"]), 2)


class DrawAll(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.out = self.dir / "figures"

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, content):
        path = self.dir / name
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def drawn(self):
        return sorted(p.name for p in self.out.glob("*.png")) if self.out.exists() else []

    def test_toy_study_gets_its_ladders_and_an_unknown_figure_is_reported(self):
        toy = self.write("toy.json", toy_results(["ladder"], ["ladder", "no_such_figure"]))
        result = draw_all(toy, "--out-dir", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.drawn(), ["toy_ladder_size1024.png", "toy_ladder_size4096.png"])
        self.assertEqual(len(result.stdout.splitlines()), 2)
        unknown = [line for line in result.stderr.splitlines() if "no_such_figure" in line]
        self.assertEqual(len(unknown), 1, result.stderr)
        for png in self.out.glob("*.png"):
            self.assertEqual(png.read_bytes()[:8], PNG_MAGIC)

    def test_same_figure_from_two_files_warns(self):
        first = self.write("a.json", toy_results())
        second = self.write("b.json", toy_results())
        result = draw_all(first, second, "--out-dir", self.out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("warning", result.stderr)

    def test_bad_file_exits_2_with_one_line_and_draws_nothing(self):
        good = self.write("good.json", toy_results())
        for bad in (self.write("bad.json", "{not json"),
                    self.write("v2.json", dict(toy_results(), schema_version=2)),
                    self.write("figs.json", toy_results(figures="ladder")),
                    self.dir / "missing.json"):
            with self.subTest(bad=bad.name):
                result = draw_all(good, bad, "--out-dir", self.out)
                self.assertEqual(result.returncode, 2)
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
                self.assertEqual(self.drawn(), [])

    def test_a_figure_script_runs_alone(self):
        toy = self.write("toy.json", toy_results())
        result = subprocess.run([sys.executable, str(PLOTS / "ladder.py"), str(toy),
                                 "--out-dir", str(self.out)], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("toy_ladder_size1024.png", self.drawn())

    def test_every_committed_reference_file_draws(self):
        files = sorted((ROOT / "results" / "reference" / "h100").glob("*.json"))
        self.assertTrue(files)
        # They predate the config's figures list: ask for the paper figures by sweep.
        result = draw_all(*files, "--out-dir", self.out, "--figures",
                          "ladder,notes:dtw_paper,length:dtw_length_sweep,covariance_chunk_sweep")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        drawn = self.drawn()
        for name in ("dtw_ladder_entries1048576_n128_queries1.png",
                     "dtw_paper_entries1048576_n128_queries1.png",
                     "dtw_length_sweep_entries65536_queries1.png",
                     "covariance_ladder_m202599_n2475.png",
                     "covariance_chunk_sweep_tiled_m202599_n2475.png"):
            self.assertIn(name, drawn)


if __name__ == "__main__":
    unittest.main()

"""Tests that a figure two results files ask for is drawn once from the runs of both
(plots/pools.py pool_figures), by draw_all.py and so by report.py: two files of one config
family whose runs at one point hold different steps give one ladder of every step, in either
order, named after both configs; a run both files hold is drawn once, from the later file; files
of two GPUs or two ladder commits are never pooled (the last one's figure is kept, with a
warning, as before).

Run: PYTHONPATH=. python3 tests/plots/test_report_figure_pools.py   (exits non-zero on failure)
"""
import contextlib
import copy
import io
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from report_fixtures import ROOT

from plots import draw, pages, pools, selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import report  # noqa: E402

FIGURE = "toy_ladder_size1024.png"
DEVICE = {"present": True, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
          "sm_count": 132}
STEPS = {1: ("seq", "sequential loop", "cpu", 50.0), 2: ("threads", "threads", "cpu", 10.0),
         3: ("coalesced", "coalesced loads", "gpu", 1.0), 4: ("fused", "fused kernel", "gpu", 0.5),
         5: ("tiled", "shared-memory tiles", "gpu", 0.3), 6: ("tensor", "tensor cores", "gpu", 0.2)}


def run(step, ms=None):
    """Step `step` of the made-up study 'toy' at size 1024, as the harness writes it."""
    variant, label, backend, default_ms = STEPS[step]
    ms = ms or default_ms
    return {"study": "toy", "variant": variant, "step": step, "label": label,
            "role": "baseline" if step == 1 else "step", "backend": backend,
            "precision": "fp32", "point": "seed=7,size=1024", "sweep": "main",
            "params": {"seed": "7", "size": "1024"}, "status": "passed", "reason": "",
            "data": {"size": 1024.0}, "extras": {}, "facts": {}, "metric": "gbps",
            "validation": {"mode": "full", "checked": 1, "failures": 0},
            "timing": {"unit": "ms", "mode": "hot", "warmup": 1,
                       "samples": [ms * 0.9, ms, ms * 1.2], "median": ms, "min": ms * 0.9,
                       "max": ms * 1.2, "mean": ms, "stddev": ms * 0.1, "cv": 0.1},
            "metrics": {"gbps": 8.0 * 1024 * 1024 / (ms * 1e6), "unit": "GB/s",
                        "work": 8.0 * 1024 * 1024}}


def results(name, runs, commit="abc1234", device=DEVICE, finished="2026-01-01T00:01:00Z"):
    """A results file of config `name` (study toy, the ladder its figure) holding `runs`."""
    return {"schema_version": 1,
            "ladder": {"version": "0.1.0", "git_commit": commit, "build_type": "Release"},
            "host": {"cpu": "Test CPU", "cores": 4}, "device": copy.deepcopy(device),
            "config": {"name": name, "study": "toy", "figures": ["ladder"],
                       "sweeps": [{"label": "main"}]},
            "started_at": "2026-01-01T00:00:00Z", "finished_at": finished,
            "summary": {}, "runs": runs}


def first_half(**kwargs):
    return results("toy-steps-a", [run(s) for s in (1, 2, 3)], **kwargs)


def second_half(**kwargs):
    return results("toy-steps-b", [run(s) for s in (4, 5, 6)],
                   finished="2026-01-02T00:01:00Z", **kwargs)


def row(step):
    """The row name the ladder gives step `step`."""
    return f"{step}  {STEPS[step][1]}"


class FigurePools(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, name, raw):
        path = self.tmp / name
        path.write_text(json.dumps(raw), encoding="utf-8")
        return path

    def draw(self, *paths, out="figures"):
        """draw_all's main here, each figure's rows and texts kept as it is saved (in
        draw_files' workers too: beside the PNG, as NAME.json); (status, stdout, stderr,
        {figure name: {'rows': y tick labels, 'texts': every text}})."""
        out_dir, save = self.tmp / out, pages.save

        def hook(fig, out_dir_, name):
            texts = [t.get_text() for t in fig.findobj(pages.Text) if t.get_text()]
            rows = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels()]
            Path(out_dir_).mkdir(parents=True, exist_ok=True)
            (Path(out_dir_) / f"{name}.json").write_text(json.dumps({"rows": rows,
                                                                     "texts": texts}))
            return save(fig, out_dir_, name)

        stdout, stderr = io.StringIO(), io.StringIO()
        pages.save = hook
        try:
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                status = draw.main(argv=[*map(str, paths), "--out-dir", str(out_dir)])
        finally:
            pages.save = save
        seen = {p.name[:-len(".json")]: json.loads(p.read_text())
                for p in out_dir.glob("*.png.json")}
        return status, stdout.getvalue(), stderr.getvalue(), seen

    def test_two_files_of_one_point_draw_every_step_in_either_order(self):
        a, b = self.write("a.json", first_half()), self.write("b.json", second_half())
        for order, configs in (((a, b), "toy-steps-a + toy-steps-b"),
                               ((b, a), "toy-steps-b + toy-steps-a")):
            with self.subTest(first=order[0].name):
                status, out, err, seen = self.draw(*order, out=f"figures-{order[0].stem}")
                self.assertEqual((status, err), (0, ""))
                self.assertEqual([Path(p).name for p in out.splitlines()], [FIGURE])
                self.assertEqual(seen[FIGURE]["rows"], [row(s) for s in range(1, 7)])
                provenance = [t for t in seen[FIGURE]["texts"] if t.startswith("config ")]
                self.assertEqual(len(provenance), 1, seen[FIGURE]["texts"])
                self.assertTrue(provenance[0].startswith(f"config {configs}   ladder 0.1.0 "
                                                         "@ abc1234"), provenance)

    def test_each_run_keeps_its_own_file(self):
        files = pools.merge_peers(ladder_results.load_all(
            [self.write("a.json", first_half()), self.write("b.json", second_half())]))
        with contextlib.redirect_stderr(io.StringIO()):
            (name, view, runs, note), = pools.pool_figures(files, {"ladder": None}, None)
        self.assertEqual((name, view.name, [f.path.name for f in pools.pooled_files(view)]),
                         ("ladder", "toy-steps-a + toy-steps-b", ["a.json", "b.json"]))
        self.assertEqual([(r.step, r.file.path.name) for r in runs],
                         [(1, "a.json"), (2, "a.json"), (3, "a.json"),
                          (4, "b.json"), (5, "b.json"), (6, "b.json")])
        self.assertEqual((view.device_name, view.commit), (DEVICE["name"], "abc1234"))
        self.assertEqual(note, "")

    def test_a_run_both_files_hold_is_drawn_once_from_the_later(self):
        # b ran step 3 again, slower: without pooling's choice the faster (a's) would be shown
        later = second_half()
        later["runs"].insert(0, run(3, ms=4.0))
        a, b = self.write("a.json", first_half()), self.write("b.json", later)
        status, out, err, seen = self.draw(a, b)
        self.assertEqual(status, 0, err)
        self.assertEqual(seen[FIGURE]["rows"], [row(s) for s in range(1, 7)])
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertIn("warning: ladder from", err)
        self.assertIn("1 run in more than one of them", err)
        texts = seen[FIGURE]["texts"]
        slower, faster = (selection.rate_text(ladder_results.ResultsFile("t.json", results(
            "t", [run(3, ms=ms)])).runs[0]) for ms in (4.0, 1.0))
        self.assertTrue(any(slower in t for t in texts), (slower, texts))
        self.assertFalse(any(faster in t for t in texts), (faster, texts))

    def test_files_of_two_gpus_or_two_commits_are_not_pooled(self):
        h200 = dict(DEVICE, name="NVIDIA H200")
        for what, other in (("device", second_half(device=h200)),
                            ("commit", second_half(commit="def5678")),
                            ("no GPU", second_half(device={"present": False,
                                                           "reason": "no CUDA device"}))):
            with self.subTest(other=what):
                a, b = self.write("a.json", first_half()), self.write("b.json", other)
                status, out, err, seen = self.draw(a, b, out=f"figures-{what}")
                self.assertEqual(status, 0, err)
                self.assertIn(f"{FIGURE} was drawn from {a}, {b}; it now shows {b}", err)
                self.assertEqual(len(out.splitlines()), 2)  # drawn twice, the last kept
                self.assertEqual(seen[FIGURE]["rows"], [row(s) for s in (4, 5, 6)])
                provenance = [t for t in seen[FIGURE]["texts"] if t.startswith("config ")]
                self.assertTrue(provenance[0].startswith("config toy-steps-b "), provenance)

    def test_of_two_pools_the_one_with_the_last_file_is_kept(self):
        a, b = self.write("a.json", first_half()), self.write("b.json", second_half())
        c = self.write("c.json", results("toy-h200", [run(s) for s in (1, 2)],
                                         device=dict(DEVICE, name="NVIDIA H200")))
        for order, last in (((a, c, b), f"{a} + {b}"), ((c, a, b), f"{a} + {b}"),
                            ((a, b, c), f"{c}")):
            with self.subTest(order=[p.stem for p in order]):
                status, out, err, seen = self.draw(*order, out="figures-" + "".join(
                    p.stem for p in order))
                self.assertEqual(status, 0, err)
                self.assertEqual(len(err.splitlines()), 1, err)
                self.assertTrue(err.rstrip().endswith(f"; it now shows {last}"), err)
                self.assertEqual(seen[FIGURE]["rows"],
                                 [row(s) for s in (range(1, 7) if b.name in last else (1, 2))])

    def test_the_pooled_figure_is_that_of_one_file_holding_both(self):
        """draw_all.py as a command, and report.py through it: the pooled PDF is byte for
        byte that of a single file holding every run under both config names."""
        a, b = self.write("a.json", first_half()), self.write("b.json", second_half())
        both = first_half()
        both["config"]["name"] = "toy-steps-a + toy-steps-b"
        both["runs"] += second_half()["runs"]
        one = self.write("both.json", both)
        draw_all = [sys.executable, "-m", "plots.draw_all"]
        for files, out in (((one,), "one"), ((a, b), "pooled")):
            done = subprocess.run([*draw_all, *map(str, files), "--out-dir", str(self.tmp / out)],
                                  capture_output=True, text=True, cwd=ROOT, timeout=120)
            self.assertEqual((done.returncode, done.stderr), (0, ""))
            self.assertEqual(done.stdout, f"{self.tmp / out / FIGURE}\n")
        pdf = FIGURE.replace(".png", ".pdf")
        expected = (self.tmp / "one" / pdf).read_bytes()
        self.assertEqual((self.tmp / "pooled" / pdf).read_bytes(), expected)
        manifest = report.manifest_from_results(self.tmp / "report", [str(a), str(b)], "quick")
        self.assertEqual(manifest["figures"], [f"figures/{FIGURE}"])
        self.assertEqual((self.tmp / "report" / "figures" / pdf).read_bytes(), expected)


if __name__ == "__main__":
    unittest.main()

"""Tests of plots/profile_table.py, the Markdown tables of the Nsight Compute counters that
`ladder profile` keeps per run: from a synthetic results file (profiled GPU steps at one point,
out of step order, each with another subset of the counters: one range-replayed `sol`, one
combined `why+sass` profile whose shared-memory counters are in its collections, one variant at
two settings with a conflict share but no raw counts; a CPU step and a GPU run whose profiles
were skipped; a second study with a kernel time alone), every cell of each table is what the
counters give, a column only where some row has a value, "-" elsewhere; the shared-memory
counts of a combined profile are its kernel-replay collection's; --study keeps one study; a
file that is not JSON, a file with only skipped profiles and a study without counters each
exit 2 with one line.

Run: PYTHONPATH=. python3 tests/plots/test_profile_table.py   (standard library only; exits non-zero on
failure)
"""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "plots.profile_table"  # run as python3 -m SCRIPT
from plots import results as ladder_results  # noqa: E402
from plots import profile_table  # noqa: E402

POINT = "n=1024,seed=7"
WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"


def ncu(derived, metric_set="sol", replay_mode="range", raw=None, work_unit="cells"):
    """A profile as `ladder profile` writes it, with these derived counters."""
    return {"tool": "Nsight Compute", "tool_version": "2025.3.1.0", "replay_mode": replay_mode,
            "cache_control": "all", "metric_set": metric_set, "results": 1,
            "kernels": ["range"], "work": 1048576.0, "work_unit": work_unit,
            "raw": raw if raw is not None else {"gpu__time_duration.sum": 1.0},
            "derived": derived}


def combined(derived, collections):
    """A profile of two collections (`ladder profile --into` with another set): no raw at the
    top level, each collection whole under `collections`."""
    return {"tool": "Nsight Compute", "tool_version": "2025.3.1.0",
            "replay_mode": "range+kernel", "cache_control": "all", "metric_set": "why+sass",
            "work": 1048576.0, "work_unit": "cells", "derived": derived,
            "collections": collections}


NAIVE = ncu({"duration_ns": 9e5, "speed_of_light_pct": {"sm_pct": 20.0, "memory_pct": 85.46},
             "achieved_occupancy_pct": 50.0,
             "per_work_unit": {"thread_instructions": 40.0, "warp_instructions": 1.25}})
# Range replay's collection counts other wavefronts (and no conflict at all): the table must
# take kernel replay's, both of them, not the derived share (range replay's) either.
SHARED = combined(
    {"duration_ns": 1.234e6, "branch_uniformity": 0.875, "shared_conflict_share": 0.0,
     "per_work_unit": {"thread_instructions": 12.0, "warp_instructions": 0.5},
     "speed_of_light_pct": {"sm_pct": 70.3}, "achieved_occupancy_pct": 62.5},
    [{"replay_mode": "range", "metric_set": "why", "tool_version": "2025.3.1.0",
      "raw": {WAVEFRONTS: 1000.0, CONFLICTS: 0.0}, "derived": {"shared_conflict_share": 0.0}},
     {"replay_mode": "kernel", "metric_set": "sass", "tool_version": "2025.3.1.0",
      "launches_profiled": 1, "raw": {WAVEFRONTS: 2.5e9, CONFLICTS: 6.25e8},
      "derived": {"shared_conflict_share": 0.25, "branch_uniformity": 0.875}}])
# No raw shared-memory counts: the share is the derived one; no warp count: no threads/inst.
TILED = ncu({"duration_ns": 3e5, "shared_conflict_share": 0.0125,
             "per_work_unit": {"thread_instructions": 9.5}}, metric_set="why")


def run(variant, step, profile, backend="gpu", study="toy", point=POINT, params=None):
    """A run of a made-up study, its profile as given."""
    return {"study": study, "variant": variant, "step": step, "label": variant, "role": "step",
            "backend": backend, "precision": "fp32", "point": point, "sweep": "main",
            "params": params or {"n": "1024", "seed": "7"}, "status": "passed", "reason": "",
            "data": {"n": 1024.0}, "metric": "gcups", "metrics": {"gcups": 1.0, "unit": "GCUPS"},
            "timing": {"median": 1.0, "min": 0.9, "max": 1.1, "samples": [0.9, 1.0, 1.1]},
            "profile": profile}


def results(runs=None):
    """A results file, its runs out of step order: the table must sort them."""
    runs = runs if runs is not None else [
        run("shared", 4, SHARED),
        run("seq", 1, {"skipped": "cpu step"}, backend="cpu"),
        run("tiled", 3, TILED, params={"n": "1024", "seed": "7", "block": "64"}),
        run("tensor", 5, {"skipped": "ncu not found"}),
        run("naive", 2, NAIVE),
        run("tiled", 3, TILED, params={"n": "1024", "seed": "7", "block": "128"}),
        run("scan", 1, ncu({"duration_ns": 2.5e7}, work_unit="points"), study="other",
            point="n=8", params={"n": "8"})]
    return {"schema_version": 1,
            "ladder": {"version": "0.1.0", "git_commit": "abc123"},
            "host": {"cpu": "Test CPU", "cores": 4},
            "device": {"present": True, "name": "NVIDIA H100 80GB HBM3",
                       "compute_capability": "9.0", "sm_count": 132},
            "config": {"name": "toy-profile", "study": "toy"},
            "finished_at": "2026-01-01T00:01:00Z", "summary": {}, "runs": runs}


TOY = [
    "**toy** at `n=1024,seed=7`: NVIDIA H100 80GB HBM3, Nsight Compute 2025.3.1.0, "
    "mixed (range, range+kernel) replay, metric set mixed (sol, why, why+sass); "
    "shared-memory counts of combined profiles from the kernel-replay collection",
    "",
    "| step | variant | metric set | kernel (ms) | shared wavefronts | of which conflicts "
    "| conflict share % | branch uniformity % | threads per instruction "
    "| thread instructions per cell | SM % of peak | memory % of peak | achieved occupancy % |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    "| 2 | naive | sol | 0.9 | - | - | - | - | 32.0 | 40.0 | 20.0 | 85.5 | 50.0 |",
    "| 3 | tiled (block=64) | why | 0.3 | - | - | 1.25 | - | - | 9.50 | - | - | - |",
    "| 3 | tiled (block=128) | why | 0.3 | - | - | 1.25 | - | - | 9.50 | - | - | - |",
    "| 4 | shared | why+sass | 1.23 | 2.50G | 625M | 25.0 | 87.5 | 24.0 | 12.0 | 70.3 | - "
    "| 62.5 |"]
OTHER = [
    "**other** at `n=8`: NVIDIA H100 80GB HBM3, Nsight Compute 2025.3.1.0, range replay, "
    "metric set sol",
    "",
    "| step | variant | kernel (ms) |",
    "|---|---|---:|",
    "| 1 | scan | 25.0 |"]


def table_script(*args):
    """profile_table.py run as a user runs it."""
    return subprocess.run([sys.executable, "-m", SCRIPT, *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


class ProfileTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)
        cls.file = cls.write("profile.json", results())
        cls.groups = profile_table.profiled_groups([ladder_results.load(cls.file)])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, content):
        path = cls.dir / name
        path.write_text(content if isinstance(content, str) else json.dumps(content),
                        encoding="utf-8")
        return path

    def test_a_group_per_study_and_point_of_the_profiled_steps_in_step_order(self):
        self.assertEqual(list(self.groups), [("toy", POINT), ("other", "n=8")])
        self.assertEqual([(r.step, r.variant) for r in self.groups[("toy", POINT)]],
                         [(2, "naive"), (3, "tiled"), (3, "tiled"), (4, "shared")])

    def test_every_cell_of_the_table(self):
        self.assertEqual(profile_table.table("toy", POINT, self.groups[("toy", POINT)]),
                         "\n".join(TOY))

    def test_only_the_columns_some_row_has(self):
        self.assertEqual(profile_table.table("other", "n=8", self.groups[("other", "n=8")]),
                         "\n".join(OTHER))

    def test_shared_counts_from_the_kernel_replay_collection(self):
        shared = self.groups[("toy", POINT)][-1]
        self.assertEqual(profile_table.shared_counts(shared), (2.5e9, 6.25e8, "kernel"))

    def test_the_work_unit_named_in_one(self):
        def unit(*names):
            loaded = ladder_results.load(self.write("unit.json", results(
                [run(f"v{i}", i, ncu({"duration_ns": 1.0}, work_unit=n))
                 for i, n in enumerate(names)])))
            return profile_table.unit_name(loaded.runs)
        self.assertEqual((unit("cells"), unit("points"), unit("flops"), unit("cells", "flops")),
                         ("cell", "point", "FLOP", "work unit"))

    def test_fp32_adds_only_where_some_run_made_any(self):
        def headers(*fadds):
            loaded = ladder_results.load(self.write("fadd.json", results(
                [run(f"v{i}", i, ncu({"duration_ns": 1.0, "per_work_unit": {"fadd": f}}))
                 for i, f in enumerate(fadds)])))
            return [h for _, h, _ in profile_table.columns(loaded.runs)]
        self.assertIn("FP32 adds per cell", headers(1.0, 0.0))
        self.assertNotIn("FP32 adds per cell", headers(0.0, 0.0))
        self.assertEqual(profile_table.cells(ladder_results.load(self.write("one.json", results(
            [run("v", 1, ncu({"per_work_unit": {"fadd": 1.0}}))]))).runs[0])["fadd"], 1.0)

    def test_numbers_in_three_significant_digits(self):
        self.assertEqual([profile_table.count(v) for v in (0, 33, 920, 9566, 4.4e5, 2.5e9)],
                         ["0", "33", "920", "9.57k", "440k", "2.50G"])
        self.assertEqual([profile_table.plain(v) for v in (0.0576, 0.28, 17.81, 100.0)],
                         ["0.0576", "0.28", "17.8", "100"])

    def test_prints_the_tables_and_exits_0(self):
        printed = table_script(self.file)
        self.assertEqual((printed.returncode, printed.stderr), (0, ""))
        self.assertEqual(printed.stdout, "\n".join(TOY) + "\n\n" + "\n".join(OTHER) + "\n")

    def test_study_keeps_one_study(self):
        printed = table_script(self.file, "--study", "other")
        self.assertEqual((printed.returncode, printed.stderr), (0, ""))
        self.assertEqual(printed.stdout, "\n".join(OTHER) + "\n")

    def assert_exits_2(self, printed, *words):
        self.assertEqual(printed.returncode, 2, printed.stdout)
        self.assertEqual(printed.stdout, "")
        lines = printed.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, printed.stderr)
        self.assertTrue(lines[0].startswith("profile_table: "), lines[0])
        for word in words:
            self.assertIn(word, lines[0])

    def test_a_file_that_is_not_json_exits_2(self):
        self.assert_exits_2(table_script(self.write("bad.json", "{not json")),
                            "not a JSON results file")

    def test_a_file_that_is_not_a_results_file_exits_2(self):
        self.assert_exits_2(table_script(self.write("other.json", {"runs": []})),
                            "schema_version")

    def test_only_skipped_profiles_exit_2(self):
        skipped = self.write("skipped.json", results([
            run("seq", 1, {"skipped": "cpu step"}, backend="cpu"),
            run("naive", 2, {"skipped": "ncu not found"})]))
        self.assert_exits_2(table_script(skipped), "no profiled run",
                            "cpu step; ncu not found")

    def test_a_study_without_counters_exits_2(self):
        self.assert_exits_2(table_script(self.file, "--study", "nope"),
                            "no profiled run of study nope")


if __name__ == "__main__":
    unittest.main()

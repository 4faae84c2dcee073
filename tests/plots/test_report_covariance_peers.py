"""Tests of how the report holds the covariance steps against the library peers, like for like:
the FP16 steps against cublasLt's FP16 GEMM on the same scaled halves (step 19), and cuBLAS SSYRK
asked for TF32 in the class of what it ran, FP32 (plots/report_summary.py study_rows,
plots/covariance/report.py, plots/selection.py peer_precision). The canonical H100 reference ran
before step 19 existed and recorded the SSYRK peer as tf32: its runs are edited here as the
steps record them now.

Run: PYTHONPATH=. python3 tests/plots/test_report_covariance_peers.py   (exits non-zero on failure)
"""
import copy
import json
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import report_common as rc  # noqa: E402
from plots import report_summary  # noqa: E402
from report_fixtures import study_module  # noqa: E402
report_covariance = study_module("covariance", "report")

CANONICAL = ROOT / "results" / "reference" / "h100" / "covariance-paper.json"
CONFIG = "covariance-paper"
FP16_PEER = "cuBLASLt GEMM, FP16 in, FP32 accumulate"
SSYRK_TF32 = "cuBLAS SSYRK, TF32 asked (runs FP32)"


def canonical():
    return copy.deepcopy(ladder_results.load(CANONICAL).raw)


def as_recorded_now(results, fp16_peer_ms=None, ssyrk_tf32_gflops=None):
    """The results as the steps record them now: SSYRK in TF32 mode as fp32 under its new
    label, and (fp16_peer_ms set) the FP16 peer timed at fp16_peer_ms beside step 17, its rate
    and share of the FP16 limit scaled from step 17's; ssyrk_tf32_gflops sets that peer's rate."""
    results = copy.deepcopy(results)
    runs = results["runs"]
    ssyrk = next(r for r in runs if r["variant"] == "cublas_ssyrk" and r["sweep"] == "ladder")
    for run in runs:
        if run["variant"] == "cublas_ssyrk_tf32":
            run.update(precision="fp32", label=SSYRK_TF32)
            metrics = run["metrics"]
            if ssyrk_tf32_gflops is not None:
                metrics["gflops"] = ssyrk_tf32_gflops
            metrics.update({k: ssyrk["metrics"][k] for k in ("limit", "peak", "peak_rule")})
            metrics["pct_of_peak"] = 100 * metrics["gflops"] / metrics["peak"]
    if fp16_peer_ms is not None:
        step = next(r for r in runs if r["variant"] == "wgmma_fp16" and r["sweep"] == "ladder")
        peer = copy.deepcopy(step)
        factor = step["timing"]["median"] / fp16_peer_ms
        peer.update(variant="cublaslt_fp16", step=19, role="peer", label=FP16_PEER,
                    run_index=max(r.get("run_index", 0) for r in runs) + 1,
                    facts={"algorithms_tried": 8.0, "split_k": 2.0})
        peer["timing"].update(median=fp16_peer_ms,
                              samples=[fp16_peer_ms] * len(peer["timing"]["samples"]),
                              min=fp16_peer_ms, max=fp16_peer_ms, mean=fp16_peer_ms)
        for key in ("gflops", "pct_of_peak"):
            peer["metrics"][key] *= factor
        peer["params"] = {k: v for k, v in peer["params"].items()
                          if k in ("centring", "components", "m", "n", "seed")}
        runs.append(peer)
    return results


class Peers(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def context(self, results):
        (self.dir / f"{CONFIG}.json").write_text(json.dumps(results), encoding="utf-8")
        return rc.Context(self.dir, {"scale": "paper", "figures": [], "peers": [],
                                     "configs": [{"study": "covariance", "name": CONFIG,
                                                  "results": f"{CONFIG}.json", "state": "ran"}]})

    def summary_rows(self, results):
        ctx = self.context(results)
        return report_summary.study_rows(ctx, "covariance", ctx.manifest["configs"])

    def test_fp16_steps_meet_the_fp16_peer(self):
        """With the FP16 GEMM beside them, step 17 stands against it in the FP16 class, and no
        row says ours is faster only by another precision."""
        rows = self.summary_rows(as_recorded_now(canonical(), fp16_peer_ms=5.0))
        fp16 = [r for r in rows if r[5].startswith(f"{FP16_PEER} (fp16)")]
        self.assertEqual(len(fp16), 1, rows)
        self.assertIn("FP16 wgmma + TMA", fp16[0][2])
        self.assertNotIn("3xFP16", fp16[0][2])
        self.assertEqual(fp16[0][7].split(" (")[0], rc.fmt_ratio(5.0 / 4.269248008728027))
        self.assertIn("rel 0.0031", fp16[0][6])  # its error, as validation measured it
        for r in rows:
            self.assertNotIn("faster only by another precision", r[8], r)

    def test_without_the_fp16_peer_the_fp16_step_says_so(self):
        """The FP16 class needs an FP16 peer: without one, step 17's row still says it is
        faster only by another precision."""
        rows = self.summary_rows(as_recorded_now(canonical()))
        other = [r for r in rows if "faster only by another precision" in r[8]]
        self.assertEqual(len(other), 1, rows)
        self.assertIn("FP16 wgmma + TMA", other[0][2])

    def test_ssyrk_asked_for_tf32_is_an_fp32_peer(self):
        """SSYRK in TF32 mode ran FP32: even the fastest peer of all, it stands in the FP32
        row, beside our FP32-accurate steps, never in the TF32 row."""
        results = as_recorded_now(canonical(), fp16_peer_ms=5.0, ssyrk_tf32_gflops=60000.0)
        raw = next(r for r in results["runs"] if r["variant"] == "cublas_ssyrk_tf32")
        run = ladder_results.Run(raw, CANONICAL)
        self.assertEqual((selection.precision_class(run), selection.peer_precision(run)), ("fp32", "fp32"))
        rows = self.summary_rows(results)
        fp32 = [r for r in rows if r[5].startswith(f"{SSYRK_TF32} (fp32)")]
        self.assertEqual(len(fp32), 1, rows)
        self.assertIn("3xFP16 wgmma + TMA", fp32[0][2])  # FP32-accurate, the fastest such
        tf32 = [r for r in rows if "(tf32)" in r[5]]
        self.assertEqual(len(tf32), 1, rows)
        self.assertNotIn("SSYRK", tf32[0][5])
        self.assertIn("TF32 wgmma + TMA", tf32[0][2])

    def test_ladder_table_holds_each_step_against_its_own_class(self):
        """The covariance section's ladder: step 17 against the FP16 peer, the SSYRK peer
        listed as fp32 under the label that says TF32 was asked."""
        body = report_covariance.section(self.context(
            as_recorded_now(canonical(), fp16_peer_ms=5.0))).body
        self.assertIn(f"| 19 | {FP16_PEER} (`cublaslt_fp16`) | peer | fp16 | 5.00 ms |", body)
        self.assertIn(f"| 14 | {SSYRK_TF32} (`cublas_ssyrk_tf32`) | peer | fp32 | 32.3 ms | "
                      "38435 GFLOP/s, 57.4% of FP32 limit | - |", body)
        row17 = next(line for line in body.splitlines() if line.startswith("| 17 |"))
        self.assertTrue(row17.endswith(f"| {rc.fmt_ratio(5.0 / 4.269248008728027)} {FP16_PEER} |"),
                        row17)
        self.assertIn(f"fp16: FP16 wgmma + TMA 4.27 ms, {rc.fmt_ratio(5.0 / 4.269248008728027)} "
                      f"the speed of {FP16_PEER} (5 ms)", body)
        self.assertIn("an fp16 step against the fp16 peer only", body)


if __name__ == "__main__":
    unittest.main()

"""What the report tests share: the committed H100 reference runs, the same runs as a host
without a GPU would write them, and a study's modules (found as report.py finds them)."""
import copy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plots"))
REFERENCE = ROOT / "results" / "reference" / "h100" / "development"
import ladder_results  # noqa: E402  (plots/ is on the path now)
from studies import module as study_module  # noqa: E402,F401


def load(name):
    """A reference results file by file name ('dtw-paper.json') or config name ('dtw-paper')."""
    name = name if name.endswith(".json") else f"{name}.json"
    return copy.deepcopy(ladder_results.load(REFERENCE / name).raw)


def skip_gpu(results):
    """A copy of the results as a host without a GPU writes them: every GPU run skipped."""
    results = copy.deepcopy(results)
    results["device"] = {"present": False, "absent_reason": "no CUDA device"}
    for run in results["runs"]:
        if run.get("backend") == "gpu":
            run.update(status="skipped", reason="no CUDA device", timing=None, metrics={},
                       facts={})
    return results

"""What the report tests share: the committed H100 reference runs, the same runs as a host
without a GPU would write them, and a study's modules (found as report.py finds them)."""
import copy
from pathlib import Path

from plots import results as ladder_results
from plots.studies import module as study_module  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "results" / "reference" / "h100" / "development"


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


def write_reproduction(out, study, configs, peers=None, scale="paper", figures=(), peer="cutwed"):
    """The manifest of a reproduction folder `out` holding `configs` ({config name: results})
    and `peers` ({config name: the peer's results on it}), each file written there as
    `ladder reproduce` names it."""
    import json
    manifest = {"scale": scale, "configs": [], "peers": [], "figures": list(figures)}
    for name, results in configs.items():
        (Path(out) / f"{name}.json").write_text(json.dumps(results), encoding="utf-8")
        manifest["configs"].append({"study": study, "name": name, "state": "ran",
                                    "results": f"{name}.json"})
    for name, results in (peers or {}).items():
        (Path(out) / f"{name}-{peer}.json").write_text(json.dumps(results), encoding="utf-8")
        manifest["peers"].append({"study": study, "peer": peer, "config": name,
                                  "results": f"{name}-{peer}.json", "state": "ran", "why": ""})
    return manifest


class SectionClaims:
    """A mixin for a unittest.TestCase of one study's claims: each test gets its own folder,
    and section_claims() builds the study's section over one config's results there."""
    SECTION = None  # the study's plots/<study>/report.py section function
    STUDY = CONFIG = ""

    def setUp(self):
        import tempfile
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()

    def section_claims(self, results=None, scale="paper"):
        """The section's claims over `results` (None: no results); no two share a text."""
        from plots import report_common as rc
        ctx = rc.Context(self.dir, write_reproduction(
            self.dir, self.STUDY, {} if results is None else {self.CONFIG: results}, scale=scale))
        claims = type(self).SECTION(ctx).claims
        self.assertEqual(len({c.claim for c in claims}), len(claims), "two claims share a text")
        return claims

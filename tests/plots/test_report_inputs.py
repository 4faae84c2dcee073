"""Tests of what `plots/report.py DIR --from-results` takes: a reproduction folder's glob (its
reproduction.json manifest left out, here and in draw_all.py), and the refusal of results of
more than one ladder commit or device unless --allow-mixed.

Run: PYTHONPATH=. python3 tests/plots/test_report_inputs.py   (exits non-zero on failure)
"""
import contextlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from report_fixtures import REFERENCE

from plots import results as ladder_results  # noqa: E402
from plots import report  # noqa: E402

QUICK = REFERENCE.parent / "quick"
# A few files of the committed quick reproduction: ours, a peer's and the manifest.
FILES = ("dtw-paper.json", "twed-validation.json", "twed-validation-cutwed.json",
         "reproduction.json")
COMMIT, DEVICE = "e12ef05", "NVIDIA H100 80GB HBM3"


def edit_json(path, edit):
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def set_commit(commit):
    return lambda data: data["ladder"].update(git_commit=commit)


def set_device(name):
    return lambda data: data["device"].update(name=name)


class Inputs(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        self.src = self.tmp / "src"
        self.src.mkdir()
        for name in FILES:
            shutil.copyfile(QUICK / name, self.src / name)
        self.out = self.tmp / "out"

    def glob(self):
        return [str(p) for p in sorted(self.src.glob("*.json"))]

    def report(self, *extra):
        """report.py's exit status and stderr for the glob of src (and `extra` arguments)."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = report.main([str(self.out), "--from-results", *self.glob(), *extra])
        return status, err.getvalue()

    def refused(self, *words):
        status, err = self.report()
        self.assertEqual(status, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        for word in words + ("--allow-mixed",):
            self.assertIn(word, err)
        self.assertFalse(self.out.exists(), "a refused report wrote something")

    def allowed_runs(self):
        """With --allow-mixed: written, and the text of its Runs table (each file's commit and
        device named)."""
        status, err = self.report("--allow-mixed")
        self.assertEqual((status, err), (0, ""))
        text = (self.out / "REPORT.md").read_text(encoding="utf-8")
        self.assertIn("Mixed results", text)
        return text.split("\n## Runs\n")[1].split("\n## ")[0]

    def test_a_reproduction_folders_glob_leaves_its_manifest_out(self):
        status, err = self.report("--scale", "quick")
        self.assertEqual((status, err), (0, ""))
        manifest = json.loads((self.out / "reproduction.json").read_text(encoding="utf-8"))
        self.assertEqual([c["name"] for c in manifest["configs"]],
                         ["dtw-paper", "twed-validation"])
        self.assertEqual([p["results"] for p in manifest["peers"] if p["results"]],
                         ["twed-validation-cutwed.json"])
        # dtw's peer has no file among those given: listed as such, not as run.
        self.assertEqual([(p["config"], p["state"]) for p in manifest["peers"] if not p["results"]],
                         [("dtw-paper", "not in these results")])
        text = (self.out / "REPORT.md").read_text(encoding="utf-8")
        self.assertIn(f"commit `{COMMIT}`", text)
        self.assertNotIn("Mixed results", text)  # one commit, one device: no extra columns

    def test_a_peer_is_named_by_its_script_as_reproduce_names_it(self):
        # A second peer of a study whose script's name holds the first's (stringzilla and
        # stringzilla_paired): each is named by its own script, and neither is listed missing.
        edit_json(self.src / "twed-validation-cutwed.json",
                  lambda data: data["peer"].update(script="peers/twed/cutwed_paired.py"))
        status, err = self.report("--scale", "quick")
        self.assertEqual((status, err), (0, ""))
        manifest = json.loads((self.out / "reproduction.json").read_text(encoding="utf-8"))
        named = {(p["config"], p["peer"]): p["state"] for p in manifest["peers"]}
        self.assertEqual(named[("twed-validation", "cutwed_paired")], "ran")
        # cutwed.py's name is held in cutwed_paired's, but cutwed's own file is not given.
        self.assertEqual(named[("twed-validation", "cutwed")], "not in these results")

    def test_draw_all_leaves_the_manifest_out_too(self):
        self.assertEqual([f.path.name for f in ladder_results.load_all(self.glob())],
                         ["dtw-paper.json", "twed-validation-cutwed.json", "twed-validation.json"])
        self.assertEqual(len(ladder_results.load_all([self.src])), 3)  # the folder reads alike
        draw = [sys.executable, "-m", "plots.draw_all",
                str(self.src / "reproduction.json"), str(self.src / "twed-validation.json"),
                "--out-dir", str(self.tmp / "figures"), "--figures", "ladder"]
        done = subprocess.run(draw, capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(list((self.tmp / "figures").glob("*.png")))

    def test_a_reports_claims_json_is_left_out_too(self):
        # `ladder reproduce` writes claims.json beside REPORT.md: DIR/*.json reads DIR still.
        (self.src / "claims.json").write_text(json.dumps(
            {"schema_version": 2, "report": "REPORT.md", "scale": "quick", "claims": []}),
            encoding="utf-8")
        self.assertEqual(len(ladder_results.load_all([self.src])), 3)
        status, err = self.report("--scale", "quick")
        self.assertEqual((status, err), (0, ""))

    def test_any_other_json_is_still_an_error(self):
        (self.src / "notes.json").write_text('{"configs_seen": 1}', encoding="utf-8")
        status, err = self.report()
        self.assertEqual(status, 2)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("notes.json: schema_version is None", err)
        self.assertFalse(self.out.exists())

    def test_mixed_commits_are_refused_unless_allowed(self):
        edit_json(self.src / "twed-validation.json", set_commit("abc1234"))
        self.refused("commit", COMMIT, "abc1234", "dtw-paper.json", "twed-validation.json")
        runs = self.allowed_runs()
        self.assertIn(f"| `dtw-paper.json` | {COMMIT} | {DEVICE} |", runs)
        self.assertIn(f"| `twed-validation.json` | abc1234 | {DEVICE} |", runs)

    def test_a_peer_counts_for_the_device_not_the_commit(self):
        # its ladder commit is the harness that ingested it; the numbers are the peer's
        edit_json(self.src / "twed-validation-cutwed.json", set_commit("abc1234"))
        self.assertIsNone(report.mixed(ladder_results.load_all(self.glob())))
        edit_json(self.src / "twed-validation-cutwed.json", set_device("NVIDIA H200"))
        self.refused("device", "NVIDIA H200", "twed-validation-cutwed.json")

    def test_mixed_devices_are_refused_unless_allowed(self):
        edit_json(self.src / "twed-validation.json", set_device("NVIDIA H200"))
        self.refused("device", DEVICE, "NVIDIA H200", "dtw-paper.json", "twed-validation.json")
        runs = self.allowed_runs()
        self.assertIn(f"| `dtw-paper.json` | {COMMIT} | {DEVICE} |", runs)
        self.assertIn(f"| `twed-validation.json` | {COMMIT} | NVIDIA H200 |", runs)


if __name__ == "__main__":
    unittest.main()

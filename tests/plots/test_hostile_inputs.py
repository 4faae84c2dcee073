"""Hostile input to the figure and report scripts: each is refused with one line on stderr and
exit status 2, never a traceback or a hang, and leaves nothing behind; or, where the input is
valid (a long parameter), drawn.

- special files: a FIFO (or a device) given as a results file or a manifest, or found in a
  folder that is read, is refused without being opened for reading (it would block for ever);
- wrong types: every field of a results file that the figures read, given another type, is
  refused by the reader (plots/results.py) or drawn, as is a manifest's;
- results nested 100,000 deep, numbers no measurement comes near (1e308: no value), --out-dir
  naming a file, a parameter of 300 characters in a figure's file name (cut to 255 bytes, a
  hash kept), report.py --from-results whose figures fail (one line, exit 2, the folder it
  made removed).

Run: PYTHONPATH=. python3 tests/plots/test_hostile_inputs.py   (needs matplotlib; exits non-zero on failure)
"""
import contextlib
import copy
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from test_plots import ROOT, PLOTS, toy_results  # noqa: F401

from plots import draw, pages, studies  # noqa: E402
from plots import gpus_report  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import report  # noqa: E402
from plots import studies  # noqa: E402

QUICK = ROOT / "results" / "reference" / "h100" / "quick"
WAIT = 120  # seconds a refusal may take on a loaded machine; a blocked read takes for ever
# Values of every JSON type but null: each field is set to each of them in turn.
VALUES = ([1, 2], {"a": 1}, "x", 7, 2.5, True)


def fields(table, path=()):
    """The path (keys and list indices) of every field in ladder_results' table TABLE, nested
    ones included: a list's first item, "*" (any key of an object) as the key 'k'."""
    for key, want in table.items():
        here = (*path, "k" if key == "*" else key)
        yield here
        if isinstance(want, dict):
            yield from fields(want, here)
        elif isinstance(want, list):
            yield (*here, 0)
            if isinstance(want[0], dict):
                yield from fields(want[0], (*here, 0))


def set_at(raw, path, value):
    """The field at PATH of RAW set to VALUE; objects and lists on the way made where missing.
    Returns what was there (None for nothing)."""
    parent = raw
    for step, following in zip(path, path[1:]):
        if isinstance(parent, dict) and not isinstance(parent.get(step), (dict, list)):
            parent[step] = [{}] if following == 0 else {}
        parent = parent[step]
    old = parent[path[-1]] if isinstance(parent, list) else parent.get(path[-1])
    parent[path[-1]] = value
    return old


def script(name, *args, env=None, cwd=None):
    """plots/NAME (run as python3 -m plots.STEM) on ARGS: (exit status, stdout, stderr); a
    run still going after WAIT seconds (a read blocked on a FIFO) is killed and reads as
    status None."""
    try:
        done = subprocess.run([sys.executable, "-m", f"plots.{Path(name).stem}", *map(str, args)],
                              capture_output=True, text=True, timeout=WAIT, cwd=cwd,
                              stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired as err:
        return None, "", f"still running after {WAIT} s: {err.stderr or ''}"
    return done.returncode, done.stdout, done.stderr


def in_process(main, argv):
    """(exit status, stderr) of a script's main(argv) run here, its stdout dropped."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(argv)
    return status, err.getvalue()


class Case(unittest.TestCase):
    """A scratch folder (self.dir) with a toy results file in it (self.toy)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name)
        self.toy = self.write("toy.json", toy_results())

    def write(self, name, content):
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        return path

    def fifo(self, name):
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
        return path

    def refused(self, result, *words):
        """`result` (status, stdout, stderr) is a refusal: exit 2, one line naming WORDS."""
        status, _out, err = result
        self.assertEqual(status, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertNotIn("Traceback", err)
        for word in words:
            self.assertIn(word, err)

    def untouched(self, *paths):
        for path in paths:
            self.assertFalse(Path(path).exists(), f"{path} was left behind")


class SpecialFiles(Case):
    """A FIFO is never read: it would block until something writes into it."""

    def test_draw_all_refuses_a_fifo_given_by_name(self):
        fifo = self.fifo("fifo.json")
        self.refused(script("draw_all.py", self.toy, fifo, "--out-dir", self.dir / "figures"),
                     "fifo.json", "FIFO")
        self.untouched(self.dir / "figures")

    def test_draw_all_refuses_a_fifo_in_a_folder(self):
        self.fifo("in/x.json")
        shutil.copy(self.toy, self.dir / "in" / "toy.json")
        self.refused(script("draw_all.py", self.dir / "in", "--out-dir", self.dir / "figures"),
                     "x.json", "FIFO")
        self.untouched(self.dir / "figures")

    def test_a_device_is_no_results_file(self):
        self.refused(script("draw_all.py", "/dev/null", "--out-dir", self.dir / "figures"),
                     "/dev/null", "device")

    def test_the_profile_scripts_refuse_a_fifo(self):
        fifo = self.fifo("fifo.json")
        for name in ("profile_table.py", "profile_figure.py"):
            with self.subTest(script=name):
                self.refused(script(name, fifo), "FIFO")

    def test_report_refuses_a_fifo_as_its_manifest(self):
        self.fifo("repro/reproduction.json")
        self.refused(script("report.py", self.dir / "repro"), "reproduction.json", "FIFO")
        self.untouched(self.dir / "repro" / "REPORT.md")
        self.refused(script("gpus_report.py", "--out", self.dir / "gpus", self.dir / "repro",
                            self.dir / "repro"), "FIFO")
        self.untouched(self.dir / "gpus")

    def test_report_from_results_refuses_a_fifo_and_writes_nothing(self):
        for given in (self.fifo("fifo.json"), self.fifo("in/x.json").parent):
            with self.subTest(given=given.name):
                self.refused(script("report.py", self.dir / "out", "--from-results", self.toy,
                                    given), "FIFO")
                self.untouched(self.dir / "out")

    def test_a_fifo_in_a_study_folder(self):
        """A study folder on LADDER_STUDY_PATH: its seed.json a FIFO (reading it would block),
        or a module (the import would not find it)."""
        self.write("extra/data.py", "from .. import studies\nNOTES = studies.seed(__file__)\n")
        self.fifo("extra/seed.json")
        env = {studies.PATH_VARIABLE: str(self.dir / "extra")}
        self.refused(script("draw_all.py", self.toy, "--out-dir", self.dir / "figures", env=env),
                     "seed.json", "FIFO")
        for done in ("data.py", "seed.json"):
            (self.dir / "extra" / done).unlink()
        self.fifo("extra/figure.py")
        self.refused(script("draw_all.py", self.toy, "--out-dir", self.dir / "figures", env=env),
                     "figure.py", "not a regular file")
        self.untouched(self.dir / "figures")

    def test_a_manifest_naming_a_fifo_as_results_reports_it_missing(self):
        """A reproduction folder whose config's results file is a FIFO: the report is written,
        that config without results (report_common.Context reads through the reader)."""
        self.fifo("repro/toy.json")
        self.write("repro/reproduction.json", {"scale": "paper", "peers": [], "configs": [
            {"name": "toy-test", "study": "toy", "results": "toy.json", "state": "ran"}]})
        status, _out, err = script("report.py", self.dir / "repro")
        self.assertEqual(status, 0, err)
        self.assertTrue((self.dir / "repro" / "REPORT.md").is_file())


class WrongTypes(Case):
    """Each field the figures read, of another type: refused in one line, or drawn."""

    def draw(self, raw):
        """draw_all's main on RAW as a file: (exit status, stderr); an exception fails."""
        path = self.write("mutant.json", raw)
        out = self.dir / "figures"
        shutil.rmtree(out, ignore_errors=True)
        return in_process(lambda argv: draw.main(argv=argv),
                          [str(path), "--out-dir", str(out)])

    def check(self, raw, what):
        try:
            status, err = self.draw(raw)
        except Exception as exc:  # noqa: BLE001 - what this test looks for
            self.fail(f"{what}: {type(exc).__name__}: {exc}")
        self.assertIn(status, (0, 2), f"{what}: {err}")
        if status == 2:
            self.assertEqual(len(err.strip().splitlines()), 1, f"{what}: {err}")

    def test_the_issues_examples_are_one_line(self):
        for field, value in (("point", [1, 2]), ("step", "two")):
            raw = toy_results()
            raw["runs"][0][field] = value
            path = self.write(f"{field}.json", raw)
            with self.subTest(field=field):
                self.refused(script("draw_all.py", path, "--out-dir", self.dir / "figures"),
                             f"runs[0].{field}")
                self.untouched(self.dir / "figures")

    def test_every_field_of_a_run_and_a_file(self):
        """Refused by the reader in one line, or drawn: a value of the field's own type is
        not drawn again (the other tests draw those)."""
        base = toy_results()
        base["runs"] = base["runs"][:7]  # one point: one figure per draw
        for path in fields(ladder_results.FILE_FIELDS):
            name = ".".join(map(str, path))
            for value in VALUES:
                raw = copy.deepcopy(base)
                old = set_at(raw, path, value)
                if type(old) is type(value):
                    continue
                with self.subTest(field=name, value=value):
                    self.check(raw, f"{name} = {value!r}")

    def test_numbers_beyond_any_measurement_are_none(self):
        """A time or a rate of 1e308 (or 1e-308) is a number, but a figure's arithmetic on it
        (an axis padded by a factor, a ratio) overflows: the reader takes it as no value."""
        for field in ("median", "max", "gbps"):
            for value in (1e308, 1e29, 1e-29, 1e-308):
                raw = toy_results()
                raw["runs"] = raw["runs"][:7]
                run = raw["runs"][1]
                run["metrics" if field == "gbps" else "timing"][field] = value
                with self.subTest(field=field, value=value):
                    self.check(raw, f"{field} = {value}")

    def test_results_nested_100000_deep(self):
        deep = self.write("deep.json", '{"schema_version": 1, "runs": [], "x": '
                          + "[" * 100000 + "]" * 100000 + "}")
        self.refused(script("draw_all.py", deep, "--out-dir", self.dir / "figures"),
                     "nested too deeply")
        self.refused(script("report.py", self.dir / "out", "--from-results", deep),
                     "nested too deeply")
        self.untouched(self.dir / "figures", self.dir / "out")

    def test_a_manifest_of_other_types(self):
        good = {"scale": "paper", "peers": [], "configs": [
            {"name": "toy-test", "study": "toy", "results": "toy.json", "state": "ran"}]}
        bad = [("configs", 7), ("configs", [7]), ("peers", "x"), ("figures", [3]),
               ("device", "x"), ("scale", 1)]
        bad += [(f"configs.0.{k}", v) for k in ("name", "results", "state") for v in (3, [1])]
        bad += [("configs.0.elapsed_s", "long"), ("configs.0.summary", {"passed": "x"})]
        for field, value in bad:
            manifest = copy.deepcopy(good)
            parent, *rest = field.split(".")
            if rest:
                manifest[parent][int(rest[0])][rest[1]] = value
            else:
                manifest[parent] = value
            self.write("repro/reproduction.json", manifest)
            shutil.copy(self.toy, self.dir / "repro" / "toy.json")
            with self.subTest(field=field, value=value):
                status, err = in_process(report.main, [str(self.dir / "repro")])
                self.refused((status, "", err), f"'{field.replace('.0.', '[0].')}")
                self.untouched(self.dir / "repro" / "REPORT.md")
                status, err = in_process(gpus_report.main, [
                    "--out", str(self.dir / "gpus"), str(self.dir / "repro"),
                    str(self.dir / "repro")])
                self.refused((status, "", err))
                self.untouched(self.dir / "gpus")


class Outputs(Case):
    """Where figures and reports are written."""

    def test_out_dir_naming_a_file(self):
        afile = self.write("afile", "keep")
        for out in (afile, afile / "below"):
            with self.subTest(out=out):
                self.refused(script("draw_all.py", self.toy, "--out-dir", out), "not a folder")
                self.refused(script("report.py", out, "--from-results", self.toy),
                             "not a folder")
                self.refused(script("gpus_report.py", "--out", out, QUICK, QUICK),
                             "not a folder")
        self.assertEqual(afile.read_text(), "keep")

    def test_report_where_it_cannot_be_written(self):
        (self.dir / "repro" / "REPORT.md").mkdir(parents=True)
        self.refused(script("report.py", self.dir / "repro", "--from-results", self.toy),
                     "REPORT.md")
        self.assertEqual(os.listdir(self.dir / "repro"), ["REPORT.md"])
        self.refused(script("report.py", QUICK, "--report", self.dir / "none" / "R.md"),
                     "--report")
        self.untouched(self.dir / "none")

    def test_a_300_character_parameter_names_a_figure_of_255_bytes(self):
        names = []
        for fill in ("x", "y"):
            raw = toy_results()
            for run in raw["runs"]:
                run["params"]["size"] = fill * 300
            path = self.write(f"long_{fill}.json", raw)
            status, out, err = script("draw_all.py", path, "--out-dir", self.dir / "figures")
            self.assertEqual(status, 0, err)
            names += [Path(line).name for line in out.split()]
        self.assertEqual(len(names), 2, names)
        for name in names:
            self.assertLessEqual(len(name.encode()), 255, name)
            self.assertTrue(name.startswith("toy_ladder_size") and name.endswith(".png"), name)
        self.assertEqual(sorted(p.name for p in (self.dir / "figures").glob("*.png")),
                         sorted(names))
        # The same name is cut the same way; names that fit are left as they are.
        self.assertEqual(pages.file_name("a" * 300 + ".png"), pages.file_name("a" * 300 + ".png"))
        self.assertEqual(pages.file_name("toy_ladder_size1024.png"), "toy_ladder_size1024.png")


CRASHING_FIGURE = """
    FIGURES = {"boom": lambda results, runs, out_dir: 1 / 0}
"""


class FromResults(Case):
    """report.py DIR --from-results: its figures drawn by draw_all.py in a child process."""

    def test_wrong_types_are_one_line_and_nothing_is_written(self):
        raw = toy_results()
        raw["runs"][2]["point"] = ["size", 1024]
        path = self.write("bad.json", raw)
        self.refused(script("report.py", self.dir / "out", "--from-results", path),
                     "runs[2].point")
        self.untouched(self.dir / "out")

    def test_figures_that_fail_are_one_line_exit_2_and_the_folder_is_removed(self):
        study = self.dir / "studies" / "boom"
        study.mkdir(parents=True)
        (study / "figure.py").write_text(textwrap.dedent(CRASHING_FIGURE))
        toy = self.write("boom.json", toy_results(["boom"]))
        env = {studies.PATH_VARIABLE: str(study)}
        status, _out, err = script("report.py", self.dir / "out", "--from-results", toy, env=env)
        self.refused((status, _out, err), "figures", "ZeroDivisionError")
        self.untouched(self.dir / "out")
        # Into a folder that exists: what it copied and drew is removed, the rest kept.
        self.write("out2/keep.txt", "keep")
        self.refused(script("report.py", self.dir / "out2", "--from-results", toy, env=env))
        self.assertEqual(os.listdir(self.dir / "out2"), ["keep.txt"])


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""The project installs as one Python package: `pip install` of the project's folder into a
fresh venv gives ladder.plots and ladder.peers, and from an empty folder, with nothing of the
source tree on the path, the reader turns a committed results file into a table (a pandas
DataFrame where pandas installs, `.[dataframe]`, else records()) and `python -m
ladder.plots.draw_all` lists the figures and draws a ladder.

The venv sees the system's site-packages (numpy and matplotlib come from there when present,
so the test needs little from the network); ladder itself must come from the venv. pip builds
from a copy of the project's Python half, so nothing is written into the source tree. Exit
status 77 (skipped) when no venv can be made, or pip cannot reach a package index to build
with; the reason is printed.

Run: python3 tests/plots/test_package_install.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results" / "reference" / "h100" / "development" / "dtw-paper.json"
SKIP = 77
# what `pip install` needs of the project: pyproject.toml names the rest
PARTS = ("pyproject.toml", "plots", "peers", "LICENSE")
# the source tree's packages must not be what the venv imports
CLEAN = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}

CHECK = """
import json, sys
import ladder.plots, ladder.peers
from ladder.plots import results as r
path = sys.argv[1]
try:
    table = r.to_dataframe(path)
    rows, how = len(table), "dataframe"
except ImportError:
    rows, how = len(r.records(path)), "records"
print(json.dumps({"rows": rows, "how": how, "runs": len(r.load(path).runs),
                  "plots": ladder.plots.__file__, "peers": ladder.peers.__file__}))
"""


def skip(why):
    print(f"skipped: {why}")
    sys.exit(SKIP)


def run(argv, cwd, timeout=900):
    print("$", " ".join(map(str, argv)), flush=True)
    return subprocess.run(list(map(str, argv)), cwd=cwd, env=CLEAN, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def copy_project(into):
    into.mkdir()
    for part in PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, into / part,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "cache"))
        else:
            shutil.copy2(source, into / part)
    return into


def index_reachable(python, cwd):
    """Whether pip reaches a package index (or its cache): it can fetch setuptools."""
    probe = run([python, "-m", "pip", "download", "--no-deps", "--dest", cwd / "probe",
                 "setuptools>=61"], cwd, timeout=300)
    return probe.returncode == 0, probe.stderr.strip().splitlines()[-1:]


def install(python, project, cwd):
    """pip install PROJECT[dataframe], else PROJECT alone (pandas may have no wheel here);
    the last try's process."""
    for target in (f"{project}[dataframe]", str(project)):
        done = run([python, "-m", "pip", "install", "--quiet", target], cwd)
        print(done.stdout[-2000:], done.stderr[-4000:], sep="")
        if done.returncode == 0:
            return done
    return done


def main():
    problems = []
    with tempfile.TemporaryDirectory(prefix="ladder-pip.") as tmp:
        tmp = Path(tmp)
        venv, empty = tmp / "venv", tmp / "empty"
        empty.mkdir()
        made = run([sys.executable, "-m", "venv", "--system-site-packages", venv], tmp)
        if made.returncode != 0:
            skip(f"no venv here: {made.stderr.strip()[-300:]}")
        python = venv / "bin" / "python"
        reachable, said = index_reachable(python, tmp)
        if not reachable:
            skip(f"pip reaches no package index: {' '.join(said)}")
        project = copy_project(tmp / "project")
        if install(python, project, tmp).returncode != 0:
            sys.exit("FAIL: pip install of the project failed (above)")
        checked = run([python, "-c", CHECK, RESULTS], empty)
        if checked.returncode != 0:
            sys.exit(f"FAIL: reading {RESULTS.name} through ladder.plots: {checked.stderr[-3000:]}")
        got = json.loads(checked.stdout)
        print(f"{got['rows']} rows through {got['how']}, from {got['plots']}")
        if got["rows"] != got["runs"] or got["rows"] == 0:
            problems.append(f"{got['rows']} rows, want one per run ({got['runs']})")
        for part in ("plots", "peers"):
            if not Path(got[part]).is_relative_to(venv):
                problems.append(f"ladder.{part} came from {got[part]}, not the venv")
        listed = run([python, "-m", "ladder.plots.draw_all", "--list"], empty)
        names = listed.stdout.split()
        if listed.returncode != 0 or "ladder" not in names or "dtw_paper" not in names:
            problems.append(f"python -m ladder.plots.draw_all --list: exit {listed.returncode}, "
                            f"{listed.stdout!r} {listed.stderr[-2000:]}")
        drawn = run([python, "-m", "ladder.plots.draw_all", RESULTS, "--figures", "ladder",
                     "--out-dir", empty / "figures"], empty)
        if drawn.returncode != 0 or not list((empty / "figures").glob("dtw_ladder_*.png")):
            problems.append(f"python -m ladder.plots.draw_all drew no ladder: exit "
                            f"{drawn.returncode}, {drawn.stderr[-2000:]}")
        if sorted(p.name for p in empty.iterdir()) != ["figures"]:
            problems.append(f"the empty folder now holds {sorted(os.listdir(empty))}")
    for p in problems:
        print("FAIL:", p)
    if problems:
        sys.exit(1)
    print("ok: pip install gives ladder.plots, which reads and draws from any folder")


if __name__ == "__main__":
    main()

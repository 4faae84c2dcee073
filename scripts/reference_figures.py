#!/usr/bin/env python3
"""Draw the figures of the committed references. Only their results files are committed (a
figure is a few hundred kB that the JSON beside it already holds); this draws them again.

  scripts/reference_figures.py [FOLDER ...]        (also: make figures [REFS="FOLDER ..."])

FOLDER (default: every folder under results/reference/ with a REPORT.md) gets FOLDER/figures/,
drawn as `ladder reproduce` draws a reproduction's: plots.draw_all on the results files its
reproduction.json lists (in a folder without one: on every results file there), then
plots.profile_figure on the configs' files that hold counters, then the summary figure of
plots.report. The report that writes goes to a temporary folder: the committed REPORT.md,
which the figures are linked from, is never rewritten. The new figures replace FOLDER/figures/
whole. The figures are this commit's drawing of the same numbers; a figure that REPORT.md
links and this commit no longer draws (a name changed since) is named on stderr.
Exit status: 0 when every folder's figures were drawn, 1 when some were not (each said on
stderr), 2 when a FOLDER is not a folder.
"""
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "results" / "reference"
MANIFEST = "reproduction.json"
LINK = re.compile(r"\]\((figures/[^)\s]+)\)")


class DrawError(Exception):
    pass


def folders(given):
    """The folders to draw: those given, else every reference folder with a REPORT.md."""
    if given:  # absolute: the plots/ scripts run in the project's folder
        return [Path(g).resolve() for g in given]
    return sorted(p.parent for p in REFERENCE.rglob("REPORT.md") if LINK.search(read(p)))


def read(path):
    return path.read_text(encoding="utf-8", errors="replace")


def results_files(folder):
    """(every results file to draw, the configs' files that may hold counters): the manifest's
    configs and peers as `ladder reproduce` draws them, else the folder itself (draw_all.py
    reads every results file in it and leaves a manifest out). A file the manifest names that
    is not committed (a shard's, say) is left out."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return [folder], []
    try:
        m = json.loads(read(manifest))
        configs = [c["results"] for c in m.get("configs", []) if isinstance(c.get("results"), str)]
        peers = [p["results"] for p in m.get("peers", []) if isinstance(p.get("results"), str)]
    except (ValueError, AttributeError, TypeError) as err:
        raise DrawError(f"{manifest}: not a reproduction manifest ({err})") from err
    present = [folder / f for f in configs + peers if (folder / f).is_file()]
    if not present:
        raise DrawError(f"{manifest}: none of the results files it lists is here")
    return present, [folder / f for f in configs if (folder / f).is_file()]


def run(argv, what):
    """Run a module of plots (from the project root); DrawError with its last line on stderr when it fails."""
    done = subprocess.run([sys.executable, *map(str, argv)], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise DrawError(f"{what} failed (exit status {done.returncode}): {last}")


def draw(folder):
    """FOLDER/figures/ drawn again, swapped in whole; the links REPORT.md has that are left
    without a figure."""
    files, configs = results_files(folder)
    fresh = Path(tempfile.mkdtemp(prefix=".figures-", dir=folder))
    try:
        run(["-m", "plots.draw_all", *files, "--out-dir", fresh], "plots.draw_all")
        if configs:  # no counters is not a failure: most runs are not profiled
            subprocess.run([sys.executable, "-m", "plots.profile_figure", "--if-any",
                            "--out-dir", fresh, *configs], cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        target = folder / "figures"
        shutil.rmtree(target, ignore_errors=True)
        fresh.rename(target)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    if (folder / MANIFEST).is_file():
        # The summary figure is drawn by the report: its text goes to a scratch folder.
        with tempfile.TemporaryDirectory() as scratch:
            run(["-m", "plots.report", folder, "--report", Path(scratch) / "REPORT.md"],
                "plots.report (the summary figure)")
    report = folder / "REPORT.md"
    links = LINK.findall(read(report)) if report.is_file() else []
    return sorted({link for link in links if not (folder / link).is_file()})


def main(argv):
    if any(a.startswith("-") for a in argv):
        print(__doc__.strip(), file=sys.stdout if argv[0] in ("-h", "--help") else sys.stderr)
        return 0 if argv[0] in ("-h", "--help") else 2
    todo = folders(argv)
    for folder in todo:
        if not folder.is_dir():
            print(f"reference_figures: error: {folder} is not a folder", file=sys.stderr)
            return 2
    failed = 0
    for folder in todo:
        try:
            missing = draw(folder)
        except (DrawError, OSError) as err:
            print(f"reference_figures: {folder}: {err}", file=sys.stderr)
            failed += 1
            continue
        drawn = len(list((folder / "figures").glob("*.png")))
        print(f"reference_figures: {folder}/figures: {drawn} figures", flush=True)
        if missing:
            print(f"reference_figures: {folder}: REPORT.md links {len(missing)} figure(s) this "
                  f"commit does not draw: {', '.join(missing[:5])}"
                  + (" ..." if len(missing) > 5 else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

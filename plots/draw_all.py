"""Draw every figure for one or more `ladder run` results files.

Usage: python3 plots/draw_all.py RESULTS.json [RESULTS2.json ...] [--out-dir DIR]

Each file must have schema_version 1. Its runs are split by study and handed to that
study's drawing function in PLOTTERS; a study without one is reported and skipped.
Exit status: 0 when done, 2 when a file cannot be read or matplotlib is missing.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sibling modules, from any cwd
import results_file  # noqa: E402

DEFAULT_OUT_DIR = Path("results/figures")


def every(*draws):
    """One drawing function that runs each of `draws` in turn and returns all their paths,
    for a study with several kinds of figure."""
    def draw(results, out_dir):
        written = []
        for one in draws:
            written += one(results, out_dir)
        return written
    return draw


def plotters():
    """Study name -> function(results, out_dir) returning the paths it wrote.

    Imported here rather than at the top so a bad file is reported even where
    matplotlib is missing. A new study adds one line.
    """
    import covariance
    import dtw_ladder
    import dtw_length_sweep
    import dtw_paper
    return {
        # Per-point ladders; the notes comparison (a "notes" sweep, or n=128 x 2^20);
        # GCUPS against n (a "length" sweep, or 3+ lengths at one entries value).
        "dtw": every(dtw_ladder.draw, dtw_paper.draw, dtw_length_sweep.draw),
        # Per-(m, n) GFLOP/s ladders; the tiled chunk_size sweep (2+ chunk sizes at a point).
        "covariance": every(covariance.draw_ladder, covariance.draw_chunk_sweep),
    }


def studies_in(results):
    """Studies with runs in the file, in first-seen order; the config's if there are none."""
    names = []
    for run in results["runs"]:
        study = run.get("study")
        if study not in names:
            names.append(study)
    if not names and (results.get("config") or {}).get("study"):
        names.append(results["config"]["study"])
    return names


def only_study(results, study):
    """The file with just one study's runs, so each plotter sees only its own."""
    return dict(results, runs=[r for r in results["runs"] if r.get("study") == study])


def draw_file(path, results, table, out_dir):
    """Draw one file's studies; return the paths written."""
    written = []
    for study in studies_in(results):
        draw = table.get(study)
        if draw is None:
            print(f"draw_all: {path}: no plotter for study {study!r}, skipped", file=sys.stderr)
            continue
        written += draw(only_study(results, study), out_dir)
    return written


def warn_overwrites(written_by):
    """Same figure name from two files (e.g. two runs of one config): only the last is kept."""
    for figure, sources in written_by.items():
        if len(sources) > 1:
            print(f"draw_all: warning: {figure} was drawn from {', '.join(sources)}; "
                  f"it now shows {sources[-1]}", file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Draw every figure for ladder results files.")
    parser.add_argument("results", nargs="+", help="results JSON files written by `ladder run`")
    parser.add_argument("--out-dir", default=str(DEFAULT_OUT_DIR),
                        help=f"where the figures go (default {DEFAULT_OUT_DIR})")
    args = parser.parse_args(argv)

    # Read and check every file first, so a typo in the last one leaves no half-drawn set.
    try:
        loaded = [(path, results_file.load(path)) for path in args.results]
    except results_file.ResultsError as err:
        print(f"draw_all: {err}", file=sys.stderr)
        return 2
    try:
        table = plotters()
    except ImportError as err:
        print(f"draw_all: {err}", file=sys.stderr)
        return 2

    written_by = {}
    for path, results in loaded:
        figures = draw_file(path, results, table, args.out_dir)
        if not figures:
            print(f"draw_all: {path}: nothing to draw", file=sys.stderr)
        for figure in figures:
            written_by.setdefault(str(figure), []).append(path)
    warn_overwrites(written_by)
    return 0


if __name__ == "__main__":
    sys.exit(main())

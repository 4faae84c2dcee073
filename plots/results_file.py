"""Reading a `ladder run` results file, shared by every plotting script.

Kept separate so the per-study scripts and draw_all.py reject bad input the same way.
"""
import json
from pathlib import Path

# The only results layout these scripts understand; a newer harness must bump it.
SCHEMA_VERSION = 1


class ResultsError(Exception):
    """A results file that cannot be drawn; the message is one line meant for the user."""


def load(path):
    """Return the parsed results of `path`, or raise ResultsError saying why not."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ResultsError(f"{path}: cannot read: {err.strerror or err}") from err
    except UnicodeDecodeError as err:
        raise ResultsError(f"{path}: not UTF-8 text, is it a results file?") from err
    try:
        results = json.loads(text)
    except json.JSONDecodeError as err:
        raise ResultsError(f"{path}: not valid JSON: {err}") from err
    if not isinstance(results, dict):
        raise ResultsError(f"{path}: expected a JSON object at the top level")
    if "schema_version" not in results:
        raise ResultsError(f"{path}: no schema_version, is it a results file?")
    version = results["schema_version"]
    if version != SCHEMA_VERSION:
        raise ResultsError(
            f"{path}: schema_version is {version!r}, these scripts read {SCHEMA_VERSION}")
    runs = results.get("runs")
    # Checked here so the drawing code can treat every run as a dict without guards.
    if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
        raise ResultsError(f"{path}: 'runs' is not a list of objects")
    return results


def run_cli(name, description, draw, nothing_drawn, argv=None):
    """The command line every figure script shares: RESULTS [--out-dir DIR].

    `draw(results, out_dir)` returns the paths it wrote; `nothing_drawn` says why a file gave
    no figure. Exit status 2 for an unreadable results file, else 0.
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("results", help="results JSON written by `ladder run`")
    parser.add_argument("--out-dir", default="results/figures",
                        help="where the PNGs go (default results/figures)")
    args = parser.parse_args(argv)
    try:
        results = load(args.results)
    except ResultsError as err:
        print(f"{name}: {err}", file=sys.stderr)
        return 2
    if not draw(results, args.out_dir):
        print(f"{name}: {args.results}: {nothing_drawn}", file=sys.stderr)
    return 0

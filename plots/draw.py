"""The command line of draw_all and of a figure module run alone (`python3 -m plots.ladder`):
every results file read first, then each figure the files ask for, drawn once per pool of files
(pools) and spread over the machine's cores."""
import argparse
import contextlib
import io
import multiprocessing
import os
import sys

from . import messages, pages, pools, studies
from . import results as ladder_results

DEFAULT_OUT_DIR = "results/figures"


def main(draws=None, argv=None):
    """The command line of draw_all (draws None) and of a figure module run alone (its
    FIGURES)."""
    parser = argparse.ArgumentParser(description="Draw figures from ladder results files.")
    parser.add_argument("results", nargs="*", help="results files written by `ladder run`, "
                                                   "or folders of them")
    parser.add_argument("--out-dir", default=DEFAULT_OUT_DIR, help="default: %(default)s")
    parser.add_argument("--figures", type=lambda text: [n for n in text.split(",") if n],
                        help="instead of the configs' figures: NAME for every run, "
                             "SWEEP:NAME for the runs of one sweep")
    parser.add_argument("--list", action="store_true", help="print the figure names and exit")
    args = parser.parse_args(argv)
    if not args.results and not args.list:
        parser.error("the following arguments are required: results")
    try:  # every file first, so that a typo in the last one leaves no half-drawn set
        draws = draws or studies.figures()
        if args.list:
            print("\n".join(draws))
            return 0
        loaded = ladder_results.load_all(args.results)
        pages.require_matplotlib()
        problem = pages.out_dir_problem(args.out_dir)
        if problem:
            raise ladder_results.ResultsError(problem)
    except (ladder_results.ResultsError, studies.StudyError, ImportError) as err:
        messages.warn(err)
        return 2
    files = pools.merge_peers(loaded)
    override = args.figures or (list(draws) if len(draws) == 1 else None)
    try:
        drawn = draw_files(files, draws, args.out_dir, override)
    except OSError as err:  # checked above; what is left: a full disk, a folder made read-only
        messages.warn(f"cannot write figures into {args.out_dir}: {err.strerror or err}")
        return 2
    say_drawn(files, drawn)
    return 0


def say_drawn(files, drawn):
    """What main prints of the figures drawn (draw_files' list): each path, the notes, the
    files that gave none, and the figures that several pools wrote in turn."""
    sources, drew = {}, set()
    for pool, written, said, note in drawn:
        sys.stdout.write(said)
        drew.update(map(id, pool) if written else ())
        if note and written:
            messages.warn(note)
        for figure in written:
            sources.setdefault(str(figure), []).append(" + ".join(str(f.path) for f in pool))
    for results in files:
        if id(results) not in drew:
            messages.warn(f"{results.path}: nothing to draw")
    for figure, paths in sources.items():
        if len(paths) > 1:  # pools of other GPUs or commits (pool_key): only the last is kept
            messages.warn(f"warning: {figure} was drawn from {', '.join(paths)}; it now shows {paths[-1]}")


_JOBS = []  # what draw_files' workers draw, inherited when they fork


def _draw_job(i):
    """Worker: draws the figures of job i of _JOBS in turn; returns the paths written and what
    was printed, for each."""
    done = []
    for draw, results, runs, out_dir in _JOBS[i]:
        said = io.StringIO()
        with contextlib.redirect_stdout(said):
            written = draw(results, runs, out_dir)
        done.append(([str(w) for w in written], said.getvalue()))
    return done


def draw_files(files, draws, out_dir, override):
    """Each figure the files ask for, drawn once per pool of files (pool_figures), the figures
    spread over this machine's cores (a reproduction's draw in the time of the slowest); (the
    pool's files, paths written, printed text, note) per figure, in order, so that the output
    reads as if drawn one after the other. The pools of one figure and study (other GPUs or
    commits), which may write the same paths, are drawn in turn: the last one's are kept."""
    global _JOBS
    figures = pools.pool_figures(files, draws, override)
    jobs = {}
    for i, (name, results, _runs, _note) in enumerate(figures):
        jobs.setdefault((name, pools.pool_key(results)[0]), []).append(i)
    _JOBS = [[(draws[figures[i][0]], *figures[i][1:3], out_dir) for i in job]
             for job in jobs.values()]
    workers = min(len(_JOBS), os.cpu_count() or 1)
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        done = [_draw_job(j) for j in range(len(_JOBS))]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            done = pool.map(_draw_job, range(len(_JOBS)), chunksize=1)
    drawn = dict(zip((i for job in jobs.values() for i in job), (d for job in done for d in job)))
    return [(pools.pooled_files(results), *drawn[i], note)
            for i, (_name, results, _runs, note) in enumerate(figures)]


def draw_file(results, draws, out_dir, override):
    """Draw the figures one file asks for, here and now (draw_files pools files and spreads
    the figures over the cores); return the paths written."""
    written = []
    for name, view, runs, _note in pools.pool_figures([results], draws, override):
        written += draws[name](view, runs, out_dir)
    if not written:
        messages.warn(f"{results.path}: nothing to draw")
    return written

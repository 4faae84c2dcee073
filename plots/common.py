"""What every figure shares: the command line, the choice of figures, reading runs, the
palette, pages, bars, axes and tables. Only this module sets matplotlib up, so that a missing
matplotlib is reported in one place, after the results files are checked."""
import argparse
import contextlib
import copy
import hashlib
import io
import json
import math
import multiprocessing
import os
import re
import sys
import textwrap
import warnings
from pathlib import Path

import ladder_results
import studies
from ladder_results import ResultsError, number  # noqa: F401  (the figure modules' too)

try:
    import matplotlib
except ImportError:  # reported by require_matplotlib()
    matplotlib = None
else:
    matplotlib.use("Agg")  # files only, never a window: this runs on headless build hosts
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.container import ErrorbarContainer
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text
    from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, NullFormatter,
                                   NullLocator)

DEFAULT_OUT_DIR = "results/figures"

# Colour by role, lighter for CPU runs: the eye finds the baseline and the peers first,
# CPU against GPU second. Neutral hues (purple, blue, orange): a role's colour says whose run
# it is, never that it is the better one, so no green (good) and no red (bad, incorrect).
ROLE_COLOURS = {"baseline": {"cpu": "#9e8cc6", "gpu": "#5e4a94"},
                "step": {"cpu": "#8db4dc", "gpu": "#2f6496"},
                "peer": {"cpu": "#f0a86c", "gpu": "#d9773a"}}
INCORRECT, MUTED = "#c0392b", "#555555"
# Table cells: the paper's and ours in neutral greys and blue-greys; a comparison of ours with
# another (a time over ours) green only where ours is faster, red where it is slower.
SHADES = {"paper": "#ececec", "ours": "#e6ecf3", "ratio": "#f5f5f5", "peer": "#fbe6d5",
          "faster": "#d5ecd9", "slower": "#f5d5d0"}
TOP_IN, FOOT_LINE_IN = 0.75, 0.18  # title and subtitle; one footnote line
# No text smaller than this (points at the figure's size as saved): legible on a slide, and in
# a paper's column; tests/plots/test_figures_pdf.py checks every figure against it.
MIN_FONT_PT = 8
DPI = 120  # the PNG's; its PDF twin is vector
# The PDF's fonts as TrueType (Type 42), not Type 3, which some venues refuse; no creation
# date, so that drawing the same results twice gives the same bytes.
PDF_RC = {"pdf.fonttype": 42}
PDF_METADATA = {"CreationDate": None}


# ---- command line and the choice of figures -------------------------------------------------

def figure_runs(results, override=None):
    """Figure name -> the runs it draws, from the config's `figures` lists (plots/README.md) or
    `override` (--figures: 'NAME' or 'SWEEP:NAME' entries)."""
    top = list(results.config.get("figures") or [])
    by_sweep = {s.get("label", ""): list(s.get("figures") or [])
                for s in results.config.get("sweeps") or []}
    if override is not None:
        top, by_sweep = [], {}
        for entry in override:
            sweep, _, name = entry.rpartition(":")
            (by_sweep.setdefault(sweep, []) if sweep else top).append(name)
    if not top and not any(by_sweep.values()):
        top = ["ladder"]
    chosen = {}
    for run in results.runs:
        for name in dict.fromkeys(top + by_sweep.get(run.sweep, [])):
            chosen.setdefault(name, []).append(run)
    return chosen


def require_matplotlib():
    if matplotlib is None:
        raise ImportError("matplotlib is not installed; run scripts/deps.sh plots "
                          "or python3 -m pip install -r plots/requirements.txt")


def printable(text):
    """TEXT as a terminal may show it, as ladder's printable_all does: control, format
    (bidirectional) and other invisible characters as \\xNN of their UTF-8 bytes, so that no
    name in a results file can recolour or rewrite the terminal."""
    return "".join(c if c.isprintable() else "".join("\\x%02x" % b for b in c.encode("utf-8", "surrogatepass"))
                   for c in str(text))


def warn(text):
    print(f"{Path(sys.argv[0]).name}: {printable(text)}", file=sys.stderr)


_formatwarning = warnings.formatwarning


def _printable_warning(message, category, filename, lineno, line=None):
    # matplotlib's warnings quote figure text ("Glyph 27 (\x1b) missing from font"): names.
    return _formatwarning(printable(message), category, filename, lineno, line)


warnings.formatwarning = _printable_warning


def main(draws=None, argv=None):
    """The command line of draw_all.py (draws None) and of a figure script (its FIGURES)."""
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
        require_matplotlib()
        problem = out_dir_problem(args.out_dir)
        if problem:
            raise ResultsError(problem)
    except (ResultsError, studies.StudyError, ImportError) as err:
        warn(err)
        return 2
    files = merge_peers(loaded)
    override = args.figures or (list(draws) if len(draws) == 1 else None)
    try:
        drawn = draw_files(files, draws, args.out_dir, override)
    except OSError as err:  # checked above; what is left: a full disk, a folder made read-only
        warn(f"cannot write figures into {args.out_dir}: {err.strerror or err}")
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
            warn(note)
        for figure in written:
            sources.setdefault(str(figure), []).append(" + ".join(str(f.path) for f in pool))
    for results in files:
        if id(results) not in drew:
            warn(f"{results.path}: nothing to draw")
    for figure, paths in sources.items():
        if len(paths) > 1:  # pools of other GPUs or commits (pool_key): only the last is kept
            warn(f"warning: {figure} was drawn from {', '.join(paths)}; it now shows {paths[-1]}")


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
    figures = pool_figures(files, draws, override)
    jobs = {}
    for i, (name, results, _runs, _note) in enumerate(figures):
        jobs.setdefault((name, pool_key(results)[0]), []).append(i)
    _JOBS = [[(draws[figures[i][0]], *figures[i][1:3], out_dir) for i in job]
             for job in jobs.values()]
    workers = min(len(_JOBS), os.cpu_count() or 1)
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        done = [_draw_job(j) for j in range(len(_JOBS))]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            done = pool.map(_draw_job, range(len(_JOBS)), chunksize=1)
    drawn = dict(zip((i for job in jobs.values() for i in job), (d for job in done for d in job)))
    return [(pooled_files(results), *drawn[i], note)
            for i, (_name, results, _runs, note) in enumerate(figures)]


def only_peers(results):
    return bool(results.runs) and all(r.is_peer for r in results.runs)


def merge_peers(loaded):
    """The files, each peer-only file folded into ours of its config name (or left alone)."""
    ours = {r.name: r for r in loaded if not only_peers(r)}
    out = []
    for results in loaded:
        partner = ours.get(results.name) if only_peers(results) else None
        if partner is None:
            out.append(results)
        else:
            partner.runs = partner.runs + results.runs
    return out


def pool_key(results):
    """What files share for their runs to be drawn as one figure: the study, the GPU ('' for
    none) and the ladder commit. Runs of two GPUs or two commits are never one figure."""
    device = results.device_name if results.device.get("present") else ""
    return results.study, device, results.commit


def run_key(run):
    """A run as two files of one pool may both hold it: its study, variant, point and params."""
    return run.study, run.variant, run.point, json.dumps(run.params, sort_keys=True)


def pool_figures(files, draws, override):
    """(name, results, runs, note) for each figure the files (after merge_peers) ask for
    (figure_runs), once per pool of files of one pool_key: the runs of every file of the pool
    that asks for it, results the files as one (pooled). A run that a later file holds too
    (run_key) is drawn from the later file alone; note says how many ('' for none), a warning
    for a figure drawn. In the order of each pool's last file, so that of two pools writing
    the same path, the one with the later file is drawn last, as one file after another was.
    An unknown name is said and skipped."""
    asked, order = {}, {id(f): i for i, f in enumerate(files)}
    for results in files:
        for name, runs in figure_runs(results, override).items():
            if name in draws:
                asked.setdefault((name, *pool_key(results)), []).append((results, runs))
            else:
                warn(f"{results.path}: unknown figure {name!r} skipped (known: {', '.join(draws)})")
    figures = []
    for (name, *_key), pool in sorted(asked.items(), key=lambda i: order[id(i[1][-1][0])]):
        later, kept = set(), []
        for _results, runs in reversed(pool):
            kept.insert(0, [r for r in runs if run_key(r) not in later])
            later.update(map(run_key, runs))
        left_out = sum(len(runs) for _results, runs in pool) - sum(map(len, kept))
        note = (f"warning: {name} from {', '.join(str(r.path) for r, _runs in pool)}: "
                f"{left_out} run{'s'[:left_out != 1]} in more than one of them (same study, "
                "variant, point and params), each drawn from the last file that has it"
                if left_out else "")
        figures.append((name, pooled([r for r, _runs in pool]), [r for k in kept for r in k],
                        note))
    return figures


def pooled(files):
    """Files of one pool_key as one, for a figure's page: the first's device, host and
    provenance, its config named after every file's ('dtw-paper + dtw-steps-2e16'); .files
    lists them. One file is itself. Each run keeps its own file (Run.file)."""
    if len(files) == 1:
        return files[0]
    view = copy.copy(files[0])
    names = dict.fromkeys(str(f.config.get("name") or f.path.stem) for f in files)
    view.raw = {**view.raw, "config": {**view.config, "name": " + ".join(names)}}
    view.runs, view.files = [r for f in files for r in f.runs], list(files)
    return view


def pooled_files(results):
    """The files a results file (pooled or not) was made of."""
    return getattr(results, "files", [results])


def narrowed(results, runs):
    """`results` (pooled) of only the files holding some of `runs`: a figure of a point that
    one file of the pool ran alone names that file's config alone."""
    ids, files = set(map(id, runs)), pooled_files(results)
    held = [f for f in files if any(id(r) in ids for r in f.runs)]
    return pooled(held) if held and len(held) < len(files) else results


def peer_device(results, runs):
    """The GPU of the peers' runs folded into `results` from their own file, '' when none."""
    return next((r.file.device_name for r in runs
                 if r.is_peer and r.file not in pooled_files(results)), "")


def draw_file(results, draws, out_dir, override):
    """Draw the figures one file asks for, here and now (draw_files pools files and spreads
    the figures over the cores); return the paths written."""
    written = []
    for name, view, runs, _note in pool_figures([results], draws, override):
        written += draws[name](view, runs, out_dir)
    if not written:
        warn(f"{results.path}: nothing to draw")
    return written


def seed(module_file):
    """A study's published numbers: the seed.json beside its module."""
    return ladder_results.read_json(Path(module_file).with_name("seed.json"), "a seed.json")


# ---- reading runs --------------------------------------------------------------------------

def seconds(run):
    """Run.seconds, None for no run."""
    return run.seconds if run is not None else None


def short_variant(run):
    """'dwe' whether the file says 'dwe' or 'skyline/dwe'."""
    return str(run.variant or "?").rsplit("/", 1)[-1]


def step_label(run, name=None):
    """A run's name as every figure and table shows it (its label, or `name`), marked when
    the run ran emulated on its GPU: its time is then not what that GPU does natively."""
    name = run.label if name is None else name
    return f"{name} (emulated)" if run.emulated else name


def row_name(run):
    """'3  openmp': the step number keeps the ladder's order readable in any figure."""
    return f"{'?' if run.step is None else run.step}  {step_label(run)}"


def time_range(run):
    """The run's 95% interval in ms where it has a spread (ladder_results.Run.interval_ms: over
    its processes, or the min..max of one process's samples), else None."""
    interval = run.interval_ms
    return interval if interval and interval[0] < interval[1] else None


def range_words(spans):
    """What drawn ranges are (Intervals, a plain (lo, hi) read as a sample range; None, a
    point without one, is left out): '95% interval over 10 processes', 'min..max sample',
    both where the runs differ; '' for none."""
    spans = [s for s in spans if s]
    counts = sorted({s.processes for s in spans if getattr(s, "confidence", False)})
    words = []
    if counts:
        k = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        words.append(f"95% interval over {k} processes")
    if any(not getattr(s, "confidence", False) for s in spans):
        words.append("min..max sample" + (" where one process" if counts else ""))
    return "; ".join(words)


def range_text(spans, word="error bars"):
    """'error bars: min..max sample', 'whiskers: 95% interval over 10 processes': what an axis
    says of the ranges drawn on it (range_words); '' when none is."""
    words = range_words(spans)
    return f"{word}: {words}" if words else ""


def sample_span(run, value, rate=False):
    """The run's interval (time_range) on the scale of `value`, one of its numbers drawn: a
    time (its median in any unit) or, rate=True, a rate (GCUPS, GFLOP/s: proportional to
    1 / time, so the fastest end gives the highest rate), an Interval of the run's kind; None
    for a run with no spread (one sample), an untimed run or no value. Every whisker and
    error bar of a figure comes from here or ratio_span."""
    span, ms = time_range(run), run.median_ms
    if not span or not value or not ms:
        return None
    lo, hi = span
    return span.like(*((value * ms / hi, value * ms / lo) if rate
                       else (value * lo / ms, value * hi / ms)))


def time_span(y_of):
    """sweep_line's span for a line of times y_of(run) (ms, s, a total)."""
    return lambda run: sample_span(run, y_of(run))


def rate_span(y_of):
    """sweep_line's span for a line of rates y_of(run) (run.metric)."""
    return lambda run: sample_span(run, y_of(run), rate=True)


def ratio_span(value, num, den):
    """The interval of `value`, num's median time over den's (a speedup), as
    ladder_results.ratio_interval gives it (Welch's where both ran several processes, else
    num's fastest sample over den's slowest .. its slowest over den's fastest); None when
    it has no spread."""
    interval = ladder_results.ratio_interval(num, den) if value else None
    if not interval or interval[0] == interval[1]:
        return None
    scale = value * den.median_ms / num.median_ms
    return interval.like(interval[0] * scale, interval[1] * scale)


def limit_name(run):
    """'FP32 limit', 'TF32 tensor limit', 'FP32 + DPX limit': what the run's pct_of_peak is
    measured against, as the results name it (files before the name was recorded: by the
    run's precision)."""
    name = run.metrics.get("limit")
    if not isinstance(name, str) or not name:
        name = str(run.precision or "fp32").upper().replace("X", "x")
    return f"{name} limit"


def limit_text(run):
    """'67.6% of FP32 limit'; where the memory bound is the limit, its name says so and the
    share of the compute bound follows: '40.4% of DRAM bandwidth limit (27.2% of FP16
    tensor)'. 'limit unknown' when the study claims a limit that ladder does not know for this
    GPU (run.peak_reason says why); '' when no limit is claimed."""
    if run.pct_of_peak is None:
        return "limit unknown" if run.peak_reason else ""
    text = f"{run.pct_of_peak:.1f}% of {limit_name(run)}"
    compute = run.bound("compute")
    peak = number(compute.get("peak"))
    if run.binds == "memory" and peak and peak > 0 and run.metric:
        text += f" ({100 * run.metric / peak:.1f}% of {compute.get('limit') or 'compute'})"
    return text


def rate_text(run):
    """'5652 GCUPS, 67.6% of FP32 limit', or '' for a run without a metric."""
    if run.metric is None:
        return ""
    limit = limit_text(run)
    return f"{format_value(run.metric)} {run.unit}" + (f", {limit}" if limit else "")


def status_text(run, max_chars=90):
    """What stands instead of an untimed run: 'skipped: no CUDA device', 'unsupported', ..."""
    status = run.status or "no timing"
    if status in ("passed", "incorrect"):  # validated but not timed: say so
        status += ", no timing"
    return with_reason(status, run, max_chars)


def cut_at_word(text, max_chars):
    """`text` when it has at most max_chars characters, else its words that fit followed by
    ' ...': cut between words, never inside one (a first word longer than max_chars is kept
    whole)."""
    if len(text) <= max_chars:
        return text
    words, kept = text.split(), ""
    for word in words:
        if kept and len(kept) + 1 + len(word) + 4 > max_chars:
            break
        kept = f"{kept} {word}" if kept else word
    return kept + " ..." if kept != " ".join(words) else kept


def with_reason(status, run, max_chars):
    """'status: the run's reason', the reason cut between words to about max_chars; the status
    alone without one."""
    reason = cut_at_word(run.reason, max_chars)
    return f"{status}: {reason}" if reason else status


def limits(runs):
    """{limit name: (peak, unit, rule)} of the GPU runs that report one, first seen first. A
    limit of one name at another value (a memory bound follows the point's work per byte) is
    named with its point: 'DRAM bandwidth limit at m=1000,n=257'."""
    found = {}
    for run in runs:
        peak = number(run.metrics.get("peak"))
        if run.backend == "gpu" and peak and peak > 0:
            name = limit_name(run)
            if name in found and abs(found[name][0] - peak) > 1e-9 * peak:
                name = f"{name} at {run.point}"
            found.setdefault(name, (peak, run.unit,
                                    run.metrics.get("peak_rule") or "rule not given"))
    return found


def limit_footnotes(runs):
    return [f"{name}: {format_value(peak)} {unit} = {rule}"
            for name, (peak, unit, rule) in limits(runs).items()]


def ladder_rows(runs):
    """[(run shown, row name)]: a row per variant in step order (ties as the runs appear), its
    pick of the variant's runs at several settings (block_size, ...) named with its settings."""
    by_variant = {}
    for run in runs:
        by_variant.setdefault(run.variant, []).append(run)
    result = []
    for group in sorted(by_variant.values(), key=lambda rs: rs[0].step or 0):
        shown = pick(group, lambda r: r.median_ms)
        name = row_name(shown)
        settings = varying(group, leave_out=shown.data)
        if settings:
            values = ", ".join(f"{k}={shown.params.get(k)}" for k in settings)
            name += (f"\n(fastest of {len(group)}: {values})" if shown.median_ms
                     else f"\n({len(group)} settings)")
        result.append((shown, name))
    return result


def rate(run):
    """How fast a timed run is, higher is better, whatever a figure's axis."""
    return run.metric or 1 / run.median_ms


# A precision whose results are as accurate as another's is held against that one's peers:
# tf32x3 (three TF32 tensor-core products) and fp16x3 are FP32-accurate, as cuBLAS SGEMM and
# SSYRK are. FP16 is its own class, held against an FP16 library (covariance: cublasLt's FP16
# GEMM on the same scaled halves); where no FP16 peer ran, a step that is faster only by
# computing in FP16 is never held against a TF32 or FP32 library as if alike (the summary gives
# it a row that says so). A peer's class is the precision its results record: what the library
# ran, which is not always what was asked (cuBLAS SSYRK in TF32 mode runs FP32 on Hopper).
PEER_PRECISION = {"tf32x3": "fp32", "fp16x3": "fp32"}


def precision_class(run):
    """'fp64', 'fp32', 'tf32', 'fp16' or 'int': the number format a run computes in, whatever
    its scheme (fp16x2 and fp16x3 are fp16, tf32x3 tf32, bf16 fp16, int32 int); a format
    of none of these is its own. A gain is stated only between two steps of one class."""
    text = str(run.precision or "fp32").lower()
    if text.startswith(("int", "uint")):
        return "int"
    for name, words in (("fp64", ("fp64", "f64", "double")), ("fp32", ("fp32", "f32", "float")),
                        ("tf32", ("tf32",)), ("fp16", ("fp16", "f16", "half", "bf16"))):
        if text.startswith(words):
            return name
    return re.sub(r"x\d+$", "", text)


def peer_precision(run):
    """The precision of the peers a run is compared with: its own, or PEER_PRECISION's;
    integer outputs are exact at any width, so every int precision is 'int'."""
    text = str(run.precision or "")
    return "int" if text.startswith(("int", "uint")) else PEER_PRECISION.get(text, text)


def best_peers(shown, by_metric):
    """{precision: the fastest correct timed peer of that precision}: the references the other
    runs are measured against (an FP32 step is not held against a TF32 library); peer_of
    gives a run's."""
    best = {}
    for r in shown:
        if r.is_peer and r.passed and (r.metric if by_metric else r.median_ms):
            old = best.get(r.precision)
            if old is None or rate(r) > rate(old):
                best[r.precision] = r
    return best


def peer_of(peers, run):
    """The peer of best_peers that `run` is compared with, None when there is none."""
    return peers.get(peer_precision(run))


def pick(runs, value=lambda r: r.seconds):
    """Of runs at one point: the fastest correct one by `value`, else the fastest timed
    (incorrect), else the first (it says why it has no time); None for no runs."""
    timed = sorted((r for r in runs if value(r)), key=lambda r: (not r.passed, value(r)))
    return timed[0] if timed else (runs[0] if runs else None)


# ---- points and settings -------------------------------------------------------------------

def group_by_point(runs, leave_out=()):
    """(study, point) -> its runs in the order they appear; points in numeric order. A point is
    the params that are also data facts of the study (else the harness's point string), but
    for `leave_out` (n, for a figure that sweeps n)."""
    facts = {}
    for run in runs:  # per study, every fact any run reports: untimed runs may lack some
        facts.setdefault(run.study, set()).update(run.data)
    groups = {}
    for run in runs:
        point = [(k, str(run.params[k])) for k in sorted(facts[run.study] - set(leave_out))
                 if k in run.params]
        point = point or [tuple(p.split("=", 1)) for p in run.point.split(",") if "=" in p]
        groups.setdefault((run.study, tuple(point)), []).append(run)
    seen = list(facts)

    def order(item):  # studies as they appear, points by number: n=64 before n=128
        (study, point), _ = item
        return seen.index(study), [(k, number(v) is None, number(v) or 0, v) for k, v in point]
    return dict(sorted(groups.items(), key=order))


def point_title(point):
    return ", ".join(f"{k}={v}" for k, v in point) or "all runs"


def point_name(point):
    """File-safe: 'entries1048576_n128'; anything but [A-Za-z0-9.-] becomes '_'."""
    return re.sub(r"[^A-Za-z0-9.-]", "_", "_".join(f"{k}{v}" for k, v in point) or "all")


def varying(runs, leave_out=()):
    """Params other than `leave_out` that take more than one value among the runs that
    have them (block_size is no setting when only some variants take it)."""
    keys = sorted({k for r in runs for k in r.params} - set(leave_out))
    return [k for k in keys if len({r.params.get(k) for r in runs} - {None}) > 1]


def missing_footnotes(missing, total, what_not="not timed"):
    """[(what, why)] of untimed points -> lines grouped by why, so that twenty
    'skipped: no CUDA device' take one line (`total` 0: never 'all')."""
    by_why = {}
    for what, why in missing:
        by_why.setdefault(why, []).append(what)
    lines = []
    for why, whats in by_why.items():
        more = f" and {len(whats) - 4} more" if len(whats) > 4 else ""
        lines.append(f"{what_not}, all {total}: {why}" if len(whats) == total > 1
                     else f"{what_not}: {', '.join(whats[:4])}{more} ({why})")
    return lines


# ---- numbers -------------------------------------------------------------------------------

def format_value(value):
    """Three significant digits without scientific notation: 0.632, 2.90, 12.4, 1523."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.1f}" if value >= 10 else f"{value:.2f}"
    return f"{value:.3g}"


def format_time(ms):
    """'42.8 s', '147 ms', '2.20 ms'."""
    return f"{format_value(ms / 1000)} s" if ms >= 1000 else f"{format_value(ms)} ms"


def tick_text(value, _pos=None):
    """1, 50, 200, 10k, 2M, 5G: short enough for a tick, exact for 1-2-5 values."""
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


def times_text(value):
    """'1.23x', '45.6x', '789x'; '-' for None."""
    return "-" if value is None else f"{value:.{2 if value < 10 else 1 if value < 100 else 0}f}x"


# ---- pages ---------------------------------------------------------------------------------

def subtitle(results):
    """Where the numbers come from: GPU name (or 'no GPU') and the host CPU."""
    device, host = results.device, results.host
    if device.get("present"):
        details = [f"cc {device['compute_capability']}" if device.get("compute_capability") else "",
                   f"{device['sm_count']} SMs" if device.get("sm_count") else ""]
        details = ", ".join(d for d in details if d)
        gpu = f"GPU: {device.get('name', 'unknown')}" + (f" ({details})" if details else "")
    else:
        gpu = f"no GPU ({device['reason']})" if device.get("reason") else "no GPU"
    cores = f", {host['cores']} cores" if host.get("cores") else ""
    return f"{gpu}   |   CPU: {host.get('cpu', 'unknown')}{cores}"


def provenance(results):
    """Small footer so that a figure pasted elsewhere can be traced back to its run."""
    ladder = results.raw.get("ladder") or {}
    return "   ".join([f"config {results.config.get('name', '?')}",
                       f"ladder {ladder.get('version', '?')} @ {ladder.get('git_commit', '?')}",
                       str(results.raw.get("finished_at") or "")]).rstrip()


def page(results, title, body_in, footnotes=(), width=13.0, top_in=TOP_IN):
    """A figure with its titles, footnotes and footer, body_in inches left; (fig, margins)."""
    require_matplotlib()
    bottom_in = 0.15 + FOOT_LINE_IN * (len(footnotes) + 1)
    height = top_in + body_in + bottom_in
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)  # explicit, so that layout and savefig never look for pyplot
    # fig.text rather than suptitle: tight_layout leaves fig.text alone, so the space
    # reserved here is the only space taken, whatever the matplotlib version.
    fig.text(0.5, 1 - 0.12 / height, title, ha="center", va="top", fontsize=13, fontweight="bold")
    fig.text(0.5, 1 - 0.45 / height, subtitle(results), ha="center", va="top", fontsize=9,
             color="#333333")
    fig.text(0.01, 0.06 / height, provenance(results), fontsize=MIN_FONT_PT, color="#888888")
    for i, line in enumerate(reversed(footnotes), start=1):
        fig.text(0.01, (0.06 + i * FOOT_LINE_IN) / height, line, fontsize=8, color=MUTED)
    return fig, (top_in, bottom_in)


def layout(fig, margins, right_in=0.0, **kwargs):
    """tight_layout inside the page's margins, leaving right_in inches free on the right."""
    (top_in, bottom_in), (width, height) = margins, fig.get_size_inches()
    fig.tight_layout(rect=(0, bottom_in / height, 1 - right_in / width, 1 - top_in / height),
                     **kwargs)


def each_point(results, runs, out_dir, name, figure, study=None, leave_out=(),
               enough=lambda group: True):
    """figure(results, study, point, runs) saved as <study>_<name>_<point>.png for each point
    (group_by_point) of `study` (None: any) whose runs are `enough`, results narrowed to the
    pooled files that ran the point; the paths written."""
    return [save(figure(narrowed(results, group), s, point, group), out_dir,
                 f"{s}_{name}_{point_name(point)}.png")
            for (s, point), group in group_by_point(runs, leave_out).items()
            if study in (None, s) and enough(group)]


def wrapped(notes, width_in):
    """Footnotes cut into lines that fit a page `width_in` inches wide."""
    return [line for note in notes for line in textwrap.wrap(note, int(width_in * 16))]


def font_sizes(fig):
    """The sizes (points) of the text `fig` shows: titles, labels, ticks, legends, tables."""
    return [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]


MAX_NAME_BYTES = 255  # the longest file name most file systems take (ext4, XFS, APFS)


def file_name(name):
    """`name` (NAME.png) as a file name no longer than MAX_NAME_BYTES: as it is when it fits,
    else cut, with a hash of the whole name before the suffix, so that two long names that
    share their start stay two files and the same name is always cut the same way."""
    if len(name.encode()) <= MAX_NAME_BYTES:
        return name
    stem, suffix = os.path.splitext(name)
    tag = "_" + hashlib.sha256(name.encode()).hexdigest()[:16] + suffix
    keep = MAX_NAME_BYTES - len(tag.encode())
    return stem.encode()[:keep].decode("utf-8", "ignore") + tag


def out_dir_problem(out_dir, option="--out-dir"):
    """Why figures or a report cannot be written into the folder `out_dir` (made when missing),
    '' when they can: a file where it or a folder above it goes, or a folder not writable.
    `option` names it in the line ('' for a positional argument)."""
    named = f"{option} {out_dir}".strip()
    for folder in [Path(out_dir), *Path(out_dir).parents]:
        if folder.exists():
            which = named if folder == Path(out_dir) else f"{named}: {folder}"
            if not folder.is_dir():
                return f"{which} is not a folder"
            if not os.access(folder, os.W_OK | os.X_OK):
                return f"{which} is not writable"
            return ""
    return ""


def save(fig, out_dir, name):
    """Write `fig` as out_dir/name (a .png, cut to a file name's length) and, beside it, as a
    vector PDF of the same name; print the PNG's path (one line per figure) and return it."""
    path = Path(out_dir) / file_name(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    with matplotlib.rc_context(PDF_RC):
        fig.savefig(path.with_suffix(".pdf"), metadata=PDF_METADATA)
    print(path)
    return path


def save_or_say(made, out_dir, name):
    """made, (figure, why not), saved as `name`.png: [its path]; or [] and why not on stderr."""
    fig, why = made
    if fig is None:
        warn(f"{name} not drawn: {why}")
        return []
    return [save(fig, out_dir, f"{name}.png")]


def colour(run, text=False):
    """A run's bar colour; text=True: the darker shade, readable as a row name."""
    return role_colour(run.role, "gpu" if text else run.backend)


def role_colour(role, backend):
    shades = ROLE_COLOURS.get(role, ROLE_COLOURS["step"])
    return shades.get(backend, shades["gpu"])


def role_handles(runs):
    """Legend entries (dots, as finish_rows' rows) for the roles and backends present, plus
    'incorrect'."""
    seen = dict.fromkeys((r.role, str(r.backend)) for r in runs)
    handles = [Line2D([], [], linestyle="none", marker="o", markersize=DOT_PT,
                      color=role_colour(r, b), label=f"{r} ({b.upper()})") for r, b in seen]
    if any(r.status == "incorrect" for r in runs):
        handles.append(Line2D([], [], linestyle="none", marker="X", markersize=DOT_PT + 1,
                              color=INCORRECT, label="incorrect"))
    return handles


def versus_shade(text):
    """A table cell's shade for 'X / ours' ('2.99x': the other's time over ours): 'faster'
    above 1 (ours is faster), 'slower' below; None for an even ratio or no number."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d*)?)x\s*", str(text))
    if not found or float(found[1]) == 1:
        return None
    return SHADES["faster" if float(found[1]) > 1 else "slower"]


def line_handle(label, colour, drawn=True, not_drawn="not timed", **style):
    """A line's legend entry, greyed (and saying `not_drawn`) where nothing of it was drawn."""
    if not drawn:
        colour, label = "#bbbbbb", f"{label} ({not_drawn})" if not_drawn else label
    return Line2D([], [], color=colour, label=label, **style)


def legend(ax, handles, above=False):
    """Outside the axes, where it covers no bar or line: top right, or in a row above."""
    where = (dict(loc="lower left", bbox_to_anchor=(0, 1.01), ncol=len(handles)) if above
             else dict(loc="upper left", bbox_to_anchor=(1.01, 1)))
    return ax.legend(handles=handles, borderaxespad=0.2, fontsize=9, frameon=False, **where)


# ---- rows: a value per row, as a dot -------------------------------------------------------
# A bar's length stands for its value only on a linear axis from zero. A ladder's values span
# decades, so its rows are dots on a log axis (a dot plot): where a dot sits is its value, and
# nothing has a length. Each row's numbers stand in a column right of the axes, so that the
# value axis reaches no further than the values drawn on it.

DOT_PT = 8  # a dot's size
COLUMN_GAP_IN = 0.1  # between the axes and the first text column, and between columns
MIN_AXES_IN = 5.5  # the value axis is never narrower: the page widens instead
GUIDE = "#e4e4e4"  # a row's faint line across the whole axes, for the eye to follow
ROW_PAD = 10 ** 0.12  # the value axis past the lowest and highest value (a factor)


def dot(ax, y, value, colour_, whisker=None, incorrect=False, marker="o", hollow=False):
    """Row y's value as a dot, its whisker (the run's interval) through it, a faint guide
    across the row; an incorrect run's dot a red X. Returns the values drawn, for value_axis."""
    ax.axhline(y, color=GUIDE, linewidth=0.8, zorder=1)
    if whisker:
        ax.plot(whisker, (y, y), color="black", linewidth=1, zorder=3)
    if incorrect:
        style = dict(marker="X", color=INCORRECT, markersize=DOT_PT + 1)
    else:
        style = dict(marker=marker, color=colour_, markersize=DOT_PT, markeredgewidth=1.4,
                     markerfacecolor="white" if hollow else colour_)
    ax.plot([value], [y], linestyle="none", zorder=4, **style)
    return [value, *(whisker or ())]


def row_text(ax, y, text, colour_="black", offset_in=0.0, incorrect=False, **style):
    """Row y's text in a column right of the axes, offset_in inches into the columns (0: the
    first); an incorrect run's red and saying so. Out of tight_layout: finish_rows leaves the
    room. Returns the text."""
    if incorrect:
        text, colour_ = f"INCORRECT  {text}", INCORRECT
    artist = ax.annotate(text, (1, y), xycoords=ax.get_yaxis_transform(),
                         xytext=((COLUMN_GAP_IN + offset_in) * 72, 0),
                         textcoords="offset points", va="center", ha="left",
                         **{"fontsize": 9, "color": colour_, **style}, annotation_clip=False)
    artist.set_in_layout(False)
    return artist


def width_in(fig, artists):
    """The width in inches of the widest of `artists` (texts), 0 for none."""
    renderer = fig.canvas.get_renderer()
    return max((a.get_window_extent(renderer).width / fig.dpi for a in artists), default=0.0)


def status_row(ax, y, text):
    """No dot: the row says why, from the left edge of the axes (into the text columns where
    it is long: out of tight_layout, which would squeeze the axes to hold it)."""
    ax.text(0.01, y, text, transform=ax.get_yaxis_transform(), va="center", ha="left",
            fontsize=9, style="italic", color=MUTED).set_in_layout(False)


def finish_rows(fig, margins, ax, shown, names, values, axis_text, handles, columns_in):
    """The end of every dot chart: row names (the first on top: a ladder reads downwards),
    the value axis fitted to `values`, the legend in a row above the axes, the layout leaving
    columns_in inches right of the axes for the rows' text columns; the page widened where
    the axes would be narrower than MIN_AXES_IN."""
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=9.5)
    for tick, run in zip(ax.get_yticklabels(), shown):
        tick.set_color(colour(run, text=True))
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    value_axis(ax, values, axis_text)
    # Above the axes, in the room the page's top margin leaves for it: out of tight_layout,
    # which would narrow the axes to the legend's width.
    legend(ax, handles, above=True).set_in_layout(False)
    right_in = columns_in + 2 * COLUMN_GAP_IN
    layout(fig, margins, right_in)
    short = MIN_AXES_IN - ax.get_position().width * fig.get_figwidth()
    if short > 0:
        fig.set_size_inches(fig.get_figwidth() + short, fig.get_figheight())
        layout(fig, margins, right_in)


def fitted(lo, hi, pad=ROW_PAD, least=10.0):
    """Log-axis limits holding lo..hi with `pad` to spare, at least `least` wide (a factor),
    centred on the values: from the data alone, never from a limit far past it."""
    lo, hi = lo / pad, hi * pad
    if hi / lo < least:
        middle, half = math.sqrt(lo * hi), math.sqrt(least)
        lo, hi = middle / half, middle * half
    return lo, hi


def value_axis(ax, values, text):
    """The log value axis of a dot chart, spanning the values drawn (dots, whiskers, a peer's
    line) and no more: labelled ticks and a grid; or, when nothing was timed, no ticks at all
    (they would read like measurements)."""
    ax.set_xscale("log")
    ax.set_axisbelow(True)
    values = [v for v in values if v and v > 0]
    if not values:
        ax.set_xlim(1, 10)
        ax.xaxis.set_major_locator(NullLocator())
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xlabel("no run at this point was timed")
        return
    lo, hi = fitted(min(values), max(values))
    ax.set_xlim(lo, hi)
    log_ticks(ax.xaxis, math.log10(hi / lo))
    ax.set_xlabel(text)
    ax.grid(axis="x", which="major", color="#cccccc", zorder=0)
    ax.grid(axis="x", which="minor", color="#eeeeee", zorder=0)


def log_ticks(axis, decades):
    """Powers of ten leave one or two labels on a short axis: add 2 and 5 there."""
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 3.5 else (1.0,)))
    axis.set_major_formatter(FuncFormatter(tick_text))
    axis.set_minor_formatter(NullFormatter())  # labelled minors crowd the axis


# ---- lines at a level: a limit, a count ------------------------------------------------------

NEAR = 4.0  # a level farther than this from the data (a factor) is said, not drawn


def levels(ax, lines, values):
    """Horizontal lines [(y, label, style)] (a hardware limit, n: every point) beside `values`
    on a log y axis: each within NEAR of the values is drawn, and the axis must hold it; each
    farther is not drawn (it would stretch the axis far past the data, the data squeezed into
    a corner) but said at the axes' edge, with an arrow, and in the legend. Returns (legend
    handles, values the axis must hold)."""
    handles, held, far = [], [], []
    if not values:  # nothing to stand beside: no line alone on an empty axis
        return handles, held
    top, bottom = max(values), min(values)
    for y, label, style in lines:
        if bottom / NEAR <= y <= top * NEAR:
            ax.axhline(y, zorder=2, **style)
            held.append(y)
            handles.append(Line2D([], [], label=label, **style))
            continue
        above = y > top
        ratio = times_text(y / top if above else bottom / y)
        said = f"{label}: {ratio} {'above the highest' if above else 'below the lowest'} value"
        handles.append(Line2D([], [], label=f"{said}, off the axis",
                              **{**style, "color": "#bbbbbb"}))
        far.append((above, f"{'↑' if above else '↓'} {said}"))
    for i, (above, text) in enumerate(t for t in far if t[0]):
        ax.annotate(text, (0.99, 0.98 - 0.06 * i), xycoords="axes fraction", ha="right",
                    va="top", fontsize=8, style="italic", color=MUTED)
    for i, (above, text) in enumerate(t for t in far if not t[0]):
        ax.annotate(text, (0.99, 0.02 + 0.06 * i), xycoords="axes fraction", ha="right",
                    va="bottom", fontsize=8, style="italic", color=MUTED)
    return handles, held


# ---- sweeps: a value against a swept param -------------------------------------------------

def log2_x(ax, xs, text):
    """x on a log2 axis with a tick at each swept value, labelled plainly."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(xs))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.set_xlim(xs[0] / 1.3, xs[-1] * 1.3)
    ax.set_xlabel(text)
    ax.grid(which="major", color="#e0e0e0", zorder=0)
    ax.set_axisbelow(True)


def linear_x(ax, xs, text, empty_span, right=0.06):
    """x on a linear axis with a tick at each x; `empty_span` stands for the span of one x."""
    span = (max(xs) - min(xs)) or empty_span
    ax.set_xticks(xs)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.set_xlim(min(xs) - 0.06 * span, max(xs) + right * span)
    ax.set_xlabel(text)
    ax.grid(which="major", color="#e0e0e0", zorder=0)
    ax.set_axisbelow(True)


def log_y(ax, values, text, pad=2.0):
    """y on a log axis spanning `values` and the error bars drawn on ax (range_bars) with some
    padding, labelled `text` and, under it, what the error bars are (range_text) where there
    are some; or empty when there are no values."""
    if not values:
        ax.set_yticks([])
        ax.text(0.5, 0.5, "nothing here was timed", transform=ax.transAxes, ha="center",
                va="center", style="italic", color=MUTED)
        return
    ends = range_ends(ax)
    values = [*values, *ends]
    ax.set_yscale("log")
    ax.set_ylim(min(values) / pad, max(values) * pad)
    log_ticks(ax.yaxis, math.log10(max(values) / min(values) * pad * pad))
    ax.set_ylabel(f"{text}\n{range_text(range_spans(ax))}" if ends else text)


def range_bars(ax, points, colour):
    """Vertical error bars with caps, in `colour` (the line's), at [(x, y, (lo, hi) or None)]:
    a point without a range (one sample, or a value the results give no samples of) gets
    none. One ErrorbarContainer per call, or none, keeping its spans (range_spans); returns
    how many bars were drawn."""
    kept = [(x, y, span) for x, y, span in points if span and y is not None]
    if kept:
        xs, ys, spans = zip(*kept)
        container = ax.errorbar(
            xs, ys, yerr=[[max(y - lo, 0.0) for y, (lo, _) in zip(ys, spans)],
                          [max(hi - y, 0.0) for y, (_, hi) in zip(ys, spans)]],
            fmt="none", ecolor=colour, elinewidth=1.0, capsize=3, capthick=1.0, zorder=3)
        container.spans = spans  # what they are, for the axis label (range_text)
    return len(kept)


def range_spans(ax):
    """The spans of every error bar range_bars drew on ax."""
    return [s for c in ax.containers for s in getattr(c, "spans", ())]


def range_ends(ax):
    """The y of both ends of every error bar range_bars drew on ax."""
    return [y for c in ax.containers if isinstance(c, ErrorbarContainer)
            for lines in c.lines[2] for segment in lines.get_segments() for _x, y in segment]


def sweep_line(ax, xs, at_x, y_of, span=None, **style):
    """A line over xs, at_x mapping x -> run: a missing or untimed point is NaN, so that the
    line breaks there; an incorrect point is ringed in red; span(run) -> (lo, hi) on y's scale
    (time_span, rate_span) draws each point's interval as an error bar in the line's
    colour. Returns the values drawn."""
    ys = [y_of(at_x[x]) if x in at_x else None for x in xs]
    line, = ax.plot(xs, [math.nan if y is None else y for y in ys], zorder=3, **style)
    if span:
        range_bars(ax, [(x, y, span(at_x[x])) for x, y in zip(xs, ys) if y is not None],
                   line.get_color())
    for x, y in zip(xs, ys):
        if y is not None and at_x[x].status == "incorrect":
            ax.plot([x], [y], marker="o", markersize=13, markerfacecolor="none",
                    markeredgecolor=INCORRECT, markeredgewidth=1.5, zorder=4)
    return [y for y in ys if y is not None]


def draw_table(ax, header, rows, widths, style=None, row_scale=None):
    """A table filling `ax` (centred, rows row_scale times the font's height, when given): a
    bold grey header, grey rules, and style(row, col, cell) for each body cell (from 0)."""
    ax.axis("off")
    where = dict(loc="center") if row_scale else dict(loc="upper center",
                                                       bbox=[0, 0, sum(widths), 1])
    table = ax.table(cellText=rows, colLabels=header, colWidths=widths, cellLoc="center", **where)
    table.auto_set_font_size(False)
    table.set_fontsize(8.5)
    if row_scale:
        table.scale(1, row_scale)
    for (row, col), cell in table.get_celld().items():
        cell.set_edgecolor("#bbbbbb")
        if row == 0:
            cell.set_facecolor("#d9d9d9")
            cell.set_text_props(fontweight="bold")
        elif style:
            style(row - 1, col, cell)
    return table

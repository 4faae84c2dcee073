"""DTW ladder figures: one bar chart per data point (n, entries) of a results file.

Each row is one variant, in ladder order (step 1 at the top). The bar is the median time
in ms on a log axis, since the steps span orders of magnitude; whiskers show min..max of
the samples. Runs that were not timed keep their row and show their status instead, so a
figure from a machine without a GPU still shows the whole ladder.

Usage: python3 plots/dtw_ladder.py RESULTS.json [--out-dir DIR]
"""
import argparse
import math
import sys
from pathlib import Path

try:
    import matplotlib
except ImportError as err:  # the usual first-run failure: say how to fix it
    raise ImportError("matplotlib is not installed; run scripts/deps.sh plots "
                      "or python3 -m pip install -r plots/requirements.txt") from err

matplotlib.use("Agg")  # files only, never a window: this runs on headless build hosts

from matplotlib.figure import Figure  # noqa: E402  (after the backend is chosen)
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # so results_file is found when imported
import results_file  # noqa: E402

STUDY = "dtw"
DEFAULT_OUT_DIR = Path("results/figures")

BACKEND_COLOURS = {"cpu": "#4c72b0", "gpu": "#55a868"}
OTHER_COLOUR = "#8c8c8c"  # a backend this script does not know yet
INCORRECT_COLOUR = "#c0392b"
STATUS_TEXT_COLOUR = "#555555"

# The point's identity; every other param either is fixed by the config or names a
# variant setting (block_size), which goes into the row label instead.
POINT_KEYS = ("n", "entries")

FIG_WIDTH_IN = 10.0
AXES_WIDTH_FRACTION = 0.62  # the rest is row labels on the left and margins
LABEL_ROOM_IN = 2.6  # width kept free right of the longest bar for "x GCUPS, y% of peak"
MAX_REASON_CHARS = 60


# ---- grouping -------------------------------------------------------------------------------

def _as_number(text):
    """Numeric value of a param string, so n=33 sorts before n=128."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.inf


def group_by_point(runs):
    """Map (n, entries) -> the DTW runs at that point, ordered by step, then variant."""
    points = {}
    for run in runs:
        if run.get("study") != STUDY:
            continue
        params = run.get("params") or {}
        key = tuple(str(params.get(k, "?")) for k in POINT_KEYS)
        points.setdefault(key, []).append(run)
    for group in points.values():
        group.sort(key=lambda r: (r.get("step", 0), r.get("variant", "")))
    return dict(sorted(points.items(), key=lambda kv: tuple(_as_number(v) for v in kv[0])))


def _varying_params(group):
    """Params other than the point's keys that take more than one value in the group.

    When a config sweeps e.g. block_size, one variant has several rows; naming the
    swept param in the label is what tells those rows apart.
    """
    seen = {}
    for run in group:
        for key, value in (run.get("params") or {}).items():
            if key not in POINT_KEYS:
                seen.setdefault(key, set()).add(value)
    return sorted(k for k, values in seen.items() if len(values) > 1)


def row_label(run, varying):
    """'3  openmp' plus any swept param, e.g. '4  naive (block_size=64)'."""
    label = f"{run.get('step', '?')}  {run.get('variant', '?')}"
    params = run.get("params") or {}
    extra = [f"{k}={params[k]}" for k in varying if k in params]
    if extra:
        label += f" ({', '.join(extra)})"
    return label


# ---- text ----------------------------------------------------------------------------------

def median_ms(run):
    """Median time of a run, or None when there is nothing a log axis can show."""
    timing = run.get("timing")
    if not isinstance(timing, dict):
        return None
    median = timing.get("median")
    if not isinstance(median, (int, float)) or median <= 0:
        return None
    return float(median)


def _format_rate(value):
    """Three significant digits without scientific notation: 0.63, 12.4, 1523."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def bar_label(run):
    """'0.63 GCUPS' and, when the harness knows the device's peak, ', 12.3% of peak'."""
    metrics = run.get("metrics") or {}
    parts = []
    if isinstance(metrics.get("gcups"), (int, float)):
        parts.append(f"{_format_rate(metrics['gcups'])} GCUPS")
    if isinstance(metrics.get("pct_of_peak"), (int, float)):
        parts.append(f"{metrics['pct_of_peak']:.1f}% of peak")
    return ", ".join(parts)


def status_label(run):
    """What an untimed row shows: 'skipped: no CUDA device', 'unsupported', ..."""
    status = run.get("status") or "no timing"
    reason = (run.get("reason") or "").strip()
    if status == "passed" or status == "incorrect":
        # Validated but not timed, or timed at zero: say so rather than show nothing.
        status = f"{status}, no timing"
    if not reason:
        return status
    if len(reason) > MAX_REASON_CHARS:
        reason = reason[:MAX_REASON_CHARS - 3] + "..."
    return f"{status}: {reason}"


def device_subtitle(results):
    """Where the numbers come from: GPU name (or 'no GPU') and the host CPU."""
    device = results.get("device") or {}
    if device.get("present"):
        gpu = f"GPU: {device.get('name', 'unknown')}"
        details = []
        if device.get("compute_capability"):
            details.append(f"cc {device['compute_capability']}")
        if device.get("sm_count"):
            details.append(f"{device['sm_count']} SMs")
        if details:
            gpu += f" ({', '.join(details)})"
    else:
        reason = device.get("reason")
        gpu = f"no GPU ({reason})" if reason else "no GPU"
    host = results.get("host") or {}
    cpu = f"CPU: {host.get('cpu', 'unknown')}"
    if host.get("cores"):
        cpu += f", {host['cores']} cores"
    return f"{gpu}   |   {cpu}"


def provenance(results):
    """Small footer so a figure pasted elsewhere can be traced back to its run."""
    config = results.get("config") or {}
    ladder = results.get("ladder") or {}
    parts = [f"config {config.get('name', '?')}",
             f"ladder {ladder.get('version', '?')} @ {ladder.get('git_commit', '?')}"]
    if results.get("finished_at"):
        parts.append(str(results["finished_at"]))
    return "   ".join(parts)


# ---- axes ----------------------------------------------------------------------------------

def x_limits(times, axes_width_in):
    """Log-axis limits holding every bar, with room on the right for the bar labels.

    The left limit is also where bars start: a log axis has no zero. The right limit is
    chosen so that LABEL_ROOM_IN inches stay free beyond the longest whisker.
    """
    if not times:
        return 1.0, 1000.0  # arbitrary: the axis only carries status text then
    low = 10 ** math.floor(math.log10(min(times)) - 0.3)
    high = max(times)
    data_decades = max(math.log10(high / low), 1.0)
    free = min(LABEL_ROOM_IN / axes_width_in, 0.6)
    return low, low * 10 ** (data_decades / (1.0 - free))


def _whisker(run):
    """(min, max) of the samples, or None when the file lacks them."""
    timing = run.get("timing") or {}
    lo, hi = timing.get("min"), timing.get("max")
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and 0 < lo <= hi:
        return float(lo), float(hi)
    return None


def draw_timed_row(ax, y, run, ms, left):
    """One bar for a timed run, its whisker and its label; red marker if incorrect."""
    incorrect = run.get("status") == "incorrect"
    colour = BACKEND_COLOURS.get(run.get("backend"), OTHER_COLOUR)
    ax.barh(y, ms - left, left=left, height=0.6, color=colour,
            edgecolor=INCORRECT_COLOUR if incorrect else "none",
            linewidth=2 if incorrect else 0, hatch="//" if incorrect else None, zorder=2)
    right = ms
    whisker = _whisker(run)
    if whisker:
        ax.plot(whisker, (y, y), color="black", linewidth=1, zorder=3)
        right = max(right, whisker[1])
    label = bar_label(run)
    if label:
        ax.annotate(label, (right, y), xytext=(4, 0), textcoords="offset points",
                    va="center", fontsize=9, zorder=4)
    if incorrect:
        # Above the bar, so it never collides with the GCUPS label to its right.
        ax.annotate("INCORRECT", (left, y), xytext=(3, 9), textcoords="offset points",
                    va="bottom", fontsize=8, fontweight="bold", color=INCORRECT_COLOUR,
                    zorder=4)


def draw_status_row(ax, y, run):
    """No bar: the row says why, starting at the left edge of the axes."""
    ax.text(0.01, y, status_label(run), transform=ax.get_yaxis_transform(),
            va="center", ha="left", fontsize=9, style="italic", color=STATUS_TEXT_COLOUR)


def backend_legend(ax, group):
    """Legend of the backends in this figure, untimed rows included (their tick labels
    are coloured the same way)."""
    backends = []
    for run in group:
        backend = run.get("backend")
        if backend not in backends:
            backends.append(backend)
    handles = [Patch(color=BACKEND_COLOURS.get(b, OTHER_COLOUR), label=str(b).upper())
               for b in backends]
    if any(r.get("status") == "incorrect" for r in group):
        handles.append(Patch(facecolor="white", edgecolor=INCORRECT_COLOUR, hatch="//",
                             label="incorrect"))
    ax.legend(handles=handles, loc="lower right", fontsize=9, framealpha=0.9)


# ---- figures -------------------------------------------------------------------------------

def ladder_figure(results, point, group):
    """The figure for one (n, entries) point; returned, not saved."""
    n, entries = point
    rows = len(group)
    fig = Figure(figsize=(FIG_WIDTH_IN, 1.9 + 0.5 * rows))
    ax = fig.add_axes((1.0 - AXES_WIDTH_FRACTION - 0.03, 1.2 / fig.get_figheight(),
                       AXES_WIDTH_FRACTION, 1.0 - 2.0 / fig.get_figheight()))
    ax.set_xscale("log")

    times = [t for t in (median_ms(r) for r in group) if t is not None]
    times += [w[1] for w in (_whisker(r) for r in group if median_ms(r)) if w]
    left, right = x_limits(times, FIG_WIDTH_IN * AXES_WIDTH_FRACTION)
    ax.set_xlim(left, right)

    for y, run in enumerate(group):
        ms = median_ms(run)
        if ms is None:
            draw_status_row(ax, y, run)
        else:
            draw_timed_row(ax, y, run, ms, left)

    varying = _varying_params(group)
    ax.set_yticks(range(rows))
    ax.set_yticklabels([row_label(r, varying) for r in group], fontsize=10)
    for tick, run in zip(ax.get_yticklabels(), group):
        tick.set_color(BACKEND_COLOURS.get(run.get("backend"), OTHER_COLOUR))
    ax.set_ylim(rows - 0.5, -0.5)  # step 1 on top: the ladder reads downwards

    if times:
        ax.set_xlabel("median time per run [ms], log scale (lower is better)")
        ax.grid(axis="x", which="major", color="#cccccc", zorder=0)
        ax.grid(axis="x", which="minor", color="#eeeeee", zorder=0)
    else:
        # Ticks on an axis without data would read like measurements.
        ax.xaxis.set_major_formatter(NullFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("no run at this point was timed")
    ax.set_axisbelow(True)
    backend_legend(ax, group)

    fig.suptitle(f"DTW ladder: n={n}, entries={entries}", fontsize=13, fontweight="bold",
                 y=1.0 - 0.15 / fig.get_figheight(), va="top")
    fig.text(0.5, 1.0 - 0.5 / fig.get_figheight(), device_subtitle(results),
             ha="center", va="top", fontsize=9, color="#333333")
    fig.text(0.01, 0.01, provenance(results), fontsize=7, color="#888888")
    return fig


def figure_name(point):
    n, entries = point
    return f"dtw_ladder_n{n}_e{entries}.png"


def draw(results, out_dir=DEFAULT_OUT_DIR):
    """Write one PNG per DTW point of `results` into out_dir; return the paths written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for point, group in group_by_point(results.get("runs") or []).items():
        path = out_dir / figure_name(point)
        ladder_figure(results, point, group).savefig(path, dpi=120)
        print(path)
        written.append(path)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description="Draw DTW ladder bar charts from a results file.")
    parser.add_argument("results", help="results JSON written by `ladder run`")
    parser.add_argument("--out-dir", default=str(DEFAULT_OUT_DIR),
                        help=f"where the PNGs go (default {DEFAULT_OUT_DIR})")
    args = parser.parse_args(argv)
    try:
        results = results_file.load(args.results)
    except results_file.ResultsError as err:
        print(f"dtw_ladder: {err}", file=sys.stderr)
        return 2
    if not draw(results, args.out_dir):
        print(f"dtw_ladder: {args.results}: no DTW runs, nothing drawn", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""DTW ladder figures: one bar chart per data point (n, entries) of a results file.

Each row is one variant, in ladder order (step 1 at the top). The bar is the median time
in ms on a log axis, since the steps span orders of magnitude; whiskers show min..max of
the samples. Runs that were not timed keep their row and show their status instead, so a
figure from a machine without a GPU still shows the whole ladder.

Usage: python3 plots/dtw_ladder.py RESULTS.json [--out-dir DIR]
"""
import math
import re
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
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

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
LABEL_PAD_IN = 0.15  # gap kept between a bar label and the right edge of the axes
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
        key = tuple(str(params.get(k, "na")) for k in POINT_KEYS)
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
    if not isinstance(median, (int, float)) or not math.isfinite(median) or median <= 0:
        return None
    return float(median)


def _format_rate(value):
    """Three significant digits without scientific notation: 0.63, 12.4, 1523."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def nn1_label(run):
    """'1-NN 98.4% (64 queries)' when the run reports 1-NN classification accuracy, else ''.

    The harness writes nn1_accuracy as a fraction (correct / queries); the query count is
    shown because 100% of one query says little.
    """
    extras = run.get("extras") or {}
    accuracy = extras.get("nn1_accuracy")
    if not isinstance(accuracy, (int, float)) or not math.isfinite(accuracy):
        return ""
    label = f"1-NN {100.0 * accuracy:.1f}%"
    queries = extras.get("nn1_queries")
    if isinstance(queries, (int, float)) and math.isfinite(queries) and queries > 0:
        count = int(round(queries))
        label += f" ({count} quer{'y' if count == 1 else 'ies'})"
    return label


def bar_label(run):
    """'0.63 GCUPS' and, when the harness knows the device's peak, ', 12.3% of peak';
    then the 1-NN accuracy when the run has one: ', 1-NN 98.4% (64 queries)'."""
    metrics = run.get("metrics") or {}
    parts = []
    if isinstance(metrics.get("gcups"), (int, float)):
        parts.append(f"{_format_rate(metrics['gcups'])} GCUPS")
    if isinstance(metrics.get("pct_of_peak"), (int, float)):
        parts.append(f"{metrics['pct_of_peak']:.1f}% of peak")
    accuracy = nn1_label(run)
    if accuracy:
        parts.append(accuracy)
    return ", ".join(parts)


def status_label(run, max_chars=MAX_REASON_CHARS):
    """What an untimed row shows: 'skipped: no CUDA device', 'unsupported', ...; a reason
    longer than max_chars is cut short with '...'."""
    status = run.get("status") or "no timing"
    reason = (run.get("reason") or "").strip()
    if status == "passed" or status == "incorrect":
        # Validated but not timed, or timed at zero: say so rather than show nothing.
        status = f"{status}, no timing"
    if not reason:
        return status
    if len(reason) > max_chars:
        reason = reason[:max_chars - 3] + "..."
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

def bar_base(times):
    """Left end of the axis and of every bar: a log axis has no zero, so bars start a
    little below the fastest run's decade."""
    if not times:
        return 1.0  # arbitrary: the axis only carries status text then
    return 10 ** math.floor(math.log10(min(times)) - 0.3)


def right_limit(base, ends, label_widths_in, axes_width_in):
    """Right end of the log axis so that every bar end plus its label fits inside.

    A label of w inches after a bar ending at x fits when
    log(x/base) / decades + (w + pad) / axes_width <= 1; take the smallest number of
    decades that satisfies every row (and at least one decade of data).
    """
    decades = max([math.log10(end / base) for end in ends] + [1.0])
    for end, width in zip(ends, label_widths_in):
        free = min((width + LABEL_PAD_IN) / axes_width_in, 0.8)
        decades = max(decades, math.log10(end / base) / (1.0 - free))
    return base * 10 ** decades


def _whisker(run):
    """(min, max) of the samples, or None when the file lacks them."""
    timing = run.get("timing") or {}
    lo, hi = timing.get("min"), timing.get("max")
    if (isinstance(lo, (int, float)) and isinstance(hi, (int, float))
            and 0 < lo <= hi < math.inf):
        return float(lo), float(hi)
    return None


def draw_timed_row(ax, y, run, ms, base):
    """One bar for a timed run, its whisker and its label; incorrect runs are hatched and
    their label turns red and starts with INCORRECT. Returns (bar end, label artist)."""
    incorrect = run.get("status") == "incorrect"
    colour = BACKEND_COLOURS.get(run.get("backend"), OTHER_COLOUR)
    ax.barh(y, ms - base, left=base, height=0.6, color=colour,
            edgecolor=INCORRECT_COLOUR if incorrect else "none",
            linewidth=2 if incorrect else 0, hatch="//" if incorrect else None, zorder=2)
    end = ms
    whisker = _whisker(run)
    if whisker:
        ax.plot(whisker, (y, y), color="black", linewidth=1, zorder=3)
        end = max(end, whisker[1])
    label = bar_label(run)
    if incorrect:
        label = f"INCORRECT  {label}".strip()
    if not label:
        return end, None
    text = ax.annotate(label, (end, y), xytext=(4, 0), textcoords="offset points",
                       va="center", fontsize=9, zorder=4,
                       color=INCORRECT_COLOUR if incorrect else "black",
                       fontweight="bold" if incorrect else "normal",
                       # Measured before the final limits are set, when the bar end may
                       # still lie outside the axes; a clipped annotation measures empty.
                       annotation_clip=False)
    # Left out of tight_layout: placed against the provisional limits, a label can sit far
    # right of the axes (data spanning more than three decades), and tight_layout would then
    # squeeze the axes to make room for it. fit_labels makes the room instead.
    text.set_in_layout(False)
    return end, text


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
    # Outside the axes, top right: inside, it would sit on a long bar or its label.
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0, fontsize=9, frameon=False)


# ---- figures -------------------------------------------------------------------------------

def _format_ms(value, _pos):
    """Plain tick numbers (0.1, 1, 10, 100) read faster than 10^k in a timing chart."""
    return f"{value:g}"


def _titles(fig, results, n, entries):
    """Title, device subtitle and provenance footer; returns the inches they take on top."""
    height = fig.get_figheight()
    # fig.text rather than suptitle: tight_layout leaves fig.text alone, so the space
    # reserved here is the only space taken, whatever the matplotlib version.
    fig.text(0.5, 1.0 - 0.12 / height, f"DTW ladder: n={n}, entries={entries}",
             ha="center", va="top", fontsize=13, fontweight="bold")
    fig.text(0.5, 1.0 - 0.45 / height, device_subtitle(results),
             ha="center", va="top", fontsize=9, color="#333333")
    fig.text(0.01, 0.01, provenance(results), fontsize=7, color="#888888")
    return 0.75


def ladder_figure(results, point, group):
    """The figure for one (n, entries) point; returned, not saved."""
    n, entries = point
    rows = len(group)
    fig = Figure(figsize=(FIG_WIDTH_IN, 1.7 + 0.5 * rows))
    FigureCanvasAgg(fig)  # explicit, so layout and savefig never look for pyplot
    ax = fig.add_subplot()
    ax.set_xscale("log")

    times = [t for t in (median_ms(r) for r in group) if t is not None]
    # Whisker minima too: the axis starts left of the fastest sample, not just the median.
    times += [w[0] for w in (_whisker(r) for r in group if median_ms(r)) if w]
    base = bar_base(times)
    ax.set_xlim(base, base * 1000)  # provisional: the right end is fitted after layout

    labelled = []  # (bar end, label artist) of the timed rows
    for y, run in enumerate(group):
        ms = median_ms(run)
        if ms is None:
            draw_status_row(ax, y, run)
        else:
            labelled.append(draw_timed_row(ax, y, run, ms, base))

    varying = _varying_params(group)
    ax.set_yticks(range(rows))
    ax.set_yticklabels([row_label(r, varying) for r in group], fontsize=10)
    for tick, run in zip(ax.get_yticklabels(), group):
        tick.set_color(BACKEND_COLOURS.get(run.get("backend"), OTHER_COLOUR))
    ax.set_ylim(rows - 0.5, -0.5)  # step 1 on top: the ladder reads downwards
    ax.tick_params(axis="y", length=0)

    style_log_x(ax, bool(times), "median time per run [ms], log scale (lower is better)",
                _format_ms)
    backend_legend(ax, group)

    top_in = _titles(fig, results, n, entries)
    height = fig.get_figheight()
    fig.tight_layout(rect=(0, 0.2 / height, 1, 1 - top_in / height))
    if labelled:
        fit_labels(fig, ax, base, labelled)
        _place_ms_ticks(ax)
    return fig


def fit_labels(fig, ax, base, labelled):
    """Widen the axis to the right until every bar label fits; needs the final layout,
    because label widths are measured in inches against the axes' width."""
    renderer = fig.canvas.get_renderer()
    ends = [end for end, _ in labelled]
    widths = [text.get_window_extent(renderer).width / fig.dpi if text else 0.0
              for _, text in labelled]
    axes_width_in = ax.get_position().width * fig.get_figwidth()
    ax.set_xlim(base, right_limit(base, ends, widths, axes_width_in))


def _place_ms_ticks(ax):
    """Powers of ten only leave one or two labels on a short axis; add 2 and 5 there."""
    low, high = ax.get_xlim()
    subs = (1.0, 2.0, 5.0) if math.log10(high / low) <= 3.5 else (1.0,)
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=subs))


def figure_name(point):
    """dtw_ladder_n128_e1031.png; anything but [A-Za-z0-9._-] in a value becomes '_'."""
    n, entries = (re.sub(r"[^A-Za-z0-9._-]", "_", value) for value in point)
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



def style_log_x(ax, timed, label, formatter):
    """The log-scale value axis every bar chart shares: labelled major ticks and a grid, or,
    when nothing at this point was timed, no ticks at all (they would read like measurements)."""
    ax.xaxis.set_minor_formatter(NullFormatter())  # labelled minors crowd the axis
    if timed:
        ax.set_xlabel(label)
        ax.xaxis.set_major_formatter(FuncFormatter(formatter))
        ax.grid(axis="x", which="major", color="#cccccc", zorder=0)
        ax.grid(axis="x", which="minor", color="#eeeeee", zorder=0)
    else:
        ax.xaxis.set_major_formatter(NullFormatter())
        ax.tick_params(axis="x", which="both", length=0)
        ax.set_xlabel("no run at this point was timed")
    ax.set_axisbelow(True)

def main(argv=None):
    return results_file.run_cli("dtw_ladder", "Draw DTW ladder bar charts from a results file.", draw,
                                "no DTW runs, nothing drawn", argv)


if __name__ == "__main__":
    sys.exit(main())

"""DTW "paper-style" ladder: our median time per step beside the lecture notes' Titan X time.

One figure per point of the config's "notes" sweep (or, when no run belongs to a sweep of
that name, per point with n=128 and entries=1048576): a row per variant in step order
(step 1 on top), our bar = median time on a log axis with min..max whiskers, and, for the
steps the notes time, a grey hatched bar with the notes' Titan X (Pascal) time below it.
Each of our bars is labelled with its time, GCUPS and % of the GPU limit for its precision;
a bar whose precision is not fp32 also names its precision and its max relative error.
A column right of the axes gives the speedup over the previous timed bar in step order.
Footnotes give the GPU limits with the rules the harness derived them by, and where the
notes' numbers come from.

Usage: python3 plots/dtw_paper.py RESULTS.json [--out-dir DIR]
"""
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sibling modules, from any cwd
import dtw_ladder  # noqa: E402  (chooses the Agg backend and says how to install matplotlib)
import results_file  # noqa: E402

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

STUDY = dtw_ladder.STUDY
DEFAULT_OUT_DIR = dtw_ladder.DEFAULT_OUT_DIR
NOTES_SWEEP = "notes"

# The notes' experiment: one query against 2^20 series of length 128, no band.
NOTES_N = 128
NOTES_ENTRIES = 1 << 20

# The lecture notes' Titan X (Pascal) times at 2^20 series x 128, in seconds, and the text
# next to their bar. OpenMP is not timed in the notes: they say the naive kernel (~30 s) was
# "about 10x slower than 32-core OpenMP", which puts OpenMP near 3 s.
NOTES_SECONDS = {
    "openmp": (3.0, "~3 s (implied)"),
    "naive": (30.0, "~30 s"),
    "thread_local": (2.7, "~2.7 s"),
    "shared": (0.63, "~0.63 s"),
}
NOTES_LABEL = "notes (Titan X)"
NOTES_SOURCE = ("notes (Titan X): the lecture notes' Titan X (Pascal) times at 2^20 series x 128; "
                "OpenMP ~3 s is implied by \"naive was about 10x slower than 32-core OpenMP\".")

NOTES_FACE = "#d9d9d9"
NOTES_EDGE = "#7f7f7f"
NOTES_TEXT = "#666666"
FASTER_COLOUR = "#1e7b3c"
SLOWER_COLOUR = "#b03a2e"

FIG_WIDTH_IN = 13.0
ROW_IN = 0.58          # height of one variant's row
TOP_IN = 1.25          # title, subtitle, legend and the speedup column's header
BOTTOM_TEXT_IN = 0.19  # per footnote line
X_AXIS_IN = 0.55       # tick labels and x label under the axes
COLUMN_GAP_IN = 0.12   # between the axes and the speedup column
FONT = 9

# Vertical placement inside a row (data units; a row is 1 tall): with a notes bar our bar
# takes the upper part, the notes bar the lower; without one our bar is centred.
OURS_PAIRED = (-0.17, 0.36)
NOTES_PAIRED = (0.22, 0.26)
OURS_ALONE = (0.0, 0.55)


# ---- choosing the runs ---------------------------------------------------------------------

def _number(value):
    """Float value of a param string, or None."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def is_notes_point(params):
    """True where n and entries are the notes' (128 and 2^20)."""
    return _number(params.get("n")) == NOTES_N and _number(params.get("entries")) == NOTES_ENTRIES


def paper_points(runs):
    """(n, entries) -> runs for the paper figure: the "notes" sweep's points, or, when no run
    belongs to that sweep, every point with the notes' n and entries."""
    dtw = [r for r in runs if r.get("study") == STUDY]
    chosen = [r for r in dtw if r.get("sweep") == NOTES_SWEEP]
    if not chosen:
        chosen = [r for r in dtw if is_notes_point(r.get("params") or {})]
    return dtw_ladder.group_by_point(chosen)


def notes_comparable(group):
    """Whether the notes' times apply to this group, and if not, why.

    They were measured at n=128, 2^20 series, one query and no Sakoe-Chiba band; a "notes"
    sweep configured differently gets no notes bars rather than a misleading comparison.
    """
    for run in group:
        params = run.get("params") or {}
        if not is_notes_point(params):
            return False, f"this point is not the notes' n={NOTES_N}, entries=2^20"
        queries = _number(params.get("queries", "1"))
        if queries != 1:
            return False, f"the notes time one query, this point {params.get('queries')}"
        band = _number(params.get("band"))
        if band is not None and band < NOTES_N:
            return False, f"the notes use no band; this point has band={params.get('band')}"
    return True, ""


# ---- text ----------------------------------------------------------------------------------

def format_time(ms):
    """'64.0 s', '4.90 s', '147 ms', '2.20 ms', '0.153 ms'."""
    if ms >= 1000:
        seconds = ms / 1000
        if seconds >= 100:
            return f"{seconds:.0f} s"
        return f"{seconds:.1f} s" if seconds >= 10 else f"{seconds:.2f} s"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    return f"{ms:.2f} ms" if ms >= 1 else f"{ms:.3g} ms"


def precision_of(run):
    """The run's arithmetic; files from before the field existed are fp32 throughout."""
    return str(run.get("precision") or "fp32")


def limit_name(precision):
    """'FP32', 'FP16x2': the name of the GPU limit for a precision."""
    return precision.upper().replace("X", "x")


def our_label(run, ms):
    """'2.20 ms, 7809 GCUPS = 46.7% of FP16x2 limit, fp16x2: max rel err 1.2e-04'."""
    metrics = run.get("metrics") or {}
    parts = [format_time(ms)]
    rate = ""
    if isinstance(metrics.get("gcups"), (int, float)):
        rate = f"{dtw_ladder._format_rate(metrics['gcups'])} GCUPS"
    if isinstance(metrics.get("pct_of_peak"), (int, float)):
        # pct_of_peak is against the run's own limit, which depends on its precision.
        pct = f"{metrics['pct_of_peak']:.1f}% of {limit_name(precision_of(run))} limit"
        rate = f"{rate} = {pct}" if rate else pct
    if rate:
        parts.append(rate)
    if precision_of(run) != "fp32":
        mark = precision_of(run)
        error = (run.get("validation") or {}).get("max_rel_error")
        if isinstance(error, (int, float)) and math.isfinite(error):
            mark += f": max rel err {error:.1e}"
        parts.append(mark)
    label = ", ".join(parts)
    if run.get("status") == "incorrect":
        label = f"INCORRECT  {label}"
    return label


def speedups(group):
    """Per run: (text, colour) for the speedup column.

    Speedup = previous timed bar's median / this median, the previous bar in step order
    (the rows above). When untimed rows lie between, the text names the bar it compares to.
    """
    column = []
    previous = None  # (row index, variant, median ms)
    for i, run in enumerate(group):
        ms = dtw_ladder.median_ms(run)
        if ms is None:
            column.append(("-", dtw_ladder.STATUS_TEXT_COLOUR))
            continue
        if previous is None:
            column.append(("baseline", dtw_ladder.STATUS_TEXT_COLOUR))
        else:
            row, variant, prev_ms = previous
            ratio = prev_ms / ms
            digits = 2 if ratio < 10 else 1 if ratio < 100 else 0
            text = f"{ratio:.{digits}f}x"
            if row != i - 1:
                text += f" vs {variant}"
            column.append((text, FASTER_COLOUR if ratio >= 1 else SLOWER_COLOUR))
        previous = (i, run.get("variant", "?"), ms)
    return column


def gpu_limits(runs):
    """{precision: (peak GCUPS, rule)}, fp32 first, each from the first GPU run of that
    precision whose metrics report a peak (the harness adds one only to timed GPU runs)."""
    seen = {}
    for run in runs:
        metrics = run.get("metrics") or {}
        peak = metrics.get("peak")
        if run.get("backend") != "gpu" or not isinstance(peak, (int, float)) or peak <= 0:
            continue
        rule = str(metrics.get("peak_rule") or "rule not given")
        seen.setdefault(precision_of(run), (float(peak), rule))
    return {p: seen[p] for p in sorted(seen, key=lambda p: (p != "fp32", p))}


def limit_footnotes(runs):
    """One line per GPU limit, FP32 first: the peak and the rule behind it."""
    limits = gpu_limits(runs)
    if not limits:
        return ["GPU limit: no GPU run reported one (no timed GPU run), so no % of limit."]
    return [f"{limit_name(p)} limit: {peak:.0f} GCUPS = {rule}"
            for p, (peak, rule) in limits.items()]


# ---- figure --------------------------------------------------------------------------------

def _text_width_in(fig, text, **kwargs):
    """Width in inches that `text` takes at the given font settings."""
    probe = fig.text(0, 0, text, **kwargs)
    width = probe.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi
    probe.remove()
    return width


def _format_seconds(value, _pos):
    return f"{value:g}"


def paper_figure(results, point, group):
    """The paper-style figure for one point; returned, not saved."""
    n, entries = point
    comparable, why_not = notes_comparable(group)
    notes = {}  # row index -> (seconds, label): the first row of each variant the notes time
    if comparable:
        first_rows = {}
        for i, run in enumerate(group):
            first_rows.setdefault(run.get("variant"), i)
        notes = {i: NOTES_SECONDS[v] for v, i in first_rows.items() if v in NOTES_SECONDS}

    footnotes = limit_footnotes(group)
    if comparable:
        footnotes.append(NOTES_SOURCE)
    else:
        footnotes.append(f"notes (Titan X) times not shown: {why_not}.")
    footnotes.append("GCUPS: cells (n x n per query-series pair, fewer with a band) / median "
                     "time;  speedup: previous timed bar's median / this bar's median.")

    rows = len(group)
    footnote_in = BOTTOM_TEXT_IN * (len(footnotes) + 1) + 0.1  # + 1: the provenance line
    height = TOP_IN + rows * ROW_IN + X_AXIS_IN + footnote_in
    fig = Figure(figsize=(FIG_WIDTH_IN, height))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_xscale("log")

    times = []  # seconds, for the axis' left end
    for run in group:
        ms = dtw_ladder.median_ms(run)
        if ms is not None:
            times.append(ms / 1000)
            whisker = dtw_ladder._whisker(run)
            if whisker:
                times.append(whisker[0] / 1000)
    times += [seconds for seconds, _ in notes.values()]
    base = dtw_ladder.bar_base(times)
    ax.set_xlim(base, base * 1000)

    labelled = []  # (bar end, label artist)
    for y, run in enumerate(group):
        offset, bar_height = OURS_PAIRED if y in notes else OURS_ALONE
        ms = dtw_ladder.median_ms(run)
        if ms is None:
            ax.text(0.01, y + offset, dtw_ladder.status_label(run),
                    transform=ax.get_yaxis_transform(), va="center", ha="left",
                    fontsize=FONT, style="italic", color=dtw_ladder.STATUS_TEXT_COLOUR)
        else:
            labelled.append(_our_bar(ax, y + offset, bar_height, run, ms / 1000, base))
        if y in notes:
            seconds, text = notes[y]
            offset, bar_height = NOTES_PAIRED
            ax.barh(y + offset, seconds - base, left=base, height=bar_height,
                    color=NOTES_FACE, edgecolor=NOTES_EDGE, hatch="///", linewidth=0.8,
                    zorder=2)
            label = ax.annotate(f"{NOTES_LABEL}: {text}", (seconds, y + offset),
                                xytext=(4, 0), textcoords="offset points", va="center",
                                fontsize=FONT - 0.5, color=NOTES_TEXT, zorder=4,
                                annotation_clip=False)
            label.set_in_layout(False)  # fit_labels makes room for it; see dtw_ladder
            labelled.append((seconds, label))

    varying = dtw_ladder._varying_params(group)
    ax.set_yticks(range(rows))
    ax.set_yticklabels([dtw_ladder.row_label(r, varying) for r in group], fontsize=10)
    for tick, run in zip(ax.get_yticklabels(), group):
        tick.set_color(dtw_ladder.BACKEND_COLOURS.get(run.get("backend"),
                                                      dtw_ladder.OTHER_COLOUR))
    ax.set_ylim(rows - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    for boundary in range(1, rows):  # thin separators: which bars belong to which step
        ax.axhline(boundary - 0.5, color="#eeeeee", linewidth=0.8, zorder=1)

    dtw_ladder.style_log_x(ax, bool(times), "median time [s], log scale (lower is better)",
                           _format_seconds)

    column = speedups(group)
    header = "speedup over\nprevious bar"
    column_in = max(_text_width_in(fig, text, fontsize=FONT, fontweight="bold")
                    for text in [header] + [text for text, _ in column])
    right_in = COLUMN_GAP_IN + column_in + 0.15

    fig.text(0.5, 1.0 - 0.12 / height,
             f"DTW ladder vs the lecture notes: n={n}, entries={entries}",
             ha="center", va="top", fontsize=13, fontweight="bold")
    fig.text(0.5, 1.0 - 0.45 / height, dtw_ladder.device_subtitle(results),
             ha="center", va="top", fontsize=FONT, color="#333333")
    fig.tight_layout(rect=(0, footnote_in / height, 1 - right_in / FIG_WIDTH_IN,
                           1 - TOP_IN / height))

    # Added after the layout so tight_layout does not squeeze the axes around them.
    for y, (text, colour) in enumerate(column):
        ax.annotate(text, (1, y), xycoords=ax.get_yaxis_transform(),
                    xytext=(COLUMN_GAP_IN * 72, 0), textcoords="offset points",
                    va="center", ha="left", fontsize=FONT, color=colour,
                    fontweight="bold" if colour == FASTER_COLOUR else "normal",
                    annotation_clip=False)
    ax.annotate(header, (1, 1), xycoords="axes fraction", xytext=(COLUMN_GAP_IN * 72, 4),
                textcoords="offset points", va="bottom", ha="left", fontsize=FONT,
                fontweight="bold", color="#333333", annotation_clip=False)
    _legend(ax, group, bool(notes))

    footer_y = 0.06 / height
    fig.text(0.01, footer_y, dtw_ladder.provenance(results), fontsize=7, color="#888888")
    for k, line in enumerate(reversed(footnotes), start=1):
        fig.text(0.01, footer_y + k * BOTTOM_TEXT_IN / height, line, fontsize=FONT - 1,
                 color="#333333")

    if labelled:
        dtw_ladder.fit_labels(fig, ax, base, labelled)
        dtw_ladder._place_ms_ticks(ax)
    return fig


def _our_bar(ax, y, bar_height, run, seconds, base):
    """Our bar, its whisker and its label; returns (bar end, label artist)."""
    incorrect = run.get("status") == "incorrect"
    colour = dtw_ladder.BACKEND_COLOURS.get(run.get("backend"), dtw_ladder.OTHER_COLOUR)
    ax.barh(y, seconds - base, left=base, height=bar_height, color=colour,
            edgecolor=dtw_ladder.INCORRECT_COLOUR if incorrect else "none",
            linewidth=2 if incorrect else 0, hatch="//" if incorrect else None, zorder=2)
    end = seconds
    whisker = dtw_ladder._whisker(run)
    if whisker:
        lo, hi = whisker[0] / 1000, whisker[1] / 1000
        ax.plot((lo, hi), (y, y), color="black", linewidth=1, zorder=3)
        end = max(end, hi)
    text = ax.annotate(our_label(run, seconds * 1000), (end, y), xytext=(4, 0),
                       textcoords="offset points", va="center", fontsize=FONT, zorder=4,
                       color=dtw_ladder.INCORRECT_COLOUR if incorrect else "black",
                       fontweight="bold" if incorrect else "normal", annotation_clip=False)
    text.set_in_layout(False)  # fit_labels makes room for it; see dtw_ladder.draw_timed_row
    return end, text


def _legend(ax, group, with_notes):
    """One row above the axes, left: backends, notes, incorrect."""
    handles = []
    for backend in dict.fromkeys(r.get("backend") for r in group):
        colour = dtw_ladder.BACKEND_COLOURS.get(backend, dtw_ladder.OTHER_COLOUR)
        handles.append(Patch(color=colour, label=f"ours, {str(backend).upper()}"))
    if with_notes:
        handles.append(Patch(facecolor=NOTES_FACE, edgecolor=NOTES_EDGE, hatch="///",
                             label=NOTES_LABEL))
    if any(r.get("status") == "incorrect" for r in group):
        handles.append(Patch(facecolor="white", edgecolor=dtw_ladder.INCORRECT_COLOUR,
                             hatch="//", label="incorrect"))
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1.01), ncol=len(handles),
              borderaxespad=0.2, fontsize=FONT, frameon=False)


def figure_name(point):
    """dtw_paper_n128_e1048576.png; anything but [A-Za-z0-9._-] in a value becomes '_'."""
    n, entries = (re.sub(r"[^A-Za-z0-9._-]", "_", value) for value in point)
    return f"dtw_paper_n{n}_e{entries}.png"


def draw(results, out_dir=DEFAULT_OUT_DIR):
    """Write the paper-style figures of `results` into out_dir; return the paths written
    (none when the file has neither a "notes" sweep nor a point at n=128, entries=2^20)."""
    out_dir = Path(out_dir)
    written = []
    for point, group in paper_points(results.get("runs") or []).items():
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / figure_name(point)
        paper_figure(results, point, group).savefig(path, dpi=120)
        print(path)
        written.append(path)
    return written


def main(argv=None):
    return results_file.run_cli("dtw_paper", "Draw the DTW ladder beside the lecture notes' Titan X times.", draw,
                                f"no \"{NOTES_SWEEP}\" sweep and no point at n={NOTES_N}, entries={NOTES_ENTRIES}; nothing drawn", argv)


if __name__ == "__main__":
    sys.exit(main())

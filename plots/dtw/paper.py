"""Figure dtw_paper: the DTW ladder beside the lecture notes' Titan X times, per point, with the
gain over the previous step of ours of the same precision; plots/README.md says more."""
from .. import drawing, formats, pages, selection
from .. import results as ladder_results

from .data import NOTES, notes_mismatch, speedups

NOTES_COLOUR, NOTES_TEXT = "#7f7f7f", "#666666"  # the notes' hollow diamonds and their text
FASTER, SLOWER = "#1e7b3c", "#b03a2e"

ROW_IN, AXIS_IN, TOP_IN = 0.58, 0.6, 1.05  # TOP_IN: titles, legend and column header
# Where in a row (a row is 1 tall) our dot goes beside the notes' diamond, the notes' diamond,
# and our dot alone.
OURS_PAIRED, NOTES_PAIRED, OURS_ALONE = -0.17, 0.22, 0.0


def our_text(run):
    """'1.53 ms, 11263 GCUPS, 67.3% of FP16x2 limit, fp16x2: max rel err 1.4e-02'."""
    parts = [formats.format_time(run.median_ms), selection.rate_text(run)]
    precision = run.precision or "fp32"
    if precision != "fp32":  # a cheaper arithmetic: say what it costs in accuracy
        error = ladder_results.number(run.validation.get("max_rel_error"))
        parts.append(f"{precision}: max rel err {error:.1e}" if error is not None else precision)
    return ", ".join(p for p in parts if p)


def draw_rows(ax, shown, notes):
    """Our dots (or status text) and the notes' hollow diamonds, each with its text in the
    values' column; returns (values drawn, the column's texts)."""
    values, texts = [], []
    for y, run in enumerate(shown):
        at = y + (OURS_PAIRED if y in notes else OURS_ALONE)
        ms = run.median_ms
        if ms is None:
            drawing.status_row(ax, at, selection.status_text(run))
        else:
            incorrect = run.status == "incorrect"
            values += drawing.dot(ax, at, ms / 1000, pages.colour(run),
                                 selection.sample_span(run, ms / 1000), incorrect=incorrect)
            texts.append(drawing.row_text(ax, at, our_text(run), incorrect=incorrect))
        if y in notes:
            at = y + NOTES_PAIRED
            values += drawing.dot(ax, at, notes[y]["value"], NOTES_COLOUR, marker="D",
                                 hollow=True)
            texts.append(drawing.row_text(ax, at, f"{NOTES['label']}: {notes[y]['text']}",
                                         NOTES_TEXT))
    return values, texts


def speedup_column(ax, shown, offset_in):
    """The gains' column, offset_in inches right of the values' column; returns its texts."""
    texts = []
    for y, (text, ratio) in enumerate(speedups(shown)):
        colour = pages.MUTED if ratio is None else FASTER if ratio >= 1 else SLOWER
        texts.append(drawing.row_text(ax, y, text, colour, offset_in,
                                     fontweight="bold" if colour == FASTER else "normal"))
    header = ax.annotate("gain over the previous\nstep of its precision", (1, 1),
                         xycoords="axes fraction",
                         xytext=((drawing.COLUMN_GAP_IN + offset_in) * 72, 4),
                         textcoords="offset points", va="bottom", fontsize=9,
                         fontweight="bold", color="#333333", annotation_clip=False)
    header.set_in_layout(False)
    return texts + [header]


def figure(results, _study, point, runs):
    """The paper-style figure for one point; returned, not saved."""
    shown, names = zip(*selection.ladder_rows(runs))
    mismatch = notes_mismatch(runs)
    times = {} if mismatch else NOTES["seconds"]
    notes = {y: times[r.variant] for y, r in enumerate(shown) if r.variant in times}
    footnotes = selection.limit_footnotes(shown) + [
        *([f"{NOTES['label']}: {NOTES['source']}", NOTES["remarks"]] if not mismatch
          else [f"{NOTES['label']} times not shown: {mismatch}."]),
        "GCUPS: cells (n x n per query-series pair, fewer with a band) / median time;  "
        "gain: the median of the previous timed step of ours of the same precision (fp32, "
        "fp16, ...) over this one's; none for a peer, nor for a precision's first step."]
    fig, margins = pages.page(
        results, f"DTW ladder vs the lecture notes: {selection.point_title(point)}",
        ROW_IN * len(shown) + AXIS_IN, footnotes, top_in=TOP_IN)
    ax = fig.add_subplot()
    values, column = draw_rows(ax, shown, notes)
    for boundary in range(1, len(shown)):  # thin separators: which dots belong to which step
        ax.axhline(boundary - 0.5, color="#d0d0d0", linewidth=0.8, zorder=1)
    handles = pages.role_handles(shown)
    if notes:
        handles.append(pages.Line2D([], [], linestyle="none", marker="D", markersize=7,
                                     color=NOTES_COLOUR, markerfacecolor="white",
                                     markeredgewidth=1.4, label=NOTES["label"]))
    whiskers = selection.range_text([selection.time_range(r) for r in shown], "whiskers")
    values_in = drawing.width_in(fig, column) + drawing.COLUMN_GAP_IN
    gains_in = drawing.width_in(fig, speedup_column(ax, shown, values_in))
    drawing.finish_rows(fig, margins, ax, shown, names, values,
                       "median time [s], log scale: a dot per run (lower is better)"
                       + (f"; {whiskers}" if whiskers else ""), handles, values_in + gains_in)
    return fig


def draw(results, runs, out_dir):
    """One figure per DTW point of `runs`; returns the paths written."""
    return pages.each_point(results, runs, out_dir, "paper", figure, study="dtw")


FIGURES = {"dtw_paper": draw}

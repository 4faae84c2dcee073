"""Figure dtw_paper: the DTW ladder beside the lecture notes' Titan X times, per point, with the
gain over the previous step of ours of the same precision; plots/README.md says more."""
import common

from .data import NOTES, notes_mismatch, speedups

NOTES_STYLE = dict(edgecolor="#7f7f7f", hatch="///", linewidth=0.8)
NOTES_FACE, NOTES_TEXT = "#d9d9d9", "#666666"
FASTER, SLOWER = "#1e7b3c", "#b03a2e"

ROW_IN, AXIS_IN, TOP_IN = 0.58, 0.6, 1.05  # TOP_IN: titles, legend and column header
COLUMN_IN = 1.5  # the speedup column right of the axes
# Placement inside a row (a row is 1 tall): (offset, height) of our bar beside a notes bar,
# of the notes bar, and of our bar alone.
OURS_PAIRED, NOTES_PAIRED, OURS_ALONE = (-0.17, 0.36), (0.22, 0.26), (0.0, 0.55)


def our_text(run):
    """'1.53 ms, 11263 GCUPS, 67.3% of FP16x2 limit, fp16x2: max rel err 1.4e-02'."""
    parts = [common.format_time(run.median_ms), common.rate_text(run)]
    precision = run.precision or "fp32"
    if precision != "fp32":  # a cheaper arithmetic: say what it costs in accuracy
        error = common.number(run.validation.get("max_rel_error"))
        parts.append(f"{precision}: max rel err {error:.1e}" if error is not None else precision)
    return ", ".join(p for p in parts if p)


def draw_bars(ax, shown, notes):
    """Our bars (or status text) and the notes' bars; returns the labels for fit_labels."""
    seconds = [t for r in shown if r.median_ms
               for t in common.sample_span(r, r.median_ms / 1000) or (r.median_ms / 1000,)]
    ends = seconds + [n["value"] for n in notes.values()]
    base = common.bar_base(ends)
    ax.set_xscale("log")
    common.provisional_xlim(ax, base, ends)
    labelled = []
    for y, run in enumerate(shown):
        offset, height = OURS_PAIRED if y in notes else OURS_ALONE
        ms = run.median_ms
        if ms is None:
            common.status_row(ax, y + offset, common.status_text(run))
        else:
            labelled.append(common.hbar(
                ax, y + offset, ms / 1000, base, our_text(run), common.colour(run),
                common.sample_span(run, ms / 1000), height, incorrect=run.status == "incorrect"))
        if y in notes:
            offset, height = NOTES_PAIRED
            labelled.append(common.hbar(
                ax, y + offset, notes[y]["value"], base, f"{NOTES['label']}: {notes[y]['text']}",
                NOTES_FACE, height=height, text_colour=NOTES_TEXT, **NOTES_STYLE))
    return labelled, base


def speedup_column(ax, shown):
    """The speedup column, right of the axes."""
    gap = 8  # points between the axes and the column
    for y, (text, ratio) in enumerate(speedups(shown)):
        colour = common.MUTED if ratio is None else FASTER if ratio >= 1 else SLOWER
        ax.annotate(text, (1, y), xycoords=ax.get_yaxis_transform(), xytext=(gap, 0),
                    textcoords="offset points", va="center", fontsize=9, color=colour,
                    fontweight="bold" if colour == FASTER else "normal", annotation_clip=False)
    ax.annotate("gain over the previous\nstep of its precision", (1, 1), xycoords="axes fraction",
                xytext=(gap, 4), textcoords="offset points", va="bottom", fontsize=9,
                fontweight="bold", color="#333333", annotation_clip=False)


def figure(results, _study, point, runs):
    """The paper-style figure for one point; returned, not saved."""
    shown, names = zip(*common.ladder_rows(runs))
    mismatch = notes_mismatch(runs)
    times = {} if mismatch else NOTES["seconds"]
    notes = {y: times[r.variant] for y, r in enumerate(shown) if r.variant in times}
    footnotes = common.limit_footnotes(shown) + [
        *([f"{NOTES['label']}: {NOTES['source']}", NOTES["remarks"]] if not mismatch
          else [f"{NOTES['label']} times not shown: {mismatch}."]),
        "GCUPS: cells (n x n per query-series pair, fewer with a band) / median time;  "
        "gain: the median of the previous timed step of ours of the same precision (fp32, "
        "fp16, ...) over this one's; none for a peer, nor for a precision's first step."]
    fig, margins = common.page(
        results, f"DTW ladder vs the lecture notes: {common.point_title(point)}",
        ROW_IN * len(shown) + AXIS_IN, footnotes, top_in=TOP_IN)
    ax = fig.add_subplot()
    bars = draw_bars(ax, shown, notes)
    for boundary in range(1, len(shown)):  # thin separators: which bars belong to which step
        ax.axhline(boundary - 0.5, color="#eeeeee", linewidth=0.8, zorder=1)
    handles = common.role_handles(shown)
    if notes:
        handles.append(common.Patch(facecolor=NOTES_FACE, label=NOTES["label"], **NOTES_STYLE))
    whiskers = common.range_text([common.time_range(r) for r in shown], "whiskers")
    common.finish_bars(fig, margins, ax, shown, names, bars,
                       "median time [s], log scale (lower is better)"
                       + (f"; {whiskers}" if whiskers else ""), handles,
                       right_in=COLUMN_IN, legend_above=True)
    speedup_column(ax, shown)  # after the layout, which would squeeze the axes around it
    return fig


def draw(results, runs, out_dir):
    """One figure per DTW point of `runs`; returns the paths written."""
    return common.each_point(results, runs, out_dir, "paper", figure, study="dtw")


FIGURES = {"dtw_paper": draw}

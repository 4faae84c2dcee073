"""The DTW ladder beside the lecture notes' Titan X times (data/dtw_notes.json),
`dtw_paper_<point>.png` per point: our median times, the notes' under them where the point is
the notes' own, and the speedup over the previous bar. README.md says more.

Usage: python3 plots/dtw_paper.py RESULTS.json... [--out-dir DIR] [--figures ...]
"""
import json
import sys
from pathlib import Path

import common
import ladder

NOTES = json.loads((Path(__file__).resolve().parent / "data" / "dtw_notes.json").read_text())
NOTES_STYLE = dict(edgecolor="#7f7f7f", hatch="///", linewidth=0.8)
NOTES_FACE, NOTES_TEXT = "#d9d9d9", "#666666"
FASTER, SLOWER = "#1e7b3c", "#b03a2e"

ROW_IN, AXIS_IN, TOP_IN = 0.58, 0.6, 1.05  # TOP_IN: titles, legend and column header
COLUMN_IN = 1.5  # the speedup column right of the axes
# Placement inside a row (a row is 1 tall): (offset, height) of our bar beside a notes bar,
# of the notes bar, and of our bar alone.
OURS_PAIRED, NOTES_PAIRED, OURS_ALONE = (-0.17, 0.36), (0.22, 0.26), (0.0, 0.55)


def notes_mismatch(runs):
    """Why the notes' times do not apply to these runs ('' when they do): the notes time one
    query against 2^20 series of 128, no band, and so must the runs."""
    for run in runs:
        data = run.get("data") or {}
        for key, value in NOTES["data"].items():
            have = common.number(data.get(key))
            if have != value:
                return f"this point has {key}={'?' if have is None else f'{have:g}'}, the notes {value}"
    return ""


def our_text(run):
    """'1.53 ms, 11263 GCUPS, 67.3% of FP16x2 limit, fp16x2: max rel err 1.4e-02'."""
    parts = [common.format_time(common.median_ms(run)), common.rate_text(run)]
    precision = run.get("precision") or "fp32"
    if precision != "fp32":  # a cheaper arithmetic: say what it costs in accuracy
        error = common.number((run.get("validation") or {}).get("max_rel_error"))
        parts.append(f"{precision}: max rel err {error:.1e}" if error is not None else precision)
    return ", ".join(p for p in parts if p)


def speedups(shown):
    """(text, colour) per row: the previous timed bar's median over this one's, naming that
    bar when untimed rows lie between."""
    column, previous = [], None
    for i, run in enumerate(shown):
        ms = common.median_ms(run)
        if ms is None or previous is None:
            column.append(("baseline" if ms else "-", common.MUTED))
        else:
            row, name, before = previous
            ratio = before / ms
            text = f"{ratio:.{2 if ratio < 10 else 1 if ratio < 100 else 0}f}x"
            column.append((text + ("" if row == i - 1 else f" vs {name}"),
                           FASTER if ratio >= 1 else SLOWER))
        if ms:
            previous = (i, common.label(run), ms)
    return column


def draw_bars(ax, shown, notes):
    """Our bars (or status text) and the notes' bars; returns the labels for fit_labels."""
    seconds = [t / 1000 for r in shown if common.median_ms(r) for t in common.time_range(r)
               or (common.median_ms(r),)]
    base = common.bar_base(seconds + [n["value"] for n in notes.values()])
    ax.set_xscale("log")
    ax.set_xlim(base, base * 1000)
    labelled = []
    for y, run in enumerate(shown):
        offset, height = OURS_PAIRED if y in notes else OURS_ALONE
        ms, span = common.median_ms(run), common.time_range(run)
        if ms is None:
            common.status_row(ax, y + offset, common.status_text(run))
        else:
            labelled.append(common.hbar(
                ax, y + offset, ms / 1000, base, our_text(run), common.colour(run),
                span and (span[0] / 1000, span[1] / 1000), height,
                incorrect=run.get("status") == "incorrect"))
        if y in notes:
            offset, height = NOTES_PAIRED
            labelled.append(common.hbar(
                ax, y + offset, notes[y]["value"], base, f"{NOTES['label']}: {notes[y]['text']}",
                NOTES_FACE, height=height, text_colour=NOTES_TEXT, **NOTES_STYLE))
    return labelled, base


def speedup_column(ax, shown):
    """The speedup column, right of the axes."""
    gap = 8  # points between the axes and the column
    for y, (text, colour) in enumerate(speedups(shown)):
        ax.annotate(text, (1, y), xycoords=ax.get_yaxis_transform(), xytext=(gap, 0),
                    textcoords="offset points", va="center", fontsize=9, color=colour,
                    fontweight="bold" if colour == FASTER else "normal", annotation_clip=False)
    ax.annotate("speedup over\nprevious bar", (1, 1), xycoords="axes fraction",
                xytext=(gap, 4), textcoords="offset points", va="bottom", fontsize=9,
                fontweight="bold", color="#333333", annotation_clip=False)


def figure(results, _study, point, runs):
    """The paper-style figure for one point; returned, not saved."""
    shown, names = zip(*ladder.rows(runs))
    mismatch = notes_mismatch(runs)
    times = {} if mismatch else NOTES["seconds"]
    notes = {y: times[r.get("variant")] for y, r in enumerate(shown) if r.get("variant") in times}
    footnotes = common.limit_footnotes(shown) + [
        *([f"{NOTES['label']}: {NOTES['source']}", NOTES["remarks"]] if not mismatch
          else [f"{NOTES['label']} times not shown: {mismatch}."]),
        "GCUPS: cells (n x n per query-series pair, fewer with a band) / median time;  "
        "speedup: previous timed bar's median / this bar's median."]
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
    common.finish_bars(fig, margins, ax, shown, names, bars,
                       "median time [s], log scale (lower is better)", handles,
                       right_in=COLUMN_IN, legend_above=True)
    speedup_column(ax, shown)  # after the layout, which would squeeze the axes around it
    return fig


def draw(results, runs, out_dir):
    """One figure per DTW point of `runs`; returns the paths written."""
    return common.each_point(results, runs, out_dir, "paper", figure, study="dtw")


if __name__ == "__main__":
    sys.exit(common.main({"dtw_paper": draw}))

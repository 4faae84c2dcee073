"""DTW length sweep: GCUPS against the series length n, one line per variant.

Drawn per `entries` value from the runs of the config's "length" sweep, or, when no run
belongs to a sweep of that name, from every set of DTW runs that share `entries` and cover
at least three distinct n. x = n on a log2 axis, y = GCUPS on a log axis; a line per
variant (per variant and swept setting, e.g. block_size, when one varies), with markers;
a point that was not timed (unsupported, skipped, failed) is simply missing, and the line
breaks there. Incorrect runs keep their point, ringed in red. Dashed horizontal lines mark
the GPU limits for FP32 and, when an fp16x2 run reports one, FP16x2; the footnotes give
the rules behind them and list the missing points with their reasons.

Usage: python3 plots/dtw_length_sweep.py RESULTS.json [--out-dir DIR]
"""
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sibling modules, from any cwd
import dtw_ladder  # noqa: E402  (chooses the Agg backend and says how to install matplotlib)
import dtw_paper  # noqa: E402
import results_file  # noqa: E402

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator  # noqa: E402

STUDY = dtw_ladder.STUDY
DEFAULT_OUT_DIR = dtw_ladder.DEFAULT_OUT_DIR
LENGTH_SWEEP = "length"
MIN_LENGTHS = 3  # distinct n a set of runs needs to be drawn when there is no "length" sweep

# 13 variants need more than tab10: colours and markers both change from line to line.
# No greys: those are the limit lines'.
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939", "#7b4173"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p", "d"]
LIMIT_STYLES = {"fp32": ("black", (0, (6, 3))), "fp16x2": ("#555555", (0, (2, 2)))}

FIG_SIZE_IN = (12.0, 6.8)
FOOTNOTE_IN = 0.17
MAX_MISSING_LISTED = 8
MAX_REASON_CHARS = 100  # a footnote line has more room than a bar's row


# ---- choosing the runs ---------------------------------------------------------------------

def _n_of(run):
    """The run's series length as a number, or None."""
    return dtw_paper._number((run.get("params") or {}).get("n"))


def sweep_sets(runs):
    """entries -> runs, sorted by entries: the "length" sweep's runs split by entries, or,
    without one, every entries value whose runs cover at least MIN_LENGTHS distinct n."""
    dtw = [r for r in runs if r.get("study") == STUDY and _n_of(r) is not None]
    chosen = [r for r in dtw if r.get("sweep") == LENGTH_SWEEP]
    fallback = not chosen
    by_entries = {}
    for run in chosen or dtw:
        by_entries.setdefault(str((run.get("params") or {}).get("entries", "na")), []).append(run)
    if fallback:
        by_entries = {e: rs for e, rs in by_entries.items()
                      if len({_n_of(r) for r in rs}) >= MIN_LENGTHS}
    return dict(sorted(by_entries.items(), key=lambda kv: dtw_ladder._as_number(kv[0])))


def lines_of(runs):
    """[(label, backend, [runs])] in step order: one line per variant, or per variant and
    setting when a param other than n and entries varies (block_size, band, ...)."""
    varying = [k for k in dtw_ladder._varying_params(runs) if k != "n"]
    lines = {}
    for run in sorted(runs, key=lambda r: (r.get("step", 0), r.get("variant", ""))):
        params = run.get("params") or {}
        key = (run.get("step", 0), run.get("variant", "?"),
               tuple(params.get(k, "") for k in varying))
        lines.setdefault(key, []).append(run)
    result = []
    for group in lines.values():
        label = dtw_ladder.row_label(group[0], varying)
        result.append((label, group[0].get("backend"), group))
    return result


def gcups(run):
    """The run's GCUPS, or None when it was not timed."""
    if dtw_ladder.median_ms(run) is None:
        return None
    value = (run.get("metrics") or {}).get("gcups")
    if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
        return float(value)
    return None


def limits(runs):
    """{precision: (peak GCUPS, rule)} for fp32 and fp16x2 (the precisions with a line
    style), from the first GPU run of each precision that reports a peak."""
    found = dtw_paper.gpu_limits(runs)
    return {p: found[p] for p in LIMIT_STYLES if p in found}


def missing_footnote(lines):
    """'not timed: shared n=1024 (unsupported: needs ...); ...', grouped by reason."""
    by_reason = {}
    for label, _, runs in lines:
        for run in runs:
            if gcups(run) is None:
                name = label.split("  ", 1)[-1]
                reason = dtw_ladder.status_label(run, max_chars=MAX_REASON_CHARS)
                by_reason.setdefault(reason, []).append(
                    f"{name} n={(run.get('params') or {}).get('n')}")
    parts = []
    for reason, points in by_reason.items():
        if len(points) > MAX_MISSING_LISTED:
            parts.append(f"{len(points)} points ({reason})")
        else:
            parts.append(f"{', '.join(points)} ({reason})")
    return parts


# ---- figure --------------------------------------------------------------------------------

def sweep_figure(results, entries, runs):
    """The GCUPS-vs-n figure for one entries value; returned, not saved."""
    lines = lines_of(runs)
    lengths = sorted({_n_of(r) for r in runs})
    peaks = limits(runs)
    missing = missing_footnote(lines)

    footnotes = [f"{dtw_paper.limit_name(p)} limit: {peak:.0f} GCUPS = {rule}"
                 for p, (peak, rule) in peaks.items()]
    if not peaks:
        footnotes.append("GPU limit: no timed GPU run reported one.")
    footnotes += [f"not timed: {part}" for part in missing]
    footnotes.append("GCUPS: cells (n x n per query-series pair, fewer with a band) "
                     "/ median time.")

    footnote_in = FOOTNOTE_IN * (len(footnotes) + 1) + 0.1
    width, height = FIG_SIZE_IN
    height += footnote_in
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")

    handles = []
    values = []
    for i, (label, backend, line_runs) in enumerate(lines):
        colour, marker = COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)]
        by_n = {}
        for run in line_runs:
            by_n.setdefault(_n_of(run), run)  # first run at each n, if a setting repeats
        ys = [gcups(by_n[n]) if n in by_n else None for n in lengths]
        # NaN, not a skipped point: the line breaks where a length is missing.
        ax.plot(lengths, [math.nan if y is None else y for y in ys], color=colour,
                marker=marker, markersize=6, linewidth=1.6,
                linestyle="--" if backend == "cpu" else "-", zorder=3)
        bad = [(n, y) for n, y in zip(lengths, ys)
               if y is not None and by_n[n].get("status") == "incorrect"]
        if bad:
            ax.scatter([n for n, _ in bad], [y for _, y in bad], s=160, facecolors="none",
                       edgecolors=dtw_ladder.INCORRECT_COLOUR, linewidths=2, zorder=4)
        timed = [y for y in ys if y is not None]
        values += timed
        text = label if timed else f"{label} (not timed)"
        handles.append(Line2D([], [], color=colour if timed else "#bbbbbb", marker=marker,
                              linestyle="--" if backend == "cpu" else "-", label=text))

    for precision, (peak, _) in peaks.items():
        colour, dashes = LIMIT_STYLES[precision]
        ax.axhline(peak, color=colour, linestyle=dashes, linewidth=1.3, zorder=2)
        handles.append(Line2D([], [], color=colour, linestyle=dashes,
                              label=f"{dtw_paper.limit_name(precision)} limit ({peak:.0f} GCUPS)"))
    if any(r.get("status") == "incorrect" and gcups(r) for r in runs):
        handles.append(Line2D([], [], marker="o", markersize=11, markerfacecolor="none",
                              markeredgecolor=dtw_ladder.INCORRECT_COLOUR, markeredgewidth=2,
                              linestyle="none", label="incorrect"))

    ax.set_xlim(lengths[0] / 1.25, lengths[-1] * 1.25)
    ax.xaxis.set_major_locator(FixedLocator(lengths))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel("series length n, log2 scale")
    span = values + [peak for peak, _ in peaks.values()]
    if span:
        ax.set_ylim(min(span) / 2, max(span) * 2)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_ylabel("GCUPS, log scale (higher is better)")
        ax.grid(axis="y", which="major", color="#cccccc", zorder=0)
        ax.grid(axis="y", which="minor", color="#f0f0f0", zorder=0)
    else:
        ax.set_ylim(1, 10)
        ax.yaxis.set_major_formatter(NullFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.tick_params(axis="y", which="both", length=0)
        ax.set_ylabel("GCUPS")
    if not values:
        ax.text(0.5, 0.5, "no run of this sweep was timed", transform=ax.transAxes,
                ha="center", va="center", fontsize=11, style="italic",
                color=dtw_ladder.STATUS_TEXT_COLOUR)
    ax.grid(axis="x", which="major", color="#e5e5e5", zorder=0)
    ax.set_axisbelow(True)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0,
              fontsize=9, frameon=False)

    fig.text(0.5, 1.0 - 0.12 / height, f"DTW length sweep: entries={entries}",
             ha="center", va="top", fontsize=13, fontweight="bold")
    fig.text(0.5, 1.0 - 0.45 / height, dtw_ladder.device_subtitle(results),
             ha="center", va="top", fontsize=9, color="#333333")
    footer_y = 0.06 / height
    fig.text(0.01, footer_y, dtw_ladder.provenance(results), fontsize=7, color="#888888")
    for k, line in enumerate(reversed(footnotes), start=1):
        fig.text(0.01, footer_y + k * FOOTNOTE_IN / height, line, fontsize=8, color="#333333")
    fig.tight_layout(rect=(0, footnote_in / height, 1, 1 - 0.75 / height))
    return fig


def figure_name(entries):
    """dtw_length_sweep_e65536.png; anything but [A-Za-z0-9._-] becomes '_'."""
    return f"dtw_length_sweep_e{re.sub(r'[^A-Za-z0-9._-]', '_', entries)}.png"


def draw(results, out_dir=DEFAULT_OUT_DIR):
    """Write one GCUPS-vs-n figure per entries value of the length sweep; return the paths
    (none when the file has no "length" sweep and no entries value with 3+ lengths)."""
    out_dir = Path(out_dir)
    written = []
    for entries, runs in sweep_sets(results.get("runs") or []).items():
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / figure_name(entries)
        sweep_figure(results, entries, runs).savefig(path, dpi=120)
        print(path)
        written.append(path)
    return written


def main(argv=None):
    return results_file.run_cli("dtw_length_sweep", "Draw DTW GCUPS against series length.", draw,
                                f"no \"{LENGTH_SWEEP}\" sweep and no entries value with {MIN_LENGTHS} or more lengths; nothing drawn", argv)


if __name__ == "__main__":
    sys.exit(main())

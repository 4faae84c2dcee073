"""The ladder of any study from its results alone, `<study>_ladder_<point>.png` per data point;
plots/README.md says what each part shows.

Usage: python3 -m plots.ladder RESULTS.json... [--out-dir DIR] [--figures ...]
"""
import sys

from . import drawing, formats, pages, selection
from . import results as ladder_results

ROW_IN, AXIS_IN = 0.55, 0.65  # AXIS_IN: tick labels and axis label under the axes
LEGEND_IN = 0.3  # the legend's row above the axes


def value(run, by_metric):
    """What the bar shows: the metric, or the median time when the figure has no metric."""
    return run.metric if by_metric else run.median_ms


def whisker(run, by_metric):
    """The run's interval on the bar's scale: a rate is inversely proportional to time."""
    return selection.sample_span(run, value(run, by_metric), rate=by_metric)


def extras_text(run):
    """'1-NN 98.4% (64 queries)' for a 1-NN accuracy, 'name value' for any other extra."""
    extras = dict(run.extras)
    accuracy = ladder_results.number(extras.pop("nn1_accuracy", None))
    queries = ladder_results.number(extras.pop("nn1_queries", None)) or 0
    parts = [f"{k} {v:g}" if ladder_results.number(v) is not None else f"{k} {v}"
             for k, v in extras.items()]
    if accuracy is not None:
        count = f" ({queries:g} quer{'y' if queries == 1 else 'ies'})" if queries else ""
        parts.insert(0, f"1-NN {100 * accuracy:.1f}%{count}")
    return ", ".join(parts)


def bar_text(run, by_metric, peers, with_extras):
    """'5652 GCUPS, 67.6% of FP32 limit, 38.0% of cuBLAS SSYRK, cv 7%, 1-NN 100.0% (1 query)'.
    A run is compared only with the best peer as accurate as it (selection.peer_precision)."""
    peer = selection.peer_of(peers, run)
    cv = ladder_results.number(run.timing.get("cv"))
    parts = [selection.rate_text(run) if by_metric else formats.format_time(run.median_ms),
             f"{formats.format_value(100 * selection.rate(run) / selection.rate(peer))}% of "
             f"{selection.step_label(peer)}"
             if peer and run is not peer else "",
             # only noisy runs: their bar is less sure than it looks
             f"cv {100 * cv:.0f}%" if cv is not None and cv >= 0.05 else "",
             "cold" if run.timing.get("mode") == "cold" else "",
             extras_text(run) if with_extras else ""]
    return ", ".join(p for p in parts if p)


def line_peer(shown, peers):
    """The peer drawn as a line: that of the precision most of the steps are compared with."""
    steps = [selection.peer_precision(r) for r in shown if not r.is_peer]
    # dict, not set: of precisions as common, the first seen, whatever the hash seed
    common_precision = max(dict.fromkeys(steps), key=steps.count) if steps else None
    return peers.get(common_precision)


def draw_rows(ax, shown, by_metric, peers, with_extras):
    """A dot per timed row, its numbers in the column right of the axes, status text on the
    others; returns (values drawn, the column's texts)."""
    values, texts = [], []
    for y, run in enumerate(shown):
        ms = run.median_ms
        if value(run, by_metric):
            values += drawing.dot(ax, y, value(run, by_metric), pages.colour(run),
                                 whisker(run, by_metric), incorrect=run.status == "incorrect")
            texts.append(drawing.row_text(ax, y, bar_text(run, by_metric, peers, with_extras),
                                         incorrect=run.status == "incorrect"))
        else:  # untimed, or timed without the metric the axis shows
            drawing.status_row(ax, y, f"{formats.format_time(ms)}, no {run.metric_name}"
                              if ms else selection.status_text(run))
    return values, texts


def peer_line(ax, peer, by_metric):
    """Dashed line at the best peer's value; its legend entry."""
    x, colour = value(peer, by_metric), pages.colour(peer, text=True)
    style = dict(color=colour, linestyle=(0, (5, 3)), linewidth=1.3)
    ax.axvline(x, zorder=3, **style)
    return pages.Line2D([], [], label=f"best peer: {selection.step_label(peer)}", **style)


def figure(results, study, point, runs):
    """The ladder of one point; returned, not saved."""
    shown, names = zip(*selection.ladder_rows(runs))
    by_metric = any(r.metric for r in shown)
    peers = selection.best_peers(shown, by_metric)
    peer = line_peer(shown, peers)
    # The extras every timed row shares (1-NN 100% on every step): said once in a footnote.
    texts = {extras_text(r) for r in shown if r.median_ms}
    extras = texts.pop() if len(texts) == 1 and len(shown) > 1 else ""
    notes = selection.limit_footnotes(shown) + ([f"every timed run: {extras}"] if extras else [])
    fig, (top_in, bottom_in) = pages.page(
        results, f"{study} ladder: {selection.point_title(point)}",
        ROW_IN * max(len(shown), 2) + AXIS_IN, notes, top_in=pages.TOP_IN + LEGEND_IN)
    ax = fig.add_subplot()
    values, column = draw_rows(ax, shown, by_metric, peers, with_extras=not extras)
    handles = pages.role_handles(shown)
    if peer:
        handles.append(peer_line(ax, peer, by_metric))
        values.append(value(peer, by_metric))
    unit = next((r.unit for r in shown if r.metric), "")
    whiskers = selection.range_text([whisker(r, by_metric) for r in shown], "whiskers")
    drawing.finish_rows(fig, (top_in, bottom_in), ax, shown, names, values,
                       (f"{unit}, log scale: a dot per run (higher is better)" if by_metric else
                        "median time [ms], log scale: a dot per run (lower is better)")
                       + (f"; {whiskers}" if whiskers else ""),
                       handles, drawing.width_in(fig, column))
    return fig


def draw(results, runs, out_dir):
    """One ladder per (study, point) of `runs`; returns the paths written."""
    return pages.each_point(results, runs, out_dir, "ladder", figure)


FIGURES = {"ladder": draw}

if __name__ == "__main__":
    from .draw import main  # here, not above: draw finds the studies, which import this module
    sys.exit(main(FIGURES))

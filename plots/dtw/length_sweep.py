"""Figure dtw_length_sweep: DTW GCUPS against the series length n, a line per variant, per
point other than n; plots/README.md says more."""
from .. import drawing, formats, pages, selection

# 13 variants need more than tab10: colour and marker both change from line to line.
from .. import results as ladder_results
# No greys: those are the limit lines'.
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#393b79", "#ad494a", "#637939", "#7b4173"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p", "d"]
LIMIT_DASHES = [(0, (6, 3)), (0, (2, 2)), (0, (4, 1, 1, 1))]


def lines_of(runs):
    """{line name: {n: run}} in step order: a line per variant, or per variant and setting
    when a param other than n varies (block_size, band, ...); of repeats, the first timed."""
    settings = selection.varying(runs, leave_out=("n",))
    lines = {}
    for run in sorted(runs, key=lambda r: r.step or 0):
        values = ", ".join(f"{k}={run.params[k]}" for k in settings
                           if run.params.get(k) is not None)
        at_n = lines.setdefault(selection.row_name(run) + (f" ({values})" if values else ""), {})
        n = ladder_results.number(run.params.get("n"))
        if n not in at_n or (run.median_ms and not at_n[n].median_ms):
            at_n[n] = run
    return lines


def figure(results, _study, point, runs):
    """The GCUPS-vs-n figure of one point; returned, not saved."""
    lines = lines_of(runs)
    lengths = sorted({n for at_n in lines.values() for n in at_n})
    missing = [(f"{name.split('  ', 1)[-1]} n={n:g}", selection.status_text(run, 110))
               for name, at_n in lines.items() for n, run in at_n.items()
               if not run.metric]
    notes = (selection.limit_footnotes(runs) + selection.missing_footnotes(missing, len(runs))
             + ["GCUPS: cells (n x n per query-series pair, fewer with a band) / median time."])
    fig, margins = pages.page(results, f"DTW length sweep: {selection.point_title(point)}",
                               5.8, notes, width=12.0)
    ax = fig.add_subplot()
    handles, values = [], []
    for i, (name, at_n) in enumerate(lines.items()):
        cpu = next(iter(at_n.values())).backend == "cpu"
        style = dict(marker=MARKERS[i % len(MARKERS)], linestyle="--" if cpu else "-")
        colour = COLOURS[i % len(COLOURS)]
        drawn = drawing.sweep_line(ax, lengths, at_n, lambda r: r.metric,
                                  span=selection.rate_span(lambda r: r.metric), markersize=6,
                                  linewidth=1.6, color=colour, **style)
        values += drawn
        handles.append(pages.line_handle(name, colour, drawn, **style))
    # A limit near the lines is drawn; one far above them is said at the top of the axes
    # (drawing.levels), so that the axis fits the measurements, not the hardware's peak.
    said, held = drawing.levels(
        ax, [(peak, f"{limit} ({formats.format_value(peak)} {unit})",
              dict(color="black", linestyle=dashes, linewidth=1.3))
             for (limit, (peak, unit, _)), dashes in zip(selection.limits(runs).items(),
                                                         LIMIT_DASHES)], values)
    handles += said
    values += held
    drawing.log2_x(ax, lengths, "series length n, log2 scale")
    unit = next((r.unit for r in runs if r.metric), "GCUPS")
    drawing.log_y(ax, values, f"{unit}, log scale (higher is better)")
    pages.legend(ax, handles)
    pages.layout(fig, margins)
    return fig


def draw(results, runs, out_dir):
    """One figure per DTW point (n left out) whose runs cover two or more lengths."""
    return pages.each_point(results, runs, out_dir, "length_sweep", figure, study="dtw",
                             leave_out=("n",),
                             enough=lambda group: len({r.params.get("n") for r in group}) > 1)


FIGURES = {"dtw_length_sweep": draw}

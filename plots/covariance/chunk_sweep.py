"""Figure covariance_chunk_sweep: the chunk_size sweep of a tiled step, per point and variant:
time per early-exit setting, and the default's GFLOP/s with its facts; plots/README.md says
more."""
from .. import drawing, pages, selection
from .. import results as ladder_results

from .data import DEFAULT, chunk, settings_of

STYLES = {("on", "on"): ("#2ca02c", "o", "-"), ("on", "off"): ("#1f77b4", "s", "--"),
          ("off", "on"): ("#ff7f0e", "^", "-."), ("off", "off"): ("#d62728", "D", ":")}


def label_side(values, i):
    """Where point i's annotation goes so the line does not run through it: above a peak,
    below a trough, upper left on a rise, upper right on a fall. (offset, ha, va)."""
    before = values[i - 1] if i > 0 else None
    after = values[i + 1] if i + 1 < len(values) else None
    neighbours = [v for v in (before, after) if v is not None]
    if all(v <= values[i] for v in neighbours):
        return (0, 10), "center", "bottom"
    if all(v >= values[i] for v in neighbours):
        return (0, -10), "center", "top"
    return ((-6, 6), "right", "bottom") if before < values[i] else ((6, 6), "left", "bottom")


def time_panel(ax, settings, chunks):
    """Median time against chunk_size, a line per setting."""
    values, handles = [], []
    for exits, at in settings.items():
        colour, marker, style = STYLES.get(exits, ("#8c8c8c", "x", "-"))
        drawn = drawing.sweep_line(ax, chunks, at, lambda r: r.median_ms,
                                  span=selection.time_span(lambda r: r.median_ms), color=colour,
                                  marker=marker, linestyle=style)
        values += drawn
        name = f"block_exit {exits[0]}, thread_exit {exits[1]}"
        handles.append(pages.line_handle(name + (" (default)" if exits == DEFAULT else ""),
                                          colour, drawn, None, marker=marker, linestyle=style))
    drawing.log_y(ax, values, "median time [ms], log scale", pad=1.3)
    ax.legend(handles=handles, fontsize=8, loc="upper right")
    ax.set_title("median time per setting (lower is better)", fontsize=10)


def rate_panel(ax, at, chunks):
    """The default setting's metric against chunk_size, each point annotated with its facts."""
    colour, marker, style = STYLES[DEFAULT]
    values = drawing.sweep_line(ax, chunks, at, lambda r: r.metric,
                               span=selection.rate_span(lambda r: r.metric), color=colour,
                               marker=marker, linestyle=style)
    timed = [(c, at[c]) for c in chunks if c in at and at[c].metric]
    for i, (x, run) in enumerate(timed):
        offset, ha, va = label_side(values, i)
        cgma, blocks = (ladder_results.number(run.facts.get(k)) for k in ("cgma", "blocks_per_sm"))
        text = "\n".join(([f"CGMA {cgma:g}"] if cgma is not None else [])
                         + ([f"{blocks:g} blocks/SM"] if blocks is not None else []))
        ax.annotate(text, (x, values[i]), xytext=offset, textcoords="offset points",
                    ha=ha, va=va, fontsize=8, zorder=5,
                    bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="#cccccc", alpha=0.9))
    unit = timed[0][1].unit if timed else "GFLOP/s"
    drawing.log_y(ax, values, f"{unit}, log scale", pad=2.2)  # headroom for the annotations
    ax.set_title(f"{unit}, block_exit {DEFAULT[0]}, thread_exit {DEFAULT[1]} "
                 "(higher is better)", fontsize=10)


def figure(results, point, variant, runs):
    """The two panels of one point and variant; returned, not saved."""
    settings = settings_of(runs)
    chunks = sorted({chunk(r) for r in runs})
    missing = [(f"chunk {c:g} exits {e[0]}/{e[1]}", selection.status_text(run, 110))
               for e, at in settings.items() for c, run in at.items() if not run.median_ms]
    notes = selection.missing_footnotes(missing, len(runs)) + [
        "CGMA: the notes' flops per global-memory byte of the tile (chunk_size / 8); "
        "blocks/SM: resident blocks the occupancy calculator allows."]
    fig, margins = pages.page(
        results, f"Covariance, {selection.step_label(runs[0], variant)} step: chunk_size sweep at "
                 f"{selection.point_title(point)}",
        5.4, notes)
    ax_time, ax_rate = fig.subplots(1, 2)
    time_panel(ax_time, settings, chunks)
    rate_panel(ax_rate, settings.get(DEFAULT, {}), chunks)
    for ax in (ax_time, ax_rate):
        drawing.log2_x(ax, chunks, "chunk_size (tile edge), log2 scale")
    pages.layout(fig, margins, w_pad=2.0)
    return fig


def draw(results, runs, out_dir):
    """One figure per covariance point and variant whose runs cover two or more chunk sizes."""
    written = []
    for (study, point), group in selection.group_by_point(runs).items():
        by_variant = {}
        for run in group:
            if study == "covariance" and chunk(run) is not None:
                by_variant.setdefault(run.variant, []).append(run)
        written += [pages.save(figure(results, point, variant, swept), out_dir,
                                f"covariance_chunk_sweep_{variant}_{selection.point_name(point)}.png")
                    for variant, swept in by_variant.items()
                    if len({chunk(r) for r in swept}) > 1]
    return written


FIGURES = {"covariance_chunk_sweep": draw}

"""What a figure draws on its axes: rows of dots with their text columns, value axes (log,
fitted to the data), lines at a level (a limit), sweeps (a value against a swept param) with
their range bars, and tables."""
import math

from . import formats, pages, selection

# ---- rows: a value per row, as a dot -------------------------------------------------------
# A bar's length stands for its value only on a linear axis from zero. A ladder's values span
# decades, so its rows are dots on a log axis (a dot plot): where a dot sits is its value, and
# nothing has a length. Each row's numbers stand in a column right of the axes, so that the
# value axis reaches no further than the values drawn on it.

COLUMN_GAP_IN = 0.1  # between the axes and the first text column, and between columns
MIN_AXES_IN = 5.5  # the value axis is never narrower: the page widens instead
GUIDE = "#e4e4e4"  # a row's faint line across the whole axes, for the eye to follow
ROW_PAD = 10 ** 0.12  # the value axis past the lowest and highest value (a factor)


def dot(ax, y, value, colour_, whisker=None, incorrect=False, marker="o", hollow=False):
    """Row y's value as a dot, its whisker (the run's interval) through it, a faint guide
    across the row; an incorrect run's dot a red X. Returns the values drawn, for value_axis."""
    ax.axhline(y, color=GUIDE, linewidth=0.8, zorder=1)
    if whisker:
        ax.plot(whisker, (y, y), color="black", linewidth=1, zorder=3)
    if incorrect:
        style = dict(marker="X", color=pages.INCORRECT, markersize=pages.DOT_PT + 1)
    else:
        style = dict(marker=marker, color=colour_, markersize=pages.DOT_PT, markeredgewidth=1.4,
                     markerfacecolor="white" if hollow else colour_)
    ax.plot([value], [y], linestyle="none", zorder=4, **style)
    return [value, *(whisker or ())]


def row_text(ax, y, text, colour_="black", offset_in=0.0, incorrect=False, **style):
    """Row y's text in a column right of the axes, offset_in inches into the columns (0: the
    first); an incorrect run's red and saying so. Out of tight_layout: finish_rows leaves the
    room. Returns the text."""
    if incorrect:
        text, colour_ = f"INCORRECT  {text}", pages.INCORRECT
    artist = ax.annotate(text, (1, y), xycoords=ax.get_yaxis_transform(),
                         xytext=((COLUMN_GAP_IN + offset_in) * 72, 0),
                         textcoords="offset points", va="center", ha="left",
                         **{"fontsize": 9, "color": colour_, **style}, annotation_clip=False)
    artist.set_in_layout(False)
    return artist


def width_in(fig, artists):
    """The width in inches of the widest of `artists` (texts), 0 for none."""
    renderer = fig.canvas.get_renderer()
    return max((a.get_window_extent(renderer).width / fig.dpi for a in artists), default=0.0)


def status_row(ax, y, text):
    """No dot: the row says why, from the left edge of the axes (into the text columns where
    it is long: out of tight_layout, which would squeeze the axes to hold it)."""
    ax.text(0.01, y, text, transform=ax.get_yaxis_transform(), va="center", ha="left",
            fontsize=9, style="italic", color=pages.MUTED).set_in_layout(False)


def finish_rows(fig, margins, ax, shown, names, values, axis_text, handles, columns_in):
    """The end of every dot chart: row names (the first on top: a ladder reads downwards),
    the value axis fitted to `values`, the legend in a row above the axes, the layout leaving
    columns_in inches right of the axes for the rows' text columns; the page widened where
    the axes would be narrower than MIN_AXES_IN."""
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=9.5)
    for tick, run in zip(ax.get_yticklabels(), shown):
        tick.set_color(pages.colour(run, text=True))
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    value_axis(ax, values, axis_text)
    # Above the axes, in the room the page's top margin leaves for it: out of tight_layout,
    # which would narrow the axes to the legend's width.
    pages.legend(ax, handles, above=True).set_in_layout(False)
    right_in = columns_in + 2 * COLUMN_GAP_IN
    pages.layout(fig, margins, right_in)
    short = MIN_AXES_IN - ax.get_position().width * fig.get_figwidth()
    if short > 0:
        fig.set_size_inches(fig.get_figwidth() + short, fig.get_figheight())
        pages.layout(fig, margins, right_in)


def fitted(lo, hi, pad=ROW_PAD, least=10.0):
    """Log-axis limits holding lo..hi with `pad` to spare, at least `least` wide (a factor),
    centred on the values: from the data alone, never from a limit far past it."""
    lo, hi = lo / pad, hi * pad
    if hi / lo < least:
        middle, half = math.sqrt(lo * hi), math.sqrt(least)
        lo, hi = middle / half, middle * half
    return lo, hi


def value_axis(ax, values, text):
    """The log value axis of a dot chart, spanning the values drawn (dots, whiskers, a peer's
    line) and no more: labelled ticks and a grid; or, when nothing was timed, no ticks at all
    (they would read like measurements)."""
    ax.set_xscale("log")
    ax.set_axisbelow(True)
    values = [v for v in values if v and v > 0]
    if not values:
        ax.set_xlim(1, 10)
        ax.xaxis.set_major_locator(pages.NullLocator())
        ax.xaxis.set_minor_locator(pages.NullLocator())
        ax.set_xlabel("no run at this point was timed")
        return
    lo, hi = fitted(min(values), max(values))
    ax.set_xlim(lo, hi)
    log_ticks(ax.xaxis, math.log10(hi / lo))
    ax.set_xlabel(text)
    ax.grid(axis="x", which="major", color="#cccccc", zorder=0)
    ax.grid(axis="x", which="minor", color="#eeeeee", zorder=0)


def log_ticks(axis, decades):
    """Powers of ten leave one or two labels on a short axis: add 2 and 5 there."""
    axis.set_major_locator(pages.LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 3.5 else (1.0,)))
    axis.set_major_formatter(pages.FuncFormatter(formats.tick_text))
    axis.set_minor_formatter(pages.NullFormatter())  # labelled minors crowd the axis


# ---- lines at a level: a limit, a count ------------------------------------------------------

NEAR = 4.0  # a level farther than this from the data (a factor) is said, not drawn


def levels(ax, lines, values):
    """Horizontal lines [(y, label, style)] (a hardware limit, n: every point) beside `values`
    on a log y axis: each within NEAR of the values is drawn, and the axis must hold it; each
    farther is not drawn (it would stretch the axis far past the data, the data squeezed into
    a corner) but said at the axes' edge, with an arrow, and in the legend. Returns (legend
    handles, values the axis must hold)."""
    handles, held, far = [], [], []
    if not values:  # nothing to stand beside: no line alone on an empty axis
        return handles, held
    top, bottom = max(values), min(values)
    for y, label, style in lines:
        if bottom / NEAR <= y <= top * NEAR:
            ax.axhline(y, zorder=2, **style)
            held.append(y)
            handles.append(pages.Line2D([], [], label=label, **style))
            continue
        above = y > top
        ratio = formats.times_text(y / top if above else bottom / y)
        said = f"{label}: {ratio} {'above the highest' if above else 'below the lowest'} value"
        handles.append(pages.Line2D([], [], label=f"{said}, off the axis",
                              **{**style, "color": "#bbbbbb"}))
        far.append((above, f"{'↑' if above else '↓'} {said}"))
    for i, (above, text) in enumerate(t for t in far if t[0]):
        ax.annotate(text, (0.99, 0.98 - 0.06 * i), xycoords="axes fraction", ha="right",
                    va="top", fontsize=8, style="italic", color=pages.MUTED)
    for i, (above, text) in enumerate(t for t in far if not t[0]):
        ax.annotate(text, (0.99, 0.02 + 0.06 * i), xycoords="axes fraction", ha="right",
                    va="bottom", fontsize=8, style="italic", color=pages.MUTED)
    return handles, held


# ---- sweeps: a value against a swept param -------------------------------------------------

def log2_x(ax, xs, text):
    """x on a log2 axis with a tick at each swept value, labelled plainly."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(pages.FixedLocator(xs))
    ax.xaxis.set_minor_locator(pages.NullLocator())
    ax.xaxis.set_major_formatter(pages.FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.set_xlim(xs[0] / 1.3, xs[-1] * 1.3)
    ax.set_xlabel(text)
    ax.grid(which="major", color="#e0e0e0", zorder=0)
    ax.set_axisbelow(True)


def linear_x(ax, xs, text, empty_span, right=0.06):
    """x on a linear axis with a tick at each x; `empty_span` stands for the span of one x."""
    span = (max(xs) - min(xs)) or empty_span
    ax.set_xticks(xs)
    ax.xaxis.set_major_formatter(pages.FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.set_xlim(min(xs) - 0.06 * span, max(xs) + right * span)
    ax.set_xlabel(text)
    ax.grid(which="major", color="#e0e0e0", zorder=0)
    ax.set_axisbelow(True)


def log_y(ax, values, text, pad=2.0):
    """y on a log axis spanning `values` and the error bars drawn on ax (range_bars) with some
    padding, labelled `text` and, under it, what the error bars are (range_text) where there
    are some; or empty when there are no values."""
    if not values:
        ax.set_yticks([])
        ax.text(0.5, 0.5, "nothing here was timed", transform=ax.transAxes, ha="center",
                va="center", style="italic", color=pages.MUTED)
        return
    ends = range_ends(ax)
    values = [*values, *ends]
    ax.set_yscale("log")
    ax.set_ylim(min(values) / pad, max(values) * pad)
    log_ticks(ax.yaxis, math.log10(max(values) / min(values) * pad * pad))
    ax.set_ylabel(f"{text}\n{selection.range_text(range_spans(ax))}" if ends else text)


def range_bars(ax, points, colour):
    """Vertical error bars with caps, in `colour` (the line's), at [(x, y, (lo, hi) or None)]:
    a point without a range (one sample, or a value the results give no samples of) gets
    none. One ErrorbarContainer per call, or none, keeping its spans (range_spans); returns
    how many bars were drawn."""
    kept = [(x, y, span) for x, y, span in points if span and y is not None]
    if kept:
        xs, ys, spans = zip(*kept)
        container = ax.errorbar(
            xs, ys, yerr=[[max(y - lo, 0.0) for y, (lo, _) in zip(ys, spans)],
                          [max(hi - y, 0.0) for y, (_, hi) in zip(ys, spans)]],
            fmt="none", ecolor=colour, elinewidth=1.0, capsize=3, capthick=1.0, zorder=3)
        container.spans = spans  # what they are, for the axis label (range_text)
    return len(kept)


def range_spans(ax):
    """The spans of every error bar range_bars drew on ax."""
    return [s for c in ax.containers for s in getattr(c, "spans", ())]


def range_ends(ax):
    """The y of both ends of every error bar range_bars drew on ax."""
    return [y for c in ax.containers if isinstance(c, pages.ErrorbarContainer)
            for lines in c.lines[2] for segment in lines.get_segments() for _x, y in segment]


def sweep_line(ax, xs, at_x, y_of, span=None, **style):
    """A line over xs, at_x mapping x -> run: a missing or untimed point is NaN, so that the
    line breaks there; an incorrect point is ringed in red; span(run) -> (lo, hi) on y's scale
    (time_span, rate_span) draws each point's interval as an error bar in the line's
    colour. Returns the values drawn."""
    ys = [y_of(at_x[x]) if x in at_x else None for x in xs]
    line, = ax.plot(xs, [math.nan if y is None else y for y in ys], zorder=3, **style)
    if span:
        range_bars(ax, [(x, y, span(at_x[x])) for x, y in zip(xs, ys) if y is not None],
                   line.get_color())
    for x, y in zip(xs, ys):
        if y is not None and at_x[x].status == "incorrect":
            ax.plot([x], [y], marker="o", markersize=13, markerfacecolor="none",
                    markeredgecolor=pages.INCORRECT, markeredgewidth=1.5, zorder=4)
    return [y for y in ys if y is not None]


def draw_table(ax, header, rows, widths, style=None, row_scale=None):
    """A table filling `ax` (centred, rows row_scale times the font's height, when given): a
    bold grey header, grey rules, and style(row, col, cell) for each body cell (from 0)."""
    ax.axis("off")
    where = dict(loc="center") if row_scale else dict(loc="upper center",
                                                       bbox=[0, 0, sum(widths), 1])
    table = ax.table(cellText=rows, colLabels=header, colWidths=widths, cellLoc="center", **where)
    table.auto_set_font_size(False)
    table.set_fontsize(8.5)
    if row_scale:
        table.scale(1, row_scale)
    for (row, col), cell in table.get_celld().items():
        cell.set_edgecolor("#bbbbbb")
        if row == 0:
            cell.set_facecolor("#d9d9d9")
            cell.set_text_props(fontweight="bold")
        elif style:
            style(row - 1, col, cell)
    return table

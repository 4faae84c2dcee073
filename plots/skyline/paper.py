"""Figure skyline_paper: the skyline study beside its seed (Min, Han and Lee 2010), per data set:
Fig. 11 with the gains, the skyline sizes and Fig. 11c; plots/README.md says more."""
from .. import drawing, formats, pages, selection
from .. import results as ladder_results

from .data import (DIST_TEXT, EXPECTED, EXPECTED_SIZES, FIG11_PANELS, FIG11C_STEPS, NOTES,
                   best_runs, count_text, data_sets, distributions, expected_applies,
                   fig11c_steps, gain_rows, label_of, name_of, not_drawn_notes, pairs_of, sizes,
                   times, variants_of)

# The study's steps in ladder order: (colour, marker, line style). The seed's steps solid, our
# later GPU steps dashed, CPU steps dotted, the seed's own forms of its steps dash-dotted in
# a darker shade of ladder's step of the same technique.
STYLES = {"seq_bnl": ("#7f7f7f", "x", ":"), "seq_sfs": ("#a0a0a0", "+", ":"),
          "openmp": ("#4c72b0", "o", ":"),
          "naive": ("#d62728", "s", "-"), "apc": ("#ff7f0e", "^", "-"),
          "dwe": ("#9467bd", "v", "-"), "alr": ("#8c564b", "D", "-"),
          "warp_vote": ("#17becf", "P", "--"), "sort_filter": ("#2ca02c", "X", "--"),
          "partition": ("#e377c2", "*", "--"), "prefilter": ("#bcbd22", "h", "--"),
          "naive_seed": ("#8b0000", "s", "-."), "apc_seed": ("#b35900", "^", "-."),
          "dwe_seed": ("#4b2a7b", "v", "-."), "alr_seed": ("#4e2f27", "D", "-.")}
OTHER_COLOURS = ["#393b79", "#637939", "#bcbd22", "#7b4173"]
SEED_STEPS = ("naive", "apc", "dwe", "alr")
DIST_STYLES = {"independent": ("#1f77b4", "o"), "anticorrelated": ("#d62728", "^"),
               "correlated": ("#2ca02c", "s")}
PAIR_BARS = (("d", 1.0, ""), ("d + 1", 0.55, "//"))  # Fig. 11c's bars: (at, alpha, hatch)
PANEL_IN, PANEL_W_IN, LEGEND_IN = 4.6, 4.7, 3.1
D_AXIS = "d (attributes per point)"


def style_of(v, runs, others):
    """(colour, marker, line style) of a variant; an unknown one by its backend."""
    if v in STYLES:
        return STYLES[v]
    cpu = any(r.backend == "cpu" for r in runs if selection.short_variant(r) == v)
    colour = OTHER_COLOURS[others.index(v) % len(OTHER_COLOURS)]
    return colour, "d", ":" if cpu else "--"


def settings_note(counts):
    several = sorted({name_of(v) for (_s, v, _d), k in counts.items() if k > 1})
    return ([f"where a step ran with several settings (threads, block_points), its fastest "
             f"passed run is shown: {', '.join(several)}."] if several else [])


# ---- Fig. 11 (a, b) and the gains -------------------------------------------------------------

def draw_table(ax, header, rows, widths, kinds):
    """rows: (cells, text colours); names left-aligned, seed columns grey, ours a neutral
    blue-grey (its text green where ours is faster, red where slower)."""
    def style(row, col, cell):
        cell.get_text().set_color(rows[row][1][col])
        if col == 0:
            cell.get_text().set_ha("left")
            cell.PAD = 0.02
        else:
            cell.set_facecolor(pages.SHADES["paper" if kinds[col - 1] == "seed" else "ours"])
    return drawing.draw_table(ax, header, [c for c, _k in rows], widths, style)


def fig11(results, point, runs):
    table, counts = best_runs(runs)
    dists = distributions(table) or ["independent"]
    steps = variants_of(runs)
    others = [v for v in steps if v not in STYLES]
    columns, rows = gain_rows(table)
    notes = [f"seed: {NOTES['source']}",
             f"gains: {NOTES['gain_rule']} Ours: of the medians at each d where both steps passed, "
             "averaged over those d (positive: faster, green; negative: slower, red)."]
    notes += settings_note(counts) + not_drawn_notes(table)
    notes.append("lines: the seed's steps solid (dash-dotted: the seed's own forms of them, d a "
                 "run-time value and each thread's point in shared memory), our later GPU steps "
                 "dashed, CPU steps dotted; median time of passed runs only (a missing point: not "
                 "run or not passed).")
    width = max(13.0, PANEL_W_IN * len(dists) + LEGEND_IN + 0.8)
    table_in = 0.45 + 0.5 * len(rows)
    gap_in = 0.6
    fig, (top_in, bottom_in) = pages.page(
        results, f"Skyline vs Min, Han and Lee (2010) Fig. 11: time against d, "
        f"{selection.point_title(point)}", PANEL_IN + gap_in + table_in, pages.wrapped(notes, width),
        width=width)
    height = fig.get_figheight()
    axes = fig.subplots(1, len(dists), squeeze=False)[0]
    handles_seen = {}
    ds_all = sorted({d for s in table for at_d in table[s].values() for d in at_d})
    for ax, s in zip(axes, dists):
        at = table.get(s, {})
        ds = sorted({d for at_d in at.values() for d in at_d}) or ds_all
        values = []
        for v in steps:
            if v not in at:
                continue
            colour, marker, linestyle = style_of(v, runs, others)
            drawn = drawing.sweep_line(ax, ds, at[v], selection.seconds,
                                      span=selection.time_span(selection.seconds), color=colour,
                                      marker=marker, linestyle=linestyle, markersize=6,
                                      linewidth=1.2 if linestyle == ":" else 1.7)
            values += drawn
            handles_seen[v] = handles_seen.get(v, False) or bool(drawn)
        seed_panel = (f"the seed's Fig. 11{FIG11_PANELS[s]}" if s in FIG11_PANELS
                      else "not in the seed's Fig. 11")
        ax.set_title(f"{DIST_TEXT.get(s, s)} ({seed_panel})", fontsize=10.5)
        drawing.linear_x(ax, ds or [1], D_AXIS, 2)
        drawing.log_y(ax, values, "median time [s], log scale")
    handles = []
    for v in steps:
        colour, marker, linestyle = style_of(v, runs, others)
        label = label_of(runs, v) + ("  (seed)" if v in SEED_STEPS else "")
        handles.append(pages.line_handle(label, colour, handles_seen.get(v, False), "not drawn",
                                          marker=marker, linestyle=linestyle))
    pages.legend(axes[-1], handles)
    pages.layout(fig, (top_in, bottom_in + table_in + gap_in))
    # The gains table across the page, under the panels.
    header = ["time reduction"] + [f"{DIST_TEXT.get(s, s)}\n{who}" for s, who in columns]
    ax = fig.add_axes([0.015, bottom_in / height, 0.97, table_in / height])
    draw_table(ax, header, rows, [0.2] + [(0.97 - 0.2) / len(columns)] * len(columns),
               [w for _s, w in columns])
    return fig


def sizes_figure(results, point, runs):
    found, clashes = sizes(runs)
    if not found:
        return None, "no passed run reports extras.skyline_size"
    n = ladder_results.number(dict(point).get("n"))
    why = expected_applies(point, runs)
    ds = sorted({d for at in found.values() for d in at})
    expected = {} if why else {d: v for d, v in EXPECTED_SIZES.items() if ds[0] <= d <= ds[-1]}
    notes = ([f"expected: {EXPECTED['source']}"] if not why
             else [f"expected sizes not shown: {why}."])
    ours = found.get(EXPECTED["distribution"], {})
    close = [f"d={d}: {ours[d]:,.0f} vs {expected[d]:,.0f} ({ours[d] / expected[d] - 1:+.2%})"
             for d in sorted(set(ours) & set(expected))]
    if close:
        notes.append("ours vs expected, independent: " + "; ".join(close[:8])
                     + (" ..." if len(close) > 8 else ""))
    notes += [f"runs disagree on the skyline size at {c}" for c in clashes]
    notes.append("ours: extras.skyline_size of any passed run (every passed step finds the same "
                 "set); the dotted line is n, every point.")
    fig, margins = pages.page(results, f"Skyline size against d, {selection.point_title(point)}",
                               5.0, pages.wrapped(notes, 12.0), width=12.0)
    ax = fig.add_subplot()
    values, handles = [], []
    for s in distributions(found):
        colour, marker = DIST_STYLES.get(s, ("#7f7f7f", "d"))
        at = found[s]
        xs = sorted(at)
        ax.plot(xs, [at[d] for d in xs], color=colour, marker=marker, markersize=7,
                linewidth=1.7, zorder=3)
        values += [at[d] for d in xs]
        handles.append(pages.Line2D([], [], color=colour, marker=marker,
                                     label=f"ours: {DIST_TEXT.get(s, s)}"))
        if len(ds) <= 10:
            for d in xs:
                ax.annotate(count_text(at[d]),
                            (d, at[d]), xytext=(5, -11), textcoords="offset points",
                            fontsize=8, color=colour)
    if expected:
        xs = sorted(expected)
        ax.plot(xs, [expected[d] for d in xs], linestyle="none", marker="D", markersize=10,
                markerfacecolor="none", markeredgecolor="black", markeredgewidth=1.3, zorder=4)
        values += list(expected.values())
        handles.append(pages.Line2D([], [], linestyle="none", marker="D", markersize=9,
                                    markerfacecolor="none", markeredgecolor="black",
                                    label=f"expected, {EXPECTED['n']:,} independent points"))
    values = [v for v in values if v > 0]
    if n:  # drawn where near the sizes; far above them, said at the top instead
        said, held = drawing.levels(ax, [(n, f"n = {n:,.0f} (every point)",
                                         dict(color="#888888", linestyle=":", linewidth=1.2))],
                                   values)
        handles += said
        values += held
    drawing.linear_x(ax, ds, D_AXIS, 2, right=0.1)  # room for the last point's label
    drawing.log_y(ax, values, "skyline points, log scale")
    pages.legend(ax, handles)
    pages.layout(fig, margins)
    return fig, ""


def fig11c(results, point, runs):
    table, counts = best_runs([r for r in runs if selection.short_variant(r) in FIG11C_STEPS])
    panels = [(s, pairs_of(table[s])) for s in distributions(table) if pairs_of(table[s])]
    if not panels:
        return None, "no DWE or ALR run at an even d and at d + 1"
    steps = fig11c_steps(table)
    notes = [f"{NOTES['label']}, Fig. 11c: DWE at d beside d + 1; in the seed's code, at d = 8 and "
             "16 (a multiple of the banks' stride) DWE's shared-memory rows conflict, and one more "
             "attribute removes the conflicts. The seed's own forms (steps 14-15, where they ran) "
             "keep that code's layout; ladder's DWE and ALR (steps 6-7) keep each thread's point "
             "in registers and read tile rows by broadcast, so only their row stores can "
             "conflict; ALR pads those rows.",
             "bars: median time of passed runs, on a linear axis from zero; under each pair, "
             "time at d + 1 / time at d (below 1: d + 1 is faster despite the extra attribute)."]
    notes += settings_note(counts)
    width = max(11.0, 2.6 * len(steps) * len(panels) + 0.8)
    fig, margins = pages.page(results, f"Skyline vs Min, Han and Lee (2010) Fig. 11c: DWE and "
                               f"ALR at d and d + 1, {selection.point_title(point)}", 4.8,
                               pages.wrapped(notes, width), width=width)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    bar_w = 0.8 / (2 * len(steps))  # a bar at d and one at d + 1 per step
    for ax, (s, ds) in zip(axes, panels):
        at = table[s]
        values = [t for v in FIG11C_STEPS for d in ds for t in times(at, v, d, d + 1) if t]
        labels, tops = [], []  # tops: the whiskers' upper ends
        for i, d in enumerate(ds):
            ratios = []
            for j, v in enumerate(steps):
                pair = times(at, v, d, d + 1)
                for k, (t, (_at, alpha, hatch)) in enumerate(zip(pair, PAIR_BARS)):
                    x = i + (2 * j + k - (2 * len(steps) - 1) / 2) * bar_w
                    if not t:
                        ax.text(x, 0.02, "not run", rotation=90, ha="center", va="bottom",
                                fontsize=8, color=pages.MUTED,
                                transform=ax.get_xaxis_transform())
                        continue
                    # A bar from zero on a linear axis: its length is its time.
                    ax.bar(x, t, width=bar_w * 0.92, color=STYLES[v][0], alpha=alpha,
                           hatch=hatch, edgecolor=STYLES[v][0], zorder=3)
                    # the run's whisker, black as the ladder's; the time above its top
                    span = selection.sample_span(at[v][d + k], t)
                    if drawing.range_bars(ax, [(x, t, span)], "black"):
                        tops.append(span[1])
                    ax.annotate(formats.format_time(t * 1000), (x, span[1] if span else t),
                                xytext=(0, 2), textcoords="offset points", ha="center",
                                va="bottom", fontsize=8, rotation=90)
                if all(pair):
                    ratios.append(f"{name_of(v)} {pair[1] / pair[0]:.2f}x")
            labels.append(f"d = {d} | {d + 1}\n" + (", " if len(steps) <= 2 else "\n").join(ratios))
        ax.set_xticks(range(len(ds)))
        ax.set_xticklabels(labels, fontsize=8.5)
        ax.set_xlim(-0.6, len(ds) - 0.4)
        # Room above the tallest bar for its time, written upwards (about 0.35 in).
        ax.set_ylim(0, max(values + tops) * 1.3 if values else 1.0)
        ax.yaxis.set_major_formatter(pages.FuncFormatter(lambda v, _p: f"{v:g}"))
        whiskers = selection.range_text(drawing.range_spans(ax), "whiskers")
        ax.set_ylabel("median time [s]" + (f"\n{whiskers}" if whiskers else ""))
        ax.grid(axis="y", color="#e0e0e0", zorder=0)
        ax.set_axisbelow(True)
        ax.set_title(DIST_TEXT.get(s, s), fontsize=10.5)
    handles = [pages.Patch(facecolor=STYLES[v][0], alpha=alpha, hatch=hatch,
                            edgecolor=STYLES[v][0], label=f"{label_of(runs, v)} at {at}")
               for v in steps for at, alpha, hatch in PAIR_BARS]
    pages.legend(axes[-1], handles)
    pages.layout(fig, margins)
    return fig, ""


def draw(results, runs, out_dir):
    """skyline_fig11, skyline_sizes and skyline_fig11c of each data set of the skyline runs."""
    written = []
    for point, group in data_sets([r for r in runs if r.study == "skyline"]).items():
        name = selection.point_name(point)
        written.append(pages.save(fig11(results, point, group), out_dir,
                                   f"skyline_fig11_{name}.png"))
        for figure, make in (("sizes", sizes_figure), ("fig11c", fig11c)):
            written += pages.save_or_say(make(results, point, group), out_dir,
                                          f"skyline_{figure}_{name}")
    return written


FIGURES = {"skyline_paper": draw}

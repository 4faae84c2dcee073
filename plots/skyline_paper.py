"""The skyline study beside its seed (Min, Han and Lee 2010, "Optimizing skyline query processing
algorithms on CUDA"; the seed's numbers in data/skyline_seed.json), per data set (n, and decimals,
shape or seed where they are not the defaults or vary):

- `skyline_fig11_<point>.png`: the seed's Fig. 11 (a, b): median time against d, a line per step
  (the seed's naive, APC, DWE and ALR solid, our later GPU steps dashed, CPU steps dotted), a
  panel per distribution; under it the seed's gains (APC vs naive, DWE vs APC, ALR vs DWE, ALR vs
  naive) beside ours, averaged over the d where both steps ran.
- `skyline_sizes_<point>.png`: the skyline size against d, a line per distribution, with the
  expected size for 10^6 independent points beside ours.
- `skyline_fig11c_<point>.png`: the seed's Fig. 11c: DWE and ALR at an even d beside d + 1, when
  the runs have both; not drawn otherwise.

Only passed runs are drawn; the others are listed in footnotes by reason. README.md says more.

Usage: python3 plots/skyline_paper.py RESULTS.json... [--out-dir DIR] [--figures ...]
"""
import json
import math
import sys
import textwrap
from pathlib import Path

import common

SEED = json.loads((Path(__file__).resolve().parent / "data" / "skyline_seed.json").read_text())
EXPECTED = SEED["expected_skyline_size"]

# The study's steps in ladder order: (colour, marker, line style). The seed's steps solid, our
# later GPU steps dashed, CPU steps dotted.
STYLES = {"seq_bnl": ("#7f7f7f", "x", ":"), "seq_sfs": ("#a0a0a0", "+", ":"),
          "openmp": ("#4c72b0", "o", ":"),
          "naive": ("#d62728", "s", "-"), "apc": ("#ff7f0e", "^", "-"),
          "dwe": ("#9467bd", "v", "-"), "alr": ("#8c564b", "D", "-"),
          "warp_vote": ("#17becf", "P", "--"), "sort_filter": ("#2ca02c", "X", "--"),
          "partition": ("#e377c2", "*", "--")}
OTHER_COLOURS = ["#393b79", "#637939", "#bcbd22", "#7b4173"]
SEED_STEPS = ("naive", "apc", "dwe", "alr")
NAMES = {"seq_bnl": "BNL", "seq_sfs": "SFS", "openmp": "OpenMP", "naive": "naive",
         "apc": "APC", "dwe": "DWE", "alr": "ALR", "warp_vote": "warp vote",
         "sort_filter": "sort-filter", "partition": "partition masks"}
# Our steps past the seed's, each against the one before, and the GPU ladder overall.
LATER_GAINS = [("alr", "warp_vote"), ("warp_vote", "sort_filter"),
               ("sort_filter", "partition"), ("naive", "partition")]
# The seed's Fig. 11 panels first, in its order.
DISTRIBUTIONS = ("independent", "anticorrelated", "correlated")
DIST_TEXT = {"independent": "independent", "anticorrelated": "anti-correlated",
             "correlated": "correlated"}
DIST_STYLES = {"independent": ("#1f77b4", "o"), "anticorrelated": ("#d62728", "^"),
               "correlated": ("#2ca02c", "s")}
DATA_DEFAULTS = {"decimals": "-1", "shape": "none"}  # the study's defaults: plain BKS points
PANEL_IN, PANEL_W_IN, LEGEND_IN = 4.6, 4.7, 3.1
FASTER, SLOWER = "#1e7b3c", common.INCORRECT


# ---- runs ------------------------------------------------------------------------------------

def variant(run):
    """'dwe' whether the file says 'dwe' or 'skyline/dwe'."""
    return str(run.get("variant") or "?").rsplit("/", 1)[-1]


def d_of(run):
    value = common.number(common.param(run, "d"))
    if value is None:
        value = common.number((run.get("data") or {}).get("d"))
    return int(value) if value is not None else None


def dist_of(run):
    return str(common.param(run, "distribution") or "independent")


def seconds(run):
    """Median time in s of a passed, timed run; else None (only passed runs are drawn)."""
    ms = common.median_ms(run) if run and run.get("status") == "passed" else None
    return ms / 1000 if ms else None


def skyline_size(run):
    value = common.number((run.get("extras") or {}).get("skyline_size"))
    return value if run.get("status") == "passed" and value is not None and value >= 0 else None


def name_of(v):
    return NAMES.get(v, v)


def data_sets(runs):
    """{point: runs}: a data set per n, and per decimals and shape where they are not the
    study's defaults, and per seed where seeds differ; points by n."""
    seeds = {str(common.param(r, "seed")) for r in runs}
    groups = {}
    for run in runs:
        point = [("n", str(common.param(run, "n", (run.get("data") or {}).get("n", "?"))))]
        for key, default in DATA_DEFAULTS.items():
            value = str(common.param(run, key, default))
            if value != default:
                point.append((key, value))
        if len(seeds) > 1:
            point.append(("seed", str(common.param(run, "seed"))))
        groups.setdefault(tuple(point), []).append(run)
    return dict(sorted(groups.items(), key=lambda item: [
        (common.number(v) is None, common.number(v) or 0, v) for _k, v in item[0]]))


def variants_of(runs):
    """Every variant of the runs, in step order."""
    steps = {}
    for run in runs:
        steps.setdefault(variant(run), run.get("step") or 99)
    return sorted(steps, key=lambda v: (steps[v], v))


def best_runs(runs):
    """{distribution: {variant: {d: run}}}: at each, the fastest passed run (of several
    settings, e.g. threads or block_points), else the first run (it says why it is not drawn);
    and {(distribution, variant, d): number of passed runs}."""
    table, counts = {}, {}
    for run in runs:
        d = d_of(run)
        if d is None:
            continue
        at = table.setdefault(dist_of(run), {}).setdefault(variant(run), {})
        key = (dist_of(run), variant(run), d)
        counts[key] = counts.get(key, 0) + bool(seconds(run))
        old = at.get(d)
        if old is None or (seconds(run) and (not seconds(old) or seconds(run) < seconds(old))):
            at[d] = run
    return table, counts


def distributions(table):
    """The distributions present, the seed's Fig. 11 order first."""
    return sorted(table, key=lambda s: (DISTRIBUTIONS.index(s) if s in DISTRIBUTIONS
                                        else len(DISTRIBUTIONS), s))


def label_of(runs, v):
    """'6  DWE' from a run of the variant, with its own label."""
    run = next((r for r in runs if variant(r) == v), None)
    return common.row_name(run) if run else name_of(v)


def style_of(v, runs, others):
    """(colour, marker, line style) of a variant; an unknown one by its backend."""
    if v in STYLES:
        return STYLES[v]
    cpu = any(r.get("backend") == "cpu" for r in runs if variant(r) == v)
    colour = OTHER_COLOURS[others.index(v) % len(OTHER_COLOURS)]
    return colour, "d", ":" if cpu else "--"


# ---- gains -----------------------------------------------------------------------------------

def reductions(at, before, after):
    """{d: (t_before - t_after) / t_before} over the d where both steps have a passed run."""
    first, second = at.get(before, {}), at.get(after, {})
    out = {}
    for d in sorted(set(first) & set(second)):
        t0, t1 = seconds(first[d]), seconds(second[d])
        if t0 and t1:
            out[d] = (t0 - t1) / t0
    return out


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else None


def d_text(ds):
    """'d = 8', 'd = 8, 16', 'd = 2..16 (8 values)'."""
    ds = sorted(ds)
    if len(ds) > 6:
        return f"d = {ds[0]}..{ds[-1]} ({len(ds)} values)"
    return "d = " + ", ".join(str(d) for d in ds)


def pct(value):
    """'+28%', '-360%', '+1.3%': a time reduction, positive when faster."""
    value *= 100
    return f"{value:+.1f}%" if abs(value) < 10 else f"{value:+.0f}%"


def ours_cell(at, before, after, except_d=()):
    """(text, colour) of our reduction averaged over the common d, and over the common d
    without `except_d` when some are left; the colour says faster or slower."""
    by_d = reductions(at, before, after)
    if not by_d:
        missing = [name_of(v) for v in (before, after)
                   if not any(seconds(r) for r in at.get(v, {}).values())]
        return ((f"no passed run of {' or '.join(missing)}" if missing else "no common d"),
                common.MUTED)
    total = mean(by_d.values())
    lines = [f"{pct(total)}  ({d_text(by_d)})"]
    colour = FASTER if total > 0 else SLOWER
    kept = {d: r for d, r in by_d.items() if d not in except_d}
    if except_d and kept and len(kept) < len(by_d):
        lines.append(f"{pct(mean(kept.values()))} without "
                     f"d = {', '.join(str(d) for d in except_d)}")
        if (mean(kept.values()) > 0) != (total > 0):
            colour = "black"  # one line faster, the other slower: the signs say which
    return "\n".join(lines), colour


def gain_columns(table):
    """[(distribution, 'seed' or 'ours')]: the seed's and ours for each distribution the seed
    reports, in its order, then ours alone for the others present."""
    seeded = [s for s in DISTRIBUTIONS if any(s in g for g in SEED["gains"])]
    return ([(s, who) for s in seeded for who in ("seed", "ours")]
            + [(s, "ours") for s in distributions(table) if s not in seeded])


def gain_rows(table):
    """The gains table: its columns (gain_columns) and [(cells, colours)], the seed's rows,
    then our later steps' (only those with a value); the first cell says which gain."""
    columns = gain_columns(table)
    rows = []
    for gain in SEED["gains"]:
        cells, colours = [gain["label"]], ["black"]
        for s, who in columns:
            if who == "seed":
                text = f"{gain[s]}% faster" if s in gain else "-"
                if s in gain and gain.get("except_d"):
                    text += f"\n(not at d = {', '.join(map(str, gain['except_d']))})"
                colour = "black"
            else:
                text, colour = (ours_cell(table[s], gain["from"], gain["to"],
                                          gain.get("except_d", ()))
                                if s in table else ("not run", common.MUTED))
            cells.append(text)
            colours.append(colour)
        rows.append((cells, colours))
    for before, after in LATER_GAINS:
        if not any(reductions(at, before, after) for at in table.values()):
            continue
        cells, colours = [f"{name_of(after)} vs {name_of(before)} (ours only)"], ["black"]
        for s, who in columns:
            text, colour = (("-", "black") if who == "seed" else ours_cell(table[s], before, after)
                            if s in table else ("not run", common.MUTED))
            cells.append(text)
            colours.append(colour)
        rows.append((cells, colours))
    return columns, rows


# ---- axes ------------------------------------------------------------------------------------

def d_axis(ax, ds):
    """x = d on a linear axis with a tick at each d."""
    ds = sorted(ds) or [1]
    span = (ds[-1] - ds[0]) or 2
    ax.set_xticks(ds)
    ax.xaxis.set_major_formatter(common.FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.set_xlim(ds[0] - 0.06 * span, ds[-1] + 0.06 * span)
    ax.set_xlabel("d (attributes per point)")
    ax.grid(which="major", color="#e0e0e0", zorder=0)
    ax.set_axisbelow(True)


def wrapped(notes, width_in):
    return [line for note in notes for line in textwrap.wrap(note, int(width_in * 16))]


def why_not(run, max_chars=100):
    """Why a run is not drawn: 'incorrect: 3 of 10 flags off', 'skipped: no CUDA device'."""
    if run.get("status") == "passed":
        return "passed, no timing"
    reason = (run.get("reason") or "").strip()
    if len(reason) > max_chars:
        reason = reason[:max_chars - 3] + "..."
    status = run.get("status") or "no status"
    return f"{status}: {reason}" if reason else status


def not_drawn_notes(table):
    """Footnotes for the points without a passed, timed run, grouped by reason: 'not drawn:
    naive d=8 independent, APC d=8 independent and 3 more (skipped: no CUDA device)'."""
    by_why = {}
    for s in distributions(table):
        for v, at_d in table[s].items():
            for d, run in sorted(at_d.items()):
                if not seconds(run):
                    by_why.setdefault(why_not(run), []).append(
                        f"{name_of(v)} d={d} {DIST_TEXT.get(s, s)}")
    return [f"not drawn: {', '.join(whats[:4])}"
            + (f" and {len(whats) - 4} more" if len(whats) > 4 else "") + f" ({why})"
            for why, whats in by_why.items()]


def settings_note(counts):
    several = sorted({name_of(v) for (_s, v, _d), k in counts.items() if k > 1})
    return ([f"where a step ran with several settings (threads, block_points), its fastest "
             f"passed run is shown: {', '.join(several)}."] if several else [])


# ---- Fig. 11 (a, b) and the gains -------------------------------------------------------------

def draw_table(ax, header, rows, widths, kinds):
    """rows: (cells, text colours); the name column left-aligned, seed columns grey, ours
    green."""
    def style(row, col, cell):
        cell.get_text().set_color(rows[row][1][col])
        if col == 0:
            cell.get_text().set_ha("left")
            cell.PAD = 0.02
        else:
            cell.set_facecolor("#ececec" if kinds[col - 1] == "seed" else "#e3f1e7")
    return common.draw_table(ax, header, [c for c, _k in rows], widths, style)


def fig11(results, point, runs):
    table, counts = best_runs(runs)
    dists = distributions(table) or ["independent"]
    steps = variants_of(runs)
    others = [v for v in steps if v not in STYLES]
    columns, rows = gain_rows(table)
    notes = [f"seed: {SEED['source']}",
             f"gains: {SEED['gain_rule']} Ours: of the medians at each d where both steps passed, "
             "averaged over those d (positive: faster, green; negative: slower, red)."]
    notes += settings_note(counts) + not_drawn_notes(table)
    notes.append("lines: the seed's steps solid, our later GPU steps dashed, CPU steps dotted; "
                 "median time of passed runs only (a missing point: not run or not passed).")
    width = max(13.0, PANEL_W_IN * len(dists) + LEGEND_IN + 0.8)
    table_in = 0.45 + 0.5 * len(rows)
    gap_in = 0.6
    fig, (top_in, bottom_in) = common.page(
        results, f"Skyline vs Min, Han and Lee (2010) Fig. 11: time against d, "
        f"{common.point_title(point)}", PANEL_IN + gap_in + table_in, wrapped(notes, width),
        width=width)
    height = fig.get_figheight()
    axes = fig.subplots(1, len(dists), squeeze=False)[0]
    handles_seen, values_all = {}, []
    ds_all = sorted({d for s in table for at_d in table[s].values() for d in at_d})
    for ax, s in zip(axes, dists):
        at = table.get(s, {})
        ds = sorted({d for at_d in at.values() for d in at_d}) or ds_all
        values = []
        for v in steps:
            if v not in at:
                continue
            colour, marker, linestyle = style_of(v, runs, others)
            drawn = common.sweep_line(ax, ds, at[v], lambda r: seconds(r), color=colour,
                                      marker=marker, linestyle=linestyle, markersize=6,
                                      linewidth=1.2 if linestyle == ":" else 1.7)
            values += drawn
            handles_seen[v] = handles_seen.get(v, False) or bool(drawn)
        values_all += values
        seed_panel = {"independent": "a", "anticorrelated": "b"}.get(s)
        title = DIST_TEXT.get(s, s) + (f" (the seed's Fig. 11{seed_panel})" if seed_panel
                                       else " (not in the seed's Fig. 11)")
        ax.set_title(title, fontsize=10.5)
        d_axis(ax, ds)
        common.log_y(ax, values, "median time [s], log scale")
    handles = []
    for v in steps:
        colour, marker, linestyle = style_of(v, runs, others)
        text = label_of(runs, v)
        if v in SEED_STEPS:
            text += "  (seed)"
        drawn = handles_seen.get(v, False)
        handles.append(common.Line2D([], [], color=colour if drawn else "#bbbbbb",
                                     marker=marker, linestyle=linestyle,
                                     label=text if drawn else f"{text} (not drawn)"))
    common.legend(axes[-1], handles)
    common.layout(fig, (top_in, bottom_in + table_in + gap_in))
    # The gains table across the page, under the panels.
    header = ["time reduction"] + [f"{DIST_TEXT.get(s, s)}\n{who}" for s, who in columns]
    first = 0.2
    rest = (0.97 - first) / (len(header) - 1)
    ax = fig.add_axes([0.015, bottom_in / height, 0.97, table_in / height])
    draw_table(ax, header, rows, [first] + [rest] * (len(header) - 1), [w for _s, w in columns])
    return fig


# ---- skyline sizes ---------------------------------------------------------------------------

def count_text(value):
    """'14', '5606', '30.7k', '319k', '1.00M'."""
    if value >= 1e6:
        return f"{value / 1e6:.2f}M"
    if value >= 1e5:
        return f"{value / 1e3:.0f}k"
    return f"{value / 1e3:.1f}k" if value >= 1e4 else f"{value:.0f}"


def sizes(runs):
    """{distribution: {d: size}} from any passed run, and [disagreements] as text."""
    found, clashes = {}, []
    for run in runs:
        size, d = skyline_size(run), d_of(run)
        if size is None or d is None:
            continue
        at = found.setdefault(dist_of(run), {})
        if d in at and at[d] != size:
            clashes.append(f"{DIST_TEXT.get(dist_of(run))} d={d}: {at[d]:.0f} and {size:.0f}")
        at.setdefault(d, size)
    return found, clashes


def expected_applies(point, runs):
    """'' when the expected sizes apply to these runs (n = the data file's, plain points), else
    why not."""
    n = common.number(dict(point).get("n"))
    if n != EXPECTED["n"]:
        have = "no n" if n is None else f"n = {n:,.0f}"
        return f"these runs have {have}, the expected sizes are for n = {EXPECTED['n']:,}"
    extra = [f"{k} = {v}" for k, v in point if k in DATA_DEFAULTS]
    if extra:
        return f"these points are not plain BKS points ({', '.join(extra)})"
    return ""


def sizes_figure(results, point, runs):
    found, clashes = sizes(runs)
    if not found:
        return None, "no passed run reports extras.skyline_size"
    n = common.number(dict(point).get("n"))
    why = expected_applies(point, runs)
    ds = sorted({d for at in found.values() for d in at})
    expected = {} if why else {d: v for d, v in ((int(k), v) for k, v in EXPECTED["sizes"].items())
                               if ds[0] <= d <= ds[-1]}
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
    fig, margins = common.page(results, f"Skyline size against d, {common.point_title(point)}",
                               5.0, wrapped(notes, 12.0), width=12.0)
    ax = fig.add_subplot()
    values, handles = [], []
    for s in distributions(found):
        colour, marker = DIST_STYLES.get(s, ("#7f7f7f", "d"))
        at = found[s]
        xs = sorted(at)
        ax.plot(xs, [at[d] for d in xs], color=colour, marker=marker, markersize=7,
                linewidth=1.7, zorder=3)
        values += [at[d] for d in xs]
        handles.append(common.Line2D([], [], color=colour, marker=marker,
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
        handles.append(common.Line2D([], [], linestyle="none", marker="D", markersize=9,
                                    markerfacecolor="none", markeredgecolor="black",
                                    label=f"expected, {EXPECTED['n']:,} independent points"))
    if n:
        ax.axhline(n, color="#888888", linestyle=":", linewidth=1.2, zorder=2)
        values.append(n)
        handles.append(common.Line2D([], [], color="#888888", linestyle=":",
                                     label=f"n = {n:,.0f} (every point)"))
    values = [v for v in values if v > 0]
    d_axis(ax, ds)
    span = (ds[-1] - ds[0]) or 2
    ax.set_xlim(ds[0] - 0.06 * span, ds[-1] + 0.1 * span)  # room for the last point's label
    common.log_y(ax, values, "skyline points, log scale")
    common.legend(ax, handles)
    common.layout(fig, margins)
    return fig, ""


# ---- Fig. 11c: DWE and ALR at d and d + 1 ----------------------------------------------------

FIG11C_STEPS = ("dwe", "alr")


def pairs_of(at):
    """The even d with d + 1 where DWE or ALR passed at both."""
    out = []
    for d in sorted({d for v in FIG11C_STEPS for d in at.get(v, {})}):
        if d % 2 == 0 and any(seconds(at.get(v, {}).get(d)) and seconds(at.get(v, {}).get(d + 1))
                              for v in FIG11C_STEPS):
            out.append(d)
    return out


def fig11c(results, point, runs):
    table, counts = best_runs([r for r in runs if variant(r) in FIG11C_STEPS])
    panels = [(s, pairs_of(table[s])) for s in distributions(table) if pairs_of(table[s])]
    if not panels:
        return None, "no DWE or ALR run at an even d and at d + 1"
    notes = [f"{SEED['label']}, Fig. 11c: DWE at d beside d + 1; at d = 8 and 16 (a multiple of "
             "the banks' stride) DWE's shared-memory rows conflict, and one more attribute "
             "removes the conflicts. ALR pads each row to an odd stride.",
             "bars: median time of passed runs; under each pair, time at d + 1 / time at d "
             "(below 1: d + 1 is faster despite the extra attribute)."]
    notes += settings_note(counts)
    width = max(11.0, 5.2 * len(panels) + 0.8)
    fig, margins = common.page(results, f"Skyline vs Min, Han and Lee (2010) Fig. 11c: DWE and "
                               f"ALR at d and d + 1, {common.point_title(point)}", 4.8,
                               wrapped(notes, width), width=width)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    bar_w = 0.2
    for ax, (s, ds) in zip(axes, panels):
        at = table[s]
        values = [t for v in FIG11C_STEPS for d in ds for t in
                  (seconds(at.get(v, {}).get(d)), seconds(at.get(v, {}).get(d + 1))) if t]
        base = common.bar_base(values)
        labels = []
        for i, d in enumerate(ds):
            ratios = []
            for j, v in enumerate(FIG11C_STEPS):
                colour = STYLES[v][0]
                t0, t1 = (seconds(at.get(v, {}).get(x)) for x in (d, d + 1))
                for k, (t, dd) in enumerate(((t0, d), (t1, d + 1))):
                    x = i + (2 * j + k - 1.5) * bar_w
                    if not t:
                        ax.text(x, base * 1.15, "not run", rotation=90, ha="center",
                                va="bottom", fontsize=7.5, color=common.MUTED)
                        continue
                    ax.bar(x, t - base, bottom=base, width=bar_w * 0.92, color=colour,
                           alpha=1.0 if k == 0 else 0.55, hatch="" if k == 0 else "//",
                           edgecolor=colour, zorder=3)
                    ax.annotate(common.format_time(t * 1000), (x, t), xytext=(0, 2),
                                textcoords="offset points", ha="center", va="bottom",
                                fontsize=7.5, rotation=90)
                if t0 and t1:
                    ratios.append(f"{name_of(v)} {t1 / t0:.2f}x")
            labels.append(f"d = {d} | {d + 1}\n" + ", ".join(ratios))
        ax.set_xticks(range(len(ds)))
        ax.set_xticklabels(labels, fontsize=8.5)
        ax.set_xlim(-0.6, len(ds) - 0.4)
        ax.set_yscale("log")
        ax.set_ylim(base, max(values) * 6)
        common.log_ticks(ax.yaxis, math.log10(max(values) * 6 / base))
        ax.set_ylabel("median time [s], log scale")
        ax.grid(axis="y", color="#e0e0e0", zorder=0)
        ax.set_axisbelow(True)
        ax.set_title(DIST_TEXT.get(s, s), fontsize=10.5)
    handles = [common.Patch(facecolor=STYLES[v][0], alpha=alpha, hatch=hatch,
                            edgecolor=STYLES[v][0], label=f"{label_of(runs, v)} at {which}")
               for v in FIG11C_STEPS for which, alpha, hatch in (("d", 1.0, ""),
                                                                 ("d + 1", 0.55, "//"))]
    common.legend(axes[-1], handles)
    common.layout(fig, margins)
    return fig, ""


# ---- entry -----------------------------------------------------------------------------------

def draw(results, runs, out_dir):
    """skyline_fig11, skyline_sizes and skyline_fig11c of each data set of the skyline runs;
    a figure without data is skipped with a line on stderr. Returns the paths written."""
    runs = [r for r in runs if r.get("study") == "skyline"]
    written = []
    for point, group in data_sets(runs).items():
        name = common.point_name(point)
        written.append(common.save(fig11(results, point, group), out_dir,
                                   f"skyline_fig11_{name}.png"))
        for figure, make in (("sizes", sizes_figure), ("fig11c", fig11c)):
            fig, why = make(results, point, group)
            if fig is None:
                common.warn(f"skyline_{figure}_{name} not drawn: {why}")
            else:
                written.append(common.save(fig, out_dir, f"skyline_{figure}_{name}.png"))
    return written


if __name__ == "__main__":
    sys.exit(common.main({"skyline_paper": draw}))

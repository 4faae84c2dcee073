"""The counters that explain each step of a ladder: `ladder profile CONFIG --out R.json`
keeps, for each GPU run, what Nsight Compute measured (the run's "profile"); this draws them
step beside step, one figure per study and point, so that a step's gain (or loss) can be read
off the hardware:

  1. speed of light: SM, memory, DRAM, L2 and L1 throughput as % of peak (which unit binds);
  2. instructions per work unit, thread and warp (dots on a log scale), with each SASS
     operation counted per unit (how much a step executes per cell, and of which kind);
  3. achieved occupancy and issue-slot use (how much latency is hidden, how busy the
     schedulers are);
  4. stall cycles per issued instruction, the 6 largest reasons at the point stacked, the
     rest as "other" (what the warps wait on);
  5. shared-memory bank-conflict share and branch uniformity (0..1).

A panel is drawn when some run has its counters (a metric set collects only some of them); a
run without them reads "n/a" there. Runs whose profile was skipped (CPU steps, no ncu) are
left out.

Beside it, where some step has its bytes and duration counted, a roofline of the point, log-log,
each step a colour, at three markers on one height: its intensity at L1, L2 and DRAM (a marker
shape per level; a level that moved no bytes is left out):

  - work counted in FLOPs (covariance): a hierarchical FP32/TF32/FP16 roofline, x FLOPs per byte,
    y FLOP/s (the run's FLOPs over the duration ncu measured);
  - other work (cells of dtw, twed, eed; skyline's points): an instruction roofline (Ding &
    Williams), x warp instructions per byte, y warp instructions per second (per work unit
    times the work, over the duration): min-plus and integer steps do few FLOPs.

Its ceilings, the compute ones flat and DRAM and L1/shared bandwidth diagonal, come only from
the results' device.ceilings (the hardware table of the GPU that ran, at its max SM clock);
a file without them gets the points alone, and its footer says so.

Usage: python3 -m plots.profile_figure RESULTS.json [...] [--out-dir DIR] [--if-any]
Writes DIR/profile_<study>_<point>.png and .pdf (DIR: figures/ beside the first results file),
and DIR/roofline_<study>_<point>.png and .pdf where there is one, and prints each path. Exit
status 0 when a figure was drawn; 2, with one line on stderr, when a file is not a ladder
results file, no run has counters to draw, or matplotlib is missing.
"""
import argparse
import math
import re
import sys
import textwrap
from pathlib import Path

from . import drawing, formats, pages, pools, selection
from . import results as ladder_results
from .results import ResultsError, number

PANEL_IN, WIDTH_IN = 2.4, 13.0  # each panel's height; the page's width, as the ladder's
# Slide size: every label, tick and legend at least 10 pt (the page's footer stays at 8).
LABEL_PT, TICK_PT = 11, 10
# Seaborn's "deep" colours, one per bar of a group, apart on paper and on a projector;
# "other" stays grey, the reasons not worth a colour.
PALETTE = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
           "#ccb974", "#64b5cd", "#8c8c8c"]
OTHER = "#bbbbbb"
DOTS = ["o", "s", "^", "D", "v", "P", "X", "*"]  # the log panel's dots, a shape per series
TOP_STALLS = 6  # more reasons than this make a stack no one can read

SOL = (("sm_pct", "SM"), ("memory_pct", "memory"), ("dram_pct", "DRAM"), ("l2_pct", "L2"),
       ("l1_pct", "L1"))
INSTRUCTIONS = (("thread_instructions", "thread instructions"),
                ("warp_instructions", "warp instructions"))
OCCUPANCY = (("achieved_occupancy_pct", "achieved occupancy"),
             ("issue_slots_pct", "issue slots busy"))
RATIOS = (("shared_conflict_share", "shared-memory bank-conflict share"),
          ("branch_uniformity", "branch uniformity"))


def say(text):
    print(f"profile_figure: {text}", file=sys.stderr)


# ---- reading the profiles ------------------------------------------------------------------

def _dict(value):
    return value if isinstance(value, dict) else {}


def profile(run):
    return _dict(run.raw.get("profile"))


def derived(run):
    """The run's derived counters; {} for no profile or a skipped one."""
    return _dict(profile(run).get("derived"))


def column(runs, key, group=None, positive=False):
    """The number under derived[group][key] (derived[key] without a group) of each run, None
    where it is missing; positive=True: None for values a log axis cannot show."""
    values = [number(_dict(derived(r).get(group)).get(key) if group else derived(r).get(key))
              for r in runs]
    return [v if v is not None and (v > 0 or not positive) else None for v in values]


def series(runs, keys, group=None, positive=False):
    """[(label, column)] of the keys some run has, in the order given."""
    out = [(label, column(runs, key, group, positive)) for key, label in keys]
    return [(label, values) for label, values in out if any(v is not None for v in values)]


def instruction_keys(runs):
    """Thread and warp instructions first, then every SASS operation counted (bytes per unit
    are left out: a count of bytes on an axis of instructions would read as one)."""
    found = {k for r in runs for k in _dict(derived(r).get("per_work_unit"))}
    ops = sorted(found - {k for k, _ in INSTRUCTIONS} - {k for k in found if k.endswith("_bytes")})
    return INSTRUCTIONS + tuple((k, k) for k in ops)


def stall_series(runs):
    """Stacked series of stall cycles per issued instruction: the TOP_STALLS reasons largest
    over all runs (so a reason keeps its colour from step to step), then "other"."""
    per_run = []
    for run in runs:
        stalls = _dict(derived(run).get("stalls_per_instruction"))
        found = {k: number(v) for k, v in stalls.items()}
        per_run.append({k: max(v, 0.0) for k, v in found.items() if v is not None} or None)
    totals = {}
    for stalls in filter(None, per_run):
        for reason, value in stalls.items():
            totals[reason] = totals.get(reason, 0.0) + value
    top = sorted(totals, key=lambda k: (-totals[k], k))[:TOP_STALLS]  # name breaks ties
    out = [(reason.replace("_", " "), [s.get(reason, 0.0) if s else None for s in per_run])
           for reason in top]
    rest = [sum(v for k, v in s.items() if k not in top) if s else None for s in per_run]
    return out + ([("other", rest)] if len(totals) > len(top) else [])


def panels(runs, unit="unknown"):
    """[(title, y label, series, how)] of the panels some run has counters for, in order."""
    candidates = [
        ("speed of light: throughput as % of each unit's peak", "% of peak",
         series(runs, SOL, "speed_of_light_pct"), "percent"),
        (f"instructions and SASS operations per work unit ({unit})",
         "per work unit, log scale (dots)",
         series(runs, instruction_keys(runs), "per_work_unit", positive=True), "log"),
        ("achieved occupancy and issue-slot use", "% of peak", series(runs, OCCUPANCY),
         "percent"),
        (f"stall cycles per issued instruction: the {TOP_STALLS} largest reasons here, "
         "the rest as other", "cycles / instruction", stall_series(runs), "stacked"),
        ("shared-memory bank-conflict share and branch uniformity", "fraction",
         series(runs, RATIOS), "fraction")]
    return [p for p in candidates if p[2]]


def ladder_order(run):
    """Steps in ladder order, unnumbered ones last; variant then keeps ties in one order."""
    step = number(run.step)
    return step is None, step or 0, str(run.variant or "")


def profiled_groups(files):
    """(study, point) -> its runs with counters to draw, in ladder order; as first seen."""
    groups = {}
    for results in files:
        for run in results.runs:
            if panels([run]):
                groups.setdefault((str(run.study or "?"), str(run.point)), []).append(run)
    return {key: sorted(runs, key=ladder_order) for key, runs in groups.items()}


def one_or_mixed(values):
    """The one value the runs share, 'mixed (a, b)' when they differ, 'unknown' for none."""
    seen = list(dict.fromkeys(str(v) for v in values if v not in (None, "")))
    if len(seen) > 1:
        return f"mixed ({', '.join(seen)})"
    return seen[0] if seen else "unknown"


def footnote(runs):
    """Where the counters come from: GPU, ncu version, replay mode, metric set, work unit."""
    def field(key):
        return one_or_mixed(profile(r).get(key) for r in runs)
    return (f"GPU: {one_or_mixed(r.file.device_name for r in runs)};  Nsight Compute "
            f"{field('tool_version')}, {field('replay_mode')} replay, metric set "
            f"{field('metric_set')}, cache control {field('cache_control')};  "
            f"counts per work unit: {field('work_unit')}")


def row_names(runs):
    """selection.row_name of each run; runs of one variant at several settings name theirs."""
    names = []
    for run in runs:
        same = [r for r in runs if r.variant == run.variant]
        settings = selection.varying(same) if len(same) > 1 else []
        extra = ", ".join(f"{k}={run.params.get(k)}" for k in settings)
        names.append(selection.row_name(run) + (f" ({extra})" if extra else ""))
    return names


# ---- rooflines -----------------------------------------------------------------------------

ROOF_IN = 6.0  # the roofline's height
# The levels a step is placed at: (key of derived.bytes, name, marker).
LEVELS = (("l1", "L1", "o"), ("l2", "L2", "s"), ("dram", "DRAM", "^"))
# Keys of device.ceilings, by kind of roofline: the numbers are the GPU's hardware table's,
# as the harness wrote them, never typed here. The table has no L2 bandwidth: no L2 ceiling.
ROOFS = {"instructions": (("warp_instructions_per_s", "warp-instruction issue"),),
         "flops": (("fp32_flops_per_s", "FP32 (FMA)"), ("tf32_tensor_flops_per_s", "TF32 tensor"),
                   ("fp16_tensor_flops_per_s", "FP16 tensor"))}
BANDWIDTHS = (("shared_bytes_per_s", "L1/shared"), ("dram_bytes_per_s", "DRAM"))
# kind -> (title, x label, y label, unit of a compute ceiling)
ROOF_TEXT = {"instructions": ("instruction roofline",
                              "warp instructions per byte moved at the level",
                              "warp instructions per second", "/s"),
             "flops": ("FP32/TF32/FP16 roofline", "FLOPs per byte moved at the level", "FLOP/s",
                       "FLOP/s")}


def roofline_kind(runs):
    """"flops" for work counted in FLOPs (covariance), else "instructions": a min-plus or
    integer step does few FLOPs, but every step issues instructions."""
    return "flops" if one_or_mixed(profile(r).get("work_unit") for r in runs) == "flops" \
        else "instructions"


def achieved(run, kind):
    """(how much the run did, that per second), as ncu counted it: its warp instructions (per
    work unit times the work it was divided by), or for "flops" the run's FLOPs (its work),
    over ncu's duration; None when the profile lacks one of them."""
    d = derived(run)
    done = number(profile(run).get("work"))
    if kind == "instructions":
        per = number(_dict(d.get("per_work_unit")).get("warp_instructions"))
        done = done * per if done is not None and per is not None else None
    seconds = (number(d.get("duration_ns")) or 0.0) * 1e-9
    return (done, done / seconds) if done and done > 0 and seconds > 0 else None


def roofline_points(run, kind):
    """[(level, marker, x: done per byte at the level, y: done per second)] of a run, for each
    level that moved bytes; [] without work, time or bytes."""
    got = achieved(run, kind)
    if got is None:
        return []
    done, rate = got
    moved = _dict(derived(run).get("bytes"))
    sizes = [(name, marker, number(moved.get(key)) or 0.0) for key, name, marker in LEVELS]
    return [(name, marker, done / size, rate) for name, marker, size in sizes if size > 0]


def ceilings(runs):
    """(the ceilings of the runs' GPU, '' or why none are drawn): the positive numbers of
    device.ceilings, one table for all runs (two GPUs' would draw one GPU's roof under the
    other's points)."""
    tables = [r.file.device.get("ceilings") for r in runs]
    if any(t != tables[0] for t in tables):
        return {}, "no ceilings: the runs come from results of different hardware tables"
    found = {k: v for k, v in _dict(tables[0]).items() if (number(v) or 0) > 0}
    return found, "" if found else "no ceilings: the results carry no hardware table row"


def tera(value, unit):
    return f"{formats.format_value(value / 1e12)} T{unit}"


def draw_ceilings(ax, kind, roofs, lo, hi):
    """Compute ceilings flat from the ridge of the widest bandwidth; bandwidths as diagonals
    (bandwidth x intensity) up to the highest compute ceiling. Returns their legend entries."""
    tops = [(roofs[k], label) for k, label in ROOFS[kind] if k in roofs]
    widths = [(roofs[k], label) for k, label in BANDWIDTHS if k in roofs]
    top = max((v for v, _ in tops), default=None)
    widest = max((w for w, _ in widths), default=None)
    handles = []
    for (value, label), style in zip(tops, ("-", "-.")):
        start = max(lo, value / widest) if widest else lo
        handles += ax.plot([start, hi], [value, value], color="#333333", linestyle=style,
                           linewidth=1.5, zorder=1,
                           label=f"{label}: {tera(value, ROOF_TEXT[kind][3])}")
    for (width, label), style in zip(widths, ("--", ":")):
        end = min(hi, top / width) if top else hi
        handles += ax.plot([lo, end], [width * lo, width * end], color="#333333",
                           linestyle=style, linewidth=1.5, zorder=1,
                           label=f"{label}: {tera(width, 'B/s')}")
    return handles


def roofline_footnotes(runs, kind, drawn, roofs, no_roofs):
    """Where the counters and the ceilings come from, and the steps with nothing to place."""
    row = one_or_mixed(r.file.device.get("hardware_row") for r in runs)
    clock = f" at the {formats.format_value(roofs['clock_mhz'])} MHz max SM clock" \
        if "clock_mhz" in roofs else ""
    notes = [footnote(runs), no_roofs or (
        f"ceilings: the hardware table's row {row}{clock}, DRAM the device's memory bus; "
        "no L2 ceiling (the table has no L2 bandwidth)")]
    left_out = [name for name, points in zip(row_names(runs), drawn) if not points]
    if left_out:
        what = "warp instructions, " if kind == "instructions" else ""
        notes.append(f"not placed (no {what}bytes or duration counted): {', '.join(left_out)}")
    return notes


def roofline_figure(results, study, point, runs):
    """The roofline of one point: each step's points in its colour, labelled with its step
    number, the ceilings of device.ceilings where the results have them; returned, not saved."""
    kind = roofline_kind(runs)
    title = ROOF_TEXT[kind][0]
    drawn = [roofline_points(r, kind) for r in runs]
    roofs, no_roofs = ceilings(runs)
    fig, margins = pages.page(
        results, f"{study}: {title} at {point.replace(',', ', ') or 'all runs'}", ROOF_IN,
        pages.wrapped(roofline_footnotes(runs, kind, drawn, roofs, no_roofs), WIDTH_IN),
        width=WIDTH_IN)
    ax = fig.subplots()
    steps = []
    for i, (run, name, points) in enumerate(zip(runs, row_names(runs), drawn)):
        if not points:
            continue
        colour = PALETTE[i % len(PALETTE)]
        xs = [x for _, _, x, _ in points]
        y = points[0][3]  # one rate, whatever the level
        steps += ax.plot(xs, [y] * len(xs), color=colour, linewidth=1, zorder=2, label=name)
        for _, marker, x, _ in points:  # open: two levels at one intensity both show
            ax.plot([x], [y], marker=marker, color=colour, markersize=10, markeredgewidth=1.8,
                    markerfacecolor="none", zorder=3)
        ax.annotate("?" if run.step is None else str(run.step), (max(xs), y), xytext=(7, 0),
                    textcoords="offset points", va="center", fontsize=TICK_PT, color=colour)
    levels = [pages.Line2D([], [], marker=m, color=pages.MUTED, linestyle="none",
                            markersize=10, markeredgewidth=1.8, markerfacecolor="none",
                            label=f"{name} bytes") for _, name, m in LEVELS]
    roof_axes(ax, kind, drawn, roofs, steps + levels)
    pages.layout(fig, margins)
    return fig


def roof_axes(ax, kind, drawn, roofs, handles):
    """Log-log axes holding every point and the roof's corners, the ceilings, the legend."""
    xs = [x for points in drawn for _, _, x, _ in points]
    ys = [y for points in drawn for _, _, _, y in points]
    tops = [roofs[k] for k, _ in ROOFS[kind] if k in roofs]
    ridges = [t / roofs[k] for t in tops for k, _ in BANDWIDTHS if k in roofs]
    lo, hi = min(xs + ridges) / 4, max(xs + ridges) * 4
    handles = handles + draw_ceilings(ax, kind, roofs, lo, hi)
    bottom, top = min(ys) / 4, max(ys + tops) * 3
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(bottom, top)
    drawing.log_ticks(ax.xaxis, math.log10(hi / lo))
    drawing.log_ticks(ax.yaxis, math.log10(top / bottom))
    ax.set_xlabel(ROOF_TEXT[kind][1], fontsize=LABEL_PT)
    ax.set_ylabel(ROOF_TEXT[kind][2], fontsize=LABEL_PT)
    ax.tick_params(labelsize=TICK_PT)
    ax.grid(which="major", color="#e0e0e0", zorder=0)
    ax.set_axisbelow(True)
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=TICK_PT,
              frameon=False, borderaxespad=0.2)


# ---- drawing -------------------------------------------------------------------------------

def grouped(ax, panel_series, dots=False):
    """Bars side by side at each step, one colour per series; None draws no bar. dots=True
    (a log axis, where a bar's length means nothing): a dot per value in the bar's place."""
    width = 0.8 / len(panel_series)
    for i, (label, values) in enumerate(panel_series):
        kept = [(x - 0.4 + width * (i + 0.5), v) for x, v in enumerate(values) if v is not None]
        colour = PALETTE[i % len(PALETTE)]
        if dots:
            ax.plot(*zip(*kept), linestyle="none", marker=DOTS[i % len(DOTS)], markersize=7,
                    label=label, color=colour, zorder=2)
        else:
            ax.bar(*zip(*kept), width, label=label, color=colour, zorder=2)


def stacked(ax, panel_series):
    """One bar per step, the reasons stacked, its total above it."""
    bottoms = [0.0] * len(panel_series[0][1])
    for i, (label, values) in enumerate(panel_series):
        colour = OTHER if label == "other" else PALETTE[i % len(PALETTE)]
        kept = [(x, v, bottoms[x]) for x, v in enumerate(values) if v is not None]
        xs, heights, below = zip(*kept)
        ax.bar(xs, heights, 0.6, bottom=below, label=label, color=colour, zorder=2)
        for x, v, _ in kept:
            bottoms[x] += v
    for x, total in enumerate(bottoms):
        if any(values[x] is not None for _, values in panel_series):
            ax.annotate(formats.format_value(total), (x, total), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=TICK_PT)
    return bottoms


def y_axis(ax, how, values):
    """0..100 for percentages, 0..1 for fractions (higher only if a value is), log for counts."""
    top = max(values)
    if how == "log":
        low = min(values)
        ax.set_yscale("log")
        ax.set_ylim(low / 2, top * 2)
        drawing.log_ticks(ax.yaxis, math.log10(top / low) + 1.2)
    elif how == "stacked":
        ax.set_ylim(0, top * 1.2 or 1.0)  # room for the totals above the bars
    else:
        ax.set_ylim(0, max(top, 100.0 if how == "percent" else 1.0) * 1.02)


def draw_panel(ax, panel, count):
    """One panel: bars, "n/a" where a run lacks its counters, titles, legend on the right."""
    title, label, panel_series, how = panel
    if how == "stacked":
        heights = stacked(ax, panel_series)
    else:
        grouped(ax, panel_series, dots=how == "log")
        heights = [v for _, values in panel_series for v in values if v is not None]
    y_axis(ax, how, heights)
    for x in range(count):
        if all(vs[x] is None for _, vs in panel_series):  # not collected, not zero
            ax.text(x, 0.04, "n/a", transform=ax.get_xaxis_transform(), ha="center",
                    fontsize=TICK_PT, style="italic", color=pages.MUTED)
    ax.set_title(title, loc="left", fontsize=LABEL_PT)
    ax.set_ylabel(label, fontsize=LABEL_PT)
    ax.tick_params(labelsize=TICK_PT)
    ax.grid(axis="y", color="#dddddd", zorder=0)
    ax.set_axisbelow(True)
    handles, labels = ax.get_legend_handles_labels()
    if how == "stacked":  # the legend reads top-down, as the stack does
        handles, labels = handles[::-1], labels[::-1]
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=TICK_PT,
              frameon=False, borderaxespad=0.2)


def step_labels(runs):
    """(labels, rotation, inches they take under the axes): row names wrapped to a step's
    slot (10 pt text: about 10 characters per inch of the axes' ~72% of the page), or, where
    a slot is too narrow for that, unwrapped and slanted, so that neighbours never overlap."""
    names = row_names(runs)
    slot = int(WIDTH_IN * 0.72 / len(runs) * 10)
    if slot >= 12:
        labels = ["\n".join(textwrap.wrap(n, slot)) or n for n in names]
        return labels, 0, 0.3 + 0.2 * max(label.count("\n") + 1 for label in labels)
    return names, 30, 0.3 + 0.5 * 0.1 * max(map(len, names))  # sin 30 deg = 0.5


def x_axis(ax, runs, labels, rotation):
    ax.set_xticks(range(len(runs)))
    ax.set_xticklabels(labels, fontsize=TICK_PT, rotation=rotation,
                       ha="right" if rotation else "center",
                       rotation_mode="anchor" if rotation else "default")
    for tick, run in zip(ax.get_xticklabels(), runs):
        tick.set_color(pages.colour(run, text=True))
    ax.set_xlim(-0.5, len(runs) - 0.5)


def figure(results, study, point, runs):
    """The profile figure of one point, a panel per kind of counter some run has; returned,
    not saved."""
    shown = panels(runs, one_or_mixed(profile(r).get("work_unit") for r in runs))
    labels, rotation, labels_in = step_labels(runs)
    point_text = point.replace(",", ", ") or "all runs"
    fig, margins = pages.page(
        results, f"{study}: what Nsight Compute counted at {point_text}",
        PANEL_IN * len(shown) + labels_in, pages.wrapped([footnote(runs)], WIDTH_IN),
        width=WIDTH_IN)
    axes = fig.subplots(len(shown), 1, sharex=True, squeeze=False)[:, 0]
    for ax, panel in zip(axes, shown):
        draw_panel(ax, panel, len(runs))
    x_axis(axes[-1], runs, labels, rotation)
    pages.layout(fig, margins)
    return fig


def file_name(study, point, what="profile"):
    return re.sub(r"[^A-Za-z0-9_=.-]", "_", f"{what}_{study}_{point or 'all'}") + ".png"


def draw(groups, out_dir):
    """Each group's figure, and its roofline where a step has a point on it, as PNG and PDF
    (pages.save); prints and returns the paths."""
    written = []
    for (study, point), runs in groups.items():
        view = pools.pooled(list(dict.fromkeys(r.file for r in runs)))
        figures = [(figure, "profile")]
        if any(roofline_points(r, roofline_kind(runs)) for r in runs):
            figures.append((roofline_figure, "roofline"))
        for make, what in figures:
            png = pages.save(make(view, study, point, runs), out_dir,
                              file_name(study, point, what))
            print(png.with_suffix(".pdf"))  # save prints the PNG's
            written += [png, png.with_suffix(".pdf")]
    return written


def nothing_text(files, study=None, purpose=" to draw"):
    """One line: no run (of `study`, None: of any) has counters, and why the profiles say
    they were skipped."""
    reasons = dict.fromkeys(" ".join(str(profile(r).get("skipped"))[:80].split())
                            for f in files for r in f.runs
                            if (study is None or r.study == study) and "skipped" in profile(r))
    why = f" (profiles skipped: {'; '.join(reasons)})" if reasons else \
        " (write them with `ladder profile CONFIG --out R.json`)"
    of = f" of study {study}" if study else ""
    return (f"no profiled run{of}: {', '.join(str(f.path) for f in files)} "
            f"hold{'s' if len(files) == 1 else ''} no Nsight Compute counters{purpose}{why}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Draw the Nsight Compute counters of each "
                                                 "profiled step, one figure per point.")
    parser.add_argument("results", nargs="+", help="results files written by `ladder profile`")
    parser.add_argument("--out-dir", help="default: figures/ beside the first results file")
    parser.add_argument("--if-any", action="store_true",
                        help="exit 0, drawing nothing, when no run has counters (a reproduction "
                             "without --profile)")
    args = parser.parse_args(argv)
    try:  # every file first, so that a bad last file leaves nothing half drawn
        files = [ladder_results.load(path) for path in args.results]
        groups = profiled_groups(files)
        if not groups:
            if args.if_any:
                return 0
            raise ResultsError(nothing_text(files))
        pages.require_matplotlib()
    except (ResultsError, ImportError) as err:
        say(err)
        return 2
    out_dir = Path(args.out_dir) if args.out_dir else Path(args.results[0]).parent / "figures"
    if pages.out_dir_problem(out_dir):  # before anything is drawn
        say(pages.out_dir_problem(out_dir))
        return 2
    try:
        draw(groups, out_dir)
    except OSError as err:
        say(f"cannot write into {out_dir}: {err.strerror or err}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

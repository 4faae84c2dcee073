"""Figure twed_paper: the TWED single-pair scaling beside cuTWED's paper (Wright 2020, Fig. 9 and
10), per point other than n; plots/README.md says more."""
import math

from .. import drawing, pages, pools, selection

from .data import (LARGE, NOTES, PEER_HOST, best_gpu, host_runs, n_of, pair_mode,
                   paper_mismatch, paper_rows, peer_runs, variant_runs)

# Ours in the ladder's neutral role colours (pages.ROLE_COLOURS: never green, which would say
# 'better' whatever the numbers), cuTWED here in the peers' orange, the paper in grey.
OURS = {"baseline": pages.role_colour("baseline", "cpu"),
        "itwed": pages.role_colour("step", "cpu"), "best": pages.role_colour("step", "gpu")}
PEER, PAPER = pages.role_colour("peer", "gpu"), "#7f7f7f"
LINE_COLOURS = [pages.role_colour("step", "gpu"), "#5b8fc7", pages.role_colour("baseline", "gpu"),
                "#17becf", "#8c564b", "#bcbd22"]
BODY_IN = 5.4
TIME_AXIS = "median wall time [s], log scale"


def line(ax, points, label, colour, spans=None, **style):
    """A line through {N: value}, with error bars at {N: (lo, hi)} of `spans` (the runs'
    intervals on the value's scale); returns the values drawn."""
    xs = sorted(x for x, y in points.items() if y)
    if xs:
        ax.plot(xs, [points[x] for x in xs], label=label, color=colour, zorder=3,
                **{"marker": "o", "markersize": 5, "linewidth": 1.6, **style})
        drawing.range_bars(ax, [(x, points[x], (spans or {}).get(x)) for x in xs], colour)
    return [points[x] for x in xs]


def seconds_of(by_n):
    return {n: r.seconds for n, r in by_n.items()}


def timed_line(ax, by_n, label, colour, **style):
    """A line through the seconds of {N: run}, each with its interval."""
    return line(ax, seconds_of(by_n), label, colour,
                {n: selection.sample_span(r, r.seconds) for n, r in by_n.items()}, **style)


def finish_axis(ax, xs, values, ylabel, title):
    """N on a log2 axis, a tick at each labelled 2^k; the values on a log axis."""
    if xs:
        drawing.log2_x(ax, xs, "N = nA = nB, log2 scale")
        ax.xaxis.set_major_formatter(pages.FuncFormatter(
            lambda v, _p: f"$2^{{{round(math.log2(v))}}}$" if v > 0 else ""))
    else:
        ax.set_xticks([])
    drawing.log_y(ax, values, ylabel, pad=1.6)
    if values:
        ax.legend(loc="upper left", fontsize=8, framealpha=0.85)
    ax.set_title(title, fontsize=10)


def name_points(ax, best):
    """Which step is the best, above its marker where the best step changes."""
    previous = None
    for n in sorted(best):
        name = selection.step_label(best[n], best[n].variant or "?")
        if name != previous:
            ax.annotate(name, (n, best[n].seconds), xytext=(0, 8), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8, color=OURS["best"])
        previous = name


def peer_lines(ax, runs):
    """cuTWED measured here, FP64 solid and FP32 dashed, and its FP64 host call (the inputs
    copied inside: the paper's Fig. 10b) dotted; returns the values drawn."""
    lines = [(peer_runs(runs, precision), f"cuTWED here ({precision.upper()})", style, marker)
             for precision, style, marker in (("fp64", "-", "D"), ("fp32", "--", "d"))]
    lines.append((host_runs(runs), "cuTWED here (FP64 host call, copies included)", ":", "o"))
    return [v for by_n, label, style, marker in lines
            for v in timed_line(ax, by_n, label, PEER, linestyle=style, marker=marker)]


def fig9a(ax, runs, paper):
    """Wall time against N."""
    best = best_gpu(runs)
    values = []
    for name, label, colour in (("seq_full", "ours: sequential full matrix (seq_full)",
                                 OURS["baseline"]),
                                ("itwed", "ours: itwed (a launch per diagonal)", OURS["itwed"])):
        values += timed_line(ax, variant_runs(runs, name), label, colour)
    values += timed_line(ax, best, "ours: best FP64 GPU step", OURS["best"], linewidth=2.4)
    name_points(ax, best)
    values += peer_lines(ax, runs)
    for key, label, style in (("cutwed_s", "paper: cuTWED (P100)", "--"),
                              ("twed_c_s", "paper: twed.c (Xeon E5-2680v4)", ":")):
        values += line(ax, {r["N"]: r[key] for r in paper}, label, PAPER, linestyle=style,
                       marker="s", markersize=4)
    xs = sorted({n_of(r) for r in runs if n_of(r)} | {r["N"] for r in paper})
    finish_axis(ax, xs, values, TIME_AXIS, "(a) one pair: wall time against N")


def fig9b(ax, runs, paper):
    """Speedup over the sequential reference: ours, cuTWED here, the paper's."""
    seq_runs = {n: r for n, r in variant_runs(runs, "seq_full").items() if r.seconds}
    seq = seconds_of(seq_runs)

    def speedups(by_n):  # {N: (seq_full / run, its interval)} where both are timed
        return {n: (seq[n] / r.seconds, selection.ratio_span(seq[n] / r.seconds, seq_runs[n], r))
                for n, r in by_n.items() if n in seq and r.seconds}
    ours, peer = speedups(best_gpu(runs)), speedups(peer_runs(runs, "fp64"))
    values = line(ax, {n: s for n, (s, _) in ours.items()}, "ours: seq_full / best FP64 GPU step",
                  OURS["best"], {n: span for n, (_, span) in ours.items()}, linewidth=2.4)
    values += line(ax, {n: s for n, (s, _) in peer.items()},
                   "cuTWED here: seq_full / cuTWED (FP64)", PEER,
                   {n: span for n, (_, span) in peer.items()}, marker="D")
    values += line(ax, {r["N"]: r["speedup"] for r in paper if r["speedup"]},
                   "paper: twed.c / cuTWED (P100)", PAPER, linestyle="--", marker="s")
    xs = sorted(set(ours) | {r["N"] for r in paper if r["speedup"]} | set(seq))
    finish_axis(ax, xs, values, "speedup over the sequential reference, log scale",
                "(b) speedup over the sequential reference")


def fig10(ax, runs, paper):
    """Sweep 'large': each of our GPU variants, cuTWED here, the paper's cuTWED."""
    large = [r for r in runs if r.sweep == LARGE]
    values = []
    for i, name in enumerate(dict.fromkeys(r.variant for r in large if not r.is_peer)):
        values += timed_line(ax, variant_runs(large, name), f"ours: {name}",
                             LINE_COLOURS[i % len(LINE_COLOURS)],
                             linestyle="--" if name.endswith("_fp32") else "-")
    values += peer_lines(ax, large)
    xs = sorted({n_of(r) for r in large if n_of(r)})
    values += line(ax, {r["N"]: r["cutwed_s"] for r in paper if r["N"] in xs},
                   "paper: cuTWED (P100)", PAPER, linestyle="--", marker="s")
    finish_axis(ax, xs, values, TIME_AXIS, f"(c) large N (sweep '{LARGE}')")


def speedup_bars_text(runs):
    """What the speedups' error bars are (selection.ratio_span), as the runs with a spread give
    them; '.' when none has one."""
    spread = [r for r in runs if selection.time_range(r)]
    several = any(r.process_count >= 2 for r in spread)
    kinds = (["Welch's 95% interval of the ratio where both runs ran several processes"]
             if several else [])
    if any(r.process_count < 2 for r in spread):
        kinds.append("the sequential run's fastest sample over the GPU run's slowest .. its "
                     "slowest over the GPU's fastest" + (" otherwise" if several else ""))
    return f"; its error bars: {'; '.join(kinds)}." if kinds else "."


def footnotes(results, runs, mismatch):
    """Sources, what was left out and why, and how cuTWED was timed."""
    notes = [f"{NOTES['label']}: {NOTES['source']}" if not mismatch
             else f"paper numbers not shown: {mismatch}."]
    if not any(r.sweep == LARGE for r in runs):
        notes.append(f"no panel (c), large N: no run of sweep '{LARGE}' in this file.")
    shown = ("seq_full", "itwed")
    missing = [(f"{r.variant} N={n_of(r):.0f}", selection.status_text(r, 70))
               for r in runs if (r.variant in shown or r.is_peer) and not r.seconds and n_of(r)
               and r.variant != PEER_HOST]  # the host call is timed up to some N only
    notes += selection.missing_footnotes(missing, len(runs))
    device = pools.peer_device(results, runs)
    if any(r.is_peer for r in runs):
        notes.append("cuTWED here: peers/twed/cutwed.py" + (f" on {device}" if device else "")
                     + ", wall clock around each call (its allocations and launches included).")
    notes.append("best FP64 GPU step: the fastest correct FP64 GPU run of ours at each N, named "
                 "where it changes; speedup: the sequential time over the GPU time at the same N"
                 + speedup_bars_text(runs))
    return notes


def figure(results, _study, point, runs):
    """Fig. 9a, 9b and 10 for one point; returned, not saved."""
    runs = pair_mode(runs)
    mismatch = paper_mismatch(runs)
    paper = [] if mismatch else paper_rows()
    small = [r for r in runs if r.sweep != LARGE]
    top = max((n_of(r) for r in small if n_of(r)), default=0)
    fig, margins = pages.page(results, f"TWED vs cuTWED's paper: {selection.point_title(point)}",
                               BODY_IN, footnotes(results, runs, mismatch), width=19.0)
    # (c) only with runs of its sweep: an empty panel says nothing (a footnote says why).
    large = any(r.sweep == LARGE for r in runs)
    axes = [fig.add_subplot(1, 3 if large else 2, k) for k in ((1, 2, 3) if large else (1, 2))]
    fig9a(axes[0], small, [r for r in paper if r["N"] <= top or (not top and r["twed_c_s"])])
    fig9b(axes[1], small, [r for r in paper if r["N"] <= top or not top])
    if large:
        fig10(axes[2], runs, paper)
    pages.layout(fig, margins)
    return fig


def draw(results, runs, out_dir):
    """One figure per TWED point (n left out) with single-pair runs; returns the paths."""
    return pages.each_point(results, runs, out_dir, "paper", figure, study="twed",
                             leave_out=("n",), enough=lambda group: bool(pair_mode(group)))


FIGURES = {"twed_paper": draw}

"""The TWED single-pair scaling beside cuTWED's paper (Wright 2020, Fig. 9 and 10; numbers in
data/twed_notes.json), `twed_paper_<point>.png` per point other than n: (a) wall time against
N, log-log: our sequential baseline, the per-diagonal itwed step and our best FP64 GPU step per
N, the paper's P100 cuTWED and twed.c, and cuTWED measured here; (b) speedup over the
sequential reference, ours and the paper's; (c) the large-scale times of sweep "large". README.md
says more.

cuTWED measured here comes from the peer's results file (peers/cutwed.py): give it after or
before ours, `draw_all.py ours.json peer.json`; runs of a file whose twed runs are all peers are
kept and drawn with the other file of the same config.

Usage: python3 plots/twed_paper.py RESULTS.json [PEER.json] [--out-dir DIR] [--figures ...]
"""
import json
import math
import sys
from pathlib import Path

import common

NOTES = json.loads((Path(__file__).resolve().parent / "data" / "twed_notes.json").read_text())
LARGE = "large"  # the sweep of Fig. 10
OURS = {"baseline": "#4c72b0", "itwed": "#7cbf8e", "best": "#1e7b3c"}
PEER, PAPER = "#d9773a", "#7f7f7f"
LINE_COLOURS = ["#1e7b3c", "#3d9b57", "#17becf", "#9467bd", "#8c564b", "#bcbd22"]
BODY_IN = 5.4


# ---- runs: ours and the peer's, from one or two files ----------------------------------------

def is_peer(run):
    return common.role(run) == "peer"


def peer_device(results):
    """'NVIDIA H100 80GB HBM3' of the peer's results file (merged by common), '' when not known."""
    return next(iter(results.get("peer_devices") or []), "")


def n_of(run):
    return common.number((run.get("data") or {}).get("n")) or common.number(common.param(run, "n"))


def pair_mode(runs):
    return [r for r in runs if common.param(r, "mode", "pair") == "pair"]


def by_n(runs):
    """{N: run}: the fastest correct timed run at each N (else the first)."""
    out = {}
    for run in runs:
        n, old = n_of(run), out.get(n_of(run))
        if n is None:
            continue
        if old is None or (seconds(run) and (not seconds(old) or seconds(run) < seconds(old))):
            out[n] = run
    return out


def seconds(run):
    ms = common.median_ms(run)
    return ms / 1000 if ms and run.get("status") == "passed" else None


def best_gpu(runs, precision="fp64"):
    """{N: our fastest correct GPU step of that precision}."""
    return by_n([r for r in runs if r.get("backend") == "gpu" and not is_peer(r)
                 and r.get("precision") == precision and seconds(r)])


def variant_runs(runs, name):
    return by_n([r for r in runs if r.get("variant") == name])


# ---- the paper's numbers ---------------------------------------------------------------------

def paper_rows():
    cols = NOTES["table3"]["columns"]
    return [dict(zip(cols, row)) for row in NOTES["table3"]["rows"]]


def paper_mismatch(runs):
    """Why the paper's numbers do not apply ('' when they do): R^1, nu = lambda = 1, p = 2."""
    for run in runs:
        data = run.get("data") or {}
        for key, value in NOTES["data"].items():
            have = common.number(data.get(key))
            if have is not None and have != value:
                return f"these runs have {key}={have:g}, the paper {value}"
    return ""


# ---- drawing ---------------------------------------------------------------------------------

def line(ax, points, label, colour, **style):
    """A line through {N: value}; returns the values drawn."""
    xs = sorted(x for x, y in points.items() if y)
    if xs:
        ax.plot(xs, [points[x] for x in xs], label=label, color=colour, zorder=3,
                **{"marker": "o", "markersize": 5, "linewidth": 1.6, **style})
    return [points[x] for x in xs]


def pow2_x(ax, xs, text):
    """x on a log2 axis, a tick at each N labelled 2^k."""
    common.log2_x(ax, xs, text)
    ax.xaxis.set_major_formatter(common.FuncFormatter(
        lambda v, _p: f"$2^{{{round(math.log2(v))}}}$" if v > 0 else ""))


def finish_axis(ax, xs, values, ylabel, xlabel="N = nA = nB, log2 scale"):
    if xs:
        pow2_x(ax, xs, xlabel)
    else:
        ax.set_xticks([])
    common.log_y(ax, values, ylabel, pad=1.6)
    if values:
        ax.legend(loc="upper left", fontsize=7.5, framealpha=0.85)


def name_points(ax, best):
    """Which step is the best, above its marker where the best step changes."""
    previous = None
    for n in sorted(best):
        name = best[n].get("variant", "?")
        if name != previous:
            ax.annotate(name, (n, seconds(best[n])), xytext=(0, 8), textcoords="offset points",
                        ha="center", va="bottom", fontsize=7.5, color=OURS["best"])
        previous = name


def peer_lines(ax, runs, key=seconds, suffix=""):
    """cuTWED measured here, FP64 solid and FP32 dashed; returns the values drawn."""
    values = []
    for precision, style in (("fp64", "-"), ("fp32", "--")):
        at = by_n([r for r in runs if is_peer(r) and r.get("precision") == precision])
        values += line(ax, {n: key(r) for n, r in at.items()},
                       f"cuTWED here ({precision.upper()}){suffix}", PEER, linestyle=style,
                       marker="D" if precision == "fp64" else "d")
    return values


def fig9a(ax, runs, paper):
    """Wall time against N."""
    best = best_gpu(runs)
    values = []
    for name, label, colour in (("seq_full", "ours: sequential full matrix (seq_full)",
                                 OURS["baseline"]),
                                ("itwed", "ours: itwed (a launch per diagonal)", OURS["itwed"])):
        values += line(ax, {n: seconds(r) for n, r in variant_runs(runs, name).items()}, label,
                       colour)
    values += line(ax, {n: seconds(r) for n, r in best.items()}, "ours: best FP64 GPU step",
                   OURS["best"], linewidth=2.4)
    name_points(ax, best)
    values += peer_lines(ax, runs)
    for key, label, style in (("cutwed_s", "paper: cuTWED (P100)", "--"),
                              ("twed_c_s", "paper: twed.c (Xeon E5-2680v4)", ":")):
        values += line(ax, {r["N"]: r[key] for r in paper}, label, PAPER, linestyle=style,
                       marker="s", markersize=4)
    xs = sorted({n_of(r) for r in runs if n_of(r)} | {r["N"] for r in paper})
    finish_axis(ax, xs, values, "median wall time [s], log scale")
    ax.set_title("(a) one pair: wall time against N", fontsize=10)


def fig9b(ax, runs, paper):
    """Speedup over the sequential reference: ours, cuTWED here, the paper's."""
    seq = {n: seconds(r) for n, r in variant_runs(runs, "seq_full").items() if seconds(r)}
    best = best_gpu(runs)
    ours = {n: seq[n] / seconds(r) for n, r in best.items() if n in seq}
    values = line(ax, ours, "ours: seq_full / best FP64 GPU step", OURS["best"], linewidth=2.4)
    peer = by_n([r for r in runs if is_peer(r) and r.get("precision") == "fp64"])
    values += line(ax, {n: seq[n] / seconds(r) for n, r in peer.items() if n in seq and seconds(r)},
                   "cuTWED here: seq_full / cuTWED (FP64)", PEER, marker="D")
    values += line(ax, {r["N"]: r["speedup"] for r in paper if r["speedup"]},
                   "paper: twed.c / cuTWED (P100)", PAPER, linestyle="--", marker="s")
    xs = sorted(set(ours) | {r["N"] for r in paper if r["speedup"]} | set(seq))
    finish_axis(ax, xs, values, "speedup over the sequential reference, log scale")
    ax.set_title("(b) speedup over the sequential reference", fontsize=10)


def fig10(ax, runs, paper):
    """Sweep 'large': each of our GPU variants, cuTWED here, the paper's cuTWED."""
    large = [r for r in runs if r.get("sweep") == LARGE]
    names = list(dict.fromkeys(r.get("variant") for r in large if not is_peer(r)))
    values = []
    for i, name in enumerate(names):
        at = variant_runs(large, name)
        values += line(ax, {n: seconds(r) for n, r in at.items()}, f"ours: {name}",
                       LINE_COLOURS[i % len(LINE_COLOURS)],
                       linestyle="--" if name.endswith("_fp32") else "-")
    values += peer_lines(ax, large)
    xs = sorted({n_of(r) for r in large if n_of(r)})
    values += line(ax, {r["N"]: r["cutwed_s"] for r in paper if r["N"] in xs},
                   "paper: cuTWED (P100)", PAPER, linestyle="--", marker="s")
    finish_axis(ax, xs, values, "median wall time [s], log scale")
    ax.set_title(f"(c) large N (sweep '{LARGE}')" if large else
                 f"(c) large N: no run of sweep '{LARGE}' here", fontsize=10)


def footnotes(results, runs, mismatch):
    """Sources, what was left out and why, and how cuTWED was timed."""
    notes = [f"{NOTES['label']}: {NOTES['source']}" if not mismatch
             else f"paper numbers not shown: {mismatch}."]
    shown = ("seq_full", "itwed")
    missing = [(f"{r.get('variant')} N={n_of(r):.0f}", common.status_text(r, 70))
               for r in runs if (r.get("variant") in shown or is_peer(r)) and not seconds(r)
               and n_of(r)]
    notes += common.missing_footnotes(missing, len(runs))
    device = peer_device(results)
    if any(is_peer(r) for r in runs):
        notes.append("cuTWED here: peers/cutwed.py" + (f" on {device}" if device else "")
                     + ", wall clock around each call (its allocations and launches included).")
    notes.append("best FP64 GPU step: the fastest correct FP64 GPU run of ours at each N, named "
                 "where it changes; speedup: the sequential time over the GPU time at the same N.")
    return notes


def figure(results, _study, point, runs):
    """Fig. 9a, 9b and 10 for one point; returned, not saved."""
    runs = pair_mode(runs)
    mismatch = paper_mismatch(runs)
    paper = [] if mismatch else paper_rows()
    small = [r for r in runs if r.get("sweep") != LARGE]
    top = max((n_of(r) for r in small if n_of(r)), default=0)
    fig, margins = common.page(results, f"TWED vs cuTWED's paper: {common.point_title(point)}",
                               BODY_IN, footnotes(results, runs, mismatch), width=19.0)
    axes = [fig.add_subplot(1, 3, k) for k in (1, 2, 3)]
    fig9a(axes[0], small, [r for r in paper if r["N"] <= top or (not top and r["twed_c_s"])])
    fig9b(axes[1], small, [r for r in paper if r["N"] <= top or not top])
    fig10(axes[2], runs, paper)
    common.layout(fig, margins)
    return fig


def draw(results, runs, out_dir):
    """One figure per TWED point (n left out) with single-pair runs; returns the paths."""
    runs = [r for r in runs if r.get("study") == "twed"]
    return common.each_point(results, runs, out_dir, "paper", figure, study="twed",
                             leave_out=("n",), enough=lambda group: bool(pair_mode(group)))


if __name__ == "__main__":
    sys.exit(common.main({"twed_paper": draw}))

"""cuTWED's Table 2 (Wright 2020: the validation sets; numbers in data/twed_notes.json) as a
table figure, `twed_table2.png` per results file: for each validation set the paper's twed.c
and cuTWED seconds and speedup beside ours (sequential seconds when run, our best FP64 GPU step
and its seconds, our speedup), cuTWED measured on this GPU and how many times faster ours is.
A row per point of the set's sweep (batch and triangle modes are separate rows). README.md says
more.

cuTWED measured here comes from the peer's results file (peers/cutwed.py): give it with ours,
`draw_all.py ours.json peer.json`; runs of a file whose twed runs are all peers are kept and
drawn with the other file of the same config.

Usage: python3 plots/twed_table2.py RESULTS.json [PEER.json] [--out-dir DIR] [--figures ...]
"""
import json
import sys
from pathlib import Path

import common

NOTES = json.loads((Path(__file__).resolve().parent / "data" / "twed_notes.json").read_text())
COLUMNS = ["validation set", "our point", "paper\ntwed.c", "paper\ncuTWED", "paper\nspeedup",
           "ours:\nsequential", "ours: best FP64\nGPU step", "ours:\nspeedup",
           "cuTWED\nhere (FP64)", "cuTWED here /\nours"]
WIDTHS = [0.15, 0.13, 0.07, 0.07, 0.07, 0.08, 0.15, 0.07, 0.1, 0.09]
SHADES = {"paper": "#ececec", "ours": "#e3f1e7", "peer": "#fbe6d5", "head": "#d9d9d9"}
ROW_IN, HEAD_IN = 0.42, 0.55


# ---- runs: ours and the peer's, from one or two files ----------------------------------------

def is_peer(run):
    return common.role(run) == "peer"


def seconds(run):
    """The median in seconds of a correct timed run, else None."""
    ms = common.median_ms(run) if run else None
    return ms / 1000 if ms and run.get("status") == "passed" else None


def points_of(runs, sweep):
    """{point string: runs} of one sweep, in the order they appear."""
    out = {}
    for run in runs:
        if run.get("sweep") == sweep:
            out.setdefault(run.get("point", ""), []).append(run)
    return out


def fastest(runs):
    timed = [r for r in runs if seconds(r)]
    return min(timed, key=seconds) if timed else None


# ---- cells -----------------------------------------------------------------------------------

def secs(value):
    """'22 s', '0.200 s', '1.2 ms', '-' ."""
    return "-" if value is None else common.format_time(value * 1000)


def times(value):
    return "-" if value is None else f"{value:.{2 if value < 10 else 1 if value < 100 else 0}f}x"


def untimed(run, what):
    """What stands for a run that gave no time: its status, or that it was not run."""
    if run is None:
        return f"{what} not run"
    return common.status_text(run, 28)


def point_text(runs):
    """'batch 600x600, n=60' from the runs' params and data facts."""
    run = next((r for r in runs if r.get("data")), runs[0])
    data = run.get("data") or {}
    size = "x".join(f"{common.number(data.get(k)):.0f}" for k in ("a_series", "b_series")
                    if common.number(data.get(k)) is not None)
    n = common.number(data.get("n"))
    return " ".join(p for p in (common.param(run, "mode", ""), size,
                                f"n={n:.0f}" if n else "") if p)


def mismatch(entry, runs):
    """Where our point differs from the paper's set ('' when it does not)."""
    run = next((r for r in runs if r.get("data")), None)
    if run is None:
        return ""
    data = run["data"]
    off = [f"{k}={common.number(data.get(k)):.0f}" for k, v in entry["data"].items()
           if common.number(data.get(k)) not in (None, v)]
    return ", ".join(off)


def our_cells(runs):
    """sequential, best FP64 GPU step, speedup, cuTWED here, cuTWED / ours."""
    seq = next((r for r in runs if r.get("variant") == "seq_full"), None)
    best = fastest([r for r in runs if r.get("backend") == "gpu" and not is_peer(r)
                    and r.get("precision") == "fp64"])
    peer = next((r for r in runs if is_peer(r) and r.get("precision") == "fp64"), None)
    s, b, p = seconds(seq), seconds(best), seconds(peer)
    return [secs(s) if s else untimed(seq, "seq_full"),
            f"{best.get('variant')}: {secs(b)}" if best else "no timed FP64 GPU step",
            times(s / b) if s and b else "-",
            secs(p) if p else untimed(peer, "cuTWED"),
            times(p / b) if p and b else "-"]


def paper_cells(entry):
    cutwed = entry.get("cutwed_text") or secs(entry["cutwed_s"])
    return [secs(entry["twed_c_s"]), cutwed, times(entry["speedup"])]


def rows(runs):
    """(cells, our runs) of every table row, and the footnotes the rows need."""
    table, notes = [], []
    for entry in NOTES["table2"]:
        name = f"{entry['name']}\n{entry['shape']}"
        groups = points_of(runs, entry["sweep"])
        if not groups:
            table.append([name, "not in this config", *paper_cells(entry)] + ["-"] * 5)
            continue
        for group in groups.values():
            off = mismatch(entry, group)
            if off:
                notes.append(f"{entry['name']}: our point has {off}, unlike the paper's set.")
            table.append([name, point_text(group) + (" *" if off else ""), *paper_cells(entry),
                          *our_cells(group)])
    return table, notes


# ---- the figure ------------------------------------------------------------------------------

def shade(table, ncols):
    """Header grey and bold; paper, ours and cuTWED columns tinted."""
    groups = ["head", "head", "paper", "paper", "paper", "ours", "ours", "ours", "peer", "peer"]
    for (row, col), cell in table.get_celld().items():
        cell.set_edgecolor("#bbbbbb")
        if row == 0:
            cell.set_facecolor(SHADES["head"])
            cell.set_text_props(fontweight="bold")
        elif col < ncols and groups[col] != "head":
            cell.set_facecolor(SHADES[groups[col]])


def only_peers_drawn(runs):
    """A peer file drawn alone has nothing of ours to put in the table."""
    return all(common.role(r) == "peer" for r in runs)


def figure(results, runs):
    """The table figure; returned, not saved."""
    table_rows, notes = rows(runs)
    peer_device = next(iter(results.get("peer_devices") or []), "")
    notes = [f"{NOTES['label']}: {NOTES['source']}", NOTES["table2_remarks"], *notes,
             "ours: seq_full (the sequential full-matrix reference) and the fastest correct FP64 "
             "GPU step; speedup = sequential / best GPU step; cuTWED here / ours = cuTWED's time "
             "over our best GPU step's (above 1: ours is faster).",
             "cuTWED here: peers/cutwed.py" + (f" on {peer_device}" if peer_device else "")
             + ", wall clock around each call; times are medians."]
    fig, margins = common.page(results, "TWED validation sets vs cuTWED's Table 2",
                               HEAD_IN + ROW_IN * len(table_rows), notes, width=17.0)
    ax = fig.add_subplot()
    ax.axis("off")
    table = ax.table(cellText=table_rows, colLabels=COLUMNS, colWidths=WIDTHS, loc="center",
                     cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(8.5)
    table.scale(1, 2.6)
    shade(table, len(COLUMNS))
    common.layout(fig, margins)
    return fig


def draw(results, runs, out_dir):
    """The table of one results file (with the peer's runs when seen); returns the paths."""
    runs = [r for r in runs if r.get("study") == "twed"]
    if not runs or only_peers_drawn(runs):
        return []
    return [common.save(figure(results, runs), out_dir, "twed_table2.png")]


if __name__ == "__main__":
    sys.exit(common.main({"twed_table2": draw}))

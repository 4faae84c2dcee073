"""Figure twed_table2: cuTWED's Table 2 (Wright 2020: the validation sets) beside ours and cuTWED
run here, a table per results file; plots/README.md says more."""
from .. import drawing, formats, pages, pools, selection

from .data import NOTES, point_text, points_of, set_mismatch, set_times

COLUMNS = ["validation set", "our point", "paper\ntwed.c", "paper\ncuTWED", "paper\nspeedup",
           "ours:\nsequential", "ours: best FP64\nGPU step", "ours:\nspeedup",
           "cuTWED\nhere (FP64)", "cuTWED here /\nours"]
WIDTHS = [0.15, 0.13, 0.07, 0.07, 0.07, 0.08, 0.15, 0.07, 0.1, 0.09]
GROUPS = ["", "", "paper", "paper", "paper", "ours", "ours", "ours", "peer", "versus"]
ROW_IN, HEAD_IN = 0.42, 0.55


def secs(value):
    """'22 s', '0.200 s', '1.2 ms', '-' ."""
    return "-" if value is None else formats.format_time(value * 1000)


def untimed(run, what):
    """What stands for a run that gave no time: its status, or that it was not run."""
    return f"{what} not run" if run is None else selection.status_text(run, 28)


def our_cells(runs):
    """sequential, best FP64 GPU step, speedup, cuTWED here, cuTWED / ours."""
    seq, best, peer = set_times(runs)
    s, b, p = (selection.seconds(r) for r in (seq, best, peer))
    return [secs(s) if s else untimed(seq, "seq_full"),
            f"{selection.step_label(best, best.variant)}: {secs(b)}" if best
            else "no timed FP64 GPU step",
            formats.times_text(s / b) if s and b else "-",
            secs(p) if p else untimed(peer, "cuTWED"),
            formats.times_text(p / b) if p and b else "-"]


def paper_cells(entry):
    cutwed = entry.get("cutwed_text") or secs(entry["cutwed_s"])
    return [secs(entry["twed_c_s"]), cutwed, formats.times_text(entry["speedup"])]


def rows(runs):
    """The cells of every table row, and the footnotes the rows need."""
    table, notes = [], []
    for entry in NOTES["table2"]:
        name = f"{entry['name']}\n{entry['shape']}"
        groups = points_of(runs, entry["sweep"])
        if not groups:
            table.append([name, "not in this config", *paper_cells(entry)] + ["-"] * 5)
            continue
        for group in groups.values():
            off = set_mismatch(entry, group)
            if off:
                notes.append(f"{entry['name']}: our point has {off}, unlike the paper's set.")
            table.append([name, point_text(group) + (" *" if off else ""), *paper_cells(entry),
                          *our_cells(group)])
    return table, notes


def tint(_row, col, cell):
    """The paper's, our and cuTWED's columns tinted in neutral shades; 'cuTWED here / ours'
    green where ours is faster, red where slower (pages.versus_shade), else cuTWED's."""
    shade = (pages.versus_shade(cell.get_text().get_text()) or pages.SHADES["peer"]
             if GROUPS[col] == "versus" else pages.SHADES.get(GROUPS[col]))
    if shade:
        cell.set_facecolor(shade)


def figure(results, runs):
    """The table figure; returned, not saved."""
    table_rows, notes = rows(runs)
    peer_device = pools.peer_device(results, runs)
    notes = [f"{NOTES['label']}: {NOTES['source']}", NOTES["table2_remarks"], *notes,
             "ours: seq_full (the sequential full-matrix reference) and the fastest correct FP64 "
             "GPU step; speedup = sequential / best GPU step; cuTWED here / ours = cuTWED's time "
             "over our best GPU step's (above 1, green: ours is faster; below 1, red: slower).",
             "cuTWED here: peers/twed/cutwed.py" + (f" on {peer_device}" if peer_device else "")
             + ", wall clock around each call; times are medians."]
    fig, margins = pages.page(results, "TWED validation sets vs cuTWED's Table 2",
                               HEAD_IN + ROW_IN * len(table_rows), notes, width=17.0)
    drawing.draw_table(fig.add_subplot(), COLUMNS, table_rows, WIDTHS, tint, row_scale=2.6)
    pages.layout(fig, margins)
    return fig


def draw(results, runs, out_dir):
    """The table of one results file (with the peer's runs when seen); returns the paths."""
    runs = [r for r in runs if r.study == "twed"]
    if all(r.is_peer for r in runs):  # a peer file alone: nothing of ours for the table
        return []
    return [pages.save(figure(results, runs), out_dir, "twed_table2.png")]


FIGURES = {"twed_table2": draw}

"""The EED study beside Kim, Na and Sim (2015; numbers in data/eed_paper.json), per results file:
`eed_fig5.png` (experiment 1: the preprocessing stage of 100 pairs against the length, per
method), `eed_fig6.png` (experiment 2: 100 pairs, the median total time of each step with its
compute stage dashed), `eed_fig7.png` (experiment 3: one pair), each with the paper's GTX 660
values at lengths 100 and 1000 as hollow markers beside ours, and `eed_tables.png` (the paper's
Tables 1-4 beside ours, the ratios sH/pH and sH/H, and the throughput of every step and peer at
10,000 pairs). README.md says more.

The runs come from the sweeps of configs/eed/paper.json, by label; a sweep or a step that is not
in the file is left out and a footnote (or, for a whole figure, a line on stderr) says so.
Peers (eed/peer_rapidfuzz, eed/peer_stringzilla_levenshtein) come from their own results file:
give it with ours, `draw_all.py ours.json peers.json`; common.merge_peers folds it in.

Usage: python3 plots/eed_paper.py RESULTS.json [PEERS.json] [--out-dir DIR] [--figures ...]
"""
import json
import sys
import textwrap
from pathlib import Path

import common

NOTES = json.loads((Path(__file__).resolve().parent / "data" / "eed_paper.json").read_text())
TABLES = {t["table"]: t for t in NOTES["tables"]}
TO_MS = {"ms": 1.0, "s": 1000.0}

# The sweeps of configs/eed/paper.json.
SERIAL, PAIRS_100, ONE_PAIR = "preprocessing_serial", "pairs_100", "one_pair"
THROUGHPUT, ALPHABET, LONG = "throughput", "alphabet", "long"

PAPER_STEPS = ("ph_cuda", "h_cuda", "sh_cuda")  # the paper's three methods, in its order
SHORT = {"ph_cuda": "pH", "h_cuda": "H", "sh_cuda": "sH"}
DEFAULT_PREP = {"ph_cuda": "forward", "h_cuda": "forward", "sh_cuda": "backward"}
# Colour and marker per step; markers o and D are the paper's (hollow).
STYLES = {"seq": ("#2f4f7f", "x"), "openmp": ("#4c72b0", "+"), "openmp_linear": ("#8fa8d6", "1"),
          "ph_cuda": ("#8c564b", "s"), "h_cuda": ("#9467bd", "^"), "sh_cuda": ("#2ca02c", "v"),
          "linear": ("#17becf", "P"), "warp_rows": ("#e377c2", "X"),
          "warp_offsets": ("#d62728", "8")}
SERIAL_STYLE = ("#bcbd22", "<")
PEER_STYLES = [("#d9773a", "*"), ("#a0522d", "h"), ("#f0a86c", "p")]
OTHER_STYLES = [("#7f7f7f", "d"), ("#393b79", ">"), ("#637939", "H")]
PAPER_MARKERS = {1: "o", 2: "o", 3: "o", 4: "D"}
BODY_IN = 5.6


# ---- runs ------------------------------------------------------------------------------------

def variant(run):
    """'ph_cuda' whether the file says 'ph_cuda' or 'eed/ph_cuda'."""
    return str(run.get("variant") or "?").rsplit("/", 1)[-1]


def prep(run):
    return common.param(run, "prep") or DEFAULT_PREP.get(variant(run))


def is_peer(run):
    return common.role(run) == "peer"


def n_of(run):
    return common.number(common.param(run, "n")) or common.number((run.get("data") or {}).get("n"))


def total_ms(run):
    """The median time, copies included (the run's timing.median)."""
    return common.median_ms(run) if run else None


def stage_ms(run, stage):
    """The median of one stage ('preprocess', 'compute'), or None."""
    stages = ((run or {}).get("timing") or {}).get("stage_medians") or {}
    value = common.number(stages.get(stage))
    return value if value and value > 0 else None


def in_sweep(runs, sweep):
    return [r for r in runs if r.get("sweep") == sweep]


def pick(runs, value):
    """Of runs at one point: the fastest correct one by `value`, else the fastest timed
    (incorrect), else the first (it says why it has no time); None for no runs."""
    timed = sorted((r for r in runs if value(r)), key=lambda r: (r.get("status") != "passed",
                                                                  value(r)))
    return timed[0] if timed else (runs[0] if runs else None)


def gcups(run):
    """The run's GCUPS, from its metric or from data.cells / median time."""
    value = common.metric_value(run)
    cells, ms = common.number((run.get("data") or {}).get("cells")), total_ms(run)
    return value or (cells / ms / 1e6 if cells and ms else None)


def run_name(run):
    """'6  sH_CUDA: shared memory'; a peer by its label, StringZilla's marked as Levenshtein."""
    if not is_peer(run):
        return common.row_name(run)
    text = common.label(run)
    if "stringzilla" in variant(run).lower() and "no swaps" not in text:
        text += (", no swaps" if "levenshtein" in text.lower() else ": Levenshtein, no swaps")
    return f"peer  {text}"


def lines_of(runs, value):
    """{line key: {n: run}} in step order (peers last): a line per variant, and per prep when a
    variant's runs here take more than one; at each n the run `pick` chooses."""
    preps = {}
    for run in runs:
        preps.setdefault(variant(run), set()).add(prep(run))
    groups = {}
    for run in sorted(runs, key=lambda r: (is_peer(r), r.get("step") or 0)):
        key = (variant(run), prep(run) if len(preps[variant(run)]) > 1 else None)
        if n_of(run):
            groups.setdefault(key, {}).setdefault(n_of(run), []).append(run)
    return {key: {n: pick(group, value) for n, group in at_n.items()}
            for key, at_n in groups.items()}


# ---- the paper's numbers ---------------------------------------------------------------------

def paper_ms(row):
    """{length: ms} of one paper row."""
    unit = TO_MS[next(t["unit"] for t in NOTES["tables"] if row in t["rows"])]
    return {n: v * unit for n, v in zip(NOTES["lengths"], row["values"]) if v is not None}


def paper_row(table, step, prep_=None):
    """The row of `table` for our step (and preprocessing, where the table has several)."""
    for row in TABLES[table]["rows"]:
        if row["variant"] == step and (prep_ is None or row.get("prep") in (None, prep_)):
            return row
    return None


def mismatch(runs, pairs):
    """Why the paper's numbers do not apply to these runs ('' when they do): unit costs, equal
    lengths, and the paper's number of pairs."""
    for run in runs:
        data = run.get("data") or {}
        for key, value in NOTES["data"].items():
            have = common.number(data.get(key))
            if have is not None and have != value:
                return f"these runs have {key}={have:g}, the paper {value}"
        n, m = common.number(data.get("n")), common.number(data.get("m"))
        spread = common.number(common.param(run, "spread")) or 0
        if (n is not None and m is not None and n != m) or spread:
            return "these runs' pairs are of unequal lengths, the paper's equal"
        have = common.number(data.get("pairs"))
        if have is not None and have != pairs:
            return f"these runs have {have:g} pairs, the paper {pairs}"
    return ""


# ---- the sweep figures -----------------------------------------------------------------------

def wrapped(notes, width_in):
    """Footnotes cut into lines that fit a page `width_in` inches wide."""
    return [line for note in notes for line in textwrap.wrap(note, int(width_in * 16))]


def paper_markers(ax, points, colour, marker, span):
    """The paper's values as hollow markers just right of ours; returns the values drawn."""
    xs = sorted(points)
    ax.plot([x + 0.018 * span for x in xs], [points[x] for x in xs], linestyle="none",
            marker=marker, markersize=9, markerfacecolor="none", markeredgecolor=colour,
            markeredgewidth=1.6, zorder=5)
    return [points[x] for x in xs]


def n_axis(ax, xs):
    """x = string length on a linear axis with a tick at each length."""
    ax.set_xticks(xs)
    ax.xaxis.set_major_formatter(common.FuncFormatter(lambda v, _p: f"{v:g}"))
    span = (max(xs) - min(xs)) or max(xs)
    ax.set_xlim(min(xs) - 0.06 * span, max(xs) + 0.08 * span)
    ax.set_xlabel("string length n = m (each of the pairs)")
    ax.grid(which="major", color="#e0e0e0", zorder=0)
    ax.set_axisbelow(True)


def why_not(run, max_chars=70):
    """Why a run has no value: its status, or that its timing lacks the stage."""
    if common.median_ms(run):
        return "timed, but its timing has no such stage"
    return common.status_text(run, max_chars)


def missing_notes(lines, names, value, total):
    """Footnotes for the points of `lines` with no value, grouped by reason."""
    missing = [(f"{names[key]} n={n:g}", why_not(run))
               for key, at_n in lines.items() for n, run in sorted(at_n.items())
               if not value(run)]
    return common.missing_footnotes(missing, total)


def styles_of(keys, lines):
    """{key: (colour, marker)}: by step (peers and unknown steps in turn); a key drawn only from
    the paper's numbers by its step."""
    out, peers, others = {}, 0, 0
    for key in keys:
        run = next(iter(lines.get(key, {}).values()), None)
        if key[1] == "serial":
            out[key] = SERIAL_STYLE
        elif run is not None and is_peer(run):
            out[key], peers = PEER_STYLES[peers % len(PEER_STYLES)], peers + 1
        elif key[0] in STYLES:
            out[key] = STYLES[key[0]]
        else:
            out[key], others = OTHER_STYLES[others % len(OTHER_STYLES)], others + 1
    return out


def sweep_figure(results, title, ylabel, lines, labels, series, paper, notes):
    """A time-against-length figure. lines: {key: {n: run}}; labels: {key: legend text} of
    every line and paper-only key; series: [(legend text, value of a run, line style)], the
    first for every line, the others for our GPU steps only (stages); paper: [(table,
    {key: {n: ms}})] as hollow markers in the line's colour. Returns the figure."""
    ns = sorted({n for at_n in lines.values() for n in at_n}
                | (set(NOTES["lengths"]) if paper else set()))
    span = ((max(ns) - min(ns)) or max(ns)) if ns else 1
    fig, margins = common.page(results, title, BODY_IN, wrapped(notes, 14.0), width=14.0)
    ax = fig.add_subplot()
    handles, values = [], []
    keys = list(dict.fromkeys(list(lines) + [k for _t, points in paper for k in points]))
    styles = styles_of(keys, lines)
    for key in keys:
        at_n, (colour, marker) = lines.get(key, {}), styles[key]
        run = next(iter(at_n.values()), None)
        cpu = run is not None and run.get("backend") == "cpu" and not is_peer(run)
        own = ":" if cpu else "-." if run is not None and is_peer(run) else "-"
        drawn = []
        for j, (_text, value, linestyle) in enumerate(series):
            if run is None or (j and (run.get("backend") != "gpu" or is_peer(run))):
                continue  # the stage series: our GPU steps only
            drawn += common.sweep_line(ax, ns, at_n, value, color=colour,
                                       linestyle=linestyle if j else own,
                                       linewidth=1.0 if (cpu or j) else 1.8, marker=marker,
                                       markersize=4 if j else 7)
        values += drawn
        for table, points in paper:
            if key in points:
                values += paper_markers(ax, points[key], colour, PAPER_MARKERS[table], span)
        text = labels[key] if drawn or not at_n else f"{labels[key]} (not timed)"
        handles.append(common.Line2D([], [], color=colour if drawn or not at_n else "#bbbbbb",
                                     marker=marker, linestyle=own, label=text))
    handles += [common.Line2D([], [], color="black", linestyle=ls, label=text)
                for text, _v, ls in series]
    if any(r.get("status") == "incorrect" and any(v(r) for _t, v, _l in series)
           for at_n in lines.values() for r in at_n.values()):
        handles.append(common.Line2D([], [], linestyle="none", marker="o", markersize=11,
                                     markerfacecolor="none", markeredgecolor=common.INCORRECT,
                                     label="INCORRECT (ringed)"))
    handles += [common.Line2D([], [], color="black", linestyle="none",
                              marker=PAPER_MARKERS[table], markerfacecolor="none", markersize=8,
                              label=f"{NOTES['label']} Table {table}: {TABLES[table]['title']}"
                                    "\n(hollow, just right of its n)")
                for table, _p in paper]
    if ns:
        n_axis(ax, ns)
    common.log_y(ax, values, ylabel)
    common.legend(ax, handles)
    common.layout(fig, margins)
    return fig


def labels_of(lines):
    """{key: '6  sH_CUDA: shared memory'}, with the preprocessing where the key has one."""
    return {key: run_name(next(iter(at_n.values()))) + (f", prep={key[1]}" if key[1] else "")
            for key, at_n in lines.items()}


def source_notes(why):
    if why:
        return [f"paper numbers not shown: {why}."]
    return [f"{NOTES['label']}: {NOTES['source']}",
            f"{NOTES['restored']} GPU {NOTES['device']}, CPU {NOTES['cpu']}.", NOTES["remarks"]]


def fig5(results, runs):
    """Experiment 1: the preprocessing stage of 100 pairs against n, per method."""
    value = lambda r: stage_ms(r, TABLES[1]["stage"])  # noqa: E731
    pool = [r for r in in_sweep(runs, SERIAL) + in_sweep(runs, PAIRS_100)
            if variant(r) in PAPER_STEPS and not is_peer(r)]
    if not pool:
        return None, f"no run of {', '.join(PAPER_STEPS)} in sweeps '{SERIAL}' or '{PAIRS_100}'"
    lines = {}  # by (step, preprocessing) always: the methods of Table 1
    for sweep in (PAIRS_100, SERIAL):
        for key, at_n in lines_of(in_sweep(pool, sweep), value).items():
            lines[(key[0], key[1] or prep(next(iter(at_n.values()))))] = at_n
    order = [(r["variant"], r["prep"]) for r in TABLES[1]["rows"]]
    lines = dict(sorted(lines.items(), key=lambda item: (
        order.index(item[0]) if item[0] in order else len(order), item[0])))
    labels = labels_of(lines)
    why = mismatch(pool, TABLES[1]["pairs"])
    paper = {} if why else {(r["variant"], r["prep"]): paper_ms(r) for r in TABLES[1]["rows"]}
    for row in TABLES[1]["rows"]:
        key = (row["variant"], row["prep"])
        if key in labels:
            labels[key] += f"  [{row['method']}]"
        elif key in paper:
            labels[key] = f"{row['method']}: not run here"
    notes = source_notes(why)
    if not in_sweep(runs, SERIAL):
        notes.append(f"pH_CUDA serial: no run of sweep '{SERIAL}' in this file (the paper's "
                     "values are shown alone).")
    notes += missing_notes(lines, labels, value, len(pool))
    notes.append("ours: the median 'preprocess' stage of 100 pairs; serial = a host pass per "
                 "pair and one copy, forward = device scans from the start, backward = device "
                 "scans back from A in shared memory.")
    fig = sweep_figure(results, "EED experiment 1: preprocessing (the table P) of 100 pairs, "
                       "vs Kim, Na and Sim (2015) Table 1", "preprocess stage [ms], log scale",
                       lines, labels, [("ours: preprocess stage (median)", value, "-")],
                       [(1, paper)] if paper else [], notes)
    return fig, ""


def pairs_figure(results, runs, sweep, table, title):
    """Experiments 2 and 3: the median total against n per step, the compute stage dashed."""
    pool = in_sweep(runs, sweep)
    if not any(not is_peer(r) for r in pool):
        return None, f"no run of ours in sweep '{sweep}'"
    lines = lines_of(pool, total_ms)
    labels = labels_of(lines)
    why = mismatch([r for r in pool if not is_peer(r)], TABLES[table]["pairs"])
    tables = [table] + ([4] if table == 2 else [])
    def key_of(step):  # a line per preprocessing when the sweep varies it: the default's
        return (step, DEFAULT_PREP[step]) if (step, DEFAULT_PREP[step]) in lines else (step, None)
    paper = [] if why else [(t, {key_of(r["variant"]): paper_ms(r) for r in TABLES[t]["rows"]})
                            for t in tables]
    for row in TABLES[table]["rows"]:
        labels.setdefault(key_of(row["variant"]), f"{row['method']}: not run here")
    notes = source_notes(why)
    absent = [s for s in PAPER_STEPS if not any(variant(r) == s for r in pool)]
    if absent:
        notes.append(f"not run in sweep '{sweep}': {', '.join(absent)} (the paper's values "
                     "are shown alone).")
    notes += missing_notes(lines, labels, total_ms, len(pool))
    notes.append("ours: the run's median time, the copies to and from the device included (as "
                 "the paper's); dashed: the median 'compute' stage of our GPU steps (the kernels "
                 "alone); CPU steps dotted, peers dash-dotted.")
    series = [("ours: median total, copies included", total_ms, "-"),
              ("ours: compute stage (kernels only)", lambda r: stage_ms(r, "compute"), "--")]
    return sweep_figure(results, title, "time [ms], log scale", lines, labels, series, paper,
                        notes), ""


# ---- the table figure ------------------------------------------------------------------------

def ms_text(ms):
    return "-" if ms is None else common.format_time(ms)


def times(value):
    return "-" if value is None else f"{value:.{2 if value < 10 else 1 if value < 100 else 0}f}x"


def ratio_text(value):
    return "-" if value is None else f"{value:.3g}"


def cell(run, value, where, untimed, text=None):
    """Our value in a table cell (`text` of it, default the time), or the run's status, its
    reason added to `untimed` as (where, why) for a footnote; '-' for no run."""
    if run is None:
        return "-"
    if not value(run):
        untimed.append((where, why_not(run, 110)))
        return "no stage" if common.median_ms(run) else run.get("status") or "no timing"
    shown = text(run) if text else ms_text(value(run))
    return shown + (" INCORRECT" if run.get("status") == "incorrect" else "")


def table_value(table):
    """Our value for one paper table: a stage median or the run's total."""
    stage = TABLES[table].get("stage")
    return (lambda r: stage_ms(r, stage)) if stage else total_ms


def ours_at(runs, row, n, value):
    group = [r for r in in_sweep(runs, row["sweep"]) if not is_peer(r)
             and variant(r) == row["variant"] and n_of(r) == n
             and (row.get("prep") is None or prep(r) == row["prep"])]
    return pick(group, value)


def paper_rows(runs):
    """(cells, section) of the paper table, and its footnotes."""
    table_rows, notes, lengths, untimed = [], [], NOTES["lengths"], []
    for t in NOTES["tables"]:
        value, unit = table_value(t["table"]), TO_MS[t["unit"]]
        ours_what = f"ours: '{t['stage']}' stage" if t.get("stage") else "ours: median total"
        head = f"Table {t['table']}: {t['title']}\n({ours_what})"
        got = {}
        for row in t["rows"]:
            cells = []
            for i, n in enumerate(lengths):
                run = ours_at(runs, row, n, value)
                paper = row["values"][i] * unit
                ours = value(run) if run and run.get("status") == "passed" else None
                got[(row["variant"], row.get("prep"), n)] = ours
                where = f"{row['method']} n={n} (Table {t['table']})"
                absent = ("not run" if in_sweep(runs, row["sweep"])
                          else f"no sweep '{row['sweep']}'")
                cells += [ms_text(paper), cell(run, value, where, untimed) if run else absent,
                          times(paper / ours) if ours else "-"]
            method = row["method"] + f"\n{row['variant']}" + (
                f", prep={row['prep']}" if row.get("prep") else "")
            table_rows.append(([head if not table_rows or table_rows[-1][2] != t["table"] else "",
                                method, *cells], "row", t["table"]))
        pool = [r for r in runs if r.get("sweep") in {row["sweep"] for row in t["rows"]}
                and not is_peer(r)]
        why = mismatch(pool, t["pairs"])
        if why:
            notes.append(f"Table {t['table']}: {why}.")
        for other in ("ph_cuda", "h_cuda"):
            num, den = paper_row(t["table"], "sh_cuda"), paper_row(t["table"], other,
                                                                    DEFAULT_PREP[other])
            cells = []
            for i, n in enumerate(lengths):
                p = num["values"][i] / den["values"][i]
                a = got.get((num["variant"], num.get("prep"), n))
                b = got.get((den["variant"], den.get("prep"), n))
                cells += [ratio_text(p), ratio_text(a / b if a and b else None), ""]
            table_rows.append((["", f"time ratio {SHORT['sh_cuda']} / {SHORT[other]}", *cells],
                               "ratio", t["table"]))
    notes += common.missing_footnotes(untimed, 0)
    return [(cells, kind) for cells, kind, _t in table_rows], notes


def throughput_rows(runs):
    """(header, rows, notes) of the throughput summary: every step and peer of the sweeps
    throughput, alphabet and long."""
    through, alpha, long_ = (in_sweep(runs, s) for s in (THROUGHPUT, ALPHABET, LONG))
    notes = [f"no run of sweep '{s}' in this file." for s, got in
             ((THROUGHPUT, through), (ALPHABET, alpha), (LONG, long_)) if not got]
    alphabets = sorted({common.number(common.param(r, "alphabet")) for r in alpha} - {None})
    long_n = sorted({n_of(r) for r in long_ if n_of(r)})
    size = next(((common.number((r.get("data") or {}).get("pairs")), n_of(r)) for r in through),
                (10000, 1000))
    header = ["step", f"{size[0]:,.0f} pairs of {size[1]:,.0f}:\nmedian time", "GCUPS",
              "% of int32\nlimit", *[f"alphabet {a:g}:\nGCUPS" for a in alphabets],
              *[f"one pair of {n:,.0f}:\nmedian time, GCUPS" for n in long_n]]
    every = sorted({variant(r): r for r in through + alpha + long_}.values(),
                   key=lambda r: (is_peer(r), r.get("step") or 0))
    rows, untimed = [], []
    rate = lambda r: f"{common.format_value(gcups(r))}" if gcups(r) else "-"  # noqa: E731
    for first in every:
        mine = lambda pool: [r for r in pool if variant(r) == variant(first)]  # noqa: E731
        name = common.label(first)
        run = pick(mine(through), total_ms)
        pct = common.number(((run or {}).get("metrics") or {}).get("pct_of_peak"))
        cells = [run_name(first), cell(run, total_ms, name, untimed),
                 rate(run) if run else "-",
                 f"{pct:.1f}%" if pct is not None and run and gcups(run) else "-"]
        for a in alphabets:
            at = pick([r for r in mine(alpha)
                       if common.number(common.param(r, "alphabet")) == a], total_ms)
            cells.append(cell(at, gcups, f"{name} alphabet {a:g}", untimed, rate))
        for n in long_n:
            at = pick([r for r in mine(long_) if n_of(r) == n], total_ms)
            cells.append(cell(at, total_ms, f"{name} n={n:g}", untimed,
                              lambda r: f"{ms_text(total_ms(r))}, {rate(r)} GCUPS"))
        rows.append(cells)
    notes += common.missing_footnotes(untimed, 0)
    return header, rows, notes


SHADES = {"paper": "#ececec", "ours": "#e3f1e7", "ratio": "#f5f5f5", "head": "#d9d9d9",
          "peer": "#fbe6d5"}
ROW_IN, HEAD_IN, GAP_IN = 0.36, 0.5, 0.55
PAPER_COLUMNS = ["paper table (what of ours)", "method (our step)", "paper\nn = 100",
                 "ours\nn = 100", "GTX 660 /\nours", "paper\nn = 1000", "ours\nn = 1000",
                 "GTX 660 /\nours"]
PAPER_WIDTHS = [0.2, 0.16, 0.08, 0.14, 0.07, 0.08, 0.14, 0.07]


def draw_table(ax, header, rows, widths, tint):
    """common.draw_table with tint(row, col) -> face colour or None."""
    def style(row, col, cell):
        if tint(row, col):
            cell.set_facecolor(tint(row, col))
    return common.draw_table(ax, header, rows, widths, style)


def tables_figure(results, runs):
    paper, notes = paper_rows(runs)
    header, through, t_notes = throughput_rows(runs)
    peers = [r for r in runs if is_peer(r)]
    device = next(iter(results.get("peer_devices") or []), "")
    notes = ([f"{NOTES['label']}: {NOTES['source']}", NOTES["restored"], NOTES["remarks"]]
             + notes + t_notes
             + ["GTX 660 / ours: the paper's time over ours (above 1: faster here); time ratio: "
                "sH_CUDA's time over pH_CUDA's or H_CUDA's (below 1: sH is faster); our "
                "values are medians, the run's status where there is none.",
                "throughput: the median time with copies; GCUPS = len A x len B per pair / "
                "median time; % of the int32 limit from the run's metrics."]
             + ([f"peers: from their results file{f' on {device}' if device else ''}; "
                 "StringZilla's distance is Levenshtein (no swaps), not EED."] if peers else []))
    paper_in = HEAD_IN + ROW_IN * 1.35 * len(paper)
    through_in = HEAD_IN + ROW_IN * 1.25 * max(len(through), 1)
    fig, margins = common.page(results, "EED vs Kim, Na and Sim (2015): Tables 1-4 and "
                               "throughput", paper_in + GAP_IN + through_in,
                               wrapped(notes, 16.0), width=16.0)
    height = fig.get_figheight()
    top = 1 - margins[0] / height
    ax = fig.add_axes([0.02, top - paper_in / height, 0.96, paper_in / height])
    kinds = [k for _c, k in paper]

    def tint(row, col):
        if kinds[row] == "ratio":
            return SHADES["ratio"]
        return (SHADES["paper"] if col in (2, 5) else SHADES["ours"] if col in (3, 6)
                else None)
    draw_table(ax, PAPER_COLUMNS, [c for c, _k in paper], PAPER_WIDTHS, tint)
    bottom = top - (paper_in + GAP_IN) / height
    ax2 = fig.add_axes([0.02, bottom - through_in / height, 0.96, through_in / height])
    ax2.set_title("Throughput (sweeps 'throughput', 'alphabet', 'long')", fontsize=10,
                  loc="left")
    if through:
        ncols = len(header)
        widths = [0.26] + [min(0.7 / (ncols - 1), 0.13)] * (ncols - 1)
        peer_rows = [r[0].startswith("peer") for r in through]
        draw_table(ax2, header, through, widths,
                   lambda row, col: SHADES["peer"] if peer_rows[row] else None)
    else:
        ax2.axis("off")
        ax2.text(0.0, 0.5, "no run of the throughput sweeps in this file", style="italic",
                 color=common.MUTED, transform=ax2.transAxes)
    return fig


# ---- entry -----------------------------------------------------------------------------------

def draw(results, runs, out_dir):
    """eed_fig5, eed_fig6, eed_fig7 and eed_tables of one results file (with its peers' runs
    when given); a figure without data is skipped with a line on stderr. Returns the paths."""
    runs = [r for r in runs if r.get("study") == "eed"]
    if not runs or all(is_peer(r) for r in runs):
        return []
    written = []
    for name, make in (
            ("fig5", lambda: fig5(results, runs)),
            ("fig6", lambda: pairs_figure(results, runs, PAIRS_100, 2,
                                          "EED experiment 2: 100 pairs, vs Kim, Na and Sim "
                                          "(2015) Tables 2 and 4")),
            ("fig7", lambda: pairs_figure(results, runs, ONE_PAIR, 3,
                                          "EED experiment 3: one pair, vs Kim, Na and Sim "
                                          "(2015) Table 3"))):
        fig, why = make()
        if fig is None:
            common.warn(f"eed_{name} not drawn: {why}")
        else:
            written.append(common.save(fig, out_dir, f"eed_{name}.png"))
    written.append(common.save(tables_figure(results, runs), out_dir, "eed_tables.png"))
    return written


if __name__ == "__main__":
    sys.exit(common.main({"eed_paper": draw}))

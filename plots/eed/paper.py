"""Figure eed_paper: the EED study beside Kim, Na and Sim (2015), per results file: its
experiments 1-3 against the length (eed_fig5-7) and its Tables 1-4 with our throughput
(eed_tables); plots/README.md says more."""
from .. import drawing, pages, pools, selection

from .data import (ALPHABET, DEFAULT_PREP, LONG, NOTES, ONE_PAIR, PAIRS_100, PAPER_COLUMNS,
                   PAPER_STEPS, SERIAL, TABLES, THROUGHPUT, in_sweep, lines_of, mismatch,
                   paper_ms, paper_rows, prep, run_name, stage_ms, table_value,
                   throughput_rows, total_ms, why_not)

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


# ---- the sweep figures -----------------------------------------------------------------------

def paper_markers(ax, points, colour, marker, span):
    """The paper's values as hollow markers just right of ours; returns the values drawn."""
    xs = sorted(points)
    ax.plot([x + 0.018 * span for x in xs], [points[x] for x in xs], linestyle="none",
            marker=marker, markersize=9, markerfacecolor="none", markeredgecolor=colour,
            markeredgewidth=1.6, zorder=5)
    return [points[x] for x in xs]


def missing_notes(lines, names, value, total):
    """Footnotes for the points of `lines` with no value, grouped by reason."""
    missing = [(f"{names[key]} n={n:g}", why_not(run))
               for key, at_n in lines.items() for n, run in sorted(at_n.items())
               if not value(run)]
    return selection.missing_footnotes(missing, total)


def styles_of(keys, lines):
    """{key: (colour, marker)}: by step (peers and unknown steps in turn); a key drawn only from
    the paper's numbers by its step."""
    out, peers, others = {}, 0, 0
    for key in keys:
        run = next(iter(lines.get(key, {}).values()), None)
        if key[1] == "serial":
            out[key] = SERIAL_STYLE
        elif run is not None and run.is_peer:
            out[key], peers = PEER_STYLES[peers % len(PEER_STYLES)], peers + 1
        elif key[0] in STYLES:
            out[key] = STYLES[key[0]]
        else:
            out[key], others = OTHER_STYLES[others % len(OTHER_STYLES)], others + 1
    return out


def sweep_figure(results, title, ylabel, lines, labels, series, paper, notes):
    """A time-against-length figure. lines: {key: {n: run}}; labels: {key: legend text};
    series: [(legend text, value of a run, line style, its span or None)], all but the first
    (stages) for our GPU steps only, span (selection.time_span) drawing each point's interval
    (the axis says which); paper: [(table, {key: {n: ms}})], hollow markers in the line's colour."""
    ns = sorted({n for at_n in lines.values() for n in at_n}
                | (set(NOTES["lengths"]) if paper else set()))
    span = ((max(ns) - min(ns)) or max(ns)) if ns else 1
    fig, margins = pages.page(results, title, BODY_IN, pages.wrapped(notes, 14.0), width=14.0)
    ax = fig.add_subplot()
    handles, values = [], []
    keys = list(dict.fromkeys(list(lines) + [k for _t, points in paper for k in points]))
    styles = styles_of(keys, lines)
    for key in keys:
        at_n, (colour, marker) = lines.get(key, {}), styles[key]
        run = next(iter(at_n.values()), None)
        cpu = run is not None and run.backend == "cpu" and not run.is_peer
        own = ":" if cpu else "-." if run is not None and run.is_peer else "-"
        drawn = []
        for j, (_text, value, linestyle, ranges) in enumerate(series):
            if run is None or (j and (run.backend != "gpu" or run.is_peer)):
                continue  # the stage series: our GPU steps only
            drawn += drawing.sweep_line(ax, ns, at_n, value, span=ranges, color=colour,
                                       linestyle=linestyle if j else own,
                                       linewidth=1.0 if (cpu or j) else 1.8, marker=marker,
                                       markersize=4 if j else 7)
        values += drawn
        for table, points in paper:
            if key in points:
                values += paper_markers(ax, points[key], colour, PAPER_MARKERS[table], span)
        handles.append(pages.line_handle(labels[key], colour, drawn or not at_n,
                                          marker=marker, linestyle=own))
    handles += [pages.Line2D([], [], color="black", linestyle=ls, label=text)
                for text, _v, ls, _s in series]
    if any(r.status == "incorrect" and any(v(r) for _t, v, _l, _s in series)
           for at_n in lines.values() for r in at_n.values()):
        handles.append(pages.Line2D([], [], linestyle="none", marker="o", markersize=11,
                                     markerfacecolor="none", markeredgecolor=pages.INCORRECT,
                                     label="INCORRECT (ringed)"))
    handles += [pages.Line2D([], [], color="black", linestyle="none",
                              marker=PAPER_MARKERS[table], markerfacecolor="none", markersize=8,
                              label=f"{NOTES['label']} Table {table}: {TABLES[table]['title']}"
                                    "\n(hollow, just right of its n)")
                for table, _p in paper]
    if ns:
        drawing.linear_x(ax, ns, "string length n = m (each of the pairs)", max(ns), right=0.08)
    drawing.log_y(ax, values, ylabel)
    pages.legend(ax, handles)
    pages.layout(fig, margins)
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
    value = table_value(1)
    pool = [r for r in in_sweep(runs, SERIAL) + in_sweep(runs, PAIRS_100)
            if selection.short_variant(r) in PAPER_STEPS and not r.is_peer]
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
                 "scans back from A in shared memory. No error bars: a results file keeps a "
                 "stage's median alone, not its samples.")
    fig = sweep_figure(results, "EED experiment 1: preprocessing (the table P) of 100 pairs, "
                       "vs Kim, Na and Sim (2015) Table 1", "preprocess stage [ms], log scale",
                       lines, labels, [("ours: preprocess stage (median)", value, "-", None)],
                       [(1, paper)] if paper else [], notes)
    return fig, ""


def pairs_figure(results, runs, sweep, table, title):
    """Experiments 2 and 3: the median total against n per step, the compute stage dashed."""
    pool = in_sweep(runs, sweep)
    if all(r.is_peer for r in pool):
        return None, f"no run of ours in sweep '{sweep}'"
    lines = lines_of(pool, total_ms)
    labels = labels_of(lines)
    why = mismatch([r for r in pool if not r.is_peer], TABLES[table]["pairs"])
    tables = [table] + ([4] if table == 2 else [])
    def key_of(step):  # a line per preprocessing when the sweep varies it: the default's
        return (step, DEFAULT_PREP[step]) if (step, DEFAULT_PREP[step]) in lines else (step, None)
    paper = [] if why else [(t, {key_of(r["variant"]): paper_ms(r) for r in TABLES[t]["rows"]})
                            for t in tables]
    for row in TABLES[table]["rows"]:
        labels.setdefault(key_of(row["variant"]), f"{row['method']}: not run here")
    notes = source_notes(why)
    absent = [s for s in PAPER_STEPS if not any(selection.short_variant(r) == s for r in pool)]
    if absent:
        notes.append(f"not run in sweep '{sweep}': {', '.join(absent)} (the paper's values "
                     "are shown alone).")
    notes += missing_notes(lines, labels, total_ms, len(pool))
    notes.append("ours: the run's median time, the copies to and from the device included (as "
                 "the paper's), with its interval (the axis says which); dashed: the median "
                 "'compute' stage of our GPU steps (the kernels alone; no error bars: a results "
                 "file keeps a stage's median alone); CPU steps dotted, peers dash-dotted.")
    series = [("ours: median total, copies included", total_ms, "-", selection.time_span(total_ms)),
              ("ours: compute stage (kernels only)", lambda r: stage_ms(r, "compute"), "--",
               None)]
    return sweep_figure(results, title, "time [ms], log scale", lines, labels, series, paper,
                        notes), ""


# ---- the table figure ------------------------------------------------------------------------

SHADES = pages.SHADES
ROW_IN, HEAD_IN, GAP_IN = 0.36, 0.5, 0.55
PAPER_WIDTHS = [0.2, 0.16, 0.08, 0.14, 0.07, 0.08, 0.14, 0.07]
VERSUS = (4, 7)  # the columns 'GTX 660 / ours': shaded by which is faster


def tables_figure(results, runs):
    """Tables 1-4 beside ours and, where this file has runs of the throughput sweeps, our
    throughput; without them no throughput table (a footnote says so)."""
    paper, notes = paper_rows(runs)
    header, through, t_notes = throughput_rows(runs)
    peers = [r for r in runs if r.is_peer]
    device = pools.peer_device(results, runs)
    notes = ([f"{NOTES['label']}: {NOTES['source']}", NOTES["restored"], NOTES["remarks"]]
             + notes
             + (t_notes if through else [f"no throughput table: no run of the sweeps "
                                         f"'{THROUGHPUT}', '{ALPHABET}' or '{LONG}' in this file."])
             + ["GTX 660 / ours: the paper's time over ours (above 1, green: faster here; below "
                "1, red: slower here); time ratio: sH_CUDA's time over pH_CUDA's or H_CUDA's "
                "(below 1: sH is faster); our values are medians, the run's status where there "
                "is none."]
             + (["throughput: the median time with copies; GCUPS = len A x len B per pair / "
                 "median time; % of the limit from the run's metrics: the int32 pipes', or the host "
                 "link's bandwidth where it binds (named)."] if through else [])
             + ([f"peers: from their results file{f' on {device}' if device else ''}; "
                 "StringZilla's distance is Levenshtein (no swaps), not EED."] if peers else []))
    paper_in = HEAD_IN + ROW_IN * 1.35 * len(paper)
    through_in = GAP_IN + HEAD_IN + ROW_IN * 1.25 * len(through) if through else 0.0
    fig, margins = pages.page(results, "EED vs Kim, Na and Sim (2015): Tables 1-4"
                               + (" and throughput" if through else ""), paper_in + through_in,
                               pages.wrapped(notes, 16.0), width=16.0)
    height = fig.get_figheight()
    top = 1 - margins[0] / height
    ax = fig.add_axes([0.02, top - paper_in / height, 0.96, paper_in / height])
    kinds = [k for _c, k in paper]
    cells = [c for c, _k in paper]

    def tint(row, col, cell):
        shade = (SHADES["ratio"] if kinds[row] == "ratio" else SHADES["paper"] if col in (2, 5)
                 else SHADES["ours"] if col in (3, 6)
                 else pages.versus_shade(cells[row][col]) if col in VERSUS else None)
        if shade:
            cell.set_facecolor(shade)
    drawing.draw_table(ax, PAPER_COLUMNS, cells, PAPER_WIDTHS, tint)
    if through:
        bottom = top - (paper_in + GAP_IN) / height
        ax2 = fig.add_axes([0.02, bottom - (through_in - GAP_IN) / height, 0.96,
                            (through_in - GAP_IN) / height])
        ax2.set_title(f"Throughput (sweeps '{THROUGHPUT}', '{ALPHABET}', '{LONG}')", fontsize=10,
                      loc="left")
        ncols = len(header)
        widths = [0.26] + [min(0.7 / (ncols - 1), 0.13)] * (ncols - 1)
        peer_rows = [r[0].startswith("peer") for r in through]
        drawing.draw_table(ax2, header, through, widths, lambda row, _col, cell: (
            cell.set_facecolor(SHADES["peer"]) if peer_rows[row] else None))
    return fig


def draw(results, runs, out_dir):
    """eed_fig5-7 and eed_tables of one results file (with its peers' runs, when given)."""
    runs = [r for r in runs if r.study == "eed"]
    if all(r.is_peer for r in runs):
        return []
    written = pages.save_or_say(fig5(results, runs), out_dir, "eed_fig5")
    for name, sweep, table, title in (
            ("fig6", PAIRS_100, 2, "EED experiment 2: 100 pairs, vs Kim, Na and Sim (2015) "
                                   "Tables 2 and 4"),
            ("fig7", ONE_PAIR, 3, "EED experiment 3: one pair, vs Kim, Na and Sim (2015) Table 3")):
        written += pages.save_or_say(pairs_figure(results, runs, sweep, table, title), out_dir,
                                      f"eed_{name}")
    return written + [pages.save(tables_figure(results, runs), out_dir, "eed_tables.png")]


FIGURES = {"eed_paper": draw}

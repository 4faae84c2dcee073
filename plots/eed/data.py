"""Kim, Na and Sim (2015; seed.json) and the runs of configs/eed/paper.json beside them, as both
the EED figures and the report read them: the paper's tables beside ours, the throughput, the
lines of the sweep figures."""
from .. import formats, selection, studies
from .. import results as ladder_results

NOTES = studies.seed(__file__)
TABLES = {t["table"]: t for t in NOTES["tables"]}
TO_MS = {"ms": 1.0, "s": 1000.0}

# The sweeps of configs/eed/paper.json.
SERIAL, PAIRS_100, ONE_PAIR = "preprocessing_serial", "pairs_100", "one_pair"
THROUGHPUT, ALPHABET, LONG = "throughput", "alphabet", "long"

PAPER_STEPS = ("ph_cuda", "h_cuda", "sh_cuda")  # the paper's three methods, in its order
SHORT = {"ph_cuda": "pH", "h_cuda": "H", "sh_cuda": "sH"}
DEFAULT_PREP = {"ph_cuda": "forward", "h_cuda": "forward", "sh_cuda": "backward"}
PAPER_COLUMNS = ["paper table (what of ours)", "method (our step)", "paper\nn = 100",
                 "ours\nn = 100", "GTX 660 /\nours", "paper\nn = 1000", "ours\nn = 1000",
                 "GTX 660 /\nours"]


# ---- runs ------------------------------------------------------------------------------------

def prep(run):
    return run.params.get("prep") or DEFAULT_PREP.get(selection.short_variant(run))


def n_of(run):
    return ladder_results.number(run.params.get("n")) or ladder_results.number(run.data.get("n"))


def total_ms(run):
    """The median time, copies included (the run's timing.median)."""
    return run.median_ms


def stage_ms(run, stage):
    """The median of one stage ('preprocess', 'compute'), or None."""
    value = ladder_results.number((run.timing.get("stage_medians") or {}).get(stage))
    return value if value and value > 0 else None


def in_sweep(runs, sweep):
    return [r for r in runs if r.sweep == sweep]


def gcups(run):
    """The run's GCUPS, from its metric or from data.cells / median time."""
    cells, ms = ladder_results.number(run.data.get("cells")), total_ms(run)
    return run.metric or (cells / ms / 1e6 if cells and ms else None)


def gcups_text(run):
    return formats.format_value(gcups(run)) if run and gcups(run) else "-"


def pct_text(run):
    """A run's % of its limit for the throughput table (the int32 pipes', or the host link's
    where its copies bind, named), 'limit unknown' where the GPU's limit is not known, '-'
    without a metric or a limit."""
    if not run or not gcups(run):
        return "-"
    if run.pct_of_peak is None:
        return "limit unknown" if run.peak_reason else "-"
    named = f" of {run.metrics.get('limit')}" if run.binds == "memory" else ""
    return f"{run.pct_of_peak:.1f}%{named}"


def run_name(run):
    """'6  sH_CUDA: shared memory'; a peer by its label, StringZilla's marked as Levenshtein."""
    if not run.is_peer:
        return selection.row_name(run)
    text = selection.step_label(run)
    if "stringzilla" in selection.short_variant(run).lower() and "no swaps" not in text:
        text += (", no swaps" if "levenshtein" in text.lower() else ": Levenshtein, no swaps")
    return f"peer  {text}"


def lines_of(runs, value):
    """{line key: {n: run}} in step order (peers last): a line per variant, and per prep when a
    variant's runs here take more than one; at each n the run selection.pick chooses."""
    preps = {}
    for run in runs:
        preps.setdefault(selection.short_variant(run), set()).add(prep(run))
    groups = {}
    for run in sorted(runs, key=lambda r: (r.is_peer, r.step or 0)):
        name = selection.short_variant(run)
        key = (name, prep(run) if len(preps[name]) > 1 else None)
        if n_of(run):
            groups.setdefault(key, {}).setdefault(n_of(run), []).append(run)
    return {key: {n: selection.pick(group, value) for n, group in at_n.items()}
            for key, at_n in groups.items()}


# ---- the paper's numbers ---------------------------------------------------------------------

def paper_ms(row):
    """{length: ms} of one paper row."""
    unit = TO_MS[next(t["unit"] for t in NOTES["tables"] if row in t["rows"])]
    return {n: v * unit for n, v in zip(NOTES["lengths"], row["values"]) if v is not None}


def table_values(table):
    """[(row, [ms at each of the paper's lengths])] of one of the paper's tables."""
    unit = TO_MS[table["unit"]]
    return [(row, [v * unit for v in row["values"]]) for row in table["rows"]]


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
        data = run.data
        for key, value in NOTES["data"].items():
            have = ladder_results.number(data.get(key))
            if have is not None and have != value:
                return f"these runs have {key}={have:g}, the paper {value}"
        n, m = ladder_results.number(data.get("n")), ladder_results.number(data.get("m"))
        spread = ladder_results.number(run.params.get("spread")) or 0
        if (n is not None and m is not None and n != m) or spread:
            return "these runs' pairs are of unequal lengths, the paper's equal"
        have = ladder_results.number(data.get("pairs"))
        if have is not None and have != pairs:
            return f"these runs have {have:g} pairs, the paper {pairs}"
    return ""


# ---- our values beside the paper's tables ------------------------------------------------------

def table_pool(runs, table):
    """Our runs of the sweeps a paper table's rows stand beside."""
    return [r for r in runs if r.sweep in {row["sweep"] for row in table["rows"]}
            and not r.is_peer]


def why_not(run, max_chars=70):
    """Why a run has no value: its status, or that its timing lacks the stage."""
    if run.median_ms:
        return "timed, but its timing has no such stage"
    return selection.status_text(run, max_chars)


def ms_text(ms):
    return "-" if ms is None else formats.format_time(ms)


def ratio_text(value):
    return "-" if value is None else f"{value:.3g}"


def cell(run, value, where, untimed, text=None):
    """Our value in a table cell (`text` of it, default the time), or the run's status, its
    reason added to `untimed` as (where, why) for a footnote; '-' for no run."""
    if run is None:
        return "-"
    if not value(run):
        untimed.append((where, why_not(run, 110)))
        return "no stage" if run.median_ms else run.status or "no timing"
    shown = text(run) if text else ms_text(value(run))
    return shown + (" INCORRECT" if run.status == "incorrect" else "")


def table_value(table):
    """Our value for one paper table: a stage median or the run's total."""
    stage = TABLES[table].get("stage")
    return (lambda r: stage_ms(r, stage)) if stage else total_ms


def ours_at(runs, row, n, value):
    group = [r for r in in_sweep(runs, row["sweep"]) if not r.is_peer
             and selection.short_variant(r) == row["variant"] and n_of(r) == n
             and (row.get("prep") is None or prep(r) == row["prep"])]
    return selection.pick(group, value)


def paper_rows(runs):
    """[(cells, 'row' or 'ratio')] of the paper's tables beside ours, and their footnotes."""
    table_rows, notes, untimed = [], [], []
    for t in NOTES["tables"]:
        value = table_value(t["table"])
        ours_what = f"ours: '{t['stage']}' stage" if t.get("stage") else "ours: median total"
        got = {}
        for j, (row, papers) in enumerate(table_values(t)):
            cells = []
            for n, paper in zip(NOTES["lengths"], papers):
                run = ours_at(runs, row, n, value)
                ours = value(run) if run and run.passed else None
                got[(row["variant"], row.get("prep"), n)] = ours
                where = f"{row['method']} n={n} (Table {t['table']})"
                absent = ("not run" if in_sweep(runs, row["sweep"])
                          else f"no sweep '{row['sweep']}'")
                cells += [ms_text(paper), cell(run, value, where, untimed) if run else absent,
                          formats.times_text(paper / ours) if ours else "-"]
            method = row["method"] + f"\n{row['variant']}" + (
                f", prep={row['prep']}" if row.get("prep") else "")
            head = f"Table {t['table']}: {t['title']}\n({ours_what})" if j == 0 else ""
            table_rows.append(([head, method, *cells], "row"))
        why = mismatch(table_pool(runs, t), t["pairs"])
        if why:
            notes.append(f"Table {t['table']}: {why}.")
        for other in ("ph_cuda", "h_cuda"):
            num, den = paper_row(t["table"], "sh_cuda"), paper_row(t["table"], other,
                                                                    DEFAULT_PREP[other])
            cells = []
            for i, n in enumerate(NOTES["lengths"]):
                a = got.get((num["variant"], num.get("prep"), n))
                b = got.get((den["variant"], den.get("prep"), n))
                cells += [ratio_text(num["values"][i] / den["values"][i]),
                          ratio_text(a / b if a and b else None), ""]
            table_rows.append((["", f"time ratio {SHORT['sh_cuda']} / {SHORT[other]}", *cells],
                               "ratio"))
    return table_rows, notes + selection.missing_footnotes(untimed, 0)


def throughput_rows(runs):
    """(header, rows, notes) of every step and peer of the throughput, alphabet, long sweeps."""
    pools = {s: in_sweep(runs, s) for s in (THROUGHPUT, ALPHABET, LONG)}
    notes = [f"no run of sweep '{s}' in this file." for s, got in pools.items() if not got]
    through, alpha, long_ = pools.values()
    alphabets = sorted({ladder_results.number(r.params.get("alphabet")) for r in alpha} - {None})
    long_n = sorted({n_of(r) for r in long_ if n_of(r)})
    size = next(((ladder_results.number(r.data.get("pairs")), n_of(r)) for r in through), (10000, 1000))
    header = ["step", f"{size[0]:,.0f} pairs of {size[1]:,.0f}:\nmedian time", "GCUPS",
              "% of limit\n(int32)", *[f"alphabet {a:g}:\nGCUPS" for a in alphabets],
              *[f"one pair of {n:,.0f}:\nmedian time, GCUPS" for n in long_n]]
    every = sorted({selection.short_variant(r): r for r in through + alpha + long_}.values(),
                   key=lambda r: (r.is_peer, r.step or 0))
    rows, untimed = [], []
    for first in every:
        name, variant = selection.step_label(first), selection.short_variant(first)

        def mine(pool, keep=lambda r: True):
            return selection.pick([r for r in pool if selection.short_variant(r) == variant
                                and keep(r)], total_ms)
        run = mine(through)
        cells = [run_name(first), cell(run, total_ms, name, untimed), gcups_text(run),
                 pct_text(run)]
        cells += [cell(mine(alpha, lambda r: ladder_results.number(r.params.get("alphabet")) == a),
                       gcups, f"{name} alphabet {a:g}", untimed, gcups_text) for a in alphabets]
        cells += [cell(mine(long_, lambda r: n_of(r) == n), total_ms, f"{name} n={n:g}", untimed,
                       lambda r: f"{ms_text(total_ms(r))}, {gcups_text(r)} GCUPS")
                  for n in long_n]
        rows.append(cells)
    return header, rows, notes + selection.missing_footnotes(untimed, 0)

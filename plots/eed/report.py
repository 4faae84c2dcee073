"""REPORT.md's EED section: Kim, Na and Sim (2015) beside the runs of config eed-paper, its
Tables 1-4 beside ours and each claim of its text (seed.json, "claims") judged."""
import math

from .. import selection
from .. import results as ladder_results
from .. import report_common as rc

from . import data as ep

SEED, TITLE = "seed 003: Kim, Na and Sim 2015", "Extended edit distance (EED)"
CONFIG = "eed-paper"
STUDY = "eed"
TARGETS = ("EED Fig. 5", "EED Table 1", "EED Fig. 6", "EED Table 2", "EED Fig. 7",
           "EED Table 3", "EED Table 4")
# Blocks of the paper's experiments 1 and 2: one per pair (configs/eed/paper.json, any scale).
PAIRS = 100
# Why a claim does not reproduce here, where we know (shown for 'partly' and 'does not'). The
# {fields} name our GPU from the results' device (gpu_words): no GPU's facts typed here.
WHY = {
    "prep_parallel": "H_CUDA's forward preprocessing (a thread per row scans A from its start "
                     "in global memory) grows with n here; sH_CUDA's backward scan in shared "
                     "memory stays flat",
    "prep_overlap": "the forward scans (pH_CUDA parallel, H_CUDA) grow with n on {the_gpu}, "
                    "sH_CUDA's backward scan in shared memory does not; the paper credits the "
                    "cache for its flat forward scan",
    "sh_vs_ph": "pH_CUDA runs the pairs one after another on one block, {one_sm} (the GTX 660 "
                "has 5), sH_CUDA a block per pair: the gap grows with the number of SMs",
    "sh_vs_h": "{l2} (GTX 660: 384 KB) serves H_CUDA's global-memory table, so its kernel "
               "is about as fast as sH_CUDA's; sH_CUDA gains mostly in preprocessing",
    "h_vs_ph_one": "for one pair both are a single block in global memory here; the paper's "
                   "pH_CUDA was the program of its ref. [10]",
    "sh_vs_ph_one": "one pair of length 100 is mostly launch and copy latency here "
                    "(cudaMemcpy-dominated); at 1000 {gpus} caches serve pH_CUDA's "
                    "global-memory table, so shared memory gains less than on the GTX 660",
    "multi_block": "{fill} (the GTX 660 has 5): one pair at a time leaves most of the GPU "
                   "idle, so the gain grows with the SM count",
    "t4_vs_ph": "our compute stage stands in for the paper's printed-on-device times; "
                "pH_CUDA's one block uses {one_sm} (the GTX 660 has 5)",
    "t4_sh_slower": "the two kernels take about the same time here: {l2} serves "
                    "H_CUDA's global table, and no cost of setting up sH_CUDA's shared memory "
                    "(0.71 ms on the GTX 660, the paper says) shows",
    "t4_ph_vs_seq": "our sequential step (the full table on one CPU core) stands in for the "
                    "paper's pH, the program of its ref. [10]; pH_CUDA's one block uses "
                    "{one_sm} (the GTX 660 has 5)",
    "t4_sh_vs_t2": "copying 100 pairs in and their distances out takes microseconds here, so "
                   "sH_CUDA's total is hardly more than its compute stage, which stands in for "
                   "the paper's printed-on-device time",
}
TABLE_WHY = {
    1: "the forward scans read A from global memory, a thread per row",
    4: "pH_CUDA's one block runs on one SM",
}
# The peers of configs/eed/paper.json, by script (peers/eed/NAME.py, as the manifest names
# them): which distance each computes, and StringZilla's releases by the call each offers.
PEERS = {"rapidfuzz": "RapidFuzz (Damerau-Levenshtein on the CPU: the same distance as EED "
                      "with unit costs)",
         "stringzilla": "StringZilla (Levenshtein on the GPU: no swaps, a different and simpler "
                        "distance), a 5.x release: no paired call, so blocks of pairs go "
                        "through its cross-product and the diagonal is kept",
         "stringzilla_paired": "StringZilla 4.6.3 (Levenshtein on the GPU: no swaps), the last "
                               "release that scores a batch of pairs in one call"}
QUICK_WHY = ("quick scale: reduced sizes and repetitions, so absolute times are shown but not "
             "judged")


# ---- our GPU, as the WHY texts name it ---------------------------------------------------------

def size_text(size):
    """'50 MB', '384 KB': a cache's size in bytes, as the texts give it (1 MB = 2^20 bytes)."""
    return f"{size / 2**20:.3g} MB" if size >= 2**20 else f"{size / 2**10:.3g} KB"


def gpu_words(results):
    """The words of WHY's {fields}, from the results' device (None: no results): the_gpu ('the
    H200'), gpus (its possessive), one_sm ('one SM of the H200's 132'), l2 ('the H200's 60 MB
    L2'), fill (what PAIRS blocks take of its SMs). Without a device, or without a count or
    size, a wording that needs none ('this GPU', 'one of this GPU's SMs', 'this GPU's L2')."""
    device = results.device if results else {}
    name = rc.short_hardware(results.device_name) if device.get("present") else ""
    sms = ladder_results.number(device.get("sm_count")) if name else None
    l2 = ladder_results.number(device.get("l2_bytes")) if name else None
    the_gpu = f"the {name}" if name else "this GPU"
    gpus = f"{the_gpu}'s"
    if sms and sms >= 1:
        one_sm = f"one SM of {gpus} {sms:.0f}"
        fill = (f"{PAIRS} blocks fill {PAIRS} of {gpus} {sms:.0f} SMs" if sms > PAIRS else
                f"{PAIRS} blocks fill all {sms:.0f} of {gpus} SMs")
    else:
        one_sm = f"one of {gpus} SMs"
        fill = f"{PAIRS} blocks spread over {gpus} SMs"
    return dict(the_gpu=the_gpu, gpus=gpus, one_sm=one_sm, fill=fill,
                l2=f"{gpus} {size_text(l2)} L2" if l2 and l2 > 0 else f"{gpus} L2")


def known_why(claim_id, results):
    """WHY's text of a claim in the words of `results`' GPU (gpu_words); '' where WHY has none."""
    text = WHY.get(claim_id)
    return text.format(**gpu_words(results)) if text else ""


# ---- our values beside the paper's ------------------------------------------------------------

def method(step):
    """'sH_CUDA', 'pH_CUDA serial': the paper's name of a step (variant and preprocessing)."""
    name = f"{ep.SHORT[step['variant']]}_CUDA" if step["variant"] in ep.SHORT else step["variant"]
    return f"{name} {step['prep']}" if step.get("prep") == "serial" else name


def row_of(table, step):
    """The row of `table` our step stands beside; a step no table gives (our sequential one
    for the paper's pH) names its sweep and is its own row."""
    return step if step.get("sweep") else ep.paper_row(table, step["variant"], step.get("prep"))


def our_ms(runs, table, step, n):
    """(ms, run): our value beside one of the paper's table rows at length n (the table's
    stage or total, as eed_paper compares them; a step no table gives, its total); ms is
    None when the run has none."""
    row = row_of(table, step)
    value = ep.total_ms if step.get("sweep") else ep.table_value(table)
    run = ep.ours_at(runs, row, n, value) if row else None
    return (value(run) if run and run.passed else None), run


def missing_why(run):
    return ep.why_not(run, 90) if run else "not in the results"


def measured(value, num, den, tables, scale=1.0):
    """value, num's ms over den's (den None: num's ms alone) in the paper's `tables`' terms
    times `scale`, as an rc.Ratio: with its interval where every one of those tables gives a
    run's time (its total), without one where a stage's (a results file keeps a stage's
    median alone)."""
    if any(ep.TABLES[t].get("stage") for t in tables):
        return rc.Ratio(value)
    found = (rc.run_seconds(num, scale * 1000) if den is None
             else rc.run_ratio(num, den, scale))
    return found or rc.Ratio(value)


def our_length(runs, table, step, n):
    """The paper's length n when we ran it, else our nearest (quick scale)."""
    row = row_of(table, step)
    ns = {ep.n_of(r) for r in ep.in_sweep(runs, row["sweep"]) if ep.n_of(r)} if row else set()
    if n in ns or not ns:
        return n
    return min(ns, key=lambda x: abs(math.log(x / n)))


def ratios_of(runs, claim):
    """[(label, slower / faster)] of the claim at each length, and [(label, why)] untimed."""
    table, found, missing = claim["table"], [], []
    if claim["kind"] in ("multi_block", "across"):
        pairs = [(claim["step"], claim["step"])]
    else:
        pairs = [(claim["slower"], fast) for fast in claim["faster"]]
    for slow, fast in pairs:
        for paper_n in claim["lengths"]:
            n = our_length(runs, table, fast, paper_n)
            label = f"{method(fast)} n={n:g}" if len(pairs) > 1 else f"n={n:g}"
            t_fast, run_fast = our_ms(runs, table, fast, n)
            count, tables = 1.0, (table,)
            if claim["kind"] == "multi_block":  # this many single pairs against them at once
                t_one, run_slow = our_ms(runs, claim["one_pair_table"], slow, n)
                count = ladder_results.number(run_fast.data.get("pairs")) if run_fast else None
                t_slow = t_one * count if t_one and count else None
                tables = (table, claim["one_pair_table"])
            elif claim["kind"] == "across":  # one step in two of the paper's experiments
                t_slow, run_slow = our_ms(runs, claim["slower_table"], slow, n)
                tables = (table, claim["slower_table"])
            else:
                t_slow, run_slow = our_ms(runs, table, slow, n)
            if t_slow and t_fast:
                found.append((label, measured(t_slow / t_fast, run_slow, run_fast, tables,
                                              count)))
            else:
                missing.append((label, missing_why(run_fast if t_slow else run_slow)))
    return found, missing


def step_runs(runs, table, step):
    """Our runs of one of the paper's steps in its table's sweep, any length."""
    row = row_of(table, step)
    return [r for r in ep.in_sweep(runs, row["sweep"]) if selection.short_variant(r) ==
            row["variant"] and row.get("prep") in (None, ep.prep(r))] if row else []


def profile_of(runs, claim):
    """The profile's why of a speed-up (rc.profile_why), at each of the claim's lengths where
    profiled there; one per faster step, named, where they differ."""
    slow, table = claim["slower"], claim["table"]
    found = {method(fast): "; ".join(dict.fromkeys(w for w in (rc.profile_why(
        step_runs(runs, table, slow) + step_runs(runs, table, fast), slow["variant"],
        fast["variant"], {"n": n}) for n in reversed(claim["lengths"])) if w))
        for fast in claim["faster"]}
    found = {name: why for name, why in found.items() if why}
    if len(set(found.values())) <= 1:
        return next(iter(found.values()), "")
    return "; ".join(f"{name}: {why}" for name, why in found.items())


def spreads_of(runs, claim):
    """[(label, slowest / fastest)] of the claim's steps at each length, and [missing]."""
    found, missing = [], []
    for paper_n in claim["lengths"]:
        n = our_length(runs, claim["table"], claim["steps"][0], paper_n)
        got = [our_ms(runs, claim["table"], step, n) for step in claim["steps"]]
        absent = [run for ms, run in got if not ms]
        if absent:
            missing.append((f"n={n:g}", missing_why(absent[0])))
        else:
            times = [ms for ms, _run in got]
            found.append((f"n={n:g}", max(times) / min(times)))
    return found, missing


# ---- verdicts ---------------------------------------------------------------------------------

def why_of(verdict, known, missing, note=""):
    """rc.why_of with the points not timed, [(where, why)], grouped by why."""
    return rc.why_of(verdict, known, *selection.missing_footnotes(
        missing, len(missing) if verdict == rc.NOT_MEASURED else 0), note)


def quick_note(ctx, runs, claim):
    """At quick scale, the lengths a relative claim is judged at (the paper's or the nearest)."""
    if not ctx.quick:
        return ""
    step = (claim.get("steps") or claim.get("faster") or [claim.get("step")])[0]
    ours = [our_length(runs, claim["table"], step, n) for n in claim["lengths"]]
    if ours == claim["lengths"]:
        return "quick scale: at the paper's lengths, with fewer repetitions"
    return (f"quick scale: judged at n = {', '.join(f'{n:g}' for n in ours)}, the paper's "
            f"n = {', '.join(f'{n:g}' for n in claim['lengths'])}")


def ratio_claim(ctx, runs, claim):
    """A claim of the paper's text (speed-up, overlap or multi-block) judged on our runs."""
    if claim["kind"] == "overlap":
        found, missing = spreads_of(runs, claim)
        judged = rc.judge("same", [s for _l, s in found])
        seed = "about equal"
        ours = "; ".join(f"{l}: slowest {rc.fmt_ratio(s)} the fastest" for l, s in found)
    elif claim["kind"] == "faster":
        found, missing = ratios_of(runs, claim)
        judged = rc.judge("direction", [r for _l, r in found])
        seed = "faster (no factor given)"
        ours = "; ".join(f"{l}: {rc.fmt_measured(r)}" for l, r in found)
    else:
        found, missing = ratios_of(runs, claim)
        lo, hi = claim["range"]
        band = rc.factor_band((lo, hi))
        judged = rc.judge("factor", [r for _l, r in found], (lo, hi))
        seed = (f"{lo:g}x" if lo == hi else f"{lo:g}-{hi:g}x") + (
            f" (band {band[0]:.3g}-{band[1]:.3g}x)")
        ours = "; ".join(f"{l}: {rc.fmt_measured(r)}" for l, r in found)
    verdict, crossing = judged.verdict, judged.note
    numbers, known = {}, known_why(claim["id"], ctx.results(CONFIG))
    if claim.get("range"):  # the middle of the seed's range, on a log scale
        numbers = dict(seed_x=math.sqrt(lo * hi), ours_x=tuple(r for _l, r in found))
    # A gain between two steps: what their counters say, whatever the verdict.
    counters = profile_of(runs, claim) if claim["kind"] == "speedup" else ""
    why = why_of(verdict, known, missing, "; ".join(
        w for w in (counters, quick_note(ctx, runs, claim)) if w))
    return rc.Claim(claim["target"], claim["claim"], seed, ours or "-", verdict,
                    "; ".join(w for w in (crossing, why) if w), **numbers,
                    quote=claim["quote"], place=claim["place"], rule=judged.rule,
                    thresholds=judged.thresholds)


def unrun_claim(ctx, claim):
    """A claim of the paper's text that none of our runs can judge: not measured, and why. One
    on an absolute time ("absolute" in seed.json) is judged by the absolute rule all the same:
    on a GPU other than the paper's it is not comparable, whatever we could time."""
    words = dict(quote=claim["quote"], place=claim["place"])
    results = ctx.results(CONFIG)
    device = results.device_name if results and results.device.get("present") else ""
    if claim.get("absolute") and device and not rc.same_hardware(device, ep.NOTES["device"]):
        return rc.Claim(claim["target"], claim["claim"], claim["seed"], "-", rc.NOT_COMPARABLE,
                        f"{rc.other_hardware(device, ep.NOTES['device'])}; {claim['why']}",
                        rule="absolute", thresholds=rc.RULES["absolute"].cuts(None), **words)
    return rc.Claim(claim["target"], claim["claim"], claim["seed"], "-", rc.NOT_MEASURED,
                    claim["why"], **words)


def times_claim(ctx, runs, table):
    """The paper's times of one table at lengths 100 and 1000 against ours."""
    t = ep.TABLES[table]
    pairs, ratios, off, missing = [], [], [], []
    for row, papers in ep.table_values(t):
        for n, paper in zip(ep.NOTES["lengths"], papers):
            ours, run = our_ms(runs, table, row, n)
            where = f"{row['method']} n={n:g}"
            if ours is None:
                missing.append((where, missing_why(run)))
                continue
            pairs.append((paper, ours))
            ratios.append(measured(ours / paper, run, None, (table,), 1 / paper))
            if not 1 / rc.FACTOR <= ours / paper <= rc.FACTOR:
                off.append(f"{where} ({rc.fmt_measured(ratios[-1])} the GTX 660's)")
    every = [ms for _row, papers in ep.table_values(t) for ms in papers]
    seed = f"{ep.ms_text(min(every))} to {ep.ms_text(max(every))}"
    what = f"'{t['stage']}' stage" if t.get("stage") else "total, copies included"
    claim = f"GTX 660 times at n = 100 and 1000, {t['title']} (ours: {what})"
    words = dict(quote=t["quote"], place=t["place"])
    ours = "-"
    if pairs:
        mine = [o for _p, o in pairs]
        ours = (f"{ep.ms_text(min(mine))} to {ep.ms_text(max(mine))}; "
                f"{sum(o <= p for p, o in pairs)} of {len(pairs)} no slower than the GTX 660's")
    differs = ep.mismatch(ep.table_pool(runs, t), t["pairs"])
    if ctx.quick or differs:
        return rc.Claim(f"EED Table {table}", claim, seed, ours, rc.NOT_MEASURED,
                        QUICK_WHY if ctx.quick else differs, **words)
    device = ctx.results(CONFIG).device_name if ctx.results(CONFIG) else ""
    judged = rc.judge_absolute(ratios, device, ep.NOTES["device"])
    known = f"more than {rc.FACTOR:g}x off the GTX 660's: " + ", ".join(off) + (
        f" ({TABLE_WHY[table]})" if table in TABLE_WHY else "")
    why = (judged.note if judged.verdict != rc.NOT_COMPARABLE
           else "; ".join([judged.note] + ([known] if off else [])))
    if judged.verdict != rc.NOT_COMPARABLE:
        why = "; ".join(w for w in (why, why_of(judged.verdict, known, missing)) if w)
    return rc.Claim(f"EED Table {table}", claim, seed, ours, judged.verdict, why,
                    rule=judged.rule, thresholds=judged.thresholds, **words)


def claims_of(ctx, runs):
    """Every claim, in the order of TARGETS (the paper's figures beside their tables)."""
    claims = [times_claim(ctx, runs, t["table"]) for t in ep.NOTES["tables"]]
    claims += [unrun_claim(ctx, c) if c["kind"] == "not_run" else ratio_claim(ctx, runs, c)
               for c in ep.NOTES["claims"]]
    return sorted(claims, key=lambda c: TARGETS.index(c.target) if c.target in TARGETS
                  else len(TARGETS))


# ---- the section's text -----------------------------------------------------------------------

RULES = f"""What is measured (the rules are at the top of the report):
- **Speed-ups** ("A ~X-Yx faster than B") are **factor** claims on our time of B over our time
  of A, at the paper's lengths 100 and 1000 (at quick scale, the nearest lengths we ran). The
  seed's number is shown with the band the rule accepts. The GTX 660 of 2012 is generations
  older than the GPUs we run on: only the size of an effect can carry over.
- **One step in two experiments** (pH_CUDA's 100 pairs against its one pair; sH_CUDA's 100
  pairs with the copies, Table 2, against printed on the device, Table 4): a **factor** claim
  on our step's two times.
- **A direction without a factor** ("pH_CUDA's parallel preprocessing is faster than its
  serial one"): a **direction** claim.
- **Overlapping lines** (Fig. 5: the three parallel preprocessings; Fig. 8: H_CUDA and
  sH_CUDA printed on the device): a **same** claim on the slowest over the fastest at each
  length (the paper's own differ by up to 1.65x).
- The paper's pH (the sequential program of its ref. [10]) is in no table: our sequential
  step, its median total, stands in for it.
- **Times** (Tables 1-4, and the 0.71 ms sH_CUDA's shared memory took to set up) are
  **absolute** claims: judged only on the paper's GTX 660. No run of ours times that set-up
  apart (it is inside sH_CUDA's kernel), so on the GTX 660 it would stay not measured.
- Table 4's times were printed on the device (no copy back); ours beside them is the
  `compute` stage (the kernels alone). Table 1's is the `preprocess` stage, Tables 2 and 3
  the median total with the copies, as the paper's.
- A ratio of two runs' times (Tables 2 and 3: the totals) has its interval; a stage's ratio
  (Tables 1 and 4) has none: a results file keeps a stage's median alone.
- Any claim with no timed run is *not measured*, with the run's status (e.g. skipped: no
  CUDA device).
"""


def throughput_table(ctx, runs):
    peer_runs = [r for results in ctx.peer_results(CONFIG) for r in results.runs
                 if r.study == STUDY]
    header, rows, notes = ep.throughput_rows(runs + peer_runs)
    bullets = "".join(f"\n- {n}" for n in notes)
    if not rows:
        return "No run of the throughput sweeps.\n" + bullets
    return rc.md_table(header, rows) + bullets + ("\n" if notes else "")


def peers_text(ctx):
    states = ctx.peer_states(STUDY)
    if not states:
        return "No peer was run for this study (RapidFuzz and StringZilla are its peers).\n"
    lines = [f"- {PEERS.get(peer, peer)}: {state}" + (f": {why}" if why else "")
             for peer, state, why in states]
    return ("Peers (where they ran, their rows are in the table above, and StringZilla's "
            "100-pair times in Fig. 6):\n\n" + "\n".join(lines) + "\n")


def paper_table(runs):
    rows, notes = ep.paper_rows(runs)
    text = rc.md_table(ep.PAPER_COLUMNS, [cells for cells, _kind in rows])
    return text + "".join(f"\n- {n}" for n in notes) + ("\n" if notes else "")


def body(ctx, runs):
    source = ep.NOTES
    parts = [
        f"Source: {source['source']}\n",
        f"The paper times three GPU methods on a {source['device']} "
        f"(CPU {source['cpu']}): pH_CUDA (one block for everything), H_CUDA (a block per "
        "pair) and sH_CUDA (a block per pair, shared memory), for 100 random pairs (Fig. 5: "
        "the preprocessing; Fig. 6: the whole computation) and for one pair (Fig. 7). Our "
        f"config `{CONFIG}` runs the same experiments on the same kind of data (alphabet 10, "
        f"unit costs) with the later steps of our ladder beside them. {source['restored']}\n",
        RULES,
        "### The paper's Tables 1-4 beside ours\n",
        "GTX 660 / ours above 1: faster here. Time ratio rows: sH_CUDA's time over pH_CUDA's "
        "or H_CUDA's (below 1: sH_CUDA is faster).\n",
        paper_table(runs),
        rc.md_figures(ctx, "eed_fig5", "Fig. 5: preprocessing of 100 pairs against the length"),
        rc.md_figures(ctx, "eed_fig6", "Fig. 6: 100 pairs, every step"),
        rc.md_figures(ctx, "eed_fig7", "Fig. 7: one pair, every step"),
        rc.md_figures(ctx, "eed_tables", "Tables 1-4 and the throughput, as a figure"),
        "### Throughput and peers\n",
        throughput_table(ctx, runs),
        peers_text(ctx),
        "### Ladders\n",
        rc.md_figures(ctx, "eed_ladder", "The ladder at each point"),
    ]
    if ctx.quick:
        parts.insert(1, "**Quick scale:** the sizes are smaller than the paper's; absolute "
                        "times are shown but not judged, ratios are judged at the sizes run.\n")
    return "\n".join(parts)


def section(ctx):
    runs = ctx.runs(CONFIG)
    claims = claims_of(ctx, runs)
    if ctx.results(CONFIG) is None:
        return rc.unmeasured(TITLE, CONFIG, RULES, claims)
    return rc.Section(TITLE, body(ctx, runs), claims)

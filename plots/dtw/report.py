"""The DTW section of REPORT.md (seed 000, the DTW lecture notes): their Titan X times and gains
beside ours at their point (sweep `notes` of dtw-paper), our whole ladder there, the figures."""
from .. import formats, selection
from .. import results as ladder_results
from .. import report_common as rc

from .data import NOTES, notes_mismatch, speedups

SEED, TITLE = "seed 000: DTW lecture notes", "DTW ladder"
TARGET = "DTW ladder (seed 000)"
CONFIG, SWEEP = "dtw-paper", "notes"
NOTES_CORES = 32  # the notes' OpenMP host

# Where in the notes a claim stands: a section heading, then the heading under it (glossed).
AT_NAIVE = "§ DTW: Naive CUDA Kernel > 결과 보기 (the results)"
AT_THREAD_LOCAL = ("§ DTW: CUDA Kernel with Thread-Local Memory > 커널 코드 (the kernel code), "
                   "after its launch")
AT_SHARED = "§ DTW: CUDA Kernel with Shared Memory > 결과 정리 (the results summed up)"
AT_SHARED_LIMIT = ("§ DTW: CUDA Kernel with Shared Memory > shared memory의 크기는 한정적이다 "
                   "(shared memory is limited in size)")
# The notes' words (verbatim) on each step's time and gain.
SAID_NAIVE = ("실행 결과를 보니 Titan X 기준으로 약 30초가 걸렸고, 이는 32코어에서 돌린 OpenMP 코드에 "
              "비해 대략 10배 정도 느린 성능이다.")
SAID_THREAD_LOCAL = ("이렇게 thread-local penalty를 사용하는 static 커널을 Pascal 기반 Titan X에서 돌려 "
                     "보면, 실행 시간은 약 **2.7초**로 측정되며, 이는 이전 `DTW_naive_kernel` 대비 약 "
                     "**11배 정도 빠른 속도**이다.")
SAID_OPENMP = ("다만, 이 속도는 여전히 **32코어 OpenMP CPU 코드와 비교하면 ‘조금 빠르거나 비슷한 "
               "수준’** 에 그친다.")
SAID_SHARED = ("Titan X에서 이 shared memory 버전의 실행 시간은 약 **0.63초**로 나타났으며, 이는 이전 "
               "`DTW_static_kernel` 대비 약 **4.3배 빠른 성능**이다.")

# What the notes say about two of their steps: (slower step, faster step, the claim, the
# notes' words, where they stand).
GAINS = (("naive", "thread_local", "thread-local DP rows ~11x faster than naive",
          SAID_THREAD_LOCAL, AT_THREAD_LOCAL),
         ("thread_local", "shared", "DP rows in shared memory ~4.3x faster than thread-local",
          SAID_SHARED, AT_SHARED),
         ("naive", "openmp", "naive CUDA ~10x slower than 32-core OpenMP", SAID_NAIVE, AT_NAIVE),
         ("openmp", "thread_local", "thread-local only slightly faster than 32-core OpenMP",
          SAID_OPENMP, AT_THREAD_LOCAL))
# The notes' measured times (OpenMP's is implied): (step, its name in the claim, the notes'
# words, where they stand).
TIMED = (("naive", "naive kernel", SAID_NAIVE, AT_NAIVE),
         ("thread_local", "thread-local kernel", SAID_THREAD_LOCAL, AT_THREAD_LOCAL),
         ("shared", "shared-memory kernel", SAID_SHARED, AT_SHARED))
# The notes' remedy for the naive kernel's strided accesses, which they describe but never
# time: a layout in which the words a warp touches at once are adjacent. Ours, as (step, the
# same step with its accesses coalesced): the interleaved global DP cache (7a) and the
# time-major subjects (7b).
COALESCED = (("naive", "interleaved"), ("shared", "transposed"))
SAID_COALESCED = ("이렇게 하면 warp에서 thread들이 parallel하게 접근할 때 하드웨어는 필요한 데이터를 한 번에 "
                  "연속적으로 가져올 수 있고, 결과적으로 메모리 접근이 병합(coalesced)되어 성능이 크게 "
                  "개선된다.")
# Shared memory runs out with the series' length: judged on the length sweep, where our
# shared step is refused once 32 threads' DP rows need more than a block may have.
LENGTH_SWEEP = "length"
SAID_SHARED_LIMIT = ("shared memory는 빠른 대신 공간이 매우 작기 때문에 시계열 길이가 길어지면 공유 메모리의 "
                     "한계를 넘어버린다.")
FIGURE_GROUPS = (("dtw_paper", "The ladder beside the notes' Titan X times"),
                 ("dtw_ladder", "DTW ladder"), ("dtw_length_sweep", "GCUPS against series length"))


def notes_seconds(variant):
    return NOTES["seconds"][variant]["value"]


def not_comparable(ctx, runs):
    """Why our times cannot stand beside the notes' ('' when they can): another scale or
    another point. Untimed runs are left out: a skipped run says nothing about the point."""
    mismatch = notes_mismatch([r for r in runs if r.median_ms])
    if ctx.quick:
        return f"quick scale: {mismatch or 'reduced sizes'}, so times are not comparable"
    return mismatch


def name(at, variant):
    run = at.get(variant)
    return selection.step_label(run) if run else variant


def missing_why(at, *variants):
    """'naive: skipped: no CUDA device' for the first of `variants` without a usable time."""
    for v in variants:
        if selection.seconds(at.get(v)) is None:
            return f"{v}: {rc.not_run_why(at.get(v))}"
    return ""


def faster_than_notes(at, variant):
    """'18.2x' (ours faster) or '0.5x': the notes' time over ours."""
    return rc.fmt_ratio(rc.ratio(notes_seconds(variant), selection.seconds(at.get(variant))))


def hardware(results):
    """(GPU name, host cores) of our runs."""
    device = (results.device_name if results else "") or "host without a GPU"
    cores = results.host.get("cores", "?") if results else "?"
    return device, cores


# ---- claims ---------------------------------------------------------------------------------

def gain_claim(at, runs, slower, faster, claim, quote, place, comparable, results):
    seed = notes_seconds(slower) / notes_seconds(faster)
    ours = rc.run_ratio(at.get(slower), at.get(faster))
    if ours is None:
        return rc.Claim(TARGET, claim, rc.fmt_ratio(seed), "-", rc.NOT_MEASURED,
                        missing_why(at, slower, faster), quote=quote, place=place)
    judged = rc.judge("factor", [ours], seed)
    verdict, crossing = judged.verdict, judged.note
    device, cores = hardware(results)
    why = ""
    if verdict != rc.REPRODUCES:
        # Which of the two steps moved: each step against its own time in the notes.
        why = (f"on the {device} our {name(at, slower)} runs {faster_than_notes(at, slower)} "
               f"and our {name(at, faster)} {faster_than_notes(at, faster)} faster than the "
               f"notes' on the {NOTES['device']}"
               if comparable else
               f"other hardware: {NOTES['device']} and {NOTES_CORES} cores vs the {device} "
               f"and {cores} cores")
        if comparable and "openmp" in (slower, faster):
            why += f" (our OpenMP on {cores} cores, the notes' on {NOTES_CORES})"
    why = rc.with_profile(why, runs, slower, faster)  # the counters, whatever the verdict
    return rc.Claim(TARGET, claim, rc.fmt_ratio(seed), rc.fmt_measured(ours), verdict,
                    "; ".join(w for w in (crossing, why) if w), seed_x=seed, ours_x=(ours,),
                    quote=quote, place=place, rule=judged.rule, thresholds=judged.thresholds)


def time_claim(at, variant, words, quote, place, mismatch, results):
    notes = NOTES["seconds"][variant]
    ours = rc.run_seconds(at.get(variant))
    claim = f"{words} takes {notes['text']} (2^20 x 128, Titan X)"
    if ours is None or mismatch:
        return rc.Claim(TARGET, claim, notes["text"], rc.fmt_seconds(ours), rc.NOT_MEASURED,
                        missing_why(at, variant) or mismatch, quote=quote, place=place)
    device = hardware(results)[0]
    judged = rc.judge_absolute([rc.run_seconds(at.get(variant), 1 / notes["value"])], device,
                               NOTES["device"])
    faster = f"ours is {faster_than_notes(at, variant)} faster"
    why = "; ".join(w for w in (judged.note, faster if judged.verdict != rc.REPRODUCES else "")
                    if w)
    return rc.Claim(TARGET, claim, notes["text"], rc.fmt_measured(ours, rc.fmt_seconds),
                    judged.verdict, why, quote=quote, place=place, rule=judged.rule,
                    thresholds=judged.thresholds)


def coalescing_claim(at, runs):
    """The notes' remedy, never timed by them: each of our coalesced steps against the step
    it changes (COALESCED); no factor to meet, so faster is enough."""
    claim = "a layout that coalesces a warp's accesses makes a step much faster"
    gains = [(pair, rc.run_ratio(at.get(pair[0]), at.get(pair[1]))) for pair in COALESCED]
    timed = [(pair, gain) for pair, gain in gains if gain is not None]
    missing = "; ".join(missing_why(at, *pair) for pair, gain in gains if gain is None)
    if not timed:
        return rc.Claim(TARGET, claim, "much faster (no factor)", "-", rc.NOT_MEASURED, missing,
                        quote=SAID_COALESCED, place=AT_NAIVE)
    judged = rc.judge("direction", [gain for _pair, gain in timed])
    verdict, crossing = judged.verdict, judged.note
    ours = ", ".join(f"{name(at, faster)} {rc.fmt_measured(gain)} over {name(at, slower)}"
                     for (slower, faster), gain in timed)
    profiles = dict.fromkeys(rc.with_profile("", runs, *pair) for pair, _gain in timed)
    why = "; ".join(w for w in (crossing, missing, *profiles) if w)
    return rc.Claim(TARGET, claim, "much faster (no factor)", ours, verdict, why,
                    quote=SAID_COALESCED, place=AT_NAIVE, rule=judged.rule,
                    thresholds=judged.thresholds)


def shared_limit_claim(length_runs):
    """Shared memory runs out as the series grow: the length sweep's shared step refused for
    the shared memory its rows need at some length. Its gain over thread-local at each
    timed length goes in the why (the notes add that fewer blocks then fit an SM)."""
    claim, seed = "shared memory too small for the DP rows of long series", "long series exceed it"
    said = dict(quote=SAID_SHARED_LIMIT, place=AT_SHARED_LIMIT, rule="statement")
    at = {(r.variant, ladder_results.number(r.params.get("n"))): r for r in length_runs}
    shared = sorted((n, r) for (v, n), r in at.items() if v == "shared" and n is not None)
    refused = [(n, r) for n, r in shared
               if r.status == "unsupported" and "shared memory" in (r.reason or "")]
    untimed = [f"shared at n={n:g}: {rc.not_run_why(r)}" for n, r in shared
               if selection.seconds(r) is None]
    gains = [(n, rc.ratio(selection.seconds(at.get(("thread_local", n))), selection.seconds(r)))
             for n, r in shared]
    trend = ", ".join(f"{rc.fmt_ratio(g)} at n={n:g}" for n, g in gains if g)
    trend = f"its gain over thread-local {trend}" if trend else ""
    if refused:
        n, run = refused[0]
        return rc.Claim(TARGET, claim, seed, f"refused from n={n:g}: {run.reason}",
                        rc.REPRODUCES, trend, **said)
    if not shared or untimed:
        why = untimed[0] if untimed else (
            f"sweep `{LENGTH_SWEEP}` of `{CONFIG}` is not in the results (the paper scale runs "
            f"its thread-local and shared steps; `ladder run configs/dtw/paper.json` runs it "
            f"whole)")
        return rc.Claim(TARGET, claim, seed, "-", rc.NOT_MEASURED, why, **said)
    return rc.Claim(TARGET, claim, seed, f"runs at every length up to n={shared[-1][0]:g}",
                    rc.DOES_NOT, trend, **said)


def claims(at, runs, mismatch, results, length_runs):
    return ([gain_claim(at, runs, *gain, comparable=not mismatch, results=results)
             for gain in GAINS]
            + [time_claim(at, *timed, mismatch, results) for timed in TIMED]
            + [coalescing_claim(at, runs), shared_limit_claim(length_runs)])


# ---- tables ---------------------------------------------------------------------------------

def gcups_text(run):
    value = run.metric if run else None
    return "-" if value is None else formats.format_value(value)


def limit_text(run):
    return selection.limit_text(run) or "-"


def notes_table(at, comparable):
    """The notes' four steps beside ours, with each one's gain over the row above."""
    data = NOTES["data"]  # their GCUPS: cells (n x n per query-series pair) / time
    cells = data["entries"] * data["queries"] * data["n"] ** 2
    rows, previous = [], None
    for variant, notes in NOTES["seconds"].items():
        run, ours = at.get(variant), selection.seconds(at.get(variant))
        gain_notes = gain_ours = "-"
        if previous:
            gain_notes = rc.fmt_ratio(notes_seconds(previous) / notes["value"])
            gain_ours = rc.fmt_ratio(rc.ratio(selection.seconds(at.get(previous)), ours))
        rows.append([name(at, variant), notes["text"],
                     formats.format_value(cells / notes["value"] / 1e9),
                     rc.time_text(run), gcups_text(run),
                     rc.fmt_ratio(rc.ratio(ours, notes["value"])) if comparable else "-",
                     gain_notes, gain_ours])
        previous = variant
    return rc.md_table(["step", "notes (Titan X)", "notes GCUPS", "ours", "our GCUPS",
                        "ours / notes (time)", "notes: gain over the row above",
                        "ours: gain over the row above"], rows)


def ladder_table(shown):
    """Every step at the notes' point, with the gain over the previous timed step of its precision."""
    gains = [text for text, _ratio in speedups(shown)]
    rows = [[run.step, f"{selection.step_label(run)} (`{run.variant}`)",
             f"{(run.backend or '?').upper()}, {run.precision or 'fp32'}",
             rc.time_text(run), gcups_text(run), limit_text(run), gain]
            for run, gain in zip(shown, gains)]
    return rc.md_table(["step", "variant", "backend, precision", "median time", "GCUPS",
                        "% of limit", "gain over the previous timed step of its precision"], rows)


def past_the_notes(at, shown):
    """One sentence: how far our fastest step at the point goes past the notes' last step."""
    timed = [r for r in shown if r.seconds is not None]
    if not timed:
        return "No step at this point was timed.\n"
    best = min(timed, key=selection.seconds)
    shared = rc.ratio(selection.seconds(at.get("shared")), best.seconds)
    limit = f", {limit_text(best)}" if limit_text(best) != "-" else ""
    return (f"Our fastest step at this point is {selection.step_label(best)} "
            f"({rc.fmt_seconds(best.seconds)}{limit})"
            + (f", {rc.fmt_ratio(shared)} faster than our shared-memory step, the notes' last."
               if shared and best is not at.get("shared") else ".") + "\n")


# ---- the section ----------------------------------------------------------------------------

COALESCED_TEXT = ", ".join(f"`{faster}` over `{slower}`" for slower, faster in COALESCED)
RULES = f"""\
What is measured (the rules are at the top of the report): the notes' gains between two steps,
and their GPU-over-CPU ratios (our OpenMP on the host's cores stands in for theirs on 32), are
**factor** claims on our times at the notes' point; their times are **absolute**. The notes give
no factor for coalescing: a **direction** claim on each of our coalesced steps against the step
it changes ({COALESCED_TEXT}). That shared memory runs out as series grow is a **statement**:
it holds when sweep `{LENGTH_SWEEP}` has our shared step refused for the shared memory its rows
need at some length.
"""


def section(ctx):
    results = ctx.results(CONFIG)
    runs = ctx.runs(CONFIG, sweep=SWEEP)
    shown = [run for run, _name in selection.ladder_rows(runs)]
    at = {run.variant: run for run in shown}
    mismatch = not_comparable(ctx, runs) if runs else ""
    device, cores = hardware(results)
    if results is None:
        intro = f"`{CONFIG}` has no results in this directory, so nothing here was measured.\n"
    elif not runs:
        intro = f"`{CONFIG}` has no runs in sweep `{SWEEP}` (the notes' point).\n"
    else:
        intro = (f"The notes time one query against 2^20 CBF series of length 128 on a "
                 f"{NOTES['device']}; ours is sweep `{SWEEP}` of `{CONFIG}` on the {device} "
                 f"(OpenMP on {cores} cores). {NOTES['remarks']}"
                 + (f" **Our times are not comparable with the notes': {mismatch}.**"
                    if mismatch else "") + "\n")
    body = "\n".join([
        intro,
        "### The notes' steps beside ours\n",
        notes_table(at, comparable=not mismatch),
        "GCUPS: cells (n x n per query-series pair) / median time. 'ours / notes' below 1 means "
        "ours is faster.\n",
        "### Our whole ladder in sweep `notes`\n",
        ladder_table(shown) if shown else "No run at this point.\n",
        past_the_notes(at, shown),
        RULES,
        "### Figures\n",
        rc.md_figure_groups(ctx, FIGURE_GROUPS, "No DTW figure was drawn.\n")])
    return rc.Section(TITLE, body, claims(at, runs, mismatch, results,
                                          ctx.runs(CONFIG, sweep=LENGTH_SWEEP)))

"""The covariance section of REPORT.md (seed 001, the covariance lecture notes): the chunk_size
sweep of the tiled step with the notes' CGMA, the early exits beside the notes' savings, and our
ladder beside cuBLAS as context."""
import math

from .. import formats, selection
from .. import results as ladder_results
from .. import report_common as rc

from .data import DEFAULT, NOTES, chunk, settings_of

SEED, TITLE = "seed 001: covariance lecture notes", "Covariance chunk_size sweep"
TARGET = "Covariance chunk_size sweep (seed 001)"
SWEEP_CONFIG, LADDER_CONFIG, LADDER_SWEEP = "covariance-chunk-sweep", "covariance-paper", "ladder"
EXIT_CHUNK = NOTES["kernel"]["default_chunk_size"]  # the notes state none for the exits' savings
WITHIN = 2.0  # a saving reproduces within this factor of the notes'
NOISE = 0.05  # a saving under 5% of the time without the exit counts as none
SIZE_TOLERANCE = 0.05  # the notes round m = 202,599 to 200,000
WARP = 32
OTHER = {"block": "thread", "thread": "block"}
FIGURE_GROUPS = (("covariance_chunk_sweep", "chunk_size sweep of the tiled step"),
                 ("covariance_ladder", "Covariance ladder"))

# The notes' own words for each claim (verbatim) and where they stand: the heading of their
# section (a Korean one glossed), then the paragraph. The early exits' savings are not in the
# notes (their text marks both exits "optional early exit" without a time): those claims are
# ladder's checks.
PERFORMANCE = "Performance Considerations"
QUOTES = {
    "cgma": ("chunk size(타일 크기)가 커지면 커질수록 성능이 좋아진다.",
             f"{PERFORMANCE}, first paragraph"),
    "fourfold": ("chunk_size=2일 때보다 **4배 이상 더 높은 연산 효율**을 가지게 된다.",
                 f"{PERFORMANCE}, chunk_size = 8일 때 (when chunk_size = 8)"),
    "occupancy": ("chunk_size가 너무 커져 shared memory를 많이 차지하게 되면, 한 SM에 단 하나의 "
                  "block만 올라가는 상황이 발생할 수 있고, 이렇게 되면 warp 수도 급격히 "
                  "줄어들면서 오히려 전체 성능이 떨어질 수 있다.",
                  f"{PERFORMANCE}, second-to-last paragraph"),
    "symmetry": ("결과적으로 shared memory 타일을 이용해 global memory 접근을 줄이고, chunk 단위로 "
                 "데이터를 나눠 처리하면서, 대칭성까지 활용해 연산량을 절반 정도로 줄인 공분산 "
                 "커널이다.",
                 "CUDA Cov Matrix, 10. 공분산 결과를 global memory에 기록 (writing the covariance "
                 "to global memory), last paragraph"),
    "shared": ("이 방식 덕분에 global memory 왕복 횟수가 대폭 줄어들고 스레드들이 동일 데이터를 "
               "효율적으로 공유할 수 있어서 공분산 계산 같은 대규모 행렬 연산의 성능을 크게 끌어올릴 "
               "수 있게 된다.",
               "Tiling Example, last paragraph"),
}


def notes_claim(key, *fields, **more):
    """An rc.Claim of TARGET that quotes the notes' words QUOTES[key] and their place."""
    quote, place = QUOTES[key]
    return rc.Claim(TARGET, *fields, quote=quote, place=place, **more)


def ladder_claim(*fields, **more):
    """An rc.Claim of TARGET that is ladder's check: the notes do not state it."""
    return rc.Claim(TARGET, *fields, source=rc.FROM_LADDER, **more)


# ---- reading the sweep ----------------------------------------------------------------------

def settings(ctx):
    """{(block_exit, thread_exit): {chunk_size: run}}, as the chunk-sweep figure groups them."""
    return settings_of([r for r in ctx.runs(SWEEP_CONFIG) if chunk(r) is not None])


def fact(run, key):
    return ladder_results.number(run.facts.get(key))


def warps_per_sm(run):
    """Resident warps per SM: blocks x warps per block (a block of 4 threads takes a warp)."""
    blocks, threads = fact(run, "blocks_per_sm"), fact(run, "threads_per_block")
    return blocks * math.ceil(threads / WARP) if blocks and threads else None


def cgma(chunk):
    """The notes' flops per global-memory byte of a tile (a multiply-add is one flop)."""
    return chunk / 8


def not_comparable(ctx, default):
    """Why our times cannot stand beside the notes' ('' when they can): the quick scale, or
    a size other than the notes' 2475 features x ~200,000 entries."""
    data = next((r.data for r in default.values() if r.data), {})
    m, n = ladder_results.number(data.get("m")), ladder_results.number(data.get("n"))
    size = f"m={m:g}, n={n:g}" if m and n else "an unknown size"
    if ctx.quick:
        return (f"quick scale: {size}, the notes' m~{NOTES['data']['m']:,}, so times are not "
                "comparable")
    if m and n and (n != NOTES["data"]["n"]
                    or abs(m / NOTES["data"]["m"] - 1) > SIZE_TOLERANCE):
        return f"this sweep has {size}, the notes m~{NOTES['data']['m']:,}, n={NOTES['data']['n']}"
    return ""


def doublings(default):
    """[(chunk, next chunk, time gain (an rc.Ratio), blocks/SM at each)] between consecutive
    timed chunks."""
    timed = [(c, default[c]) for c in sorted(default) if default[c].seconds is not None]
    return [(a, b, rc.run_ratio(ra, rb), fact(ra, "blocks_per_sm"), fact(rb, "blocks_per_sm"))
            for (a, ra), (b, rb) in zip(timed, timed[1:])]


def steps_text(steps):
    """'2->4: 6.77x (95% CI 6.7x-6.8x) (32 blocks/SM), 8->16: 1.57x (...) (32->8 blocks/SM)'."""
    def blocks(before, after):
        return f"{before:g}" if before == after else f"{before:g}->{after:g}"
    return ", ".join(f"{a:g}->{b:g}: {rc.fmt_measured(g)} ({blocks(x, y)} blocks/SM)"
                     for a, b, g, x, y in steps)


def exit_runs(by_setting, chunk, which, other_state="on"):
    """[run with the `which` exit ('block' or 'thread') on, run with it off] at `chunk`, the
    other exit `other_state`; None where there is no such run."""
    return [by_setting.get((state, other_state) if which == "block" else (other_state, state),
                           {}).get(chunk) for state in ("on", "off")]


def saving(by_setting, chunk, which, other_state="on"):
    """(seconds the `which` exit ('block' or 'thread') saves at `chunk`, seconds without it,
    why not) with the other exit `other_state`: the time with it off minus with it on."""
    runs = exit_runs(by_setting, chunk, which, other_state)
    t_on, t_off = (selection.seconds(r) for r in runs)
    if t_on is None or t_off is None:
        missing = runs[0] if t_on is None else runs[1]
        return None, None, (f"chunk {chunk:g}, {which} exit {'on' if t_on is None else 'off'}: "
                            f"{rc.not_run_why(missing)}")
    return t_off - t_on, t_off, ""


def saving_text(by_setting, chunk, which, other_state="on"):
    saved, without, _why = saving(by_setting, chunk, which, other_state)
    if saved is None:
        return "-"
    return f"{round(saved * 1000)} ms ({round(100 * saved / without)}%)"


# ---- claims ---------------------------------------------------------------------------------

def no_steps_why(default):
    """Why a claim on the chunk doublings cannot be judged."""
    untimed = [r for r in default.values() if r.seconds is None]
    if not default:
        return f"{SWEEP_CONFIG}: not in the results"
    if untimed:
        return f"chunk {chunk(untimed[0]):g}: {rc.not_run_why(untimed[0])}"
    return "no two timed chunk sizes of the right kind"


def cgma_claim(default):
    """A direction claim on every chunk doubling that keeps resident blocks per SM."""
    claim = "larger chunk_size (higher CGMA) is faster while resident blocks per SM hold"
    seed = "chunk 2 -> 8: CGMA 0.25 -> 1, faster"
    steps = [s for s in doublings(default) if s[3] is not None and s[3] == s[4]]
    if not steps:
        return notes_claim("cgma", claim, seed, "-", rc.NOT_MEASURED, no_steps_why(default))
    judged = rc.judge("direction", [g for _a, _b, g, _x, _y in steps])
    return notes_claim("cgma", claim, seed, steps_text(steps), judged.verdict, judged.note,
                       rule=judged.rule, thresholds=judged.thresholds)


def occupancy_claim(default):
    """The reuse against occupancy trade-off: a direction claim that each doubling cutting the
    resident blocks per SM is slower (the time after over the time before)."""
    claim = "larger tiles cut resident blocks per SM (occupancy), which can outweigh the reuse"
    seed = "trade-off: reuse vs occupancy"
    steps = [s for s in doublings(default) if s[3] is not None and s[4] is not None]
    cut = [s[2] for s in steps if s[4] < s[3]]
    if not cut:
        return notes_claim("occupancy", claim, seed, steps_text(steps) or "-", rc.NOT_MEASURED,
                           no_steps_why(default))

    judged = rc.judge("direction", [rc.reciprocal(g) for g in cut])
    verdict, crossing = judged.verdict, judged.note
    why = "" if verdict == rc.REPRODUCES else occupancy_why(default)
    return notes_claim("occupancy", claim, seed, steps_text(steps), verdict,
                       "; ".join(w for w in (crossing, why) if w), rule=judged.rule,
                       thresholds=judged.thresholds)


def occupancy_why(default):
    """What residency looks like here, from the runs' facts: warps per SM at each chunk (the
    notes' concern) and the largest tile's shared memory (their cause)."""
    warps = {c: warps_per_sm(r) for c, r in sorted(default.items()) if warps_per_sm(r)}
    smem = fact(default[max(default)], "smem_bytes_per_block")
    text = ("fewer but larger blocks: resident warps per SM "
            + ", ".join(f"{w:g}" for w in warps.values()) + " at chunk "
            + ", ".join(f"{c:g}" for c in warps))
    if smem is not None:
        text += f"; the largest tile takes {bytes_text(smem)} of shared memory per block"
    return text


def bytes_text(n):
    return f"{n / 1024:g} KB" if n >= 1024 else f"{n:g} B"


def fourfold_claim(default):
    """The notes' chunk_size 8 against 2: four times the CGMA, "more than 4x the compute
    efficiency", judged on throughput: the same flops, so the time at 2 over the time at 8."""
    low, high = sorted(float(c) for c in NOTES["cgma"]["values"])
    factor = cgma(high) / cgma(low)
    claim = (f"chunk_size {high:g} has at least {factor:g}x the compute efficiency of "
             f"chunk_size {low:g}")
    seed = f">= {factor:g}x (CGMA {cgma(low):g} -> {cgma(high):g} flop/byte)"
    small, large = default.get(low), default.get(high)
    gain = rc.run_ratio(small, large)
    if gain is None:
        missing = small if selection.seconds(small) is None else large
        return notes_claim("fourfold", claim, seed, "-", rc.NOT_MEASURED,
                           f"chunk {low if missing is small else high:g}: "
                           f"{rc.not_run_why(missing)}")
    judged = rc.judge("at least", [gain], factor)
    verdict, crossing = judged.verdict, judged.note
    ours = (f"{rc.fmt_measured(gain)} ({rc.time_text(small, formats.format_time)} -> "
            f"{rc.time_text(large, formats.format_time)})")
    return notes_claim("fourfold", claim, seed, ours, verdict, crossing, seed_x=factor,
                       ours_x=(gain,), rule=judged.rule, thresholds=judged.thresholds)


def symmetry_claim(by_setting):
    """The notes' kernel uses the symmetry (both exits: the lower triangle only) for about
    half the work, judged on the time with neither exit over with both at the notes' chunk_size:
    about 2x."""
    claim = "using the symmetry (both early exits) about halves the work"
    seed = "about half the work (~2x)"
    neither, both = (by_setting.get(s, {}).get(EXIT_CHUNK) for s in (("off", "off"), DEFAULT))
    gain = rc.run_ratio(neither, both)
    if gain is None:
        missing = neither if selection.seconds(neither) is None else both
        return notes_claim("symmetry", claim, seed, "-", rc.NOT_MEASURED,
                           f"chunk {EXIT_CHUNK:g}, both exits "
                           f"{'off' if missing is neither else 'on'}: {rc.not_run_why(missing)}")

    judged = rc.judge("factor", [gain], 2.0)
    verdict, crossing = judged.verdict, judged.note
    ours = (f"{rc.fmt_measured(gain)} at chunk {EXIT_CHUNK} (neither exit "
            f"{rc.time_text(neither, formats.format_time)}, both "
            f"{rc.time_text(both, formats.format_time)})")
    return notes_claim("symmetry", claim, seed, ours, verdict, crossing, seed_x=2.0,
                       ours_x=(gain,), rule=judged.rule, thresholds=judged.thresholds)


def shared_claim(ctx, default):
    """Shared-memory tiles against global-memory reads of the same lower triangle: the
    ladder's symmetric step over its tiled step, and over the sweep's tiled step at the
    notes' chunk_size where the ladder's runs another. The notes give no factor: judged on
    the direction, as RULES says."""
    claim = "shared-memory tiles make the covariance faster than global-memory reads"
    seed = "much faster (no factor)"
    shown = {r.variant: r for r, _ in
             selection.ladder_rows(ctx.runs(LADDER_CONFIG, sweep=LADDER_SWEEP))}
    symmetric, tiled = shown.get("symmetric"), [shown.get("tiled")]
    if tiled[0] is not None and chunk(tiled[0]) != EXIT_CHUNK:
        tiled.append(default.get(EXIT_CHUNK))
    gains = [rc.run_ratio(symmetric, run) for run in tiled]
    if None in gains:
        missing = (symmetric if selection.seconds(symmetric) is None
                   else next(run for run, g in zip(tiled, gains) if g is None))
        where = (f"{LADDER_CONFIG}, symmetric" if missing is symmetric else
                 f"{LADDER_CONFIG}, tiled" if missing is tiled[0] else
                 f"{SWEEP_CONFIG}, chunk {EXIT_CHUNK}")
        return notes_claim("shared", claim, seed, "-", rc.NOT_MEASURED,
                           f"{where}: {rc.not_run_why(missing)}")
    judged = rc.judge("direction", gains)
    verdict, crossing = judged.verdict, judged.note
    ours = "; ".join(f"chunk_size {run.params.get('chunk_size', '?')}: {rc.fmt_measured(g)} "
                     f"(tiled {rc.time_text(run, formats.format_time)})"
                     for run, g in zip(tiled, gains))
    ours += f"; symmetric {rc.time_text(symmetric, formats.format_time)}"
    why = "" if verdict == rc.REPRODUCES or len(tiled) < 2 else (
        f"the ladder's tiled step runs chunk_size {chunk(tiled[0]):g}; the notes' kernel's "
        f"chunk_size {EXIT_CHUNK} is {SWEEP_CONFIG}'s")
    return notes_claim("shared", claim, seed, ours, verdict,
                       "; ".join(w for w in (crossing, why) if w), rule=judged.rule,
                       thresholds=judged.thresholds)


def exit_claim(by_setting, which, mismatch):
    """The saving of one early exit credited by the textbook's code comments, judged as RULES
    says: ladder's check, since the notes' text shows the exit but states no saving."""
    notes = NOTES["early_exits"][which]
    claim = f"{which}-level early exit saves ~{notes['saves_ms']} ms"
    saved, without, why = saving(by_setting, EXIT_CHUNK, which)
    # The time with the exit over without it, r: it saves (1 - r) of the time without it.
    kept = rc.run_ratio(*exit_runs(by_setting, EXIT_CHUNK, which)) if saved is not None else None
    ours = "-" if saved is None else (f"{-round(saved * 1000):+d} ms at chunk {EXIT_CHUNK} "
                                      f"(time with it / without: {rc.fmt_measured(kept)})")
    if saved is None or mismatch:
        return ladder_claim(claim, notes["text"], ours, rc.NOT_MEASURED, why or mismatch)

    def rule(rs):
        ms = (1 - rs[0]) * without * 1000
        if rc.verdict_of_ratio(ms, notes["saves_ms"], WITHIN) == rc.REPRODUCES:
            return rc.REPRODUCES
        return rc.PARTLY if 1 - rs[0] >= NOISE else rc.DOES_NOT
    verdict, crossing = rc.decide(rule, [kept], [1 - NOISE] + [
        1 - notes["saves_ms"] * f / (without * 1000) for f in (1 / WITHIN, WITHIN)])
    if verdict == rc.REPRODUCES:
        return ladder_claim(claim, notes["text"], ours, verdict)
    other, _without, _why = saving(by_setting, EXIT_CHUNK, which, other_state="off")
    why = [crossing, f"with the {OTHER[which]} exit off it saves {other * 1000:.0f} ms"
           if other is not None else "",
           f"our chunk-{EXIT_CHUNK} kernel takes {without * 1000:.0f} ms without it; "
           f"the notes state no GPU or size"]
    if which == "thread":  # why the saving vanishes beside the block exit: no work is left
        why.insert(1, "with the block exit on, only diagonal tiles hold threads above the "
                      "diagonal")
    return ladder_claim(claim, notes["text"], ours, verdict, "; ".join(w for w in why if w))


def claims(ctx, by_setting, mismatch):
    default = by_setting.get(DEFAULT, {})
    return [cgma_claim(default), fourfold_claim(default), occupancy_claim(default),
            symmetry_claim(by_setting), shared_claim(ctx, default),
            exit_claim(by_setting, "block", mismatch), exit_claim(by_setting, "thread", mismatch)]


# ---- tables ---------------------------------------------------------------------------------

def chunk_table(default):
    rows, previous = [], None
    for c in sorted(default):
        run = default[c]
        smem = fact(run, "smem_bytes_per_block")
        counts = [fact(run, "blocks_per_sm"), fact(run, "threads_per_block"), warps_per_sm(run)]
        rows.append([f"{c:g}", rc.time_text(run, formats.format_time), selection.rate_text(run) or "-",
                     f"{cgma(c):g}", *("-" if v is None else f"{v:g}" for v in counts),
                     "-" if smem is None else bytes_text(smem),
                     rc.fmt_ratio(rc.ratio(previous.seconds, run.seconds)) if previous else "-"])
        previous = run
    return rc.md_table(["chunk_size", "median time", "GFLOP/s", "CGMA (notes: chunk/8)",
                        "resident blocks/SM", "threads/block", "resident warps/SM",
                        "shared memory/block", "gain over the chunk above"], rows)


def exits_table(by_setting, chunks):
    rows = [[f"{c:g}"] + [saving_text(by_setting, c, which, state)
                          for which in ("block", "thread") for state in ("on", "off")]
            for c in chunks]
    notes = NOTES["early_exits"]
    rows.append(["notes (chunk_size not stated)", f"{notes['block']['saves_ms']} ms",
                 "-", f"{notes['thread']['saves_ms']} ms", "-"])
    return rc.md_table(["chunk_size", "block exit saves (thread exit on)",
                        "block exit saves (thread exit off)", "thread exit saves (block exit on)",
                        "thread exit saves (block exit off)"], rows)


def ladder_section(ctx):
    """Our ladder beside the fastest peer of each precision: context (the notes give none)."""
    shown = [run for run, _ in selection.ladder_rows(ctx.runs(LADDER_CONFIG, sweep=LADDER_SWEEP))]
    if not shown:
        return f"`{LADDER_CONFIG}` has no runs in sweep `{LADDER_SWEEP}` here.\n"
    peers = selection.best_peers(shown, by_metric=True)

    def versus(run):
        peer = selection.peer_of(peers, run)
        speed = rc.ratio(peer.seconds, run.seconds) if peer and peer is not run else None
        return f"{rc.fmt_ratio(speed)} {selection.step_label(peer)}" if speed else "-"
    rows = [[run.step, f"{selection.step_label(run)} (`{run.variant}`)",
             run.role, run.precision or "fp32", rc.time_text(run, formats.format_time),
             selection.rate_text(run) or "-", versus(run)] for run in shown]
    table = rc.md_table(["step", "variant", "role", "precision", "median time",
                         "GFLOP/s, % of limit", "speed vs the fastest peer of its precision"],
                        rows)
    best = [fastest_text(shown, precision, peer) for precision, peer in peers.items()]
    return (table + "\nSpeed: the peer's median time over ours; a tf32x3 or fp16x3 step "
            "(FP32-accurate) is held against the fp32 peer, an fp16 step against the fp16 peer "
            "only (the library's FP16 GEMM on the same scaled halves), and a peer's precision is "
            "what the library ran. Our fastest step of each precision: "
            + ("; ".join(b for b in best if b) or "none timed beside a peer") + ".\n")


def fastest_text(shown, precision, peer):
    """'fp32 (tf32x3): 3xTF32 wgmma 12 ms, 1.20x the speed of cuBLAS SSYRK (14 ms)': our
    fastest step held against `peer` (an fp32 peer takes the tf32x3 steps too, named in
    brackets when the fastest), '' when none is timed."""
    steps = [r for r in shown if not r.is_peer and selection.peer_precision(r) == precision
             and r.seconds is not None]
    if not steps or not peer.seconds:
        return ""
    top = min(steps, key=selection.seconds)
    own = f" ({top.precision})" if top.precision not in (None, precision) else ""
    return (f"{precision}{own}: {selection.step_label(top)} {rc.fmt_seconds(top.seconds)}, "
            f"{rc.fmt_ratio(peer.seconds / top.seconds)} the speed of "
            f"{selection.step_label(peer)} ({rc.fmt_seconds(peer.seconds)})")


# ---- the section ----------------------------------------------------------------------------

RULES = f"""\
What is measured (the rules are at the top of the report). CGMA: a **direction** claim on every
chunk doubling that keeps the resident blocks per SM. Chunk 8 against chunk 2 (the notes' "more
than 4x the compute efficiency", their CGMA 1 over 0.25): an **at least** claim (4x) on
throughput, the time at 2 over the time at 8. Occupancy: a **direction** claim that each doubling
which cuts the resident blocks per SM is slower (the time after over the time before). The
symmetry ("about half the work"): a **factor** claim (2x) on the time with neither early exit
over with both, at chunk_size {EXIT_CHUNK}. Shared memory against global memory (the notes give
no factor): a **direction** claim on the ladder's symmetric step (the same triangle, no tiles)
over its tiled step, and over the tiled step at the notes' chunk_size {EXIT_CHUNK} where the
ladder's runs another. Each early exit's saving (credited by the textbook's code comments, not by
the notes' text: a check of ladder's, listed apart from the notes' claims) is judged at
chunk_size {EXIT_CHUNK}, the notes' kernel's default, with the other exit on as in their kernel:
it reproduces within {WITHIN:g}x of that saving, partly when it saves at least {NOISE:.0%} of the
time without it, else it does not; not measured at the quick scale, whose sizes are smaller.
"""


def intro(ctx, mismatch):
    results = ctx.results(SWEEP_CONFIG)
    if results is None:
        return (f"`{SWEEP_CONFIG}` has no results in this directory, so the sweep was not "
                "measured.\n")
    device = results.device_name or "host without a GPU"
    return (f"The notes compute C = D^T D / m with chunk_size x chunk_size shared-memory tiles; "
            f"{NOTES['data']['text']}. They give the CGMA of a tile (chunk_size / 8 flop/byte) "
            f"and argue: {NOTES['statements']['occupancy_trade_off']} The early exits' savings "
            f"come from the textbook's code ({NOTES['early_exits']['conditions']}). "
            f"{NOTES['not_given']} Ours: the tiled step of `{SWEEP_CONFIG}` on the {device}, "
            "each early exit on and off."
            + (f" **Our times are not comparable with the notes': {mismatch}.**\n" if mismatch
               else "\n"))


def section(ctx):
    by_setting = settings(ctx)
    default = by_setting.get(DEFAULT, {})
    mismatch = not_comparable(ctx, default)
    chunks = sorted({c for at in by_setting.values() for c in at})
    body = "\n".join([
        intro(ctx, mismatch),
        "### chunk_size sweep, both early exits on\n",
        chunk_table(default) if default else "No run with both exits on.\n",
        "CGMA counts a multiply-add as one flop, GFLOP/s two. Resident blocks per SM are the "
        "occupancy calculator's, as the run reports them; resident warps = blocks x "
        "ceil(threads / 32).\n",
        "### The early exits\n",
        "Time saved = median time with the exit off minus with it on (percent of the time "
        "with it off).\n",
        exits_table(by_setting, chunks) if chunks else "No run of the sweep.\n",
        RULES,
        "### The ladder beside cuBLAS (context, not a claim)\n",
        ladder_section(ctx),
        "### Figures\n",
        rc.md_figure_groups(ctx, FIGURE_GROUPS, "No covariance figure was drawn.\n")])
    return rc.Section(TITLE, body, claims(ctx, by_setting, mismatch))

"""The TWED section of REPORT.md (seed 002: G. Wright 2020, cuTWED): Fig. 9a, 9b and 10 (config
twed-paper) and Table 2 (twed-validation), the seed's numbers beside ours and cuTWED run here."""
from .. import selection
from .. import results as ladder_results
from .. import report_common as rc

from . import data as tp

SEED, TITLE = "seed 002: Wright 2020, cuTWED", "Time Warp Edit Distance (TWED)"
PAPER, VALIDATION = "twed-paper", "twed-validation"
# A part of MNIST's all-queries set (some queries against every series), scaled by its pairs.
MNIST_ALL = "twed-mnist-all"
# twed.c on one pair of Pseudo Periodic, whose full matrix needs a host of 256 GiB.
PSEUDO_PAIR = "twed-pseudo-periodic-pair"
SET_CONFIGS = (VALIDATION, MNIST_ALL, PSEUDO_PAIR)  # the configs of Table 2's sets
T9A, T9B, T10, T2 = "TWED Fig. 9a", "TWED Fig. 9b", "TWED Fig. 10", "TWED Table 2"
SEED_HW = f"a {tp.NOTES['device']} against one core of a {tp.NOTES['cpu']}"

# The judge of ladder's launch check: the time per diagonal within this factor of the seed's.
SLOWER_OK = rc.FACTOR
# Launch-bound time grows with the 2N+1 diagonals (2x per doubling of N), compute-bound time
# with the N^2 cells (4x): growth up to this means the launches dominate.
LAUNCH_BOUND_GROWTH = 2.5
# "Would roughly double": the whole matrix over the triangle, a factor of 2.
TRIANGLE_GAIN = 2.0
# The large-N times of Table 3 judged as claims (13.863 s and 214.22 s, Fig. 10a); the others
# are shown beside ours.
QUOTED_LARGE = (262144, 1048576)
# "About 1E-14 different": the seed's figure for cuTWED's FP64 distances against the sequential
# reference (judged on the largest relative difference, by the "at most" rule).
MATCH_REL = 1e-14
FIGURE_GROUPS = (("twed_paper", "Fig. 9a, 9b and 10 beside ours: (a) wall time, (b) speedup "
                                "over the sequential reference, (c) large N"),
                 ("twed_table2", "Table 2 beside ours"))
# Where the seed states each claim: its words (verbatim: the PDF text's ligatures, hyphens and
# extracted spellings kept, whitespace collapsed) and where they stand. Table 3's caption and
# header name the times (its cells give each claim's own number, see fig9b and fig10); Table
# 2's cells stand in seed.json. A check of ladder's own has neither.
TABLE3 = "Table 3. Raw Time to Solution N cuTWED cuTWED dev twedc Speedup"
SAID = {
    "twed_c": dict(quote=TABLE3, place="Table 3, twedc column (N = 1024 .. 65536); Fig. 9a"),
    "cutwed": dict(quote=TABLE3, place="Table 3, cuTWED column (N = 1024 .. 65536); Fig. 9a"),
    "factor_two": dict(quote="Timings presenting one to two orders of magnitude speedups ... are "
                             "known to have at least another factor of two left in optimizations.",
                       place="Summary"),
    "single": dict(quote="While single precision will obviously reduce storage by half, it had "
                         "marginal performance bene\ufb01t otherwise.",
                   place="Performance, Basic Methodology and Results"),
    "dimension": dict(quote="The use of RN didn\u2019t really have any practical time "
                            "di\ufb00erence in either implementation.",
                      place="Performance, Higher Dimensions"),
    "trend": dict(quote="Over 150x speedup and still climbing when the host code is no longer "
                        "able to run.", place="Performance, on Fig. 9b (Relative Speedup)"),
    "older": dict(quote="more typical of personal computers than a research facility, great "
                        "speedups, above a single order of magnitude are attained.",
                  place="Performance, first paragraph (footnote 14: i7-2600K CPU with TitanZ "
                        "Kepler GPU); Fig. 9b"),
    "transfer": dict(quote="From this we can also extrapolate a practical measure of host to "
                           "device transfer cost overhead, which is trivial",
                     place="Performance, Basic Methodology and Results (footnote 15); Fig. 10b"),
    "match": dict(quote="In most cases they match to the bit, but occasionally they are about "
                        "1E-14 di\ufb00erent in RMSE, which is consistent with the aggregated use "
                        "of optimized pow/sqrt calls on di\ufb00erent chips.",
                  place="Performance, Validation using Real Datasets"),
    "triangle": dict(quote="When this optimization is added to the CUDA code I would expect the "
                           "above batch time speedups to roughly double.",
                     place="Performance, Validation using Real Datasets: the note under Table 2"),
    "ladder": dict(quote="", place="", source=rc.FROM_LADDER),
}
QUICK_WHY = "quick scale: our sizes are smaller than the seed's, so absolute times are not judged"
# The seed's older desktop (its footnote 14) and the speedup it says was reached there.
OLDER_GPU, OLDER_CPU, OLDER_X = "GTX Titan Z", "i7-2600K", 10.0
# The largest N at which peers/twed/cutwed.py times cuTWED's host call (its HOST_MAX_N).
HOST_MAX_N = 262144
# Whose speedup a Fig. 9b or Table 2 claim is judged on. The seed's speedups are its code's, so
# its claims are judged on cuTWED run here; our best FP64 GPU step's at the same point is a check
# of ladder's own (its words start with OURS), kept beside it but never counted.
CUTWED, OURS = "cuTWED here", "ours (best GPU step)"
RULES = (
    "What is measured (the rules are at the top of the report). *Times* (twed.c, cuTWED, Fig. "
    f"10) are **absolute** claims: the seed ran {SEED_HW}. *Speedups* (Fig. 9b, Table 2) are "
    "**factor** claims on cuTWED, whose speedups they are, run here: our sequential reference "
    "over cuTWED's FP64 time at the same size (on a validation set, its batch point). Our best "
    "FP64 GPU step's speedup at the same point is listed apart, a check of ladder's own that is "
    "not counted. A speedup is a GPU-over-CPU ratio of two machines: where it falls short, the "
    "why gives both times beside the seed's (see the ours/seed columns of Fig. 9a). *Trend*: a "
    "**direction** claim on each N's speedup over the one before. *cuTWED's factor of two left*: "
    "an **at least** claim (2x) on cuTWED run here over our best FP64 GPU step, on the same GPU. "
    "*Triangle*: a **factor** claim (2x) on cuTWED's time on the whole matrix (its batch mode) "
    "over that on the triangle (its triangle option), on every set with both (our best step "
    "apart). *Single precision*: a **same** claim on cuTWED's FP64 time over its FP32 time at "
    f"each N. *R^N*: a **same** claim on cuTWED's time in each dimension of sweep `{tp.DIM}` "
    "over its time in R^1, at one N (our fastest FP64 GPU step's apart). *Transfer "
    "overhead* (Fig. 10b): a **same** claim on the time of cuTWED's host call (twed, the "
    "copies of the inputs included) over its device call's (twed_dev) at each N. *cuTWED's "
    "distances*: an **at most** claim (the seed's 1e-14) on the largest relative difference of "
    "cuTWED's FP64 distances from our sequential reference (twed.c's algorithm) over the "
    "validation sets. *Launch overhead* (a check of ladder's, not counted): "
    f"our itwed at its smallest N within {SLOWER_OK:g}x of the seed's time per diagonal, and at "
    f"most {LAUNCH_BOUND_GROWTH:g}x as long at 2N (a launch-bound time doubles with the "
    "diagonals, a compute-bound one quadruples with the cells).\n")


# ---- runs ------------------------------------------------------------------------------------

def all_runs(ctx, config):
    """Ours and cuTWED's runs of a config, as the figures see them (peers folded in)."""
    return ctx.runs(config) + [r for results in ctx.peer_results(config) for r in results.runs]


def pair_view(runs):
    """{name: {N: run}} of the single-pair sweep, and 'ns': our sizes (not cuTWED's)."""
    small = [r for r in tp.pair_mode(runs) if r.sweep != tp.LARGE]
    view = {name: tp.variant_runs(small, name) for name in ("seq_full", "seq_itwed", "itwed")}
    view.update(best=tp.best_gpu(small), peer=tp.peer_runs(small, "fp64"),
                peer32=tp.peer_runs(small, "fp32"), runs=small, dim=tp.dim_runs(runs),
                ns=sorted({tp.n_of(r) for r in small if tp.n_of(r) and not r.is_peer}))
    return view


def gpu_why(runs, n=None, missing="not in the results"):
    """Why none of our FP64 GPU steps (at N) has a time: the first one's status ('skipped: no
    CUDA device'); `missing` when there is no such step, or when one of them was timed."""
    at = [r for r in tp.ours_gpu(runs) if n is None or tp.n_of(r) == n]
    if not at or any(r.seconds for r in at):
        return missing
    return rc.not_run_why(at[0])


def none_timed(name, by_n):
    """'itwed: skipped: no CUDA device' from the first of a variant's runs {N: run}."""
    return f"{name}: {rc.not_run_why(next(iter(by_n.values()), None))}"


def reference(view, n):
    """(our sequential reference run at N, its name): seq_full (twed.c's full matrix) where
    it ran, else seq_itwed (linear memory, faster than seq_full wherever both ran, so the
    speedup over it is a lower bound)."""
    full = view["seq_full"].get(n)
    if selection.seconds(full) or not selection.seconds(view["seq_itwed"].get(n)):
        return full, "seq_full"
    return view["seq_itwed"][n], "seq_itwed"


def peer_missing(ctx, config):
    """Why cuTWED has no results on a config ('' when it has): 'cuTWED was not run here
    (cutwed not installed)', its state in the manifest, else that its results are missing."""
    if ctx.peer_results(config):
        return ""
    states = [f"{p.get('peer', '?')} {p.get('state', '?')}" for p in ctx.manifest.get("peers", [])
              if p.get("config") == config and p.get("state") not in ("ran", "reused")]
    return f"cuTWED was not run here ({'; '.join(states) or f'peer results for {config} missing'})"


def missing_config(ctx, name):
    """Why a config has no results ('' when it has)."""
    if ctx.results(name) is not None:
        return ""
    c = next((c for c in ctx.manifest.get("configs", []) if c.get("name") == name), None)
    if c is None:
        return f"config {name} is not in this reproduction"
    return f"config {name}: {c.get('state', '?')}" + (f" ({c['why']})" if c.get("why") else "")


# ---- text ------------------------------------------------------------------------------------

def fmt_n(n):
    return f"{n:,.0f}"


def cell(run, scale=1.0):
    """A run's median time (times `scale`, for a part of a set), or what happened to it ('-'
    when there is no such run)."""
    s = selection.seconds(run)
    return rc.fmt_seconds(s * scale) if s else ((run.status or "?") if run else "-")


def named(run, scale=1.0):
    """'wavefront: 15.3 ms' for a best step, its status otherwise."""
    if not selection.seconds(run):
        return cell(run)
    return f"{selection.step_label(run, run.variant)}: {cell(run, scale)}"


def over(run, seconds):
    """A run's time over `seconds`: '0.645x', '-' when either is missing."""
    return rc.fmt_ratio(rc.ratio(selection.seconds(run), seconds))


def span(points, unit=rc.fmt_seconds):
    """'30.1 ms .. 130 s (N = 1,024 .. 65,536)' of [(N, value)]."""
    if not points:
        return "-"
    (n0, v0), (n1, v1) = points[0], points[-1]
    if n0 == n1:
        return f"{unit(v0)} (N = {fmt_n(n0)})"
    return f"{unit(v0)} .. {unit(v1)} (N = {fmt_n(n0)} .. {fmt_n(n1)})"


def ratio_span(ratios):
    """'0.645x .. 2.1x': the least and the greatest of ratios, each with its interval."""
    lo, hi = min(ratios), max(ratios)
    return rc.fmt_measured(lo) if lo == hi else f"{rc.fmt_measured(lo)} .. {rc.fmt_measured(hi)}"


def untimed_notes(runs, names):
    """A line per (variant, reason) of the untimed runs of the named variants, with their N."""
    seen = {}
    for r in runs:
        if r.variant in names and not r.seconds and tp.n_of(r):
            seen.setdefault((r.variant, rc.not_run_why(r)), []).append(fmt_n(tp.n_of(r)))
    return "".join(f"- {name} at N = {', '.join(ns)}: {why}.\n" for (name, why), ns in seen.items())


def peer_note(ctx):
    """Whether cuTWED ran here, and on which device."""
    states = ctx.peer_states("twed")
    if not states:
        return ("cuTWED (peers/twed/cutwed.py) was not run in this reproduction: its columns are "
                "empty and the claims that need it are not measured.\n")
    # Each config's state: one peer can run on one config and not on another.
    said = dict.fromkeys(f"`{p.get('peer', '?')}` on {p.get('config', '?')} {p.get('state', '?')}"
                         + (f" ({p['why']})" if p.get("why") else "")
                         for p in ctx.peer_entries("twed"))
    devices = {res.device_name for c in (PAPER, *SET_CONFIGS) for res in ctx.peer_results(c)}
    devices -= {None, ""}
    on = f", on {', '.join(sorted(devices))}" if devices else ""
    return (f"cuTWED 2.0 (peers/twed/cutwed.py): {'; '.join(said)}{on}. It is timed with the wall "
            "clock around each call of its device-array API (twed_dev: its allocations and "
            "launches included, the copies of the inputs not), and of its host call (twed: the "
            "copies included) on single pairs, for Fig. 10b.\n")


# ---- verdicts --------------------------------------------------------------------------------

def hardware(ctx, kind):
    """(ours, the seed's) name of the hardware a time was taken on: kind 'gpu' or 'cpu'."""
    results = ctx.results(PAPER)
    if kind == "cpu":
        return (results.host.get("cpu", "") if results else ""), tp.NOTES["cpu"]
    return (results.device_name if results else ""), tp.NOTES["device"]


def absolute_claim(ctx, target, claim, seed, ours, ratios, note, missing, said, kind="gpu"):
    """A claim on an absolute time or rate on the seed's `kind` of hardware ('gpu', 'cpu'), by
    the absolute rule on `ratios` (ours over the seed's): `missing` says why when there is
    nothing of ours to judge; at quick scale the seed's sizes are not run. `note` follows the
    rule's; `said`: the claim's quote, place (and source)."""
    if ours is None:
        return rc.Claim(target, claim, seed, "-", rc.NOT_MEASURED,
                        f"quick scale: {missing}" if ctx.quick else missing, **said)
    if ctx.quick:
        return rc.Claim(target, claim, seed, ours, rc.NOT_MEASURED, QUICK_WHY, **said)
    judged = rc.judge_absolute(ratios, *hardware(ctx, kind))
    return rc.Claim(target, claim, seed, ours, judged.verdict,
                    "; ".join(w for w in (judged.note, note) if w), rule=judged.rule,
                    thresholds=judged.thresholds, **said)


def times_claim(ctx, target, claim, triples, why, missing, said, kind="gpu"):
    """[(N, seed s, our run)] by the absolute rule, at every N where both are."""
    both = [(n, a, run) for n, a, run in triples if a and selection.seconds(run)]
    ratios = [rc.run_seconds(run, 1 / a) for _, a, run in both]  # ours over the seed's
    ours = (f"{span([(n, selection.seconds(run)) for n, _, run in both])}; ours/seed "
            f"{ratio_span(ratios)}" if both else None)
    return absolute_claim(ctx, target, claim, span([(n, a) for n, a, _ in triples if a]), ours,
                          ratios, why, missing, said, kind)


# ---- TWED Fig. 9a: one pair's wall time ------------------------------------------------------

def fig9a(ctx, view, seed, missing):
    ns = sorted(set(view["ns"]) | {n for n, p in seed.items() if p["twed_c_s"]})  # Fig. 9a's N
    rows = []
    for n in ns:
        p = seed.get(n, {})
        seq, itw, best, peer = (view[k].get(n) for k in ("seq_full", "itwed", "best", "peer"))
        rows.append([fmt_n(n), rc.fmt_seconds(p.get("twed_c_s")), cell(seq),
                     over(seq, p.get("twed_c_s")), rc.fmt_seconds(p.get("cutwed_s")), cell(itw),
                     over(itw, p.get("cutwed_s")), cell(peer), over(peer, p.get("cutwed_s")),
                     named(best) if best else gpu_why(view["runs"], n, "-"),
                     over(peer, selection.seconds(best))])
    body = ("### TWED Fig. 9a: one pair's wall time against N\n\n"
            "The seed's Table 3 (the numbers of Fig. 9a): twed.c, Marteau's sequential C, "
            "and cuTWED, one launch per anti-diagonal, FP64, N = nA = nB. Ours: seq_full "
            "(twed.c's full DP matrix), itwed (cuTWED's structure: a launch per diagonal), "
            "the fastest correct FP64 GPU step at each N, and cuTWED run here.\n\n"
            + rc.md_table(["N", "seed: twed.c", "ours: seq_full", "ours/seed",
                           "seed: cuTWED (P100)", "ours: itwed", "ours/seed", "cuTWED here",
                           "here/seed", "ours: best FP64 GPU step", "cuTWED here / best"], rows)
            + "\n" + untimed_notes(view["runs"], ("seq_full", "itwed"))
            + dimension_table(view["dim"]))

    def times(claim, key, name, why, not_timed):
        triples = [(n, seed.get(n, {}).get(key), view[name].get(n)) for n in ns]
        return times_claim(ctx, T9A, claim, triples, why, missing or not_timed,
                           SAID["twed_c" if key == "twed_c_s" else "cutwed"],
                           "cpu" if key == "twed_c_s" else "gpu")
    return body, [
        times("twed.c's time for one pair (one CPU core)", "twed_c_s", "seq_full",
              "ours: seq_full on one core of this host", none_timed("seq_full", view["seq_full"])),
        times("cuTWED's time for one pair (P100); ours: itwed, its structure", "cutwed_s", "itwed",
              "launch-bound at small N on either GPU: a launch per diagonal",
              none_timed("itwed", view["itwed"])),
        times("cuTWED's time for one pair (P100); ours: cuTWED rerun here", "cutwed_s", "peer",
              "the same code on this GPU, timed around twed_dev (allocations included)",
              none_timed("cuTWED here", view["peer"]) if view["peer"] else
              "cuTWED was not run here"),
        factor_two_claim(view, missing), precision_claim(view, missing),
        *dimension_claims(ctx, view["dim"], missing)]


def dimension_views(runs):
    """(N, {who: (name, {dimension: run})}) of sweep DIM: cuTWED here (FP64) and, ours, the
    FP64 GPU step fastest in R^1 (its own runs in every dimension, one step compared with
    itself)."""
    n = next((tp.n_of(r) for r in runs if tp.n_of(r)), None)
    views = {CUTWED: (CUTWED, tp.by_dim(tp.peer_device(runs)))}
    ours = tp.by_dim(tp.ours_gpu(runs))
    first = ours.get(1) if ours.get(1) and selection.seconds(ours[1]) else None
    if first is not None:
        views[OURS] = (selection.step_label(first, first.variant),
                       tp.by_dim([r for r in runs if r.variant == first.variant]))
    else:
        views[OURS] = ("best FP64 GPU step", ours)
    return n, views


def dimension_table(runs):
    """The time in each dimension of sweep DIM beside R^1's, for cuTWED here and our step."""
    n, views = dimension_views(runs)
    if not runs:
        return ""
    rows = []
    for d in sorted({tp.dim_of(r) for r in runs}):
        row = [f"R^{d:g}"]
        for _who, (_name, at) in views.items():
            row += [cell(at.get(d)), rc.fmt_ratio(rc.ratio(selection.seconds(at.get(d)),
                                                           selection.seconds(at.get(1))))]
        rows.append(row)
    header = ["points"] + [h for who, (name, _at) in views.items()
                           for h in (name if who == CUTWED else f"ours: {name}", "over R^1")]
    return (f"\nOne pair at N = {fmt_n(n or 0)} in several dimensions (sweep `{tp.DIM}`):\n\n"
            + rc.md_table(header, rows) + "\n")


def dimension_claims(ctx, runs, missing):
    """'The use of R^N didn't really have any practical time difference': on cuTWED here (the
    seed's code), each dimension's time over R^1's at sweep DIM's N, by the "same" rule; our
    step's the same way, ladder's check."""
    n, views = dimension_views(runs)
    no_sweep = missing or (f"sweep `{tp.DIM}` of {PAPER} is not in the results (a pair at one "
                           "N in several dimensions)")
    claims = []
    for who, (name, at) in views.items():
        claim, said = (("R^N inputs made no practical time difference", SAID["dimension"])
                       if who == CUTWED else
                       (f"{OURS}: R^N inputs made no practical time difference", SAID["ladder"]))
        ratios = [(d, rc.run_ratio(run, at.get(1))) for d, run in at.items() if d != 1]
        ratios = [(d, x) for d, x in ratios if x]
        if not ratios:
            few = "fewer than two dimensions timed"
            if not runs:
                why = no_sweep
            elif who == CUTWED:
                why = peer_missing(ctx, PAPER) or (none_timed(CUTWED, at) if not any(
                    map(selection.seconds, at.values())) else few)
            else:
                why = gpu_why(runs, None, few)
            claims.append(rc.Claim(T9A, claim, "no practical difference", "-", rc.NOT_MEASURED,
                                   why, **said))
            continue
        ours = (f"{name} at N = {fmt_n(n)}, time over R^1's: "
                + ", ".join(f"R^{d:g} {rc.fmt_measured(x)}" for d, x in ratios))
        judged = rc.judge("same", [x for _, x in ratios])
        off = [f"R^{d:g}" for d, x in ratios if not 1 / rc.SAME <= x <= rc.SAME]
        why = rc.why_of(judged.verdict, f"more than {rc.SAME:g}x R^1's time in "
                        f"{', '.join(off)}" if off else "",
                        "the same code at the same N on this GPU, R^1 against each dimension")
        if off:
            why += "; " + (per_diagonal(n, at) if who == CUTWED else R1_PATH)
        claims.append(rc.Claim(T9A, claim, "no practical difference", ours, judged.verdict,
                               "; ".join(w for w in (judged.note, why) if w), rule=judged.rule,
                               thresholds=judged.thresholds, **said))
    return claims


# Why our one-launch step slows beyond R^1 (the code's own structure, variants/twed/wavefront.cu).
R1_PATH = ("our step's R^1 path keeps each point's value in registers and takes |x - y| "
           "(variants/twed/wavefront.cu); in R^N every cell reads all coordinates of both points "
           "from memory, once for each of a lane's rows, and takes an FP64 square root")


def per_diagonal(n, at):
    """Where cuTWED's time in R^N goes: its time per anti-diagonal (a launch each, 2N - 1 of
    them) in R^1 and in the highest dimension timed, measured."""
    timed = sorted(d for d, run in at.items() if selection.seconds(run))
    if n is None or len(timed) < 2 or timed[0] != 1:
        return ""
    diagonals = 2 * n - 1
    each = {d: selection.seconds(at[d]) / diagonals for d in (timed[0], timed[-1])}
    return (f"cuTWED launches a kernel per anti-diagonal ({diagonals:,.0f} at N = {fmt_n(n)}): "
            f"{rc.fmt_seconds(each[1])} a diagonal in R^1, near a launch's own cost, against "
            f"{rc.fmt_seconds(each[timed[-1]])} in R^{timed[-1]:g}, where every cell's distances "
            f"run over {timed[-1]:g} coordinates: the dimension shows once a diagonal's work "
            "outweighs its launch")


def factor_two_claim(view, missing):
    """The seed's summary: 'at least another factor of two left in optimizations'."""
    gains = [(n, rc.run_ratio(view["peer"].get(n), r)) for n, r in view["best"].items()]
    gains = [(n, g) for n, g in gains if g]
    claim = "cuTWED has at least another 2x left in optimizations"
    if not gains:
        why = missing or ("cuTWED was not run here" if not view["peer"] else
                          f"no N with both timed ({none_timed('cuTWED here', view['peer'])})")
        return rc.Claim(T9A, claim, ">= 2x", "-", rc.NOT_MEASURED, why, **SAID["factor_two"])
    ours = (f"cuTWED here / our best: {ratio_span([g for _, g in gains])} "
            f"(N = {fmt_n(gains[0][0])} .. {fmt_n(gains[-1][0])})")
    judged = rc.judge("at least", [g for _, g in gains], 2.0)
    why = "same GPU: our best step runs a pair in one launch, cuTWED a launch per diagonal"
    return rc.Claim(T9A, claim, ">= 2x", ours, judged.verdict,
                    "; ".join(w for w in (judged.note, why) if w), seed_x=2.0,
                    ours_x=tuple(g for _, g in gains), rule=judged.rule,
                    thresholds=judged.thresholds, **SAID["factor_two"])


def precision_claim(view, missing):
    """'Single precision ... had marginal performance benefit': cuTWED here, its FP64 time over
    its FP32 time at each N, by the "same" rule."""
    gains = [(n, rc.run_ratio(run, view["peer32"].get(n)))
             for n, run in sorted(view["peer"].items())]
    gains = [(n, g) for n, g in gains if g]
    claim = "single precision had marginal performance benefit (cuTWED here)"
    if not gains:
        why = missing or ("cuTWED was not run here" if not view["peer"] else "no N with FP64 "
                          f"and FP32 timed ({none_timed('cuTWED here', view['peer'])})")
        return rc.Claim(T9A, claim, "marginal", "-", rc.NOT_MEASURED, why, **SAID["single"])
    ours = (f"cuTWED here FP64 / FP32: {ratio_span([g for _, g in gains])} "
            f"(N = {fmt_n(gains[0][0])} .. {fmt_n(gains[-1][0])})")
    judged = rc.judge("same", [g for _, g in gains])
    why = "the same code in both precisions on this GPU"
    return rc.Claim(T9A, claim, "marginal", ours, judged.verdict,
                    "; ".join(w for w in (judged.note, why) if w), rule=judged.rule,
                    thresholds=judged.thresholds, **SAID["single"])


# ---- TWED Fig. 9b: speedup over the CPU reference --------------------------------------------

def speedups(view, who):
    """{N: (speedup (an rc.Ratio), reference name, run)}: our sequential reference over `who`'s
    run (cuTWED here, or our best step) at each N where both are timed."""
    out = {}
    for n, run in sorted(view["peer" if who == CUTWED else "best"].items()):
        ref, name = reference(view, n)
        speedup = rc.run_ratio(ref, run)
        if speedup:
            out[n] = (speedup, name, run)
    return out


def fig9b(ctx, view, seed, missing):
    ours, cutwed = speedups(view, OURS), speedups(view, CUTWED)
    rows = []
    for n in sorted(set(view["ns"]) | {n for n, p in seed.items() if p["speedup"]}):
        ref, name = reference(view, n)
        p, peer = seed.get(n, {}), selection.seconds(view["peer"].get(n))
        s, _, best = ours.get(n, (None, "", view["best"].get(n)))
        rows.append([fmt_n(n), rc.fmt_ratio(p.get("speedup")), f"{name}: {cell(ref)}",
                     named(best) if best else gpu_why(view["runs"], n, "-"), rc.fmt_ratio(s),
                     rc.fmt_ratio(rc.ratio(s, p.get("speedup"))), over(ref, peer)])
    launch, launch_claim = launch_overhead(view, seed, missing)
    body = ("### TWED Fig. 9b: speedup over the CPU reference against N\n\n"
            f"The seed's speedup is twed.c over cuTWED ({SEED_HW}). Ours is our sequential "
            "reference over our best FP64 GPU step, on one core of this host and this GPU: "
            "seq_full (twed.c's algorithm) where it ran, else seq_itwed (marked as such: it "
            "keeps three diagonals instead of the full matrix, and was faster than seq_full "
            "wherever both ran, so the speedup over it is a lower bound). The last column is "
            "cuTWED run here over the same reference: the seed's ratio, remeasured on our "
            "machines, on which the seed's speedups are judged (ours is a check of ladder's "
            "own, apart); where it falls short of the seed's, this host's core is the faster "
            "against this GPU (see the ours/seed columns of Fig. 9a).\n\n"
            + rc.md_table(["N", "seed: speedup", "our reference", "ours: best FP64 GPU step",
                           "ours: speedup", "ours/seed", "cuTWED here: speedup"], rows)
            + "\n" + launch)
    no_peer = missing or peer_missing(ctx, PAPER)
    claims = [claim for n, p in sorted(seed.items()) if p["speedup"]
              for claim in (speedup_claim(view, cutwed, p, no_peer, CUTWED),
                            speedup_claim(view, ours, p, missing, OURS))]
    return body, claims + [trend_claim(ctx, view, cutwed, seed, no_peer, CUTWED),
                           trend_claim(ctx, view, ours, seed, missing, OURS), launch_claim,
                           older_claim(ctx, cutwed, missing)]


def older_claim(ctx, cutwed, missing):
    """'Above a single order of magnitude' on the seed's older desktop: a speedup of that
    machine pair (an "at least" claim, 10x), judged only on a Titan Z beside an i7-2600K;
    elsewhere not comparable, saying what differs, with cuTWED's speedups here beside it."""
    claim, said = ("above 10x over twed.c on the seed's older desktop (Titan Z, i7-2600K)",
                   SAID["older"])
    (gpu, _), (cpu, _) = hardware(ctx, "gpu"), hardware(ctx, "cpu")
    if ctx.results(PAPER) is None:
        return rc.Claim(T9B, claim, "> 10x", "-", rc.NOT_MEASURED, missing, **said)
    xs = [x for x, _name, _run in cutwed.values()]
    ours = (f"cuTWED here over our reference on this machine: {ratio_span(xs)}" if xs else "-")
    judged = rc.judge("at least", xs, OLDER_X)
    if rc.same_hardware(gpu, OLDER_GPU) and rc.same_hardware(cpu, OLDER_CPU):
        found = ("cuTWED here over our sequential reference, on that machine pair" if xs else
                 peer_missing(ctx, PAPER) or "no N with cuTWED and our reference timed")
        return rc.Claim(T9B, claim, "> 10x", ours, judged.verdict,
                        "; ".join(w for w in (judged.note, found) if w),
                        rule=judged.rule, thresholds=judged.thresholds, **said)
    ours_pair = f"{gpu} beside {cpu}" if gpu and cpu else gpu or (
        f"{cpu} without a GPU" if cpu else "")
    why = rc.other_hardware(ours_pair, f"{OLDER_GPU} (Kepler) beside an {OLDER_CPU}")
    return rc.Claim(T9B, claim, "> 10x", ours, rc.NOT_COMPARABLE,
                    f"{why}: a speedup of that machine pair, which the seed only plots",
                    rule=judged.rule, thresholds=judged.thresholds, **said)


def no_speedup(view, n, who):
    """Why `who` has no speedup at N: N, our reference or the GPU run is missing."""
    ref, name = reference(view, n)
    if n not in view["ns"]:
        return f"N = {fmt_n(n)} is not in sweep pair"
    if not selection.seconds(ref):
        return f"{name}: {rc.not_run_why(ref)}"
    if who == OURS:
        return f"best FP64 GPU step: {gpu_why(view['runs'], n)}"
    return f"{CUTWED}: {rc.not_run_why(view['peer'].get(n))}"


def short_of(x, name, ref, run, seed_ref_s, seed_run_s, ref_scale=1.0):
    """Why cuTWED's speedup here falls short of the seed's: both times beside the seed's (the
    reference's times `ref_scale`, where it timed a part of the point)."""
    return (f"{CUTWED} is only {rc.fmt_ratio(x)} faster than {name} here: cuTWED took "
            f"{cell(run)} ({rc.fmt_seconds(seed_run_s)} on the seed's {tp.NOTES['device']}), "
            f"{name} {cell(ref, ref_scale)} (twed.c {rc.fmt_seconds(seed_ref_s)} on the seed's "
            f"{tp.NOTES['cpu']})")


def speedup_claim(view, found, p, missing, who):
    """`who`'s speedup at N (found: speedups(view, who)) at least the seed's Table 3 cell: the
    seed's claim, on cuTWED here; or, who=OURS, ladder's check of our best step."""
    n, seed_x = p["N"], p["speedup"]
    seed = f"{seed_x:g}x"
    claim, said = ((f"{seed} over twed.c at N = {fmt_n(n)}",  # the cell
                    dict(quote=seed, place=f"Table 3, Speedup column, N = {n}; Fig. 9b"))
                   if who == CUTWED else (f"{OURS} over twed.c at N = {fmt_n(n)}", SAID["ladder"]))
    if n not in found:
        return rc.Claim(T9B, claim, seed, "-", rc.NOT_MEASURED,
                        missing or no_speedup(view, n, who), **said)
    x, name, run = found[n]
    step = CUTWED if who == CUTWED else selection.step_label(run, run.variant)
    text = f"{rc.fmt_measured(x)} ({name} / {step})"
    judged = rc.judge("factor", [x], seed_x)
    numbers = dict(seed_x=seed_x, ours_x=(x,), rule=judged.rule, thresholds=judged.thresholds,
                   **said)
    low = x < rc.factor_band(seed_x)[0]
    if judged.verdict == rc.REPRODUCES or not low:
        why = f"{step} on this GPU vs {name} on one core here"
        return rc.Claim(T9B, claim, seed, text, judged.verdict,
                        "; ".join(w for w in (judged.note, why) if w), **numbers)
    if name != "seq_full":  # only a lower bound was measured, and it falls short
        return rc.Claim(T9B, claim, seed, text + " (lower bound)", rc.NOT_MEASURED,
                        f"seq_full did not run: the speedup of {step} over seq_itwed is only a "
                        "lower bound", **said)
    if who == CUTWED:
        why = short_of(x, name, reference(view, n)[0], run, p["twed_c_s"], p["cutwed_s"])
    else:
        why = rc.with_profile(f"{step} is only {rc.fmt_ratio(x)} faster than {name} here",
                              view["runs"], name, run.variant, {"n": n})
    return rc.Claim(T9B, claim, seed, text, judged.verdict,
                    "; ".join(w for w in (judged.note, why) if w), **numbers)


def trend_claim(ctx, view, found, seed, missing, who):
    """`who`'s speedup (found: speedups(view, who)) grows with N. Mixing references cannot fake
    it: where seq_itwed stands in, it is faster than seq_full, which only lowers the later
    speedups."""
    points = [(n, x) for n, (x, _, _) in sorted(found.items())]
    seed_text = span([(n, p["speedup"]) for n, p in sorted(seed.items()) if p["speedup"]],
                     rc.fmt_ratio)
    claim, said = (("the speedup grows with N", SAID["trend"]) if who == CUTWED else
                   (f"{OURS}: the speedup grows with N", SAID["ladder"]))
    if len(points) < 2:
        return rc.Claim(T9B, claim, seed_text, span(points, rc.fmt_ratio), rc.NOT_MEASURED,
                        missing or no_trend(view, who), **said)
    xs = [x for _, x in points]
    # Each N's speedup over the one before, by the direction rule (held by their values).
    judged = rc.judge("direction", [float(b) / float(a) for a, b in zip(xs, xs[1:])])
    why = ("our best step is not launch-bound, but a small pair leaves most of the GPU idle"
           if who == OURS else "cuTWED here over our sequential reference at each N: a launch "
           "per diagonal, so its time grows with the diagonals, the reference's with the cells")
    if ctx.quick:
        why = "quick scale: our N are smaller than the seed's; " + why
    # Speedups are held against each other by their values; each is shown with its interval.
    return rc.Claim(T9B, claim, seed_text, span(points, rc.fmt_measured), judged.verdict,
                    "; ".join(w for w in (judged.note, why) if w), rule=judged.rule,
                    thresholds=judged.thresholds, **said)


def no_trend(view, who):
    """Why `who` has fewer than two speedups: its GPU runs untimed, else too few N."""
    few = "fewer than two N with a speedup"
    if who == OURS:
        return gpu_why(view["runs"], None, few)
    if any(map(selection.seconds, view["peer"].values())):
        return few
    return none_timed(CUTWED, view["peer"])


def launch_overhead(view, seed, missing):
    """'~3 us per diagonal dominates small N': the seed's cuTWED time at its smallest N over its
    2N+1 diagonals beside our itwed's (and cuTWED here), judged as RULES says. The seed never
    speaks of launches: a check of ladder's own, from Table 3's time."""

    def per_diagonal(runs):  # (N, us per diagonal, growth to 2N) at the smallest timed N
        timed = sorted(n for n, r in runs.items() if selection.seconds(r))
        if not timed:
            return None, None, None
        n = timed[0]
        return (n, rc.run_seconds(runs[n], 1e6 / (2 * n + 1)),
                rc.run_ratio(runs.get(2 * n), runs[n]))
    n0 = min((n for n, p in seed.items() if p["cutwed_s"]), default=None)
    seed_us = seed[n0]["cutwed_s"] / (2 * n0 + 1) * 1e6 if n0 else None
    seed_text = f"{seed_us:.2g} us per diagonal at N = {fmt_n(n0)}" if seed_us else "-"
    lines, claim = {}, "a launch per diagonal, ~3 us each, dominates small N"
    for label, runs in (("itwed", view["itwed"]), ("cuTWED here", view["peer"])):
        n, us, growth = per_diagonal(runs)
        if us:
            grew = f", {rc.fmt_measured(growth)} at 2N" if growth else ""
            lines[label] = (f"{label}: {rc.fmt_measured(us, us_text)} per diagonal at "
                            f"N = {fmt_n(n)}{grew}")
    ours = "; ".join(("ours: " if label == "itwed" else "") + text
                     for label, text in lines.items())
    body = ("Launch overhead: the seed's cuTWED at its smallest N took "
            f"{seed_text} ({tp.NOTES['device']}); " + (ours or "nothing of ours timed")
            + ". A launch-bound time doubles with N (the diagonals), a compute-bound one "
              "quadruples (the cells).\n")
    n, us, growth = per_diagonal(view["itwed"])
    if not us or not seed_us:
        why = missing or none_timed("itwed", view["itwed"])
        return body, rc.Claim(T9B, claim, seed_text, "-", rc.NOT_MEASURED, why, **SAID["ladder"])
    # Both must hold: the time per diagonal within SLOWER_OK of the seed's, and its growth.
    cost, cost_crossing = rc.decide(lambda xs: seed_us / SLOWER_OK <= xs[0] <= SLOWER_OK * seed_us,
                                    [us], (seed_us / SLOWER_OK, SLOWER_OK * seed_us), us_text)
    bound, bound_crossing = rc.decide(lambda xs: xs[0] is None or xs[0] <= LAUNCH_BOUND_GROWTH,
                                      [growth], (LAUNCH_BOUND_GROWTH,))
    if False in (cost, bound):
        verdict = rc.DOES_NOT
        why = "the per-diagonal time or its growth with N is not that of a launch-bound step"
    elif rc.INCONCLUSIVE in (cost, bound):
        verdict = rc.INCONCLUSIVE
        why = "; ".join(w for w in (cost_crossing, bound_crossing) if w)
    else:
        verdict = rc.REPRODUCES
        why = "a launch per diagonal costs about the same on this GPU as on a P100"
    return body, rc.Claim(T9B, claim, seed_text, lines["itwed"], verdict, why, **SAID["ladder"])


def us_text(us, digits=2):
    """'3.1 us': a time per diagonal."""
    return f"{us:.{digits}g} us"


# ---- TWED Fig. 10: large N -------------------------------------------------------------------

def gcells(n, s):
    return f"{n * n / s / 1e9:.3g}" if s else "-"


def fig10(ctx, runs, seed, missing):
    large = [r for r in tp.pair_mode(runs) if r.sweep == tp.LARGE]
    best, peer = tp.best_gpu(large), tp.peer_runs(large, "fp64")
    ns = sorted({tp.n_of(r) for r in large if tp.n_of(r)})
    rows = []
    for n in ns or [n for n, p in seed.items() if not p["twed_c_s"]]:
        paper = seed.get(n, {}).get("cutwed_s")
        rows.append([fmt_n(n), rc.fmt_seconds(paper), gcells(n, paper),
                     named(best[n]) if n in best else gpu_why(large, n, "-"),
                     over(best.get(n), paper), gcells(n, selection.seconds(best.get(n))),
                     cell(peer.get(n)), over(peer.get(n), paper)])
    why_none = missing or f"no run of sweep '{tp.LARGE}'"
    body = ("### TWED Fig. 10: large-scale times\n\n"
            "The seed ran cuTWED alone out to a million points a series (no CPU code fits "
            "such a pair). Ours: the fastest correct FP64 GPU step of sweep "
            f"'{tp.LARGE}' at each N, and cuTWED run here; G cells/s = N^2 / time.\n\n"
            + rc.md_table(["N", "seed: cuTWED (P100)", "seed: G cells/s",
                           "ours: best FP64 GPU step", "ours/seed", "ours: G cells/s",
                           "cuTWED here", "here/seed"], rows)
            + ("\n" if ns else f"\nNot measured: {why_none}.\n")
            + transfer_table(runs, seed))
    claims = [times_claim(ctx, T10, f"cuTWED: {rc.fmt_seconds(seed[n]['cutwed_s'])} at N = "
                          f"{fmt_n(n)}", [(n, seed[n]["cutwed_s"], best.get(n))],
                          "our best step: one launch per pair on this GPU; cuTWED's: a launch "
                          "per diagonal on a P100",
                          missing or gpu_why(large, n, f"N = {fmt_n(n)} is not in sweep "
                                                          f"'{tp.LARGE}'"),
                          dict(quote=f"{seed[n]['cutwed_s']:g}",  # the cell
                               place=f"Table 3, cuTWED column, N = {n}; Fig. 10a"))
              for n in QUOTED_LARGE if n in seed]
    return body, claims + [throughput_claim(ctx, best, seed, gpu_why(large, None, why_none)),
                           transfer_claim(ctx, runs, seed, missing)]


def host_over_device(runs):
    """[(N, cuTWED's host call time over its device call's, an rc.Ratio)] at each N of the
    scaling in N where both are timed (FP64)."""
    pairs = tp.pair_mode(runs)
    host, device = tp.host_runs(pairs), tp.peer_runs(pairs, "fp64")
    found = [(n, rc.run_ratio(run, device.get(n))) for n, run in sorted(host.items())]
    return [(n, x) for n, x in found if x]


def seed_host_over_device(seed):
    """[(N, the seed's cuTWED over cuTWED dev)] of Table 3."""
    return [(n, p["cutwed_s"] / p["cutwed_dev_s"]) for n, p in sorted(seed.items())
            if p.get("cutwed_s") and p.get("cutwed_dev_s")]


def transfer_table(runs, seed):
    """Fig. 10b: cuTWED's host call beside its device call, the seed's and here."""
    pairs = tp.pair_mode(runs)
    host, device = tp.host_runs(pairs), tp.peer_runs(pairs, "fp64")
    rows = [[fmt_n(n), rc.fmt_seconds(p.get("cutwed_s")), rc.fmt_seconds(p.get("cutwed_dev_s")),
             rc.fmt_ratio(rc.ratio(p.get("cutwed_s"), p.get("cutwed_dev_s"))),
             cell(host.get(n)), cell(device.get(n)),
             over(host.get(n), selection.seconds(device.get(n)))]
            for n, p in ((n, seed.get(n, {})) for n in sorted(set(seed) | set(host)))]
    return ("\nFig. 10b, host-to-device transfer overhead: cuTWED's host call (`twed`, which "
            "copies the inputs to the device) beside its device call (`twed_dev`), FP64; "
            f"cuTWED here times the host call on single pairs up to N = {fmt_n(HOST_MAX_N)} "
            f"(`{tp.PEER_HOST}`).\n\n"
            + rc.md_table(["N", "seed: cuTWED", "seed: cuTWED dev", "seed: host / dev",
                           "here: host call", "here: device call", "here: host / dev"], rows))


def transfer_claim(ctx, runs, seed, missing):
    """'A practical measure of host to device transfer cost overhead, which is trivial': cuTWED
    here, its host call's time over its device call's at each N both ran, by the "same" rule."""
    claim, said = "host-to-device transfer overhead is trivial (cuTWED)", SAID["transfer"]
    seed_x = seed_host_over_device(seed)
    seed_text = (f"trivial (Table 3: cuTWED over cuTWED dev "
                 f"{ratio_span([x for _, x in seed_x])})" if seed_x else "trivial")
    found = host_over_device(runs)
    if not found:
        host = tp.host_runs(tp.pair_mode(runs))
        why = (missing or peer_missing(ctx, PAPER)
               or (none_timed("cuTWED's host call", host) if host else
                   f"cuTWED's results have no run of its host call (`{tp.PEER_HOST}`)"))
        return rc.Claim(T10, claim, seed_text, "-", rc.NOT_MEASURED, why, **said)
    ours = (f"cuTWED here, host call / device call: {ratio_span([x for _, x in found])} "
            f"(N = {fmt_n(found[0][0])} .. {fmt_n(found[-1][0])})")
    judged = rc.judge("same", [x for _, x in found])
    off = [fmt_n(n) for n, x in found if not 1 / rc.SAME <= x <= rc.SAME]
    why = rc.why_of(judged.verdict, f"more than {rc.SAME:g}x the device call at N = "
                    f"{', '.join(off)}" if off else "",
                    "twed (host arrays, copied inside the call) over twed_dev at the same N "
                    "on this GPU")
    return rc.Claim(T10, claim, seed_text, ours, judged.verdict,
                    "; ".join(w for w in (judged.note, why) if w), rule=judged.rule,
                    thresholds=judged.thresholds, **said)


def throughput_claim(ctx, best, seed, why_none):
    """'About 5 G cells/s' at the seed's largest N, ours at the largest N both have. The seed
    gives no rate: a check of ladder's own, N^2 over Table 3's time."""
    both = [n for n in sorted(best) if seed.get(n, {}).get("cutwed_s")]
    top = max((n for n, p in seed.items() if p["cutwed_s"]), default=None)
    seed_text = (f"{gcells(top, seed[top]['cutwed_s'])} G cells/s at N = {fmt_n(top)}"
                 if top else "-")
    n = both[-1] if both else None
    slower = rc.run_seconds(best[n], 1 / seed[n]["cutwed_s"]) if both else None
    ours = (f"{gcells(n, selection.seconds(best[n]))} G cells/s at N = {fmt_n(n)} "
            f"({selection.step_label(best[n], best[n].variant)}; time ours/seed "
            f"{rc.fmt_measured(slower)})" if both else None)

    return absolute_claim(ctx, T10, "about 5 G cells/s at the largest N", seed_text, ours,
                          [slower] if slower else [], "one launch per pair on this GPU against a "
                          "launch per diagonal on a P100", why_none, SAID["ladder"])


# ---- TWED Table 2: the validation sets -------------------------------------------------------

def table2(ctx, runs, missing):
    rows, claims, gains = [], [], {CUTWED: [], OURS: []}
    no_peer = missing or peer_missing(ctx, VALIDATION)
    for entry in tp.NOTES["table2"]:
        groups = tp.points_of(runs, entry["sweep"])
        seed = [rc.fmt_seconds(entry["twed_c_s"]),
                entry.get("cutwed_text") or rc.fmt_seconds(entry["cutwed_s"]),
                rc.fmt_ratio(entry["speedup"])]
        if not groups:
            rows.append([entry["name"], missing or "not in this config", *seed] + ["-"] * 7)
        for group in groups.values():
            _seq, best, peer = tp.set_times(group)
            seq, pair_k = tp.set_seq(groups, group)
            s, b = selection.seconds(seq), selection.seconds(best)
            s = s * pair_k if s else None  # one pair's time, counted for the point's pairs
            k = part_scale(entry, group)
            part = f" ({part_text(k)})" if part_text(k) else ""
            rows.append([entry["name"], tp.point_text(group) + part, *seed,
                         cell(seq, k * pair_k) + pair_text(seq, pair_k),
                         named(best, k) if best else gpu_why(group, None, "-"),
                         rc.fmt_ratio(rc.ratio(s, b)),
                         rc.fmt_ratio(rc.ratio(rc.ratio(s, b), entry["speedup"])),
                         cell(peer, k), rc.fmt_ratio(rc.ratio(s, selection.seconds(peer))), over(peer, b)])
        if entry["speedup"]:
            claims += [set_claim(ctx, entry, groups, no_peer, CUTWED),
                       set_claim(ctx, entry, groups, missing, OURS)]
        elif entry["cutwed_s"]:
            claims.append(set_time_claim(ctx, entry, groups, missing, runs))
        for who, found in gains.items():
            gain = triangle_gain(groups, who)
            if gain:
                found.append((entry["name"], gain))
    body = ("### TWED Table 2: the validation sets\n\n"
            "The seed's seconds (twed.c computed only the upper triangle of a batch, cuTWED "
            "the whole matrix) beside ours: seq_full, our best FP64 GPU step, our speedup "
            "(seq_full over the best step, both in the same mode: batch is the whole matrix, "
            "triangle i < j; where seq_full's matrix outgrows the host at a point, one pair of the "
            "set is timed and counted once per pair: every pair costs twed.c the same), cuTWED "
            "run here, its speedup (seq_full over cuTWED), and cuTWED here over our best step (above 1: ours is faster). The seed's speedup claims are "
            "judged on cuTWED's speedup here (ours is a check of ladder's own, apart), each on "
            "the batch point, the whole matrix on both sides (the seed's ratio, half a matrix on "
            "the CPU against a whole one on the GPU, is the lower by about 2x).\n\n"
            + rc.md_table(["validation set", "our point", "seed: twed.c", "seed: cuTWED",
                           "seed: speedup", "ours: seq_full", "ours: best FP64 GPU step",
                           "ours: speedup", "ours/seed", "cuTWED here", "cuTWED here: speedup",
                           "cuTWED here / ours"], rows))
    none = "no set with both a batch and a triangle time"
    triangles = [triangle_claim(gains[CUTWED], no_peer or peer_why(runs, none), CUTWED),
                 triangle_claim(gains[OURS], missing or gpu_why(runs, None, none), OURS)]
    return body, claims + triangles + [match_claim(runs, missing)]


def peer_why(runs, missing):
    """Why none of cuTWED's FP64 runs has a time: the first one's status; `missing` when one of
    them was timed (or there is none)."""
    peers = tp.peer_device(runs)
    if not peers or any(r.seconds for r in peers):
        return missing
    return f"{CUTWED}: {rc.not_run_why(peers[0])}"


def batch_group(groups):
    """A set's runs at its batch point (else its first point; [] when it has none)."""
    return next((g for g in groups.values() if g[0].params.get("mode") == "batch"),
                next(iter(groups.values()), []))


def set_run(group, who):
    """A validation point's run of `who`: cuTWED's FP64 run, or our best FP64 GPU step."""
    _seq, best, peer = tp.set_times(group)
    return peer if who == CUTWED else best


def set_gap(entry, group, seq, run, who):
    """Why a set has no speedup of `who`: its sweep, seq_full or `who`'s run is missing; where
    only seq_full is, what the GPU did against the seed's cuTWED."""
    sweep = entry["sweep"]
    if not group:
        return f"sweep {sweep} is not in this config"
    # Not run where it would take hours on one core (Pseudo Periodic: twed.c took 15,750 s
    # there on the seed's Xeon, on half the matrix) and its full matrix outgrows the host.
    n = entry["data"]["n"]
    gaps = [f"seq_full is not in sweep {sweep} (twed.c's full matrix of one pair at N = "
            f"{fmt_n(n)} is {(n + 1) ** 2 * 8 / 1e9:,.0f} GB; the seed's twed.c took "
            f"{rc.fmt_seconds(entry['twed_c_s'])} there)" if seq is None else
            "" if selection.seconds(seq) else f"seq_full: {rc.not_run_why(seq)}"]
    if selection.seconds(run):
        name = CUTWED if who == CUTWED else f"our {selection.step_label(run, run.variant)}"
        gaps.append(f"{name} took {rc.fmt_seconds(selection.seconds(run))} against cuTWED's "
                    f"{rc.fmt_seconds(entry['cutwed_s'])} on the {tp.NOTES['device']}")
    elif who == OURS:
        gaps.append(f"best FP64 GPU step: {gpu_why(group)}")
    else:
        gaps.append(f"cuTWED is not in sweep {sweep}" if run is None else
                    f"{CUTWED}: {rc.not_run_why(run)}")
    return "; ".join(g for g in gaps if g)


def set_claim(ctx, entry, groups, missing, who):
    """`who`'s speedup on a set, at its batch point, at least the seed's: the seed's claim, on
    cuTWED here; or, who=OURS, ladder's check of our best step."""
    group = batch_group(groups)
    seed_x = f"{entry['speedup']:g}x"
    claim, said = ((f"{entry['name']}: {seed_x} over twed.c",
                    dict(quote=entry["quote"], place=entry["place"])) if who == CUTWED else
                   (f"{OURS} over twed.c on {entry['name']}", SAID["ladder"]))
    seq, pair_k = tp.set_seq(groups, group)
    run = set_run(group, who) if group else None
    s, b = selection.seconds(seq), selection.seconds(run)
    if not (s and b):
        return rc.Claim(T2, claim, seed_x, "-", rc.NOT_MEASURED,
                        missing or set_gap(entry, group, seq, run, who), **said)
    step = CUTWED if who == CUTWED else selection.step_label(run, run.variant)
    x = rc.run_ratio(seq, run, pair_k)
    ours = f"{rc.fmt_measured(x)} ({tp.point_text(group)}, seq_full{pair_text(seq, pair_k)} / {step})"
    judged = rc.judge("factor", [x], entry["speedup"])
    verdict, crossing = judged.verdict, judged.note
    why = f"{step} on this GPU vs seq_full on one core here"
    if verdict != rc.REPRODUCES and who == CUTWED:
        why = short_of(x, "seq_full", seq, run, entry["twed_c_s"], entry["cutwed_s"], pair_k)
    why += other_host(seq, run)
    if ctx.quick:
        why = (f"quick scale: our point is {tp.point_text(group)}, the seed's "
               f"{entry['shape']}; {why}")
    return rc.Claim(T2, claim, seed_x, ours, verdict, "; ".join(w for w in (crossing, why) if w),
                    seed_x=entry["speedup"], ours_x=(x,), rule=judged.rule,
                    thresholds=judged.thresholds, **said)


def part_of(entry):
    """The set of Table 2 whose pairs are a part of `entry`'s: the same series, fewer rows
    (MNIST single query for all queries); None when there is none."""
    data = entry["data"]
    return next((other for other in tp.NOTES["table2"] if other is not entry
                 and all(other["data"][k] == data[k] for k in ("cols", "n", "dim"))
                 and other["data"]["rows"] < data["rows"]), None)


def extrapolated(entry, runs):
    """What a call on `entry`'s pairs would take, from the runs of the set whose pairs are a
    part of it, in proportion to the pairs: '60,000 times the pairs of MNIST single query
    here: a call would take about 405 s with our wavefront and 57 min with cuTWED here (FP64),
    at their times there'; '' when that set has no timed run."""
    part = part_of(entry)
    group = batch_group(tp.points_of(runs, part["sweep"])) if part else []
    _seq, best, peer = tp.set_times(group) if group else (None, None, None)
    pairs = next((ladder_results.number(r.data.get("pairs")) for r in group
                  if ladder_results.number(r.data.get("pairs"))), None)
    if not pairs:
        return ""
    times = entry["data"]["rows"] * entry["data"]["cols"] / pairs
    costs = [f"{rc.fmt_seconds(times * selection.seconds(run))} with {who}"
             for run, who in ((best, "our " + selection.step_label(best, best.variant) if best
                               else ""), (peer, f"{CUTWED} (FP64)")) if selection.seconds(run)]
    if not costs:
        return ""
    return (f"{times:,.0f} times the pairs of {part['name']} here: a call would take about "
            f"{' and '.join(costs)}, at their times there")


def part_scale(entry, group):
    """How many times a point's pairs the set's are, where the point is a part of the set (some
    of its queries against all its series: 2,000 for 30 of MNIST's 60,000 queries); 1 where it
    is the whole set (or a triangle of it). Every pair of a set costs the same, so once the part
    fills the GPU the whole set's time is the part's times this."""
    run = next((r for r in group if ladder_results.number(r.data.get("a_series"))), None)
    rows, cols = entry["data"]["rows"], entry["data"]["cols"]
    if run is None or ladder_results.number(run.data.get("b_series")) != cols:
        return 1.0
    queries = ladder_results.number(run.data["a_series"])
    return rows / queries if queries < rows else 1.0


def pair_text(seq, scale):
    """' (its pair x100)' where seq_full's time is one pair's counted for a point's pairs
    (tp.set_seq), '' where it is the point's own."""
    return f" ({tp.point_text([seq])} x{scale:,.0f})" if seq is not None and scale != 1.0 else ""


def other_host(seq, run):
    """'; seq_full ran on another host (...)' where seq_full's results file and the GPU run's
    name different CPUs or core counts; '' where they are one host's or a file does not say."""
    mine, theirs = seq.file.host, run.file.host
    keys = ("cpu_id", "cores")
    if not (mine.get("cpu_id") and theirs.get("cpu_id")) or all(mine.get(k) == theirs.get(k) for k in keys):
        return ""
    cpu = mine.get("cpu_microarchitecture") or mine.get("cpu") or "?"
    return f"; seq_full ran on another host ({cpu}, {mine.get('cores', '?')} cores)"


def part_text(scale):
    """'a part of the set: its times x2,000' for a part of a set, '' for the whole set."""
    return f"a part of the set: its times x{scale:,.0f}" if scale != 1.0 else ""


def set_time_claim(ctx, entry, groups, missing, runs=()):
    """cuTWED's time on a set the seed gives no speedup for (MNIST all queries), judged as the
    times of Fig. 9a on cuTWED here where it ran (the seed's code), else on our best FP64 GPU
    step, at its batch point; a point that is a part of the set is scaled by its pairs."""
    group = batch_group(groups)
    _seq, best, peer = tp.set_times(group) if group else (None, None, None)
    k = part_scale(entry, group) if group else 1.0
    judged = peer if selection.seconds(peer) else best
    slower = rc.run_seconds(judged, k / entry["cutwed_s"]) if judged else None  # over the seed's
    beside = [f"{CUTWED}: {cell(peer, k)}"] if selection.seconds(peer) else []
    ours = (f"{'; '.join(beside + [f'our {named(best, k)}'])} ({tp.point_text(group)}"
            f"{'; ' + part_text(k) if part_text(k) else ''}); "
            f"{'cuTWED here' if beside else 'ours'}/seed "
            f"{rc.fmt_measured(slower)}" if slower else None)
    # Not run where it would break the reproduction's budget: say what it would cost.
    cost = extrapolated(entry, runs) if not group else ""
    not_timed = (f"no run of sweep {entry['sweep']} (config {MNIST_ALL}) in this reproduction"
                 + (f" ({cost})" if cost else "")
                 if not group else f"best FP64 GPU step: {gpu_why(group)}")

    return absolute_claim(ctx, T2, f"cuTWED's time for {entry['name']} (P100)",
                          entry["cutwed_text"], ours, [slower] if slower else [],
                          ("cuTWED here" if selection.seconds(peer) else "our best step")
                          + " on this GPU; the seed's cuTWED on a P100",
                          missing or not_timed, dict(quote=entry["quote"], place=entry["place"]))


def triangle_gain(groups, who):
    """`who`'s FP64 GPU time on the whole matrix over that on the triangle (an rc.Ratio), else
    None."""
    by_mode = {g[0].params.get("mode"): set_run(g, who) for g in groups.values()}
    return rc.run_ratio(by_mode.get("batch"), by_mode.get("triangle"))


def triangle_claim(gains, why_none, who):
    """The seed: computing the triangle only 'would roughly double' the batch speedups; judged
    on cuTWED's triangle option here, or, who=OURS, ladder's check of our best step."""
    claim, said = (("computing the triangle only roughly doubles the batch speedup",
                    SAID["triangle"]) if who == CUTWED else
                   (f"{OURS}: computing the triangle only roughly doubles the batch speedup",
                    SAID["ladder"]))
    if not gains:
        return rc.Claim(T2, claim, "~2x", "-", rc.NOT_MEASURED, why_none, **said)
    ours = "; ".join(f"{name}: {rc.fmt_measured(g)}" for name, g in gains)
    judged = rc.judge("factor", [g for _, g in gains], TRIANGLE_GAIN)
    verdict, crossing = judged.verdict, judged.note
    why = ("our best step's time on the whole matrix over that on the triangle i < j"
           if who == OURS else "cuTWED's time here on the whole matrix (its batch mode) over "
           "that with its triangle option (i < j)")
    slower = [name for name, g in gains if g < 1]
    if slower:  # the triangle took longer than the whole matrix
        why += f"; slower on the triangle than on the whole matrix on {', '.join(slower)}"
    return rc.Claim(T2, claim, "~2x (expected, not measured by the seed)", ours, verdict,
                    "; ".join(w for w in (crossing, why) if w), seed_x=TRIANGLE_GAIN,
                    ours_x=tuple(g for _, g in gains), rule=judged.rule,
                    thresholds=judged.thresholds, **said)


def match_claim(runs, missing):
    """'About 1E-14 different in RMSE': cuTWED's FP64 distances against our sequential reference
    (twed.c's algorithm at these sizes), the largest relative difference of each validated
    set, by the "at most" rule against the seed's MATCH_REL."""
    peers = tp.peer_device(runs)
    checked = [r for r in peers if r.passed and r.validation.get("checked")]
    claim = "cuTWED's FP64 distances match the sequential TWED's to about 1e-14"
    if not checked:
        why = missing or ("cuTWED was not run here" if not peers else
                          f"cuTWED here: {rc.not_run_why(peers[0])}, not validated")
        return rc.Claim(T2, claim, "~1e-14", "-", rc.NOT_MEASURED, why, **SAID["match"])
    errors = [ladder_results.number(r.validation.get("max_rel_error")) for r in checked]
    # A set with a failed distance counts as beyond any bound.
    values = [float("inf") if e is None or r.validation.get("failures") else e
              for e, r in zip(errors, checked)]
    judged = rc.judge("at most", values, MATCH_REL, fmt=lambda e, digits=2: f"{e:.{digits}g}")
    worst = max((e for e in errors if e is not None), default=None)
    distances = sum(ladder_results.number(r.validation["checked"]) or 0 for r in checked)
    ours = (f"largest relative difference {'-' if worst is None else f'{worst:.2g}'} over "
            f"{len(checked)} validated points ({distances:,.0f} distances)")
    why = ("cuTWED run here against our reference; the seed does not say whether its RMSE is "
           "relative: judged on the largest relative difference")
    return rc.Claim(T2, claim, "~1e-14", ours, judged.verdict,
                    "; ".join(w for w in (judged.note, why) if w), rule=judged.rule,
                    thresholds=judged.thresholds, **SAID["match"])


# ---- the section -----------------------------------------------------------------------------

def section(ctx):
    runs = all_runs(ctx, PAPER)
    seed = {p["N"]: p for p in tp.paper_rows()}
    view, missing = pair_view(runs), missing_config(ctx, PAPER)
    mismatch = tp.paper_mismatch(tp.pair_mode(runs))  # sweep DIM's dimensions are its point
    parts, claims = [], []
    for body, more in (fig9a(ctx, view, seed, missing), fig9b(ctx, view, seed, missing),
                       fig10(ctx, runs, seed, missing),
                       table2(ctx, [r for c in SET_CONFIGS for r in all_runs(ctx, c)],
                              missing_config(ctx, VALIDATION))):
        parts.append(body)
        claims += more
    intro = (f"{tp.NOTES['source']} {tp.NOTES['remarks']}\n\n"
             + (f"**The seed's numbers are for {tp.NOTES['data']}; {mismatch}.**\n\n"
                if mismatch else "")
             + peer_note(ctx) + "\n" + RULES + "\n")
    figs = rc.md_figure_groups(ctx, FIGURE_GROUPS, "No figure was drawn (matplotlib missing, or "
                                                   "no run to draw).\n")
    ladders = rc.md_figures(ctx, "twed_ladder", "TWED ladder")
    body = (intro + "\n".join(parts) + "\n### TWED figures\n\n" + figs
            + ("\n#### Ladders\n\n" + ladders if ladders else ""))
    return rc.Section(TITLE, body, claims)

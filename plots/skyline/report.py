"""REPORT.md's skyline section: Min, Han and Lee (2010) beside the runs of config skyline-paper.
The seed's text gives its Fig. 11 only as gains between steps, so those are what is judged: on
the seed's own forms of its four steps where they ran (steps 12-15), ladder's forms of them
(steps 4-7) apart, as ladder's checks."""
import dataclasses
import math

from .. import selection
from .. import results as ladder_results
from .. import report_common as rc

from . import data as sp

SEED, TITLE = "seed 004: Min, Han and Lee 2010", "Skyline queries"
CONFIG = "skyline-paper"
SEED_SWEEP = "fig11"  # the sweep of configs/skyline/paper.json that is the seed's Fig. 11
PANELS = {dist: f"Skyline Fig. 11{panel}" for dist, panel in sp.FIG11_PANELS.items()}
FIG11C = "Skyline Fig. 11c"
FIG11AB = "Skyline Fig. 11a, 11b"  # a claim on both panels at once
FIG11C_DIST = "anticorrelated"  # the seed's Fig. 11c is drawn on anti-correlated data
# Skyline sizes: the count of one random data set spreads around its expectation; a Poisson
# count's spread is its square root, and 5% covers the rest.
SIZE_SIGMAS, SIZE_REL = 3.0, 0.05
SIZE_D = (2, 8, 12, 16)  # the d whose expected sizes the study's brief quotes
README = "variants/skyline/README.md"
# The seed's claims on naive, APC, DWE and ALR are about its code, so they are judged on its
# own forms of the four steps (sp.SEED_FORMS) where the results have them; the same claims on
# ladder's forms (steps 4-7) are ladder's checks, their words starting with LADDERS. Results
# without the seed's forms are judged on steps 4-7, and their claims say so (NO_SEED_FORMS).
LADDERS = "ladder's steps 4-7: "
NO_SEED_FORMS = ("no run of the seed's own forms (steps 12-15) in these results: judged on "
                 "ladder's steps 4-7")
# Why a gain between ladder's forms (steps 4-7) does not reproduce on Hopper, as the study's
# README argues it; the counters themselves come from the runs' profiles (rc.with_profile),
# never typed here.
WHY = {
    ("naive", "apc"): "with d compiled in, each thread of naive already copies d consecutive "
                      "floats, and the tile copies are a small share of the work; Hopper's L1 "
                      f"serves the strided copies ({README})",
    ("apc", "dwe"): "the branch-free test compares every attribute of every pair twice (not "
                    "worse, equal), while the early-exit test leaves a pair at its first worse "
                    "attribute, mostly the same one for all lanes of a warp on Hopper "
                    f"({README})",
    ("dwe", "alr"): "with each thread's point in registers and tile rows read by broadcast, "
                    "only the row stores (one per tile point) can conflict; ALR's padding "
                    f"removes those, a small share of the work ({README})",
    ("naive", "alr"): "\"no test that compares every attribute twice, as the seed's DWE and ALR "
                      "do, can be 3x naive here, with or without bank conflicts\": on Hopper "
                      f"compares issue at half rate ({README})",
    "dwe_slower": "slower here, but not from bank conflicts: DWE's reads are broadcasts, "
                  "which cannot conflict, and it compares every attribute of every pair twice "
                  f"where naive leaves a pair at its first worse attribute ({README})",
    "dwe_even": "DWE's reads are broadcasts here, which cannot conflict; at an even d only its "
                f"row stores can, once per tile point ({README})",
}
# The same for the seed's own forms (steps 12-15), where each thread's point is read from its
# shared row at every pair, as the README's section on them argues it.
WHY_SEED = {
    ("naive", "apc"): "the tile copies are a small share of the work, and Hopper's L1 serves "
                      f"the strided copies of the naive step ({README})",
    ("apc", "dwe"): "the branch-free test reads every attribute of every pair, while on these "
                    "data the early exits are cheap (the lanes of a warp test the same tile "
                    "point and mostly leave at the same attribute) and save most of the work "
                    f"({README})",
    ("dwe", "alr"): "ALR removes the conflicts of the own-row reads; what that saves depends on "
                    "the stride (none at an odd d, where there is nothing to pad) and on how "
                    f"many lanes are still active ({README})",
    ("naive", "alr"): "without bank conflicts the branch-free test still reads every attribute "
                      "of every pair and executes several times naive's instructions per "
                      f"point, where naive's early exits save most of the work ({README})",
    "dwe_slower": "as the seed's: each lane reads its own shared row at every pair, rows d "
                  "floats apart, so at d = 8 and 16 that many lanes share a bank (the runs' "
                  "fact bank_conflict_ways); and the test reads every attribute where naive "
                  f"leaves a pair early ({README})",
    "dwe_even": "at an even d the seed's form reads the own rows with gcd(d, 32) lanes to a "
                "bank and at d + 1 with none, but the extra attribute costs every pair more "
                f"where few lanes are still active ({README})",
}

# The seed's words (quote, place) for the claims not built from seed.json's gains, which carry
# their own.
SAID = {
    "dwe_slower": ("그림 11을 보면 대부분의 경우 상당한 성능 향상을 얻을 수 있지만 속성의 수가 8개, "
                   "16개인 경우 naive 알고리즘이보다 좋지 않은 성능을 나타낸다.", "§5.2, Fig. 11"),
    "dwe_even": ("그림 11의 (c)의 실험 결과를 보면 DWE의 경우 짝수 개의 속성을 갖는 데이터가 속성이 "
                 "하나 더 많은 홀수 개의 속성을 갖는 데이터 보다 좋지 않은 성능을 나타낸다.",
                 "§5.3, Fig. 11(c)"),
    "alr_even": ("이런 문제를 해결하기 위해 짝수 개의 속성을 갖는 객체의 마지막 속성으로 패딩 값을 "
                 "삽입하여 발생할 수 있는 뱅크 충돌을 사전에 방지하였다.", "§5.3"),
    "fewer_d": ("naive 알고리즘에 의해 ALR 알고리즘은 ... 향상되었으며, 이는 속성의 수가 적을수록 더 "
                "큰 폭의 성능 향상을 얻을 수 있었다.", "§6"),
    "apc_any_n": ("성능 향상 정도는 전체 데이터 집합의 수와 형식에 상관없이 비슷한 결과를 얻었다.",
                  "§5.1"),
}


# ---- the seed's data set ----------------------------------------------------------------------

def seed_data(runs):
    """(point, runs) of the data set that holds the seed's Fig. 11 sweep (n = 10^6 at paper
    scale), with the other sweeps at the same n; ((), []) when there is none."""
    sets = sp.data_sets(runs)
    if not sets:
        return (), []
    return max(sets.items(), key=lambda item: sum(r.sweep == SEED_SWEEP for r in item[1]))


def n_text(point):
    n = ladder_results.number(dict(point).get("n"))
    return f"{n:,.0f}" if n is not None else "?"


def missing_why(at, steps, dist):
    """Why no gain between the steps could be formed: a failed run's status, or no run."""
    for v in steps:
        runs = list(at.get(v, {}).values())
        if not runs:
            return f"no run of {sp.name_of(v)} on {sp.DIST_TEXT.get(dist, dist)} data"
        failed = next((r for r in runs if not selection.seconds(r)), None)
        if failed is not None and not any(selection.seconds(r) for r in runs):
            return f"{sp.name_of(v)}: {sp.why_not(failed, 80)}"
    return "no d where both ran"


# ---- verdicts ---------------------------------------------------------------------------------

def as_factor(reduction):
    """A time reduction in percent (an rc.Ratio with its interval) as the ratio of times it
    means, 1 / (1 - r): the factor rule judges that."""
    to = lambda r: 1 / (1 - r / 100)  # noqa: E731
    lo_hi = rc.spread(reduction)
    return rc.Ratio(to(reduction), lo_hi and reduction.interval.like(to(lo_hi[0]), to(lo_hi[1])))


def as_reduction(factor):
    """The time reduction in percent a ratio of times means."""
    return 100 * (1 - 1 / factor)


def run_at(at, v, d):
    return at.get(v, {}).get(d)


def mean_gain(at, before, after, ds):
    """Our time reduction from step `before` to `after` in percent, the mean over ds of
    1 - t_after / t_before, as an rc.Ratio. Its interval is the mean of each d's interval's
    ends (at least as wide as the mean's own): a 95% one where every run ran several
    processes, else a sample range."""
    times = [rc.run_ratio(run_at(at, after, d), run_at(at, before, d)) for d in ds]
    ends = [rc.spread(t) or (t, t) for t in times]
    kinds = [t.interval for t in times if t.interval is not None]
    processes = min((i.processes for i in kinds), default=1)
    return rc.Ratio(100 * sp.mean(1 - t for t in times), ladder_results.Interval(
        100 * sp.mean(1 - hi for _lo, hi in ends), 100 * sp.mean(1 - lo for lo, _hi in ends),
        processes if all(i.confidence for i in kinds) else 1))


def pct_text(value, digits=None):
    """A reduction in percent as sp.pct writes it ('+28%'); digits: that many significant
    digits (an interval's ends, rc.fmt_interval)."""
    return sp.pct(value / 100) if digits is None else f"{value:+.{digits}g}%"


# ---- claims -----------------------------------------------------------------------------------

def of_dist(runs, dist):
    return [r for r in runs if sp.dist_of(r) == dist]


def gain_claims(table, runs, gain, dist, note, forms, why):
    """The seed's gain on one distribution, and DWE's exception (slower at d = 8, 16), judged
    on the steps `forms` names ({the seed's step: variant}) with the reasons `why` gives."""
    step_from, step_to, seed = gain["from"], gain["to"], gain[dist]
    before, after = forms[step_from], forms[step_to]
    at = table.get(dist, {})
    except_d = gain.get("except_d", ())
    by_d = {d: r for d, r in sp.reductions(at, before, after).items() if d not in except_d}
    ours = mean_gain(at, before, after, by_d) if by_d else None
    seed_x = 1 / (1 - seed / 100)
    judged = rc.judge("factor", [as_factor(ours)] if ours is not None else [], seed_x)
    verdict, crossing = judged.verdict, judged.note
    claim = f"{sp.name_of(step_to)} ~{seed}% faster than {sp.name_of(step_from)}"
    if except_d:
        claim += f" (except d = {', '.join(map(str, except_d))})"
    if gain.get("note"):
        claim += f" ({gain['note']})"
    text = f"{rc.fmt_measured(ours, pct_text)} ({sp.d_text(by_d)})" if by_d else "-"
    missing = "" if by_d else missing_why(at, (before, after), dist)
    band = "-".join(f"{as_reduction(b):.3g}%" for b in rc.factor_band(seed_x))
    # As factors: a time cut by r is 1 / (1 - r) times faster.
    counters = rc.profile_why(of_dist(runs, dist), before, after)
    claims = [rc.Claim(PANELS[dist], claim, f"{seed}% faster (band {band})", text, verdict,
                       "; ".join(w for w in (crossing, rc.why_of(
                           verdict, why.get((step_from, step_to), ""), missing, counters, note))
                                 if w),
                       seed_x=seed_x, ours_x=tuple(1 / (1 - r) for r in by_d.values()),
                       quote=gain["quote"], place=gain["place"], rule=judged.rule,
                       thresholds=judged.thresholds)]
    if except_d:
        claims.append(slower_claim(at, of_dist(runs, dist), step_to, except_d, dist, note, forms,
                                   why))
    return claims


def at_each_d(target, claim, seed, checks, kind, missing, known, note, said, counters=""):
    """A statement checked at several d by the rule of its kind, checks [(what we found, our
    value there: a ratio of times (an rc.Ratio) taken the way the rule reads it)]; `said`, the
    seed's (quote, place); `counters`, the profiles' comparison of the steps, shown whatever the
    verdict."""
    judged = rc.judge(kind, [r for _text, r in checks])
    return rc.Claim(target, claim, seed, "; ".join(text for text, _r in checks) or "-",
                    judged.verdict, "; ".join(w for w in (judged.note, rc.why_of(
                        judged.verdict, known, "" if checks else missing, counters, note)) if w),
                    quote=said[0], place=said[1], rule=judged.rule, thresholds=judged.thresholds)


def slower_claim(at, runs, step, ds, dist, note, forms, why):
    """The seed's exception: its `step` slower than naive at each of `ds` (bank conflicts),
    judged on the variants `forms` names."""
    variant, naive = forms[step], forms["naive"]
    checks = []
    for d in ds:
        ratio = rc.run_ratio(run_at(at, variant, d), run_at(at, naive, d))
        if ratio:
            checks.append((f"d={d}: {rc.fmt_measured(ratio)} naive's time", ratio))
    return at_each_d(PANELS[dist], f"{sp.name_of(step)} slower than naive at d = "
                     f"{', '.join(map(str, ds))} (bank conflicts)", "slower", checks, "direction",
                     missing_why(at, (variant, naive), dist), "", note, SAID["dwe_slower"],
                     # The seed's cause is stated in the claim, so ours is said even when it holds.
                     "; ".join(p for p in (why["dwe_slower"] if checks else "",
                                           rc.profile_why(runs, naive, variant, {"d": ds[0]}))
                               if p))


def fig11c_claims(table, note, forms, why):
    """Fig. 11c on anti-correlated data: DWE slower at an even d than at d + 1, ALR not; judged
    on the variants `forms` names."""
    at = table.get(FIG11C_DIST, {})
    claims = []
    for role, claim, slower, said in (
            ("dwe", "anti-correlated: DWE slower at an even d than at d + 1 (bank "
                    "conflicts)", True, SAID["dwe_even"]),
            ("alr", "anti-correlated: ALR's padding removes it, no slower at an even d than "
                    "at d + 1", False, SAID["alr_even"])):
        step = forms[role]
        checks = []
        for d in sp.pairs_of(at):
            ratio = rc.run_ratio(run_at(at, step, d + 1), run_at(at, step, d))
            if ratio:  # the time at d over that at d + 1: slower (direction) or not (no slower)
                checks.append((f"time at d={d + 1} / at d={d}: {rc.fmt_measured(ratio)}",
                               rc.reciprocal(ratio)))
        missing = (missing_why(at, (step,), FIG11C_DIST)
                   if not any(r.seconds for r in at.get(step, {}).values())
                   else "no even d with d + 1 among the runs")
        claims.append(at_each_d(FIG11C, claim, "slower" if slower else "no slower", checks,
                                "direction" if slower else "no slower", missing,
                                why["dwe_even"] if role == "dwe" else "", note, said))
    return claims


def size_claim(point, runs, quick):
    """Our skyline sizes of the independent points beside the expected sizes: a check of
    ours (seed.json's expected_skyline_size says where they come from), not the seed's."""
    found, _clashes = sp.sizes(runs)
    ours, expected = found.get(sp.EXPECTED["distribution"], {}), sp.EXPECTED_SIZES
    claim = (f"skyline size of {sp.EXPECTED['n']:,} independent points: about "
             + ", ".join(f"{sp.count_text(expected[d])} at d = {d}" for d in SIZE_D))
    ds = sorted(set(ours) & set(expected))
    seed = "; ".join(f"d={d}: {sp.count_text(expected[d])}" for d in ds) or "-"
    why = sp.expected_applies(point, runs) if point else "no run of the seed's data set"
    if why and quick:
        why = f"quick scale: {why}"
    if why or not ds:
        return rc.Claim(PANELS["independent"], claim, seed, "-", rc.NOT_MEASURED,
                        why or "no passed run reports a skyline size of independent points",
                        source=rc.FROM_LADDER)
    text = "; ".join(f"d={d}: {ours[d]:,.0f} ({ours[d] / expected[d] - 1:+.1%})" for d in ds)
    off = [d for d in ds if abs(ours[d] - expected[d])
           > max(SIZE_REL * expected[d], SIZE_SIGMAS * math.sqrt(expected[d]))]
    verdict = rc.verdict_of_count(len(ds) - len(off), len(ds))
    absent = [d for d in SIZE_D if d not in ours]
    why = [f"off at d = {', '.join(map(str, off))}" if off else "",
           f"not measured at d = {', '.join(map(str, absent))}" if absent else ""]
    return rc.Claim(PANELS["independent"], claim, seed, text, verdict,
                    "; ".join(w for w in why if w), source=rc.FROM_LADDER)


def over(a, b):
    """a / b of two Ratios, its interval from their ends (a's low over b's high, a's high
    over b's low): a 95% one where both are."""
    (a_lo, a_hi), (b_lo, b_hi) = rc.spread(a) or (a, a), rc.spread(b) or (b, b)
    kinds = [x.interval for x in (a, b) if x.interval is not None]
    processes = min((i.processes for i in kinds), default=1)
    return rc.Ratio(a / b, ladder_results.Interval(
        a_lo / b_hi, a_hi / b_lo, processes if all(i.confidence for i in kinds) else 1))


def fewer_d_claim(table, dist, note, forms):
    """The seed's conclusion: ALR gains more over naive the fewer the attributes. A direction
    claim: from each d we ran to the next, ALR's time over naive's grows; judged on the
    variants `forms` names."""
    at = table.get(dist, {})
    alr_v, naive_v = forms["alr"], forms["naive"]
    alr = {d: rc.run_ratio(run_at(at, alr_v, d), run_at(at, naive_v, d))
           for d in sorted(at.get(alr_v, {}))}
    alr = {d: r for d, r in alr.items() if r}
    pairs = [(d, e, over(alr[e], alr[d])) for d, e in zip(alr, list(alr)[1:])]
    checks = [(f"ALR/naive at d={e} / at d={d}: {rc.fmt_measured(r)}", r) for d, e, r in pairs]
    off = [f"{d} to {e}" for d, e, r in pairs if not r >= rc.NOISE]
    missing = "only one d where both ran" if alr else missing_why(at, (naive_v, alr_v), dist)
    return at_each_d(PANELS[dist], "ALR's gain over naive larger with fewer attributes (ALR's "
                     "time over naive's grows with d)", "grows from each d to the next", checks,
                     "direction", missing, f"not from d = {', '.join(off)}" if off else "", note,
                     SAID["fewer_d"])


def same_data(point, other):
    """Whether data set `other` differs from `point` (sp.data_sets' keys) in n alone."""
    return other != point and ({k: v for k, v in point if k != "n"}
                               == {k: v for k, v in other if k != "n"})


def apc_gain(at, steps):
    """({d: reduction}, APC's gain over naive as the factor rule reads it (an rc.Ratio: the
    mean reduction over those d, as a ratio of times)) on one distribution of one data set,
    over the d where both of `steps` (naive's form, APC's) passed."""
    by_d = sp.reductions(at, *steps)
    return by_d, (as_factor(mean_gain(at, *steps, by_d)) if by_d else None)


def apc_any_n_claim(table, point, forms, others, note=""):
    """The seed's APC gain 'similar whatever the data set's size and distribution': on each
    distribution, APC's gain over naive (the variants `forms` names) at every other n we ran
    over that at the seed's n, over the d both n ran, by the "same" rule. `others`: [(point,
    table)] of the other data sets; `note`, the scale's (quick_note)."""
    steps = forms["naive"], forms["apc"]
    said = dict(quote=SAID["apc_any_n"][0], place=SAID["apc_any_n"][1])
    claim = "APC's gain over naive about the same at any n and distribution"
    checks, why, off = [], [], []
    # The other sizes where both steps ran at all (the 10^7 points run the sort-first steps only).
    others = [(p, t) for p, t in others
              if all(any(v in at for at in t.values()) for v in steps)]
    for dist in PANELS:
        seed_at = table.get(dist, {})
        for other, other_table in others:
            at = other_table.get(dist, {})
            by_d, _gain = apc_gain(at, steps)
            ds = [d for d in by_d if d in sp.reductions(seed_at, *steps)]
            if not ds:
                why.append(missing_why(at, steps, dist) if not by_d else
                           f"no d where both ran at n = {n_text(point)} and {n_text(other)}")
                continue
            gain = as_factor(mean_gain(at, *steps, ds))
            seed_gain = as_factor(mean_gain(seed_at, *steps, ds))
            ratio = over(gain, seed_gain)
            if not 1 / rc.SAME <= ratio <= rc.SAME:
                off.append(f"{sp.DIST_TEXT.get(dist, dist)} data at n = {n_text(other)}")
            checks.append((f"{sp.DIST_TEXT.get(dist, dist)}: {rc.fmt_measured(gain)} at n = "
                           f"{n_text(other)} over {rc.fmt_measured(seed_gain)} at n = "
                           f"{n_text(point)}: {rc.fmt_measured(ratio)} ({sp.d_text(ds)})", ratio))
    if not others:
        why = [f"needs naive and APC at a second n: the sweeps of {CONFIG} run them at "
               f"n = {n_text(point)} only"]
        if not any(sp.reductions(table.get(dist, {}), *steps) for dist in PANELS):
            why += [missing_why(table.get(dist, {}), steps, dist) for dist in PANELS]
    judged = rc.judge("same", [r for _text, r in checks])
    why = list(dict.fromkeys(why))  # a step's status, said once for every size and distribution
    known = f"not about the same on {', '.join(off)}" if off else ""
    gains = ("each gain the mean time reduction over the d both sizes ran, as a ratio of "
             "times" if checks else "")
    return rc.Claim(FIG11AB, claim, "similar", "; ".join(t for t, _r in checks) or "-",
                    judged.verdict, "; ".join(dict.fromkeys(w for w in (
                        judged.note, rc.why_of(judged.verdict, known, *why, gains, note))
                        if w)),
                    rule=judged.rule if checks else "",
                    thresholds=judged.thresholds if checks else (), **said)


def quick_note(ctx, point):
    """At quick scale the gains are judged at the sizes run: say which."""
    if not ctx.quick:
        return ""
    n = ladder_results.number(dict(point).get("n"))
    if n == sp.EXPECTED["n"]:
        return "quick scale: the seed's n, fewer repetitions"
    return f"quick scale: n = {n_text(point)}, the seed's {sp.EXPECTED['n']:,}"


def technique_claims(table, runs, note, forms, why):
    """{distribution or FIG11C: [claims]} of the seed's claims on its four steps, judged on
    the variants `forms` names, with the reasons `why` gives."""
    out = {dist: [c for gain in sp.NOTES["gains"]
                  for c in gain_claims(table, runs, gain, dist, note, forms, why)]
                 + [fewer_d_claim(table, dist, note, forms)] for dist in PANELS}
    out[FIG11C] = fig11c_claims(table, note, forms, why)
    return out


def as_ladders(claim):
    """One of the seed's claims judged on ladder's steps 4-7: ladder's check, not the seed's
    claim (its words start with LADDERS; no quote, never counted)."""
    return dataclasses.replace(claim, claim=LADDERS + claim.claim, quote="", place="",
                               source=rc.FROM_LADDER)


def claims_of(ctx, point, runs, others=()):
    """The section's claims on the seed's data set (point, runs); `others`: [(point, runs)] of
    the data sets that differ from it in n alone."""
    table, _counts = sp.best_runs(runs)
    other_tables = [(p, sp.best_runs(group)[0]) for p, group in others]
    note = quick_note(ctx, point)
    seeded = sp.has_seed_forms(table)
    seed_note = "; ".join(n for n in (note, "" if seeded else NO_SEED_FORMS) if n)
    judged = technique_claims(table, runs, seed_note, sp.forms_of(table),
                              WHY_SEED if seeded else WHY)
    claims = []
    for dist in PANELS:
        claims += judged[dist]
        if dist == sp.EXPECTED["distribution"]:
            claims.append(size_claim(point, runs, ctx.quick))
    claims += ([apc_any_n_claim(table, point, sp.forms_of(table), other_tables, seed_note)]
               + judged[FIG11C])
    if seeded:  # ladder's forms of the same steps, apart
        ladders = technique_claims(table, runs, note, sp.LADDER_FORMS, WHY)
        claims += [as_ladders(c) for group in ladders.values() for c in group]
        claims.append(as_ladders(apc_any_n_claim(table, point, sp.LADDER_FORMS, other_tables,
                                                 note)))
    return claims


# ---- the section's text -----------------------------------------------------------------------

RULES = f"""What is measured (the rules are at the top of the report):
- **Gains** are **factor** claims: {sp.NOTES['gain_rule']} Ours is the mean of that reduction
  over the d where both steps passed (without d = 8 and 16 for DWE against APC, as the seed),
  judged as the ratio of times it means (82% faster: 5.56x), with the band the rule accepts
  shown in percent. The Tesla C1060 of 2008 is generations older than the GPUs we run on: only
  the size of an effect can carry over.
- **Statements at several d**: DWE slower than naive at d = 8 and 16, and Fig. 11c's DWE slower
  at an even d than at d + 1 (judged on anti-correlated data as the seed's panel), are
  **direction** claims; ALR no slower at an even d, a **no slower** claim; ALR's gain over naive
  larger with fewer attributes, a **direction** claim from each d we ran to the next (ALR's time
  over naive's grows there).
- **Whose steps**: the seed's claims on naive, APC, DWE and ALR are about its code, so
  they are judged on the seed's own forms of the four steps (steps 12-15: d a run-time value,
  each thread's point in shared memory and read at every pair, where the seed's bank conflicts
  arise) wherever the results have them. The same claims on ladder's steps 4-7 (the seed's
  techniques at their best form on Hopper: d compiled in, the point in registers) are listed
  apart, their words starting "{LADDERS.strip()}", as ladder's checks, not counted. Results
  without steps 12-15 are judged on steps 4-7, and each of those claims says so.
- **APC's gain about the same at any n**: a **same** claim on each distribution: APC's gain
  over naive at each other n we ran (sweep `apc_n`: 10^5 points at the paper scale) over its
  gain at the seed's n, each gain the mean reduction over the d both sizes ran, as a ratio of
  times. Judged on the seed's forms, ladder's apart, as its other claims.
- **Skyline sizes** (independent points; a check of ours, not a claim of the seed, which gives
  no sizes): *reproduces* when ours is within {SIZE_REL:.0%} or
  {SIZE_SIGMAS:g} square roots (whichever is more; a random count's spread) of the expected
  size at every d we ran, *partly* at some d; judged only where the expected sizes apply
  (n = {sp.EXPECTED['n']:,}, plain points).
- The seed's figure values are not in its text, so its absolute times are not compared.
- A gain's interval is the mean of each d's (1 - the interval of the time ratio); each d's
  time ratio has its own.
- Any claim with no passed run is *not measured*, with the runs' status (e.g. skipped: no
  CUDA device).
"""


def cell(run):
    """Our median time, or the run's status ('skipped', 'incorrect', '-' for none)."""
    if run is None:
        return "-"
    return rc.fmt_seconds(run.seconds) if run.seconds else (run.status or "no timing")


def times_tables(point, runs, seed_set):
    """A table per distribution of one data set: time per step and d, the skyline sizes."""
    table, _counts = sp.best_runs(runs)
    found, clashes = sp.sizes(runs)
    applies = not sp.expected_applies(point, runs)
    parts = []
    for dist in sp.distributions(table):
        at = table[dist]
        ds = sorted({d for at_d in at.values() for d in at_d})
        rows = [[sp.label_of(runs, v)] + [cell(at[v].get(d)) for d in ds]
                for v in sp.variants_of(runs) if v in at]
        sizes = found.get(dist, {})
        rows.append(["skyline size"] + [f"{sizes[d]:,.0f}" if d in sizes else "-" for d in ds])
        if applies and dist == sp.EXPECTED["distribution"]:
            rows.append(["expected size"] + [f"{sp.EXPECTED_SIZES[d]:,.0f}"
                                             if d in sp.EXPECTED_SIZES else "-" for d in ds])
        panel = ("" if not seed_set else f" (the seed's Fig. 11{sp.FIG11_PANELS[dist]})"
                 if dist in sp.FIG11_PANELS else " (not in the seed)")
        parts.append(f"**{sp.DIST_TEXT.get(dist, dist)}, n = {n_text(point)}{panel}**, median "
                     "time (the fastest passed setting where a step ran several):\n\n"
                     + rc.md_table(["step"] + [f"d = {d}" for d in ds], rows))
    notes = sp.not_drawn_notes(table, "not timed") + [f"runs disagree on the skyline size at {c}"
                                                      for c in clashes]
    parts += ["".join(f"- {n}\n" for n in notes)]
    return "\n".join(p for p in parts if p)


def fig11c_table(runs):
    """DWE and ALR (each form that ran) at each even d beside d + 1, per distribution."""
    table, _counts = sp.best_runs([r for r in runs if selection.short_variant(r) in sp.FIG11C_STEPS])
    steps = sp.fig11c_steps(table)
    rows = []
    for dist in sp.distributions(table):
        at = table[dist]
        for d in sp.pairs_of(at):
            for v in steps:
                t0, t1 = sp.times(at, v, d, d + 1)
                rows.append([sp.DIST_TEXT.get(dist, dist), sp.name_of(v), str(d),
                             rc.fmt_seconds(t0), rc.fmt_seconds(t1),
                             rc.fmt_ratio(t1 / t0) if t0 and t1 else "-"])
    if not rows:
        return "No DWE or ALR run at an even d and at d + 1.\n"
    return rc.md_table(["distribution", "step", "d", "time at d", "time at d + 1",
                        "d + 1 / d"], rows)


def gains_table(table):
    columns, rows = sp.gain_rows(table)
    header = ["time reduction"] + [f"{sp.DIST_TEXT.get(s, s)}: {who}" for s, who in columns]
    return rc.md_table(header, [cells for cells, _colours in rows])


def body(ctx, point, runs, all_runs):
    parts = [
        f"Source: {sp.NOTES['source']}\n",
        "The seed runs a nested-loop skyline on a Tesla C1060 over 1,000,000 points (Fig. 11: "
        "time against d, (a) independent, (b) anti-correlated, (c) DWE at an even d beside "
        "d + 1) and reports the gain of each step: APC (coalesced loads) over naive, DWE "
        "(branch-free test) over APC, ALR (rows padded against bank conflicts) over DWE. Our config "
        f"`{CONFIG}` runs those steps, in the seed's own forms (steps 12-15) and in ladder's "
        "(steps 4-7), and our later ones on the same generator's data.\n",
        RULES,
        f"### Fig. 11a and 11b: gains, n = {n_text(point)}\n",
        gains_table(sp.best_runs(runs)[0]),
        rc.md_figures(ctx, "skyline_fig11_", "Fig. 11: time against d per step, with the gains"),
        "### Times per d and step\n",
    ]
    parts += [times_tables(p, group, p == point) for p, group in sp.data_sets(all_runs).items()]
    parts += [
        "### Skyline sizes\n",
        rc.md_figures(ctx, "skyline_sizes", "Skyline size against d, beside the expected size "
                                         "for 10^6 independent points"),
        "### Fig. 11c: DWE and ALR at an even d beside d + 1\n",
        fig11c_table(runs),
        rc.md_figures(ctx, "skyline_fig11c", "Fig. 11c: DWE and ALR at d and d + 1"),
        "### Ladders\n",
        rc.md_figures(ctx, "skyline_ladder", "The ladder at each point"),
    ]
    if ctx.quick:
        parts.insert(1, "**Quick scale:** the sizes are smaller than the seed's; gains are "
                        "judged at the sizes run, the expected skyline sizes only at n = "
                        f"{sp.EXPECTED['n']:,}.\n")
    return "\n".join(parts)


def section(ctx):
    all_runs = [r for r in ctx.runs(CONFIG) if r.study == "skyline"]
    point, runs = seed_data(all_runs)
    others = [(p, group) for p, group in sp.data_sets(all_runs).items() if same_data(point, p)]
    claims = claims_of(ctx, point, runs, others)
    if ctx.results(CONFIG) is None:
        return rc.unmeasured(TITLE, CONFIG, RULES, claims)
    return rc.Section(TITLE, body(ctx, point, runs, all_runs), claims)

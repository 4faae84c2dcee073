"""The skyline seed (Min, Han and Lee 2010; seed.json) and the runs of skyline-paper as both the
figures and the report read them: data sets, the fastest passed run per distribution, step and
d, the gains between steps, the skyline sizes, Fig. 11c's pairs."""
from .. import pages, selection, studies
from .. import results as ladder_results

NOTES = studies.seed(__file__)
EXPECTED = NOTES["expected_skyline_size"]
EXPECTED_SIZES = {int(d): size for d, size in EXPECTED["sizes"].items()}
NAMES = {"seq_bnl": "BNL", "seq_sfs": "SFS", "openmp": "OpenMP", "naive": "naive",
         "apc": "APC", "dwe": "DWE", "alr": "ALR", "warp_vote": "warp vote",
         "sort_filter": "sort-filter", "partition": "partition masks",
         "prefilter": "pre-filter", "naive_seed": "naive (seed's form)",
         "apc_seed": "APC (seed's form)", "dwe_seed": "DWE (seed's form)",
         "alr_seed": "ALR (seed's form)"}
# The seed's own forms of its four steps (steps 12-15: d a run-time value, each thread's point
# in shared memory, read at every pair), by ladder's step of the same technique (4-7). The
# seed's claims on its steps are judged on these where the results have them (forms_of).
SEED_FORMS = {"naive": "naive_seed", "apc": "apc_seed", "dwe": "dwe_seed", "alr": "alr_seed"}
LADDER_FORMS = {step: step for step in SEED_FORMS}
# Our steps past the seed's, each against the one before, and the GPU ladder overall.
LATER_GAINS = [("alr", "warp_vote"), ("warp_vote", "sort_filter"),
               ("sort_filter", "partition"), ("partition", "prefilter"),
               ("naive", "prefilter")]
# The seed's Fig. 11 panels first, in its order.
DISTRIBUTIONS = ("independent", "anticorrelated", "correlated")
DIST_TEXT = {"independent": "independent", "anticorrelated": "anti-correlated",
             "correlated": "correlated"}
DATA_DEFAULTS = {"decimals": "-1", "shape": "none"}  # the study's defaults: plain BKS points
FIG11_PANELS = {"independent": "a", "anticorrelated": "b"}  # the seed's Fig. 11a and 11b
FIG11C_STEPS = ("dwe", "alr", "dwe_seed", "alr_seed")  # those that ran are drawn
FASTER, SLOWER = "#1e7b3c", pages.INCORRECT


# ---- runs ------------------------------------------------------------------------------------

def d_of(run):
    value = ladder_results.number(run.params.get("d"))
    if value is None:
        value = ladder_results.number(run.data.get("d"))
    return int(value) if value is not None else None


def dist_of(run):
    return str(run.params.get("distribution") or "independent")


def skyline_size(run):
    value = ladder_results.number(run.extras.get("skyline_size"))
    return value if run.passed and value is not None and value >= 0 else None


def name_of(v):
    return NAMES.get(v, v)


def data_sets(runs):
    """{point: runs}: a data set per n, and per decimals and shape where they are not the
    study's defaults, and per seed where seeds differ; points by n."""
    seeds = {str(r.params.get("seed")) for r in runs}
    groups = {}
    for run in runs:
        point = [("n", str(run.params.get("n", run.data.get("n", "?"))))]
        for key, default in DATA_DEFAULTS.items():
            value = str(run.params.get(key, default))
            if value != default:
                point.append((key, value))
        if len(seeds) > 1:
            point.append(("seed", str(run.params.get("seed"))))
        groups.setdefault(tuple(point), []).append(run)
    return dict(sorted(groups.items(), key=lambda item: [
        (ladder_results.number(v) is None, ladder_results.number(v) or 0, v) for _k, v in item[0]]))


def variants_of(runs):
    """Every variant of the runs, in step order."""
    steps = {}
    for run in runs:
        steps.setdefault(selection.short_variant(run), run.step or 99)
    return sorted(steps, key=lambda v: (steps[v], v))


def best_runs(runs):
    """{distribution: {variant: {d: run}}}: at each, the fastest passed run (of several
    settings, e.g. threads or block_points), else the first run (it says why it is not drawn);
    and {(distribution, variant, d): number of passed runs}."""
    groups, table = {}, {}
    for run in runs:
        if d_of(run) is not None:
            groups.setdefault((dist_of(run), selection.short_variant(run), d_of(run)), []).append(run)
    for (s, v, d), group in groups.items():
        table.setdefault(s, {}).setdefault(v, {})[d] = selection.pick(group)
    return table, {key: sum(bool(r.seconds) for r in group) for key, group in groups.items()}


def distributions(table):
    """The distributions present, the seed's Fig. 11 order first."""
    return sorted(table, key=lambda s: (DISTRIBUTIONS.index(s) if s in DISTRIBUTIONS
                                        else len(DISTRIBUTIONS), s))


def label_of(runs, v):
    """'6  DWE' from a run of the variant, with its own label."""
    run = next((r for r in runs if selection.short_variant(r) == v), None)
    return selection.row_name(run) if run else name_of(v)


def has_seed_forms(table):
    """Whether any of the seed's own forms (steps 12-15) ran, passed or not, in `table`
    ({distribution: {variant: {d: run}}})."""
    return any(v in at for at in table.values() for v in SEED_FORMS.values())


def forms_of(table):
    """{the seed's step: the variant its claims are judged on}: the seed's own forms where
    they ran, else ladder's steps 4-7."""
    return SEED_FORMS if has_seed_forms(table) else LADDER_FORMS


def fig11c_steps(table):
    """The steps of FIG11C_STEPS with a run in `table`, in that order."""
    return [v for v in FIG11C_STEPS if any(v in at for at in table.values())]


def why_not(run, max_chars=100):
    """Why a run is not drawn: 'incorrect: 3 of 10 flags off', 'skipped: no CUDA device'."""
    if run.passed:
        return "passed, no timing"
    return selection.with_reason(run.status or "no status", run, max_chars)


def not_drawn_notes(table, what_not="not drawn"):
    """Footnotes for the points without a passed, timed run, grouped by reason: 'not drawn:
    naive d=8 independent, APC d=8 independent and 3 more (skipped: no CUDA device)'."""
    return selection.missing_footnotes([(f"{name_of(v)} d={d} {DIST_TEXT.get(s, s)}", why_not(run))
                                     for s in distributions(table)
                                     for v, at_d in table[s].items()
                                     for d, run in sorted(at_d.items()) if not run.seconds],
                                    0, what_not)


# ---- gains -----------------------------------------------------------------------------------

def reductions(at, before, after):
    """{d: (t_before - t_after) / t_before} over the d where both steps have a passed run."""
    first, second = at.get(before, {}), at.get(after, {})
    out = {}
    for d in sorted(set(first) & set(second)):
        t0, t1 = selection.seconds(first[d]), selection.seconds(second[d])
        if t0 and t1:
            out[d] = (t0 - t1) / t0
    return out


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else None


def d_text(ds):
    """'d = 8', 'd = 8, 16', 'd = 2..16 (8 values)'."""
    ds = sorted(ds)
    if len(ds) > 6:
        return f"d = {ds[0]}..{ds[-1]} ({len(ds)} values)"
    return "d = " + ", ".join(str(d) for d in ds)


def pct(value):
    """'+28%', '-360%', '+1.3%': a time reduction, positive when faster."""
    value *= 100
    return f"{value:+.1f}%" if abs(value) < 10 else f"{value:+.0f}%"


def ours_cell(at, before, after, except_d=()):
    """(text, colour) of our reduction averaged over the common d, and over the common d
    without `except_d` when some are left; the colour says faster or slower."""
    by_d = reductions(at, before, after)
    if not by_d:
        missing = [name_of(v) for v in (before, after)
                   if not any(selection.seconds(r) for r in at.get(v, {}).values())]
        return ((f"no passed run of {' or '.join(missing)}" if missing else "no common d"),
                pages.MUTED)
    total = mean(by_d.values())
    lines = [f"{pct(total)}  ({d_text(by_d)})"]
    colour = FASTER if total > 0 else SLOWER
    kept = {d: r for d, r in by_d.items() if d not in except_d}
    if except_d and kept and len(kept) < len(by_d):
        lines.append(f"{pct(mean(kept.values()))} without "
                     f"d = {', '.join(str(d) for d in except_d)}")
        if (mean(kept.values()) > 0) != (total > 0):
            colour = "black"  # one line faster, the other slower: the signs say which
    return "\n".join(lines), colour


def gain_columns(table):
    """[(distribution, 'seed' or 'ours')]: the seed's and ours for each distribution the seed
    reports, in its order, then ours alone for the others present."""
    seeded = [s for s in DISTRIBUTIONS if any(s in g for g in NOTES["gains"])]
    return ([(s, who) for s in seeded for who in ("seed", "ours")]
            + [(s, "ours") for s in distributions(table) if s not in seeded])


def seed_gain(gain, s):
    """The seed's gain on one distribution: '11% faster', with the d it leaves out; '-'."""
    if s not in gain:
        return "-"
    if gain.get("except_d"):
        return f"{gain[s]}% faster\n(not at d = {', '.join(map(str, gain['except_d']))})"
    return f"{gain[s]}% faster"


def gain_rows(table):
    """The gains table: its columns (gain_columns) and [(cells, colours)], the seed's rows,
    then our later steps' (only those with a value); the first cell says which gain. Where
    the seed's own forms ran, the seed's rows are between them, and the same gains between
    ladder's steps 4-7 follow, beside the seed's values too."""
    columns = gain_columns(table)

    def row(label, seed_text, before, after, except_d=()):
        cells = [(seed_text(s), "black") if who == "seed" else
                 ours_cell(table[s], before, after, except_d) if s in table else
                 ("not run", pages.MUTED) for s, who in columns]
        return [label] + [text for text, _ in cells], ["black"] + [colour for _, colour in cells]

    def seed_rows(forms, said):
        return [row(gain["label"] + said, lambda s, gain=gain: seed_gain(gain, s),
                    forms[gain["from"]], forms[gain["to"]], gain.get("except_d", ()))
                for gain in NOTES["gains"]]
    rows = (seed_rows(SEED_FORMS, " (seed's forms)") + seed_rows(LADDER_FORMS, " (ladder's forms)")
            if has_seed_forms(table) else seed_rows(LADDER_FORMS, ""))
    return columns, rows + [row(f"{name_of(after)} vs {name_of(before)} (ours only)",
                                lambda s: "-", before, after)
                            for before, after in LATER_GAINS
                            if any(reductions(at, before, after) for at in table.values())]


# ---- skyline sizes and Fig. 11c ----------------------------------------------------------------

def count_text(value):
    """'14', '5606', '30.7k', '319k', '1.00M'."""
    if value >= 1e6:
        return f"{value / 1e6:.2f}M"
    if value >= 1e5:
        return f"{value / 1e3:.0f}k"
    return f"{value / 1e3:.1f}k" if value >= 1e4 else f"{value:.0f}"


def sizes(runs):
    """{distribution: {d: size}} from any passed run, and [disagreements] as text."""
    found, clashes = {}, []
    for run in runs:
        size, d = skyline_size(run), d_of(run)
        if size is None or d is None:
            continue
        at = found.setdefault(dist_of(run), {})
        if d in at and at[d] != size:
            clashes.append(f"{DIST_TEXT.get(dist_of(run))} d={d}: {at[d]:.0f} and {size:.0f}")
        at.setdefault(d, size)
    return found, clashes


def expected_applies(point, runs):
    """Why the expected sizes (n = 10^6 plain points) do not apply ('' when they do)."""
    n = ladder_results.number(dict(point).get("n"))
    if n != EXPECTED["n"]:
        have = "no n" if n is None else f"n = {n:,.0f}"
        return f"these runs have {have}, the expected sizes are for n = {EXPECTED['n']:,}"
    extra = [f"{k} = {v}" for k, v in point if k in DATA_DEFAULTS]
    if extra:
        return f"these points are not plain BKS points ({', '.join(extra)})"
    return ""


def times(at, v, *ds):
    """The seconds of step v at each of ds in {variant: {d: run}}, None where it did not pass."""
    return [selection.seconds(at.get(v, {}).get(d)) for d in ds]


def pairs_of(at):
    """The even d with d + 1 where a step of FIG11C_STEPS (DWE or ALR, either form) passed at
    both."""
    return [d for d in sorted({d for v in FIG11C_STEPS for d in at.get(v, {})})
            if d % 2 == 0 and any(all(times(at, v, d, d + 1)) for v in FIG11C_STEPS)]

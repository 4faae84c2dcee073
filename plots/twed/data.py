"""cuTWED's paper (Wright 2020; seed.json) and the runs both TWED figures and the report choose:
ours and cuTWED's (a peer file folded in by config name) at each N, the best FP64 GPU step, the
validation sets' points."""
from .. import selection, studies
from .. import results as ladder_results

NOTES = studies.seed(__file__)
LARGE = "large"  # the sweep of Fig. 10
DIM = "dim"  # one pair at one N in several dimensions: the paper's "R^N made no difference"
# cuTWED's host call (twed: its inputs copied inside), FP64, timed beside its device call on
# single pairs: the paper's Fig. 10b. Apart from cuTWED's runs everywhere else.
PEER_HOST = "peer_cutwed_host"


def n_of(run):
    return ladder_results.number(run.data.get("n")) or ladder_results.number(run.params.get("n"))


def dim_of(run):
    """The dimension of a run's points (R^1 where neither its data nor its params say)."""
    return ladder_results.number(run.data.get("dim")) or ladder_results.number(run.params.get("dim")) or 1


def pair_mode(runs):
    """The single-pair runs of the scaling in N (Fig. 9 and 10); sweep DIM's are apart."""
    return [r for r in runs if r.params.get("mode", "pair") == "pair" and r.sweep != DIM]


def dim_runs(runs):
    """The runs of sweep DIM (one N, several dimensions)."""
    return [r for r in runs if r.sweep == DIM]


def by_dim(runs):
    """{dimension: run}: the fastest correct timed run in each dimension (else the first)."""
    groups = {}
    for run in runs:
        groups.setdefault(dim_of(run), []).append(run)
    return {d: selection.pick(group) for d, group in sorted(groups.items())}


def by_n(runs):
    """{N: run}: the fastest correct timed run at each N (else the first)."""
    groups = {}
    for run in runs:
        if n_of(run) is not None:
            groups.setdefault(n_of(run), []).append(run)
    return {n: selection.pick(group) for n, group in groups.items()}


def ours_gpu(runs):
    return [r for r in runs if r.backend == "gpu" and not r.is_peer and r.precision == "fp64"]


def best_gpu(runs):
    """{N: our fastest correct FP64 GPU step}."""
    return by_n([r for r in ours_gpu(runs) if r.seconds])


def variant_runs(runs, name):
    return by_n([r for r in runs if r.variant == name])


def peer_device(runs, precision="fp64"):
    """cuTWED's runs of its device call (twed_dev, twed_batch_dev) in that precision."""
    return [r for r in runs if r.is_peer and r.precision == precision and r.variant != PEER_HOST]


def peer_runs(runs, precision):
    """{N: cuTWED's fastest run of that precision}, of its device call."""
    return by_n(peer_device(runs, precision))


def host_runs(runs):
    """{N: cuTWED's host call}."""
    return by_n([r for r in runs if r.is_peer and r.variant == PEER_HOST])


def paper_rows():
    """Table 3 of the paper (Fig. 9a's numbers), a dict per N."""
    return [dict(zip(NOTES["table3"]["columns"], row)) for row in NOTES["table3"]["rows"]]


def paper_mismatch(runs):
    """Why the paper's numbers do not apply ('' when they do): R^1, nu = lambda = 1, p = 2."""
    for run in runs:
        for key, value in NOTES["data"].items():
            have = ladder_results.number(run.data.get(key))
            if have is not None and have != value:
                return f"these runs have {key}={have:g}, the paper {value}"
    return ""


# ---- Table 2: the validation sets ------------------------------------------------------------

def points_of(runs, sweep):
    """{point string: runs} of one sweep, in the order they appear."""
    out = {}
    for run in runs:
        if run.sweep == sweep:
            out.setdefault(run.point, []).append(run)
    return out


def fastest(runs):
    """The fastest correct timed run, None when none is."""
    timed = [r for r in runs if r.seconds]
    return min(timed, key=selection.seconds) if timed else None


def set_times(group):
    """(seq_full run, our best FP64 GPU run, cuTWED here's FP64 run) of one point."""
    seq = next((r for r in group if r.variant == "seq_full"), None)
    peer = next(iter(peer_device(group)), None)
    return seq, fastest(ours_gpu(group)), peer


def pairs(group):
    """The pairs a point's runs compute (their data's `pairs`), None when none says."""
    return next((ladder_results.number(r.data.get("pairs")) for r in group
                 if ladder_results.number(r.data.get("pairs"))), None)


def lengths(group):
    """[n, m, dim] of a point's series, from its first run's data."""
    return [ladder_results.number(group[0].data.get(k)) for k in ("n", "m", "dim")]


def set_seq(groups, group):
    """(seq_full run, factor) a point's sequential time comes from: the point's own run, factor
    1; else, where the point has none, the run of another point of the same set whose series
    have the same lengths (one pair of them: config twed-pseudo-periodic-pair), factor the
    point's pairs over that point's. twed.c fills one (n + 1) x (m + 1) matrix for every pair,
    whatever its values, so every pair of a set costs it the same. A timed run is preferred;
    (None, 1.0) when no point of the set has one."""
    seq = set_times(group)[0] if group else None
    if seq is not None or not group or not pairs(group):
        return seq, 1.0
    found = [(set_times(other)[0], pairs(other)) for other in groups.values()
             if other is not group and lengths(other) == lengths(group)]
    found = sorted(((s, k) for s, k in found if s is not None and k), key=lambda f: not f[0].seconds)
    return (found[0][0], pairs(group) / found[0][1]) if found else (None, 1.0)


def point_text(runs):
    """'batch 600x600, n=60' from the runs' params and data facts."""
    run = next((r for r in runs if r.data), runs[0])
    size = "x".join(f"{ladder_results.number(run.data.get(k)):.0f}" for k in ("a_series", "b_series")
                    if ladder_results.number(run.data.get(k)) is not None)
    n = ladder_results.number(run.data.get("n"))
    return " ".join(p for p in (run.params.get("mode", ""), size, f"n={n:.0f}" if n else "") if p)


def set_mismatch(entry, runs):
    """Where our point differs from the paper's set ('' when it does not)."""
    run = next((r for r in runs if r.data), None)
    if run is None:
        return ""
    return ", ".join(f"{k}={ladder_results.number(run.data.get(k)):.0f}" for k, v in entry["data"].items()
                     if ladder_results.number(run.data.get(k)) not in (None, v))

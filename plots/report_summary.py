"""The first page of REPORT.md: what a researcher reads in a minute. The hardware and commit,
one figure of every seed's gains against ours, each study's best step against the best peer and
the hardware limit, and what was not run and why. The details follow it in report.py."""
import math
from pathlib import Path

from . import formats, pages, selection
from . import report_common as rc

FIGURE = "summary.png"  # under the reproduction's figures/
# Verdict -> (colour, marker) in the summary figure; colour-blind safe, told apart by shape too.
STYLE = {rc.REPRODUCES: ("#1b9e77", "o"), rc.PARTLY: ("#d95f02", "s"),
         rc.DOES_NOT: ("#c0392b", "X"), rc.INCONCLUSIVE: ("#7570b3", "P"),
         rc.NOT_COMPARABLE: ("#7f7f7f", "D"), rc.NOT_MEASURED: ("#bbbbbb", "v")}


# ---- the hardware and the commit --------------------------------------------------------------

def first_results(ctx):
    """The first of our results files that can be read: its device and host are the run's."""
    for c in ctx.manifest.get("configs", []):
        results = ctx.results_file(c.get("results") or "")
        if results is not None:
            return results
    return None


def gpu_line(device):
    if not device.get("present", bool(device.get("name"))):
        return "no GPU" + (f" ({device['reason']})" if device.get("reason") else "")
    clocks = f"SM clock up to {device.get('max_sm_clock_mhz', '?')} MHz"
    start, end = device.get("sm_clock_mhz_start"), device.get("sm_clock_mhz_end")
    if isinstance(start, (int, float)) and isinstance(end, (int, float)) and start > 0 and end > 0:
        clocks += f" ({start:.0f} MHz at the start, {end:.0f} at the end)"
    bandwidth = device.get("memory_bandwidth_gbps")
    memory = f", {bandwidth:,.0f} GB/s" if isinstance(bandwidth, (int, float)) else ""
    driver = device.get("driver_release")
    driver = f"driver {driver} (CUDA {device.get('driver_version', '?')})" if driver else \
        f"driver for CUDA {device.get('driver_version', '?')}"
    return (f"{device.get('name', '?')}: compute capability {device.get('compute_capability', '?')}, "
            f"{device.get('sm_count', '?')} SMs, {clocks}{memory}; {driver}, runtime "
            f"{device.get('runtime_version', '?')}")


def cpu_line(host):
    """The CPU's brand and, where the brand is generic (virtual machines), what it is."""
    what = host.get("cpu_microarchitecture")
    ident = host.get("cpu_id")
    detail = ": ".join(t for t in (ident, what) if t)
    cores = host.get("cores", "?")
    return f"{host.get('cpu', '?')}" + (f" ({detail})" if detail else "") + f", {cores} cores"


def hardware_lines(ctx):
    results = first_results(ctx)
    device = results.device if results else ctx.manifest.get("device") or {}
    host = results.host if results else ctx.manifest.get("host") or {}
    ladder = ctx.manifest.get("ladder") or {}
    return [f"- **GPU:** {gpu_line(device)}.",
            f"- **CPU:** {cpu_line(host)}.",
            f"- **Commit:** `{ladder.get('git_commit', '?')}` ({ladder.get('build_type', '?')} "
            f"build for CUDA architecture {ladder.get('cuda_arch', '?')})."]


# ---- the summary figure -----------------------------------------------------------------------

def numbered(claims):
    """[(number, claim)] of the claims the figure can place: those with a seed's gain and ours;
    numbers are the claims' rows in the report's claims table (from 1)."""
    return [(i, c) for i, c in enumerate(claims, start=1)
            if math_ok(c.seed_x) and any(math_ok(v) for v in c.ours_x)]


def draw_figure(claims, out_dir, subtitle):
    """The seed's gain against ours for every claim stated as a gain, log-log, marked by
    verdict; the path of the PNG written (a PDF beside it), None when no claim has numbers."""
    placed = numbered(claims)
    if not placed:
        return None
    pages.require_matplotlib()
    values = [v for _i, c in placed for v in (c.seed_x, *c.ours_x) if math_ok(v)]
    lo, hi = min(values) / 1.6, max(values) * 1.6
    fig = pages.Figure(figsize=(9.0, 7.2))
    pages.FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    # The diagonal alone: a shaded "close enough" band would be a rule of its own, and the
    # verdicts follow each study's rules (its section), which differ from study to study.
    line = [lo, hi]
    ax.plot(line, line, color="#444444", linewidth=1, zorder=1)
    for number, c in placed:
        colour, marker = STYLE[c.verdict]
        ours = [v for v in c.ours_x if math_ok(v)]
        if len(ours) > 1:
            ax.plot([c.seed_x, c.seed_x], [min(ours), max(ours)], color=colour, linewidth=1,
                    zorder=2)
        ax.scatter([c.seed_x] * len(ours), ours, color=colour, marker=marker, s=36, zorder=3,
                   edgecolors="white", linewidths=0.5)
        ax.annotate(str(number), (c.seed_x, max(ours)), xytext=(4, 3), textcoords="offset points",
                    fontsize=pages.MIN_FONT_PT, color=colour)
    for verdict, (colour, marker) in STYLE.items():
        if any(c.verdict == verdict for _n, c in placed):
            ax.scatter([], [], color=colour, marker=marker, s=36, label=verdict)
    ax.legend(loc="upper left", fontsize=9, frameon=False)
    ax.set_xlabel("the seed's gain (x, log scale)", fontsize=10)
    ax.set_ylabel("our gain on this hardware (x, log scale)", fontsize=10)
    ax.grid(which="major", color="#dddddd", zorder=0)
    ax.set_title("Every seed claim stated as a gain: the seed's against ours", fontsize=12,
                 fontweight="bold")
    note = "\n".join(pages.wrapped([f"{subtitle}. Numbers: the claim's row in the Claims "
                                     "table; a vertical line spans a claim's points; on the "
                                     "diagonal ours equals the seed's. The marks are the "
                                     "verdicts of each study's own rules (its section), not a "
                                     "distance from the diagonal."], 8.6))
    fig.text(0.01, 0.01, note, fontsize=pages.MIN_FONT_PT, color=pages.MUTED, va="bottom")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return pages.save(fig, out_dir, FIGURE)


# ---- the best step against the best peer and the limit ----------------------------------------

def timed(runs):
    return [r for r in runs if r.passed and r.metric]


def best(runs):
    return max(runs, key=lambda r: r.metric) if runs else None


def study_pairs(ctx, study, configs):
    """The study's like-for-like rows at the point where its best peer is at its best (its
    fastest correct run anywhere: the peer's own size and configuration, not the point that
    flatters ours), one per precision class a peer ran there: our fastest step of that class
    against the peer's fastest of it. Where our fastest step there is of a class no peer ran,
    a row after them says ours is faster only by another precision. Without a peer: our fastest
    GPU step anywhere. Each as (ours, peer, what differs); (None, None, "") when no GPU step of
    ours was timed."""
    ours, peers = [], []
    for c in configs:
        for r in ctx.runs(c["name"]):
            (peers if r.is_peer else ours).append(r)
        for results in ctx.peer_results(c["name"]):
            peers += results.runs
    ours = [r for r in timed(ours) if r.backend == "gpu"]
    if not ours:
        return [(None, None, "")]
    # A share of the limit past 100% would mean a rate that counts work the step skips (or a
    # limit that is not the step's): such a run is no measure of the best.
    ours = [r for r in ours if (r.pct_of_peak or 0) <= 100] or ours
    peers = [q for q in timed(peers) if q.unit == ours[0].unit]
    if not peers:
        return [(best(ours), None, "")]
    point = best(peers).point
    here, there = [o for o in ours if o.point == point], [q for q in peers if q.point == point]
    if not here:
        return [(None, best(there), "")]
    rows, classes = [], sorted({selection.peer_precision(q) for q in there},
                               key=lambda k: -best([q for q in there if selection.peer_precision(q) == k]).metric)
    for k in classes:
        mine = [o for o in here if selection.peer_precision(o) == k]
        if mine:
            rows.append((best(mine), best([q for q in there if selection.peer_precision(q) == k]), ""))
    fastest = best(here)
    if selection.peer_precision(fastest) not in classes:
        peer = best(there)
        rows.append((fastest, peer, f"ours in {fastest.precision}, which no peer ran here: "
                                    f"faster only by another precision than the peer's "
                                    f"{peer.precision}"))
    return rows or [(best(here), best(there), "no step of ours in a peer's precision here")]


def study_rows(ctx, study, configs):
    """The study's rows of the like-for-like table (study_pairs, written)."""
    return [row(study, *pair) for pair in study_pairs(ctx, study, configs)]


def peer_name(run):
    """A peer's label with its precision, which tells apart a library's fp64 and fp32 calls."""
    name = selection.step_label(run)
    return f"{name} ({run.precision})" if run.precision else name


def rate(run):
    return f"{formats.format_value(run.metric)} {run.unit}"


def error_text(run):
    """A run's largest error against the sequential baseline, as validation measured it."""
    v = run.raw.get("validation") if run is not None else None
    if not isinstance(v, dict) or not v.get("checked"):
        # The config turns validation off where no reference can check a point in time.
        off = isinstance(v, dict) and v.get("mode") == "off"
        return "not checked (validation off at this point)" if off else "not checked"
    abs_err, rel_err = v.get("max_abs_error"), v.get("max_rel_error")
    if abs_err == 0:
        return f"exact ({v['checked']:,} checked)"
    parts = [f"{name} {x:.2g}" for name, x in (("rel", rel_err), ("abs", abs_err)) if isinstance(x, (int, float))]
    return ", ".join(parts) or "checked"


def differs(ours, peer, extra=""):
    """What still differs between the two, in words: the peer's own note (another distance,
    another call) and `extra`."""
    note = str(peer.raw.get("note") or "") if peer is not None else ""
    return "; ".join(t for t in (extra, note) if t) or "-"


def peer_ratio(ours, peer):
    """Our rate over the peer's, with the interval of the peer's time over ours (the same
    work at one point, so the rates' ratio is the times'), as an rc.Ratio; None without both."""
    value = rc.ratio(ours.metric, peer.metric)
    times = rc.run_ratio(peer, ours)
    if value is None or times is None or times.interval is None:
        return value and rc.Ratio(value)
    lo, hi = (end * value / times for end in times.interval)
    return rc.Ratio(value, times.interval.like(lo, hi))


def measured_ratio(ours, peer):
    """The ratio with its range; where it has none because a run was timed once (a long call
    that fills the time budget alone), it says so rather than print a bare number."""
    x = peer_ratio(ours, peer)
    if x is None or rc.spread(x) is not None:
        return rc.fmt_measured(x) if x is not None else "-"
    once = [who for who, run in (("ours", ours), ("the peer's", peer)) if len(run.samples_ms) < 2]
    if not once:
        return rc.fmt_measured(x)
    return f"{rc.fmt_measured(x)} (no range: {' and '.join(once)} timed once)"


def row(study, ours, peer, extra=""):
    if ours is None and peer is None:
        return [study, "-", "no GPU step timed", "-", "-", "-", "-", "-", "-"]
    point = (ours or peer).point.replace(",", ", ")
    mine = f"{selection.row_name(ours)}: {rate(ours)}" if ours else "none of ours ran at the peer's point"
    limit = (selection.limit_text(ours) or "-") if ours else "-"
    peer_cell = f"{peer_name(peer)}: {rate(peer)}" if peer else "none run"
    ratio = measured_ratio(ours, peer) if ours and peer else "-"
    return [study, point, mine, error_text(ours) if ours else "-", limit, peer_cell,
            error_text(peer) if peer else "-", ratio, differs(ours, peer, extra)]


def best_table(ctx):
    """Per study, at its best peer's best point: ours against the peer in each precision class
    a peer ran there, then ours in another precision where that is faster; else our fastest
    GPU step anywhere."""
    return rc.md_table(["study", "point (the best peer's best)", "our best GPU step", "its error",
                       "share of the limit", "best peer there", "its error", "ours / peer",
                       "what differs"], [row(*pair) for pair in table_pairs(ctx)])


CHECK = "The summary's ratios, by hand"


def table_pairs(ctx):
    """[(study, ours, peer, what differs)] of the like-for-like table, in its order."""
    by_study = {}
    for c in ctx.manifest.get("configs", []):
        by_study.setdefault(c.get("study", "?"), []).append(c)
    return [(study, *pair) for study, configs in by_study.items()
            for pair in study_pairs(ctx, study, configs)]


def check_section(ctx):
    """Where each ratio of the like-for-like table comes from: the two runs (results file,
    variant, point, run_index) and their metrics, so that a reader can recompute it."""
    lines = [check_line(study, ours, peer) for study, ours, peer, _ in table_pairs(ctx)
             if ours and peer]
    return (f"## {CHECK}\n\nEach ratio of the summary's like-for-like table is our run's metric "
            "over the peer's run's, both read from the results files beside this report (the "
            "interval comes from their samples). Open each file, find the run by its variant, "
            "sweep and point (or its `run_index`) and read `metrics`:\n\n"
            + ("\n".join(lines) if lines else "No row holds a run of ours against a peer's.") + "\n")


def check_line(study, ours, peer):
    """'- covariance: `covariance-paper.json` covariance/wgmma_tf32 in sweep paper at m=...,
    run_index 12: gflops 211436; over `covariance-paper.json` ...; = 4.38x': where a row's ratio
    comes from."""
    def where(run):
        index = f", run_index {run.run_index}" if run.run_index is not None else ""
        return (f"`{run.file.path.name}` {run.id} in sweep {run.sweep or '-'} at {run.point}"
                f"{index}: {run.metric_name} {run.metric:.6g}")
    return f"- {study}: {where(ours)}; over {where(peer)}; = {rc.fmt_ratio(ours.metric / peer.metric)}"


# ---- what was not run ---------------------------------------------------------------------------

def not_run_lines(ctx):
    lines = [f"- config `{c.get('name', '?')}`: {c.get('state', '?')}"
             + (f" ({c['why']})" if c.get("why") else "")
             for c in ctx.manifest.get("configs", []) if c.get("state") not in ("ran", "reused")]
    lines += [f"- peer {p.get('peer', '?')} on `{p.get('config', '?')}`: {p.get('state', '?')}"
              + (f": {p['why']}" if p.get("why") else "")
              for p in ctx.manifest.get("peers", []) if p.get("state") not in ("ran", "reused")]
    configs = dict.fromkeys(p.get("config") for p in ctx.manifest.get("peers", []))
    lines += [f"- peer {r.label or selection.short_variant(r)} on `{config}` at {r.point}: "
              + selection.with_reason(r.status, r, 160)
              for config in configs for results in ctx.peer_results(config)
              for r in results.runs if r.status in ("incorrect", "error")]
    reasons = {}
    for c in ctx.manifest.get("configs", []):
        for r in ctx.runs(c.get("name", "")):
            if r.status in ("unsupported", "skipped"):
                reasons.setdefault((r.status, r.reason or "no reason given"), []).append(r)
    for (status, reason), runs in sorted(reasons.items(), key=lambda item: -len(item[1])):
        names = sorted({selection.short_variant(r) for r in runs})
        lines.append(f"- {len(runs)} run(s) {status} ({', '.join(names)}): {reason}")
    return lines or ["- Everything planned ran."]


# ---- the page ---------------------------------------------------------------------------------

def verdict_counts(claims):
    plural = {rc.REPRODUCES: "reproduce", rc.DOES_NOT: "do not reproduce"}
    counts = {v: sum(1 for c in claims if c.verdict == v) for v in rc.VERDICTS}
    text = ", ".join(f"{n} {plural.get(v, v) if n > 1 else v}" for v, n in counts.items() if n)
    return f"{len(claims)} claims: {text or 'none'}."


def reason(claim):
    """The first clause of a claim's why that gives a reason (not a threshold's digits)."""
    return next((p for p in claim.why.split("; ") if p and "threshold" not in p), "")


def study_line(title, claims):
    """One study in a sentence or two: its counts, and what does not hold with the first
    reason its why gives."""
    counts = verdict_counts(claims).rstrip(".")
    failing = [c for c in claims if c.verdict == rc.DOES_NOT]
    if not failing:
        return f"- **{title}**: {counts}."
    said = [f"{c.claim} ({reason(c)})" if reason(c) else c.claim for c in failing[:2]]
    more = f"; and {len(failing) - 2} more" if len(failing) > 2 else ""
    return f"- **{title}**: {counts}. Does not hold: {'; '.join(said)}{more}."


def page(ctx, claims, figure, by_study=()):
    """The summary's Markdown; `figure`: the summary figure's path (None: not drawn);
    `by_study`: (title, its seed claims) for a line each."""
    parts = ["## Summary", "\n".join(hardware_lines(ctx)), verdict_counts(claims)]
    if by_study:
        parts.append("\n".join(study_line(t, cs) for t, cs in by_study if cs))
    if figure is not None:
        rel = Path(figure).resolve().relative_to(ctx.report_dir.resolve()) \
            if Path(figure).resolve().is_relative_to(ctx.report_dir.resolve()) else figure
        parts.append(rc.md_figure(str(rel), f"The seed's gain against ours for the "
                                            f"{len(numbered(claims))} claims stated as gains "
                                            f"(PDF beside it)"))
    parts += ["**Best GPU step against the best peer, like for like, and the hardware limit** "
              f"(each ratio's two runs: \"{CHECK}\", after the studies)\n\n"
              + best_table(ctx), "**Not run**\n\n" + "\n".join(not_run_lines(ctx))]
    return "\n\n".join(parts) + "\n"


def figure_subtitle(ctx):
    results = first_results(ctx)
    name = results.device_name if results else (ctx.manifest.get("device") or {}).get("name", "?")
    commit = (ctx.manifest.get("ladder") or {}).get("git_commit", "?")
    return f"{name}, {ctx.scale} scale, commit {commit}"


def math_ok(x):
    return isinstance(x, (int, float)) and math.isfinite(x) and x > 0

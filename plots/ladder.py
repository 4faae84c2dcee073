"""The ladder of any study from its results alone: `<study>_ladder_<point>.png` per data
point, a row per variant in step order, the bar its metric on a log axis (the median time
when no run there has a metric). README.md says what each part shows.

Usage: python3 plots/ladder.py RESULTS.json... [--out-dir DIR] [--figures ...]
"""
import sys

import common

ROW_IN, AXIS_IN = 0.55, 0.65  # AXIS_IN: tick labels and axis label under the axes


def rows(runs):
    """[(run shown, row name)]: a row per variant in step order, ties in the order the runs
    appear. Of a variant's runs at several settings (block_size, ...) it shows the fastest
    correct one, else the fastest incorrect, else the first, the settings under its name."""
    by_variant = {}
    for run in runs:
        by_variant.setdefault(run.get("variant"), []).append(run)
    result = []
    for group in sorted(by_variant.values(), key=lambda rs: rs[0].get("step") or 0):
        timed = sorted((r for r in group if common.median_ms(r)),
                       key=lambda r: (r.get("status") != "passed", common.median_ms(r)))
        shown = timed[0] if timed else group[0]
        name = common.row_name(shown)
        settings = common.varying(group, leave_out=shown.get("data") or {})
        if settings:
            values = ", ".join(f"{k}={common.param(shown, k)}" for k in settings)
            name += f"\n(fastest of {len(group)}: {values})" if timed else f"\n({len(group)} settings)"
        result.append((shown, name))
    return result


def value(run, by_metric):
    """What the bar shows: the metric, or the median time when the figure has no metric."""
    return common.metric_value(run) if by_metric else common.median_ms(run)


def rate(run):
    """How fast a timed run is, higher is better, whatever the figure's axis."""
    return common.metric_value(run) or 1 / common.median_ms(run)


def whisker(run, by_metric):
    """min..max sample time on the bar's scale: a rate is inversely proportional to time."""
    span, bar, ms = common.time_range(run), value(run, by_metric), common.median_ms(run)
    if not span or bar is None:
        return None
    return (bar * ms / span[1], bar * ms / span[0]) if by_metric else span


def extras_text(run):
    """'1-NN 98.4% (64 queries)' for a 1-NN accuracy, 'name value' for any other extra."""
    extras = dict(run.get("extras") or {})
    accuracy = common.number(extras.pop("nn1_accuracy", None))
    queries = common.number(extras.pop("nn1_queries", None)) or 0
    parts = [f"{k} {v:g}" if common.number(v) is not None else f"{k} {v}"
             for k, v in extras.items()]
    if accuracy is not None:
        count = f" ({queries:g} quer{'y' if queries == 1 else 'ies'})" if queries else ""
        parts.insert(0, f"1-NN {100 * accuracy:.1f}%{count}")
    return ", ".join(parts)


def bar_text(run, by_metric, peers, with_extras):
    """'5652 GCUPS, 67.6% of FP32 limit, 38.0% of cuBLAS SSYRK, cv 7%, 1-NN 100.0% (1 query)'.
    A run is compared with the best peer of its own precision only."""
    peer = peers.get(run.get("precision"))
    timing = run.get("timing") or {}
    cv = common.number(timing.get("cv"))
    parts = [common.rate_text(run) if by_metric else common.format_time(common.median_ms(run)),
             f"{common.format_value(100 * rate(run) / rate(peer))}% of {common.label(peer)}"
             if peer and run is not peer else "",
             # only noisy runs: their bar is less sure than it looks
             f"cv {100 * cv:.0f}%" if cv is not None and cv >= 0.05 else "",
             "cold" if timing.get("mode") == "cold" else "",
             extras_text(run) if with_extras else ""]
    return ", ".join(p for p in parts if p)


def best_peers(shown, by_metric):
    """{precision: the fastest correct timed peer of that precision}: the references the other
    bars are measured against (an FP32 step is not held against a TF32 library)."""
    best = {}
    for r in shown:
        if common.role(r) == "peer" and r.get("status") == "passed" and value(r, by_metric):
            old = best.get(r.get("precision"))
            if old is None or rate(r) > rate(old):
                best[r.get("precision")] = r
    return best


def line_peer(shown, peers):
    """The peer drawn as a line: that of the precision most of the steps use."""
    steps = [r.get("precision") for r in shown if common.role(r) != "peer"]
    common_precision = max(set(steps), key=steps.count) if steps else None
    return peers.get(common_precision)


def shared_extras(shown):
    """The extras every timed row shares (1-NN 100% on every step): said once in a footnote
    rather than on every bar."""
    texts = {extras_text(r) for r in shown if common.median_ms(r)}
    return texts.pop() if len(texts) == 1 and len(shown) > 1 else ""


def draw_rows(ax, shown, by_metric, peers, with_extras):
    """Bars of the timed rows, status text on the others; returns (bar labels, bars' base)."""
    ends = [v for r in shown if value(r, by_metric)
            for v in whisker(r, by_metric) or (value(r, by_metric),)]
    base = common.bar_base(ends)
    ax.set_xscale("log")
    ax.set_xlim(base, base * 1000)  # provisional: fit_labels sets the right end
    labelled = []
    for y, run in enumerate(shown):
        ms = common.median_ms(run)
        if value(run, by_metric):
            labelled.append(common.hbar(
                ax, y, value(run, by_metric), base, bar_text(run, by_metric, peers, with_extras),
                common.colour(run), whisker(run, by_metric),
                incorrect=run.get("status") == "incorrect"))
        else:  # untimed, or timed without the metric the axis shows
            common.status_row(ax, y, f"{common.format_time(ms)}, no {common.metric_key(run)}"
                              if ms else common.status_text(run))
    return labelled, base


def peer_line(ax, peer, by_metric):
    """Dashed line at the best peer's value, named above the axes."""
    x, colour = value(peer, by_metric), common.colour(peer, text=True)
    ax.axvline(x, color=colour, linestyle=(0, (5, 3)), linewidth=1.3, zorder=3)
    ax.annotate(f"best peer: {common.label(peer)}", (x, 1), xycoords=("data", "axes fraction"),
                xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                fontsize=8.5, color=colour, annotation_clip=False)


def figure(results, study, point, runs):
    """The ladder of one point; returned, not saved."""
    shown, names = zip(*rows(runs))
    by_metric = any(common.metric_value(r) for r in shown)
    peers = best_peers(shown, by_metric)
    peer = line_peer(shown, peers)
    extras = shared_extras(shown)
    notes = common.limit_footnotes(shown) + ([f"every timed run: {extras}"] if extras else [])
    peer_in = 0.2 if peer else 0  # the peer line's name above the axes
    fig, (top_in, bottom_in) = common.page(
        results, f"{study} ladder: {common.point_title(point)}",
        ROW_IN * max(len(shown), 2) + AXIS_IN + peer_in, notes)
    ax = fig.add_subplot()
    bars = draw_rows(ax, shown, by_metric, peers, with_extras=not extras)
    if peer:
        peer_line(ax, peer, by_metric)
    unit = next((common.metric_unit(r) for r in shown if common.metric_value(r)), "")
    common.finish_bars(fig, (top_in + peer_in, bottom_in), ax, shown, names, bars,
                       f"{unit}, log scale (higher is better); whiskers: min..max sample"
                       if by_metric else
                       "median time [ms], log scale (lower is better); whiskers: min..max",
                       common.role_handles(shown))
    return fig


def draw(results, runs, out_dir):
    """One ladder per (study, point) of `runs`; returns the paths written."""
    return common.each_point(results, runs, out_dir, "ladder", figure)


if __name__ == "__main__":
    sys.exit(common.main({"ladder": draw}))

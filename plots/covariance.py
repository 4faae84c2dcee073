"""Covariance figures: the chunk_size sweep of the tiled step, and the per-point ladder.

covariance_chunk_sweep_m{m}_n{n}.png, for every (m, n) whose `tiled` runs cover at least two
chunk_size values: left, median time (ms, log) against chunk_size (log2) with a line per
(block_exit, thread_exit) setting; right, GFLOP/s of the default setting (both exits on),
each point annotated with the tile's CGMA and resident blocks per SM (`facts`).

covariance_ladder_m{m}_n{n}.png, one per (m, n): a horizontal bar of GFLOP/s (log axis) per
variant in step order, with dashed reference lines at cuBLAS SSYRK and the FP32 limit, and
footnotes with the stage medians of the fastest hand-written FP32 step and, when the file
has both, coalesced against strided centring.

Untimed runs never stop a figure: they lose their point or bar and say why in its place
or in a footnote.

Usage: python3 plots/covariance.py RESULTS.json [--out-dir DIR]
"""
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sibling modules, from any cwd
import dtw_ladder  # noqa: E402  (chooses the Agg backend and says how to install matplotlib)
import results_file  # noqa: E402

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, NullFormatter,  # noqa: E402
                               NullLocator)  # noqa: E402

STUDY = "covariance"
DEFAULT_OUT_DIR = dtw_ladder.DEFAULT_OUT_DIR
POINT_KEYS = ("m", "n")
EXITS = ("block_exit", "thread_exit")
DEFAULT_EXITS = ("on", "on")  # the tiled step's defaults: a run without the params has these
DEFAULT_CENTRING = "coalesced"
SSYRK = "cublas_ssyrk"
LIBRARY_PREFIX = "cublas_"  # variants that are cuBLAS calls, not hand-written kernels

BACKEND_COLOURS = dtw_ladder.BACKEND_COLOURS
OTHER_COLOUR = dtw_ladder.OTHER_COLOUR
LIBRARY_COLOUR = "#dd8452"
INCORRECT_COLOUR = dtw_ladder.INCORRECT_COLOUR
STATUS_TEXT_COLOUR = dtw_ladder.STATUS_TEXT_COLOUR
EXIT_STYLES = {("on", "on"): ("#2ca02c", "o", "-"), ("on", "off"): ("#1f77b4", "s", "--"),
               ("off", "on"): ("#ff7f0e", "^", "-."), ("off", "off"): ("#d62728", "D", ":")}
SSYRK_STYLE = ("#dd8452", (0, (5, 3)))
LIMIT_STYLE = ("black", (0, (2, 2)))

FIG_WIDTH_IN = 13.0
FOOTNOTE_IN = 0.17
MAX_FOOTNOTE_LINES = 8
MAX_REASON_CHARS = 90


# ---- reading runs --------------------------------------------------------------------------

def _number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _param(run, key, default=None):
    return str((run.get("params") or {}).get(key, default))


# Params whose absence means their default; compared with the default filled in.
DEFAULTS = {"block_exit": "on", "thread_exit": "on", "centring": DEFAULT_CENTRING}


def _exits(run):
    return tuple(_param(run, k, d) for k, d in zip(EXITS, DEFAULT_EXITS))


def _centring(run):
    return _param(run, "centring", DEFAULT_CENTRING)


def _fmt_num(value):
    """1, 0.25, 16: as short as the value allows."""
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def median_ms(run):
    return dtw_ladder.median_ms(run)


def gflops(run):
    """GFLOP/s of a timed run: the harness's, else the triangle's flops over the median."""
    ms = median_ms(run)
    if ms is None:
        return None
    metrics = run.get("metrics") or {}
    value = metrics.get("gflops")
    if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
        return float(value)
    work = metrics.get("work")
    if not isinstance(work, (int, float)) or work <= 0:
        m, n = (_number(_param(run, k)) for k in POINT_KEYS)
        if m is None or n is None:
            return None
        work = m * n * (n + 1)  # 2 m n (n + 1) / 2: one triangle, multiply-add = 2 flops
    return work / (ms / 1e3) / 1e9


def _peak(run):
    peak = (run.get("metrics") or {}).get("peak")
    return float(peak) if isinstance(peak, (int, float)) and math.isfinite(peak) and peak > 0 else None


def _stages(run):
    stages = (run.get("timing") or {}).get("stage_medians")
    if not isinstance(stages, dict):
        return {}
    return {k: float(v) for k, v in stages.items() if isinstance(v, (int, float)) and math.isfinite(v)}


def group_by_point(runs):
    """(m, n) -> the covariance runs at that point, ordered by step then variant; points
    sorted numerically."""
    points = {}
    for run in runs:
        if run.get("study") != STUDY:
            continue
        points.setdefault(tuple(_param(run, k, "na") for k in POINT_KEYS), []).append(run)
    for group in points.values():
        group.sort(key=lambda r: (r.get("step", 0) if isinstance(r.get("step"), int) else 0,
                                  str(r.get("variant", ""))))

    def order(item):
        return tuple(_number(v) if _number(v) is not None else math.inf for v in item[0])
    return dict(sorted(points.items(), key=order))


def _name_part(value):
    return re.sub(r"[^A-Za-z0-9._-]", "_", value)


def _status_text(run, max_chars=MAX_REASON_CHARS):
    return dtw_ladder.status_label(run, max_chars)


def _titles(fig, title, results):
    """Title, device subtitle, provenance footer (as dtw_ladder); returns inches used on top."""
    height = fig.get_figheight()
    fig.text(0.5, 1.0 - 0.12 / height, title, ha="center", va="top", fontsize=13,
             fontweight="bold")
    fig.text(0.5, 1.0 - 0.45 / height, dtw_ladder.device_subtitle(results), ha="center",
             va="top", fontsize=9, color="#333333")
    fig.text(0.01, 0.01, dtw_ladder.provenance(results), fontsize=7, color="#888888")
    return 0.75


def _footnotes(fig, lines):
    """Footnote lines above the provenance footer, bottom up; returns inches used."""
    height = fig.get_figheight()
    for i, line in enumerate(reversed(lines)):
        fig.text(0.01, (0.2 + FOOTNOTE_IN * (i + 1)) / height, line, fontsize=8,
                 color="#444444", va="bottom")
    return 0.2 + FOOTNOTE_IN * (len(lines) + 1) + 0.05


def _cap(lines, what):
    if len(lines) <= MAX_FOOTNOTE_LINES:
        return lines
    kept = lines[:MAX_FOOTNOTE_LINES - 1]
    return kept + [f"... and {len(lines) - len(kept)} more {what}"]


# ---- figure 1: the chunk_size sweep --------------------------------------------------------

def sweep_points(runs):
    """(m, n) -> tiled runs there, for points whose tiled runs cover >= 2 chunk sizes."""
    chosen = {}
    for point, group in group_by_point(runs).items():
        tiled = [r for r in group if r.get("variant") == "tiled"
                 and _number(_param(r, "chunk_size")) is not None]
        if len({_number(_param(r, "chunk_size")) for r in tiled}) >= 2:
            chosen[point] = tiled
    return chosen


def _first_timed(runs):
    """Of several runs with one setting (a config that repeats a point), the first timed."""
    for run in runs:
        if median_ms(run) is not None:
            return run
    return runs[0] if runs else None


def chunk_sweep_figure(results, point, tiled):
    m, n = point
    fig = Figure(figsize=(FIG_WIDTH_IN, 6.4))
    FigureCanvasAgg(fig)
    ax_time, ax_rate = fig.subplots(1, 2)

    chunks = sorted({_number(_param(r, "chunk_size")) for r in tiled})
    settings = {}
    for run in tiled:
        settings.setdefault(_exits(run), {}).setdefault(_number(_param(run, "chunk_size")), []).append(run)
    order = sorted(settings, key=lambda s: (s != DEFAULT_EXITS, s))  # default first

    missing, any_timed = [], False
    handles = []
    for setting in order:
        colour, marker, style = EXIT_STYLES.get(setting, (OTHER_COLOUR, "x", "-"))
        xs, ys = [], []
        for chunk in chunks:
            run = _first_timed(settings[setting].get(chunk, []))
            if run is None:
                continue
            ms = median_ms(run)
            if ms is None:
                missing.append((f"chunk {_fmt_num(chunk)} exits {setting[0]}/{setting[1]}",
                                _status_text(run)))
                xs.append(chunk)
                ys.append(math.nan)  # breaks the line
                continue
            any_timed = True
            xs.append(chunk)
            ys.append(ms)
            if run.get("status") == "incorrect":
                ax_time.plot([chunk], [ms], marker="o", markersize=13, markerfacecolor="none",
                             markeredgecolor=INCORRECT_COLOUR, markeredgewidth=1.5, zorder=4)
        label = f"block_exit {setting[0]}, thread_exit {setting[1]}"
        if setting == DEFAULT_EXITS:
            label += " (default)"
        ax_time.plot(xs, ys, color=colour, marker=marker, linestyle=style, zorder=3)
        handles.append(Line2D([], [], color=colour if any(y == y for y in ys) else "#bbbbbb",
                              marker=marker, linestyle=style, label=label))

    # Right: GFLOP/s of the default setting, annotated from facts.
    default = settings.get(DEFAULT_EXITS, {})
    rate_pts = []
    for chunk in chunks:
        run = _first_timed(default.get(chunk, []))
        rate = gflops(run) if run else None
        if rate is not None:
            rate_pts.append((chunk, rate, run))
    colour, marker, style = EXIT_STYLES[DEFAULT_EXITS]
    if rate_pts:
        ax_rate.plot([p[0] for p in rate_pts], [p[1] for p in rate_pts], color=colour,
                     marker=marker, linestyle=style, zorder=3)
        for i, (chunk, rate, run) in enumerate(rate_pts):
            facts = run.get("facts") or {}
            bits = []
            if isinstance(facts.get("cgma"), (int, float)):
                bits.append(f"CGMA {_fmt_num(facts['cgma'])}")
            if isinstance(facts.get("blocks_per_sm"), (int, float)):
                bits.append(f"{_fmt_num(facts['blocks_per_sm'])} blocks/SM")
            if bits:
                offset, ha, va = _label_side([p[1] for p in rate_pts], i)
                ax_rate.annotate("\n".join(bits), (chunk, rate),
                                 xytext=offset, textcoords="offset points",
                                 ha=ha, va=va, fontsize=8,
                                 bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="#cccccc",
                                           alpha=0.9), zorder=5)
        lo = min(p[1] for p in rate_pts)
        hi = max(p[1] for p in rate_pts)
        ax_rate.set_ylim(lo / 2.2, hi * 2.2)  # headroom for the annotations
        ax_rate.set_yscale("log")
    ax_rate.set_title("GFLOP/s, block_exit on, thread_exit on (higher is better)", fontsize=10)
    ax_time.set_title("median time per setting (lower is better)", fontsize=10)

    for ax in (ax_time, ax_rate):
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(FixedLocator(chunks))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: _fmt_num(v)))
        ax.set_xlim(chunks[0] / 1.4, chunks[-1] * 1.4)
        ax.set_xlabel("chunk_size (tile edge), log2 scale")
        ax.grid(which="major", color="#dddddd", zorder=0)
        ax.set_axisbelow(True)
    if any_timed:
        ax_time.set_yscale("log")
        ax_time.set_ylabel("median time [ms], log scale")
        ax_time.yaxis.set_major_formatter(FuncFormatter(dtw_ladder._format_ms))
        ax_time.yaxis.set_minor_formatter(NullFormatter())
        ax_time.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax_time.legend(handles=handles, fontsize=8, loc="best")
    else:
        _say_empty(ax_time, "no tiled run at this point was timed")
        ax_time.legend(handles=handles, fontsize=8, loc="upper right")
    if rate_pts:
        ax_rate.set_ylabel("GFLOP/s, log scale")
        ax_rate.yaxis.set_major_formatter(FuncFormatter(_rate_tick))
        ax_rate.yaxis.set_minor_formatter(NullFormatter())
        ax_rate.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    else:
        _say_empty(ax_rate, "no timed run with both exits on")

    notes = []
    if missing:
        notes.append("Not timed (missing from the lines; exits = block_exit/thread_exit):")
        cells = sum(len(by_chunk) for by_chunk in settings.values())
        notes += _cap(["  " + line for line in _missing_lines(missing, cells)],
                      "reasons")
    notes.append("CGMA: the notes' flops per global-memory byte of the tile (chunk_size / 8); "
                 "blocks/SM: resident blocks the occupancy calculator allows.")
    top_in = _titles(fig, f"Covariance, tiled step: chunk_size sweep at m={m}, n={n}", results)
    bottom_in = _footnotes(fig, notes)
    height = fig.get_figheight()
    fig.tight_layout(rect=(0, bottom_in / height, 1, 1 - top_in / height), w_pad=2.0)
    return fig


def _missing_lines(missing, total):
    """(what, why) pairs grouped by why, so 20 'skipped: no CUDA device' take one line."""
    by_reason = {}
    for what, why in missing:
        by_reason.setdefault(why, []).append(what)
    lines = []
    for why, whats in by_reason.items():
        if len(whats) == total and total > 1:
            lines.append(f"all {total} settings: {why}")
        elif len(whats) > 4:
            lines.append(f"{', '.join(whats[:4])} and {len(whats) - 4} more: {why}")
        else:
            lines.append(f"{', '.join(whats)}: {why}")
    return lines


def _label_side(values, i):
    """Where the annotation of point i goes so the line does not run through it: above a
    peak, below a trough, upper left on a rise (the line comes from lower left), upper
    right on a fall. Returns (offset in points, ha, va)."""
    here = values[i]
    before = values[i - 1] if i > 0 else None
    after = values[i + 1] if i + 1 < len(values) else None
    neighbours = [v for v in (before, after) if v is not None]
    if not neighbours or all(v <= here for v in neighbours):
        return (0, 10), "center", "bottom"
    if all(v >= here for v in neighbours):
        return (0, -10), "center", "top"
    if before < here:  # rising through this point
        return (-6, 6), "right", "bottom"
    return (6, 6), "left", "bottom"


def _say_empty(ax, text):
    ax.set_yticks([])
    ax.yaxis.set_major_formatter(NullFormatter())
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_minor_locator(NullLocator())
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center",
            style="italic", color=STATUS_TEXT_COLOUR)


def draw_chunk_sweep(results, out_dir=DEFAULT_OUT_DIR):
    out_dir = Path(out_dir)
    written = []
    for point, tiled in sweep_points(results.get("runs") or []).items():
        out_dir.mkdir(parents=True, exist_ok=True)
        m, n = (_name_part(v) for v in point)
        path = out_dir / f"covariance_chunk_sweep_m{m}_n{n}.png"
        chunk_sweep_figure(results, point, tiled).savefig(path, dpi=120)
        print(path)
        written.append(path)
    return written


# ---- figure 2: the ladder -------------------------------------------------------------------

def _setting_label(run, keys):
    """'chunk 16, exits on/on' style text for the params that vary among a variant's runs."""
    params = run.get("params") or {}
    parts = []
    if "chunk_size" in keys:
        parts.append(f"chunk {params.get('chunk_size', '?')}")
    if any(k in keys for k in EXITS):  # both, so "on/off" reads without a key
        be, te = _exits(run)
        parts.append(f"exits {be}/{te}")
    parts += [f"{k}={params[k]}" for k in keys
              if k not in EXITS and k != "chunk_size" and k in params]
    return ", ".join(parts)


def ladder_rows(group):
    """One row per variant in step order: (label, run shown). A variant with several
    `centring` values shows its coalesced runs; of several runs left, the fastest timed one
    (labelled with the settings that pick it out), else the first."""
    by_variant = {}
    for run in group:
        by_variant.setdefault(run.get("variant", "?"), []).append(run)
    rows = []
    for variant, runs in by_variant.items():
        if len({_centring(r) for r in runs}) > 1:
            runs = [r for r in runs if _centring(r) == DEFAULT_CENTRING] or runs
        timed = [r for r in runs if median_ms(r) is not None]
        chosen = min(timed, key=median_ms) if timed else runs[0]
        label = f"{chosen.get('step', '?')}  {variant}"
        varying = sorted(k for k in {k for r in runs for k in (r.get("params") or {})}
                         if k not in POINT_KEYS and k != "seed"
                         and len({_param(r, k, DEFAULTS.get(k)) for r in runs}) > 1)
        setting = _setting_label(chosen, varying)
        if setting and timed:
            label += f"\n({'fastest: ' if len(timed) > 1 else ''}{setting})"
        elif setting:
            label += f"\n({len(runs)} settings)"
        rows.append((label, chosen))
    return rows


def _limit_name(run):
    return f"{str(run.get('precision', '')).upper()} limit"


def _bar_label(run, rate, ssyrk):
    # Three significant figures; below 1 GFLOP/s (tiny smoke points) too, not '0.00'.
    parts = [f"{dtw_ladder._format_rate(rate) if rate >= 1 else f'{rate:.3g}'} GFLOP/s"]
    if ssyrk:
        parts.append(f"{100.0 * rate / ssyrk:.{0 if rate >= ssyrk else 1}f}% of SSYRK")
    pct = (run.get("metrics") or {}).get("pct_of_peak")
    peak = _peak(run)
    if not isinstance(pct, (int, float)) and peak:
        pct = 100.0 * rate / peak
    if isinstance(pct, (int, float)) and math.isfinite(pct):
        parts.append(f"{pct:.1f}% of {_limit_name(run)}")
    return ", ".join(parts)


def _reference_rates(group):
    """(SSYRK GFLOP/s or None, FP32 limit or None, the limit's rule)."""
    ssyrk = [gflops(r) for r in group if r.get("variant") == SSYRK and gflops(r)]
    limit, rule = None, ""
    for run in group:
        if run.get("backend") == "gpu" and run.get("precision") == "fp32" and _peak(run):
            limit, rule = _peak(run), str((run.get("metrics") or {}).get("peak_rule") or "")
            break
    return (max(ssyrk) if ssyrk else None), limit, rule


def _stage_text(stages):
    order = [k for k in ("mean", "centre", "covariance") if k in stages]
    order += sorted(k for k in stages if k not in order)
    return " / ".join(f"{k} {stages[k]:.3g} ms" for k in order)


def stage_notes(group):
    """Footnotes: stage medians of the fastest hand-written FP32 GPU step, and coalesced
    against strided centring when both were timed at this point."""
    notes = []
    hand = [r for r in group if r.get("backend") == "gpu" and r.get("precision") == "fp32"
            and not str(r.get("variant", "")).startswith(LIBRARY_PREFIX)
            and median_ms(r) is not None and _stages(r)]
    if hand:
        best = min(hand, key=median_ms)
        notes.append(f"Stage medians of the fastest hand-written FP32 step ({best.get('variant')}, "
                     f"{median_ms(best):.3g} ms in all): {_stage_text(_stages(best))}")
    by_variant = {}
    for run in group:
        if median_ms(run) is not None and "centre" in _stages(run):
            by_variant.setdefault(run.get("variant"), {}).setdefault(_centring(run), run)
    for variant, modes in by_variant.items():
        if "coalesced" in modes and "strided" in modes:
            co, st = (_stages(modes[k])["centre"] for k in ("coalesced", "strided"))
            ratio = f" (strided {st / co:.1f}x slower)" if co > 0 and st >= co else (
                f" (strided {co / st:.1f}x faster)" if st > 0 else "")
            notes.append(f"Centring stage, {variant}: coalesced {co:.3g} ms vs strided "
                         f"{st:.3g} ms{ratio}")
    return notes


def ladder_figure(results, point, group):
    m, n = point
    rows = ladder_rows(group)
    ssyrk, limit, limit_rule = _reference_rates(group)
    notes = stage_notes(group)
    if limit:
        notes.append(f"FP32 limit: {limit:.0f} GFLOP/s = {limit_rule or 'metrics.peak'}")
    if not ssyrk:
        notes.append("No timed cuBLAS SSYRK run at this point: no SSYRK line or '% of SSYRK'.")
    if any(r.get("precision") not in ("fp32", None) and median_ms(r) is not None
           and r.get("backend") == "gpu" for _, r in rows):
        notes.append("Each bar's '% of limit' is against the limit of its own precision "
                     "(TF32 tensor cores for tf32).")

    height = 1.9 + 0.55 * len(rows) + FOOTNOTE_IN * (len(notes) + 1)
    fig = Figure(figsize=(FIG_WIDTH_IN, height))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_xscale("log")

    rates = [gflops(r) for _, r in rows]
    values = [v for v in rates if v] + [v for v in (ssyrk, limit) if v]
    base = dtw_ladder.bar_base(values) if values else 1.0
    ax.set_xlim(base, base * 1000)

    labelled = []
    for y, ((_, run), rate) in enumerate(zip(rows, rates)):
        if rate is None:
            ax.text(0.01, y, _status_text(run), transform=ax.get_yaxis_transform(), va="center",
                    ha="left", fontsize=9, style="italic", color=STATUS_TEXT_COLOUR, zorder=5,
                    bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none", alpha=0.85))
            continue
        incorrect = run.get("status") == "incorrect"
        colour = _colour(run)
        ax.barh(y, rate - base, left=base, height=0.6, color=colour,
                edgecolor=INCORRECT_COLOUR if incorrect else "none",
                linewidth=2 if incorrect else 0, hatch="//" if incorrect else None, zorder=2)
        text = _bar_label(run, rate, ssyrk)
        if incorrect:
            text = f"INCORRECT  {text}"
        artist = ax.annotate(text, (rate, y), xytext=(4, 0), textcoords="offset points",
                             va="center", fontsize=8.5, zorder=5, annotation_clip=False,
                             color=INCORRECT_COLOUR if incorrect else "black",
                             bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none",
                                       alpha=0.85))
        artist.set_in_layout(False)
        labelled.append((rate, artist))

    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _ in rows], fontsize=9.5)
    for tick, (_, run) in zip(ax.get_yticklabels(), rows):
        tick.set_color(_colour(run))
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)

    refs = []
    if ssyrk:
        refs.append((ssyrk, "cuBLAS SSYRK", SSYRK_STYLE))
    if limit:
        refs.append((limit, "FP32 limit", LIMIT_STYLE))
    refs.sort()
    for i, (x, name, (colour, dash)) in enumerate(refs):
        ax.axvline(x, color=colour, linestyle=dash, linewidth=1.3, zorder=3)
        # Two close lines: the left one's label ends at its line, the right one starts there.
        left = i == 0 and len(refs) == 2
        ax.annotate(name, (x, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(-3 if left else 3, 3), textcoords="offset points",
                    ha="right" if left else "left", va="bottom", fontsize=8.5, color=colour,
                    annotation_clip=False)

    dtw_ladder.style_log_x(
        ax, bool(values), "GFLOP/s, log scale (higher is better); work = 2 m n (n+1) / 2 flops",
        _rate_tick)
    _legend(ax, [r for _, r in rows])

    top_in = _titles(fig, f"Covariance ladder: m={m}, n={n}", results) + 0.2  # ref labels
    bottom_in = _footnotes(fig, notes) if notes else 0.2
    fig.tight_layout(rect=(0, bottom_in / height, 1, 1 - top_in / height))
    if labelled:
        dtw_ladder.fit_labels(fig, ax, base, labelled)
        if math.log10(ax.get_xlim()[1] / base) <= 3.5:
            dtw_ladder._place_ms_ticks(ax)
    return fig


def _rate_tick(value, _pos=None):
    """1, 50, 200, 10k, 2M: short enough for a tick, exact for 1-2-5 values."""
    for scale, suffix in ((1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


def _colour(run):
    if run.get("backend") == "gpu" and str(run.get("variant", "")).startswith(LIBRARY_PREFIX):
        return LIBRARY_COLOUR
    return BACKEND_COLOURS.get(run.get("backend"), OTHER_COLOUR)


def _legend(ax, runs):
    kinds = []
    for run in runs:
        library = run.get("backend") == "gpu" and str(run.get("variant", "")).startswith(LIBRARY_PREFIX)
        kind = ("cuBLAS", LIBRARY_COLOUR) if library else (
            str(run.get("backend")).upper(), BACKEND_COLOURS.get(run.get("backend"), OTHER_COLOUR))
        if kind not in kinds:
            kinds.append(kind)
    handles = [Patch(color=c, label=k) for k, c in kinds]
    if any(r.get("status") == "incorrect" for r in runs):
        handles.append(Patch(facecolor="white", edgecolor=INCORRECT_COLOUR, hatch="//",
                             label="incorrect"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0, fontsize=9, frameon=False)


def draw_ladder(results, out_dir=DEFAULT_OUT_DIR):
    out_dir = Path(out_dir)
    written = []
    for point, group in group_by_point(results.get("runs") or []).items():
        out_dir.mkdir(parents=True, exist_ok=True)
        m, n = (_name_part(v) for v in point)
        path = out_dir / f"covariance_ladder_m{m}_n{n}.png"
        ladder_figure(results, point, group).savefig(path, dpi=120)
        print(path)
        written.append(path)
    return written


def draw(results, out_dir=DEFAULT_OUT_DIR):
    """Every covariance figure of `results`: the ladders, then the chunk_size sweeps."""
    return draw_ladder(results, out_dir) + draw_chunk_sweep(results, out_dir)


def main(argv=None):
    return results_file.run_cli("covariance", "Draw covariance figures from a results file.",
                                draw, "no covariance runs, nothing drawn", argv)


if __name__ == "__main__":
    sys.exit(main())

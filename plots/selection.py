"""Which runs a figure shows and what it calls them: row names, a run's interval and rate, its
limit, the ladder's rows (a variant's fastest setting), the fastest run, the best peer of a
precision, and the points of a sweep."""
import re

from . import formats
from . import results as ladder_results


def seconds(run):
    """Run.seconds, None for no run."""
    return run.seconds if run is not None else None


def short_variant(run):
    """'dwe' whether the file says 'dwe' or 'skyline/dwe'."""
    return str(run.variant or "?").rsplit("/", 1)[-1]


def step_label(run, name=None):
    """A run's name as every figure and table shows it (its label, or `name`), marked when
    the run ran emulated on its GPU: its time is then not what that GPU does natively."""
    name = run.label if name is None else name
    return f"{name} (emulated)" if run.emulated else name


def row_name(run):
    """'3  openmp': the step number keeps the ladder's order readable in any figure."""
    return f"{'?' if run.step is None else run.step}  {step_label(run)}"


def time_range(run):
    """The run's 95% interval in ms where it has a spread (results.Run.interval_ms: over
    its processes, or the min..max of one process's samples), else None."""
    interval = run.interval_ms
    return interval if interval and interval[0] < interval[1] else None


def range_words(spans):
    """What drawn ranges are (Intervals, a plain (lo, hi) read as a sample range; None, a
    point without one, is left out): '95% interval over 10 processes', 'min..max sample',
    both where the runs differ; '' for none."""
    spans = [s for s in spans if s]
    counts = sorted({s.processes for s in spans if getattr(s, "confidence", False)})
    words = []
    if counts:
        k = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        words.append(f"95% interval over {k} processes")
    if any(not getattr(s, "confidence", False) for s in spans):
        words.append("min..max sample" + (" where one process" if counts else ""))
    return "; ".join(words)


def range_text(spans, word="error bars"):
    """'error bars: min..max sample', 'whiskers: 95% interval over 10 processes': what an axis
    says of the ranges drawn on it (range_words); '' when none is."""
    words = range_words(spans)
    return f"{word}: {words}" if words else ""


def sample_span(run, value, rate=False):
    """The run's interval (time_range) on the scale of `value`, one of its numbers drawn: a
    time (its median in any unit) or, rate=True, a rate (GCUPS, GFLOP/s: proportional to
    1 / time, so the fastest end gives the highest rate), an Interval of the run's kind; None
    for a run with no spread (one sample), an untimed run or no value. Every whisker and
    error bar of a figure comes from here or ratio_span."""
    span, ms = time_range(run), run.median_ms
    if not span or not value or not ms:
        return None
    lo, hi = span
    return span.like(*((value * ms / hi, value * ms / lo) if rate
                       else (value * lo / ms, value * hi / ms)))


def time_span(y_of):
    """sweep_line's span for a line of times y_of(run) (ms, s, a total)."""
    return lambda run: sample_span(run, y_of(run))


def rate_span(y_of):
    """sweep_line's span for a line of rates y_of(run) (run.metric)."""
    return lambda run: sample_span(run, y_of(run), rate=True)


def ratio_span(value, num, den):
    """The interval of `value`, num's median time over den's (a speedup), as
    ladder_results.ratio_interval gives it (Welch's where both ran several processes, else
    num's fastest sample over den's slowest .. its slowest over den's fastest); None when
    it has no spread."""
    interval = ladder_results.ratio_interval(num, den) if value else None
    if not interval or interval[0] == interval[1]:
        return None
    scale = value * den.median_ms / num.median_ms
    return interval.like(interval[0] * scale, interval[1] * scale)


def limit_name(run):
    """'FP32 limit', 'TF32 tensor limit', 'FP32 + DPX limit': what the run's pct_of_peak is
    measured against, as the results name it (files before the name was recorded: by the
    run's precision)."""
    name = run.metrics.get("limit")
    if not isinstance(name, str) or not name:
        name = str(run.precision or "fp32").upper().replace("X", "x")
    return f"{name} limit"


def limit_text(run):
    """'67.6% of FP32 limit'; where the memory bound is the limit, its name says so and the
    share of the compute bound follows: '40.4% of DRAM bandwidth limit (27.2% of FP16
    tensor)'. 'limit unknown' when the study claims a limit that ladder does not know for this
    GPU (run.peak_reason says why); '' when no limit is claimed."""
    if run.pct_of_peak is None:
        return "limit unknown" if run.peak_reason else ""
    text = f"{run.pct_of_peak:.1f}% of {limit_name(run)}"
    compute = run.bound("compute")
    peak = ladder_results.number(compute.get("peak"))
    if run.binds == "memory" and peak and peak > 0 and run.metric:
        text += f" ({100 * run.metric / peak:.1f}% of {compute.get('limit') or 'compute'})"
    return text


def rate_text(run):
    """'5652 GCUPS, 67.6% of FP32 limit', or '' for a run without a metric."""
    if run.metric is None:
        return ""
    limit = limit_text(run)
    return f"{formats.format_value(run.metric)} {run.unit}" + (f", {limit}" if limit else "")


def status_text(run, max_chars=90):
    """What stands instead of an untimed run: 'skipped: no CUDA device', 'unsupported', ..."""
    status = run.status or "no timing"
    if status in ("passed", "incorrect"):  # validated but not timed: say so
        status += ", no timing"
    return with_reason(status, run, max_chars)


def cut_at_word(text, max_chars):
    """`text` when it has at most max_chars characters, else its words that fit followed by
    ' ...': cut between words, never inside one (a first word longer than max_chars is kept
    whole)."""
    if len(text) <= max_chars:
        return text
    words, kept = text.split(), ""
    for word in words:
        if kept and len(kept) + 1 + len(word) + 4 > max_chars:
            break
        kept = f"{kept} {word}" if kept else word
    return kept + " ..." if kept != " ".join(words) else kept


def with_reason(status, run, max_chars):
    """'status: the run's reason', the reason cut between words to about max_chars; the status
    alone without one."""
    reason = cut_at_word(run.reason, max_chars)
    return f"{status}: {reason}" if reason else status


def limits(runs):
    """{limit name: (peak, unit, rule)} of the GPU runs that report one, first seen first. A
    limit of one name at another value (a memory bound follows the point's work per byte) is
    named with its point: 'DRAM bandwidth limit at m=1000,n=257'."""
    found = {}
    for run in runs:
        peak = ladder_results.number(run.metrics.get("peak"))
        if run.backend == "gpu" and peak and peak > 0:
            name = limit_name(run)
            if name in found and abs(found[name][0] - peak) > 1e-9 * peak:
                name = f"{name} at {run.point}"
            found.setdefault(name, (peak, run.unit,
                                    run.metrics.get("peak_rule") or "rule not given"))
    return found


def limit_footnotes(runs):
    return [f"{name}: {formats.format_value(peak)} {unit} = {rule}"
            for name, (peak, unit, rule) in limits(runs).items()]


def ladder_rows(runs):
    """[(run shown, row name)]: a row per variant in step order (ties as the runs appear), its
    pick of the variant's runs at several settings (block_size, ...) named with its settings."""
    by_variant = {}
    for run in runs:
        by_variant.setdefault(run.variant, []).append(run)
    result = []
    for group in sorted(by_variant.values(), key=lambda rs: rs[0].step or 0):
        shown = pick(group, lambda r: r.median_ms)
        name = row_name(shown)
        settings = varying(group, leave_out=shown.data)
        if settings:
            values = ", ".join(f"{k}={shown.params.get(k)}" for k in settings)
            name += (f"\n(fastest of {len(group)}: {values})" if shown.median_ms
                     else f"\n({len(group)} settings)")
        result.append((shown, name))
    return result


def rate(run):
    """How fast a timed run is, higher is better, whatever a figure's axis."""
    return run.metric or 1 / run.median_ms


# A precision whose results are as accurate as another's is held against that one's peers:
# tf32x3 (three TF32 tensor-core products) and fp16x3 are FP32-accurate, as cuBLAS SGEMM and
# SSYRK are. FP16 is its own class, held against an FP16 library (covariance: cublasLt's FP16
# GEMM on the same scaled halves); where no FP16 peer ran, a step that is faster only by
# computing in FP16 is never held against a TF32 or FP32 library as if alike (the summary gives
# it a row that says so). A peer's class is the precision its results record: what the library
# ran, which is not always what was asked (cuBLAS SSYRK in TF32 mode runs FP32 on Hopper).
PEER_PRECISION = {"tf32x3": "fp32", "fp16x3": "fp32"}


def precision_class(run):
    """'fp64', 'fp32', 'tf32', 'fp16' or 'int': the number format a run computes in, whatever
    its scheme (fp16x2 and fp16x3 are fp16, tf32x3 tf32, bf16 fp16, int32 int); a format
    of none of these is its own. A gain is stated only between two steps of one class."""
    text = str(run.precision or "fp32").lower()
    if text.startswith(("int", "uint")):
        return "int"
    for name, words in (("fp64", ("fp64", "f64", "double")), ("fp32", ("fp32", "f32", "float")),
                        ("tf32", ("tf32",)), ("fp16", ("fp16", "f16", "half", "bf16"))):
        if text.startswith(words):
            return name
    return re.sub(r"x\d+$", "", text)


def peer_precision(run):
    """The precision of the peers a run is compared with: its own, or PEER_PRECISION's;
    integer outputs are exact at any width, so every int precision is 'int'."""
    text = str(run.precision or "")
    return "int" if text.startswith(("int", "uint")) else PEER_PRECISION.get(text, text)


def best_peers(shown, by_metric):
    """{precision: the fastest correct timed peer of that precision}: the references the other
    runs are measured against (an FP32 step is not held against a TF32 library); peer_of
    gives a run's."""
    best = {}
    for r in shown:
        if r.is_peer and r.passed and (r.metric if by_metric else r.median_ms):
            old = best.get(r.precision)
            if old is None or rate(r) > rate(old):
                best[r.precision] = r
    return best


def peer_of(peers, run):
    """The peer of best_peers that `run` is compared with, None when there is none."""
    return peers.get(peer_precision(run))


def pick(runs, value=lambda r: r.seconds):
    """Of runs at one point: the fastest correct one by `value`, else the fastest timed
    (incorrect), else the first (it says why it has no time); None for no runs."""
    timed = sorted((r for r in runs if value(r)), key=lambda r: (not r.passed, value(r)))
    return timed[0] if timed else (runs[0] if runs else None)


# ---- points and settings -------------------------------------------------------------------

def group_by_point(runs, leave_out=()):
    """(study, point) -> its runs in the order they appear; points in numeric order. A point is
    the params that are also data facts of the study (else the harness's point string), but
    for `leave_out` (n, for a figure that sweeps n)."""
    facts = {}
    for run in runs:  # per study, every fact any run reports: untimed runs may lack some
        facts.setdefault(run.study, set()).update(run.data)
    groups = {}
    for run in runs:
        point = [(k, str(run.params[k])) for k in sorted(facts[run.study] - set(leave_out))
                 if k in run.params]
        point = point or [tuple(p.split("=", 1)) for p in run.point.split(",") if "=" in p]
        groups.setdefault((run.study, tuple(point)), []).append(run)
    seen = list(facts)

    def order(item):  # studies as they appear, points by number: n=64 before n=128
        (study, point), _ = item
        return seen.index(study), [(k, ladder_results.number(v) is None, ladder_results.number(v) or 0, v) for k, v in point]
    return dict(sorted(groups.items(), key=order))


def point_title(point):
    return ", ".join(f"{k}={v}" for k, v in point) or "all runs"


def point_name(point):
    """File-safe: 'entries1048576_n128'; anything but [A-Za-z0-9.-] becomes '_'."""
    return re.sub(r"[^A-Za-z0-9.-]", "_", "_".join(f"{k}{v}" for k, v in point) or "all")


def varying(runs, leave_out=()):
    """Params other than `leave_out` that take more than one value among the runs that
    have them (block_size is no setting when only some variants take it)."""
    keys = sorted({k for r in runs for k in r.params} - set(leave_out))
    return [k for k in keys if len({r.params.get(k) for r in runs} - {None}) > 1]


def missing_footnotes(missing, total, what_not="not timed"):
    """[(what, why)] of untimed points -> lines grouped by why, so that twenty
    'skipped: no CUDA device' take one line (`total` 0: never 'all')."""
    by_why = {}
    for what, why in missing:
        by_why.setdefault(why, []).append(what)
    lines = []
    for why, whats in by_why.items():
        more = f" and {len(whats) - 4} more" if len(whats) > 4 else ""
        lines.append(f"{what_not}, all {total}: {why}" if len(whats) == total > 1
                     else f"{what_not}: {', '.join(whats[:4])}{more} ({why})")
    return lines

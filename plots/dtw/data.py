"""The DTW lecture notes' Titan X times (seed.json) and what the figure and the report both
read from the runs beside them."""
from .. import formats, selection, studies
from .. import results as ladder_results

NOTES = studies.seed(__file__)


def notes_mismatch(runs):
    """Why the notes' times do not apply to these runs ('' when they do): the notes time one
    query against 2^20 series of 128, no band, and so must the runs."""
    for run in runs:
        for key, value in NOTES["data"].items():
            have = ladder_results.number(run.data.get(key))
            if have != value:
                have = "?" if have is None else f"{have:g}"
                return f"this point has {key}={have}, the notes {value}"
    return ""


def speedups(shown):
    """(text, ratio or None) per row: the gain over the previous timed step of ours of the same
    precision class (selection.precision_class: fp32 beside fp32, fp16x2 beside fp16x2), its
    median over this one's, naming that step when other rows lie between. A peer gets no
    gain ('peer'), and is no step to gain over; neither does the first timed step of ours
    ('baseline') or of a precision ('first fp16')."""
    column, previous = [], {}
    for i, run in enumerate(shown):
        ms, kind = run.median_ms, selection.precision_class(run)
        if run.is_peer:
            column.append(("peer" if ms else "-", None))
            continue
        if ms is None or kind not in previous:
            column.append(("-" if not ms else "baseline" if not previous else f"first {kind}",
                           None))
        else:
            row, name, before = previous[kind]
            ratio = before / ms
            column.append((formats.times_text(ratio) + ("" if row == i - 1 else f" vs {name}"),
                           ratio))
        if ms:
            previous[kind] = (i, selection.step_label(run), ms)
    return column

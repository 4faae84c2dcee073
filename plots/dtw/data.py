"""The DTW lecture notes' Titan X times (seed.json) and what the figure and the report both
read from the runs beside them."""
import common

NOTES = common.seed(__file__)


def notes_mismatch(runs):
    """Why the notes' times do not apply to these runs ('' when they do): the notes time one
    query against 2^20 series of 128, no band, and so must the runs."""
    for run in runs:
        for key, value in NOTES["data"].items():
            have = common.number(run.data.get(key))
            if have != value:
                have = "?" if have is None else f"{have:g}"
                return f"this point has {key}={have}, the notes {value}"
    return ""


def speedups(shown):
    """(text, ratio or None) per row: the previous timed bar's median over this one's, naming
    that bar when untimed rows lie between."""
    column, previous = [], None
    for i, run in enumerate(shown):
        ms = run.median_ms
        if ms is None or previous is None:
            column.append(("baseline" if ms else "-", None))
        else:
            row, name, before = previous
            ratio = before / ms
            column.append((common.times_text(ratio) + ("" if row == i - 1 else f" vs {name}"),
                           ratio))
        if ms:
            previous = (i, common.step_label(run), ms)
    return column

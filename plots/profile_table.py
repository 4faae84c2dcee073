"""The counters that explain each step of a ladder, as Markdown tables: `ladder profile CONFIG
--out R.json` keeps, for each GPU run, what Nsight Compute measured (the run's "profile"); this
prints them as one table per study and point, a row per profiled step in ladder order, so that
a study's README can paste numbers generated from committed results instead of typing them.

Above each table, one line: the study, the point, the GPU (the results' device.name), the
Nsight Compute version, the replay mode and the metric set. Its columns, each only when some
row has the value ("-" in a row without it):

  - step and variant (the variant's settings where it runs at several at one point; a metric
    set column where the rows come from files of different sets);
  - kernel time, ms (derived.duration_ns);
  - shared-memory wavefronts and, of them, bank conflicts (the raw l1tex counters; in a
    profile of several collections, `ladder profile --into`, the kernel-replay one's), and
    the conflicts' share in %;
  - branch uniformity, %;
  - threads per instruction (thread over warp instructions: 32 is a full warp) and thread
    instructions per work unit (the header names it: per cell, per point, per FLOP);
  - SM and memory throughput, % of peak (speed of light), and achieved occupancy, %.

Numbers have 3 significant digits; counts a k, M, G or T suffix (440k, 2.50G). Runs whose
profile was skipped (CPU steps, no ncu) are left out.

Usage: python3 -m plots.profile_table RESULTS.json [...] [--study NAME]
Prints the tables to stdout. Exit status 0 when a table was printed; 2, with one line on
stderr, when a file is not a ladder results file or no run (of the study) has counters.
Standard library only: matplotlib is not needed.
"""
import argparse
import sys

from . import formats, selection
from . import results as ladder_results
from .results import ResultsError, number
from .profile_figure import derived, ladder_order, nothing_text, one_or_mixed, profile

WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
# What a work unit is called in a header, one of them: `work_unit` is a plural.
UNIT_NAMES = {"cells": "cell", "points": "point", "flops": "FLOP"}


def _dict(value):
    return value if isinstance(value, dict) else {}


def say(text):
    print(f"profile_table: {text}", file=sys.stderr)


# ---- numbers -------------------------------------------------------------------------------

def plain(value):
    """3 significant digits, no exponent: 0.0576, 2.90, 17.8, 100."""
    return formats.format_value(value) if value >= 0 else "-" + formats.format_value(-value)


def count(value):
    """A count with 3 significant digits and a suffix: 9.57k, 440k, 2.50G; under 1000 as
    itself: 33, 920."""
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return plain(value / scale) + suffix
    return f"{value:.3g}"


# ---- reading the counters ------------------------------------------------------------------

def raw_sources(run):
    """[(raw, replay mode, collection or None)] of a profile, in the order to look a metric up:
    the top level's raw, then its collections, kernel replay's first (the SASS and
    shared-memory counters are kernel replay's; range replay may lack or refuse them)."""
    p = profile(run)
    sources = [(_dict(p.get("raw")), p.get("replay_mode"), None)]
    collections = [c for c in p.get("collections") or [] if isinstance(c, dict)]
    collections.sort(key=lambda c: c.get("replay_mode") != "kernel")  # stable: kernel first
    return sources + [(_dict(c.get("raw")), c.get("replay_mode"), c) for c in collections]


def shared_counts(run):
    """(wavefronts, conflicts, replay mode of the collection they come from or None): both
    from the first raw that has the wavefronts, so that the two are one collection's."""
    for raw, mode, collection in raw_sources(run):
        wavefronts = number(raw.get(WAVEFRONTS))
        if wavefronts is not None:
            return wavefronts, number(raw.get(CONFLICTS)), mode if collection else None
    return None, None, None


def ratio(top, bottom):
    return top / bottom if top is not None and bottom else None


def percent(value):
    return value * 100 if value is not None else None


def cells(run):
    """Column key -> the run's number (None where it lacks it)."""
    d = derived(run)
    per_unit = _dict(d.get("per_work_unit"))
    sol = _dict(d.get("speed_of_light_pct"))
    wavefronts, conflicts, _ = shared_counts(run)
    share = ratio(conflicts, wavefronts) if wavefronts is not None and conflicts is not None \
        else number(d.get("shared_conflict_share"))
    duration = number(d.get("duration_ns"))
    return {"kernel_ms": duration / 1e6 if duration is not None else None,
            "wavefronts": wavefronts,
            "conflicts": conflicts,
            "conflict_share": percent(share),
            "uniformity": percent(number(d.get("branch_uniformity"))),
            "threads": ratio(number(per_unit.get("thread_instructions")),
                             number(per_unit.get("warp_instructions"))),
            "thread_instructions": number(per_unit.get("thread_instructions")),
            "fadd": number(per_unit.get("fadd")),
            "sm": number(sol.get("sm_pct")),
            "memory": number(sol.get("memory_pct")),
            "occupancy": number(d.get("achieved_occupancy_pct"))}


def unit_name(runs):
    """'cell' for work in cells; 'work unit' when the runs name none or differ."""
    unit = one_or_mixed(profile(r).get("work_unit") for r in runs)
    if unit == "unknown" or unit.startswith("mixed"):
        return "work unit"
    return UNIT_NAMES.get(unit, unit[:-1] if unit.endswith("s") else unit)


def columns(runs):
    """[(key, header, format)] of the numeric columns, in order; FP32 adds per unit of work only
    where some run made any (kernel replay's SASS counts over all of its launches)."""
    fadd = [("fadd", f"FP32 adds per {unit_name(runs)}", plain)] \
        if any(cells(r)["fadd"] for r in runs) else []
    return [("kernel_ms", "kernel (ms)", plain),
            ("wavefronts", "shared wavefronts", count),
            ("conflicts", "of which conflicts", count),
            ("conflict_share", "conflict share %", plain),
            ("uniformity", "branch uniformity %", plain),
            ("threads", "threads per instruction", plain),
            ("thread_instructions", f"thread instructions per {unit_name(runs)}", plain),
            *fadd,
            ("sm", "SM % of peak", plain),
            ("memory", "memory % of peak", plain),
            ("occupancy", "achieved occupancy %", plain)]


# ---- the tables ----------------------------------------------------------------------------

def profiled_groups(files, study=None):
    """(study, point) -> its runs with counters, in ladder order; groups as first seen."""
    groups = {}
    for results in files:
        for run in results.runs:
            if (study is None or run.study == study) and any(
                    v is not None for v in cells(run).values()):
                groups.setdefault((str(run.study or "?"), str(run.point)), []).append(run)
    return {key: sorted(runs, key=ladder_order) for key, runs in groups.items()}


def variant_names(runs):
    """The variant of each run, with the settings that tell apart its runs at the point, and
    marked where it ran emulated."""
    names = []
    for run in runs:
        same = [r for r in runs if r.variant == run.variant]
        settings = selection.varying(same) if len(same) > 1 else []
        extra = ", ".join(f"{k}={run.params.get(k)}" for k in settings)
        names.append(selection.step_label(run, selection.short_variant(run))
                     + (f" ({extra})" if extra else ""))
    return names


def heading(study, point, runs):
    """The line above a table: what, where, and how the counters were collected."""
    def field(key):
        return one_or_mixed(profile(r).get(key) for r in runs)
    launches = one_or_mixed(profile(r).get("launches_profiled") for r in runs)
    launches = "" if launches == "unknown" else " of each run's first launch" \
        if launches == "1" else f" of each run's first {launches} launches"
    shared_from = one_or_mixed(shared_counts(r)[2] for r in runs)
    shared = "" if shared_from == "unknown" else \
        f"; shared-memory counts of combined profiles from the {shared_from}-replay collection"
    return (f"**{study}** at `{point or 'all runs'}`: "
            f"{one_or_mixed(r.file.device_name for r in runs)}, Nsight Compute "
            f"{field('tool_version')}, {field('replay_mode')} replay{launches}, "
            f"metric set {field('metric_set')}{shared}")


def escape(text):
    return str(text).replace("|", "\\|")


def table(study, point, runs):
    """The heading line and the Markdown table of one point's profiled runs."""
    values = [cells(r) for r in runs]
    shown = [c for c in columns(runs) if any(v[c[0]] is not None for v in values)]
    header = ["step", "variant"]
    sets = [str(profile(r).get("metric_set") or "-") for r in runs]
    mixed_sets = len(set(sets)) > 1
    if mixed_sets:
        header.append("metric set")
    header += [h for _, h, _ in shown]
    lines = [heading(study, point, runs), "",
             "| " + " | ".join(map(escape, header)) + " |",
             "|" + "|".join(["---"] * (len(header) - len(shown)) + ["---:"] * len(shown)) + "|"]
    for run, name, metric_set, value in zip(runs, variant_names(runs), sets, values):
        row = ["?" if run.step is None else run.step, name] + ([metric_set] if mixed_sets else [])
        row += ["-" if value[key] is None else form(value[key]) for key, _, form in shown]
        lines.append("| " + " | ".join(map(escape, row)) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Print the Nsight Compute counters of each "
                                                 "profiled step, a Markdown table per point.")
    parser.add_argument("results", nargs="+", help="results files written by `ladder profile`")
    parser.add_argument("--study", help="only this study's runs")
    args = parser.parse_args(argv)
    try:
        files = [ladder_results.load(path) for path in args.results]
        groups = profiled_groups(files, args.study)
        if not groups:
            raise ResultsError(nothing_text(files, args.study, purpose=""))
    except ResultsError as err:
        say(err)
        return 2
    print("\n\n".join(table(study, point, runs) for (study, point), runs in groups.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

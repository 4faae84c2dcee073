"""One REPORT.md over reproductions run on several GPUs: claim by claim and step by step, each
GPU's number side by side, so that one sees whether the seeds' results hold on each of them.

Usage: python3 -m plots.gpus_report --out OUT_DIR DIR1 DIR2 [...]
       (each DIR a reproduction directory, as `ladder reproduce` writes it, all of one scale)
Exit status: 0 when OUT_DIR/REPORT.md is written; 2, with nothing written, for fewer than two
directories, one without a readable reproduction.json, directories of different scales, or
OUT_DIR one of them or not a folder that can be written.
"""
import argparse
import functools
import os
import sys
from pathlib import Path

from . import formats, pages, selection
from . import results as ladder_results
from . import report
from . import report_common as rc
from . import studies

MISSING = "–"  # a claim or step that one GPU's reproduction does not have


class Refused(Exception):
    """Inputs that make no report; the message is one line meant for the user."""


class Gpu:
    """One reproduction directory: its context, its column name and its report's sections."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.ctx = rc.Context(folder, report.read_manifest(folder))
        self.device = (self.ctx.manifest.get("device") or {}).get("name") or "no GPU"
        self.name = self.device

    @functools.cached_property
    def sections(self):
        """[(heading, Section)] as report.py makes them: the verdicts are the studies' own."""
        return report.sections(self.ctx)


def load(folders, out_dir):
    """The Gpus of `folders`, each with a distinct name; Refused when they make no report."""
    if len(folders) < 2:
        raise Refused(f"needs at least two reproduction directories, got {len(folders)}")
    if pages.out_dir_problem(out_dir, "--out"):
        raise Refused(pages.out_dir_problem(out_dir, "--out"))
    out = Path(out_dir).resolve()
    if any(Path(f).resolve() == out for f in folders):
        raise Refused(f"--out {out_dir} is one of the reproduction directories")
    gpus = [Gpu(f) for f in folders]
    scales = {g.ctx.scale for g in gpus}
    if len(scales) > 1:
        raise Refused("the directories are of different scales ("
                      + ", ".join(f"{g.folder}: {g.ctx.scale}" for g in gpus) + ")")
    # Two runs on one GPU model (two nodes, two dates): told apart by folder, then by path.
    for tell_apart in (lambda g: f"{g.device} ({g.folder.name})",
                       lambda g: f"{g.device} ({g.folder})"):
        names = [g.name for g in gpus]
        for g in gpus:
            if names.count(g.name) > 1:
                g.name = tell_apart(g)
    return gpus


def header(gpus, report_dir):
    rows = [[g.name, report.device_line(g.ctx.manifest.get("device")),
             f"`{(g.ctx.manifest.get('ladder') or {}).get('git_commit', '?')}`",
             f"{g.ctx.manifest.get('started_at', '?')} .. {g.ctx.manifest.get('finished_at', '?')}",
             f"[{g.folder.name}]({os.path.relpath(g.folder / 'REPORT.md', report_dir)})"]
            for g in gpus]
    return ("# ladder: reproduction report, several GPUs\n\nThe seeds' claims and our ladders "
            "on each GPU, side by side. Each GPU's own REPORT.md says why a claim holds or "
            f"not, with its tables and figures.\n\n- Scale: **{gpus[0].ctx.scale}**.\n\n"
            + rc.md_table(["GPU", "device", "commit", "started .. finished", "report"], rows))


def keyed(items, key):
    """{(key, n): item}, n counting the items of the same key, so that repeats pair up."""
    out, seen = {}, {}
    for item in items:
        k = key(item)
        seen[k] = seen.get(k, -1) + 1
        out[(k, seen[k])] = item
    return out


def union(dicts):
    """The keys of all dicts, in the order first seen."""
    return list(dict.fromkeys(k for d in dicts for k in d))


def claims_part(gpus):
    """Per study, a row per claim: the seed's number, then each GPU's number and verdict."""
    per_gpu = [{heading: keyed(s.claims, lambda c: (c.target, c.claim))
                for heading, s in g.sections} for g in gpus]
    parts = []
    for heading in union(per_gpu):
        by_gpu = [claims.get(heading, {}) for claims in per_gpu]
        rows = []
        for key in union(by_gpu):
            first = next(c[key] for c in by_gpu if key in c)
            row = [first.target, first.claim, first.seed]
            for c in by_gpu:
                row += [c[key].ours, c[key].verdict] if key in c else [MISSING, MISSING]
            rows.append(row)
        columns = [h for g in gpus for h in (g.name, f"{g.name}: verdict")]
        parts.append(f"## {heading}\n\n" + (rc.md_table(
            ["target", "seed's claim", "seed", *columns], rows) if rows else "No claim.\n"))
    return "\n".join(parts)


def ladder_cells(ctx, config):
    """{(point, step, variant): (run, its pick among settings)} of a config's runs and its
    peers', a row per variant at each point as the ladder figures show them."""
    runs = ctx.runs(config) + [r for p in ctx.peer_results(config) for r in p.runs]
    cells = {}
    for (_study, point), group in selection.group_by_point(runs).items():
        for run, name in selection.ladder_rows(group):
            # the name's second line, if any: the setting picked, "(fastest of 5: ...)"
            pick = name.partition("\n")[2]
            cells[(selection.point_title(point), run.step, run.variant)] = (run, pick)
    return cells


def run_cells(cell):
    """[median time, throughput with % of the GPU's limit] of one GPU's row."""
    if cell is None:
        return [MISSING, MISSING]
    run, pick = cell
    time = " ".join(t for t in (rc.time_text(run, formats.format_time), pick,
                                "(emulated)" if run.emulated else "") if t)
    return [time, selection.rate_text(run) or "-"]


def steps_part(gpus):
    """Per config, a row per (point, step, variant), each GPU's time and throughput."""
    configs = union([{c.get("name"): c for c in g.ctx.manifest.get("configs", [])} for g in gpus])
    parts = []
    for config in configs:
        by_gpu = [ladder_cells(g.ctx, config) for g in gpus]
        rows = []
        for key in union(by_gpu):
            point, step, variant = key
            label = next(cells[key][0].label for cells in by_gpu if key in cells)
            rows.append([point, "?" if step is None else step, f"{label} (`{variant}`)",
                         *[c for cells in by_gpu for c in run_cells(cells.get(key))]])
        columns = [h for g in gpus for h in (f"{g.name}: median", f"{g.name}: throughput")]
        parts.append(f"### {config}\n\n" + (rc.md_table(
            ["point", "step", "variant", *columns], rows) if rows else "No run.\n"))
    return "## Step by step\n\n" + "\n".join(parts)


def failed_line(gpu):
    """The runs of one GPU that were attempted and did not pass, on one line."""
    failed = report.failed_runs(gpu.ctx)
    if not failed:
        return f"- {gpu.name}: every run that ran passed validation"
    runs = "; ".join(f"`{name}` {r.id} {r.point} ({r.status})" for name, r in failed)
    return f"- {gpu.name}: {len(failed)} run{'s' * (len(failed) > 1)} did not pass: {runs}"


def held_text(gpu):
    """'NVIDIA H100 80GB HBM3 14/57': the claims that reproduce on a GPU, of all claims."""
    claims = [c for _heading, s in gpu.sections for c in s.claims]
    return f"{gpu.name} {sum(c.verdict == rc.REPRODUCES for c in claims)}/{len(claims)}"


def closing(gpus):
    return ("## Runs that did not pass\n\n" + "\n".join(map(failed_line, gpus))
            + f"\n\n## Summary\n\nClaims holding (verdict '{rc.REPRODUCES}', of all claims): "
            + ", ".join(map(held_text, gpus)) + ".\n")


def build(gpus, report_dir):
    return "\n".join([header(gpus, report_dir), claims_part(gpus), steps_part(gpus),
                      closing(gpus)])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, metavar="OUT_DIR")
    parser.add_argument("dirs", nargs="*", metavar="DIR")
    args = parser.parse_args(argv)
    try:
        studies.folders()  # LADDER_STUDY_PATH checked before anything is written
        gpus = load(args.dirs, args.out)
        text = build(gpus, Path(args.out))
    except (Refused, ladder_results.ResultsError, studies.StudyError) as err:
        print(f"gpus_report.py: error: {err}", file=sys.stderr)
        return 2
    Path(args.out).mkdir(parents=True, exist_ok=True)
    out = Path(args.out) / "REPORT.md"
    report.write_atomically(out, text)
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

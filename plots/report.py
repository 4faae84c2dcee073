"""Write REPORT.md for a reproduction directory: every study's section (the seed's tables and
figures beside ours, claim by claim), the summary of what reproduces, and how the runs went.

Usage: python3 -m plots.report DIR    (DIR/reproduction.json, as `ladder reproduce` writes it)
       python3 -m plots.report DIR --from-results RESULTS.json... [--scale paper|quick]
                               [--allow-mixed]
           (copies the results files into DIR, draws their figures, writes the manifest;
           a reproduction.json or claims.json among them is left out, so DIR2/*.json reads a
           reproduction;
           results of more than one ladder commit or device are refused unless --allow-mixed,
           and then the Runs and Peers tables name each file's)
       --report FILE writes the report there instead of DIR/REPORT.md.
Beside REPORT.md, claims.json holds every claim as the report judged it (the seed's words and
where they stand, the seed's number and ours, the verdict and why; plots/claims.schema.json).
Exit status: 0 when written, 2 when DIR, its manifest, a results file or LADDER_STUDY_PATH
cannot be read, the results files mix commits or devices, or DIR (its figures) or the report
cannot be written there (all checked before anything is written; what --from-results wrote is
removed again when its figures fail).
"""
import argparse
import collections
import datetime
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import modules, pages, pools
from . import results as ladder_results
from . import report_common as rc
from . import report_summary
from . import studies

MANIFEST = "reproduction.json"
CLAIMS = "claims.json"  # beside REPORT.md


def sections(ctx):
    """[(heading, Section)] of every study in the report's order; a bug in one study must not
    cost the whole report, so a study that fails gets a section that says so."""
    found = []
    for study in studies.folders():
        try:
            found += [(studies.order(m), study, m) for m in studies.modules(study)
                      if callable(getattr(m, "section", None))]
        except studies.StudyError as err:
            found.append((float("inf"), study, err))
    out = []
    for _order, study, module in sorted(found, key=lambda item: item[:2]):
        if isinstance(module, studies.StudyError):
            out.append((study, rc.Section(study, f"**The {study} study could not be loaded:** "
                                                 f"`{module}`.\n", [])))
            continue
        heading = f"{module.TITLE} ({module.SEED})"
        try:
            out.append((heading, module.section(ctx)))
        except Exception as err:  # noqa: BLE001
            out.append((heading, rc.Section(module.TITLE, f"**The {study} section failed:** "
                                            f"`{type(err).__name__}: {err}`. Its results files "
                                            "are in this directory.\n", [])))
    return out


def seconds_between(start, end):
    try:
        a = datetime.datetime.fromisoformat(str(start).replace("Z", "+00:00"))
        b = datetime.datetime.fromisoformat(str(end).replace("Z", "+00:00"))
    except ValueError:
        return None
    return (b - a).total_seconds()


def fmt_duration(s):
    if s is None:
        return "-"
    s = int(round(s))
    return f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s"


def device_line(device):
    if not device or not device.get("present"):
        why = (device or {}).get("absent_reason") or "no CUDA device"
        return f"no GPU ({why}): GPU steps are reported as skipped"
    return ("{name} (compute capability {compute_capability}, {sm_count} SMs, driver "
            "{driver_version}, runtime {runtime_version})").format_map(
        collections.defaultdict(lambda: "?", device))


def file_commit(results):
    return results.commit or "?"


def file_device(results):
    return results.device_name or ("no GPU" if not results.device.get("present") else "?")


def mixed(loaded):
    """One line naming two results files of different ladder commits or devices; None when
    they agree. A peer's file (a top-level "peer") counts for the device only: its numbers are
    the peer program's, timed on that device, and its ladder commit names just the harness that
    ingested them, so a peer ingested at another commit is as comparable as one of ours."""
    # A file of CPU runs only (a CPU library's peer, recorded where no GPU was) does not
    # depend on the GPU: it counts for no device.
    on_gpu = [r for r in loaded if any(run.backend == "gpu" for run in r.runs)]
    for what, key, files in (("commit", file_commit, [r for r in loaded if r.peer is None]),
                             ("device", file_device, on_gpu)):
        for other in files[1:]:
            if key(other) != key(files[0]):
                return (f"results from more than one {what}: {files[0].path} ({what} "
                        f"{key(files[0])}) vs {other.path} ({what} {key(other)}); "
                        "pass --allow-mixed to report them together")
    return None


def provenance(ctx):
    """{results file name: (commit, device)} of the configs' and peers' files when they do
    not all share one commit and device (a report made with --allow-mixed), else {}."""
    found = {}
    for entry in ctx.manifest.get("configs", []) + ctx.manifest.get("peers", []):
        results = ctx.results_file(entry["results"]) if entry.get("results") else None
        if results:
            found[entry["results"]] = results
    if mixed(list(found.values())) is None:
        return {}
    return {name: (file_commit(r), file_device(r)) for name, r in found.items()}


def mixed_cells(mix, entry):
    name = entry.get("results")
    return [f"`{name}`" if name else "-", *mix.get(name, ("-", "-"))]


def runs_table(ctx):
    """A row per config: what happened to it, its time, clocks and run counts (and, when the
    files mix commits or devices, each file's)."""
    rows, mix = [], provenance(ctx)
    for c in ctx.manifest.get("configs", []):
        results = ctx.results(c.get("name")) if c.get("results") else None
        device = results.device if results else {}
        clocks = (f"{device.get('sm_clock_mhz_start')} / {device.get('sm_clock_mhz_end')} MHz"
                  if device.get("sm_clock_mhz_start") is not None else "-")
        took = c.get("elapsed_s")
        if took is None and results:
            took = seconds_between(results.raw.get("started_at"), results.raw.get("finished_at"))
        summary = (results.raw.get("summary") if results else None) or c.get("summary") or {}
        counts = ", ".join(f"{v} {k}" for k, v in sorted(summary.items())) or "-"
        rows.append([c.get("name", "?"), c.get("path", "?"), c.get("state", "?"),
                     fmt_duration(took), clocks, counts]
                    + (mixed_cells(mix, c) if mix else []))
    return rc.md_table(["config", "file", "state", "time", "SM clock start / end", "runs"]
                       + (["results file", "commit", "device"] if mix else []), rows)


def peers_table(ctx):
    mix = provenance(ctx)
    rows = [[p.get("peer", "?"), p.get("config", "?"), p.get("state", "?"),
             fmt_duration(p.get("elapsed_s")), p.get("why", "")]
            + (mixed_cells(mix, p) if mix else [])
            for p in ctx.manifest.get("peers", [])]
    if not rows:
        return "No peer was run.\n"
    return rc.md_table(["peer", "config", "state", "time", "why"]
                       + (["results file", "ladder commit (ingest)", "device"] if mix else []),
                       rows)


def config_runs(ctx):
    """[(config name, run)] of every run of every config."""
    return [(c.get("name"), r) for c in ctx.manifest.get("configs", [])
            for r in ctx.runs(c.get("name"))]


def failed_runs(ctx):
    """[(config name, run)] of the runs that were attempted and did not pass."""
    return [(name, r) for name, r in config_runs(ctx) if r.status in ("incorrect", "error")]


def failures(ctx):
    """Runs that were attempted and did not pass: a line each."""
    runs = config_runs(ctx)
    lines = [f"- `{name}` {r.id} {r.point}: **{r.status}** {r.raw.get('reason', '')}"
             for name, r in failed_runs(ctx)]
    text = "\n".join(lines) + "\n" if lines else "Every run that ran passed validation.\n"
    unchecked = [f"`{name}` {r.variant} {r.point}" for name, r in runs
                 if r.passed and r.validation.get("mode") == "off"]
    if unchecked:
        text += ("\nTimed without validation (the config turns it off where the sequential check "
                 f"would take too long; the same step is validated at the smaller points): "
                 f"{'; '.join(unchecked)}.\n")
    return text


def mixed_line(ctx):
    mix = provenance(ctx)
    if not mix:
        return ""
    commits = sorted({c for c, _d in mix.values()})
    devices = sorted({d for _c, d in mix.values()})
    return (f"- **Mixed results** (`--allow-mixed`): commits {', '.join(commits)}; devices "
            f"{', '.join(devices)}. The device and commit above are the first file's; the Runs "
            "and Peers tables name each file's.\n")


def header(ctx):
    m = ctx.manifest
    ladder = m.get("ladder") or {}
    host = m.get("host") or {}
    scale = ("**quick**: the same experiments at reduced sizes, so that they finish in minutes; "
             "absolute times are not comparable with the seeds', gains between steps are"
             if ctx.quick else "**paper**: the seeds' sizes")
    reused = [c for c in m.get("configs", []) if c.get("state") == "reused"]
    earlier = sum(c.get("elapsed_s") or 0 for c in reused)
    took = f"{fmt_duration(m.get('elapsed_s'))} for this invocation"
    if m.get("elapsed_s") is None:  # assembled with --from-results: only the files' own times
        runs_s = sum(c.get("elapsed_s") or 0 for c in m.get("configs", []))
        took = f"{fmt_duration(runs_s)} for the configs' runs (assembled from their results files)"
    elif reused:
        took += (f"; {len(reused)} results file(s) reused from an earlier invocation of the same "
                 f"commit on the same device (their runs took {fmt_duration(earlier)})")
    return ("# ladder: reproduction report\n\nEvery study's paper experiments, validated against "
            "the sequential baselines, beside the numbers their seeds publish.\n\n"
            f"- Scale: {scale}.\n- Device: {device_line(m.get('device'))}; host "
            f"{host.get('cpu', '?')}, {host.get('cores', '?')} cores.\n"
            f"- ladder {ladder.get('version', '?')}, commit `{ladder.get('git_commit', '?')}`.\n"
            f"{mixed_line(ctx)}"
            f"- Started {m.get('started_at', '?')}, finished "
            f"{m.get('finished_at', '?')}; time taken: {took}.\n")


def seed_claims(claims):
    return [c for c in claims if c.source == rc.FROM_SEED]


def ladder_checks(claims):
    return [c for c in claims if c.source == rc.FROM_LADDER]


def claim_ids(sections):
    """{id(claim): its id}: the seed's claims numbered from 1 in the report's order (the
    summary figure's numbers), ladder's own checks L1, L2, ... apart."""
    claims = [c for s in sections for c in s.claims]
    ids = {id(c): str(i) for i, c in enumerate(seed_claims(claims), start=1)}
    ids.update({id(c): f"L{i}" for i, c in enumerate(ladder_checks(claims), start=1)})
    return ids


def where(c):
    """The seed's words and where they stand, for a table cell."""
    return f"\u201c{c.quote}\u201d ({c.place})" if c.quote else c.place or "-"


def claims_table(sections):
    """Every claim of the seeds in one table: its number is the summary figure's; then the
    checks ladder adds, which no seed states, apart."""
    ids = claim_ids(sections)
    pairs = [(s, c) for s in sections for c in s.claims]
    rows = [[ids[id(c)], s.title, c.target, c.claim, c.place or "-", c.verdict, c.why]
            for s, c in pairs if c.source == rc.FROM_SEED]
    text = "## Claims\n\n" + rc.md_table(["#", "study", "target", "seed's claim", "where in the seed",
                                            "verdict", "why"], rows)
    checks = [[ids[id(c)], s.title, c.target, c.claim, c.verdict, c.why]
              for s, c in pairs if c.source == rc.FROM_LADDER]
    if checks:
        text += ("\n### Checks ladder adds\n\nNone of these is stated by a seed: they are not "
                 "counted among the claims above.\n\n"
                 + rc.md_table(["#", "study", "target", "check", "verdict", "why"], checks))
    return text


def section_claims(s, ids):
    """A study's claims under its section: the seed's words beside each."""
    return "### Claims\n\n" + rc.md_table(
        ["#", "target", "seed's claim", "the seed says", "seed", "ours", "verdict", "why"],
        [[ids[id(c)], c.target, c.claim, where(c) if c.source == rc.FROM_SEED else "(ladder's check)",
          c.seed, c.ours, c.verdict, c.why] for c in s.claims])


def number_or_none(x):
    x = getattr(x, "value", x)
    return float(x) if isinstance(x, (int, float)) and math.isfinite(x) else None


def claims_document(ctx, sections):
    """claims.json (plots/claims.schema.json): every claim as the report judged it."""
    ids = claim_ids(sections)
    return {"schema_version": 2, "report": "REPORT.md", "scale": ctx.manifest.get("scale"),
            "ladder": ctx.manifest.get("ladder"),
            "claims": [{"id": ids[id(c)], "source": c.source, "study": s.title, "target": c.target,
                        "claim": c.claim, "quote": c.quote, "place": c.place, "seed": c.seed,
                        "seed_value": number_or_none(c.seed_x), "ours": c.ours,
                        "ours_values": [number_or_none(v) for v in c.ours_x],
                        "rule": c.rule or None, "thresholds": [float(t) for t in c.thresholds],
                        "verdict": c.verdict, "why": c.why}
                       for s in sections for c in s.claims]}


def build_all(ctx, draw_into=None):
    """(REPORT.md's text, claims.json's document); with draw_into (a folder), the summary
    figure is drawn there first."""
    found = sections(ctx)
    studies_found = [s for _h, s in found]
    claims = seed_claims([c for s in studies_found for c in s.claims])
    figure = None
    if draw_into is not None:
        try:
            figure = report_summary.draw_figure(claims, draw_into,
                                                report_summary.figure_subtitle(ctx))
        except ImportError as err:  # matplotlib missing: the report is still written
            print(f"report.py: summary figure not drawn: {err}", file=sys.stderr)
    ids = claim_ids(studies_found)
    by_study = [(s.title, seed_claims(s.claims)) for s in studies_found]
    parts = [header(ctx), report_summary.page(ctx, claims, figure, by_study), rc.how_judged(),
             rc.HOW_PROFILED, claims_table(studies_found)]
    for heading, s in found:
        parts.append(f"## {heading}\n\n{s.body}")
        if s.claims:
            parts.append(section_claims(s, ids))
    parts += [report_summary.check_section(ctx),
              "## Runs\n\n" + runs_table(ctx), "## Peers\n\n" + peers_table(ctx),
              "## Runs that did not pass\n\n" + failures(ctx)]
    return "\n".join(parts), claims_document(ctx, studies_found)


def build(ctx, draw_into=None):
    """REPORT.md's text (build_all's first part)."""
    return build_all(ctx, draw_into)[0]


def current_umask():
    """The process's umask, read from /proc without changing it where it can be."""
    try:
        with open("/proc/self/status", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomically(path, text):
    """`text` (str or bytes) as the file `path`, whole or not at all; whatever was there is
    replaced, never opened (a FIFO there cannot block the write). Its mode is 0666 less the
    umask, as any file the user makes (mkstemp's own 0600 would hide the report from others)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o666 & ~current_umask())
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# The fields of a reproduction manifest that the report reads, by type (ladder_results'
# RUN_FIELDS form): checked once when it is read, so that no section meets another type.
ENTRY = {**dict.fromkeys(("name", "study", "path", "results", "state", "why", "peer", "config"),
                         str), "elapsed_s": ladder_results.NUMBER,
         "summary": {"*": ladder_results.NUMBER}}
MANIFEST_FIELDS = {"scale": str, "ladder": dict, "device": dict, "host": dict,
                   "started_at": str, "finished_at": str, "elapsed_s": ladder_results.NUMBER,
                   "configs": [ENTRY], "peers": [ENTRY], "figures": [str], "profiles": list}


def read_manifest(out_dir):
    path = Path(out_dir) / MANIFEST
    manifest = ladder_results.read_json(path, "a reproduction manifest")
    if not isinstance(manifest, dict):
        raise ladder_results.ResultsError(f"{path}: not a reproduction manifest")
    ladder_results.check_fields(f"{path}: ", manifest, MANIFEST_FIELDS)
    return manifest


def manifest_from_results(out_dir, files, scale, allow_mixed=False):
    """Copy results files into out_dir, draw their figures and describe them as `ladder
    reproduce` would (each ours file as a config, each peer-only file as a peer run).
    Every file is read and checked before anything is written; what was written is removed
    again when a copy or the figures fail (ResultsError)."""
    loaded = ladder_results.load_all(files)
    if not loaded:
        raise ladder_results.ResultsError(f"no results file among {' '.join(files)}")
    refusal = None if allow_mixed else mixed(loaded)
    if refusal:
        raise ladder_results.ResultsError(refusal)
    names = [r.path.name for r in loaded]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice:  # copied into one folder, the second would replace the first
        raise ladder_results.ResultsError(f"two results files named {twice}: " + ", ".join(
            str(r.path) for r in loaded if r.path.name == twice))
    made = []
    try:
        return assemble(Path(out_dir), loaded, scale, made)
    except (OSError, ladder_results.ResultsError) as err:
        for path in reversed(made):
            shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise ladder_results.ResultsError(f"cannot write into {out_dir}: "
                                              f"{err.strerror or err}") from err
        raise


def made_by_mkdir(path):
    """The outermost of `path` and the folders above it that do not exist: what
    mkdir(parents=True) makes; None when `path` exists."""
    missing = None
    for folder in [path, *path.parents]:
        if folder.exists():
            break
        missing = folder
    return missing


def assemble(out_dir, loaded, scale, made):
    """manifest_from_results' writing: the copies, the figures and the manifest's contents;
    every file and folder it makes is appended to `made` first."""
    made += [p for p in (made_by_mkdir(out_dir),) if p]
    out_dir.mkdir(parents=True, exist_ok=True)
    configs, peers, first = [], [], None
    for results in loaded:
        f = results.path
        name = results.config.get("name", f.stem)
        target = out_dir / f.name
        if f.resolve() != target.resolve():
            made += [] if target.exists() else [target]
            # the bytes checked, not the path again: what is there now may be another file
            write_atomically(target, ladder_results.read_regular(f))
        study = next((r.study for r in results.runs), "?")
        if pools.only_peers(results):
            peers.append({"study": study, "peer": peer_name(results), "config": name,
                          "results": target.name, "state": "ran", "why": ""})
        else:
            first = first or results.raw
            configs.append({"study": study, "name": name,
                            "path": results.raw.get("config_path", ""), "results": target.name,
                            "state": "ran", "elapsed_s": seconds_between(
                                results.raw.get("started_at"), results.raw.get("finished_at"))})
    figures_dir = out_dir / "figures"
    made += [] if figures_dir.exists() else [figures_dir]
    draw_figures([out_dir / r.path.name for r in loaded], figures_dir)
    figures = sorted(str(p.relative_to(out_dir)) for p in figures_dir.glob("*.png"))
    first = first or {}
    stamps = [(r.raw.get("started_at"), r.raw.get("finished_at")) for r in loaded]
    return {"scale": scale, "ladder": first.get("ladder"), "device": first.get("device"),
            "host": first.get("host"),
            "started_at": min((s for s, _ in stamps if s), default=None),
            "finished_at": max((f for _, f in stamps if f), default=None), "elapsed_s": None,
            "configs": configs, "peers": peers + peers_missing(configs, peers),
            "figures": figures}


def draw_figures(files, figures_dir):
    """draw_all (a child process) on `files` into figures_dir, its warnings passed on;
    ResultsError with its last line when it fails. Without matplotlib, said: the report is
    written without them."""
    if pages.matplotlib is None:
        print("report.py: figures not drawn: matplotlib is not installed", file=sys.stderr)
        return
    draw, env = modules.module_command("draw_all", *files, "--out-dir", figures_dir)
    done = subprocess.run(draw, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, errors="replace")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise ladder_results.ResultsError(f"the figures could not be drawn "
                                          f"(exit status {done.returncode}): {last}")
    sys.stderr.write(done.stderr)


def peer_name(results):
    """A peer's name as `ladder reproduce` gives it: its script's (peers/eed/stringzilla_paired.py:
    stringzilla_paired), else, in files that do not name their script, its first run's variant."""
    peer = results.raw.get("peer")
    script = peer.get("script") if isinstance(peer, dict) else None
    return Path(script).stem if isinstance(script, str) and script else results.runs[0].variant


def peers_missing(configs, peers):
    """A peer of a config's study (peers/<study>/<name>.py) with no results among the files:
    listed as not run, so that the report says so rather than leaving it out."""
    root = Path(__file__).resolve().parents[1] / "peers"
    have = {(p["config"], p["peer"]) for p in peers}
    missing = []
    for c in configs:
        for script in sorted((root / c["study"]).glob("[!_]*.py")):
            if not any(cfg == c["name"] and (script.stem == peer or peer.startswith("peer_")
                                              and script.stem in peer) for cfg, peer in have):
                missing.append({"study": c["study"], "peer": script.stem, "config": c["name"],
                                "results": None, "state": "not in these results",
                                "why": "no results file of this peer among those given"})
    return missing


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--from-results", nargs="+", metavar="RESULTS.json")
    parser.add_argument("--scale", choices=("paper", "quick"), default="paper")
    parser.add_argument("--allow-mixed", action="store_true",
                        help="with --from-results: accept results of several ladder commits "
                             "or devices (the Runs and Peers tables then name each file's)")
    parser.add_argument("--report", metavar="FILE", help="where to write REPORT.md")
    args = parser.parse_args(argv)
    out = Path(args.report) if args.report else Path(args.dir) / "REPORT.md"
    try:
        studies.folders()  # LADDER_STUDY_PATH checked before anything is written
        problem = outputs_problem(args, out)
        if problem:
            raise ladder_results.ResultsError(problem)
        if args.from_results:
            manifest = manifest_from_results(args.dir, args.from_results, args.scale,
                                             args.allow_mixed)
            write_atomically(Path(args.dir) / MANIFEST, json.dumps(manifest, indent=2) + "\n")
        else:
            manifest = read_manifest(args.dir)
        text, claims = build_all(rc.Context(args.dir, manifest, out.parent),
                                 draw_into=Path(args.dir) / "figures")
        write_atomically(out.parent / CLAIMS, json.dumps(claims, indent=1, ensure_ascii=False) + "\n")
        write_atomically(out, text)
    except (ladder_results.ResultsError, studies.StudyError) as err:
        print(f"report.py: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # checked first; what is left: a full disk, a folder made read-only
        print(f"report.py: error: cannot write {out}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(f"report: {out}")
    return 0


def outputs_problem(args, out):
    """Why the report (and, with --from-results, DIR and its figures) cannot be written where
    the arguments say, '' when it can: checked before anything is written."""
    if args.from_results:
        problem = (pages.out_dir_problem(args.dir, "")
                   or pages.out_dir_problem(Path(args.dir) / "figures", ""))
        if problem:
            return problem
    elif not Path(args.dir).is_dir():
        return ""  # read_manifest says so
    for path in (out, out.parent / CLAIMS):
        if path.exists() and not path.is_file():
            return f"{path} is not a regular file"
    if args.report and not out.parent.is_dir():
        return f"--report {out}: no folder {out.parent}"
    return ""


if __name__ == "__main__":
    sys.exit(main())

"""Write REPORT.md for a reproduction directory: every study's section (the seed's tables and
figures beside ours, claim by claim), the summary of what reproduces, and how the runs went
(device, clocks, commit, time taken).

Usage: python3 plots/report.py DIR
           reads DIR/reproduction.json (written by `ladder reproduce`), the results files it
           names and the figures under DIR/figures; writes DIR/REPORT.md atomically.
       python3 plots/report.py DIR --from-results RESULTS.json... [--scale paper|quick]
           the same from results files written by `ladder run` (and peers/), e.g. the
           committed reference runs: copies them into DIR, draws their figures, writes the
           manifest and the report.
       --report FILE writes the report there instead (figures linked relative to it).

Exit status: 0 when written, 2 when DIR, its manifest or a results file cannot be read.
"""
import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import common
import report_common as rc

# The studies in the report's order, each with the module that writes its section.
STUDIES = ("dtw", "covariance", "twed", "eed", "skyline")
SEEDS = {"dtw": "seed 000: DTW lecture notes", "covariance": "seed 001: covariance lecture notes",
         "twed": "seed 002: Wright 2020, cuTWED", "eed": "seed 003: Kim, Na and Sim 2015",
         "skyline": "seed 004: Min, Han and Lee 2010"}
MANIFEST = "reproduction.json"


def section_of(study, ctx):
    """The study's section, or one that says why it could not be written."""
    try:
        module = __import__(f"report_{study}")
    except ImportError as err:
        return rc.Section(study, f"No report section for {study}: {err}.\n", [])
    try:
        return module.section(ctx)
    except Exception as err:  # a bug in one section must not cost the whole report
        return rc.Section(study, f"**The {study} section failed:** `{type(err).__name__}: "
                                 f"{err}`. Its results files are in this directory.\n", [])


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
    return (f"{device.get('name', '?')} (compute capability {device.get('compute_capability', '?')}, "
            f"{device.get('sm_count', '?')} SMs, driver {device.get('driver_version', '?')}, "
            f"runtime {device.get('runtime_version', '?')})")


def runs_table(ctx):
    """A row per config: what happened to it, its time, clocks and run counts."""
    rows = []
    for c in ctx.manifest.get("configs", []):
        results = ctx.results(c.get("name")) if c.get("results") else None
        device = (results or {}).get("device") or {}
        clocks = "-"
        if device.get("sm_clock_mhz_start") is not None:
            clocks = f"{device.get('sm_clock_mhz_start')} / {device.get('sm_clock_mhz_end')} MHz"
        took = c.get("elapsed_s")
        if took is None and results:
            took = seconds_between(results.get("started_at"), results.get("finished_at"))
        summary = (results or {}).get("summary") or c.get("summary") or {}
        counts = ", ".join(f"{v} {k}" for k, v in sorted(summary.items())) or "-"
        rows.append([c.get("name", "?"), c.get("path", "?"), c.get("state", "?"),
                     fmt_duration(took), clocks, counts])
    return rc.md_table(["config", "file", "state", "time", "SM clock start / end", "runs"], rows)


def peers_table(ctx):
    rows = [[p.get("peer", "?"), p.get("config", "?"), p.get("state", "?"),
             fmt_duration(p.get("elapsed_s")), p.get("why", "")]
            for p in ctx.manifest.get("peers", [])]
    if not rows:
        return "No peer was run.\n"
    return rc.md_table(["peer", "config", "state", "time", "why"], rows)


def failures(ctx):
    """Runs that were attempted and did not pass: a line each."""
    lines = []
    for c in ctx.manifest.get("configs", []):
        for r in ctx.runs(c.get("name")):
            if r.get("status") in ("incorrect", "error"):
                lines.append(f"- `{c.get('name')}` {r.get('study')}/{r.get('variant')} "
                             f"{r.get('point')}: **{r.get('status')}** {r.get('reason', '')}")
    text = "\n".join(lines) + "\n" if lines else "Every run that ran passed validation.\n"
    unchecked = [f"`{c.get('name')}` {r.get('variant')} {r.get('point')}"
                 for c in ctx.manifest.get("configs", []) for r in ctx.runs(c.get("name"))
                 if r.get("status") == "passed" and (r.get("validation") or {}).get("mode") == "off"]
    if unchecked:
        text += ("\nTimed without validation (the config turns it off where the sequential check "
                 f"would take too long; the same step is validated at the smaller points): "
                 f"{'; '.join(unchecked)}.\n")
    return text


def header(ctx):
    m = ctx.manifest
    ladder = m.get("ladder") or {}
    host = m.get("host") or {}
    scale = ("**quick**: the same experiments at reduced sizes, so that they finish in minutes; "
             "absolute times are not comparable with the seeds', gains between steps are"
             if ctx.quick else "**paper**: the seeds' sizes")
    reused = sum(1 for c in m.get("configs", []) if c.get("state") == "reused")
    earlier = sum(c.get("elapsed_s") or 0 for c in m.get("configs", []) if c.get("state") == "reused")
    took = f"{fmt_duration(m.get('elapsed_s'))} for this invocation"
    if reused:
        took += (f"; {reused} results file(s) reused from an earlier invocation of the same "
                 f"commit on the same device (their runs took {fmt_duration(earlier)})")
    return "\n".join([
        "# ladder: reproduction report",
        "",
        "Every study's paper experiments, validated against the sequential baselines, beside "
        "the numbers their seeds publish.",
        "",
        f"- Scale: {scale}.",
        f"- Device: {device_line(m.get('device'))}.",
        f"- Host: {host.get('cpu', '?')}, {host.get('cores', '?')} cores.",
        f"- ladder {ladder.get('version', '?')}, commit `{ladder.get('git_commit', '?')}`, "
        f"{ladder.get('build_type', '?')} build for CUDA architecture {ladder.get('cuda_arch', '?')}.",
        f"- Started {m.get('started_at', '?')}, finished {m.get('finished_at', '?')}; time taken: {took}.",
        "",
    ])


def summary(sections):
    claims = [c for s in sections for c in s.claims]
    counts = {v: sum(1 for c in claims if c.verdict == v) for v in rc.VERDICTS}
    # the verdicts are worded for one claim; the count reads as a plural
    plural = {rc.REPRODUCES: "reproduce", rc.DOES_NOT: "do not reproduce"}
    text = ", ".join(f"{n} {plural.get(v, v) if n > 1 else v}" for v, n in counts.items() if n)
    return ("## Summary\n\n" + f"{len(claims)} claims: {text or 'none'}.\n\n" +
            rc.md_table(["study", "target", "seed's claim", "verdict", "why"],
                        [[s.title, c.target, c.claim, c.verdict, c.why]
                         for s in sections for c in s.claims]))


def build(ctx):
    sections = [section_of(study, ctx) for study in STUDIES]
    parts = [header(ctx), summary(sections)]
    for study, s in zip(STUDIES, sections):
        parts.append(f"## {s.title} ({SEEDS[study]})\n\n{s.body}")
        if s.claims:
            parts.append(f"### Claims\n\n{rc.claims_table(s.claims)}")
    parts += ["## Runs\n\n" + runs_table(ctx), "## Peers\n\n" + peers_table(ctx),
              "## Runs that did not pass\n\n" + failures(ctx)]
    return "\n".join(parts)


def write_atomically(path, text):
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_manifest(out_dir):
    path = Path(out_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise common.ResultsError(f"{path}: cannot read the reproduction manifest: {err}") from err
    if not isinstance(manifest, dict):
        raise common.ResultsError(f"{path}: not a reproduction manifest")
    return manifest


def manifest_from_results(out_dir, files, scale):
    """Copy results files into out_dir, draw their figures and describe them as `ladder
    reproduce` would (each ours file as a config, each peer-only file as a peer run)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    configs, peers, first = [], [], None
    for f in files:
        results = common.load(f)
        name = (results.get("config") or {}).get("name", Path(f).stem)
        target = out_dir / Path(f).name
        if Path(f).resolve() != target.resolve():
            shutil.copyfile(f, target)
        study = next((r.get("study") for r in results.get("runs", [])), "?")
        if common.only_peers(results):
            peer = next((r.get("variant") for r in results["runs"]), "peer")
            peers.append({"study": study, "peer": peer, "config": name, "results": target.name,
                          "state": "ran", "why": ""})
        else:
            first = first or results
            configs.append({"study": study, "name": name, "path": results.get("config_path", ""),
                            "results": target.name, "state": "ran",
                            "elapsed_s": seconds_between(results.get("started_at"),
                                                         results.get("finished_at"))})
    figures_dir = out_dir / "figures"
    draw = [sys.executable, str(Path(__file__).with_name("draw_all.py"))]
    draw += [str(out_dir / Path(f).name) for f in files] + ["--out-dir", str(figures_dir)]
    subprocess.run(draw, check=False, stdout=subprocess.DEVNULL)
    figures = sorted(str(p.relative_to(out_dir)) for p in figures_dir.glob("*.png"))
    first = first or {}
    return {"scale": scale, "ladder": first.get("ladder"), "device": first.get("device"),
            "host": first.get("host"), "started_at": first.get("started_at"),
            "finished_at": first.get("finished_at"), "elapsed_s": None,
            "configs": configs, "peers": peers, "figures": figures}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--from-results", nargs="+", metavar="RESULTS.json")
    parser.add_argument("--scale", choices=("paper", "quick"), default="paper")
    parser.add_argument("--report", metavar="FILE", help="where to write REPORT.md")
    args = parser.parse_args(argv)
    try:
        if args.from_results:
            manifest = manifest_from_results(args.dir, args.from_results, args.scale)
            write_atomically(Path(args.dir) / MANIFEST, json.dumps(manifest, indent=2) + "\n")
        else:
            manifest = read_manifest(args.dir)
    except common.ResultsError as err:
        print(f"report.py: error: {err}", file=sys.stderr)
        return 2
    out = Path(args.report) if args.report else Path(args.dir) / "REPORT.md"
    write_atomically(out, build(rc.Context(args.dir, manifest, out.parent)))
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

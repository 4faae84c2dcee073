#!/usr/bin/env python3
"""A study's whole path through the real binary and the generic plots.

    study_smoke.py LADDER SMOKE_CONFIG STUDY PLOTS_DIR SCRATCH_ROOT

- `ladder list --json` names the study;
- `ladder run SMOKE_CONFIG --out res.json` exits 0, every run passed (or skipped for want of
  a GPU), the results name the study's role, label, metric and timing mode;
- `python3 -m plots.draw_all res.json` (from PLOTS_DIR's parent) draws `<study>_ladder_*.png` from the results alone.

A study folder that holds its own Python (figure modules, a report section: plots/README.md)
is put on LADDER_STUDY_PATH, as a study outside plots/ brings its Python: then every figure
the config names is drawn (each file named after its figure), and `python3 -m plots.report
--from-results res.json` writes a report with the study's section, titled as it declares.
"""
import glob
import json
import os
import sys
import tempfile

from clitest import results, run_text as run


def study_env(config):
    """The environment for the plot scripts: the study's folder on LADDER_STUDY_PATH when it
    brings Python of its own."""
    env = dict(os.environ)
    folder = os.path.dirname(os.path.abspath(config))
    if glob.glob(os.path.join(folder, "*.py")):
        env["LADDER_STUDY_PATH"] = folder
    return env, "LADDER_STUDY_PATH" in env


def drawn_problems(config, study, plots, out, work):
    """Every figure the config names drawn, and the study's report section written."""
    problems = []
    env, own_python = study_env(config)
    figures = os.path.join(work, "figures")
    root = os.path.dirname(os.path.abspath(plots))  # where `python3 -m plots.X` finds them
    drawn = run([sys.executable, "-m", "plots.draw_all", out, "--out-dir", figures], cwd=root,
                env=env)
    if drawn.returncode != 0:
        return ["draw_all exited %d" % drawn.returncode]
    if not glob.glob(os.path.join(figures, "%s_ladder_*.png" % study)):
        problems.append("no %s_ladder_*.png drawn" % study)
    with open(config, encoding="utf-8") as f:
        named = json.load(f).get("figures", [])
    for name in named:
        if name != "ladder" and not glob.glob(os.path.join(figures, name + "*.png")):
            problems.append("figure %s named by the config was not drawn" % name)
    if not own_python:
        return problems
    report = os.path.join(work, "report")
    written = run([sys.executable, "-m", "plots.report", report, "--from-results", out],
                  cwd=root, env=env)
    if written.returncode != 0:
        return problems + ["report.py exited %d" % written.returncode]
    os.environ["LADDER_STUDY_PATH"] = env["LADDER_STUDY_PATH"]
    from plots import studies  # the plots' own discovery, to learn the title the study declares
    declared = [getattr(m, "TITLE", None) for m in studies.modules(study) if hasattr(m, "section")]
    with open(os.path.join(report, "REPORT.md"), encoding="utf-8") as f:
        text = f.read()
    for title in declared:
        if "## " + title not in text:
            problems.append("REPORT.md has no section '%s'" % title)
    return problems


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: study_smoke.py LADDER SMOKE_CONFIG STUDY PLOTS_DIR SCRATCH_ROOT")
    ladder, config, study, plots, scratch = sys.argv[1:]
    os.makedirs(scratch, exist_ok=True)
    problems = []
    with tempfile.TemporaryDirectory(prefix="study.", dir=scratch) as work:
        listed = run([ladder, "list", "--json"])
        names = [s["name"] for s in json.loads(listed.stdout)["studies"]] if listed.returncode == 0 else []
        if study not in names:
            problems.append("list --json does not name %s" % study)
        out = os.path.join(work, "res.json")
        proc = run([ladder, "run", config, "--out", out, "--quiet"])
        if proc.returncode != 0:
            problems.append("run exited %d" % proc.returncode)
        else:
            for r in results(out).runs:
                ok = r.passed or (r.status == "skipped" and r.backend == "gpu")
                if not ok:
                    problems.append("%s %s: %s %s" % (r.id, r.point, r.status, r.reason))
                # As written: the reader's accessors would fill in a missing role, label or metric.
                for field in ("role", "label", "precision"):
                    if not r.raw.get(field):
                        problems.append("run of %s has no %s" % (r.variant, field))
                if r.timing:  # timed runs name their metric and how they were timed
                    if not r.raw.get("metric") or r.raw["metric"] not in r.metrics:
                        problems.append("timed run of %s has no metric" % r.variant)
                    if r.timing.get("mode") not in ("hot", "cold"):
                        problems.append("run of %s has no timing mode" % r.variant)
            problems += drawn_problems(config, study, plots, out, work)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

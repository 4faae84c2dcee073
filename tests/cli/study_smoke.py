#!/usr/bin/env python3
"""A study's whole path through the real binary and the generic plots.

    study_smoke.py LADDER SMOKE_CONFIG STUDY PLOTS_DIR SCRATCH_ROOT

- `ladder list --json` names the study;
- `ladder run SMOKE_CONFIG --out res.json` exits 0, every run passed (or skipped for want of
  a GPU), the results name the study's role, label, metric and timing mode;
- `plots/draw_all.py res.json` draws `<study>_ladder_*.png` from the results alone.
"""
import glob
import json
import os
import sys
import tempfile

from clitest import run_text as run


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
            runs = json.load(open(out))["runs"]
            for r in runs:
                ok = r["status"] == "passed" or (r["status"] == "skipped" and r["backend"] == "gpu")
                if not ok:
                    problems.append("%s/%s %s: %s %s" % (r["study"], r["variant"], r["point"],
                                                         r["status"], r["reason"]))
                for field in ("role", "label", "precision"):
                    if not r.get(field):
                        problems.append("run of %s has no %s" % (r["variant"], field))
                if r.get("timing"):  # timed runs name their metric and how they were timed
                    if not r.get("metric") or r["metric"] not in r.get("metrics", {}):
                        problems.append("timed run of %s has no metric" % r["variant"])
                    if r["timing"].get("mode") not in ("hot", "cold"):
                        problems.append("run of %s has no timing mode" % r["variant"])
            figures = os.path.join(work, "figures")
            drawn = run([sys.executable, os.path.join(plots, "draw_all.py"), out, "--out-dir", figures])
            if drawn.returncode != 0:
                problems.append("draw_all exited %d" % drawn.returncode)
            elif not glob.glob(os.path.join(figures, "%s_ladder_*.png" % study)):
                problems.append("no %s_ladder_*.png drawn" % study)
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

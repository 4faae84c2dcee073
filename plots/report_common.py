"""What every study's section of a reproduction report (REPORT.md, written by plots/report.py
for `ladder reproduce`) shares: the reproduction directory as a context, claims and their
verdicts, Markdown tables and number formats.

A study's section lives in plots/report_<study>.py as `section(ctx) -> Section`. It reads its
runs through `ctx` (never the file system), compares each number the seed gives with ours,
and says per claim whether it reproduces. Sections import this module, common.py and their
study's figure module (to read the runs as its figures do), never each other.
"""
import dataclasses
import json
import math
import os
import re
from pathlib import Path

import common

# A claim's verdict: the words the report's summary counts.
REPRODUCES = "reproduces"
PARTLY = "partly"
DOES_NOT = "does not reproduce"
NOT_MEASURED = "not measured"
VERDICTS = (REPRODUCES, PARTLY, DOES_NOT, NOT_MEASURED)


@dataclasses.dataclass
class Claim:
    """One thing a seed states, beside what we measured.
    target: which of the report's targets it belongs to ('DTW ladder', 'TWED Table 2', ...);
    claim: the seed's statement in a few words; seed, ours: the two values as text;
    verdict: one of VERDICTS; why: one line (why it does not reproduce, or what differs)."""
    target: str
    claim: str
    seed: str
    ours: str
    verdict: str
    why: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r} is not one of {VERDICTS}")


@dataclasses.dataclass
class Section:
    """A study's part of the report: a '## title' heading, its Markdown body (tables,
    figures, notes) and its claims (listed in the report's summary and at the section's end)."""
    title: str
    body: str
    claims: list


class Context:
    """The reproduction directory as the sections see it.

    manifest: reproduction.json as `ladder reproduce` wrote it (scale, device, configs, peers).
    """

    def __init__(self, out_dir, manifest, report_dir=None):
        self.dir = Path(out_dir)
        self.manifest = manifest
        # Figures are linked relative to where REPORT.md is written (out_dir by default).
        self.report_dir = Path(report_dir) if report_dir is not None else self.dir
        self.scale = manifest.get("scale", "paper")
        self._loaded = {}

    @property
    def quick(self):
        return self.scale == "quick"

    def _load(self, name):
        if name not in self._loaded:
            path = self.dir / name
            try:
                self._loaded[name] = common.load(path)
            except common.ResultsError:
                self._loaded[name] = None
        return self._loaded[name]

    def results(self, config_name):
        """Our results of a config (by its name, e.g. 'dtw-paper'), None when it did not run."""
        for c in self.manifest.get("configs", []):
            if c.get("name") == config_name and c.get("results"):
                return self._load(c["results"])
        return None

    def runs(self, config_name, sweep=None, variant=None, passed_only=False):
        """Our runs of a config, optionally of one sweep label and one variant name."""
        results = self.results(config_name)
        out = []
        for r in (results or {}).get("runs", []):
            if sweep is not None and r.get("sweep") != sweep:
                continue
            if variant is not None and r.get("variant") != variant:
                continue
            if passed_only and r.get("status") != "passed":
                continue
            out.append(r)
        return out

    def peer_results(self, config_name):
        """The peers' results files run on a config: [(peer name, results)]."""
        out = []
        for p in self.manifest.get("peers", []):
            if p.get("config") == config_name and p.get("results"):
                results = self._load(p["results"])
                if results is not None:
                    out.append((p.get("peer", "?"), results))
        return out

    def peer_states(self, study):
        """[(peer, state, why)] of a study's peers: ran, reused, not installed, failed."""
        return [(p.get("peer", "?"), p.get("state", "?"), p.get("why", ""))
                for p in self.manifest.get("peers", []) if p.get("study") == study]

    def figures(self, prefix):
        """Figures (paths relative to REPORT.md) whose file name starts with `prefix`."""
        return sorted(os.path.relpath(self.dir / f, self.report_dir)
                      for f in self.manifest.get("figures", []) if Path(f).name.startswith(prefix))


# ---- reading runs ---------------------------------------------------------------------------

def seconds(run):
    """Median seconds of a passed, timed run; None otherwise."""
    if not run or run.get("status") != "passed":
        return None
    ms = common.median_ms(run)
    return ms / 1000 if ms else None








def not_run_why(run):
    """'skipped: no CUDA device', 'unsupported: ...', 'not in the results' for a run without
    a time we can use."""
    if run is None:
        return "not in the results"
    status = run.get("status", "?")
    reason = run.get("reason") or ""
    return f"{status}: {reason}" if reason else status


# ---- numbers as text ------------------------------------------------------------------------

def fmt_seconds(s):
    """'2.47 ms', '1.23 s', '-' for None."""
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.3g} us"
    if s < 1:
        return f"{s * 1e3:.3g} ms"
    return f"{s:,.0f} s" if s >= 1000 else f"{s:.3g} s"


def fmt_ratio(x):
    """'12.3x', '0.84x', '2,839x', '-' for None."""
    if x is None or not math.isfinite(x):
        return "-"
    return f"{x:,.0f}x" if x >= 1000 else f"{x:.3g}x"




def ratio(a, b):
    """a / b when both are positive numbers, else None."""
    return a / b if a and b and a > 0 and b > 0 else None




# ---- Markdown -------------------------------------------------------------------------------

def md_escape(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(header, rows):
    """A Markdown table; cells are text (numbers formatted by the caller)."""
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def md_figure(path, caption):
    return f"![{md_escape(caption)}]({path})\n\n*{caption}*\n"


MAX_IMAGES = 8  # more figures of one kind than this are listed as links


def natural_key(text):
    """'n1024' before 'n131072': digits compared as numbers."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def md_figures(ctx, prefix, caption):
    """The figures whose names start with `prefix`, in the numbers' order: images, or links
    when there are more than MAX_IMAGES; several are told apart by the parts of their names
    that not all of them share. '' when there is none."""
    paths = sorted(ctx.figures(prefix), key=natural_key)
    if not paths:
        return ""
    if len(paths) == 1:
        return md_figure(paths[0], caption)
    parts = [Path(p).stem[len(prefix):].strip("_").split("_") for p in paths]
    shared = set.intersection(*map(set, parts))
    names = [", ".join(t for t in name if t not in shared) for name in parts]
    if len(paths) <= MAX_IMAGES:
        return "\n".join(md_figure(p, f"{caption}: {n}") for n, p in zip(names, paths))
    links = ", ".join(f"[{n}]({p})" for n, p in zip(names, paths))
    return f"{caption} ({len(paths)} figures): {links}\n"


def md_figure_groups(ctx, groups, what):
    """md_figures of each (prefix, caption) in turn; a line saying so when none was drawn."""
    text = "\n".join(t for t in (md_figures(ctx, p, c) for p, c in groups) if t)
    return text or f"No {what} figure was drawn.\n"


def claims_table(claims):
    return md_table(["target", "seed's claim", "seed", "ours", "verdict", "why"],
                    [[c.target, c.claim, c.seed, c.ours, c.verdict, c.why] for c in claims])


def verdict_of_ratio(ours, seed, within):
    """REPRODUCES when ours / seed lies in [1/within, within], DOES_NOT outside, NOT_MEASURED
    when either is missing."""
    r = ratio(ours, seed)
    if r is None:
        return NOT_MEASURED
    return REPRODUCES if 1 / within <= r <= within else DOES_NOT


def read_json(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))

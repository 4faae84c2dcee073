"""What every study's section of REPORT.md shares: the reproduction directory as a context,
claims and their verdicts, Markdown tables and number formats. A section reads its runs
through the context, never the file system."""
import dataclasses
import math
import os
import re
from pathlib import Path

import ladder_results

# A claim's verdict: the words the report's summary counts.
REPRODUCES = "reproduces"
PARTLY = "partly"
DOES_NOT = "does not reproduce"
NOT_COMPARABLE = "not comparable"
NOT_MEASURED = "not measured"
VERDICTS = (REPRODUCES, PARTLY, DOES_NOT, NOT_COMPARABLE, NOT_MEASURED)

# How every claim is judged, stated once at the top of the report; the studies' own rules
# give only their thresholds.
HOW_JUDGED = f"""\
How claims are judged. Each claim of a seed gets one verdict:

- **{REPRODUCES}**: our number agrees with the seed's within the study's tolerance (stated in
  its section), at every point compared.
- **{PARTLY}**: it agrees at some points, or the effect has the seed's direction but not its
  size.
- **{DOES_NOT}**: a gain between two steps (or another claim that compares our own runs
  with each other) that does not hold here; the hardware alone does not explain it.
- **{NOT_COMPARABLE}**: an absolute time or throughput that the seed measured on other hardware
  than ours. It is not expected to match, so it is not judged; ours and the ratio to the
  seed's are still shown.
- **{NOT_MEASURED}**: we have no number to judge (the step did not run, or the quick scale's
  smaller sizes, at which absolute times are not judged).
"""


@dataclasses.dataclass
class Claim:
    """One thing a seed states ('claim', a few words), for one of the report's targets ('TWED
    Table 2'): its value and ours as text, the verdict, and why in one line."""
    target: str
    claim: str
    seed: str
    ours: str
    verdict: str
    why: str = ""
    # The claim as numbers, for the summary figure, when it states a gain: the seed's factor
    # and ours (one per point compared), each > 1 where the claimed direction holds.
    seed_x: float = None
    ours_x: tuple = ()

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r} is not one of {VERDICTS}")


@dataclasses.dataclass
class Section:
    """A study's part of the report: its Markdown body and its claims."""
    title: str
    body: str
    claims: list


class Context:
    """The reproduction directory as the sections see it; manifest: its reproduction.json."""

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
            try:
                self._loaded[name] = ladder_results.load(self.dir / name)
            except ladder_results.ResultsError:
                self._loaded[name] = None
        return self._loaded[name]

    def results_file(self, file_name):
        """The ResultsFile of that name in the directory, None when it cannot be read."""
        return self._load(file_name)

    def results(self, config_name):
        """Our ResultsFile of a config (by name, e.g. 'dtw-paper'), None when it did not run."""
        for c in self.manifest.get("configs", []):
            if c.get("name") == config_name and c.get("results"):
                return self._load(c["results"])
        return None

    def runs(self, config_name, sweep=None):
        """Our runs of a config, optionally of one sweep label."""
        results = self.results(config_name)
        return [r for r in (results.runs if results else []) if sweep in (None, r.sweep)]

    def peer_results(self, config_name):
        """The ResultsFiles of the peers run on a config."""
        loaded = [self._load(p["results"]) for p in self.manifest.get("peers", [])
                  if p.get("config") == config_name and p.get("results")]
        return [results for results in loaded if results is not None]

    def peer_states(self, study):
        """[(peer, state, why)] of a study's peers: ran, reused, not installed, failed."""
        return [(p.get("peer", "?"), p.get("state", "?"), p.get("why", ""))
                for p in self.manifest.get("peers", []) if p.get("study") == study]

    def figures(self, prefix):
        """Figures (paths relative to REPORT.md) whose file name starts with `prefix`: the PNGs,
        which the report shows (the manifest lists each figure's PDF beside it)."""
        return sorted(os.path.relpath(self.dir / f, self.report_dir)
                      for f in self.manifest.get("figures", [])
                      if Path(f).name.startswith(prefix) and f.endswith(".png"))


def not_run_why(run):
    """Why a run has no time we can use: 'skipped: no CUDA device', 'not in the results'."""
    if run is None:
        return "not in the results"
    status = run.status or "?"
    return f"{status}: {run.reason}" if run.reason else status


def time_text(run, fmt=lambda ms: fmt_seconds(ms / 1000)):
    """'1.64 s', '1.64 s (incorrect)' (the time as `fmt` writes ms), or why there is none."""
    if run is None or run.median_ms is None:
        return not_run_why(run)
    return fmt(run.median_ms) + ("" if run.passed else f" ({run.status})")


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


def md_figures(ctx, prefix, caption):
    """The figures whose names start with `prefix`, in the numbers' order: images, or links
    when there are more than MAX_IMAGES; several are told apart by the parts of their names
    that not all of them share. '' when there is none."""
    # 'n1024' before 'n131072': digits compared as numbers
    paths = sorted(ctx.figures(prefix), key=lambda text: [
        int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)])
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


def md_figure_groups(ctx, groups, none="No figure was drawn.\n"):
    """md_figures of each (prefix, caption) in turn; `none` when none was drawn."""
    return "\n".join(t for t in (md_figures(ctx, p, c) for p, c in groups) if t) or none


def verdict_of_count(held, total):
    """A statement checked at several points: it reproduces where it holds at every one."""
    if not total:
        return NOT_MEASURED
    return REPRODUCES if held == total else PARTLY if held else DOES_NOT


def why_of(verdict, known, *more):
    """A claim's one line: `known`, why it does not reproduce here, where it does not (fully),
    then each of `more` (what was not measured, the scale) that says anything."""
    return "; ".join(p for p in (known if verdict in (PARTLY, DOES_NOT) else "", *more) if p)


def verdict_all(oks):
    """verdict_of_count of a list of checks."""
    return verdict_of_count(sum(oks), len(oks))


def unmeasured(title, config, rules, claims):
    """The section of a study whose config has no results: its rules, every claim unmeasured."""
    why = f"config {config} has no results in this directory"
    text = f"Config `{config}` has no results in this directory: nothing was measured.\n"
    return Section(title, text + "\n" + rules, [dataclasses.replace(c, why=why) for c in claims])


_VENDOR = re.compile(r"\((r|tm)\)|\b(nvidia|geforce|tesla|intel|amd|cpu|processor)\b")


def hardware_key(name):
    """A device's or CPU's name without vendor words, lower case: 'NVIDIA TITAN X (Pascal)',
    'Titan X (Pascal)' -> 'titan x (pascal)'."""
    return " ".join(_VENDOR.sub(" ", str(name or "").lower()).split())


def same_hardware(ours, seed):
    """Whether our device (or CPU) is the seed's: the same name once vendor words are dropped,
    or the shorter a model number within the longer ('Tesla P100' in 'Tesla P100-PCIE-16GB');
    a name without a model number ('Xeon') matches only itself."""
    a, b = sorted((hardware_key(ours), hardware_key(seed)), key=len)
    return bool(a) and (a == b or (any(ch.isdigit() for ch in a) and a in b))


def absolute_verdict(verdict, ours_hardware, seed_hardware):
    """The one rule for a claim on an absolute time or throughput: judged (`verdict`, as the
    study's tolerance gives it) only on the seed's hardware; on other hardware
    NOT_COMPARABLE. NOT_MEASURED stays."""
    if verdict == NOT_MEASURED or same_hardware(ours_hardware, seed_hardware):
        return verdict
    return NOT_COMPARABLE


def other_hardware(ours_hardware, seed_hardware):
    """The why of a NOT_COMPARABLE claim: 'other hardware: the seed's Titan X (Pascal), our
    NVIDIA H100 80GB HBM3'."""
    return f"other hardware: the seed's {seed_hardware}, our {ours_hardware or 'none'}"


def verdict_of_ratio(ours, seed, within):
    """Whether ours / seed lies in [1/within, within]; NOT_MEASURED when either is missing."""
    r = ratio(ours, seed)
    if r is None:
        return NOT_MEASURED
    return REPRODUCES if 1 / within <= r <= within else DOES_NOT

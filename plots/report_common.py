"""What every study's section of REPORT.md shares: the reproduction directory as a context,
claims and their verdicts, Markdown tables and number formats. A section reads its runs
through the context, never the file system."""
import dataclasses
import itertools
import math
import os
import re
from pathlib import Path

from . import selection
from . import results as ladder_results

# A claim's verdict: the words the report's summary counts.
REPRODUCES = "reproduces"
PARTLY = "partly"
DOES_NOT = "does not reproduce"
INCONCLUSIVE = "inconclusive"
NOT_COMPARABLE = "not comparable"
NOT_MEASURED = "not measured"
VERDICTS = (REPRODUCES, PARTLY, DOES_NOT, INCONCLUSIVE, NOT_COMPARABLE, NOT_MEASURED)
# Where a claim comes from: the seed, or a check ladder adds (reported apart, never counted).
FROM_SEED, FROM_LADDER = "seed", "ladder"
SOURCES = (FROM_SEED, FROM_LADDER)

# One rule per kind of claim, stated once at the top of the report with its thresholds and
# applied the same way at both scales; a study names the kind of each claim and what it
# measures, never a threshold of its own.
NOISE = 1.05   # a ratio of times under this is no gain: a run's spread from process to process
FACTOR = 2.0   # a gain agrees with the seed's when its excess over 1 is within this factor
SAME = 1.5     # "about the same": the slower at most this many times the faster

# What one point says of a claim: it holds; only its direction holds (a gain, but not the
# seed's size); or nothing of it holds.
HOLDS, GAIN, NONE = "holds", "gain", "none"


def _range(seed):
    """(low, high) of a seed's number or range ((16, 63) for '~16-63x')."""
    return tuple(seed) if isinstance(seed, (tuple, list)) else (seed, seed)


def factor_band(seed):
    """The ratios that agree with a seed's factor X (or range X-Y): an excess over 1 within
    FACTOR of the seed's, 1 + (X-1)/FACTOR to 1 + FACTOR(Y-1)."""
    lo, hi = _range(seed)
    return 1 + (lo - 1) / FACTOR, 1 + FACTOR * (hi - 1)


@dataclasses.dataclass(frozen=True)
class Rule:
    """A kind of claim: what claims are of it, how one point is judged (`test`: value, seed ->
    HOLDS, GAIN or NONE), and the thresholds where that changes (`cuts`: seed -> tuple)."""
    kind: str
    claims: str
    per_point: str
    test: object
    cuts: object


def _gain_or_none(v):
    return GAIN if v >= NOISE else NONE


RULES = {r.kind: r for r in (
    Rule("factor", "\"A is about X (or X-Y) times faster than B\": a gain between two steps, a "
         "speed-up of a GPU step over a CPU one, a time saved (a percentage becomes the ratio of "
         "times it means)",
         f"holds when our ratio of times lies in 1 + (X-1)/{FACTOR:g} to 1 + {FACTOR:g}(Y-1) "
         f"(its excess over 1 within {FACTOR:g}x of the seed's); a gain alone when it is at least "
         f"{NOISE:g}x but outside that band",
         lambda v, seed: HOLDS if factor_band(seed)[0] <= v <= factor_band(seed)[1]
         else _gain_or_none(v),
         lambda seed: (NOISE, *factor_band(seed))),
    Rule("at least", "\"more than X times\", \"at least X\"",
         f"holds when our ratio is at least X; a gain alone when at least {NOISE:g}x but under X",
         lambda v, seed: HOLDS if v >= _range(seed)[0] else _gain_or_none(v),
         lambda seed: (NOISE, _range(seed)[0])),
    Rule("direction", "\"A is faster (slower) than B\", \"grows\", with no factor",
         f"holds when our ratio, taken the way the seed says it goes, is at least {NOISE:g}x",
         lambda v, seed: HOLDS if v >= NOISE else NONE,
         lambda seed: (NOISE,)),
    Rule("no slower", "\"A is no slower than B\"",
         f"holds when A's time over B's is under {NOISE:g}x",
         lambda v, seed: HOLDS if v < NOISE else NONE,
         lambda seed: (NOISE,)),
    Rule("same", "\"about the same\", \"overlapping\", \"marginal\"",
         f"holds when the slower is at most {SAME:g}x the faster (our ratio in 1/{SAME:g} to {SAME:g})",
         lambda v, seed: HOLDS if 1 / SAME <= v <= SAME else NONE,
         lambda seed: (1 / SAME, SAME)),
    Rule("at most", "\"about X\" of an error or a difference",
         f"holds when ours is at most {FACTOR:g}x the seed's X",
         lambda v, seed: HOLDS if v <= FACTOR * _range(seed)[1] else NONE,
         lambda seed: (FACTOR * _range(seed)[1],)),
    Rule("absolute", "a time or a throughput",
         f"judged only on the seed's own hardware (else {'{NOT_COMPARABLE}'}, saying what differs) "
         f"and at the seed's size; holds when ours is within {FACTOR:g}x of the seed's either way",
         lambda v, seed: HOLDS if 1 / FACTOR <= v <= FACTOR else NONE,
         lambda seed: (1 / FACTOR, FACTOR)),
    Rule("statement", "a fact with no number (\"shared memory runs out for long series\")",
         "holds where our runs show it",
         lambda v, seed: HOLDS if v else NONE,
         lambda seed: ()),
)}


def verdict_of_points(states):
    """A claim's verdict from its points' states: every point HOLDS, reproduces; none has even
    a GAIN, does not; else partly. No point, not measured."""
    if not states:
        return NOT_MEASURED
    if all(s == HOLDS for s in states):
        return REPRODUCES
    return PARTLY if any(s in (HOLDS, GAIN) for s in states) else DOES_NOT


@dataclasses.dataclass(frozen=True)
class Judgement:
    """A rule's verdict on a claim's values: the kind, its thresholds, the verdict, and what
    the numbers say beside it (an interval crossing a threshold, a number rounded onto one)."""
    rule: str
    thresholds: tuple
    verdict: str
    note: str = ""


def judge(kind, values, seed=None, fmt=None):
    """RULES[kind] applied to our values at each point compared (Ratios, whose intervals are
    judged whole: decide), against the seed's number or range."""
    rule = RULES[kind]
    cuts = tuple(rule.cuts(seed))
    values = [v for v in values if v is not None]
    verdict, note = decide(lambda xs: verdict_of_points([rule.test(x, seed) for x in xs]),
                           values, cuts, fmt or fmt_ratio)
    return Judgement(kind, cuts, verdict, note)


def judge_absolute(values, ours_hardware, seed_hardware, fmt=None):
    """The absolute rule: our values over the seed's, judged only on the seed's hardware;
    elsewhere NOT_COMPARABLE, saying what differs."""
    if values and not same_hardware(ours_hardware, seed_hardware):
        return Judgement("absolute", RULES["absolute"].cuts(None), NOT_COMPARABLE,
                         other_hardware(ours_hardware, seed_hardware))
    return judge("absolute", values, fmt=fmt)


def rules_table():
    """The rules as the report prints them, one row per kind."""
    rows = [(f"**{r.kind}**", r.claims, r.per_point.replace("{NOT_COMPARABLE}", NOT_COMPARABLE))
            for r in RULES.values()]
    return md_table(("kind", "claims of this kind", "one point"), rows)


HOW_JUDGED_HEAD = f"""\
How claims are judged. Each claim of a seed is of one kind below, and each kind has one rule,
the same for every study and at both scales. A claim is judged at every point the seed states it
for (each size, each d): it **{REPRODUCES}** when it holds at every point, is **{PARTLY}**
reproduced when it holds, or keeps only its direction, at some, and **{DOES_NOT}** when nothing
of it holds at any; the why then gives the measured reason (Nsight Compute's counters at the
claim's point, the seed's kernel form against ours, or a hardware fact with its figure).
**{INCONCLUSIVE}**: the 95% interval of one of our ratios crosses a threshold, and the verdict
would differ on its two sides; the why says which ('interval crosses the threshold (1.02x-1.09x
vs 1.05x)'). **{NOT_COMPARABLE}**: an absolute time or throughput the seed measured on other
hardware than ours; ours and the ratio to the seed's are still shown, with what differs.
**{NOT_MEASURED}**: we have no number at the claim's point (the step did not run, or the quick
scale's smaller sizes, where the seed's sizes are not run).

"""

HOW_JUDGED_TAIL = f"""
Every ratio of our times (a gain, a speedup, ours over the seed's) is shown with its interval.
Where both runs ran several processes (a K-process results file) it is the 95% confidence
interval of the ratio of the geometric means of their process medians (Welch's t on the log
scale): '1.52x (95% CI 1.44x-1.61x)'. Where a run ran one process it is the range its samples
give (one run's fastest sample over the other's slowest and back), marked 'sample range, not a
confidence interval': the samples of one process do not say where another process would land.
A rule is applied to the whole interval. A number is never printed rounded onto a threshold
it lies on the other side of: the why gives its digits ('1.048x is under the 1.05x threshold').
"""


def how_judged():
    """The report's statement of the rules, once."""
    return HOW_JUDGED_HEAD + rules_table() + HOW_JUDGED_TAIL


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
    # Where the claim comes from: the seed's own words, verbatim and in the seed's language
    # (`quote`), and where in it they stand (`place`: a section, figure, table or page). A
    # check ladder makes that the seed does not state has source FROM_LADDER: it is reported apart
    # and never counted among the seed's claims.
    quote: str = ""
    place: str = ""
    source: str = FROM_SEED
    # The kind of claim (a key of RULES) and the thresholds its rule compared ours with.
    rule: str = ""
    thresholds: tuple = ()

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r} is not one of {VERDICTS}")
        if self.source not in SOURCES:
            raise ValueError(f"source {self.source!r} is not one of {SOURCES}")
        if self.rule and self.rule not in RULES:
            raise ValueError(f"rule {self.rule!r} is not one of {tuple(RULES)}")


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

    def peer_entries(self, study):
        """The manifest's entries of a study's peers, one per peer and config."""
        return [p for p in self.manifest.get("peers", []) if p.get("study") == study]

    def peer_states(self, study):
        """[(peer, state, why)] of a study's peers: ran, reused, not installed, failed."""
        return [(p.get("peer", "?"), p.get("state", "?"), p.get("why", ""))
                for p in self.peer_entries(study)]

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

def fmt_seconds(s, digits=3):
    """'2.47 ms', '1.23 s', '-' for None; `digits` significant digits."""
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.{digits}g} us"
    if s < 1:
        return f"{s * 1e3:.{digits}g} ms"
    return f"{s:,.0f} s" if s >= 1000 else f"{s:.{digits}g} s"


def fmt_ratio(x, digits=3):
    """'12.3x', '0.84x', '2,839x', '-' for None; `digits` significant digits."""
    if x is None or not math.isfinite(x):
        return "-"
    return f"{x:,.0f}x" if x >= 1000 else f"{x:.{digits}g}x"


def ratio(a, b):
    """a / b when both are positive numbers, else None."""
    return a / b if a and b and a > 0 and b > 0 else None


# ---- ratios with their intervals, and verdicts on them ----------------------------------------

class Ratio(float):
    """A ratio of our times (a gain, a speedup, ours over the seed's) with its 95% interval,
    a ladder_results.Interval (or None). It is the float in every rule and sum, so a study's
    rule reads it as before; decide() judges it with its interval."""

    def __new__(cls, value, interval=None):
        measured = super().__new__(cls, value)
        measured.interval = interval
        return measured


def reciprocal(x):
    """1 / x of a Ratio, its interval turned over with it (a plain number: 1 / x)."""
    interval = getattr(x, "interval", None)
    return Ratio(1 / x, interval and interval.like(1 / interval[1], 1 / interval[0]))


def run_ratio(num, den, scale=1.0):
    """num's median time over den's (Runs or None), times `scale`, as a Ratio with its
    interval (ladder_results.ratio_interval); None when either has no time (selection.seconds)."""
    value = ratio(selection.seconds(num), selection.seconds(den))
    if value is None:
        return None
    interval = ladder_results.ratio_interval(num, den)
    return Ratio(value * scale, interval and interval.like(interval[0] * scale,
                                                           interval[1] * scale))


def run_seconds(run, scale=1.0):
    """A run's median time in seconds (selection.seconds) times `scale`, as a Ratio with the
    run's interval; None when it has none."""
    seconds, interval = selection.seconds(run), run.interval_ms if run is not None else None
    if seconds is None:
        return None
    return Ratio(seconds * scale, interval and interval.like(interval[0] * scale / 1000,
                                                             interval[1] * scale / 1000))


def spread(x):
    """The (lo, hi) of a Ratio's interval where it has a spread, else None."""
    interval = getattr(x, "interval", None)
    return tuple(interval) if interval and interval[0] < interval[1] else None


def fmt_interval(lo, hi, fmt=fmt_ratio):
    """'1.44x-1.60x': the ends as `fmt` writes them (it takes digits=), with the digits
    that tell them apart (3 to 6)."""
    digits = next((d for d in range(3, 7) if fmt(lo, digits=d) != fmt(hi, digits=d)), 6)
    return f"{fmt(lo, digits=digits)}-{fmt(hi, digits=digits)}"


def fmt_measured(x, fmt=fmt_ratio):
    """'1.52x (95% CI 1.44x-1.60x)', '1.52x (sample range 1.40x-1.70x, not a confidence
    interval)': a Ratio with its interval, written by `fmt` (fmt_ratio, fmt_seconds); as fmt
    writes it alone where it has no spread (one sample, or a number of the seed's)."""
    if spread(x) is None:
        return fmt(x)
    if x.interval.confidence:
        return f"{fmt(x)} (95% CI {fmt_interval(*spread(x), fmt)})"
    return f"{fmt(x)} (sample range {fmt_interval(*spread(x), fmt)}, not a confidence interval)"


def _placements(x, thresholds):
    """Where in its interval a number can lie, as far as a rule comparing it with
    `thresholds` can tell: itself, and where thresholds lie inside its interval, a point of
    each part of the interval between them."""
    if spread(x) is None:
        return [x]
    lo, hi = spread(x)
    cuts = [lo, *sorted(t for t in thresholds if lo < t < hi), hi]
    return [x, *((a + b) / 2 for a, b in zip(cuts, cuts[1:]))] if len(cuts) > 2 else [x]


def rounded_onto(numbers, thresholds, fmt=fmt_ratio):
    """Where a number as printed reads as a threshold it is not ('1.05x' for 1.0496 against
    1.05), the digits that tell them apart and the side it lies on: a verdict is never shown
    beside a rounded number that contradicts it. '' when no number does."""
    notes = []
    for x in numbers:
        if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x):
            continue
        for t in sorted(set(thresholds)):
            if x != t and fmt(x) == fmt(t):
                digits = next((d for d in range(4, 10) if fmt(x, digits=d) != fmt(t, digits=d)), 10)
                notes.append(f"{fmt(x, digits=digits)} is {'under' if x < t else 'over'} the "
                             f"{fmt(t)} threshold")
    return "; ".join(dict.fromkeys(notes))


def decide(rule, numbers, thresholds, fmt=fmt_ratio):
    """(verdict, why): rule(numbers) -> verdict, for our numbers (Ratios; None or plain
    numbers, which have no interval, are taken as they are) and the thresholds the rule
    compares them with (all of them: between two the rule must not change). Where a number's
    interval crosses a threshold and the verdict would differ with where in it the number
    lies, (INCONCLUSIVE, 'interval crosses the threshold (1.02x-1.09x vs 1.05x)'); else the
    rule's verdict and ''."""
    verdict = rule(list(numbers))
    for placed in itertools.product(*(_placements(x, thresholds) for x in numbers)):
        if rule(list(placed)) != verdict:
            break
    else:
        return verdict, rounded_onto(numbers, thresholds, fmt)
    crossings = []
    for x in numbers:
        lo, hi = spread(x) or (0, 0)
        inside = [t for t in sorted(set(thresholds)) if lo < t < hi]
        if inside:
            crossings.append(f"interval crosses the threshold ({fmt_interval(lo, hi, fmt)} vs "
                             f"{' and '.join(map(fmt, inside))})")
    return INCONCLUSIVE, "; ".join(dict.fromkeys(crossings))


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
    """A claim's one line: `known`, why it does not reproduce here, where it does not (fully)
    or may not (undecided), then each of `more` (what was not measured, the scale) that says
    anything."""
    return "; ".join(p for p in (known if verdict in (PARTLY, DOES_NOT, INCONCLUSIVE) else "",
                                 *more) if p)


def verdict_all(oks):
    """verdict_of_count of a list of checks."""
    return verdict_of_count(sum(oks), len(oks))


def unmeasured(title, config, rules, claims):
    """The section of a study whose config has no results: its rules, every claim unmeasured."""
    why = f"config {config} has no results in this directory"
    text = f"Config `{config}` has no results in this directory: nothing was measured.\n"
    return Section(title, text + "\n" + rules, [dataclasses.replace(c, why=why) for c in claims])


_VENDOR = re.compile(r"\((r|tm)\)|\b(nvidia|geforce|tesla|intel|amd|cpu|processor)\b", re.I)
_MEMORY = re.compile(r"\d+GB|HBM\d*e?|GDDR\d*X?", re.I)  # a word of a name giving its memory


def hardware_key(name):
    """A device's or CPU's name without vendor words, lower case: 'NVIDIA TITAN X (Pascal)',
    'Titan X (Pascal)' -> 'titan x (pascal)'."""
    return " ".join(_VENDOR.sub(" ", str(name or "").lower()).split())


def short_hardware(name):
    """A device's name as prose names it, its case kept, without vendor words and memory:
    'NVIDIA H100 80GB HBM3' -> 'H100', 'NVIDIA A100-SXM4-40GB' -> 'A100-SXM4-40GB',
    'NVIDIA GeForce RTX 4090' -> 'RTX 4090'; '' for none."""
    words = _VENDOR.sub(" ", str(name or "")).split()
    return " ".join([w for w in words if not _MEMORY.fullmatch(w)] or words)


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


# ---- profiles: the why of a gain between two steps, from Nsight Compute's counters ----------

# The counters a gain's why quotes, in this order of priority, at most MAX_QUOTED of them:
# (name, key path in a profile's "derived", kind). A "share" (0..1) or a "pct" (percent)
# counter is quoted when it moved by MOVED_POINTS percentage points or more, a "count" (per
# work unit) when by a factor of MOVED_FACTOR or more: smaller moves are run-to-run noise
# or do not explain a gain. The top stall reason comes last, quoted when it changed or its
# cycles per instruction moved by MOVED_FACTOR.
PROFILE_COUNTERS = (
    ("conflict share", ("shared_conflict_share",), "share"),
    ("uniform branches", ("branch_uniformity",), "share"),
    ("thread instr/{unit}", ("per_work_unit", "thread_instructions"), "count"),
    ("SM", ("speed_of_light_pct", "sm_pct"), "pct"),
    ("memory", ("speed_of_light_pct", "memory_pct"), "pct"),
    ("occupancy", ("achieved_occupancy_pct",), "pct"),
)
MOVED_POINTS, MOVED_FACTOR, MAX_QUOTED = 5.0, 1.2, 3
# What the report says of the phrase, once, below the rules: built from the rule above.
HOW_PROFILED = f"""\
The why of a claim comparing two GPU steps ends with what Nsight Compute's counters say of the
two where `ladder reproduce --profile` (or `ladder profile`) recorded them at the claim's own
point, never at another size or d: the first step's value then the second's, e.g. 'profile
(d=8): conflict share 73% -> 0%' (the point is named where the runs span several). Quoted are
the counters that moved, at most {MAX_QUOTED}, in this order: {", ".join(name.format(unit="work unit") for name, _path, _kind in PROFILE_COUNTERS)}
(SM and memory: speed of light, percent of peak), then the top stall reason; a share or a
percentage moved when by {MOVED_POINTS:g} points or more, a count per work unit when by
{MOVED_FACTOR:g}x or more. Where the steps have no counters at that point (a CPU step, or a
reproduction run without `--profile`), the why gives the other measured reasons alone.
"""


def _profile(run):
    profile = run.raw.get("profile")
    return profile if isinstance(profile, dict) else {}


def _profiled(runs, variant):
    """The runs of step `variant` ('dwe' or 'skyline/dwe') that carry counters."""
    return [r for r in runs if selection.short_variant(r) == variant
            and isinstance(_profile(r).get("derived"), dict)]


def _point(run):
    """{name: value} of the run's point as the harness names it ('d=8,n=1000000'): the
    config's parameters, not the variant's own defaults that run.params adds."""
    return dict(p.split("=", 1) for p in run.point.split(",") if "=" in p)


def _matches(run, point):
    """Whether a run lies at `point`, a dict of parameters (a subset of the run's point)."""
    return all(_point(run).get(k) == str(v) for k, v in (point or {}).items())


def _same_data(a, b):
    """Two runs at one point: every parameter both points name is equal (one step's own,
    such as EED's prep=serial, does not part them)."""
    x, y = _point(a), _point(b)
    return all(x[k] == y[k] for k in x.keys() & y.keys())


def _value(profile, path):
    value = profile.get("derived")
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return ladder_results.number(value)


def _pct(value):
    """'74%', '1.6%', '0.042%': two significant digits from 0.01% to 10%; '0%' below."""
    return f"{value:.2g}%" if 0.01 <= value < 10 else f"{value:.0f}%"


def _counter_moves(a, b):
    """'conflict share 74% -> 0.042%' for each of PROFILE_COUNTERS that moved from profile a
    to b, in their order."""
    unit = a.get("work_unit") if a.get("work_unit") == b.get("work_unit") else None
    out = []
    for name, path, kind in PROFILE_COUNTERS:
        x, y = _value(a, path), _value(b, path)
        if x is None or y is None or (kind == "count" and not unit):
            continue
        if kind == "count":
            if max(x, y) >= MOVED_FACTOR * min(x, y):  # one of them 0 counts as moved
                out.append(f"{name.format(unit=unit.removesuffix('s'))} {x:.3g} -> {y:.3g}")
        else:
            scale = 100 if kind == "share" else 1
            if abs(x - y) * scale >= MOVED_POINTS:
                out.append(f"{name} {_pct(x * scale)} -> {_pct(y * scale)}")
    return out


def _top_stall(profile):
    """(reason, cycles per issued instruction) of the largest stall; 'selected' is the
    issue itself, no stall."""
    stalls = (profile.get("derived") or {}).get("stalls_per_instruction")
    found = [(ladder_results.number(v), k) for k, v in
             (stalls if isinstance(stalls, dict) else {}).items() if k != "selected"]
    found = [(v, k) for v, k in found if v]
    return max(found)[::-1] if found else None


def _stall_move(a, b):
    """'top stall short scoreboard 3.19 -> wait 1' when the top stall changed, else ''."""
    x, y = _top_stall(a), _top_stall(b)
    if not x or not y or (x[0] == y[0] and max(x[1], y[1]) < MOVED_FACTOR * min(x[1], y[1])):
        return ""
    return (f"top stall {x[0].replace('_', ' ')} {x[1]:.3g} -> "
            f"{y[0].replace('_', ' ')} {y[1]:.3g}")


def _point_text(runs, a, b):
    """The point of runs a and b in short: its parameters that vary among `runs` ('d=8');
    '' when none does."""
    point, points = {**_point(a), **_point(b)}, [_point(r) for r in runs]
    varying = [k for k in point if len({p[k] for p in points if k in p}) > 1]
    return ", ".join(f"{k}={point[k]}" for k in varying)


def profile_why(runs, before, after, point=None):
    """A gain's why from the profile: step `before` against step `after` (variant names)
    among `runs`, at `point` (a dict of parameters, the claim's own) where both were profiled
    there, else (no point given) at the first point where both were:
    'profile (n=33): conflict share 74% -> 0.042%, thread instr/cell 11.1 -> 8.13, occupancy
    1.6% -> 11%', the counters that moved (PROFILE_COUNTERS). '' where the two have no counters
    at one point: a profile at another size or d says nothing of the claim's."""
    ours = [r for r in runs if selection.short_variant(r) in (before, after)]
    profiled = {v: _profiled(ours, v) for v in (before, after)}
    pairs = [(a, b) for b in profiled[after] for a in profiled[before] if _same_data(a, b)
             and all(_matches(r, point) for r in (a, b))]
    if not pairs:
        return ""
    a, b = pairs[0]
    moves = _counter_moves(_profile(a), _profile(b)) + [_stall_move(_profile(a), _profile(b))]
    where = _point_text(ours, a, b)
    lost = [f"{selection.short_variant(r)} lacks {s} ({selection.cut_at_word(' '.join(str(why).split()), 80)})"
            for r in (a, b) for s, why in (_profile(r).get("missing") or {}).items()]
    return (f"profile{f' ({where})' if where else ''}: "
            + (", ".join([m for m in moves if m][:MAX_QUOTED]) or "no counter moved")
            + "".join(f"; {x}" for x in lost))


def with_profile(known, runs, before, after, point=None):
    """The why a study knows of a gain from step `before` to step `after`, then the profile's
    (profile_why)."""
    return "; ".join(p for p in (known, profile_why(runs, before, after, point)) if p)

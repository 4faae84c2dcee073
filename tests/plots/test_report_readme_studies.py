"""The numbers the study READMEs (variants/<study>/README.md) quote from committed reference
runs are those runs' numbers. Each entry of the mapping below names a README's table cell or
phrase and the results file, variant, point and quantity each of its numbers comes from; the
test recomputes the quantity through plots/results.py and checks that the README
prints it rounded as printed (1.91x holds for 1.905 to 1.915; an integer's trailing zeros
may stand for digits rounded away behind three or more significant ones: 43,440 for 43,443).
docs/studies.md's lines on the studies repeat some of these numbers and are checked the same
way. A README edited alone, or a reference replaced without its README, fails here.

Left unchecked: numbers of papers and seeds, hardware limits and rules, prose estimates,
Nsight Compute counters, and numbers whose run the README does not name or whose results file
is not committed.

Run: PYTHONPATH=. python3 tests/plots/test_report_readme_studies.py   (exits non-zero on failure)
"""
import functools
import re
import sys
import unittest
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
from plots import results as ladder_results  # noqa: E402

REFERENCE = ROOT / "results" / "reference"


# ---- what a README prints ------------------------------------------------------------------

# A number as READMEs print it (1,212 / 0.566 / 5.7e-05), then its unit if it has one; not a
# part of a word or of 2^20. NUMBER has a group for each part, HOLE (a phrase's {}) one in all.
WHOLE, FRACTION, EXPONENT, UNIT = r"\d{1,3}(?:,\d{3})+|\d+", r"\.\d+", r"e-?\d+", r"ms|s|µs|us|x|%"
NUMBER = rf"(?<![\w.^])({WHOLE})({FRACTION})?({EXPONENT})?(?:\s?({UNIT}))?(?![\w^])"
HOLE = rf"((?<![\w.^])(?:{WHOLE})(?:{FRACTION})?(?:{EXPONENT})?(?:\s?(?:{UNIT}))?(?![\w^]))"
TO_MS = {"s": 1000.0, "ms": 1.0, "µs": 1e-3, "us": 1e-3, None: 1.0}


class Printed:
    """A number as printed: its value, the place it was rounded to, and its unit."""

    def __init__(self, match):
        whole, fraction, exponent, self.unit = match.groups()
        self.text = match.group(0)
        digits = whole.replace(",", "")
        self.value = float(digits + (fraction or "") + (exponent or ""))
        self.place = -(len(fraction) - 1 if fraction else 0) + int((exponent or "e0")[1:])
        zeros = len(digits) - len(digits.rstrip("0"))
        if not fraction and not exponent and len(digits) - zeros >= 3:
            self.place += zeros  # 18,070: four significant digits

    def shows(self, value, time):
        """Whether this is `value` rounded as printed; a time (ms) is put in its unit first."""
        if time:
            if self.unit not in TO_MS:
                return False
            value /= TO_MS[self.unit]
        return abs(value - self.value) <= 0.5 * 10.0 ** self.place * (1 + 1e-9)


def numbers(text):
    """The numbers printed in `text`, in order (bold and footnote stars ignored)."""
    return [Printed(m) for m in re.finditer(NUMBER, text.replace("*", ""))]


@functools.lru_cache(maxsize=None)
def readme(name):
    return (ROOT / name).read_text(encoding="utf-8")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_cell(name, anchor, row, column, key):
    """The cell of the first table after `anchor` in README `name`: in the column headed
    `column`, the row whose cell in column `key` (the first when None) is `row`."""
    text = readme(name)
    lines = text[text.index(anchor):].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        table.append(cells(line))
    header, body = table[0], table[2:]
    at = header.index(key) if key else 0
    found = [r for r in body if r[at] == row]
    if column not in header or len(found) != 1:
        raise KeyError(f"{name}: column {column!r}, {len(found)} rows {row!r} in the table "
                       f"after {anchor!r}")
    return found[0][header.index(column)]


def flat(text):
    return " ".join(text.split()).replace("**", "")


def phrase(name, words):
    """The numbers in the holes ({}) of the phrase `words`, which README `name` holds once
    (line breaks and bold marks aside)."""
    pattern = re.escape(flat(words)).replace(r"\{\}", HOLE)
    found = re.findall(pattern, flat(readme(name)))
    if len(found) != 1:
        raise KeyError(f"{name}: {len(found)} matches of {words!r}")
    return " | ".join(found[0]) if isinstance(found[0], tuple) else found[0]


# ---- what the results files hold -----------------------------------------------------------

@functools.lru_cache(maxsize=None)
def results(file):
    return ladder_results.load(REFERENCE / file)


class Q:
    """A quantity of the results: what it is, whether it is a time (ms), how to compute it."""

    def __init__(self, what, compute, time=False):
        self.what, self.compute, self.time = what, compute, time

    def per(self, factor):
        """The quantity in units of `factor` (GCUPS per 1000: TCUPS)."""
        return Q(f"{self.what} / {factor:g}", lambda: self.compute() / factor)

    # Sums of times are times; products and ratios are not.
    def __add__(self, other):
        return Q(f"{self.what} + {other.what}", lambda: self.compute() + other.compute(),
                 self.time and other.time)

    def __mul__(self, other):
        return Q(f"{self.what} x {other.what}", lambda: self.compute() * other.compute())

    def __truediv__(self, other):
        return Q(f"{self.what} / {other.what}", lambda: self.compute() / other.compute())


class At:
    """A point of one or more results files (a run and its peers' files): the runs of its
    `sweep` (any, when None) whose params include the ones given."""

    def __init__(self, files, sweep=None, **params):
        self.files = (files,) if isinstance(files, str) else files
        self.sweep, self.params = sweep, {k: str(v) for k, v in params.items()}

    def __repr__(self):
        where = ",".join([self.sweep or ""] + [f"{k}={v}" for k, v in self.params.items()])
        return f"{self.files[0]} [{where.strip(',')}]"

    def run(self, variant):
        found = [r for file in self.files for r in results(file).runs
                 if r.variant == variant and self.sweep in (None, r.sweep)
                 and all(r.params.get(k) == v for k, v in self.params.items())]
        if len(found) != 1:
            raise KeyError(f"{self}: {len(found)} runs of {variant}")
        return found[0]

    def time(self, variant):
        return Q(f"{self} {variant} median ms", lambda: self.run(variant).median_ms, time=True)

    def rate(self, variant):
        return Q(f"{self} {variant} metric", lambda: self.run(variant).metric)

    def pct(self, variant):
        return Q(f"{self} {variant} % of limit", lambda: self.run(variant).pct_of_peak)

    def stage(self, variant, stage):
        return Q(f"{self} {variant} {stage} stage ms",
                 lambda: self.run(variant).timing["stage_medians"][stage], time=True)

    def error(self, variant):
        return Q(f"{self} {variant} max rel. error",
                 lambda: self.run(variant).validation["max_rel_error"])

    def extra(self, variant, key):
        """An extra (skyline_size) or fact (survivors) the run recorded."""
        return Q(f"{self} {variant} {key}",
                 lambda: {**self.run(variant).facts, **self.run(variant).extras}[key])

    def ratio(self, slow, fast, other=None):
        """time(slow) / time(fast), fast's run at point `other` where given."""
        return self.time(slow) / (other or self).time(fast)

    def best(self, slow, steps):
        """time(slow) over the fastest of `steps`."""
        return Q(f"{self} {slow} / the fastest of {steps}",
                 lambda: self.run(slow).median_ms / min(self.run(v).median_ms for v in steps))


# A check: (README, where, quantities). `where` is (anchor, row, column, key column) of a
# table cell or a phrase with holes; its numbers in order are the quantities' (a tuple of
# them, None skipping a number).
def table(name, anchor, rows, columns, key=None):
    """Checks of a table: each row's variant in each column, by that column's function of
    the variant (giving a quantity or a tuple of them; None for no check)."""
    return [(name, (anchor, row, column, key), quantity(variant))
            for row, variant in rows.items() for column, quantity in columns.items()]


def grid(name, anchor, rows, columns):
    """Checks of a table whose rows, or else whose columns, are points (At): each cell is the
    other side's function of its point (giving a quantity, a tuple of them, or None)."""
    def cell(r, c):
        return c(r) if isinstance(r, At) else r(c)
    return [(name, (anchor, row, col, None), cell(r, c))
            for row, r in rows.items() for col, c in columns.items()]


def column(name, anchor, column, rows, key=None):
    """Checks of one column: {row: quantity (or a tuple of them)}."""
    return [(name, (anchor, row, column, key), q) for row, q in rows.items()]


def prose(name, words, *quantities):
    """A check of the phrase `words`: one quantity per hole {}."""
    return [(name, words, quantities)]


# ---- the mapping: README phrase -> file, variant, point, quantity ---------------------------

TOP = "docs/studies.md"

# DTW: the ladder and its sweeps (development), step 16 and the cuDTW++ table (878f91f), the
# canonical reference (6bc67e7), the half2 A/B runs, the reproduction at 8db022b.
DTW = "variants/dtw/README.md"
dtw_dev, dtw_878 = "h100/development/dtw-paper.json", "h100/reproduction-878f91f/dtw-paper.json"
notes, nn1 = At(dtw_dev, "notes"), At(dtw_dev, "nn1")
notes_878 = At(dtw_878, "notes")
length = {n: At(dtw_dev, "length", n=n) for n in (64, 128, 1024)}
lanes = {k: At(dtw_dev, "lanes", lanes=k) for k in (4, 8, 16, 32)}
small_97, small_64q = At(dtw_dev, "small_97"), At(dtw_dev, "small_64q")
cudtw_878 = {n: At((dtw_878, "h100/reproduction-878f91f/dtw-paper-cudtw.json"),
                   entries=2 ** 20, n=n) for n in (127, 128)}
canonical_dtw = {n: At(("h100/dtw-paper.json", "h100/dtw-paper-cudtw.json"), entries=2 ** 20, n=n)
                 for n in (127, 128)}
h200_cudtw = At("h200/development/dtw-paper-cudtw.json", "notes")
half_query = {ab: At(f"h100/development/dtw-half-query-3c53447/{ab}.json", "notes") for ab in "AB"}
occupancy = {ab: At(f"h100/development/dtw-occupancy-b395835/{ab}.json", "notes") for ab in "AB"}
notes_8db = At("h100/dtw-8db022b/dtw-paper.json", "notes")
DTW_STEPS = {"1": "seq_full", "2": "seq_tworow", "3": "openmp", "4": "naive", "5": "thread_local",
             "6": "shared", "7a": "interleaved", "7b": "transposed", "8": "constant_query",
             "9": "wavefront", "10": "warp_shuffle", "11": "subwarp", "12": "fp16x2",
             "13": "dpx_min3", "14": "subject_stream", "15": "all_pairs"}
CPU = ("seq_full", "seq_tworow", "openmp")
CHECKS = [
    *table(DTW, "## The ladder", DTW_STEPS,
           {"median": notes.time, "GCUPS": notes.rate,
            "% of limit": lambda v: None if v in CPU else notes.pct(v)}),
    *table(DTW, "## The ladder", {"16": "fp16x2_dpx"},
           {"median": notes_878.time, "GCUPS": notes_878.rate, "% of limit": notes_878.pct}),
    *column(DTW, "## The ladder", "speedup over previous row", {
        "2": notes.ratio("seq_full", "seq_tworow"), "3": notes.ratio("seq_tworow", "openmp"),
        "4": notes.ratio("openmp", "naive"), "5": notes.ratio("naive", "thread_local"),
        "6": notes.ratio("thread_local", "shared"), "7a": notes.ratio("naive", "interleaved"),
        "7b": notes.ratio("shared", "transposed"), "8": notes.ratio("transposed", "constant_query"),
        "9": notes.ratio("constant_query", "wavefront"),
        "10": notes.ratio("wavefront", "warp_shuffle"),
        "11": notes.ratio("warp_shuffle", "subwarp"),
        "12": notes.ratio("subwarp", "fp16x2"), "13": notes.ratio("subwarp", "dpx_min3"),
        "14": notes.ratio("dpx_min3", "subject_stream"),
        "15": notes.ratio("subject_stream", "all_pairs"),
        "16": notes_878.ratio("fp16x2", "fp16x2_dpx")}),
    *prose(DTW, "per-thread arrays instead of an opaque global cache, {} against the notes' 11x",
           notes.ratio("naive", "thread_local")),
    *prose(DTW, "slower per cell than at 2^16 series ({} GCUPS, sweep `length`)",
           length[128].rate("naive")),
    *prose(DTW, "(subwarp {} TCUPS at n = 64 to {} TCUPS, {} of the limit, at n = 1024; fp16x2 {} "
                "to {} TCUPS; subject_stream {} TCUPS ({}) at n = 64, {} ({}) at 128, {} ({}) at "
                "1024;",
           length[64].rate("subwarp").per(1000), length[1024].rate("subwarp").per(1000),
           length[1024].pct("subwarp"), length[64].rate("fp16x2").per(1000),
           length[1024].rate("fp16x2").per(1000), length[64].rate("subject_stream").per(1000),
           length[64].pct("subject_stream"), length[128].rate("subject_stream").per(1000),
           length[128].pct("subject_stream"), length[1024].rate("subject_stream").per(1000),
           length[1024].pct("subject_stream")),
    *prose(DTW, "subwarp {} / {} / {} / {} TCUPS with 4 / 8 / 16 / 32 lanes; "
                "fp16x2 {} / {} / {} / {}.",
           *(lanes[k].rate("subwarp").per(1000) for k in (4, 8, 16, 32)),
           *(lanes[k].rate("fp16x2").per(1000) for k in (4, 8, 16, 32))),
    *table(DTW, "1-NN classification (sweep `nn1`)",
           {"11 `subwarp`": "subwarp", "13 `dpx_min3`": "dpx_min3",
            "14 `subject_stream`": "subject_stream", "15 `all_pairs`": "all_pairs"},
           {"median": nn1.time, "x step 11": lambda v: nn1.ratio("subwarp", v)}),
    *prose(DTW, "one launch instead of one per query gives {} on the 1-NN experiment",
           nn1.ratio("subwarp", "all_pairs")),
    *prose(DTW, "counted over all 2^26 distances its throughput is {} TCUPS, \"{} of the limit\"",
           nn1.rate("all_pairs").per(1000), nn1.pct("all_pairs")),
    *table(DTW, "Small inputs (sweeps `small_97`",
           {"4 `naive`": "naive", "5 `thread_local`": "thread_local", "6 `shared`": "shared",
            "7a `interleaved`": "interleaved", "7b `transposed`": "transposed",
            "8 `constant_query`": "constant_query", "9 `wavefront`": "wavefront"},
           {"3 x 2,000, n = 97": small_97.time, "64 x 4,096, n = 128": small_64q.time}),
    *table(DTW, "Small inputs (sweeps `small_97`",
           {"10 `warp_shuffle`": "warp_shuffle", "11 `subwarp`": "subwarp", "12 `fp16x2`": "fp16x2",
            "13 `dpx_min3`": "dpx_min3", "14 `subject_stream`": "subject_stream",
            "15 `all_pairs`": "all_pairs"},
           {"3 x 2,000, n = 97": lambda v: (small_97.time(v), small_97.pct(v)),
            "64 x 4,096, n = 128": lambda v: (small_64q.time(v), small_64q.pct(v))}),
    *grid(DTW, "On an H100 (the canonical reference before 6bc67e7",
          {"127 (its own)": cudtw_878[127], "128 (the notes')": cudtw_878[128]},
          {**{col: lambda at, v=v: (at.time(v), at.rate(v) if at is cudtw_878[127] else None)
              for col, v in (("cuDTW++ full-warp", "peer_cudtw_warp"),
                             ("cuDTW++ sub-warp", "peer_cudtw_subwarp"),
                             ("our best FP32 step", "subject_stream"))},
           "ours / full-warp": lambda at: at.ratio("peer_cudtw_warp", "subject_stream"),
           "ours / sub-warp": lambda at: at.ratio("peer_cudtw_subwarp", "subject_stream"),
           "our `fp16x2`": lambda at: at.time("fp16x2")}),
    *prose(DTW, "full-warp {}, sub-warp {}, that is {} and {} GCUPS counted as ladder counts "
                "cells, {} and {} T of its own cells per second",
           *(h200_cudtw.time(v) for v in ("peer_cudtw_warp", "peer_cudtw_subwarp")),
           *(h200_cudtw.rate(v) for v in ("peer_cudtw_warp", "peer_cudtw_subwarp")),
           *((h200_cudtw.rate(v) * h200_cudtw.extra(v, "cells_ratio")).per(1000)
             for v in ("peer_cudtw_warp", "peer_cudtw_subwarp"))),
    *prose(DTW, "at 127, `subject_stream` {} against the full-warp kernel's {} ({}) and the "
                "sub-warp kernel's {} ({}, the same wrong distance); at 128, step 16 {} ({} TCUPS) "
                "and `fp16x2` {}.",
           canonical_dtw[127].time("subject_stream"), canonical_dtw[127].time("peer_cudtw_warp"),
           canonical_dtw[127].ratio("peer_cudtw_warp", "subject_stream"),
           canonical_dtw[127].time("peer_cudtw_subwarp"),
           canonical_dtw[127].ratio("peer_cudtw_subwarp", "subject_stream"),
           canonical_dtw[128].time("fp16x2_dpx"),
           canonical_dtw[128].rate("fp16x2_dpx").per(1000), canonical_dtw[128].time("fp16x2")),
    *prose(DTW, "It gains nothing over step 12 ({} against {} ms)",
           notes_878.time("fp16x2_dpx"), notes_878.time("fp16x2")),
    *prose(DTW, "step 12 {} -> {} ms ({} TCUPS), step 16 {} -> {} ms ({} TCUPS)",
           half_query["A"].time("fp16x2"), half_query["B"].time("fp16x2"),
           half_query["B"].rate("fp16x2").per(1000), half_query["A"].time("fp16x2_dpx"),
           half_query["B"].time("fp16x2_dpx"), half_query["B"].rate("fp16x2_dpx").per(1000)),
    *prose(DTW, "has steps 12 and 16 at {} and {} ms ({} and {} TCUPS)",
           notes_8db.time("fp16x2"), notes_8db.time("fp16x2_dpx"),
           notes_8db.rate("fp16x2").per(1000), notes_8db.rate("fp16x2_dpx").per(1000)),
    *prose(DTW, "step 16 {} -> {} ms at the notes point ({} TCUPS)",
           occupancy["A"].time("fp16x2_dpx"), occupancy["B"].time("fp16x2_dpx"),
           occupancy["B"].rate("fp16x2_dpx").per(1000)),
    *prose(TOP, "at its own length 127 on an H100 our best FP32 step is {} its full-warp kernel",
           cudtw_878[127].ratio("peer_cudtw_warp", "subject_stream")),
]

# Covariance: the ladder at 6d3ea35, the canonical reference (6bc67e7), the peers' profiles
# (878f91f), the accuracy run (59ebc2e), the FP16 development runs, the chunk_size sweep.
COV = "variants/covariance/README.md"
cov = At("h100/covariance-6d3ea35/covariance-paper.json", "ladder")
cov_canonical = At("h100/covariance-paper.json", "ladder")
cov_878 = At("h100/reproduction-878f91f/covariance-paper.json", "ladder")
cov_59e = At("h100/development/covariance-paper.json", "ladder")
cov_strided = At("h100/covariance-6d3ea35/covariance-paper.json", "centring")
fp16_first = At("h100/development/covariance-fp16/fp16-a11854f.json", "ladder")
fp16_aligned = At("h100/development/covariance-fp16/aligned-a32b71d.json", "ladder")
COV_STEPS = {f"`{v}`" + (" (peer)" if peer else ""): v for v, peer in (
    ("naive", 0), ("symmetric", 0), ("tiled", 0), ("register_blocked", 0), ("cublas_sgemm", 1),
    ("cublas_ssyrk", 1), ("tf32", 1), ("mma_tf32", 0), ("mma_3xtf32", 0), ("async_blocked", 0),
    ("wgmma_tf32", 0), ("wgmma_3xtf32", 0), ("cublas_ssyrk_tf32", 1), ("cublas_bf16x9", 1),
    ("cublaslt_tf32", 1), ("wgmma_fp16", 0), ("wgmma_3xfp16", 0))}
chunks = {(c, b, t): At("h100/development/covariance-chunk-sweep.json", chunk_size=c,
                        block_exit=b, thread_exit=t)
          for c in (2, 4, 8, 16, 32) for b in ("on", "off") for t in ("on", "off")}
CHECKS += [
    *table(COV, "## The ladder", COV_STEPS, {
        "pipeline median": cov.time, "covariance stage": lambda v: cov.stage(v, "covariance"),
        "GFLOP/s": cov.rate, "x SSYRK": lambda v: cov.ratio("cublas_ssyrk", v),
        # SSYRK asked for TF32 was recorded against the TF32 limit; the README adds the FP32 one
        "% of its limit": lambda v: (None, cov.pct(v)) if v == "cublas_ssyrk_tf32" else cov.pct(v),
        "max rel. error": cov.error}, key="variant"),
    *prose(COV, "has steps 17 and 18 at {} and {} ms and steps 12 and 13 at {} and {} ms, beside "
                "SSYRK's {} and the searched cublasLt TF32 GEMM's {}.",
           *map(cov_canonical.time, ("wgmma_fp16", "wgmma_3xfp16", "wgmma_tf32", "wgmma_3xtf32",
                                     "cublas_ssyrk", "cublaslt_tf32"))),
    *prose(COV, "picked algorithm {} with split-K 7 of {} candidates ({} at set-up)",
           cov_878.extra("cublaslt_tf32", "algorithm_id"),
           cov_878.extra("cublaslt_tf32", "algorithms_tried"),
           cov_878.extra("cublaslt_tf32", "search_best_ms")),
    *prose(COV, "runs its 128x256 twin): {} against {} ms",
           cov_878.time("cublaslt_tf32"), cov_878.time("tf32")),
    *prose(COV, "Step 12 is {} it, and step 17, TF32's mantissa in FP16, {}.",
           cov.ratio("cublaslt_tf32", "wgmma_tf32"), cov.ratio("cublaslt_tf32", "wgmma_fp16")),
    *prose(COV, "stays SSYRK ({} slower than step 13, {} slower than step 18)",
           cov.ratio("cublas_ssyrk", "wgmma_3xtf32"), cov.ratio("cublas_ssyrk", "wgmma_3xfp16")),
    *prose(COV, "centring stage writes 16 bytes a thread and takes {} against",
           cov.stage("mma_tf32", "centre")),
    *prose(COV, "Their centring stage transposes through shared memory: {} for one array, {} "
                "for two.",
           cov.stage("wgmma_tf32", "centre"), cov.stage("wgmma_3xtf32", "centre")),
    *prose(COV, "step 12's covariance stage fell from {} to {} and step 13's from {} to {} (",
           fp16_first.stage("wgmma_tf32", "covariance"),
           fp16_aligned.stage("wgmma_tf32", "covariance"),
           fp16_first.stage("wgmma_3xtf32", "covariance"),
           fp16_aligned.stage("wgmma_3xtf32", "covariance")),
    *prose(COV, "lands at the same error ({} against {}); step 18",
           cov.error("wgmma_fp16"), cov.error("wgmma_tf32")),
    *prose(COV, "as 3xTF32) and lands at {}, below every FP32 step", cov.error("wgmma_3xfp16")),
    *prose(COV, "FP16 centring fell from {} to {} and TF32 from {} to {}.",
           fp16_aligned.stage("wgmma_fp16", "centre"), cov.stage("wgmma_fp16", "centre"),
           fp16_aligned.stage("wgmma_tf32", "centre"), cov.stage("wgmma_tf32", "centre")),
    *prose(COV, "step 10 at {}, step 13 at {}. The three products",
           cov_59e.error("mma_3xtf32"), cov_59e.error("wgmma_3xtf32")),
    *prose(COV, "(chunks of 1, 4 and 8 k-tiles: {}, {} and {};",
           *(At(cov_59e.files, "wgmma_chunk", chunk=c).error("wgmma_3xtf32") for c in (1, 4, 8))),
    *[c for v in ("tf32", "mma_tf32", "wgmma_tf32")
      for c in prose(COV, "all three land at {}. A first version", cov_59e.error(v))],
    *prose(COV, "centring {} coalesced against {} with the notes' strided thread-per-row "
                "mapping ({} slower; sweep `centring`); the FP16 layouts' centring {} (one array) "
                "and {} (two)",
           cov.stage("naive", "centre"), cov_strided.stage("naive", "centre"),
           cov_strided.stage("naive", "centre") / cov.stage("naive", "centre"),
           cov.stage("wgmma_fp16", "centre"), cov.stage("wgmma_3xfp16", "centre")),
    *table(COV, "## The chunk_size experiment", {str(c): c for c in (2, 4, 8, 16, 32)}, {
        "both exits on": lambda c: chunks[c, "on", "on"].time("tiled"),
        "block exit only": lambda c: chunks[c, "on", "off"].time("tiled"),
        "thread exit only": lambda c: chunks[c, "off", "on"].time("tiled"),
        "neither": lambda c: chunks[c, "off", "off"].time("tiled"),
        "GFLOP/s (both on)": lambda c: chunks[c, "on", "on"].rate("tiled")}),
    *column(COV, "| step | covariance stage | achieved |", "covariance stage", {
        "12 `wgmma_tf32`": (cov.stage("wgmma_tf32", "covariance"),
                            cov_59e.stage("wgmma_tf32", "covariance")),
        "13 `wgmma_3xtf32`": (cov.stage("wgmma_3xtf32", "covariance"),
                              cov_59e.stage("wgmma_3xtf32", "covariance")),
        "17 `wgmma_fp16`": cov.stage("wgmma_fp16", "covariance"),
        "18 `wgmma_3xfp16`": cov.stage("wgmma_3xfp16", "covariance")}),
    *prose(COV, "The GEMM ({} of {} ms)", cov.stage("wgmma_fp16", "covariance"),
           cov.time("wgmma_fp16")),
    *prose(COV, "The mean and centring stages ({}) move 5 GB",
           cov.stage("wgmma_fp16", "mean") + cov.stage("wgmma_fp16", "centre")),
    *prose(COV, "read twice, 1 GB written): {} at 82% and {} at about 77%",
           cov.stage("wgmma_fp16", "mean"), cov.stage("wgmma_fp16", "centre")),
    *prose(COV, "What is left: steps 9-10 stopped at {} and {} SSYRK",
           cov.ratio("cublas_ssyrk", "mma_tf32"), cov.ratio("cublas_ssyrk", "mma_3xtf32")),
    *prose(COV, "X^T gives the K-major strips TF32 wgmma needs) and reach {} and {}.",
           cov.ratio("cublas_ssyrk", "wgmma_tf32"), cov.ratio("cublas_ssyrk", "wgmma_3xtf32")),
    *prose(COV, "`register_blocked` reaches {} of cuBLAS SSYRK and {} of the FP32 limit",
           cov.ratio("cublas_ssyrk", "register_blocked").per(0.01), cov.pct("register_blocked")),
    *prose(COV, "takes the covariance stage from {} to {} ({}).",
           cov.stage("register_blocked", "covariance"), cov.stage("async_blocked", "covariance"),
           cov.stage("register_blocked", "covariance") / cov.stage("async_blocked", "covariance")),
    *prose(TOP, "cp.async pipeline: {} (FP16 wgmma, {}, {} the searched cublasLt TF32 GEMM), "
                "{} (TF32 wgmma), {} (3xFP16 wgmma, FP32-level error), {} (3xTF32 wgmma) and {} "
                "(FP32) cuBLAS SSYRK",
           cov.ratio("cublas_ssyrk", "wgmma_fp16"), cov.time("wgmma_fp16"),
           cov.ratio("cublaslt_tf32", "wgmma_fp16"), cov.ratio("cublas_ssyrk", "wgmma_tf32"),
           cov.ratio("cublas_ssyrk", "wgmma_3xfp16"), cov.ratio("cublas_ssyrk", "wgmma_3xtf32"),
           cov.ratio("cublas_ssyrk", "async_blocked")),
]

# TWED: the development runs (44e090a, 46eed7b) with cuTWED beside them, and the rerun at
# d1e189b with eight rows a lane.
TWED = "variants/twed/README.md"
twed_dev = ("h100/development/twed-paper.json", "h100/development/twed-paper-cutwed.json")
twed_val = ("h100/development/twed-validation.json", "h100/development/twed-validation-cutwed.json")
twed_new = ("h100/twed-d1e189b/twed-paper.json", "h100/twed-d1e189b/twed-paper-cutwed.json")
pair = {n: At(twed_dev, n=n) for n in (1024, 16384, 65536, 262144, 524288, 1048576)}
pair_new = {n: At(twed_new, n=n) for n in (65536, 262144, 524288, 1048576)}
sc_batch = At(twed_val, "synthetic_control", mode="batch")
sc_triangle = At(twed_val, "synthetic_control", mode="triangle")
pseudo, mnist = At(twed_val, "pseudo_periodic", mode="batch"), At(twed_val, "mnist")
TWED_GPU = ("batch", "triangle", "wavefront", "warp_batch")
twed_single = {"itwed": lambda at: at.time("itwed"), "batch": lambda at: at.time("batch"),
               "seq_itwed": lambda at: at.time("seq_itwed"),
               "wavefront": lambda at: at.time("wavefront"),
               "G cells/s": lambda at: at.rate("wavefront"),
               "cuTWED here": lambda at: at.time("peer_cutwed"),
               "cuTWED / ours": lambda at: at.ratio("peer_cutwed", "wavefront")}
CHECKS += [
    *grid(TWED, "## On an H100", {"1,024": pair[1024]},
          {k: f for k, f in twed_single.items() if k != "seq_itwed"}),
    *grid(TWED, "## On an H100", {"16,384": pair[16384]}, twed_single),
    *grid(TWED, "## On an H100", {"65,536": pair[65536]},
          {**twed_single, "G cells/s": lambda at: (at.rate("wavefront"), at.pct("wavefront"))}),
    *grid(TWED, "## On an H100", {"524,288": pair[524288]},
          {k: twed_single[k] for k in ("wavefront", "G cells/s", "cuTWED here", "cuTWED / ours")}),
    *grid(TWED, "## On an H100", {"1,048,576": pair[1048576]},
          {"wavefront": twed_single["wavefront"],
           "G cells/s": lambda at: (at.rate("wavefront"), at.pct("wavefront"))}),
    *prose(TWED, "2^18 {} ({} before, {}), 2^19 {} ({}), 2^20 {}, {} G cells/s, {} of the FP64 "
                 "limit ({}, {}), against cuTWED's {} there ({}; {} at 65,536, which keeps four "
                 "rows and {}). The Pseudo Periodic batch takes {} ({} before).",
           pair_new[262144].time("wavefront"), pair[262144].time("wavefront"),
           pair[262144].ratio("wavefront", "wavefront", pair_new[262144]),
           pair_new[524288].time("wavefront"), pair[524288].time("wavefront"),
           pair_new[1048576].time("wavefront"), pair_new[1048576].rate("wavefront"),
           pair_new[1048576].pct("wavefront"), pair[1048576].time("wavefront"),
           pair[1048576].pct("wavefront"), pair_new[1048576].time("peer_cutwed"),
           pair_new[1048576].ratio("peer_cutwed", "wavefront"),
           pair_new[65536].ratio("peer_cutwed", "wavefront"), pair_new[65536].time("wavefront"),
           At("h100/twed-d1e189b/twed-validation.json", "pseudo_periodic", mode="batch"
              ).time("wavefront"), pseudo.time("wavefront")),
    *prose(TWED, "at 65,536: seq_itwed -> itwed {} (the P100 paper: 152x over twed.c), itwed -> "
                 "batch {} (in pair mode the same launches), batch -> wavefront {} (",
           pair[65536].ratio("seq_itwed", "itwed"), pair[65536].ratio("itwed", "batch"),
           pair[65536].ratio("batch", "wavefront")),
    *grid(TWED, "Validation sets (`configs/twed/validation.json`)", {
        "Synthetic Control 600 x 600 x 60, batch": sc_batch,
        "Synthetic Control, triangle": sc_triangle,
        "MNIST-like 1 x 60,000 in R^28": mnist}, {
        **{v: lambda at, v=v: at.time(v) for v in ("seq_full", "openmp", "batch", "wavefront",
                                                   "warp_batch")},
        "cuTWED here": lambda at: at.time("peer_cutwed"),
        "triangle": lambda at: at.time("triangle") if at is sc_triangle else None,
        "cuTWED / best": lambda at: at.best("peer_cutwed", [v for v in TWED_GPU if v != "triangle"
                                                            or at is sc_triangle])}),
    *column(TWED, "Validation sets (`configs/twed/validation.json`)", "wavefront",
            {"Pseudo Periodic 10 x 10 x 100,000, batch": pseudo.time("wavefront")}),
    *prose(TWED, "ours (best GPU step over seq_full): {}, -, {}.",
           sc_batch.best("seq_full", ("batch", "wavefront", "warp_batch")),
           mnist.best("seq_full", ("batch", "wavefront", "warp_batch"))),
    *prose(TWED, "Triangle over batch: {} for warp_batch, {} for the per-diagonal steps",
           sc_batch.ratio("warp_batch", "warp_batch", sc_triangle),
           sc_batch.ratio("batch", "triangle", sc_triangle)),
    *prose(TWED, "spilled and lost 9% ({})",
           At("h100/development/twed-rows-per-lane/cap-78cc37a.json", n=1048576,
              rows_per_lane="auto").time("wavefront")),
    *prose(TOP, "one pair of 2^20 in {} on an H100, {} of the FP64 limit and {} cuTWED",
           pair_new[1048576].time("wavefront"), pair_new[1048576].pct("wavefront"),
           pair_new[1048576].ratio("peer_cutwed", "wavefront")),
]

# EED: the paper config's runs (54857d4), the peers and the throughput config (8b86cae).
EED = "variants/eed/README.md"
eed_dev = "h100/development/eed-paper.json"
pairs_100, one_pair = At(eed_dev, "pairs_100", n=1000), At(eed_dev, "one_pair", n=1000)
pairs_10k = At(eed_dev, "throughput")
alphabet = {a: At(eed_dev, "alphabet", alphabet=a) for a in (4, 10, 20, 26, 256)}
eed_peers = At(("h100/development/eed-paper-stringzilla.json",
                "h100/development/eed-paper-rapidfuzz.json",
                "h100/development/eed-throughput.json"), "throughput")
EED_STEPS = {"seq (CPU)": "seq", "openmp (16 cores)": "openmp", **{v: v for v in (
    "openmp_linear", "ph_cuda", "h_cuda", "sh_cuda", "linear", "warp_rows", "warp_offsets")}}
# G cells/s over the kernels alone: the run's rate x its time / its compute stage
kernel_rate = (pairs_10k.rate("warp_offsets") * pairs_10k.time("warp_offsets")
               / pairs_10k.stage("warp_offsets", "compute"))
CHECKS += [
    *table(EED, "## On an H100 (results/reference/h100/development/eed-paper.json", EED_STEPS, {
        "100 pairs (ms)": pairs_100.time, "one pair (ms)": one_pair.time,
        "10,000 pairs (ms)": lambda v: None if v in ("seq", "ph_cuda") else pairs_10k.time(v),
        "G cells/s at 10,000": lambda v: (
            None if v in ("seq", "ph_cuda") else pairs_10k.rate(v) if v != "warp_offsets" else
            (pairs_10k.rate(v), pairs_10k.pct(v), pairs_10k.stage(v, "compute"), kernel_rate))}),
    *prose(EED, "sH_CUDA is {} pH_CUDA on 100 pairs", pairs_100.ratio("ph_cuda", "sh_cuda")),
    *prose(EED, "and {} H_CUDA (the paper: 2.6x;", pairs_100.ratio("h_cuda", "sh_cuda")),
    *prose(EED, "The best step is {} pH_CUDA at 100 pairs.",
           pairs_100.ratio("ph_cuda", "warp_offsets")),
    *prose(EED, "warp_offsets {} / {} / {} / {} at alphabets 4 / 10 / 20 / 26",
           *(alphabet[a].rate("warp_offsets") for a in (4, 10, 20, 26))),
    *prose(EED, "while linear runs ({} G cells/s)", alphabet[256].rate("linear")),
    *prose(EED, "The pair of 100,000 runs on linear, one block: {} ({} G cells/s).",
           At(eed_dev, "long").time("linear"), At(eed_dev, "long").rate("linear")),
    *prose(EED, "configs/eed/throughput.json in the same session gives warp_offsets {})",
           eed_peers.time("warp_offsets")),
    *table(EED, "| peer | 10,000 pairs of 1000 |", {
        "StringZilla 4.6.3 CUDA, plain Levenshtein (no swaps: a simpler distance)":
            "peer_stringzilla_levenshtein",
        "RapidFuzz 3.14.6 Damerau-Levenshtein, 16 CPU threads (the same distance)":
            "peer_rapidfuzz"}, {
        "10,000 pairs of 1000": eed_peers.time, "G cells/s": eed_peers.rate,
        "warp_offsets is": lambda v: eed_peers.ratio(v, "warp_offsets")}),
    *prose(EED, "At 100 pairs of 1000, StringZilla takes {} (warp_offsets {} in the paper run",
           At("h100/development/eed-paper-stringzilla.json", "pairs_100", n=1000
              ).time("peer_stringzilla_levenshtein"), pairs_100.time("warp_offsets")),
    *prose(TOP, "then in offset form: {} T cells/s on an H100",
           pairs_10k.rate("warp_offsets").per(1000)),
]

# Skyline: the paper config at 90c12a6 with SkyBench and SkyAlign, the earlier references
# (878f91f, 3d96331), the development runs (b646fc7, 48a2c02, 051d404, the step 10-11 work)
# and the lane_groups sweeps.
SKY = "variants/skyline/README.md"
sky = tuple(f"h100/skyline-90c12a6/skyline-paper{peer}.json"
            for peer in ("", "-skyalign", "-skybench"))
sky_878 = ("h100/reproduction-878f91f/skyline-paper.json",
           "h100/reproduction-878f91f/skyline-paper-skybench.json")
sky_3d9 = ("h100/skyline-3d96331/skyline-paper.json",
           "h100/skyline-3d96331/skyline-paper-skybench.json")
SKY_GPU = ("naive", "apc", "dwe", "alr", "warp_vote", "sort_filter", "partition", "prefilter")
SKY_ROWS = {f"{i} {v}": (lambda at, v=v: at.time(v)) for i, v in enumerate(SKY_GPU, 4)}
fig11 = {(dist, d): At(sky, "fig11", distribution=dist, d=d)
         for dist in ("independent", "anticorrelated") for d in (2, 4, 8, 9, 12, 16)}
fig11_878 = {(dist, d): At(sky_878, "fig11", distribution=dist, d=d)
             for dist, d in (("independent", 8), ("anticorrelated", 8), ("anticorrelated", 16))}
fig11_3d9 = {(dist, d): At(sky_3d9, "fig11", distribution=dist, d=d)
             for dist, d in (("independent", 4), ("independent", 8), ("anticorrelated", 8),
                             ("anticorrelated", 16))}
sky_dev = "h100/development/skyline-paper.json"  # b646fc7: steps 4-7 in the seed's forms
correlated = {d: At(sky_dev, "correlated", d=d) for d in (2, 8, 16)}
acceptance = At("h100/development/skyline-acceptance.json", "d8")
block_points = "h100/development/skyline-block-points-878f91f.json"
prefilter_dev = "h100/development/skyline-prefilter-dev.json"
sweep_e57 = "h100/skyline-lane-groups/sweep-e57e8e6.json"  # lane_groups 1, 8, 16, 32
TARGETS = (("independent", 8), ("anticorrelated", 8), ("anticorrelated", 16))
MOVED_COLUMNS = ("independent", "anticorrelated", "anticorrelated d = 16")  # the TARGETS


def sky_table(dist):
    return grid(SKY, f"**{dist.capitalize()}, 10^6 points**", {
        **SKY_ROWS,
        "SkyAlign (GPU)": lambda at: at.time("peer_skyalign"),
        "SkyBench Hybrid (16 cores)": lambda at: at.time("peer_skybench_hybrid"),
        "SkyBench BSkyTree (1 core)": lambda at: at.time("peer_skybench_bskytree"),
        "best GPU / SkyAlign": lambda at: at.best("peer_skyalign", SKY_GPU),
        "best GPU / Hybrid": lambda at: at.best("peer_skybench_hybrid", SKY_GPU),
        "skyline size": lambda at: at.extra("prefilter", "skyline_size")},
        {f"d = {d}": fig11[dist, d] for d in (2, 4, 8, 9, 12, 16)})


def moved(file, variant="partition", **params):
    """A row of "what moved steps 9-11": `variant` of `file` at the three target points."""
    return tuple(At(file, distribution=dist, d=d, **params).time(variant) for dist, d in TARGETS)


MOVED = {
    "step 10 at 878f91f (passes of 16,384 points, one bit per attribute)":
        moved(block_points, block_points=16384),
    "passes of 65,536 points (`block_points`, `configs/skyline/block_points.json`)":
        moved(block_points, block_points=65536),
    "three thermometer levels per attribute (step 10 now)": moved(prefilter_dev),
    "pre-filter by the 1,024 lowest-sum points, survivors compacted (step 11)":
        moved(prefilter_dev, "prefilter", pruners=1024),
    "per-point cell check against 16 groups of two lanes (`lane_groups`, step 11)*":
        moved(sweep_e57, "prefilter", lane_groups=16)}
CHECKS += [
    *sky_table("independent"),
    *sky_table("anticorrelated"),
    *prose(SKY, "(step 10 at independent d = 4: {} against {} ms)",
           fig11["independent", 4].time("partition"),
           fig11_3d9["independent", 4].time("partition")),
    *prose(SKY, "all met: {} on independent d = 8 (target 3x), {} on anticorrelated d = 8 (target "
                "15x) and {} on anticorrelated d = 16 (target 10x). At 878f91f, before steps 10-11 "
                "changed, they were {}, {} and {}; at 3d96331, before the per-point cell check, "
                "{}, {} and {}.",
           *(fig11[p].best("peer_skybench_hybrid", SKY_GPU) for p in TARGETS),
           *(fig11_878[p].best("peer_skybench_hybrid", SKY_GPU[:-1]) for p in TARGETS),  # no 11
           *(fig11_3d9[p].best("peer_skybench_hybrid", SKY_GPU) for p in TARGETS)),
    *prose(SKY, "Hybrid took {} at anticorrelated d = 8 and {} at independent d = 8.",
           *(At("h200x4/profiled-878f91f/skyline-paper-skybench.json", "fig11", distribution=dist,
                d=8).time("peer_skybench_hybrid") for dist in ("anticorrelated", "independent"))),
    *prose(SKY, "and {} at its closest (anticorrelated d = 12: {} against {} ms)",
           fig11["anticorrelated", 12].ratio("peer_skyalign", "prefilter"),
           fig11["anticorrelated", 12].time("prefilter"),
           fig11["anticorrelated", 12].time("peer_skyalign")),
    *[(SKY, ("**What moved steps 9-11**", row, col, None), q)
      for row, qs in MOVED.items() for col, q in zip(MOVED_COLUMNS, qs)],
    *prose(SKY, "256 pruners take {} and 4,096 take {} at independent d = 8",
           *(At(prefilter_dev, pruners=k).time("prefilter") for k in (256, 4096))),
    *prose(SKY, "enter the passes at independent d = 8 (one pass), {} at anticorrelated d = 8 "
                "(eight) and {} at anticorrelated d = 16 (fifteen), against skylines of {}, {} "
                "and {}.",
           *(At("h100/skyline-lane-groups/targets-f5ac89a.json", distribution=dist, d=d
                ).extra("prefilter", "survivors") for dist, d in TARGETS[1:]),
           *(At("h100/skyline-lane-groups/targets-f5ac89a.json", distribution=dist, d=d
                ).extra("prefilter", "skyline_size") for dist, d in TARGETS)),
    *prose(SKY, "`survivors` (`results/reference/h100/skyline-lane-groups/targets-f5ac89a.json`"
                "): {} of 10^6 points",
           At("h100/skyline-lane-groups/targets-f5ac89a.json", distribution="independent"
              ).extra("prefilter", "survivors")),
    *prose(SKY, "found 16 best at anticorrelated d = 16 ({} against {} at 8 and {} at 32)",
           *(At(sweep_e57, lane_groups=g, distribution="anticorrelated", d=16).time("prefilter")
             for g in (16, 8, 32))),
    *grid(SKY, "**Scale point, 10^7 points at d = 8**", {
        dist: At("h100/skyline-90c12a6/skyline-scale.json", distribution=dist)
        for dist in ("independent", "correlated", "anticorrelated")}, {
        "skyline size": lambda at: at.extra("prefilter", "skyline_size"),
        **{v: lambda at, v=v: at.time(v) for v in ("sort_filter", "partition", "prefilter")}}),
    *prose(SKY, "steps 10 and 11 took {} and {} (independent), {} and {} (correlated) and {} "
                "and {} (anticorrelated).",
           *(At("h100/skyline-3d96331/skyline-scale.json", distribution=dist).time(v)
             for dist in ("independent", "correlated", "anticorrelated")
             for v in ("partition", "prefilter"))),
    *grid(SKY, "**Correlated, 10^6 points**", {
        **{f"{i} {v}": lambda at, v=v: at.time(v) for i, v in (
            (4, "naive"), (7, "alr"), (8, "warp_vote"), (9, "sort_filter"), (10, "partition"))},
        "skyline size": lambda at: at.extra("partition", "skyline_size")},
        {f"d = {d}": correlated[d] for d in (2, 8, 16)}),
    *table(SKY, "**The acceptance point**", {f"{i} {v}": v for i, v in (
        (3, "openmp"), (4, "naive"), (5, "apc"), (6, "dwe"), (7, "alr"), (8, "warp_vote"),
        (9, "sort_filter"), (10, "partition"))}, {
        "time": acceptance.time,
        "against naive": lambda v: None if v == "openmp" else acceptance.ratio("naive", v),
        "against OpenMP": lambda v: acceptance.ratio("openmp", v) if v in (
            "openmp", "warp_vote", "sort_filter", "partition") else None}),
    *prose(SKY, "partition takes {} and sort_filter {}.",
           At("h100/development/skyline-acceptance.json", "d16").time("partition"),
           At("h100/development/skyline-acceptance.json", "d16").time("sort_filter")),
    *grid(SKY, "**The sequential steps**", {"1 seq_bnl": lambda at: at.time("seq_bnl"),
                                             "2 seq_sfs": lambda at: at.time("seq_sfs")},
          {f"{dist} d = {d}": At("h100/development/skyline-paper-sequential.json",
                                 distribution=dist, d=d)
           for d in (2, 4) for dist in ("independent", "anticorrelated")}),
    *prose(SKY, "naive {}, APC {}, DWE {}, ALR {}, warp vote {}, the same",
           *map(fig11_878["anticorrelated", 8].time, ("naive", "apc", "dwe", "alr", "warp_vote"))),
    *prose(SKY, "from d = 4 on, {} against {} at anticorrelated d = 8.",
           fig11_878["anticorrelated", 8].time("naive"),
           fig11_878["anticorrelated", 8].time("warp_vote")),
    *prose(SKY, "DWE at d = 8 ({}, anticorrelated) is slower than at d = 9 ({})",
           *(At(sky_dev, "fig11", distribution="anticorrelated", d=d).time("dwe") for d in (8, 9))),
    *prose(SKY, "So ALR is {} naive on the acceptance point (naive is {} faster)",
           acceptance.ratio("naive", "alr"), acceptance.ratio("alr", "naive")),
    *prose(SKY, "The pre-filter (step 11) is {} naive ({}) and {} SkyBench Hybrid at the "
                "acceptance point (10^6 anticorrelated points, d = 8: {} at 90c12a6).",
           fig11["anticorrelated", 8].ratio("naive", "prefilter"),
           fig11["anticorrelated", 8].time("naive"),
           fig11["anticorrelated", 8].ratio("peer_skybench_hybrid", "prefilter"),
           fig11["anticorrelated", 8].time("prefilter")),
    *prose(SKY, "fastest with `lane_groups` 1 at d = 8 ({} and {} against {} and {} at 16)",
           *(At(sweep_e57, distribution=dist, d=8, lane_groups=g).time("partition")
             for g in (1, 16) for dist in ("independent", "anticorrelated"))),
    *prose(SKY, "{} and {} ms at anticorrelated d = 8 on two H100s of one model, where step 11 "
                "(`lane_groups` 8) took {} and {} ms",
           *(At(f"h100/skyline-lane-groups/skyalign-{run}.json", distribution="anticorrelated",
                d=8).time("peer_skyalign") for run in ("7d63d56", "e57e8e6")),
           *(At(f"h100/skyline-lane-groups/sweep-{run}.json", distribution="anticorrelated", d=8,
                lane_groups=8).time("prefilter") for run in ("7d63d56", "e57e8e6"))),
    *prose(SKY, "SkyAlign was 8% faster than step 11 at anticorrelated d = 16 ({} against {} ms",
           At("h100/skyline-skyalign-2f15b83/skyline-targets-skyalign.json",
              distribution="anticorrelated", d=16).time("peer_skyalign"),
           fig11_3d9["anticorrelated", 16].time("prefilter")),
    *prose(TOP, "10^6 anticorrelated points at d = 8 in {} on an H100, {} naive",
           fig11["anticorrelated", 8].time("prefilter"),
           fig11["anticorrelated", 8].ratio("naive", "prefilter")),
    *prose(TOP, "the pre-filter is {} Hybrid on the H100's 16-core host at that point, {} at "
                "independent d = 8",
           fig11["anticorrelated", 8].ratio("peer_skybench_hybrid", "prefilter"),
           fig11["independent", 8].best("peer_skybench_hybrid", SKY_GPU)),
    *prose(TOP, "at all twelve paper points on the same H100, {} at that point and {} at "
                "anticorrelated d = 16",
           fig11["anticorrelated", 8].ratio("peer_skyalign", "prefilter"),
           fig11["anticorrelated", 16].ratio("peer_skyalign", "prefilter")),
]


# ---- the test ------------------------------------------------------------------------------

def check(name, where, quantities):
    """What differs between README `name` at `where` and the quantities: [] when it prints
    every one of them (None skips a number)."""
    try:
        text = table_cell(name, *where) if isinstance(where, tuple) else phrase(name, where)
    except (KeyError, ValueError, StopIteration) as err:
        return [f"{name} {where!r}: not found ({err})"]
    printed = numbers(text)
    quantities = quantities if isinstance(quantities, tuple) else (quantities,)
    wrong = []
    for i, q in enumerate(quantities):
        if q is None:
            continue
        try:
            value = q.compute()
        except (KeyError, TypeError, ladder_results.ResultsError) as err:
            wrong.append(f"{name} {where!r}: {q.what}: {err}")
            continue
        if i >= len(printed) or not printed[i].shows(value, q.time):
            shown = printed[i].text if i < len(printed) else "no number"
            wrong.append(f"{name} {where!r} prints {shown}: {q.what} is {value:.6g}")
    return wrong


class StudyReadmeNumbers(unittest.TestCase):
    def test_every_study_has_its_numbers_checked(self):
        per_readme = {}
        for name, where, quantities in CHECKS:
            count = sum(q is not None for q in (
                quantities if isinstance(quantities, tuple) else (quantities,)))
            per_readme[name] = per_readme.get(name, 0) + count
        for study in ("dtw", "covariance", "twed", "eed", "skyline"):
            self.assertGreaterEqual(per_readme.get(f"variants/{study}/README.md", 0), 5, study)

    def test_every_checked_number_is_its_files(self):
        wrong = [w for name, where, q in CHECKS for w in check(name, where, q)]
        self.assertEqual(wrong, [], "\n" + "\n".join(wrong))

    def test_a_number_edited_alone_fails(self):
        edits = {DTW: ("| 2.48 ms | 6,929 |", "| 2.50 ms | 6,929 |", "prints 2.50 ms"),
                 SKY: ("**45.3x** on anti", "**45.4x** on anti", "prints 45.4x")}
        for name, (old, new, said) in edits.items():
            self.assertEqual(readme(name).count(old), 1, old)
            edited = {name: readme(name).replace(old, new)}
            with mock.patch(f"{__name__}.readme", lambda n, read=readme: edited.get(n) or read(n)):
                wrong = [w for n, where, q in CHECKS for w in check(n, where, q)]
            self.assertEqual(len(wrong), 1, wrong)
            self.assertIn(said, wrong[0])

    def test_a_number_is_read_as_printed(self):
        def read(text):
            p = numbers(text)[0]
            return p.value, p.place, p.unit
        self.assertEqual(read("**1,212** (58%"), (1212, 0, None))
        self.assertEqual(read("2.45 ms"), (2.45, -2, "ms"))
        self.assertEqual(read("5.7e-05"), (5.7e-05, -6, None))
        self.assertEqual(read("18,070"), (18070, 1, None))
        self.assertEqual(read("2200"), (2200, 0, None))
        self.assertEqual(read("26 µs (26%)"), (26, 0, "µs"))
        self.assertEqual(numbers("2^20 series of 64x32 tiles"), [])
        self.assertTrue(numbers("1.91x")[0].shows(1.9062, False))
        self.assertFalse(numbers("1.91x")[0].shows(1.9162, False))
        self.assertTrue(numbers("70.2 s")[0].shows(70248.5, True))
        self.assertFalse(numbers("70.2 ms")[0].shows(70248.5, True))
        self.assertTrue(numbers("43,440")[0].shows(43442.7, False))
        self.assertFalse(numbers("1,552")[0].shows(1550.4, False))


if __name__ == "__main__":
    unittest.main()

"""Tests that every figure's limit footnote recomputes to the number it prints. The footnotes
are plots/selection.py's limit_footnotes ('NAME: VALUE UNIT = RULE'); the RULE is ladder's
arithmetic as it computed it, so its numbers, multiplied and divided as written, must give
VALUE. A limit is the least of a compute and a memory bound, its RULE then 'min(compute C,
memory M) UNIT = BOUND; compute: RULE; memory: RULE': each rule must give its number and the
least must be the one named. Checked on synthetic GPU runs with rules written as ladder writes
them, on wrong rules (which the checker must catch), on a run whose GPU's limit is unknown (no
footnote), and on the H100 reference runs whose rules are in this format. Also how a run's
share of its limit reads where the memory bound is the limit, and files before it was recorded.

Run: PYTHONPATH=. python3 tests/plots/test_footnotes.py   (exits non-zero on failure)
"""
import re
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import formats, selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402

QUICK = ROOT / "results" / "reference" / "h100" / "quick"
FOOTNOTE = re.compile(r"(?P<name>[^:]+): (?P<value>\S+) (?P<unit>\S+) = (?P<rule>.+)")
NUMBER = re.compile(r"\d+(\.\d*)?([eE][-+]?\d+)?")  # a whole token: 'tf32x3' is a word

# (precision, unit, rule, peak as ladder computes it, the VALUE the footnote must print).
# The peaks are worked out by hand from the rates, not by the parser under test.
H100 = "132 SMs x 1.98 GHz (max SM clock; 9.0 rates)"
RULES = [
    ("fp64", "GCUPS", f"64 fp64 instructions/clock/SM / 9 per cell x {H100}",
     64 / 9 * 132 * 1.98, "1859"),
    ("tf32x3", "GFLOP/s", "1024 tf32 tensor-core FMA/clock/SM / 3 per FMA x 2 tf32x3 flops per "
     f"FMA x {H100}", 1024 / 3 * 2 * 132 * 1.98, "178422"),
    ("fp16x2", "GCUPS", "128 half2 instructions/clock/SM / 5 per half2 pair x 2 fp16x2 cells "
     f"per half2 pair x {H100}", 128 / 5 * 2 * 132 * 1.98, "13382"),
    ("int32", "GCUPS", f"128 issue slots/clock/SM / 7 per cell x {H100}",  # issue-bound
     128 / 7 * 132 * 1.98, "4779"),
    ("fp32", "GCUPS", "128 fp32 instructions/clock/SM / 4.5 per cell x 46 SMs x 1.71 GHz (max "
     "SM clock; 8.6 rates)", 128 / 4.5 * 46 * 1.71, "2237"),
]
# Below 100 format_value keeps three significant digits: a rule must give those too.
SMALL = ("fp64", "GCUPS", "2 fp64 instructions/clock/SM / 9 per cell x 46 SMs x 1.71 GHz (max SM "
         "clock; 8.6 rates)", 2 / 9 * 46 * 1.71, "17.5")
# The old wording: 7 cells per clock does not give the peak it was printed beside (7.11 does).
WRONG = ("fp64", "GCUPS", "7 fp64 cells/clock/SM x 132 SMs x 1.980 GHz (max SM clock)", 1858.56)


TWO = re.compile(r"min\(compute (?P<c>\S+), memory (?P<m>\S+)\) (?P<unit>\S+) = "
                 r"(?P<binds>compute|memory); compute: (?P<crule>.+); memory: (?P<mrule>.+)")


def limit_of(rule):
    """The limit a rule gives: recompute() of a one-bound rule; of a two-bound one, the least
    of its two rules' values, after checking that each gives the number printed for it (six
    digits) and that the least is the one it names. ValueError otherwise."""
    if not rule.startswith("min("):
        return recompute(rule)
    parts = TWO.fullmatch(rule)
    if not parts:
        raise ValueError(f"not 'min(compute C, memory M) UNIT = BOUND; compute: ...; memory: "
                         f"...': {rule!r}")
    values = {}
    for kind in ("c", "m"):
        value, shown = recompute(parts[f"{kind}rule"]), float(parts[kind])
        if abs(value - shown) > 1e-5 * value:
            raise ValueError(f"the {kind}-rule gives {value:.6g}, the min() says {shown:g}")
        values[kind] = value
    least = "memory" if values["m"] < values["c"] else "compute"
    if parts["binds"] != least:
        raise ValueError(f"the {least} bound is the least, the rule says {parts['binds']}")
    return min(values.values())


def recompute(rule):
    """The peak a rule gives, in units of 1e9 per second (GCUPS, GFLOP/s): of the text before
    ' (', the first standalone number, then each 'x N' multiplies and each '/ N' divides.
    ValueError when the rule has no number, or a number or operator that fits no such step:
    a rule that cannot be recomputed is as wrong as one that gives another number."""
    value, op = None, None
    for token in rule.split(" (", 1)[0].split():
        if token in ("x", "/"):
            if op:
                raise ValueError(f"'{op} {token}' in {rule!r}")
            op = token
        elif NUMBER.fullmatch(token):
            if value is None and op is None:
                value = float(token)
            elif value is None or op is None:
                raise ValueError(f"number {token} without 'x' or '/' before it in {rule!r}")
            else:
                value = value * float(token) if op == "x" else value / float(token)
            op = None
        elif op:
            raise ValueError(f"'{op}' followed by {token!r}, not a number, in {rule!r}")
    if value is None:
        raise ValueError(f"no number in {rule!r}")
    return value


def footnote_errors(footnotes):
    """What is wrong with each footnote, [] when every VALUE is format_value of its RULE."""
    errors = []
    for note in footnotes:
        parts = FOOTNOTE.fullmatch(note)
        if not parts:
            errors.append(f"{note!r}: not 'NAME: VALUE UNIT = RULE'")
            continue
        try:
            value = formats.format_value(limit_of(parts["rule"]))
        except ValueError as err:
            errors.append(f"{note!r}: the rule cannot be recomputed: {err}")
            continue
        if value != parts["value"]:
            errors.append(f"{note!r}: the rule gives {value}, the footnote says "
                          f"{parts['value']}")
    return errors


def gpu_run(precision, unit, rule, peak, variant=None, limit=None, bounds=None, point="p"):
    """A passed GPU run at 40% of `peak`, as ladder writes one (peak None: the GPU's limit is
    unknown, so pct_of_peak is null and peak_reason says why), with the limit's name and the
    two bounds where given."""
    metric = "gcups" if unit == "GCUPS" else "gflops"
    value = 0.4 * (peak or 1000.0)
    metrics = {metric: value, "unit": unit}
    if peak is None:
        metrics.update(pct_of_peak=None, peak_reason=rule)
    else:
        metrics.update(peak=peak, peak_rule=rule, pct_of_peak=100 * value / peak)
    if limit:
        metrics["limit"] = limit
    if bounds:
        metrics["bounds"] = bounds
    raw = {"study": "synthetic", "variant": variant or f"step_{precision}", "step": 2,
           "point": point,
           "label": f"a {precision} step", "role": "step", "backend": "gpu",
           "precision": precision, "status": "passed", "metric": metric,
           "timing": {"median": 1.0}, "metrics": metrics}
    return ladder_results.Run(raw, None)


class SyntheticRules(unittest.TestCase):
    def test_every_footnote_recomputes(self):
        for figure in ([gpu_run(*case[:4]) for case in RULES], [gpu_run(*SMALL[:4])]):
            notes = selection.limit_footnotes(figure)
            self.assertEqual(len(notes), len(figure), notes)  # one limit per precision
            errors = footnote_errors(notes)
            self.assertFalse(errors, "\n".join(errors))

    def test_footnotes_print_the_hand_worked_peaks(self):
        """The checker agrees with values worked out without it, so it checks something."""
        for precision, unit, rule, peak, value in RULES + [SMALL]:
            run = gpu_run(precision, unit, rule, peak)
            self.assertEqual(selection.limit_footnotes([run]),
                             [f"{selection.limit_name(run)}: {value} {unit} = {rule}"])
            self.assertEqual(formats.format_value(recompute(rule)), value, rule)

    def test_words_with_digits_are_not_numbers(self):
        self.assertAlmostEqual(recompute("2 fp16x2 cells x 3 tf32x3 flops / 4 per half2 pair"),
                               1.5)

    def test_a_wrong_rule_is_caught(self):
        errors = footnote_errors(selection.limit_footnotes([gpu_run(*WRONG)]))
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("the rule gives 1830, the footnote says 1859", errors[0])

    def test_a_rule_that_cannot_be_recomputed_is_caught(self):
        for rule in ("rule not given", "64 fp64 instructions/clock/SM / per cell x 132 SMs",
                     "64 fp64 instructions 9 per cell", "x / 2 GHz"):
            errors = footnote_errors([f"FP64 limit: 64.0 GCUPS = {rule}"])
            self.assertEqual(len(errors), 1, rule)
            self.assertIn("cannot be recomputed", errors[0])
        self.assertEqual(len(footnote_errors(["FP64 limit 64 GCUPS"])), 1)

    def test_unknown_limit_gives_no_footnote(self):
        why = "ladder's hardware table has no row for NVIDIA B200 (cc 10.0): no limit is claimed"
        unknown = gpu_run("fp64", "GCUPS", why, None)
        self.assertIsNone(unknown.pct_of_peak)
        self.assertEqual(unknown.peak_reason, why)
        self.assertEqual(selection.limit_footnotes([unknown]), [])
        self.assertEqual(selection.rate_text(unknown), "400 GCUPS, limit unknown")
        # beside runs whose limit is known, only theirs are footnoted
        known = gpu_run(*RULES[2][:4])
        notes = selection.limit_footnotes([unknown, known])
        self.assertEqual(len(notes), 1, notes)
        self.assertTrue(notes[0].startswith("FP16x2 limit: 13382 GCUPS = "), notes)


# The TF32 pipeline at covariance's paper shape on an H100, as ladder writes it: the DRAM traffic
# (8,047,917,900 B in five passes, less 50 MiB of L2 for each) allows 534,573 GFLOP/s, a hair
# below the tensor cores' 535,265.
H100_TF32 = ("1024 tf32 tensor-core FMA/clock/SM x 2 tf32 flops per FMA x 132 SMs x 1.98 GHz "
             "(max SM clock; 9.0 rates)")
H100_DRAM = ("3352.32 GB/s DRAM x 1241546931900 flops / 7785773900 B (D read by the mean and "
             "centring stages, X^T written and read back, C written: 8047917900 B in 5 passes, "
             "less the 52428800 B L2 for each)")
MEMORY_BINDS = (f"min(compute 535265, memory 534573) GFLOP/s = memory; compute: {H100_TF32}; "
                f"memory: {H100_DRAM}")
COMPUTE, MEMORY = 1024 * 2 * 132 * 1.98, 1241546931900 / 7785773900 * 3352.32


def bounds(compute, memory, binds, compute_name="TF32 tensor"):
    return {"binds": binds,
            "compute": {"peak": compute, "limit": compute_name, "rule": H100_TF32},
            "memory": {"peak": memory, "limit": "DRAM bandwidth", "rule": H100_DRAM,
                       "bytes": 8047917900}}


class TwoBounds(unittest.TestCase):
    def test_a_two_bound_footnote_recomputes_to_the_least(self):
        run = gpu_run("tf32", "GFLOP/s", MEMORY_BINDS, MEMORY, limit="DRAM bandwidth",
                      bounds=bounds(COMPUTE, MEMORY, "memory"))
        notes = selection.limit_footnotes([run])
        self.assertEqual(notes, [f"DRAM bandwidth limit: 534573 GFLOP/s = {MEMORY_BINDS}"])
        self.assertFalse(footnote_errors(notes))
        self.assertAlmostEqual(limit_of(MEMORY_BINDS), MEMORY, places=6)

    def test_wrong_two_bound_rules_are_caught(self):
        wrong = {
            "names the wrong bound": MEMORY_BINDS.replace("= memory;", "= compute;"),
            "prints a compute bound its rule does not give":
                MEMORY_BINDS.replace("compute 535265", "compute 545265"),
            "prints a memory bound its rule does not give":
                MEMORY_BINDS.replace("memory 534573", "memory 517160"),
            "has no memory rule": MEMORY_BINDS.split("; memory: ")[0],
        }
        for why, rule in wrong.items():
            errors = footnote_errors([f"DRAM bandwidth limit: 534573 GFLOP/s = {rule}"])
            self.assertEqual(len(errors), 1, why)

    def test_the_share_names_the_binding_bound(self):
        memory = gpu_run("fp16", "GFLOP/s", MEMORY_BINDS, 720105.0, limit="DRAM bandwidth",
                         bounds=bounds(1070530.56, 720105.0, "memory", "FP16 tensor"))
        # 40% of the memory bound, and what that is of the tensor cores' peak
        self.assertEqual(selection.limit_text(memory),
                         "40.0% of DRAM bandwidth limit (26.9% of FP16 tensor)")
        self.assertEqual(memory.binds, "memory")
        self.assertEqual(memory.bound("memory")["bytes"], 8047917900)
        compute = gpu_run("tf32x3", "GFLOP/s", MEMORY_BINDS, 178421.76, limit="3xTF32 tensor",
                          bounds=bounds(178421.76, 355948.7, "compute", "3xTF32 tensor"))
        self.assertEqual(selection.limit_text(compute), "40.0% of 3xTF32 tensor limit")
        # a file written before the bounds were: the share as it was, no bounds
        old = gpu_run(*RULES[1][:4])
        self.assertEqual(selection.limit_text(old), "40.0% of TF32x3 limit")
        self.assertEqual((old.binds, old.bound("memory")), (None, {}))

    def test_one_name_at_two_values_is_footnoted_at_each_point(self):
        """A memory bound follows the point's flops per byte: one footnote per value."""
        runs = [gpu_run("tf32", "GFLOP/s", MEMORY_BINDS, MEMORY, limit="DRAM bandwidth",
                        bounds=bounds(COMPUTE, MEMORY, "memory"), point=p)
                for p in ("n=2475", "n=2475")]
        other = H100_DRAM.replace("7785773900", "15571547800")
        runs.append(gpu_run("tf32", "GFLOP/s", other, MEMORY / 2, limit="DRAM bandwidth",
                            point="n=1237"))
        notes = selection.limit_footnotes(runs)
        self.assertEqual(len(notes), 2, notes)
        self.assertTrue(notes[1].startswith("DRAM bandwidth limit at n=1237: 267286 GFLOP/s = "),
                        notes)
        self.assertFalse(footnote_errors(notes))

    def test_bounds_of_another_type_are_refused(self):
        raw = {"schema_version": sorted(ladder_results.SCHEMA_VERSIONS)[-1], "runs": [
            {"metrics": {"bounds": {"binds": "memory", "memory": {"peak": "fast"}}}}]}
        with self.assertRaises(ladder_results.ResultsError) as caught:
            ladder_results._check("r.json", raw)
        self.assertIn("'runs[0].metrics.bounds.memory.peak' is", str(caught.exception))


def new_format(rule):
    """A rule as ladder writes it since it prints its arithmetic exactly."""
    return "/clock/SM" in rule and " rates)" in rule


class ReferenceRuns(unittest.TestCase):
    def test_reference_footnotes_recompute(self):
        if not QUICK.is_dir():
            self.skipTest(f"{QUICK} is not here")
        checked, older = 0, []
        for results in ladder_results.load_all([QUICK]):
            rules = [r for r in results.runs if r.backend == "gpu" and r.metrics.get("peak_rule")]
            current = [r for r in rules if new_format(r.metrics["peak_rule"])]
            if rules and not current:
                older.append(results.path.name)
            # each run's own footnote: a figure shows the first run's rule of each precision
            errors = dict.fromkeys(e for run in current
                                   for e in footnote_errors(selection.limit_footnotes([run])))
            self.assertFalse(errors, f"{results.path.name}:\n" + "\n".join(errors))
            checked += len(current)
        print(f"\nnote: {checked} reference runs' footnotes checked"
              + (f"; not checked, peak rules in the older format: {', '.join(older)}"
                 if older else ""), file=sys.stderr)

if __name__ == "__main__":
    unittest.main()

"""Tests that every figure shows the sample range of every time it draws: each figure of
studies.figures() is drawn from runs of several samples (test_plots.py's fixtures and committed
reference files, their timings spread around the same medians), and every bar end or line point
that is a run's median time (ms or s) or its rate (run.metric) must carry its min..max sample:
a vertical error bar at that x (lines, vertical bars) or a horizontal whisker at that y (the
ladder's dots) reaching from below the value to above it, with the axis saying 'min..max sample'.
The same figures from runs of one sample draw no error bar. Values the results keep no samples
of (the paper's numbers, stage medians, limits, skyline sizes) are not checked.

Run: PYTHONPATH=. python3 tests/plots/test_error_bars.py   (needs matplotlib; exits non-zero on failure)
"""
import copy
import json
import numbers
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import drawing, pages, pools, selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import studies  # noqa: E402
from matplotlib.container import ErrorbarContainer  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from test_plots import eed_files, skyline_files, toy_results, twed_files  # noqa: E402

REFERENCE = ROOT / "results" / "reference" / "h100" / "development"
LOW, HIGH = 0.93, 1.17  # the fastest and slowest sample against the median
# Each median is moved by this much (its rate by the inverse) so that no run's value is one of
# the round numbers drawn beside it (the paper's, a stage median, a skyline size).
NUDGE = 1.000123457
# Figures that draw times only as text in a table, only stage medians (no samples kept) or no
# time at all.
NO_RANGES = {"twed_table2.png", "eed_tables.png", "eed_fig5.png", "skyline_sizes_n1000000.png"}


def spread(raw, several=True):
    """raw with each timed run's median nudged (NUDGE) and its samples spread around it
    (several=False: one sample, min = max = median); its stage medians unchanged."""
    raw = copy.deepcopy(raw)
    for run in raw["runs"]:
        timing = run.get("timing")
        if not timing or not timing.get("median"):
            continue
        ms = timing["median"] * NUDGE
        samples = [ms * LOW, ms, ms * HIGH] if several else [ms]
        timing.update(median=ms, samples=samples, min=min(samples), max=max(samples))
        metric = ladder_results.Run(run, None).metric_name
        if ladder_results.number((run.get("metrics") or {}).get(metric)):
            run["metrics"][metric] /= NUDGE
    return raw


def reference(name):
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def fixtures():
    """[(figure name, raw results, sweep or None)]: what each figure is drawn from; a peer
    file's runs folded into ours, as pools.merge_peers does."""
    twed, twed_peer, validation, validation_peer = twed_files()
    eed, eed_peers = eed_files()
    skyline, _ = skyline_files()
    dtw = reference("dtw-paper.json")
    return [("ladder", toy_results(), None),
            ("dtw_paper", dtw, "notes"),
            ("dtw_length_sweep", dtw, "length"),
            ("covariance_chunk_sweep", reference("covariance-chunk-sweep.json"), None),
            ("twed_paper", dict(twed, runs=twed["runs"] + twed_peer["runs"]), None),
            ("twed_table2", dict(validation, runs=validation["runs"] + validation_peer["runs"]),
             None),
            ("eed_paper", dict(eed, runs=eed["runs"] + eed_peers["runs"]), None),
            ("skyline_paper", skyline, None)]


def draw(name, raw, sweep):
    """{file name: figure} of one figure module's draw, nothing written."""
    results = ladder_results.ResultsFile(f"{name}.json", raw)
    runs = [r for r in results.runs if sweep is None or r.sweep == sweep]
    drawn, save = {}, pages.save

    def keep(fig, _out_dir, file_name):
        drawn[file_name] = fig
        return Path(file_name)

    pages.save = keep
    try:
        studies.figures()[name](results, runs, "unused")
    finally:
        pages.save = save
    return drawn


def key(value):
    return float(f"{value:.12g}")


def run_values(raw):
    """The numbers a figure may draw of a run with samples: its median in ms and s, its rate."""
    values = set()
    for run in ladder_results.ResultsFile("values.json", raw).runs:
        if run.median_ms and selection.time_range(run):
            values |= {key(run.median_ms), key(run.median_ms / 1000)}
            if run.metric:
                values.add(key(run.metric))
    return values


def horizontal_bars(ax):
    """Values along x, a row each (drawing.dot: values on a log x axis, rows on a linear y)
    rather than up y."""
    return ax.get_xscale() == "log" and ax.get_yscale() == "linear"


def data_lines(ax):
    """The lines drawn in data coordinates (not axhline/axvline, which span the axes)."""
    return [line for line in ax.lines if line.get_transform() is ax.transData]


def ranges_of(ax):
    """(vertical, horizontal, caps): error bars as [(x, lo, hi)], whiskers of rows' dots as
    [(y, lo, hi)] (two-point level lines, as drawing.dot draws), and the error bars' caps."""
    vertical, caps = [], set()
    for container in ax.containers:
        if isinstance(container, ErrorbarContainer):
            caps |= {id(line) for line in container.lines[1]}
            for lines in container.lines[2]:
                for (x0, y0), (_x1, y1) in lines.get_segments():
                    vertical.append((x0, min(y0, y1), max(y0, y1)))
    horizontal = []
    for line in data_lines(ax) if horizontal_bars(ax) else []:
        xs, ys = line.get_xdata(), line.get_ydata()
        if len(xs) == 2 and ys[0] == ys[1]:
            horizontal.append((ys[0], min(xs), max(xs)))
    return vertical, horizontal, caps


def points_of(ax, caps):
    """[(x, y, 'v')] of line points and vertical bars' tops, their value on y; [(y, x, 'h')] of
    the dots of rows (one-point marker lines) and horizontal bars' ends, their value on x,
    where values run along x."""
    points = []
    for line in data_lines(ax):
        if id(line) in caps:
            continue
        if not horizontal_bars(ax):
            points += [(x, y, "v") for x, y in zip(line.get_xdata(), line.get_ydata())
                       if isinstance(x, numbers.Real) and isinstance(y, numbers.Real)]
        elif len(line.get_xdata()) == 1 and line.get_marker() not in (None, "", "None"):
            points.append((line.get_ydata()[0], line.get_xdata()[0], "h"))
    for patch in ax.patches:
        if isinstance(patch, Rectangle):
            x, y, w, h = patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height()
            points.append((y + h / 2, x + w, "h") if horizontal_bars(ax)
                          else (x + w / 2, y + h, "v"))
    return points


def near(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check(test, file_name, fig, values):
    """Every drawn value of `values` has its range, and its axis says so; returns how many
    values were checked."""
    checked = 0
    for ax in fig.axes:
        vertical, horizontal, caps = ranges_of(ax)
        here = 0
        for at, value, way in points_of(ax, caps):
            if value != value or key(value) not in values:  # NaN (a gap), or not a run's
                continue
            here += 1
            found = vertical if way == "v" else horizontal
            test.assertTrue(any(near(a, at) and lo < value < hi for a, lo, hi in found),
                            f"{file_name}: {ax.get_title() or 'axes'}: value {value:g} at "
                            f"{at:g} has no min..max sample drawn")
        if here:
            test.assertIn("min..max sample", ax.get_xlabel() + ax.get_ylabel(),
                          f"{file_name}: {ax.get_title() or 'axes'}: ranges drawn, not said")
        checked += here
    return checked


class ErrorBars(unittest.TestCase):
    def test_every_figure_is_covered(self):
        self.assertEqual(sorted(name for name, _raw, _sweep in fixtures()),
                         sorted(studies.figures()))

    def test_every_timed_value_has_its_range(self):
        for name, raw, sweep in fixtures():
            raw = spread(raw)
            values = run_values(raw)
            drawn = draw(name, raw, sweep)
            self.assertTrue(drawn, name)
            for file_name, fig in drawn.items():
                with self.subTest(figure=file_name):
                    checked = check(self, file_name, fig, values)
                    if file_name not in NO_RANGES:
                        self.assertGreater(checked, 0, f"{file_name}: no run's value found")

    def test_speedups_have_ranges(self):
        # twed_paper (b): seq_full / the GPU step, from two runs' samples.
        name, raw, sweep = next(f for f in fixtures() if f[0] == "twed_paper")
        fig = next(iter(draw(name, spread(raw), sweep).values()))
        speedup = fig.axes[1]
        self.assertTrue(any(isinstance(c, ErrorbarContainer) for c in speedup.containers))
        self.assertIn("min..max sample", speedup.get_ylabel())

    def test_one_sample_draws_no_range(self):
        for name, raw, sweep in fixtures():
            for file_name, fig in draw(name, spread(raw, several=False), sweep).items():
                with self.subTest(figure=file_name):
                    for ax in fig.axes:
                        vertical, _, _ = ranges_of(ax)
                        self.assertEqual(vertical, [], file_name)
                        self.assertNotIn("min..max sample", ax.get_ylabel(), file_name)

    def test_a_rate_range_is_the_time_range_inverted(self):
        raw = spread(toy_results())
        run = next(r for r in ladder_results.ResultsFile("t.json", raw).runs if r.metric)
        lo, hi = selection.sample_span(run, run.metric, rate=True)
        self.assertAlmostEqual(lo, run.metric / HIGH)  # the slowest sample: the lowest rate
        self.assertAlmostEqual(hi, run.metric / LOW)
        lo, hi = selection.sample_span(run, run.median_ms / 1000)
        self.assertAlmostEqual(lo, run.median_ms * LOW / 1000)
        self.assertAlmostEqual(hi, run.median_ms * HIGH / 1000)
        lo, hi = selection.ratio_span(2.0, run, run)  # a run against itself
        self.assertAlmostEqual(lo, 2.0 * LOW / HIGH)
        self.assertAlmostEqual(hi, 2.0 * HIGH / LOW)
        one = ladder_results.ResultsFile("t.json", spread(toy_results(), several=False)).runs[0]
        self.assertIsNone(selection.sample_span(one, one.median_ms))


if __name__ == "__main__":
    unittest.main()

"""Tests that the figures do not mislead, checked on the matplotlib objects of every figure that
draw_all.py draws from the committed H100 reference (results/reference/h100/*.json, each peer
file folded into ours as draw_all does; no file is written), and of a small fixture made from
a committed development file (a DTW length sweep whose lines lie far below the FP32 limit):

1. no bar on a log axis: a bar's length there means nothing (bars, BarContainers or rectangles,
   only along a linear axis);
2. every value axis fits its data: its limits within 10x of the extent of what is drawn in
   data coordinates (a limit line far above the data is said, not drawn by stretching the
   axis);
3. a gain annotation ('1.75x', '1.01x vs NAME') stands only between two steps of ours of one
   precision class (fp64, fp32, tf32, fp16, int): never from or to a peer's row, never across
   precisions;
4. no empty axes: a panel with nothing drawn in it is not drawn;
5. ours is never coloured as the winner (green) where it is slower: a ladder row of ours
   slower than the best peer of its precision is not green, and in a table no cell of ours,
   nor a ratio 'X / ours' below 1, is shaded green, and no cell that says 'slower' in red
   sits on green.

Run: PYTHONPATH=. python3 tests/plots/test_figure_honesty.py   (needs matplotlib; exits non-zero on failure)
"""
import colorsys
import copy
import json
import math
import re
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import pages, pools, selection  # noqa: E402
from plots import results as ladder_results  # noqa: E402
from plots import studies  # noqa: E402
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.container import BarContainer  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.text import Annotation  # noqa: E402

REFERENCE = ROOT / "results" / "reference" / "h100"
DEVELOPMENT = REFERENCE / "development"
FACTOR = 10.0  # how far past its data an axis may reach
# '1.75x' or '1.01x vs FP16x2': a gain written in a column beside the rows.
GAIN = re.compile(r"^(?P<ratio>\d+(\.\d+)?)x( vs (?P<vs>.+))?$")


def precision_class(run):
    """fp64, fp32, tf32, fp16 or int: the arithmetic a run computes in (fp16x2 and fp16x3 are
    fp16, tf32x3 is tf32, int32 is int); written here, not taken from the code under test."""
    text = str(run.precision or "fp32").lower()
    if text.startswith(("int", "uint")):
        return "int"
    for name, words in (("fp64", ("fp64", "f64", "double")), ("fp32", ("fp32", "f32", "float")),
                        ("tf32", ("tf32",)), ("fp16", ("fp16", "f16", "half", "bf16"))):
        if text.startswith(words):
            return name
    return text


def green(colour):
    """A colour read as 'good': a green hue, even a pale tint of one (#e3f1e7)."""
    r, g, b = to_rgb(colour)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return 75 / 360 <= h <= 170 / 360 and s >= 0.04 and g - max(r, b) >= 6 / 255


def red(colour):
    r, g, b = to_rgb(colour)
    h, s, _v = colorsys.rgb_to_hsv(r, g, b)
    return (h <= 20 / 360 or h >= 340 / 360) and s >= 0.3


def draw(paths, override=None, transform=None):
    """{file name: (figure, runs it was drawn from)} of every figure draw_all.py draws from
    `paths` (peer files folded into ours, files pooled), nothing written. transform(raw) may
    change each file before it is read."""
    loaded = []
    for path in paths:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        loaded.append(ladder_results.ResultsFile(str(path), transform(raw) if transform else raw))
    files = pools.merge_peers(loaded)
    draws, drawn, save = studies.figures(), {}, pages.save
    for name, results, runs, _note in pools.pool_figures(files, draws, override):
        def keep(fig, _out_dir, file_name, runs=runs):
            drawn[file_name] = (fig, runs)
            return Path(file_name)
        pages.save = keep
        try:
            draws[name](results, runs, "unused")
        finally:
            pages.save = save
    return drawn


def reference_figures():
    return draw(sorted(p for p in REFERENCE.glob("*.json")
                       if p.name not in ("reproduction.json", "claims.json")))


def slow_length_sweep(raw):
    """The DTW length sweep of steps 4-9 only (40-500 GCUPS): the FP32 limit (8364 GCUPS) lies
    17x above its fastest point."""
    raw = copy.deepcopy(raw)
    raw["runs"] = [r for r in raw["runs"]
                   if r.get("sweep") == "length" and (r.get("step") or 0) <= 9]
    return raw


def fixture_figures():
    return draw([DEVELOPMENT / "dtw-paper.json"], ["length:dtw_length_sweep"], slow_length_sweep)


def figures_of(drawn):
    return [(name, fig) for name, (fig, _runs) in sorted(drawn.items())]


# ---- what is drawn ---------------------------------------------------------------------------

def data_artists_of(ax):
    """Everything drawn in data coordinates on ax: lines, collections, patches, tables."""
    return ([*ax.lines, *ax.collections, *ax.patches, *ax.tables, *ax.images])


def data_values(ax):
    """(xs, ys): the data coordinates of everything drawn on ax in data coordinates; lines
    across the axes (axhline, axvline: a limit, a reference) are not data."""
    xs, ys = [], []

    def add(points):
        for x, y in points:
            if isinstance(x, (int, float)) and math.isfinite(x):
                xs.append(float(x))
            if isinstance(y, (int, float)) and math.isfinite(y):
                ys.append(float(y))
    for line in ax.lines:
        if line.get_transform() is ax.transData:
            add(zip(map(float_or_nan, line.get_xdata()), map(float_or_nan, line.get_ydata())))
    for collection in ax.collections:
        if collection.get_transform() is not ax.transData and not isinstance(
                collection, LineCollection):
            continue
        if isinstance(collection, LineCollection):
            for segment in collection.get_segments():
                add((float(x), float(y)) for x, y in segment)
        elif isinstance(collection, PathCollection):
            add((float(x), float(y)) for x, y in collection.get_offsets())
    for patch in ax.patches:
        if isinstance(patch, Rectangle) and patch.get_transform() is not None:
            x, y, w, h = patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height()
            add([(x, y), (x + w, y + h)])
    return xs, ys


def float_or_nan(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def bars_on_log(ax):
    """The bars whose length or width lies along a log axis, as text."""
    found = []
    for container in ax.containers:
        if isinstance(container, BarContainer) and container.patches:
            horizontal = getattr(container, "orientation", None) == "horizontal"
            scale = ax.get_xscale() if horizontal else ax.get_yscale()
            if scale != "linear":
                way = "horizontal" if horizontal else "vertical"
                found.append(f"{len(container.patches)} {way} bars on a {scale} axis")
    for patch in ax.patches:
        if isinstance(patch, Rectangle) and (
                (ax.get_xscale() != "linear" and patch.get_width())
                or (ax.get_yscale() != "linear" and patch.get_height())):
            found.append(f"a rectangle at ({patch.get_x():g}, {patch.get_y():g}) on a log axis")
    return found


def axis_problems(ax):
    """What is wrong with ax's limits against its data: an axis reaching more than FACTOR
    past the data (log: by ratio; linear: by FACTOR times the data's extent)."""
    problems = []
    xs, ys = data_values(ax)
    for which, values, lim, scale in (("x", xs, ax.get_xlim(), ax.get_xscale()),
                                      ("y", ys, ax.get_ylim(), ax.get_yscale())):
        lo, hi = sorted(lim)
        if scale == "log":
            values = [v for v in values if v > 0]
            if not values:
                continue
            if lo < min(values) / FACTOR or hi > max(values) * FACTOR:
                problems.append(f"{which} axis {lo:.3g}..{hi:.3g} for data "
                                f"{min(values):.3g}..{max(values):.3g}")
        elif values:
            extent = max(values) - min(values)
            if extent > 0 and (hi - lo) > FACTOR * extent:
                problems.append(f"{which} axis {lo:.3g}..{hi:.3g} for data "
                                f"{min(values):.3g}..{max(values):.3g}")
    return problems


def row_runs(ax, runs):
    """{row y: run} of a ladder-like figure (rows on y named by selection.row_name): the runs of
    the figure's point in ladder order, checked against the row names drawn."""
    names = [t.get_text().split("\n")[0] for t in ax.get_yticklabels()]
    if not names or not any(re.match(r"^[\d?]+  ", n) for n in names):
        return {}
    for group in selection.group_by_point(runs).values():
        shown = [run for run, _name in selection.ladder_rows(group)]
        if [selection.row_name(r) for r in shown] == names:
            return dict(enumerate(shown))
    return {}


def row_colours(ax, y):
    """The face colours of what marks row y's value: bars centred on the row, or markers on
    it (black and grey whiskers and guides are no mark)."""
    colours = []
    for patch in ax.patches:
        if isinstance(patch, Rectangle) and abs(patch.get_y() + patch.get_height() / 2 - y) < 0.3:
            colours.append(patch.get_facecolor())
    for line in ax.lines:
        ydata = [float_or_nan(v) for v in line.get_ydata()]
        if (line.get_transform() is ax.transData and line.get_marker() not in (None, "", "None")
                and ydata and all(abs(v - y) < 0.3 for v in ydata)):
            colours.append(line.get_markerfacecolor())
    return [c for c in colours if not (isinstance(c, str) and c == "none")]


def rate(run):
    return run.metric or 1 / run.median_ms


def best_peer_rate(group, run):
    """The fastest correct peer of run's precision class among the runs of its point."""
    rates = [rate(p) for p in group if p.is_peer and p.passed and p.median_ms
             and precision_class(p) == precision_class(run)]
    return max(rates, default=None)


def cell_text(cell):
    return " ".join(cell.get_text().get_text().split())


class Honesty(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.drawn = {**reference_figures(), **fixture_figures()}

    def axes(self):
        for name, fig in figures_of(self.drawn):
            for ax in fig.axes:
                if ax.get_visible():
                    yield name, ax

    def test_drew_the_reference(self):
        names = set(self.drawn)
        for name in ("covariance_ladder_m202599_n2475.png",
                     "dtw_paper_entries1048576_n128_queries1.png", "eed_tables.png", "skyline_fig11c_n1000000.png", "twed_table2.png",
                     "dtw_length_sweep_entries65536_queries1.png"):
            self.assertIn(name, names)

    def test_no_bar_on_a_log_axis(self):
        for name, ax in self.axes():
            with self.subTest(figure=name, axes=ax.get_title()):
                self.assertEqual(bars_on_log(ax), [], f"{name}: bars on a log axis")

    def test_axes_fit_their_data(self):
        for name, ax in self.axes():
            if not ax.axison:  # a table
                continue
            with self.subTest(figure=name, axes=ax.get_title()):
                self.assertEqual(axis_problems(ax), [], name)

    def test_gains_only_between_our_steps_of_one_precision(self):
        checked = 0
        for name, (fig, runs) in sorted(self.drawn.items()):
            for ax in fig.axes:
                rows = row_runs(ax, runs)
                for text in ax.texts:
                    match = GAIN.match(text.get_text().strip())
                    if not match or not rows or not isinstance(text, Annotation):
                        continue
                    y = round(text.xy[1])
                    run = rows[y]
                    if match["vs"]:
                        before = next(rows[i] for i in range(y - 1, -1, -1)
                                      if selection.step_label(rows[i]) == match["vs"])
                    else:
                        before = next(rows[i] for i in range(y - 1, -1, -1) if rows[i].median_ms)
                    checked += 1
                    with self.subTest(figure=name, row=selection.row_name(run)):
                        self.assertFalse(run.is_peer, f"{name}: a gain on the peer's row "
                                         f"{selection.row_name(run)}")
                        self.assertFalse(before.is_peer, f"{name}: {selection.row_name(run)}'s "
                                         f"gain is over the peer {selection.row_name(before)}")
                        self.assertEqual(precision_class(run), precision_class(before),
                                         f"{name}: {selection.row_name(run)}'s gain is over "
                                         f"{selection.row_name(before)}, of another precision")
        self.assertGreater(checked, 5)  # dtw_paper's column

    def test_no_empty_axes(self):
        for name, ax in self.axes():
            with self.subTest(figure=name, axes=ax.get_title()):
                self.assertTrue(data_artists_of(ax), f"{name}: axes "
                                f"'{ax.get_title(loc='left') or ax.get_title()}' draws nothing: "
                                f"{[t.get_text() for t in ax.texts]}")

    def test_ours_is_not_green_where_slower(self):
        checked = 0
        for name, (fig, runs) in sorted(self.drawn.items()):
            for ax in fig.axes:
                rows = row_runs(ax, runs)
                group = list(rows.values())
                for y, run in rows.items():
                    peer = best_peer_rate(group, run)
                    if run.is_peer or not run.median_ms or peer is None or rate(run) >= peer:
                        continue
                    checked += 1
                    with self.subTest(figure=name, row=selection.row_name(run)):
                        self.assertFalse(any(map(green, row_colours(ax, y))),
                                         f"{name}: {selection.row_name(run)} is "
                                         f"{peer / rate(run):.1f}x slower than the best peer, "
                                         "coloured green")
                for table in ax.tables:
                    checked += self.check_table(name, table)
        self.assertGreater(checked, 10)

    def check_table(self, name, table):
        """A table's cells of ours, its 'X / ours' ratios and its red 'slower' cells: none
        green where ours is slower. Returns how many cells were checked."""
        cells = table.get_celld()
        header = {col: cell_text(cell) for (row, col), cell in cells.items() if row == 0}
        ours = sorted(c for c, h in header.items() if h.startswith("ours"))
        ratios = [c for c, h in header.items() if re.search(r"/ ?ours$", h)]
        checked = 0
        for (row, col), cell in cells.items():
            if row == 0:
                continue
            text = cell_text(cell)
            if red(cell.get_text().get_color()):
                checked += 1
                with self.subTest(figure=name, cell=(row, col)):
                    self.assertFalse(green(cell.get_facecolor()),
                                     f"{name}: '{text}' (red: slower) on a green cell")
            if col in ratios and re.match(r"^\d+(\.\d+)?x$", text) and float(text[:-1]) < 1:
                before = [c for c in ours if c < col]
                for c in [col] + before[-1:]:
                    checked += 1
                    with self.subTest(figure=name, cell=(row, c)):
                        self.assertFalse(green(cells[row, c].get_facecolor()),
                                         f"{name}: {header[col]} = {text} (ours slower), yet "
                                         f"'{header[c]}' of row {row} is green")
        return checked


if __name__ == "__main__":
    unittest.main()

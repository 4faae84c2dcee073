"""A figure's page and palette: matplotlib set up (only here, so that a missing matplotlib is
reported in one place, after the results files are checked), the colours by role, the title,
subtitle (GPU, CPU), footnotes and provenance footer, a figure per point, legends, and saving
each figure as PNG with its PDF twin."""
import hashlib
import os
import re
import textwrap
from pathlib import Path

from . import messages, pools, selection

try:
    import matplotlib
except ImportError:  # reported by require_matplotlib()
    matplotlib = None
else:
    matplotlib.use("Agg")  # files only, never a window: this runs on headless build hosts
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.container import ErrorbarContainer
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text
    from matplotlib.ticker import (FixedLocator, FuncFormatter, LogLocator, NullFormatter,
                                   NullLocator)


# Colour by role, lighter for CPU runs: the eye finds the baseline and the peers first,
# CPU against GPU second. Neutral hues (purple, blue, orange): a role's colour says whose run
# it is, never that it is the better one, so no green (good) and no red (bad, incorrect).
ROLE_COLOURS = {"baseline": {"cpu": "#9e8cc6", "gpu": "#5e4a94"},
                "step": {"cpu": "#8db4dc", "gpu": "#2f6496"},
                "peer": {"cpu": "#f0a86c", "gpu": "#d9773a"}}
INCORRECT, MUTED = "#c0392b", "#555555"
# Table cells: the paper's and ours in neutral greys and blue-greys; a comparison of ours with
# another (a time over ours) green only where ours is faster, red where it is slower.
SHADES = {"paper": "#ececec", "ours": "#e6ecf3", "ratio": "#f5f5f5", "peer": "#fbe6d5",
          "faster": "#d5ecd9", "slower": "#f5d5d0"}
TOP_IN, FOOT_LINE_IN = 0.75, 0.18  # title and subtitle; one footnote line
# No text smaller than this (points at the figure's size as saved): legible on a slide, and in
# a paper's column; tests/plots/test_figures_pdf.py checks every figure against it.
MIN_FONT_PT = 8
DPI = 120  # the PNG's; its PDF twin is vector
# The PDF's fonts as TrueType (Type 42), not Type 3, which some venues refuse; no creation
# date, so that drawing the same results twice gives the same bytes.
PDF_RC = {"pdf.fonttype": 42}
PDF_METADATA = {"CreationDate": None}


def require_matplotlib():
    if matplotlib is None:
        raise ImportError("matplotlib is not installed; run scripts/deps.sh plots "
                          "or python3 -m pip install -r plots/requirements.txt")


# ---- pages ---------------------------------------------------------------------------------

def subtitle(results):
    """Where the numbers come from: GPU name (or 'no GPU') and the host CPU."""
    device, host = results.device, results.host
    if device.get("present"):
        details = [f"cc {device['compute_capability']}" if device.get("compute_capability") else "",
                   f"{device['sm_count']} SMs" if device.get("sm_count") else ""]
        details = ", ".join(d for d in details if d)
        gpu = f"GPU: {device.get('name', 'unknown')}" + (f" ({details})" if details else "")
    else:
        gpu = f"no GPU ({device['reason']})" if device.get("reason") else "no GPU"
    cores = f", {host['cores']} cores" if host.get("cores") else ""
    return f"{gpu}   |   CPU: {host.get('cpu', 'unknown')}{cores}"


def provenance(results):
    """Small footer so that a figure pasted elsewhere can be traced back to its run."""
    ladder = results.raw.get("ladder") or {}
    return "   ".join([f"config {results.config.get('name', '?')}",
                       f"ladder {ladder.get('version', '?')} @ {ladder.get('git_commit', '?')}",
                       str(results.raw.get("finished_at") or "")]).rstrip()


def page(results, title, body_in, footnotes=(), width=13.0, top_in=TOP_IN):
    """A figure with its titles, footnotes and footer, body_in inches left; (fig, margins)."""
    require_matplotlib()
    bottom_in = 0.15 + FOOT_LINE_IN * (len(footnotes) + 1)
    height = top_in + body_in + bottom_in
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)  # explicit, so that layout and savefig never look for pyplot
    # fig.text rather than suptitle: tight_layout leaves fig.text alone, so the space
    # reserved here is the only space taken, whatever the matplotlib version.
    fig.text(0.5, 1 - 0.12 / height, title, ha="center", va="top", fontsize=13, fontweight="bold")
    fig.text(0.5, 1 - 0.45 / height, subtitle(results), ha="center", va="top", fontsize=9,
             color="#333333")
    fig.text(0.01, 0.06 / height, provenance(results), fontsize=MIN_FONT_PT, color="#888888")
    for i, line in enumerate(reversed(footnotes), start=1):
        fig.text(0.01, (0.06 + i * FOOT_LINE_IN) / height, line, fontsize=8, color=MUTED)
    return fig, (top_in, bottom_in)


def layout(fig, margins, right_in=0.0, **kwargs):
    """tight_layout inside the page's margins, leaving right_in inches free on the right."""
    (top_in, bottom_in), (width, height) = margins, fig.get_size_inches()
    fig.tight_layout(rect=(0, bottom_in / height, 1 - right_in / width, 1 - top_in / height),
                     **kwargs)


def each_point(results, runs, out_dir, name, figure, study=None, leave_out=(),
               enough=lambda group: True):
    """figure(results, study, point, runs) saved as <study>_<name>_<point>.png for each point
    (group_by_point) of `study` (None: any) whose runs are `enough`, results narrowed to the
    pooled files that ran the point; the paths written."""
    return [save(figure(pools.narrowed(results, group), s, point, group), out_dir,
                 f"{s}_{name}_{selection.point_name(point)}.png")
            for (s, point), group in selection.group_by_point(runs, leave_out).items()
            if study in (None, s) and enough(group)]


def wrapped(notes, width_in):
    """Footnotes cut into lines that fit a page `width_in` inches wide."""
    return [line for note in notes for line in textwrap.wrap(note, int(width_in * 16))]


def font_sizes(fig):
    """The sizes (points) of the text `fig` shows: titles, labels, ticks, legends, tables."""
    return [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]


MAX_NAME_BYTES = 255  # the longest file name most file systems take (ext4, XFS, APFS)


def file_name(name):
    """`name` (NAME.png) as a file name no longer than MAX_NAME_BYTES: as it is when it fits,
    else cut, with a hash of the whole name before the suffix, so that two long names that
    share their start stay two files and the same name is always cut the same way."""
    if len(name.encode()) <= MAX_NAME_BYTES:
        return name
    stem, suffix = os.path.splitext(name)
    tag = "_" + hashlib.sha256(name.encode()).hexdigest()[:16] + suffix
    keep = MAX_NAME_BYTES - len(tag.encode())
    return stem.encode()[:keep].decode("utf-8", "ignore") + tag


def out_dir_problem(out_dir, option="--out-dir"):
    """Why figures or a report cannot be written into the folder `out_dir` (made when missing),
    '' when they can: a file where it or a folder above it goes, or a folder not writable.
    `option` names it in the line ('' for a positional argument)."""
    named = f"{option} {out_dir}".strip()
    for folder in [Path(out_dir), *Path(out_dir).parents]:
        if folder.exists():
            which = named if folder == Path(out_dir) else f"{named}: {folder}"
            if not folder.is_dir():
                return f"{which} is not a folder"
            if not os.access(folder, os.W_OK | os.X_OK):
                return f"{which} is not writable"
            return ""
    return ""


def save(fig, out_dir, name):
    """Write `fig` as out_dir/name (a .png, cut to a file name's length) and, beside it, as a
    vector PDF of the same name; print the PNG's path (one line per figure) and return it."""
    path = Path(out_dir) / file_name(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    with matplotlib.rc_context(PDF_RC):
        fig.savefig(path.with_suffix(".pdf"), metadata=PDF_METADATA)
    print(path)
    return path


def save_or_say(made, out_dir, name):
    """made, (figure, why not), saved as `name`.png: [its path]; or [] and why not on stderr."""
    fig, why = made
    if fig is None:
        messages.warn(f"{name} not drawn: {why}")
        return []
    return [save(fig, out_dir, f"{name}.png")]


def colour(run, text=False):
    """A run's bar colour; text=True: the darker shade, readable as a row name."""
    return role_colour(run.role, "gpu" if text else run.backend)


def role_colour(role, backend):
    shades = ROLE_COLOURS.get(role, ROLE_COLOURS["step"])
    return shades.get(backend, shades["gpu"])


def role_handles(runs):
    """Legend entries (dots, as finish_rows' rows) for the roles and backends present, plus
    'incorrect'."""
    seen = dict.fromkeys((r.role, str(r.backend)) for r in runs)
    handles = [Line2D([], [], linestyle="none", marker="o", markersize=DOT_PT,
                      color=role_colour(r, b), label=f"{r} ({b.upper()})") for r, b in seen]
    if any(r.status == "incorrect" for r in runs):
        handles.append(Line2D([], [], linestyle="none", marker="X", markersize=DOT_PT + 1,
                              color=INCORRECT, label="incorrect"))
    return handles


def versus_shade(text):
    """A table cell's shade for 'X / ours' ('2.99x': the other's time over ours): 'faster'
    above 1 (ours is faster), 'slower' below; None for an even ratio or no number."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d*)?)x\s*", str(text))
    if not found or float(found[1]) == 1:
        return None
    return SHADES["faster" if float(found[1]) > 1 else "slower"]


def line_handle(label, colour, drawn=True, not_drawn="not timed", **style):
    """A line's legend entry, greyed (and saying `not_drawn`) where nothing of it was drawn."""
    if not drawn:
        colour, label = "#bbbbbb", f"{label} ({not_drawn})" if not_drawn else label
    return Line2D([], [], color=colour, label=label, **style)


def legend(ax, handles, above=False):
    """Outside the axes, where it covers no bar or line: top right, or in a row above."""
    where = (dict(loc="lower left", bbox_to_anchor=(0, 1.01), ncol=len(handles)) if above
             else dict(loc="upper left", bbox_to_anchor=(1.01, 1)))
    return ax.legend(handles=handles, borderaxespad=0.2, fontsize=9, frameon=False, **where)


DOT_PT = 8  # a dot's size, in the rows (drawing) and in their legend entries

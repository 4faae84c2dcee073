"""The toy study's section of REPORT.md: its steps' throughput at each length and one claim,
that the GPU step outruns the sequential one at the largest length. The smallest example of a
study's own report section."""
from .. import selection
from .. import report_common as rc

SEED, TITLE = "seed 999: none, the toy study proves the path", "Toy vector sum"
CONFIG = "toy-smoke"
TARGET = "Toy vector sum"
CLAIM = "GPU step faster than sequential"


def gpu_claim(runs):
    """The GPU step against the baseline at the largest n both ran."""
    at = {}
    for r in runs:
        at.setdefault(int(r.params["n"]), {})[r.variant] = r
    both = [n for n, v in at.items()
            if selection.seconds(v.get("seq")) and selection.seconds(v.get("grid_stride"))]
    if not both:
        return rc.Claim(TARGET, CLAIM, "faster", "-", rc.NOT_MEASURED,
                        "no length with both steps timed")
    v = at[max(both)]
    gain = rc.ratio(selection.seconds(v["seq"]), selection.seconds(v["grid_stride"]))
    verdict = rc.REPRODUCES if gain > 1 else rc.DOES_NOT
    return rc.Claim(TARGET, CLAIM, "faster", rc.fmt_ratio(gain), verdict, f"at n = {max(both)}")


def section(ctx):
    runs = ctx.runs(CONFIG)
    rows = [[r.label, r.point, f"{r.metric:.3g} {r.unit}" if r.metric else r.status] for r in runs]
    body = rc.md_table(["step", "point", "throughput"], rows) if rows else "No run.\n"
    body += "\n" + rc.md_figure_groups(ctx, (("toy_paper", "Throughput per step"),))
    return rc.Section(TITLE, body, [gpu_claim(runs)])

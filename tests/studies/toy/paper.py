"""Figure toy_paper: each step's GB/s against the vector length, the kind of figure a paper
study draws from its own runs. The smallest example of a study's own figure module."""
from .. import pages


def draw(results, runs, out_dir):
    timed = [r for r in runs if r.study == "toy" and r.metric]
    if not timed:
        return []
    fig, margins = pages.page(results, "Toy vector sum: throughput per step", 4.0)
    ax = fig.subplots()
    for variant in sorted({r.variant for r in timed}):
        line = sorted((int(r.params["n"]), r.metric) for r in timed if r.variant == variant)
        ax.plot([n for n, _ in line], [m for _, m in line], marker="o", label=variant)
    ax.set_xscale("log")
    ax.set_xlabel("n, log scale")
    ax.set_ylabel(timed[0].unit)
    ax.legend(fontsize=8)
    pages.layout(fig, margins)
    return [pages.save(fig, out_dir, "toy_paper.png")]


FIGURES = {"toy_paper": draw}

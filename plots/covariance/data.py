"""The covariance notes' facts (seed.json) and the chunk_size sweep as both the figure and the
report read it."""
from .. import studies
from .. import results as ladder_results

NOTES = studies.seed(__file__)
EXITS = ("block_exit", "thread_exit")
DEFAULT = ("on", "on")  # the step's defaults: a run without the params has these


def chunk(run):
    return ladder_results.number(run.params.get("chunk_size"))


def settings_of(runs):
    """{(block_exit, thread_exit): {chunk_size: run}}, the default first, of repeats the first
    timed run."""
    settings = {}
    for run in runs:
        at = settings.setdefault(tuple(run.params.get(k, on) for k, on in zip(EXITS, DEFAULT)), {})
        if chunk(run) not in at or (run.median_ms and not at[chunk(run)].median_ms):
            at[chunk(run)] = run
    return dict(sorted(settings.items(), key=lambda item: item[0] != DEFAULT))

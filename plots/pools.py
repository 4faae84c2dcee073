"""The choice of figures and the files each is drawn from: the config's `figures` lists (or
--figures), a peer's file folded into ours, and the files of one study, GPU and commit pooled
into one figure (plots/README.md)."""
import copy
import json

from . import messages


def figure_runs(results, override=None):
    """Figure name -> the runs it draws, from the config's `figures` lists (plots/README.md) or
    `override` (--figures: 'NAME' or 'SWEEP:NAME' entries)."""
    top = list(results.config.get("figures") or [])
    by_sweep = {s.get("label", ""): list(s.get("figures") or [])
                for s in results.config.get("sweeps") or []}
    if override is not None:
        top, by_sweep = [], {}
        for entry in override:
            sweep, _, name = entry.rpartition(":")
            (by_sweep.setdefault(sweep, []) if sweep else top).append(name)
    if not top and not any(by_sweep.values()):
        top = ["ladder"]
    chosen = {}
    for run in results.runs:
        for name in dict.fromkeys(top + by_sweep.get(run.sweep, [])):
            chosen.setdefault(name, []).append(run)
    return chosen


def only_peers(results):
    return bool(results.runs) and all(r.is_peer for r in results.runs)


def merge_peers(loaded):
    """The files, each peer-only file folded into ours of its config name (or left alone)."""
    ours = {r.name: r for r in loaded if not only_peers(r)}
    out = []
    for results in loaded:
        partner = ours.get(results.name) if only_peers(results) else None
        if partner is None:
            out.append(results)
        else:
            partner.runs = partner.runs + results.runs
    return out


def pool_key(results):
    """What files share for their runs to be drawn as one figure: the study, the GPU ('' for
    none) and the ladder commit. Runs of two GPUs or two commits are never one figure."""
    device = results.device_name if results.device.get("present") else ""
    return results.study, device, results.commit


def run_key(run):
    """A run as two files of one pool may both hold it: its study, variant, point and params."""
    return run.study, run.variant, run.point, json.dumps(run.params, sort_keys=True)


def pool_figures(files, draws, override):
    """(name, results, runs, note) for each figure the files (after merge_peers) ask for
    (figure_runs), once per pool of files of one pool_key: the runs of every file of the pool
    that asks for it, results the files as one (pooled). A run that a later file holds too
    (run_key) is drawn from the later file alone; note says how many ('' for none), a warning
    for a figure drawn. In the order of each pool's last file, so that of two pools writing
    the same path, the one with the later file is drawn last, as one file after another was.
    An unknown name is said and skipped."""
    asked, order = {}, {id(f): i for i, f in enumerate(files)}
    for results in files:
        for name, runs in figure_runs(results, override).items():
            if name in draws:
                asked.setdefault((name, *pool_key(results)), []).append((results, runs))
            else:
                messages.warn(f"{results.path}: unknown figure {name!r} skipped (known: {', '.join(draws)})")
    figures = []
    for (name, *_key), pool in sorted(asked.items(), key=lambda i: order[id(i[1][-1][0])]):
        later, kept = set(), []
        for _results, runs in reversed(pool):
            kept.insert(0, [r for r in runs if run_key(r) not in later])
            later.update(map(run_key, runs))
        left_out = sum(len(runs) for _results, runs in pool) - sum(map(len, kept))
        note = (f"warning: {name} from {', '.join(str(r.path) for r, _runs in pool)}: "
                f"{left_out} run{'s'[:left_out != 1]} in more than one of them (same study, "
                "variant, point and params), each drawn from the last file that has it"
                if left_out else "")
        figures.append((name, pooled([r for r, _runs in pool]), [r for k in kept for r in k],
                        note))
    return figures


def pooled(files):
    """Files of one pool_key as one, for a figure's page: the first's device, host and
    provenance, its config named after every file's ('dtw-paper + dtw-steps-2e16'); .files
    lists them. One file is itself. Each run keeps its own file (Run.file)."""
    if len(files) == 1:
        return files[0]
    view = copy.copy(files[0])
    names = dict.fromkeys(str(f.config.get("name") or f.path.stem) for f in files)
    view.raw = {**view.raw, "config": {**view.config, "name": " + ".join(names)}}
    view.runs, view.files = [r for f in files for r in f.runs], list(files)
    return view


def pooled_files(results):
    """The files a results file (pooled or not) was made of."""
    return getattr(results, "files", [results])


def narrowed(results, runs):
    """`results` (pooled) of only the files holding some of `runs`: a figure of a point that
    one file of the pool ran alone names that file's config alone."""
    ids, files = set(map(id, runs)), pooled_files(results)
    held = [f for f in files if any(id(r) in ids for r in f.runs)]
    return pooled(held) if held and len(held) < len(files) else results


def peer_device(results, runs):
    """The GPU of the peers' runs folded into `results` from their own file, '' when none."""
    return next((r.file.device_name for r in runs
                 if r.is_peer and r.file not in pooled_files(results)), "")

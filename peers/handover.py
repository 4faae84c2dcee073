"""Every point run and handed to `ladder ingest`: each point's data generated, the library
called in the timing loop (or, with --replay, ladder's own dumped outputs loaded there), the
runs written as a handover folder and ingested into the results file."""
import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from . import basics, planning, timer

REPLAY = {"replay": "outputs of `ladder run --dump-outputs`; the library was not called"}


def replayed(args, point, variants, study, from_dump=None):
    """--replay: DIR/<study>__<any variant>__<point>.npy loaded in the timing loop, and made
    the study's output by FROM_DUMP(point, array) where the dumps hold another form (the
    peer's `from_dump`: a skyline is dumped as its ids, validated as a flag per point)."""
    safe = "".join(c if c.isalnum() or c in ".-" else "_" for c in point["key"])
    found = [f for f in replay_dumps(args.replay, study) if f.stem.split("__", 2)[2:] == [safe]]
    if not found:
        return [{"variant": v["name"], "error": f"no dumped output for this point in "
                                                f"{args.replay}"} for v in variants]
    runs = []
    for v in variants:
        load = (lambda: from_dump(point, load_dump(found[0]))) if from_dump else \
            (lambda: load_dump(found[0]))
        timing, out, _ = timer.timed(load, point, v["backend"])
        runs.append(dict(timing, variant=v["name"], outputs=out,
                         note=f"replayed {found[0].name}: the library was not called"))
    return runs


def replay_dumps(folder, study):
    """--replay's dumps of STUDY, FOLDER/<study>__*.npy by name; PeerError when one is not a
    regular file (a FIFO named like a dump would block its load for ever)."""
    found = sorted(Path(folder).glob(f"{study}__*.npy"))
    for f in found:
        if not f.is_file():
            raise basics.PeerError(f"--replay {folder}: {f.name} is not a regular file")
    return found


def load_dump(path):
    """The array of a dump (`ladder run --dump-outputs`), read only if it is a regular file."""
    with basics.open_regular(path, "--replay") as f:
        return np.load(f, allow_pickle=False)


def point_runs(peer, args, lib, point, variants, folder):
    """The point's runs, its outputs saved beside the handover. A variant the peer's
    `variant_unsupported(point, name)` refuses is an unsupported run, with or without the
    library (--replay), and the peer's `run` leaves it out."""
    why = peer.unsupported(point)
    if not why:
        path, facts, why = planning.generate(args, point, folder, peer.DATA_SUFFIX)
    if why:
        return [{"point": point["point"], "variant": v["name"], "unsupported": why}
                for v in variants]
    refuse = getattr(peer, "variant_unsupported", lambda _point, _name: "")
    refused = {v["name"]: refuse(point, v["name"]) for v in variants}
    running = [v for v in variants if not refused[v["name"]]]
    try:
        point = dict(point, data_facts=facts)
        runs = (replayed(args, point, running, peer.STUDY, getattr(peer, "from_dump", None))
                if args.replay else peer.run(point, path, args, lib))
    except Exception as err:  # noqa: BLE001 - the library's failure is this point's error
        runs = [{"variant": v["name"], "error": basics.one_line(f"{type(err).__name__}: {err}")}
                for v in running]
    finally:
        path.unlink(missing_ok=True)  # a paper-scale data set is large
    runs = ([r for r in runs if not refused.get(r["variant"])]
            + [{"variant": name, "unsupported": why} for name, why in refused.items() if why])
    for r in runs:
        r["point"] = point["point"]
        if "outputs" in r:
            name = f"p{point['point']}-{r['variant']}.npy"
            np.save(Path(folder) / name, np.ascontiguousarray(r["outputs"]))
            r["outputs"] = name
    return runs


def progress(args, i, total, point, runs):
    parts = [f"{r['variant']} " + (f"{np.median(r['samples_ms']):.4g} ms" if "samples_ms" in r
                                   else "unsupported" if "unsupported" in r else "error")
             for r in runs]
    basics.note(args, f"[{i}/{total}] {point['sweep'] or '-'} {point['key']}: {'; '.join(parts)}")


def hand_over(peer, args, points, lib, info, variants):
    """Every point's runs written as a handover for `ladder ingest`; ingest's exit status."""
    with tempfile.TemporaryDirectory(prefix=f"{peer.NAME}-") as folder:
        runs = []
        for i, point in enumerate(points, 1):
            got = point_runs(peer, args, lib, point, variants, folder)
            progress(args, i, len(points), point, got)
            runs += got
        handover = Path(folder) / "handover.json"
        handover.write_text(json.dumps({"peer": info, "variants": variants, "runs": runs},
                                       indent=1) + "\n")
        argv = [args.ladder, "ingest", args.config, str(handover), "--out", args.out]
        for flag, value in (("--scale", args.scale), ("--validate", args.validate),
                            ("--device", getattr(args, "device", None))):
            if value is not None:
                argv += [flag, str(value)]
        return subprocess.run(argv + (["--quiet"] if args.quiet else [])).returncode

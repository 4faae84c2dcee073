"""What the peers of one study share about its data: the skyline study's points and flags (from
ladder's dumps of ids), the eed study's pairs of strings and its unit costs."""
from pathlib import Path

import numpy as np

def skyline_points(path):
    """The n x d float32 points of `ladder gen`'s .npy (a 1-D file is n points of d = 1)."""
    pts = np.load(path, allow_pickle=False)
    return pts.reshape(len(pts), -1) if pts.ndim == 1 else pts


def skyline_from_dump(label):
    """A skyline peer's from_dump: `ladder run --dump-outputs` writes a skyline as its sorted
    int64 ids; the study's output (what ingest validates) is one int32 flag per point."""
    return lambda point, ids: skyline_flags(label, ids, int(point["data_facts"]["n"]))


def skyline_flags(label, ids, n):
    """A skyline given as point ids, as the study's output: one int32 flag per point; an id
    outside 0..n-1 or given twice is LABEL's error (RuntimeError)."""
    out = np.zeros(n, np.int32)
    ids = np.asarray(ids, np.int64)
    if len(ids) and (ids.min() < 0 or ids.max() >= n):
        raise RuntimeError(f"{label} returned id {ids.min() if ids.min() < 0 else ids.max()}, "
                           f"outside 0..{n - 1}")
    out[ids] = 1
    if int(out.sum()) != len(ids):
        raise RuntimeError(f"{label} returned {len(ids) - int(out.sum())} ids twice")
    return out


def eed_pairs(path):
    """(A, B): the bytes of `ladder gen`'s lines A_0, B_0, A_1, ... (any other byte a symbol)."""
    lines = Path(path).read_bytes().split(b"\n")[:-1]
    return lines[0::2], lines[1::2]


def non_unit_costs(point, keys, why):
    """'' when the point's costs KEYS are all 1, else the costs and why the library cannot."""
    costs = {k: point["params"][k] for k in keys}
    if all(float(v) == 1 for v in costs.values()):
        return ""
    return f"costs {', '.join(f'{k}={v}' for k, v in costs.items())}: {why}"

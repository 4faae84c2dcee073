"""What the peers of the eed study share (peers/rapidfuzz_eed.py, peers/stringzilla_eed.py):
a point's string pairs from `ladder gen eed`, the run's `data` as variants/eed/study.cpp
describes a problem, the independent oracles (Lowrance-Wagner with swaps, and plain
Levenshtein), the sampled exact validation, the timing loop and one run in the harness's layout.

The oracles are written here from the recurrences, in Python: a plain double loop (the
textbook form, about 1 us a cell) and a row-at-a-time numpy form (about 50 ns a cell) that is
what validates the libraries. Before anything is judged, the numpy forms must agree with the
loops on a few thousand random small pairs (every alphabet size, empty strings, the study's
non-unit costs) and give the known values (CA -> ABC is 2 with unrestricted swaps, 3 without).
"""
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np


# peers/common.py by path, as `ladder_peers_common` (never plots/common.py); common.load does
# the same for the other files of peers/.
_SPEC = importlib.util.spec_from_file_location("ladder_peers_common",
                                               Path(__file__).with_name("common.py"))
common = sys.modules.setdefault("ladder_peers_common", importlib.util.module_from_spec(_SPEC))
if common.__spec__ is _SPEC:
    _SPEC.loader.exec_module(common)
PeerError = common.PeerError
STUDY = "eed"
PEER_STEP = 90  # after every step of the ladder
COSTS = ("w_ins", "w_del", "w_sub", "w_swap")
# The data parameters of the eed study that shape generated data (study.cpp); `format` is a
# data file's alone.
GENERATED_ONLY = {"pairs", "n", "m", "spread", "alphabet", "mutation", "seed"}
CACHE = common.ROOT / "peers" / "cache"


# ---- points ----------------------------------------------------------------------------------

def costs_of(params):
    return {k: int(params.get(k, "1")) for k in COSTS}


def unit_costs(params):
    return all(v == 1 for v in costs_of(params).values())


def unsupported_reason(point, params, peer, distance):
    """Why the peer cannot run this point ('' when it can)."""
    if "file" in point["source"]:
        return "the peer generates its data with `ladder gen`; data files are not supported"
    alphabet = int(params.get("alphabet", "10"))
    if alphabet >= 255:
        return (f"alphabet {alphabet}: its symbols include the newline byte, so `ladder gen` "
                "cannot write the pairs as text lines (datagen/strings.hpp); the ladder's own "
                "steps run this point from memory")
    if not unit_costs(params):
        c = costs_of(params)
        return (f"costs w_ins={c['w_ins']} w_del={c['w_del']} w_sub={c['w_sub']} "
                f"w_swap={c['w_swap']}: {peer} computes the unit-cost {distance} only")
    return ""


def read_pairs(path):
    """(A, B): lists of bytes, from the consecutive-lines format `ladder gen eed` writes
    (A_0, B_0, A_1, B_1, ..., each ended by a newline; any other byte is a symbol)."""
    raw = Path(path).read_bytes()
    if not raw.endswith(b"\n"):
        raw += b"\n"
    lines = raw.split(b"\n")[:-1]
    if not lines or len(lines) % 2:
        raise PeerError(f"`ladder gen eed` wrote {len(lines)} lines, not pairs of lines")
    return lines[0::2], lines[1::2]


def generate(ladder, point, names, tmp):
    """The point's string pairs, from `ladder gen eed` with its data parameters."""
    path = Path(tmp) / "pairs.txt"
    args = ["gen", STUDY, "--generator", point["source"]["generator"]]
    for k in sorted(point["params"]):
        if k in names:
            args += [f"--{k}", point["params"][k]]
    common.run_ladder(ladder, args + ["--out", str(path)])
    try:
        return read_pairs(path)
    finally:
        path.unlink(missing_ok=True)


def facts(a_list, b_list, params):
    """The run's `data`, as variants/eed/study.cpp describes a problem."""
    la = np.fromiter((len(a) for a in a_list), np.int64, len(a_list))
    lb = np.fromiter((len(b) for b in b_list), np.int64, len(b_list))
    c = costs_of(params)
    return {"pairs": float(len(a_list)), "n": float(la.max(initial=0)),
            "m": float(lb.max(initial=0)), "alphabet": float(params.get("alphabet", "10")),
            "cells": float(np.dot(la, lb)), "w_ins": float(c["w_ins"]),
            "w_del": float(c["w_del"]), "w_sub": float(c["w_sub"]),
            "w_swap": float(c["w_swap"])}


# ---- the oracles -----------------------------------------------------------------------------

def lw_loop(a, b, c=None):
    """Lowrance and Wagner's recurrence (variants/eed/problem.hpp), as a plain double loop:
    H[i][j] = min(H[i-1][j-1] + (a_i == b_j ? 0 : sub), H[i-1][j] + del, H[i][j-1] + ins,
                  H[k-1][l-1] + (i-k-1) del + swap + (j-l-1) ins  when k, l > 0),
    k the last row < i holding b_j, l the last column < j holding a_i."""
    c = c or {k: 1 for k in COSTS}
    ins, dele, sub, swap = c["w_ins"], c["w_del"], c["w_sub"], c["w_swap"]
    n, m = len(a), len(b)
    h = [[j * ins for j in range(m + 1)]] + [[i * dele] + [0] * m for i in range(1, n + 1)]
    last = {}
    for i in range(1, n + 1):
        ai, row, up, l = a[i - 1], h[i], h[i - 1], 0
        for j in range(1, m + 1):
            bj = b[j - 1]
            best = min(up[j - 1] + (0 if ai == bj else sub), up[j] + dele, row[j - 1] + ins)
            k = last.get(bj, 0)
            if k and l:
                best = min(best, h[k - 1][l - 1] + (i - k - 1) * dele + swap + (j - l - 1) * ins)
            row[j] = best
            if ai == bj:
                l = j
        last[ai] = i
    return h[n][m]


def lev_loop(a, b):
    """Plain Levenshtein (unit insertions, deletions, substitutions; no swaps), a double loop."""
    prev = list(range(len(b) + 1))
    for i, ai in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, bj in enumerate(b, 1):
            cur[j] = min(prev[j - 1] + (ai != bj), prev[j] + 1, cur[j - 1] + 1)
        prev = cur
    return prev[-1]


def _codes(a, b):
    """a and b as dense codes 0..s-1 of the symbols they hold, and s."""
    x = np.frombuffer(bytes(a), np.uint8)
    y = np.frombuffer(bytes(b), np.uint8)
    symbols = np.unique(np.concatenate([x, y]))
    return np.searchsorted(symbols, x), np.searchsorted(symbols, y), len(symbols)


def _left_carry(t, first, ins):
    """cur[j] = min(t[j], cur[j-1] + ins) with cur[0] = first: a prefix minimum of t[j] - j ins."""
    ramp = np.arange(len(t) + 1, dtype=np.int64) * ins
    return np.minimum.accumulate(np.concatenate(([first], t)) - ramp) + ramp


def lw_rows(a, b, c=None):
    """The same recurrence a row at a time with numpy, in O(symbols x m) memory: for every
    symbol the row just above its last occurrence in A (the only row a swap can reach)."""
    c = c or {k: 1 for k in COSTS}
    ins, dele, sub, swap = (np.int64(c[k]) for k in COSTS)
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return int(m * ins + n * dele)
    x, y, s = _codes(a, b)
    j = np.arange(1, m + 1, dtype=np.int64)
    prev = np.arange(m + 1, dtype=np.int64) * ins
    saved = np.zeros((s, m + 1), np.int64)
    last = np.zeros(s, np.int64)
    never = np.int64(1) << 60
    for i in range(1, n + 1):
        ai = x[i - 1]
        match = y == ai
        l = np.zeros(m, np.int64)  # last column < j holding a_i
        np.maximum.accumulate(np.where(match[:-1], j[:-1], 0), out=l[1:])
        k = last[y]  # last row < i holding b_j
        t = prev[:-1] + np.where(match, 0, sub)
        np.minimum(t, prev[1:] + dele, out=t)
        ok = (k > 0) & (l > 0)
        if ok.any():
            back = saved[y, np.maximum(l - 1, 0)]
            swapped = back + (i - k - 1) * dele + swap + (j - l - 1) * ins
            np.minimum(t, np.where(ok, swapped, never), out=t)
        saved[ai] = prev
        last[ai] = i
        prev = _left_carry(t, i * dele, ins)
    return int(prev[m])


def lev_rows(a, b):
    """Plain Levenshtein a row at a time with numpy."""
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return n + m
    x, y, _ = _codes(a, b)
    prev = np.arange(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        t = np.minimum(prev[:-1] + (y != x[i - 1]), prev[1:] + 1)
        prev = _left_carry(t, i, 1)
    return int(prev[m])


ORACLES = {"eed": (lw_rows, lw_loop), "levenshtein": (lev_rows, lev_loop)}
KNOWN = {"eed": [(b"CA", b"ABC", 2), (b"ab", b"ba", 1), (b"", b"abc", 3),
                 (b"abcdef", b"badcfe", 3), (b"kitten", b"sitting", 3)],
         "levenshtein": [(b"CA", b"ABC", 3), (b"ab", b"ba", 2), (b"", b"abc", 3),
                         (b"kitten", b"sitting", 3), (b"flaw", b"lawn", 2)]}
NON_UNIT = [{"w_ins": 2, "w_del": 3, "w_sub": 4, "w_swap": 3},
            {"w_ins": 1, "w_del": 1, "w_sub": 3, "w_swap": 1},
            {"w_ins": 5, "w_del": 1, "w_sub": 2, "w_swap": 3},
            {"w_ins": 0, "w_del": 4, "w_sub": 1, "w_swap": 2}]


def self_check(distance, trials=2000, seed=2015):
    """The numpy oracle must give the known values and agree with the double loop on random
    small pairs; raises RuntimeError otherwise (the oracle would judge nothing)."""
    fast, slow = ORACLES[distance]
    for a, b, want in KNOWN[distance]:
        for f in (fast, slow):
            if f(a, b) != want:
                raise RuntimeError(f"{distance} oracle {f.__name__} gives {f(a, b)} for "
                                   f"{a!r} -> {b!r}, want {want}")
    rng = random.Random(seed)
    for t in range(trials):
        alphabet = rng.choice([1, 2, 3, 4, 10, 256])
        a = bytes(rng.randrange(alphabet) for _ in range(rng.randrange(0, 13)))
        b = bytes(rng.randrange(alphabet) for _ in range(rng.randrange(0, 13)))
        if distance == "eed" and t % 2:
            c = NON_UNIT[t // 2 % len(NON_UNIT)]
            got, want = fast(a, b, c), slow(a, b, c)
        else:
            got, want = fast(a, b), slow(a, b)
        if got != want:
            raise RuntimeError(f"{distance} oracles disagree on {a!r} -> {b!r}: numpy {got}, "
                               f"loop {want}")


# ---- validation ------------------------------------------------------------------------------

def plan_sample(a_list, b_list, mode, key, max_cells):
    """(indices to check, validation mode text, note): all pairs or sample:N as the point asks
    (pair 0 always among them, the rest drawn with a seed from the point), but no pair of more
    than max_cells cells and no more than max_cells cells in all."""
    total = len(a_list)
    if mode == "off" or total == 0:
        return np.empty(0, np.int64), "off", ""
    want = total if mode == "full" else min(total, int(mode.split(":")[1]))
    rng = np.random.default_rng(zlib.crc32(key.encode()))
    order = np.arange(total) if want == total else \
        np.concatenate([[0], 1 + rng.permutation(total - 1)])
    picked, spent, skipped_big = [], 0.0, 0
    for k in order.tolist():
        if len(picked) == want:
            break
        cells = float(len(a_list[k])) * len(b_list[k])
        if cells > max_cells:
            skipped_big += 1
            continue
        if spent + cells > max_cells:
            break
        picked.append(k)
        spent += cells
    why = ""
    if len(picked) < want:
        why = (f"{mode} reduced to {len(picked)} pairs: --max-cells {max_cells:g} "
               f"({'a pair beyond it' if skipped_big else 'in all'})")
    if not picked:
        return np.empty(0, np.int64), "off", f"not validated: {why}"
    text = mode if len(picked) == want else f"sample:{len(picked)}"
    return np.array(sorted(picked), np.int64), text, why


def validate(got, indices, a_list, b_list, distance, costs=None):
    """Exact comparison of got[k] with the numpy oracle at the indices (harness's fields)."""
    fast = ORACLES[distance][0]
    failures, first, max_abs = 0, "", 0.0
    for k in indices.tolist():
        want = fast(a_list[k], b_list[k], costs) if distance == "eed" else \
            fast(a_list[k], b_list[k])
        diff = abs(float(got[k]) - want)
        max_abs = max(max_abs, diff)
        if diff != 0:
            failures += 1
            if not first:
                first = f"index {k}: got {int(got[k])}, want {want}"
    return {"checked": int(len(indices)), "failures": failures, "max_abs_error": max_abs,
            "max_rel_error": 0.0 if not failures else None, "first_failure": first}


# ---- timing and results ----------------------------------------------------------------------

def timed(call, warmup, repetitions, before=None):
    """Warm-up calls, then the timed ones, each timed with the wall clock (perf_counter) around
    `call(arg)`; `before(i)` runs untimed ahead of call i (fresh inputs, say) and gives arg.
    Returns ([ms of each timed call], output of the last call, the process's CPU seconds per
    wall second over the timed calls: about the number of threads that were busy)."""
    samples, out, cpu = [], None, 0.0
    for i in range(warmup + repetitions):
        arg = before(i) if before else None
        cpu_start, start = time.process_time(), time.perf_counter()
        out = call(arg)
        ms = (time.perf_counter() - start) * 1e3
        if i >= warmup:
            samples.append(ms)
            cpu += time.process_time() - cpu_start
    wall = sum(samples) / 1e3
    return samples, out, (cpu / wall if wall > 0 else 0.0)


def metrics_json(data, median_ms, device=None):
    """GCUPS = sum of len_A len_B / s / 1e9 (the study's cells), with the study's GPU limit
    (8 integer operations a cell at 64 a clock per SM) when the device is known."""
    if not data or not median_ms or median_ms <= 0 or data["cells"] <= 0:
        return {}  # as the harness: no rate for no work
    work = data["cells"]
    out = {"gcups": work / (median_ms / 1e3) / 1e9, "unit": "GCUPS", "work": work}
    device = device or {}
    if device.get("present") and device.get("sm_count") and device.get("max_sm_clock_mhz"):
        ghz = device["max_sm_clock_mhz"] / 1e3
        peak = 8 * device["sm_count"] * ghz
        out.update(peak=peak, pct_of_peak=100 * out["gcups"] / peak,
                   peak_rule=f"8 int32 cells (8 integer operations)/clock/SM x "
                             f"{device['sm_count']} SMs x {ghz:.3f} GHz (max SM clock)")
    return out


def run_json(spec, point, params, status, reason="", data=None, samples=None, warmup=0,
             check=None, device=None, extras=None):
    """One run as harness/results.cpp writes it. spec: variant, label, change, backend and
    the peer's own fields for the run (distance, note, method, threads ...)."""
    check = check or {}
    run = {"study": STUDY, "variant": spec["variant"], "step": PEER_STEP, "label": spec["label"],
           "role": "peer", "change": spec["change"], "backend": spec["backend"],
           "precision": spec.get("precision", "int"), "metric": "gcups",
           "point": common.point_key(point["params"]), "sweep": point["sweep"],
           "params": params, "status": status, "reason": reason, "data": data or {},
           "extras": extras or {}, "facts": {},
           "validation": {"mode": check.get("mode", point["validation"]),
                          "checked": check.get("checked", 0),
                          "failures": check.get("failures", 0),
                          "max_abs_error": check.get("max_abs_error", 0.0),
                          "max_rel_error": check.get("max_rel_error", 0.0) or 0.0,
                          "tolerance": {"abs": 0, "rel": 0, "rule": spec["rule"]}}}
    if check.get("note"):
        run["validation"]["note"] = check["note"]
    for k in ("distance", "note", "method", "threads"):
        if k in spec:
            run[k] = spec[k]
    run["timing"] = common.timing_json(samples, warmup) if samples else None
    run["metrics"] = metrics_json(data, run["timing"] and run["timing"]["median"], device)
    return run


def progress(script, i, total, point, runs, quiet):
    parts = []
    for r in runs:
        t, v = r["timing"], r["validation"]
        gcups = r["metrics"].get("gcups")
        rate = f", {gcups:.3g} GCUPS" if gcups is not None else ""
        parts.append(f"{r['variant']} " + (f"{t['median']:.4g} ms{rate}" if t else r["status"])
                     + (f" ({v['checked']} checked, {v['failures']} off)"
                        if v["mode"] != "off" and t else ""))
    common.note(script, f"[{i}/{total}] {point['sweep'] or '-'} "
                        f"{common.point_key(point['params'])}: {'; '.join(parts)}", quiet)


def dump_outputs(folder, variant, point, values):
    """The distances as ladder's --dump-outputs writes them: DIR/eed__VARIANT__POINT.npy."""
    if not folder:
        return
    safe = "".join(ch if ch.isalnum() or ch in ".-" else "_"
                   for ch in common.point_key(point["params"]))
    Path(folder).mkdir(parents=True, exist_ok=True)
    np.save(Path(folder) / f"{STUDY}__{variant}__{safe}.npy", np.asarray(values, np.int32))


# ---- what both peers' setup, point runs and main share ----------------------------------------

def settle(args, config, backend, repetitions, warmup):
    """Checks the options against the config; fills repetitions and warm-up from the config's
    setting for the backend (else the fallbacks given)."""
    if args.repetitions is None:
        args.repetitions = common.backend_setting(config, "repetitions", backend, repetitions)
    if args.warmup is None:
        args.warmup = common.backend_setting(config, "warmup", backend, warmup)
    if args.repetitions < 1 or args.warmup < 0:
        raise PeerError("--repetitions must be >= 1 and --warmup >= 0")
    if not args.max_cells > 0:
        raise PeerError("--max-cells must be positive")
    if args.max_pairs is not None and args.max_pairs < 1:
        raise PeerError("--max-pairs must be >= 1")
    if args.validate:
        common.parse_validation(args.validate, "--validate")


def prepare(args, peer, distance, backend, repetitions, warmup):
    """(points, state): the config's points the options choose, the options settled, the
    distance's oracle checked, and the state every peer run starts from."""
    config = common.read_config(args.config)
    points = common.chosen_points(common.expand_config(config, STUDY, peer), args.only_sweeps,
                                  args.max_n)
    if args.max_pairs is not None:
        points = [p for p in points if int(p["params"].get("pairs", "100")) <= args.max_pairs]
    settle(args, config, backend, repetitions, warmup)
    self_check(distance)
    state = {"config": config, "config_path": args.config, "started_at": common.now(),
             "defaults": common.study_params(args.ladder, STUDY), "fake": args.dry_run_fake,
             "validation_mode": args.validate or config.get("validation", "full")}
    return points, state


def point_inputs(point, settings, state, folder, specs, distance):
    """(params, runs, inputs): runs are the point's finished runs, one a spec, when it is
    unsupported or its data cannot be made (inputs None then); else inputs is (A, B, data,
    indices to check, validation mode text, note)."""
    params = common.resolve(point, state["defaults"], GENERATED_ONLY)
    why = unsupported_reason(point, params, state["label"], distance)
    if why:
        return params, [run_json(s, point, params, "unsupported", why) for s in specs], None
    try:
        a_list, b_list = generate(settings.ladder, point, state["defaults"], folder)
    except PeerError as err:  # the harness would refuse this point: an error run, not a stop
        return params, [run_json(s, point, params, "error", str(err)) for s in specs], None
    data = facts(a_list, b_list, params)
    mode = settings.validate or point["validation"]
    indices, text, why = plan_sample(a_list, b_list, mode, common.point_key(point["params"]),
                                     settings.max_cells)
    return params, [], (a_list, b_list, data, indices, text, why)


def fake_outputs(a_list, b_list, indices, distance, repetitions):
    """(samples, got) of --dry-run-fake: fixed timings, and the oracle's own values where
    checked (-1 elsewhere)."""
    samples = [1.0 + 0.1 * (i % 3) for i in range(repetitions)]
    got = np.full(len(a_list), -1, np.int64)
    got[indices] = [ORACLES[distance][0](a_list[k], b_list[k]) for k in indices.tolist()]
    return samples, got


def judge(got, indices, a_list, b_list, distance, text, why, fake, library):
    """(check, status, reason) of a run's outputs against the oracle."""
    check = dict(validate(got, indices, a_list, b_list, distance), mode=text, note=why)
    failed = check["failures"] > 0
    reason = (f"{check['failures']} of {check['checked']} outputs outside tolerance; first: "
              f"{check['first_failure']}" if failed else "")
    if fake:
        reason = f"FAKE timings (--dry-run-fake): {library} was not called"
    return check, "incorrect" if failed else "passed", reason


def run_points(script, args, points, state, point_runs):
    """Every point's runs, in a scratch folder, the results file rewritten after each point and
    once more with the finish time; returns the runs."""
    runs = []
    prefix = script.replace("_", "-").removesuffix(".py") + "-"
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        for i, point in enumerate(points, 1):
            got = point_runs(point, args, state, Path(tmp))
            runs += got
            progress(script, i, len(points), point, got, args.quiet)
            common.write_atomically(args.out, common.results_json(state, runs, ""))
    common.write_atomically(args.out, common.results_json(state, runs, common.now()))
    return runs


def exit_status(runs):
    """0 when every run passed or is unsupported/skipped, else 1."""
    return 0 if all(r["status"] in ("passed", "unsupported", "skipped") for r in runs) else 1


class Unavailable(Exception):
    """No CUDA device or no usable library: one line, exit status 2."""


def main(script, args, setup, point_runs, stop_early=lambda: None):
    """A peer script's run: `stop_early()` serves the install-only options (an exit status, or
    None to go on); then `setup(args)` gives the points and state and every point runs. Bad
    input or an unavailable library exits 2 with one line, a failed library call 1."""
    try:
        status = stop_early()
        if status is not None:
            return status
        points, state = setup(args)
        runs = run_points(script, args, points, state, point_runs)
    except Unavailable as err:
        print(f"{script}: {err}", file=sys.stderr)
        return 2
    except PeerError as err:
        print(f"{script}: error: {err}", file=sys.stderr)
        return 2
    except RuntimeError as err:
        print(f"{script}: {err}", file=sys.stderr)
        return 1
    common.note(script, f"results: {args.out}", args.quiet)
    return exit_status(runs)


# ---- packages into peers/cache/ --------------------------------------------------------------

def pip(args, what, env=None):
    """`python -m pip ARGS`; PeerError with pip's last line when it fails."""
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        lines = [x for x in (done.stderr + done.stdout).strip().splitlines()
                 if not x.startswith("WARNING")] or ["?"]
        raise PeerError(f"pip {args[0]} {what} failed: {lines[-1].strip()}")
    return done


def python_tag():
    return f"py{sys.version_info[0]}{sys.version_info[1]}"


def threads_available():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1

"""What every peer script shares: a ladder config expanded into points exactly as
harness/config.cpp expands it, the study's parameters from `ladder list --json`, and a results
file in the harness's layout (schema_version 1). No third-party import: numpy only where a
function needs it.

The peer scripts load this file by path (a few lines at the top of each) under the module name
`ladder_peers_common`, so that it never collides with plots/common.py; `load` here loads the
other files of peers/ the same way.
"""
import argparse
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# "reproduce" (the per-scale changes `ladder reproduce` makes) is accepted and ignored: a peer
# runs the config as written.
CONFIG_FIELDS = {"name", "study", "data", "params", "axes", "zip", "variants", "repetitions",
                 "warmup", "validation", "description", "sweeps", "timing", "figures",
                 "reproduce"}
SWEEP_FIELDS = {"label", "axes", "zip", "params", "variants", "figures", "data", "validation",
                "repetitions", "warmup"}


def load(name):
    """A sibling module of peers/ by path, as `ladder_peers_NAME` (never plots/common.py)."""
    key = f"ladder_peers_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, Path(__file__).with_name(f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


class Parser(argparse.ArgumentParser):
    """argparse with a bad option as one line on stderr and exit status 2, like every other bad
    input of a peer script."""

    def __init__(self, *args, script, **kwargs):
        super().__init__(*args, **kwargs)
        self.script = script

    def error(self, message):
        print(f"{self.script}: error: {message}", file=sys.stderr)
        sys.exit(2)


class PeerError(Exception):
    """Bad input: the message is one line for the user (exit status 2)."""


def shown(path):
    """A path relative to the repository when it is inside it (as results and messages name
    it: no machine's own folders), else as given."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def note(script, text, quiet=False):
    if not quiet:
        print(f"{script}: {text}", file=sys.stderr, flush=True)


# ---- the config, expanded as harness/config.cpp does -----------------------------------------

def param_text(name, value):
    """A JSON value as the harness writes it into a point (json_to_param: %.17g for reals)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "%.17g" % value
    if isinstance(value, str):
        return value
    raise PeerError(f"parameter '{name}' must be a number or a string, got {type(value).__name__}")


def object_field(obj, key, where):
    value = obj.get(key)
    if value is not None and not isinstance(value, dict):
        raise PeerError(f"'{where}{key}' must be an object")
    return value or {}


def parse_data(data, where):
    """(source, params) of a 'data' object: exactly one of generator or file, the rest params."""
    if not isinstance(data, dict):
        raise PeerError(f"'{where}data' must be an object")
    if ("generator" in data) == ("file" in data):
        raise PeerError(f"'{where}data' needs exactly one of 'generator' or 'file'")
    source = {k: data[k] for k in ("generator", "file") if k in data}
    params = {k: param_text(k, v) for k, v in data.items() if k not in source}
    return source, params


def check_disjoint(groups):
    """The same parameter at two places of one level is a conflict (as in the harness)."""
    seen = {}
    for where, obj in groups:
        for k in obj:
            if where == "data" and k in ("generator", "file"):
                continue
            if k in seen:
                raise PeerError(f"parameter '{k}' is given in both '{seen[k]}' and '{where}'; "
                                "give it once")
            seen[k] = where


def expand_axes(axes, zipped, fixed):
    """The product of `axes` (keys in sorted order, as nlohmann::json iterates), then `zip`."""
    points = [dict(fixed)]
    for key in sorted(axes):
        values = axes[key]
        if not isinstance(values, list) or not values:
            raise PeerError(f"product axis '{key}' must be a non-empty list")
        points = [dict(p, **{key: param_text(key, v)}) for p in points for v in values]
    if zipped:
        lengths = {len(v) if isinstance(v, list) and v else 0 for v in zipped.values()}
        if 0 in lengths or len(lengths) != 1:
            raise PeerError("'zip' axes must be non-empty lists of the same length")
        points = [dict(p, **{k: param_text(k, zipped[k][i]) for k in sorted(zipped)})
                  for p in points for i in range(lengths.pop())]
    return points


def parse_validation(text, where):
    if text in ("full", "off") or re.fullmatch(r"sample:[1-9][0-9]{0,8}", str(text)):
        return text
    raise PeerError(f"{where} must be full, off or sample:N, got {text!r}")


def sweep_points(sweep, index, source, data_params, fixed, validation):
    """The points of one sweep (or of a config without sweeps: index None)."""
    label = sweep.get("label", f"sweep{index + 1}") if index is not None else ""
    if not isinstance(label, str):
        raise PeerError("sweep 'label' must be a string")
    if "data" in sweep and index is not None:
        source, data_params = parse_data(sweep["data"], "sweeps[].")
    own = {k: object_field(sweep, k, "sweeps[]." if index is not None else "")
           for k in ("params", "axes", "zip")}
    if index is not None:
        check_disjoint([("data", sweep.get("data") or {})] + list(own.items()))
    check_disjoint([("data", data_params), ("params", fixed)])
    base = {**data_params, **fixed, **{k: param_text(k, v) for k, v in own["params"].items()}}
    if "validation" in sweep and index is not None:
        validation = parse_validation(sweep["validation"], "sweep 'validation'")
    # A sweep's own counts are the ladder's (checked here all the same); a peer takes the
    # config's, or its --repetitions and --warmup.
    for key in ("repetitions", "warmup"):
        for backend in ("cpu", "gpu"):
            backend_setting(sweep, key, backend, 1)
    return [{"params": p, "sweep": label, "source": source, "validation": validation}
            for p in expand_axes(own["axes"], own["zip"], base)]


def expand_config(config, study, peer):
    """Every point of the config in the harness's order: params, sweep label, data source and
    validation mode of each. `peer` names the library in the message for a config of another
    study."""
    if not isinstance(config, dict):
        raise PeerError("the config must be a JSON object")
    unknown = sorted(set(config) - CONFIG_FIELDS)
    if unknown:
        raise PeerError(f"unknown config field '{unknown[0]}'")
    if config.get("study") != study:
        raise PeerError(f"{peer} is a peer of the {study} study, the config's study is "
                        f"{config.get('study')!r}")
    if "data" not in config:
        raise PeerError("config needs a 'data' object")
    source, data_params = parse_data(config["data"], "")
    check_disjoint([("data", config["data"]), ("params", object_field(config, "params", ""))])
    fixed = {k: param_text(k, v) for k, v in object_field(config, "params", "").items()}
    validation = parse_validation(config.get("validation", "full"), "'validation'")
    sweeps = config.get("sweeps")
    if sweeps is None:
        return sweep_points(config, None, source, data_params, fixed, validation)
    if not isinstance(sweeps, list) or not sweeps or not all(isinstance(s, dict) for s in sweeps):
        raise PeerError("'sweeps' must be a non-empty list of objects")
    if "axes" in config or "zip" in config:
        raise PeerError("put 'axes' and 'zip' inside each sweep when 'sweeps' is given")
    points = []
    for i, sweep in enumerate(sweeps):
        unknown = sorted(set(sweep) - SWEEP_FIELDS)
        if unknown:
            raise PeerError(f"unknown sweep field '{unknown[0]}'")
        points += sweep_points(sweep, i, source, data_params, fixed, validation)
    return points


def backend_setting(config, key, backend, fallback):
    """The `backend` ("cpu" or "gpu") value of 'repetitions' or 'warmup': an integer or
    {"cpu": N, "gpu": M}."""
    value = config.get(key, fallback)
    value = value.get(backend, fallback) if isinstance(value, dict) else value
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100000:
        raise PeerError(f"'{key}' must be an integer in [0, 100000] or {{\"cpu\": N, \"gpu\": M}}")
    return value


def point_key(params):
    """The harness's point string: every given parameter, sorted, 'k=v' joined by ','."""
    return ",".join(f"{k}={params[k]}" for k in sorted(params))


def chosen_points(points, only, max_n=None):
    """The points of the sweeps named in `only` (comma-separated), none with n beyond max_n."""
    if max_n is not None:
        points = [p for p in points if int(p["params"].get("n", 0) or 0) <= max_n]
    if not only:
        return points
    wanted = [s for s in only.split(",") if s]
    labels = list(dict.fromkeys(p["sweep"] for p in points))
    unknown = [s for s in wanted if s not in labels]
    if unknown:
        raise PeerError(f"--only-sweeps: no sweep '{unknown[0]}' (the config has "
                        f"{', '.join(labels)})")
    return [p for p in points if p["sweep"] in wanted]


def read_config(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise PeerError(f"cannot read config {path}: {err.strerror or err}") from err
    except ValueError as err:
        raise PeerError(f"config {path} is not JSON: {err}") from err


# ---- the study's parameters, from the ladder binary ------------------------------------------

def run_ladder(ladder, args):
    try:
        done = subprocess.run([str(ladder), *args], capture_output=True, text=True)
    except OSError as err:
        raise PeerError(f"cannot run ladder at {ladder}: {err.strerror or err} (build it: "
                        "cmake --build build --target ladder)") from err
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["(no message)"]
        raise PeerError(f"ladder {args[0]} failed: {lines[-1]}")
    return done.stdout


def study_params(ladder, study):
    """{name: default ('' when none)} of the study's data parameters."""
    studies = json.loads(run_ladder(ladder, ["list", "--json"]))["studies"]
    found = next((s for s in studies if s.get("name") == study), None)
    if found is None:
        raise PeerError(f"{ladder} has no {study} study")
    return {p["name"]: p.get("default", "") for p in found["data_params"]}


def resolve(point, defaults, generated_only):
    """The run's params as the harness records them: the defaults under the given values
    (parameters in `generated_only` only for generated data)."""
    generated = "generator" in point["source"]
    params = {k: v for k, v in defaults.items()
              if v != "" and (generated or k not in generated_only)}
    params.update(point["params"])
    return dict(sorted(params.items()))


# ---- results in the harness's layout ---------------------------------------------------------

def timing_json(samples, warmup):
    """The harness's timing object: median, min, max, mean, sample stddev, cv."""
    import numpy as np  # every peer has numpy; this module itself does not need it
    s = np.asarray(samples, np.float64)
    std = float(s.std(ddof=1)) if len(s) > 1 else 0.0
    return {"unit": "ms", "mode": "hot", "warmup": warmup, "samples": [float(x) for x in s],
            "median": float(np.median(s)), "min": float(s.min()), "max": float(s.max()),
            "mean": float(s.mean()), "stddev": std, "cv": std / float(s.mean())}


def finite(x):
    """JSON has no NaN or infinity: the harness writes them as null."""
    return float(x) if math.isfinite(x) else None


def peer_config(config):
    """The config as run, without the 'ladder' figure: the peer's runs alone would overwrite
    the ladder figures of the steps' results file at the same points."""
    out = json.loads(json.dumps(config))
    for owner in [out] + (out.get("sweeps") or []):
        if isinstance(owner, dict) and isinstance(owner.get("figures"), list):
            owner["figures"] = [f for f in owner["figures"] if f != "ladder"]
    return out


def results_json(state, runs, finished):
    """The whole results file (schema_version 1) with a 'peer' object saying how it was made."""
    counts = {}
    for r in runs:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    return {"schema_version": 1, "ladder": state["build"], "host": host_json(),
            "device": state["device"], "config": peer_config(state["config"]),
            "config_path": state["config_path"], "validation_mode": state["validation_mode"],
            "profile": False, "timing_mode": "hot", "started_at": state["started_at"],
            "finished_at": finished, "runs_planned": state["planned"],
            "complete": bool(finished) and len(runs) == state["planned"], "summary": counts,
            "peer": state["peer"], "runs": runs}


def host_json():
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count()}


def write_atomically(path, obj):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(obj, indent=2, allow_nan=False) + "\n")
    os.replace(tmp, path)


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def git_commit():
    """The tree's commit, when git can tell ('unknown' otherwise)."""
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
                                capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return commit or "unknown"


def build_info(version, script, cuda_arch=""):
    """The results file's 'ladder' object for a peer's numbers."""
    return {"version": version, "git_commit": git_commit(), "build_type": "peer",
            "cuda_arch": cuda_arch, "peer_script": script}


# ---- a CUDA device, through the runtime a library loaded -------------------------------------

def loaded_cudart():
    """The libcudart already mapped into this process (the one a library loaded), or None."""
    try:
        for line in Path("/proc/self/maps").read_text().splitlines():
            if "libcudart.so" in line:
                return line.split(None, 5)[-1]
    except OSError:
        pass
    return None


def cuda_device(rt, index=0):
    """What the harness records of a device (harness/device_info.cpp), through a ctypes
    handle on libcudart; the name and SM clock from nvidia-smi's row of the same bus."""
    import ctypes
    value, count = ctypes.c_int(), ctypes.c_int()
    free, total = ctypes.c_size_t(), ctypes.c_size_t()

    def check(code, what):
        if code != 0:
            rt.cudaGetErrorString.restype = ctypes.c_char_p
            raise RuntimeError(f"{what}: {rt.cudaGetErrorString(code).decode()}")

    def attribute(attr):
        check(rt.cudaDeviceGetAttribute(ctypes.byref(value), attr, index), "attribute")
        return value.value

    check(rt.cudaGetDeviceCount(ctypes.byref(count)), "cudaGetDeviceCount")
    check(rt.cudaSetDevice(index), "cudaSetDevice")
    check(rt.cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total)), "cudaMemGetInfo")
    bus = ctypes.create_string_buffer(64)
    check(rt.cudaDeviceGetPCIBusId(bus, 64, index), "cudaDeviceGetPCIBusId")
    versions = [ctypes.c_int(), ctypes.c_int()]
    rt.cudaDriverGetVersion(ctypes.byref(versions[0]))
    rt.cudaRuntimeGetVersion(ctypes.byref(versions[1]))
    text = [f"{v.value // 1000}.{v.value % 1000 // 10}" for v in versions]
    device = {"present": True, "index": index, "bus_id": bus.value.decode(),
              "compute_capability": f"{attribute(75)}.{attribute(76)}",
              "sm_count": attribute(16), "memory_bytes": total.value,
              "shared_memory_per_block_optin": attribute(97),
              "max_sm_clock_mhz": attribute(13) // 1000,
              "driver_version": text[0], "runtime_version": text[1]}
    return nvidia_smi_names(device)


def nvidia_smi_names(device):
    """The GPU's name and current SM clock, from nvidia-smi's row with the same PCI bus id."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=pci.bus_id,name,clocks.sm",
                              "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    bus = device.get("bus_id", "").lower().split(":", 1)[-1]
    for line in out.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) == 3 and fields[0].lower().endswith(bus) and bus:
            device["name"] = fields[1]
            if fields[2].isdigit():
                device["sm_clock_mhz_start"] = int(fields[2])
    device.setdefault("name", "unknown")
    return device


def has_gpu():
    """'' when nvidia-smi lists a GPU, else why not."""
    try:
        done = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "no CUDA device (nvidia-smi not found)"
    return "" if done.returncode == 0 and "GPU" in done.stdout else "no CUDA device " \
        "(nvidia-smi lists none)"

"""The one reader of ladder results files (what `ladder run` and `ladder ingest` write).

    files = ladder_results.load_all(["results/dtw-paper.json", "results/reference/h100/development/"])
    for run in files[0].runs:
        print(run.id, run.status, run.seconds, run.metric, run.unit)

load() checks the layout once and raises ResultsError (one line) otherwise, so that callers
take every run and field as given; the accessors settle old spellings in one place.
Standard library only; pandas is needed by to_dataframe() alone.
"""
import json
import math
from pathlib import Path

SCHEMA_VERSION = 1  # the only layout read here; a harness that changes it bumps it
# For results files written before runs named their metric and its unit.
METRIC_KEYS = ("gcups", "gflops", "gbps", "points_per_s")
UNITS = {"gcups": "GCUPS", "gflops": "GFLOP/s", "gbps": "GB/s", "points_per_s": "points/s"}


class ResultsError(Exception):
    """A file that is not a ladder results file; the message is one line meant for the user."""


def number(value):
    """Finite float of a number or numeric string, else None."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def _dict(value):
    return value if isinstance(value, dict) else {}


class Run:
    """One run of a results file: a variant at a point, as the harness recorded it."""

    def __init__(self, raw, file):
        self.raw, self.file = raw, file

    def __repr__(self):
        return f"Run({self.id} step {self.step} {self.point!r} {self.status})"

    study = property(lambda self: self.raw.get("study"))
    variant = property(lambda self: self.raw.get("variant"))
    run_index = property(lambda self: self.raw.get("run_index"))  # its place in the config's plan
    # In a merged file (`ladder merge`): the shard that ran it and its GPU and host.
    shard = property(lambda self: self.raw.get("shard"))
    device = property(lambda self: _dict(self.raw.get("device")))
    id = property(lambda self: f"{self.study}/{self.variant}")
    step = property(lambda self: self.raw.get("step"))
    label = property(lambda self: self.raw.get("label") or self.variant or "?")
    backend = property(lambda self: self.raw.get("backend"))
    precision = property(lambda self: self.raw.get("precision"))
    point = property(lambda self: self.raw.get("point") or "")
    sweep = property(lambda self: self.raw.get("sweep") or "")
    params = property(lambda self: _dict(self.raw.get("params")))
    status = property(lambda self: self.raw.get("status"))
    passed = property(lambda self: self.status == "passed")
    reason = property(lambda self: (self.raw.get("reason") or "").strip())
    # Why a GPU run ran emulated on its GPU (DPX before compute capability 9.0); "" when native.
    emulated = property(lambda self: (self.raw.get("emulated") or "").strip())
    validation = property(lambda self: _dict(self.raw.get("validation")))
    data = property(lambda self: _dict(self.raw.get("data")))
    facts = property(lambda self: _dict(self.raw.get("facts")))
    timing = property(lambda self: _dict(self.raw.get("timing")))
    metrics = property(lambda self: _dict(self.raw.get("metrics")))
    extras = property(lambda self: _dict(self.raw.get("extras")))

    @property
    def role(self):
        """baseline / step / peer; in files from before the field, step 1 is the baseline."""
        return self.raw.get("role") or ("baseline" if self.step == 1 else "step")

    is_peer = property(lambda self: self.role == "peer")
    is_baseline = property(lambda self: self.role == "baseline")
    is_step = property(lambda self: self.role == "step")

    @property
    def samples_ms(self):
        return [s for s in map(number, self.timing.get("samples") or []) if s is not None]

    @property
    def median_ms(self):
        """Median time in ms, whatever the status; None when untimed (nothing a log axis shows)."""
        median = number(self.timing.get("median"))
        return median if median and median > 0 else None

    @property
    def seconds(self):
        """Median seconds of a passed, timed run: a time to compare; None otherwise."""
        return self.median_ms / 1000 if self.passed and self.median_ms else None

    @property
    def metric_name(self):
        return self.raw.get("metric") or next((k for k in METRIC_KEYS if k in self.metrics), None)

    @property
    def metric(self):
        """The run's metric (GCUPS, GFLOP/s, ...) when it was timed, else None."""
        value = number(self.metrics.get(self.metric_name))
        return value if self.median_ms and value and value > 0 else None

    @property
    def unit(self):
        return self.metrics.get("unit") or UNITS.get(self.metric_name, self.metric_name)

    pct_of_peak = property(lambda self: number(self.metrics.get("pct_of_peak")))
    # Why a limit the study claims is unknown on this GPU (pct_of_peak is then null); "" else.
    peak_reason = property(lambda self: (self.metrics.get("peak_reason") or "").strip())


class ResultsFile:
    """A results file: its config, device, provenance and runs."""

    def __init__(self, path, raw):
        self.path, self.raw = Path(path), raw
        self.runs = [Run(r, self) for r in raw["runs"]]

    def __repr__(self):
        return f"ResultsFile({str(self.path)!r}, {len(self.runs)} runs)"

    config = property(lambda self: _dict(self.raw.get("config")))
    name = property(lambda self: self.config.get("name"))
    device = property(lambda self: _dict(self.raw.get("device")))
    device_name = property(lambda self: self.device.get("name") or "")
    commit = property(lambda self: _dict(self.raw.get("ladder")).get("git_commit"))
    scale = property(lambda self: self.raw.get("scale"))
    complete = property(lambda self: bool(self.raw.get("complete")))
    host = property(lambda self: _dict(self.raw.get("host")))
    runs_planned = property(lambda self: self.raw.get("runs_planned"))
    summary = property(lambda self: _dict(self.raw.get("summary")))
    # A shard's file: {index, count, plan_hash, runs_total, owners}; a merged file: its shards.
    shard = property(lambda self: _dict(self.raw.get("shard")))
    shards = property(lambda self: [s for s in self.raw.get("shards") or [] if isinstance(s, dict)])

    @property
    def study(self):
        return self.config.get("study") or next((r.study for r in self.runs), None)

    @property
    def peer(self):
        peer = self.raw.get("peer")
        return peer if isinstance(peer, dict) else None

    def to_dataframe(self):
        """One row per run: the file's name and the runs' accessors (params as param.KEY)."""
        try:
            import pandas
        except ImportError:
            raise ImportError("to_dataframe() needs pandas: "
                              "python3 -m pip install pandas") from None
        fields = ("study", "variant", "id", "step", "label", "role", "backend", "precision",
                  "point", "sweep", "status", "reason", "emulated", "median_ms", "seconds",
                  "metric_name", "metric", "unit", "pct_of_peak", "peak_reason")
        return pandas.DataFrame([{"config": self.name, **{f: getattr(r, f) for f in fields},
                                  **{f"param.{k}": v for k, v in r.params.items()}}
                                 for r in self.runs])


def _check(path, raw):
    version = raw.get("schema_version") if isinstance(raw, dict) else None
    if version != SCHEMA_VERSION:
        raise ResultsError(f"{path}: schema_version is {version!r}, expected {SCHEMA_VERSION}; "
                           "is it a ladder results file?")
    config = raw.get("config")
    sweeps = (config.get("sweeps") or []) if isinstance(config, dict) else []
    if not all(isinstance(x, list) and all(isinstance(i, dict) for i in x)
               for x in (raw.get("runs"), sweeps)):
        raise ResultsError(f"{path}: 'runs' or 'config.sweeps' is not a list of objects")
    for owner in [config or {}] + sweeps:
        names = owner.get("figures", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ResultsError(f"{path}: a 'figures' field is not a list of names")


def _read(path):
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise ResultsError(f"{path}: cannot read: {err.strerror or err}") from err
    except ValueError as err:  # JSON or UTF-8
        raise ResultsError(f"{path}: not a JSON results file: {err}") from err


def load(path):
    """The ResultsFile at `path`; ResultsError when it is not a ladder results file."""
    raw = _read(path)
    _check(path, raw)
    return ResultsFile(path, raw)


def is_manifest(raw):
    """Whether a JSON value is a reproduction manifest (reproduction.json, as `ladder
    reproduce` and report.py write it): no schema_version, a list of configs."""
    return isinstance(raw, dict) and "schema_version" not in raw and "configs" in raw


def load_all(paths):
    """ResultsFiles of the given files and folders; a folder gives each *.json results file in
    it, by name. A reproduction manifest is left out, given by name or in a folder, so that
    `DIR/*.json` and DIR read the same; any other file that is not a results file (a damaged
    one included) raises ResultsError."""
    out = []
    for path in map(Path, paths):
        for member in sorted(path.glob("*.json")) if path.is_dir() else [path]:
            raw = _read(member)
            if not is_manifest(raw):
                _check(member, raw)
                out.append(ResultsFile(member, raw))
    return out

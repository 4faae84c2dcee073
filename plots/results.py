"""The one reader of ladder results files (what `ladder run` and `ladder ingest` write).

    from plots import results   # installed: from ladder.plots import results
    files = results.load_all(["results/dtw-paper.json", "results/reference/h100/development/"])
    for run in files[0].runs:
        print(run.id, run.status, run.seconds, run.metric, run.unit)
    table = results.to_dataframe("results/reference/h100/development/")  # pandas; or records()

load() checks the layout and the type of every field the accessors and figures read once,
and raises ResultsError (one line) otherwise, so that callers take every run and field as
given; the accessors settle old spellings in one place. Every file a script is given is read
through read_json() here: regular files only. Standard library only; pandas is needed by
to_dataframe() alone (imported when it is called).

A run's time comes with its 95% interval (Run.interval_ms), and a ratio of two runs' times
with its own (ratio_interval): the figures' whiskers and the report's intervals are these.
"""
import functools
import json
import math
import os
import stat
import statistics
from pathlib import Path

# The layouts read here; a harness that changes one bumps it. 2 adds the processes of a
# K-process file (a `processes` block, and per timed run the medians of its processes).
SCHEMA_VERSIONS = {1, 2}
# For results files written before runs named their metric and its unit.
METRIC_KEYS = ("gcups", "gflops", "gbps", "points_per_s")
UNITS = {"gcups": "GCUPS", "gflops": "GFLOP/s", "gbps": "GB/s", "points_per_s": "points/s"}


class ResultsError(Exception):
    """A file that is not a ladder results file; the message is one line meant for the user."""


# No measurement comes near these magnitudes; beyond them the figures' arithmetic (a ratio of
# two values, an axis padded by a factor) leaves the floats, so such a value counts as none.
LARGEST, SMALLEST = 1e30, 1e-30


def number(value):
    """Finite float of a number or numeric string within LARGEST and SMALLEST in magnitude
    (or 0), else None."""
    try:
        value = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return value if value == 0 or SMALLEST <= abs(value) <= LARGEST else None


def _dict(value):
    return value if isinstance(value, dict) else {}


# ---- the 95% interval of a time ------------------------------------------------------------

LEVEL = 0.95  # of every interval a figure or the report shows


def _beta_fraction(a, b, x):
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 100000):
        for step in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                     -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + step * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + step / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1) < 1e-16:
            break
    return f


def _beta_inc(a, b, x):
    """I_x(a, b), the regularized incomplete beta function, for 0 < x < 1."""
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):  # where the fraction converges fast; else by symmetry
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _t_tail(t, df):
    """P(T > t) of Student's t with df degrees of freedom, t > 0."""
    return 0.5 * _beta_inc(df / 2, 0.5, df / (df + t * t))


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    """The p quantile of Student's t distribution with df degrees of freedom (df > 0, a
    fraction too: Welch's), 0 < p < 1: the t where its CDF is p, by bisection on the CDF.
    The standard library has none, and scipy is no dependency of the figures."""
    if not (0 < p < 1 and df > 0):
        raise ValueError(f"t_quantile({p!r}, {df!r}): needs 0 < p < 1 and df > 0")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if p == 0.5:
        return 0.0
    lo, hi = 0.0, 1.0
    while _t_tail(hi, df) > 1 - p:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-13 * hi:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _t_tail(mid, df) > 1 - p else (lo, mid)
    return (lo + hi) / 2


class Interval(tuple):
    """(lo, hi) of a time or of a ratio of times, and what it is: `processes` >= 2 (its
    `confidence`), a 95% confidence interval over the medians of that many processes (of a
    ratio: Welch's, `processes` the fewer of the two runs'); 1, the range of the samples
    (min..max), which says how one process's samples spread, not where another process
    would land: no confidence interval."""

    def __new__(cls, lo, hi, processes=1):
        interval = super().__new__(cls, (lo, hi))
        interval.processes = processes
        return interval

    def __getnewargs__(self):
        return (*self, self.processes)

    def __repr__(self):
        return f"Interval({self[0]!r}, {self[1]!r}, processes={self.processes})"

    confidence = property(lambda self: self.processes >= 2)

    def like(self, lo, hi):
        """The interval on another scale (another unit, a rate), of the same kind."""
        return Interval(min(lo, hi), max(lo, hi), self.processes)


def _log_mean_sd(values):
    logs = [math.log(v) for v in values]
    return statistics.fmean(logs), statistics.stdev(logs)


def ratio_interval(num, den):
    """The 95% interval of run num's time over run den's, an Interval; None when either has
    no time. Both of K >= 2 processes: Welch's t interval of the ratio of the geometric
    means of their process medians (log scale, Welch-Satterthwaite degrees of freedom).
    Otherwise the ratio's range from the two runs' intervals (num's low end over den's high
    end .. num's high end over den's low end): a sample range, where a run ran one process."""
    a, b = num.interval_ms, den.interval_ms
    if a is None or b is None:
        return None
    if not (a.confidence and b.confidence):
        return Interval(a[0] / b[1], a[1] / b[0])
    (mean_a, sd_a), (mean_b, sd_b) = (_log_mean_sd(r.process_medians) for r in (num, den))
    k_a, k_b = num.process_count, den.process_count
    var_a, var_b = sd_a * sd_a / k_a, sd_b * sd_b / k_b
    half = 0.0
    if var_a + var_b > 0:
        df = (var_a + var_b) ** 2 / (var_a ** 2 / (k_a - 1) + var_b ** 2 / (k_b - 1))
        half = t_quantile(0.5 + LEVEL / 2, df) * math.sqrt(var_a + var_b)
    return Interval(math.exp(mean_a - mean_b - half), math.exp(mean_a - mean_b + half),
                    min(k_a, k_b))


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
    def process_medians(self):
        """The median time in ms of each process that timed the run: timing.process_medians
        of a K-process file (schema_version 2), [median] of a one-process file, [] untimed."""
        medians = [m for m in map(number, self.timing.get("process_medians") or [])
                   if m and m > 0]
        return medians or ([self.median_ms] if self.median_ms else [])

    process_count = property(lambda self: len(self.process_medians))  # K; 0 when untimed

    @property
    def interval_ms(self):
        """The 95% interval of the run's time in ms, an Interval; None when untimed. Of K >= 2
        processes: the t interval of the geometric mean of the process medians,
        exp(mean log +- t(0.975, K - 1) sd log / sqrt K) (interval.confidence). Of one process:
        the min..max of its samples (timing.min, timing.max), a sample range and no confidence
        interval; (median, median) where it has none, or one that leaves out its median."""
        ms, medians = self.median_ms, self.process_medians
        if not ms:
            return None
        if len(medians) >= 2:
            mean, sd = _log_mean_sd(medians)
            half = t_quantile(0.5 + LEVEL / 2, len(medians) - 1) * sd / math.sqrt(len(medians))
            return Interval(math.exp(mean - half), math.exp(mean + half), len(medians))
        lo, hi = number(self.timing.get("min")), number(self.timing.get("max"))
        return Interval(lo, hi) if lo and hi and 0 < lo <= ms <= hi else Interval(ms, ms)

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
    # Which bound the limit (pct_of_peak's peak) is: "compute" or "memory"; None in files
    # written before the memory bound was, or where no limit is known.
    binds = property(lambda self: _dict(self.metrics.get("bounds")).get("binds"))

    def bound(self, kind):
        """The run's "compute" or "memory" bound: {peak, limit, rule, reason, bytes}, the
        fields it has ({} in files written before the bounds were)."""
        return _dict(_dict(self.metrics.get("bounds")).get(kind))


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

    # A K-process file's processes (schema_version 2): count, mode, list, ...; {} otherwise.
    processes = property(lambda self: _dict(self.raw.get("processes")))

    @property
    def peer(self):
        peer = self.raw.get("peer")
        return peer if isinstance(peer, dict) else None

    def records(self):
        """One dict per run: the file's name and the runs' accessors (params as param.KEY);
        the rows of to_dataframe(), without pandas."""
        return [{"config": self.name, **{f: getattr(r, f) for f in RECORD_FIELDS},
                 **_interval_columns(r.interval_ms),
                 **{f"param.{k}": v for k, v in r.params.items()}}
                for r in self.runs]

    def to_dataframe(self):
        """records() as a pandas DataFrame, a row per run."""
        return _pandas().DataFrame(self.records())


# records()' columns after `config`, each a Run accessor
RECORD_FIELDS = ("study", "variant", "id", "step", "label", "role", "backend", "precision",
                 "point", "sweep", "status", "reason", "emulated", "median_ms", "seconds",
                 "metric_name", "metric", "unit", "pct_of_peak", "binds", "peak_reason",
                 "process_count")


def _pandas():
    """pandas, imported only here: everything else in this module is standard library."""
    try:
        import pandas
    except ImportError:
        raise ImportError("to_dataframe() needs pandas: python3 -m pip install pandas (or "
                          "install this package with its extra: pip install "
                          "'ladder-harness[dataframe]')") from None
    return pandas


def records(path):
    """A dict per run of the results file at PATH, or of every results file in the folder PATH
    (load_all); ResultsError when one is not a results file."""
    return [row for results in load_all([path]) for row in results.records()]


def to_dataframe(path):
    """records(PATH) as a pandas DataFrame (ImportError, saying how to get pandas, without)."""
    return _pandas().DataFrame(records(path))


def _interval_columns(interval):
    """to_dataframe's columns of a run's interval: its ends in ms, and whether it is a 95%
    confidence interval (K >= 2 processes) or the samples' min..max (one process)."""
    return {"interval_lo_ms": interval[0] if interval else None,
            "interval_hi_ms": interval[1] if interval else None,
            "interval_is_ci": interval.confidence if interval else None}


# The type of each field the accessors and figures read, where present and not null (the
# accessors take a missing field as empty): a field of another type is refused here once,
# rather than failing deep in a figure. A type, NUMBER (int or float) or SCALAR (text, a number
# or true/false); {key: type}: an object whose fields have these types, "*" standing for any
# key; [type]: a list whose items all have that type.
NUMBER, SCALAR = (int, float), (str, int, float, bool)
BOUND = {"peak": NUMBER, "limit": str, "rule": str, "reason": str, "bytes": NUMBER}
TEXT_FIELDS = ("study", "variant", "label", "backend", "precision", "point", "sweep", "status",
               "reason", "emulated", "role", "metric", "change")
RUN_FIELDS = {**dict.fromkeys(TEXT_FIELDS, str), "step": int, "run_index": int,
              "params": {"*": SCALAR}, "data": {"*": NUMBER}, "facts": {"*": NUMBER},
              "extras": {"*": NUMBER}, "validation": dict, "device": {"name": str},
              "timing": {"samples": list, "mode": str, "process_medians": [NUMBER],
                         "processes": [{"process": int, "samples": list, "median": NUMBER}],
                         "geomean_of_process_medians": NUMBER, "sd_log_between": NUMBER,
                         "sd_log_within": NUMBER, "sd_log_process": NUMBER, "icc": NUMBER},
              "metrics": {"unit": str, "limit": str, "peak_rule": str, "peak_reason": str,
                          "bounds": {"binds": str, "compute": BOUND, "memory": BOUND}}}
FIGURES = [str]  # a config's or a sweep's figure names
FILE_FIELDS = {"config": {"name": str, "study": str, "figures": FIGURES,
                          "sweeps": [{"label": str, "figures": FIGURES}]},
               "runs": [RUN_FIELDS], "device": {"name": str}, "host": dict,
               "ladder": {"git_commit": str, "version": str}, "summary": {"*": NUMBER},
               "shard": dict, "shards": list, "peer": dict, "scale": str, "started_at": str,
               "finished_at": str, "config_path": str, "runs_planned": int,
               "processes": {"count": int, "mode": str, "side": str, "seed": int,
                             "order": [str], "binary": {"path": str, "sha256": str,
                                                        "git_commit": str},
                             "list": [dict]}}
TYPE_NAMES = {str: "text", int: "an integer", NUMBER: "a number", SCALAR: "text or a number",
              dict: "an object", list: "a list", bool: "true or false"}


def _kind(value):
    """What a JSON value is, in the words of TYPE_NAMES."""
    for kind in (bool, str, int, NUMBER, dict, list):
        if isinstance(value, kind):
            return TYPE_NAMES[kind]
    return "null"


def _is(value, kind):
    """Whether a JSON value has the type `kind` (true and false are no numbers)."""
    return isinstance(value, kind) and (kind in (bool, SCALAR) or not isinstance(value, bool))


def check_fields(where, raw, fields, name=""):
    """ResultsError naming the first field of the object `raw` that is not of its type in
    `fields` (a table in FILE_FIELDS' form), after `where` (the file), by its name in `raw`."""
    for key, value in raw.items():
        want = fields.get(key, fields.get("*"))
        if want is not None and value is not None:
            check_value(where, value, want, f"{name}{key}")


def check_value(where, value, want, name):
    """ResultsError when the value of field `name` is not of the type `want` (a null item of a
    list included)."""
    kind = {dict: dict, list: list}.get(type(want), want)
    if not _is(value, kind):
        raise ResultsError(f"{where}'{name}' is {_kind(value)}, expected {TYPE_NAMES[kind]}")
    if isinstance(want, dict):
        check_fields(where, value, want, f"{name}.")
    elif isinstance(want, list):
        for i, item in enumerate(value):
            check_value(where, item, want[0], f"{name}[{i}]")


def _check(path, raw):
    version = raw.get("schema_version") if isinstance(raw, dict) else None
    if version not in SCHEMA_VERSIONS or isinstance(version, bool):
        raise ResultsError(f"{path}: schema_version is {version!r}, expected "
                           f"{' or '.join(map(str, sorted(SCHEMA_VERSIONS)))}; "
                           "is it a ladder results file?")
    if not isinstance(raw.get("runs"), list):
        raise ResultsError(f"{path}: 'runs' is {_kind(raw.get('runs'))}, expected a list")
    check_fields(f"{path}: ", raw, FILE_FIELDS)


def file_kind(mode):
    """'a folder', 'a FIFO', 'a device', ... of a file that is not a regular one."""
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def read_regular(path):
    """The bytes of the regular file at `path`; ResultsError (one line) for anything else. A
    FIFO or a device is never opened (stat first), and the open does not block (O_NONBLOCK)
    and is checked again, so that one swapped in meanwhile cannot block the read either."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as f:
                mode = os.fstat(f.fileno()).st_mode
                data = f.read() if stat.S_ISREG(mode) else None
    except OSError as err:
        raise ResultsError(f"{path}: cannot read: {err.strerror or err}") from err
    if not stat.S_ISREG(mode):
        raise ResultsError(f"{path}: is {file_kind(mode)}, not a regular file")
    if data is None:  # a file of /proc with nothing to read yet: it would have blocked
        raise ResultsError(f"{path}: cannot read: it would block")
    return data


def read_json(path, what="a JSON results file"):
    """The JSON value in the regular file at `path`; ResultsError (one line) when it is not
    `what`, nested too deeply for the parser included."""
    data = read_regular(path)
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError as err:
        raise ResultsError(f"{path}: not {what}: nested too deeply") from err
    except ValueError as err:  # JSON or UTF-8
        raise ResultsError(f"{path}: not {what}: {err}") from err


def load(path, validate=False):
    """The ResultsFile at `path`; ResultsError when it is not a ladder results file, or with
    `validate`, when it breaks plots/schemas/results.schema.json (which needs jsonschema)."""
    raw = read_json(path)
    _check(path, raw)
    if validate:
        from . import schema  # only here: reading needs no jsonschema
        try:
            problems = schema.validate("results", raw)
        except schema.SchemaError as err:
            raise ResultsError(f"{path}: {err}") from err
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise ResultsError(f"{path}: does not match the results schema: {problems[0]}{more}")
    return ResultsFile(path, raw)


def is_manifest(raw):
    """Whether a JSON value is a reproduction manifest (reproduction.json, as `ladder
    reproduce` and report.py write it): no schema_version, a list of configs."""
    return isinstance(raw, dict) and "schema_version" not in raw and "configs" in raw


def is_claims(raw):
    """Whether a JSON value is the claims document a report writes beside it (claims.json:
    a report, a list of claims, no runs)."""
    return (isinstance(raw, dict) and isinstance(raw.get("claims"), list) and "report" in raw
            and "runs" not in raw)


def load_all(paths):
    """ResultsFiles of the given files and folders; a folder gives each *.json results file in
    it, by name. A reproduction's manifest and claims.json are left out, given by name or in a
    folder, so that `DIR/*.json` and DIR read the same; any other file that is not a results
    file (a damaged one included) raises ResultsError."""
    out = []
    for path in map(Path, paths):
        for member in sorted(path.glob("*.json")) if path.is_dir() else [path]:
            raw = read_json(member)
            if not (is_manifest(raw) or is_claims(raw)):
                _check(member, raw)
                out.append(ResultsFile(member, raw))
    return out

"""What every peer shares: arguments and --ready, the plan, `ladder gen`, the timing loop, the
handover, `ladder ingest`, and helpers that fetch and build libraries (peers/README.md)."""
import argparse
import contextlib
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "peers" / "cache"  # fetched packages and builds (git-ignored)
# The ladder binary beside these scripts: a build tree's, or an installed tree's (PREFIX/bin/
# ladder beside PREFIX/share/ladder/peers), else the one on PATH.
LADDER = next((str(p) for p in (ROOT / "build" / "ladder", ROOT.parent.parent / "bin" / "ladder")
               if p.is_file()), "ladder")
CUDA_HOME = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
PY = f"py{sys.version_info[0]}{sys.version_info[1]}"  # packages built for this Python
REPLAY = {"replay": "outputs of `ladder run --dump-outputs`; the library was not called"}


class PeerError(Exception):
    """Bad input, or a library that cannot be had: one line, exit status 2."""


class NotReady(Exception):
    """Why `--ready` says no, and how to make the peer ready (one line)."""


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr and exit status 2."""

    def error(self, message):
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def shown(path):
    """A path relative to the project when inside it (no machine's own folders in results)."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def note(args, text):
    if not args.quiet:
        print(f"{args.prog}: {text}", file=sys.stderr, flush=True)


def one_line(text):
    return " ".join(str(text).split())


def open_regular(path, what=""):
    """The regular file at PATH, open for reading in binary; PeerError (WHAT, e.g. '--sdist',
    names it) for anything else or when it cannot be opened. A FIFO or a device is never
    opened (stat first) and the open does not block (O_NONBLOCK), checked again on what was
    opened, so that a FIFO swapped in meanwhile cannot block a read either."""
    named = f"{what} {path}".strip()
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            f = os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb")
            if stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return f
            f.close()
    except OSError as err:
        raise PeerError(f"{named}: cannot read: {err.strerror or err}") from err
    raise PeerError(f"{named}: not a regular file")


def read_regular(path, what=""):
    """The bytes of the regular file at PATH (open_regular)."""
    with open_regular(path, what) as f:
        try:
            data = f.read()
        except OSError as err:  # a file of /proc that cannot be read, a disk error
            data, why = None, err.strerror or err
        else:  # None: a file of /proc with nothing to read yet, which would have blocked
            why = "it would block"
    if data is None:
        raise PeerError(f"{what} {path}".strip() + f": cannot read: {why}")
    return data


@contextlib.contextmanager
def removed_on_failure(folder):
    """Whatever of FOLDER (and the folders above it) the block makes, removed again when the
    block fails: a refused build or copy leaves no empty cache behind."""
    missing = None
    for f in [Path(folder), *Path(folder).parents]:
        if f.exists():
            break
        missing = f
    try:
        yield
    except BaseException:
        if missing is not None:
            shutil.rmtree(missing, ignore_errors=True)
        raise


def ladder(args, *argv, cwd=None):
    """(ladder's stdout, '') or (None, its error line)."""
    scale = ["--scale", args.scale] if args.scale else []
    try:
        done = subprocess.run([args.ladder, *argv, *scale], capture_output=True, text=True,
                              cwd=cwd)
    except OSError as err:
        raise PeerError(f"cannot run ladder at {args.ladder}: {err.strerror or err} (build it: "
                        "cmake --build build --target ladder)") from err
    if done.returncode == 0:
        return done.stdout, ""
    lines = (done.stderr or done.stdout).strip().splitlines() or ["(no message)"]
    return None, lines[-1].removeprefix("ladder: error: ")


def ladder_json(args, out, command):
    """The JSON object `ladder COMMAND --json` printed (OUT); PeerError when --ladder printed
    anything else."""
    try:
        value = json.loads(out)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise PeerError(f"--ladder {args.ladder}: `ladder {command} --json` printed no JSON "
                        f"object ({one_line(out)[:60] or 'nothing'}); is it ladder?")
    return value


# What each point of `ladder plan --json` holds that the peers read.
PLAN_POINT = {"point": int, "key": str, "sweep": str, "params": dict, "warmup": dict,
              "repetitions": dict}


def plan_points(args, study):
    """The points of the config that this run hands over, as `ladder plan --json` lists them."""
    out, error = ladder(args, "plan", args.config, "--json")
    if error:
        raise PeerError(f"ladder plan: {error}")
    plan = ladder_json(args, out, "plan")
    points = plan.get("points")
    if not isinstance(points, list) or not all(
            isinstance(p, dict) and all(isinstance(p.get(k), t) for k, t in PLAN_POINT.items())
            for p in points):
        raise PeerError(f"--ladder {args.ladder}: `ladder plan --json` printed no plan of "
                        "points; is it ladder?")
    if plan.get("study") != study:
        raise PeerError(f"{args.prog} is a peer of the {study} study; {args.config} is a "
                        f"{plan.get('study')} config")
    wanted = [s for s in (args.only_sweeps or "").split(",") if s]
    labels = list(dict.fromkeys(p["sweep"] for p in points))
    unknown = [s for s in wanted if s not in labels]
    if unknown:
        raise PeerError(f"--only-sweeps: no sweep '{unknown[0]}' (the config has "
                        f"{', '.join(labels) or 'no sweeps'})")
    return [p for p in points if not wanted or p["sweep"] in wanted]


def generate(args, point, folder, suffix):
    """(the point's data file, its facts, '') or (None, None, why `ladder gen` could not write
    it). The facts are what results record as a run's `data`: sizes, and where the point's
    inputs lie in the file (a study's selection rules stay ladder's)."""
    name = f"p{point['point']}-data{suffix}"  # run in the folder: messages name no temp path
    out, error = ladder(args, "gen", "--config", str(Path(args.config).resolve()), "--point",
                        str(point["point"]), "--json", "--out", name, cwd=folder)
    if error:
        return None, None, f"`ladder gen` cannot write this point's data: {error}"
    facts = ladder_json(args, out, "gen").get("data")
    if not isinstance(facts, dict):
        raise PeerError(f"--ladder {args.ladder}: `ladder gen --json` printed no data facts; "
                        "is it ladder?")
    return Path(folder) / name, facts, ""


def timed(call, point, backend, fresh=None, sync=lambda: None):
    """The handover's samples_ms and warmup for `call(fresh())` (fresh() is untimed: new
    inputs), the last call's output, and the CPU seconds per wall second of the timed calls."""
    warmup, repetitions = point["warmup"][backend], point["repetitions"][backend]
    budget = point.get("time_budget_s") or 0
    samples, out, cpu = [], None, 0.0
    i = 0
    while i < warmup + repetitions:
        inputs = (fresh(),) if fresh else ()
        cpu_start, start = time.process_time(), time.perf_counter()
        out = call(*inputs)
        sync()
        ms = (time.perf_counter() - start) * 1e3
        if i == 0 and budget > 0:  # the config's time budget, as ladder's runs keep it
            warmup, repetitions = budgeted(ms, budget, warmup, repetitions)
        if i >= warmup:
            samples.append(ms)
            cpu += time.process_time() - cpu_start
        i += 1
    wall = sum(samples) / 1e3
    return {"samples_ms": samples, "warmup": warmup}, out, (cpu / wall if wall > 0 else 0.0)


def budgeted(first_ms, budget_s, warmup, repetitions):
    """(warm-up, repetitions) under a time budget, as ladder's runner counts them: the first
    call counts as a warm-up and the repetitions are cut to the calls that fit after it; when
    none fits, that first call is the only sample."""
    fit = budget_s * 1e3 / max(first_ms, 1e-6) - 1
    if fit < 1:
        return 0, 1
    return max(warmup, 1), min(repetitions, int(fit))


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
        timing, out, _ = timed(load, point, v["backend"])
        runs.append(dict(timing, variant=v["name"], outputs=out,
                         note=f"replayed {found[0].name}: the library was not called"))
    return runs


def replay_dumps(folder, study):
    """--replay's dumps of STUDY, FOLDER/<study>__*.npy by name; PeerError when one is not a
    regular file (a FIFO named like a dump would block its load for ever)."""
    found = sorted(Path(folder).glob(f"{study}__*.npy"))
    for f in found:
        if not f.is_file():
            raise PeerError(f"--replay {folder}: {f.name} is not a regular file")
    return found


def load_dump(path):
    """The array of a dump (`ladder run --dump-outputs`), read only if it is a regular file."""
    with open_regular(path, "--replay") as f:
        return np.load(f, allow_pickle=False)


def point_runs(peer, args, lib, point, variants, folder):
    """The point's runs, its outputs saved beside the handover. A variant the peer's
    `variant_unsupported(point, name)` refuses is an unsupported run, with or without the
    library (--replay), and the peer's `run` leaves it out."""
    why = peer.unsupported(point)
    if not why:
        path, facts, why = generate(args, point, folder, peer.DATA_SUFFIX)
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
        runs = [{"variant": v["name"], "error": one_line(f"{type(err).__name__}: {err}")}
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
    note(args, f"[{i}/{total}] {point['sweep'] or '-'} {point['key']}: {'; '.join(parts)}")


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


def parse_args(peer, script):
    p = Parser(prog=script.name, description=f"{peer.LABEL} as a peer of the {peer.STUDY} "
               "study: its outputs and times on a config's points, handed to `ladder ingest`.")
    p.add_argument("config", nargs="?", help=f"a ladder config of the {peer.STUDY} study")
    p.add_argument("--out", help="the results file `ladder ingest` writes")
    p.add_argument("--ladder", default=LADDER, help="the ladder binary (default the build tree's, "
                   "the installed tree's, else ladder on PATH)")
    p.add_argument("--scale", choices=("paper", "quick"), help="as `ladder run --scale`")
    p.add_argument("--offline", action="store_true", help="never download or install (exit 2)")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--ready", action="store_true", help="can the peer run here now? one line")
    p.add_argument("--only-sweeps", help="hand over only these sweeps' points (comma-separated)")
    p.add_argument("--validate", help="full, sample:N or off (`ladder ingest --validate`)")
    p.add_argument("--replay", metavar="DIR", help="no library: hand over the outputs of "
                   "`ladder run CONFIG --dump-outputs DIR`")
    p.add_argument("--cache", default=str(CACHE), help="fetched packages and builds")
    # --build-only and the like: make the library ready, print what was made, stop.
    for flag, (text, make) in peer.PREPARE.items():
        p.add_argument(flag, dest="prepare", action="store_const", const=make, help=text)
    peer.options(p)
    args = p.parse_args()
    args.prog, args.script, args.prepare_flag = p.prog, shown(script), next(iter(peer.PREPARE))
    if "/" in args.ladder:  # gen runs in a scratch folder
        args.ladder = str(Path(args.ladder).resolve())
    return args


def main(peer, script=None):
    """The peer script's whole run; its exit status. SCRIPT is the file run where it is not the
    peer module's own: a script that runs another peer's module at other settings (its name
    names its results, `--ready` line and progress)."""
    script = Path(script or peer.__file__).resolve()
    peer.NAME, peer.STUDY = script.stem, script.parent.name
    args = parse_args(peer, script)
    if args.ready:
        try:
            print(one_line(f"{peer.NAME}: ready ({peer.ready(args)})"))
            return 0
        except NotReady as err:
            print(one_line(f"{peer.NAME}: not ready: {err}"))
            return 1
    try:
        if args.prepare:
            print(args.prepare(args))
            return 0
        if not args.config or not args.out:
            raise PeerError("give a CONFIG and --out FILE")
        if args.replay and not Path(args.replay).is_dir():
            raise PeerError(f"--replay {args.replay}: no such directory")
        if args.replay:
            replay_dumps(args.replay, peer.STUDY)  # before anything runs
        if Path(args.cache).exists() and not Path(args.cache).is_dir():
            raise PeerError(f"--cache {args.cache}: not a folder")
        points = plan_points(args, peer.STUDY)
        lib, info = (None, REPLAY) if args.replay else peer.setup(args)
        variants = peer.variants(args, lib)
        if args.replay:
            for v in variants:
                v["label"] += " (replayed outputs)"
        info = {"name": peer.LABEL, "script": args.script, **info}
        return hand_over(peer, args, points, lib, info, variants)
    except PeerError as err:
        print(f"{args.prog}: error: {one_line(err)}", file=sys.stderr)
        return 2
    except OSError as err:  # a path given that cannot be read or written, a full disk
        print(f"{args.prog}: error: {one_line(err)}", file=sys.stderr)
        return 2
    except RuntimeError as err:  # the library's self-check failed
        print(f"{args.prog}: {one_line(err)}", file=sys.stderr)
        return 1


def require(*reasons, error=NotReady):
    """ERROR with every reason given; '' is a requirement met."""
    why = "; ".join(r for r in reasons if r)
    if why:
        raise error(why)


def fetch_hint(args):
    """How to make a peer ready for a machine without network."""
    return (f"run python3 {args.script} {args.prepare_flag} with the same Python where the "
            "network is reachable, and carry peers/cache/")


def fetching(args, missing, doing):
    """Before fetching from the network: PeerError (what is MISSING) under --offline, else a
    progress line (what it is DOING)."""
    if args.offline:
        raise PeerError(f"{missing}, and --offline was given ({fetch_hint(args)})")
    note(args, doing)


class PinnedSource:
    """A peer's source at one commit of its public repository: the files the peer uses (FILES
    at the top, everything under FOLDERS), checked by DIGEST, the sha256 of the lines
    "PATH GIT_BLOB_ID\n" sorted by path as `git ls-tree -r COMMIT -- FILES FOLDERS` lists them,
    so that any copy of those files (a clone, an archive, --source) is recognised."""

    def __init__(self, label, repo, commit, digest, files, folders):
        self.label, self.repo, self.commit, self.digest = label, repo, commit, digest
        self.files, self.folders = tuple(files), tuple(folders)
        self.short = commit[:7]
        self.archive_url = f"https://github.com/{repo}/archive/{commit}.tar.gz"

    def add_options(self, p):
        """--source DIR and --archive-url URL, which `get` reads."""
        p.add_argument("--source", metavar="DIR", help=f"{self.label}'s files at {self.short} (a "
                       "clone or an unpacked archive), instead of the cache's or a download; "
                       "copied into the cache")
        p.add_argument("--archive-url", default=self.archive_url, metavar="URL",
                       help=f"where {self.label}'s archive is downloaded from (default GitHub's)")

    def uses(self, rel):
        """Whether the file REL (a path in the repository) is one the peer takes."""
        return rel in self.files or any(rel.startswith(f + "/") for f in self.folders)

    def used_files(self, folder):
        """{path in the repository: file} of the regular files under FOLDER that the peer
        takes; PeerError when FOLDER cannot be listed."""
        folder = Path(folder)
        found = [folder / f for f in self.files]
        try:
            for f in self.folders:
                found += (folder / f).rglob("*")
            return {p.relative_to(folder).as_posix(): p for p in found if p.is_file()}
        except OSError as err:
            raise PeerError(f"{folder}: cannot read: {err.strerror or err}") from err

    def digest_of(self, folder):
        """The digest of the used files under FOLDER; None when there are none."""
        lines = []
        for rel, path in self.used_files(folder).items():
            blob = read_regular(path)
            lines.append((rel, hashlib.sha1(b"blob %d\0" % len(blob) + blob).hexdigest()))
        if not lines:
            return None
        return hashlib.sha256("".join(f"{r} {g}\n" for r, g in sorted(lines)).encode()).hexdigest()

    def what(self):
        names = [*self.files, *(f + "/" for f in self.folders)]
        return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]

    def check(self, folder, where):
        got = self.digest_of(folder)
        if got != self.digest:
            what = (f"holds no {self.what().replace(' and ', ' or ')}" if got is None else
                    f"is not {self.label} at {self.short}: its {self.what()} differ")
            raise PeerError(f"{where} {what} (give a clone or an archive of {self.repo} at "
                            f"{self.commit})")

    def install(self, files, target):
        """FILES (rel path: bytes) written as TARGET, whole or not at all."""
        tmp = target.with_name(target.name + ".partial")
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            with removed_on_failure(tmp.parent):
                for rel, blob in files.items():
                    (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
                    (tmp / rel).write_bytes(blob)
                self.check(tmp, "the fetched copy")
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
        return target

    def download(self, url):
        """The used files from the archive at URL, streamed."""
        files = {}
        try:
            with urllib.request.urlopen(url, timeout=120) as response, \
                    tarfile.open(fileobj=response, mode="r|gz") as tar:
                for member in tar:
                    rel = member.name.split("/", 1)[1] if "/" in member.name else ""
                    if member.isfile() and self.uses(rel) and ".." not in rel.split("/"):
                        files[rel] = tar.extractfile(member).read()
        except (OSError, tarfile.TarError) as err:
            raise PeerError(f"cannot download {self.label} from {url}: {err} (give its files "
                            "with --source DIR)") from err
        return files

    def get(self, args, target):
        """TARGET holding the source: copied from --source, kept from the cache, or fetched
        from --archive-url (refused under --offline)."""
        if args.source:
            if not Path(args.source).is_dir():
                raise PeerError(f"--source {args.source}: no such directory")
            self.check(args.source, f"--source {args.source}")
            if self.digest_of(target) != self.digest:
                note(args, f"copying {self.label} {self.short} from {args.source} into "
                           f"{shown(target)}")
                self.install({rel: read_regular(p)
                              for rel, p in self.used_files(args.source).items()}, target)
            return target
        if self.digest_of(target) == self.digest:
            return target
        fetching(args, f"no {self.label} {self.short} source in {shown(target)} (--source DIR "
                       "gives it)", f"fetching {self.label} {self.short} from {args.archive_url}")
        return self.install(self.download(args.archive_url), target)


def build_key(info):
    """12 hex digits naming a build by everything that went into it (INFO, a JSON object)."""
    return hashlib.sha256(json.dumps(info, sort_keys=True).encode()).hexdigest()[:12]


def install_build(built, exe, license_file, info):
    """The file BUILT moved to EXE last, its folder holding the peer's LICENSE_FILE and INFO as
    build.json first, so that an EXE that exists is a whole build."""
    exe.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(license_file, exe.parent / license_file.name)
    (exe.parent / "build.json").write_text(json.dumps(info, indent=2) + "\n")
    os.replace(built, exe)


class DriverProcess:
    """A peer's driver in a child process, fed one line per call on stdin and answering one
    line on stdout ("ok ...", or "error WHY"), with its stderr kept in a scratch folder that
    holds the files it reads and writes. LABEL names it in errors."""

    def __init__(self, label, prefix):
        self.label = label
        self.tmp = tempfile.TemporaryDirectory(prefix=prefix)
        self.folder = Path(self.tmp.name)
        self.log = open(self.folder / "stderr.txt", "w+")
        self.proc = None

    def start(self, argv, env=None):
        self.proc = subprocess.Popen([str(a) for a in argv], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()  # end of input: the driver exits
            except OSError:
                pass
            self.proc.wait()
            self.proc.stdout.close()
        self.log.close()
        self.tmp.cleanup()

    def ask(self, line, fields, during):
        """The driver's answer to LINE: its words after "ok" when it has FIELDS of them;
        RuntimeError with the driver's own reason, or with its exit status and last stderr
        lines when it died (DURING says when)."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline().split()
        except OSError:
            answer = []
        if answer[:1] == ["ok"] and len(answer) == fields + 1:
            return answer[1:]
        if answer[:1] == ["error"]:
            raise RuntimeError(f"{self.label} driver: {' '.join(answer[1:])}")
        self.fail(during)

    def fail(self, during):
        code = self.proc.wait()
        self.log.seek(0)
        tail = " | ".join(self.log.read().strip().splitlines()[-3:])
        raise RuntimeError(f"{self.label}'s driver exited with status {code} {during}"
                           f"{': ' + tail if tail else ''}")


def pip(argv, what, env=None):
    """`python -m pip ARGV`; PeerError with pip's last line when it fails."""
    done = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *argv],
                          capture_output=True, text=True, env=env)
    if done.returncode != 0:
        lines = [x for x in (done.stderr + done.stdout).strip().splitlines()
                 if not x.startswith("WARNING")] or ["?"]
        raise PeerError(f"pip {argv[0]} {what} failed: {lines[-1].strip()}")


def nvcc(needed_by=""):
    """The CUDA compiler on PATH, else in $CUDA_HOME/bin; when there is none, None, or a
    PeerError when NEEDED_BY names what is built with it."""
    found = shutil.which("nvcc") or shutil.which("nvcc", path=str(CUDA_HOME / "bin"))
    if not found and needed_by:
        raise PeerError(f"nvcc not found (put the CUDA toolkit's bin/ on PATH, or set "
                        f"CUDA_HOME): {needed_by} is built from source")
    return found


def nvidia_smi(*argv):
    """nvidia-smi's output, '' when it is missing or fails."""
    try:
        done = subprocess.run(["nvidia-smi", *argv], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def gpu_missing():
    """'' when nvidia-smi lists a GPU, else why not."""
    return "" if "GPU" in nvidia_smi("-L") else "no CUDA device (nvidia-smi lists none)"


def compute_capability():
    """GPU 0's compute capability as nvidia-smi reports it ('9.0'), '' when it cannot tell."""
    out = nvidia_smi("--query-gpu=compute_cap", "--format=csv,noheader").split()
    return out[0] if out and out[0].replace(".", "").isdigit() else ""


def arch_text(text):
    """--arch's value: a compute capability like 90, 90a or sm_90, as the digits nvcc wants."""
    got = re.fullmatch(r"(?:sm_)?(\d{2,3}a?)", text)
    if not got:
        raise argparse.ArgumentTypeError(f"want a compute capability like 90 or sm_90, got "
                                         f"{text!r}")
    return got.group(1)


def add_arch_option(p):
    """--arch, for a GPU peer built with nvcc on a machine whose GPU is not the target."""
    p.add_argument("--arch", type=arch_text, help="build for sm_ARCH (90 or sm_90) instead of "
                   "the local GPU's")


def arch_of(args):
    """--arch, else GPU 0's compute capability, else '' (nothing to build for)."""
    return args.arch or compute_capability().replace(".", "")


def nvcc_build_plan(folder, name, nvcc_path, arch, flags, source, driver):
    """(the executable's place under FOLDER, its build record) for a driver NAME built with
    nvcc for sm_ARCH: the key covers the pinned SOURCE, nvcc's release, FLAGS and DRIVER."""
    release = re.search(r"release ([\d.]+)", subprocess.run(
        [nvcc_path, "--version"], capture_output=True, text=True).stdout)
    info = {"commit": source.commit, "source_digest": source.digest, "arch": f"sm_{arch}",
            "nvcc": release.group(1) if release else "unknown",
            "flags": list(flags) + [f"-gencode=arch=compute_{arch},code=sm_{arch}"],
            "driver_sha256": hashlib.sha256(Path(driver).read_bytes()).hexdigest()}
    exe = Path(folder) / f"build-sm{arch}-{build_key(info)}" / name
    return exe, dict(info, executable=shown(exe))


def nvcc_ready(args, label, src, marker, plan):
    """--ready of a GPU peer built with nvcc: its pinned source in SRC (the file MARKER stands
    for it; the digest is checked when used), nvcc and a GPU; PLAN(nvcc, arch) names the build.
    LABEL names the library and its commit."""
    found = nvcc()
    require("" if (src / marker).is_file() else f"no {label} source in {shown(src)} "
                                               f"({fetch_hint(args)}, or give --source DIR)",
            "" if found else "nvcc not found (put the CUDA toolkit's bin/ on PATH)",
            gpu_missing())
    exe, info = plan(found, arch_of(args) or "90")
    built = (f"built {shown(exe)}" if exe.is_file() else
             f"built on the first run for {info['arch']} with nvcc {info['nvcc']}")
    return f"{label} from {shown(src)}, {built}"


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


def loaded_cudart():
    """The libcudart a library mapped into this process (one runtime per process), or None; a
    wheel's own copy is renamed (libcudart-256e6409.so.12.9.79)."""
    for line in Path("/proc/self/maps").read_text().splitlines():
        path = line.split(None, 5)[5:]
        if path and Path(path[0]).name.startswith("libcudart") and ".so" in path[0]:
            return path[0]
    return None


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

"""Libraries fetched and built for the peers: a source pinned to a repository's commit (fetched,
or copied from --source), a build kept in the cache under a key of what made it, pip, nvcc and
nvidia-smi, the GPU's architecture, a driver process that times the library in C++, and the
CUDA runtime a library loaded."""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

from . import basics

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
            raise basics.PeerError(f"{folder}: cannot read: {err.strerror or err}") from err

    def digest_of(self, folder):
        """The digest of the used files under FOLDER; None when there are none."""
        lines = []
        for rel, path in self.used_files(folder).items():
            blob = basics.read_regular(path)
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
            raise basics.PeerError(f"{where} {what} (give a clone or an archive of {self.repo} at "
                            f"{self.commit})")

    def install(self, files, target):
        """FILES (rel path: bytes) written as TARGET, whole or not at all."""
        tmp = target.with_name(target.name + ".partial")
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            with basics.removed_on_failure(tmp.parent):
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
            raise basics.PeerError(f"cannot download {self.label} from {url}: {err} (give its files "
                            "with --source DIR)") from err
        return files

    def get(self, args, target):
        """TARGET holding the source: copied from --source, kept from the cache, or fetched
        from --archive-url (refused under --offline)."""
        if args.source:
            if not Path(args.source).is_dir():
                raise basics.PeerError(f"--source {args.source}: no such directory")
            self.check(args.source, f"--source {args.source}")
            if self.digest_of(target) != self.digest:
                basics.note(args, f"copying {self.label} {self.short} from {args.source} into "
                           f"{basics.shown(target)}")
                self.install({rel: basics.read_regular(p)
                              for rel, p in self.used_files(args.source).items()}, target)
            return target
        if self.digest_of(target) == self.digest:
            return target
        basics.fetching(args, f"no {self.label} {self.short} source in {basics.shown(target)} (--source DIR "
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


class SourceBuilt:
    """A peer whose driver ladder compiles against its pinned SOURCE (cuDTW++ and SkyAlign with
    nvcc, SkyBench with the C++ compiler), in one way: its cache folder (FOLDER-<commit>), the
    source there, and a build planned first (the executable's place and record, keyed by what
    goes into it), reused when that executable exists, else compiled in a scratch folder beside
    it and installed whole with the peer's LICENSE."""

    def __init__(self, source, folder, license_name):
        self.source, self.folder, self.license_name = source, folder, license_name

    def home(self, args):
        return Path(args.cache) / f"{self.folder}-{self.source.commit[:12]}"

    def source_dir(self, args):
        """The cache's copy of the source: from --source, the cache, or the network."""
        return self.source.get(args, self.home(args) / "source")

    def build(self, args, plan, compile_into, what):
        """The executable of PLAN (exe, info), built when missing: COMPILE_INTO(src, tmp, info)
        leaves it in the scratch folder TMP and returns its path (checking it there, if the
        peer checks builds). WHAT says what the build is for, in the note."""
        exe, info = plan
        if exe.is_file():
            return exe, info
        src = self.source_dir(args)
        basics.note(args, f"building {self.source.label} {self.source.short} {what} into "
                          f"{basics.shown(exe.parent)}")
        with tempfile.TemporaryDirectory(dir=self.home(args)) as tmp:
            out = compile_into(src, Path(tmp), info)
            install_build(out, exe, src / self.license_name, info)
        return exe, info


def run_tool(argv, failed):
    """ARGV run to completion; PeerError "FAILED: <the end of its stderr>" when it fails."""
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise basics.PeerError(f"{failed}: {basics.one_line(done.stderr)[-300:]}")


def compile_objects(compiler, flags, units, tmp, jobs=None):
    """Each of UNITS compiled by COMPILER with FLAGS into an object in TMP, in parallel (JOBS
    at a time, default one per unit); the objects' paths, in the units' order."""
    def one(unit):
        obj = Path(tmp) / f"{unit.parent.name}-{unit.stem}{unit.suffix.replace('.', '-')}.o"
        run_tool([compiler, *flags, "-c", str(unit), "-o", str(obj)],
                 f"{Path(compiler).name} failed on {unit.name}")
        return obj
    with concurrent.futures.ThreadPoolExecutor(jobs or max(len(units), 1)) as pool:
        return list(pool.map(one, units))


def nvcc_and_arch(args, needed_by):
    """nvcc and the architecture to build for (--arch, else the GPU's); PeerError when there
    is no GPU to ask and no --arch."""
    found = nvcc(needed_by=needed_by)
    arch = arch_of(args)
    if not arch:
        raise basics.PeerError("cannot tell the GPU's compute capability (nvidia-smi lists no "
                               "GPU): give --arch, e.g. --arch sm_90")
    return found, arch


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
        raise basics.PeerError(f"pip {argv[0]} {what} failed: {lines[-1].strip()}")


def nvcc(needed_by=""):
    """The CUDA compiler on PATH, else in $CUDA_HOME/bin; when there is none, None, or a
    PeerError when NEEDED_BY names what is built with it."""
    found = shutil.which("nvcc") or shutil.which("nvcc", path=str(basics.CUDA_HOME / "bin"))
    if not found and needed_by:
        raise basics.PeerError(f"nvcc not found (put the CUDA toolkit's bin/ on PATH, or set "
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
    return exe, dict(info, executable=basics.shown(exe))


def nvcc_ready(args, label, src, marker, plan):
    """--ready of a GPU peer built with nvcc: its pinned source in SRC (the file MARKER stands
    for it; the digest is checked when used), nvcc and a GPU; PLAN(nvcc, arch) names the build.
    LABEL names the library and its commit."""
    found = nvcc()
    basics.require("" if (src / marker).is_file() else f"no {label} source in {basics.shown(src)} "
                                               f"({basics.fetch_hint(args)}, or give --source DIR)",
            "" if found else "nvcc not found (put the CUDA toolkit's bin/ on PATH)",
            gpu_missing())
    exe, info = plan(found, arch_of(args) or "90")
    built = (f"built {basics.shown(exe)}" if exe.is_file() else
             f"built on the first run for {info['arch']} with nvcc {info['nvcc']}")
    return f"{label} from {basics.shown(src)}, {built}"


def loaded_cudart():
    """The libcudart a library mapped into this process (one runtime per process), or None; a
    wheel's own copy is renamed (libcudart-256e6409.so.12.9.79)."""
    for line in Path("/proc/self/maps").read_text().splitlines():
        path = line.split(None, 5)[5:]
        if path and Path(path[0]).name.startswith("libcudart") and ".so" in path[0]:
            return path[0]
    return None

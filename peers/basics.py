"""What every module of the peers uses: where things are (the project, the cache of fetched
libraries, the ladder binary, CUDA), the two errors a peer reports (PeerError: bad input, exit
2; NotReady: what `--ready` says), one-line messages, and files read only when regular."""
import argparse
import contextlib
import os
import shutil
import stat
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "peers" / "cache"  # fetched packages and builds (git-ignored)
# The ladder binary beside these scripts: a build tree's, or an installed tree's (PREFIX/bin/
# ladder beside PREFIX/share/ladder/peers), else the one on PATH.
LADDER = next((str(p) for p in (ROOT / "build" / "ladder", ROOT.parent.parent / "bin" / "ladder")
               if p.is_file()), "ladder")
CUDA_HOME = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
PY = f"py{sys.version_info[0]}{sys.version_info[1]}"  # packages built for this Python


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


def require(*reasons, error=NotReady):
    """ERROR with every reason given; '' is a requirement met."""
    why = "; ".join(r for r in reasons if r)
    if why:
        raise error(why)


def fetch_hint(args):
    """How to make a peer ready for a machine without network."""
    return (f"run python3 -m {args.module} {args.prepare_flag} in the project's folder with the "
            "same Python where the network is reachable, and carry peers/cache/")


def fetching(args, missing, doing):
    """Before fetching from the network: PeerError (what is MISSING) under --offline, else a
    progress line (what it is DOING)."""
    if args.offline:
        raise PeerError(f"{missing}, and --offline was given ({fetch_hint(args)})")
    note(args, doing)

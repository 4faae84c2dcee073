"""Shared pieces of the command-line test scripts in this directory.

- run_ladder(): runs the binary with a time limit and returns the completed process;
- error_problems(): what is wrong with a run that should have been refused as bad input
  (exit 2, exactly one printable `ladder: error:` line on stderr, nothing on stdout);
- tree(): every path under a directory with its type and link target, to tell what a run
  created or changed;
- read_npy(): a .npy file parsed by hand (shape and values);
- finish(): prints the problems found and exits 1, or prints "ok" and exits 0;
- results(): a results file (of `ladder run`, `ladder ingest`, a peer) read through
  plots/results.py, the project's one reader of them: no test parses that layout itself.
"""
import ast
import os
import shutil
import struct
import subprocess
import sys

# The project's packages come from PYTHONPATH (the project root: ctest sets it).
from plots import results as ladder_results
from plots.results import ResultsError  # noqa: F401  (for the tests' except clauses)

CRASH_WORDS = ("internal error", "CUDA error", "terminate called", "what():",
               "Segmentation fault", "Aborted", "core dumped", "std::")


def case_args(script):
    """LADDER SCRATCH_ROOT CASE from the command line: the binary and the scratch root as
    absolute paths (the scratch root made), and the case name."""
    if len(sys.argv) != 4:
        sys.exit("usage: %s LADDER SCRATCH_ROOT CASE" % script)
    scratch = os.path.abspath(sys.argv[2])
    os.makedirs(scratch, exist_ok=True)
    return os.path.abspath(sys.argv[1]), scratch, sys.argv[3]


def ladder_scratch(script):
    """LADDER SCRATCH_ROOT from the command line, as absolute paths (the scratch root made)."""
    if len(sys.argv) != 3:
        sys.exit("usage: %s LADDER SCRATCH_ROOT" % script)
    scratch = os.path.abspath(sys.argv[2])
    os.makedirs(scratch, exist_ok=True)
    return os.path.abspath(sys.argv[1]), scratch


def run_ladder(cmd, cwd, timeout=240, **kwargs):
    """Runs cmd; one that is still running after `timeout` seconds is killed and the test
    fails, showing what it had printed."""
    print("$", " ".join(repr(c) if ("\n" in c or " " in c) else c for c in cmd))
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, **kwargs)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "backslashreplace")
        err = (e.stderr or b"").decode("utf-8", "backslashreplace")
        finish(["did not finish within %d s (killed)\n  --- stdout ---\n%s  --- stderr ---\n%s"
                % (timeout, out[-3000:], err[-3000:])])


def results(path):
    """The ladder_results.ResultsFile at `path`; ResultsError (one line) when it is not a
    results file. A test that checks the bytes as written reads .raw / Run.raw."""
    return ladder_results.load(path)


def run_text(cmd, cwd=None, env=None):
    """run_ladder with text output, echoing what a failing command printed."""
    proc = run_ladder(cmd, cwd, text=True, env=env)
    if proc.returncode != 0:
        print(proc.stdout, end="")
        print(proc.stderr, end="", file=sys.stderr)
    return proc


def show(proc):
    """The output of a finished process, for a failure message."""
    out = proc.stdout.decode("utf-8", "backslashreplace")
    err = proc.stderr.decode("utf-8", "backslashreplace")
    return "  exit status: %d\n  --- stdout ---\n%s  --- stderr ---\n%s" % (
        proc.returncode, out[-3000:], err[-3000:])


def error_problems(proc, match_any=(), want_status=2):
    """Problems with `proc` as a refusal of bad input; an empty list when it is one."""
    problems = []
    if proc.returncode < 0:
        problems.append("killed by signal %d" % -proc.returncode)
    elif proc.returncode != want_status:
        problems.append("exit status %d, expected %d" % (proc.returncode, want_status))
    lines = proc.stderr.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if len(lines) != 1:
        problems.append("stderr has %d lines, expected exactly one" % len(lines))
    if not proc.stderr.startswith(b"ladder: error: "):
        problems.append("stderr does not begin with 'ladder: error: '")
    if any(b < 0x20 and b not in (0x09, 0x0A) or b == 0x7F for b in proc.stderr):
        problems.append("stderr holds control characters: %r" % proc.stderr[:300])
    text = proc.stderr.decode("utf-8", "replace")
    for word in CRASH_WORDS:
        if word in text:
            problems.append("stderr mentions %r" % word)
    if match_any and not any(m.lower() in text.lower() for m in match_any):
        problems.append("the error mentions none of %s" % list(match_any))
    if proc.stdout:
        problems.append("stdout is not empty (nothing should run on bad input)")
    return problems


def tree(root):
    """{relative path: (type, link target)} for everything under root (root excluded)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if os.path.islink(full):
                out[rel] = ("link", os.readlink(full))
            elif os.path.isdir(full):
                out[rel] = ("dir", "")
            else:
                out[rel] = ("file", "")
    return out


def read_npy(path, formats=None):
    """(shape, values) of a version 1/2/3 .npy file of little-endian float32 or float64 (or of
    the dtypes `formats` maps to struct codes, e.g. {"<i8": "q"})."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:6] != b"\x93NUMPY":
        raise ValueError("bad magic %r" % blob[:6])
    if blob[6] == 1:
        (hlen,) = struct.unpack("<H", blob[8:10])
        start = 10
    else:
        (hlen,) = struct.unpack("<I", blob[8:12])
        start = 12
    header = ast.literal_eval(blob[start:start + hlen].decode("latin1"))
    if header.get("fortran_order"):
        raise ValueError("fortran_order is set")
    descr, shape = header["descr"], tuple(header["shape"])
    formats = formats or {"<f4": "f", "<f8": "d"}
    if descr not in formats:
        raise ValueError("descr %r, expected one of %s" % (descr, sorted(formats)))
    data = blob[start + hlen:]
    count = 1
    for dim in shape:
        count *= dim
    width = struct.calcsize(formats[descr])
    if len(data) != width * count:
        raise ValueError("%d data bytes for shape %s of %s" % (len(data), shape, descr))
    return shape, list(struct.unpack("<%d%s" % (count, formats[descr]), data))


def checker(problems):
    """check(ok, message): appends message to `problems` when ok is false; returns ok."""
    def check(ok, message):
        if not ok:
            problems.append(message)
        return ok
    return check


def skyline(rows):
    """Sorted ids of the points no other point dominates (<= everywhere, < somewhere): the
    brute-force oracle the skyline file tests check ladder against."""
    def dominates(p, q):
        return all(a <= b for a, b in zip(p, q)) and any(a < b for a, b in zip(p, q))
    return [i for i, q in enumerate(rows)
            if not any(dominates(p, q) for j, p in enumerate(rows) if j != i)]


def finish(problems, ok_message="ok"):
    if problems:
        for p in problems:
            print("FAIL:", p, file=sys.stderr)
        sys.exit(1)
    print(ok_message)
    sys.exit(0)


def run_case(script, prefix, cases, problems):
    """The main of a script of named cases: LADDER SCRATCH_ROOT CASE from the command line, the
    case run in a fresh folder SCRATCH_ROOT/<prefix><case> (removed when it passed), then the
    problems it appended said and the exit status set."""
    ladder, scratch, case = case_args(script)
    work = os.path.join(scratch, prefix + case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    cases[case](ladder, work)
    if not problems:
        shutil.rmtree(work, ignore_errors=True)
    finish(problems)


def poisoned_env(work, names, why="made unimportable by the test"):
    """The environment with PYTHONPATH on a folder of modules `names` that refuse to be
    imported (saying `why`), so a script under test cannot use them."""
    folder = os.path.join(work, "poison")
    os.makedirs(folder, exist_ok=True)
    for name in names:
        with open(os.path.join(folder, f"{name}.py"), "w") as f:
            f.write(f"raise ImportError('{name}: {why}')\n")
    # the project's own packages (plots, peers) stay importable behind the poison
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [
        folder, os.environ.get("PYTHONPATH")])))

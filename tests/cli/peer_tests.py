"""What the peer tests (tests/cli/peers_*.py) share: running a command from the project root,
a ladder that keeps a copy of the handover it ingests, and choosing where a peer pinned to a
public repository's commit comes from (a copy named by an environment variable, else the
project's cache, offline)."""
import os
import subprocess
import sys
import tempfile

import clitest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SKIP = 77

KEEPER = '''#!{python}
"""ladder, keeping a copy of the folder of the handover it is asked to ingest."""
import os, shutil, sys
if sys.argv[1:2] == ["ingest"]:
    shutil.copytree(os.path.dirname(os.path.abspath(sys.argv[3])), {keep!r})
os.execv({ladder!r}, [{ladder!r}] + sys.argv[1:])
'''


def gpu_listed():
    """Whether nvidia-smi lists a GPU: the real peers' tests run only there."""
    try:
        return "GPU" in subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True,
                                       timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False


def peer_module(script):
    """The module of a peer script (ROOT/peers/eed/rapidfuzz.py: peers.eed.rapidfuzz), run as
    `python3 -m MODULE` from the project root, as `ladder reproduce` runs it."""
    path = os.path.abspath(script)
    return ".".join(["peers", os.path.basename(os.path.dirname(path)),
                     os.path.splitext(os.path.basename(path))[0]])


def run(cmd, env=None, timeout=900):
    print("$", " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env)


def ladder_keeper(ladder, work):
    """(the folder the handover is copied to, a ladder wrapper that copies it there)."""
    kept, wrapper = os.path.join(work, "handover"), os.path.join(work, "ladder-keeper")
    with open(wrapper, "w") as f:
        f.write(KEEPER.format(python=sys.executable, keep=kept, ladder=ladder))
    os.chmod(wrapper, 0o755)
    return kept, wrapper


def pinned_source(script, variable, label, work):
    """The peer script's options for where its source comes from: --source $VARIABLE into a
    scratch cache, else --offline from the project's cache when the script says it is ready
    there; exits SKIP (77) when it is not."""
    source = os.environ.get(variable)
    if source:
        return ["--source", source, "--cache", os.path.join(work, "cache")]
    probe = run([sys.executable, "-m", peer_module(script), "--ready"])
    print(probe.stdout.strip())
    if probe.returncode != 0:
        print(f"skipped: {label} is not ready here ({variable}=DIR builds it from a copy of its "
              "files)")
        sys.exit(SKIP)
    return ["--offline"]


def run_case(script, cases):
    """`SCRIPT LADDER SCRATCH_ROOT CASE`: CASE (a key of CASES) run in a scratch folder of its own."""
    ladder, scratch, case = clitest.case_args(script)
    if case not in cases:
        sys.exit(f"{script}: unknown case {case}")
    with tempfile.TemporaryDirectory(prefix=f"{case}.", dir=scratch) as work:
        cases[case](ladder, work)


def bad_options(script, ladder, config, work, problems, extras):
    """The peer script's own options given the bad values EXTRAS (lists of arguments): each
    must exit 2 with one line on stderr and write nothing."""
    out, empty = os.path.join(work, "bad.json"), os.path.join(work, "empty-cache")
    for extra in extras:
        proc = run([sys.executable, "-m", peer_module(script), config, "--out", out, "--ladder", ladder,
                    "--cache", empty, *extra])
        lines = proc.stderr.strip().splitlines()
        if proc.returncode != 2 or len(lines) != 1 or os.path.exists(out):
            problems.append(f"{extra}: exit {proc.returncode}, stderr {lines}; want 2, one "
                            "line and no results")


def replay_command(script, ladder, config, work):
    """SCRIPT replaying WORK/dumps (what `ladder run --dump-outputs` wrote) with an empty cache,
    WORK/empty-cache (made here); --out FILE still to add."""
    empty = os.path.join(work, "empty-cache")
    os.makedirs(empty, exist_ok=True)
    return [sys.executable, "-m", peer_module(script), config, "--ladder", ladder, "--replay",
            os.path.join(work, "dumps"), "--cache", empty, "--quiet"]


def replayed(script, ladder, config, work, env, problems):
    """The results of SCRIPT's replay into WORK/peer.json (the test ends if it fails), checked
    to say they were replayed and to have put nothing into the cache."""
    out = os.path.join(work, "peer.json")
    proc = run(replay_command(script, ladder, config, work) + ["--out", out], env)
    if proc.returncode != 0:
        clitest.finish([f"{os.path.basename(script)} --replay: exit {proc.returncode}: "
                        f"{proc.stderr[-2000:]}"])
    results = clitest.results(out)
    if "replay" not in (results.peer or {}) or not all(
            "replayed" in r.label for r in results.runs):
        problems.append("the results do not say the outputs were replayed")
    return results


def cache_untouched(work, problems):
    """The replays put nothing into WORK/empty-cache."""
    empty = os.path.join(work, "empty-cache")
    if os.listdir(empty):
        problems.append(f"the replay put {os.listdir(empty)} into the cache")

#!/usr/bin/env python3
"""An installed ladder, run from anywhere, and where reproduce writes.

    install.py LADDER SCRATCH_ROOT CASE

with LADDER_TEST_BUILD (the build tree), LADDER_TEST_SOURCE (the source tree) and
LADDER_TEST_CMAKE (cmake) in the environment.

Cases:
- installed: `cmake --install BUILD --prefix P` into a fresh temporary folder gives P/bin/ladder
  and P/share/ladder/ (configs, plots, peers, scripts; no bytecode, no peer cache). From an
  empty folder elsewhere, `P/bin/ladder run configs/dtw/smoke.json` reads the installed config
  (renamed in P for the test, so that the source tree's would show), writes only
  results/<name>-<UTC>.json there, mode 0644 under umask 022, and ends with the tally and the
  path. From another empty folder, `P/bin/ladder reproduce --scale quick` (one small config)
  writes results/reproduction/<gpu>-quick/ there: REPORT.md, claims.json, the manifest and the
  results 0644, the tally with the claims and the path. Under umask 077 what is written again
  is 0600 (a rerun's report and a run's results) and what is reused keeps its mode. Nothing
  in the source tree, the build tree or P changes (their listings with sizes and times are
  compared, the test scratch folders and ctest's own files left out: the test runs alone).
- reproduce_folder: `reproduce --scale quick` without --out writes
  results/reproduction/<gpu>-quick/ under the working directory; the same folder at the paper
  scale, and after one of its results files is made to name another commit, is refused (exit 2,
  one line naming the scale or the commit, nothing created or changed); --force writes there.
"""
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile

from clitest import checker, error_problems, run_case, run_ladder, show, tree

HERE = os.path.dirname(os.path.abspath(__file__))
FAST = os.path.join(HERE, "fixtures", "reproduce", "dtw", "a_fast.json")
TALLY = re.compile(r"^ *runs: \d+ passed, \d+ failed, \d+ skipped( \(\d+ unsupported\))?, \d+ incorrect",
                   re.M)

problems = []
check = checker(problems)


def text(b):
    return b.decode("utf-8", "replace")


def listing(root, skip):
    """{relative path: (kind, size, mtime_ns)} under root, leaving out folders named in `skip`
    (by name anywhere, or by relative path)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        dirnames[:] = [d for d in dirnames
                       if d not in skip and os.path.normpath(os.path.join(rel_dir, d)) not in skip]
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            kind = "dir" if stat.S_ISDIR(st.st_mode) else "link" if stat.S_ISLNK(st.st_mode) else "file"
            out[os.path.normpath(os.path.join(rel_dir, name))] = (
                kind, 0 if kind == "dir" else st.st_size, 0 if kind == "dir" else st.st_mtime_ns)
    return out


def changes(before, after):
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    return added, removed, changed


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def ladder_in(cmd, cwd, umask=0o022):
    """cmd run from cwd under `umask` (set in the child before it starts)."""
    return run_ladder(cmd, cwd=cwd, timeout=400, preexec_fn=lambda: os.umask(umask))


def succeeded(proc, what):
    return check(proc.returncode == 0, "%s:\n%s" % (what, show(proc)))


def trees_left_alone(prefix):
    """(name, root, folders left out) of everything a run must not write in."""
    source, build = os.environ["LADDER_TEST_SOURCE"], os.environ["LADDER_TEST_BUILD"]
    source_skip = {".git", "__pycache__", os.path.join("peers", "cache")}
    source_skip |= {d for d in os.listdir(source) if d.startswith("build")}
    if os.path.realpath(build).startswith(os.path.realpath(source) + os.sep):
        source_skip.add(os.path.relpath(os.path.realpath(build), os.path.realpath(source)))
    return [("the source tree", source, source_skip),
            ("the build tree", build, {"Testing", "scratch", "__pycache__"}),
            ("the installed tree", prefix, set())]


def install(prefix):
    done = subprocess.run([os.environ["LADDER_TEST_CMAKE"], "--install", os.environ["LADDER_TEST_BUILD"],
                           "--prefix", prefix], capture_output=True, text=True, timeout=300)
    if not check(done.returncode == 0, "cmake --install exited %d: %s" % (done.returncode, done.stderr[-800:])):
        return False
    share = os.path.join(prefix, "share", "ladder")
    check(os.access(os.path.join(prefix, "bin", "ladder"), os.X_OK), "no executable P/bin/ladder")
    for part in ("configs/dtw/smoke.json", "plots/report.py", "plots/__init__.py", "peers/cli.py",
                 "peers/__init__.py", "scripts/deps.sh"):
        check(os.path.isfile(os.path.join(share, part)), "P/share/ladder/%s is not installed" % part)
    check(os.access(os.path.join(share, "scripts", "deps.sh"), os.X_OK), "scripts/deps.sh is not executable")
    for rel in tree(prefix):
        check("__pycache__" not in rel and not rel.endswith(".pyc") and "peers/cache" not in rel,
              "installed what is not the project's: %s" % rel)
    return True


def run_installed(ladder, work):
    """`run configs/dtw/smoke.json` from an empty folder, under umask 022 then 077."""
    smoke = os.path.join(os.path.dirname(os.path.dirname(ladder)), "share", "ladder", "configs", "dtw",
                         "smoke.json")
    for umask, want in ((0o022, 0o644), (0o077, 0o600)):
        here = tempfile.mkdtemp(prefix="run-", dir=work)
        proc = ladder_in([ladder, "run", "configs/dtw/smoke.json", "--filter", "seq_tworow", "--quiet"],
                         here, umask)
        if not succeeded(proc, "run of the installed smoke config (umask %03o)" % umask):
            continue
        made = sorted(tree(here))
        if not check(len(made) == 2 and made[0] == "results" and made[1].startswith("results/installed-smoke-"),
                     "the run wrote %s, want only results/installed-smoke-<UTC>.json "
                     "(the installed config, renamed for the test)" % made):
            continue
        written = os.path.join(here, made[1])
        check(mode(written) == want, "results written %03o under umask %03o, want %03o"
              % (mode(written), umask, want))
        out = text(proc.stdout)
        check(TALLY.search(out), "run does not end with its tally: %r" % out[-400:])
        check(out.rstrip().endswith("results: " + made[1]), "run does not end with the path it wrote: %r"
              % out[-200:])
    check(os.path.isfile(smoke), "the installed smoke config is gone")


def reproduce_installed(ladder, work):
    """`reproduce --scale quick` from an empty folder, then again under umask 077."""
    configs = os.path.join(work, "configs", "dtw")
    os.makedirs(configs)
    shutil.copy(FAST, configs)
    here = tempfile.mkdtemp(prefix="reproduce-", dir=work)
    cmd = [ladder, "reproduce", "--scale", "quick", "--no-peers", "--configs", os.path.dirname(configs)]
    proc = ladder_in(cmd, here)
    if not succeeded(proc, "reproduce through the installed tree"):
        return
    folders = os.listdir(os.path.join(here, "results", "reproduction"))
    if not check(len(folders) == 1 and folders[0].endswith("-quick") and sorted(os.listdir(here)) == ["results"],
                 "reproduce wrote %s and results/reproduction/%s, want one results/reproduction/<gpu>-quick/"
                 % (sorted(os.listdir(here)), folders)):
        return
    folder = os.path.join(here, "results", "reproduction", folders[0])
    for name in ("REPORT.md", "claims.json", "reproduction.json", "repro-fast.json"):
        path = os.path.join(folder, name)
        if check(os.path.isfile(path), "no %s in the reproduction" % name):
            check(mode(path) == 0o644, "%s written %03o under umask 022, want 644" % (name, mode(path)))
    out = text(proc.stdout)
    check(TALLY.search(out), "reproduce does not end with its runs' tally: %r" % out[-600:])
    check(re.search(r"^  claims: ", out, re.M), "reproduce does not say the claims' verdicts: %r" % out[-600:])
    want = "report: results/reproduction/%s/REPORT.md" % folders[0]
    check(want in out, "reproduce does not end with the path it wrote (%r): %r" % (want, out[-600:]))
    proc = ladder_in(cmd, here, 0o077)
    if succeeded(proc, "reproduce again under umask 077"):
        check(mode(os.path.join(folder, "REPORT.md")) == 0o600, "REPORT.md rewritten under umask 077 is %03o"
              % mode(os.path.join(folder, "REPORT.md")))
        check(mode(os.path.join(folder, "repro-fast.json")) == 0o644, "a reused results file changed its mode")


def installed(_ladder, work):
    prefix = tempfile.mkdtemp(prefix="ladder-prefix-")
    outside = tempfile.mkdtemp(prefix="ladder-elsewhere-")
    try:
        if not install(prefix):
            return
        smoke = os.path.join(prefix, "share", "ladder", "configs", "dtw", "smoke.json")
        with open(smoke, encoding="utf-8") as f:
            config = json.load(f)
        config["name"] = "installed-smoke"
        with open(smoke, "w", encoding="utf-8") as f:
            json.dump(config, f)
        trees = trees_left_alone(prefix)
        before = [listing(root, skip) for _name, root, skip in trees]
        ladder = os.path.join(prefix, "bin", "ladder")
        run_installed(ladder, outside)
        reproduce_installed(ladder, outside)
        for (name, root, skip), was in zip(trees, before):
            added, removed, changed = changes(was, listing(root, skip))
            check(not (added or removed or changed), "%s changed: added %s, removed %s, changed %s"
                  % (name, added[:8], removed[:8], changed[:8]))
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
        shutil.rmtree(outside, ignore_errors=True)


def reproduce_folder(ladder, work):
    configs = os.path.join(work, "configs")
    os.makedirs(os.path.join(configs, "dtw"))
    shutil.copy(FAST, os.path.join(configs, "dtw"))
    here = os.path.join(work, "here")
    os.makedirs(here)
    base = [ladder, "reproduce", "--no-peers", "--configs", configs]
    proc = ladder_in(base + ["--scale", "quick"], here)
    if not succeeded(proc, "reproduce without --out"):
        return
    folders = os.listdir(os.path.join(here, "results", "reproduction"))
    if not check(len(folders) == 1 and folders[0].endswith("-quick"),
                 "the default folders are %s, want one <gpu>-quick" % folders):
        return
    rel = os.path.join("results", "reproduction", folders[0])
    folder = os.path.join(here, rel)
    results_file = os.path.join(folder, "repro-fast.json")
    cases = [("another scale", ["--scale", "paper", "--out", rel], ["scale"])]
    for what, extra, words in cases + [("another commit", ["--scale", "quick"], ["commit", "0000000"])]:
        if what == "another commit":
            with open(results_file, encoding="utf-8") as f:
                r = json.load(f)
            r["ladder"]["git_commit"] = "0000000"
            with open(results_file, "w", encoding="utf-8") as f:
                json.dump(r, f)
        was = listing(here, set())
        proc = ladder_in(base + extra, here)
        for p in error_problems(proc, words):
            problems.append("a folder holding %s: %s" % (what, p))
        check(listing(here, set()) == was, "a refused reproduction (%s) changed the folder" % what)
    proc = ladder_in(base + ["--scale", "quick", "--force"], here)
    if succeeded(proc, "reproduce --force into a folder of another commit"):
        with open(results_file, encoding="utf-8") as f:
            commit = json.load(f)["ladder"]["git_commit"]
        check(commit != "0000000", "--force did not run the config again")


CASES = {"installed": installed, "reproduce_folder": reproduce_folder}


if __name__ == "__main__":
    run_case("install.py", "install-", CASES, problems)

#!/usr/bin/env python3
"""scripts/check_results_size.sh, which CI runs: results/ may hold no image and no file over
2 MB. On scratch git repositories: results files pass; a staged image (any case of its
extension) fails, named; a file of 2 MB + 1 byte fails and one of exactly 2 MB passes; an image
elsewhere in the repository, or an untracked one under results/, passes; the staged size counts,
not the working tree's; outside a checkout it reports skipped (77).
  results_size.py SCRATCH_ROOT"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from clitest import finish

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_results_size.sh"
LIMIT = 2 * 1024 * 1024
problems = []


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def repo_with(root, name, files):
    """A git repository at root/name whose index holds `files` ({path: bytes})."""
    repo = root / name
    repo.mkdir()
    git(repo, "init", "-q")
    for path, data in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_bytes(data)
    if files:
        git(repo, "add", "-f", *files)
    return repo


def check(repo, want_status, want_named=(), case="", env=None):
    done = subprocess.run(["bash", str(SCRIPT), str(repo)], capture_output=True, text=True,
                          timeout=60, env=env)
    if done.returncode != want_status:
        problems.append(f"{case}: exit status {done.returncode}, want {want_status}; "
                        f"stdout {done.stdout!r} stderr {done.stderr!r}")
    for name in want_named:
        if name not in done.stderr:
            problems.append(f"{case}: {name} not named on stderr: {done.stderr!r}")
    return done


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: results_size.py SCRATCH_ROOT")
    os.makedirs(sys.argv[1], exist_ok=True)
    with tempfile.TemporaryDirectory(dir=sys.argv[1]) as tmp:
        root = Path(tmp)
        json_file = {"results/reference/gpu/dtw-paper.json": b"{}\n"}
        check(repo_with(root, "empty", {}), 0, case="no results/ at all")
        check(repo_with(root, "clean", {**json_file, "docs/figure.png": b"\x89PNG",
                                        "results/reference/gpu/at-limit.json": b"x" * LIMIT}),
              0, case="results files, an image outside results/, a file of exactly 2 MB")
        for image in ("figures/a.png", "figures/b.PDF", "c.svg", "d.jpg", "e.JPEG", "f.gif"):
            path = f"results/reference/gpu/{image}"
            check(repo_with(root, image.replace("/", "_"), {**json_file, path: b"img"}), 1,
                  [path], case=f"a staged {image}")
        big = "results/reference/gpu/big.json"
        check(repo_with(root, "big", {**json_file, big: b"x" * (LIMIT + 1)}), 1, [big],
              case="a file of 2 MB + 1 byte")
        # Staged small, grown in the working tree: the commit would add the small one.
        grown = repo_with(root, "grown", dict(json_file))
        (grown / "results/reference/gpu/dtw-paper.json").write_bytes(b"x" * (LIMIT + 1))
        check(grown, 0, case="the staged blob is small, the working tree's file large")
        # Drawn figures lie untracked (ignored) beside the results: not the check's business.
        untracked = repo_with(root, "untracked", dict(json_file))
        (untracked / "results/reference/gpu/figures").mkdir()
        (untracked / "results/reference/gpu/figures/x.png").write_bytes(b"img")
        check(untracked, 0, case="an untracked image under results/")
        named = repo_with(root, "named", {**json_file, "results/odd name\twith tab.png": b"i"})
        check(named, 1, ["odd name"], case="an image with a tab in its name")
        plain = root / "not-a-repo"
        plain.mkdir()
        # The scratch folder may lie inside a checkout (the build's): git must not look above.
        check(plain, 77, case="not a git checkout",
              env=dict(os.environ, GIT_CEILING_DIRECTORIES=str(root)))
    finish(problems)


if __name__ == "__main__":
    main()

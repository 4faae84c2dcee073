#!/usr/bin/env python3
"""`reproduce --profile` where no GPU step can run: the plumbing, not the counters.

    reproduce_profile.py LADDER CONFIGS_DIR SCRATCH_ROOT

Every GPU is hidden (CUDA_VISIBLE_DEVICES=""), so GPU steps are skipped, and a stand-in `ncu`
on PATH answers only --version (any profiling call would fail). The reproduction must run as
without --profile, exit 0, and list in reproduction.json one `profiles` entry per config, each
`none` ("no GPU step passed"), with no profile added to any run. Without any ncu it is
refused (tests/cli/profile_no_ncu.py).
"""
import json
import os
import stat
import sys
import tempfile

from clitest import checker, finish, results, run_ladder, show


def fake_ncu(folder):
    path = os.path.join(folder, "ncu")
    with open(path, "w", encoding="utf-8") as f:
        f.write('#!/bin/sh\n[ "$1" = --version ] && { echo "Version 2025.3.1.0"; exit 0; }\n'
                'echo "this stand-in only answers --version" >&2; exit 1\n')
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


def main():
    ladder, configs, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(scratch, exist_ok=True)
    problems = []
    check = checker(problems)
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        fake_ncu(tmp)
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PATH=tmp + os.pathsep + os.environ.get("PATH", ""))
        out = os.path.join(tmp, "repro")
        proc = run_ladder([ladder, "reproduce", "--configs", configs, "--scale", "quick", "--no-peers",
                           "--profile", "--out", out], cwd=tmp, env=env, timeout=300)
        check(proc.returncode == 0, "exit %d, want 0\n%s" % (proc.returncode, show(proc)))
        manifest = os.path.join(out, "reproduction.json")
        if not os.path.exists(manifest):
            finish(problems + ["no reproduction.json"])
        with open(manifest, encoding="utf-8") as f:
            m = json.load(f)
        names = [c["name"] for c in m["configs"]]
        profiles = m.get("profiles")
        check(isinstance(profiles, list) and [p.get("config") for p in profiles] == names,
              "profiles %r, want one entry per config %r" % (profiles, names))
        for p in profiles or []:
            check(p.get("state") == "none" and p.get("why") == "no GPU step passed" and p.get("runs") == [],
                  "profile entry %r, want state none" % p)
        for c in m["configs"]:
            for r in results(os.path.join(out, c["results"])).runs:
                check("profile" not in r.raw, "%s %s got a profile: %r" % (c["name"], r.variant, r.raw.get("profile")))
    finish(problems)


if __name__ == "__main__":
    main()

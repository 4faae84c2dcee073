#!/usr/bin/env python3
"""A reproduction in three shards, one of them killed and run again.

    reproduce_shards.py LADDER CONFIGS_DIR SCRATCH_ROOT

CONFIGS_DIR is the reproduce fixture (repro-fast: 2 runs, repro-slow: 6 runs over 6 data
sets). The test runs the unsharded reproduction's configs (`--no-peers`) for reference, then

1. `reproduce --shard K/3` for K = 0 and 2, and K = 1 killed (SIGTERM) once its first file is
   staged: the killed shard's folder holds only whole results files;
2. `merge DIR DIR/shards`: exit 1 naming shard 1 of a config and its runs;
3. shard 1 again, then the merge: exit 0, each config's file complete with the unsharded run's
   runs, order and statuses;
4. a plain `reproduce --out DIR` reuses every merged file and writes the report;
5. on a machine with a GPU, `reproduce --gpus all` over the unsharded folder runs no shard.
"""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from clitest import checker, finish, results, run_ladder, show


def main():
    ladder, configs, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(scratch, exist_ok=True)
    problems = []
    check = checker(problems)
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        base = [ladder, "reproduce", "--configs", configs, "--scale", "quick"]
        ref, out = os.path.join(tmp, "whole"), os.path.join(tmp, "sharded")

        def run(args, want=0):
            proc = run_ladder(base + args, cwd=tmp, timeout=300)
            check(proc.returncode == want, "%s: exit %d, want %d\n%s" % (args, proc.returncode, want, show(proc)))
            return proc

        run(["--no-peers", "--out", ref])
        for k in (0, 2):
            run(["--shard", "%d/3" % k, "--out", out])
        # Shard 1, stopped once it has staged a results file.
        proc = subprocess.Popen(base + ["--shard", "1/3", "--out", out], cwd=tmp,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        staged = os.path.join(out, "shards", "1-of-3", ".partial", "*.json")
        deadline = time.time() + 120
        while not glob.glob(staged) and proc.poll() is None and time.time() < deadline:
            time.sleep(0.02)
        killed = proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
        folder = os.path.join(out, "shards", "1-of-3")
        for f in glob.glob(os.path.join(folder, "**", "*.json"), recursive=True):
            try:
                results(f)
            except Exception as e:  # noqa: BLE001 - any failure to read is the finding
                problems.append("the killed shard left %s unreadable: %s" % (f, e))
        merge = run_ladder([ladder, "merge", out, os.path.join(out, "shards")], cwd=tmp)
        check(killed, "shard 1 ended before it could be stopped")
        err = merge.stderr.decode()
        check(merge.returncode == 1 and re.search(r"shard 1/3 (missing|incomplete): runs \d", err),
              "merge with shard 1 stopped does not name it and its runs:\n%s" % show(merge))
        run(["--shard", "1/3", "--out", out])
        merge = run_ladder([ladder, "merge", out, os.path.join(out, "shards")], cwd=tmp)
        check(merge.returncode == 0, "the merge of every shard failed:\n%s" % show(merge))
        key = lambda f: [(r.run_index, r.id, r.point, r.status) for r in f.runs]
        for name in ("repro-fast.json", "repro-slow.json"):
            a, b = results(os.path.join(ref, name)), results(os.path.join(out, name))
            check(b.complete and key(a) == key(b), "%s: merged runs differ:\n%s\n%s" % (name, key(a), key(b)))
        done = run(["--no-peers", "--out", out])
        said = done.stdout.decode()
        check("repro-fast: reusing" in said and "repro-slow: reusing" in said,
              "the plain reproduce after the merge did not reuse both:\n%s" % said[-800:])
        check(os.path.isfile(os.path.join(out, "REPORT.md")), "no REPORT.md after the merge")
        # 5. With a GPU: --gpus over a folder whose configs are all complete runs no shard.
        if results(os.path.join(ref, "repro-fast.json")).device.get("present"):
            said = run(["--gpus", "all", "--no-peers", "--out", ref]).stdout.decode()
            check("no shard runs" in said and not os.path.exists(os.path.join(ref, "shards")),
                  "--gpus all over the complete unsharded folder ran shards:\n%s" % said[-800:])
        else:
            print("no GPU: reproduce --gpus all over a complete folder not run")
    finish(problems)


main()

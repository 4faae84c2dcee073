#!/usr/bin/env python3
"""Third hostile set: shard files edited as another tool or a careless hand would, and --costs
files with times no run takes. Every refusal is one `ladder: error:` line, exit 2, nothing
written; every merge that is not refused has an exit status its file agrees with.

    hostile3_shards.py LADDER SCRATCH_ROOT CASE

The shards are those of fixtures/h3_shards.json (three data groups of CPU steps) split in
three, run here; a case edits one and merges. CASE is one of
  runs_total_larger   shard 1 says the plan has more runs than the others say (and holds one
                      beyond them): refused, naming runs_total (the run table was sized by the
                      first shard and written past);
  run_in_two_shards   shard 1 claims a run of shard 0 (its owners changed to match): refused,
                      naming the run and both files;
  owners_differ       shard 1's owners give a run of shard 2 to shard 0: refused, naming owners;
  count_huge          a shard of 10^12 shards: refused at once (it looped for 35 s, then ran
                      out of memory);
  bad_summary         shard 1's summary is not its runs' counts: refused, saying so (it merged);
  run_index_beyond    a run_index past runs_total: refused, naming run_index;
  out_inside_folder   `merge S/merged.json S`: refused (the next merge of S read it as a shard);
  out_inside_reproduction  `merge R/shards R/shards` of a reproduction's shards: refused;
                      `merge R R/shards` still merges;
  safe_name_collision a reproduction of configs "r a" and "r_a" (both r_a.json in OUT):
                      refused, naming both, OUT not created;
  incomplete_flag_all_runs  shard 1 not marked complete though it holds all its runs: the
                      merge is complete, exit 0, and its file says so throughout (it said
                      incomplete with exit 0);
  runless_shard_absent  a split in five, where two shards own no run, merged without them:
                      complete, exit 0 (it exited 1, the file marked incomplete with every
                      run in);
  costs_wall_huge, costs_wall_negative, costs_wall_text, costs_samples_huge: --costs
                      results whose wall_s is 1e308, -5 or "x", or whose samples are 1e300 ms
                      (no wall_s): `plan --shard` and `run --shard` refuse the file,
                      naming the field (they printed "inf s", expected_s null).
"""
import json
import os
import shutil
import sys
import tempfile

from clitest import case_args, checker, error_problems, finish, results, run_ladder, show

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
CONFIG = os.path.join(FIX, "h3_shards.json")

problems = []
check = checker(problems)


def ok_run(ladder, work, args, want=0):
    proc = run_ladder([ladder] + args, cwd=work, timeout=120)
    check(proc.returncode == want, "%s: exit %d, expected %d\n%s" % (" ".join(args[:2]), proc.returncode,
                                                                   want, show(proc)))
    return proc


def make_shards(ladder, work, count=3, folder="shards"):
    """Runs every shard of CONFIG split in `count` into work/folder/K-of-N.json; their paths."""
    os.makedirs(os.path.join(work, folder), exist_ok=True)
    paths = []
    for k in range(count):
        path = os.path.join(work, folder, "%d-of-%d.json" % (k, count))
        ok_run(ladder, work, ["run", CONFIG, "--shard", "%d/%d" % (k, count), "--out", path, "--quiet"])
        paths.append(path)
    return paths


def load(path):
    with open(path) as f:
        return json.load(f)


def save(raw, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(raw, f)
    return path


def recount(raw):
    """The summary of raw's runs, as ladder writes it: an edit keeps the file's own sums."""
    summary = {}
    for run in raw["runs"]:
        summary[run["status"]] = summary.get(run["status"], 0) + 1
    raw["summary"] = summary


def refused(ladder, work, args, words, out=None, what=""):
    """`ladder ARGS` must be refused as bad input mentioning every one of `words`, writing
    nothing at `out`."""
    proc = run_ladder([ladder] + args, cwd=work, timeout=30)
    name = what or " ".join(args[:2])
    for p in error_problems(proc):
        problems.append("%s: %s\n%s" % (name, p, show(proc)))
    print(proc.stderr.decode("utf-8", "replace"), end="")
    err = proc.stderr.decode("utf-8", "replace").lower()
    for w in words:
        check(w.lower() in err, "%s: the error does not mention %r:\n%s" % (name, w, show(proc)))
    if out:
        check(not os.path.exists(out), "%s: wrote %s" % (name, out))


def runs_of(raw):
    return [r["run_index"] for r in raw["runs"]]


def case_runs_total_larger(ladder, work):
    s = make_shards(ladder, work)
    raw = load(s[1])
    total = raw["shard"]["runs_total"]
    raw["shard"]["runs_total"] = total + 4
    raw["shard"]["owners"] += [1] * 4
    extra = json.loads(json.dumps(raw["runs"][0]))
    extra["run_index"] = total + 3
    raw["runs"].append(extra)
    recount(raw)
    edited = save(raw, os.path.join(work, "edited", "1-of-3.json"))
    out = os.path.join(work, "out.json")
    refused(ladder, work, ["merge", out, s[0], edited, s[2]], ["runs_total"], out)


def case_run_in_two_shards(ladder, work):
    s = make_shards(ladder, work)
    zero, raw = load(s[0]), load(s[1])
    stolen = zero["runs"][0]
    raw["shard"]["owners"][stolen["run_index"]] = 1
    raw["runs"].append(stolen)
    raw["runs"].sort(key=lambda r: r["run_index"])
    recount(raw)
    edited = save(raw, os.path.join(work, "edited", "claims.json"))
    out = os.path.join(work, "out.json")
    refused(ladder, work, ["merge", out, s[0], edited, s[2]],
            ["run %d " % stolen["run_index"], "0-of-3.json", "claims.json"], out)


def case_owners_differ(ladder, work):
    s = make_shards(ladder, work)
    two, raw = load(s[2]), load(s[1])
    raw["shard"]["owners"][two["runs"][0]["run_index"]] = 0
    edited = save(raw, os.path.join(work, "edited", "1-of-3.json"))
    out = os.path.join(work, "out.json")
    refused(ladder, work, ["merge", out, s[0], edited, s[2]], ["owners"], out)


def case_count_huge(ladder, work):
    s = make_shards(ladder, work)
    raw = load(s[0])
    raw["shard"]["count"] = 10 ** 12
    edited = save(raw, os.path.join(work, "edited", "0-of-huge.json"))
    out = os.path.join(work, "out.json")
    refused(ladder, work, ["merge", out, edited], ["count", "100000"], out)


def case_bad_summary(ladder, work):
    s = make_shards(ladder, work)
    raw = load(s[1])
    raw["summary"] = {"passed": 999}
    edited = save(raw, os.path.join(work, "edited", "1-of-3.json"))
    out = os.path.join(work, "out.json")
    refused(ladder, work, ["merge", out, s[0], edited, s[2]], ["summary does not match its runs", "1-of-3.json"],
            out)


def case_run_index_beyond(ladder, work):
    s = make_shards(ladder, work)
    raw = load(s[1])
    raw["runs"][0]["run_index"] = raw["shard"]["runs_total"] + 7
    edited = save(raw, os.path.join(work, "edited", "1-of-3.json"))
    out = os.path.join(work, "out.json")
    refused(ladder, work, ["merge", out, s[0], edited, s[2]], ["run_index", "runs_total"], out)


def case_out_inside_folder(ladder, work):
    make_shards(ladder, work)
    folder = os.path.join(work, "shards")
    out = os.path.join(folder, "merged.json")
    refused(ladder, work, ["merge", out, folder], ["inside"], out)
    # Through a relative path with a trailing slash, too.
    refused(ladder, work, ["merge", "shards/sub/merged.json", "shards/"], ["inside"],
            os.path.join(folder, "sub"))


def as_reproduction(paths, folder, names, name=None):
    """The shard files made a reproduction's (named `names`), optionally renamed `name`, in
    folder/K-of-N/; their paths."""
    out = []
    for p in paths:
        raw = load(p)
        raw["shard"]["reproduction"] = names
        if name:
            raw["config"]["name"] = name
        base = os.path.splitext(os.path.basename(p))[0]
        out.append(save(raw, os.path.join(folder, base, (name or raw["config"]["name"]) + ".json")))
    return out


def case_out_inside_reproduction(ladder, work):
    s = make_shards(ladder, work)
    repro = os.path.join(work, "repro")
    as_reproduction(s, os.path.join(repro, "shards"), ["h3-shards"])
    inside = os.path.join(repro, "shards")
    refused(ladder, work, ["merge", inside, inside], ["inside"], os.path.join(inside, "h3-shards.json"))
    ok_run(ladder, work, ["merge", repro, inside])
    merged = os.path.join(repro, "h3-shards.json")
    check(os.path.isfile(merged) and results(merged).complete, "merge R R/shards did not write a complete file")


def case_safe_name_collision(ladder, work):
    s = make_shards(ladder, work)
    names = ["r a", "r_a"]
    shards = os.path.join(work, "repro", "shards")
    for n in names:
        as_reproduction(s, shards, names, n)
    out = os.path.join(work, "merged")
    refused(ladder, work, ["merge", out, shards], ["'r a'", "'r_a'"], out)


def merged_agrees(proc, merged, what):
    """The merge's exit status, its file's `complete` and each shard's entry agree."""
    f = results(merged)
    check(proc.returncode == (0 if f.complete else 1),
          "%s: exit %d with a file marked complete=%s\n%s" % (what, proc.returncode, f.complete, show(proc)))
    check(f.complete == (len(f.runs) == f.runs_planned), "%s: complete=%s with %d of %d runs"
          % (what, f.complete, len(f.runs), f.runs_planned))
    check(all(e.get("complete") == f.complete for e in f.shards) or not f.complete,
          "%s: the file is complete but a shard's entry says not: %s" % (what, f.shards))
    return f


def case_incomplete_flag_all_runs(ladder, work):
    s = make_shards(ladder, work)
    raw = load(s[1])
    raw["complete"] = False
    raw["finished_at"] = ""
    edited = save(raw, os.path.join(work, "edited", "1-of-3.json"))
    merged = os.path.join(work, "merged.json")
    proc = ok_run(ladder, work, ["merge", merged, s[0], edited, s[2]])
    f = merged_agrees(proc, merged, "a shard not marked complete with all its runs")
    check(f.complete, "every run is in, yet the merged file is not complete")


def case_runless_shard_absent(ladder, work):
    s = make_shards(ladder, work, count=5)
    with_runs = [p for p in s if load(p)["runs"]]
    check(len(with_runs) == 3, "expected 3 of 5 shards with runs, got %d" % len(with_runs))
    merged = os.path.join(work, "merged.json")
    proc = ok_run(ladder, work, ["merge", merged] + with_runs)
    f = merged_agrees(proc, merged, "shards without runs left out")
    check(f.complete, "every run is in, yet the merged file is not complete")


def costs_case(ladder, work, change, words):
    full = os.path.join(work, "full.json")
    ok_run(ladder, work, ["run", CONFIG, "--out", full, "--quiet"])
    raw = load(full)
    for run in raw["runs"]:
        change(run)
    costs = save(raw, os.path.join(work, "costs", "costs.json"))
    refused(ladder, work, ["plan", CONFIG, "--shard", "0/2", "--costs", costs], words + ["costs.json"])
    out = os.path.join(work, "out.json")
    refused(ladder, work, ["run", CONFIG, "--shard", "0/2", "--costs", costs, "--out", out, "--quiet"],
            words, out)


def case_costs_wall_huge(ladder, work):
    costs_case(ladder, work, lambda r: r.update(wall_s=1e308), ["wall_s"])


def case_costs_wall_negative(ladder, work):
    costs_case(ladder, work, lambda r: r.update(wall_s=-5), ["wall_s"])


def case_costs_wall_text(ladder, work):
    costs_case(ladder, work, lambda r: r.update(wall_s="x"), ["wall_s"])


def huge_samples(run):
    run.pop("wall_s", None)
    if run.get("timing"):
        run["timing"]["samples"] = [1e300, 1e300]


def case_costs_samples_huge(ladder, work):
    costs_case(ladder, work, huge_samples, ["samples"])


def main():
    ladder, scratch, case = case_args("hostile3_shards.py")
    body = globals().get("case_" + case)
    if not body:
        sys.exit("unknown case %r" % case)
    work = tempfile.mkdtemp(dir=scratch, prefix="h3-shards-")
    body(ladder, work)
    if not problems:
        shutil.rmtree(work, ignore_errors=True)
    finish(problems)


main()

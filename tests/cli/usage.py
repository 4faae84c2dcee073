#!/usr/bin/env python3
"""The command line itself: --version, --help, option spellings and what the docs say.

    usage.py LADDER SCRATCH_ROOT CASE

Cases:
- version: `ladder --version` exits 0 and prints `ladder VERSION (commit COMMIT)`, the build's
  (LADDER_EXPECTED_VERSION and LADDER_EXPECTED_COMMIT in the environment, from CMake).
- overview: `ladder --help` (and -h, help) exits 0 and lists every command.
- help.COMMAND: `ladder COMMAND --help` and `-h` exit 0 with the same text on stdout and
  nothing on stderr; its usage names each of the command's options (OPTIONS below, written
  here independently of the binary), and its option list gives each one, and no other, a
  description.
- docs: docs/cli.md's command-line block and the usage comment atop harness/cli/main.cpp name
  every command and each of its options.
- forms.plan: `plan` with every value option spelt `--opt=value` prints exactly what it prints
  with `--opt value`, and the options took effect (filter, validation, counts, timing).
- forms.run: `run --out=FILE --filter=RE --repetitions=N ...` writes FILE with only the
  filtered variants, timed N times.
- forms.gen: `gen dtw --n=16 --entries=5 --out=f.tsv` (and `--n 16 --entries=5`) writes 5
  series of 16 values: a generator's parameters take both spellings too.
"""
import json
import os
import re
import sys
import tempfile

from clitest import case_args, checker, finish, results, run_ladder, show

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
OK = os.path.join(HERE, "fixtures", "ok.json")

# Every command's options, as the contract has them (docs/cli.md, `The command line`).
OPTIONS = {
    "list": ["json"],
    "run": ["out", "filter", "validate", "dump-outputs", "profile", "device", "quiet",
            "repetitions", "warmup", "timing", "scale", "runs", "shard", "costs", "gpus",
            "processes", "cpus", "process-samples", "rounds", "blocked-start", "plant"],
    "plan": ["scale", "filter", "validate", "repetitions", "warmup", "timing", "shard", "costs", "json",
             "advise", "cost-ratio", "markdown"],
    "gen": ["out", "generator", "config", "point", "scale", "json"],
    "ingest": ["out", "scale", "validate", "device", "quiet"],
    "compare": ["csv", "q", "min-effect", "calibration"],
    "export": ["format", "csv", "per-process", "out"],
    "reproduce": ["scale", "out", "force", "configs", "device", "shard", "gpus", "costs", "no-peers",
                  "profile", "python"],
    "merge": ["processes"],
    "ab": ["processes", "seed", "cpus", "out", "filter", "scale", "validate", "repetitions", "warmup",
           "timing", "device", "quiet", "rounds", "plant"],
}
# Options a command takes beyond its own: gen's data parameters, and help everywhere.
EXTRA_ROWS = {"gen": ["PARAM"]}

problems = []
check = checker(problems)


def text(b):
    return b.decode("utf-8", "replace")


def succeeded(proc, what):
    return check(proc.returncode == 0 and not proc.stderr, "%s:\n%s" % (what, show(proc)))


def version(ladder, work):
    proc = run_ladder([ladder, "--version"], work)
    if succeeded(proc, "--version"):
        want = "ladder %s (commit %s)\n" % (os.environ.get("LADDER_EXPECTED_VERSION", "?"),
                                            os.environ.get("LADDER_EXPECTED_COMMIT", "?"))
        check(text(proc.stdout) == want, "--version printed %r, expected %r" % (text(proc.stdout), want))


def overview(ladder, work):
    outputs = set()
    for word in ("--help", "-h", "help"):
        proc = run_ladder([ladder, word], work)
        if succeeded(proc, word):
            outputs.add(text(proc.stdout))
    check(len(outputs) == 1, "--help, -h and help print different texts")
    for out in outputs:
        for cmd in OPTIONS:
            check(re.search(r"^  %s  " % cmd, out, re.M), "--help does not list command %s:\n%s" % (cmd, out))


def usage_and_rows(help_text):
    """The usage lines (up to the first line that is neither `usage:` nor indented) and the
    option rows: {name: description}."""
    lines = help_text.splitlines()
    usage = []
    for line in lines:
        if not (line.startswith("usage: ") or (usage and line.startswith(" "))):
            break
        usage.append(line)
    rows = {}
    for line in lines:
        m = re.match(r"^  (?:-h, )?--([A-Za-z][\w-]*)(?: \S+)?  +(\S.*)$", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return "\n".join(usage), rows


def help_case(ladder, work, cmd):
    texts = []
    for flag in ("--help", "-h"):
        proc = run_ladder([ladder, cmd, flag], work)
        if succeeded(proc, "%s %s" % (cmd, flag)):
            texts.append(text(proc.stdout))
    if len(texts) != 2:
        return
    check(texts[0] == texts[1], "%s: --help and -h print different texts" % cmd)
    usage, rows = usage_and_rows(texts[0])
    check(usage.startswith("usage: ladder %s" % cmd), "%s --help does not begin with its usage" % cmd)
    for opt in OPTIONS[cmd]:
        check(re.search(r"--%s\b" % re.escape(opt), usage), "%s: the usage does not name --%s:\n%s"
              % (cmd, opt, usage))
        check(rows.get(opt, "").strip() != "", "%s: --%s has no line with a description" % (cmd, opt))
    extra = set(rows) - set(OPTIONS[cmd]) - set(EXTRA_ROWS.get(cmd, [])) - {"help"}
    check(not extra, "%s --help describes options this test does not know: %s" % (cmd, sorted(extra)))
    check("help" in rows, "%s --help does not describe -h, --help" % cmd)


def synopsis_problems(where, block):
    """Each command's lines in `block` (a line naming `ladder COMMAND`, then its indented
    continuation lines) must name each of its options."""
    found = {}
    current = None
    for line in block.splitlines():
        m = re.search(r"\bladder (\w+)", line)
        if m and m.group(1) in OPTIONS:
            current = m.group(1)
            found[current] = found.get(current, "") + "\n" + line
        elif current and line.strip() and line[:1] in (" ", "/") and re.match(r"^(//)?\s+\[?--", line):
            found[current] += "\n" + line
        else:
            current = None
    out = []
    for cmd, opts in OPTIONS.items():
        if cmd not in found:
            out.append("%s does not show `ladder %s`" % (where, cmd))
            continue
        for opt in opts:
            if not re.search(r"--%s\b" % re.escape(opt), found[cmd]):
                out.append("%s: `ladder %s` lacks --%s" % (where, cmd, opt))
    return out


def docs(ladder, work):
    with open(os.path.join(PROJECT, "docs", "cli.md"), encoding="utf-8") as f:
        manual = f.read()
    m = re.search(r"^## The command line\n+```\n(.*?)^```", manual, re.M | re.S)
    if check(m, "docs/cli.md has no code block under `## The command line`"):
        problems.extend(synopsis_problems("docs/cli.md", m.group(1)))
    with open(os.path.join(PROJECT, "harness", "cli", "main.cpp"), encoding="utf-8") as f:
        head = []
        for line in f:
            if not line.startswith("//"):
                break
            head.append(line)
    problems.extend(synopsis_problems("harness/cli/main.cpp's comment", "".join(head)))


def forms_plan(ladder, work):
    values = [("filter", "dtw/seq"), ("validate", "off"), ("repetitions", "3"), ("warmup", "2"),
              ("timing", "cold")]
    apart = [ladder, "plan", OK, "--json"] + [w for k, v in values for w in ("--" + k, v)]
    joined = [ladder, "plan", OK, "--json"] + ["--%s=%s" % kv for kv in values]
    a, b = run_ladder(apart, work), run_ladder(joined, work)
    if not (succeeded(a, "plan, --opt value") and succeeded(b, "plan, --opt=value")):
        return
    check(a.stdout == b.stdout, "plan prints different plans for --opt value and --opt=value")
    runs = json.loads(b.stdout)["runs"]
    check(runs and all(r["variant"].startswith("seq") and r["validation"] == "off"
                       and r["repetitions"] == 3 and r["warmup"] == 2 for r in runs),
          "plan --opt=value: the options did not take effect: %s" % runs)


def forms_run(ladder, work):
    proc = run_ladder([ladder, "run", OK, "--out=r.json", "--filter=dtw/seq", "--repetitions=2",
                       "--warmup=0", "--validate=full", "--timing=hot", "--quiet"], work)
    if not check(proc.returncode == 0, "run --opt=value:\n%s" % show(proc)):
        return
    path = os.path.join(work, "r.json")
    if not check(os.path.exists(path), "run --out=r.json wrote no r.json"):
        return
    runs = results(path).runs
    check(runs and all(r.variant.startswith("seq") and len(r.timing["samples"]) == 2
                       for r in runs), "run --opt=value: the options did not take effect: %s"
          % [r.raw for r in runs])


def forms_gen(ladder, work):
    for i, args in enumerate([["--n=16", "--entries=5"], ["--n", "16", "--entries=5"]]):
        out = "f%d.tsv" % i
        proc = run_ladder([ladder, "gen", "dtw"] + args + ["--out=" + out], work)
        if not check(proc.returncode == 0, "gen %s:\n%s" % (args, show(proc))):
            continue
        with open(os.path.join(work, out)) as f:
            rows = [line.split() for line in f if line.strip()]
        check(len(rows) == 5 and all(len(r) == 17 for r in rows),
              "gen %s: expected 5 lines of a label and 16 values, got %s" % (args, [len(r) for r in rows]))


def main():
    ladder, scratch, case = case_args("usage.py")
    cases = {"version": version, "overview": overview, "docs": docs, "forms.plan": forms_plan,
             "forms.run": forms_run, "forms.gen": forms_gen}
    cases.update({"help." + cmd: (lambda c: lambda l, w: help_case(l, w, c))(cmd) for cmd in OPTIONS})
    if case not in cases:
        sys.exit("unknown case %r (cases: %s)" % (case, ", ".join(sorted(cases))))
    with tempfile.TemporaryDirectory(prefix="usage.", dir=scratch) as work:
        cases[case](ladder, work)
    finish(problems)


if __name__ == "__main__":
    main()

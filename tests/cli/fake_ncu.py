#!/usr/bin/env python3
"""A stand-in for Nsight Compute's command line, for tests/cli/profile_fake_ncu.py: it answers
as ncu does where `ladder profile` looks (`--version`; a profiling call `ncu OPTIONS -f -o REPORT
LADDER run ... --out FILE [--runs LIST]`; `ncu --import REPORT --csv ...`) without running
anything on a GPU.

A profiling call writes the pass's results file itself, as `ladder run --profile` would have:
the GPU runs of FAKE_NCU_BASE (a results file whose GPU runs passed) that the pass selects
(--runs, else all). Its results are one per run in range replay and, in kernel replay, each
run's launches (FAKE_NCU_LAUNCHES "K:N,...", default 1), in run order, at most --launch-count
in all and only in the --nvtx-include range when one is given. Every metric asked for has the
value 1000 K + i for launch i of run K (0 in range replay), so that a test can tell whose
launches a run got. A run named in FAKE_NCU_FAIL_SHARED fails (status failed, out of memory)
in a pass of more than one run. At the run FAKE_NCU_STOP names, range replay stops the process
as ncu does at an API it cannot replay: an ==ERROR== line, and only the runs before it in the
results file; in a pass of more than one run, or in every pass with FAKE_NCU_STOP_ALONE=1
(then that pass writes no results file). With FAKE_NCU_NO_REPORT=1 every profiling call fails
as ncu does when it cannot start the application: an ==ERROR== line, exit status 1, no report
and no results file. Each call appends its kind and runs to FAKE_NCU_LOG.
"""
import json
import os
import sys


def option(args, name, default=None):
    return args[args.index(name) + 1] if name in args else default


def run_list(text):
    runs = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        runs.extend(range(int(a), int(b or a) + 1))
    return runs


def nvtx(run):
    return (f'1  "<default domain>:{run["study"]}.{run["variant"]}:none:none:none:none:none:none" '
            f'"<default domain>:r{run["run_index"]}:none:none:none:none:none:none" ')


def profile(args):
    o = args.index("-o")
    report, options, child = args[o + 1], args[:o], args[o + 2:]
    mode = option(options, "--replay-mode")
    if os.environ.get("FAKE_NCU_NO_REPORT") == "1":
        with open(os.environ["FAKE_NCU_LOG"], "a", encoding="utf-8") as f:
            f.write(json.dumps({"mode": mode, "runs": None, "include": None}) + "\n")
        print("==ERROR== Failed to profile the application: no report written")
        sys.exit(1)
    cap = int(option(options, "--launch-count", 10 ** 9))
    include = option(options, "--nvtx-include")
    metrics = option(options, "--metrics").split(",")
    with open(os.environ["FAKE_NCU_BASE"], encoding="utf-8") as f:
        base = json.load(f)
    wanted = run_list(option(child, "--runs")) if "--runs" in child else None
    runs = [r for r in base["runs"] if r["backend"] == "gpu" and r["status"] == "passed"
            and (wanted is None or r["run_index"] in wanted)]
    fail = {int(k) for k in os.environ.get("FAKE_NCU_FAIL_SHARED", "").split(",") if k}
    for r in runs:
        if r["run_index"] in fail and len(runs) > 1:
            r["status"], r["reason"] = "failed", "out of memory"
    ran = [r["run_index"] for r in runs]
    stop = int(os.environ.get("FAKE_NCU_STOP", "-1"))
    alone = os.environ.get("FAKE_NCU_STOP_ALONE") == "1"
    if mode == "range" and stop in ran and (len(runs) > 1 or alone):
        print("==ERROR== Range replay: the application called an API this mode does not support")
        runs = runs[:ran.index(stop)]
    if runs or not alone:
        with open(option(child, "--out"), "w", encoding="utf-8") as f:
            json.dump(dict(base, runs=runs), f)
    launches = dict(tuple(int(x) for x in kv.split(":"))
                    for kv in os.environ.get("FAKE_NCU_LAUNCHES", "").split(",") if kv)
    rows = []
    for r in runs:
        if r["status"] != "passed":
            continue
        k = r["run_index"]
        if mode == "range":
            rows.append({"name": "range", "nvtx": nvtx(r), "values": [1000 * k] * len(metrics)})
            continue
        if include and include != f'{r["study"]}.{r["variant"]}/r{k}/':
            continue
        for i in range(launches.get(k, 1)):
            if len(rows) < cap:
                rows.append({"name": f"kernel_{k}", "nvtx": nvtx(r), "values": [1000 * k + i] * len(metrics)})
    with open(report, "w", encoding="utf-8") as f:
        json.dump({"metrics": metrics, "rows": rows}, f)
    with open(os.environ["FAKE_NCU_LOG"], "a", encoding="utf-8") as f:
        f.write(json.dumps({"mode": mode, "runs": ran, "include": include}) + "\n")


def csv(report):
    with open(report, encoding="utf-8") as f:
        data = json.load(f)

    def line(cells):
        print(",".join('"' + str(c).replace('"', '""') + '"' for c in cells))
    fixed = ["ID", "Process ID", "Process Name", "Host Name",
             "thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg", "Kernel Name"]
    line(fixed + data["metrics"])
    line([""] * len(fixed) + ["inst"] * len(data["metrics"]))
    for i, row in enumerate(data["rows"]):
        line([i, 1, "ladder", "127.0.0.1", row["nvtx"], row["name"]] + row["values"])


def main():
    args = sys.argv[1:]
    if args == ["--version"]:
        print("NVIDIA (R) Nsight Compute Command Line Profiler\nVersion 2025.3.1.0 (build 0)")
    elif "--import" in args:
        csv(option(args, "--import"))
    else:
        profile(args)


if __name__ == "__main__":
    main()

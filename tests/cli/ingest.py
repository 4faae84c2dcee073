#!/usr/bin/env python3
"""`ladder ingest`: a peer's outputs and samples validated, measured and written by ladder.

    ingest.py LADDER SCRATCH_ROOT CASE

The "peer" here hands over the outputs of the study's own baseline (`ladder run --filter
seq... --dump-outputs`), so every case's right answer is known without any library:
  passes      twed smoke: every handed run passes, in point order, with its samples, warm-up,
              facts, note and the peer's own description; an unsupported run stays so; a
              config's `ladder` figure is dropped, its other figures kept
  incorrect   one output value changed: that run is incorrect (exit 1), the others pass
  params      eed: a variant computing at w_swap = 2 is validated at w_swap = 2 (the baseline's
              outputs at w_swap = 2 pass and keep the config point's name; those at 1 fail);
              a point it did not run keeps the config's parameters, which w_swap 2 would break
  gen_point   `gen --config --point` writes the bytes `gen STUDY --PARAM ...` writes
  bad         malformed handovers and options: one line, exit 2, nothing written
"""
import json
import os
import re
import shutil
import struct
import sys

from clitest import case_args, checker, error_problems, finish, results, run_ladder, tree

LADDER, SCRATCH, CASE = case_args("ingest.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
problems = []
check = checker(problems)


def ladder(*args, cwd):
    return run_ladder([LADDER, *args], cwd=cwd)


def work_dir():
    d = os.path.join(SCRATCH, "ingest-" + CASE)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write_config(work, source, changes):
    with open(os.path.join(ROOT, "configs", source), encoding="utf-8") as f:
        config = json.load(f)
    config.update(changes)
    path = os.path.join(work, "config.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f)
    return path


def baseline_outputs(work, config, variant, folder):
    """{point index: path of the baseline's output there}, from a run that dumps them."""
    proc = ladder("run", config, "--filter", "/%s$" % variant, "--dump-outputs", folder,
                  "--out", os.path.join(work, folder + ".json"), "--quiet", cwd=work)
    check(proc.returncode == 0, "the baseline run failed: %r" % proc.stderr[-500:])
    plan = json.loads(ladder("plan", config, "--json", cwd=work).stdout)
    study = plan["study"]
    return {p["point"]: os.path.join(folder, "%s__%s__%s.npy" % (
        study, variant, re.sub(r"[^A-Za-z0-9.\-]", "_", p["key"]))) for p in plan["points"]}, plan


def handover(work, runs, variant=None):
    v = {"name": "peer_fake", "label": "Fake 1.0", "change": "the baseline's outputs",
         "backend": "cpu", "precision": "fp64"}
    v.update(variant or {})
    path = os.path.join(work, "handover.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"peer": {"name": "Fake 1.0", "timing_method": "none"}, "variants": [v],
                   "runs": runs}, f)
    return path


def fake_run(point, outputs):
    return {"point": point, "variant": "peer_fake", "outputs": outputs,
            "samples_ms": [2.0, 1.0, 3.0], "warmup": 2, "facts": {"threads": 4},
            "note": "handed over by the test"}


def case_passes():
    work = work_dir()
    config = write_config(work, "twed/smoke.json", {"figures": ["ladder", "twed_paper"]})
    outs, plan = baseline_outputs(work, config, "seq_full", "dump")
    runs = [fake_run(p, o) for p, o in sorted(outs.items(), reverse=True)]  # any order
    runs[0] = {"point": runs[0]["point"], "variant": "peer_fake", "unsupported": "too big"}
    proc = ladder("ingest", config, handover(work, runs), "--out", "peer.json", cwd=work)
    check(proc.returncode == 0, "ingest exited %d: %r" % (proc.returncode, proc.stderr[-500:]))
    r = results(os.path.join(work, "peer.json"))
    check(r.peer == {"name": "Fake 1.0", "timing_method": "none"}, "peer: %r" % r.peer)
    check(r.config["figures"] == ["twed_paper"], "figures: %r" % r.config["figures"])
    keys = [p["key"] for p in plan["points"]]
    check([x.point for x in r.runs] == keys, "points out of order")
    check([x.raw["run_index"] for x in r.runs] == list(range(len(keys))), "run_index")
    last = r.runs[-1]
    check(last.status == "unsupported" and last.raw["reason"] == "too big",
          "unsupported: %r" % last.raw)
    for x in r.runs[:-1]:
        check(x.passed and x.is_peer and x.step == 90 and
              x.variant == "peer_fake" and x.label == "Fake 1.0", "run: %r" % x.raw)
        check(x.timing["samples"] == [2.0, 1.0, 3.0] and x.timing["median"] == 2.0 and
              x.timing["warmup"] == 2, "timing: %r" % x.timing)
        check(x.facts == {"threads": 4} and x.raw["note"] == "handed over by the test",
              "facts/note")
        check(x.validation["checked"] > 0 and x.metrics.get("gcups", 0) > 0,
              "validated: %r" % x.raw)


def case_budget():
    """A config's time budget is for the runs ladder times: a peer's samples are replayed as
    handed over, whatever it says (a warm-up-free CPU peer once lost its last sample to it)."""
    work = work_dir()
    config = write_config(work, "twed/smoke.json", {"time_budget_s": 0.001})
    outs, _plan = baseline_outputs(work, config, "seq_full", "dump")
    runs = [dict(fake_run(p, o), warmup=0) for p, o in sorted(outs.items())]
    proc = ladder("ingest", config, handover(work, runs), "--out", "peer.json", cwd=work)
    check(proc.returncode == 0, "ingest exited %d: %r" % (proc.returncode, proc.stderr[-500:]))
    for x in results(os.path.join(work, "peer.json")).runs:
        check(x.passed and x.timing["samples"] == [2.0, 1.0, 3.0] and x.timing["warmup"] == 0,
              "run: %r" % x.raw)


def case_incorrect():
    work = work_dir()
    config = os.path.join(ROOT, "configs", "twed", "smoke.json")
    outs, _ = baseline_outputs(work, config, "seq_full", "dump")
    with open(os.path.join(work, outs[4]), "r+b") as f:  # the batch point: change its last value
        f.seek(-8, os.SEEK_END)
        (x,) = struct.unpack("<d", f.read(8))
        f.seek(-8, os.SEEK_END)
        f.write(struct.pack("<d", x + 1.0))
    proc = ladder("ingest", config, handover(work, [fake_run(p, o) for p, o in outs.items()]),
                  "--out", "peer.json", cwd=work)
    check(proc.returncode == 1, "ingest exited %d, expected 1" % proc.returncode)
    status = [x.status for x in results(os.path.join(work, "peer.json")).runs]
    check(status == ["passed"] * 4 + ["incorrect"] + ["passed"] * (len(status) - 5),
          "statuses %r" % status)


def case_params():
    work = work_dir()
    config = os.path.join(ROOT, "configs", "eed", "smoke.json")
    at2 = write_config(work, "eed/smoke.json", {"params": {"w_swap": 2}})
    outs1, plan = baseline_outputs(work, config, "seq", "dump1")
    outs2, _ = baseline_outputs(work, at2, "seq", "dump2")
    # The unit-cost points of the lengths sweep: swaps of adjacent symbols matter there.
    points = [p["point"] for p in plan["points"] if p["sweep"] == "lengths"]
    variant = {"precision": "int32", "params": {"w_swap": 2}}
    costs = [p["point"] for p in plan["points"] if p["sweep"] == "costs"]
    skipped = [{"point": p, "variant": "peer_fake", "unsupported": "weighted costs"} for p in costs]
    for outs, want in ((outs2, 0), (outs1, 1)):
        h = handover(work, [fake_run(p, outs[p]) for p in points] + skipped, variant)
        proc = ladder("ingest", config, h, "--out", "peer.json", cwd=work)
        check(proc.returncode == want, "outputs at %s: exit %d, expected %d"
              % ("w_swap 2" if want == 0 else "w_swap 1", proc.returncode, want))
    runs = results(os.path.join(work, "peer.json")).runs
    ran, rest = runs[:len(points)], runs[len(points):]
    check(any(x.status == "incorrect" for x in ran), "w_swap 1 outputs all passed at w_swap 2")
    check(all(x.params["w_swap"] == "2" for x in ran), "params not recorded at w_swap 2")
    check([x.point for x in ran] == [plan["points"][p]["key"] for p in points],
          "points not named as the config names them")
    check([x.status for x in rest] == ["unsupported"] * len(costs) and
          all(x.params["w_swap"] == "3" for x in rest), "unsupported runs: %r" % [x.raw for x in rest])


def case_gen_point():
    work = work_dir()
    config = os.path.join(ROOT, "configs", "twed", "smoke.json")
    plan = json.loads(ladder("plan", config, "--json", cwd=work).stdout)
    p = plan["points"][4]
    data = {k: v for k, v in p["params"].items()
            if k in ("n", "series", "seed", "dim", "m", "timestamps")}
    check(ladder("gen", "--config", config, "--point=4", "--out", "a.npy", cwd=work).returncode == 0,
          "gen --config failed")
    args = ["gen", "twed", "--generator", p["data"]["generator"]]
    for k, v in data.items():
        args += ["--" + k, v]
    check(ladder(*args, "--out", "b.npy", cwd=work).returncode == 0, "gen twed failed")
    with open(os.path.join(work, "a.npy"), "rb") as a, open(os.path.join(work, "b.npy"), "rb") as b:
        check(a.read() == b.read(), "gen --config --point 4 differs from gen twed %r" % data)


BAD_RUNS = {
    "unknown_field": ({"colour": 1}, "unknown field"),
    "point_out_of_range": ({"point": 99}, "index of one of"),
    "unknown_variant": ({"variant": "peer_other"}, "not in the handover"),
    "missing_outputs": ({"outputs": "nowhere.npy"}, "nowhere.npy"),
    "malformed_outputs": ({"outputs": "handover.json"}, "npy"),
    "negative_sample": ({"samples_ms": [1.0, -1.0]}, "positive"),
    "no_samples": ({"samples_ms": []}, "non-empty"),
    "samples_absent": ({"samples_ms": None}, "non-empty"),  # outputs without samples_ms
    "outputs_and_error": ({"error": "boom"}, "exactly one of"),
    "empty_reason": ({"outputs": None, "unsupported": ""}, "why"),
    "fractional_warmup": ({"warmup": 1.5}, "warmup"),
}
BAD_VARIANTS = {
    "step_name": ({"name": "seq_full"}, "is a step"),
    "bad_precision": ({"precision": "int8"}, "precision"),
    "bad_backend": ({"backend": "tpu"}, "backend"),
    "unknown_param": ({"params": {"colour": 1}}, "not a parameter"),
    "param_out_of_range": ({"params": {"degree": -3}}, "degree"),
}


def case_bad():
    work = work_dir()
    config = os.path.join(ROOT, "configs", "twed", "smoke.json")
    outs, _ = baseline_outputs(work, config, "seq_full", "dump")
    cases = []
    for name, (change, match) in BAD_RUNS.items():
        run = dict(fake_run(0, outs[0]), **change)
        cases.append((name, [run, fake_run(1, outs[1])], {}, match))
    for name, (change, match) in BAD_VARIANTS.items():
        cases.append((name, [fake_run(0, outs[0])], change, match))
    cases.append(("twice", [fake_run(0, outs[0]), fake_run(0, outs[0])], {}, "twice"))
    for name, runs, variant, match in cases:
        runs = [{k: v for k, v in r.items() if v is not None} for r in runs]
        h = handover(work, runs, variant)
        before = tree(work)
        proc = ladder("ingest", config, h, "--out", "out/peer.json", cwd=work)
        for p in error_problems(proc, (match,)) + (["created files"] if tree(work) != before else []):
            problems.append("%s: %s" % (name, p))
    h = handover(work, [fake_run(0, outs[0])])
    for args, match in ((["ingest", config, h], "--out"), (["ingest", config, "--out", "x.json"], "HANDOVER"),
                        (["gen", "--config", config, "--point", "7", "--out", "x.npy"], "--point 7"),
                        (["gen", "--config", config, "--out", "x.npy"], "--point"),
                        (["gen", "--config", config, "--point", "0", "--n", "3", "--out", "x.npy"], "--n"),
                        (["gen", "twed", "--point", "0", "--out", "x.npy"], "--config"),
                        (["gen", "twed", "--json", "--out", "x.npy"], "--config")):
        for p in error_problems(ladder(*args, cwd=work), (match,)):
            problems.append("%s: %s" % (" ".join(args[:2] + args[3:]), p))


CASES = {"passes": case_passes, "budget": case_budget, "incorrect": case_incorrect, "params": case_params,
         "gen_point": case_gen_point, "bad": case_bad}
if CASE not in CASES:
    sys.exit("unknown case %r" % CASE)
CASES[CASE]()
finish(problems)

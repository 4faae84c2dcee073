"""The points a peer runs and their data, from ladder itself: `ladder plan --json` (each point
checked for the fields a peer reads) and `ladder gen` (the point's data written to a file)."""
import json
import subprocess
from pathlib import Path

from . import basics

def ladder(args, *argv, cwd=None):
    """(ladder's stdout, '') or (None, its error line)."""
    scale = ["--scale", args.scale] if args.scale else []
    try:
        done = subprocess.run([args.ladder, *argv, *scale], capture_output=True, text=True,
                              cwd=cwd)
    except OSError as err:
        raise basics.PeerError(f"cannot run ladder at {args.ladder}: {err.strerror or err} (build it: "
                        "cmake --build build --target ladder)") from err
    if done.returncode == 0:
        return done.stdout, ""
    lines = (done.stderr or done.stdout).strip().splitlines() or ["(no message)"]
    return None, lines[-1].removeprefix("ladder: error: ")


def ladder_json(args, out, command):
    """The JSON object `ladder COMMAND --json` printed (OUT); PeerError when --ladder printed
    anything else."""
    try:
        value = json.loads(out)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise basics.PeerError(f"--ladder {args.ladder}: `ladder {command} --json` printed no JSON "
                        f"object ({basics.one_line(out)[:60] or 'nothing'}); is it ladder?")
    return value


# What each point of `ladder plan --json` holds that the peers read.
PLAN_POINT = {"point": int, "key": str, "sweep": str, "params": dict, "warmup": dict,
              "repetitions": dict}


def plan_points(args, study):
    """The points of the config that this run hands over, as `ladder plan --json` lists them."""
    out, error = ladder(args, "plan", args.config, "--json")
    if error:
        raise basics.PeerError(f"ladder plan: {error}")
    plan = ladder_json(args, out, "plan")
    points = plan.get("points")
    if not isinstance(points, list) or not all(
            isinstance(p, dict) and all(isinstance(p.get(k), t) for k, t in PLAN_POINT.items())
            for p in points):
        raise basics.PeerError(f"--ladder {args.ladder}: `ladder plan --json` printed no plan of "
                        "points; is it ladder?")
    if plan.get("study") != study:
        raise basics.PeerError(f"{args.prog} is a peer of the {study} study; {args.config} is a "
                        f"{plan.get('study')} config")
    wanted = [s for s in (args.only_sweeps or "").split(",") if s]
    labels = list(dict.fromkeys(p["sweep"] for p in points))
    unknown = [s for s in wanted if s not in labels]
    if unknown:
        raise basics.PeerError(f"--only-sweeps: no sweep '{unknown[0]}' (the config has "
                        f"{', '.join(labels) or 'no sweeps'})")
    return [p for p in points if not wanted or p["sweep"] in wanted]


def generate(args, point, folder, suffix):
    """(the point's data file, its facts, '') or (None, None, why `ladder gen` could not write
    it). The facts are what results record as a run's `data`: sizes, and where the point's
    inputs lie in the file (a study's selection rules stay ladder's)."""
    name = f"p{point['point']}-data{suffix}"  # run in the folder: messages name no temp path
    out, error = ladder(args, "gen", "--config", str(Path(args.config).resolve()), "--point",
                        str(point["point"]), "--json", "--out", name, cwd=folder)
    if error:
        return None, None, f"`ladder gen` cannot write this point's data: {error}"
    facts = ladder_json(args, out, "gen").get("data")
    if not isinstance(facts, dict):
        raise basics.PeerError(f"--ladder {args.ladder}: `ladder gen --json` printed no data facts; "
                        "is it ladder?")
    return Path(folder) / name, facts, ""

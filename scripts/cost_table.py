#!/usr/bin/env python3
"""Write the reproduction's cost table, configs/costs.json: each paper experiment's time at each
scale in one reference reproduction. `ladder reproduce` weighs its time-left estimate by it
(a config of a skyline sweep takes minutes, one of EED seconds), so that the estimate needs
none of the results archive.

  scripts/cost_table.py [--paper DIR] [--quick DIR] [--out FILE]

DIR: a reproduction folder (its reproduction.json: each config's `elapsed_s`, a reused config's
being its results file's own time). Defaults: the canonical H200 reproduction for the paper
scale, the H200's quick reproduction for the quick scale; FILE: configs/costs.json. Times are
rounded to 0.1 s: the estimate scales them by the machine's own pace, so only their ratios
matter. A config of configs/ that a reproduction lacks is named on stderr (the estimate then
counts runs at that scale until the table has it).
Exit status: 0 when written, 2 when a reproduction cannot be read.
"""
import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULTS = {"paper": "results/reference/h200", "quick": "results/reference/h200/reproduction/quick"}


class TableError(Exception):
    pass


def scale_entry(folder, scale):
    """The table's entry for one scale: the GPU, the commit, where the times come from and
    each config's seconds."""
    path = Path(folder) / "reproduction.json"
    try:
        m = json.loads(path.read_text(encoding="utf-8"))
        configs = [{"name": c["name"], "elapsed_s": round(float(c["elapsed_s"]), 1)}
                   for c in m["configs"]]
        device, commit = m.get("device") or {}, (m.get("ladder") or {}).get("git_commit", "?")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise TableError(f"{path}: not a reproduction manifest with each config's time ({err})") from err
    if m.get("scale") != scale:
        raise TableError(f"{path}: a {m.get('scale')}-scale reproduction, not {scale}")
    try:
        source = str(path.resolve().relative_to(ROOT))
    except ValueError:
        source = str(path)
    return {"gpu": device.get("name") or "no GPU", "commit": str(commit)[:7], "from": source,
            "configs": sorted(configs, key=lambda c: c["name"])}


def paper_experiments():
    """The names of the configs under configs/ that `ladder reproduce` runs."""
    names = []
    for f in sorted((ROOT / "configs").glob("*/*.json")):
        config = json.loads(f.read_text(encoding="utf-8"))
        if isinstance(config, dict) and "reproduce" in config:
            names.append(config.get("name", f.stem))
    return names


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for scale, folder in DEFAULTS.items():
        parser.add_argument(f"--{scale}", default=str(ROOT / folder), metavar="DIR",
                            help=f"the {scale}-scale reproduction (default {folder})")
    parser.add_argument("--out", default=str(ROOT / "configs" / "costs.json"), metavar="FILE")
    args = parser.parse_args(argv)
    try:
        scales = {scale: scale_entry(getattr(args, scale), scale) for scale in DEFAULTS}
    except TableError as err:
        print(f"cost_table: error: {err}", file=sys.stderr)
        return 2
    for scale, entry in scales.items():
        have = {c["name"] for c in entry["configs"]}
        for name in paper_experiments():
            if name not in have:
                print(f"cost_table: {entry['from']} has no time for {name}: the {scale}-scale "
                      "estimate counts runs until it has", file=sys.stderr)
    table = {"about": "Each paper experiment's seconds at each scale in one reference "
                      "reproduction, which `ladder reproduce` weighs its time-left estimate by. "
                      "Written by scripts/cost_table.py; regenerate it when a config changes much.",
             "scales": scales}
    # A config a line: the table is read and diffed by people too.
    text = re.sub(r'\{\s+"name": ("[^"]*"),\s+"elapsed_s": ([0-9.]+)\s+\}',
                  r'{"name": \1, "elapsed_s": \2}', json.dumps(table, indent=2))
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(f"cost_table: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

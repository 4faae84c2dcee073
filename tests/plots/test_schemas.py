#!/usr/bin/env python3
"""The JSON Schemas of plots/schemas/ against the files they describe and the binary.

    test_schemas.py [LADDER]

Every config under configs/ fits the config schema (configs/costs.json the cost table's), every
results file under results/reference/ the results schema, and so does a results file the binary
(LADDER, default build/ladder) writes now; the per-study names of the config schema are the
binary's (`ladder list --json`). Files that break the contract must not fit: an unknown field,
a wrong type, an unknown status, a missing field; and each bad config of the command-line tests
that the binary refuses for its structure fails the schema too (BAD_STRUCTURE: the binary is
asked as well), while those only the binary can judge are listed with why (BINARY_ONLY), and
every bad config fixture is in one of the two lists. Exit status 77 (skipped) without
jsonschema.
"""
import copy
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from plots import results as ladder_results
from plots import schema

ROOT = Path(__file__).resolve().parents[2]

FIXTURES = ROOT / "tests" / "cli" / "fixtures"
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


# Bad configs of tests/cli (cli.bad.*) the binary refuses for their structure: each must
# break the config schema.
BAD_STRUCTURE = [
    "axes_not_list", "data_generator_and_file", "data_missing", "description_not_string",
    "figures_not_list", "hc_profile_choice_bad", "hc_profile_choice_bad_variants",
    "hc_profile_choice_first_variants", "n_null", "not_object", "repetitions_string",
    "scale_bad_field", "scale_unknown", "sweep_figures_bad_name", "sweep_repetitions_zero",
    "sweep_time_budget_string", "sweep_warmup_not_number", "time_budget_huge",
    "time_budget_negative", "timing_bad", "unknown_field", "unknown_generator",
    "unknown_parameter", "unknown_study", "validation_sample_zero", "variants_empty",
]

# Bad configs only the binary can judge, so they fit the schema:
#   a parameter's range or choice (per parameter, per study: n_zero, block_size_*, eed_*, twed_*,
#     noise_bad_choice, cov_*_not_compiled, generated_no_entries, ...), also at a scale
#     (scale_bad_value);
#   a parameter given twice across data, params, axes and zip (axes_and_zip), generated-data
#     parameters beside a data file (data_file_and_*), zip lists of unequal length (zip_unequal);
#   variant names and patterns (unknown_variant: the variants depend on the build);
#   a key given twice in one object (dup_key: JSON parsers keep the last);
#   the data file's content or kind (data_*, cov_* with .npy files, eed_file_*, twed_*).
BINARY_ONLY = [
    "axes_and_zip", "block_size_too_big", "block_size_zero", "cov_chunk_not_compiled",
    "cov_columns_not_compiled", "cov_empty", "cov_file_is_directory", "cov_ints", "cov_rank1",
    "cov_schedule_bad_choice", "cov_shape_negative", "cov_shape_word", "cov_short",
    "cov_stages_not_compiled", "cov_text", "data_empty", "data_file_and_n", "data_file_and_noise",
    "data_file_and_seed", "data_file_is_directory", "data_file_is_npy", "data_file_missing",
    "data_label_not_integer", "data_nan", "data_nul", "data_ragged", "data_text", "dup_key",
    "eed_alphabet_0", "eed_alphabet_257", "eed_cost_negative", "eed_file_empty", "eed_file_mixed",
    "eed_file_odd", "eed_file_two_tabs", "eed_mutation_bad", "eed_mutation_with_m", "eed_overflow",
    "eed_pairs_zero", "eed_prep_bad", "eed_spread_bad", "eed_swap_breaks", "entries_negative",
    "generated_no_entries", "n_not_integer", "n_string_space", "n_zero", "noise_bad_choice",
    "query_beyond_file", "scale_bad_value", "twed_a_beyond", "twed_degree_zero", "twed_dims_differ",
    "twed_idx_wrong_magic", "twed_lambda_negative", "twed_mnist_like_n", "twed_mode_bad", "twed_nan",
    "twed_nu_nan",
    "twed_nu_negative", "twed_pair_a_count", "twed_random_walk_no_n", "twed_sc_dim",
    "twed_times_not_increasing", "twed_triangle_with_m", "unknown_variant", "zip_unequal",
]


def test_schemas_are_schemas():
    import jsonschema
    for kind in schema.KINDS:
        try:
            jsonschema.Draft202012Validator.check_schema(load(schema.schema_path(kind)))
            check(True, f"{kind}.schema.json is a draft 2020-12 schema")
        except jsonschema.SchemaError as err:
            check(False, f"{kind}.schema.json is a draft 2020-12 schema: {err.message}")


def test_configs():
    configs = sorted((ROOT / "configs").rglob("*.json"))
    check(len(configs) > 10, f"configs/ holds configs ({len(configs)})")
    for path in configs:
        kind = "costs" if path.name == "costs.json" else "config"
        problems = schema.validate(kind, load(path))
        check(not problems, f"{path.relative_to(ROOT)} fits the {kind} schema {problems[:2]}")


def kind_of(raw):
    """What a JSON file under results/reference/ is: results, or a kind no schema covers."""
    if not isinstance(raw, dict):
        return "other"
    if "schema_version" in raw and "runs" in raw and "claims" not in raw:
        return "results"
    if ladder_results.is_manifest(raw):
        return "manifest"
    if "claims" in raw:
        return "claims"
    if "binaries" in raw:
        return "ab"  # `ladder ab`'s own summary
    if "study" in raw and "data" in raw:
        return "config"
    return "other"


def test_reference_results():
    counts = {}
    for path in sorted((ROOT / "results" / "reference").rglob("*.json")):
        raw = load(path)
        kind = kind_of(raw)
        counts[kind] = counts.get(kind, 0) + 1
        check(kind != "other", f"{path.relative_to(ROOT)} is a file of a known kind")
        if kind == "results":
            problems = schema.validate("results", raw)
            if problems:  # one line per file that passes: hundreds otherwise
                check(False, f"{path.relative_to(ROOT)} fits the results schema {problems[:2]}")
    check(counts.get("results", 0) > 100, f"results/reference/ holds results files ({counts})")


def test_binary(ladder):
    if not Path(ladder).is_file():
        check(False, f"the binary {ladder} exists (build the ladder target)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "smoke.json"
        run = subprocess.run([ladder, "run", "configs/dtw/smoke.json", "--out", str(out), "--quiet"],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
        check(run.returncode == 0, f"ladder run configs/dtw/smoke.json exits 0 ({run.stderr.strip()[-200:]})")
        if out.is_file():
            problems = schema.validate("results", load(out))
            check(not problems, f"the results ladder writes now fit the results schema {problems[:3]}")
            check(bool(ladder_results.load(out, validate=True).runs), "load(validate=True) takes them")
    listed = json.loads(subprocess.run([ladder, "list", "--json"], capture_output=True, text=True,
                                       check=True).stdout)["studies"]
    config = load(schema.schema_path("config"))
    check(config["$defs"]["structure"]["properties"]["study"]["enum"] == [s["name"] for s in listed],
          "the config schema's studies are the binary's")
    rules = {r["if"]["properties"]["study"]["const"]: r["then"]["properties"] for r in config["allOf"]}
    for s in listed:
        rule = rules.get(s["name"], {})
        names = {p["name"] for p in s["data_params"]} | {p["name"] for v in s["variants"] for p in v["params"]}
        check(set(rule.get("params", {}).get("propertyNames", {}).get("enum", [])) == names,
              f"{s['name']}: the schema's parameter names are the binary's")
        check(rule.get("data", {}).get("properties", {}).get("generator", {}).get("enum") == s["generators"],
              f"{s['name']}: the schema's generators are the binary's")
        check(rule.get("figures", {}).get("items", {}).get("enum") == s["figures"],
              f"{s['name']}: the schema's figures are the binary's")
    for name in BAD_STRUCTURE:
        refused = subprocess.run([ladder, "plan", str(FIXTURES / f"{name}.json")], capture_output=True,
                                 text=True, timeout=60)
        check(refused.returncode == 2, f"the binary refuses {name}.json (exit {refused.returncode})")


def fails(kind, data, what):
    problems = schema.validate(kind, data)
    check(bool(problems), f"{what} breaks the {kind} schema {problems[:1]}")


def test_negative_cases():
    smoke = load(ROOT / "configs" / "dtw" / "smoke.json")
    bad = dict(smoke, repetiton=3)
    fails("config", bad, "a config with an unknown top-level field")
    fails("config", dict(smoke, repetitions="3"), "a config whose repetitions is a string")
    fails("config", dict(smoke, repetitions=1.5), "a config whose repetitions is not whole")
    fails("config", dict(smoke, repetitions={"cpu": 1, "gpus": 2}), "repetitions with an unknown key")
    fails("config", {k: v for k, v in smoke.items() if k != "study"}, "a config without its study")
    fails("config", dict(smoke, axes={"n": [8]}), "top-level axes beside sweeps")
    results = load(ROOT / "results" / "reference" / "h100" / "eed-paper.json")
    r = copy.deepcopy(results)
    r["runs"][0]["status"] = "fine"
    fails("results", r, "a run with an unknown status")
    r = copy.deepcopy(results)
    del r["runs"][0]["variant"]
    fails("results", r, "a run without its variant")
    r = copy.deepcopy(results)
    del r["schema_version"]
    fails("results", r, "a file without schema_version")
    r = copy.deepcopy(results)
    r["schema_version"] = 3
    fails("results", r, "schema_version 3")
    r = copy.deepcopy(results)
    timed = next(run for run in r["runs"] if run["timing"])
    timed["timing"]["median"] = "fast"
    fails("results", r, "a timing whose median is text")
    r = copy.deepcopy(results)
    r["runs_planed"] = 3
    fails("results", r, "a results file with an unknown top-level field")
    costs = load(ROOT / "configs" / "costs.json")
    c = copy.deepcopy(costs)
    c["scales"]["paper"]["configs"][0]["elapsed_s"] = "80"
    fails("costs", c, "a cost table whose time is text")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bad.json"
        path.write_text(json.dumps(r), encoding="utf-8")
        try:
            ladder_results.load(path, validate=True)
            check(False, "load(validate=True) refuses a file that breaks the schema")
        except ladder_results.ResultsError as err:
            check("runs_planed" in str(err) and "\n" not in str(err),
                  f"load(validate=True) refuses it in one line naming the field ({err})")
        check(bool(ladder_results.load(path).runs), "load() without validate takes it as before")


def bad_config_fixtures():
    """The JSON configs the cli.bad tests give `ladder run` or `ladder plan`, that parse."""
    text = (ROOT / "tests" / "cli" / "CMakeLists.txt").read_text(encoding="utf-8")
    names = set()
    for line in text.splitlines():
        if line.startswith("ladder_bad("):
            names.update(re.findall(r"(?:run|plan) \$\{FIX\}/([A-Za-z0-9_.-]+)\.json", line))
    out = []
    for name in sorted(names - {"ok"}):
        try:
            out.append((name, load(FIXTURES / f"{name}.json")))
        except (OSError, ValueError):
            pass  # a missing or malformed file: no JSON to hold against a schema
    return out


def test_bad_fixtures():
    fixtures = bad_config_fixtures()
    check(len(fixtures) > 80, f"the cli.bad tests' configs are found ({len(fixtures)})")
    for name, raw in fixtures:
        problems = schema.validate("config", raw)
        if name in BAD_STRUCTURE:
            check(bool(problems), f"{name}.json breaks the config schema {problems[:1]}")
        elif name in BINARY_ONLY:
            check(not problems, f"{name}.json fits the schema (only the binary judges it) {problems[:1]}")
        else:
            check(False, f"{name}.json is listed in BAD_STRUCTURE or BINARY_ONLY")


def main():
    try:
        import jsonschema
        jsonschema.Draft202012Validator  # noqa: B018  (before 4.0 there is none)
    except (ImportError, AttributeError):
        print(f"skipped: {schema.INSTALL}")
        return 77
    test_schemas_are_schemas()
    test_configs()
    test_reference_results()
    test_negative_cases()
    test_bad_fixtures()
    test_binary(sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "ladder"))
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Tests of claims.json, written beside REPORT.md by plots/report.py: it follows
plots/claims.schema.json, holds every claim of the report once with the number REPORT.md's
claims table gives it, and keeps ladder's own checks apart from the seeds' claims (out of the
counts, in their own table).

Run: PYTHONPATH=. python3 tests/plots/test_report_claims_json.py   (exits non-zero on failure)
"""
import dataclasses
import json
import re
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
from plots import report  # noqa: E402
from plots import report_common as rc  # noqa: E402
from test_report import PAPER_FILES, REFERENCE, manifest_for  # noqa: E402

SCHEMA = json.loads((ROOT / "plots" / "claims.schema.json").read_text(encoding="utf-8"))


def problems(value, schema, where="$"):
    """What in `value` breaks `schema`: the subset of JSON Schema claims.schema.json uses
    (type, const, enum, required, properties, additionalProperties false, items)."""
    out = []
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        kinds = {"object": dict, "array": list, "string": str, "null": type(None),
                 "number": (int, float), "integer": int}
        if not any(isinstance(value, kinds[n]) and not (n in ("number", "integer") and isinstance(value, bool))
                   for n in names):
            return [f"{where}: {value!r} is not {types}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        out += [f"{where}: no {k}" for k in schema.get("required", []) if k not in value]
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            out += [f"{where}: unknown {k}" for k in value if k not in props]
        for k, sub in props.items():
            if k in value:
                out += problems(value[k], sub, f"{where}.{k}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            out += problems(v, schema["items"], f"{where}[{i}]")
    return out


class ClaimsJson(unittest.TestCase):
    def write(self, tmp, mark_ladder=None):
        """REPORT.md and claims.json of the H100 reference runs in `tmp`; `mark_ladder`
        (a claim's words) turns that claim into a check ladder adds."""
        (Path(tmp) / "reproduction.json").write_text(json.dumps(manifest_for(
            tmp, [REFERENCE / f"{f}.json" for f in PAPER_FILES])), encoding="utf-8")
        original = report.sections
        if mark_ladder:
            def marked(ctx):
                return [(h, dataclasses.replace(s, claims=[
                    dataclasses.replace(c, source=rc.FROM_LADDER, quote="", place="")
                    if c.claim == mark_ladder else c for c in s.claims])) for h, s in original(ctx)]
            report.sections = marked
        try:
            self.assertEqual(report.main([tmp]), 0)
        finally:
            report.sections = original
        return ((Path(tmp) / "REPORT.md").read_text(encoding="utf-8"),
                json.loads((Path(tmp) / "claims.json").read_text(encoding="utf-8")))

    def test_follows_the_schema_and_numbers_the_claims_as_the_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            text, doc = self.write(tmp)
        self.assertEqual(problems(doc, SCHEMA), [])
        seed = [c for c in doc["claims"] if c["source"] == "seed"]
        self.assertGreater(len(seed), 40)
        self.assertEqual([c["id"] for c in seed], [str(i) for i in range(1, len(seed) + 1)])
        table = text.split("## Claims\n", 1)[1].split("\n## ", 1)[0]
        for c in seed:
            # The claims table's row of this number names the same claim and verdict.
            row = re.search(rf"^\| {c['id']} \| [^\n]*$", table, re.M)
            self.assertIsNotNone(row, c["id"])
            self.assertIn(rc.md_escape(c["claim"]), row.group(0))
            self.assertIn(f"| {c['verdict']} |", row.group(0))
        self.assertIn(f"{len(seed)} claims:", text)
        # Every claim of a seed quotes it and says where; ladder's checks quote nothing.
        for c in doc["claims"]:
            if c["source"] == "seed":
                self.assertTrue(c["quote"].strip() and c["place"].strip(), c)
                self.assertLessEqual(len(c["quote"]), 400, c["id"])
            else:
                self.assertEqual((c["quote"], c["place"]), ("", ""), c)
        # Numbers are JSON numbers or null, never NaN text.
        self.assertNotIn("NaN", json.dumps(doc))

    def test_ladder_checks_are_apart_and_not_counted(self):
        with tempfile.TemporaryDirectory() as tmp:
            _text, before = self.write(tmp)
        first = next(c for c in before["claims"] if c["source"] == "seed")
        with tempfile.TemporaryDirectory() as tmp:
            text, doc = self.write(tmp, mark_ladder=first["claim"])
        self.assertEqual(problems(doc, SCHEMA), [])
        checks = [c for c in doc["claims"] if c["source"] == "ladder"]
        self.assertTrue(checks and all(re.fullmatch(r"L\d+", c["id"]) for c in checks))
        seed = [c for c in doc["claims"] if c["source"] == "seed"]
        self.assertEqual(len(seed) + len(checks), len(before["claims"]))
        self.assertIn(f"{len(seed)} claims:", text)  # the summary counts the seeds' alone
        self.assertIn("### Checks ladder adds", text)
        extra = text.split("### Checks ladder adds", 1)[1].split("\n## ", 1)[0]
        self.assertIn(rc.md_escape(first["claim"]), extra)

    def test_the_schema_checker_can_fail(self):
        with tempfile.TemporaryDirectory() as tmp:
            _text, doc = self.write(tmp)
        bad = json.loads(json.dumps(doc))
        bad["claims"][0]["verdict"] = "fine"
        bad["claims"][1].pop("quote")
        bad["claims"][2]["extra"] = 1
        bad["claims"][3]["seed_value"] = "2x"
        found = problems(bad, SCHEMA)
        self.assertEqual(len(found), 4, found)


if __name__ == "__main__":
    unittest.main()

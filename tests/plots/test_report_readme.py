"""The numbers results/reference/README.md quotes from the committed reference reproduction are
that reference's: its commit, its claim counts and its times, read from
results/reference/h200/REPORT.md. A reference regenerated without that README (or the README
edited alone) fails here.

Run: python3 tests/plots/test_report_readme.py   (exits non-zero on failure)
"""
import re
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "results" / "reference" / "README.md").read_text(encoding="utf-8")
REFERENCE = ROOT / "results" / "reference" / "h200" / "REPORT.md"
# The README's words for the report's verdicts, where they differ.
SAID = {"do not": "do not reproduce"}


def without_parentheses(text):
    """`text` with every (balanced, nested) parenthesis and what it holds removed."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")" and depth > 0
    return "".join(out)


def counts(text):
    """(total, {verdict: count}) of the first '57 claims: 18 reproduce, 11 partly, ...' in
    `text`, its asides in parentheses left out; (None, {}) without one."""
    m = re.search(r"(\d+) claims: ", text)
    if not m:
        return None, {}
    found = {}
    for part in without_parentheses(text[m.end():]).split(","):
        item = re.match(r"\s*(\d+) ([a-z][a-z ]*[a-z])", part)
        if not item:
            break
        words = item.group(2)
        found[SAID.get(words, words)] = int(item.group(1))
        if part.strip().endswith((".", ")")) or re.search(r"[a-z]\s*\.", part):
            break
    return int(m.group(1)), found


class ReadmeNumbers(unittest.TestCase):
    def setUp(self):
        self.report = REFERENCE.read_text(encoding="utf-8")
        start = README.index("[`results/reference/h200/REPORT.md`]")
        self.quote = " ".join(README[start:start + 1400].split())

    def test_the_claim_counts_are_the_reports(self):
        total, said = counts(self.quote)
        want_total, want = counts(self.report[self.report.index("## Summary"):])
        self.assertIsNotNone(total, self.quote[:300])
        self.assertEqual(total, want_total)
        self.assertEqual(sum(want.values()), want_total)
        self.assertEqual(said, want)

    def test_the_commit_and_the_times_are_the_reports(self):
        commit = re.search(r"\(commit ([0-9a-f]{7,})", self.quote).group(1)
        self.assertIn(f"commit `{commit}", self.report)
        configs = re.search(r"Its configs took ([\d]+ min [\d]+ s)", self.quote).group(1)
        last = re.search(r"its last invocation.*?([\d]+ min [\d]+ s)", self.quote).group(1)
        self.assertIn(f"their runs took {configs}", self.report)
        self.assertIn(f"time taken: {last}", self.report)

    def test_the_parser_can_fail(self):
        total, said = counts("57 claims: 18 reproduce, 11 partly, 13 do not, 12 not comparable (x), 3 not measured")
        self.assertEqual(total, 57)
        self.assertEqual(said, {"reproduce": 18, "partly": 11, "do not reproduce": 13, "not comparable": 12,
                                "not measured": 3})
        self.assertNotEqual(counts("57 claims: 17 reproduce, 12 partly.")[1], said)


if __name__ == "__main__":
    unittest.main()

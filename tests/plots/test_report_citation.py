"""CITATION.cff says how to cite ladder: CFF 1.2.0, the title, the version CMakeLists.txt
builds (so a version bump cannot leave the citation behind), the Apache-2.0 license that
LICENSE holds, and the five seed publications as references; README.md points at it under a
"Citing" heading, and names the five studies in full above it. Without PyYAML the full parse is skipped and the keys are checked by regex.

Run: python3 tests/plots/test_report_citation.py   (exits non-zero on failure)
"""
import re
import unittest
from pathlib import Path

try:
    import yaml
except ImportError:  # the regex checks below still run
    yaml = None

ROOT = Path(__file__).resolve().parents[2]
CFF = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
SEEDS = 5


def cmake_version():
    """The VERSION of `project(ladder ...)` in CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"^\s*project\(\s*ladder\s+VERSION\s+([0-9][0-9.]*)", text, re.M)
    if not m:
        raise AssertionError("CMakeLists.txt has no project(ladder VERSION ...)")
    return m.group(1)


def top_level(key):
    """The value of a top-level `key: value` line of CITATION.cff, unquoted; None if absent."""
    m = re.search(rf"^{re.escape(key)}:[ \t]*(.*?)[ \t]*$", CFF, re.M)
    return m.group(1).strip("\"'") if m else None


class CitationByRegex(unittest.TestCase):
    def test_required_keys(self):
        self.assertEqual(top_level("cff-version"), "1.2.0")
        for key in ("message", "title", "authors", "date-released", "references"):
            self.assertIsNotNone(top_level(key), key)
        self.assertRegex(top_level("date-released"), r"^\d{4}-\d{2}-\d{2}$")

    def test_version_is_cmakes(self):
        self.assertEqual(top_level("version"), cmake_version())

    def test_license(self):
        self.assertEqual(top_level("license"), "Apache-2.0")

    def test_five_references(self):
        references = CFF[CFF.index("\nreferences:"):]
        self.assertEqual(len(re.findall(r"^  - type: ", references, re.M)), SEEDS)


@unittest.skipIf(yaml is None, "PyYAML is not installed")
class CitationParsed(unittest.TestCase):
    def setUp(self):
        self.cff = yaml.safe_load(CFF)

    def test_keys(self):
        self.assertEqual(str(self.cff["cff-version"]), "1.2.0")
        self.assertEqual(self.cff["type"], "software")
        self.assertTrue(self.cff["title"].startswith("ladder"))
        self.assertEqual(str(self.cff["version"]), cmake_version())
        self.assertEqual(self.cff["license"], "Apache-2.0")
        self.assertEqual(self.cff["authors"], [{"name": "The ladder authors"}])
        self.assertTrue(self.cff["abstract"].strip())

    def test_references(self):
        refs = self.cff["references"]
        self.assertEqual(len(refs), SEEDS)
        for ref in refs:
            # CFF requires these three of every reference.
            self.assertTrue(ref.get("type") and ref.get("title") and ref.get("authors"), ref)
        titles = " ".join(ref["title"] for ref in refs)
        for word in ("Time Warp Edit Distance", "Extended Edit Distances", "Skyline"):
            self.assertIn(word, titles)


class LicenseAndReadme(unittest.TestCase):
    def test_license_is_apache_2(self):
        lines = [line.strip() for line in
                 (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines() if line.strip()]
        self.assertEqual(lines[:2], ["Apache License", "Version 2.0, January 2004"])
        self.assertIn("END OF TERMS AND CONDITIONS", lines)

    def test_readme_has_citing(self):
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        self.assertRegex(readme, r"(?m)^#+ Citing\s*$")
        self.assertIn("CITATION.cff", readme[readme.index("Citing"):])

    def test_readme_names_the_five_studies_in_full(self):
        # The first screen says what each study computes, not only its short name.
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        studies = readme[readme.index("## The five case studies"):readme.index("## Citing")]
        for name in ("Dynamic Time Warping", "covariance matrix", "Time Warp Edit Distance",
                     "extended edit distance", "skyline"):
            self.assertIn(name, studies)


if __name__ == "__main__":
    unittest.main()

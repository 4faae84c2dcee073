"""Every relative link in the documents leads somewhere: README.md, CONTRIBUTING.md,
CHANGELOG.md, docs/*.md and the READMEs beside the code and the references (plots/, peers/, variants/<study>/,
results/reference/) link to files that exist and, where a link names a heading (`#anchor`), to
a heading of that file as GitHub spells its anchor. A page moved or a heading renamed without
its links fails here.

Run: python3 tests/docs/links.py   (exits non-zero on failure)
"""
import re
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The documents whose links are checked, as globs from the project's root.
DOCUMENTS = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "docs/*.md", "plots/README.md",
             "peers/README.md", "variants/*/README.md", "results/reference/README.md",
             "results/reference/*/README.md"]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
# [text](target) and ![alt](target); the text may hold one level of brackets.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def without_code(text):
    """`text` with fenced blocks and inline code blanked: a link shown as code is no link."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return CODE.sub("``", text)


def slug(heading):
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation removed
    (letters, digits, spaces, hyphens and underscores stay), spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "").lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(text):
    """Every anchor a Markdown text's headings give, repeats numbered as GitHub numbers them."""
    seen, out = {}, set()
    for m in HEADING.finditer(without_code_fences(text)):
        base = slug(m.group(1))
        n = seen.get(base, 0)
        out.add(base if n == 0 else "%s-%d" % (base, n))
        seen[base] = n + 1
    return out


def without_code_fences(text):
    return FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def broken(path, text):
    """(link, why) for each relative link of `text`, the file at `path`, that leads nowhere."""
    out = []
    for m in LINK.finditer(without_code(text)):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:, ...
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            out.append((target, "no such file"))
        elif anchor and dest.suffix == ".md" and dest.is_file():
            if anchor not in anchors(dest.read_text(encoding="utf-8")):
                out.append((target, "no heading #%s there" % anchor))
    return out


def documents():
    return sorted({p for pattern in DOCUMENTS for p in ROOT.glob(pattern)})


class Links(unittest.TestCase):
    def test_every_relative_link_resolves(self):
        problems = []
        for path in documents():
            for target, why in broken(path, path.read_text(encoding="utf-8")):
                problems.append("%s: (%s): %s" % (path.relative_to(ROOT), target, why))
        self.assertEqual(problems, [])

    def test_the_documents_are_found(self):
        names = {str(p.relative_to(ROOT)) for p in documents()}
        for name in ("README.md", "CONTRIBUTING.md", "docs/cli.md", "docs/install.md",
                     "plots/README.md", "variants/dtw/README.md", "results/reference/README.md"):
            self.assertIn(name, names)

    def test_a_missing_file_or_heading_is_found(self):
        page = ROOT / "README.md"
        text = ("[a](docs/no-such-page.md) [b](docs/cli.md#no-such-heading) "
                "[c](docs/cli.md#the-command-line) [d](#citing) [e](https://example.org/x) "
                "`[f](not-a-link.md)`\n\n```\n[g](nor-this.md)\n```\n")
        self.assertEqual(broken(page, text), [("docs/no-such-page.md", "no such file"),
                                              ("docs/cli.md#no-such-heading",
                                               "no heading #no-such-heading there")])

    def test_anchors_as_github_spells_them(self):
        text = "# ladder\n## Is my change faster?\n## `make run` and `make test`\n## Notes\n## Notes\n"
        self.assertEqual(anchors(text), {"ladder", "is-my-change-faster", "make-run-and-make-test",
                                         "notes", "notes-1"})


if __name__ == "__main__":
    unittest.main()

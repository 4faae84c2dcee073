"""README.md stays a page read in minutes, and shows only commands that are known to work: it
has at most 200 lines, and every command line in its code blocks is one that CI (.ci/run)
runs, word for word. A README command CI stops running, or one added to the README that CI
never ran, fails here; so does a README grown past 200 lines.

Run: python3 tests/docs/readme_commands.py   (exits non-zero on failure)
"""
import re
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 200
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.M | re.S)
# Code blocks in these languages (or none) hold commands; others (json, ...) hold data.
SHELL = {"", "sh", "bash", "shell", "console"}


def commands(markdown):
    """Each command line in the shell code blocks of `markdown`: prompt and comment dropped,
    spaces collapsed."""
    out = []
    for m in FENCE.finditer(markdown):
        if m.group(1).strip() not in SHELL:
            continue
        for line in m.group(2).splitlines():
            line = re.sub(r"^\$\s+", "", line.strip())
            line = re.sub(r"(^|\s)#.*", "", line).strip()
            if line:
                out.append(" ".join(line.split()))
    return out


def ci_lines(script):
    """The lines of a shell script as commands: comments dropped, spaces collapsed."""
    out = []
    for line in script.splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).strip()
        if line:
            out.append(" ".join(line.split()))
    return out


def run_by(command, lines):
    """Whether one of `lines` runs `command` as a whole command (alone on its line, or between
    `;`, `&&`, `||`, `|`, parentheses or braces), not a longer command that begins the same."""
    edge = r"(?:^|[;&|({]\s*)"
    end = r"\s*(?:$|[;&|)}])"
    pattern = re.compile(edge + re.escape(command) + end)
    return any(pattern.search(line) for line in lines)


class Readme(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.readme = (ROOT / "README.md").read_text(encoding="utf-8")
        cls.ci = ci_lines((ROOT / ".ci" / "run").read_text(encoding="utf-8"))

    def test_at_most_200_lines(self):
        self.assertLessEqual(len(self.readme.splitlines()), MAX_LINES)

    def test_every_command_shown_is_run_by_ci(self):
        shown = commands(self.readme)
        self.assertTrue(shown, "README.md shows no command")
        self.assertEqual([c for c in shown if not run_by(c, self.ci)], [])

    def test_the_first_commands(self):
        # The three a reader starts with, in this order.
        self.assertEqual([c.split()[:2] for c in commands(self.readme)[:3]],
                         [["make", "run"], ["make", "test"], ["make", "reproduce"]])


class Parsing(unittest.TestCase):
    def test_commands_drop_prompts_comments_and_data(self):
        text = ("```sh\n$ make run   # build\n\nmake  test\n```\n"
                "```json\n{\"a\": 1}\n```\n```\nladder list\n```\n")
        self.assertEqual(commands(text), ["make run", "make test", "ladder list"])

    def test_a_command_ci_does_not_run_is_found(self):
        lines = ci_lines("make test   # all\nmake run\n( cd x && make reproduce SCALE=quick )\n"
                         "# make figures\n")
        self.assertTrue(run_by("make test", lines))
        self.assertTrue(run_by("make reproduce SCALE=quick", lines))
        self.assertFalse(run_by("make figures", lines))       # only in a comment
        self.assertFalse(run_by("make reproduce", lines))     # CI runs a longer one
        self.assertFalse(run_by("make", lines))


if __name__ == "__main__":
    unittest.main()

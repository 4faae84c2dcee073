#!/usr/bin/env python3
"""No Python of the project edits sys.path: plots and peers are packages imported as such
(`python3 -m plots.draw_all` from the project root, PYTHONPATH in the tests, or installed as
ladder.plots), never by putting their folders on the path. Every .py under plots/, peers/,
tests/ and scripts/ is read: its code (any use of sys.path that changes it: an assignment, an
item or slice assigned, insert, append, extend, remove...) and its string constants (code run
in a child, `python3 -c ...`).

Run: python3 tests/plots/test_no_sys_path.py   (standard library only)
"""
import ast
import re
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("plots", "peers", "tests", "scripts")
# sys.path changed in text: `sys.path.insert(`, `sys.path[0] =`, `sys.path = `, `sys.path +=`
IN_TEXT = re.compile(r"\bsys\s*\.\s*path\s*(\.\s*(insert|append|extend|remove|pop|clear)\s*\(|"
                     r"\[[^\]]*\]\s*=(?!=)|\+?=(?!=))")
CHANGING = {"insert", "append", "extend", "remove", "pop", "clear", "__setitem__", "__iadd__"}


def is_sys_path(node):
    return (isinstance(node, ast.Attribute) and node.attr == "path"
            and isinstance(node.value, ast.Name) and node.value.id == "sys")


def edits(source, name="<text>"):
    """(line, what) for each edit of sys.path in SOURCE, code or string constant."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Attribute) and is_sys_path(node.value) and node.attr in CHANGING:
            found.append((node.lineno, f"sys.path.{node.attr}"))
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            if is_sys_path(target) or (isinstance(target, ast.Subscript)
                                       and is_sys_path(target.value)):
                found.append((node.lineno, "sys.path assigned"))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and IN_TEXT.search(node.value):
            found.append((node.lineno, "sys.path changed by code in a string"))
    return found


def python_files():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            # peers/cache: others' code; this file: its examples of what is refused
            if "cache" not in path.relative_to(ROOT).parts[:2] and path != Path(__file__).resolve():
                yield path


class NoSysPath(unittest.TestCase):
    def test_the_check_finds_each_kind_of_edit(self):
        for text in ("import sys\nsys.path.insert(0, 'x')\n", "import sys\nsys.path[0] = 'x'\n",
                     "import sys\nsys.path.append('x')\n", "import sys\nsys.path = ['x']\n",
                     "import sys\nsys.path += ['x']\n", "import sys\nsys.path[:0] = ['x']\n",
                     "CHILD = 'import sys; sys.path.insert(0, \"x\")'\n"):
            with self.subTest(text=text):
                self.assertTrue(edits(text), text)
        for text in ("import sys\nprint(sys.path)\n", "import sys\nok = sys.path == []\n",
                     "DOC = 'without editing sys.path'\n"):
            with self.subTest(text=text):
                self.assertFalse(edits(text), text)

    def test_no_file_edits_sys_path(self):
        files = list(python_files())
        self.assertGreater(len(files), 50)  # the folders were found
        problems = [f"{path.relative_to(ROOT)}:{line}: {what}"
                    for path in files
                    for line, what in edits(path.read_text(encoding="utf-8"), str(path))]
        self.assertEqual(problems, [], "\n".join(problems))


if __name__ == "__main__":
    unittest.main()

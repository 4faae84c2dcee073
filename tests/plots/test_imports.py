#!/usr/bin/env python3
"""Every module of the packages plots and peers imports on its own, in a fresh interpreter (a
broken relative import or a name that exists only when another module was imported first
fails here), and no module imports itself again through others: the graph of imports inside
each package, lazy ones in functions included, has no cycle. A module's `if __name__ ==
"__main__":` block is left out of the graph: it runs as __main__, a module of its own.

Run: PYTHONPATH=. python3 tests/plots/test_imports.py   (from the project root)
"""
import ast
import os
import pkgutil
import subprocess
import sys
import unittest
from pathlib import Path

import peers
import plots

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (plots, peers)


def modules(package):
    """{dotted name: file} of the package and every module and subpackage under it."""
    found = {package.__name__: Path(package.__file__)}
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        spec = info.module_finder.find_spec(info.name.rpartition(".")[2], None)
        found[info.name] = Path(spec.origin)
    return found


def is_main_block(node):
    test = getattr(node, "test", None)
    return (isinstance(node, ast.If) and isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name) and test.left.id == "__name__")


def imported(name, path, known):
    """The modules of `known` that module NAME (its file PATH) imports, anywhere in it but its
    __main__ block: `from . import x`, `from ..y import z`, `import plots.x`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = {id(n) for block in ast.walk(tree) if is_main_block(block)
               for n in ast.walk(block)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[:len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:  # `from . import x`: x may be a module
                out.update(m for m in (f"{base}.{alias.name}", base) if m in known)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
    out.discard(name)
    return out


def cycle(graph):
    """One cycle of the graph ({node: successors}) as a list of nodes, [] when none."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = "done"
        stack.pop()
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


class Imports(unittest.TestCase):
    def test_every_module_imports_alone(self):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])), MPLBACKEND="Agg")
        for package in PACKAGES:
            for name in modules(package):
                with self.subTest(module=name):
                    done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT,
                                          env=env, capture_output=True, text=True, timeout=120)
                    self.assertEqual(done.returncode, 0, done.stderr[-2000:])

    def test_the_check_finds_a_cycle(self):
        self.assertEqual(cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}), ["a", "b", "c", "a"])
        self.assertEqual(cycle({"a": {"b"}, "b": {"c"}, "c": set()}), [])

    def test_no_import_cycle(self):
        for package in PACKAGES:
            known = modules(package)
            self.assertGreater(len(known), 5, package.__name__)
            graph = {name: imported(name, path, known) for name, path in known.items()}
            # a package's __init__ is imported before any of its modules: no edge back to it
            graph = {n: {m for m in succ if not n.startswith(m + ".")} for n, succ in graph.items()}
            with self.subTest(package=package.__name__):
                self.assertEqual(cycle(graph), [], " -> ".join(cycle(graph)))


if __name__ == "__main__":
    unittest.main()

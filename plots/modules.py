"""A module of this package run as a child process, from any working directory: the report
draws its figures in a child (a figure that crashes costs the figures, not the report)."""
import os
import sys
from pathlib import Path


def package_root():
    """The folder holding the top-level package this one is part of (the project root, an
    installed share folder, or site-packages): what a child needs on its path."""
    return str(Path(__file__).resolve().parents[len(__package__.split("."))])


def module_command(name, *argv):
    """(argv, env) that run this package's module NAME ('draw_all') with this interpreter:
    PYTHONPATH leads with package_root(), so that the child imports this very package."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root(), env.get("PYTHONPATH")]))
    return [sys.executable, "-m", f"{__package__}.{name}", *map(str, argv)], env

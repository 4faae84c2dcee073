"""Code from outside the running interpreter's path, without editing sys.path: a library
unpacked into a folder of the cache (pip install --target), and a module of this package run
as a child process."""
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path


def import_from(folder, name):
    """The top-level module or package NAME from FOLDER when it holds it, else from the
    environment (ImportError when neither does). Loaded once per process: a later call gets
    the module loaded first. Its own imports of itself (`from rapidfuzz import ...`) and of
    its submodules resolve through sys.modules and the package's own __path__."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.machinery.PathFinder.find_spec(name, [str(folder)])
    if spec is None:
        return importlib.import_module(name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]  # a half-loaded module is no module
        raise
    return module


def package_root():
    """The folder holding the top-level package this one is part of (the project root, an
    installed share folder, or site-packages): what a child needs on its path."""
    return str(Path(__file__).resolve().parents[len(__package__.split("."))])


def module_command(module, *argv):
    """(argv, env) that run MODULE (a dotted name, e.g. this one's __spec__.name) with this
    interpreter, whatever the working directory: PYTHONPATH leads with package_root()."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root(), env.get("PYTHONPATH")]))
    return [sys.executable, "-m", module, *map(str, argv)], env

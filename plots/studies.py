"""The studies, found by convention: a folder per study, plots/<study>/, and any folder named in
LADDER_STUDY_PATH (colon-separated), laid out as plots/README.md says. Every study is a
subpackage of this package (`plots.<study>`, or `ladder.plots.<study>` installed), a folder of
LADDER_STUDY_PATH too, so that its modules import their siblings and this package's modules
relatively (`from . import data`, `from .. import pages`). A folder without Python
(__pycache__) is no study.
"""
import importlib
import importlib.machinery
import importlib.util
import os
import re
import sys
from pathlib import Path

from . import results as ladder_results

PLOTS = Path(__file__).resolve().parent
PATH_VARIABLE = "LADDER_STUDY_PATH"
PACKAGE = __package__  # plots, or ladder.plots where installed


class StudyError(Exception):
    """A study folder that cannot be used; the message is one line meant for the user."""


def folders():
    """{study name: folder}: plots/<study>/, then LADDER_STUDY_PATH's folders in its order."""
    found = [p for p in sorted(PLOTS.iterdir()) if p.is_dir() and any(p.glob("*.py"))]
    for entry in filter(None, os.environ.get(PATH_VARIABLE, "").split(":")):
        if not Path(entry).is_dir():
            raise StudyError(f"{PATH_VARIABLE}: {entry} is not a folder")
        found.append(Path(entry).resolve())
    out = {}
    for folder in found:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", folder.name):
            raise StudyError(f"study folder {folder}: its name is not a Python identifier")
        if folder.name in out and out[folder.name] != folder:
            raise StudyError(f"two studies named {folder.name}: {out[folder.name]} and {folder}")
        out[folder.name] = folder
    return out


def _package(name, folder):
    """The package of a study folder: this package's own subpackage, or one made once per
    process for a folder of LADDER_STUDY_PATH."""
    full = f"{PACKAGE}.{name}"
    if folder.parent == PLOTS:
        return full
    if list(getattr(sys.modules.get(full), "__path__", [])) != [str(folder)]:
        for stale in [k for k in sys.modules if k == full or k.startswith(f"{full}.")]:
            del sys.modules[stale]  # another folder of that name, earlier in this process
        spec = importlib.machinery.ModuleSpec(full, None, is_package=True)
        spec.submodule_search_locations = [str(folder)]
        sys.modules[full] = importlib.util.module_from_spec(spec)
    return full


def seed(module_file):
    """A study's published numbers: the seed.json beside its module (the study's data.py reads
    them once: NOTES = studies.seed(__file__))."""
    return ladder_results.read_json(Path(module_file).with_name("seed.json"), "a seed.json")


def module(study, name):
    """One module of a study, e.g. module("twed", "data")."""
    folder = folders().get(study)
    if folder is None:
        raise StudyError(f"no study {study}")
    return importlib.import_module(f"{_package(study, folder)}.{name}")


def modules(study):
    """The modules of one study, by file name."""
    out = []
    for path in sorted(folders()[study].glob("*.py")):
        if not path.name.startswith("_"):
            if not path.is_file():  # a FIFO would block the import for ever
                raise StudyError(f"{path}: not a regular file")
            try:
                out.append(module(study, path.stem))
            except Exception as err:  # one line: the study is not usable as it is
                raise StudyError(f"{path}: {type(err).__name__}: {err}") from err
    return out


def figures():
    """{figure name: draw}: the ladder, which every study has, then each study's."""
    from . import ladder  # here: ladder's command line (draw) imports this module
    found = dict(ladder.FIGURES)
    for study in folders():
        for mod in modules(study):
            declared = getattr(mod, "FIGURES", {})
            if not isinstance(declared, dict):
                raise StudyError(f"{mod.__file__}: FIGURES is not a dict of figure names")
            for name, draw in declared.items():
                if name in found:
                    raise StudyError(f"figure {name} of study {study} is drawn elsewhere too")
                found[name] = draw
    return found


def order(mod):
    """A report section's place: ORDER, else the number in its seed label, else last."""
    if hasattr(mod, "ORDER"):
        return mod.ORDER
    number = re.search(r"\d+", getattr(mod, "SEED", ""))
    return int(number.group()) if number else float("inf")

"""What pyproject.toml declares holds: every package the app imports is a dependency with a floor (CI installs
each floor at once and runs the suite there: .ci/run, .ci/floors.py)."""

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def declared(requirements):
    """The normalised distribution names of ``requirements``."""
    return {normalised(re.match(r"[A-Za-z0-9._-]+", requirement).group()) for requirement in requirements}


def normalised(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_distributions(folder):
    """The distributions of the modules imported under ``folder`` that are neither the standard library's nor
    the app's own."""
    modules = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    distributions = packages_distributions()
    outside = modules - set(sys.stdlib_module_names) - {"scorekeeper"}
    return {module: {normalised(name) for name in distributions.get(module, [module])} for module in outside}


def test_every_package_the_app_imports_is_declared():
    dependencies = declared(PROJECT["dependencies"])
    club = declared(PROJECT["optional-dependencies"]["club"])

    undeclared = {module: names for module, names in imported_distributions(REPOSITORY / "scorekeeper").items()
                  if not names & (dependencies | club)}

    assert undeclared == {}
    assert "gunicorn" in club  # imported only by serve --workers, which says to install the club extra


def test_every_dependency_names_its_floor_and_waitress_its_ceiling():
    requirements = PROJECT["dependencies"] + PROJECT["optional-dependencies"]["club"]

    assert [requirement for requirement in requirements if ">=" not in requirement] == []
    waitress, = [requirement for requirement in requirements if requirement.startswith("waitress")]
    assert re.fullmatch(r"waitress>=[\d.]+,<[\d.]+", waitress)  # the keep-alive patch uses its internals

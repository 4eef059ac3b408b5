"""The shape of the house: arrows point down, from the web to the service to the rows and the engine.

No blueprint imports another; the service imports nothing of the web; the
rules engine imports the standard library only (and its own modules).
"""

import ast
import pathlib
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "scorekeeper"


def imported(path):
    """The modules ``path`` imports, as absolute dotted names (relative imports resolved)."""
    package = ".".join(("scorekeeper", *path.relative_to(PACKAGE).parent.parts))
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
            prefix = ".".join(base + ([node.module] if node.module else [])) if node.level else node.module
            found.add(prefix)
            found |= {f"{prefix}.{alias.name}" for alias in node.names}
    return found


def blueprints():
    return sorted(path for path in (PACKAGE / "web").glob("*.py") if "Blueprint(" in path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", blueprints(), ids=lambda path: path.stem)
def test_no_blueprint_imports_another(path):
    others = {f"scorekeeper.web.{other.stem}" for other in blueprints() if other != path}

    assert not imported(path) & others


@pytest.mark.parametrize("path", sorted((PACKAGE / "service").glob("*.py")), ids=lambda path: path.stem)
def test_the_service_imports_nothing_of_the_web(path):
    assert not {name for name in imported(path) if name.startswith(("scorekeeper.web", "flask"))}


@pytest.mark.parametrize("path", sorted((PACKAGE / "rules").glob("*.py")), ids=lambda path: path.stem)
def test_the_rules_engine_imports_the_standard_library_only(path):
    outside = {name for name in imported(path) if not name.startswith("scorekeeper.rules")
               and name.split(".")[0] not in sys.stdlib_module_names and name != "__future__"}

    assert not outside

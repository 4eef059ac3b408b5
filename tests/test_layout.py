"""The shape of the house: arrows point down, from the web to the documents, the words, the service, the rows
and the engine.

Every package's allowed imports are listed once (``ALLOWED``); no package is imported by one below it, no
module imports itself round a circle (an import under ``TYPE_CHECKING`` aside, as it runs for the type checker
only), no blueprint imports another, the service imports nothing of the web, and the rules engine imports the
standard library only (and its own modules).
"""

import ast
import graphlib
import pathlib
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "scorekeeper"

# What each part of the app may import of the others, from the bottom up: the engine, the instance folder,
# the rows, the service (the one door), the words every page and document says, the documents (games,
# backups, the season's CSV), the web, and the app itself (the package's ``__init__`` and ``__main__``).
ALLOWED = {
    "rules": set(),
    "instance": set(),
    "db": {"rules", "instance"},
    "service": {"rules", "db"},
    "words": {"rules", "db", "service"},
    "documents": {"rules", "db", "service", "words"},
    "web": {"rules", "instance", "db", "service", "words", "documents"},
    "app": {"instance", "db", "documents", "web"},
}


def module_name(path):
    """The dotted name of a module of the package (``scorekeeper.web.games``; a package by its folder)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def part_of(module):
    """The part of ``ALLOWED`` a module of the package belongs to."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return "app"
    return parts[1]


def under_type_checking(tree):
    """The nodes inside ``if TYPE_CHECKING:`` blocks of a module."""
    return {id(inner) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for inner in ast.walk(node)}


def imported(path, type_checking=True):
    """The modules ``path`` imports, as absolute dotted names (relative imports resolved), anywhere in it (a
    function's import too); ``from package import name`` names the module ``package.name`` when there is one.
    Without ``type_checking``, what is imported under ``TYPE_CHECKING`` only is left out."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set() if type_checking else under_type_checking(tree)
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            prefix = node.module
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            found |= {f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in MODULES else prefix
                      for alias in node.names}
    return found


def imported_modules(path, type_checking=True):
    """The modules of the package ``path`` imports (not itself)."""
    return {name for name in imported(path, type_checking) if name in MODULES} - {module_name(path)}


def test_every_part_of_the_package_is_listed_and_the_list_has_no_circle():
    assert {part_of(module) for module in MODULES} == set(ALLOWED)
    assert tuple(graphlib.TopologicalSorter(ALLOWED).static_order())  # raises CycleError on a circle


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_module_imports_only_the_parts_below_its_own(module):
    own = part_of(module)
    beyond = {name for name in imported_modules(MODULES[module]) if part_of(name) not in ALLOWED[own] | {own}}

    assert not beyond, f"{module} ({own}) may import only {sorted(ALLOWED[own])}"


def test_no_module_imports_itself_round_a_circle():
    graph = {module: imported_modules(path, type_checking=False) for module, path in MODULES.items()}
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        pytest.fail(f"modules importing each other: {' -> '.join(error.args[1])}")


def test_the_reader_sees_relative_imports_and_those_inside_functions():
    """What the matrix reads: ``from ..words.explain import``, and an import inside a function (the package's
    own ``log_exception`` imports the web's logs when it is called)."""
    assert "scorekeeper.words.explain" in imported_modules(MODULES["scorekeeper.documents.game"])
    assert "scorekeeper.web.logs" in imported_modules(MODULES["scorekeeper"])
    assert "scorekeeper.rules" in imported_modules(MODULES["scorekeeper.service.figures"])  # from .. import rules


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


LONGEST_MODULE = 600  # lines: a module longer than this holds more than one job (issue 35)


@pytest.mark.parametrize("module", sorted(name for name in MODULES if ".migrations." not in name))
def test_no_module_is_a_big_room(module):
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())

    assert lines <= LONGEST_MODULE, f"{module} has {lines} lines: split it by job"

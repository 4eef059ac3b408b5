"""The lowest versions pyproject.toml allows: a pip constraints file pinning each dependency to its floor.

`python3 .ci/floors.py` prints the constraints: the app's dependencies and the
club extra (gunicorn, psycopg), each at the lowest version its ``>=`` allows.
`python3 .ci/floors.py --requirements` prints what to install with them: those
and the test extra, whose tools resolve as usual (they are not what a table
installs). `.ci/run` installs both and runs the suite there, so that a floor
declared is a floor the suite passes on.
"""

import re
import sys
import tomllib
from pathlib import Path

FLOOR = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*>=\s*([0-9][^,;\s]*)")
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def project():
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]


def floors():
    """(name, floor) of every dependency and club dependency; an error for one that names no floor, whose
    lowest version would be anyone's guess."""
    described = project()
    pinned = []
    for requirement in [*described["dependencies"], *described["optional-dependencies"]["club"]]:
        found = FLOOR.match(requirement)
        if not found:
            sys.exit(f"{requirement!r} names no floor (>=) in pyproject.toml")
        pinned.append(found.groups())
    return pinned


def requirements():
    """Every requirement of the app, the club extra and the test extra, as pyproject.toml words it."""
    described = project()
    extras = described["optional-dependencies"]
    return list(dict.fromkeys([*described["dependencies"], *extras["club"], *extras["test"]]))


if __name__ == "__main__":
    if sys.argv[1:] == ["--requirements"]:
        print("\n".join(requirements()))
    else:
        print("\n".join(f"{name}=={floor}" for name, floor in floors()))

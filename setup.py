"""Which folders the wheel and the sdist carry; everything else about the package is in pyproject.toml.

The repository keeps ``templates/`` and ``static/`` at its top level. A wheel
ships them inside the package, as ``scorekeeper/templates`` and
``scorekeeper/static``, where an installed app finds them (a checkout finds
them beside the package: ``scorekeeper.shipped_folder``). Each of their
sub-folders is listed as a package of its own, as ``scorekeeper``'s data
folders (catalogs, migrations) are by the namespace search, so that setuptools
carries every file in them and warns of none. This needs code, hence this
file (pyproject.toml can list packages or search for them, not both), and the
package data is here with it (pyproject.toml's would replace this file's).
"""

from setuptools import find_namespace_packages, setup

SHIPPED = {"scorekeeper.templates": "templates", "scorekeeper.static": "static"}


def shipped_packages(package, folder):
    """``package`` (the repository's ``folder``) and a package for each folder inside it."""
    return [package, *(f"{package}.{inner}" for inner in find_namespace_packages(folder))]


shipped = [name for package, folder in SHIPPED.items() for name in shipped_packages(package, folder)]

setup(
    packages=[*find_namespace_packages(include=["scorekeeper*"]), *shipped],
    package_dir=SHIPPED,  # a sub-folder's package follows its parent's folder
    package_data={
        "scorekeeper": ["translations/*.pot", "translations/*/LC_MESSAGES/*.po"],
        "scorekeeper.db": ["migrations/*.py", "migrations/*.mako", "migrations/versions/*.py"],
        **{package: ["*"] for package in shipped},
    },
)

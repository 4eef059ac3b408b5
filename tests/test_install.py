"""The app as a user installs it rather than a checkout: built into an sdist and a wheel (the wheel from the
sdist, as `python -m build` makes a release), installed into a fresh virtual environment outside the
checkout, and run from another folder: `flask --app scorekeeper serve`, and the `scorekeeper` command that
`pipx install` puts on the PATH.

One sdist, one wheel and one environment a test process (session fixtures), as building takes 5-7 s (two
isolated build environments, each fetching setuptools through the configured index, as every build does)
and installing 3-4 s; the four tests take some 18 s in all on one worker of a quiet machine.

The environment is made without pip, as pipx makes its environments, and this environment's pip installs
into it (``pip --python``). It sees no package but those installed into it: with
``--system-site-packages`` the interpreter's own packages, whatever a machine put there, could hide a
dependency the wheel forgot to declare. Its dependencies come from this environment: packed again into
wheels from the files pip installed here (``wheelhouse``) and installed with ``--no-index``. Measured on
this project's machine: 0.3 s to pack and 3 s to install, against 4-5 s to fetch the same packages from
the index; and so the installed app runs on the versions the rest of the suite tested, with no network.
A dependency this environment lacks, or holds in a version the wheel does not accept, makes the install
ask the index, as a user's would.
"""

import base64
import csv
import email.parser
import hashlib
import io
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .test_crash import CONNECTION_LOST, browser, create_game, fetch, free_port

REPOSITORY = Path(__file__).resolve().parents[1]
COMMAND_SECONDS = 300  # for a build or an install; each takes seconds
START_SECONDS = 30  # for the installed server's first answer (it creates its database and catalogs first)
SERVER_SECONDS = 300  # a server started here stops by itself after this long (coreutils' timeout), whatever
# becomes of the test process; the test itself stops it as soon as it is done with it
NOT_REPACKED = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}  # what pip writes on installing
# What .gitignore leaves out of the checkout, left out of the copy that is built.
LEFT_OUT_OF_THE_COPY = shutil.ignore_patterns(".git", ".venv", "venv", "instance", "build", "dist", "*.egg-info",
                                              "__pycache__", ".*cache", ".hypothesis", "test-results", "screenshots")


def run(command, **options):
    """Run ``command`` to its end; the finished process (the test fails with its output if it failed)."""
    finished = subprocess.run(command, capture_output=True, text=True, timeout=COMMAND_SECONDS, **options)
    if finished.returncode != 0:
        pytest.fail(f"{' '.join(map(str, command))} exited with {finished.returncode}:\n"
                    f"{finished.stdout[-3000:]}\n{finished.stderr[-3000:]}")
    return finished


# --- A wheelhouse of what this environment installed --------------------------------------------


def wheelhouse(requirements, folder):
    """Wheels in ``folder`` of the installed distributions that meet ``requirements`` and what those require in
    turn; the requirements that none installed here meets."""
    pending = [requirement for requirement in map(Requirement, requirements) if wanted(requirement, ())]
    seen, packed, unmet = set(), set(), []
    while pending:
        requirement = pending.pop()
        name = canonicalize_name(requirement.name)
        if (name, frozenset(requirement.extras)) in seen:
            continue
        seen.add((name, frozenset(requirement.extras)))
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            distribution = None
        if (distribution is None or not distribution.files or distribution.read_text("WHEEL") is None
                or not requirement.specifier.contains(distribution.version, prereleases=True)):
            unmet.append(str(requirement))
            continue
        if name not in packed:
            packed.add(name)
            repack(distribution, folder)
        pending += [needed for needed in map(Requirement, distribution.requires or [])
                    if wanted(needed, requirement.extras)]
    return unmet


def wanted(requirement, extras):
    """Whether ``requirement`` applies here, to a distribution asked for with ``extras``."""
    marker = requirement.marker
    return marker is None or any(marker.evaluate({"extra": extra}) for extra in ("", *extras))


def repack(distribution, folder):
    """A wheel in ``folder`` of an installed ``distribution``, made of its files as its RECORD lists them:
    without byte code, the scripts pip wrote from its entry points (pip writes them again), and pip's notes."""
    tags = [line.split(":", 1)[1].strip() for line in distribution.read_text("WHEEL").splitlines()
            if line.startswith("Tag:")]
    python, abi, platform = (".".join(sorted({tag.split("-")[part] for tag in tags})) for part in range(3))
    name = canonicalize_name(distribution.metadata["Name"]).replace("-", "_")
    listed = io.StringIO()
    record = csv.writer(listed, lineterminator="\n")
    with zipfile.ZipFile(folder / f"{name}-{distribution.version}-{python}-{abi}-{platform}.whl", "w") as wheel:
        for file in distribution.files:
            if file.parts[0] == ".." or "__pycache__" in file.parts or file.name in NOT_REPACKED:
                continue
            body = file.read_binary()
            wheel.writestr(str(file), body)
            digest = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
            record.writerow([str(file), f"sha256={digest}", len(body)])
        dist_info = next(file for file in distribution.files if file.name == "RECORD").parent
        record.writerow([f"{dist_info}/RECORD", "", ""])
        wheel.writestr(f"{dist_info}/RECORD", listed.getvalue())


# --- The fixtures: one build and one environment a test process -----------------------------------


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """The sdist and the wheel `python -m build` makes of a copy of the checkout (the wheel from the sdist).

    A copy, as setuptools writes its notes (``scorekeeper.egg-info``) into the tree it builds: two test
    processes building at once would write them into the checkout together.
    """
    source = tmp_path_factory.mktemp("source") / "scorekeeper"
    shutil.copytree(REPOSITORY, source, ignore=LEFT_OUT_OF_THE_COPY)
    folder = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--outdir", str(folder), str(source)])
    (sdist,), (wheel,) = folder.glob("*.tar.gz"), folder.glob("*.whl")
    return sdist, wheel


@pytest.fixture(scope="session")
def installed(tmp_path_factory, built):
    """A fresh virtual environment outside the checkout holding the wheel and its dependencies, and no pip."""
    _sdist, wheel = built
    environment = tmp_path_factory.mktemp("installed") / "environment"
    run([sys.executable, "-m", "venv", "--without-pip", str(environment)])
    house = tmp_path_factory.mktemp("wheelhouse")
    with zipfile.ZipFile(wheel) as archive:
        wheel_metadata = archive.read(next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA")))
    requirements = email.parser.BytesParser().parsebytes(wheel_metadata).get_all("Requires-Dist") or []
    unmet = wheelhouse(requirements, house)
    run([sys.executable, "-m", "pip", "--python", str(environment / "bin" / "python"), "install", "--quiet",
         "--no-compile", *([] if unmet else ["--no-index"]), "--find-links", str(house), str(wheel)])
    return environment


def clean_environment(home, **variables):
    """Environment variables of a user's shell: none of the checkout's (FLASK_..., PYTHONPATH, a virtualenv)."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", **variables}


def files_under(root, folder="."):
    """The files under ``root/folder`` but byte code, by their paths from ``root``."""
    return {path.relative_to(root).as_posix() for path in (root / folder).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts}


# --- The tests ----------------------------------------------------------------------------------


def test_the_sdist_and_its_wheel_carry_the_templates_static_files_catalogs_and_migrations(built):
    sdist, wheel = built
    package = files_under(REPOSITORY, "scorekeeper")
    templates, static = files_under(REPOSITORY, "templates"), files_under(REPOSITORY, "static")

    with tarfile.open(sdist) as archive:
        in_sdist = {member.name.split("/", 1)[1] for member in archive.getmembers() if member.isfile()}
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())

    assert package | templates | static <= in_sdist
    assert package | {f"scorekeeper/{name}" for name in templates | static} <= in_wheel
    assert {"scorekeeper/translations/pt/LC_MESSAGES/messages.po", "scorekeeper/db/migrations/script.py.mako",
            "scorekeeper/templates/base.html", "scorekeeper/static/style.css"} <= in_wheel
    assert not {name for name in in_wheel if name.startswith(("templates/", "static/", "tests/"))}


def test_the_installed_app_serves_pages_and_static_files_from_another_folder(installed, tmp_path):
    package = next((installed / "lib").glob("python*/site-packages/scorekeeper"))
    package_before = files_under(package)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    log_path = tmp_path / "server.log"
    time_limit = [shutil.which("timeout"), "-k", "5", str(SERVER_SECONDS)] if shutil.which("timeout") else []
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [*time_limit, installed / "bin" / "flask", "--app", "scorekeeper", "serve",
             "--host", "127.0.0.1", "--port", str(port)],
            cwd=elsewhere, env=clean_environment(tmp_path), stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,  # its own process group, stopped whole below
        )
    try:
        scorer = browser()
        wait_for_answer(server, scorer, url, log_path)
        game_id = create_game(scorer, url)

        home_status, home = fetch(scorer, url + "/")
        game_status, game = fetch(scorer, f"{url}/games/{game_id}")
        style_status, style = fetch(scorer, url + "/static/style.css")
        icon_status, _icon = fetch(scorer, url + "/static/icons/icon.svg")
        portuguese = scorer.open(urllib.request.Request(url + "/", headers={"Accept-Language": "pt"}), timeout=5)
        in_portuguese = portuguese.read().decode()
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the server and the time limit around it: nothing here to keep
        server.wait()
        print(log_path.read_text(errors="replace")[-3000:])  # shown if the test fails
    with open(REPOSITORY / "scorekeeper/translations/pt/LC_MESSAGES/messages.po", "rb") as po_file:
        new_game_in_portuguese = read_po(po_file, locale="pt")["New game"].string
    instance = tmp_path / ".local" / "share" / "scorekeeper"  # the user's data folder (HOME is tmp_path)

    assert (home_status, game_status, style_status, icon_status) == (200, 200, 200, 200)
    assert "Cancellation Hearts" in home
    assert "Crash" in game  # the game's name
    assert "{" in style
    assert portuguese.status == 200
    assert '<html lang="pt">' in in_portuguese and new_game_in_portuguese in in_portuguese
    assert (instance / "scorekeeper.sqlite").is_file() and (instance / "secret_key").is_file()
    assert not (instance / "translations").exists()  # the catalogs are compiled in memory
    assert not (installed / "var").exists(), "the app wrote into its environment, which pipx uninstall deletes"
    assert files_under(package) == package_before, "the app wrote into its installed package"


def wait_for_answer(server, opener, url, log_path):
    """Wait until the server answers ``/``; fail with its log if it exits or stays silent."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the server exited with {server.returncode}:\n{log_path.read_text()}")
        try:
            fetch(opener, url + "/")
            return
        except CONNECTION_LOST:
            time.sleep(0.1)
    pytest.fail(f"the server did not answer within {START_SECONDS} s:\n{log_path.read_text()}")


def test_a_pipx_style_install_runs_its_commands_from_anywhere(installed, tmp_path):
    on_path = tmp_path / "bin"  # pipx links an app's commands into ~/.local/bin
    on_path.mkdir()
    (on_path / "scorekeeper").symlink_to(installed / "bin" / "scorekeeper")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    instance = tmp_path / "club's scores"
    environment = clean_environment(tmp_path, PATH=f"{on_path}:/usr/bin:/bin", SCOREKEEPER_INSTANCE=str(instance))

    own_command = run(["scorekeeper", "--help"], cwd=elsewhere, env=environment)
    through_flask = run([installed / "bin" / "flask", "--app", "scorekeeper", "--help"], cwd=elsewhere,
                        env=environment)

    for finished in (own_command, through_flask):
        assert "serve" in finished.stdout and "backup" in finished.stdout  # the app loaded: its commands show
        assert "Error" not in finished.stderr and "Traceback" not in finished.stderr, finished.stderr
    assert own_command.stdout.startswith("Usage: scorekeeper ")
    assert not instance.exists(), "--help wrote into the instance folder"


def test_an_earlier_versions_data_inside_the_environment_is_found_and_said_where_it_is(installed, tmp_path):
    earlier = installed / "var" / "scorekeeper-instance"  # where Flask puts an installed app's instance folder
    earlier.mkdir(parents=True)
    connection = sqlite3.connect(earlier / "scorekeeper.sqlite")
    connection.execute("CREATE TABLE game (id INTEGER PRIMARY KEY)")
    connection.commit()
    connection.close()
    try:
        found = run([installed / "bin" / "scorekeeper", "--help"], cwd=tmp_path, env=clean_environment(tmp_path))
    finally:
        shutil.rmtree(installed / "var")  # the environment is the other tests' too

    assert found.stderr == (
        f"The app's data is in {earlier}, inside its environment, which `pipx uninstall` and `pipx reinstall` "
        f"delete with it. Stop the app, then move everything in that folder into "
        f"{tmp_path / '.local' / 'share' / 'scorekeeper'}, where this version keeps its data (or set "
        f"SCOREKEEPER_INSTANCE to a folder of your own).\n")
    assert not (tmp_path / ".local").exists()

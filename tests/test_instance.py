"""The instance folder: which folder it is (a checkout's, an installed app's in the user's data folder, an
earlier version's inside the environment), what writes into it and when (nothing for --help), what a folder
that cannot be written says, and the database a command leaves behind it."""

import json
import os
import random
import shutil
import sqlite3
import sys

import pytest
from click.testing import CliRunner
from flask import Flask

from scorekeeper import __main__, create_app, instance

from .tabletop import random_game_document

# --- Which folder -------------------------------------------------------------------------------


def make_database(folder, name=instance.DATABASE_FILE):
    """A SQLite database of one small table in ``folder`` (made), as an earlier version left one."""
    folder.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(folder / name)
    connection.execute("CREATE TABLE game (id INTEGER PRIMARY KEY)")
    connection.commit()
    connection.close()


@pytest.fixture
def folders(tmp_path):
    """An earlier version's folder inside the environment, and the user's data folder; neither made yet."""
    return tmp_path / "environment" / "var" / "scorekeeper-instance", tmp_path / "data" / "scorekeeper"


def test_an_installed_app_keeps_its_data_in_the_users_data_folder(folders):
    old, user = folders

    assert instance.installed_folder(str(old), str(user)) == (str(user), None)


@pytest.mark.parametrize("left_behind", [
    [instance.SECRET_KEY_FILE, instance.DATABASE_FILE],  # an earlier version's --help made these, empty
    ["translations"],
], ids=["an empty database file and a key", "compiled catalogs"])
def test_an_earlier_versions_folder_without_the_clubs_data_is_left_for_the_users_data_folder(folders, left_behind):
    old, user = folders
    old.mkdir(parents=True)
    for name in left_behind:
        (old / name).touch()

    assert instance.installed_folder(str(old), str(user)) == (str(user), None)


@pytest.mark.parametrize("kept", ["database", "write-ahead log", "configuration"])
def test_an_earlier_versions_folder_holding_the_clubs_data_is_used_where_it_is_with_a_line_saying_how_to_move_it(
        folders, kept):
    old, user = folders
    if kept == "database":
        make_database(old)
    elif kept == "write-ahead log":  # every hand still in the log, the database file itself empty
        old.mkdir(parents=True)
        (old / instance.DATABASE_FILE).touch()
        (old / f"{instance.DATABASE_FILE}-wal").write_bytes(b"\0" * 4096)
    else:
        old.mkdir(parents=True)
        (old / instance.CONFIG_FILE).write_text("SQLALCHEMY_DATABASE_URI = 'postgresql+psycopg://club/scores'\n")

    folder, line = instance.installed_folder(str(old), str(user))

    assert folder == str(old)
    assert line == (f"The app's data is in {old}, inside its environment, which `pipx uninstall` and `pipx reinstall` "
                    f"delete with it. Stop the app, then move everything in that folder into {user}, where this "
                    f"version keeps its data (or set SCOREKEEPER_INSTANCE to a folder of your own).")
    assert not user.exists()


def test_once_the_users_data_folder_holds_a_database_it_is_used_and_the_earlier_one_is_named(folders):
    old, user = folders
    make_database(old)
    make_database(user)

    folder, line = instance.installed_folder(str(old), str(user))

    assert folder == str(user)
    assert line == (f"{old} also holds a database or a configuration, an earlier version's, inside the app's "
                    f"environment (which `pipx uninstall` and `pipx reinstall` delete): this version uses {user} and "
                    f"leaves that one as it is.")
    assert (old / instance.DATABASE_FILE).stat().st_size > 0  # left whole


@pytest.fixture
def installed(monkeypatch, tmp_path, folders):
    """The app as if installed (not in a checkout): Flask's folder for it is ``folders[0]``, the user's data
    folder ``folders[1]``; no SCOREKEEPER_INSTANCE; each line said again."""
    old, user = folders
    monkeypatch.delenv(instance.VARIABLE, raising=False)
    monkeypatch.setattr(instance, "in_a_checkout", lambda: False)
    monkeypatch.setattr(instance, "user_data_folder", lambda: str(user))
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda app: str(old))
    instance.say_once.cache_clear()
    yield old, user
    instance.say_once.cache_clear()


def test_the_installed_apps_instance_folder_is_the_users_data_folder(installed):
    _old, user = installed

    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})

    assert app.instance_path == str(user)


def test_the_installed_app_says_once_on_the_terminal_where_an_earlier_versions_data_is(installed, capsys):
    old, user = installed
    make_database(old)

    apps = [create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"}) for _start in range(2)]

    assert [app.instance_path for app in apps] == [str(old)] * 2
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.count(f"The app's data is in {old}, inside its environment") == 1


def test_scorekeeper_instance_still_names_the_installed_apps_folder(installed, monkeypatch, tmp_path):
    old, _user = installed
    make_database(old)
    monkeypatch.setenv(instance.VARIABLE, str(tmp_path / "club"))

    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})

    assert app.instance_path == str(tmp_path / "club")


def test_the_checkout_is_told_from_an_installed_package(tmp_path):
    installed_package = tmp_path / "lib" / "python3" / "site-packages" / "scorekeeper"
    installed_package.mkdir(parents=True)

    assert instance.in_a_checkout()  # these tests run from the checkout
    assert not instance.in_a_checkout(str(installed_package))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG rule is Linux's (Termux's too)")
def test_the_users_data_folder_follows_xdg_data_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    assert instance.user_data_folder() == str(tmp_path / "data" / "scorekeeper")


# --- What writes into it, and when --------------------------------------------------------------


@pytest.fixture
def command_line(monkeypatch, tmp_path):
    """The `scorekeeper` command run in this process, its instance folder ``tmp_path / "instance"`` (not made),
    with none of the environment's FLASK_ settings; what it said, and its exit status."""
    folder = tmp_path / "instance"
    for name in [name for name in os.environ if name.startswith("FLASK_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv(instance.VARIABLE, str(folder))

    def run(*arguments):
        result = CliRunner().invoke(__main__.main, list(arguments), prog_name="scorekeeper")
        return result.exit_code, result.output

    run.folder = folder
    return run


@pytest.mark.parametrize("arguments", [
    ["--help"], ["serve", "--help"], ["migrate", "--help"], ["backup", "--help"], ["restore", "--help"],
], ids=" ".join)
def test_help_writes_nothing_into_the_instance_folder(command_line, arguments):
    status, output = command_line(*arguments)

    assert status == 0, output
    assert output.startswith("Usage: scorekeeper ")
    assert not command_line.folder.exists()


def test_a_page_in_another_language_needs_no_catalog_written_anywhere(monkeypatch, tmp_path):
    monkeypatch.setenv(instance.VARIABLE, str(tmp_path / "instance"))
    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})

    page = app.test_client().get("/settle", headers={"Accept-Language": "pt"}).get_data(as_text=True)

    assert '<html lang="pt">' in page and "Resolver uma vaza" in page
    assert not (tmp_path / "instance").exists()


def test_the_secret_key_is_made_in_the_instance_folder_when_a_page_first_needs_it(monkeypatch, tmp_path):
    folder = tmp_path / "instance"
    monkeypatch.setenv(instance.VARIABLE, str(folder))
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})
    made_by_the_app = folder.exists()

    app.test_client().get("/settle")

    assert not made_by_the_app
    assert app.secret_key == (folder / instance.SECRET_KEY_FILE).read_text().strip()
    assert len(app.secret_key) == 64


def test_a_command_leaves_the_database_file_whole_when_it_ends(command_line, tmp_path):
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(random_game_document(random.Random(33), "Kept", fewest_hands=3)))

    results = [command_line("migrate"), command_line("import-game", str(game_file))]
    database = command_line.folder / instance.DATABASE_FILE
    log = command_line.folder / f"{instance.DATABASE_FILE}-wal"
    left_in_the_log = log.stat().st_size if log.exists() else 0
    copy = shutil.copy(database, tmp_path / "copy.sqlite")
    connection = sqlite3.connect(copy)
    games = connection.execute("SELECT name FROM game").fetchall()
    hands = connection.execute("SELECT count(*) FROM hand").fetchone()[0]
    connection.close()

    assert [status for status, _output in results] == [0, 0], results
    assert left_in_the_log == 0
    assert games == [("Kept",)] and hands >= 3


# --- A folder that cannot be written ------------------------------------------------------------


@pytest.mark.parametrize("arguments", [["serve", "--port", "0"], ["migrate"], ["backup", "-"]], ids=" ".join)
def test_a_file_where_the_instance_folder_should_be_is_said_in_one_line(command_line, arguments):
    command_line.folder.write_text("not a folder\n")

    status, output = command_line(*arguments)

    assert status == 2
    assert output == (f"Error: {command_line.folder} is a file, where the app keeps its instance folder (its "
                      f"database and secret key): move the file away, or set SCOREKEEPER_INSTANCE to a folder you "
                      f"can write.\n")


def test_an_instance_folder_under_a_file_is_said_in_one_line(command_line, monkeypatch, tmp_path):
    (tmp_path / "a file").write_text("\n")
    folder = tmp_path / "a file" / "instance"
    monkeypatch.setenv(instance.VARIABLE, str(folder))

    status, output = command_line("migrate")

    assert status == 2
    assert output == (f"Error: The app cannot write its instance folder {folder} (Not a directory), where it keeps "
                      f"its database and secret key: make it a folder you can write, or set SCOREKEEPER_INSTANCE to "
                      f"one.\n")


def test_an_instance_folder_the_user_may_not_write_is_said_in_one_line(command_line, monkeypatch):
    folder = str(command_line.folder)
    makedirs = os.makedirs

    def refused(path, *arguments, **options):  # as a folder of another user's, or on a read-only disk, refuses
        if str(path).startswith(folder):
            raise PermissionError(13, "Permission denied", str(path))
        return makedirs(path, *arguments, **options)

    monkeypatch.setattr(os, "makedirs", refused)

    status, output = command_line("serve", "--port", "0")

    assert status == 2
    assert output == (f"Error: The app cannot write its instance folder {folder} (Permission denied), where it "
                      f"keeps its database and secret key: make it a folder you can write, or set "
                      f"SCOREKEEPER_INSTANCE to one.\n")

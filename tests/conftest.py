"""Fixtures for web tests: an app on a database of its own, a client, a CLI runner; Hypothesis profiles.

The database is a temporary SQLite file, or, when ``SCOREKEEPER_TEST_DATABASE``
names a server database (a SQLAlchemy URL such as
``postgresql+psycopg://postgres@127.0.0.1:55432/scorekeeper``), a database
created beside it for each test and dropped after it.

The migrations run once per session (once per xdist worker), into a
template, as `serve` runs them (``create_app`` connects to nothing); each
test's database is a copy of it (a file copy on SQLite,
``CREATE DATABASE ... TEMPLATE`` on the server). The migration tests ask for
an empty database (``empty_database_uri``) and upgrade it for real.

Hypothesis runs the ``ci`` profile unless told otherwise: each test's own
count of examples, or 100 where it sets none. ``--hypothesis-profile=thorough``
runs ten times as many examples everywhere, for a long run by hand.
"""

import contextlib
import functools
import os
import secrets
import shutil
import sqlite3

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url

from scorekeeper import create_app
from scorekeeper.db import migrate
from scorekeeper.db.models import db

from . import profiles  # noqa: F401  (registers and loads the Hypothesis profiles)

SERVER_DATABASE = os.environ.get("SCOREKEEPER_TEST_DATABASE")

# --- Databases --------------------------------------------------------------------------


@functools.cache
def server_admin(url):
    """An engine on the server database ``url``, to create and drop databases beside it."""
    return create_engine(make_url(url), isolation_level="AUTOCOMMIT")


@contextlib.contextmanager
def fresh_server_database(url, template=None):
    """A new database on the server of ``url``, empty or a copy of the database ``template``; its URL.

    It is dropped afterwards.
    """
    server = make_url(url)
    name = f"scorekeeper_test_{secrets.token_hex(6)}"
    copy = f' TEMPLATE "{template}"' if template else ""
    with server_admin(url).connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with server_admin(url).connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# Copies of the template that tests are done with, on the server: the next test takes one and empties it
# (TRUNCATE, some 20 ms) rather than copying the template again (CREATE DATABASE ... TEMPLATE and DROP
# DATABASE: 200-400 ms a test, most of a PostgreSQL run). Dropped at the end of the session.
_SPARE_COPIES = {}  # template name -> URLs of this worker's copies free to be emptied and used again
_ALL_COPIES = []  # every copy this worker made, to drop at the end
KEPT_TABLES = {"alembic_version", "club"}  # what the migrations wrote into the template, kept by emptying


@contextlib.contextmanager
def server_copy(template):
    """A database on the ``SCOREKEEPER_TEST_DATABASE`` server as ``template`` was made: a spare copy
    emptied of every row the tests wrote, or a new copy; its URL. It is a spare again afterwards."""
    spares = _SPARE_COPIES.setdefault(template, [])
    if spares:
        url = spares.pop()
        _empty(url)
    else:
        server = make_url(SERVER_DATABASE)
        name = f"scorekeeper_test_{secrets.token_hex(6)}"
        with server_admin(SERVER_DATABASE).connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
        url = server.set(database=name).render_as_string(hide_password=False)
        _ALL_COPIES.append(url)
    try:
        yield url
    finally:
        spares.append(url)


def _empty(url):
    """Every row the tests wrote, gone, and every id counting from 1 again, in one round trip; any
    connection left (a killed server's) closed first. A test writes a few rows: deleting them costs less
    than TRUNCATE, which makes new files for every table and index."""
    tables = [table.name for table in reversed(db.metadata.sorted_tables) if table.name not in KEPT_TABLES]
    with server_admin(url).connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
        sequences = connection.execute(text(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")).scalars().all()
        connection.exec_driver_sql("; ".join([*(f'DELETE FROM "{name}"' for name in tables),
                                              *(f'ALTER SEQUENCE "{name}" RESTART' for name in sequences)]))


def drop_server_copies():
    """Drop every copy this worker made (at the end of the session)."""
    for url in _ALL_COPIES:
        server_admin(url).dispose()
        with server_admin(SERVER_DATABASE).connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))
    _ALL_COPIES.clear()
    _SPARE_COPIES.clear()


@contextlib.contextmanager
def fresh_database(folder, template=None):
    """A database of one's own: a SQLite file in ``folder``, or one on the ``SCOREKEEPER_TEST_DATABASE`` server.

    Empty, or as ``template`` was made (see ``migrated_template``): a copy of
    its file on SQLite, a copy emptied again on the server (``server_copy``).
    """
    if not SERVER_DATABASE:
        path = folder / "test.sqlite"
        if template:
            shutil.copy(template, path)  # the mode too: the app made it readable by its owner only
        yield f"sqlite:///{path}"
        return
    if template:
        with server_copy(template) as url:
            yield url
        return
    with fresh_server_database(SERVER_DATABASE) as url:
        yield url


def migrated(app):
    """``app``, its database brought to the latest migration (as `serve` and `migrate` do)."""
    with app.app_context():
        migrate.upgrade()
    return app


def close(app):
    """Close every connection ``app`` holds: a database can be dropped (or copied) only once none is open."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory):
    """A database brought to the latest migration, once per session (and xdist worker).

    The path of its SQLite file, or its name on the server: what
    ``fresh_database`` copies. Nothing connects to it after the upgrade.
    """
    with fresh_database(tmp_path_factory.mktemp("migrated")) as url:
        close(migrated(create_app({"TESTING": True, "SECRET_KEY": "template", "SQLALCHEMY_DATABASE_URI": url})))
        try:
            yield make_url(url).database
        finally:
            if SERVER_DATABASE:
                drop_server_copies()  # before the template itself is dropped


@pytest.fixture
def database_uri(tmp_path, migrated_template):
    """The SQLAlchemy URL of a database of one test's own, at the latest migration and holding no game."""
    with fresh_database(tmp_path, migrated_template) as url:
        yield url


@pytest.fixture
def empty_database_uri(tmp_path):
    """The SQLAlchemy URL of a fresh, empty database for one test: no table, no migration."""
    with fresh_database(tmp_path) as url:
        yield url


@pytest.fixture(scope="module")
def module_database_uri(tmp_path_factory, migrated_template):
    """The SQLAlchemy URL of a database at the latest migration shared by one test module."""
    with fresh_database(tmp_path_factory.mktemp("module database"), migrated_template) as url:
        yield url


def _compile_each_url_builder_once():
    """Compile each route's URL builder once a test process, not once an app.

    Every test makes an app of its own, and werkzeug compiles two URL
    builders (Python code, through ``compile``) for each of the app's routes:
    30 ms of the 48 ms an app costs, some 60 s of CI. A builder is a pure
    function of its rule's parts, defaults and converters (the rule it serves
    is passed to it when called), so apps with the same routes can share it.
    With a werkzeug that compiles otherwise, each app compiles its own, as in
    production. tests/test_factory.py proves the shared builders build every
    route's address as werkzeug's own do.
    """
    from werkzeug.routing.rules import Rule

    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    builders = {}

    @functools.wraps(compile_builder)
    def compiled_once(rule, append_unknown=True):
        if not isinstance(getattr(rule, "_trace", None), list):
            return compile_builder(rule, append_unknown)
        key = (rule.rule, tuple(rule._trace), repr(sorted((rule.defaults or {}).items())),
               tuple(sorted((name, type(converter)) for name, converter in rule._converters.items())),
               append_unknown)
        if key not in builders:
            builders[key] = compile_builder(rule, append_unknown)
        return builders[key]

    Rule._compile_builder = compiled_once


_compile_each_url_builder_once()


@event.listens_for(Engine, "connect")
def _no_waiting_for_the_disk(connection, _record):
    """A test's SQLite database is thrown away: its commits need not wait for the disk (as CI's throwaway
    PostgreSQL runs without fsync). Durability is tested where it matters, by test_crash's real servers,
    which run with the app's own settings."""
    if isinstance(connection, sqlite3.Connection):
        connection.execute("PRAGMA synchronous=OFF")


@pytest.fixture
def app(database_uri):
    """An app on a database of its own, its instance data in a temporary folder."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test secret key",
        "SQLALCHEMY_DATABASE_URI": database_uri,
    })
    yield app
    close(app)  # the database can be dropped only once no connection holds it


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


# --- Collection: markers ----------------------------------------------------------

BROWSER_TESTS = os.path.join(os.path.dirname(__file__), "browser")


def pytest_collection_modifyitems(config, items):
    """Mark every test under tests/browser ``browser``."""
    for item in items:
        if str(item.path).startswith(BROWSER_TESTS + os.sep):
            item.add_marker(pytest.mark.browser)


# --- What the robustness tests tried ---------------------------------------------------------

COUNTED = ("service:", "hostile:", "races:", "crash:", "backup:", "migrations:", "axe:", "tap budget:",
           "table view first load:")


def pytest_terminal_summary(terminalreporter):
    """Show the counts the robustness tests print (requests sent, races run, kills survived...)."""
    lines = {}  # a report carries the output of its test's earlier phases too: keep each line once
    for reports in terminalreporter.stats.values():
        for report in reports:
            for line in getattr(report, "capstdout", "").splitlines():
                if line.startswith(COUNTED):
                    lines[(getattr(report, "nodeid", ""), line)] = line
    if lines:
        terminalreporter.section("what the robustness tests tried")
        for line in lines.values():
            terminalreporter.write_line(line)


@pytest.fixture
def other_apps(tmp_path, migrated_template):
    """Makes more apps, each on a database of its own at the latest migration and holding nothing: a backup's
    restore elsewhere (``other_apps("name")``), closed when the test ends."""
    with contextlib.ExitStack() as stack:
        def other_app(name):
            folder = tmp_path / name
            folder.mkdir()
            url = stack.enter_context(fresh_database(folder, migrated_template))
            made = create_app({"TESTING": True, "SECRET_KEY": f"{name} secret", "SQLALCHEMY_DATABASE_URI": url})
            stack.callback(close, made)
            return made

        yield other_app

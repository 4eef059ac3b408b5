"""Fixtures for web tests: an app on a fresh database, a client, a CLI runner.

The database is a temporary SQLite file, or, when ``SCOREKEEPER_TEST_DATABASE``
names a server database (a SQLAlchemy URL such as
``postgresql+psycopg://postgres@127.0.0.1:55432/scorekeeper``), a fresh
database created beside it for each test and dropped after it.
"""

import contextlib
import os
import secrets

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorekeeper import create_app
from scorekeeper.db.models import db

SERVER_DATABASE = os.environ.get("SCOREKEEPER_TEST_DATABASE")


@contextlib.contextmanager
def fresh_server_database(url):
    """A new, empty database on the server of ``url``; its URL, and it is dropped afterwards."""
    server = make_url(url)
    name = f"scorekeeper_test_{secrets.token_hex(6)}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextlib.contextmanager
def fresh_database(folder):
    """A fresh, empty database: a SQLite file in ``folder``, or one on the ``SCOREKEEPER_TEST_DATABASE`` server."""
    if not SERVER_DATABASE:
        yield f"sqlite:///{folder / 'test.sqlite'}"
        return
    with fresh_server_database(SERVER_DATABASE) as url:
        yield url


@pytest.fixture
def database_uri(tmp_path):
    """The SQLAlchemy URL of a fresh, empty database for one test."""
    with fresh_database(tmp_path) as url:
        yield url


@pytest.fixture(scope="module")
def module_database_uri(tmp_path_factory):
    """The SQLAlchemy URL of a fresh, empty database shared by one test module."""
    with fresh_database(tmp_path_factory.mktemp("module database")) as url:
        yield url


@pytest.fixture
def app(database_uri):
    """An app on a fresh database, its instance data in a temporary folder."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test secret key",
        "SQLALCHEMY_DATABASE_URI": database_uri,
    })
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()  # the database can be dropped only once no connection holds it


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


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

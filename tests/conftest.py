"""Fixtures for web tests: an app on a fresh temporary database, a client, a CLI runner."""

import pytest

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    """An app whose instance data lives in a temporary folder."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test secret key",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
    })
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


COUNTED = ("hostile:", "races:", "crash:", "backup:", "migrations:", "axe:", "tap budget:", "table view first load:")


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

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

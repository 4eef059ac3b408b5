"""The application factory and its instance setup."""

import multiprocessing
import os
import stat
import time

from sqlalchemy import create_engine, text

from scorekeeper import create_app, load_or_create_secret_key
from scorekeeper.db import migrate


def test_home_page_names_the_game(client):
    response = client.get("/")

    assert response.status_code == 200
    assert "Cancellation Hearts" in response.get_data(as_text=True)


def test_secret_key_is_generated_once_with_owner_only_permissions(tmp_path):
    first = load_or_create_secret_key(tmp_path)
    second = load_or_create_secret_key(tmp_path)

    assert first == second
    assert len(first) == 64
    mode = stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode)
    assert mode == 0o600


def test_configured_secret_key_is_used_as_given(tmp_path):
    app = create_app({"SECRET_KEY": "from config", "SQLALCHEMY_DATABASE_URI": "sqlite://"})

    assert app.config["SECRET_KEY"] == "from config"


# --- Several server processes starting at once --------------------------------------------


def _start(start_at, database_uri, instance, results):
    """One server process starting: read or make the secret key, bring the database up to date."""
    while time.monotonic() < start_at:
        pass
    try:
        key = load_or_create_secret_key(instance)
        app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database_uri})
        with app.app_context():
            migrate.upgrade()  # as serve does before it listens
        results.put(("started", key))
    except Exception as error:  # noqa: BLE001 - what a worker would die of is the result
        results.put((type(error).__name__, str(error)))


def test_four_processes_starting_at_once_share_one_key_and_migrate_once(tmp_path, empty_database_uri):
    context = multiprocessing.get_context("spawn")  # each a fresh interpreter, as server workers are
    results = context.Queue()
    start_at = time.monotonic() + 3  # after every process has imported the app
    processes = [context.Process(target=_start, args=(start_at, empty_database_uri, str(tmp_path), results))
                 for _worker in range(4)]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=60) for _worker in processes]
    for process in processes:
        process.join(timeout=30)

    assert [outcome for outcome, _key in outcomes] == ["started"] * 4, outcomes
    assert len({key for _outcome, key in outcomes}) == 1
    assert len(outcomes[0][1]) == 64
    engine = create_engine(empty_database_uri)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [migrate.latest()]
    engine.dispose()


# --- Where the instance folder is ------------------------------------------------------------------


def test_a_checkouts_instance_folder_is_instance_at_its_top(monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)

    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})

    assert app.instance_path == os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "instance")


def test_scorekeeper_instance_names_the_instance_folder_from_where_the_app_starts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", "club scores")

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})

    assert app.instance_path == str(tmp_path / "club scores")
    assert not (tmp_path / "club scores" / "secret_key").exists()  # made when first asked for, not at start
    assert app.secret_key
    assert (tmp_path / "club scores" / "secret_key").is_file()


def test_the_suites_shared_url_builders_build_every_route_as_production_does(app):
    """tests/conftest.py compiles each route's URL builder once a test process, not once an app (some 60 s of
    CI): for every route of the app, with and without unknown arguments, the shared builder gives the address
    werkzeug's own compiles for that rule."""
    from werkzeug.routing.rules import Rule

    shared = Rule._compile_builder
    own = getattr(shared, "__wrapped__", shared)  # werkzeug's, which the suite's wraps
    built = 0
    for rule in app.url_map.iter_rules():
        values = {name: 7 if "Integer" in type(converter).__name__ or "Id" in type(converter).__name__ else "Ana Bo"
                  for name, converter in rule._converters.items()}
        for append_unknown, extra in ((False, {}), (True, {"page": "2", "sep": ";"})):
            arguments = {**values, **extra}
            assert (shared(rule, append_unknown).__get__(rule, None)(**arguments)
                    == own(rule, append_unknown).__get__(rule, None)(**arguments)), rule.rule
            built += 1
    assert shared is not own and built > 100  # the suite's builders are shared, and were compared on every route

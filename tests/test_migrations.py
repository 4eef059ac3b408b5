"""Upgrades never lose a game: a database at the first migration, filled, upgraded to the latest.

On SQLite, and on the server database ``SCOREKEEPER_TEST_DATABASE`` names when it is set.
"""

import contextlib
import os
import random
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scorekeeper import create_app, rules
from scorekeeper.db.migrate import alembic_config, latest
from scorekeeper.db.models import db
from scorekeeper.web import serving

from .conftest import close, migrated
from .tabletop import ELEVEN, random_hand

REPOSITORY = Path(__file__).resolve().parents[1]


def fill_first_schema(connection, games, chance):
    """Write games as the first schema stores them; return what each must still show."""
    expected = []
    for game_id in range(1, games + 1):
        players = chance.randint(6, 11)
        first_dealer = chance.randrange(players)
        records = []
        while len(records) < chance.randint(0, 8):
            record, _entry = random_hand(chance, players, len(records) + 1, first_dealer)
            records.append(record)
        connection.execute(sa.text(
            "INSERT INTO game (id, name, target, first_dealer, created_at, revision) "
            "VALUES (:id, :name, 10000, :dealer, :at, :revision)"),
            {"id": game_id, "name": f"Game {game_id}", "dealer": first_dealer,
             "at": datetime(2026, 11, 1), "revision": len(records) + 1})
        for seat in range(players):
            connection.execute(sa.text("INSERT INTO player (game_id, seat, name) VALUES (:g, :s, :n)"),
                               {"g": game_id, "s": seat, "n": ELEVEN[seat]})
        for number, record in enumerate(records, start=1):
            left = rules.check_takings(dict(enumerate(record.taken)))
            hand_id = connection.execute(sa.text(
                "INSERT INTO hand (game_id, number, moon, uncollected_hearts, uncollected_marias, recorded_at) "
                "VALUES (:g, :n, :moon, :h, :m, :at) RETURNING id"),
                {"g": game_id, "n": number, "moon": record.moon.value if record.moon else None,
                 "h": left.hearts, "m": left.marias, "at": datetime(2026, 11, 1)}).scalar()
            for seat, taken in enumerate(record.taken):
                connection.execute(sa.text(
                    "INSERT INTO taking (hand_id, seat, hearts, marias) VALUES (:h, :s, :he, :ma)"),
                    {"h": hand_id, "s": seat, "he": taken.hearts, "ma": taken.marias})
        board = rules.score_game(players, first_dealer, 10_000, records)
        expected.append((game_id, ELEVEN[:players], list(board.totals), len(records)))
    return expected


@contextlib.contextmanager
def started(uri):
    """The app on the database ``uri``, upgraded as `serve` upgrades it; its connections closed afterwards."""
    app = migrated(create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": uri}))
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def first_schema_database(empty_database_uri):
    """A database at the first migration, filled with games; its URI and what it holds."""
    uri = empty_database_uri
    engine = sa.create_engine(uri)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
        expected = fill_first_schema(connection, 40, random.Random(2026))
    engine.dispose()
    return uri, expected


def test_upgrading_a_filled_first_schema_keeps_every_game(first_schema_database):
    uri, expected = first_schema_database

    with started(uri) as app:
        client = app.test_client()

        for game_id, names, totals, hands in expected:
            document = client.get(f"/games/{game_id}/export.json").get_json()
            assert document["players"] == names
            assert list(document["totals"].values()) == totals
            assert len(document["hands"]) == hands
        season = {player["name"]: player for player in client.get("/stats.json").get_json()["players"]}
        with app.app_context():
            unlinked = db.session.execute(sa.text("SELECT COUNT(*) FROM player WHERE person_id IS NULL")).scalar()
            keys = db.session.execute(sa.text("SELECT scorer_key FROM game")).scalars().all()
            version = db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    assert len(set(keys)) == len(expected) and all(len(key) >= 32 for key in keys)
    assert version == latest()
    assert unlinked == 0  # every existing player became a person, one a name
    assert {name: player["games"] for name, player in season.items()} == {
        name: sum(name in names for _id, names, _totals, _hands in expected) for name in season}
    assert sum(player["hands"] for player in season.values()) == sum(
        len(names) * hands for _id, names, _totals, hands in expected)
    print(f"migrations: {len(expected)} games upgraded from the first schema, all intact")


def test_a_database_made_before_migrations_is_recognised_and_upgraded(empty_database_uri):
    uri = empty_database_uri
    engine = sa.create_engine(uri)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
        expected = fill_first_schema(connection, 3, random.Random(7))
        connection.execute(sa.text("DROP TABLE alembic_version"))
    engine.dispose()

    with started(uri) as app:
        for game_id, names, totals, _hands in expected:
            document = app.test_client().get(f"/games/{game_id}/export.json").get_json()
            assert document["totals"] == dict(zip(names, totals))


def test_the_migrations_build_exactly_the_schema_of_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)

    assert differences == []


def test_starting_twice_on_the_latest_schema_changes_nothing(empty_database_uri):
    with started(empty_database_uri):
        pass

    with started(empty_database_uri) as app, app.app_context():
        assert db.session.execute(sa.text("SELECT count(*) FROM alembic_version")).scalar() == 1


def test_upgrading_to_the_club_shows_each_person_by_the_first_spelling_unless_renamed(empty_database_uri):
    """0006: a person was shown by the spelling typed last; now by the first, or the name a rename gave.
    The club's secretary key is made once."""
    engine = sa.create_engine(empty_database_uri)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0005")
        connection.execute(sa.text("INSERT INTO person (id, name) VALUES (1, 'ANA'), (2, 'Robert')"))
        for game_id, names in ((1, ["Ana", "Bo"]), (2, ["ANA", "bo"])):
            connection.execute(sa.text(
                "INSERT INTO game (id, name, target, first_dealer, created_at, revision) "
                "VALUES (:id, 'G', 150, 0, :at, 1)"), {"id": game_id, "at": datetime(2026, 11, game_id)})
            for seat, name in enumerate(names):
                connection.execute(sa.text(
                    "INSERT INTO player (game_id, seat, name, person_id) VALUES (:g, :s, :n, :p)"),
                    {"g": game_id, "s": seat, "n": name, "p": seat + 1})
        connection.execute(sa.text(
            "INSERT INTO person_change (at, action, person_id, facts) VALUES (:at, 'rename', 2, '{}')"),
            {"at": datetime(2026, 11, 3)})
    engine.dispose()

    with started(empty_database_uri) as app, app.app_context():
        names = db.session.execute(sa.text("SELECT name FROM person ORDER BY id")).scalars().all()
        keys = db.session.execute(sa.text("SELECT secretary_key FROM club")).scalars().all()

    assert names == ["Ana", "Robert"]  # the first spelling; the renamed keeps the name given
    assert len(keys) == 1 and len(keys[0]) >= 32


# --- Commands and the database: the schema is migrated by serve and migrate, never at import ----------------

UNREACHABLE = "postgresql+psycopg://nobody@127.0.0.1:1/scorekeeper"  # port 1 of this machine: refused at once
COMMANDS = ["serve", "migrate", "scorer-link", "club-link", "refigure", "export-game", "import-game",
            "backup", "restore"]


def test_the_command_list_shows_every_command_with_the_database_down():
    environment = {**os.environ, "FLASK_SQLALCHEMY_DATABASE_URI": UNREACHABLE}

    listed = subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "--help"], env=environment,
                            capture_output=True, text=True, timeout=60, cwd=REPOSITORY)

    assert listed.returncode == 0, listed.stderr
    assert [command for command in COMMANDS if f"\n  {command} " not in listed.stdout] == []


@pytest.fixture
def unreachable_app():
    return create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": UNREACHABLE})


@pytest.mark.parametrize("command", COMMANDS)
def test_each_commands_help_works_with_the_database_down(unreachable_app, command):
    result = unreachable_app.test_cli_runner().invoke(args=[command, "--help"])

    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ")


@pytest.mark.parametrize("arguments", [
    ["serve", "--host", "127.0.0.1", "--port", "0"], ["migrate"], ["scorer-link", "1"], ["club-link"],
    ["refigure"], ["export-game", "1"], ["import-game", "-"], ["backup", "-"], ["restore", "-"],
])
def test_a_command_that_needs_the_database_says_in_one_line_that_it_cannot_reach_it(unreachable_app, arguments,
                                                                                  monkeypatch):
    monkeypatch.setattr(serving, "create_server", None)  # serve must stop before it makes a server

    result = unreachable_app.test_cli_runner().invoke(args=arguments, input="{}")

    assert result.exit_code == 1
    assert result.output.startswith(
        "Error: Cannot reach the database postgresql+psycopg://nobody@127.0.0.1:1/scorekeeper: connection failed: ")
    assert result.output.endswith("Connection refused\n") and result.output.count("\n") == 1  # the driver's words


def test_a_command_on_a_database_without_tables_says_to_migrate_and_migrate_makes_them(empty_database_uri):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": empty_database_uri})
    runner = app.test_cli_runner()

    refused = runner.invoke(args=["club-link"])
    migrated_now = runner.invoke(args=["migrate"])
    again = runner.invoke(args=["migrate"])
    link = runner.invoke(args=["club-link"])
    close(app)

    assert refused.exit_code == 1
    assert refused.output == ("Error: The database has no tables of this app yet: run `flask --app scorekeeper "
                              "migrate` first (serve does it when it starts).\n")
    assert migrated_now.output == f"The database was brought from schema none (no tables yet) to {latest()}.\n"
    assert again.output == f"The database is up to date (schema {latest()}).\n"
    assert link.exit_code == 0 and "/club/secretary/" in link.output


def test_a_command_on_an_older_schema_says_to_migrate(empty_database_uri):
    engine = sa.create_engine(empty_database_uri)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0005")
    engine.dispose()
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": empty_database_uri})

    result = app.test_cli_runner().invoke(args=["refigure"])
    close(app)

    assert result.exit_code == 1
    assert result.output == (f"Error: The database's schema is 0005 and this version of the app needs {latest()}: "
                             f"run `flask --app scorekeeper migrate` first (serve does it when it starts).\n")

"""Schema upgrades: the database is brought to the latest migration when the app starts.

Migrations live in ``scorekeeper/migrations`` (Alembic). A database made
before migrations existed holds the first schema: it is stamped as such,
then upgraded like any other. Upgrades add and fill; they never drop a game.
"""

import functools
import os

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from .models import db

MIGRATIONS = os.path.join(os.path.dirname(__file__), "migrations")
FIRST = "0001"


def alembic_config(connection):
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.attributes["connection"] = connection
    return config


MIGRATION_LOCK = 815_015  # PostgreSQL advisory lock key: one migrating process at a time


def upgrade(revision="head"):
    """Bring the app's database to ``revision`` (the latest by default) in one transaction.

    Several server processes may start at once: the first takes a lock for
    the whole upgrade (an advisory lock on PostgreSQL, the write lock on
    SQLite), the others wait for it and then find the schema up to date.
    """
    with db.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        config = alembic_config(connection)
        if revision == "head" and MigrationContext.configure(connection).get_current_revision() == _head():
            return  # the usual start: nothing to do, and no migration script read again
        tables = set(inspect(connection).get_table_names())
        if "game" in tables and "alembic_version" not in tables:
            command.stamp(config, FIRST)
        command.upgrade(config, revision)


@functools.cache
def _head():
    """The latest migration's revision, read from the scripts once a process."""
    return ScriptDirectory.from_config(alembic_config(None)).get_current_head()

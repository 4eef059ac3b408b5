"""Schema upgrades: the database is brought to the latest migration when `serve` starts, or by `migrate`.

Migrations live in ``scorekeeper/db/migrations`` (Alembic). A database made
before migrations existed holds the first schema: it is stamped as such,
then upgraded like any other. Upgrades add and fill; they never drop a game.
"""

import functools
import os

import click
from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect
from sqlalchemy.exc import DBAPIError

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
    """Bring the app's database to ``revision`` (the latest by default) in one transaction; the revision
    it was at before (None: no tables yet).

    Several server processes may start at once: the first takes a lock for
    the whole upgrade (an advisory lock on PostgreSQL, the write lock on
    SQLite), the others wait for it and then find the schema up to date.
    """
    with reach() as connection, connection.begin():
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        config = alembic_config(connection)
        found = MigrationContext.configure(connection).get_current_revision()
        if revision == "head" and found == latest():
            return found  # the usual start: nothing to do, and no migration script read again
        tables = set(inspect(connection).get_table_names())
        if "game" in tables and "alembic_version" not in tables:
            command.stamp(config, FIRST)
        command.upgrade(config, revision)
        return found


class DatabaseUnreachable(click.ClickException):
    """The database cannot be connected to: said in one line by whichever command needed it."""


def reach():
    """A connection to the app's database, or ``DatabaseUnreachable`` naming it (without its password) and
    the driver's first line of why."""
    try:
        return db.engine.connect()
    except DBAPIError as error:
        address = db.engine.url.render_as_string(hide_password=True)
        reason = (str(error.orig).strip().splitlines() or [type(error.orig).__name__])[0]
        raise DatabaseUnreachable(f"Cannot reach the database {address}: {reason}") from None


def require_current_schema():
    """Stop a command, in one line, whose database cannot be reached or is not at this version's schema."""
    with reach() as connection:
        found = MigrationContext.configure(connection).get_current_revision()
    if found is None:
        raise click.ClickException(
            "The database has no tables of this app yet: run `flask --app scorekeeper migrate` first "
            "(serve does it when it starts).")
    if found != latest():
        raise click.ClickException(
            f"The database's schema is {found} and this version of the app needs {latest()}: run "
            f"`flask --app scorekeeper migrate` first (serve does it when it starts).")


@functools.cache
def latest():
    """The latest migration's revision, read from the scripts once a process."""
    return ScriptDirectory.from_config(alembic_config(None)).get_current_head()

"""Rows, and the one place that turns them into engine values; the schema's migrations."""

import functools

import click
from flask.cli import with_appcontext


def init_app(app):
    """Bind the database to the app (nothing is connected yet) and add the migrate command.

    The schema is brought up to date by `serve` when it starts and by
    `flask --app scorekeeper migrate`, never here: an app made while the
    database is down still lists its commands and their help.
    """
    from . import models

    models.init_app(app)
    app.cli.add_command(migrate_command)


@click.command("migrate")
@with_appcontext
def migrate_command():
    """Create the database's tables, or bring them to this version's schema (serve does it when it starts)."""
    from . import migrate

    found, latest = migrate.upgrade(), migrate.latest()
    if found == latest:
        click.echo(f"The database is up to date (schema {latest}).")
    else:
        click.echo(f"The database was brought from schema {found or 'none (no tables yet)'} to {latest}.")


def needs_database(command):
    """A command's callback (under ``with_appcontext``) that reads or writes the database: it says in
    one line when it cannot reach it, or when its schema is older than this version's, and stops there."""

    @functools.wraps(command)
    def checked(*args, **kwargs):
        from . import migrate

        migrate.require_current_schema()
        return command(*args, **kwargs)

    return checked

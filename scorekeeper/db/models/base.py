"""The database itself: the SQLAlchemy object every model is declared on, and its connections.

``init_app`` binds it to the app, connecting to nothing (a new SQLite file is made private as it is first
connected to); each SQLite connection is in WAL mode with foreign keys on; ``close_database`` folds the
write-ahead log into the file and closes every connection. ``facts``, ``kept`` and ``reads`` all build on it.
"""

import os
import sqlite3
from functools import partial
from typing import TYPE_CHECKING

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import QueuePool

from ... import instance


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)

# What every model is declared on: db.Model, a class Flask-SQLAlchemy makes from Base as db is made. A type
# checker cannot see through that call (a base class must be a name), so it reads Base, which db.Model copies.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model


@event.listens_for(Engine, "connect")
def _configure_sqlite(connection, _record):
    """SQLite in WAL mode with foreign keys on: readers never block the writer,
    and a killed process leaves every committed hand whole."""
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


def close_database(app):
    """Close every connection ``app`` holds, folding SQLite's write-ahead log into the database file first
    (``wal_checkpoint(TRUNCATE)``), so that once the process stops the file alone holds every commit, even
    while another process still has it open. An engine that holds no connection is left unconnected: a
    command's --help opens no database."""
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            try:
                if engine.dialect.name == "sqlite" and _holds_connections(engine.pool):
                    with engine.connect() as connection:
                        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                engine.dispose()


def _holds_connections(pool):
    """Whether ``pool`` has a connection open, idle or in use (a SQLite file's pool counts them)."""
    return isinstance(pool, QueuePool) and pool.checkedin() + pool.checkedout() > 0


def init_app(app):
    """Bind the database to the app, connecting to nothing (a command's --help writes nothing anywhere): a new
    SQLite file is made as it is first connected to, readable by its owner only."""
    db.init_app(app)
    with app.app_context():
        engine = db.engine
    path = sqlite_file(engine.url)
    if path:
        event.listen(engine, "do_connect", partial(_create_sqlite_file, path, os.path.abspath(app.instance_path)))


def sqlite_file(url):
    """The path of the file of the SQLite database at ``url``; None for another database, or one in memory."""
    url = make_url(url)
    path = url.database
    if url.get_backend_name() != "sqlite" or not path or path == ":memory:" or path.startswith("file:"):
        return None
    return os.path.abspath(path)


def _create_sqlite_file(path, instance_folder, *_connecting):
    """Before a connection to the SQLite file ``path``: make it, with mode 0600, if it is new (it holds every
    game's scorer key; SQLite gives its -wal and -shm files the same permissions). The instance's own database
    makes the instance folder too, and says in one line why it cannot; of a database configured elsewhere,
    SQLite says what is wrong, in one line (``migrate.reach``)."""
    if os.path.exists(path):
        return
    if os.path.dirname(path) == instance_folder:
        with instance.writing(instance_folder):
            instance.create_private_file(path)
        return
    try:
        instance.create_private_file(path)
    except OSError:
        pass

"""Backup and restore of the whole database: one JSON document holding every game.

The format is documented in docs/backup-format.md. A backup lists each
game's document (docs/game-format.md), oldest game first. A restore checks
every game before it adds any, then adds them all as new games in one
transaction: all or nothing.
"""

import json
import os
import tempfile
from contextlib import contextmanager

import click
from flask.cli import with_appcontext
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import service
from ..db import needs_database
from ..db.models import NAME_LENGTH, Game, Hand, Person, PersonName, TrickLog, db
from ..service import names
from ..web.explain import quoted
from . import game as exchange
from .game import DocumentError, dumps, export_game, read_game

FORMAT = "scorekeeper/backup"
VERSION = 1
NAME_SHOWN = 40  # characters of a game's name quoted in an error message


def backup_document():
    """Every game as one JSON-ready document, oldest first, as the database stood at one moment."""
    with _one_moment():
        games = db.session.execute(
            db.select(Game)
            .order_by(Game.id)  # ids grow with each new game, so this is creation order
            .options(
                # Loaded up front: otherwise every game costs several queries.
                selectinload(Game.players),
                selectinload(Game.hands).selectinload(Hand.takings),
                selectinload(Game.hands).selectinload(Hand.trick_log).selectinload(TrickLog.tricks),
            )
        ).scalars()
        games = [export_game(game) for game in games]
        return {"format": FORMAT, "version": VERSION, "games": games, "people": _people()}


def _people():
    """The club's people who have more than one spelling (merged or renamed): the games alone, linked
    again by name on a restore, would make them several people."""
    keys = {}
    for person, key in db.session.execute(select(PersonName.person_id, PersonName.key).order_by(PersonName.key)):
        keys.setdefault(person, []).append(key)
    names = dict(db.session.execute(select(Person.id, Person.name).where(Person.id.in_(
        [person for person, spelled in keys.items() if len(spelled) > 1]))).all())
    return [{"name": names[person], "keys": spelled} for person, spelled in keys.items() if person in names]


@contextmanager
def _one_moment():
    """Read in one snapshot, so that a hand recorded or removed meanwhile is wholly in or out.

    The games are read with several SELECTs while a table may be playing.
    Python's sqlite3 runs each SELECT on its own unless a transaction is
    open, so one is begun (in WAL mode the open read blocks no writer);
    PostgreSQL's default isolation gives each statement its own snapshot, so
    the transaction is REPEATABLE READ. A session with changes of its own is
    left alone: its transaction is the caller's.
    """
    session = db.session
    if session.new or session.dirty or session.deleted:
        yield
        return
    session.rollback()  # nothing to lose: begin the snapshot afresh
    if session.get_bind().dialect.name == "sqlite":
        session.connection().exec_driver_sql("BEGIN")
    else:
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        yield
    finally:
        session.rollback()  # nothing was written: this only ends the snapshot


def parse_backup(text):
    """Parse backup text (bytes or str) into a document, or raise ``DocumentError``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DocumentError("The file is not UTF-8 text, so it is not a scorekeeper backup.") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DocumentError("The file is not valid JSON, so it is not a scorekeeper backup.") from None


def restore_document(document):
    """Add every game of a backup document as new games in one transaction; return them.

    Every game is checked before any is added; the first problem raises
    ``DocumentError`` naming the game, and then nothing is added.
    """
    if not isinstance(document, dict):
        raise DocumentError("A backup must be a JSON object with a \"games\" list.")
    if document.get("format") == exchange.FORMAT:
        raise DocumentError("This is one game's document, not a backup; import it with import-game.")
    if document.get("format") != FORMAT:
        raise DocumentError(f"A backup's \"format\" must be \"{FORMAT}\".")
    if not exchange.whole(document.get("version")) or document["version"] != VERSION:  # not 1.0, not true
        raise DocumentError(f"This scorekeeper reads version {VERSION} of the backup format only.")
    documents = document.get("games")
    if not isinstance(documents, list):
        raise DocumentError("A backup must have a \"games\" list.")

    games = []
    for index, game_document in enumerate(documents):
        try:
            games.append(read_game(game_document))
        except DocumentError as error:
            raise DocumentError(f"{_which_game(index, len(documents), game_document)}: {error}") from None
    people = _read_people(document.get("people", []))
    try:
        return service.restore_backup(games, people)
    except service.SamePerson as error:
        raise DocumentError(f"{error} here (merged), but they sat at one table in the backup: "
                            "undo that merge first.") from None
    except service.Conflict:
        raise DocumentError("The database refused the games.") from None


def _read_people(entries):
    """A backup's people as ``service.KnownPerson`` values, or ``DocumentError`` naming the first problem."""
    if not isinstance(entries, list):
        raise DocumentError("A backup's \"people\" must be a list.")
    people, seen = [], set()
    for number, entry in enumerate(entries, start=1):
        name = entry.get("name") if isinstance(entry, dict) else None
        keys = entry.get("keys") if isinstance(entry, dict) else None
        # The name as written, untrimmed: "Ana\n" is refused, as the people it names were typed without one.
        if (not isinstance(name, str) or not name.strip() or names.problem(name.strip()) is not None
                or names.problem(name, len(name)) is not None
                or not isinstance(keys, list) or not keys
                or not all(isinstance(key, str) and key and names.key(key) == key for key in keys)):
            raise DocumentError(f"Person {number} of \"people\" needs a \"name\" (1 to {NAME_LENGTH} characters) "
                                "and \"keys\": the names they are found by, as the app compares them.")
        if seen & set(keys):
            raise DocumentError(f"Person {number} of \"people\" shares a name with a person before them.")
        seen |= set(keys)
        people.append(service.KnownPerson(name.strip(), tuple(keys)))
    return people


def _which_game(index, count, game_document):
    """A game of a backup as a person would find it: its place, counting from 1, and its name."""
    name = game_document.get("name") if isinstance(game_document, dict) else None
    if not isinstance(name, str) or not name.strip():
        return f"Game {index + 1} of {count} (no name)"
    return f"Game {index + 1} of {count} (\"{quoted(name.strip(), NAME_SHOWN)}\")"


def restore_text(text):
    """Restore a backup from its text (bytes or str); return the new games."""
    return restore_document(parse_backup(text))


def write_atomically(path, text):
    """Write ``text`` to ``path`` so that the file is either the old one or all of the new one."""
    folder = os.path.dirname(os.path.abspath(path))
    # The partial file sits in the same folder so that os.replace is a rename
    # on one file system, never a copy.
    descriptor, partial = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".partial")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as partial_file:
            partial_file.write(text)
            partial_file.flush()
            os.fsync(partial_file.fileno())
        os.replace(partial, path)
    except BaseException:
        try:
            os.unlink(partial)
        except FileNotFoundError:
            pass
        raise


def _games(count):
    return f"{count} game" if count == 1 else f"{count} games"


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@with_appcontext
@needs_database
def backup_command(file):
    """Save every game to FILE as one JSON document ('-' writes to standard output)."""
    document = backup_document()
    count = len(document["games"])
    if file == "-":
        click.echo(dumps(document), nl=False)
        # Standard output carries the backup itself, so the count goes aside.
        click.echo(f"Saved {_games(count)}.", err=True)
        return
    try:
        write_atomically(file, dumps(document))
    except OSError as error:
        raise click.ClickException(f"Could not write {file}: {error.strerror or error}. Nothing was saved.") from None
    click.echo(f"Saved {_games(count)} to {file}.")


@click.command("restore")
@click.argument("file", type=click.File("rb"))
@with_appcontext
@needs_database
def restore_command(file):
    """Add every game of backup FILE as new games, all or none ('-' reads standard input)."""
    try:
        games = restore_text(file.read())
    except DocumentError as error:
        raise click.ClickException(f"{error} Nothing was restored.") from None
    click.echo(f"Restored {_games(len(games))}.")


def init_app(app):
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)

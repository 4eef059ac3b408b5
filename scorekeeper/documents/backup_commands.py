"""The commands that write a backup of the whole club to a file and restore one: ``flask backup`` and
``flask restore``, each saying in one line what it did or why it did nothing."""

import os
import tempfile

import click
from flask.cli import with_appcontext

from ..db import needs_database
from .backup import backup_document, parse_backup, restore_whole
from .game import DocumentError, dumps


def write_atomically(path, text, replace=True):
    """Write ``text`` to ``path`` so that the file is either the old one or all of the new one; unless
    ``replace``, an existing file at ``path`` is kept and ``FileExistsError`` raised, even one made meanwhile."""
    folder = os.path.dirname(os.path.abspath(path))
    # The partial file sits in the same folder so that os.replace is a rename
    # on one file system, never a copy.
    descriptor, partial = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".partial")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as partial_file:
            partial_file.write(text)
            partial_file.flush()
            os.fsync(partial_file.fileno())
        if replace:
            os.replace(partial, path)
        else:
            _move_without_replacing(partial, path)
    except BaseException:
        try:
            os.unlink(partial)
        except FileNotFoundError:
            pass
        raise


def _move_without_replacing(partial, path):
    """Rename ``partial`` to ``path`` unless a file is there: a hard link refuses an existing name in one
    step; where a file system has none (some phones' shared storage), the name is looked at, then replaced."""
    try:
        os.link(partial, path)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.replace(partial, path)
        return
    os.unlink(partial)


def _counted(count, one, many):
    return f"{count} {one if count == 1 else many}"


def restored_line(restored):
    """What ``restore`` says it restored, in one line."""
    return (f"Restored {_counted(len(restored.games), 'game', 'games')}, "
            f"{_counted(restored.people, 'person', 'people')}, "
            f"{_counted(restored.left_out, 'game left out', 'games left out')} of the season, "
            f"{_counted(restored.waiting, 'import waiting', 'imports waiting')} for the club's secretary, "
            f"{_counted(restored.nights, 'club night', 'club nights')}, "
            f"{_counted(restored.club_entries, 'entry', 'entries')} of the club's trail.")


class Refused(click.ClickException):
    """A command refused before it did anything: one line, exit status 2."""

    exit_code = 2


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@with_appcontext
@needs_database
def backup_command(file, force):
    """Save the whole club to FILE as one JSON document ('-' writes to standard output); an existing FILE is
    kept unless --force."""
    if file != "-" and not force and os.path.lexists(file):
        raise Refused(f"{file} exists already; nothing was saved. Name a new file, or add --force to replace it.")
    document = backup_document()
    count = _counted(len(document["games"]), "game", "games")
    if file == "-":
        click.echo(dumps(document), nl=False)
        # Standard output carries the backup itself, so the count goes aside.
        click.echo(f"Saved {count}.", err=True)
        return
    try:
        write_atomically(file, dumps(document), replace=force)
    except FileExistsError:
        raise Refused(f"{file} exists already; nothing was saved. Name a new file, or add --force to replace it.") \
            from None
    except OSError as error:
        raise click.ClickException(f"Could not write {file}: {error.strerror or error}. Nothing was saved.") from None
    click.echo(f"Saved {count} to {file}.")


@click.command("restore")
@click.argument("file", type=click.File("rb"))
@with_appcontext
@needs_database
def restore_command(file):
    """Add the games of backup FILE as new games, with the club's people and trail, all or nothing ('-' reads
    standard input)."""
    try:
        restored = restore_whole(parse_backup(file.read()))
    except DocumentError as error:
        raise click.ClickException(f"{error} Nothing was restored.") from None
    click.echo(restored_line(restored))
    if restored.people_entries_left_out:
        click.echo(f"Not restored: {_counted(restored.people_entries_left_out, 'entry', 'entries')} of the club's "
                   "trail of people (renames, merges), as some of the backup's people were known here already; "
                   "their games are linked to them by name.")


def init_app(app):
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)

"""The instance folder: where the app keeps what the club wrote (the database ``scorekeeper.sqlite``, the
``secret_key``, an optional ``config.py``, the running server's note), which folder that is, and making it.

- ``SCOREKEEPER_INSTANCE``, when set, names it (a relative path is taken from where the app starts).
- A checkout (the package at the top of its source tree, beside ``pyproject.toml``: the editable install,
  the tests) keeps ``instance/`` at its top.
- An installed app keeps it in the user's data folder (platformdirs' ``user_data_dir``:
  ``~/.local/share/scorekeeper`` on Linux, Termux included, ``~/Library/Application Support/scorekeeper`` on
  macOS, ``%LOCALAPPDATA%\\scorekeeper`` on Windows), outside the virtual environment that ``pipx uninstall``
  and ``pipx reinstall`` delete. Earlier versions kept it where Flask puts an installed app's,
  ``<environment>/var/scorekeeper-instance``: while that folder holds the club's data and the user's data
  folder does not, it is used where it is, and a line says how to move it. It is not moved for the user: a
  server of the earlier version may still have the database open (a file moved from under it, or copied
  while it writes, loses hands), and a move to another disk is a copy.

Nothing is written here until something needs it (the secret key when something first signs with it, the
database when first connected to): a command's ``--help`` writes nothing. A folder that cannot be made or
written is said in one line (``InstanceUnwritable``, exit status 2), never a traceback.
"""

import contextlib
import functools
import os
import secrets

import click
import platformdirs

VARIABLE = "SCOREKEEPER_INSTANCE"
DATABASE_FILE = "scorekeeper.sqlite"
SECRET_KEY_FILE = "secret_key"
CONFIG_FILE = "config.py"
APP_NAME = "scorekeeper"
PACKAGE = os.path.dirname(os.path.abspath(__file__))


def configured():
    """The folder ``SCOREKEEPER_INSTANCE`` names, made absolute; None when it is not set."""
    named = os.environ.get(VARIABLE)
    return os.path.abspath(os.path.expanduser(named)) if named else None


def in_a_checkout(package=PACKAGE):
    """Whether ``package`` sits in its source tree (``pyproject.toml`` beside it), not in an environment."""
    return os.path.isfile(os.path.join(os.path.dirname(package), "pyproject.toml"))


def user_data_folder():
    """The user's own data folder for the app (no author folder on Windows: ``%LOCALAPPDATA%\\scorekeeper``)."""
    return platformdirs.user_data_dir(APP_NAME, appauthor=False)


def holds_data(folder):
    """Whether ``folder`` holds what the club wrote: a database (its file, or its write-ahead log, which
    holds every hand until a checkpoint) or a configuration."""
    def written(name):
        path = os.path.join(folder, name)
        return os.path.isfile(path) and os.path.getsize(path) > 0

    configuration = os.path.join(folder, CONFIG_FILE)
    return written(DATABASE_FILE) or written(f"{DATABASE_FILE}-wal") or os.path.isfile(configuration)


def installed_folder(old_folder, user_folder):
    """An installed app's instance folder, between the user's data folder and the folder inside the environment
    earlier versions used; and a line to say about it, or None."""
    if not holds_data(old_folder):
        return user_folder, None
    if holds_data(user_folder):
        return user_folder, (
            f"{old_folder} also holds a database or a configuration, an earlier version's, inside the app's "
            f"environment (which `pipx uninstall` and `pipx reinstall` delete): this version uses {user_folder} "
            f"and leaves that one as it is.")
    return old_folder, (
        f"The app's data is in {old_folder}, inside its environment, which `pipx uninstall` and `pipx reinstall` "
        f"delete with it. Stop the app, then move everything in that folder into {user_folder}, where this version "
        f"keeps its data (or set {VARIABLE} to a folder of your own).")


@functools.cache
def say_once(line):
    """Write ``line`` to the terminal's error stream, once a process (the workers a server forks say none)."""
    click.echo(line, err=True)


# --- Making and writing it ------------------------------------------------------------------------


class InstanceUnwritable(click.ClickException):
    """The instance folder cannot be made or written: said in one line with the exit status of a usage error."""

    exit_code = 2


def unwritable(folder, error):
    """``InstanceUnwritable`` for ``folder``, naming what stands in the way (``error``) and what to do."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        return InstanceUnwritable(
            f"{folder} is a file, where the app keeps its instance folder (its database and secret key): move the "
            f"file away, or set {VARIABLE} to a folder you can write.")
    return InstanceUnwritable(
        f"The app cannot write its instance folder {folder} ({error.strerror or error}), where it keeps its "
        f"database and secret key: make it a folder you can write, or set {VARIABLE} to one.")


@contextlib.contextmanager
def writing(folder):
    """Whatever is written inside is written into ``folder``, made first if missing; what stands in the way
    is ``InstanceUnwritable``."""
    try:
        os.makedirs(folder, exist_ok=True)
        yield
    except OSError as error:
        raise unwritable(folder, error) from None


def load_or_create_secret_key(folder):
    """Read the instance's secret key, generating it (mode 0600) on first start.

    Several server processes may start at once: the key is written whole to a
    file of this process's own, then linked into place only if no other
    process got there first, so every process reads one and the same key.
    """
    path = os.path.join(folder, SECRET_KEY_FILE)
    with writing(folder):
        if not os.path.exists(path):
            partial = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w", encoding="ascii") as key_file:
                key_file.write(secrets.token_hex(32))
            try:
                os.link(partial, path)  # fails if another process's key is in place: then that one is the key
            except FileExistsError:
                pass
            finally:
                os.unlink(partial)
        with open(path, encoding="ascii") as key_file:
            return key_file.read().strip()


def prepare(app):
    """``app``'s secret key, read now from the instance folder or made there (unless the configuration sets
    one; asking for it is what reads or makes it: ``scorekeeper.InstanceConfig``), so that ``serve`` says what
    stands in the way before it prints anything, rather than at a phone's first page."""
    return app.config["SECRET_KEY"]


def create_private_file(path):
    """Create the file ``path`` with mode 0600 (readable by its owner only) unless it exists."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # an existing database keeps the mode it has

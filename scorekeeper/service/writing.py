"""One transaction, one claim: every write claims its game's revision, writes, and commits, all or nothing.

What must follow a committed write in this process (the web's kept pages
moving on) registers with ``after_commit``: the service imports nothing of
the web, and reads nothing back after its commit.
"""

import functools
from collections.abc import Callable
from contextlib import contextmanager

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from .. import rules
from ..db.models import Game, Player, counts_in_season, db
from . import figures as kept_figures
from .errors import Conflict

_AFTER_COMMIT: list[Callable[[int], object]] = []  # what runs after each committed write to a game, with its id


def after_commit(callback):
    """Have ``callback(game_id)`` called after every committed write to a game, in this process."""
    if callback not in _AFTER_COMMIT:
        _AFTER_COMMIT.append(callback)


@contextmanager
def writing(game=None, based_on=None, creating=False, board=None, same_figures=False, figures=None, claiming=None):
    """Claim ``game`` at revision ``based_on``, let the caller write, and commit, all or nothing.

    ``board`` is the game's scoreboard after the write, as the caller checked it: the game's figures
    (service/figures.py) are written for the new revision, in the same transaction, from it and from the
    players' ``figures`` if the caller tallied them. A write that changes nothing derived
    (``same_figures``) moves the figures on; any other leaves them stale, for the hands to derive.
    ``game`` is a ``Game`` or a ``ShownGame``: anything with its ``id``, its roster's ``names`` and
    ``voided_at`` and ``waiting`` (the players' people are read inside the transaction);
    ``claiming`` other columns of the game's row that the claim sets with its revision (a new hand's key).

    Without a ``game`` (a new one, an import, a restore, a change to the
    club's people) there is nothing to claim. ``creating`` new games, the
    rows written stay readable after the commit without reading them back.

    The claim comes first: it moves the revision only if nobody moved it
    since the caller's form was shown, and on PostgreSQL it also locks the
    game's row, so that two writers of one game queue instead of
    deadlocking. Every refusal of the database inside becomes ``Conflict``.
    """
    game_id = None if game is None else game.id  # read now: after the commit every attribute is expired
    try:
        if game_id is not None:
            claim(game_id, based_on, **(claiming or {}))
        yield
        db.session.flush()
        if game_id is not None and board is not None:
            kept_figures.keep(game_id, based_on + 1, board, list(game.names), counts_in_season(game), figures)
        elif game_id is not None and same_figures:
            kept_figures.move_on(game_id, based_on + 1)
        _commit(keep_what_was_written=creating)
    except Conflict:
        db.session.rollback()
        raise
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict() from None
    except OperationalError as error:
        db.session.rollback()
        if _contention(error):
            raise Conflict() from None
        raise
    except BaseException:
        db.session.rollback()
        raise
    if game_id is not None:
        for callback in _AFTER_COMMIT:
            callback(game_id)


@contextmanager
def writing_games(games):
    """Claim each of ``games`` (``Game`` rows, at the revision read), let the caller write to them what changes
    nothing derived of them (the season's marks, their days), and commit, all or nothing: the secretary's
    change to several games at once. Claimed in the order of their ids, so that two such changes queue."""
    claimed = sorted((game.id, game.revision) for game in games)
    with writing():
        for game_id, revision in claimed:
            claim(game_id, revision)
        yield
        db.session.flush()
        for game_id, revision in claimed:
            kept_figures.move_on(game_id, revision + 1)
    for game_id, _revision in claimed:
        for callback in _AFTER_COMMIT:
            callback(game_id)


def _commit(keep_what_was_written):
    """Commit; rows just created (a new game) keep what was written, so that the caller reads them without a
    SELECT after the commit. Rows that were loaded are expired as usual: the database is the truth."""
    session = db.session()
    session.expire_on_commit = not keep_what_was_written
    try:
        session.commit()
    finally:
        session.expire_on_commit = True


def claim(game_id, based_on, **columns):
    """Move the game's revision on from ``based_on`` (setting ``columns`` of its row too), or raise
    ``Conflict``: another device moved it first."""
    if db.session.execute(_claim_statement(tuple(sorted(columns))), {"game_id": game_id, "based_on": based_on,
                                                                       **columns},
                          execution_options={"synchronize_session": False}).rowcount != 1:
        raise Conflict()


@functools.cache
def _claim_statement(columns):
    """The UPDATE of ``claim`` that also sets ``columns``, made once a process."""
    return (update(Game).where(Game.id == bindparam("game_id"), Game.revision == bindparam("based_on"))
            .values(revision=Game.revision + 1, **{column: bindparam(column) for column in columns}))


@contextmanager
def refusals_of(game, refusals=(rules.RuleError,)):
    """Let the engine check a change to ``game`` as the caller read it: a refusal (one of ``refusals``) of a
    game that a write has moved since is ``Conflict``, as the claim would have been.

    Another device's write made meanwhile, or committed between the statements that read the game (each
    reads the newest commit on PostgreSQL, and on SQLite outside a transaction: a join's seat change
    without its joiner, a table nobody sat at), can make the engine refuse what it never saw: only a
    refusal of the game as it stands is the table's to read. The revision is read once, on a refusal.
    """
    try:
        yield
    except refusals:
        if revision_now(game.id) != game.revision:
            raise Conflict() from None
        raise


def revision_now(game_id):
    """The game's revision as the database holds it now (None: no such game)."""
    return db.session.execute(select(Game.revision).where(Game.id == game_id)).scalar()


def read_whole(load, game_id, reads=20):
    """``load(game_id)``, a game read in several statements, read again while a write to it committed between
    them, so that what the engine is shown is one moment of the game (see ``refusals_of``).

    Every write moves the revision (``claim``), and ``load`` reads it in its first statement: the same
    revision read after its last means no write came in between. ``Conflict`` if writes kept landing
    ``reads`` times (a table writes a few times a minute).
    """
    for _read in range(reads):
        game = load(game_id)
        if revision_now(game_id) == game.revision:
            return game
        db.session.expunge_all()  # read afresh, not from the session's rows of the half-read game
    raise Conflict()


def hold_games(players):
    """Hold every game with a player meeting ``players`` (a condition on ``Player``) as a write's claim holds
    its game (locked on PostgreSQL; SQLite has one writer), without moving its revision: a change to who
    the players are (a merge, its undo) and a write to one of those games queue, so the write reads the
    people the change left (``figures.keep``), and no scorer's form is refused for it."""
    games = select(Player.game_id).where(players).scalar_subquery()
    db.session.execute(update(Game).where(Game.id.in_(games)).values(revision=Game.revision),
                       execution_options={"synchronize_session": False})


def update_one(statement):
    """Run an UPDATE that must change exactly one row (the row still as the caller found it), or raise
    ``Conflict``: another device changed it first."""
    if db.session.execute(statement, execution_options={"synchronize_session": False}).rowcount != 1:
        raise Conflict()


# SQLSTATEs of PostgreSQL's serialization failure and deadlock; SQLite says "locked" or "busy".
_RETRYABLE_STATES = {"40001", "40P01"}


def _contention(error):
    """Whether the database refused a write only because another writer held the game."""
    state = getattr(error.orig, "sqlstate", None)
    message = str(error.orig).lower()
    return state in _RETRYABLE_STATES or "database is locked" in message or "database is busy" in message


def inserted(model, rows):
    """Insert ``rows`` of ``model`` in one statement; their new ids, in the order given."""
    return db.session.execute(insert(model).returning(model.id, sort_by_parameter_order=True), rows).scalars().all()

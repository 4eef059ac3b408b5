"""The club itself: the key of its secretary's link, the games left out of its season, games' dates.

The key is made by the migration that brought the club in (0006), at the
first start; ``new_secretary_key`` replaces it, and every pass made from the
old one stops working (scorekeeper/web/access.py).

A voided game counts nowhere in the season (its table, ``/stats.json``,
person pages, quick picks) and stays shown, marked; it can be counted again.
A secretary may also date a game on the day it was played. Each void,
count-again and date change is an entry of the club's trail (``GameChange``),
undoable while it is the newest of its game.
"""

import json
import secrets
from datetime import date

from sqlalchemy import select, update

from ..db.models import Club, Game, GameChange, db, utcnow
from . import figures, ratings
from .errors import PeopleRefused
from .writing import update_one, writing, writing_games

CLUB = 1  # the one row of ``Club``


def secretary_key():
    """The key of the secretary's link."""
    return db.session.execute(select(Club.secretary_key).where(Club.id == CLUB)).scalar_one()


def new_secretary_key():
    """Replace the secretary's key with a new one, and return it: every earlier link and pass stop working."""
    key = secrets.token_urlsafe(24)
    with writing():
        db.session.execute(update(Club).where(Club.id == CLUB).values(secretary_key=key))
    return key


def void_game(game, reason, device=None):
    """Leave ``game`` out of the season, for ``reason``; ``Conflict`` if it is left out already (another
    device was first) or the game changed meanwhile. Its pages move on (a new revision) to show the mark."""
    game_id = game.id
    with writing(game, game.revision, same_figures=True):  # the games list reads the mark from the game
        update_one(update(Game).where(Game.id == game_id, Game.voided_at.is_(None))
                   .values(voided_at=utcnow(), void_reason=reason))
        figures.recount(game_id, counted=False)
        db.session.add(GameChange(action="void", game_id=game_id, reason=reason, device=device))


def count_game_again(game, device=None):
    """Count a voided ``game`` in the season again; ``Conflict`` if it counts already. The entry keeps the
    reason it was left out for, so that undoing it leaves it out again for that reason."""
    game_id, reason, waiting = game.id, game.void_reason, game.waiting
    with writing(game, game.revision, same_figures=True):
        update_one(update(Game).where(Game.id == game_id, Game.voided_at.is_not(None))
                   .values(voided_at=None, void_reason=None))
        figures.recount(game_id, counted=not waiting)  # a waiting import discarded, counted again, waits again
        db.session.add(GameChange(action="count", game_id=game_id, reason=reason, device=device))


def change_game_date(game, day, device=None):
    """Date ``game`` on ``day``, the day it was played (the season's filters and order, the ratings);
    ``Conflict`` if another device changed it meanwhile."""
    game_id, before = game.id, game.played_on
    if day == before:
        return
    with writing(game, game.revision, same_figures=True):
        update_one(update(Game).where(Game.id == game_id, Game.played_on == before).values(played_on=day))
        ratings.rate_again_later()  # the games are rated in the order they were played
        facts = {"before": before.isoformat(), "after": day.isoformat()}
        db.session.add(GameChange(action="date", game_id=game_id, facts=json.dumps(facts), device=device))


def touched(entry):
    """What of its game a ``GameChange`` changed: ``(game id, "date")``, or ``(game id, "season")`` for a
    game left out, counted again, counted from waiting or made to wait (an import's entry: of its first game,
    see ``touches``)."""
    return entry.game_id, "date" if entry.action == "date" else "season"


def touches(entry):
    """Every ``touched`` pair of a ``GameChange``: an import's entry changed whether each of its games counts."""
    if entry.action in IMPORT_ACTIONS:
        return [(game_id, "season") for game_id in json.loads(entry.facts)["games"]]
    return [touched(entry)]


IMPORT_ACTIONS = ("void_import", "count_import")  # entries of several games: ``facts`` lists them


def game_change_refusal(entry, newest):
    """Why the club's trail entry ``entry`` (a ``GameChange``) cannot be undone now (None if it can): only
    the newest entry that changed the same thing of its game (of each of its games) can be, so that nothing
    later stands in its way. ``newest`` is the id of the newest entry of each ``touches`` pair."""
    return None if all(newest.get(pair) == entry.id for pair in touches(entry)) else "later_change"


def _newest_of(pairs):
    """The id of the newest entry of each ``(game id, what)`` pair of ``pairs``, as ``game_change_refusal``
    reads them."""
    games = {game_id for game_id, _what in pairs}
    newest = {}
    for entry in db.session.execute(select(GameChange).where(
            (GameChange.game_id.in_(games)) | GameChange.action.in_(IMPORT_ACTIONS))
            .order_by(GameChange.id.desc())).scalars():
        for pair in touches(entry):
            newest.setdefault(pair, entry.id)
    return newest


def undo_game_change(entry, game, device=None):
    """Undo an entry of the club's trail of games: a game left out counts again, one counted again is left
    out again for the reason it had, a date goes back; itself an entry, which can be undone in turn."""
    if game_change_refusal(entry, _newest_of(touches(entry))) is not None:
        raise PeopleRefused("later_change")
    if entry.action == "void":
        count_game_again(game, device)
    elif entry.action == "count":
        void_game(game, entry.reason, device)
    elif entry.action == "accept":
        make_game_wait(game, device)
    elif entry.action == "wait":
        accept_game(game, device)
    elif entry.action in IMPORT_ACTIONS:
        games = db.session.execute(select(Game).where(Game.id.in_(json.loads(entry.facts)["games"]))
                                   .order_by(Game.id)).scalars().all()
        if entry.action == "void_import":
            _count_games_at_once(games, entry.reason, device)
        else:
            _void_games_at_once(games, entry.reason, device)
    else:
        change_game_date(game, date.fromisoformat(json.loads(entry.facts)["before"]), device)



# --- Imports that wait, and changes to several games at once ---------------------------------------------


def accept_game(game, device=None):
    """Count a waiting ``game`` (an import from a device without the secretary's pass) in the season;
    ``Conflict`` if it counts already, is left out, or changed meanwhile."""
    _set_waiting(game, False, "accept", device)


def make_game_wait(game, device=None):
    """Make ``game`` wait again, counted nowhere until it is counted (the undo of ``accept_game``)."""
    _set_waiting(game, True, "wait", device)


def _set_waiting(game, waiting, action, device):
    game_id = game.id
    with writing(game, game.revision, same_figures=True):
        update_one(update(Game).where(Game.id == game_id, Game.waiting.is_(not waiting), Game.voided_at.is_(None))
                   .values(waiting=waiting))
        figures.recount(game_id, counted=not waiting)
        db.session.add(GameChange(action=action, game_id=game_id, device=device))


def change_games(games, action, reason=None, day=None, device=None):
    """Make one change to several ``games`` (``Game`` rows) in one transaction, each an entry of the club's
    trail undoable on its own: "void" (left out, for ``reason``), "count" (counted again), "accept" (a
    waiting import counted), or "date" (dated ``day``). Games the change would not change are passed over.
    How many it changed; ``Conflict`` if another device changed one of them meanwhile (nothing is saved)."""
    changing = [game for game in games if _changes(game, action, day)]
    if not changing:
        return 0
    with writing_games(changing):
        for game in changing:
            _change_one(game, action, reason, day, device)
    return len(changing)


def _changes(game, action, day):
    """Whether ``action`` would change ``game``."""
    if action == "void":
        return game.voided_at is None
    if action == "count":
        return game.voided_at is not None
    if action == "accept":
        return game.waiting and game.voided_at is None
    return game.played_on != day


def _change_one(game, action, reason, day, device):
    """One game's part of ``change_games``, inside its transaction (the game claimed)."""
    row = update(Game).where(Game.id == game.id)
    if action == "void":
        update_one(row.where(Game.voided_at.is_(None)).values(voided_at=utcnow(), void_reason=reason))
        figures.recount(game.id, counted=False)
        db.session.add(GameChange(action="void", game_id=game.id, reason=reason, device=device))
    elif action == "count":
        update_one(row.where(Game.voided_at.is_not(None)).values(voided_at=None, void_reason=None))
        figures.recount(game.id, counted=not game.waiting)
        db.session.add(GameChange(action="count", game_id=game.id, reason=game.void_reason, device=device))
    elif action == "accept":
        update_one(row.where(Game.waiting.is_(True), Game.voided_at.is_(None)).values(waiting=False))
        figures.recount(game.id, counted=True)
        db.session.add(GameChange(action="accept", game_id=game.id, device=device))
    else:
        update_one(row.where(Game.played_on == game.played_on).values(played_on=day))
        ratings.rate_again_later()
        facts = {"before": game.played_on.isoformat(), "after": day.isoformat()}
        db.session.add(GameChange(action="date", game_id=game.id, facts=json.dumps(facts), device=device))


def import_games_of(batch):
    """The games of import ``batch`` (``GameImport``'s id), oldest first."""
    return db.session.execute(select(Game).where(Game.import_id == batch).order_by(Game.id)).scalars().all()


def void_import(batch, reason, device=None):
    """Undo import ``batch`` at once: every game of it still counted or waiting is left out, for ``reason``,
    as one entry of the club's trail ("void_import"), which can be undone (they count again, or wait again,
    as before). How many games it left out; ``PeopleRefused("import_left_out")`` if none was left to leave
    out; ``Conflict`` if another device changed one meanwhile."""
    return _void_games_at_once([game for game in import_games_of(batch) if game.voided_at is None], reason, device)


def _void_games_at_once(games, reason, device):
    if not games:
        raise PeopleRefused("import_left_out")
    listed = [game.id for game in games]
    with writing_games(games):
        for game in games:
            update_one(update(Game).where(Game.id == game.id, Game.voided_at.is_(None))
                       .values(voided_at=utcnow(), void_reason=reason))
            figures.recount(game.id, counted=False)
        db.session.add(GameChange(action="void_import", game_id=listed[0], reason=reason, device=device,
                                  facts=json.dumps({"games": listed})))
    return len(listed)


def _count_games_at_once(games, reason, device):
    """Count again the games an import's undo left out (the undo of ``void_import``), as one entry."""
    listed = [game.id for game in games]
    with writing_games(games):
        for game in games:
            update_one(update(Game).where(Game.id == game.id, Game.voided_at.is_not(None))
                       .values(voided_at=None, void_reason=None))
            figures.recount(game.id, counted=not game.waiting)
        db.session.add(GameChange(action="count_import", game_id=listed[0], reason=reason, device=device,
                                  facts=json.dumps({"games": listed})))
    return len(listed)

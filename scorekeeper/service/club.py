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
from .writing import update_one, writing

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
    game_id, reason = game.id, game.void_reason
    with writing(game, game.revision, same_figures=True):
        update_one(update(Game).where(Game.id == game_id, Game.voided_at.is_not(None))
                   .values(voided_at=None, void_reason=None))
        figures.recount(game_id, counted=True)
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
    game left out or counted again."""
    return entry.game_id, "date" if entry.action == "date" else "season"


def game_change_refusal(entry, newest):
    """Why the club's trail entry ``entry`` (a ``GameChange``) cannot be undone now (None if it can): only
    the newest entry that changed the same thing of its game can be, so that nothing later stands in its
    way. ``newest`` is the id of the newest entry of each ``touched`` pair."""
    return None if newest.get(touched(entry)) == entry.id else "later_change"


def undo_game_change(entry, game, device=None):
    """Undo an entry of the club's trail of games: a game left out counts again, one counted again is left
    out again for the reason it had, a date goes back; itself an entry, which can be undone in turn."""
    same = (GameChange.action == "date") if entry.action == "date" else (GameChange.action != "date")
    newest = db.session.execute(select(GameChange.id).where(GameChange.game_id == entry.game_id, same)
                                .order_by(GameChange.id.desc()).limit(1)).scalar()
    if game_change_refusal(entry, {touched(entry): newest}) is not None:
        raise PeopleRefused("later_change")
    if entry.action == "void":
        count_game_again(game, device)
    elif entry.action == "count":
        void_game(game, entry.reason, device)
    else:
        change_game_date(game, date.fromisoformat(json.loads(entry.facts)["before"]), device)


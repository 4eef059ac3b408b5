"""The club itself: the key of its secretary's link, and the games left out of its season.

The key is made by the migration that brought the club in (0006), at the
first start; ``new_secretary_key`` replaces it, and every pass made from the
old one stops working (scorekeeper/web/access.py).

A voided game counts nowhere in the season (its table, ``/stats.json``,
person pages, quick picks) and stays shown, marked; it can be counted again.
Each void and each count-again is an entry of the club's trail (``VoidChange``).
"""

import secrets

from sqlalchemy import select, update

from ..db.models import Club, Game, VoidChange, db, utcnow
from .errors import Conflict
from .writing import writing

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
    _set_void(game, voided=True, reason=reason, device=device)


def count_game_again(game, device=None):
    """Count a voided ``game`` in the season again; ``Conflict`` if it counts already."""
    _set_void(game, voided=False, reason=None, device=device)


def _set_void(game, voided, reason, device):
    game_id = game.id
    with writing(game, game.revision, same_figures=True):  # the games list reads the mark from the game
        now = Game.voided_at.is_(None) if voided else Game.voided_at.is_not(None)
        moved = db.session.execute(
            update(Game).where(Game.id == game_id, now)
            .values(voided_at=utcnow() if voided else None, void_reason=reason),
            execution_options={"synchronize_session": False})
        if moved.rowcount != 1:
            raise Conflict()
        db.session.add(VoidChange(action="void" if voided else "count", game_id=game_id, reason=reason,
                                  device=device))

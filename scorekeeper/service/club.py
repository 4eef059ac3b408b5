"""The club itself: the key of its secretary's link.

The key is made by the migration that brought the club in (0006), at the
first start; ``new_secretary_key`` replaces it, and every pass made from the
old one stops working (scorekeeper/web/access.py).
"""

import secrets

from sqlalchemy import select, update

from ..db.models import Club, db
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

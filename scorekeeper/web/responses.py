"""What several blueprints answer alike: the statuses of a refused or conflicting form, the row a form
chose, and a game loaded with a permission (``load_game(id, scorer=True)``, as flaskr's
``get_post(id, check_author=True)``)."""

from flask import abort, after_this_request
from sqlalchemy.orm import joinedload, selectinload

from .. import service
from ..db.models import Game, Hand, TrickLog, db, read_shown_game
from .access import require_scorer

INVALID = 400  # status of a form shown again with its errors
CONFLICT = 409  # status of a form shown again because another device wrote first

GAME_LOADING = [
    joinedload(Game.players),
    selectinload(Game.hands).joinedload(Hand.takings),
    selectinload(Game.trick_logs).selectinload(TrickLog.tricks),
    selectinload(Game.changes),
    selectinload(Game.seat_changes),
]


def chosen(model, field):
    """The ``model`` row that a validated id ``field`` names; None if there is none, or if only spaces were
    sent (they pass InputRequired, and leave the field's data None)."""
    return None if field.data is None else db.session.get(model, field.data)


def load_game(game_id, scorer=False):
    """The game with all it holds, as one moment of it, or 404.

    It is read in six statements at most (the game with its players, the hands with their takings, the
    trick logs, their tricks, the changes and the seat changes) and read again if another device's write
    landed between them (``service.writing.read_whole``): the engine is never shown a game half before and
    half after a write (a join's seat change without its joiner is a table nobody sat at, and a 500).

    With ``scorer``, a device without the game's scorer key is refused (403).
    """
    game = service.writing.read_whole(lambda whole: db.get_or_404(Game, whole, options=GAME_LOADING), game_id)
    if scorer:
        require_scorer(game)
        after_this_request(not_stored)
    return game


def load_shown_game(game_id):
    """The game as its pages show it (``ShownGame``: plain values, no trick), or 404."""
    game = read_shown_game(game_id)
    if game is None:
        abort(404)
    return game


def not_stored(response):
    """Keep a scorer's page out of the browser's and any proxy's cache."""
    response.cache_control.no_store = True
    return response


def reloaded(game_id, *forms):
    """The game as it is now, after another device wrote first, with its revision put on ``forms``: the page
    shown again (409) keeps what was typed and is based on the game it shows."""
    game = load_game(game_id)
    for form in forms:
        form.revision.data = str(game.revision)
    return game

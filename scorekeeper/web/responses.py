"""What several blueprints answer alike: the statuses of a refused or conflicting form, the row a form
chose, and the two ways a view loads a game: ``load_game`` for a page that shows it, ``load_game_to_change``
for a view that records a change, with the scorer's permission (as flaskr's ``get_post(id, check_author=True)``)."""

from flask import abort, after_this_request, jsonify, request
from sqlalchemy.orm import joinedload, selectinload

from .. import service
from ..db.models import Game, Hand, TrickLog, db
from .access import require_scorer
from .rendered import game_revision, not_stored

INVALID = 400  # status of a form shown again with its errors
CONFLICT = 409  # status of a form shown again because another device wrote first

GAME_LOADING = [
    joinedload(Game.players),
    selectinload(Game.hands).joinedload(Hand.takings),
    selectinload(Game.trick_logs).selectinload(TrickLog.tricks),
    selectinload(Game.changes),
    selectinload(Game.seat_changes),
]


def state_response(revision, etag):
    """A live page's state: its ``revision`` as JSON, tagged ``etag``, answered with an empty 304 while the
    phone asking holds that tag already (static/live.js polls it)."""
    response = jsonify(revision=revision)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def chosen(model, field):
    """The ``model`` row that a validated id ``field`` names; None if there is none, or if only spaces were
    sent (they pass InputRequired, and leave the field's data None)."""
    return None if field.data is None else db.session.get(model, field.data)


def load_game(game_id, kept=False):
    """Game ``game_id`` for a page that shows it and changes nothing, which anyone may see; or 404.

    With ``kept``, the game as this process keeps it for its revision (``service.kept``: its rows as plain
    values, a ``ShownGame``, and its scoreboard), at the revision ``game_revision`` knows (at most
    ``FRESH_FOR`` old, and at once what this process wrote): for the pages every phone reads again and again
    (the table view, the watch page, the display, the hands), which cost a lookup in memory until the game
    changes.

    Otherwise the game with all it holds, as ORM objects and as one moment of it: for a page that shows what
    a kept game does not hold (its tricks, its whole trail, its export, its score sheet), and for a form shown
    again as the game is now after another device wrote first. It is read in six statements at most (the game
    with its players, the hands with their takings, the trick logs, their tricks, the changes and the seat
    changes) and read again if another device's write landed between them (``service.writing.read_whole``):
    the engine is never shown a game half before and half after a write (a join's seat change without its
    joiner is a table nobody sat at, and a 500).
    """
    if kept:
        return _kept(game_id, game_revision(game_id))
    return _whole(game_id)


def load_game_to_change(game_id, kept=False):
    """Game ``game_id`` for a view that records a change to it, and for its form's page; or 404. Only the
    game's scorer may change it: a device without the game's scorer key is refused (403), and the answer is
    kept out of the browser's and any proxy's cache.

    The game is read whole, as ``load_game`` reads it, for the service's changes to take. With ``kept``, it
    is the game as this process keeps it, for recording the next hand (``service.record_hand`` scores that
    hand only), at the revision read afresh from the database whichever process wrote last: a form never
    offers a hand another process has just recorded.
    """
    found = _kept(game_id, game_revision(game_id, fresh=True)) if kept else _whole(game_id)
    require_scorer(found.game if kept else found)
    after_this_request(not_stored)
    return found


def _whole(game_id):
    """The game with all it holds, as one moment of it, or 404."""
    return service.writing.read_whole(lambda whole: db.get_or_404(Game, whole, options=GAME_LOADING), game_id)


def _kept(game_id, row):
    """The game as this process keeps it for the revision and key of ``row`` (``game_revision``), or 404."""
    found = None if row is None else service.kept_game(game_id, row.revision, row.scorer_key)
    if found is None:
        abort(404)
    return found


def reloaded(game_id, *forms):
    """The game as it is now, after another device wrote first, with its revision put on ``forms``: the page
    shown again (409) keeps what was typed and is based on the game it shows."""
    game = load_game(game_id)
    for form in forms:
        form.revision.data = str(game.revision)
    return game

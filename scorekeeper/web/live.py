"""The whole table watching: a read-only view, a big-screen display, and the live state."""

from flask import Blueprint, abort, jsonify, request

from .game_pages import display_page, table_page
from .rendered import game_page, game_revision

bp = Blueprint("live", __name__)


@bp.get("/games/<int:game_id>/state")
def state(game_id):
    """The game's revision, answered with an empty 304 while nothing has changed."""
    known = game_revision(game_id)
    if known is None:
        abort(404)
    revision = known.revision
    response = jsonify(revision=revision)
    response.set_etag(f"r{revision}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/games/<int:game_id>/watch")
def watch(game_id):
    """The table view for everyone at the table: read-only, updating by itself."""
    return game_page(game_id, lambda _scorer: table_page(game_id, scorer=False), readonly=True)


@bp.get("/games/<int:game_id>/display")
def display(game_id):
    """The big-screen layout for a tablet in the middle of the table."""
    return game_page(game_id, lambda _scorer: (display_page(game_id), None), readonly=True)



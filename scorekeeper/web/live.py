"""The whole table watching: a read-only view, a big-screen display, and the live state."""

from flask import Blueprint, Response, abort

from .game_pages import display_page, table_page
from .rendered import game_page, game_revision
from .responses import state_response
from .serving import qr_svg, shared_url

bp = Blueprint("live", __name__)


@bp.get("/games/<int:game_id>/state")
def state(game_id):
    """The game's revision, answered with an empty 304 while nothing has changed."""
    known = game_revision(game_id)
    if known is None:
        abort(404)
    return state_response(known.revision, f"r{known.revision}")


@bp.get("/games/<int:game_id>/watch")
def watch(game_id):
    """The table view for everyone at the table: read-only, updating by itself."""
    return game_page(game_id, lambda _scorer: table_page(game_id, scorer=False), readonly=True)


@bp.get("/games/<int:game_id>/share.svg")
def share_code(game_id):
    """The QR code of the game's read-only page, for the address this device reached the server by: an image
    of its own, so that the scorer's page, fetched again after every hand, does not carry it each time."""
    if game_revision(game_id) is None:
        abort(404)
    response = Response(qr_svg(shared_url("live.watch", game_id=game_id)), mimetype="image/svg+xml")
    response.cache_control.max_age = SHARE_CODE_KEPT
    return response


SHARE_CODE_KEPT = 3600  # seconds: the server's address changes seldom, and a reload of the page asks again


@bp.get("/games/<int:game_id>/display")
def display(game_id):
    """The big-screen layout for a tablet in the middle of the table."""
    return game_page(game_id, lambda _scorer: (display_page(game_id), None), readonly=True)



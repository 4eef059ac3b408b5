"""A game's trail: every change to it, newest first, each with its Undo or why it has none (R17).

Views read the form, call ``service.undo``, word the error it may raise, and redirect.
"""

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for

from .. import rules, service
from ..words.explain import describe, trail_entry
from ..words.i18n import _
from .access import is_scorer
from .forms import ConfirmForm
from .game_pages import shown_entry, trail_page
from .responses import CONFLICT, load_game, load_game_to_change, not_stored

bp = Blueprint("trail", __name__)


@bp.get("/games/<int:game_id>/trail")
def whole_trail(game_id):
    """Every change to the game, newest first, each with its Undo or why it has none."""
    game = load_game(game_id)
    scorer = is_scorer(game)
    page = render_template("games/trail.html", game=game, **trail_page(game, game.scoreboard(), readonly=not scorer))
    return not_stored(Response(page, mimetype="text/html")) if scorer else page


@bp.route("/games/<int:game_id>/changes/<int:change_id>/undo", methods=["GET", "POST"])
def undo_change(game_id, change_id):
    """Undo one entry of the trail; the undo is itself an entry, which can be undone in turn (R17).

    An undo that takes a hand out of the game (undoing its recording) is a
    removal: the GET asks first, showing the hand's figures, as Remove does.
    """
    game = load_game_to_change(game_id)
    line = service.trail_line(game, change_id)
    if line is None:
        abort(404)
    form = ConfirmForm(request.form if request.method == "POST" else None)
    if request.method == "GET":
        return _undo_page(game, line, form)
    if not form.validate() or form.based_on() is None:
        abort(400)
    undone = _("Undone: %(change)s", change=trail_entry(line))  # worded now: after the commit its rows are expired
    try:
        service.undo(game, change_id, form.based_on())
    except service.Conflict as error:
        game = load_game(game_id)
        page = trail_page(game, game.scoreboard(), readonly=False)
        return render_template("games/trail.html", game=game, problem=describe(error), **page), CONFLICT
    except (rules.RuleError, service.UndoRefused, service.KittyNeeded, service.SamePerson) as error:
        flash(describe(error, game.names), "warning")
        return redirect(url_for("games.table", game_id=game_id, _anchor="changes"))
    flash(undone, "success")
    return redirect(url_for("games.table", game_id=game_id, _anchor="changes"))


def _undo_page(game, line, form):
    """Ask before an undo: what it takes back, and for a hand taken out its figures (R17)."""
    entry = shown_entry(game, line, {})
    removed = None
    if line.removes_a_hand and line.undoable:
        hand = next(hand for hand in game.hands if hand.key == line.hand_key)
        removed = game.scoreboard().hands[hand.number - 1]
    return render_template("games/undo.html", game=game, entry=entry, removed=removed, form=form)



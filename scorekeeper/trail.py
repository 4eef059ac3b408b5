"""A game's trail: every change to it, newest first, each with its Undo or why it has none (R17).

Views read the form, call ``table.undo``, word the error it may raise, and redirect.
"""

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for

from . import rules, table
from .access import is_scorer, load_game, not_stored
from .explain import describe, trail_entry, why_not_undoable
from .forms import ConfirmForm
from .hands import CONFLICT
from .i18n import _
from .models import Change
from .rendered import scoreboard

bp = Blueprint("trail", __name__)


@bp.get("/games/<int:game_id>/trail")
def whole_trail(game_id):
    """Every change to the game's hands, newest first, each with its Undo or why it has none."""
    game = load_game(game_id)
    scorer = is_scorer(game)
    page = render_template("games/trail.html", game=game, **trail_page(game, readonly=not scorer))
    return not_stored(Response(page, mimetype="text/html")) if scorer else page


@bp.post("/games/<int:game_id>/changes/<int:change_id>/undo")
def undo_change(game_id, change_id):
    """Undo one entry of the trail; the undo is itself kept in the trail (R17)."""
    game = load_game(game_id, scorer=True)
    form = ConfirmForm(request.form)
    if not form.validate() or form.based_on() is None:
        abort(400)
    try:
        change = table.undo(game, change_id, form.based_on())
    except LookupError:
        abort(404)
    except table.Conflict as error:
        game = load_game(game_id)
        page = trail_page(game, readonly=False)
        return render_template("games/trail.html", game=game, problem=describe(error), **page), CONFLICT
    except (rules.RuleError, table.UndoRefused, table.JacksFixed) as error:
        flash(describe(error, game.names), "warning")
        return redirect(url_for("games.table", game_id=game_id, _anchor="changes"))
    flash(_("Undone: %(change)s", change=trail_entry(change)), "success")
    return redirect(url_for("games.table", game_id=game_id, _anchor="changes"))


def trail_page(game, readonly, newest=None):
    """What a page needs to show the trail (the ``newest`` entries only, if given)."""
    lines = table.trail(game)
    shown = lines if newest is None else lines[:newest]
    by_id = {change.id: change for change in game.changes}
    entries = []
    for line in shown:
        about_the_game = table.about_the_game(line.change, by_id.get(line.change.undoes_id))
        entries.append({
            "line": line,
            "what": trail_entry(line.change, by_id.get(line.change.undoes_id)),
            "before": None if about_the_game else Change.record_of(line.change.before),
            "after": None if about_the_game else Change.record_of(line.change.after),
            "why_not": why_not_undoable(line),
        })
    corrections = [entry for entry in entries if entry["before"] and entry["after"]]
    if corrections:  # who is who in a correction: the players of that hand, in its seating
        hands = scoreboard(game).hands  # the page's own board, kept for this revision
        for entry in corrections:
            number = entry["line"].change.hand_number
            seating = hands[number - 1].seating if number <= len(hands) else range(len(entry["after"].taken))
            entry["seated"] = game.names_of(seating)
    return {
        "trail": entries,
        "trail_length": len(lines),
        "undo_form": None if readonly else ConfirmForm(),
    }

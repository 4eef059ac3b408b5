"""A game's trail: every change to it, newest first, each with its Undo or why it has none (R17).

Views read the form, call ``service.undo``, word the error it may raise, and redirect.
"""

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for

from .. import rules, service
from ..db.models import record_of_facts
from .access import is_scorer, load_game, not_stored
from .explain import describe, trail_entry, trail_now, why_not_undoable
from .forms import ConfirmForm
from .hands import CONFLICT
from .i18n import _
from .rendered import scoreboard

bp = Blueprint("trail", __name__)


@bp.get("/games/<int:game_id>/trail")
def whole_trail(game_id):
    """Every change to the game, newest first, each with its Undo or why it has none."""
    game = load_game(game_id)
    scorer = is_scorer(game)
    page = render_template("games/trail.html", game=game, **trail_page(game, readonly=not scorer))
    return not_stored(Response(page, mimetype="text/html")) if scorer else page


@bp.route("/games/<int:game_id>/changes/<int:change_id>/undo", methods=["GET", "POST"])
def undo_change(game_id, change_id):
    """Undo one entry of the trail; the undo is itself an entry, which can be undone in turn (R17).

    An undo that takes a hand out of the game (undoing its recording) is a
    removal: the GET asks first, showing the hand's figures, as Remove does.
    """
    game = load_game(game_id, scorer=True)
    line = service.trail_line(game, change_id)
    if line is None:
        abort(404)
    form = ConfirmForm(request.form if request.method == "POST" else None)
    if request.method == "GET":
        return _undo_page(game, line, form)
    if not form.validate() or form.based_on() is None:
        abort(400)
    try:
        service.undo(game, change_id, form.based_on())
    except service.Conflict as error:
        game = load_game(game_id)
        page = trail_page(game, readonly=False)
        return render_template("games/trail.html", game=game, problem=describe(error), **page), CONFLICT
    except (rules.RuleError, service.UndoRefused, service.JacksFixed, service.KittyNeeded, service.SamePerson) as error:
        flash(describe(error, game.names), "warning")
        return redirect(url_for("games.table", game_id=game_id, _anchor="changes"))
    flash(_("Undone: %(change)s", change=trail_entry(line)), "success")
    return redirect(url_for("games.table", game_id=game_id, _anchor="changes"))


def _undo_page(game, line, form):
    """Ask before an undo: what it takes back, and for a hand taken out its figures (R17)."""
    entry = _entry(game, line, {})
    removed = None
    if line.removes_a_hand and line.undoable:
        hand = next(hand for hand in game.hands if hand.key == line.hand_key)
        removed = game.scoreboard().hands[hand.number - 1]
    return render_template("games/undo.html", game=game, entry=entry, removed=removed, form=form)


def trail_page(game, readonly, newest=None):
    """What a page needs to show the trail (the ``newest`` entries only, if given)."""
    lines = service.trail(game)
    shown = lines if newest is None else lines[:newest]
    seatings = {}  # hand key -> who played it, for entries that did not keep it (read from the page's board)
    if any(line.subject is service.Subject.HAND and "seating" not in (line.after or line.before or {})
           for line in shown):
        seatings = {hand.key: summary.seating for hand, summary in zip(game.hands, scoreboard(game).hands)}
    return {
        "trail": [_entry(game, line, seatings) for line in shown],
        "trail_length": len(lines),
        "undo_form": None if readonly else ConfirmForm(),
    }


def _entry(game, line, seatings):
    """One trail line as the page shows it: what it did, the figures it replaced or took out, its Undo."""
    entry = {"line": line, "what": trail_entry(line), "now": trail_now(line), "why_not": why_not_undoable(line),
             "changed": None, "removed": None}
    if line.subject is service.Subject.HAND and line.before is not None:
        before = record_of_facts(line.before)
        seating = line.before.get("seating") or seatings.get(line.hand_key) or range(len(before.taken))
        names = game.names_of(seating)
        if line.after is None:  # a hand taken out: all its figures, so nothing has to be retyped
            entry["removed"] = {"seats": list(zip(names, before.taken)), "moon": before.moon}
        else:  # a hand's figures replaced: who changed, and how
            after = record_of_facts(line.after)
            entry["changed"] = {
                "seats": [(name, old, new) for name, old, new in zip(names, before.taken, after.taken) if old != new],
                "moon": (before.moon, after.moon) if before.moon != after.moon else None,
            }
    return entry

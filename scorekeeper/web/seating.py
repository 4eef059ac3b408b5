"""A changing table and a game's own rules: players who join or leave between hands (R1),
and the house rules a game keeps (R5, R14, R15).

Views read the form, call the one function of ``table`` for the change,
word the error it may raise, and redirect.
"""

from flask import Blueprint, flash, redirect, render_template, request, url_for

from .. import rules, service
from ..words.explain import describe
from ..words.house_rules import house_rule
from ..words.i18n import _
from .access import is_scorer
from .forms import GameRulesForm, HouseRulesForm, JoinForm, LeaveForm
from .responses import CONFLICT, INVALID, load_game, load_game_to_change

bp = Blueprint("seating", __name__)


@bp.route("/games/<int:game_id>/seating", methods=["GET", "POST"])
def seating(game_id):
    """Who sits where for the next hand; a player joins at a chosen place (R1)."""
    game = load_game_to_change(game_id)
    if request.method == "GET":
        return _seating_page(game, JoinForm(data={"revision": str(game.revision)}))
    form = JoinForm(request.form)
    valid = form.validate()
    seats = _engine_seats(game, form)
    if not seats and _moved(game):  # refused by a game another device has changed since: look again
        return _seating_conflict(game_id, JoinForm(request.form), service.Conflict())
    if not seats or not valid or form.based_on() is None:
        return _seating_page(game, form), INVALID
    try:
        join = service.seat_player(game, form.name.data, form.at.data, form.start_total(), form.based_on())
    except (rules.RuleError, service.NameTaken, service.SamePerson) as error:
        form.problem = describe(error, game.names)
        return _seating_page(game, form), INVALID
    except service.Conflict as error:
        return _seating_conflict(game_id, form, error)
    flash(_("%(name)s joins before hand %(number)d with %(points)d points.",
            name=form.name.data, number=join.before_hand, points=join.start), "success")
    return redirect(url_for("games.table", game_id=game_id))


def _engine_seats(game, form):
    """Ask the engine whether it can seat the joiner as far as the form could read them, whatever else
    is wrong (R1, R16), and put its refusal beside its field. Whether it refused nothing.

    What could not be read is stood in for by what the page offers by default (the last place, the
    highest total), so that the engine judges the rest; a refusal of a stand-in is not shown.
    """
    board = game.scoreboard()
    place, start = form.place_read(), form.start_read(board)
    join = rules.Join(len(board.hands) + 1, len(game.names),
                      len(board.seating) if place is None else place,
                      rules.starting_total(board, rules.StartRule.HIGHEST) if start is None else start)
    try:
        game.scoreboard(changes=game.seat_change_values() + [join])
    except rules.SeatingRefused as refusal:
        if refusal.reason == "place":
            field = form.at if place is not None else None
        elif refusal.reason == "start":
            typed = form.start_rule.data == rules.StartRule.TYPED.value
            field = None if start is None else form.start if typed else form.start_rule
        else:
            form.problem = describe(refusal, game.names)
            return False
        if field is None:  # a refusal of a stand-in: what could not be read is marked already
            return True
        field.errors = [*field.errors, describe(refusal, game.names)]
        return False
    return True


@bp.route("/games/<int:game_id>/seating/leave", methods=["GET", "POST"])
def leave(game_id):
    """A player leaves before the next hand, keeping their total (R1): the page asks, the post does it."""
    game = load_game_to_change(game_id)
    posted = request.method == "POST"
    form = LeaveForm(request.form if posted else request.args)
    player = form.player.data if form.player.validate(form) else None
    if player is None or player >= len(game.names):
        return _seating_refusal(game, _("Choose who leaves.")), INVALID
    if not posted:
        form.revision.data = str(game.revision)  # what the confirmation shows, and the post is based on
    refusal = _leave_refused(game, player)
    if refusal is not None:
        if posted and (form.based_on() not in (None, game.revision) or _moved(game)):
            return _leave_conflict(game_id, form, player, service.Conflict())  # another device saw to it
        return _seating_refusal(game, describe(refusal, game.names)), INVALID
    if not posted:
        return _leave_page(game, form, player)
    if not form.validate() or form.based_on() is None:
        return _leave_page(game, form, player), INVALID
    # Worded now, from the game as the confirmation showed it: after the commit its rows are expired.
    left = _("%(name)s leaves after hand %(number)d and keeps %(points)d points.", name=game.names[player],
             number=len(game.hands), points=game.scoreboard().totals[player])
    try:
        service.see_off(game, player, form.based_on())
    except rules.RuleError as error:
        return _seating_refusal(game, describe(error, game.names)), INVALID
    except service.Conflict as error:
        return _leave_conflict(game_id, form, player, error)
    flash(left, "success")
    return redirect(url_for("games.table", game_id=game_id))


def _moved(game):
    """Whether another device has written to the game since it was read: a refusal of it is then the race's,
    not the table's (409, the page as it is now)."""
    return service.writing.revision_now(game.id) != game.revision


def _reloaded(game_id, *forms):
    """``responses.reloaded``, the game read whole: another device wrote first, and may be writing still."""
    game = load_game(game_id)
    for form in forms:
        form.revision.data = str(game.revision)
    return game


def _leave_refused(game, player):
    """The engine's ``SeatingRefused`` of ``player`` leaving now, or None (R1): of a game read whole, the one
    refusal a leave can meet."""
    try:
        game.scoreboard(changes=game.seat_change_values() + [rules.Leave(len(game.hands) + 1, player)])
    except rules.SeatingRefused as refusal:
        return refusal
    return None


def _leave_page(game, form, player, conflict=None):
    """Ask before a player leaves, saying what it changes: the seating from the next hand as the engine
    deals it with them gone (R1, R4, R5)."""
    board = game.scoreboard()
    after = game.scoreboard(changes=game.seat_change_values() + [rules.Leave(len(game.hands) + 1, player)])
    return render_template("games/leave.html", game=game, board=board, after=after, player=player, form=form,
                           revision=form.revision.data or game.revision, conflict=conflict)


def _leave_conflict(game_id, form, player, error):
    """Another device wrote first (409): the confirmation as it is now, if the player can still leave,
    else the seating as it is now."""
    game = _reloaded(game_id, form)
    if _leave_refused(game, player) is not None:
        return _seating_conflict(game_id, JoinForm(), error)
    return _leave_page(game, form, player, describe(error)), CONFLICT


def _seating_refusal(game, message):
    """The seating page saying why nothing changed."""
    form = JoinForm(data={"revision": str(game.revision)})
    form.problem = message
    return _seating_page(game, form)


def _seating_page(game, form):
    board = game.scoreboard()
    starts = {} if board.over else {
        rule.value: rules.starting_total(board, rule) for rule in (rules.StartRule.HIGHEST, rules.StartRule.AVERAGE)}
    return render_template("games/seating.html", game=game, board=board, form=form, starts=starts,
                           revision=form.revision.data or game.revision)


def _seating_conflict(game_id, form, error):
    """The seating as it is now, with what was typed kept: another device wrote first (409)."""
    game = _reloaded(game_id, form)
    form.problem = describe(error)
    return _seating_page(game, form), CONFLICT


@bp.route("/games/<int:game_id>/rules", methods=["GET", "POST"])
def game_rules(game_id):
    """The rules as this game plays them: its house rules beside the printed rule each replaces."""
    game = load_game_to_change(game_id) if request.method == "POST" else load_game(game_id)
    variant = game.variant
    if request.method == "GET":
        form = None
        if is_scorer(game):
            form = GameRulesForm(data={"revision": str(game.revision), "rules": HouseRulesForm.data_of(variant)})
            form.rules.form.offer(variant)
        return render_template("pages/rules.html", game=game, variant=variant, form=form)
    form = GameRulesForm(request.form)
    form.rules.form.offer(variant)
    if not form.validate() or form.based_on() is None:
        return render_template("pages/rules.html", game=game, variant=variant, form=form), INVALID
    chosen = form.rules.form.variant()
    try:
        service.change_house_rules(game, chosen, form.based_on())
    except rules.RuleError as error:
        return render_template("pages/rules.html", game=game, variant=variant, form=form,
                               problem=describe(error, game.names)), INVALID
    except service.Conflict as error:
        game = _reloaded(game_id, form)
        return render_template("pages/rules.html", game=game, variant=game.variant, form=form,
                               problem=describe(error)), CONFLICT
    changed = chosen.changed()
    flash(_("House rules saved: %(rules)s.", rules="; ".join(house_rule(name, chosen) for name in changed))
          if changed else _("House rules saved: the printed rules, with no house rules."), "success")
    return redirect(url_for("games.table", game_id=game_id))

"""The club's page: the secretary's link, the name of a secretary's device, the games left out of the
season, and the club's trail (renames, merges, voids and their undoing), newest first, with when and from
which device."""

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from sqlalchemy import select
from sqlalchemy.orm import aliased

from .. import service
from ..db.models import Game, GameChange, Person, PersonChange, db
from .access import DEVICE_NAME, device_name, grant_secretary, is_secretary, matches, require_secretary
from .explain import club_entry, describe, game_changed_meanwhile, game_entry, people_changed_meanwhile
from .forms import BaseForm, DateForm, DeviceForm, UndoMergeForm, VoidForm
from .i18n import _
from .responses import CONFLICT, INVALID, chosen

bp = Blueprint("club", __name__)

SHOWN_ENTRIES = 200  # the newest entries of the club's trail on its page
VOIDABLE_GAMES = 40  # the newest games counted in the season, offered to be left out


@bp.get("/club/secretary/<key>")
def become_secretary(key):
    """The secretary's link (``flask club-link``): this device becomes a secretary of the club."""
    secretary_key = service.secretary_key()
    if not matches(key, secretary_key):
        abort(404)
    grant_secretary(secretary_key)
    flash(_("This device is now a secretary of the club: it can rename players and merge two names of one "
            "player. Give it a name below, so the club's trail shows who made each change."), "success")
    return redirect(url_for("club.club"))


@bp.get("/club")
def club():
    """The club's trail, and for a secretary the name of this device."""
    return _club_page()


@bp.post("/club/device")
def name_device():
    """Name this secretary's device; the name is kept in its session and on each change it makes."""
    require_secretary()
    form = DeviceForm(request.form)
    if not form.validate():
        return _club_page(form), INVALID
    session[DEVICE_NAME] = form.name.data
    flash(_("This device is called %(name)s on the club's trail.", name=form.name.data), "success")
    return redirect(url_for("club.club"))


@bp.post("/club/undo")
def undo():
    """Undo a rename or a merge of the club's trail (a secretary only); undoing a rename releases its spelling."""
    return _undo(PersonChange, lambda change: service.undo_change(change, device_name()), people_changed_meanwhile)


@bp.post("/club/games/undo")
def undo_game_change():
    """Undo a game left out, counted again or dated (a secretary only), while no later change to the same
    thing of the game stands in its way."""
    return _undo(GameChange, lambda entry: service.undo_game_change(
        entry, db.session.get(Game, entry.game_id), device_name()), game_changed_meanwhile)


def _undo(model, undo_entry, meanwhile):
    """Undo the entry of ``model`` the form chose, with ``undo_entry``; the club's page with the reason if
    it is refused (400), or if another device changed it first (409, ``meanwhile``'s words)."""
    require_secretary()
    form = UndoMergeForm(request.form)
    entry = chosen(model, form.change) if form.validate() else None
    if entry is None:
        return _club_page(problem=form.csrf_error or _("Choose the change to undo.")), INVALID
    try:
        undo_entry(entry)
    except service.PeopleRefused as error:
        return _club_page(problem=describe(error)), INVALID
    except service.Conflict:
        return _club_page(problem=meanwhile()), CONFLICT
    flash(_("The change is undone."), "success")
    return redirect(url_for("club.club"))


@bp.post("/club/void")
def void():
    """Leave a game out of the season, with a reason (a secretary only)."""
    form = VoidForm(request.form)
    return _change_chosen_game(
        form, "void_form", _("Choose the game to leave out."),
        lambda game: service.void_game(game, form.reason.data, device_name()),
        _("That game was left out, or changed, just now; nothing was saved. Check and try again."),
        lambda name: _("%(name)s is left out of the season: it counts in no figure until it is counted again.",
                       name=name))


@bp.post("/club/date")
def date_game():
    """Date a game on the day it was played (a secretary only): the season's filters count it there."""
    form = DateForm(request.form)
    return _change_chosen_game(
        form, "date_form", _("Choose the game to date."),
        lambda game: service.change_game_date(game, form.day.day, device_name()), game_changed_meanwhile(),
        lambda name: _("%(name)s is dated %(day)s.", name=name, day=form.day.day.isoformat()))


def _change_chosen_game(form, form_name, not_chosen, change, meanwhile, done):
    """Make ``change`` to the game that ``form`` (``form_name`` on the club's page) chose, a secretary only;
    the page with the form as typed if it is refused (400) or another device was first (409)."""
    require_secretary()
    game = chosen(Game, form.game) if form.validate() else None
    if game is None:
        if not form.errors:
            form.game.errors = [not_chosen]
        return _club_page(**{form_name: form}), INVALID
    name = game.name  # read now: after the commit the game is expired
    try:
        change(game)
    except service.Conflict:
        form.game.errors = [meanwhile]
        return _club_page(**{form_name: form}), CONFLICT
    flash(done(name), "success")
    return redirect(url_for("club.club"))


@bp.post("/club/games/<int:game_id>/count")
def count_again(game_id):
    """Count a game left out of the season again (a secretary only)."""
    require_secretary()
    game = db.get_or_404(Game, game_id)
    form = BaseForm(request.form)  # its CSRF token only
    if not form.validate():
        return _club_page(problem=form.csrf_error), INVALID
    name = game.name
    try:
        service.count_game_again(game, device_name())
    except service.Conflict:
        return _club_page(problem=_("That game counts in the season already.")), CONFLICT
    flash(_("%(name)s counts in the season again.", name=name), "success")
    return redirect(url_for("club.club"))


def _club_page(form=None, problem=None, void_form=None, date_form=None):
    """The club's page; a form refused is shown again as typed, a refused undo with its reason."""
    form = form or DeviceForm(data={"name": device_name() or ""})
    person, other = aliased(Person), aliased(Person)
    entries = db.session.execute(
        select(PersonChange, person.name, other.name)
        .join(person, person.id == PersonChange.person_id)
        .outerjoin(other, other.id == PersonChange.other_id)
        .order_by(PersonChange.id.desc()).limit(SHOWN_ENTRIES)
    ).all()
    trail = [entry for entry, _name, _other in entries]
    lines = [(entry, club_entry(entry, name, other_name),
              url_for("club.undo") if service.person_change_refusal(entry, trail) is None else None)
             for entry, name, other_name in entries]
    game_entries = db.session.execute(
        select(GameChange, Game.name).join(Game, Game.id == GameChange.game_id)
        .order_by(GameChange.id.desc()).limit(SHOWN_ENTRIES)).all()
    newest = {}
    for entry, _name in game_entries:  # newest first: the first seen of what an entry changed is the newest
        newest.setdefault(service.touched(entry), entry.id)
    lines += [(entry, game_entry(entry, name),
               url_for("club.undo_game_change") if service.game_change_refusal(entry, newest) is None else None)
              for entry, name in game_entries]
    lines.sort(key=lambda line: line[0].at, reverse=True)
    voided = db.session.execute(
        select(Game.id, Game.name, Game.voided_at, Game.void_reason).where(Game.voided_at.is_not(None))
        .order_by(Game.voided_at.desc())).all()
    recent = db.session.execute(
        select(Game.id, Game.name, Game.played_on, Game.voided_at)
        .order_by(Game.id.desc()).limit(VOIDABLE_GAMES)).all()
    counted = [game for game in recent if game.voided_at is None]
    return render_template("club/index.html", lines=lines[:SHOWN_ENTRIES], secretary=is_secretary(), form=form,
                           undo_form=UndoMergeForm(), void_form=void_form or VoidForm(), voided=voided,
                           date_form=date_form or DateForm(), recent=recent,
                           counted=counted, problem=problem, device=device_name())

"""The club's page: the secretary's link, the name of a secretary's device, the imports (waiting ones to
count or discard, any to undo at once), every game found by name, day, player or import and changed
several at once, the games left out of the season, and the club's trail (renames, merges, voids and their
undoing), newest first, with when and from which device. And each game's own season controls."""

import json
from datetime import date

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from sqlalchemy import and_, exists, func, or_, select, true
from sqlalchemy.orm import aliased

from .. import service
from ..db.models import LARGEST_ID, Game, GameChange, GameImport, Night, NightChange, Person, PersonChange, Player, db
from ..words.explain import club_entry, describe, game_changed_meanwhile, game_entry, people_changed_meanwhile
from ..words.i18n import _, ngettext
from ..words.nights import entry_words
from .access import DEVICE_NAME, device_name, grant_secretary, is_secretary, matches, require_secretary
from .forms import BaseForm, DateForm, DeviceForm, GameSeasonForm, UndoMergeForm, VoidForm, whole_number
from .game_pages import secretary_table
from .responses import CONFLICT, INVALID, chosen

bp = Blueprint("club", __name__)

SHOWN_ENTRIES = 200  # the newest entries of the club's trail on its page
FOUND_A_PAGE = 20  # games found on the club's page, a page at a time, the most recently played first
LAST_PAGE = LARGEST_ID // FOUND_A_PAGE  # a page asked for beyond the games found shows the last one
SHOWN_IMPORTS = 10  # the newest imports on the club's page (and every import still waiting)
LONGEST_SEARCH = 80  # characters of a search: a game's name at most


@bp.get("/club/secretary/<key>")
def become_secretary(key):
    """The secretary's link (``flask club-link``): this device becomes a secretary of the club."""
    secretary_key = service.secretary_key()
    if not matches(key, secretary_key):
        abort(404)
    grant_secretary(secretary_key)
    flash(_("This device is now a secretary of the club: it can rename, merge and unmerge people, leave games "
            "out of the season and count them again, date games, and undo any of these. Give it a name below, so "
            "the club's trail shows who made each change."), "success")
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


def _club_page(form=None, problem=None, void_form=None, date_form=None, games_form=None, games_problem=None,
               import_form=None):
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
        for pair in service.touches(entry):
            newest.setdefault(pair, entry.id)
    lines += [(entry, games_entry(entry, name),
               url_for("club.undo_game_change") if service.game_change_refusal(entry, newest) is None else None)
              for entry, name in game_entries]
    lines += _night_lines()
    lines.sort(key=lambda line: line[0].at, reverse=True)
    voided = db.session.execute(
        select(Game.id, Game.name, Game.voided_at, Game.void_reason).where(Game.voided_at.is_not(None))
        .order_by(Game.voided_at.desc())).all()
    search = Search.of(request.values)
    found, page, pages = search.page()
    games_form = games_form or GameSeasonForm()
    if void_form is not None:  # a single game's change refused: shown in the form that changes games now
        games_form.reason.data, games_form.reason.errors = void_form.reason.data, void_form.reason.errors
        problem = problem or _first_error(void_form.game)
    if date_form is not None:
        games_form.day.data, games_form.day.errors = date_form.day.data, date_form.day.errors
        problem = problem or _first_error(date_form.game)
    return render_template("club/index.html", lines=lines[:SHOWN_ENTRIES], secretary=is_secretary(), form=form,
                           undo_form=UndoMergeForm(), voided=voided, games_form=games_form, search=search,
                           found=found, page=page, pages=pages, players=_players_of([game.id for game in found]),
                           imports=_imports(), import_form=import_form, games_problem=games_problem,
                           problem=problem, device=device_name())


def _night_lines():
    """The newest changes to the club's nights as lines of the club's trail: each links to its night, whose
    page undoes the newest of them (R18)."""
    nights = db.session.execute(select(NightChange.night_id, Night.name).join(Night, Night.id == NightChange.night_id)
                                .group_by(NightChange.night_id, Night.name)
                                .order_by(func.max(NightChange.id).desc()).limit(SHOWN_ENTRIES)).all()
    trails = service.nights.night_trails([night_id for night_id, _name in nights])
    entries = [(entry, name) for night_id, name in nights for entry in trails.get(night_id, [])[:SHOWN_ENTRIES]]
    mentioned = {person for entry, _name in entries if entry.kind == "players" for person in entry.made}
    names = dict(db.session.execute(select(Person.id, Person.name).where(Person.id.in_(mentioned))).all())
    return [(entry.change, _("%(night)s: %(change)s", night=name, change=entry_words(entry, names)), None)
            for entry, name in entries]


def games_entry(entry, game_name):
    """One sentence for an entry of the club's trail of games: those of waiting imports and of imports undone
    at once here, the others as ``game_entry`` words them."""
    if entry.action == "accept":
        return _("%(game)s counted in the season (it was waiting).", game=game_name)
    if entry.action == "wait":
        return _("%(game)s waits again for the club's secretary to count it.", game=game_name)
    if entry.action in service.club.IMPORT_ACTIONS:
        count = len(json.loads(entry.facts)["games"])
        if entry.action == "void_import":
            return ngettext("Import undone: %(num)d game, %(game)s the first, left out of the season: %(reason)s",
                            "Import undone: %(num)d games, %(game)s the first, left out of the season: %(reason)s",
                            count, game=game_name, reason=entry.reason)
        return ngettext("Import counted again: %(num)d game, %(game)s the first.",
                        "Import counted again: %(num)d games, %(game)s the first.", count, game=game_name)
    return game_entry(entry, game_name)


def _first_error(field):
    return field.errors[0] if field.errors else None


class Search:
    """What the club's page looks for: a game's name or a player's (``text``), a ``day``, an ``batch``
    (import), and the ``page`` asked for; read from the address, or from a form's hidden fields."""

    def __init__(self, text, day, batch, page):
        self.text, self.day, self.batch, self.page_asked = text, day, batch, page

    @classmethod
    def of(cls, values):
        """The search ``values`` (the request's) ask for; a page that is not a page number is no page (404)."""
        text = (values.get("q") or "").strip()[:LONGEST_SEARCH]
        try:
            day = date.fromisoformat(values.get("day") or "") if values.get("day") else None
        except ValueError:
            day = None
        batch = whole_number(values.get("import")) if values.get("import") else None
        asked = values.get("page")
        page = whole_number(asked) if asked else 1
        if page is None or page < 1:
            abort(404)
        return cls(text, day, batch, min(page, LAST_PAGE))

    @property
    def given(self):
        return bool(self.text or self.day or self.batch)

    def fields(self):
        """The search as the address's arguments (what is given of it)."""
        return {name: value for name, value in (("q", self.text), ("day", self.day and self.day.isoformat()),
                                                ("import", self.batch)) if value}

    def condition(self):
        conditions = []
        if self.text:
            pattern = "%" + self.text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            conditions.append(or_(Game.name.ilike(pattern, escape="\\"), exists().where(
                Player.game_id == Game.id, Player.name.ilike(pattern, escape="\\"))))
        if self.day:
            conditions.append(Game.played_on == self.day)
        if self.batch:
            conditions.append(Game.import_id == self.batch)
        return and_(true(), *conditions)

    def every(self):
        """Every game found (for a change to all of them), oldest first."""
        return db.session.execute(select(Game).where(self.condition()).order_by(Game.id)).scalars().all()

    def page(self):
        """The games found on the page asked for (the last if it asked beyond), the page, and how many."""
        count = db.session.execute(select(func.count()).select_from(Game).where(self.condition())).scalar()
        pages = max(1, -(-count // FOUND_A_PAGE))
        page = min(self.page_asked, pages)
        found = db.session.execute(
            select(Game.id, Game.name, Game.played_on, Game.voided_at, Game.waiting, Game.import_id)
            .where(self.condition()).order_by(Game.played_on.desc(), Game.id.desc())
            .offset((page - 1) * FOUND_A_PAGE).limit(FOUND_A_PAGE)).all()
        return found, page, pages


def _players_of(game_ids):
    """Each game's players' names, in seat order: two games of one name told apart."""
    players = {}
    for game_id, name in db.session.execute(select(Player.game_id, Player.name).where(Player.game_id.in_(game_ids))
                                            .order_by(Player.game_id, Player.seat)):
        players.setdefault(game_id, []).append(name)
    return players


def _imports():
    """The newest imports, and every one with games still waiting: each with its games, how many wait and how
    many are left out."""
    waiting = and_(Game.waiting.is_(True), Game.voided_at.is_(None))
    still_waiting = select(Game.import_id).where(waiting)
    newest = select(GameImport.id).order_by(GameImport.id.desc()).limit(SHOWN_IMPORTS)
    return db.session.execute(
        select(GameImport.id, GameImport.made_at, func.count(Game.id).label("games"),
               func.count(Game.id).filter(waiting).label("waiting"),
               func.count(Game.id).filter(Game.voided_at.is_not(None)).label("left_out"))
        .join(Game, Game.import_id == GameImport.id)
        .where(or_(GameImport.id.in_(still_waiting), GameImport.id.in_(newest.scalar_subquery())))
        .group_by(GameImport.id, GameImport.made_at).order_by(GameImport.id.desc())).all()


# --- Several games at once, imports, and each game's own season controls ----------------------------------

GAME_CHANGES = ("void", "count", "accept", "date")


@bp.post("/club/games")
def change_games():
    """Make one change to the games ticked, or to every game found (a secretary only): leave them out, count
    them again, count waiting imports, or date them; each game's change an entry of the trail of its own."""
    require_secretary()
    action = request.form.get("action")
    form = GameSeasonForm(request.form)
    if action not in GAME_CHANGES:
        return _club_page(games_form=form, games_problem=_("Choose what to do with the games.")), INVALID
    if not form.check(action):
        return _club_page(games_form=form, games_problem=form.csrf_error), INVALID
    if request.form.get("which") == "found" and Search.of(request.form).given:
        games = Search.of(request.form).every()
    else:
        ids = {whole_number(value) for value in request.form.getlist("games")} - {None}
        games = db.session.execute(select(Game).where(Game.id.in_(ids)).order_by(Game.id)).scalars().all()
    if not games:
        return _club_page(games_form=form, games_problem=_("Tick the games to change, or choose every game "
                                                           "found.")), INVALID
    try:
        changed = service.change_games(games, action, form.reason.data, getattr(form.day, "day", None),
                                       device_name())
    except service.Conflict:
        return _club_page(games_form=form, games_problem=game_changed_meanwhile()), CONFLICT
    flash(ngettext("%(num)d game changed.", "%(num)d games changed.", changed) if changed
          else _("Nothing to change: the games were so already."), "success")
    return redirect(url_for("club.club", **Search.of(request.form).fields()))


@bp.post("/club/imports/<int:batch>")
def change_import(batch):
    """Count the waiting games of one import, or undo it at once: its games left out, as one entry of the
    club's trail that can be undone (a secretary only)."""
    require_secretary()
    db.get_or_404(GameImport, batch)
    action = request.form.get("action")
    form = GameSeasonForm(request.form)
    if action not in ("accept", "undo"):
        abort(400)
    if not form.check("void" if action == "undo" else action):
        return _club_page(import_form=(batch, form)), INVALID
    games = service.import_games_of(batch)
    try:
        if action == "accept":
            changed = service.change_games(games, "accept", device=device_name())
        else:
            changed = service.void_import(batch, form.reason.data, device_name())
    except service.PeopleRefused:
        form.reason.errors = [_("Every game of this import is left out already.")]
        return _club_page(import_form=(batch, form)), INVALID
    except service.Conflict:
        form.reason.errors = [game_changed_meanwhile()]
        return _club_page(import_form=(batch, form)), CONFLICT
    if action == "accept":
        flash(ngettext("%(num)d game counts in the season now.", "%(num)d games count in the season now.",
                       changed), "success")
    else:
        flash(ngettext("The import is undone: %(num)d game is left out of the season.",
                       "The import is undone: %(num)d games are left out of the season.", changed), "success")
    return redirect(url_for("club.club"))


@bp.post("/games/<int:game_id>/season")
def change_game_season(game_id):
    """The season controls of one game's page (a secretary only): leave it out or count it again, count a
    waiting import or discard it, date it."""
    require_secretary()
    game = db.get_or_404(Game, game_id)
    action = request.form.get("action")
    form = GameSeasonForm(request.form)
    changes = {"void": lambda: service.void_game(game, form.reason.data, device_name()),
               "discard": lambda: service.void_game(game, form.reason.data, device_name()),
               "count": lambda: service.count_game_again(game, device_name()),
               "accept": lambda: service.accept_game(game, device_name()),
               "date": lambda: service.change_game_date(game, form.day.day, device_name())}
    if action not in changes:
        return secretary_table(game_id, form, _("Choose what to do with the game.")), INVALID
    if not form.check(action):
        return secretary_table(game_id, form), INVALID
    name = game.name
    try:
        changes[action]()
    except service.Conflict:
        return secretary_table(game_id, form, game_changed_meanwhile()), CONFLICT
    flash({"void": _("%(name)s is left out of the season: it counts in no figure until it is counted again.",
                     name=name),
           "discard": _("%(name)s is discarded: left out of the season, it can be counted again.", name=name),
           "count": _("%(name)s counts in the season again.", name=name),
           "accept": _("%(name)s counts in the season now.", name=name),
           "date": _("%(name)s is dated %(day)s.", name=name, day=getattr(form.day, "day", None))}[action],
          "success")
    return redirect(url_for("games.table", game_id=game_id))

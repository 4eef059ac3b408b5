"""The games: the list, a new game, the table view, the scorer link, export and import.

Changes to a game go through ``table``; the hands and the trail are in ``hands``.
"""

import math

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from sqlalchemy import tuple_
from werkzeug.datastructures import CombinedMultiDict, MultiDict

from .. import rules, service
from ..db.models import Game, db
from ..documents import season_csv
from ..documents.game import DocumentError, dumps, export_game
from ..documents.uploads import Upload, read_uploads
from ..service import names as name_rules
from ..words.explain import describe
from ..words.i18n import _, ngettext
from .access import KEPT_GAMES, grant, is_scorer, is_secretary, matches, require_secretary
from .forms import BaseForm, ImportForm, NewGameForm, whole_number
from .game_pages import history, secretary_table, table_page
from .rendered import game_page
from .responses import CONFLICT, INVALID, load_game
from .season import quick_picks

bp = Blueprint("games", __name__)

GAMES_A_PAGE = 20
# A device keeps the scorer's pass of its newest games (web/access.py): an import of more would leave it
# unable to correct the first of them. A weekly club's half year, and far more than one evening's games.
MOST_UPLOADED_GAMES = KEPT_GAMES


@bp.get("/")
def index():
    """The games, the most recently played first, a page at a time: the same cost with ten games or ten
    thousand, and with games of two hands or two hundred (each game's figures are kept for its revision,
    service/figures.py). ``?before=ID`` starts the page after that game, in the same order."""
    before = whole_number(request.args.get("before"))
    query = (db.select(Game.id, Game.name, Game.played_on, Game.voided_at, Game.waiting)
             .order_by(Game.played_on.desc(), Game.id.desc()).limit(GAMES_A_PAGE + 1))
    if before is not None:
        after = db.select(Game.played_on).where(Game.id == before).scalar_subquery()
        query = query.where(tuple_(Game.played_on, Game.id) < tuple_(after, before))
    games = db.session.execute(query).all()
    older = games[GAMES_A_PAGE - 1].id if len(games) > GAMES_A_PAGE else None
    games = games[:GAMES_A_PAGE]
    summaries = service.refreshing.list_facts_of([game.id for game in games])
    return render_template("games/index.html", games=[(game, summaries[game.id]) for game in games], older=older,
                           newest=before is not None)


# --- A new game ------------------------------------------------------------


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    """Set up a game: players in clockwise order, first dealer, target (R1, R4, R16)."""
    if request.method == "GET":
        return _new_game_page(NewGameForm())
    form = NewGameForm(request.form)
    if any(button in request.form for button in RESEATING_BUTTONS):
        return _new_game_page(_reseated(form, request.form))
    valid = form.validate()
    if not _engine_agrees(form) or not valid:
        return _new_game_page(form), INVALID
    try:
        game = service.new_game(form.name.data or "", form.target.data, form.first_dealer.data, form.names,
                                form.rules.form.variant())
    except rules.TableSize as error:
        form.table_size = describe(error)
        return _new_game_page(form), INVALID
    except rules.BadTarget as error:
        form.target.errors = [describe(error)]
        return _new_game_page(form), INVALID
    except service.SamePerson as error:  # named as the service keeps names (``name_rules.cleaned``)
        seat = next((seat for seat, name in enumerate(form.names) if name_rules.cleaned(name) == error.name), None)
        if seat is None:
            form.players.errors = [describe(error)]
        else:
            form.players.entries[seat].errors = [describe(error)]
        return _new_game_page(form), INVALID
    except service.Conflict:
        form.players.errors = [_("Another game with one of these players was started at the same moment, "
                                 "so nothing was saved. Press Start the game again.")]
        return _new_game_page(form), CONFLICT
    grant(game)
    if game.target < rules.SUGGESTED_MINIMUM_TARGET:
        flash(_("A target of %(target)d makes a short game: 150 is usual and 100 a good minimum (R16).",
                target=game.target), "warning")
    return redirect(url_for("games.table", game_id=game.id))


def _engine_agrees(form):
    """Ask the engine about whatever the form could read, whatever else is wrong, and put each refusal
    beside its field: the number of seats (R1) and the target (R16). Whether it refused nothing."""
    agrees = True
    try:
        rules.check_players(len(form.names))
    except rules.TableSize as error:
        form.table_size = describe(error)
        agrees = False
    if isinstance(form.target.data, int) and not form.target.errors:
        try:
            rules.check_target(form.target.data)
        except rules.BadTarget as error:
            form.target.errors = [describe(error)]
            agrees = False
    return agrees


def _new_game_page(form):
    """New game, with the people the club knows as quick picks."""
    people, tables = quick_picks()
    return render_template("games/new.html", form=form, people=people, tables=tables)


# Buttons that change the seats and show the form again: nothing is started.
RESEATING_BUTTONS = ("add", "remove", "pick", "table")


def _reseated(form, formdata):
    """The new-game form with a seat added or removed, a known person seated, or a whole table
    seated as it sat in a recent game, keeping everything else typed."""
    names = [entry.data or "" for entry in form.players.entries]
    dealer = form.first_dealer.data if isinstance(form.first_dealer.data, int) else 0
    if "pick" in formdata:
        names = _seated(names, formdata["pick"].strip())
    elif "table" in formdata:
        names = [name.strip() for name in formdata["table"].splitlines() if name.strip()][:rules.MAX_PLAYERS]
        names += [""] * (rules.MIN_PLAYERS - len(names))
    elif "add" in formdata and len(names) < rules.MAX_PLAYERS:
        names.append("")
    elif "remove" in formdata and len(names) > rules.MIN_PLAYERS:
        try:
            seat = int(formdata["remove"])
        except ValueError:
            seat = len(names) - 1
        if 0 <= seat < len(names):
            names.pop(seat)
            dealer = 0 if dealer == seat else dealer - (dealer > seat)
    reseated = MultiDict(
        (key, value) for key, value in formdata.items(multi=True)
        if not key.startswith("players-") and key not in ("add", "remove", "first_dealer")
    )
    for seat, name in enumerate(names):
        reseated.add(f"players-{seat}", name)
    reseated.add("first_dealer", str(min(dealer, len(names) - 1)))
    return NewGameForm(reseated)


def _seated(names, name):
    """``names`` with ``name`` in the first empty seat (a seat added if none is), unless already seated."""
    if not name or name_rules.seated_already(name, names) is not None:
        return names
    empty = next((seat for seat, seated in enumerate(names) if not seated.strip()), None)
    if empty is not None:
        return [*names[:empty], name, *names[empty + 1:]]
    return [*names, name] if len(names) < rules.MAX_PLAYERS else names


# --- The table view ----------------------------------------------------------


@bp.get("/games/<int:game_id>")
def table(game_id):
    """The table view: this hand's dealer, leader and passing, the scoreboard, the history.

    The scorer's device sees the controls; everyone else sees the read-only view.
    """
    if is_secretary():  # with the game's season controls: rendered for this device, never kept
        return secretary_table(game_id)
    return game_page(game_id, lambda scorer: table_page(game_id, scorer))


@bp.post("/games/<int:game_id>/scorer-pass")
def take_scorer_pass(game_id):
    """A secretary's device takes the scorer's pass of any game, to correct it (a secretary only)."""
    require_secretary()
    game = db.get_or_404(Game, game_id)
    form = BaseForm(request.form)  # its CSRF token only
    if not form.validate():
        return secretary_table(game_id, problem=form.csrf_error), INVALID
    grant(game)
    flash(_("This device can now record and correct hands of %(name)s.", name=game.name), "success")
    return redirect(url_for("games.table", game_id=game.id))


@bp.get("/games/<int:game_id>/hands")
def all_hands(game_id):
    """Every recorded hand of the game, hand by hand."""
    kept = load_game(game_id, kept=True)
    return render_template("games/hands.html", game=kept.game, board=kept.board, readonly=not is_scorer(kept.game),
                           **history(kept.board))


@bp.get("/games/<int:game_id>/scorer/<key>")
def become_scorer(game_id, key):
    """The secret scorer link: this device becomes a scorer of the game too."""
    game = db.get_or_404(Game, game_id)
    if not matches(key, game.scorer_key):
        abort(404)
    grant(game)
    flash(_("This device can now record and correct hands of %(name)s.", name=game.name), "success")
    return redirect(url_for("games.table", game_id=game.id))


# --- Export and import --------------------------------------------------------


@bp.get("/games/<int:game_id>/export.json")
def export(game_id):
    """Download the game as a JSON document."""
    game = load_game(game_id)
    return Response(
        dumps(export_game(game)),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="cancellation-hearts-game-{game.id}.json"'},
    )


@bp.route("/games/import", methods=["GET", "POST"])
def import_game():
    """Create games from exported JSON documents and seasons kept on paper (CSV): all of them, or none if a file
    has a problem."""
    if request.method == "GET":
        return _import_page(ImportForm())
    form = ImportForm(CombinedMultiDict((request.files, request.form)))
    form.problem = None
    if form.validate():
        waiting = not is_secretary()  # a guest's import waits for the secretary; the secretary's counts at once
        try:
            games = service.import_games(read_uploads(_uploads(form.document.data), MOST_UPLOADED_GAMES),
                                         waiting=waiting)
        except DocumentError as error:
            form.problem = str(error)
        except (service.Conflict, service.SamePerson) as error:
            form.problem = describe(error)
        else:
            for game in games:
                grant(game)
            if waiting:
                flash(ngettext("It waits for the club's secretary to count it in the season: until then it counts "
                               "in no figure of the season.",
                               "They wait for the club's secretary to count them in the season: until then they "
                               "count in no figure of the season.", len(games)), "warning")
            if len(games) == 1:
                flash(_("Game imported: %(name)s.", name=games[0].name), "success")
                return redirect(url_for("games.table", game_id=games[0].id))
            flash(ngettext("%(num)d game imported.", "%(num)d games imported.", len(games)), "success")
            return redirect(url_for("games.index"))
    return _import_page(form), INVALID


def _import_page(form):
    """The import page, with the bounds of an upload and the numbers the season's notation uses."""
    return render_template("games/import.html", form=form, most_games=MOST_UPLOADED_GAMES,
                           megabytes=math.ceil((current_app.config.get("MAX_CONTENT_LENGTH") or 0) / 2**20),
                           default_target=rules.DEFAULT_TARGET, moon_cell=season_csv.MOON_CELL)


def _uploads(chosen):
    """The files of the import form as ``Upload`` values; a part sent as text rather than a file holds nothing."""
    return [Upload(getattr(part, "filename", None) or "", part.read() if hasattr(part, "read") else b"")
            for part in chosen if part]


@bp.get("/games/import/season.csv")
def season_template():
    """Download the template of a season kept on paper: two short games, a moon and a reserved last trick."""
    return Response(season_csv.template_text(), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="season-template.csv"'})

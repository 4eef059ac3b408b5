"""A club night's pages (R18): the nights and a new one, the night's page (every table of the round live, the
standing, where each person sits, the director's controls), its check-in, its big screen, the table cards to
print, its results, and its JSON and CSV. Anyone may watch; only the club's secretary (the director) changes
a night, and every change goes through ``service.nights``."""

import random
import unicodedata
from dataclasses import dataclass

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy import func, select

from .. import rules, service
from ..db.models import Game, Night, NightPlayer, Person, Player, db
from ..service import names as name_rules
from ..service.nights import night_rounds, night_state, night_trail, standing
from ..words.explain import describe
from ..words.i18n import _, ngettext
from ..words.nights import (
    entry_words,
    night_changed_meanwhile,
    night_refused,
    round_length_words,
    share_text,
    split_words,
    where_words,
)
from .access import device_name, is_secretary, require_secretary
from .forms import CheckInForm, DrawForm, NewNightForm, NightUndoForm, PersonForm, RoundForm, whole_number
from .forms.nights import LARGEST_SEED
from .rendered import kept_guest_page
from .responses import CONFLICT, INVALID, state_response
from .serving import qr_svg, shared_url
from .spreadsheets import asked_separator, spreadsheet_response, unknown_separator

bp = Blueprint("nights", __name__)

SHOWN_NIGHTS = 50  # the newest nights on the list
SHOWN_PEOPLE = 80  # the club's people on the check-in page at once, the most recent players first
LONGEST_SEARCH = 40  # characters of a check-in search: a name at most


# --- The nights, and a new one -----------------------------------------------------------------------------


@bp.get("/nights")
def index(form=None):
    """The club's nights, newest first; a secretary opens a new one here."""
    nights = db.session.execute(
        select(Night, func.count(NightPlayer.person_id)).outerjoin(NightPlayer, NightPlayer.night_id == Night.id)
        .group_by(Night.id).order_by(Night.played_on.desc(), Night.id.desc()).limit(SHOWN_NIGHTS)).all()
    return render_template("nights/index.html", nights=nights, secretary=is_secretary(),
                           form=form or NewNightForm(), round_length_words=round_length_words)


@bp.post("/nights")
def open_night():
    """Open a night (a secretary only): its page, ready for the check-in."""
    require_secretary()
    form = NewNightForm(request.form)
    if not form.validate():
        return index(form), INVALID
    night_id = service.nights.open_night(form.name.data, form.target.data, form.round_deals, form.day.day)
    flash(_("The night is open. Check the players in, then draw the first round."), "success")
    return redirect(url_for("nights.check_in_page", night_id=night_id))


# --- The night's page ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """Where someone sits in a round: the table, the seat (1 up, clockwise) and who sits on their right (the
    one they sit to the left of, R5)."""

    table: int
    seat: int
    right: str


def seat_of(current, person, names):
    """Where ``person`` sits in the round ``current`` (None if they are not drawn in it)."""
    if current is None:
        return None
    for table in current.tables:
        if person in table.people:
            seat = table.people.index(person)
            return Seat(table.number, seat + 1, names[table.people[seat - 1]])
    return None


def night_page_values(night_id, state=None):
    """What the night's pages show: the night, its rounds as they stand, the standing (provisional while
    a round is playing), who is here, and the names of everyone in it by person id; its ``state`` if the
    caller read it (``night_state``)."""
    night = db.session.get(Night, night_id)
    if night is None:
        abort(404)
    rounds = night_rounds(night_id)
    current = rounds[-1] if rounds else None
    provisional = current is not None and not current.over
    here = db.session.execute(
        select(NightPlayer.person_id, Person.name, NightPlayer.from_round, NightPlayer.left_after)
        .join(Person, Person.id == NightPlayer.person_id).where(NightPlayer.night_id == night_id)).all()
    names = {person: name for person, name, _start, _left in here}
    seated = {person for past in rounds for table in past.tables for person in table.people} - names.keys()
    if seated:  # someone seen off before they were drawn again keeps a name in the rounds they played
        names.update(db.session.execute(select(Person.id, Person.name).where(Person.id.in_(seated))).all())
    coming = service.nights.next_draw(night_id)
    return {
        "night": night, "rounds": rounds, "current": current, "provisional": provisional,
        "standing": standing(night_id, rounds, provisional=provisional), "names": names,
        "here": sorted(here, key=lambda row: name_rules.key(row[1])), "coming": coming,
        "state": state or night_state(night_id), "share_text": share_text,
        "round_length": round_length_words(night.deals), "where_words": where_words,
    }


@bp.get("/nights/<int:night_id>")
def night(night_id, problem=None, draw_form=None, status=200):
    """The night's page, live: every table of the round, the standing, where each person sits; with the
    director's controls for a secretary. ``?person=`` answers where that person sits this round. A guest's
    page is kept for the night's state (``kept_night_page``)."""
    secretary = is_secretary()
    if not secretary and problem is None:
        return kept_night_page(night_id, lambda values: render_template(
            "nights/night.html", secretary=False, problem=None, where=_where(values), **values))
    values = night_page_values(night_id)
    values["where"] = _where(values)
    if secretary:
        values.update(_director(night_id, values, draw_form))
    return render_template("nights/night.html", secretary=secretary, problem=problem, **values), status


def kept_night_page(night_id, render):
    """A guest's page of the night, kept for its state (``service.nights.night_state``: the night's revision,
    its tables' games' revisions, the newest change to the club's people), which moves with everything the
    page shows; ``render(values)`` renders it from ``night_page_values`` when it is not kept."""
    state = night_state(night_id)
    if state is None:
        abort(404)
    return kept_guest_page(("night", night_id, state), lambda: render(night_page_values(night_id, state)))


def _where(values):
    """The answer to ``?person=``: who, and where they sit this round (None: no such person of the night)."""
    person = whole_number(request.args.get("person"))
    if person is None or person not in values["names"]:
        return None
    return {"person": person, "name": values["names"][person],
            "seat": seat_of(values["current"], person, values["names"])}


def _director(night_id, values, draw_form):
    """The director's part of the night's page: the draw (the splits offered of those coming, a seed), the
    night's trail, and the forms' tokens."""
    coming = len(values["coming"])
    splits = rules.table_splits(coming) if coming >= rules.MIN_PLAYERS else ()
    form = draw_form or DrawForm(data={"split": "+".join(map(str, splits[0])) if splits else "",
                                       "seed": random.SystemRandom().randrange(LARGEST_SEED + 1)})
    trail = night_trail(night_id)
    return {"draw_form": form, "splits": splits, "split_words": split_words, "trail": trail,
            "entry_words": lambda entry: entry_words(entry, values["names"]), "token_form": NightUndoForm()}


@bp.get("/nights/<int:night_id>/state")
def state(night_id):
    """The night's state (``night_state``), an empty 304 while nothing has changed."""
    known = night_state(night_id)
    if known is None:
        abort(404)
    return state_response(known, f"n{known}")


@bp.get("/nights/<int:night_id>/display")
def display(night_id):
    """The night on a big screen (a tablet or a TV): the round's tables and the standing, live."""
    return kept_night_page(night_id, lambda values: render_template("nights/display.html", **values))


@bp.get("/nights/<int:night_id>/results")
def results(night_id):
    """The night's results: the standing, and every round's tables with their totals; printable."""
    return kept_night_page(night_id, lambda values: render_template("nights/results.html", **values))


@bp.get("/nights/<int:night_id>/cards")
def cards(night_id):
    """The current round's table cards, one an A4 page: the table, its seats in order, the first dealer and
    the scorer's QR code (a secretary only: the code is the table's scorer's pass)."""
    require_secretary()
    values = night_page_values(night_id)
    if values["current"] is None:
        abort(404)
    keys = dict(db.session.execute(select(Game.id, Game.scorer_key).where(
        Game.id.in_([table.game_id for table in values["current"].tables]))).all())
    links = {table.game_id: shared_url("games.become_scorer", game_id=table.game_id, key=keys[table.game_id])
             for table in values["current"].tables}
    codes = {game: qr_svg(link).decode() for game, link in links.items()}  # each an SVG document, made here
    return render_template("nights/cards.html", links=links, codes=codes, **values)


# --- Check-in -----------------------------------------------------------------------------------------------


@bp.get("/nights/<int:night_id>/check-in")
def check_in_page(night_id, form=None, status=200):
    """Check people in (a secretary only): the club's people, the most recent players first, found by
    ``?q=``; and new ones typed."""
    require_secretary()
    values = night_page_values(night_id)
    search = (request.args.get("q") or "")[:LONGEST_SEARCH].strip()
    found = _club_people(search)
    return render_template("nights/check_in.html", form=form or CheckInForm(), search=search, found=found,
                           **values), status


def _club_people(search):
    """The club's people (not merged away), the most recent players first, then by name; those whose name
    holds ``search`` (any case, any accents) if one is given."""
    latest = func.max(Player.game_id)
    rows = db.session.execute(
        select(Person.id, Person.name, latest).outerjoin(Player, Player.person_id == Person.id)
        .where(Person.merged_into_id.is_(None)).group_by(Person.id, Person.name)).all()
    if search:
        wanted = _folded(search)
        rows = [row for row in rows if wanted in _folded(row[1])]
    rows.sort(key=lambda row: (-(row[2] or 0), name_rules.key(row[1])))
    return rows[:SHOWN_PEOPLE], len(rows)


def _folded(text):
    """``text`` as a search compares it: any case, any accents ("Zoë" is found by "zoe")."""
    return "".join(char for char in unicodedata.normalize("NFKD", name_rules.key(text))
                   if not unicodedata.combining(char))


@bp.post("/nights/<int:night_id>/check-in")
def check_in(night_id):
    """Check the people picked and typed in for the next round (a secretary only)."""
    require_secretary()
    form = CheckInForm(request.form)
    if not form.validate():
        return check_in_page(night_id, form, INVALID)
    try:
        people = _checked_in(night_id, form)
    except service.Conflict:
        form.new.errors = [night_changed_meanwhile()]
        return check_in_page(night_id, form, CONFLICT)
    except (service.NightRefused, service.SamePerson, service.PeopleRefused) as error:
        form.new.errors = [night_refused(error) if isinstance(error, service.NightRefused)
                           else describe(error)]
        return check_in_page(night_id, form, INVALID)
    flash(ngettext("%(num)d person checked in.", "%(num)d people checked in.", len(people)), "success")
    return redirect(url_for("nights.check_in_page", night_id=night_id))


def _checked_in(night_id, form):
    """Check in the people ``form`` picked and typed, in one transaction."""
    return service.nights.check_in(night_id, form.new.names, form.based_on(), device_name(), people=form.people.ids)


# --- The director's changes ---------------------------------------------------------------------------------


def _change(night_id, form, change, done):
    """Make the director's ``change`` from ``form`` (a secretary only): the night's page with what was done,
    or with the reason it was refused (400) or that another device was first (409)."""
    require_secretary()
    if not form.validate():
        problem = form.csrf_error or next(iter(error for errors in form.errors.values() for error in errors), None)
        return night(night_id, problem=problem, draw_form=form if isinstance(form, DrawForm) else None,
                     status=INVALID)
    try:
        change(form.based_on())
    except service.Conflict:
        return night(night_id, problem=night_changed_meanwhile(),
                     draw_form=form if isinstance(form, DrawForm) else None, status=CONFLICT)
    except service.NightRefused as error:
        return night(night_id, problem=night_refused(error),
                     draw_form=form if isinstance(form, DrawForm) else None, status=INVALID)
    flash(done, "success")
    return redirect(url_for("nights.night", night_id=night_id))


@bp.post("/nights/<int:night_id>/draw")
def draw(night_id):
    """Draw the next round (R18 a, b) from the split and seed chosen."""
    form = DrawForm(request.form)
    return _change(night_id, form, lambda based_on: service.nights.draw_next_round(
        night_id, form.split.sizes, form.seed.data, based_on, device_name()),
        _("The round is drawn. Print the table cards, or have each table's scorer open their table."))


@bp.post("/nights/<int:night_id>/leave")
def leave(night_id):
    """Someone leaves the night after the rounds drawn (R18 f): drawn no more, ranked on what they finished."""
    form = PersonForm(request.form)
    return _change(night_id, form, lambda based_on: service.nights.see_off(
        night_id, form.person.data, based_on, device_name()), _("They are out of the next draws."))


@bp.post("/nights/<int:night_id>/close")
def close(night_id):
    """Close a round before every table finished (R18 f): each table counts as it stood."""
    form = RoundForm(request.form)
    return _change(night_id, form, lambda based_on: service.nights.close_round(
        night_id, form.round.data, based_on, device_name()),
        _("The round is closed: each table counts as it stood after its last hand (R18 f)."))


@bp.post("/nights/<int:night_id>/undo")
def undo(night_id):
    """Undo the night's newest change; the undo is itself a change, which can be undone."""
    form = NightUndoForm(request.form)
    return _change(night_id, form, lambda based_on: service.nights.undo_newest(
        night_id, form.change.data, based_on, device_name()),
        _("The change is undone. Undo it in turn to make it again."))


# --- Results for scripts and spreadsheets ---------------------------------------------------------------------


def night_document(values):
    """The night as ``/nights/<id>.json`` gives it (README, "Club nights")."""
    night, names = values["night"], values["names"]
    return {
        "id": night.id, "name": night.name, "day": night.played_on.isoformat(), "deals_per_round": night.deals,
        "target": night.target, "seed": values["current"].seed if values["current"] else None,
        "provisional": values["provisional"],
        "rounds": [{"number": past.number, "seed": past.seed, "repeated": past.repeated, "closed": past.closed,
                    "over": past.over, "tables": [_table_document(table, names) for table in past.tables]}
                   for past in values["rounds"]],
        "standing": [{"name": line.name, "place": line.place, "rounds": line.rounds, "won": line.won,
                      "share": round(float(line.share), 3),
                      "shares": [None if share is None else round(float(share), 3) for share in line.shares],
                      "points": line.points} for line in values["standing"]],
    }


def _table_document(table, names):
    roster = {seat: names[person] for seat, person in enumerate(table.people)}
    totals = dict(zip(table.round.seating, table.round.totals))
    return {"number": table.number, "game": table.game_id, "players": [roster[seat] for seat in sorted(roster)],
            "first_dealer": table.first_dealer, "hands": table.round.hands,
            "length": table.round.length, "finished": table.round.over,
            "totals": [totals.get(seat) for seat in sorted(roster)]}


@bp.get("/nights/<int:night_id>.json")
def night_json(night_id):
    """The night for scripts: its rounds' tables and the standing (R18 d, e)."""
    response = jsonify(night_document(night_page_values(night_id)))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/nights/<int:night_id>.csv")
def night_csv(night_id):
    """The night's standing for a spreadsheet: a line a player, each round's share beside the mean."""
    separator = asked_separator()
    if separator is None:
        return unknown_separator()
    values = night_page_values(night_id)
    numbers = [past.number for past in values["rounds"]]
    header = [_("Place"), _("Name"), _("Share"), *[_("Round %(number)d", number=n) for n in numbers],
              _("Rounds"), _("Won"), _("Points")]
    rows = [[line.place, line.name, round(float(line.share), 3),
             *[None if share is None else round(float(share), 3) for share in line.shares],
             line.rounds, line.won, line.points] for line in values["standing"]]
    return spreadsheet_response([header, *rows], separator, f"night-{night_id}.csv")

"""The club's memory on screen: the season's table, ``/stats.json``, each person's page.

The figures come from ``season`` (derived from the recorded hands, R17);
changes to people (rename, merge, undo) go through the service.
"""

from dataclasses import dataclass

from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select
from sqlalchemy.orm import aliased

from .. import service
from ..db.models import (
    Person,
    PersonChange,
    db,
)
from ..service import names as name_rules
from ..words.explain import describe, people_changed_meanwhile
from ..words.i18n import _, one_decimal
from .access import device_name, is_secretary, require_secretary
from .forms import MergeForm, RenameForm, SeasonForm, UndoMergeForm, whole_number
from .rendered import kept_row
from .responses import CONFLICT, INVALID, chosen
from .season import (
    COLUMNS,
    CSV_HEADINGS,
    FEWEST_MEETINGS,
    LAST_PAGE,
    Played,
    chosen_sort,
    csv_cell,
    figure_text,
    figure_texts,
    head_to_head,
    played,
    rating_text,
    season,
    settled,
    sorted_records,
)
from .spreadsheets import asked_separator, spreadsheet_response, unknown_separator

bp = Blueprint("people", __name__)

RECENT_GAMES_CHARTED = 12
FEWEST_BAR_SLOTS = 6  # a few games' bars stay bars, not slabs


# --- Pages ---------------------------------------------------------------------------


@bp.get("/players")
def season_table():
    """The season's table: every person's figures over the games chosen, sortable."""
    form = SeasonForm(request.args)
    valid = form.validate()
    every = season(**form.filters) if valid else []
    records = _shown(form, every)
    column, descending = chosen_sort(request.args.get("sort"))
    rows = [season_row(record) for record in sorted_records(records, column, descending)]
    return render_template("people/index.html", form=form, rows=rows, column=column, descending=descending,
                           columns=COLUMNS, hidden=len(every) - len(records), provisional=_provisional()), \
        200 if valid else INVALID


@bp.get("/players.csv")
def season_spreadsheet():
    """The season's table as a spreadsheet (CSV): the page's columns, filters and order, the same bytes in
    every language; ``sep`` picks the separator."""
    separator = asked_separator()
    if separator is None:
        return unknown_separator()
    form = SeasonForm(request.args)
    if not form.validate():
        return Response(" ".join(str(error) for errors in form.errors.values() for error in errors), INVALID,
                        mimetype="text/plain")
    column, descending = chosen_sort(request.args.get("sort"))
    records = sorted_records(_shown(form, season(**form.filters)), column, descending)
    return spreadsheet_response([list(CSV_HEADINGS.values()),
                                 *([csv_cell(record, key) for key in CSV_HEADINGS] for record in records)],
                                separator, "cancellation-hearts-season.csv")


@bp.get("/stats.json")
def stats():
    """The season's figures for a league secretary's scripts, with the table's filters; sorted by name."""
    form = SeasonForm(request.args)
    if not form.validate():
        return jsonify(error=" ".join(str(error) for errors in form.errors.values() for error in errors)), INVALID
    records = sorted(_shown(form, season(**form.filters)),
                     key=lambda record: (name_rules.key(record.name), record.person_id))
    return jsonify(players=[record.facts() for record in records])


def _provisional():
    """When a rating is provisional (``service.ratings.provisional``), as the pages say it, in the reader's
    digits."""
    return {"games": service.ratings.FEWEST_FINISHED, "sigma": one_decimal(service.ratings.PROVISIONAL_SIGMA)}


def _shown(form, records):
    """The season's ``records`` its filters show: provisional ratings hidden if asked (``?settled=y``)."""
    return settled(records) if form.settled.data else records


@bp.get("/players/<int:person_id>")
def person(person_id):
    """A person's page: their figures, best and worst game, recent totals, and every game with its result."""
    shown = _person_or_404(person_id)
    if shown.merged_into_id is not None:
        return redirect(url_for("people.person", person_id=_survivor(shown).id))
    return _person_page(shown)


@bp.post("/players/<int:person_id>/rename")
def rename(person_id):
    """Show a person under another name from now on (a secretary only)."""
    require_secretary()
    shown = _live_person_or_404(person_id)
    form = RenameForm(request.form)
    if not form.validate():
        return _person_page(shown, rename_form=form), INVALID
    before = shown.name
    refused = _refused(shown, form.name, lambda: service.rename_person(shown, form.name.data, device_name()),
                       rename_form=form)
    if refused:
        return refused
    flash(_("%(before)s is now shown as %(name)s.", before=before, name=form.name.data), "success")
    return redirect(url_for("people.person", person_id=person_id))


@bp.post("/players/<int:person_id>/merge")
def merge(person_id):
    """Merge another person into this one: two names that were always one player (a secretary only)."""
    require_secretary()
    shown = _live_person_or_404(person_id)
    form = MergeForm(request.form)
    other = chosen(Person, form.other) if form.validate() else None
    if other is None:
        if not form.errors:
            form.other.errors = [_("Choose who to merge.")]
        return _person_page(shown, merge_form=form), INVALID
    refused = _refused(shown, form.other, lambda: service.merge_people(shown, other, device_name()), merge_form=form)
    if refused:
        return refused
    flash(_("%(merged)s merged into %(name)s: their games now count for %(name)s. Undo it below if it was wrong.",
            merged=other.name, name=shown.name), "success")
    return redirect(url_for("people.person", person_id=person_id))


def _refused(shown, field, change, **forms):
    """Make ``change`` through ``table``; if it is refused, the person's page with the form as typed and the
    reason beside ``field`` (400), or after another device's change (409). None once it is made."""
    try:
        change()
    except service.PeopleRefused as error:
        field.errors = [describe(error)]
        return _person_page(shown, **forms), INVALID
    except service.Conflict:
        field.errors = [people_changed_meanwhile()]
        return _person_page(_live_person_or_404(shown.id), **forms), CONFLICT
    return None


@bp.post("/players/<int:person_id>/undo")
def undo_merge(person_id):
    """Undo a merge into this person: the person merged away is back with their games (a secretary only)."""
    require_secretary()
    shown = _live_person_or_404(person_id)
    form = UndoMergeForm(request.form)
    change = chosen(PersonChange, form.change) if form.validate() else None
    if change is None or change.person_id != shown.id or not service.makes_merge(change):
        return _person_page(shown, problem=form.csrf_error or _("Choose the merge to undo.")), INVALID
    try:
        service.undo_change(change, device_name())
    except service.PeopleRefused as error:
        return _person_page(shown, problem=describe(error)), INVALID
    except service.Conflict:
        return _person_page(_live_person_or_404(person_id), problem=people_changed_meanwhile()), CONFLICT
    flash(_("%(merged)s is a person of their own again, with their games.",
            merged=db.session.get(Person, change.other_id).name), "success")
    return redirect(url_for("people.person", person_id=person_id))


def _person_or_404(person_id):
    return db.get_or_404(Person, person_id)


def _live_person_or_404(person_id):
    """The person ``person_id``, refused (404) if merged into someone else: change the one they became."""
    shown = _person_or_404(person_id)
    if shown.merged_into_id is not None:
        abort(404)
    return shown


def _survivor(merged):
    """The person someone merged away became (merges of merges followed); 404 for a cycle, which only old
    data can hold (merges claim both people now), rather than a redirect loop."""
    seen = set()
    while merged.merged_into_id is not None:
        if merged.id in seen:
            abort(404)
        seen.add(merged.id)
        merged = db.session.get(Person, merged.merged_into_id)
    return merged


def _person_page(shown, rename_form=None, merge_form=None, problem=None):
    """The person's page; a form refused is shown again as it was typed, with what was wrong."""
    record = next(iter(season(person_id=shown.id)), None)
    page = _page_asked()
    games, older = played(shown.id, page) if record else ((), False)
    if page > 1 and not games:
        abort(404)  # past their last page, as a page number typed into the address is
    secretary = is_secretary()
    others = db.session.execute(
        select(Person.id, Person.name).where(Person.merged_into_id.is_(None), Person.id != shown.id)
    ).all() if secretary else ()
    merged_here = _merged_here(shown)
    return render_template(
        "people/person.html", person=shown, record=record, problem=problem, games=games, page=page, older=older,
        rename_form=rename_form or RenameForm(data={"name": shown.name}), merge_form=merge_form or MergeForm(),
        undo_form=UndoMergeForm(), secretary=secretary,
        others=sorted(others, key=lambda other: name_rules.key(other.name)),
        merged_here=merged_here, game_row=game_row,
        chart=recent_chart(games[:RECENT_GAMES_CHARTED][::-1] if page == 1 else ()),
        rating_chart=rating_chart([game for game in reversed(games) if game.rating is not None]),
        rivals=head_to_head(shown.id) if record else (), fewest_meetings=FEWEST_MEETINGS, provisional=_provisional(),
        figure_text=figure_text, rating_text=rating_text)


def _merged_here(shown):
    """The merges into ``shown`` that stand, each as ``(entry, merged name, undoable)``: the entry that made
    it last (the merge, or an undo that made it again), newest first. Whether it can be undone is read
    from every entry of the club's trail about ``shown`` and the people merged into them, in one statement."""
    people = select(Person.id).where((Person.id == shown.id) | (Person.merged_into_id == shown.id))
    other = aliased(Person)
    rows = db.session.execute(
        select(PersonChange, other.name).outerjoin(other, other.id == PersonChange.other_id)
        .where(PersonChange.person_id.in_(people) | PersonChange.other_id.in_(people))
        .order_by(PersonChange.id.desc())).all()
    entries = [entry for entry, _name in rows]
    undone = {entry.undoes_id for entry in entries if entry.action == "undo"}
    return [(entry, name, service.person_change_refusal(entry, entries) is None) for entry, name in rows
            if entry.id not in undone and entry.person_id == shown.id and entry.other_id is not None
            and service.makes_merge(entry, entries)]


def _page_asked():
    """The page of a person's games the address asks for: 1 without one; a page that is no whole number
    from 1 to the last the database can be asked for (``LAST_PAGE``) is no page of theirs (404)."""
    text = request.args.get("page")
    if text is None:
        return 1
    page = whole_number(text, most=LAST_PAGE)
    if not page:
        abort(404)
    return page


# --- The chart of recent games ------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT, CHART_TOP, CHART_BOTTOM = 360, 150, 18, 22


@dataclass(frozen=True)
class Bar:
    """One game's total as a bar of the person's chart."""

    x: float
    y: float
    width: float
    height: float
    label_y: float
    game: Played


MOST_SEASON_ROWS = 2048  # the season's rows kept rendered, about 500 bytes each: the club's people, a few times


def season_row(record):
    """A person's row of the season's table (a ``Record``), rendered once for each of their records over the
    games chosen and the language, and kept: after a hand, the rows of that game's players are rendered."""
    return kept_row("season rows", MOST_SEASON_ROWS, (record,), "people/season_row.html",
                    lambda: (record, figure_texts(record)))


MOST_GAME_ROWS = 5000  # a person's games kept rendered, about 600 bytes each: some 3 MB at most


def game_row(game, person_name):
    """One game of a person's page (a ``Played``), rendered once for each game as they played it, the name
    they are shown by and the language, and kept: a page of 50 games after a hand renders that one game."""
    return kept_row("person rows", MOST_GAME_ROWS, (game, person_name), "people/game_row.html",
                    lambda: (game, person_name))


RATING_HEIGHT, RATING_MARGIN = 120, 14


def rating_chart(games):
    """A line of the person's rating after each of ``games`` (their rated games, oldest first, left), with
    the line of 0 where everyone starts; None for fewer than two games."""
    if len(games) < 2:
        return None
    shown = [game.rating.shown for game in games]
    highest, lowest = max(0.0, *shown), min(0.0, *shown)
    span = (highest - lowest) or 1.0

    def y_of(value):
        return RATING_MARGIN + (RATING_HEIGHT - 2 * RATING_MARGIN) * (highest - value) / span

    step = CHART_WIDTH / (len(games) - 1)
    points = " ".join(f"{index * step:.1f},{y_of(value):.1f}" for index, value in enumerate(shown))
    return {"points": points, "zero": y_of(0.0), "width": CHART_WIDTH, "height": RATING_HEIGHT, "games": len(games),
            "first": games[0], "last": games[-1]}


def recent_chart(games):
    """Bars of the person's totals over their recent ``games`` (oldest first, left), zero as the baseline."""
    if not games:
        return None
    highest = max(0, *(game.total for game in games))
    lowest = min(0, *(game.total for game in games))
    span = (highest - lowest) or 1
    plot = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
    zero = CHART_TOP + plot * highest / span
    slot = CHART_WIDTH / max(len(games), FEWEST_BAR_SLOTS)
    bars = []
    for index, game in enumerate(games):
        top = CHART_TOP + plot * (highest - max(game.total, 0)) / span
        height = max(1.0, plot * abs(game.total) / span)
        label_y = top - 4 if game.total >= 0 else top + height + 12
        bars.append(Bar(index * slot + slot * 0.15, top, slot * 0.7, height, label_y, game))
    return {"bars": bars, "zero": zero, "width": CHART_WIDTH, "height": CHART_HEIGHT, "most": RECENT_GAMES_CHARTED}

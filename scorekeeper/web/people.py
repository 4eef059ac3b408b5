"""The club's memory: the people who play, their figures over a season, each person's page.

Everything shown is derived from the recorded hands (R17). Each game is
scored by the engine and its players' ``rules.Figures`` are kept for that
revision of the game, so that a season of a thousand games costs one
statement once its games were seen, and a correction anywhere flows into
every page. Changes to people (rename, merge, undo) go through ``table``.
"""

import itertools
from dataclasses import dataclass, fields
from datetime import datetime, time

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select

from .. import rules, service
from ..db.models import (
    Game,
    Hand,
    Person,
    PersonChange,
    Player,
    SeatChange,
    Taking,
    db,
    hand_record,
    name_key,
    variant_of,
)
from .explain import describe
from .forms import MergeForm, RenameForm, SeasonForm, UndoMergeForm
from .hands import CONFLICT, INVALID
from .i18n import _, number, one_decimal
from .rendered import kept

bp = Blueprint("people", __name__)

MOST_GAMES_KEPT = 20_000  # a game's figures take about 1.5 KB kept: some 30 MB at most
RECENT_GAMES_CHARTED = 12
FEWEST_BAR_SLOTS = 6  # a few games' bars stay bars, not slabs
QUICK_PICKS = 24  # the people offered on New game: the usual table and then some
FINISHED = [each.name for each in fields(rules.Figures)].index("finished")  # its place in ``Figures.counts()``


# --- Each game's figures, kept for its revision ---------------------------------------


@dataclass(frozen=True)
class GameFigures:
    """One revision of a game as the club's pages need it: each player's figures, total and place."""

    revision: int
    counts: tuple[tuple[int, ...], ...]  # each player's ``rules.Figures`` as a plain tuple, by roster number:
    # small to keep, and quick to add up by the thousand
    totals: tuple[int, ...]
    places: tuple[int | None, ...]  # at the end of a finished game, for the players still at the table
    hands: int


@dataclass(frozen=True)
class Played:
    """One game as one person played it."""

    game_id: int
    game_name: str
    created_at: datetime
    name: str  # the name they played under
    figures: rules.Figures
    total: int
    place: int | None
    players: int
    hands: int

    @property
    def finished(self):
        return bool(self.figures.finished)

    @property
    def won(self):
        return bool(self.figures.wins)


@dataclass(frozen=True)
class Record:
    """A person over the games chosen: their figures added up, and each game, oldest first."""

    person_id: int
    name: str
    figures: rules.Figures
    games: tuple[Played, ...]  # on a person's page only: the season's table needs the sums
    best_total: int | None = None  # their lowest total in a finished game
    worst_total: int | None = None  # their highest

    @property
    def best(self):
        """The finished game with their lowest total (the most recent of equals), or None."""
        finished = [game for game in self.games if game.finished]
        return min(reversed(finished), key=lambda game: game.total, default=None)

    @property
    def worst(self):
        """The finished game with their highest total (the most recent of equals), or None."""
        finished = [game for game in self.games if game.finished]
        return max(reversed(finished), key=lambda game: game.total, default=None)

    def facts(self):
        """The figures as ``/stats.json`` gives them."""
        figures = self.figures
        per_hand = figures.points_per_hand
        return {"name": self.name, "games": figures.games, "finished": figures.finished, "wins": figures.wins,
                "hands": figures.hands, "points": figures.points,
                "points_per_hand": None if per_hand is None else float(per_hand),
                "zero_hands": figures.zero_hands, "moons": figures.moons, "hearts": figures.hearts,
                "marias": figures.marias}


def season(since=None, until=None, min_games=0, person_id=None):
    """Every person's ``Record`` over the games created (or imported) from ``since`` to ``until``
    (days, both included), with at least ``min_games`` games; only ``person_id``'s, with their games, if given.

    One statement when every game's figures are kept for its revision; three
    more for the games changed since they were last seen, whatever their number.
    """
    query = (
        select(Game.id, Game.revision, Player.seat, Person.id, Person.name)
        .join(Player, Player.game_id == Game.id)
        .outerjoin(Person, Person.id == Player.person_id)  # a player without a person still counts in the roster
        .order_by(Game.id, Player.seat)
    )
    if since is not None:
        query = query.where(Game.created_at >= datetime.combine(since, time.min))
    if until is not None:
        query = query.where(Game.created_at <= datetime.combine(until, time.max))
    if person_id is not None:
        query = query.where(Game.id.in_(select(Player.game_id).where(Player.person_id == person_id)))
    rows = db.session.connection().execute(query).all()  # plain rows: thousands of them, no ORM loading
    games = {}  # game id -> (revision, roster size)
    for game_id, revision, *_player in rows:
        games[game_id] = (revision, games[game_id][1] + 1 if game_id in games else 1)
    figures = _figures_of(games)
    counts, finished = {}, {}
    for game_id, _revision, seat, person, person_name in rows:
        if person is not None:
            of_game = figures[game_id]
            counts.setdefault((person, person_name), []).append(of_game.counts[seat])
            if of_game.counts[seat][FINISHED]:
                finished.setdefault(person, []).append(of_game.totals[seat])
    played = _played(person_id, games, figures) if person_id is not None else {}
    records = [Record(person, person_name, rules.Figures(*map(sum, zip(*counts))), played.get(person, ()),
                      min(finished.get(person, ()), default=None), max(finished.get(person, ()), default=None))
               for (person, person_name), counts in counts.items()]
    return [record for record in records if record.figures.games >= min_games]


def _played(person_id, games, figures):
    """``person_id``'s games as ``Played``, oldest first: their names, days and the name the person played
    under read in one statement."""
    rows = db.session.execute(
        select(Game.id, Game.name, Game.created_at, Player.seat, Player.name)
        .join(Player, Player.game_id == Game.id)
        .where(Player.person_id == person_id, Game.id.in_(list(games))).order_by(Game.id)).all()
    played = tuple(
        Played(game_id, game_name, created_at, name, rules.Figures(*figures[game_id].counts[seat]),
               figures[game_id].totals[seat], figures[game_id].places[seat], games[game_id][1], figures[game_id].hands)
        for game_id, game_name, created_at, seat, name in rows)
    return {person_id: played}


def _figures_of(games):
    """``GameFigures`` of each game (id -> revision read, roster size): those kept for that revision, the
    others scored afresh and kept."""
    known = kept("figures", MOST_GAMES_KEPT)
    figures = {}
    for game_id, (revision, _roster) in games.items():
        kept_figures = known.get(game_id)
        if kept_figures is not None and kept_figures.revision == revision:
            figures[game_id] = kept_figures
    missing = {game_id: game for game_id, game in games.items() if game_id not in figures}
    for game_id, scored in _scored(missing).items():
        known.put(game_id, scored)
        figures[game_id] = scored
    return figures


def _scored(games):
    """``GameFigures`` of each game in ``games`` (id -> revision read, roster size), scored from its rows
    in three statements."""
    if not games:
        return {}
    game_ids = list(games)
    heads = db.session.execute(
        select(Game.id, Game.target, Game.first_dealer, Game.moon_points, Game.moon_choice, Game.passing,
               Game.cards_passed, Game.jack_of_diamonds).where(Game.id.in_(game_ids))).all()
    takings = db.session.execute(
        select(Hand.game_id, Hand.number, Hand.moon, Taking.hearts, Taking.marias, Taking.jacks)
        .join(Taking, Taking.hand_id == Hand.id).where(Hand.game_id.in_(game_ids))
        .order_by(Hand.game_id, Hand.number, Taking.seat))
    records = {
        game_id: [hand_record((row[3:] for row in rows), moon) for (_game, _number, moon), rows
                  in itertools.groupby(hands, key=lambda row: row[:3])]
        for game_id, hands in itertools.groupby(takings, key=lambda row: row[0])}
    seat_changes = {}
    for row in db.session.execute(select(SeatChange).where(SeatChange.game_id.in_(game_ids))
                                  .order_by(SeatChange.id)).scalars():
        seat_changes.setdefault(row.game_id, []).append(row.value())
    scored = {}
    for game_id, target, first_dealer, *variant in heads:
        revision, roster = games[game_id]
        made = seat_changes.get(game_id, [])
        board = rules.score_game(rules.starting_players(roster, made), first_dealer, target,
                                 records.get(game_id, []), variant_of(*variant), made)
        figures = rules.game_figures(board)
        places = {player: place for place, player in board.standings} if board.over else {}
        scored[game_id] = GameFigures(revision, tuple(figure.counts() for figure in figures), board.totals,
                                      tuple(places.get(player) for player in range(board.players)),
                                      len(board.hands))
    return scored


# --- Sorting the season's table ------------------------------------------------------

# Each column, and whether it sorts high first when first chosen (wins: the most first; best: the lowest).
COLUMNS = {
    "name": False, "games": True, "finished": True, "wins": True, "hands": True, "points": True,
    "points_per_hand": False, "zero_hands": True, "moons": True, "hearts": True, "marias": True,
    "best": False, "worst": False,
}
DEFAULT_SORT = "wins"


def sorted_records(records, column, descending):
    """The season's table sorted by ``column``; equals by points a hand, then by name; those without the
    figure (no hand played, no game finished) last either way."""
    ordered = sorted(records, key=lambda record: (record.figures.points_per_hand is None,
                                                  record.figures.points_per_hand or 0, name_key(record.name)))
    known = [record for record in ordered if column_value(record, column) is not None]
    unknown = [record for record in ordered if column_value(record, column) is None]
    return sorted(known, key=lambda record: column_value(record, column), reverse=descending) + unknown


def column_value(record, column):
    """A record's figure in one column of the season's table (None: it has none)."""
    if column == "name":
        return name_key(record.name)
    if column in ("best", "worst"):
        return getattr(record, f"{column}_total")
    return getattr(record.figures, column)


def figure_text(record, column):
    """A record's figure in ``column`` as the page writes it: in the reader's digits, a dash for none."""
    value = column_value(record, column)
    if column == "points_per_hand":
        return one_decimal(value)
    return "–" if value is None else number(value)


def chosen_sort(text):
    """The column and direction asked for in ``?sort=`` ("wins", "-points_per_hand"); the default otherwise."""
    text = text or ""
    column = text.lstrip("-")
    if column not in COLUMNS:
        return DEFAULT_SORT, COLUMNS[DEFAULT_SORT]
    return column, COLUMNS[column] != text.startswith("-")


# --- Pages ---------------------------------------------------------------------------


@bp.get("/players")
def season_table():
    """The season's table: every person's figures over the games chosen, sortable."""
    form = SeasonForm(request.args)
    valid = form.validate()
    records = season(**form.filters) if valid else []
    column, descending = chosen_sort(request.args.get("sort"))
    figures = [key for key in COLUMNS if key != "name"]
    rows = [(record, [figure_text(record, key) for key in figures])
            for record in sorted_records(records, column, descending)]
    return render_template("people/index.html", form=form, rows=rows, column=column, descending=descending,
                           columns=COLUMNS), 200 if valid else INVALID


@bp.get("/stats.json")
def stats():
    """The season's figures for a league secretary's scripts, with the table's filters; sorted by name."""
    form = SeasonForm(request.args)
    if not form.validate():
        return jsonify(error=" ".join(str(error) for errors in form.errors.values() for error in errors)), INVALID
    records = sorted(season(**form.filters), key=lambda record: (name_key(record.name), record.person_id))
    return jsonify(players=[record.facts() for record in records])


@bp.get("/players/<int:person_id>")
def person(person_id):
    """A person's page: their figures, best and worst game, recent totals, and every game with its result."""
    shown = _person_or_404(person_id)
    if shown.merged_into_id is not None:
        return redirect(url_for("people.person", person_id=_survivor(shown).id))
    return _person_page(shown)


@bp.post("/players/<int:person_id>/rename")
def rename(person_id):
    """Show a person under another name from now on."""
    shown = _live_person_or_404(person_id)
    form = RenameForm(request.form)
    if not form.validate():
        return _person_page(shown, rename_form=form), INVALID
    before = shown.name
    refused = _refused(shown, form.name, lambda: service.rename_person(shown, form.name.data), rename_form=form)
    if refused:
        return refused
    flash(_("%(before)s is now shown as %(name)s.", before=before, name=form.name.data), "success")
    return redirect(url_for("people.person", person_id=person_id))


@bp.post("/players/<int:person_id>/merge")
def merge(person_id):
    """Merge another person into this one: two names that were always one player."""
    shown = _live_person_or_404(person_id)
    form = MergeForm(request.form)
    other = db.session.get(Person, form.other.data) if form.validate() else None
    if other is None:
        if not form.errors:
            form.other.errors = [_("Choose who to merge.")]
        return _person_page(shown, merge_form=form), INVALID
    refused = _refused(shown, form.other, lambda: service.merge_people(shown, other), merge_form=form)
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
        field.errors = [changed_meanwhile()]
        return _person_page(_live_person_or_404(shown.id), **forms), CONFLICT
    return None


@bp.post("/players/<int:person_id>/undo")
def undo_merge(person_id):
    """Undo a merge into this person: the person merged away is back with their games."""
    shown = _live_person_or_404(person_id)
    form = UndoMergeForm(request.form)
    change = db.session.get(PersonChange, form.change.data) if form.validate() else None
    if change is None or change.person_id != shown.id:
        return _person_page(shown, problem=form.csrf_error or _("Choose the merge to undo.")), INVALID
    try:
        service.undo_merge(change)
    except service.PeopleRefused as error:
        return _person_page(shown, problem=describe(error)), INVALID
    except service.Conflict:
        return _person_page(_live_person_or_404(person_id), problem=changed_meanwhile()), CONFLICT
    flash(_("%(merged)s is a person of their own again, with their games.",
            merged=db.session.get(Person, change.other_id).name), "success")
    return redirect(url_for("people.person", person_id=person_id))


def changed_meanwhile():
    """Another device changed the club's people first: nothing was saved."""
    return _("Someone else changed the players just now, so nothing was saved. Check and try again.")


def _person_or_404(person_id):
    return db.get_or_404(Person, person_id)


def _live_person_or_404(person_id):
    """The person ``person_id``, refused (404) if merged into someone else: change the one they became."""
    shown = _person_or_404(person_id)
    if shown.merged_into_id is not None:
        abort(404)
    return shown


def _survivor(merged):
    """The person someone merged away became (merges of merges followed)."""
    seen = set()
    while merged.merged_into_id is not None and merged.id not in seen:
        seen.add(merged.id)
        merged = db.session.get(Person, merged.merged_into_id)
    return merged


def _person_page(shown, rename_form=None, merge_form=None, problem=None):
    """The person's page; a form refused is shown again as it was typed, with what was wrong."""
    records = season(person_id=shown.id)
    record = next((record for record in records if record.person_id == shown.id), None)
    others = db.session.execute(
        select(Person.id, Person.name).where(Person.merged_into_id.is_(None), Person.id != shown.id)
    ).all()
    merges = db.session.execute(
        select(PersonChange, Person.name).join(Person, Person.id == PersonChange.other_id)
        .where(PersonChange.action.in_(("merge", "undo")),
               (PersonChange.person_id == shown.id) | (PersonChange.other_id == shown.id))
        .order_by(PersonChange.id.desc())
    ).all()
    entries = [entry for entry, _name in merges]
    merged_here = [(entry, name, service.merge_refusal(entry, entries) is None)
                   for entry, name in merges if entry.action == "merge" and entry.person_id == shown.id]
    return render_template(
        "people/person.html", person=shown, record=record, problem=problem,
        rename_form=rename_form or RenameForm(data={"name": shown.name}), merge_form=merge_form or MergeForm(),
        undo_form=UndoMergeForm(), others=sorted(others, key=lambda other: name_key(other.name)),
        merged_here=merged_here, chart=recent_chart(record.games if record else ()), figure_text=figure_text)


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


def recent_chart(games):
    """Bars of the person's totals over their recent games (oldest left), zero as the baseline."""
    games = games[-RECENT_GAMES_CHARTED:]
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


# --- New game's quick picks ------------------------------------------------------------


def quick_picks():
    """The people who played most recently, and the names of the latest tables (the usual table in one tap)."""
    latest = (select(Player.person_id, Player.game_id).order_by(Player.game_id.desc())
              .limit(QUICK_PICKS * 11).subquery())
    people = db.session.execute(
        select(Person.name).join(latest, latest.c.person_id == Person.id)
        .group_by(Person.id, Person.name).order_by(db.func.max(latest.c.game_id).desc()).limit(QUICK_PICKS)
    ).scalars().all()
    tables = db.session.execute(
        select(Player.game_id, Player.name).where(Player.game_id.in_(
            select(Game.id).order_by(Game.id.desc()).limit(3).scalar_subquery()))
        .order_by(Player.game_id.desc(), Player.seat)).all()
    usual = []
    for _game_id, names in itertools.groupby(tables, key=lambda row: row[0]):
        names = tuple(name for _game, name in names)
        if rules.MIN_PLAYERS <= len(names) <= rules.MAX_PLAYERS and names not in usual:
            usual.append(names)
    return sorted(people, key=name_key), usual

"""The club's figures over a season, read from the recorded hands through the engine (R17).

Each game is scored by the engine and its players' ``rules.Figures`` are
kept for that revision of the game, so that a season of a thousand games
costs one statement once its games were seen, and a correction anywhere
flows into every page. The people blueprint shows them; New game offers
the quick picks.
"""

import itertools
from dataclasses import dataclass, fields
from datetime import datetime, time

from babel.numbers import format_percent
from flask_babel import get_locale
from sqlalchemy import select

from .. import rules
from ..db.models import (
    HOUSE_RULE_COLUMNS,
    UNCOLLECTED_COLUMNS,
    Game,
    Hand,
    Person,
    Player,
    SeatChange,
    Taking,
    db,
    hand_record,
    uncollected,
    variant_of_row,
)
from ..service import names as name_rules
from .i18n import number, one_decimal
from .rendered import kept

MOST_GAMES_KEPT = 20_000  # a game's figures take about 1.5 KB kept: some 30 MB at most
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
class Finish:
    """Where a player ended a finished game they were still at the table for (R16).

    ``place`` among the ``seated`` players at the table at the end (1 is the
    win; equal totals share a place); ``margin`` the lowest total among the
    others at the table minus theirs: how far ahead of the next player a
    winner ended (0 for a shared win), how far behind the winner anyone else.
    """

    place: int
    seated: int
    margin: int
    game_id: int

    def best_key(self):
        """Lower is a better game: the best place, then the widest margin, then the most recent."""
        return self.place, -self.margin, -self.game_id

    def worst_key(self):
        """Lower is a worse game: nearest the bottom of the table, then furthest behind, then the most recent."""
        return self.seated - self.place, self.margin, -self.game_id


def finish_of(figures, seat, game_id):
    """The ``Finish`` of roster number ``seat`` in a game's ``GameFigures``; None if the game is open or they
    left before its end."""
    place = figures.places[seat]
    if place is None:
        return None
    others = [total for player, total in enumerate(figures.totals)
              if player != seat and figures.places[player] is not None]
    return Finish(place, len(others) + 1, min(others) - figures.totals[seat], game_id)


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
    best_finish: Finish | None = None  # their best finished game (``Finish.best_key``)
    worst_finish: Finish | None = None  # their worst (``Finish.worst_key``)

    @property
    def best(self):
        """The game of ``best_finish`` as they played it, or None."""
        return self._played(self.best_finish)

    @property
    def worst(self):
        """The game of ``worst_finish`` as they played it, or None."""
        return self._played(self.worst_finish)

    def _played(self, finish):
        return next((game for game in self.games if finish is not None and game.game_id == finish.game_id), None)

    def facts(self):
        """The figures as ``/stats.json`` gives them."""
        figures = self.figures
        per_hand = figures.points_per_hand
        return {"name": self.name, "games": figures.games, "finished": figures.finished, "wins": figures.wins,
                "win_rate": None if figures.win_rate is None else round(float(figures.win_rate), 4),
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
        .where(Game.voided_at.is_(None))  # a game left out of the season counts nowhere
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
    counts, finishes = {}, {}
    for game_id, _revision, seat, person, person_name in rows:
        if person is not None:
            of_game = figures[game_id]
            counts.setdefault((person, person_name), []).append(of_game.counts[seat])
            if of_game.counts[seat][FINISHED]:
                finish = finish_of(of_game, seat, game_id)
                if finish is not None:
                    finishes.setdefault(person, []).append(finish)
    played = _played(person_id, games, figures) if person_id is not None else {}
    records = [Record(person, person_name, rules.Figures(*map(sum, zip(*counts))), played.get(person, ()),
                      min(finishes.get(person, ()), key=Finish.best_key, default=None),
                      min(finishes.get(person, ()), key=Finish.worst_key, default=None))
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
        select(Game.id, Game.target, Game.first_dealer, *HOUSE_RULE_COLUMNS).where(Game.id.in_(game_ids))).all()
    takings = db.session.execute(
        select(Hand.game_id, Hand.number, Hand.moon, *UNCOLLECTED_COLUMNS, Taking.hearts, Taking.marias, Taking.jacks)
        .join(Taking, Taking.hand_id == Hand.id).where(Hand.game_id.in_(game_ids))
        .order_by(Hand.game_id, Hand.number, Taking.seat))
    records = {}
    for (game_id, _number), rows in itertools.groupby(takings, key=lambda row: (row.game_id, row.number)):
        rows = list(rows)
        records.setdefault(game_id, []).append(hand_record(
            ((row.hearts, row.marias, row.jacks) for row in rows), rows[0].moon, uncollected(rows[0])))
    seat_changes = {}
    for row in db.session.execute(select(SeatChange).where(SeatChange.game_id.in_(game_ids))
                                  .order_by(SeatChange.id)).scalars():
        seat_changes.setdefault(row.game_id, []).append(row.value())
    scored = {}
    for head in heads:
        revision, roster = games[head.id]
        made = seat_changes.get(head.id, [])
        board = rules.score_game(rules.starting_players(roster, made), head.first_dealer, head.target,
                                 records.get(head.id, []), variant_of_row(head), made)
        figures = rules.game_figures(board)
        places = {player: place for place, player in board.standings} if board.over else {}
        scored[head.id] = GameFigures(revision, tuple(figure.counts() for figure in figures), board.totals,
                                      tuple(places.get(player) for player in range(board.players)),
                                      len(board.hands))
    return scored


# --- Sorting the season's table ------------------------------------------------------

# Each column, and whether its first tap sorts it high first: every column sorts best first (the most
# wins, the highest win rate, the fewest points, hearts and Black Marias, the best of the best games and
# the least bad of the worst), then reversed. A game's ``column_value`` is lower the better it was.
COLUMNS = {
    "name": False, "games": True, "finished": True, "wins": True, "win_rate": True, "hands": True,
    "points": False, "points_per_hand": False, "zero_hands": True, "moons": True, "hearts": False,
    "marias": False, "best": False, "worst": True,
}
DEFAULT_SORT = "wins"


def sorted_records(records, column, descending):
    """The season's table sorted by ``column``; equals by points a hand, then by name; those without the
    figure (no hand played, no game finished) last either way."""
    ordered = sorted(records, key=lambda record: (record.figures.points_per_hand is None,
                                                  record.figures.points_per_hand or 0, name_rules.key(record.name)))
    known = [record for record in ordered if column_value(record, column) is not None]
    unknown = [record for record in ordered if column_value(record, column) is None]
    return sorted(known, key=lambda record: column_value(record, column), reverse=descending) + unknown


def column_value(record, column):
    """A record's figure in one column of the season's table (None: it has none), comparable within it."""
    if column == "name":
        return name_rules.key(record.name)
    if column == "best":
        return None if record.best_finish is None else record.best_finish.best_key()
    if column == "worst":
        return None if record.worst_finish is None else record.worst_finish.worst_key()
    return getattr(record.figures, column)


def figure_text(record, column):
    """A record's figure in ``column`` as the page writes it: in the reader's digits, a dash for none; a game
    as its place among the players at its end and its margin ("1/8 +12")."""
    if column == "points_per_hand":
        return one_decimal(record.figures.points_per_hand)
    if column == "win_rate":
        rate = record.figures.win_rate
        return "–" if rate is None else format_percent(float(rate), locale=get_locale())
    if column in ("best", "worst"):
        finish = record.best_finish if column == "best" else record.worst_finish
        if finish is None:
            return "–"
        sign = "+" if finish.margin > 0 else ("−" if finish.margin < 0 else "±")
        return f"{number(finish.place)}/{number(finish.seated)} {sign}{number(abs(finish.margin))}"
    value = column_value(record, column)
    return "–" if value is None else number(value)


def chosen_sort(text):
    """The column and direction asked for in ``?sort=`` ("wins", "-points_per_hand"); the default otherwise."""
    text = text or ""
    column = text.lstrip("-")
    if column not in COLUMNS:
        return DEFAULT_SORT, COLUMNS[DEFAULT_SORT]
    return column, COLUMNS[column] != text.startswith("-")



# --- New game's quick picks ------------------------------------------------------------


def quick_picks():
    """The people who played most recently, and the names of the latest tables (the usual table in one tap);
    games left out of the season are not looked at."""
    counted = select(Game.id).where(Game.voided_at.is_(None))
    latest = (select(Player.person_id, Player.game_id).where(Player.game_id.in_(counted))
              .order_by(Player.game_id.desc()).limit(QUICK_PICKS * 11).subquery())
    people = db.session.execute(
        select(Person.name).join(latest, latest.c.person_id == Person.id)
        .group_by(Person.id, Person.name).order_by(db.func.max(latest.c.game_id).desc()).limit(QUICK_PICKS)
    ).scalars().all()
    tables = db.session.execute(
        select(Player.game_id, Player.name).where(Player.game_id.in_(
            counted.order_by(Game.id.desc()).limit(3).scalar_subquery()))
        .order_by(Player.game_id.desc(), Player.seat)).all()
    usual = []
    for _game_id, seated in itertools.groupby(tables, key=lambda row: row[0]):
        seated = tuple(name for _game, name in seated)
        if rules.MIN_PLAYERS <= len(seated) <= rules.MAX_PLAYERS and seated not in usual:
            usual.append(seated)
    return sorted(people, key=name_rules.key), usual

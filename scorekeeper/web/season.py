"""The club's figures over a season, read from each game's kept figures (service/figures.py), which the
recorded hands derive (R17).

Every write to a game keeps its players' figures for the revision it makes;
a season of any number of games is a few grouped statements, and a game
whose figures are stale is scored from its hands first (the hands win). The
people blueprint shows them; New game offers the quick picks.
"""

import itertools
from dataclasses import dataclass
from datetime import datetime, time

from babel.numbers import format_percent
from flask_babel import get_locale
from sqlalchemy import and_, func, or_, select

from .. import rules, service
from ..db.models import Game, GameFigures, Person, Player, SeatFigures, db
from ..service import names as name_rules
from .i18n import number, one_decimal

QUICK_PICKS = 24  # the people offered on New game: the usual table and then some
GAMES_A_PAGE = 50  # of a person's games, newest first
FIGURE_COLUMNS = (SeatFigures.finished, SeatFigures.wins, SeatFigures.hands, SeatFigures.points,
                  SeatFigures.zero_hands, SeatFigures.moons_subtracted, SeatFigures.moons_added, SeatFigures.hearts,
                  SeatFigures.marias)  # ``rules.Figures`` after ``games``, in its order


@dataclass(frozen=True)
class Finish:
    """Where a player ended a finished game (``rules.Finish``: place among the players seated at its end,
    and margin), and which game it was, with their total in it."""

    place: int
    seated: int
    margin: int
    game_id: int
    game_name: str = ""
    total: int = 0

    def best_key(self):
        """Lower is a better game: the best place, then the widest margin, then the most recent."""
        return self.place, -self.margin, -self.game_id

    def worst_key(self):
        """Lower is a worse game: nearest the bottom of the table, then furthest behind, then the most recent."""
        return self.seated - self.place, self.margin, -self.game_id


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
    """A person over the games chosen: their figures added up, and their best and worst finished game."""

    person_id: int
    name: str
    figures: rules.Figures
    best_finish: Finish | None = None  # their best finished game (``Finish.best_key``)
    worst_finish: Finish | None = None  # their worst (``Finish.worst_key``)

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


def counted(since=None, until=None):
    """The games a season counts: not left out of it, created (or imported) from ``since`` to ``until``
    (days, both included); as conditions on ``Game``."""
    conditions = [Game.voided_at.is_(None)]
    if since is not None:
        conditions.append(Game.created_at >= datetime.combine(since, time.min))
    if until is not None:
        conditions.append(Game.created_at <= datetime.combine(until, time.max))
    return and_(*conditions)


def _fresh_figures(condition):
    """Make the kept figures of the games meeting ``condition`` fresh: stale ones are scored from the hands
    and kept (the hands win). One statement when none is stale."""
    service.figures.refresh(service.figures.stale_games(condition))


def _from_figures(query, condition):
    """``query`` (selecting from ``SeatFigures``) joined to each row's player and game, for the games meeting
    ``condition``, the players who are a person, and the figures kept for the game's revision."""
    return (query.join(Player, and_(Player.game_id == SeatFigures.game_id, Player.seat == SeatFigures.seat))
            .join(Game, and_(Game.id == SeatFigures.game_id, Game.revision == SeatFigures.revision))
            .where(condition, Player.person_id.is_not(None)))


def season(since=None, until=None, min_games=0, person_id=None):
    """Every person's ``Record`` over the games ``counted`` from ``since`` to ``until``, with at least
    ``min_games`` games; only ``person_id``'s, if given. Three statements whatever the number of games (and
    a few more for games whose figures were stale)."""
    condition = counted(since, until)
    if person_id is not None:
        condition = and_(condition, Game.id.in_(select(Player.game_id).where(Player.person_id == person_id)))
    _fresh_figures(condition)
    games = func.count().label("games")
    query = _from_figures(select(Person.id, Person.name, games, *(func.sum(column) for column in FIGURE_COLUMNS))
                          .select_from(SeatFigures).join(Person, Person.id == Player.person_id), condition)
    if person_id is not None:
        query = query.where(Person.id == person_id)
    sums = db.session.execute(query.group_by(Person.id, Person.name).having(games >= max(min_games, 1))).all()
    best, worst = _finishes(condition)
    return [Record(person, name, rules.Figures(*(int(value) for value in figures)), best.get(person),
                   worst.get(person))
            for person, name, *figures in sums]


def _finishes(condition):
    """Each person's best and worst finished game of those meeting ``condition`` (``Finish.best_key``,
    ``Finish.worst_key``), as two maps of person id -> ``Finish``: ranked by the database, one statement."""
    by_person = Player.person_id
    ranked = _from_figures(
        select(by_person.label("person"), SeatFigures.game_id, Game.name, SeatFigures.total, SeatFigures.place,
               SeatFigures.seated, SeatFigures.margin,
               func.row_number().over(partition_by=by_person, order_by=(
                   SeatFigures.place, SeatFigures.margin.desc(), SeatFigures.game_id.desc())).label("best"),
               func.row_number().over(partition_by=by_person, order_by=(
                   SeatFigures.seated - SeatFigures.place, SeatFigures.margin, SeatFigures.game_id.desc()))
               .label("worst"))
        .select_from(SeatFigures), condition).where(SeatFigures.place.is_not(None)).subquery()
    best, worst = {}, {}
    for row in db.session.execute(select(ranked).where(or_(ranked.c.best == 1, ranked.c.worst == 1))):
        finish = Finish(row.place, row.seated, row.margin, row.game_id, row.name, row.total)
        if row.best == 1:
            best[row.person] = finish
        if row.worst == 1:
            worst[row.person] = finish
    return best, worst


def played(person_id, page=1):
    """``person_id``'s counted games as ``Played``, newest first: page ``page`` of ``GAMES_A_PAGE``, and whether
    an older page follows. One statement, reading the figures ``season`` made fresh for them."""
    query = _from_figures(
        select(Game.id, Game.name, Game.created_at, Player.name.label("player"), GameFigures.roster,
               GameFigures.hands.label("game_hands"), SeatFigures.total, SeatFigures.place, *FIGURE_COLUMNS)
        .select_from(SeatFigures).join(GameFigures, GameFigures.game_id == SeatFigures.game_id), counted())
    query = (query.where(Player.person_id == person_id).order_by(Game.id.desc())
             .limit(GAMES_A_PAGE + 1).offset((page - 1) * GAMES_A_PAGE))
    games = [Played(row.id, row.name, row.created_at, row.player, rules.Figures(1, *row[-len(FIGURE_COLUMNS):]),
                    row.total, row.place, row.roster, row.game_hands)
             for row in db.session.execute(query)]
    return tuple(games[:GAMES_A_PAGE]), len(games) > GAMES_A_PAGE


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

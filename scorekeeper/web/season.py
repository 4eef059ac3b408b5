"""The club's figures over a season, read from each game's kept figures (service/figures.py), which the
recorded hands derive (R17).

Every write to a game keeps its players' figures for the revision it makes;
a season of any number of games is a few grouped statements, and a game
whose figures are stale is scored from its hands first (the hands win). The
people blueprint shows them; New game offers the quick picks.
"""

import functools
import itertools
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from flask_babel import get_locale
from sqlalchemy import Integer, and_, bindparam, case, func, null, select
from sqlalchemy.orm import aliased

from .. import rules, service
from ..db.models import LARGEST_ID, Game, GameFigures, NightTable, Person, PersonFigures, Player, SeatFigures, db
from ..service import names as name_rules
from ..words.i18n import number, one_decimal, percent

QUICK_PICKS = 24  # the people offered on New game: the usual table and then some
GAMES_A_PAGE = 50  # of a person's games, newest first
# The last page of a person's games the database can be asked for: its OFFSET is an integer, which stops at
# PostgreSQL's (SQLite's is wider); a page past it is past every club's last page.
LAST_PAGE = LARGEST_ID // GAMES_A_PAGE


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
    played_on: date | None = None

    def facts(self):
        """The game as ``/stats.json`` gives it: which game, its name and day, and where they ended it."""
        return {"game": self.game_id, "name": self.game_name,
                "day": None if self.played_on is None else self.played_on.isoformat(),
                "place": self.place, "players": self.seated, "margin": self.margin, "total": self.total}

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
    played_on: date
    name: str  # the name they played under
    figures: rules.Figures
    total: int
    place: int | None
    players: int
    hands: int
    rating: "service.ratings.Rating | None" = None  # after this game, once the club's ratings reached it

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
    rating: service.ratings.Rating = service.ratings.NEW  # the one everyone starts with, before a finished game

    @property
    def provisional(self):
        """Whether their rating is still provisional (``service.ratings.provisional``)."""
        return service.ratings.provisional(self.rating, self.figures.finished)

    def facts(self):
        """The figures as ``/stats.json`` gives them."""
        figures = self.figures
        per_hand = figures.points_per_hand
        rating = self.rating
        return {"name": self.name, **{name: float(rating.rounded(value, 2)) for name, value in (
                    ("rating", rating.shown), ("mu", rating.mu), ("sigma", rating.sigma))},
                "provisional": self.provisional,
                "games": figures.games, "finished": figures.finished, "wins": figures.wins,
                "win_rate": None if figures.win_rate is None else round(float(figures.win_rate), 4),
                "hands": figures.hands, "points": figures.points,
                "points_per_hand": None if per_hand is None else float(per_hand),
                "zero_hands": figures.zero_hands, "moons": figures.moons, "hearts": figures.hearts,
                "marias": figures.marias,
                **{name: None if finish is None else finish.facts()
                   for name, finish in (("best_game", self.best_finish), ("worst_game", self.worst_finish))}}


def counted(since=None, until=None, nights=False):
    """The games a season counts: not left out of it, played from ``since`` to ``until`` (days, both
    included), only the tables of club nights if ``nights`` (R18); as conditions on ``Game``."""
    conditions = [Game.counted]
    if nights:
        conditions.append(Game.id.in_(select(NightTable.game_id)))
    if since is not None:
        conditions.append(Game.played_on >= since)
    if until is not None:
        conditions.append(Game.played_on <= until)
    return and_(*conditions)


def _fresh_figures(condition):
    """Make the kept figures of the games meeting ``condition`` fresh: stale ones are scored from the hands
    and kept (the hands win). One statement when none is stale."""
    service.refreshing.refresh(service.figures.stale_games(condition))


def season(since=None, until=None, min_games=0, person_id=None, nights=False):
    """Every person's ``Record`` over the games ``counted`` from ``since`` to ``until`` (only club nights'
    tables if ``nights``), with at least ``min_games`` games; only ``person_id``'s, if given.

    The whole season reads each person's kept figures and rating (service/figures.py, service/ratings.py):
    four statements whatever the number of games (are any games' figures stale? are the ratings up to date?
    each person with the ids of their best and worst game, each an index seek; those games). A season of
    some days adds up its games' kept figures and rates only its games.
    """
    whole = since is None and until is None and not nights
    condition = counted(since, until, nights)
    _fresh_figures(condition)
    if whole:
        rated_again = service.refreshing.rated_again_if_need_be()
        query, parameters = _whole_season(for_one=person_id is not None), {"least": max(min_games, 1)}
        if person_id is not None:
            parameters["person_id"] = person_id
    else:
        rated_again = service.ratings.ratings_of(condition)
        parameters = {}
        best, worst = (_finish_of(order, person=Person.id, condition=condition) for order in (BEST_ORDER, WORST_ORDER))
        games = func.count().label("games")
        query = (select(Person.id, Person.name, null(), null(), best, worst, games,
                        *(func.sum(getattr(SeatFigures, name)) for name in FIGURE_NAMES))
                 .join(Person, Person.id == SeatFigures.person_id)
                 .join(Game, and_(Game.id == SeatFigures.game_id, Game.revision == SeatFigures.revision))
                 .where(condition, SeatFigures.counted))
        if person_id is not None:
            query = query.where(SeatFigures.person_id == person_id)
        query = query.group_by(Person.id, Person.name).having(games >= max(min_games, 1))
    rows = db.session.execute(query, parameters).all()
    finishes = _finishes({(row[0], game) for row in rows for game in row[4:6] if game is not None})
    return [Record(person, name, rules.Figures(*(int(value) for value in figures)), finishes.get((person, best)),
                   finishes.get((person, worst)), _rating(rated_again, person, mu, sigma))
            for person, name, mu, sigma, best, worst, *figures in rows]


@functools.cache
def _whole_season(for_one):
    """The whole season's statement (each person's kept figures and rating, with the ids of their best and
    worst game), bound to ``least`` games and, ``for_one`` person, to ``person_id``: made once a process, as
    every page of the season and each person's page reads it."""
    best, worst = (_finish_of(order, person=Person.id, condition=None) for order in (BEST_ORDER, WORST_ORDER))
    query = (select(Person.id, Person.name, PersonFigures.mu, PersonFigures.sigma, best, worst,
                    PersonFigures.games, *(getattr(PersonFigures, name) for name in FIGURE_NAMES))
             .join(Person, Person.id == PersonFigures.person_id)
             .where(PersonFigures.games >= bindparam("least")))
    if for_one:
        query = query.where(PersonFigures.person_id == bindparam("person_id"))
    return query


FIGURE_NAMES = service.figures.SUMMED  # ``rules.Figures`` after ``games``, in its order

# The orders of ``Finish.best_key`` and ``Finish.worst_key``, as the indexes on seat figures keep them.
BEST_ORDER = (SeatFigures.place, SeatFigures.margin.desc(), SeatFigures.game_id.desc())
WORST_ORDER = (SeatFigures.from_bottom, SeatFigures.margin, SeatFigures.game_id.desc())


def _finish_of(order, person, condition):
    """The id of ``person``'s (a column of the outer statement) first finished, counted game in ``order``,
    among those meeting ``condition`` (every game if None), as a column: one seek of an index a person."""
    chosen = select(SeatFigures.game_id).where(SeatFigures.person_id == person, SeatFigures.counted,
                                               SeatFigures.place.is_not(None))
    if condition is not None:
        chosen = chosen.join(Game, Game.id == SeatFigures.game_id).where(condition)
    return chosen.order_by(*order).limit(1).correlate(Person).scalar_subquery()


def _finishes(pairs):
    """The ``Finish`` of each ``(person, game)`` of ``pairs``: one statement (by game, each a few rows)."""
    if not pairs:
        return {}
    rows = db.session.execute(_FINISHES, {"games": sorted({game for _person, game in pairs})})
    return {(person, game): Finish(place, seated, margin, game, name, total, played_on)
            for person, game, place, seated, margin, total, name, played_on in rows if (person, game) in pairs}


_FINISHES = (select(SeatFigures.person_id, SeatFigures.game_id, SeatFigures.place, SeatFigures.seated,
                    SeatFigures.margin, SeatFigures.total, Game.name, Game.played_on)
             .join(Game, Game.id == SeatFigures.game_id)
             .where(SeatFigures.game_id.in_(bindparam("games", expanding=True))))


def _rating(rated_again, person, mu, sigma):
    """A person's rating: as just worked out, or as kept; the one everyone starts with before a finished game."""
    if rated_again is not None:
        return rated_again.get(person, service.ratings.NEW)
    return service.ratings.NEW if mu is None else service.ratings.Rating(mu, sigma)


def played(person_id, page=1):
    """``person_id``'s counted games as ``Played``, newest first: page ``page`` (1 to ``LAST_PAGE``) of
    ``GAMES_A_PAGE``, and whether an older page follows. One statement, reading the figures ``season`` made
    fresh for them."""
    rows = db.session.execute(_played_statement(), {"person_id": person_id, "skipped": (page - 1) * GAMES_A_PAGE})
    games = [Played(row.id, row.name, row.played_on, row.player, rules.Figures(1, *row[-len(FIGURE_NAMES):]),
                    row.total, row.place, row.roster, row.game_hands,
                    None if row.mu is None else service.ratings.Rating(row.mu, row.sigma))
             for row in rows]
    return tuple(games[:GAMES_A_PAGE]), len(games) > GAMES_A_PAGE


@functools.cache
def _played_statement():
    """``played``'s statement, bound to ``person_id`` and the games ``skipped``: made once a process."""
    return (select(Game.id, Game.name, Game.played_on, Player.name.label("player"), GameFigures.roster,
                   GameFigures.hands.label("game_hands"), SeatFigures.total, SeatFigures.place,
                   SeatFigures.mu, SeatFigures.sigma, *(getattr(SeatFigures, name) for name in FIGURE_NAMES))
            .join(Player, and_(Player.game_id == SeatFigures.game_id, Player.seat == SeatFigures.seat))
            .join(Game, and_(Game.id == SeatFigures.game_id, Game.revision == SeatFigures.revision))
            .join(GameFigures, GameFigures.game_id == SeatFigures.game_id)
            .where(SeatFigures.person_id == bindparam("person_id"), SeatFigures.counted)
            .order_by(Game.played_on.desc(), Game.id.desc())
            .limit(GAMES_A_PAGE + 1).offset(bindparam("skipped", type_=Integer)))


# --- Head to head ----------------------------------------------------------------------

FEWEST_MEETINGS = 3  # games finished together before a person's page shows how two players fared


@dataclass(frozen=True)
class Rival:
    """How a person fared against another player over the finished, counted games both ended at the table:
    how many, and in how many they finished ahead (a lower total, R16), level or behind."""

    person_id: int
    name: str
    met: int
    ahead: int
    level: int
    behind: int


def head_to_head(person_id):
    """``person_id``'s ``Rival``s: every player they finished at least ``FEWEST_MEETINGS`` counted games with,
    both at the table at the end, the most met first, then by name. One statement, reading the figures
    ``season`` made fresh."""
    rows = db.session.execute(_head_to_head_statement(), {"person_id": person_id, "least": FEWEST_MEETINGS})
    return sorted((Rival(*row) for row in rows), key=lambda rival: (-rival.met, name_rules.key(rival.name)))


@functools.cache
def _head_to_head_statement():
    """``head_to_head``'s statement, bound to ``person_id`` and the ``least`` games met: made once a process."""
    mine, theirs = aliased(SeatFigures), aliased(SeatFigures)
    met = func.count().label("met")
    return (select(Person.id, Person.name, met,
                   *(func.sum(case((condition, 1), else_=0)) for condition in (
                       mine.place < theirs.place, mine.place == theirs.place, mine.place > theirs.place)))
            .select_from(mine)
            .join(Game, and_(Game.id == mine.game_id, Game.revision == mine.revision))
            .join(theirs, and_(theirs.game_id == mine.game_id, theirs.revision == mine.revision,
                               theirs.seat != mine.seat))
            .join(Person, Person.id == theirs.person_id)
            .where(mine.person_id == bindparam("person_id"), theirs.person_id != mine.person_id, mine.counted,
                   mine.place.is_not(None), theirs.place.is_not(None))
            .group_by(Person.id, Person.name)
            .having(met >= bindparam("least")))


# --- Sorting the season's table ------------------------------------------------------

# Each column, and whether its first tap sorts it high first: every column sorts best first (the most
# wins, the highest win rate, the fewest points, hearts and Black Marias, the best of the best games and
# the least bad of the worst), then reversed. A game's ``column_value`` is lower the better it was.
COLUMNS = {
    "name": False, "rating": True, "games": True, "finished": True, "wins": True, "win_rate": True,
    "hands": True, "points": False, "points_per_hand": False, "zero_hands": True, "moons": True, "hearts": False,
    "marias": False, "best": False, "worst": True,
}
DEFAULT_SORT = "rating"  # weighs whom a player beat; raw wins favour whoever plays most
# The columns of /players.csv, fixed (in English) like a file format's, whatever the page's language.
CSV_HEADINGS = {
    "name": "Player", "rating": "Rating", "provisional": "Rating provisional",
    "games": "Games", "finished": "Finished", "wins": "Wins",
    "win_rate": "Win rate", "hands": "Hands", "points": "Points", "points_per_hand": "Points a hand",
    "zero_hands": "Hands on 0", "moons": "Moons", "hearts": "Hearts", "marias": "Black Marias",
    "best": "Best game", "best_name": "Best game's name", "best_day": "Best game's day", "worst": "Worst game",
}


def sorted_records(records, column, descending):
    """The season's table sorted by ``column``; equals by points a hand, then by name; those without the
    figure (no hand played, no game finished) last either way, and by rating, provisional ratings below the
    settled ones either way (docs/ratings.md)."""
    ordered = sorted(records, key=lambda record: (record.figures.points_per_hand is None,
                                                  record.figures.points_per_hand or 0, name_rules.key(record.name)))
    groups = [[record for record in ordered if column_value(record, column) is not None]]
    if column == "rating":
        groups = [[record for record in groups[0] if not record.provisional],
                  [record for record in groups[0] if record.provisional]]
    unknown = [record for record in ordered if column_value(record, column) is None]
    return [record for group in groups
            for record in sorted(group, key=lambda record: column_value(record, column), reverse=descending)] + unknown


def settled(records):
    """The records of ``records`` whose rating is settled: the season's table with provisional ones hidden."""
    return [record for record in records if not record.provisional]


def column_value(record, column):
    """A record's figure in one column of the season's table (None: it has none), comparable within it."""
    if column == "name":
        return name_rules.key(record.name)
    if column == "best":
        return None if record.best_finish is None else record.best_finish.best_key()
    if column == "worst":
        return None if record.worst_finish is None else record.worst_finish.worst_key()
    if column == "rating":
        return record.rating.shown
    return getattr(record.figures, column)


def figure_text(record, column, locale=None):
    """A record's figure in ``column`` as the page writes it: in the reader's digits (or ``locale``'s), a dash
    for none; a game as its place among the players at its end and its margin ("1/8 +12")."""
    if column == "points_per_hand":
        return one_decimal(record.figures.points_per_hand, locale)
    if column == "rating":
        shown = rating_text(record.rating, locale)
        return f"{shown}?" if record.provisional else shown  # lichess's mark of a provisional rating
    if column == "win_rate":
        return percent(record.figures.win_rate, locale)
    if column in ("best", "worst"):
        finish = record.best_finish if column == "best" else record.worst_finish
        if finish is None:
            return "–"
        sign = "+" if finish.margin > 0 else ("−" if finish.margin < 0 else "±")
        place, seated, margin = (number(value, locale) for value in (finish.place, finish.seated, abs(finish.margin)))
        return f"{place}/{seated} {sign}{margin}"
    value = column_value(record, column)
    return "–" if value is None else number(value, locale)


def rating_text(rating, locale=None):
    """A rating's figure as the pages write it: one decimal, in the reader's digits (or ``locale``'s)."""
    return one_decimal(rating.rounded(rating.shown, 1), locale)


def figure_texts(record):
    """A record's figures in every column of the season's table but its name, as the page writes them in the
    request's language (looked up once)."""
    locale = get_locale()
    return tuple(figure_text(record, column, locale) for column in COLUMNS if column != "name")


def csv_cell(record, column):
    """A record's figure in ``column`` as /players.csv writes it, whatever the page's language: numbers
    plain ("12.3", a win rate as a share: "0.6667"), a game as on the page ("1/8 +12"), empty for none."""
    if column == "name":
        return record.name
    if column == "rating":
        return record.rating.rounded(record.rating.shown, 1)
    if column == "provisional":
        return "yes" if record.provisional else "no"
    if column in ("best_name", "best_day"):
        finish = record.best_finish
        if finish is None:
            return None
        return finish.game_name if column == "best_name" else finish.played_on.isoformat()
    if column == "points_per_hand":
        return record.figures.points_per_hand
    if column == "win_rate":
        rate = record.figures.win_rate
        return None if rate is None else round(Decimal(rate.numerator) / rate.denominator, 4)
    if column in ("best", "worst"):
        finish = record.best_finish if column == "best" else record.worst_finish
        return None if finish is None else f"{finish.place}/{finish.seated} {finish.margin:+d}"
    return column_value(record, column)


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
    counted = select(Game.id).where(Game.counted)
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

"""The club's ratings: a figure of each person's skill that knows whom they beat (issue 26).

Every finished game the season counts rates the players at its table at its
end, in the order the games were played (the day, then the order they were
made here), ranked by their final totals: the lowest first, equal totals
sharing a rank (R16), as ``rules.finishes`` places them. The model is
openskill's Plackett-Luce with its default settings: everyone starts at
``mu`` 25 with an uncertainty ``sigma`` of 25/3, and each game moves ``mu``
by how far its result differs from what the ratings expected, more while
``sigma`` is large, and shrinks ``sigma``. The figure shown is
``mu - 3 * sigma``: the skill the club can be fairly sure of, 0 for someone
new, growing as games show it (see docs/ratings.md).

Like every figure it follows the recorded hands: the ratings are kept in the
database (a person's now, and each player's after each game) and follow a
game that finishes after every other by rating that one game; any other
change a rating depends on (a correction to a finished game's places, a
void, a merge, a game dated earlier) has them worked out again from the
first game when they are next read (``Club.ratings_version``, ``refreshing.rated_again_if_need_be``).
"""

import itertools
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import cast

from openskill.models import PlackettLuce
from sqlalchemy import Table, and_, bindparam, select, update

from ..db.models import COUNTED, Club, Game, GameFigures, PersonFigures, SeatFigures, db

MODEL = PlackettLuce()  # openskill's default settings: mu 25, sigma 25/3, beta 25/6, tau 25/300
CLUB = 1  # the one row of ``Club``


@dataclass(frozen=True)
class Rating:
    """A person's rating: their skill ``mu`` and its uncertainty ``sigma``."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self):
        """The figure the season's table shows and sorts by: the skill the club can be fairly sure of."""
        return self.mu - 3 * self.sigma

    def rounded(self, value, places):
        """``value`` (a figure of this rating) to ``places`` decimals, halves away from zero, as every page,
        file and answer writes it."""
        step = Decimal(1).scaleb(-places)
        return Decimal(repr(value)).quantize(step, ROUND_HALF_UP)


NEW = Rating()  # everyone's rating before their first rated game

# A rating is provisional (marked "?", sorted below the settled ones, and hidden on asking) while the club
# knows too little of it: its uncertainty above PROVISIONAL_SIGMA (everyone starts at 25/3, about 8.33), or
# fewer than FEWEST_FINISHED finished games. At tables of 8, a mid-table player settles after about 6 games,
# one who always wins or always loses after about 15: the model is least sure how far such a skill reaches
# (docs/ratings.md has the measurements, and openskill's manual and lichess's "?" as the models).
PROVISIONAL_SIGMA = 8.0
FEWEST_FINISHED = 5


def provisional(rating, finished):
    """Whether ``rating``, of someone with ``finished`` finished games, is still provisional."""
    return rating.sigma > PROVISIONAL_SIGMA or finished < FEWEST_FINISHED


def rated(before, table):
    """The ratings after one game: ``table`` is its players at the end, each ``(person, place)`` (1 is the win,
    equal totals share a place); ``before`` maps people to their ratings so far (``NEW`` if absent). Returns
    ``{person: Rating}`` for the players of the table."""
    teams = [[MODEL.rating(mu=before.get(person, NEW).mu, sigma=before.get(person, NEW).sigma)]
             for person, _place in table]
    after = MODEL.rate(teams, ranks=[place for _person, place in table])
    return {person: Rating(team[0].mu, team[0].sigma) for (person, _place), team in zip(table, after)}


def rate_in_order(results):
    """Every game of ``results`` rated in the order given: each is ``(game id, [(seat, person, place)])``.

    Returns each person's rating after the last, and each ``(game id, seat)``'s rating after its game.
    """
    now, after_game = {}, {}
    for game_id, seats in results:
        table = [(person, place) for _seat, person, place in seats]
        now.update(rated(now, table))
        for seat, person, _place in seats:
            after_game[(game_id, seat)] = now[person]
    return now, after_game


def counted_results(condition):
    """The finished games the season counts that meet ``condition`` (on ``Game``), in the order played, each
    ``(game id, [(seat, person, place)])``: one statement."""
    rows = db.session.execute(
        select(SeatFigures.game_id, SeatFigures.seat, SeatFigures.person_id, SeatFigures.place)
        .join(Game, and_(Game.id == SeatFigures.game_id, Game.revision == SeatFigures.revision))
        .where(condition, SeatFigures.counted, SeatFigures.place.is_not(None), SeatFigures.person_id.is_not(None))
        .order_by(Game.played_on, Game.id, SeatFigures.seat))
    return [(game_id, [(row.seat, row.person_id, row.place) for row in seats])
            for game_id, seats in itertools.groupby(rows, key=lambda row: row.game_id)]


def ratings_of(condition):
    """Each person's rating over the games meeting ``condition`` alone (a filtered season rates only its
    games), worked out now: ``{person id: Rating}``."""
    return rate_in_order(counted_results(condition))[0]


# Core statements (not the ORM's bulk update by primary key), run once for many rows. A model's __table__ is
# typed as anything a class may be mapped to; these two are mapped to tables.
SET_SEAT_RATING = (update(cast(Table, SeatFigures.__table__))
                   .where(SeatFigures.game_id == bindparam("game"), SeatFigures.seat == bindparam("at"))
                   .values(mu=bindparam("mu"), sigma=bindparam("sigma")))
_SET_PERSON_RATING = (update(cast(Table, PersonFigures.__table__))
                      .where(PersonFigures.person_id == bindparam("person"))
                      .values(mu=bindparam("mu"), sigma=bindparam("sigma")))


def set_people_ratings(ratings):
    """Keep each person's rating of ``ratings`` (``{person: Rating}``): one statement."""
    db.session.execute(_SET_PERSON_RATING, [{"person": person, "mu": rating.mu, "sigma": rating.sigma}
                                            for person, rating in ratings.items()],
                       execution_options={"synchronize_session": False})


def rate_if_latest(game_id, table):
    """The game ``game_id`` has just finished with ``table`` (``[(person, place)]``): if the kept ratings are
    up to date and no counted finished game was played after it, rate this one game on them and keep the
    new ratings, returning them; else None (the caller has them worked out again: ``rate_again_later``)."""
    version, done = db.session.execute(select(Club.ratings_version, Club.rated_version).where(Club.id == CLUB)).one()
    if done < version:
        return None
    this = select(Game.played_on, Game.id).where(Game.id == game_id).subquery()
    later = db.session.execute(
        select(Game.id).join(GameFigures, and_(GameFigures.game_id == Game.id, GameFigures.over))
        .where(COUNTED, Game.id != game_id,
               (Game.played_on > this.c.played_on) | ((Game.played_on == this.c.played_on) & (Game.id > this.c.id)))
        .limit(1)).first()
    if later is not None:
        return None
    people = [person for person, _place in table]
    before = {person: Rating(mu, sigma) for person, mu, sigma in db.session.execute(
        select(PersonFigures.person_id, PersonFigures.mu, PersonFigures.sigma)
        .where(PersonFigures.person_id.in_(people), PersonFigures.mu.is_not(None)))}
    after = rated(before, table)
    set_people_ratings(after)
    return after


def rate_again_later():
    """A change the ratings cannot follow one game at a time: they are worked out again when next read."""
    db.session.execute(update(Club).where(Club.id == CLUB).values(ratings_version=Club.ratings_version + 1),
                       execution_options={"synchronize_session": False})

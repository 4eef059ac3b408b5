"""A club night (R18), through the one door: a night opened, people checked in (a late arrival for the next
round) or seen off, each round drawn into tables, a game each, all in one transaction, and a round closed
before every table finished; and the night as it stands, derived from its tables' games' hands (R17): each
table's progress, each player's shares, the standing. Nothing derived is stored: a correction to a table's
hand flows into the night at once.
"""

from dataclasses import dataclass

from sqlalchemy import func, insert, select, update

from .. import rules
from ..db.models import (
    GAME_NAME_LENGTH,
    Game,
    Night,
    NightPlayer,
    NightRound,
    NightTable,
    Person,
    Player,
    db,
    today,
    utcnow,
)
from .errors import NightRefused
from .games import GameFacts, as_typed, check_game, insert_game
from .kept import kept_game
from .people import people_of
from .writing import inserted, writing


def open_night(name, target=rules.DEFAULT_TARGET, deals=None, played_on=None):
    """Open a night named ``name`` on ``played_on`` (today), its tables playing to ``target`` (R16), a round
    being ``deals`` deals (None: every player deals once, R18 c). Its id."""
    rules.check_target(target)
    if deals is not None:
        rules.round_length(rules.MIN_PLAYERS, deals)
    with writing(creating=True):
        return inserted(Night, [{"name": name, "target": target, "deals": deals,
                                 "played_on": played_on or today()}])[0]


def check_in(night_id, names):
    """Check in the people of ``names`` (typed: found by any spelling, new ones made) for the next round
    (R18 f: someone who arrives late joins the next draw); one checked in before who left comes back. Their
    ids, in order; ``NightRefused("no_night")`` if there is no such night."""
    with writing():
        _night(night_id)
        people = people_of(names, typed=True)
        after = _rounds_drawn(night_id)
        here = dict(db.session.execute(
            select(NightPlayer.person_id, NightPlayer.left_after)
            .where(NightPlayer.night_id == night_id, NightPlayer.person_id.in_(people))).all())
        for person in people:
            if person not in here:
                db.session.execute(insert(NightPlayer).values(night_id=night_id, person_id=person,
                                                               from_round=after + 1, left_after=None))
            elif here[person] is not None:  # back after leaving: drawn again from the next round
                db.session.execute(update(NightPlayer).where(NightPlayer.night_id == night_id,
                                                             NightPlayer.person_id == person)
                                   .values(from_round=after + 1, left_after=None))
    return people


def see_off(night_id, person_id):
    """``person_id`` leaves the night after the rounds drawn so far (R18 f): drawn no more, ranked on the
    rounds they finished. ``NightRefused("not_here")`` if they are not checked in."""
    with writing():
        if not db.session.execute(
                update(NightPlayer).where(NightPlayer.night_id == night_id, NightPlayer.person_id == person_id,
                                          NightPlayer.left_after.is_(None))
                .values(left_after=_rounds_drawn(night_id)), execution_options={"synchronize_session": False}).rowcount:
            raise NightRefused("not_here")


def next_draw(night_id):
    """The people the next round draws (checked in for it, not gone), by id."""
    coming = _rounds_drawn(night_id) + 1
    return sorted(db.session.execute(
        select(NightPlayer.person_id).where(NightPlayer.night_id == night_id, NightPlayer.from_round <= coming,
                                            NightPlayer.left_after.is_(None))).scalars())


@dataclass(frozen=True)
class Table:
    """A table of a round as it stands: its number, its game, the people at it by roster number, and its
    round (``rules.TableRound``)."""

    number: int
    game_id: int
    people: tuple
    round: rules.TableRound


@dataclass(frozen=True)
class Round:
    """A round of a night as it stands: its number, seed, the neighbours its draw repeated, whether the
    director closed it, and its tables."""

    number: int
    seed: int
    repeated: int
    closed: bool
    tables: tuple[Table, ...]

    @property
    def over(self):
        """Whether the round is over: every table finished, or the director closed it (R18 f)."""
        return self.closed or all(table.round.over for table in self.tables)


def night_rounds(night_id):
    """The night's rounds as they stand, oldest first, each table's progress derived from its game's hands."""
    night = _night(night_id)
    rows = db.session.execute(
        select(NightRound.number, NightRound.seed, NightRound.repeated, NightRound.closed_at, NightTable.number,
               NightTable.game_id)
        .join(NightTable, NightTable.round_id == NightRound.id)
        .where(NightRound.night_id == night_id).order_by(NightRound.number, NightTable.number)).all()
    # Each table's game as this process keeps it for its revision (service.kept): the night's page reads
    # every table again and again, and pays for a game only when its revision moved.
    boards = {game_id: kept_game(game_id, revision, key).board for game_id, revision, key in db.session.execute(
        select(Game.id, Game.revision, Game.scorer_key).where(Game.id.in_({row[5] for row in rows})))}
    people = {}
    for game_id, seat, person in db.session.execute(
            select(Player.game_id, Player.seat, Player.person_id).where(Player.game_id.in_(boards))):
        people.setdefault(game_id, {})[seat] = person
    rounds = {}
    for number, seed, repeated, closed_at, table, game_id in rows:
        seated = people[game_id]
        made = Table(table, game_id, tuple(seated[seat] for seat in sorted(seated)),
                     rules.table_round(boards[game_id], night.deals))
        rounds.setdefault(number, (seed, repeated, closed_at is not None, []))[3].append(made)
    return tuple(Round(number, seed, repeated, closed, tuple(tables))
                 for number, (seed, repeated, closed, tables) in rounds.items())


def draw_next_round(night_id, sizes, seed):
    """Draw the night's next round (R18 a, b): the people ``next_draw`` gives, at tables of ``sizes`` (one of
    ``rules.table_splits`` of them), their seats and first dealers drawn from ``seed`` preferring people who
    have not sat side by side that night; a game each table, named for the night, the round and the table, all
    in one transaction. The round's number. ``NightRefused``: "round_open" (a table of the last round has not
    finished and the round is not closed), "too_few" (fewer than a table), "split" (``sizes`` is not an even
    split of the people drawn)."""
    night = _night(night_id)
    before = night_rounds(night_id)
    if before and not before[-1].over:
        raise NightRefused("round_open")
    people = next_draw(night_id)
    if len(people) < rules.MIN_PLAYERS:
        raise NightRefused("too_few")
    if tuple(sizes) not in rules.table_splits(len(people)):
        raise NightRefused("split")
    earlier = frozenset().union(*(rules.neighbours(table.people) for past in before for table in past.tables))
    drawn = rules.draw_round(people, sizes, seed, earlier)
    names = dict(db.session.execute(select(Person.id, Person.name).where(Person.id.in_(people))).all())
    number = len(before) + 1
    with writing(creating=True):
        round_id = inserted(NightRound, [{"night_id": night_id, "number": number, "seed": seed,
                                          "repeated": drawn.repeated}])[0]
        for table_number, table in enumerate(drawn.tables, start=1):
            facts = GameFacts(_table_name(night.name, number, table_number, len(drawn.tables)), night.target,
                              table.first_dealer, tuple(names[person] for person in table.seating),
                              played_on=night.played_on)
            game = insert_game(as_typed(check_game(facts)), typed=True)
            db.session.execute(insert(NightTable).values(round_id=round_id, number=table_number, game_id=game.id))
    return number


def close_round(night_id, number):
    """Close round ``number`` before every table finished (R18 f): a table counts as it stood after its last
    recorded hand. ``NightRefused("no_round")`` if the night has no such round open."""
    with writing():
        if not db.session.execute(
                update(NightRound).where(NightRound.night_id == night_id, NightRound.number == number,
                                         NightRound.closed_at.is_(None)).values(closed_at=utcnow()),
                execution_options={"synchronize_session": False}).rowcount:
            raise NightRefused("no_round")


def standing(night_id, rounds=None):
    """The night's standing (R18 d, e, f): every player's results of the rounds over at their table (or closed
    by the director, a table counting as it stood), as ``rules.night_standing`` ranks them, by person id."""
    results = {}
    for past in rounds if rounds is not None else night_rounds(night_id):
        for table in past.tables:
            if not (table.round.over or past.closed) or not table.round.hands:
                continue
            for seat, result in zip(table.round.seating, rules.round_results(table.round.totals, table.round.hands)):
                results.setdefault(table.people[seat], []).append(result)
    return rules.night_standing(results)


def _night(night_id):
    night = db.session.get(Night, night_id)
    if night is None:
        raise NightRefused("no_night")
    return night


def _rounds_drawn(night_id):
    return db.session.execute(select(func.count()).select_from(NightRound)
                              .where(NightRound.night_id == night_id)).scalar()


def _table_name(night, round_number, table, tables):
    """A table's game as the games list shows it: the night's name, then round.table in figures, which read
    the same in every language ("Friday · 2.1"; a night of one table: "Friday · 2"), the night's name cut to
    leave room for them."""
    suffix = f" · {round_number}.{table}" if tables > 1 else f" · {round_number}"
    return night[:GAME_NAME_LENGTH - len(suffix)].rstrip() + suffix

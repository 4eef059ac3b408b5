"""A night's standing checked against a reckoning of its own (R18 d, e, f): 20 people over 3 rounds through
the service, every hand recorded through the test client, a late arrival, a leaver, a hand played past a
round's length and a round closed before every table finished. The standing the service derives equals the
one worked out here from the takings posted and the seats drawn, in fractions, with none of the rules
module's functions."""

import random
from fractions import Fraction
from typing import NamedTuple

from sqlalchemy import select

from scorekeeper import service
from scorekeeper.db.models import NightRound, NightTable, Person, Player, db

from .tabletop import make_scorer, record_hand

HEARTS, MARIAS = 26, 2  # in a hand of the double deck (R14)
HEART_POINTS, MARIA_POINTS = 1, 13  # R14
# The takings' seed: a night whose mean shares are level, told apart by each tie-break (one seed in some 40
# does both). The night is the same on every database: the same ids, the seats read in seat order.
SEED = 38
DEALS = 2  # the round's length the night agreed (R18 c)
FIRST = [f"Regular {letter}" for letter in "ABCDEFGHIJKLMNOPQRS"]  # 19 at the start
# Two who take nothing all night: wherever they sit, each round gives them the same line (the lowest alone
# where one of them sits among takers, level with the other where they share a table), so they share a place.
QUIET = FIRST[:2]
LATE = "Late Lou"  # checked in while round 1 plays: drawn from round 2
SEEDS = {1: 1801, 2: 1802, 3: 1803}  # each round's seed, as the director typed it
SPLITS = {1: (7, 6, 6), 2: (7, 7, 6), 3: (10, 9)}  # 19, then 20 with the late arrival, then 19 once one left


def takings(rng, seats, quiet=()):
    """One hand's takings in seat order, (hearts, Black Marias) a seat: the seats ``quiet`` take nothing, every
    other seat a heart at least, the rest of the cards spread at random, some seats taking far more than
    others (so totals vary widely, and some tie)."""
    takers = [seat for seat in range(seats) if seat not in quiet]
    weights = [rng.choice((1, 1, 2, 6)) for _seat in takers]
    counts = [[0, 0] for _seat in range(seats)]
    for heart in range(HEARTS):
        counts[takers[heart] if heart < len(takers) else rng.choices(takers, weights)[0]][0] += 1
    for _maria in range(MARIAS):
        counts[rng.choices(takers, weights)[0]][1] += 1
    assert all(hearts < HEARTS for hearts, _marias in counts), "nobody shoots the moon here (R15)"
    return [tuple(seat) for seat in counts]


def seats_of(game_id):
    """The people of a game by roster number, read from its rows."""
    # In seat order: the leaver is the first of a table not quiet, on every database (rows come unordered).
    return dict(db.session.execute(select(Player.seat, Player.person_id).where(Player.game_id == game_id)
                                   .order_by(Player.seat)).all())


def round_games(night, number):
    """The games of round ``number``'s tables, by table."""
    return db.session.execute(select(NightTable.game_id).join(NightRound, NightRound.id == NightTable.round_id)
                              .where(NightRound.night_id == night, NightRound.number == number)
                              .order_by(NightTable.number)).scalars().all()


def play(app, client, night, number, rng, hands_at, posted, quiet):
    """Table by table, record ``hands_at(table)`` hands of round ``number``, the people ``quiet`` taking
    nothing, keeping what was posted (by game: its seats, its hands' takings)."""
    with app.app_context():
        games = [(game, seats_of(game)) for game in round_games(night, number)]
    for table, (game, seats) in enumerate(games, start=1):
        make_scorer(app, client, game)
        posted.setdefault(number, {})[game] = (seats, [])
        for _hand in range(hands_at(table)):
            hand = takings(rng, len(seats), [seat for seat, person in seats.items() if person in quiet])
            record_hand(client, game, hand)
            posted[number][game][1].append(hand)


class Line(NamedTuple):
    """A player's line of the standing, as compared here."""

    place: int
    score: Fraction  # the mean share
    shares: tuple  # by round, None where they did not play it
    rounds: int
    won: int  # rounds won outright
    points: int
    points_per_hand: Fraction


def reckoned(posted, length):
    """The standing worked out from ``posted`` (round -> game -> (seats, hands)): each table's totals over the
    round's first ``length`` hands (fewer if it was closed), each player's share of the table that beat them,
    the mean share, the rounds won outright (the lowest alone), points a hand, and the place: one more than
    the players strictly ahead (lower mean share, or level and more rounds won, or level again and fewer
    points a hand). By person."""
    played = {}  # person -> round -> (share, won outright, points, hands)
    for number, tables in posted.items():
        for seats, hands in tables.values():
            counted = hands[:length]
            if not counted:
                continue
            totals = {seat: sum(hand[seat][0] * HEART_POINTS + hand[seat][1] * MARIA_POINTS for hand in counted)
                      for seat in seats}
            for seat, person in seats.items():
                others = [total for other, total in totals.items() if other != seat]
                below = sum(1 for total in others if total < totals[seat])
                level = sum(1 for total in others if total == totals[seat])
                share = (below + Fraction(level, 2)) / len(others)
                alone_lowest = all(total > totals[seat] for total in others)
                played.setdefault(person, {})[number] = (share, alone_lowest, totals[seat], len(counted))
    unplaced = {}
    for person, rounds in played.items():
        results = list(rounds.values())
        points = sum(points for _share, _won, points, _hands in results)
        unplaced[person] = Line(
            0, sum((share for share, _won, _points, _hands in results), Fraction(0)) / len(results),
            tuple(rounds[number][0] if number in rounds else None for number in sorted(posted)), len(results),
            sum(1 for _share, won, _points, _hands in results if won), points,
            Fraction(points, sum(hands for _share, _won, _points, hands in results)))

    def ahead(line, other):
        return (other.score, -other.won, other.points_per_hand) < (line.score, -line.won, line.points_per_hand)

    return {person: line._replace(place=1 + sum(1 for other in unplaced.values() if ahead(line, other)))
            for person, line in unplaced.items()}


def test_the_standing_equals_an_independent_reckoning_of_the_shares_and_tie_breaks(app, client):
    rng = random.Random(SEED)
    with app.app_context():
        night = service.nights.open_night("Checked night", target=10_000, deals=DEALS)
        people = dict(zip(FIRST, service.nights.check_in(night, FIRST)))
        service.nights.draw_next_round(night, SPLITS[1], SEEDS[1])
        [late] = service.nights.check_in(night, [LATE])  # arrives while round 1 plays (R18 f)
    posted, quiet = {}, {people[name] for name in QUIET}
    play(app, client, night, 1, rng, lambda table: DEALS, posted, quiet)
    with app.app_context():
        service.nights.draw_next_round(night, SPLITS[2], SEEDS[2])
        leaver = next(person for person in seats_of(round_games(night, 2)[0]).values() if person not in quiet)
        service.nights.see_off(night, leaver)  # leaves after round 2, which they play (R18 f)
    # Table 1 plays a hand past the round's length: it belongs to no round (R18 c).
    play(app, client, night, 2, rng, lambda table: DEALS + (table == 1), posted, quiet)
    with app.app_context():
        service.nights.draw_next_round(night, SPLITS[3], SEEDS[3])
    play(app, client, night, 3, rng, lambda table: DEALS if table == 1 else 1, posted, quiet)  # table 2: 1 hand
    with app.app_context():
        service.nights.close_round(night, 3)  # it counts as it stood after its last hand (R18 f)

        standing = service.nights.standing(night)
        names = dict(db.session.execute(select(Person.id, Person.name)).all())

    expected = reckoned(posted, DEALS)
    assert {line.person: Line(line.place, line.share, line.shares, line.rounds, line.won, line.points,
                              line.points_per_hand) for line in standing} == expected
    assert [line.place for line in standing] == sorted(expected[line.person].place for line in standing)
    assert sorted(names[person] for person in expected) == sorted([*FIRST, LATE])  # 20 people
    assert expected[late].shares[0] is None and expected[late].rounds == 2
    assert expected[leaver].shares[2] is None and expected[leaver].rounds == 2
    # What the night exercises: a shared place, and level mean shares told apart by each tie-break.
    assert expected[people[QUIET[0]]] == expected[people[QUIET[1]]] and expected[people[QUIET[0]]].place == 1
    lines = list(expected.values())
    assert any(a.score == b.score and a.won > b.won for a in lines for b in lines)
    assert any(a.score == b.score and a.won == b.won and a.points_per_hand < b.points_per_hand
               for a in lines for b in lines)

"""A player's figures in a game and over many (the club's memory, R14-R17), against a plain model."""

import random
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    Figures,
    Finish,
    HandRecord,
    Join,
    Leave,
    Moon,
    Taken,
    finishes,
    game_figures,
    score_game,
    score_next_hand,
)

from ..profiles import examples
from ..tabletop import HandMix, random_hand

MOON_HAND = Taken(26, 2)


def plain_figures(players, first_dealer, target, records):
    """Each seat's figures worked out by hand with the seeds' scoring, for a table nobody joins or leaves."""
    counts = [dict(hands=0, points=0, zero=0, subtracted=0, added=0, hearts=0, marias=0) for _seat in range(players)]
    totals = [0] * players
    for record in records:
        shooter = next((seat for seat, taken in enumerate(record.taken) if taken == MOON_HAND), None)
        for seat, taken in enumerate(record.taken):
            if shooter is None:
                points = taken.hearts + 13 * taken.marias
            elif record.moon is Moon.SUBTRACT:
                points = -26 if seat == shooter else 0
            else:
                points = 0 if seat == shooter else 26
            mine = counts[seat]
            mine["hands"] += 1
            mine["points"] += points
            mine["zero"] += points == 0
            mine["hearts"] += taken.hearts
            mine["marias"] += taken.marias
            if seat == shooter:
                mine["subtracted" if record.moon is Moon.SUBTRACT else "added"] += 1
            totals[seat] += points
    over = max(totals) >= target
    return tuple(
        Figures(1, int(over), int(over and totals[seat] == min(totals)), mine["hands"], mine["points"],
                mine["zero"], mine["subtracted"], mine["added"], mine["hearts"], mine["marias"])
        for seat, mine in enumerate(counts))


@settings(max_examples=examples(300))
@given(seed=st.integers(0, 2**32), players=st.integers(6, 11), target=st.sampled_from([20, 60, 150, 10**6]),
       length=st.integers(0, 14))
def test_a_games_figures_match_the_plain_model(seed, players, target, length):
    chance = random.Random(seed)
    first_dealer = chance.randrange(players)
    records = []
    while len(records) < length and not score_game(players, first_dealer, target, records).over:
        records.append(random_hand(chance, players, len(records) + 1, first_dealer, HandMix(played=0))[0])

    figures = game_figures(score_game(players, first_dealer, target, records))

    assert figures == plain_figures(players, first_dealer, target, records)


def test_a_joiner_counts_the_hands_they_played_but_not_their_start_and_a_leaver_cannot_win():
    hand = tuple(Taken(hearts, marias) for hearts, marias in [(6, 0), (4, 1), (4, 0), (4, 0), (4, 1), (4, 0)])
    moon = (MOON_HAND,) + (Taken(0, 0),) * 6
    changes = [Join(2, 6, 0, 40), Leave(3, 1)]

    board = score_game(6, 0, 60, [HandRecord(hand), HandRecord(moon, Moon.ADD), HandRecord(hand)], changes=changes)
    figures = game_figures(board)

    joiner, leaver = figures[6], figures[1]
    assert (joiner.hands, joiner.points, joiner.moons_added, joiner.hearts, joiner.marias) == (2, 6, 1, 32, 2)
    assert board.totals[6] == 46  # the start of 40 is in the total, not in the points
    assert (leaver.hands, leaver.points, leaver.finished, leaver.wins) == (2, 43, 1, 0)
    assert sum(figure.wins for figure in figures) == len(board.winners) >= 1


@given(figures=st.lists(st.builds(Figures, *(st.integers(-50, 50) for _field in range(10))), max_size=6))
def test_figures_add_up_field_by_field(figures):
    total = sum(figures, Figures())

    assert total.points == sum(figure.points for figure in figures)
    assert total.moons == sum(figure.moons_subtracted + figure.moons_added for figure in figures)


@given(points=st.integers(-10**6, 10**6), hands=st.integers(1, 10**4))
def test_points_a_hand_are_rounded_half_away_from_zero_to_one_decimal(points, hands):
    exact = Fraction(points, hands) * 10
    whole, rest = divmod(abs(exact), 1)
    tenths = whole + (rest >= Fraction(1, 2))

    assert Figures(hands=hands, points=points).points_per_hand == Decimal(int(tenths) * (1 if exact >= 0 else -1)) / 10


@settings(max_examples=examples(200))
@given(seed=st.integers(0, 2**32), players=st.integers(6, 11), target=st.sampled_from([60, 150, 10**6]),
       length=st.integers(1, 14))
def test_a_games_figures_tallied_one_hand_at_a_time_are_its_figures_tallied_at_once(seed, players, target, length):
    chance = random.Random(seed)
    first_dealer = chance.randrange(players)
    board = score_game(players, first_dealer, target, [])
    figures = game_figures(board)
    while len(board.hands) < length and not board.over:
        record = random_hand(chance, players, len(board.hands) + 1, first_dealer, HandMix(played=0))[0]
        board = score_next_hand(board, record)

        figures = game_figures(board, before=figures)

        assert figures == game_figures(board)


def test_finishes_place_each_player_at_the_table_at_the_end_with_their_margin_and_not_who_left():
    seven = tuple(Taken(hearts, marias) for hearts, marias in [(6, 0), (4, 1), (4, 0), (4, 0), (4, 1), (4, 0), (0, 0)])
    six = tuple(Taken(hearts, marias) for hearts, marias in [(1, 0), (5, 1), (5, 0), (5, 0), (5, 1), (5, 0)])
    board = score_game(7, 0, 39, [HandRecord(seven), HandRecord(six), HandRecord(six)], changes=[Leave(2, 1)])
    assert board.totals == (8, 17, 40, 14, 27, 40, 10) and board.winners == (0,)

    placed = finishes(board)

    assert placed[1] is None  # left after hand 1: 17 points, no place
    assert placed[0] == Finish(1, 6, 2)  # 2 ahead of the next lowest, 10
    assert placed[6] == Finish(2, 6, -2)
    assert placed[2] == placed[5] == Finish(5, 6, -32)  # equal totals share a place
    assert finishes(score_game(6, 0, 10**6, [HandRecord(six)])) == (None,) * 6

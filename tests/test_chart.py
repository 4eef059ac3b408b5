"""The score chart: every hand while the game is short, the telling hands and a thin line after."""

import random

import pytest

from scorekeeper import rules
from scorekeeper.web.chart import (
    LABEL_GAP,
    LABEL_LOWEST,
    MOST_HANDS_DRAWN,
    MOST_TELLING_HANDS,
    TOP,
    _spread,
    drawn_hands,
    score_chart,
)

from .tabletop import ELEVEN, HandMix, random_hand


def walk(hands, players=11, seed=1):
    """Totals after each hand of a random game (hand 0 is the start)."""
    rng = random.Random(seed)
    totals = [(0,) * players]
    for _hand in range(hands):
        totals.append(tuple(total + rng.choice([0, 1, 2, 3, 13, 16]) for total in totals[-1]))
    return totals


def test_a_short_game_draws_every_hand():
    assert drawn_hands(walk(MOST_HANDS_DRAWN), 10_000) == list(range(MOST_HANDS_DRAWN + 1))


def test_a_long_game_keeps_the_ends_and_every_hand_that_changed_the_lowest_total():
    # Bo holds the lowest total from hand 57 to hand 122, Ana before and after.
    totals = [(h * 10 + 5, h * 10) if 57 <= h <= 122 else (h * 10, h * 10 + 5) for h in range(301)]

    drawn = drawn_hands(totals, 100_000)

    assert drawn[0] == 0 and drawn[-1] == 300
    assert {57, 123} <= set(drawn)
    assert len(drawn) <= MOST_HANDS_DRAWN + 4


def test_the_hand_that_reached_the_target_is_drawn():
    totals = [(h, h + 1) for h in range(201)]

    assert 137 in drawn_hands(totals, target=138)


def test_a_thousand_hands_draw_a_bounded_line():
    drawn = drawn_hands(walk(1000), 100_000)

    assert len(drawn) <= MOST_HANDS_DRAWN + MOST_TELLING_HANDS + 2
    assert drawn == sorted(set(drawn))


@pytest.mark.parametrize("ends", [
    [(214.0, seat) for seat in range(11)],  # eleven lines ending together at the bottom
    [(12.0, 0)] + [(214.0, seat) for seat in range(1, 11)],  # one at the top, ten at the bottom
    [(12.0 + 20 * seat, seat) for seat in range(11)],  # spread out already
    [(100.0, seat) for seat in range(6)],
])
def test_end_labels_never_overlap_and_stay_inside_the_chart(ends):
    heights = _spread(ends)

    placed = sorted(heights.values())
    assert set(heights) == {seat for _y, seat in ends}
    assert all(lower - upper >= LABEL_GAP for upper, lower in zip(placed, placed[1:]))
    assert TOP <= placed[0] and placed[-1] <= LABEL_LOWEST
    if ends == sorted(ends) and all(b[0] - a[0] >= LABEL_GAP for a, b in zip(ends, ends[1:])):
        assert heights == {seat: y for y, seat in ends}  # labels with room stay at their lines' ends


def test_a_chart_extended_hand_by_hand_is_the_chart_of_the_whole_game_scored_at_once():
    rng = random.Random(7)
    records = [random_hand(rng, 11, number, 0, HandMix(played=0))[0] for number in range(1, 131)]
    board = rules.score_game(11, 0, 1_500, [])
    for record in records:
        board = rules.score_next_hand(board, record)  # as a kept game grows: the earlier hands stay the same

        chart = score_chart(board, ELEVEN)

        if len(board.hands) % 13 == 0 or board.over:
            assert chart == score_chart(rules.score_game(11, 0, 1_500, records[:len(board.hands)]), ELEVEN)
        if board.over:
            break

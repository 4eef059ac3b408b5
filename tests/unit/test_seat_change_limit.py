"""At most ``MOST_SEAT_CHANGES`` players join or leave before one hand (R1): a bound no real table reaches."""

import pytest

from scorekeeper import rules
from scorekeeper.rules import Join, Leave, SeatingRefused

SPREAD = rules.HandRecord(tuple(rules.Taken(h, m) for h, m in [(5, 0), (5, 1), (4, 0), (4, 1), (4, 0), (4, 0)]))


def coming_and_going(pairs, before_hand=2, first=6):
    """``pairs`` joiners, each joining a table of six and leaving again before one hand."""
    changes = []
    for pair in range(pairs):
        changes += [Join(before_hand, first + pair, 0, 0), Leave(before_hand, first + pair)]
    return changes


def test_a_full_table_leaving_and_as_many_joining_is_the_most_one_hand_allows_r1():
    assert rules.MOST_SEAT_CHANGES == 2 * rules.MAX_PLAYERS == 22


def test_22_changes_before_one_hand_are_seated_r1():
    board = rules.score_game(6, 0, 150, [SPREAD], changes=coming_and_going(11))

    assert board.seating == (0, 1, 2, 3, 4, 5) and board.players == 17


def test_a_23rd_change_before_one_hand_is_refused_naming_it_r1():
    changes = coming_and_going(11) + [Join(2, 17, 0, 0)]

    with pytest.raises(SeatingRefused) as refused:
        rules.score_game(6, 0, 150, [SPREAD], changes=changes)

    assert refused.value.reason == "many" and refused.value.change == Join(2, 17, 0, 0)


def test_seatings_refuse_a_23rd_change_as_scoring_does_r1():
    with pytest.raises(SeatingRefused) as refused:
        rules.seatings(6, coming_and_going(12), 1, 150)

    assert refused.value.reason == "many" and refused.value.change == Join(2, 17, 0, 0)


def test_the_bound_is_per_hand_so_22_before_each_of_two_hands_are_seated_r1():
    changes = coming_and_going(11) + coming_and_going(11, before_hand=3, first=17)

    board = rules.score_game(6, 0, 150, [SPREAD, SPREAD], changes=changes)

    assert board.players == 28 and len(board.hands) == 2

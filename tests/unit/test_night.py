"""A club night's rules (R18): tables as even as possible, a round's seats drawn from a seed preferring new
neighbours, a round's length, a placing as the share of the table that beat you, the night's standing."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import MAX_PLAYERS, MIN_PLAYERS
from scorekeeper.rules.night import (
    RoundResult,
    draw_round,
    neighbours,
    night_standing,
    round_length,
    round_results,
    shares,
    table_splits,
)

# --- R18 a: tables ---------------------------------------------------------------------------------------


def test_the_issues_examples_split_as_it_says():
    assert table_splits(22) == ((11, 11), (8, 7, 7))
    assert table_splits(6) == ((6,),)
    assert table_splits(12) == ((6, 6),)
    assert table_splits(20) == ((10, 10), (7, 7, 6))
    assert table_splits(5) == ()


@given(st.integers(MIN_PLAYERS, 200))
def test_everyone_from_six_up_sits_at_tables_of_six_to_eleven_as_even_as_possible(present):
    splits = table_splits(present)

    assert splits, "nobody sits out (R18 a)"
    for split in splits:
        assert sum(split) == present
        assert all(MIN_PLAYERS <= size <= MAX_PLAYERS for size in split)
        assert max(split) - min(split) <= 1 and list(split) == sorted(split, reverse=True)
    assert [len(split) for split in splits] == sorted({len(split) for split in splits})  # fewest tables first


# --- R18 b: seats ----------------------------------------------------------------------------------------

PEOPLE = [f"P{number:02}" for number in range(22)]


def test_the_same_seed_and_people_give_the_same_draw_whatever_order_they_came_in():
    first = draw_round(PEOPLE, (8, 7, 7), seed=1234)
    again = draw_round(list(reversed(PEOPLE)), (8, 7, 7), seed=1234)
    other = draw_round(PEOPLE, (8, 7, 7), seed=1235)

    assert first == again and first.seed == 1234
    assert first.tables != other.tables
    assert [len(table.seating) for table in first.tables] == [8, 7, 7]
    assert sorted(person for table in first.tables for person in table.seating) == sorted(PEOPLE)
    assert all(0 <= table.first_dealer < len(table.seating) for table in first.tables)


@given(seed=st.integers(0, 10**9), present=st.integers(12, 33))
def test_a_second_round_seats_nobody_beside_a_first_rounds_neighbour_when_the_tables_allow(seed, present):
    people = PEOPLE[:present] + [f"Q{number}" for number in range(max(0, present - len(PEOPLE)))]
    sizes = table_splits(present)[-1]  # the most tables: the hardest to keep neighbours apart in few tries
    first = draw_round(people, sizes, seed)
    earlier = frozenset().union(*(neighbours(table.seating) for table in first.tables))

    second = draw_round(people, sizes, seed + 1, earlier)

    assert first.repeated == 0  # nobody sat anywhere before
    seated_again = sum(len(neighbours(table.seating) & earlier) for table in second.tables)
    assert second.repeated == seated_again == 0


def test_a_draw_says_how_many_neighbours_it_repeats_when_it_cannot_avoid_them():
    people = PEOPLE[:6]
    everyone_beside_everyone = frozenset(frozenset((a, b)) for a in people for b in people if a != b)

    drawn = draw_round(people, (6,), seed=7, earlier=everyone_beside_everyone)

    assert drawn.repeated == 6  # a table of six has six pairs of neighbours, every one met before


def test_a_draw_refuses_tables_that_do_not_seat_the_people_given():
    with pytest.raises(ValueError):
        draw_round(PEOPLE[:12], (6, 5), seed=1)
    with pytest.raises(ValueError):
        draw_round(PEOPLE[:12] + PEOPLE[:1], (7, 6), seed=1)


def test_neighbours_are_the_pairs_side_by_side_round_the_table():
    assert neighbours(("A", "B", "C", "D", "E", "F")) == {
        frozenset(pair) for pair in ("AB", "BC", "CD", "DE", "EF", "FA")}


# --- R18 c: length -----------------------------------------------------------------------------------------


def test_a_round_is_one_deal_each_unless_the_night_agreed_a_number():
    assert round_length(8) == 8 and round_length(11) == 11
    assert round_length(8, deals=5) == 5
    with pytest.raises(ValueError):
        round_length(8, deals=0)


# --- R18 d: placing by share ---------------------------------------------------------------------------------


def test_a_share_is_the_part_of_the_table_that_beat_you():
    assert shares([10, 20, 30, 40, 50, 60]) == (0, Fraction(1, 5), Fraction(2, 5), Fraction(3, 5), Fraction(4, 5), 1)
    assert shares([10, 10, 30, 40, 50, 60]) == (Fraction(1, 10), Fraction(1, 10), Fraction(2, 5), Fraction(3, 5),
                                                 Fraction(4, 5), 1)
    assert shares([7] * 8) == (Fraction(1, 2),) * 8


@given(st.lists(st.integers(-52, 150), min_size=MIN_PLAYERS, max_size=MAX_PLAYERS))
def test_shares_run_from_0_to_1_and_add_up_to_half_the_table_at_any_size(totals):
    table = shares(totals)

    assert all(0 <= share <= 1 for share in table)
    assert sum(table) == Fraction(len(totals), 2)  # each pair of players splits one between them
    for mine, theirs, my_total, their_total in ((a, b, totals[i], totals[j]) for i, a in enumerate(table)
                                               for j, b in enumerate(table)):
        assert (mine < theirs) == (my_total < their_total)  # a lower total, a better placing


def test_the_round_is_won_outright_only_by_the_lowest_total_alone():
    alone = round_results([3, 9, 9, 12, 20, 25], hands=6)
    shared = round_results([3, 3, 9, 12, 20, 25], hands=6)

    assert [result.won for result in alone] == [True, False, False, False, False, False]
    assert not any(result.won for result in shared)
    assert alone[0] == RoundResult(Fraction(0), True, 3, 6)


# --- R18 e, f: the standing ------------------------------------------------------------------------------------


def test_the_standing_is_the_mean_share_then_rounds_won_then_fewer_points_a_hand():
    rounds = {
        "Ana": [RoundResult(Fraction(0), True, 10, 6), RoundResult(Fraction(1, 2), False, 30, 6)],
        "Bo": [RoundResult(Fraction(1, 4), False, 20, 6), RoundResult(Fraction(1, 4), False, 20, 6)],
        "Cy": [RoundResult(Fraction(1, 4), False, 30, 6), RoundResult(Fraction(1, 4), False, 30, 6)],
        "Di": [RoundResult(Fraction(1, 4), False, 20, 6), RoundResult(Fraction(1, 4), False, 20, 6)],
        "Late": [RoundResult(Fraction(1, 10), False, 5, 6)],  # arrived for the second round (R18 f)
        "Nobody": [],
    }

    standing = night_standing(rounds)

    assert [(line.person, line.place) for line in standing] == [
        ("Late", 1), ("Ana", 2), ("Bo", 3), ("Di", 3), ("Cy", 5)]
    ana = standing[1]
    assert (ana.score, ana.rounds, ana.won, ana.points_per_hand) == (Fraction(1, 4), 2, 1, Fraction(40, 12))

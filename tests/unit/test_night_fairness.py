"""The draw's fairness over many nights (R18 a, b): drawn after the earlier rounds' neighbours, a night seats
people beside someone they sat beside before less often than a plain shuffle would; and every count of
people from six up is offered every even split of tables, and nothing else."""

import random
import statistics

import pytest

from scorekeeper.rules import MAX_PLAYERS, MIN_PLAYERS
from scorekeeper.rules.night import draw_round, neighbours, table_splits

NIGHTS = 200  # seeds
ROUNDS = 3
PEOPLE = [f"P{number:02}" for number in range(18)]


def seated(order, sizes):
    """``order`` cut into tables of ``sizes``, in turn."""
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(order[start:start + size]))
        start += size
    return tables


def repeated_over_a_night(draw, sizes):
    """The pairs of neighbours seated side by side again over a night of ``ROUNDS`` rounds, each round's
    tables given by ``draw(round, earlier)``."""
    earlier, repeated = frozenset(), 0
    for number in range(1, ROUNDS + 1):
        tables = draw(number, earlier)
        pairs = frozenset().union(*(neighbours(table) for table in tables))
        repeated += len(pairs & earlier)
        earlier |= pairs
    return repeated


@pytest.mark.parametrize("sizes", table_splits(len(PEOPLE)))  # (9, 9) and (6, 6, 6)
def test_over_many_nights_the_draw_repeats_fewer_neighbours_than_a_plain_shuffle(sizes):
    drawn, shuffled = [], []
    for seed in range(NIGHTS):
        def by_the_rules(number, earlier, seed=seed):
            return [table.seating for table in draw_round(PEOPLE, sizes, seed * 10 + number, earlier).tables]

        shuffle = random.Random(seed)

        def by_a_shuffle(_number, _earlier, shuffle=shuffle):
            order = list(PEOPLE)
            shuffle.shuffle(order)
            return seated(order, sizes)

        drawn.append(repeated_over_a_night(by_the_rules, sizes))
        shuffled.append(repeated_over_a_night(by_a_shuffle, sizes))

    assert statistics.mean(drawn) < statistics.mean(shuffled)
    assert statistics.mean(drawn) <= statistics.mean(shuffled) / 4  # not by a whisker: most nights repeat none
    assert sum(1 for count in drawn if count == 0) > NIGHTS / 2


def even_splits(present):
    """Every split of ``present`` people into tables of MIN_PLAYERS to MAX_PLAYERS that differ by one player
    at most, found by trying every number of tables and of larger tables: (tables, size, larger) with
    tables x size + larger = present."""
    return {tuple([size + 1] * larger + [size] * (tables - larger))
            for tables in range(1, present + 1) for size in range(MIN_PLAYERS, MAX_PLAYERS + 1)
            for larger in range(tables if size < MAX_PLAYERS else 1) if tables * size + larger == present}


def test_every_count_from_six_to_two_hundred_is_offered_every_even_split_and_only_those():
    # tests/unit/test_night.py checks, for counts Hypothesis picks, that each split offered is even and seats
    # six to eleven a table; here every count is checked, and that no even split is left out.
    for present in range(MIN_PLAYERS, 201):
        offered = table_splits(present)

        assert offered and set(offered) == even_splits(present), present
        assert len(set(offered)) == len(offered)

"""The club night's projection in the benchmark (bench/projection.py): its queueing arithmetic, which the
benchmark prints for a reader to check, checked here against the textbook forms it reduces to."""

import math

import pytest

from bench.club import P95_BUDGET
from bench.projection import Kind, Mix, erlang_c, load_at, most_tables

POLLS_AND_SAVES = Mix([Kind("poll", "state 304", 6.0, 0.0004), Kind("save", "record 40", 0.05, 0.020)])


def test_one_server_waits_with_the_chance_of_its_utilisation():
    assert erlang_c(1, 0.3) == pytest.approx(0.3)


def test_two_servers_wait_with_erlang_cs_closed_form():
    utilisation = 0.6

    assert erlang_c(2, 2 * utilisation) == pytest.approx(2 * utilisation**2 / (1 + utilisation))


def test_a_queue_at_its_capacity_always_waits():
    assert erlang_c(2, 2.0) == 1.0


def test_on_one_server_the_mean_wait_is_pollaczek_khinchines():
    tables = 40
    arrivals = tables * POLLS_AND_SAVES.rate
    second_moment = sum(kind.rate * kind.cpu**2 for kind in POLLS_AND_SAVES.kinds) / POLLS_AND_SAVES.rate
    utilisation = arrivals * POLLS_AND_SAVES.mean

    load = load_at(POLLS_AND_SAVES, 1, tables)

    assert load.utilisation == pytest.approx(utilisation)
    assert load.mean_wait == pytest.approx(arrivals * second_moment / (2 * (1 - utilisation)))


def test_the_dearest_kind_waits_the_waits_95th_percentile_on_top_of_its_own_cpu():
    load = load_at(POLLS_AND_SAVES, 1, 100)

    assert load.wait95 == pytest.approx(load.mean_wait / load.waiting_chance
                                        * math.log(load.waiting_chance / 0.05))
    assert load.p95 == pytest.approx(0.020 + load.wait95)


def test_the_tables_held_keep_the_p95_within_budget_and_one_more_does_not():
    held, one_more = most_tables(POLLS_AND_SAVES, 1)

    assert held.p95 <= P95_BUDGET < one_more.p95
    assert one_more.tables == held.tables + 1


def test_two_servers_hold_more_than_twice_the_tables_of_one():
    one, _ = most_tables(POLLS_AND_SAVES, 1)
    two, _ = most_tables(POLLS_AND_SAVES, 2)

    assert two.tables > 2 * one.tables


def test_a_kind_dearer_than_the_budget_holds_no_table():
    too_dear = Mix([Kind("save", "record 1000", 0.05, P95_BUDGET * 1.5)])

    held, _ = most_tables(too_dear, 2)

    assert held.tables == 0

"""Every reason the rules refuse one reported hand, listed at once (R13-R15), and check_hand raising the first."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    NOTHING,
    SEEDS,
    CardsUnaccounted,
    HandRecord,
    JacksNotPlayed,
    Moon,
    MoonChoiceNeeded,
    MoonNotAllowed,
    MoonRule,
    MoreThanTheHandHolds,
    NothingCollected,
    RuleError,
    Taken,
    Variant,
    check_hand,
    hand_problems,
)

from ..profiles import examples

JACKS = Variant(jack_of_diamonds=-10)
ONLY_ADD = Variant(moon_choice=MoonRule.ADD)
EMPTY = (NOTHING,) * 6


def facts(problem):
    """A problem as comparable facts: its type and the fields it carries."""
    return type(problem), vars(problem)


def listed(problems):
    return [facts(problem) for problem in problems]


def hand(*takings, players=6):
    """The given seats' takings, the rest of a table of ``players`` took nothing."""
    return tuple(takings) + (NOTHING,) * (players - len(takings))


# --- Several problems at once, in the order a table reads them ----------------------


@pytest.mark.parametrize("taken, variant, expected", [
    # One seat past the hand's hearts, and the table past its hearts and Black Marias (R14).
    (hand(Taken(27, 1), Taken(2, 2)), SEEDS, [
        MoreThanTheHandHolds("hearts", 27, 26, 0),
        MoreThanTheHandHolds("hearts", 29, 26), MoreThanTheHandHolds("marias", 3, 2),
    ]),
    # Seats in seat order; within a seat hearts, Black Marias, then J♦ that score nothing.
    (hand(Taken(27, 0, jacks=1), Taken(0, 3)), SEEDS, [
        MoreThanTheHandHolds("hearts", 27, 26, 0), JacksNotPlayed(0),
        MoreThanTheHandHolds("marias", 3, 2, 1),
        MoreThanTheHandHolds("hearts", 27, 26), MoreThanTheHandHolds("marias", 3, 2),
    ]),
    (hand(NOTHING, Taken(0, 0, jacks=1), Taken(26, 2, jacks=2)), SEEDS, [
        JacksNotPlayed(1), JacksNotPlayed(2),
    ]),
    # Where J♦ score they are counted like hearts and Black Marias.
    (hand(Taken(27, 3, jacks=3)), JACKS, [
        MoreThanTheHandHolds("hearts", 27, 26, 0), MoreThanTheHandHolds("marias", 3, 2, 0),
        MoreThanTheHandHolds("jacks", 3, 2, 0),
        MoreThanTheHandHolds("hearts", 27, 26), MoreThanTheHandHolds("marias", 3, 2),
        MoreThanTheHandHolds("jacks", 3, 2),
    ]),
    # Too many hides the rest: no CardsUnaccounted for the Black Marias nobody was given.
    (hand(Taken(20, 0), Taken(7, 0)), SEEDS, [MoreThanTheHandHolds("hearts", 27, 26)]),
])
def test_every_problem_of_a_hand_is_listed_seat_by_seat_then_the_totals_r14(taken, variant, expected):
    problems = hand_problems(taken, variant=variant)

    assert listed(problems) == listed(expected)


@pytest.mark.parametrize("taken, moon, reserved, variant, expected", [
    (hand(Taken(20, 1), Taken(6, 1)), None, False, SEEDS, []),
    (hand(Taken(20, 1)), None, True, SEEDS, []),
    (hand(Taken(20, 1)), None, False, SEEDS, [CardsUnaccounted(20, 1)]),
    (hand(Taken(20, 2, jacks=1), Taken(6, 0)), None, False, JACKS, [CardsUnaccounted(26, 2, 1)]),
    (hand(Taken(26, 2)), None, False, SEEDS, [MoonChoiceNeeded(0)]),
    (hand(NOTHING, Taken(26, 2)), Moon.SUBTRACT, False, ONLY_ADD, [MoonNotAllowed(Moon.SUBTRACT, Moon.ADD)]),
    (hand(Taken(26, 2)), None, False, ONLY_ADD, []),
    # A moon that lacks a J♦ without a reserved last trick said: both are the table's to settle.
    (hand(Taken(26, 2, jacks=1)), None, False, JACKS, [CardsUnaccounted(26, 2, 1), MoonChoiceNeeded(0)]),
    # A moon choice left over from an earlier count, with nobody having shot the moon, is dropped (R15).
    (hand(Taken(20, 1), Taken(6, 1)), Moon.ADD, False, SEEDS, []),
])
def test_a_hand_whose_counts_fit_is_checked_for_missing_cards_and_the_moon_r13_r15(
        taken, moon, reserved, variant, expected):
    problems = hand_problems(taken, moon, reserved, variant)

    assert listed(problems) == listed(expected)


# --- Counts the form could not read ---------------------------------------------------


@pytest.mark.parametrize("taken, reserved, variant, unread, expected", [
    # A short sum may be the unread count's: no CardsUnaccounted, no NothingCollected.
    (hand(Taken(0, 2)), False, SEEDS, {"hearts"}, []),
    (EMPTY, True, SEEDS, {"marias"}, []),
    (hand(Taken(26, 2)), False, JACKS, {"jacks"}, []),  # no moon choice asked either
    # Too many stays too many, whatever else is unread.
    (hand(Taken(27, 0)), False, SEEDS, {"marias"}, [
        MoreThanTheHandHolds("hearts", 27, 26, 0), MoreThanTheHandHolds("hearts", 27, 26),
    ]),
    (hand(Taken(0, 2), Taken(0, 1)), False, SEEDS, {"hearts"}, [MoreThanTheHandHolds("marias", 3, 2)]),
    (hand(Taken(0, 0, jacks=3)), False, JACKS, frozenset({"hearts", "marias"}), [
        MoreThanTheHandHolds("jacks", 3, 2, 0), MoreThanTheHandHolds("jacks", 3, 2),
    ]),
])
def test_for_a_kind_unread_only_too_many_is_checked_r13_r14(taken, reserved, variant, unread, expected):
    problems = hand_problems(taken, last_trick_reserved=reserved, variant=variant, unread=unread)

    assert listed(problems) == listed(expected)


def test_an_unread_kind_that_no_hand_counts_is_a_programming_error():
    with pytest.raises(ValueError):
        hand_problems(EMPTY, unread={"diamonds"})


@pytest.mark.parametrize("taken", [
    hand(Taken(27, 0), Taken(-1, 0)),
    hand(Taken(27, 0), (3, 1)),
])
def test_negative_or_untyped_counts_raise_at_once_rather_than_being_listed(taken):
    with pytest.raises(ValueError) as refused:
        hand_problems(taken)

    assert not isinstance(refused.value, RuleError)


# --- Nobody collected anything (R13) --------------------------------------------------


@pytest.mark.parametrize("variant, uncollected", [
    (SEEDS, Taken(26, 2)),
    (JACKS, Taken(26, 2, jacks=2)),
])
def test_a_reserved_last_trick_that_left_everything_is_asked_once_and_then_confirmed_r13(variant, uncollected):
    asked = hand_problems(EMPTY, last_trick_reserved=True, variant=variant)
    confirmed = hand_problems(EMPTY, last_trick_reserved=True, variant=variant, nothing_collected_confirmed=True)

    assert listed(asked) == listed([NothingCollected(uncollected)])
    assert asked[0].rule == "R13"
    assert confirmed == ()


@pytest.mark.parametrize("taken, reserved, variant, expected", [
    # Nothing collected and no reserved last trick said: the cards are unaccounted for, asked once.
    (EMPTY, False, SEEDS, [CardsUnaccounted(0, 0)]),
    # One heart collected is not nothing.
    (hand(NOTHING, Taken(1, 0)), True, SEEDS, []),
    # Under the house rule a J♦ collected is something too.
    (hand(Taken(0, 0, jacks=1)), True, JACKS, []),
])
def test_nothing_collected_is_asked_only_of_a_reserved_last_trick_that_left_it_all_r13(
        taken, reserved, variant, expected):
    problems = hand_problems(taken, last_trick_reserved=reserved, variant=variant)

    assert listed(problems) == listed(expected)


def test_check_hand_records_a_hand_of_nothing_collected_once_the_table_confirms_it_r13():
    with pytest.raises(NothingCollected) as refused:
        check_hand(EMPTY, last_trick_reserved=True)

    record = check_hand(EMPTY, last_trick_reserved=True, nothing_collected_confirmed=True)

    assert refused.value.uncollected == Taken(26, 2)
    assert record == HandRecord(EMPTY)


# --- check_hand raises the first problem ----------------------------------------------


@pytest.mark.parametrize("taken, moon, reserved, variant", [
    (hand(Taken(27, 1), Taken(2, 2)), None, False, SEEDS),
    (hand(Taken(27, 0, jacks=1)), None, False, SEEDS),
    (hand(NOTHING, Taken(0, 0, jacks=1)), None, False, SEEDS),
    (hand(Taken(20, 0), Taken(7, 0)), None, False, SEEDS),
    (hand(Taken(26, 2, jacks=1)), None, False, JACKS),
    (hand(Taken(26, 2)), Moon.SUBTRACT, False, ONLY_ADD),
    (EMPTY, None, True, JACKS),
])
def test_check_hand_raises_the_first_problem_a_table_would_read(taken, moon, reserved, variant):
    first = hand_problems(taken, moon, reserved, variant)[0]

    with pytest.raises(RuleError) as refused:
        check_hand(taken, moon, reserved, variant)

    assert facts(refused.value) == facts(first)


@st.composite
def reported_hands(draw):
    """A hand as a table might report it: near the hand's limits, sometimes past them, a moon or nothing taken."""
    players = draw(st.integers(6, 11), label="players")
    variant = draw(st.sampled_from([SEEDS, JACKS, ONLY_ADD]), label="variant")
    kind = draw(st.integers(0, 9), label="kind")
    if kind == 0:
        taken = [NOTHING] * players
    elif kind == 1:
        shooter = draw(st.integers(0, players - 1), label="shooter")
        taken = [Taken(26, 2) if seat == shooter else NOTHING for seat in range(players)]
    else:
        counts = []
        for most in (27, 3, 3):
            total = draw(st.integers(0, most), label="total")
            owners = draw(st.lists(st.integers(0, players - 1), min_size=total, max_size=total), label="owners")
            counts.append(Counter(owners))
        if not draw(st.integers(0, 3), label="jacks at all"):
            counts[2] = Counter()
        hearts, marias, jacks = counts
        taken = [Taken(hearts[seat], marias[seat], jacks[seat]) for seat in range(players)]
    moon = draw(st.sampled_from([None, Moon.ADD, Moon.SUBTRACT]), label="moon choice")
    reserved, confirmed = draw(st.booleans(), label="reserved"), draw(st.booleans(), label="confirmed")
    return tuple(taken), moon, reserved, variant, confirmed


@settings(max_examples=examples(300))
@given(reported_hands())
def test_check_hand_refuses_a_hand_exactly_when_it_has_problems_and_raises_the_first(reported):
    taken, moon, reserved, variant, confirmed = reported
    problems = hand_problems(taken, moon, reserved, variant, nothing_collected_confirmed=confirmed)

    try:
        record = check_hand(taken, moon, reserved, variant, nothing_collected_confirmed=confirmed)
    except RuleError as refused:
        assert problems, refused
        assert type(refused) is type(problems[0])
        assert facts(refused) == facts(problems[0])
    else:
        assert problems == ()
        assert record.taken == taken

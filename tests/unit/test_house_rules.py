"""The house rules a game may choose (R5, R14, R15 replaced), one ``Variant`` value each way."""

import importlib
import json

import pytest

from scorekeeper import rules
from scorekeeper.rules import (
    SEEDS,
    CardsUnaccounted,
    Direction,
    HandPlay,
    HandRecord,
    HouseRuleRefused,
    JacksNotPlayed,
    Join,
    Leave,
    Moon,
    MoonChoiceNeeded,
    MoonNotAllowed,
    MoonRule,
    MoreThanTheHandHolds,
    Taken,
    Variant,
    check_hand,
    check_takings,
    pass_to,
    score_game,
    score_hand,
)

ENGINE_NAMESPACE = vars(importlib.import_module("scorekeeper.rules"))
L, R, A, H = Direction.LEFT, Direction.RIGHT, Direction.ACROSS, Direction.HOLD
JACKS = Variant(jack_of_diamonds=-10)
EVERYTHING = Taken(26, 2)
NOTHING = Taken(0, 0)


def moon_hand(players=6, shooter=0):
    """One seat took all 26 hearts and both Black Marias (R15)."""
    return tuple(EVERYTHING if seat == shooter else NOTHING for seat in range(players))


def seats(*takings):
    return dict(enumerate(takings))


# --- Defaults are the seeds' game -----------------------------------------------------


def test_the_default_variant_is_the_seeds_game_and_changes_nothing():
    variant = Variant()

    changed = variant.changed()

    assert variant == SEEDS
    assert changed == ()
    assert variant.moons == (Moon.SUBTRACT, Moon.ADD)
    assert variant.passing == (L, R)
    assert variant.cards_passed == 3


def test_a_game_under_the_default_variant_scores_exactly_as_under_the_seeds():
    hands = [
        HandRecord((Taken(5, 1), Taken(5, 0), Taken(4, 0), Taken(4, 1), Taken(4, 0), Taken(4, 0))),
        HandRecord(moon_hand(shooter=3), Moon.ADD),
        HandRecord((Taken(20, 0), Taken(3, 2), NOTHING, NOTHING, NOTHING, NOTHING)),  # R13: 3 hearts uncollected
        HandRecord(moon_hand(shooter=1), Moon.SUBTRACT),
    ]

    defaults = score_game(6, 2, 150, hands, Variant())
    seeds = score_game(6, 2, 150, hands)

    assert defaults == seeds
    assert defaults.totals == (64, 34, 30, 17, 30, 30)


# --- The moon: 26 or 52, either choice or one only (R15) -------------------------------


@pytest.mark.parametrize("moon_points, moon_choice, moon, shooter_points, others_points", [
    (26, MoonRule.EITHER, Moon.SUBTRACT, -26, 0),
    (26, MoonRule.EITHER, Moon.ADD, 0, 26),
    (52, MoonRule.EITHER, Moon.SUBTRACT, -52, 0),
    (52, MoonRule.EITHER, Moon.ADD, 0, 52),
    (26, MoonRule.SUBTRACT, Moon.SUBTRACT, -26, 0),
    (26, MoonRule.SUBTRACT, None, -26, 0),
    (52, MoonRule.SUBTRACT, None, -52, 0),
    (26, MoonRule.ADD, Moon.ADD, 0, 26),
    (26, MoonRule.ADD, None, 0, 26),
    (52, MoonRule.ADD, "add", 0, 52),
    (52, "either", "subtract", -52, 0),
])
def test_a_moon_scores_the_house_rules_points_the_chosen_way(moon_points, moon_choice, moon, shooter_points,
                                                             others_points):
    variant = Variant(moon_points=moon_points, moon_choice=moon_choice)

    points = score_hand(dict(enumerate(moon_hand(7, shooter=2))), moon, variant)

    assert points[2] == shooter_points
    assert [points[seat] for seat in range(7) if seat != 2] == [others_points] * 6


@pytest.mark.parametrize("moon_choice, moon, allowed", [
    (MoonRule.SUBTRACT, Moon.ADD, Moon.SUBTRACT),
    (MoonRule.ADD, Moon.SUBTRACT, Moon.ADD),
    ("add", "subtract", Moon.ADD),
])
def test_a_moon_choice_the_house_rule_does_not_allow_is_refused(moon_choice, moon, allowed):
    variant = Variant(moon_choice=moon_choice)

    with pytest.raises(MoonNotAllowed) as refused:
        score_hand(dict(enumerate(moon_hand())), moon, variant)
    with pytest.raises(MoonNotAllowed):
        check_hand(moon_hand(), moon, variant=variant)
    with pytest.raises(MoonNotAllowed):
        score_game(6, 0, 150, [HandRecord(moon_hand(), Moon(moon))], variant)

    assert refused.value.moon is Moon(moon)
    assert refused.value.allowed is allowed
    assert refused.value.rule == "R15"


@pytest.mark.parametrize("moon_choice, moons", [
    (MoonRule.EITHER, (Moon.SUBTRACT, Moon.ADD)),
    (MoonRule.SUBTRACT, (Moon.SUBTRACT,)),
    (MoonRule.ADD, (Moon.ADD,)),
])
def test_a_variant_lists_the_moon_choices_its_house_rule_allows(moon_choice, moons):
    variant = Variant(moon_choice=moon_choice)

    allowed = variant.moons

    assert allowed == moons


@pytest.mark.parametrize("moon_choice, moon", [(MoonRule.SUBTRACT, Moon.SUBTRACT), (MoonRule.ADD, Moon.ADD)])
def test_a_single_choice_house_rule_fills_in_the_moon_choice_for_the_table(moon_choice, moon):
    variant = Variant(moon_choice=moon_choice)

    record = check_hand(moon_hand(), variant=variant)
    board = score_game(6, 0, 150, [HandRecord(moon_hand())], variant)

    assert record.moon is moon
    assert board.hands[0].moon is moon
    assert variant.moon_for(None, 0) is moon


def test_either_moon_choice_still_needs_the_table_to_choose():
    variant = Variant(moon_choice=MoonRule.EITHER, moon_points=52)

    with pytest.raises(MoonChoiceNeeded):
        check_hand(moon_hand(), variant=variant)
    with pytest.raises(MoonChoiceNeeded):
        score_hand(dict(enumerate(moon_hand())), variant=variant)


def test_a_single_choice_house_rule_does_not_invent_a_moon_where_nobody_shot_it():
    spread = (Taken(25, 2), Taken(1, 0), NOTHING, NOTHING, NOTHING, NOTHING)

    record = check_hand(spread, variant=Variant(moon_choice=MoonRule.ADD))

    assert record.moon is None


# --- Passing cycles: left, right, across, hold (R5) ---------------------------------


@pytest.mark.parametrize("passing, players, directions", [
    ((L, R), 6, [L, R, L, R, L, R, L, R]),
    ((L, R, A, H), 6, [L, R, A, H, L, R, A, H]),
    ((L, R, A, H), 7, [L, R, H, H, L, R, H, H]),  # across is held at an odd count
    ((L, R, A, H), 10, [L, R, A, H, L, R, A, H]),
    ((L, R, A, H), 11, [L, R, H, H, L, R, H, H]),
    ((A,), 8, [A] * 8),
    ((A,), 9, [H] * 8),
    ((H,), 6, [H] * 8),
    ((R, L, L), 9, [R, L, L, R, L, L, R, L]),
    (("left", "hold"), 6, [L, H, L, H, L, H, L, H]),
])
def test_hand_n_passes_the_cycles_entry_n_minus_1_with_across_held_at_odd_counts(passing, players, directions):
    variant = Variant(passing=passing)

    passed = [variant.direction(number, players) for number in range(1, 9)]

    assert passed == directions


@pytest.mark.parametrize("players, direction, receivers", [
    (6, L, [1, 2, 3, 4, 5, 0]),
    (6, R, [5, 0, 1, 2, 3, 4]),
    (6, A, [3, 4, 5, 0, 1, 2]),
    (8, A, [4, 5, 6, 7, 0, 1, 2, 3]),
    (10, A, [5, 6, 7, 8, 9, 0, 1, 2, 3, 4]),
    (7, A, [None] * 7),
    (6, H, [None] * 6),
    (11, H, [None] * 11),
])
def test_each_seat_passes_to_the_seat_its_direction_names(players, direction, receivers):
    passed = [pass_to(seat, players, direction) for seat in range(players)]

    assert passed == receivers


@pytest.mark.parametrize("players, hands, direction, across_held, passes", [
    (6, 0, L, False, ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0))),
    (6, 1, R, False, ((0, 5), (1, 0), (2, 1), (3, 2), (4, 3), (5, 4))),
    (6, 2, A, False, ((0, 3), (1, 4), (2, 5), (3, 0), (4, 1), (5, 2))),
    (6, 3, H, False, ()),
    (7, 2, H, True, ()),
    (7, 3, H, False, ()),
])
def test_the_next_hand_shows_the_cycles_direction_and_who_passes_to_whom(players, hands, direction, across_held,
                                                                       passes):
    variant = Variant(passing=(L, R, A, H))
    records = [HandRecord(moon_hand(players), Moon.SUBTRACT)] * hands

    board = score_game(players, 0, 1000, records, variant)

    assert board.next_hand.direction is direction
    assert board.next_hand.across_held is across_held
    assert board.next_hand.passes == passes


def test_a_recorded_hand_remembers_that_its_across_was_held():
    variant = Variant(passing=(A, L))
    records = [HandRecord((Taken(4, 0),) * 6 + (Taken(2, 2),))] * 2

    board = score_game(7, 0, 1000, records, variant)

    assert [hand.direction for hand in board.hands] == [H, L]
    assert [hand.across_held for hand in board.hands] == [True, False]


# --- Cards passed (R5) ----------------------------------------------------------


@pytest.mark.parametrize("cards_passed", [1, 2, 3, 4, 5])
def test_the_next_hand_shows_how_many_cards_the_house_rule_passes(cards_passed):
    variant = Variant(cards_passed=cards_passed)

    board = score_game(8, 3, 150, [], variant)

    assert board.next_hand.cards_passed == cards_passed


def test_the_seeds_pass_three_cards():
    board = score_game(8, 3, 150, [])

    assert board.next_hand.cards_passed == 3


# --- J♦ scores -10 (R14 replaced) --------------------------------------------------


@pytest.mark.parametrize("taken, points", [
    ((Taken(10, 1, jacks=1), Taken(16, 1, jacks=1), NOTHING), [13, 19, 0]),
    ((Taken(1, 0, jacks=2), Taken(25, 2), NOTHING), [-19, 51, 0]),
    ((Taken(3, 0, jacks=1), Taken(23, 2), Taken(0, 0, jacks=1)), [-7, 49, -10]),
])
def test_each_jack_of_diamonds_taken_scores_minus_ten(taken, points):
    scored = score_hand(seats(*taken), variant=JACKS)

    assert [scored[seat] for seat in range(len(taken))] == points


@pytest.mark.parametrize("moon, moon_points, shooter_jacks, points", [
    (Moon.SUBTRACT, 26, 1, [-36, -10, 0, 0, 0, 0]),
    (Moon.ADD, 26, 1, [-10, 16, 26, 26, 26, 26]),
    (Moon.SUBTRACT, 52, 2, [-72, 0, 0, 0, 0, 0]),
    (Moon.ADD, 52, 0, [0, 32, 52, 52, 52, 52]),
    (Moon.ADD, 26, 2, [-20, 26, 26, 26, 26, 26]),
])
def test_a_moon_hand_still_scores_its_jacks_of_diamonds(moon, moon_points, shooter_jacks, points):
    variant = Variant(moon_points=moon_points, jack_of_diamonds=-10)
    others_jacks = 2 - shooter_jacks
    taken = [Taken(26, 2, jacks=shooter_jacks), Taken(0, 0, jacks=others_jacks)] + [NOTHING] * 4

    scored = score_hand(seats(*taken), moon, variant)
    board = score_game(6, 0, 150, [HandRecord(tuple(taken), moon)], variant)

    assert [scored[seat] for seat in range(6)] == points
    assert board.totals == tuple(points)
    assert board.hands[0].shooter == 0


def test_jacks_of_diamonds_do_not_count_towards_the_moon():
    taken = (Taken(26, 1, jacks=2), Taken(0, 1), NOTHING, NOTHING, NOTHING, NOTHING)

    scored = score_hand(seats(*taken), variant=JACKS)

    assert rules.moon_shooter(seats(*taken)) is None
    assert scored == {0: 19, 1: 13, 2: 0, 3: 0, 4: 0, 5: 0}


@pytest.mark.parametrize("check", [
    lambda taken: check_takings(seats(*taken)),
    lambda taken: score_hand(seats(*taken)),
    lambda taken: check_hand(taken),
    lambda taken: score_game(6, 0, 150, [HandRecord(taken)]),
])
def test_jacks_of_diamonds_are_refused_when_the_house_rule_is_off(check):
    taken = (Taken(26, 1), Taken(0, 1, jacks=1), Taken(0, 0, jacks=1), NOTHING, NOTHING, NOTHING)

    with pytest.raises(JacksNotPlayed) as refused:
        check(taken)

    assert refused.value.player == 1
    assert refused.value.rule == "R14"


@pytest.mark.parametrize("taken, player, count", [
    ((Taken(26, 2, jacks=3), NOTHING), 0, 3),
    ((NOTHING, Taken(0, 0, jacks=5)), 1, 5),
    ((Taken(0, 0, jacks=2), Taken(26, 2, jacks=1)), None, 3),
    ((Taken(0, 0, jacks=2), Taken(26, 2, jacks=2)), None, 4),
])
def test_more_than_two_jacks_of_diamonds_for_one_player_or_in_all_are_refused(taken, player, count):
    with pytest.raises(MoreThanTheHandHolds) as refused:
        check_takings(seats(*taken), JACKS)

    assert (refused.value.what, refused.value.count, refused.value.most) == ("jacks", count, 2)
    assert refused.value.player == player


def test_negative_jacks_of_diamonds_are_refused():
    with pytest.raises(ValueError):
        check_takings(seats(Taken(26, 2, jacks=-1)), JACKS)


@pytest.mark.parametrize("taken, counted", [
    ((Taken(20, 2, jacks=1), Taken(6, 0), NOTHING, NOTHING, NOTHING, NOTHING), (26, 2, 1)),
    ((Taken(20, 2), Taken(6, 0), NOTHING, NOTHING, NOTHING, NOTHING), (26, 2, 0)),
    ((Taken(20, 1, jacks=1), Taken(5, 0, jacks=1), NOTHING, NOTHING, NOTHING, NOTHING), (25, 1, 2)),
])
def test_both_jacks_of_diamonds_must_be_accounted_for_unless_the_last_trick_was_reserved(taken, counted):
    with pytest.raises(CardsUnaccounted) as refused:
        check_hand(taken, variant=JACKS)

    record = check_hand(taken, last_trick_reserved=True, variant=JACKS)

    assert (refused.value.hearts, refused.value.marias, refused.value.jacks) == counted
    assert record.taken == taken


def test_a_hand_missing_cards_names_no_jacks_when_they_do_not_score():
    taken = (Taken(20, 2), Taken(5, 0), NOTHING, NOTHING, NOTHING, NOTHING)

    with pytest.raises(CardsUnaccounted) as refused:
        check_hand(taken)

    assert (refused.value.hearts, refused.value.marias, refused.value.jacks) == (25, 2, None)


@pytest.mark.parametrize("taken, variant, uncollected", [
    ((Taken(26, 2, jacks=1), NOTHING), JACKS, Taken(0, 0, jacks=1)),
    ((Taken(20, 1), Taken(4, 0)), JACKS, Taken(2, 1, jacks=2)),
    ((Taken(20, 1, jacks=1), Taken(6, 1, jacks=1)), JACKS, NOTHING),
    ((Taken(20, 1), Taken(4, 0)), SEEDS, Taken(2, 1)),
])
def test_the_jacks_of_diamonds_nobody_collected_are_reported(taken, variant, uncollected):
    left = check_takings(seats(*taken), variant)

    assert left == uncollected


def test_a_scored_game_reports_the_jacks_a_reserved_last_trick_left_uncollected():
    record = check_hand((Taken(20, 2, jacks=1), Taken(6, 0)) + (NOTHING,) * 4, last_trick_reserved=True, variant=JACKS)

    board = score_game(6, 0, 150, [record], JACKS)

    assert board.hands[0].uncollected == Taken(0, 0, jacks=1)
    assert board.totals == (36, 6, 0, 0, 0, 0)


def test_a_moon_stands_when_a_reserved_last_trick_left_only_a_jack_of_diamonds_uncollected():
    taken = (Taken(26, 2, jacks=1),) + (NOTHING,) * 5

    record = check_hand(taken, Moon.ADD, last_trick_reserved=True, variant=JACKS)
    board = score_game(6, 0, 150, [record], JACKS)

    assert record.moon is Moon.ADD
    assert board.hands[0].shooter == 0
    assert board.hands[0].uncollected == Taken(0, 0, jacks=1)
    assert board.totals == (-10, 26, 26, 26, 26, 26)


@pytest.mark.parametrize("variant, first_trick, kitty_and_trick", [
    (JACKS, Taken(0, 0, jacks=1), Taken(0, 0, jacks=2)),
    (SEEDS, NOTHING, NOTHING),
    (Variant(jack_of_diamonds=0, moon_points=52), NOTHING, NOTHING),
])
def test_a_hand_played_trick_by_trick_counts_jacks_of_diamonds_only_under_the_house_rule(variant, first_trick,
                                                                                        kitty_and_trick):
    trick = ["A♦", "J♦", "2♦", "3♦", "4♦", "5♦"]
    without_kitty = HandPlay(6, 0, variant=variant)
    with_kitty = HandPlay(6, 3, kitty=["J♦", "2♣"], variant=variant)

    without_kitty.play(trick)
    with_kitty.play(trick)

    assert without_kitty.taken[0] == first_trick
    assert with_kitty.taken[3] == kitty_and_trick
    assert check_takings(without_kitty.taken, variant).jacks == (1 if variant.jack_of_diamonds else 0)


def test_jacks_waiting_in_a_reserved_trick_are_shown_under_the_house_rule():
    play = HandPlay(6, 0, variant=JACKS)

    play.play(["J♦", "J♦", "2♣", "3♣", "4♣", "5♣"])  # the J♦ cancel: reserved (R9)

    assert play.reserved == Taken(0, 0, jacks=2)
    assert play.waiting == Taken(0, 0, jacks=2)


# --- Values the app does not offer -----------------------------------------------


@pytest.mark.parametrize("name, value", [
    ("moon_points", 0),
    ("moon_points", 13),
    ("moon_points", 104),
    ("moon_points", "26"),
    ("moon_points", 26.0),
    ("moon_points", None),
    ("moon_choice", "both"),
    ("moon_choice", None),
    ("moon_choice", Moon.ADD.name),
    ("passing", "left"),
    ("passing", ()),
    ("passing", ["sideways"]),
    ("passing", [1]),
    ("passing", None),
    ("passing", 3),
    ("passing", [L] * 13),
    ("cards_passed", 0),
    ("cards_passed", 6),
    ("cards_passed", 3.0),
    ("cards_passed", True),
    ("cards_passed", "3"),
    ("jack_of_diamonds", -11),
    ("jack_of_diamonds", 10),
    ("jack_of_diamonds", -10.0),
    ("jack_of_diamonds", False),
])
def test_a_house_rule_value_the_app_does_not_offer_is_refused(name, value):
    with pytest.raises(HouseRuleRefused) as refused:
        Variant(**{name: value})

    assert refused.value.name == name
    assert refused.value.value == value
    assert refused.value.rule in ("R5", "R14", "R15")


@pytest.mark.parametrize("passing", [[L] * 12, [A], (H, H, A)])
def test_a_passing_cycle_of_1_to_12_directions_is_accepted(passing):
    variant = Variant(passing=passing)

    assert variant.passing == tuple(passing)


def test_a_house_rule_facts_document_with_an_unknown_setting_is_refused():
    with pytest.raises(HouseRuleRefused) as refused:
        Variant.from_facts({"moon_points": 52, "no_trumps": True})

    assert refused.value.name == "no_trumps"


# --- Facts, changed, reprs -------------------------------------------------------


VARIANTS = [
    SEEDS,
    Variant(moon_points=52),
    Variant(moon_choice="subtract"),
    Variant(moon_choice=MoonRule.ADD, moon_points=52),
    Variant(passing=(L, R, A, H)),
    Variant(passing=["hold"]),
    Variant(cards_passed=1),
    JACKS,
    Variant(moon_points=52, moon_choice="add", passing=("across", "left"), cards_passed=5, jack_of_diamonds=-10),
]


@pytest.mark.parametrize("variant", VARIANTS, ids=repr)
def test_a_variant_rebuilds_from_its_facts_even_through_json(variant):
    facts = variant.facts()

    rebuilt = Variant.from_facts(facts)
    through_json = Variant.from_facts(json.loads(json.dumps(facts)))

    assert rebuilt == variant
    assert through_json == variant


def test_missing_facts_are_the_seeds_rules():
    assert Variant.from_facts({}) == SEEDS
    assert Variant.from_facts({"cards_passed": 2}) == Variant(cards_passed=2)


@pytest.mark.parametrize("variant, changed", [
    (SEEDS, ()),
    (Variant(passing=("left", "right")), ()),
    (Variant(moon_points=52), ("moon_points",)),
    (Variant(passing=(L,)), ("passing",)),
    (Variant(moon_choice="add", jack_of_diamonds=-10), ("moon_choice", "jack_of_diamonds")),
    (VARIANTS[-1], ("moon_points", "moon_choice", "passing", "cards_passed", "jack_of_diamonds")),
])
def test_a_variant_names_the_house_rules_where_it_differs_from_the_seeds(variant, changed):
    names = variant.changed()

    assert names == changed


@pytest.mark.parametrize(
    "value",
    [
        *VARIANTS,
        Taken(3, 1, jacks=2),
        Taken(0, 0, jacks=1),
        Join(2, 6, 0, 0),
        Join(before_hand=5, player=9, at=7, start=42),
        Leave(3, 1),
        Leave(before_hand=9, player=11),
        MoonRule.SUBTRACT,
        Direction.ACROSS,
        HandRecord((Taken(26, 2, jacks=2), NOTHING), Moon.ADD),
    ],
    ids=repr,
)
def test_repr_of_house_rules_and_seat_changes_is_python_that_rebuilds_the_value(value):
    rebuilt = eval(repr(value), dict(ENGINE_NAMESPACE))

    assert rebuilt == value
    assert type(rebuilt) is type(value)

"""The facts the engine hands over for every explanation to be true (R2, R9, R10, R12, R13, R15)."""

import pytest

from scorekeeper import rules
from scorekeeper.rules import Card, Explanation, Outcome


def cards(text):
    return [Card.parse(card) for card in text.split()]


@pytest.mark.parametrize(("text", "outcome", "deciding", "others", "by_reading"), [
    ("10♠ 9♥ 9♥ 10♠", Outcome.RESERVED, "10♠", "9♥", False),      # the seeds' example: both readings agree
    ("10♠ 10♠ 9♥ 9♥ K♠", Outcome.HIGHEST, "", "10♠ 9♥", True),     # two pairs and still a winner
    ("10♠ 10♠ 3♦", Outcome.RESERVED, "10♠", "", True),             # one pair, and nobody wins
    ("K♠ Q♠ Q♠ 2♠", Outcome.HIGHEST, "", "Q♠", False),             # a pair below the winner decides nothing
    ("K♣ A♣ A♣ 2♣", Outcome.HIGHEST_LEFT, "A♣", "", False),        # a pair above the winner decides it
])
def test_a_trick_says_which_pairs_decided_it_and_whether_r9s_reading_of_two_pairs_did(
        text, outcome, deciding, others, by_reading):
    reason = rules.resolve_trick(cards(text)).reason

    assert reason.outcome is outcome
    assert reason.cancelled == tuple(cards(deciding))
    assert reason.also_cancelled == tuple(cards(others))
    assert reason.by_reading is by_reading
    assert reason.all_cancelled == tuple(cards(deciding)) + tuple(cards(others))


def test_an_explanation_without_cancellations_repr_is_valid_python():
    reason = rules.resolve_trick(cards("7♣ Q♣ A♦")).reason

    assert eval(repr(reason), {"Explanation": Explanation, "Outcome": Outcome, "Card": Card}) == reason


def test_a_third_copy_in_the_first_trick_says_both_are_in_that_trick_not_played_before():
    play = rules.HandPlay(9, 1)

    problems = rules.trick_problems(cards("K♣ K♣ K♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣"), 9, play.copies_seen)

    assert [(p.position, p.in_trick, p.in_tricks, p.in_kitty, p.trick) for p in problems] == [(2, 2, 0, 0, 1)]


def test_a_third_copy_counts_the_earlier_tricks_and_the_kitty_apart():
    play = rules.HandPlay(9, 1, kitty=cards("K♣ 3♥ A♦ K♦ Q♦"))
    play.play(cards("A♣ K♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣"))

    with pytest.raises(rules.ThirdCopy) as refused:
        play.play(cards("K♣ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠"))

    third = refused.value
    assert (third.in_trick, third.in_tricks, third.in_kitty, third.trick) == (0, 1, 1, 2)


def test_a_seat_change_past_the_next_hand_names_the_next_hand():
    with pytest.raises(rules.SeatingRefused) as refused:
        rules.seatings(6, [rules.Join(4, 6, 0, 0)], hands=1, target=150)

    assert (refused.value.reason, refused.value.next_hand) == ("unplayed", 2)


def test_all_the_collected_hearts_and_marias_with_one_heart_left_with_nobody_is_a_missed_moon():
    taken = {0: rules.Taken(25, 2), 1: rules.NOTHING}

    assert rules.moon_missed(taken) == 0
    assert rules.moon_shooter(taken) is None
    assert rules.moon_missed({0: rules.Taken(26, 2), 1: rules.NOTHING}) is None  # a moon, not a missed one
    assert rules.moon_missed({0: rules.Taken(20, 2), 1: rules.Taken(5, 0)}) is None

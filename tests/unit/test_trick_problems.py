"""rules.trick_problems: every reason some cards cannot be one trick, not only the first (R1, R2)."""

from scorekeeper import rules
from scorekeeper.rules import Card, ThirdCopy, TrickSize

KING, FOUR = Card(13, rules.CLUBS), Card(4, rules.CLUBS)


def test_every_third_copy_is_named_at_its_position():
    cards = [KING, KING, KING, FOUR, FOUR, FOUR]

    problems = rules.trick_problems(cards, 6)

    assert [(type(problem), problem.card, problem.position) for problem in problems] == [
        (ThirdCopy, KING, 2), (ThirdCopy, FOUR, 5)]


def test_copies_seen_earlier_in_the_hand_count_and_unread_cards_keep_their_places():
    problems = rules.trick_problems([None, KING, None, FOUR], 4, {KING: 2})

    assert [(problem.position, problem.in_hand) for problem in problems] == [(1, True)]


def test_a_trick_of_the_wrong_size_is_said_after_the_cards():
    problems = rules.trick_problems([KING, KING, KING], 6)

    assert [type(problem) for problem in problems] == [ThirdCopy, TrickSize]
    assert (problems[1].count, problems[1].least, problems[1].most) == (3, 6, 6)


def test_a_trick_the_engine_plays_has_no_problem():
    play = rules.HandPlay(6, 0)
    cards = rules.parse_cards("K♣ 2♣ 3♣ 4♣ 5♣ 6♣".split())

    assert rules.trick_problems(cards, 6, play.copies_seen) == ()
    assert play.play(cards) == 0

"""Example tests for the rules engine, one or more per rule of docs/rules.md (R1-R17)."""

import copy
import importlib

import pytest

from scorekeeper import rules
from scorekeeper.rules import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SEEDS,
    SPADES,
    Card,
    CardLetters,
    Deal,
    Direction,
    Explanation,
    HandAfterGameOver,
    HandPlay,
    HandRecord,
    IllegalLead,
    Moon,
    MoonChoiceNeeded,
    NotACard,
    Outcome,
    Taken,
    Variant,
    deal,
    pass_to,
    resolve_trick,
    score_game,
    score_hand,
    winners,
)

from ..tabletop import DECK

ENGINE_NAMESPACE = vars(importlib.import_module("scorekeeper.rules"))
RANK_TEXTS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def state_of(hand):
    """Everything a HandPlay holds, copied, to check that a refused trick changes nothing."""
    return copy.deepcopy(vars(hand))


def run_of(suit, ranks):
    return [f"{rank}{suit}" for rank in ranks]


def hand_won_by_leader_then_reserved_to_the_end():
    """Six players: 14 tricks the leader wins, then 3 reserved tricks; kitty 2♠ 2♠.

    The leader's tricks hold both Black Marias and 12 hearts; the three
    reserved tricks hold the other 14 hearts.
    """
    high, low = ["A", "K", "Q", "J", "10", "9"], ["8", "7", "6", "5", "4", "3"]
    tricks = []
    for suit in "♣♦♠":
        tricks += [run_of(suit, high), run_of(suit, low)] * 2
    tricks += [run_of("♥", high)] * 2
    tricks += [
        ["8♥", "8♥", "7♥", "7♥", "6♥", "6♥"],
        ["5♥", "5♥", "4♥", "4♥", "3♥", "3♥"],
        ["2♥", "2♥", "2♣", "2♣", "2♦", "2♦"],
    ]
    return ["2♠", "2♠"], tricks


def hand_where_every_trick_is_reserved():
    """Six players, every trick three pairs, so every trick is reserved; kitty A♥ A♥."""
    kinds = [f"{rank}{suit}" for suit in "♣♦♠" for rank in RANK_TEXTS]
    kinds += [f"{rank}♥" for rank in RANK_TEXTS[:-1]]
    tricks = [[kind for kind in kinds[i:i + 3] for _ in range(2)] for i in range(0, len(kinds), 3)]
    return ["A♥", "A♥"], tricks


# --- R1 players, R2 deck, R3 deal -----------------------------------------------


@pytest.mark.parametrize(
    ("players", "cards_each", "kitty"),
    [(6, 17, 2), (7, 14, 6), (8, 13, 0), (9, 11, 5), (10, 10, 4), (11, 9, 5)],
)
def test_deal_gives_each_player_104_div_n_cards_and_the_rest_to_the_kitty(players, cards_each, kitty):
    the_deal = deal(players)

    assert (the_deal.cards_each, the_deal.kitty) == (cards_each, kitty)
    assert the_deal.cards_each * players + the_deal.kitty == 104


@pytest.mark.parametrize("players", [-6, 0, 1, 4, 5, 12, 13, 104, 6.0, "6", None])
def test_deal_refuses_a_table_outside_six_to_eleven_players(players):
    with pytest.raises(ValueError):
        deal(players)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10S", 10, "♠"),
        ("10♠", 10, "♠"),
        ("10s", 10, "♠"),
        ("qs", 12, "♠"),
        ("Q♠", 12, "♠"),
        ("q♠", 12, "♠"),
        ("AH", 14, "♥"),
        ("ah", 14, "♥"),
        ("2c", 2, "♣"),
        ("2♣", 2, "♣"),
        ("Jd", 11, "♦"),
        ("K♦", 13, "♦"),
        ("9H", 9, "♥"),
    ],
)
def test_card_parse_reads_letters_or_suit_symbols_in_any_case(text, rank, suit):
    card = Card.parse(text)

    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(
    "text",
    [
        "", "S", "10", "Q", "1S", "0S", "11S", "14S", "010S", "1 0S", "10 S", "QX", "ZS",
        "QQS", "Q♠♠", "SQ", "♠Q", "10♠10", "AS2", "１０S", "²S", "Qſ", "Aſ", "½S", "9" * 5000 + "S",
        None, 12, 10.0, ("Q", "S"),
    ],
)
def test_card_parse_refuses_anything_that_is_not_a_card(text):
    with pytest.raises(NotACard):
        Card.parse(text)


@pytest.mark.parametrize(("text", "shown"), [("qs", "Q♠"), ("10d", "10♦"), ("ah", "A♥"), ("2♣", "2♣"), ("jS", "J♠")])
def test_a_card_shows_as_rank_and_suit_symbol(text, shown):
    card = Card.parse(text)

    assert str(card) == shown


PORTUGUESE = CardLetters({"C": HEARTS, "E": SPADES, "O": DIAMONDS, "P": CLUBS}, {"V": 11, "D": 12, "R": 13, "A": 14})
NORWEGIAN = CardLetters({"H": HEARTS, "S": SPADES, "R": DIAMONDS, "K": CLUBS}, {"KN": 11, "D": 12, "K": 13, "E": 14})


@pytest.mark.parametrize(("letters", "text", "shown"), [
    (PORTUGUESE, "9c", "9♥"),  # copas: hearts, not clubs
    (PORTUGUESE, "10E", "10♠"),  # espadas
    (PORTUGUESE, "DE", "Q♠"),  # dama de espadas: the Black Maria
    (PORTUGUESE, "QE", "Q♠"),  # the picker's English rank letters still read
    (PORTUGUESE, "vo", "J♦"),
    (PORTUGUESE, "RP", "K♣"),
    (PORTUGUESE, "2♣", "2♣"),  # the symbols always work
    (NORWEGIAN, "KK", "K♣"),  # konge kløver
    (NORWEGIAN, "knr", "J♦"),  # knekt ruter
    (NORWEGIAN, "Es", "A♠"),
])
def test_cards_are_read_with_the_letters_of_the_readers_language(letters, text, shown):
    assert str(Card.parse(text, letters)) == shown


@pytest.mark.parametrize("text", ["10S", "9H", "QS", "AD"])
def test_another_languages_suit_letters_are_refused_rather_than_misread(text):
    with pytest.raises(ValueError):
        Card.parse(text, PORTUGUESE)


@pytest.mark.parametrize(("suits", "ranks"), [
    ({"C": HEARTS, "E": SPADES, "O": DIAMONDS}, {}),  # a suit without a letter
    ({"C": HEARTS, "E": SPADES, "O": DIAMONDS, "P": HEARTS}, {}),  # two letters for one suit
    ({"CO": HEARTS, "E": SPADES, "O": DIAMONDS, "P": CLUBS}, {}),  # a suit letter of two characters
    ({"♣": HEARTS, "E": SPADES, "O": DIAMONDS, "P": CLUBS}, {}),  # a symbol as another suit's letter
    ({"C": HEARTS, "E": SPADES, "O": DIAMONDS, "P": CLUBS}, {"X": 9}),  # a letter for a numbered rank
])
def test_card_letters_that_would_misread_cards_are_refused(suits, ranks):
    with pytest.raises(ValueError):
        CardLetters(suits, ranks)


def test_twin_cards_from_the_two_decks_are_equal_and_hash_alike():
    from_first_deck = Card.parse("Q♠")
    from_second_deck = Card.parse("qs")

    assert from_first_deck == from_second_deck
    assert hash(from_first_deck) == hash(from_second_deck)
    assert len({from_first_deck, from_second_deck}) == 1
    assert from_first_deck != Card.parse("Q♣")
    assert from_first_deck != Card.parse("K♠")


@pytest.mark.parametrize(("rank", "suit"), [(1, "♠"), (15, "♠"), (10, "S"), (10, "x"), (True, "♠"), ("10", "♠")])
def test_a_card_has_a_rank_from_2_to_14_and_a_suit_symbol(rank, suit):
    with pytest.raises(ValueError):
        Card(rank, suit)


def test_a_third_copy_of_a_card_in_one_trick_is_refused():
    with pytest.raises(ValueError):
        resolve_trick(["Q♠", "qs", "QS"])


def test_there_are_no_trumps_so_a_higher_card_of_another_suit_does_not_win():
    result = resolve_trick(["5♦", "A♠", "K♥", "9♦", "2♦"])

    assert result.winner == 3


# --- R4 dealer, R5 passing ------------------------------------------------------


@pytest.mark.parametrize(
    ("first_dealer", "dealers", "leaders"),
    [(0, [0, 1, 2], [1, 2, 3]), (4, [4, 5, 0], [5, 0, 1]), (5, [5, 0, 1], [0, 1, 2])],
)
def test_the_deal_moves_one_seat_left_each_hand_and_the_dealers_left_leads(first_dealer, dealers, leaders):
    spread = HandRecord((Taken(10, 1), Taken(10, 1), Taken(6, 0)) + (Taken(0, 0),) * 3)

    board = score_game(6, first_dealer, 1000, [spread, spread])

    assert [hand.dealer for hand in board.hands] + [board.next_hand.dealer] == dealers
    assert [hand.leader for hand in board.hands] + [board.next_hand.leader] == leaders


@pytest.mark.parametrize(("first_dealer", "players"), [(6, 6), (-1, 6), (0, 5)])
def test_a_game_refuses_a_first_dealer_off_the_table_or_a_table_too_small(first_dealer, players):
    with pytest.raises(ValueError):
        score_game(players, first_dealer, 150, [])


def test_odd_hands_pass_left_and_even_hands_pass_right_with_no_hold_hand():
    directions = [SEEDS.direction(number, 6) for number in range(1, 7)]

    assert directions == [Direction.LEFT, Direction.RIGHT] * 3
    assert Direction.LEFT == "left" and Direction.RIGHT == "right"
    assert Direction("left") is Direction.LEFT


def test_passing_left_goes_to_the_next_seat_clockwise_and_right_to_the_previous():
    players = 7

    left = [pass_to(seat, players, Direction.LEFT) for seat in range(players)]
    right = [pass_to(seat, players, Direction.RIGHT) for seat in range(players)]

    assert left == [1, 2, 3, 4, 5, 6, 0]
    assert right == [6, 0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("hand_number", [0, -1, 1.0, "1"])
def test_hand_numbers_start_at_one(hand_number):
    with pytest.raises(ValueError):
        SEEDS.direction(hand_number, 6)


# --- R6 first lead, R8 breaking hearts -----------------------------------------


@pytest.mark.parametrize("lead", ["5♥", "A♥", "Q♠"])
def test_the_first_lead_may_not_be_a_heart_or_a_black_maria(lead):
    hand = HandPlay(6, leader=2)
    before = state_of(hand)

    with pytest.raises(IllegalLead) as refused:
        hand.play([lead, "2♣", "3♣", "4♣", "5♣", "6♣"])

    assert refused.value.rule == "R6"
    assert refused.value.card == Card.parse(lead)
    assert isinstance(refused.value, ValueError)
    assert state_of(hand) == before


def test_the_table_can_confirm_an_apparently_illegal_first_lead():
    hand = HandPlay(6, leader=2)

    winner = hand.play(["5♥", "2♣", "3♣", "4♥", "5♣", "6♣"], confirm=True)

    assert winner == 2
    assert hand.taken[2] == Taken(2, 0)


def test_any_other_card_may_be_led_first():
    hand = HandPlay(6, leader=0)

    winner = hand.play(["K♠", "2♠", "3♣", "4♦", "A♠", "6♣"])

    assert winner == 4


def test_a_heart_may_not_be_led_before_hearts_are_broken():
    hand = HandPlay(6, leader=0)
    hand.play(["A♣", "2♣", "3♣", "4♣", "5♣", "6♦"])
    before = state_of(hand)

    with pytest.raises(IllegalLead) as refused:
        hand.play(["2♥", "3♥", "4♥", "5♥", "6♥", "7♥"])

    assert refused.value.rule == "R8"
    assert state_of(hand) == before


def test_a_leader_holding_only_hearts_may_lead_one_once_the_table_confirms():
    hand = HandPlay(6, leader=0)
    hand.play(["A♣", "2♣", "3♣", "4♣", "5♣", "6♦"])

    winner = hand.play(["2♥", "3♥", "4♥", "5♥", "6♥", "7♥"], confirm=True)

    assert winner == 5
    assert hand.taken[5] == Taken(6, 0)


@pytest.mark.parametrize("breaker", ["9♥", "Q♠"])
def test_a_heart_or_black_maria_played_breaks_hearts_for_later_leads(breaker):
    hand = HandPlay(6, leader=0)
    hand.play(["A♣", "2♣", "3♣", breaker, "5♣", "6♦"])

    winner = hand.play(["2♥", "3♥", "4♥", "5♥", "6♥", "7♥"])

    assert winner == 5


def test_a_black_maria_may_be_led_any_time_after_the_first_lead():
    hand = HandPlay(6, leader=0)
    hand.play(["A♣", "2♣", "3♣", "4♣", "5♣", "6♦"])

    winner = hand.play(["Q♠", "3♠", "4♠", "5♠", "6♠", "7♠"])

    assert winner == 0
    assert hand.taken[0] == Taken(0, 1)


# --- R9 winning a trick, cancellation -------------------------------------------


def test_the_highest_card_of_the_suit_led_wins_when_nothing_cancels():
    result = resolve_trick(["7♣", "Q♣", "A♦", "2♣"])

    assert result.winner == 1
    assert result.cancelled == frozenset()
    assert result.reason == Explanation(Outcome.HIGHEST, "♣", ("R9",), (), Card.parse("Q♣"))


def test_identical_cards_cancel_and_next_highest_wins():
    result = resolve_trick(["Q♣", "K♣", "2♣", "K♣"])

    assert result.winner == 0
    assert result.cancelled == {1, 3}
    assert result.reason.outcome is Outcome.HIGHEST_LEFT
    assert result.reason.led == "♣"
    assert result.reason.cancelled == (Card.parse("K♣"),)
    assert result.reason.winner == Card.parse("Q♣")
    assert "R9" in result.reason.rules


def test_seeds_worked_example_two_pairs_cancel_and_the_trick_is_reserved():
    result = resolve_trick(["10♠", "9♥", "9♥", "10♠"])

    assert result.winner is None
    assert result.cancelled == {0, 1, 2, 3}
    assert result.reason.outcome is Outcome.RESERVED
    assert result.reason.led == "♠"
    assert result.reason.cancelled == (Card.parse("10♠"),)  # the 9♥ pair could not have won a spade trick
    assert result.reason.winner is None
    assert "R9" in result.reason.rules


def test_two_pairs_still_leave_a_winner_when_an_uncancelled_card_of_the_suit_led_remains():
    result = resolve_trick(["10♠", "10♠", "9♥", "9♥", "K♠"])

    assert result.winner == 4
    assert result.cancelled == {0, 1, 2, 3}


def test_a_trick_is_reserved_when_the_only_cards_of_the_suit_led_cancel():
    result = resolve_trick(["10♠", "10♠", "3♦"])

    assert result.winner is None
    assert result.cancelled == {0, 1}


def test_a_cancelled_pair_of_another_suit_does_not_stop_the_highest_card_winning():
    result = resolve_trick(["5♦", "A♦", "K♥", "K♥", "9♦"])

    assert result.winner == 1
    assert result.cancelled == {2, 3}


def test_a_single_card_trick_is_won_by_its_card():
    result = resolve_trick(["2♥"])

    assert result.winner == 0


def test_resolve_trick_takes_cards_or_text_alike():
    cards = [Card.parse("10♠"), "9♥", Card.parse("9♥"), "10S"]

    result = resolve_trick(cards)

    assert result == resolve_trick(["10♠", "9♥", "9♥", "10♠"])


@pytest.mark.parametrize(
    "cards",
    [
        [],
        ["Q♠", "Q♠", "Q♠"],
        ["2♥", "qs", "3♦", "QS", "Q♠"],
        ["10♠", "1S"],
        ["10♠", "banana"],
        ["10♠", None],
        ["10♠", ""],
    ],
)
def test_resolve_trick_refuses_no_cards_a_third_copy_or_a_card_that_does_not_parse(cards):
    with pytest.raises(ValueError):
        resolve_trick(cards)


# --- R10 next lead, R11 reserved cards, R12 kitty -------------------------------


def test_the_winner_of_a_trick_leads_the_next():
    hand = HandPlay(6, leader=4)

    winner = hand.play(["5♣", "9♣", "A♣", "2♦", "3♦", "4♦"])

    assert winner == 0
    assert hand.leader == 0


def test_after_a_reserved_trick_the_same_player_leads_again():
    hand = HandPlay(6, leader=4)

    winner = hand.play(["5♣", "5♣", "2♦", "3♦", "4♦", "6♦"])

    assert winner is None
    assert hand.leader == 4


def test_the_next_winner_takes_every_reserved_trick_waiting():
    hand = HandPlay(6, leader=1)
    hand.play(["5♣", "5♣", "2♥", "3♥", "4♦", "6♦"])
    hand.play(["6♣", "6♣", "Q♠", "7♥", "4♠", "7♦"])

    winner = hand.play(["9♣", "2♣", "8♥", "8♦", "8♠", "7♣"])

    assert winner == 1
    assert hand.taken[1] == Taken(4, 1)
    assert hand.waiting == Taken(0, 0)
    assert sum(t.points for seat, t in hand.taken.items() if seat != 1) == 0


def test_the_winner_of_the_first_trick_takes_the_kitty():
    hand = HandPlay(6, leader=0, kitty=["Q♠", "5♥"])

    winner = hand.play(["2♣", "A♣", "3♦", "4♦", "5♦", "6♦"])

    assert winner == 1
    assert hand.taken[1] == Taken(1, 1)
    assert hand.kitty_taken_by == 1


def test_the_kitty_waits_after_a_reserved_first_trick_and_goes_to_the_first_winner():
    hand = HandPlay(6, leader=3, kitty=["Q♠", "5♥"])

    first = hand.play(["3♣", "3♣", "4♦", "4♦", "2♥", "5♠"])

    assert first is None
    assert hand.leader == 3
    assert hand.kitty_waiting
    assert hand.waiting == Taken(2, 1)
    assert all(taking == Taken(0, 0) for taking in hand.taken.values())

    second = hand.play(["2♣", "A♣", "9♥", "6♦", "7♦", "8♦"])

    assert second == 4
    assert hand.taken[4] == Taken(3, 1)
    assert not hand.kitty_waiting
    assert hand.waiting == Taken(0, 0)


# --- R13 last trick ----------------------------------------------------------------


def test_a_reserved_last_trick_leaves_it_and_the_reserved_cards_uncollected():
    kitty, tricks = hand_won_by_leader_then_reserved_to_the_end()
    hand = HandPlay(6, leader=1, kitty=kitty)
    for trick in tricks[:-1]:
        hand.play(trick)

    assert hand.waiting == Taken(12, 0)

    winner = hand.play(tricks[-1])

    assert winner is None
    assert hand.taken == {0: Taken(), 1: Taken(12, 2), 2: Taken(), 3: Taken(), 4: Taken(), 5: Taken()}
    assert hand.uncollected == Taken(14, 0)
    assert hand.waiting == Taken(0, 0)
    assert score_hand(hand.taken) == {0: 0, 1: 38, 2: 0, 3: 0, 4: 0, 5: 0}


def test_a_hand_of_reserved_tricks_leaves_everything_and_the_kitty_uncollected():
    kitty, tricks = hand_where_every_trick_is_reserved()
    hand = HandPlay(6, leader=5, kitty=kitty)
    for trick in tricks[:-1]:
        assert hand.play(trick) is None

    assert hand.kitty_waiting
    assert hand.waiting == Taken(20, 2)

    winner = hand.play(tricks[-1])

    assert winner is None
    assert hand.leader == 5
    assert hand.uncollected == Taken(26, 2)
    assert hand.waiting == Taken(0, 0)
    assert not hand.kitty_waiting
    assert all(taking == Taken(0, 0) for taking in hand.taken.values())
    assert score_hand(hand.taken) == dict.fromkeys(range(6), 0)


def twin_tricks(kinds, players):
    """Tricks of ``players // 2`` pairs of twins each, from ``kinds`` in order: every card cancels (R9)."""
    pairs_each = players // 2
    return [[kind for kind in kinds[start:start + pairs_each] for _copy in range(2)]
            for start in range(0, len(kinds), pairs_each)]


def test_after_a_known_kitty_and_ten_reserved_tricks_nothing_waits_and_everything_is_uncollected_r12_r13():
    kitty = ["Q♠", "Q♠", "2♥", "2♥"]
    kinds = [card for card in DECK[:52] if str(card) not in kitty]
    tricks = twin_tricks(kinds, 10)
    hand = HandPlay(10, leader=3, kitty=kitty)
    assert len(tricks) == hand.deal.tricks == 10

    for number, trick in enumerate(tricks[:-1], start=1):
        assert hand.play(trick) is None
        assert len(hand.reserved_cards) == 10 * number
        assert hand.kitty_waiting
        assert hand.waiting == hand.reserved + Taken(2, 2)
    winner = hand.play(tricks[-1])

    assert winner is None
    assert hand.reserved_cards == ()
    assert hand.reserved == hand.waiting == Taken(0, 0)
    assert not hand.kitty_waiting and hand.kitty_taken_by is None
    assert hand.uncollected == Taken(26, 2)
    assert all(taking == Taken(0, 0) for taking in hand.taken.values())
    assert sum(hand.copies_seen.values()) == 104


def test_after_a_won_first_trick_and_nine_reserved_tricks_only_the_reserved_cards_are_uncollected_r12_r13():
    kitty = ["A♣", "Q♠", "2♥", "K♦"]  # the twins of the first trick's single cards
    first = ["A♣", "2♣", "2♣", "Q♠", "2♥", "K♦", "3♣", "3♣", "4♣", "4♣"]
    kinds = [card for card in DECK[:52] if str(card) not in first]
    tricks = twin_tricks(kinds, 10)
    hand = HandPlay(10, leader=3, kitty=kitty)
    assert len(tricks) == 9

    assert hand.play(first) == 3  # A♣ is the only club left uncancelled (R9)
    assert hand.taken[3] == Taken(2, 2)  # the trick's 2♥ and Q♠, and the kitty's (R12)
    for number, trick in enumerate(tricks[:-1], start=1):
        assert hand.play(trick) is None
        assert len(hand.reserved_cards) == 10 * number
        assert hand.waiting == hand.reserved
    winner = hand.play(tricks[-1])

    assert winner is None
    assert hand.reserved_cards == ()
    assert hand.waiting == Taken(0, 0)
    assert hand.kitty_taken_by == 3 and not hand.kitty_waiting
    assert hand.uncollected == Taken(24, 0)
    assert hand.taken == {seat: Taken(2, 2) if seat == 3 else Taken(0, 0) for seat in range(10)}


def test_a_won_last_trick_leaves_nothing_uncollected():
    kitty, tricks = hand_won_by_leader_then_reserved_to_the_end()
    kitty = ["2♣", "2♦"]
    tricks[-3:] = [
        ["8♥", "7♥", "6♥", "5♥", "4♥", "3♥"],
        ["8♥", "7♥", "6♥", "5♥", "4♥", "3♥"],
        ["2♣", "2♦", "2♥", "2♥", "2♠", "2♠"],
    ]
    hand = HandPlay(6, leader=0, kitty=kitty)
    for trick in tricks:
        hand.play(trick)

    assert hand.uncollected == Taken(0, 0)
    assert sum(hand.taken.values(), Taken()) == Taken(26, 2)


# --- HandPlay refusals --------------------------------------------------------


@pytest.mark.parametrize(
    "trick",
    [
        ["2♣", "3♣", "4♣", "5♣", "6♣"],
        ["2♣", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣"],
        [],
        ["2♣", "3♣", "4♣", "5♣", "6♣", "7x"],
        ["2♣", "9♦", "4♣", "5♣", "9♦", "9♦"],
        ["2♣", "K♦", "4♣", "5♣", "6♣", "7♣"],
        ["K♥", "K♦", "4♣", "5♣", "6♣", "7♣"],
        ["A♣", "A♣", "4♦", "5♦", "6♦", "7♦"],
    ],
)
def test_a_refused_trick_raises_value_error_and_changes_nothing(trick):
    hand = HandPlay(6, leader=2, kitty=["K♦", "A♣"])
    hand.play(["2♣", "3♣", "4♣", "5♣", "6♣", "K♦"])
    before = state_of(hand)

    with pytest.raises(ValueError):
        hand.play(trick, confirm=True)

    assert state_of(hand) == before


def test_no_trick_is_taken_after_the_last_one():
    kitty, tricks = hand_where_every_trick_is_reserved()
    hand = HandPlay(6, leader=0, kitty=kitty)
    for trick in tricks:
        hand.play(trick)
    before = state_of(hand)

    with pytest.raises(ValueError):
        hand.play(["2♣", "3♣", "4♣", "5♣", "6♣", "7♣"], confirm=True)

    assert state_of(hand) == before


@pytest.mark.parametrize(
    ("players", "leader", "kitty"),
    [(5, 0, ()), (12, 0, ()), (6, 6, ()), (6, -1, ()), (6, 0, ["2♣"]), (6, 0, ["2♣", "x"]), (8, 0, ["2♣"])],
)
def test_hand_play_refuses_a_bad_table_leader_or_kitty(players, leader, kitty):
    with pytest.raises(ValueError):
        HandPlay(players, leader, kitty)


# --- R14 points, R15 shooting the moon ------------------------------------------


@pytest.mark.parametrize(
    ("taken", "points"),
    [(Taken(0, 0), 0), (Taken(1, 0), 1), (Taken(0, 1), 13), (Taken(5, 1), 18), (Taken(26, 2), 52)],
)
def test_a_heart_scores_one_and_a_black_maria_thirteen(taken, points):
    assert taken.points == points


def test_score_hand_gives_each_player_their_points_by_any_key():
    taken = {"ana": Taken(10, 1), ("seat", 2): Taken(16, 0), 7: Taken(0, 1)}

    points = score_hand(taken)

    assert points == {"ana": 23, ("seat", 2): 16, 7: 13}


def test_fewer_than_26_hearts_in_a_hand_is_legal():
    taken = {0: Taken(3, 0), 1: Taken(9, 1), 2: Taken(0, 0)}

    points = score_hand(taken)

    assert points == {0: 3, 1: 22, 2: 0}


@pytest.mark.parametrize(
    "taken",
    [
        {0: Taken(20, 0), 1: Taken(7, 0)},
        {0: Taken(0, 2), 1: Taken(0, 1)},
        {0: Taken(-1, 0), 1: Taken(5, 0)},
        {0: Taken(1, -1)},
        {0: (3, 0)},
    ],
)
def test_score_hand_refuses_impossible_takings(taken):
    with pytest.raises(ValueError):
        score_hand(taken)


@pytest.mark.parametrize("moon", [Moon.SUBTRACT, Moon.ADD])
def test_a_moon_choice_with_no_shooter_is_refused(moon):
    with pytest.raises(ValueError):
        score_hand({0: Taken(25, 2), 1: Taken(1, 0)}, moon)


def test_shooting_the_moon_needs_a_choice_and_names_the_shooter():
    taken = {"ana": Taken(0, 0), "ben": Taken(26, 2), "cai": Taken(0, 0)}

    with pytest.raises(MoonChoiceNeeded) as needed:
        score_hand(taken)

    assert needed.value.shooter == "ben"


@pytest.mark.parametrize(
    ("moon", "points"),
    [
        (Moon.SUBTRACT, {"ana": 0, "ben": -26, "cai": 0}),
        (Moon.ADD, {"ana": 26, "ben": 0, "cai": 26}),
    ],
)
def test_the_moon_shooter_subtracts_26_or_adds_26_to_everyone_else(moon, points):
    taken = {"ana": Taken(0, 0), "ben": Taken(26, 2), "cai": Taken(0, 0)}

    scored = score_hand(taken, moon)

    assert scored == points


def test_all_hearts_without_both_black_marias_is_not_the_moon():
    taken = {"ana": Taken(26, 1), "ben": Taken(0, 1)}

    points = score_hand(taken)

    assert points == {"ana": 39, "ben": 13}


# --- R16 end of game, R17 corrections -------------------------------------------


def test_nobody_wins_while_every_total_is_below_the_target():
    assert winners([0, 149, 80], 150) == []


def test_the_lowest_total_wins_once_anyone_reaches_the_target():
    assert winners([150, 40, 90], 150) == [1]
    assert winners({"ana": 12, "ben": 170, "cai": 30}, 150) == ["ana"]


def test_a_tie_on_the_lowest_total_shares_the_win():
    assert winners([160, 40, 90, 40], 150) == [1, 3]


@pytest.mark.parametrize("target", [0, -150, 150.0, None])
def test_winners_refuses_a_target_that_is_not_a_whole_number_from_one(target):
    with pytest.raises(ValueError):
        winners([1, 2, 3, 4, 5, 6], target)


def six_seat_hand(*taken):
    return HandRecord(tuple(taken) + (Taken(),) * (6 - len(taken)))


def test_score_game_derives_totals_dealers_passing_and_the_next_hand():
    hands = [six_seat_hand(Taken(10, 1), Taken(16, 1)), six_seat_hand(Taken(0, 0), Taken(26, 2))]
    hands[1] = HandRecord(hands[1].taken, Moon.SUBTRACT)

    board = score_game(6, first_dealer=5, target=150, hands=hands)

    assert board.totals == (23, 3, 0, 0, 0, 0)
    assert [(h.dealer, h.leader, h.direction) for h in board.hands] == [(5, 0, Direction.LEFT), (0, 1, Direction.RIGHT)]
    assert board.hands[1].shooter == 1
    assert board.winners == ()
    assert (board.next_hand.number, board.next_hand.dealer, board.next_hand.leader) == (3, 1, 2)
    assert board.next_hand.direction is Direction.LEFT
    assert (board.next_hand.cards_each, board.next_hand.kitty) == (17, 2)


def test_score_game_declares_the_lowest_totals_winners_once_the_target_is_reached():
    hands = [six_seat_hand(Taken(26, 2))]
    hands[0] = HandRecord(hands[0].taken, Moon.ADD)

    board = score_game(6, first_dealer=0, target=26, hands=hands)

    assert board.totals == (0, 26, 26, 26, 26, 26)
    assert board.winners == (0,)
    assert board.over
    assert board.next_hand is None


def test_a_hand_recorded_after_the_game_ended_is_refused():
    over = six_seat_hand(Taken(26, 2))
    hands = [HandRecord(over.taken, Moon.ADD), six_seat_hand(Taken(1, 0))]

    with pytest.raises(HandAfterGameOver) as refused:
        score_game(6, first_dealer=0, target=26, hands=hands)

    assert refused.value.ended_after == 1


def test_a_correction_that_brings_totals_under_the_target_reopens_the_game():
    first = six_seat_hand(Taken(26, 1), Taken(0, 1))
    recorded = [first, six_seat_hand(Taken(20, 1), Taken(0, 0), Taken(6, 1))]
    corrected = [first, six_seat_hand(Taken(0, 0), Taken(20, 1), Taken(6, 1))]

    before = score_game(6, first_dealer=0, target=50, hands=recorded)
    after = score_game(6, first_dealer=0, target=50, hands=corrected)

    assert before.totals == (72, 13, 19, 0, 0, 0)
    assert before.winners == (3, 4, 5)
    assert after.totals == (39, 46, 19, 0, 0, 0)
    assert after.winners == ()
    assert after.next_hand.number == 3


def test_a_house_variant_changes_the_points_where_the_game_is_scored():
    hands = [six_seat_hand(Taken(4, 1))]

    board = score_game(6, first_dealer=0, target=150, hands=hands, variant=Variant(heart_points=2, maria_points=10))

    assert Variant() == Variant(1, 13, 26) == rules.SEEDS
    assert board.totals[0] == 18


# --- Typed errors carry their data ------------------------------------------------


def test_text_that_is_no_card_names_the_text_and_its_place():
    with pytest.raises(rules.NotACard) as refused:
        resolve_trick(["10S", "9H", "1C"])

    assert (refused.value.text, refused.value.position, refused.value.rule) == ("1C", 2, "R2")


def test_a_third_copy_in_one_trick_names_the_card_and_its_place():
    with pytest.raises(rules.ThirdCopy) as refused:
        resolve_trick(["KC", "KC", "2C", "KC"])

    assert (refused.value.card, refused.value.position, refused.value.in_hand) == (Card.parse("K♣"), 3, False)


def test_a_third_copy_across_the_hand_counts_the_kitty_and_earlier_tricks():
    hand = HandPlay(9, 0, ["2♥", "3♥", "A♦", "K♦", "Q♦"])

    with pytest.raises(rules.ThirdCopy) as refused:
        hand.play(["2♣", "A♦", "3♣", "4♣", "5♣", "6♣", "7♣", "8♣", "A♦"])

    assert (refused.value.position, refused.value.in_hand) == (8, True)


@pytest.mark.parametrize("cards, least, most", [([], 1, 11), (["2C"] * 12, 1, 11)])
def test_a_trick_of_no_cards_or_more_than_eleven_is_the_wrong_size(cards, least, most):
    with pytest.raises(rules.TrickSize) as refused:
        resolve_trick(cards)

    assert (refused.value.count, refused.value.least, refused.value.most) == (len(cards), least, most)


def test_a_trick_of_a_games_table_holds_at_most_one_card_a_player():
    """Settled as one of an eight-player game's tricks, nine cards are one too many (R1); eight resolve."""
    with pytest.raises(rules.TrickSize) as refused:
        resolve_trick(["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C"], players=8)

    assert (refused.value.count, refused.value.least, refused.value.most) == (9, 1, 8)
    assert resolve_trick(["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"], players=8).winner == 7


def test_a_hand_trick_needs_one_card_from_every_player():
    with pytest.raises(rules.TrickSize) as refused:
        HandPlay(6, 0).play(["2C", "3C"])

    assert (refused.value.count, refused.value.least, refused.value.most) == (2, 6, 6)


def test_a_kitty_of_the_wrong_size_says_its_size():
    with pytest.raises(rules.KittySize) as refused:
        HandPlay(9, 0, ["2C"])

    assert (refused.value.count, refused.value.size, refused.value.players) == (1, 5, 9)


def test_a_trick_after_the_last_says_how_many_tricks_a_hand_has():
    hand = HandPlay(11, 0)
    for trick in range(hand.deal.tricks):  # 99 of the 104 cards, in deck order
        hand.play(list(DECK[trick * 11:trick * 11 + 11]), confirm=True)

    with pytest.raises(rules.HandFinished) as refused:
        hand.play(["2C"] * 11)

    assert refused.value.tricks == 9


@pytest.mark.parametrize("taken, what, count, player", [
    ({"Ana": Taken(27, 0)}, "hearts", 27, "Ana"),
    ({"Ana": Taken(0, 3)}, "marias", 3, "Ana"),
    ({"Ana": Taken(20, 0), "Bo": Taken(7, 0)}, "hearts", 27, None),
    ({"Ana": Taken(0, 2), "Bo": Taken(0, 1)}, "marias", 3, None),
])
def test_more_than_a_hand_holds_names_the_player_or_the_sum(taken, what, count, player):
    with pytest.raises(rules.MoreThanTheHandHolds) as refused:
        rules.check_takings(taken)

    assert (refused.value.what, refused.value.count, refused.value.player) == (what, count, player)


def test_a_short_hand_needs_the_reserved_last_trick_said_r13():
    short = [Taken(20, 1)] + [Taken(0, 0)] * 5

    with pytest.raises(rules.CardsUnaccounted) as refused:
        rules.check_hand(short)

    assert (refused.value.hearts, refused.value.marias) == (20, 1)
    assert rules.check_hand(short, last_trick_reserved=True) == HandRecord(tuple(short))


def test_check_hand_asks_a_shooter_for_the_choice_and_drops_a_leftover_choice():
    moon = [Taken(26, 2)] + [Taken(0, 0)] * 5
    spread = [Taken(5, 1), Taken(21, 1)] + [Taken(0, 0)] * 4

    with pytest.raises(MoonChoiceNeeded):
        rules.check_hand(moon)
    assert rules.check_hand(moon, "add").moon is Moon.ADD
    assert rules.check_hand(spread, "add").moon is None


@pytest.mark.parametrize("error", [
    rules.NotACard("X", 1), rules.ThirdCopy(Card.parse("2C"), 0, True), rules.TrickSize(3, 6, 6),
    rules.KittySize(1, 5, 9), rules.HandFinished(9), IllegalLead(Card.parse("2H"), "R8"),
    rules.MoreThanTheHandHolds("hearts", 27, 26), rules.CardsUnaccounted(20, 1), MoonChoiceNeeded(0),
    rules.NoMoonShot(), rules.TableSize(5), rules.BadTarget(0), HandAfterGameOver(3, 5),
])
def test_every_refusal_is_a_value_error_with_a_rule_number(error):
    assert isinstance(error, ValueError)
    assert error.rule.startswith("R")


# --- reprs are valid Python ---------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        Card.parse("Q♠"),
        Card.parse("10d"),
        Taken(3, 1),
        Taken(),
        resolve_trick(["Q♣", "K♣", "2♣", "K♣"]),
        resolve_trick(["10♠", "9♥", "9♥", "10♠"]),
        resolve_trick(["A♦"]),
        Deal(6, 17, 2),
        Direction.RIGHT,
        Moon.ADD,
    ],
    ids=repr,
)
def test_repr_is_python_that_rebuilds_the_value(value):
    rebuilt = eval(repr(value), dict(ENGINE_NAMESPACE))

    assert rebuilt == value
    assert type(rebuilt) is type(value)


def test_standings_put_the_lowest_first_and_equal_totals_share_a_place():
    hands = [HandRecord((Taken(5, 0), Taken(5, 1), Taken(4, 0), Taken(4, 1), Taken(4, 0), Taken(4, 0)))]

    board = score_game(6, 0, 10, hands)

    assert board.standings == ((1, 2), (1, 4), (1, 5), (4, 0), (5, 3), (6, 1))


def test_the_face_down_kitty_is_waiting_but_never_counted_among_the_reserved_cards_shown():
    play = HandPlay(9, 1, kitty=["2♥", "3♥", "A♦", "K♦", "Q♠"])

    before = (play.reserved_cards, play.reserved, play.waiting)
    play.play(["10♠", "10♠", "A♦", "3♦", "4♦", "5♦", "6♦", "7♦", "8♦"])  # reserved: the 10♠ cancel (R9)

    assert before == ((), Taken(0, 0), Taken(2, 1))
    assert len(play.reserved_cards) == 9 and play.reserved == Taken(0, 0)
    assert play.waiting == Taken(2, 1)  # the kitty's hearts and Black Maria still wait, unseen (R12)

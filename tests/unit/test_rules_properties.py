"""Properties of the rules engine that hold for every trick, card, hand score and table."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    NOTHING,
    SEEDS,
    Card,
    HandPlay,
    Moon,
    MoonChoiceNeeded,
    Taken,
    Variant,
    resolve_trick,
    score_hand,
    winners,
)

from ..profiles import examples
from ..tabletop import every_trick_reserved

SUITS = "♠♥♦♣"
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
VALID_SPELLINGS = {
    f"{rank}{suit}"
    for rank in [*map(str, range(2, 11)), "J", "Q", "K", "A"]
    for suit in "SHDC♠♥♦♣♤♡♢♧"
}

cards = st.builds(Card, st.integers(2, 14), st.sampled_from(SUITS))


@st.composite
def tricks(draw):
    """1 to 11 cards, at most two copies of each; few kinds, so cancellations are common."""
    kinds = draw(st.lists(cards, min_size=1, max_size=11, unique=True))
    both_decks = draw(st.permutations(kinds * 2))
    size = draw(st.integers(1, min(11, len(both_decks))))
    return both_decks[:size]


@st.composite
def takings(draw):
    """One hand's takings for 2 to 11 players: at most 26 hearts and 2 Black Marias in all."""
    players = draw(st.integers(2, 11))
    hearts = draw(st.integers(0, 26))
    marias = draw(st.integers(0, 2))
    heart_owners = draw(st.lists(st.integers(0, players - 1), min_size=hearts, max_size=hearts))
    maria_owners = draw(st.lists(st.integers(0, players - 1), min_size=marias, max_size=marias))
    hearts_by_seat, marias_by_seat = Counter(heart_owners), Counter(maria_owners)
    return {seat: Taken(hearts_by_seat[seat], marias_by_seat[seat]) for seat in range(players)}


def led_suit_cards(trick):
    return [position for position, card in enumerate(trick) if card.suit == trick[0].suit]


# --- resolve_trick (R9) -------------------------------------------------------------


@given(tricks())
def test_the_winner_is_never_a_cancelled_card(trick):
    result = resolve_trick(trick)

    assert result.winner is None or result.winner not in result.cancelled


@given(tricks())
def test_the_winner_is_the_highest_uncancelled_card_of_the_suit_led(trick):
    result = resolve_trick(trick)

    if result.winner is not None:
        uncancelled = [trick[p].rank for p in led_suit_cards(trick) if p not in result.cancelled]
        assert trick[result.winner].suit == trick[0].suit
        assert trick[result.winner].rank == max(uncancelled)


@given(tricks())
def test_a_trick_is_reserved_exactly_when_every_card_of_the_suit_led_is_cancelled(trick):
    result = resolve_trick(trick)

    every_led_card_cancelled = all(trick.count(trick[p]) == 2 for p in led_suit_cards(trick))
    assert (result.winner is None) == every_led_card_cancelled


@given(tricks())
def test_cancelled_positions_are_exactly_the_cards_played_twice(trick):
    result = resolve_trick(trick)

    assert result.cancelled == {p for p, card in enumerate(trick) if trick.count(card) == 2}


@given(tricks())
def test_the_explanation_data_agrees_with_the_result(trick):
    result = resolve_trick(trick)

    assert result.reason.led == trick[0].suit
    # The reason names the cancellations that decided the trick, and only those (R9).
    led_pairs = {trick[p] for p in result.cancelled if trick[p].suit == trick[0].suit}
    if result.winner is None:
        assert set(result.reason.cancelled) == led_pairs
    else:
        assert set(result.reason.cancelled) == {card for card in led_pairs if card.rank > trick[result.winner].rank}
    assert result.reason.winner == (None if result.winner is None else trick[result.winner])
    assert "R9" in result.reason.rules


@given(tricks(), st.randoms(use_true_random=False))
def test_reordering_the_followers_does_not_change_the_winning_card(trick, random):
    followers = list(trick[1:])
    random.shuffle(followers)

    before = resolve_trick(trick)
    after = resolve_trick([trick[0], *followers])

    winning = None if before.winner is None else trick[before.winner]
    assert (None if after.winner is None else after.cards[after.winner]) == winning


@given(tricks(), st.data())
def test_text_and_cards_resolve_alike(trick, data):
    as_text = [data.draw(st.sampled_from([str(card), card])) for card in trick]

    assert resolve_trick(as_text) == resolve_trick(trick)


# --- Card.parse (R2) ----------------------------------------------------------------


@given(cards)
def test_a_card_parses_back_from_its_own_text(card):
    assert Card.parse(str(card)) == card


@given(cards, st.booleans())
def test_a_card_parses_from_letters_in_either_case(card, lower):
    text = f"{RANK_TEXT.get(card.rank, card.rank)}{SUIT_LETTERS[card.suit]}"

    parsed = Card.parse(text.lower() if lower else text)

    assert parsed == card


# Pieces of card-like text, including look-alikes that str.upper() would turn into letters.
TEXT_PIECES = [
    "10", "1", "0", "2", "7", "9", "11", "J", "q", "K", "a", "S", "h", "D", "c", "x",
    "♠", "♥", "♦", "♣", "♤", "ſ", "ı", "ﬆ", "ß", "１", "½", "²", " ", "\ufe0f",
]


@given(st.lists(st.sampled_from(TEXT_PIECES), max_size=4).map("".join))
def test_card_parse_accepts_only_the_spellings_of_a_card(text):
    try:
        card = Card.parse(text)
    except ValueError:
        card = None

    cleaned = "".join(c.upper() if c.isascii() else c for c in text.strip().replace("\ufe0f", ""))
    assert (card is not None) == (cleaned in VALID_SPELLINGS)


# --- score_hand (R14, R15) --------------------------------------------------------


@given(takings())
def test_a_hand_scores_exactly_the_points_taken(taken):
    try:
        points = score_hand(taken)
    except MoonChoiceNeeded as needed:
        assert taken[needed.shooter] == Taken(26, 2)
        return

    assert points.keys() == taken.keys()
    assert sum(points.values()) == sum(taking.points for taking in taken.values())
    assert all(points[seat] == taken[seat].hearts + 13 * taken[seat].marias for seat in taken)


@given(st.integers(2, 11), st.data())
def test_shooting_the_moon_moves_26_points_whichever_the_choice(players, data):
    shooter = data.draw(st.integers(0, players - 1))
    taken = {seat: Taken(26, 2) if seat == shooter else Taken(0, 0) for seat in range(players)}

    subtracted = score_hand(taken, Moon.SUBTRACT)
    added = score_hand(taken, Moon.ADD)

    assert sum(subtracted.values()) == -26 and subtracted[shooter] == -26
    assert sum(added.values()) == 26 * (players - 1) and added[shooter] == 0


# --- winners (R16) ------------------------------------------------------------------


totals_lists = st.lists(st.integers(-100, 300), min_size=1, max_size=11)


@given(totals_lists, st.integers(1, 300))
def test_nobody_wins_until_somebody_reaches_the_target(totals, target):
    won = winners(totals, target)

    assert (won == []) == (max(totals) < target)


@given(totals_lists, st.integers(1, 300))
def test_the_winners_are_everyone_on_the_lowest_total_once_the_game_is_over(totals, target):
    won = winners(totals, target)

    if won:
        assert won == [seat for seat, total in enumerate(totals) if total == min(totals)]


@given(st.dictionaries(st.text(max_size=3), st.integers(-100, 300), min_size=1, max_size=11), st.integers(1, 300))
def test_winners_of_a_mapping_are_its_keys(totals, target):
    won = winners(totals, target)

    names = list(totals)
    assert won == [names[seat] for seat in winners(list(totals.values()), target)]


# --- HandPlay: a hand of reserved tricks only (R9-R13) ------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(
    players=st.integers(6, 11), kitty_known=st.booleans(),
    variant=st.sampled_from([SEEDS, Variant(jack_of_diamonds=-10)]), rng=st.randoms(use_true_random=False),
)
def test_a_hand_of_reserved_tricks_keeps_them_face_up_then_leaves_them_all_uncollected(
        players, kitty_known, variant, rng):
    kitty, tricks = every_trick_reserved(rng, players)
    known = kitty if kitty_known else []
    jacks = bool(variant.jack_of_diamonds)
    hand = HandPlay(players, 0, known, variant)
    played = []

    for trick in tricks:
        assert hand.play(trick, confirm=True) is None
        played += trick
        assert hand.leader == 0  # R10
        assert hand.taken == dict.fromkeys(range(players), NOTHING)
        assert sum(hand.copies_seen.values()) == len(known) + len(played)
        if not hand.finished:
            assert sorted(hand.reserved_cards) == sorted(played)
            assert hand.reserved == Taken.of_cards(played, jacks)
            assert hand.waiting == Taken.of_cards(played + known, jacks)
            assert hand.kitty_waiting

    assert hand.finished
    assert hand.uncollected == Taken.of_cards(played + known, jacks)  # R13
    assert hand.reserved_cards == ()
    assert hand.reserved == hand.waiting == NOTHING
    assert not hand.kitty_waiting and hand.kitty_taken_by is None

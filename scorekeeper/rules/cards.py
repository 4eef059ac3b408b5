"""Cards of the two decks, read as the table types them, and their copies (R2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import NotACard, ThirdCopy
from .numbers import COPIES

SPADES, HEARTS, DIAMONDS, CLUBS = "♠", "♥", "♦", "♣"
SUITS = SPADES + HEARTS + DIAMONDS + CLUBS
_SUIT_SYMBOLS = {
    "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS,
    # Outline suit symbols, as some phone keyboards offer them.
    "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS,
}
_RANK_LETTERS = {"J": 11, "Q": 12, "K": 13, "A": 14}
_RANK_TEXT = {rank: letter for letter, rank in _RANK_LETTERS.items()}
_VARIATION_SELECTOR = "\ufe0f"  # phones append it to emoji suits: "♥️"


@dataclass(frozen=True, order=True)
class Card:
    """One card; its twin from the other deck is equal to it (R2)."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 2 <= self.rank <= 14:
            raise ValueError(f"a card's rank is 2 to 14 (A), not {self.rank!r}")
        if self.suit not in SUITS:
            raise ValueError(f"a card's suit is one of {SUITS}, not {self.suit!r}")

    @classmethod
    def parse(cls, text: str | Card, letters: CardLetters | None = None) -> Card:
        """Read "10S", "10♠", "qs", "Q♠", "AH" or "2c" (any case), with ``letters`` (English by default).

        The suit symbols always work; suit letters are the language's own
        (Portuguese "9C" is 9♥). Rank letters are J, Q, K and A, as printed
        on the cards, and the language's own besides (Portuguese "DE" is Q♠).
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise NotACard(text)
        letters = letters or ENGLISH_LETTERS
        # Upper-case ASCII only: str.upper() turns "ſ" (long s) into "S".
        cleaned = "".join(
            char.upper() if char.isascii() else char
            for char in text.strip().replace(_VARIATION_SELECTOR, "")
        )
        rank_text, suit_text = cleaned[:-1], cleaned[-1:]
        suit = _SUIT_SYMBOLS.get(suit_text) or letters.suits.get(suit_text)
        rank = letters.ranks.get(rank_text, _RANK_LETTERS.get(rank_text))
        if rank is None and rank_text.isascii() and rank_text.isdigit() and len(rank_text) <= 2:  # 2 to 10
            number = int(rank_text)
            if 2 <= number <= 10 and rank_text == str(number):
                rank = number
        if suit is None or rank is None:
            raise NotACard(text)
        return cls(rank, suit)

    def __str__(self) -> str:
        """The card as every language shows it: the rank printed on it and the suit symbol ("Q♠")."""
        return f"{_RANK_TEXT.get(self.rank, self.rank)}{self.suit}"

    @property
    def is_heart(self) -> bool:
        return self.suit == HEARTS

    @property
    def is_black_maria(self) -> bool:
        """The queen of spades (R14)."""
        return self.rank == 12 and self.suit == SPADES


CARD_KINDS = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 15))  # one of each, suit by suit, 2 to A
BLACK_MARIA = Card(12, SPADES)
JACK_OF_DIAMONDS = Card(11, DIAMONDS)


@dataclass(frozen=True)
class CardLetters:
    """The letters a language types cards with: suit letter -> suit symbol, rank letters -> rank.

    Suit letters are one character each, upper case; rank letters upper case.
    Cards are shown, and taught, with the letters printed on them (J, Q, K, A)
    and the suit symbols; a language's own rank letters (Portuguese D for dama)
    are read besides, so none of them may stand for another rank than the
    printed letter does (a K typed is a king in every language).
    """

    suits: Mapping[str, str]
    ranks: Mapping[str, int]

    def __post_init__(self) -> None:
        if any(len(letter) != 1 or suit not in SUITS for letter, suit in self.suits.items()):
            raise ValueError(f"suit letters are single characters for {SUITS}, not {dict(self.suits)!r}")
        if sorted(self.suits.values()) != sorted(SUITS) or set(self.suits) & set(_SUIT_SYMBOLS):
            raise ValueError(f"one letter for each suit, none a suit symbol: {dict(self.suits)!r}")
        if any(not letter.isalpha() or rank not in range(11, 15) for letter, rank in self.ranks.items()):
            raise ValueError(f"rank letters are letters naming J, Q, K or A: {dict(self.ranks)!r}")
        if any(_RANK_LETTERS.get(letter, rank) != rank for letter, rank in self.ranks.items()):
            raise ValueError(f"a printed rank letter (J, Q, K, A) names its own rank: {dict(self.ranks)!r}")

    def typed(self, card: Card) -> str:
        """``card`` as a reader of these letters types it: its printed rank and its suit letter ("10E")."""
        letter = next(letter for letter, suit in self.suits.items() if suit == card.suit)
        return f"{_RANK_TEXT.get(card.rank, card.rank)}{letter}"


ENGLISH_LETTERS = CardLetters({"S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS}, dict(_RANK_LETTERS))


def parse_cards(cards: Iterable[str | Card], letters: CardLetters | None = None) -> tuple[Card, ...]:
    """Parse each card (with ``letters``); ``NotACard`` names the first one that does not parse, and its place."""
    parsed = []
    for position, card in enumerate(cards):
        try:
            parsed.append(Card.parse(card, letters))
        except NotACard as error:
            raise NotACard(error.text, position) from None
    return tuple(parsed)


def check_copies(cards: Sequence[Card], seen: Mapping[Card, int] | None = None) -> Counter[Card]:
    """Count ``cards`` onto the copies ``seen`` before them; ``ThirdCopy`` names the first too many (R2)."""
    counts = Counter(seen or {})
    for position, card in enumerate(cards):
        counts[card] += 1
        if counts[card] > COPIES:
            raise ThirdCopy(card, position, in_hand=seen is not None)
    return counts

"""Resolving one trick: cancellation, the winner or a reserved trick, and why (R9)."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, check_copies, parse_cards
from .errors import TrickSize
from .hand import Taken
from .numbers import COPIES, MAX_PLAYERS


class Outcome(str, enum.Enum):
    """The kinds of trick result an explanation can describe (R9)."""

    HIGHEST = "highest"  # no cancellation touched the winner
    HIGHEST_LEFT = "highest_left"  # cards cancelled, an uncancelled card wins
    RESERVED = "reserved"  # no uncancelled card of the suit led

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"


@dataclass(frozen=True)
class Explanation:
    """Why a trick went as it did, as data the app words in the reader's language.

    ``outcome`` picks the sentence; ``cancelled`` are the cancellations
    that decided it (one entry per pair, in play order of their first copy):
    pairs of the suit led that outranked the winner, or, when nobody won,
    those of the suit led. A pair that changed nothing is not a reason;
    ``winner`` is the winning card, if any; ``led`` is the suit led;
    ``rules`` the rule numbers it rests on. ``also_cancelled`` are the
    other pairs, which cancelled but decided nothing (they keep their points,
    R9's decision). ``by_reading`` says R9's decision on "two pairs, nobody
    wins" decides the trick: two pairs or more and still a winner, or a
    reserved trick with a single pair.
    """

    outcome: Outcome
    led: str
    rules: tuple[str, ...]
    cancelled: tuple[Card, ...] = ()
    winner: Card | None = None
    also_cancelled: tuple[Card, ...] = ()
    by_reading: bool = False

    @property
    def all_cancelled(self) -> tuple[Card, ...]:
        """Every cancelled pair, one card each."""
        return self.cancelled + self.also_cancelled


@dataclass(frozen=True)
class TrickResult:
    """Who won one trick, which cards cancelled, and why (R9).

    Positions are 0-based in play order; position 0 led the trick.
    """

    cards: tuple[Card, ...]
    winner: int | None
    cancelled: frozenset[int]
    reason: Explanation

    @property
    def reserved(self) -> bool:
        """Nobody won: the cards wait for the next winner (R9, R11)."""
        return self.winner is None

    @property
    def winning_card(self) -> Card | None:
        return None if self.winner is None else self.cards[self.winner]

    @property
    def taken(self) -> Taken:
        """The hearts and Black Marias in this trick; cancelled cards keep theirs (R9)."""
        return Taken.of_cards(self.cards)


def resolve_trick(cards: Sequence[str | Card], players: int | None = None) -> TrickResult:
    """Resolve one trick, the cards in play order, the first one led (R9).

    Any trick of 1 to 11 cards resolves, so that the seeds' four-card
    examples can be settled too; ``HandPlay`` asks for one card a player.
    With ``players`` (a game's table), at most one card a player (R1).
    """
    most = MAX_PLAYERS if players is None else players
    if not 1 <= len(cards) <= most:
        raise TrickSize(len(cards), 1, most)
    played = parse_cards(cards)
    check_copies(played)
    counts = Counter(played)
    led = played[0].suit
    cancelled = frozenset(i for i, card in enumerate(played) if counts[card] == COPIES)
    led_pairs = tuple(dict.fromkeys(played[i] for i in sorted(cancelled) if played[i].suit == led))
    pairs = tuple(dict.fromkeys(played[i] for i in sorted(cancelled)))
    contenders = [i for i, card in enumerate(played) if card.suit == led and i not in cancelled]
    if not contenders:
        others = tuple(card for card in pairs if card not in led_pairs)
        reason = Explanation(Outcome.RESERVED, led, ("R9",), led_pairs, also_cancelled=others,
                             by_reading=len(pairs) < 2)
        return TrickResult(played, None, cancelled, reason)
    winner = max(contenders, key=lambda i: played[i].rank)
    deciding = tuple(card for card in led_pairs if card.rank > played[winner].rank)
    others = tuple(card for card in pairs if card not in deciding)
    outcome = Outcome.HIGHEST_LEFT if deciding else Outcome.HIGHEST
    reason = Explanation(outcome, led, ("R9",), deciding, played[winner], also_cancelled=others,
                         by_reading=len(pairs) >= 2)
    return TrickResult(played, winner, cancelled, reason)

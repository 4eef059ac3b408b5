"""Playing a hand trick by trick: leads, reserved cards, the kitty, what each player collects (R6-R13)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .cards import CARD_KINDS, Card, check_copies, parse_cards
from .errors import HandFinished, IllegalLead, KittySize, RuleError, ThirdCopy, TrickSize
from .game import check_seat, deal
from .hand import NOTHING, Taken, moon_missed
from .numbers import COPIES
from .trick import TrickResult, resolve_trick
from .variant import SEEDS, Variant


class CopiesSeen(dict[Card, int]):
    """How many copies of each card a hand has shown (R2), how many of them lie in its known kitty, and
    the number of the trick to play next."""

    def __init__(self, counts: Mapping[Card, int], kitty: Mapping[Card, int], trick: int | None):
        super().__init__(counts)
        self.kitty = Counter(kitty)
        self.trick = trick


def _third_copy(card: Card, position: int, cards: Sequence[Card | None], seen: Mapping[Card, int] | None) -> ThirdCopy:
    """A ``ThirdCopy`` of the card at ``position`` of ``cards``, saying where its two copies are (R2)."""
    in_trick = sum(1 for other in cards[:position] if other == card)
    if seen is None:
        return ThirdCopy(card, position, in_trick=in_trick)
    in_kitty = getattr(seen, "kitty", {}).get(card, 0)
    return ThirdCopy(card, position, in_hand=True, in_trick=in_trick,
                     in_tricks=seen.get(card, 0) - in_kitty, in_kitty=in_kitty, trick=getattr(seen, "trick", None))


@dataclass(frozen=True)
class PlayedTrick:
    """One trick of a hand, as played, with where its cards went."""

    number: int  # 1-based within the hand
    leader: int  # seat that led it
    result: TrickResult
    winner: int | None  # seat that won it, None when reserved
    collected: Taken  # what the winner collected with it (reserved cards and kitty included)
    last: bool
    reserved_collected: int = 0  # cards of earlier reserved tricks its winner collected with it (R11)
    kitty_collected: bool = False  # its winner took the kitty with it (R12)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat that played each card, in play order."""
        players = len(self.result.cards)  # one card from every seat
        return tuple((self.leader + i) % players for i in range(players))


class HandPlay:
    """One hand played trick by trick, applying R6 and R8 to leads and R9-R13 to tricks.

    Seats are 0..players-1 clockwise. ``kitty`` holds the face-down cards
    if the table knows them; empty means not known, and then the kitty adds
    no points to its winner. Under ``variant``'s J♦ house rule the takings
    count J♦ too.
    """

    def __init__(self, players: int, leader: int, kitty: Sequence[str | Card] = (), variant: Variant = SEEDS):
        self.variant = variant
        self.deal = deal(players)
        check_seat(leader, players, "the leader")
        if kitty and len(kitty) != self.deal.kitty:
            raise KittySize(len(kitty), self.deal.kitty, players)
        self.kitty = parse_cards(kitty)
        self.players = players
        self.leader = leader
        self._seen = check_copies(self.kitty)
        # Only the face-up cards of reserved tricks: the kitty waits apart, for as long as nobody
        # has taken it (R12). Nothing is ever subtracted from this list, so it cannot disagree with the kitty.
        self._reserved_cards: list[Card] = []
        self.kitty_taken_by: int | None = None
        self.hearts_broken = False
        self.tricks: list[PlayedTrick] = []
        self._taken = {seat: NOTHING for seat in range(players)}
        self.uncollected = NOTHING

    def __repr__(self) -> str:
        variant = "" if self.variant == SEEDS else f", variant={self.variant!r}"
        return f"HandPlay({self.players!r}, {self.leader!r}, kitty={self.kitty!r}{variant})"

    def _taken_of(self, cards: Iterable[Card]) -> Taken:
        return Taken.of_cards(cards, jacks=bool(self.variant.jack_of_diamonds))

    @property
    def taken(self) -> dict[int, Taken]:
        """Every seat's hearts and Black Marias so far."""
        return dict(self._taken)

    @property
    def waiting(self) -> Taken:
        """Hearts and Black Marias in the reserved pile (kitty included, if known) waiting for a winner."""
        return self._taken_of(self._waiting_cards())

    def _waiting_cards(self) -> list[Card]:
        """The reserved cards and, while it waits (R12), the known kitty: what the next winner collects."""
        return self._reserved_cards + list(self.kitty if self.kitty_waiting else ())

    @property
    def copies_seen(self) -> dict[Card, int]:
        """How many copies of each card this hand has shown so far, the kitty included if known (R2);
        its ``kitty`` says how many of them are the kitty's."""
        return CopiesSeen(self._seen, Counter(self.kitty), self.trick_number)

    @property
    def copies_left(self) -> dict[Card, int]:
        """How many copies of each card this hand can still show, every card listed (R2)."""
        return {card: COPIES - self._seen.get(card, 0) for card in CARD_KINDS}

    @property
    def next_seats(self) -> tuple[int, ...]:
        """The seat that plays each card of the next trick, in play order from its leader (R10)."""
        return tuple((self.leader + i) % self.players for i in range(self.players))

    @property
    def reserved_cards(self) -> tuple[Card, ...]:
        """The face-up cards of reserved tricks waiting for a winner: the face-down kitty is not among them (R11)."""
        return tuple(self._reserved_cards)

    @property
    def reserved(self) -> Taken:
        """Hearts and Black Marias among the reserved cards waiting, as the table sees them face up (R11)."""
        return self._taken_of(self.reserved_cards)

    @property
    def kitty_waiting(self) -> bool:
        """The kitty has not yet gone to anyone (R12)."""
        return self.kitty_taken_by is None and not self.finished

    @property
    def moon_missed(self) -> int | None:
        """The seat that collected every heart and Black Maria collected, when the reserved last trick left
        some to nobody (R13): no moon, they score as usual (R15, decision b). None otherwise."""
        if not (self.uncollected.hearts or self.uncollected.marias):
            return None
        return moon_missed(self._taken)

    @property
    def trick_number(self) -> int:
        """The number of the trick to play next (1-based)."""
        return len(self.tricks) + 1

    @property
    def finished(self) -> bool:
        return len(self.tricks) == self.deal.tricks

    def check_lead(self, card: str | Card) -> None:
        """Raise ``IllegalLead`` if leading ``card`` now looks illegal (R6, R8)."""
        card = Card.parse(card)
        if not self.tricks and (card.is_heart or card.is_black_maria):
            raise IllegalLead(card, "R6")
        if self.tricks and card.is_heart and not self.hearts_broken:
            raise IllegalLead(card, "R8")

    def play(self, cards: Sequence[str | Card], confirm: bool = False) -> int | None:
        """Play one trick in order from the leader; return the winning seat or None.

        A refused trick changes nothing.
        """
        if self.finished:
            raise HandFinished(self.deal.tricks)
        if len(cards) != self.players:
            raise TrickSize(len(cards), self.players, self.players)
        played = parse_cards(cards)
        try:
            seen = check_copies(played, self._seen)
        except ThirdCopy as error:
            assert error.position is not None  # check_copies names the place of the card it refuses
            raise _third_copy(error.card, error.position, played, self.copies_seen) from None
        if not confirm:
            self.check_lead(played[0])
        result = resolve_trick(played)

        # Everything below only changes state; nothing can fail past here.
        self._seen = seen
        self.hearts_broken = self.hearts_broken or any(c.is_heart or c.is_black_maria for c in played)
        last = len(self.tricks) + 1 == self.deal.tricks
        leader = self.leader
        reserved_before = len(self._reserved_cards)
        kitty_before = self.kitty_taken_by is None and self.deal.kitty > 0
        # What waits is read before this trick counts as played: after the last one nothing waits (R13).
        with_trick = self._waiting_cards() + list(played)
        collected = NOTHING
        winner = None
        if result.winner is not None:
            winner = (leader + result.winner) % self.players
            collected = self._taken_of(with_trick)
            self._taken[winner] += collected  # R11, R12
            if self.kitty_taken_by is None:
                self.kitty_taken_by = winner
            self._reserved_cards.clear()
            self.leader = winner  # R10
        elif last:
            self.uncollected = self._taken_of(with_trick)  # R13
            self._reserved_cards.clear()  # collected by nobody: nothing waits after the hand
        else:
            self._reserved_cards.extend(played)  # R11
        # After a reserved trick, its leader leads again (R10).
        won = winner is not None
        self.tricks.append(PlayedTrick(len(self.tricks) + 1, leader, result, winner, collected, last,
                                       reserved_before if won else 0, kitty_before and won))
        return winner


def trick_problems(cards: Sequence[Card | None], players: int,
                   seen: Mapping[Card, int] | None = None) -> tuple[RuleError, ...]:
    """Every reason ``cards`` cannot be one trick of a hand of ``players``, not only the first (R1, R2).

    ``cards`` are in play order from the leader, None where the caller could
    not read one (and says why itself); ``seen`` counts the copies the hand
    showed before this trick (``HandPlay.copies_seen``). Each card past the
    two copies the decks hold is a ``ThirdCopy`` at its position, in play
    order; then a ``TrickSize`` unless there is one card a player.
    """
    counts = Counter(seen or {})
    problems: list[RuleError] = []
    for position, card in enumerate(cards):
        if card is None:
            continue
        counts[card] += 1
        if counts[card] > COPIES:
            problems.append(_third_copy(card, position, cards, seen))
    if len(cards) != players:
        problems.append(TrickSize(len(cards), players, players))
    return tuple(problems)


@dataclass(frozen=True)
class PlayedLog:
    """A hand's trick log as facts: the first leader, the kitty (if known) and each trick."""

    first_leader: int
    kitty: tuple[Card, ...] = ()
    tricks: tuple[tuple[tuple[Card, ...], bool], ...] = ()  # (cards from the leader, lead confirmed)


def check_log(log: PlayedLog, players: int, variant: Variant = SEEDS) -> HandPlay:
    """Play a ``PlayedLog`` through the engine (R6-R13) and return the play; raises a ``RuleError``."""
    play = HandPlay(players, log.first_leader, log.kitty, variant)
    for cards, confirmed in log.tricks:
        play.play(cards, confirm=confirmed)
    return play

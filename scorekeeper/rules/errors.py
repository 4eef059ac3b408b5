"""What a table can get wrong, as types with fields: every refusal of the rules is a ``RuleError``.

The app words each kind once, in the reader's language (scorekeeper/words/explain.py).
The English message is for logs, the command line and failing tests.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from .numbers import HEARTS_IN_HAND, JACKS_IN_HAND, MARIAS_IN_HAND

if TYPE_CHECKING:
    from .cards import Card
    from .game import Join, Leave
    from .hand import Taken
    from .variant import Moon


class RuleError(ValueError):
    """An entry the rules refuse; ``rule`` is the rule number it rests on."""

    rule = ""


class NotACard(RuleError):
    """Text that is no card (R2); ``position`` is its place among the cards given, if known."""

    rule = "R2"

    def __init__(self, text: object, position: int | None = None):
        super().__init__(f"not a card: {text!r} (write it like 10S, Q♠ or 2c)")
        self.text = text if isinstance(text, str) else repr(text)
        self.position = position


class ThirdCopy(RuleError):
    """A card used a third time, where the two decks hold two (R2).

    ``position`` is its place among the cards just given, if known;
    ``in_hand`` says the count includes the hand's earlier tricks and kitty.
    Where the two copies already are, when known: ``in_trick`` earlier in
    the same cards, ``in_tricks`` in the hand's earlier tricks, ``in_kitty``
    in the kitty once it is turned over; ``trick`` is the number of the
    trick the cards are, in a hand.
    """

    rule = "R2"

    def __init__(self, card: Card, position: int | None = None, in_hand: bool = False,
                 in_trick: int | None = None, in_tricks: int = 0, in_kitty: int = 0, trick: int | None = None):
        where = " in this hand (kitty included)" if in_hand else ""
        super().__init__(f"{card} would be played a third time{where}, but only two exist (R2)")
        self.card = card
        self.position = position
        self.in_hand = in_hand
        self.in_trick = in_trick
        self.in_tricks = in_tricks
        self.in_kitty = in_kitty
        self.trick = trick


class TrickSize(RuleError):
    """A trick with the wrong number of cards: one a player, ``least`` to ``most`` (R1, R9)."""

    rule = "R1"

    def __init__(self, count: int, least: int, most: int):
        wanted = f"{least}" if least == most else f"{least} to {most}"
        super().__init__(f"a trick has {wanted} cards, one from each player, not {count}")
        self.count = count
        self.least = least
        self.most = most


class KittySize(RuleError):
    """A kitty with the wrong number of cards for the table (R3)."""

    rule = "R3"

    def __init__(self, count: int, size: int, players: int):
        super().__init__(f"with {players} players the kitty holds {size} cards, not {count} (R3)")
        self.count = count
        self.size = size
        self.players = players


class HandFinished(RuleError):
    """A trick played after the hand's last one (R3: one trick per card in each hand)."""

    rule = "R3"

    def __init__(self, tricks: int):
        super().__init__(f"the hand is over: all {tricks} tricks have been played")
        self.tricks = tricks


class IllegalLead(RuleError):
    """A lead the rules forbid as far as the app can see (R6, R8).

    The app cannot see hands, so the table may confirm the lead anyway.
    """

    def __init__(self, card: Card, rule: str):
        if rule == "R6":
            message = f"The first lead of a hand may not be a heart or a Black Maria; {card} was led (R6)."
        else:
            message = f"Hearts are not broken yet, so {card} may not be led unless the leader holds only hearts (R8)."
        super().__init__(message)
        self.card = card
        self.rule = rule


class MoreThanTheHandHolds(RuleError):
    """More hearts or Black Marias than a hand holds (R14).

    ``what`` is "hearts" or "marias"; ``player`` is who was given too many,
    or None when the players' counts together are too many.
    """

    rule = "R14"

    def __init__(self, what: str, count: int, most: int, player: Hashable | None = None):
        whose = "all together" if player is None else f"{player!r}"
        super().__init__(f"a hand holds {most} {what}, not {count} ({whose}; R14)")
        self.what = what
        self.count = count
        self.most = most
        self.player = player


class CardsUnaccounted(RuleError):
    """Fewer than all hearts and Black Marias (and J♦, under that house rule) taken,
    and no reserved last trick said (R13, R14). ``jacks`` is None when J♦ do not score.
    """

    rule = "R13"

    def __init__(self, hearts: int, marias: int, jacks: int | None = None):
        counted = "" if jacks is None else f" and {jacks} of {JACKS_IN_HAND} J♦"
        super().__init__(
            f"the hand adds up to {hearts} of {HEARTS_IN_HAND} hearts and {marias} of "
            f"{MARIAS_IN_HAND} Black Marias{counted}: only a reserved last trick leaves cards uncollected (R13)"
        )
        self.hearts = hearts
        self.marias = marias
        self.jacks = jacks


class NothingCollected(RuleError):
    """A hand in which nobody collected anything that scores: a reserved last trick left it all (R13).

    Legal by R13 but almost always a slip, so, like ``IllegalLead``, a
    warning the table may confirm. ``uncollected`` is what nobody collected:
    every heart and Black Maria, and every J♦ where they score.
    """

    rule = "R13"

    def __init__(self, uncollected: Taken):
        jacks = f" and {uncollected.jacks} J♦" if uncollected.jacks else ""
        super().__init__(
            f"nobody collected anything: all {uncollected.hearts} hearts and {uncollected.marias} Black Marias"
            f"{jacks} were left by a reserved last trick; confirm it if so (R13)"
        )
        self.uncollected = uncollected


class MoonChoiceNeeded(RuleError):
    """A player shot the moon and has not chosen how it scores (R15)."""

    rule = "R15"

    def __init__(self, shooter: Hashable):
        super().__init__(
            f"{shooter!r} took all 26 hearts and both Black Marias: "
            "choose Moon.SUBTRACT or Moon.ADD (R15)"
        )
        self.shooter = shooter


class MoonNotAllowed(RuleError):
    """A moon choice the game's house rule does not allow; ``allowed`` is the one it does (R15)."""

    rule = "R15"

    def __init__(self, moon: Moon, allowed: Moon):
        super().__init__(f"this game's house rule allows only {allowed.value!r} for the moon, not {moon.value!r} (R15)")
        self.moon = moon
        self.allowed = allowed


class JacksNotPlayed(RuleError):
    """J♦ counted in a game whose house rules do not score them (R14)."""

    rule = "R14"

    def __init__(self, player: Hashable):
        super().__init__(f"J♦ score nothing in this game, yet {player!r} is given some (R14)")
        self.player = player


class NoMoonShot(RuleError):
    """A moon choice for a hand in which nobody took everything (R15)."""

    rule = "R15"

    def __init__(self) -> None:
        super().__init__("a moon choice needs a player with all 26 hearts and both Black Marias (R15)")


class TableSize(RuleError):
    """A table of fewer than 6 or more than 11 players (R1)."""

    rule = "R1"

    def __init__(self, players: object):
        super().__init__(f"Cancellation Hearts is for 6 to 11 players, not {players!r} (R1)")
        self.players = players


class BadTarget(RuleError):
    """A target that is not a whole number from 1 up (R16)."""

    rule = "R16"

    def __init__(self, target: object):
        super().__init__(f"the target is a whole number from 1 up, not {target!r} (R16)")
        self.target = target


class SeatingRefused(RuleError):
    """A player joining or leaving that the table cannot seat (R1).

    ``reason`` says what is wrong: "first_hand" (changes start before hand 2),
    "unplayed" (before a hand after the next one), "game_over", "absent"
    (a leaver not at the table), "full" (a join making 12), "short" (a leave
    making 5), "place" (a joiner's place past the table), "start" (a start
    total at or past the target), "many" (a change past ``MOST_SEAT_CHANGES``
    before one hand). ``change`` is the refused change.
    """

    rule = "R1"

    def __init__(self, reason: str, change: Join | Leave, next_hand: int | None = None):
        super().__init__(f"{change!r} cannot be made: {reason}")
        self.reason = reason
        self.change = change
        self.next_hand = next_hand  # the hand changes can come before, for "unplayed"


class HandAfterGameOver(RuleError):
    """A hand was recorded after the hand that ended the game (R16)."""

    rule = "R16"

    def __init__(self, ended_after: int, hands: int):
        super().__init__(
            f"the game was over after hand {ended_after} (R16), "
            f"but {hands} hands are recorded"
        )
        self.ended_after = ended_after
        self.hands = hands


class HouseRuleRefused(RuleError):
    """A house rule with a value the app does not offer; ``name`` is the setting, ``rule`` the printed rule it
    varies (its registry entry's, ``variant.HOUSE_RULES``; none for a setting that is no house rule)."""

    def __init__(self, name: str, value: object, rule: str = ""):
        super().__init__(f"the house rule {name} cannot be {value!r}")
        self.name = name
        self.value = value
        self.rule = rule


class JacksFixed(RuleError):
    """The J♦ house rule changed once hands are recorded: they do not say who took the J♦ (or would lose it)."""

    rule = "R14"

    def __init__(self) -> None:
        super().__init__("the J♦ house rule can change only before hand 1 is recorded")


class HandDoesNotFit(RuleError):
    """A recorded hand that other house rules would refuse: ``number`` and the engine's ``error``."""

    def __init__(self, number: int, error: RuleError):
        super().__init__(f"hand {number}: {error}")
        self.number = number
        self.error = error
        self.rule = error.rule

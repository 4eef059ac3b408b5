"""Cancellation Hearts, as docs/rules.md keeps it (R1-R17).

The rules engine: standard library only. Views, forms, models and commands
call into it; it never calls out. Values are immutable, errors are plain
domain exceptions, and every ``repr`` is valid Python so that a failing
example can be pasted back into a test.

Rule numbers in comments and messages refer to docs/rules.md.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from decimal import ROUND_HALF_UP, Decimal

MIN_PLAYERS = 6
MAX_PLAYERS = 11
DECK_SIZE = 104  # R2: two 52-card decks
COPIES = 2  # R2: every card exists exactly twice
HEARTS_IN_HAND = 26  # R14
MARIAS_IN_HAND = 2  # R14
DEFAULT_TARGET = 150  # R16
SUGGESTED_MINIMUM_TARGET = 100  # R16

SUITS = "♠♥♦♣"
SPADES, HEARTS, DIAMONDS, CLUBS = SUITS
_SUIT_SYMBOLS = {
    "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS,
    # Outline suit symbols, as some phone keyboards offer them.
    "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS,
}
_RANK_LETTERS = {"J": 11, "Q": 12, "K": 13, "A": 14}
_RANK_TEXT = {rank: letter for letter, rank in _RANK_LETTERS.items()}
_VARIATION_SELECTOR = "\ufe0f"  # phones append it to emoji suits: "♥️"


# --- Errors -----------------------------------------------------------------
#
# What a table can get wrong is a type with fields, never a sentence to parse:
# the app words each kind once, in the reader's language (scorekeeper/explain.py).
# The English message is for logs, the command line and failing tests.


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
    """

    rule = "R2"

    def __init__(self, card: Card, position: int | None = None, in_hand: bool = False):
        where = " in this hand (kitty included)" if in_hand else ""
        super().__init__(f"{card} would be played a third time{where}, but only two exist (R2)")
        self.card = card
        self.position = position
        self.in_hand = in_hand


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

    def __init__(self):
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
    total at or past the target). ``change`` is the refused change.
    """

    rule = "R1"

    def __init__(self, reason: str, change: Join | Leave):
        super().__init__(f"{change!r} cannot be made: {reason}")
        self.reason = reason
        self.change = change


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


# --- Cards ------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Card:
    """One card; its twin from the other deck is equal to it (R2)."""

    rank: int
    suit: str

    def __post_init__(self):
        if type(self.rank) is not int or not 2 <= self.rank <= 14:
            raise ValueError(f"a card's rank is 2 to 14 (A), not {self.rank!r}")
        if self.suit not in SUITS:
            raise ValueError(f"a card's suit is one of {SUITS}, not {self.suit!r}")

    @classmethod
    def parse(cls, text: str | Card, letters: CardLetters | None = None) -> Card:
        """Read "10S", "10♠", "qs", "Q♠", "AH" or "2c" (any case), with ``letters`` (English by default).

        The suit symbols always work; suit letters are the language's own
        (Portuguese "9C" is 9♥). Rank letters are the language's and, where
        they mean nothing else, J, Q, K and A.
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
        if rank is None and rank_text.isascii() and rank_text.isdigit():
            number = int(rank_text)
            if 2 <= number <= 10 and rank_text == str(number):
                rank = number
        if suit is None or rank is None:
            raise NotACard(text)
        return cls(rank, suit)

    def __str__(self) -> str:
        return f"{_RANK_TEXT.get(self.rank, self.rank)}{self.suit}"

    @property
    def is_heart(self) -> bool:
        return self.suit == HEARTS

    @property
    def is_black_maria(self) -> bool:
        """The queen of spades (R14)."""
        return self.rank == 12 and self.suit == SPADES


BLACK_MARIA = Card(12, SPADES)
JACK_OF_DIAMONDS = Card(11, DIAMONDS)


@dataclass(frozen=True)
class CardLetters:
    """The letters a language types cards with: suit letter -> suit symbol, rank letters -> rank.

    Suit letters are one character each, upper case; rank letters upper case.
    """

    suits: Mapping[str, str]
    ranks: Mapping[str, int]

    def __post_init__(self):
        if any(len(letter) != 1 or suit not in SUITS for letter, suit in self.suits.items()):
            raise ValueError(f"suit letters are single characters for {SUITS}, not {dict(self.suits)!r}")
        if sorted(self.suits.values()) != sorted(SUITS) or set(self.suits) & set(_SUIT_SYMBOLS):
            raise ValueError(f"one letter for each suit, none a suit symbol: {dict(self.suits)!r}")
        if any(not letter or rank not in range(11, 15) for letter, rank in self.ranks.items()):
            raise ValueError(f"rank letters name J, Q, K or A: {dict(self.ranks)!r}")


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


# --- House rules ------------------------------------------------------------


class Direction(str, enum.Enum):
    """Which way cards are passed (R5); left is the next seat clockwise (R1).

    ``ACROSS`` (to the seat halfway round) and ``HOLD`` (no passing) exist
    only under a house rule.
    """

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"

    def __repr__(self) -> str:
        return f"Direction.{self.name}"


class MoonRule(str, enum.Enum):
    """Which moon choices a game allows (R15): the shooter's choice, or one of them only."""

    EITHER = "either"
    SUBTRACT = "subtract"
    ADD = "add"

    def __repr__(self) -> str:
        return f"MoonRule.{self.name}"


class HouseRuleRefused(RuleError):
    """A house rule with a value the app does not offer; ``name`` is the setting."""

    def __init__(self, name: str, value: object):
        super().__init__(f"the house rule {name} cannot be {value!r}")
        self.name = name
        self.value = value
        self.rule = _RULE_REPLACED.get(name, "R14")


# The seeds' rule each house rule replaces, as the rules page shows them side by side.
_RULE_REPLACED = {
    "moon_points": "R15", "moon_choice": "R15", "passing": "R5", "cards_passed": "R5",
    "jack_of_diamonds": "R14",
}
MOON_POINTS_CHOICES = (26, 52)  # R15 (e): the seeds' 26, or the whole two-deck hand
CARDS_PASSED_CHOICES = range(1, 6)
JACK_OF_DIAMONDS_CHOICES = (0, -10)
LONGEST_PASSING_CYCLE = 12
JACKS_IN_HAND = 2  # R2: one J♦ a deck


@dataclass(frozen=True)
class Variant:
    """The house rules of a game, as one value; the default is the seeds' game.

    A house rule becomes another instance passed where the game is scored
    and dealt, never a flag elsewhere in the code. ``passing`` is the cycle
    of directions: hand N passes ``passing[(N - 1) % len(passing)]``.
    """

    heart_points: int = 1  # R14
    maria_points: int = 13  # R14
    moon_points: int = 26  # R15
    moon_choice: MoonRule = MoonRule.EITHER  # R15
    passing: tuple[Direction, ...] = (Direction.LEFT, Direction.RIGHT)  # R5
    cards_passed: int = 3  # R5
    jack_of_diamonds: int = 0  # points for each J♦ taken; 0 in the seeds

    def __post_init__(self):
        try:
            object.__setattr__(self, "moon_choice", MoonRule(self.moon_choice))
        except ValueError:
            raise HouseRuleRefused("moon_choice", self.moon_choice) from None
        passing = self.passing
        if isinstance(passing, (str, bytes)) or not isinstance(passing, Iterable):
            raise HouseRuleRefused("passing", passing)
        try:
            passing = tuple(Direction(direction) for direction in passing)
        except (TypeError, ValueError):
            raise HouseRuleRefused("passing", self.passing) from None
        if not 1 <= len(passing) <= LONGEST_PASSING_CYCLE:
            raise HouseRuleRefused("passing", self.passing)
        object.__setattr__(self, "passing", passing)
        for name, allowed in (("moon_points", MOON_POINTS_CHOICES), ("cards_passed", CARDS_PASSED_CHOICES),
                              ("jack_of_diamonds", JACK_OF_DIAMONDS_CHOICES)):
            value = getattr(self, name)
            if type(value) is not int or value not in allowed:
                raise HouseRuleRefused(name, value)

    @classmethod
    def from_facts(cls, facts: Mapping[str, object]) -> Variant:
        """The variant of the house rules as a game document writes them (``facts()``); missing ones are the seeds'."""
        unknown = set(facts) - set(HOUSE_RULES)
        if unknown:
            raise HouseRuleRefused(sorted(unknown)[0], facts[sorted(unknown)[0]])
        return cls(**facts)

    def facts(self) -> dict[str, object]:
        """The house rules as plain JSON-ready values."""
        return {
            "moon_points": self.moon_points, "moon_choice": self.moon_choice.value,
            "passing": [direction.value for direction in self.passing],
            "cards_passed": self.cards_passed, "jack_of_diamonds": self.jack_of_diamonds,
        }

    def changed(self) -> tuple[str, ...]:
        """The names of the house rules where this game differs from the seeds."""
        seeds = SEEDS.facts()
        return tuple(name for name, value in self.facts().items() if value != seeds[name])

    @property
    def moons(self) -> tuple[Moon, ...]:
        """The moon choices this game allows (R15)."""
        if self.moon_choice is MoonRule.EITHER:
            return (Moon.SUBTRACT, Moon.ADD)
        return (Moon(self.moon_choice.value),)

    def moon_for(self, moon: Moon | str | None, shooter: Hashable) -> Moon:
        """The choice a shooter's hand scores by: ``moon``, or the only one allowed (R15).

        Raises ``MoonChoiceNeeded`` when the table must choose, and
        ``MoonNotAllowed`` for a choice this game's house rule forbids.
        """
        if moon is None:
            if len(self.moons) == 1:
                return self.moons[0]
            raise MoonChoiceNeeded(shooter)
        moon = Moon(moon)
        if moon not in self.moons:
            raise MoonNotAllowed(moon, self.moons[0])
        return moon

    def cycle_direction(self, hand_number: int) -> Direction:
        """The passing cycle's entry for hand ``hand_number``, whatever the table's size."""
        _check_hand_number(hand_number)
        return self.passing[(hand_number - 1) % len(self.passing)]

    def direction(self, hand_number: int, players: int) -> Direction:
        """Which way hand ``hand_number`` passes at a table of ``players``: across is held when the count is odd."""
        direction = self.cycle_direction(hand_number)
        if direction is Direction.ACROSS and players % 2:
            return Direction.HOLD
        return direction


HOUSE_RULES = ("moon_points", "moon_choice", "passing", "cards_passed", "jack_of_diamonds")
SEEDS = Variant()


# --- Taken cards and hand scores -------------------------------------------


@dataclass(frozen=True)
class Taken:
    """Hearts and Black Marias one player took in a hand (R14), and J♦ where a house rule scores them."""

    hearts: int = 0
    marias: int = 0
    jacks: int = 0

    def __post_init__(self):
        for name in ("hearts", "marias", "jacks"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"{name} must be a whole number, not {getattr(self, name)!r}")

    def __repr__(self) -> str:
        jacks = f", jacks={self.jacks!r}" if self.jacks else ""
        return f"Taken({self.hearts!r}, {self.marias!r}{jacks})"

    @property
    def points(self) -> int:
        """Points under the seeds' scoring: 1 a heart, 13 a Black Maria (R14)."""
        return self.points_under(SEEDS)

    def points_under(self, variant: Variant) -> int:
        """Points under ``variant``'s scoring (R14 and its house rules)."""
        return (variant.heart_points * self.hearts + variant.maria_points * self.marias
                + variant.jack_of_diamonds * self.jacks)

    def __add__(self, other: Taken) -> Taken:
        return Taken(self.hearts + other.hearts, self.marias + other.marias, self.jacks + other.jacks)

    @classmethod
    def of_cards(cls, cards: Iterable[Card], jacks: bool = False) -> Taken:
        """Count the hearts and Black Marias among some cards, and the J♦ if ``jacks``."""
        cards = list(cards)
        return cls(
            sum(card.is_heart for card in cards),
            sum(card.is_black_maria for card in cards),
            sum(card == JACK_OF_DIAMONDS for card in cards) if jacks else 0,
        )


NOTHING = Taken(0, 0)


class Moon(str, enum.Enum):
    """How a shooter of the moon scores (R15)."""

    SUBTRACT = "subtract"  # 26 off the shooter's own score
    ADD = "add"  # 26 onto every other player's score

    def __repr__(self) -> str:
        return f"Moon.{self.name}"


def check_takings(taken: Mapping[Hashable, Taken], variant: Variant = SEEDS) -> Taken:
    """Validate one hand's takings and return what nobody collected (R13, R14).

    Raises ``MoreThanTheHandHolds`` for one player's count or the sum past
    26 hearts, 2 Black Marias or (when J♦ score) 2 J♦, and ``JacksNotPlayed``
    for J♦ counted in a game where they score nothing.
    """
    total = NOTHING
    for player, taking in taken.items():
        _check_taking(player, taking)
        if _unscored_jacks(taking, variant):
            raise JacksNotPlayed(player)
        _raise_first(_too_many(taking, variant, player))
        total += taking
    _raise_first(_too_many(total, variant))
    return _left_over(total, variant)


def _check_taking(player: Hashable, taking: object) -> None:
    """A count that is no ``Taken``, or below zero, is the caller's bug, not the table's mistake."""
    if not isinstance(taking, Taken):
        raise ValueError(f"{player!r}: expected Taken(hearts, marias), not {taking!r}")
    if taking.hearts < 0 or taking.marias < 0 or taking.jacks < 0:
        raise ValueError(f"{player!r}: hearts, Black Marias and J♦ cannot be negative")


def _raise_first(problems: Sequence[RuleError]) -> None:
    if problems:
        raise problems[0]


def _unscored_jacks(taking: Taken, variant: Variant) -> bool:
    """J♦ counted in a game whose house rules do not score them (R14)."""
    return bool(taking.jacks) and not variant.jack_of_diamonds


def _too_many(taken: Taken, variant: Variant, player: Hashable | None = None) -> list[RuleError]:
    """``MoreThanTheHandHolds`` for each kind past what a hand holds: hearts, then marias, then J♦ (R14)."""
    return [MoreThanTheHandHolds(what, count, most, player)
            for what, count, most in _counted(taken, variant) if count > most]


def _counted(taken: Taken, variant: Variant) -> tuple[tuple[str, int, int], ...]:
    """What a hand holds of each kind that scores: (kind, count taken, most a hand holds) (R2, R14).

    J♦ count only where the house rule scores them; elsewhere any J♦ is ``JacksNotPlayed``.
    """
    counted = (("hearts", taken.hearts, HEARTS_IN_HAND), ("marias", taken.marias, MARIAS_IN_HAND))
    if variant.jack_of_diamonds:
        counted += (("jacks", taken.jacks, JACKS_IN_HAND),)
    return counted


def _left_over(total: Taken, variant: Variant) -> Taken:
    """What nobody collected, given what all players took together (R13)."""
    jacks_left = JACKS_IN_HAND - total.jacks if variant.jack_of_diamonds else 0
    return Taken(HEARTS_IN_HAND - total.hearts, MARIAS_IN_HAND - total.marias, jacks_left)


def moon_shooter(taken: Mapping[Hashable, Taken]) -> Hashable | None:
    """The player who took all 26 hearts and both Black Marias, if any (R15); J♦ do not count towards it."""
    for player, taking in taken.items():
        if taking.hearts == HEARTS_IN_HAND and taking.marias == MARIAS_IN_HAND:
            return player
    return None


def score_hand(
    taken: Mapping[Hashable, Taken],
    moon: Moon | str | None = None,
    variant: Variant = SEEDS,
) -> dict[Hashable, int]:
    """Each player's points for one hand (R14, R15).

    ``taken`` maps any key (seat, name, id) to ``Taken``. Fewer than 26
    hearts in all is legal: a reserved last trick leaves cards uncollected
    (R13). Under a house rule that allows one moon choice only, that one
    is used when ``moon`` is None.
    """
    check_takings(taken, variant)
    moon = None if moon is None else Moon(moon)
    shooter = moon_shooter(taken)
    if shooter is None:
        if moon is not None:
            raise NoMoonShot()
        return {player: taking.points_under(variant) for player, taking in taken.items()}
    moon = variant.moon_for(moon, shooter)
    # R15: nobody adds the hand's normal points, whichever the choice; J♦ still score (house rule).
    jacks = {player: variant.jack_of_diamonds * taking.jacks for player, taking in taken.items()}
    if moon is Moon.SUBTRACT:
        return {player: jacks[player] - (variant.moon_points if player == shooter else 0) for player in taken}
    return {player: jacks[player] + (0 if player == shooter else variant.moon_points) for player in taken}


_TAKEN_KINDS = frozenset(each.name for each in fields(Taken))  # what a hand form may fail to read


def hand_problems(
    taken: Sequence[Taken], moon: Moon | str | None = None, last_trick_reserved: bool = False,
    variant: Variant = SEEDS, unread: frozenset[str] = frozenset(), nothing_collected_confirmed: bool = False,
) -> tuple[RuleError, ...]:
    """Every reason the rules refuse one hand as a table reports it, in the order a table reads them (R13-R15).

    ``taken`` lists each seat's takings. First each seat's own problems, seat
    by seat (``MoreThanTheHandHolds`` for hearts, Black Marias and J♦, then
    ``JacksNotPlayed``); then the kinds too many all together. Only when
    those are fine: ``CardsUnaccounted`` for cards missing without a reserved
    last trick said, ``NothingCollected`` for a reserved last trick that left
    everything (unless ``nothing_collected_confirmed``), and the moon's
    ``MoonChoiceNeeded`` or ``MoonNotAllowed`` as ``check_hand`` decides them.

    ``unread`` names the kinds ("hearts", "marias", "jacks") of which some
    seat's count could not be read and was passed as 0: their sums are only
    lower bounds, so only "too many" is checked. Counts that are no ``Taken``
    or below zero are the caller's bug and raise ``ValueError`` at once.
    """
    unread = frozenset(unread)
    if not unread <= _TAKEN_KINDS:
        raise ValueError(f"unread kinds are among {sorted(_TAKEN_KINDS)}, not {sorted(unread)!r}")
    by_seat = dict(enumerate(taken))
    for seat, taking in by_seat.items():
        _check_taking(seat, taking)
    problems: list[RuleError] = []
    for seat, taking in by_seat.items():
        problems += _too_many(taking, variant, seat)
        if _unscored_jacks(taking, variant):
            problems.append(JacksNotPlayed(seat))
    total = sum(by_seat.values(), NOTHING)
    problems += _too_many(total, variant)
    # With a count unread, a short sum may be the form's fault, not the table's: say nothing about it.
    if problems or unread:
        return tuple(problems)
    uncollected = _left_over(total, variant)
    if uncollected != NOTHING and not last_trick_reserved:
        problems.append(CardsUnaccounted(total.hearts, total.marias,
                                         total.jacks if variant.jack_of_diamonds else None))
    if total == NOTHING and last_trick_reserved and not nothing_collected_confirmed:
        problems.append(NothingCollected(uncollected))
    shooter = moon_shooter(by_seat)
    if shooter is not None:
        try:
            variant.moon_for(moon, shooter)
        except (MoonChoiceNeeded, MoonNotAllowed) as problem:
            problems.append(problem)
    return tuple(problems)


def check_hand(
    taken: Sequence[Taken], moon: Moon | str | None = None, last_trick_reserved: bool = False,
    variant: Variant = SEEDS, nothing_collected_confirmed: bool = False,
) -> HandRecord:
    """A hand as a table reports it, checked and made a record (R13-R15).

    Raises the first of ``hand_problems``: fewer than all hearts and Black
    Marias (and J♦, when they score) is legal only when the table says the
    last trick was reserved (R13, else ``CardsUnaccounted``), and a hand in
    which nobody collected anything must be confirmed (``NothingCollected``).
    A shooter needs a moon choice (``MoonChoiceNeeded``) unless the house
    rule allows only one, which the record then names; a choice left over
    from an earlier count, with nobody having shot the moon, is dropped.
    """
    _raise_first(hand_problems(taken, moon, last_trick_reserved, variant,
                               nothing_collected_confirmed=nothing_collected_confirmed))
    shooter = moon_shooter(dict(enumerate(taken)))
    if shooter is None:
        return HandRecord(tuple(taken))
    return HandRecord(tuple(taken), variant.moon_for(moon, shooter))


# --- Table: deal, dealer, passing ------------------------------------------


@dataclass(frozen=True)
class Deal:
    """How the 104 cards are dealt among the players (R3)."""

    players: int
    cards_each: int
    kitty: int

    @property
    def tricks(self) -> int:
        """One trick per card in each hand."""
        return self.cards_each


def check_players(players: int) -> int:
    """Return ``players`` if it is a legal table size (R1)."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise TableSize(players)
    return players


def deal(players: int) -> Deal:
    """Cards each and the kitty's size for a table of ``players`` (R3)."""
    check_players(players)
    return Deal(players, DECK_SIZE // players, DECK_SIZE % players)


def _check_hand_number(hand_number: int) -> None:
    if type(hand_number) is not int or hand_number < 1:
        raise ValueError(f"hands are numbered from 1, not {hand_number!r}")


def pass_direction(hand_number: int, variant: Variant = SEEDS, players: int = MIN_PLAYERS) -> Direction:
    """The seeds' odd hands left, even hands right, no hold hand (R5); or the house rule's cycle.

    An across hand at an odd count of ``players`` is played as a hold hand.
    """
    return variant.direction(hand_number, players)


def _check_seat(seat: int, players: int, what: str = "seat") -> None:
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"{what} must be a seat from 0 to {players - 1}, not {seat!r}")


def left_of(seat: int, players: int) -> int:
    """The next seat clockwise (R1)."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The previous seat clockwise (R1)."""
    return (seat - 1) % players


def pass_to(seat: int, players: int, direction: Direction) -> int | None:
    """The seat that ``seat`` passes its cards to (R5): None in a hold hand, halfway round across."""
    if direction is Direction.LEFT:
        return left_of(seat, players)
    if direction is Direction.RIGHT:
        return right_of(seat, players)
    if direction is Direction.ACROSS and players % 2 == 0:
        return (seat + players // 2) % players
    return None


def dealer_of(hand_number: int, first_dealer: int, players: int) -> int:
    """The deal moves one seat left after every hand (R4)."""
    _check_hand_number(hand_number)
    check_players(players)
    _check_seat(first_dealer, players, "the first dealer")
    return (first_dealer + hand_number - 1) % players


def first_leader(dealer: int, players: int) -> int:
    """The player left of the dealer leads the first trick (R4)."""
    return left_of(dealer, players)


# --- Resolving one trick ----------------------------------------------------


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
    ``rules`` the rule numbers it rests on.
    """

    outcome: Outcome
    led: str
    rules: tuple[str, ...]
    cancelled: tuple[Card, ...] = ()
    winner: Card | None = None


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


def resolve_trick(cards: Sequence[str | Card]) -> TrickResult:
    """Resolve one trick, the cards in play order, the first one led (R9).

    Any trick of 1 to 11 cards resolves, so that the seeds' four-card
    examples can be settled too; ``HandPlay`` asks for one card a player.
    """
    if not 1 <= len(cards) <= MAX_PLAYERS:
        raise TrickSize(len(cards), 1, MAX_PLAYERS)
    played = parse_cards(cards)
    _check_copies(played)
    counts = Counter(played)
    led = played[0].suit
    cancelled = frozenset(i for i, card in enumerate(played) if counts[card] == COPIES)
    led_pairs = tuple(dict.fromkeys(played[i] for i in sorted(cancelled) if played[i].suit == led))
    contenders = [i for i, card in enumerate(played) if card.suit == led and i not in cancelled]
    if not contenders:
        reason = Explanation(Outcome.RESERVED, led, ("R9",), led_pairs)
        return TrickResult(played, None, cancelled, reason)
    winner = max(contenders, key=lambda i: played[i].rank)
    deciding = tuple(card for card in led_pairs if card.rank > played[winner].rank)
    outcome = Outcome.HIGHEST_LEFT if deciding else Outcome.HIGHEST
    reason = Explanation(outcome, led, ("R9",), deciding, played[winner])
    return TrickResult(played, winner, cancelled, reason)


# --- Playing a hand trick by trick -----------------------------------------


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
        _check_seat(leader, players, "the leader")
        if kitty and len(kitty) != self.deal.kitty:
            raise KittySize(len(kitty), self.deal.kitty, players)
        self.kitty = parse_cards(kitty)
        self.players = players
        self.leader = leader
        self._seen = _check_copies(self.kitty)
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
        """How many copies of each card this hand has shown so far, the kitty included if known (R2)."""
        return dict(self._seen)

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
        seen = _check_copies(played, self._seen)
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


def _check_copies(cards: Sequence[Card], seen: Counter | None = None) -> Counter:
    """Count ``cards`` onto the copies ``seen`` before them; ``ThirdCopy`` names the first too many (R2)."""
    counts = Counter(seen or {})
    for position, card in enumerate(cards):
        counts[card] += 1
        if counts[card] > COPIES:
            raise ThirdCopy(card, position, in_hand=seen is not None)
    return counts


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
            problems.append(ThirdCopy(card, position, in_hand=seen is not None))
    if len(cards) != players:
        problems.append(TrickSize(len(cards), players, players))
    return tuple(problems)


# --- A whole game ------------------------------------------------------------


@dataclass(frozen=True)
class HandRecord:
    """The facts of one recorded hand: each seat's takings, in its seating's order, and any moon choice."""

    taken: tuple[Taken, ...]
    moon: Moon | None = None


@dataclass(frozen=True)
class Leave:
    """Player ``player`` (a roster number) leaves the table before hand ``before_hand``."""

    before_hand: int
    player: int


@dataclass(frozen=True)
class Join:
    """A new player sits down before hand ``before_hand``, at place ``at`` (0-based) of the
    seating the changes before it left, with ``start`` points.

    ``player`` is their roster number: the players of hand 1 are 0 to n-1 in
    their seating order, and each joiner takes the next number.
    """

    before_hand: int
    player: int
    at: int
    start: int


SeatChange = Join | Leave


@dataclass(frozen=True)
class HandSummary:
    """One recorded hand with everything derived from it.

    Players are roster numbers. ``seating`` lists who played the hand,
    clockwise; ``taken`` follows it. ``points`` and ``totals`` are indexed by
    roster number: None in ``points`` for who did not play the hand, in
    ``totals`` for who had not joined yet. ``direction`` is how the hand
    passed: a hold where the cycle said across at an odd table (``across_held``).
    """

    number: int
    dealer: int
    leader: int
    direction: Direction
    taken: tuple[Taken, ...]
    uncollected: Taken
    moon: Moon | None
    shooter: int | None
    points: tuple[int | None, ...]
    totals: tuple[int | None, ...]  # running totals after this hand
    seating: tuple[int, ...] = ()
    across_held: bool = False

    @property
    def seat_points(self) -> tuple[int, ...]:
        """The points of the hand in seating order, as ``taken``."""
        return tuple(self.points[player] for player in self.seating)


@dataclass(frozen=True)
class NextHand:
    """The hand to deal next: who sits where, deals, leads, which way and how many to pass (R3-R5)."""

    number: int
    dealer: int
    leader: int
    direction: Direction
    cards_each: int
    kitty: int
    seating: tuple[int, ...] = ()
    across_held: bool = False
    cards_passed: int = 3

    @property
    def passes(self) -> tuple[tuple[int, int], ...]:
        """(giver, receiver) for every player, in seating order; none in a hold hand (R5)."""
        players = len(self.seating)
        pairs = []
        for place, giver in enumerate(self.seating):
            receiver = pass_to(place, players, self.direction)
            if receiver is not None:
                pairs.append((giver, self.seating[receiver]))
        return tuple(pairs)

    def place(self, player: int) -> int:
        """Where ``player`` sits in this hand's seating (0-based, clockwise)."""
        return self.seating.index(player)


@dataclass(frozen=True)
class Scoreboard:
    """A game's state, derived from its recorded hands and seat changes every time (R17).

    Players are roster numbers (``players`` of them: everyone who sat at the
    table in this game). ``seating`` is who is at the table now (for the
    next hand; the last hand's when the game is over); ``left_after`` maps
    each player who left to the last hand they played.
    """

    players: int
    target: int
    hands: tuple[HandSummary, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    next_hand: NextHand | None
    seating: tuple[int, ...] = ()
    left_after: Mapping[int, int] = field(default_factory=dict)
    variant: Variant = SEEDS

    def __post_init__(self):
        if not self.seating:
            object.__setattr__(self, "seating", tuple(range(self.players)))

    @property
    def over(self) -> bool:
        return bool(self.winners)

    @property
    def lowest(self) -> int:
        """The lowest total among the players at the table (R16)."""
        return min(self.totals[player] for player in self.seating)

    @property
    def standings(self) -> tuple[tuple[int, int], ...]:
        """(place, player) from the lowest total up, players at the table only; equal totals share a place (R16)."""
        present = [self.totals[player] for player in self.seating]
        order = sorted(self.seating, key=lambda player: (self.totals[player], self.seating.index(player)))
        return tuple((1 + sum(total < self.totals[player] for total in present), player) for player in order)


def check_target(target: int) -> int:
    """Return ``target`` if it is a whole number from 1 up (R16)."""
    if type(target) is not int or target < 1:
        raise BadTarget(target)
    return target


def next_dealer(dealer: int, before: Sequence[int], after: Sequence[int]) -> int:
    """Who deals after ``dealer`` dealt at seating ``before``, now the seating is ``after`` (R4).

    The deal passes to the next player clockwise from the last dealer in the
    new seating; if the dealer left, to the first player clockwise from
    their old place who played the last hand and is still at the table.
    Should nobody of the last hand remain, the first place deals.
    """
    if dealer in after:
        return after[(after.index(dealer) + 1) % len(after)]
    place = before.index(dealer)
    for step in range(1, len(before)):
        candidate = before[(place + step) % len(before)]
        if candidate in after:
            return candidate
    return after[0]


def _upcoming(number: int, dealer: int, seating: tuple[int, ...], variant: Variant) -> NextHand:
    """Dealer, first leader, passing and the deal for hand ``number`` at ``seating`` (R3-R5)."""
    players = len(seating)
    the_deal = deal(players)
    leader = seating[left_of(seating.index(dealer), players)]
    direction = variant.direction(number, players)
    across_held = direction is not variant.cycle_direction(number)
    return NextHand(number, dealer, leader, direction, the_deal.cards_each, the_deal.kitty,
                    seating, across_held, variant.cards_passed)


def _seat(change: SeatChange, seating: list[int], roster: int, target: int) -> int:
    """Apply one seat change to ``seating``; return the roster size after it (R1)."""
    if isinstance(change, Leave):
        if change.player not in seating:
            raise SeatingRefused("absent", change)
        if len(seating) == MIN_PLAYERS:
            raise SeatingRefused("short", change)
        seating.remove(change.player)
        return roster
    if change.player != roster:
        raise ValueError(f"the next joiner is roster number {roster}, not {change.player!r}")
    if len(seating) == MAX_PLAYERS:
        raise SeatingRefused("full", change)
    if type(change.at) is not int or not 0 <= change.at <= len(seating):
        raise SeatingRefused("place", change)
    if type(change.start) is not int or change.start >= target:
        raise SeatingRefused("start", change)
    seating.insert(change.at, change.player)
    return roster + 1


def starting_players(roster: int, changes: Sequence[SeatChange]) -> int:
    """How many sat down for hand 1 of a game of ``roster`` players (all who sat at its table) after ``changes``."""
    return roster - sum(isinstance(change, Join) for change in changes)


def seatings(players: int, changes: Sequence[SeatChange], hands: int, target: int) -> tuple[tuple[int, ...], ...]:
    """Who sits where (roster numbers, clockwise) for hands 1 to ``hands`` + 1, after ``changes`` (R1).

    Raises ``SeatingRefused`` as ``score_game`` does, except for a change
    after the game is over, which only scoring can tell.
    """
    _check_changes(changes, hands)
    seating = list(range(check_players(players)))
    roster = players
    found = []
    for number in range(1, hands + 2):
        roster = _seat_all(_made_before(changes, number), seating, roster, target)
        found.append(tuple(seating))
    return tuple(found)


def _made_before(changes: Sequence[SeatChange], number: int) -> list[SeatChange]:
    """The seat changes made before hand ``number``, in the order made."""
    return [change for change in changes if change.before_hand == number]


def _seat_all(made: Sequence[SeatChange], seating: list[int], roster: int, target: int) -> int:
    """Apply the changes ``made`` before one hand to ``seating``, in order; return the roster size after them."""
    for change in made:
        roster = _seat(change, seating, roster, target)
    return roster


def _check_changes(changes: Sequence[SeatChange], hands: int) -> None:
    """Seat changes come in the order made, from before hand 2 to before the next hand (R1)."""
    numbers = [change.before_hand for change in changes]
    if not all(type(number) is int for number in numbers) or numbers != sorted(numbers):
        raise ValueError("seat changes are listed in the order they were made, hand by hand")
    for change in changes:
        if change.before_hand < 2:
            raise SeatingRefused("first_hand", change)
        if change.before_hand > hands + 1:
            raise SeatingRefused("unplayed", change)


def score_game(
    players: int,
    first_dealer: int,
    target: int,
    hands: Sequence[HandRecord],
    variant: Variant = SEEDS,
    changes: Sequence[SeatChange] = (),
) -> Scoreboard:
    """Derive totals, seating, dealers, passing, the verdict and the next hand (R1, R3-R5, R14-R17).

    ``players`` sit down for hand 1 as roster numbers 0 to players-1;
    ``changes`` (in the order they were made, by ``before_hand``) seat
    joiners and see leavers off between hands, from before hand 2 up to
    before the next hand. A player who left keeps their total but no longer
    deals, passes, ends the game or wins.

    Raises ``MoonChoiceNeeded`` or ``ValueError`` for a hand that cannot be
    scored, ``SeatingRefused`` for a change the table cannot make, and
    ``HandAfterGameOver`` when hands follow the one that ended the game.
    """
    check_players(players)
    _check_seat(first_dealer, players, "the first dealer")
    check_target(target)
    _check_changes(changes, len(hands))
    seating = list(range(players))
    totals: list[int | None] = [0] * players
    summaries: list[HandSummary] = []
    dealer = first_dealer
    over: list[int] = []
    for number in range(1, len(hands) + 2):
        before = tuple(seating)
        made = _made_before(changes, number)
        if made and over:
            raise SeatingRefused("game_over", made[0])
        _seat_all(made, seating, len(totals), target)
        totals += [change.start for change in made if isinstance(change, Join)]
        if number > 1:
            dealer = next_dealer(dealer, before, seating)
        if number > len(hands):
            break
        if over:
            raise HandAfterGameOver(number - 1, len(hands))
        summary = _scored_hand(hands[number - 1], _upcoming(number, dealer, tuple(seating), variant), totals,
                               variant)
        summaries.append(summary)
        totals = list(summary.totals)
        over = winners({player: totals[player] for player in seating}, target)
    coming = None if over else _upcoming(len(hands) + 1, dealer, tuple(seating), variant)
    left_after = {change.player: change.before_hand - 1 for change in changes if isinstance(change, Leave)}
    # Hands before a join have no place for the joiner yet: every hand lists the whole roster.
    summaries = [_padded(summary, len(totals)) for summary in summaries]
    return Scoreboard(len(totals), target, tuple(summaries), tuple(totals), tuple(over), coming,
                      tuple(seating), left_after, variant)


def _padded(summary: HandSummary, roster: int) -> HandSummary:
    missing = (None,) * (roster - len(summary.points))
    if not missing:
        return summary
    return replace(summary, points=summary.points + missing, totals=summary.totals + missing)


def _scored_hand(record: HandRecord, hand: NextHand, totals: list[int | None], variant: Variant) -> HandSummary:
    """One recorded hand scored at its seating (R14, R15), with the running totals after it."""
    seats = len(hand.seating)
    if len(record.taken) != seats:
        raise ValueError(f"hand {hand.number} has takings for {len(record.taken)} seats, not {seats}")
    taken = dict(enumerate(record.taken))
    uncollected = check_takings(taken, variant)
    points_by_place = score_hand(taken, record.moon, variant)
    shooter = moon_shooter(taken)
    moon = None if shooter is None else variant.moon_for(record.moon, shooter)
    points: list[int | None] = [None] * len(totals)
    after = list(totals)
    for place, player in enumerate(hand.seating):
        points[player] = points_by_place[place]
        after[player] += points_by_place[place]
    return HandSummary(
        hand.number, hand.dealer, hand.leader, hand.direction, tuple(record.taken), uncollected, moon,
        None if shooter is None else hand.seating[shooter], tuple(points), tuple(after),
        hand.seating, hand.across_held,
    )


def winners(totals: Mapping[Hashable, int] | Sequence[int], target: int) -> list:
    """Nobody while all totals are below the target; else all on the lowest total (R16).

    ``totals`` is a mapping (the winners are its keys) or a sequence (the
    winners are positions).
    """
    check_target(target)
    by_player = dict(totals) if isinstance(totals, Mapping) else dict(enumerate(totals))
    if not by_player or max(by_player.values()) < target:
        return []
    lowest = min(by_player.values())
    return [player for player, total in by_player.items() if total == lowest]


# --- A player joining: the total they start with ---------------------------------


class StartRule(str, enum.Enum):
    """How the table picks a joiner's starting total: joining late should be no advantage by default."""

    HIGHEST = "highest"  # the highest total among the players at the table
    AVERAGE = "average"  # their average, rounded up
    ZERO = "zero"
    TYPED = "typed"  # a number the table agrees

    def __repr__(self) -> str:
        return f"StartRule.{self.name}"


def starting_total(board: Scoreboard, rule: StartRule | str, typed: int | None = None) -> int:
    """The total a player joining now starts with, under ``rule`` (``typed`` for ``StartRule.TYPED``)."""
    rule = StartRule(rule)
    present = [board.totals[player] for player in board.seating]
    if rule is StartRule.HIGHEST:
        return max(present)
    if rule is StartRule.AVERAGE:
        return -(-sum(present) // len(present))  # rounded up, also below zero
    if rule is StartRule.ZERO:
        return 0
    if type(typed) is not int:
        raise ValueError(f"a typed starting total is a whole number, not {typed!r}")
    return typed


# --- A player's figures across games: the club's memory ------------------------------


@dataclass(frozen=True)
class Figures:
    """What a player did in one game, or a person in many (added up), derived from the recorded hands (R17).

    ``games`` played, of them ``finished`` (the game ended, R16) and ``wins``
    (a finished game won; a shared win is a win). ``hands`` played and the
    ``points`` they scored (moons included, a joiner's starting total not),
    ``zero_hands`` scored 0, the moons shot by choice (R15), and the
    ``hearts`` and ``marias`` taken (R14).
    """

    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    zero_hands: int = 0
    moons_subtracted: int = 0
    moons_added: int = 0
    hearts: int = 0
    marias: int = 0

    def __add__(self, other: Figures) -> Figures:
        return Figures(*(mine + theirs for mine, theirs in zip(self.counts(), other.counts())))

    def counts(self) -> tuple[int, ...]:
        """The fields as a plain tuple, in their order (``dataclasses.astuple`` copies deeply, slowly)."""
        return tuple(getattr(self, name) for name in _FIGURE_FIELDS)

    @property
    def moons(self) -> int:
        return self.moons_subtracted + self.moons_added

    @property
    def points_per_hand(self) -> Decimal | None:
        """Points a hand to one decimal, halves rounded away from zero; None before any hand."""
        if not self.hands:
            return None
        return (Decimal(self.points) / Decimal(self.hands)).quantize(Decimal("0.1"), ROUND_HALF_UP)


_FIGURE_FIELDS = tuple(each.name for each in fields(Figures))


def game_figures(board: Scoreboard) -> tuple[Figures, ...]:
    """Each player's ``Figures`` in one game, by roster number."""
    tallies = [Counter() for _player in range(board.players)]
    for summary in board.hands:
        for place, player in enumerate(summary.seating):
            points, taken, tally = summary.points[player], summary.taken[place], tallies[player]
            tally["hands"] += 1
            tally["points"] += points
            tally["zero_hands"] += points == 0
            tally["hearts"] += taken.hearts
            tally["marias"] += taken.marias
            if summary.shooter == player:
                tally["moons_subtracted" if summary.moon is Moon.SUBTRACT else "moons_added"] += 1
    finished = int(board.over)
    return tuple(Figures(games=1, finished=finished, wins=int(player in board.winners), **tally)
                 for player, tally in enumerate(tallies))

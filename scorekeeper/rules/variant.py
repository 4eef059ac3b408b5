"""House rules: a game's variant of the printed rules, as one value (R5, R14, R15)."""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import HouseRuleRefused, MoonChoiceNeeded, MoonNotAllowed


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


class Moon(str, enum.Enum):
    """How a shooter of the moon scores (R15)."""

    SUBTRACT = "subtract"  # 26 off the shooter's own score
    ADD = "add"  # 26 onto every other player's score

    def __repr__(self) -> str:
        return f"Moon.{self.name}"


MOON_POINTS_CHOICES = (26, 52)  # R15 (e): the seeds' 26, or the whole two-deck hand
CARDS_PASSED_CHOICES = range(1, 6)
JACK_OF_DIAMONDS_CHOICES = (0, -10)
LONGEST_PASSING_CYCLE = 12
# Passing cycles a form offers (R5): the seeds' first, then the usual Hearts ones; a game may hold any other
# cycle of 1 to LONGEST_PASSING_CYCLE directions (an imported game's).
PASSING_CYCLES = tuple(tuple(Direction(word) for word in cycle.split()) for cycle in (
    "left right", "left right across", "left right across hold", "left right hold", "left", "hold"))


# --- The registry of house rules -----------------------------------------------------------------------------
#
# Each house rule is one entry of HOUSE_RULES: its name (the field of ``Variant``, the column of a game's row,
# the form's field and the game document's key), the printed rule it varies, its default (the seeds'), the
# values a form offers, which values the engine takes, and how it is stored and written in a document. The
# model's columns, the form's fields and checks, the page's controls, the documents' fields and the tests'
# strategies are derived from it; the words are the words layer's (scorekeeper/words/house_rules.py), one
# entry a rule, which a test holds to the registry. docs/house-rules.md adds one, as a worked example.


@dataclass(frozen=True)
class HouseRule:
    """One house rule, as the whole app knows it (see HOUSE_RULES).

    ``default`` is the seeds' value (``Variant``'s field has it too: a test holds them equal); ``offered``
    the values a form offers, in the order shown; ``control`` how a form asks for it: ``"radios"`` (one of
    ``offered``) or ``"checkbox"`` (ticked: the offered value that is not the default). ``stored`` is the
    column's kind, ``int`` or ``str`` (of at most ``longest`` characters). A number, or a choice of
    ``kind`` (an enum), is held as itself; a ``cycle`` of ``kind`` values as a tuple of 1 to
    ``LONGEST_PASSING_CYCLE``, stored as their values joined by spaces and written in a document as a list.
    """

    name: str
    varies: str  # the printed rule it varies, as the pages cite it (R5, R14, R15)
    default: Any
    offered: tuple
    stored: type = int
    kind: type[enum.Enum] | None = None  # the enum its values are, if any
    cycle: bool = False
    allowed: tuple = ()  # the numbers the engine takes, when more than those offered
    control: str = "radios"
    longest: int = 0  # a stored text's most characters

    def checked(self, value: Any) -> Any:
        """``value`` as the engine holds it, or ``HouseRuleRefused``."""
        try:
            if self.cycle:
                if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                    raise ValueError(value)
                held = tuple(self._of_kind(each) for each in value)
                if not 1 <= len(held) <= LONGEST_PASSING_CYCLE:
                    raise ValueError(value)
                return held
            if self.kind is not None:
                return self._of_kind(value)
        except (TypeError, ValueError):
            raise HouseRuleRefused(self.name, value, self.varies) from None
        if type(value) is not int or value not in (self.allowed or self.offered):
            raise HouseRuleRefused(self.name, value, self.varies)
        return value

    def _of_kind(self, value: Any) -> enum.Enum:
        assert self.kind is not None
        return self.kind(value)

    def stored_value(self, value: Any) -> int | str:
        """The engine's ``value`` as the game's row stores it."""
        if self.cycle:
            return " ".join(each.value for each in value)
        if self.kind is not None:
            return value.value
        return value

    def from_stored(self, stored: Any) -> Any:
        """A row's stored value as the engine's (checked by ``Variant``)."""
        return tuple(stored.split()) if self.cycle else stored

    def document_value(self, value: Any) -> Any:
        """The engine's ``value`` as a game document writes it (plain JSON)."""
        if self.cycle:
            return [each.value for each in value]
        return self.stored_value(value)

    def form_text(self, value: Any) -> str:
        """The engine's ``value`` as a form's choice carries it ("26", "either", "left right")."""
        return str(self.stored_value(value))

    def from_form(self, text: str) -> Any:
        """A form's choice as the engine's value (checked by ``Variant``): the inverse of ``form_text``."""
        return int(text) if self.stored is int else self.from_stored(text)

    @property
    def ticked(self) -> Any:
        """A tick box's value when ticked: the offered value that is not the default."""
        return next(value for value in self.offered if value != self.default)


HOUSE_RULES = (
    HouseRule("moon_points", "R15", 26, MOON_POINTS_CHOICES),
    HouseRule("moon_choice", "R15", MoonRule.EITHER, tuple(MoonRule), stored=str, kind=MoonRule, longest=8),
    HouseRule("passing", "R5", PASSING_CYCLES[0], PASSING_CYCLES, stored=str, kind=Direction, cycle=True,
              longest=8 * LONGEST_PASSING_CYCLE),
    HouseRule("cards_passed", "R5", 3, tuple(CARDS_PASSED_CHOICES)),
    HouseRule("jack_of_diamonds", "R14", 0, JACK_OF_DIAMONDS_CHOICES, control="checkbox"),
)
HOUSE_RULE_NAMES = tuple(rule.name for rule in HOUSE_RULES)


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

    def __post_init__(self) -> None:
        for rule in HOUSE_RULES:
            object.__setattr__(self, rule.name, rule.checked(getattr(self, rule.name)))

    @classmethod
    def from_facts(cls, facts: Mapping[str, object]) -> Variant:
        """The variant of the house rules as a game document writes them (``facts()``); missing ones are the seeds'."""
        unknown = sorted(set(facts) - set(HOUSE_RULE_NAMES))
        if unknown:
            raise HouseRuleRefused(unknown[0], facts[unknown[0]])
        return cls(**facts)  # type: ignore[arg-type]

    def facts(self) -> dict[str, object]:
        """The house rules as plain JSON-ready values, by name, in the registry's order."""
        return {rule.name: rule.document_value(getattr(self, rule.name)) for rule in HOUSE_RULES}

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
        check_hand_number(hand_number)
        return self.passing[(hand_number - 1) % len(self.passing)]

    def direction(self, hand_number: int, players: int) -> Direction:
        """Which way hand ``hand_number`` passes at a table of ``players``: across is held when the count is odd."""
        direction = self.cycle_direction(hand_number)
        if direction is Direction.ACROSS and players % 2:
            return Direction.HOLD
        return direction


SEEDS = Variant()


def check_hand_number(hand_number: int) -> None:
    if type(hand_number) is not int or hand_number < 1:
        raise ValueError(f"hands are numbered from 1, not {hand_number!r}")

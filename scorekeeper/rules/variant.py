"""House rules: a game's variant of the printed rules, as one value (R5, R14, R15)."""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

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
        check_hand_number(hand_number)
        return self.passing[(hand_number - 1) % len(self.passing)]

    def direction(self, hand_number: int, players: int) -> Direction:
        """Which way hand ``hand_number`` passes at a table of ``players``: across is held when the count is odd."""
        direction = self.cycle_direction(hand_number)
        if direction is Direction.ACROSS and players % 2:
            return Direction.HOLD
        return direction


HOUSE_RULES = ("moon_points", "moon_choice", "passing", "cards_passed", "jack_of_diamonds")
SEEDS = Variant()


def check_hand_number(hand_number: int) -> None:
    if type(hand_number) is not int or hand_number < 1:
        raise ValueError(f"hands are numbered from 1, not {hand_number!r}")

"""Every house rule in words, one entry a rule of the registry (``rules.HOUSE_RULES``): the question a form
asks, how each value it offers reads, how a game's pages say the rule it keeps, and the refusal when no
choice came. tests/test_house_rule_registry.py holds the entries and the registry to each other: a rule
registered without its words fails it (docs/house-rules.md adds one)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import rules
from .i18n import _, lazy_gettext, names_list, ngettext


@dataclass(frozen=True)
class HouseRuleWords:
    """One house rule's words: ``question`` (a form's legend, citing the rule it varies), ``label(value)``
    (one offered value as a form shows it), ``kept(variant)`` (the rule a game keeps, as its pages say it),
    ``unchosen`` (a form's refusal when no choice came) and an optional ``hint`` below the question."""

    question: Callable[[], str]
    label: Callable[[Any], str]
    kept: Callable[[rules.Variant], str]
    unchosen: Any  # a lazy message: forms are defined before any request
    hint: Callable[[], str] | None = None


def printed(label, value, rule):
    """``label`` of ``value``, marked as the printed rules' when it is ``rule``'s default."""
    return _("%(choice)s (printed rules)", choice=label) if value == rule.default else label


def direction_word(direction):
    """One passing direction (a ``rules.Direction`` or its value) as a word (R5)."""
    return {
        rules.Direction.LEFT: _("left"), rules.Direction.RIGHT: _("right"),
        rules.Direction.ACROSS: _("across"), rules.Direction.HOLD: _("hold"),
    }[rules.Direction(direction)]


def moon_rule(choice, points):
    """How a moon may score under the ``rules.MoonRule`` ``choice``."""
    if choice is rules.MoonRule.SUBTRACT:
        return _("the moon always subtracts %(points)d from the shooter", points=points)
    if choice is rules.MoonRule.ADD:
        return _("the moon always adds %(points)d to everyone else", points=points)
    return _("the shooter chooses how the moon scores")


def _moon_points_label(points):
    if points == RULES["moon_points"].default:
        return _("%(points)d points (printed rules)", points=points)
    return _("%(points)d points: the whole two-deck hand", points=points)


def _moon_choice_label(choice):
    return {
        rules.MoonRule.EITHER: _("The shooter chooses (printed rules)"),
        rules.MoonRule.SUBTRACT: _("Always subtract from the shooter"),
        rules.MoonRule.ADD: _("Always add to everyone else"),
    }[choice]


def _cycle_label(cycle):
    """A passing cycle as a form offers it: its directions in order ("left, right, across")."""
    return printed(", ".join(direction_word(direction) for direction in cycle), cycle, RULES["passing"])


def _cards_passed_label(count):
    return printed(str(count), count, RULES["cards_passed"])


RULES = {rule.name: rule for rule in rules.HOUSE_RULES}

WORDS = {
    "moon_points": HouseRuleWords(
        question=lambda: _("A moon is worth (R15)"), label=_moon_points_label,
        kept=lambda variant: _("a moon is worth %(points)d", points=variant.moon_points),
        unchosen=lazy_gettext("Choose what a moon is worth.")),
    "moon_choice": HouseRuleWords(
        question=lambda: _("How a moon scores (R15)"), label=_moon_choice_label,
        kept=lambda variant: moon_rule(variant.moon_choice, variant.moon_points),
        unchosen=lazy_gettext("Choose how a moon may score.")),
    "passing": HouseRuleWords(
        question=lambda: _("Passing, hand after hand (R5)"), label=_cycle_label,
        kept=lambda variant: _("passing cycle: %(cycle)s",
                               cycle=names_list(direction_word(direction) for direction in variant.passing)),
        unchosen=lazy_gettext("Choose a passing cycle."),
        hint=lambda: _("Across passes to the player halfway round; with an odd number of players an across hand "
                       "is played as a hold hand.")),
    "cards_passed": HouseRuleWords(
        question=lambda: _("Cards passed (R5)"), label=_cards_passed_label,
        kept=lambda variant: ngettext("%(num)d card passed", "%(num)d cards passed", variant.cards_passed),
        unchosen=lazy_gettext("Choose how many cards are passed.")),
    "jack_of_diamonds": HouseRuleWords(
        question=lambda: _("The J♦ (R14)"),
        label=lambda points: _("Each J♦ taken scores %(points)d (the two decks hold two)", points=points),
        kept=lambda variant: _("each J♦ taken scores %(points)d", points=variant.jack_of_diamonds),
        unchosen=lazy_gettext("Choose what the J♦ scores.")),
}


def house_rule(name, variant):
    """The house rule ``name`` of ``variant`` in words, as the table view and the rules page show it."""
    return WORDS[name].kept(variant)

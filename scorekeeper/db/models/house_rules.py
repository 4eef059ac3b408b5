"""A game's house rules as its row holds them: a column each registered rule (``rules.HOUSE_RULES``), made
from the registry, and the conversions between the columns and the engine's ``Variant`` both ways."""

from functools import cache
from typing import TYPE_CHECKING

from sqlalchemy import Integer, String
from sqlalchemy.orm import mapped_column

from ... import rules


def variant_of_row(row):
    """The engine's ``Variant`` of a game's house-rule columns, read by name from a ``Game`` or a row of a
    statement that selected ``HOUSE_RULE_COLUMNS``."""
    return variant_of_stored(tuple(getattr(row, rule.name) for rule in rules.HOUSE_RULES))


@cache
def variant_of_stored(stored):
    """The ``Variant`` of the house rules' stored values, in the registry's order (``rules.HOUSE_RULES``): made
    once for each combination."""
    return rules.Variant(**{rule.name: rule.from_stored(value) for rule, value in zip(rules.HOUSE_RULES, stored)})


def variant_columns(variant):
    """A ``Variant`` as a game's house-rule columns."""
    return {rule.name: rule.stored_value(getattr(variant, rule.name)) for rule in rules.HOUSE_RULES}


def _house_rule_column(rule):
    """A game's column of a registered house rule: its kind and length, the seeds' value as its default."""
    default = rule.stored_value(rule.default)
    kind = String(rule.longest) if rule.stored is str else Integer()
    return mapped_column(rule.name, kind, nullable=False, default=default, server_default=str(default))


# The house rules' columns, one a registered rule (rules.HOUSE_RULES), named as the engine names it: a mixin
# of the game's row, so that a rule registered has its column (and a migration adds it, tests/test_migrations).
# A type checker sees a mixin without them: they are made from the registry, and read by name (``rule.name``).
if TYPE_CHECKING:
    class HouseRuleColumns:
        pass
else:
    HouseRuleColumns = type("HouseRuleColumns", (), {
        "__doc__": "The house rules of a game (rules.Variant), a column each; the defaults are the seeds' game.",
        **{rule.name: _house_rule_column(rule) for rule in rules.HOUSE_RULES}})

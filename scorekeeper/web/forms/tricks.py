"""The forms of a hand played trick by trick: a trick's cards in play order, and the kitty's (R9, R12)."""

from wtforms import BooleanField, FieldList, HiddenField, StringField
from wtforms.validators import ValidationError

from ... import rules
from ...words.i18n import _
from .fields import ContestedForm, Problem, named_problem


class TrickForm(ContestedForm):
    """One trick's cards in play order from the leader (R9); the engine reads each card."""

    number = HiddenField()
    hand = HiddenField()  # the number of the hand the trick was typed for: a trick of a hand since recorded is no race
    cards = FieldList(StringField(), min_entries=rules.MIN_PLAYERS, max_entries=rules.MAX_PLAYERS)
    confirm = BooleanField()

    illegal_lead = None  # the warning about the lead, once the engine gave one (R6, R8)
    problem = None  # what was refused about the trick as a whole, in words

    def seat_rows(self, players):
        """Exactly one card a player, whatever was posted."""
        while len(self.cards.entries) < players:
            self.cards.append_entry()
        del self.cards.entries[players:]

    def validate_cards(self, field):
        for entry in field.entries:
            entry.data = (entry.data or "").strip()
            if not entry.data:
                entry.errors = [_("Enter this player's card.")]
        if any(entry.errors for entry in field.entries):
            raise ValidationError(_("Enter every player's card."))

    def problems(self, names):
        """Every reason the trick was not played, with the card to fix; ``names`` in play order from the leader."""
        found = []
        for position, entry in enumerate(self.cards.entries):
            found += [named_problem(names[position], error, entry.id) for error in entry.errors]
        return found + ([Problem(self.problem, "cards-0")] if self.problem else [])

    def warning_problem(self):
        """The lead the engine questioned, as the summary lists it: a decision to make (R6, R8)."""
        return Problem(self.illegal_lead, "confirm")

    def card_texts(self):
        """The cards as typed, in play order from the leader."""
        return [entry.data for entry in self.cards.entries]


class KittyForm(ContestedForm):
    """The kitty's cards, as its winner turns it over (R12)."""

    cards = StringField()

    problem = None  # what the engine refused in the kitty, in words

    def summary_problem(self):
        return Problem(self.problem, "kitty-cards")

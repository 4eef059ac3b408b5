"""The hand form: each player's takings, a reserved last trick's leftovers and the moon choice, with what it
carries to tell another device's save from this one's typing (R13-R15)."""

import json

from wtforms import BooleanField, FieldList, Form, FormField, HiddenField, SelectChoice

from ... import rules
from ...words.explain import moon_choice_refused
from ...words.i18n import lazy_gettext
from .fields import ChoiceField, ContestedForm, Problem, WholeNumberField, named_problem, whole_number

FOUND_LENGTH = 40 * rules.MAX_PLAYERS  # the most a hand's ``found`` takes, and more than it needs
MARIA_CHOICES = [SelectChoice(str(count)) for count in range(rules.MARIAS_IN_HAND + 1)]
JACK_CHOICES = [SelectChoice(str(count)) for count in range(rules.JACKS_IN_HAND + 1)]


class TakingForm(Form):
    """One player's hearts and Black Marias in a hand (R14)."""

    # How many hearts a hand holds is the engine's to check (R14); the form
    # only reads a whole number, as many digits as the box takes.
    hearts = WholeNumberField(
        maximum=99, blank=0,
        message=lazy_gettext("Enter the hearts as a whole number, like 0 or 5."),
    )
    marias = ChoiceField(
        choices=MARIA_CHOICES, coerce=int, default=0,
        message=lazy_gettext("Choose 0, 1 or 2 Black Marias."),
    )
    # Asked only where the J♦ house rule scores them; elsewhere a posted count is not read.
    jacks = ChoiceField(
        choices=JACK_CHOICES, coerce=int, default=0,
        message=lazy_gettext("Choose 0, 1 or 2 J♦."),
    )


class HandForm(ContestedForm):
    """Each player's takings, a reserved last trick's leftovers, the moon choice (R13-R15)."""

    number = HiddenField()
    draft = HiddenField()  # the key this device keeps the typing under (hands.draft_key): names the hand
    # A correction's hand as the form found it (``found_text``): what another device changed since is told apart
    # from what this one typed.
    found = HiddenField()
    takings = FieldList(FormField(TakingForm), min_entries=rules.MIN_PLAYERS, max_entries=rules.MAX_PLAYERS)
    last_trick_reserved = BooleanField()
    # "Yes, nobody collected anything": asked once the engine finds such a hand (R13, rules.NothingCollected).
    nothing_collected = BooleanField()
    moon = ChoiceField(
        choices=[SelectChoice(moon.value) for moon in rules.Moon],
        validate_choice=True,
    )  # its refusal names this game's moon (moon_rules)

    from_tricks = False  # filled in from a hand played trick by trick
    hand_errors = ()  # the engine's refusals of the hand as a whole, worded
    nothing_collected_question = None  # the engine's question when nobody collected anything, worded
    conflict = None  # what to say when another device wrote first
    contest = None  # the question when another device saved this hand first (hands.Contest)
    renumbered = None  # what to say when that moved the hand being corrected to another number
    naming = ()  # field errors that name their player already ("Ana cannot have taken 27 hearts…")

    def moon_rules(self, variant):
        """Word a refused moon choice with the ways ``variant`` lets a moon score, and its points (R15)."""
        self.moon.message = moon_choice_refused(variant)

    def problems(self, names):
        """Every reason the hand was not saved, each with the field to fix, in the page's order; a player's
        name once, before an error that does not name them."""
        def named(seat, error, target):
            return Problem(error, target) if error in self.naming else named_problem(names[seat], error, target)

        found = []
        for seat, entry in enumerate(self.takings.entries):
            found += [named(seat, error, entry.hearts.id) for error in entry.hearts.errors]
            found += [named(seat, error, f"{entry.marias.id}-0") for error in entry.marias.errors]
            found += [named(seat, error, f"{entry.jacks.id}-0") for error in entry.jacks.errors]
        found += [Problem(error, "tally") for error in self.hand_errors]
        if self.nothing_collected_question:
            found.append(Problem(self.nothing_collected_question, "nothing_collected"))
        return found + [Problem(error, "moon") for error in self.moon.errors]

    def asks_nothing_collected(self):
        """Whether the page shows the "nobody collected anything" tick box: asked now, or ticked already."""
        return bool(self.nothing_collected_question or self.nothing_collected.data)

    def as_read(self, variant=rules.SEEDS):
        """The takings as far as they could be read, for the engine to list every problem at once:
        each count refused by the form counts 0, and its kind ("hearts", "marias", "jacks") is named unread."""
        jacks = bool(variant.jack_of_diamonds)
        unread = set()

        def read(field, kind):
            if field.errors or not isinstance(field.data, int):
                unread.add(kind)
                return 0
            return field.data

        taken = tuple(rules.Taken(read(entry.hearts, "hearts"), read(entry.marias, "marias"),
                                  read(entry.jacks, "jacks") if jacks else 0) for entry in self.takings)
        return taken, frozenset(unread)

    def moon_read(self):
        """The moon choice, or None if none was made or it could not be read."""
        return None if self.moon.errors else self.moon.data

    def taken(self, variant=rules.SEEDS):
        """The takings as the rules engine sees them, in seat order; J♦ only where ``variant`` scores them."""
        jacks = bool(variant.jack_of_diamonds)
        return tuple(rules.Taken(entry.hearts.data or 0, entry.marias.data or 0,
                                 (entry.jacks.data or 0) if jacks else 0) for entry in self.takings)

    def number_posted(self):
        """The number of the hand the form was shown for, or None if the post lost it."""
        return whole_number(self.number.data)

    @staticmethod
    def found_text(record):
        """A hand's figures as the form carries them in ``found``: each seat's (hearts, marias, jacks), the moon."""
        return json.dumps({"taken": [[taken.hearts, taken.marias, taken.jacks] for taken in record.taken],
                           "moon": None if record.moon is None else record.moon.value}, separators=(",", ":"))

    def found_read(self, players):
        """The hand as the form found it, for a hand of ``players``: (each seat's ``rules.Taken``, the
        ``rules.Moon`` or None), or None if the post lost it or holds anything else (it only words a refusal)."""
        text = self.found.data or ""
        try:
            facts = json.loads(text) if len(text) <= FOUND_LENGTH else None
            taken = tuple(rules.Taken(*(whole_number(str(count), 99) for count in counts))
                          for counts in facts["taken"] if len(counts) == 3)
            moon = None if facts["moon"] is None else rules.Moon(facts["moon"])
        except (ValueError, TypeError, KeyError):  # not JSON, not its shape, a count that is no count
            return None
        return (taken, moon) if len(taken) == players else None

    def hand_key_posted(self, prefix):
        """The own key (``Hand.key``) of the hand the form was shown for, read from its draft key
        (``prefix`` then "hand-" and the key), or None if the post lost it or it names no hand of this game."""
        draft = self.draft.data or ""
        if not draft.startswith(prefix + "hand-"):
            return None
        return whole_number(draft[len(prefix) + len("hand-"):])

    def seat_rows(self, players):
        """Exactly one row of takings a player, whatever was posted."""
        while len(self.takings.entries) < players:
            self.takings.append_entry()
        del self.takings.entries[players:]

    def fill_remaining_hearts(self, seat_text):
        """Give one player the hearts the others did not take (the "Rest" button)."""
        seat = whole_number(seat_text, len(self.takings.entries) - 1)
        if seat is None:
            return
        others = sum(
            entry.hearts.data for index, entry in enumerate(self.takings.entries)
            if index != seat and isinstance(entry.hearts.data, int)
        )
        rest = max(rules.HEARTS_IN_HAND - others, 0)
        entry = self.takings.entries[seat]
        entry.hearts.data = rest
        entry.hearts.raw_data = [str(rest)]

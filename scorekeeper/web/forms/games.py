"""The forms of a game's making and its table: a new game, an import, the house rules (a field a registered
rule) and a change to them, a player joining or leaving."""

from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    MultipleFileField,
    SelectChoice,
    StringField,
)
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from ... import rules
from ...db.models import GAME_NAME_LENGTH, LARGEST_ID, LARGEST_TARGET
from ...service import names as name_rules
from ...words.explain import name_problem, player_name_errors
from ...words.house_rules import WORDS as HOUSE_RULE_WORDS
from ...words.i18n import _, lazy_gettext
from .fields import BaseForm, ChoiceField, GameChangeForm, Problem, WholeNumberField, check_name

# --- House rules ---------------------------------------------------------------


class HouseRulesForm(Form):
    """The house rules of a game (``rules.Variant``): one field a registered house rule (``rules.HOUSE_RULES``,
    added below the class), each the seeds' unless chosen otherwise."""

    def offer(self, variant):
        """Offer ``variant``'s values too where the form offers none such (an imported game's passing cycle)."""
        for rule in rules.HOUSE_RULES:
            field = self[rule.name]
            text = rule.form_text(getattr(variant, rule.name))
            if rule.control == "radios" and text not in {choice.value for choice in field.choices}:
                field.choices = [*field.choices, SelectChoice(text)]

    @property
    def variant_chosen(self):
        """Whether the rules posted differ from the seeds' (the page keeps them in view)."""
        try:
            return self.variant() != rules.SEEDS
        except (rules.RuleError, AttributeError, TypeError, ValueError):
            return False

    def variant(self):
        """The house rules chosen, as the engine's value (the form has validated)."""
        return rules.Variant(**{rule.name: _chosen(rule, self[rule.name].data) for rule in rules.HOUSE_RULES})

    def problems(self):
        return [Problem(error, f"{self[rule.name].id}-0") for rule in rules.HOUSE_RULES if rule.control == "radios"
                for error in self[rule.name].errors]

    @staticmethod
    def data_of(variant):
        """A variant as this form's data: each rule's choice, a tick box's whether it is ticked."""
        return {rule.name: _form_data(rule, getattr(variant, rule.name)) for rule in rules.HOUSE_RULES}


def _house_rule_field(rule):
    """The form's field of a registered house rule: a tick box, or a choice of the values it offers."""
    if rule.control == "checkbox":
        return BooleanField()
    return ChoiceField(choices=[SelectChoice(rule.form_text(value)) for value in rule.offered],
                       coerce=int if rule.stored is int else str, default=_form_data(rule, rule.default),
                       message=HOUSE_RULE_WORDS[rule.name].unchosen)


def _chosen(rule, data):
    """The engine's value of a rule's field's ``data``."""
    if rule.control == "checkbox":
        return rule.ticked if data else rule.default
    return data if rule.stored is int else rule.from_form(data)


def _form_data(rule, value):
    """A rule's engine ``value`` as its field's data."""
    if rule.control == "checkbox":
        return value != rule.default
    return value if rule.stored is int else rule.form_text(value)


for _rule in rules.HOUSE_RULES:
    setattr(HouseRulesForm, _rule.name, _house_rule_field(_rule))


class GameRulesForm(GameChangeForm):
    """A change to a game's house rules."""

    rules = FormField(HouseRulesForm)


# --- A new game --------------------------------------------------------------


class NewGameForm(BaseForm):
    """Name, players in clockwise order, first dealer and target (R1, R4, R16)."""

    name = StringField(validators=[Optional(), Length(max=GAME_NAME_LENGTH, message=lazy_gettext(
        "Keep the game's name to %(max)d characters.", max=GAME_NAME_LENGTH))])
    # A twelfth name is kept, to be refused with a message (R1); past it, a
    # post of thousands of names is not read (nor shown back) at all.
    players = FieldList(StringField(), min_entries=rules.MIN_PLAYERS, max_entries=rules.MAX_PLAYERS + 1)
    first_dealer = WholeNumberField(blank=0, maximum=rules.MAX_PLAYERS, message=lazy_gettext("Choose who deals first."))
    target = WholeNumberField(
        default=rules.DEFAULT_TARGET,
        maximum=LARGEST_TARGET,
        message=lazy_gettext("The target is a whole number of points, 1 or more."),
        validators=[InputRequired(lazy_gettext("Enter the target score; 150 is usual."))],
    )
    rules = FormField(HouseRulesForm)

    table_size = None  # the engine's refusal of the number of seats, worded (R1)

    def validate_players(self, field):
        """Names are trimmed, non-empty, at most 40 characters and unique at the table.

        How many players a table may have is the engine's to say (R1).
        """
        for entry in field.entries:
            entry.data = (entry.data or "").strip()
        for seat, message in player_name_errors(self.names).items():
            field.entries[seat].errors.append(message)
        if any(entry.errors for entry in field.entries):
            raise ValidationError(_("Check the names marked below."))

    def validate_name(self, field):
        reason = name_rules.game_name_problem((field.data or "").strip())
        if reason not in (None, name_rules.LONG):  # its length is the Length validator's
            raise ValidationError(name_problem(reason))

    def validate_first_dealer(self, field):
        if field.data is None or not 0 <= field.data < len(self.players.entries):
            raise ValidationError(_("Choose who deals first."))

    def validate_target(self, field):
        if field.data is None and not field.errors:
            raise ValidationError(_("Enter the target score; 150 is usual."))

    @property
    def names(self):
        return [entry.data for entry in self.players.entries]

    def problems(self):
        """Every reason the game was not started, each with the field to fix, in the page's order."""
        found = [Problem(error, "name") for error in self.name.errors]
        for seat, entry in enumerate(self.players.entries):
            found += [Problem(error, f"seat-{seat}") for error in entry.errors]
        if not any(entry.errors for entry in self.players.entries):
            found += [Problem(error, "seat-0") for error in self.players.errors]
        if self.table_size:
            found.append(Problem(self.table_size, "seat-0"))
        found += [Problem(error, "seat-0") for error in self.first_dealer.errors]
        return found + [Problem(error, "target") for error in self.target.errors] + self.rules.form.problems()


# --- At the table ----------------------------------------------------------------


class ImportForm(BaseForm):
    """Game documents and seasons kept on paper to import at once."""

    document = MultipleFileField(validators=[InputRequired(lazy_gettext(
        "Choose the game files (.json) or the season (.csv) to import."))])


class JoinForm(GameChangeForm):
    """A player joining before the next hand: name, place, and the total they start with (R1)."""

    name = StringField()
    at = WholeNumberField(maximum=rules.MAX_PLAYERS, message=lazy_gettext("Choose where the new player sits."),
                          validators=[InputRequired(lazy_gettext("Choose where the new player sits."))])
    start_rule = ChoiceField(choices=[SelectChoice(rule.value) for rule in rules.StartRule],
                             default=rules.StartRule.HIGHEST.value,
                             message=lazy_gettext("Choose the total the new player starts with."))
    start = StringField()

    problem = None  # what the rules or the game refused, in words

    def validate_name(self, field):
        check_name(field, _("Enter a name for the new player."))

    def validate_start(self, field):
        if self.start_rule.data != rules.StartRule.TYPED.value:
            return
        text = (field.data or "").strip().replace("\u2212", "-")  # a typographic minus is a minus
        digits = text[1:] if text.startswith("-") else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > len(str(LARGEST_TARGET)):
            raise ValidationError(_("Type the starting total as a whole number, like 0 or 45."))
        self.typed_start = int(text)

    def start_total(self):
        """The typed total (the form has validated), or the ``rules.StartRule`` that picks it."""
        if self.start_rule.data == rules.StartRule.TYPED.value:
            return self.typed_start
        return rules.StartRule(self.start_rule.data)

    def place_read(self):
        """The place chosen, if it could be read (the form has been validated), else None."""
        return self.at.data if isinstance(self.at.data, int) and not self.at.errors else None

    def start_read(self, board):
        """The total the joiner would start with on ``board``, if it could be read (the form has been
        validated), else None."""
        if self.start_rule.errors or self.start.errors:
            return None
        if self.start_rule.data == rules.StartRule.TYPED.value:
            return getattr(self, "typed_start", None)
        return rules.starting_total(board, rules.StartRule(self.start_rule.data))

    def problems(self):
        found = ([Problem(error, "join-name") for error in self.name.errors]
                 + [Problem(error, "join-at") for error in self.at.errors]
                 + [Problem(error, "start_rule-0") for error in self.start_rule.errors]
                 + [Problem(error, "start") for error in self.start.errors])
        return found + ([Problem(self.problem, "join-name")] if self.problem else [])


class LeaveForm(GameChangeForm):
    """A player leaving before the next hand (R1)."""

    player = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose who leaves."),
                              validators=[InputRequired(lazy_gettext("Choose who leaves."))])

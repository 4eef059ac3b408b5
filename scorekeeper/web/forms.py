"""WTForms forms: they read and check what the table typed, in plain words."""

import json
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app, session
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    MultipleFileField,
    RadioField,
    SelectChoice,
    StringField,
)
from wtforms.csrf.session import SessionCSRF
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from .. import rules
from ..db.models import (
    DEVICE_NAME_LENGTH,
    GAME_NAME_LENGTH,
    LARGEST_ID,
    LARGEST_TARGET,
    VOID_REASON_LENGTH,
)
from ..service import days
from ..service import names as name_rules
from ..words.explain import moon_choice_refused, name_problem, player_name_errors
from ..words.house_rules import WORDS as HOUSE_RULE_WORDS
from ..words.i18n import _, lazy_gettext


def whole_number(text, most=LARGEST_ID):
    """``text`` as a whole number from 0 to ``most`` (ASCII digits only), else None.

    ``str.isdigit`` alone accepts "²" and "٣", which ``int`` then refuses or
    reads; the database's ids stop at a signed 32-bit integer (``LARGEST_ID``).
    """
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        return None
    number = int(text)
    return number if number <= most else None


def shown_value(field, blank=None):
    """What a form's box shows: what was typed, as typed (a refused value too), else the field's value,
    else nothing; ``blank`` is a value shown as an empty box (a count of 0 as no heart typed)."""
    if field.raw_data:
        return field.raw_data[0]
    return "" if field.data is None or field.data == blank else str(field.data)


@dataclass(frozen=True)
class Problem:
    """One reason a form was refused, as the summary at the top lists it: the words and the field's id."""

    message: str
    target: str


def named_problem(name, error, target):
    """A field's error, naming whose field it is (the field itself does not say)."""
    return Problem(_("%(name)s: %(problem)s", name=name, problem=error), target)


class BaseForm(Form):
    """A form protected against cross-site requests by a token kept in the session."""

    def __init__(self, formdata=None, *args, **kwargs):
        if formdata is not None:
            # Every field name of the app is ASCII; anything else is noise that
            # WTForms' list fields would misread ("players-²").
            formdata = MultiDict((key, value) for key, value in formdata.items(multi=True) if key.isascii())
        super().__init__(formdata, *args, **kwargs)

    class Meta:
        csrf = True
        csrf_class = SessionCSRF
        # A form can stay open through a whole hand before Save is pressed.
        csrf_time_limit = timedelta(hours=24)

        @property
        def csrf_secret(self):
            return current_app.config["SECRET_KEY"].encode()

        @property
        def csrf_context(self):
            return session

    def validate(self, extra_validators=None):
        """Validate, explaining an expired or missing token in plain words."""
        valid = super().validate(extra_validators)
        if self.csrf_token.errors:
            # The page is shown again with a fresh token and everything typed.
            self.csrf_token.errors = [_(
                "This form was open too long or came from elsewhere, so nothing was saved. "
                "Check the values and press the button again."
            )]
        return valid

    @property
    def csrf_error(self):
        """The token's message, if it was rejected."""
        return self.csrf_token.errors[0] if self.csrf_token.errors else None


class WholeNumberField(IntegerField):
    """A whole number from 0 to ``maximum``; blank counts as ``blank``; keeps what was typed."""

    def __init__(self, label=None, validators=None, maximum=None, blank=None, message=None, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.maximum = maximum
        self.blank = blank
        self.message = message

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        text = valuelist[0].strip()
        if text == "":
            self.data = self.blank
            return
        number = whole_number(text, LARGEST_ID if self.maximum is None else self.maximum)
        if number is None:
            self.data = None
            raise ValueError(self.message)
        self.data = number


class ChoiceField(RadioField):
    """A radio group whose refusal of an unknown value is worded by the form."""

    def __init__(self, label=None, validators=None, message=None, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.message = message

    def process_formdata(self, valuelist):
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(self.message) from None

    def pre_validate(self, form):
        if self.data is not None and self.data not in {self.coerce(choice.value) for choice in self.choices}:
            raise ValidationError(self.message)


class GameChangeForm(BaseForm):
    """A form that changes a game, made from the revision of the game it showed."""

    revision = HiddenField()

    def based_on(self):
        """The revision the form was made from, or None if the post lost it."""
        return whole_number(self.revision.data)


MINE, THEIRS = "mine", "theirs"  # the two answers to "another device saved first: keep theirs, or put yours over it?"


class ContestedForm(GameChangeForm):
    """A form another device may have beaten to it (a hand, a trick, a kitty). Refused for that, it stays based
    on the revision it was made from, so that the same post sent again is refused again; it is shown with
    what the other device saved, and only a deliberate ``choice`` moves on: ``THEIRS`` keeps theirs,
    ``MINE`` saves this form against the revision the refusal showed (``theirs``), and is refused again if
    the game moved on since."""

    theirs = HiddenField()  # the revision the refusal showed, with the other device's save in it
    choice = HiddenField()  # the button pressed: MINE or THEIRS; nothing for a plain Save

    def chose(self, answer):
        """Whether the scorer pressed the button of ``answer`` (MINE, THEIRS)."""
        return self.choice.data == answer

    def asked_at(self):
        """The revision the refusal showed, when the form comes back from its question; else None."""
        return whole_number(self.theirs.data)

    def chose_mine(self):
        """The revision to put this form over, if the scorer chose to (and the refusal's revision came back)."""
        return self.asked_at() if self.chose(MINE) else None


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


# --- A hand --------------------------------------------------------------------


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
        field.data = (field.data or "").strip()
        if not field.data:
            raise ValidationError(_("Enter a name for the new player."))
        problem = name_problem(name_rules.problem(field.data))
        if problem:
            raise ValidationError(problem)

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


class ConfirmForm(GameChangeForm):
    """A confirmation button that changes a game (remove, revert, take back)."""


# --- People -------------------------------------------------------------------------


class RenameForm(BaseForm):
    """A person's new name (games keep the names they were played under)."""

    name = StringField(validators=[InputRequired(lazy_gettext("Enter the name to show."))])

    def validate_name(self, field):
        field.data = (field.data or "").strip()
        if not field.data:
            raise ValidationError(_("Enter the name to show."))
        problem = name_problem(name_rules.problem(field.data))
        if problem:
            raise ValidationError(problem)


class DeviceForm(BaseForm):
    """What a secretary calls this device ("Ana's phone"), shown beside each change it makes on the club's trail."""

    name = StringField(validators=[InputRequired(lazy_gettext("Enter a name for this device."))])

    def validate_name(self, field):
        field.data = (field.data or "").strip()
        if not field.data:
            raise ValidationError(_("Enter a name for this device."))
        problem = name_problem(name_rules.problem(field.data, DEVICE_NAME_LENGTH))
        if problem:
            raise ValidationError(problem)


class MergeForm(BaseForm):
    """Another person to merge into the one shown."""

    other = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose who to merge."),
                             validators=[InputRequired(lazy_gettext("Choose who to merge."))])


class UndoMergeForm(BaseForm):
    """Undo one merge of the club's trail of people."""

    change = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose the merge to undo."),
                              validators=[InputRequired(lazy_gettext("Choose the merge to undo."))])


class VoidForm(BaseForm):
    """A game to leave out of the season, and why (the club's secretary's)."""

    game = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose the game to leave out."),
                            validators=[InputRequired(lazy_gettext("Choose the game to leave out."))])
    reason = StringField(validators=[InputRequired(lazy_gettext("Say why the game is left out of the season."))])

    def validate_reason(self, field):
        field.data = (field.data or "").strip()
        if not field.data:
            raise ValidationError(_("Say why the game is left out of the season."))
        problem = name_rules.problem(field.data, VOID_REASON_LENGTH)
        if problem == name_rules.LONG:
            raise ValidationError(_("Keep the reason to %(max)d characters.", max=VOID_REASON_LENGTH))
        if problem:
            raise ValidationError(_("A reason cannot hold line breaks or invisible characters."))


class DateForm(BaseForm):
    """A game and the day it was played (the club's secretary's), for the season's filters."""

    game = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose the game to date."),
                            validators=[InputRequired(lazy_gettext("Choose the game to date."))])
    day = StringField()

    def validate_day(self, field):
        field.day = _day(field.data)
        if field.day is None:
            raise ValidationError(_("Enter the day the game was played, like 2026-12-01."))
        if not days.game_day_allowed(field.day):
            raise ValidationError(_("Enter a day from %(first)s to %(last)s, tomorrow, as a clock may be a day behind.",
                                    first=days.EARLIEST_GAME_DAY.isoformat(), last=days.latest_game_day().isoformat()))


class GameSeasonForm(BaseForm):
    """A change to one game's place in the season, or to several games' (the club's secretary's): why they are
    left out, the day they were played. Which field a change needs is the change's to say (``check``)."""

    reason = StringField()
    day = StringField()

    def check(self, action):
        """Whether the form is valid for ``action``: "void" and "discard" need a reason, "date" a day, every
        change the form's token; each refusal is put beside its field."""
        valid = self.validate()
        field, check = {"void": (self.reason, VoidForm.validate_reason),
                        "discard": (self.reason, VoidForm.validate_reason),
                        "date": (self.day, DateForm.validate_day)}.get(action, (None, None))
        if field is None:
            return valid
        try:
            check(self, field)
        except ValidationError as error:
            field.errors = [*field.errors, str(error)]
            return False
        return valid


class SeasonForm(Form):
    """The season's filters, read from the address: games played from ``since`` to
    ``until`` (both days included), people with at least ``min_games`` games, and only those whose rating
    is ``settled`` (not provisional) if asked."""

    since = StringField()
    until = StringField()
    min_games = WholeNumberField(blank=0, message=lazy_gettext("Type the least number of games as a whole number."))
    settled = BooleanField()

    def validate_since(self, field):
        field.day = _day(field.data)

    def validate_until(self, field):
        field.day = _day(field.data)
        since = getattr(self.since, "day", None)
        if since and field.day and field.day < since:
            raise ValidationError(_("The last day comes before the first."))

    @property
    def filters(self):
        """The filters as ``people.season`` takes them (the form has validated)."""
        return {"since": self.since.day, "until": self.until.day, "min_games": self.min_games.data or 0}

    @property
    def asked(self):
        """The filters as the page's links carry them on (none left blank)."""
        return {"since": self.since.data or None, "until": self.until.data or None,
                "min_games": self.min_games.data or None, "settled": "y" if self.settled.data else None}


def _day(text):
    """A day written YYYY-MM-DD (as a date field sends it), None if blank; refused in words otherwise."""
    if not (text or "").strip():
        return None
    day = days.iso_day(text)
    if day is None:
        raise ValidationError(_("Write the day as year-month-day, like 2026-12-01."))
    return day


# --- Tricks ----------------------------------------------------------------------


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

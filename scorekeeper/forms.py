"""WTForms forms: they read and check what the table typed, in plain words."""

from datetime import timedelta

from flask import current_app, session
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField, FieldList, FileField, Form, FormField, HiddenField,
    IntegerField, RadioField, SelectChoice, StringField,
)
from wtforms.csrf.session import SessionCSRF
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from . import rules
from .i18n import _, lazy_gettext
from .models import GAME_NAME_LENGTH, LARGEST_ID, LARGEST_TARGET, NAME_LENGTH


def whole_number(text, most=LARGEST_ID):
    """``text`` as a whole number from 0 to ``most`` (ASCII digits only), else None.

    ``str.isdigit`` alone accepts "²" and "٣", which ``int`` then refuses or
    reads; the database stores nothing past a signed 64-bit integer.
    """
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        return None
    number = int(text)
    return number if number <= most else None


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
        if not (text.isascii() and text.isdigit()) or (
            self.maximum is not None and int(text) > self.maximum
        ):
            self.data = None
            raise ValueError(self.message)
        self.data = int(text)


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


def player_name_errors(names):
    """What is wrong with each trimmed name, by seat: empty, too long or a repeat."""
    errors = {}
    seen = {}
    for seat, name in enumerate(names):
        if not name:
            errors[seat] = _("Enter a name for seat %(seat)d, or remove the seat.", seat=seat + 1)
        elif len(name) > NAME_LENGTH:
            errors[seat] = _("Keep names to %(max)d characters.", max=NAME_LENGTH)
        elif name.casefold() in seen:
            errors[seat] = _(
                "%(name)s is already at the table (seat %(seat)d); give each player a different name.",
                name=name, seat=seen[name.casefold()] + 1)
        else:
            seen[name.casefold()] = seat
    return errors


class GameChangeForm(BaseForm):
    """A form that changes a game, made from the revision of the game it showed."""

    revision = HiddenField()

    def based_on(self):
        """The revision the form was made from, or None if the post lost it."""
        return whole_number(self.revision.data)


# --- A new game --------------------------------------------------------------


class NewGameForm(BaseForm):
    """Name, players in clockwise order, first dealer and target (R1, R4, R16)."""

    name = StringField(validators=[Optional(), Length(max=GAME_NAME_LENGTH, message=lazy_gettext(
        "Keep the game's name to %(max)d characters.", max=GAME_NAME_LENGTH))])
    # No max_entries: a twelfth name is refused with a message, not silently dropped.
    players = FieldList(StringField(), min_entries=rules.MIN_PLAYERS)
    first_dealer = WholeNumberField(blank=0, maximum=rules.MAX_PLAYERS, message=lazy_gettext("Choose who deals first."))
    target = WholeNumberField(
        default=rules.DEFAULT_TARGET,
        maximum=LARGEST_TARGET,
        message=lazy_gettext("The target is a whole number of points, 1 or more."),
        validators=[InputRequired(lazy_gettext("Enter the target score; 150 is usual."))],
    )

    def validate_players(self, field):
        """Names are trimmed, non-empty, at most 40 characters and unique at the table."""
        for entry in field.entries:
            entry.data = (entry.data or "").strip()
        for seat, message in player_name_errors(self.names).items():
            field.entries[seat].errors.append(message)
        if not rules.MIN_PLAYERS <= len(field.entries) <= rules.MAX_PLAYERS:
            raise ValidationError(_("Cancellation Hearts needs 6 to 11 players (R1)."))
        if any(entry.errors for entry in field.entries):
            raise ValidationError(_("Check the names marked below."))

    def validate_first_dealer(self, field):
        if field.data is None or not 0 <= field.data < len(self.players.entries):
            raise ValidationError(_("Choose who deals first."))

    def validate_target(self, field):
        if field.data is None and not field.errors:
            raise ValidationError(_("Enter the target score; 150 is usual."))
        if field.data is not None and field.data < 1:
            raise ValidationError(_("The target is a whole number of points, 1 or more."))

    @property
    def names(self):
        return [entry.data for entry in self.players.entries]


# --- A hand --------------------------------------------------------------------


MARIA_CHOICES = [SelectChoice(str(count)) for count in range(rules.MARIAS_IN_HAND + 1)]


class TakingForm(Form):
    """One player's hearts and Black Marias in a hand (R14)."""

    hearts = WholeNumberField(
        maximum=rules.HEARTS_IN_HAND, blank=0,
        message=lazy_gettext("Enter a whole number of hearts from 0 to 26."),
    )
    marias = ChoiceField(
        choices=MARIA_CHOICES, coerce=int, default=0,
        message=lazy_gettext("Choose 0, 1 or 2 Black Marias."),
    )


class HandForm(GameChangeForm):
    """Each player's takings, a reserved last trick's leftovers, the moon choice (R13-R15)."""

    number = HiddenField()
    takings = FieldList(FormField(TakingForm), min_entries=rules.MIN_PLAYERS, max_entries=rules.MAX_PLAYERS)
    last_trick_reserved = BooleanField()
    moon = ChoiceField(
        choices=[SelectChoice(moon.value) for moon in rules.Moon],
        validate_choice=True,
        message=lazy_gettext("Choose how the moon scores: subtract 26 or add 26."),
    )

    from_tricks = False  # filled in from a hand played trick by trick
    hand_errors = ()

    def taken(self):
        """The takings as the rules engine sees them, in seat order."""
        return tuple(rules.Taken(entry.hearts.data or 0, entry.marias.data or 0) for entry in self.takings)


class ImportForm(BaseForm):
    """A game document to import."""

    document = FileField(validators=[InputRequired(lazy_gettext("Choose a game file (.json) to import."))])


class ConfirmForm(GameChangeForm):
    """A confirmation button that changes a game (remove, revert, take back)."""


# --- Tricks ----------------------------------------------------------------------


class TrickForm(GameChangeForm):
    """One trick's cards in play order from the leader (R9)."""

    number = HiddenField()
    cards = FieldList(StringField(), min_entries=rules.MIN_PLAYERS)
    confirm = BooleanField()


class KittyForm(GameChangeForm):
    """The kitty's cards, as its winner turns it over (R12)."""

    cards = StringField()

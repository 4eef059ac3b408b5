"""What every form of the app is made of: the base form and its CSRF token, the fields that read whole numbers
and choices in plain words, a form that changes a game from the revision it showed (and the one another device
may beat to it), a confirmation button, and the ``Problem`` a refused form's summary lists."""

from dataclasses import dataclass
from datetime import timedelta

from flask import current_app, session
from werkzeug.datastructures import MultiDict
from wtforms import Form, HiddenField, IntegerField, RadioField
from wtforms.csrf.session import SessionCSRF
from wtforms.validators import ValidationError

from ...db.models import LARGEST_ID
from ...service import names as name_rules
from ...words.explain import name_problem
from ...words.i18n import _


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


class ConfirmForm(GameChangeForm):
    """A confirmation button that changes a game (remove, revert, take back)."""


def check_name(field, missing):
    """A name field's text trimmed, or refused in words: ``missing`` when blank, else what is wrong with the
    name as a name (``service.names``)."""
    field.data = (field.data or "").strip()
    if not field.data:
        raise ValidationError(missing)
    problem = name_problem(name_rules.problem(field.data))
    if problem:
        raise ValidationError(problem)

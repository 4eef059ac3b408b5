"""A club night's forms (R18): a night opened, people checked in (picked from the club or typed new), the
draw (the split and the seed), and the director's changes (a leaver, a round closed, the newest change
undone), each made from the night's revision it showed."""

from datetime import date

from wtforms import HiddenField, SelectChoice, SelectMultipleField, StringField, TextAreaField
from wtforms.validators import InputRequired, ValidationError

from ... import rules
from ...db.models import LARGEST_ID, LARGEST_TARGET
from ...service import days
from ...words.i18n import _, lazy_gettext
from .fields import BaseForm, ChoiceField, WholeNumberField, check_name, whole_number

MOST_TYPED = 60  # new names typed at one check-in: a room of people, never a file's worth
LARGEST_SEED = 999_999  # a seed the room can read aloud and type again (R18 b)
MOST_DEALS = 30  # deals a round may be agreed to last: an evening's, not a game's


class NightChangeForm(BaseForm):
    """A form that changes a night, made from the night's revision it showed."""

    revision = HiddenField()

    def based_on(self):
        """The night's revision the form was made from, or None if the post lost it."""
        return whole_number(self.revision.data)


class NewNightForm(BaseForm):
    """A night's name and day, the target its tables play to (R16) and how long a round is (R18 c)."""

    name = StringField(validators=[InputRequired(lazy_gettext("Give the night a name."))])
    day = StringField()
    target = WholeNumberField(maximum=LARGEST_TARGET, default=rules.DEFAULT_TARGET,
                              message=lazy_gettext("The target is a whole number of points, 1 or more."),
                              validators=[InputRequired(lazy_gettext("Enter the target score; 150 is usual."))])
    length = ChoiceField(choices=[SelectChoice("once"), SelectChoice("deals")], default="once",
                         message=lazy_gettext("Choose how long a round is."))
    deals = WholeNumberField(maximum=MOST_DEALS, message=lazy_gettext(
        "Enter the deals of a round as a whole number from 1 to %(most)d.", most=MOST_DEALS))

    def validate_name(self, field):
        check_name(field, _("Give the night a name."))

    def validate_day(self, field):
        text = (field.data or "").strip()
        field.day = None
        if not text:
            return
        try:
            field.day = date.fromisoformat(text)
        except ValueError:
            raise ValidationError(_("Write the day as year-month-day, like 2026-12-04.")) from None
        if field.day > days.latest_game_day():
            raise ValidationError(_("A night can be dated up to tomorrow."))

    def validate_target(self, field):
        if field.data is None or field.data < 1:
            raise ValidationError(_("The target is a whole number of points, 1 or more."))

    def validate_deals(self, field):
        if self.length.data == "deals" and (field.data is None or field.data < 1):
            raise ValidationError(_("Enter the deals of a round as a whole number from 1 to %(most)d.",
                                    most=MOST_DEALS))

    @property
    def round_deals(self):
        """The round's length as the night keeps it: None (every player deals once) or the deals agreed."""
        return self.deals.data if self.length.data == "deals" else None


class CheckInForm(NightChangeForm):
    """People checked in: the club's people picked (by id), and new ones typed, one a line."""

    people = SelectMultipleField(coerce=str, validate_choice=False)
    new = TextAreaField()

    def validate_people(self, field):
        ids = [whole_number(value) for value in field.data or []]
        if any(person is None for person in ids):
            raise ValidationError(_("Pick people from the list."))
        field.ids = sorted(set(ids))

    def validate_new(self, field):
        names = [line.strip() for line in (field.data or "").splitlines() if line.strip()]
        if len(names) > MOST_TYPED:
            raise ValidationError(_("Type at most %(most)d new names at a time.", most=MOST_TYPED))
        for name in names:
            problem = _typed_name_problem(name)
            if problem:
                raise ValidationError(_("“%(name)s”: %(problem)s", name=name[:40], problem=problem))
        field.names = names

    def validate(self, extra_validators=None):
        valid = super().validate(extra_validators)
        if valid and not getattr(self.people, "ids", None) and not getattr(self.new, "names", None):
            self.new.errors = [_("Pick someone from the list, or type a new name.")]
            return False
        return valid


def _typed_name_problem(name):
    class One:
        data = name

    try:
        check_name(One, "")
    except ValidationError as error:
        return str(error)
    return None


class DrawForm(NightChangeForm):
    """The next round's draw: the split of those checked in into tables (R18 a) and the seed (R18 b)."""

    split = StringField(validators=[InputRequired(lazy_gettext("Choose how to split the tables."))])
    seed = WholeNumberField(maximum=LARGEST_SEED, message=lazy_gettext(
        "The seed is a whole number from 0 to %(most)d.", most=LARGEST_SEED),
        validators=[InputRequired(lazy_gettext("Enter a seed for the draw."))])

    def validate_split(self, field):
        sizes = tuple(whole_number(part) for part in (field.data or "").split("+"))
        if None in sizes:
            raise ValidationError(_("Choose how to split the tables."))
        field.sizes = sizes


class PersonForm(NightChangeForm):
    """Someone of the night (a leaver)."""

    person = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose who leaves."),
                              validators=[InputRequired(lazy_gettext("Choose who leaves."))])


class RoundForm(NightChangeForm):
    """A round of the night (to close)."""

    round = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose the round to close."),
                             validators=[InputRequired(lazy_gettext("Choose the round to close."))])


class NightUndoForm(NightChangeForm):
    """The night's newest change, to undo."""

    change = WholeNumberField(maximum=LARGEST_ID, message=lazy_gettext("Choose the change to undo."),
                              validators=[InputRequired(lazy_gettext("Choose the change to undo."))])

"""The club's forms: a person's new name and a merge and its undo, the secretary's device name, a game left out
of the season or dated, one game's place in the season, and the season's filters."""

from wtforms import BooleanField, Form, StringField
from wtforms.validators import InputRequired, ValidationError

from ...db.models import DEVICE_NAME_LENGTH, LARGEST_ID, VOID_REASON_LENGTH
from ...service import days
from ...service import names as name_rules
from ...words.explain import name_problem
from ...words.i18n import _, lazy_gettext
from .fields import BaseForm, WholeNumberField, check_name

# --- People -------------------------------------------------------------------------


class RenameForm(BaseForm):
    """A person's new name (games keep the names they were played under)."""

    name = StringField(validators=[InputRequired(lazy_gettext("Enter the name to show."))])

    def validate_name(self, field):
        check_name(field, _("Enter the name to show."))


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


# --- The season's filters -----------------------------------------------------------


class SeasonForm(Form):
    """The season's filters, read from the address: games played from ``since`` to
    ``until`` (both days included), only the tables of club nights if asked (``nights``), people with at
    least ``min_games`` games, and only those whose rating is ``settled`` (not provisional) if asked."""

    since = StringField()
    until = StringField()
    min_games = WholeNumberField(blank=0, message=lazy_gettext("Type the least number of games as a whole number."))
    nights = BooleanField()
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
        return {"since": self.since.day, "until": self.until.day, "min_games": self.min_games.data or 0,
                "nights": bool(self.nights.data)}

    @property
    def asked(self):
        """The filters as the page's links carry them on (none left blank)."""
        return {"since": self.since.data or None, "until": self.until.data or None,
                "min_games": self.min_games.data or None, "nights": "y" if self.nights.data else None,
                "settled": "y" if self.settled.data else None}


def _day(text):
    """A day written YYYY-MM-DD (as a date field sends it), None if blank; refused in words otherwise."""
    if not (text or "").strip():
        return None
    day = days.iso_day(text)
    if day is None:
        raise ValidationError(_("Write the day as year-month-day, like 2026-12-01."))
    return day

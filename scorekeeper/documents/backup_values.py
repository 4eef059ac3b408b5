"""The plain values a backup holds, checked as the backup's reader needs them: ids the database could give,
texts as the app's forms take them, moments, names that can show a person, the keys that find them."""

from datetime import datetime, timezone

from ..db.models import LARGEST_ID
from ..service import names
from .game import DocumentError, whole

# A game's revision and hand keys, a night's round numbers: far past any game's or night's, and far from the
# database's limit.
MOST_WRITES = 2**30


def is_id(value, none=False):
    """Whether ``value`` is an id the database could give (a whole number from 1), or None if ``none``."""
    return (none and value is None) or (whole(value) and 1 <= value <= LARGEST_ID)


def are_ids(values):
    return isinstance(values, list) and all(is_id(value) for value in values)


def is_text(value, most):
    """Whether ``value`` is text as the app's forms take it: 1 to ``most`` characters, trimmed, none that
    breaks a line or shows nothing."""
    return isinstance(value, str) and value == value.strip() and bool(value) and names.problem(value, most) is None


def read_time(text, where, none=False):
    """A moment as a backup writes it (ISO 8601, UTC, "2026-11-27T19:02:11.123456"), as the database keeps it
    (UTC, no zone); a zone, if given, is turned into UTC."""
    if none and text is None:
        return None
    try:
        moment = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        moment = None
    if moment is None:
        raise DocumentError(f"{where} must be a moment such as 2026-11-27T19:02:11 (UTC).")
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return moment


def is_shown_name(name):
    """Whether ``name`` can show a person: text, not empty, no longer than a name, and as typed (untrimmed:
    "Ana\\n" is refused, as the people it names were typed without one)."""
    return (isinstance(name, str) and bool(name.strip()) and names.problem(name.strip()) is None
            and names.problem(name, len(name)) is None)


def is_key(key):
    """Whether ``key`` is a spelling's key as the app compares names (``names.key``)."""
    return isinstance(key, str) and bool(key) and names.key(key) == key


def time_text(moment):
    """A moment as a backup writes it (ISO 8601, UTC as the database keeps it), None for none."""
    return None if moment is None else moment.isoformat()

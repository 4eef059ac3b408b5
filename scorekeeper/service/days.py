"""Every rule about the day a game was played, in one place: how it is written, and which days a game may
have (a form, an imported document or a paper season's CSV ask the same)."""

import re
from datetime import date, timedelta

EARLIEST_GAME_DAY = date(1900, 1, 1)  # a club's paper records may go back a long way; before this, a typo
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def iso_day(text):
    """The day ``text`` writes as year-month-day ("2026-12-01"), or None if it writes none.

    Only that form: ``date.fromisoformat`` also reads week dates and "20261201".
    """
    if not isinstance(text, str) or not _ISO_DAY.fullmatch(text.strip()):
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:  # "2026-02-30"
        return None


def latest_game_day():
    """The last day a game may have been played on: tomorrow, as a server's clock may be a day behind the
    table's."""
    return date.today() + timedelta(days=1)


def game_day_allowed(day):
    """Whether a game may have been played on ``day``: from ``EARLIEST_GAME_DAY`` to ``latest_game_day``."""
    return EARLIEST_GAME_DAY <= day <= latest_game_day()
